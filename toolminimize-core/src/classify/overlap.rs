//! Resolves overlapping findings in one string.
//!
//! Where two findings overlap, the more specific one wins: a special category over an ordinary
//! one, then the longer span, then the higher confidence. Findings wholly inside a winner are
//! dropped; partial overlaps of different categories are both kept (the rewriter merges spans).

use crate::item::Finding;

fn rank(f: &Finding) -> (bool, usize, u32) {
    (
        f.category.is_special(),
        f.span.len(),
        (f.confidence * 1000.0) as u32,
    )
}

/// Sorts by start and drops findings contained in a better one.
pub(crate) fn resolve(out: &mut Vec<Finding>) {
    if out.len() < 2 {
        out.sort_by_key(|f| f.span.start);
        return;
    }
    // A lexicon term inside a street address names the street, not a venue ("Temple Road",
    // "300 Gurdwara Rd", "Hospital Lane"): the address wins.
    let addresses: Vec<std::ops::Range<usize>> = out
        .iter()
        .filter(|f| f.kind == crate::item::PsdKind::StreetAddress)
        .map(|f| f.span.clone())
        .collect();
    if !addresses.is_empty() {
        out.retain(|f| {
            f.kind == crate::item::PsdKind::StreetAddress
                || !addresses
                    .iter()
                    .any(|a| a.start <= f.span.start && f.span.end <= a.end)
        });
    }
    // Best first, so a later finding inside an earlier kept one is dropped.
    out.sort_by_key(|f| std::cmp::Reverse(rank(f)));
    // A finding inside one already kept goes. "Inside a kept span" is "the largest end among
    // kept spans starting at or before its start reaches its end": a prefix-maximum tree over
    // the distinct starts keeps that O(n log n) on long texts.
    let mut starts: Vec<usize> = out.iter().map(|f| f.span.start).collect();
    starts.sort_unstable();
    starts.dedup();
    let mut max_end = PrefixMax::new(starts.len());
    let mut kept: Vec<Finding> = Vec::with_capacity(out.len());
    for f in out.drain(..) {
        let at = starts.partition_point(|&s| s <= f.span.start);
        if max_end.get(at).is_some_and(|end| end >= f.span.end) {
            continue;
        }
        max_end.raise(at, f.span.end);
        kept.push(f);
    }
    kept.sort_by_key(|f| (f.span.start, f.span.end));
    *out = kept;
}

/// Maxima of prefixes under point raises (a Fenwick tree), positions 1-based.
struct PrefixMax {
    tree: Vec<Option<usize>>,
}

impl PrefixMax {
    fn new(n: usize) -> Self {
        PrefixMax {
            tree: vec![None; n + 1],
        }
    }

    /// Raises position `i` to at least `v`.
    fn raise(&mut self, mut i: usize, v: usize) {
        while i > 0 && i < self.tree.len() {
            if let Some(slot) = self.tree.get_mut(i) {
                *slot = Some(slot.map_or(v, |x| x.max(v)));
            }
            i += i & i.wrapping_neg();
        }
    }

    /// The maximum over positions `1..=i`.
    fn get(&self, mut i: usize) -> Option<usize> {
        let mut best = None;
        while i > 0 {
            if let Some(&Some(x)) = self.tree.get(i) {
                best = Some(best.map_or(x, |b: usize| b.max(x)));
            }
            i -= i & i.wrapping_neg();
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::item::PsdKind;

    proptest::proptest! {
        #[test]
        fn containment_matches_the_pairwise_check(
            spans in proptest::collection::vec((0usize..60, 1usize..20, 0u32..1000), 0..40)
        ) {
            let findings: Vec<Finding> = spans
                .iter()
                .map(|&(s, l, c)| Finding::new(s..s + l, PsdKind::Email, c as f32 / 1000.0, "t"))
                .collect();
            let mut naive = findings.clone();
            naive.sort_by_key(|f| std::cmp::Reverse(rank(f)));
            let mut kept: Vec<Finding> = Vec::new();
            for f in naive {
                if !kept.iter().any(|k| k.span.start <= f.span.start && f.span.end <= k.span.end) {
                    kept.push(f);
                }
            }
            kept.sort_by_key(|f| (f.span.start, f.span.end));
            let mut fast = findings;
            resolve(&mut fast);
            let key = |v: &[Finding]| v.iter().map(|f| (f.span.clone(), f.confidence.to_bits())).collect::<Vec<_>>();
            proptest::prop_assert_eq!(key(&fast), key(&kept));
        }
    }

    #[test]
    fn venue_words_inside_a_street_address_are_the_address() {
        let mut v = vec![
            Finding::new(0..15, PsdKind::StreetAddress, 0.8, "address"),
            Finding::new(4..12, PsdKind::Belief, 0.9, "lexicon"),
        ];
        resolve(&mut v);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].kind, PsdKind::StreetAddress);
    }

    #[test]
    fn contained_findings_yield_to_the_special_category() {
        let mut v = vec![
            Finding::new(0..9, PsdKind::Place, 0.6, "place"),
            Finding::new(0..40, PsdKind::HealthFacility, 0.9, "lexicon"),
            Finding::new(50..60, PsdKind::Phone, 0.9, "phone"),
        ];
        resolve(&mut v);
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].kind, PsdKind::HealthFacility);
        assert_eq!(v[1].kind, PsdKind::Phone);
    }
}
