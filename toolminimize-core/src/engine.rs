//! Runs the stages for one call: classify → decide → rewrite → score.

use serde_json::Value;

use crate::args::{Arg, Elements, Members, Node, Tape, TapeError};
use crate::budget::Deadline;
use crate::decide::consent::Consent;
use crate::decide::judge::{JudgeAnswer, JudgeCandidate, JudgeRequest};
use crate::decide::linkability;
use crate::decide::purpose::ToolKind;
use crate::decide::{self, CallContext, Decision, Op, Rule};
use crate::item::{PsdItem, PsdKind};
use crate::pipeline::{BlockReason, Call, Inner, Outcome, Verdict};
use crate::report::{Action, ItemReport, Report};
use crate::rewrite::{self, JsonOut, Output, Rewritten, substitute::Placeholders};
use crate::schema::SchemaIndex;
use crate::score;
use crate::session::Session;
use crate::store::{
    Commit, STORE_CONTENDED, STORE_UNAVAILABLE, SessionReads, SessionState, SessionUpdate,
};
use crate::tool::ToolDef;

/// Withholds a quasi-identifier in free text that would complete an identifying combination
/// at a tool that already holds the other parts from earlier calls of the session.
fn guard_linkability(
    session: &Session,
    state: &SessionState,
    tool: &str,
    schema: &SchemaIndex,
    items: &[PsdItem],
    decisions: &mut [Decision],
) {
    let has = crate::session::received_by(state, &session.key(), tool);
    if has.is_empty() {
        return;
    }
    for (it, d) in items.iter().zip(decisions.iter_mut()) {
        if !d.necessary || it.span.is_none() || d.rule.is_explicit() {
            continue;
        }
        let whole_field = schema
            .field(&it.path)
            .is_some_and(|f| f.psd_category == Some(it.category));
        if !whole_field && linkability::completes_identity(&has, it.kind) {
            *d = Decision {
                necessary: false,
                op: Op::RemoveSpan,
                rule: Rule::SessionLinkability,
            };
        }
    }
}

/// Tools that pass data on to people (mail, chat, calendars, payments) are not one recipient;
/// the linkability guard applies to services that keep what they are sent.
fn single_recipient(kind: ToolKind) -> bool {
    !matches!(
        kind,
        ToolKind::Email
            | ToolKind::Messaging
            | ToolKind::Calendar
            | ToolKind::Crm
            | ToolKind::Files
            | ToolKind::Payment
    )
}

/// How many times a call is rewritten on a session that changed under it before it fails.
const MAX_REWRITES: usize = 4;

/// What is wrong with the shape of `v`, if anything: a value deeper than `max_depth`
/// containers, or more than `max_values` values in all. Iterative, so hostile nesting
/// cannot overflow the stack, and the stack holds one iterator per open container: its size
/// follows the depth, never the width.
fn shape_fault(v: Arg<'_>, max_depth: usize, max_values: usize) -> Option<&'static str> {
    enum Children<'a> {
        Array(Elements<'a>),
        Object(Members<'a>),
    }
    fn children(v: Arg<'_>) -> Option<Children<'_>> {
        match v.node() {
            Node::Array(a) => Some(Children::Array(a)),
            Node::Object(o) => Some(Children::Object(o)),
            _ => None,
        }
    }
    let mut stack: Vec<Children<'_>> = children(v).into_iter().collect();
    if max_values == 0 {
        return Some(TOO_MANY_VALUES);
    }
    let mut values = 1usize;
    while let Some(top) = stack.last_mut() {
        let next = match top {
            Children::Array(i) => i.next(),
            Children::Object(i) => i.next().map(|(_, v)| v),
        };
        let Some(child) = next else {
            stack.pop();
            continue;
        };
        // `child` lies as deep as the number of containers open above it.
        if stack.len() > max_depth {
            return Some(NESTED_TOO_DEEPLY);
        }
        values += 1;
        if values > max_values {
            return Some(TOO_MANY_VALUES);
        }
        if let Some(c) = children(child) {
            stack.push(c);
        }
    }
    None
}

const NESTED_TOO_DEEPLY: &str = "arguments nested too deeply";
const TOO_MANY_VALUES: &str = "arguments hold too many values";

/// A call after classification and analysis, before rewriting.
pub(crate) struct Analyzed {
    pub(crate) deadline: Deadline,
    /// The session's state before this call.
    pub(crate) session_state: Option<SessionState>,
    pub(crate) exposure: crate::taxonomy::Exposure,
    pub(crate) kind: ToolKind,
    pub(crate) schema: std::sync::Arc<SchemaIndex>,
    pub(crate) items: Vec<PsdItem>,
    pub(crate) decisions: Vec<Decision>,
}

pub(crate) fn analyze(inner: &Inner, call: &Call<'_, Arg<'_>>) -> Result<Analyzed, &'static str> {
    let policy = &inner.policy;
    let deadline = Deadline::new(policy.time_budget, call.deadline);
    if let Some(fault) = shape_fault(call.arguments, crate::MAX_DEPTH, crate::MAX_VALUES) {
        return Err(fault);
    }
    let exposure = policy
        .exposure
        .get(call.tool.name())
        .copied()
        .or(call.exposure)
        .or_else(|| call.tool.declared_exposure())
        .unwrap_or(policy.default_exposure);
    let schema = SchemaIndex::for_tool(call.tool, call.arguments);
    deadline.check()?;
    let mut items = inner
        .classifier
        .classify_within(call.arguments, &schema, &deadline)?;
    // Checked after classifying: detectors and patterns compile on first use, possibly during
    // this very call.
    if crate::classify::detectors_failed() {
        return Err("a built-in detector failed to compile");
    }
    deadline.check()?;
    items.sort_by(|a, b| {
        a.path.cmp(&b.path).then(
            a.span
                .as_ref()
                .map(|s| s.start)
                .cmp(&b.span.as_ref().map(|s| s.start)),
        )
    });
    let kind = call.tool.kind();
    let consent = call.task_context.map(Consent::new);
    let ctx = CallContext {
        tool: call.tool,
        kind,
        policy,
        args: call.arguments,
        consent: consent.as_ref(),
    };
    let mut decisions = {
        // Deciding checks the deadline between items and stops early when it has passed.
        let _scope = deadline.enter();
        decide::decide(&ctx, &schema, &items)
    };
    deadline.check()?;
    let session_state = match call.session {
        Some(s) => Some(s.view().map_err(|e| {
            tracing::warn!(error = %e, "session store unavailable");
            STORE_UNAVAILABLE
        })?),
        None => None,
    };
    if let (Some(session), Some(state)) = (
        call.session.filter(|_| single_recipient(kind)),
        &session_state,
    ) {
        guard_linkability(
            session,
            state,
            call.tool.name(),
            &schema,
            &items,
            &mut decisions,
        );
    }
    deadline.check()?;
    Ok(Analyzed {
        deadline,
        session_state,
        exposure,
        kind,
        schema,
        items,
        decisions,
    })
}

pub(crate) fn run(inner: &Inner, call: &Call<'_>) -> Result<Outcome, &'static str> {
    let call = call.with_args(Arg::Value(call.arguments));
    let analyzed = analyze(inner, &call)?;
    finish(inner, &call, analyzed)
}

/// [`run`] on arguments given as JSON text: read into a [`Tape`] rather than a tree of
/// values, and written out from it with the rewrite's edits. The outcome's arguments are
/// the JSON text `serde_json` would write for what [`run`] gives. Arguments the tape does
/// not hold as a `Value` would (an object that names a key twice) go through [`run`].
pub(crate) fn run_text(
    inner: &Inner,
    call: &Call<'_, &str>,
) -> Result<Outcome<JsonOut>, &'static str> {
    match Tape::parse(call.arguments) {
        Ok(tape) => {
            let outcome: Outcome<JsonOut> = {
                let call = call.with_args(Arg::from(&tape));
                let analyzed = analyze(inner, &call)?;
                finish(inner, &call, analyzed)?
            };
            // The edits are written out over this tape: the text is not parsed again.
            Ok(outcome.map_arguments(|out| out.keeping(tape)))
        }
        Err(TapeError::Invalid) => Err(NOT_JSON),
        Err(TapeError::DuplicateKey | TapeError::TooLarge) => {
            let v: Value = serde_json::from_str(call.arguments).map_err(|_| NOT_JSON)?;
            Ok(run(inner, &call.with_args(&v))?.map_arguments(|v| JsonOut::Text(v.to_string())))
        }
    }
}

const NOT_JSON: &str = "arguments are not valid JSON";

/// [`run`] on arguments the caller hands over: rewritten in place, never copied. On failure,
/// the arguments come back as they came in, or, when the deadline passed while they were
/// rewritten, as rewritten (their long texts are not kept to be given back).
pub(crate) fn run_owned(
    inner: &Inner,
    call: Call<'_, Value>,
) -> Result<Outcome, (&'static str, Value)> {
    let (arguments, context) = call.into_parts();
    if context.session.is_some() {
        // A session that changed under the call has it rewritten again from its input: the
        // input stays as it is, and the output is a copy.
        let call = context.with_args(&arguments);
        return run(inner, &call).map_err(|e| (e, arguments.clone()));
    }
    let a = match analyze(inner, &context.with_args(Arg::Value(&arguments))) {
        Ok(a) => a,
        Err(e) => return Err((e, arguments)),
    };
    // As `finish` does without a session: one rewrite, then the deadline.
    let mut placeholders = Placeholders::default();
    let mut arguments = arguments;
    let plan = rewrite::plan_in_place(
        &mut arguments,
        &a.schema,
        &a.items,
        &a.decisions,
        &mut placeholders,
    );
    let mut out = plan.apply(arguments, &a.schema, &a.items);
    let mut a = a;
    settle(
        inner,
        &context.with_args(Arg::Value(&Value::Null)),
        &a.deadline,
        &mut a.decisions,
        &a.items,
        &mut out,
    );
    if let Err(e) = a.deadline.check() {
        // Texts rewritten whole were taken out of the input: what fails (and is forwarded
        // when failing open) is the rewritten call, never a half-emptied one.
        return Err((e, out.arguments));
    }
    Ok(conclude(inner, context.tool, a, out))
}

pub(crate) fn finish<O: Output>(
    inner: &Inner,
    call: &Call<'_, Arg<'_>>,
    a: Analyzed,
) -> Result<Outcome<O>, &'static str> {
    let Analyzed {
        deadline,
        mut session_state,
        exposure,
        kind,
        schema,
        items,
        mut decisions,
    } = a;
    let mut rewrites = 0;
    // Rewritten again when the session changed where this call read it (a shared store whose
    // view was stale, or another call of the session committing first).
    let out = loop {
        let mut placeholders = match (call.session, &session_state) {
            (Some(s), Some(state)) => Placeholders::from_session(s.key(), state),
            _ => Placeholders::default(),
        };
        let out = O::rewrite(
            call.arguments,
            &schema,
            &items,
            &decisions,
            &mut placeholders,
        );
        // Over budget: nothing of this call is recorded in the session, nothing is forwarded.
        deadline.check()?;
        let Some(s) = call.session else {
            break out;
        };
        let sent: Vec<PsdKind> = items
            .iter()
            .zip(&out.actions)
            .filter(|(it, a)| **a == Action::Keep && linkability::is_quasi_identifier(it.kind))
            .map(|(it, _)| it.kind)
            .collect();
        let (added, counts) = placeholders.added();
        let (found, before) = placeholders.reads();
        let received = session_state.as_ref().map_or(0, |state| {
            crate::session::received_by(state, &s.key(), call.tool.name()).len()
        });
        let reads = SessionReads {
            received,
            found,
            counts: before,
        };
        let update = SessionUpdate {
            placeholders: added,
            counts,
            tool: s.key().hash(call.tool.name().as_bytes()),
            sent,
            call: true,
        };
        match s.commit(&reads, &update) {
            Ok(Commit::Done) => break out,
            Ok(Commit::Changed(state)) => {
                rewrites += 1;
                if rewrites >= MAX_REWRITES {
                    tracing::warn!(rewrites, "session kept changing while minimizing");
                    return Err(STORE_CONTENDED);
                }
                if single_recipient(kind) {
                    // The guard only withholds more: what the stale view withheld stays out.
                    guard_linkability(s, &state, call.tool.name(), &schema, &items, &mut decisions);
                }
                session_state = Some(state);
                deadline.check()?;
            }
            Err(e) => {
                tracing::warn!(error = %e, "session store unavailable");
                return Err(STORE_UNAVAILABLE);
            }
        }
    };
    let mut out = out;
    settle(inner, call, &deadline, &mut decisions, &items, &mut out);
    let analyzed = Analyzed {
        deadline,
        session_state,
        exposure,
        kind,
        schema,
        items,
        decisions,
    };
    Ok(conclude(inner, call.tool, analyzed, out))
}

/// A second look at a call whose rewrite cut an optional text down to the values kept in it
/// (a note left holding only a name): read as it now is, such a field may say nothing the
/// tool needs, and the decisions that would drop it now are taken at once, so that minimizing
/// the output again changes nothing. Only whole fields go (each with the rule that drops it);
/// nothing else of the first rewrite changes. Calls of a session are left as they are (their
/// rewrite is tied to the session's state).
fn settle<O: Output>(
    inner: &Inner,
    call: &Call<'_, Arg<'_>>,
    deadline: &Deadline,
    decisions: &mut [Decision],
    items: &[PsdItem],
    out: &mut Rewritten<O>,
) {
    if !out.settle || call.session.is_some() {
        return;
    }
    let second = out.arguments.read(call.arguments, |arguments| {
        let again = Call {
            tool: call.tool,
            arguments,
            exposure: call.exposure,
            task_context: call.task_context,
            session: None,
            // The second look spends what is left of the call's budget, no more.
            deadline: deadline.at(),
        };
        analyze(inner, &again)
    });
    let Some(Ok(second)) = second else {
        return;
    };
    // Paths whose every item the second look drops with its field.
    let mut gone: Vec<(String, Decision)> = Vec::new();
    let mut i = 0;
    while let Some(first) = second.items.get(i) {
        let mut j = i;
        while second.items.get(j).is_some_and(|x| x.path == first.path) {
            j += 1;
        }
        let ds = second.decisions.get(i..j).unwrap_or_default();
        if ds.iter().all(|d| d.op == Op::RemoveField)
            && let Some(d) = ds.first()
        {
            gone.push((first.path.clone(), *d));
        }
        i = j.max(i + 1);
    }
    drop(second);
    let paths: Vec<&str> = gone.iter().map(|(p, _)| p.as_str()).collect();
    let removed = out.arguments.remove_members(call.arguments, &paths);
    for ((path, d), removed) in gone.iter().zip(removed) {
        let d = *d;
        if !removed {
            continue;
        }
        // What the first rewrite kept of the field goes with it; what it cut keeps its rule.
        for (k, it) in items.iter().enumerate() {
            if it.path == *path
                && let (Some(a), Some(slot)) = (out.actions.get_mut(k), decisions.get_mut(k))
                && *a == Action::Keep
            {
                *a = Action::Remove;
                *slot = d;
            }
        }
    }
}

/// The outcome of a call rewritten into `out`: its report, and the arguments to forward
/// unless the policy blocks the call.
fn conclude<O>(inner: &Inner, tool: &ToolDef, a: Analyzed, out: Rewritten<O>) -> Outcome<O> {
    let policy = &inner.policy;
    let Analyzed {
        exposure,
        kind,
        schema,
        items,
        decisions,
        ..
    } = a;
    drop(schema);
    // Each item's path moves into its report.
    let report_items: Vec<ItemReport> = items
        .into_iter()
        .zip(&decisions)
        .zip(out.actions.iter().zip(&out.kept_for_validity))
        .map(|((it, d), (a, kept))| {
            ItemReport::new(
                it.path,
                it.category,
                it.sensitivity,
                d.necessary,
                *a,
                it.kind,
                it.detector,
                if *kept { Rule::KeptToStayValid } else { d.rule },
                it.confidence,
                it.span.as_ref(),
            )
        })
        .collect();
    let cost_before = score::cost(
        report_items
            .iter()
            .map(|r| (r.sensitivity(), r.necessary())),
        exposure,
    );
    let cost_after = score::cost(
        report_items
            .iter()
            .map(|r| (r.sensitivity(), r.necessary() || r.action() != Action::Keep)),
        exposure,
    );
    let report = Report::new(cost_before, cost_after, report_items, exposure, kind.id());
    if policy.block.tools.iter().any(|t| t == tool.name()) {
        return Outcome::new(Verdict::Block(BlockReason::ToolBlocked), report);
    }
    if policy
        .block
        .cost_after_above
        .is_some_and(|limit| cost_after > limit)
    {
        return Outcome::new(Verdict::Block(BlockReason::CostAboveLimit), report);
    }
    tracing::debug!(
        tool = tool.name(),
        tool_kind = kind.id(),
        items = report.items().len(),
        cost_before = report.cost_before(),
        cost_after = report.cost_after(),
        "minimized tool call"
    );
    Outcome::new(Verdict::Forward(out.arguments), report)
}

/// The free-text fields worth judging, with the indices of their items.
pub(crate) fn judge_requests(call: &Call<'_>, a: &Analyzed) -> Vec<(JudgeRequest, Vec<usize>)> {
    let mut out: Vec<(JudgeRequest, Vec<usize>)> = Vec::new();
    for (i, (it, d)) in a.items.iter().zip(&a.decisions).enumerate() {
        let Some(span) = it.span.as_ref() else {
            continue;
        };
        if d.rule.is_explicit() {
            continue;
        }
        let Some(text) = call.arguments.pointer(&it.path).and_then(Value::as_str) else {
            continue;
        };
        let cand = JudgeCandidate {
            index: i,
            category: it.category,
            kind: it.kind.name(),
            span: [span.start, span.end],
            rule_says_needed: d.necessary,
        };
        // Items are sorted by path: a field's items are consecutive.
        match out.last_mut().filter(|(r, _)| r.path == it.path) {
            Some((r, idx)) => {
                r.candidates.push(cand);
                idx.push(i);
            }
            None => out.push((
                JudgeRequest {
                    tool: call.tool.name().to_owned(),
                    tool_description: call.tool.description().to_owned(),
                    path: it.path.clone(),
                    text: text.to_owned(),
                    task_context: call.task_context.map(str::to_owned),
                    candidates: vec![cand],
                },
                vec![i],
            )),
        }
    }
    out
}

/// Applies a judge's answer to the items it was asked about.
pub(crate) fn apply_judgement(a: &mut Analyzed, asked: &[usize], answer: &JudgeAnswer) {
    for &i in asked {
        let Some(d) = a.decisions.get_mut(i) else {
            continue;
        };
        let needed = answer.needed.contains(&i);
        if needed && !d.necessary {
            *d = Decision {
                necessary: true,
                op: Op::Keep,
                rule: Rule::JudgeNeeded,
            };
        } else if !needed && d.necessary {
            *d = Decision {
                necessary: false,
                op: Op::RemoveSpan,
                rule: Rule::JudgeNotNeeded,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::args::Arg;

    use super::{NESTED_TOO_DEEPLY, TOO_MANY_VALUES, shape_fault};
    use crate::limits::tests::values as count;

    #[test]
    fn values_are_counted_to_the_limit() {
        for v in [
            json!(1),
            json!([]),
            json!({"a": [1, {"b": []}], "c": "d"}),
            nested(9),
        ] {
            let n = count(&v);
            assert_eq!(shape_fault(Arg::Value(&v), 1000, n), None, "{v}");
            assert_eq!(
                shape_fault(Arg::Value(&v), 1000, n - 1),
                Some(TOO_MANY_VALUES),
                "{v}"
            );
        }
        // Whichever bound is passed first is reported.
        assert_eq!(
            shape_fault(Arg::Value(&nested(9)), 3, 1000),
            Some(NESTED_TOO_DEEPLY)
        );
        assert_eq!(
            shape_fault(Arg::Value(&nested(9)), 1000, 3),
            Some(TOO_MANY_VALUES)
        );
    }

    /// The depth of the deepest value: a scalar or an empty container at the root is 0.
    fn depth(v: &Value) -> usize {
        let inner = match v {
            Value::Array(a) => a.iter().map(|x| depth(x) + 1).max(),
            Value::Object(o) => o.values().map(|x| depth(x) + 1).max(),
            _ => None,
        };
        inner.unwrap_or(0)
    }

    fn nested(levels: usize) -> Value {
        (0..levels).fold(json!("x"), |v, i| {
            if i % 2 == 0 {
                json!([1, v, {}])
            } else {
                json!({"a": [], "b": v})
            }
        })
    }

    #[test]
    fn depth_is_measured_at_every_limit() {
        let shapes = [
            json!(1),
            json!([]),
            json!({}),
            json!([[], [[]], {"a": [[[]]]}]),
            json!({"a": {"b": {"c": "d"}}, "e": [1, 2, 3]}),
            nested(7),
            nested(40),
        ];
        for v in &shapes {
            let d = depth(v);
            for limit in 0..=d + 2 {
                let fault = shape_fault(Arg::Value(v), limit, usize::MAX);
                assert_eq!(fault.is_some(), d > limit, "{v} at limit {limit}");
            }
        }
    }
}
