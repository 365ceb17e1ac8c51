//! Words of a text with their byte ranges and folded forms, and the words of identifiers
//! (`camelCase`, `snake_case`, `kebab-case`, dotted names).

use std::borrow::Cow;
use std::ops::Range;

use super::fold::fold_term;

/// One word of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word<'a> {
    /// Byte range in the text.
    pub range: Range<usize>,
    /// The word as written.
    pub raw: &'a str,
    /// Lower case, diacritics stripped: the word itself when folding leaves it as it is
    /// (most words), without a copy.
    pub folded: Cow<'a, str>,
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '\'' || c == '\u{2019}'
}

/// The words of `text`: runs of letters and digits (an apostrophe inside a word stays in it:
/// "i'm", "j'ai").
pub fn words(text: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        if is_word_char(c) {
            if start.is_none() {
                start = Some(i);
            }
        } else if let Some(s) = start.take() {
            push(text, s, i, &mut out);
        }
    }
    if let Some(s) = start {
        push(text, s, text.len(), &mut out);
    }
    out
}

fn push<'a>(text: &'a str, s: usize, e: usize, out: &mut Vec<Word<'a>>) {
    let raw = text.get(s..e).unwrap_or_default();
    // Apostrophes at the edges are quotes, not part of the word.
    let trimmed_start = raw.len() - raw.trim_start_matches(['\'', '\u{2019}']).len();
    let raw = raw.trim_start_matches(['\'', '\u{2019}']);
    let raw_t = raw.trim_end_matches(['\'', '\u{2019}']);
    if raw_t.is_empty() {
        return;
    }
    let s = s + trimmed_start;
    let folded = if raw_t
        .bytes()
        .all(|b| b.is_ascii_graphic() && b != b'`' && !b.is_ascii_uppercase())
    {
        // What `fold_term` would return.
        Cow::Borrowed(raw_t)
    } else {
        let mut folded = fold_term(raw_t);
        if !folded.is_ascii() && folded.contains('\u{2019}') {
            folded = folded.replace('\u{2019}', "'");
        }
        Cow::Owned(folded)
    };
    out.push(Word {
        range: s..s + raw_t.len(),
        raw: raw_t,
        folded,
    });
}

/// The words of an identifier: split at `_`, `-`, `.`, `/`, spaces and lower-to-upper case
/// changes, lower-cased.
pub fn identifier_words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_fold_and_identifiers_split() {
        use crate::text::words::{identifier_words, words};
        let ws = words("I'm at Café Noor, 9:30");
        let folded: Vec<&str> = ws.iter().map(|w| w.folded.as_ref()).collect();
        assert_eq!(folded, ["i'm", "at", "cafe", "noor", "9", "30"]);
        assert_eq!(
            identifier_words("maps_reverseGeocode"),
            ["maps", "reverse", "geocode"]
        );
    }

    #[test]
    fn words_keep_inner_apostrophes_and_ranges() {
        let t = "l'hôpital, 'quoted' j'ai";
        let ws = words(t);
        assert_eq!(ws[0].folded, "l'hopital");
        assert_eq!(&t[ws[1].range.clone()], "quoted");
        assert_eq!(ws[2].folded, "j'ai");
    }

    #[test]
    fn identifier_words_split_every_convention() {
        assert_eq!(
            identifier_words("get-current_weather"),
            ["get", "current", "weather"]
        );
        assert_eq!(identifier_words("sendEmailNow"), ["send", "email", "now"]);
        assert_eq!(
            identifier_words("medical_records.get_disease_info")[2],
            "get"
        );
    }
}
