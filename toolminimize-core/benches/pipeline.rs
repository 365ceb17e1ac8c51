//! Time of `Minimizer::minimize_call` on the bundled example calls (`examples/calls.jsonl`).
//!
//! `minimize_call/per_call` minimizes one call per iteration, cycling through the examples, so
//! its estimate is the time per call over that mix; `minimize_call/all_examples` minimizes the
//! whole file per iteration and reports calls per second.
//!
//! ```text
//! cargo bench -p toolminimize-core --bench pipeline            # full run
//! cargo bench -p toolminimize-core --bench pipeline -- --quick # a quick estimate
//! ```
#![allow(
    missing_docs,
    reason = "criterion's macros generate undocumented items"
)]
#![allow(
    clippy::expect_used,
    clippy::panic,
    reason = "a bench aborts on unreadable input"
)]

use std::collections::HashMap;
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::Value;
use toolminimize_core::{Call, Exposure, Minimizer, Session, ToolDef};

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/calls.jsonl");

/// One example call, owned.
struct Example {
    tool: ToolDef,
    arguments: Value,
    exposure: Option<Exposure>,
    task_context: Option<String>,
    session: Option<String>,
}

fn load() -> Vec<Example> {
    let text =
        std::fs::read_to_string(EXAMPLES).unwrap_or_else(|e| panic!("cannot read {EXAMPLES}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("example lines are JSON");
            let text = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
            Example {
                tool: ToolDef::from_json(v.get("tool").expect("example lines have a tool"))
                    .expect("valid tool"),
                arguments: v
                    .get("arguments")
                    .cloned()
                    .expect("example lines have arguments"),
                exposure: text("exposure").and_then(|e| e.parse().ok()),
                task_context: text("task_context"),
                session: text("session"),
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let examples = load();
    let minimizer = Minimizer::new().expect("the default minimizer builds");
    let sessions: HashMap<&str, Session> = examples
        .iter()
        .filter_map(|e| e.session.as_deref())
        .map(|s| (s, Session::new(s)))
        .collect();
    let calls: Vec<Call<'_>> = examples
        .iter()
        .map(|e| Call {
            tool: &e.tool,
            arguments: &e.arguments,
            exposure: e.exposure,
            task_context: e.task_context.as_deref(),
            session: e.session.as_deref().and_then(|s| sessions.get(s)),
        })
        .collect();

    let mut group = c.benchmark_group("minimize_call");
    group.throughput(Throughput::Elements(1));
    let mut next = calls.iter().cycle();
    group.bench_function("per_call", |b| {
        b.iter(|| {
            let call = next.next().expect("cycling a non-empty list never ends");
            black_box(minimizer.minimize_call(black_box(call)))
        });
    });
    group.throughput(Throughput::Elements(calls.len() as u64));
    group.bench_function("all_examples", |b| {
        b.iter(|| {
            for call in &calls {
                black_box(minimizer.minimize_call(black_box(call)));
            }
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
