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
    let mut kept: Vec<Finding> = Vec::with_capacity(out.len());
    for f in out.drain(..) {
        let inside = kept
            .iter()
            .any(|k| k.span.start <= f.span.start && f.span.end <= k.span.end);
        if !inside {
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
