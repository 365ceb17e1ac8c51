//! A named school, nursery or day care: "Maple Grove Elementary", "Little Acorns daycare",
//! "Grundschule am Lindenhof", "École primaire Jules Ferry", "Colegio San Ignacio",
//! "Szkoła Podstawowa nr 12", "5ο Δημοτικό Σχολείο Χαλανδρίου", "школа № 57", "桜台小学校",
//! "한빛초등학교". Where a child spends the day tells where the family lives and where the
//! child can be found, so the name is reported as a place wherever it stands; whether the
//! call needs it (a route to the school, a search about it) is the decision stage's to say.
//!
//! The name is found by its structure: capitalised words and a school word after them (the
//! English, Turkish, Hungarian and Nordic order), or a school word and a capitalised name or
//! a number after it (the order of the Romance, Slavic and Greek languages), or a run of
//! Han, Katakana or Hangul ending in a school word. Schools of adults (a law school, a
//! university) and bare words ("the school called") are not matched.

use std::ops::Range;

use crate::classify::pattern::LazyRegex as Regex;
use crate::classify::pattern::{Edge, words_ci};

use super::context::regex_gated;
use crate::classify::{Detector, Field};
use crate::error::Error;
use crate::item::{Finding, PsdKind};

/// A capitalised word of a name ("Maple", "St.", "O'Neill", "Jean-Jaurès").
const NAME: &str = r"\p{Lu}[\p{L}'’.\-]*";

/// School words that close a name, in English (head words of schools for children only).
const HEAD_FINAL: &str = r"(?:Elementary(?:\s+School)?|Middle\s+School|High\s+School|Primary(?:\s+School)?|Infant\s+School|Junior\s+School|Secondary\s+School|Grammar\s+School|Montessori(?:\s+School)?|Prep(?:aratory)?\s+School|Nursery(?:\s+School)?|Pre-?school|Pre-K|Kindergarten|Day\s*care|Child\s*care(?:\s+Cent(?:re|er))?|Grundschule|Gesamtschule|Realschule|Schule|skole|skola|skolan|koulu|barnehage|förskola|børnehave|päiväkoti|basisschool|İlkokulu|Ortaokulu|Lisesi|Anaokulu|Okulu|Általános\s+Iskola|Iskola|Óvoda|Gimnázium)";

/// School words that open a name, in the Romance, Germanic, Slavic and other languages; a
/// name or a number follows.
const HEAD_FIRST: &str = r"(?:Grundschule|Gesamtschule|Realschule|Hauptschule|Gymnasium|Kita|Kindertagesstätte|Kindergarten|[ÉE]cole(?:\s+(?:primaire|maternelle|élémentaire|elementaire))?|Collège|Lycée|Crèche|Groupe\s+scolaire|Colegio|Escuela(?:\s+(?:Infantil|Primaria))?|CEIP|IES|Guardería|Escola(?:\s+(?:Básica|Primária|Municipal|Estadual))?|Colégio|Creche|Scuola(?:\s+(?:primaria|elementare|media|dell'infanzia))?|Liceo|Istituto\s+[Cc]omprensivo|Asilo(?:\s+nido)?|Basisschool|Szkoła\s+Podstawowa|Szkoła|Przedszkole|Gimnazjum|Liceum|Základní\s+škola|Mateřská\s+škola|ZŠ|MŠ)";

/// Small words that may stand between a school word and its name ("École de la Paix",
/// "Szkoła Podstawowa nr 12", "Grundschule am Park").
const LINK: &str = r"(?:(?:de|del|de\s+la|des|du|della|di|do|da|dos|das|am|an\s+der|im|auf\s+der|nr\.?|n[º°o]\.?|no\.?|č\.|im\.)\s+)?";

/// Words that may open the run before a head word without being part of the name ("At Maple
/// Grove Elementary", "The Little Acorns Daycare"), matched case-insensitively.
const LEADING: &[&str] = &[
    "the", "a", "an", "at", "in", "to", "from", "my", "our", "his", "her", "their", "your", "and",
    "or", "for", "with", "of", "on", "by", "near", "dear", "hi", "hello", "since", "then", "also",
    "but", "so", "when", "if", "after", "before", "both",
];

/// Words of the run that make it a school of adults or not a school: "Harvard Law School",
/// "Business School", "Sunday School" (a school of faith, told by its own word elsewhere).
const NOT_CHILDREN: &[&str] = &[
    "law", "business", "medical", "graduate", "dental", "nursing", "film", "art", "arts", "design",
    "driving", "language", "music", "dance", "cooking", "sunday", "summer", "night", "flight",
    "police", "military",
];

/// Head words that name a school without "School" after them and are adjectives too.
const BARE_HEADS: &[&str] = &[
    "primary",
    "elementary",
    "nursery",
    "montessori",
    "secondary",
];

/// Words of the gate: one of them must occur before a pattern runs.
const GATE: &[&str] = &[
    "elementary",
    "primary",
    "middle school",
    "high school",
    "infant school",
    "junior school",
    "secondary",
    "grammar school",
    "montessori",
    "prep",
    "nursery",
    "preschool",
    "pre-school",
    "pre-k",
    "kindergarten",
    "daycare",
    "day care",
    "childcare",
    "child care",
    "schule",
    "gymnasium",
    "kita",
    "kindertagesstätte",
    "cole",
    "collège",
    "lycée",
    "crèche",
    "scolaire",
    "colegio",
    "escuela",
    "ceip",
    "ies ",
    "guardería",
    "escola",
    "colégio",
    "creche",
    "scuola",
    "liceo",
    "istituto",
    "asilo",
    "basisschool",
    "szkoła",
    "przedszkole",
    "gimnazjum",
    "liceum",
    "škola",
    "zš ",
    "mš ",
    "skole",
    "skola",
    "koulu",
    "barnehage",
    "förskola",
    "børnehave",
    "päiväkoti",
    "okulu",
    "lisesi",
    "iskola",
    "óvoda",
    "gimnázium",
    "σχολείο",
    "δημοτικό",
    "νηπιαγωγείο",
    "γυμνάσιο",
    "λύκειο",
    "школ",
    "гимнази",
    "гімназі",
    "лице",
    "ліце",
    "детск",
    "садок",
    "小学",
    "中学",
    "高校",
    "高等学校",
    "保育園",
    "幼稚園",
    "幼儿园",
    "학교",
    "유치원",
    "어린이집",
];

/// Finds named schools, nurseries and day cares.
#[derive(Debug)]
pub(super) struct School {
    /// Capitalised words, then a school word ("Maple Grove Elementary").
    head_final: Regex,
    /// A school word, then a name or a number ("Colegio San Ignacio", "Szkoła Podstawowa nr
    /// 12").
    head_first: Regex,
    /// Greek, Russian and Ukrainian schools ("5ο Δημοτικό Σχολείο Χαλανδρίου", "школа № 57").
    other_scripts: Regex,
    /// A Han, Katakana or Hangul run ending in a school word ("桜台小学校", "한빛초등학교").
    cjk: Regex,
}

impl School {
    pub(super) fn new() -> Result<Self, Error> {
        // One gate for the four patterns: the same school words open every match.
        let gate = words_ci(GATE, Edge::Any, Edge::Any);
        let head_final = format!(r"((?:{NAME}\s+){{1,4}}(?i:{HEAD_FINAL}))(?-u:\b)");
        let head_first = format!(
            r"(?:^|[^\p{{L}}\p{{N}}_])((?i:{HEAD_FIRST})\s+{LINK}(?:(?:{NAME}|\d{{1,4}})(?:\s+(?:(?:de|del|di|da|do|y|e|la|el|le|von|van|und|i)\s+)?{NAME}){{0,3}}))"
        );
        let other = r"((?:\d{1,3}\s*[οηº]\s+)?(?:Δημοτικό\s+Σχολείο|Νηπιαγωγείο|Γυμνάσιο|Λύκειο)(?:\s+\p{Lu}\p{L}+){0,2}|(?i:школ[аеуыі]|гимнази[яюи]|гімназі[яюї]|лице[йяю]|ліце[йюя]|детск(?:ий|ого)\s+сад[уа]?|дитяч(?:ий|ого)\s+садок)\s*(?:№|N|#)\s*\d{1,4})";
        let cjk = r"((?:[\p{Han}\p{Katakana}ー]{1,10}(?:小学校|中学校|高等学校|高校|保育園|幼稚園|小学|中学|幼儿园))|(?:[가-힣]{1,10}(?:초등학교|중학교|고등학교|유치원|어린이집)))";
        Ok(School {
            head_final: regex_gated("school", &head_final, gate.clone())?,
            head_first: regex_gated("school", &head_first, gate.clone())?,
            other_scripts: regex_gated("school", other, gate.clone())?,
            cjk: regex_gated("school", cjk, gate)?,
        })
    }
}

/// The run without the small words that may open it, or `None` when nothing of a name is
/// left or the run names a school of adults.
fn trimmed(text: &str, run: Range<usize>) -> Option<Range<usize>> {
    let s = text.get(run.clone())?;
    let mut start = run.start;
    let mut rest = s;
    loop {
        let word = rest.split_whitespace().next().unwrap_or_default();
        if LEADING.iter().any(|l| word.eq_ignore_ascii_case(l)) {
            let skip = rest.find(word).unwrap_or(0) + word.len();
            let after = &rest[skip..];
            let ws = after.len() - after.trim_start().len();
            start += skip + ws;
            rest = &rest[skip + ws..];
        } else {
            break;
        }
    }
    // A name before the head word is left.
    rest.split_whitespace().nth(1)?;
    // Written in capitals only, a head word that is also an adjective ("BIGSERIAL PRIMARY",
    // "CASE ELEMENTARY") is a keyword of code or a shouted phrase, not a school's name:
    // "SPRINGFIELD ELEMENTARY SCHOOL" keeps its school word.
    let head = rest.split_whitespace().last().unwrap_or_default();
    if !rest.chars().any(char::is_lowercase)
        && BARE_HEADS.iter().any(|h| head.eq_ignore_ascii_case(h))
    {
        return None;
    }
    if rest.split_whitespace().any(|w| {
        NOT_CHILDREN.iter().any(|n| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .eq_ignore_ascii_case(n)
        })
    }) {
        return None;
    }
    Some(start..run.end)
}

/// Where the name in `r` ends at a sentence's end: a full stop after a word of three letters
/// or more ("… Los Pinos. Gracias" ends at "Pinos"; "St. Mary" and "nr. 12" go on).
fn sentence_end(text: &str, r: Range<usize>) -> usize {
    let s = text.get(r.clone()).unwrap_or_default();
    let mut at = 0;
    while let Some(p) = s.get(at..).and_then(|rest| rest.find(". ")).map(|p| at + p) {
        let word = s
            .get(..p)
            .unwrap_or_default()
            .rsplit(char::is_whitespace)
            .next()
            .unwrap_or_default();
        if word.chars().count() >= 3 {
            return r.start + p;
        }
        at = p + 2;
    }
    r.end
}

impl crate::classify::shared::Gate for School {
    fn may_find(text: &str, _field: &Field<'_>) -> bool {
        text.len() >= 6
    }
}

impl Detector for School {
    fn name(&self) -> &'static str {
        "school"
    }

    fn detect(&self, text: &str, _field: &Field<'_>, out: &mut Vec<Finding>) {
        if text.len() < 6 {
            return;
        }
        let mut push = |r: Range<usize>| {
            out.push(Finding::new(r, PsdKind::Place, 0.65, "school"));
        };
        if text.is_ascii() || text.chars().any(|c| c.is_alphabetic() && c.is_uppercase()) {
            for c in self.head_final.captures_iter(text) {
                if let Some(r) = c.get(1).and_then(|m| trimmed(text, m.range())) {
                    push(r);
                }
            }
            for c in self.head_first.captures_iter(text) {
                if let Some(m) = c.get(1) {
                    push(m.start()..sentence_end(text, m.range()));
                }
            }
        }
        if !text.is_ascii() {
            for re in [&self.other_scripts, &self.cjk] {
                for c in re.captures_iter(text) {
                    if let Some(m) = c.get(1) {
                        push(m.range());
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<String> {
        let d = School::new().unwrap();
        let field = Field::default();
        let mut out = Vec::new();
        d.detect(text, &field, &mut out);
        out.iter()
            .map(|f| text[f.span.clone()].to_owned())
            .collect()
    }

    #[test]
    fn schools_in_many_orders_and_scripts() {
        assert_eq!(
            found("At Birchwood Creek Elementary they called me"),
            ["Birchwood Creek Elementary"]
        );
        assert_eq!(
            found("she goes to Little Acorns daycare on Mondays"),
            ["Little Acorns daycare"]
        );
        assert_eq!(
            found("mein Sohn geht in die Grundschule am Lindenhof"),
            ["Grundschule am Lindenhof"]
        );
        assert_eq!(
            found("inscrit à l'École primaire Jules Ferry"),
            ["École primaire Jules Ferry"]
        );
        assert_eq!(
            found("estudia en el Colegio Santa Teresa de Jesús"),
            ["Colegio Santa Teresa de Jesús"]
        );
        // The name ends with its sentence; an abbreviation inside it does not end it.
        assert_eq!(
            found("recoge a Pablo en la guardería Los Olmos. Gracias"),
            ["guardería Los Olmos"]
        );
        assert_eq!(
            found("va al Colegio St. Michael desde enero"),
            ["Colegio St. Michael"]
        );
        assert_eq!(
            found("chodzi do Szkoła Podstawowa nr 14"),
            ["Szkoła Podstawowa nr 14"]
        );
        assert_eq!(
            found("στο 3ο Δημοτικό Σχολείο Αμαρουσίου"),
            ["3ο Δημοτικό Σχολείο Αμαρουσίου"]
        );
        assert_eq!(found("учится в школе № 57"), ["школе № 57"]);
        assert_eq!(found("娘は桜台小学校に通っています"), ["桜台小学校"]);
        assert_eq!(found("아들은 한빛초등학교에 다녀요"), ["한빛초등학교"]);
        assert_eq!(
            found("kızım Atatürk İlkokulu öğrencisi"),
            ["Atatürk İlkokulu"]
        );
    }

    #[test]
    fn bare_words_and_schools_of_adults_are_not_schools() {
        assert!(found("The school called about the trip").is_empty());
        assert!(found("I applied to Harvard Law School last year").is_empty());
        assert!(found("She teaches at a primary school in Leeds").is_empty());
        assert!(found("id BIGSERIAL PRIMARY KEY, name TEXT").is_empty());
        assert_eq!(
            found("AT SPRINGFIELD ELEMENTARY SCHOOL"),
            ["SPRINGFIELD ELEMENTARY SCHOOL"]
        );
        assert!(found("la escuela de mi hija cierra").is_empty());
        assert!(found("学校に行きます").is_empty());
    }
}
