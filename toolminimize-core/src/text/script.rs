//! Which script a character belongs to, where more than one stage needs to know.
//!
//! One set of predicates for every stage, so that "Japanese or Chinese text" means the same
//! characters to the detectors, the decisions and the rewrite:
//!
//! - [`is_han`]: Han ideographs (hanzi, kanji, hanja);
//! - [`is_kana`]: Hiragana and Katakana, full and half width;
//! - [`is_cjk`]: either of them, the scripts of Japanese and Chinese text;
//! - [`is_hangul`]: Hangul syllables;
//! - [`is_arabic`], [`is_hebrew`], [`is_devanagari`]: scripts written with spaces but no
//!   capitals;
//! - [`is_unspaced`]: scripts whose words are written without spaces between them.

/// Whether `c` is a Han ideograph (Chinese hanzi, Japanese kanji, Korean hanja): the CJK
/// Unified Ideographs, their Extension A and the compatibility ideographs.
pub fn is_han(c: char) -> bool {
    matches!(c, '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}')
}

/// Whether `c` is Japanese kana: Hiragana, Katakana (with its phonetic extensions) and
/// half-width Katakana.
pub fn is_kana(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30FF}' | '\u{31F0}'..='\u{31FF}' | '\u{FF66}'..='\u{FF9F}')
}

/// Whether `c` is written in Japanese or Chinese: kana or a Han ideograph.
pub fn is_cjk(c: char) -> bool {
    is_kana(c) || is_han(c)
}

/// Whether `c` is a Hangul syllable. Korean separates its words with spaces, but a word
/// takes its particles without one.
pub fn is_hangul(c: char) -> bool {
    matches!(c, '\u{AC00}'..='\u{D7AF}')
}

/// Whether `c` is an Arabic letter or mark (the Arabic block and its supplement: Arabic,
/// Persian, Urdu).
pub fn is_arabic(c: char) -> bool {
    matches!(c, '\u{0600}'..='\u{06FF}' | '\u{0750}'..='\u{077F}')
}

/// Whether `c` is in the Hebrew block.
pub fn is_hebrew(c: char) -> bool {
    matches!(c, '\u{0590}'..='\u{05FF}')
}

/// Whether `c` is in the Devanagari block (Hindi, Marathi, Nepali).
pub fn is_devanagari(c: char) -> bool {
    matches!(c, '\u{0900}'..='\u{097F}')
}

/// Whether `c` belongs to a script written without spaces between words: kana, Han, Thai,
/// Lao, Khmer and Myanmar.
pub fn is_unspaced(c: char) -> bool {
    // Below Thai, the first of these scripts: Latin, Greek, Cyrillic and the like, told by
    // one comparison.
    if c < '\u{0E00}' {
        return false;
    }
    is_cjk(c) || spaces_phrases(c)
}

/// Whether `c` belongs to a script whose writers part phrases and sentences with a space,
/// words being written together: Thai, Lao, Khmer and Myanmar.
pub fn spaces_phrases(c: char) -> bool {
    matches!(c,
        '\u{0E00}'..='\u{0EFF}'  // Thai, Lao
        | '\u{1000}'..='\u{109F}' // Myanmar
        | '\u{1780}'..='\u{17FF}' // Khmer
    )
}

#[cfg(test)]
mod tests {
    use super::{is_cjk, is_han, is_hangul, is_kana, is_unspaced};

    #[test]
    fn han_ideographs_and_nothing_else() {
        for c in ['手', '機', '佐', '㐀', '豈'] {
            assert!(is_han(c), "{c}");
        }
        // Kana, Hangul, the iteration mark, Yijing hexagrams, full-width digits.
        for c in ['あ', 'ア', '한', '々', '䷀', '１'] {
            assert!(!is_han(c), "{c}");
        }
    }

    #[test]
    fn kana_full_and_half_width() {
        for c in ['あ', 'ア', 'ー', 'ㇰ', 'ｱ'] {
            assert!(is_kana(c), "{c}");
            assert!(is_cjk(c), "{c}");
        }
        for c in ['手', '한', 'a', '１', '。'] {
            assert!(!is_kana(c), "{c}");
        }
    }

    #[test]
    fn the_scripts_written_without_spaces() {
        for c in ['あ', '手', 'ก', 'ກ', 'က', 'ក'] {
            assert!(is_unspaced(c), "{c}");
        }
        // Korean has spaces between words; Latin, Cyrillic, Devanagari, full-width digits.
        for c in ['한', 'a', 'ж', 'क', '１'] {
            assert!(!is_unspaced(c), "{c}");
        }
        assert!(is_hangul('한') && !is_hangul('あ'));
    }
}
