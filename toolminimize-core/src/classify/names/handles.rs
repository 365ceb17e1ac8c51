//! Names inside e-mail local parts and user handles (`rebecca.stone@…`, `@dana_kim`,
//! `h.tanaka@…`): the local part or handle is reported as a person's name with low
//! confidence, so the name can be removed elsewhere even when the address itself is kept.
//! Inside file names, paths, globs and URL slugs (`report_anna_schmidt_2024.pdf`,
//! `scans/jan.kowalski-*.png`, `/f/help-for-maria-keller`) a known given name followed by a
//! known family name is reported as the name alone.

use std::ops::Range;

use super::lists::NameLists;

/// A name inside a handle.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct HandleName {
    pub(crate) span: Range<usize>,
    pub(crate) confidence: f32,
}

fn handle_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '+')
}

/// Alphabetic parts of a handle (digits stripped: `kim84` → `kim`).
fn parts(handle: &str) -> Vec<String> {
    handle
        .split(['.', '_', '-', '+'])
        .map(|p| {
            p.trim_matches(|c: char| c.is_ascii_digit())
                .to_ascii_lowercase()
        })
        .filter(|p| !p.is_empty())
        .collect()
}

/// Confidence that `handle` holds a person's name; `email` relaxes the rules a little (an
/// address's local part is usually its owner's name).
fn judge(handle: &str, email: bool, lists: &NameLists) -> Option<f32> {
    let parts = parts(handle);
    if parts
        .iter()
        .any(|p| !p.chars().all(|c| c.is_ascii_alphabetic()))
        || parts.len() > 3
    {
        return None;
    }
    let flags: Vec<_> = parts.iter().map(|p| lists.flags(p)).collect();
    match (parts.as_slice(), flags.as_slice()) {
        // first.last, first_last, first.middle.last
        ([a, .., b], [fa, .., fb]) if a.len() >= 2 && b.len() >= 2 => {
            let clean = |f: &super::lists::Flags| !f.ambiguous();
            // A setting and its value (`lang_de`, `locale_en`, `region_us`) is no one's
            // name, whatever names its words also are.
            if SETTING_WORDS.contains(&a.as_str()) {
                None
            } else if fa.first() && fb.name() && (clean(fa) || clean(fb)) {
                Some(if email { 0.5 } else { 0.45 })
            } else if fa.name() && fb.first() && clean(fa) && clean(fb) {
                // last.first
                Some(if email { 0.45 } else { 0.4 })
            } else {
                None
            }
        }
        // h.tanaka
        ([a, b], [_, fb])
            if email && a.len() == 1 && b.len() >= 3 && fb.last() && !fb.ambiguous() =>
        {
            Some(0.4)
        }
        // rebecca@
        ([a], [fa]) if email && a.len() >= 4 && fa.first() && !fa.ambiguous() => Some(0.35),
        _ => None,
    }
}

/// Words that open a setting's value in an identifier (`lang_de`, `locale_fr`, `sort_desc`).
const SETTING_WORDS: &[&str] = &[
    "lang", "language", "locale", "region", "country", "currency", "timezone", "tz", "sort",
    "order", "mode", "format", "theme", "default", "hl", "gl", "cr", "lr",
];

/// [`HANDLE_BYTES`] of an ASCII letter or digit.
const WORD: u8 = 1;
/// [`HANDLE_BYTES`] of a separator: `.`, `_`, `-`, `+`.
const SEPARATOR: u8 = 2;

/// The class of every byte in a handle: [`WORD`], [`SEPARATOR`], or 0 for a byte that is
/// not part of one.
#[allow(
    clippy::indexing_slicing,
    reason = "a constant table: every index is below 256, checked when it is built"
)]
const HANDLE_BYTES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() {
            t[b] = WORD;
        } else if matches!(c, b'.' | b'_' | b'-' | b'+') {
            t[b] = SEPARATOR;
        }
        b += 1;
    }
    t
};

/// Names in e-mail local parts and in `first.last` / `@first_last` handles of `text`.
pub(crate) fn find(text: &str, lists: &NameLists) -> Vec<HandleName> {
    let mut out = Vec::new();
    // A handle, address or slug is made of parts joined by one of these (or follows an
    // `@`): a text without any holds none.
    if !text
        .bytes()
        .any(|b| matches!(b, b'@' | b'.' | b'_' | b'-' | b'+'))
    {
        return out;
    }
    // Every handle character is ASCII: runs of them are found byte by byte (a byte of a
    // multi-byte character is never one), and their ends are character boundaries.
    let bytes = text.as_bytes();
    let class = |i: usize| {
        bytes.get(i).map_or(0, |&b| {
            HANDLE_BYTES.get(usize::from(b)).copied().unwrap_or(0)
        })
    };
    let mut next = 0;
    while next < bytes.len() {
        let start = next;
        if class(start) == 0 {
            next += 1;
            continue;
        }
        let mut end = start;
        let mut separated = false;
        loop {
            let c = class(end);
            if c == 0 {
                break;
            }
            separated |= c == SEPARATOR;
            end += 1;
        }
        next = end;
        // One part, not before an `@`: neither an address's local part, a handle nor a pair
        // of names in a slug (most words stop here, before any trimming).
        if !separated && bytes.get(end) != Some(&b'@') {
            continue;
        }
        // Trim sentence punctuation.
        let raw = text.get(start..end).unwrap_or("");
        let trimmed = raw.trim_matches(['.', '-', '_', '+']);
        let lead = raw.len() - raw.trim_start_matches(['.', '-', '_', '+']).len();
        let (s, e) = (start + lead, start + lead + trimmed.len());
        if trimmed.is_empty() {
            continue;
        }
        let after = text.get(end..).and_then(|t| t.chars().next());
        // One part (its separators trimmed away), not before an `@`: as above.
        if after != Some('@') && !trimmed.contains(['.', '_', '-', '+']) {
            continue;
        }
        let before = text.get(..start).and_then(|t| t.chars().next_back());
        let email = after == Some('@')
            && text.get(end + 1..).is_some_and(|d| {
                d.split(|c: char| !handle_char(c))
                    .next()
                    .is_some_and(|d| d.contains('.'))
            });
        if before.is_some_and(|b| {
            matches!(
                b,
                '/' | '\\' | ':' | '=' | '#' | '$' | '%' | '&' | '?' | '`'
            )
        }) || (!email && is_file_name(trimmed))
            || after == Some('*')
        {
            // Paths, URLs, query strings, code spans, globs and file names: only a given
            // name and a family name side by side.
            // A host name is no slug.
            let host =
                trimmed.contains('.') && matches!(after, Some('/' | ':')) && !is_file_name(trimmed);
            if !host {
                pairs_in(trimmed, s, lists, is_file_name(trimmed), &mut out);
            }
            continue;
        }
        // `@dana_kim` at the start of a word (not the domain of an address).
        let mention = before == Some('@')
            && text
                .get(..start.saturating_sub(1))
                .and_then(|t| t.chars().next_back())
                .is_none_or(char::is_whitespace);
        if before == Some('@') && !mention {
            continue;
        }
        if !email {
            // A handle needs a separator and must not be code (`self.name`) or a file name.
            if !trimmed.contains(['.', '_']) && !mention {
                continue;
            }
            if after.is_some_and(|a| matches!(a, '(' | '/' | '@' | '[' | '=')) {
                continue;
            }
            if trimmed.chars().any(|c| c.is_ascii_uppercase()) && !mention {
                continue;
            }
        }
        if let Some(confidence) = judge(trimmed, email, lists) {
            out.push(HandleName {
                span: s..e,
                confidence,
            });
        }
    }
    out
}

/// A known given name followed by a known family name among the `.`/`_`/`-` parts of a file
/// name, path segment or slug; `at` is the offset of `token` in the text.
fn pairs_in(token: &str, at: usize, lists: &NameLists, file: bool, out: &mut Vec<HandleName>) {
    let mut parts: Vec<(usize, &str)> = Vec::new();
    let mut start = 0;
    for (i, c) in token
        .char_indices()
        .chain(std::iter::once((token.len(), '.')))
    {
        if matches!(c, '.' | '_' | '-' | '+') {
            if let Some(p) = token.get(start..i).filter(|p| !p.is_empty()) {
                parts.push((start, p));
            }
            start = i + 1;
        }
    }
    for w in parts.windows(2) {
        let [(a_at, a), (b_at, b)] = w else { continue };
        let alpha = |s: &str| s.len() >= 3 && s.chars().all(|c| c.is_ascii_alphabetic());
        if !alpha(a) || !alpha(b) {
            continue;
        }
        let (fa, fb) = (
            lists.flags(&a.to_ascii_lowercase()),
            lists.flags(&b.to_ascii_lowercase()),
        );
        // In a file name one part may also be a word; in a path or slug neither.
        let clean = if file {
            !fa.ambiguous() || !fb.ambiguous()
        } else {
            !fa.ambiguous() && !fb.ambiguous()
        };
        if fa.first() && fb.last() && clean {
            out.push(HandleName {
                span: at + a_at..at + b_at + b.len(),
                confidence: 0.5,
            });
        }
    }
}

/// Whether `s` ends in a file extension (`de.json`, `notes.md`, `main.rs`).
fn is_file_name(s: &str) -> bool {
    const EXTENSIONS: &[&str] = &[
        "json",
        "jsonl",
        "yaml",
        "yml",
        "toml",
        "xml",
        "csv",
        "tsv",
        "md",
        "txt",
        "rst",
        "log",
        "lock",
        "ini",
        "cfg",
        "conf",
        "env",
        "rs",
        "py",
        "js",
        "mjs",
        "ts",
        "tsx",
        "jsx",
        "go",
        "java",
        "kt",
        "rb",
        "php",
        "c",
        "h",
        "cpp",
        "hpp",
        "cs",
        "swift",
        "sh",
        "sql",
        "html",
        "htm",
        "css",
        "scss",
        "vue",
        "svelte",
        "pdf",
        "doc",
        "docx",
        "xls",
        "xlsx",
        "ppt",
        "pptx",
        "png",
        "jpg",
        "jpeg",
        "gif",
        "svg",
        "webp",
        "mp3",
        "mp4",
        "zip",
        "gz",
        "tar",
        "po",
        "mo",
        "properties",
        "strings",
        "arb",
        "xliff",
    ];
    s.rsplit_once('.')
        .is_some_and(|(_, ext)| EXTENSIONS.iter().any(|e| e.eq_ignore_ascii_case(ext)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<&str> {
        find(text, NameLists::get())
            .iter()
            .map(|n| &text[n.span.clone()])
            .collect()
    }

    #[test]
    fn local_parts_and_handles() {
        assert_eq!(
            names("write to rebecca.stone@gmail.com today"),
            ["rebecca.stone"]
        );
        assert_eq!(names("cc h.tanaka@kitsune-games.jp"), ["h.tanaka"]);
        assert_eq!(names("ping @dana_kim on chat"), ["dana_kim"]);
        assert_eq!(names("assign to jane.doe"), ["jane.doe"]);
        assert_eq!(names("dmitri.volkov84@yandex.ru"), ["dmitri.volkov84"]);
    }

    #[test]
    fn names_in_file_names_paths_globs_and_slugs() {
        assert_eq!(
            names("attach report_rebecca_stone_2024.pdf please"),
            ["rebecca_stone"]
        );
        assert_eq!(names("ls scans/dmitri.volkov-*.png"), ["dmitri.volkov"]);
        assert_eq!(
            names("Donate: gofundme.com/f/run-for-dmitri-volkov"),
            ["dmitri-volkov"]
        );
        assert!(names("open src/parser_utils.rs and data/report_2024.csv").is_empty());
        assert!(names("https://doc.rust-lang.org/std/collections/str").is_empty());
    }

    #[test]
    fn settings_are_not_names() {
        assert!(names("lang_de").is_empty());
        assert!(names("restrict to lang_ja and locale_fr").is_empty());
    }

    #[test]
    fn code_paths_and_role_addresses_are_not_names() {
        for text in [
            "support@example.com",
            "info@lumenworks.io",
            "self.name = user.email",
            "open src/anna.rs",
            "noreply@github.com",
            "https://example.com/mark.stone/",
            "os.path.join(a, b)",
            "README.md and Cargo.toml",
            "In `de.json` steht \"Warenkorp\"",
            "see marie.json and paul.yaml",
            "the key `john.smith` in the fixture",
        ] {
            assert!(names(text).is_empty(), "{text}: {:?}", names(text));
        }
    }
}
