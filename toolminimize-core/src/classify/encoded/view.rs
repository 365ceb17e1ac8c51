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
    /// Numbers spoken digit by digit ("nul zes twee …") are written as digits in it.
    dictated: bool,
}

impl View {
    pub(crate) fn with_capacity(n: usize) -> Self {
        View {
            text: String::with_capacity(n),
            origin: Vec::with_capacity(n),
            changed: Vec::with_capacity(n),
            dictated: false,
        }
    }

    /// Marks the view as one of numbers spoken digit by digit.
    pub(crate) fn dictated(mut self) -> Self {
        self.dictated = true;
        self
    }

    /// Whether numbers spoken digit by digit are written as digits in it.
    pub(crate) fn is_dictated(&self) -> bool {
        self.dictated
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
        let part = source.get(src.clone()).unwrap_or("");
        self.text.reserve(part.len());
        self.origin.reserve(part.len());
        self.changed.reserve(part.len());
        for c in part.chars() {
            let n = c.len_utf8();
            self.push(c, at..at + n, false);
            at += n;
        }
    }

    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether any byte of `r` was decoded or replaced.
    pub(crate) fn any_changed(&self, r: &Range<usize>) -> bool {
        let end = r.end.min(self.changed.len());
        self.changed
            .get(r.start.min(end)..end)
            .is_some_and(|c| c.iter().any(|&b| b))
    }

    /// Whether anything at all was decoded or replaced.
    pub(crate) fn is_changed(&self) -> bool {
        self.changed.iter().any(|&b| b)
    }

    /// The parts of the view worth scanning again: every run of changed bytes with `radius`
    /// bytes of context on each side (on char boundaries), overlapping parts merged. A view
    /// shorter than four radii is one part. Findings must touch a changed byte to count, so
    /// the rest of a long text, already scanned as it is, need not be scanned twice.
    pub(crate) fn windows(&self, radius: usize) -> Vec<Range<usize>> {
        let len = self.text.len();
        if len <= 4 * radius {
            return std::iter::once(0..len).collect();
        }
        let mut out: Vec<Range<usize>> = Vec::new();
        let mut i = 0;
        while i < len {
            if !self.changed.get(i).copied().unwrap_or(false) {
                i += 1;
                continue;
            }
            let run_start = i;
            while self.changed.get(i).copied().unwrap_or(false) {
                i += 1;
            }
            let mut start = run_start.saturating_sub(radius);
            while start > 0 && !self.text.is_char_boundary(start) {
                start -= 1;
            }
            let mut end = (i + radius).min(len);
            while end < len && !self.text.is_char_boundary(end) {
                end += 1;
            }
            match out.last_mut() {
                Some(last) if start <= last.end => last.end = last.end.max(end),
                _ => out.push(start..end),
            }
        }
        out
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

    #[test]
    fn windows_cover_changed_runs_with_context() {
        let src = format!("{}a%40b{}", "x".repeat(100), "y".repeat(100));
        let mut v = View::with_capacity(src.len());
        v.copy(&src, 0..101);
        v.push('@', 101..104, true);
        v.copy(&src, 104..src.len());
        assert_eq!(v.windows(10), std::iter::once(91..112).collect::<Vec<_>>());
        assert_eq!(&v.as_str()[91..112], "xxxxxxxxxa@byyyyyyyyy");
        // Short views are one window; unchanged views have none.
        assert_eq!(
            v.windows(60),
            std::iter::once(0..v.as_str().len()).collect::<Vec<_>>()
        );
        let mut plain = View::with_capacity(300);
        plain.copy(&"z".repeat(300), 0..300);
        assert!(plain.windows(10).is_empty());
    }
}
