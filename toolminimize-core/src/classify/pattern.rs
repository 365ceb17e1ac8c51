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
//! A pattern that fails to compile is recorded like a detector that fails (`shared::checked`):
//! every call from then on fails under the policy's fail mode. Every pattern a detector
//! creates is registered, so that the warm-up thread (and `Minimizer::wait_until_ready`)
//! compiles them all ahead of need, and the tests compile them all (see `classify::build_tests`).

use std::fmt;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use aho_corasick::{AhoCorasick, AhoCorasickBuilder};
use regex::{Captures, Match};

/// A necessary condition for a match of a pattern, tested on the haystack before the pattern
/// is compiled. It must hold for every text the pattern can match in; it may hold for others.
pub(crate) enum Gate {
    /// The pattern contains a case-insensitive alternation of these ASCII words, outside any
    /// optional part: the text must contain one of them, ASCII case folded. (Under Unicode
    /// simple case folding the only non-ASCII characters that match an ASCII letter are
    /// `ſ` (s) and the Kelvin sign (k); a text holding either passes the gate.)
    AsciiWords(AhoCorasick),
    /// The pattern contains an alternation of these words, case as written, outside any optional
    /// part.
    Words(AhoCorasick),
    /// A small pattern every match of the full one contains a match of.
    Pattern(regex::Regex),
    /// A test every text with a match passes.
    Test(fn(&str) -> bool),
}

impl Gate {
    /// The text may hold a match.
    fn admits(&self, text: &str) -> bool {
        match self {
            Gate::AsciiWords(ac) => {
                ac.is_match(text) || (!text.is_ascii() && text.contains(['\u{17F}', '\u{212A}']))
            }
            Gate::Words(ac) => ac.is_match(text),
            Gate::Pattern(re) => re.is_match(text),
            Gate::Test(test) => test(text),
        }
    }
}

/// A case-insensitive alternation of `words` (see [`Gate::AsciiWords`]): a cheap exact gate
/// when the words are ASCII, else the alternation itself as a small pattern. `None` when
/// neither builds (the pattern then compiles on first search, ungated).
pub(crate) fn any_word_ci(words: &[&str]) -> Option<Gate> {
    if words.iter().all(|w| w.is_ascii()) {
        return AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .build(words)
            .ok()
            .map(Gate::AsciiWords);
    }
    let alternation: Vec<String> = words.iter().map(|w| regex::escape(w)).collect();
    regex::Regex::new(&format!("(?i:{})", alternation.join("|")))
        .ok()
        .map(Gate::Pattern)
}

/// An alternation of `words`, case as written (see [`Gate::Words`]).
pub(crate) fn any_word(words: &[&str]) -> Option<Gate> {
    AhoCorasick::new(words).ok().map(Gate::Words)
}

struct Inner {
    /// The detector or table the pattern belongs to, for the error.
    what: &'static str,
    source: String,
    gate: Option<Gate>,
    /// `None` when the pattern failed to compile (recorded by `shared::checked`).
    compiled: OnceLock<Option<regex::Regex>>,
}

impl Inner {
    fn compile(&self) -> Option<&regex::Regex> {
        self.compiled
            .get_or_init(|| super::shared::checked(self.what, regex::Regex::new(&self.source)).ok())
            .as_ref()
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
        });
        if let Ok(mut all) = REGISTRY.lock() {
            all.retain(|w| w.strong_count() > 0);
            all.push(Arc::downgrade(&inner));
        }
        LazyRegex(inner)
    }

    /// The compiled pattern, or `None` when `haystack` cannot match (its gate says so) or the
    /// pattern failed to compile.
    fn for_haystack(&self, haystack: &str) -> Option<&regex::Regex> {
        if let Some(compiled) = self.0.compiled.get() {
            return compiled.as_ref();
        }
        if self.0.gate.as_ref().is_some_and(|g| !g.admits(haystack)) {
            return None;
        }
        self.0.compile()
    }

    /// As [`regex::Regex::is_match`].
    pub(crate) fn is_match(&self, haystack: &str) -> bool {
        self.for_haystack(haystack)
            .is_some_and(|re| re.is_match(haystack))
    }

    /// As [`regex::Regex::find`].
    pub(crate) fn find<'h>(&self, haystack: &'h str) -> Option<Match<'h>> {
        self.for_haystack(haystack)?.find(haystack)
    }

    /// As [`regex::Regex::find_at`].
    pub(crate) fn find_at<'h>(&self, haystack: &'h str, start: usize) -> Option<Match<'h>> {
        self.for_haystack(haystack)?.find_at(haystack, start)
    }

    /// As [`regex::Regex::find_iter`].
    pub(crate) fn find_iter<'h>(&self, haystack: &'h str) -> impl Iterator<Item = Match<'h>> {
        self.for_haystack(haystack)
            .into_iter()
            .flat_map(move |re| re.find_iter(haystack))
    }

    /// As [`regex::Regex::captures`].
    pub(crate) fn captures<'h>(&self, haystack: &'h str) -> Option<Captures<'h>> {
        self.for_haystack(haystack)?.captures(haystack)
    }

    /// As [`regex::Regex::captures_iter`].
    pub(crate) fn captures_iter<'h>(
        &self,
        haystack: &'h str,
    ) -> impl Iterator<Item = Captures<'h>> {
        self.for_haystack(haystack)
            .into_iter()
            .flat_map(move |re| re.captures_iter(haystack))
    }
}

/// Compiles every pattern created so far that is not compiled yet (the warm-up, and
/// `Minimizer::wait_until_ready`).
pub(crate) fn compile_all() {
    let all: Vec<Arc<Inner>> = match REGISTRY.lock() {
        Ok(all) => all.iter().filter_map(Weak::upgrade).collect(),
        Err(_) => return,
    };
    for p in all {
        let _ = p.compile();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn an_ascii_words_gate_admits_what_unicode_case_folding_matches() {
        let gate = any_word_ci(&["suite", "kai"]);
        let re = regex::Regex::new("(?i:suite|kai)").unwrap();
        for text in ["SUITE", "ſuite", "\u{212A}ai", "KAI", "room"] {
            let admitted = gate.as_ref().is_some_and(|g| g.admits(text));
            assert!(admitted || !re.is_match(text), "{text}");
        }
        let gate = any_word_ci(&["straße", "vägen"]).unwrap();
        for text in ["STRAẞE", "VÄGEN", "Hauptstraße"] {
            assert!(gate.admits(text), "{text}");
        }
        assert!(!gate.admits("Hauptweg"));
    }
}
