//! IPv4 and IPv6 addresses (std parsers) and MAC addresses.
//!
//! Dotted quads that are versions (`version 1.2.3.4`, `v1.2.3.4`, a `version` field) are
//! skipped, as are loopback, unspecified, broadcast and netmask values, which identify nobody.

use std::net::{Ipv4Addr, Ipv6Addr};

use crate::classify::pattern::LazyRegex as Regex;

use super::context::{Keywords, LastKey, by_key, char_at, char_before, regex};
use crate::classify::{Detector, Field};
use crate::error::Error;
use crate::item::{Finding, PsdKind};

/// Words saying a dotted number is a software version.
const VERSION_CONTEXT: &[&str] = &[
    "version",
    "release",
    "build",
    "firmware",
    "sdk",
    "update",
    "upgrade",
    "patch",
    "package",
    "npm",
    "pip",
    "cargo",
    "semver",
    "tag",
    "changelog",
];

/// Public DNS resolvers (Cloudflare, Google, Quad9, OpenDNS, AdGuard, CleanBrowsing,
/// Level 3, Comodo): shared infrastructure that identifies nobody.
const PUBLIC_RESOLVERS_V4: &[[u8; 4]] = &[
    [1, 1, 1, 1],
    [1, 0, 0, 1],
    [1, 1, 1, 2],
    [1, 0, 0, 2],
    [1, 1, 1, 3],
    [1, 0, 0, 3],
    [8, 8, 8, 8],
    [8, 8, 4, 4],
    [9, 9, 9, 9],
    [9, 9, 9, 10],
    [9, 9, 9, 11],
    [149, 112, 112, 112],
    [149, 112, 112, 10],
    [149, 112, 112, 11],
    [208, 67, 222, 222],
    [208, 67, 220, 220],
    [94, 140, 14, 14],
    [94, 140, 15, 15],
    [185, 228, 168, 9],
    [185, 228, 169, 9],
    [4, 2, 2, 1],
    [4, 2, 2, 2],
    [4, 2, 2, 3],
    [4, 2, 2, 4],
    [8, 26, 56, 26],
    [8, 20, 247, 20],
];
/// The IPv6 addresses of the same resolvers.
const PUBLIC_RESOLVERS_V6: &[&str] = &[
    "2606:4700:4700::1111",
    "2606:4700:4700::1001",
    "2001:4860:4860::8888",
    "2001:4860:4860::8844",
    "2620:fe::fe",
    "2620:fe::9",
    "2620:119:35::35",
    "2620:119:53::53",
];

/// Finds IP and MAC addresses.
#[derive(Debug)]
pub(super) struct Network {
    v4: Regex,
    v6: Regex,
    mac: Regex,
    version: Keywords,
}

impl Network {
    pub(super) fn new() -> Result<Self, Error> {
        Ok(Network {
            v4: regex("ip", r"\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}")?,
            v6: regex(
                "ip",
                r"[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?:(?::|\.)\d{1,3}(?:\.\d{1,3}){2,3})?",
            )?,
            mac: regex(
                "mac",
                r"[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}|[0-9A-Fa-f]{2}(?:-[0-9A-Fa-f]{2}){5}|[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}",
            )?,
            version: Keywords::new("ip", VERSION_CONTEXT)?,
        })
    }

    fn ipv4(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) {
        thread_local! {
            static LAST: LastKey<bool> = const { LastKey::new((String::new(), None)) };
        }
        let version_field = field
            .key
            .is_some_and(|k| by_key(&LAST, k, |k| self.version.any_in(k)));
        for m in self.v4.find_iter(text) {
            let (start, end) = (m.start(), m.end());
            let before = char_before(text, start);
            if before.is_some_and(|c| c.is_alphanumeric() || c == '.' || c == '_' || c == '-') {
                continue;
            }
            let after = char_at(text, end);
            if after.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-')
                || (after == Some('.')
                    && text
                        .get(end + 1..)
                        .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_alphanumeric())))
            {
                continue;
            }
            let Ok(ip) = m.as_str().parse::<Ipv4Addr>() else {
                continue;
            };
            if ip.is_loopback()
                || ip.is_unspecified()
                || ip.is_broadcast()
                || is_netmask(ip)
                || PUBLIC_RESOLVERS_V4.contains(&ip.octets())
            {
                continue;
            }
            if version_field || self.version.before(text, start, 20) {
                continue;
            }
            let conf = if ip.is_private() || ip.is_link_local() {
                0.7
            } else {
                0.9
            };
            out.push(Finding::new(start..end, PsdKind::IpAddress, conf, "ip"));
        }
    }

    fn ipv6(&self, text: &str, out: &mut Vec<Finding>) {
        for m in self.v6.find_iter(text) {
            let (start, end) = (m.start(), m.end());
            let s = m.as_str();
            if s.matches(':').count() < 2 || s.len() < 6 {
                continue;
            }
            if char_before(text, start).is_some_and(|c| c.is_alphanumeric() || c == ':')
                || char_at(text, end).is_some_and(|c| c.is_alphanumeric())
            {
                continue;
            }
            let Ok(ip) = s.parse::<Ipv6Addr>() else {
                continue;
            };
            let resolver = PUBLIC_RESOLVERS_V6
                .iter()
                .any(|r| r.parse::<Ipv6Addr>().is_ok_and(|r| r == ip));
            if ip.is_loopback() || ip.is_unspecified() || resolver {
                continue;
            }
            out.push(Finding::new(start..end, PsdKind::IpAddress, 0.9, "ip"));
        }
    }

    fn macs(&self, text: &str, out: &mut Vec<Finding>) {
        for m in self.mac.find_iter(text) {
            let (start, end) = (m.start(), m.end());
            if char_before(text, start)
                .is_some_and(|c| c.is_alphanumeric() || matches!(c, ':' | '-' | '.'))
                || char_at(text, end).is_some_and(|c| c.is_alphanumeric() || matches!(c, ':' | '-'))
                || text.get(end..).is_some_and(|r| {
                    r.starts_with('.') && r.as_bytes().get(1).is_some_and(u8::is_ascii_hexdigit)
                })
            {
                continue;
            }
            let hex = m.as_str().bytes().filter(u8::is_ascii_hexdigit);
            let (zero, ff) = hex.fold((true, true), |(z, f), b| {
                (z && b == b'0', f && (b == b'f' || b == b'F'))
            });
            if zero || ff || !m.as_str().bytes().any(|b| b.is_ascii_digit()) {
                continue;
            }
            out.push(Finding::new(start..end, PsdKind::MacAddress, 0.9, "mac"));
        }
    }
}

/// Whether the address is a run of ones then zeros (255.255.255.0).
fn is_netmask(ip: Ipv4Addr) -> bool {
    let v = u32::from(ip);
    v.leading_ones() + v.trailing_zeros() == 32 && v.leading_ones() >= 8
}

impl crate::classify::shared::Gate for Network {
    fn may_find(text: &str, _field: &Field<'_>) -> bool {
        // Whether `c` occurs `n` times at least: a byte the facts of a long text rule out is
        // not counted, and the count stops at `n`.
        let at_least = |c: u8, n: usize| {
            super::context::has_byte(text, c)
                && text.bytes().filter(|&b| b == c).nth(n - 1).is_some()
        };
        at_least(b'.', 2) || at_least(b':', 2) || at_least(b'-', 5)
    }
}

impl Detector for Network {
    fn name(&self) -> &'static str {
        "ip"
    }

    fn detect(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) {
        let b = text.as_bytes();
        let dots = b.iter().filter(|c| **c == b'.').count();
        let colons = b.iter().filter(|c| **c == b':').count();
        if dots >= 3 {
            self.ipv4(text, field, out);
        }
        if colons >= 2 {
            self.ipv6(text, out);
        }
        if colons >= 5 || dots >= 2 || b.iter().filter(|c| **c == b'-').count() >= 5 {
            self.macs(text, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans<'a>(text: &'a str, field: &Field<'_>) -> Vec<(&'a str, PsdKind)> {
        let d = Network::new().unwrap();
        let mut out = Vec::new();
        d.detect(text, field, &mut out);
        out.iter()
            .map(|f| (&text[f.span.clone()], f.kind))
            .collect()
    }

    #[test]
    fn addresses() {
        let none = Field::default();
        assert_eq!(
            spans("login from 81.2.69.160, port 22", &none),
            [("81.2.69.160", PsdKind::IpAddress)]
        );
        assert_eq!(
            spans("host 192.168.1.20:8080", &none),
            [("192.168.1.20", PsdKind::IpAddress)]
        );
        assert_eq!(
            spans("v6 2001:db8:85a3::8a2e:370:7334 seen", &none),
            [("2001:db8:85a3::8a2e:370:7334", PsdKind::IpAddress)]
        );
        assert_eq!(
            spans("[fe80::1ff:fe23:4567:890a]", &none),
            [("fe80::1ff:fe23:4567:890a", PsdKind::IpAddress)]
        );
        assert_eq!(
            spans("MAC 00:1A:2B:3C:4D:5E", &none),
            [("00:1A:2B:3C:4D:5E", PsdKind::MacAddress)]
        );
        assert_eq!(
            spans("mac 00-1a-2b-3c-4d-5e", &none),
            [("00-1a-2b-3c-4d-5e", PsdKind::MacAddress)]
        );
    }

    #[test]
    fn true_negatives() {
        let none = Field::default();
        for s in [
            "version 1.2.3.4",
            "upgrade to v1.2.3.4",
            "semver 2.3.1 and v1.12.0",
            "1.2.3.4.5",
            "127.0.0.1 and 0.0.0.0 and ::1",
            "mask 255.255.255.0",
            "from 9:30 to 14:00, at 10:30:00",
            "2025-06-09T19:00:00",
            "300.1.1.1",
            "id 123e4567-e89b-12d3-a456-426614174000",
            "RRULE:FREQ=WEEKLY;BYDAY=MO",
            "colour #ff00aa",
            "resolvers 9.9.9.9, 1.1.1.1 and 8.8.4.4",
            "nameserver 2606:4700:4700::1111",
            "card 4111.1111.1111.1111",
            "released 4.1.2 (2024-11-30)",
        ] {
            assert!(spans(s, &none).is_empty(), "{s}: {:?}", spans(s, &none));
        }
        let f = Field {
            path: "/version",
            key: Some("version"),
            description: None,
            dictated: false,
        };
        assert!(spans("1.2.3.4", &f).is_empty());
    }
}
