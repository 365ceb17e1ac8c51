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

/// Whether `s` is, whole, an ISO 8601 date or date-time as APIs write them: `2025-06-10`,
/// `2025-06-10T06:45`, `2025-06-10 06:45:00.250`, with `Z` or an offset (`+02:00`, `-0700`).
/// Nothing else: no words, no second date, no surrounding text.
pub fn is_iso_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |at: usize, n: usize| {
        b.get(at..at + n)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    let is = |at: usize, c: u8| b.get(at) == Some(&c);
    if !(digits(0, 4) && is(4, b'-') && digits(5, 2) && is(7, b'-') && digits(8, 2)) {
        return false;
    }
    let mut i = 10;
    if i == b.len() {
        return true;
    }
    if !(is(i, b'T') || is(i, b' ')) || !(digits(i + 1, 2) && is(i + 3, b':') && digits(i + 4, 2)) {
        return false;
    }
    i += 6;
    if is(i, b':') && digits(i + 1, 2) {
        i += 3;
        if is(i, b'.') || is(i, b',') {
            i += 1;
            let start = i;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == start {
                return false;
            }
        }
    }
    match b.get(i) {
        None => true,
        Some(b'Z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            digits(i + 1, 2)
                && (i + 3 == b.len()
                    || (digits(i + 3, 2) && i + 5 == b.len())
                    || (is(i + 3, b':') && digits(i + 4, 2) && i + 6 == b.len()))
        }
        _ => false,
    }
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
    fn iso_dates_and_date_times_whole() {
        for yes in [
            "2031-02-28",
            "2031-02-28T09:00",
            "2031-02-28 09:00:15",
            "2031-02-28T09:00:15.125Z",
            "2031-02-28T09:00:15,5+05:30",
            "2031-02-28T09:00-0700",
            "2031-02-28T09:00:00+01",
        ] {
            assert!(is_iso_date_time(yes), "{yes}");
        }
        for no in [
            "",
            "2031-02-2",
            "31-02-28",
            "2031/02/28",
            "2031-02-28T9:00",
            "2031-02-28T09:00:",
            "2031-02-28T09:00:15.",
            "2031-02-28T09:00Z ",
            "2031-02-28T09:00+1",
            "2031-02-28 and 2031-03-01",
            "born 2031-02-28",
            "2031-02-28, Room 4",
        ] {
            assert!(!is_iso_date_time(no), "{no}");
        }
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
