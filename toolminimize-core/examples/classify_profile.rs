//! Profiling driver for the classifier: every detector over the 100 KB multilingual text of
//! `benches/classify.rs`, repeated, for `valgrind --tool=callgrind` (instruction counts).
//!
//! ```text
//! cargo build --release -p toolminimize-core --example classify_profile
//! valgrind --tool=callgrind --collect-atstart=no \
//!   --toggle-collect='*classify_profile::measured*' target/release/examples/classify_profile 2
//! ```
//!
//! With a JSONL file of calls (the CLI's input format) as a second argument, it minimizes every
//! call of the file instead (with no time budget), once to warm up and then `N` times measured:
//! instructions a call are the measured total over `N` × the number of calls.
#![allow(
    clippy::expect_used,
    clippy::panic,
    reason = "a profiling driver aborts when the classifier cannot build"
)]
#![allow(
    clippy::print_stdout,
    reason = "the driver prints the number of items found"
)]

use std::collections::HashMap;
use std::hint::black_box;

use serde_json::Value;

use toolminimize_core::__bench::Classifier;
use toolminimize_core::{Call, Exposure, Field, Minimizer, Policy, Session, ToolDef};

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

fn main() {
    let reps: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1);
    // No time budget: a large call under valgrind would otherwise stop at the budget and
    // measure only part of its work.
    let minimizer = Minimizer::builder()
        .policy(Policy::default().with_time_budget(None))
        .build()
        .expect("the default minimizer builds");
    minimizer
        .wait_until_ready()
        .expect("every detector compiles");
    if let Some(path) = std::env::args().nth(2) {
        let examples = load(&path);
        let sessions: HashMap<&str, Session> = examples
            .iter()
            .filter_map(|e| e.session.as_deref())
            .map(|s| (s, Session::new(s)))
            .collect();
        let calls = calls_of(&examples, &sessions);
        for call in &calls {
            black_box(minimizer.minimize_call(call));
        }
        measured_calls(&minimizer, &calls, reps);
        println!("{}", calls.len());
        return;
    }
    let classifier = Classifier::build(&Policy::default(), Vec::new()).expect("classifier builds");
    // `CORPUS_KB=16` scans 16 KB instead: the count grows linearly with the size.
    let kb: usize = std::env::var("CORPUS_KB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let text = corpus(kb * 1024);
    let field = Field::default();
    // One scan first: lazily compiled patterns and caches are built before the measured ones.
    let mut n = classifier.scan_text(&text, &field).len();
    n += measured(&classifier, &text, &field, reps);
    println!("{n}");
}

/// The measured scans: `--collect-atstart=no --toggle-collect='*classify_profile::measured*'`
/// counts only these.
#[inline(never)]
fn measured(classifier: &Classifier, text: &str, field: &Field, reps: usize) -> usize {
    let mut n = 0;
    for _ in 0..reps {
        n += black_box(classifier.scan_text(black_box(text), field).len());
    }
    n
}

/// The measured calls (see [`measured`]).
#[inline(never)]
fn measured_calls(minimizer: &Minimizer, calls: &[Call<'_>], reps: usize) {
    for _ in 0..reps {
        for call in calls {
            black_box(minimizer.minimize_call(black_box(call)));
        }
    }
}
