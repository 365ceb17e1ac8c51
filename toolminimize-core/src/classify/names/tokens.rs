//! Words of a text with their spans, shapes and folded forms.

use std::borrow::Cow;

use crate::text::chars::{char_at, char_before};
use crate::text::fold::fold_term;

/// The case pattern of a word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `Dana`, `McArthur`, `O'Neil`, `Jean-Luc`, `al-Bashir` (a capital after a particle).
    Cap,
    /// `NASA`, `XPS` (two or more letters, no lower case).
    Upper,
    /// A single capital letter (`J` in `J. R. Smith`).
    Initial,
    /// `hello`, `van`.
    Lower,
    /// Digits, camelCase and everything else.
    Other,
}

/// One word.
#[derive(Debug, Clone)]
pub(crate) struct Token<'t> {
    /// Byte range in the text (a trailing possessive `'s` excluded).
    pub(crate) start: usize,
    pub(crate) end: usize,
    /// The word as written.
    pub(crate) text: &'t str,
    /// Folded form (lower case, no diacritics): the word itself when folding leaves it as it
    /// is (most words), without a copy.
    pub(crate) key: Cow<'t, str>,
    pub(crate) shape: Shape,
    /// Glued to code-like punctuation (`user_Dana`, `path/Anna`, `Victor.java`).
    pub(crate) code: bool,
    /// A Turkish case suffix followed the capitalised word after an apostrophe (`Burak'la`,
    /// `Emre'ye`; excluded from the range): Turkish writes the apostrophe only after a proper
    /// noun.
    pub(crate) proper_suffix: bool,
}

/// Turkish case and possessive suffixes written after an apostrophe ("Burak'la", "Emre'ye",
/// "Ayşe'nin"), in their vowel-harmony variants.
const TR_SUFFIXES: &[&str] = &[
    "a", "e", "ya", "ye", "da", "de", "ta", "te", "dan", "den", "tan", "ten", "ı", "i", "u", "ü",
    "yı", "yi", "yu", "yü", "ın", "in", "un", "ün", "nın", "nin", "nun", "nün", "la", "le", "yla",
    "yle", "ca", "ce", "dır", "dir", "dur", "dür", "nda", "nde", "ndan", "nden", "na", "ne",
];

fn is_joiner(c: char) -> bool {
    matches!(c, '\'' | '\u{2019}' | '-' | '\u{2010}' | '\u{2011}')
}

/// Lower-case name prefixes after which a capital is part of the same name.
const INNER_CAP_PREFIXES: &[&str] = &[
    "Mc", "Mac", "De", "Di", "Da", "La", "Le", "Van", "Fitz", "Du",
];

fn shape(w: &str) -> Shape {
    if w.is_ascii() {
        return shape_ascii(w.as_bytes());
    }
    let mut chars = w.chars();
    let Some(first) = chars.next() else {
        return Shape::Other;
    };
    if w.chars().any(|c| c.is_numeric()) {
        return Shape::Other;
    }
    let (mut letters, mut any_lower, mut all_lower) = (0usize, false, true);
    for c in w.chars().filter(|c| c.is_alphabetic()) {
        letters += 1;
        if c.is_lowercase() {
            any_lower = true;
        } else {
            all_lower = false;
        }
    }
    if letters == 1 && first.is_uppercase() {
        return Shape::Initial;
    }
    if !any_lower {
        return Shape::Upper;
    }
    if first.is_lowercase() {
        // `al-Bashir`, `d'Alembert`: a lower-case particle joined to a capitalised name.
        if let Some(pos) = w.find(is_joiner) {
            let rest = w.get(pos + 1..).unwrap_or("");
            if rest.chars().next().is_some_and(char::is_uppercase) && shape(rest) == Shape::Cap {
                return Shape::Cap;
            }
        }
        return if all_lower {
            Shape::Lower
        } else {
            Shape::Other
        };
    }
    if !first.is_uppercase() {
        return Shape::Other;
    }
    // Inner capitals only after a joiner or a known prefix.
    let mut prev: Option<char> = Some(first);
    for (i, c) in w.char_indices().skip(1) {
        if c.is_uppercase() {
            let after_joiner = prev.is_some_and(is_joiner);
            let after_prefix = INNER_CAP_PREFIXES.iter().any(|p| w.get(..i) == Some(*p));
            if !after_joiner && !after_prefix {
                return Shape::Other;
            }
        }
        prev = Some(c);
    }
    Shape::Cap
}

/// [`shape`] of an ASCII word, read byte by byte (the same rules: in ASCII the only digits
/// are `0`–`9` and the only joiners `'` and `-`).
fn shape_ascii(w: &[u8]) -> Shape {
    // One pass: digits, letters, lower- and upper-case letters.
    let (mut digits, mut letters, mut lower) = (false, 0usize, 0usize);
    for &c in w {
        digits |= c.is_ascii_digit();
        letters += usize::from(c.is_ascii_alphabetic());
        lower += usize::from(c.is_ascii_lowercase());
    }
    shape_ascii_counted(w, digits, letters, lower, true)
}

/// [`shape_ascii`] of `w` from its counts: whether it holds a digit, its letters and its
/// lower-case letters, and whether it may hold a joiner (`'` or `-`; `false` only when it
/// holds none).
fn shape_ascii_counted(
    w: &[u8],
    digits: bool,
    letters: usize,
    lower: usize,
    joined: bool,
) -> Shape {
    let Some(&first) = w.first() else {
        return Shape::Other;
    };
    if digits {
        return Shape::Other;
    }
    let (any_lower, all_lower) = (lower > 0, lower == letters);
    if letters == 1 && first.is_ascii_uppercase() {
        return Shape::Initial;
    }
    if !any_lower {
        return Shape::Upper;
    }
    let joiner = |b: u8| b == b'\'' || b == b'-';
    if first.is_ascii_lowercase() {
        // `al-Bashir`, `d'Alembert`: a lower-case particle joined to a capitalised name.
        if joined && let Some(pos) = w.iter().position(|&b| joiner(b)) {
            let rest = w.get(pos + 1..).unwrap_or(&[]);
            if rest.first().is_some_and(u8::is_ascii_uppercase) && shape_ascii(rest) == Shape::Cap {
                return Shape::Cap;
            }
        }
        return if all_lower {
            Shape::Lower
        } else {
            Shape::Other
        };
    }
    if !first.is_ascii_uppercase() {
        return Shape::Other;
    }
    // Inner capitals only after a joiner or a known prefix.
    let mut prev = first;
    for (i, &c) in w.iter().enumerate().skip(1) {
        if c.is_ascii_uppercase() {
            let after_prefix = INNER_CAP_PREFIXES
                .iter()
                .any(|p| w.get(..i) == Some(p.as_bytes()));
            if !joiner(prev) && !after_prefix {
                return Shape::Other;
            }
        }
        prev = c;
    }
    Shape::Cap
}

/// Characters right before a word that make it part of code, a path or a handle.
/// (Not `=`: a query string `q=Greta Lindgren` holds prose.)
fn is_code_before(c: char) -> bool {
    matches!(
        c,
        '_' | '/' | '\\' | '@' | '#' | '$' | '<' | '{' | '[' | '`' | '~' | '*' | '+' | '|'
    )
}

/// Characters right after a word that make it part of code, a path or a key.
fn is_code_after(c: char) -> bool {
    matches!(
        c,
        '_' | '/' | '\\' | '@' | '=' | '(' | '[' | '{' | '`' | '*' | '+' | '|'
    )
}

/// [`fold_term`] of `word`, borrowing the word when folding leaves it unchanged (printable
/// ASCII without capitals or a backtick).
fn fold_key(word: &str) -> Cow<'_, str> {
    if word
        .bytes()
        .all(|b| b.is_ascii_graphic() && b != b'`' && !b.is_ascii_uppercase())
    {
        Cow::Borrowed(word)
    } else {
        Cow::Owned(fold_term(word))
    }
}

/// What the scan of one word saw: its ASCII letters and digits, and whether it holds a
/// character outside ASCII or an apostrophe.
#[derive(Default)]
struct Seen {
    digits: bool,
    upper: usize,
    lower: usize,
    non_ascii: bool,
    apostrophe: bool,
    /// A joiner (`'`, `-` or another) was taken into the word.
    joined: bool,
}

/// [`ASCII_WORD`] of an ASCII digit.
const DIGIT: u8 = 1;
/// [`ASCII_WORD`] of an ASCII upper-case letter.
const UPPER: u8 = 2;
/// [`ASCII_WORD`] of an ASCII lower-case letter.
const LOWER: u8 = 3;

/// The class of every byte inside a word: [`DIGIT`], [`UPPER`], [`LOWER`], or 0 for a byte
/// that is not an ASCII letter or digit.
#[allow(
    clippy::indexing_slicing,
    reason = "a constant table: every index is below 256, checked when it is built"
)]
const ASCII_WORD: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = if c.is_ascii_digit() {
            DIGIT
        } else if c.is_ascii_uppercase() {
            UPPER
        } else if c.is_ascii_lowercase() {
            LOWER
        } else {
            0
        };
        b += 1;
    }
    t
};

/// Splits `text` into words. A word is a run of letters and digits, with apostrophes and
/// hyphens allowed between letters.
pub(crate) fn tokenize(text: &str) -> Vec<Token<'_>> {
    let bytes = text.as_bytes();
    // About one word in six bytes of prose: one allocation for most texts.
    let mut out = Vec::with_capacity(text.len() / 6 + 1);
    let mut pos = 0;
    while let Some(&b) = bytes.get(pos) {
        // ASCII that cannot start a word is passed over without decoding.
        if b.is_ascii() && !b.is_ascii_alphanumeric() {
            pos += 1;
            continue;
        }
        let Some(c) = char_at(text, pos) else {
            break;
        };
        let start = pos;
        pos += c.len_utf8();
        if !c.is_alphanumeric() {
            continue;
        }
        // The word is scanned again from its first character, which is counted too.
        let mut seen = Seen::default();
        let mut end = start;
        while let Some(&b) = bytes.get(end) {
            let class = ASCII_WORD.get(usize::from(b)).copied().unwrap_or(0);
            if class != 0 {
                seen.digits |= class == DIGIT;
                seen.upper += usize::from(class == UPPER);
                seen.lower += usize::from(class == LOWER);
                end += 1;
                continue;
            }
            let Some(c) = char_at(text, end) else {
                break;
            };
            if c.is_alphanumeric() {
                seen.non_ascii = true;
                end += c.len_utf8();
            } else if is_joiner(c) {
                // Only between two word characters.
                if char_at(text, end + c.len_utf8()).is_some_and(char::is_alphanumeric) {
                    seen.non_ascii |= !c.is_ascii();
                    seen.apostrophe |= matches!(c, '\'' | '\u{2019}');
                    seen.joined = true;
                    end += c.len_utf8();
                } else {
                    break;
                }
            } else {
                break;
            }
        }
        pos = end;
        let mut word = text.get(start..end).unwrap_or("");
        // Possessive `'s` and an elided article or preposition glued to a name ("d'Anaïs",
        // "dell'Anna") both need an apostrophe.
        let mut elision = None;
        let mut proper_suffix = false;
        if seen.apostrophe {
            for suffix in ["'s", "\u{2019}s"] {
                if word.len() > suffix.len() + 1 && word.ends_with(suffix) {
                    end -= suffix.len();
                    word = text.get(start..end).unwrap_or("");
                }
            }
            // A Turkish suffix after a capitalised word: the word is the name.
            if let Some((i, c)) = word
                .char_indices()
                .rfind(|&(_, c)| c == '\'' || c == '\u{2019}')
                && i >= 2
                && word.chars().next().is_some_and(char::is_uppercase)
                && word
                    .get(i + c.len_utf8()..)
                    .is_some_and(|suffix| TR_SUFFIXES.contains(&suffix))
            {
                end = start + i;
                word = text.get(start..end).unwrap_or("");
                proper_suffix = true;
            }
            // The elision makes two words, so the name is judged on its own.
            elision = word
                .char_indices()
                .find(|&(_, c)| c == '\'' || c == '\u{2019}')
                .filter(|&(i, _)| (1..=4).contains(&i))
                .filter(|&(i, _)| {
                    word.get(..i)
                        .is_some_and(|p| p.chars().all(char::is_lowercase))
                })
                .and_then(|(i, c)| {
                    let rest = word.get(i + c.len_utf8()..)?;
                    rest.chars()
                        .next()
                        .is_some_and(char::is_uppercase)
                        .then_some(i + c.len_utf8())
                });
        }
        let (start, word) = match elision {
            Some(cut) => {
                let prefix = text.get(start..start + cut).unwrap_or("");
                out.push(Token {
                    start,
                    end: start + cut,
                    text: prefix,
                    key: Cow::Owned(fold_term(prefix).replace('\u{2019}', "'")),
                    shape: Shape::Lower,
                    code: false,
                    proper_suffix: false,
                });
                (start + cut, text.get(start + cut..end).unwrap_or(""))
            }
            None => (start, word),
        };
        let before = char_before(text, start);
        // The character before that, read only after a `.` or `:`.
        let before2 = || before.and_then(|b| char_before(text, start - b.len_utf8()));
        let a1 = char_at(text, end);
        let a2 = a1.and_then(|a| char_at(text, end + a.len_utf8()));
        let code = before.is_some_and(is_code_before)
            || (before == Some('.') && before2().is_some_and(char::is_alphanumeric))
            || (before == Some(':') && before2().is_some_and(|c| !c.is_whitespace()))
            || a1.is_some_and(is_code_after)
            || (a1 == Some('.') && a2.is_some_and(char::is_alphanumeric))
            || (a1 == Some(':') && a2.is_some_and(|c| !c.is_whitespace()));
        // A word of ASCII letters, digits and hyphens, as scanned: its shape and key from
        // the counts of the scan, without reading it again.
        let (key, shape) = if seen.non_ascii || seen.apostrophe {
            (fold_key(word), shape(word))
        } else {
            // ASCII letters, digits and hyphens only: folding lowers its capitals, no more.
            let key = if seen.upper == 0 {
                Cow::Borrowed(word)
            } else {
                Cow::Owned(word.to_ascii_lowercase())
            };
            let letters = seen.upper + seen.lower;
            (
                key,
                shape_ascii_counted(
                    word.as_bytes(),
                    seen.digits,
                    letters,
                    seen.lower,
                    seen.joined,
                ),
            )
        };
        out.push(Token {
            start,
            end,
            text: word,
            key,
            shape,
            code,
            proper_suffix,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        assert_eq!(shape("Dana"), Shape::Cap);
        assert_eq!(shape("McArthur"), Shape::Cap);
        assert_eq!(shape("O'Neil"), Shape::Cap);
        assert_eq!(shape("Jean-Luc"), Shape::Cap);
        assert_eq!(shape("al-Bashir"), Shape::Cap);
        assert_eq!(shape("Anaïs"), Shape::Cap);
        assert_eq!(shape("XPS"), Shape::Upper);
        assert_eq!(shape("J"), Shape::Initial);
        assert_eq!(shape("getUser"), Shape::Other);
        assert_eq!(shape("JohnSmith"), Shape::Other);
        assert_eq!(shape("A320"), Shape::Other);
        assert_eq!(shape("van"), Shape::Lower);
    }

    #[test]
    fn ascii_shapes_match_the_general_rules() {
        for w in [
            "Dana",
            "McArthur",
            "O'Neil",
            "Jean-Luc",
            "al-Bashir",
            "d'Alembert",
            "XPS",
            "J",
            "getUser",
            "JohnSmith",
            "A320",
            "van",
            "x",
            "DeLuca",
            "LaToya",
            "o'neil",
            "al-bashir",
            "al-BASHIR",
            "Mc",
            "I",
            "a",
            "B-",
            "MacDonald-Smith",
            "le-Grand",
            "iPhone",
        ] {
            let general = {
                // The general path, forced: a non-ASCII letter appended and judged alike.
                shape(&format!("{w}\u{e9}"))
            };
            let ascii = shape_ascii(w.as_bytes());
            let plain_lower = w.chars().last().is_some_and(|c| c.is_ascii_lowercase());
            if plain_lower {
                assert_eq!(ascii, general, "{w}");
            }
            assert_eq!(ascii, shape(w), "{w}");
        }
    }

    #[test]
    fn tokens_carry_spans_and_code_context() {
        let t = tokenize("Ask Rebecca's team, see src/Anna.rs or user_Dana.");
        let words: Vec<&str> = t.iter().map(|t| t.text).collect();
        assert_eq!(
            words,
            [
                "Ask", "Rebecca", "team", "see", "src", "Anna", "rs", "or", "user", "Dana"
            ]
        );
        assert!(!t[1].code);
        assert!(t.iter().find(|t| t.text == "Anna").unwrap().code);
        assert!(t.iter().find(|t| t.text == "Dana").unwrap().code);
    }
}
