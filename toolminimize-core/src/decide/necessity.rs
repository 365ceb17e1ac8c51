//! Decides, per PSD item, whether the tool needs it and which rewrite applies.
//!
//! The order of the rules:
//! 1. policy: strict mode makes every item unnecessary; `x-minimize: keep` keeps;
//! 2. consent: a value the user's own words (`task_context`) contain is kept;
//! 3. schema: PSD in a field the tool does not need is unnecessary — unless the field exists
//!    to carry that kind of data (`x-psd-category`, or a field named for it such as `email`,
//!    `attendees`, `phone`), then it is kept;
//! 4. tool handlers: locations are generalized to city level except for routes; a required
//!    structured field (a name, a card number, a passport number) is kept;
//! 5. free text: a query or message keeps its topic (the first special-category term of its
//!    first clause) and loses the rest; identifiers are kept only where the tool's purpose
//!    needs them (contact details in a message to a person, an IBAN in a payment).
//!
//! Every decision names its rule, which the report carries.

use std::ops::Range;

use serde_json::Value;

use crate::text::clauses::{Clause, clause_of, clauses, segment_of, segments};
use super::consent::Consent;
use super::profile::{FieldRole, ToolKind, field_role};
use crate::schema::{FieldInfo, MinimizeDirective, SchemaIndex};
use crate::text::fold::{fold, fold_term};
use crate::item::{PsdItem, PsdKind};
use crate::policy::Policy;
use crate::taxonomy::Category;

/// The rewrite chosen for one item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Leave it.
    Keep,
    /// Drop the whole field (or give a required one its least informative valid value).
    RemoveField,
    /// Cut the item's span (with its label and leading function words).
    RemoveSpan,
    /// Cut the clause holding the item.
    RemoveClause,
    /// Cut the whole query segment (an appendix after a dash) holding the item.
    RemoveSegment,
    /// Make it coarser (address → city, coordinates → ~1 km, date of birth → year).
    Generalize,
    /// Replace it with a placeholder.
    Substitute,
    /// Cut the field's text to a length.
    Truncate(usize),
}

/// The decision for one item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// Whether the tool needs the item as it is.
    pub necessary: bool,
    /// The rewrite.
    pub op: Op,
    /// The rule that decided, for the report.
    pub rule: &'static str,
}

impl Decision {
    const fn keep(rule: &'static str) -> Self {
        Decision {
            necessary: true,
            op: Op::Keep,
            rule,
        }
    }
    const fn drop(op: Op, rule: &'static str) -> Self {
        Decision {
            necessary: false,
            op,
            rule,
        }
    }
}

/// What the analyzer knows about the call.
#[derive(Debug, Clone, Copy)]
pub struct CallContext<'a> {
    /// The tool kind.
    pub kind: ToolKind,
    /// The policy.
    pub policy: &'a Policy,
    /// The arguments.
    pub args: &'a Value,
    /// What the user's own words consent to.
    pub consent: Option<&'a Consent>,
}

const WEATHER_WORDS: &[&str] = &[
    "weather",
    "forecast",
    "wind",
    "windy",
    "rain",
    "snow",
    "temperature",
    "humidity",
    "storm",
    "sunny",
    "meteo",
    "wetter",
    "vorhersage",
    "regen",
    "meteo",
    "previsions",
    "prevision",
    "pluie",
    "tiempo",
    "pronostico",
    "lluvia",
    "clima",
    "previsioni",
    "pioggia",
    "tempo",
];

const OPERATORS: &[&str] = &[
    "from:",
    "to:",
    "cc:",
    "bcc:",
    "subject:",
    "author:",
    "user:",
    "assignee:",
    "label:",
    "in:",
    "site:",
];

fn is_special_kind(item: &PsdItem) -> bool {
    item.category.is_special() || item.kind == PsdKind::FinancialDistress
}

/// What can be the topic of a text: special-category data, or what a person's own matter is
/// about (a divorce, a debt).
fn is_topic_candidate(item: &PsdItem) -> bool {
    is_special_kind(item) || matches!(item.kind, PsdKind::Family | PsdKind::Preference)
}

fn role_carries(role: FieldRole, kind: PsdKind) -> bool {
    use PsdKind::*;
    match role {
        FieldRole::Email => matches!(kind, Email | PersonName | Username),
        FieldRole::Phone => matches!(kind, Phone),
        FieldRole::PersonName => matches!(kind, PersonName | Username),
        FieldRole::Recipient => matches!(kind, Email | Phone | PersonName | Username | AccountId),
        FieldRole::BirthDate => matches!(kind, DateOfBirth | Age),
        FieldRole::Location => matches!(kind, StreetAddress | Coordinates | Postcode | Place),
        _ => false,
    }
}

fn key_carries(info: Option<&FieldInfo>, kind: PsdKind) -> bool {
    // Field names that say what they carry, beyond the roles: ids, cards, accounts.
    let Some(key) = info.and_then(|i| i.key.as_deref()) else {
        return false;
    };
    let k = key.to_lowercase();
    let has = |w: &[&str]| w.iter().any(|x| k.contains(x));
    use PsdKind::*;
    match kind {
        CardNumber => has(&["card"]),
        Iban | BankAccount => has(&[
            "iban",
            "account",
            "recipient",
            "payee",
            "beneficiary",
            "bank",
        ]),
        Passport => has(&["passport", "document"]),
        NationalId | Ssn | TaxId | DriverLicence => has(&[
            "ssn",
            "national",
            "tax",
            "licen",
            "id_number",
            "document",
            "nif",
            "dni",
        ]),
        MedicalRecord => has(&["mrn", "record", "patient"]),
        Credential => has(&["token", "key", "password", "secret", "auth"]),
        Postcode => has(&["zip", "postal", "postcode", "plz"]),
        Phone => has(&["phone", "recipient", "mobile", "tel"]),
        Email => has(&["email", "mail", "recipient", "contact"]),
        Coordinates => has(&["lat", "lon", "lng", "coord", "location", "position"]),
        DateOfBirth => has(&["birth", "dob"]),
        PersonName => has(&["name", "holder", "recipient", "contact"]),
        AccountId => has(&["id", "number", "account", "member", "booking", "order"]),
        _ => false,
    }
}

fn text_at<'a>(args: &'a Value, path: &str) -> Option<&'a str> {
    args.pointer(path).and_then(Value::as_str)
}

fn span_text<'a>(args: &'a Value, item: &PsdItem) -> Option<&'a str> {
    let s = text_at(args, &item.path)?;
    match &item.span {
        Some(r) => s.get(r.clone()),
        None => Some(s),
    }
}

fn consented(ctx: &CallContext<'_>, item: &PsdItem) -> bool {
    let Some(c) = ctx.consent else { return false };
    c.allows_kind(item.kind) || span_text(ctx.args, item).is_some_and(|v| c.allows_value(v))
}

/// Per-field facts shared by the items of that field.
struct FieldView<'a> {
    info: Option<&'a FieldInfo>,
    role: FieldRole,
    text: Option<&'a str>,
    clauses: Vec<Clause>,
    /// Indices (into the call's items) of the field's topic items.
    topic: Vec<usize>,
    weather: bool,
    /// A search-like field: one topic, appendices dropped whole.
    query: bool,
    /// Segment index of each byte range start (queries only).
    segments: Vec<Range<usize>>,
    /// Whether the field holds anything besides names and places (a condition, a phone
    /// number, an address): then a name in it ties a person to that data.
    has_other_data: bool,
}

fn weather_intent(ctx: &CallContext<'_>, text: Option<&str>) -> bool {
    if ctx.kind == ToolKind::Weather {
        return true;
    }
    let Some(t) = text else { return false };
    let f = fold(t);
    f.as_str()
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| WEATHER_WORDS.contains(&w))
}

fn recipient_is_financial(args: &Value) -> bool {
    let Some(obj) = args.as_object() else {
        return false;
    };
    obj.iter()
        .filter(|(k, _)| {
            let k = k.to_lowercase();
            ["to", "recipient", "recipients", "cc"]
                .iter()
                .any(|x| k == *x)
        })
        .any(|(_, v)| {
            let s = v.to_string().to_lowercase();
            [
                "bank",
                "banque",
                "banca",
                "banco",
                "sparkasse",
                "credit",
                "finance",
                "billing",
                "accounts",
            ]
            .iter()
            .any(|w| s.contains(w))
        })
}

fn view<'a>(
    ctx: &CallContext<'a>,
    schema: &'a SchemaIndex,
    items: &[PsdItem],
    idx: &[usize],
) -> FieldView<'a> {
    let first = idx.first().and_then(|&i| items.get(i));
    let path = first.map(|i| i.path.as_str()).unwrap_or_default();
    let info = schema.field(path);
    let text = text_at(ctx.args, path);
    let role = field_role(
        info.and_then(|i| i.key.as_deref())
            .or_else(|| path.rsplit('/').next()),
        info.and_then(|i| i.description.as_deref()),
        text.unwrap_or_default(),
    );
    let cl = text.map(clauses).unwrap_or_default();
    let weather = role.is_free_text() && weather_intent(ctx, text);
    // The topic: the first special-category item of the topic region, plus an item right
    // next to it (a drug and its procedure: "Remicade infusion").
    let mut topic = Vec::new();
    let topic_region_whole = ctx.kind == ToolKind::Payment && role == FieldRole::Title;
    let query = role == FieldRole::Query
        || (matches!(
            ctx.kind,
            ToolKind::Search | ToolKind::Places | ToolKind::Health | ToolKind::Fetch
        ) && role == FieldRole::Title);
    let message_has_topic = match ctx.kind {
        ToolKind::Delegation
        | ToolKind::Support
        | ToolKind::Search
        | ToolKind::Health
        | ToolKind::Travel
        | ToolKind::Shopping
        | ToolKind::Places
        | ToolKind::Fetch
        | ToolKind::Generic => true,
        ToolKind::Email | ToolKind::Messaging => recipient_in_domain(ctx.args),
        _ => false,
    };
    // A query with search operators ("from:x@y") names its target with them.
    let has_operators = query
        && text.is_some_and(|t| {
            let l = t.to_lowercase();
            OPERATORS.iter().any(|op| l.contains(op))
        });
    let has_topic = role.is_free_text()
        && !weather
        && !has_operators
        && (query || topic_region_whole || (role == FieldRole::Message && message_has_topic));
    if has_topic && let Some(t) = text {
        // The topic region: the first clause, or the second when the first only greets or
        // names the reader ("Hi Dana, …", "Inés, …").
        let greeting = cl.first().is_some_and(|f| is_greeting(t, &f.range))
            && cl
                .get(1)
                .is_some_and(|c| c.sentence == 0 && !c.parenthetical);
        let in_region = |it: &PsdItem| {
            topic_region_whole
                || it
                    .span
                    .as_ref()
                    .and_then(|s| clause_of(&cl, s.start))
                    .is_some_and(|c| c == 0 || (c == 1 && greeting))
        };
        if let Some(&ti) = idx.iter().find(|&&i| {
            items
                .get(i)
                .is_some_and(|it| is_topic_candidate(it) && in_region(it))
        }) {
            topic.push(ti);
            if topic_region_whole {
                // A payment memo names its payee: every item of the payee's category.
                let cat = items.get(ti).map(|it| it.category);
                topic.extend(
                    idx.iter()
                        .copied()
                        .filter(|&j| j != ti && items.get(j).map(|it| it.category) == cat),
                );
            }
            let end = items
                .get(ti)
                .and_then(|it| it.span.clone())
                .map_or(0, |s| s.end);
            if let Some(&next) = idx.iter().find(|&&j| {
                items
                    .get(j)
                    .and_then(|it| it.span.clone())
                    .is_some_and(|s| {
                        s.start >= end
                            && t.get(end..s.start).is_some_and(|gap| gap.trim().is_empty())
                    })
                    && items.get(j).is_some_and(is_special_kind)
            }) {
                topic.push(next);
            }
            // A search for a place names what it needs of the place: "pharmacy with
            // emergency contraception", "clinic for HIV testing". Such a requirement, a few
            // words on in the same clause and not about the user, is the topic too. (A drug
            // looked up "for" a condition is another matter: that is the patient's story.)
            let place_sought = ctx.kind == ToolKind::Places
                || items
                    .get(ti)
                    .is_some_and(|it| it.kind == PsdKind::HealthFacility);
            if query && place_sought {
                let clause = clause_of(&cl, end.saturating_sub(1));
                topic.extend(idx.iter().copied().filter(|&j| {
                    items.get(j).is_some_and(|it| {
                        is_special_kind(it)
                            && it.span.as_ref().is_some_and(|s| {
                                s.start >= end
                                    && clause_of(&cl, s.start) == clause
                                    && t.get(end..s.start).is_some_and(is_requirement_link)
                            })
                    })
                }));
                topic.sort_unstable();
                topic.dedup();
            }
        }
    }
    let has_other_data = idx.iter().any(|&i| {
        items.get(i).is_some_and(|it| {
            !matches!(
                it.kind,
                PsdKind::PersonName | PsdKind::Username | PsdKind::Place
            )
        })
    });
    FieldView {
        info,
        role,
        text,
        clauses: cl,
        topic,
        weather,
        query,
        has_other_data,
        segments: if query {
            text.map(segments).unwrap_or_default()
        } else {
            Vec::new()
        },
    }
}

/// The words of `text`, folded (lower case, no diacritics). With `keep_apostrophes`,
/// "i'm" and "j'ai" stay one word; without, "l'entrée" gives "l" and "entree".
fn folded_words(text: &str, keep_apostrophes: bool) -> impl Iterator<Item = String> + '_ {
    text.split(move |c: char| !(c.is_alphanumeric() || keep_apostrophes && c == '\''))
        .filter(|w| !w.is_empty())
        .map(fold_term)
}

/// Whether `gap`, the words between a search's topic and a later term, joins the term to
/// the topic as a requirement: it opens with a link ("with", "for", "that sells", "mit",
/// "avec", "con") and does not speak of the user ("for my …").
fn is_requirement_link(gap: &str) -> bool {
    const LINKS: &[&str] = &[
        "with",
        "for",
        "that",
        "which",
        "selling",
        "offering",
        "offers",
        "sells",
        "does",
        "doing",
        "accepting",
        "mit",
        "fur",
        "die",
        "der",
        "das",
        "avec",
        "pour",
        "qui",
        "con",
        "para",
        "que",
        "per",
        "che",
    ];
    const PERSONAL: &[&str] = &[
        "i", "i'm", "me", "my", "we", "our", "us", "ich", "mich", "mir", "mein", "meine", "meinen",
        "meiner", "wir", "unser", "unsere", "je", "j", "moi", "mon", "ma", "mes", "nous", "notre",
        "yo", "mi", "mis", "nuestro", "nuestra", "io", "mio", "mia", "miei", "mie", "noi",
    ];
    let words: Vec<String> = folded_words(gap, true).collect();
    (1..=4).contains(&words.len())
        && words.first().is_some_and(|w| LINKS.contains(&w.as_str()))
        && !words.iter().any(|w| PERSONAL.contains(&w.as_str()))
}

const GREETINGS: &[&str] = &[
    "hi",
    "hello",
    "hey",
    "dear",
    "morning",
    "evening",
    "hallo",
    "liebe",
    "lieber",
    "moin",
    "servus",
    "bonjour",
    "salut",
    "coucou",
    "cher",
    "chere",
    "hola",
    "querida",
    "querido",
    "buenas",
    "estimado",
    "estimada",
    "ciao",
    "salve",
    "buongiorno",
    "caro",
    "cara",
    "gentile",
];

/// Whether the first clause only greets or names the reader ("Hi Dana", "Inés").
fn is_greeting(text: &str, first: &Range<usize>) -> bool {
    let f = fold(text.get(first.clone()).unwrap_or_default());
    let words: Vec<&str> = f.as_str().split_whitespace().collect();
    match words.first() {
        Some(w) if GREETINGS.contains(&w.trim_matches(|c: char| !c.is_alphanumeric())) => {
            words.len() <= 4
        }
        Some(w) => words.len() == 1 && !w.chars().any(|c| c.is_ascii_digit()),
        None => false,
    }
}

/// Whether the people a message goes to work in a special-category domain (a pharmacy, a
/// clinic, a parish, a union, a lawyer): then the message's topic may be such data.
fn recipient_in_domain(args: &Value) -> bool {
    const DOMAIN: &[&str] = &[
        "pharmac",
        "apothek",
        "farmac",
        "clinic",
        "klinik",
        "clinique",
        "clinica",
        "doctor",
        "dr.",
        "hospital",
        "hopital",
        "health",
        "medic",
        "praxis",
        "therap",
        "church",
        "parish",
        "pfarr",
        "paroisse",
        "parroquia",
        "parrocchia",
        "mosque",
        "synagog",
        "temple",
        "union",
        "gewerkschaft",
        "syndicat",
        "sindicat",
        "lawyer",
        "attorney",
        "avocat",
        "abogad",
        "anwalt",
        "avvocat",
        "court",
        "legal",
    ];
    let Some(obj) = args.as_object() else {
        return false;
    };
    obj.iter()
        .filter(|(k, _)| {
            let k = k.to_lowercase();
            [
                "to",
                "cc",
                "recipient",
                "recipients",
                "channel",
                "subject",
                "chat",
                "contact",
                "phone",
            ]
            .iter()
            .any(|x| k.contains(x))
        })
        .any(|(_, v)| {
            let s = v.to_string().to_lowercase();
            DOMAIN.iter().any(|w| s.contains(w))
        })
}

/// Decides every item. `items` must be sorted by path (the classifier emits them grouped).
pub fn decide(ctx: &CallContext<'_>, schema: &SchemaIndex, items: &[PsdItem]) -> Vec<Decision> {
    let mut out = vec![Decision::keep("default"); items.len()];
    let mut i = 0;
    while i < items.len() {
        let path = items.get(i).map(|x| x.path.clone()).unwrap_or_default();
        let mut idx = Vec::new();
        let mut j = i;
        while j < items.len() && items.get(j).is_some_and(|x| x.path == path) {
            idx.push(j);
            j += 1;
        }
        let fv = view(ctx, schema, items, &idx);
        for &k in &idx {
            if let (Some(item), Some(slot)) = (items.get(k), out.get_mut(k)) {
                let mut d = decide_item(ctx, &fv, item, k);
                // A query's appendix (after a dash) that carries unnecessary data goes whole:
                // it is context the search does not need, and cutting it whole is robust to
                // anything in it the classifier missed.
                if !d.necessary && fv.query && !matches!(d.op, Op::RemoveField | Op::Keep) {
                    let seg = item
                        .span
                        .as_ref()
                        .and_then(|s| segment_of(&fv.segments, s.start));
                    if seg.is_some_and(|i| i > 0) {
                        d.op = Op::RemoveSegment;
                    }
                }
                *slot = d;
            }
        }
        i = j.max(i + 1);
    }
    out
}

fn generalize_or_remove(item: &PsdItem) -> Op {
    match item.kind {
        PsdKind::Coordinates | PsdKind::DateOfBirth | PsdKind::Age => Op::Generalize,
        _ => Op::RemoveSpan,
    }
}

fn decide_item(
    ctx: &CallContext<'_>,
    fv: &FieldView<'_>,
    item: &PsdItem,
    index: usize,
) -> Decision {
    let info = fv.info;
    let directive = info.and_then(|i| i.minimize.as_ref());
    if ctx.policy.strict {
        return Decision::drop(
            if fv.role.is_free_text()
                || item.span.is_some()
                    && fv
                        .text
                        .is_some_and(|t| item.span.as_ref().is_some_and(|s| s.len() < t.len()))
            {
                generalize_or_remove(item)
            } else if info.is_some_and(|i| !i.required) {
                Op::RemoveField
            } else {
                generalize_or_remove(item)
            },
            "policy:strict",
        );
    }
    if matches!(directive, Some(MinimizeDirective::Keep)) {
        return Decision::keep("x-minimize:keep");
    }
    if ctx.policy.honour_task_context && consented(ctx, item) {
        return Decision::keep("consent:task-context");
    }
    match directive {
        Some(MinimizeDirective::Remove) => {
            return Decision::drop(Op::RemoveField, "x-minimize:remove");
        }
        Some(MinimizeDirective::Generalize(_)) => {
            return Decision::drop(Op::Generalize, "x-minimize:generalize");
        }
        Some(MinimizeDirective::Substitute) => {
            return Decision::drop(Op::Substitute, "x-minimize:substitute");
        }
        Some(MinimizeDirective::Truncate(n)) => {
            return Decision::drop(Op::Truncate(n.unwrap_or(200)), "x-minimize:truncate");
        }
        _ => {}
    }
    let declared = info.and_then(|i| i.psd_category) == Some(item.category);
    let carries = role_carries(fv.role, item.kind) || key_carries(info, item.kind);
    let field_needed = info.is_none_or(|i| i.necessary || !i.declared && i.key.is_none());
    let whole = fv.text.is_none_or(|t| {
        item.span
            .as_ref()
            .is_none_or(|s| s.len() + 2 >= t.trim().len())
    });

    // Locations follow the tool: a route needs its places, everything else a city.
    if matches!(item.kind, PsdKind::Coordinates) && item.span.is_none() {
        return if ctx.kind == ToolKind::Route {
            Decision::keep("handler:route-needs-places")
        } else {
            Decision::drop(Op::Generalize, "handler:coordinates-city-level")
        };
    }
    if fv.role == FieldRole::Location {
        return location_item(ctx, fv, item, field_needed);
    }

    if !field_needed {
        // An optional field named for contact data is filled to reach someone (an e-mail on a
        // new contact, attendees of an event); an optional identifier field (an SSN, a
        // passport number) is not needed when the schema does not say so.
        let contact = matches!(
            item.kind,
            PsdKind::Email | PsdKind::Phone | PsdKind::PersonName | PsdKind::Username
        );
        if (carries && contact) || declared {
            return Decision::keep("schema:field-carries-this-data");
        }
        return Decision::drop(
            if info.is_some_and(|i| i.required) {
                Op::RemoveSpan
            } else {
                Op::RemoveField
            },
            if info.and_then(|i| i.declared_necessary).is_some() {
                "schema:not-minimum-necessary"
            } else {
                "schema:optional-field"
            },
        );
    }

    if !fv.role.is_free_text() || (whole && !is_special_kind(item) && fv.role != FieldRole::Query) {
        return match fv.role {
            FieldRole::Url => url_item(item),
            FieldRole::BirthDate if ctx.kind == ToolKind::Weather => {
                Decision::drop(Op::Generalize, "handler:weather")
            }
            _ if item.kind == PsdKind::PersonName
                && !carries
                && matches!(ctx.kind, ToolKind::Code | ToolKind::PublicPost) =>
            {
                Decision::drop(Op::Substitute, "handler:public-text-no-personal-data")
            }
            _ => Decision::keep("schema:required-field"),
        };
    }
    free_text_item(ctx, fv, item, index, declared)
}

fn url_item(item: &PsdItem) -> Decision {
    match item.span {
        // Coordinates a URL passes (a forecast API's `lat`/`lon`): the service needs a
        // place, at city level.
        Some(_) if item.kind == PsdKind::Coordinates => {
            Decision::drop(Op::Generalize, "handler:url-coordinates-city-level")
        }
        // Personal data inside a URL's query or path: the page does not need it.
        Some(_) => Decision::drop(Op::RemoveSpan, "handler:url-personal-parameter"),
        None => Decision::keep("schema:required-field"),
    }
}

fn location_item(
    ctx: &CallContext<'_>,
    fv: &FieldView<'_>,
    item: &PsdItem,
    field_needed: bool,
) -> Decision {
    use PsdKind::*;
    let has_address = fv.text.is_some_and(|_| true);
    match ctx.kind {
        ToolKind::Route => {
            if matches!(item.kind, StreetAddress | Coordinates | Postcode | Place) {
                Decision::keep("handler:route-needs-places")
            } else if is_special_kind(item)
                && has_address
                && field_has_address(fv)
                && is_route_start(fv)
            {
                // Where the user starts from (a clinic, a rehab) says why they were there;
                // the address alone gets the driver to the door. The destination keeps its
                // name: it is the place the user asked to reach.
                Decision::drop(Op::RemoveSpan, "handler:route-address-suffices")
            } else if is_special_kind(item) {
                Decision::keep("handler:route-destination")
            } else {
                Decision::drop(Op::RemoveSpan, "handler:route-needs-places-only")
            }
        }
        _ => match item.kind {
            Place => Decision::keep("handler:city-level-location"),
            Postcode if field_needed && ctx.kind != ToolKind::Weather => {
                Decision::keep("handler:postcode-is-coarse")
            }
            StreetAddress | Coordinates | Postcode => {
                Decision::drop(Op::Generalize, "handler:city-level-location")
            }
            _ => Decision::drop(Op::RemoveSpan, "handler:location-needs-place-only"),
        },
    }
}

/// Whether the field is a route's starting point (origin, departure, pickup).
fn is_route_start(fv: &FieldView<'_>) -> bool {
    const START: &[&str] = &[
        "origin", "from", "start", "depart", "pickup", "pick_up", "source", "origen", "salida",
        "abfahrt", "partenza",
    ];
    fv.info.and_then(|i| i.key.as_deref()).is_some_and(|k| {
        let k = k.to_lowercase();
        START.iter().any(|w| k.contains(w))
    })
}

fn field_has_address(fv: &FieldView<'_>) -> bool {
    let Some(t) = fv.text else { return false };
    // A house number next to a word: the address part the route needs.
    t.split(',').any(|part| {
        let p = part.trim();
        p.chars().next().is_some_and(|c| c.is_ascii_digit()) && p.split_whitespace().count() >= 2
            || p.split_whitespace().last().is_some_and(|w| {
                w.chars().all(|c| c.is_ascii_digit()) && p.split_whitespace().count() >= 2
            })
    })
}

fn after_operator(fv: &FieldView<'_>, item: &PsdItem) -> bool {
    let (Some(t), Some(s)) = (fv.text, item.span.as_ref()) else {
        return false;
    };
    let head = t.get(..s.start).unwrap_or_default().to_lowercase();
    OPERATORS
        .iter()
        .any(|op| head.ends_with(op) || head.ends_with(&format!("{op}\"")))
}

fn free_text_item(
    ctx: &CallContext<'_>,
    fv: &FieldView<'_>,
    item: &PsdItem,
    index: usize,
    declared: bool,
) -> Decision {
    use PsdKind::*;
    let kind = ctx.kind;
    let role = fv.role;
    let query = role == FieldRole::Query
        || matches!(kind, ToolKind::Search | ToolKind::Places | ToolKind::Health)
            && role != FieldRole::Message;
    let clause = item
        .span
        .as_ref()
        .and_then(|s| clause_of(&fv.clauses, s.start));
    let in_first_clause = clause == Some(0);
    // The user's own documents keep their content.
    if kind == ToolKind::Files && role == FieldRole::Message {
        return Decision::keep("handler:files-content");
    }
    if fv.topic.contains(&index) {
        return Decision::keep(if declared {
            "schema:declared-category-topic"
        } else {
            "handler:topic-of-text"
        });
    }
    if query && after_operator(fv, item) {
        return Decision::keep("handler:query-operator");
    }
    let message_to_person =
        matches!(kind, ToolKind::Email | ToolKind::Messaging) && role != FieldRole::Query;
    if message_to_person
        && matches!(item.kind, HealthFacility | Belief)
        && is_meeting_point(fv.text, item.span.as_ref())
    {
        return Decision::keep("handler:meeting-point");
    }
    if message_to_person
        && item.kind == Condition
        && opens_message(fv, item)
        && is_sick_leave(span_text(ctx.args, item))
    {
        // "I'm on sick leave until Friday" as what the message opens with: the notice is
        // what the message is for; the diagnosis behind it is not. Said in passing (to a
        // bank, "I'm on sick leave so reach me by e-mail") it goes like any health data.
        return Decision::keep("handler:sick-leave-notice");
    }
    if is_special_kind(item) {
        if fv.topic.contains(&index) {
            return Decision::keep(if declared {
                "schema:declared-category-topic"
            } else {
                "handler:topic-of-text"
            });
        }
        let op = if query {
            if in_first_clause {
                Op::RemoveSpan
            } else {
                Op::RemoveClause
            }
        } else {
            clause_op(fv, item)
        };
        return Decision::drop(
            op,
            if fv.weather {
                "handler:weather-needs-place-only"
            } else {
                "handler:not-the-topic"
            },
        );
    }
    match item.kind {
        PersonName | Username => {
            if query && is_query_subject(fv, item) {
                // "Taylor Swift tour dates", "novels by Stephen King": the person is what
                // the search is about.
                Decision::keep("handler:query-subject")
            } else if query {
                Decision::drop(
                    if in_first_clause {
                        Op::RemoveSpan
                    } else {
                        Op::RemoveClause
                    },
                    "handler:query-not-about-the-user",
                )
            } else if message_to_person
                || kind == ToolKind::Crm
                || kind == ToolKind::Payment
                || kind == ToolKind::Calendar && role == FieldRole::Title
            {
                Decision::keep("handler:message-names-its-people")
            } else {
                Decision::drop(Op::Substitute, "handler:names-not-needed")
            }
        }
        Email | Phone | IpAddress | MacAddress => {
            if message_to_person || kind == ToolKind::Crm {
                Decision::keep("handler:contact-details-for-recipient")
            } else {
                Decision::drop(
                    if query && !in_first_clause {
                        Op::RemoveClause
                    } else {
                        Op::RemoveSpan
                    },
                    "handler:contact-details-not-needed",
                )
            }
        }
        Iban | BankAccount => {
            if kind == ToolKind::Payment || recipient_is_financial(ctx.args) {
                Decision::keep("handler:financial-recipient")
            } else {
                Decision::drop(Op::RemoveSpan, "handler:account-number-not-needed")
            }
        }
        AccountId => {
            if query || matches!(kind, ToolKind::PublicPost | ToolKind::Code) {
                Decision::drop(Op::RemoveSpan, "handler:identifier-not-needed")
            } else {
                Decision::keep("handler:reference-number")
            }
        }
        Ssn | Passport | NationalId | DriverLicence | MedicalRecord | TaxId | Credential
        | CardNumber | DateOfBirth => {
            Decision::drop(Op::RemoveSpan, "handler:identifier-not-needed")
        }
        StreetAddress | Coordinates | Postcode => {
            if message_to_person {
                Decision::keep("handler:address-for-recipient")
            } else if query {
                Decision::drop(
                    if in_first_clause {
                        Op::Generalize
                    } else {
                        Op::RemoveClause
                    },
                    "handler:query-city-level",
                )
            } else {
                Decision::drop(Op::RemoveSpan, "handler:address-not-needed")
            }
        }
        Place => {
            if matches!(
                kind,
                ToolKind::PublicPost | ToolKind::Code | ToolKind::Delegation
            ) && !in_first_clause
            {
                Decision::drop(Op::RemoveSpan, "handler:place-not-needed")
            } else {
                Decision::keep("handler:coarse-place")
            }
        }
        Age | Gender | Family | Occupation | Preference | MoneyAmount => {
            if query && item.kind == Occupation && is_sought(fv, item) {
                Decision::keep("handler:query-subject")
            } else if kind == ToolKind::Crm && item.category != Category::Financial {
                Decision::keep("handler:crm-profile")
            } else if message_to_person && matches!(item.kind, Family | Occupation | Gender) {
                Decision::keep("handler:message-context")
            } else if query {
                Decision::drop(
                    if in_first_clause {
                        Op::RemoveSpan
                    } else {
                        Op::RemoveClause
                    },
                    "handler:query-not-about-the-user",
                )
            } else if declared && item.kind == Preference {
                Decision::keep("schema:declared-category")
            } else {
                Decision::drop(clause_op(fv, item), "handler:profile-not-needed")
            }
        }
        _ => {
            if declared {
                Decision::keep("schema:declared-category")
            } else {
                Decision::drop(Op::RemoveSpan, "handler:not-needed")
            }
        }
    }
}

/// Whether a name in a search query is what the search is about: nothing else personal is in
/// the field and the name is sought (see [`is_sought`]).
fn is_query_subject(fv: &FieldView<'_>, item: &PsdItem) -> bool {
    !fv.has_other_data && item.kind == PsdKind::PersonName && is_sought(fv, item)
}

/// Whether an item of a query is what the query looks for: it stands in the first segment
/// and no word before it in its clause makes it the user or someone close ("immigration
/// lawyer near 60614" looks for a lawyer; "I'm a nurse, …" does not look for one).
fn is_sought(fv: &FieldView<'_>, item: &PsdItem) -> bool {
    const PERSONAL: &[&str] = &[
        "my",
        "me",
        "i",
        "i'm",
        "im",
        "patient",
        "client",
        "customer",
        "member",
        "user",
        "applicant",
        "employee",
        "tenant",
        "named",
        "name",
        "for",
        "mein",
        "meine",
        "meinen",
        "ich",
        "patientin",
        "kunde",
        "kundin",
        "fur",
        "mon",
        "ma",
        "mes",
        "je",
        "moi",
        "pour",
        "nom",
        "mi",
        "mis",
        "yo",
        "paciente",
        "cliente",
        "para",
        "nombre",
        "mio",
        "mia",
        "io",
        "per",
    ];
    let (Some(t), Some(s)) = (fv.text, item.span.as_ref()) else {
        return false;
    };
    if segment_of(&fv.segments, s.start).is_some_and(|i| i > 0) {
        return false;
    }
    let head = t.get(..s.start).unwrap_or_default();
    let clause_start = head.rfind([',', ';', '(', '-', '|']).map_or(0, |i| i + 1);
    !folded_words(head.get(clause_start..).unwrap_or_default(), true)
        .any(|w| PERSONAL.contains(&w.as_str()))
}

/// Whether `item` is in a message's subject or in its opening clause (after a greeting).
fn opens_message(fv: &FieldView<'_>, item: &PsdItem) -> bool {
    if fv.role == FieldRole::Title {
        return true;
    }
    let (Some(t), Some(s)) = (fv.text, item.span.as_ref()) else {
        return false;
    };
    let greeting = fv.clauses.first().is_some_and(|f| is_greeting(t, &f.range));
    match clause_of(&fv.clauses, s.start) {
        Some(0) => true,
        Some(1) => greeting,
        _ => false,
    }
}

/// Whether a health term only says that someone is off work sick (not why).
fn is_sick_leave(text: Option<&str>) -> bool {
    const NOTICE: &[&str] = &[
        "sick leave",
        "sick note",
        "sick day",
        "off sick",
        "out sick",
        "medical leave",
        "doctor's note",
        "fmla",
        "krankschreibung",
        "krankgeschrieben",
        "krankmeldung",
        "krank gemeldet",
        "arbeitsunfahig",
        "au-bescheinigung",
        "arret maladie",
        "arret de travail",
        "conge maladie",
        "baja medica",
        "baja por enfermedad",
        "de baja",
        "incapacidad temporal",
        "malattia",
        "certificato medico",
        "congedo per malattia",
        "in malattia",
        "ziekmelding",
        "ziekteverlof",
    ];
    text.is_some_and(|t| {
        let f = fold_term(t);
        NOTICE.iter().any(|n| f.contains(n))
    })
}

/// Whether the venue at `span` is where the reader is to meet or collect someone: "I'll
/// pick you up at the door of Hospital X", "meet me outside St Mary's", "te recojo en la
/// puerta del Hospital X", "ich hole dich vor der Klinik ab". The reader needs the place;
/// the reason for being there is another matter.
fn is_meeting_point(text: Option<&str>, span: Option<&Range<usize>>) -> bool {
    /// Verbs of meeting: enough on their own.
    const MEET: &[&str] = &[
        "meet",
        "meeting",
        "quedamos",
        "vemos",
        "treffen",
        "treffpunkt",
        "retrouve",
        "retrouver",
        "retrouvons",
        "vediamo",
        "incontriamo",
    ];
    /// Collecting someone or a spot at a building: with the reader addressed.
    const PLACE: &[&str] = &[
        "pick",
        "collect",
        "outside",
        "front",
        "entrance",
        "door",
        "lobby",
        "gate",
        "parking",
        "recojo",
        "recoger",
        "recogerte",
        "busco",
        "buscarte",
        "puerta",
        "entrada",
        "delante",
        "frente",
        "hole",
        "abholen",
        "eingang",
        "parkplatz",
        "recupere",
        "recuperer",
        "devant",
        "entree",
        "porte",
        "prendo",
        "prenderti",
        "davanti",
        "ingresso",
    ];
    const YOU: &[&str] = &[
        "you", "te", "dich", "dir", "euch", "sie", "vous", "toi", "ti", "vi", "usted", "os",
    ];
    let (Some(t), Some(s)) = (text, span) else {
        return false;
    };
    let head = t.get(..s.start).unwrap_or_default();
    // Only the clause the venue is in, and only its last few words.
    let clause_start = head.rfind(['.', '!', '?', ';', '\n']).map_or(0, |i| i + 1);
    let words: Vec<String> =
        folded_words(head.get(clause_start..).unwrap_or_default(), false).collect();
    let near = || words.iter().rev().take(7);
    near().any(|w| MEET.contains(&w.as_str()))
        || near().any(|w| PLACE.contains(&w.as_str()))
            && words.iter().any(|w| YOU.contains(&w.as_str()))
}

/// In a message, a clause that only tells the reader something sensitive goes whole; a
/// clause that also carries the message's facts (a time, a number) loses only the span.
fn clause_op(fv: &FieldView<'_>, item: &PsdItem) -> Op {
    let (Some(t), Some(s)) = (fv.text, item.span.as_ref()) else {
        return Op::RemoveSpan;
    };
    let Some(ci) = clause_of(&fv.clauses, s.start) else {
        return Op::RemoveSpan;
    };
    let Some(c) = fv.clauses.get(ci) else {
        return Op::RemoveSpan;
    };
    if ci == 0 && !c.parenthetical {
        return Op::RemoveSpan;
    }
    let rest = format!(
        "{}{}",
        t.get(c.range.start..s.start).unwrap_or_default(),
        t.get(s.end..c.range.end).unwrap_or_default()
    );
    let has_fact = rest.chars().any(|ch| ch.is_ascii_digit())
        || rest
            .split(|ch: char| !ch.is_alphanumeric())
            .any(|w| is_time_word(&w.to_lowercase()));
    if has_fact {
        Op::RemoveSpan
    } else {
        Op::RemoveClause
    }
}

fn is_time_word(w: &str) -> bool {
    const WORDS: &[&str] = &[
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "today",
        "tomorrow",
        "tonight",
        "morning",
        "noon",
        "evening",
        "montag",
        "dienstag",
        "mittwoch",
        "donnerstag",
        "freitag",
        "samstag",
        "sonntag",
        "heute",
        "morgen",
        "lundi",
        "mardi",
        "mercredi",
        "jeudi",
        "vendredi",
        "samedi",
        "dimanche",
        "demain",
        "lunes",
        "martes",
        "miercoles",
        "miércoles",
        "jueves",
        "viernes",
        "sabado",
        "sábado",
        "domingo",
        "mañana",
        "manana",
        "hoy",
        "lunedi",
        "martedi",
        "mercoledi",
        "giovedi",
        "venerdi",
        "sabato",
        "domani",
        "oggi",
    ];
    WORDS.contains(&w)
}

/// Helper for the rewriter: the clause range around `at` in `text`.
pub fn clause_range(text: &str, at: usize) -> Option<Range<usize>> {
    let cl = clauses(text);
    clause_of(&cl, at)
        .and_then(|i| cl.get(i))
        .map(|c| c.range.clone())
}
