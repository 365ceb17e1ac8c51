//! False positives: benign tool calls carry no personal data and must come back untouched.
//!
//! `fixtures/benign_calls.jsonl` holds product and code searches, weather in cities named after
//! saints and people, flights between airports, maths, file paths, git operations, SQL, UUIDs,
//! timestamps, prices, order and tracking numbers and versions, in English, German, French,
//! Spanish and Italian, and look-alikes of lexicon terms in the other languages the lexicons
//! cover (see `fixtures/README.md`). At most 2 % of them may get any PSD item
//! reported, and at least 98 % must keep their arguments exactly.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::collections::BTreeMap;

use serde_json::Value;
use toolminimize_core::{Call, Exposure, Minimizer, ToolDef};

const FIXTURE: &str = include_str!("fixtures/benign_calls.jsonl");
/// The largest share of benign calls that may get any PSD item reported or be changed.
const MAX_RATE: f64 = 0.02;

struct Benign {
    id: String,
    lang: String,
    tool: ToolDef,
    arguments: Value,
    exposure: Option<Exposure>,
}

fn fixture() -> Vec<Benign> {
    FIXTURE
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            Benign {
                id: v["id"].as_str().unwrap().to_owned(),
                lang: v["lang"].as_str().unwrap().to_owned(),
                tool: ToolDef::from_json(&v["tool"]).unwrap(),
                arguments: v["arguments"].clone(),
                exposure: v["exposure"].as_str().map(|e| e.parse().unwrap()),
            }
        })
        .collect()
}

fn minimize_all() -> Vec<(Benign, toolminimize_core::Outcome)> {
    let minimizer = Minimizer::new().unwrap();
    fixture()
        .into_iter()
        .map(|b| {
            let mut call = Call::new(&b.tool, &b.arguments);
            call.exposure = b.exposure;
            let outcome = minimizer.minimize_call(&call);
            (b, outcome)
        })
        .collect()
}

#[allow(clippy::cast_precision_loss)] // a few hundred calls
fn rate(part: usize, whole: usize) -> f64 {
    part as f64 / whole as f64
}

/// Per language: (calls, flagged).
fn by_language<'a>(
    rows: impl Iterator<Item = (&'a str, bool)>,
) -> BTreeMap<&'a str, (usize, usize)> {
    let mut m: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (lang, flagged) in rows {
        let e = m.entry(lang).or_default();
        e.0 += 1;
        e.1 += usize::from(flagged);
    }
    m
}

#[test]
fn the_fixture_is_large_multilingual_and_valid_against_its_schemas() {
    let calls = fixture();
    assert!(calls.len() >= 300, "{} calls", calls.len());
    let langs = by_language(calls.iter().map(|b| (b.lang.as_str(), false)));
    for lang in ["en", "de", "fr", "es"] {
        assert!(
            langs.get(lang).is_some_and(|(n, _)| *n >= 15),
            "too few {lang} calls: {langs:?}"
        );
    }
    let mut ids = std::collections::HashSet::new();
    for b in &calls {
        assert!(ids.insert(b.id.clone()), "duplicate id {}", b.id);
        let validator = jsonschema::validator_for(b.tool.input_schema()).unwrap();
        assert!(
            validator.is_valid(&b.arguments),
            "{} does not validate against its schema",
            b.id
        );
    }
}

#[test]
fn at_most_two_percent_of_benign_calls_get_any_psd_reported() {
    let results = minimize_all();
    let flagged: Vec<String> = results
        .iter()
        .filter(|(_, o)| !o.report().items().is_empty())
        .map(|(b, o)| {
            let items: Vec<String> = o
                .report()
                .items()
                .iter()
                .map(|i| {
                    format!(
                        "{} {}/{} ({})",
                        i.path(),
                        i.category(),
                        i.kind(),
                        i.detector()
                    )
                })
                .collect();
            format!("{} [{}]: {}", b.id, b.lang, items.join(", "))
        })
        .collect();
    let langs = by_language(
        results
            .iter()
            .map(|(b, o)| (b.lang.as_str(), !o.report().items().is_empty())),
    );
    let r = rate(flagged.len(), results.len());
    eprintln!(
        "benign calls with PSD reported: {}/{} = {:.2}% by language {langs:?}",
        flagged.len(),
        results.len(),
        r * 100.0
    );
    assert!(
        r <= MAX_RATE,
        "{:.2}% of benign calls flagged:\n{}",
        r * 100.0,
        flagged.join("\n")
    );
}

#[test]
fn at_least_ninety_eight_percent_of_benign_calls_come_back_unchanged() {
    let results = minimize_all();
    let changed: Vec<String> = results
        .iter()
        .filter(|(b, o)| o.arguments() != Some(&b.arguments))
        .map(|(b, o)| {
            let actions: Vec<String> = o
                .report()
                .items()
                .iter()
                .map(|i| format!("{} {:?} ({})", i.path(), i.action(), i.rule()))
                .collect();
            let blocked = if o.is_blocked() { " blocked" } else { "" };
            format!("{} [{}]{blocked}: {}", b.id, b.lang, actions.join(", "))
        })
        .collect();
    let r = rate(changed.len(), results.len());
    eprintln!(
        "benign calls changed: {}/{} = {:.2}%",
        changed.len(),
        results.len(),
        r * 100.0
    );
    assert!(
        r <= MAX_RATE,
        "{:.2}% of benign calls changed:\n{}",
        r * 100.0,
        changed.join("\n")
    );
}

/// Drug brands and disease names that are everyday words of another language the lexicons
/// read (Romanian "Stimate", Norwegian "tretten", Polish "Cholera", …) are not lexicon terms:
/// the `lookalike-brand-*` calls get nothing reported.
#[test]
fn brands_that_are_everyday_words_elsewhere_get_nothing_reported() {
    let results = minimize_all();
    let brands: Vec<_> = results
        .iter()
        .filter(|(b, _)| b.id.starts_with("lookalike-brand-"))
        .collect();
    assert!(brands.len() >= 6, "{} lookalike-brand calls", brands.len());
    for (b, o) in brands {
        let items: Vec<String> = o
            .report()
            .items()
            .iter()
            .map(|i| format!("{} {:?} ({})", i.path(), i.kind(), i.detector()))
            .collect();
        assert!(
            items.is_empty(),
            "{} [{}]: {}",
            b.id,
            b.lang,
            items.join(", ")
        );
        assert_eq!(o.arguments(), Some(&b.arguments), "{} changed", b.id);
    }
}
