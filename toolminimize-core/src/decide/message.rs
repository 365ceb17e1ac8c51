//! Free text for a reader: messages, posts, tickets, comments, notes, task descriptions.
//!
//! A message keeps its point — what its subject or title names, what its recipient needs
//! to act on its request, a sick-leave notice, a place to meet — and loses special-category
//! data told by the way, by clause or, when the whole sentence only tells that, by sentence.
//! It keeps the people it is addressed to and about, its signature's name, the contact
//! details it asks the reader to use and the identifiers its recipient needs; a bystander
//! told about with their own story, a signature block's unasked-for contact details and
//! identifiers nobody needs go.

use std::ops::Range;

use super::reading::{ClauseInfo, Reading};
use super::vocab::{self, WordSet, vocab};
use super::{CallView, Decision, FieldCtx, Op, Rule, field_span_text, is_special, named_in_point};
use crate::decide::field::FieldRole;
use crate::decide::purpose::ToolKind;
use crate::item::{PsdItem, PsdKind};
use crate::text::fold::fold_term;
use crate::text::script::is_cjk;

/// Words that make a health item a notice of absence, not a diagnosis.
const SICK_LEAVE: &[&str] = &[
    "sick",
    "ill",
    "unwell",
    "krank",
    "krankgeschrieben",
    "krankmeldung",
    "arbeitsunfahig",
    "malade",
    "arret",
    "baja",
    "enfermo",
    "enferma",
    "malato",
    "malata",
    "doente",
    "ziek",
    "ziekmelding",
    "sjuk",
    "sjukskriven",
    "sjukintyg",
    "lakarintyg",
    "lakarintyget",
    "syg",
    "sygemeldt",
    "sykmeldt",
    "sykemelding",
    "sygemelding",
    "laegeerklaering",
    "legeerklaering",
    "doktersverklaring",
    "krankschein",
    "neschopenka",
    "chory",
    "chora",
    "zwolnienie",
    "nemocny",
    "nemocenska",
    "leave",
    "absence",
];

/// Words of meeting someone at a place.
const MEET: &[&str] = &[
    "meet",
    "meeting",
    "pick",
    "collect",
    "outside",
    "entrance",
    "lobby",
    "quedamos",
    "recojo",
    "recoger",
    "puerta",
    "entrada",
    "treffen",
    "treffpunkt",
    "abholen",
    "hole",
    "eingang",
    "retrouve",
    "retrouver",
    "devant",
    "entree",
    "vediamo",
    "incontriamo",
    "prendo",
    "davanti",
    "ingresso",
    "ophalen",
    "ontmoeten",
    "hamtar",
    "mots",
    "odbiore",
    "spotkajmy",
];

/// Phrases of sick leave whose words alone name an illness (French "maladie", Italian
/// "malattia": "maladie de Crohn" is a diagnosis, "congé maladie" a leave), folded.
const SICK_LEAVE_PHRASES: &[&str] = &[
    "conge maladie",
    "conges maladie",
    "en maladie",
    "in malattia",
    "congedo per malattia",
    "permesso per malattia",
    "certificato di malattia",
];

fn is_sick_leave(text: &str) -> bool {
    let f = fold_term(text);
    f.split(|c: char| !c.is_alphanumeric())
        .any(|w| SICK_LEAVE.contains(&w))
        // Every phrase holds "mala" (maladie, malattia): a text without it is not searched.
        || f.as_bytes().windows(4).any(|w| w == b"mala")
            && SICK_LEAVE_PHRASES.iter().any(|p| {
            f.match_indices(p).any(|(i, _)| {
                let before = f.get(..i).and_then(|h| h.chars().next_back());
                let after = f.get(i + p.len()..).and_then(|t| t.chars().next());
                !before.is_some_and(char::is_alphanumeric)
                    && !after.is_some_and(char::is_alphanumeric)
            })
        })
}

struct MsgView<'a, 'r> {
    r: &'r Reading<'a>,
    /// Per clause: it carries a fact besides PSD (a number, a day or time word).
    facts: Vec<bool>,
    /// Per clause: a kept span lies in it.
    kept: Vec<bool>,
    /// Per clause: some PSD touches it.
    holds_psd: Vec<bool>,
    /// Per sentence: how many clauses carry something (facts, a request, a kept span, the
    /// greeting) — and how many carry a request, a kept span or the greeting.
    carrying: Vec<(u32, u32)>,
    /// Per sentence: it lost special-category data.
    context_sentence: Vec<bool>,
    /// Per clause: cut whole.
    cut: Vec<bool>,
    /// Per clause: it names a need ([`ClauseInfo::needs`]) but also tells special-category
    /// data that is neither what is needed nor its reason ("Noah has autism and needs the
    /// quiet room"): it tells about the person, it does not only ask.
    stated: Vec<bool>,
    /// The field is optional: its asides go by sentence, facts and all.
    optional: bool,
    /// A request of the message is about health: its reader provides care.
    care: bool,
    /// The text presents the writer to its reader (a cover letter, a bio, a profile).
    presents: bool,
    /// The reader serves the writer in person (a driver, a courier, a host): a clause that
    /// names what they provide for ("I'm in a wheelchair", "the walker folds") is what the
    /// note is for, asked or not.
    serves: bool,
    /// Spans of dropped roles that imply special-category data, in text order.
    dropped_roles: Vec<Range<usize>>,
    /// Spans of dropped health data, in text order.
    dropped_health: Vec<Range<usize>>,
    /// Spans of all dropped special-category data, in text order.
    dropped_special: Vec<Range<usize>>,
    /// Per sentence: it speaks of paying ("wire", "rent", "bank details"); read only when
    /// the text holds an account.
    pay: Vec<bool>,
    /// A sentence that asks the reader to act speaks of paying.
    pay_asked: bool,
    /// In a payment's reference, where its head ends (see [`reference_head`]; the text's end
    /// when nothing separates a head): what follows is cut segment by segment, and the head
    /// stays but for the words that go.
    reference_head: Option<usize>,
    /// The field's key names an organisation (a company, a hotel): its first sentence opens
    /// with that name and never goes whole.
    organisation_key: bool,
    /// A national or tax identifier stands before the signature: the person the message is
    /// about is identified there.
    id_before_signature: bool,
    /// A person is named in the text (a number in a public post may be theirs to call).
    names_person: bool,
    /// Where people are named, in text order.
    person_names: Vec<Range<usize>>,
    /// The words of the account handles in the text (`ana_ruiz_2210` → `ana`, `ruiz`), folded.
    handles: Vec<Vec<String>>,
}

impl<'a, 'r> MsgView<'a, 'r> {
    fn new(r: &'r Reading<'a>, psd: &[Range<usize>], optional: bool) -> Self {
        // Which words lie inside PSD: one pass over words and spans, both in text order.
        let mut sorted: Vec<&Range<usize>> = psd.iter().collect();
        sorted.sort_by_key(|p| p.start);
        // And which words some PSD overlaps: a span that started before the word reaches into
        // it, or the next span starts inside it.
        let mut in_psd = vec![false; r.words.len()];
        let mut touched = vec![false; r.words.len()];
        let mut pi = 0usize;
        let mut reach = 0usize;
        for (wi, w) in r.words.iter().enumerate() {
            while sorted.get(pi).is_some_and(|p| p.start <= w.range.start) {
                reach = reach.max(sorted.get(pi).map_or(0, |p| p.end));
                pi += 1;
            }
            if let Some(slot) = in_psd.get_mut(wi) {
                *slot = w.range.end <= reach;
            }
            if let Some(slot) = touched.get_mut(wi) {
                *slot =
                    reach > w.range.start || sorted.get(pi).is_some_and(|p| p.start < w.range.end);
            }
        }
        let v = vocab();
        let first_news = r.first_news_sentence();
        let facts = r
            .clauses
            .iter()
            .map(|c| {
                let ws = r.words.get(c.words.clone()).unwrap_or_default();
                let free = |i: usize| !in_psd.get(c.words.start + i).copied().unwrap_or(false);
                // The news a message opens with is its point, told with or without a number
                // ("I'll be working from home for the next weeks - …").
                // A run of unspaced script is one word of the reading: it is free only when no
                // PSD lies in it at all.
                let untouched = |i: usize| {
                    !touched.get(c.words.start + i).copied().unwrap_or(false)
                        || ws.get(i).is_none_or(|w| word_weight(w.raw) == 1)
                };
                let opening_news = Some(c.clause.sentence) == first_news
                    && !c.reason
                    && !c.clause.parenthetical
                    && ws.iter().map(|w| word_weight(w.raw)).sum::<usize>() >= 3
                    && (0..ws.len()).all(|i| free(i) && untouched(i));
                opening_news
                    || ws.iter().enumerate().any(|(i, w)| {
                        free(i)
                            && (w.raw.chars().any(|ch| ch.is_ascii_digit())
                                || v.set(WordSet::Time).match_in(r.lang, ws, i).is_some())
                    })
            })
            .collect();
        let holds_psd = r
            .clauses
            .iter()
            .map(|c| {
                touched
                    .get(c.words.clone())
                    .unwrap_or_default()
                    .contains(&true)
            })
            .collect();
        let sentences = r.clauses.last().map_or(0, |c| c.clause.sentence + 1);
        MsgView {
            r,
            facts,
            kept: vec![false; r.clauses.len()],
            holds_psd,
            carrying: Vec::new(),
            context_sentence: vec![false; sentences],
            cut: vec![false; r.clauses.len()],
            stated: vec![false; r.clauses.len()],
            optional,
            care: false,
            serves: false,
            presents: false,
            dropped_roles: Vec::new(),
            dropped_health: Vec::new(),
            dropped_special: Vec::new(),
            pay: Vec::new(),
            pay_asked: false,
            reference_head: None,
            organisation_key: false,
            id_before_signature: false,
            names_person: false,
            person_names: Vec::new(),
            handles: Vec::new(),
        }
    }

    /// Whether the sentence holding `at`, or a sentence that asks the reader to act, speaks
    /// of paying ("Please wire the deposit. IBAN: …").
    fn pays(&self, at: usize) -> bool {
        let here = self.r.clause_at(at).map(|c| c.clause.sentence);
        self.pay_asked || here.is_some_and(|n| self.pay.get(n).copied().unwrap_or(false))
    }

    /// Whether the clause at `ci` asks the reader to act: a request, a need that tells
    /// nothing besides ("Wheelchair assistance needed at the gate"), a fault of the reader's
    /// service reported ("Voice login fails since …": what a support message is for), or, to
    /// a reader who serves the writer in person, what they provide for ("Jsem na vozíku",
    /// "the walker folds").
    fn asks(&self, ci: usize) -> bool {
        self.r.clauses.get(ci).is_some_and(|c| {
            // A request to keep something from someone ("please don't mention my boyfriend
            // at the wedding") asks nothing of the tool's task: told beside what it hides, it
            // goes with it.
            c.request && !self.clause_names(ci, WordSet::Secrecy)
                || c.needs && !self.stated.get(ci).copied().unwrap_or(false)
                || !c.reason && !c.third_person && self.clause_names(ci, WordSet::Fault)
                || self.serves && !c.reason && self.names_accommodation(ci)
        })
    }

    /// Marks the clauses that name a need and tell special-category data beside it (see
    /// [`MsgView::stated`]): an item at `spans` that is neither what is needed nor told as
    /// the need's reason.
    fn mark_stated(&mut self, spans: &[Range<usize>]) {
        for s in spans {
            let Some(ci) = self.r.clause_index(s.start) else {
                continue;
            };
            if self
                .r
                .clauses
                .get(ci)
                .is_some_and(|c| c.needs && !c.request && !c.clause.parenthetical)
                && !part_of_need(self.r, s)
                && let Some(slot) = self.stated.get_mut(ci)
            {
                *slot = true;
            }
        }
    }

    /// Marks the clauses `span` lies in as holding a kept span.
    fn keep_span(&mut self, span: &Range<usize>) {
        let (Some(a), Some(b)) = (
            self.r.clause_index(span.start),
            self.r
                .clause_index(span.end.saturating_sub(1).max(span.start)),
        ) else {
            return;
        };
        for slot in self.kept.get_mut(a..=b.max(a)).into_iter().flatten() {
            *slot = true;
        }
    }

    /// Counts, per sentence, the clauses that carry something (after the kept spans are
    /// known).
    fn count_carrying(&mut self) {
        let sentences = self.context_sentence.len();
        let mut counts = vec![(0u32, 0u32); sentences];
        for (ci, c) in self.r.clauses.iter().enumerate() {
            let greeting = self.r.is_greeting(c.clause.range.start);
            let loose = self.asks(ci) || self.kept_in(ci) || greeting || self.tells_when(ci);
            let strict = loose || self.clause_carries(ci);
            if let Some(slot) = counts.get_mut(c.clause.sentence) {
                slot.0 += u32::from(strict);
                slot.1 += u32::from(loose);
            }
        }
        self.carrying = counts;
    }

    /// Whether the clause at `ci` says when the writer can or cannot come ("I can't come in
    /// the morning", "Sabah gelemem"): what a note to whoever schedules is for, though it
    /// asks nothing.
    fn tells_when(&self, ci: usize) -> bool {
        self.clause_names(ci, WordSet::Availability)
    }

    /// Whether the clause at `ci` names what a provider arranges for the writer
    /// ([`WordSet::Accommodation`]: a wheelchair, step-free access, a guide dog).
    fn names_accommodation(&self, ci: usize) -> bool {
        self.clause_names(ci, WordSet::Accommodation)
    }

    /// Whether a term of `set`, in the text's languages, occurs in the clause at `ci`.
    fn clause_names(&self, ci: usize, set: WordSet) -> bool {
        let Some(c) = self.r.clauses.get(ci) else {
            return false;
        };
        let raw = self.r.text.get(c.clause.range.clone()).unwrap_or_default();
        // Only a clause of an unspaced script can hold a term none of its words opens.
        if !c.may_match(set) && !super::vocab::may_hold_unspaced(raw) {
            return false;
        }
        let cw = self.r.words.get(c.words.clone()).unwrap_or_default();
        vocab().set(set).any_in_langs(self.r.lang, cw, raw)
    }

    /// Whether the clause at `ci` carries a fact besides PSD: a number, a day, a request.
    fn clause_carries(&self, ci: usize) -> bool {
        let Some(c) = self.r.clauses.get(ci) else {
            return false;
        };
        self.asks(ci)
            || c.contact_ask
            || self.kept_in(ci)
            || self.facts.get(ci).copied().unwrap_or(false)
            // In a text that presents the writer (a cover letter, a bio), a statement that
            // holds no personal data is what the text is for ("Vorbesc fluent maghiara").
            || self.presents && !c.reason && !self.holds_psd.get(ci).copied().unwrap_or(true)
    }

    /// How many clauses right after the clause at `ci`, in its sentence, are reasons that
    /// carry a fact and nothing else (no request, contact or PSD): they explain that clause.
    fn reasons_after(&self, ci: usize) -> u32 {
        let Some(sentence) = self.r.clauses.get(ci).map(|c| c.clause.sentence) else {
            return 0;
        };
        let mut n = 0;
        for (k, c) in self.r.clauses.iter().enumerate().skip(ci + 1) {
            if c.clause.sentence != sentence
                || !c.reason
                || c.request
                || c.contact_ask
                || self.kept_in(k)
                || self.holds_psd.get(k).copied().unwrap_or(true)
            {
                break;
            }
            n += u32::from(self.clause_carries(k));
        }
        n
    }

    /// Whether dropped special-category data lies in `range`.
    fn special_in(&self, range: &Range<usize>) -> bool {
        let d = &self.dropped_special;
        let k = d.partition_point(|x| x.start < range.start);
        d.get(k).is_some_and(|x| x.start < range.end)
    }

    /// Whether a kept span lies in the clause at `ci`.
    fn kept_in(&self, ci: usize) -> bool {
        self.kept.get(ci).copied().unwrap_or(false)
    }

    /// The rewrite for special-category data told by the way: the sentence when none of its
    /// clauses carries anything else, the clause when it carries nothing else, else the span.
    /// Whether `at` lies in a segment that a spaced dash opens inside sentence `sentence`.
    fn after_dash_in_sentence(&self, at: usize, sentence: usize) -> bool {
        let r = self.r;
        let Some(seg) = r
            .segment_index(at)
            .filter(|&i| i > 0)
            .and_then(|i| r.segments.get(i))
        else {
            return false;
        };
        // A segment a dash opens starts at its dash.
        let opened_by_dash = r
            .text
            .get(seg.start..)
            .is_some_and(|t| t.starts_with(['-', '–', '—']));
        let head = r.text.get(..seg.start).unwrap_or_default().trim_end();
        opened_by_dash
            && r.clause_at(head.len().saturating_sub(2))
                .is_some_and(|c| c.clause.sentence == sentence)
    }

    fn unit(&self, span: &Range<usize>, title: bool) -> Op {
        let Some(ci) = self.r.clause_index(span.start) else {
            return Op::RemoveSpan;
        };
        let Some(c) = self.r.clauses.get(ci) else {
            return Op::RemoveSpan;
        };
        if title || self.r.is_greeting(span.start) || self.kept_in(ci) {
            return Op::RemoveSpan;
        }
        // "Invoice 118 - therapy sessions - patient …": the part after the head's dash goes,
        // the invoice stays; a why told in a reference of one clause ("Dad's bail, Cook
        // County") goes alone, where cutting its clause would leave no reference.
        match self.reference_head {
            Some(h) if h < span.start => return Op::RemoveSegment,
            Some(h) if span.end <= h && self.r.clauses.len() <= 1 => return Op::RemoveSpan,
            _ => {}
        }
        // In an optional note, an aside after a spaced dash within a sentence ("leave it at
        // no. 14 - I'm at dialysis on Tuesdays") goes with its segment; what the sentence said
        // before the dash stays, where otherwise the whole sentence, and the note, would go.
        if self.optional
            && !c.clause.parenthetical
            && self.after_dash_in_sentence(span.start, c.clause.sentence)
        {
            return Op::RemoveSegment;
        }
        // A parenthetical is an aside of its own: it goes alone.
        if c.clause.parenthetical {
            return Op::RemoveClause;
        }
        // A reason that closes with its particle or ending (Japanese "…のため", Korean
        // "…때문에") explains the clause right after it, which is the news: it goes alone,
        // even when the news clause names no day or number ("今日は化学療法のため | 休みます").
        if c.reason
            && self
                .r
                .clauses
                .get(ci + 1)
                .is_some_and(|n| n.clause.sentence == c.clause.sentence)
            && crate::text::clauses::ends_with_reason(
                self.r.text.get(c.clause.range.clone()).unwrap_or_default(),
            )
        {
            return Op::RemoveClause;
        }
        // A reason, or a clause about someone else, is told whole: its days and numbers are
        // part of the story ("she has her infusion on Monday since last month's scare").
        // A phrase of cause is not: the days after it are its clause's ("ich komme wegen
        // meiner Migräne morgen später").
        let carries = self.clause_carries(ci);
        // A clause about someone else that tells when they are away ("Lena is off until
        // Friday after …") is the news, not their story.
        let aside = c.reason && !(c.cause_phrase && carries)
            || c.third_person && !(carries && self.tells_when(ci))
            || c.relation;
        let asks = self.asks(ci);
        if !aside && (asks || !self.optional) && carries {
            return Op::RemoveSpan;
        }
        // The other clauses of the sentence carry nothing either: the sentence goes.
        let (strict, loose) = self
            .carrying
            .get(c.clause.sentence)
            .copied()
            .unwrap_or((0, 0));
        let own_loose = asks || self.kept_in(ci) || self.tells_when(ci);
        let others = if self.optional {
            loose - u32::from(own_loose)
        } else if c.reason {
            strict - u32::from(carries)
        } else {
            // The reasons that explain the clause go with it ("Il a un casier judiciaire |
            // pour un vol en 2015"): they do not hold the sentence.
            (strict - u32::from(carries)).saturating_sub(self.reasons_after(ci))
        };
        // The first sentence of a field named for an organisation opens with its name ("Sixt
        // (LAX) - renter …, licence suspended …"): a later clause of it goes alone (a
        // serialized record is no such value).
        let value_head = self.organisation_key
            && c.clause.sentence == 0
            && ci > 0
            && !self.r.text.trim_start().starts_with(['{', '[']);
        if others == 0 && !value_head {
            Op::RemoveSentence
        } else {
            Op::RemoveClause
        }
    }
}

/// How many words a word of the reading stands for: one, or, in a script written without
/// spaces (Chinese, Japanese), where the reader's "word" is a whole run of text, about two
/// for every three Han characters (a Chinese word is one or two characters: "请假一天",
/// taking a day off, is three words) and one for every two kana (which carry the endings of
/// Japanese words), rounded: `周四我去不了` says as much as "I can't on Thursday".
fn word_weight(raw: &str) -> usize {
    let (mut han, mut other) = (0usize, 0usize);
    for c in raw.chars().filter(|&c| super::vocab::is_unspaced_script(c)) {
        if crate::text::script::is_han(c) {
            han += 1;
        } else {
            other += 1;
        }
    }
    ((4 * han + 3 * other + 3) / 6).max(1)
}

pub(super) fn decide(
    cv: &CallView<'_>,
    f: &FieldCtx<'_>,
    r: &Reading<'_>,
    items: &[PsdItem],
    pending: &[usize],
) -> Vec<(usize, Decision)> {
    let psd: Vec<Range<usize>> = pending
        .iter()
        .filter_map(|&k| items.get(k).and_then(|it| it.span.clone()))
        .collect();
    let mut mv = MsgView::new(r, &psd, !f.needed);
    mv.presents = f.key.is_some_and(presents_writer);
    mv.organisation_key = f.value_key && f.key.is_some_and(names_organisation);
    if cv.kind == ToolKind::Payment && f.key.is_some_and(names_payment_reference) {
        mv.reference_head = Some(reference_head(r.text));
    }
    if pending.iter().any(|&k| {
        items
            .get(k)
            .is_some_and(|it| matches!(it.kind, PsdKind::Iban | PsdKind::BankAccount))
    }) {
        mv.pay = r.sentences_with(WordSet::PayMe);
        for (p, a) in mv.pay.iter_mut().zip(r.sentences_with(WordSet::PayAccount)) {
            *p |= a;
        }
        mv.pay_asked = mv
            .pay
            .iter()
            .enumerate()
            .any(|(n, &p)| p && r.is_request_sentence(n));
    }
    mv.names_person = pending.iter().any(|&k| {
        items
            .get(k)
            .is_some_and(|it| it.kind == PsdKind::PersonName)
    });
    mv.id_before_signature = pending.iter().any(|&k| {
        items.get(k).is_some_and(|it| {
            matches!(it.kind, PsdKind::NationalId | PsdKind::Ssn | PsdKind::TaxId)
                && it.span.as_ref().is_some_and(|sp| !r.in_signature(sp.start))
        })
    });
    mv.handles = pending
        .iter()
        .filter_map(|&k| items.get(k))
        .filter(|it| it.detector == HANDLE_DETECTOR || it.kind == PsdKind::Username)
        .filter_map(|it| field_span_text(f, it))
        .map(|h| {
            crate::text::fold::fold(h)
                .as_str()
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .collect();
    let title = f.role == FieldRole::Title;
    // Where people are named, in text order (read by a payment's reference).
    mv.person_names.clear();
    mv.person_names.extend(
        pending
            .iter()
            .filter_map(|&k| items.get(k))
            .filter(|it| it.kind == PsdKind::PersonName)
            .filter_map(|it| it.span.clone()),
    );
    mv.person_names.sort_by_key(|n| n.start);
    let special: Vec<Range<usize>> = pending
        .iter()
        .filter_map(|&k| items.get(k))
        .filter(|it| is_special(it))
        .filter_map(|it| it.span.clone())
        .collect();
    mv.mark_stated(&special);
    let mut out: Vec<(usize, Decision)> = Vec::with_capacity(pending.len());
    // Pass 1: what the message is about.
    let mut special_drops: Vec<(usize, Range<usize>)> = Vec::new();
    for &k in pending {
        if crate::budget::expired() {
            break;
        }
        let Some(it) = items.get(k) else { continue };
        let Some(s) = it.span.clone() else { continue };
        if !told_like_special(cv, it) {
            continue;
        }
        // An amount in a message about paying it ("please transfer the rent (850 €)") is
        // what is paid; a lender, a landlord, payroll or a tax office act on the amounts they
        // are told.
        if it.kind == PsdKind::MoneyAmount
            && (cv.kind == ToolKind::Payment
                || cv.pay_me()
                || mv.pays(s.start)
                || cv.recipients.needs(PsdKind::MoneyAmount))
        {
            mv.keep_span(&s);
            out.push((k, Decision::keep(Rule::PointOfMessage)));
            continue;
        }
        match point(cv, f, r, it, &s, &psd, &mv.person_names) {
            Some(rule) => {
                mv.keep_span(&s);
                out.push((k, Decision::keep(rule)));
            }
            None => special_drops.push((k, s)),
        }
    }
    // A request about a health matter ("book an echocardiogram for my mother") goes to
    // someone who provides care, whatever their address says.
    mv.care = out.iter().any(|(k, d)| {
        d.necessary
            && items.get(*k).is_some_and(|it| {
                it.category == crate::taxonomy::Category::Health
                    && it.span.as_ref().is_some_and(|s| {
                        r.clause_at(s.start)
                            .is_some_and(|c| r.is_request_sentence(c.clause.sentence))
                    })
            })
    });
    // As for the items themselves (see `point`): a stay or a flight books an accommodation
    // by the room or the service asked for.
    mv.serves = matches!(cv.kind, ToolKind::Route | ToolKind::Shopping);
    mv.count_carrying();
    for (k, s) in special_drops {
        let op = mv.unit(&s, title);
        if let Some(c) = r.clause_at(s.start)
            && let Some(slot) = mv.context_sentence.get_mut(c.clause.sentence)
        {
            *slot = true;
        }
        if matches!(op, Op::RemoveClause | Op::RemoveSentence)
            && let Some(ci) = r.clause_index(s.start)
        {
            let range = if op == Op::RemoveSentence {
                r.clauses
                    .get(ci)
                    .map_or(ci..ci + 1, |c| r.sentence_range(c.clause.sentence))
            } else {
                ci..ci + 1
            };
            for slot in mv.cut.get_mut(range).into_iter().flatten() {
                *slot = true;
            }
        }
        if items
            .get(k)
            .is_some_and(|it| it.kind == PsdKind::ImpliedByRole)
        {
            mv.dropped_roles.push(s.clone());
        }
        if items
            .get(k)
            .is_some_and(|it| it.category == crate::taxonomy::Category::Health)
        {
            mv.dropped_health.push(s.clone());
        }
        mv.dropped_special.push(s.clone());
        out.push((k, Decision::drop(op, Rule::NotTheTopic)));
    }
    mv.dropped_roles.sort_by_key(|r| r.start);
    mv.dropped_health.sort_by_key(|r| r.start);
    mv.dropped_special.sort_by_key(|r| r.start);
    // A relative's line cuts its clause, or its sentence, before anyone in it is decided:
    // the relative named there goes with it.
    for &k in pending {
        let Some(it) = items.get(k) else { continue };
        let Some(s) = it.span.as_ref() else { continue };
        let Some(op) = relatives_line(cv, f, r, it, s) else {
            continue;
        };
        let Some(ci) = r.clause_index(s.start) else {
            continue;
        };
        let range = match (op, r.clauses.get(ci)) {
            (Op::RemoveSentence, Some(c)) => r.sentence_range(c.clause.sentence),
            _ => ci..ci + 1,
        };
        for slot in mv.cut.get_mut(range).into_iter().flatten() {
            *slot = true;
        }
    }
    // Pass 2: people, contacts, identifiers, places and profile.
    for &k in pending {
        if crate::budget::expired() {
            break;
        }
        let Some(it) = items.get(k) else { continue };
        if told_like_special(cv, it) {
            continue;
        }
        let d = match it.span.clone() {
            Some(s) => other(cv, f, &mv, it, &s),
            None => Decision::keep(Rule::RequiredField),
        };
        out.push((k, d));
    }
    // A record's note keeps contacts as the record's own data, but a number or address written
    // right after a bystander's name ("emergency contact: her brother Jo Doe +1 …") is that
    // bystander's, and goes with the name.
    if matches!(cv.kind, ToolKind::Crm | ToolKind::Database) {
        let dropped_names: Vec<Range<usize>> = out
            .iter()
            .filter(|(_, d)| !d.necessary && d.rule == Rule::Bystander)
            .filter_map(|(k, _)| items.get(*k))
            .filter(|it| it.kind == PsdKind::PersonName)
            .filter_map(|it| it.span.clone())
            .collect();
        if !dropped_names.is_empty() {
            for (k, d) in &mut out {
                let Some(it) = items.get(*k) else { continue };
                if !d.necessary
                    || d.rule != Rule::FieldCarriesThisData
                    || f.role.carries(it.kind)
                    || !matches!(it.kind, PsdKind::Phone | PsdKind::Email)
                {
                    continue;
                }
                let Some(s) = it.span.as_ref() else { continue };
                if dropped_names.iter().any(|n| contact_follows(r.text, n, s)) {
                    *d = Decision::drop(Op::RemoveSpan, Rule::Bystander);
                }
            }
        }
    }
    out
}

/// Whether a contact span follows a name with only a short separator between them
/// ("Jo Doe +1 …", "Jo Doe: jo@…", "Jo Doe (+1 …)").
fn contact_follows(text: &str, name: &Range<usize>, contact: &Range<usize>) -> bool {
    name.end <= contact.start
        && text.get(name.end..contact.start).is_some_and(|gap| {
            gap.chars().count() <= 4
                && gap
                    .chars()
                    .all(|c| c.is_whitespace() || matches!(c, ':' | ',' | '(' | '-' | '–'))
        })
}

/// Whether an item is kept only as the message's point: special categories, and amounts of
/// the writer's income, debts or savings ("Eigenkapital 62.000", "earns $142k"), which say
/// as much of a person's finances as a word of distress. A task handed to another agent is
/// the exception: whether someone is eligible or can afford something turns on the amounts
/// its profile gives.
fn told_like_special(cv: &CallView<'_>, it: &PsdItem) -> bool {
    is_special(it) || it.kind == PsdKind::MoneyAmount && cv.kind != ToolKind::Delegation
}

/// Why a special-category item is the message's point, if it is.
fn point(
    cv: &CallView<'_>,
    f: &FieldCtx<'_>,
    r: &Reading<'_>,
    it: &PsdItem,
    s: &Range<usize>,
    psd: &[Range<usize>],
    names: &[Range<usize>],
) -> Option<Rule> {
    // An event, an error report or a log line is read to count and debug: no special-category
    // item in it is what it is for ("UploadError: sick_note_psychiatry_….pdf too large").
    if cv.kind == ToolKind::Telemetry {
        return None;
    }
    // A CV is read by employers: a faith, a diagnosis or an origin in it is none of what
    // they are to judge it by.
    if cv.writes_cv && is_special(it) {
        return None;
    }
    let text = field_span_text(f, it).unwrap_or_default();
    let ci = r.clause_index(s.start);
    let clause = ci.and_then(|i| r.clauses.get(i));
    // The reason right after the writer says they write ("Je me permets de vous écrire | car
    // ma toux persiste …") is why the message is sent: its point, not an aside.
    let why_written = clause.is_some_and(|c| {
        c.reason
            && !c.third_person
            && ci
                .and_then(|i| i.checked_sub(1))
                .and_then(|p| r.clauses.get(p))
                .is_some_and(|p| {
                    p.clause.sentence == c.clause.sentence
                        && p.may_match(WordSet::Writing)
                        && r.names_in(WordSet::Writing, &p.clause.range)
                })
    });
    // A relative named further into a clause that asks ("please book an echocardiogram for
    // my mother") is whom the request is for, not an aside about them; a relative the clause
    // opens on is what it tells of ("My wife is pregnant so no raw fish please").
    let aside = clause.is_some_and(|c| {
        c.reason && !why_written
            || c.relation && (!c.request || opens_on_relation(r, c))
            || c.third_person
            || c.clause.parenthetical
    }) || r.told_as_reason(s.start) && !why_written;
    // A wheelchair, a guide dog or a sign-language interpreter named in a note to a ride or
    // a delivery is what the driver must provide for, said with a need word or not ("I'll be
    // with my mother in her wheelchair"). A stay or a flight books it by the room or the
    // service asked for ("accessible room"), which stays on its own.
    if matches!(cv.kind, ToolKind::Route | ToolKind::Shopping)
        && !clause.is_some_and(|c| c.reason || c.clause.parenthetical)
        && r.names_in(WordSet::Accommodation, s)
    {
        return Some(Rule::PointOfMessage);
    }
    let sentence = clause.map_or(0, |c| c.clause.sentence);
    // In talk about code, a condition nobody in its sentence has ("the classifier tags
    // diabetes as an allergy") is a label or a test case, not anyone's health.
    if cv.kind == ToolKind::Code
        && it.category == crate::taxonomy::Category::Health
        && prose_line(r.text, s)
        && !names.iter().any(|n| {
            r.clause_at(n.start)
                .is_some_and(|c| c.clause.sentence == sentence)
        })
        && !r.sentence_clauses(s.start).any(|c| {
            c.first_person
                || c.third_person
                || c.relation
                || [WordSet::SecondPerson, WordSet::PersonRef]
                    .iter()
                    .any(|&set| {
                        c.may_match(set)
                            && vocab().set(set).any_in_langs(
                                r.lang,
                                r.words.get(c.words.clone()).unwrap_or_default(),
                                r.text.get(c.clause.range.clone()).unwrap_or_default(),
                            )
                    })
        })
    {
        return Some(Rule::SampleData);
    }
    let first_clause = ci == Some(0);
    // A later clause that speaks of the writer ("… - sorry, my hearing was moved") is an
    // aside in a title too.
    let personal_aside = !first_clause && clause.is_some_and(|c| c.first_person);
    let in_request = r.is_request_sentence(sentence);
    // Notes about other people (a CRM's observations) are never their own point.
    let about_others = cv.kind == ToolKind::Crm;
    // A payment's reference is read by the payee and every bank between: it needs what is
    // paid (its head: "Union dues June", "Tithe") and whom (a parish, a union), not why
    // ("half of the clinic copay (follow-up)", "rent - late because I was in hospital"). A
    // body named after the person paid is part of the why.
    if cv.kind == ToolKind::Payment {
        // Why it is paid is not what is paid: an offence, a debt or a family matter ("Dad's
        // bail", "Separating from my husband …") in the reference's head is the payer's story,
        // and so is a condition told after what was bought ("Membership via physio after a
        // hernia operation"); a care bought, named in the reference's first words ("Physio
        // session", "Consulta de psicologia"), a body paid (dues, a parish), a flat whose rent
        // it is, or an amount is what the payee books it by.
        let bought = || {
            r.text
                .get(..s.start)
                .is_some_and(|before| before.split_whitespace().count() <= 3)
        };
        let why = match it.kind {
            // (A note beside the payment is not its reference: "Dad fought cancer for two
            // years" in a funeral home's `notes` is the story.)
            PsdKind::Condition | PsdKind::Medication => {
                !bought() || !f.key.is_some_and(names_payment_reference)
            }
            PsdKind::CriminalRecord
            | PsdKind::FinancialDistress
            | PsdKind::Family
            | PsdKind::Sexuality
            | PsdKind::EthnicOrigin => true,
            _ => false,
        };
        if s.end <= reference_head(r.text) && !why {
            return Some(Rule::PointOfMessage);
        }
        if payee_number(r.text, names, s) {
            // "Jo Doe, inmate no. X1234": the account of the person paid.
            return Some(Rule::IdentifierForRecipient);
        }
        if names.first().is_some_and(|n| s.start > n.start) {
            return None;
        }
        // A union or a party is paid under its acronym ("SEIU Local 12 dues").
        let acronym = it.kind == PsdKind::Belief
            && text.split_whitespace().next().is_some_and(|w| {
                w.chars().count() >= 2 && w.chars().all(|c| c.is_uppercase() || c == '-')
            });
        return (acronym || names_institution(text)).then_some(Rule::PointOfMessage);
    }
    if f.role == FieldRole::Title || f.needed && is_short(r) && !about_others {
        // A subject line, an event's title, a short task: the text is its point.
        return (!(aside || personal_aside) || cv.kind.writes_publicly())
            .then_some(Rule::PointOfMessage);
    }
    // What changes how a carer may treat the writer, and what it names ("Détartrage. Je suis
    // enceinte de 5 mois (pas de radio svp)", "allergic to penicillin"), is what a tool of
    // care needs, told as a reason or not; someone else's is not the writer's to tell. (A
    // message's recipient is not enough: a subject line "Atestado médico" to HR names no
    // carer.)
    if cv.kind == ToolKind::HealthCare
        && matches!(it.kind, PsdKind::Condition | PsdKind::Medication)
        && !clause.is_some_and(|c| c.third_person || c.relation)
        && clause.is_some_and(|c| r.names_in(WordSet::Precaution, &c.clause.range))
    {
        return Some(Rule::IdentifierForRecipient);
    }
    // A faith the writer gives, in the sentence that says which treatment it rules out ("I
    // am one of Jehovah's Witnesses and do not accept blood transfusions"), is what the
    // carer plans the treatment by.
    if cv.kind == ToolKind::HealthCare
        && it.kind == PsdKind::Belief
        && !clause.is_some_and(|c| c.third_person || c.relation || c.clause.parenthetical)
        && sentence_bytes(r, sentence).is_some_and(|b| r.names_in(WordSet::Precaution, &b))
    {
        return Some(Rule::IdentifierForRecipient);
    }
    // The writer's own case, told to their lawyer ("my arraignment on the DUI charge has
    // been moved"): the lawyer acts on it; someone else's is not the writer's to tell.
    if it.kind == PsdKind::CriminalRecord
        && cv.recipients.is("legal")
        && !aside
        && !clause.is_some_and(|c| c.third_person || c.relation || c.clause.parenthetical)
    {
        return Some(Rule::IdentifierForRecipient);
    }
    // A sick note is the news when the message opens with it (after any greeting).
    let first_news = r.first_news_sentence();
    // So is the doctor's note the writer says they have handed in after it ("The
    // certificate has gone to the insurer"): part of the same notice.
    // The item is read first: the opening sentence is folded only for a sick-leave word.
    if !aside
        && is_sick_leave(text)
        && (first_news == Some(sentence)
            || first_news.is_some_and(|n| {
                n < sentence
                    && sentence_bytes(r, n)
                        .and_then(|b| r.text.get(b))
                        .is_some_and(is_sick_leave)
            }))
    {
        return Some(Rule::SickLeaveNotice);
    }
    // Someone the subject line names too ("Peanut allergy - Ilse (3B)": the writer's child, a
    // patient the carer writes about) is whom the message is about, not someone told of by
    // the way. Asked only where it decides, as it reads every name in its range.
    let names_subject_person = |within: &dyn Fn(usize) -> bool| {
        names.iter().any(|n| {
            within(n.start) && r.text.get(n.clone()).is_some_and(|t| named_in_point(cv, t))
        })
    };
    // What the subject line names is the point, told as a reason or not ("Lamotrigine dose":
    // "since we went up to lamotrigine 150 mg …").
    // A bracket that holds little more than the item glosses what the sentence says ("an
    // order to leave the country (OQTF)", "the DUI charge (case 24-…)"): it is the point too.
    if named_in_point(cv, text)
        && !clause.is_some_and(|c| {
            c.clause.parenthetical && !is_gloss(r, c, s)
                || c.third_person
                    && !names_subject_person(&|at| c.clause.range.contains(&at))
                    && !point_person_word(cv, r, c, psd)
        })
    {
        return Some(Rule::PointOfMessage);
    }
    // A medicine told in the sentence of the condition the subject line names, outside an
    // aside, is how that condition is treated ("Peanut allergy" — "she has a peanut allergy
    // and carries an EpiPen"): part of the point.
    let in_sentence = |at: usize| {
        r.clause_at(at)
            .is_some_and(|c| c.clause.sentence == sentence)
    };
    if it.kind == PsdKind::Medication
        && (!aside
            || !clause.is_some_and(|c| c.reason || c.clause.parenthetical)
                && (names_subject_person(&in_sentence)
                    || clause.is_some_and(|c| point_person_word(cv, r, c, psd))))
        && psd.iter().any(|p| {
            p != s
                && in_sentence(p.start)
                && r.text.get(p.clone()).is_some_and(|t| named_in_point(cv, t))
        })
    {
        return Some(Rule::PointOfMessage);
    }
    // A subject or topic that names the kind ("Medication question", topic `test_results`):
    // the medicines, or the values and complaints, the writer tells are the point; someone
    // else's are not.
    // Not in a code host's issue or review: there the kind names a feature of the software
    // ("Crash when saving a symptom entry"), not the writer's own data.
    if cv.topic_names(it.kind)
        && cv.kind != ToolKind::Code
        && !clause.is_some_and(|c| c.clause.parenthetical || c.third_person || c.relation)
    {
        return Some(Rule::PointOfMessage);
    }
    // What a request or a question is about: "can I bring my service dog", "please move my
    // dialysis slot".
    // Not what a request to keep something from someone is about ("please don't mention my
    // boyfriend at the wedding"): that names what the reader is not to pass on.
    if !aside
        && clause.is_some_and(|c| c.request && !r.names_in(WordSet::Secrecy, &c.clause.range))
        && !cv.kind.writes_publicly()
    {
        return Some(Rule::PointOfMessage);
    }
    // What a need names is its point: "Wheelchair" of "Wheelchair assistance needed at the
    // gate (MS)"; the diagnosis beside it is not.
    if !aside
        && clause.is_some_and(|c| c.needs)
        && r.names_in(WordSet::Accommodation, s)
        && !cv.kind.writes_publicly()
    {
        return Some(Rule::PointOfMessage);
    }
    // The user's own file keeps what the user asked to store in it.
    if !aside && cv.kind == ToolKind::Files && !shared_file(cv) && !is_note_line(r, s.start) {
        return Some(Rule::PrivateStore);
    }
    // A condition is what the request is about in the request's own clause ("please refill
    // my asthma inhaler"); told in another clause of the sentence ("…, and I had two attacks
    // last week, so please hurry") it is the writer's story.
    if !aside
        && in_request
        && (it.kind == PsdKind::Medication
            || it.kind == PsdKind::Condition && clause.is_some_and(|c| c.request))
        && cv.recipients.needs(it.kind)
    {
        return Some(Rule::IdentifierForRecipient);
    }
    if matches!(it.kind, PsdKind::HealthFacility | PsdKind::Belief)
        && cv.kind.is_message()
        && is_meeting_point(r, s.start, psd)
    {
        return Some(Rule::MeetingPoint);
    }
    // The body whose event the message tells of, outside an aside ("the CHP district meeting
    // is at 19:00", "union meeting moved to Friday"): the event is the news, and its name
    // with it.
    if it.kind == PsdKind::Belief && cv.kind.is_message() && !aside && names_event_after(r, s) {
        return Some(Rule::MeetingPoint);
    }
    // A feast wished to the readers ("Happy Diwali to everyone celebrating", "Eid Mubarak")
    // greets them: it tells nothing of the writer's own faith.
    if it.kind == PsdKind::Belief
        && cv.kind.is_message()
        && !clause.is_some_and(|c| c.first_person)
        && wishes_feast(r, s)
    {
        return Some(Rule::PointOfMessage);
    }
    // A field for the user's requirements states them first; what follows explains them
    // ("Wheelchair assistance at the gate. She has …").
    if super::holds_requirements(f.schema_key)
        && first_news == Some(sentence)
        && !aside
        && !clause.is_some_and(|c| c.first_person)
    {
        return Some(Rule::PointOfMessage);
    }
    // A reply about an order or a support case names its product in its news ("your
    // replacement glucose sensor ships tomorrow"); the writer's own story is not that news
    // ("I was admitted after …").
    if matches!(cv.kind, ToolKind::Support | ToolKind::Shopping)
        && matches!(it.kind, PsdKind::Medication | PsdKind::Condition)
        && first_news == Some(sentence)
        && !aside
        && !clause.is_some_and(|c| c.first_person)
    {
        return Some(Rule::PointOfMessage);
    }
    // A task handed to another agent states what is needed in its first sentence.
    if cv.kind == ToolKind::Delegation && sentence == 0 && !aside && field_is_task(f) {
        return Some(Rule::PointOfMessage);
    }
    None
}

/// Whether a field's key names a text in which the writer presents themselves: a cover
/// letter, a motivation letter, a bio, an "about me".
fn presents_writer(key: &str) -> bool {
    crate::text::words::any_identifier_word(key, |w| {
        matches!(
            w,
            "cover" | "bio" | "biography" | "motivation" | "anschreiben" | "motivatie" | "about"
        )
    })
}

/// Whether the line holding `s` reads as prose, not as data or code: no field separator, no
/// assignment, no statement's semicolon, the item not in inline code, and not inside a
/// fenced block.
fn prose_line(text: &str, s: &Range<usize>) -> bool {
    let start = text
        .get(..s.start)
        .and_then(|h| h.rfind('\n'))
        .map_or(0, |i| i + 1);
    let end = text
        .get(s.end..)
        .and_then(|t| t.find('\n'))
        .map_or(text.len(), |i| s.end + i);
    let line = text.get(start..end).unwrap_or_default();
    let fences = text.get(..start).unwrap_or_default().matches("```").count();
    // A semicolon that ends a statement ends its line or stands against the next one; one
    // followed by a space parts a sentence ("gone in 3.12; use setuptools instead").
    let statement_end = line
        .match_indices(';')
        .any(|(i, _)| !line.get(i + 1..).is_some_and(|t| t.starts_with(' ')));
    // Inline code beside the item (`distutils` is gone …) leaves the line prose; the item
    // inside it is code's.
    let in_code_span = text
        .get(start..s.start)
        .is_some_and(|h| h.matches('`').count() % 2 == 1);
    fences % 2 == 0 && !statement_end && !in_code_span && !line.contains(['=', '|', '\t'])
}

/// Whether the item at `s`, in a clause that names a need, is what is needed ("Wheelchair" of
/// "Wheelchair assistance needed") or the need's reason told after it ("… due to …").
fn part_of_need(r: &Reading<'_>, s: &Range<usize>) -> bool {
    r.names_in(WordSet::Accommodation, s) || r.told_as_reason(s.start)
}

/// Whether the item at `s` is a number written right after a named person (a label between,
/// no sentence break): in a payment's reference, the account of the person paid.
fn payee_number(text: &str, names: &[Range<usize>], s: &Range<usize>) -> bool {
    let own = text.get(s.clone()).unwrap_or_default();
    if !own.chars().any(|c| c.is_ascii_digit()) || own.contains(char::is_whitespace) {
        return false;
    }
    let before = names.partition_point(|n| n.end <= s.start);
    before
        .checked_sub(1)
        .and_then(|i| names.get(i))
        .is_some_and(|n| {
            text.get(n.end..s.start).is_some_and(|gap| {
                gap.split_whitespace()
                    .filter(|w| w.chars().any(char::is_alphanumeric))
                    .count()
                    <= 2
                    && !gap.contains([';', '(', '\n'])
            })
        })
}

/// Whether a payment's field key names its reference, read by the payee ("remittance_info",
/// "memo", "Verwendungszweck", "causale").
fn names_payment_reference(key: &str) -> bool {
    crate::text::words::any_identifier_word(key, |w| {
        matches!(
            w,
            "remittance"
                | "reference"
                | "ref"
                | "memo"
                | "purpose"
                | "description"
                | "narrative"
                | "verwendungszweck"
                | "concepto"
                | "causale"
                | "motivo"
                | "omschrijving"
                | "meddelande"
                | "tytul"
                | "descricao"
                | "descripcion"
                | "beschreibung"
                | "referencia"
                | "riferimento"
                | "referenz"
                | "libelle"
                | "subject"
                | "betreff"
                | "popis"
                | "opis"
        )
    })
}

/// Key words of a field that names an organisation: its value opens with the name.
const ORGANISATION_KEYS: &[&str] = &[
    "company",
    "organization",
    "organisation",
    "org",
    "employer",
    "vendor",
    "merchant",
    "business",
    "hotel",
    "airline",
    "carrier",
    "provider",
    "agency",
    "firm",
    "shop",
    "store",
    "restaurant",
    "brand",
    "supplier",
    "bank",
    "insurer",
];

/// Legal forms of companies: long ones in any case, short ones (which are words or acronyms
/// of other things in lower case) only in capitals.
const COMPANY_FORMS: &[&str] = &[
    "gmbh",
    "ltd",
    "llc",
    "inc",
    "plc",
    "sarl",
    "sas",
    "srl",
    "s.r.l",
    "spa",
    "s.p.a",
    "oyj",
    "sro",
    "s.r.o",
    "kft",
    "zrt",
    "ооо",
    "тов",
    "şti",
    "tbk",
    "aps",
    "a/s",
    "asa",
    "ohg",
    "lda",
    "ltda",
    "bvba",
    "sprl",
    "d.o.o",
    "sp.k",
    "επε",
    "ικε",
    "株式会社",
    "有限会社",
    "有限公司",
    "주식회사",
];
const COMPANY_FORMS_CAPS: &[&str] = &[
    "AG", "KG", "UG", "SA", "S.A", "AS", "A.S", "AB", "NV", "BV", "AE", "ΑΕ", "Α.Ε", "SL", "S.L",
    "OY", "SE", "PT", "CV",
];

/// Whether `text` names a company by its legal form ("Vasilescu SRL", "Novák s.r.o.",
/// "Kowalski Sp. z o.o.", "Παπαδόπουλος ΑΕ").
fn names_company_form(text: &str) -> bool {
    if text.contains("Sp. z o.o") || text.contains("sp. z o.o") {
        return true;
    }
    text.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '(' | ')'))
        .map(|t| t.trim_end_matches('.'))
        .any(|t| {
            COMPANY_FORMS_CAPS.contains(&t)
                || t.chars().count() >= 3 && {
                    let l = t.to_lowercase();
                    COMPANY_FORMS.contains(&l.as_str())
                }
        })
}

/// Words of a tool's name that make the record it writes an organisation's
/// (`create_company`, `update_vendor`, `add_supplier`).
const COMPANY_RECORDS: &[&str] = &[
    "company",
    "companies",
    "organization",
    "organisation",
    "organizations",
    "organisations",
    "vendor",
    "vendors",
    "supplier",
    "suppliers",
    "merchant",
    "business",
];

/// Whether a field's key names an organisation (`company`, `hotelName`, `rental_company`).
fn names_organisation(key: &str) -> bool {
    crate::text::words::any_identifier_word(key, |w| ORGANISATION_KEYS.contains(&w))
}

/// Where the head of a payment reference ends: its first dash between spaces, parenthesis,
/// semicolon or full stop ("Rent June - late because …", "Dues (reduced …)").
fn reference_head(text: &str) -> usize {
    super::head_end(text, &[" - ", " – ", " — ", "(", ";", ". "])
}

/// Whether `text` is the proper name of a body ("St Aidan's Church", "Stateville CC", "Local
/// 12"): two words or more (a number counts), each capitalised but for short joining words,
/// and not a lawsuit's caption ("Doe v. Doe").
fn names_institution(text: &str) -> bool {
    const JOINING: &[&str] = &[
        "of", "the", "and", "for", "des", "der", "del", "den", "van", "von", "los", "las", "und",
        "et", "y", "e", "i", "og", "och",
    ];
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | ',' | '-' | '–'))
        .filter(|w| {
            w.chars().any(char::is_alphabetic)
                || !w.is_empty() && w.chars().all(|c| c.is_ascii_digit())
        })
        .collect();
    words.len() >= 2
        && words
            .first()
            .is_some_and(|w| w.chars().any(char::is_alphabetic))
        && !words.iter().any(|w| {
            matches!(
                w.to_lowercase().as_str(),
                "v" | "v." | "vs" | "vs." | "versus"
            )
        })
        && words.iter().all(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
                || w.chars().count() < 3
                || JOINING.contains(&w.to_lowercase().as_str())
        })
}

/// Whether `at` is on a line that is a note or remark ("Note: …", "NB: …", "Hinweis: …").
fn is_note_line(r: &Reading<'_>, at: usize) -> bool {
    const NOTE: &[&str] = &[
        "note",
        "notes",
        "nb",
        "ps",
        "remark",
        "hinweis",
        "anmerkung",
        "notiz",
        "remarque",
        "nota",
        "notas",
        "opmerking",
        "uwaga",
        "poznamka",
        "obs",
        "anm",
    ];
    let line = r.text.get(r.line_start(at)..at).unwrap_or_default();
    let t = line.trim_start().trim_start_matches(['-', '*', '•', ' ']);
    t.split_once(':')
        .is_some_and(|(head, _)| NOTE.contains(&crate::text::fold::fold_term(head.trim()).as_str()))
}

/// Whether the file a tool writes is shared with others or kept by them: a repository's
/// fixture or seed data, a log, a public or shared folder.
fn shared_file(cv: &CallView<'_>) -> bool {
    const SHARED: &[&str] = &[
        "fixture", "fixtures", "seed", "seeds", "test", "tests", "log", "logs", "public", "shared",
        "share", "readme", "docs", "example", "examples", "sample", "samples", "repo", "www",
        "static", "dist", "export", "exports",
    ];
    if cv.shared_store {
        return true;
    }
    let Some(mut obj) = cv.args.members() else {
        return false;
    };
    obj.any(|(k, v)| {
        let kw = crate::text::words::identifier_words(k);
        kw.iter().any(|w| {
            matches!(
                w.as_str(),
                "path"
                    | "file"
                    | "filename"
                    | "filepath"
                    | "repo"
                    | "repository"
                    | "folder"
                    | "dir"
            )
        }) && v.as_str().is_some_and(|p| {
            crate::text::words::identifier_words(p)
                .iter()
                .any(|w| SHARED.contains(&w.as_str()))
        })
    })
}

/// A text of one short sentence: a title in all but name.
fn is_short(r: &Reading<'_>) -> bool {
    words_at_most(r, 12)
        && r.clauses.last().is_none_or(|c| c.clause.sentence == 0)
        && !r.window_text().contains('\n')
}

/// Whether a text has at most `most` words, where a run of a script written without spaces
/// (Japanese) counts one word for every three of its characters (an ASCII word counts one);
/// the count stops past `most`.
fn words_at_most(r: &Reading<'_>, most: usize) -> bool {
    let mut n = 0usize;
    for w in &r.words {
        n += if w.raw.is_ascii() {
            1
        } else {
            let unspaced = w.raw.chars().filter(|&c| is_cjk(c)).count();
            if unspaced == 0 {
                1
            } else {
                unspaced.div_ceil(3).max(1)
            }
        };
        if n > most {
            return false;
        }
    }
    true
}

/// Words of a key that names a task field (in any case, anywhere in the key).
const TASK_FIELD_WORDS: [&str; 7] = [
    "task",
    "instruction",
    "request",
    "query",
    "question",
    "message",
    "description",
];

fn field_is_task(f: &FieldCtx<'_>) -> bool {
    f.schema_key.is_some_and(|k| {
        if k.is_ascii() {
            // ASCII lower-cases byte by byte: the words are sought in place.
            TASK_FIELD_WORDS.iter().any(|w| {
                k.as_bytes()
                    .windows(w.len())
                    .any(|at| at.eq_ignore_ascii_case(w.as_bytes()))
            })
        } else {
            let k = k.to_lowercase();
            TASK_FIELD_WORDS.iter().any(|w| k.contains(w))
        }
    })
}

/// Whether a venue is where the reader is to meet or collect someone.
fn is_meeting_point(r: &Reading<'_>, at: usize, psd: &[Range<usize>]) -> bool {
    let before = r.words_before_in_clause(at);
    before
        .iter()
        .rev()
        .take(7)
        .any(|w| MEET.contains(&w.folded.as_ref()) && !inside_any(psd, &w.range))
}

/// Words (folded) for a gathering a post invites its readers to: the address in its sentence
/// is where to come.
const EVENTS: &[&str] = &[
    "party",
    "bbq",
    "barbecue",
    "meetup",
    "potluck",
    "housewarming",
    "brunch",
    "picnic",
    "dinner",
    "drinks",
    "game",
    "games",
    "movie",
    "quiz",
    "karaoke",
    "celebration",
    "lan",
    "gathering",
    "sale",
    "fete",
    "soiree",
    "apero",
    "feier",
    "grillen",
    "grillparty",
    "einweihung",
    "flohmarkt",
    "fiesta",
    "quedada",
    "barbacoa",
    "festa",
    "grigliata",
    "aperitivo",
    "churrasco",
    "feest",
    "borrel",
    "barbecuen",
    "impreza",
    "grill",
    "oslava",
    "grilovani",
    "fest",
    "kalas",
    "grillfest",
    "loppis",
    "loppemarked",
    "parti",
];

/// Stems (folded) of words for a meeting or a gathering, which an organisation's name
/// qualifies when it comes right before them ("party meeting", "Gewerkschaftsversammlung" is
/// one word and not read here, "ilçe toplantısı", "réunion").
const EVENT_STEMS: &[&str] = &[
    "meeting",
    "rally",
    "assembly",
    "congress",
    "convention",
    "gathering",
    "vigil",
    "treffen",
    "versammlung",
    "sitzung",
    "kundgebung",
    "parteitag",
    "reunion",
    "rassemblement",
    "congres",
    "mitin",
    "asamblea",
    "congreso",
    "riunione",
    "assemblea",
    "congresso",
    "reuniao",
    "assembleia",
    "comicio",
    "vergadering",
    "bijeenkomst",
    "spotkani",
    "zebrani",
    "schuz",
    "mote",
    "mode",
    "toplanti",
    "miting",
    "kongre",
    "συνελευσ",
    "συσκεψ",
    "συγκεντρωσ",
    "sedint",
    "intalnir",
    "gyules",
    "kokous",
    "собрани",
    "збори",
    "митинг",
];

/// Whether a word for a meeting follows the item at `s` within three words of its clause: the
/// item names whose meeting it is.
fn names_event_after(r: &Reading<'_>, s: &Range<usize>) -> bool {
    let Some(c) = r.clause_at(s.start) else {
        return false;
    };
    let after = r.words.partition_point(|w| w.range.start < s.end);
    let end = c.words.end.min(after + 3);
    r.words.get(after..end).unwrap_or_default().iter().any(|w| {
        let f = w.folded.as_ref();
        EVENT_STEMS.iter().any(|stem| f.starts_with(stem))
    })
}

/// Kinds of recipient (`data/decide/recipients.tsv`) that serve the writer's relatives: a
/// pupil's school, a patient's practice or pharmacy.
const SERVE_RELATIVES: [&str; 3] = ["school", "clinic", "pharmacy"];

/// Whether the clause `c` opens on a relative ("My wife is …", "Meine Mutter hat …"): one of
/// its first three words starts a relation word.
fn opens_on_relation(r: &Reading<'_>, c: &ClauseInfo) -> bool {
    let cw = r.words.get(c.words.clone()).unwrap_or_default();
    let rel = vocab().set(WordSet::Relation);
    (0..cw.len().min(3)).any(|i| rel.match_in(r.lang, cw, i).is_some())
}

/// Whether the feast at `s` is wished to the readers: a wish opens the words before it in its
/// clause, at most three words before it ("Happy Diwali", "Wishing everyone a peaceful
/// Ramadan", "Frohe Ostern"), or is the word right after it ("Eid Mubarak").
fn wishes_feast(r: &Reading<'_>, s: &Range<usize>) -> bool {
    let wish = vocab().set(WordSet::Wish);
    let before = r.words_before_in_clause(s.start);
    let from = before.len().saturating_sub(4);
    let opened = (from..before.len()).any(|i| wish.match_in(r.lang, before, i).is_some());
    let after = r.words.partition_point(|w| w.range.start < s.end);
    let closed = r
        .clause_at(s.start)
        .is_some_and(|c| c.words.contains(&after))
        && wish.match_in(r.lang, &r.words, after).is_some();
    opened || closed
}

/// Whether the clause after the one at `ci`, in the same sentence, opens on a pronoun for
/// someone else, and it or a later clause of the sentence told special-category data that
/// went: they tell about the person the clause at `ci` ends on.
fn told_next(mv: &MsgView<'_, '_>, ci: usize) -> bool {
    let r = mv.r;
    let (Some(c), Some(next)) = (r.clauses.get(ci), r.clauses.get(ci + 1)) else {
        return false;
    };
    if next.clause.sentence != c.clause.sentence || !next.third_person {
        return false;
    }
    let cw = r.words.get(next.words.clone()).unwrap_or_default();
    let opens = (0..cw.len().min(2)).any(|i| {
        vocab()
            .set(WordSet::ThirdPerson)
            .match_in(r.lang, cw, i)
            .is_some()
    });
    let rest = ci + 1..r.sentence_range(c.clause.sentence).end;
    opens
        && r.clauses
            .get(rest)
            .unwrap_or_default()
            .iter()
            .any(|n| mv.special_in(&n.clause.range))
}

/// Whether the span `s` is among the last words of its clause `c`: at most one word follows
/// it.
fn last_in_clause(r: &Reading<'_>, c: &ClauseInfo, s: &Range<usize>) -> bool {
    let after = r
        .words
        .get(c.words.clone())
        .unwrap_or_default()
        .iter()
        .filter(|w| w.range.start >= s.end)
        .count();
    after <= 1
}

/// Bytes read back for a contact label.
const MAX_LABEL_LOOK_BACK: usize = 32;

/// Whether the contact detail at `s` is the writer's own: its clause speaks in the first
/// person ("text me at …"), or it follows a lone label that opens its clause ("Contact: …"),
/// not a sentence that names whom to call.
fn writers_own(r: &Reading<'_>, clause: Option<&ClauseInfo>, s: &Range<usize>) -> bool {
    let Some(c) = clause else {
        return false;
    };
    if c.first_person {
        return true;
    }
    // The label stands in the clause before, up to the sentence's or line's start.
    let head = sentence_head(r, s.start.saturating_sub(MAX_LABEL_LOOK_BACK), s.start).trim();
    head.ends_with(':') && head.split_whitespace().count() == 1
}

/// The text between `from` (moved forward to a character boundary) and `at`, from the last
/// sentence end or line break in it: where a label before `at` would stand.
fn sentence_head<'t>(r: &Reading<'t>, from: usize, at: usize) -> &'t str {
    let mut from = from;
    while !r.text.is_char_boundary(from) {
        from += 1;
    }
    let before = r.text.get(from..at).unwrap_or_default();
    before
        .rsplit(['.', '!', '?', '\n'])
        .next()
        .unwrap_or_default()
}

/// Whether `range` lies inside one of `spans` (sorted by start): "meeting" in "her AA meeting"
/// is part of what the message withholds, not a meeting it arranges.
fn inside_any(spans: &[Range<usize>], range: &Range<usize>) -> bool {
    let upto = spans.partition_point(|p| p.start <= range.start);
    spans
        .get(upto.saturating_sub(8)..upto)
        .unwrap_or_default()
        .iter()
        .any(|p| p.end >= range.end)
}

/// How a relative's line goes, when the contact at `s` is one: someone close to the writer,
/// and the line they are reached on, told in its clause ("Pappa Hjalmar nås på …", "or text
/// my husband at …"). It is another way to reach the family, not the contact a request has
/// the reader use; `None` in a record or a store that keeps contacts, in the signature or in
/// a quoted message.
///
/// The clause goes whole, so that no "my brother is on" stays without its number; the
/// sentence goes when the rest of it only leads up to it ("If you cannot reach me, …").
fn relatives_line(
    cv: &CallView<'_>,
    f: &FieldCtx<'_>,
    r: &Reading<'_>,
    it: &PsdItem,
    s: &Range<usize>,
) -> Option<Op> {
    if !matches!(it.kind, PsdKind::Email | PsdKind::Phone)
        || matches!(
            cv.kind,
            ToolKind::Crm | ToolKind::Database | ToolKind::Files
        )
        || f.role.carries(it.kind)
        || r.in_signature(s.start)
        || r.in_quote(s.start)
        || r.set_word_before(s.start, WordSet::Relation, RELATIVE_LOOK_BACK)
            .is_none()
    {
        return None;
    }
    let i = r.clause_index(s.start)?;
    let sentence = r.clauses.get(i)?.clause.sentence;
    // Clauses inside the contact itself (the commas of "zero six, twelve, …") lead nowhere.
    let lead_only = r.sentence_range(sentence).all(|j| {
        j == i
            || r.clauses.get(j).is_some_and(|o| {
                o.contact_ask
                    || o.words.len() <= LEAD_WORDS
                    || o.clause.range.start >= s.start && o.clause.range.end <= s.end
            })
    });
    Some(if lead_only {
        Op::RemoveSentence
    } else {
        Op::RemoveClause
    })
}

/// Words of a contact's clause before it that a relation word is looked for in ("Pappa Hjalmar
/// Strandqvist nås på …").
const RELATIVE_LOOK_BACK: usize = 8;

/// Words of a clause that only leads up to the next ("If anything", "En cas de besoin", "Falls nötig").
const LEAD_WORDS: usize = 3;

/// People, contact details, identifiers, places and profile data in a message.
fn other(
    cv: &CallView<'_>,
    f: &FieldCtx<'_>,
    mv: &MsgView<'_, '_>,
    it: &PsdItem,
    s: &Range<usize>,
) -> Decision {
    use PsdKind::*;
    let r = mv.r;
    let ci = r.clause_index(s.start);
    let clause = ci.and_then(|i| r.clauses.get(i));
    let cut = ci.is_some_and(|i| mv.cut.get(i).copied().unwrap_or(false));
    let context_sentence = clause.is_some_and(|c| {
        mv.context_sentence
            .get(c.clause.sentence)
            .copied()
            .unwrap_or(false)
    });
    let in_sig = r.in_signature(s.start);
    let private_file = cv.kind == ToolKind::Files && !shared_file(cv);
    // A repository, a channel, a log or a shared folder is read by others.
    let public = cv.kind.writes_publicly() || cv.kind == ToolKind::Files && shared_file(cv);
    let store = matches!(cv.kind, ToolKind::Crm | ToolKind::Database);
    let asked = clause.is_some_and(|c| c.contact_ask)
        || ci
            .and_then(|i| i.checked_sub(1))
            .and_then(|p| r.clauses.get(p))
            .is_some_and(|p| {
                p.contact_ask && Some(p.clause.sentence) == clause.map(|c| c.clause.sentence)
            });
    // "Could you call me about it? My number is …": the writer's number right after a
    // sentence that asks to be called is what the call needs.
    let asked = asked
        || clause.is_some_and(|c| {
            c.first_person
                && c.clause.sentence.checked_sub(1).is_some_and(|prev| {
                    r.clauses
                        .get(r.sentence_range(prev))
                        .unwrap_or_default()
                        .iter()
                        .any(|p| p.contact_ask)
                })
        });
    let sentence_asks = clause.is_some_and(|c| r.is_request_sentence(c.clause.sentence));
    // A task handed to another agent states what is asked in its first sentence, in the
    // imperative ("Find a slot for …") that request words need not mark.
    let states_task = cv.kind == ToolKind::Delegation
        && field_is_task(f)
        && clause.is_some_and(|c| c.clause.sentence == 0);
    // Someone close to the writer, told about in a sentence that asks nothing of the reader
    // ("my brother Tom can't help, he is in debt counselling"), is a bystander.
    // A relation told about in a sentence with someone's story is a bystander, unless the
    // name's own clause carries the message's facts ("her aunt Ana picks her up Friday").
    let own_clause_carries = ci.is_some_and(|i| mv.clause_carries(i));
    // A school, a practice or a pharmacy serves the writer's child or parent: the relative
    // whose own clause carries the news ("my daughter Emma Roth will be absent today") is
    // whom the message is for, not a bystander.
    let served = own_clause_carries
        && SERVE_RELATIVES.iter().any(|k| cv.recipients.is(k))
        && it.kind == PsdKind::PersonName;
    // A colleague or a neighbour whose own clause carries the news ("my colleague Ana will
    // cover the desk") is who the reader deals with; so is a relative whose own clause
    // arranges a day or a time ("Ola is picked up by grandpa Knut today at 3"), where a
    // number alone may only tell their story ("my husband Luca turns 40").
    let arranges_when = || clause.is_some_and(|c| r.names_in(WordSet::Time, &c.clause.range));
    let told_about = (relation_near(r, s.start) && !(own_clause_carries && arranges_when())
        || associate_near(r, s.start) && !own_clause_carries)
        && !sentence_asks
        && !served
        && !named_in_point(cv, field_span_text(f, it).unwrap_or_default());
    // Someone whose own clause told special-category data that went, in a clause that asks
    // nothing ("Mr Rossi on the third floor is under house arrest"), is who it was about.
    // Not when the clause tells when they are away ("Lena is off until Friday after her …"):
    // who is away is the news.
    let subject_of_dropped = clause
        .is_some_and(|c| !c.request && !c.contact_ask && mv.special_in(&c.clause.range))
        && !(own_clause_carries && ci.is_some_and(|i| mv.tells_when(i)));
    // Someone named just before a clause that tells about them ("… to my flatmate Ana Ruiz,
    // she is undocumented"), whose special-category data went, goes with it.
    let antecedent_of_dropped = ci.is_some_and(|i| {
        clause.is_some_and(|c| !c.contact_ask && last_in_clause(r, c, s)) && told_next(mv, i)
    });
    let bystander = cut
        || (context_sentence && relation_near(r, s.start) && !own_clause_carries)
        || told_about
        || (subject_of_dropped || antecedent_of_dropped) && matches!(it.kind, PersonName);
    let needs = |kind: PsdKind| {
        cv.recipients.needs(kind)
            || mv.care && super::recipient::Recipients::kind_needs("clinic", kind)
    };
    // An identifier the subject line repeats is what the message is about.
    let in_point = named_in_point(cv, field_span_text(f, it).unwrap_or_default());
    let labelled = |set: WordSet| r.set_word_on_line_before(s.start, set, 3);
    let business = clause.is_some_and(|c| {
        let cw = r.words.get(c.words.clone()).unwrap_or_default();
        vocab().set(WordSet::Business).any_in_langs(
            r.lang,
            cw,
            r.text.get(c.clause.range.clone()).unwrap_or_default(),
        )
    }) || business_in_bracket_after(r, s.end)
        // In the sentence: "Contact: sales@…, +31 20 …".
        || clause.is_some_and(|c| role_mailbox_in(sentence_text(r, c)));
    // "In case you need it, my card number is …": given, not asked for.
    let offered = clause.is_some_and(|c| r.sentence_offers(c.clause.sentence)) && !in_point;
    let text = field_span_text(f, it).unwrap_or_default();
    // A task handed to another agent needs the task, not the profile of the people in it: past
    // the task's first sentence, who they are goes unless the task names them.
    let profile_line = cv.kind == ToolKind::Delegation
        && !(clause.is_some_and(|c| c.clause.sentence == 0) && field_is_task(f))
        && !named_in_point(cv, text);
    // A task that books or files in someone's name may need their date of birth (a flight, a
    // claim); their document numbers stay out unless the task names them.
    if profile_line
        && matches!(
            it.kind,
            DateOfBirth | NationalId | Ssn | TaxId | Passport | DriverLicence | MedicalRecord
        )
        && !(cv.task_needs_birth_date && it.kind == DateOfBirth)
    {
        return Decision::drop(Op::RemoveSpan, Rule::ProfileNotNeeded);
    }
    // A support case named by its reference (a booking, an order, a ticket) is found by it:
    // the writer's documents and date of birth only repeat who they are, and so does a name
    // told beside the case ("Passenger: …", the signature) rather than asked about.
    if cv.kind == ToolKind::Support
        && cv.case_reference
        && (matches!(
            it.kind,
            DateOfBirth | NationalId | Ssn | TaxId | Passport | DriverLicence
        ) || it.kind == PersonName && !r.is_greeting(s.start) && !sentence_asks && !in_point)
    {
        return Decision::drop(Op::RemoveSpan, Rule::IdentifierNotNeeded);
    }
    // A field that holds needs or a complaint holds them, not whose they are: who, their
    // numbers, address and circumstances in brackets are a remark ("Burning on urination
    // since Tuesday (patient Ana Ruiz, SSN …, lives alone)").
    if super::holds_requirements(f.schema_key)
        && clause.is_some_and(|c| c.clause.parenthetical)
        && matches!(
            it.kind,
            PersonName
                | Ssn
                | NationalId
                | Passport
                | TaxId
                | MedicalRecord
                | DateOfBirth
                | StreetAddress
                | Postcode
                | Age
                | Family
                | Gender
                | Occupation
        )
    {
        return Decision::drop(Op::RemoveClause, Rule::RemarkOnValue);
    }
    // The clause keeps something from someone ("my manager Brian doesn't know", "don't tell
    // my boyfriend"): whom, and how they are related to the writer, is not what the reader
    // acts on.
    let kept_from = clause.is_some_and(|c| r.names_in(WordSet::Secrecy, &c.clause.range));
    match it.kind {
        PersonName | Username => {
            if it.detector != HANDLE_DETECTOR && named_by_handle(mv, text) {
                // "User ana_ruiz_2210 (Ana Ruiz)": the account handle finds the person; their
                // name beside it only repeats who it is.
                Decision::drop(Op::RemoveSpan, Rule::IdentifierNotNeeded)
            } else if r.is_greeting(s.start) {
                Decision::keep(Rule::Addressee)
            } else if role_before_dropped(mv, s.start)
                || clinician_of_dropped(mv, s)
                || owner_of_dropped(mv, s)
            {
                // "my oncologist Dr. Lee", "Dr. Klein, my oncologist", "at Dr. Okwu's for my
                // ECT follow-up": the clinician's name tells the treatment.
                Decision::drop(Op::RemoveSpan, Rule::Bystander)
            } else if r.in_quote(s.start) && !in_point {
                // Someone in the quoted or forwarded message below the writer's own (its
                // sender, whom it was about): the reply does not need them again.
                Decision::drop(Op::RemoveSpan, Rule::Bystander)
            } else if in_sig {
                Decision::keep(Rule::Sender)
            } else if bystander
                || kept_from
                // "that's my ex, …", "her ex-husband …", "fostul meu soț, …": the writer tells
                // about a former partner; the message is not for them, nor does it act for them.
                || r.set_word_on_line_before(s.start, WordSet::ExPartner, 4)
            {
                Decision::drop(Op::RemoveSpan, Rule::Bystander)
            } else if cv.kind == ToolKind::Code {
                Decision::drop(Op::Substitute, Rule::PublicWrite)
            } else if profile_line && !cv.task_acts {
                // Who the people of a handed-over task are, past its first sentence, unless
                // the task names them or acts in someone's name (books, files, buys).
                Decision::drop(Op::RemoveSpan, Rule::ProfileNotNeeded)
            } else if cv.kind == ToolKind::Payment && labelled(WordSet::PayerLabel) {
                // "Pagador: Ana Ruiz" in a payment's reference: the payer's bank sends the
                // payer's name with the money.
                Decision::drop(Op::RemoveSpan, Rule::ProfileNotNeeded)
            } else {
                Decision::keep(Rule::SubjectPerson)
            }
        }
        Email | Phone => {
            let role_mailbox = it.kind == Email && role_mailbox_in(text);
            let posted_own =
                public && !cv.workplace && (writers_own(r, clause, s) || !mv.names_person);
            if store || f.role.carries(it.kind) || private_file {
                Decision::keep(Rule::FieldCarriesThisData)
            } else if r.in_quote(s.start) && !in_point {
                // A contact in the quoted or forwarded message below the writer's own.
                Decision::drop(Op::RemoveSpan, Rule::ContactNotAsked)
            } else if clause.is_some_and(|c| c.contact_refused) {
                // "Don't call my work line, 555-…": the reader is told not to use it.
                Decision::drop(Op::RemoveSpan, Rule::ContactNotAsked)
            } else if role_mailbox {
                Decision::keep(Rule::BusinessContact)
            } else if cv.kind == ToolKind::Route && !f.role.carries(it.kind) {
                // A note to a driver: the ride's platform puts the driver through to the
                // rider; a number or an address in the note is not how they reach them.
                Decision::drop(Op::RemoveSpan, Rule::ContactNotAsked)
            } else if (sentence_asks || states_task) && !in_sig && !bystander && !public {
                // "Please send the pack to Ana (ana@…)", "Find a slot next week for Ana Ruiz
                // (ana@…)": the request uses it.
                Decision::keep(Rule::ContactRequested)
            } else if labelled(WordSet::AccountRef) && !public {
                // "Account e-mail: …": the key the recipient finds the account by.
                Decision::keep(Rule::IdentifierForRecipient)
            } else if business && !bystander {
                // A business's line or desk is not a person's contact.
                Decision::keep(Rule::BusinessContact)
            } else if let Some(op) = relatives_line(cv, f, r, it, s) {
                Decision::drop(op, Rule::ContactNotAsked)
            } else if (asked || in_list(r, s.start))
                && !in_sig
                // A relative's or an associate's contact goes with them, asked for or not.
                && !bystander
                // A number or an address posted where the public reads it (not a workplace's
                // channel) is no one's to use unless the text names whose: the writer's own
                // goes.
                && !posted_own
            {
                // Asked for, or given as an entry of a list of contacts ("1. Ana Ruiz,
                // ana@…"): the reader is to use them.
                Decision::keep(Rule::ContactRequested)
            } else if !public && !in_sig && !bystander && needs(it.kind) {
                Decision::keep(Rule::IdentifierForRecipient)
            } else if it.kind == Phone && in_sig && !public && arranges_call(r) {
                // The writer's own number under a message that sets up a call or a visit
                // ("Tuesday works for a call", "could you send someone"): the reader rings back.
                Decision::keep(Rule::ContactRequested)
            } else {
                Decision::drop(Op::RemoveSpan, Rule::ContactNotAsked)
            }
        }
        Iban | BankAccount => {
            if cv.kind == ToolKind::Payment
                || cv.pay_me()
                || cv.pay_account()
                || mv.pays(s.start)
                || !offered && (needs(it.kind) || !bystander && r.answers_at(s.start))
                || in_point
            {
                Decision::keep(Rule::AccountForPayment)
            } else {
                Decision::drop(Op::RemoveSpan, Rule::IdentifierNotNeeded)
            }
        }
        CardNumber => {
            let digits = text.chars().filter(|c| c.is_numeric()).count();
            let folded = text.to_lowercase();
            // A card's security code charges the card: only a payment takes it.
            const CODE_WORDS: [&str; 6] =
                ["cvv", "cvc", "cv2", "cvv2", "prufnummer", "cryptogramme"];
            // Its expiry date, too, is a detail that charges the card.
            let security_code = it.detector == EXPIRY_DETECTOR
                || CODE_WORDS.iter().any(|w| folded.contains(w))
                || folded.contains("security code")
                || r.words_before_on_line(s.start, 2)
                    .iter()
                    .any(|w| CODE_WORDS.contains(&w.folded.as_ref()));
            // A payment charges the card it is given, unless the number is offered in a note
            // "in case you need it": the payment has its own field for the card.
            if cv.kind == ToolKind::Payment && !offered {
                Decision::keep(Rule::IdentifierForRecipient)
            } else if security_code {
                Decision::drop(Op::RemoveSpan, Rule::IdentifierNotNeeded)
            } else if (1..=4).contains(&digits) && !public {
                // "the card ending 4417": a reference, not the number (a number spelled out
                // in words, with no digit written, is a whole card number).
                Decision::keep(Rule::IdentifierForRecipient)
            } else if !offered && needs(CardNumber) || in_point {
                // A recipient who looks into a charge tells the card by its last digits
                // ("card ending 6467"); nobody but a payment needs the whole number.
                Decision::drop(Op::Generalize, Rule::CardLastFour)
            } else {
                Decision::drop(Op::RemoveSpan, Rule::IdentifierNotNeeded)
            }
        }
        AccountId => {
            // A member, order or booking number is for the body that issued it: a service
            // about accounts, orders or bookings, or a recipient who needs it.
            let service = matches!(
                cv.kind,
                ToolKind::Payment
                    | ToolKind::Support
                    | ToolKind::Shopping
                    | ToolKind::Travel
                    | ToolKind::HealthCare
                    | ToolKind::Crm
                    | ToolKind::Delegation
                    | ToolKind::Files
            );
            if public || bystander || !(service || needs(AccountId) || in_point) {
                Decision::drop(Op::RemoveSpan, Rule::IdentifierNotNeeded)
            } else {
                Decision::keep(Rule::IdentifierForRecipient)
            }
        }
        Ssn | Passport | NationalId | DriverLicence | TaxId | MedicalRecord | DateOfBirth => {
            // The writer's own number under a message that identifies its subject by theirs
            // ("an appointment for my mother, CPF … / Obrigada, Ana – CPF …").
            let writers_extra =
                in_sig && matches!(it.kind, NationalId | Ssn | TaxId) && mv.id_before_signature;
            // A tax number where the writer's pay goes ("salary details", "Gehaltskonto"):
            // the payer reports what it pays under that number.
            let payroll = it.kind == TaxId && (cv.pay_me() || cv.pay_account());
            // A tax number told in a company's record (a CRM's `create_company`, a vendor's
            // profile) is the company's, a public detail like its address.
            // So is a tax or registration number told in a sentence that names a company by
            // its legal form ("Vasilescu SRL, CUI RO…", "Παπαδόπουλος ΑΕ, ΑΦΜ …"), unless the
            // writer says it is theirs.
            let company_sentence = it.kind == TaxId
                && clause
                    .is_some_and(|c| !c.first_person && names_company_form(sentence_text(r, c)));
            let company = matches!(it.kind, TaxId | NationalId)
                && !bystander
                && (it.kind == TaxId
                    && crate::text::words::any_identifier_word(cv.tool.name(), |w| {
                        COMPANY_RECORDS.contains(&w)
                    })
                    || company_sentence);
            if company && !public {
                return Decision::keep(Rule::BusinessContact);
            }
            // The number the subject line repeats is what the message is about, even in a
            // clause cut for what else it tells ("(A-number …, receipt …)").
            if !public
                && !writers_extra
                && (in_point
                    || !bystander
                        // Needed by the recipient, or handed over as the reader asked
                        // ("Here's what you asked for: - SSN: …", "voici mon numéro fiscal").
                        && (!offered && (needs(it.kind) || r.answers_at(s.start))
                            || payroll
                            || cv.kind == ToolKind::Database && it.kind == DateOfBirth))
            {
                Decision::keep(Rule::IdentifierForRecipient)
            } else {
                // "My SSN is … in case you need it": a sentence that asks nothing and only
                // offers the identifier goes whole, its label and its "in case" with it.
                let op = if writers_extra {
                    // The number only: the writer's name before it signs the message.
                    Op::RemoveSpan
                } else if offered
                    && f.role != FieldRole::Title
                    && !clause.is_some_and(|c| r.is_request_sentence(c.clause.sentence))
                {
                    Op::RemoveSentence
                } else {
                    mv.unit(s, f.role == FieldRole::Title)
                };
                Decision::drop(op, Rule::IdentifierNotNeeded)
            }
        }
        Credential => Decision::drop(Op::RemoveSpan, Rule::IdentifierNotNeeded),
        IpAddress | MacAddress => {
            // A machine's address in a technical record is the machine's; next to a person
            // ("the customer's IP", "my router", "your modem") it is theirs.
            let technical = matches!(
                cv.kind,
                ToolKind::Support | ToolKind::Files | ToolKind::Code | ToolKind::Database
            );
            let about_person = r.sentence_clauses(s.start).any(|c| {
                let cw = r.words.get(c.words.clone()).unwrap_or_default();
                let raw = r.text.get(c.clause.range.clone()).unwrap_or_default();
                let v = vocab();
                [
                    WordSet::PersonRef,
                    WordSet::FirstPerson,
                    WordSet::SecondPerson,
                    WordSet::ThirdPerson,
                ]
                .iter()
                .any(|set| v.set(*set).any_in_langs(r.lang, cw, raw))
            });
            if technical && !about_person && !bystander {
                Decision::keep(Rule::MachineAddress)
            } else {
                Decision::drop(Op::RemoveSpan, Rule::IdentifierNotNeeded)
            }
        }
        StreetAddress | Postcode | Coordinates | Place => {
            // Where someone lives ("he lives at …", "Home: …") is their profile, for a
            // recipient who has no use for it.
            // A postcode ends the address the residence words opened ("lives at 12 Elm St,
            // Springfield, IL 62704"): it looks further back.
            let reach = if it.kind == Postcode { 12 } else { 4 };
            // Not a word of a venue's name ("dinner at Casa Ana, Calle Mayor 5"). A street the
            // residence detector found ("I live on …") is a home whatever the words before.
            let lives_there = || {
                let before = r.words_before_on_line(s.start, reach);
                let residence = vocab().set(WordSet::Residence);
                (0..before.len()).any(|i| {
                    residence.match_in(r.lang, before, i).is_some()
                        && !(before.get(i).is_some_and(|w| vocab::name_cased(r.text, w))
                            && before.get(i + 1).is_some_and(|n| {
                                n.raw.chars().next().is_some_and(char::is_uppercase)
                            }))
                })
            };
            let home = it.kind != Place && (it.detector == "residence" || lives_there());
            // Where a contact lives or comes from, told in a record's note ("lives at …",
            // "moved to Naperville"): the record keeps an address in its own fields, if at all.
            let record_note = cv.kind == ToolKind::Crm
                && f.role == FieldRole::Message
                && !f.role.carries(it.kind)
                && (home || it.kind == StreetAddress || it.kind == Place && lives_there());
            // A relative's town, told by the way ("her ex-husband in Leeds", "my parents, who
            // live in Tucson"), is where that relative lives: the message is not about it
            // unless it asks something of it or its point names it.
            let kin_town =
                it.kind == Place && !sentence_asks && !in_point && r.relation_within(s.start, 6);
            // A school, a nursery or a day care told by the way ("Maple Grove Elementary
            // called"): where a child spends the day, which the reader needs only when the
            // message asks something of it or is about it.
            let school_aside = it.kind == Place
                && it.detector == "school"
                && !sentence_asks
                && !in_point
                && !public
                // Where the clause that carries the message's facts sends the reader ("el
                // viernes recoge a Pablo a las 17:00 en la guardería …"): where to go.
                && !own_clause_carries;
            // The town in a handed-over task's profile ("Lives in Tucson") when the task asks
            // nothing that depends on where its people are (a federal rule, a definition).
            let profile_town = it.kind == Place
                && profile_line
                && !cv.task_local
                && vocab().set(WordSet::Residence).any_in_langs(
                    r.lang,
                    r.words_before_on_line(s.start, 3),
                    "",
                );
            // A venue's address told after its name ("dinner at Casa Ana, Calle Mayor 5",
            // "lunch at The Crown (12 High St)") is where to go, not anyone's home: a
            // business's address is public, posted publicly or not. Posted publicly, one after
            // a possessive ("pickups at Sofia's (Via Roma 12)") may be someone's home.
            let possessive = || {
                r.words_before_on_line(s.start, 1)
                    .last()
                    .is_some_and(|w| w.raw.ends_with("'s") || w.raw.ends_with("’s"))
            };
            // A business named before it by what it is, not by whose ("their new shop at 22
            // Mill Lane", "the restaurant on …"; not "my office at …").
            let business_before = || {
                let before = r.words_before_on_line(s.start, 4);
                let v = vocab();
                let business = v.set(WordSet::Business);
                (0..before.len()).any(|i| business.match_in(r.lang, before, i).is_some())
                    && !before
                        .iter()
                        .any(|w| v.set(WordSet::FirstPerson).has_word(&w.folded))
            };
            let venue = it.kind == StreetAddress
                && !home
                && !in_sig
                && (!(public && possessive())
                    && super::query::after_public_name(r, s, &mv.person_names)
                    || business_before());
            // Where an event the post announces takes place ("LAN party at my place Saturday
            // 6pm - 88 Oak Rd"): its readers need it to come, posted publicly or not.
            let event_place = public
                && it.kind == StreetAddress
                && !in_sig
                && !cut
                && r.sentence_clauses(s.start).any(|c| {
                    r.words
                        .get(c.words.clone())
                        .unwrap_or_default()
                        .iter()
                        .any(|w| EVENTS.contains(&w.folded.as_ref()))
                });
            if cv.address_change && !cut && !in_sig && !kin_town && it.kind != Coordinates {
                // "Changement d'adresse: … au 17 rue …": the new street is what the call
                // tells the reader.
                Decision::keep(Rule::PointOfMessage)
            } else if venue && !cut {
                Decision::keep(Rule::PublicPlace)
            } else if event_place && !(home && lives_there()) {
                Decision::keep(Rule::MeetingPoint)
            } else if record_note && !cut {
                Decision::drop(mv.unit(s, false), Rule::ContactNotAsked)
            } else if cut
                || in_sig && it.kind != Place
                || public && it.kind != Place
                || home && !needs(StreetAddress) && !matches!(cv.kind, ToolKind::Crm)
                || kin_town
                || school_aside
            {
                Decision::drop(Op::RemoveSpan, Rule::ContactNotAsked)
            } else if profile_town {
                Decision::drop(
                    mv.unit(s, f.role == FieldRole::Title),
                    Rule::ProfileNotNeeded,
                )
            } else if profile_line && !cv.task_needs_address && it.kind != Place {
                // A handed-over task that delivers, fetches or repairs nothing at someone's
                // door needs at most the town of the people in it, not their street (a hotel,
                // a flight, a table).
                Decision::drop(Op::Generalize, Rule::CityLevelForPurpose)
            } else {
                Decision::keep(Rule::PointOfMessage)
            }
        }
        Age | Gender | Occupation | Family | Preference => {
            // A contact's record keeps the trade and the preferences it is for; their family,
            // age and gender told in its note are about the person, not the business.
            let kept = cv.kind == ToolKind::Database
                || cv.kind == ToolKind::Crm && matches!(it.kind, Occupation | Preference);
            if kept && !cut {
                Decision::keep(Rule::PrivateStore)
            } else if it.kind == Family
                && cv.recipients.is("legal")
                && !cut
                && !clause.is_some_and(|c| c.reason || c.third_person || c.clause.parenthetical)
                && !r.names_in(WordSet::Relation, s)
            {
                // The writer's own family matter told to their lawyer ("the hearing in our
                // divorce case has been moved"): the case the lawyer acts on.
                Decision::keep(Rule::IdentifierForRecipient)
            } else if cv.kind == ToolKind::Payment && s.start >= reference_head(r.text) {
                // Past a payment reference's head, a relative or a profile word tells why it
                // is paid ("Candles - in memory of my father"): the part after the dash goes.
                Decision::drop(Op::RemoveSegment, Rule::ProfileNotNeeded)
            } else if cv.kind == ToolKind::Crm
                && matches!(it.kind, Family | Age | Gender)
                && !f.role.carries(it.kind)
                && !clause.is_some_and(|c| c.request)
                && !ci.is_some_and(|i| mv.kept_in(i))
            {
                // A contact record's note that tells the person's family, age or gender
                // ("Divorced, two kids", "Widow, son abroad"): the business does not need it.
                Decision::drop(Op::RemoveClause, Rule::ProfileNotNeeded)
            } else if f.role == FieldRole::Title && ci == Some(0) {
                // A title's first words say what it is for ("Child support June").
                Decision::keep(Rule::PointOfMessage)
            } else if it.kind == Family
                && clause
                    .is_some_and(|c| (c.reason || c.third_person) && !c.request && !c.contact_ask)
                && !own_clause_carries
                && !cut
            {
                // Someone's family matters told about them by the way, in a clause that asks
                // and carries nothing ("…, he is getting divorced"): the clause goes.
                Decision::drop(Op::RemoveClause, Rule::ProfileNotNeeded)
            } else if cut
                // A relation whose own clause carries the news ("my son will be absent
                // tomorrow, because of …") says who the news is about: it stays.
                || context_sentence
                    && matches!(it.kind, Family | Age)
                    // What the subject line names ("Maternity leave - paperwork") is the news.
                    && !(it.kind == Family && in_point)
                    && !(it.kind == Family && own_clause_carries && relation_near(r, s.end))
                || public && !matches!(it.kind, Occupation)
                // Where someone works, in a handed-over task's profile or in a clause whose
                // special-category data went ("my discrimination case against Acme Corp"),
                // singles them out and is not what the reader acts on.
                || it.kind == Occupation
                    && (profile_line && !cv.task_acts || subject_of_dropped)
                || kept_from && matches!(it.kind, Family | Occupation)
                // The company someone works for, told to a carer, a travel or shop order or a
                // route: none of them acts on it ("I work nights at the Dunmore depot",
                // "travelling for an interview at Siemens").
                || it.detector == EMPLOYER_DETECTOR
                    && !in_point
                    && !f.role.carries(it.kind)
                    && matches!(
                        cv.kind,
                        ToolKind::HealthCare
                            | ToolKind::Travel
                            | ToolKind::Shopping
                            | ToolKind::Route
                            | ToolKind::Places
                            | ToolKind::Weather
                    )
            {
                Decision::drop(Op::RemoveSpan, Rule::ProfileNotNeeded)
            } else if it.kind == Family
                && !own_clause_carries
                && !in_point
                && !r.names_in(WordSet::Relation, s)
                && !text.contains(|c: char| c.is_ascii_digit())
            {
                // A family status told in a clause that carries nothing the reader acts on
                // ("we are divorcing", "widowed last year") tells about the writer's life. A
                // relative named ("my daughter will be absent") is who the news is about, and
                // a count ("a family of 4") is how many travel.
                Decision::drop(
                    mv.unit(s, f.role == FieldRole::Title),
                    Rule::ProfileNotNeeded,
                )
            } else {
                Decision::keep(Rule::SubjectPerson)
            }
        }
        MoneyAmount => {
            if cut {
                Decision::drop(Op::RemoveSpan, Rule::ProfileNotNeeded)
            } else {
                Decision::keep(Rule::PointOfMessage)
            }
        }
        _ => {
            if cut || public {
                Decision::drop(Op::RemoveSpan, Rule::NotTheTopic)
            } else {
                Decision::keep(Rule::SubjectPerson)
            }
        }
    }
}

/// The detector that reports the organisation someone works for.
const EMPLOYER_DETECTOR: &str = "employer";

/// The detector that reports a card's expiry date beside its number.
const EXPIRY_DETECTOR: &str = "card_expiry";

/// The detector that reports account handles (`ana_ruiz_2210`) as names.
const HANDLE_DETECTOR: &str = "person_name:handle";

/// Whether every word of the name `text` (two at least) is a word of one handle of the text.
fn named_by_handle(mv: &MsgView<'_, '_>, text: &str) -> bool {
    if mv.handles.is_empty() {
        return false;
    }
    let ws = crate::text::words::words(text);
    ws.len() >= 2
        && mv.handles.iter().any(|h| {
            ws.iter()
                .all(|w| w.folded.chars().count() >= 2 && h.iter().any(|x| *x == *w.folded))
        })
}

/// Whether byte `at` lies on a line that is a list entry ("1. …", "- …", "• …").
fn in_list(r: &Reading<'_>, at: usize) -> bool {
    let line = r.text.get(r.line_start(at)..at).unwrap_or_default();
    let t = line.trim_start();
    t.starts_with(['-', '*', '•'])
        || t.split_once(['.', ')']).is_some_and(|(n, _)| {
            !n.is_empty() && n.len() <= 2 && n.chars().all(|c| c.is_ascii_digit())
        })
}

/// Whether a role that tells a treatment or a case ("my oncologist", "her parole officer")
/// was dropped just before `at`.
fn role_before_dropped(mv: &MsgView<'_, '_>, at: usize) -> bool {
    let i = mv
        .dropped_roles
        .partition_point(|r| r.end <= at.saturating_sub(24));
    mv.dropped_roles
        .get(i..)
        .unwrap_or_default()
        .iter()
        .take_while(|r| r.end <= at)
        .any(|r| {
            mv.r.text.get(r.end..at).is_some_and(|gap| {
                gap.split_whitespace().count() <= 2 && !gap.contains(['.', ',', ';'])
            })
        })
}

/// Titles of physicians written before their names.
const CLINICIAN_TITLES: &[&str] = &[
    "dr",
    "dra",
    "drs",
    "doctor",
    "doctora",
    "doktor",
    "docteur",
    "dott",
    "dottssa",
    "dottoressa",
];

/// Whether the name at `s` carries a physician's title ("Dr. Klein", "Dra. Ruiz").
fn is_titled(r: &Reading<'_>, s: &Range<usize>) -> bool {
    let own = r.text.get(s.clone()).unwrap_or_default();
    let first = own
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or_default();
    CLINICIAN_TITLES.contains(&fold_term(first).as_str())
        || r.words_before_in_clause(s.start)
            .last()
            .is_some_and(|w| CLINICIAN_TITLES.contains(&w.folded.as_ref()))
}

/// Whether the name at `s` is a clinician's that tells a treatment the message no longer
/// tells: a dropped role right after it ("Dr. Klein, my oncologist"), a dropped role right
/// before a titled name set off by a comma ("my psychiatrist, Dr. Brooks"), or a titled
/// name in a clause whose health data went ("at Dr. Okwu's for my ECT follow-up").
fn clinician_of_dropped(mv: &MsgView<'_, '_>, s: &Range<usize>) -> bool {
    let text = mv.r.text;
    // Nothing but a comma (and the title the name's span leaves out) between the two.
    let comma_gap = |from: usize, to: usize| {
        text.get(from..to).is_some_and(|g| {
            let g = g.trim().trim_start_matches(',').trim();
            let g = g.strip_suffix('.').unwrap_or(g);
            g.is_empty() || CLINICIAN_TITLES.contains(&fold_term(g).as_str())
        })
    };
    let roles = &mv.dropped_roles;
    let next_role = roles.partition_point(|r| r.start < s.end);
    if roles
        .get(next_role)
        .is_some_and(|r| comma_gap(s.end, r.start))
    {
        return true;
    }
    if !is_titled(mv.r, s) {
        return false;
    }
    let prev_role = roles.partition_point(|r| r.start < s.start);
    if prev_role
        .checked_sub(1)
        .and_then(|i| roles.get(i))
        .is_some_and(|r| r.end <= s.start && comma_gap(r.end, s.start))
    {
        return true;
    }
    let Some(c) = mv.r.clause_at(s.start) else {
        return false;
    };
    let h = &mv.dropped_health;
    let first = h.partition_point(|x| x.start < c.clause.range.start);
    h.get(first).is_some_and(|x| x.start < c.clause.range.end)
}

/// Whether the name at `s` owns, by a possessive, special-category data that went ("after
/// Noah's Bar Mitzvah", "Dana's chemo"): the name would still say whose it was.
fn owner_of_dropped(mv: &MsgView<'_, '_>, s: &Range<usize>) -> bool {
    let text = mv.r.text;
    let own = text.get(s.clone()).unwrap_or_default();
    let after = text.get(s.end..).unwrap_or_default();
    let possessive = own.ends_with("'s") || own.ends_with("’s");
    let rest = if possessive {
        Some(after)
    } else {
        after
            .strip_prefix("'s")
            .or_else(|| after.strip_prefix("’s"))
    };
    let Some(rest) = rest else {
        return false;
    };
    if !rest.starts_with(char::is_whitespace) {
        return false;
    }
    let from = text.len() - rest.len();
    let h = &mv.dropped_special;
    let first = h.partition_point(|x| x.start < from);
    h.get(first).is_some_and(|x| {
        text.get(from..x.start).is_some_and(|gap| {
            gap.split_whitespace().count() <= 1 && !gap.contains([',', '.', ';'])
        })
    })
}

/// Whether a sentence before the signature sets up a call or a visit.
fn arranges_call(r: &Reading<'_>) -> bool {
    let arranging = r.sentences_with(WordSet::Arrange);
    r.clauses.iter().any(|c| {
        !r.in_signature(c.clause.range.start)
            && arranging.get(c.clause.sentence).copied().unwrap_or(false)
    })
}

/// Whether a relation word ("my son", "his wife") stands within two words before `at`.
/// Whether a colleague, a neighbour or a friend word ("my colleague", "ma voisine") stands
/// just before `at`, in its clause, and no label does ("Approver: my manager …" gives the
/// person the reader needs).
fn associate_near(r: &Reading<'_>, at: usize) -> bool {
    let before = r.words_before_in_clause(at);
    let Some(first) = before.first() else {
        return false;
    };
    let from = first.range.start.saturating_sub(MAX_LABEL_LOOK_BACK);
    if sentence_head(r, from, at).contains(':') {
        return false;
    }
    // "a card for my colleague …": whom the task is for is its subject.
    r.set_word_before(at, WordSet::Associate, 2)
        .is_some_and(|i| {
            !before
                .get(i.saturating_sub(2)..i)
                .unwrap_or_default()
                .iter()
                .any(|w| FOR_SOMEONE.contains(&w.folded.as_ref()))
        })
        || appositive_associate(r, at, before.len())
}

/// Whether the name at `at` stands in apposition to an associate named just before, across
/// a comma ("my neighbour, Mrs Ana Ruiz, …", "la vecina del 4ºA, Doña …"): at most a title
/// opens the name's clause, and the words before it on the line end with the associate.
fn appositive_associate(r: &Reading<'_>, at: usize, in_clause: usize) -> bool {
    if in_clause > 1 {
        return false;
    }
    let line = r.words_before_on_line(at, 5);
    let n = line.len();
    let terms = vocab().set(WordSet::Associate);
    let cut = n.saturating_sub(in_clause);
    let before_comma = line.get(..cut).unwrap_or_default();
    (before_comma.len().saturating_sub(3)..before_comma.len())
        .any(|i| terms.match_in(r.lang, before_comma, i).is_some())
        && line.get(cut.saturating_sub(1)).is_some_and(|w| {
            r.text
                .get(w.range.end..)
                .is_some_and(|t| t.starts_with(','))
        })
}

/// Prepositions of whom something is for ("for", "für", "pour", "dla", "pro").
const FOR_SOMEONE: &[&str] = &[
    "for", "fur", "pour", "para", "per", "voor", "dla", "til", "pro",
];

/// Whether a relative ("my son", "ma fille") stands among the last three words before `at`,
/// in its clause.
fn relation_near(r: &Reading<'_>, at: usize) -> bool {
    r.set_word_before(at, WordSet::Relation, 3).is_some()
}

/// The bytes of sentence `n`: from its first clause to the end of its last.
fn sentence_bytes(r: &Reading<'_>, n: usize) -> Option<Range<usize>> {
    let cl = r.sentence_range(n);
    let first = r.clauses.get(cl.start)?;
    let last = r.clauses.get(cl.end.checked_sub(1)?)?;
    Some(first.clause.range.start..last.clause.range.end)
}

/// Whether the bracketed clause `c` holds the item at `s` and at most one word besides
/// ("(OQTF)", "(case 24-TR-0185)"): a gloss of what the sentence names, not an aside.
fn is_gloss(r: &Reading<'_>, c: &ClauseInfo, s: &Range<usize>) -> bool {
    r.words
        .get(c.words.clone())
        .unwrap_or_default()
        .iter()
        .filter(|w| w.range.end <= s.start || w.range.start >= s.end)
        .nth(1)
        .is_none()
}

/// The text of the sentence the clause `c` is in.
fn sentence_text<'a>(r: &Reading<'a>, c: &ClauseInfo) -> &'a str {
    let range = sentence_bytes(r, c.clause.sentence).unwrap_or_else(|| c.clause.range.clone());
    r.text.get(range).unwrap_or_default()
}

/// Whether `text` holds an e-mail address of a role, not a person (`sales@…`, `info@…`,
/// `support@…`): the address itself, or the contacts told beside it, are the organisation's.
fn role_mailbox_in(text: &str) -> bool {
    text.match_indices('@').any(|(at, _)| {
        let head = text.get(..at).unwrap_or_default();
        let local = head
            .rsplit(|c: char| c.is_whitespace() || matches!(c, '<' | '(' | ',' | ':' | ';'))
            .next()
            .unwrap_or_default();
        let ws = crate::text::words::words(local);
        ws.first()
            .is_some_and(|w| vocab().set(WordSet::RoleMailbox).has_word(&w.folded))
    })
}

/// Whether a bracket right after a contact names a business ("02-555-0198 (Siam Pack Co.,
/// Ltd.)", "(บริษัท … จำกัด)"): the line is the company's, wherever the text's clauses end.
fn business_in_bracket_after(r: &Reading<'_>, end: usize) -> bool {
    let rest = r.text.get(end..).unwrap_or_default();
    let trimmed = rest.trim_start_matches([' ', '\u{a0}']);
    let Some(inner) = trimmed
        .strip_prefix('(')
        .or_else(|| trimmed.strip_prefix('（'))
    else {
        return false;
    };
    let Some(close) = inner.find([')', '）']) else {
        return false;
    };
    let start = r.text.len() - inner.len();
    let range = start..start + close;
    let first = r.words.partition_point(|w| w.range.start < range.start);
    let last = r.words.partition_point(|w| w.range.end <= range.end);
    let words = r.words.get(first..last.max(first)).unwrap_or_default();
    vocab().set(WordSet::Business).any_in_langs(
        r.lang,
        words,
        r.text.get(range).unwrap_or_default(),
    )
}

/// Whether the clause `c` names by a capitalised word outside every item someone the subject
/// line names too ("Liva Sundqvist (3C) - new inhaler" — "Liva's new inhaler is in her
/// bag"): a first name alone is often not read as a name, yet it says whom the clause is
/// about. A possessive ending is read off.
fn point_person_word(
    cv: &CallView<'_>,
    r: &Reading<'_>,
    c: &ClauseInfo,
    psd: &[Range<usize>],
) -> bool {
    r.words
        .get(c.words.clone())
        .unwrap_or_default()
        .iter()
        .any(|w| {
            w.raw.chars().next().is_some_and(char::is_uppercase)
                && w.folded.chars().count() >= 3
                && !psd
                    .iter()
                    .any(|p| p.start < w.range.end && w.range.start < p.end)
                && {
                    let f: &str = &w.folded;
                    let bare = f
                        .strip_suffix("'s")
                        .or_else(|| f.strip_suffix("\u{2019}s"))
                        .unwrap_or(f);
                    cv.point_words.iter().any(|p| p == bare)
                }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sick_leave_words() {
        assert!(is_sick_leave("off sick"));
        assert!(is_sick_leave("krankgeschrieben"));
        assert!(!is_sick_leave("chemotherapy"));
        assert!(is_sick_leave("en arrêt maladie"));
        assert!(is_sick_leave("en congé maladie"));
        assert!(is_sick_leave("sono in malattia"));
        assert!(!is_sick_leave("maladie de Crohn"));
        assert!(!is_sick_leave("une maladie rare"));
        assert!(!is_sick_leave("malattia di Crohn"));
    }
}
