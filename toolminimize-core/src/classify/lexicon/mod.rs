//! Stage 2a: lexicons of implicit PSD (health, beliefs, sexual life, ethnicity, criminal,
//! financial distress, demographic terms and roles that imply them), matched with aho-corasick.
//!
//! All lexicon files under `data/lexicon/` are embedded in the binary and compiled into ONE
//! leftmost-longest automaton over folded terms (see `text::fold`): matching is
//! case-, diacritic- and whitespace-insensitive and stands on word boundaries, and each match is
//! mapped back to a span of the original text. Entries carry their kind, category and
//! confidence, and may ask for more (see `data/lexicon/README.md`): acronyms that are also
//! common words ("AIDS", "AA") only match in their acronym casing, ambiguous words only match
//! near a context word, facility words take in the capitalised name around them, and debt
//! words take in the amount that follows.

mod compound;
mod span;
mod table;

use std::collections::HashSet;
use std::fmt;
use std::ops::Range;
use std::sync::{Arc, LazyLock};

use daachorse::DoubleArrayAhoCorasick;

use super::{Detector, Field};
use crate::error::{Error, ErrorKind};
use crate::item::{Finding, PsdKind};
use crate::taxonomy::Category;
use crate::text::fold::{Folded, fold, fold_term, is_word_char};
use crate::text::script::is_unspaced;
use table::{Contexts, Flags};

/// The automaton over every folded term and benign phrase, compiled by the build script.
const AUTOMATON: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/lexicon.daac"));

/// One record per pattern of the automaton (see [`table::encode`]).
const ENTRIES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/lexicon.entries"));

const CONTEXTS: &str = include_str!("../../../data/lexicon/contexts.tsv");

/// Words looked at on each side of an entry that needs a context word.
const CONTEXT_BEFORE: usize = 4;
const CONTEXT_AFTER: usize = 3;

/// One term's meaning.
#[derive(Debug, Clone, Copy)]
struct Entry {
    kind: PsdKind,
    category: Category,
    confidence: f32,
    flags: Flags,
    /// The term as written, kept only for `case` entries.
    cased: Option<&'static str>,
}

/// The loaded tables, shared by every detector of the process.
struct Tables {
    automaton: DoubleArrayAhoCorasick<u32>,
    /// By pattern id; `None` for benign phrases, which only shadow shorter matches.
    entries: Vec<Option<Entry>>,
    contexts: Vec<HashSet<Box<str>>>,
}

fn parse_kind(s: &str) -> Option<(PsdKind, Category)> {
    let kind = match s {
        "condition" => PsdKind::Condition,
        "medication" => PsdKind::Medication,
        "facility" => PsdKind::HealthFacility,
        "belief" => PsdKind::Belief,
        "sexuality" => PsdKind::Sexuality,
        "ethnic" => PsdKind::EthnicOrigin,
        "criminal" => PsdKind::CriminalRecord,
        "distress" => PsdKind::FinancialDistress,
        "money" => PsdKind::MoneyAmount,
        "family" => PsdKind::Family,
        "gender" => PsdKind::Gender,
        "age" => PsdKind::Age,
        "occupation" => PsdKind::Occupation,
        "preference" => PsdKind::Preference,
        "biometric" => PsdKind::Biometric,
        other => {
            let category = other.strip_prefix("role:")?.parse::<Category>().ok()?;
            return Some((PsdKind::ImpliedByRole, category));
        }
    };
    Some((kind, kind.category()))
}

fn build_error(what: impl fmt::Display) -> String {
    format!("lexicon tables: {what}")
}

impl Tables {
    fn load() -> Result<Self, String> {
        let contexts =
            Contexts::parse(table::CONTEXTS_FILE, CONTEXTS, fold_term).map_err(build_error)?;
        let (automaton, _) = DoubleArrayAhoCorasick::<u32>::deserialize(AUTOMATON)
            .map_err(|e| build_error(format!("automaton: {e}")))?;
        let raw = table::decode(ENTRIES).ok_or_else(|| build_error("malformed entries"))?;
        let mut kinds: Vec<(&str, (PsdKind, Category))> = Vec::new();
        let mut entries = Vec::with_capacity(raw.len());
        for r in raw {
            let Some(r) = r else {
                entries.push(None);
                continue;
            };
            let (kind, category) = match kinds.iter().find(|(k, _)| *k == r.kind) {
                Some((_, kc)) => *kc,
                None => {
                    let kc = parse_kind(r.kind).ok_or_else(|| build_error("unknown kind"))?;
                    kinds.push((r.kind, kc));
                    kc
                }
            };
            if r.flags
                .context
                .is_some_and(|c| usize::from(c) >= contexts.words.len())
            {
                return Err(build_error("unknown context set"));
            }
            entries.push(Some(Entry {
                kind,
                category,
                confidence: r.confidence,
                flags: r.flags,
                cased: r.cased,
            }));
        }
        Ok(Tables {
            automaton,
            entries,
            contexts: contexts.words,
        })
    }
}

/// The process-wide tables, loaded on first use (a few milliseconds: nothing is rebuilt).
static TABLES: LazyLock<Result<Arc<Tables>, String>> =
    LazyLock::new(|| Tables::load().map(Arc::new));

/// Loads the tables and compiles the amount and number patterns, if not done yet.
pub(crate) fn warm_up() {
    let _ = &*TABLES;
    let _ = span::amount_after("", 0);
    let _ = span::number_after("", 0);
}

/// The lexicon detector: one automaton over every family.
#[derive(Clone)]
pub struct Lexicon {
    tables: Arc<Tables>,
}

impl fmt::Debug for Lexicon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Lexicon")
            .field("patterns", &self.tables.entries.len())
            .field("memory", &self.memory_usage())
            .finish_non_exhaustive()
    }
}

/// The built-in lexicon detectors, built once.
///
/// # Errors
/// When the compiled tables are malformed (a bug, caught by tests).
pub fn detectors() -> Result<Vec<Box<dyn Detector>>, Error> {
    Ok(vec![Box::new(Lexicon::build()?)])
}

/// The static detector name reported for a category.
const fn detector_name(category: Category) -> &'static str {
    match category {
        Category::Health => "lexicon:health",
        Category::Biometric => "lexicon:biometric",
        Category::SexualLife => "lexicon:sexual_life",
        Category::Beliefs => "lexicon:beliefs",
        Category::Ethnicity => "lexicon:ethnicity",
        Category::Criminal => "lexicon:criminal",
        Category::Financial => "lexicon:financial",
        Category::Identity => "lexicon:identity",
        Category::Location => "lexicon:location",
        Category::Demographic => "lexicon:demographic",
    }
}

impl Lexicon {
    /// The lexicon detector over the tables compiled at build time (loaded once per process).
    ///
    /// # Errors
    /// When the compiled tables are malformed (a bug, caught by tests).
    pub fn build() -> Result<Self, Error> {
        match &*TABLES {
            Ok(tables) => Ok(Lexicon {
                tables: Arc::clone(tables),
            }),
            Err(e) => Err(Error::new(ErrorKind::Build, e.clone())),
        }
    }

    /// Number of patterns in the automaton.
    pub fn len(&self) -> usize {
        self.tables.entries.len()
    }

    /// Whether the automaton has no pattern.
    pub fn is_empty(&self) -> bool {
        self.tables.entries.is_empty()
    }

    /// Heap memory used by the automaton and its entries, in bytes.
    pub fn memory_usage(&self) -> usize {
        self.tables.automaton.heap_bytes()
            + self.tables.entries.len() * std::mem::size_of::<Option<Entry>>()
    }

    fn has_context(&self, folded: &str, r: &Range<usize>, set: u16) -> bool {
        let Some(words) = self.tables.contexts.get(usize::from(set)) else {
            return false;
        };
        let sep = |c: char| !is_word_char(c);
        let before = folded.get(..r.start).unwrap_or_default();
        let after = folded.get(r.end..).unwrap_or_default();
        before
            .split(sep)
            .filter(|w| !w.is_empty())
            .rev()
            .take(CONTEXT_BEFORE)
            .any(|w| words.contains(w))
            || after
                .split(sep)
                .filter(|w| !w.is_empty())
                .take(CONTEXT_AFTER)
                .any(|w| words.contains(w))
    }

    /// The folded match range widened to whole words where the entry allows compounds,
    /// or `None` when it does not stand on a word boundary.
    fn word_range(folded: &Folded<'_>, r: Range<usize>, entry: &Entry) -> Option<Range<usize>> {
        let text = folded.as_str();
        let before = text.get(..r.start)?;
        let after = text.get(r.end..)?;
        let mut start = r.start;
        let mut end = r.end;
        let matched = text.get(r.clone())?;
        // Scripts written without spaces (Japanese, Chinese, Thai) have no word boundaries:
        // a term in them matches inside a run of text.
        let open_start = matched.chars().next().is_some_and(is_unspaced)
            || before.chars().next_back().is_some_and(is_unspaced);
        let open_end = matched.chars().next_back().is_some_and(is_unspaced)
            || after.chars().next().is_some_and(is_unspaced);
        if !open_start && before.chars().next_back().is_some_and(is_word_char) {
            if !entry.flags.suffix {
                return None;
            }
            start = before
                .char_indices()
                .rev()
                .find(|(_, c)| !is_word_char(*c))
                .map_or(0, |(i, c)| i + c.len_utf8());
        }
        let continues = !open_end && after.chars().next().is_some_and(is_word_char);
        if continues {
            let rest = after
                .find(|c: char| !is_word_char(c))
                .unwrap_or(after.len());
            // A compound matched from inside a word ("…kirche" in a town's name) takes no
            // ending as well.
            if !entry.flags.prefix
                && (start != r.start || !Self::inflects(matched, after.get(..rest)?, entry))
            {
                return None;
            }
            end = r.end + rest;
        } else if entry.flags.stem {
            return None;
        }
        Some(start..end)
    }
}

/// Whether `span` of `text` is a part of an identifier joined by underscores and written as
/// code (`hiv_status`, `is_pregnant`): it names a field or a variable, not anyone's data. A
/// folder named "HIV_test_results" outside code quotes is the user's own naming. Inline code
/// is told by an odd number of backticks before the span on its line.
fn code_identifier_part(text: &str, span: &Range<usize>) -> bool {
    let before = text.get(..span.start).unwrap_or_default();
    let after = text.get(span.end..).unwrap_or_default();
    if !(before.ends_with('_') || after.starts_with('_')) {
        return false;
    }
    let line = before.rsplit('\n').next().unwrap_or_default();
    line.bytes().filter(|&b| b == b'`').count() % 2 == 1
}

impl Lexicon {
    /// Whether `ending`, the rest of the word after a match of `matched`, is an inflection
    /// ending the entry may carry: a term whose last word has at least five letters (a stem:
    /// any length), not an acronym, a brand or an origin word.
    fn inflects(matched: &str, ending: &str, entry: &Entry) -> bool {
        if entry.flags.case
            || matches!(
                entry.kind,
                PsdKind::EthnicOrigin
                    | PsdKind::Medication
                    | PsdKind::ImpliedByRole
                    | PsdKind::Occupation
                    | PsdKind::Family
                    | PsdKind::Age
                    | PsdKind::Gender
                    | PsdKind::Preference
                    | PsdKind::MoneyAmount
            )
        {
            return false;
        }
        // A place of care in the plural ("across 4 hospitals", "clinicas") is a kind of
        // place, not where someone is treated; its case endings (Czech "v nemocnici") are.
        if entry.kind == PsdKind::HealthFacility && matches!(ending, "s" | "es") {
            return false;
        }
        let last = matched.rsplit(' ').next().unwrap_or(matched);
        (entry.flags.stem || last.chars().count() >= 5)
            && table::ENDINGS.binary_search(&ending).is_ok()
    }
}

/// Whether every upper-case letter of `term` is upper case in `original` too.
fn casing_matches(original: &str, term: &str) -> bool {
    let mut o = original.chars().filter(|c| c.is_alphanumeric());
    for t in term.chars().filter(|c| c.is_alphanumeric()) {
        match o.next() {
            Some(c) if t.is_uppercase() && !c.is_uppercase() => return false,
            Some(_) => {}
            None => return false,
        }
    }
    true
}

impl Detector for Lexicon {
    fn name(&self) -> &'static str {
        "lexicon"
    }

    fn detect(&self, text: &str, _field: &Field<'_>, out: &mut Vec<Finding>) {
        if text.is_empty() {
            return;
        }
        let folded = fold(text);
        let s = folded.as_str();
        let first = out.len();
        // Origin words without their person context ("Iranian" alone): they still count
        // right next to another term about a person's origin, faith or orientation
        // ("Iranian Baháʼí", "gay Iranian").
        let mut pending: Vec<(Range<usize>, &Entry)> = Vec::new();
        let mut at = 0;
        // After a term is rejected, its start is searched again with the text cut before the
        // term's last character (`cap`), so a shorter term starting there is still found
        // ("demenci" read as a stem of a longer term and rejected must not hide "demenc…").
        let mut cap: Option<usize> = None;
        'search: while at < s.len() {
            let capped = cap.take();
            let rest = match capped {
                Some(c) => s.get(at..c),
                None => s.get(at..),
            }
            .unwrap_or_default();
            let mut capped_end: Option<usize> = None;
            for m in self.tables.automaton.leftmost_find_iter(rest) {
                let (m_start, m_end) = (at + m.start(), at + m.end());
                if capped.is_some() {
                    // One match only, and only one that starts where the rejected term did.
                    if let Some(end) = capped_end {
                        at = end;
                        continue 'search;
                    }
                    if m_start != at {
                        at = next_char(s, at);
                        continue 'search;
                    }
                    capped_end = Some(m_end);
                }
                let Some(Some(entry)) = usize::try_from(m.value())
                    .ok()
                    .and_then(|i| self.tables.entries.get(i))
                else {
                    // A benign phrase shadows only as a whole word ("er sucht" must not
                    // swallow "der Suchtklinik").
                    if !folded.on_word_boundary(&(m_start..m_end)) {
                        at = next_char(s, m_start);
                        continue 'search;
                    }
                    continue;
                };
                let Some(r) = Self::word_range(&folded, m_start..m_end, entry) else {
                    // A shorter term at the same start first (the cut text ends one character
                    // earlier, so this terminates); then a term inside a longer word ("psd" in
                    // "svangerskapsdiabetes") must not hide a compound term that starts later
                    // in the same word: search again from the next character. Each retry
                    // re-reads at most one pattern.
                    let shorter = prev_char(s, m_end);
                    if shorter > m_start {
                        cap = Some(shorter);
                        at = m_start;
                    } else {
                        at = next_char(s, m_start);
                    }
                    continue 'search;
                };
                if code_identifier_part(text, &folded.original_span(r.clone())) {
                    continue;
                }
                if let Some(set) = entry.flags.context
                    && !self.has_context(s, &r, set)
                {
                    if entry.kind == PsdKind::EthnicOrigin {
                        pending.push((folded.original_span(r), entry));
                    }
                    continue;
                }
                let mut span = folded.original_span(r);
                if span::in_host_or_email(text, &span) {
                    continue;
                }
                if let Some(cased) = entry.cased {
                    let original = text.get(span.clone()).unwrap_or_default();
                    if !casing_matches(original, cased) {
                        continue;
                    }
                }
                // A term whose name, amount or number is missing is not there; a shorter term
                // at its start may be ("ricoverata al" with no name after it: "ricoverata").
                let mut missing = false;
                if entry.flags.amount {
                    match span::amount_after(text, span.end) {
                        Some(end) => span.end = end,
                        None => missing = entry.flags.need_amount,
                    }
                }
                if !missing && entry.flags.number {
                    match span::number_after(text, span.end) {
                        Some(end) => span.end = end,
                        None => missing = entry.flags.need_number,
                    }
                }
                if !missing && entry.flags.name {
                    let named = span::extend_name(text, span.clone());
                    // The name must be a name: an acronym of two or three capitals ("from
                    // HR", "from IT") is a department.
                    let acronym = text.get(span.end..named.end).is_some_and(|n| {
                        let n = n.trim();
                        (2..=3).contains(&n.len()) && n.bytes().all(|b| b.is_ascii_uppercase())
                    });
                    missing = entry.flags.need_name && (named.end == span.end || acronym);
                    span = named;
                }
                if missing {
                    if let Some(c) = shorter_end(s, m_start, m_end) {
                        cap = Some(c);
                        at = m_start;
                        continue 'search;
                    }
                    continue;
                }
                span.start = span::count_before(text, span.start, span.end);
                out.push(finding(span, entry));
            }
            if capped.is_some() {
                at = capped_end.unwrap_or_else(|| next_char(s, at));
                continue;
            }
            break;
        }
        self.compounds(&folded, first, out);
        for (span, entry) in pending {
            let next_to_person_term = out.get(first..).is_some_and(|found| {
                found.iter().any(|f| {
                    matches!(
                        f.kind,
                        PsdKind::Belief | PsdKind::EthnicOrigin | PsdKind::Sexuality
                    ) && (adjacent(text, &span, &f.span) || adjacent(text, &f.span, &span))
                })
            });
            if next_to_person_term {
                out.push(finding(span, entry));
            }
        }
    }
}

/// The byte offset of the character before `at` (the start of the last character of
/// `s[..at]`).
fn prev_char(s: &str, at: usize) -> usize {
    s.get(..at)
        .and_then(|h| h.char_indices().next_back())
        .map_or(0, |(i, _)| i)
}

/// Where to cut the folded text `s` to search again for a shorter term at `m_start` than the
/// rejected match `m_start..m_end`, if one can fit.
fn shorter_end(s: &str, m_start: usize, m_end: usize) -> Option<usize> {
    let shorter = prev_char(s, m_end);
    (shorter > m_start).then_some(shorter)
}

/// The byte offset of the character after the one at `at`.
fn next_char(s: &str, at: usize) -> usize {
    s.get(at..)
        .and_then(|rest| rest.chars().next())
        .map_or(s.len(), |c| at + c.len_utf8())
}

/// The finding an entry makes at `span`.
fn finding(span: Range<usize>, entry: &Entry) -> Finding {
    Finding::new(
        span,
        entry.kind,
        entry.confidence,
        detector_name(entry.category),
    )
    .with_category(entry.category)
}

/// Whether `b` follows `a` with only spaces or a hyphen between them.
fn adjacent(text: &str, a: &Range<usize>, b: &Range<usize>) -> bool {
    a.end <= b.start
        && text
            .get(a.end..b.start)
            .is_some_and(|gap| gap.len() <= 3 && gap.chars().all(|c| c == ' ' || c == '-'))
}

#[cfg(test)]
pub(crate) use self::span::check_patterns;

#[cfg(test)]
mod compiled_tests;
#[cfg(test)]
mod tests;
