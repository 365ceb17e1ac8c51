//! Compiles the bundled tables once, at build time, so that a `Minimizer` loads them without
//! rebuilding anything:
//!
//! - `lexicon.daac`: the leftmost-longest Aho-Corasick automaton (daachorse, double array) over
//!   every folded lexicon term and benign phrase; `lexicon.entries`: one record per pattern
//!   (see `src/classify/lexicon/table.rs`, shared with this script);
//! - `names.fst`: folded name-list word → flags (given name, family name, ordinary word,
//!   place), an `fst` map read in place.
//!
//! - `phone.meta`: the `phonenumber` crate's metadata, one line per country calling code
//!   (`code<TAB>its regions, comma-separated<TAB>JSON of their raw metadata`), so that a process can build a database of the
//!   few codes a number needs instead of checking every pattern of every region (see
//!   `src/classify/structured/phone/metadata.rs`).
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

/// The raw metadata of one region, read back from the `phonenumber` crate's loaded database
/// through its public accessors (the crate keeps its raw tables private).
fn raw_region(m: &phonenumber::Metadata) -> phonenumber::metadata::loader::Metadata {
    use phonenumber::metadata::{Descriptor, Format, loader};
    let desc = |d: &Descriptor| loader::Descriptor {
        national_number: Some(d.national_number().as_str().to_owned()),
        possible_length: d.possible_length().to_vec(),
        possible_local_length: d.possible_local_length().to_vec(),
        example: d.example().map(str::to_owned),
    };
    let format = |f: &Format| loader::Format {
        pattern: Some(f.pattern().as_str().to_owned()),
        format: Some(f.format().to_owned()),
        leading_digits: f
            .leading_digits()
            .iter()
            .map(|r| r.as_str().to_owned())
            .collect(),
        national_prefix_formatting_rule: f.national_prefix().map(str::to_owned),
        national_prefix_optional_when_formatting: f.is_national_prefix_optional(),
        domestic_carrier: f.domestic_carrier().map(str::to_owned),
    };
    let d = m.descriptors();
    loader::Metadata {
        general: Some(desc(d.general())),
        fixed_line: d.fixed_line().map(desc),
        mobile: d.mobile().map(desc),
        toll_free: d.toll_free().map(desc),
        premium_rate: d.premium_rate().map(desc),
        shared_cost: d.shared_cost().map(desc),
        personal_number: d.personal_number().map(desc),
        voip: d.voip().map(desc),
        pager: d.pager().map(desc),
        uan: d.uan().map(desc),
        emergency: d.emergency().map(desc),
        voicemail: d.voicemail().map(desc),
        short_code: d.short_code().map(desc),
        standard_rate: d.standard_rate().map(desc),
        carrier: d.carrier().map(desc),
        no_international: d.no_international().map(desc),
        id: Some(m.id().to_owned()),
        country_code: Some(m.country_code()),
        international_prefix: m.international_prefix().map(|r| r.as_str().to_owned()),
        preferred_international_prefix: m.preferred_international_prefix().map(str::to_owned),
        national_prefix: m.national_prefix().map(str::to_owned),
        preferred_extension_prefix: m.preferred_extension_prefix().map(str::to_owned),
        national_prefix_for_parsing: m
            .national_prefix_for_parsing()
            .map(|r| r.as_str().to_owned()),
        national_prefix_transform_rule: m.national_prefix_transform_rule().map(str::to_owned),
        formats: m.formats().iter().map(format).collect(),
        international_formats: m.international_formats().iter().map(format).collect(),
        main_country_for_code: m.is_main_country_for_code(),
        leading_digits: m.leading_digits().map(|r| r.as_str().to_owned()),
        mobile_number_portable: m.is_mobile_number_portable(),
        ..Default::default()
    }
}

/// Writes `phone.meta`: per calling code, its regions' raw metadata in the database's order.
/// Loading the crate's database checks every pattern (a few seconds in a build script), so
/// the file is written once per build-script output directory.
///
/// The patterns' `\d` is written `[0-9]`: the small databases built from this file only ever
/// see numbers written in ASCII digits and phone punctuation (anything else goes to the crate's
/// full database), on which the two match alike, and a Unicode `\d` costs several times more
/// to compile.
fn phone(out: &Path) {
    const HEADER: &str =
        "# phonenumber metadata by calling code (\\d as [0-9]): code, regions, raw metadata\n";
    let path = out.join("phone.meta");
    if std::fs::read_to_string(&path).is_ok_and(|t| t.starts_with(HEADER)) {
        return;
    }
    let db = &*phonenumber::metadata::DATABASE;
    let mut text = String::from(HEADER);
    for code in 1..=999u16 {
        let Some(regions) = db.by_code(&code) else {
            continue;
        };
        let ids: Vec<&str> = regions.iter().map(|m| m.id()).collect();
        let raw: Vec<_> = regions.into_iter().map(raw_region).collect();
        text.push_str(&code.to_string());
        text.push('\t');
        text.push_str(&ids.join(","));
        text.push('\t');
        let json = serde_json::to_string(&raw).unwrap();
        // `\d` in a pattern is `\\d` in JSON; no pattern holds an escaped backslash.
        assert!(
            !json.contains(r"\\\\"),
            "a phone pattern holds an escaped backslash"
        );
        text.push_str(&json.replace(r"\\d", "[0-9]"));
        text.push('\n');
    }
    let tmp = out.join("phone.meta.tmp");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, &path).unwrap();
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
    phone(&out);
}
