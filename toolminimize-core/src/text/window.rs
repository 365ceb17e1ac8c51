//! Bounded windows of a long text, for the stages that read a text as a whole (the decision
//! stage's sentences, clauses and words): a text longer than [`READ_WINDOW`] is read window by
//! window, so what is built for one reading stays bounded however long the text, while every
//! byte still lies in exactly one window.

use std::ops::Range;

/// Texts up to this many bytes are read whole; longer ones in windows of about this size
/// (the classifier's scan window).
pub const READ_WINDOW: usize = 256 * 1024;

/// Consecutive windows that cover `text` without overlap, each at most `max` bytes unless a
/// span of `spans` (sorted by start) crosses the cut: a window never cuts a span, it extends
/// to the span's end. Where the text allows, a window ends after a line break, else after a
/// sentence end (`.`, `!` or `?` and a space), else after a space, found in its last quarter;
/// edges are always char boundaries. A text of at most `max` bytes is one window.
pub fn cover(text: &str, max: usize, spans: &[Range<usize>]) -> Vec<Range<usize>> {
    let len = text.len();
    let max = max.max(4);
    let floor = |mut i: usize| {
        while i > 0 && !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let ceil = |mut i: usize| {
        while i < len && !text.is_char_boundary(i) {
            i += 1;
        }
        i.min(len)
    };
    let mut out = Vec::new();
    let mut start = 0usize;
    let mut next_span = 0usize;
    let mut reach = 0usize;
    while start < len {
        if len - start <= max {
            out.push(start..len);
            break;
        }
        let mut hard = floor(start + max);
        if hard <= start {
            hard = ceil(start + 1);
        }
        let low = floor(hard - max / 4).max(start);
        let mut cut = best_cut(text, low, hard)
            .filter(|&c| c > start)
            .unwrap_or(hard);
        // Never inside a span: past the furthest end of the spans that start before the cut.
        loop {
            while let Some(s) = spans.get(next_span).filter(|s| s.start < cut) {
                reach = reach.max(s.end);
                next_span += 1;
            }
            if reach > cut {
                cut = ceil(reach.min(len));
            } else {
                break;
            }
        }
        out.push(start..cut);
        start = cut;
    }
    out
}

/// The best place to end a window in `text[low..hard]`: just after the last line break, else
/// after the last sentence end, else after the last whitespace.
fn best_cut(text: &str, low: usize, hard: usize) -> Option<usize> {
    let seg = text.get(low..hard)?;
    if let Some(i) = seg.rfind('\n') {
        return Some(low + i + 1);
    }
    let bytes = seg.as_bytes();
    let sentence_end = (1..bytes.len()).rev().find(|&i| {
        bytes.get(i).is_some_and(u8::is_ascii_whitespace)
            && bytes
                .get(i - 1)
                .is_some_and(|b| matches!(b, b'.' | b'!' | b'?'))
    });
    if let Some(i) = sentence_end {
        return Some(low + i + 1);
    }
    seg.char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace())
        .map(|(i, c)| low + i + c.len_utf8())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, max: usize, spans: &[Range<usize>]) -> Vec<Range<usize>> {
        let w = cover(text, max, spans);
        assert_eq!(w.first().map(|r| r.start), Some(0));
        assert_eq!(w.last().map(|r| r.end), Some(text.len()));
        for p in w.windows(2) {
            assert_eq!(p[0].end, p[1].start);
        }
        for r in &w {
            assert!(r.start < r.end);
            assert!(text.is_char_boundary(r.start) && text.is_char_boundary(r.end));
            for s in spans {
                assert!(
                    s.end <= r.start || s.start >= r.end || (r.start <= s.start && s.end <= r.end),
                    "{s:?} cut by {r:?}"
                );
            }
        }
        w
    }

    #[test]
    fn short_texts_are_one_window() {
        assert_eq!(cover("short", 100, &[]), vec![0..5]);
        assert!(cover("", 100, &[]).is_empty());
    }

    #[test]
    fn windows_prefer_line_breaks_then_sentences_then_spaces() {
        let text = format!(
            "{}\n{}. {} {}",
            "a".repeat(70),
            "b".repeat(10),
            "c".repeat(5),
            "d".repeat(40)
        );
        let w = check(&text, 80, &[]);
        assert_eq!(w[0], 0..71);
        let text = format!("{}. {} {}", "b".repeat(70), "c".repeat(5), "d".repeat(40));
        assert_eq!(check(&text, 80, &[])[0], 0..72);
        let text = format!("{} {}", "c".repeat(70), "d".repeat(40));
        assert_eq!(check(&text, 80, &[])[0], 0..71);
        // No space: a char boundary.
        let text = "é".repeat(100);
        let w = check(&text, 81, &[]);
        assert_eq!(w[0], 0..80);
    }

    #[test]
    fn spans_are_never_cut() {
        let text = "x".repeat(1000);
        let spans = [70..130, 120..260, 900..905];
        let w = check(&text, 100, &spans);
        assert_eq!(w[0], 0..260);
        let w = check(&text, 100, &[]);
        assert_eq!(w.len(), 10);
    }
}
