//! Resolves overlapping findings in one string.
//!
//! Where two findings overlap, the more specific one wins: a special category over an ordinary
//! one, then the longer span, then any reading of digits over a phone number, then the higher
//! confidence. Findings wholly inside a winner are dropped; partial overlaps of different
//! categories are both kept (the rewriter merges spans).
//!
//! O(n log n) in the number of findings: containment is a prefix-maximum query over the span
//! starts (a Fenwick tree), not a pairwise comparison.

use std::ops::Range;

use crate::item::{Finding, PsdKind};

/// The detector name of an employer named after a word for working there.
const EMPLOYER: &str = "employer";

fn rank(f: &Finding) -> (bool, usize, bool, u32) {
    (
        f.category.is_special(),
        f.span.len(),
        // Digits read as a phone number are the reading of last resort: a label before them
        // ("SVNR", "member ID") or a check digit says better what they are.
        f.kind != PsdKind::Phone,
        (f.confidence * 1000.0) as u32,
    )
}

/// Prefix maxima of span ends (stored plus one, zero meaning none) over span starts, indexed
/// by the rank of a start among the sorted distinct starts.
struct PrefixMaxEnd {
    starts: Vec<usize>,
    tree: Vec<usize>,
}

impl PrefixMaxEnd {
    fn new(mut starts: Vec<usize>) -> Self {
        starts.sort_unstable();
        starts.dedup();
        let n = starts.len();
        PrefixMaxEnd {
            starts,
            tree: vec![0; n + 1],
        }
    }

    /// Records a span `start..end` (`start` must be one of the starts given to `new`).
    fn insert(&mut self, span: &Range<usize>) {
        let mut i = self.starts.partition_point(|&s| s < span.start) + 1;
        while let Some(slot) = self.tree.get_mut(i) {
            *slot = (*slot).max(span.end.saturating_add(1));
            i += i & i.wrapping_neg();
        }
    }

    /// Whether a recorded span contains `span` (starts at or before it, ends at or after it).
    fn contains(&self, span: &Range<usize>) -> bool {
        let mut i = self.starts.partition_point(|&s| s <= span.start);
        let mut best = 0;
        while i > 0 {
            best = best.max(self.tree.get(i).copied().unwrap_or(0));
            i -= i & i.wrapping_neg();
        }
        best > span.end
    }
}

/// Sorts by start and drops findings contained in a better one.
/// Drops the findings `dropped` selects that lie wholly inside one `container` selects.
fn drop_inside(
    out: &mut Vec<Finding>,
    container: impl Fn(&Finding) -> bool,
    dropped: impl Fn(&Finding) -> bool,
) {
    let spans: Vec<Range<usize>> = out
        .iter()
        .filter(|f| container(f))
        .map(|f| f.span.clone())
        .collect();
    if spans.is_empty() {
        return;
    }
    let mut index = PrefixMaxEnd::new(spans.iter().map(|a| a.start).collect());
    for a in &spans {
        index.insert(a);
    }
    out.retain(|f| !dropped(f) || !index.contains(&f.span));
}

pub(crate) fn resolve(out: &mut Vec<Finding>) {
    if out.len() < 2 {
        out.sort_by_key(|f| f.span.start);
        return;
    }
    // A lexicon term inside a street address names the street, not a venue ("Temple Road",
    // "300 Gurdwara Rd", "Hospital Lane"): the address wins.
    drop_inside(
        out,
        |f| f.kind == PsdKind::StreetAddress,
        |f| f.kind != PsdKind::StreetAddress,
    );
    // A workplace is no care: a hospital or clinic named as where someone works ("nurse at
    // St. Olav's Hospital", "ansat på Bispebjerg Hospital") is an employer.
    drop_inside(
        out,
        |f| f.detector == EMPLOYER,
        |f| f.kind == PsdKind::HealthFacility,
    );
    // Best first, so a later finding inside an earlier kept one is dropped. A finding inside
    // a dropped one is inside the kept one that contains that one too, so "inside an earlier
    // kept finding" is "inside any earlier finding".
    out.sort_by_key(|f| std::cmp::Reverse(rank(f)));
    let mut index = PrefixMaxEnd::new(out.iter().map(|f| f.span.start).collect());
    let mut kept: Vec<Finding> = Vec::with_capacity(out.len());
    for f in out.drain(..) {
        if !index.contains(&f.span) {
            index.insert(&f.span);
            kept.push(f);
        }
    }
    kept.sort_by_key(|f| (f.span.start, f.span.end));
    *out = kept;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::item::PsdKind;

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
    fn a_hospital_named_as_a_workplace_is_the_employer() {
        let mut v = vec![
            Finding::new(20..41, PsdKind::Occupation, 0.75, EMPLOYER),
            Finding::new(20..41, PsdKind::HealthFacility, 0.9, "lexicon:health"),
            Finding::new(50..60, PsdKind::HealthFacility, 0.9, "lexicon:health"),
        ];
        resolve(&mut v);
        let kinds: Vec<PsdKind> = v.iter().map(|f| f.kind).collect();
        assert_eq!(kinds, [PsdKind::Occupation, PsdKind::HealthFacility]);
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

    /// The pairwise definition the indexed version must agree with.
    fn naive(out: &mut Vec<Finding>) {
        let addresses: Vec<Range<usize>> = out
            .iter()
            .filter(|f| f.kind == PsdKind::StreetAddress)
            .map(|f| f.span.clone())
            .collect();
        out.retain(|f| {
            f.kind == PsdKind::StreetAddress
                || !addresses
                    .iter()
                    .any(|a| a.start <= f.span.start && f.span.end <= a.end)
        });
        out.sort_by_key(|f| std::cmp::Reverse(rank(f)));
        let mut kept: Vec<Finding> = Vec::new();
        for f in out.drain(..) {
            if !kept
                .iter()
                .any(|k| k.span.start <= f.span.start && f.span.end <= k.span.end)
            {
                kept.push(f);
            }
        }
        kept.sort_by_key(|f| (f.span.start, f.span.end));
        *out = kept;
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        #[test]
        fn indexed_resolution_matches_the_pairwise_one(
            spans in proptest::collection::vec((0usize..60, 0usize..12, 0usize..4), 0..40)
        ) {
            let kinds = [PsdKind::StreetAddress, PsdKind::Belief, PsdKind::Phone, PsdKind::Place];
            let findings: Vec<Finding> = spans
                .iter()
                .map(|&(s, l, k)| Finding::new(s..s + l, kinds[k], 0.5 + k as f32 / 10.0, "t"))
                .collect();
            let mut a = findings.clone();
            let mut b = findings;
            resolve(&mut a);
            if b.len() < 2 {
                b.sort_by_key(|f| f.span.start);
            } else {
                naive(&mut b);
            }
            proptest::prop_assert_eq!(a, b);
        }
    }
}
