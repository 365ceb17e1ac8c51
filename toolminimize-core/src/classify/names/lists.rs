//! The name lists in `data/names/` (provenance and licences in its README), folded and
//! compiled by the build script into one `fst` map (folded word → flags), read in place: no
//! start-up cost.

use std::cell::RefCell;
use std::sync::LazyLock;

use rustc_hash::FxHashMap;

/// The map compiled by `build.rs`.
const MAP: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/names.fst"));

/// What a folded word is known as. A word can be several at once ("Stone": family name and
/// ordinary word; "Florence": given name and place).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Flags(u8);

impl Flags {
    pub(crate) const FIRST: Flags = Flags(1);
    pub(crate) const LAST: Flags = Flags(2);
    pub(crate) const COMMON: Flags = Flags(4);
    pub(crate) const PLACE: Flags = Flags(8);
    /// Not set by the lists: the flags are those of the nominative an oblique form stands
    /// for (see `cyrillic.rs`), a reading less certain than a listed word.
    pub(crate) const INFLECTED: Flags = Flags(16);

    pub(crate) const fn has(self, other: Flags) -> bool {
        self.0 & other.0 != 0
    }

    /// The flags of both.
    pub(crate) const fn union(self, other: Flags) -> Flags {
        Flags(self.0 | other.0)
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
    /// `None` only if the compiled map were malformed: [`check`] then fails the build of every
    /// minimizer, so the name detectors are never silently without their lists.
    map: Option<fst::Map<&'static [u8]>>,
}

static LISTS: LazyLock<NameLists> = LazyLock::new(|| NameLists {
    map: fst::Map::new(MAP).ok(),
});

/// Most words whose flags one thread remembers; the memo is emptied when full.
const MOST_REMEMBERED: usize = 4096;

/// Longest folded word (or words) whose flags are remembered, in bytes.
const LONGEST_REMEMBERED: usize = 48;

thread_local! {
    /// Flags of the process-wide lists by folded word, kept across texts and calls on this
    /// thread: the same words are looked up text after text, and a lookup in the map costs
    /// far more than a hash lookup. The lists never change, so a word keeps its flags.
    static REMEMBERED: RefCell<FxHashMap<Box<str>, Flags>> = RefCell::new(FxHashMap::default());
}

/// Reads the compiled name lists (once per process).
///
/// # Errors
/// When the map compiled into the binary does not read back, as a build error.
pub(crate) fn check() -> Result<(), crate::error::Error> {
    match &LISTS.map {
        Some(_) => Ok(()),
        None => Err(crate::error::Error::new(
            crate::error::ErrorKind::Build,
            "the compiled name lists do not read back",
        )),
    }
}

impl NameLists {
    /// The process-wide lists.
    pub(crate) fn get() -> &'static NameLists {
        &LISTS
    }

    /// The flags of an already folded word (empty when unknown). Those of the process-wide
    /// lists' short words are remembered per thread (see [`REMEMBERED`]).
    pub(crate) fn flags(&self, folded: &str) -> Flags {
        if folded.len() > LONGEST_REMEMBERED || !std::ptr::eq(self, &*LISTS) {
            return self.look_up(folded);
        }
        REMEMBERED.with_borrow_mut(|memo| {
            if let Some(&f) = memo.get(folded) {
                return f;
            }
            let f = self.look_up(folded);
            if memo.len() >= MOST_REMEMBERED {
                memo.clear();
            }
            memo.insert(Box::from(folded), f);
            f
        })
    }

    /// The flags of an already folded word, read from the map.
    fn look_up(&self, folded: &str) -> Flags {
        self.map
            .as_ref()
            .and_then(|m| m.get(folded))
            .and_then(|v| u8::try_from(v).ok())
            .map_or_else(Flags::default, Flags)
    }

    /// Number of distinct folded entries.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.map.as_ref().map_or(0, fst::Map::len)
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
        // Large cities in Cyrillic, Greek and Devanagari script; not a city's spelling that is
        // also a given name ("Милан") or a case form of one ("Тане", dative of "Таня").
        for city in ["Москва", "Санкт-Петербург", "Київ", "Αθήναι", "मुंबई"]
        {
            let key = crate::text::fold::fold_term(city);
            assert!(l.flags(&key).only_word(), "{city}");
        }
        for name in ["Милан", "Тане"] {
            let key = crate::text::fold::fold_term(name);
            assert!(!l.flags(&key).has(Flags::PLACE), "{name}");
        }
        assert!(l.flags("station").only_word());
        assert!(!l.flags("rebecca").ambiguous());
        assert_eq!(l.flags("qzxv"), Flags::default());
    }
}
