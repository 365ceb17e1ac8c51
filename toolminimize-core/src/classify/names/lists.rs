//! The name lists in `data/names/` (provenance and licences in its README), folded and
//! indexed once per process.

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::text::fold::fold_term;

const FIRST: &str = include_str!("../../../data/names/first.txt");
const LAST: &str = include_str!("../../../data/names/last.txt");
const COMMON: &str = include_str!("../../../data/names/common_en.txt");
const PLACES: &str = include_str!("../../../data/names/places.txt");

/// What a folded word is known as. A word can be several at once ("Stone": family name and
/// ordinary word; "Florence": given name and place).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Flags(u8);

impl Flags {
    pub(crate) const FIRST: Flags = Flags(1);
    pub(crate) const LAST: Flags = Flags(2);
    pub(crate) const COMMON: Flags = Flags(4);
    pub(crate) const PLACE: Flags = Flags(8);

    pub(crate) const fn has(self, other: Flags) -> bool {
        self.0 & other.0 != 0
    }

    /// A given name.
    pub(crate) const fn first(self) -> bool {
        self.has(Flags::FIRST)
    }

    /// A family name or other name part.
    pub(crate) const fn last(self) -> bool {
        self.has(Flags::LAST)
    }

    /// Any name part.
    pub(crate) const fn name(self) -> bool {
        self.has(Flags(Flags::FIRST.0 | Flags::LAST.0))
    }

    /// Also an ordinary word or a place, so it needs more evidence to be a name.
    pub(crate) const fn ambiguous(self) -> bool {
        self.has(Flags(Flags::COMMON.0 | Flags::PLACE.0))
    }

    /// An ordinary word or place and no name at all.
    pub(crate) const fn only_word(self) -> bool {
        self.ambiguous() && !self.name()
    }
}

/// Folded word → flags.
#[derive(Debug)]
pub(crate) struct NameLists {
    map: HashMap<Box<str>, Flags>,
}

static LISTS: LazyLock<NameLists> = LazyLock::new(NameLists::build);

impl NameLists {
    /// The process-wide lists (built on first use, a few tens of milliseconds).
    pub(crate) fn get() -> &'static NameLists {
        &LISTS
    }

    fn build() -> NameLists {
        let mut map: HashMap<Box<str>, Flags> = HashMap::with_capacity(160_000);
        for (data, flag) in [
            (FIRST, Flags::FIRST),
            (LAST, Flags::LAST),
            (COMMON, Flags::COMMON),
            (PLACES, Flags::PLACE),
        ] {
            for line in data.lines() {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                let key = fold_term(line);
                let e = map.entry(key.into_boxed_str()).or_default();
                e.0 |= flag.0;
            }
        }
        NameLists { map }
    }

    /// The flags of an already folded word (empty when unknown).
    pub(crate) fn flags(&self, folded: &str) -> Flags {
        self.map.get(folded).copied().unwrap_or_default()
    }

    /// Number of distinct folded entries.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_cover_names_of_many_origins() {
        let l = NameLists::get();
        assert!(l.len() > 100_000);
        for first in [
            "rebecca", "anais", "bjorn", "wojciech", "kwame", "chinedu", "hiroshi", "priya",
            "reza", "fatima", "giulia", "joaquin", "siobhan", "dmitri", "ngozi", "mehmet",
            "lakshmi",
        ] {
            assert!(l.flags(first).first(), "{first}");
        }
        for last in [
            "mensah", "kowalski", "nguyen", "lindgren", "bianchi", "moradi", "tanaka", "dubois",
        ] {
            assert!(l.flags(last).last(), "{last}");
        }
    }

    #[test]
    fn ordinary_words_and_places_are_marked() {
        let l = NameLists::get();
        assert!(l.flags("will").ambiguous() && l.flags("will").first());
        assert!(l.flags("stone").ambiguous() && l.flags("stone").last());
        assert!(l.flags("paris").has(Flags::PLACE));
        assert!(l.flags("station").only_word());
        assert!(!l.flags("rebecca").ambiguous());
        assert_eq!(l.flags("qzxv"), Flags::default());
    }
}
