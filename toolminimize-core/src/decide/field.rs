//! The role each field plays for its tool, from its key (`data/decide/fields.tsv`), its
//! description and its value.

use std::sync::LazyLock;

use rustc_hash::FxHashMap;

use crate::item::PsdKind;
use crate::text::words::any_identifier_word;

const FIELDS: &str = include_str!("../../data/decide/fields.tsv");

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
    /// A place: address, location, origin, destination, coordinates.
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
    /// An identifier, code or other value.
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

    /// Whether a field of this role exists to carry data of `kind`.
    pub const fn carries(self, kind: PsdKind) -> bool {
        use PsdKind::*;
        match self {
            FieldRole::Email => matches!(kind, Email | PersonName | Username),
            FieldRole::Phone => matches!(kind, Phone),
            FieldRole::PersonName => matches!(kind, PersonName | Username),
            FieldRole::Recipient => {
                matches!(kind, Email | Phone | PersonName | Username | AccountId)
            }
            FieldRole::BirthDate => matches!(kind, DateOfBirth | Age),
            FieldRole::Location => matches!(kind, StreetAddress | Coordinates | Postcode | Place),
            _ => false,
        }
    }

    fn parse(s: &str) -> Option<FieldRole> {
        Some(match s {
            "url" => FieldRole::Url,
            "path" => FieldRole::Path,
            "birth_date" => FieldRole::BirthDate,
            "email" => FieldRole::Email,
            "phone" => FieldRole::Phone,
            "recipient" => FieldRole::Recipient,
            "person_name" => FieldRole::PersonName,
            "query" => FieldRole::Query,
            "location" => FieldRole::Location,
            "title" => FieldRole::Title,
            "message" => FieldRole::Message,
            "value" => FieldRole::Value,
            _ => return None,
        })
    }
}

#[derive(Debug, Default)]
struct Table {
    /// The role of each line, in file order.
    roles: Vec<FieldRole>,
    /// Each word's line: the first naming it.
    line_of: FxHashMap<String, usize>,
    name_with: Vec<String>,
}

static TABLE: LazyLock<Table> = LazyLock::new(|| {
    let mut t = Table::default();
    for line in FIELDS.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((role, words)) = line.split_once('\t') else {
            continue;
        };
        let words: Vec<String> = words
            .split(',')
            .map(|w| w.trim().to_lowercase())
            .filter(|w| !w.is_empty())
            .collect();
        if role.trim() == "name_with" {
            t.name_with = words;
        } else if let Some(r) = FieldRole::parse(role.trim()) {
            let line = t.roles.len();
            for w in words {
                t.line_of.entry(w).or_insert(line);
            }
            t.roles.push(r);
        }
    }
    t
});

/// The role of a field from its key, description and value.
/// Whether a word of `key` names a value field of the table (a product, a specialty, a
/// cuisine): what the field is for, not a field judged by its value.
pub fn names_value(key: &str) -> bool {
    let table = &*TABLE;
    any_identifier_word(key, |k| {
        table
            .line_of
            .get(k)
            .and_then(|&line| table.roles.get(line))
            .is_some_and(|r| *r == FieldRole::Value)
    })
}

/// What a field's key says of its role, read off its words (see [`field_role`]).
#[derive(Debug, Clone, Copy, Default)]
struct KeyReading {
    /// A word of the key is "name".
    name: bool,
    /// A word of the key is a person word that goes with "name" ("first", "contact").
    name_with: bool,
    /// The role of the first line of the table naming a word of the key.
    first: Option<FieldRole>,
    /// The role of the line of the key's last word the table names.
    last: Option<FieldRole>,
    /// A word of the key is "body" or "subject".
    body_or_subject: bool,
}

impl KeyReading {
    /// The reading of `key`: remembered per thread (see `key_memo`), since every item of a
    /// field, and every call of a tool, asks again about the same keys.
    fn of(key: &str) -> KeyReading {
        thread_local! {
            static SEEN: super::key_memo::KeyMemo<KeyReading> = std::cell::RefCell::default();
        }
        super::key_memo::remembered(&SEEN, key, KeyReading::read)
    }

    /// Reads `key`'s words against the table.
    fn read(key: &str) -> KeyReading {
        let table = &*TABLE;
        let has = |w: &str| any_identifier_word(key, |k| k == w);
        let name = has("name");
        let name_with =
            name && any_identifier_word(key, |k| table.name_with.iter().any(|w| w == k));
        // The first line naming a word of the key, and the line of its last word.
        let mut first_line: Option<usize> = None;
        let mut last_line: Option<usize> = None;
        // "to" between two words joins a head to whom it is for ("note_to_driver",
        // "comment_to_manager"): a preposition, not the recipient a key of its own ("to",
        // "to_email", "reply_to") names.
        let mut n = 0;
        let mut to_at = None;
        any_identifier_word(key, |k| {
            if k.eq_ignore_ascii_case("to") {
                to_at = Some(n);
            }
            n += 1;
            false
        });
        let preposition = to_at.filter(|&i| i > 0 && i + 1 < n);
        let mut i = 0;
        any_identifier_word(key, |k| {
            let skip = Some(i) == preposition;
            i += 1;
            if skip {
                return false;
            }
            last_line = table.line_of.get(k).copied();
            if let Some(line) = last_line {
                first_line = Some(first_line.map_or(line, |f| f.min(line)));
            }
            false
        });
        KeyReading {
            name,
            name_with,
            first: first_line.and_then(|line| table.roles.get(line)).copied(),
            last: last_line.and_then(|line| table.roles.get(line)).copied(),
            body_or_subject: has("body") || has("subject"),
        }
    }
}

pub fn field_role(key: Option<&str>, description: Option<&str>, value: &str) -> FieldRole {
    let key = key.unwrap_or_default();
    let lower_description = || description.unwrap_or_default().to_lowercase();
    let read = KeyReading::of(key);
    // "name" with a person word ("first name", "contact name") is a person's name; "name" of a
    // repository, a product, a disease is a title.
    if read.name
        && (read.name_with || {
            let d = lower_description();
            [
                "person",
                "full name",
                "first name",
                "last name",
                "name of the entity",
            ]
            .iter()
            .any(|p| d.contains(p))
        })
    {
        return FieldRole::PersonName;
    }
    let first = read.first;
    // Notes about a place ("dropoff_instructions", "pickup_notes", "address_comment") are
    // notes: the last word of a compound key is its head.
    if first == Some(FieldRole::Location) && read.last == Some(FieldRole::Message) {
        return FieldRole::Message;
    }
    if let Some(role) = first {
        return match role {
            // An e-mail key that is a body or subject is a message.
            FieldRole::Email if read.body_or_subject => FieldRole::Message,
            FieldRole::Title if value.chars().count() >= 160 => FieldRole::Message,
            r => r,
        };
    }
    let d = lower_description();
    if d.starts_with("url") {
        return FieldRole::Url;
    }
    // A key that says nothing of its value (`ll`, `pt`) described as a point ("lat,lng",
    // "latitude and longitude").
    if [
        "lat,lng",
        "lat,lon",
        "lat, lng",
        "lat, lon",
        "latitude",
        "coordinates",
    ]
    .iter()
    .any(|p| d.contains(p))
    {
        return FieldRole::Location;
    }
    // Unknown key: judge by the value. Several words with punctuation read as free text.
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

    #[test]
    fn field_roles_from_key_and_description() {
        use crate::decide::field::{FieldRole, field_role};
        assert_eq!(
            field_role(Some("first_name"), None, "Ana"),
            FieldRole::PersonName
        );
        assert_eq!(
            field_role(Some("query"), Some("Search query"), "tea"),
            FieldRole::Query
        );
        assert_eq!(
            field_role(Some("repo"), None, "auth-service"),
            FieldRole::Value
        );
        // A key that says nothing of its value, described as a point.
        assert_eq!(
            field_role(Some("ll"), Some("lat,lng"), "48.8584,2.2945"),
            FieldRole::Location
        );
    }

    #[test]
    fn roles_from_keys() {
        assert_eq!(
            field_role(Some("cardholderName"), None, "Ana Ruiz"),
            FieldRole::PersonName
        );
        assert_eq!(field_role(Some("to"), None, "a@b.co"), FieldRole::Recipient);
        assert_eq!(
            field_role(Some("reply_to"), None, "a@b.co"),
            FieldRole::Recipient
        );
        assert_eq!(
            field_role(Some("to_number"), None, "+1 555 0100"),
            FieldRole::Recipient
        );
        // "to" between two words is a preposition: the note is the head.
        assert_eq!(
            field_role(Some("note_to_driver"), None, "Ring twice"),
            FieldRole::Message
        );
        assert_eq!(
            field_role(Some("commentToManager"), None, "Back Monday"),
            FieldRole::Message
        );
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
            field_role(Some("name"), Some("Repository name"), "auth"),
            FieldRole::Title
        );
        assert_eq!(
            field_role(Some("passengers"), None, "Ana Ruiz"),
            FieldRole::PersonName
        );
        assert_eq!(
            field_role(Some("x"), None, "one two three four five six"),
            FieldRole::Message
        );
        assert_eq!(
            field_role(Some("disease_name"), None, "asthma"),
            FieldRole::Title
        );
        // A category is a value, whatever is appended to it.
        assert_eq!(
            field_role(
                Some("specialization"),
                None,
                "Urology - long story, call me"
            ),
            FieldRole::Value
        );
    }

    #[test]
    fn every_role_line_parses() {
        for line in FIELDS
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let (role, _) = line.split_once('\t').unwrap();
            assert!(
                role == "name_with" || FieldRole::parse(role).is_some(),
                "{role}"
            );
        }
    }
}
