//! Classifier throughput on a large free-text argument, and the cost of building a
//! `Minimizer`.
//!
//! - `classify/multilingual_100k`: every detector (structured, lexicons, names, encoded
//!   rescans, overlap resolution) over one 100 KB string of English, German, French and
//!   Spanish prose with personal data scattered through it; criterion reports MB/s.
//! - `build/first_in_process`: `Minimizer::new()` as a fresh process sees it (tables loaded
//!   from the binary, warm-up threads started); each iteration starts this bench's own
//!   executable in a child mode that builds one minimizer and reports the time it took.
//! - `build/first_in_process_and_ready`: the same, plus the time until every detector and the
//!   phone metadata are compiled (what a process pays in CPU before all calls are at full speed).
//! - `build/minimizer`: `Minimizer::new()` in a process that has built one before: it shares
//!   the tables and compiled detectors.
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

use std::process::Command;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group};
use toolminimize_core::__bench::Classifier;
use toolminimize_core::__bench::Lexicon;
use toolminimize_core::Field;
use toolminimize_core::{Minimizer, Policy};

/// The allocator the `toolminimize` command ships with (its `mimalloc` feature), so that the
/// figures are those of the command.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

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

/// Child mode: build one minimizer (then, with `ready`, wait for the warm-up too) and print
/// the nanoseconds it took.
const CHILD: &str = "TOOLMINIMIZE_BENCH_CHILD";

/// Starts this executable in child mode; the time the child reports.
fn first_in_process(mode: &str) -> Duration {
    let exe = std::env::current_exe().expect("bench executable");
    let out = Command::new(exe)
        .env(CHILD, mode)
        .output()
        .expect("child runs");
    let ns: u64 = String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .expect("child prints nanoseconds");
    Duration::from_nanos(ns)
}

fn child(mode: &str) {
    let t = Instant::now();
    let minimizer = Minimizer::new().expect("the default minimizer builds");
    if mode == "ready" {
        minimizer
            .wait_until_ready()
            .expect("every detector compiles");
    }
    println!("{}", t.elapsed().as_nanos());
}

fn bench(c: &mut Criterion) {
    // Build figures, printed once (criterion measures the same below).
    let t = Instant::now();
    let lexicon = Lexicon::build().expect("the lexicon builds");
    let lex_time = t.elapsed();
    eprintln!(
        "lexicon automaton: {} terms, {:.1} MiB, loaded in {lex_time:?}",
        lexicon.len(),
        lexicon.memory_usage() as f64 / (1024.0 * 1024.0)
    );
    let minimizer = Minimizer::new().expect("the default minimizer builds");
    minimizer
        .wait_until_ready()
        .expect("every detector compiles");

    let classifier = Classifier::build(&Policy::default(), Vec::new()).expect("classifier builds");
    drop(minimizer);
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
    group.sample_size(20);
    group.bench_function("first_in_process", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| first_in_process("new")).sum())
    });
    group.bench_function("first_in_process_and_ready", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| first_in_process("ready")).sum())
    });
    group.bench_function("minimizer", |b| {
        b.iter(|| black_box(Minimizer::new().map(|m| format!("{m:?}").len())))
    });
    group.finish();
}

criterion_group!(benches, bench);

fn main() {
    if let Ok(mode) = std::env::var(CHILD) {
        child(&mode);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
