//! Cross-field combinations: quasi-identifiers that identify a person together.
//!
//! A quasi-identifier is harmless alone and identifying in company. Sweeney showed that
//! 87 % of the US population is unique by 5-digit ZIP code, full date of birth and gender
//! ("Simple Demographics Often Identify People Uniquely", 2000); employer with job title and
//! city, or a full name with a city, single out one person just as well; age, postcode and
//! ethnic origin together shrink the crowd to a handful. So when one call carries all parts of
//! such a combination, in any fields, each part is worth more to an observer than its own
//! sensitivity says.
//!
//! The rule: for each combination below whose every slot is filled by a distinct item of the
//! call (confidence ≥ 0.5), every item that fills a slot gets its sensitivity raised by one
//! level, capped at 4. An item is raised once, however many combinations it completes.
//!
//! | combination | slots |
//! |---|---|
//! | postcode + date of birth + gender | `postcode`; `date_of_birth`; `gender` |
//! | employer + job title + city | `occupation`; `occupation`; `place` or `postcode` |
//! | full name + city | `person_name`; `place`, `postcode` or `street_address` |
//! | age + postcode + ethnicity | `age` or `date_of_birth`; `postcode` or `place`; `ethnic_origin` |

use crate::item::{PsdItem, PsdKind};
use crate::taxonomy::Sensitivity;

/// Items less certain than this neither complete a combination nor get raised.
const MIN_CONFIDENCE: f32 = 0.5;

/// A combination: each slot lists the kinds that can fill it.
struct Combination {
    slots: &'static [&'static [PsdKind]],
}

const COMBINATIONS: &[Combination] = &[
    // Sweeney: ZIP + date of birth + gender.
    Combination {
        slots: &[
            &[PsdKind::Postcode],
            &[PsdKind::DateOfBirth],
            &[PsdKind::Gender],
        ],
    },
    // Employer + job title + city.
    Combination {
        slots: &[
            &[PsdKind::Occupation],
            &[PsdKind::Occupation],
            &[PsdKind::Place, PsdKind::Postcode],
        ],
    },
    // Full name + city.
    Combination {
        slots: &[
            &[PsdKind::PersonName],
            &[PsdKind::Place, PsdKind::Postcode, PsdKind::StreetAddress],
        ],
    },
    // Age + postcode + ethnicity.
    Combination {
        slots: &[
            &[PsdKind::Age, PsdKind::DateOfBirth],
            &[PsdKind::Postcode, PsdKind::Place],
            &[PsdKind::EthnicOrigin],
        ],
    },
];

/// Fills `slots` with distinct eligible items, depth first, from `counts` (eligible items per
/// kind). Items of one kind are interchangeable, so the search runs over kinds, not items:
/// linear in the number of items whatever their mix.
fn fill(slots: &[&[PsdKind]], counts: &mut [(PsdKind, usize)]) -> bool {
    let Some((slot, rest)) = slots.split_first() else {
        return true;
    };
    for kind in *slot {
        let Some(i) = counts.iter().position(|(k, n)| k == kind && *n > 0) else {
            continue;
        };
        if let Some((_, n)) = counts.get_mut(i) {
            *n -= 1;
        }
        let done = fill(rest, counts);
        if let Some((_, n)) = counts.get_mut(i) {
            *n += 1;
        }
        if done {
            return true;
        }
    }
    false
}

/// Raises the sensitivity of items that form an identifying combination (see the module
/// docs for the combinations and the rationale).
pub fn apply(items: &mut [PsdItem]) {
    // Eligible items per kind, for the kinds any combination names.
    let named: usize = COMBINATIONS
        .iter()
        .flat_map(|c| c.slots.iter())
        .map(|slot| slot.len())
        .sum();
    let mut counts: Vec<(PsdKind, usize)> = Vec::with_capacity(named);
    for c in COMBINATIONS {
        for slot in c.slots {
            for kind in *slot {
                if !counts.iter().any(|(k, _)| k == kind) {
                    counts.push((*kind, 0));
                }
            }
        }
    }
    for item in items.iter() {
        if item.confidence < MIN_CONFIDENCE {
            continue;
        }
        if let Some((_, n)) = counts.iter_mut().find(|(k, _)| *k == item.kind) {
            *n += 1;
        }
    }
    // The kinds raised: every kind of a combination that is complete (two postcodes: both).
    let mut raised: Vec<PsdKind> = Vec::new();
    for c in COMBINATIONS {
        if fill(c.slots, &mut counts) {
            raised.extend(c.slots.iter().flat_map(|s| s.iter().copied()));
        }
    }
    if raised.is_empty() {
        return;
    }
    for item in items.iter_mut() {
        if item.confidence >= MIN_CONFIDENCE && raised.contains(&item.kind) {
            let up = item.sensitivity.get().saturating_add(1).min(4);
            item.sensitivity = Sensitivity::new(up).unwrap_or(Sensitivity::CRITICAL);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quasi_identifier_set_raises_each_part() {
        use crate::classify::combine;
        use crate::item::{PsdItem, PsdKind};
        use crate::taxonomy::Sensitivity;

        let item = |path: &str, kind: PsdKind| PsdItem {
            path: path.into(),
            span: None,
            kind,
            category: kind.category(),
            sensitivity: kind.default_sensitivity(),
            detector: "test",
            confidence: 0.9,
        };
        let mut items = [
            item("/zip", PsdKind::Postcode),
            item("/dob", PsdKind::DateOfBirth),
            item("/sex", PsdKind::Gender),
        ];
        combine::apply(&mut items);
        assert_eq!(items[0].sensitivity, Sensitivity::HIGH); // postcode: 2 → 3
        assert_eq!(items[1].sensitivity, Sensitivity::CRITICAL); // date of birth: 3 → 4
    }

    fn item(path: &str, kind: PsdKind, confidence: f32) -> PsdItem {
        PsdItem {
            path: path.into(),
            span: Some(0..4),
            kind,
            category: kind.category(),
            sensitivity: kind.default_sensitivity(),
            detector: "test",
            confidence,
        }
    }

    fn levels(items: &[PsdItem]) -> Vec<u8> {
        items.iter().map(|i| i.sensitivity.get()).collect()
    }

    #[test]
    fn sweeney_triple_raises_each_part() {
        let mut items = vec![
            item("/zip", PsdKind::Postcode, 0.9),
            item("/notes", PsdKind::DateOfBirth, 0.9),
            item("/notes", PsdKind::Gender, 0.8),
            item("/notes", PsdKind::Condition, 0.9),
        ];
        apply(&mut items);
        // postcode 2→3, date of birth 3→4, gender 2→3; the condition is not part of it.
        assert_eq!(levels(&items), [3, 4, 3, 4]);
    }

    #[test]
    fn incomplete_combinations_change_nothing() {
        let mut items = vec![
            item("/zip", PsdKind::Postcode, 0.9),
            item("/dob", PsdKind::DateOfBirth, 0.9),
        ];
        apply(&mut items);
        assert_eq!(levels(&items), [2, 3]);
        // One occupation is not employer + job title.
        let mut items = vec![
            item("/q", PsdKind::Occupation, 0.9),
            item("/q", PsdKind::Place, 0.9),
        ];
        apply(&mut items);
        assert_eq!(levels(&items), [2, 2]);
    }

    #[test]
    fn employer_title_city_and_name_city() {
        let mut items = vec![
            item("/q", PsdKind::Occupation, 0.9),
            item("/q", PsdKind::Occupation, 0.9),
            item("/city", PsdKind::Place, 0.9),
        ];
        apply(&mut items);
        assert_eq!(levels(&items), [3, 3, 3]);
        let mut items = vec![
            item("/name", PsdKind::PersonName, 0.9),
            item("/q", PsdKind::Place, 0.9),
        ];
        apply(&mut items);
        assert_eq!(levels(&items), [4, 3]);
    }

    #[test]
    fn raised_once_and_capped() {
        // Completes both name+city and age+postcode+ethnicity: the postcode still rises by one.
        let mut items = vec![
            item("/a", PsdKind::PersonName, 0.9),
            item("/b", PsdKind::Postcode, 0.9),
            item("/c", PsdKind::Age, 0.9),
            item("/d", PsdKind::EthnicOrigin, 0.9),
        ];
        apply(&mut items);
        assert_eq!(levels(&items), [4, 3, 3, 4]);
    }

    #[test]
    fn weak_items_neither_complete_nor_rise() {
        let mut items = vec![
            item("/to", PsdKind::PersonName, 0.35),
            item("/city", PsdKind::Place, 0.9),
        ];
        apply(&mut items);
        assert_eq!(levels(&items), [3, 2]);
        apply(&mut []);
    }
}
