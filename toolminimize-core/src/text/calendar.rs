//! Month and weekday names, and the units a span of time is counted in, in the languages the
//! project reads (`data/text/calendar.tsv`).

use std::collections::HashSet;
use std::sync::LazyLock;

use super::fold::fold_term;

const CALENDAR: &str = include_str!("../../data/text/calendar.tsv");

struct Calendar {
    months: HashSet<String>,
    weekdays: HashSet<String>,
    spans: HashSet<String>,
}

static NAMES: LazyLock<Calendar> = LazyLock::new(|| {
    let mut c = Calendar {
        months: HashSet::new(),
        weekdays: HashSet::new(),
        spans: HashSet::new(),
    };
    for line in CALENDAR.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let [kind, _lang, names] = cols.as_slice() else {
            continue;
        };
        let set = match kind.trim() {
            "month" => &mut c.months,
            "weekday" => &mut c.weekdays,
            "span" => &mut c.spans,
            _ => continue,
        };
        for n in names.split(',') {
            let n = fold_term(n.trim());
            if !n.is_empty() {
                set.insert(n);
            }
        }
    }
    c
});

/// Whether `word` names a month (any case, with or without diacritics; Polish and Czech
/// genitives too).
pub fn is_month(word: &str) -> bool {
    super::inline::with_folded_term(word, |w| NAMES.months.contains(w))
}

/// Whether `word` names a day of the week.
pub fn is_weekday(word: &str) -> bool {
    super::inline::with_folded_term(word, |w| NAMES.weekdays.contains(w))
}

/// Whether `word` is a unit a span of time is counted in ("weeks", "Monate", "semaines").
pub fn is_span_unit(word: &str) -> bool {
    super::inline::with_folded_term(word, |w| NAMES.spans.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_and_weekdays_in_several_languages() {
        use crate::text::calendar::{is_month, is_weekday};
        assert!(is_month("Juni") && is_month("września") && !is_month("june-bug"));
        assert!(is_weekday("Dienstag") && !is_weekday("week"));
        assert!(is_span_unit("Weeks") && is_span_unit("Wochen") && !is_span_unit("weekend"));
    }

    #[test]
    fn every_line_parses() {
        for line in CALENDAR
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(cols.len(), 3, "{line}");
            assert!(matches!(cols[0], "month" | "weekday" | "span"), "{line}");
        }
        assert!(NAMES.months.len() > 100 && NAMES.weekdays.len() > 50);
    }
}
