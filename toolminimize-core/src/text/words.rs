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
    /// The word's entry in the decision stage's word lists, once looked up there (see
    /// `decide::vocab::Vocab::look_up_languages`): [`NOT_LOOKED_UP`] until then.
    pub entry: u32,
    /// The languages the word can be read in, one bit each (see `decide::vocab::LANGS`):
    /// every language, unless the text's likeliest language uses it as a function word, in
    /// which case it is read in that language only ("on" in an English text is not the
    /// Polish or Czech "he").
    pub read_in: u16,
}

/// [`Word::entry`] of a word not looked up yet.
pub const NOT_LOOKED_UP: u32 = u32::MAX;

/// A letter, a digit, an Indic vowel sign or virama ([`super::fold::is_word_char`]), or an
/// apostrophe.
fn is_word_char(c: char) -> bool {
    super::fold::is_word_char(c) || c == '\'' || c == '\u{2019}'
}

/// The words of `text`: runs of letters, digits and Indic marks (an apostrophe inside a word
/// stays in it: "i'm", "j'ai"; a virama inside `क्योंकि`).
pub fn words(text: &str) -> Vec<Word<'_>> {
    let mut out = Vec::with_capacity(text.len() / 6 + 1);
    let bytes = text.as_bytes();
    let mut i = 0usize;
    while let Some(&b) = bytes.get(i) {
        // Between words: ASCII byte by byte (most text), other characters decoded.
        let len = match ascii_class(b) {
            AsciiClass::Other => {
                i += 1;
                continue;
            }
            AsciiClass::NotAscii => match text.get(i..).and_then(|t| t.chars().next()) {
                Some(c) if is_word_char(c) => 0,
                Some(c) => c.len_utf8(),
                None => 1,
            },
            AsciiClass::Lower | AsciiClass::Upper => 0,
        };
        if len > 0 {
            i += len;
            continue;
        }
        // A word: to its end, noting whether it is ASCII with no capital.
        let start = i;
        let mut plain = true;
        while let Some(&b) = bytes.get(i) {
            match ascii_class(b) {
                AsciiClass::Lower => i += 1,
                AsciiClass::Upper => {
                    plain = false;
                    i += 1;
                }
                AsciiClass::Other => break,
                AsciiClass::NotAscii => match text.get(i..).and_then(|t| t.chars().next()) {
                    Some(c) if is_word_char(c) => {
                        plain = false;
                        i += c.len_utf8();
                    }
                    _ => break,
                },
            }
        }
        push(text, start, i, plain, &mut out);
    }
    out
}

/// What an ASCII byte is to [`words`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum AsciiClass {
    /// A lower-case letter, a digit or an apostrophe: part of a word, folded as it is.
    Lower,
    /// A capital letter: part of a word.
    Upper,
    /// Anything else ASCII: between words.
    Other,
    /// Not ASCII: the start (or a continuation) of a longer character.
    NotAscii,
}

#[allow(clippy::indexing_slicing)] // evaluated at compile time: a bad index fails the build
const ASCII_CLASS: [AsciiClass; 256] = {
    let mut t = [AsciiClass::NotAscii; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = if c.is_ascii_uppercase() {
            AsciiClass::Upper
        } else if c.is_ascii_alphanumeric() || c == b'\'' {
            AsciiClass::Lower
        } else {
            AsciiClass::Other
        };
        b += 1;
    }
    t
};

fn ascii_class(b: u8) -> AsciiClass {
    ASCII_CLASS
        .get(usize::from(b))
        .copied()
        .unwrap_or(AsciiClass::NotAscii)
}

/// The apostrophes that quote rather than belong to a word when they stand at its edge.
const QUOTES: [char; 2] = ['\'', '\u{2019}'];

/// Adds the word `text[s..e]`; `plain`: it is ASCII with no capital letter.
fn push<'a>(text: &'a str, s: usize, e: usize, plain: bool, out: &mut Vec<Word<'a>>) {
    let raw = text.get(s..e).unwrap_or_default();
    // Apostrophes at the edges are quotes, not part of the word (most words have none: their
    // first and last bytes tell).
    let edge = |b: Option<&u8>| matches!(b, Some(b'\'' | 0xE2 | 0x99));
    let (raw_t, s) = if edge(raw.as_bytes().first()) || edge(raw.as_bytes().last()) {
        let trimmed_start = raw.len() - raw.trim_start_matches(QUOTES).len();
        let raw_t = raw.trim_start_matches(QUOTES).trim_end_matches(QUOTES);
        (raw_t, s + trimmed_start)
    } else {
        (raw, s)
    };
    if raw_t.is_empty() {
        return;
    }
    // What `fold_term` would return: the word itself when it is ASCII with no capital (the
    // characters of a word are letters, digits and apostrophes: all graphic, none a backtick).
    let folded = if plain
        || raw_t
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'`' && !b.is_ascii_uppercase())
    {
        Cow::Borrowed(raw_t)
    } else if raw_t.is_ascii() {
        // ASCII letters, digits and apostrophes: folding lowers the capitals, no more.
        Cow::Owned(raw_t.to_ascii_lowercase())
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
        entry: NOT_LOOKED_UP,
        read_in: u16::MAX,
    });
}

/// The words of an identifier: split at `_`, `-`, `.`, `/`, spaces and lower-to-upper case
/// changes, lower-cased.
pub fn identifier_words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    any_identifier_word(name, |w| {
        out.push(w.to_owned());
        false
    });
    out
}

/// Whether a word of the identifier `name` (as [`identifier_words`] gives them) meets `word`:
/// the words are handed over in order until one does, without a string kept for each. A word
/// already in lower case is handed over as it stands in `name`, the others lower-cased into
/// one reused buffer.
pub fn any_identifier_word(name: &str, mut word: impl FnMut(&str) -> bool) -> bool {
    let mut cur = String::new();
    // Start of the current word in `name`, while it is copied as it stands (no capital yet).
    let mut start: Option<usize> = None;
    let mut prev_lower = false;
    // Ends the current word at byte `end` of `name`; whether `word` accepted it.
    let mut flush = |cur: &mut String, start: &mut Option<usize>, end: usize| -> bool {
        let done = match start.take() {
            Some(s) => word(name.get(s..end).unwrap_or_default()),
            None if !cur.is_empty() => word(cur),
            None => false,
        };
        cur.clear();
        done
    };
    for (i, c) in name.char_indices() {
        let word_char = if c.is_ascii() {
            c.is_ascii_alphanumeric()
        } else {
            c.is_alphanumeric()
        };
        if !word_char {
            if flush(&mut cur, &mut start, i) {
                return true;
            }
            prev_lower = false;
            continue;
        }
        let upper = if c.is_ascii() {
            c.is_ascii_uppercase()
        } else {
            c.is_uppercase()
        };
        let open = start.is_some() || !cur.is_empty();
        if upper && prev_lower && open && flush(&mut cur, &mut start, i) {
            return true;
        }
        prev_lower = if c.is_ascii() {
            !c.is_ascii_uppercase()
        } else {
            c.is_lowercase() || c.is_ascii_digit()
        };
        // A character that lower-cases to itself extends a word copied as it stands.
        let plain = if c.is_ascii() {
            !c.is_ascii_uppercase()
        } else {
            c.to_lowercase().eq(std::iter::once(c))
        };
        let open = start.is_some() || !cur.is_empty();
        if plain && (start.is_some() || !open) {
            start.get_or_insert(i);
            continue;
        }
        // Otherwise the word goes on in the buffer.
        if let Some(s) = start.take() {
            cur.push_str(name.get(s..i).unwrap_or_default());
        }
        if c.is_ascii() {
            cur.push(c.to_ascii_lowercase());
        } else {
            cur.extend(c.to_lowercase());
        }
    }
    flush(&mut cur, &mut start, name.len())
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

    /// The identifier splitter collecting a string a word, before words were handed over.
    fn reference_identifier_words(name: &str) -> Vec<String> {
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

    #[test]
    fn identifier_words_as_collected_before() {
        let names = [
            "",
            "_",
            "a",
            "A",
            "maps_reverseGeocode",
            "HTMLParser",
            "userID2Name",
            "x.y/z-w v",
            "ÄrzteListe",
            "straßeName",
            "İstanbulCity",
            "ǅemalX",
            "ΣΟΦΙΑ_σοφία",
            "名前Name",
            "camelCaseÉcole",
            "a1B2c3",
            "__dunder__",
            "ABC",
            "aBC",
            "ﬁleName",
            "Ǆ",
        ];
        for n in names {
            assert_eq!(identifier_words(n), reference_identifier_words(n), "{n}");
            let mut seen = Vec::new();
            assert!(!any_identifier_word(n, |w| {
                seen.push(w.to_owned());
                false
            }));
            assert_eq!(seen, reference_identifier_words(n), "{n}");
        }
        assert!(any_identifier_word("sendEmailNow", |w| w == "email"));
    }

    #[test]
    fn hindi_words_keep_their_vowel_signs_and_virama() {
        let t = "क्योंकि मैं कल नहीं आ पाऊंगा।";
        let raw: Vec<&str> = words(t).iter().map(|w| w.raw).collect();
        assert_eq!(raw, ["क्योंकि", "मैं", "कल", "नहीं", "आ", "पाऊंगा"]);
        assert_eq!(words("ज़रूर")[0].folded, "जरूर");
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

    /// The splitter char by char, before its byte-wise fast path.
    fn reference_words(text: &str) -> Vec<Word<'_>> {
        let mut out = Vec::new();
        let mut start: Option<usize> = None;
        let mut spans = Vec::new();
        for (i, c) in text.char_indices() {
            if is_word_char(c) {
                if start.is_none() {
                    start = Some(i);
                }
            } else if let Some(s) = start.take() {
                spans.push((s, i));
            }
        }
        if let Some(s) = start {
            spans.push((s, text.len()));
        }
        for (s, e) in spans {
            let raw = &text[s..e];
            let trimmed_start = raw.len() - raw.trim_start_matches(['\'', '\u{2019}']).len();
            let raw_t = raw
                .trim_start_matches(['\'', '\u{2019}'])
                .trim_end_matches(['\'', '\u{2019}']);
            if raw_t.is_empty() {
                continue;
            }
            let mut folded = fold_term(raw_t);
            if !folded.is_ascii() && folded.contains('\u{2019}') {
                folded = folded.replace('\u{2019}', "'");
            }
            out.push(Word {
                range: s + trimmed_start..s + trimmed_start + raw_t.len(),
                raw: raw_t,
                folded: Cow::Owned(folded),
                entry: NOT_LOOKED_UP,
                read_in: u16::MAX,
            });
        }
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]
        /// The byte-wise splitter finds the words, ranges and folded forms a char-by-char
        /// reading finds.
        #[test]
        fn byte_wise_words_agree_with_the_reference(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                " ", "'", "\u{2019}", "`", "-", ".", "—", "\u{a0}", "Ana", "ana", "ÉCOLE", "café",
                "l'", "j'ai", "Straße", "ＡＢ", "9", "30", "x", "日本", "Œuvre", "İ", "K",
            ]), 0..16)
        ) {
            let text: String = parts.concat();
            proptest::prop_assert_eq!(words(&text), reference_words(&text));
        }
    }
}
