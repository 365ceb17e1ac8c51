//! Compiles the bundled tables once, at build time, so that a `Minimizer` loads them without
//! rebuilding anything:
//!
//! - `lexicon.daac`: the leftmost-longest Aho-Corasick automaton (daachorse, double array) over
//!   every folded lexicon term and benign phrase; `lexicon.entries`: one record per pattern
//!   (see `src/classify/lexicon/table.rs`, shared with this script);
//! - `names.fst`: folded name-list word → flags (given name, family name, ordinary word,
//!   place), an `fst` map read in place.
//!
//! A malformed lexicon line fails the build with its file and line.

#![allow(
    dead_code,
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[path = "src/text/fold.rs"]
mod fold;
#[path = "src/classify/lexicon/table.rs"]
mod table;

use daachorse::{DoubleArrayAhoCorasickBuilder, MatchKind};

/// The name lists and the flag bit each sets (see `src/classify/names/lists.rs`).
const NAME_FILES: &[(&str, u64)] = &[
    ("first.txt", 1),
    ("last.txt", 2),
    ("common_en.txt", 4),
    ("places.txt", 8),
];

fn read(path: &Path) -> String {
    println!("cargo::rerun-if-changed={}", path.display());
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn fail(e: impl std::fmt::Display) -> ! {
    panic!("{e}")
}

fn lexicon(data: &Path, out: &Path) {
    let dir = data.join("lexicon");
    let contexts = table::Contexts::parse(
        table::CONTEXTS_FILE,
        &read(&dir.join(table::CONTEXTS_FILE)),
        fold::fold_term,
    )
    .unwrap_or_else(|e| fail(e));
    let benign = read(&dir.join(table::BENIGN_FILE))
        + "\n"
        + &read(&dir.join(table::BENIGN_INFLECTIONS_FILE));
    let texts: Vec<(&str, String)> = table::FILES
        .iter()
        .map(|f| (*f, read(&dir.join(f))))
        .collect();
    let files: Vec<(&str, &str)> = texts.iter().map(|(f, t)| (*f, t.as_str())).collect();
    let (patterns, entries) =
        table::compile(&benign, &files, &contexts, fold::fold_term).unwrap_or_else(|e| fail(e));
    let automaton = DoubleArrayAhoCorasickBuilder::new()
        .match_kind(MatchKind::LeftmostLongest)
        .build_with_values(
            patterns
                .iter()
                .enumerate()
                .map(|(i, p)| (p.as_str(), u32::try_from(i).unwrap())),
        )
        .unwrap_or_else(|e| fail(format!("lexicon automaton: {e}")));
    std::fs::write(out.join("lexicon.daac"), automaton.serialize()).unwrap();
    std::fs::write(out.join("lexicon.entries"), table::encode(&entries)).unwrap();
}

fn names(data: &Path, out: &Path) {
    let dir = data.join("names");
    let mut map: BTreeMap<String, u64> = BTreeMap::new();
    for (file, flag) in NAME_FILES {
        for line in read(&dir.join(file)).lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            *map.entry(fold::fold_term(line)).or_default() |= flag;
        }
    }
    let bytes = fst::Map::from_iter(map).unwrap_or_else(|e| fail(format!("name lists: {e}")));
    std::fs::write(out.join("names.fst"), bytes.as_fst().as_bytes()).unwrap();
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/text/fold.rs");
    println!("cargo::rerun-if-changed=src/classify/lexicon/table.rs");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap());
    let data = manifest.join("data");
    println!("cargo::rerun-if-changed={}", data.join("lexicon").display());
    println!("cargo::rerun-if-changed={}", data.join("names").display());
    lexicon(&data, &out);
    names(&data, &out);
}
