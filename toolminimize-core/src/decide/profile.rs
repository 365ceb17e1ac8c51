//! What kind of tool this is and what role each field plays, read from the tool's name,
//! description and schema (never from a fixed list of tool names).
//!
//! ```
//! use serde_json::json;
//! use toolminimize_core::ToolDef;
//! use toolminimize_core::decide::profile::{FieldRole, ToolKind, field_role};
//! let t = ToolDef::new("get-forecast", "Get weather forecast for a location", json!({}));
//! assert_eq!(ToolKind::of(&t), ToolKind::Weather);
//! assert_eq!(field_role(Some("query"), Some("Search query"), "tea"), FieldRole::Query);
//! ```

use crate::tool::ToolDef;

/// The kind of tool, which decides what its free text and locations need.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToolKind {
    /// Weather and forecasts: a place at city level.
    Weather,
    /// Creating or changing calendar events.
    Calendar,
    /// Sending e-mail.
    Email,
    /// Direct and group messaging.
    Messaging,
    /// Posting to a channel, forum or other public or shared space.
    PublicPost,
    /// Web, e-mail, file or calendar search.
    Search,
    /// Fetching a URL.
    Fetch,
    /// Directions and rides: the route's places.
    Route,
    /// Place search and maps.
    Places,
    /// Travel booking and support.
    Travel,
    /// Payments, transfers, banking.
    Payment,
    /// Files and documents (writing or reading the user's own content).
    Files,
    /// Code hosting: issues, comments, pull requests.
    Code,
    /// Contacts, CRM and notes about people.
    Crm,
    /// Shopping, orders and customer support hand-over.
    Shopping,
    /// Delegating work to another agent or a human.
    Delegation,
    /// Customer support: a question about a booking, order or account.
    Support,
    /// Health look-ups (drugs, doctors, appointments).
    Health,
    /// Anything else.
    Generic,
}

fn has_any(hay: &str, words: &[&str]) -> bool {
    words.iter().any(|w| hay.contains(w))
}

impl ToolKind {
    /// Recognises the kind of `tool` from its name, description and property names.
    pub fn of(tool: &ToolDef) -> ToolKind {
        let name = tool.name().to_lowercase().replace(['-', '.', ' '], "_");
        let desc = tool.description().to_lowercase();
        let props: String = tool
            .input_schema()
            .get("properties")
            .and_then(|p| p.as_object())
            .map(|p| {
                p.keys()
                    .map(|k| k.to_lowercase())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default();
        let both = format!("{name} {desc}");
        if has_any(&both, &["weather", "forecast", "meteo", "wetter"]) {
            return ToolKind::Weather;
        }
        if has_any(
            &name,
            &[
                "delegate",
                "handoff",
                "hand_off",
                "transfer_to",
                "to_agent",
                "coworker",
                "subagent",
                "ask_agent",
                "call_agent",
                "run_agent",
                "invoke_agent",
                "message_agent",
            ],
        ) || has_any(
            &desc,
            &[
                "delegate",
                "another agent",
                "other agent",
                "coworker",
                "human agent",
                "sub-agent",
                "subagent",
                "research agent",
                "to the agent",
                "specialist agent",
                "an ai agent",
            ],
        ) {
            return ToolKind::Delegation;
        }
        if has_any(
            &name,
            &[
                "support",
                "helpdesk",
                "ticket",
                "complaint",
                "customer_service",
            ],
        ) {
            return ToolKind::Support;
        }
        if has_any(
            &name,
            &["direction", "route", "ride", "navigate", "distance_matrix"],
        ) {
            return ToolKind::Route;
        }
        if has_any(
            &name,
            &["search", "find", "query", "lookup", "look_up", "list"],
        ) && has_any(&name, &["drug", "medic", "doctor", "pharma", "symptom"])
        {
            return ToolKind::Health;
        }
        if has_any(
            &name,
            &[
                "drug",
                "doctor",
                "appointment",
                "therapist",
                "patient",
                "pharmacy",
            ],
        ) {
            return ToolKind::Health;
        }
        if has_any(&name, &["place", "geocode", "maps", "nearby", "poi"]) {
            return ToolKind::Places;
        }
        if has_any(
            &name,
            &[
                "fetch", "browse", "open_url", "scrape", "crawl", "http_get", "read_url",
            ],
        ) {
            return ToolKind::Fetch;
        }
        if has_any(&name, &["search", "query", "find", "lookup"])
            && !has_any(&name, &["user_id", "customer"])
        {
            return ToolKind::Search;
        }
        if has_any(&name, &["event", "calendar", "meeting", "schedule_meeting"])
            && !has_any(&name, &["transaction", "payment"])
        {
            return ToolKind::Calendar;
        }
        if has_any(&name, &["email", "mail"]) {
            return ToolKind::Email;
        }
        if has_any(
            &name,
            &["channel", "post", "tweet", "publish", "forum", "slack"],
        ) || has_any(&desc, &[" channel", "forum"])
            && !has_any(&desc, &["direct message", "private"])
            && !has_any(&name, &["issue", "comment", "repo", "pull"])
        {
            return ToolKind::PublicPost;
        }
        if has_any(
            &name,
            &[
                "message", "sms", "chat", "whatsapp", "telegram", "signal", "text_",
            ],
        ) {
            return ToolKind::Messaging;
        }
        if has_any(
            &name,
            &[
                "issue",
                "comment",
                "pull_request",
                "commit",
                "repo",
                "gist",
                "review",
            ],
        ) {
            return ToolKind::Code;
        }
        if has_any(
            &name,
            &[
                "money",
                "payment",
                "transfer",
                "transaction",
                "pay_",
                "invoice",
                "bank",
                "credit_card",
                "card",
            ],
        ) {
            return ToolKind::Payment;
        }
        if has_any(
            &name,
            &[
                "contact",
                "entit",
                "crm",
                "lead",
                "customer",
                "note",
                "memory",
                "observation",
            ],
        ) {
            return ToolKind::Crm;
        }
        if has_any(
            &name,
            &[
                "file", "document", "doc", "write", "upload", "drive", "save",
            ],
        ) {
            return ToolKind::Files;
        }
        if has_any(
            &name,
            &[
                "flight",
                "hotel",
                "booking",
                "reservation",
                "travel",
                "airbnb",
                "train",
            ],
        ) || has_any(&desc, &["travel system", "flights", "hotel"])
        {
            return ToolKind::Travel;
        }
        if has_any(
            &name,
            &["order", "cart", "product", "return", "refund", "shop"],
        ) {
            return ToolKind::Shopping;
        }
        if has_any(&desc, &["email"]) && has_any(&props, &["body", "subject"]) {
            return ToolKind::Email;
        }
        if has_any(&desc, &["message"]) && has_any(&props, &["message", "text", "body"]) {
            return ToolKind::Messaging;
        }
        ToolKind::Generic
    }

    /// The stable id used in reports.
    pub const fn id(self) -> &'static str {
        match self {
            ToolKind::Weather => "weather",
            ToolKind::Calendar => "calendar",
            ToolKind::Email => "email",
            ToolKind::Messaging => "messaging",
            ToolKind::PublicPost => "public_post",
            ToolKind::Search => "search",
            ToolKind::Fetch => "fetch",
            ToolKind::Route => "route",
            ToolKind::Places => "places",
            ToolKind::Travel => "travel",
            ToolKind::Payment => "payment",
            ToolKind::Files => "files",
            ToolKind::Code => "code",
            ToolKind::Crm => "crm",
            ToolKind::Shopping => "shopping",
            ToolKind::Delegation => "delegation",
            ToolKind::Support => "support",
            ToolKind::Health => "health",
            ToolKind::Generic => "generic",
        }
    }
}

/// The role a field plays for its tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FieldRole {
    /// A search query or keywords: one topic.
    Query,
    /// A message, body, description, note, summary or task: free text for a reader.
    Message,
    /// A title, subject or memo line.
    Title,
    /// A place: address, location, origin, destination.
    Location,
    /// Recipients, attendees, participants: the people the tool must reach.
    Recipient,
    /// A URL.
    Url,
    /// A file path.
    Path,
    /// A person's name.
    PersonName,
    /// An e-mail address.
    Email,
    /// A phone number.
    Phone,
    /// A date of birth.
    BirthDate,
    /// An identifier or code (ids, numbers, tokens, dates, enums).
    Value,
}

impl FieldRole {
    /// Whether the field holds free text in which single spans can be unnecessary.
    pub const fn is_free_text(self) -> bool {
        matches!(
            self,
            FieldRole::Query | FieldRole::Message | FieldRole::Title
        )
    }
}

fn key_words(key: &str) -> String {
    // camelCase and snake_case to space-separated lower-case words.
    let mut out = String::with_capacity(key.len() + 4);
    let mut prev_lower = false;
    for c in key.chars() {
        if c == '_' || c == '-' || c == '.' || c == ' ' {
            out.push(' ');
            prev_lower = false;
        } else if c.is_uppercase() && prev_lower {
            out.push(' ');
            out.extend(c.to_lowercase());
            prev_lower = false;
        } else {
            out.extend(c.to_lowercase());
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
        }
    }
    format!(" {out} ")
}

/// The role of a field from its key, description and value.
pub fn field_role(key: Option<&str>, description: Option<&str>, value: &str) -> FieldRole {
    let k = key_words(key.unwrap_or_default());
    let d = description.unwrap_or_default().to_lowercase();
    let kw: Vec<&str> = k.split_whitespace().collect();
    let w = |words: &[&str]| words.iter().any(|x| kw.contains(x));
    if w(&["url", "uri", "link", "href", "endpoint"]) || d.starts_with("url") {
        return FieldRole::Url;
    }
    if w(&["path", "filepath", "filename", "file", "dir", "directory"]) {
        return FieldRole::Path;
    }
    if w(&["dob", "birthdate", "birthday", "birth"])
        || k.contains("geburt")
        || k.contains("naissance")
        || k.contains("nacimiento")
    {
        return FieldRole::BirthDate;
    }
    if w(&["email", "emails", "mail"]) && !w(&["body", "subject"]) {
        return FieldRole::Email;
    }
    if w(&[
        "phone",
        "mobile",
        "tel",
        "telephone",
        "cell",
        "fax",
        "msisdn",
    ]) {
        return FieldRole::Phone;
    }
    if w(&[
        "to",
        "cc",
        "bcc",
        "recipient",
        "recipients",
        "attendees",
        "attendee",
        "participants",
        "participant",
        "invitees",
        "guests",
        "assignees",
        "reviewers",
        "members",
    ]) {
        return FieldRole::Recipient;
    }
    if w(&[
        "firstname",
        "lastname",
        "surname",
        "fullname",
        "given",
        "family",
        "cardholder",
        "holder",
        "therapist",
        "patient",
        "passenger",
        "traveler",
        "traveller",
        "guest",
        "vorname",
        "nachname",
        "nom",
        "prenom",
        "nombre",
        "apellido",
        "apellidos",
        "cognome",
        "display",
    ]) || (w(&["name"])
        && (w(&[
            "first", "last", "full", "middle", "user", "contact", "person", "customer",
        ]) || d.contains("person")
            || d.contains("full name")
            || d.contains("first name")
            || d.contains("last name")
            || d.contains("name of the entity")))
    {
        return FieldRole::PersonName;
    }
    if w(&[
        "query", "q", "search", "keywords", "keyword", "term", "terms", "question", "prompt",
    ]) {
        return FieldRole::Query;
    }
    if w(&[
        "address",
        "location",
        "origin",
        "destination",
        "departure",
        "arrival",
        "place",
        "city",
        "venue",
        "from",
        "where",
        "pickup",
        "dropoff",
        "waypoints",
        "area",
        "region",
    ]) {
        return FieldRole::Location;
    }
    if w(&[
        "title", "subject", "summary", "memo", "headline", "topic", "name", "label", "caption",
        "purpose", "reason",
    ]) && value.len() < 160
    {
        return FieldRole::Title;
    }
    if w(&[
        "body",
        "message",
        "text",
        "content",
        "description",
        "notes",
        "note",
        "comment",
        "comments",
        "summary",
        "context",
        "task",
        "details",
        "instructions",
        "observations",
        "observation",
        "bio",
        "remarks",
        "html",
        "msg",
        "reply",
        "answer",
        "input",
        "story",
        "reason",
        "purpose",
        "subject",
    ]) {
        return FieldRole::Message;
    }
    // Unknown key: judge by the value. Several words with spaces read as free text.
    let words = value.split_whitespace().count();
    if words >= 6
        || (words >= 3
            && value
                .chars()
                .any(|c| matches!(c, '.' | ',' | ';' | '!' | '?')))
    {
        return FieldRole::Message;
    }
    FieldRole::Value
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kind(name: &str, desc: &str) -> ToolKind {
        ToolKind::of(&ToolDef::new(name, desc, json!({})))
    }

    #[test]
    fn recognises_tool_kinds_from_names_and_descriptions() {
        assert_eq!(
            kind(
                "get_current_weather",
                "Get the current weather in a given location"
            ),
            ToolKind::Weather
        );
        assert_eq!(
            kind("brave_web_search", "Performs a web search"),
            ToolKind::Search
        );
        assert_eq!(
            kind("maps_directions", "Get directions between two points"),
            ToolKind::Route
        );
        assert_eq!(
            kind("create-event", "Create a new calendar event."),
            ToolKind::Calendar
        );
        assert_eq!(kind("send_email", "Sends a new email"), ToolKind::Email);
        assert_eq!(
            kind(
                "slack_post_message",
                "Post a new message to a Slack channel"
            ),
            ToolKind::PublicPost
        );
        assert_eq!(
            kind("create_issue", "Create a new issue in a GitHub repository"),
            ToolKind::Code
        );
        assert_eq!(
            kind("send_money", "Sends a transaction to the recipient."),
            ToolKind::Payment
        );
        assert_eq!(
            kind("Delegate work to coworker", "Delegate a specific task"),
            ToolKind::Delegation
        );
        assert_eq!(
            kind("send_message", "Send a message to a Discord channel"),
            ToolKind::PublicPost
        );
        assert_eq!(
            kind("send_message", "Send a direct message to a user"),
            ToolKind::Messaging
        );
        assert_eq!(
            kind("ask_agent", "Send a message to the research agent"),
            ToolKind::Delegation
        );
        assert_eq!(
            kind("fetch", "Fetches a URL from the internet"),
            ToolKind::Fetch
        );
        assert_eq!(
            kind("search-drugs", "Search for drug information"),
            ToolKind::Health
        );
        assert_eq!(
            kind("calculator", "Evaluate an arithmetic expression"),
            ToolKind::Generic
        );
    }

    #[test]
    fn field_roles_come_from_keys_descriptions_and_values() {
        assert_eq!(
            field_role(Some("first_name"), None, "Ana"),
            FieldRole::PersonName
        );
        assert_eq!(
            field_role(Some("cardholderName"), None, "Ana Ruiz"),
            FieldRole::PersonName
        );
        assert_eq!(field_role(Some("to"), None, "a@b.co"), FieldRole::Recipient);
        assert_eq!(field_role(Some("body"), None, "Hello"), FieldRole::Message);
        assert_eq!(
            field_role(Some("subject"), None, "Late Monday"),
            FieldRole::Title
        );
        assert_eq!(
            field_role(Some("origin"), None, "1 Main St"),
            FieldRole::Location
        );
        assert_eq!(
            field_role(Some("date_of_birth"), None, "1990-01-01"),
            FieldRole::BirthDate
        );
        assert_eq!(
            field_role(Some("repo"), None, "auth-service"),
            FieldRole::Value
        );
        assert_eq!(
            field_role(Some("name"), Some("Repository name"), "auth"),
            FieldRole::Title
        );
        assert_eq!(
            field_role(Some("x"), None, "one two three four five six"),
            FieldRole::Message
        );
    }
}
