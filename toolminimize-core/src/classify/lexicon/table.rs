//! The lexicon source format, and the compact tables the build script makes from it.
//!
//! This module is shared with the crate's build script (`build.rs` includes it by path), so it
//! depends on nothing but `std`: kinds stay strings here and become
//! [`PsdKind`](crate::item::PsdKind)s when the tables are loaded.
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
//!   `needname` (as `name`, and only report when a capitalised name follows the term:
//!   "originally from Lagos", not "moved from staging"),
//!   `amount` (extend the span over an amount right after it: "owe $41,000"),
//!   `needamount` (as `amount`, and only report when the amount is there),
//!   `num` (extend the span over a number or score right after it: "eGFR 38", "INR 3.4",
//!   "PHQ-9 of 19"), `neednum` (as `num`, and only report when the number is there),
//!   `pre` (the term may start a longer word: German compounds such as "Krebszentrum"),
//!   `post` (the term may end a longer word: "Suchtklinik").
//!
//! Context sets come from `contexts.tsv`: `set<TAB>word word …`, one or more lines a set.
//!
//! The build script folds every term, keeps the first of each folded term (benign phrases
//! first, then the files in priority order), builds the automaton over the folded terms and
//! writes one [`Raw`] record per pattern with [`encode`]; [`decode`] reads them back.

#![cfg_attr(
    not(test),
    allow(dead_code, reason = "the writing half is used by the build script")
)]

use std::collections::{HashMap, HashSet};
use std::fmt;

/// A malformed line of a lexicon file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableError {
    /// The file.
    pub file: String,
    /// The line, from 1 (0 for the compiled tables).
    pub line: usize,
    /// What is wrong.
    pub what: &'static str,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "lexicon {}, line {}: {}",
            self.file, self.line, self.what
        )
    }
}

fn error(file: &str, line: usize, what: &'static str) -> TableError {
    TableError {
        file: file.to_owned(),
        line,
        what,
    }
}

/// Span handling and conditions attached to a lexicon entry.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Flags {
    pub case: bool,
    pub name: bool,
    pub need_name: bool,
    pub amount: bool,
    pub need_amount: bool,
    pub number: bool,
    pub need_number: bool,
    pub prefix: bool,
    pub suffix: bool,
    /// A stem derived from a term ending in a vowel (`depresj` of `depresja`): it only
    /// matches followed by an inflection ending (`depresji`, `depresją`), never alone.
    pub stem: bool,
    /// Index into the context sets.
    pub context: Option<u16>,
}

impl Flags {
    fn bits(self) -> u16 {
        u16::from(self.case)
            | u16::from(self.name) << 1
            | u16::from(self.amount) << 2
            | u16::from(self.need_amount) << 3
            | u16::from(self.prefix) << 4
            | u16::from(self.suffix) << 5
            | u16::from(self.need_name) << 6
            | u16::from(self.number) << 7
            | u16::from(self.need_number) << 8
            | u16::from(self.stem) << 9
    }

    fn from_bits(bits: u16, context: Option<u16>) -> Self {
        Flags {
            case: bits & 1 != 0,
            name: bits & 2 != 0,
            amount: bits & 4 != 0,
            need_amount: bits & 8 != 0,
            prefix: bits & 16 != 0,
            suffix: bits & 32 != 0,
            need_name: bits & 64 != 0,
            number: bits & 128 != 0,
            need_number: bits & 256 != 0,
            stem: bits & 512 != 0,
            context,
        }
    }
}

/// One parsed line: the term (unfolded), its kind as written, confidence and flags.
#[derive(Debug, Clone, PartialEq)]
pub struct Line<'a> {
    pub term: &'a str,
    pub kind: &'a str,
    pub confidence: f32,
    pub flags: Flags,
}

/// The lexicon files under `data/lexicon/`, in priority order: when two files hold the same
/// folded term, the earlier one wins.
pub const FILES: &[&str] = &[
    "roles.tsv",
    "health.tsv",
    "hospitals.tsv",
    "beliefs.tsv",
    "parties.tsv",
    "sexual_life.tsv",
    "ethnicity.tsv",
    "criminal.tsv",
    "financial.tsv",
    "demographic.tsv",
    "institutions.tsv",
    "health_intl.tsv",
    "health_common.tsv",
    "labs_devices.tsv",
    "legal_intl.tsv",
    "indirect.tsv",
    "socioeconomic.tsv",
    "lang_ja.tsv",
    "lang_pt.tsv",
    "lang_nl.tsv",
    "lang_it.tsv",
    "lang_nordic.tsv",
    "lang_slavic.tsv",
    "lang_tr.tsv",
    "lang_defres.tsv",
    "lang_labs.tsv",
    "lang_ru_uk.tsv",
    "lang_el.tsv",
    "lang_zh_ko.tsv",
    "lang_ar_he.tsv",
    "lang_fi_hu.tsv",
    "lang_ro_ca.tsv",
    "lang_id_vi.tsv",
    "lang_hr_sk.tsv",
    "lang_hi.tsv",
    "lang_th.tsv",
    "lang_baltic.tsv",
    "lang_bg_sl.tsv",
    "lang_fa_bn_ms.tsv",
    "lang_families.tsv",
    "procedures.tsv",
    "demonyms.tsv",
    "conditions.tsv",
    "conditions_cm.tsv",
    "medications.tsv",
];

/// Everyday phrases that contain a lexicon term but are not PSD ("tennis court", "visa card"):
/// being longer, they shadow the term.
pub const BENIGN_FILE: &str = "benign.txt";

/// Words that look like a term with an inflection ending but are words of their own
/// ("heroine", "severe"), generated by `build/inflection_exceptions.py`: benign as well.
pub const BENIGN_INFLECTIONS_FILE: &str = "benign_inflections.txt";

/// Context sets.
pub const CONTEXTS_FILE: &str = "contexts.tsv";

/// The kinds a line may name (besides `role:<category>`).
pub const KINDS: &[&str] = &[
    "condition",
    "medication",
    "facility",
    "belief",
    "sexuality",
    "ethnic",
    "criminal",
    "distress",
    "money",
    "family",
    "gender",
    "age",
    "occupation",
    "preference",
    "biometric",
];

/// Context sets by name, and the folded words of each.
#[derive(Debug, Default)]
pub struct Contexts {
    pub names: HashMap<String, u16>,
    pub words: Vec<HashSet<Box<str>>>,
}

impl Contexts {
    /// Parses `contexts.tsv`, folding each word with `fold`.
    pub fn parse(file: &str, text: &str, fold: fn(&str) -> String) -> Result<Self, TableError> {
        let mut out = Contexts::default();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (name, words) = line
                .split_once('\t')
                .ok_or_else(|| error(file, n + 1, "expected `set<TAB>words`"))?;
            let next = u16::try_from(out.words.len())
                .map_err(|_| error(file, n + 1, "too many context sets"))?;
            let idx = *out.names.entry(name.trim().to_owned()).or_insert(next);
            if usize::from(idx) == out.words.len() {
                out.words.push(HashSet::new());
            }
            if let Some(set) = out.words.get_mut(usize::from(idx)) {
                for w in words.split_whitespace() {
                    set.insert(fold(w).into_boxed_str());
                }
            }
        }
        Ok(out)
    }
}

/// Parses one lexicon file.
pub fn parse<'a>(
    file: &str,
    text: &'a str,
    contexts: &Contexts,
) -> Result<Vec<Line<'a>>, TableError> {
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
            return Err(error(file, n + 1, "empty term"));
        }
        if !KINDS.contains(&kind) && !kind.starts_with("role:") {
            return Err(error(file, n + 1, "unknown kind"));
        }
        let confidence: f32 = conf
            .parse()
            .ok()
            .filter(|c: &f32| (0.0..=1.0).contains(c))
            .ok_or_else(|| error(file, n + 1, "confidence must be 0.0 ..= 1.0"))?;
        let mut f = Flags::default();
        for flag in flags.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match flag {
                "case" => f.case = true,
                "name" => f.name = true,
                "needname" => {
                    f.name = true;
                    f.need_name = true;
                }
                "amount" => f.amount = true,
                "needamount" => {
                    f.amount = true;
                    f.need_amount = true;
                }
                "num" => f.number = true,
                "neednum" => {
                    f.number = true;
                    f.need_number = true;
                }
                "pre" => f.prefix = true,
                "post" => f.suffix = true,
                other => {
                    let set = other
                        .strip_prefix("ctx=")
                        .and_then(|s| contexts.names.get(s))
                        .ok_or_else(|| error(file, n + 1, "unknown flag or context set"))?;
                    f.context = Some(*set);
                }
            }
        }
        out.push(Line {
            term,
            kind,
            confidence,
            flags: f,
        });
    }
    Ok(out)
}

/// Kinds whose terms get an inflection stem: words that decline (conditions, beliefs, legal
/// and money words), not brand or drug names, origin words or roles.
const STEMMED_KINDS: &[&str] = &["condition", "belief", "sexuality", "criminal", "distress"];

/// The stem of a folded term whose last word ends in a vowel and has at least seven letters
/// (`depresja` → `depresj`, `schizophrenia` → `schizophreni`), for the kinds that decline.
pub fn stem_of(folded: &str, raw: &Raw<'_>) -> Option<String> {
    if raw.flags.case || raw.flags.prefix || raw.flags.context.is_some() {
        return None;
    }
    if !STEMMED_KINDS.contains(&raw.kind) {
        return None;
    }
    let last = folded.rsplit(' ').next()?;
    if last.chars().count() < 7 || !last.chars().all(|c| c.is_alphabetic()) {
        return None;
    }
    let end = folded.chars().next_back()?;
    if !matches!(end, 'a' | 'e' | 'i' | 'o' | 'u' | 'y') {
        return None;
    }
    Some(folded.get(..folded.len() - end.len_utf8())?.to_owned())
}

/// Inflection endings a term may carry in the languages the lexicons cover (folded): plural
/// and case endings of the Germanic, Romance and Slavic languages, English `-s`/`-ed`/`-ic`.
/// A term of at least five letters matches with one of them attached (`bipolära`, `depresji`,
/// `diagnoses`, `Muslimer`); a stem only matches with one. Sorted (binary search).
pub const ENDINGS: &[&str] = &[
    "a", "aa", "ach", "ama", "ami", "ane", "ar", "as", "d", "e", "ed", "ego", "ej", "em", "emu",
    "en", "ene", "ens", "er", "ern", "ers", "es", "et", "ets", "i", "ia", "ic", "ich", "ics", "ie",
    "iej", "iem", "ii", "ima", "is", "iu", "m", "n", "na", "ne", "no", "ny", "o", "om", "or", "os",
    "ou", "ove", "ovi", "ow", "r", "s", "u", "us", "y", "ym", "ymi",
];

/// The terms of a plain list: one a line, `#` comments and blank lines skipped.
pub fn terms(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// One pattern's meaning as stored in the compiled tables: `None` for a benign phrase.
#[derive(Debug, Clone, PartialEq)]
pub struct Raw<'a> {
    /// The kind as written (`condition`, `role:health`).
    pub kind: &'a str,
    pub confidence: f32,
    pub flags: Flags,
    /// The term as written, kept only for `case` entries.
    pub cased: Option<&'a str>,
}

/// Bytes of one fixed-size record: kind index (u16, `u16::MAX` for a benign phrase), flag bits
/// (u8), unused (u8), context set (u16, `u16::MAX` for none), unused (u16), confidence (f32),
/// cased term index (u32, `u32::MAX` for none).
const RECORD: usize = 16;
const MAGIC: &[u8; 8] = b"TMLEX002";

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

/// Writes the records of `entries`, one per pattern id, into a byte table.
pub fn encode(entries: &[Option<Raw<'_>>]) -> Vec<u8> {
    let mut kinds: Vec<&str> = Vec::new();
    let mut cased: Vec<&str> = Vec::new();
    let mut records = Vec::with_capacity(entries.len() * RECORD);
    for e in entries {
        let Some(e) = e else {
            records.extend_from_slice(&u16::MAX.to_le_bytes());
            records.extend_from_slice(&[0; RECORD - 2]);
            continue;
        };
        let kind = match kinds.iter().position(|k| *k == e.kind) {
            Some(i) => i,
            None => {
                kinds.push(e.kind);
                kinds.len() - 1
            }
        };
        let cased_idx = match e.cased {
            Some(c) => {
                cased.push(c);
                (cased.len() - 1) as u32
            }
            None => u32::MAX,
        };
        records.extend_from_slice(&(kind as u16).to_le_bytes());
        records.extend_from_slice(&e.flags.bits().to_le_bytes());
        records.extend_from_slice(&e.flags.context.unwrap_or(u16::MAX).to_le_bytes());
        records.extend_from_slice(&0u16.to_le_bytes());
        records.extend_from_slice(&e.confidence.to_le_bytes());
        records.extend_from_slice(&cased_idx.to_le_bytes());
    }
    let mut out = MAGIC.to_vec();
    for list in [&kinds, &cased] {
        out.extend_from_slice(&(list.len() as u32).to_le_bytes());
        for s in list.iter() {
            put_str(&mut out, s);
        }
    }
    out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    out.extend_from_slice(&records);
    out
}

/// A reader over a byte table.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = self.bytes.split_at_checked(n)?;
        self.bytes = rest;
        Some(head)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn str(&mut self) -> Option<&'a str> {
        let len = usize::try_from(self.u32()?).ok()?;
        std::str::from_utf8(self.take(len)?).ok()
    }

    fn strings(&mut self) -> Option<Vec<&'a str>> {
        let n = self.u32()?;
        (0..n).map(|_| self.str()).collect()
    }
}

fn decode_record<'a>(r: &[u8], kinds: &[&'a str], cased: &[&'a str]) -> Option<Option<Raw<'a>>> {
    let u16_at = |i: usize| Some(u16::from_le_bytes(r.get(i..i + 2)?.try_into().ok()?));
    let kind = u16_at(0)?;
    if kind == u16::MAX {
        return Some(None);
    }
    let bits = u16_at(2)?;
    let context = u16_at(4)?;
    let confidence = f32::from_le_bytes(r.get(8..12)?.try_into().ok()?);
    let cased_idx = u32::from_le_bytes(r.get(12..16)?.try_into().ok()?);
    let cased = if cased_idx == u32::MAX {
        None
    } else {
        Some(*cased.get(usize::try_from(cased_idx).ok()?)?)
    };
    Some(Some(Raw {
        kind: kinds.get(usize::from(kind))?,
        confidence,
        flags: Flags::from_bits(bits, (context != u16::MAX).then_some(context)),
        cased,
    }))
}

/// Reads the records written by [`encode`], one per pattern id; `None` when the table is
/// malformed.
pub fn decode(bytes: &[u8]) -> Option<Vec<Option<Raw<'_>>>> {
    let mut r = Reader { bytes };
    if r.take(MAGIC.len())? != MAGIC {
        return None;
    }
    let kinds = r.strings()?;
    let cased = r.strings()?;
    let n = usize::try_from(r.u32()?).ok()?;
    if r.bytes.len() != n.checked_mul(RECORD)? {
        return None;
    }
    r.bytes
        .chunks_exact(RECORD)
        .map(|rec| decode_record(rec, &kinds, &cased))
        .collect()
}

/// The patterns of the automaton (folded terms, first of each kept) and their records, from
/// the benign list and the lexicon files in priority order.
pub fn compile<'a>(
    benign: &'a str,
    files: &[(&str, &'a str)],
    contexts: &Contexts,
    fold: fn(&str) -> String,
) -> Result<(Vec<String>, Vec<Option<Raw<'a>>>), TableError> {
    let mut patterns: Vec<String> = Vec::new();
    let mut entries: Vec<Option<Raw<'a>>> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut add = |term: &str, entry: Option<Raw<'a>>| {
        let folded = fold(term);
        if folded.is_empty() {
            return;
        }
        if let Some(&i) = seen.get(&folded) {
            // The same term of the same kind listed again without `case` ("COPD" cased in
            // one table, "copd" in another): it matches in any casing.
            if let (Some(Some(first)), Some(again)) = (entries.get_mut(i), entry.as_ref())
                && first.flags.case
                && !again.flags.case
                && first.kind == again.kind
            {
                first.flags.case = false;
                first.cased = None;
            }
            return;
        }
        seen.insert(folded.clone(), patterns.len());
        patterns.push(folded);
        entries.push(entry);
    };
    for term in terms(benign) {
        add(term, None);
    }
    let mut stems: Vec<(String, Raw<'a>)> = Vec::new();
    for (file, text) in files {
        for line in parse(file, text, contexts)? {
            let raw = Raw {
                kind: line.kind,
                confidence: line.confidence,
                flags: line.flags,
                cased: line.flags.case.then_some(line.term),
            };
            if let Some(stem) = stem_of(&fold(line.term), &raw) {
                stems.push((stem, raw.clone()));
            }
            add(line.term, Some(raw));
        }
    }
    // Stems come last so that a full term always wins over a stem spelled the same.
    for (stem, mut raw) in stems {
        raw.flags.stem = true;
        if !seen.contains_key(&stem) {
            seen.insert(stem.clone(), patterns.len());
            patterns.push(stem);
            entries.push(Some(raw));
        }
    }
    Ok((patterns, entries))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_are_sorted_for_binary_search() {
        assert!(ENDINGS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn stems_only_for_declining_kinds_and_long_words() {
        let raw = |kind| Raw {
            kind,
            confidence: 0.9,
            flags: Flags::default(),
            cased: None,
        };
        assert_eq!(
            stem_of("depresja", &raw("condition")).as_deref(),
            Some("depresj")
        );
        assert_eq!(
            stem_of("ciezka depresja", &raw("condition")).as_deref(),
            Some("ciezka depresj")
        );
        assert_eq!(stem_of("allegra", &raw("medication")), None);
        assert_eq!(stem_of("asthma", &raw("condition")), None);
        assert_eq!(stem_of("diabetes", &raw("condition")), None);
    }

    #[test]
    fn records_round_trip() {
        let entries = vec![
            None,
            Some(Raw {
                kind: "condition",
                confidence: 0.85,
                flags: Flags {
                    case: true,
                    suffix: true,
                    context: Some(3),
                    ..Flags::default()
                },
                cased: Some("AIDS"),
            }),
            Some(Raw {
                kind: "role:health",
                confidence: 0.5,
                flags: Flags::default(),
                cased: None,
            }),
        ];
        let bytes = encode(&entries);
        assert_eq!(decode(&bytes), Some(entries));
        assert_eq!(decode(bytes.get(..bytes.len() - 1).unwrap()), None);
        assert_eq!(decode(b"nonsense"), None);
    }

    #[test]
    fn malformed_lines_name_file_and_line() {
        let ctx = Contexts::default();
        let err = parse("x.tsv", "# c\nchemo\tcondition\t2.0\n", &ctx).unwrap_err();
        assert_eq!(
            err.to_string(),
            "lexicon x.tsv, line 2: confidence must be 0.0 ..= 1.0"
        );
        assert!(parse("x.tsv", "chemo\tnothing\t0.5\n", &ctx).is_err());
        assert!(parse("x.tsv", "chemo\tcondition\t0.5\tctx=none\n", &ctx).is_err());
    }
}
