//! Russian and Ukrainian names in an oblique case: "Ивану Петрову", "у Марии Ивановой",
//! "с Ольгой Смирновой". The name lists hold nominatives; a capitalised Cyrillic word they do
//! not hold is read as each nominative its ending may stand for (the endings are data:
//! `data/names/cyrillic_cases.tsv`), and takes the flags of those the lists hold.

use std::sync::LazyLock;

use super::lists::{Flags, NameLists};
use crate::text::fold::fold_term;

/// The case endings, `ending<TAB>nominatives` (see the file's header).
const CASES: &str = include_str!("../../../data/names/cyrillic_cases.tsv");

/// Least letters of the stem left once an ending is taken off.
const MIN_STEM: usize = 3;

/// One ending (folded) and the nominative endings it may stand for (folded; empty: none).
struct Case {
    ending: String,
    nominatives: Vec<String>,
}

/// The endings, longest first.
static ENDINGS: LazyLock<Vec<Case>> = LazyLock::new(|| {
    let mut cases: Vec<Case> = CASES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let (ending, noms) = l.split_once('\t')?;
            Some(Case {
                ending: fold_term(ending.trim()),
                nominatives: noms
                    .split(',')
                    .map(str::trim)
                    .map(|n| {
                        if n == "-" {
                            String::new()
                        } else {
                            fold_term(n)
                        }
                    })
                    .collect(),
            })
        })
        .collect();
    cases.sort_by_key(|c| std::cmp::Reverse(c.ending.chars().count()));
    cases
});

/// Whether every letter of `key` is Cyrillic (U+0400–U+04FF), apostrophes and hyphens aside.
fn is_cyrillic(key: &str) -> bool {
    key.chars().any(char::is_alphabetic)
        && key
            .chars()
            .all(|c| matches!(c, '\u{0400}'..='\u{04FF}' | '\'' | '’' | '-'))
}

/// The nominatives the folded Cyrillic word `key` may be an oblique form of, longest ending
/// first.
fn nominatives(key: &str) -> impl Iterator<Item = String> + '_ {
    ENDINGS.iter().flat_map(move |case| {
        let stem = key
            .strip_suffix(case.ending.as_str())
            .filter(|s| s.chars().count() >= MIN_STEM);
        case.nominatives
            .iter()
            .filter_map(move |n| stem.map(|s| format!("{s}{n}")))
    })
}

/// The flags of the folded word `key`: its own, or, for a Cyrillic word the lists do not
/// hold, those of the nominatives it may be a form of (all of them: a place or an ordinary
/// word among them makes the word ambiguous) with [`Flags::INFLECTED`].
pub(crate) fn flags(lists: &NameLists, key: &str) -> Flags {
    let own = lists.flags(key);
    if own != Flags::default() || !is_cyrillic(key) {
        return own;
    }
    let read = nominatives(key)
        .filter(|n| n != key)
        .fold(Flags::default(), |acc, n| acc.union(lists.flags(&n)));
    if read == Flags::default() {
        read
    } else {
        read.union(Flags::INFLECTED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(word: &str) -> Flags {
        flags(NameLists::get(), &fold_term(word))
    }

    #[test]
    fn oblique_given_names_and_surnames_read_as_their_nominative() {
        for given in [
            "Ивану",
            "Ивана",
            "Иваном",
            "Марии",
            "Марию",
            "Марией",
            "Ольгой",
            "Ольге",
            "Ольги",
            "Алексея",
            "Алексею",
            "Игорем",
            "Игоря",
            "Олені",
            "Оленою",
            "Андрієм",
            "Сергею",
        ] {
            assert!(of(given).first(), "{given}");
        }
        for family in [
            "Петрову",
            "Петровым",
            "Ивановой",
            "Смирновой",
            "Кузнецова",
            "Волковым",
            "Шевченком",
            "Шевченкові",
        ] {
            assert!(of(family).last(), "{family}");
        }
    }

    #[test]
    fn words_that_are_no_form_of_a_name_stay_unknown() {
        for word in [
            "Вчера",
            "Завтра",
            "Спасибо",
            "Документы",
            "Встреча",
            "Офисе",
        ] {
            assert!(!of(word).name(), "{word}");
        }
        // A city in an oblique case reads as the city ("в Москве", "из Киева").
        for place in ["Москве", "Москвы", "Киева", "Санкт-Петербурге", "Казани"]
        {
            let f = of(place);
            assert!(f.has(Flags::PLACE) && !f.name(), "{place}");
        }
        // A reading is marked as one.
        assert!(of("Ивану").has(Flags::INFLECTED));
        assert!(!of("Иван").has(Flags::INFLECTED));
        // Latin script is not read this way.
        assert_eq!(of("ivanu"), Flags::default());
    }

    #[test]
    fn every_line_of_the_table_parses() {
        let rows = CASES
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .count();
        assert_eq!(ENDINGS.len(), rows);
        assert!(
            ENDINGS
                .iter()
                .all(|c| !c.ending.is_empty() && !c.nominatives.is_empty())
        );
    }
}
