//! Big arguments through the whole pipeline: a 1,000,000-element array, an object of 100,000
//! keys and one 60 MB string (prose with invented personal data every few hundred bytes).
//! Each must take well under the default time budget; `README.md` has the figures and the
//! memory measured through the command line.
//!
//! ```text
//! cargo bench -p toolminimize-core --bench big_inputs
//! ```
#![allow(
    missing_docs,
    reason = "criterion's macros generate undocumented items"
)]
#![allow(
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a bench aborts when the minimizer cannot build; indices are in range"
)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Map, Value, json};
use toolminimize_core::{Minimizer, ToolDef};

fn tool() -> ToolDef {
    ToolDef::new(
        "search_items",
        "Search the catalogue",
        json!({"type": "object", "properties": {
            "query": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "extra": {"type": "object"},
            "notes": {"type": "string"}},
          "required": ["query", "tags", "extra", "notes"]}),
    )
}

const WORDS: &[&str] = &[
    "the", "quick", "parcel", "ships", "tomorrow", "with", "invoice", "garden", "window", "order",
];

fn big_array() -> Value {
    let tags: Vec<Value> = (0..1_000_000)
        .map(|i| json!(format!("{} {i}", WORDS[i % WORDS.len()])))
        .collect();
    json!({"query": "shoes", "tags": tags, "extra": {}, "notes": ""})
}

fn many_keys() -> Value {
    let mut extra = Map::new();
    for i in 0..100_000 {
        extra.insert(
            format!("key_{i}"),
            json!(format!("{} value {i}", WORDS[i % WORDS.len()])),
        );
    }
    json!({"query": "shoes", "tags": [], "extra": extra, "notes": ""})
}

fn long_string() -> Value {
    let sentence = "the parcel ships tomorrow with the invoice and the garden window order. ";
    let pii = "Call Rebecca Stone on +1 415 555 0182 about the order. ";
    let mut notes = String::with_capacity(60_000_100);
    let mut i = 0usize;
    while notes.len() < 60_000_000 {
        notes.push_str(if i % 8 == 7 { pii } else { sentence });
        i += 1;
    }
    json!({"query": "shoes", "tags": [], "extra": {}, "notes": notes})
}

fn bench(c: &mut Criterion) {
    let m = Minimizer::builder()
        .time_budget(None)
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let tool = tool();
    let mut group = c.benchmark_group("big_inputs");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(30))
        .warm_up_time(Duration::from_secs(1));
    for (name, args) in [
        ("array_1M_elements", big_array()),
        ("object_100k_keys", many_keys()),
        ("string_60MB", long_string()),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| black_box(m.minimize(&tool, black_box(&args))).is_blocked())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
