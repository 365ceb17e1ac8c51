//! Memberships by structure: an organisation's name (capitalised words or an acronym) right
//! after a phrase of belonging to it — "member of", "Mitglied bei", "membre du", "afiliado a",
//! "iscritta al", "lid van", "medlem i/af/av", "członek", "členem". Whatever the body is
//! called, a person's membership of a union, party, church or association reveals their
//! beliefs (GDPR Art. 9: "trade union membership", "political opinions", "religious or
//! philosophical beliefs"), so the finding is a belief; the span covers the phrase and the
//! name ("Medlem af 3F"), so nothing of the statement is left behind.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

use super::context::{capitalised_run, char_at, char_before};
use crate::classify::{Detector, Field};
use crate::error::{Error, ErrorKind};
use crate::item::{Finding, PsdKind};
use crate::text::calendar::{is_month, is_weekday};

/// Phrases of belonging, in the languages the lexicons cover (matched ASCII-case-insensitively
/// at a word start; words with non-ASCII capitals are listed in both casings).
const PHRASES: &[&str] = &[
    // en
    "member of",
    "members of",
    "membership of",
    "membership in",
    "membership with",
    "card-carrying member of",
    // de
    "mitglied bei",
    "mitglied in",
    "mitglied im",
    "mitglied der",
    "mitglied des",
    "mitglied von",
    "mitglieder der",
    // fr
    "membre de",
    "membre du",
    "membre des",
    "adhérent de",
    "adhérente de",
    "adhérent du",
    "adhérente du",
    "adhérent à",
    "adhérente à",
    "syndiqué à",
    "syndiquée à",
    "syndiqué chez",
    "syndiquée chez",
    // es
    "miembro de",
    "miembro del",
    "afiliado a",
    "afiliada a",
    "afiliado al",
    "afiliada al",
    "afiliados a",
    // it
    "membro di",
    "membro del",
    "membro della",
    "iscritto a",
    "iscritta a",
    "iscritto al",
    "iscritta al",
    "iscritto alla",
    "iscritta alla",
    "tesserato",
    "tesserata",
    // pt
    "membro da",
    "membro do",
    "filiado a",
    "filiada a",
    "filiado ao",
    "filiada ao",
    "filiado à",
    "filiada à",
    // nl
    "lid van",
    "lid bij",
    "aangesloten bij",
    // sv, da, no
    "medlem i",
    "medlem av",
    "medlem af",
    "medlem hos",
    "medlemmer af",
    "medlemmer av",
    // pl
    "członek",
    "członkiem",
    "członkinią",
    "członkini",
    "należę do",
    "należy do",
    "należymy do",
    // cs
    "členem",
    "Členem",
    "členkou",
    "Členkou",
    "člen",
    "Člen",
];

/// Articles and prepositions that may sit between the phrase and the name.
const ARTICLES: &[&str] = &[
    "the ", "The ", "a ", "an ", "der ", "die ", "des ", "dem ", "den ", "la ", "le ", "les ",
    "l'", "l’", "el ", "los ", "il ", "lo ", "gli ", "de ", "het ", "o ",
];

/// Capitalised words that start a sentence or a generic noun phrase rather than an
/// organisation's name (day and month names are read from the calendar table).
const NOT_A_NAME: &[&str] = &[
    "I",
    "The",
    "A",
    "An",
    "My",
    "Our",
    "Your",
    "His",
    "Her",
    "Their",
    "This",
    "That",
    "These",
    "Those",
    "Team",
    "Staff",
    "Board",
    "Family",
    "Public",
    "Group",
    "Committee",
    "Congress",
    "Parliament",
    "Senate",
    "Council",
    "Ich",
    "Je",
    "Yo",
    "Io",
    "Jag",
    "Jeg",
    "Ik",
    "Já",
    "Ja",
    "Der",
    "Die",
    "Das",
    "Le",
    "La",
    "Les",
    "El",
    "Il",
];

/// Words of a body's name that make it a club of pastimes, sport, music or neighbours, whose
/// membership says nothing of faith, politics or a union (GDPR Art. 9 names none of them):
/// "member of the Harbour Rowing Club", "membre du Comité des habitants", "Mitglied im
/// Kammerchor". Read as lower-case parts of the name's words. "Friends" and "parents" are not
/// listed: the Religious Society of Friends is a church, and parents' groups campaign.
const LEISURE: &[&str] = &[
    "club",
    "klub",
    "kulüp",
    "choir",
    "chorus",
    "chor",
    "chorale",
    "coro",
    "orchestra",
    "orchester",
    "orchestre",
    "orquesta",
    "band",
    "league",
    "liga",
    "sportverein",
    "turnverein",
    "tennis",
    "golf",
    "football",
    "fußball",
    "futbol",
    "rugby",
    "cricket",
    "hockey",
    "running",
    "runners",
    "rowing",
    "cycling",
    "chess",
    "schach",
    "échecs",
    "bridge",
    "book",
    "garden",
    "allotment",
    "kleingarten",
    "photography",
    "hiking",
    "alpenverein",
    "residents",
    "habitants",
    "riverains",
    "anwohner",
    "vecinos",
    "vicini",
    "bewoners",
    "neighbourhood",
    "neighborhood",
    "quartier",
    "alumni",
    "pta",
];

/// Words that make a body's name a church's, a party's or a union's whatever else it holds
/// ("St Mary's Church Choir", "Labour Party Book Group"): then the membership stays a belief.
const ART9_NAME: &[&str] = &[
    "church",
    "kirche",
    "kirchen",
    "chiesa",
    "iglesia",
    "église",
    "eglise",
    "parish",
    "pfarr",
    "paroisse",
    "parroquia",
    "parrocchia",
    "mosque",
    "moschee",
    "synagog",
    "temple",
    "tempel",
    "gurdwara",
    "catholic",
    "katholisch",
    "evangel",
    "christian",
    "christlich",
    "muslim",
    "islam",
    "jewish",
    "jüdisch",
    "union",
    "gewerkschaft",
    "syndicat",
    "sindicato",
    "sindacato",
    "party",
    "partei",
    "parti",
    "partido",
    "partito",
    "labour",
    "democrat",
    "republican",
    "socialist",
    "sozialist",
    "communist",
    "kommunist",
];

/// Whether the body named `name` is a club of pastimes or neighbours and not a church, a party
/// or a union.
fn leisure_body(name: &str) -> bool {
    let lower = name.to_lowercase();
    let words = || {
        lower
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
    };
    // Short words count whole ("band" is no part of "Verband"), but for the heads of
    // compounds ("Tennisclub", "Kammerchor").
    let part = |w: &str, l: &str| {
        w == l || ((l.len() >= 5 || ["club", "klub", "chor"].contains(&l)) && w.contains(l))
    };
    let has = |list: &[&str]| words().any(|w| list.iter().any(|l| part(w, l)));
    has(LEISURE) && !has(ART9_NAME)
}

/// The body's name with the rest of its noun phrase: the lower-case words after the
/// capitalised ones ("Comité des habitants des Tilleuls"), up to a punctuation mark or
/// 48 bytes on.
fn body_phrase(text: &str, name: std::ops::Range<usize>) -> &str {
    let rest = text.get(name.end..).unwrap_or_default();
    let mut end = rest
        .find(['.', ',', ';', ':', '!', '?', '(', ')', '\n'])
        .unwrap_or(rest.len())
        .min(48);
    while !rest.is_char_boundary(end) {
        end -= 1;
    }
    text.get(name.start..name.end + end).unwrap_or_default()
}

/// Whether `word` names a day or a month in one of the covered languages.
fn calendar_word(word: &str) -> bool {
    is_weekday(word) || is_month(word)
}

/// Finds memberships of named bodies.
#[derive(Debug)]
pub(super) struct Membership {
    phrases: AhoCorasick,
}

impl Membership {
    pub(super) fn new() -> Result<Self, Error> {
        Ok(Membership {
            phrases: AhoCorasickBuilder::new()
                .kind(Some(AhoCorasickKind::DFA))
                .ascii_case_insensitive(true)
                .match_kind(MatchKind::LeftmostLongest)
                .build(PHRASES)
                .map_err(|e| Error::new(ErrorKind::Build, format!("membership phrases: {e}")))?,
        })
    }
}

/// An acronym-like token at `at` ("3F", "CCOO", "IG", "SP"): two to eight letters and digits,
/// every letter upper case, at least one letter.
fn acronym(text: &str, at: usize) -> Option<std::ops::Range<usize>> {
    let rest = text.get(at..)?;
    let len: usize = rest
        .chars()
        .take_while(|c| c.is_alphanumeric())
        .map(char::len_utf8)
        .sum();
    let word = rest.get(..len)?;
    let letters = word.chars().filter(|c| c.is_alphabetic()).count();
    let ok = (2..=8).contains(&word.chars().count())
        && letters > 0
        && word.chars().all(|c| c.is_ascii_digit() || c.is_uppercase());
    ok.then_some(at..at + len)
}

impl crate::classify::shared::Gate for Membership {
    fn may_find(text: &str, _field: &Field<'_>) -> bool {
        text.len() >= 8
    }
}

impl Detector for Membership {
    fn name(&self) -> &'static str {
        "membership"
    }

    fn detect(&self, text: &str, _field: &Field<'_>, out: &mut Vec<Finding>) {
        if text.len() < 8 {
            return;
        }
        for m in self.phrases.find_iter(text) {
            let at_word = !char_before(text, m.start()).is_some_and(char::is_alphanumeric);
            if !at_word || char_at(text, m.end()) != Some(' ') {
                continue;
            }
            let mut at = m.end() + 1;
            let rest = text.get(at..).unwrap_or("");
            if let Some(article) = ARTICLES.iter().find(|a| rest.starts_with(**a)) {
                at += article.len();
            }
            let name = capitalised_run(text, at, 5).or_else(|| acronym(text, at));
            let Some(name) = name else { continue };
            let first = text
                .get(name.clone())
                .and_then(|o| o.split_whitespace().next())
                .unwrap_or("");
            if name.len() < 2
                || NOT_A_NAME.contains(&first)
                || calendar_word(first)
                || leisure_body(body_phrase(text, name.clone()))
            {
                continue;
            }
            out.push(Finding::new(
                m.start()..name.end,
                PsdKind::Belief,
                0.6,
                "membership",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        let d = Membership::new().unwrap();
        let mut out = Vec::new();
        d.detect(text, &Field::default(), &mut out);
        out.iter()
            .filter_map(|f| text.get(f.span.clone()))
            .collect()
    }

    #[test]
    fn memberships_of_named_bodies_in_several_languages() {
        assert_eq!(
            found("I'm a member of the Riverside Tenants Union, fyi"),
            ["member of the Riverside Tenants Union"]
        );
        assert_eq!(found("Sie ist Mitglied bei Verdi."), ["Mitglied bei Verdi"]);
        assert_eq!(
            found("Han er medlem af HK og Dansk Folkeparti"),
            ["medlem af HK"]
        );
        assert_eq!(
            found("Jestem członkiem Zieloni od lat"),
            ["członkiem Zieloni"]
        );
        assert_eq!(
            found("Je suis adhérente du Parti Ouvrier"),
            ["adhérente du Parti Ouvrier"]
        );
        assert_eq!(found("Soy afiliada a USO desde 2019"), ["afiliada a USO"]);
        assert_eq!(found("Jsem členem ODS"), ["členem ODS"]);
    }

    #[test]
    fn clubs_of_pastimes_and_neighbours_are_no_beliefs() {
        assert!(found("He is a member of the Quayside Rowing Club since May").is_empty());
        assert!(found("Il est membre du Comité des habitants des Tilleuls depuis mai").is_empty());
        assert!(found("Sie ist Mitglied im Kammerchor Lindenau").is_empty());
        // A church's choir or a party's club is still a church's or a party's.
        assert_eq!(
            found("She is a member of the St Aldric Church Choir"),
            ["member of the St Aldric Church Choir"]
        );
        assert_eq!(
            found("He is a member of the Religious Society of Friends"),
            ["member of the Religious Society of Friends"]
        );
        assert_eq!(
            found("Ich bin Mitglied im Sozialverband Nordheide"),
            ["Mitglied im Sozialverband Nordheide"]
        );
    }

    #[test]
    fn generic_groups_and_lower_case_are_not_bodies() {
        assert!(found("She is a member of the team that ships the release").is_empty());
        assert!(found("Members of the Board approved the budget").is_empty());
        assert!(found("members of staff can park in lot B").is_empty());
        assert!(found("she is a Member of Parliament for the district").is_empty());
    }
}
