//! Build time of the lexicon automaton and matching throughput over realistic tool-call
//! strings (about 200 bytes each, and a short one).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use toolminimize_core::__bench::lexicon::{self, Lexicon};
use toolminimize_core::Field;

const TEXTS: &[(&str, &str)] = &[
    (
        "health_en",
        "Book a ride to my chemo at Memorial Sloan Kettering on Thursday, then pick up my sertraline refill and drop me at the AA meeting on 5th Ave by 7pm please.",
    ),
    (
        "beliefs_de",
        "Erinnerung: Gewerkschaftsmitglied bei ver.di seit 2010, Termin beim Betriebsrat am Montag, danach Freitagsgebet in der Moschee in der Lindenstraße um 13 Uhr.",
    ),
    (
        "benign_fr",
        "Réserver une table pour quatre personnes vendredi soir à Lyon, quelque chose de calme avec des options végétariennes, budget autour de quarante euros par personne.",
    ),
    ("short", "Paris"),
];

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("lexicon");
    group.sample_size(10);
    group.bench_function("build", |b| {
        b.iter(|| black_box(Lexicon::build().map(|l| l.len())))
    });
    group.finish();

    let Ok(detectors) = lexicon::detectors() else {
        return;
    };
    let field = Field::default();
    let mut group = c.benchmark_group("lexicon_detect");
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
