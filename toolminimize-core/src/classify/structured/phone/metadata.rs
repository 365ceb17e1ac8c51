//! The phone-number metadata, loaded only as far as a number needs it.
//!
//! The `phonenumber` crate's database checks the syntax of every pattern of every region when
//! it loads (≈ 0.1–0.25 s of CPU), which a one-shot process (a hook, a CLI call) should not pay
//! for the one number it validates. `build.rs` writes the crate's metadata split by calling
//! code (`phone.meta`); [`check`] builds a small [`Database`] of only the codes a parse can
//! reach and runs the crate's own parser and validator on it. Once the full database has loaded
//! (on the warm-up thread, or after [`MAX_PARTIAL`] small ones), it is used instead.
//!
//! Why the answers are the same: the parser and validator look a number up by the default
//! region (its calling code) and by the calling code the number resolves to, which follows the
//! `+` or the region's international prefix; a calling code is found as the first 1–3 digits
//! that are a code of the database, and codes are prefix-free. A small database that holds
//! every region of every such code answers each of those look-ups as the full one does; a
//! number written with anything but ASCII digits and phone punctuation goes to the full
//! database. A test checks, code by code, that the small databases hold the same metadata in
//! the same order as the full one. Their patterns write `\d` as `[0-9]` (several times cheaper
//! to compile), which matches alike on the ASCII numbers they are given.

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, Mutex, Once};

use phonenumber::country::Id;
use phonenumber::metadata::{Database, loader};
use regex::{Regex, RegexBuilder};

/// `code<TAB>regions<TAB>JSON` lines, after one header line (see `build.rs`).
const META: &str = include_str!(concat!(env!("OUT_DIR"), "/phone.meta"));

/// Compiled patterns a database keeps (least recently used first out). The crate's default,
/// 100, is smaller than the patterns one text's candidates can cycle through (the regions of
/// +1, or four default regions tried in turn), which recompiled patterns on every check.
const REGEX_CACHE: usize = 512;

/// Small databases built before the full one is loaded instead.
const MAX_PARTIAL: usize = 4;

/// What checking a candidate found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Checked {
    /// `phonenumber::parse` failed.
    Unparsed,
    /// Parsed, but not a valid number.
    Invalid,
    /// Parsed and valid.
    Valid,
}

/// The lines of `phone.meta`, indexed.
struct Index {
    /// Calling code → the JSON of its regions' metadata.
    json: HashMap<u16, &'static str>,
    /// Region id → calling code.
    region_code: HashMap<&'static str, u16>,
}

static INDEX: LazyLock<Index> = LazyLock::new(|| {
    let mut json = HashMap::new();
    let mut region_code = HashMap::new();
    for line in META.lines().filter(|l| !l.starts_with('#')) {
        let mut cols = line.splitn(3, '\t');
        let (Some(code), Some(regions), Some(j)) = (cols.next(), cols.next(), cols.next()) else {
            continue;
        };
        let Ok(code) = code.parse::<u16>() else {
            continue;
        };
        json.insert(code, j);
        for r in regions.split(',').filter(|r| *r != "001") {
            region_code.insert(r, code);
        }
    }
    Index { json, region_code }
});

/// Whether the full database has loaded (after which it answers every check).
static FULL_READY: AtomicBool = AtomicBool::new(false);

/// The `phonenumber` crate's full database, loaded now if it is not yet.
pub(super) fn full() -> &'static Database {
    static CAPACITY: Once = Once::new();
    let db = &*phonenumber::metadata::DATABASE;
    CAPACITY.call_once(|| {
        if let Ok(mut cache) = db.cache().lock() {
            cache.set_capacity(REGEX_CACHE);
        }
        FULL_READY.store(true, Ordering::Release);
    });
    db
}

/// Small databases by their sorted calling codes.
static PARTIAL: LazyLock<Mutex<HashMap<Vec<u16>, Arc<Database>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// The database of every region of `codes` (in the full database's order), or `None` when
/// it cannot be built.
fn build(codes: &[u16]) -> Option<Database> {
    let mut raw: Vec<loader::Metadata> = Vec::new();
    for code in codes {
        let j = INDEX.json.get(code)?;
        raw.extend(serde_json::from_str::<Vec<loader::Metadata>>(j).ok()?);
    }
    let db = Database::from(raw).ok()?;
    if let Ok(mut cache) = db.cache().lock() {
        cache.set_capacity(REGEX_CACHE);
    }
    Some(db)
}

/// The calling codes that are a prefix (1–3 digits) of `digits`.
fn codes_at(digits: &[u8], out: &mut BTreeSet<u16>) {
    for len in 1..=3 {
        let Some(head) = digits.get(..len) else {
            break;
        };
        let code = head
            .iter()
            .fold(0u16, |n, d| n * 10 + u16::from(d.saturating_sub(b'0')));
        if INDEX.json.contains_key(&code) {
            out.insert(code);
        }
    }
}

/// The region's international (IDD) prefix pattern, compiled as the crate compiles it.
fn idd(region: &str, code: u16) -> Option<Regex> {
    static COMPILED: LazyLock<Mutex<HashMap<String, Option<Regex>>>> =
        LazyLock::new(|| Mutex::new(HashMap::new()));
    let mut compiled = COMPILED.lock().ok()?;
    compiled
        .entry(region.to_owned())
        .or_insert_with(|| {
            let j = INDEX.json.get(&code)?;
            let raw: Vec<loader::Metadata> = serde_json::from_str(j).ok()?;
            let pattern = raw
                .iter()
                .find(|m| m.id.as_deref() == Some(region))?
                .international_prefix
                .clone()?;
            RegexBuilder::new(&pattern)
                .ignore_whitespace(true)
                .build()
                .ok()
        })
        .clone()
}

/// The calling codes a parse of `s` with default `region` can look up, or `None` when that
/// cannot be told without the full database.
fn codes_for(region: Option<Id>, s: &str) -> Option<Vec<u16>> {
    if !s.chars().all(|c| {
        c.is_ascii_digit() || matches!(c, '+' | ' ' | '\u{a0}' | '.' | '-' | '/' | '(' | ')')
    }) {
        return None;
    }
    let digits: Vec<u8> = s.bytes().filter(u8::is_ascii_digit).collect();
    let mut codes = BTreeSet::new();
    match region {
        None => {
            // Only an international number parses without a default region.
            if !s.trim_start_matches('(').starts_with('+') || s.matches('+').count() != 1 {
                return None;
            }
            codes_at(&digits, &mut codes);
        }
        Some(id) => {
            if s.contains('+') {
                return None;
            }
            let name: &str = id.as_ref();
            let code = *INDEX.region_code.get(name)?;
            codes.insert(code);
            // A number dialled from the region with its international prefix names its code
            // after the prefix.
            let idd = idd(name, code)?;
            let text = std::str::from_utf8(&digits).ok()?;
            if let Some(m) = idd.find(text).filter(|m| m.start() == 0) {
                codes_at(digits.get(m.end()..).unwrap_or_default(), &mut codes);
            }
        }
    }
    Some(codes.into_iter().collect())
}

/// The database to check `s` with: the full one when it is loaded or `s` needs it, else a
/// small one of the codes `s` can reach.
fn database_for(region: Option<Id>, s: &str) -> Option<Arc<Database>> {
    if FULL_READY.load(Ordering::Acquire) {
        return None;
    }
    let codes = codes_for(region, s)?;
    let mut partial = PARTIAL.lock().ok()?;
    if let Some(db) = partial.get(&codes) {
        return Some(Arc::clone(db));
    }
    if partial.len() >= MAX_PARTIAL {
        return None;
    }
    let db = Arc::new(build(&codes)?);
    partial.insert(codes, Arc::clone(&db));
    Some(db)
}

fn check_with(db: &Database, region: Option<Id>, s: &str) -> Checked {
    match phonenumber::parse_with(db, region, s) {
        Ok(n) if n.is_valid_with(db) => Checked::Valid,
        Ok(_) => Checked::Invalid,
        Err(_) => Checked::Unparsed,
    }
}

/// Answers remembered per thread (see [`check`]); cleared when it holds this many.
const MEMO: usize = 4096;

/// `check`'s answers by default region and number text.
type Answers = HashMap<(Option<Id>, Box<str>), Checked>;

thread_local! {
    /// `check`'s answers on this thread, by region and number text: a text repeats a number
    /// (a signature, a contact line), and every candidate is tried against several regions.
    static ANSWERS: std::cell::RefCell<Answers> = std::cell::RefCell::new(HashMap::new());
}

/// `phonenumber::parse(region, s)` and `is_valid`, on the least metadata that gives the full
/// database's answer. The answer depends only on `region` and `s` (every database gives the
/// full one's answer), so it is remembered per thread, without a lock.
pub(super) fn check(region: Option<Id>, s: &str) -> Checked {
    let key = (region, Box::<str>::from(s));
    if let Ok(Some(hit)) = ANSWERS.try_with(|a| a.borrow().get(&key).copied()) {
        return hit;
    }
    let answer = match database_for(region, s) {
        Some(db) => check_with(&db, region, s),
        None => check_with(full(), region, s),
    };
    let _ = ANSWERS.try_with(|a| {
        let mut a = a.borrow_mut();
        if a.len() >= MEMO {
            a.clear();
        }
        a.insert(key, answer);
    });
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_s_small_database_matches_the_full_one() {
        let full = full();
        for code in 1..=999u16 {
            let Some(whole) = full.by_code(&code) else {
                assert!(!INDEX.json.contains_key(&code), "code {code}");
                continue;
            };
            let small = build(&[code]).unwrap_or_else(|| panic!("code {code} builds"));
            let small_list = small.by_code(&code).unwrap();
            // The small databases' patterns write `\d` as `[0-9]` (see `build.rs`).
            assert_eq!(
                format!("{whole:?}").replace(r"\\d", "[0-9]"),
                format!("{small_list:?}"),
                "metadata of code {code}"
            );
            assert_eq!(full.region(&code), small.region(&code), "regions of {code}");
        }
    }

    #[test]
    fn small_databases_answer_as_the_full_one() {
        let cases: &[(Option<Id>, &str)] = &[
            (None, "+44 20 7946 0958"),
            (None, "+1 212 555 0142"),
            (None, "+1 555 010 0123"),
            (None, "+33 1 23 45 67 89"),
            (None, "+49 30 901820"),
            (None, "+7 495 123 4567"),
            (None, "+999 1234 5678"),
            (None, "+(44) 20 7946 0958"),
            (Some(Id::GB), "020 7946 0958"),
            (Some(Id::GB), "0033 1 23 45 67 89"),
            (Some(Id::GB), "00 1 212 555 0142"),
            (Some(Id::DE), "030 901820"),
            (Some(Id::FR), "06 12 34 56 78"),
            (Some(Id::IT), "06 6988 4321"),
            (Some(Id::US), "(212) 555-0142"),
            (Some(Id::US), "011 44 20 7946 0958"),
            (Some(Id::ES), "612 345 678"),
            (Some(Id::US), "1-800-555-0199"),
        ];
        for (region, s) in cases {
            let db = build(&codes_for(*region, s).unwrap()).unwrap();
            assert_eq!(
                check_with(&db, *region, s),
                check_with(full(), *region, s),
                "{region:?} {s}"
            );
        }
    }

    #[test]
    fn codes_follow_the_plus_or_the_international_prefix() {
        assert_eq!(codes_for(None, "+44 20 7946 0958"), Some(vec![44]));
        assert_eq!(codes_for(None, "+1 212 555 0142"), Some(vec![1]));
        assert_eq!(codes_for(Some(Id::GB), "020 7946 0958"), Some(vec![44]));
        assert_eq!(
            codes_for(Some(Id::GB), "0033 1 23 45 67 89"),
            Some(vec![33, 44])
        );
        assert_eq!(
            codes_for(Some(Id::US), "011 49 30 901820"),
            Some(vec![1, 49])
        );
        assert_eq!(codes_for(None, "+٤٤ 20 7946 0958"), None);
    }
}
