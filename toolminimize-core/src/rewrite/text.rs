//! Edits inside free text: cutting spans and clauses with their labels and leading function
//! words, replacing spans, and tidying the punctuation left behind so the text stays readable.

use std::ops::Range;

use crate::text::fold::fold_term;

/// One edit: replace `range` with `with` (empty = removal).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// Byte range in the original text.
    pub range: Range<usize>,
    /// Replacement.
    pub with: String,
    /// For a removal that took function words on its left: where the data itself starts. When
    /// the text goes on after the cut, those words stay ("near [the clinic] Tulsa").
    pub core_start: usize,
}

impl Edit {
    /// A removal.
    pub fn remove(range: Range<usize>) -> Self {
        Edit {
            core_start: range.start,
            range,
            with: String::new(),
        }
    }
    /// A removal of `core` that may take its left context from `range.start`.
    pub fn remove_with_context(range: Range<usize>, core_start: usize) -> Self {
        Edit {
            core_start: core_start.clamp(range.start, range.end),
            range,
            with: String::new(),
        }
    }
    /// A replacement.
    pub fn replace(range: Range<usize>, with: impl Into<String>) -> Self {
        Edit {
            core_start: range.start,
            range,
            with: with.into(),
        }
    }
}

/// Words that name the identifier that follows them ("SSN 123…", "Tel.: …", "DOB …").
const LABELS: &[&str] = &[
    "ssn",
    "social security",
    "social security number",
    "dob",
    "d.o.b",
    "born",
    "date of birth",
    "birthday",
    "phone",
    "tel",
    "tel.",
    "telephone",
    "mobile",
    "cell",
    "call me at",
    "call me on",
    "email",
    "e-mail",
    "mail",
    "ip",
    "ip address",
    "mac",
    "passport",
    "passport no",
    "passport number",
    "id",
    "id number",
    "national id",
    "licence",
    "license",
    "card",
    "card number",
    "credit card",
    "iban",
    "account",
    "account number",
    "acct",
    "routing",
    "pin",
    "password",
    "pw",
    "token",
    "api key",
    "mrn",
    "patient id",
    "member",
    "nhs number",
    "nino",
    "tax id",
    "ein",
    "telefon",
    "handy",
    "geb.",
    "geboren",
    "geburtsdatum",
    "reisepass",
    "ausweis",
    "steuer-id",
    "steuernummer",
    "konto",
    "kontonummer",
    "telephone",
    "tél",
    "tél.",
    "portable",
    "né le",
    "nee le",
    "née le",
    "date de naissance",
    "passeport",
    "carte",
    "compte",
    "numero",
    "n°",
    "nir",
    "securite sociale",
    "teléfono",
    "telefono",
    "móvil",
    "movil",
    "cel",
    "nacido el",
    "nacida el",
    "fecha de nacimiento",
    "pasaporte",
    "dni",
    "nie",
    "cuenta",
    "tarjeta",
    "nato il",
    "nata il",
    "data di nascita",
    "passaporto",
    "codice fiscale",
    "cellulare",
    "conto",
    "ending",
    "ending in",
    "personnummer",
    "pnr",
    "bsn",
    "cpf",
    "rg",
    "pesel",
    "nif",
    "nss",
    "cpr",
    "cpr-nr",
    "fodselsnummer",
    "personnr",
    "rodne cislo",
    "ppsn",
    "ahv",
    "tckn",
    "kimlik no",
    "sozialversicherungsnummer",
    "burgerservicenummer",
    "at",
];

/// Function words a cut span takes with it on its left ("for my", "at the", "bei der").
const LEFT_FUNCTION_WORDS: &[&str] = &[
    "my",
    "his",
    "her",
    "their",
    "our",
    "your",
    "the",
    "a",
    "an",
    "at",
    "for",
    "with",
    "from",
    "of",
    "on",
    "in",
    "to",
    "after",
    "before",
    "near",
    "because",
    "due",
    "by",
    "about",
    "regarding",
    "re",
    "and",
    "also",
    "has",
    "had",
    "have",
    "is",
    "was",
    "am",
    "are",
    "being",
    "getting",
    "got",
    "having",
    "suffers",
    "suffering",
    "diagnosed",
    "mi",
    "mis",
    "tu",
    "tus",
    "su",
    "sus",
    "de",
    "del",
    "la",
    "el",
    "los",
    "las",
    "en",
    "con",
    "por",
    "para",
    "despues",
    "tras",
    "y",
    "mon",
    "ma",
    "mes",
    "son",
    "sa",
    "ses",
    "le",
    "les",
    "du",
    "des",
    "a",
    "au",
    "aux",
    "pour",
    "avec",
    "apres",
    "et",
    "suis",
    "est",
    "mein",
    "meine",
    "meinen",
    "meinem",
    "meiner",
    "sein",
    "seine",
    "ihr",
    "ihre",
    "der",
    "die",
    "das",
    "dem",
    "den",
    "im",
    "am",
    "zum",
    "zur",
    "beim",
    "bei",
    "fur",
    "mit",
    "nach",
    "wegen",
    "und",
    "il",
    "lo",
    "gli",
    "di",
    "della",
    "dello",
    "per",
    "dopo",
    "mio",
    "mia",
    "miei",
    "mie",
    "suo",
    "sua",
    "e",
    "al",
    "alla",
    "nel",
    "nella",
    "sono",
    "ho",
    "ha",
    "un",
    "una",
    "uno",
    "ein",
    "eine",
    "einen",
    "einer",
    "une",
    "from",
    "since",
];

/// Longest stretch read back for a word (bytes): labels and function words are short, and
/// the bound keeps the work per removal constant however long the text.
const MAX_WORD_LOOK_BACK: usize = 64;

fn word_before(text: &str, end: usize) -> Option<(usize, &str)> {
    let mut from = end.saturating_sub(MAX_WORD_LOOK_BACK);
    while from < end && !text.is_char_boundary(from) {
        from += 1;
    }
    let head = text.get(from..end)?;
    let trimmed = head.trim_end();
    let stop = trimmed.len();
    let start = trimmed
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_alphanumeric() || matches!(c, '.' | '\'' | '’' | '°' | '-')))
        .map(|(i, c)| i + c.len_utf8());
    let start = match start {
        Some(i) => i,
        // The word runs past what is read: no short word here.
        None if from > 0 => return None,
        None => 0,
    };
    let w = trimmed.get(start..stop)?;
    if w.is_empty() {
        None
    } else {
        Some((from + start, w))
    }
}

/// Extends a span leftwards over an identifier label ("SSN", "Tel.:") and over function words.
pub fn removal_range(text: &str, span: Range<usize>) -> Range<usize> {
    let mut start = label_start(text, span.start);
    // Function words.
    for _ in 0..4 {
        match word_before(text, start) {
            Some((ws, w)) if LEFT_FUNCTION_WORDS.contains(&fold_term(w).as_str()) => start = ws,
            _ => break,
        }
    }
    start..span.end
}

/// Where the identifier label before `start` begins ("SSN", "Tel.:", "date of birth"), or
/// `start` when there is none.
pub fn label_start(text: &str, start: usize) -> usize {
    let mut start = start;
    // Labels, possibly two words ("date of birth"), with ':' '#' '-' between.
    for _ in 0..3 {
        let mut from = start.saturating_sub(MAX_WORD_LOOK_BACK);
        while from < start && !text.is_char_boundary(from) {
            from += 1;
        }
        let head = text.get(from..start).unwrap_or_default();
        let stripped =
            head.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, ':' | '#' | '='));
        let mut matched = false;
        for words in [3usize, 2, 1] {
            let mut s = stripped.len();
            let mut ok = true;
            for _ in 0..words {
                match word_before(stripped, s) {
                    Some((ws, _)) => s = ws,
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok {
                continue;
            }
            let cand = stripped.get(s..).unwrap_or_default();
            if LABELS.contains(&fold_term(cand).trim_end_matches(['.', ':']).trim())
                || LABELS.contains(&fold_term(cand).as_str())
            {
                start = from + s;
                matched = true;
                break;
            }
        }
        if !matched {
            break;
        }
    }
    start
}

/// Applies edits (overlapping ones merged; a replacement inside a removal is dropped) and
/// tidies the result.
pub fn apply_edits(text: &str, mut edits: Vec<Edit>) -> String {
    edits.retain(|e| {
        e.range.start <= e.range.end
            && e.range.end <= text.len()
            && text.is_char_boundary(e.range.start)
            && text.is_char_boundary(e.range.end)
    });
    edits.sort_by(|a, b| {
        a.range
            .start
            .cmp(&b.range.start)
            .then(b.range.end.cmp(&a.range.end))
    });
    let mut merged: Vec<Edit> = Vec::with_capacity(edits.len());
    for e in edits {
        match merged.last_mut() {
            // Overlapping edits merge; so do removals separated only by blanks.
            Some(last)
                if e.range.start < last.range.end
                    || (last.with.is_empty()
                        && e.with.is_empty()
                        && text
                            .get(last.range.end..e.range.start)
                            .is_some_and(|gap| gap.trim().is_empty())) =>
            {
                if e.range.end > last.range.end {
                    last.range.end = e.range.end;
                }
            }
            _ => merged.push(e),
        }
    }
    // A removal followed by more words of its clause keeps the function words on its left.
    for e in &mut merged {
        if e.with.is_empty() && e.core_start > e.range.start {
            let next = text
                .get(e.range.end..)
                .and_then(|t| t.trim_start().chars().next());
            if next.is_some_and(char::is_alphanumeric) {
                e.range.start = e.core_start;
            }
        }
    }
    // The kept text with runs of spaces folded as it is put together: one copy of it.
    let mut out = SpaceFold::with_capacity(text.len());
    let mut pos = 0;
    for e in &merged {
        out.push_str(text.get(pos..e.range.start).unwrap_or_default());
        out.push_str(&e.with);
        pos = e.range.end;
    }
    out.push_str(text.get(pos..).unwrap_or_default());
    drop(merged);
    tidy_folded(out.out)
}

/// Puts text together with every run of spaces folded into one and no space at either end,
/// as splitting the whole at spaces and joining the non-empty pieces with one space would.
struct SpaceFold {
    out: String,
    /// A space was passed since the last piece written.
    space: bool,
}

impl SpaceFold {
    fn with_capacity(n: usize) -> Self {
        SpaceFold {
            out: String::with_capacity(n),
            space: false,
        }
    }

    fn push_str(&mut self, s: &str) {
        for (i, piece) in s.split(' ').enumerate() {
            if i > 0 {
                self.space = true;
            }
            if !piece.is_empty() {
                if self.space && !self.out.is_empty() {
                    self.out.push(' ');
                }
                self.space = false;
                self.out.push_str(piece);
            }
        }
    }
}

/// Most rounds of punctuation tidying per text.
const MAX_TIDY_ROUNDS: usize = 16;

/// Tidies punctuation and spacing left behind by cuts.
#[cfg(test)]
pub fn tidy(s: &str) -> String {
    tidy_owned(s.to_owned())
}

/// [`tidy`] of a text the caller gives up: at most two copies of it are alive at once (a
/// long text is not copied once per round, nor split into a vector of its words).
#[cfg(test)]
fn tidy_owned(s: String) -> String {
    // Runs of spaces fold into one; spaces at the ends go. Line breaks of multi-line text
    // stay: only the space character folds.
    let mut t = SpaceFold::with_capacity(s.len());
    t.push_str(&s);
    drop(s);
    tidy_folded(t.out)
}

/// [`tidy`] of a text whose spaces are already folded.
fn tidy_folded(mut t: String) -> String {
    // Each round is linear; rounds are bounded so that nested debris ("((((…))))") costs
    // linear time too (what is left after the last round stays as it is). Every replacement
    // shortens the text, so a round that replaced nothing left it as it was: the last one.
    for _ in 0..MAX_TIDY_ROUNDS {
        let mut changed = false;
        for (from, to) in [
            (" ,", ","),
            (" .", "."),
            (" ;", ";"),
            (" :", ":"),
            (" )", ")"),
            ("( ", "("),
            ("()", ""),
            ("[]", ""),
            ("（）", ""),
            ("【】", ""),
            ("、、", "、"),
            ("、。", "。"),
            ("（、", "（"),
            ("、）", "）"),
            (",,", ","),
            (", ,", ","),
            (",.", "."),
            (";.", "."),
            (".;", "."),
            (",;", ";"),
            (";;", ";"),
            (". .", "."),
            ("..", "."),
            (" - -", " -"),
            (". - ", ". "),
            (". – ", ". "),
            (" -,", ","),
            ("-,", ","),
            (" -)", ")"),
            (" - )", ")"),
            ("(- ", "("),
            ("( -", "("),
            (" – –", " –"),
            ("- ,", "-"),
            (", -", " -"),
            (" - .", "."),
            (" -.", "."),
            (" - ,", ","),
            ("  ", " "),
            (":,", ":"),
            (":.", "."),
            (", )", ")"),
            ("( ,", "("),
            ("(,", "("),
            (",)", ")"),
            (" !", "!"),
            (" ?", "?"),
            ("\n ", "\n"),
            (" \n", "\n"),
        ] {
            if t.contains(from) {
                t = t.replace(from, to);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let trim_chars: &[char] = &[' ', ',', ';', ':', '-', '–', '—', '|', '/', '、'];
    let end = t.trim_end_matches(trim_chars).len();
    t.truncate(end);
    let start = t.len()
        - t.trim_start_matches(|c: char| trim_chars.contains(&c) || c == '.')
            .len();
    t.drain(..start);
    capitalize_sentences(t)
}

/// Upper-cases a lower-case word that a cut left at the start of a sentence: in place when
/// every such letter is ASCII (the text is not copied), else into a new text.
fn capitalize_sentences(mut t: String) -> String {
    let mut starts = Vec::new();
    let mut at_start = false;
    let mut prev: Option<char> = None;
    let mut prev2: Option<char> = None;
    for (i, c) in t.char_indices() {
        if prev == Some(' ') && matches!(prev2, Some('.' | '!' | '?')) {
            at_start = true;
        }
        if at_start && c.is_alphabetic() {
            if c.is_lowercase() {
                if !c.is_ascii() {
                    return capitalize_sentences_copy(&t);
                }
                starts.push(i);
            }
            at_start = false;
        } else if !c.is_whitespace() {
            at_start = false;
        }
        prev2 = prev;
        prev = Some(c);
    }
    for i in starts {
        if let Some(letter) = t.get_mut(i..i + 1) {
            letter.make_ascii_uppercase();
        }
    }
    t
}

/// [`capitalize_sentences`] into a new text.
fn capitalize_sentences_copy(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    let mut at_start = false;
    let mut prev: Option<char> = None;
    let mut prev2: Option<char> = None;
    for c in t.chars() {
        if prev == Some(' ') && matches!(prev2, Some('.' | '!' | '?')) {
            at_start = true;
        }
        if at_start && c.is_alphabetic() {
            if c.is_lowercase() {
                out.extend(c.to_uppercase());
            } else {
                out.push(c);
            }
            at_start = false;
        } else {
            if !c.is_whitespace() {
                at_start = false;
            }
            out.push(c);
        }
        prev2 = prev;
        prev = Some(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_removal_takes_its_separator() {
        use crate::rewrite::text::{Edit, apply_edits, removal_range};
        let text = "I'll be late - I have an appointment at the clinic for my refill. - Ana, SSN 123-45-6789";
        let ssn = text.find("123").unwrap();
        let r = removal_range(text, ssn..text.len());
        assert_eq!(
            apply_edits(text, vec![Edit::remove(r)]),
            "I'll be late - I have an appointment at the clinic for my refill. Ana"
        );
    }

    #[test]
    fn labels_and_function_words_go_with_the_span() {
        let t = "Call me on 0171 555 0100 please";
        let s = t.find("0171").unwrap();
        let r = removal_range(t, s..s + 13);
        assert_eq!(&t[r.clone()], "Call me on 0171 555 0100");
        let t = "I have an appointment at the clinic for my refill.";
        let s = t.find("clinic").unwrap();
        assert_eq!(&t[removal_range(t, s..s + 6)], "at the clinic");
    }

    #[test]
    fn tidy_folds_spaces_as_splitting_and_joining_does() {
        for s in [
            "",
            " ",
            "a  b",
            "  a b  ",
            "a\n  b",
            "x ,  y .",
            "  ( ) a",
            "a ,, b . . c",
        ] {
            let joined = s
                .split(' ')
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            assert_eq!(tidy(s), tidy(&joined), "{s:?}");
            assert!(!tidy(s).contains("  "), "{s:?}");
        }
    }

    #[test]
    fn edits_merge_and_tidy() {
        let t = "wind tomorrow near Some Clinic 1 Main St Springfield - Ana Ruiz 9:30";
        let a = t.find("Some").unwrap();
        let b = t.find("Springfield").unwrap();
        let c = t.find(" - ").unwrap();
        let out = apply_edits(
            t,
            vec![
                Edit::remove(a..b - 1),
                Edit::remove(a + 5..a + 11),
                Edit::remove(c..t.len()),
            ],
        );
        assert_eq!(out, "wind tomorrow near Springfield");
    }

    #[test]
    fn sentences_left_lower_case_by_a_cut_are_capitalised() {
        assert_eq!(
            tidy("gate code 7310. please call me first."),
            "gate code 7310. Please call me first."
        );
        assert_eq!(tidy("Fixed in 2.3.1. thanks"), "Fixed in 2.3.1. Thanks");
    }

    #[test]
    fn empty_parentheses_and_dangling_separators_vanish() {
        assert_eq!(
            tidy("Greta drives ( ), pickups at noon"),
            "Greta drives, pickups at noon"
        );
        assert_eq!(tidy(" - Monday group"), "Monday group");
        assert_eq!(tidy("Hi, , there ."), "Hi, there.");
    }
}
