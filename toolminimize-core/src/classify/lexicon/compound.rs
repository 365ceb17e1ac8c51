//! Closed compounds of the languages that write them as one word (German, Dutch, Swedish,
//! Danish, Norwegian) whose modifier or head is a condition term of the lexicon:
//! "Krebs|diagnose", "Depression|s|behandlung", "kanker|patiënt", "Alters|depression".
//!
//! The automaton matches a term only on word boundaries unless the term is flagged `pre` or
//! `post`; this pass reads the words that no term was found in:
//!
//! - **modifier**: the word starts with a condition term, then a linking element (none, `s`,
//!   `es`, `e`, `n`, `en`, `er`) and a head of care from `compound_heads.txt` (Diagnose,
//!   Behandlung, Therapie, Patient, …) with an inflection ending or none. The head says the
//!   word is about care, so a term that needs a context word alone ("Krebs") needs none here,
//!   while "Krebsgang" or "Krebsbach" (a street, a stream) are no condition.
//! - **head**: the word ends with a condition term of at least seven letters (with an
//!   inflection ending or none) after a modifier of its own joined by the linking -s-:
//!   "Alters|depression", "Schwangerschafts|diabetes". Without the -s- seam a term at the end
//!   of a word is mostly part of another word (Spanish "contr|adicción", Dutch
//!   "hoo|glanders"); short terms ("Sucht" in "Sehnsucht", "Fieber" in "Reisefieber", "Virus"
//!   in "Computervirus"), acronyms and terms that need a context word are left out.
//!
//! Linear: each word of at most [`MAX_WORD`] bytes is searched once with the automaton.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::LazyLock;

use super::{Entry, Lexicon, finding, table};
use crate::item::{Finding, PsdKind};
use crate::text::fold::{Folded, is_word_char};
use crate::text::script::is_unspaced;
use crate::text::spans::SpanSet;

const HEADS_FILE: &str = include_str!("../../../data/lexicon/compound_heads.txt");

/// Linking elements between a modifier and its head (German Fugenelemente; Dutch, Nordic -s-,
/// -e-, -en-).
const LINKS: &[&str] = &["", "s", "es", "e", "n", "en", "er"];

/// Words shorter than this are no compound of a term and a head.
const MIN_WORD: usize = 8;
/// Longer runs are not read (a hash, a URL without separators): bounds the work per word.
const MAX_WORD: usize = 64;
/// A condition term at the end of a compound has at least this many characters.
const MIN_HEAD_TERM: usize = 7;
/// A compound's own part before a condition term at its end has more than this many bytes,
/// linking -s- included.
const MIN_MODIFIER: usize = 3;
/// A condition term at the end of a compound is confident on its own.
const MIN_HEAD_CONFIDENCE: f32 = 0.75;
/// A term followed by a head of care is a condition at least this confidently.
const COMPOUND_CONFIDENCE: f32 = 0.85;

/// The folded heads of care (first column of `compound_heads.txt`).
static HEADS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    table::terms(HEADS_FILE)
        .filter_map(|l| l.split('\t').next())
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .collect()
});

/// Whether `rest` (the word after a condition term) is a linking element, a head of care and
/// an inflection ending or none.
fn is_head(rest: &str) -> bool {
    LINKS.iter().any(|link| {
        rest.strip_prefix(link).is_some_and(|r| {
            HEADS.contains(r)
                || table::ENDINGS.iter().any(|ending| {
                    r.strip_suffix(ending)
                        .is_some_and(|h| !h.is_empty() && HEADS.contains(h))
                })
        })
    })
}

/// Whether `ending` is nothing or an inflection ending.
fn is_ending(ending: &str) -> bool {
    ending.is_empty() || table::ENDINGS.binary_search(&ending).is_ok()
}

/// Whether a condition term `term` followed by `rest` ends a compound: a term of at least
/// [`MIN_HEAD_TERM`] characters at the end of the word, or one character longer with an
/// inflection ending (Norwegian "kreften" is "the cancer", "markeds|kreftene" the market's
/// forces).
fn head_term(term: &str, rest: &str) -> bool {
    let n = term.chars().count();
    if rest.is_empty() {
        n >= MIN_HEAD_TERM
    } else {
        n > MIN_HEAD_TERM && is_ending(rest)
    }
}

/// The byte ranges of the words of `s` (runs of word characters).
fn words(s: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut start: Option<usize> = None;
    s.char_indices()
        .chain(std::iter::once((s.len(), ' ')))
        .filter_map(move |(i, c)| {
            if is_word_char(c) && i < s.len() {
                start.get_or_insert(i);
                None
            } else {
                start.take().map(|st| st..i)
            }
        })
}

/// Findings up to this many are searched one by one for a word they cover; more are indexed.
const SCANNED_FINDINGS: usize = 16;

impl Lexicon {
    fn condition_entry(&self, value: u32) -> Option<&Entry> {
        let entry = usize::try_from(value)
            .ok()
            .and_then(|i| self.tables.entries.get(i))?
            .as_ref()?;
        (entry.kind == PsdKind::Condition && !entry.flags.case).then_some(entry)
    }

    /// The compounds of a condition term and a head of care, or of a word's own part and a
    /// condition term, among the words of `folded` that no finding of `out[first..]` covers.
    pub(super) fn compounds(&self, folded: &Folded<'_>, first: usize, out: &mut Vec<Finding>) {
        let s = folded.as_str();
        let mut found: Vec<Finding> = Vec::new();
        let earlier = out.get(first..).unwrap_or_default();
        // Many findings (a long text) are indexed once, when the first word needs them.
        let mut index: Option<SpanSet> = None;
        for r in words(s) {
            let Some(word) = s.get(r.clone()) else {
                continue;
            };
            if word.len() < MIN_WORD
                || word.len() > MAX_WORD
                || word.chars().any(|c| c.is_numeric() || is_unspaced(c))
            {
                continue;
            }
            let span = folded.original_span(r.clone());
            let covered = if earlier.len() <= SCANNED_FINDINGS {
                earlier
                    .iter()
                    .any(|f| f.span.start < span.end && span.start < f.span.end)
            } else {
                index
                    .get_or_insert_with(|| SpanSet::new(earlier.iter().map(|f| f.span.clone())))
                    .overlaps(&span)
            };
            if covered {
                continue;
            }
            for m in self.tables.automaton.leftmost_find_iter(word) {
                let Some(entry) = self.condition_entry(m.value()) else {
                    continue;
                };
                let term = word.get(m.start()..m.end()).unwrap_or_default();
                let rest = word.get(m.end()..).unwrap_or_default();
                if m.start() == 0 && !rest.is_empty() && is_head(rest) {
                    let mut f = finding(span.clone(), entry);
                    f.confidence = f.confidence.max(COMPOUND_CONFIDENCE);
                    found.push(f);
                    break;
                }
                let seam = word.get(..m.start()).unwrap_or_default();
                if seam.len() > MIN_MODIFIER
                    && seam.ends_with('s')
                    && entry.flags.context.is_none()
                    && !entry.flags.stem
                    && entry.confidence >= MIN_HEAD_CONFIDENCE
                    && head_term(term, rest)
                {
                    found.push(finding(span.clone(), entry));
                    break;
                }
            }
        }
        out.extend(found);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::fold::fold_term;

    #[test]
    fn heads_are_folded_and_unique() {
        let mut seen = HashSet::new();
        for line in table::terms(HEADS_FILE) {
            let head = line.split('\t').next().unwrap_or_default();
            assert_eq!(head, fold_term(head), "{head} is not folded");
            assert!(seen.insert(head), "{head} twice");
        }
        assert!(HEADS.len() > 40);
    }

    #[test]
    fn a_head_takes_a_link_and_an_ending() {
        assert!(is_head("diagnose"));
        assert!(is_head("sbehandlung"));
        assert!(is_head("sbehandlungen"));
        assert!(is_head("patienten"));
        assert!(is_head("behandlingen"));
        assert!(!is_head("gang"));
        assert!(!is_head("bach"));
        assert!(!is_head("s"));
        assert!(!is_head(""));
    }

    #[test]
    fn the_span_index_finds_the_overlaps_a_scan_finds() {
        let spans = [3..9, 0..2, 12..12, 20..40, 5..6, 30..31];
        let index = SpanSet::new(spans.iter().cloned());
        for start in 0..45 {
            for end in start..46 {
                let q = start..end;
                let scanned = spans.iter().any(|f| f.start < q.end && q.start < f.end);
                assert_eq!(index.overlaps(&q), scanned, "{q:?}");
            }
        }
    }

    #[test]
    fn words_are_runs_of_word_characters() {
        let s = "ab, cd-ef  g";
        let w: Vec<&str> = words(s).filter_map(|r| s.get(r)).collect();
        assert_eq!(w, ["ab", "cd", "ef", "g"]);
        assert_eq!(words("").count(), 0);
    }
}
