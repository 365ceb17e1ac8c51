//! Locations at the precision the tool's purpose needs.
//!
//! Exact for geocoding, reverse geocoding, elevation, routes and distances, event venues,
//! deliveries, address books and address updates; city level for weather, web search, fetches
//! and "near me". Coordinates given at published precision (four decimals or fewer: a
//! landmark's, not a device fix) and named public places are not personal data.

use super::{CallView, Decision, FieldCtx, Op, Rule, is_special};
use crate::decide::purpose::ToolKind;
use crate::item::{PsdItem, PsdKind};

/// How precisely the purpose needs a place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Precision {
    /// The exact point or address.
    Exact,
    /// A city is enough.
    City,
}

pub(super) fn precision(kind: ToolKind) -> Precision {
    match kind {
        ToolKind::Weather
        | ToolKind::Search
        | ToolKind::Fetch
        | ToolKind::Places
        | ToolKind::HealthInfo
        | ToolKind::PublicPost
        | ToolKind::HealthCare
        | ToolKind::Code => Precision::City,
        _ => Precision::Exact,
    }
}

/// Decimal places of a coordinate written as `text`.
fn decimals(text: &str) -> usize {
    text.trim().split_once('.').map_or(0, |(_, f)| {
        f.chars().take_while(char::is_ascii_digit).count()
    })
}

/// A coordinate at published precision: four decimals or fewer.
fn published(text: &str) -> bool {
    decimals(text) <= 4
}

/// A coordinate given as a JSON number (a `lat`/`lon` pair of fields).
pub(super) fn coordinates(cv: &CallView<'_>, f: &FieldCtx<'_>, item: &PsdItem) -> Decision {
    // A route's coordinates are where it starts, passes or ends, whether the schema nests
    // them in an optional object (`to.coordinates`) or not.
    if precision(cv.kind) == Precision::Exact && (f.needed || cv.kind == ToolKind::Route) {
        return Decision::keep(Rule::ExactLocationForPurpose);
    }
    let text = cv
        .args
        .pointer(&item.path)
        .map(crate::args::Arg::to_json)
        .unwrap_or_default();
    if published(&text) {
        return Decision::keep(Rule::PublishedCoordinates);
    }
    Decision::drop(Op::Generalize, Rule::CityLevelForPurpose)
}

/// Words that make a place someone's home rather than a public place.
const HOME_WORDS: &[&str] = &[
    "home",
    "apartment",
    "apt",
    "flat",
    "house",
    "my",
    "our",
    "his",
    "her",
    "their",
    "unit",
    "suite",
    "wohnung",
    "zuhause",
    "haus",
    "chez",
    "maison",
    "appartement",
    "domicile",
    "casa",
    "piso",
    "apartamento",
    "appartamento",
    "woning",
    "thuis",
    "lagenhet",
    "hjemme",
    "mieszkanie",
    "byt",
    "room",
    "zimmer",
    "chambre",
    "habitacion",
    "stanza",
];

/// Whether a location value names a public place before its address ("Rijksmuseum,
/// Museumstraat 1, …") rather than someone's home.
fn names_public_place(text: &str) -> bool {
    let Some((head, _)) = text.split_once(',') else {
        return false;
    };
    let head = head.trim();
    let ws = crate::text::words::words(head);
    !ws.is_empty()
        && ws.len() <= 6
        && ws
            .first()
            .is_some_and(|w| w.raw.chars().next().is_some_and(char::is_uppercase))
        && !ws.iter().any(|w| w.raw.chars().any(|c| c.is_ascii_digit()))
        && !ws
            .iter()
            .any(|w| HOME_WORDS.contains(&w.folded.as_ref()) || w.folded.ends_with("'s"))
}

/// Whether `item` names the street of an address line: among the first words of `text`, with
/// no separator of a remark (comma, bracket, dash, colon, semicolon) before it, and nothing
/// but the house number after it ("Na Pankráci 1618/30", "Rua Harmonia"). A name followed
/// by a comma or a possessive is someone's or a venue's ("Home of Ana Ruiz, 12 Elm St"); one
/// that ends the value is the place's name.
fn opens_value(text: &str, item: &PsdItem) -> bool {
    item.span.as_ref().is_some_and(|s| {
        let rest = text.get(s.end..).unwrap_or_default();
        let before_ok = text.get(..s.start).is_some_and(|before| {
            !before.contains([',', '(', '[', '-', '–', '—', ':', ';'])
                && before.split_whitespace().count() <= 2
        });
        let number_after = rest.split(',').next().is_some_and(|seg| {
            seg.starts_with(' ') && seg.trim_start().starts_with(|c: char| c.is_ascii_digit())
        });
        // A name that ends the value is the place's own: a city or an airport named after
        // someone ("…, Tp. Hồ Chí Minh", "Aeroporto G. B. Pastine").
        rest.trim().is_empty() || before_ok && number_after
    })
}

/// An item in a field whose role is a place.
pub(super) fn field(cv: &CallView<'_>, f: &FieldCtx<'_>, item: &PsdItem) -> Decision {
    use PsdKind::*;
    let text = f.text.unwrap_or_default();
    let in_parens = super::structured::in_parentheses(text, item);
    // A place's value ends where a remark starts: a parenthetical, an appendix after a dash,
    // a reason ("after her chemo").
    let remark = item.span.as_ref().is_some_and(|s| {
        let r = f.reading.as_ref();
        in_parens
            || r.is_some_and(|r| {
                r.segment_index(s.start).is_some_and(|i| i > 0)
                    || r.clause_at(s.start)
                        .is_some_and(|c| c.reason || c.first_person)
            })
    });
    // A place field holds one place, which its value's head names ("Corner Market, 14 Main
    // St"): a second address told after a dash ("- deliver to Jo Doe, 9 Elm St") is another
    // place, not the one the field asks for.
    let second_place = matches!(item.kind, StreetAddress | Postcode)
        && item.span.as_ref().is_some_and(|s| {
            let head_end = super::head_end(text, &[" - ", " – ", " — "]);
            s.start > head_end && text.get(..head_end).is_some_and(has_street_address)
        });
    // A form's own address field (a change of address, an application, a registration) asks
    // for the address as it is, whatever else the tool's words suggest.
    let exact = precision(cv.kind) == Precision::Exact
        || (cv.fills_form || cv.registers) && !f.query
        || f.needed && !f.query && names_postal_address(f)
        || !f.query && asks_for_street(f);
    match item.kind {
        StreetAddress | Postcode if second_place => {
            Decision::drop(Op::RemoveSegment, Rule::RemarkOnValue)
        }
        StreetAddress | Coordinates | Postcode if remark && !exact => {
            Decision::drop(Op::RemoveClause, Rule::RemarkOnValue)
        }
        StreetAddress | Coordinates | Postcode | Place => {
            if exact || !f.needed && item.kind == Place {
                return Decision::keep(Rule::ExactLocationForPurpose);
            }
            match item.kind {
                Place => Decision::keep(Rule::CityLevelForPurpose),
                Coordinates
                    if item.span.as_ref().is_some_and(|s| {
                        text.get(s.clone())
                            .is_some_and(|t| t.split(',').all(published))
                    }) =>
                {
                    Decision::keep(Rule::PublishedCoordinates)
                }
                _ if names_public_place(text) => Decision::keep(Rule::PublicPlace),
                Postcode if f.needed && cv.kind != ToolKind::Weather => {
                    Decision::keep(Rule::CityLevelForPurpose)
                }
                _ => Decision::drop(Op::Generalize, Rule::CityLevelForPurpose),
            }
        }
        // A name that opens an address line, nothing but words before it, is the street's
        // ("Na Pankráci 1618/30", "ulica Adama Mickiewicza 14"): the address the call needs.
        PersonName if exact && !in_parens && opens_value(text, item) => {
            Decision::keep(Rule::ExactLocationForPurpose)
        }
        // A remark after the place ("(my chemo)", "- AA meeting 7pm") is not the place.
        _ if remark => Decision::drop(
            if in_parens {
                Op::RemoveClause
            } else {
                Op::RemoveSegment
            },
            Rule::RemarkOnValue,
        ),
        // Where a route starts (a clinic, a rehab) says why the user was there; its address
        // gets the driver to the door.
        _ if is_special(item) && is_route_start(f) && has_street_address(text) => {
            Decision::drop(Op::RemoveSpan, Rule::ExactLocationForPurpose)
        }
        // The venue a route or a meeting goes to is the place itself.
        _ if is_special(item) && precision(cv.kind) == Precision::Exact => {
            Decision::keep(Rule::ExactLocationForPurpose)
        }
        // A street named after someone ("Jacob van Lennepstraat 88-2"): the house number
        // right after it says the name is the street's.
        PersonName if exact && house_number_follows(text, item) => {
            Decision::keep(Rule::ExactLocationForPurpose)
        }
        PersonName | Username => Decision::drop(Op::RemoveSpan, Rule::Bystander),
        _ => Decision::drop(Op::RemoveSpan, Rule::CityLevelForPurpose),
    }
}

/// Whether the field's own schema asks for the street and the house number ("House number
/// and street, e.g. …", "Straße und Hausnummer", "numéro et rue"): the tool looks up that
/// very dwelling (a tax band, an energy label, a land register), whatever kind of tool it is.
fn asks_for_street(f: &FieldCtx<'_>) -> bool {
    const ASKS: &[&str] = &[
        "house number",
        "street number",
        "street and number",
        "number and street",
        "flat number",
        "apartment number",
        "hausnummer",
        "numéro de rue",
        "numéro et rue",
        "número de casa",
        "número y calle",
        "calle y número",
        "numero civico",
        "huisnummer",
        "husnummer",
        "numer domu",
        "číslo popisné",
    ];
    f.info
        .and_then(|i| i.description.as_deref())
        .is_some_and(|d| {
            let d = d.to_lowercase();
            ASKS.iter().any(|a| d.contains(a))
        })
}

/// Whether `item` ends in a street word and a house number follows it after a space ("…
/// Lennepstraat 88-2", "… Gasse 4b"): a street named after someone.
fn house_number_follows(text: &str, item: &PsdItem) -> bool {
    const STREET_ENDINGS: &[&str] = &[
        "straat", "strasse", "straße", "gasse", "weg", "laan", "plein", "gracht", "kade", "vej",
        "gade", "gata", "gatan", "veien", "vegen", "gate", "ulica", "utca",
    ];
    item.span.as_ref().is_some_and(|s| {
        let name = text.get(s.clone()).unwrap_or_default().to_lowercase();
        let rest = text.get(s.end..).unwrap_or_default();
        let after = rest.trim_start_matches(' ');
        STREET_ENDINGS.iter().any(|e| name.ends_with(e))
            && after.len() < rest.len()
            && after.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// Whether the field's key (or the object it sits in) says post or goods go to it
/// (`mailing_address`, `shipping`, `delivery_address`, `billing_address`, `lieferadresse`): a
/// letter or a parcel needs the street, whatever else the tool does.
pub(super) fn names_postal_address(f: &FieldCtx<'_>) -> bool {
    const POSTAL: &[&str] = &[
        "mailing",
        "mail",
        "postal",
        "shipping",
        "ship",
        "delivery",
        "deliver",
        "billing",
        "invoice",
        "lieferadresse",
        "rechnungsadresse",
        "postanschrift",
        "livraison",
        "facturation",
        "envio",
        "entrega",
        "spedizione",
        "consegna",
        "bezorgadres",
        "afleveradres",
        "leveransadress",
        "leveringsadresse",
    ];
    keys_name(&[f.schema_key, f.key, parent_key(f)], POSTAL)
}

/// Whether the field is a route's starting point (origin, pickup, departure), by its key or
/// the key of the object it sits in.
fn is_route_start(f: &FieldCtx<'_>) -> bool {
    const START: &[&str] = &[
        "origin",
        "origins",
        "from",
        "start",
        "departure",
        "pickup",
        "source",
        "origen",
        "salida",
        "abfahrt",
        "partenza",
        "depart",
        "abholung",
    ];
    // The key, or the object the address sits in (`/pickup/address`).
    keys_name(&[f.schema_key, parent_key(f)], START)
}

/// The key of the object the field sits in (`pickup` of `/pickup/address`).
fn parent_key<'a>(f: &FieldCtx<'a>) -> Option<&'a str> {
    f.path.rsplit('/').nth(1)
}

/// Whether a word of one of `keys` is one of `words`.
fn keys_name(keys: &[Option<&str>], words: &[&str]) -> bool {
    keys.iter()
        .flatten()
        .any(|k| crate::text::words::any_identifier_word(k, |w| words.contains(&w)))
}

/// Whether a place's text holds a street address: a house number next to a word.
fn has_street_address(text: &str) -> bool {
    text.split(',').any(|part| {
        let words: Vec<&str> = part.split_whitespace().collect();
        words.len() >= 2
            && (words
                .first()
                .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_digit()))
                || words
                    .last()
                    .is_some_and(|w| w.chars().all(|c| c.is_ascii_digit())))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_precision() {
        assert!(published("52.5163"));
        assert!(!published("39.961176"));
        assert!(published("-110.8281"));
    }

    #[test]
    fn public_places_before_addresses() {
        assert!(names_public_place(
            "Grand Museum, Museum Road 1, Springfield"
        ));
        assert!(!names_public_place("Anna's apartment, 8 Elm St"));
        assert!(!names_public_place("12 Elm St, Springfield"));
        assert!(!names_public_place("Springfield"));
    }
}
