//! The rules the decision stage applies, as typed values, and the decision each item gets.
//!
//! Every decision names the [`Rule`] behind it; reports carry the rule's stable [`Rule::id`].

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Why an item was kept, removed or rewritten: the rule of the decision stage that decided.
///
/// Reports carry it ([`ItemReport::rule`](crate::ItemReport::rule)) and serialize it as its
/// stable [`id`](Rule::id); new rules may be added in any release, ids of existing rules do not
/// change. An id's prefix names the family of the rule: `schema:` the tool's schema,
/// `x-minimize:` its annotations, `consent:` the user's own words, `session:` links across
/// calls, `judge:` a [`ContentJudge`](crate::ContentJudge), and so on.
///
/// ```
/// use toolminimize_core::Rule;
/// assert_eq!(Rule::TopicOfQuery.id(), "topic:query-subject-matter");
/// assert_eq!("topic:query-subject-matter".parse::<Rule>(), Ok(Rule::TopicOfQuery));
/// assert_eq!(serde_json::to_value(Rule::OptionalField)?, "schema:optional-field");
/// assert!(Rule::ALL.iter().all(|r| !r.id().is_empty()));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rule {
    /// Nothing decided otherwise.
    Default,
    /// Strict mode: everything detected goes.
    PolicyStrict,
    /// The tool author's `x-minimize: keep`.
    DirectiveKeep,
    /// The tool author's `x-minimize: remove`.
    DirectiveRemove,
    /// The tool author's `x-minimize: generalize`.
    DirectiveGeneralize,
    /// The tool author's `x-minimize: substitute`.
    DirectiveSubstitute,
    /// The tool author's `x-minimize: truncate`.
    DirectiveTruncate,
    /// The user's own words contain the value or ask to send that kind of data.
    ConsentTaskContext,
    /// With the user's request at hand, what it says nothing of: an optional note about
    /// someone in a record the request writes, a contact record's optional field of other
    /// data than its name and e-mail, an event's optional place, an update's optional field
    /// (not a change the user asked for), a special-category term a web search carries or a
    /// write to the user's own store keeps that the request does not name.
    NotInRequest,
    /// A field the tool does not need (optional, no role for this data).
    OptionalField,
    /// A field left out of `minimum_necessary`.
    NotMinimumNecessary,
    /// A member the schema does not ask for: its object lists its properties and this is
    /// not one of them.
    NotDeclared,
    /// A field that exists to carry this data (`x-psd-category`, or named for it).
    FieldCarriesThisData,
    /// A required field whose whole value is the item.
    RequiredField,
    /// The argument that carries the tool's purpose (the address to geocode, the disease to
    /// look up, the passengers of a booking).
    PurposeArgument,
    /// The purpose needs the exact place (geocoding, routes, elevation, a venue, an address
    /// update).
    ExactLocationForPurpose,
    /// The purpose needs a place at city level (weather, search, "near me").
    CityLevelForPurpose,
    /// A public place, landmark or business: not personal data.
    PublicPlace,
    /// Coordinates at published precision (a landmark's), not a device fix.
    PublishedCoordinates,
    /// What a query searches for.
    TopicOfQuery,
    /// What a message or record is about (its subject line, its request).
    PointOfMessage,
    /// Special-category data that is not what the text is for.
    NotTheTopic,
    /// A clause about the user or someone close, inside a search.
    PersonalContextInQuery,
    /// The person a search is about (a public figure, an author).
    SubjectOfQuery,
    /// A search of the user's own mail, calendar, files or contacts keeps its search keys.
    OwnDataSearchKey,
    /// A condition of a database read that a key already narrows to its row
    /// (`WHERE account_id = … AND holder = '…'`): the key finds the row without it.
    RedundantCondition,
    /// The person a message is addressed to.
    Addressee,
    /// The person the action is about (the passenger, the invitee, the new hire).
    SubjectPerson,
    /// The writer of a message, signing it.
    Sender,
    /// A person mentioned only in passing, with their own story.
    Bystander,
    /// Contact details the reader is asked to use.
    ContactRequested,
    /// Contact details nobody asked for (a signature block, a third party's number).
    ContactNotAsked,
    /// A business's line, desk or address: not a person's.
    BusinessContact,
    /// A machine's address in a technical record (a server, a build host).
    MachineAddress,
    /// An identifier the recipient needs to act on the request.
    IdentifierForRecipient,
    /// An identifier the recipient has no use for.
    IdentifierNotNeeded,
    /// A card the recipient must recognise but not charge: its last four digits do.
    CardLastFour,
    /// The writer's account in a request to be paid.
    AccountForPayment,
    /// A sick-leave notice is the message; the diagnosis behind it is not.
    SickLeaveNotice,
    /// A venue where the reader is to meet or collect someone.
    MeetingPoint,
    /// A personal remark appended to a value the tool needs.
    RemarkOnValue,
    /// Profile data (age, family, work, preferences) the tool does not need.
    ProfileNotNeeded,
    /// Text written to a public or third-party place (a repository, a channel, a fixture).
    PublicWrite,
    /// A comment inside a query or code (`-- …`, `/* … */`): the tool executes none of it.
    CodeComment,
    /// The user's own private store keeps what the user asked to store.
    PrivateStore,
    /// A sample, example, fixture or template file the call writes: its values stand for
    /// data, a real one is replaced by a placeholder.
    SampleData,
    /// What a URL is for (its search term, path, token, unsubscribe address).
    UrlPurpose,
    /// A personal parameter a URL does not need.
    UrlPersonalParameter,
    /// A query operator's operand (`from:ana@…`).
    QueryOperator,
    /// A quasi-identifier that would complete an identifying set at a tool that already holds
    /// the rest from earlier calls.
    SessionLinkability,
    /// An external judge said the tool needs it.
    JudgeNeeded,
    /// An external judge said the tool does not need it.
    JudgeNotNeeded,
    /// The rewrite would have made the field invalid; the value stays.
    KeptToStayValid,
}

impl Rule {
    /// Every rule, for documentation and tests.
    pub const ALL: &'static [Rule] = &[
        Rule::Default,
        Rule::PolicyStrict,
        Rule::DirectiveKeep,
        Rule::DirectiveRemove,
        Rule::DirectiveGeneralize,
        Rule::DirectiveSubstitute,
        Rule::DirectiveTruncate,
        Rule::ConsentTaskContext,
        Rule::NotInRequest,
        Rule::OptionalField,
        Rule::NotMinimumNecessary,
        Rule::NotDeclared,
        Rule::FieldCarriesThisData,
        Rule::RequiredField,
        Rule::PurposeArgument,
        Rule::ExactLocationForPurpose,
        Rule::CityLevelForPurpose,
        Rule::PublicPlace,
        Rule::PublishedCoordinates,
        Rule::TopicOfQuery,
        Rule::PointOfMessage,
        Rule::NotTheTopic,
        Rule::PersonalContextInQuery,
        Rule::SubjectOfQuery,
        Rule::OwnDataSearchKey,
        Rule::RedundantCondition,
        Rule::Addressee,
        Rule::SubjectPerson,
        Rule::Sender,
        Rule::Bystander,
        Rule::ContactRequested,
        Rule::ContactNotAsked,
        Rule::BusinessContact,
        Rule::MachineAddress,
        Rule::IdentifierForRecipient,
        Rule::IdentifierNotNeeded,
        Rule::CardLastFour,
        Rule::AccountForPayment,
        Rule::SickLeaveNotice,
        Rule::MeetingPoint,
        Rule::RemarkOnValue,
        Rule::ProfileNotNeeded,
        Rule::PublicWrite,
        Rule::CodeComment,
        Rule::PrivateStore,
        Rule::SampleData,
        Rule::UrlPurpose,
        Rule::UrlPersonalParameter,
        Rule::QueryOperator,
        Rule::SessionLinkability,
        Rule::JudgeNeeded,
        Rule::JudgeNotNeeded,
        Rule::KeptToStayValid,
    ];

    /// The stable identifier reports carry (`family:name`).
    pub const fn id(self) -> &'static str {
        match self {
            Rule::Default => "default",
            Rule::PolicyStrict => "policy:strict",
            Rule::DirectiveKeep => "x-minimize:keep",
            Rule::DirectiveRemove => "x-minimize:remove",
            Rule::DirectiveGeneralize => "x-minimize:generalize",
            Rule::DirectiveSubstitute => "x-minimize:substitute",
            Rule::DirectiveTruncate => "x-minimize:truncate",
            Rule::ConsentTaskContext => "consent:task-context",
            Rule::NotInRequest => "consent:not-in-request",
            Rule::OptionalField => "schema:optional-field",
            Rule::NotMinimumNecessary => "schema:not-minimum-necessary",
            Rule::NotDeclared => "schema:not-declared",
            Rule::FieldCarriesThisData => "schema:field-carries-this-data",
            Rule::RequiredField => "schema:required-field",
            Rule::PurposeArgument => "purpose:argument",
            Rule::ExactLocationForPurpose => "location:exact-for-purpose",
            Rule::CityLevelForPurpose => "location:city-level",
            Rule::PublicPlace => "location:public-place",
            Rule::PublishedCoordinates => "location:published-coordinates",
            Rule::TopicOfQuery => "topic:query-subject-matter",
            Rule::PointOfMessage => "topic:point-of-message",
            Rule::NotTheTopic => "topic:not-the-topic",
            Rule::PersonalContextInQuery => "topic:personal-context-in-query",
            Rule::SubjectOfQuery => "people:subject-of-query",
            Rule::OwnDataSearchKey => "search:own-data-key",
            Rule::RedundantCondition => "search:redundant-condition",
            Rule::Addressee => "people:addressee",
            Rule::SubjectPerson => "people:subject-of-action",
            Rule::Sender => "people:sender",
            Rule::Bystander => "people:bystander",
            Rule::ContactRequested => "contact:requested",
            Rule::ContactNotAsked => "contact:not-asked",
            Rule::BusinessContact => "contact:business",
            Rule::MachineAddress => "identifier:machine-address",
            Rule::IdentifierForRecipient => "identifier:for-recipient",
            Rule::IdentifierNotNeeded => "identifier:not-needed",
            Rule::CardLastFour => "identifier:card-last-four",
            Rule::AccountForPayment => "identifier:account-for-payment",
            Rule::SickLeaveNotice => "topic:sick-leave-notice",
            Rule::MeetingPoint => "location:meeting-point",
            Rule::RemarkOnValue => "text:remark-on-value",
            Rule::ProfileNotNeeded => "profile:not-needed",
            Rule::PublicWrite => "write:public-or-third-party",
            Rule::CodeComment => "code:comment",
            Rule::PrivateStore => "write:private-store",
            Rule::SampleData => "write:sample-data",
            Rule::UrlPurpose => "url:purpose",
            Rule::UrlPersonalParameter => "url:personal-parameter",
            Rule::QueryOperator => "search:query-operator",
            Rule::SessionLinkability => "session:cross-call-linkability",
            Rule::JudgeNeeded => "judge:needed",
            Rule::JudgeNotNeeded => "judge:not-needed",
            Rule::KeptToStayValid => "validity:kept-to-stay-valid",
        }
    }

    /// Whether the rule comes from the caller or the tool author (policy, annotations,
    /// consent), which later passes (session guard, judge) must not override.
    pub const fn is_explicit(self) -> bool {
        matches!(
            self,
            Rule::PolicyStrict
                | Rule::DirectiveKeep
                | Rule::DirectiveRemove
                | Rule::DirectiveGeneralize
                | Rule::DirectiveSubstitute
                | Rule::DirectiveTruncate
                | Rule::ConsentTaskContext
        )
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A string that is not the id of any [`Rule`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRule(());

impl fmt::Display for UnknownRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not the id of a decision rule")
    }
}

impl std::error::Error for UnknownRule {}

impl FromStr for Rule {
    type Err = UnknownRule;

    /// The rule with this [`id`](Rule::id).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rule::ALL
            .iter()
            .copied()
            .find(|r| r.id() == s)
            .ok_or(UnknownRule(()))
    }
}

impl Serialize for Rule {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Rule {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = std::borrow::Cow::<'de, str>::deserialize(d)?;
        id.parse()
            .map_err(|_| serde::de::Error::custom(format_args!("unknown rule id `{id}`")))
    }
}

/// The rewrite chosen for one item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Op {
    /// Leave it.
    Keep,
    /// Drop the whole field (or give a required one its least informative valid value).
    RemoveField,
    /// Cut the item's span (with its label and leading function words).
    RemoveSpan,
    /// Cut the clause holding the item.
    RemoveClause,
    /// Cut the sentence holding the item.
    RemoveSentence,
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
    /// The rule that decided.
    pub rule: Rule,
}

impl Decision {
    /// Keep the item.
    pub const fn keep(rule: Rule) -> Self {
        Decision {
            necessary: true,
            op: Op::Keep,
            rule,
        }
    }

    /// The item is not needed; rewrite it with `op`.
    pub const fn drop(op: Op, rule: Rule) -> Self {
        Decision {
            necessary: false,
            op,
            rule,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn rule_ids_are_unique_and_every_rule_is_listed() {
        let ids: HashSet<&str> = Rule::ALL.iter().map(|r| r.id()).collect();
        assert_eq!(ids.len(), Rule::ALL.len());
        assert_eq!(
            Rule::KeptToStayValid.to_string(),
            "validity:kept-to-stay-valid"
        );
    }
}
