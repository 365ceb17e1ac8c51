//! Throughput of the structured detectors over realistic tool-call strings.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use toolminimize_core::__bench::structured;
use toolminimize_core::Field;

const TEXTS: &[(&str, &str)] = &[
    (
        "query",
        "wind forecast tomorrow near the hospital at 10201 Carnegie Ave Cleveland OH, call +1 216-444-2200 after my 9:30 session",
    ),
    (
        "email_body",
        "Hi Anna, please wire the deposit to DE89 3704 0044 0532 0130 00 and send the receipt to anna.koch@example.de. My card ending 4242 was declined.",
    ),
    (
        "plain",
        "Book a table for 4 people on Friday at 19:30 somewhere quiet with vegetarian options, budget around 40 euros per person.",
    ),
    ("short", "Paris"),
];

fn bench(c: &mut Criterion) {
    let Ok(detectors) = structured::detectors() else {
        return;
    };
    let field = Field::default();
    let mut group = c.benchmark_group("structured");
    for (name, text) in TEXTS {
        group.bench_function(*name, |b| {
            let mut out = Vec::with_capacity(16);
            b.iter(|| {
                out.clear();
                for d in &detectors {
                    d.detect(black_box(text), &field, &mut out);
                }
                black_box(out.len())
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
