//! Dates of birth and ages.
//!
//! A date counts as a date of birth when a birth word (EN/DE/FR/ES/IT) precedes it closely
//! ("DOB 1979-12-01", "born 12 March 1985", "né le 3 mars 1990", "geb. 03.04.1988", "nato il
//! 5 maggio 1980"; in Japanese after 生年月日 or before 生まれ: "1985年3月12日生まれ") or when its field says birth (`date_of_birth`, `dob`, `geburtsdatum`). Other
//! dates (deadlines, timestamps, bookings) are not PSD. Ages ("age 44", "38-year-old",
//! "40 ans", "44 Jahre") are reported as [`PsdKind::Age`], the whole phrase as the span.

use crate::classify::pattern::LazyRegex as Regex;

use super::context::{Keywords, char_at, char_before, regex, regex_gated};
use crate::classify::pattern::{Edge, any_word, any_word_ci, words};
use crate::classify::{Detector, Field};
use crate::error::Error;
use crate::item::{Finding, PsdKind};

/// Month names and common abbreviations in English, German, French, Spanish and Italian.
const MONTHS: &[&str] = &[
    // English
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
    // German
    "januar",
    "jänner",
    "februar",
    "märz",
    "maerz",
    "mai",
    "juni",
    "juli",
    "oktober",
    "dezember",
    "mär",
    "mrz",
    "okt",
    "dez",
    // French
    "janvier",
    "février",
    "fevrier",
    "mars",
    "avril",
    "juin",
    "juillet",
    "août",
    "aout",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
    "decembre",
    "janv",
    "févr",
    "fevr",
    "avr",
    "juil",
    "déc",
    // Spanish
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "setiembre",
    "octubre",
    "noviembre",
    "diciembre",
    "ene",
    "abr",
    "ago",
    "dic",
    // Italian
    "gennaio",
    "febbraio",
    "aprile",
    "maggio",
    "giugno",
    "luglio",
    "settembre",
    "ottobre",
    "dicembre",
    "gen",
    "mag",
    "giu",
    "lug",
    "set",
    "ott",
];

/// Words that announce a date of birth in running text.
const BIRTH_WORDS: &[&str] = &[
    "dob",
    "d.o.b",
    "date of birth",
    "birth date",
    "birthdate",
    "birthday",
    "born",
    "geb.",
    "geboren",
    "geburtsdatum",
    "geburtstag",
    "né le",
    "née le",
    "né ",
    "née ",
    "naissance",
    "nacimiento",
    "nacido",
    "nacida",
    "nació",
    "cumpleaños",
    "nato",
    "nata",
    "nascita",
    "compleanno",
    "fødselsdato",
    "geboortedatum",
    "födelsedatum",
];

/// Field names and descriptions saying the value is a date of birth.
const BIRTH_FIELD: &[&str] = &[
    "dob",
    "birth",
    "date_of_birth",
    "dateofbirth",
    "born",
    "geburt",
    "naissance",
    "nacimiento",
    "nascita",
    "birthday",
];

/// Where a possessive right before `at` starts ("my" of "my son (4)"), if one does.
fn possessive_before(text: &str, at: usize) -> Option<usize> {
    const POSSESSIVES: &[&str] = &[
        "my", "our", "his", "her", "their", "mein", "meine", "meinen", "unser", "unsere", "ma",
        "mon", "notre", "mi", "su", "nuestro", "nuestra", "mio", "mia", "meu", "minha", "mijn",
        "onze", "min", "mitt", "moj", "moja", "můj", "moje",
    ];
    let head = text.get(..at)?.trim_end();
    let start = head.rfind(|c: char| !c.is_alphabetic()).map_or(0, |i| {
        i + head[i..].chars().next().map_or(1, char::len_utf8)
    });
    let word = head.get(start..)?;
    POSSESSIVES
        .iter()
        .any(|p| p.eq_ignore_ascii_case(word))
        .then_some(start)
}

/// Words for a child that a bracketed age follows ("my son (4)", "unser Sohn (4)"), in the
/// languages the other age patterns read.
const CHILD_WORDS: &[&str] = &[
    "son", "daughter", "kid", "child", "boy", "girl", "baby", "toddler", "sohn", "tochter", "kind",
    "fils", "fille", "enfant", "hijo", "hija", "niño", "niña", "figlio", "figlia", "bambino",
    "bambina", "filho", "filha", "criança", "zoon", "dochter", "syn", "córka", "dcera", "dotter",
    "søn", "datter", "sønn", "barn",
];

/// Words right before "N ans / Jahre / años / anni" that make it someone's age: having or
/// turning an age ("j'ai 34 ans", "tengo 40 años", "ho 20 anni", "ich bin 52"), or a person
/// of that age ("femme de 44 ans", "un niño de 5 años", "Sohn, 12 Jahre").
const AGE_CUES: &[&str] = &[
    "j'ai",
    "il a",
    "elle a",
    "tu as",
    "vous avez",
    "agé",
    "âgé",
    "âgée",
    "agée",
    "femme",
    "homme",
    "fille",
    "fils",
    "enfant",
    "patient",
    "patiente",
    "bébé",
    "tengo",
    "tiene",
    "tienes",
    "tenemos",
    "cumple",
    "cumplió",
    "cumplo",
    "mujer",
    "hombre",
    "niño",
    "niña",
    "hijo",
    "hija",
    "paciente",
    "bebé",
    "ho",
    "ha",
    "hai",
    "abbiamo",
    "compie",
    "compiuto",
    "donna",
    "uomo",
    "bambino",
    "bambina",
    "figlio",
    "figlia",
    "paziente",
    "bin",
    "ist",
    "wird",
    "werde",
    "frau",
    "mann",
    "kind",
    "sohn",
    "tochter",
    "patientin",
    "baby",
];

/// Words before "N years" that make it a duration, not an age.
const DURATION_WORDS: &[&str] = &[
    "for",
    "in",
    "after",
    "over",
    "within",
    "since",
    "dans",
    "depuis",
    "pendant",
    "il y a",
    "vor",
    "seit",
    "für",
    "nach",
    "in den letzten",
    "hace",
    "durante",
    "desde",
    "en",
    "tras",
    "da",
    "fra",
    "tra",
    "per",
    "dopo",
    "últimos",
    "ultimi",
    "letzten",
    "derniers",
];

/// Finds dates of birth and ages.
#[derive(Debug)]
pub(super) struct Birth {
    date: Regex,
    /// Japanese dates of birth: after the label 生年月日 or before 生 / 生まれ ("born").
    ja_date: Regex,
    year: Regex,
    age_en: Regex,
    age_years: Regex,
    age_other: Regex,
    /// Ages in the words of languages that say "years of age" with a word used for nothing
    /// else ("64 χρονών", "64 yaşında", "64 éves", "64-vuotias", "64 tuổi", "64세", "64岁",
    /// "64 jaar oud", "בת 64"): group 1 or 2 is the number.
    age_world: Regex,
    age_apposition: Regex,
    /// "mein Sohn (4)": a child's age in brackets after a word for the child.
    age_bracket: Regex,
    /// "I'm 52 and …": the writer's age said bare.
    age_self: Regex,
    words: Keywords,
    field_words: Keywords,
    duration: Keywords,
    age_cues: Keywords,
}

impl Birth {
    pub(super) fn new() -> Result<Self, Error> {
        let mut months: Vec<&str> = MONTHS.to_vec();
        months.sort_by_key(|m| std::cmp::Reverse(m.chars().count()));
        let m = months.join("|");
        let date = format!(
            r"(?i)\d{{4}}[-/.]\d{{1,2}}[-/.]\d{{1,2}}|\d{{1,2}}[-/.]\d{{1,2}}[-/.](?:\d{{4}}|\d{{2}})|\d{{1,2}}(?:st|nd|rd|th|er|º|°|\.)?\s+(?:de\s+|of\s+)?(?:{m})\.?,?\s+(?:de\s+|del\s+)?\d{{4}}|(?:{m})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
        );
        let ja_day = r"(?:\d{4}|(?:明治|大正|昭和|平成|令和)(?:\d{1,2}|元))年\d{1,2}月\d{1,2}日";
        Ok(Birth {
            date: regex("dob", &date)?,
            ja_date: regex_gated(
                "dob",
                &format!(r"生年月日\s*[:：]?\s*({ja_day})|({ja_day})(?:生まれ|生)"),
                any_word(&["生年月日", "生"]),
            )?,
            // Every match opens with one of the gate's words.
            year: regex_gated(
                "dob",
                r"(?i)(?:born(?:\s+in)?|geboren(?:\s+im\s+jahr[e]?)?|jahrgang|née?\s+en|nacid[oa]\s+en|nat[oa]\s+nel)\s+((?:19|20)\d{2})(?-u:\b)",
                any_word_ci(&[
                    "born", "geboren", "jahrgang", "né", "nacido", "nacida", "nato", "nata",
                ]),
            )?,
            // Each age pattern behind its words (a text without them does not compile it).
            age_en: regex_gated(
                "age",
                r"(?i)(?-u:\b)(?:aged?|ages|âge|edad|età)\s*(?:of|:|=|de|di)?\s*(\d{1,3})(?:(?:\s*,\s*|\s+(?:and|&|und|et|y|e)\s+)\d{1,2}(?-u:\b))*(?-u:\b)|(?-u:\b)Alter\s*(?:von|:)?\s*(\d{1,3})(?-u:\b)",
                any_word_ci(&["age", "ages", "âge", "edad", "età", "alter"]),
            )?,
            age_years: regex_gated(
                "age",
                r"(?i)(?-u:\b)(\d{1,3})(?:[\s-]*(?:years?|yrs?)[\s-]*old|\s*(?:y/o|y\.o\.|yo)(?-u:\b)|-year-old)",
                any_word_ci(&["year", "yr", "y/o", "y.o.", "yo"]),
            )?,
            age_other: regex_gated(
                "age",
                r"(?-u:\b)(\d{1,3})\s*(?:ans|Jahre(?:\s+alt)?|años|anni)(?:\s|[.,;:!)]|$)",
                any_word(&["ans", "Jahre", "años", "anni"]),
            )?,
            age_world: regex_gated(
                "age",
                r"(?i)(?-u:\b)(\d{1,3})(?:\s*(?:χρονών|χρονώ|ετών|yaşında|yasinda|yaşındaki|éves|tuổi|jaar oud|år gammal|år gammel|anos de idade|anni di età|साल की|साल का|साल के)|-?vuotias|\s?(?:세|살|岁|歲))|(?:(?:^|\s)(?:בן|בת)|อายุ)\s*(\d{1,3})(?-u:\b)",
                any_word_ci(&[
                    "χρονών",
                    "χρονώ",
                    "ετών",
                    "yaşında",
                    "yasinda",
                    "éves",
                    "vuotias",
                    "tuổi",
                    "세",
                    "살",
                    "岁",
                    "歲",
                    "jaar oud",
                    "år gammal",
                    "år gammel",
                    "anos de idade",
                    "anni di età",
                    "साल",
                    "בן",
                    "בת",
                    "อายุ",
                ]),
            )?,
            // "Franco Rinaldi, 71 anni,", "(Odile Marchal, 78 ans)", "Patient, 61 J.": an age
            // in apposition to a capitalised name or noun.
            age_apposition: regex_gated(
                "age",
                r"([^\s,]+(?: [^\s,]+)?),\s*(\d{1,3}\s*(?:ans|anni|años|anos|Jahre|J\.|år|jaar|lat|let|yrs|yo|y/o))(?:\s*[,;:)\]]|\.(?:\s|$)|\s*$|\s+(?:alt|old|gammel|oud|starý|stará)(?-u:\b))",
                words(
                    &[
                        "ans", "anni", "años", "anos", "Jahre", "J.", "år", "jaar", "lat", "let",
                        "yrs", "yo", "y/o",
                    ],
                    Edge::Any,
                    Edge::Any,
                ),
            )?,
            age_bracket: regex_gated(
                "age",
                r"([\p{L}'’\-]+)\s\((\d{1,2})\)",
                words(&["("], Edge::Any, Edge::Any),
            )?,
            age_self: regex_gated(
                "age",
                r"(?i)(?-u:\b)(?:i'm|i’m|i am|ich bin)\s+(\d{2})(?:\s*(?:[,.;!)]|$)|\s+(?:and|but|und|aber|now|yet|so|with|mit)\s)",
                any_word_ci(&["i'm", "i’m", "i am", "ich bin"]),
            )?,
            words: Keywords::new("dob", BIRTH_WORDS)?,
            field_words: Keywords::new("dob", BIRTH_FIELD)?,
            duration: Keywords::new("age", DURATION_WORDS)?,
            age_cues: Keywords::new("age", AGE_CUES)?,
        })
    }

    fn dates(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) {
        // Whether the field names a birth date: read once, when a date needs it.
        let field_cell = std::cell::OnceCell::new();
        let birth_field = || *field_cell.get_or_init(|| self.field_words.in_field(field));
        let whole = text.trim();
        // A date counts only in a birth field or after a birth word: a text with neither
        // cannot hold one, and does not compile the date pattern.
        let cue = self.words.occurs_in(text) || birth_field();
        for m in cue.then(|| self.date.find_iter(text)).into_iter().flatten() {
            let (start, end) = (m.start(), m.end());
            if char_before(text, start)
                .is_some_and(|c| c.is_alphanumeric() || matches!(c, '-' | '/' | '.' | '_'))
                || char_at(text, end)
                    .is_some_and(|c| c.is_alphanumeric() || matches!(c, '-' | '/' | '_' | ':'))
                || !plausible_numeric(m.as_str())
            {
                continue;
            }
            let conf = if birth_field() && m.as_str().len() == whole.len() {
                0.95
            } else if self.words.before(text, start, 28) && !names_a_field_before(text, start) {
                0.9
            } else if birth_field() {
                0.8
            } else {
                continue;
            };
            out.push(Finding::new(start..end, PsdKind::DateOfBirth, conf, "dob"));
        }
        // (A search for a character outside ASCII compares every window of a short text.)
        if !text.is_ascii() && text.contains('年') {
            for c in self.ja_date.captures_iter(text) {
                if let Some(d) = c.get(1).or_else(|| c.get(2)) {
                    out.push(Finding::new(d.range(), PsdKind::DateOfBirth, 0.9, "dob"));
                }
            }
        }
        for c in self.year.captures_iter(text) {
            if let Some(y) = c.get(1) {
                out.push(Finding::new(y.range(), PsdKind::DateOfBirth, 0.8, "dob"));
            }
        }
    }

    fn ages(&self, text: &str, out: &mut Vec<Finding>) {
        let ok = |s: &str| s.parse::<u16>().is_ok_and(|n| (1..=120).contains(&n));
        for c in self
            .age_en
            .captures_iter(text)
            .chain(self.age_years.captures_iter(text))
        {
            let (Some(m), Some(n)) = (c.get(0), c.get(1).or_else(|| c.get(2))) else {
                continue;
            };
            if ok(n.as_str()) && !char_before(text, m.start()).is_some_and(|ch| ch.is_ascii_digit())
            {
                out.push(Finding::new(m.range(), PsdKind::Age, 0.85, "age"));
            }
        }
        for c in self.age_apposition.captures_iter(text) {
            let (Some(who), Some(m)) = (c.get(1), c.get(2)) else {
                continue;
            };
            // The words before are a person's name or a word for a person, not a noun such
            // as "Garantie, 2 Jahre".
            let person = who.as_str().split_whitespace().any(|w| {
                let w = w.trim_start_matches(['(', '[', '"']).trim_end_matches('.');
                w.chars().next().is_some_and(char::is_uppercase)
                    && (crate::classify::names::is_known_name(w)
                        || AGE_CUES.iter().any(|c| c.eq_ignore_ascii_case(w)))
            });
            let n = m
                .as_str()
                .split(|ch: char| !ch.is_ascii_digit())
                .next()
                .unwrap_or("");
            if person && ok(n) {
                out.push(Finding::new(m.range(), PsdKind::Age, 0.8, "age"));
            }
        }
        if text.contains('(') {
            for c in self.age_bracket.captures_iter(text) {
                let (Some(who), Some(n)) = (c.get(1), c.get(2)) else {
                    continue;
                };
                let w = who.as_str();
                if !CHILD_WORDS.iter().any(|k| k.eq_ignore_ascii_case(w)) || !ok(n.as_str()) {
                    continue;
                }
                // The age goes wherever the child goes: with the word for the child and its
                // possessive ("mein Sohn (4)"), read as family. (After a name, "Eli (6)", the
                // bracket goes with the name: see the rewrite of a person's name.)
                let start = possessive_before(text, who.start()).unwrap_or(who.start());
                out.push(Finding::new(
                    start..n.end() + 1,
                    PsdKind::Family,
                    0.8,
                    "age",
                ));
            }
        }
        for c in self.age_self.captures_iter(text) {
            if let Some(n) = c.get(1)
                && n.as_str()
                    .parse::<u16>()
                    .is_ok_and(|v| (16..=99).contains(&v))
            {
                let start = c.get(0).map_or(n.start(), |m| m.start());
                out.push(Finding::new(start..n.end(), PsdKind::Age, 0.75, "age"));
            }
        }
        for c in self.age_world.captures_iter(text) {
            let (Some(m), Some(n)) = (c.get(0), c.get(1).or_else(|| c.get(2))) else {
                continue;
            };
            // "3세대" is a generation, not an age.
            let generation = m.as_str().ends_with('세')
                && text.get(m.end()..).is_some_and(|r| r.starts_with('대'));
            if ok(n.as_str())
                && !generation
                && !char_before(text, m.start()).is_some_and(|ch| ch.is_ascii_digit())
            {
                let lead = m.as_str().len() - m.as_str().trim_start().len();
                out.push(Finding::new(
                    m.start() + lead..m.end(),
                    PsdKind::Age,
                    0.8,
                    "age",
                ));
            }
        }
        for c in self.age_other.captures_iter(text) {
            let (Some(m), Some(n)) = (c.get(0), c.get(1)) else {
                continue;
            };
            let end = m
                .as_str()
                .trim_end_matches(|ch: char| !ch.is_alphabetic())
                .len()
                + m.start();
            let stated = m.as_str().trim_end().ends_with("alt")
                || self.age_cues.word_before(text, m.start(), 20);
            if ok(n.as_str()) && stated && !self.duration.before(text, m.start(), 16) {
                out.push(Finding::new(m.start()..end, PsdKind::Age, 0.75, "age"));
            }
        }
    }
}

/// Rejects numeric dates whose month or day is out of range.
fn plausible_numeric(s: &str) -> bool {
    if s.bytes().any(|b| b.is_ascii_alphabetic()) || !s.contains(['-', '/', '.']) {
        return true;
    }
    let mut parts = s
        .split(['-', '/', '.'])
        .map(|p| p.parse::<u16>().unwrap_or(0));
    let (a, b, c) = (
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
    );
    if a > 31 {
        // Year first.
        (1..=12).contains(&b) && (1..=31).contains(&c)
    } else {
        // Day and month in either order.
        (1..=31).contains(&a)
            && (1..=31).contains(&b)
            && (a <= 12 || b <= 12)
            && !(100..=1870).contains(&c)
    }
}

impl crate::classify::shared::Gate for Birth {
    fn may_find(text: &str, _field: &Field<'_>) -> bool {
        super::context::has_digit(text)
    }
}

impl Detector for Birth {
    fn name(&self) -> &'static str {
        "dob"
    }

    fn detect(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) {
        if !text.bytes().any(|b| b.is_ascii_digit()) {
            return;
        }
        self.dates(text, field, out);
        self.ages(text, out);
    }
}

/// Whether the words right before `at` speak of a birth date as a field of data or of a
/// release, not of someone's date ("the DOB field (regression in 2024.11.05)", "birthdate
/// column since v2.1"): code talk.
fn names_a_field_before(text: &str, at: usize) -> bool {
    let gap = super::context::before(text, at, 28).to_ascii_lowercase();
    gap.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
        matches!(
            w,
            "field"
                | "fields"
                | "column"
                | "columns"
                | "parameter"
                | "param"
                | "attribute"
                | "property"
                | "regression"
                | "release"
                | "version"
                | "tag"
                | "commit"
                | "build"
        )
    })
}

#[cfg(test)]
mod tests;
