//! Score: the privacy cost of a call (SPEC §3).
//!
//! PC = Σ over PSD items that are not necessary of S(item) × E(tool).

use crate::taxonomy::{Exposure, Sensitivity};

/// Σ S × E over the items that are not necessary; each item is `(sensitivity, necessary)`.
pub fn cost(items: impl IntoIterator<Item = (Sensitivity, bool)>, exposure: Exposure) -> f64 {
    let e = f64::from(exposure.weight());
    items
        .into_iter()
        .filter(|(_, necessary)| !necessary)
        .map(|(s, _)| f64::from(s.get()) * e)
        .sum::<f64>()
        // An empty sum is -0.0; report 0.
        + 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_counts_unnecessary_items_by_exposure() {
        let items = [(Sensitivity::CRITICAL, false), (Sensitivity::HIGH, true)];
        assert_eq!(cost(items, Exposure::ThirdParty), 8.0);
    }
}
