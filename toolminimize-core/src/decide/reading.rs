//! A reading of one free-text field: its sentences and clauses, the greeting that names the
//! addressee, the signature block, and which clauses ask something, give a reason, speak of
//! the user or of someone close to the user.
//!
//! ```
//! use toolminimize_core::decide::reading::Reading;
//! let text = "Hi Sam,\n\nPlease call me tomorrow. I was at the clinic because of my knee.\n\nThanks,\nAna";
//! let r = Reading::new(text);
//! assert!(r.is_greeting(text.find("Sam").unwrap()));
//! assert!(r.in_signature(text.rfind("Ana").unwrap()));
//! let knee = text.find("knee").unwrap();
//! assert!(r.clause_at(knee).is_some_and(|c| c.reason));
//! ```

use std::ops::Range;

use super::vocab::{LangMask, WordSet, vocab};
use crate::text::clauses::{Clause, clauses, segments};
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
    /// It opens with a reason or an aside ("because", "FYI", "by the way").
    pub reason: bool,
    /// It speaks of the user ("I", "my").
    pub first_person: bool,
    /// It names someone close to the user ("my mother", "his wife").
    pub relation: bool,
    /// It speaks of someone else ("he", "her").
    pub third_person: bool,
    /// It asks the reader to make contact ("call me", "reach Tom at").
    pub contact_ask: bool,
    /// It carries a fact besides the data in it: a number, a day or a time.
    pub has_fact: bool,
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
    /// The languages the text is most likely written in.
    pub lang: LangMask,
}

impl<'a> Reading<'a> {
    /// Reads `text`.
    pub fn new(text: &'a str) -> Self {
        let ws = words(text);
        let v = vocab();
        let lang = v.languages(&ws, text);
        let cl = clauses(text);
        let mut infos = Vec::with_capacity(cl.len());
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
            let has = |set: WordSet| v.set(set).any_in_langs(lang, cw, raw);
            let reason = v.set(WordSet::Reason).match_in(lang, cw, 0).is_some();
            let has_fact = raw.chars().any(|ch| ch.is_ascii_digit()) || has(WordSet::Time);
            infos.push(ClauseInfo {
                request: has(WordSet::Request),
                reason,
                first_person: has(WordSet::FirstPerson),
                relation: has(WordSet::Relation),
                third_person: has(WordSet::ThirdPerson),
                contact_ask: has(WordSet::ContactAsk),
                has_fact,
                words: start..end,
                clause: c,
            });
            wi = end;
        }
        let greeting = infos.first().and_then(|first| {
            let cw = ws.get(first.words.clone()).unwrap_or_default();
            let opens = v.set(WordSet::Greeting).match_in(lang, cw, 0).is_some();
            // "Hi Dana", "Dear Mrs. Lee", or a lone name before a comma ("Inés, …").
            let lone_name = cw.len() <= 3
                && infos.len() > 1
                && cw
                    .iter()
                    .all(|w| w.raw.chars().next().is_some_and(char::is_uppercase));
            (cw.len() <= 6 && (opens || lone_name)).then(|| first.clause.range.clone())
        });
        let signature = signature_start(text, &ws, lang);
        Reading {
            text,
            words: ws,
            segments: segments(text),
            clauses: infos,
            greeting,
            signature,
            lang,
        }
    }

    /// The clause holding byte `at` (or, when `at` is on a boundary such as an opening
    /// parenthesis, the clause that follows it).
    pub fn clause_at(&self, at: usize) -> Option<&ClauseInfo> {
        self.clause_index(at).and_then(|i| self.clauses.get(i))
    }

    /// The index of the clause holding byte `at` (see [`Reading::clause_at`]).
    pub fn clause_index(&self, at: usize) -> Option<usize> {
        self.clauses
            .iter()
            .position(|c| c.clause.range.start <= at && at < c.clause.range.end)
            .or_else(|| {
                self.clauses
                    .iter()
                    .position(|c| c.clause.range.start > at)
                    .filter(|&i| {
                        self.clauses.get(i).is_some_and(|c| {
                            self.text
                                .get(at..c.clause.range.start)
                                .is_some_and(|gap| gap.chars().all(|ch| !ch.is_alphanumeric()))
                        })
                    })
            })
    }

    /// The clauses of the sentence holding byte `at`.
    pub fn sentence_clauses(&self, at: usize) -> impl Iterator<Item = &ClauseInfo> {
        let sentence = self.clause_at(at).map(|c| c.clause.sentence);
        self.clauses
            .iter()
            .filter(move |c| Some(c.clause.sentence) == sentence)
    }

    /// Whether byte `at` lies in the greeting.
    pub fn is_greeting(&self, at: usize) -> bool {
        self.greeting.as_ref().is_some_and(|g| g.contains(&at))
    }

    /// Whether byte `at` lies in the signature block.
    pub fn in_signature(&self, at: usize) -> bool {
        self.signature.is_some_and(|s| at >= s)
    }

    /// Byte ranges of the clauses that ask the reader to act.
    pub fn request_sentences(&self) -> Vec<usize> {
        let mut out: Vec<usize> = self
            .clauses
            .iter()
            .filter(|c| c.request)
            .map(|c| c.clause.sentence)
            .collect();
        out.dedup();
        out
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
        self.segments
            .iter()
            .position(|r| r.start <= at && at < r.end)
    }

    /// Up to `n` words before byte `at` on the same line, across clause boundaries
    /// ("Account e-mail: ana@…").
    pub fn words_before_on_line(&self, at: usize, n: usize) -> &[Word<'a>] {
        let head = self.text.get(..at).unwrap_or_default();
        let line_start = head.rfind('\n').map_or(0, |i| i + 1);
        let end = self
            .words
            .iter()
            .position(|w| w.range.start >= at)
            .unwrap_or(self.words.len());
        let mut start = end;
        while start > 0
            && end - start < n
            && self
                .words
                .get(start - 1)
                .is_some_and(|w| w.range.start >= line_start)
        {
            start -= 1;
        }
        self.words.get(start..end).unwrap_or_default()
    }

    /// The words of the clause holding byte `at`, before `at`.
    pub fn words_before_in_clause(&self, at: usize) -> &[Word<'a>] {
        let Some(c) = self.clause_at(at) else {
            return &[];
        };
        let end = self
            .words
            .iter()
            .position(|w| w.range.start >= at)
            .unwrap_or(self.words.len())
            .min(c.words.end)
            .max(c.words.start);
        self.words.get(c.words.start..end).unwrap_or_default()
    }
}

/// The start of a signature block: the line after a closing ("Thanks,", "Mit freundlichen
/// Grüßen") in the last lines of the text, or the closing itself.
fn signature_start(text: &str, ws: &[Word<'_>], lang: LangMask) -> Option<usize> {
    let v = vocab();
    // Only the last few lines can hold a signature.
    let mut line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    line_starts.retain(|&s| s < text.len());
    let tail_from = line_starts.len().saturating_sub(6);
    for &ls in line_starts.get(tail_from..).unwrap_or_default() {
        let le = text
            .get(ls..)
            .and_then(|t| t.find('\n'))
            .map_or(text.len(), |i| ls + i);
        let line = text.get(ls..le).unwrap_or_default().trim();
        if line.is_empty() || line.chars().count() > 40 {
            continue;
        }
        let lw: Vec<Word<'_>> = ws
            .iter()
            .filter(|w| w.range.start >= ls && w.range.end <= le)
            .cloned()
            .collect();
        let closing = v
            .set(WordSet::Signoff)
            .match_in(lang, &lw, 0)
            .is_some_and(|n| n + 1 >= lw.len());
        if closing {
            return Some(ls);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_know_requests_reasons_and_people() {
        let t = "Could you refill it, because my mother is ill. See you Monday";
        let r = Reading::new(t);
        assert!(r.clauses[0].request);
        assert!(r.clauses[1].reason && r.clauses[1].relation && r.clauses[1].first_person);
        assert!(r.clauses[2].has_fact);
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
