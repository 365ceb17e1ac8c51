//! Classifier throughput on a large free-text argument, and the cost of building a
//! `Minimizer`.
//!
//! - `classify/multilingual_100k`: every detector (structured, lexicons, names, encoded
//!   rescans, overlap resolution) over one 100 KB string of English, German, French and
//!   Spanish prose with personal data scattered through it; criterion reports MB/s.
//! - `build/minimizer`: `Minimizer::new()` (all patterns and automata), once per iteration.
//!   The first build in a process also indexes the name lists, which later builds share.
//!
//! ```text
//! cargo bench -p toolminimize-core --bench classify
//! ```
#![allow(
    missing_docs,
    reason = "criterion's macros generate undocumented items"
)]
#![allow(
    clippy::expect_used,
    reason = "a bench aborts when the minimizer cannot build"
)]

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use toolminimize_core::classify::lexicon::Lexicon;
use toolminimize_core::classify::{Classifier, Field};
use toolminimize_core::{Minimizer, Policy};

/// Paragraphs in four languages: ordinary prose, some with personal data of every family.
const PARAGRAPHS: &[&str] = &[
    "The quarterly report covers shipping delays in the northern warehouses, the new returns \
     policy and the migration of the billing service to the new cluster. Please review the \
     attached figures before Thursday's meeting and add your comments to section four.",
    "Hi Dana, I'll be late on Monday because I have chemo at the oncology centre on Elm Street; \
     my husband Mark Stone will drop the keys off. You can reach him on +44 20 7946 0958 or at \
     mark.stone@example.co.uk if anything comes up.",
    "Der Lieferant bestätigt die Bestellung von zwölf Paletten für die Filiale in Köln. Die \
     Rechnung folgt mit der nächsten Lieferung; bitte die Bestellnummer ORD-2024-00017 angeben \
     und die Ware bei Eingang prüfen.",
    "Frau Keller ist Gewerkschaftsmitglied bei ver.di und war nach ihrer Depression drei Wochen \
     in der Reha-Klinik; ihre IBAN lautet DE89 3704 0044 0532 0130 00 und sie wohnt in der \
     Lindenstraße 12, 50674 Köln.",
    "Le comité a validé le budget du projet pour l'an prochain. Les équipes de Lyon et de \
     Bordeaux se réuniront le mardi 14 à dix heures pour répartir les tâches et fixer le \
     calendrier des livraisons.",
    "Mme Dubois, née le 14/03/1962, suit un traitement pour le VIH à l'Hôpital Saint-Louis; \
     son numéro de sécurité sociale est 2 62 03 75 115 043 21 et elle fréquente la mosquée \
     de son quartier le vendredi.",
    "El equipo de ventas presentará los resultados del trimestre el jueves por la mañana. \
     Necesitamos las cifras de marzo y abril antes del miércoles para preparar la \
     presentación y revisar los objetivos del año.",
    "Sr. García, de 52 años, tiene antecedentes penales por un delito de tráfico y está en \
     libertad condicional; su abogado de oficio pidió que se le contacte en el 612 345 678 o \
     por correo a j.garcia@correo.es.",
];

/// About `size` bytes of text, cycling through the paragraphs.
fn corpus(size: usize) -> String {
    let mut text = String::with_capacity(size + 1024);
    for (i, p) in PARAGRAPHS.iter().cycle().enumerate() {
        if text.len() >= size {
            break;
        }
        text.push_str(p);
        text.push_str(if i % 3 == 2 { "\n\n" } else { " " });
    }
    text
}

fn bench(c: &mut Criterion) {
    // Build figures, printed once (criterion measures the same below).
    let t = Instant::now();
    let minimizer = Minimizer::new().expect("the default minimizer builds");
    let first = t.elapsed();
    let t = Instant::now();
    let lexicon = Lexicon::build().expect("the lexicon builds");
    let lex_time = t.elapsed();
    eprintln!(
        "first Minimizer::new(): {first:?}; lexicon automaton: {} terms, {:.1} MiB, built in {lex_time:?}",
        lexicon.len(),
        lexicon.memory_usage() as f64 / (1024.0 * 1024.0)
    );
    drop(minimizer);

    let classifier = Classifier::build(&Policy::default(), Vec::new()).expect("classifier builds");
    let text = corpus(100 * 1024);
    let field = Field::default();
    let mut group = c.benchmark_group("classify");
    group.sample_size(20);
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("multilingual_100k", |b| {
        b.iter(|| black_box(classifier.scan_text(black_box(&text), &field).len()))
    });
    group.finish();

    let mut group = c.benchmark_group("build");
    group.sample_size(10);
    group.bench_function("minimizer", |b| {
        b.iter(|| black_box(Minimizer::new().map(|m| format!("{m:?}").len())))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
