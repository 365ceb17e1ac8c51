//! Cross-field combinations: quasi-identifiers that identify a person together.
//!
//! Filled in by the classifier stage-2 work (postcode + date of birth + gender; employer + job
//! title + city raise the sensitivity of each part).

use crate::item::PsdItem;

/// Raises the sensitivity of items that form an identifying combination.
pub fn apply(_items: &mut [PsdItem]) {}
