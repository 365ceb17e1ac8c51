//! Which script a character belongs to, where more than one stage needs to know.

/// Whether `c` is a Han ideograph (Chinese hanzi, Japanese kanji, Korean hanja): the CJK
/// Unified Ideographs, their Extension A and the compatibility ideographs.
pub fn is_han(c: char) -> bool {
    matches!(c, '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}')
}

#[cfg(test)]
mod tests {
    use super::is_han;

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
}
