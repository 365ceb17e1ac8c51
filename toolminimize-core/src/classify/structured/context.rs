//! Shared helpers: context keywords near a match or in the field, character boundaries and
//! pattern compilation.

use std::sync::{Arc, Mutex};

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};
use rustc_hash::FxHashMap;

use crate::classify::Field;
use crate::classify::need::{WordsNeed, ascii_digits_of_current, holds_ascii};
use crate::classify::pattern::{Gate, LazyRegex};
use crate::error::{Error, ErrorKind};
/// The characters around a byte offset (see [`crate::text::chars`]).
pub(super) use crate::text::chars::{char_at, char_before};

/// A detector's pattern, compiled when a search first reaches it (see
/// [`LazyRegex`]); a failure to compile is recorded against `detector` then.
///
/// # Errors
/// None today (the signature keeps detectors' constructors fallible).
pub(super) fn regex(detector: &'static str, pattern: &str) -> Result<LazyRegex, Error> {
    Ok(LazyRegex::new(detector, pattern, None))
}

/// [`regex`], behind a gate: a text the gate rejects cannot match, and does not compile it.
pub(super) fn regex_gated(
    detector: &'static str,
    pattern: &str,
    gate: Option<Gate>,
) -> Result<LazyRegex, Error> {
    Ok(LazyRegex::new(detector, pattern, gate))
}

/// Whether `needle` occurs in `hay`: a plain byte scan for short texts (most values), where
/// setting up `str::contains`' searcher costs more than the scan; `str::contains` otherwise.
pub(super) fn has(hay: &str, needle: &str) -> bool {
    if hay.len() >= 64 {
        return hay.contains(needle);
    }
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let Some((&first, rest)) = n.split_first() else {
        return true;
    };
    h.iter()
        .enumerate()
        .any(|(i, &b)| b == first && h.get(i + 1..i + 1 + rest.len()) == Some(rest))
}

/// Whether the text at `end` is one of `punct` followed by a digit (`12.5`, `1,000`): the
/// number before `end` goes on.
pub(super) fn number_continues(text: &str, end: usize, punct: &[char]) -> bool {
    let mut rest = text.get(end..).unwrap_or("").chars();
    rest.next().is_some_and(|c| punct.contains(&c))
        && rest.next().is_some_and(|c| c.is_ascii_digit())
}

/// The up-to-`n`-byte slice of `text` ending at `end`, cut on a char boundary.
pub(super) fn before(text: &str, end: usize, n: usize) -> &str {
    let mut start = end.saturating_sub(n);
    while start > 0 && !text.is_char_boundary(start) {
        start -= 1;
    }
    text.get(start..end).unwrap_or("")
}

/// The up-to-`n`-byte slice of `text` starting at `start`, cut on a char boundary (the mirror
/// of [`before`]).
pub(super) fn after(text: &str, start: usize, n: usize) -> &str {
    let mut end = start.saturating_add(n).min(text.len());
    while end > start && !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(start..end).unwrap_or("")
}

/// The last key asked about at one place, on this thread, and the answer (see [`by_key`]).
pub(super) type LastKey<T> = std::cell::RefCell<(String, Option<T>)>;

/// `answer(key)`, remembered per thread for the last key asked about at `last`: every string of
/// an array, and every value under one key, asks with the same key, and is given the answer
/// again without it being worked out.
pub(super) fn by_key<T: Copy>(
    last: &'static std::thread::LocalKey<LastKey<T>>,
    key: &str,
    answer: impl FnOnce(&str) -> T,
) -> T {
    if let Some(a) = last.with_borrow(|(k, a)| a.filter(|_| k == key)) {
        return a;
    }
    let a = answer(key);
    last.with_borrow_mut(|(k, v)| {
        k.clear();
        k.push_str(key);
        *v = Some(a);
    });
    a
}

/// Strings at least this long have their digits counted from the facts of the scanned text
/// where they can be (see [`ascii_digits_of_current`]).
const FACTS_MIN: usize = 32;

/// The longest run of consecutive ASCII digits in `s`.
pub(super) fn longest_digit_run(s: &str) -> usize {
    if s.len() >= FACTS_MIN
        && let Some((_, run)) = ascii_digits_of_current(s)
    {
        return run;
    }
    let (mut best, mut run) = (0, 0);
    for b in s.bytes() {
        if b.is_ascii_digit() {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

/// Number of ASCII digits in `s`.
pub(super) fn digit_count(s: &str) -> usize {
    if s.len() >= FACTS_MIN
        && let Some((count, _)) = ascii_digits_of_current(s)
    {
        return count;
    }
    s.bytes().filter(u8::is_ascii_digit).count()
}

/// Whether `s` holds an ASCII digit.
pub(super) fn has_digit(s: &str) -> bool {
    if s.len() >= FACTS_MIN
        && let Some((count, _)) = ascii_digits_of_current(s)
    {
        return count > 0;
    }
    s.bytes().any(|b| b.is_ascii_digit())
}

/// Whether `s` holds `n` ASCII digits at least (read no further than the `n`th).
pub(super) fn has_digits(s: &str, n: usize) -> bool {
    if s.len() >= FACTS_MIN
        && let Some((count, _)) = ascii_digits_of_current(s)
    {
        return count >= n;
    }
    n == 0 || s.bytes().filter(u8::is_ascii_digit).nth(n - 1).is_some()
}

/// Whether `s` holds the ASCII byte `b` (not a letter): told by the facts of the scanned text
/// when `s` is that text.
pub(super) fn has_byte(s: &str, b: u8) -> bool {
    if s.len() >= FACTS_MIN
        && let Some(held) = holds_ascii(s, b)
    {
        return held;
    }
    s.as_bytes().contains(&b)
}

/// Small words allowed inside an organisation or party name between capitalised words
/// ("Bank of Ireland", "Lindqvist & Berg", "Ferretería de Juan").
const NAME_JOINERS: &[&str] = &[
    "&", "of", "de", "du", "des", "la", "le", "di", "del", "della", "und", "y", "e", "and", "for",
    "für", "van", "von", "der",
];

fn name_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '&' | '\'' | '’' | '.' | '-')
}

/// The words of `text` from byte `at`: `(start, end)` of each, separated by single spaces,
/// at most `max`.
fn words_from(text: &str, at: usize, max: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = at;
    while out.len() < max {
        let rest = text.get(i..).unwrap_or("");
        let len: usize = rest
            .chars()
            .take_while(|&c| name_char(c))
            .map(char::len_utf8)
            .sum();
        if len == 0 {
            break;
        }
        out.push((i, i + len));
        i += len;
        if text.get(i..).is_some_and(|r| r.starts_with(' ')) {
            i += 1;
        } else {
            break;
        }
    }
    out
}

/// A run of capitalised words starting at byte `at` (joiners such as "of", "&", "de" allowed
/// between them), at most `max` words: the span of an organisation, hotel or party name.
/// Trailing dots and hyphens are not part of it.
pub(super) fn capitalised_run(text: &str, at: usize, max: usize) -> Option<std::ops::Range<usize>> {
    let words = words_from(text, at, max + 3);
    let cap = |&(s, e): &(usize, usize)| {
        text.get(s..e)
            .and_then(|w| w.chars().next())
            .is_some_and(char::is_uppercase)
    };
    let first = words.first().filter(|w| cap(w))?;
    let mut end = first.1;
    let mut count = 1;
    let mut k = 1;
    let word_text = |k: usize| {
        words
            .get(k)
            .and_then(|&(s, e)| text.get(s..e))
            .unwrap_or_default()
    };
    while count < max && !ends_sentence(word_text(k - 1)) {
        let Some(w) = words.get(k) else { break };
        if cap(w) {
            end = w.1;
            count += 1;
            k += 1;
            continue;
        }
        let joiner = text
            .get(w.0..w.1)
            .is_some_and(|t| NAME_JOINERS.iter().any(|j| j.eq_ignore_ascii_case(t)));
        if joiner && words.get(k + 1).is_some_and(cap) {
            k += 1;
            continue;
        }
        break;
    }
    let name = text.get(first.0..end)?;
    let trimmed = name.trim_end_matches(['.', '-', '\'', '’']);
    (!trimmed.is_empty()).then(|| first.0..first.0 + trimmed.len())
}

/// Whether a word of a run ends its sentence: it ends in a full stop and is no abbreviation
/// (an abbreviation has at most three letters, not all capitals, or dots inside: "St.",
/// "Inc.", "U.S."), so "Northwind. Er …" and "in IT. Dla …" end the run while "St. Olav" and
/// "Acme Co. Ltd" go on.
fn ends_sentence(word: &str) -> bool {
    let Some(stem) = word.strip_suffix('.') else {
        return false;
    };
    stem.chars().all(char::is_alphabetic)
        && (stem.chars().count() > 3
            || stem.chars().count() > 1 && stem.chars().all(char::is_uppercase))
        && !ABBREVIATIONS.iter().any(|a| a.eq_ignore_ascii_case(stem))
}

/// Abbreviations of four letters or more that end with a dot inside organisation names.
const ABBREVIATIONS: &[&str] = &[
    "corp", "bros", "dept", "univ", "assn", "intl", "mfg", "hosp",
];

/// A set of context words matched ASCII-case-insensitively at a word start (a camelCase
/// hump counts as a word start, so `recipientPhone` contains `phone`, `hotel` does not
/// contain `tel`).
#[derive(Debug)]
pub(super) struct Keywords {
    ac: AhoCorasick,
    /// What the scanned text must hold to contain a keyword.
    need: Option<WordsNeed>,
    /// The set's place among every set built (see [`FieldWords`]).
    id: usize,
}

impl Keywords {
    /// Builds the set.
    pub(super) fn new(detector: &'static str, words: &[&str]) -> Result<Self, Error> {
        let ac = AhoCorasickBuilder::new()
            .kind(Some(AhoCorasickKind::DFA))
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(words)
            .map_err(|e| Error::new(ErrorKind::Build, format!("{detector} keywords: {e}")))?;
        Ok(Keywords {
            ac,
            need: WordsNeed::of(words),
            id: register(words),
        })
    }

    /// Whether `hay` may hold a keyword: not when it is the scanned text and its facts say it
    /// holds none (see [`WordsNeed`]).
    fn may_be_in(&self, hay: &str) -> bool {
        self.need.as_ref().is_none_or(|n| n.may_be_in(hay))
    }

    /// Whether a keyword occurs anywhere in `hay`, at a word start or not: what every other
    /// test of the set on `hay` or a part of it requires.
    pub(super) fn occurs_in(&self, hay: &str) -> bool {
        self.may_be_in(hay) && self.ac.is_match(hay)
    }

    /// Whether a keyword starts at a word start anywhere in `hay`.
    pub(super) fn any_in(&self, hay: &str) -> bool {
        self.occurs_in(hay)
            && self
                .ac
                .find_overlapping_iter(hay)
                .any(|m| word_start(hay, m.start()))
    }

    /// Whether a keyword occurs as a whole word anywhere in `hay`.
    pub(super) fn any_word_in(&self, hay: &str) -> bool {
        self.occurs_in(hay)
            && self
                .ac
                .find_overlapping_iter(hay)
                .any(|m| stands_as_word(hay, m.start(), m.end()))
    }

    /// Whether a keyword starting at a word start of `hay` ends at byte `end`.
    pub(super) fn word_ends_at(&self, hay: &str, end: usize) -> bool {
        let hay = hay.get(..end).unwrap_or_default();
        self.may_be_in(hay)
            && self
                .ac
                .find_overlapping_iter(hay)
                .any(|m| m.end() == end && word_start(hay, m.start()))
    }

    /// Whether a keyword occurs as a whole word in the `n` bytes before `start`.
    pub(super) fn word_before(&self, text: &str, start: usize, n: usize) -> bool {
        let hay = before(text, start, n);
        self.ac.find_overlapping_iter(hay).any(|m| {
            word_start(hay, m.start()) && !char_at(hay, m.end()).is_some_and(char::is_alphanumeric)
        })
    }

    /// Whether the field's key or description names one of the words.
    pub(super) fn in_field(&self, field: &Field<'_>) -> bool {
        field.key.is_some_and(|k| self.in_field_text(k))
            || field.description.is_some_and(|d| self.in_field_text(d))
    }

    /// [`any_in`](Self::any_in) of a field's key or description: read from what one pass of
    /// every set's words over it found (see [`FieldWords`]).
    pub(super) fn in_field_text(&self, hay: &str) -> bool {
        if self.id >= MAX_SETS {
            return self.any_in(hay);
        }
        FIELD_HITS
            .with_borrow_mut(|hits| hits.sets_in(hay, self.id))
            .map_or_else(|| self.any_in(hay), |sets| sets & (1u64 << self.id) != 0)
    }

    /// Whether a keyword occurs in the `n` bytes before `start`.
    pub(super) fn before(&self, text: &str, start: usize, n: usize) -> bool {
        self.any_in(before(text, start, n))
    }
}

/// Keyword sets with an id below this have their answers for field keys and descriptions
/// worked out together (one bit each of a `u64`).
const MAX_SETS: usize = 64;

/// Every keyword set built, in order of building: a set's id is its index.
static SETS: Mutex<Vec<Vec<String>>> = Mutex::new(Vec::new());

/// The words of the sets built so far in one automaton, when a field was last read.
static FIELD_WORDS: Mutex<Option<Arc<FieldWords>>> = Mutex::new(None);

/// Records a keyword set; its id.
fn register(words: &[&str]) -> usize {
    let mut sets = SETS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    sets.push(words.iter().map(|&w| w.to_owned()).collect());
    sets.len() - 1
}

/// The words of the first [`MAX_SETS`] keyword sets in one automaton: a field's key and its
/// description are each read once for all of them, rather than once by every detector that
/// asks whether the field names its words.
#[derive(Debug)]
struct FieldWords {
    ac: AhoCorasick,
    /// The set of each of the automaton's words.
    set_of: Vec<usize>,
    /// How many sets the automaton holds (those with an id below it).
    sets: usize,
}

impl FieldWords {
    /// The automaton of every set built so far; `None` if it cannot be built (the sets are
    /// then read one by one).
    fn build() -> Option<FieldWords> {
        let sets = SETS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let held = sets.len().min(MAX_SETS);
        let (mut words, mut set_of) = (Vec::new(), Vec::new());
        for (id, set) in sets.iter().take(held).enumerate() {
            for w in set {
                words.push(w.as_str());
                set_of.push(id);
            }
        }
        let ac = AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(&words)
            .ok()?;
        Some(FieldWords {
            ac,
            set_of,
            sets: held,
        })
    }

    /// The automaton holding set `id`: the last one built, or a new one if that one was built
    /// before the set.
    fn holding(id: usize) -> Option<Arc<FieldWords>> {
        let mut last = FIELD_WORDS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(fw) = last.as_ref().filter(|fw| fw.sets > id) {
            return Some(Arc::clone(fw));
        }
        let fw = Arc::new(FieldWords::build()?);
        *last = Some(Arc::clone(&fw));
        Some(fw)
    }

    /// The sets (one bit each) of which a word starts at a word start in `hay`.
    fn sets_in(&self, hay: &str) -> u64 {
        let mut found = 0u64;
        for m in self.ac.find_overlapping_iter(hay) {
            let bit = self
                .set_of
                .get(m.pattern().as_usize())
                .map_or(0, |&id| 1u64 << id);
            if found & bit == 0 && word_start(hay, m.start()) {
                found |= bit;
            }
        }
        found
    }
}

/// Texts whose sets are remembered per thread (a field's key and its description).
const HITS_KEPT: usize = 2;

/// Most field texts whose sets one thread remembers beyond the last [`HITS_KEPT`]; the memo
/// is emptied when full.
const TEXTS_SEEN: usize = 1024;

/// Longest field text whose sets are remembered beyond the last [`HITS_KEPT`], in bytes.
const LONGEST_SEEN: usize = 256;

/// The sets found in the field texts read on this thread (see [`FieldWords`]).
#[derive(Default)]
struct FieldHits {
    words: Option<Arc<FieldWords>>,
    /// Each text read last and its sets, the latest first.
    kept: Vec<(String, u64)>,
    /// The sets of short texts read before, across calls: a tool's keys and descriptions come
    /// back call after call.
    seen: FxHashMap<Box<str>, u64>,
}

impl FieldHits {
    /// The sets (one bit each) of which a word starts at a word start in `hay`, where set
    /// `id` is among those read; `None` if the sets' automaton cannot be built.
    fn sets_in(&mut self, hay: &str, id: usize) -> Option<u64> {
        if self.words.as_ref().is_none_or(|fw| fw.sets <= id) {
            self.words = FieldWords::holding(id);
            self.kept.clear();
            self.seen.clear();
        }
        let fw = self.words.as_ref()?;
        if let Some(i) = self.kept.iter().position(|(t, _)| t == hay) {
            // The text read again goes first (already there, most of the time).
            if let Some(front) = self.kept.get_mut(..=i) {
                front.rotate_right(1);
            }
            return self.kept.first().map(|(_, sets)| *sets);
        }
        let sets = match self.seen.get(hay) {
            Some(&sets) => sets,
            None => {
                let sets = fw.sets_in(hay);
                if hay.len() <= LONGEST_SEEN {
                    if self.seen.len() >= TEXTS_SEEN {
                        self.seen.clear();
                    }
                    self.seen.insert(Box::from(hay), sets);
                }
                sets
            }
        };
        // The oldest text's string is reused for the new one.
        let mut text = if self.kept.len() >= HITS_KEPT {
            self.kept.pop().map(|(t, _)| t).unwrap_or_default()
        } else {
            String::new()
        };
        text.clear();
        text.push_str(hay);
        self.kept.insert(0, (text, sets));
        Some(sets)
    }
}

thread_local! {
    static FIELD_HITS: std::cell::RefCell<FieldHits> = std::cell::RefCell::default();
}

/// Whether a keyword found at `start..end` of `hay` stands as a word: at a word start and
/// not running on into a longer word. A keyword in a script written without spaces (Chinese,
/// Japanese, Thai) stands anywhere in its run of text; a Korean one may take a particle
/// after it (`월급은`).
fn stands_as_word(hay: &str, start: usize, end: usize) -> bool {
    let first = char_at(hay, start);
    if first.is_some_and(crate::text::script::is_unspaced) {
        return true;
    }
    word_start(hay, start)
        && (first.is_some_and(crate::text::script::is_hangul)
            || !char_at(hay, end).is_some_and(char::is_alphanumeric))
}

/// Whether byte `i` of `hay` starts a word (after a non-letter, or a camelCase hump).
fn word_start(hay: &str, i: usize) -> bool {
    match (char_before(hay, i), char_at(hay, i)) {
        (None, _) => true,
        (Some(p), Some(c)) => !p.is_alphanumeric() || (p.is_lowercase() && c.is_uppercase()),
        (Some(p), None) => !p.is_alphanumeric(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_match_at_word_starts_only() {
        let k = Keywords::new("t", &["tel", "phone"]).unwrap();
        assert!(k.any_in("recipientPhone"));
        assert!(k.any_in("Tel.: "));
        assert!(!k.any_in("hotel"));
        assert!(k.any_in("mobile_phone"));
    }

    #[test]
    fn field_texts_read_once_for_every_set() {
        let sets = [
            Keywords::new("t", &["tel", "phone"]).unwrap(),
            Keywords::new("t", &["passport", "tel"]).unwrap(),
            Keywords::new("t", &["Geburtsdatum", "né"]).unwrap(),
        ];
        let texts = [
            "recipientPhone",
            "hotel",
            "Tel.: ",
            "passportNo",
            "the guest's geburtsdatum",
            "Kunde né le",
            "",
        ];
        for _ in 0..2 {
            for t in texts {
                for k in &sets {
                    assert_eq!(k.in_field_text(t), k.any_in(t), "{t}");
                }
            }
        }
    }

    #[test]
    fn organisation_runs_end_with_their_sentence() {
        fn run(t: &str) -> Option<&str> {
            capitalised_run(t, 0, 4).map(|r| &t[r])
        }
        assert_eq!(run("Northwind. Er medlem"), Some("Northwind"));
        assert_eq!(run("St. Olav Hospital"), Some("St. Olav Hospital"));
        assert_eq!(run("Brandt Corp. Europe"), Some("Brandt Corp. Europe"));
        assert_eq!(run("Acme Co. Ltd"), Some("Acme Co. Ltd"));
        assert_eq!(run("IT. Dla"), Some("IT"));
        assert_eq!(run("U.S. Bank"), Some("U.S. Bank"));
    }

    #[test]
    fn windows_cut_on_char_boundaries() {
        let s = "né le 3";
        assert_eq!(before(s, 3, 2), "é");
        assert_eq!(before(s, 1, 5), "n");
        assert!(number_continues("12.5", 2, &['.']));
        assert!(!number_continues("12. Mai", 2, &['.']));
    }
}
