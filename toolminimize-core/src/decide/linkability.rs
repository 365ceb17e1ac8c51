//! Cross-call linkability: a value dribbled out over several calls of one conversation.
//!
//! A [`Session`](crate::Session) remembers, per tool, which kinds of quasi-identifier each
//! tool has already received (as kinds, never values). When a call would hand a tool the piece
//! that completes an identifying combination — name and date of birth, postcode with date of
//! birth and gender, name and street address, name and employer — and the piece sits in free
//! text rather than in a field that exists to carry it, the piece is not sent.

use crate::item::PsdKind;

/// Sets of quasi-identifiers that single a person out when one recipient holds all of them.
const IDENTIFYING: &[&[PsdKind]] = &[
    &[PsdKind::PersonName, PsdKind::DateOfBirth],
    &[PsdKind::PersonName, PsdKind::StreetAddress],
    &[PsdKind::PersonName, PsdKind::Occupation],
    &[PsdKind::PersonName, PsdKind::Phone],
    &[PsdKind::Postcode, PsdKind::DateOfBirth, PsdKind::Gender],
    &[PsdKind::Postcode, PsdKind::Age, PsdKind::Gender],
    &[PsdKind::StreetAddress, PsdKind::DateOfBirth],
];

/// Whether a quasi-identifier kind takes part in any identifying set.
pub fn is_quasi_identifier(kind: PsdKind) -> bool {
    IDENTIFYING.iter().any(|set| set.contains(&kind))
}

/// Whether adding `new` to what a recipient already `has` completes an identifying set that
/// `has` alone did not.
pub fn completes_identity(has: &[PsdKind], new: PsdKind) -> bool {
    if has.contains(&new) {
        return false;
    }
    IDENTIFYING
        .iter()
        .any(|set| set.contains(&new) && set.iter().all(|k| *k == new || has.contains(k)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_and_date_of_birth_complete_an_identity() {
        use crate::PsdKind;
        use crate::decide::linkability::completes_identity;
        assert!(completes_identity(
            &[PsdKind::PersonName],
            PsdKind::DateOfBirth
        ));
        assert!(!completes_identity(&[PsdKind::Postcode], PsdKind::Gender));
    }

    #[test]
    fn three_part_combinations_need_all_parts() {
        let has = [PsdKind::Postcode, PsdKind::DateOfBirth];
        assert!(completes_identity(&has, PsdKind::Gender));
        assert!(!completes_identity(&[PsdKind::Postcode], PsdKind::Gender));
        assert!(!completes_identity(&has, PsdKind::DateOfBirth));
        assert!(is_quasi_identifier(PsdKind::Age));
        assert!(!is_quasi_identifier(PsdKind::Condition));
    }
}
