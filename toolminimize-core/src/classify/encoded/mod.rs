//! Stage 2c: encoded and obfuscated substrings (base64, percent-encoding, hex, HTML entities,
//! backslash escapes, Unicode tricks and look-alike dashes and spaces, spread-out digits,
//! numbers written as words, leetspeak, rot13, spelled-out e-mail addresses, words spelled
//! out one letter at a time): decode or
//! normalise, rescan with every detector (lexicons included), map findings back to the
//! original span.
//!
//! Every decoded view keeps a map from its bytes back to the text it came from, so a finding
//! in the view becomes a span of the original: for a base64 or hex blob the whole blob, for
//! inline tricks the exact range that decodes to the finding (`Greta%20Lindgren`,
//! `1 2 3 - 4 5 - 6 7 8 9`). Views are decoded again once more (a percent-encoded string
//! inside base64), never deeper. Only findings that touch a decoded piece, or border on one
//! (`asylum` in `defensive%20asylum`: the decoded space made it a word), are kept, and one
//! already found on the plain text at the same place is not repeated.

mod decoders;
mod facts;
mod normalise;
mod view;

use std::ops::Range;

pub(crate) use self::facts::{Facts, FactsScan};
use self::view::View;
use super::{Coverage, Detector, Field};
use crate::item::{Finding, PsdKind};

/// Longest text decoded in one piece (bytes); the classifier hands longer strings over in
/// windows of at most [`SCAN_WINDOW`](super::SCAN_WINDOW) bytes. A longer text is reported as
/// not wholly scanned, never silently passed.
const MAX_TEXT: usize = 1 << 20;
/// Views are decoded at most this deep (a view of a view).
const MAX_DEPTH: usize = 2;
/// Context kept on each side of a decoded or replaced piece when a view is scanned again
/// (bytes): wider than any detector's look-around (context words, names' titles).
const WINDOW_RADIUS: usize = 160;
/// Most decoded bytes scanned per text, across all views (far above what a text of
/// [`MAX_TEXT`] bytes decodes to unless it nests encodings on purpose); past it the text is
/// reported as not wholly scanned.
const MAX_DECODED: usize = 8 << 20;

/// All decoded views of `text`, whose [`Facts`] are `facts`. The decoders whose first test
/// they rule out are not called (they would find nothing).
fn views(text: &str, facts: &Facts) -> Vec<View> {
    views_gated(text, facts, true)
}

/// [`views`], calling each decoder whatever the facts (`gated: false`) or only those the
/// facts leave possible (`gated: true`): both give the same views.
fn views_gated(text: &str, facts: &Facts, gated: bool) -> Vec<View> {
    let mut out = if !gated || facts.base64_run >= decoders::MIN_BASE64 {
        decoders::base64_blobs(text)
    } else {
        Vec::new()
    };
    // Sixteen hexadecimal digits in a row are a run of base64 characters too.
    if !gated || facts.base64_run >= decoders::MIN_HEX && decoders::has_hex_run(text) {
        out.extend(decoders::hex_blobs(text));
    }
    if !gated || facts.percent {
        out.extend(decoders::percent(text));
    }
    if !gated || facts.amp {
        out.extend(decoders::html_entities(text));
    }
    if !gated || facts.backslash {
        out.extend(normalise::escapes(text));
    }
    if !gated || facts.tricky {
        out.extend(decoders::unicode_tricks(text));
    }
    if !gated || facts.digits >= 6 {
        out.extend(decoders::spread_digits(text));
        out.extend(decoders::letter_digits(text));
    }
    // Each number word of the Latin-script lists holds a run of ASCII letters of its own (a
    // word is a whole run of letters).
    // Number words of the Cyrillic and Greek lists hold no ASCII letter.
    if !gated
        || facts.letter_runs >= normalise::MIN_DIGIT_WORDS
        || !text.is_ascii() && text.chars().any(|c| matches!(c, '\u{0370}'..='\u{04FF}'))
    {
        out.extend(normalise::number_words(text));
    }
    out.extend(normalise::han_digits(text));
    out.extend(normalise::spelled_dates(text));
    if !gated || facts.leet {
        out.extend(normalise::leetspeak(text, 'i'));
        // Read with `1` as `l` only where a word holds a `1`.
        if !gated || facts.one {
            out.extend(normalise::leetspeak(text, 'l'));
        }
    }
    // The marker, "rot13" or the like, holds an `r` and a `1`.
    if !gated || facts.r && facts.one {
        out.extend(normalise::rot13(text));
    }
    if !gated || decoders::may_spell_at(text, facts.at) {
        out.extend(decoders::spelled_email(text));
    }
    out.extend(decoders::defanged(text));
    out.extend(decoders::spread_letters(text));
    out
}

struct Scan<'a, 'f> {
    field: &'a Field<'f>,
    detectors: &'a [Box<dyn Detector>],
    budget: usize,
    exhausted: bool,
    found: Vec<Finding>,
}

impl Scan<'_, '_> {
    /// Scans the views of `text`; `to_orig` maps a span of `text` to the original string.
    /// `facts` are those of `text` when already read.
    fn rescan(
        &mut self,
        text: &str,
        facts: Option<&Facts>,
        to_orig: &dyn Fn(&Range<usize>) -> Option<Range<usize>>,
        depth: usize,
    ) {
        let facts = facts.copied().unwrap_or_else(|| Facts::of(text));
        for view in views(text, &facts) {
            let field = Field {
                dictated: view.is_dictated(),
                ..*self.field
            };
            for w in view.windows(WINDOW_RADIUS) {
                let Some(part) = view.as_str().get(w.clone()) else {
                    continue;
                };
                if part.len() > self.budget {
                    self.exhausted = true;
                    return;
                }
                self.budget -= part.len();
                let to_view = |r: &Range<usize>| r.start + w.start..r.end + w.start;
                let mut local = Vec::new();
                for d in self.detectors {
                    d.detect(part, &field, &mut local);
                }
                for f in local {
                    let in_view = to_view(&f.span);
                    // Touching a decoded piece, or bordering on one.
                    let border = in_view.start.saturating_sub(1)..in_view.end + 1;
                    if !view.any_changed(&border) {
                        continue;
                    }
                    let Some(span) = view.source_span(&in_view).and_then(|r| to_orig(&r)) else {
                        continue;
                    };
                    self.found.push(Finding { span, ..f });
                }
                if depth < MAX_DEPTH {
                    let map =
                        |r: &Range<usize>| view.source_span(&to_view(r)).and_then(|s| to_orig(&s));
                    self.rescan(part, None, &map, depth + 1);
                }
            }
        }
    }
}

/// Compiles the decoders' patterns, if not done yet.
pub(crate) fn warm_up() {
    decoders::warm_up();
}

/// Scans decoded/normalised views of `text` with `detectors` and appends findings whose spans
/// are mapped back onto `text`. Findings already found on the plain text are not repeated.
///
/// Returns `Coverage::Partial` when some decoded content could not be scanned (a text over
/// 1 MiB, or more decoded content than the budget allows): the caller must then not forward
/// the text as it is.
pub fn scan_hidden(
    text: &str,
    field: &Field<'_>,
    detectors: &[Box<dyn Detector>],
    out: &mut Vec<Finding>,
) -> Coverage {
    scan_hidden_given(text, None, field, detectors, out)
}

/// [`scan_hidden`], with the [`Facts`] of `text` when already read (by the pass that reads the
/// facts its patterns are tested against: see `need::TextFacts::of_with`).
pub(crate) fn scan_hidden_given(
    text: &str,
    facts: Option<&Facts>,
    field: &Field<'_>,
    detectors: &[Box<dyn Detector>],
    out: &mut Vec<Finding>,
) -> Coverage {
    if text.len() < 6 {
        return Coverage::Whole;
    }
    if text.len() > MAX_TEXT {
        return Coverage::Partial;
    }
    let mut scan = Scan {
        field,
        detectors,
        budget: MAX_DECODED,
        exhausted: false,
        found: Vec::new(),
    };
    scan.rescan(text, facts, &|r| Some(r.clone()), 1);
    if scan.found.is_empty() {
        return coverage(scan.exhausted);
    }
    // Already found on the plain text: inside a finding of the same kind.
    let mut by_kind: Vec<(PsdKind, Vec<Range<usize>>)> = Vec::new();
    for o in out.iter() {
        match by_kind.iter_mut().find(|(k, _)| *k == o.kind) {
            Some((_, v)) => v.push(o.span.clone()),
            None => by_kind.push((o.kind, vec![o.span.clone()])),
        }
    }
    let seen: Vec<(PsdKind, crate::text::spans::SpanSet)> = by_kind
        .into_iter()
        .map(|(k, v)| (k, crate::text::spans::SpanSet::new(v)))
        .collect();
    let mut secrets: Vec<Range<usize>> = Vec::new();
    for mut f in scan.found {
        // A secret found in a decoded token is all of the token: what the decoding cut at
        // ("user%3AP%40ss%20w0rd%21" read as "user:P@ss w0rd!") is the same password.
        if f.kind == PsdKind::Credential {
            f.span.end = token_end(text, f.span.end);
            if secrets.contains(&f.span) {
                continue;
            }
            secrets.push(f.span.clone());
        }
        let already = seen
            .iter()
            .find(|(k, _)| *k == f.kind)
            .is_some_and(|(_, c)| c.contains(&f.span));
        if !already
            && f.span.end <= text.len()
            && text.is_char_boundary(f.span.start)
            && text.is_char_boundary(f.span.end)
        {
            out.push(f);
        }
    }
    coverage(scan.exhausted)
}

/// Where the run of non-blank characters holding byte `at` of `text` ends (a closing full
/// stop or bracket left out).
fn token_end(text: &str, at: usize) -> usize {
    let rest = text.get(at..).unwrap_or_default();
    let run = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let token = rest.get(..run).unwrap_or_default();
    at + token
        .trim_end_matches(['.', ',', ';', ')', ']', '}', '"', '\''])
        .len()
}

fn coverage(exhausted: bool) -> Coverage {
    if exhausted {
        Coverage::Partial
    } else {
        Coverage::Whole
    }
}

#[cfg(test)]
pub(crate) use self::decoders::check_patterns;

#[cfg(test)]
mod tests;
