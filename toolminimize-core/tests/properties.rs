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
//! The default run tries a bounded number of cases; `TOOLMINIMIZE_PROPTEST_CASES=1000000`
//! runs a long one (see the README).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::sync::LazyLock;

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use toolminimize_core::{Minimizer, ToolDef};

static MINIMIZER: LazyLock<Minimizer> = LazyLock::new(|| Minimizer::new().unwrap());

/// The default run: a bounded number of cases from a fixed seed (the same cases every run);
/// `TOOLMINIMIZE_PROPTEST_CASES=N` runs N cases from a random seed.
fn config() -> ProptestConfig {
    match std::env::var("TOOLMINIMIZE_PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        Some(n) => ProptestConfig::with_cases(n),
        None => ProptestConfig {
            rng_seed: proptest::test_runner::RngSeed::Fixed(0x746f_6f6c),
            failure_persistence: None,
            ..ProptestConfig::with_cases(64)
        },
    }
}

/// Invented personal data and look-alike spellings of it.
const SEEDS: &[&str] = &[
    "Rebecca Stone",
    "r.stone@example.org",
    "+1 415 555 0182",
    "078-05-1120",
    "078\u{2010}05\u{2010}1120",
    "4111 1111 1111 1111",
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

proptest! {
    #![proptest_config(config())]

    #[test]
    fn minimizing_keeps_its_invariants((tool, args) in call()) {
        let validator = jsonschema::validator_for(tool.input_schema()).unwrap();
        let valid_in = validator.is_valid(&args);
        let out = MINIMIZER.minimize(&tool, &args);
        let report = serde_json::to_string(out.report()).unwrap();
        let verdict = format!("{:?}", out.verdict());
        prop_assert!(out.report().cost_after() <= out.report().cost_before());
        for seed in SEEDS {
            prop_assert!(!report.contains(seed), "a value in the report: {report}");
        }
        let Some(rewritten) = out.arguments() else {
            // Blocked: the reason is from a fixed vocabulary.
            for seed in SEEDS {
                prop_assert!(!verdict.contains(seed));
            }
            return Ok(());
        };
        // The output parses.
        let text = serde_json::to_string(rewritten).unwrap();
        let parsed: Value = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(&parsed, rewritten);
        // Valid in, valid out.
        if valid_in {
            prop_assert!(validator.is_valid(rewritten), "invalid output {rewritten} for {args}");
        }
        // No path that was not in the input.
        let mut paths = Vec::new();
        pointers(rewritten, &mut String::new(), &mut paths);
        for p in &paths {
            prop_assert!(args.pointer(p).is_some(), "new path {p} in {rewritten}");
        }
        // Minimizing twice changes nothing more.
        let again = MINIMIZER.minimize(&tool, rewritten);
        prop_assert_eq!(again.arguments(), Some(rewritten), "not idempotent on {}", args);
    }
}

/// Found by the long run: a phone number next to a machine address in an e-mail's optional
/// text is kept the first time and removed the second (the decision reads the neighbour that
/// the first pass removed). Left to the decision stage, which is being reworked.
#[test]
#[ignore = "known: the decision stage is not yet idempotent here"]
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
