//! Text folding for matching: lower case, diacritics stripped, whitespace runs collapsed,
//! typographic apostrophes and dashes unified, full-width forms mapped to ASCII, zero-width
//! characters removed — with a map from every folded byte back to the original text, so a
//! match in the folded text becomes a span in the original.
//!
//! The combining marks of the Indic scripts (U+0900–U+0DFF: Devanagari, Bengali, Gurmukhi,
//! Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Sinhala) are not diacritics but parts
//! of the word — vowel signs, viramas, nasal marks — and stay; only the Devanagari nukta,
//! often left out in writing (ज़/ज), is dropped, and the candrabindu is written as the
//! anusvara it is often typed as (माँ/मां).

use std::borrow::Cow;
use std::ops::Range;

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Folded text with its map back to the original.
#[derive(Debug, Clone, Default)]
pub struct Folded<'t> {
    /// The folded text: the original itself when folding leaves it as it is.
    text: Cow<'t, str>,
    /// For each byte of `text`: the original byte range of the character it came from (left
    /// empty when `same_places`).
    origin: Vec<(u32, u32)>,
    /// Every byte of `text` came from the byte at the same place of the original (text that
    /// only lower-cases).
    same_places: bool,
}

fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}' | '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{180E}'
    )
}

/// Whether `c` is a combining mark of an Indic script (U+0900–U+0DFF): a vowel sign, virama
/// or nasal mark, part of the word it is written in.
pub fn is_indic_mark(c: char) -> bool {
    matches!(c, '\u{0900}'..='\u{0DFF}') && is_combining_mark(c)
}

/// Whether `c` belongs to a word: a letter, a digit or an Indic combining mark (a virama is
/// neither a letter nor a digit, yet `क्योंकि` is one word).
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || is_indic_mark(c)
}

/// What the decomposed character `d` folds to: itself; nothing for a combining mark (a
/// diacritic), except the Indic marks that stay ([`is_indic_mark`]): the Devanagari nukta is
/// dropped and the candrabindu becomes the anusvara.
fn fold_decomposed(d: char) -> Option<char> {
    match d {
        '\u{093C}' => None,
        '\u{0901}' => Some('\u{0902}'),
        _ if !is_combining_mark(d) || is_indic_mark(d) => Some(d),
        _ => None,
    }
}

fn simple_fold(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{2018}' | '\u{2019}' | '\u{201B}' | '\u{02BC}' | '\u{02BB}' | '\u{2032}' | '`'
        | '\u{00B4}' => "'",
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{00AB}' | '\u{00BB}' => "\"",
        '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE63}' | '\u{FF0D}' => "-",
        'ß' | 'ẞ' => "ss",
        'æ' | 'Æ' => "ae",
        'œ' | 'Œ' => "oe",
        'ø' | 'Ø' => "o",
        'ł' | 'Ł' => "l",
        'đ' | 'Đ' => "d",
        'þ' | 'Þ' => "th",
        'ı' => "i",
        _ => return None,
    })
}

/// Folds `text` (see the module docs).
pub fn fold(text: &str) -> Folded<'_> {
    fold_with(text, true)
}

/// Folds `text`; with `map` false the map back to the original is left empty (for callers
/// that only read the folded text).
fn fold_with(text: &str, map: bool) -> Folded<'_> {
    if only_lowers(text.as_bytes()) {
        return Folded {
            text: if text.bytes().any(|b| b.is_ascii_uppercase()) {
                Cow::Owned(text.to_ascii_lowercase())
            } else {
                Cow::Borrowed(text)
            },
            origin: Vec::new(),
            same_places: true,
        };
    }
    let mut out = Builder {
        bytes: Vec::with_capacity(text.len()),
        origin: if map {
            Vec::with_capacity(text.len())
        } else {
            Vec::new()
        },
        map,
    };
    let mut last_space = true; // trims leading whitespace
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        // ASCII (most text): whitespace collapses, a backtick is an apostrophe, everything else
        // lower-cases; nothing else in ASCII is invisible or folds further. A run of bytes that
        // only lower-case, with single spaces between them (which stay as they are), is copied
        // at once.
        if lowers_only(b) {
            let mut end = i;
            let mut space = false;
            while let Some(&c) = bytes.get(end) {
                if lowers_only(c) {
                    space = false;
                } else if c == b' ' && !space {
                    space = true;
                } else {
                    break;
                }
                end += 1;
            }
            out.push_run(bytes.get(i..end).unwrap_or_default(), i);
            last_space = space;
            i = end;
            continue;
        }
        if b.is_ascii() {
            let (start, end) = (i as u32, (i + 1) as u32);
            i += 1;
            if matches!(b, b' ' | b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r') {
                if !last_space {
                    out.push_ascii(b' ', start, end);
                    last_space = true;
                }
                continue;
            }
            // A backtick: an apostrophe.
            last_space = false;
            out.push_ascii(b'\'', start, end);
            continue;
        }
        let Some(c) = text.get(i..).and_then(|r| r.chars().next()) else {
            // Not on a char boundary: cannot happen for a `str`; step on.
            i += 1;
            continue;
        };
        let (start, end) = (i as u32, (i + c.len_utf8()) as u32);
        i += c.len_utf8();
        if is_invisible(c) {
            continue;
        }
        if c.is_whitespace() {
            if !last_space {
                out.push(' ', start, end);
                last_space = true;
            }
            continue;
        }
        last_space = false;
        if let Some(s) = simple_fold(c) {
            for ch in s.chars() {
                out.push(ch, start, end);
            }
            continue;
        }
        let c = match c as u32 {
            // Full-width ASCII forms.
            0xFF01..=0xFF5E => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            _ => c,
        };
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase(), start, end);
            continue;
        }
        let folded_before = out.bytes.len();
        for lc in c.to_lowercase() {
            for d in lc.nfd().filter_map(fold_decomposed) {
                out.push(d, start, end);
            }
        }
        if out.bytes.len() == folded_before {
            // A mark written apart that folds to nothing (a nukta, an accent after its
            // letter): it belongs to the character before.
            out.extend_last(end);
        }
    }
    out.finish()
}

/// Whether folding `bytes` only lower-cases them, byte for byte: each [`lowers_only`], or a
/// single space between two that do.
pub(crate) fn only_lowers(bytes: &[u8]) -> bool {
    let mut after_space = true;
    for &b in bytes {
        if b == b' ' {
            if after_space {
                return false;
            }
            after_space = true;
        } else if lowers_only(b) {
            after_space = false;
        } else {
            return false;
        }
    }
    !after_space || bytes.is_empty()
}

/// Whether the byte `b` is ASCII and folds to its lower case: not whitespace, not a backtick.
fn lowers_only(b: u8) -> bool {
    b.is_ascii() && !matches!(b, b' ' | b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r' | b'`')
}

/// Folded text being made: its bytes (whole characters: UTF-8) and, when `map`, their
/// origins.
struct Builder {
    bytes: Vec<u8>,
    origin: Vec<(u32, u32)>,
    map: bool,
}

impl Builder {
    /// Appends `run` (bytes that [`lowers_only`] and single spaces), which starts at byte
    /// `start` of the original: lower-cased, each byte mapped to itself.
    fn push_run(&mut self, run: &[u8], start: usize) {
        self.bytes.extend(run.iter().map(u8::to_ascii_lowercase));
        if self.map {
            self.origin
                .extend((start..start + run.len()).map(|k| (k as u32, (k + 1) as u32)));
        }
    }

    /// Appends one ASCII byte.
    fn push_ascii(&mut self, b: u8, start: u32, end: u32) {
        self.bytes.push(b);
        if self.map {
            self.origin.push((start, end));
        }
    }

    fn push(&mut self, c: char, start: u32, end: u32) {
        let mut buf = [0u8; 4];
        self.bytes
            .extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        if self.map {
            for _ in 0..c.len_utf8() {
                self.origin.push((start, end));
            }
        }
    }

    /// Makes the original range of the last folded character (unless a space) end at
    /// `end`.
    fn extend_last(&mut self, end: u32) {
        if !self.map || self.bytes.last() == Some(&b' ') {
            return;
        }
        extend_last_origin(&mut self.origin, end);
    }

    /// The folded text, without a trailing space.
    fn finish(mut self) -> Folded<'static> {
        if self.bytes.last() == Some(&b' ') {
            self.bytes.pop();
            self.origin.pop();
        }
        Folded {
            // Whole characters were appended: the bytes are UTF-8.
            text: Cow::Owned(
                String::from_utf8(self.bytes)
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
            ),
            origin: self.origin,
            same_places: false,
        }
    }
}

/// Makes the original range of the last character in `origin` (its bytes share one range) end
/// at `end`.
fn extend_last_origin(origin: &mut [(u32, u32)], end: u32) {
    let Some(&last) = origin.last() else {
        return;
    };
    for o in origin.iter_mut().rev().take_while(|o| **o == last) {
        o.1 = end;
    }
}

impl Folded<'_> {
    /// Appends one ASCII byte.
    #[cfg(test)]
    fn push_ascii(&mut self, b: u8, start: u32, end: u32) {
        self.text.to_mut().push(char::from(b));
        self.origin.push((start, end));
    }

    #[cfg(test)]
    fn push(&mut self, c: char, start: u32, end: u32) {
        self.text.to_mut().push(c);
        for _ in 0..c.len_utf8() {
            self.origin.push((start, end));
        }
    }

    /// The folded text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The span of the original text that produced the folded bytes `r`.
    /// Out-of-range input yields an empty span at the end.
    pub fn original_span(&self, r: Range<usize>) -> Range<usize> {
        let start = self.origin(r.start).map(|o| o.0);
        let end = r
            .end
            .checked_sub(1)
            .and_then(|e| self.origin(e))
            .map(|o| o.1);
        match (start, end) {
            (Some(s), Some(e)) if s <= e => s..e,
            _ => {
                let last = self
                    .text
                    .len()
                    .checked_sub(1)
                    .and_then(|e| self.origin(e))
                    .map_or(0, |o| o.1);
                last..last
            }
        }
    }

    /// The original byte range of the character folded byte `k` came from.
    fn origin(&self, k: usize) -> Option<(usize, usize)> {
        if self.same_places {
            (k < self.text.len()).then_some((k, k + 1))
        } else {
            self.origin.get(k).map(|o| (o.0 as usize, o.1 as usize))
        }
    }

    /// Whether folded `r` stands on word boundaries (no letter, digit or Indic mark right before
    /// or after: [`is_word_char`]).
    pub fn on_word_boundary(&self, r: &Range<usize>) -> bool {
        let before = self.text.get(..r.start).and_then(|s| s.chars().next_back());
        let after = self.text.get(r.end..).and_then(|s| s.chars().next());
        !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char)
    }
}

/// Folds a lexicon term the same way as text (for building automata).
pub fn fold_term(term: &str) -> String {
    // Plain ASCII words (most tokens) only change case; skip the span map.
    if term.bytes().all(|b| b.is_ascii_graphic() && b != b'`') {
        return term.to_ascii_lowercase();
    }
    fold_with(term, false).text.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Folded<'_> {
        /// The origin of every folded byte.
        fn origins(&self) -> Vec<(usize, usize)> {
            (0..self.text.len())
                .filter_map(|k| self.origin(k))
                .collect()
        }
    }

    #[test]
    fn text_that_only_lower_cases_maps_each_byte_to_itself() {
        for t in ["plain words 12", "Mixed Case-Text.", "a", "", "x\u{1}y"] {
            let (a, b) = (fold(t), reference_fold(t));
            assert!(a.same_places, "{t:?}");
            assert_eq!(a.text, b.text);
            assert_eq!(a.origins(), b.origins());
            for r in [0..0, 0..1, 1..3, 2..40, 40..50] {
                assert_eq!(a.original_span(r.clone()), b.original_span(r), "{t:?}");
            }
        }
        for t in [
            " lead",
            "trail ",
            "two  spaces",
            "tab\there",
            "back`tick",
            "caf\u{e9}",
        ] {
            assert!(!fold(t).same_places, "{t:?}");
        }
    }

    #[test]
    fn folding_maps_spans_back_to_the_original() {
        use crate::text::fold::fold;
        let text = "Suivi  VIH à l’Hôpital Saint‑Louis";
        let f = fold(text);
        assert_eq!(f.as_str(), "suivi vih a l'hopital saint-louis");
        let at = f.as_str().find("hopital").unwrap();
        assert_eq!(&text[f.original_span(at..at + "hopital".len())], "Hôpital");
    }

    #[test]
    fn ascii_fast_path_matches_the_full_fold() {
        for t in [
            "Hello",
            "O'Neil",
            "ver.di",
            "AbC-123",
            "x_y",
            "a`b",
            "two words",
            " pad ",
        ] {
            assert_eq!(fold_term(t), fold(t).text, "{t}");
        }
    }

    #[test]
    fn diacritics_case_and_spaces_fold_and_map_back() {
        let text = "  Gewerkschaftsmitglied bei  VER.DI  ";
        let f = fold(text);
        assert_eq!(f.as_str(), "gewerkschaftsmitglied bei ver.di");
        let at = f.as_str().find("ver.di").unwrap();
        assert_eq!(&text[f.original_span(at..at + 6)], "VER.DI");
    }

    #[test]
    fn invisible_and_full_width_characters_are_normalised() {
        let text = "H\u{200B}I\u{200B}V ＨＩＶ";
        let f = fold(text);
        assert_eq!(f.as_str(), "hiv hiv");
        assert_eq!(&text[f.original_span(0..3)], "H\u{200B}I\u{200B}V");
        assert_eq!(&text[f.original_span(4..7)], "ＨＩＶ");
    }

    #[test]
    fn ascii_and_mixed_text_fold_as_char_by_char() {
        // The byte-wise ASCII path against the rules char by char.
        for t in [
            "  Tab\there\r\nand\x0Bvertical\x0C  ",
            "Don`t STOP",
            "Café `x` ＡＢ\u{200B}c  Œuvre\u{a0}\u{a0}end ",
            "\u{2003}lead",
        ] {
            let f = fold(t);
            let mut expect = String::new();
            let mut last_space = true;
            for c in t.chars() {
                if is_invisible(c) {
                    continue;
                }
                if c.is_whitespace() {
                    if !last_space {
                        expect.push(' ');
                        last_space = true;
                    }
                    continue;
                }
                last_space = false;
                if let Some(s) = simple_fold(c) {
                    expect.push_str(s);
                    continue;
                }
                let c = match c as u32 {
                    0xFF01..=0xFF5E => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
                    _ => c,
                };
                for lc in c.to_lowercase() {
                    expect.extend(lc.nfd().filter_map(fold_decomposed));
                }
            }
            let expect = expect.trim_end_matches(' ');
            assert_eq!(f.as_str(), expect, "{t:?}");
            assert_eq!(f.origins().len(), f.text.len());
        }
    }

    #[test]
    fn indic_marks_stay_and_latin_greek_cyrillic_diacritics_go() {
        // Vowel signs, virama and anusvara are part of the Hindi word.
        assert_eq!(fold_term("कैंसर"), "कैंसर");
        assert_eq!(fold_term("क्योंकि"), "क्योंकि");
        assert_ne!(fold_term("बीमारी"), fold_term("बमर"));
        // The nukta goes, the candrabindu is the anusvara.
        assert_eq!(fold_term("ज़िंदगी"), fold_term("जिंदगी"));
        assert_eq!(fold_term("माँ"), fold_term("मां"));
        assert_eq!(fold_term("\u{095B}"), "\u{091C}");
        // Bengali and Tamil vowel signs stay too.
        assert_eq!(fold_term("ক্যান্সার"), "ক্যান্সার");
        let tamil = "புற்றுநோய்";
        assert_eq!(fold_term(tamil), tamil.nfd().collect::<String>());
        // Other scripts' diacritics are stripped as before.
        assert_eq!(fold_term("Ŝtéfan Ελένη Йод"), "stefan ελενη иод");
    }

    #[test]
    fn hindi_spans_map_back_to_the_original() {
        let text = "मुझे  कैंसर है, ज़्यादा नहीं";
        let f = fold(text);
        assert_eq!(f.as_str(), "मुझे कैंसर है, ज्यादा नहीं");
        let at = f.as_str().find("कैंसर").unwrap();
        let r = f.original_span(at..at + "कैंसर".len());
        assert_eq!(&text[r], "कैंसर");
        let at = f.as_str().find("ज्यादा").unwrap();
        let r = f.original_span(at..at + "ज्यादा".len());
        assert_eq!(&text[r], "ज़्यादा");
        assert_eq!(f.origins().len(), f.as_str().len());
        assert!(f.on_word_boundary(&(at..at + "ज्यादा".len())));
    }

    #[test]
    fn a_mark_written_apart_that_folds_away_stays_with_its_letter() {
        for (text, folded) in [
            ("डायबिटीज\u{93C} है", "डायबिटीज"),
            ("cafe\u{301} noir", "cafe"),
        ] {
            let f = fold(text);
            let r = f.original_span(0..folded.len());
            assert_eq!(
                &text[r.clone()],
                text.split(' ').next().unwrap(),
                "{text:?}"
            );
            assert_eq!(f.origins().len(), f.as_str().len());
        }
        // After a space there is no letter to join.
        assert_eq!(fold(" \u{301}x").as_str(), "x");
    }

    #[test]
    fn a_virama_or_vowel_sign_continues_a_word() {
        assert!(is_word_char('\u{094D}'));
        assert!(is_word_char('\u{093E}'));
        assert!(is_word_char('क'));
        assert!(!is_word_char('\u{0301}'));
        assert!(!is_word_char('\u{0964}'));
    }

    #[test]
    fn sharp_s_and_ligatures_expand() {
        assert_eq!(fold_term("Straße"), "strasse");
        assert_eq!(fold_term("Œuvre"), "oeuvre");
        assert_eq!(fold_term("Baháʼí"), "baha'i");
    }

    #[test]
    fn word_boundaries_are_checked_on_folded_text() {
        let f = fold("AIDS-Hilfe, aidsfree");
        assert!(f.on_word_boundary(&(0..4)));
        assert!(!f.on_word_boundary(&(12..16)));
    }

    #[test]
    fn out_of_range_spans_do_not_panic() {
        let f = fold("abc");
        assert_eq!(f.original_span(10..20), 3..3);
        assert_eq!(f.original_span(0..0), 3..3);
    }

    #[test]
    fn fold_term_is_the_text_of_fold() {
        for t in [
            "Hello  World\t\n",
            "  Ça   va?  ",
            "Straße `quoted` \u{2019}s",
            "\u{200B}zero\u{00A0}width\u{FF21}",
            "",
            " ",
            "ﬁ Œuvre — ok",
        ] {
            assert_eq!(fold_term(t), fold(t).as_str(), "{t:?}");
        }
    }

    /// The fold byte by byte, before ASCII runs were copied at once.
    fn reference_fold(text: &str) -> Folded<'static> {
        let mut out = Folded {
            text: Cow::Owned(String::with_capacity(text.len())),
            origin: Vec::with_capacity(text.len()),
            same_places: false,
        };
        let mut last_space = true; // trims leading whitespace
        let bytes = text.as_bytes();
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            // ASCII, byte by byte (most text): whitespace collapses, a backtick is an apostrophe,
            // everything else lower-cases; nothing else in ASCII is invisible or folds further.
            if b.is_ascii() {
                let (start, end) = (i as u32, (i + 1) as u32);
                i += 1;
                if matches!(b, b' ' | b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r') {
                    if !last_space {
                        out.push_ascii(b' ', start, end);
                        last_space = true;
                    }
                    continue;
                }
                last_space = false;
                out.push_ascii(
                    if b == b'`' {
                        b'\''
                    } else {
                        b.to_ascii_lowercase()
                    },
                    start,
                    end,
                );
                continue;
            }
            let Some(c) = text.get(i..).and_then(|r| r.chars().next()) else {
                // Not on a char boundary: cannot happen for a `str`; step on.
                i += 1;
                continue;
            };
            let (start, end) = (i as u32, (i + c.len_utf8()) as u32);
            i += c.len_utf8();
            if is_invisible(c) {
                continue;
            }
            if c.is_whitespace() {
                if !last_space {
                    out.push(' ', start, end);
                    last_space = true;
                }
                continue;
            }
            last_space = false;
            if let Some(s) = simple_fold(c) {
                for ch in s.chars() {
                    out.push(ch, start, end);
                }
                continue;
            }
            let c = match c as u32 {
                // Full-width ASCII forms.
                0xFF01..=0xFF5E => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
                _ => c,
            };
            if c.is_ascii() {
                out.push(c.to_ascii_lowercase(), start, end);
                continue;
            }
            let folded_before = out.text.len();
            for lc in c.to_lowercase() {
                for d in lc.nfd().filter_map(fold_decomposed) {
                    out.push(d, start, end);
                }
            }
            if out.text.len() == folded_before && !out.text.ends_with(' ') {
                extend_last_origin(&mut out.origin, end);
            }
        }
        if out.text.ends_with(' ') {
            out.text.to_mut().pop();
            out.origin.pop();
        }
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]
        /// Copying ASCII runs at once folds and maps back as byte by byte.
        #[test]
        fn ascii_runs_fold_as_byte_by_byte(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                " ", "  ", "\t", "\n", "\r", "\x0B", "\x0C", "`", "'", "Ab", "xyz", "A-1",
                "Café", "\u{200B}", "ＡＢ", "ß", "\u{a0}", "İ", "’", "—", ".", "9", "कैंसर",
                "ज़", "माँ", "e\u{301}",
            ]), 0..16)
        ) {
            let text: String = parts.concat();
            let (a, b) = (fold(&text), reference_fold(&text));
            proptest::prop_assert_eq!(&a.text, &b.text);
            proptest::prop_assert_eq!(a.origins(), b.origins());
        }
    }
}
