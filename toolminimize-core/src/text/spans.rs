//! A fixed set of byte ranges asked whether one of them overlaps or contains a range: sorted by
//! start with running maxima of their ends, so a question is one binary search; and whether a
//! span is a whole value.

use std::ops::Range;

/// Whether `span` is the whole of `value` give or take two characters of quoting or
/// punctuation (a date of birth filling its field, `"1990-03-14."`), not a span inside a
/// longer text.
pub fn is_whole_value(value: &str, span: &Range<usize>) -> bool {
    span.len() + 2 >= value.trim().len()
}

/// A fixed set of spans (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct SpanSet {
    /// Span starts, sorted.
    starts: Vec<usize>,
    /// The largest end among the spans up to each start.
    max_end: Vec<usize>,
}

impl SpanSet {
    /// The set of `spans`, in any order.
    pub fn new(spans: impl IntoIterator<Item = Range<usize>>) -> Self {
        let mut spans: Vec<Range<usize>> = spans.into_iter().collect();
        spans.sort_unstable_by_key(|r| r.start);
        let mut best = 0;
        let max_end = spans
            .iter()
            .map(|r| {
                best = best.max(r.end);
                best
            })
            .collect();
        SpanSet {
            starts: spans.iter().map(|r| r.start).collect(),
            max_end,
        }
    }

    /// Whether a span of the set starts before `r` ends and ends after `r` starts.
    pub fn overlaps(&self, r: &Range<usize>) -> bool {
        let n = self.starts.partition_point(|&s| s < r.end);
        n > 0 && self.max_end.get(n - 1).is_some_and(|&e| e > r.start)
    }

    /// Whether a span of the set starts at or before `r` and ends at or after it.
    pub fn contains(&self, r: &Range<usize>) -> bool {
        let n = self.starts.partition_point(|&s| s <= r.start);
        n > 0 && self.max_end.get(n - 1).is_some_and(|&e| e >= r.end)
    }
}

#[cfg(test)]
mod tests {
    use super::SpanSet;

    #[test]
    fn overlaps_and_contains() {
        let set = SpanSet::new([10..20, 0..3, 15..40]);
        assert!(set.overlaps(&(2..5)));
        assert!(!set.overlaps(&(3..10)));
        assert!(set.overlaps(&(39..50)));
        assert!(!set.overlaps(&(40..50)));
        assert!(set.contains(&(16..40)));
        assert!(set.contains(&(0..3)));
        assert!(!set.contains(&(5..12)));
        assert!(!SpanSet::new([]).overlaps(&(0..1)));
    }
}
