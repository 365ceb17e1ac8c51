//! Who receives a message and what they need of the writer's identifiers
//! (`data/decide/recipients.tsv`): a pharmacy needs a date of birth for a refill, a bank the
//! card it is to dispute, a travel agent the passport, a tenant the landlord's IBAN.
//!
//! The recipient is read from the fields that address the message (`to`, `recipient`,
//! `channel`), its subject and its greeting.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use rustc_hash::FxHashMap;

use crate::item::PsdKind;
use crate::text::fold::fold_term;
use crate::text::script::is_cjk;
use crate::text::words::words;

const RECIPIENTS: &str = include_str!("../../data/decide/recipients.tsv");

#[derive(Debug)]
struct Kind {
    name: String,
    words: Vec<String>,
    needs: Vec<String>,
}

static KINDS: LazyLock<Vec<Kind>> = LazyLock::new(|| {
    let mut out: Vec<Kind> = Vec::new();
    for line in RECIPIENTS.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let [kind, what, terms] = cols.as_slice() else {
            continue;
        };
        let kind = kind.trim();
        let idx = match out.iter().position(|k| k.name == kind) {
            Some(i) => i,
            None => {
                out.push(Kind {
                    name: kind.to_owned(),
                    words: Vec::new(),
                    needs: Vec::new(),
                });
                out.len() - 1
            }
        };
        let Some(k) = out.get_mut(idx) else { continue };
        let list: Vec<String> = terms
            .split(',')
            .map(|t| fold_term(t.trim()))
            .filter(|t| !t.is_empty())
            .collect();
        match what.trim() {
            "word" => k.words.extend(list),
            "needs" => k.needs.extend(list),
            _ => {}
        }
    }
    out
});

/// Every kind's terms indexed for one pass over a text: phrases (found anywhere in the folded
/// text) and words of five characters or more (found inside the words of an address) by an
/// automaton reporting every occurrence, whole words by a map; each to the kinds it names.
struct TermIndex {
    phrases: AhoCorasick,
    phrase_kinds: Vec<usize>,
    long: AhoCorasick,
    long_kinds: Vec<usize>,
    long_words: FxHashMap<String, Vec<usize>>,
    short_words: FxHashMap<String, Vec<usize>>,
}

static INDEX: LazyLock<Option<TermIndex>> = LazyLock::new(|| {
    let (mut phrases, mut phrase_kinds, mut long, mut long_kinds) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut long_words: FxHashMap<String, Vec<usize>> = FxHashMap::default();
    let mut short_words: FxHashMap<String, Vec<usize>> = FxHashMap::default();
    for (i, k) in KINDS.iter().enumerate() {
        for t in &k.words {
            // A phrase, or a term of a script written without spaces: found inside the text.
            if t.contains(' ') || t.chars().any(is_cjk) {
                phrases.push(t.as_str());
                phrase_kinds.push(i);
            } else if t.chars().count() >= 5 {
                long.push(t.as_str());
                long_kinds.push(i);
                long_words.entry(t.clone()).or_default().push(i);
            } else {
                short_words.entry(t.clone()).or_default().push(i);
            }
        }
    }
    Some(TermIndex {
        phrases: AhoCorasick::new(phrases).ok()?,
        phrase_kinds,
        long: AhoCorasick::new(long).ok()?,
        long_kinds,
        long_words,
        short_words,
    })
});

/// Marks in `hit` the kinds whose terms occur in `folded` (its words `ws`).
fn mark(hit: &mut [bool], folded: &str, ws: &[&str], inside_words: bool) {
    let mut set = |k: usize| {
        if let Some(h) = hit.get_mut(k) {
            *h = true;
        }
    };
    let Some(ix) = &*INDEX else {
        // The index failed to build (a bug): the same answer, term by term.
        for (i, k) in KINDS.iter().enumerate() {
            let found = k.words.iter().any(|t| {
                if t.contains(' ') || t.chars().any(is_cjk) {
                    folded.contains(t.as_str())
                } else if inside_words && t.chars().count() >= 5 {
                    ws.iter().any(|w| w.contains(t.as_str()))
                } else {
                    ws.contains(&t.as_str())
                }
            });
            if found {
                set(i);
            }
        }
        return;
    };
    for m in ix.phrases.find_overlapping_iter(folded) {
        if let Some(&k) = ix.phrase_kinds.get(m.pattern().as_usize()) {
            set(k);
        }
    }
    for &w in ws {
        for &k in ix.short_words.get(w).into_iter().flatten() {
            set(k);
        }
        if inside_words {
            for m in ix.long.find_overlapping_iter(w) {
                if let Some(&k) = ix.long_kinds.get(m.pattern().as_usize()) {
                    set(k);
                }
            }
        } else {
            for &k in ix.long_words.get(w).into_iter().flatten() {
                set(k);
            }
        }
    }
}

/// The kinds of recipient a message goes to.
#[derive(Debug, Clone, Default)]
pub struct Recipients {
    kinds: Vec<usize>,
}

impl Recipients {
    /// Reads the recipient from the addressing values (addresses, names, channel names) and
    /// the message's opening text (subject and greeting line).
    pub fn read<'a>(addressing: impl IntoIterator<Item = &'a str>, opening: Option<&str>) -> Self {
        let kinds = &*KINDS;
        let mut found = Vec::new();
        let mut check = |text: &str, inside_words: bool| {
            let folded = fold_term(text);
            let found_words = words(&folded);
            let ws: Vec<&str> = found_words.iter().map(|w| w.folded.as_ref()).collect();
            let mut hit = vec![false; kinds.len()];
            mark(&mut hit, &folded, &ws, inside_words);
            for (i, h) in hit.into_iter().enumerate() {
                if h && !found.contains(&i) {
                    found.push(i);
                }
            }
        };
        for a in addressing {
            check(a, true);
        }
        if let Some(o) = opening {
            check(o, false);
        }
        Recipients { kinds: found }
    }

    /// Adds the kind `name` (as in `recipients.tsv`).
    pub fn add(&mut self, name: &str) {
        if let Some(i) = KINDS.iter().position(|k| k.name == name)
            && !self.kinds.contains(&i)
        {
            self.kinds.push(i);
        }
    }

    /// Whether the recipient is of kind `name` (as in `recipients.tsv`).
    pub fn is(&self, name: &str) -> bool {
        self.kinds
            .iter()
            .any(|&i| KINDS.get(i).is_some_and(|k| k.name == name))
    }

    /// Whether any recipient needs data of `kind`.
    pub fn needs(&self, kind: PsdKind) -> bool {
        let id = kind.name();
        self.kinds
            .iter()
            .any(|&i| KINDS.get(i).is_some_and(|k| k.needs.contains(&id)))
    }

    /// Whether a recipient of kind `name` would need data of `kind`.
    pub fn kind_needs(name: &str, kind: PsdKind) -> bool {
        let id = kind.name();
        KINDS
            .iter()
            .any(|k| k.name == name && k.needs.contains(&id))
    }

    #[allow(dead_code)] // read by tests; not used by the current rules
    /// Whether nothing is known about the recipient.
    pub fn is_unknown(&self) -> bool {
        self.kinds.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pharmacy_needs_a_date_of_birth() {
        use crate::PsdKind;
        use crate::decide::recipient::Recipients;
        let r = Recipients::read(["refills@townpharmacy.example"], None);
        assert!(r.needs(PsdKind::DateOfBirth));
        assert!(!r.needs(PsdKind::Passport));
    }

    #[test]
    fn recipients_from_addresses_and_openings() {
        let bank = Recipients::read(["disputes@examplebank.test"], None);
        assert!(bank.needs(PsdKind::CardNumber));
        let travel = Recipients::read(["Lena Holm"], Some("Dear Fjord Travel team"));
        assert!(travel.needs(PsdKind::Passport));
        let friend = Recipients::read(["+44 7700 900123"], Some("Hey Sam"));
        assert!(friend.is_unknown());
        assert!(!friend.needs(PsdKind::DateOfBirth));
    }

    #[test]
    fn tax_advisers_and_agencies_need_the_number_they_file_under() {
        for to in [
            "office@example-steuerberatung.de",
            "citas@gestoriaexample.es",
            "Ledgerly Accounting",
        ] {
            let r = Recipients::read([to], None);
            assert!(
                r.needs(PsdKind::TaxId) && r.needs(PsdKind::NationalId),
                "{to}"
            );
        }
        let portal = Recipients::read(["apoio@portaldasfinancas.example"], None);
        assert!(portal.needs(PsdKind::TaxId));
        let office = Recipients::read(["desk@immigration-office.example"], None);
        assert!(office.needs(PsdKind::Passport));
    }

    #[test]
    fn every_kind_has_words_and_needs() {
        for k in KINDS.iter() {
            assert!(!k.words.is_empty() && !k.needs.is_empty(), "{}", k.name);
        }
    }
}
