//! Where care happens, by structure: a named place right after a health finding and a
//! preposition — "surgery at Northgate General", "my oncologist at Lindqvist", "Klinikaufenthalt
//! im UKE", "greffe à Saint-Vincent", "rehab in Brightwater". The name reveals where someone
//! is treated whatever it is called, so it is a health facility; the lexicons only know the
//! names whose own words say "hospital" or "clinic".
//!
//! A candidate must follow the finding in the same clause (no sentence end, semicolon or line
//! break between), within a few words, and must not be a known place name (a city or country:
//! "diabetes in Portugal" names no facility) or already covered by a finding.

use std::ops::Range;

use super::names::lists::NameLists;
use crate::item::{Finding, PsdKind};
use crate::taxonomy::Category;
use crate::text::calendar::{is_month, is_weekday};
use crate::text::fold::fold_term;

/// Prepositions that put a place after an event of care (lower case; matched on whole words).
const PREPOSITIONS: &[&str] = &[
    "at", "from", "à", "au", "chez", "bei", "im", "am", "op", "bij", "på", "hos", "w", "we", "ve",
    "v", "em", "no", "na", "presso", "all'", "al", "nel", "nella", "en",
];

/// How far after the finding the preposition may stand, in bytes.
const REACH: usize = 40;

/// Words of the name run at most.
const MAX_WORDS: usize = 4;

/// Adds a health-facility finding for a named place that follows a health finding.
pub(crate) fn extend(text: &str, out: &mut Vec<Finding>) {
    let anchors: Vec<usize> = out
        .iter()
        .filter(|f| {
            f.category == Category::Health
                && matches!(
                    f.kind,
                    PsdKind::Condition | PsdKind::Medication | PsdKind::ImpliedByRole
                )
        })
        .map(|f| f.span.end)
        .collect();
    if anchors.is_empty() {
        return;
    }
    // Existing findings by start, with the furthest end reached so far: whether a candidate
    // overlaps one is a binary search, so a text dense with findings stays linearithmic.
    let mut spans: Vec<(usize, usize)> = out.iter().map(|f| (f.span.start, f.span.end)).collect();
    spans.sort_unstable();
    let reach: Vec<usize> = spans
        .iter()
        .scan(0, |max, &(_, end)| {
            *max = (*max).max(end);
            Some(*max)
        })
        .collect();
    let overlaps = |name: &Range<usize>| {
        let before_end = spans.partition_point(|&(start, _)| start < name.end);
        before_end
            .checked_sub(1)
            .and_then(|i| reach.get(i))
            .is_some_and(|&end| name.start < end)
    };
    let mut seen = std::collections::HashSet::new();
    let mut found: Vec<Range<usize>> = Vec::new();
    for end in anchors {
        if let Some(name) = place_after(text, end)
            && !overlaps(&name)
            && seen.insert((name.start, name.end))
        {
            found.push(name);
        }
    }
    for name in found {
        out.push(
            Finding::new(name, PsdKind::HealthFacility, 0.7, "lexicon:health")
                .with_category(Category::Health),
        );
    }
}

/// The named place after byte `from`: a preposition, then a run of capitalised words or an
/// acronym, in the same clause and within [`REACH`].
fn place_after(text: &str, from: usize) -> Option<Range<usize>> {
    let rest = text.get(from..)?;
    let window_end = rest
        .char_indices()
        .take_while(|(i, _)| *i < REACH)
        .find(|(_, c)| matches!(c, '.' | ';' | '\n' | '!' | '?' | '('))
        .map_or(rest.len().min(REACH), |(i, _)| i);
    let window = rest.get(..window_end.min(rest.len()))?;
    let mut at = 0;
    while at < window.len() {
        let tail = window.get(at..)?;
        let word_len = tail
            .char_indices()
            .find(|(_, c)| !(c.is_alphabetic() || *c == '\''))
            .map_or(tail.len(), |(i, _)| i);
        let word = tail.get(..word_len)?;
        let next = at + word_len;
        if !word.is_empty()
            && crate::text::inline::with_collected(word.chars().flat_map(char::to_lowercase), |w| {
                PREPOSITIONS.contains(&w)
            })
            && tail.get(word_len..)?.starts_with(' ')
        {
            let start = from + next + 1;
            if let Some(name) = name_run(text, start) {
                return Some(name);
            }
        }
        // Next word.
        let skip = tail
            .get(word_len..)?
            .char_indices()
            .find(|(_, c)| c.is_alphabetic())
            .map_or(tail.len(), |(i, _)| word_len + i);
        if skip == 0 {
            break;
        }
        at += skip;
    }
    None
}

/// A run of up to [`MAX_WORDS`] capitalised words (or one acronym) at `start`, none of them a
/// sentence opener, the first not a known place.
fn name_run(text: &str, start: usize) -> Option<Range<usize>> {
    let lists = NameLists::get();
    let mut end = start;
    let mut words = 0;
    let mut at = start;
    let mut first = true;
    while words < MAX_WORDS {
        let tail = text.get(at..)?;
        let len = tail
            .char_indices()
            .find(|(_, c)| !(c.is_alphanumeric() || matches!(c, '-' | '\'' | '’' | '&')))
            .map_or(tail.len(), |(i, _)| i);
        let word = tail.get(..len)?.trim_end_matches(['-', '\'', '’']);
        let capital = word.chars().next().is_some_and(char::is_uppercase);
        if word.is_empty() || !capital {
            break;
        }
        if first {
            let flags = lists.flags(&fold_term(word));
            let stem = word.split(['\'', '’']).next().unwrap_or(word);
            if flags.has(super::names::lists::Flags::PLACE)
                || COMMON_OPENERS.contains(&stem)
                || is_weekday(stem)
                || is_month(stem)
            {
                return None;
            }
            first = false;
        }
        words += 1;
        end = at + word.len();
        at += len;
        if !text.get(at..).is_some_and(|r| r.starts_with(' ')) {
            break;
        }
        at += 1;
    }
    (words > 0 && end > start).then_some(start..end)
}

/// Capitalised words that open a clause, a time or a generic phrase rather than a name (day
/// and month names are read from the calendar table).
const COMMON_OPENERS: &[&str] = &[
    "I", "The", "A", "An", "My", "Our", "His", "Her", "Their", "This", "That", "Home", "Work",
    "Uhr", "AM", "PM", "ET", "PT", "CET", "UTC", "GMT", "ICU", "ER", "MRI", "CT",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn with_anchor(text: &str, term: &str) -> Vec<String> {
        let at = text.find(term).unwrap();
        let mut out = vec![Finding::new(
            at..at + term.len(),
            PsdKind::Condition,
            0.9,
            "lexicon:health",
        )];
        extend(text, &mut out);
        out.iter()
            .skip(1)
            .map(|f| text[f.span.clone()].to_owned())
            .collect()
    }

    #[test]
    fn named_places_of_care_after_a_health_finding() {
        assert_eq!(
            with_anchor(
                "She had her knee surgery at Northgate Ortho last week",
                "knee surgery"
            ),
            ["Northgate Ortho"]
        );
        assert_eq!(
            with_anchor(
                "nach der Chemotherapie im UKW geht es besser",
                "Chemotherapie"
            ),
            ["UKW"]
        );
        assert_eq!(
            with_anchor("dialysis three times a week at Brightwater", "dialysis"),
            ["Brightwater"]
        );
    }

    #[test]
    fn cities_times_and_other_clauses_are_not_places_of_care() {
        assert!(with_anchor("diabetes at Monday's check", "diabetes").is_empty());
        assert!(with_anchor("asthma. At Lakeside we sell", "asthma").is_empty());
        assert!(with_anchor("chemo at 9 am", "chemo").is_empty());
        assert!(with_anchor("treated for depression in London", "depression").is_empty());
    }
}
