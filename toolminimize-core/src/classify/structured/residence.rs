//! Where someone lives, said in words: "lives in 11216", "she's based in Leeds", "wohnt in
//! Köln", "habite à Lyon", "vive en Sevilla", "abita a Bari". The residence verb and a
//! preposition must come right before the place, so a city named for a forecast, a flight or
//! a search is never reported here; only a postcode or a capitalised name right after such a
//! verb is.

use crate::classify::pattern::LazyRegex as Regex;

use super::address::CITY;
use super::context::{Keywords, regex, regex_gated};
use crate::classify::pattern::{Edge, words_ci};
use crate::classify::{Detector, Field};
use crate::error::Error;
use crate::item::{Finding, PsdKind};

/// Residence verbs (EN, DE, FR, ES, IT), followed by the preposition that takes the place.
/// Moving and commuting count too ("relocating from Munich", "commutes from the Bronx",
/// "renting in Kent"), and the residence verbs of PL, CS, NL, PT and the Nordic languages.
const VERBS: &str = r"live|lives|living|lived|reside|resides|residing|resident|based|moved|relocated|relocating|relocates|commute|commutes|commuting|renting|rents|wohne|wohnt|wohnen|wohnhaft|lebe|lebt|leben|habite|habites|habitons|habitent|vit|vis|vivons|vivent|vivo|vives|vive|viven|vivimos|resido|abito|abiti|abita|abitano|abitiamo|viviamo|mieszkam|mieszka|mieszkamy|mieszkają|bydlím|bydlí|bydlíme|woon|woont|wonen|woonde|moro|mora|moramos|moram|morava|bor|bodde";
const PREPOSITIONS: &str = r"in|at|to|from|near|en|à|a|al|au|aux|im|bei|nach|cerca de|près de|vicino a|w|v|ve|i|på|em|no|na";

/// Possessives that open a mention of someone close (EN, DE, FR, ES, IT, PT, NL).
const POSSESSIVES: &str = r"my|his|her|our|their|mein|meine|meinen|meinem|meiner|sein|seine|seinem|ihre|ihrem|unsere|unserem|ma|mon|mes|sa|son|ses|notre|nos|mi|mis|su|sus|mia|mio|miei|mie|sua|suo|minha|meu|meus|minhas|seu|mijn|zijn|haar|onze";
/// Relatives, each language's words (the `relation` sets of `data/decide/words.tsv`, written
/// for this project), with an "ex-" in English.
const KIN: &str = r"(?:ex-?\s?)?(?:mother|mom|mum|father|dad|parents|folks|son|sons|daughter|daughters|kids|children|child|husband|wife|ex|partner|boyfriend|girlfriend|fianc[eé]e?|brother|brothers|sister|sisters|siblings|grandmother|grandma|grandfather|grandpa|grandparents|aunt|uncle|cousin|cousins|nephew|niece|in-laws|family)|mutter|vater|eltern|sohn|tochter|kinder|mann|frau|bruder|schwester|oma|opa|familie|m[eè]re|p[eè]re|parents|fils|fille|enfants|mari|femme|fr[eè]re|s[oœ]eur|famille|grand-m[eè]re|grand-p[eè]re|madre|padre|padres|hijo|hija|hijos|marido|esposo|esposa|hermano|hermana|familia|abuela|abuelo|genitori|figlio|figlia|figli|marito|moglie|fratello|sorella|famiglia|nonna|nonno|m[aã]e|pai|pais|filho|filha|filhos|irm[aã]o|irm[aã]|fam[ií]lia|av[oóô]|moeder|vader|ouders|zoon|dochter|kinderen|broer|zus|familie";
/// What may stand between the relative and the place: "(who) lives", "is", "still".
const KIN_LINK: &str = r"(?:,?\s+(?:who|that|der|die|qui|que|che)(?:\s+(?:still|now|noch|encore|todav[ií]a|ancora|ainda|nog))?\s+[\p{L}]+|\s+(?:still\s+|now\s+)?(?:lives|live|living|is|are|stays|staying|wohnt|wohnen|lebt|leben|habite|habitent|vit|vivent|vive|viven|abita|abitano|mora|moram|woont|wonen))?";
/// A street named without its number: capitalised words and a street word ("Halsey St",
/// "Mare Street", "Old Kent Road").
const STREET: &str = r"(?:\p{Lu}[\p{L}'’\-]*\s+){1,3}(?:St|Street|Ave|Avenue|Rd|Road|Ln|Lane|Blvd|Boulevard|Drive|Way|Ct|Court|Terrace|Pkwy|Parkway|Row|Crescent|Close|Grove|Gardens|Square|Sq)(?-u:\b)";
/// Verbs of living somewhere, without those of moving or working ("the meeting moved to Mill
/// Road", "based on Elm Street" say nothing of a home).
const LIVE_VERBS: &str = r"live|lives|living|lived|reside|resides|residing|wohne|wohnt|wohnen|habite|habites|habitons|habitent|vivo|vives|vive|viven|vivimos|resido|abito|abiti|abita|abitano|abitiamo|mieszkam|mieszka|mieszkamy|mieszkają|bydlím|bydlí|bydlíme|woon|woont|wonen|moro|mora|moramos|moram|bor|bodde";

/// A street named without its number in the other languages: a street word before the name
/// ("rue des Tanneurs", "calle Mayor", "via Garibaldi", "ulica Długa"), or a name that ends
/// in one ("Lindenstraße", "Kerkstraat", "Storgatan", "Nørregade").
const STREET_INTL: &str = r"(?:(?i:rue|avenue|boulevard|chemin|allée|impasse|calle|avenida|paseo|via|viale|corso|rua|travessa|ulica|ul\.|aleja|al\.|ulice)\s+(?:(?i:de|del|de la|des|du|della|di|do|da|dos|das)\s+)?\p{Lu}[\p{L}'’\-]*(?:\s+\p{Lu}[\p{L}'’\-]*){0,2}|\p{Lu}[\p{L}\-]*(?:straße|strasse|weg|gasse|allee|straat|laan|gracht|gatan|vägen|gade|vej|gata|gate|veien|vegen)(?-u:\b))";

/// The preposition before a town (EN, DE, FR, ES, IT, PT, NL).
const KIN_PREPOSITIONS: &str = r"in|near|out in|over in|down in|up in|back in|bei|à|en|a|em|no|na";

/// Finds places and postcodes named as someone's home.
#[derive(Debug)]
pub(super) struct Residence {
    re: Regex,
    /// Where someone close to the writer is: "her ex-husband in Round Rock", "my parents
    /// (who live) in Leeds", "meine Mutter in Köln", "mi madre en Sevilla".
    kin: Regex,
    /// The school a child goes to, which tells the family's neighbourhood: "two kids at Alder
    /// Creek Elementary", "my daughter attends Hillview Middle School".
    school: Regex,
    /// Someone's home by its street, in English: "my place on Halsey St", "our flat off Mare
    /// Street" (by its town it is where a search looks, and stays unreported).
    home: Regex,
    /// Someone's home by its street, after a residence verb ("I live on Grove Terrace",
    /// "j'habite rue des Tanneurs", "ich wohne in der Lindenstraße"), or named as an address
    /// ("the Bramley Road address").
    street_home: Regex,
    room: Regex,
    room_words: Keywords,
}

/// Words for a room, gating the room pattern.
const ROOM_WORDS: &[&str] = &[
    "room",
    "suite",
    "zimmer",
    "chambre",
    "habitación",
    "camera",
    "kamer",
    "pokój",
    "rum",
    "værelse",
];

impl Residence {
    pub(super) fn new() -> Result<Self, Error> {
        // A postcode of a layout that cannot be a year or a count (five digits, UK, Canada),
        // or a capitalised place name.
        let pattern = format!(
            r"(?i:(?-u:\b)(?:{VERBS})(?:\s+(?:with|mit|avec|con|com|met|med|z|se)(?:\s+[^\s,.;:()]+){{1,5}}?)?\s+(?:{PREPOSITIONS})\s+(?:(?:the|der|die|dem|la|le|el|il)\s+)?)(?:(\d{{5}}(?:-\d{{4}})?|[A-Z]{{1,2}}\d[A-Z\d]?\s?\d[A-Z]{{2}}|[A-Z]\d[A-Z]\s?\d[A-Z]\d)(?-u:\b)|({CITY}))"
        );
        let kin = format!(
            r"(?i:(?-u:\b)(?:{POSSESSIVES})\s+(?:{KIN}){KIN_LINK}\s+((?:{KIN_PREPOSITIONS})\s+))({CITY})"
        );
        let school = r"(?i:(?-u:\b)(?:kids|children|child|son|sons|daughter|daughters|boys|girls|twins|stepson|stepdaughter|grandson|granddaughter|grandkids|grandchildren)\s+(?:(?:both\s+)?(?:at|attends?|attending|go\s+to|goes\s+to|going\s+to|started\s+at|is\s+at|are\s+at|is\s+in\s+\w+\s+grade\s+at)\s+))((?:the\s+)?(?:\p{Lu}[\p{L}'’.\-]*\s+){1,3}(?:Elementary|Middle|High|Primary|Junior|Secondary|Grammar|Montessori|Preparatory|Prep|Nursery|Preschool|Pre-K|Kindergarten|Academy|School)(?:\s+(?:School|Academy))?)(?-u:\b)";
        let home = format!(
            r"(?i:(?-u:\b)(?:my|our|his|her|their)\s+(?:new\s+|old\s+|current\s+)?(?:place|apartment|apt|flat|house|home|condo|studio|townhouse)\s+(?:(?:is|was)\s+)?)(?i:on|off)\s+({STREET})"
        );
        let street_home = format!(
            r"(?:(?i:(?-u:\b)(?:{LIVE_VERBS})(?:\s+(?:on|in|at|off|en|à|a|em|na|no|op|på|w|v|ve|i|in der|in die|an der))?\s+(?:(?:the|la|le|el|der|die)\s+)?)({STREET}|{STREET_INTL})|(?i:(?-u:\b)(?:the|my|our|his|her|their|old|new)\s+)({STREET})\s+(?i:address|flat|house|apartment|place|home)(?-u:\b))"
        );
        Ok(Residence {
            // A match opens with a living verb, or ends with a word for the home.
            street_home: regex_gated(
                "residence",
                &street_home,
                words_ci(
                    &LIVE_VERBS
                        .split('|')
                        .chain(["address", "flat", "house", "apartment", "place", "home"])
                        .collect::<Vec<_>>(),
                    Edge::Boundary,
                    Edge::Any,
                ),
            )?,
            home: regex_gated(
                "residence",
                &home,
                words_ci(
                    &[
                        "place",
                        "apartment",
                        "apt",
                        "flat",
                        "house",
                        "home",
                        "condo",
                        "studio",
                        "townhouse",
                    ],
                    Edge::Boundary,
                    Edge::Space,
                ),
            )?,
            school: regex_gated(
                "residence",
                school,
                words_ci(
                    &[
                        "elementary",
                        "middle",
                        "high",
                        "primary",
                        "junior",
                        "secondary",
                        "grammar",
                        "montessori",
                        "prep",
                        "nursery",
                        "preschool",
                        "pre-k",
                        "kindergarten",
                        "academy",
                        "school",
                    ],
                    Edge::Boundary,
                    Edge::Boundary,
                ),
            )?,
            kin: regex_gated(
                "residence",
                &kin,
                words_ci(
                    &POSSESSIVES.split('|').collect::<Vec<_>>(),
                    Edge::Boundary,
                    Edge::Space,
                ),
            )?,
            // The verb opens every match.
            re: regex_gated(
                "residence",
                &pattern,
                words_ci(
                    &VERBS.split('|').collect::<Vec<_>>(),
                    Edge::Boundary,
                    Edge::Space,
                ),
            )?,
            // Where someone is staying: "I'm in room 1412 at the Park Hyatt", "our room 22",
            // "Zimmer 214 im Hotel Adler", "chambre 31 à l'hôtel …", "habitación 508 del …".
            room_words: Keywords::new("residence", ROOM_WORDS)?,
            room: regex(
                "residence",
                r"(?i:(?-u:\b)(?:((?:i'?m|i am|we'?re|we are|staying|stay|my|our)\s+(?:in\s+)?(?:room|suite)|(?:mein|unser)\s+zimmer|(?:ma|notre)\s+chambre|mi\s+habitación|la\s+mia\s+camera|mijn\s+kamer)|(room|suite|zimmer|chambre|habitación|camera|kamer|pokój|rum|værelse)))\s+(?:no\.?\s*|nr\.?\s*|n°\s*|#\s*)?(\d{1,5}[A-Za-z]?)(?-u:\b)",
            )?,
        })
    }
}

impl crate::classify::shared::Gate for Residence {
    fn may_find(text: &str, _field: &Field<'_>) -> bool {
        text.len() >= 10
    }
}

impl Detector for Residence {
    fn name(&self) -> &'static str {
        "residence"
    }

    fn detect(&self, text: &str, _field: &Field<'_>, out: &mut Vec<Finding>) {
        if text.len() < 10 {
            return;
        }
        if text.bytes().any(|b| b.is_ascii_digit()) && self.room_words.any_in(text) {
            for c in self.room.captures_iter(text) {
                let Some(number) = c.get(3) else { continue };
                // From the room number to the end of the hotel's name, if one follows.
                let end = hotel_after(text, number.end()).unwrap_or(number.end());
                if c.get(1).is_some() || end > number.end() {
                    out.push(Finding::new(
                        number.start()..end,
                        PsdKind::StreetAddress,
                        0.75,
                        "residence",
                    ));
                }
            }
        }
        let first = out.len();
        for c in self.re.captures_iter(text) {
            if let Some(pc) = c.get(1) {
                out.push(Finding::new(
                    pc.range(),
                    PsdKind::Postcode,
                    0.8,
                    "residence",
                ));
            } else if let Some(place) = c.get(2) {
                // A day or a month is when something moved, not where ("the call moved to
                // Thursday", "verschoben nach März").
                let head = place
                    .as_str()
                    .split([' ', '.', ','])
                    .next()
                    .unwrap_or_default();
                if crate::text::calendar::is_weekday(head) || crate::text::calendar::is_month(head)
                {
                    continue;
                }
                out.push(Finding::new(
                    place.range(),
                    PsdKind::Place,
                    0.7,
                    "residence",
                ));
            }
        }
        if text.bytes().any(|b| b.is_ascii_uppercase()) || !text.is_ascii() {
            for c in self.home.captures_iter(text) {
                if let Some(street) = c.get(1) {
                    out.push(Finding::new(
                        street.range(),
                        PsdKind::StreetAddress,
                        0.7,
                        "residence",
                    ));
                }
            }
            for c in self.street_home.captures_iter(text) {
                if let Some(street) = c.get(1).or_else(|| c.get(2)) {
                    out.push(Finding::new(
                        street.range(),
                        PsdKind::StreetAddress,
                        0.7,
                        "residence",
                    ));
                }
            }
            for c in self.school.captures_iter(text) {
                if let Some(school) = c.get(1) {
                    out.push(Finding::new(
                        school.range(),
                        PsdKind::Place,
                        0.65,
                        "residence",
                    ));
                }
            }
            for c in self.kin.captures_iter(text) {
                let (Some(prep), Some(run)) = (c.get(1), c.get(2)) else {
                    continue;
                };
                // The preposition goes with the town: "visiting my parents in" reads on.
                if let Some(len) = listed_place(run.as_str()) {
                    // A residence verb already named it ("mi madre vive en Sevilla").
                    let end = run.start() + len;
                    if out
                        .get(first..)
                        .unwrap_or_default()
                        .iter()
                        .any(|f| f.span.end == end)
                    {
                        continue;
                    }
                    out.push(Finding::new(
                        prep.start()..run.start() + len,
                        PsdKind::Place,
                        0.7,
                        "residence",
                    ));
                }
            }
        }
    }
}

/// The length of the longest head of `run` (up to three words) that the place list holds: a
/// relative's town is reported only when it is a known town, not any capitalised word after
/// "in" ("my son in Year 5", "my sister in Christ").
fn listed_place(run: &str) -> Option<usize> {
    let lists = crate::classify::names::lists::NameLists::get();
    let mut best = None;
    let mut end = 0;
    for (n, word) in run.split(' ').take(3).enumerate() {
        end += word.len() + usize::from(n > 0);
        let head = run.get(..end)?.trim_end_matches(['.', '\'', '’', '-']);
        if lists
            .flags(&crate::text::fold::fold_term(head))
            .has(crate::classify::names::lists::Flags::PLACE)
        {
            best = Some(head.len());
        }
    }
    best
}

/// The end of "at the Grand Meridian", "im Hotel Adler", "à l'hôtel Lutetia" right after a
/// room number ending at `at`.
fn hotel_after(text: &str, at: usize) -> Option<usize> {
    let rest = text.get(at..)?.strip_prefix(' ')?;
    let mut i = at + 1;
    let prep = [
        "at ", "in ", "im ", "à ", "en ", "del ", "de ", "all'", "bij ", "w ", "på ",
    ]
    .into_iter()
    .find(|p| rest.starts_with(p))?;
    i += prep.len();
    for skip in ["the ", "l'", "la ", "le ", "el ", "der ", "dem "] {
        if text.get(i..).is_some_and(|r| r.starts_with(skip)) {
            i += skip.len();
            break;
        }
    }
    super::context::capitalised_run(text, i, 5).map(|r| r.end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(String, PsdKind)> {
        let d = Residence::new().unwrap();
        let mut out = Vec::new();
        d.detect(text, &Field::default(), &mut out);
        out.iter()
            .map(|f| (text[f.span.clone()].to_owned(), f.kind))
            .collect()
    }

    #[test]
    fn residence_postcodes_and_places_in_four_languages() {
        assert_eq!(
            found("Black woman, age 44, lives in 11216 Bed-Stuy"),
            vec![("11216".to_owned(), PsdKind::Postcode)]
        );
        assert_eq!(
            found("She lives in Leeds with her kids"),
            vec![("Leeds".to_owned(), PsdKind::Place)]
        );
        assert_eq!(
            found("He is relocating from Hanover after the move"),
            vec![("Hanover".to_owned(), PsdKind::Place)]
        );
        assert_eq!(
            found("Mieszkam w Gdyni od roku"),
            vec![("Gdyni".to_owned(), PsdKind::Place)]
        );
        assert_eq!(
            found("Vi bor i Bergen nå"),
            vec![("Bergen".to_owned(), PsdKind::Place)]
        );
        assert_eq!(
            found("Er wohnt in Bad Homburg und pendelt"),
            vec![("Bad Homburg".to_owned(), PsdKind::Place)]
        );
        assert_eq!(
            found("Ma sœur habite à Clermont-Ferrand depuis 2019"),
            vec![("Clermont-Ferrand".to_owned(), PsdKind::Place)]
        );
        assert_eq!(
            found("Mi madre vive en Sevilla"),
            vec![("Sevilla".to_owned(), PsdKind::Place)]
        );
        assert_eq!(
            found("customer based in SW1A 1AA since March"),
            vec![("SW1A 1AA".to_owned(), PsdKind::Postcode)]
        );
    }

    #[test]
    fn where_someone_is_staying() {
        assert_eq!(
            found("(Emma here - I'm in room 1408 at the Grand Meridian; call me)"),
            vec![(
                "1408 at the Grand Meridian".to_owned(),
                PsdKind::StreetAddress
            )]
        );
        assert_eq!(
            found("Ich bin in Zimmer 214 im Hotel Adler"),
            vec![("214 im Hotel Adler".to_owned(), PsdKind::StreetAddress)]
        );
        assert_eq!(
            found("our room 22, ground floor"),
            vec![("22".to_owned(), PsdKind::StreetAddress)]
        );
        // A meeting room with no one staying in it.
        assert!(found("the review is in room 4 after lunch").is_empty());
        assert!(found("Room 101 is booked for the workshop").is_empty());
    }

    #[test]
    fn residence_after_who_someone_lives_with() {
        let f = found("He lives with his partner Tomasz Wilk in Gdansk and works remotely.");
        assert!(f.iter().any(|(t, _)| t == "Gdansk"), "{f:?}");
        let f = found("Sie wohnt mit ihrer Tochter in Heidelberg und pendelt.");
        assert!(f.iter().any(|(t, _)| t == "Heidelberg"), "{f:?}");
        // Past five words, the place is not tied to the verb.
        let f = found("We live with the consequences of a decision made by the board in Geneva.");
        assert!(f.is_empty(), "{f:?}");
    }

    #[test]
    fn a_home_by_its_street_without_a_number() {
        let street = |t: &str| {
            found(t)
                .into_iter()
                .filter(|(_, k)| *k == PsdKind::StreetAddress)
                .map(|(s, _)| s)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            street("I live on Alder Terrace, near the park."),
            ["Alder Terrace"]
        );
        assert_eq!(
            street("J'habite rue des Tisserands depuis 2019."),
            ["rue des Tisserands"]
        );
        assert_eq!(street("Ich wohne in der Birkenstraße."), ["Birkenstraße"]);
        assert_eq!(street("Vivo en la calle Mayor."), ["calle Mayor"]);
        assert_eq!(
            street("send the forms to me, not to the Pellow Road address"),
            ["Pellow Road"]
        );
        // A street named for something else than a home is not one.
        assert!(street("The parade goes down Main Street on Sunday.").is_empty());
        assert!(street("The meeting moved to Mill Road next week.").is_empty());
        assert!(street("the Abbey Road album").is_empty());
    }

    #[test]
    fn places_without_a_residence_verb_are_not_reported() {
        for text in [
            "weather in Leeds tomorrow",
            "flights from Madrid to Paris on 2025-03-01",
            "lives in a small flat",
            "moved in 2019 after the merger",
            "based on the 2024 figures",
            "hotels in Lyon under 120 EUR",
            "Der Live-Stream läuft in Köln",
            "the call moved to Thursday at 10",
            "the review moved to March",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }

    #[test]
    fn a_relatives_town_and_a_childs_school() {
        assert_eq!(
            found("visiting her grandparents in Sacramento next month"),
            vec![("in Sacramento".to_owned(), PsdKind::Place)]
        );
        assert!(
            found("my brother, who lives in Portland, sends his love")
                .contains(&("Portland".to_owned(), PsdKind::Place))
        );
        assert_eq!(
            found("both kids attend Birchwood Middle School now"),
            vec![("Birchwood Middle School".to_owned(), PsdKind::Place)]
        );
        assert_eq!(
            found("(my place on Halsey St)"),
            vec![("Halsey St".to_owned(), PsdKind::StreetAddress)]
        );
        // Not a town the place list holds: no place.
        assert!(found("my sister in Christ says hello").is_empty());
        assert!(found("my son in Year Five loves maths").is_empty());
    }
}
