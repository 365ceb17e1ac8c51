//! Russian and Ukrainian names in an oblique case: "Ивану Петрову", "у Марии Ивановой",
//! "с Ольгой Смирновой". The name lists hold nominatives; a capitalised Cyrillic word they do
//! not hold is read as each nominative its ending may stand for (the endings are data:
//! `data/names/cyrillic_cases.tsv`), and takes the flags of those the lists hold. A
//! patronymic ("Петрович", "Ивану Петровичу", "с Анной Сергеевной") is a family-name part when
//! its stem is a listed given name (the suffixes are data: `data/names/cyrillic_patronymics.tsv`).

use std::sync::LazyLock;

use super::lists::{Flags, NameLists};
use crate::text::fold::fold_term;

/// The case endings, `ending<TAB>nominatives` (see the file's header).
const CASES: &str = include_str!("../../../data/names/cyrillic_cases.tsv");

/// The patronymic suffixes, `suffix<TAB>given-name endings` (see the file's header).
const PATRONYMICS: &str = include_str!("../../../data/names/cyrillic_patronymics.tsv");

/// Least letters of the stem left once an ending is taken off.
const MIN_STEM: usize = 3;

/// Least letters of a patronymic's stem ("Ян" + "ович").
const MIN_PATRONYMIC_STEM: usize = 2;

/// One ending (folded) and the nominative endings it may stand for (folded; empty: none).
struct Case {
    ending: String,
    nominatives: Vec<String>,
}

/// The endings, longest first.
static ENDINGS: LazyLock<Vec<Case>> = LazyLock::new(|| parse(CASES));

/// The patronymic suffixes (as [`Case`]: the suffix and the given-name endings), longest first.
static SUFFIXES: LazyLock<Vec<Case>> = LazyLock::new(|| parse(PATRONYMICS));

/// The rows of a table of `ending<TAB>endings`, folded, longest first.
fn parse(table: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = table
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
}

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

/// Whether the folded nominative `key` is a patronymic: a suffix of [`SUFFIXES`] after the
/// stem of a listed given name ("петрович" ← "петр", "сергеевна" ← "сергеи").
fn is_patronymic(lists: &NameLists, key: &str) -> bool {
    SUFFIXES.iter().any(|s| {
        key.strip_suffix(s.ending.as_str())
            .filter(|stem| stem.chars().count() >= MIN_PATRONYMIC_STEM)
            .is_some_and(|stem| {
                s.nominatives
                    .iter()
                    .any(|n| lists.flags(&format!("{stem}{n}")).first())
            })
    })
}

/// The flags of a nominative the lists do not hold: a family-name part when it is a
/// patronymic.
fn unlisted(lists: &NameLists, key: &str) -> Flags {
    if is_patronymic(lists, key) {
        Flags::LAST
    } else {
        Flags::default()
    }
}

/// The flags of the folded word `key`: its own, or, for a Cyrillic word the lists do not
/// hold, [`Flags::LAST`] for a patronymic, else those of the nominatives it may be a form of
/// (all of them: a place or an ordinary word among them makes the word ambiguous; a
/// patronymic among them is a family-name part) with [`Flags::INFLECTED`].
pub(crate) fn flags(lists: &NameLists, key: &str) -> Flags {
    let own = lists.flags(key);
    if own != Flags::default() || !is_cyrillic(key) {
        return own;
    }
    let patronymic = unlisted(lists, key);
    if patronymic != Flags::default() {
        return patronymic;
    }
    let read = nominatives(key)
        .filter(|n| n != key)
        .fold(Flags::default(), |acc, n| {
            let f = lists.flags(&n);
            acc.union(if f == Flags::default() {
                unlisted(lists, &n)
            } else {
                f
            })
        });
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
        // Patronymics, in the nominative and in oblique cases, are family-name parts.
        for patronymic in [
            "Петрович",
            "Петровичу",
            "Петровичем",
            "Сергеевна",
            "Сергеевной",
            "Сергеевне",
            "Игоревич",
            "Алексеевну",
            "Іванівна",
            "Іванівною",
            "Андріївни",
        ] {
            assert!(of(patronymic).last(), "{patronymic}");
        }
        for word in ["Москвич", "Отлично", "Привычно"] {
            assert!(!of(word).name(), "{word}");
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
        let rows = PATRONYMICS
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .count();
        assert_eq!(SUFFIXES.len(), rows);
        assert!(
            ENDINGS
                .iter()
                .all(|c| !c.ending.is_empty() && !c.nominatives.is_empty())
        );
    }
}
