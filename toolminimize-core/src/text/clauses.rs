//! Splits free text into clauses: the units a query's topic lives in and the units a message
//! loses when one of them carries data the tool does not need.
//!
//! Boundaries are sentence ends, `;`, `:`, `,` (not inside numbers), spaced dashes, `|`, line
//! breaks and parentheses (a parenthetical is a clause of its own); a reason conjunction
//! ("because", "weil", "parce que", "porque", "perché") or phrase of cause ("à cause de",
//! "a causa di", "wegen", "vanwege") starts a clause of its own, and so does a preposition
//! that gives a cause only before a noun phrase ("per una visita", "pour sa …", not "per
//! favore"); the words are data (`data/text/reasons.tsv`). Japanese
//! punctuation counts as well: `。！？` end a sentence with no space after them, `、，；：`
//! end a clause, `（）【】` enclose a parenthetical, and a reason, which Japanese states
//! before its consequence, ends its clause at its particle (`…の手術後なので`, `…のため`).
//! So do the marks of other scripts: the Arabic question mark `؟`, the Urdu full stop `۔`
//! and the Devanagari danda `।` end a sentence, the Arabic comma and semicolon `، ؛` a
//! clause; so do the Myanmar and Khmer full stops `။ ។`. Thai, Lao, Khmer and Myanmar write
//! the words of a phrase together and part phrases with a space: there a space between two
//! letters of the script ends a clause.

use std::ops::Range;
use std::sync::LazyLock;

use super::chars::char_before;
use super::markup::block_tag_len;

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
    // Street words written short before a name: Polish "ul." (ulica), "al." (aleja), "os."
    // (osiedle), "pl." (plac); Czech "nám." (náměstí), "tř." (třída); French "bd"; Italian
    // "p.za"; English "ln", "sq", "hwy", "pkwy", "apt", "ste".
    "ul", "al", "os", "pl", "nám", "tř", "bd", "p.za", "ln", "sq", "hwy", "pkwy", "apt", "ste",
    // "For example", "that is", "about", "and so on" written short in the other languages:
    // Polish "np.", "tj.", "tzn."; German "z.B.", "d.h.", "bzw.", "ca.", "usw.", "vgl.",
    // "ggf."; Spanish "p.ej."; Dutch "bijv.", "d.w.z."; Swedish "t.ex."; Danish and
    // Norwegian "f.eks.", "bl.a."; Czech "např.", "atd."; Finnish "esim.", "jne.".
    "np", "tj", "tzn", "z.b", "d.h", "bzw", "ca", "usw", "vgl", "ggf", "p.ej", "bijv", "d.w.z",
    "t.ex", "f.eks", "bl.a", "např", "atd", "esim", "jne",
    // "Because of", "until", "from", "so-called" in Swedish ("p.g.a.", "t.o.m.", "fr.o.m.",
    // "s.k."); "among others", "regarding" in Dutch ("o.a.", "m.b.t.") and German ("u.a.").
    "p.g.a", "t.o.m", "fr.o.m", "s.k", "o.a", "m.b.t", "u.a",
    // "Number", "article", "compare", "volume", "page" before what they head, in legal and
    // reference text: Italian, Spanish and Portuguese "n.", "art.", "cf.", "vol.", "pag.".
    "n", "art", "cf", "vol", "pag",
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// An ASCII character that is neither a boundary nor the first letter of a reason
    /// conjunction: stepped over.
    Skip,
    /// The first letter of a reason opener (see [`reason_len`]), and no boundary.
    ReasonStart,
    /// A boundary, a bracket or a non-ASCII character: decoded and read whole.
    Read,
}

/// ASCII characters that [`clauses`] reads as more than a letter: boundaries and brackets.
const CLAUSE_MARKS: &[u8] = b"([)].!?;|\n\r:,-<";

/// ASCII characters that [`segments`] reads as more than a letter.
const SEGMENT_MARKS: &[u8] = b"-|\n.!?:;<";

/// The class of every byte, for a splitter that reads `marks` (the first letters of reason
/// openers are added at run time, see [`Openers`]).
#[allow(clippy::indexing_slicing)] // evaluated at compile time: a bad index fails the build
const fn classes(marks: &[u8]) -> [Class; 256] {
    let mut t = [Class::Skip; 256];
    let mut b = 128;
    while b < 256 {
        t[b] = Class::Read;
        b += 1;
    }
    let mut m = 0;
    while m < marks.len() {
        t[marks[m] as usize] = Class::Read;
        m += 1;
    }
    t
}

const CLAUSE_MARKS_CLASS: [Class; 256] = classes(CLAUSE_MARKS);
const SEGMENT_CLASS: [Class; 256] = classes(SEGMENT_MARKS);

/// The class of byte `b` in `table`.
fn class_of(table: &[Class; 256], b: u8) -> Class {
    table.get(usize::from(b)).copied().unwrap_or(Class::Read)
}

/// Whether a block tag of HTML (`</p>`, `<br>`) follows the ASCII mark at byte `i`: the mark
/// ends its sentence as it does before a space.
fn tag_follows(text: &str, i: usize) -> bool {
    block_tag_len(text, i + 1).is_some()
}

/// Whether a block tag after the character `prev` starts a segment: not right after a
/// sentence's end or another tag, which cut there already (".</p><p>" is one cut).
fn tag_cuts(prev: Option<char>) -> bool {
    !matches!(prev, Some('>' | '.' | '!' | '?'))
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

/// Texts of at most this many bytes have their clauses remembered (see [`clauses`]).
const REMEMBERED_MAX: usize = 16 * 1024;

/// Texts whose clauses are remembered, per thread.
const REMEMBERED: usize = 4;

/// The last texts split on this thread and their clauses, most recent last.
type Remembered = std::cell::RefCell<Vec<(String, Vec<Clause>)>>;

/// Splits `text` into clauses.
///
/// The decision stage reads a text's clauses and the rewrite stage splits the same text
/// again to cut them: the clauses of the last few short texts split on the thread are
/// remembered and given again for an equal text.
pub fn clauses(text: &str) -> Vec<Clause> {
    thread_local! {
        static LAST: Remembered = const { std::cell::RefCell::new(Vec::new()) };
    }
    if text.len() > REMEMBERED_MAX {
        return split_clauses(text);
    }
    let known = LAST.with_borrow(|last| {
        last.iter()
            .find(|(t, _)| t.as_str() == text)
            .map(|(_, c)| c.clone())
    });
    if let Some(c) = known {
        return c;
    }
    let out = split_clauses(text);
    LAST.with_borrow_mut(|last| {
        if last.len() >= REMEMBERED {
            last.remove(0);
        }
        last.push((text.to_owned(), out.clone()));
    });
    out
}

/// [`clauses`], worked out.
fn split_clauses(text: &str) -> Vec<Clause> {
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
    let class = &OPENERS.class;
    let mut i = 0usize;
    while let Some(&b) = bytes.get(i) {
        match class_of(class, b) {
            Class::Skip => {
                i += 1;
                continue;
            }
            Class::ReasonStart => {
                // No boundary: at most the start of a reason clause, which is read past whole
                // (the "cause" of "à cause de" opens nothing of its own).
                let opener = (depth == 0).then(|| reason_at(text, i, start)).flatten();
                if let Some(len) = opener {
                    if i > start {
                        push(&mut out, start, i, false, sentence);
                        start = i;
                    }
                    i += len;
                } else {
                    i += 1;
                }
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
        // Thai, Lao, Khmer and Myanmar write words together and part phrases with a space:
        // a space between two letters of these scripts ends a clause.
        if depth == 0
            && next == Some(' ')
            && super::script::spaces_phrases(c)
            && text
                .get(i + c.len_utf8() + 1..)
                .and_then(|r| r.chars().next())
                .is_some_and(super::script::spaces_phrases)
        {
            let end = i + c.len_utf8();
            push(&mut out, start, end, false, sentence);
            start = end + 1;
            i = end + 1;
            continue;
        }
        // A text smiley before a space ends a sentence as an emoji does ("… in years :) The
        // key is …").
        let smiley = smiley_len(text, i);
        let boundary_len: Option<usize> = match c {
            _ if smiley.is_some() => smiley,
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
                let at_end = next.is_none_or(char::is_whitespace) || tag_follows(text, i);
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
                        // "am 20.11. erklärt", "den 3. april": a dotted date or ordinal
                        // that a lower-case word goes on after.
                        let dotted_number = !word.is_empty()
                            && word.chars().all(|d| d.is_ascii_digit() || d == '.')
                            && next_word(text, i + 1)
                                .and_then(|w| w.chars().next())
                                .is_some_and(char::is_lowercase);
                        // "Dra. Ferrer", "Dott. Bassi": a title before the name it heads.
                        let title = || {
                            next_word(text, i + 1)
                                .is_some_and(|w| w.starts_with(char::is_uppercase))
                                && super::titles::written_as_title(
                                    word,
                                    &super::fold::fold_term(word),
                                )
                        };
                        !abbrev && !initial && !ordinal_date && !dotted_number && !title()
                    });
                ends.then_some(c.len_utf8())
            }
            // Japanese sentence ends need no space after them.
            c if is_unspaced_full_stop(c) => Some(c.len_utf8()),
            // A paragraph or a line of HTML ends as a line does.
            '<' => block_tag_len(text, i),
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
        let opener = (depth == 0 && boundary_len.is_none())
            .then(|| reason_at(text, i, start))
            .flatten();
        if opener.is_some() && i > start {
            push(&mut out, start, i, false, sentence);
            start = i;
        }
        // A Japanese reason ends at its particle: "糖尿病のため" | "インスリンを使用中".
        if boundary_len.is_none()
            && depth == 0
            && (ends_ja_reason(text, i, c) || ends_ko_reason(text, i, c))
        {
            let end = i + c.len_utf8();
            push(&mut out, start, end, false, sentence);
            start = end;
        }
        if let Some(len) = boundary_len {
            if depth == 0 {
                push(&mut out, start, i, false, sentence);
                start = i + len;
                if matches!(c, '.' | '!' | '?' | '\n' | '<')
                    || is_unspaced_full_stop(c)
                    || is_pictograph(c)
                    || smiley.is_some()
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
        // A tag is read past whole: its attributes part nothing.
        let tag = boundary_len.filter(|_| c == '<');
        i += opener.or(tag).unwrap_or(c.len_utf8()).max(c.len_utf8());
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

/// Korean endings that close a reason clause ("투석이 있어서", "회의 때문에", "아프니까"): as
/// in Japanese, the reason comes first and ends with its connective, here at the end of a
/// word.
const KO_REASON: &[&str] = &["때문에", "어서", "아서", "해서", "니까", "라서"];

/// Whether a clause is a reason stated before what it explains: it ends with a Japanese
/// reason particle or a Korean reason ending.
pub fn ends_with_reason(clause: &str) -> bool {
    let t = clause.trim_end();
    JA_REASON.iter().any(|p| t.ends_with(p)) || ends_ko_reason_word(t)
}

/// Whether `head` ends with a word of two syllables or more that ends with a Korean reason
/// ending (not the ending alone: "어서 오세요" welcomes), or with "때문에" after a noun.
fn ends_ko_reason_word(head: &str) -> bool {
    KO_REASON.iter().any(|e| {
        head.strip_suffix(e).is_some_and(|before| {
            let before = if *e == "때문에" {
                before.trim_end()
            } else {
                before
            };
            before
                .chars()
                .next_back()
                .is_some_and(crate::text::script::is_hangul)
        })
    })
}

/// Whether the character `c` at byte `i` ends a word that closes a Korean reason clause, with
/// more text after the space that follows.
fn ends_ko_reason(text: &str, i: usize, c: char) -> bool {
    if !matches!(c, '에' | '서' | '까') {
        return false;
    }
    let end = i + c.len_utf8();
    let (Some(head), Some(rest)) = (text.get(..end), text.get(end..)) else {
        return false;
    };
    let mut after = rest.chars();
    after.next().is_some_and(|c| c == ' ')
        && after.next().is_some_and(char::is_alphanumeric)
        && ends_ko_reason_word(head)
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
    matches!(c, '。' | '！' | '？' | '؟' | '।' | '۔' | '။' | '។')
}

/// The length of a text smiley at byte `i` (`:)`, `:-)`, `;)`, `:(`, `:))`) when a space or
/// the end of the text follows it.
#[inline]
pub fn smiley_len(text: &str, i: usize) -> Option<usize> {
    let b = text.as_bytes();
    if !matches!(b.get(i), Some(b':' | b';')) {
        return None;
    }
    let mut j = i + 1;
    if b.get(j) == Some(&b'-') {
        j += 1;
    }
    let mouth = *b.get(j).filter(|m| matches!(m, b')' | b'('))?;
    while b.get(j) == Some(&mouth) {
        j += 1;
    }
    b.get(j)
        .is_none_or(|n| n.is_ascii_whitespace())
        .then_some(j - i)
}

/// Emoji and pictographs (they end sentences in chat text).
fn is_pictograph(c: char) -> bool {
    matches!(c, '\u{1F300}'..='\u{1FAFF}' | '\u{2600}'..='\u{27BF}' | '\u{1F000}'..='\u{1F2FF}')
}

/// The words that open a reason clause, by kind (`data/text/reasons.tsv`).
const REASONS: &str = include_str!("../../data/text/reasons.tsv");

/// When a word of [`REASONS`] opens a clause.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opens {
    /// Wherever it stands after a space: a conjunction or a phrase of cause ("because",
    /// "à cause de", "wegen").
    Always,
    /// Only before a determiner of its language: a preposition that also means "for" or
    /// "by" ("per una visita" opens a reason, "per favore" does not).
    BeforeDeterminer,
    /// Only before a follower of its language: a consequence word without a comma before it
    /// ("… pregnant so no raw fish please" splits, "so much" and "so that" do not). The
    /// clause it opens is the news the reason before it explains, not a reason.
    BeforeFollower,
    /// Only before a subject word of its language: a conjunction that is an everyday word
    /// of another language (French "car", Dutch "want"): "car je suis …" opens a reason,
    /// "my car is" does not.
    BeforeSubject,
}

/// One word or phrase that opens a reason clause, lower-cased.
#[derive(Debug)]
struct Opener {
    text: String,
    opens: Opens,
    /// A prepositional phrase ("wegen", "à cause de", "per una"), not a conjunction: the
    /// clause it opens may go on with the words of the clause it interrupts.
    phrase: bool,
    /// Index into [`Openers::langs`] of the term's language.
    lang: usize,
    /// The term's second byte, ASCII lower-cased: a text whose second byte differs is not
    /// compared further.
    second: Option<u8>,
}

/// The words of one language that tell a noun phrase after a preposition of cause.
#[derive(Debug, Default)]
struct PhraseWords {
    /// The language's code.
    name: String,
    /// Articles and third persons' possessives, lower-cased.
    determiners: Vec<String>,
    /// Possessives of the speaker and the reader, lower-cased.
    personal: Vec<String>,
    /// Words that open a request after a consequence word ("no", "please", "can"),
    /// lower-cased.
    followers: Vec<String>,
    /// Words that open a clause's subject after a guarded conjunction ("je", "ik", "mon"),
    /// lower-cased.
    subjects: Vec<String>,
}

/// The words that open a reason clause, indexed for the splitter.
#[derive(Debug)]
struct Openers {
    /// Per lower-cased first byte: the openers that start with it.
    by_first: Vec<Vec<Opener>>,
    /// Per language: the words that tell a noun phrase after a preposition.
    langs: Vec<PhraseWords>,
    /// How [`clauses`] reads each byte: boundaries and the first letters of openers.
    class: [Class; 256],
}

static OPENERS: LazyLock<Openers> = LazyLock::new(|| load_openers(REASONS));

/// Reads a table of `kind<TAB>lang<TAB>terms` lines (see `data/text/reasons.tsv`). A term
/// is indexed as written (lower case) and folded (no diacritics).
fn load_openers(table: &str) -> Openers {
    let mut o = Openers {
        by_first: (0..256).map(|_| Vec::new()).collect(),
        langs: Vec::new(),
        class: CLAUSE_MARKS_CLASS,
    };
    for line in table.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let [kind, lang, terms] = cols.as_slice() else {
            continue;
        };
        let lang = lang_index(&mut o.langs, lang.trim());
        let (opens, phrase) = match kind.trim() {
            "conjunction" => (Opens::Always, false),
            "cause" => (Opens::Always, true),
            "preposition" => (Opens::BeforeDeterminer, true),
            "consequence" => (Opens::BeforeFollower, false),
            "guarded" => (Opens::BeforeSubject, false),
            "determiner" | "personal" | "follower" | "subject" => {
                if let Some(words) = o.langs.get_mut(lang) {
                    let list = match kind.trim() {
                        "determiner" => &mut words.determiners,
                        "personal" => &mut words.personal,
                        "subject" => &mut words.subjects,
                        _ => &mut words.followers,
                    };
                    list.extend(term_forms(terms));
                }
                continue;
            }
            _ => continue,
        };
        for text in term_forms(terms) {
            add_opener(
                &mut o,
                Opener {
                    second: text.as_bytes().get(1).map(u8::to_ascii_lowercase),
                    text,
                    opens,
                    phrase,
                    lang,
                },
            );
        }
    }
    o
}

/// The index of `lang` in `langs`, added when new.
fn lang_index(langs: &mut Vec<PhraseWords>, lang: &str) -> usize {
    if let Some(i) = langs.iter().position(|l| l.name == lang) {
        return i;
    }
    langs.push(PhraseWords {
        name: lang.to_owned(),
        ..PhraseWords::default()
    });
    langs.len() - 1
}

/// The comma-separated terms of a line, each lower-cased and folded (both forms when they
/// differ: "perché" and "perche"); a term that ends in an apostrophe also ends in the
/// typographic one ("l’", "parce qu’"), and one whose first letter is not ASCII also starts
/// with its capital ("À cause de", which ASCII case folding does not reach).
fn term_forms(terms: &str) -> Vec<String> {
    let mut out = Vec::new();
    for t in terms.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let lower = t.to_lowercase();
        let folded = super::fold::fold_term(t);
        if !folded.is_empty() && folded != lower {
            out.push(folded);
        }
        if let Some(stem) = lower.strip_suffix('\'') {
            out.push(format!("{stem}\u{2019}"));
        }
        let mut chars = lower.chars();
        if let Some(first) = chars.next().filter(|c| !c.is_ascii()) {
            let capital: String = first.to_uppercase().chain(chars).collect();
            if capital != lower {
                out.push(capital);
            }
        }
        out.push(lower);
    }
    out
}

/// Indexes `opener` by its first byte; an ASCII first letter, in either case, becomes a
/// byte [`clauses`] stops at (unless it already reads it as a boundary).
fn add_opener(o: &mut Openers, opener: Opener) {
    let Some(&first) = opener.text.as_bytes().first() else {
        return;
    };
    if first.is_ascii() {
        for b in [first.to_ascii_lowercase(), first.to_ascii_uppercase()] {
            if let Some(slot) = o.class.get_mut(usize::from(b))
                && *slot == Class::Skip
            {
                *slot = Class::ReasonStart;
            }
        }
    }
    if let Some(list) = o.by_first.get_mut(usize::from(first)) {
        list.push(opener);
    }
}

/// Whether `rest` starts with `term` (ASCII letters in any case) followed by a space, or
/// `term` ends with an apostrophe ("parce qu'") or in a script written without spaces
/// ("因为").
fn starts_with_term(rest: &str, term: &str) -> bool {
    rest.as_bytes()
        .get(..term.len())
        .is_some_and(|h| h.eq_ignore_ascii_case(term.as_bytes()))
        && (term.ends_with(['\'', '\u{2019}'])
            || term
                .chars()
                .next_back()
                .is_some_and(crate::text::script::is_unspaced)
            || rest
                .get(term.len()..)
                .and_then(|t| t.chars().next())
                .is_some_and(char::is_whitespace))
}

/// The length of the reason opener `rest` starts with (bytes), if any: a conjunction or a
/// phrase of cause, or a preposition of cause before a determiner of its language.
fn reason_len(rest: &str) -> Option<usize> {
    opener_at(rest).map(|op| op.text.len())
}

/// The reason opener `rest` starts with, if any.
fn opener_at(rest: &str) -> Option<&'static Opener> {
    let o = &*OPENERS;
    let first = rest.as_bytes().first()?.to_ascii_lowercase();
    let second = rest.as_bytes().get(1).map(u8::to_ascii_lowercase);
    o.by_first.get(usize::from(first))?.iter().find(|op| {
        (op.second.is_none() || op.second == second)
            && starts_with_term(rest, &op.text)
            && match op.opens {
                Opens::Always => true,
                Opens::BeforeDeterminer => determiner_follows(o, op, rest),
                Opens::BeforeFollower => word_follows(o, op, rest, |w| &w.followers),
                Opens::BeforeSubject => word_follows(o, op, rest, |w| &w.subjects),
            }
    })
}

/// Whether a word of `op`'s language from the list `list` picks (its followers or its
/// subjects) comes right after `op` at the start of `rest`.
fn word_follows(
    o: &Openers,
    op: &Opener,
    rest: &str,
    list: impl Fn(&PhraseWords) -> &Vec<String>,
) -> bool {
    let after = rest.get(op.text.len()..).unwrap_or_default();
    let next = after.trim_start();
    next.len() < after.len()
        && o.langs
            .get(op.lang)
            .is_some_and(|w| list(w).iter().any(|f| starts_with_term(next, f)))
}

/// Whether a determiner of `op`'s language follows `op` at the start of `rest`, and no
/// possessive of the speaker or the reader follows that ("per la mia …").
fn determiner_follows(o: &Openers, op: &Opener, rest: &str) -> bool {
    let Some(words) = o.langs.get(op.lang) else {
        return false;
    };
    let after = rest.get(op.text.len()..).unwrap_or_default().trim_start();
    let Some(det) = words
        .determiners
        .iter()
        .find(|d| starts_with_term(after, d))
    else {
        return false;
    };
    let next = after.get(det.len()..).unwrap_or_default().trim_start();
    !words.personal.iter().any(|p| starts_with_term(next, p))
}

/// The length of the reason opener at byte `i` of `text` (bytes), if a word starts there:
/// `i` starts the clause or follows a space.
fn reason_at(text: &str, i: usize, start: usize) -> Option<usize> {
    if i != start && !char_before(text, i).is_some_and(char::is_whitespace) {
        return None;
    }
    reason_len(text.get(i..)?)
}

/// Whether `clause` opens with a reason opener ("because …", "a causa della …", "per una
/// visita …"): it gives a reason.
pub fn opens_reason(clause: &str) -> bool {
    // A consequence word ends the clause before it and opens no reason.
    opener_at(clause.trim_start()).is_some_and(|op| op.opens != Opens::BeforeFollower)
}

/// How far before a span [`cause_phrase_before`] looks for the start of a phrase of cause
/// (bytes): longer than any phrase of the table with the words that may follow it.
const CAUSE_LOOK_BACK: usize = 32;

/// Where a phrase of cause that leads into a span begins ("wegen" of "wegen meiner Migräne",
/// "à cause" of "à cause de sa …"): the phrase, with only the words from `words_from` on
/// (the span's own function words) between it and `at`, where the span's core starts. A cut
/// span takes such a phrase with it; left behind, it is debris ("ich komme wegen morgen").
pub fn cause_phrase_before(text: &str, words_from: usize, at: usize) -> Option<usize> {
    let mut p = words_from.saturating_sub(CAUSE_LOOK_BACK);
    while !text.is_char_boundary(p) {
        p += 1;
    }
    let head = text.get(p..at)?;
    head.char_indices()
        .map(|(k, _)| p + k)
        .filter(|&q| q == 0 || char_before(text, q).is_some_and(char::is_whitespace))
        .find(|&q| {
            let rest = text.get(q..at).unwrap_or_default();
            opener_at(rest).is_some_and(|op| {
                let after = q + op.text.len();
                let gap = text.get(after..at).unwrap_or_default();
                let next = at - gap.trim_start().len();
                op.phrase && q <= words_from && words_from <= next
            })
        })
}

/// Whether `clause` opens with a prepositional phrase of cause ("wegen meiner …", "por la
/// …"), not a conjunction: what follows its noun phrase may still be the interrupted
/// clause's own ("ich komme wegen … morgen später").
pub fn opens_cause_phrase(clause: &str) -> bool {
    opener_at(clause.trim_start()).is_some_and(|op| op.phrase)
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
        // A text smiley ends its segment after it, as it ends a sentence.
        if let Some(n) = smiley_len(text, i) {
            out.push(start..i + n);
            start = i + n;
            i += n;
            continue;
        }
        let prev = char_before(text, i);
        // A block tag, read once: whether it cuts and how far it reaches.
        let tag = if c == '<' {
            block_tag_len(text, i)
        } else {
            None
        };
        let cut = match c {
            '-' | '–' | '—' | '|' => {
                prev.is_some_and(char::is_whitespace) && next.is_none_or(char::is_whitespace)
            }
            '\n' => true,
            c if is_unspaced_full_stop(c) => true,
            '.' | '!' | '?' => {
                (next.is_none_or(char::is_whitespace) || tag_follows(text, i))
                    && !is_abbreviation(prev_word(text, i))
            }
            '<' => tag.is_some() && tag_cuts(prev),
            _ => false,
        };
        if cut {
            if start < i {
                out.push(start..i);
            }
            start = i;
        }
        // A tag is read past whole: its attributes part nothing.
        i += tag.unwrap_or(c.len_utf8());
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
        let mut skip_until = 0usize;
        while let Some((i, c)) = it.next() {
            if i < skip_until {
                prev = Some(c);
                continue;
            }
            let next = it.peek().map(|&(_, n)| n);
            if depth == 0
                && next == Some(' ')
                && crate::text::script::spaces_phrases(c)
                && text
                    .get(i + c.len_utf8() + 1..)
                    .and_then(|r| r.chars().next())
                    .is_some_and(crate::text::script::spaces_phrases)
            {
                let end = i + c.len_utf8();
                push(&mut out, start, end, false, sentence);
                start = end + 1;
                skip_until = end + 1;
                prev = Some(c);
                continue;
            }
            let smiley = smiley_len(text, i);
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
                    let at_end = next.is_none_or(char::is_whitespace) || tag_follows(text, i);
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
                    // "am 20.11. erklärt": a dotted number a lower-case word goes on after.
                    let word = prev_word(text, i);
                    let dotted_number = c == '.'
                        && !word.is_empty()
                        && word.chars().all(|d| d.is_ascii_digit() || d == '.')
                        && next_word(text, i + 1)
                            .and_then(|w| w.chars().next())
                            .is_some_and(char::is_lowercase);
                    if at_end && !abbrev && !initial && !ordinal_date && !dotted_number {
                        Some(c.len_utf8())
                    } else {
                        None
                    }
                }
                _ if smiley.is_some() => smiley,
                // Japanese sentence ends need no space after them.
                '。' | '！' | '？' | '؟' | '।' | '۔' | '။' | '។' => Some(c.len_utf8()),
                ';' | '|' | '\n' | '\r' | '•' | '、' | '，' | '；' | '：' | '،' | '؛' => {
                    Some(c.len_utf8())
                }
                '<' => block_tag_len(text, i),
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
            // can lose its reason and keep its news; the opener is read past whole.
            if depth == 0
                && let Some(len) = reason_at(text, i, start)
            {
                if i > start {
                    push(&mut out, start, i, false, sentence);
                    start = i;
                }
                skip_until = i + len;
            }
            // A Japanese reason ends at its particle: "糖尿病のため" | "インスリンを使用中".
            if boundary_len.is_none()
                && depth == 0
                && (ends_ja_reason(text, i, c) || ends_ko_reason(text, i, c))
            {
                let end = i + c.len_utf8();
                push(&mut out, start, end, false, sentence);
                start = end;
            }
            if let Some(len) = boundary_len {
                if c == '<' {
                    skip_until = i + len;
                }
                if depth == 0 {
                    push(&mut out, start, i, false, sentence);
                    start = i + len;
                    if matches!(
                        c,
                        '.' | '!'
                            | '?'
                            | '。'
                            | '！'
                            | '？'
                            | '؟'
                            | '।'
                            | '۔'
                            | '။'
                            | '។'
                            | '\n'
                            | '<'
                    ) || is_pictograph(c)
                        || smiley.is_some()
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
        let mut skip_until = 0usize;
        while let Some((i, c)) = it.next() {
            let next = it.peek().map(|&(_, n)| n);
            if i < skip_until {
                prev = Some(c);
                continue;
            }
            if let Some(n) = smiley_len(text, i) {
                out.push(start..i + n);
                start = i + n;
                skip_until = i + n;
                prev = Some(c);
                continue;
            }
            let tag = if c == '<' {
                block_tag_len(text, i)
            } else {
                None
            };
            let cut = match c {
                '-' | '–' | '—' | '|' => {
                    prev.is_some_and(char::is_whitespace) && next.is_none_or(char::is_whitespace)
                }
                '\n' | '。' | '！' | '？' | '؟' | '।' | '۔' | '။' | '។' => true,
                '.' | '!' | '?' => {
                    (next.is_none_or(char::is_whitespace) || tag_follows(text, i))
                        && !ABBREVIATIONS.contains(&prev_word(text, i).to_lowercase().as_str())
                }
                '<' => tag.is_some() && tag_cuts(prev),
                _ => false,
            };
            if let Some(len) = tag {
                skip_until = i + len;
            }
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
    fn a_space_between_thai_phrases_ends_a_clause() {
        let text = "พรุ่งนี้ผมไปไม่ได้ ขอโทษด้วยครับ เลขบัตร 1-2345";
        let parts: Vec<&str> = super::clauses(text)
            .iter()
            .filter_map(|c| text.get(c.range.clone()))
            .collect();
        assert_eq!(parts, ["พรุ่งนี้ผมไปไม่ได้", "ขอโทษด้วยครับ", "เลขบัตร 1-2345"]);
    }

    #[test]
    fn reason_table_parses_and_every_opener_starts_with_a_letter() {
        let mut kinds = 0;
        for line in REASONS
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(cols.len(), 3, "{line}");
            assert!(
                [
                    "conjunction",
                    "cause",
                    "preposition",
                    "determiner",
                    "personal",
                    "consequence",
                    "follower",
                    "guarded",
                    "subject"
                ]
                .contains(&cols[0]),
                "{line}"
            );
            kinds += 1;
        }
        assert!(kinds > 0);
        let o = &*OPENERS;
        assert!(o.by_first.iter().flatten().all(|op| {
            op.text.chars().next().is_some_and(char::is_alphabetic)
                && match op.opens {
                    Opens::Always => true,
                    Opens::BeforeDeterminer => o
                        .langs
                        .get(op.lang)
                        .is_some_and(|l| !l.determiners.is_empty()),
                    Opens::BeforeFollower => o
                        .langs
                        .get(op.lang)
                        .is_some_and(|l| !l.followers.is_empty()),
                    Opens::BeforeSubject => {
                        o.langs.get(op.lang).is_some_and(|l| !l.subjects.is_empty())
                    }
                }
        }));
    }

    #[test]
    fn a_consequence_word_before_a_request_ends_the_clause_and_opens_no_reason() {
        assert_eq!(
            parts("I'm 20 weeks pregnant so no raw fish please"),
            ["I'm 20 weeks pregnant", "so no raw fish please"]
        );
        assert_eq!(
            parts("my son is allergic to nuts so please check the sauce"),
            ["my son is allergic to nuts", "so please check the sauce"]
        );
        assert!(!opens_reason("so no raw fish please"));
        // "so" as an adverb or before a purpose splits nothing.
        assert_eq!(
            parts("thanks so much for the help"),
            ["thanks so much for the help"]
        );
        assert_eq!(
            parts("come early so that we can talk"),
            ["come early so that we can talk"]
        );
        assert_eq!(
            parts("I'm so sorry I missed it"),
            ["I'm so sorry I missed it"]
        );
    }

    #[test]
    fn a_phrase_of_cause_opens_its_clause_whole() {
        assert_eq!(
            parts("mon fils sera absent demain à cause de sa chimiothérapie"),
            [
                "mon fils sera absent demain",
                "à cause de sa chimiothérapie"
            ]
        );
        assert_eq!(
            parts("À cause de la grève, je serai en retard"),
            ["À cause de la grève", "je serai en retard"]
        );
        assert_eq!(
            parts("mijn zoon is morgen afwezig vanwege een operatie"),
            ["mijn zoon is morgen afwezig", "vanwege een operatie"]
        );
        assert_eq!(
            parts("meine Tochter fehlt heute aufgrund einer Erkältung"),
            ["meine Tochter fehlt heute", "aufgrund einer Erkältung"]
        );
        assert!(opens_reason("a causa della febbre"));
        assert!(opens_reason("Debido a su tratamiento"));
        assert!(opens_reason("per una visita"));
        assert!(opens_reason("z powodu chemioterapii"));
        assert!(opens_reason("på grund av behandlingen"));
        assert!(opens_reason("из-за химиотерапии"));
        assert!(opens_reason("بسبب العلاج"));
        assert!(opens_reason("בגלל הטיפול"));
        assert!(!opens_reason("per favore"));
        assert!(opens_cause_phrase("wegen seiner Chemotherapie"));
        let t = "ich komme wegen meiner Migräne morgen";
        let (words, core) = (t.find("wegen").unwrap(), t.find("Migräne").unwrap());
        assert_eq!(cause_phrase_before(t, words, core), Some(words));
        let t = "absent à cause de sa grippe";
        let (words, core) = (t.find("de sa").unwrap(), t.find("grippe").unwrap());
        assert_eq!(cause_phrase_before(t, words, core), t.find('à'));
        let t = "ich komme mit meiner Migräne";
        let (words, core) = (t.find("meiner").unwrap(), t.find("Migräne").unwrap());
        assert_eq!(cause_phrase_before(t, words, core), None);
        assert!(!opens_cause_phrase("weil er krank ist"));
    }

    #[test]
    fn a_preposition_of_cause_opens_a_clause_only_before_a_determiner() {
        assert_eq!(
            parts("mio figlio sarà assente domani per una visita"),
            ["mio figlio sarà assente domani", "per una visita"]
        );
        assert_eq!(
            parts("ma fille sera absente jeudi pour sa rééducation"),
            ["ma fille sera absente jeudi", "pour sa rééducation"]
        );
        assert_eq!(
            parts("ha saltato la lezione per l’influenza"),
            ["ha saltato la lezione", "per l’influenza"]
        );
        for text in [
            "vorrei un posto per mia figlia a settembre",
            "je cherche une place pour ma fille en septembre",
            "prenoto una visita per il mio bambino",
            "mi puoi mandare per favore il modulo",
            "¿Me lo puede enviar por favor?",
            "merci de me l'envoyer pour info",
            "it costs ten euros per person per day",
        ] {
            assert_eq!(clauses(text).len(), 1, "{text}");
        }
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
        assert_eq!(
            parts("beim Standesamt am 20.11. erklärt. Danke"),
            ["beim Standesamt am 20.11. erklärt", "Danke"]
        );
        assert_eq!(parts("well-known co-pay"), ["well-known co-pay"]);
        // A title before the name it heads.
        assert_eq!(
            parts("Mitad sesión Dra. Ferrer"),
            ["Mitad sesión Dra. Ferrer"]
        );
        // "For example" written short in other languages.
        assert_eq!(
            parts("leki np. aspiryna na ból"),
            ["leki np. aspiryna na ból"]
        );
        assert_eq!(
            parts("Obst z.B. Äpfel und Birnen"),
            ["Obst z.B. Äpfel und Birnen"]
        );
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
        // French "car" and Dutch "want" open a reason before a subject of their language.
        assert_eq!(
            parts("je viendrai plus tard car j'ai une séance de dialyse"),
            ["je viendrai plus tard", "car j'ai une séance de dialyse"]
        );
        assert_eq!(
            parts("ik kom later want ik heb een afspraak"),
            ["ik kom later", "want ik heb een afspraak"]
        );
        assert_eq!(
            parts("I want it back in my car today"),
            ["I want it back in my car today"]
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
    fn html_block_tags_end_sentences_and_are_in_no_clause() {
        let t = "<p>Lunch at noon.</p><p>I am late, sorry</p><br/>Bo <b>here</b>";
        assert_eq!(
            parts(t),
            ["Lunch at noon", "I am late", "sorry", "Bo <b>here</b>"]
        );
        let sentences: Vec<usize> = clauses(t).iter().map(|c| c.sentence).collect();
        assert!(sentences.windows(2).all(|w| w[0] <= w[1]));
        assert_ne!(sentences.get(1), sentences.get(3));
        assert_eq!(
            segments("a.</p><p>b").len(),
            2,
            "a full stop before a tag ends its segment"
        );
        // Attributes are read past: their commas part nothing.
        assert_eq!(parts("<div class=\"a, b\">Hi there</div>"), ["Hi there"]);
    }

    #[test]
    fn swedish_and_dutch_abbreviations_do_not_end_sentences() {
        assert_eq!(clauses("Borta t.o.m. fredag, sedan tillbaka").len(), 2);
        assert_eq!(parts("Sjuk p.g.a. feber"), ["Sjuk", "p.g.a. feber"]);
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
        assert!(ends_with_reason("奥さまも手術後なので"));
        // A reason particle with no comma after it ends its clause all the same.
        assert_eq!(
            parts("糖尿病のため薬を使用中"),
            ["糖尿病のため", "薬を使用中"]
        );
        // "ために" (in order to) is no reason.
        assert_eq!(parts("会議のために準備"), ["会議のために準備"]);
        // Korean closes a reason with an ending at the end of a word.
        assert_eq!(
            parts("내일 투석이 있어서 20분 늦어요"),
            ["내일 투석이 있어서", "20분 늦어요"]
        );
        assert!(ends_with_reason("회의 때문에"));
        assert!(!ends_with_reason("어서"));
        assert_eq!(parts("어서 오세요"), ["어서 오세요"]);
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
                "ผม", "ไป", "ครับ", "។", "ក", "။",
            ]), 0..24)
        ) {
            let text: String = parts.concat();
            proptest::prop_assert_eq!(clauses(&text), reference::clauses(&text));
            proptest::prop_assert_eq!(segments(&text), reference::segments(&text));
        }
    }
}
