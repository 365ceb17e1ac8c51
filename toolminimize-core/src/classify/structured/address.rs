//! Street addresses (house number + street name) in US, UK, German, French, Spanish, Italian
//! and generic European styles, Japanese block addresses, Russian and Ukrainian, Chinese,
//! Korean, Greek, Indonesian and Vietnamese streets, postcodes in address context, and the
//! place written after an address ([`following_place`]).
//!
//! The address span covers the street part only ("10201 Carnegie Ave", "Musterstraße 12",
//! "12 avenue Jean Jaurès", "Calle Mayor 5, 3º B"), never the city after it, so an address can
//! be generalized to its city.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Captures;

use super::context::{Keywords, LastKey, by_key, char_before, regex, regex_gated};
use crate::classify::pattern::{
    Edge, Gate, LazyRegex as Regex, any_word, any_word_ci, words, words_ci,
};
use crate::classify::{Detector, Field};
use crate::error::Error;
use crate::item::{Finding, PsdKind};
use crate::text::script::is_han;

mod units;

/// Creates the units pattern before the warm-up compiles every pattern (see
/// [`units::warm_up`]).
pub(super) fn warm_up_units() {
    units::warm_up();
}

/// Street types written after the name in English-speaking countries ("63 Larch Way").
const EN_TYPES: &[&str] = &[
    "street",
    "st",
    "avenue",
    "ave",
    "av",
    "road",
    "rd",
    "boulevard",
    "blvd",
    "lane",
    "ln",
    "drive",
    "dr",
    "court",
    "ct",
    "place",
    "pl",
    "way",
    "terrace",
    "terr",
    "parkway",
    "pkwy",
    "highway",
    "hwy",
    "circle",
    "cir",
    "square",
    "sq",
    "crescent",
    "cres",
    "close",
    "grove",
    "gardens",
    "gdns",
    "mews",
    "row",
    "walk",
    "trail",
    "trl",
    "alley",
    "plaza",
    "pike",
    "loop",
    "parade",
    "esplanade",
    "embankment",
    "expressway",
    "expy",
    "freeway",
    "fwy",
    "turnpike",
    "causeway",
    "view",
    "hill",
    "heights",
    "green",
    "wharf",
    "quay",
];

/// Street-type endings of German, Dutch and Nordic compound names ("Musterstraße 12",
/// "Keizersgracht 123", "Drottninggatan 5").
const COMPOUND_TYPES: &[&str] = &[
    "straße", "strasse", "str.", "weg", "allee", "platz", "gasse", "damm", "ufer", "chaussee",
    "steig", "pfad", "ring", "graben", "markt", "stieg", "zeile", "kai", "straat", "laan", "plein",
    "gracht", "kade", "singel", "dijk", "steeg", "gatan", "gata", "vägen", "väg", "gade", "vej",
    "gate", "veien", "katu", "tie",
];

/// Street types written as separate words after the name ("Berliner Straße 5",
/// "Kutuzovsky Prospekt 24", "Andrássy út 12").
const AFTER_NAME_TYPES: &[&str] = &[
    "Straße",
    "Strasse",
    "Str.",
    "Weg",
    "Allee",
    "Platz",
    "Gasse",
    "Damm",
    "Ufer",
    "Chaussee",
    "Markt",
    "Ring",
    "Prospekt",
    "Prospect",
    "Ulitsa",
    "Pereulok",
    "Shosse",
    "Naberezhnaya",
    "Bulvar",
    "Ploshchad",
    "út",
    "utca",
    "tér",
];

/// Street types written before the name: French, Spanish, Italian, Portuguese, Polish,
/// Romanian, Malay ("12 avenue Jean Jaurès", "Calle Mayor 5", "via Roma 12", "ul. Długa 3",
/// "Jalan Mawar 3").
const FR_TYPES: &[&str] = &[
    "rue",
    "avenue",
    "av.",
    "boulevard",
    "bd",
    "bld",
    "place",
    "pl.",
    "chemin",
    "ch.",
    "allée",
    "allee",
    "impasse",
    "imp.",
    "quai",
    "cours",
    "route",
    "rte",
    "square",
    "passage",
    "faubourg",
    "rond-point",
    "esplanade",
    "promenade",
    "voie",
    "sentier",
    "cité",
    "résidence",
    "hameau",
    "parvis",
    "montée",
    "traverse",
];
const ES_IT_TYPES: &[&str] = &[
    "calle",
    "c/",
    "avenida",
    "avda.",
    "avda",
    "paseo",
    "pº",
    "plaza",
    "pza.",
    "camino",
    "carrera",
    "ronda",
    "travesía",
    "travesia",
    "glorieta",
    "carretera",
    "ctra.",
    "rambla",
    "callejón",
    "urbanización",
    "via",
    "viale",
    "v.le",
    "piazza",
    "p.za",
    "piazzale",
    "corso",
    "vicolo",
    "largo",
    "strada",
    "lungomare",
    "lungotevere",
    "contrada",
    "borgo",
    "salita",
    "rua",
    "travessa",
    "praça",
    "ul.",
    "ulica",
    "al.",
    "aleja",
    "os.",
    "strada",
    "str.",
    "bulevardul",
    "calea",
    "prospekt",
    "ulitsa",
    // Malay and Indonesian ("Jalan Mawar 3", "Lorong Bunga 5"); the Indonesian form with
    // "No." has its own pattern.
    "jalan",
    "jln.",
    "jln",
    "lorong",
    "persiaran",
    "lebuh",
];

/// Two-letter US state and territory codes.
pub(super) const US_STATES: &[&str] = &[
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS",
    "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY",
    "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV",
    "WI", "WY", "DC", "PR", "GU", "VI", "AS", "MP",
];

fn alternation(words: &[&str]) -> String {
    let mut w: Vec<&str> = words.to_vec();
    w.sort_by_key(|s| std::cmp::Reverse(s.len()));
    w.iter()
        .map(|s| regex::escape(s))
        .collect::<Vec<_>>()
        .join("|")
}

/// A capitalized name word (also `O'Connell`, `Saint-Michel`, `5th`).
const NAME: &str = r"(?:\p{Lu}[\p{L}'’.\-]*|\d{1,3}(?:st|nd|rd|th|e|ème|º|°))";
/// Linking words inside Romance street names.
const LINK: &str = r"(?:(?:de|du|des|la|le|les|l'|d'|l’|d’|à|aux|au|del|della|dei|degli|delle|dello|di|da|das|do|dos|el|los|las|y|e|et|san|santa|santo|sant'|st\.?|ste\.?)\s*)";

/// Postcode layouts: US ZIP/ZIP+4, DE/FR/ES/IT 5-digit, UK, NL, SE, CA and 4-digit ones.
const POSTCODE: &str = r"(?:\d{5}(?:-\d{4})?|[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}|\d{4}\s?[A-Z]{2}|\d{3}\s\d{2}|[A-Z]\d[A-Z]\s?\d[A-Z]\d|\d{4})";

/// Postcodes whose layout alone tells them from other codes, in capitals with the space
/// between their halves: a UK postcode (outward code, space, a digit and two of the letters
/// the Royal Mail uses inward: "NE6 5XB"), an Irish Eircode (routing key, space, four of
/// its letters and digits, a letter among them: "H91 X2PK"), a Canadian postal code ("K1A
/// 0B1"), a US ZIP code after a state's abbreviation ("OH 44129"). Group 1 is the postcode.
const SHAPED_POSTCODES: &str = r"(?-u:\b)(?:([A-Z]{1,2}\d[A-Z\d]? \d[ABD-HJLNP-UW-Z]{2})|((?:[AC-FHKNPRTV-Y]\d{2}|D6W) [0-9AC-FHKNPRTV-Y]{4})|([ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] \d[ABCEGHJ-NPRSTV-Z]\d)|(?:{STATES}),? (\d{5}(?:-\d{4})?))(?-u:\b)";

/// Field names and descriptions saying the value is a postcode.
const POSTCODE_FIELD: &[&str] = &[
    "zip",
    "postcode",
    "postal",
    "post_code",
    "plz",
    "code postal",
    "codigo postal",
    "código postal",
];

/// Finds street addresses and postcodes.
#[derive(Debug)]
pub(super) struct Address {
    streets: Vec<Regex>,
    /// Japanese block addresses; group 1 is the address.
    ja: Vec<Regex>,
    /// Streets of other writing traditions (Russian and Ukrainian, Chinese, Korean, Greek,
    /// Indonesian, Vietnamese); group 1 is the street part.
    world: Vec<Regex>,
    postcode_value: Regex,
    postcode_labelled: Regex,
    /// Postcodes whose layout alone says so, wherever they stand: see [`SHAPED_POSTCODES`].
    postcode_shaped: Regex,
    postcode_field: Keywords,
}

impl Address {
    pub(super) fn new() -> Result<Self, Error> {
        let states = US_STATES.join("|");
        let unit = r"(?:,?\s*(?i:apt|apartment|suite|ste|unit|flat|floor|fl|room|rm|#)\.?\s*#?[A-Za-z0-9\-]{1,6}(?-u:\b))?";
        let en = format!(
            r"(?-u:\b)\d{{1,6}}[A-Za-z]?(?:-\d{{1,4}})?\s+(?:(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West)\.?\s+)?(?:{NAME}\s+){{1,4}}?(?i:{})(?-u:\b)\.?(?:\s+(?:N|S|E|W|NE|NW|SE|SW)(?-u:\b))?{unit}",
            alternation(EN_TYPES)
        );
        let mut highway_codes = vec!["US", "SR", "CR", "FM", "RR", "I"];
        highway_codes.extend(US_STATES);
        let highway = format!(
            r"(?-u:\b)\d{{1,6}}\s+(?:US|SR|CR|FM|RR|I|{states})[- ]\d{{1,4}}(?-u:\b){unit}"
        );
        let number = r"\d{1,4}\s?[a-zA-Z]?(?:\s?[-/]\s?\d{1,4}[a-zA-Z]?)?(?-u:\b)";
        let compound = format!(
            r"\p{{Lu}}[\p{{L}}\-]*(?i:{})\s*{number}",
            alternation(COMPOUND_TYPES)
        );
        let after_name = format!(
            r"(?:{NAME}\s+){{1,3}}(?:{})\s*{number}",
            alternation(AFTER_NAME_TYPES)
        );
        let fr = format!(
            r"(?-u:\b)\d{{1,4}}(?:\s?(?i:bis|ter|quater)|[A-Da-d])?,?\s+(?i:{})\s+{LINK}*{NAME}(?:[\s\-]+{LINK}*{NAME}){{0,3}}",
            alternation(FR_TYPES)
        );
        let es_it = format!(
            r"(?-u:\b)(?i:{})\s+{LINK}*{NAME}(?:\s+{LINK}*{NAME}){{0,3}},?\s*(?:(?i:n[º°o]?\.?|num\.?|nr\.?)\s*)?\d{{1,4}}[A-Za-z]?(?:\s?/\s?[A-Za-z0-9]{{1,3}})?(?-u:\b)(?:,?\s*\d{{1,2}}\s?[º°ª](?:\s?[A-Z](?-u:\b)|\s?(?i:izq(?:uierda)?|dcha|derecha|izda))?)?",
            alternation(ES_IT_TYPES)
        );
        // Each street pattern holds its street types (the highway one, codes): a text with none
        // of them cannot match, and does not compile the pattern.
        let streets = vec![
            regex_gated(
                "address",
                &en,
                words_ci(EN_TYPES, Edge::Space, Edge::Boundary),
            )?,
            regex_gated("address", &highway, any_word(&highway_codes))?,
            regex_gated(
                "address",
                &compound,
                words_ci(COMPOUND_TYPES, Edge::Any, Edge::SpaceOrDigit),
            )?,
            regex_gated(
                "address",
                &after_name,
                words(AFTER_NAME_TYPES, Edge::Space, Edge::SpaceOrDigit),
            )?,
            regex_gated("address", &fr, words_ci(FR_TYPES, Edge::Space, Edge::Space))?,
            regex_gated(
                "address",
                &es_it,
                words_ci(ES_IT_TYPES, Edge::Boundary, Edge::Space),
            )?,
        ];
        // Japanese addresses name blocks, not streets: `本町3丁目5番7号`, `北24条西5丁目`,
        // `中町12番地`, and after a ward, city, town or village `北沢2-14-7`. The town name
        // before the numbers is taken in (kanji and katakana, not the ward or city).
        let town = r"[\p{Han}\p{Katakana}ー々ヶ--[都道府県市区郡村]]{0,6}";
        let num = r"[0-9０-９]{1,4}";
        let kan = r"(?:[0-9０-９]{1,3}|[一二三四五六七八九十]{1,3})";
        let dash = r"[-‐−－ー]";
        let chome = format!(
            r"({town}(?:[北南東西]?{num}条[北南東西]?)?{kan}丁目(?:{num}(?:番地?|{dash}))?(?:{num}号?)?)"
        );
        let jo = format!(r"({town}[北南東西]?{num}条[北南東西]{num}(?:丁目)?)");
        let banchi = format!(r"({town}{num}番地?(?:の?{num}号?)?)");
        // Block, lot and building written with dashes need a town name of two characters or
        // more after the ward: three numbers (`北沢2-14-7`), or two after a prefecture or city
        // and a ward (`東京都港区芝5-7`); not `区分3-2` or an article number.
        let place = r"[\p{Han}\p{Katakana}ー々ヶ--[都道府県市区郡村]]{2,7}";
        let hyphen = format!(
            r"[区町村郡]({place}[0-9０-９]{{1,3}}{dash}[0-9０-９]{{1,3}}{dash}[0-9０-９]{{1,3}})"
        );
        let hyphen2 = format!(
            r"[都道府県市]\p{{Han}}{{1,4}}[区町村郡]({place}[0-9０-９]{{1,3}}{dash}[0-9０-９]{{1,3}})"
        );
        let ja = vec![
            regex_gated("address", &chome, Some(Gate::Test(|t| t.contains("丁目"))))?,
            regex_gated("address", &jo, Some(Gate::Test(|t| t.contains('条'))))?,
            regex_gated("address", &banchi, Some(Gate::Test(|t| t.contains('番'))))?,
            regex_gated(
                "address",
                &hyphen,
                Some(Gate::Test(|t| holds_any(t, &['区', '町', '村', '郡']))),
            )?,
            regex_gated(
                "address",
                &hyphen2,
                Some(Gate::Test(|t| holds_any(t, &['区', '町', '村', '郡']))),
            )?,
        ];
        Ok(Address {
            streets,
            ja,
            world: world_streets()?,
            postcode_value: regex("postcode", &format!(r"^\s*{POSTCODE}\s*$"))?,
            postcode_labelled: regex_gated(
                "postcode",
                &format!(
                    r"(?i:zip(?:\s?code)?|post(?:al)?\s?code|plz|code postal|c\.p\.|c[oó]digo postal)\s*[:#]?\s*(?i:(?:is|ist|est|es|é|è|was)\s+)?({POSTCODE})(?-u:\b)"
                ),
                any_word_ci(&["zip", "post", "plz", "code postal", "c.p.", "digo postal"]),
            )?,
            postcode_shaped: regex("postcode", &SHAPED_POSTCODES.replace("{STATES}", &states))?,
            postcode_field: Keywords::new("postcode", POSTCODE_FIELD)?,
        })
    }
}

impl crate::classify::shared::Gate for Address {
    fn may_find(text: &str, _field: &Field<'_>) -> bool {
        super::context::has_digit(text)
    }
}

impl Detector for Address {
    fn name(&self) -> &'static str {
        "address"
    }

    fn detect(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) {
        if !text.bytes().any(|b| b.is_ascii_digit()) {
            return;
        }
        thread_local! {
            static LAST: LastKey<bool> = const { LastKey::new((String::new(), None)) };
        }
        let postcode_field = field
            .key
            .is_some_and(|k| by_key(&LAST, k, |k| self.postcode_field.any_in(k)))
            || field
                .description
                .is_some_and(|d| self.postcode_field.in_field_text(d));
        if postcode_field && self.postcode_value.is_match(text) {
            let t = text.trim();
            let start = text.len() - text.trim_start().len();
            out.push(Finding::new(
                start..start + t.len(),
                PsdKind::Postcode,
                0.9,
                "postcode",
            ));
            return;
        }
        for c in self.postcode_labelled.captures_iter(text) {
            if let Some(pc) = c.get(1) {
                out.push(Finding::new(
                    pc.range(),
                    PsdKind::Postcode,
                    0.85,
                    "postcode",
                ));
            }
        }
        if text.len() < 6 {
            return;
        }
        for c in self.postcode_shaped.captures_iter(text) {
            let Some(pc) = c.iter().skip(1).flatten().next() else {
                continue;
            };
            // An Eircode's last four hold a letter ("H91 X2PK"), not four digits.
            let eircode_digits = c
                .get(2)
                .is_some_and(|m| m.as_str().bytes().skip(4).all(|b| b.is_ascii_digit()));
            if !eircode_digits {
                out.push(Finding::new(pc.range(), PsdKind::Postcode, 0.8, "postcode"));
            }
        }
        // Japanese block addresses: kept apart, as a town name runs on from the ward before it.
        // Every one names its block with a character outside ASCII (`丁目`, `条`, `番`, a ward).
        let mut ja_end = 0usize;
        let ja: &[Regex] = if text.is_ascii() { &[] } else { &self.ja };
        for re in ja {
            for c in re.captures_iter(text) {
                let Some(m) = c.get(1) else { continue };
                if m.start() < ja_end || m.as_str().chars().count() < 3 {
                    continue;
                }
                ja_end = m.end();
                out.push(Finding::new(
                    m.range(),
                    PsdKind::StreetAddress,
                    0.85,
                    "address:ja",
                ));
            }
        }
        // A street another tradition's pattern found whole is not found again in part (the
        // flat alone after a Russian street found with its type).
        let mut world: Vec<std::ops::Range<usize>> = Vec::new();
        for re in &self.world {
            for c in re.captures_iter(text) {
                let Some(m) = c.get(1) else { continue };
                if world
                    .iter()
                    .any(|w| w.start <= m.start() && m.end() <= w.end)
                {
                    continue;
                }
                let end = trim_end(text, m.start(), m.end());
                // A street type inside a longer word is none ("Паул."); Chinese runs on.
                let inside_word =
                    char_before(text, m.start()).is_some_and(|c| c.is_alphabetic() && !is_han(c));
                if end > m.start() && !inside_word {
                    let end = units::after(text, end);
                    world.push(m.start()..end);
                    out.push(Finding::new(
                        m.start()..end,
                        PsdKind::StreetAddress,
                        0.85,
                        "address",
                    ));
                    push_postcode_after(text, end, out);
                }
            }
        }
        for re in &self.streets {
            for m in re.find_iter(text) {
                let (start, end) = (m.start(), trim_end(text, m.start(), m.end()));
                if char_before(text, start).is_some_and(|c| {
                    c.is_alphanumeric() || matches!(c, '-' | '#' | '/' | '.' | '_')
                }) {
                    continue;
                }
                if end <= start {
                    continue;
                }
                let end = units::after(text, end);
                out.push(Finding::new(
                    start..end,
                    PsdKind::StreetAddress,
                    0.85,
                    "address",
                ));
                push_postcode_after(text, end, out);
            }
        }
    }
}

/// Finds the postcode written right after a street address ending at `end`, alone or with the
/// town after it.
fn push_postcode_after(text: &str, end: usize, out: &mut Vec<Finding>) {
    if let Some(pc) =
        postcode_after(text, end).or_else(|| following_place(text, end).and_then(|p| p.postcode))
    {
        out.push(Finding::new(pc, PsdKind::Postcode, 0.85, "postcode"));
    }
}

/// Street addresses of other writing traditions, each a street and its house number (and the
/// flat or block after them), never the town: the street part is group 1.
///
/// - Russian and Ukrainian: a street type, its name, the house ("ул. Ленина, д. 5, кв. 12",
///   "вул. Хрещатик 22").
/// - Chinese: a road, street or lane and its number, with the building, unit and room after
///   it ("建国路88号3单元502室"); the city and district before it stay.
/// - Korean: after a district, city or county, a road name and its building number and the
///   flat ("테헤란로 152, 101동 1203호").
/// - Greek: a street type, the name, the number ("οδός Ερμού 25"); without the type, a
///   name and number confirmed by the postcode and town after them ("Ερμού 25, 105 63
///   Αθήνα").
/// - Indonesian: `Jl.`/`Jalan`, the name, `No.` and the number.
/// - Vietnamese: a house number, `đường`/`phố` and the street's name ("12 đường Lê Lợi"); an
///   alley's number after `ngõ`, `ngách`, `hẻm` or `kiệt`, with the house before it and the
///   street after it ("số 27 ngõ 81 Láng Hạ", "hẻm 142/9 Nguyễn Trãi").
/// - Turkish: the street's name and type (`Sokak`, `Caddesi`, `Bulvarı`, their abbreviations;
///   libpostal's Turkish street types), `No:` and the number, a neighbourhood (`Mahallesi`)
///   before them when written ("Çınar Sk. No: 5/2").
/// - Russian and Ukrainian without a street type: a name and house number closed by the flat
///   (`кв.`, "Садовая 8, кв. 212"), or the flat alone.
/// - Arabic: `شارع` and the street's name with a building, house, flat or floor number before
///   or after it ("عمارة 7، شارع الجاحظ، الشقة 12").
/// - The Philippines: block and lot of a subdivision, its name and barangay ("Blk 4 Lot 19
///   Villa Verde, Brgy. San Isidro").
/// - Czech and Slovak: a name and the two house numbers (`1234/12`), confirmed by the postcode
///   and town after them ("Lipová 1234/12, 110 00 Praha").
///
/// The flat, floor or block written after any of them is taken in (see `units`).
fn world_streets() -> Result<Vec<Regex>, Error> {
    let cyr_num = r"\d{1,4}[\p{Cyrillic}]?(?:[/\-]\d{1,4})?";
    let cyr_extra = r"(?:,?\s*(?:корп\.|корпус|стр\.|строение|кв\.|квартира|оф\.|офис|к\.)\s*\d{1,4}[\p{Cyrillic}]?)*";
    let cyrillic = format!(
        r"((?:ул\.|улица|вул\.|вулиця|просп\.|проспект|пр-т|пр-кт|пер\.|переулок|провулок|бул\.|бульвар|б-р|шоссе|наб\.|набережная|пл\.|площадь|площа)\s*[\p{{Cyrillic}}\d][\p{{Cyrillic}}\d.\-]*(?:\s[\p{{Cyrillic}}][\p{{Cyrillic}}.\-]*){{0,3}},?\s*(?:д\.|дом|буд\.|будинок)?\s*{cyr_num}{cyr_extra})"
    );
    let han_name = r"[\p{Han}--[省市区區县縣镇鎮乡鄉]]{1,8}";
    let han_num = r"[0-9０-９]{1,5}";
    let chinese = format!(
        r"({han_name}(?:路|街|大道|大街|巷|胡同|弄){han_num}(?:号|號)(?:[0-9０-９一二三四五六七八九十]{{1,4}}(?:号楼|號樓|栋|棟|单元|單元|层|層|楼|樓|室|号|號)){{0,4}})"
    );
    let korean = r"\p{Hangul}{1,8}(?:구|군|시)\s+(\p{Hangul}{1,10}(?:로|길)\s?\d{1,4}(?:-\d{1,4})?(?:,?\s?\d{1,4}동\s?\d{1,5}호)?)";
    let greek = r"((?:οδός|οδό|οδού|Οδός|Οδό|Οδού|Λεωφόρος|Λεωφόρο|Λεωφόρου|Λεωφ\.)\s+\p{Greek}+(?:\s\p{Greek}+){0,3}\s\d{1,4}[Α-Ωα-ω]?)";
    let indonesian = r"(?-u:\b)((?:Jl\.|Jln\.|Jalan)\s*\p{Lu}[\p{L}.\-]*(?:\s+\p{Lu}[\p{L}.\-]*){0,4},?\s+(?:No\.?|Nomor)\s?\d{1,4}[A-Za-z]?)";
    let vietnamese = r"((?:[Ss]ố\s)?\d{1,4}[A-Z]?(?:/\d{1,4})?,?\s(?:đường|phố|Đường|Phố)\s\p{Lu}\p{L}*(?:\s\p{Lu}\p{L}*){0,4})";
    let alley = r"(?:ngõ|ngách|hẻm|kiệt|Ngõ|Ngách|Hẻm|Kiệt)";
    let vietnamese_alley = format!(
        r"((?:(?:[Ss]ố\s)?\d{{1,4}}[A-Z]?(?:/\d{{1,4}})*,?\s)?{alley}\s\d{{1,4}}[A-Z]?(?:/\d{{1,4}})*(?:,?\s{alley}\s\d{{1,4}}(?:/\d{{1,4}})*)*(?:,?\s(?:(?:đường|phố|Đường|Phố)\s)?\p{{Lu}}\p{{L}}*(?:\s\p{{Lu}}\p{{L}}*){{0,4}})?)"
    );
    let tr_word = r"(?:\p{Lu}[\p{L}'’\-]*|\d{1,5}\.)";
    let turkish = format!(
        r"((?:(?:{tr_word}\s+){{1,3}}(?i:mahallesi|mah\.|mh\.)\s*,?\s*)?(?:{tr_word}\s+){{1,3}}(?i:caddesi|cadde|cad\.|cd\.|sokağı|sokagi|sokak|sok\.|sk\.|bulvarı|bulvari|bulvar|blv\.|yolu)\s*,?\s*(?i:no|numara)\s*[:.]?\s*\d{{1,4}}[A-Za-z]?(?:\s*/\s*\d{{1,4}}[A-Za-z]?)?)"
    );
    let cyrillic_flat = r"((?:(?:[\p{Lu}&&\p{Cyrillic}][\p{Cyrillic}'’\-]*\s){1,3}\d{1,4}[\p{Cyrillic}]?(?:[/\-]\d{1,4})?,?\s*)?(?:кв\.|квартира)\s?\d{1,4}(?-u:\b))";
    let czech =
        r"((?:\p{Lu}[\p{L}'’.\-]*\s){1,3}\d{1,5}/\d{1,4}[a-z]?)(?:,\s*|\s+)\d{3}\s?\d{2}\s+\p{Lu}";
    let greek_postcode = r"((?:[\p{Lu}&&\p{Greek}][\p{Greek}'’.\-]*\s){1,3}\d{1,4}[Α-Ωα-ω]?)(?:,\s*|\s+)(?:Τ\.?\s?Κ\.?\s*)?\d{3}\s?\d{2}\s+[\p{Lu}&&\p{Greek}]";
    // Arabic: a street (`شارع`) with a building, house, flat or floor number before or after
    // it ("عمارة 7، شارع الجاحظ، الشقة 12").
    let ar_unit =
        r"(?:عمارة|عماره|بناية|بنايه|مبنى|منزل|بيت|فيلا|رقم|الشقة|شقة|الطابق|طابق)\s*[0-9٠-٩]{1,4}";
    let ar_street = r"شارع\s+[\p{Arabic}&&\p{L}]+(?:\s+[\p{Arabic}&&\p{L}]+){0,3}";
    let arabic = format!(
        r"((?:{ar_unit}\s*[،,]?\s*)+{ar_street}(?:\s*[،,]?\s*{ar_unit})*|{ar_street}(?:\s*[،,]?\s*{ar_unit})+)"
    );
    // The Philippines: block and lot of a subdivision, then its name and barangay ("Blk 4
    // Lot 19 Villa Verde, Brgy. San Isidro").
    let philippine = r"((?i:blk|block)\.?\s*\d{1,4}[A-Z]?\s*,?\s*(?i:lot)\.?\s*\d{1,4}[A-Z]?(?:\s*,?\s*(?i:phase|ph\.)\s*\d{1,2}[A-Z]?)?(?:\s+\p{Lu}[\p{L}.\-]*){0,4}(?:\s*,\s*(?:Brgy\.?|Barangay)\s+\p{Lu}[\p{L}.\-]*(?:\s+\p{Lu}[\p{L}.\-]*){0,2})?)";
    Ok(vec![
        regex_gated(
            "address",
            &vietnamese_alley,
            Some(Gate::Test(|t| {
                !t.is_ascii()
                    && ["ngõ", "ngách", "hẻm", "kiệt", "Ngõ", "Ngách", "Hẻm", "Kiệt"]
                        .iter()
                        .any(|w| t.contains(w))
            })),
        )?,
        regex_gated(
            "address",
            &turkish,
            words_ci(
                &[
                    "caddesi", "cadde", "cad.", "cd.", "sokağı", "sokagi", "sokak", "sok.", "sk.",
                    "bulvarı", "bulvari", "bulvar", "blv.", "yolu",
                ],
                Edge::Any,
                Edge::Any,
            ),
        )?,
        regex_gated("address", czech, Some(Gate::Test(|t| t.contains('/'))))?,
        regex_gated(
            "address",
            &cyrillic,
            Some(Gate::Test(|t| {
                !t.is_ascii()
                    && ["ул", "вул", "пр", "пер", "бул", "б-р", "шоссе", "наб", "пл"]
                        .iter()
                        .any(|w| t.contains(w))
            })),
        )?,
        regex_gated(
            "address",
            &chinese,
            Some(Gate::Test(|t| holds_any(t, &['号', '號']))),
        )?,
        regex_gated(
            "address",
            korean,
            Some(Gate::Test(|t| holds_any(t, &['로', '길']))),
        )?,
        regex_gated(
            "address",
            greek,
            Some(Gate::Test(|t| {
                t.contains("οδ") || t.contains("Οδ") || t.contains("Λεωφ")
            })),
        )?,
        regex_gated(
            "address",
            greek_postcode,
            Some(Gate::Test(|t| {
                !t.is_ascii() && t.chars().any(|c| ('\u{391}'..='\u{3a9}').contains(&c))
            })),
        )?,
        regex_gated(
            "address",
            indonesian,
            Some(Gate::Test(|t| t.contains("Jl") || t.contains("Jalan"))),
        )?,
        regex_gated(
            "address",
            vietnamese,
            Some(Gate::Test(|t| {
                t.contains("đường") || t.contains("phố") || t.contains("Đường") || t.contains("Phố")
            })),
        )?,
        regex_gated(
            "address",
            &arabic,
            Some(Gate::Test(|t| !t.is_ascii() && t.contains("شارع"))),
        )?,
        regex_gated(
            "address",
            philippine,
            Some(Gate::Test(|t| {
                ["Lot", "lot", "LOT"].iter().any(|w| t.contains(w))
                    && ["Blk", "blk", "BLK", "Block", "block", "BLOCK"]
                        .iter()
                        .any(|w| t.contains(w))
            })),
        )?,
        regex_gated(
            "address",
            cyrillic_flat,
            Some(Gate::Test(|t| {
                !t.is_ascii() && (t.contains("кв.") || t.contains("квартира"))
            })),
        )?,
    ])
}

/// Whether `text` holds one of `chars`, none of them ASCII: an ASCII text (most values) is
/// told at once; another has one byte search for each (a search for a set of characters
/// decodes every character of the text, several times slower on a long text).
fn holds_any(text: &str, chars: &[char]) -> bool {
    !text.is_ascii() && chars.iter().any(|&c| text.contains(c))
}

/// Drops trailing spaces, commas and hyphens from a match.
fn trim_end(text: &str, start: usize, end: usize) -> usize {
    let s = text.get(start..end).unwrap_or("");
    start + s.trim_end_matches([' ', ',', '-', '\u{a0}']).len()
}

/// The place written right after a street address: ", Cleveland OH", ", 31000 Toulouse",
/// ", Fremont, CA 94538", ", London NW1 6XE".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FollowingPlace {
    /// The whole trailing segment, from the end of the address (separators included).
    pub span: Range<usize>,
    /// The city or locality.
    pub city: Range<usize>,
    /// A state, province or region, when written.
    pub region: Option<Range<usize>>,
    /// A postcode, when written.
    pub postcode: Option<Range<usize>>,
}

struct PlacePatterns {
    /// `, 31000 Toulouse`, `, D-10115 Berlin`, `, 1012 AB Amsterdam`, `, 00184 Roma (RM)`.
    postcode_city: Regex,
    /// `, 3014 GJ` ending the text or a clause: a postcode with no city after it.
    postcode_only: Regex,
    /// `, Fremont, CA 94538`, ` Cleveland OH`.
    us: Regex,
    /// `, London NW1 6XE`, `, Cleveland`, `, Bath, Somerset`.
    generic: Regex,
}

pub(super) const CITY: &str = r"\p{Lu}[\p{L}'’.\-]*(?:[ \-](?:(?:am|an|im|de|du|la|le|sur|sous|en|del|di|d'|l')[ \-])?\p{Lu}\p{Ll}[\p{L}'’.\-]*){0,2}";

/// Each compiled on first use (a text after an address that cannot match does not compile it).
static PLACE: LazyLock<PlacePatterns> = LazyLock::new(place_patterns);

fn place_patterns() -> PlacePatterns {
    // A house-number suffix ("145-B", "12a", "7/2"), then a unit or a floor ("apt 3",
    // "2.º Dto", "3.º esq.").
    let unit = r"(?:(?:-?[A-Za-z]|/\d{1,3})(?-u:\b))?(?:,?\s*(?:(?i:apt|apartment|suite|ste|unit|flat|floor|room|piso|planta|escalera|esc\.|étage|bât\.|bâtiment|interno|int\.|scala)\.?\s*#?[A-Za-z0-9\-]{1,6}|\d{1,2}\.?\s?[º°ª]\s?(?:(?i:esq|dto|dt|dir|fte|frente)\.?|[A-Z])?))?";
    let postcode_city = format!(
        r"^{unit}(?:\s*,\s*|\s+[-–]\s+|\s+)(?:[A-Z]{{1,2}}-)?(\d{{5}}|\d{{4}}\s?[A-Z]{{2}}(?-u:\b)|\d{{4}}-\d{{3}}|\d{{2}}-\d{{3}}|\d{{3}}\s\d{{2}}|\d{{4}})\s+({CITY})(?:\s+\(?([A-Z]{{2}})\)?(?-u:\b))?"
    );
    let postcode_only = format!(
        r"^{unit}(?:\s*,\s*|\s+[-–]\s+|\s+)(?:[A-Z]{{1,2}}-)?(\d{{5}}|\d{{4}}\s?[A-Z]{{2}}|\d{{4}}-\d{{3}}|\d{{2}}-\d{{3}})(?-u:\b)(?:\s*$|\s*[,;.)\n])"
    );
    let us = format!(
        r"^{unit}(?:\s*,\s*|\s+)(\p{{Lu}}[\p{{L}}.'\-]*(?:\s\p{{Lu}}[\p{{L}}.'\-]*){{0,2}}),?\s+({})(?-u:\b)(?:,?\s+(\d{{5}}(?:-\d{{4}})?)(?-u:\b))?",
        US_STATES.join("|")
    );
    let generic = format!(
        r"^{unit}\s*,\s*({CITY})(?:,\s*(\p{{Lu}}[\p{{L}}\-]+(?:\s\p{{Lu}}[\p{{L}}\-]+)?))?(?:,?\s+([A-Z]{{1,2}}\d[A-Z\d]?\s?\d[A-Z]{{2}})(?-u:\b))?"
    );
    PlacePatterns {
        // A postcode's digits.
        postcode_city: Regex::new(
            "address place",
            postcode_city,
            Some(Gate::Test(|t| t.chars().any(char::is_numeric))),
        ),
        postcode_only: Regex::new(
            "address place",
            postcode_only,
            Some(Gate::Test(|t| t.chars().any(char::is_numeric))),
        ),
        us: Regex::new("address place", us, any_word(US_STATES)),
        // The comma before the city.
        generic: Regex::new(
            "address place",
            generic,
            Some(Gate::Test(|t| t.contains(','))),
        ),
    }
}

/// Compiles the place patterns (once per process).
///
/// # Errors
/// The first that does not compile, as a build error.
#[cfg(test)]
pub(crate) fn check_patterns() -> Result<(), crate::error::Error> {
    let _ = &*PLACE;
    crate::classify::pattern::compile_all();
    if crate::classify::shared::failed() {
        return Err(crate::error::Error::new(
            crate::error::ErrorKind::Build,
            "address place pattern",
        ));
    }
    Ok(())
}

fn shifted(c: &Captures<'_>, i: usize, base: usize) -> Option<Range<usize>> {
    c.get(i).map(|m| base + m.start()..base + m.end())
}

/// A postcode of a distinctive layout (5 digits, `1234 AB`, `1234-567`, `12-345`) written
/// right after the street address ending at `address_end`, with no city after it.
fn postcode_after(text: &str, address_end: usize) -> Option<Range<usize>> {
    let rest = text.get(address_end..)?;
    let c = PLACE.postcode_only.captures(rest)?;
    shifted(&c, 1, address_end)
}

/// The city, region and postcode written right after the street address ending at
/// `address_end` in `text`, if any.
pub fn following_place(text: &str, address_end: usize) -> Option<FollowingPlace> {
    let rest = text.get(address_end..)?;
    let p = &*PLACE;
    if let Some(c) = p.postcode_city.captures(rest) {
        return Some(FollowingPlace {
            span: shifted(&c, 0, address_end)?,
            city: shifted(&c, 2, address_end)?,
            region: shifted(&c, 3, address_end),
            postcode: shifted(&c, 1, address_end),
        });
    }
    if let Some(c) = p.us.captures(rest) {
        return Some(FollowingPlace {
            span: shifted(&c, 0, address_end)?,
            city: shifted(&c, 1, address_end)?,
            region: shifted(&c, 2, address_end),
            postcode: shifted(&c, 3, address_end),
        });
    }
    let c = p.generic.captures(rest)?;
    Some(FollowingPlace {
        span: shifted(&c, 0, address_end)?,
        city: shifted(&c, 1, address_end)?,
        region: shifted(&c, 2, address_end),
        postcode: shifted(&c, 3, address_end),
    })
}

#[cfg(test)]
mod tests;
