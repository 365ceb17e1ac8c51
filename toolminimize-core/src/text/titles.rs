//! Honorifics and titles written directly before a person's name ("Dr. Weber", "Mme Laurent",
//! "Sig.ra Conti", "Herrn Brandt"), folded (lower case, no diacritics), in English, German,
//! French, Spanish, Italian, Portuguese and Dutch. The names detector reads a name after one;
//! the rewrite takes one away with the name it stands before.

use std::sync::LazyLock;

use rustc_hash::FxHashSet;

/// The titles, folded. Abbreviations are listed without their final stop.
pub const TITLES: &[&str] = &[
    "mr",
    "mrs",
    "ms",
    "miss",
    "mx",
    "dr",
    "prof",
    "professor",
    "sir",
    "dame",
    "lady",
    "lord",
    "rev",
    "fr",
    "frau",
    "herr",
    "herrn",
    "fraulein",
    "m",
    "mme",
    "mlle",
    "monsieur",
    "madame",
    "mademoiselle",
    "sr",
    "sra",
    "srta",
    "senor",
    "senora",
    "senorita",
    "don",
    "dona",
    "sig",
    "sigra",
    "signor",
    "signore",
    "signora",
    "signorina",
    "dott",
    "dottssa",
    "dottor",
    "dottore",
    "dottoressa",
    "avv",
    "ing",
    "mevrouw",
    "meneer",
    "dhr",
    "mevr",
    "doktor",
    "dra",
    "d",
];

/// Titles that are also everyday words or single letters ("we will miss …", "don't", "m"):
/// read as a title only when written as one, capitalised or cut short with a stop.
pub const AMBIGUOUS: &[&str] = &[
    "miss", "sir", "dame", "lady", "lord", "rev", "fr", "m", "d", "don", "dona", "ing", "avv",
];

/// Whether `folded` (a folded word, its final stop or colon trimmed) is a title.
pub fn is_title(folded: &str) -> bool {
    static SET: LazyLock<FxHashSet<&'static str>> =
        LazyLock::new(|| TITLES.iter().copied().collect());
    SET.contains(folded)
}

/// Whether the word `raw`, as written, is a title: in the list, and written as one when it
/// is also an everyday word ("Miss Ruiz", "D. Amalia", but not "miss" in "we will miss").
/// `word` is `raw` folded, its final stop or colon trimmed (the caller has folded it).
pub fn written_as_title(raw: &str, word: &str) -> bool {
    let raw = raw.trim();
    is_title(word)
        && (!AMBIGUOUS.contains(&word) || raw.starts_with(char::is_uppercase) || raw.ends_with('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_folded_and_unique() {
        let mut seen = std::collections::HashSet::new();
        for t in TITLES {
            assert_eq!(*t, crate::text::fold::fold_term(t), "{t} is not folded");
            assert!(seen.insert(*t), "{t} is listed twice");
        }
        assert!(is_title("herrn") && is_title("dr") && !is_title("doctorate"));
        for t in AMBIGUOUS {
            assert!(is_title(t), "{t} is not a title");
        }
        let written = |raw: &str| {
            let folded = crate::text::fold::fold_term(raw);
            written_as_title(raw, folded.trim_end_matches(['.', ':']))
        };
        assert!(written("signora") && written("Miss") && written("d."));
        assert!(!written("miss") && !written("d") && !written("Monday"));
    }
}
