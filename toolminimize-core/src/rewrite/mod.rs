//! Rewrite: removal, generalization, substitution and truncation, each correct for its data,
//! with the output kept valid against the tool's schema.
//!
//! The rewriter takes the analyzer's decisions and returns new arguments plus the action
//! finally applied to each item. When a rewrite would make a field invalid and no less
//! revealing valid value exists, the field keeps its value and the item is reported as kept.

mod emit;
pub mod generalize;
pub mod substitute;
pub mod text;
pub mod validity;

use rustc_hash::FxHashMap;
use serde_json::Value;

use self::substitute::Placeholders;
use self::text::{Edit, apply_edits, apply_edits_owned, apply_edits_raw, removal_range};
use self::validity::Shape;
use crate::args::tape::Body;
use crate::args::{Arg, Tape};
use crate::decide::{Decision, Op, Rule};
use crate::item::{PsdItem, PsdKind};
use crate::report::Action;
use crate::schema::SchemaIndex;
use crate::taxonomy::Category;
use crate::text::clauses::{clause_of, clauses, segment_of, segments};
use crate::text::document::{Cell, Document};
use crate::text::spans::SpanSet;

/// The result of rewriting: new arguments as a `Value`, or as JSON text for arguments read
/// from a [`Tape`].
#[derive(Debug, Clone)]
pub struct Rewritten<A = Value> {
    /// The new arguments.
    pub arguments: A,
    /// The action applied to each item (aligned with the items).
    pub actions: Vec<Action>,
    /// Items whose decision was overridden to keep the output valid.
    pub kept_for_validity: Vec<bool>,
    /// An optional text was cut down to the values kept in it and nothing else: read as it
    /// now is, it may say nothing the tool needs (see `engine::settle`).
    pub settle: bool,
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

/// Applies `decisions` to `args`, into a copy of them (only the values rewritten are not
/// copied first).
pub fn rewrite(
    args: &Value,
    schema: &SchemaIndex,
    items: &[PsdItem],
    decisions: &[Decision],
    placeholders: &mut Placeholders,
) -> Rewritten {
    let mut plan = plan(Arg::Value(args), schema, items, decisions, placeholders);
    let mut out = clone_patched(args, std::mem::take(&mut plan.patches));
    let (actions, kept_for_validity, settle) = plan.remove_fields(&mut out, schema, items);
    Rewritten {
        arguments: out,
        actions,
        kept_for_validity,
        settle,
    }
}

/// What rewriting decided, before it is applied: the values that replace the input's (by
/// path), the fields that go (with the shape of the value each held) and the action applied
/// to each item so far. [`rewrite`] applies it to a copy of the arguments, [`Plan::apply`]
/// to the arguments themselves; both give the same result.
pub(crate) struct Plan {
    /// Values rewritten in place of the input's, by path.
    patches: Vec<(String, Value)>,
    /// Fields to remove, with the shape of their value in the input (`None`: not there).
    removals: Vec<(String, Option<Shape>)>,
    actions: Vec<Action>,
    kept_for_validity: Vec<bool>,
    /// See [`Rewritten::settle`].
    settle: bool,
}

/// Decides the rewrite of `args`: reads them, never changes them.
pub(crate) fn plan(
    args: Arg<'_>,
    schema: &SchemaIndex,
    items: &[PsdItem],
    decisions: &[Decision],
    placeholders: &mut Placeholders,
) -> Plan {
    plan_from(Source::Shared(args), schema, items, decisions, placeholders)
}

/// [`plan`] for arguments that [`Plan::apply`] then rewrites in place: a text whose rewrite is
/// valid whatever it becomes is taken out of them (left empty) and rewritten inside its own
/// buffer, so a long text is held once, not beside its rewritten copy. The plan applied to
/// them gives what [`rewrite`] gives.
pub(crate) fn plan_in_place(
    args: &mut Value,
    schema: &SchemaIndex,
    items: &[PsdItem],
    decisions: &[Decision],
    placeholders: &mut Placeholders,
) -> Plan {
    plan_from(Source::Owned(args), schema, items, decisions, placeholders)
}

/// The arguments a plan is made from.
enum Source<'a> {
    /// Read only.
    Shared(Arg<'a>),
    /// To be rewritten in place: texts may be taken out.
    Owned(&'a mut Value),
}

impl Source<'_> {
    fn get(&self) -> Arg<'_> {
        match self {
            Source::Shared(v) => *v,
            Source::Owned(v) => Arg::Value(v),
        }
    }

    /// The text at `path` of owned arguments, taken out of them; `None` for shared ones.
    fn take_text(&mut self, path: &str) -> Option<String> {
        match self {
            Source::Shared(_) => None,
            Source::Owned(v) => match crate::pointer::get_mut(v, path) {
                Some(Value::String(s)) => Some(std::mem::take(s)),
                _ => None,
            },
        }
    }
}

/// The text a rewrite reads: borrowed, or given up to it.
enum TextIn<'a> {
    Borrowed(&'a str),
    Owned(String),
}

fn plan_from(
    mut source: Source<'_>,
    schema: &SchemaIndex,
    items: &[PsdItem],
    decisions: &[Decision],
    placeholders: &mut Placeholders,
) -> Plan {
    // Values rewritten in place of the input's, by path; the output is the input with these
    // put in (the values they replace are never copied).
    let mut patches: Vec<(String, Value)> = Vec::new();
    let mut actions: Vec<Action> = decisions.iter().map(|d| action_of(d.op)).collect();
    let mut kept_for_validity = vec![false; items.len()];
    let mut removals: Vec<(String, Option<Shape>)> = Vec::new();
    let mut settle = false;
    let remove =
        |source: &Source<'_>, removals: &mut Vec<(String, Option<Shape>)>, path: String| {
            let shape = source.get().pointer(&path).map(Shape::of);
            removals.push((path, shape));
        };

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
            remove(&source, &mut removals, path);
            for &k in &group {
                if let Some(a) = actions.get_mut(k) {
                    *a = Action::Remove;
                }
            }
            continue;
        }
        let Some(original) = source.get().pointer(&path) else {
            continue;
        };
        let info = schema.field(&path);
        // The values kept in an optional text, to tell whether anything else is left of it.
        let kept_pieces: Vec<String> = match original.as_str() {
            Some(t) if info.is_some_and(|f| !f.required) => group
                .iter()
                .filter(|&&k| decisions.get(k).is_some_and(|d| d.op == Op::Keep))
                .filter_map(|&k| items.get(k).and_then(|it| it.span.clone()))
                .filter_map(|r| t.get(r).filter(|p| !p.is_empty()).map(str::to_owned))
                .take(MAX_SETTLE_PIECES + 1)
                .collect(),
            _ => Vec::new(),
        };
        // A text whose rewrite is valid whatever it becomes is not read once rewritten.
        let consumed = matches!(source, Source::Owned(_))
            && original.is_string()
            && info.is_none_or(|f| {
                validity::accepts_any_string(f) || !validity::satisfies_arg(f, original)
            });
        let text = if consumed {
            source.take_text(&path).map(TextIn::Owned)
        } else {
            None
        };
        let source_now = source.get();
        let original = source_now
            .pointer(&path)
            .unwrap_or(Arg::Value(&Value::Null));
        let text = text.or(original.as_str().map(TextIn::Borrowed));
        let new_value = match (text, original.as_number()) {
            (Some(text), _) => Some(Value::String(rewrite_text(
                text,
                items,
                decisions,
                &group,
                placeholders,
            ))),
            (None, Some(n)) => {
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
        if !kept_pieces.is_empty()
            && kept_pieces.len() <= MAX_SETTLE_PIECES
            && new_value
                .as_str()
                .is_some_and(|t| only_pieces(t, &kept_pieces))
        {
            settle = true;
        }
        // An optional text left with nothing to say goes whole (a document left with keys
        // and brackets only says nothing either).
        if info.is_some_and(|f| !f.required)
            && new_value.as_str().is_some_and(|t| {
                !t.chars().any(char::is_alphanumeric)
                    || Document::of(t).is_some_and(|d| d.is_blank(t))
            })
        {
            remove(&source, &mut removals, path);
            continue;
        }
        // (A text taken out was valid whatever it became: it is not read again.)
        let source_now = source.get();
        let original = source_now
            .pointer(&path)
            .unwrap_or(Arg::Value(&Value::Null));
        let valid = consumed
            || info.is_none_or(|f| {
                validity::satisfies(f, &new_value) || !validity::satisfies_arg(f, original)
            });
        let replacement = if valid {
            Some(new_value)
        } else {
            info.and_then(|f| validity::least_informative_for(f, Shape::of(original)))
        };
        match replacement {
            Some(v) => patches.push((path, v)),
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
    Plan {
        patches,
        removals,
        actions,
        kept_for_validity,
        settle,
    }
}

/// Most kept values a text may hold for [`only_pieces`] to be asked (a note, not a document:
/// the question costs the text's length once per value).
const MAX_SETTLE_PIECES: usize = 8;

/// Whether `text` holds nothing but `pieces` (and punctuation and spaces between them).
fn only_pieces(text: &str, pieces: &[String]) -> bool {
    let letters = |t: &str| t.chars().filter(|c| c.is_alphanumeric()).count();
    if letters(text) > pieces.iter().map(|p| letters(p)).sum::<usize>() {
        return false;
    }
    let mut rest = text.to_owned();
    for p in pieces {
        rest = rest.replace(p.as_str(), " ");
    }
    !rest.chars().any(char::is_alphanumeric)
}

impl Plan {
    /// Applies the plan to the arguments it was made from, in place: nothing of them is
    /// copied. The result is what [`rewrite`] gives.
    pub(crate) fn apply(
        mut self,
        mut args: Value,
        schema: &SchemaIndex,
        items: &[PsdItem],
    ) -> Rewritten {
        // In order, as `clone_patched` places them.
        for (path, v) in std::mem::take(&mut self.patches) {
            if let Some(slot) = crate::pointer::get_mut(&mut args, &path) {
                *slot = v;
            }
        }
        let (actions, kept_for_validity, settle) = self.remove_fields(&mut args, schema, items);
        Rewritten {
            arguments: args,
            actions,
            kept_for_validity,
            settle,
        }
    }

    /// Removes the fields to remove from `out` (the arguments with the patches in), or gives
    /// those that must stay their least informative valid value. Gives the actions, the items
    /// kept to stay valid and whether the output needs a second look.
    fn remove_fields(
        self,
        out: &mut impl Target,
        schema: &SchemaIndex,
        items: &[PsdItem],
    ) -> (Vec<Action>, Vec<bool>, bool) {
        let Plan {
            patches: _,
            mut removals,
            mut actions,
            mut kept_for_validity,
            settle,
        } = self;
        // Field removals, deepest first; removals from one array or object are applied in one
        // pass over it (removing one element at a time would be quadratic in its length).
        removals.sort_by(|a, b| b.0.cmp(&a.0));
        removals.dedup_by(|a, b| a.0 == b.0);
        let mut from_parent: std::collections::BTreeMap<String, Vec<(String, Option<Shape>)>> =
            std::collections::BTreeMap::new();
        for (path, shape) in removals {
            let info = schema.field(&path);
            let required = info.is_some_and(|f| f.required);
            let Some((parent, key)) = split_parent(&path) else {
                continue;
            };
            let parent_is_array = out.view().pointer(parent).is_some_and(Arg::is_array);
            let removable = if parent_is_array {
                key.parse::<usize>().is_ok()
            } else {
                !required && out.view().pointer(parent).is_some_and(Arg::is_object)
            };
            if removable {
                from_parent
                    .entry(parent.to_owned())
                    .or_default()
                    .push((key, shape));
                continue;
            }
            replace_or_keep_at(
                out,
                schema,
                items,
                (&path, shape),
                &path,
                &mut actions,
                &mut kept_for_validity,
            );
        }
        // Deepest parents first: a child's path extends its parent's, so it sorts after it, and
        // the reverse order handles it before the parent's own removals shift any index.
        for (parent, keys) in from_parent.into_iter().rev() {
            let min = schema.field(&parent).and_then(|p| p.min_items).unwrap_or(0);
            let Some(view) = out.view().pointer(&parent) else {
                continue;
            };
            if view.is_object() {
                let gone: std::collections::HashSet<&str> =
                    keys.iter().map(|(k, _)| k.as_str()).collect();
                out.drop_members(&parent, &gone);
                continue;
            }
            let Some(len) = view.elements().map(|e| e.len()) else {
                continue;
            };
            let mut drop: Vec<(usize, Option<Shape>)> = keys
                .iter()
                .filter_map(|(k, shape)| k.parse().ok().map(|i| (i, *shape)))
                .collect();
            drop.sort_unstable_by_key(|d| d.0);
            drop.dedup_by_key(|d| d.0);
            drop.retain(|d| d.0 < len);
            // Keep `minItems`: the last elements to go stay, replaced or kept.
            let room = usize::try_from((len as u64).saturating_sub(min)).unwrap_or(0);
            let keep_back = drop.split_off(drop.len().min(room));
            let indices: Vec<usize> = drop.iter().map(|d| d.0).collect();
            out.drop_elements(&parent, &indices);
            // Elements that could not go: their indices shifted by the removals before.
            for (idx, shape) in keep_back {
                let shift = drop.partition_point(|d| d.0 < idx);
                let path = format!("{parent}/{idx}");
                let now = format!("{parent}/{}", idx - shift);
                replace_or_keep_at(
                    out,
                    schema,
                    items,
                    (&path, shape),
                    &now,
                    &mut actions,
                    &mut kept_for_validity,
                );
            }
        }
        (actions, kept_for_validity, settle)
    }
}

/// What field removals are applied to: the arguments as a `Value` (the patches already in),
/// or the edits of a tape.
trait Target {
    /// The arguments the removals read the parents' shapes in.
    fn view(&self) -> Arg<'_>;
    /// Puts `v` in place of the value at `path` of the input, at `now` once earlier
    /// removals from its array have shifted it.
    fn set(&mut self, path: &str, now: &str, v: Value);
    /// Removes the elements at `indices` (sorted, distinct, in range) of the array at `parent`.
    fn drop_elements(&mut self, parent: &str, indices: &[usize]);
    /// Removes the members named in `keys` of the object at `parent`.
    fn drop_members(&mut self, parent: &str, keys: &std::collections::HashSet<&str>);
}

impl Target for Value {
    fn view(&self) -> Arg<'_> {
        Arg::Value(self)
    }

    fn set(&mut self, _path: &str, now: &str, v: Value) {
        if let Some(slot) = crate::pointer::get_mut(self, now) {
            *slot = v;
        }
    }

    fn drop_elements(&mut self, parent: &str, indices: &[usize]) {
        if let Some(Value::Array(a)) = crate::pointer::get_mut(self, parent) {
            let mut i = 0;
            let mut next = indices.iter().peekable();
            a.retain(|_| {
                let gone = next.next_if(|&&d| d == i).is_some();
                i += 1;
                !gone
            });
        }
    }

    fn drop_members(&mut self, parent: &str, keys: &std::collections::HashSet<&str>) {
        if let Some(Value::Object(o)) = crate::pointer::get_mut(self, parent) {
            o.retain(|k, _| !keys.contains(k.as_str()));
        }
    }
}

/// What a rewrite gives: the arguments as a `Value`, or as edits over their JSON text.
pub(crate) trait Output: Sized {
    /// Rewrites `args` into this form.
    fn rewrite(
        args: Arg<'_>,
        schema: &SchemaIndex,
        items: &[PsdItem],
        decisions: &[Decision],
        placeholders: &mut Placeholders,
    ) -> Rewritten<Self>;

    /// `f` of these arguments (rewritten from `input`) read as arguments (`None` when they
    /// cannot be read).
    fn read<R>(&self, input: Arg<'_>, f: impl FnOnce(Arg<'_>) -> R) -> Option<R>;

    /// Removes the object member at each of `paths`, keeping the others in order; whether
    /// each was there.
    fn remove_members(&mut self, input: Arg<'_>, paths: &[&str]) -> Vec<bool>;
}

impl Output for Value {
    fn rewrite(
        args: Arg<'_>,
        schema: &SchemaIndex,
        items: &[PsdItem],
        decisions: &[Decision],
        placeholders: &mut Placeholders,
    ) -> Rewritten<Value> {
        match args {
            Arg::Value(v) => rewrite(v, schema, items, decisions, placeholders),
            Arg::Tape(..) => rewrite(&args.to_value(), schema, items, decisions, placeholders),
        }
    }

    fn read<R>(&self, _input: Arg<'_>, f: impl FnOnce(Arg<'_>) -> R) -> Option<R> {
        Some(f(Arg::Value(self)))
    }

    fn remove_members(&mut self, _input: Arg<'_>, paths: &[&str]) -> Vec<bool> {
        paths
            .iter()
            .map(|path| {
                split_parent(path)
                    .and_then(|(parent, key)| {
                        crate::pointer::get_mut(self, parent)?
                            .as_object_mut()?
                            .shift_remove(&key)
                    })
                    .is_some()
            })
            .collect()
    }
}

/// `f` of the JSON `text` read as arguments (`None` when it cannot be read).
fn read_text<R>(text: &str, f: impl FnOnce(Arg<'_>) -> R) -> Option<R> {
    let tape = Tape::parse(text).ok()?;
    Some(f(Arg::from(&tape)))
}

/// Removes the object member at each of `paths` from the JSON `text`, keeping the others in
/// order; whether each was there.
fn remove_text_members(text: &mut String, paths: &[&str]) -> Vec<bool> {
    let Ok(tape) = Tape::parse(text) else {
        return vec![false; paths.len()];
    };
    let mut edits = emit::Edits::new(&tape);
    let removed: Vec<bool> = paths
        .iter()
        .map(|path| {
            let there = split_parent(path).is_some_and(|(parent, key)| {
                Arg::from(&tape)
                    .pointer(parent)
                    .and_then(|p| p.members())
                    .is_some_and(|mut m| m.any(|(k, _)| k == key))
            });
            if there {
                edits.drop_at(path);
            }
            there
        })
        .collect();
    if removed.contains(&true) {
        let out = edits.write();
        *text = out;
    }
    removed
}

/// A rewrite of arguments read from JSON text: the edits to write out over that text, or
/// (once a second look has changed it) the text of the output itself.
#[derive(Debug, Clone)]
pub(crate) enum JsonOut {
    /// Written from the input's tape with these edits: the tape the call was read into when
    /// it is kept ([`JsonOut::keeping`]), otherwise the text parsed again.
    Edits(Patch, Option<Body>),
    /// This compact JSON text.
    Text(String),
    /// The input text as it came (forwarded unminimized, failing open).
    Verbatim,
}

impl JsonOut {
    /// Writes the arguments rewritten from `input` (the text they were read from).
    pub(crate) fn write_to<W: std::io::Write>(
        &self,
        input: &str,
        out: &mut W,
    ) -> std::io::Result<()> {
        match self {
            JsonOut::Edits(patch, body) => {
                let tape = match body.as_ref().and_then(|b| b.over(input)) {
                    Some(tape) => tape,
                    None => Tape::parse(input)
                        .map_err(|_| std::io::Error::other("the arguments' text changed"))?,
                };
                emit::write_patched(Arg::from(&tape), Some(patch), out)
            }
            JsonOut::Text(t) => out.write_all(t.as_bytes()),
            JsonOut::Verbatim => out.write_all(input.as_bytes()),
        }
    }

    /// The same output, written out over `tape` (the tape of the text it will be written
    /// from) rather than over the text parsed again.
    pub(crate) fn keeping(self, tape: Tape<'_>) -> Self {
        match self {
            JsonOut::Edits(patch, _) => JsonOut::Edits(patch, Some(tape.into_body())),
            other => other,
        }
    }

    /// The output as text (the edits written out over `input`).
    fn into_text(self, input: Arg<'_>) -> String {
        match (self, input) {
            (JsonOut::Edits(patch, _), Arg::Tape(t, 0)) => emit::render(t, &patch),
            (JsonOut::Text(t), _) => t,
            (_, input) => input.to_json(),
        }
    }
}

impl Output for JsonOut {
    fn rewrite(
        args: Arg<'_>,
        schema: &SchemaIndex,
        items: &[PsdItem],
        decisions: &[Decision],
        placeholders: &mut Placeholders,
    ) -> Rewritten<JsonOut> {
        let Arg::Tape(tape, 0) = args else {
            let r = Value::rewrite(args, schema, items, decisions, placeholders);
            return Rewritten {
                arguments: JsonOut::Text(r.arguments.to_string()),
                actions: r.actions,
                kept_for_validity: r.kept_for_validity,
                settle: r.settle,
            };
        };
        let mut plan = plan(args, schema, items, decisions, placeholders);
        let mut edits = emit::Edits::new(tape);
        for (path, v) in std::mem::take(&mut plan.patches) {
            edits.set(&path, v);
        }
        let (actions, kept_for_validity, settle) = plan.remove_fields(&mut edits, schema, items);
        Rewritten {
            arguments: JsonOut::Edits(edits.into_patch(), None),
            actions,
            kept_for_validity,
            settle,
        }
    }

    fn read<R>(&self, input: Arg<'_>, f: impl FnOnce(Arg<'_>) -> R) -> Option<R> {
        read_text(&self.clone().into_text(input), f)
    }

    fn remove_members(&mut self, input: Arg<'_>, paths: &[&str]) -> Vec<bool> {
        let mut text = std::mem::replace(self, JsonOut::Verbatim).into_text(input);
        let removed = remove_text_members(&mut text, paths);
        *self = JsonOut::Text(text);
        removed
    }
}

/// A copy of `args` with the value at each path of `patches` (JSON pointers) replaced, as
/// setting each through [`Value::pointer_mut`] in order would leave it (a path that does not
/// exist is skipped; a value replaced whole takes what was under it along) — but without first
/// copying the values that are replaced: a long text rewritten is not copied whole before.
fn clone_patched(args: &Value, patches: Vec<(String, Value)>) -> Value {
    if patches.is_empty() {
        return args.clone();
    }
    let mut root = Patch::default();
    for (path, v) in patches {
        root.insert(&path, v);
    }
    root.apply(args)
}

/// The replacements under one node of the arguments, by the tokens of their paths.
#[derive(Debug, Clone, Default)]
pub(crate) struct Patch {
    value: Option<Value>,
    /// The node goes (a member or an element removed; only edits of a tape mark it).
    dropped: bool,
    children: FxHashMap<String, Patch>,
}

impl Patch {
    /// The node at `path` (a JSON pointer), made if it is not there yet; `None` under a node
    /// replaced whole, or for a path that is not a pointer.
    fn node_at(&mut self, path: &str) -> Option<&mut Patch> {
        if !path.is_empty() && !path.starts_with('/') {
            return None;
        }
        let mut node = self;
        let mut rest = path;
        while let Some(tail) = rest.strip_prefix('/') {
            if node.value.is_some() {
                return None;
            }
            let (token, next) = tail.split_once('/').map_or((tail, ""), |(t, _)| {
                (t, tail.get(t.len()..).unwrap_or_default())
            });
            node = node
                .children
                .entry(crate::pointer::unescape(token).into_owned())
                .or_default();
            rest = next;
        }
        Some(node)
    }

    fn insert(&mut self, path: &str, v: Value) {
        if !path.is_empty() && !path.starts_with('/') {
            return; // not a JSON pointer: nothing to set
        }
        let mut node = self;
        // "" is the whole document; "/a/0" the tokens "a" and "0".
        let mut rest = path;
        while let Some(tail) = rest.strip_prefix('/') {
            if let Some(whole) = node.value.as_mut() {
                // Under a value already replaced: set inside the new value.
                if let Some(slot) = crate::pointer::get_mut(whole, rest) {
                    *slot = v;
                }
                return;
            }
            let (token, next) = tail.split_once('/').map_or((tail, ""), |(t, _)| {
                (t, tail.get(t.len()..).unwrap_or_default())
            });
            let key = if token.contains('~') {
                token.replace("~1", "/").replace("~0", "~")
            } else {
                token.to_owned()
            };
            node = node.children.entry(key).or_default();
            rest = next;
        }
        // A node replaced whole takes its children along: what was set under it is lost, as
        // it is when the parent is set after the child.
        node.children.clear();
        node.value = Some(v);
    }

    fn apply(mut self, v: &Value) -> Value {
        if let Some(new) = self.value.take() {
            return new;
        }
        // Nothing replaced under this node: the value as it is.
        if self.children.is_empty() {
            return v.clone();
        }
        match v {
            Value::Object(m) => Value::Object(
                m.iter()
                    .map(|(k, child)| {
                        let c = match self.children.remove(k.as_str()) {
                            Some(p) => p.apply(child),
                            None => child.clone(),
                        };
                        (k.clone(), c)
                    })
                    .collect(),
            ),
            Value::Array(a) => {
                let mut by_index: FxHashMap<usize, Patch> = self
                    .children
                    .into_iter()
                    .filter_map(|(k, p)| array_index(&k).map(|i| (i, p)))
                    .collect();
                Value::Array(
                    a.iter()
                        .enumerate()
                        .map(|(i, child)| match by_index.remove(&i) {
                            Some(p) => p.apply(child),
                            None => child.clone(),
                        })
                        .collect(),
                )
            }
            _ => v.clone(),
        }
    }
}

/// An array index token as [`Value::pointer`] reads it: digits, no sign, no leading zero.
fn array_index(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.starts_with('0') && token.len() != 1) {
        return None;
    }
    token.parse().ok()
}

/// A field that must stay (at `path` in the input, with a value of `shape` there; now at
/// `now` in `out`): its least informative valid value, or (when there is none) its value,
/// with its items reported as kept to stay valid.
fn replace_or_keep_at(
    out: &mut impl Target,
    schema: &SchemaIndex,
    items: &[PsdItem],
    (path, shape): (&str, Option<Shape>),
    now: &str,
    actions: &mut [Action],
    kept_for_validity: &mut [bool],
) {
    let info = schema.field(path);
    let fallback =
        shape.and_then(|shape| info.and_then(|f| validity::least_informative_for(f, shape)));
    match fallback {
        Some(v) => out.set(path, now, v),
        None => {
            // Items are sorted by path: this field's are consecutive.
            let first = items.partition_point(|it| it.path.as_str() < path);
            for k in first..items.len() {
                if items.get(k).is_none_or(|it| it.path != path) {
                    break;
                }
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

/// Ranges of "near <landmark>" qualifiers, each to the end of its clause.
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

/// The bracketed aside that follows byte `at` after spaces on the same line, from `at` to
/// its closing bracket: a short one (at most [`TRAILING_ASIDE`] bytes) with no bracket
/// inside.
fn trailing_aside(s: &str, at: usize) -> Option<std::ops::Range<usize>> {
    let rest = s.get(at..)?;
    let gap = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    let mut chars = rest.get(gap..)?.char_indices();
    let (_, open) = chars.next()?;
    let close = match open {
        '(' => ')',
        '（' => '）',
        '[' => ']',
        _ => return None,
    };
    for (i, c) in chars {
        if i > TRAILING_ASIDE {
            return None;
        }
        if c == close {
            return Some(at..at + gap + i + c.len_utf8());
        }
        if matches!(c, '(' | '（' | '[' | ')' | '）' | ']' | '\n') {
            return None;
        }
    }
    None
}

/// Whether `aside` asks something ("(no X-rays please)", "(pas de radio svp)"): a request
/// stays, whatever it was said beside.
fn asks(aside: &str) -> bool {
    use crate::decide::vocab::{WordSet, vocab};
    let ws = crate::text::words::words(aside);
    vocab().set(WordSet::Request).any_in(&ws, aside)
}

/// The longest bracketed aside a cut takes with it, in bytes.
const TRAILING_ASIDE: usize = 40;

/// Where an opening bracket right before `at` (spaces between) starts, or `at`.
fn bracket_before(s: &str, at: usize) -> usize {
    let head = s.get(..at).unwrap_or_default();
    let trimmed = head.trim_end();
    match trimmed.chars().next_back() {
        Some(c @ ('(' | '[' | '（' | '【')) => trimmed.len() - c.len_utf8(),
        _ => at,
    }
}

/// Where a closing bracket right after `at` (spaces between) ends, or `at`.
fn bracket_after(s: &str, at: usize) -> usize {
    let tail = s.get(at..).unwrap_or_default();
    let ws = tail.len() - tail.trim_start().len();
    match tail.get(ws..).and_then(|t| t.chars().next()) {
        Some(c @ (')' | ']' | '）' | '】')) => at + ws + c.len_utf8(),
        _ => at,
    }
}

/// Widens `r` to the parentheses or brackets that enclose it.
fn parenthetical_around(s: &str, r: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let head = s.get(..r.start).unwrap_or_default();
    let open = head.rfind(['(', '[', '（', '【']);
    let close = s
        .get(r.end..)
        .and_then(|t| {
            t.char_indices()
                .find(|&(_, c)| matches!(c, ')' | ']' | '）' | '】'))
        })
        .map(|(i, c)| r.end + i + c.len_utf8());
    // The aside goes whole; a needed item inside it (checked by the caller) keeps it.
    match (open, close) {
        (Some(o), Some(c))
            if s.get(o..r.start).is_some_and(|g| {
                !g.chars()
                    .skip(1)
                    .any(|c| matches!(c, ')' | ']' | '）' | '】'))
            }) =>
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
        .take_while(|&c| {
            matches!(c, '.' | '!' | '?' | '…') || crate::text::clauses::is_unspaced_full_stop(c)
        })
        .map(char::len_utf8)
        .sum();
    // A text smiley that closes the sentence goes with it ("… bar mitzvah :)").
    let after = end + punct;
    let rest = s.get(after..).unwrap_or_default();
    let ws = rest.len() - rest.trim_start_matches(' ').len();
    if let Some(n) = crate::text::clauses::smiley_len(s, after + ws) {
        return after + ws + n;
    }
    after
}

/// A removal of `span` with its label and leading function words as context.
fn removal(s: &str, span: std::ops::Range<usize>, kind: PsdKind) -> Edit {
    let core = span.start;
    let core_end = span.end;
    let mut r = removal_range(s, span);
    // A label ("SSN", "Tel.") always goes, and so does a possessive right before the label or
    // the value ("email my passport number … to" leaves no "my to"); other function words
    // only when the clause ends here.
    let label_end = text::label_start(s, core);
    let mut always = text::possessive_start(s, label_end).max(r.start);
    // A label that goes takes its determiners ("The password is …", "La mia password è …"
    // leave no "The", no "La"). A title before a name leaves its article, which still reads
    // ("il del 3° piano": the one on the third floor).
    if label_end < core && !names_a_person(kind) {
        let d = text::determiner_start(s, label_end);
        if d < always {
            always = d;
            r.start = r.start.min(d);
        }
    }
    if names_a_person(kind)
        && let Some(prep) = text::agent_preposition_start(s, always)
    {
        // "by", "from", "via" name no one once their person is cut: they go whatever follows
        // ("reported by … yesterday" → "reported yesterday"), and a participle that opened
        // the clause goes with them when nothing follows ("Reported by …." → "").
        always = prep;
        r.start = r.start.min(prep);
        if text::clause_ends_at(s, r.end)
            && let Some(head) = text::agent_head_start(s, prep)
        {
            r.start = r.start.min(head);
            always = r.start;
        }
    }
    // An illness or an offence a phrase of time is anchored on takes its preposition with
    // it, whatever follows ("seit dem Schlaganfall im Rollstuhl" leaves no "seit dem").
    if matches!(kind.category(), Category::Health | Category::Criminal)
        && let Some(p) = text::time_preposition_start(s, core, core_end)
        && p < always
    {
        always = p;
        r.start = r.start.min(p);
        // So does a possessive after it that closes the clause ("etter halsoperasjonen
        // min." leaves no "min").
        if let Some(n) = text::postposed_possessive_len(s, core_end) {
            r.end = r.end.max(core_end + n);
        }
    }
    // A person's age in brackets right after their name goes with it ("Eli (6)").
    if kind == PsdKind::PersonName
        && let Some(n) = text::bracketed_age_len(s, core_end)
    {
        r.end = r.end.max(core_end + n);
    }
    // A writer's introduction goes with their name when nothing follows it in the clause
    // ("…, I'm Jo Doe" leaves no "I'm").
    // So does "I'm" before what the writer says they are ("Je suis mère isolée, …" leaves
    // no "Je suis").
    if text::clause_ends_at(s, r.end)
        && let Some(intro) = text::self_introduction_start(s, r.start)
    {
        r.start = intro;
        always = always.min(intro);
    }
    // A phrase of cause right before the span goes with it, whatever follows ("ich komme
    // wegen meiner Migräne morgen" leaves no "wegen").
    match crate::text::clauses::cause_phrase_before(s, r.start, always) {
        Some(p) => Edit::remove_with_context(p.min(r.start)..r.end, p),
        None => Edit::remove_with_context(r, always),
    }
}

/// Whether an item of `kind` names or reaches a person: the whole object of a "by" or
/// "from" before it.
fn names_a_person(kind: PsdKind) -> bool {
    matches!(
        kind,
        PsdKind::PersonName | PsdKind::Email | PsdKind::Phone | PsdKind::Username
    )
}

/// Keeps the edits pushed from `from` on inside the cells of a document: the edit of the item
/// at `span` stays within the cell the item starts in (a bare value is replaced whole by
/// `null`), and the parts of the item in later cells go from those cells.
fn confine_to_cells(
    doc: &Document,
    span: &std::ops::Range<usize>,
    edits: &mut Vec<Edit>,
    from: usize,
) {
    let Some(home) = doc.cell_at(span.start) else {
        return;
    };
    for e in edits.iter_mut().skip(from) {
        confine(e, home);
    }
    let later = doc
        .cells()
        .iter()
        .skip_while(|c| c.range.end <= home.range.end)
        .take_while(|c| c.range.start < span.end);
    for c in later {
        let mut e = Edit::remove(span.start.max(c.range.start)..span.end.min(c.range.end));
        confine(&mut e, c);
        edits.push(e);
    }
}

/// `e` cut down to `cell`.
fn confine(e: &mut Edit, cell: &Cell) {
    if cell.bare {
        *e = Edit::replace(cell.range.clone(), "null");
        return;
    }
    let start = e.range.start.clamp(cell.range.start, cell.range.end);
    let end = e.range.end.clamp(start, cell.range.end);
    e.core_start = e.core_start.clamp(start, end);
    e.range = start..end;
}

/// A document with its (confined) edits applied and nothing tidied: its spaces and punctuation
/// are syntax. When the result is no longer well formed (an edit split an escape, or lay
/// outside every cell), every cell an edit touches is emptied instead.
fn edit_document(doc: &Document, s: &str, edits: Vec<Edit>) -> String {
    let touched: Vec<&Cell> = doc
        .cells()
        .iter()
        .filter(|c| {
            edits.iter().any(|e| {
                e.range.start < c.range.end.max(c.range.start + 1) && e.range.end >= c.range.start
            })
        })
        .collect();
    let out = apply_edits_raw(s, edits);
    if doc.still_valid(&out) {
        return out;
    }
    let emptied = touched
        .into_iter()
        .map(|c| Edit::replace(c.range.clone(), if c.bare { "null" } else { "" }))
        .collect();
    apply_edits_raw(s, emptied)
}

/// The cut of the redundant condition of a database read whose value holds `span`: the
/// condition and its `AND` go whole, so the statement stays a statement.
fn sql_cut(
    cache: &mut Option<Vec<crate::text::sql::Redundant>>,
    s: &str,
    span: &std::ops::Range<usize>,
) -> Option<std::ops::Range<usize>> {
    cache
        .get_or_insert_with(|| crate::text::sql::redundant_conditions(s))
        .iter()
        .find(|r| r.literal.start <= span.start && span.end <= r.literal.end)
        .map(|r| r.cut.clone())
}

/// A statement that writes rows (its string literals `literals`), every item it cuts inside
/// them: each literal rewritten as a text of its own (its clauses and sentences are its own,
/// not the statement's), the statement around them left as it is. `None` when an item it
/// cuts lies outside every literal.
fn rewrite_statement(
    s: &str,
    literals: &[std::ops::Range<usize>],
    items: &[PsdItem],
    decisions: &[Decision],
    group: &[usize],
    placeholders: &mut Placeholders,
) -> Option<String> {
    let home = |k: usize| {
        let span = items.get(k)?.span.as_ref()?;
        literals
            .iter()
            .position(|l| l.start <= span.start && span.end <= l.end)
    };
    let mut by_literal: Vec<Vec<usize>> = vec![Vec::new(); literals.len()];
    for &k in group {
        let cut = decisions.get(k).is_some_and(|d| d.op != Op::Keep);
        match home(k) {
            Some(i) => by_literal.get_mut(i)?.push(k),
            None if cut => return None,
            None => {}
        }
    }
    let mut edits = Vec::new();
    for (lit, ks) in literals.iter().zip(&by_literal) {
        if !ks
            .iter()
            .any(|&k| decisions.get(k).is_some_and(|d| d.op != Op::Keep))
        {
            continue;
        }
        let inner = s.get(lit.clone())?;
        let sub: Vec<PsdItem> = ks
            .iter()
            .filter_map(|&k| items.get(k))
            .map(|it| {
                let mut it = it.clone();
                it.span = it.span.map(|r| r.start - lit.start..r.end - lit.start);
                it
            })
            .collect();
        let sub_decisions: Vec<Decision> = ks
            .iter()
            .filter_map(|&k| decisions.get(k).copied())
            .collect();
        let sub_group: Vec<usize> = (0..sub.len()).collect();
        let new = rewrite_text(
            TextIn::Borrowed(inner),
            &sub,
            &sub_decisions,
            &sub_group,
            placeholders,
        );
        edits.push(Edit::replace(lit.clone(), new));
    }
    Some(apply_edits_raw(s, edits))
}

fn rewrite_text(
    text: TextIn<'_>,
    items: &[PsdItem],
    decisions: &[Decision],
    group: &[usize],
    placeholders: &mut Placeholders,
) -> String {
    let s: &str = match &text {
        TextIn::Borrowed(s) => s,
        TextIn::Owned(s) => s,
    };
    // The string literals of a database statement, read when a write or an item first needs
    // them.
    let sql_literals: std::cell::OnceCell<Vec<std::ops::Range<usize>>> = std::cell::OnceCell::new();
    if crate::text::sql::is_write(s) {
        let literals = sql_literals.get_or_init(|| crate::text::sql::literals(s));
        if let Some(out) = rewrite_statement(s, literals, items, decisions, group, placeholders) {
            return out;
        }
    }
    // The text's clauses, read when a cut first needs them (a text whose items are cut span
    // by span is never split into clauses).
    let mut clause_cache: Option<Vec<crate::text::clauses::Clause>> = None;
    // A database read's redundant conditions, found when a cut first needs them.
    let mut sql_cache: Option<Vec<crate::text::sql::Redundant>> = None;
    // The text's words and languages, read when a cut clause may leave a consequence word.
    let mut read_cache: Option<WordsRead<'_>> = None;
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
    let needed = SpanSet::new(needed);
    // Whether a clause, sentence or segment around an item may go whole: it holds nothing the
    // tool needs and is no run-on stretch of a text that never ends a sentence (read once).
    let unstopped = std::cell::OnceCell::new();
    let run_on_stretch = |r: &std::ops::Range<usize>| {
        *unstopped.get_or_init(|| never_ends_a_sentence(s)) && s.get(r.clone()).is_some_and(run_on)
    };
    let cuts_whole = |r: &std::ops::Range<usize>| !needed.overlaps(r) && !run_on_stretch(r);
    // Spans that go (a relation or a role before a diagnosis in a search's story).
    let removed = SpanSet::new(
        group
            .iter()
            .filter(|&&k| decisions.get(k).is_some_and(|d| d.op != Op::Keep))
            .filter_map(|&k| items.get(k).and_then(|it| it.span.clone())),
    );
    let mut segs: Option<Vec<std::ops::Range<usize>>> = None;
    let mut edits = Vec::new();
    let mut truncate: Option<usize> = None;
    // A text that is data (a JSON document, `KEY=value` lines) is edited inside its cells only,
    // so that it stays data.
    let doc = Document::of(s);
    for &k in group {
        let (Some(item), Some(d)) = (items.get(k), decisions.get(k)) else {
            continue;
        };
        let span = item.span.clone().unwrap_or(0..s.len());
        let piece = s.get(span.clone()).unwrap_or_default();
        let from = edits.len();
        let item_span = span.clone();
        // A condition of a database read goes with its `AND`, not as a clause of prose.
        let sql = match d.op {
            Op::RemoveClause => sql_cut(&mut sql_cache, s, &span),
            _ => None,
        };
        match d.op {
            Op::Keep | Op::RemoveField => {}
            // A relative or a person cut from the head of the user's story in a query takes
            // the verb tying them to the topic that stays ("my son has autism, …").
            Op::RemoveSpan
                if d.rule == Rule::PersonalContextInQuery
                    && matches!(item.kind, PsdKind::Family | PsdKind::PersonName) =>
            {
                // Not over an item kept beside it ("was diagnosed with" kept as the topic).
                let end = Some(text::subject_end(s, &span))
                    .filter(|&e| !needed.overlaps(&(span.end..e)))
                    .unwrap_or(span.end);
                edits.push(removal(s, span.start..end, item.kind));
            }
            // A diagnosis cut from the user's story in a search takes the short first-person
            // turn before it ("I was just diagnosed with" → the topic "ADHD at 35" alone).
            Op::RemoveSpan if d.rule == Rule::PersonalContextInQuery => {
                let mut e = removal(s, span.clone(), item.kind);
                // Read from where the cut surely starts: the function words before it that go
                // only if the clause ends there ("On" of "On m'a diagnostiqué …") may be the
                // turn's own.
                if e.with.is_empty()
                    && let Some(lead) =
                        text::story_lead_start(s, e.core_start, |r| removed.overlaps(r))
                    && !needed.overlaps(&(lead..e.core_start))
                {
                    e.range.start = e.range.start.min(lead);
                    e.core_start = lead;
                }
                // At the start of its clause, the rest of the turn goes up to the topic kept
                // ("my GP [says I have] high blood pressure, …").
                if e.with.is_empty()
                    && text::at_clause_start(s, e.range.start)
                    && let Some(end) =
                        text::story_lead_end(s, e.range.end, |at| needed.overlaps(&(at..at + 1)))
                {
                    e.range.end = end;
                }
                edits.push(e);
            }
            // A personal query parameter goes with its whole value ("record=felony …,
            // released 2022" → "record="): what the detector found is only part of it.
            Op::RemoveSpan if d.rule == Rule::UrlPersonalParameter => {
                // Found in the parameter's name ("allergies=…"), the parameter goes whole.
                let named = || {
                    crate::text::url::param_named_at(s, span.start)
                        .filter(|p| p.end >= span.end && !needed.overlaps(p))
                };
                match crate::text::url::param_value(s, span.start) {
                    Some(v) if v.end >= span.end && !needed.overlaps(&v) => {
                        edits.push(Edit::remove(v));
                    }
                    None if let Some(p) = named() => edits.push(Edit::remove(p)),
                    _ => edits.push(removal(s, span, item.kind)),
                }
            }
            Op::RemoveSpan => edits.push(removal(s, span, item.kind)),
            Op::RemoveClause if sql.is_some() => edits.extend(sql.clone().map(Edit::remove)),
            Op::RemoveClause => {
                let cl: &[crate::text::clauses::Clause] =
                    clause_cache.get_or_insert_with(|| clauses(s));
                // A clause or segment boundary inside the data itself (the `;` of an HTML
                // entity) must not leave part of it behind: the cut covers the whole span.
                // A clause in parentheses takes the whole parenthetical with it.
                let at = clause_of(cl, span.start);
                let clause = at.and_then(|c| cl.get(c)).map(|c| {
                    let r = c.range.start.min(span.start)..c.range.end.max(span.end);
                    if c.parenthetical {
                        parenthetical_around(s, r)
                    } else {
                        r
                    }
                });
                match clause {
                    Some(r) if cuts_whole(&r) => {
                        edits.push(clause_cut(s, cl, at, r, &needed, &mut read_cache));
                    }
                    _ => edits.push(removal(s, span, item.kind)),
                }
            }
            Op::RemoveSentence => {
                let cl: &[crate::text::clauses::Clause] =
                    clause_cache.get_or_insert_with(|| clauses(s));
                let sentence = clause_of(cl, span.start)
                    .and_then(|c| cl.get(c))
                    .map(|c| c.sentence)
                    .and_then(|n| {
                        // Clauses are in order, their sentence numbers too: the sentence's
                        // clauses are found by binary search, not by a scan per item.
                        let from = cl.partition_point(|c| c.sentence < n);
                        let to = cl.partition_point(|c| c.sentence <= n);
                        let first = cl.get(from)?;
                        let last = cl.get(to.checked_sub(1)?).unwrap_or(first);
                        // A sentence that opens or closes inside brackets takes them along
                        // ("SSN … (for camp forms)" leaves no ")").
                        let mut start = first.range.start.min(span.start);
                        let mut end = last.range.end.max(span.end);
                        if first.parenthetical {
                            start = bracket_before(s, start);
                        }
                        if last.parenthetical {
                            end = bracket_after(s, end);
                        }
                        Some(start..sentence_end(s, end))
                    });
                match sentence {
                    Some(r) if cuts_whole(&r) => {
                        edits.push(Edit::remove(r));
                    }
                    _ => {
                        // A needed span in the sentence: fall back to the clause.
                        let at = clause_of(cl, span.start);
                        let clause = at
                            .and_then(|c| cl.get(c))
                            .map(|c| c.range.start.min(span.start)..c.range.end.max(span.end));
                        match clause {
                            Some(r) if cuts_whole(&r) => {
                                edits.push(clause_cut(s, cl, at, r, &needed, &mut read_cache));
                            }
                            _ => edits.push(removal(s, span, item.kind)),
                        }
                    }
                }
            }
            Op::RemoveSegment => {
                let segs = segs.get_or_insert_with(|| segments(s));
                let seg = segment_of(segs, span.start)
                    .and_then(|i| segs.get(i))
                    .map(|r| r.start.min(span.start)..r.end.max(span.end));
                match seg {
                    Some(r) if cuts_whole(&r) => {
                        edits.push(Edit::remove(r));
                    }
                    _ => edits.push(removal(s, span, item.kind)),
                }
            }
            Op::Generalize => match item.kind {
                PsdKind::Coordinates => {
                    edits.push(Edit::replace(span, generalize::coordinates_in_text(piece)))
                }
                // A whole field's date becomes its year ("1990-03-14" → "1990"); inside a
                // text, the date goes.
                PsdKind::DateOfBirth => match generalize::year_of(piece) {
                    Some(y) if crate::text::spans::is_whole_value(s, &span) => {
                        edits.push(Edit::replace(span, y))
                    }
                    _ => edits.push(removal(s, span, item.kind)),
                },
                PsdKind::Age => match generalize::decade_of(piece) {
                    Some(d) if crate::text::spans::is_whole_value(s, &span) => {
                        edits.push(Edit::replace(span, d))
                    }
                    _ => edits.push(removal(s, span, item.kind)),
                },
                PsdKind::CardNumber => match generalize::card_last_four(piece) {
                    Some(last) => edits.push(Edit::replace(span, last)),
                    None => edits.push(removal(s, span, item.kind)),
                },
                _ => edits.push(removal(s, span, item.kind)),
            },
            Op::Substitute => {
                let p = placeholders.for_value(item.kind, piece);
                edits.push(Edit::replace(span, p));
            }
            Op::Truncate(n) => truncate = Some(truncate.map_or(n, |t: usize| t.min(n))),
        }
        // A special-category term cut (by span, clause or sentence) takes its abbreviation in
        // brackets along ("multiple sclerosis (MS)" leaves no "(MS)").
        if item.kind.category().is_special() {
            for e in edits.iter_mut().skip(from) {
                if e.with.is_empty() && e.range.end >= item_span.end {
                    e.range.end = text::abbreviation_end(s, e.range.end);
                }
            }
        }
        if let Some(doc) = &doc {
            confine_to_cells(doc, &item_span, &mut edits, from);
        } else if sql.is_none()
            && let Some(lit) = sql_literals
                .get_or_init(|| crate::text::sql::literals(s))
                .iter()
                .find(|l| l.start <= item_span.start && item_span.end <= l.end)
        {
            // Text written by a statement is edited inside its quotes: the statement stays one.
            let cell = crate::text::document::Cell {
                range: lit.clone(),
                bare: false,
                key: false,
            };
            for e in edits.iter_mut().skip(from) {
                confine(e, &cell);
            }
        }
    }
    // A location generalized to city level also loses its "near <landmark>" qualifiers.
    let city_level = doc.is_none()
        && group.iter().any(|&k| {
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
        let cl: &[crate::text::clauses::Clause] = clause_cache.get_or_insert_with(|| clauses(s));
        edits.extend(
            proximity_qualifiers(s, cl, &cut)
                .into_iter()
                .map(Edit::remove),
        );
    }
    // A short aside in brackets right after a cut ("… for my insulin pens (type 1), so …")
    // tells about what was cut: it goes with it, unless it holds what the tool needs.
    if doc.is_none() {
        for e in &mut edits {
            if e.with.is_empty()
                && e.range.start < e.range.end
                && let Some(r) = trailing_aside(s, e.range.end)
                && !needed.overlaps(&r)
                && !asks(s.get(r.clone()).unwrap_or_default())
            {
                e.range.end = r.end;
            }
        }
    }
    // What was built to place the edits goes before the text is copied.
    drop(clause_cache);
    drop(sql_cache);
    drop(read_cache);
    drop(segs);
    drop(needed);
    whole_comments(s, &mut edits);
    let mut out = match doc {
        Some(doc) => edit_document(&doc, s, edits),
        None => match text {
            TextIn::Borrowed(s) => apply_edits(s, edits),
            TextIn::Owned(s) => apply_edits_owned(s, edits),
        },
    };
    if let Some(n) = truncate
        && let Some((cut, _)) = out.char_indices().nth(n)
    {
        out.truncate(cut);
    }
    out
}

/// Widens each removal that would cut an HTML comment's opener or closer (`<!--`, `-->`)
/// but not both to the whole comment: a note hidden in a comment goes with its comment, and
/// what follows it is never left inside an unclosed one.
fn whole_comments(s: &str, edits: &mut [Edit]) {
    // Most texts hold no `<` at all: a byte search tells them before a substring search,
    // which builds a searcher first.
    if !s.as_bytes().contains(&b'<') || !s.contains("<!--") {
        return;
    }
    let mut comments: Vec<std::ops::Range<usize>> = Vec::new();
    let mut at = 0;
    while let Some(open) = s.get(at..).and_then(|r| r.find("<!--")).map(|i| at + i) {
        let body = open + 4;
        let Some(close) = s
            .get(body..)
            .and_then(|r| r.find("-->"))
            .map(|i| body + i + 3)
        else {
            break;
        };
        comments.push(open..close);
        at = close;
    }
    for e in edits.iter_mut().filter(|e| e.with.is_empty()) {
        // The comments the removal reaches into, in order.
        let first = comments.partition_point(|c| c.end <= e.range.start);
        for c in comments.get(first..).unwrap_or_default() {
            if c.start >= e.range.end {
                break;
            }
            let cuts_open = e.range.contains(&c.start) || e.range.start == c.start;
            let cuts_close = e.range.end >= c.end || e.range.contains(&(c.end - 1));
            if cuts_open != cuts_close {
                e.range = e.range.start.min(c.start)..e.range.end.max(c.end);
                // The comment goes whole, its opener with it.
                e.core_start = e.core_start.min(c.start).max(e.range.start);
            }
        }
    }
}

/// A text's words, looked up in the decision stage's lists, and its languages.
type WordsRead<'t> = (
    Vec<crate::text::words::Word<'t>>,
    crate::decide::vocab::LangMask,
);

/// The cut of the clause `at` over `r`, with the consequence word that opens the next clause
/// when no needed item lies in it (see [`consequence_end`]).
fn clause_cut<'t>(
    s: &'t str,
    cl: &[crate::text::clauses::Clause],
    at: Option<usize>,
    r: std::ops::Range<usize>,
    needed: &SpanSet,
    read: &mut Option<WordsRead<'t>>,
) -> Edit {
    let end = at
        .and_then(|c| consequence_end(s, cl, c, read))
        .filter(|&e| !needed.overlaps(&(r.end..e)));
    Edit::remove(r.start..end.unwrap_or(r.end).max(r.end))
}

/// Words past which a stretch of a text that never ends a sentence is a run-on text (speech
/// transcribed as it was said, a message typed without stops) rather than one clause.
const RUN_ON_WORDS: usize = 16;

/// Whether `s` ends no sentence anywhere: no full stop, question or exclamation mark, no line
/// break, in any of the scripts the clause reading knows. Read once per text (see
/// [`run_on`]).
fn never_ends_a_sentence(s: &str) -> bool {
    !s.contains(['.', '!', '?', '\n', '…', '。', '！', '？', '؟', '।'])
}

/// Whether `t`, a stretch of a text that never ends a sentence ([`never_ends_a_sentence`]), is
/// a run-on: more than [`RUN_ON_WORDS`] words and no comma, colon or dash either. Its clause
/// reading is one clause for what may be several sentences said in a row, so a cut there
/// takes the item alone, not the stretch.
fn run_on(t: &str) -> bool {
    !t.contains([',', ';', ':', '、', '，', '،', '–', '—', '(', ')'])
        && t.split_whitespace().nth(RUN_ON_WORDS).is_some()
}

/// The end of the consequence word ("so", "поэтому", "इसलिए"; `consequence` in the decision
/// stage's `words.tsv`) that opens the clause after clause `c` in the same sentence: a reason
/// told first that is cut takes it along ("My son has the flu, so he won't be in school" →
/// "he won't be in school"), and the news stands alone. `None` when no such word opens it, when
/// it opens a reason instead ("тому що": because) or when nothing follows it in its clause.
fn consequence_end<'t>(
    s: &'t str,
    cl: &[crate::text::clauses::Clause],
    c: usize,
    read: &mut Option<WordsRead<'t>>,
) -> Option<usize> {
    use crate::decide::vocab::{WordSet, vocab};
    let this = cl.get(c)?;
    // An abbreviation in brackets after the clause ("I have multiple sclerosis (MS), so …")
    // goes with it and stands between it and the consequence word.
    let mut this_end = this.range.end;
    let mut n = c + 1;
    let abbr = text::abbreviation_end(s, this_end);
    if abbr > this_end
        && cl
            .get(n)
            .is_some_and(|x| x.parenthetical && x.range.end <= abbr)
    {
        this_end = abbr;
        n += 1;
    }
    let next = cl.get(n)?;
    if this.parenthetical || next.parenthetical || next.sentence != this.sentence {
        return None;
    }
    let between = s.get(this_end..next.range.start)?;
    if !between
        .chars()
        .all(|ch| ch.is_whitespace() || matches!(ch, ',' | ';' | '،' | '-' | '–' | '—'))
    {
        return None;
    }
    let v = vocab();
    let (ws, langs) = read.get_or_insert_with(|| {
        let mut ws = crate::text::words::words(s);
        let langs = v.look_up_languages(&mut ws, s);
        (ws, langs)
    });
    // A reason told after the clause it explains ("I'm home on Wednesday since I'm on sick
    // leave, so that would be a good day") is not what the consequence follows from.
    let first = ws.partition_point(|w| w.range.start < this.range.start);
    if v.set(WordSet::Reason).match_in(*langs, ws, first).is_some() {
        return None;
    }
    let i = ws.partition_point(|w| w.range.start < next.range.start);
    if ws.get(i)?.range.start != next.range.start {
        return None;
    }
    let n = v.set(WordSet::Consequence).match_in(*langs, ws, i)?;
    if v.set(WordSet::Reason)
        .match_in(*langs, ws, i)
        .is_some_and(|r| r > n)
    {
        return None;
    }
    let end = ws.get(i + n - 1)?.range.end;
    ws.get(i + n)
        .is_some_and(|w| w.range.end <= next.range.end)
        .then_some(end)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{
        Document, Edit, clone_patched, confine_to_cells, consequence_end, edit_document, removal,
    };
    use crate::item::PsdKind;
    use crate::rewrite::text::apply_edits;

    /// `text` with the item `value` removed as a span.
    fn cut(text: &str, value: &str, kind: PsdKind) -> String {
        let at = text.find(value).unwrap();
        apply_edits(text, vec![removal(text, at..at + value.len(), kind)])
    }

    #[test]
    fn what_the_writer_says_they_are_takes_its_introduction_and_its_anchor() {
        // "I'm" before what is cut at the end of its clause goes with it.
        assert_eq!(
            cut(
                "Late on Friday, I'm diabetic.",
                "diabetic",
                PsdKind::Condition
            ),
            "Late on Friday."
        );
        // A preposition of time anchored on an illness goes with it, whatever follows.
        assert_eq!(
            cut(
                "Ich sitze seit dem Schlaganfall im Rollstuhl.",
                "Schlaganfall",
                PsdKind::Condition
            ),
            "Ich sitze im Rollstuhl."
        );
        // And a possessive after the item that closes the clause ("… min.").
        assert_eq!(
            cut(
                "Innloggingen feiler etter kneoperasjonen min.",
                "kneoperasjonen",
                PsdKind::Condition
            ),
            "Innloggingen feiler."
        );
        assert_eq!(
            cut(
                "Innloggingen feiler etter kneoperasjonen min i fjor.",
                "kneoperasjonen",
                PsdKind::Condition
            ),
            "Innloggingen feiler min i fjor."
        );
        // Not before the noun the item qualifies ("after the abuse case").
        assert_eq!(
            cut(
                "She moved out after the abuse case last year.",
                "abuse",
                PsdKind::CriminalRecord
            ),
            "She moved out after the case last year."
        );
        // A bracketed age after a removed name goes with it.
        assert_eq!(
            cut(
                "Kids at home: Maya (6) and Leo.",
                "Maya",
                PsdKind::PersonName
            ),
            "Kids at home: and Leo."
        );
    }

    #[test]
    fn an_emptied_agent_phrase_leaves_no_preposition_or_lone_participle() {
        let mail = "ola.nordmann@example.org";
        let cases = [
            (
                "Crash on start. Reported by ola.nordmann@example.org",
                "Crash on start.",
            ),
            (
                "Crash on start. Reported by: ola.nordmann@example.org.",
                "Crash on start.",
            ),
            (
                "Crash, submitted by ola.nordmann@example.org, on Linux.",
                "Crash, on Linux.",
            ),
            (
                "It was reported by ola.nordmann@example.org today.",
                "It was reported today.",
            ),
            (
                "It was reported by ola.nordmann@example.org.",
                "It was reported.",
            ),
            (
                "Sent from ola.nordmann@example.org via the form.",
                "Sent via the form.",
            ),
            (
                "Absturz. Gemeldet von ola.nordmann@example.org.",
                "Absturz.",
            ),
            (
                "Plantage. Signalé par ola.nordmann@example.org.",
                "Plantage.",
            ),
            ("Fallo. Enviado por ola.nordmann@example.org.", "Fallo."),
        ];
        for (text, want) in cases {
            assert_eq!(cut(text, mail, PsdKind::Email), want, "{text}");
        }
        // A name is a whole agent too; a noun heading the phrase stays ("Message from …").
        assert_eq!(
            cut(
                "Note written by Ola Nordmann.",
                "Ola Nordmann",
                PsdKind::PersonName
            ),
            "Note written."
        );
        assert_eq!(
            cut(
                "Message from Ola Nordmann: call back.",
                "Ola Nordmann",
                PsdKind::PersonName
            ),
            "Message: call back."
        );
    }

    #[test]
    fn a_run_on_transcript_is_no_clause_to_cut_whole() {
        use super::{never_ends_a_sentence, run_on};
        let said = "we land at six so grab the car keys from the hall and tell Ines the dentist moved her crown fitting to the ninth";
        assert!(never_ends_a_sentence(said) && run_on(said));
        // A text that ends its sentences, or a short stretch, is read as written.
        let written = "We land at six. Tell Ines the dentist moved her crown fitting to the ninth.";
        assert!(!never_ends_a_sentence(written));
        assert!(!run_on("tell Ines the dentist moved"));
        assert!(!run_on(
            "grab the car keys from the hall, and tell Ines the dentist moved her crown fitting to the ninth"
        ));
    }

    #[test]
    fn a_consequence_word_goes_with_the_reason_told_before_it() {
        fn after_first(s: &str) -> Option<&str> {
            let cl = crate::text::clauses::clauses(s);
            consequence_end(s, &cl, 0, &mut None).map(|e| &s[..e])
        }
        for (text, cut) in [
            (
                "My son has the flu, so he won't be in school.",
                "My son has the flu, so",
            ),
            (
                "У мамы грипп, поэтому в субботу я не приду.",
                "У мамы грипп, поэтому",
            ),
            ("У мамы грипп, так что я не приду.", "У мамы грипп, так что"),
            ("У мами грип, тому я не прийду.", "У мами грип, тому"),
            ("माँ को बुखार है इसलिए मैं नहीं आऊंगी।", "माँ को बुखार है इसलिए"),
        ] {
            assert_eq!(after_first(text), Some(cut), "{text}");
        }
        for text in [
            // A reason, not a consequence ("тому що": because).
            "Я не прийду, тому що хворію.",
            // The next sentence, a word alone, a word that is no such connective.
            "My son has the flu. So he stays home.",
            "He has the flu, so.",
            "He has the flu, someone said.",
        ] {
            assert_eq!(after_first(text), None, "{text}");
        }
        // A reason told after its clause: the consequence follows from both.
        let text = "I'm home on Wednesday since I'm on sick leave, so that suits me.";
        let cl = crate::text::clauses::clauses(text);
        let at = text.find("since").unwrap_or(0);
        let c = crate::text::clauses::clause_of(&cl, at).unwrap_or(0);
        assert!(cl.get(c).is_some_and(|x| x.range.start == at), "{cl:?}");
        assert_eq!(consequence_end(text, &cl, c, &mut None), None);
    }

    #[test]
    fn a_cut_that_reaches_a_comments_edge_takes_the_comment() {
        let s = "Plan:\n- ship\n<!-- note: Kim has flu -->\nEnd";
        let at = s.find("Kim").unwrap();
        let mut edits = vec![crate::rewrite::text::Edit::remove(
            at..s.find("\nEnd").unwrap(),
        )];
        crate::rewrite::whole_comments(s, &mut edits);
        assert_eq!(
            crate::rewrite::text::apply_edits(s, edits).trim_end(),
            "Plan:\n- ship\n\nEnd"
        );
        // Inside the comment, short of its edges: the comment stays.
        let mut inside = vec![crate::rewrite::text::Edit::remove(at..at + 3)];
        crate::rewrite::whole_comments(s, &mut inside);
        assert_eq!(inside[0].range, at..at + 3);
    }

    #[test]
    fn edits_of_a_document_stay_in_their_cells() {
        let t = r#"{"who": "Ana Ruiz", "age": 41, "note": "fine"}"#;
        let doc = Document::of(t).unwrap();
        // A cut reaching back over the key and a cut of a bare number.
        let mut edits = vec![Edit::remove(1..17)];
        confine_to_cells(&doc, &(9..17), &mut edits, 0);
        let age = t.find("41").unwrap();
        edits.push(Edit::remove(age..age + 2));
        confine_to_cells(&doc, &(age..age + 2), &mut edits, 1);
        let out = edit_document(&doc, t, edits);
        assert_eq!(out, r#"{"who": "", "age": null, "note": "fine"}"#);
    }

    #[test]
    fn a_document_broken_by_an_edit_has_its_touched_cells_emptied() {
        let t = r#"{"q": "say \"hi\" now", "n": "x"}"#;
        let doc = Document::of(t).unwrap();
        // Ends between a backslash and its quote.
        let at = t.find('\\').unwrap();
        let out = edit_document(&doc, t, vec![Edit::remove(at + 1..at + 2)]);
        assert_eq!(out, r#"{"q": "", "n": "x"}"#);
        assert!(serde_json::from_str::<serde_json::Value>(&out).is_ok());
    }

    #[test]
    fn patches_replace_as_pointers_would() {
        let args = json!({"a": {"b/c": "x", "d": [1, "two", 3]}, "e": "keep", "f~g": "y"});
        let patches = vec![
            ("/a/b~1c".to_owned(), json!("X")),
            ("/a/d/1".to_owned(), json!("TWO")),
            ("/f~0g".to_owned(), json!("Y")),
            ("/missing/path".to_owned(), json!(0)),
            ("/a/d/01".to_owned(), json!(0)),
            ("/e/inside".to_owned(), json!(0)),
        ];
        let mut expected = args.clone();
        for (p, v) in &patches {
            if let Some(slot) = expected.pointer_mut(p) {
                *slot = v.clone();
            }
        }
        let got = clone_patched(&args, patches);
        assert_eq!(got, expected);
        assert_eq!(
            got,
            json!({"a": {"b/c": "X", "d": [1, "TWO", 3]}, "e": "keep", "f~g": "Y"})
        );
        // Key order is kept.
        let keys: Vec<&String> = got.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["a", "e", "f~g"]);
        // The whole document, and a value set inside a value replaced before.
        assert_eq!(
            clone_patched(&args, vec![(String::new(), json!(1))]),
            json!(1)
        );
        let nested = clone_patched(
            &args,
            vec![
                ("/a".to_owned(), json!({"k": 1})),
                ("/a/k".to_owned(), json!(2)),
            ],
        );
        assert_eq!(nested["a"], json!({"k": 2}));
        assert_eq!(clone_patched(&args, Vec::new()), args);
    }
}
