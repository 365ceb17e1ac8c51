//! URLs: the URL itself is not PSD, but its query values and path segments can be. Query
//! parameters are classified by name (`email`, `phone`, `ssn`, `dob`, `patient`, `token`, …);
//! the span is the raw value in the original URL. Percent-encoded e-mail addresses in values
//! and path segments after `users/`, `patients/`, `customers/` are reported too.

use std::borrow::Cow;

use crate::classify::pattern::LazyRegex as Regex;
use percent_encoding::percent_decode_str;

use super::context::{has, regex};
use crate::classify::{Detector, Field};
use crate::error::Error;
use crate::item::{Finding, PsdKind};

/// Query parameter names (lower case, exact or as a `_`/`-` separated part) and the kind
/// their values carry.
const PARAMS: &[(&str, PsdKind)] = &[
    ("email", PsdKind::Email),
    ("e-mail", PsdKind::Email),
    ("mail", PsdKind::Email),
    ("phone", PsdKind::Phone),
    ("tel", PsdKind::Phone),
    ("mobile", PsdKind::Phone),
    ("msisdn", PsdKind::Phone),
    ("name", PsdKind::PersonName),
    ("firstname", PsdKind::PersonName),
    ("lastname", PsdKind::PersonName),
    ("fname", PsdKind::PersonName),
    ("lname", PsdKind::PersonName),
    ("fullname", PsdKind::PersonName),
    ("surname", PsdKind::PersonName),
    ("user", PsdKind::Username),
    ("username", PsdKind::Username),
    ("login", PsdKind::Username),
    ("uid", PsdKind::AccountId),
    ("userid", PsdKind::AccountId),
    ("customer", PsdKind::AccountId),
    ("account", PsdKind::AccountId),
    ("member", PsdKind::AccountId),
    ("ssn", PsdKind::Ssn),
    ("dob", PsdKind::DateOfBirth),
    ("birthdate", PsdKind::DateOfBirth),
    ("birthday", PsdKind::DateOfBirth),
    ("patient", PsdKind::MedicalRecord),
    ("mrn", PsdKind::MedicalRecord),
    ("pnr", PsdKind::AccountId),
    ("token", PsdKind::Credential),
    ("key", PsdKind::Credential),
    ("apikey", PsdKind::Credential),
    ("secret", PsdKind::Credential),
    ("password", PsdKind::Credential),
    ("pwd", PsdKind::Credential),
    ("pass", PsdKind::Credential),
    ("auth", PsdKind::Credential),
    ("sig", PsdKind::Credential),
    ("signature", PsdKind::Credential),
    ("session", PsdKind::Credential),
    ("sid", PsdKind::Credential),
    ("address", PsdKind::StreetAddress),
    ("street", PsdKind::StreetAddress),
    ("zip", PsdKind::Postcode),
    ("postcode", PsdKind::Postcode),
    ("lat", PsdKind::Coordinates),
    ("lng", PsdKind::Coordinates),
    ("lon", PsdKind::Coordinates),
    ("iban", PsdKind::Iban),
    ("card", PsdKind::CardNumber),
    ("ip", PsdKind::IpAddress),
    // What a person earns or scores with lenders ("annual_income=52000", "credit_score=640").
    ("income", PsdKind::MoneyAmount),
    ("salary", PsdKind::MoneyAmount),
    ("earnings", PsdKind::MoneyAmount),
    ("creditscore", PsdKind::MoneyAmount),
    ("credit_score", PsdKind::MoneyAmount),
    ("fico", PsdKind::MoneyAmount),
    // The same in other languages.
    ("namn", PsdKind::PersonName),
    ("nom", PsdKind::PersonName),
    ("prenom", PsdKind::PersonName),
    ("nombre", PsdKind::PersonName),
    ("apellido", PsdKind::PersonName),
    ("vorname", PsdKind::PersonName),
    ("nachname", PsdKind::PersonName),
    ("cognome", PsdKind::PersonName),
    ("naam", PsdKind::PersonName),
    ("geburtsdatum", PsdKind::DateOfBirth),
    ("personnummer", PsdKind::NationalId),
    // Special-category values a page or an API takes as parameters.
    ("clinic", PsdKind::HealthFacility),
    ("klinik", PsdKind::HealthFacility),
    ("clinique", PsdKind::HealthFacility),
    ("clinica", PsdKind::HealthFacility),
    ("hospital", PsdKind::HealthFacility),
    ("diagnosis", PsdKind::Condition),
    ("diagnose", PsdKind::Condition),
    ("diagnostic", PsdKind::Condition),
    ("diagnostico", PsdKind::Condition),
    ("icd", PsdKind::Condition),
    ("religion", PsdKind::Belief),
    ("ethnicity", PsdKind::EthnicOrigin),
];

/// Path segments after which the next segment identifies a person.
const PERSON_COLLECTIONS: &[(&str, PsdKind)] = &[
    ("users", PsdKind::AccountId),
    ("user", PsdKind::AccountId),
    ("customers", PsdKind::AccountId),
    ("accounts", PsdKind::AccountId),
    ("members", PsdKind::AccountId),
    ("profiles", PsdKind::AccountId),
    ("patients", PsdKind::MedicalRecord),
    ("patient", PsdKind::MedicalRecord),
];

/// Where a path names a user's home directory: the next segment is the account's name
/// (`/home/ana/…`, `/Users/ana/…`, `C:\Users\ana\…`).
const HOME_ROOTS: &[&str] = &["/home/", "/Users/", "\\Users\\"];

/// Home directories that belong to no person: system, service and placeholder accounts.
const NOT_A_PERSON: &[&str] = &[
    "user",
    "users",
    "username",
    "admin",
    "administrator",
    "root",
    "ubuntu",
    "debian",
    "runner",
    "vagrant",
    "ec2-user",
    "shared",
    "public",
    "default",
    "guest",
    "me",
    "you",
    "app",
    "www",
    "www-data",
    "node",
    "docker",
    "git",
    "jenkins",
    "circleci",
    "travis",
    "build",
    "builder",
    "ci",
    "dev",
    "developer",
    "test",
    "tester",
    "demo",
    "example",
    "your-name",
    "yourname",
    "your_name",
    "name",
    "student",
    "pi",
    "linuxbrew",
    "postgres",
    "nobody",
    "all users",
];

/// The account names of home directories in `text` (`tbrandt` of `/home/tbrandt/backups`).
fn home_directory_users(text: &str, out: &mut Vec<Finding>) {
    let bytes = text.as_bytes();
    for root in HOME_ROOTS {
        for at in memchr::memmem::find_iter(bytes, root.as_bytes()) {
            let start = at + root.len();
            let len = bytes
                .get(start..)
                .unwrap_or_default()
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
                .count();
            let end = start + len;
            // A segment of its own: a separator, a quote or the end after it.
            let closed = bytes.get(end).is_none_or(|b| {
                matches!(b, b'/' | b'\\' | b'"' | b'\'' | b'`' | b')') || b.is_ascii_whitespace()
            });
            let Some(name) = text.get(start..end) else {
                continue;
            };
            if !(2..=32).contains(&len)
                || !closed
                || !name.bytes().any(|b| b.is_ascii_alphabetic())
                || NOT_A_PERSON.iter().any(|n| n.eq_ignore_ascii_case(name))
            {
                continue;
            }
            out.push(Finding::new(start..end, PsdKind::Username, 0.75, "url"));
        }
    }
}

/// Finds PSD inside URLs.
#[derive(Debug)]
pub(super) struct Url {
    url: Regex,
}

impl Url {
    pub(super) fn new() -> Result<Self, Error> {
        Ok(Url {
            url: regex("url", r#"(?i)(?:https?://|www\.)[^\s<>"'`\]\)]+"#)?,
        })
    }
}

/// The kind a parameter name says its value is.
fn param_kind(name: &str) -> Option<PsdKind> {
    let lower: Cow<'_, str> = if name.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(name.to_ascii_lowercase())
    } else {
        Cow::Borrowed(name)
    };
    let compact = lower.trim_end_matches("[]");
    PARAMS
        .iter()
        .find(|(p, _)| *p == compact || compact.split(['_', '-', '.']).any(|part| part == *p))
        .map(|(_, k)| *k)
}

impl crate::classify::shared::Gate for Url {
    fn may_find(text: &str, _field: &Field<'_>) -> bool {
        // Both hold a `:` or a `.`, told by the facts of a long text.
        let (colon, dot) = (
            super::context::has_byte(text, b':'),
            super::context::has_byte(text, b'.'),
        );
        (colon && has(text, "://"))
            || (dot && has(text, "www."))
            || has(text, "/home/")
            || has(text, "Users")
    }
}

impl Detector for Url {
    fn name(&self) -> &'static str {
        "url"
    }

    fn detect(&self, text: &str, _field: &Field<'_>, out: &mut Vec<Finding>) {
        home_directory_users(text, out);
        if !has(text, "://") && !has(text, "www.") {
            return;
        }
        for m in self.url.find_iter(text) {
            let url = m.as_str().trim_end_matches(['.', ',', ';', ':', '!', '?']);
            let base = m.start();
            let (before_frag, _) = url.split_once('#').unwrap_or((url, ""));
            let (path, query) = before_frag.split_once('?').unwrap_or((before_frag, ""));
            // Path segments.
            let mut prev: Option<&str> = None;
            let mut offset = 0usize;
            for seg in path.split('/') {
                let seg_start = base + offset;
                offset += seg.len() + 1;
                if let Some(p) = prev
                    && !seg.is_empty()
                    && seg
                        .bytes()
                        .any(|b| b.is_ascii_digit() || b == b'%' || b == b'@')
                    && let Some((_, k)) = PERSON_COLLECTIONS
                        .iter()
                        .find(|(c, _)| c.eq_ignore_ascii_case(p))
                {
                    out.push(Finding::new(
                        seg_start..seg_start + seg.len(),
                        *k,
                        0.7,
                        "url",
                    ));
                }
                if seg.contains("%40") {
                    let decoded = percent_decode_str(seg).decode_utf8_lossy();
                    if decoded.contains('@') {
                        out.push(Finding::new(
                            seg_start..seg_start + seg.len(),
                            PsdKind::Email,
                            0.85,
                            "url",
                        ));
                    }
                }
                prev = Some(seg);
            }
            // Query parameters.
            if query.is_empty() {
                continue;
            }
            let mut qoff = base + path.len() + 1;
            for pair in query.split('&') {
                let pair_start = qoff;
                qoff += pair.len() + 1;
                let Some((name, value)) = pair.split_once('=') else {
                    continue;
                };
                if value.is_empty() {
                    continue;
                }
                let vstart = pair_start + name.len() + 1;
                let span = vstart..vstart + value.len();
                let name = percent_decode_str(name).decode_utf8_lossy();
                if let Some(kind) = param_kind(&name) {
                    out.push(Finding::new(span, kind, 0.85, "url"));
                } else if value.contains("%40")
                    && percent_decode_str(value).decode_utf8_lossy().contains('@')
                {
                    out.push(Finding::new(span, PsdKind::Email, 0.85, "url"));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str) -> Vec<(&str, PsdKind)> {
        let d = Url::new().unwrap();
        let mut out = Vec::new();
        d.detect(text, &Field::default(), &mut out);
        out.iter()
            .map(|f| (&text[f.span.clone()], f.kind))
            .collect()
    }

    #[test]
    fn home_directories_name_their_user() {
        assert_eq!(
            spans("upload(\"/home/mkowal/backups/a.zip\") failed"),
            [("mkowal", PsdKind::Username)]
        );
        assert_eq!(
            spans(r"C:\Users\j.sorensen\AppData\Local"),
            [("j.sorensen", PsdKind::Username)]
        );
        let mut both = spans("see /Users/ines-v/Documents and /var/home/okafor");
        both.sort_by_key(|(t, _)| *t);
        assert_eq!(
            both,
            [("ines-v", PsdKind::Username), ("okafor", PsdKind::Username)]
        );
        // Service accounts, placeholders and a path that only starts a word.
        assert!(spans("/home/runner/work, /home/ubuntu/app, /Users/USERNAME/x, /home/").is_empty());
        assert!(spans("/homepage/ana").is_empty());
    }

    #[test]
    fn query_values_by_parameter_name() {
        let t = "GET https://api.example.com/v1/search?q=flights&email=ana%40example.es&phone=%2B34612345678&token=abc123&page=2";
        assert_eq!(
            spans(t),
            [
                ("ana%40example.es", PsdKind::Email),
                ("%2B34612345678", PsdKind::Phone),
                ("abc123", PsdKind::Credential),
            ]
        );
        assert_eq!(
            spans("https://x.io/r?first_name=Ana&patient_id=77"),
            [("Ana", PsdKind::PersonName), ("77", PsdKind::MedicalRecord)]
        );
        assert_eq!(
            spans("https://portal.example.se/boka?namn=Erik%20Berg&klinik=psykiatri&lang=sv"),
            [
                ("Erik%20Berg", PsdKind::PersonName),
                ("psykiatri", PsdKind::HealthFacility)
            ]
        );
        assert_eq!(
            spans("https://api.example.org/v2/claims?icd=F32.1&religion=catholic&sort=asc"),
            [("F32.1", PsdKind::Condition), ("catholic", PsdKind::Belief)]
        );
        assert_eq!(
            spans("https://rent.example.com/list?beds=2&annual_income=61000&credit_score=700"),
            [
                ("61000", PsdKind::MoneyAmount),
                ("700", PsdKind::MoneyAmount)
            ]
        );
        assert_eq!(
            spans("https://x.io/r?to=bob%40mail.com"),
            [("bob%40mail.com", PsdKind::Email)]
        );
    }

    #[test]
    fn path_segments() {
        assert_eq!(
            spans("https://crm.example.com/customers/88231/orders"),
            [("88231", PsdKind::AccountId)]
        );
        assert_eq!(
            spans("https://x.io/patients/PT-5512"),
            [("PT-5512", PsdKind::MedicalRecord)]
        );
        assert_eq!(
            spans("https://x.io/u/ana%40example.es/profile"),
            [("ana%40example.es", PsdKind::Email)]
        );
    }

    #[test]
    fn plain_urls_are_not_psd() {
        for s in [
            "https://www.example.com/docs/getting-started?page=2&sort=asc",
            "see www.weather.gov/forecast",
            "https://github.com/org/repo/issues/4521",
            "no url here",
        ] {
            assert!(spans(s).is_empty(), "{s}: {:?}", spans(s));
        }
    }
}
