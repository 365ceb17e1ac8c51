//! Free text that is a search: it keeps what it searches for and loses the user's story.
//!
//! A search's topic is what it asks about; a personal turn ("for my mother", "I have", "since
//! I …"), a parenthetical, a reason or an appendix after a dash tells about the user and is
//! context. Special-category data in the topic stays ("metformin side effects",
//! "clopidogrel interaction with omeprazole"); in the context it goes. Once a search that asked
//! something turns to who a person is — a street, a number that identifies them, a name after
//! a relation word — what follows describes that person and is context too ("dermatologist
//! Lyon Saturday, NIR …, psoriasis" looks for a dermatologist). A person the search is
//! about (a public figure, an author) stays with the facts asked about them; in a search of
//! the user's own mail, calendar or files, names and addresses are the search keys.

use std::ops::Range;

use super::reading::Reading;
use super::vocab::{WordSet, vocab};
use super::{CallView, Decision, FieldCtx, Op, Rule, is_special};
use crate::decide::purpose::ToolKind;
use crate::item::{PsdItem, PsdKind};

/// Search operators whose operand is what the search is for (`from:ana@…`).
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
    "with:",
    "attendee:",
    "organizer:",
    // Issue trackers' and error monitors' filters on a person or an account (GitHub,
    // Jira, Zendesk, Sentry): `mentions:`, `reporter:`, `user.id:`, `customer_id:`.
    "mentions:",
    "involves:",
    "commenter:",
    "reviewed-by:",
    "reporter:",
    "requester:",
    "owner:",
    "creator:",
    "sender:",
    "recipient:",
    "participant:",
    "customer:",
    ".id:",
    "_id:",
    ".email:",
    ".username:",
];

struct QueryView {
    /// Per clause: where a personal turn starts, if it does.
    personal_from: Vec<Option<usize>>,
    /// The segment that asks the search's question, when the first only says who the user is.
    topic_segment: Option<usize>,
    /// Per clause: the whole clause is an aside (parenthetical, reason, later segment).
    aside: Vec<bool>,
    /// Per clause: its personal turn opens a run of an unspaced script with the writer as
    /// subject ("我有…", "私は…", "저는"): a statement of the writer's, not a "for my".
    stated: Vec<bool>,
}

fn view(
    cv: &CallView<'_>,
    r: &Reading<'_>,
    flags: &[bool],
    sensitive: &[Range<usize>],
    profile: &[Range<usize>],
    story: &[Range<usize>],
) -> QueryView {
    let v = vocab();
    let mut personal_from = Vec::with_capacity(r.clauses.len());
    let mut aside = Vec::with_capacity(r.clauses.len());
    let mut stated = Vec::with_capacity(r.clauses.len());
    let first_segment_has_words = r.segments.first().is_some_and(|s| {
        r.text
            .get(s.clone())
            .is_some_and(|t| t.chars().any(char::is_alphanumeric))
    });
    // When the first segment is only the user's data ("12 Elm St, asthma - pharmacies open
    // late") and a later one asks the question, the later one is the topic.
    // After a story, the question runs to the end ("… — is X safe? X Y interaction"); after
    // a profile, what follows the question is another appendix.
    let (topic_segment, to_end) = topic_segment(r, flags, sensitive, profile, story).unzip();
    let to_end = to_end.unwrap_or(false);
    let asks = |s: &Range<usize>| segment_asks(r, s);
    let asks_first = r.segments.first().is_some_and(asks);
    // A search that asks its question first ("is turmeric safe? warfarin turmeric
    // interaction") goes on with the terms of that question in its later segments; a later
    // segment of search terms that asks ("… near Deptford — which ones stock insulin pens?")
    // asks the search's question too. Neither when it turns to the user or names someone.
    let plain: Vec<bool> = if topic_segment.is_none() && r.text.contains(['?', '？']) {
        plain_segments(r, story, profile)
            .into_iter()
            .zip(&r.segments)
            .map(|(p, s)| p && (asks_first || asks(s)))
            .collect()
    } else {
        Vec::new()
    };
    // Read only when a clause stands in brackets.
    let boolean_text = r.clauses.iter().any(|c| c.clause.parenthetical) && joins_groups(r.text);
    for c in &r.clauses {
        let cw = r.words.get(c.words.clone()).unwrap_or_default();
        let spaced = (c.may_match(WordSet::PersonalTurn) || c.may_match(WordSet::Relation))
            .then(|| {
                (0..cw.len()).find(|&i| {
                    v.set(WordSet::PersonalTurn)
                        .match_in(r.lang, cw, i)
                        .is_some()
                        || v.set(WordSet::Relation).match_in(r.lang, cw, i).is_some()
                })
            })
            .flatten();
        // In a script written without spaces the turn opens a run of text ("我有糖尿病").
        let unspaced = spaced.is_none()
            && super::vocab::may_hold_unspaced(r.text.get(c.clause.range.clone()).unwrap_or(""));
        let unspaced = unspaced
            .then(|| {
                cw.iter()
                    .position(|w| v.set(WordSet::PersonalTurn).opens_unspaced(r.lang, w.raw))
            })
            .flatten();
        let turn = spaced.or(unspaced);
        stated.push(turn.and_then(|i| cw.get(i)).is_some_and(|w| {
            w.raw
                .chars()
                .next()
                .is_some_and(super::vocab::is_unspaced_script)
        }));
        personal_from.push(turn.and_then(|i| cw.get(i)).map(|w| w.range.start));
        let seg = r.segment_index(c.clause.range.start);
        let later_segment = match topic_segment {
            Some(t) if to_end => seg.is_some_and(|s| s < t),
            Some(t) => seg.is_some_and(|s| s != t),
            None => {
                first_segment_has_words
                    && seg.is_some_and(|s| s > 0)
                    && !seg.is_some_and(|s| plain.get(s).copied().unwrap_or(false))
            }
        };
        let parenthetical =
            c.clause.parenthetical && !(boolean_text || boolean_group(r.text, &c.clause.range));
        aside.push(parenthetical || c.reason || (later_segment && cv.kind != ToolKind::SearchOwn));
    }
    QueryView {
        personal_from,
        aside,
        stated,
        topic_segment,
    }
}

/// Whether `item` ends in the Turkish suffix of "I am" or "my" after a vowel harmony
/// letter only Turkish writes ("şeker hastasıyım", "kanserim" is not: plain ASCII endings
/// are left alone, they end words of other languages).
fn says_i_am(item: &str) -> bool {
    let last = item.rsplit(char::is_whitespace).next().unwrap_or_default();
    last.chars().count() >= 5 && ["ım", "üm"].iter().any(|e| last.ends_with(e))
}

impl QueryView {
    fn in_context(&self, r: &Reading<'_>, span: &Range<usize>) -> bool {
        let Some(ci) = r.clause_index(span.start) else {
            return false;
        };
        self.aside.get(ci).copied().unwrap_or(false)
            || self
                .personal_from
                .get(ci)
                .copied()
                .flatten()
                .is_some_and(|p| {
                    span.start >= p
                        // A language that puts the verb last says "I am" after what the
                        // writer is ("cukorbeteg vagyok"): one the stage does not read
                        // otherwise (in English "therapist for me" is what is searched for).
                        || r.lang == super::vocab::ALL_LANGS
                            && p >= span.end
                            && r.text
                                .get(span.end..p)
                                .is_some_and(|gap| gap.chars().all(char::is_whitespace))
                })
            || says_i_am(r.text.get(span.clone()).unwrap_or_default())
    }

    /// Whether the clause holding `at` is personal from its first word.
    fn personal_clause(&self, r: &Reading<'_>, at: usize) -> bool {
        r.clause_index(at).is_some_and(|ci| {
            ci > 0
                && self
                    .personal_from
                    .get(ci)
                    .copied()
                    .flatten()
                    .zip(r.clauses.get(ci))
                    .is_some_and(|(p, c)| p == c.clause.range.start)
        })
    }

    /// Whether the clause holding `at` states something of the writer's before `at` (see
    /// `stated`) after a content word: "上海 便宜酒店 我有糖尿病" asks for hotels, and then
    /// tells the user's story (`flags`: see [`content_flags`]; a word of two characters of an
    /// unspaced script counts).
    fn asks_before_turn(&self, r: &Reading<'_>, flags: &[bool], at: usize) -> bool {
        let Some(ci) = r.clause_index(at) else {
            return false;
        };
        let (Some(Some(turn)), Some(c)) = (self.personal_from.get(ci), r.clauses.get(ci)) else {
            return false;
        };
        self.stated.get(ci).copied().unwrap_or(false)
            && *turn <= at
            && r.words
                .get(c.words.clone())
                .zip(flags.get(c.words.clone()))
                .is_some_and(|(ws, fs)| {
                    ws.iter().zip(fs).any(|(w, f)| {
                        w.range.end <= *turn
                            && (*f
                                || w.raw
                                    .chars()
                                    .next()
                                    .is_some_and(super::vocab::is_unspaced_script)
                                    && w.raw.chars().nth(1).is_some())
                    })
                })
    }

    fn aside(&self, r: &Reading<'_>, at: usize) -> bool {
        r.clause_index(at)
            .and_then(|ci| self.aside.get(ci))
            .copied()
            .unwrap_or(false)
    }
}

/// Per word: whether it carries content (three letters or more, not a function word, not
/// inside PSD). One pass over the words and the spans, both in text order.
fn content_flags(r: &Reading<'_>, psd: &[Range<usize>]) -> Vec<bool> {
    let v = vocab();
    let mut sorted: Vec<&Range<usize>> = psd.iter().collect();
    sorted.sort_by_key(|p| p.start);
    let mut pi = 0usize;
    let mut reach = 0usize;
    r.words
        .iter()
        .map(|w| {
            while sorted.get(pi).is_some_and(|p| p.start <= w.range.start) {
                reach = reach.max(sorted.get(pi).map_or(0, |p| p.end));
                pi += 1;
            }
            w.range.end > reach
                && w.folded
                    .chars()
                    .filter(|c| c.is_alphabetic())
                    .nth(2)
                    .is_some()
                && !v.is_function(w)
        })
        .collect()
}

/// Per segment: how many content words lie in it (the words that start in it and end in it),
/// in one pass: segments and words are in text order.
fn content_counts(r: &Reading<'_>, flags: &[bool]) -> Vec<usize> {
    let mut a = 0usize;
    let mut b = 0usize;
    r.segments
        .iter()
        .map(|s| {
            while r.words.get(a).is_some_and(|w| w.range.start < s.start) {
                a += 1;
            }
            b = b.max(a);
            while r.words.get(b).is_some_and(|w| w.range.end <= s.end) {
                b += 1;
            }
            flags
                .get(a..b)
                .map_or(0, |f| f.iter().filter(|c| **c).count())
        })
        .collect()
}

/// Whether any of `spans` (sorted by start) starts inside `range`.
fn starts_in(spans: &[Range<usize>], range: &Range<usize>) -> bool {
    let i = spans.partition_point(|p| p.start < range.start);
    spans.get(i).is_some_and(|p| p.start < range.end)
}

/// Per segment: whether it holds only search terms — no clause of it speaks in the first
/// person or turns to someone ("I earn …", "for my mother"), no reason or aside, and it names
/// no one, no age and no address or identifier. After a question ("is turmeric safe?") such a
/// segment goes on with its terms ("warfarin turmeric interaction"). One pass over the
/// clauses.
fn plain_segments(r: &Reading<'_>, story: &[Range<usize>], profile: &[Range<usize>]) -> Vec<bool> {
    let v = vocab();
    let mut plain: Vec<bool> = r
        .segments
        .iter()
        .map(|s| !starts_in(story, s) && !starts_in(profile, s))
        .collect();
    for c in &r.clauses {
        let Some(slot) = r
            .segment_index(c.clause.range.start)
            .and_then(|i| plain.get_mut(i))
        else {
            continue;
        };
        if !*slot {
            continue;
        }
        let cw = r.words.get(c.words.clone()).unwrap_or_default();
        *slot = !c.first_person
            && !c.reason
            && !c.clause.parenthetical
            && !(0..cw.len()).any(|i| {
                v.set(WordSet::PersonalTurn)
                    .match_in(r.lang, cw, i)
                    .is_some()
                    || v.set(WordSet::Relation).match_in(r.lang, cw, i).is_some()
            });
    }
    plain
}

/// Whether segment `s` asks: a question mark in it or right after it (a sentence end splits
/// segments, so the mark may open the next one).
fn segment_asks(r: &Reading<'_>, s: &Range<usize>) -> bool {
    let mut end = (s.end + 3).min(r.text.len());
    while !r.text.is_char_boundary(end) {
        end -= 1;
    }
    r.text
        .get(s.start..end)
        .is_some_and(|t| t.contains(['?', '？']))
}

/// The segment a search asks its question in, when it is not the first, and whether the
/// question runs to the end of the text (it does after someone's story).
fn topic_segment(
    r: &Reading<'_>,
    flags: &[bool],
    sensitive: &[Range<usize>],
    profile: &[Range<usize>],
    story: &[Range<usize>],
) -> Option<(usize, bool)> {
    if r.segments.len() < 2 {
        return None;
    }
    let counts = content_counts(r, flags);
    let first = counts.first().copied().unwrap_or(0);
    // The first segment tells about a person by name or age ("Ana Ruiz 52 …"): someone's
    // story, which a later question ("— is ibuprofen safe?") asks about.
    let first_is_story = r.segments.first().is_some_and(|s| {
        let lead = r
            .text
            .get(s.clone())
            .map_or(0, |t| t.len() - t.trim_start().len());
        story.first().is_some_and(|p| p.start == s.start + lead)
    });
    // The first segment reads as the user's profile: where they live, who they are, "I …".
    let first_is_profile = first_is_story
        || r.segments.first().is_some_and(|s| {
            starts_in(profile, s)
                || r.clauses.iter().any(|c| {
                    c.first_person
                        && s.start <= c.clause.range.start
                        && c.clause.range.start < s.end
                })
        });
    // A story asks nothing: whatever its words, a question after it is the topic.
    let first_asks = r.segments.first().is_some_and(|s| segment_asks(r, s));
    let later_asks = r
        .segments
        .first()
        .and_then(|s| r.text.get(s.end..))
        .is_some_and(|t| t.contains(['?', '？']));
    let story_first = first_is_story && !first_asks && later_asks;
    if first > 1 && !story_first || !first_is_profile {
        return None;
    }
    // The later segment must be a clean question: content words and no personal data. When
    // the first holds only who and where the user is ("Ana Ruiz 12 Elm St - can my employer
    // fire me after I disclosed epilepsy?"), a later one that asks a question is the topic with
    // the special data it asks about.
    let first_only_profile = r.segments.first().is_some_and(|first| {
        sensitive
            .iter()
            .filter(|p| first.start <= p.start && p.start < first.end)
            .all(|p| profile.contains(p))
    });
    counts
        .iter()
        .enumerate()
        .skip(1)
        .find(|(i, c)| {
            (**c >= 2 || story_first && **c >= 1)
                && r.segments.get(*i).is_some_and(|s| {
                    !starts_in(sensitive, s)
                        || (first_only_profile || story_first) && segment_asks(r, s)
                })
        })
        .map(|(i, _)| (i, story_first))
}

/// Whether the address at `span` is a named public place's ("… Support Center 1525 Main
/// St", "Grand Museum, Museum Road 1"): the word before it is a capitalised name that is
/// not a person's.
pub(super) fn after_public_name(
    r: &Reading<'_>,
    span: &Range<usize>,
    names: &[Range<usize>],
) -> bool {
    // Across a comma too: "RMA of New York, 635 Madison Ave".
    let before = r.words_before_on_line(span.start, 1);
    let Some(w) = before.last() else {
        return false;
    };
    let v = vocab();
    // A label ("Address: 63 Quince Walk") names what follows, not a venue.
    let labels = r
        .text
        .get(w.range.end..span.start)
        .is_some_and(|gap| gap.contains(':'));
    !labels
        && w.raw.chars().next().is_some_and(char::is_uppercase)
        && !names
            .iter()
            .any(|n| n.start <= w.range.start && w.range.end <= n.end)
        && !v.set(WordSet::FirstPerson).has_word(&w.folded)
        && !v.set(WordSet::Relation).has_word(&w.folded)
}

/// Whether the clause holding `at` asks about the weather.
fn clause_asks_weather(r: &Reading<'_>, at: usize) -> bool {
    r.clause_at(at).is_some_and(|c| {
        let cw = r.words.get(c.words.clone()).unwrap_or_default();
        let raw = r.text.get(c.clause.range.clone()).unwrap_or_default();
        vocab().set(WordSet::Weather).any_in_langs(r.lang, cw, raw)
    })
}

/// Whether the bracketed `range` is an operand of a Boolean query ("… AND (eGFR 30-45)",
/// "(asthma OR wheeze) AND diet"): a group the query searches for, not the user's aside.
/// The operators count only as written in capitals, the way search syntaxes spell them.
fn boolean_group(text: &str, range: &Range<usize>) -> bool {
    const BOOLEAN: [&str; 4] = ["AND", "OR", "NOT", "NEAR"];
    let before = text.get(..range.start).unwrap_or_default();
    let before = before.trim_end().trim_end_matches(['(', '[']).trim_end();
    let after = text.get(range.end..).unwrap_or_default();
    let after = after
        .trim_start()
        .trim_start_matches([')', ']'])
        .trim_start();
    let last = before
        .rsplit(char::is_whitespace)
        .next()
        .unwrap_or_default();
    let next = after.split(char::is_whitespace).next().unwrap_or_default();
    BOOLEAN.contains(&last) || BOOLEAN.contains(&next)
}

/// Whether `text` joins a bracketed group to another term by a capital operator
/// ("(atorvastatin[tiab]) AND (…)"): every bracket of such a query is a group searched for,
/// field tags and quotes inside them aside. Read once for the whole text.
fn joins_groups(text: &str) -> bool {
    [") AND ", " AND (", ") OR ", " OR (", ") NOT ", " NOT ("]
        .iter()
        .any(|op| text.contains(op))
}

fn after_operator(text: &str, span: &Range<usize>) -> bool {
    // The few bytes before the span are enough for the longest operator.
    let mut from = span.start.saturating_sub(16);
    while from > 0 && !text.is_char_boundary(from) {
        from -= 1;
    }
    let head = text
        .get(from..span.start)
        .unwrap_or_default()
        .to_lowercase();
    let head = head.trim_end_matches(['"', '\'']);
    OPERATORS.iter().any(|op| head.ends_with(op))
}

pub(super) fn decide(
    cv: &CallView<'_>,
    f: &FieldCtx<'_>,
    r: &Reading<'_>,
    items: &[PsdItem],
    field_items: &[usize],
    pending: &[usize],
) -> Vec<(usize, Decision)> {
    let psd: Vec<Range<usize>> = pending
        .iter()
        .filter_map(|&k| items.get(k).and_then(|it| it.span.clone()))
        .collect();
    let names: Vec<Range<usize>> = pending
        .iter()
        .filter_map(|&k| items.get(k))
        .filter(|it| it.kind == PsdKind::PersonName)
        .filter_map(|it| it.span.clone())
        .collect();
    // Data that makes a segment the user's story: special categories and identifiers (a
    // capitalised word read as a name does not).
    let sensitive: Vec<Range<usize>> = pending
        .iter()
        .filter_map(|&k| items.get(k))
        .filter(|it| {
            !matches!(
                it.kind,
                PsdKind::PersonName | PsdKind::Place | PsdKind::Username
            )
        })
        .filter_map(|it| it.span.clone())
        .collect();
    // The user's own whereabouts and identifiers.
    let profile: Vec<Range<usize>> = pending
        .iter()
        .filter_map(|&k| items.get(k))
        .filter(|it| {
            matches!(
                it.kind,
                PsdKind::StreetAddress
                    | PsdKind::Postcode
                    | PsdKind::Coordinates
                    | PsdKind::Phone
                    | PsdKind::Email
                    | PsdKind::Ssn
                    | PsdKind::NationalId
                    | PsdKind::DateOfBirth
            )
        })
        .filter_map(|it| it.span.clone())
        .collect();
    let mut sensitive = sensitive;
    sensitive.sort_by_key(|p| p.start);
    let mut profile = profile;
    profile.sort_by_key(|p| p.start);
    // Who the story is about: a person's name or age.
    let mut story: Vec<Range<usize>> = pending
        .iter()
        .filter_map(|&k| items.get(k))
        .filter(|it| matches!(it.kind, PsdKind::PersonName | PsdKind::Age))
        .filter_map(|it| it.span.clone())
        .collect();
    story.sort_by_key(|p| p.start);
    let flags = content_flags(r, &psd);
    let qv = view(cv, r, &flags, &sensitive, &profile, &story);
    let own = matches!(cv.kind, ToolKind::SearchOwn | ToolKind::Database);
    // A search about the weather needs a city: no special-category topic, no street.
    let weather = cv.kind == ToolKind::Weather || r.mentions(WordSet::Weather);
    let spans: Vec<(usize, Range<usize>)> = pending
        .iter()
        .filter_map(|&k| items.get(k).and_then(|it| it.span.clone()).map(|s| (k, s)))
        .collect();
    let item = |k: usize| items.get(k);
    // The topic: special-category data outside the context. When the whole search is the
    // user's story ("my husband's dementia care"), its first such item is still what it asks.
    // Once a search that asked something turns to who a person is (a street, a number that
    // identifies them, a name after a relation word: "cardiologist Derby for my dad Ron Hale,
    // NHS no …, heart failure"), what follows describes that person: their condition is their
    // story, not what the search looks for.
    // Read once: it decides the turn here and the news person below.
    let news_tool = news_search(cv);
    let who_from = (!own && !news_tool)
        .then(|| who_from(r, &flags, items, field_items))
        .flatten();
    let after_who = |s: &Range<usize>| who_from.is_some_and(|w| s.start >= w);
    let mut topic: Vec<usize> = spans
        .iter()
        .filter(|(k, s)| item(*k).is_some_and(is_special) && !qv.in_context(r, s) && !after_who(s))
        .map(|(k, _)| *k)
        .collect();
    if topic.is_empty() && !weather {
        // Of two special items written one after the other ("diagnosed with" + "ADHD"), the
        // second names what the first says of the user: the phrase's head is the topic.
        let mut special_starts: Vec<usize> = spans
            .iter()
            .filter(|(k, _)| item(*k).is_some_and(is_special))
            .map(|(_, s)| s.start)
            .collect();
        special_starts.sort_unstable();
        let leads_into_special = |s: &Range<usize>| {
            let next = special_starts.partition_point(|&x| x < s.end);
            special_starts.get(next).is_some_and(|&n| {
                r.text
                    .get(s.end..n)
                    .is_some_and(|gap| gap.chars().all(char::is_whitespace))
            })
        };
        // A role ("my GP says I have …") names who told the story; the condition it leads to
        // names what the search is about: a role is the topic only when nothing else is.
        let head = |role: bool| {
            spans.iter().find(|(k, s)| {
                item(*k)
                    .is_some_and(|it| is_special(it) && (it.kind == PsdKind::ImpliedByRole) == role)
                    && !leads_into_special(s)
            })
        };
        // Not when the search asks something before the user's turn ("Busan cheap hotel, I
        // have diabetes" without a comma): what comes before the turn is what it asks.
        if let Some((k, s)) = head(false).or_else(|| head(true))
            && (r.clause_index(s.start) == Some(0)
                || qv.topic_segment.is_some() && r.segment_index(s.start) == qv.topic_segment)
            && !qv.aside(r, s.start)
            && !qv.asks_before_turn(r, &flags, s.start)
            && !after_who(s)
        {
            topic.push(*k);
        }
    }
    // A search of the user's own store finds its entry by one term: the first sensitive one
    // stays, the rest only describe it. When a person, an address or an account comes first
    // ("Dr. Lee oncology follow-up"), that is the term, and the sensitive ones describe it.
    if own && let Some(&first) = topic.first() {
        topic.retain(|k| *k == first);
        let first_start = spans
            .iter()
            .find(|(k, _)| *k == first)
            .map_or(usize::MAX, |(_, s)| s.start);
        // Every item of the field counts, decided already or not (a name the user's request
        // gives is kept by consent before the search is read).
        let key_first = cv.kind == ToolKind::SearchOwn
            && field_items.iter().filter_map(|&k| item(k)).any(|it| {
                matches!(
                    it.kind,
                    PsdKind::PersonName
                        | PsdKind::Username
                        | PsdKind::Email
                        | PsdKind::Phone
                        | PsdKind::AccountId
                ) && it.span.as_ref().is_some_and(|s| {
                    s.start < first_start && !qv.in_context(r, s) && !relation_before(r, s.start)
                })
            });
        if key_first {
            topic.clear();
        }
    }
    let topic: std::collections::HashSet<usize> = topic.into_iter().collect();
    let other_personal = spans.iter().any(|(k, s)| {
        item(*k).is_some_and(|it| {
            is_special(it) && !topic.contains(k)
                || qv.in_context(r, s)
                || matches!(
                    it.kind,
                    PsdKind::Ssn
                        | PsdKind::Phone
                        | PsdKind::Email
                        | PsdKind::StreetAddress
                        | PsdKind::NationalId
                        | PsdKind::Passport
                        | PsdKind::Family
                )
        })
    });
    // A news search about a named person ("… fraud trial", "… corruption appeal") is
    // about someone in the news, whose trial or illness is the news: the name stays beside it.
    let news = cv.kind.is_search() && news_tool;
    let has_topic_special = !topic.is_empty() && !news;
    // A person the search is about: a name outside the context, in a search that carries no
    // other personal data.
    // The name counts when it was decided already too (the user's request gave it).
    let subject_person =
        !own && field_items.iter().any(|&k| {
            item(k).is_some_and(|it| {
                it.kind == PsdKind::PersonName
                    && it
                        .span
                        .as_ref()
                        .is_some_and(|s| !qv.in_context(r, s) && !relation_before(r, s.start))
            })
        }) && !other_personal
            && !has_topic_special;

    // Where the first kept topic term of a search of the user's own store starts.
    let topic_start = spans
        .iter()
        .filter(|(k, _)| topic.contains(k))
        .map(|(_, s)| s.start)
        .min();
    let after_topic = |s: &Range<usize>| {
        cv.kind == ToolKind::SearchOwn && topic_start.is_some_and(|t| t < s.start)
    };
    let mut out = Vec::with_capacity(pending.len());
    for &k in pending {
        if crate::budget::expired() {
            break;
        }
        let Some(it) = item(k) else { continue };
        // A query of the user's database finds rows by every term it holds.
        if cv.kind == ToolKind::Database && it.kind != PsdKind::Credential {
            out.push((k, Decision::keep(Rule::OwnDataSearchKey)));
            continue;
        }
        let Some(s) = it.span.clone() else {
            out.push((k, Decision::keep(Rule::RequiredField)));
            continue;
        };
        let context = qv.in_context(r, &s) || is_special(it) && after_who(&s);
        let drop_op = if weather {
            // A weather search keeps its question wherever it stands; only the data goes.
            // Asked before a spaced dash, what follows the dash is the user's story whole
            // ("weather Leeds Saturday - 58, walking to the clinic, tired since …").
            if r.segment_index(s.start).is_some_and(|i| i > 0)
                && r.segments
                    .first()
                    .is_some_and(|first| clause_asks_weather(r, first.start))
            {
                Op::RemoveSegment
            } else if qv.aside(r, s.start) || !clause_asks_weather(r, s.start) {
                Op::RemoveClause
            } else {
                Op::RemoveSpan
            }
        } else if qv.aside(r, s.start) {
            if r.segment_index(s.start).is_some_and(|i| i > 0) {
                Op::RemoveSegment
            } else {
                Op::RemoveClause
            }
        } else if qv.personal_clause(r, s.start) {
            // "…, my email is …": the whole clause is the user's.
            Op::RemoveClause
        } else {
            Op::RemoveSpan
        };
        let text = f.text.unwrap_or_default();
        let d = if after_operator(text, &s) {
            Decision::keep(Rule::QueryOperator)
        } else if is_special(it) {
            if weather {
                Decision::drop(drop_op, Rule::NotTheTopic)
            } else if topic.contains(&k) {
                Decision::keep(Rule::TopicOfQuery)
            } else if context {
                Decision::drop(drop_op, Rule::PersonalContextInQuery)
            } else {
                Decision::drop(drop_op, Rule::NotTheTopic)
            }
        } else {
            use PsdKind::*;
            match it.kind {
                PersonName | Username | Email | Phone | AccountId
                    if own && !context && !after_topic(&s) =>
                {
                    Decision::keep(Rule::OwnDataSearchKey)
                }
                // The entry is found by the term before; a name or number after it only
                // describes whose it is ("egg retrieval date Ana Ruiz" in one's own mail).
                PersonName | Username | Email | Phone | AccountId
                    if !context && after_topic(&s) =>
                {
                    Decision::drop(drop_op, Rule::PersonalContextInQuery)
                }
                PersonName | Username if subject_person && !context => {
                    Decision::keep(Rule::SubjectOfQuery)
                }
                DateOfBirth | Age | Place if subject_person && !context => {
                    Decision::keep(Rule::SubjectOfQuery)
                }
                StreetAddress | Postcode | Coordinates if !context => {
                    if own {
                        Decision::keep(Rule::OwnDataSearchKey)
                    } else if matches!(cv.kind, ToolKind::Geocode | ToolKind::Route) {
                        // A geocoder finds the address it is given: the street is the query.
                        Decision::keep(Rule::ExactLocationForPurpose)
                    } else if !weather && after_public_name(r, &s, &names) {
                        Decision::keep(Rule::PublicPlace)
                    } else {
                        Decision::drop(Op::Generalize, Rule::CityLevelForPurpose)
                    }
                }
                Place if !context => Decision::keep(Rule::CityLevelForPurpose),
                // "for my mother in Tucson", "near my parents in Leeds": the town of the
                // people the search is for is where it looks, at city level.
                Place if !weather && r.relation_within(s.start, 4) => {
                    Decision::keep(Rule::CityLevelForPurpose)
                }
                // A role outside the special categories ("bankruptcy lawyer", "debt
                // counselor") is, out of the user's story, whom the search looks for.
                Occupation | MoneyAmount | Preference | Family | Age | Gender | ImpliedByRole
                    if !context =>
                {
                    Decision::keep(Rule::TopicOfQuery)
                }
                // In a clause of the user's own ("I was born …", "my passport number is …")
                // the clause goes with it, so that no "I was born" is left to search for.
                DateOfBirth | Ssn | Passport | NationalId | DriverLicence | MedicalRecord
                | TaxId | Credential | CardNumber | Iban | BankAccount => {
                    Decision::drop(drop_op, Rule::IdentifierNotNeeded)
                }
                _ if context => Decision::drop(drop_op, Rule::PersonalContextInQuery),
                _ => Decision::drop(Op::RemoveSpan, Rule::PersonalContextInQuery),
            }
        };
        out.push((k, d));
    }
    out
}

/// Where a search turns to who a person is: the first street address or identifying number,
/// or name of a person it is for ("… for my dad Ron Hale"), that comes after a word the
/// search asks with. A name alone is no turn: "did Ana Ruiz have ALS" asks about her, and a
/// name is who the search is for only beside a relation word or a number that identifies
/// someone. Places, postcodes and coordinates are where the search looks.
fn who_from(
    r: &Reading<'_>,
    flags: &[bool],
    items: &[PsdItem],
    field_items: &[usize],
) -> Option<usize> {
    use PsdKind::*;
    let field = || field_items.iter().filter_map(|&k| items.get(k));
    let identifies = |k: PsdKind| {
        matches!(
            k,
            StreetAddress
                | Phone
                | Email
                | Ssn
                | NationalId
                | Passport
                | DateOfBirth
                | MedicalRecord
                | DriverLicence
                | TaxId
        )
    };
    let numbers = field().any(|it| identifies(it.kind));
    let start = field()
        .filter_map(|it| {
            let s = it.span.as_ref()?;
            (identifies(it.kind)
                || it.kind == PersonName && (numbers || relation_before(r, s.start)))
            .then_some(s.start)
        })
        .min()?;
    r.words
        .iter()
        .zip(flags)
        .any(|(w, f)| *f && w.range.end <= start)
        .then_some(start)
}

/// Whether the call searches the news: the tool's name says so (`news_search`,
/// `newsapi_everything`), or an argument picks news as what to search (`"topic": "news"`).
fn news_search(cv: &CallView<'_>) -> bool {
    crate::text::words::any_identifier_word(cv.tool.name(), |w| w == "news" || w == "newsapi")
        || cv.args.members().is_some_and(|mut m| {
            m.any(|(_, v)| {
                v.as_str()
                    .is_some_and(|t| t.trim().eq_ignore_ascii_case("news"))
            })
        })
}

/// Whether a relation word stands right before `at` ("my son Tom", "Mama Ana").
fn relation_before(r: &Reading<'_>, at: usize) -> bool {
    r.set_word_before(at, WordSet::Relation, 2).is_some()
        || r.set_word_before(at, WordSet::FirstPerson, 2).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators() {
        let t = "from:ana@example.test invoice";
        assert!(after_operator(t, &(5..21)));
        assert!(!after_operator("invoice ana@example.test", &(8..24)));
    }
}
