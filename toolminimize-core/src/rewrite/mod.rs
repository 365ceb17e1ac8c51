//! Rewrite: removal, generalization, substitution and truncation, each correct for its data,
//! with the output kept valid against the tool's schema.
//!
//! The rewriter takes the analyzer's decisions and returns new arguments plus the action
//! finally applied to each item. When a rewrite would make a field invalid and no less
//! revealing valid value exists, the field keeps its value and the item is reported as kept.

pub mod generalize;
pub mod substitute;
pub mod text;
pub mod validity;

use serde_json::Value;

use self::substitute::Placeholders;
use self::text::{Edit, apply_edits, removal_range};
use crate::decide::{Decision, Op, Rule};
use crate::item::{PsdItem, PsdKind};
use crate::report::Action;
use crate::schema::SchemaIndex;
use crate::text::clauses::{clause_of, clauses, segment_of, segments};

/// The result of rewriting.
#[derive(Debug, Clone)]
pub struct Rewritten {
    /// The new arguments.
    pub arguments: Value,
    /// The action applied to each item (aligned with the items).
    pub actions: Vec<Action>,
    /// Items whose decision was overridden to keep the output valid.
    pub kept_for_validity: Vec<bool>,
}

fn action_of(op: Op) -> Action {
    match op {
        Op::Keep => Action::Keep,
        Op::RemoveField
        | Op::RemoveSpan
        | Op::RemoveClause
        | Op::RemoveSentence
        | Op::RemoveSegment => Action::Remove,
        Op::Generalize => Action::Generalize,
        Op::Substitute => Action::Substitute,
        Op::Truncate(_) => Action::Truncate,
    }
}

fn split_parent(path: &str) -> Option<(&str, String)> {
    let (parent, last) = path.rsplit_once('/')?;
    Some((parent, last.replace("~1", "/").replace("~0", "~")))
}

/// Applies `decisions` to `args`.
pub fn rewrite(
    args: &Value,
    schema: &SchemaIndex,
    items: &[PsdItem],
    decisions: &[Decision],
    placeholders: &mut Placeholders,
) -> Rewritten {
    let mut out = args.clone();
    let mut actions: Vec<Action> = decisions.iter().map(|d| action_of(d.op)).collect();
    let mut kept_for_validity = vec![false; items.len()];
    let mut removals: Vec<String> = Vec::new();

    let mut i = 0;
    while i < items.len() {
        let path = items.get(i).map(|x| x.path.clone()).unwrap_or_default();
        let mut group = Vec::new();
        let mut j = i;
        while j < items.len() && items.get(j).is_some_and(|x| x.path == path) {
            group.push(j);
            j += 1;
        }
        i = j.max(i + 1);
        let ops: Vec<Op> = group
            .iter()
            .filter_map(|&k| decisions.get(k))
            .map(|d| d.op)
            .collect();
        if ops.iter().all(|o| *o == Op::Keep) {
            continue;
        }
        if ops.contains(&Op::RemoveField) {
            removals.push(path.clone());
            for &k in &group {
                if let Some(a) = actions.get_mut(k) {
                    *a = Action::Remove;
                }
            }
            continue;
        }
        let Some(original) = args.pointer(&path) else {
            continue;
        };
        let new_value = match original {
            Value::String(s) => Some(Value::String(rewrite_text(
                s,
                items,
                decisions,
                &group,
                placeholders,
            ))),
            Value::Number(n) => {
                let generalize_it = group
                    .iter()
                    .any(|&k| decisions.get(k).is_some_and(|d| d.op == Op::Generalize));
                if generalize_it {
                    serde_json::Number::from_f64(generalize::coordinate(n.as_f64().unwrap_or(0.0)))
                        .map(Value::Number)
                } else {
                    None
                }
            }
            _ => None,
        };
        let Some(new_value) = new_value else { continue };
        let info = schema.field(&path);
        // An optional text left with nothing to say goes whole.
        if info.is_some_and(|f| !f.required)
            && new_value
                .as_str()
                .is_some_and(|t| !t.chars().any(char::is_alphanumeric))
        {
            removals.push(path.clone());
            continue;
        }
        let valid = info.is_none_or(|f| {
            validity::satisfies(f, &new_value) || !validity::satisfies(f, original)
        });
        let replacement = if valid {
            Some(new_value)
        } else {
            info.and_then(|f| validity::least_informative(f, original))
        };
        match replacement {
            Some(v) => {
                if let Some(slot) = out.pointer_mut(&path) {
                    *slot = v;
                }
            }
            None => {
                for &k in &group {
                    if let Some(a) = actions.get_mut(k) {
                        *a = Action::Keep;
                    }
                    if let Some(f) = kept_for_validity.get_mut(k) {
                        *f = true;
                    }
                }
            }
        }
    }

    // Field removals, deepest and last array index first so indices stay right.
    removals.sort_by(|a, b| b.cmp(a));
    removals.dedup();
    for path in removals {
        let info = schema.field(&path);
        let required = info.is_some_and(|f| f.required);
        let Some((parent, key)) = split_parent(&path) else {
            continue;
        };
        let original = args.pointer(&path).cloned().unwrap_or(Value::Null);
        let parent_is_array = out.pointer(parent).is_some_and(Value::is_array);
        let parent_info = schema.field(parent);
        if parent_is_array {
            let min = parent_info.and_then(|p| p.min_items).unwrap_or(0);
            if let Some(Value::Array(a)) = out.pointer_mut(parent)
                && let Ok(idx) = key.parse::<usize>()
                && (a.len() as u64) > min
                && idx < a.len()
            {
                a.remove(idx);
                continue;
            }
        } else if !required && let Some(Value::Object(o)) = out.pointer_mut(parent) {
            o.shift_remove(&key);
            continue;
        }
        let fallback = info.and_then(|f| validity::least_informative(f, &original));
        match fallback {
            Some(v) => {
                if let Some(slot) = out.pointer_mut(&path) {
                    *slot = v;
                }
            }
            None => {
                for (k, it) in items.iter().enumerate() {
                    if it.path == path {
                        if let Some(a) = actions.get_mut(k) {
                            *a = Action::Keep;
                        }
                        if let Some(f) = kept_for_validity.get_mut(k) {
                            *f = true;
                        }
                    }
                }
            }
        }
    }
    Rewritten {
        arguments: out,
        actions,
        kept_for_validity,
    }
}

/// Ranges of the landmarks of "near <landmark>" qualifiers: from after the proximity word to
/// the end of the last cut span of the clause, so "near Elm Clinic 4 Oak St Tulsa" keeps
/// "near Tulsa".
fn proximity_qualifiers(
    s: &str,
    cl: &[crate::text::clauses::Clause],
    cut: &[std::ops::Range<usize>],
) -> Vec<std::ops::Range<usize>> {
    const WORDS: &[&str] = &[
        " near ",
        " next to ",
        " close to ",
        " beside ",
        " opposite ",
        " across from ",
        " nahe ",
        " in der nähe ",
        " neben ",
        " près de ",
        " pres de ",
        " à côté de ",
        " a cote de ",
        " cerca de ",
        " junto a ",
        " vicino a ",
        " vicino al ",
        " accanto a ",
        " around ",
    ];
    let lower = s.to_lowercase();
    if lower.len() != s.len() {
        // Lower-casing changed byte offsets; leave the text as it is.
        return Vec::new();
    }
    let mut out = Vec::new();
    for w in WORDS {
        for (i, _) in lower.match_indices(w) {
            let start = i + w.len();
            let Some(clause_end) = clause_of(cl, start)
                .and_then(|c| cl.get(c))
                .map(|x| x.range.end)
            else {
                continue;
            };
            let end = cut
                .iter()
                .filter(|r| r.start >= start && r.end <= clause_end)
                .map(|r| r.end)
                .max();
            if let Some(end) = end {
                out.push(start..end);
            }
        }
    }
    out
}

/// Widens `r` to the parentheses or brackets that enclose it.
fn parenthetical_around(s: &str, r: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let head = s.get(..r.start).unwrap_or_default();
    let open = head.rfind(['(', '[']);
    let close = s
        .get(r.end..)
        .and_then(|t| t.find([')', ']']))
        .map(|i| r.end + i + 1);
    // The aside goes whole; a needed item inside it (checked by the caller) keeps it.
    match (open, close) {
        (Some(o), Some(c))
            if s.get(o + 1..r.start)
                .is_some_and(|g| !g.contains([')', ']'])) =>
        {
            o..c
        }
        _ => r,
    }
}

/// The end of a sentence's text including its closing punctuation.
fn sentence_end(s: &str, end: usize) -> usize {
    let tail = s.get(end..).unwrap_or_default();
    let punct: usize = tail
        .chars()
        .take_while(|c| matches!(c, '.' | '!' | '?' | '。' | '…'))
        .map(char::len_utf8)
        .sum();
    end + punct
}

/// A removal of `span` with its label and leading function words as context.
fn removal(s: &str, span: std::ops::Range<usize>) -> Edit {
    let core = span.start;
    let r = removal_range(s, span);
    // A label ("SSN", "Tel.") always goes; function words only when the clause ends here.
    let label_end = text::label_start(s, core);
    Edit::remove_with_context(r, label_end)
}

fn rewrite_text(
    s: &str,
    items: &[PsdItem],
    decisions: &[Decision],
    group: &[usize],
    placeholders: &mut Placeholders,
) -> String {
    let cl = clauses(s);
    // Spans the tool needs: a clause holding one is cut span by span, never whole.
    // (Family, work and preference mentions are context, not what the text is for: they do not
    // hold a clause in place.)
    let needed: Vec<std::ops::Range<usize>> = group
        .iter()
        .filter(|&&k| decisions.get(k).is_some_and(|d| d.op == Op::Keep))
        .filter(|&&k| {
            items.get(k).is_some_and(|it| {
                !matches!(
                    it.kind,
                    PsdKind::Family | PsdKind::Occupation | PsdKind::Gender | PsdKind::Preference
                )
            })
        })
        .filter_map(|&k| items.get(k).and_then(|it| it.span.clone()))
        .collect();
    let mut edits = Vec::new();
    let mut truncate: Option<usize> = None;
    for &k in group {
        let (Some(item), Some(d)) = (items.get(k), decisions.get(k)) else {
            continue;
        };
        let span = item.span.clone().unwrap_or(0..s.len());
        let piece = s.get(span.clone()).unwrap_or_default();
        match d.op {
            Op::Keep | Op::RemoveField => {}
            Op::RemoveSpan => edits.push(removal(s, span)),
            Op::RemoveClause => {
                // A clause or segment boundary inside the data itself (the `;` of an HTML
                // entity) must not leave part of it behind: the cut covers the whole span.
                // A clause in parentheses takes the whole parenthetical with it.
                let clause = clause_of(&cl, span.start).and_then(|c| cl.get(c)).map(|c| {
                    let r = c.range.start.min(span.start)..c.range.end.max(span.end);
                    if c.parenthetical {
                        parenthetical_around(s, r)
                    } else {
                        r
                    }
                });
                match clause {
                    Some(r) if !needed.iter().any(|n| n.start < r.end && r.start < n.end) => {
                        edits.push(Edit::remove(r));
                    }
                    _ => edits.push(removal(s, span)),
                }
            }
            Op::RemoveSentence => {
                let sentence = clause_of(&cl, span.start)
                    .and_then(|c| cl.get(c))
                    .map(|c| c.sentence)
                    .and_then(|n| {
                        let mut it = cl.iter().filter(|c| c.sentence == n);
                        let first = it.next()?;
                        let last = it.next_back().unwrap_or(first);
                        Some(
                            first.range.start.min(span.start)
                                ..sentence_end(s, last.range.end.max(span.end)),
                        )
                    });
                match sentence {
                    Some(r) if !needed.iter().any(|n| n.start < r.end && r.start < n.end) => {
                        edits.push(Edit::remove(r));
                    }
                    _ => {
                        // A needed span in the sentence: fall back to the clause.
                        let clause = clause_of(&cl, span.start)
                            .and_then(|c| cl.get(c))
                            .map(|c| c.range.start.min(span.start)..c.range.end.max(span.end));
                        match clause {
                            Some(r)
                                if !needed.iter().any(|n| n.start < r.end && r.start < n.end) =>
                            {
                                edits.push(Edit::remove(r));
                            }
                            _ => edits.push(removal(s, span)),
                        }
                    }
                }
            }
            Op::RemoveSegment => {
                let segs = segments(s);
                let seg = segment_of(&segs, span.start)
                    .and_then(|i| segs.get(i))
                    .map(|r| r.start.min(span.start)..r.end.max(span.end));
                match seg {
                    Some(r) if !needed.iter().any(|n| n.start < r.end && r.start < n.end) => {
                        edits.push(Edit::remove(r));
                    }
                    _ => edits.push(removal(s, span)),
                }
            }
            Op::Generalize => match item.kind {
                PsdKind::Coordinates => {
                    edits.push(Edit::replace(span, generalize::coordinates_in_text(piece)))
                }
                PsdKind::DateOfBirth => match generalize::year_of(piece) {
                    Some(y) if item.span.is_none() => edits.push(Edit::replace(span, y)),
                    _ => edits.push(removal(s, span)),
                },
                PsdKind::Age => match generalize::decade_of(piece) {
                    Some(d) if item.span.is_none() => edits.push(Edit::replace(span, d)),
                    _ => edits.push(removal(s, span)),
                },
                _ => edits.push(removal(s, span)),
            },
            Op::Substitute => {
                let p = placeholders.for_value(item.kind, piece);
                edits.push(Edit::replace(span, p));
            }
            Op::Truncate(n) => truncate = Some(truncate.map_or(n, |t: usize| t.min(n))),
        }
    }
    // A location generalized to city level also loses its "near <landmark>" qualifiers.
    let city_level = group.iter().any(|&k| {
        decisions
            .get(k)
            .is_some_and(|d| d.rule == Rule::CityLevelForPurpose && d.op == Op::Generalize)
    });
    if city_level {
        let cut: Vec<std::ops::Range<usize>> = group
            .iter()
            .filter(|&&k| decisions.get(k).is_some_and(|d| d.op != Op::Keep))
            .filter_map(|&k| items.get(k).and_then(|it| it.span.clone()))
            .collect();
        edits.extend(
            proximity_qualifiers(s, &cl, &cut)
                .into_iter()
                .map(Edit::remove),
        );
    }
    let mut out = apply_edits(s, edits);
    if let Some(n) = truncate
        && let Some((cut, _)) = out.char_indices().nth(n)
    {
        out.truncate(cut);
    }
    out
}
