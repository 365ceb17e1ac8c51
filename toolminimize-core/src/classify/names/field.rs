//! Whole-value names: a field whose key or description says it holds a person's name
//! (`first_name`, `displayName`, `cardholder`, `Nachname`, `prénom`, …) and whose value has
//! the shape of one.

use std::sync::LazyLock;

use rustc_hash::FxHashSet;

use super::context::{ORG_WORDS, is_in, is_in_slice};
use super::lists::NameLists;
use crate::classify::Field;
use crate::text::fold::fold_term;
use crate::text::inline::with_lower_alphanumerics;

/// How sure the key makes us that the field holds a person's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyKind {
    /// The key names a part of a person's name (`first_name`, `surname`, `Vorname`).
    NamePart,
    /// The key names a person's role (`patient`, `attendees`, `assignee`): the value may be a
    /// name, an e-mail or an id.
    Person,
    /// A bare `name`/`title`-like key: only with a description or path that speaks of a person.
    Generic,
}

/// Normalised keys (lower case, no separators) that are a name part.
const NAME_PART_KEYS: &[&str] = &[
    "firstname",
    "lastname",
    "surname",
    "fullname",
    "givenname",
    "familyname",
    "middlename",
    "maidenname",
    "displayname",
    "personname",
    "realname",
    "legalname",
    "birthname",
    "cardholder",
    "cardholdername",
    "holdername",
    "accountholder",
    "accountholdername",
    "nameoncard",
    "patientname",
    "passengername",
    "travelername",
    "travellername",
    "guestname",
    "contactname",
    "customername",
    "clientname",
    "recipientname",
    "sendername",
    "employeename",
    "membername",
    "studentname",
    "applicantname",
    "tenantname",
    "ownername",
    "payeename",
    "beneficiaryname",
    "attendeename",
    "participantname",
    "authorname",
    "doctorname",
    "therapistname",
    "emergencycontactname",
    "spousename",
    "childname",
    "parentname",
    "vorname",
    "nachname",
    "familienname",
    "rufname",
    "geburtsname",
    "nom",
    "prenom",
    "nomcomplet",
    "nomdefamille",
    "nombre",
    "apellido",
    "apellidos",
    "nombrecompleto",
    "primerapellido",
    "segundoapellido",
    "cognome",
    "nome",
    "nomecompleto",
    "sobrenome",
    "voornaam",
    "achternaam",
    "familienaam",
    "fornavn",
    "efternavn",
    "etternavn",
    "fornamn",
    "efternamn",
    "imie",
    "nazwisko",
    "jmeno",
    "prijmeni",
    "fname",
    "lname",
    "firstnm",
    "lastnm",
];

/// Normalised key suffixes that are a name part (`billing_first_name`, `guest1LastName`).
const NAME_PART_SUFFIXES: &[&str] = &[
    "firstname",
    "lastname",
    "fullname",
    "surname",
    "givenname",
    "familyname",
    "displayname",
    "holdername",
    "middlename",
    "personname",
];

/// Normalised keys that hold a person (a name, or something else identifying them).
const PERSON_KEYS: &[&str] = &[
    "patient",
    "passenger",
    "passengers",
    "traveler",
    "travelers",
    "traveller",
    "travellers",
    "guest",
    "guests",
    "therapist",
    "doctor",
    "physician",
    "contact",
    "contacts",
    "attendee",
    "attendees",
    "participant",
    "participants",
    "invitee",
    "invitees",
    "assignee",
    "assignees",
    "reviewer",
    "reviewers",
    "recipient",
    "recipients",
    "sender",
    "author",
    "authors",
    "customer",
    "client",
    "employee",
    "person",
    "people",
    "spouse",
    "beneficiary",
    "payee",
    "emergencycontact",
    "nextofkin",
    "driver",
    "student",
    "applicant",
    "tenant",
    "member",
    "members",
    "cc",
    "bcc",
    "with",
    "who",
    "host",
    "organizer",
    "organiser",
    "speaker",
    "speakers",
    "caller",
    "callee",
    "addressee",
    "signatory",
    "witness",
    "representative",
];

/// Words in a description or path that make a generic `name` a person's.
const PERSON_HINTS: &[&str] = &[
    "person",
    "people",
    "contact",
    "customer",
    "patient",
    "passenger",
    "traveler",
    "traveller",
    "guest",
    "user's",
    "users",
    "attendee",
    "participant",
    "employee",
    "individual",
    "human",
    "recipient",
    "sender",
    "member",
    "student",
    "first name",
    "last name",
    "full name",
    "surname",
    "given name",
    "family name",
    "cardholder",
    "holder",
    "client",
    "author",
    "spouse",
    "child",
    "parent",
    "owner's name",
    "beneficiary",
    "signer",
    "applicant",
    "tenant",
    "doctor",
    "therapist",
    "physician",
    "driver",
    "emergency",
];

/// Words in a description that make `name` something other than a person's.
const THING_HINTS: &[&str] = &[
    "repository",
    "repo",
    "file",
    "folder",
    "directory",
    "product",
    "project",
    "channel",
    "branch",
    "bucket",
    "table",
    "database",
    "tool",
    "function",
    "model",
    "organization",
    "organisation",
    "company",
    "city",
    "place",
    "location",
    "item",
    "team",
    "workspace",
    "label",
    "tag",
    "app",
    "service",
    "resource",
    "dataset",
    "key",
    "field",
    "variable",
    "class",
    "package",
    "event",
    "calendar",
    "playlist",
    "document",
    "page",
    "issue",
    "task",
    "server",
    "host",
    "domain",
    "region",
    "index",
    "collection",
    "queue",
    "topic",
    "board",
    "list",
    "template",
];

/// Placeholder values of name fields that are no name.
const PLACEHOLDERS: &[&str] = &[
    "unknown",
    "none",
    "null",
    "nil",
    "anonymous",
    "anon",
    "guest",
    "user",
    "customer",
    "tbd",
    "na",
    "undefined",
    "string",
    "name",
    "first",
    "last",
    "firstname",
    "lastname",
    "fullname",
    "test",
    "sample",
    "placeholder",
    "redacted",
    "private",
    "hidden",
    "xxx",
    "me",
    "myself",
];

pub(super) fn normalise_key(key: &str) -> String {
    // `prénom` → `prenom`; camelCase and snake_case both → `firstname`.
    fold_term(key)
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect()
}

/// `f` of [`normalise_key`]`(key)`, an ASCII key (which folding only lower-cases) normalised
/// without a heap allocation.
pub(super) fn with_normalised_key<R>(key: &str, f: impl FnOnce(&str) -> R) -> R {
    if key.is_ascii() {
        with_lower_alphanumerics(key, true, f)
    } else {
        f(&normalise_key(key))
    }
}

/// Path segments above the value (JSON pointer tokens, lower-cased), innermost last.
fn parents(path: &str) -> impl Iterator<Item = String> + '_ {
    path.split('/')
        .filter(|s| !s.is_empty() && !s.chars().all(|c| c.is_ascii_digit()))
        .map(normalise_key)
}

fn mentions(text: &str, hints: &[&str]) -> bool {
    let t = text.to_lowercase();
    hints.iter().any(|h| {
        t.match_indices(h).any(|(i, _)| {
            let before = t.get(..i).and_then(|s| s.chars().next_back());
            !before.is_some_and(char::is_alphanumeric)
        })
    })
}

/// What the field's key (and, for a bare `name`, its description and path) says.
///
/// Every string of an array (and every value under one key) asks with the same key: the last
/// answer that depends on the key alone is kept, per thread, and given again without
/// normalising the key.
pub(crate) fn key_kind(field: &Field<'_>) -> Option<KeyKind> {
    thread_local! {
        /// The last key whose kind depends on the key alone, and its kind.
        static LAST: std::cell::RefCell<(String, Option<KeyKind>)> =
            const { std::cell::RefCell::new((String::new(), None)) };
    }
    let raw = field.key?;
    // The name shown for a place (`location.displayName`, `venue.name`) is the place's.
    if crate::schema::parent_key(field.path).is_some_and(crate::schema::names_a_place) {
        return None;
    }
    if let Some(kind) = LAST.with_borrow(|(k, kind)| (k == raw).then_some(*kind)) {
        return kind;
    }
    let by_key = with_normalised_key(raw, |key| {
        (!matches!(key, "name" | "names")).then(|| kind_of_key(key))
    });
    if let Some(kind) = by_key {
        LAST.with_borrow_mut(|last| {
            last.0.clear();
            last.0.push_str(raw);
            last.1 = kind;
        });
        return kind;
    }
    kind_of_name_key(field)
}

/// Whether a normalised key is one of the [`NAME_PART_KEYS`] (a set of them, built on first
/// use).
fn is_name_part_key(key: &str) -> bool {
    static SET: LazyLock<FxHashSet<&'static str>> =
        LazyLock::new(|| NAME_PART_KEYS.iter().copied().collect());
    SET.contains(key)
}

/// Whether a normalised key is one of the [`PERSON_KEYS`] (a set of them, built on first use).
fn is_person_key(key: &str) -> bool {
    static SET: LazyLock<FxHashSet<&'static str>> =
        LazyLock::new(|| PERSON_KEYS.iter().copied().collect());
    SET.contains(key)
}

/// [`key_kind`] of a normalised key other than `name`: the key alone decides.
fn kind_of_key(key: &str) -> Option<KeyKind> {
    if is_name_part_key(key) || NAME_PART_SUFFIXES.iter().any(|s| key.ends_with(s)) {
        return Some(KeyKind::NamePart);
    }
    if is_person_key(key) {
        return Some(KeyKind::Person);
    }
    None
}

/// [`key_kind`] of a field whose key is `name` or `names`: the description and the path
/// decide.
fn kind_of_name_key(field: &Field<'_>) -> Option<KeyKind> {
    let key = normalise_key(field.key?);
    // Keys inside an array: the key is the array's, the path ends in an index.
    if is_name_part_key(&key) || NAME_PART_SUFFIXES.iter().any(|s| key.ends_with(s)) {
        return Some(KeyKind::NamePart);
    }
    if is_person_key(&key) {
        return Some(KeyKind::Person);
    }
    if matches!(key.as_str(), "name" | "names") {
        let desc = field.description.unwrap_or("");
        if mentions(desc, THING_HINTS)
            && !mentions(
                desc,
                &["person", "contact's", "customer's", "patient", "people"],
            )
        {
            return None;
        }
        if mentions(desc, PERSON_HINTS) {
            return Some(KeyKind::NamePart);
        }
        let mut segs: Vec<String> = parents(field.path).collect();
        segs.pop(); // the key itself
        if segs
            .iter()
            .rev()
            .take(2)
            .any(|s| is_person_key(s) || s.ends_with("contact") || s.ends_with("person"))
        {
            return Some(KeyKind::NamePart);
        }
        return Some(KeyKind::Generic);
    }
    None
}

/// The trimmed span of `text` when the whole value has the shape of a person's name:
/// 1–4 words of letters (apostrophes, hyphens, dots of initials allowed), no digits, no
/// organisation or product word. `known` additionally asks that a word be in the name lists.
pub(crate) fn whole_value(text: &str, kind: KeyKind) -> Option<(std::ops::Range<usize>, f32)> {
    let start = text.len() - text.trim_start().len();
    let trimmed = text.trim();
    if trimmed.is_empty() || trimmed.chars().count() > 60 {
        return None;
    }
    let end = start + trimmed.len();
    if !trimmed.chars().all(|c| {
        c.is_alphabetic()
            || c == ' '
            || c == '-'
            || c == '\''
            || c == '\u{2019}'
            || c == '.'
            || c == ','
    }) {
        return None;
    }
    let words: Vec<&str> = trimmed
        .split([' ', ','])
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() || words.len() > 4 {
        return None;
    }
    let lists = NameLists::get();
    let mut known = 0usize;
    let mut capitalised = 0usize;
    for w in &words {
        let core = w.trim_matches(|c: char| c == '.' || c == '\'' || c == '-');
        if core.is_empty() {
            continue;
        }
        let folded = fold_term(core);
        if is_in(ORG_WORDS, &folded) || (words.len() == 1 && is_in_slice(PLACEHOLDERS, &folded)) {
            return None;
        }
        let flags = lists.flags(&folded);
        // An ordinary word that is in no name list ("Marketing Calendar").
        if flags.only_word() && words.len() > 1 {
            return None;
        }
        if flags.name() {
            known += 1;
        }
        if core.chars().next().is_some_and(char::is_uppercase) {
            capitalised += 1;
        }
        // All-caps words longer than an initial are codes or acronyms, unless the whole
        // value is in capitals and the word is a known name.
        let all_caps = core.chars().count() > 1 && core.chars().all(|c| !c.is_lowercase());
        if all_caps && !flags.name() {
            return None;
        }
    }
    let words_n = words.len();
    let confident = match kind {
        // `first_name: "Mensah"`: any word-shaped value.
        KeyKind::NamePart => true,
        // `attendees: ["Hiroshi Tanaka"]`: a name-shaped value with a known name part.
        KeyKind::Person => known >= 1 && capitalised + known >= words_n,
        // `name: "Leila Moradi"` with no description: at least two words, one a given name.
        KeyKind::Generic => {
            words_n >= 2
                && capitalised == words_n
                && words
                    .first()
                    .is_some_and(|w| lists.flags(&fold_term(w)).first())
                && known >= 2
        }
    };
    confident.then_some((
        start..end,
        match kind {
            KeyKind::NamePart => 0.95,
            KeyKind::Person => 0.85,
            KeyKind::Generic => 0.75,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f<'a>(path: &'a str, key: &'a str, description: Option<&'a str>) -> Field<'a> {
        Field {
            path,
            key: Some(key),
            description,
            dictated: false,
        }
    }

    #[test]
    fn keys_in_many_languages_name_a_name_part() {
        for k in [
            "first_name",
            "lastName",
            "Vorname",
            "prénom",
            "apellidos",
            "cognome",
            "billing_first_name",
            "cardholder_name",
            "displayName",
        ] {
            assert_eq!(key_kind(&f("/x", k, None)), Some(KeyKind::NamePart), "{k}");
        }
        assert_eq!(
            key_kind(&f("/attendees/0", "attendees", None)),
            Some(KeyKind::Person)
        );
        assert_eq!(key_kind(&f("/query", "query", None)), None);
    }

    #[test]
    fn a_bare_name_key_reads_the_description_and_path() {
        assert_eq!(key_kind(&f("/name", "name", Some("Repository name"))), None);
        assert_eq!(
            key_kind(&f("/name", "name", Some("The name of the file to create"))),
            None
        );
        assert_eq!(
            key_kind(&f("/name", "name", Some("Contact's first name"))),
            Some(KeyKind::NamePart)
        );
        assert_eq!(
            key_kind(&f("/customer/name", "name", None)),
            Some(KeyKind::NamePart)
        );
        assert_eq!(key_kind(&f("/name", "name", None)), Some(KeyKind::Generic));
        assert_eq!(
            key_kind(&f(
                "/entities/0/name",
                "name",
                Some("The name of the entity")
            )),
            Some(KeyKind::Generic)
        );
    }

    #[test]
    fn value_shape_decides() {
        assert_eq!(
            whole_value("  Kwame ", KeyKind::NamePart).map(|v| v.0),
            Some(2..7)
        );
        assert!(whole_value("Anaïs Dubois-Laurent", KeyKind::NamePart).is_some());
        assert!(whole_value("Hiroshi Tanaka", KeyKind::Person).is_some());
        assert!(whole_value("Leila Moradi", KeyKind::Generic).is_some());
        assert!(whole_value("release-2024", KeyKind::NamePart).is_none());
        assert!(whole_value("Acme Holdings GmbH", KeyKind::NamePart).is_none());
        assert!(whole_value("Quarterly planning", KeyKind::Person).is_none());
        assert!(whole_value("toolminimize", KeyKind::Generic).is_none());
        assert!(whole_value("Weekly Sync", KeyKind::Generic).is_none());
        assert!(whole_value("NASA", KeyKind::NamePart).is_none());
        assert!(whole_value("", KeyKind::NamePart).is_none());
        assert!(whole_value("unknown", KeyKind::NamePart).is_none());
        assert!(whole_value("Marketing Calendar", KeyKind::NamePart).is_none());
        assert!(whole_value("Grace Baker", KeyKind::NamePart).is_some());
    }
}
