//! The library through the facade crate, on the bundled examples: every rewrite validates
//! against the tool's schema, reports carry no values, minimizing is deterministic and gives
//! the same results from several threads, and a strict policy never finds less to protect.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use serde_json::Value;
use toolminimize::{Call, Exposure, Minimizer, Outcome, Policy, Session, ToolDef};

const EXAMPLES: &str = include_str!("../examples/calls.jsonl");

struct Example {
    id: String,
    tool: ToolDef,
    arguments: Value,
    exposure: Option<Exposure>,
    task_context: Option<String>,
    session: Option<String>,
}

fn examples() -> Vec<Example> {
    EXAMPLES
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let text = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
            Example {
                id: text("id").unwrap(),
                tool: ToolDef::from_json(&v["tool"]).unwrap(),
                arguments: v["arguments"].clone(),
                exposure: text("exposure").map(|e| e.parse().unwrap()),
                task_context: text("task_context"),
                session: text("session"),
            }
        })
        .collect()
}

/// Minimizes every example in order, with one session per session id, as the CLI does.
fn run_all(minimizer: &Minimizer, examples: &[Example]) -> Vec<Outcome> {
    let mut sessions: Vec<Session> = Vec::new();
    examples
        .iter()
        .map(|e| {
            let session = e.session.as_deref().map(|id| {
                if let Some(s) = sessions.iter().find(|s| s.id() == id) {
                    s.clone()
                } else {
                    let s = Session::new(id);
                    sessions.push(s.clone());
                    s
                }
            });
            let mut call = Call::new(&e.tool, &e.arguments);
            call.exposure = e.exposure;
            call.task_context = e.task_context.as_deref();
            call.session = session.as_ref();
            minimizer.minimize_call(&call)
        })
        .collect()
}

/// Single lowercase words (`person`, `transit`, `primary`) are enum-like values that may equal
/// a taxonomy or kind id in a report; they are not values that could leak.
fn is_identifier(s: &str) -> bool {
    s.chars()
        .all(|c| c.is_ascii_lowercase() || c == '_' || c == '-')
}

fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) if s.chars().count() >= 6 && !is_identifier(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

#[test]
fn every_rewrite_validates_and_no_report_holds_a_value() {
    let examples = examples();
    let outcomes = run_all(&Minimizer::new().unwrap(), &examples);
    for (e, o) in examples.iter().zip(&outcomes) {
        let validator = jsonschema::validator_for(e.tool.input_schema()).unwrap();
        if let Some(args) = o.arguments() {
            let errors: Vec<String> = validator.iter_errors(args).map(|x| x.to_string()).collect();
            assert!(errors.is_empty(), "{}: {errors:?}", e.id);
        }
        assert!(
            o.report().cost_after() <= o.report().cost_before(),
            "{}",
            e.id
        );
        let report = serde_json::to_string(&o.report()).unwrap();
        let debug = format!("{:?}", o.report());
        let mut values = Vec::new();
        strings(&e.arguments, &mut values);
        for v in &values {
            assert!(
                !report.contains(v.as_str()),
                "{}: a value leaked into the report",
                e.id
            );
            assert!(
                !debug.contains(v.as_str()),
                "{}: a value leaked into the report's Debug",
                e.id
            );
        }
    }
}

#[test]
fn minimizing_is_deterministic_and_the_same_from_several_threads() {
    let examples = examples();
    let minimizer = Minimizer::new().unwrap();
    let sequential = run_all(&minimizer, &examples);
    let again = run_all(&minimizer, &examples);
    assert_eq!(sequential, again);
    let parallel: Vec<Vec<Outcome>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let m = minimizer.clone();
                let ex = &examples;
                s.spawn(move || run_all(&m, ex))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for p in parallel {
        assert_eq!(p, sequential);
    }
}

#[test]
fn a_strict_policy_never_finds_less_to_protect() {
    let examples = examples();
    let default = run_all(&Minimizer::new().unwrap(), &examples);
    let strict = run_all(
        &Minimizer::builder()
            .policy(Policy::default().with_strict(true))
            .build()
            .unwrap(),
        &examples,
    );
    for ((e, d), s) in examples.iter().zip(&default).zip(&strict) {
        assert!(
            s.report().cost_before() >= d.report().cost_before(),
            "{}: strict cost {} < default cost {}",
            e.id,
            s.report().cost_before(),
            d.report().cost_before()
        );
        let unnecessary =
            |o: &Outcome| o.report().items().iter().filter(|i| !i.necessary()).count();
        assert!(unnecessary(s) >= unnecessary(d), "{}", e.id);
    }
}
