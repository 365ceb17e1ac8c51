//! Throughput of the person-name detector and of the encoded-content rescan.

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use toolminimize_core::__bench::{encoded, names};
use toolminimize_core::Field;

const PROSE: &str = "Hi Dana,\nplease move the review with Kwame Mensah to Thursday. Dr. Okafor \
    asked whether the patient Greta Lindgren can join from Stockholm; her daughter Chloé will \
    drive. Weather in San Francisco looks fine, flights via St. Louis are cheaper.\n\
    Best,\nEthan Brooks (ethan.brooks@example.org)";

const ENCODED: &str = "https://example.org/cb?state=cT1qYW5lJTQwZ21haWwuY29t&name=Greta%20Lindgren\
    &ref=3f786850e387550fdab836ed7e6dc881de23001b reach me at jane dot doe at gmail dot com \
    or 1 2 3 - 4 5 - 6 7 8 9";

fn bench(c: &mut Criterion) {
    let detectors = names::detectors().unwrap();
    let field = Field::default();
    c.bench_function("names/prose_400B", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            for d in &detectors {
                d.detect(black_box(PROSE), &field, &mut out);
            }
            out
        });
    });
    let long = PROSE.repeat(64);
    c.bench_function("names/prose_25KB", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            for d in &detectors {
                d.detect(black_box(&long), &field, &mut out);
            }
            out
        });
    });
    c.bench_function("encoded/scan_hidden_url", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            let _ = encoded::scan_hidden(black_box(ENCODED), &field, &detectors, &mut out);
            out
        });
    });
    c.bench_function("encoded/scan_hidden_plain_prose", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            let _ = encoded::scan_hidden(black_box(PROSE), &field, &detectors, &mut out);
            out
        });
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
