//! A reading of one free-text field: its sentences and clauses, the greeting that names the
//! addressee, the signature block, and which clauses ask something, give a reason, speak of
//! the user or of someone close to the user.

use std::ops::Range;
use std::sync::OnceLock;

use super::vocab::{ALL_LANGS, LangMask, WordSet, may_hold_unspaced, vocab};
use crate::text::clauses::{
    Clause, clauses, ends_with_reason, opens_cause_phrase, opens_reason, segment_of, segments,
};
use crate::text::words::{Word, words};

/// What a clause does.
#[derive(Debug, Clone)]
pub struct ClauseInfo {
    /// The clause.
    pub clause: Clause,
    /// Index of the first word of the clause in [`Reading::words`], and one past its last.
    pub words: Range<usize>,
    /// It asks the reader to act ("please", "could you").
    pub request: bool,
    /// It names something the reader is to arrange as needed ("wheelchair assistance
    /// needed", "gluten-free meal required", "Rollstuhlservice benötigt"): a request of its
    /// own for what it names, not for the rest of what it tells.
    pub needs: bool,
    /// It opens with a reason or an aside ("because", "FYI", "by the way").
    pub reason: bool,
    /// It opens with a prepositional phrase of cause ("wegen …", "à cause de …", "per una
    /// …"), which may run on into the words of the clause it interrupts.
    pub cause_phrase: bool,
    /// It speaks of the user ("I", "my").
    pub first_person: bool,
    /// It names someone close to the user ("my mother", "his wife").
    pub relation: bool,
    /// It speaks of someone else ("he", "her").
    pub third_person: bool,
    /// It asks the reader to make contact ("call me", "reach Tom at").
    pub contact_ask: bool,
    /// It says not to make contact ("don't call my work line").
    pub contact_refused: bool,
    #[allow(dead_code)] // read by tests; not used by the current rules
    /// It carries a fact besides the data in it: a number, a day or a time.
    pub has_fact: bool,
    /// It offers data nobody asked for ("in case you need it", "zur Sicherheit").
    pub offered: bool,
    /// The word lists that can match at one of its words (see
    /// [`super::vocab::Vocab::lists_in`]).
    lists: super::vocab::ListMask,
}

impl ClauseInfo {
    /// Whether a term of `set` can start at one of the clause's words: when not, no term of
    /// it occurs among them (a term of an unspaced script may still occur in its text).
    pub fn may_match(&self, set: WordSet) -> bool {
        vocab().set(set).may_match(self.lists)
    }
}

/// A reading of one free-text field.
#[derive(Debug, Clone)]
pub struct Reading<'a> {
    /// The text.
    pub text: &'a str,
    /// Its words.
    pub words: Vec<Word<'a>>,
    /// Its clauses, with what each does.
    pub clauses: Vec<ClauseInfo>,
    /// Query segments (the parts between spaced dashes, bars and sentence ends).
    pub segments: Vec<Range<usize>>,
    /// Byte range of the greeting clause, if the text opens with one.
    pub greeting: Option<Range<usize>>,
    /// Where the signature block starts, if there is one.
    pub signature: Option<usize>,
    /// Where quoted or forwarded text starts, if there is any after the writer's own.
    quote: Option<usize>,
    /// The languages the text is most likely written in.
    pub lang: LangMask,
    /// The word lists that can match at one of its words.
    lists: super::vocab::ListMask,
    /// The part read may hold a character of an unspaced script (Japanese).
    unspaced: bool,
    /// The sentences that hold a request, in order.
    requests: Vec<usize>,
    /// Byte offsets where lines start.
    line_starts: Vec<usize>,
    /// Byte offsets where paragraphs start (the part read's start, and each line after a
    /// blank one), found from the line starts the first time they are asked for.
    paragraph_starts: OnceLock<Vec<usize>>,
    /// The sentence of the first clause after the greeting.
    first_news: Option<usize>,
    /// The part of `text` read: all of it, or one window of a long text.
    window: Range<usize>,
}

impl<'a> Reading<'a> {
    /// Reads `text`.
    pub fn new(text: &'a str) -> Self {
        Self::read(text)
    }

    /// Reads the window `range` of `text` (see [`crate::text::window`]): positions stay
    /// those of `text`, but words, clauses, segments and lines are those of the window only;
    /// its start counts as a line start. Only the first window (`first`) can open with a
    /// greeting and the news, only the last one (`last`) can end with a signature. The window
    /// that is all of `text` reads it as [`Reading::new`] does.
    pub fn window(text: &'a str, range: Range<usize>, first: bool, last: bool) -> Self {
        let part = text.get(range.clone()).unwrap_or_default();
        let mut r = Self::read(part);
        let off = range.start;
        if off > 0 || part.len() < text.len() {
            let shift = |x: &mut Range<usize>| *x = x.start + off..x.end + off;
            for w in &mut r.words {
                shift(&mut w.range);
            }
            for c in &mut r.clauses {
                shift(&mut c.clause.range);
            }
            for seg in &mut r.segments {
                shift(seg);
            }
            if let Some(g) = r.greeting.as_mut() {
                shift(g);
            }
            if let Some(s) = r.signature.as_mut() {
                *s += off;
            }
            if let Some(q) = r.quote.as_mut() {
                *q += off;
            }
            for l in &mut r.line_starts {
                *l += off;
            }
            r.text = text;
            r.window = range;
        }
        if !first {
            r.greeting = None;
            r.first_news = None;
        }
        if !last {
            r.signature = None;
        }
        r
    }

    /// The text of the part read (all of [`Reading::text`], or one window of it).
    pub fn window_text(&self) -> &'a str {
        self.text.get(self.window.clone()).unwrap_or_default()
    }

    fn read(text: &'a str) -> Self {
        let v = vocab();
        let mut ws = words(text);
        // Each word is looked up in the lists once; every list's question about it is then
        // answered without hashing it again.
        let lang = v.look_up_languages(&mut ws, text);
        let cl = clauses(text);
        let mut infos = Vec::with_capacity(cl.len());
        let mut questions = Vec::with_capacity(cl.len());
        let mut wi = 0usize;
        for c in cl {
            while ws.get(wi).is_some_and(|w| w.range.start < c.range.start) {
                wi += 1;
            }
            let start = wi;
            let mut end = wi;
            while ws.get(end).is_some_and(|w| w.range.end <= c.range.end) {
                end += 1;
            }
            let cw = ws.get(start..end).unwrap_or_default();
            let raw = text.get(c.range.clone()).unwrap_or_default();
            // The lists that can match in the clause: the others are not asked; nor is a
            // clause with no unspaced script searched for such terms.
            let lists = v.lists_in(cw);
            let unspaced = if may_hold_unspaced(raw) { raw } else { "" };
            let has = |set: WordSet| v.set(set).any_in_langs_of(lists, lang, cw, unspaced);
            // Japanese and Korean state a reason before what they explain, ending it with a
            // particle or an ending; a
            // clause the splitter opened at a reason opener gives one too.
            let reason = v.set(WordSet::Reason).match_in(lang, cw, 0).is_some()
                || ends_with_reason(raw)
                || opens_reason(raw);
            let has_fact = raw.bytes().any(|b| b.is_ascii_digit()) || has(WordSet::Time);
            // "in case you need it" offers; it asks nothing of the reader.
            let offered = has(WordSet::Offered);
            // "Don't call my work line": a refusal, not a request to call.
            let contact_refused = has(WordSet::ContactRefusal);
            // A clause that ends with a question mark (see below).
            let question = !reason
                && (raw.trim_end().ends_with(['?', '？', '؟'])
                    || text.get(c.range.end..).is_some_and(ends_question));
            infos.push(ClauseInfo {
                request: (has(WordSet::Request) || asks_at_open(v, lang, cw)) && !offered,
                // "Wheelchair assistance needed at the gate" asks the provider to serve the
                // user without a "please": a need and what is needed, in one clause. Such a
                // note is too short and telegraphic for its language to be told by its
                // function words: the pair is read in every language.
                needs: names_need(v, cw, unspaced) && !offered,
                reason,
                cause_phrase: opens_cause_phrase(raw),
                first_person: has(WordSet::FirstPerson),
                relation: v.set(WordSet::Relation).may_match(lists) && relation_in(v, lang, cw),
                third_person: has(WordSet::ThirdPerson),
                contact_ask: has(WordSet::ContactAsk) && !contact_refused,
                contact_refused,
                has_fact,
                offered,
                lists,
                words: start..end,
                clause: c,
            });
            questions.push(question && !offered);
            wi = end;
        }
        let greeting = infos.first().and_then(|first| {
            let cw = ws.get(first.words.clone()).unwrap_or_default();
            // Greetings and closings are set phrases: any language's count ("Hola" in an English
            // message still greets).
            let opens = v.set(WordSet::Greeting).match_at(cw, 0).is_some()
                || v.set(WordSet::Greeting)
                    .unspaced_at_edge(text.get(first.clause.range.clone()).unwrap_or_default());
            // "Hi Dana", "Dear Mrs. Lee", or a lone name before a comma ("Inés, …"), not a
            // name that opens a sentence and a bracket ("Customer Ana Ruiz (…) told us").
            let closes = text
                .get(first.clause.range.end..)
                .and_then(|rest| rest.trim_start_matches([' ', '\t']).chars().next())
                .is_none_or(|c| matches!(c, ',' | '!' | ':' | '\n' | '\r' | '-' | '–' | '—'));
            let lone_name = cw.len() <= 3
                && infos.len() > 1
                && closes
                && cw
                    .iter()
                    .all(|w| w.raw.chars().next().is_some_and(char::is_uppercase));
            (cw.len() <= 6 && (opens || lone_name)).then(|| first.clause.range.clone())
        });
        // A name said to the reader after the greeting word belongs to the greeting when it
        // closes the sentence ("Привет, Оля!", "Hi, Dana!"): the news starts after it.
        let greeting = greeting.map(|g| match (infos.first(), infos.get(1)) {
            (Some(first), Some(name))
                if name.clause.sentence == first.clause.sentence
                    && infos
                        .get(2)
                        .is_none_or(|c| c.clause.sentence != name.clause.sentence)
                    && is_vocative(ws.get(name.words.clone()).unwrap_or_default()) =>
            {
                g.start..name.clause.range.end
            }
            _ => g,
        });
        let line_starts: Vec<usize> = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        let signature = signature_start(text, &ws, &line_starts);
        let quote = quote_start(text, &line_starts);
        let first_news = infos
            .iter()
            .find(|c| {
                greeting
                    .as_ref()
                    .is_none_or(|g| !g.contains(&c.clause.range.start))
            })
            .map(|c| c.clause.sentence);
        // The message's news asked as a question asks, whatever its words ("Does anyone know
        // where I can get …?", "Підкажіть, де можна дістати …?"), when the sentence speaks of
        // no one else (not "how is your mum doing, is … getting worse?").
        if let Some(n) = first_news {
            let in_news = |c: &&ClauseInfo| c.clause.sentence == n;
            if !infos
                .iter()
                .filter(in_news)
                .any(|c| c.relation || c.third_person)
            {
                for (c, q) in infos.iter_mut().zip(&questions) {
                    c.request |= *q && c.clause.sentence == n;
                }
            }
        }
        let mut requests: Vec<usize> = infos
            .iter()
            .filter(|c| c.request)
            .map(|c| c.clause.sentence)
            .collect();
        requests.dedup();
        Reading {
            text,
            lists: v.lists_in(&ws),
            unspaced: may_hold_unspaced(text),
            words: ws,
            segments: segments(text),
            clauses: infos,
            greeting,
            signature,
            quote,
            lang,
            requests,
            line_starts,
            paragraph_starts: OnceLock::new(),
            first_news,
            window: 0..text.len(),
        }
    }

    /// Whether a term of `set` in the text's languages occurs in the part read.
    pub fn mentions(&self, set: WordSet) -> bool {
        let raw = if self.unspaced {
            self.window_text()
        } else {
            ""
        };
        vocab()
            .set(set)
            .any_in_langs_of(self.lists, self.lang, &self.words, raw)
    }

    /// Whether sentence `n` holds a request.
    pub fn is_request_sentence(&self, n: usize) -> bool {
        self.requests.binary_search(&n).is_ok()
    }

    /// Whether a clause of sentence `n` offers data nobody asked for ("In case you need it,
    /// my SSN is …"). Clauses are in sentence order: a binary search finds the sentence.
    pub fn sentence_offers(&self, n: usize) -> bool {
        let first = self.clauses.partition_point(|c| c.clause.sentence < n);
        self.clauses
            .get(first..)
            .unwrap_or_default()
            .iter()
            .take_while(|c| c.clause.sentence == n)
            .any(|c| c.offered)
    }

    /// The sentence of the first clause after the greeting: where a message's news stands.
    pub fn first_news_sentence(&self) -> Option<usize> {
        self.first_news
    }

    /// Where the paragraph holding byte `at` starts: after the last blank line before it, or
    /// at the start of the part read.
    pub fn paragraph_start(&self, at: usize) -> usize {
        let starts = self
            .paragraph_starts
            .get_or_init(|| paragraph_starts(self.text, &self.line_starts, self.window.start));
        let i = starts.partition_point(|&s| s <= at);
        i.checked_sub(1)
            .and_then(|j| starts.get(j))
            .copied()
            .unwrap_or(self.window.start)
    }

    /// Whether the writer says, in the paragraph of byte `at` and no later than its clause,
    /// that they hand over what the reader asked for ("As requested, my SSN is …", "Here's
    /// what you asked for:" over a list of numbers, "voici mon IBAN : …").
    pub fn answers_at(&self, at: usize) -> bool {
        if !vocab().set(WordSet::Answering).may_match(self.lists) && !self.unspaced {
            return false;
        }
        let para = self.paragraph_start(at);
        let first = self.clauses.partition_point(|c| c.clause.range.end <= para);
        let last = self.clauses.partition_point(|c| c.clause.range.start <= at);
        self.clauses
            .get(first..last.max(first))
            .unwrap_or_default()
            .iter()
            .any(|c| {
                (c.may_match(WordSet::Answering) || self.unspaced)
                    && self.names_in(WordSet::Answering, &c.clause.range)
            })
    }

    /// Where the line holding byte `at` starts.
    pub fn line_start(&self, at: usize) -> usize {
        let i = self.line_starts.partition_point(|&s| s <= at);
        i.checked_sub(1)
            .and_then(|j| self.line_starts.get(j))
            .copied()
            .unwrap_or(0)
    }

    /// Whether the text at byte `at` is told as a reason inside its clause: a reason word
    /// ("due to", "wegen", "à cause de") stands between the clause's start and `at`
    /// ("Wheelchair assistance required due to multiple sclerosis"). A clause that opens with
    /// one is [`ClauseInfo::reason`] as a whole.
    pub fn told_as_reason(&self, at: usize) -> bool {
        let Some(c) = self.clause_at(at) else {
            return false;
        };
        if !c.may_match(WordSet::Reason) {
            return false;
        }
        let cw = self.words.get(c.words.clone()).unwrap_or_default();
        let upto = self
            .word_index(at)
            .saturating_sub(c.words.start)
            .min(cw.len());
        let reason = vocab().set(WordSet::Reason);
        (1..upto).any(|i| reason.match_in(self.lang, cw, i).is_some())
    }

    /// Whether a term of `set`, in any language, starts at a word inside `span` ("wheelchair"
    /// of the item "Wheelchair", "service dog" of the item "a service dog").
    pub fn names_in(&self, set: WordSet, span: &Range<usize>) -> bool {
        let terms = vocab().set(set);
        let from = self.word_index(span.start);
        let to = self.word_index(span.end);
        (from..to).any(|i| terms.match_in(ALL_LANGS, &self.words, i).is_some())
            // A run of unspaced script is one word: the term lies inside it ("轮椅").
            || self
                .text
                .get(span.clone())
                .is_some_and(|t| terms.any_unspaced(ALL_LANGS, t))
    }

    /// The index of the first word that starts at or after byte `at`.
    fn word_index(&self, at: usize) -> usize {
        self.words.partition_point(|w| w.range.start < at)
    }

    /// The indices of the clauses of sentence `n` (clauses are in text order, so a sentence's
    /// clauses are consecutive).
    pub fn sentence_range(&self, n: usize) -> Range<usize> {
        let start = self.clauses.partition_point(|c| c.clause.sentence < n);
        let end = self.clauses.partition_point(|c| c.clause.sentence <= n);
        start..end.max(start)
    }

    /// Per sentence: whether a term of `set` occurs in it. One pass over the clauses.
    pub fn sentences_with(&self, set: WordSet) -> Vec<bool> {
        let v = vocab();
        let n = self.clauses.last().map_or(0, |c| c.clause.sentence + 1);
        let mut out = vec![false; n];
        for c in &self.clauses {
            if let Some(slot) = out.get_mut(c.clause.sentence)
                && !*slot
            {
                *slot = v.set(set).any_in_langs(
                    self.lang,
                    self.words.get(c.words.clone()).unwrap_or_default(),
                    self.text.get(c.clause.range.clone()).unwrap_or_default(),
                );
            }
        }
        out
    }

    /// The clause holding byte `at` (or, when `at` is on a boundary such as an opening
    /// parenthesis, the clause that follows it).
    pub fn clause_at(&self, at: usize) -> Option<&ClauseInfo> {
        self.clause_index(at).and_then(|i| self.clauses.get(i))
    }

    /// The index of the clause holding byte `at` (see [`Reading::clause_at`]).
    pub fn clause_index(&self, at: usize) -> Option<usize> {
        // Clauses are in text order and do not overlap.
        let i = self.clauses.partition_point(|c| c.clause.range.end <= at);
        let c = self.clauses.get(i)?;
        if c.clause.range.start <= at {
            return Some(i);
        }
        self.text
            .get(at..c.clause.range.start)
            .is_some_and(|gap| gap.chars().all(|ch| !ch.is_alphanumeric()))
            .then_some(i)
    }

    #[allow(dead_code)] // not used by the current rules
    /// The clauses of the sentence holding byte `at`.
    pub fn sentence_clauses(&self, at: usize) -> impl Iterator<Item = &ClauseInfo> {
        let range = self
            .clause_at(at)
            .map_or(0..0, |c| self.sentence_range(c.clause.sentence));
        self.clauses.get(range).unwrap_or_default().iter()
    }

    /// Whether byte `at` lies in the greeting.
    pub fn is_greeting(&self, at: usize) -> bool {
        self.greeting.as_ref().is_some_and(|g| g.contains(&at))
    }

    /// Whether byte `at` lies in the signature block.
    pub fn in_signature(&self, at: usize) -> bool {
        self.signature.is_some_and(|s| at >= s)
    }

    /// Whether byte `at` lies in quoted or forwarded text below the writer's own ("On … wrote:",
    /// "---------- Forwarded message ----------", lines opening with `>`).
    pub fn in_quote(&self, at: usize) -> bool {
        self.quote.is_some_and(|q| at >= q)
    }

    /// The text of the first clause that asks the reader to act.
    pub fn first_request(&self) -> Option<&'a str> {
        self.clauses
            .iter()
            .find(|c| c.request)
            .and_then(|c| self.text.get(c.clause.range.clone()))
    }

    /// The text of the greeting clause.
    pub fn greeting_text(&self) -> Option<&'a str> {
        self.greeting.clone().and_then(|g| self.text.get(g))
    }

    /// The index of the segment holding byte `at`.
    pub fn segment_index(&self, at: usize) -> Option<usize> {
        // A binary search, not a scan (a scan per clause was quadratic on long texts).
        segment_of(&self.segments, at)
    }

    /// Up to `n` words before byte `at` on the same line, across clause boundaries
    /// ("Account e-mail: ana@…").
    pub fn words_before_on_line(&self, at: usize, n: usize) -> &[Word<'a>] {
        let line_start = self.line_start(at);
        let end = self.word_index(at);
        let mut start = end.saturating_sub(n);
        while self
            .words
            .get(start)
            .is_some_and(|w| w.range.start < line_start)
            && start < end
        {
            start += 1;
        }
        self.words.get(start..end).unwrap_or_default()
    }

    /// Whether a relation word stands among the `n` words before `at` in its clause ("her
    /// ex-husband in …", "my parents, who live in …", "for my mother in …").
    pub(super) fn relation_within(&self, at: usize, n: usize) -> bool {
        let before = self.words_before_in_clause(at);
        let v = vocab();
        let len = before.len();
        (len.saturating_sub(n)..len).any(|i| {
            v.set(WordSet::Relation)
                .match_in(self.lang, before, i)
                .is_some()
        })
    }

    /// The words of the clause holding byte `at`, before `at`.
    pub fn words_before_in_clause(&self, at: usize) -> &[Word<'a>] {
        let Some(c) = self.clause_at(at) else {
            return &[];
        };
        let end = self.word_index(at).min(c.words.end).max(c.words.start);
        self.words.get(c.words.start..end).unwrap_or_default()
    }

    /// Whether a term of `set` starts among the last `window` words before `at` on its line,
    /// across clause boundaries ("Pagadora: …", "my ex, …").
    pub fn set_word_on_line_before(&self, at: usize, set: WordSet, window: usize) -> bool {
        let before = self.words_before_on_line(at, window);
        let terms = vocab().set(set);
        (0..before.len()).any(|i| terms.match_in(self.lang, before, i).is_some())
    }

    /// Where, among the last `window` words of its clause before `at`, a term of `set` starts
    /// (the index into [`Reading::words_before_in_clause`]), the earliest first: "my son" of
    /// "my son Tom".
    pub fn set_word_before(&self, at: usize, set: WordSet, window: usize) -> Option<usize> {
        let before = self.words_before_in_clause(at);
        let n = before.len();
        let terms = vocab().set(set);
        (n.saturating_sub(window)..n).find(|&i| terms.match_in(self.lang, before, i).is_some())
    }
}

/// Whether the words of a clause are a name said to the reader: one or two words, each
/// capitalised.
fn is_vocative(cw: &[Word<'_>]) -> bool {
    (1..=2).contains(&cw.len())
        && cw
            .iter()
            .all(|w| w.raw.chars().next().is_some_and(char::is_uppercase))
}

/// Whether a modal verb that asks only at the start of a clause ("Pode …", "Você pode …",
/// "¿Puede …?") opens the clause `cw`.
/// Whether a clause's words name a need and what is needed ([`ClauseInfo::needs`]), in any
/// language.
fn names_need(v: &super::vocab::Vocab, cw: &[Word<'_>], unspaced: &str) -> bool {
    [WordSet::Need, WordSet::Accommodation]
        .iter()
        .all(|&set| v.set(set).any_in_langs(ALL_LANGS, cw, unspaced))
}

/// Whether the text after a clause closes it with a question mark, past spaces, closing
/// quotes and one short bracket ("… Humalog (cartridges)?").
fn ends_question(rest: &str) -> bool {
    let mut rest = rest.trim_start_matches([' ', '"', '»', '”', ')']);
    if let Some(inner) = rest.strip_prefix('(') {
        match inner.find(')') {
            Some(close) if close <= 60 => {
                rest = inner.get(close + 1..).unwrap_or_default();
            }
            _ => return false,
        }
        rest = rest.trim_start_matches([' ', '"', '»', '”']);
    }
    rest.starts_with(['?', '？', '؟'])
}

fn asks_at_open(v: &super::vocab::Vocab, lang: LangMask, cw: &[Word<'_>]) -> bool {
    let open = v.set(WordSet::RequestOpen);
    // After the writer's own pronoun the verb tells what the writer does ("I leave at 5"):
    // only the clause's first word asks then.
    let told = v.set(WordSet::FirstPerson).match_in(lang, cw, 0).is_some();
    let words = if told { 1 } else { 2 };
    (0..cw.len().min(words)).any(|i| open.match_in(lang, cw, i).is_some())
}

/// Whether a clause names someone close to someone: a kinship word after a possessive ("my
/// son", "his wife", "your mother", "Annas Vater" reads as the bare noun) — "guidelines for
/// children" is not a relation.
fn relation_in(v: &super::vocab::Vocab, lang: LangMask, cw: &[Word<'_>]) -> bool {
    let rel = v.set(WordSet::Relation);
    (0..cw.len()).any(|i| {
        rel.match_in(lang, cw, i).is_some()
            && (i.saturating_sub(2)..i).any(|j| {
                cw.get(j).is_some_and(|w| {
                    let f = w.folded.as_ref();
                    f.ends_with("'s")
                        || [
                            WordSet::FirstPerson,
                            WordSet::ThirdPerson,
                            WordSet::SecondPerson,
                        ]
                        .iter()
                        .any(|s| v.set(*s).match_in(lang, cw, j).is_some())
                })
            })
    })
}

/// The start of a signature block: the line after a closing ("Thanks,", "Mit freundlichen
/// Grüßen") in the last lines of the text, or the closing itself.
fn signature_start(text: &str, ws: &[Word<'_>], line_starts: &[usize]) -> Option<usize> {
    let v = vocab();
    // Only the last few lines can hold a signature (line starts are in order: those before
    // the end of the text are a prefix).
    let lines = line_starts.partition_point(|&s| s < text.len());
    let tail_from = lines.saturating_sub(6);
    for &ls in line_starts.get(tail_from..lines).unwrap_or_default() {
        let le = text
            .get(ls..)
            .and_then(|t| t.find('\n'))
            .map_or(text.len(), |i| ls + i);
        let line = text.get(ls..le).unwrap_or_default().trim();
        if line.is_empty() || line.chars().count() > 40 {
            continue;
        }
        // Words are in text order and do not overlap: the line's are consecutive.
        let first = ws.partition_point(|w| w.range.start < ls);
        let last = first
            + ws.get(first..)
                .unwrap_or_default()
                .partition_point(|w| w.range.end <= le);
        let lw = ws.get(first..last).unwrap_or_default();
        let closing = v
            .set(WordSet::Signoff)
            .match_at(lw, 0)
            .is_some_and(|n| n + 1 >= lw.len());
        if closing {
            return Some(ls);
        }
    }
    None
}

/// Where paragraphs start: at `first`, and at each line that follows a blank one. One pass.
fn paragraph_starts(text: &str, line_starts: &[usize], first: usize) -> Vec<usize> {
    let mut out = vec![first];
    for pair in line_starts.windows(2) {
        if let &[ls, next] = pair
            && text.get(ls..next).is_some_and(|l| l.trim().is_empty())
        {
            out.push(next);
        }
    }
    out
}

/// Lines that mark where a forwarded or an earlier message starts, in lower case.
const QUOTE_MARKS: &[&str] = &[
    "forwarded message",
    "original message",
    "message d'origine",
    "message transféré",
    "ursprüngliche nachricht",
    "weitergeleitete nachricht",
    "mensaje original",
    "mensaje reenviado",
    "messaggio originale",
    "messaggio inoltrato",
    "mensagem original",
    "mensagem encaminhada",
    "oorspronkelijk bericht",
    "doorgestuurd bericht",
    "oryginalna wiadomość",
    "przekazana wiadomość",
    "původní zpráva",
    "přeposlaná zpráva",
    "ursprungligt meddelande",
    "vidarebefordrat meddelande",
    "oprindelig meddelelse",
    "videresendt meddelelse",
    "opprinnelig melding",
    "videresendt melding",
    "исходное сообщение",
    "пересылаемое сообщение",
    "переслане повідомлення",
];

/// How a line that introduces an earlier message ends ("On 3 May, Ana Ruiz wrote:").
const WROTE: &[&str] = &[
    "wrote:",
    "a écrit :",
    "a écrit:",
    "schrieb:",
    "escribió:",
    "ha scritto:",
    "escreveu:",
    "schreef:",
    "skrev:",
    "napisał:",
    "napisała:",
    "napsal:",
    "napsala:",
    "написал:",
    "написала:",
    "написав:",
];

/// Where quoted or forwarded text starts: the first line, after some text of the writer's
/// own, that marks a forwarded or an original message, introduces one ("On … wrote:"), or
/// opens with `>`.
fn quote_start(text: &str, line_starts: &[usize]) -> Option<usize> {
    let mut own = false;
    for (i, &ls) in line_starts.iter().enumerate() {
        let le = line_starts.get(i + 1).copied().unwrap_or(text.len());
        let line = text.get(ls..le).unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        if own {
            // Marks are set off by dashes or end with a colon: other lines are not lowered.
            let candidate = line.len() <= 160 && (line.ends_with(':') || line.contains('-'));
            let marked = line.starts_with('>')
                || candidate && {
                    let lower = line.to_lowercase();
                    QUOTE_MARKS.iter().any(|m| lower.contains(m))
                        || line.split_whitespace().count() >= 3
                            && WROTE.iter().any(|w| lower.ends_with(w))
                };
            if marked {
                return Some(ls);
            }
        }
        own = true;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_and_numbers_handed_over_as_asked() {
        let text = "Hi Lou,\n\nHere's what you asked for:\n- SSN: 1\n\nAlso, my SSN: 2";
        let r = Reading::new(text);
        let first = text.find("SSN: 1").unwrap();
        let second = text.find("SSN: 2").unwrap();
        assert_eq!(r.paragraph_start(first), text.find("Here's").unwrap());
        assert!(r.answers_at(first));
        assert!(!r.answers_at(second));
    }

    #[test]
    fn quoted_and_forwarded_text_starts_below_the_writers_own() {
        let text = "Thanks, that works.\n\nOn Mon, 3 Mar, Ada Quill wrote:\n> See you at 5.";
        let r = Reading::new(text);
        let at = text.find("On Mon").unwrap();
        assert!(!r.in_quote(at - 1) && r.in_quote(at));
        let fwd = "See below.\n---------- Forwarded message ----------\nFrom: Ada Quill";
        assert!(Reading::new(fwd).in_quote(fwd.find("From").unwrap()));
        // A text that opens with a quote line has no text of the writer's own above it.
        assert!(!Reading::new("> quoted\nreply").in_quote(0));
        assert!(!Reading::new("I wrote: it is fine").in_quote(5));
    }

    #[test]
    fn greeting_signature_and_reason_clauses() {
        use crate::decide::reading::Reading;
        let text = "Hi Sam,\n\nPlease call me tomorrow. I was at the clinic because of my knee.\n\nThanks,\nAna";
        let r = Reading::new(text);
        assert!(r.is_greeting(text.find("Sam").unwrap()));
        assert!(r.in_signature(text.rfind("Ana").unwrap()));
        let knee = text.find("knee").unwrap();
        assert!(r.clause_at(knee).is_some_and(|c| c.reason));
        // A lone name greets before a comma, not when it opens a sentence and a bracket.
        let text = "Inés, the parcel is at the desk.";
        assert!(Reading::new(text).is_greeting(0));
        let text = "Customer Odo Varga (odo@example.test) told us he would pay later.";
        assert!(!Reading::new(text).is_greeting(text.find("Odo").unwrap()));
    }

    #[test]
    fn clauses_know_requests_reasons_and_people() {
        let t = "Could you refill it, because my mother is ill. See you Monday";
        let r = Reading::new(t);
        assert!(r.clauses[0].request);
        assert!(r.clauses[1].reason && r.clauses[1].relation && r.clauses[1].first_person);
        assert!(r.clauses[2].has_fact);
    }

    #[test]
    fn a_window_reads_its_part_at_the_text_positions() {
        let text = "Hi Sam,\nPlease call me tomorrow. My mother is ill.\n\nThanks,\nAna";
        let whole = Reading::new(text);
        let same = Reading::window(text, 0..text.len(), true, true);
        assert_eq!(same.words, whole.words);
        assert_eq!(same.segments, whole.segments);
        assert_eq!(same.greeting, whole.greeting);
        assert_eq!(same.signature, whole.signature);
        assert_eq!(same.window_text(), text);
        // The middle of the text: positions are the text's, no greeting, no signature.
        let from = text.find("Please").unwrap();
        let to = text.find("Thanks").unwrap();
        let mid = Reading::window(text, from..to, false, false);
        assert_eq!(mid.window_text(), &text[from..to]);
        assert!(mid.greeting.is_none() && mid.signature.is_none());
        assert_eq!(mid.first_news_sentence(), None);
        let mother = text.find("mother").unwrap();
        assert!(mid.clause_at(mother).is_some_and(|c| c.relation));
        assert_eq!(mid.line_start(mother), from);
        for w in &mid.words {
            assert_eq!(&text[w.range.clone()], w.raw);
        }
        assert_eq!(mid.words_before_in_clause(mother).len(), 1);
        // The last window can end with a signature.
        let tail = Reading::window(text, from..text.len(), false, true);
        assert!(tail.in_signature(text.rfind("Ana").unwrap()));
    }

    #[test]
    fn signatures_start_at_the_closing() {
        let t = "Hello,\nthe report is attached.\n\nMit freundlichen Grüßen\nKarl Beispiel\n+49 30 1234567";
        let r = Reading::new(t);
        assert!(r.in_signature(t.find("Karl").unwrap()));
        assert!(!r.in_signature(t.find("report").unwrap()));
        assert!(
            Reading::new("Thanks for the help with the report yesterday")
                .signature
                .is_none()
        );
    }
}
