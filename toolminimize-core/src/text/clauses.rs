//! Splits free text into clauses: the units a query's topic lives in and the units a message
//! loses when one of them carries data the tool does not need.
//!
//! Boundaries are sentence ends, `;`, `:`, `,` (not inside numbers), spaced dashes, `|`, line
//! breaks and parentheses (a parenthetical is a clause of its own); a reason conjunction
//! ("because", "weil", "parce que", "porque", "perché") starts a clause of its own. Japanese
//! punctuation counts as well: `。！？` end a sentence with no space after them, `、，；：`
//! end a clause, `（）【】` enclose a parenthetical, and a reason, which Japanese states
//! before its consequence, ends its clause at its particle (`…の手術後なので`, `…のため`).
//! So do the marks of other scripts: the Arabic question mark `؟`, the Urdu full stop `۔`
//! and the Devanagari danda `।` end a sentence, the Arabic comma and semicolon `، ؛` a
//! clause.

use std::ops::Range;

/// One clause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clause {
    /// Byte range of the clause text, trimmed.
    pub range: Range<usize>,
    /// Whether it stands inside parentheses or brackets.
    pub parenthetical: bool,
    /// Index of the sentence it belongs to (0-based).
    pub sentence: usize,
}

const ABBREVIATIONS: &[&str] = &[
    "dr", "mr", "mrs", "ms", "prof", "st", "sr", "sra", "jr", "no", "nr", "vs", "etc", "inc",
    "ltd", "co", "ave", "blvd", "rd", "str", "av", "e.g", "i.e", "approx", "dept", "tel", "mme",
    "m", "geb", "hr", "fr", "sig", "u.s", "p",
];

/// The length of the longest of [`ABBREVIATIONS`] (bytes).
#[allow(clippy::indexing_slicing)] // evaluated at compile time: a bad index fails the build
const LONGEST_ABBREVIATION: usize = {
    let mut n = 0;
    let mut k = 0;
    while k < ABBREVIATIONS.len() {
        if ABBREVIATIONS[k].len() > n {
            n = ABBREVIATIONS[k].len();
        }
        k += 1;
    }
    n
};

/// Per length and lower-cased first byte: whether an abbreviation of [`ABBREVIATIONS`] has them.
#[allow(clippy::indexing_slicing)] // evaluated at compile time: a bad index fails the build
const ABBREVIATION_STARTS: [[bool; 128]; LONGEST_ABBREVIATION + 1] = {
    let mut t = [[false; 128]; LONGEST_ABBREVIATION + 1];
    let mut k = 0;
    while k < ABBREVIATIONS.len() {
        let a = ABBREVIATIONS[k].as_bytes();
        t[a.len()][(a[0] & 127) as usize] = true;
        k += 1;
    }
    t
};

/// Longest word looked back at for an abbreviation or an initial (bytes): longer than any
/// entry of [`ABBREVIATIONS`], and a bound so that a text with no spaces stays linear.
const MAX_PREV_WORD: usize = 16;

fn prev_word(text: &str, end: usize) -> &str {
    let mut from = end.saturating_sub(MAX_PREV_WORD);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let head = text.get(from..end).unwrap_or_default();
    match head.rfind(|c: char| c.is_whitespace() || c == '(' || c == ',') {
        Some(i) => head.get(i + 1..).unwrap_or_default(),
        // No boundary in reach: the word is longer than any abbreviation, or starts the text.
        None if from == 0 => head,
        None => "",
    }
}

fn next_word(text: &str, from: usize) -> Option<&str> {
    let rest = text.get(from..)?.trim_start();
    let end = rest
        .find(|c: char| !c.is_alphanumeric())
        .unwrap_or(rest.len());
    rest.get(..end).filter(|w| !w.is_empty())
}

/// How [`clauses`] and [`segments`] read a byte where a character starts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// An ASCII character that is neither a boundary nor the first letter of a reason
    /// conjunction: stepped over.
    Skip,
    /// The first letter of a reason conjunction (see [`starts_reason`]), and no boundary.
    ReasonStart,
    /// A boundary, a bracket or a non-ASCII character: decoded and read whole.
    Read,
}

/// ASCII characters that [`clauses`] reads as more than a letter: boundaries and brackets.
const CLAUSE_MARKS: &[u8] = b"([)].!?;|\n\r:,-";

/// ASCII characters that [`segments`] reads as more than a letter.
const SEGMENT_MARKS: &[u8] = b"-|\n.!?";

/// The class of every byte, for a splitter that reads `marks` and (with `reasons`) the
/// first letters of reason conjunctions.
#[allow(clippy::indexing_slicing)] // evaluated at compile time: a bad index fails the build
const fn classes(marks: &[u8], reasons: bool) -> [Class; 256] {
    let mut t = [Class::Skip; 256];
    let mut b = 128;
    while b < 256 {
        t[b] = Class::Read;
        b += 1;
    }
    let mut k = 0;
    while reasons && k < REASON.len() {
        let first = REASON[k].as_bytes()[0];
        // A conjunction in another script starts with a byte that is read whole anyway.
        if first.is_ascii() {
            t[first.to_ascii_lowercase() as usize] = Class::ReasonStart;
            t[first.to_ascii_uppercase() as usize] = Class::ReasonStart;
        }
        k += 1;
    }
    let mut m = 0;
    while m < marks.len() {
        t[marks[m] as usize] = Class::Read;
        m += 1;
    }
    t
}

const CLAUSE_CLASS: [Class; 256] = classes(CLAUSE_MARKS, true);
const SEGMENT_CLASS: [Class; 256] = classes(SEGMENT_MARKS, false);

/// The class of byte `b` in `table`.
fn class_of(table: &[Class; 256], b: u8) -> Class {
    table.get(usize::from(b)).copied().unwrap_or(Class::Read)
}

/// The character before byte `i` of `text`.
fn char_before(text: &str, i: usize) -> Option<char> {
    text.get(..i)?.chars().next_back()
}

/// The character at byte `i` of `text` and the one after it.
fn char_and_next(text: &str, i: usize) -> Option<(char, Option<char>)> {
    let mut rest = text.get(i..)?.chars();
    let c = rest.next()?;
    Some((c, rest.next()))
}

/// Whether `word` (as written) is an abbreviation, whatever its case.
fn is_abbreviation(word: &str) -> bool {
    if word.is_ascii() {
        // Most words have a length and a first letter no abbreviation has.
        let first = word.bytes().next().map_or(0, |b| b.to_ascii_lowercase());
        ABBREVIATION_STARTS
            .get(word.len())
            .and_then(|t| t.get(usize::from(first)))
            .copied()
            .unwrap_or(false)
            && ABBREVIATIONS.iter().any(|a| a.eq_ignore_ascii_case(word))
    } else {
        ABBREVIATIONS.contains(&word.to_lowercase().as_str())
    }
}

/// Splits `text` into clauses.
pub fn clauses(text: &str) -> Vec<Clause> {
    let mut out = Vec::new();
    let mut start = 0usize;
    let mut sentence = 0usize;
    let mut depth = 0usize;
    let mut paren_start: Option<usize> = None;
    let push = |out: &mut Vec<Clause>, s: usize, e: usize, paren: bool, sentence: usize| {
        let piece = text.get(s..e).unwrap_or_default();
        let lead = piece.len() - piece.trim_start().len();
        let trail = piece.len() - piece.trim_end().len();
        let (s2, e2) = (s + lead, e.saturating_sub(trail));
        if s2 < e2 {
            out.push(Clause {
                range: s2..e2,
                parenthetical: paren,
                sentence,
            });
        }
    };
    let bytes = text.as_bytes();
    let mut i = 0usize;
    while let Some(&b) = bytes.get(i) {
        match class_of(&CLAUSE_CLASS, b) {
            Class::Skip => {
                i += 1;
                continue;
            }
            Class::ReasonStart => {
                // No boundary: at most the start of a reason clause.
                if depth == 0
                    && i > start
                    && char_before(text, i).is_some_and(char::is_whitespace)
                    && starts_reason(text.get(i..).unwrap_or_default())
                {
                    push(&mut out, start, i, false, sentence);
                    start = i;
                }
                i += 1;
                continue;
            }
            Class::Read => {}
        }
        let Some((c, next)) = char_and_next(text, i) else {
            // Not on a char boundary: cannot happen for a `str`.
            i += 1;
            continue;
        };
        let prev = char_before(text, i);
        let boundary_len: Option<usize> = match c {
            '(' | '[' | '（' | '【' => {
                push(&mut out, start, i, depth > 0, sentence);
                depth += 1;
                paren_start = Some(i + c.len_utf8());
                start = i + c.len_utf8();
                None
            }
            ')' | ']' | '）' | '】' if depth > 0 => {
                push(&mut out, paren_start.unwrap_or(start), i, true, sentence);
                depth -= 1;
                start = i + c.len_utf8();
                // The rest of an enclosing parenthetical starts after this one.
                paren_start = Some(i + c.len_utf8());
                None
            }
            '.' | '!' | '?' => {
                let at_end = next.is_none_or(char::is_whitespace);
                let ends = at_end
                    && (c != '.' || {
                        let word = prev_word(text, i);
                        let abbrev = is_abbreviation(word);
                        let initial =
                            word.chars().count() == 1 && prev.is_some_and(char::is_uppercase);
                        // "am 10. Juni", "1. září": an ordinal day before a month.
                        let ordinal_date = word.len() <= 2
                            && word.chars().all(|d| d.is_ascii_digit())
                            && next_word(text, i + 1).is_some_and(super::calendar::is_month);
                        !abbrev && !initial && !ordinal_date
                    });
                ends.then_some(c.len_utf8())
            }
            // Japanese sentence ends need no space after them.
            c if is_unspaced_full_stop(c) => Some(c.len_utf8()),
            ';' | '|' | '\n' | '\r' | '•' | '、' | '，' | '；' | '：' | '،' | '؛' => {
                Some(c.len_utf8())
            }
            // An emoji before a space ends a sentence as a full stop does ("… 💙 My dad …").
            c if is_pictograph(c) && next.is_some_and(char::is_whitespace) => Some(c.len_utf8()),
            ':' if next.is_none_or(char::is_whitespace) => Some(1),
            ',' if !(prev.is_some_and(|p| p.is_ascii_digit())
                && next.is_some_and(|n| n.is_ascii_digit())) =>
            {
                Some(1)
            }
            '-' | '–' | '—'
                if prev.is_some_and(char::is_whitespace)
                    && next.is_none_or(char::is_whitespace) =>
            {
                Some(c.len_utf8())
            }
            _ => None,
        };
        // A reason clause starts at its conjunction: "… late because I was at the clinic"
        // can lose its reason and keep its news.
        if depth == 0
            && i > start
            && prev.is_some_and(char::is_whitespace)
            && starts_reason(text.get(i..).unwrap_or_default())
        {
            push(&mut out, start, i, false, sentence);
            start = i;
        }
        // A Japanese reason ends at its particle: "糖尿病のため" | "インスリンを使用中".
        if boundary_len.is_none() && depth == 0 && ends_ja_reason(text, i, c) {
            let end = i + c.len_utf8();
            push(&mut out, start, end, false, sentence);
            start = end;
        }
        if let Some(len) = boundary_len {
            if depth == 0 {
                push(&mut out, start, i, false, sentence);
                start = i + len;
                if matches!(c, '.' | '!' | '?' | '\n')
                    || is_unspaced_full_stop(c)
                    || is_pictograph(c)
                {
                    sentence += 1;
                }
            } else if matches!(c, ',' | ';' | '-' | '–' | '—' | '、' | '，' | '،' | '؛') {
                // Inside parentheses, split too but keep the parenthetical flag.
                push(&mut out, paren_start.unwrap_or(start), i, true, sentence);
                paren_start = Some(i + len);
                start = i + len;
            }
        }
        i += c.len_utf8();
    }
    if depth > 0 {
        push(
            &mut out,
            paren_start.unwrap_or(start),
            text.len(),
            true,
            sentence,
        );
    } else {
        push(&mut out, start, text.len(), false, sentence);
    }
    out
}

/// Japanese particles that end a reason clause ("…なので", "…だから", "…のため"). The
/// reason comes before what it explains; a clause boundary after the particle lets the
/// reason go and the news stay.
const JA_REASON: &[&str] = &["ので", "ため", "だから", "ですから", "ますから"];

/// Whether a clause is a Japanese reason: it ends with a reason particle.
pub fn is_ja_reason(clause: &str) -> bool {
    let t = clause.trim_end();
    JA_REASON.iter().any(|p| t.ends_with(p))
}

/// Whether the character `c` at byte `i` is the last one of a Japanese reason particle that
/// ends a clause: more Japanese text follows (not punctuation, which ends the clause anyway),
/// and not "ために" (in order to), "からの", "のでは" or "ためです".
fn ends_ja_reason(text: &str, i: usize, c: char) -> bool {
    if !matches!(c, 'で' | 'ら' | 'め') {
        return false;
    }
    let end = i + c.len_utf8();
    let Some(head) = text.get(..end) else {
        return false;
    };
    if !JA_REASON.iter().any(|p| head.ends_with(p)) {
        return false;
    }
    let Some(next) = text.get(end..).and_then(|t| t.chars().next()) else {
        return false;
    };
    crate::text::script::is_cjk(next)
        && !matches!(
            next,
            'に' | 'の'
                | 'は'
                | 'も'
                | 'す'
                | 'し'
                | 'だ'
                | 'で'
                | 'る'
                | 'て'
                | 'た'
                | 'ら'
                | 'れ'
                | 'ず'
        )
}

/// Marks that end a sentence with no space after them: Chinese and Japanese `。！？`, the
/// Arabic question mark `؟`, the Urdu full stop `۔` and the Devanagari danda `।`.
pub fn is_unspaced_full_stop(c: char) -> bool {
    matches!(c, '。' | '！' | '？' | '؟' | '।' | '۔')
}

/// Emoji and pictographs (they end sentences in chat text).
fn is_pictograph(c: char) -> bool {
    matches!(c, '\u{1F300}'..='\u{1FAFF}' | '\u{2600}'..='\u{27BF}' | '\u{1F000}'..='\u{1F2FF}')
}

/// Conjunctions that open a reason clause (EN, DE, FR, ES, IT, NL, SV, DA/NO, CS, SK, PL, RO,
/// CA, FI, HU, ID, HR/SR/BS, VI, EL, RU, UK, TR, AR, HI), and the consequence word Hindi writes
/// with no comma before it (`… बुखार है इसलिए वह …`): the reason told first is a clause of its
/// own.
const REASON: &[&str] = &[
    "because",
    "since",
    "cause",
    "weil",
    "parce que",
    "parce qu'",
    "puisque",
    "porque",
    "ya que",
    "perché",
    "perche",
    "poiché",
    "poiche",
    "omdat",
    "eftersom",
    "fordi",
    "protože",
    "protoze",
    "pretože",
    "pretoze",
    "ponieważ",
    "poniewaz",
    "pentru că",
    "pentru ca",
    "perquè",
    "perque",
    "koska",
    "mert",
    "karena",
    "jer",
    "vì",
    "επειδή",
    "γιατί",
    "потому что",
    "так как",
    "тому що",
    "çünkü",
    "لأن",
    "क्योंकि",
    "इसलिए",
];

/// Per lower-cased byte: the [`REASON`] conjunctions whose byte `at` it is, one bit each
/// (every conjunction has two bytes or more).
#[allow(clippy::indexing_slicing)] // evaluated at compile time: a bad index fails the build
const fn reason_bytes(at: usize) -> [u64; 256] {
    let mut t = [0u64; 256];
    let mut k = 0;
    while k < REASON.len() {
        let b = REASON[k].as_bytes()[at].to_ascii_lowercase();
        t[b as usize] |= 1 << k;
        k += 1;
    }
    t
}

const REASON_BY_FIRST: [u64; 256] = reason_bytes(0);
const REASON_BY_SECOND: [u64; 256] = reason_bytes(1);

/// Whether `rest` starts with a reason conjunction followed by a space or apostrophe end.
fn starts_reason(rest: &str) -> bool {
    let bytes = rest.as_bytes();
    // Most words start with a letter no conjunction starts with: one byte tells.
    let Some(&first) = bytes.first() else {
        return false;
    };
    let second = bytes.get(1).map_or(0, u8::to_ascii_lowercase);
    let mut candidates = REASON_BY_FIRST
        .get(usize::from(first.to_ascii_lowercase()))
        .copied()
        .unwrap_or(0)
        & REASON_BY_SECOND
            .get(usize::from(second))
            .copied()
            .unwrap_or(0);
    while candidates != 0 {
        let k = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        let Some(c) = REASON.get(k) else {
            break;
        };
        // Bytes equal but for ASCII case: the conjunction's end is a char boundary of `rest`.
        if bytes
            .get(..c.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(c.as_bytes()))
            && (c.ends_with('\'')
                || rest
                    .get(c.len()..)
                    .and_then(|t| t.chars().next())
                    .is_some_and(char::is_whitespace))
        {
            return true;
        }
    }
    false
}

/// Splits `text` into segments: the parts between spaced dashes, bars, sentence ends and line
/// breaks. A query's first segment is its topic; later segments are appendices.
pub fn segments(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0usize;
    let bytes = text.as_bytes();
    let mut i = 0usize;
    while let Some(&b) = bytes.get(i) {
        if class_of(&SEGMENT_CLASS, b) != Class::Read {
            i += 1;
            continue;
        }
        let Some((c, next)) = char_and_next(text, i) else {
            i += 1;
            continue;
        };
        let prev = char_before(text, i);
        let cut = match c {
            '-' | '–' | '—' | '|' => {
                prev.is_some_and(char::is_whitespace) && next.is_none_or(char::is_whitespace)
            }
            '\n' => true,
            c if is_unspaced_full_stop(c) => true,
            '.' | '!' | '?' => {
                next.is_none_or(char::is_whitespace) && !is_abbreviation(prev_word(text, i))
            }
            _ => false,
        };
        if cut {
            if start < i {
                out.push(start..i);
            }
            start = i;
        }
        i += c.len_utf8();
    }
    if start < text.len() {
        out.push(start..text.len());
    }
    out
}

/// The index of the segment containing byte `at` (a binary search: segments are in order and
/// do not overlap).
pub fn segment_of(segs: &[Range<usize>], at: usize) -> Option<usize> {
    let i = segs.partition_point(|r| r.start <= at).checked_sub(1)?;
    segs.get(i).filter(|r| at < r.end).map(|_| i)
}

/// The index of the clause containing byte `at`, if any (a binary search: clauses are in
/// order and do not overlap).
pub fn clause_of(cl: &[Clause], at: usize) -> Option<usize> {
    let i = cl.partition_point(|c| c.range.start <= at).checked_sub(1)?;
    cl.get(i).filter(|c| at < c.range.end).map(|_| i)
}

/// The splitters as they were written char by char: the byte-wise ones must agree with them.
#[cfg(test)]
mod reference {
    use super::*;

    /// The splitter before its byte-wise fast path, char by char.
    pub(super) fn clauses(text: &str) -> Vec<Clause> {
        let mut out = Vec::new();
        let mut start = 0usize;
        let mut sentence = 0usize;
        let mut depth = 0usize;
        let mut paren_start: Option<usize> = None;
        let push = |out: &mut Vec<Clause>, s: usize, e: usize, paren: bool, sentence: usize| {
            let piece = text.get(s..e).unwrap_or_default();
            let lead = piece.len() - piece.trim_start().len();
            let trail = piece.len() - piece.trim_end().len();
            let (s2, e2) = (s + lead, e.saturating_sub(trail));
            if s2 < e2 {
                out.push(Clause {
                    range: s2..e2,
                    parenthetical: paren,
                    sentence,
                });
            }
        };
        let mut it = text.char_indices().peekable();
        let mut prev: Option<char> = None;
        while let Some((i, c)) = it.next() {
            let next = it.peek().map(|&(_, n)| n);
            let boundary_len: Option<usize> = match c {
                '(' | '[' | '（' | '【' => {
                    push(&mut out, start, i, depth > 0, sentence);
                    depth += 1;
                    paren_start = Some(i + c.len_utf8());
                    start = i + c.len_utf8();
                    None
                }
                ')' | ']' | '）' | '】' if depth > 0 => {
                    push(&mut out, paren_start.unwrap_or(start), i, true, sentence);
                    depth -= 1;
                    start = i + c.len_utf8();
                    // The rest of an enclosing parenthetical starts after this one.
                    paren_start = Some(i + c.len_utf8());
                    None
                }
                '.' | '!' | '?' => {
                    let at_end = next.is_none_or(char::is_whitespace);
                    let abbrev = at_end
                        && c == '.'
                        && ABBREVIATIONS
                            .contains(&prev_word(text, i).to_lowercase().trim_start_matches('('));
                    let initial = at_end
                        && c == '.'
                        && prev_word(text, i).chars().count() == 1
                        && prev.is_some_and(char::is_uppercase);
                    // "am 10. Juni", "1. září": an ordinal day before a month.
                    let ordinal_date = c == '.'
                        && prev_word(text, i).len() <= 2
                        && prev_word(text, i).chars().all(|d| d.is_ascii_digit())
                        && next_word(text, i + 1).is_some_and(crate::text::calendar::is_month);
                    if at_end && !abbrev && !initial && !ordinal_date {
                        Some(c.len_utf8())
                    } else {
                        None
                    }
                }
                // Japanese sentence ends need no space after them.
                '。' | '！' | '？' | '؟' | '।' | '۔' => Some(c.len_utf8()),
                ';' | '|' | '\n' | '\r' | '•' | '、' | '，' | '；' | '：' | '،' | '؛' => {
                    Some(c.len_utf8())
                }
                // An emoji before a space ends a sentence as a full stop does ("… 💙 My dad …").
                c if is_pictograph(c) && next.is_some_and(char::is_whitespace) => {
                    Some(c.len_utf8())
                }
                ':' if next.is_none_or(char::is_whitespace) => Some(1),
                ',' if !(prev.is_some_and(|p| p.is_ascii_digit())
                    && next.is_some_and(|n| n.is_ascii_digit())) =>
                {
                    Some(1)
                }
                '-' | '–' | '—'
                    if prev.is_some_and(char::is_whitespace)
                        && next.is_none_or(char::is_whitespace) =>
                {
                    Some(c.len_utf8())
                }
                _ => None,
            };
            // A reason clause starts at its conjunction: "… late because I was at the clinic"
            // can lose its reason and keep its news.
            if depth == 0
                && i > start
                && prev.is_some_and(char::is_whitespace)
                && starts_reason(text.get(i..).unwrap_or_default())
            {
                push(&mut out, start, i, false, sentence);
                start = i;
            }
            // A Japanese reason ends at its particle: "糖尿病のため" | "インスリンを使用中".
            if boundary_len.is_none() && depth == 0 && ends_ja_reason(text, i, c) {
                let end = i + c.len_utf8();
                push(&mut out, start, end, false, sentence);
                start = end;
            }
            if let Some(len) = boundary_len {
                if depth == 0 {
                    push(&mut out, start, i, false, sentence);
                    start = i + len;
                    if matches!(
                        c,
                        '.' | '!' | '?' | '。' | '！' | '？' | '؟' | '।' | '۔' | '\n'
                    ) || is_pictograph(c)
                    {
                        sentence += 1;
                    }
                } else if matches!(c, ',' | ';' | '-' | '–' | '—' | '、' | '，' | '،' | '؛')
                {
                    // Inside parentheses, split too but keep the parenthetical flag.
                    push(&mut out, paren_start.unwrap_or(start), i, true, sentence);
                    paren_start = Some(i + len);
                    start = i + len;
                }
            }
            prev = Some(c);
        }
        if depth > 0 {
            push(
                &mut out,
                paren_start.unwrap_or(start),
                text.len(),
                true,
                sentence,
            );
        } else {
            push(&mut out, start, text.len(), false, sentence);
        }
        out
    }

    /// Splits `text` into segments: the parts between spaced dashes, bars, sentence ends and line
    /// breaks. A query's first segment is its topic; later segments are appendices.
    pub(super) fn segments(text: &str) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        let mut start = 0usize;
        let mut it = text.char_indices().peekable();
        let mut prev: Option<char> = None;
        while let Some((i, c)) = it.next() {
            let next = it.peek().map(|&(_, n)| n);
            let cut = match c {
                '-' | '–' | '—' | '|' => {
                    prev.is_some_and(char::is_whitespace) && next.is_none_or(char::is_whitespace)
                }
                '\n' | '。' | '！' | '？' | '؟' | '।' | '۔' => true,
                '.' | '!' | '?' => {
                    next.is_none_or(char::is_whitespace)
                        && !ABBREVIATIONS.contains(&prev_word(text, i).to_lowercase().as_str())
                }
                _ => false,
            };
            if cut {
                if start < i {
                    out.push(start..i);
                }
                start = i;
            }
            prev = Some(c);
        }
        if start < text.len() {
            out.push(start..text.len());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn reason_conjunctions_start_with_a_letter_and_fit_the_bit_tables() {
        assert!(REASON.len() <= 64);
        assert!(
            REASON
                .iter()
                .all(|r| r.chars().next().is_some_and(char::is_alphabetic))
        );
    }

    #[test]
    fn marks_of_other_scripts_end_sentences_and_clauses() {
        let text = "مرحبا سارة، لا أستطيع الحضور؟ نعم";
        let cl = clauses(text);
        assert_eq!(cl.len(), 3);
        assert_eq!(cl[2].sentence, 1);
        let cl = clauses("नमस्ते। ठीक है");
        assert_eq!(cl.len(), 2);
        assert_eq!(cl[1].sentence, 1);
    }

    #[test]
    fn a_reason_opens_its_clause_in_more_languages() {
        for text in [
            "joi nu pot veni pentru că am o programare",
            "en pääse koska olen kipeä",
            "aku tidak bisa datang karena ada urusan",
            "δεν μπορώ να έρθω γιατί είμαι άρρωστη",
            "बेटे को बुखार है इसलिए वह कल नहीं आएगा",
        ] {
            assert_eq!(clauses(text).len(), 2, "{text}");
        }
    }

    use super::*;

    #[test]
    fn clauses_split_at_dashes_brackets_and_commas() {
        use crate::text::clauses::clauses;
        let text = "Out tomorrow - dentist (root canal). Back Thursday, 9:30.";
        let parts: Vec<&str> = clauses(text)
            .iter()
            .map(|c| &text[c.range.clone()])
            .collect();
        assert_eq!(
            parts,
            [
                "Out tomorrow",
                "dentist",
                "root canal",
                "Back Thursday",
                "9:30"
            ]
        );
    }

    fn parts(text: &str) -> Vec<&str> {
        clauses(text)
            .iter()
            .map(|c| &text[c.range.clone()])
            .collect()
    }

    #[test]
    fn numbers_versions_and_abbreviations_do_not_split() {
        assert_eq!(parts("Owe $41,000 on cards"), ["Owe $41,000 on cards"]);
        assert_eq!(
            parts("Fixed in 2.3.1. Thanks"),
            ["Fixed in 2.3.1", "Thanks"]
        );
        assert_eq!(parts("See Dr. Moradi at 10"), ["See Dr. Moradi at 10"]);
        assert_eq!(parts("well-known co-pay"), ["well-known co-pay"]);
    }

    #[test]
    fn parentheticals_and_dashes_are_clauses() {
        let text = "Greta drives (she can't drink - on meds), pickups at noon";
        assert_eq!(
            parts(text),
            [
                "Greta drives",
                "she can't drink",
                "on meds",
                "pickups at noon"
            ]
        );
        let cl = clauses(text);
        assert!(cl[1].parenthetical && cl[2].parenthetical && !cl[3].parenthetical);
    }

    #[test]
    fn reason_conjunctions_open_a_clause() {
        assert_eq!(
            parts("the rent will be late because I was at Mercy Hospital"),
            ["the rent will be late", "because I was at Mercy Hospital"]
        );
        assert_eq!(
            parts("Ich komme später, weil ich zur Dialyse muss"),
            ["Ich komme später", "weil ich zur Dialyse muss"]
        );
        assert_eq!(
            parts("je serai absent parce qu'il y a la chimio"),
            ["je serai absent", "parce qu'il y a la chimio"]
        );
        // Not inside words, and "car" stays a car.
        assert_eq!(
            parts("my car is at the sincere shop"),
            ["my car is at the sincere shop"]
        );
    }

    #[test]
    fn ordinal_dates_do_not_end_sentences() {
        assert_eq!(clauses("Termin am 10. Juni um 9 Uhr").len(), 1);
        assert_eq!(clauses("Day 10. Then rest").len(), 2);
    }

    #[test]
    fn sentences_are_counted() {
        let cl = clauses("One. Two, three! Four");
        assert_eq!(
            cl.iter().map(|c| c.sentence).collect::<Vec<_>>(),
            [0, 1, 1, 2]
        );
    }

    #[test]
    fn segments_split_on_dashes_and_sentences() {
        let t = "flu shot near Leeds - Ana, 40. Thanks";
        let s: Vec<&str> = segments(t).iter().map(|r| &t[r.clone()]).collect();
        assert_eq!(s, ["flu shot near Leeds ", "- Ana, 40", ". Thanks"]);
        assert_eq!(segment_of(&segments(t), 0), Some(0));
    }

    #[test]
    fn unbalanced_brackets_do_not_panic() {
        assert_eq!(parts("a ) b ( c"), ["a ) b", "c"]);
        assert!(clauses("").is_empty());
    }

    #[test]
    fn japanese_punctuation_splits_clauses_and_sentences() {
        let t =
            "明日は私が出席します。田中さんは通院日で、奥さまも手術後なので、午前中は不在です。";
        assert_eq!(
            parts(t),
            [
                "明日は私が出席します",
                "田中さんは通院日で",
                "奥さまも手術後なので",
                "午前中は不在です"
            ]
        );
        let cl = clauses(t);
        assert_eq!(
            cl.iter().map(|c| c.sentence).collect::<Vec<_>>(),
            [0, 1, 1, 1]
        );
        assert!(is_ja_reason("奥さまも手術後なので"));
        // A reason particle with no comma after it ends its clause all the same.
        assert_eq!(
            parts("糖尿病のため薬を使用中"),
            ["糖尿病のため", "薬を使用中"]
        );
        // "ために" (in order to) is no reason.
        assert_eq!(parts("会議のために準備"), ["会議のために準備"]);
        let p = "東京駅（北口の改札）で待ち合わせ";
        assert_eq!(parts(p), ["東京駅", "北口の改札", "で待ち合わせ"]);
        assert!(clauses(p)[1].parenthetical);
    }

    #[test]
    fn nested_parentheticals_do_not_overlap() {
        assert_eq!(parts("a (b (c) d) e"), ["a", "b", "c", "d", "e"]);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]
        /// Clauses and segments are in order and disjoint, so a binary search finds the one
        /// holding a byte; the search agrees with a scan.
        #[test]
        fn clauses_are_ordered_disjoint_and_found_by_search(
            text in "[a-c ().,;:(\\-)\\[\\]é]{0,40}"
        ) {
            let cl = clauses(&text);
            for w in cl.windows(2) {
                proptest::prop_assert!(w[0].range.end <= w[1].range.start, "{:?}", cl);
            }
            let segs = segments(&text);
            for w in segs.windows(2) {
                proptest::prop_assert!(w[0].end <= w[1].start);
            }
            for at in 0..=text.len() {
                let scan = cl.iter().position(|c| c.range.start <= at && at < c.range.end);
                proptest::prop_assert_eq!(clause_of(&cl, at), scan);
                let scan = segs.iter().position(|r| r.start <= at && at < r.end);
                proptest::prop_assert_eq!(segment_of(&segs, at), scan);
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]
        /// The byte-wise splitters agree with the char-by-char ones on text of every kind:
        /// brackets, abbreviations, initials, ordinal dates, numbers, reason conjunctions,
        /// Japanese particles and punctuation, emoji, non-ASCII spaces and letters.
        #[test]
        fn byte_wise_splitters_agree_with_the_reference(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                " ", "  ", "\n", "\r", "\t", "\u{a0}", "\u{2003}", ".", ". ", "!", "?", ",", ";", ":", ": ",
                "|", "-", " - ", " – ", "—", "(", ")", "[", "]", "（", "）", "【", "】", "•",
                "、", "，", "；", "：", "。", "！", "？", "💙", "☀", "Dr", "dr", "St", "e.g", "Mr",
                "A", "J", "É", "10", "1", "2,5", "41,000", "Juni", "září", "am", "because",
                "Because", "since", "weil", "parce que", "parce qu'", "porque", "perché", "ya que",
                "omdat", "eftersom", "cause", "sincere", "car", "ので", "ため", "だから", "ために",
                "薬", "を", "は", "の", "で", "ら", "め", "から", "Ana", "ß", "K", "İ", "x", "word",
            ]), 0..24)
        ) {
            let text: String = parts.concat();
            proptest::prop_assert_eq!(clauses(&text), reference::clauses(&text));
            proptest::prop_assert_eq!(segments(&text), reference::segments(&text));
        }
    }
}
