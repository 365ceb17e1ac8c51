//! Decide: per PSD item, what the tool needs to do what the user asked.
//!
//! The stage answers one question for every item the classifier found: *does this tool need
//! it, as it is, for this call?* The answer follows from what the tool is for
//! ([`purpose::ToolKind`], scored from its name, description and schema), the role of the
//! field holding the item ([`field::FieldRole`]), and — in free text — the role of the item in
//! the text ([`reading::Reading`]): the addressee, the sender, the person the action is about,
//! a bystander; the topic of a search or the point of a message; an aside or a reason.
//!
//! The passes, in order (each decision names its [`Rule`]):
//! 1. **Policy and annotations**: strict mode, `x-minimize`, the user's own words
//!    (`task_context`).
//!    A sample, example, fixture or template file the call writes holds no real data: each
//!    value found in it gives way to a placeholder ([`write:sample-data`](Rule::SampleData)).
//!    The text a translator renders is kept whole ([`purpose:argument`](Rule::PurposeArgument)):
//!    what went from it would be missing from the translation too.
//! 2. **Schema**: an optional field the tool has no role for is dropped — unless it carries
//!    free text for a tool whose content is its text (a ticket's description, an issue's body),
//!    where only the personal spans go ("spans, not fields"). Telemetry (analytics events,
//!    error reports, logs) counts and debugs: an optional field named for a person's e-mail,
//!    name or phone is not needed there, and nothing in an event's message is its point.
//! 3. **Locations** at the precision the purpose needs: exact for geocoding, routes, elevation,
//!    venues and address updates; city level for weather, search and "near me"; coordinates at
//!    published precision and public places are not personal.
//! 4. **URLs** keep what they are for and lose personal parameters.
//! 5. **Structured fields** keep the data they exist to carry; a remark appended to such a
//!    value is a span of its own.
//! 6. **Free text**: a search keeps its topic and loses the user's story; a message keeps its
//!    point, its addressee and the people it is about, the identifiers its recipient needs, and
//!    the contact details it asks the reader to use — and loses the rest by clause or sentence.
//!
//! The session guard (cross-call linkability) and an optional judge run after these passes.

pub mod consent;
pub mod field;
pub mod judge;
mod key_memo;
pub mod linkability;
mod location;
mod message;
pub mod purpose;
mod query;
pub mod reading;
pub mod recipient;
mod rule;
mod sample;
mod structured;
mod url;
pub mod vocab;

use std::ops::Range;
use std::sync::{Mutex, OnceLock};

use self::consent::Consent;
use self::field::{FieldRole, field_role};
use self::purpose::ToolKind;
use self::reading::Reading;
use self::recipient::Recipients;
pub use self::rule::{Decision, Op, Rule, UnknownRule};
use self::vocab::{LangMask, WordSet, vocab};
use crate::args::{Arg, Node};
use crate::item::{PsdItem, PsdKind};
use crate::policy::Policy;
use crate::schema::{FieldInfo, MinimizeDirective, SchemaIndex};
use crate::text::document::Document;
use crate::text::window::READ_WINDOW;
use crate::text::words::{Word, any_identifier_word, identifier_words, words};

/// What the decision stage knows about the call.
#[derive(Debug, Clone, Copy)]
pub struct CallContext<'a> {
    /// The tool.
    pub tool: &'a crate::tool::ToolDef,
    /// The tool kind.
    pub kind: ToolKind,
    /// The policy.
    pub policy: &'a Policy,
    /// The arguments.
    pub(crate) args: Arg<'a>,
    /// What the user's own words consent to.
    pub consent: Option<&'a Consent>,
}

/// Facts about the whole call that every field's decisions share.
struct CallView<'a> {
    kind: ToolKind,
    recipients: Recipients,
    /// The message asks to be paid (an invoice, rent, a refund to the writer) in a short field:
    /// read the first time a rule asks ([`CallView::pay_me`]).
    pay_me: OnceLock<bool>,
    /// A short field says where pay goes (a salary, payroll): read the first time a rule asks
    /// ([`CallView::pay_account`]).
    pay_account: OnceLock<bool>,
    /// A handed-over task acts in someone's name (books, files, buys); see `WordSet::ActFor`.
    task_acts: bool,
    /// … for something that needs a date of birth (a flight, a claim; see
    /// `WordSet::BirthPurpose`).
    task_needs_birth_date: bool,
    /// … for something that needs a street address (a delivery, a ride, a claim; see
    /// `WordSet::AddressPurpose`).
    task_needs_address: bool,
    /// A point field names a change of address (`WordSet::AddressChange`): the street the
    /// call tells is what it is about.
    address_change: bool,
    /// A handed-over task asks something that depends on where its people are ("near them",
    /// "state tax", "schools"; see `WordSet::Local`), or names no task at all.
    task_local: bool,
    /// Folded words of the call's "point" fields (subject, title, summary, task).
    point_words: Vec<String>,
    /// The texts of the call's point fields.
    point: Vec<&'a str>,
    /// Whether the point fields name medicines (`WordSet::TopicMedication`) and results or
    /// symptoms (`WordSet::TopicResults`) as what the call is about: read when first asked.
    topics: OnceLock<(bool, bool)>,
    /// A filled argument names the case the call is about (`booking_id`, `order_number`,
    /// `ticket_ref`): the case is found by it, not by who the writer is.
    case_reference: bool,
    /// The call sets a flag of its own asking to stay anonymous (`"anonymous": true`, a
    /// donation or a review in no one's name): who the user is, where they live and how to
    /// call them are what the user asked to withhold.
    anonymous: bool,
    /// The tool writes a CV (see [`purpose::writes_cv`]).
    writes_cv: bool,
    /// The tool keeps secrets (see [`purpose::keeps_secrets`]).
    keeps_secrets: bool,
    /// The call writes a sample, example, fixture or template file (see [`sample`]).
    sample_file: bool,
    /// The tool posts to a workplace's chat (Slack, Teams …): its channels are read by
    /// colleagues, not by the public.
    workplace: bool,
    /// The tool writes where others read ([`writes_shared`]).
    shared_store: bool,
    /// The tool changes a record that exists (`update_…`, `modify_…`, `edit_…`): it needs
    /// what changes.
    updates: bool,
    /// The tool translates text (see [`purpose::translates`]).
    translates: bool,
    /// The tool submits or fills a form (see [`purpose::fills_form`]).
    fills_form: bool,
    /// The tool registers or enrols someone (see [`purpose::registers`]).
    registers: bool,
    /// The tool only reads (see [`purpose::retrieves`]): read the first time a rule asks
    /// ([`CallView::retrieves`]).
    retrieves: OnceLock<bool>,
    tool: &'a crate::tool::ToolDef,
    /// The tool writes records by name (`create_record`, `insert_rows`, `update_records`): its
    /// fields carry the record's values, they do not find rows.
    writes_rows: bool,
    /// The reading of the message body whose opening names the recipients (a body short
    /// enough to be read whole): the body's field takes it rather than reading it again.
    body_reading: Mutex<Option<Reading<'a>>>,
    args: Arg<'a>,
}

/// First words of a tool's name that change a record that exists.
const UPDATE_VERBS: &[&str] = &["update", "modify", "edit", "patch", "change"];

/// First words of a tool's name that write a record, new or existing.
const WRITE_VERBS: &[&str] = &[
    "create", "insert", "add", "append", "upsert", "update", "modify", "edit", "patch",
];

/// Words of a tool's name or description that name a workplace's chat.
const WORKPLACE_CHAT: &[&str] = &["slack", "teams", "mattermost", "zulip", "webex"];

/// Whether the tool posts to a workplace's chat, by its name or description.
fn workplace_chat(tool: &crate::tool::ToolDef) -> bool {
    any_identifier_word(tool.name(), |w| WORKPLACE_CHAT.contains(&w))
        || words(tool.description())
            .iter()
            .take(SHORT_TITLE)
            .any(|w| WORKPLACE_CHAT.contains(&w.folded.as_ref()))
}

/// What a tool's name and description say that decisions read, read once for the tool (see
/// `ToolDef::traits`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ToolTraits {
    /// It posts to a workplace's chat ([`workplace_chat`]).
    workplace_chat: bool,
    /// It writes where others read ([`writes_shared`]).
    writes_shared: bool,
    /// Its name's first word changes a record that exists.
    updates: bool,
    /// Its name's first word writes a record.
    writes_rows: bool,
    /// It translates text ([`purpose::translates`]).
    translates: bool,
    /// It fills a form ([`purpose::fills_form`]).
    fills_form: bool,
    /// It registers someone ([`purpose::registers`]).
    registers: bool,
    /// It writes a CV ([`purpose::writes_cv`]).
    writes_cv: bool,
    /// It keeps secrets ([`purpose::keeps_secrets`]).
    keeps_secrets: bool,
}

impl ToolTraits {
    /// Reads `tool`'s name and description.
    pub(crate) fn of(tool: &crate::tool::ToolDef) -> Self {
        ToolTraits {
            workplace_chat: workplace_chat(tool),
            writes_shared: writes_shared(tool),
            updates: first_word_in(tool.name(), UPDATE_VERBS),
            writes_rows: first_word_in(tool.name(), WRITE_VERBS),
            translates: purpose::translates(tool),
            fills_form: purpose::fills_form(tool),
            registers: purpose::registers(tool),
            writes_cv: purpose::writes_cv(tool),
            keeps_secrets: purpose::keeps_secrets(tool),
        }
    }
}

/// Whether the tool writes where others read, by its description ("Write a file to the shared
/// workspace", "team drive"): a file there is not the user's own store.
fn writes_shared(tool: &crate::tool::ToolDef) -> bool {
    let ws = words(tool.description());
    ws.windows(2).any(|p| {
        matches!(
            p,
            [a, b] if matches!(a.folded.as_ref(), "shared" | "team" | "public" | "company")
                && matches!(
                    b.folded.as_ref(),
                    "workspace" | "drive" | "folder" | "folders" | "space" | "wiki" | "repository"
                )
        )
    })
}

/// Key words of an argument that names a case: a booking, an order, a ticket.
const CASE_KEYS: &[&str] = &[
    "booking",
    "order",
    "reservation",
    "confirmation",
    "ticket",
    "case",
    "claim",
    "pnr",
];

/// Per-field facts shared by the field's items.
#[derive(Clone)]
struct FieldCtx<'a> {
    /// The field's JSON pointer.
    path: &'a str,
    info: Option<&'a FieldInfo>,
    /// The field's key: the schema's, else the last step of its path.
    key: Option<&'a str>,
    /// The field's key as the schema index knows it (`None` without an entry).
    schema_key: Option<&'a str>,
    role: FieldRole,
    text: Option<&'a str>,
    /// The schema says the tool needs the field.
    needed: bool,
    /// A search-like field: one topic.
    query: bool,
    /// The text is read (sentences, clauses, words) when its items are decided.
    reads: bool,
    /// The reading of the text (or of the window of it that holds the items being decided),
    /// when it is read.
    reading: Option<Reading<'a>>,
    /// A short value that is not prose (an item to order, a specialty): a few words, no
    /// sentence.
    short_value: bool,
    /// The key names a value, not a text for a reader (`hotel`, `company`, an unknown key),
    /// whatever role its value gave it: a remark in brackets after it is not the value.
    value_key: bool,
    /// The text read as data (JSON, `KEY=value` lines), when the call writes a sample file.
    document: Option<Document>,
    /// The sample file the call writes names a placeholder person ("Jane Doe", "Max
    /// Mustermann"): its data is made up already.
    placeholder_sample: bool,
    /// In code talk, the fenced blocks of the text that name a placeholder person: a fixture
    /// of made-up data quoted in an issue or a review.
    placeholder_blocks: Vec<std::ops::Range<usize>>,
    /// Where a `truncate` directive cuts the text, as a byte and a length in characters:
    /// found once for the field, not once per item.
    truncate_at: Option<(usize, usize)>,
}

/// Whether the object a field sits in (the nearest key before it, array indices skipped) is
/// the record of a traveller, a patient or a guest: `/data/travelers/0/gender`,
/// `/patient/sex`, `/viajeros/1/sexo`.
fn registers_person(path: &str) -> bool {
    const RECORDS: &[&str] = &[
        "passenger",
        "passengers",
        "traveler",
        "travelers",
        "traveller",
        "travellers",
        "patient",
        "guest",
        "guests",
        "pasajero",
        "pasajeros",
        "viajero",
        "viajeros",
        "paciente",
        "huesped",
        "huespedes",
        "passageiro",
        "passageiros",
        "viajante",
        "viajantes",
        "passager",
        "passagers",
        "voyageur",
        "voyageurs",
        "passagier",
        "passagiere",
        "reisende",
        "reisender",
        "patientin",
        "passeggero",
        "passeggeri",
        "viaggiatore",
        "viaggiatori",
        "paziente",
    ];
    crate::schema::parent_key(path).is_some_and(|k| {
        crate::text::words::any_identifier_word(k, |w| {
            RECORDS.iter().any(|r| r.eq_ignore_ascii_case(w))
        })
    })
}

fn is_special(item: &PsdItem) -> bool {
    item.category.is_special() || item.kind == PsdKind::FinancialDistress
}

/// Keys of an object that wraps a message's own members (Microsoft Graph's `message`, a
/// draft, an envelope).
const ENVELOPE_KEYS: &[&str] = &["message", "draft", "email", "mail", "envelope", "payload"];

const ADDRESSING_KEYS: &[&str] = &[
    "to",
    "cc",
    "recipient",
    "recipients",
    "channel",
    "chat",
    "contact",
    "email",
    "address",
    "phone",
    "number",
    "coworker",
    "agent",
    "assignee",
    "attendees",
];

/// Keys of the field that states a handed-over task.
const TASK_KEYS: &[&str] = &[
    "task",
    "question",
    "instruction",
    "instructions",
    "request",
    "message",
];

const POINT_KEYS: &[&str] = &[
    "subject",
    "title",
    "summary",
    "task",
    "headline",
    "topic",
    "purpose",
    "reason",
    // The same keys in the other languages of the lexicons.
    "objet",
    "asunto",
    "betreff",
    "oggetto",
    "assunto",
    "onderwerp",
    "temat",
    "emne",
    "aihe",
    "predmet",
    "motivo",
    "motif",
    "anliegen",
];

/// Keys of a message's body.
const BODY_KEYS: &[&str] = &["body", "message", "text", "content", "html"];

/// Which of `lists` hold a word of the identifier `key` (its words read once, none copied).
fn lists_met<const N: usize>(key: &str, lists: [&[&str]; N]) -> [bool; N] {
    let mut met = [false; N];
    any_identifier_word(key, |w| {
        for (m, list) in met.iter_mut().zip(lists) {
            *m |= list.contains(&w);
        }
        false
    });
    met
}

/// Whether the first word of the identifier `name` is in `list`.
fn first_word_in(name: &str, list: &[&str]) -> bool {
    let mut found = false;
    any_identifier_word(name, |w| {
        found = list.contains(&w);
        true
    });
    found
}

/// [`lists_met`] of a call's member key for the case, task, addressing, point and body keys:
/// remembered per thread (see `key_memo`), since a tool's keys come back call after call.
fn member_key_lists(key: &str) -> [bool; 5] {
    thread_local! {
        static SEEN: key_memo::KeyMemo<[bool; 5]> = std::cell::RefCell::default();
    }
    key_memo::remembered(&SEEN, key, |k| {
        lists_met(
            k,
            [CASE_KEYS, TASK_KEYS, ADDRESSING_KEYS, POINT_KEYS, BODY_KEYS],
        )
    })
}

fn collect_strings<'a>(v: Arg<'a>, out: &mut Vec<&'a str>) {
    match v.node() {
        Node::String(s) => out.push(s),
        Node::Array(a) => a.for_each(|x| collect_strings(x, out)),
        Node::Object(o) => o.for_each(|(_, x)| collect_strings(x, out)),
        _ => {}
    }
}

impl<'a> CallView<'a> {
    fn new(ctx: &CallContext<'a>) -> Self {
        let mut addressing: Vec<&str> = Vec::new();
        let mut point: Vec<&str> = Vec::new();
        let mut body_opening: Option<String> = None;
        let mut body_reading: Option<Reading<'a>> = None;
        // Only a message's or a payment's recipients are read from its opening.
        let reads_recipients = ctx.kind.is_message() || ctx.kind == ToolKind::Payment;
        let mut tasks: Vec<&str> = Vec::new();
        let mut case_reference = false;
        let mut anonymous = false;
        // The call's own members, and those of an envelope object that holds the message
        // (`{"message": {"subject", "body": {"content"}, "toRecipients"}}`).
        let members = ctx.args.members().into_iter().flatten().flat_map(|(k, v)| {
            let inner = ENVELOPE_KEYS
                .iter()
                .any(|e| k.eq_ignore_ascii_case(e))
                .then(|| v.members())
                .flatten();
            std::iter::once((k, v)).chain(inner.into_iter().flatten())
        });
        for (k, v) in members {
            let [case_key, task_key, addressing_key, point_key, body_key] = member_key_lists(k);
            anonymous |= matches!(v.node(), Node::Bool(true))
                && any_identifier_word(k, |w| {
                    matches!(
                        w,
                        "anonymous" | "anonymously" | "anon" | "anonym" | "anonimo"
                    )
                });
            case_reference |= case_key
                && match v.node() {
                    Node::String(s) => !s.trim().is_empty(),
                    Node::Number(_) => true,
                    _ => false,
                };
            if ctx.kind == ToolKind::Delegation
                && task_key
                && let Some(s) = v.as_str()
            {
                tasks.push(s);
            }
            if addressing_key {
                collect_strings(v, &mut addressing);
            }
            if point_key {
                collect_strings(v, &mut point);
            }
            // A body may be an object holding its text (`{"contentType", "content"}`).
            let body_text = || {
                v.as_str().or_else(|| {
                    v.members()?.find_map(|(bk, bv)| {
                        matches!(bk, "content" | "text" | "value")
                            .then(|| bv.as_str())
                            .flatten()
                    })
                })
            };
            if reads_recipients
                && body_key
                && let Some(s) = body_text()
            {
                // The greeting and the request say who reads: "Dear Dr. Lee", "please
                // refill my prescription". The rest of the body tells, it does not address.
                let (opening, reading) = opening_of(s);
                body_opening = Some(opening);
                body_reading = reading;
            }
        }
        let mut opening_text = point.join(" ");
        if let Some(b) = body_opening {
            opening_text.push(' ');
            opening_text.push_str(&b);
        }
        let recipients = if reads_recipients {
            Recipients::read(addressing.iter().copied(), Some(&opening_text))
        } else {
            Recipients::default()
        };
        // What a handed-over task does, read in its opening (the task or question fields, in
        // order, up to the first that acts in someone's name).
        let mut task_acts = false;
        let mut task_needs_birth_date = false;
        let mut task_needs_address = false;
        // Read whole, in every task field: where a question's answer depends on the place,
        // the words say so anywhere in it. No task field: nothing says the place is not needed.
        let task_local = tasks.is_empty()
            || tasks.iter().any(|s| {
                let ws = words(s);
                let v = vocab();
                let langs = v.languages(&ws, s);
                v.set(WordSet::Local).any_in_langs(langs, &ws, s)
            });
        for s in &tasks {
            let mut end = s.len().min(SHORT_TITLE * 2);
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            let head = s.get(..end).unwrap_or_default();
            let ws = words(head);
            let v = vocab();
            let langs = v.languages(&ws, head);
            task_needs_birth_date |= purpose_in(WordSet::BirthPurpose, langs, &ws, head);
            task_needs_address |= purpose_in(WordSet::AddressPurpose, langs, &ws, head);
            if v.set(WordSet::ActFor).any_in_langs(langs, &ws, head) {
                task_acts = true;
                break;
            }
        }
        let address_change = point.iter().any(|s| {
            // An enum value or a key-like subject ("changement_adresse") is read as words.
            let t: std::borrow::Cow<'_, str> = if s.contains('_') {
                s.replace('_', " ").into()
            } else {
                (*s).into()
            };
            let ws = words(&t);
            let v = vocab();
            let langs = v.languages(&ws, &t);
            v.set(WordSet::AddressChange).any_in_langs(langs, &ws, &t)
        });
        let point_words = point
            .iter()
            .flat_map(|s| {
                words(s)
                    .into_iter()
                    .filter(names_a_point)
                    .map(|w| w.folded.into_owned())
            })
            .collect();
        let traits = ctx.tool.traits();
        CallView {
            kind: ctx.kind,
            recipients,
            pay_me: OnceLock::new(),
            pay_account: OnceLock::new(),
            task_acts,
            task_needs_birth_date: task_acts && task_needs_birth_date,
            task_needs_address: task_acts && task_needs_address,
            address_change,
            task_local,
            point_words,
            point,
            topics: OnceLock::new(),
            case_reference,
            anonymous,
            writes_cv: traits.writes_cv,
            keeps_secrets: traits.keeps_secrets,
            sample_file: matches!(ctx.kind, ToolKind::Code | ToolKind::Files)
                && sample::writes_sample_file(ctx.args),
            workplace: ctx.kind == ToolKind::PublicPost && traits.workplace_chat,
            shared_store: ctx.kind == ToolKind::Files && traits.writes_shared,
            updates: traits.updates,
            writes_rows: traits.writes_rows,
            translates: traits.translates,
            fills_form: traits.fills_form,
            registers: traits.registers,
            retrieves: OnceLock::new(),
            tool: ctx.tool,
            body_reading: Mutex::new(body_reading),
            args: ctx.args,
        }
    }
}

/// Whether a term of `set` in `langs` names what the task is for: not a place it is near, with
/// two words before it at most ("book a hotel near the university hospital" is no visit to
/// the hospital).
fn purpose_in(set: WordSet, langs: LangMask, ws: &[Word<'_>], raw: &str) -> bool {
    let v = vocab();
    let near = v.set(WordSet::Proximity);
    (0..ws.len()).any(|i| {
        v.set(set).match_in(langs, ws, i).is_some()
            && !(i.saturating_sub(4)..i).any(|j| {
                near.match_in(langs, ws, j)
                    .is_some_and(|n| j + n >= i.saturating_sub(2))
            })
    }) || v.set(set).any_unspaced(langs, raw)
}

impl CallView<'_> {
    /// Whether the point fields name the kind of `kind` as what the call is about: medicines
    /// ("Medication question", topic `medication`) for a medication, results or symptoms
    /// ("test results", topic `test_results`) for a condition.
    fn topic_names(&self, kind: PsdKind) -> bool {
        let (medication, results) = *self.topics.get_or_init(|| {
            let v = vocab();
            let (mut medication, mut results) = (false, false);
            for s in &self.point {
                // Identifiers' parts read as words; each field read once for both lists.
                let spaced = s.replace(['_', '-'], " ");
                let ws = words(&spaced);
                let langs = v.languages(&ws, &spaced);
                medication |= v
                    .set(WordSet::TopicMedication)
                    .any_in_langs(langs, &ws, &spaced);
                results |= v
                    .set(WordSet::TopicResults)
                    .any_in_langs(langs, &ws, &spaced);
            }
            (medication, results)
        });
        match kind {
            PsdKind::Medication => medication,
            PsdKind::Condition => results,
            _ => false,
        }
    }

    /// Whether the message asks to be paid (an invoice, rent, a refund to the writer).
    fn pay_me(&self) -> bool {
        *self
            .pay_me
            .get_or_init(|| short_field_says(self.args, WordSet::PayMe))
    }

    /// Whether a short field says where pay goes ("salary details", "Gehaltskonto"): an
    /// account in the message is where to pay, though no amount is asked for.
    fn pay_account(&self) -> bool {
        *self
            .pay_account
            .get_or_init(|| short_field_says(self.args, WordSet::PayAccount))
    }

    /// Whether the tool only reads (see [`purpose::retrieves`]).
    fn retrieves(&self) -> bool {
        *self.retrieves.get_or_init(|| purpose::retrieves(self.tool))
    }
}

/// Whether a short field of the call (a subject, a title, a memo) holds a term of `set`
/// (asking to be paid, saying where pay goes) in the languages it is written in; in a text,
/// the sentences around an account decide (see `message`).
fn short_field_says(args: Arg<'_>, set: WordSet) -> bool {
    let mut all = Vec::new();
    collect_strings(args, &mut all);
    let v = vocab();
    all.iter().filter(|s| s.len() <= SHORT_TITLE).any(|s| {
        let ws = words(s);
        v.set(set).any_in_langs(v.languages(&ws, s), &ws, s)
    })
}

/// A message body's greeting and first request, each followed by a space, and the body's
/// reading when it is read whole. A long body is read window by window: the greeting is its
/// first window's, the request the first one found.
fn opening_of(body: &str) -> (String, Option<Reading<'_>>) {
    let mut o = String::new();
    if body.len() <= READ_WINDOW {
        let r = Reading::new(body);
        for part in [r.greeting_text(), r.first_request()].into_iter().flatten() {
            o.push_str(part);
            o.push(' ');
        }
        return (o, Some(r));
    }
    let windows = crate::text::window::cover(body, READ_WINDOW, &[]);
    let last = windows.len().saturating_sub(1);
    let mut greeting = None;
    let mut request = None;
    for (i, w) in windows.into_iter().enumerate() {
        let r = Reading::window(body, w, i == 0, i == last);
        if i == 0 {
            greeting = r.greeting_text();
        }
        request = r.first_request();
        if request.is_some() {
            break;
        }
    }
    for part in [greeting, request].into_iter().flatten() {
        o.push_str(part);
        o.push(' ');
    }
    (o, None)
}

fn text_at<'a>(args: Arg<'a>, path: &str) -> Option<&'a str> {
    args.str_at(path)
}

fn span_text<'a>(args: Arg<'a>, item: &PsdItem) -> Option<&'a str> {
    let s = text_at(args, &item.path)?;
    match &item.span {
        Some(r) => s.get(r.clone()),
        None => Some(s),
    }
}

/// [`span_text`] of an item of the field `f`: its text is at hand, not looked up again.
fn field_span_text<'a>(f: &FieldCtx<'a>, item: &PsdItem) -> Option<&'a str> {
    let s = f.text?;
    match &item.span {
        Some(r) => s.get(r.clone()),
        None => Some(s),
    }
}

fn consented(ctx: &CallContext<'_>, item: &PsdItem) -> bool {
    let Some(c) = ctx.consent else { return false };
    // Telling the assistant about one's health, faith or record ("I'm starting PrEP - look up
    // Truvada") is not asking to pass it on: special-category data the user's words hold is
    // kept for a request that shares something ("tell the school Ana has asthma").
    c.allows_kind(item.kind)
        || span_text(ctx.args, item)
            .is_some_and(|v| c.allows_value(v) && (!is_special(item) || c.asks_to_share()))
}

/// Words of a field's key that name a health condition (English and the languages of the
/// lexicons; Han and Hangul keys as written).
const CONDITION_KEYS: &[&str] = &[
    "condition",
    "conditions",
    "diagnosis",
    "diagnoses",
    "diagnose",
    "diagnosen",
    "diagnostic",
    "diagnostico",
    "diagnóstico",
    "diagnosi",
    "diagnoza",
    "diagnóza",
    "illness",
    "illnesses",
    "disease",
    "diseases",
    "disorder",
    "disorders",
    "symptom",
    "symptoms",
    "symptome",
    "symptômes",
    "sintomas",
    "síntomas",
    "sintomi",
    "objawy",
    "pathology",
    "pathologie",
    "patologia",
    "patologie",
    "patología",
    "malattia",
    "enfermedad",
    "doença",
    "krankheit",
    "erkrankung",
    "allergy",
    "allergies",
    "allergie",
    "allergien",
    "alergias",
    "alergia",
    "intolerances",
    "impairment",
    "impairments",
    "disability",
    "disabilities",
    "behinderung",
    "handicap",
    "penyakit",
    "病名",
    "症状",
    "診断",
    "诊断",
    "病情",
    "증상",
    "진단",
    "질환",
];

/// Whether a key names the condition or the medicine `kind` is (a disability claim's
/// `conditions`, an accommodation request's `medical_condition`, a form's
/// `patologia_principale`, `diagnose`, `allergies`, `medications`). Not "complaint": a
/// support desk's complaint is a grievance.
fn key_names_health(key: Option<&str>, kind: PsdKind) -> bool {
    let words = match kind {
        PsdKind::Condition => CONDITION_KEYS,
        PsdKind::Medication => MEDICATION_KEYS,
        _ => return false,
    };
    key.is_some_and(|k| any_identifier_word(k, |w| words.contains(&w)))
}

/// Words of a field's key that name medicines.
const MEDICATION_KEYS: &[&str] = &[
    "medication",
    "medications",
    "medicine",
    "medicines",
    "prescription",
    "prescriptions",
    "medikament",
    "medikamente",
    "medicamento",
    "medicamentos",
    "médicament",
    "médicaments",
    "farmaco",
    "farmaci",
    "leki",
    "lek",
];

/// Whether `item` stands in the head of the short value `text`, before any remark is
/// appended to it (a dash, a bracket, a semicolon, a comma or a sentence's end).
fn opens_value(text: &str, item: &PsdItem) -> bool {
    let Some(start) = item.span.as_ref().map(|s| s.start) else {
        return true;
    };
    let head = text.get(..start).unwrap_or(text);
    text.len() <= SHORT_VALUE
        && head_end(
            head,
            &[" - ", " \u{2013} ", " \u{2014} ", "(", ";", ",", ". "],
        ) == head.len()
}

/// Whether a field's key names the illness a visit, a referral or a search of care is about
/// (`diagnosis`, `conditions`, `symptoms`, `enfermedad`, `visit_reason`).
fn names_condition(key: &str) -> bool {
    const WORDS: &[&str] = &[
        "condition",
        "conditions",
        "diagnosis",
        "diagnoses",
        "symptom",
        "symptoms",
        "complaint",
        "illness",
        "disease",
        "diseases",
        "diagnose",
        "krankheit",
        "beschwerden",
        "maladie",
        "symptomes",
        "enfermedad",
        "padecimiento",
        "sintomas",
        "diagnostico",
        "malattia",
        "patologia",
        "sintomi",
        "doenca",
        "klachten",
        "ziekte",
        "choroba",
        "objawy",
    ];
    let has =
        |w: &[&str]| any_identifier_word(key, |x| w.iter().any(|y| x.eq_ignore_ascii_case(y)));
    has(WORDS) || has(&["reason"]) && has(&["visit", "appointment", "consultation", "consulta"])
}

/// Field names that say what they carry beyond the roles: ids, cards, accounts.
fn key_carries(key: Option<&str>, kind: PsdKind) -> bool {
    let Some(key) = key else {
        return false;
    };
    let has = |w: &[&str]| any_identifier_word(key, |x| w.contains(&x));
    use PsdKind::*;
    match kind {
        CardNumber => has(&["card", "pan"]),
        Iban | BankAccount => has(&[
            "iban",
            "account",
            "recipient",
            "payee",
            "beneficiary",
            "bank",
            "creditor",
            "debtor",
        ]),
        Passport => has(&["passport", "document"]),
        NationalId | Ssn | TaxId | DriverLicence => has(&[
            "ssn", "national", "tax", "licence", "license", "document", "nif", "dni", "vat",
            "identity", "id",
        ]),
        MedicalRecord => has(&["mrn", "record", "patient", "chart"]),
        Credential => has(&["token", "key", "password", "secret", "auth", "credential"]),
        Postcode => has(&[
            "zip",
            "zipcode",
            "postal",
            "postalcode",
            "postcode",
            "plz",
            "postleitzahl",
            "postnummer",
        ]),
        Phone => has(&[
            "phone",
            "recipient",
            "mobile",
            "tel",
            "jid",
            "number",
            "contact",
        ]),
        Email => has(&[
            "email",
            "mail",
            "recipient",
            "contact",
            "user",
            "login",
            "username",
            "account",
            "sender",
            "from",
            "author",
            "owner",
        ]),
        Coordinates => has(&[
            "lat",
            "lon",
            "lng",
            "latitude",
            "longitude",
            "coord",
            "coordinates",
            "location",
            "position",
        ]),
        DateOfBirth => has(&[
            "birth",
            "dob",
            "birthday",
            "geburtsdatum",
            "naissance",
            "nacimiento",
        ]),
        Biometric => has(&[
            "fingerprint",
            "biometric",
            "biometrics",
            "faceprint",
            "voiceprint",
            "iris",
            "palm",
            "template",
            "embedding",
        ]),
        PersonName => has(&[
            "name",
            "holder",
            "recipient",
            "contact",
            "owner",
            "author",
            "member",
        ]),
        AccountId => has(&[
            "id",
            "number",
            "account",
            "member",
            "booking",
            "order",
            "ticket",
            "reference",
            "ref",
            "customer",
            "user",
        ]),
        // A path field holds the home directory its path runs through (`/Users/ana/Vault`).
        Username => has(&[
            "user",
            "username",
            "handle",
            "login",
            "owner",
            "author",
            "path",
            "dir",
            "directory",
            "folder",
            "vault",
            "cwd",
            "workdir",
        ]),
        _ => false,
    }
}

/// Tools whose optional free text is their content (a ticket's description, an issue's
/// body, a note): there only the personal spans go. Elsewhere an optional free-text field is
/// context the tool does not need, and goes whole.
const fn text_is_content(kind: ToolKind) -> bool {
    matches!(
        kind,
        ToolKind::Email
            | ToolKind::Messaging
            | ToolKind::PublicPost
            | ToolKind::Code
            | ToolKind::Files
            | ToolKind::Crm
            | ToolKind::Support
            | ToolKind::Delegation
            | ToolKind::Calendar
            | ToolKind::Database
            | ToolKind::Payment
            | ToolKind::Travel
            | ToolKind::Shopping
            | ToolKind::HealthCare
            | ToolKind::Route
            | ToolKind::Generic
    )
}

/// Decides every item. `items` must be sorted by path (the classifier emits them grouped).
pub fn decide(ctx: &CallContext<'_>, schema: &SchemaIndex, items: &[PsdItem]) -> Vec<Decision> {
    let mut out = vec![Decision::keep(Rule::Default); items.len()];
    let mut cv = CallView::new(ctx);
    // A message whose subject names a health matter goes to someone who provides care.
    if ctx.kind.is_message()
        && items.iter().any(|it| {
            it.category == crate::taxonomy::Category::Health
                && it
                    .path
                    .rsplit('/')
                    .next()
                    .is_some_and(|k| any_identifier_word(k, |w| POINT_KEYS.contains(&w)))
        })
    {
        cv.recipients.add("clinic");
    }
    let mut i = 0;
    // The items of one field (one path), by index: one buffer for every field.
    let mut group: Vec<usize> = Vec::new();
    while i < items.len() {
        if crate::budget::expired() {
            break;
        }
        let Some(path) = items.get(i).map(|x| x.path.as_str()) else {
            break;
        };
        let mut j = i;
        while items.get(j).is_some_and(|x| x.path == path) {
            j += 1;
        }
        group.clear();
        group.extend(i..j);
        decide_field(ctx, &cv, schema, items, &group, &mut out);
        i = j.max(i + 1);
    }
    out
}

/// The keys of a form-filling call's typed value ("fill `value` into `selector`").
const TYPED_KEYS: &[&str] = &["value", "text"];

/// The keys that name the form field a value is typed into.
const TARGET_KEYS: &[&str] = &["selector", "element", "locator", "field"];

/// Tag and attribute words of a selector, which name no field.
const SELECTOR_NOISE: &[&str] = &[
    "input",
    "textarea",
    "select",
    "div",
    "span",
    "form",
    "button",
    "label",
    "name",
    "id",
    "type",
    "text",
    "class",
    "data",
    "aria",
    "placeholder",
    "testid",
    "textbox",
    "field",
    "nth",
    "child",
    "of",
    "first",
    "last",
];

/// The name of the form field a form-filling call types the value at `path` into: a browser
/// tool fills `value` into the field its `selector` names (`textarea[name="reason_for_visit"]`,
/// `#patient-dob`, "Allergies textbox"), and that field, not the word "value", says what the
/// value is for. `None` when `path` is not such a value.
fn form_target(args: Arg<'_>, path: &str) -> Option<String> {
    let key = path.strip_prefix('/').filter(|k| !k.contains('/'))?;
    if !TYPED_KEYS.contains(&key) {
        return None;
    }
    let mut obj = args.members()?;
    let target = obj.find_map(|(k, v)| TARGET_KEYS.contains(&k).then(|| v.as_str()).flatten())?;
    let words: Vec<String> = identifier_words(target)
        .into_iter()
        .filter(|w| w.chars().any(char::is_alphabetic) && !SELECTOR_NOISE.contains(&w.as_str()))
        .collect();
    (!words.is_empty()).then(|| words.join("_"))
}

/// Keys that name no kind of data by themselves: the member of an object or an array that
/// holds the value, whose container says what it is (`email[0].value`,
/// `emailAddress.address`, `phones[1].number`).
const HOLDER_KEYS: &[&str] = &["value", "values", "address", "number", "data"];

/// The role of a value held under a [`HOLDER_KEYS`] key, when its container's key names a
/// contact: an e-mail address, a phone number, a recipient or a date of birth; and of a name
/// or label under a container that names a place (`location.displayName`): a location.
/// `None` otherwise (the key itself is read).
fn container_role(path: &str, key: Option<&str>) -> Option<FieldRole> {
    let key = key?;
    let holder = HOLDER_KEYS.iter().any(|h| key.eq_ignore_ascii_case(h));
    // A name or a label of a place (`location.displayName`, `venue.name`) names the place
    // (an address's `name` is whom it reaches: not this).
    let place_name = || {
        any_identifier_word(key, |w| {
            matches!(w, "name" | "displayname" | "label" | "title" | "display")
        })
    };
    if !holder && !place_name() {
        return None;
    }
    // The nearest container named by a key, past array indices.
    let parent = crate::schema::parent_key(path)?;
    let role = field_role(Some(parent), None, "");
    if !holder {
        return (role == FieldRole::Location && crate::schema::names_a_place(parent))
            .then_some(role);
    }
    matches!(
        role,
        FieldRole::Email | FieldRole::Phone | FieldRole::Recipient | FieldRole::BirthDate
    )
    .then_some(role)
}

fn field_ctx<'a>(
    ctx: &CallContext<'a>,
    cv: &CallView<'_>,
    info: Option<&'a FieldInfo>,
    path: &'a str,
) -> FieldCtx<'a> {
    let text = text_at(ctx.args, path);
    let key = info
        .and_then(|i| i.key.as_deref())
        .or_else(|| path.rsplit('/').next());
    let role = container_role(path, key).unwrap_or_else(|| {
        field_role(
            key,
            info.and_then(|i| i.description.as_deref()),
            text.unwrap_or_default(),
        )
    });
    // A translator's text (`q`, `text`) is a message to render, not a query (its items are
    // kept by `gate`; a field that guides the rendering is read as a message).
    let role = if matches!(role, FieldRole::Query | FieldRole::Value | FieldRole::Title)
        && cv.translates
        && text.is_some_and(|t| t.split_whitespace().nth(3).is_some())
    {
        FieldRole::Message
    } else {
        role
    };
    // A schema that lists no required properties says nothing about need: the field that
    // carries the tool's purpose (its query, URL, text) is needed all the same.
    let purpose_field = matches!(
        role,
        FieldRole::Query | FieldRole::Url | FieldRole::Message | FieldRole::Location
    ) || key.is_some_and(|k| {
        any_identifier_word(k, |w| {
            matches!(w, "sql" | "query" | "statement" | "url" | "command")
        })
    });
    // A search's query is what it searches by, whichever of its other parameters (a partner
    // tag, a locale, a key) the schema requires instead.
    let searches_by = role == FieldRole::Query && (ctx.kind.is_search() || cv.retrieves());
    let needed = info.is_none_or(|i| {
        i.necessary
            || !i.declared && i.key.is_none() && !i.member
            || (!i.parent_lists_required && purpose_field || searches_by)
                && i.declared
                && depth_one(path)
    });
    let query = role == FieldRole::Query
        || (ctx.kind.is_search() && matches!(role, FieldRole::Title | FieldRole::Message));
    let reads = role.is_free_text() || matches!(role, FieldRole::Value | FieldRole::Location);
    let value_key = role == FieldRole::Value
        || field_role(key, info.and_then(|i| i.description.as_deref()), "") == FieldRole::Value;
    let short_value = role == FieldRole::Value
        && text.is_some_and(|t| {
            t.split_whitespace().nth(8).is_none() && !t.contains(['.', '!', '?', '\n', ';'])
        });
    let truncate_at = match info.and_then(|i| i.minimize.as_ref()) {
        Some(MinimizeDirective::Truncate(n)) => {
            let n = n.unwrap_or(DEFAULT_TRUNCATE);
            let at = text.map_or(0, |t| t.char_indices().nth(n).map_or(t.len(), |(i, _)| i));
            Some((at, n))
        }
        _ => None,
    };
    FieldCtx {
        path,
        info,
        key,
        schema_key: info.and_then(|i| i.key_at(path)),
        role,
        text,
        needed,
        query,
        reads,
        reading: None,
        short_value,
        value_key,
        document: None,
        placeholder_sample: false,
        placeholder_blocks: Vec::new(),
        truncate_at,
    }
}

/// Whether a translator's field is the text it renders: the field its purpose reads (`text`,
/// `q`, `contents`), named by a word for the text itself, not for guidance about it
/// (`context`, `glossary`, `instructions`).
fn translation_payload(f: &FieldCtx<'_>) -> bool {
    let Some(key) = f.schema_key.or(f.key) else {
        return false;
    };
    f.text.is_some()
        && any_identifier_word(key, |w| {
            matches!(
                w,
                "text"
                    | "texts"
                    | "q"
                    | "content"
                    | "contents"
                    | "source"
                    | "input"
                    | "segment"
                    | "segments"
                    | "sentence"
                    | "sentences"
                    | "string"
                    | "strings"
            )
        })
        && !any_identifier_word(key, |w| {
            matches!(
                w,
                "context" | "glossary" | "instructions" | "note" | "notes" | "hint"
            )
        })
}

/// The longest value read as a short value with a remark, in bytes.
const SHORT_VALUE: usize = 200;

/// The longest value read as a payee's name (a school's full name with its district).
const PAYEE_VALUE: usize = 120;

/// The words of a key that name the party a payment goes to.
const PAYEE_WORDS: &[&str] = &[
    "payee",
    "creditor",
    "beneficiary",
    "merchant",
    "biller",
    "empfaenger",
    "beguenstigter",
    "beneficiaire",
    "beneficiario",
    "destinatario",
    "odbiorca",
];

/// Whether a word of `key` names the party a payment goes to (`creditorName`, `payee_name`).
fn names_payee(key: &str) -> bool {
    any_identifier_word(key, |w| PAYEE_WORDS.contains(&w))
}

/// Whether `key` is one of [`PAYEE_WORDS`] and nothing else (`payee`, `Merchant`).
fn is_payee_word(key: &str) -> bool {
    PAYEE_WORDS.iter().any(|w| w.eq_ignore_ascii_case(key))
}

/// The longest text read as a subject or a title for call-wide cues.
const SHORT_TITLE: usize = 160;

/// What one field's items share besides its [`FieldCtx`]: computed once, whatever the number
/// of windows the field's text is read in.
struct FieldScan {
    /// The comments of a database statement, in order.
    comments: Vec<Range<usize>>,
    /// The conditions of a database read that its key makes redundant.
    redundant: Vec<crate::text::sql::Redundant>,
    /// What in a database write picks the rows it writes (see
    /// [`crate::text::sql::write_operands`]).
    operands: Vec<Range<usize>>,
    /// The free-text rules of a search apply (one topic), not those of a message.
    query: bool,
}

fn decide_field(
    ctx: &CallContext<'_>,
    cv: &CallView<'_>,
    schema: &SchemaIndex,
    items: &[PsdItem],
    group: &[usize],
    out: &mut [Decision],
) {
    decide_field_items(ctx, cv, schema, items, group, out);
    let Some(path) = group
        .first()
        .and_then(|&i| items.get(i))
        .map(|x| x.path.as_str())
    else {
        return;
    };
    let directive = schema.field(path).and_then(|i| i.minimize.as_ref());
    if let Some(directive) = directive
        && !ctx.policy.strict
    {
        let text = text_at(ctx.args, path);
        for &k in group {
            let whole = items.get(k).is_some_and(|it| covers_value(text, it));
            if let Some(slot) = out.get_mut(k) {
                *slot = directed(directive, *slot, whole);
            }
        }
    }
}

/// Whether `item` is the whole value of the field whose text is `text` (give or take two
/// characters of quoting or punctuation), not a span inside a longer text; an item with no
/// span, or of a field with no text, is.
fn covers_value(text: Option<&str>, item: &PsdItem) -> bool {
    text.is_none_or(|t| {
        item.span
            .as_ref()
            .is_none_or(|s| crate::text::spans::is_whole_value(t, s))
    })
}

/// The decision `d` of an item in a field whose schema asks for the rewrite `directive`: the
/// field's value itself (a reporter's name "to substitute"), the data the field is declared
/// for and an item the tool does not need go the way the tool's author asks; what a text
/// needs besides stays (a query "to generalize" keeps its topic, and loses the street for its
/// town).
fn directed(directive: &MinimizeDirective, d: Decision, whole: bool) -> Decision {
    if d.necessary && !whole && d.rule != Rule::FieldCarriesThisData {
        return d;
    }
    match directive {
        MinimizeDirective::Generalize(_) => {
            Decision::drop(Op::Generalize, Rule::DirectiveGeneralize)
        }
        MinimizeDirective::Substitute => Decision::drop(Op::Substitute, Rule::DirectiveSubstitute),
        _ => d,
    }
}

/// [`decide_field`] by the field's own rules.
fn decide_field_items(
    ctx: &CallContext<'_>,
    cv: &CallView<'_>,
    schema: &SchemaIndex,
    items: &[PsdItem],
    group: &[usize],
    out: &mut [Decision],
) {
    let Some(path) = group
        .first()
        .and_then(|&i| items.get(i))
        .map(|x| x.path.as_str())
    else {
        return;
    };
    let info = schema.field(path);
    let target = form_target(ctx.args, path).map(|key| FieldInfo {
        key: Some(key),
        ..info.cloned().unwrap_or_default()
    });
    let mut f = field_ctx(ctx, cv, target.as_ref().or(info), path);
    if cv.sample_file {
        f.document = f.text.and_then(Document::of);
        f.placeholder_sample = f
            .text
            .is_some_and(crate::text::examples::mentions_placeholder_person);
    }
    if cv.kind == ToolKind::Code
        && let Some(t) = f.text.filter(|t| t.contains("```"))
    {
        f.placeholder_blocks = crate::text::code::CodeRegions::of(t)
            .fenced_blocks(t.len())
            .filter(|b| {
                t.get(b.clone())
                    .is_some_and(crate::text::examples::mentions_placeholder_person)
            })
            .collect();
    }
    if note_not_in_request(ctx, cv, &f, items, group) {
        for &k in group {
            if let Some(slot) = out.get_mut(k) {
                *slot = Decision::drop(Op::RemoveField, Rule::NotInRequest);
            }
        }
        return;
    }
    // A statement that writes a record carries the record's text; one that reads finds
    // entries by its literals.
    let writes_record = cv.kind == ToolKind::Database
        && f.text.is_some_and(|t| {
            let head: String = t
                .trim_start()
                .chars()
                .take(7)
                .collect::<String>()
                .to_lowercase();
            ["insert", "update", "replace", "upsert", "merge"]
                .iter()
                .any(|v| head.starts_with(v))
        });
    let scan = FieldScan {
        // A database statement's comments are not executed: what they tell goes.
        comments: match f.text {
            Some(text) if cv.kind == ToolKind::Database => crate::text::sql::comments(text),
            _ => Vec::new(),
        },
        redundant: match f.text {
            Some(text) if cv.kind == ToolKind::Database && !writes_record => {
                crate::text::sql::redundant_conditions(text)
            }
            _ => Vec::new(),
        },
        operands: match f.text {
            Some(text) if writes_record => crate::text::sql::write_operands(text),
            _ => Vec::new(),
        },
        // A tool that writes rows by name takes the row's values, not a search of them.
        query: (f.query || cv.kind == ToolKind::Database && !cv.writes_rows) && !writes_record,
    };
    let Some(text) = f.text.filter(|_| f.reads) else {
        decide_items(ctx, cv, &f, &scan, items, group, out);
        return;
    };
    if text.len() <= READ_WINDOW {
        // The body read for its opening is the same text: its reading is taken as it is.
        let read = cv
            .body_reading
            .lock()
            .ok()
            .and_then(|mut r| r.take_if(|r| std::ptr::eq(r.text, text)));
        f.reading = Some(read.unwrap_or_else(|| Reading::new(text)));
        decide_items(ctx, cv, &f, &scan, items, group, out);
        return;
    }
    // A long text is read window by window, each window's items with that window's reading:
    // what a reading builds per word and clause stays bounded, and no window cuts an item.
    let mut spans: Vec<Range<usize>> = group
        .iter()
        .filter_map(|&k| items.get(k).and_then(|it| it.span.clone()))
        .collect();
    spans.sort_unstable_by_key(|s| s.start);
    let windows = crate::text::window::cover(text, READ_WINDOW, &spans);
    drop(spans);
    let mut by_window: Vec<Vec<usize>> = vec![Vec::new(); windows.len()];
    for &k in group {
        let at = items
            .get(k)
            .and_then(|it| it.span.as_ref())
            .map_or(0, |s| s.start);
        let w = windows.partition_point(|w| w.end <= at);
        if let Some(slot) = by_window.get_mut(w.min(windows.len().saturating_sub(1))) {
            slot.push(k);
        }
    }
    let last = windows.len().saturating_sub(1);
    let mut prev_start = 0;
    let mut parts = Vec::new();
    for (i, (w, sub)) in windows.into_iter().zip(by_window).enumerate() {
        let lead = lead_in(text, prev_start, w.start);
        prev_start = w.start;
        if !sub.is_empty() {
            parts.push((lead..w.end, i, sub));
        }
    }
    // Each window's items are decided with its reading alone, so on several cores at once.
    let deadline = crate::budget::current();
    let decided = crate::par::map(&parts, 1, |_, (range, i, sub)| {
        let _scope = deadline.enter();
        let mut decided = Vec::new();
        if crate::budget::expired() {
            return decided;
        }
        let f = FieldCtx {
            reading: Some(Reading::window(text, range.clone(), *i == 0, *i == last)),
            ..f.clone()
        };
        decide_items(ctx, cv, &f, &scan, items, sub, &mut decided);
        decided
    });
    for (k, d) in decided.into_iter().flatten() {
        out.set(k, d);
    }
}

/// Whether the field is an optional note about someone, in a record the user's request
/// writes (a contact, a lead, an event), an event's optional place, an update's optional
/// field that shares no word with the request (an update sends what changes), or an optional
/// field of a contact record holding
/// other personal data than the name, e-mail and phone it is kept under (a birth date, a home
/// address), of which the request says nothing: the field's name
/// is not among the request's words and none of its data is given by the request. Read only
/// when the request is at hand.
fn note_not_in_request(
    ctx: &CallContext<'_>,
    cv: &CallView<'_>,
    f: &FieldCtx<'_>,
    items: &[PsdItem],
    group: &[usize],
) -> bool {
    let Some(consent) = ctx.consent.filter(|_| ctx.policy.honour_task_context) else {
        return false;
    };
    // A free-text note of a contact or an event; or, in a contact record, a field of other
    // data than the name, e-mail address and phone number the record is kept under (a birth
    // date, a home address, a national number).
    let keyed_by = |it: &PsdItem| {
        matches!(
            it.kind,
            PsdKind::Email | PsdKind::PersonName | PsdKind::Username
        )
    };
    let note = f.role == FieldRole::Message;
    let extra_field =
        cv.kind == ToolKind::Crm && !group.iter().filter_map(|&k| items.get(k)).any(keyed_by);
    // An event's optional place: where the user goes is theirs to give.
    let event_place = cv.kind == ToolKind::Calendar && f.role == FieldRole::Location;
    // An update's optional field: what the request does not give is not what changes.
    let update_field = cv.updates && !cv.kind.is_message();
    if !(matches!(cv.kind, ToolKind::Crm | ToolKind::Calendar)
        && (note || extra_field || event_place)
        || update_field)
        || f.needed
        || f.info.is_some_and(|i| i.required)
    {
        return false;
    }
    let Some(text) = f.text else {
        return false;
    };
    if update_field && consent.shares_word(text) {
        return false;
    }
    // An address the request changes ("update my address to …", "I moved to …") keeps its
    // postcode, town and region fields, which the request may not spell out.
    let place = |it: &PsdItem| {
        matches!(
            it.kind,
            PsdKind::StreetAddress | PsdKind::Postcode | PsdKind::Place
        )
    };
    if update_field
        && group.iter().filter_map(|&k| items.get(k)).all(place)
        && (consent.names_kind(PsdKind::StreetAddress) || consent.has_word("moved"))
    {
        return false;
    }
    // (Short words of a key, "of" of "date of birth", name nothing.)
    let named = any_identifier_word(f.key.unwrap_or_default(), |w| {
        w.chars().count() >= 4 && consent.has_word(w)
    });
    // The request names the place by a word of it (the venue, the street) or by its kind
    // ("with her address").
    let place_given = event_place
        && (group
            .iter()
            .filter_map(|&k| items.get(k))
            .any(|it| consent.names_kind(it.kind))
            || consent.shares_word(text));
    !named
        && !place_given
        && !group
            .iter()
            .filter_map(|&k| items.get(k))
            .any(|it| consented(ctx, it))
}

/// How far before a window (of a long text) its reading starts: the window's items are read
/// after some of the text before them (at most [`READ_LEAD`] bytes, from a word start, not
/// before the previous window), so that their clause and sentence are not taken for the
/// text's first and the words before them are there.
const READ_LEAD: usize = 4 * 1024;

fn lead_in(text: &str, prev_start: usize, start: usize) -> usize {
    if start == 0 {
        return 0;
    }
    let mut from = start.saturating_sub(READ_LEAD).max(prev_start);
    while from < start && !text.is_char_boundary(from) {
        from += 1;
    }
    text.get(from..start)
        .and_then(|head| head.find(char::is_whitespace))
        .map_or(from, |i| {
            let after = from + i;
            after
                + text
                    .get(after..)
                    .and_then(|t| t.chars().next())
                    .map_or(0, char::len_utf8)
        })
}

/// Decides `group`, items of the field `f` (all of them, or those of one window of its text).
fn decide_items(
    ctx: &CallContext<'_>,
    cv: &CallView<'_>,
    f: &FieldCtx<'_>,
    scan: &FieldScan,
    items: &[PsdItem],
    group: &[usize],
    out: &mut (impl Decided + ?Sized),
) {
    let mut pending: Vec<usize> = Vec::new();
    for &k in group {
        if crate::budget::expired() {
            return;
        }
        let Some(item) = items.get(k) else { continue };
        match gate(ctx, cv, f, item) {
            Some(d) => out.set(k, d),
            None => pending.push(k),
        }
    }
    // Comments are in order and do not overlap: the one that could hold the span is found by
    // binary search.
    let comments = &scan.comments;
    if !comments.is_empty() {
        decide_inside(
            &mut pending,
            items,
            out,
            Decision::drop(Op::RemoveSpan, Rule::CodeComment),
            |_, s| {
                let i = comments.partition_point(|c| c.start <= s.start);
                i.checked_sub(1)
                    .and_then(|i| comments.get(i))
                    .is_some_and(|c| s.end <= c.end)
            },
        );
    }
    // A condition the read's key makes redundant goes with its value (`AND holder = '…'`).
    let redundant = &scan.redundant;
    if !redundant.is_empty() {
        let decision = Decision::drop(Op::RemoveClause, Rule::RedundantCondition);
        decide_inside(&mut pending, items, out, decision, |_, s| {
            redundant
                .iter()
                .any(|r| r.literal.start <= s.start && s.end <= r.literal.end)
        });
    }
    // A write's key and the names it writes to (`UPDATE … WHERE customer_id = 4417`) pick
    // the row: without them the statement writes another row, or every row.
    let operands = &scan.operands;
    if !operands.is_empty() {
        let decision = Decision::keep(Rule::OwnDataSearchKey);
        decide_inside(&mut pending, items, out, decision, |it, s| {
            it.kind != PsdKind::Credential
                && operands
                    .iter()
                    .any(|r| r.start <= s.start && s.end <= r.end)
        });
    }
    // A short value with a remark appended ("Gastroenterology - flare, colonoscopy overdue",
    // "Cardiology (my father's bypass)"): the remark is not the value, however it is read.
    if f.value_key
        && let Some(text) = f.text.filter(|t| t.len() <= SHORT_VALUE)
    {
        // The value itself ("Dermatology" of "Dermatology - in-network with …") is what
        // the field is for: it opens the text and a separator or the end follows it.
        pending.retain(|&k| {
            let Some(it) = items.get(k) else {
                return true;
            };
            if f.role == FieldRole::Value && heads_value(text, it) {
                out.set(k, Decision::keep(Rule::FieldCarriesThisData));
                return false;
            }
            // A dashed appendix is a remark only where the field itself is a value: a text read
            // as prose may go on after a dash ("JPay - Ana Ruiz, inmate no. …").
            let gloss = structured::glosses_value(f, text, it);
            let remark = !f.role.carries(it.kind)
                && !gloss
                && (structured::in_parentheses(text, it)
                    || f.role == FieldRole::Value && structured::in_personal_appendix(text, it));
            if remark {
                out.set(k, Decision::drop(Op::RemoveClause, Rule::RemarkOnValue));
            }
            !remark
        });
    }
    if pending.is_empty() {
        return;
    }
    let decided: Vec<(usize, Decision)> = match (&f.reading, scan.query) {
        (Some(r), true) => query::decide(cv, f, r, items, group, &pending),
        (Some(r), false) => message::decide(cv, f, r, items, &pending),
        (None, _) => pending
            .iter()
            .filter_map(|&k| items.get(k).map(|it| (k, structured::decide(cv, f, it))))
            .collect(),
    };
    // A search of the user's own store that the request's words already find by keeps no key
    // the request does not give; read once a field.
    let mut own_found: Option<bool> = None;
    for (k, mut d) in decided {
        if let Some(it) = items.get(k) {
            let web_topic = d.rule == Rule::TopicOfQuery && topic_not_in_request(ctx, cv, f, it);
            let own_key = cv.kind == ToolKind::SearchOwn
                && matches!(d.rule, Rule::TopicOfQuery | Rule::OwnDataSearchKey)
                && key_not_in_request(ctx, f, it)
                && *own_found.get_or_insert_with(|| {
                    found_by_request(ctx, f.text.unwrap_or_default(), items, group)
                });
            // What a write to the user's own store keeps of special categories, the request
            // names by its words or its kind ("save my medication schedule").
            let stored = d.rule == Rule::PrivateStore
                && is_special(it)
                && key_not_in_request(ctx, f, it)
                && ctx.consent.is_some_and(|c| !c.names_kind(it.kind));
            // The schema names what the tool needs at minimum and leaves this optional text
            // out of it: what the text rules would keep of other kinds of data is not needed
            // (a claim's `memo` beside its `diagnosis`); the rest of the text stays.
            // Not in an issue tracker's text, whose words may name code (`clinic.legal_name`).
            let left_out = f.info.is_some_and(|i| {
                i.declared_necessary == Some(false)
                    && !i.required
                    && i.psd_category != Some(it.category)
            }) && d.necessary
                && cv.kind != ToolKind::Code
                // Not a contact the text asks the reader to use, nor what is nobody's
                // personal data (a business line, a public place, a machine's address).
                && !matches!(
                    d.rule,
                    Rule::ContactRequested
                        | Rule::FieldCarriesThisData
                        | Rule::BusinessContact
                        | Rule::PublicPlace
                        | Rule::PublishedCoordinates
                        | Rule::MachineAddress
                        | Rule::MeetingPoint
                        | Rule::SampleData
                );
            if web_topic || own_key {
                d = Decision::drop(Op::RemoveSpan, Rule::NotInRequest);
            } else if stored {
                d = Decision::drop(Op::RemoveSentence, Rule::NotInRequest);
            } else if left_out {
                d = Decision::drop(Op::RemoveSpan, Rule::NotMinimumNecessary);
            }
        }
        out.set(k, d);
    }
}

/// Decides `decision` for the pending items `inside` holds, by the item and its span (the
/// comments of a statement, its redundant conditions, a write's key), and takes them out of
/// `pending`.
fn decide_inside(
    pending: &mut Vec<usize>,
    items: &[PsdItem],
    out: &mut (impl Decided + ?Sized),
    decision: Decision,
    inside: impl Fn(&PsdItem, &Range<usize>) -> bool,
) {
    pending.retain(|&k| {
        let hit = items
            .get(k)
            .is_some_and(|it| it.span.as_ref().is_some_and(|s| inside(it, s)));
        if hit {
            out.set(k, decision);
        }
        !hit
    });
}

/// Whether the item's text is neither in the user's request nor begins as a word of it does,
/// when the request is at hand.
fn key_not_in_request(ctx: &CallContext<'_>, f: &FieldCtx<'_>, it: &PsdItem) -> bool {
    let Some(consent) = ctx.consent.filter(|_| ctx.policy.honour_task_context) else {
        return false;
    };
    field_span_text(f, it).is_some_and(|t| !consent.shares_stem(t) && !consent.allows_value(t))
        && !consented(ctx, it)
}

/// Whether the search `text` holds, outside the personal data found in it, a word that
/// begins as a word of the user's request does ("settlement" of "Find the email about the
/// settlement offer"): the search finds what the user asked for without the keys the request
/// does not give.
fn found_by_request(ctx: &CallContext<'_>, text: &str, items: &[PsdItem], group: &[usize]) -> bool {
    let Some(consent) = ctx.consent else {
        return false;
    };
    let mut spans: Vec<Range<usize>> = group
        .iter()
        .filter_map(|&k| items.get(k).and_then(|it| it.span.clone()))
        .collect();
    spans.sort_unstable_by_key(|s| s.start);
    let mut at = 0usize;
    for s in spans
        .iter()
        .chain(std::iter::once(&(text.len()..text.len())))
    {
        if s.start > at
            && text
                .get(at..s.start)
                .is_some_and(|gap| consent.shares_stem(gap))
        {
            return true;
        }
        at = at.max(s.end);
    }
    false
}

/// Whether a special-category term a search of the web keeps as its topic is one the user's
/// request does not name, when the request is at hand: no word of it begins as a word of the
/// request does ("lymphedema" in a search for "an arm compression sleeve"). The term came from
/// elsewhere (the user's history, a profile); the search the user asked for does not need it.
fn topic_not_in_request(
    ctx: &CallContext<'_>,
    cv: &CallView<'_>,
    f: &FieldCtx<'_>,
    it: &PsdItem,
) -> bool {
    // A role ("Hausarzt", "oncologist") is how one names whom one looks for, in any language.
    // A request that names the kind ("the side effects of my blood pressure pills") leaves
    // the term the search puts for it.
    is_special(it)
        && it.kind != PsdKind::ImpliedByRole
        && !matches!(cv.kind, ToolKind::SearchOwn | ToolKind::Database)
        && key_not_in_request(ctx, f, it)
        && !ctx.consent.is_some_and(|c| c.names_kind(it.kind))
}

/// Where [`decide_items`] puts the decision of item `k`: the call's decisions, or the list
/// of one window's decisions made apart from the others.
trait Decided {
    fn set(&mut self, k: usize, d: Decision);
}

impl Decided for [Decision] {
    fn set(&mut self, k: usize, d: Decision) {
        if let Some(slot) = self.get_mut(k) {
            *slot = d;
        }
    }
}

impl Decided for Vec<(usize, Decision)> {
    fn set(&mut self, k: usize, d: Decision) {
        self.push((k, d));
    }
}

fn generalize_or_remove(item: &PsdItem) -> Op {
    match item.kind {
        PsdKind::Coordinates | PsdKind::DateOfBirth | PsdKind::Age => Op::Generalize,
        _ => Op::RemoveSpan,
    }
}

/// The length a `truncate` directive without `max_chars` keeps, in characters.
const DEFAULT_TRUNCATE: usize = 200;

/// The passes that decide without reading the text: policy, annotations, consent, the schema,
/// locations, URLs and structured values. `None` leaves the item to the free-text rules.
fn gate(
    ctx: &CallContext<'_>,
    cv: &CallView<'_>,
    f: &FieldCtx<'_>,
    item: &PsdItem,
) -> Option<Decision> {
    let info = f.info;
    let directive = info.and_then(|i| i.minimize.as_ref());
    let whole = covers_value(f.text, item);
    if ctx.policy.strict {
        let op = if !whole || f.role.is_free_text() {
            generalize_or_remove(item)
        } else if info.is_some_and(|i| !i.required) {
            Op::RemoveField
        } else {
            generalize_or_remove(item)
        };
        return Some(Decision::drop(op, Rule::PolicyStrict));
    }
    if matches!(directive, Some(MinimizeDirective::Keep)) {
        return Some(Decision::keep(Rule::DirectiveKeep));
    }
    if ctx.policy.honour_task_context && consented(ctx, item) {
        return Some(Decision::keep(Rule::ConsentTaskContext));
    }
    match directive {
        Some(MinimizeDirective::Remove) => {
            return Some(Decision::drop(Op::RemoveField, Rule::DirectiveRemove));
        }
        // A length the tool's author sets is all the tool reads of the field: what starts
        // past it goes with the cut. Within it, the field's text is decided as any other
        // (a diagnosis told by the way in the first lines still goes).
        Some(MinimizeDirective::Truncate(_)) => {
            if let Some((at, n)) = f.truncate_at
                && (f.text.is_none() || item.span.as_ref().is_none_or(|s| s.start >= at))
            {
                return Some(Decision::drop(Op::Truncate(n), Rule::DirectiveTruncate));
            }
        }
        // A generalize or substitute directive says how what the field need not carry goes
        // (`directed`, after the field is decided), not that all of it goes.
        _ => {}
    }
    // A real value in a sample file the call writes: a placeholder of its kind keeps the
    // file's shape (the path itself is the file's name, not its contents).
    if cv.sample_file && !f.key.is_some_and(sample::is_path_key) {
        // In a file of keys and values, a word of a key names a kind of value: it is none.
        let in_key = f.document.as_ref().is_some_and(|doc| {
            item.span
                .as_ref()
                .is_some_and(|s| doc.cell_at(s.start).is_none())
        });
        // A file of placeholder people holds made-up data throughout: it stays as written.
        return Some(if in_key || f.placeholder_sample {
            Decision::keep(Rule::SampleData)
        } else {
            Decision::drop(Op::Substitute, Rule::SampleData)
        });
    }
    // In code talk, a fixture of placeholder people quoted in a fenced block is made-up data
    // throughout: its phone and its address stay as the fixture has them.
    if item
        .span
        .as_ref()
        .is_some_and(|s| f.placeholder_blocks.iter().any(|b| b.contains(&s.start)))
    {
        return Some(Decision::keep(Rule::SampleData));
    }
    // In code talk, a value quoted alone as code (`F32.1`, `E11.65`) is an example of a
    // format, not someone's record (a quoted row of several values still is).
    if cv.kind == ToolKind::Code
        && is_special(item)
        && f.text.zip(item.span.as_ref()).is_some_and(|(t, s)| {
            s.start > 0
                && t.as_bytes().get(s.start - 1) == Some(&b'`')
                && t.as_bytes().get(s.end) == Some(&b'`')
        })
    {
        return Some(Decision::keep(Rule::SampleData));
    }
    // The text a translator renders is what the user asked for in another language: the
    // rendering needs all of it, as written (what goes from it is missing from the
    // translation too). Its other fields (a `context` to guide it) are read as any other.
    if cv.translates && translation_payload(f) {
        return Some(Decision::keep(Rule::PurposeArgument));
    }
    let declared = info.and_then(|i| i.psd_category) == Some(item.category);
    let carries = f.role.carries(item.kind)
        || key_carries(f.schema_key, item.kind)
        || f.schema_key.is_some_and(names_no_kind)
            && key_carries(crate::schema::parent_key(f.path), item.kind);
    // An address-shaped id the tool needs names what it acts on (`chatId`
    // "19:…@thread.spaces", `calendarId` "ana@…"): it is the tool's handle, not a contact told.
    if (whole
        || f.text
            .is_some_and(|t| !t.trim().contains(char::is_whitespace) && !t.contains("://")))
        && f.needed
        && matches!(item.kind, PsdKind::Email | PsdKind::Username)
        && !f.role.is_free_text()
        && f.key.is_some_and(|k| any_identifier_word(k, |w| w == "id"))
    {
        return Some(Decision::keep(Rule::RequiredField));
    }

    // The party a payment goes to, in the field named for it (`creditorName`, `payee_name`,
    // `creditor.name`, `merchant`): what it holds names whom the money is for, a nursery's, a
    // clinic's or a person's name — what the transfer is made out to, not a remark.
    if f.text.is_some_and(|t| t.len() <= PAYEE_VALUE)
        && f.key.is_some_and(|k| {
            names_payee(k) && (is_payee_word(k) || any_identifier_word(k, |w| w == "name"))
                || k.eq_ignore_ascii_case("name")
                    && crate::schema::parent_key(f.path).is_some_and(names_payee)
        })
    {
        return Some(Decision::keep(Rule::FieldCarriesThisData));
    }

    // Numeric coordinates and location fields: the precision the purpose needs.
    if item.kind == PsdKind::Coordinates && item.span.is_none() {
        return Some(location::coordinates(cv, f, item));
    }
    if f.role == FieldRole::Location {
        // A mailbox, a number or a name in a field whose key also names a route's end (`from`,
        // `to`) is whom a message comes from or goes to, not a place: in a message, whatever
        // else the field holds ("Ana Ruiz <ana@…>"); in another tool, a mailbox or a number
        // that is a needed field's whole value (an SMS's sender).
        let sender = match item.kind {
            PsdKind::Email | PsdKind::Phone => {
                cv.kind.is_message() || f.needed && covers_value(f.text, item)
            }
            PsdKind::PersonName | PsdKind::Username => cv.kind.is_message(),
            _ => false,
        };
        if sender {
            return Some(Decision::keep(if f.needed {
                Rule::RequiredField
            } else {
                Rule::FieldCarriesThisData
            }));
        }
        // An optional address of whom the call asks to keep anonymous (see below).
        if cv.anonymous && !f.needed {
            return Some(Decision::drop(Op::RemoveField, Rule::ProfileNotNeeded));
        }
        return Some(location::field(cv, f, item));
    }
    if f.role == FieldRole::Url {
        return Some(url::decide(cv, f, item));
    }

    // A member the schema does not ask for is not the tool's to have, whatever it holds.
    if !f.needed && info.is_some_and(|i| i.undeclared) {
        return Some(Decision::drop(Op::RemoveField, Rule::NotDeclared));
    }
    if !f.needed {
        // The value that opens a short value field is decided as the field's value would be
        // alone: what follows it does not make an optional field needed.
        let whole = whole
            || f.role == FieldRole::Value
                && f.text
                    .is_some_and(|t| t.len() <= SHORT_VALUE && heads_value(t, item));
        let contact = matches!(
            item.kind,
            PsdKind::Email | PsdKind::Phone | PsdKind::PersonName | PsdKind::Username
        );
        // Not in telemetry: an event, an error report or a log line is filled to count and
        // debug, and reaches no one; a field named for a person's data does not make it needed.
        let carries = carries && cv.kind != ToolKind::Telemetry
            // A street filled as the whole value of an object the parcel goes to
            // (`shipping_address.address1`, `delivery.street`): where it is delivered.
            || item.kind == PsdKind::StreetAddress
                && whole
                && location::names_postal_address(f);
        // An optional identifier field (an SSN, a passport number, a date of birth) is not
        // needed unless the schema says so; an optional contact field is filled to reach
        // someone.
        let identifier = matches!(
            item.kind,
            PsdKind::Ssn
                | PsdKind::Passport
                | PsdKind::NationalId
                | PsdKind::TaxId
                | PsdKind::DriverLicence
                | PsdKind::MedicalRecord
                | PsdKind::CardNumber
                | PsdKind::Iban
                | PsdKind::BankAccount
                | PsdKind::Credential
                | PsdKind::DateOfBirth
        );
        // A form's own field named for an identifier ("dni", "geburtsdatum" among the fields a
        // form submission fills) is what the form asks for.
        let form_asks = identifier && cv.fills_form;
        // A field for a bank account is where money goes: filled, it is how the tool pays
        // (a claim's payout, a refund, a transfer's creditor).
        // So is a card filled in a field for it: the card the booking or the order is
        // charged to.
        let pays_to = matches!(
            item.kind,
            PsdKind::Iban | PsdKind::BankAccount | PsdKind::CardNumber
        );
        // A secret filled in its own field of a tool that keeps secrets is what it stores.
        let stores_secret = item.kind == PsdKind::Credential && cv.keeps_secrets;
        // An optional family status, age, gender or birth date a CV is given: employers
        // are not to sort by them.
        if cv.writes_cv
            && matches!(
                item.kind,
                PsdKind::Family | PsdKind::Age | PsdKind::Gender | PsdKind::DateOfBirth
            )
        {
            return Some(Decision::drop(Op::RemoveField, Rule::ProfileNotNeeded));
        }
        // An optional name, address or phone of whom the call itself asks to keep anonymous
        // (`"anonymous": true`): filled, it is what the flag withholds (the e-mail a receipt
        // goes to stays).
        if cv.anonymous
            && matches!(
                item.kind,
                PsdKind::PersonName | PsdKind::StreetAddress | PsdKind::Postcode | PsdKind::Phone
            )
        {
            return Some(Decision::drop(Op::RemoveField, Rule::ProfileNotNeeded));
        }
        // A name that is the whole title of an entry written to the user's notes, files or
        // records (a database page's `Name` title, a contact card's title) is what the entry
        // is filed under.
        if item.kind == PsdKind::PersonName
            && whole
            && matches!(
                cv.kind,
                ToolKind::Files | ToolKind::Crm | ToolKind::Database
            )
            && f.path
                .split('/')
                .any(|step| step.eq_ignore_ascii_case("title"))
        {
            return Some(Decision::keep(Rule::FieldCarriesThisData));
        }
        // A sex picked from the values the schema offers, in the record of a traveller, a
        // patient or a guest, is how the service registers that person (an airline's passenger
        // data, a clinic's patient record, a hotel's register of guests).
        if item.kind == PsdKind::Gender
            && whole
            && info.is_some_and(|i| i.enum_values.is_some())
            && registers_person(f.path)
        {
            return Some(Decision::keep(Rule::FieldCarriesThisData));
        }
        if (carries
            && (contact
                || whole
                    && (!identifier
                        || form_asks
                        || pays_to
                        || stores_secret
                        || purpose_needs(cv.kind, item.kind))))
            || declared && !in_free_text(f, whole)
            || (whole && holds_requirements(f.schema_key))
            // A field named for what is looked for (a product, a specialty, a cuisine) carries
            // the value that heads it, whatever its category.
            || (whole && f.role == FieldRole::Value && f.key.is_some_and(field::names_value))
        {
            return Some(Decision::keep(Rule::FieldCarriesThisData));
        }
        // A tool that looks something up finds it by the reference it is given: a docket, a
        // case or an order number filled in its own field is the key, not a remark.
        if whole && !f.role.is_free_text() && cv.retrieves() && f.key.is_some_and(names_reference) {
            return Some(Decision::keep(Rule::OwnDataSearchKey));
        }
        // A number in a short field named for a case, a report or an order is that reference
        // (a police report's number on a claim), whatever shape of id it happens to have.
        if f.text.is_some_and(|t| t.len() <= SHORT_VALUE)
            && !f.role.is_free_text()
            && matches!(
                item.kind,
                PsdKind::NationalId | PsdKind::TaxId | PsdKind::AccountId | PsdKind::MedicalRecord
            )
            && f.key.is_some_and(|k| {
                names_reference(k)
                    || any_identifier_word(k, |w| matches!(w, "report" | "incident" | "invoice"))
            })
        {
            return Some(Decision::keep(Rule::FieldCarriesThisData));
        }
        // What a search of the user's own data looks for is its term, optional or not: the
        // search's rules decide it ("Albert Heijn" in a transactions search). So is a person
        // a search's text names ("biography of Golda Meir" in a catalogue's free-text
        // field): who is searched for; the personal data told beside it in an optional note
        // still goes with the note. So is a condition or a medicine a health reference's
        // question names ("interactions of ibuprofen with ACE inhibitors in hypertension"):
        // the query's rules tell the topic from the asker's own story.
        if f.query
            && f.reading.is_some()
            && (cv.kind == ToolKind::SearchOwn
                || cv.kind == ToolKind::Search && item.kind == PsdKind::PersonName
                || cv.kind == ToolKind::HealthInfo
                    && item.category == crate::taxonomy::Category::Health)
            && (f.role == FieldRole::Query || f.key.is_some_and(names_search_term))
        {
            return None;
        }
        // A search of care that filters by the illness treated (`enfermedad`, `conditions`,
        // `visit_reason`) finds its providers by the illness that opens its field: what a
        // remark after it adds ("- on a new inhaler since May", "(seen twice before)") still goes.
        if item.kind == PsdKind::Condition
            && cv.retrieves()
            && f.key.is_some_and(names_condition)
            && f.text.is_some_and(|t| opens_value(t, item))
        {
            return Some(Decision::keep(Rule::FieldCarriesThisData));
        }
        let free_text = f.reading.is_some() && !whole;
        // A text the tool's author asks to cut to a length is one the tool reads.
        let truncated = matches!(directive, Some(MinimizeDirective::Truncate(_)));
        if free_text && (truncated || text_is_content(cv.kind) && !cv.retrieves()) {
            // Spans, not fields: the text rules decide, item by item.
            return None;
        }
        let rule = if info.and_then(|i| i.declared_necessary).is_some() {
            Rule::NotMinimumNecessary
        } else {
            Rule::OptionalField
        };
        // A tool that only finds things reads its optional note for criteria: of a note of
        // several sentences, the one that tells what it need not know goes, the others stay
        // ("Must allow a small dog."). A note to a tool that acts (a form, a booking, a
        // triage) goes whole: its other sentences tell the same story.
        let several_sentences = free_text
            && cv.retrieves()
            && f.reading.as_ref().is_some_and(|r| {
                r.clauses.first().map(|c| c.clause.sentence)
                    != r.clauses.last().map(|c| c.clause.sentence)
            });
        // Of a one-sentence note of several clauses, the clause goes ("Quiet room please,
        // close to … - I have my … there on 14 May" keeps "Quiet room please").
        // Not when the schema names what the tool needs at minimum: the note is not among it.
        let several_clauses = free_text
            && cv.retrieves()
            && rule == Rule::OptionalField
            && f.reading.as_ref().is_some_and(|r| r.clauses.len() > 1);
        let op = if info.is_some_and(|i| i.required) {
            Op::RemoveSpan
        } else if several_sentences {
            Op::RemoveSentence
        } else if several_clauses {
            Op::RemoveClause
        } else {
            Op::RemoveField
        };
        return Some(Decision::drop(op, rule));
    }
    // A field declared for this kind of data carries it — at the precision the purpose
    // needs: a street in a local search's query still becomes its city.
    let coarse_enough = !matches!(item.kind, PsdKind::StreetAddress | PsdKind::Coordinates)
        || location::precision(cv.kind) == location::Precision::Exact;
    if declared && !is_special(item) && coarse_enough && !in_free_text(f, whole) {
        return Some(Decision::keep(Rule::FieldCarriesThisData));
    }
    // A needed field named for a condition or a medicine carries it, whatever its
    // description adds ("the condition for which the accommodation is requested"): the
    // disability claim's `conditions`, the accommodation request's `medical_condition`
    // ("Crohn's disease, flares unpredictably") — what the tool asks for, not an aside in a
    // story. So does a needed field declared for it that is not a message. (A field for a
    // value picked from a set, a specialty, still loses the story told after its value.)
    let named_for =
        || key_names_health(f.schema_key, item.kind) || key_names_health(f.key, item.kind);
    // A remark in brackets or after a dash about the person ("(patient, 34, HLA-B27
    // positive)") is still a remark; a bracket that only names the condition again ("(SLA)")
    // is not.
    let remark = || {
        f.text.is_some_and(|t| {
            structured::in_parentheses(t, item) && !structured::bracket_holds_only(t, item)
                || structured::in_personal_appendix(t, item)
        })
    };
    if matches!(item.kind, PsdKind::Condition | PsdKind::Medication)
        && !whole
        && !matches!(f.role, FieldRole::Value)
        && (declared && !f.role.is_free_text() || named_for())
        && !remark()
    {
        return Some(Decision::keep(Rule::FieldCarriesThisData));
    }
    if f.reading.is_none() || (whole && !f.role.is_free_text()) || short_value(f) {
        return Some(structured::decide(cv, f, item));
    }
    None
}

/// Whether a key names the term a search of one's own data looks for ("text", "payee",
/// "merchant"), not a note beside it.
fn names_search_term(key: &str) -> bool {
    any_identifier_word(key, |w| {
        matches!(
            w,
            "text"
                | "search"
                | "term"
                | "terms"
                | "keyword"
                | "keywords"
                | "filter"
                | "contains"
                | "payee"
                | "merchant"
                | "counterparty"
        )
    })
}

/// Whether a key names a reference something is filed under ("docket_number", "caseId",
/// "order_ref", "booking_code").
fn names_reference(key: &str) -> bool {
    any_identifier_word(key, |w| {
        CASE_KEYS.contains(&w) || matches!(w, "docket" | "reference" | "ref" | "matter")
    })
}

/// Whether a field's key says only that it holds a number or a code, not of what
/// (`number`, `value`, `id`): what it holds is told by the object it is in
/// (`document.number`, `passport.no`).
fn names_no_kind(key: &str) -> bool {
    ["number", "num", "no", "nr", "value", "id", "code"]
        .iter()
        .any(|k| key.eq_ignore_ascii_case(k))
}

/// Whether an item that is not its field's whole value (`whole`) lies in a free text the text
/// rules read: there a schema's declaration says what the text may hold, not that the tool
/// needs each such item ("spans, not fields").
fn in_free_text(f: &FieldCtx<'_>, whole: bool) -> bool {
    f.reading.is_some() && !whole && f.role.is_free_text()
}

/// Whether a tool of this kind needs identifiers of `kind` to do its job: a care provider's
/// booking the date of birth, a travel booking the passport, a payment the card.
fn purpose_needs(tool: ToolKind, kind: PsdKind) -> bool {
    let recipient = match tool {
        ToolKind::HealthCare => "clinic",
        ToolKind::Travel => "travel",
        ToolKind::Payment => "bank",
        _ => return false,
    };
    recipient::Recipients::kind_needs(recipient, kind)
}

fn depth_one(path: &str) -> bool {
    path.matches('/').count() == 1
}

/// Whether `it` is the value that opens a short value field's `text` ("Dermatology" of
/// "Dermatology - in-network with …", a name before its phone number): a separator or the
/// end follows it.
fn heads_value(text: &str, it: &PsdItem) -> bool {
    let lead = text.len() - text.trim_start().len();
    it.span.as_ref().is_some_and(|sp| {
        sp.start == lead
            && text.get(sp.end..).is_some_and(|rest| {
                // A strength or a count may follow the name ("Subutex 8 mg (…)", "Insulin
                // pens x3 - …").
                let mut rest = rest.trim_start();
                while let Some((word, after)) = rest.split_once(' ')
                    && is_measure(word)
                {
                    rest = after.trim_start();
                }
                rest.is_empty()
                    || is_measure(rest)
                    || rest.starts_with(['-', '–', '(', ',', ':', ';'])
            })
    })
}

/// Where the head of a value ends: at the first of `separators` in it, or at its end.
fn head_end(text: &str, separators: &[&str]) -> usize {
    separators
        .iter()
        .filter_map(|sep| text.find(sep))
        .min()
        .unwrap_or(text.len())
}

/// A number or a short unit of measure ("8", "0.5", "mg", "ml", "x3", "20mg").
fn is_measure(word: &str) -> bool {
    !word.is_empty()
        && (word.bytes().any(|b| b.is_ascii_digit())
            && word
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b','))
            || ["mg", "mcg", "µg", "g", "ml", "l", "iu", "ui", "x", "%"]
                .iter()
                .any(|u| word.eq_ignore_ascii_case(u)))
}

/// A short value that is not prose (an item to order, a specialty): a few words, no sentence.
fn short_value(f: &FieldCtx<'_>) -> bool {
    f.short_value
}

/// A field the tool has for the user's requirements (dietary needs, accessibility,
/// preferences): a value that is all data of that kind is what the field is for.
pub(super) fn holds_requirements(key: Option<&str>) -> bool {
    const WORDS: &[&str] = &[
        "dietary",
        "diet",
        "requirements",
        "requirement",
        "preferences",
        "preference",
        "allergies",
        "allergy",
        "accessibility",
        "restrictions",
        "needs",
        "requests",
        "accommodations",
        "accommodation",
        "assistance",
        // A clinical form's fields: what brings the patient, their symptoms and history.
        "complaint",
        "symptoms",
        "symptom",
        "medications",
        "history",
    ];
    key.is_some_and(|k| any_identifier_word(k, |w| WORDS.contains(&w)))
}

/// Whether `text` names `item`'s words among the call's point words (its subject, title or
/// task): then the item is what the call is about.
fn named_in_point(cv: &CallView<'_>, item_text: &str) -> bool {
    if cv.point_words.is_empty() {
        return false;
    }
    words(item_text)
        .iter()
        .filter(|w| names_a_point(w))
        .any(|w| {
            // In a script written without spaces a subject's "word" is a run of text
            // ("陽翔のピーナッツアレルギーについて"): the item is named when the run holds it.
            let unspaced = w.folded.chars().all(vocab::is_unspaced_script);
            cv.point_words.iter().any(|p| {
                *p == w.folded
                    || (p.chars().count() >= 6
                        && w.folded.chars().count() >= 6
                        && common_prefix(p, &w.folded) >= 5)
                    || unspaced && w.folded.chars().count() >= 3 && p.contains(w.folded.as_ref())
            })
        })
}

/// Whether a word of a subject line, or of an item, can tell what a message is about: a word
/// of four letters or more, or an acronym of three ("TSH", "HIV", "IVF"). Shorter words, and
/// small words, would match any subject line.
fn names_a_point(w: &crate::text::words::Word<'_>) -> bool {
    let n = w.folded.chars().count();
    n >= 4
        || n == 3
            && w.raw
                .chars()
                .all(|c| c.is_uppercase() || c.is_ascii_digit())
            && w.raw.chars().any(char::is_alphabetic)
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

#[cfg(test)]
mod long_text_tests {
    use serde_json::json;

    use crate::{Action, Minimizer, ToolDef};

    fn tool() -> ToolDef {
        ToolDef::new(
            "send_email",
            "Send an email",
            json!({"type": "object",
                   "properties": {"to": {"type": "string"}, "body": {"type": "string"}},
                   "required": ["to", "body"]}),
        )
    }

    /// What minimizing `body` reports: the number of items, and each (rule, action) met.
    fn decided(m: &Minimizer, body: &str) -> (usize, Vec<(String, Action)>, String) {
        let out = m.minimize(&tool(), &json!({"to": "desk@example.com", "body": body}));
        let mut seen: Vec<(String, Action)> = out
            .report()
            .items()
            .iter()
            .map(|i| (i.rule().to_string(), i.action()))
            .collect();
        let n = seen.len();
        seen.sort_by(|a, b| a.0.cmp(&b.0));
        seen.dedup();
        let text = out
            .arguments()
            .and_then(|a| a["body"].as_str())
            .unwrap_or_default()
            .to_owned();
        (n, seen, text)
    }

    #[test]
    fn a_long_text_is_decided_to_its_end_as_its_parts_are() {
        let m = Minimizer::builder().time_budget(None).build().unwrap();
        let block = "The parcel ships tomorrow with the invoice and the garden window order. \
                     My neighbour Rebecca Stone can be reached on +1 415 555 0182 for the keys. ";
        let (short_n, short_seen, _) = decided(&m, &block.repeat(4));
        assert!(short_n > 0);
        // About 1.2 MB: five windows of the decision stage.
        let copies = 8_000;
        let (long_n, long_seen, text) = decided(&m, &block.repeat(copies));
        // Every copy's items are found (the classifier may find one more where two of its
        // windows meet) and decided as in the short text.
        assert!(long_n >= short_n / 4 * copies, "{long_n}");
        for s in &short_seen {
            assert!(long_seen.contains(s), "{s:?} missing from {long_seen:?}");
        }
        assert!(!text.contains("0182"), "a number went out undecided");
        assert!(text.len() > copies * 60);
    }
}

#[cfg(test)]
mod form_target_tests {
    use serde_json::json;

    use super::form_target;

    #[test]
    fn the_selector_names_the_field_a_value_is_typed_into() {
        let at = |selector: &str| {
            form_target(
                (&json!({"selector": selector, "value": "x"})).into(),
                "/value",
            )
        };
        assert_eq!(
            at(r#"textarea[name="chief_complaint"]"#).as_deref(),
            Some("chief_complaint")
        );
        assert_eq!(at("#patient-dob").as_deref(), Some("patient_dob"));
        assert_eq!(at("input[type=text]"), None);
        assert_eq!(
            form_target(
                (&json!({"element": "Allergies textbox", "text": "x"})).into(),
                "/text"
            )
            .as_deref(),
            Some("allergies")
        );
        // Only the typed value of a form-filling call.
        assert_eq!(
            form_target(
                (&json!({"selector": "#a", "value": "x"})).into(),
                "/selector"
            ),
            None
        );
        assert_eq!(form_target((&json!({"query": "x"})).into(), "/query"), None);
    }
}
