//! The analyzer and rewriter per tool handler, on realistic calls to real tools' schemas
//! (public MCP servers and function-calling benchmarks), in English, German, French, Spanish
//! and Italian.
//!
//! The classifier is replaced by a detector that marks given phrases, so these tests pin the
//! decisions (what each tool needs) independently of detection.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use serde_json::{Value, json};
use toolminimize_core::classify::{Detector, Field};
use toolminimize_core::{
    Action, Call, Category, Finding, Minimizer, Policy, PsdKind, Report, Session, ToolDef,
};

#[derive(Debug, Clone)]
struct Marks(Vec<(&'static str, PsdKind)>);

impl Detector for Marks {
    fn name(&self) -> &'static str {
        "marks"
    }
    fn detect(&self, text: &str, _field: &Field<'_>, out: &mut Vec<Finding>) {
        for (phrase, kind) in &self.0 {
            for (i, _) in text.match_indices(phrase) {
                out.push(Finding::new(i..i + phrase.len(), *kind, 0.9, "marks"));
            }
        }
    }
}

fn minimizer(marks: &[(&'static str, PsdKind)], policy: Policy) -> Minimizer {
    Minimizer::builder()
        .policy(policy)
        .detector(Marks(marks.to_vec()))
        .build()
        .unwrap()
}

fn run(tool: Value, args: Value, marks: &[(&'static str, PsdKind)]) -> (Value, Report) {
    let m = minimizer(marks, Policy::default());
    let tool = ToolDef::from_json(&tool).unwrap();
    let out = m.minimize(&tool, &args);
    let report = out.report.clone();
    (out.into_arguments().unwrap(), report)
}

fn brave_search() -> Value {
    json!({"name": "brave_web_search", "description": "Performs a web search using the Brave Search API, ideal for general queries, news, articles, and online content.",
        "inputSchema": {"type": "object", "properties": {
            "query": {"type": "string", "description": "Search query (max 400 chars, 50 words)"},
            "count": {"type": "number", "description": "Number of results (1-20, default 10)", "default": 10}},
        "required": ["query"]}})
}

#[test]
fn weather_search_keeps_the_city_and_drops_the_reason_for_going() {
    let (args, report) = run(
        brave_search(),
        json!({"query": "rain forecast Saturday near St. Vincent Oncology Center 4410 Pine Ridge Road Tulsa OK - for Marta Keller chemo 8:15"}),
        &[
            ("St. Vincent Oncology Center", PsdKind::HealthFacility),
            ("4410 Pine Ridge Road", PsdKind::StreetAddress),
            ("Marta Keller", PsdKind::PersonName),
            ("chemo", PsdKind::Condition),
        ],
    );
    assert_eq!(args["query"], "rain forecast Saturday near Tulsa OK");
    assert!(
        report
            .items
            .iter()
            .all(|i| !i.necessary && i.action == Action::Remove || i.action == Action::Generalize)
    );
    assert_eq!(report.cost_after, 0.0);
    assert!(report.cost_before > 0.0);
}

#[test]
fn german_weather_query_loses_its_appendix_whole() {
    let (args, _) = run(
        brave_search(),
        json!({"query": "Wetter Sonntag Freiburg - Termin Dialysezentrum, Jonas Weber"}),
        &[("Dialysezentrum", PsdKind::HealthFacility)],
    );
    // The name in the appendix was never detected: the appendix goes whole anyway.
    assert_eq!(args["query"], "Wetter Sonntag Freiburg");
}

#[test]
fn search_keeps_its_topic_and_drops_the_searchers_profile() {
    let (args, report) = run(
        brave_search(),
        json!({"query": "metformin side effects - Tom Baker, 52, type 2 diabetes, 18 Elm Court Leeds"}),
        &[
            ("metformin", PsdKind::Medication),
            ("Tom Baker", PsdKind::PersonName),
            ("type 2 diabetes", PsdKind::Condition),
            ("18 Elm Court", PsdKind::StreetAddress),
        ],
    );
    assert_eq!(args["query"], "metformin side effects");
    let topic = report
        .items
        .iter()
        .find(|i| i.kind == "medication")
        .unwrap();
    assert!(topic.necessary);
    assert_eq!(topic.rule, "handler:topic-of-text");
}

#[test]
fn spanish_search_keeps_the_first_special_term_only() {
    let (args, _) = run(
        brave_search(),
        json!({"query": "grupos de apoyo duelo Sevilla musulmanes con ansiedad"}),
        &[
            ("grupos de apoyo duelo", PsdKind::Condition),
            ("musulmanes", PsdKind::Belief),
            ("ansiedad", PsdKind::Condition),
        ],
    );
    assert_eq!(args["query"], "grupos de apoyo duelo Sevilla");
}

fn create_event() -> Value {
    json!({"name": "create-event", "description": "Create a new calendar event.", "inputSchema": {"type": "object", "properties": {
        "calendarId": {"type": "string"}, "summary": {"type": "string", "description": "Title of the event"},
        "description": {"type": "string", "description": "Description/notes for the event"},
        "start": {"type": "string"}, "end": {"type": "string"},
        "location": {"type": "string", "description": "Location of the event"},
        "attendees": {"type": "array", "items": {"type": "object", "properties": {"email": {"type": "string", "format": "email"}, "displayName": {"type": "string"}}, "required": ["email"]}}
    }, "required": ["calendarId", "summary", "start", "end"]}})
}

#[test]
fn french_calendar_event_drops_the_optional_story_and_keeps_attendees() {
    let (args, report) = run(
        create_event(),
        json!({"calendarId": "primary", "summary": "Déjeuner avec Claire", "start": "2025-09-12T12:30:00", "end": "2025-09-12T13:30:00",
            "description": "Elle sort d'une cure de désintoxication à la clinique Belle-Rive, rester discret.",
            "attendees": [{"email": "claire.martin@exemple.fr", "displayName": "Claire Martin"}]}),
        &[
            ("cure de désintoxication", PsdKind::Condition),
            ("clinique Belle-Rive", PsdKind::HealthFacility),
            ("claire.martin@exemple.fr", PsdKind::Email),
            ("Claire Martin", PsdKind::PersonName),
        ],
    );
    assert!(args.get("description").is_none());
    assert_eq!(args["attendees"][0]["email"], "claire.martin@exemple.fr");
    assert_eq!(args["attendees"][0]["displayName"], "Claire Martin");
    assert!(
        report
            .items
            .iter()
            .filter(|i| i.path.starts_with("/attendees"))
            .all(|i| i.necessary)
    );
}

#[test]
fn calendar_title_loses_special_terms_and_location_becomes_the_city() {
    let (args, _) = run(
        create_event(),
        json!({"calendarId": "primary", "summary": "Narcotics Anonymous - Thursday group", "start": "2025-06-12T19:00:00", "end": "2025-06-12T20:00:00",
            "location": "St. Mark's Church hall, 233 Elm Street, Oakland, CA"}),
        &[
            ("Narcotics Anonymous", PsdKind::Condition),
            ("St. Mark's Church", PsdKind::Belief),
            ("233 Elm Street", PsdKind::StreetAddress),
        ],
    );
    assert_eq!(args["summary"], "Thursday group");
    assert_eq!(args["location"], "hall, Oakland, CA");
}

fn send_email() -> Value {
    json!({"name": "send_email", "description": "Sends a new email", "inputSchema": {"type": "object", "properties": {
        "to": {"type": "array", "items": {"type": "string"}, "description": "List of recipient email addresses"},
        "subject": {"type": "string", "description": "Email subject"},
        "body": {"type": "string", "description": "Email body content"}}, "required": ["to", "subject", "body"]}})
}

#[test]
fn spanish_email_keeps_greeting_signature_and_contact_but_not_the_diagnosis_or_id() {
    let (args, _) = run(
        send_email(),
        json!({"to": ["marta.gil@estudio-norte.es"], "subject": "Reunión del lunes",
            "body": "Hola Marta, llegaré a las 10 el lunes. Tengo cita en la unidad de salud mental por mi depresión. Llámame al 612 345 678. - Javier Ortega, DNI 12345678Z"}),
        &[
            ("unidad de salud mental", PsdKind::HealthFacility),
            ("depresión", PsdKind::Condition),
            ("612 345 678", PsdKind::Phone),
            ("Javier Ortega", PsdKind::PersonName),
            ("12345678Z", PsdKind::NationalId),
        ],
    );
    let body = args["body"].as_str().unwrap();
    assert!(body.contains("llegaré a las 10 el lunes"), "{body}");
    assert!(body.contains("612 345 678"), "{body}");
    assert!(body.contains("Javier Ortega"), "{body}");
    assert!(
        !body.contains("depresión")
            && !body.contains("salud mental")
            && !body.contains("12345678Z")
            && !body.contains("DNI"),
        "{body}"
    );
}

#[test]
fn email_to_a_pharmacy_keeps_the_prescription_it_is_about() {
    let (args, _) = run(
        send_email(),
        json!({"to": ["orders@riverside-pharmacy.com"], "subject": "Refill",
            "body": "Please refill my sertraline 100mg for pickup Friday. I'm also starting chemo next week."}),
        &[
            ("sertraline", PsdKind::Medication),
            ("chemo", PsdKind::Condition),
        ],
    );
    let body = args["body"].as_str().unwrap();
    assert!(body.contains("sertraline 100mg"), "{body}");
    assert!(!body.contains("chemo"), "{body}");
}

#[test]
fn italian_channel_post_loses_the_health_aside() {
    let tool = json!({"name": "slack_post_message", "description": "Post a new message to a Slack channel", "inputSchema": {"type": "object",
        "properties": {"channel_id": {"type": "string"}, "text": {"type": "string", "description": "The message text to post"}}, "required": ["channel_id", "text"]}});
    let (args, _) = run(
        tool,
        json!({"channel_id": "C0TEAM", "text": "Domani sono fuori - ho la chemioterapia al Policlinico Gemelli. Rientro giovedì."}),
        &[
            ("chemioterapia", PsdKind::Condition),
            ("Policlinico Gemelli", PsdKind::HealthFacility),
        ],
    );
    assert_eq!(args["text"], "Domani sono fuori. Rientro giovedì.");
}

#[test]
fn directions_keep_both_addresses_and_the_destination_name() {
    let tool = json!({"name": "maps_directions", "description": "Get directions between two points", "inputSchema": {"type": "object", "properties": {
        "origin": {"type": "string"}, "destination": {"type": "string"}, "mode": {"type": "string", "enum": ["driving", "walking", "bicycling", "transit"]}}, "required": ["origin", "destination"]}});
    let (args, _) = run(
        tool,
        json!({"origin": "77 Birch Lane, Austin, TX 78704", "destination": "Hope Recovery rehab, 1200 Lakeshore Dr, Austin, TX", "mode": "driving"}),
        &[
            ("77 Birch Lane", PsdKind::StreetAddress),
            ("Hope Recovery rehab", PsdKind::HealthFacility),
            ("1200 Lakeshore Dr", PsdKind::StreetAddress),
        ],
    );
    assert_eq!(args["origin"], "77 Birch Lane, Austin, TX 78704");
    // The destination's name is the place the user asked to reach.
    assert_eq!(
        args["destination"],
        "Hope Recovery rehab, 1200 Lakeshore Dr, Austin, TX"
    );
}

#[test]
fn a_pickup_at_a_clinic_needs_its_address_not_its_name() {
    let tool = json!({"name": "request_ride", "description": "Request a ride from a pickup point to a destination", "inputSchema": {"type": "object", "properties": {
        "pickup": {"type": "string"}, "destination": {"type": "string"}}, "required": ["pickup", "destination"]}});
    let (args, _) = run(
        tool,
        json!({"pickup": "Lakeside Dialysis Center, 410 Harbor Blvd, Oxnard, CA", "destination": "22 Pine St, Ventura, CA"}),
        &[
            ("Lakeside Dialysis Center", PsdKind::HealthFacility),
            ("410 Harbor Blvd", PsdKind::StreetAddress),
            ("22 Pine St", PsdKind::StreetAddress),
        ],
    );
    assert_eq!(args["pickup"], "410 Harbor Blvd, Oxnard, CA");
    assert_eq!(args["destination"], "22 Pine St, Ventura, CA");
}

#[test]
fn place_search_generalizes_optional_coordinates() {
    let tool = json!({"name": "maps_search_places", "description": "Search for places using Google Places API", "inputSchema": {"type": "object", "properties": {
        "query": {"type": "string"}, "location": {"type": "object", "properties": {"latitude": {"type": "number"}, "longitude": {"type": "number"}}},
        "radius": {"type": "number"}}, "required": ["query"]}});
    let m = Minimizer::new().unwrap();
    let out = m.minimize(
        &ToolDef::from_json(&tool).unwrap(),
        &json!({"query": "bakery", "location": {"latitude": 51.507351, "longitude": -0.127758}}),
    );
    let args = out.arguments().unwrap();
    // Only holds once numeric coordinates are detected; with no detection nothing changes.
    if out.report.items.iter().any(|i| i.kind == "coordinates") {
        assert_eq!(
            args["location"],
            json!({"latitude": 51.5, "longitude": -0.12})
        );
    }
}

#[test]
fn german_payment_memo_keeps_the_payee_and_drops_the_health_story() {
    let tool = json!({"name": "send_money", "description": "Sends a transaction to the recipient.", "inputSchema": {"type": "object", "properties": {
        "recipient": {"type": "string", "description": "IBAN of the recipient"}, "amount": {"type": "number"}, "subject": {"type": "string"}, "date": {"type": "string"}},
        "required": ["recipient", "amount", "subject", "date"]}});
    let (args, _) = run(
        tool,
        json!({"recipient": "DE89370400440532013000", "amount": 12.0, "subject": "Mitgliedsbeitrag IG Metall - wegen Krankschreibung (Burnout) reduziert", "date": "2025-07-01"}),
        &[
            ("DE89370400440532013000", PsdKind::Iban),
            ("IG Metall", PsdKind::Belief),
            ("Krankschreibung", PsdKind::Condition),
            ("Burnout", PsdKind::Condition),
        ],
    );
    assert_eq!(args["recipient"], "DE89370400440532013000");
    let subject = args["subject"].as_str().unwrap();
    assert!(subject.contains("IG Metall"), "{subject}");
    assert!(
        !subject.contains("Burnout") && !subject.contains("Krankschreibung"),
        "{subject}"
    );
}

#[test]
fn public_issue_text_loses_personal_contact_data() {
    let tool = json!({"name": "create_issue", "description": "Create a new issue in a GitHub repository", "inputSchema": {"type": "object", "properties": {
        "owner": {"type": "string"}, "repo": {"type": "string"}, "title": {"type": "string"}, "body": {"type": "string"}},
        "required": ["owner", "repo", "title", "body"]}});
    let (args, _) = run(
        tool,
        json!({"owner": "acme", "repo": "billing", "title": "Invoice PDF fails to render", "body": "Customer lena.fischer@posteo.de (IP 84.12.9.201) cannot open invoice 2291."}),
        &[
            ("lena.fischer@posteo.de", PsdKind::Email),
            ("84.12.9.201", PsdKind::IpAddress),
        ],
    );
    let body = args["body"].as_str().unwrap();
    assert!(
        !body.contains("lena.fischer") && !body.contains("84.12.9.201"),
        "{body}"
    );
    assert!(body.contains("cannot open invoice 2291"), "{body}");
}

#[test]
fn crm_contact_keeps_its_contact_fields_and_drops_profiling_notes() {
    let tool = json!({"name": "hubspot_create_contact", "description": "Create a new contact in HubSpot", "inputSchema": {"type": "object", "properties": {
        "firstname": {"type": "string"}, "lastname": {"type": "string"}, "email": {"type": "string"}, "properties": {"type": "object", "description": "Additional contact properties"}},
        "required": ["firstname", "lastname"]}});
    let (args, _) = run(
        tool,
        json!({"firstname": "Amara", "lastname": "Okafor", "email": "amara@brightlane.io", "properties": {"phone": "+44 20 7946 0321", "notes": "Nigerian, devout Catholic, on dialysis"}}),
        &[
            ("amara@brightlane.io", PsdKind::Email),
            ("+44 20 7946 0321", PsdKind::Phone),
            ("Nigerian", PsdKind::EthnicOrigin),
            ("devout Catholic", PsdKind::Belief),
            ("dialysis", PsdKind::Condition),
        ],
    );
    assert_eq!(args["email"], "amara@brightlane.io");
    assert_eq!(args["properties"], json!({"phone": "+44 20 7946 0321"}));
}

#[test]
fn delegation_passes_the_task_not_the_profile() {
    let tool = json!({"name": "send_message_to_agent_async", "description": "Sends a message to a specific agent within the same organization.", "inputSchema": {"type": "object", "properties": {
        "message": {"type": "string"}, "other_agent_id": {"type": "string"}}, "required": ["message", "other_agent_id"]}});
    let (args, _) = run(
        tool,
        json!({"message": "Compare knee replacement recovery times. For Henrik Larsen, 67, widower, lives at Norrebrogade 14, Copenhagen.", "other_agent_id": "agent-research"}),
        &[
            ("knee replacement", PsdKind::Condition),
            ("Henrik Larsen", PsdKind::PersonName),
            ("67", PsdKind::Age),
            ("widower", PsdKind::Family),
            ("Norrebrogade 14", PsdKind::StreetAddress),
        ],
    );
    let msg = args["message"].as_str().unwrap();
    assert!(
        msg.starts_with("Compare knee replacement recovery times."),
        "{msg}"
    );
    assert!(
        !msg.contains("Henrik")
            && !msg.contains("Norrebrogade")
            && !msg.contains("67")
            && !msg.contains("widower"),
        "{msg}"
    );
}

#[test]
fn the_users_own_file_keeps_its_content() {
    let tool = json!({"name": "write_file", "description": "Create a new file or completely overwrite an existing file with new content.", "inputSchema": {"type": "object", "properties": {
        "path": {"type": "string"}, "content": {"type": "string"}}, "required": ["path", "content"]}});
    let args = json!({"path": "/home/ana/meds.md", "content": "Morning: levothyroxine 50mcg. Evening: sertraline 50mg."});
    let (out, _) = run(
        tool,
        args.clone(),
        &[
            ("levothyroxine", PsdKind::Medication),
            ("sertraline", PsdKind::Medication),
        ],
    );
    assert_eq!(out, args);
}

#[test]
fn urls_lose_personal_query_parameters() {
    let tool = json!({"name": "fetch", "description": "Fetches a URL from the internet", "inputSchema": {"type": "object", "properties": {
        "url": {"type": "string", "format": "uri"}}, "required": ["url"]}});
    let (args, _) = run(
        tool,
        json!({"url": "https://portal.example-clinic.org/confirm?visit=88213&patient=Jonas%20Berg&ssn=078-05-1120"}),
        &[
            ("Jonas%20Berg", PsdKind::PersonName),
            ("078-05-1120", PsdKind::Ssn),
        ],
    );
    let url = args["url"].as_str().unwrap();
    assert!(
        url.starts_with("https://portal.example-clinic.org/confirm?visit=88213"),
        "{url}"
    );
    assert!(!url.contains("Jonas") && !url.contains("078-05"), "{url}");
}

#[test]
fn strict_policy_removes_every_item_even_in_needed_fields() {
    let m = minimizer(&[("Kwame Mensah", PsdKind::PersonName)], Policy::strict());
    let tool = ToolDef::new(
        "lookup",
        "",
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}),
    );
    let out = m.minimize(&tool, &json!({"name": "Kwame Mensah"}));
    assert_ne!(out.arguments().unwrap()["name"], "Kwame Mensah");
    assert!(out.report.items.iter().all(|i| !i.necessary));
}

#[test]
fn task_context_consent_keeps_what_the_user_asked_to_send() {
    let m = minimizer(
        &[
            ("63 Larch Way", PsdKind::StreetAddress),
            ("dementia", PsdKind::Condition),
        ],
        Policy::default(),
    );
    let tool = ToolDef::from_json(&json!({"name": "post_note", "description": "Post a note to the shared board", "inputSchema": {"type": "object",
        "properties": {"text": {"type": "string"}}, "required": ["text"]}})).unwrap();
    let args = json!({"text": "Address: 63 Larch Way. My husband has dementia, call first."});
    let without = m.minimize(&tool, &args);
    assert!(
        !without.arguments().unwrap()["text"]
            .as_str()
            .unwrap()
            .contains("63 Larch Way")
    );
    let with = m.minimize_call(
        &Call::new(&tool, &args).task_context("Post our address for the plumber, please send it"),
    );
    let text = with.arguments().unwrap()["text"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(text.contains("63 Larch Way"), "{text}");
    assert!(!text.contains("dementia"), "{text}");
}

#[test]
fn sessions_catch_identity_dribbled_over_calls_and_keep_placeholders_stable() {
    let m = minimizer(
        &[
            ("Ines Duarte", PsdKind::PersonName),
            ("1990-04-12", PsdKind::DateOfBirth),
        ],
        Policy::default(),
    );
    let tool = ToolDef::from_json(&json!({"name": "ask_assistant_agent", "description": "Ask a research agent", "inputSchema": {"type": "object",
        "properties": {"question": {"type": "string"}, "profile": {"type": "string", "x-psd-category": "identity"}}, "required": ["question"]}})).unwrap();
    let s = Session::new("s1");
    // Call 1: the name goes where the schema asks for it.
    let one = m.minimize_call(
        &Call::new(
            &tool,
            &json!({"question": "visa rules", "profile": "Ines Duarte"}),
        )
        .session(&s),
    );
    assert_eq!(one.arguments().unwrap()["profile"], "Ines Duarte");
    // Call 2: a date of birth in free text would complete name + date of birth at the same tool.
    let two = m.minimize_call(
        &Call::new(
            &tool,
            &json!({"question": "visa rules for someone born 1990-04-12, any exemptions?"}),
        )
        .session(&s),
    );
    let q = two.arguments().unwrap()["question"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(!q.contains("1990-04-12"), "{q}");
    assert_eq!(s.calls_seen(), 2);
}

#[test]
fn annotations_steer_the_rewrite() {
    let m = minimizer(
        &[
            ("Priya Nair", PsdKind::PersonName),
            ("asthma", PsdKind::Condition),
        ],
        Policy::default(),
    );
    let tool = ToolDef::from_json(&json!({"name": "book_slot", "description": "Book a clinic slot", "inputSchema": {"type": "object", "properties": {
        "patient": {"type": "string", "x-psd-category": "identity", "x-minimize": "keep"},
        "reason": {"type": "string", "x-minimize": {"op": "truncate", "max_chars": 12}},
        "notes": {"type": "string", "x-sensitivity": 1, "x-psd-category": "health"}},
        "required": ["patient", "reason"], "minimum_necessary": ["patient"]}})).unwrap();
    let out = m.minimize(&tool, &json!({"patient": "Priya Nair", "reason": "Follow-up for asthma review", "notes": "asthma"}));
    let args = out.arguments().unwrap();
    assert_eq!(args["patient"], "Priya Nair");
    assert_eq!(args["reason"], "Follow-up fo");
    assert_eq!(args["notes"], "asthma");
    let notes = out
        .report
        .items
        .iter()
        .find(|i| i.path == "/notes")
        .unwrap();
    assert_eq!(notes.sensitivity, 1);
    assert_eq!(notes.category, Category::Health);
}

#[test]
fn a_required_field_with_a_pattern_stays_valid() {
    let m = minimizer(&[("Lucia", PsdKind::PersonName)], Policy::strict());
    let tool = ToolDef::new(
        "t",
        "",
        json!({"type": "object", "properties": {"code": {"type": "string", "pattern": "^[A-Z][a-z]+$"}}, "required": ["code"]}),
    );
    let out = m.minimize(&tool, &json!({"code": "Lucia"}));
    let code = out.arguments().unwrap()["code"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(regex_lite_match(&code), "{code}");
}

fn regex_lite_match(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f.is_ascii_uppercase())
        && c.clone().count() > 0
        && c.all(|x| x.is_ascii_lowercase())
}

#[test]
fn benign_calls_pass_unchanged() {
    let m = minimizer(&[], Policy::default());
    let args = json!({"query": "best budget mechanical keyboard 2025", "count": 5});
    let out = m.minimize(&ToolDef::from_json(&brave_search()).unwrap(), &args);
    assert_eq!(out.arguments().unwrap(), &args);
    assert!(out.report.items.is_empty());
}

mod judged {
    use super::*;
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};
    use toolminimize_core::decide::judge::{ContentJudge, JudgeAnswer, JudgeError, JudgeRequest};

    fn block_on<F: Future>(f: F) -> F::Output {
        let mut f = pin!(f);
        let mut cx = Context::from_waker(Waker::noop());
        loop {
            if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
                return v;
            }
        }
    }

    /// Says the task needs every health item, plus what the rules already need (the
    /// recipient's phone number).
    #[derive(Debug)]
    struct NeedsHealth;
    impl ContentJudge for NeedsHealth {
        async fn judge(&self, req: &JudgeRequest) -> Result<JudgeAnswer, JudgeError> {
            Ok(JudgeAnswer {
                needed: req
                    .candidates
                    .iter()
                    .filter(|c| c.category == Category::Health || c.rule_says_needed)
                    .map(|c| c.index)
                    .collect(),
            })
        }
    }

    #[derive(Debug)]
    struct Broken;
    impl ContentJudge for Broken {
        async fn judge(&self, _req: &JudgeRequest) -> Result<JudgeAnswer, JudgeError> {
            Err(JudgeError::Timeout)
        }
    }

    #[test]
    fn a_judge_overrides_rules_and_a_failing_judge_changes_nothing() {
        let m = minimizer(
            &[
                ("Hospital del Mar", PsdKind::HealthFacility),
                ("quimio", PsdKind::Condition),
            ],
            Policy::default(),
        );
        let tool = ToolDef::from_json(&json!({"name": "send_message", "description": "Send a WhatsApp message", "inputSchema": {"type": "object",
            "properties": {"recipient": {"type": "string"}, "message": {"type": "string"}}, "required": ["recipient", "message"]}})).unwrap();
        let args = json!({"recipient": "+34 600 111 222", "message": "Te recojo a las 6 en la puerta del Hospital del Mar después de la quimio."});
        let call = Call::new(&tool, &args);
        let judged = block_on(m.minimize_judged(&call, &NeedsHealth));
        assert_eq!(judged.arguments().unwrap(), &args);
        // The pickup point is needed by the rules; the treatment only because the judge
        // says so.
        let rules: Vec<(&str, &str)> = judged
            .report
            .items
            .iter()
            .filter(|i| i.path == "/message")
            .map(|i| (i.kind.as_str(), i.rule))
            .collect();
        assert_eq!(
            rules,
            [
                ("health_facility", "handler:meeting-point"),
                ("condition", "judge:needed")
            ]
        );
        let fallback = block_on(m.minimize_judged(&call, &Broken));
        assert_eq!(fallback, m.minimize(&tool, &args));
    }
}

#[test]
fn a_search_about_a_public_person_keeps_the_name() {
    let m = Minimizer::new().unwrap();
    let tool = ToolDef::from_json(&brave_search()).unwrap();
    for q in [
        "Taylor Swift tour dates 2025",
        "novels by Stephen King published after 2010",
        "Angela Merkel Rücktritt Datum",
        "Gabriel García Márquez obras completas",
        "Lionel Messi goals this season",
    ] {
        let args = json!({ "query": q });
        let out = m.minimize(&tool, &args);
        assert_eq!(out.arguments().unwrap(), &args, "{q}");
    }
    // A query that ties a named person to their own data loses the name.
    let query_after = |q: &str| {
        let out = m.minimize(&tool, &json!({ "query": q }));
        out.arguments().unwrap()["query"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(
        query_after("Humira side effects - Ruth Calloway, 52, Crohn's disease"),
        "Humira side effects"
    );
    let after = query_after("custody lawyer divorce Pablo Navarro protective order");
    assert!(!after.contains("Navarro"), "{after}");
}

#[test]
fn a_sick_note_keeps_the_notice_and_drops_the_diagnosis() {
    let m = Minimizer::new().unwrap();
    let args = json!({"to": ["hr@example-gmbh.de"], "subject": "Krankmeldung", "body": "Hallo Herr Brandt, ich bin bis Mittwoch krankgeschrieben. Mein Arzt hat eine Gürtelrose festgestellt. Viele Grüße, Lena Vogt"});
    let out = m.minimize(&ToolDef::from_json(&send_email()).unwrap(), &args);
    let after = out.arguments().unwrap();
    assert_eq!(after["subject"], "Krankmeldung");
    let body = after["body"].as_str().unwrap();
    assert!(body.contains("krankgeschrieben"), "{body}");
    assert!(!body.contains("Gürtelrose"), "{body}");
    // Mentioned in passing to someone who does not need it, sick leave goes too.
    let args = json!({"to": ["agence@immo-example.fr"], "subject": "Visite", "body": "Bonjour, je confirme la visite de samedi. Je suis en arrêt maladie donc disponible en semaine aussi. Cordialement, Paul Martin"});
    let out = m.minimize(&ToolDef::from_json(&send_email()).unwrap(), &args);
    let body = out.arguments().unwrap()["body"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(!body.contains("maladie"), "{body}");
    assert!(body.contains("je confirme la visite de samedi"), "{body}");
}

#[test]
fn a_search_for_a_profession_keeps_it() {
    let m = Minimizer::new().unwrap();
    let tool = ToolDef::from_json(&brave_search()).unwrap();
    let out = m.minimize(
        &tool,
        &json!({"query": "family lawyer near Leeds - I'm getting divorced, my husband hits me"}),
    );
    let q = out.arguments().unwrap()["query"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(q.starts_with("family lawyer near Leeds"), "{q}");
    assert!(!q.contains("divorced") && !q.contains("hits"), "{q}");
}

#[test]
fn url_coordinates_are_generalized_not_dropped() {
    let m = Minimizer::new().unwrap();
    let tool = ToolDef::from_json(&json!({"name": "fetch", "description": "Fetches a URL from the internet", "inputSchema": {"type": "object",
        "properties": {"url": {"type": "string"}}, "required": ["url"]}})).unwrap();
    let out = m.minimize(
        &tool,
        &json!({"url": "https://api.weather.example/v1/forecast?lat=40.712776&lon=-74.005974&units=metric"}),
    );
    let url = out.arguments().unwrap()["url"].as_str().unwrap().to_owned();
    assert!(url.contains("lat=40.") && url.contains("lon=-74."), "{url}");
    assert!(!url.contains("712776") && !url.contains("005974"), "{url}");
    assert!(url.ends_with("&units=metric"), "{url}");
}

#[test]
fn an_encoded_address_is_cut_whole_even_across_entity_semicolons() {
    let m = Minimizer::new().unwrap();
    let tool = ToolDef::from_json(&brave_search()).unwrap();
    let out = m.minimize(
        &tool,
        &json!({"query": "cheap flights NYC to Lisbon, my email is r&#46;kaur&#64;proton&#46;me"}),
    );
    let q = out.arguments().unwrap()["query"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(q, "cheap flights NYC to Lisbon");
}
