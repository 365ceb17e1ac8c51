//! Legal, criminal and immigration identifiers recognised by their shape, without a label:
//!
//! - **Docket numbers** of US state and federal courts: a year, a case-type code and a serial
//!   in either order (`2024-CR-001234`, `2024CF003318`, `FL-2023-04417`, `1:24-cr-00123`). The
//!   case-type code must be one courts use (CR, CF, CM, DV, FL, JV, MM, TR, …).
//! - **Court register numbers** of European courts: a register sign and `serial/year`
//!   (`81 Ds 214/24`, `P.A. 312/2024`, `II K 123/24`, `3 T 45/2024`), where the text speaks of
//!   a court or a proceeding.
//! - **Case captions**: `People v. Reyes`, `R v Smith`, `Commonwealth v. Hale`, `State of Ohio
//!   v. Doe`; other `X v. Y` captions where the text speaks of a court or an order.
//! - **Immigration numbers**: A-numbers written `A-123-456-789` / `A123-456-789`, and USCIS
//!   receipt numbers (`IOE0123456789`: a service-centre code and ten digits); the numbers of
//!   immigration forms (`I-589`, `I-130`, `N-400`, `DS-160`) where the text speaks of
//!   immigration: filing one says what the person is going through.
//!
//! Each pattern is a compiled regex run once over the text (linear time).

use crate::classify::pattern::LazyRegex as Regex;

use super::context::{Keywords, capitalised_run, char_at, char_before, has, regex, regex_gated};
use crate::classify::pattern::{Gate, any_word};
use crate::classify::{Detector, Field};
use crate::error::Error;
use crate::item::{Finding, PsdKind};
use crate::text::calendar::{is_month, is_weekday};

/// Case-type codes of court dockets (US state and federal courts).
const DOCKET_CODES: &str = "CRIM|CR|CF|CM|CT|CJ|CV|CIV|DV|DR|DC|FL|FA|FAM|FE|FC|JV|JD|JC|MM|MO|MI|MD|TR|TC|PR|SC|SM|MH|AP|CA|PA|GS|IN|TI";

/// Parties that make `X v. Y` a criminal caption on its own.
const PROSECUTING_PARTIES: &[&str] = &[
    "people",
    "state",
    "commonwealth",
    "united states",
    "usa",
    "u.s.",
    "r",
    "regina",
    "rex",
    "crown",
    "dpp",
    "hma",
    "government",
];

/// Words that make a register number or an `X v. Y` caption a court's.
const COURT_CONTEXT: &[&str] = &[
    "court",
    "case",
    "docket",
    "judge",
    "order",
    "hearing",
    "trial",
    "lawsuit",
    "filed",
    "plaintiff",
    "defendant",
    "custody",
    "alimony",
    "divorce",
    "settlement",
    "appeal",
    "verdict",
    "ruling",
    "attorney",
    "counsel",
    "motion",
    "subpoena",
    "az.",
    "aktenzeichen",
    "gericht",
    "amtsgericht",
    "landgericht",
    "verfahren",
    "verhandlung",
    "hauptverhandlung",
    "strafsache",
    "strafverfahren",
    "verteidiger",
    "staatsanwaltschaft",
    "anklage",
    "tribunal",
    "juzgado",
    "procedimiento",
    "expediente",
    "recurso",
    "causa",
    "autos",
    "tribunale",
    "procedimento",
    "processo",
    "rechtbank",
    "zaak",
    "sąd",
    "sądu",
    "sygn",
    "sprawa",
    "soud",
    "soudu",
    "sp. zn",
    "domstol",
    "tingsrätt",
    "retten",
];

/// Finds docket and register numbers, captions, A-numbers and USCIS receipt numbers.
#[derive(Debug)]
pub(super) struct Legal {
    docket: Regex,
    register: Regex,
    a_number: Regex,
    receipt: Regex,
    form: Regex,
    cnj: Regex,
    court: Keywords,
    parties: Keywords,
    immigration: Keywords,
}

/// Words that make a form number an immigration form.
const IMMIGRATION_CONTEXT: &[&str] = &[
    "asylum",
    "uscis",
    "immigration",
    "visa",
    "green card",
    "work permit",
    "ead",
    "naturalization",
    "citizenship",
    "deportation",
    "removal",
    "refugee",
    "biometrics appointment",
    "eoir",
    "tps",
    "daca",
    "asilo",
    "asile",
    "inmigración",
    "einwanderung",
];

impl Legal {
    pub(super) fn new() -> Result<Self, Error> {
        let c = DOCKET_CODES;
        Ok(Legal {
            docket: regex(
                "legal",
                &format!(
                    r"(?-u:\b)(?:(?:19|20)?\d{{2}}-?(?:{c})-?\d{{3,8}}|(?:{c})-(?:19|20)?\d{{2}}-\d{{3,8}}|(?:{c})(?:19|20)\d{{2}}-\d{{4,8}}|\d:\d{{2}}-(?i:cr|cv|mj|mc|po)-\d{{3,6}})(?-u:\b)"
                ),
            )?,
            register: regex(
                "legal",
                r"(?-u:\b)((?:(?:[IVX]{1,4}|\d{1,3})\s)?(?:[A-Z][A-Za-z]{0,3}\.?\s?){1,2})?(\d{1,6})/((?:19|20)?\d{2})(?-u:\b)",
            )?,
            // An `A` before a digit or a hyphen.
            a_number: regex_gated(
                "legal",
                r"(?-u:\b)A-?\d{3}-\d{3}-\d{3}(?-u:\b)",
                Some(Gate::Test(|t| {
                    t.match_indices('A').any(|(i, _)| {
                        t.get(i + 1..)
                            .and_then(|r| r.chars().next())
                            .is_some_and(|c| c == '-' || c.is_numeric())
                    })
                })),
            )?,
            receipt: regex_gated(
                "legal",
                r"(?-u:\b)(?:EAC|WAC|LIN|SRC|NBC|MSC|IOE|YSC|TSC|VSC|NSC|CSC)\d{10}(?-u:\b)",
                any_word(&[
                    "EAC", "WAC", "LIN", "SRC", "NBC", "MSC", "IOE", "YSC", "TSC", "VSC", "NSC",
                    "CSC",
                ]),
            )?,
            form: regex(
                "legal",
                r"(?-u:\b)(?:I-\d{3}[A-Z]?|N-\d{3}|DS-\d{3,4}|AR-11|G-\d{2,4})(?-u:\b)",
            )?,
            // Brazilian unified case numbers (CNJ): NNNNNNN-DD.AAAA.J.TR.OOOO.
            cnj: regex(
                "legal",
                r"(?-u:\b)(\d{7})-(\d{2})\.(\d{4})\.(\d)\.(\d{2})\.(\d{4})(?-u:\b)",
            )?,
            court: Keywords::new("legal", COURT_CONTEXT)?,
            immigration: Keywords::new("legal", IMMIGRATION_CONTEXT)?,
            parties: Keywords::new("legal", PROSECUTING_PARTIES)?,
        })
    }

    fn captions(&self, text: &str, court: &mut Option<bool>, out: &mut Vec<Finding>) {
        for (i, _) in text.match_indices(" v") {
            let rest = text.get(i + 1..).unwrap_or("");
            let Some(sep) = ["v. ", "vs. ", "v ", "vs "]
                .into_iter()
                .find(|s| rest.starts_with(s))
            else {
                continue;
            };
            let Some(left) = party_before(text, i) else {
                continue;
            };
            let Some(right) = capitalised_run(text, i + 1 + sep.len(), 4) else {
                continue;
            };
            let left_text = text.get(left.clone()).unwrap_or("");
            let left_words: Vec<&str> = left_text.split(' ').collect();
            let last = left_words.last().copied().unwrap_or("");
            let of = left_text.contains(" of ");
            // "People", "State of Ohio", "R": a prosecuting party, alone or last.
            let prosecuted =
                self.parties.any_word_in(last) || (of && self.parties.any_word_in(left_text));
            let in_court = *court.get_or_insert_with(|| self.court.any_word_in(text));
            // "v"/"v.": a prosecuting party or a court nearby; "vs.": a court (sports use it).
            let ok = match sep.trim_end() {
                "v" | "v." => prosecuted || in_court,
                _ => in_court,
            };
            if !ok {
                continue;
            }
            // Only the parties: from the prosecuting party (or the whole run) to the end.
            let start = if prosecuted && !of {
                i - last.len()
            } else {
                left.start
            };
            out.push(Finding::new(
                start..right.end,
                PsdKind::CriminalRecord,
                0.85,
                "legal",
            ));
        }
    }
}

/// The party before a caption's "v." ending at byte `end`: up to four capitalised words
/// ("of" allowed between them: "State of Ohio").
fn party_before(text: &str, end: usize) -> Option<std::ops::Range<usize>> {
    let head = text.get(..end)?;
    let mut start = end;
    let mut words = 0;
    let mut pending_of = false;
    for raw in head.rsplit(' ') {
        // An opening bracket or quote starts the party: "(Lindqvist v. …".
        let w = raw.trim_start_matches(['(', '[', '"', '“', '«', '\'']);
        let opened = w.len() < raw.len();
        let cap = w.chars().next().is_some_and(char::is_uppercase)
            && w.chars()
                .all(|c| c.is_alphabetic() || matches!(c, '\'' | '’' | '.' | '-'));
        if cap {
            start -= w.len() + usize::from(start < end);
            words += 1;
            pending_of = false;
            if words == 4 || opened {
                break;
            }
        } else if w == "of" && words > 0 && !pending_of {
            pending_of = true;
            start -= w.len() + 1;
        } else {
            break;
        }
    }
    if pending_of {
        start += 3; // drop a dangling "of "
    }
    (words > 0).then_some(start..end)
}

impl Legal {
    /// `81 Ds 214/24`, `P.A. 312/2024` where the text speaks of a court; a bare
    /// `312/2024` right after a court word ("expediente 312/2024").
    fn registers(&self, text: &str, court: &mut Option<bool>, out: &mut Vec<Finding>) {
        for c in self.register.captures_iter(text) {
            let (Some(m), Some(serial), Some(year)) = (c.get(0), c.get(2), c.get(3)) else {
                continue;
            };
            // A full stop that ends the sentence ("… sygn. akt II C 318/23.") is no part of a
            // longer number ("12/23.4"): read only where a full stop follows.
            let stop_ends = || char_at(text, m.end() + 1).is_none_or(char::is_whitespace);
            if char_at(text, m.end()).is_some_and(|ch| ch == '/' || ch == '.' && !stop_ends())
                || char_before(text, m.start()).is_some_and(|ch| ch == '/' || ch == '.')
            {
                continue;
            }
            let ok = if let Some(sign) = c.get(1) {
                // A weekday or a month before a day and month is a date ("off Fri 5/9").
                let dated = sign.as_str().split_whitespace().any(|w| {
                    let w = w.trim_end_matches('.');
                    is_weekday(w) || is_month(w)
                });
                !dated && *court.get_or_insert_with(|| self.court.any_word_in(text))
            } else {
                // A month/year is no case: the serial must not be a month.
                year.as_str().len() == 4
                    && serial.as_str().parse::<u32>().is_ok_and(|n| n > 12)
                    && self.court.word_before(text, m.start(), 40)
            };
            if ok {
                out.push(Finding::new(
                    m.range(),
                    PsdKind::CriminalRecord,
                    0.8,
                    "legal",
                ));
            }
        }
    }
}

impl crate::classify::shared::Gate for Legal {}

impl Detector for Legal {
    fn name(&self) -> &'static str {
        "legal"
    }

    fn detect(&self, text: &str, _field: &Field<'_>, out: &mut Vec<Finding>) {
        let mut court: Option<bool> = None;
        if has(text, " v") {
            self.captions(text, &mut court, out);
        }
        let form_like = text.contains('-')
            && ["I-", "N-", "DS-", "AR-", "G-"]
                .iter()
                .any(|f| has(text, f));
        if form_like {
            let mut immigration: Option<bool> = None;
            for m in self.form.find_iter(text) {
                if char_at(text, m.end()).is_some_and(|c| c == '-')
                    || !*immigration.get_or_insert_with(|| self.immigration.any_word_in(text))
                {
                    continue;
                }
                out.push(Finding::new(m.range(), PsdKind::EthnicOrigin, 0.8, "legal"));
            }
        }
        let digits = super::context::digit_count(text);
        if digits < 3 {
            return;
        }
        let run = super::context::longest_digit_run(text);
        let dockets = (digits >= 5 && run >= 3).then(|| self.docket.find_iter(text));
        for m in dockets.into_iter().flatten() {
            if char_before(text, m.start()).is_some_and(|c| matches!(c, '-' | '/' | '.' | '_'))
                || char_at(text, m.end()).is_some_and(|c| matches!(c, '-' | '_'))
            {
                continue;
            }
            out.push(Finding::new(
                m.range(),
                PsdKind::CriminalRecord,
                0.85,
                "legal",
            ));
        }
        if text.contains('/') {
            self.registers(text, &mut court, out);
        }
        if text.contains('.') {
            self.cnj_numbers(text, out);
        }
        for m in self
            .a_number
            .find_iter(text)
            .chain(self.receipt.find_iter(text))
        {
            out.push(Finding::new(m.range(), PsdKind::NationalId, 0.85, "legal"));
        }
    }
}

impl Legal {
    /// Brazilian unified case numbers whose check digits hold (ISO 7064 mod 97-10 over the
    /// serial, year, branch, court and origin).
    fn cnj_numbers(&self, text: &str, out: &mut Vec<Finding>) {
        for c in self.cnj.captures_iter(text) {
            let (Some(m), Some(check)) = (c.get(0), c.get(2)) else {
                continue;
            };
            let body: String = [1, 3, 4, 5, 6]
                .iter()
                .filter_map(|&i| c.get(i).map(|g| g.as_str()))
                .collect();
            if cnj_check(&body) == check.as_str().parse::<u64>().ok() {
                out.push(Finding::new(
                    m.range(),
                    PsdKind::CriminalRecord,
                    0.9,
                    "legal",
                ));
            }
        }
    }
}

/// Check digits of a CNJ number over its other digits (serial, year, branch, court,
/// origin), with the two check digits taken as `00`: 98 − (n·100 mod 97).
fn cnj_check(digits: &str) -> Option<u64> {
    let mut rem = 0u64;
    for ch in digits.chars().chain("00".chars()) {
        rem = (rem * 10 + u64::from(ch.to_digit(10)?)) % 97;
    }
    Some(98 - rem)
}

#[cfg(test)]
mod tests;
