//! What every match of a pattern needs from the text, derived from the pattern itself, and the
//! facts of a text that answer it without a search.
//!
//! A regex search has a fixed cost (taking a cache, starting the lazy DFA) of several hundred
//! instructions, and a detector runs several of them on every string, most on short values that
//! cannot match ("quick 123" holds no date, no street, no card). [`Need::with_anchor`] reads a
//! pattern's syntax tree once (when the warm-up compiles it, or after a few searches) and derives
//! necessary conditions: the shortest match in bytes, how many numeric, upper-case and non-ASCII
//! characters every match holds at least, how many numeric characters in a row (`\d{7}`: a text
//! whose longest run of digits is four holds no match), which ASCII characters (letters
//! case-folded) every match holds, and a set of adjacent ASCII letter pairs of which every match
//! holds one, or else a character outside ASCII (`pa`, `pw`, `to` for `password|pwd|token`: a word
//! alternation that shares no letter still tells "quick 123" it holds none of its words). A text
//! whose [`TextFacts`] fall short of them holds no match, and the search is skipped. [`WordsNeed`]
//! answers the same question for the keywords of an automaton.
//!
//! The facts of the string being classified are computed once, in one pass
//! ([`TextFacts::of_with`], which hands each byte to the decoders' own facts in the same pass),
//! and installed by [`with_facts`] (the classifier wraps each scanned window in it); a pattern searching another haystack
//! (a decoded view, a part of the text) computes them for a short haystack (the last such
//! haystack keeps its facts, by its text, for the patterns that search it next) and skips the
//! test for a long one. Letter pairs are read in texts of at most [`PAIRS_MAX`] bytes only: a
//! longer text is taken to hold them all.
//!
//! The same facts answer the detectors' own first tests (how many ASCII digits, the longest
//! run of them, whether a `@` or a `.` occurs) for the scanned text without reading it again
//! ([`ascii_digits_of_current`], [`holds_ascii`]). A scanned text of at least
//! [`ANCHORED_MIN`] bytes also has its runs of numeric characters listed: a pattern every match
//! of which holds one and is at most a few hundred bytes long ([`Need::with_anchor`]) searches only
//! the windows around them (see `pattern`).

use std::cell::{Cell, RefCell};
use std::ops::Range;
use std::rc::Rc;
use std::sync::{LazyLock, Mutex};

use rustc_hash::FxHashMap;

use regex_syntax::hir::{Class, Hir, HirKind};

/// Classes of more characters than this have what they need remembered, per process.
const CACHED_CLASS_MIN: u32 = 64;

/// A class's character ranges and what it needs.
type ClassNeeds = FxHashMap<Vec<(char, char)>, Need>;

/// What the large classes read so far need (see [`Need::of_class`]).
static CLASS_NEEDS: LazyLock<Mutex<ClassNeeds>> =
    LazyLock::new(|| Mutex::new(ClassNeeds::default()));

/// ASCII texts at least this long have their characters counted by value first.
const HISTOGRAM_MIN: usize = 128;

/// Haystacks other than the scanned text get their facts computed when at most this long;
/// longer ones are searched untested (so that repeated searches of long parts stay linear).
const FRESH_FACTS_MAX: usize = 256;

/// A test of one character.
type CharTest<'a> = dyn Fn(char) -> bool + 'a;

/// Texts longer than this (bytes) are taken to hold every pair of letters.
const PAIRS_MAX: usize = 64;

/// Letters in the ASCII alphabet.
const LETTERS: usize = 26;

/// Words of [`Pairs`]: one bit for each of the 26 × 26 pairs of letters.
const PAIR_WORDS: usize = (LETTERS * LETTERS).div_ceil(64);

/// A set of pairs of adjacent ASCII letters (case-folded), one bit each: two sets without a
/// bit in common share no pair.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Pairs([u64; PAIR_WORDS]);

impl Pairs {
    /// The set holding only the pair `a`, `b` (letter indexes below 26).
    fn one(a: usize, b: usize) -> Self {
        let mut p = Pairs::default();
        p.insert(a, b);
        p
    }

    fn insert(&mut self, a: usize, b: usize) {
        let i = a * LETTERS + b;
        if let Some(w) = self.0.get_mut(i / 64) {
            *w |= 1u64 << (i % 64);
        }
    }

    fn union(self, other: Pairs) -> Pairs {
        let mut out = self;
        for (w, o) in out.0.iter_mut().zip(other.0) {
            *w |= o;
        }
        out
    }

    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    fn meets(&self, other: &Pairs) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }

    /// Every pair of adjacent letters of `text` when it is at most [`PAIRS_MAX`] bytes long;
    /// every pair otherwise (a long text holds most pairs: testing them would spare little).
    fn of_text(text: &str) -> Pairs {
        if text.len() > PAIRS_MAX {
            return Pairs([u64::MAX; PAIR_WORDS]);
        }
        let mut p = Pairs::default();
        let mut prev = None;
        for c in text.chars() {
            let l = letter(c);
            if let (Some(a), Some(b)) = (prev, l) {
                p.insert(a, b);
            }
            prev = l;
        }
        p
    }

    /// [`of_text`](Self::of_text) for an ASCII text, read byte by byte.
    fn of_ascii(ascii: &[u8]) -> Pairs {
        if ascii.len() > PAIRS_MAX {
            return Pairs([u64::MAX; PAIR_WORDS]);
        }
        let mut p = Pairs::default();
        let mut prev = None;
        for &b in ascii {
            let l = b
                .is_ascii_alphabetic()
                .then(|| usize::from(b.to_ascii_lowercase() - b'a'));
            if let (Some(a), Some(b)) = (prev, l) {
                p.insert(a, b);
            }
            prev = l;
        }
        p
    }

    /// The first pair of adjacent ASCII letters of `word`.
    fn first_of(word: &str) -> Option<Pairs> {
        let mut prev = None;
        for c in word.chars() {
            let l = letter(c);
            if let (Some(a), Some(b)) = (prev, l) {
                return Some(Pairs::one(a, b));
            }
            prev = l;
        }
        None
    }
}

/// What a text must hold to contain one of a set of words matched ASCII-case-insensitively
/// (an automaton's keywords): one of their letter pairs, or, when some word has no pair but
/// characters outside ASCII, a character outside ASCII.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WordsNeed {
    pairs: Pairs,
    or_non_ascii: bool,
}

impl WordsNeed {
    /// `None` when some ASCII word holds no pair of letters (every text may hold it).
    pub(crate) fn of<S: AsRef<str>>(words: &[S]) -> Option<Self> {
        let mut need = WordsNeed {
            pairs: Pairs::default(),
            or_non_ascii: false,
        };
        for w in words {
            let w = w.as_ref();
            match Pairs::first_of(w) {
                Some(p) => need.pairs = need.pairs.union(p),
                None if !w.is_ascii() => need.or_non_ascii = true,
                None => return None,
            }
        }
        Some(need)
    }

    /// `false` when `haystack` is the text being scanned and holds none of the words by its
    /// facts; `true` otherwise.
    pub(crate) fn may_be_in(&self, haystack: &str) -> bool {
        with_current(haystack, |facts| {
            self.pairs.meets(&facts.pairs) || (self.or_non_ascii && facts.non_ascii > 0)
        })
        .unwrap_or(true)
    }
}

/// `false` when `haystack` is the text being scanned and holds no upper-case character
/// (`char::is_uppercase`) by its facts; `true` otherwise.
pub(crate) fn may_hold_upper(haystack: &str) -> bool {
    with_current(haystack, |facts| facts.upper > 0).unwrap_or(true)
}

/// The index (0..26) of an ASCII letter, case-folded; the long s (`ſ`) and the Kelvin sign are
/// `s` and `k`, as case-insensitive patterns match them for those letters.
fn letter(c: char) -> Option<usize> {
    let c = match c {
        '\u{17F}' => 's',
        '\u{212A}' => 'k',
        c => c,
    };
    c.is_ascii_alphabetic()
        .then(|| usize::from(c.to_ascii_lowercase() as u8 - b'a'))
}

/// The counts a text must reach for a pattern to match in it (see the module docs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Need {
    /// Bytes of the shortest match.
    min_len: usize,
    /// Numeric characters (`char::is_numeric`) every match holds at least.
    numeric: u32,
    /// Upper-case characters (`char::is_uppercase`) every match holds at least.
    upper: u32,
    /// Non-ASCII characters every match holds at least.
    non_ascii: u32,
    /// Whitespace characters (`char::is_whitespace`, `\s`) every match holds at least.
    space: u32,
    /// Numeric characters in a row that every match holds at least (`\d{7}`: seven).
    digit_run: u32,
    /// ASCII characters every match holds, one bit each, letters folded to lower case.
    ascii: u128,
    /// Pairs of adjacent ASCII letters of which every match holds one, or else (when
    /// `or_non_ascii`) a character outside ASCII; no requirement when empty and not
    /// `or_non_ascii`.
    pairs: Pairs,
    or_non_ascii: bool,
    /// Whether `pairs` or `or_non_ascii` require anything (read once, not per test).
    words: bool,
}

/// The facts of one text that a [`Need`] is tested against.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct TextFacts {
    len: usize,
    numeric: u32,
    upper: u32,
    non_ascii: u32,
    space: u32,
    /// The longest run of numeric characters (`char::is_numeric`).
    digit_run: u32,
    /// Every ASCII character present, letters folded to lower case.
    ascii: u128,
    /// Every pair of adjacent ASCII letters present, case-folded (all of them, for a text
    /// longer than [`PAIRS_MAX`]).
    pairs: Pairs,
}

/// A reader of a text's characters, handed them by [`TextFacts::of_with`] in its pass.
pub(crate) trait CharReader {
    /// An ASCII character, as its byte.
    fn ascii(&mut self, b: u8);
    /// A character outside ASCII.
    fn other(&mut self, c: char);
}

/// No reader.
impl CharReader for () {
    fn ascii(&mut self, _: u8) {}
    fn other(&mut self, _: char) {}
}

/// The bit of an ASCII byte, letters folded to lower case.
fn bit(b: u8) -> u128 {
    1u128 << u32::from(b.to_ascii_lowercase() & 0x7f)
}

impl TextFacts {
    /// One pass over `text`.
    pub(crate) fn of(text: &str) -> Self {
        Self::of_with(text, &mut ())
    }

    /// Numeric characters (`char::is_numeric`).
    pub(crate) fn numeric(&self) -> usize {
        usize::try_from(self.numeric).unwrap_or(usize::MAX)
    }

    /// Whether the ASCII character `b` occurs (a letter in either case).
    pub(crate) fn holds_ascii_char(&self, b: u8) -> bool {
        b.is_ascii() && self.ascii & bit(b) != 0
    }

    /// [`of`](Self::of), handing every character of `text` to `reader` in the same pass, for a
    /// reader that needs facts of its own.
    pub(crate) fn of_with(text: &str, reader: &mut impl CharReader) -> Self {
        let mut f = TextFacts {
            len: text.len(),
            ..TextFacts::default()
        };
        if text.is_ascii() {
            f.pairs = Pairs::of_ascii(text.as_bytes());
            if text.len() >= HISTOGRAM_MIN {
                f.add_ascii_counts(text.as_bytes(), reader);
            } else {
                f.add_short_ascii(text.as_bytes(), reader);
            }
            return f;
        }
        f.pairs = Pairs::of_text(text);
        if text.len() < HISTOGRAM_MIN {
            f.add_short(text, reader);
            return f;
        }
        // One pass: ASCII characters counted by value (read off the counts after), the others
        // tested one by one; a numeric character of either kind extends the run.
        let mut counts = [0u32; 128];
        let (mut run, mut digit_run) = (0u32, 0u32);
        for c in text.chars() {
            if let Some(n) = counts.get_mut(c as usize) {
                *n += 1;
                reader.ascii(c as u8);
                run = run.saturating_add(1) * u32::from(c.is_ascii_digit());
            } else {
                reader.other(c);
                f.non_ascii = f.non_ascii.saturating_add(1);
                let numeric = c.is_numeric();
                f.numeric = f.numeric.saturating_add(u32::from(numeric));
                f.upper = f.upper.saturating_add(u32::from(c.is_uppercase()));
                f.space = f.space.saturating_add(u32::from(c.is_whitespace()));
                run = run.saturating_add(1) * u32::from(numeric);
            }
            digit_run = digit_run.max(run);
        }
        f.digit_run = digit_run;
        f.add_counts(&counts);
        f
    }

    /// The facts of a short text holding characters outside ASCII, character by character.
    fn add_short(&mut self, text: &str, reader: &mut impl CharReader) {
        let (mut run, mut digit_run) = (0u32, 0u32);
        for c in text.chars() {
            let numeric = if let Ok(b) = u8::try_from(c)
                && b.is_ascii()
            {
                reader.ascii(b);
                self.ascii |= bit(b);
                let digit = b.is_ascii_digit();
                self.numeric += u32::from(digit);
                self.upper += u32::from(b.is_ascii_uppercase());
                self.space += u32::from(b.is_ascii_whitespace() || b == 0x0b);
                digit
            } else {
                reader.other(c);
                let numeric = c.is_numeric();
                self.non_ascii = self.non_ascii.saturating_add(1);
                self.numeric = self.numeric.saturating_add(u32::from(numeric));
                self.upper = self.upper.saturating_add(u32::from(c.is_uppercase()));
                self.space = self.space.saturating_add(u32::from(c.is_whitespace()));
                numeric
            };
            run = (run + 1) * u32::from(numeric);
            digit_run = digit_run.max(run);
        }
        self.digit_run = digit_run;
    }

    /// The facts of the ASCII bytes `ascii`, byte by byte (the characters present kept in two
    /// words, cheaper to set than one 128-bit word).
    fn add_short_ascii(&mut self, ascii: &[u8], reader: &mut impl CharReader) {
        let (mut low, mut high) = (0u64, 0u64);
        let (mut numeric, mut upper, mut space) = (0u32, 0u32, 0u32);
        let (mut run, mut digit_run) = (0u32, 0u32);
        for &b in ascii {
            reader.ascii(b);
            run = (run + 1) * u32::from(b.is_ascii_digit());
            digit_run = digit_run.max(run);
            let folded = b.to_ascii_lowercase() & 0x7f;
            let one = 1u64 << (folded & 63);
            if folded < 64 {
                low |= one;
            } else {
                high |= one;
            }
            numeric += u32::from(b.is_ascii_digit());
            upper += u32::from(b.is_ascii_uppercase());
            space += u32::from(b.is_ascii_whitespace() || b == 0x0b);
        }
        self.ascii |= (u128::from(high) << 64) | u128::from(low);
        self.numeric = self.numeric.saturating_add(numeric);
        self.upper = self.upper.saturating_add(upper);
        self.space = self.space.saturating_add(space);
        self.digit_run = self.digit_run.max(digit_run);
    }

    /// The facts of the ASCII bytes `ascii`, counted by value first, then read off the 128
    /// counts (fewer instructions a byte than testing each byte, for a long text).
    fn add_ascii_counts(&mut self, ascii: &[u8], reader: &mut impl CharReader) {
        let mut counts = [0u32; 128];
        let (mut run, mut digit_run) = (0u32, 0u32);
        for &b in ascii {
            reader.ascii(b);
            if let Some(n) = counts.get_mut(usize::from(b & 0x7f)) {
                *n += 1;
            }
            run = run.saturating_add(1) * u32::from(b.is_ascii_digit());
            digit_run = digit_run.max(run);
        }
        self.digit_run = self.digit_run.max(digit_run);
        self.add_counts(&counts);
    }

    /// Adds the facts of ASCII characters counted by value (`counts[b]`: how many `b`).
    fn add_counts(&mut self, counts: &[u32; 128]) {
        for (b, &n) in (0u8..).zip(counts.iter()) {
            if n == 0 {
                continue;
            }
            self.ascii |= bit(b);
            if b.is_ascii_digit() {
                self.numeric = self.numeric.saturating_add(n);
            }
            if b.is_ascii_uppercase() {
                self.upper = self.upper.saturating_add(n);
            }
            if b.is_ascii_whitespace() || b == 0x0b {
                self.space = self.space.saturating_add(n);
            }
        }
    }
}

/// The letters the first and the last character of every match of a pattern part may be
/// (one bit each), when it is always an ASCII letter, and whether the part matches no
/// character at all.
#[derive(Debug, Clone, Copy)]
struct Edges {
    first: Option<u32>,
    last: Option<u32>,
    zero_width: bool,
}

impl Edges {
    const NONE: Edges = Edges {
        first: None,
        last: None,
        zero_width: false,
    };

    fn of(hir: &Hir) -> Edges {
        let bit = |l: usize| 1u32 << l;
        match hir.kind() {
            HirKind::Empty | HirKind::Look(_) => Edges {
                zero_width: true,
                ..Edges::NONE
            },
            HirKind::Literal(lit) => match std::str::from_utf8(&lit.0) {
                Ok(s) => Edges {
                    first: s.chars().next().and_then(letter).map(bit),
                    last: s.chars().next_back().and_then(letter).map(bit),
                    zero_width: s.is_empty(),
                },
                Err(_) => Edges::NONE,
            },
            HirKind::Class(class) => {
                let letters = class_letters(class);
                Edges {
                    first: letters,
                    last: letters,
                    zero_width: false,
                }
            }
            HirKind::Repetition(rep) if rep.min > 0 => Self::of(&rep.sub),
            HirKind::Repetition(_) => Edges::NONE,
            HirKind::Capture(cap) => Self::of(&cap.sub),
            HirKind::Concat(subs) => {
                let parts: Vec<Edges> = subs
                    .iter()
                    .map(Self::of)
                    .filter(|e| !e.zero_width)
                    .collect();
                match (parts.first(), parts.last()) {
                    (Some(f), Some(l)) => Edges {
                        first: f.first,
                        last: l.last,
                        zero_width: false,
                    },
                    _ => Edges {
                        zero_width: true,
                        ..Edges::NONE
                    },
                }
            }
            HirKind::Alternation(subs) => {
                let all: Vec<Edges> = subs.iter().map(Self::of).collect();
                let union = |f: fn(&Edges) -> Option<u32>| {
                    all.iter().try_fold(0u32, |acc, e| {
                        f(e).filter(|_| !e.zero_width).map(|m| acc | m)
                    })
                };
                Edges {
                    first: union(|e| e.first),
                    last: union(|e| e.last),
                    zero_width: false,
                }
            }
        }
    }
}

/// The letters (one bit each) of a class whose every character is a letter by [`letter`],
/// when there are at most a few of them (`[Pp]`, `[Ss\u{17F}]`).
fn class_letters(class: &Class) -> Option<u32> {
    const MAX_CHARS: u32 = 8;
    let ranges: Vec<(char, char)> = match class {
        Class::Unicode(u) => u.ranges().iter().map(|r| (r.start(), r.end())).collect(),
        Class::Bytes(b) => b
            .ranges()
            .iter()
            .map(|r| (char::from(r.start()), char::from(r.end())))
            .collect(),
    };
    let size: u32 = ranges
        .iter()
        .map(|&(a, b)| u32::from(b).saturating_sub(u32::from(a)).saturating_add(1))
        .fold(0, u32::saturating_add);
    if ranges.is_empty() || size > MAX_CHARS {
        return None;
    }
    ranges.iter().try_fold(0u32, |acc, &(a, b)| {
        (a..=b).try_fold(acc, |acc, c| letter(c).map(|l| acc | 1 << l))
    })
}

/// Every pair of a letter of `a` followed by a letter of `b` (bit masks of letters).
fn pairs_between(a: u32, b: u32) -> Pairs {
    let mut p = Pairs::default();
    for x in (0..LETTERS).filter(|&x| a & (1 << x) != 0) {
        for y in (0..LETTERS).filter(|&y| b & (1 << y) != 0) {
            p.insert(x, y);
        }
    }
    p
}

/// What every match of `hir` holds of the text (see [`WordsNeed`]), if the pattern tells.
fn words_of(hir: &Hir) -> Option<WordsNeed> {
    let pairs = |p: Pairs| WordsNeed {
        pairs: p,
        or_non_ascii: false,
    };
    let non_ascii = WordsNeed {
        pairs: Pairs::default(),
        or_non_ascii: true,
    };
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => None,
        HirKind::Class(class) => class_is_non_ascii(class).then_some(non_ascii),
        HirKind::Literal(lit) => {
            let s = std::str::from_utf8(&lit.0).ok()?;
            let mut prev = None;
            for c in s.chars() {
                let l = letter(c);
                if let (Some(a), Some(b)) = (prev, l) {
                    return Some(pairs(Pairs::one(a, b)));
                }
                prev = l;
            }
            (!s.is_ascii()).then_some(non_ascii)
        }
        HirKind::Repetition(rep) if rep.min > 0 => words_of(&rep.sub),
        HirKind::Repetition(_) => None,
        HirKind::Capture(cap) => words_of(&cap.sub),
        HirKind::Concat(subs) => {
            // Any part's need will do, and so will the pairs across two adjacent parts: the
            // narrowest is kept (pairs alone before pairs or a character outside ASCII, then
            // the fewest pairs).
            let mut best: Option<WordsNeed> = None;
            let mut keep = |w: WordsNeed| {
                let rank = |w: &WordsNeed| (w.or_non_ascii, w.pairs.len());
                if (w.or_non_ascii || !w.pairs.is_empty())
                    && best.is_none_or(|b| rank(&w) < rank(&b))
                {
                    best = Some(w);
                }
            };
            let mut prev: Option<u32> = None;
            for s in subs {
                let e = Edges::of(s);
                if e.zero_width {
                    continue;
                }
                if let (Some(a), Some(b)) = (prev, e.first) {
                    keep(pairs(pairs_between(a, b)));
                }
                if let Some(w) = words_of(s) {
                    keep(w);
                }
                prev = e.last;
            }
            best
        }
        HirKind::Alternation(subs) => subs.iter().map(words_of).try_fold(
            WordsNeed {
                pairs: Pairs::default(),
                or_non_ascii: false,
            },
            |acc, w| {
                w.map(|w| WordsNeed {
                    pairs: acc.pairs.union(w.pairs),
                    or_non_ascii: acc.or_non_ascii || w.or_non_ascii,
                })
            },
        ),
    }
}

/// Whether every character of `class` is outside ASCII.
fn class_is_non_ascii(class: &Class) -> bool {
    match class {
        Class::Unicode(u) => u.ranges().first().is_some_and(|r| !r.start().is_ascii()),
        Class::Bytes(_) => false,
    }
}

/// The longest run of `true` in `flags`, saturated to `u32`.
fn longest_run(flags: impl Iterator<Item = bool>) -> u32 {
    let (mut run, mut best) = (0u32, 0u32);
    for f in flags {
        run = if f { run.saturating_add(1) } else { 0 };
        best = best.max(run);
    }
    best
}

/// What every match of a pattern part holds of numeric characters in a row (see
/// [`digit_run_of`]).
#[derive(Debug, Clone, Copy)]
struct DigitRun {
    /// Numeric characters in a row every match holds at least.
    run: u32,
    /// Every character of every match is numeric (and every match holds `run` of them).
    all_numeric: bool,
    /// The part matches no character (an assertion): it neither adds to a run nor ends one.
    zero_width: bool,
}

/// The run of numeric characters every match of `hir` holds: a lower bound, from the parts
/// whose every character is numeric (a class of digits, repeated; digits in a literal) and
/// the parts of a concatenation that follow one another.
fn digit_run_of(hir: &Hir) -> DigitRun {
    let none = DigitRun {
        run: 0,
        all_numeric: false,
        zero_width: false,
    };
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => DigitRun {
            zero_width: true,
            ..none
        },
        HirKind::Literal(lit) => match std::str::from_utf8(&lit.0) {
            Ok(s) => DigitRun {
                run: longest_run(s.chars().map(char::is_numeric)),
                all_numeric: !s.is_empty() && s.chars().all(char::is_numeric),
                zero_width: s.is_empty(),
            },
            Err(_) => none,
        },
        HirKind::Class(class) => {
            let numeric = Need::of_class(class).numeric >= 1;
            DigitRun {
                run: u32::from(numeric),
                all_numeric: numeric,
                zero_width: false,
            }
        }
        HirKind::Repetition(rep) if rep.min > 0 => {
            let sub = digit_run_of(&rep.sub);
            if sub.all_numeric {
                DigitRun {
                    run: sub.run.saturating_mul(rep.min),
                    ..sub
                }
            } else {
                DigitRun {
                    all_numeric: false,
                    ..sub
                }
            }
        }
        HirKind::Repetition(_) => none,
        HirKind::Capture(cap) => digit_run_of(&cap.sub),
        HirKind::Concat(subs) => {
            let (mut best, mut current, mut all, mut zero_width) = (0u32, 0u32, true, true);
            for part in subs.iter().map(digit_run_of) {
                if part.zero_width {
                    continue;
                }
                zero_width = false;
                if part.all_numeric {
                    current = current.saturating_add(part.run);
                } else {
                    all = false;
                    current = 0;
                }
                best = best.max(current).max(part.run);
            }
            DigitRun {
                run: best,
                all_numeric: all && !zero_width,
                zero_width,
            }
        }
        HirKind::Alternation(subs) => {
            let parts: Vec<DigitRun> = subs.iter().map(digit_run_of).collect();
            DigitRun {
                run: parts.iter().map(|p| p.run).min().unwrap_or(0),
                all_numeric: parts.iter().all(|p| p.all_numeric),
                zero_width: false,
            }
        }
    }
}

impl Need {
    /// What every match of `pattern` needs (see [`Need::with_anchor`]).
    #[cfg(test)]
    pub(crate) fn of(pattern: &str) -> Self {
        Self::with_anchor(pattern).0
    }

    fn of_hir(hir: &Hir) -> Self {
        let mut n = Self::walk(hir);
        n.min_len = hir.properties().minimum_len().unwrap_or(0);
        if let Some(w) = words_of(hir) {
            (n.pairs, n.or_non_ascii) = (w.pairs, w.or_non_ascii);
        }
        n.words = !n.pairs.is_empty() || n.or_non_ascii;
        n.digit_run = digit_run_of(hir).run;
        n
    }

    /// The counts of every match of `hir` (`min_len` aside).
    fn walk(hir: &Hir) -> Self {
        match hir.kind() {
            HirKind::Empty | HirKind::Look(_) => Need::default(),
            HirKind::Literal(lit) => {
                let mut n = Need::default();
                if let Ok(s) = std::str::from_utf8(&lit.0) {
                    for c in s.chars() {
                        n = n.then(Self::of_char_set(&|p: &CharTest<'_>| p(c), c, c));
                    }
                }
                n
            }
            HirKind::Class(class) => Self::of_class(class),
            HirKind::Repetition(rep) => {
                if rep.min == 0 {
                    return Need::default();
                }
                let sub = Self::walk(&rep.sub);
                Need {
                    min_len: 0,
                    numeric: sub.numeric.saturating_mul(rep.min),
                    upper: sub.upper.saturating_mul(rep.min),
                    non_ascii: sub.non_ascii.saturating_mul(rep.min),
                    space: sub.space.saturating_mul(rep.min),
                    ascii: sub.ascii,
                    pairs: Pairs::default(),
                    or_non_ascii: false,
                    words: false,
                    digit_run: 0,
                }
            }
            HirKind::Capture(cap) => Self::walk(&cap.sub),
            HirKind::Concat(subs) => subs
                .iter()
                .fold(Need::default(), |n, s| n.then(Self::walk(s))),
            HirKind::Alternation(subs) => {
                let mut it = subs.iter().map(Self::walk);
                let first = it.next().unwrap_or_default();
                it.fold(first, |a, b| Need {
                    min_len: 0,
                    numeric: a.numeric.min(b.numeric),
                    upper: a.upper.min(b.upper),
                    non_ascii: a.non_ascii.min(b.non_ascii),
                    space: a.space.min(b.space),
                    ascii: a.ascii & b.ascii,
                    pairs: Pairs::default(),
                    or_non_ascii: false,
                    words: false,
                    digit_run: 0,
                })
            }
        }
    }

    /// `self` followed by `next`.
    fn then(self, next: Need) -> Need {
        Need {
            min_len: 0,
            numeric: self.numeric.saturating_add(next.numeric),
            upper: self.upper.saturating_add(next.upper),
            non_ascii: self.non_ascii.saturating_add(next.non_ascii),
            space: self.space.saturating_add(next.space),
            ascii: self.ascii | next.ascii,
            pairs: Pairs::default(),
            or_non_ascii: false,
            words: false,
            digit_run: 0,
        }
    }

    /// One character from a class: `all` tells whether every character of the class passes a
    /// test; `lo..=hi` are the class's first and last characters.
    fn of_char_set(all: &dyn Fn(&CharTest<'_>) -> bool, lo: char, hi: char) -> Need {
        let mut n = Need::default();
        if all(&char::is_numeric) {
            n.numeric = 1;
        }
        if all(&char::is_uppercase) {
            n.upper = 1;
        }
        if all(&char::is_whitespace) {
            n.space = 1;
        }
        if !lo.is_ascii() {
            n.non_ascii = 1;
        }
        // One ASCII character, in either case.
        if hi.is_ascii() {
            let folded = lo.to_ascii_lowercase();
            if all(&|c: char| c.to_ascii_lowercase() == folded) {
                n.ascii = bit(folded as u8);
            }
        }
        n
    }

    /// One character of `class`. Tests that must visit every character of the class give up
    /// (require nothing) on a class of more than a few thousand characters: no class that
    /// passes them is that large.
    fn of_class(class: &Class) -> Need {
        const MAX_VISIT: u32 = 4096;
        let ranges: Vec<(char, char)> = match class {
            Class::Unicode(u) => u.ranges().iter().map(|r| (r.start(), r.end())).collect(),
            Class::Bytes(b) => {
                if b.ranges().iter().any(|r| !r.end().is_ascii()) {
                    return Need::default();
                }
                b.ranges()
                    .iter()
                    .map(|r| (char::from(r.start()), char::from(r.end())))
                    .collect()
            }
        };
        let (Some(&(lo, _)), Some(&(_, hi))) = (ranges.first(), ranges.last()) else {
            return Need::default();
        };
        let size: u32 = ranges
            .iter()
            .map(|&(a, b)| u32::from(b).saturating_sub(u32::from(a)).saturating_add(1))
            .fold(0, u32::saturating_add);
        let all =
            |p: &CharTest<'_>| size <= MAX_VISIT && ranges.iter().all(|&(a, b)| (a..=b).all(p));
        if size <= CACHED_CLASS_MIN {
            return Self::of_char_set(&all, lo, hi);
        }
        // Large classes (`\p{Lu}`, `\p{L}`, `\w`) recur across patterns: each is read once.
        if let Some(n) = CLASS_NEEDS
            .lock()
            .ok()
            .and_then(|m| m.get(&ranges).copied())
        {
            return n;
        }
        let n = Self::of_char_set(&all, lo, hi);
        if let Ok(mut m) = CLASS_NEEDS.lock() {
            m.insert(ranges, n);
        }
        n
    }

    /// Whether a text with these facts may hold a match.
    pub(crate) fn admits(&self, f: &TextFacts) -> bool {
        f.len >= self.min_len
            && f.numeric >= self.numeric
            && f.upper >= self.upper
            && f.non_ascii >= self.non_ascii
            && f.space >= self.space
            && f.digit_run >= self.digit_run
            && self.ascii & !f.ascii == 0
            && (!self.words || self.pairs.meets(&f.pairs) || (self.or_non_ascii && f.non_ascii > 0))
    }

    /// Whether `haystack` may hold a match: tested against the facts of the scanned text when
    /// `haystack` is that text, or against its own facts when it is short; admitted otherwise.
    #[cfg(test)]
    pub(crate) fn admits_haystack(&self, haystack: &str) -> bool {
        self.admits_haystack_given(haystack, self.requires_only_length())
    }

    /// `admits_haystack`, told whether the need asks for nothing but
    /// a length (`only_length`, as [`requires_only_length`](Self::requires_only_length) says):
    /// a pattern searched many times works that out once.
    #[inline(always)]
    pub(crate) fn admits_haystack_given(&self, haystack: &str, only_length: bool) -> bool {
        if haystack.len() < self.min_len {
            return false;
        }
        if only_length {
            return true;
        }
        match with_current(haystack, |facts| self.admits(facts)) {
            Some(admitted) => admitted,
            None if haystack.len() <= FRESH_FACTS_MAX => self.admits(&fresh_facts(haystack)),
            None => true,
        }
    }

    /// The need asks for nothing but a length.
    pub(crate) fn requires_only_length(&self) -> bool {
        self.numeric == 0
            && self.upper == 0
            && self.non_ascii == 0
            && self.space == 0
            && self.digit_run == 0
            && self.ascii == 0
            && !self.words
    }
}

thread_local! {
    /// The text being scanned on this thread (address and length) and its facts.
    static CURRENT: RefCell<Option<((usize, usize), TextFacts)>> = const { RefCell::new(None) };
}

/// `test` of the facts of the scanned text when `haystack` is that text (read in place, not
/// copied: the test runs for every pattern a text meets); `None` for another haystack.
#[inline]
fn with_current<R>(haystack: &str, test: impl FnOnce(&TextFacts) -> R) -> Option<R> {
    let key = (haystack.as_ptr() as usize, haystack.len());
    CURRENT.with_borrow(|current| match current {
        Some((k, facts)) if *k == key => Some(test(facts)),
        _ => None,
    })
}

/// The facts of `haystack`, a text other than the scanned one: kept with a copy of the last
/// such text, for the patterns that search the same part of a text one after the other.
fn fresh_facts(haystack: &str) -> TextFacts {
    thread_local! {
        static LAST: RefCell<Option<(String, TextFacts)>> = const { RefCell::new(None) };
    }
    LAST.with_borrow_mut(|last| match last {
        Some((text, facts)) if text == haystack => *facts,
        _ => {
            let facts = TextFacts::of(haystack);
            let mut text = last.take().map(|(t, _)| t).unwrap_or_default();
            text.clear();
            text.push_str(haystack);
            *last = Some((text, facts));
            facts
        }
    })
}

/// Runs `f` with the facts of `text` computed once for every pattern that searches it; the
/// previous text's facts are restored after (scans may nest).
#[cfg(test)]
pub(crate) fn with_text<R>(text: &str, f: impl FnOnce() -> R) -> R {
    with_facts(text, TextFacts::of(text), f)
}

/// Runs `f` with `facts`, the facts of `text` (read by [`TextFacts::of_with`]), for every
/// pattern that searches it; the previous text's facts are restored after (scans may nest).
pub(crate) fn with_facts<R>(text: &str, facts: TextFacts, f: impl FnOnce() -> R) -> R {
    struct Restore(
        Option<((usize, usize), TextFacts)>,
        Option<CurrentRuns>,
        u64,
    );
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.set(self.0);
            RUNS.set(self.1.take());
            SCAN.set(self.2);
        }
    }
    let key = (text.as_ptr() as usize, text.len());
    let runs = (text.len() >= ANCHORED_MIN && facts.numeric > 0)
        .then(|| (key, Rc::from(numeric_runs(text))));
    let scan = NEXT_SCAN.get().wrapping_add(1);
    NEXT_SCAN.set(scan);
    let _restore = Restore(
        CURRENT.replace(Some((key, facts))),
        RUNS.replace(runs),
        SCAN.replace(scan),
    );
    f()
}

thread_local! {
    /// The number of the scan under way on this thread (see [`current_scan`]); 0 outside one.
    static SCAN: Cell<u64> = const { Cell::new(0) };
    /// The number the last scan started on this thread was given.
    static NEXT_SCAN: Cell<u64> = const { Cell::new(0) };
}

/// The number of the scan under way when `haystack` is its text: every scan started on a
/// thread gets a number of its own, so what is worked out once for a scanned text can be
/// kept by it and told apart from what another text at the same address had (a text's
/// address and length alone may come back after it is freed). `None` for another haystack.
pub(crate) fn current_scan(haystack: &str) -> Option<u64> {
    with_current(haystack, |_| SCAN.get())
}

/// The number of ASCII digits of `haystack` and its longest run of them, read off the facts
/// of the scanned text when `haystack` is that text and they tell them exactly (an ASCII
/// text, or one without a numeric character); `None` otherwise.
pub(crate) fn ascii_digits_of_current(haystack: &str) -> Option<(usize, usize)> {
    with_current(haystack, |f| {
        (f.non_ascii == 0 || f.numeric == 0).then(|| {
            let n = |x: u32| usize::try_from(x).unwrap_or(usize::MAX);
            (n(f.numeric), n(f.digit_run))
        })
    })
    .flatten()
}

/// Whether `haystack` holds the ASCII character `b` (not a letter), told by the facts of the
/// scanned text when `haystack` is that text; `None` for another haystack.
pub(crate) fn holds_ascii(haystack: &str, b: u8) -> Option<bool> {
    with_current(haystack, |f| b.is_ascii() && f.ascii & bit(b) != 0)
}

/// Texts at least this long (bytes) have their runs of numeric characters listed, so that
/// the patterns every match of which holds one search only around them (see [`Need::with_anchor`]).
pub(crate) const ANCHORED_MIN: usize = 4096;

/// Matches of a pattern anchored on numeric characters are at most this long (bytes); a
/// pattern whose matches may be longer searches the whole text.
const ANCHOR_SPAN_MAX: usize = 512;

/// The runs of numeric characters of the scanned text, by its address and length.
type CurrentRuns = ((usize, usize), Rc<[Range<usize>]>);

thread_local! {
    /// The runs of numeric characters (`char::is_numeric`) of the text being scanned on this
    /// thread, when it is at least [`ANCHORED_MIN`] bytes long and holds one.
    static RUNS: RefCell<Option<CurrentRuns>> = const { RefCell::new(None) };
}

/// The byte ranges of the runs of numeric characters (`char::is_numeric`) of `text`.
fn numeric_runs(text: &str) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut push = |at: usize, len: usize| match out.last_mut() {
        Some(last) if last.end == at => last.end = at + len,
        _ => out.push(at..at + len),
    };
    if text.is_ascii() {
        for (i, b) in text.bytes().enumerate() {
            if b.is_ascii_digit() {
                push(i, 1);
            }
        }
    } else {
        for (i, c) in text.char_indices() {
            if c.is_numeric() {
                push(i, c.len_utf8());
            }
        }
    }
    out
}

/// The runs of numeric characters of `haystack` when it is the scanned text and they were
/// listed (see [`with_facts`]); `None` otherwise.
pub(crate) fn runs_of_current(haystack: &str) -> Option<Rc<[Range<usize>]>> {
    let key = (haystack.as_ptr() as usize, haystack.len());
    RUNS.with_borrow(|runs| match runs {
        Some((k, runs)) if *k == key => Some(Rc::clone(runs)),
        _ => None,
    })
}

impl Need {
    /// What every match of `pattern` needs, nothing (every text admitted) when it does not
    /// parse with the `regex` crate's default syntax; and, from the same reading of its
    /// syntax, its anchor: the longest match (bytes) when every match holds a numeric
    /// character (`char::is_numeric`) and none is longer than [`ANCHOR_SPAN_MAX`]. Such a
    /// pattern matches only within that many bytes of a run of numeric characters, and may be
    /// searched only there; `None` otherwise.
    pub(crate) fn with_anchor(pattern: &str) -> (Self, Option<usize>) {
        let Ok(hir) = regex_syntax::Parser::new().parse(pattern) else {
            return (Need::default(), None);
        };
        let need = Self::of_hir(&hir);
        let anchor = (need.numeric > 0)
            .then(|| hir.properties().maximum_len())
            .flatten()
            .filter(|&l| l > 0 && l <= ANCHOR_SPAN_MAX);
        (need, anchor)
    }
}

#[cfg(test)]
mod tests;
