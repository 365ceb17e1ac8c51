//! Patterns compiled on first use, behind an optional gate that tells cheaply when a text
//! cannot hold a match.
//!
//! Compiling a pattern with Unicode classes (`\p{L}`, `\d`, case-insensitive words) takes from
//! a tenth of a millisecond to a few milliseconds. A detector holds several, and most texts
//! need only some of them: a process that minimizes one call (a hook, a CLI call) should compile
//! only what its text reaches. A [`LazyRegex`] compiles when a search first reaches it (the
//! detectors' own early outs, "no digit, no date pattern", decide which), or not at all when its
//! gate says the text cannot match. Once compiled, it searches as the `regex` crate's `Regex`
//! does and the gate is no longer consulted.
//!
//! A pattern every match of which holds a numeric character and is at most a few hundred bytes
//! long searches a long scanned text only in the windows around its runs of numeric
//! characters (see [`Anchored`]), and finds there the matches, in the same order and with the
//! same groups, that a search of the whole text finds.
//!
//! A pattern that fails to compile is recorded like a detector that fails (`shared::checked`):
//! every call from then on fails under the policy's fail mode. Every pattern a detector
//! creates is registered, so that the warm-up thread (and `Minimizer::wait_until_ready`)
//! compiles them all ahead of need, and the tests compile them all (see `classify::build_tests`).

use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use aho_corasick::{AhoCorasick, AhoCorasickBuilder};
use regex::{Captures, Match};

use super::need::{ANCHORED_MIN, Need, runs_of_current};

/// A necessary condition for a match of a pattern, tested on the haystack before the pattern
/// is compiled. It must hold for every text the pattern can match in; it may hold for others.
/// A clone shares the original's place among the gates read together (one registration).
#[derive(Clone)]
pub(crate) enum Gate {
    /// The pattern holds an alternation of words outside any optional part: the text must
    /// contain one of them, with the character before and after as the pattern requires.
    Words {
        /// The words, lowercased when `fold`.
        words: AhoCorasick,
        /// Whether the alternation is case-insensitive (`(?i:…)`).
        fold: bool,
        before: Edge,
        after: Edge,
        /// The gate's place among those read together on the scanned text (see
        /// [`gate_words`](super::gate_words)); `None` past the number read together.
        id: Option<usize>,
    },
    /// A test every text with a match passes.
    Test(fn(&str) -> bool),
}

/// What the pattern requires right before or after its words.
#[derive(Clone, Copy)]
pub(crate) enum Edge {
    /// Nothing.
    Any,
    /// A whitespace character (`\s`) before (the words follow `\s+`).
    Space,
    /// An ASCII word boundary (`(?-u:\b)`) next to a word character: the neighbour is not an
    /// ASCII letter, digit or underscore (or there is none). Only for words whose edge
    /// characters are ASCII word characters.
    Boundary,
    /// Whitespace or a digit after (the words are followed by `\s*\d`).
    SpaceOrDigit,
}

impl Edge {
    pub(super) fn admits(self, neighbour: Option<char>) -> bool {
        match self {
            Edge::Any => true,
            Edge::Space => neighbour.is_some_and(char::is_whitespace),
            Edge::Boundary => !neighbour.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_'),
            Edge::SpaceOrDigit => neighbour.is_some_and(|c| c.is_whitespace() || c.is_numeric()),
        }
    }
}

/// Characters that case-fold to, or lowercase to, an ASCII letter (`ſ`, the Kelvin sign,
/// `İ`): a text holding one passes every case-insensitive gate.
pub(super) const FOLD_TO_ASCII: [char; 3] = ['\u{17F}', '\u{212A}', '\u{130}'];

impl Gate {
    /// Whether the gate rules `text` out at less cost than the search it spares, once the
    /// pattern is compiled: a test (a plain byte search) is made; a words gate, an
    /// Aho-Corasick search with its own fixed cost, only tells its answer when `text` is the
    /// scanned text, read once for every gate (see [`gate_words`](super::gate_words)).
    fn rules_out_cheaply(&self, text: &str) -> bool {
        match self {
            Gate::Test(test) => !test(text),
            Gate::Words { fold, id, .. } => {
                id.is_some_and(|id| super::gate_words::rules_out(id, *fold, text))
            }
        }
    }

    /// The text may hold a match.
    pub(super) fn admits(&self, text: &str) -> bool {
        match self {
            Gate::Words {
                words,
                fold,
                before,
                after,
                ..
            } => {
                if !*fold || text.is_ascii() {
                    return Self::words_in(words, text, *before, *after);
                }
                if text.contains(FOLD_TO_ASCII) {
                    return true;
                }
                // Under Unicode simple case folding, the characters a word's character matches
                // all lowercase alike (checked for every word these gates hold, `ſ` aside).
                let lower: String = text.chars().flat_map(char::to_lowercase).collect();
                Self::words_in(words, &lower, *before, *after)
            }
            Gate::Test(test) => test(text),
        }
    }

    fn words_in(words: &AhoCorasick, text: &str, before: Edge, after: Edge) -> bool {
        if matches!((before, after), (Edge::Any, Edge::Any)) {
            return words.is_match(text);
        }
        words.find_overlapping_iter(text).any(|m| {
            let b = text.get(..m.start()).and_then(|s| s.chars().next_back());
            let a = text.get(m.end()..).and_then(|s| s.chars().next());
            before.admits(b) && after.admits(a)
        })
    }
}

/// A case-insensitive alternation of `words` (`(?i:…)`), with `before` and `after` as the
/// pattern requires around it. `None` when it cannot build (the pattern then compiles on first
/// search, ungated).
pub(crate) fn words_ci(words: &[&str], before: Edge, after: Edge) -> Option<Gate> {
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let words_ = AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .build(&lower)
        .ok()?;
    let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
    Some(Gate::Words {
        words: words_,
        fold: true,
        before,
        after,
        id: super::gate_words::register(&lower, true, before, after),
    })
}

/// A case-insensitive alternation of `words`, nothing required around it.
pub(crate) fn any_word_ci(words: &[&str]) -> Option<Gate> {
    words_ci(words, Edge::Any, Edge::Any)
}

/// An alternation of `words`, case as written, with `before` and `after` as the pattern
/// requires around it.
pub(crate) fn words(words: &[&str], before: Edge, after: Edge) -> Option<Gate> {
    let ac = AhoCorasick::new(words).ok()?;
    Some(Gate::Words {
        words: ac,
        fold: false,
        before,
        after,
        id: super::gate_words::register(words, false, before, after),
    })
}

/// An alternation of `words`, case as written, nothing required around it.
pub(crate) fn any_word(words_: &[&str]) -> Option<Gate> {
    words(words_, Edge::Any, Edge::Any)
}

struct Inner {
    /// The detector or table the pattern belongs to, for the error.
    what: &'static str,
    source: String,
    gate: Option<Gate>,
    /// `None` when the pattern failed to compile (recorded by `shared::checked`).
    compiled: OnceLock<Option<regex::Regex>>,
    /// What every match needs of the text, derived by [`compile_all`] (the warm-up) or else
    /// after [`NEED_AFTER`] searches (a process that compiles a pattern on first use and
    /// searches it a few times does not pay for reading its syntax tree again).
    /// With it, whether it asks for nothing but a length, and the longest match when every
    /// match holds a numeric character (see [`Need::with_anchor`]).
    need: OnceLock<(Need, bool, Option<usize>)>,
    /// Searches so far, until `need` is derived.
    searches: AtomicU32,
    /// Clones of `compiled`, one for each thread slot (see [`thread_slot`]): a clone shares
    /// the compiled program but has its own pool of search caches, owned by the first thread
    /// that searches with it, which then takes a cache without a lock. Threads that share one
    /// `Regex` take their caches from a mutex-guarded pool on every search. Threads started
    /// for one long string or array (`crate::par`) take no slot and search `compiled`.
    per_thread: [OnceLock<regex::Regex>; THREAD_SLOTS],
}

/// Searches of a pattern after which what its matches need is derived and tested.
const NEED_AFTER: u32 = 32;

/// How many threads get a clone of each pattern of their own; more threads share them.
const THREAD_SLOTS: usize = 16;

/// This thread's slot among [`THREAD_SLOTS`], given in the order threads first search.
fn thread_slot() -> usize {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    thread_local! {
        static SLOT: usize = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % THREAD_SLOTS;
    }
    SLOT.with(|s| *s)
}

impl Inner {
    fn compile(&self) -> Option<&regex::Regex> {
        self.compiled
            .get_or_init(|| super::shared::checked(self.what, regex::Regex::new(&self.source)).ok())
            .as_ref()
    }

    /// Whether `haystack` may hold a match by what every match needs, once the pattern has
    /// been searched [`NEED_AFTER`] times (before that, every haystack is admitted).
    fn needs_met(&self, haystack: &str) -> bool {
        let (need, only_length, _) = match self.need.get() {
            Some(need) => need,
            None => {
                if self.searches.fetch_add(1, Ordering::Relaxed) < NEED_AFTER {
                    return true;
                }
                self.derive_need()
            }
        };
        need.admits_haystack_given(haystack, *only_length)
    }

    /// What every match needs, whether that is only a length, and the longest match of a
    /// pattern anchored on numeric characters: derived once.
    fn derive_need(&self) -> &(Need, bool, Option<usize>) {
        self.need.get_or_init(|| {
            let (need, anchor) = Need::with_anchor(&self.source);
            (need, need.requires_only_length(), anchor)
        })
    }
}

/// Every pattern created, for [`compile_all`].
static REGISTRY: Mutex<Vec<Weak<Inner>>> = Mutex::new(Vec::new());

/// A pattern compiled on first use (see the module documentation). Searches with the `regex`
/// crate's methods of the same names; before compiling, a text its gate rejects has no match.
#[derive(Clone)]
pub(crate) struct LazyRegex(Arc<Inner>);

impl fmt::Debug for LazyRegex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LazyRegex")
            .field("what", &self.0.what)
            .field("compiled", &self.0.compiled.get().is_some())
            .finish_non_exhaustive()
    }
}

impl LazyRegex {
    /// `source`, compiled on first use; `what` names its detector in the error.
    pub(crate) fn new(what: &'static str, source: impl Into<String>, gate: Option<Gate>) -> Self {
        let inner = Arc::new(Inner {
            what,
            source: source.into(),
            gate,
            compiled: OnceLock::new(),
            need: OnceLock::new(),
            searches: AtomicU32::new(0),
            per_thread: std::array::from_fn(|_| OnceLock::new()),
        });
        if let Ok(mut all) = REGISTRY.lock() {
            all.retain(|w| w.strong_count() > 0);
            all.push(Arc::downgrade(&inner));
        }
        LazyRegex(inner)
    }

    /// The compiled pattern, or `None` when `haystack` cannot match (what every match needs,
    /// or its gate, says so) or the pattern failed to compile.
    #[inline(always)]
    fn for_haystack(&self, haystack: &str) -> Option<&regex::Regex> {
        // Most searches end here, on every pattern a text meets: what every match needs, once
        // derived, rules the haystack out. Tested inline, before anything else.
        if let Some((need, only_length, _)) = self.0.need.get()
            && !need.admits_haystack_given(haystack, *only_length)
        {
            return None;
        }
        self.for_admitted(haystack)
    }

    /// [`for_haystack`](Self::for_haystack) for a haystack that a derived need admits, or
    /// before the need is derived.
    #[inline(never)]
    fn for_admitted(&self, haystack: &str) -> Option<&regex::Regex> {
        // Before it is derived, the need is counted towards deriving it (see `needs_met`).
        let needs_met = |h: &str| self.0.need.get().is_some() || self.0.needs_met(h);
        let shared = match self.0.compiled.get() {
            Some(compiled) => {
                let re = compiled.as_ref()?;
                // Compiled: what every match needs, then the gate where it costs less than the
                // search it may spare (a test that is a plain byte search, or the words of
                // every gate read once on the scanned text).
                if !needs_met(haystack)
                    || self
                        .0
                        .gate
                        .as_ref()
                        .is_some_and(|g| g.rules_out_cheaply(haystack))
                {
                    return None;
                }
                re
            }
            None => {
                if self.0.gate.as_ref().is_some_and(|g| !g.admits(haystack)) {
                    return None;
                }
                let re = self.0.compile()?;
                if !needs_met(haystack) {
                    return None;
                }
                re
            }
        };
        // A thread started for one long string or array searches the shared pattern: were it
        // to take a slot, the slot's clone would be owned by a thread gone with the call.
        if crate::par::is_helper() {
            return Some(shared);
        }
        let own = self.0.per_thread.get(thread_slot())?;
        Some(own.get_or_init(|| shared.clone()))
    }

    /// The windows of `haystack` that hold every match, when the pattern is anchored on
    /// numeric characters and `haystack` is a long scanned text (see [`Anchored`]).
    #[inline]
    fn anchored<'h>(&self, haystack: &'h str) -> Option<Anchored<'h>> {
        if haystack.len() < ANCHORED_MIN {
            return None;
        }
        let span = self.0.need.get()?.2?;
        let runs = runs_of_current(haystack)?;
        Some(Anchored {
            text: haystack,
            runs,
            next: 0,
            span,
        })
    }

    /// [`anchored`](Self::anchored), from the first window that ends after `start`.
    fn anchored_from<'h>(&self, haystack: &'h str, start: usize) -> Option<Anchored<'h>> {
        let mut windows = self.anchored(haystack)?;
        windows.skip_to(start);
        Some(windows)
    }

    /// As [`regex::Regex::is_match`].
    pub(crate) fn is_match(&self, haystack: &str) -> bool {
        let Some(re) = self.for_haystack(haystack) else {
            return false;
        };
        match self.anchored(haystack) {
            Some(mut windows) => windows.any(|w| {
                haystack
                    .get(..w.end)
                    .is_some_and(|h| re.is_match_at(h, w.start))
            }),
            None => re.is_match(haystack),
        }
    }

    /// As [`regex::Regex::find`].
    pub(crate) fn find<'h>(&self, haystack: &'h str) -> Option<Match<'h>> {
        self.find_at(haystack, 0)
    }

    /// As [`regex::Regex::find_at`].
    pub(crate) fn find_at<'h>(&self, haystack: &'h str, start: usize) -> Option<Match<'h>> {
        let re = self.for_haystack(haystack)?;
        match self.anchored_from(haystack, start) {
            Some(mut windows) => {
                windows.find_map(|w| re.find_at(haystack.get(..w.end)?, w.start.max(start)))
            }
            None => re.find_at(haystack, start),
        }
    }

    /// As [`regex::Regex::find_iter`].
    pub(crate) fn find_iter<'h>(&self, haystack: &'h str) -> impl Iterator<Item = Match<'h>> {
        let Some(re) = self.for_haystack(haystack) else {
            return Searched::Not;
        };
        let Some(windows) = self.anchored(haystack) else {
            return Searched::Whole(re.find_iter(haystack));
        };
        Searched::Windows(in_windows(
            windows,
            move |w| re.find_at(haystack.get(..w.end)?, w.start),
            Match::end,
        ))
    }

    /// As [`regex::Regex::captures`]. A haystack without a match is told by a plain search
    /// first, which allocates nothing (a search for groups sets up their slots even when it
    /// finds nothing, and most haystacks hold no match).
    pub(crate) fn captures<'h>(&self, haystack: &'h str) -> Option<Captures<'h>> {
        let re = self.for_haystack(haystack)?;
        match self.anchored(haystack) {
            Some(mut windows) => windows.find_map(|w| {
                let h = haystack.get(..w.end)?;
                re.is_match_at(h, w.start)
                    .then(|| re.captures_at(h, w.start))
                    .flatten()
            }),
            None => re
                .is_match(haystack)
                .then(|| re.captures(haystack))
                .flatten(),
        }
    }

    /// As [`regex::Regex::captures_iter`], a haystack without a match told first as by
    /// [`captures`](Self::captures).
    pub(crate) fn captures_iter<'h>(
        &self,
        haystack: &'h str,
    ) -> impl Iterator<Item = Captures<'h>> {
        let Some(re) = self.for_haystack(haystack) else {
            return Searched::Not;
        };
        let Some(windows) = self.anchored(haystack) else {
            return if re.is_match(haystack) {
                Searched::Whole(re.captures_iter(haystack))
            } else {
                Searched::Not
            };
        };
        // A window is searched for groups only once a plain search has found a match in it.
        let windows = windows.filter(move |w| {
            haystack
                .get(..w.end)
                .is_some_and(|h| re.is_match_at(h, w.start))
        });
        Searched::Windows(in_windows(
            windows,
            move |w| re.captures_at(haystack.get(..w.end)?, w.start),
            |c: &Captures<'h>| c.get_match().end(),
        ))
    }
}

/// The matches `search` finds in `windows`, in text order: each window is searched (from where
/// the last match ended, when that is inside it) until it holds no more, then the next.
/// `search` is given the part of a window to search; `end` tells where a match ends.
fn in_windows<T>(
    windows: impl Iterator<Item = std::ops::Range<usize>>,
    mut search: impl FnMut(std::ops::Range<usize>) -> Option<T>,
    end: impl Fn(&T) -> usize,
) -> impl Iterator<Item = T> {
    let mut windows = windows.peekable();
    let mut at = 0;
    std::iter::from_fn(move || {
        while let Some(w) = windows.peek() {
            if let Some(m) = search(w.start.max(at)..w.end) {
                at = end(&m);
                return Some(m);
            }
            windows.next();
        }
        None
    })
}

/// The windows of a long scanned text that hold every match of a pattern anchored on numeric
/// characters: every match holds a numeric character and is at most `span` bytes long, so it
/// lies within `span` bytes of a run of them. Each run's window reaches `span` bytes before
/// and `span` + 4 bytes after it (one character more than a match can reach, for what a
/// `\b` or `$` at a match's end looks at), on char boundaries; overlapping windows are
/// merged. A search of the text from a position inside a window finds the same match as a
/// search of the text cut at the window's end: every match that starts in the window ends
/// inside it, with a character to spare. Searches start in the whole text, so what a match's
/// start looks back at is the text itself.
struct Anchored<'h> {
    text: &'h str,
    runs: std::rc::Rc<[std::ops::Range<usize>]>,
    next: usize,
    span: usize,
}

impl Anchored<'_> {
    /// The window of run `i`, unmerged, its edges moved out to char boundaries.
    fn window(&self, i: usize) -> Option<std::ops::Range<usize>> {
        let run = self.runs.get(i)?;
        let mut start = run.start.saturating_sub(self.span);
        while start > 0 && !self.text.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (run.end + self.span + 4).min(self.text.len());
        while !self.text.is_char_boundary(end) {
            end += 1;
        }
        Some(start..end)
    }

    /// Skips the runs whose windows end at or before `at`. A match that starts at `at` or
    /// later holds a numeric character of a later run, and starts inside that run's window:
    /// the first window left, though its earlier runs are skipped, holds every such match.
    fn skip_to(&mut self, at: usize) {
        let reach = self.span + 4;
        self.next = self.runs.partition_point(|r| r.end + reach <= at);
    }
}

impl Iterator for Anchored<'_> {
    type Item = std::ops::Range<usize>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut w = self.window(self.next)?;
        self.next += 1;
        while let Some(more) = self.window(self.next).filter(|m| m.start <= w.end) {
            w.end = w.end.max(more.end);
            self.next += 1;
        }
        Some(w)
    }
}

/// The matches of a search: none when the pattern was not searched (its gate or need
/// rejected the text), those of a search of the whole text, or those of its windows (see
/// [`Anchored`]). Cheaper to step through than a flattened `Option`.
enum Searched<W, A> {
    Not,
    Whole(W),
    Windows(A),
}

impl<T, W: Iterator<Item = T>, A: Iterator<Item = T>> Iterator for Searched<W, A> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        match self {
            Searched::Not => None,
            Searched::Whole(w) => w.next(),
            Searched::Windows(a) => a.next(),
        }
    }
}

/// Compiles every pattern created so far that is not compiled yet, and derives what its
/// matches need (the warm-up, and `Minimizer::wait_until_ready`): calls made after it test
/// every pattern's need from their first search.
pub(crate) fn compile_all() {
    let all: Vec<Arc<Inner>> = match REGISTRY.lock() {
        Ok(all) => all.iter().filter_map(Weak::upgrade).collect(),
        Err(_) => return,
    };
    for p in all {
        if p.compile().is_some() {
            let _ = p.derive_need();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_thread_searches_with_a_clone_of_its_own() {
        let re = LazyRegex::new("test", r"\d{3}-\d{4}", None);
        let here = (re.find("call 555-0182").map(|m| m.range()), thread_slot());
        let there = std::thread::scope(|s| {
            s.spawn(|| (re.find("call 555-0182").map(|m| m.range()), thread_slot()))
                .join()
                .ok()
        });
        assert_eq!(here.0, Some(5..13));
        assert_eq!(there.as_ref().map(|t| &t.0), Some(&here.0));
        let clones = re.0.per_thread.iter().filter(|c| c.get().is_some()).count();
        // Two threads share a slot only when a multiple of the slot count began searching
        // between them (other tests' threads).
        let shared = there.is_some_and(|t| t.1 == here.1);
        assert_eq!(
            clones,
            if shared { 1 } else { 2 },
            "a clone for each slot used"
        );
    }

    #[test]
    fn a_gated_pattern_compiles_only_for_a_text_its_gate_admits() {
        let re = LazyRegex::new(
            "test",
            r"(?i:\d+\s+(?:street|st)\b)",
            any_word_ci(&["street", "st"]),
        );
        assert!(!re.is_match("no digits, no words"));
        assert!(re.0.compiled.get().is_none());
        assert_eq!(re.find("at 12 STREET").map(|m| m.range()), Some(3..12));
        assert!(re.0.compiled.get().is_some());
        // Once compiled, the gate is not consulted.
        assert_eq!(re.find_iter("1 st, 2 st").count(), 2);
    }

    #[test]
    fn what_matches_need_is_derived_after_some_searches_and_skips_the_rest() {
        let re = LazyRegex::new("test", r"\d{3}-\d{4}", None);
        for _ in 0..=NEED_AFTER {
            assert!(re.find("quick 123").is_none());
        }
        assert!(re.0.need.get().is_some());
        assert_eq!(re.find("call 555-0182").map(|m| m.range()), Some(5..13));
        assert_eq!(re.find_iter("555-0182, 555-0199").count(), 2);
        assert!(re.find("quick 123").is_none());
    }

    #[test]
    fn a_words_gate_admits_what_unicode_case_folding_matches() {
        let words = ["suite", "kai", "straße", "vägen", "rue"];
        let re = regex::Regex::new(r"(?i:suite|kai|straße|vägen|rue)(?-u:\b)").unwrap();
        let gate = words_ci(&words, Edge::Any, Edge::Boundary).unwrap();
        for text in [
            "SUITE 4",
            "ſuite",
            "\u{212A}ai",
            "KAI",
            "room",
            "STRAẞE",
            "Hauptstraße 5",
            "VÄGEN",
            "Hauptweg",
            "rues",
            "RUE\u{130}",
            "Rue_",
            "ruë",
        ] {
            assert!(gate.admits(text) || !re.is_match(text), "{text}");
        }
        assert!(!gate.admits("Hauptweg"));
        assert!(!gate.admits("rues"));
        let spaced = words_ci(&["st"], Edge::Space, Edge::Boundary).unwrap();
        assert!(spaced.admits("Elm\u{a0}St."));
        assert!(!spaced.admits("my stage 3, the dentist"));
    }

    /// Every string of the example calls (and every part of it between punctuation) that a
    /// built-in pattern matches is admitted by what the pattern's matches need: the needs only
    /// skip searches that would find nothing.
    #[test]
    fn needs_admit_every_example_text_a_pattern_matches() {
        let all = built_in_patterns();
        let mut texts = Vec::new();
        for line in include_str!("../../../examples/calls.jsonl").lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            strings(&v, &mut texts);
        }
        let parts: Vec<String> = texts
            .iter()
            .flat_map(|t| t.split([',', ';', '.', '\n']).map(str::to_owned))
            .collect();
        texts.extend(parts);
        let mut matched = 0;
        for p in &all {
            let (Some(Some(re)), need) = (p.compiled.get(), Need::of(&p.source)) else {
                continue;
            };
            for t in &texts {
                if re.is_match(t) {
                    matched += 1;
                    let facts = super::super::need::TextFacts::of(t);
                    assert!(need.admits(&facts), "{} {:.80} on {t:?}", p.what, p.source);
                }
            }
        }
        assert!(matched > 100, "{matched}");
    }

    /// Every built-in pattern anchored on numeric characters finds in a long scanned text, by
    /// its windows, the matches and groups a search of the whole text finds.
    #[test]
    fn anchored_patterns_find_in_windows_what_the_whole_text_holds() {
        let all = built_in_patterns();
        let parts = [
            "Call Rebecca Stone on +1 415 555 0182 about the order. ",
            "IBAN DE89 3704 0044 0532 0130 00, card 4111 1111 1111 1111, born 14/03/1962. ",
            "né le 3 mars 1980 à Lyon, numéro 2 62 03 75 115 043 21; ",
            "the parcel ships tomorrow with the invoice and the garden window order. ",
            "Tel. 0171-2345678; PLZ 50674 Köln, Lindenstraße 12; IP 192.168.0.1; ",
            "١٢٣ ٤٥٦ ٧٨٩٠ and ½ of 12,5 % at 10:30, 1.5.2024 – AB123456C, 123-45-6789\n",
            "東京都港区芝5-7、本町3丁目5番7号、中町12番地、北24条西5丁目、３２歳; ",
        ];
        let mut text = String::new();
        for i in 0..400 {
            text.push_str(parts[(i * 7 + i / 3) % parts.len()]);
            if i % 5 == 0 {
                text.push_str(&"x".repeat(i % 97));
            }
        }
        assert!(text.len() >= super::super::need::ANCHORED_MIN);
        let mid = (text.len() / 2..)
            .find(|&i| text.is_char_boundary(i))
            .unwrap();
        let mut anchored = 0;
        for p in &all {
            let (Some(Some(re)), Some(_)) = (p.compiled.get(), Need::with_anchor(&p.source).1)
            else {
                continue;
            };
            anchored += 1;
            let _ = p.derive_need();
            let lazy = LazyRegex(Arc::clone(p));
            let whole: Vec<_> = re.find_iter(&text).map(|m| m.range()).collect();
            let groups: Vec<Vec<_>> = re
                .captures_iter(&text)
                .map(|c| c.iter().map(|g| g.map(|g| g.range())).collect())
                .collect();
            let (found, found_groups, first, at) = super::super::need::with_text(&text, || {
                let found: Vec<_> = lazy.find_iter(&text).map(|m| m.range()).collect();
                let groups: Vec<Vec<_>> = lazy
                    .captures_iter(&text)
                    .map(|c| c.iter().map(|g| g.map(|g| g.range())).collect())
                    .collect();
                let first = lazy.captures(&text).map(|c| c.get_match().range());
                let at = lazy.find_at(&text, mid).map(|m| m.range());
                // Stepping through with `find_at`, one character past each match's start.
                let mut stepped = Vec::new();
                let mut from = 0;
                while let Some(m) = lazy.find_at(&text, from) {
                    stepped.push(m.range());
                    from = m.start() + text[m.start()..].chars().next().map_or(1, char::len_utf8);
                }
                (found, groups, first, (at, stepped))
            });
            assert_eq!(found, whole, "{}", p.source);
            assert_eq!(found_groups, groups, "{}", p.source);
            assert_eq!(first, whole.first().cloned(), "{}", p.source);
            let half = re.find_at(&text, mid).map(|m| m.range());
            let mut stepped = Vec::new();
            let mut from = 0;
            while let Some(m) = re.find_at(&text, from) {
                stepped.push(m.range());
                from = m.start() + text[m.start()..].chars().next().map_or(1, char::len_utf8);
            }
            assert_eq!(at, (half, stepped), "{}", p.source);
        }
        assert!(anchored > 10, "{anchored}");
    }

    /// Every built-in pattern, compiled: the classifier built and every detector warmed up.
    fn built_in_patterns() -> Vec<Arc<Inner>> {
        let _ = crate::classify::Classifier::build(&crate::policy::Policy::default(), Vec::new());
        crate::classify::structured::warm_up();
        crate::classify::lexicon::warm_up();
        crate::classify::encoded::warm_up();
        REGISTRY
            .lock()
            .map(|all| all.iter().filter_map(Weak::upgrade).collect())
            .unwrap_or_default()
    }

    fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
            serde_json::Value::Object(m) => m.values().for_each(|x| strings(x, out)),
            _ => {}
        }
    }

    /// Lists the built-in patterns whose need admits a short value (`cargo test --release -p
    /// toolminimize-core -- --ignored --nocapture patterns_searched_on`): the searches a
    /// value like it still pays for.
    #[test]
    #[ignore = "a diagnostic listing, not a check"]
    fn patterns_searched_on_a_short_value() {
        let all = built_in_patterns();
        for text in ["quick 12345", "garden 123456"] {
            let facts = super::super::need::TextFacts::of(text);
            for p in &all {
                if p.compiled.get().is_some_and(Option::is_some)
                    && Need::of(&p.source).admits(&facts)
                    && !p.gate.as_ref().is_some_and(|g| g.rules_out_cheaply(text))
                {
                    println!(
                        "{text:?} {} {}",
                        p.what,
                        p.source.chars().take(150).collect::<String>()
                    );
                }
            }
        }
    }
}
