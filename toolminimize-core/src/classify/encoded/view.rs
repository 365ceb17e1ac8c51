//! A decoded or normalised view of a text, with a map from each of its bytes back to the
//! bytes of the text it was made from.

use std::ops::Range;

/// Decoded text plus, for each byte, the source range it came from and whether it differs
/// from the source (a decoded or replaced byte rather than a copied one).
#[derive(Debug, Clone, Default)]
pub(crate) struct View {
    text: String,
    origin: Vec<(u32, u32)>,
    changed: Vec<bool>,
}

impl View {
    pub(crate) fn with_capacity(n: usize) -> Self {
        View {
            text: String::with_capacity(n),
            origin: Vec::with_capacity(n),
            changed: Vec::with_capacity(n),
        }
    }

    /// Appends `s`, every byte of it mapped to `src`.
    pub(crate) fn push_str(&mut self, s: &str, src: Range<usize>, changed: bool) {
        self.text.push_str(s);
        for _ in 0..s.len() {
            self.origin.push((src.start as u32, src.end as u32));
            self.changed.push(changed);
        }
    }

    /// Appends `c`, mapped to `src`.
    pub(crate) fn push(&mut self, c: char, src: Range<usize>, changed: bool) {
        let mut buf = [0u8; 4];
        self.push_str(c.encode_utf8(&mut buf), src, changed);
    }

    /// Copies `source[src]` unchanged.
    pub(crate) fn copy(&mut self, source: &str, src: Range<usize>) {
        let mut at = src.start;
        for c in source.get(src.clone()).unwrap_or("").chars() {
            let n = c.len_utf8();
            self.push(c, at..at + n, false);
            at += n;
        }
    }

    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }

    pub(crate) fn len(&self) -> usize {
        self.text.len()
    }

    /// Whether any byte of `r` was decoded or replaced.
    pub(crate) fn any_changed(&self, r: &Range<usize>) -> bool {
        self.changed
            .get(r.clone())
            .is_some_and(|c| c.iter().any(|&b| b))
    }

    /// Whether anything at all was decoded or replaced.
    pub(crate) fn is_changed(&self) -> bool {
        self.changed.iter().any(|&b| b)
    }

    /// The source range that produced view bytes `r` (the union of their sources).
    pub(crate) fn source_span(&self, r: &Range<usize>) -> Option<Range<usize>> {
        let slice = self.origin.get(r.clone())?;
        let start = slice.iter().map(|o| o.0).min()?;
        let end = slice.iter().map(|o| o.1).max()?;
        Some(start as usize..end as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_map_back_through_replacements() {
        // "a%40b" → "a@b"
        let src = "a%40b";
        let mut v = View::with_capacity(3);
        v.copy(src, 0..1);
        v.push('@', 1..4, true);
        v.copy(src, 4..5);
        assert_eq!(v.as_str(), "a@b");
        assert_eq!(v.source_span(&(0..3)), Some(0..5));
        assert_eq!(v.source_span(&(1..2)), Some(1..4));
        assert!(v.any_changed(&(0..2)));
        assert!(!v.any_changed(&(2..3)));
        assert_eq!(v.source_span(&(5..9)), None);
    }
}
