//! Decision tests as data: every case in `fixtures/decisions/*.jsonl` is one small tool call
//! with the decision the principles of the decision stage call for, per detected item (keep or
//! not, optionally the action and the rule family), plus substrings the output must hold or
//! lack. See `fixtures/decisions/README.md` for the format.
//!
//! One test runs the whole corpus with the built-in classifier and fails once, listing every
//! mismatch. Cases marked with a `gap` (the engine does not do this yet) are run and listed
//! apart; they do not fail the test, and a gap that starts to pass is named so it can be
//! promoted to a plain case.
//!
//! `DECISIONS_SHOW=<id prefix>` (or `all`) prints, for the matching cases, every report item
//! with the text it covers, and the output; `DECISIONS_DIR=<dir>` reads the corpus from another
//! directory.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::PathBuf;

use serde_json::Value;
use toolminimize_core::{Action, ItemReport};
use toolminimize_core::{Call, Exposure, Minimizer, Outcome, Policy, Session, ToolDef};

/// The largest share of cases that may carry a `gap`.
const MAX_GAP_SHARE: f64 = 0.10;
/// The least number of cases the corpus holds.
const MIN_CASES: usize = 150;

/// The corpus directory; `DECISIONS_DIR` points the test at another one (to try new cases).
fn corpus_dir() -> PathBuf {
    std::env::var_os("DECISIONS_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/decisions"),
        PathBuf::from,
    )
}

/// One expected decision about one detected item.
#[derive(Debug)]
struct Expect {
    path: String,
    text: String,
    keep: bool,
    action: Option<String>,
    rule: Option<String>,
}

#[derive(Debug)]
struct Case {
    file: String,
    id: String,
    lang: String,
    tool: ToolDef,
    schema: Value,
    arguments: Value,
    task_context: Option<String>,
    exposure: Option<Exposure>,
    strict: bool,
    session: Option<String>,
    expect: Vec<Expect>,
    out_contains: Vec<String>,
    out_lacks: Vec<String>,
    unchanged: bool,
    gap: Option<String>,
}

fn strings(v: &Value, key: &str, where_: &str) -> Vec<String> {
    match v.get(key) {
        None => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|s| {
                s.as_str()
                    .unwrap_or_else(|| panic!("{where_}: `{key}` holds a non-string"))
                    .to_owned()
            })
            .collect(),
        Some(_) => panic!("{where_}: `{key}` must be an array of strings"),
    }
}

fn opt_str(v: &Value, key: &str, where_: &str) -> Option<String> {
    v.get(key).map(|s| {
        s.as_str()
            .unwrap_or_else(|| panic!("{where_}: `{key}` must be a string"))
            .to_owned()
    })
}

const CASE_KEYS: &[&str] = &[
    "id",
    "note",
    "lang",
    "tool",
    "arguments",
    "task_context",
    "exposure",
    "policy",
    "session",
    "expect",
    "out_contains",
    "out_lacks",
    "unchanged",
    "gap",
];
const EXPECT_KEYS: &[&str] = &["path", "text", "keep", "action", "rule"];

fn parse_case(file: &str, line_no: usize, line: &str) -> Case {
    let where_ = format!("{file}:{line_no}");
    let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{where_}: not JSON: {e}"));
    let obj = v
        .as_object()
        .unwrap_or_else(|| panic!("{where_}: not an object"));
    for k in obj.keys() {
        assert!(
            CASE_KEYS.contains(&k.as_str()),
            "{where_}: unknown key `{k}`"
        );
    }
    let id = opt_str(&v, "id", &where_).unwrap_or_else(|| panic!("{where_}: no `id`"));
    let where_ = format!("{where_} ({id})");
    let note = opt_str(&v, "note", &where_).unwrap_or_default();
    assert!(!note.trim().is_empty(), "{where_}: no `note`");
    let lang = opt_str(&v, "lang", &where_).unwrap_or_else(|| panic!("{where_}: no `lang`"));
    let tool = ToolDef::from_json(&v["tool"])
        .unwrap_or_else(|e| panic!("{where_}: bad tool definition: {e}"));
    let schema = tool.input_schema().clone();
    let arguments = v
        .get("arguments")
        .cloned()
        .unwrap_or_else(|| panic!("{where_}: no `arguments`"));
    let exposure = opt_str(&v, "exposure", &where_)
        .map(|e| e.parse().unwrap_or_else(|e| panic!("{where_}: {e}")));
    let strict = match opt_str(&v, "policy", &where_).as_deref() {
        None | Some("default") => false,
        Some("strict") => true,
        Some(p) => panic!("{where_}: unknown policy `{p}` (default, strict)"),
    };
    let expect = v
        .get("expect")
        .map(|e| {
            e.as_array()
                .unwrap_or_else(|| panic!("{where_}: `expect` must be an array"))
                .iter()
                .map(|x| {
                    for k in x.as_object().map(|o| o.keys()).into_iter().flatten() {
                        assert!(
                            EXPECT_KEYS.contains(&k.as_str()),
                            "{where_}: unknown expectation key `{k}`"
                        );
                    }
                    Expect {
                        path: opt_str(x, "path", &where_)
                            .unwrap_or_else(|| panic!("{where_}: expectation without `path`")),
                        text: opt_str(x, "text", &where_)
                            .unwrap_or_else(|| panic!("{where_}: expectation without `text`")),
                        keep: x["keep"].as_bool().unwrap_or_else(|| {
                            panic!("{where_}: expectation without boolean `keep`")
                        }),
                        action: opt_str(x, "action", &where_),
                        rule: opt_str(x, "rule", &where_),
                    }
                })
                .collect()
        })
        .unwrap_or_else(|| panic!("{where_}: no `expect` (use [] for benign calls)"));
    let unchanged = match v.get("unchanged") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => panic!("{where_}: `unchanged` must be a boolean"),
    };
    Case {
        file: file.to_owned(),
        id,
        lang,
        tool,
        schema,
        arguments,
        task_context: opt_str(&v, "task_context", &where_),
        exposure,
        strict,
        session: opt_str(&v, "session", &where_),
        expect,
        out_contains: strings(&v, "out_contains", &where_),
        out_lacks: strings(&v, "out_lacks", &where_),
        unchanged,
        gap: opt_str(&v, "gap", &where_),
    }
}

fn corpus() -> Vec<Case> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus files");
    let mut cases = Vec::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            cases.push(parse_case(&name, i + 1, line));
        }
    }
    cases
}

/// Every string and number leaf of a JSON value, as text.
fn leaves(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Number(n) => out.push(n.to_string()),
        Value::Array(a) => a.iter().for_each(|x| leaves(x, out)),
        Value::Object(o) => o.values().for_each(|x| leaves(x, out)),
        Value::Null | Value::Bool(_) => {}
    }
}

/// The text a value has for matching: a string as it is, anything else as JSON.
fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The report items at `e.path` that cover an occurrence of `e.text`.
fn covering<'r>(e: &Expect, args: &Value, items: &'r [ItemReport]) -> Vec<&'r ItemReport> {
    let Some(value) = args.pointer(&e.path) else {
        return Vec::new();
    };
    let text = value_text(value);
    let occurrences: Vec<(usize, usize)> = text
        .match_indices(e.text.as_str())
        .map(|(i, s)| (i, i + s.len()))
        .collect();
    items
        .iter()
        .filter(|it| it.path() == e.path)
        .filter(|it| match it.span() {
            None => !occurrences.is_empty(),
            Some(r) => occurrences.iter().any(|&(s, t)| r.start <= s && t <= r.end),
        })
        .collect()
}

fn describe(it: &ItemReport, args: &Value) -> String {
    let covered = match (it.span(), args.pointer(it.path())) {
        (Some(r), Some(Value::String(s))) => s.get(r).unwrap_or("?").to_owned(),
        (_, Some(v)) => value_text(v),
        _ => "?".to_owned(),
    };
    format!(
        "{} {:?} {}/{} necessary={} action={} rule={}",
        it.path(),
        covered,
        it.category(),
        it.kind(),
        it.necessary(),
        it.action(),
        it.rule()
    )
}

/// Checks one case; returns its problems (empty when it holds).
fn check(case: &Case, outcome: &Outcome) -> Vec<String> {
    let mut problems = Vec::new();
    let Some(out) = outcome.arguments() else {
        problems.push("the call was blocked".to_owned());
        return problems;
    };
    let items = outcome.report().items();
    for e in &case.expect {
        let found = covering(e, &case.arguments, items);
        let want = if e.keep { "kept" } else { "not kept" };
        if found.is_empty() {
            let at_path: Vec<String> = items
                .iter()
                .filter(|it| it.path() == e.path)
                .map(|it| describe(it, &case.arguments))
                .collect();
            problems.push(format!(
                "{} {:?}: no detected item covers it (expected {want}); items there: [{}]",
                e.path,
                e.text,
                at_path.join("; ")
            ));
            continue;
        }
        for it in found {
            let kept = it.action() == Action::Keep;
            let mut wrong = Vec::new();
            if kept != e.keep {
                wrong.push(format!("expected {want}"));
            }
            if let Some(a) = &e.action
                && it.action().id() != a
            {
                wrong.push(format!("expected action {a}"));
            }
            if let Some(r) = &e.rule
                && !it.rule().id().starts_with(r.as_str())
            {
                wrong.push(format!("expected rule {r}…"));
            }
            if !wrong.is_empty() {
                problems.push(format!(
                    "{} {:?}: {}; got {}",
                    e.path,
                    e.text,
                    wrong.join(", "),
                    describe(it, &case.arguments)
                ));
            }
        }
    }
    let mut out_leaves = Vec::new();
    leaves(out, &mut out_leaves);
    for s in &case.out_contains {
        if !out_leaves.iter().any(|l| l.contains(s.as_str())) {
            problems.push(format!("output lacks {s:?}"));
        }
    }
    for s in &case.out_lacks {
        if out_leaves.iter().any(|l| l.contains(s.as_str())) {
            problems.push(format!("output still holds {s:?}"));
        }
    }
    if case.unchanged && out != &case.arguments {
        let changed: Vec<String> = items
            .iter()
            .filter(|it| it.action() != Action::Keep)
            .map(|it| describe(it, &case.arguments))
            .collect();
        problems.push(format!(
            "expected unchanged; changed: [{}]",
            changed.join("; ")
        ));
    }
    let validator = jsonschema::validator_for(&case.schema).unwrap();
    if validator.is_valid(&case.arguments) && !validator.is_valid(out) {
        problems.push("the output no longer validates against the schema".to_owned());
    }
    if !problems.is_empty() {
        problems.push(format!("output: {out}"));
    }
    problems
}

fn show(case: &Case, outcome: &Outcome) {
    let Ok(filter) = std::env::var("DECISIONS_SHOW") else {
        return;
    };
    if filter != "all" && !case.id.starts_with(filter.as_str()) {
        return;
    }
    eprintln!(
        "── {} ({}) tool_kind={:?}",
        case.id,
        case.file,
        outcome.report().tool_kind()
    );
    for it in outcome.report().items() {
        eprintln!("   {}", describe(it, &case.arguments));
    }
    match outcome.arguments() {
        Some(out) => eprintln!("   out: {out}"),
        None => eprintln!("   blocked"),
    }
}

#[allow(clippy::cast_precision_loss)] // a few hundred cases
fn share(part: usize, whole: usize) -> f64 {
    part as f64 / whole.max(1) as f64
}

#[test]
fn every_decision_in_the_corpus_follows_the_principles() {
    let cases = corpus();
    let default = Minimizer::new().unwrap();
    let strict = Minimizer::builder()
        .policy(Policy::default().with_strict(true))
        .build()
        .unwrap();
    let mut sessions: HashMap<String, Session> = HashMap::new();

    let mut ids = HashSet::new();
    let mut failures = Vec::new();
    let mut open_gaps = Vec::new();
    let mut closed_gaps = Vec::new();
    let mut by_file: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_lang: BTreeMap<&str, usize> = BTreeMap::new();

    for case in &cases {
        assert!(ids.insert(case.id.as_str()), "duplicate id {}", case.id);
        *by_file.entry(case.file.as_str()).or_default() += 1;
        *by_lang.entry(case.lang.as_str()).or_default() += 1;
        let validator = jsonschema::validator_for(&case.schema).unwrap();
        assert!(
            validator.is_valid(&case.arguments),
            "{}: the arguments do not validate against the tool's schema",
            case.id
        );
        for e in &case.expect {
            let holds = case
                .arguments
                .pointer(&e.path)
                .is_some_and(|v| value_text(v).contains(e.text.as_str()));
            assert!(
                holds,
                "{}: {:?} is not in the arguments at {}",
                case.id, e.text, e.path
            );
        }

        let minimizer = if case.strict { &strict } else { &default };
        let mut call = Call::new(&case.tool, &case.arguments);
        call.exposure = case.exposure;
        call.task_context = case.task_context.as_deref();
        if let Some(name) = &case.session {
            sessions
                .entry(name.clone())
                .or_insert_with(|| Session::new(name.as_str()));
        }
        call.session = case.session.as_ref().and_then(|n| sessions.get(n));
        let outcome = minimizer.minimize_call(&call);
        // Minimizing the output again changes nothing more (a session's state moves on with
        // each call, so its cases are left out).
        if call.session.is_none()
            && let Some(out) = outcome.arguments()
        {
            let mut again = Call::new(&case.tool, out);
            again.exposure = case.exposure;
            again.task_context = case.task_context.as_deref();
            if minimizer.minimize_call(&again).arguments() != Some(out) {
                failures.push(format!("{}: a second pass changes the output", case.id));
            }
        }
        record(
            case,
            &outcome,
            &mut failures,
            &mut open_gaps,
            &mut closed_gaps,
        );
    }

    let gaps = open_gaps.len() + closed_gaps.len();
    eprintln!(
        "decision corpus: {} cases, {} failing, {} gaps ({} still open); by file {by_file:?}; by language {by_lang:?}",
        cases.len(),
        failures.len(),
        gaps,
        open_gaps.len()
    );
    if !open_gaps.is_empty() {
        eprintln!("open gaps (the engine does not do this yet):");
        for g in &open_gaps {
            eprintln!("  {g}");
        }
    }
    if !closed_gaps.is_empty() {
        eprintln!("gaps that now pass (drop their `gap` to promote them):");
        for g in &closed_gaps {
            eprintln!("  {g}");
        }
    }
    let mut corpus_problems = Vec::new();
    if cases.len() < MIN_CASES {
        corpus_problems.push(format!(
            "the corpus holds {} cases, fewer than {MIN_CASES}",
            cases.len()
        ));
    }
    if share(gaps, cases.len()) > MAX_GAP_SHARE {
        corpus_problems.push(format!(
            "{gaps} of {} cases are gaps, more than {:.0} %",
            cases.len(),
            MAX_GAP_SHARE * 100.0
        ));
    }
    assert!(
        failures.is_empty() && corpus_problems.is_empty(),
        "{} of {} cases do not follow the principles:\n\n{}\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n"),
        corpus_problems.join("\n")
    );
}

fn record(
    case: &Case,
    outcome: &Outcome,
    failures: &mut Vec<String>,
    open_gaps: &mut Vec<String>,
    closed_gaps: &mut Vec<String>,
) {
    show(case, outcome);
    let problems = check(case, outcome);
    match (&case.gap, problems.is_empty()) {
        (None, true) => {}
        (None, false) => {
            let mut s = format!("{} ({}):", case.id, case.file);
            for p in &problems {
                let _ = write!(s, "\n    {p}");
            }
            failures.push(s);
        }
        (Some(gap), false) => open_gaps.push(format!("{} ({}): {gap}", case.id, case.file)),
        (Some(gap), true) => closed_gaps.push(format!("{} ({}): {gap}", case.id, case.file)),
    }
}
