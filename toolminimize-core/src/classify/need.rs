//! What every match of a pattern needs from the text, derived from the pattern itself, and the
//! facts of a text that answer it without a search.
//!
//! A regex search has a fixed cost (taking a cache, starting the lazy DFA) of several hundred
//! instructions, and a detector runs several of them on every string, most on short values
//! that cannot match ("quick 123" holds no date, no street, no card). [`Need::of`] reads a
//! pattern's syntax tree once, when it is compiled, and derives necessary conditions: the
//! shortest match in bytes, how many numeric, upper-case and non-ASCII characters every match
//! holds at least, and which ASCII characters (letters case-folded) every match holds. A text
//! whose [`TextFacts`] fall short of them holds no match, and the search is skipped.
//!
//! The facts of the string being classified are computed once, in one pass, by [`with_text`]
//! (the classifier wraps each scanned window in it); a pattern searching another haystack
//! (a decoded view, a part of the text) computes them for a short haystack and skips the test
//! for a long one.

use std::cell::Cell;

use regex_syntax::hir::{Class, Hir, HirKind};

/// Haystacks other than the scanned text get their facts computed when at most this long;
/// longer ones are searched untested (so that repeated searches of long parts stay linear).
const FRESH_FACTS_MAX: usize = 256;

/// A test of one character.
type CharTest<'a> = dyn Fn(char) -> bool + 'a;

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
    /// ASCII characters every match holds, one bit each, letters folded to lower case.
    ascii: u128,
}

/// The facts of one text that a [`Need`] is tested against.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct TextFacts {
    len: usize,
    numeric: u32,
    upper: u32,
    non_ascii: u32,
    space: u32,
    /// Every ASCII character present, letters folded to lower case.
    ascii: u128,
}

/// The bit of an ASCII byte, letters folded to lower case.
fn bit(b: u8) -> u128 {
    1u128 << u32::from(b.to_ascii_lowercase() & 0x7f)
}

impl TextFacts {
    /// One pass over `text`.
    pub(crate) fn of(text: &str) -> Self {
        let mut f = TextFacts {
            len: text.len(),
            ..TextFacts::default()
        };
        if text.is_ascii() {
            for &b in text.as_bytes() {
                f.ascii |= bit(b);
                f.numeric += u32::from(b.is_ascii_digit());
                f.upper += u32::from(b.is_ascii_uppercase());
                f.space += u32::from(b.is_ascii_whitespace() || b == 0x0b);
            }
            return f;
        }
        for c in text.chars() {
            if let Ok(b) = u8::try_from(c)
                && b.is_ascii()
            {
                f.ascii |= bit(b);
                f.numeric += u32::from(b.is_ascii_digit());
                f.upper += u32::from(b.is_ascii_uppercase());
                f.space += u32::from(b.is_ascii_whitespace() || b == 0x0b);
            } else {
                f.non_ascii = f.non_ascii.saturating_add(1);
                f.numeric = f.numeric.saturating_add(u32::from(c.is_numeric()));
                f.upper = f.upper.saturating_add(u32::from(c.is_uppercase()));
                f.space = f.space.saturating_add(u32::from(c.is_whitespace()));
            }
        }
        f
    }
}

impl Need {
    /// What every match of `pattern` needs; nothing (every text admitted) when it does not
    /// parse with the `regex` crate's default syntax.
    pub(crate) fn of(pattern: &str) -> Self {
        match regex_syntax::Parser::new().parse(pattern) {
            Ok(hir) => Self::of_hir(&hir),
            Err(_) => Need::default(),
        }
    }

    fn of_hir(hir: &Hir) -> Self {
        let mut n = Self::walk(hir);
        n.min_len = hir.properties().minimum_len().unwrap_or(0);
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
        Self::of_char_set(&all, lo, hi)
    }

    /// Whether a text with these facts may hold a match.
    pub(crate) fn admits(&self, f: &TextFacts) -> bool {
        f.len >= self.min_len
            && f.numeric >= self.numeric
            && f.upper >= self.upper
            && f.non_ascii >= self.non_ascii
            && f.space >= self.space
            && self.ascii & !f.ascii == 0
    }

    /// Whether `haystack` may hold a match: tested against the facts of the scanned text when
    /// `haystack` is that text, or against its own facts when it is short; admitted otherwise.
    pub(crate) fn admits_haystack(&self, haystack: &str) -> bool {
        if haystack.len() < self.min_len {
            return false;
        }
        if self.requires_only_length() {
            return true;
        }
        let key = (haystack.as_ptr() as usize, haystack.len());
        match CURRENT.get() {
            Some((k, facts)) if k == key => self.admits(&facts),
            _ if haystack.len() <= FRESH_FACTS_MAX => self.admits(&TextFacts::of(haystack)),
            _ => true,
        }
    }

    fn requires_only_length(&self) -> bool {
        self.numeric == 0
            && self.upper == 0
            && self.non_ascii == 0
            && self.space == 0
            && self.ascii == 0
    }
}

thread_local! {
    /// The text being scanned on this thread (address and length) and its facts.
    static CURRENT: Cell<Option<((usize, usize), TextFacts)>> = const { Cell::new(None) };
}

/// Runs `f` with the facts of `text` computed once for every pattern that searches it; the
/// previous text's facts are restored after (scans may nest).
pub(crate) fn with_text<R>(text: &str, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<((usize, usize), TextFacts)>);
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.set(self.0);
        }
    }
    let facts = TextFacts::of(text);
    let _restore = Restore(CURRENT.replace(Some(((text.as_ptr() as usize, text.len()), facts))));
    f()
}

#[cfg(test)]
mod tests;
