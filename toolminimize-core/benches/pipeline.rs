//! Time of `Minimizer::minimize_call` on the bundled example calls (`examples/calls.jsonl`),
//! against the floor any classifier pays.
//!
//! - `minimize_call/per_call` minimizes one call per iteration, cycling through the examples,
//!   so its estimate is the time per call over that mix; `minimize_call/all_examples`
//!   minimizes the whole file per iteration and reports calls per second.
//! - `floor/bare_pass` is the floor: parse each call's JSON line and run one leftmost-longest,
//!   ASCII-case-insensitive automaton over ~66,000 terms (the lexicon terms and the given
//!   names) plus a `RegexSet` of ten identifier shapes over every string, doing nothing with
//!   what they find.
//! - Before the criterion runs, every call is timed alone over many passes and the median,
//!   90th and 99th percentiles per call are printed (criterion reports means of batches).
//!
//! Set `TOOLMINIMIZE_BENCH_CALLS=<file.jsonl>` to time the calls of another JSONL file (the
//! CLI's input format) as well; the file is read at bench time only.
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
use std::time::Instant;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use regex::RegexSet;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::Value;
use toolminimize_core::{Call, Exposure, Minimizer, Session, ToolDef};

/// The allocator the `toolminimize` command ships with (its `mimalloc` feature), so that the
/// figures are those of the command.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/calls.jsonl");

/// One example call, owned.
struct Example {
    tool: ToolDef,
    arguments: Value,
    exposure: Option<Exposure>,
    task_context: Option<String>,
    session: Option<String>,
}

fn load(path: &str) -> Vec<Example> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
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

/// The floor's automaton: every lexicon term and every given name, as written.
fn floor_automaton() -> AhoCorasick {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
    let mut terms: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(format!("{dir}/lexicon")).expect("lexicon dir") {
        let path = entry.expect("dir entry").path();
        if path.extension().is_some_and(|e| e == "tsv") {
            let text = std::fs::read_to_string(&path).expect("lexicon file");
            terms.extend(
                text.lines()
                    .filter(|l| !l.starts_with('#'))
                    .filter_map(|l| l.split('\t').next())
                    .filter(|t| !t.trim().is_empty())
                    .map(str::to_owned),
            );
        }
    }
    let names = std::fs::read_to_string(format!("{dir}/names/first.txt")).expect("names");
    terms.extend(
        names
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(str::to_owned),
    );
    terms.sort();
    terms.dedup();
    eprintln!("floor automaton: {} terms", terms.len());
    AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::LeftmostLongest)
        .build(&terms)
        .expect("floor automaton builds")
}

fn floor_set() -> RegexSet {
    RegexSet::new([
        r"[\w.+-]+@[\w-]+\.[\w.]+",
        r"\+?\d[\d \-().]{6,}\d",
        r"(?-u:\b)\d{3}-\d{2}-\d{4}(?-u:\b)",
        r"(?-u:\b)(?:\d[ -]?){13,19}(?-u:\b)",
        r"(?-u:\b)[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}(?-u:\b)",
        r"(?-u:\b)\d{1,3}(?:\.\d{1,3}){3}(?-u:\b)",
        r"https?://\S+",
        r"(?-u:\b)\d{1,2}[./-]\d{1,2}[./-]\d{2,4}(?-u:\b)",
        r"-?\d{1,3}\.\d{4,}",
        r"(?-u:\b)\d{1,5}\s+\w+\s+(?:Street|St|Avenue|Ave|Road|Rd)(?-u:\b)",
    ])
    .expect("floor set builds")
}

/// Counts the automaton's and the set's matches in every string of `v`.
fn floor_walk(v: &Value, ac: &AhoCorasick, set: &RegexSet) -> usize {
    match v {
        Value::String(s) => ac.find_iter(s).count() + set.matches(s).iter().count(),
        Value::Array(a) => a.iter().map(|x| floor_walk(x, ac, set)).sum(),
        Value::Object(o) => o.values().map(|x| floor_walk(x, ac, set)).sum(),
        _ => 0,
    }
}

/// Times each call alone over `passes` passes and prints the median, p90 and p99.
fn distribution(label: &str, minimizer: &Minimizer, calls: &[Call<'_>], passes: usize) {
    let mut times: Vec<f64> = Vec::with_capacity(calls.len() * passes);
    for _ in 0..passes {
        for call in calls {
            let t = Instant::now();
            black_box(minimizer.minimize_call(black_box(call)));
            times.push(t.elapsed().as_secs_f64() * 1e6);
        }
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| {
        times
            .get(((times.len() as f64 - 1.0) * q) as usize)
            .copied()
    };
    eprintln!(
        "{label}: {} calls timed alone: median {:.1} µs, p90 {:.1} µs, p99 {:.1} µs, max {:.1} µs",
        times.len(),
        at(0.5).unwrap_or_default(),
        at(0.9).unwrap_or_default(),
        at(0.99).unwrap_or_default(),
        at(1.0).unwrap_or_default(),
    );
}

fn calls_of<'a>(examples: &'a [Example], sessions: &'a HashMap<&str, Session>) -> Vec<Call<'a>> {
    examples
        .iter()
        .map(|e| {
            let mut call = Call::new(&e.tool, &e.arguments);
            if let Some(x) = e.exposure {
                call = call.exposure(x);
            }
            if let Some(t) = e.task_context.as_deref() {
                call = call.task_context(t);
            }
            if let Some(s) = e.session.as_deref().and_then(|s| sessions.get(s)) {
                call = call.session(s);
            }
            call
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let examples = load(EXAMPLES);
    let minimizer = Minimizer::new().expect("the default minimizer builds");
    let sessions: HashMap<&str, Session> = examples
        .iter()
        .filter_map(|e| e.session.as_deref())
        .map(|s| (s, Session::new(s)))
        .collect();
    let calls = calls_of(&examples, &sessions);
    // Warm: the first call of a process compiles what the warm-up has not reached yet.
    for call in &calls {
        black_box(minimizer.minimize_call(call));
    }
    distribution("examples/calls.jsonl", &minimizer, &calls, 200);
    let extra = std::env::var("TOOLMINIMIZE_BENCH_CALLS").ok();
    if let Some(path) = &extra {
        let more = load(path);
        let more_sessions: HashMap<&str, Session> = more
            .iter()
            .filter_map(|e| e.session.as_deref())
            .map(|s| (s, Session::new(s)))
            .collect();
        let more_calls = calls_of(&more, &more_sessions);
        for call in &more_calls {
            black_box(minimizer.minimize_call(call));
        }
        distribution("TOOLMINIMIZE_BENCH_CALLS", &minimizer, &more_calls, 20);
    }

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

    let lines: Vec<String> = std::fs::read_to_string(EXAMPLES)
        .expect("examples")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect();
    let ac = floor_automaton();
    let set = floor_set();
    let mut group = c.benchmark_group("floor");
    group.throughput(Throughput::Elements(1));
    let mut next = lines.iter().cycle();
    group.bench_function("bare_pass", |b| {
        b.iter(|| {
            let line = next.next().expect("cycling a non-empty list never ends");
            let v: Value = serde_json::from_str(black_box(line)).expect("example lines are JSON");
            black_box(floor_walk(&v, &ac, &set))
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
