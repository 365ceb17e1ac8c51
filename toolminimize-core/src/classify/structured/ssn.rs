//! US social security numbers, excluding ranges the SSA never issues (area 000, 666 and
//! 900–999, group 00, serial 0000). The undashed nine-digit form counts only where the text or
//! the field says SSN.

use crate::classify::pattern::LazyRegex as Regex;

use super::context::{Keywords, char_at, char_before, regex, regex_gated};
use crate::classify::pattern::{Edge, words_ci};
use crate::classify::{Detector, Field};
use crate::error::Error;
use crate::item::{Finding, PsdKind};

const CONTEXT: &[&str] = &[
    "ssn",
    "social security",
    "social-security",
    "soc sec",
    "ss#",
    "ss #",
    "ss no",
    "my social",
    "your social",
    "her social",
    "his social",
];

/// Finds US social security numbers.
#[derive(Debug)]
pub(super) struct Ssn {
    re: Regex,
    /// Nine digits written one at a time ("5 1 7 4 8 2 0 9 3"), read only after the word.
    spaced: Regex,
    /// The last four digits of one, named as such ("SSN ending in 2086", "last four of my
    /// social are 2086"): group 1 is the digits.
    partial: Regex,
    context: Keywords,
}

impl Ssn {
    pub(super) fn new() -> Result<Self, Error> {
        Ok(Ssn {
            re: regex("ssn", r"(\d{3})( - |[- ]?)(\d{2})( - |[- ]?)(\d{4})")?,
            spaced: regex("ssn", r"\d(?: \d){8}")?,
            partial: regex_gated(
                "ssn",
                r"(?i)(?-u:\b)(?:(?:ssn|social(?:\s+security)?(?:\s+(?:number|no\.?|#))?)[^.\n\d]{0,12}?(?:ending(?:\s+(?:in|with))?|ends\s+(?:in|with)?|last\s+(?:4|four)(?:\s+digits)?(?:\s+(?:is|are))?)|last\s+(?:4|four)(?:\s+digits)?\s+of\s+(?:(?:my|his|her|their|your|the)\s+)?(?:ssn|social(?:\s+security)?(?:\s+number)?)(?:\s+(?:is|are))?)\s*[:#]?\s*(\d{4})(?-u:\b)",
                words_ci(&["ssn", "social"], Edge::Boundary, Edge::Any),
            )?,
            context: Keywords::new("ssn", CONTEXT)?,
        })
    }
}

/// Whether a `.` and a digit follow (`123-45-6789.5` goes on as a number).
fn number_after_dot(text: &str, end: usize) -> bool {
    super::context::number_continues(text, end, &['.'])
}

/// Whether area, group and serial are in issued ranges.
pub(super) fn valid_parts(area: &str, group: &str, serial: &str) -> bool {
    let (Ok(a), Ok(g), Ok(s)) = (
        area.parse::<u16>(),
        group.parse::<u8>(),
        serial.parse::<u16>(),
    ) else {
        return false;
    };
    a != 0 && a != 666 && a < 900 && g != 0 && s != 0
}

impl crate::classify::shared::Gate for Ssn {
    fn may_find(text: &str, _field: &Field<'_>) -> bool {
        // Four digits for the last four of one; nine for a whole one.
        text.len() >= 9 && super::context::has_digits(text, 4)
    }
}

impl Detector for Ssn {
    fn name(&self) -> &'static str {
        "ssn"
    }

    fn detect(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) {
        if text.len() < 9 {
            return;
        }
        for c in self.partial.captures_iter(text) {
            if let Some(d) = c.get(1) {
                out.push(Finding::new(d.range(), PsdKind::Ssn, 0.85, "ssn"));
            }
        }
        if !super::context::has_digits(text, 9) {
            return;
        }
        // Whether the field names an SSN: read once, when a candidate needs it.
        let field_cell = std::cell::OnceCell::new();
        let in_field = || *field_cell.get_or_init(|| self.context.in_field(field));
        for c in self.re.captures_iter(text) {
            let (Some(m), Some(a), Some(s1), Some(g), Some(s2), Some(s)) =
                (c.get(0), c.get(1), c.get(2), c.get(3), c.get(4), c.get(5))
            else {
                continue;
            };
            let (start, end) = (m.start(), m.end());
            // The dashed form survives `_` and `.` neighbours (`scan_123-45-6789.pdf`) and, after
            // the word SSN, one stray letter glued on (`'123-45-6789x'`).
            let dashed = s1.as_str().trim() == "-";
            let bad_neighbour = |ch: Option<char>| {
                ch.is_some_and(|c| {
                    c.is_alphanumeric()
                        || matches!(c, '-' | '/' | '+')
                        || (!dashed && matches!(c, '_' | '.'))
                })
            };
            let stray_letter = dashed
                && char_at(text, end).is_some_and(|c| c.is_ascii_alphabetic())
                && !char_at(text, end + 1).is_some_and(char::is_alphanumeric)
                && self.context.before(text, start, 32);
            // A full stop that ends the sentence is not part of the number.
            let full_stop = char_at(text, end) == Some('.')
                && char_at(text, end + 1).is_none_or(char::is_whitespace);
            if bad_neighbour(char_before(text, start))
                || (bad_neighbour(char_at(text, end)) && !stray_letter && !full_stop)
                || number_after_dot(text, end)
            {
                continue;
            }
            if s1.as_str() != s2.as_str() || !valid_parts(a.as_str(), g.as_str(), s.as_str()) {
                continue;
            }
            let context = in_field() || self.context.before(text, start, 32);
            let conf = match (s1.as_str(), context) {
                // Dashes set apart by spaces ("123 - 45 - 6789"), written to get past a filter,
                // after the word that names the number.
                (" - ", true) => 0.9,
                ("-", true) => 0.98,
                ("-", false) => 0.9,
                (" ", true) => 0.95,
                (" ", false) => 0.75,
                (_, true) => 0.9,
                _ => continue,
            };
            out.push(Finding::new(start..end, PsdKind::Ssn, conf, "ssn"));
        }
        // Spelled out one digit at a time to get past a filter: the word said it shortly
        // before ("my social is … no wait, use 5 1 7 4 8 2 0 9 3").
        for m in self.spaced.find_iter(text) {
            let (start, end) = (m.start(), m.end());
            let before = text.get(..start).unwrap_or_default();
            let after = text.get(end..).unwrap_or_default();
            // Not part of a longer run of digits or glued to a word.
            let digit_then_space = |t: &str| {
                t.strip_suffix(' ')
                    .is_some_and(|t| t.ends_with(|c: char| c.is_ascii_digit()))
            };
            if before.ends_with(char::is_alphanumeric)
                || digit_then_space(before)
                || after.starts_with(char::is_alphanumeric)
                || after
                    .strip_prefix(' ')
                    .is_some_and(|t| t.starts_with(|c: char| c.is_ascii_digit()))
            {
                continue;
            }
            let digits: String = m.as_str().chars().filter(char::is_ascii_digit).collect();
            let (Some(a), Some(g), Some(sr)) = (digits.get(..3), digits.get(3..5), digits.get(5..))
            else {
                continue;
            };
            if valid_parts(a, g, sr) && (in_field() || self.context.before(text, start, 120)) {
                out.push(Finding::new(start..end, PsdKind::Ssn, 0.9, "ssn"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans<'a>(text: &'a str, field: &Field<'_>) -> Vec<&'a str> {
        let d = Ssn::new().unwrap();
        let mut out = Vec::new();
        d.detect(text, field, &mut out);
        out.iter().map(|f| &text[f.span.clone()]).collect()
    }

    #[test]
    fn one_digit_at_a_time_after_the_word() {
        let none = Field::default();
        assert_eq!(
            spans("my social is… no wait, use 5 3 6 9 0 4 4 1 1.", &none),
            ["5 3 6 9 0 4 4 1 1"]
        );
        assert!(spans("use 5 3 6 9 0 4 4 1 1 for the lock", &none).is_empty());
        assert!(spans("SSN: 5 3 6 9 0 4 4 1 1 2", &none).is_empty());
    }

    #[test]
    fn the_last_four_named_as_such() {
        let none = Field::default();
        for (text, four) in [
            ("SSN ends 2086, DOB to follow", "2086"),
            ("the social security number ending in 0192", "0192"),
            ("last four of my SSN are 8830", "8830"),
            ("last 4 digits of her social: 5521", "5521"),
        ] {
            assert_eq!(spans(text, &none), [four], "{text}");
        }
        for text in [
            "last four quarters of social spending, 2024",
            "SSN form 2086 instructions",
        ] {
            assert!(spans(text, &none).is_empty(), "{text}");
        }
    }

    #[test]
    fn dashed_and_context_forms() {
        let none = Field::default();
        assert_eq!(spans("SSN 536-90-4411 on file", &none), ["536-90-4411"]);
        assert_eq!(
            spans("social security number: 536904411", &none),
            ["536904411"]
        );
        let f = Field {
            path: "/ssn",
            key: Some("ssn"),
            description: None,
            dictated: false,
        };
        assert_eq!(spans("536904411", &f), ["536904411"]);
        assert_eq!(
            spans("she read out her SSN: 536904411. Thanks", &none),
            ["536904411"]
        );
        assert!(spans("SSN file 536904411.5", &none).is_empty());
        assert!(spans("SSN scan 536904411.pdf", &none).is_empty());
        assert_eq!(spans("upload scan_536-90-4411.pdf", &none), ["536-90-4411"]);
        assert_eq!(
            spans("ValueError: invalid SSN '536-90-4411x'", &none),
            ["536-90-4411"]
        );
        // Dashes set apart by spaces count after the word only.
        assert_eq!(
            spans("my SSN is 536 - 90 - 4411", &none),
            ["536 - 90 - 4411"]
        );
        assert!(spans("pages 536 - 90 - 4411", &none).is_empty());
    }

    #[test]
    fn invalid_ranges_and_bare_digits_are_ignored() {
        let none = Field::default();
        for s in [
            "000-12-3456",
            "666-12-3456",
            "912-34-5678",
            "123-00-4567",
            "123-45-0000",
            "536904411",
            "536-904411",
            "ORD-123-45-6789",
            "2025-06-1234",
            "ref 536-90-4411x2",
            "code 536-90-4411x",
            "v536-90-4411",
        ] {
            assert!(spans(s, &none).is_empty(), "{s}");
        }
    }
}
