//! What the decoders' first tests read, computed in one pass over a text's bytes: a text
//! without a `%` has no percent escape, one without a run of sixteen base64 characters no
//! base64 blob. Each decoder is skipped when the facts rule out what it looks for; the
//! decoders keep their own tests (the facts are only necessary conditions).

use super::decoders;
use crate::classify::need::{CharReader, TextFacts};

/// Byte classes, as bits of [`CLASS`].
const B64: u16 = 1; // [A-Za-z0-9+/_-]: the base64 pattern's characters
const DIGIT: u16 = 4; // [0-9]
const LEET: u16 = 8; // a leetspeak character: 0 1 3 4 5 7 @ $
const PERCENT: u16 = 16;
const BACKSLASH: u16 = 32;
const LETTER: u16 = 64; // [A-Za-z]
const R: u16 = 128; // `r` or `R`: rot13's marker starts with one
const A: u16 = 256; // `a` or `A`
const T: u16 = 512; // `t` or `T` (`A` shifted left by one)
const ONE: u16 = 1024; // `1`: rot13's marker holds one, and so does a word leetspeak reads as `l`
const AMP: u16 = 2048; // `&`: an HTML character reference starts with one

/// The class bits of every byte.
#[allow(
    clippy::indexing_slicing,
    reason = "a constant table: every index is below 256, checked when it is built"
)]
const CLASS: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let mut bits = 0;
        if c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'_' | b'-') {
            bits |= B64;
        }
        if c.is_ascii_digit() {
            bits |= DIGIT;
        }
        if matches!(c, b'0' | b'1' | b'3' | b'4' | b'5' | b'7' | b'@' | b'$') {
            bits |= LEET;
        }
        if c == b'%' {
            bits |= PERCENT;
        }
        if c == b'\\' {
            bits |= BACKSLASH;
        }
        if c.is_ascii_alphabetic() {
            bits |= LETTER;
        }
        if c == b'r' || c == b'R' {
            bits |= R;
        }
        if c == b'a' || c == b'A' {
            bits |= A;
        }
        if c == b't' || c == b'T' {
            bits |= T;
        }
        if c == b'1' {
            bits |= ONE;
        }
        if c == b'&' {
            bits |= AMP;
        }
        t[b] = bits;
        b += 1;
    }
    t
};

/// Facts about one text (see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Facts {
    /// Longest run of base64 characters (a run of hexadecimal digits is one too).
    pub(super) base64_run: usize,
    /// ASCII digits.
    pub(super) digits: usize,
    /// A leetspeak character occurs right after an ASCII letter (`d1`, `c@`).
    pub(super) leet: bool,
    /// A `%` occurs.
    pub(super) percent: bool,
    /// A backslash occurs.
    pub(super) backslash: bool,
    /// An `r` or `R` occurs.
    pub(super) r: bool,
    /// A `1` occurs.
    pub(super) one: bool,
    /// `at` occurs, in any ASCII case.
    pub(super) at: bool,
    /// Runs of ASCII letters.
    pub(super) letter_runs: usize,
    /// A `&` occurs.
    pub(super) amp: bool,
    /// A character outside ASCII that the Unicode-tricks decoder reads occurs
    /// ([`decoders::trick_candidate`]).
    pub(super) tricky: bool,
}

impl Facts {
    /// One pass over `text`, without a branch a byte: each fact is a mask or a sum of the
    /// byte's class bits and the previous byte's.
    pub(super) fn of(text: &str) -> Self {
        let (mut run, mut best, mut digits) = (0usize, 0usize, 0usize);
        let (mut any, mut prev) = (0u16, 0u16);
        let (mut leet, mut at, mut letter_runs) = (0u16, 0u16, 0usize);
        for &b in text.as_bytes() {
            let bits = CLASS.get(usize::from(b)).copied().unwrap_or(0);
            any |= bits;
            digits += usize::from(bits & DIGIT != 0);
            // LEET is LETTER shifted right by three, T is A shifted left by one.
            leet |= bits & ((prev & LETTER) >> 3);
            at |= bits & ((prev & A) << 1);
            letter_runs += usize::from(bits & !prev & LETTER != 0);
            prev = bits;
            run = (run + 1) * usize::from(bits & B64 != 0);
            best = best.max(run);
        }
        Facts {
            base64_run: best,
            digits,
            leet: leet & LEET != 0,
            percent: any & PERCENT != 0,
            backslash: any & BACKSLASH != 0,
            r: any & R != 0,
            one: any & ONE != 0,
            at: at & T != 0,
            letter_runs,
            amp: any & AMP != 0,
            tricky: !text.is_ascii() && text.chars().any(decoders::trick_candidate),
        }
    }
}

/// The facts of [`Facts`] that follow from the order of a text's bytes (runs, a letter before
/// a leetspeak character or a `t`), read a byte at a time inside the pass that reads the text's
/// [`TextFacts`] (see `TextFacts::of_with`); the others are read off those. A character outside
/// ASCII is pushed as one byte of `0x80`: like each of its bytes, a byte of no class; it is
/// also tested for [`Facts::tricky`].
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct FactsScan {
    run: usize,
    best: usize,
    prev: u16,
    leet: u16,
    at: u16,
    letter_runs: usize,
    tricky: bool,
}

impl CharReader for FactsScan {
    #[inline]
    fn ascii(&mut self, b: u8) {
        self.push(b);
    }

    #[inline]
    fn other(&mut self, c: char) {
        self.push(0x80);
        self.tricky |= decoders::trick_candidate(c);
    }
}

impl FactsScan {
    /// Reads byte `b` (as [`Facts::of`] does).
    #[inline]
    pub(crate) fn push(&mut self, b: u8) {
        let bits = CLASS.get(usize::from(b)).copied().unwrap_or(0);
        let prev = self.prev;
        self.leet |= bits & ((prev & LETTER) >> 3);
        self.at |= bits & ((prev & A) << 1);
        self.letter_runs += usize::from(bits & !prev & LETTER != 0);
        self.prev = bits;
        self.run = (self.run + 1) * usize::from(bits & B64 != 0);
        self.best = self.best.max(self.run);
    }

    /// The facts of the text read, whose [`TextFacts`] are `text`. Its digits are its numeric
    /// characters: for a text outside ASCII, digits of other scripts count too (a fact is a
    /// necessary condition; the decoders keep their own tests).
    pub(crate) fn facts(&self, text: &TextFacts) -> Facts {
        Facts {
            base64_run: self.best,
            digits: text.numeric(),
            leet: self.leet & LEET != 0,
            percent: text.holds_ascii_char(b'%'),
            backslash: text.holds_ascii_char(b'\\'),
            r: text.holds_ascii_char(b'r'),
            one: text.holds_ascii_char(b'1'),
            at: self.at & T != 0,
            letter_runs: self.letter_runs,
            amp: text.holds_ascii_char(b'&'),
            tricky: self.tricky,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_marks() {
        let f = Facts::of("see a1b2c3d4e5f60718 and 100% of C:\\x or dGVzdA-_+/abcdefgh");
        assert!(f.base64_run >= 16);
        assert_eq!(f.digits, 13);
        assert!(f.leet && f.percent && f.backslash && f.r && f.one && !f.at);
        let g = Facts::of("plain words only, nothing else");
        assert!(!g.leet && !g.percent && !g.backslash && !g.at && !g.tricky && !g.one);
        assert_eq!((g.digits, g.base64_run, g.letter_runs), (0, 7, 5));
        // A leetspeak character counts after a letter only.
        assert!(!Facts::of("quick 123 @ $5").leet);
        assert!(Facts::of("c@ncer").leet);
        assert!(Facts::of("AT").at && !Facts::of("née").tricky && Facts::of("jаnе").tricky);
        assert!(Facts::of("R&D").amp && !Facts::of("R and D").amp);
    }

    #[test]
    fn read_in_the_pass_of_the_text_facts_as_alone() {
        for text in [
            "né1b2c3d4e5f6a7b8c9",
            "a\u{e9}t at% C:\\x",
            "ab€12345678901234567 rot13",
            "Ünï ©ode 1 r",
            "R&D jаnе \u{200B} ok",
            "Crème brûlée & co, 12\u{a0}€",
            "plain words only, nothing else",
            "see a1b2c3d4e5f60718 and 100% of C:\\x or dGVzdA-_+/abcdefgh with AT a long tail \
             to pass one hundred and twenty-eight bytes of text for the counting path, and more é",
        ] {
            let mut scan = FactsScan::default();
            let facts = TextFacts::of_with(text, &mut scan);
            let (a, b) = (scan.facts(&facts), Facts::of(text));
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "{text}");
        }
    }
}
