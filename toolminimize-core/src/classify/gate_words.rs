//! The words gates of every pattern (see [`Gate::Words`](super::pattern::Gate)), read in one
//! pass over the scanned text.
//!
//! Once a pattern is compiled, its words gate is not tested on a text of its own: an
//! Aho-Corasick search of its words costs about what the pattern's search it may spare does.
//! Yet most of the bytes searched by compiled gated patterns are of texts their gate rejects
//! (a password pattern searching a text without "password" in it). The words of every gate,
//! in one automaton for the case-insensitive gates and one for the others, read the scanned
//! text once and tell every gate's answer at once; a compiled pattern whose gate the scanned
//! text fails is then not searched. The answers are those each gate gives on its own: the
//! automata report every occurrence of every word, and each occurrence is judged by the edges
//! of the gates that hold its word.

use std::cell::RefCell;
use std::sync::{Arc, Mutex, PoisonError};

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind};
use rustc_hash::FxHashMap;

use super::need::current_scan;
use super::pattern::{Edge, FOLD_TO_ASCII};

/// Gates with an id below this are read together (one bit each); later ones are not.
const MAX_GATES: usize = 128;

/// One gate's words (lowercased when `fold`) and what it requires around them.
struct Registered {
    words: Vec<String>,
    fold: bool,
    before: Edge,
    after: Edge,
}

/// Every words gate built, in order of building: a gate's id is its index.
static GATES: Mutex<Vec<Registered>> = Mutex::new(Vec::new());

/// Records a words gate; its id, or `None` past [`MAX_GATES`] (that gate is then tested only
/// as before).
pub(super) fn register(words: &[&str], fold: bool, before: Edge, after: Edge) -> Option<usize> {
    let mut gates = GATES.lock().unwrap_or_else(PoisonError::into_inner);
    gates.push(Registered {
        words: words.iter().map(|&w| w.to_owned()).collect(),
        fold,
        before,
        after,
    });
    let id = gates.len() - 1;
    (id < MAX_GATES).then_some(id)
}

/// The gates that hold one word of an automaton: one bit each, and each with its place and
/// the edges it requires around the word.
type WordGates = (u128, Vec<(usize, Edge, Edge)>);

/// The words of the gates of one kind (case-insensitive or not) in one automaton.
struct Side {
    ac: AhoCorasick,
    /// For each word of the automaton, the gates that hold it.
    gates_of: Vec<WordGates>,
    /// Every gate of the side, one bit each.
    all: u128,
}

impl Side {
    fn build(gates: &[Registered], fold: bool) -> Option<Side> {
        let mut index: FxHashMap<&str, usize> = FxHashMap::default();
        let mut words: Vec<&str> = Vec::new();
        let mut gates_of: Vec<WordGates> = Vec::new();
        let mut all = 0u128;
        for (id, g) in gates.iter().enumerate().filter(|(_, g)| g.fold == fold) {
            all |= 1u128 << id;
            for w in &g.words {
                let i = *index.entry(w.as_str()).or_insert_with(|| {
                    words.push(w.as_str());
                    gates_of.push((0, Vec::new()));
                    words.len() - 1
                });
                if let Some((mask, of)) = gates_of.get_mut(i) {
                    *mask |= 1u128 << id;
                    of.push((id, g.before, g.after));
                }
            }
        }
        let ac = AhoCorasickBuilder::new()
            .kind(Some(AhoCorasickKind::DFA))
            .ascii_case_insensitive(fold)
            .build(&words)
            .ok()?;
        Some(Side { ac, gates_of, all })
    }

    /// The gates of the side (one bit each) whose words occur in `text` with the edges they
    /// require: as `Gate::words_in` tells each of them.
    fn read(&self, text: &str) -> u128 {
        let mut found = 0u128;
        for m in self.ac.find_overlapping_iter(text) {
            let Some((mask, of)) = self.gates_of.get(m.pattern().as_usize()) else {
                continue;
            };
            // Every gate of the word already passed (most occurrences, once a text has read
            // on a little).
            if found & mask == *mask {
                continue;
            }
            let mut around = None;
            for &(id, before, after) in of {
                let bit = 1u128 << id;
                if found & bit != 0 {
                    continue;
                }
                let (b, a) = *around.get_or_insert_with(|| {
                    (
                        text.get(..m.start()).and_then(|s| s.chars().next_back()),
                        text.get(m.end()..).and_then(|s| s.chars().next()),
                    )
                });
                if before.admits(b) && after.admits(a) {
                    found |= bit;
                }
            }
            if found == self.all {
                break;
            }
        }
        found
    }
}

/// The automata of the gates built so far.
struct Combined {
    /// How many gates they hold (those with an id below it).
    held: usize,
    fold: Side,
    exact: Side,
}

impl Combined {
    /// The automata of every gate built so far; `None` if one cannot be built.
    fn build() -> Option<Combined> {
        let gates = GATES.lock().unwrap_or_else(PoisonError::into_inner);
        let held = gates.len().min(MAX_GATES);
        let gates = gates.get(..held)?;
        Some(Combined {
            held,
            fold: Side::build(gates, true)?,
            exact: Side::build(gates, false)?,
        })
    }

    /// The automata holding gate `id`: the last built, or new ones if those were built before
    /// the gate.
    fn holding(id: usize) -> Option<Arc<Combined>> {
        static LAST: Mutex<Option<Arc<Combined>>> = Mutex::new(None);
        let mut last = LAST.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(c) = last.as_ref().filter(|c| c.held > id) {
            return Some(Arc::clone(c));
        }
        let c = Arc::new(Combined::build()?);
        *last = Some(Arc::clone(&c));
        Some(c)
    }

    /// The case-insensitive gates `text` passes, as `Gate::admits` tells each: read on the
    /// text's Unicode lowercasing when it is not ASCII, every one passed when it holds a
    /// character that folds to an ASCII letter.
    fn read_fold(&self, text: &str) -> u128 {
        if text.is_ascii() {
            return self.fold.read(text);
        }
        if text.contains(FOLD_TO_ASCII) {
            return self.fold.all;
        }
        // Where lowercasing changes only ASCII letters, the lowercased text reads as the text
        // does (the automaton ignores ASCII case; every other character, and so every edge,
        // is the same).
        let changed = text
            .char_indices()
            .find(|&(_, c)| !c.is_ascii() && !lowers_to_itself(c));
        let Some((at, _)) = changed else {
            return self.fold.read(text);
        };
        let mut lower = String::with_capacity(text.len() + 8);
        lower.push_str(text.get(..at).unwrap_or_default());
        for c in text.get(at..).unwrap_or_default().chars() {
            if c.is_ascii() {
                lower.push(c);
            } else {
                lower.extend(c.to_lowercase());
            }
        }
        self.fold.read(&lower)
    }
}

/// Whether `c` lowercases to itself alone.
fn lowers_to_itself(c: char) -> bool {
    let mut lower = c.to_lowercase();
    lower.next() == Some(c) && lower.next().is_none()
}

/// What one thread has read of the scanned text.
#[derive(Default)]
struct Read {
    combined: Option<Arc<Combined>>,
    /// The scan whose text was read (see [`current_scan`]).
    scan: u64,
    /// The case-insensitive gates the text passes, once read.
    fold: Option<u128>,
    /// The other gates it passes, once read.
    exact: Option<u128>,
}

thread_local! {
    static READ: RefCell<Read> = RefCell::default();
}

/// Whether `haystack`, the scanned text, fails gate `id` (case-insensitive when `fold`):
/// read, for every gate of its kind, on the first question about the text. `false` for
/// another haystack, or when the automata cannot be built.
pub(super) fn rules_out(id: usize, fold: bool, haystack: &str) -> bool {
    let Some(scan) = current_scan(haystack) else {
        return false;
    };
    READ.with_borrow_mut(|r| {
        if r.combined.as_ref().is_none_or(|c| c.held <= id) {
            r.combined = Combined::holding(id);
            r.fold = None;
            r.exact = None;
        }
        let Some(c) = r.combined.as_ref() else {
            return false;
        };
        if r.scan != scan {
            r.scan = scan;
            r.fold = None;
            r.exact = None;
        }
        let passed = if fold {
            *r.fold.get_or_insert_with(|| c.read_fold(haystack))
        } else {
            *r.exact.get_or_insert_with(|| c.exact.read(haystack))
        };
        passed & (1u128 << id) == 0
    })
}

#[cfg(test)]
mod tests {
    use super::super::need::with_text;
    use super::super::pattern::{Edge, Gate, words, words_ci};

    /// Each gate's answer read with every other's on the scanned text is the one it gives
    /// on its own; a text other than the scanned one is never ruled out.
    #[test]
    fn gates_read_together_answer_as_each_alone() {
        let gates: Vec<Gate> = [
            words_ci(&["Straße", "rue", "via"], Edge::Boundary, Edge::Space),
            words_ci(&["my", "mi", "ma"], Edge::Boundary, Edge::Space),
            words_ci(&["password", "contraseña"], Edge::Any, Edge::Any),
            words_ci(&["aged", "años"], Edge::Boundary, Edge::SpaceOrDigit),
            words(&["Bearer", "Token"], Edge::Boundary, Edge::Space),
            words(&["sk-", "AKIA"], Edge::Any, Edge::Any),
        ]
        .into_iter()
        .flatten()
        .collect();
        assert_eq!(gates.len(), 6);
        let texts = [
            "",
            "lives at 4 Hauptstraße in Köln",
            "wohnt in der LINDEN STRASSE",
            "ma mère habite rue des Tanneurs",
            "la CONTRASEÑA es Sol2024",
            "mamma mia, via Roma",
            "Authorization: Bearer abc.def",
            "bearer token",
            "key sk-proj-123 and AKIA",
            "Ich bin 34 Jahre alt, aged 34",
            "aged34 and años 3",
            "\u{212A}elvin my",
            "İstanbul, MI CASA",
            "Μία ΟΔΟΣ ma\u{a0}maison",
        ];
        for text in texts {
            with_text(text, || {
                for g in &gates {
                    let Gate::Words { fold, id, .. } = g else {
                        continue;
                    };
                    let Some(id) = *id else { continue };
                    assert_eq!(
                        !super::rules_out(id, *fold, text),
                        g.admits(text),
                        "{text:?}"
                    );
                    let copy = text.to_owned();
                    assert!(!super::rules_out(id, *fold, &copy) || copy.is_empty());
                }
            });
        }
    }
}
