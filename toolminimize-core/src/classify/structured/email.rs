//! E-mail addresses: RFC 5322 "dot-atom" local parts and DNS domains, with a sanity check on
//! the top-level domain (alphabetic, not a file extension such as `logo@2x.png`).

use crate::classify::pattern::LazyRegex as Regex;

use super::context::{char_at, char_before, regex};
use crate::classify::{Detector, Field};
use crate::error::Error;
use crate::item::{Finding, PsdKind};

/// Last labels that name files, not domains (`icon@2x.png`, `v@1.0.json`).
const FILE_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "svg", "webp", "bmp", "ico", "tif", "tiff", "js", "mjs", "cjs",
    "ts", "tsx", "jsx", "css", "scss", "json", "yaml", "yml", "toml", "lock", "txt", "html", "htm",
    "xml", "pdf", "zip", "gz", "tgz", "tar", "rb", "java", "kt", "swift", "cpp", "hpp", "exe",
    "dll", "wasm", "map", "woff", "woff2", "ttf", "mp3", "mp4", "mov", "avi", "wav", "csv", "xls",
    "xlsx", "doc", "docx", "ppt", "pptx", "vue", "svelte", "lua", "php",
];

/// Finds e-mail addresses.
#[derive(Debug)]
pub(super) struct Email {
    re: Regex,
}

impl Email {
    pub(super) fn new() -> Result<Self, Error> {
        // Label and top-level-domain lengths (at most 63 and 24 characters) are checked after
        // the match: as counted repetitions of these Unicode classes they would make the
        // pattern take some 100 ms to compile.
        Ok(Email {
            re: regex(
                "email",
                r"[\p{L}\p{N}._%+'\-]+@(?:[\p{L}\p{N}](?:[\p{L}\p{N}\-]*[\p{L}\p{N}])?\.)+\p{L}{2,}",
            )?,
        })
    }
}

fn plausible(text: &str, start: usize, end: usize) -> bool {
    let Some(s) = text.get(start..end) else {
        return false;
    };
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    if local.starts_with('.') || local.ends_with('.') || local.contains("..") || local.is_empty() {
        return false;
    }
    let tld = domain.rsplit('.').next().unwrap_or("");
    if tld.chars().count() > 24 || domain.split('.').any(|l| l.chars().count() > 63) {
        return false;
    }
    if FILE_EXTENSIONS.iter().any(|e| e.eq_ignore_ascii_case(tld)) {
        return false;
    }
    // A letter right after the TLD means the regex stopped inside a longer token.
    if char_at(text, end).is_some_and(|c| c.is_alphanumeric() || c == '@') {
        return false;
    }
    // `git@github.com:org/repo` is a transport, not a person.
    if local == "git" && char_at(text, end) == Some(':') {
        return false;
    }
    char_before(text, start).is_none_or(|c| c != '@')
}

/// Domains reserved for documentation and testing (RFC 2606, RFC 6761): nobody's mailbox.
fn reserved_domain(domain: &str) -> bool {
    let d = domain.to_ascii_lowercase();
    let d = d.trim_end_matches('.');
    ["example.com", "example.net", "example.org", "localhost"]
        .iter()
        .any(|r| d == *r || d.strip_suffix(r).is_some_and(|h| h.ends_with('.')))
        || ["example", "test", "invalid", "localhost"]
            .iter()
            .any(|t| d.rsplit('.').next() == Some(*t))
}

/// Drops the e-mail findings of `text` that are a test fixture's address: at a documentation
/// domain, inside code, which needs it as written. Run on the whole text once every detector
/// and decoded view has been read (a view is read in windows, which may not hold the code's
/// fences).
pub(crate) fn drop_fixtures(text: &str, found: &mut Vec<Finding>) {
    let fixture = |f: &Finding| {
        f.kind == PsdKind::Email
            && text
                .get(f.span.clone())
                .and_then(|s| s.rsplit_once('@'))
                .is_some_and(|(_, d)| reserved_domain(d))
    };
    if !found.iter().any(fixture) {
        return;
    }
    let code = crate::text::code::CodeRegions::of(text);
    found.retain(|f| !(fixture(f) && code.contains(f.span.start)));
}

impl crate::classify::shared::Gate for Email {
    fn may_find(text: &str, _field: &Field<'_>) -> bool {
        super::context::has_byte(text, b'@')
    }
}

impl Detector for Email {
    fn name(&self) -> &'static str {
        "email"
    }

    fn detect(&self, text: &str, _field: &Field<'_>, out: &mut Vec<Finding>) {
        // Only around each `@`: the pattern's Unicode classes make a scan of a whole long
        // text slow, and an address is at most 64 + 1 + 255 bytes.
        let mut done = 0usize;
        for (at, _) in text.match_indices('@') {
            if at < done {
                continue;
            }
            let mut ws = at;
            for (i, c) in text.get(..at).unwrap_or_default().char_indices().rev() {
                if at - i > 64 || !(c.is_alphanumeric() || "._%+'-".contains(c)) {
                    break;
                }
                ws = i;
            }
            let mut we = (at + 256).min(text.len());
            while !text.is_char_boundary(we) {
                we -= 1;
            }
            let Some(m) = text.get(ws..we).and_then(|w| self.re.find(w)) else {
                continue;
            };
            let (mut start, end) = (ws + m.start(), ws + m.end());
            done = end;
            // Quote or dot characters that open the match belong to the surrounding text.
            while let Some(c) = char_at(text, start) {
                if c == '\'' || c == '.' {
                    start += c.len_utf8();
                } else {
                    break;
                }
            }
            if plausible(text, start, end) {
                out.push(Finding::new(start..end, PsdKind::Email, 0.97, "email"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str) -> Vec<&str> {
        let d = Email::new().unwrap();
        let mut out = Vec::new();
        d.detect(text, &Field::default(), &mut out);
        out.iter().map(|f| &text[f.span.clone()]).collect()
    }

    #[test]
    fn finds_addresses_in_text() {
        assert_eq!(
            spans("write to rebecca.stone@gmail.com today"),
            ["rebecca.stone@gmail.com"]
        );
        assert_eq!(
            spans("cc: j.o'neil+tag@mail.example.co.uk."),
            ["j.o'neil+tag@mail.example.co.uk"]
        );
        assert_eq!(
            spans("mailto:jürgen.müller@beispiel.de"),
            ["jürgen.müller@beispiel.de"]
        );
        assert_eq!(
            spans("'anna@firma.it', 'b@c.fr'"),
            ["anna@firma.it", "b@c.fr"]
        );
    }

    #[test]
    fn ignores_non_addresses() {
        assert!(spans("icon@2x.png and logo@3x.webp").is_empty());
        assert!(spans("npm i lodash@4.17.21").is_empty());
        assert!(spans("git clone git@github.com:org/repo.git").is_empty());
        assert!(spans("@mention and foo@bar").is_empty());
        assert!(spans("no at sign here").is_empty());
        let long_label = format!("ana@{}.example.org", "a".repeat(64));
        assert!(spans(&long_label).is_empty());
        assert!(spans("ana@example.abcdefghijklmnopqrstuvwxyz").is_empty());
    }

    #[test]
    fn documentation_domains_inside_code_are_fixtures() {
        let kept = |t: &'static str| {
            let d = Email::new().unwrap();
            let mut out = Vec::new();
            d.detect(t, &Field::default(), &mut out);
            drop_fixtures(t, &mut out);
            out.iter().map(|f| &t[f.span.clone()]).collect::<Vec<_>>()
        };
        let t =
            "Fix:\n```js\nexpect(valid('qa+x@example.org')).toBe(true)\n```\nMail lee@example.org";
        assert_eq!(kept(t), ["lee@example.org"]);
        assert!(kept("run `send('a@mail.test')` first").is_empty());
        // Other domains inside code are still addresses.
        assert_eq!(
            kept("`notify('dana.ko@fastmail.fm')`"),
            ["dana.ko@fastmail.fm"]
        );
        assert!(reserved_domain("mail.example.com") && !reserved_domain("example.fr"));
        assert!(!reserved_domain("notexample.com"));
    }
}
