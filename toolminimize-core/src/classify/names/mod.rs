//! Stage 2b: person names from public name lists, with context rules.
//!
//! Three sources of evidence, strongest first:
//! 1. **The field.** A key such as `first_name`, `cardholder`, `displayName`, `Nachname` or
//!    `prénom` (or a bare `name` whose description or parent object speaks of a person) and a
//!    value shaped like a name: the whole value is a name.
//! 2. **Running text.** Capitalised word sequences judged by given- and family-name lists
//!    (US Census and SSA, Faker's locales, cspell's people names, Indian and Persian lists;
//!    see `data/names/README.md`) and by the words around them: titles, relations, roles,
//!    greetings, sign-offs. Places, brands, months, ALL-CAPS words and code are excluded.
//! 3. **Handles.** The local part of an e-mail address or a `first.last` handle that is made
//!    of known names (low confidence).
//!    Russian and Ukrainian names in an oblique case are read as their nominative
//!    ("Ивану Петрову", "с Ольгой Смирновой"; see `cyrillic.rs`).
//! 4. **Caseless scripts.** Arabic, Hebrew, Devanagari, Korean and Chinese names by the
//!    native-script lists of Faker's person providers and the words around them (see
//!    `caseless.rs`).
//! 5. **Japanese script.** Family and given names in kanji by their place in a run of kanji
//!    and the honorific or kinship word around them (`田中さん`, `山田太郎`, `弟・翔太`; see
//!    `ja.rs`).

mod caseless;
mod context;
mod cyrillic;
mod field;
mod handles;
mod ja;
pub(crate) mod lists;
mod text;
mod tokens;

use self::lists::NameLists;
use super::{Detector, Field};
use crate::error::Error;
use crate::item::{Finding, PsdKind};

/// Finds person names (see the module docs).
#[derive(Debug)]
pub struct PersonNames {
    lists: &'static NameLists,
}

impl PersonNames {
    /// Builds the detector (the name lists are indexed once per process).
    pub fn new() -> Self {
        PersonNames {
            lists: NameLists::get(),
        }
    }
}

impl Default for PersonNames {
    fn default() -> Self {
        Self::new()
    }
}

impl Detector for PersonNames {
    fn name(&self) -> &'static str {
        "person_name"
    }

    fn detect(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) {
        if let Some(kind) = field::key_kind(field)
            && let Some((span, confidence)) = field::whole_value(text, kind)
        {
            out.push(Finding::new(
                span,
                PsdKind::PersonName,
                confidence,
                "person_name:field",
            ));
            return;
        }
        // The classifier hands long strings over in windows, so the whole text is scanned.
        let scanned = text;
        // A field that names a business ("restaurant", "hotel", "merchant") holds its name:
        // "Da Vittorio", "Chez Marie" are places to book, not people.
        let names = text::find(scanned, self.lists);
        let business =
            !names.is_empty() && business_field(field) && scanned.split_whitespace().count() <= 6;
        for n in names {
            if business || is_eponymous_brand(scanned.get(n.span.clone()).unwrap_or_default()) {
                continue;
            }
            out.push(Finding::new(
                n.span,
                PsdKind::PersonName,
                n.confidence,
                "person_name",
            ));
        }
        let caseless = caseless::find(scanned)
            .into_iter()
            .map(|n| (n.span, n.confidence, "person_name:caseless"));
        let ja = ja::find(scanned)
            .into_iter()
            .map(|n| (n.span, n.confidence, "person_name:ja"));
        let handles = handles::find(scanned, self.lists)
            .into_iter()
            .map(|n| (n.span, n.confidence, "person_name:handle"));
        for (span, confidence, detector) in caseless.chain(ja).chain(handles) {
            out.push(Finding::new(
                span,
                PsdKind::PersonName,
                confidence,
                detector,
            ));
        }
    }
}

/// Keys (as `field::normalise_key` gives them) of fields holding the name of a business or
/// product.
const BUSINESS_KEYS: &[&str] = &[
    "restaurant",
    "restaurantname",
    "hotel",
    "hotelname",
    "venue",
    "venuename",
    "business",
    "businessname",
    "merchant",
    "merchantname",
    "store",
    "storename",
    "shop",
    "shopname",
    "company",
    "companyname",
    "organization",
    "organisation",
    "organizationname",
    "employer",
    "brand",
    "product",
    "productname",
    "airline",
    "carrier",
    "vendor",
    "supplier",
    "bar",
    "cafe",
    "bakery",
    "winery",
    "property",
    "propertyname",
    "place",
    "placename",
    "establishment",
];

fn business_field(field: &Field<'_>) -> bool {
    field
        .key
        .is_some_and(|k| field::with_normalised_key(k, |k| BUSINESS_KEYS.contains(&k)))
}

/// Whether the name found is, or starts with, a brand named after its founder ("Ralph
/// Lauren").
fn is_eponymous_brand(found: &str) -> bool {
    let folded = crate::text::fold::fold_term(found);
    let key: String = folded
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    // The brand may run on into a product line ("Louis Vuitton Neverfull").
    context::EPONYMOUS_BRANDS.iter().any(|b| {
        key.strip_prefix(b)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
    })
}

/// Whether `word` is a known given or family name that is not also an ordinary word
/// ("Ingrid", "Marchal"; not "Garantie", not "Will").
pub(crate) fn is_known_name(word: &str) -> bool {
    let flags = NameLists::get().flags(&crate::text::fold::fold_term(word));
    flags.name() && !flags.ambiguous()
}

/// The built-in person-name detectors, built once.
///
/// # Errors
/// When an automaton cannot be built.
pub fn detectors() -> Result<Vec<Box<dyn Detector>>, Error> {
    lists::check()?;
    Ok(vec![Box::new(PersonNames::new())])
}

#[cfg(test)]
mod tests;
