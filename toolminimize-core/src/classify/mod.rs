//! Classify: find privacy-sensitive data (PSD) in tool-call arguments.
//!
//! Stage 1 ([`structured`]) finds validated identifiers; stage 2 finds implicit PSD with
//! lexicons ([`lexicon`]), person names ([`names`]) and hidden, encoded forms ([`encoded`]);
//! [`combine`] raises the sensitivity of quasi-identifiers that identify together. Every table is
//! compiled once, when the [`Minimizer`](crate::Minimizer) is built.

mod care_place;
pub mod combine;
mod detector;
pub mod encoded;
mod gate_words;
pub mod lexicon;
pub mod names;
mod need;
mod overlap;
mod pattern;
mod shared;
mod split;
pub mod structured;
mod terms;

use std::fmt;

use serde_json::Value;

use crate::args::{Arg, Node};

pub use self::detector::{Detector, Field};
use crate::budget::Deadline;
use crate::error::Error;
use crate::item::{Finding, PsdItem};
use crate::policy::Policy;
use crate::schema::{ElementFields, FieldInfo, SchemaIndex, push_index, push_token};

/// Whether a built-in detector failed to compile (a bug, caught by tests).
pub(crate) fn detectors_failed() -> bool {
    shared::failed()
}

/// Starts compiling, on background threads, the detectors and metadata calls will need (once
/// per process; see [`MinimizerBuilder::build`](crate::MinimizerBuilder::build)).
pub(crate) fn warm_up() {
    shared::warm_up();
}

/// Compiles, on the calling thread, every detector and pattern not compiled yet and loads the
/// phone metadata (sharing the work with the warm-up threads).
///
/// # Errors
/// When a built-in detector failed to compile (a bug, caught by tests).
pub(crate) fn ready() -> Result<(), Error> {
    structured::warm_up();
    lexicon::warm_up();
    encoded::warm_up();
    structured::warm_up_phone_metadata();
    if shared::failed() {
        return Err(Error::new(
            crate::error::ErrorKind::Build,
            "a built-in detector failed to compile",
        ));
    }
    Ok(())
}

/// Strings longer than this (bytes) are classified in windows of at most this size.
pub const SCAN_WINDOW: usize = 256 * 1024;
/// Consecutive windows of a long string overlap by this many bytes (at least), so that any
/// finding shorter than this lies whole in one window, with its context.
pub const SCAN_OVERLAP: usize = 4 * 1024;

/// Whether a string was scanned whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub enum Coverage {
    /// Every byte, and every decoded view of it, went through the detectors.
    Whole,
    /// Some decoded content was not scanned (a decoding budget ran out).
    Partial,
}

/// The windows a long string is scanned in: each at most [`SCAN_WINDOW`] bytes, consecutive
/// ones overlapping by at least [`SCAN_OVERLAP`] bytes, edges on char boundaries and, where
/// the text allows, just after whitespace.
pub(crate) fn windows(text: &str) -> Vec<std::ops::Range<usize>> {
    let len = text.len();
    let floor = |mut i: usize| {
        while i > 0 && !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let after_space = |from: usize, to: usize| {
        text.get(from..to).and_then(|s| {
            s.char_indices()
                .rev()
                .find(|(_, c)| c.is_whitespace())
                .map(|(i, c)| from + i + c.len_utf8())
        })
    };
    let mut out = Vec::new();
    let mut start = 0;
    loop {
        if len - start <= SCAN_WINDOW {
            out.push(start..len);
            return out;
        }
        let hard = floor(start + SCAN_WINDOW);
        let end = after_space(floor(hard - SCAN_WINDOW / 4), hard).unwrap_or(hard);
        out.push(start..end);
        // The next window starts at least SCAN_OVERLAP before this one's end, after a space
        // if there is one in the next quarter of the overlap back.
        let back = floor(end - SCAN_OVERLAP);
        let next = after_space(floor(back.saturating_sub(SCAN_OVERLAP / 4)), back).unwrap_or(back);
        start = if next > start {
            next
        } else {
            back.max(start + 1)
        };
        start = floor(start);
    }
}

/// Runs every detector over every string (and the numeric coordinates) of the arguments.
pub struct Classifier {
    detectors: Vec<Box<dyn Detector>>,
    policy_terms: terms::PolicyTerms,
}

impl fmt::Debug for Classifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Classifier")
            .field(
                "detectors",
                &self.detectors.iter().map(|d| d.name()).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl Classifier {
    /// Builds the built-in detectors plus `extra`, and the policy's allow- and deny-lists.
    ///
    /// # Errors
    /// When a table fails to build.
    pub fn build(policy: &Policy, extra: Vec<Box<dyn Detector>>) -> Result<Self, Error> {
        // Detectors and the patterns they share compile once per process, on first use (or
        // ahead of it on the warm-up threads): a failure makes every call fail under the fail
        // mode, never a detector silently switched off, and the tests compile them all.
        let mut detectors = structured::detectors()?;
        detectors.extend(lexicon::detectors()?);
        detectors.extend(names::detectors()?);
        detectors.extend(extra);
        Ok(Classifier {
            detectors,
            policy_terms: terms::PolicyTerms::build(policy)?,
        })
    }

    /// All findings in one string, overlaps resolved, allow-listed spans dropped.
    ///
    /// Every byte is scanned. A string longer than [`SCAN_WINDOW`] is scanned window by window
    /// (consecutive windows overlap by [`SCAN_OVERLAP`] bytes and are cut at whitespace where
    /// possible), so no detector ever sees more than one window and the work stays linear in
    /// the length of the string; the findings of all windows are merged and their overlaps
    /// resolved as for one string. The windows are scanned on several cores at once where
    /// the machine has them.
    pub fn scan_text(&self, text: &str, field: &Field<'_>) -> Vec<Finding> {
        self.scan_text_checked(text, field).0
    }

    /// [`scan_text`](Self::scan_text), and whether some decoded content was left unscanned
    /// because a decoding budget ran out (then the caller must not forward the string as it is).
    pub(crate) fn scan_text_checked(
        &self,
        text: &str,
        field: &Field<'_>,
    ) -> (Vec<Finding>, Coverage) {
        let mut coverage = Coverage::Whole;
        if text.len() <= SCAN_WINDOW {
            let out = self.scan_window(text, field, &mut coverage);
            return (out, coverage);
        }
        // The windows are scanned apart from each other, so on several cores at once.
        let scanned = crate::par::map(&windows(text), 1, |_, w| {
            let mut coverage = Coverage::Whole;
            let Some(part) = text.get(w.clone()) else {
                // Window edges are char boundaries; a failure here is a bug, and the string
                // must not pass unscanned.
                return (Vec::new(), Coverage::Partial);
            };
            let found = self.scan_window(part, field, &mut coverage);
            let found: Vec<Finding> = found
                .into_iter()
                .map(|f| Finding {
                    span: f.span.start + w.start..f.span.end + w.start,
                    ..f
                })
                .collect();
            (found, coverage)
        });
        let mut out = Vec::new();
        for (found, c) in scanned {
            if c == Coverage::Partial {
                coverage = Coverage::Partial;
            }
            out.extend(found);
        }
        overlap::resolve(&mut out);
        (out, coverage)
    }

    fn scan_window(&self, text: &str, field: &Field<'_>, coverage: &mut Coverage) -> Vec<Finding> {
        // One pass reads the facts the patterns are tested against and those the decoders are.
        let mut decoding = encoded::FactsScan::default();
        let facts = need::TextFacts::of_with(text, &mut decoding);
        let decoding = decoding.facts(&facts);
        need::with_facts(text, facts, || {
            self.scan_window_with_facts(text, field, &decoding, coverage)
        })
    }

    /// [`scan_window`](Self::scan_window), the facts of `text` computed (see [`need`]); those
    /// the decoders test are `decoding`.
    fn scan_window_with_facts(
        &self,
        text: &str,
        field: &Field<'_>,
        decoding: &encoded::Facts,
        coverage: &mut Coverage,
    ) -> Vec<Finding> {
        let mut out = Vec::new();
        // A value that is a date and nothing else can only be a date of birth (by its field's
        // name or description); it names no place of care and hides nothing to decode.
        let date_only = crate::text::calendar::is_iso_date_time(text);
        for d in self
            .detectors
            .iter()
            .filter(|d| !date_only || d.name() == DATE_DETECTOR)
        {
            d.detect(text, field, &mut out);
        }
        if !date_only {
            care_place::extend(text, &mut out);
        }
        self.policy_terms.deny(text, &mut out);
        if !date_only
            && encoded::scan_hidden_given(text, Some(decoding), field, &self.detectors, &mut out)
                == Coverage::Partial
        {
            *coverage = Coverage::Partial;
        }
        self.policy_terms.allow(text, &mut out);
        if text.contains('`') {
            structured::drop_fixture_emails(text, &mut out);
        }
        drop_published_examples(text, &mut out);
        overlap::resolve(&mut out);
        out
    }

    /// All PSD items in `args`. `schema` supplies field descriptions and `x-sensitivity`.
    pub fn classify(&self, args: &Value, schema: &SchemaIndex) -> Vec<PsdItem> {
        self.classify_within(args.into(), schema, &Deadline::none())
            .unwrap_or_default()
    }

    /// [`classify`](Self::classify) under a deadline: stops with an error when the deadline
    /// passes or when a string could not be scanned whole, so that the caller applies its fail
    /// mode instead of forwarding anything unscanned.
    pub(crate) fn classify_within(
        &self,
        args: Arg<'_>,
        schema: &SchemaIndex,
        deadline: &Deadline,
    ) -> Result<Vec<PsdItem>, &'static str> {
        let mut items = Vec::new();
        let mut path = String::new();
        let mut walk = Walk {
            classifier: self,
            schema,
            deadline,
            items: &mut items,
            path: &mut path,
        };
        walk.value(args, None, 0)?;
        combine::apply(&mut items);
        Ok(items)
    }
}

struct Walk<'c, 'a> {
    classifier: &'c Classifier,
    schema: &'a SchemaIndex,
    deadline: &'a Deadline,
    items: &'a mut Vec<PsdItem>,
    path: &'a mut String,
}

impl Walk<'_, '_> {
    fn value(&mut self, v: Arg<'_>, key: Option<&str>, depth: usize) -> Result<(), &'static str> {
        if depth > crate::MAX_DEPTH {
            return Err("arguments nested too deeply");
        }
        match v.node() {
            Node::String(s) => {
                let info = self.schema.field_unkeyed(self.path);
                self.string(s, key, info)?;
            }
            Node::Object(map) => {
                for (k, f) in structured::numeric_findings(map.clone()) {
                    let len = self.path.len();
                    push_token(self.path, &k);
                    self.items.push(self.schema.item_from(self.path, None, &f));
                    self.path.truncate(len);
                }
                for (k, child) in map {
                    let len = self.path.len();
                    push_token(self.path, k);
                    self.value(child, Some(k), depth + 1)?;
                    self.path.truncate(len);
                }
            }
            Node::Array(arr) => {
                if let Some(k) = key {
                    for (i, f) in structured::numeric_pair_findings(k, arr.clone())
                        .into_iter()
                        .enumerate()
                    {
                        let len = self.path.len();
                        push_index(self.path, i);
                        self.items.push(self.schema.item_from(self.path, None, &f));
                        self.path.truncate(len);
                    }
                }
                // The elements' schema entries are found once for the whole array.
                let elements = self.schema.elements_unkeyed(self.path);
                if depth < crate::MAX_DEPTH
                    && arr.len() >= PARALLEL_ELEMENTS
                    && crate::par::threads() > 1
                {
                    self.elements_in_parallel(v, key, elements, depth)?;
                } else {
                    for (i, child) in arr.enumerate() {
                        self.element(i, child, key, elements, depth)?;
                    }
                }
                self.deadline.check()?;
                split::scan(self.classifier, v, self.path, self.schema, self.items);
            }
            _ => {}
        }
        Ok(())
    }

    /// Walks element `i` of the array at the current path.
    fn element(
        &mut self,
        i: usize,
        child: Arg<'_>,
        key: Option<&str>,
        elements: ElementFields<'_>,
        depth: usize,
    ) -> Result<(), &'static str> {
        let len = self.path.len();
        push_index(self.path, i);
        match child.as_str() {
            Some(s) if depth < crate::MAX_DEPTH => {
                self.string(s, key, elements.get(i))?;
            }
            _ => self.value(child, key, depth + 1)?,
        }
        self.path.truncate(len);
        Ok(())
    }

    /// Walks the elements of a long array as [`element`](Self::element) does one by one, its
    /// strings scanned on several cores at once first: only what they found waits to be
    /// placed (a string with no finding leaves nothing), in element order.
    fn elements_in_parallel(
        &mut self,
        arr: Arg<'_>,
        key: Option<&str>,
        elements: ElementFields<'_>,
        depth: usize,
    ) -> Result<(), &'static str> {
        let classifier = self.classifier;
        let deadline = self.deadline;
        let array_path: &str = self.path;
        let scanned = crate::par::filter_map_range(arr.len(), PARALLEL_CHUNK, |i| {
            let s = arr.index(i)?.as_str()?;
            let mut path = String::with_capacity(array_path.len() + 8);
            path.push_str(array_path);
            push_index(&mut path, i);
            if let Err(e) = deadline.check() {
                return Some(Err(e));
            }
            let info = elements.get(i);
            let field = Field {
                path: &path,
                key,
                description: info.and_then(|i| i.description.as_deref()),
                dictated: false,
            };
            match classifier.scan_text_checked(s, &field) {
                (_, Coverage::Partial) => Some(Err(UNSCANNED)),
                (findings, Coverage::Whole) if findings.is_empty() => None,
                (findings, Coverage::Whole) => Some(Ok(findings)),
            }
        });
        let mut scanned = scanned.into_iter().peekable();
        for (i, child) in arr.elements().into_iter().flatten().enumerate() {
            if !child.is_string() {
                self.element(i, child, key, elements, depth)?;
                continue;
            }
            let Some((_, found)) = scanned.next_if(|(at, _)| *at == i) else {
                continue;
            };
            let findings = found?;
            let len = self.path.len();
            push_index(self.path, i);
            self.push_findings(elements.get(i), findings);
            self.path.truncate(len);
        }
        Ok(())
    }

    /// Records the findings of the string at the current path, whose field is `info`, as items.
    fn push_findings(&mut self, info: Option<&FieldInfo>, findings: Vec<Finding>) {
        for f in findings {
            self.items.push(SchemaIndex::item_in(
                info,
                self.path,
                Some(f.span.clone()),
                &f,
            ));
        }
    }

    /// Scans the string `s` at the current path, whose field is `info`.
    fn string(
        &mut self,
        s: &str,
        key: Option<&str>,
        info: Option<&FieldInfo>,
    ) -> Result<(), &'static str> {
        self.deadline.check()?;
        let field = Field {
            path: self.path,
            key,
            description: info.and_then(|i| i.description.as_deref()),
            dictated: false,
        };
        let (findings, coverage) = self.classifier.scan_text_checked(s, &field);
        if coverage == Coverage::Partial {
            return Err(UNSCANNED);
        }
        self.push_findings(info, findings);
        Ok(())
    }
}

/// The detector that reads a value which is an ISO date and nothing else (a date of birth).
const DATE_DETECTOR: &str = "dob";

/// Arrays of at least this many elements have their strings scanned on several cores.
const PARALLEL_ELEMENTS: usize = 1024;
/// Elements a thread takes at a time.
const PARALLEL_CHUNK: usize = 256;

/// Why a call could not be classified: a string holds more encoded content than can be
/// decoded and scanned.
pub(crate) const UNSCANNED: &str = "a string holds more encoded content than can be scanned";

/// Drops the findings of `text` that are values documentation publishes as examples
/// ([`crate::text::examples`]): a placeholder person's name, a test card number, a
/// registry's example IBAN, a street in a placeholder town. They are
/// nobody's, and a fixture or a bug report needs them as written.
fn drop_published_examples(text: &str, out: &mut Vec<Finding>) {
    use crate::item::PsdKind;
    use crate::text::examples as ex;
    out.retain(|f| {
        let Some(v) = text.get(f.span.clone()) else {
            return true;
        };
        let example = match f.kind {
            PsdKind::PersonName => ex::is_placeholder_person(v),
            PsdKind::CardNumber => ex::is_test_card(v),
            PsdKind::Iban => ex::is_example_iban(v),
            PsdKind::StreetAddress => {
                let mut end = (f.span.end + 24).min(text.len());
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                text.get(f.span.start..end)
                    .is_some_and(ex::names_placeholder_place)
            }
            _ => false,
        };
        !example
    });
}

#[cfg(test)]
mod build_tests {
    use super::*;
    use crate::item::PsdKind;

    /// Every built-in pattern, automaton and table compiles: a failure is a build error of
    /// every minimizer, never a detector silently switched off.
    #[test]
    fn every_built_in_detector_and_pattern_compiles() {
        encoded::check_patterns().unwrap();
        lexicon::check_patterns().unwrap();
        structured::check_patterns().unwrap();
        names::detectors().unwrap();
        ready().unwrap();
        assert!(!detectors_failed());
        let c = Classifier::build(&Policy::default(), Vec::new()).unwrap();
        assert!(!format!("{c:?}").is_empty());
    }

    /// Phone numbers dictated digit by digit, in words or in Han numerals, with no word for a
    /// phone before them, and digits of other scripts after a word for getting in touch; the
    /// same words without a number are nothing.
    #[test]
    fn numbers_dictated_digit_by_digit_are_phones() {
        let c = Classifier::build(&Policy::default(), Vec::new()).unwrap();
        let phones = |text: &str| -> Vec<String> {
            c.scan_text(text, &Field::new("/message"))
                .into_iter()
                .filter(|f| f.kind == PsdKind::Phone)
                .map(|f| text[f.span].to_owned())
                .collect()
        };
        for (text, number) in [
            (
                "of bel nul zes één vier zeven drie twee acht negen vijf, groetjes",
                "nul zes één vier zeven drie twee acht negen vijf",
            ),
            (
                "o escríbeme al seis uno dos, cuarenta y cinco, veintiocho, treinta y uno.",
                "seis uno dos, cuarenta y cinco, veintiocho, treinta y uno",
            ),
            (
                "ya da sıfır beş yüz otuz bir iki yüz on yedi kırk dört altmış iki'yi arayın",
                "sıfır beş yüz otuz bir iki yüz on yedi kırk dört altmış iki'yi",
            ),
            (
                "ご連絡は〇九〇・一二三四・五六七八までお願いします。",
                "〇九〇・一二三四・五六七八",
            ),
            ("للتواصل: ٠٥٦٨٣٢٧١٩٠ شكرا", "٠٥٦٨٣٢٧١٩٠"),
            (
                "문자는 공일공 구팔칠륙 오사삼이 로 주세요",
                "공일공 구팔칠륙 오사삼이",
            ),
        ] {
            assert_eq!(phones(text), [number], "{text}");
        }
        for text in [
            "turn on one of the two lights, then the three others",
            "二〇二六年三月一日に一緒に行きます",
            "el seis de mayo, cuarenta y cinco personas",
            // A number a label calls a bank account's is none of a phone's.
            "Kontonummer null sieben eins, vier vier zwei, acht drei neun eins eins",
        ] {
            assert!(phones(text).is_empty(), "{text}");
        }
    }

    /// A long array (its strings scanned on several cores) gives the items its strings give
    /// one by one, in element order, with a nested array and a number among them.
    #[test]
    fn a_long_array_is_classified_as_its_strings_are_one_by_one() {
        let c = Classifier::build(&Policy::default(), Vec::new()).unwrap();
        let mut elements: Vec<Value> = (0..PARALLEL_ELEMENTS + 500)
            .map(|i| match i % 300 {
                7 => Value::String(format!("note {i}: write to kim.lo{i}@example.org")),
                150 => Value::String(format!("call +44 7700 900{:03} today", i % 1000)),
                _ => Value::String(format!("parcel {i} ships tomorrow")),
            })
            .collect();
        elements[40] = serde_json::json!(["a nested mail: ana@example.net"]);
        elements[41] = serde_json::json!(12);
        let args = serde_json::json!({ "tags": elements });
        let schema = SchemaIndex::build(&serde_json::json!({"type": "object"}), &args);
        let items = c.classify(&args, &schema);
        let mut expected = Vec::new();
        for (i, v) in elements.iter().enumerate() {
            let path = format!("/tags/{i}");
            match v {
                Value::String(s) => {
                    for f in c.scan_text(s, &Field::new(&path)) {
                        expected.push((path.clone(), Some(f.span), f.kind));
                    }
                }
                Value::Array(a) => {
                    let inner = format!("{path}/0");
                    let s = a[0].as_str().unwrap();
                    for f in c.scan_text(s, &Field::new(&inner)) {
                        expected.push((inner.clone(), Some(f.span), f.kind));
                    }
                }
                _ => {}
            }
        }
        let got: Vec<_> = items
            .iter()
            .map(|it| (it.path.clone(), it.span.clone(), it.kind))
            .collect();
        assert!(expected.len() >= 10);
        assert_eq!(got, expected);
    }
}
