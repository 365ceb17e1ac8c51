//! The word lists the decision stage reads calls with, loaded from `data/decide/*.tsv`.
//!
//! Terms are folded on load (see [`crate::text::fold`]) and matched as whole words or phrases
//! of whole words; terms in unspaced scripts (Japanese) match as substrings.
//!
//! ```
//! use toolminimize_core::decide::vocab::{WordSet, vocab};
//! let v = vocab();
//! assert!(v.set(WordSet::Greeting).has_word("hello"));
//! assert!(v.set(WordSet::FirstPerson).has_word("meine"));
//! ```

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use crate::text::fold::fold_term;
use crate::text::words::Word;

const WORDS: &str = include_str!("../../data/decide/words.tsv");

/// A named list of words in `data/decide/words.tsv`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WordSet {
    /// Words of the speaker ("I", "my", "ich", "mon").
    FirstPerson,
    /// People close to the user ("mother", "Sohn", "mari").
    Relation,
    /// Greetings that open a message.
    Greeting,
    /// Closings that start a signature block.
    Signoff,
    /// Asking the reader to make contact ("call me", "erreichbar").
    ContactAsk,
    /// Asking the reader to act ("please", "bitte", "merci de").
    Request,
    /// Opening a reason or an aside ("because", "weil", "fyi").
    Reason,
    /// Tying a requirement to a searched place ("with", "for").
    Link,
    /// Days and times.
    Time,
    /// Nearness to a place ("near", "nahe").
    Proximity,
    /// A personal turn inside a search ("for my", "I have").
    PersonalTurn,
    /// Asking to be paid ("transfer", "überweisen", "virer").
    PayMe,
}

impl WordSet {
    fn parse(name: &str) -> Option<WordSet> {
        Some(match name {
            "first_person" => WordSet::FirstPerson,
            "relation" => WordSet::Relation,
            "greeting" => WordSet::Greeting,
            "signoff" => WordSet::Signoff,
            "contact_ask" => WordSet::ContactAsk,
            "request" => WordSet::Request,
            "reason" => WordSet::Reason,
            "link" => WordSet::Link,
            "time" => WordSet::Time,
            "proximity" => WordSet::Proximity,
            "personal_turn" => WordSet::PersonalTurn,
            "pay_me" => WordSet::PayMe,
            _ => return None,
        })
    }
}

/// One list: single words, phrases of several words, and unspaced-script terms.
#[derive(Debug, Default)]
pub struct Terms {
    words: HashSet<String>,
    phrases: Vec<Vec<String>>,
    unspaced: Vec<String>,
}

fn is_unspaced_script(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}' | '\u{AC00}'..='\u{D7AF}')
}

impl Terms {
    fn add(&mut self, term: &str) {
        let f = fold_term(term);
        let f = f.trim();
        if f.is_empty() {
            return;
        }
        if f.chars().any(is_unspaced_script) {
            self.unspaced.push(f.to_owned());
            return;
        }
        let parts: Vec<String> = f.split_whitespace().map(str::to_owned).collect();
        match parts.len() {
            0 => {}
            1 => {
                self.words.insert(f.to_owned());
            }
            _ => self.phrases.push(parts),
        }
    }

    /// Whether `word` (already folded) is a single-word term.
    pub fn has_word(&self, word: &str) -> bool {
        self.words.contains(word)
    }

    /// The length in words of the longest term starting at `words[i]`.
    pub fn match_at(&self, words: &[Word<'_>], i: usize) -> Option<usize> {
        let mut best = None;
        for p in &self.phrases {
            if p.len() > 1
                && words.get(i..i + p.len()).is_some_and(|ws| {
                    ws.iter().zip(p).all(|(w, t)| w.folded == *t)
                })
                && best.is_none_or(|b| p.len() > b)
            {
                best = Some(p.len());
            }
        }
        if best.is_none() && words.get(i).is_some_and(|w| self.words.contains(w.folded.as_str())) {
            best = Some(1);
        }
        best
    }

    /// Whether any term occurs among `words` (or, for unspaced scripts, in `raw`).
    pub fn any_in(&self, words: &[Word<'_>], raw: &str) -> bool {
        (0..words.len()).any(|i| self.match_at(words, i).is_some())
            || (!self.unspaced.is_empty() && self.unspaced.iter().any(|t| raw.contains(t.as_str())))
    }

    /// Index of the first word that starts a term, with the term's length in words.
    pub fn first_in(&self, words: &[Word<'_>]) -> Option<(usize, usize)> {
        (0..words.len()).find_map(|i| self.match_at(words, i).map(|n| (i, n)))
    }
}

/// Every word list of the decision stage.
#[derive(Debug, Default)]
pub struct Vocab {
    sets: HashMap<WordSet, Terms>,
    empty: Terms,
}

impl Vocab {
    fn load() -> Vocab {
        let mut v = Vocab::default();
        for line in WORDS.lines() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let mut cols = line.split('\t');
            let (Some(set), Some(_lang), Some(terms)) = (cols.next(), cols.next(), cols.next())
            else {
                continue;
            };
            let Some(set) = WordSet::parse(set.trim()) else {
                continue;
            };
            let entry = v.sets.entry(set).or_default();
            for t in terms.split(',') {
                entry.add(t);
            }
        }
        v
    }

    /// The list `set`.
    pub fn set(&self, set: WordSet) -> &Terms {
        self.sets.get(&set).unwrap_or(&self.empty)
    }
}

static VOCAB: LazyLock<Vocab> = LazyLock::new(Vocab::load);

/// The decision stage's word lists (loaded once).
pub fn vocab() -> &'static Vocab {
    &VOCAB
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::words::words;

    #[test]
    fn every_line_of_the_word_file_parses() {
        for line in WORDS.lines() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(cols.len(), 3, "bad line: {line}");
            assert!(WordSet::parse(cols[0]).is_some(), "unknown set: {}", cols[0]);
        }
    }

    #[test]
    fn phrases_match_whole_words() {
        let v = vocab();
        let text = "Could you call me tomorrow";
        let ws = words(text);
        assert_eq!(v.set(WordSet::ContactAsk).match_at(&ws, 2), Some(2));
        assert!(v.set(WordSet::Time).any_in(&ws, text));
        let text = "recall the override";
        assert!(!v.set(WordSet::ContactAsk).any_in(&words(text), text));
    }
}
