//! Span extensions on the original text: capitalised names around a facility word, and an
//! amount of money right after a debt word.

use std::sync::LazyLock;

use regex::Regex;

/// Words never taken into a name on its left (sentence openers and determiners).
const LEFT_STOP: &[&str] = &[
    "I", "My", "Our", "The", "A", "An", "At", "In", "To", "From", "For", "Der", "Die", "Das", "Im",
    "Zum", "Zur", "Ins", "Le", "La", "Les", "Au", "Aux", "El", "Los", "Las", "Il", "Lo", "Al",
    "Nel", "Nella", "Mein", "Meine", "Mon", "Ma", "Mi", "Mio", "Mia",
];

/// Lower-case words that may sit inside a name when a capitalised word follows them.
const CONNECTORS: &[&str] = &[
    "of", "the", "de", "du", "des", "la", "le", "del", "di", "della", "dei", "der", "am", "an",
    "y", "e", "rechts", "für", "for", "and", "et", "do", "da", "dos",
];

/// Capitalised words that never continue a name on its right (German capitalises every noun).
const RIGHT_STOP: &[&str] = &[
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
    "Today",
    "Tomorrow",
    "Tonight",
    "Montag",
    "Dienstag",
    "Mittwoch",
    "Donnerstag",
    "Freitag",
    "Samstag",
    "Sonntag",
    "Heute",
    "Morgen",
    "Uhr",
    "Termin",
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
    "Januar",
    "Februar",
    "März",
    "Juni",
    "Juli",
    "Oktober",
    "Dezember",
    "I",
    "AM",
    "PM",
];

const MAX_LEFT: usize = 4;
const MAX_RIGHT: usize = 6;

fn starts_upper_or_digit(w: &str) -> bool {
    w.chars()
        .next()
        .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
}

/// Strips an opening/closing quote or bracket. Returns `None` when the word ends a clause.
fn clean(word: &str) -> &str {
    word.trim_matches(['"', '“', '”', '«', '»'])
}

fn ends_clause(word: &str) -> bool {
    let trimmed = word.trim_end_matches(['"', '”', '»', '\'']);
    // "St." and "Dr." are abbreviations, not the end of a clause.
    let abbreviation =
        trimmed.len() <= 4 && trimmed.ends_with('.') && starts_upper_or_digit(trimmed);
    !abbreviation && trimmed.ends_with(['.', ',', ';', ':', '!', '?', ')', '('])
}

/// The previous whitespace-separated word before `at`: `(start, end)`.
fn prev_word(text: &str, at: usize) -> Option<(usize, usize)> {
    let before = text.get(..at)?;
    if !before.ends_with([' ', '\t']) {
        return None;
    }
    let end = before.trim_end_matches([' ', '\t']).len();
    let head = text.get(..end)?;
    let start = head.rfind(char::is_whitespace).map_or(0, |i| i + 1);
    (start < end).then_some((start, end))
}

/// The next whitespace-separated word after `at`: `(start, end)`.
fn next_word(text: &str, at: usize) -> Option<(usize, usize)> {
    let after = text.get(at..)?;
    let skipped = after.len() - after.trim_start_matches([' ', '\t']).len();
    if skipped == 0 {
        return None;
    }
    let start = at + skipped;
    let rest = text.get(start..)?;
    let end = start + rest.find(char::is_whitespace).unwrap_or(rest.len());
    (start < end).then_some((start, end))
}

/// Extends `span` over the capitalised words of a facility's name around it.
pub(super) fn extend_name(text: &str, span: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let (mut start, mut end) = (span.start, span.end);
    // The matched word itself may end a clause ("… at the Hospital."): then nothing follows.
    let matched_ends_clause = text
        .get(end..)
        .and_then(|r| r.chars().next())
        .is_some_and(|c| !c.is_whitespace());
    for _ in 0..MAX_LEFT {
        let Some((s, e)) = prev_word(text, start) else {
            break;
        };
        let Some(word) = text.get(s..e) else { break };
        let word = clean(word);
        if ends_clause(word)
            || !word.chars().next().is_some_and(char::is_uppercase)
            || LEFT_STOP.contains(&word)
        {
            break;
        }
        start = s;
    }
    if !matched_ends_clause {
        let mut cursor = end;
        let mut pending = 0;
        for _ in 0..MAX_RIGHT {
            let Some((s, e)) = next_word(text, cursor) else {
                break;
            };
            let Some(raw) = text.get(s..e) else { break };
            let word = clean(raw);
            let core = word.trim_end_matches(|c: char| !c.is_alphanumeric());
            if RIGHT_STOP.contains(&core) {
                break;
            }
            // Digits on the right are house numbers and times, not part of the name.
            if word.chars().next().is_some_and(char::is_uppercase) {
                end = s + raw.find(core).unwrap_or(0) + core.len();
                pending = 0;
                if ends_clause(word) {
                    break;
                }
            } else if CONNECTORS.contains(&core) && !ends_clause(word) && pending < 2 {
                pending += 1;
            } else {
                break;
            }
            cursor = e;
        }
    }
    start..end
}

/// Top-level domains recognised in bare domain names (without a scheme).
const COMMON_TLDS: &[&str] = &[
    "com", "org", "net", "edu", "gov", "io", "co", "info", "app", "dev", "health", "de", "fr",
    "es", "it", "uk", "nl", "eu", "ch", "at", "be", "pt", "us", "ca", "ie", "se", "dk", "no",
];

/// Whether `span` lies in the host of a URL, in a bare domain name or in an e-mail address:
/// there a word such as "clinic" names a site, not the user's care.
pub(super) fn in_host_or_email(text: &str, span: &std::ops::Range<usize>) -> bool {
    let (Some(before), Some(after)) = (text.get(..span.start), text.get(span.end..)) else {
        return false;
    };
    let start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
    let end = span.end + after.find(char::is_whitespace).unwrap_or(after.len());
    let Some(token) = text.get(start..end) else {
        return false;
    };
    // Most tokens hold no colon: a byte search tells them from URLs without building a
    // substring searcher.
    let scheme = if token.as_bytes().contains(&b':') {
        token.find("://")
    } else {
        None
    };
    let (host_from, rest) = match scheme {
        Some(p) => (start + p + 3, token.get(p + 3..).unwrap_or_default()),
        None if token.contains('@') => return true,
        None => (start, token),
    };
    let host_len = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let host = rest.get(..host_len).unwrap_or_default();
    let host = host.trim_end_matches(|c: char| !c.is_alphanumeric());
    let is_host = scheme.is_some()
        || host.rsplit_once('.').is_some_and(|(name, tld)| {
            !name.is_empty() && COMMON_TLDS.contains(&tld.to_ascii_lowercase().as_str())
        });
    is_host && span.start >= host_from && span.end <= host_from + host.len()
}

/// Compiled once per process, on first use; a failure makes every call fail under the fail
/// mode (see `shared::checked`).
static AMOUNT: LazyLock<Result<Regex, regex::Error>> = LazyLock::new(|| {
    crate::classify::shared::checked(
        "amount",
        Regex::new(
            r"(?xi)
        ^[\ \t]{0,2}
        (?:(?:of|about|around|nearly|almost|over|more\ than|de|von|über|ueber|etwa|fast|plus\ de|environ|près\ de|más\ de|casi|unos|unas|circa|di|oltre|quasi)[\ \t]+)?
        (?P<pre>(?:US\$|\$|€|£|USD|EUR|GBP|CHF)[\ \t]?)?
        (?P<num>\d{1,3}(?:[.,'\x{202F}\x{A0}\ ]\d{3})+|\d+)(?:[.,]\d{1,2})?
        (?P<mult>[\ \t]?(?:k|m|mio\.?|million|millions|thousand|grand|mil|mille|tausend|millones|milioni)\b)?
        (?P<suf>[\ \t]?(?:€|\$|£|euros?|eur\b|usd\b|dollars?|pounds?|gbp\b|chf\b|francs?))?",
        ),
    )
});

/// Compiles the amount and number patterns (once per process).
///
/// # Errors
/// When one does not compile, as a build error.
#[cfg(test)]
pub(crate) fn check_patterns() -> Result<(), crate::error::Error> {
    let failed = |what: &str, e: &regex::Error| {
        crate::error::Error::new(
            crate::error::ErrorKind::Build,
            format!("{what} pattern: {e}"),
        )
    };
    AMOUNT.as_ref().map_err(|e| failed("amount", e))?;
    NUMBER.as_ref().map_err(|e| failed("number", e))?;
    Ok(())
}

/// The end of an amount of money right after `at`, if there is one.
pub(super) fn amount_after(text: &str, at: usize) -> Option<usize> {
    let rest = text.get(at..)?;
    let caps = AMOUNT.as_ref().ok()?.captures(rest)?;
    let has_marker =
        caps.name("pre").is_some() || caps.name("suf").is_some() || caps.name("mult").is_some();
    if !has_marker {
        return None;
    }
    let m = caps.get(0)?;
    Some(at + m.end())
}

/// Compiled once per process, on first use; a failure makes every call fail under the fail
/// mode (see `shared::checked`).
static NUMBER: LazyLock<Result<Regex, regex::Error>> = LazyLock::new(|| {
    crate::classify::shared::checked(
        "number",
        Regex::new(
            r"(?xi)
        ^[\ \t]{0,2}
        (?:[:=][\ \t]*)?
        (?:(?:was|is|of|at|were|came\ back(?:\ at)?|score(?:\ of)?|level(?:\ of)?|now|down\ to|up\ to|
            von|bei|ist|war|liegt\ bei|de|di|da|du|a|à|el|la|van|na|op|på|er|var|je|wynosi|było|bylo|
            em|en|é|è|es|era|est|était|a\ été|fue|è\ stato|era|ligger\ på|på)[\ \t:]+){0,2}
        (?:[A-TV-Z]\d{2}(?:\.\d{1,2})?\b|
        [<>≤≥~]?[\ \t]?
        \d{1,4}(?:[.,]\d{1,2})?
        (?:[\ \t]?(?:%|mg/dl|mmol/l|mmol/mol|mg/l|g/dl|ml/min(?:/1[.,]73\ ?m²?)?|mmhg|mg|µg|ug|iu|u/l|ng/ml|cells/µl|/µl|/mm3|kg/m²|kg/m2|kg|bpm|
            /\d{1,3}\b|points?\b|pts\b|punkte\b|points\b|punti\b|puntos\b|pontos\b|punten\b|poäng\b|point\b|bodů\b|punktów\b))?)",
        ),
    )
});

/// Where a term that opens with a unit of time ("weeks pregnant", "months sober", "Wochen
/// schwanger") starts once the count written before it is taken in ("28 weeks pregnant"):
/// without it the count stays behind, alone ("I'm 28").
pub(super) fn count_before(text: &str, start: usize, end: usize) -> usize {
    let first = text
        .get(start..end)
        .and_then(|t| t.split(|c: char| !c.is_alphanumeric()).next())
        .unwrap_or_default();
    if first.is_empty() || !crate::text::calendar::is_span_unit(first) {
        return start;
    }
    let Some(before) = text.get(..start).and_then(|b| b.strip_suffix(' ')) else {
        return start;
    };
    let digits = before.len() - before.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let count_start = before.len() - digits;
    let glued = text
        .get(..count_start)
        .and_then(|t| t.chars().next_back())
        .is_some_and(|c| c.is_alphanumeric() || matches!(c, '.' | ',' | '/' | ':'));
    if (1..=3).contains(&digits) && !glued {
        count_start
    } else {
        start
    }
}

/// The end of a number (a lab value or a score, with its unit) right after `at`, if there is
/// one: "eGFR 38", "INR 3.4", "PHQ-9 of 19", "FEV1 41 %", "A1C was 7.8".
pub(super) fn number_after(text: &str, at: usize) -> Option<usize> {
    let rest = text.get(at..)?;
    let m = NUMBER.as_ref().ok()?.find(rest)?;
    // A number glued to a letter is a code or a word, not a value ("FEV1 41a").
    let end = at + m.end();
    if text
        .get(end..)
        .and_then(|r| r.chars().next())
        .is_some_and(char::is_alphanumeric)
        && !m.as_str().ends_with(|c: char| !c.is_ascii_digit())
    {
        return None;
    }
    Some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ext(text: &str, word: &str) -> String {
        let at = text.find(word).unwrap();
        let r = extend_name(text, at..at + word.len());
        text[r].to_owned()
    }

    #[test]
    fn names_extend_over_capitalised_words() {
        assert_eq!(
            ext("chemo at Mount Sinai Hospital next week", "Hospital"),
            "Mount Sinai Hospital"
        );
        assert_eq!(
            ext("suivi à l'Hôpital Saint-Louis, Paris", "Hôpital"),
            "Hôpital Saint-Louis"
        );
        assert_eq!(
            ext("I go to St. Mary's Hospital.", "Hospital"),
            "St. Mary's Hospital"
        );
        assert_eq!(
            ext(
                "the Hospital of the University of Pennsylvania tomorrow",
                "Hospital"
            ),
            "Hospital of the University of Pennsylvania"
        );
        assert_eq!(
            ext("Termin im Klinikum rechts der Isar", "Klinikum"),
            "Klinikum rechts der Isar"
        );
        assert_eq!(
            ext("drive me to the hospital please", "hospital"),
            "hospital"
        );
        assert_eq!(ext("My Hospital visit", "Hospital"), "Hospital");
        assert_eq!(
            ext("Termin in der Suchtklinik am Montag", "Suchtklinik"),
            "Suchtklinik"
        );
        assert_eq!(
            ext(
                "near St. Vincent Oncology Center 4410 Pine Ridge Road",
                "Oncology Center"
            ),
            "St. Vincent Oncology Center"
        );
    }

    #[test]
    fn hosts_and_emails_are_recognised() {
        let inside = |text: &str, word: &str| {
            let at = text.find(word).unwrap();
            in_host_or_email(text, &(at..at + word.len()))
        };
        assert!(inside(
            "see https://portal.example-clinic.org/confirm?x=1",
            "clinic"
        ));
        assert!(!inside(
            "see https://example.org/search?q=hiv+clinic",
            "clinic"
        ));
        assert!(inside("mail front-desk@oncology-partners.com", "oncology"));
        assert!(inside("open example-clinic.org/visits", "clinic"));
        assert!(!inside("the clinic. Then home", "clinic"));
        assert!(!inside("St. Mary's Hospital", "Hospital"));
        assert!(!inside("Mitglied bei ver.di seit 2010", "ver.di"));
    }

    #[test]
    fn a_count_before_a_unit_of_time() {
        let from = |t: &str, term: &str| {
            let start = t.find(term).unwrap();
            t[count_before(t, start, t.len())..].to_owned()
        };
        assert_eq!(from("I'm 28 weeks pregnant", "weeks"), "28 weeks pregnant");
        assert_eq!(
            from("seit 6 Monaten trocken", "Monaten"),
            "6 Monaten trocken"
        );
        // Not a count glued to something else, nor a term that opens with another word.
        assert_eq!(from("v2.28 weeks pregnant", "weeks"), "weeks pregnant");
        assert_eq!(from("I'm 28 pregnant", "pregnant"), "pregnant");
    }

    #[test]
    fn numbers_follow_lab_and_score_words() {
        let t = "eGFR 38 last week";
        assert_eq!(&t[..number_after(t, 4).unwrap()], "eGFR 38");
        let t = "her A1C was 7.8 in May";
        assert_eq!(&t[..number_after(t, 7).unwrap()], "her A1C was 7.8");
        let t = "PHQ-9 of 19, severe";
        assert_eq!(&t[..number_after(t, 5).unwrap()], "PHQ-9 of 19");
        let t = "FEV1 41 % predicted";
        assert_eq!(&t[..number_after(t, 4).unwrap()], "FEV1 41 %");
        let t = "INR: 3.4";
        assert_eq!(&t[..number_after(t, 3).unwrap()], "INR: 3.4");
        let t = "CID F41.1 desde março";
        assert_eq!(&t[..number_after(t, 3).unwrap()], "CID F41.1");
        assert_eq!(number_after("INR results pending", 3), None);
        assert_eq!(number_after("CD4 4b", 3), None);
    }

    #[test]
    fn amounts_follow_debt_words() {
        let t = "I owe $41,000 in loans";
        assert_eq!(&t[..amount_after(t, 5).unwrap()], "I owe $41,000");
        let t = "Schulden von 5.000 € bei";
        assert_eq!(&t[..amount_after(t, 8).unwrap()], "Schulden von 5.000 €");
        let t = "debo 3000 euros al banco";
        assert_eq!(&t[..amount_after(t, 4).unwrap()], "debo 3000 euros");
        let t = "owe 40k on cards";
        assert_eq!(&t[..amount_after(t, 3).unwrap()], "owe 40k");
        assert_eq!(amount_after("owe you one", 3), None);
        assert_eq!(amount_after("owe 3 hours", 3), None);
    }
}
