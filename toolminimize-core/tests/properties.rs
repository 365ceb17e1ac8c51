//! Invariants of the pipeline over generated calls: arguments of random shape and depth,
//! random schemas (required and optional fields, `enum`, `pattern`, `format`), strings seeded
//! with invented personal data and look-alike encodings of it.
//!
//! - the output parses, and validates against the schema whenever the input did;
//! - minimizing twice changes nothing more;
//! - `cost_after ≤ cost_before`;
//! - no path appears that was not in the input;
//! - no seeded value appears in the report or in a block reason.
//!
//! The default run tries a bounded number of cases from a fixed seed. The long run is an
//! ignored test, `long_run`: it generates `TOOLMINIMIZE_PROPTEST_CASES` calls (default one
//! million) from a random seed, counts every violation instead of stopping at the first, and
//! fails when a call panics or breaks an invariant other than idempotence; calls that a second
//! pass still changes are counted by the rules that changed them and listed (see the README).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::LazyLock;
use std::time::Instant;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use serde_json::{Map, Value, json};
use toolminimize_core::{Action, Call, Minimizer, ToolDef};

static MINIMIZER: LazyLock<Minimizer> = LazyLock::new(|| Minimizer::new().unwrap());

/// The default run: a bounded number of cases from a fixed seed (the same cases every run).
fn config() -> ProptestConfig {
    ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x746f_6f6c),
        failure_persistence: None,
        ..ProptestConfig::with_cases(64)
    }
}

/// Invented personal data and look-alike spellings of it.
const SEEDS: &[&str] = &[
    "Rebecca Stone",
    "r.stone@example.org",
    "+1 415 555 0182",
    "078-05-1120",
    "078\u{2010}05\u{2010}1120",
    "4716 3582 0194 7362",
    "4111.1111.1111.1111",
    "4111\u{a0}1111\u{a0}1111\u{a0}1111",
    "DE89 3704 0044 0532 0130 00",
    "12 Elm Street, Springfield",
    "born 1984-03-07",
    "type 2 diabetes",
    "the HIV clinic",
    "Rebecca%20Stone%20has%20diabetes",
    "MDc4LTA1LTExMjAgaXMgbXkgU1NO",
    "10.0.0.7",
];

const WORDS: &[&str] = &[
    "weather", "in", "Lyon", "tomorrow", "order", "shoes", "size", "42", "please", "send", "the",
    "report", "and", "call", "about", "invoice", "—", "(", ")", ",", ".", ";", "café", "über",
];

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            3 => prop::sample::select(WORDS).prop_map(str::to_owned),
            1 => prop::sample::select(SEEDS).prop_map(str::to_owned),
        ],
        0..10,
    )
    .prop_map(|w| w.join(" "))
}

/// A schema and arguments that fit it.
#[derive(Debug, Clone)]
struct Generated {
    schema: Value,
    args: Value,
}

fn leaf() -> impl Strategy<Value = Generated> {
    prop_oneof![
        text().prop_map(|s| Generated {
            schema: json!({"type": "string"}),
            args: json!(s)
        }),
        (text(), 5u64..400).prop_map(|(s, n)| Generated {
            schema: json!({"type": "string", "maxLength": n.max(s.chars().count() as u64)}),
            args: json!(s)
        }),
        prop::sample::select(vec!["standard", "express", "pickup"]).prop_map(|s| Generated {
            schema: json!({"type": "string", "enum": ["standard", "express", "pickup"]}),
            args: json!(s)
        }),
        "[a-z]{1,12}".prop_map(|s| Generated {
            schema: json!({"type": "string", "pattern": "^[a-z]+$"}),
            args: json!(s)
        }),
        prop::sample::select(vec!["r.stone@example.org", "team@example.com"]).prop_map(|s| {
            Generated {
                schema: json!({"type": "string", "format": "email"}),
                args: json!(s),
            }
        }),
        (0i64..100_000).prop_map(|n| Generated {
            schema: json!({"type": "integer"}),
            args: json!(n)
        }),
        any::<bool>().prop_map(|b| Generated {
            schema: json!({"type": "boolean"}),
            args: json!(b)
        }),
    ]
}

fn generated() -> impl Strategy<Value = Generated> {
    leaf().prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(|items| {
                // Arrays of one element schema: strings.
                let args: Vec<Value> = items
                    .iter()
                    .map(|g| match &g.args {
                        Value::String(s) => json!(s),
                        other => json!(other.to_string()),
                    })
                    .collect();
                Generated {
                    schema: json!({"type": "array", "items": {"type": "string"}}),
                    args: Value::Array(args),
                }
            }),
            prop::collection::vec((inner, any::<bool>()), 1..5).prop_map(|fields| {
                let names = ["query", "notes", "location", "email", "name", "details"];
                let mut props = Map::new();
                let mut args = Map::new();
                let mut required = Vec::new();
                for (i, (g, req)) in fields.into_iter().enumerate() {
                    let key = format!("{}_{i}", names[i % names.len()]);
                    props.insert(key.clone(), g.schema);
                    args.insert(key.clone(), g.args);
                    if req {
                        required.push(key);
                    }
                }
                Generated {
                    schema: json!({"type": "object", "properties": props, "required": required}),
                    args: Value::Object(args),
                }
            }),
        ]
    })
}

/// Calls whose arguments are an object (as tool calls are).
fn call() -> impl Strategy<Value = (ToolDef, Value)> {
    (generated(), prop::sample::select(vec!["web_search", "send_email", "get_weather", "book_table"]))
        .prop_map(|(g, name)| {
            let (schema, args) = match g.args {
                Value::Object(_) => (g.schema, g.args),
                other => (
                    json!({"type": "object", "properties": {"value": g.schema}, "required": ["value"]}),
                    json!({"value": other}),
                ),
            };
            (ToolDef::new(name, "a tool", schema), args)
        })
}

fn pointers(v: &Value, path: &mut String, out: &mut Vec<String>) {
    out.push(path.clone());
    match v {
        Value::Object(o) => {
            for (k, c) in o {
                let len = path.len();
                path.push('/');
                path.push_str(&k.replace('~', "~0").replace('/', "~1"));
                pointers(c, path, out);
                path.truncate(len);
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("/{i}"));
                pointers(c, path, out);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

/// An invariant a call broke.
#[derive(Debug)]
enum Violation {
    /// Anything but idempotence: the message says which.
    Broken(String),
    /// A second pass changed the output; the kinds and rules of what it changed.
    NotIdempotent(String),
}

/// Checks every invariant on one call.
fn check(tool: &ToolDef, args: &Value) -> Result<(), Violation> {
    let broken = |what: String| Err(Violation::Broken(what));
    let validator = jsonschema::validator_for(tool.input_schema()).unwrap();
    let valid_in = validator.is_valid(args);
    let out = MINIMIZER.minimize(tool, args);
    let report = serde_json::to_string(out.report()).unwrap();
    if out.report().cost_after() > out.report().cost_before() {
        return broken(format!("cost after above cost before: {report}"));
    }
    for seed in SEEDS {
        if report.contains(seed) {
            return broken(format!("a value in the report: {report}"));
        }
    }
    // Arguments given as JSON text (read in place, never built into values) come out as the
    // text of what the parsed arguments give, with the same report.
    let text_in = serde_json::to_string_pretty(args).unwrap();
    let from_text = MINIMIZER.minimize_json(&Call::json(tool, &text_in));
    let expected = out.arguments().map(|v| serde_json::to_string(v).unwrap());
    let got = from_text.arguments().map(ToString::to_string);
    if got != expected || from_text.report() != out.report() {
        return broken(format!(
            "the JSON text gives {got:?} where the value gives {expected:?}"
        ));
    }
    let Some(rewritten) = out.arguments() else {
        // Blocked: the reason is from a fixed vocabulary.
        let verdict = format!("{:?}", out.verdict());
        return match SEEDS.iter().find(|seed| verdict.contains(*seed)) {
            Some(_) => broken(format!("a value in the block reason: {verdict}")),
            None => Ok(()),
        };
    };
    // The output parses.
    let text = serde_json::to_string(rewritten).unwrap();
    let parsed: Value = serde_json::from_str(&text).unwrap();
    if &parsed != rewritten {
        return broken(format!("the output does not read back: {text}"));
    }
    // Valid in, valid out.
    if valid_in && !validator.is_valid(rewritten) {
        return broken(format!("invalid output {rewritten} for {args}"));
    }
    // No path that was not in the input.
    let mut paths = Vec::new();
    pointers(rewritten, &mut String::new(), &mut paths);
    if let Some(p) = paths.iter().find(|p| args.pointer(p).is_none()) {
        return broken(format!("new path {p} in {rewritten}"));
    }
    // Minimizing twice changes nothing more.
    let again = MINIMIZER.minimize(tool, rewritten);
    if again.arguments() != Some(rewritten) {
        let mut changed: Vec<String> = again
            .report()
            .items()
            .iter()
            .filter(|i| i.action() != Action::Keep)
            .map(|i| format!("{} {}", i.kind(), i.rule()))
            .collect();
        changed.sort();
        changed.dedup();
        if changed.is_empty() {
            changed.push("no item changed".to_owned());
        }
        return Err(Violation::NotIdempotent(changed.join(", ")));
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn minimizing_keeps_its_invariants((tool, args) in call()) {
        if let Err(v) = check(&tool, &args) {
            prop_assert!(false, "{v:?} on {args} for {}", tool.input_schema());
        }
    }
}

/// The long run (ignored in the default suite):
/// `TOOLMINIMIZE_PROPTEST_CASES=1000000 cargo test --release -p toolminimize-core --test
/// properties -- --ignored long_run --nocapture`.
#[test]
#[ignore = "long: run on demand, see the README"]
fn long_run() {
    let cases: u64 = std::env::var("TOOLMINIMIZE_PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let strategy = call();
    // TOOLMINIMIZE_PROPTEST_SEED=<u64> replays the same cases (to compare two builds).
    let mut config = ProptestConfig::default();
    if let Some(seed) = std::env::var("TOOLMINIMIZE_PROPTEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        config.rng_seed = proptest::test_runner::RngSeed::Fixed(seed);
    }
    let mut runner = TestRunner::new(config);
    let started = Instant::now();
    let mut broken: Vec<String> = Vec::new();
    let mut not_idempotent: BTreeMap<String, (u64, String)> = BTreeMap::new();
    let mut idempotence_failures = 0u64;
    for n in 1..=cases {
        let (tool, args) = strategy.new_tree(&mut runner).unwrap().current();
        match catch_unwind(AssertUnwindSafe(|| check(&tool, &args))) {
            Ok(Ok(())) => {}
            Ok(Err(Violation::Broken(what))) => broken.push(what),
            Ok(Err(Violation::NotIdempotent(rules))) => {
                idempotence_failures += 1;
                let entry = not_idempotent.entry(rules).or_insert_with(|| {
                    (0, format!("{} {args} {}", tool.name(), tool.input_schema()))
                });
                entry.0 += 1;
            }
            Err(_) => broken.push(format!("panicked on {args} for {}", tool.input_schema())),
        }
        if n % 100_000 == 0 {
            eprintln!(
                "{n} cases in {:.0} s: {} broken, {idempotence_failures} not idempotent",
                started.elapsed().as_secs_f64(),
                broken.len()
            );
        }
    }
    eprintln!(
        "long run: {cases} cases in {:.0} s; {} broken; {idempotence_failures} not idempotent \
         ({} families)",
        started.elapsed().as_secs_f64(),
        broken.len(),
        not_idempotent.len()
    );
    let mut families: Vec<_> = not_idempotent.into_iter().collect();
    families.sort_by_key(|f| std::cmp::Reverse(f.1.0));
    for (rules, (count, example)) in &families {
        eprintln!("  {count:>7} second pass: {rules}\n          e.g. {example}");
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// Found by a long run: a phone number right before a machine address was read as one run of
/// digits with it and missed, then found once the address was removed.
#[test]
fn a_phone_next_to_a_machine_address_is_decided_alike_twice() {
    let tool = ToolDef::new(
        "send_email",
        "a tool",
        json!({"type": "object", "properties": {"query_0": {"type": "string"},
            "notes_1": {"type": "string"}}, "required": ["query_0", "notes_1"]}),
    );
    let args = json!({"query_0": "", "notes_1": "weather +1 415 555 0182 10.0.0.7 weather"});
    let once = MINIMIZER.minimize(&tool, &args);
    let once = once.arguments().unwrap();
    let twice = MINIMIZER.minimize(&tool, once);
    assert_eq!(twice.arguments(), Some(once));
}

/// Found by the default run: two card numbers in a row were one run of digit groups to the
/// card pattern, so only the first was found; the second was removed by a second pass.
#[test]
fn two_cards_in_a_row_are_both_removed_at_once() {
    let tool = ToolDef::new(
        "web_search",
        "a tool",
        json!({"type": "object", "properties": {"value": {"type": "array",
            "items": {"type": "string"}}}, "required": ["value"]}),
    );
    let args = json!({"value": ["4716 3582 0194 7362 4556 7301 9284 6154 weather weather"]});
    let once = MINIMIZER.minimize(&tool, &args);
    assert_eq!(
        once.arguments(),
        Some(&json!({"value": ["weather weather"]}))
    );
}

#[test]
fn a_note_cut_down_to_a_kept_name_goes_at_once() {
    // The first rewrite keeps the name (it greets) and cuts the rest; read again, a note
    // holding only a name is not the booking's to have: it goes in the first pass already.
    let tool = ToolDef::new(
        "book_table",
        "a tool",
        json!({"type": "object", "properties": {"party": {"type": "integer"},
            "notes": {"type": "string"}}, "required": ["party"]}),
    );
    let args = json!({"party": 2, "notes": "Ilka Marsh — born 1979-02-11"});
    let once = MINIMIZER.minimize(&tool, &args);
    assert_eq!(once.arguments(), Some(&json!({"party": 2})));
    let twice = MINIMIZER.minimize(&tool, once.arguments().unwrap());
    assert_eq!(twice.arguments(), once.arguments());
    assert!(
        once.report()
            .items()
            .iter()
            .all(|i| i.action() != Action::Keep)
    );
}
