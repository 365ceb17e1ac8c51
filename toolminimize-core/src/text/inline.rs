//! Short strings built on the stack: a key normalised to be compared with a list
//! (`Gender_Identity` → `genderidentity`) or a few words joined to be looked up need no heap
//! allocation when they fit in [`INLINE`] bytes, as nearly all do.

/// Bytes a string collected by [`with_collected`] holds without a heap allocation.
pub const INLINE: usize = 64;

/// Collects `chars` into a string and gives it to `f`: on the stack when it fits in [`INLINE`]
/// bytes, in a `String` otherwise.
pub fn with_collected<R>(chars: impl IntoIterator<Item = char>, f: impl FnOnce(&str) -> R) -> R {
    let mut buf = [0u8; INLINE];
    let mut len = 0usize;
    let mut chars = chars.into_iter();
    while let Some(c) = chars.next() {
        let n = c.len_utf8();
        let Some(slot) = buf.get_mut(len..len + n) else {
            // Too long for the buffer: the rest goes to the heap.
            let mut s = String::with_capacity(INLINE * 2);
            s.push_str(as_str(&buf, len));
            s.push(c);
            s.extend(chars);
            return f(&s);
        };
        c.encode_utf8(slot);
        len += n;
    }
    f(as_str(&buf, len))
}

/// `f` of the letters of `key` (and its digits, with `digits`) in lower case
/// (`Gender_Identity` → `genderidentity`), collected as [`with_collected`] does; an ASCII key
/// is read byte by byte.
pub fn with_lower_alphanumerics<R>(key: &str, digits: bool, f: impl FnOnce(&str) -> R) -> R {
    let keep = |c: char| c.is_alphabetic() || (digits && c.is_numeric());
    if !key.is_ascii() || key.len() > INLINE {
        return with_collected(
            key.chars()
                .filter(|&c| keep(c))
                .flat_map(char::to_lowercase),
            f,
        );
    }
    let mut buf = [0u8; INLINE];
    let mut len = 0usize;
    for b in key.bytes() {
        if b.is_ascii_alphabetic() || (digits && b.is_ascii_digit()) {
            if let Some(slot) = buf.get_mut(len) {
                *slot = b.to_ascii_lowercase();
            }
            len += 1;
        }
    }
    f(as_str(&buf, len))
}

/// A string built by pushes: on the stack while it fits in [`INLINE`] bytes, in a `String`
/// once it grows past them.
#[derive(Debug, Clone)]
pub struct InlineString {
    buf: [u8; INLINE],
    len: usize,
    heap: Option<String>,
}

impl Default for InlineString {
    fn default() -> Self {
        Self::new()
    }
}

impl InlineString {
    /// An empty string.
    pub const fn new() -> Self {
        InlineString {
            buf: [0; INLINE],
            len: 0,
            heap: None,
        }
    }

    /// Appends `s`.
    pub fn push_str(&mut self, s: &str) {
        if let Some(h) = &mut self.heap {
            h.push_str(s);
            return;
        }
        let end = self.len + s.len();
        if let Some(slot) = self.buf.get_mut(self.len..end) {
            slot.copy_from_slice(s.as_bytes());
            self.len = end;
            return;
        }
        let mut h = String::with_capacity(end * 2);
        h.push_str(as_str(&self.buf, self.len));
        h.push_str(s);
        self.heap = Some(h);
    }

    /// Appends `c`.
    pub fn push(&mut self, c: char) {
        self.push_str(c.encode_utf8(&mut [0; 4]));
    }

    /// The string.
    pub fn as_str(&self) -> &str {
        match &self.heap {
            Some(h) => h,
            None => as_str(&self.buf, self.len),
        }
    }
}

/// `f` of [`fold_term`](super::fold::fold_term)`(term)`: a short ASCII term that folding
/// only lower-cases (words with single spaces between them, such as "date of birth") is
/// lower-cased on the stack, without a heap allocation.
pub fn with_folded_term<R>(term: &str, f: impl FnOnce(&str) -> R) -> R {
    let mut buf = [0u8; INLINE];
    if term.len() <= INLINE
        && super::fold::only_lowers(term.as_bytes())
        && let Some(lower) = buf.get_mut(..term.len())
    {
        lower.copy_from_slice(term.as_bytes());
        lower.make_ascii_lowercase();
        return f(std::str::from_utf8(lower).unwrap_or_default());
    }
    f(&super::fold::fold_term(term))
}

/// The first `len` bytes of `buf`, whole characters encoded by [`with_collected`].
fn as_str(buf: &[u8], len: usize) -> &str {
    std::str::from_utf8(buf.get(..len).unwrap_or_default()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folded_terms_are_those_fold_term_gives() {
        for term in [
            "",
            "SSN",
            "Date of Birth",
            "date  of birth",
            " lead",
            "trail ",
            "tab\there",
            "back`tick",
            "Tel.:",
            "x\u{1}y",
            "Prénom",
            "ＡＢ",
            &"Ab ".repeat(30),
            &"a".repeat(INLINE),
            &"a".repeat(INLINE + 1),
        ] {
            assert_eq!(
                with_folded_term(term, str::to_owned),
                crate::text::fold::fold_term(term),
                "{term:?}"
            );
        }
    }

    #[test]
    fn collects_short_and_long_strings_alike() {
        for s in [
            "",
            "genderidentity",
            "prénom",
            &"ß".repeat(40),
            &"a".repeat(200),
        ] {
            assert_eq!(with_collected(s.chars(), str::to_owned), s);
        }
        // A character that does not fit whole in what is left of the buffer.
        let s = format!("{}é{}", "a".repeat(INLINE - 1), "b".repeat(10));
        assert_eq!(with_collected(s.chars(), str::to_owned), s);
    }

    #[test]
    fn an_inline_string_holds_what_was_pushed() {
        let mut s = InlineString::new();
        let mut expected = String::new();
        for part in ["saint", " ", "étienne", " ", &"x".repeat(70), "ü"] {
            s.push_str(part);
            expected.push_str(part);
            assert_eq!(s.as_str(), expected);
        }
        s.push('!');
        assert_eq!(s.as_str(), format!("{expected}!"));
    }

    #[test]
    fn a_term_folded_on_the_stack_is_the_term_folded() {
        for t in [
            "Krebs",
            "MRI",
            "né",
            "Straße",
            "a`b",
            "two words",
            "",
            &"Ab".repeat(40),
        ] {
            assert_eq!(
                with_folded_term(t, str::to_owned),
                crate::text::fold::fold_term(t),
                "{t}"
            );
        }
    }

    #[test]
    fn lower_alphanumerics_read_ascii_and_other_keys_alike() {
        for key in [
            "Gender_Identity",
            "primary_MemberID2",
            "Prénom_2",
            "ÉTAT",
            "",
            &"Ab_1".repeat(30),
        ] {
            for digits in [false, true] {
                let expected: String = key
                    .chars()
                    .filter(|c| c.is_alphabetic() || (digits && c.is_numeric()))
                    .flat_map(char::to_lowercase)
                    .collect();
                assert_eq!(
                    with_lower_alphanumerics(key, digits, str::to_owned),
                    expected
                );
            }
        }
    }
}
