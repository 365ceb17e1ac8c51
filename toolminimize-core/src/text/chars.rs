//! The characters on either side of a byte offset, read without decoding the text around
//! them (an ASCII byte is a whole character).

/// The character that starts at byte `i` of `text`, or `None` at the end or inside a
/// character.
pub fn char_at(text: &str, i: usize) -> Option<char> {
    match *text.as_bytes().get(i)? {
        b if b.is_ascii() => Some(char::from(b)),
        _ => text.get(i..)?.chars().next(),
    }
}

/// The character that ends right before byte `i` of `text`, or `None` at the start or inside
/// a character.
pub fn char_before(text: &str, i: usize) -> Option<char> {
    match *text.as_bytes().get(i.checked_sub(1)?)? {
        b if b.is_ascii() => Some(char::from(b)),
        _ => text.get(..i)?.chars().next_back(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte reads give what decoding the text gives, at every offset.
    #[test]
    fn reads_agree_with_decoding() {
        for text in ["", "a", "né ok", "日本 x", "a\u{1F600}b"] {
            for i in 0..=text.len() + 1 {
                assert_eq!(
                    char_at(text, i),
                    text.get(i..).and_then(|s| s.chars().next()),
                    "{text:?} {i}"
                );
                assert_eq!(
                    char_before(text, i),
                    text.get(..i).and_then(|s| s.chars().next_back()),
                    "{text:?} {i}"
                );
            }
        }
    }
}
