//! What a tool is for, read from its name, description and property names by scoring evidence
//! words (`data/decide/purposes.tsv`), never from a fixed list of tool names.
//!
//! Words match whole: `override` is not a ride, `discard` not a card, `docker` not a doc,
//! `border` not an order, `training` not a train.

use rustc_hash::FxHashMap as HashMap;
use std::sync::LazyLock;

use crate::text::fold::fold;
use crate::text::words::{any_identifier_word, identifier_words};
use crate::tool::ToolDef;

const PURPOSES: &str = include_str!("../../data/decide/purposes.tsv");

/// The kind of tool, which decides what its free text and locations need.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToolKind {
    /// Weather and forecasts: a place at city level.
    Weather,
    /// Address → coordinates: the exact address.
    Geocode,
    /// Coordinates → address: the exact point.
    ReverseGeocode,
    /// Elevation of points: the exact points.
    Elevation,
    /// Directions, distances, rides: the route's places, exactly.
    Route,
    /// Place search and maps: what is sought, near a place.
    Places,
    /// Web search: one topic.
    Search,
    /// A search of the user's own mail, calendar, messages, files or contacts.
    SearchOwn,
    /// Fetching a URL.
    Fetch,
    /// Creating or changing calendar events.
    Calendar,
    /// Sending e-mail.
    Email,
    /// Direct and group messaging.
    Messaging,
    /// Posting to a channel, forum or other public or shared space.
    PublicPost,
    /// Code hosting: issues, comments, pull requests, commits (public or shared).
    Code,
    /// Files, documents and pages.
    Files,
    /// Databases and SQL.
    Database,
    /// Contacts, CRM, memory and notes about people.
    Crm,
    /// Payments, transfers, banking, disputes.
    Payment,
    /// Travel booking: flights, hotels, trains.
    Travel,
    /// Shopping, orders and deliveries.
    Shopping,
    /// Support tickets and customer service.
    Support,
    /// Delegating work to another agent or a human.
    Delegation,
    /// Medical information look-ups (diseases, drugs, literature).
    HealthInfo,
    /// Care: doctors, appointments, pharmacies.
    HealthCare,
    /// Telemetry: product analytics, error reports, logs and traces. They count and debug
    /// what happens; none of them needs who it happened to beyond a pseudonymous id.
    Telemetry,
    /// Anything else.
    Generic,
}

impl ToolKind {
    // `Generic` first: a tie goes to the kind listed later.
    const SCORED: &'static [ToolKind] = &[
        ToolKind::Generic,
        ToolKind::Weather,
        ToolKind::Geocode,
        ToolKind::ReverseGeocode,
        ToolKind::Elevation,
        ToolKind::Route,
        ToolKind::Places,
        ToolKind::Search,
        ToolKind::SearchOwn,
        ToolKind::Fetch,
        ToolKind::Calendar,
        ToolKind::Email,
        ToolKind::Messaging,
        ToolKind::PublicPost,
        ToolKind::Code,
        ToolKind::Files,
        ToolKind::Database,
        ToolKind::Crm,
        ToolKind::Payment,
        ToolKind::Travel,
        ToolKind::Shopping,
        ToolKind::Support,
        ToolKind::Delegation,
        ToolKind::HealthInfo,
        ToolKind::HealthCare,
        ToolKind::Telemetry,
    ];

    /// The stable id used in reports and in `purposes.tsv`.
    pub const fn id(self) -> &'static str {
        match self {
            ToolKind::Weather => "weather",
            ToolKind::Geocode => "geocode",
            ToolKind::ReverseGeocode => "reverse_geocode",
            ToolKind::Elevation => "elevation",
            ToolKind::Route => "route",
            ToolKind::Places => "places",
            ToolKind::Search => "search",
            ToolKind::SearchOwn => "search_own",
            ToolKind::Fetch => "fetch",
            ToolKind::Calendar => "calendar",
            ToolKind::Email => "email",
            ToolKind::Messaging => "messaging",
            ToolKind::PublicPost => "public_post",
            ToolKind::Code => "code",
            ToolKind::Files => "files",
            ToolKind::Database => "database",
            ToolKind::Crm => "crm",
            ToolKind::Payment => "payment",
            ToolKind::Travel => "travel",
            ToolKind::Shopping => "shopping",
            ToolKind::Support => "support",
            ToolKind::Delegation => "delegation",
            ToolKind::HealthInfo => "health_info",
            ToolKind::HealthCare => "health_care",
            ToolKind::Telemetry => "telemetry",
            ToolKind::Generic => "generic",
        }
    }

    fn parse(id: &str) -> Option<ToolKind> {
        Self::SCORED.iter().copied().find(|k| k.id() == id)
    }

    /// Recognises the kind of `tool` from its name, description and property names.
    pub fn of(tool: &ToolDef) -> ToolKind {
        let mut name = identifier_words(tool.name());
        // A mail service named as one word ("protonmail", "fastmail", "zohomail") says "mail".
        if let Some(at) = name.iter().position(|w| names_a_mail_service(w)) {
            name.insert(at + 1, "mail".to_owned());
        }
        let desc_fold = fold(tool.description());
        let desc: Vec<String> = crate::text::words::words(desc_fold.as_str())
            .into_iter()
            .map(|w| w.folded.into_owned())
            .take(120)
            .collect();
        let props: Vec<String> = tool
            .input_schema()
            .get("properties")
            .and_then(|p| p.as_object())
            .map(|p| p.keys().flat_map(|k| identifier_words(k)).collect())
            .unwrap_or_default();
        // Each piece of evidence counts once, wherever its phrase occurs: the phrases are
        // looked up by their first word at every word of each place. The longest phrase at a
        // word takes the words it spans: "customer support" is support, and its "customer"
        // is no evidence of a customer database.
        let index = evidence_index();
        let mut seen = vec![false; index.evidence.len()];
        let mut scores = [0u32; 32];
        for (place, hay) in [
            (Place::Name, &name),
            (Place::Description, &desc),
            (Place::Property, &props),
        ] {
            let mut taken_to = 0usize;
            for (i, w) in hay.iter().enumerate() {
                if i < taken_to {
                    continue;
                }
                let Some(starting) = index.starting(place, w) else {
                    continue;
                };
                let rest = hay.get(i..).unwrap_or_default();
                let matching = || {
                    starting.iter().filter_map(|&e| {
                        let ev = index.evidence.get(e)?;
                        starts_with_phrase(rest, &ev.words).then_some((e, ev))
                    })
                };
                let Some(longest) = matching().map(|(_, ev)| ev.words.len()).max() else {
                    continue;
                };
                taken_to = i + longest;
                for (e, ev) in matching().filter(|(_, ev)| ev.words.len() == longest) {
                    if seen.get(e).copied().unwrap_or(true) {
                        continue;
                    }
                    if let Some(slot) = seen.get_mut(e) {
                        *slot = true;
                    }
                    if let Some(s) = Self::SCORED
                        .iter()
                        .position(|k| *k == ev.kind)
                        .and_then(|i| scores.get_mut(i))
                    {
                        *s += ev.weight;
                    }
                }
            }
        }
        let best = Self::SCORED
            .iter()
            .zip(scores)
            .max_by_key(|(_, s)| *s)
            .filter(|(_, s)| *s >= 2)
            .map_or(ToolKind::Generic, |(k, _)| *k);
        refine(best, &name)
    }

    /// Whether the tool sends its text to people (mail, chat, channels, tickets, agents).
    pub const fn is_message(self) -> bool {
        matches!(
            self,
            ToolKind::Email
                | ToolKind::Messaging
                | ToolKind::PublicPost
                | ToolKind::Support
                | ToolKind::Delegation
        )
    }

    /// Whether the tool's free text is a search (one topic, no story).
    pub const fn is_search(self) -> bool {
        matches!(
            self,
            ToolKind::Search
                | ToolKind::Places
                | ToolKind::HealthInfo
                | ToolKind::Fetch
                | ToolKind::Weather
                | ToolKind::SearchOwn
        )
    }

    /// Whether what the tool writes is read by others than the user and the addressee (a
    /// repository, a channel, a shared page).
    pub const fn writes_publicly(self) -> bool {
        matches!(self, ToolKind::PublicPost | ToolKind::Code)
    }
}

/// Whether a word of a tool's name is one word for a mail service ("protonmail", "hotmail"):
/// a longer word ending in "mail", except words that are not about mail ("blackmail").
fn names_a_mail_service(word: &str) -> bool {
    word.len() > 4
        && word.ends_with("mail")
        && !matches!(word, "blackmail" | "chainmail" | "email" | "gmail")
}

const RETRIEVE: &[&str] = &[
    "search",
    "find",
    "list",
    "get",
    "read",
    "lookup",
    "query",
    "fetch",
    "show",
    "check",
    "retrieve",
    "lookups",
    "searches",
    // The same verbs in the names of tools written in other languages: Spanish, Portuguese,
    // French, German, Italian, Dutch, Polish, Czech.
    "buscar",
    "busca",
    "pesquisar",
    "procurar",
    "rechercher",
    "recherche",
    "chercher",
    "suchen",
    "suche",
    "finden",
    "cercare",
    "ricerca",
    "zoeken",
    "zoek",
    "szukaj",
    "wyszukaj",
    "hledat",
    "vyhledat",
];
const ACT: &[&str] = &[
    "send", "create", "add", "update", "post", "write", "book", "reply", "draft", "insert", "set",
    "make", "schedule", "delete", "remove", "edit", "upload", "save", "append", "submit",
    "reserve", "order", "request", "transfer", "pay", "file", "open", "log",
];

/// Whether the tool translates text (its name or description says so): the text it gets is
/// a message to be rendered in another language, read as one, not a search.
pub fn translates(tool: &ToolDef) -> bool {
    let says = |s: &str| holds_ignoring_case(s, b"translat") || holds_ignoring_case(s, b"deepl");
    says(tool.name()) || says(tool.description())
}

/// Whether `text` holds `word` (lower-case ASCII letters) in any ASCII case: compared only
/// where its first letter stands.
fn holds_ignoring_case(text: &str, word: &[u8]) -> bool {
    let Some((&first, rest)) = word.split_first() else {
        return true;
    };
    let b = text.as_bytes();
    // Setting bit 5 lowers an ASCII capital, and no other byte becomes a lower-case letter.
    b.iter().enumerate().any(|(i, &c)| {
        c | 0x20 == first
            && b.get(i + 1..i + word.len())
                .is_some_and(|t| t.eq_ignore_ascii_case(rest))
    })
}

/// Whether the tool submits or fills a form (its name says so: `webform_submit`,
/// `browser_fill_form`): the fields it gets are the form's own.
pub fn fills_form(tool: &ToolDef) -> bool {
    any_identifier_word(tool.name(), |w| {
        matches!(w, "form" | "forms" | "webform" | "formular")
    })
}

/// Whether the tool registers or enrols someone (`gp_register`, `huisarts_inschrijven`,
/// `anmeldung`, `inscription`): a practice, a school, a municipality or a club registers
/// them at their address as it is.
pub fn registers(tool: &ToolDef) -> bool {
    any_identifier_word(tool.name(), |w| {
        REGISTRATION_WORDS.iter().any(|k| w.eq_ignore_ascii_case(k))
    })
}

/// Words of a tool's name that make it a registration, in the project's languages.
const REGISTRATION_WORDS: &[&str] = &[
    "register",
    "registration",
    "enrol",
    "enroll",
    "enrolment",
    "enrollment",
    "signup",
    "inschrijven",
    "inschrijving",
    "aanmelden",
    "anmelden",
    "anmeldung",
    "registrieren",
    "registrierung",
    "inscription",
    "inscripcion",
    "iscrizione",
    "inscricao",
    "rejestracja",
    "registrace",
    "registrering",
    "tilmelding",
    "ilmoittautuminen",
];

/// Whether the tool keeps secrets (a password manager, a vault, a secrets manager:
/// `kv_put` "Write a secret to a HashiCorp Vault", `secret_create`, `create_item` of a
/// password manager): the credentials it is given are what it stores.
pub fn keeps_secrets(tool: &ToolDef) -> bool {
    let store = |w: &str| {
        matches!(
            w,
            "vault" | "keychain" | "keyring" | "keepass" | "bitwarden" | "1password" | "lastpass"
        )
    };
    let secret = |w: &str| matches!(w, "secret" | "secrets" | "password" | "passwords");
    let named = any_identifier_word(tool.name(), |w| store(w) || secret(w));
    let mut says_store = false;
    let mut says_secret = false;
    any_identifier_word(tool.description(), |w| {
        says_store |= store(w) || matches!(w, "manager" | "vaults");
        says_secret |= secret(w);
        false
    });
    (named || says_store) && says_secret && !retrieves(tool)
}

/// Whether the tool writes a CV or résumé (`resume_generate`, `create_cv`, `lebenslauf`):
/// a text read by employers, whom neither a faith nor a family status is for. "Resume" is
/// also a verb (`resume_job`, `resume_playback`): it counts when the description speaks of
/// a CV, a career, an employer or a candidate.
pub fn writes_cv(tool: &ToolDef) -> bool {
    let mut resume = false;
    let cv = any_identifier_word(tool.name(), |w| {
        resume |= matches!(w, "resume" | "resumes");
        matches!(
            w,
            "cv" | "curriculum" | "curriculo" | "lebenslauf" | "vitae"
        )
    });
    cv || resume
        && any_identifier_word(tool.description(), |w| {
            matches!(
                w,
                "cv" | "curriculum"
                    | "curriculo"
                    | "currículo"
                    | "career"
                    | "employer"
                    | "employers"
                    | "applicant"
                    | "candidate"
                    | "résumé"
                    | "resumé"
            )
        })
}

/// Whether the tool only reads (its name's verb is "search", "get", "look up" …): its
/// optional free text is not what it is for.
pub fn retrieves(tool: &ToolDef) -> bool {
    // The words are read as they come, without a list of them: a reading verb is remembered,
    // an acting one settles it.
    let mut reads = false;
    let acts = any_identifier_word(tool.name(), |w| {
        reads |= RETRIEVE.contains(&w) || w.starts_with("lookup");
        ACT.contains(&w)
    });
    reads && !acts
}

fn retrieves_by_name(name: &[String]) -> bool {
    name.iter()
        .any(|w| RETRIEVE.contains(&w.as_str()) || w.starts_with("lookup"))
        && !name.iter().any(|w| ACT.contains(&w.as_str()))
}

/// Retrieval verbs turn a tool about the user's own mail, calendar, files, contacts or
/// accounts into a search of them; a "send" or "create" verb keeps it an action.
fn refine(kind: ToolKind, name: &[String]) -> ToolKind {
    let retrieves = retrieves_by_name(name);
    match kind {
        ToolKind::Calendar
        | ToolKind::Email
        | ToolKind::Messaging
        | ToolKind::Files
        | ToolKind::Crm
        | ToolKind::Payment
            if retrieves =>
        {
            ToolKind::SearchOwn
        }
        other => other,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    Name,
    Description,
    Property,
}

#[derive(Debug)]
struct Evidence {
    kind: ToolKind,
    place: Place,
    weight: u32,
    words: Vec<String>,
}

fn load() -> Vec<Evidence> {
    let mut out = Vec::new();
    for line in PURPOSES.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let [kind, place, weight, terms] = cols.as_slice() else {
            continue;
        };
        let (Some(kind), Ok(weight)) = (ToolKind::parse(kind.trim()), weight.trim().parse::<u32>())
        else {
            continue;
        };
        let place = match place.trim() {
            "name" => Place::Name,
            "desc" => Place::Description,
            "prop" => Place::Property,
            _ => continue,
        };
        for t in terms.split(',') {
            let words: Vec<String> = match place {
                Place::Name | Place::Property => identifier_words(t.trim()),
                Place::Description => crate::text::words::words(t.trim())
                    .into_iter()
                    .map(|w| w.folded.into_owned())
                    .collect(),
            };
            if !words.is_empty() {
                out.push(Evidence {
                    kind,
                    place,
                    weight,
                    words,
                });
            }
        }
    }
    out
}

/// The evidence, and its indices by place and first word.
struct EvidenceIndex {
    evidence: Vec<Evidence>,
    /// By place (name, description, property), then first word: indices into `evidence`.
    by_first: [HashMap<String, Vec<usize>>; 3],
}

impl EvidenceIndex {
    fn starting(&self, place: Place, word: &str) -> Option<&Vec<usize>> {
        self.by_first.get(place as usize)?.get(word)
    }
}

fn build_index() -> EvidenceIndex {
    let evidence = load();
    let mut by_first: [HashMap<String, Vec<usize>>; 3] = Default::default();
    for (i, ev) in evidence.iter().enumerate() {
        if let (Some(first), Some(map)) = (ev.words.first(), by_first.get_mut(ev.place as usize)) {
            map.entry(first.clone()).or_default().push(i);
        }
    }
    EvidenceIndex { evidence, by_first }
}

static EVIDENCE: LazyLock<EvidenceIndex> = LazyLock::new(build_index);

fn evidence_index() -> &'static EvidenceIndex {
    &EVIDENCE
}

#[cfg(test)]
fn evidence() -> &'static [Evidence] {
    &EVIDENCE.evidence
}

/// Whether `words` begins with the words of `phrase`.
fn starts_with_phrase(words: &[String], phrase: &[String]) -> bool {
    words.len() >= phrase.len() && words.iter().zip(phrase).all(|(a, b)| a == b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn words_in_any_ascii_case_as_a_window_scan_finds_them() {
        for text in [
            "",
            "t",
            "translat",
            "TRANSLATE",
            "auto-Translation",
            "xtranslaT",
            "translа",
            "DeepL API",
            "deep l",
            "@TRANSLAT",
            "tt translat",
        ] {
            for word in [&b"translat"[..], b"deepl"] {
                let window = text
                    .as_bytes()
                    .windows(word.len())
                    .any(|w| w.eq_ignore_ascii_case(word));
                assert_eq!(holds_ignoring_case(text, word), window, "{text}");
            }
        }
        let reader = ToolDef::new("search_orders", "", json!({}));
        let writer = ToolDef::new("search_and_update_orders", "", json!({}));
        assert!(retrieves(&reader) && !retrieves(&writer));
    }

    #[test]
    fn cv_tools_by_name_and_the_verb_resume() {
        use crate::ToolDef;
        use serde_json::json;
        let cv = |name: &str, desc: &str| writes_cv(&ToolDef::new(name, desc, json!({})));
        assert!(cv("create_cv", ""));
        assert!(cv(
            "resume_generate",
            "Builds a PDF résumé for job applications."
        ));
        assert!(cv("resume_generate", "Gera um currículo em PDF."));
        assert!(!cv("resume_job", "Resume a paused job."));
        assert!(!cv(
            "resume_playback",
            "Resume playback on the user's device."
        ));
    }

    #[test]
    fn tool_kinds_from_name_and_description() {
        use crate::ToolDef;
        use crate::decide::purpose::ToolKind;
        use serde_json::json;
        let t = ToolDef::new(
            "get-forecast",
            "Get weather forecast for a location",
            json!({}),
        );
        assert_eq!(ToolKind::of(&t), ToolKind::Weather);
        let t = ToolDef::new(
            "maps_reverse_geocode",
            "Convert coordinates into an address",
            json!({}),
        );
        assert_eq!(ToolKind::of(&t), ToolKind::ReverseGeocode);
        let t = ToolDef::new(
            "docker_override_border",
            "Apply a training config",
            json!({}),
        );
        assert_eq!(ToolKind::of(&t), ToolKind::Generic);
    }

    fn kind(name: &str, desc: &str) -> ToolKind {
        ToolKind::of(&ToolDef::new(name, desc, json!({})))
    }

    #[test]
    fn every_evidence_line_parses() {
        let lines = PURPOSES
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .count();
        let kinds: std::collections::HashSet<_> = evidence().iter().map(|e| e.kind).collect();
        assert!(lines > 20);
        assert_eq!(kinds.len(), ToolKind::SCORED.len());
    }

    #[test]
    fn a_place_text_search_searches_places() {
        // Described in a language the table does not read, the name alone tells: its "text" is
        // no text message, and the search is no search of the user's messages.
        for name in [
            "places_text_search",
            "baidu_place_text_search",
            "geo_place_text",
        ] {
            assert_eq!(
                kind(name, "Keyword search (POI)"),
                ToolKind::Places,
                "{name}"
            );
        }
    }

    #[test]
    fn a_phrase_takes_the_words_it_spans() {
        // "customer" alone would vote for a customer database.
        assert_eq!(
            kind(
                "reach_customer_support",
                "Open a chat with the shop's customer support about an order"
            ),
            ToolKind::Support
        );
        assert_eq!(
            kind(
                "customer_service_contact",
                "Contact the airline's help desk"
            ),
            ToolKind::Support
        );
        assert_eq!(
            kind("create_customer", "Add a customer record to the CRM"),
            ToolKind::Crm
        );
    }

    #[test]
    fn analytics_error_reports_and_logs_are_telemetry() {
        assert_eq!(
            kind("track_event", "Record an action a user performed"),
            ToolKind::Telemetry
        );
        assert_eq!(
            kind(
                "capture_exception",
                "Send an error event to the error tracking service"
            ),
            ToolKind::Telemetry
        );
        assert_eq!(
            kind("push_logs", "Ingest structured logs into the log store"),
            ToolKind::Telemetry
        );
        // A calendar's event is not an analytics event.
        assert_eq!(
            kind("create_event", "Create a calendar event with attendees"),
            ToolKind::Calendar
        );
    }

    #[test]
    fn mail_services_rooms_agents_and_file_writers() {
        // A mail service named as one word, or a description that says "mail".
        assert_eq!(kind("zohomail_send", "Send a message"), ToolKind::Email);
        assert_eq!(
            kind(
                "compose_send",
                "Compose a message from the user's Mail account"
            ),
            ToolKind::Email
        );
        assert_eq!(kind("blackmail_check", "Check a phrase"), ToolKind::Generic);
        assert_eq!(
            kind(
                "room_send",
                "Post a message event into a room the user has joined"
            ),
            ToolKind::PublicPost
        );
        assert_eq!(
            kind("a2a_call", "Send a task to a remote agent"),
            ToolKind::Delegation
        );
        // "text" in a file writer's name is the file's text.
        assert_eq!(
            kind("fs_write_text", "Write text to a path"),
            ToolKind::Files
        );
        assert_eq!(
            kind("calendly_create_booking", "Book a slot"),
            ToolKind::Calendar
        );
        assert_eq!(
            kind("event_tickets_buy", "Buy tickets for a concert"),
            ToolKind::Shopping
        );
        assert_eq!(
            kind("payroll_update_direct_deposit", "Change where pay goes"),
            ToolKind::Payment
        );
    }

    #[test]
    fn tools_named_and_described_in_other_languages() {
        assert_eq!(
            kind("enviar_correo", "Envía un correo electrónico"),
            ToolKind::Email
        );
        assert_eq!(
            kind("nachricht_senden", "Sendet eine Nachricht an einen Kontakt"),
            ToolKind::Messaging
        );
        assert_eq!(
            kind("termin_buchen", "Bucht einen Arzttermin in der Praxis"),
            ToolKind::HealthCare
        );
        assert_eq!(
            kind("varaa_aika", "Varaa ajan lääkärille"),
            ToolKind::HealthCare
        );
        assert_eq!(kind("buscar_web", "Busca en la web"), ToolKind::Search);
        assert_eq!(
            kind("zahlung_senden", "Überweist Geld auf ein Konto"),
            ToolKind::Payment
        );
        // "hae" is "apply" as much as "search": an application is no search.
        assert_ne!(
            kind("hae_tukea", "Hae tukea (apply for an allowance)"),
            ToolKind::Search
        );
    }

    #[test]
    fn a_browser_form_is_not_the_user_s_file() {
        let tool = ToolDef::new(
            "browser_fill",
            "Fill out an input field on the current page",
            serde_json::json!({"type": "object", "properties": {
                "selector": {"type": "string"}, "value": {"type": "string"}}}),
        );
        assert_eq!(ToolKind::of(&tool), ToolKind::Generic);
    }

    #[test]
    fn kinds_from_names_and_descriptions() {
        assert_eq!(
            kind("get_current_weather", "Get the current weather"),
            ToolKind::Weather
        );
        assert_eq!(
            kind(
                "maps_geocode",
                "Convert an address into geographic coordinates"
            ),
            ToolKind::Geocode
        );
        assert_eq!(
            kind("maps_elevation", "Get elevation data for locations"),
            ToolKind::Elevation
        );
        assert_eq!(
            kind("maps_distance_matrix", "Calculate travel distance and time"),
            ToolKind::Route
        );
        assert_eq!(
            kind("maps_search_places", "Search for places using a places API"),
            ToolKind::Places
        );
        assert_eq!(
            kind("web_search", "Performs a web search"),
            ToolKind::Search
        );
        assert_eq!(
            kind(
                "search_calendar_events",
                "Searches calendar events that match a query"
            ),
            ToolKind::SearchOwn
        );
        assert_eq!(
            kind("create-event", "Create a new calendar event."),
            ToolKind::Calendar
        );
        assert_eq!(kind("send_email", "Sends a new email"), ToolKind::Email);
        assert_eq!(
            kind("post_message", "Post a new message to a team channel"),
            ToolKind::PublicPost
        );
        assert_eq!(
            kind("create_issue", "Create a new issue in a repository"),
            ToolKind::Code
        );
        assert_eq!(
            kind("send_money", "Sends a transaction to the recipient."),
            ToolKind::Payment
        );
        assert_eq!(
            kind("hand_off_to_agent", "Delegate a task to another agent"),
            ToolKind::Delegation
        );
        assert_eq!(
            kind(
                "lookup_drug_interactions",
                "Check interactions between drugs"
            ),
            ToolKind::HealthInfo
        );
        assert_eq!(
            kind("run_sql", "Execute a read-only SQL query"),
            ToolKind::Database
        );
        // An answer engine or a calculator answers the question it is given.
        assert_eq!(
            kind("calculator", "Evaluate an arithmetic expression"),
            ToolKind::Search
        );
        assert_eq!(
            kind("format_date", "Format a timestamp for display"),
            ToolKind::Generic
        );
    }

    #[test]
    fn words_match_whole() {
        assert_eq!(
            kind("discard_docker_border", "override the training set"),
            ToolKind::Generic
        );
    }
}
