//! Parsing of the embedded lexicon files.
//!
//! Each non-empty line that does not start with `#` is
//! `term<TAB>kind<TAB>confidence[<TAB>flags]`, where
//! - `kind` is one of `condition`, `medication`, `facility`, `belief`, `sexuality`, `ethnic`,
//!   `criminal`, `distress`, `money`, `family`, `gender`, `age`, `occupation`, `preference`,
//!   `biometric`, or `role:<category id>` (a role implying data of that category);
//! - `confidence` is a number in `0.0 ..= 1.0`;
//! - `flags` is a comma-separated list of
//!   `case` (the upper-case letters of the term must be upper case in the text: acronyms that
//!   are also common words), `ctx=<set>` (only when a word of that context set is near),
//!   `name` (extend the span over the capitalised name around it: "St. Mary's Hospital"),
//!   `amount` (extend the span over an amount right after it: "owe $41,000"),
//!   `needamount` (as `amount`, and only report when the amount is there),
//!   `pre` (the term may start a longer word: German compounds such as "Krebszentrum"),
//!   `post` (the term may end a longer word: "Suchtklinik").
//!
//! Context sets come from `contexts.tsv`: `set<TAB>word word …`, one or more lines a set.

use std::collections::HashMap;

use crate::error::{Error, ErrorKind};
use crate::item::PsdKind;
use crate::taxonomy::Category;

/// Span handling and conditions attached to a lexicon entry.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Flags {
    pub case: bool,
    pub name: bool,
    pub amount: bool,
    pub need_amount: bool,
    pub prefix: bool,
    pub suffix: bool,
    /// Index into the context sets.
    pub context: Option<u16>,
}

/// One term's meaning.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    pub kind: PsdKind,
    pub category: Category,
    pub confidence: f32,
    pub flags: Flags,
    /// The term as written, kept only for `case` entries.
    pub cased: Option<Box<str>>,
}

/// One parsed line: the term (unfolded) and its entry.
pub(super) struct Line<'a> {
    pub term: &'a str,
    pub entry: Entry,
}

fn build_error(file: &str, line: usize, what: &str) -> Error {
    Error::new(
        ErrorKind::Build,
        format!("lexicon {file}, line {line}: {what}"),
    )
}

fn parse_kind(s: &str) -> Option<(PsdKind, Category)> {
    let kind = match s {
        "condition" => PsdKind::Condition,
        "medication" => PsdKind::Medication,
        "facility" => PsdKind::HealthFacility,
        "belief" => PsdKind::Belief,
        "sexuality" => PsdKind::Sexuality,
        "ethnic" => PsdKind::EthnicOrigin,
        "criminal" => PsdKind::CriminalRecord,
        "distress" => PsdKind::FinancialDistress,
        "money" => PsdKind::MoneyAmount,
        "family" => PsdKind::Family,
        "gender" => PsdKind::Gender,
        "age" => PsdKind::Age,
        "occupation" => PsdKind::Occupation,
        "preference" => PsdKind::Preference,
        "biometric" => PsdKind::Biometric,
        other => {
            let category = other.strip_prefix("role:")?.parse::<Category>().ok()?;
            return Some((PsdKind::ImpliedByRole, category));
        }
    };
    Some((kind, kind.category()))
}

/// Context sets by name, and the folded words of each.
#[derive(Debug, Default)]
pub(super) struct Contexts {
    pub names: HashMap<String, u16>,
    pub words: Vec<std::collections::HashSet<Box<str>>>,
}

impl Contexts {
    pub(super) fn parse(file: &str, text: &str) -> Result<Self, Error> {
        let mut out = Contexts::default();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (name, words) = line
                .split_once('\t')
                .ok_or_else(|| build_error(file, n + 1, "expected `set<TAB>words`"))?;
            let next = u16::try_from(out.words.len())
                .map_err(|_| build_error(file, n + 1, "too many context sets"))?;
            let idx = *out.names.entry(name.trim().to_owned()).or_insert(next);
            if usize::from(idx) == out.words.len() {
                out.words.push(std::collections::HashSet::new());
            }
            if let Some(set) = out.words.get_mut(usize::from(idx)) {
                for w in words.split_whitespace() {
                    set.insert(crate::text::fold::fold_term(w).into_boxed_str());
                }
            }
        }
        Ok(out)
    }
}

/// Parses one lexicon file.
pub(super) fn parse<'a>(
    file: &str,
    text: &'a str,
    contexts: &Contexts,
) -> Result<Vec<Line<'a>>, Error> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() || raw.starts_with('#') {
            continue;
        }
        let mut cols = raw.split('\t');
        let term = cols.next().map(str::trim).unwrap_or_default();
        let kind = cols.next().map(str::trim).unwrap_or_default();
        let conf = cols.next().map(str::trim).unwrap_or_default();
        let flags = cols.next().map(str::trim).unwrap_or_default();
        if term.is_empty() {
            return Err(build_error(file, n + 1, "empty term"));
        }
        let (kind, category) =
            parse_kind(kind).ok_or_else(|| build_error(file, n + 1, "unknown kind"))?;
        let confidence: f32 = conf
            .parse()
            .ok()
            .filter(|c: &f32| (0.0..=1.0).contains(c))
            .ok_or_else(|| build_error(file, n + 1, "confidence must be 0.0 ..= 1.0"))?;
        let mut f = Flags::default();
        for flag in flags.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match flag {
                "case" => f.case = true,
                "name" => f.name = true,
                "amount" => f.amount = true,
                "needamount" => {
                    f.amount = true;
                    f.need_amount = true;
                }
                "pre" => f.prefix = true,
                "post" => f.suffix = true,
                other => {
                    let set = other
                        .strip_prefix("ctx=")
                        .and_then(|s| contexts.names.get(s))
                        .ok_or_else(|| build_error(file, n + 1, "unknown flag or context set"))?;
                    f.context = Some(*set);
                }
            }
        }
        out.push(Line {
            term,
            entry: Entry {
                kind,
                category,
                confidence,
                flags: f,
                cased: f.case.then(|| term.into()),
            },
        });
    }
    Ok(out)
}

/// The terms of a plain list: one a line, `#` comments and blank lines skipped.
pub(super) fn terms(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}
