//! The tables compiled by the build script are the ones the sources give, and the
//! double-array automaton matches exactly as a leftmost-longest `aho-corasick` automaton over
//! the same patterns.

use aho_corasick::{AhoCorasickBuilder, MatchKind};

use super::*;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/lexicon");

fn sources() -> (Vec<String>, Vec<Option<table::Raw<'static>>>) {
    let read = |f: &str| -> &'static str {
        let text = std::fs::read_to_string(format!("{DIR}/{f}")).expect("lexicon file");
        Box::leak(text.into_boxed_str())
    };
    let contexts = Contexts::parse(table::CONTEXTS_FILE, CONTEXTS, fold_term).unwrap();
    let files: Vec<(&str, &'static str)> = table::FILES.iter().map(|f| (*f, read(f))).collect();
    let benign = format!(
        "{}\n{}",
        read(table::BENIGN_FILE),
        read(table::BENIGN_INFLECTIONS_FILE)
    );
    let benign: &'static str = Box::leak(benign.into_boxed_str());
    table::compile(benign, &files, &contexts, fold_term).unwrap()
}

#[test]
fn compiled_tables_match_the_sources() {
    let (patterns, entries) = sources();
    assert_eq!(table::decode(ENTRIES).unwrap(), entries);
    let lex = Lexicon::build().unwrap();
    assert_eq!(lex.len(), patterns.len());
    assert!(lex.tables.automaton.num_states() > patterns.len());
}

#[test]
fn matches_equal_a_leftmost_longest_aho_corasick() {
    let (patterns, _) = sources();
    let ac = AhoCorasickBuilder::new()
        .match_kind(MatchKind::LeftmostLongest)
        .build(&patterns)
        .unwrap();
    let lex = Lexicon::build().unwrap();
    let fixture = include_str!("../../../tests/fixtures/benign_calls.jsonl");
    let mut texts: Vec<String> = fixture.lines().map(str::to_owned).collect();
    // Every pattern inside a little context, and overlapping pairs of patterns.
    for (i, p) in patterns.iter().enumerate().step_by(7) {
        let next = patterns.get(i + 1).map_or("", String::as_str);
        texts.push(format!("x{p} {p}{next} ({p}) {next}{p}s"));
    }
    for t in &texts {
        let folded = fold(t);
        let s = folded.as_str();
        let want: Vec<(usize, usize, usize)> = ac
            .find_iter(s)
            .map(|m| (m.start(), m.end(), m.pattern().as_usize()))
            .collect();
        let got: Vec<(usize, usize, usize)> = lex
            .tables
            .automaton
            .leftmost_find_iter(s)
            .map(|m| (m.start(), m.end(), m.value() as usize))
            .collect();
        assert_eq!(got, want, "{t}");
    }
}
