//! Names in running text: capitalised word sequences judged by the name lists and by the
//! words around them.
//!
//! A sequence is a name when
//! - a title, relation, role, greeting or sign-off stands right before it, or it is followed
//!   by an e-mail address in brackets ("Dana Kim <dana@…>"): then any capitalised words that
//!   are not ordinary words count ("Dr. Okonkwo", "Hallo Anna", "– Ethan Brooks");
//! - it starts with a known given name followed by a family name, or by a capitalised word
//!   that is neither an ordinary word nor a place ("Rebecca Stone", "Kwame Mensah");
//!   a given name that is also a word or place ("Will", "Paris") needs a known family name
//!   that is not an ordinary word ("Paris Hilton", not "Will Power");
//! - a single known given name follows a preposition or verb of contact ("for Dana",
//!   "mit Anna") and is neither a word, a place, a brand nor a month.
//!
//! Never: words glued to code punctuation, ALL-CAPS words, words after a place prefix
//! ("San", "St.", "Mount"), sequences ending in a place or organisation word ("Station",
//! "Street", "Hospital", "GmbH"), months and weekdays at the start.

use std::cell::{Cell, RefCell};
use std::ops::Range;

use rustc_hash::FxHashMap;

use super::context::{
    BRANDS, CALENDAR, ELIDED, GREETINGS, LABELS, NOT_NAMES, OF, PARTICLES, PLACE_PREFIXES,
    POSSESSIVES, POST_HONORIFICS, PREPOSITIONS, PRONOUNS, RELATIONS, ROLES, SIGN_OFFS,
    STREET_PREFIXES, STREET_TYPES, TITLES, VERBS_AFTER, ends_place, is_in, is_in_slice, lists_of,
};
use super::cyrillic;
use super::lists::{Flags, NameLists};
use super::tokens::{Shape, Token, tokenize};

/// Most words in one name (particles and initials included).
const MAX_RUN: usize = 5;

/// Most words whose flags one thread remembers (see [`remembered_flags`]); the memo is
/// emptied when full.
const WORDS_KEPT: usize = 4096;

/// Longest folded word whose flags are remembered (bytes): names and the words around them
/// are short, and a long token is rarely seen twice.
const LONGEST_KEPT: usize = 32;

/// A name found in running text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TextName {
    pub(crate) span: Range<usize>,
    pub(crate) confidence: f32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Context {
    /// Title, relation, role, greeting, sign-off, bracketed e-mail.
    Strong,
    /// A preposition or contact verb.
    Weak,
    None,
}

struct Scan<'a, 't> {
    text: &'t str,
    toks: &'a [Token<'t>],
    lists: &'static NameLists,
    /// Each token's flags, looked up in the name lists on first use (a token is judged from
    /// several runs and contexts).
    flags: Vec<Cell<Option<Flags>>>,
}

thread_local! {
    /// Flags by folded word, kept across texts and calls on this thread: the same words come
    /// back text after text (greetings, the names of the people a user writes to, the words
    /// of a tool's usual requests), and a lookup in the name lists costs far more than a hash
    /// lookup.
    static FLAGS_BY_WORD: RefCell<FxHashMap<Box<str>, Flags>> =
        RefCell::new(FxHashMap::default());
}

/// [`cyrillic::flags`] of the folded word `key`, remembered per thread for the process-wide
/// lists (which never change, so a word remembered keeps its flags).
fn remembered_flags(lists: &'static NameLists, key: &str) -> Flags {
    if key.len() > LONGEST_KEPT || !std::ptr::eq(lists, NameLists::get()) {
        return cyrillic::flags(lists, key);
    }
    FLAGS_BY_WORD.with_borrow_mut(|memo| {
        if let Some(&f) = memo.get(key) {
            return f;
        }
        let f = cyrillic::flags(lists, key);
        if memo.len() >= WORDS_KEPT {
            memo.clear();
        }
        memo.insert(Box::from(key), f);
        f
    })
}

/// The token indices of one capitalised sequence (at most [`MAX_RUN`]), without allocating.
#[derive(Debug, Clone, Copy, Default)]
struct Run {
    idx: [usize; MAX_RUN],
    len: usize,
}

impl Run {
    fn push(&mut self, i: usize) {
        if let Some(slot) = self.idx.get_mut(self.len) {
            *slot = i;
            self.len += 1;
        }
    }

    fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    fn as_slice(&self) -> &[usize] {
        self.idx.get(..self.len).unwrap_or(&[])
    }
}

fn gap<'t>(text: &'t str, a: &Token<'_>, b: &Token<'_>) -> &'t str {
    text.get(a.end..b.start).unwrap_or("")
}

fn is_space_gap(g: &str) -> bool {
    !g.is_empty() && g.chars().all(|c| c == ' ' || c == '\t' || c == '\u{a0}')
}

impl<'a, 't> Scan<'a, 't> {
    fn flags(&self, i: usize) -> Flags {
        let toks: &'a [Token<'t>] = self.toks;
        let Some(t) = toks.get(i) else {
            return Flags::default();
        };
        match self.flags.get(i) {
            Some(cell) => match cell.get() {
                Some(f) => f,
                None => {
                    let f = remembered_flags(self.lists, &t.key);
                    cell.set(Some(f));
                    f
                }
            },
            None => remembered_flags(self.lists, &t.key),
        }
    }

    fn key(&self, i: usize) -> &str {
        self.toks.get(i).map_or("", |t| t.key.as_ref())
    }

    fn gap_before(&self, i: usize) -> &'t str {
        match (
            i.checked_sub(1).and_then(|p| self.toks.get(p)),
            self.toks.get(i),
        ) {
            (Some(a), Some(b)) => gap(self.text, a, b),
            (None, Some(b)) => self.text.get(..b.start).unwrap_or(""),
            _ => "",
        }
    }

    /// Token indices of the capitalised sequence starting at `i` (empty when `i` cannot start one).
    fn run(&self, i: usize) -> Run {
        let mut run = Run::default();
        let Some(first) = self.toks.get(i) else {
            return run;
        };
        if first.shape != Shape::Cap || first.code {
            return run;
        }
        run.push(i);
        let mut j = i + 1;
        while run.len < MAX_RUN {
            let (Some(prev), Some(t)) = (self.toks.get(j - 1), self.toks.get(j)) else {
                break;
            };
            if t.code {
                break;
            }
            let g = gap(self.text, prev, t);
            let ok_gap =
                is_space_gap(g) || (prev.shape == Shape::Initial && (g == "." || g == ". "));
            if !ok_gap {
                break;
            }
            match t.shape {
                Shape::Cap | Shape::Initial => run.push(j),
                Shape::Lower if is_in(PARTICLES, &t.key) => {
                    // A particle only between two capitalised words.
                    let next = self.toks.get(j + 1);
                    let next_ok = next.is_some_and(|n| {
                        n.shape == Shape::Cap && is_space_gap(gap(self.text, t, n))
                    }) || next
                        .is_some_and(|n| n.shape == Shape::Lower && is_in(PARTICLES, &n.key));
                    if !next_ok {
                        break;
                    }
                    run.push(j);
                }
                _ => break,
            }
            j += 1;
        }
        // A run never ends on an initial or a particle.
        while run.len > 1 {
            let last = run.as_slice().last().and_then(|&k| self.toks.get(k));
            if last.is_some_and(|t| t.shape == Shape::Cap) {
                break;
            }
            run.pop();
        }
        run
    }

    /// The context before token `i`.
    fn context_before(&self, i: usize) -> Context {
        let Some(p) = i.checked_sub(1) else {
            return Context::None;
        };
        let g = self.gap_before(i);
        let pk = self.key(p);
        // The lists holding the word before, looked up once for every question below.
        let pk_lists = lists_of(pk);
        let prev = self.toks.get(p);
        // Titles: "Dr. Weber", "Frau Weber", "Sig.ra Conti", "M. Dupont".
        let title_gap = matches!(g, " " | ". " | "." | "\u{a0}") || is_space_gap(g);
        if title_gap
            && prev.is_some_and(|t| matches!(t.shape, Shape::Cap | Shape::Initial | Shape::Lower))
        {
            let joined = p
                .checked_sub(1)
                .filter(|_| self.gap_before(p) == ".")
                .map(|q| format!("{}{}", self.key(q), pk));
            let single_letter_title = matches!(pk, "m" | "d");
            let is_title = (TITLES.holds(pk_lists) && (!single_letter_title || g.starts_with('.')))
                || joined.as_deref().is_some_and(|j| is_in(TITLES, j));
            if is_title
                && prev.is_some_and(|t| t.shape != Shape::Lower || !matches!(pk, "m" | "sr"))
            {
                return Context::Strong;
            }
        }
        // "d'Anaïs", "dell'Anna": an elided preposition glued to the name.
        if g.is_empty() && ELIDED.holds(pk_lists) {
            return Context::Weak;
        }
        let plain = is_space_gap(g) || matches!(g.trim_matches(' '), "," | ":");
        // "l'avocat de Marc", "la figlia di Marta": a role or relation, then "of".
        if plain && OF.holds(pk_lists) {
            let role = p.checked_sub(1).is_some_and(|q| {
                let k = self.key(q);
                let k = k.rsplit(['\'', '\u{2019}']).next().unwrap_or(k);
                is_in(ROLES, k) || is_in(RELATIONS, k)
            });
            if role {
                return Context::Strong;
            }
        }
        // Labels: "Name: Pablo Navarro", "From: Dana Kim".
        if g.trim_matches([' ', '\t']) == ":" && LABELS.holds(pk_lists) {
            return Context::Strong;
        }
        // Relations: "my mother Ruth", "ma fille, Chloé"; a capitalised relation opening a
        // sentence needs no possessive ("Brat Marek nie może").
        if plain && RELATIONS.holds(pk_lists) {
            let poss = (1..=2).any(|d| {
                p.checked_sub(d)
                    .is_some_and(|q| is_in(POSSESSIVES, self.key(q)))
            });
            let opens = prev.is_some_and(|t| t.shape == Shape::Cap) && self.starts_line(p);
            if poss || (opens && self.flags(i).first() && !self.flags(i).ambiguous()) {
                return Context::Strong;
            }
        }
        // Introducing oneself: "I'm Gregor", "ich bin Jonas", "je suis Léa", "soy Irene".
        if plain {
            let before = p.checked_sub(1).map(|q| self.key(q));
            let intro = matches!(pk, "i'm" | "i\u{2019}m" | "im")
                || (pk == "am" && before == Some("i"))
                || (pk == "bin" && before == Some("ich"))
                || (pk == "suis" && before == Some("je"))
                || matches!(pk, "soy" | "sono" | "jestem" | "jsem");
            if intro {
                return Context::Weak;
            }
        }
        // A Nordic relation with its possessive after it: "broren min Eirik", "dottern
        // hennes Saga".
        if plain
            && matches!(
                pk,
                "min" | "mi" | "mitt" | "mine" | "din" | "sin" | "hans" | "hennes"
            )
            && p.checked_sub(1)
                .is_some_and(|q| is_in(RELATIONS, self.key(q)) && is_space_gap(self.gap_before(p)))
        {
            return Context::Strong;
        }
        // Roles: "patient Greta Lindgren", "Passenger: Ruiz". A lone place after a role is
        // where the role is sought ("lawyer Houston", "dentist Leeds"), not who.
        if plain && ROLES.holds(pk_lists) {
            let lone_place = self.flags(i).has(Flags::PLACE)
                && !self
                    .toks
                    .get(i + 1)
                    .is_some_and(|t| t.shape == Shape::Cap && is_space_gap(self.gap_before(i + 1)));
            return if lone_place {
                Context::Weak
            } else {
                Context::Strong
            };
        }
        // Greetings at the start of a line: "Hi Dana,", "Bonjour Marie".
        if plain && GREETINGS.holds(pk_lists) && self.starts_line(p) {
            return Context::Strong;
        }
        // Sign-offs: "Best, Sofia", "Cordialement,\nAnaïs Dubois".
        if SIGN_OFFS.holds(pk_lists)
            && (g.contains(',') || g.contains('\n'))
            && g.chars()
                .all(|c| c.is_whitespace() || matches!(c, ',' | '!' | '.'))
        {
            return Context::Strong;
        }
        if plain && PREPOSITIONS.holds(pk_lists) {
            return Context::Weak;
        }
        Context::None
    }

    /// Token `i` is the first word of a line or of the text (after at most a few words of
    /// greeting: "Good morning Anna").
    fn starts_line(&self, i: usize) -> bool {
        let mut k = i;
        for _ in 0..3 {
            let g = self.gap_before(k);
            if k == 0 || g.contains('\n') || g.contains(['.', '!', '?', ':', ';', '"', '(']) {
                return true;
            }
            if !is_in(GREETINGS, self.key(k - 1))
                && !matches!(
                    self.key(k - 1),
                    "good" | "dear" | "sehr" | "guten" | "buon" | "bom" | "goede"
                )
            {
                return false;
            }
            k -= 1;
        }
        false
    }

    /// A signature line: a dash right before token `i` at the start of a line and the run
    /// ending the line ("– Ethan Brooks").
    fn dash_signature(&self, i: usize, end: usize) -> bool {
        let g = self.gap_before(i);
        let trimmed = g.trim_end_matches([' ', '\t']);
        let dash = trimmed.ends_with(['-', '\u{2013}', '\u{2014}', '~']);
        if !dash {
            return false;
        }
        // The dash opens its line or follows the end of a sentence ("Thanks! - Ana"); after
        // a word it joins two parts of one line ("Rollstuhl - Öffnungszeiten Bürgeramt").
        let before_dash = trimmed
            .trim_end_matches(['-', '\u{2013}', '\u{2014}', '~'])
            .trim_end_matches([' ', '\t']);
        let line_start =
            i == 0 || before_dash.ends_with(['\n', '\r', '.', '!', '?', ')', '"', '\u{201d}']);
        let rest = self.text.get(end..).unwrap_or("");
        let line_end = rest
            .chars()
            .find(|c| !matches!(c, ' ' | '\t'))
            .is_none_or(|c| matches!(c, '\n' | '\r' | '"' | ')' | '.'));
        line_start && line_end
    }

    /// An e-mail address in brackets right after `end` ("Dana Kim <dana@…>", "(dana@…)").
    fn email_after(&self, end: usize) -> bool {
        let rest = self.text.get(end..).unwrap_or("");
        let rest = rest.trim_start_matches([' ', '\t']);
        let Some(close) = (if rest.starts_with('<') {
            Some('>')
        } else if rest.starts_with('(') {
            Some(')')
        } else {
            None
        }) else {
            return false;
        };
        rest.char_indices()
            .take(100)
            .take_while(|&(_, c)| c != close)
            .any(|(_, c)| c == '@')
    }

    /// Whether `i` follows a place prefix ("St. Louis", "San Francisco").
    fn after_place_prefix(&self, i: usize) -> bool {
        let g = self.gap_before(i);
        i.checked_sub(1).is_some_and(|p| {
            (is_in(PLACE_PREFIXES, self.key(p))
                && self.toks.get(p).is_some_and(|t| t.shape == Shape::Cap))
                || is_in(STREET_PREFIXES, self.key(p))
        }) && (is_space_gap(g) || g == ". " || g == ".")
    }

    /// Whether the first two or three words of `run`, with a space between each, are a place
    /// of the lists.
    fn opens_with_place(&self, run: &[usize]) -> bool {
        if run.len() < 2 {
            return false;
        }
        let mut joined = crate::text::inline::InlineString::new();
        for (n, &k) in run.iter().take(3).enumerate() {
            if n > 0 {
                if !is_space_gap(self.gap_before(k)) {
                    return false;
                }
                joined.push(' ');
            }
            joined.push_str(self.key(k));
            if n > 0 && self.lists.flags(joined.as_str()).has(Flags::PLACE) {
                return true;
            }
        }
        false
    }

    /// [`Scan::judge`] for a run that opens with a family name and goes on with a given name
    /// that is not a word (Cyrillic forms and lists, Hungarian order): where it ends, and its
    /// confidence.
    fn family_name_first(&self, run: &[usize], first: Flags) -> Option<(usize, f32)> {
        let (&i, &k) = (run.first()?, run.get(1)?);
        let surname = self.toks.get(i)?.text;
        let cyrillic = surname
            .chars()
            .next()
            .is_some_and(|c| matches!(c, '\u{0400}'..='\u{04FF}'));
        // Hungarian writes the family name first in Latin letters, as do Vietnamese and East
        // Asian names: a listed family name that is no given name, no everyday word and no
        // place, then a listed given name ("Kovács Bence", "Nagy Anna").
        if !cyrillic {
            let given = self.flags(k);
            let cap = self.toks.get(k).is_some_and(|t| t.shape == Shape::Cap);
            let plain_family = first.last()
                && !first.first()
                && !first.has(Flags::COMMON)
                && !first.has(Flags::PLACE);
            return (plain_family
                && cap
                && given.first()
                && !given.has(Flags::COMMON)
                && !given.has(Flags::PLACE))
            .then_some((k, 0.75));
        }
        const ENDINGS: &[&str] = &[
            "енко",
            "ов",
            "ова",
            "ев",
            "ева",
            "ёв",
            "ёва",
            "ин",
            "ина",
            "ський",
            "ська",
            "цький",
            "цька",
            "ский",
            "ская",
            "цкий",
            "цкая",
            "ук",
            "юк",
            "чук",
            "ових",
            "овим",
            "ові",
            "ову",
            "ове",
            "еві",
            "евим",
        ];
        let lower = surname.to_lowercase();
        let family = (first.last() && !first.first())
            || surname.chars().count() >= 5 && ENDINGS.iter().any(|e| lower.ends_with(e));
        let given = self.flags(k);
        let cap = self.toks.get(k).is_some_and(|t| t.shape == Shape::Cap);
        if !(family
            && cap
            && given.first()
            && !given.has(Flags::COMMON)
            && !given.has(Flags::PLACE))
        {
            return None;
        }
        // A patronymic may follow ("Петрове Иване Сергеевиче").
        let end = run
            .get(2)
            .filter(|&&p| {
                self.toks.get(p).is_some_and(|t| t.shape == Shape::Cap) && self.flags(p).last()
            })
            .copied()
            .unwrap_or(k);
        Some((end, 0.8))
    }

    /// Whether a street's type follows token `last` after at most two more capitalised
    /// words, with nothing but spaces and dots between them: the run names a street after
    /// someone ("Martin Luther King Jr. Blvd", "Rosa Parks Memorial Hwy").
    fn street_type_follows(&self, last: usize) -> bool {
        let mut end = self.toks.get(last).map_or(0, |t| t.end);
        for k in last + 1..=last + 3 {
            let Some(t) = self.toks.get(k) else {
                return false;
            };
            let plain_gap = self
                .text
                .get(end..t.start)
                .is_some_and(|g| !g.is_empty() && g.chars().all(|c| c == ' ' || c == '.'));
            if !plain_gap {
                return false;
            }
            if matches!(t.shape, Shape::Cap | Shape::Upper) && is_in(STREET_TYPES, &t.key) {
                return true;
            }
            if t.shape != Shape::Cap {
                return false;
            }
            end = t.end;
        }
        false
    }

    /// Judges the run; `Some((last token index, confidence))` when it is a name.
    fn judge(&self, run: &[usize]) -> Option<(usize, f32)> {
        let &i = run.first()?;
        let first = self.flags(i);
        let first_key = self.key(i);
        // The lists holding the first word, looked up once for every question below.
        let first_lists = lists_of(first_key);
        // Place and organisation words ("Ave", "Station") never start a name, nor does a place
        // of two or three words ("Da Nang", "Addis Ababa", "Chiang Mai").
        if ends_place(first_lists) || self.opens_with_place(run) {
            return None;
        }
        // "Rebecca Stone Cleveland Clinic": the word before a place or organisation word
        // belongs to that place; what comes before it may still be a name.
        if let Some(pos) = run.iter().skip(1).position(|&k| {
            ends_place(lists_of(self.key(k)))
                && self.toks.get(k).is_some_and(|t| t.shape == Shape::Cap)
        }) {
            // `pos` counts from the second token: the suffix is at `pos + 1`.
            // A street's type closes a street named after someone, all of it ("Martin Luther
            // King Boulevard", "Mustafa Kemal Taşdelen Cd.").
            if run
                .get(pos + 1)
                .is_some_and(|&k| is_in(STREET_TYPES, self.key(k)))
            {
                return None;
            }
            let keep = run.get(..pos).unwrap_or(&[]);
            return if keep.is_empty() {
                None
            } else {
                self.judge(keep)
            };
        }
        if run
            .last()
            .is_some_and(|&last| self.street_type_follows(last))
        {
            return None;
        }
        let after = run.last().and_then(|&k| self.toks.get(k + 1));
        if after.is_some_and(|t| {
            ends_place(lists_of(&t.key))
                && t.shape == Shape::Lower
                && matches!(
                    t.key.as_ref(),
                    "street"
                        | "station"
                        | "avenue"
                        | "road"
                        | "airport"
                        | "hospital"
                        | "clinic"
                        | "university"
                        | "park"
                )
        }) {
            return None;
        }
        let calendar = CALENDAR.holds(first_lists);
        // "Dear Dr. Smith": the title is context for the next word, never a name itself.
        // Likewise a relation opening a sentence ("Brat Marek", "Sister Ines").
        if TITLES.holds(first_lists)
            || NOT_NAMES.holds(first_lists)
            || (RELATIONS.holds(first_lists) && run.len() > 1)
        {
            return None;
        }
        // A given name and the honorific written after it ("Serkan Bey", "Ayşe Hanım"):
        // whatever stands before, a person.
        if first.first()
            && let Some(&h) = run.get(1)
            && is_in_slice(POST_HONORIFICS, self.key(h))
        {
            return Some((h, 0.85));
        }
        let end_tok = self.toks.get(*run.last()?)?;
        let mut ctx = self.context_before(i);
        // A known given name that a Turkish suffix follows after an apostrophe ("Burak'la")
        // is written as a proper noun: a person.
        let suffixed_given = first.first()
            && !first.has(Flags::PLACE)
            && self.toks.get(i).is_some_and(|t| t.proper_suffix);
        if ctx != Context::Strong
            && (self.dash_signature(i, end_tok.end)
                || self.email_after(end_tok.end)
                || suffixed_given)
        {
            ctx = Context::Strong;
        }

        if ctx == Context::Strong {
            // Any capitalised words that are not ordinary words or places alone.
            if first.only_word() || calendar {
                return None;
            }
            let mut last = i;
            for &k in run.iter().skip(1) {
                let f = self.flags(k);
                let cap = self.toks.get(k).is_some_and(|t| t.shape == Shape::Cap);
                if cap && (f.only_word() || is_in(NOT_NAMES, self.key(k))) {
                    break;
                }
                last = k;
            }
            // A place alone that is no given name ("Owner: Leeds", "Patient: Washington") is
            // where, not who.
            if last == i && first.has(Flags::PLACE) && !first.first() {
                return None;
            }
            let known = first.name() || run.iter().any(|&k| self.flags(k).name());
            return Some((last, if known { 0.85 } else { 0.7 }));
        }

        // Cyrillic writes the family name first in forms and lists ("Коваленко Олени",
        // "Петрове Иване"): a family name, listed or of a family name's ending, then a given
        // name.
        if let Some(found) = self.family_name_first(run, first) {
            return Some(found);
        }
        if !first.first() || calendar {
            return None;
        }
        let ambiguous_alone = first.ambiguous() || BRANDS.holds(first_lists);
        // A given name read from an oblique form ("Ради" could be a form of "Рада") pairs
        // only with a family name, as a word that is also a given name does; after a
        // preposition or verb of contact it stands alone ("позвони Ивану").
        let ambiguous = ambiguous_alone || first.has(Flags::INFLECTED);
        // Inside a longer capitalised phrase ("Gurdwara Sahib Fremont", "Hotel Maria
        // Theresia"): only a given name with a clear family name counts.
        let embedded = ctx == Context::None
            && i.checked_sub(1).is_some_and(|p| {
                self.toks
                    .get(p)
                    .is_some_and(|t| t.shape == Shape::Cap && !t.code)
                    && is_space_gap(self.gap_before(i))
                    && (!self.starts_line(p) || !self.flags(p).has(Flags::COMMON))
            });
        // Given name + family name (or an unknown capitalised word).
        if run.len() >= 2 {
            let mut last = i;
            let mut best = 0.0f32;
            for (n, &k) in run.iter().enumerate().skip(1) {
                let t = self.toks.get(k)?;
                if t.shape != Shape::Cap {
                    // Particles and initials are kept when a name part follows.
                    continue;
                }
                let f = self.flags(k);
                let second = n == 1
                    || run.get(1..n).is_some_and(|m| {
                        m.iter()
                            .all(|&q| self.toks.get(q).is_some_and(|t| t.shape != Shape::Cap))
                    });
                // "Paris Charles de Gaulle": a place then a given name is a place name.
                let place_then_first = first.has(Flags::PLACE) && f.first() && !f.last();
                let conf = if place_then_first {
                    0.0
                } else if f.last() {
                    // "Mark Stone", "Florence Lyon": a word or place on both sides is not enough.
                    // "London Sunday": a day or month after a place is when, not who.
                    let weak = (ambiguous && f.has(Flags::COMMON))
                        || (first.has(Flags::PLACE) && f.has(Flags::PLACE))
                        // "Anna Kowalczyk Berlin": a place after the family name is where.
                        || (last != i && self.flags(last).last() && f.has(Flags::PLACE))
                        || (embedded && f.has(Flags::PLACE))
                        || (is_in(CALENDAR, &t.key)
                            && (ambiguous || embedded || first.has(Flags::PLACE)));
                    if weak { 0.0 } else { 0.8 }
                } else if f.first() {
                    if ambiguous && f.ambiguous() { 0.0 } else { 0.8 }
                } else if !ambiguous
                    && !embedded
                    && !f.ambiguous()
                    && !f.has(Flags::PLACE)
                    && !is_in(BRANDS, &t.key)
                    && !is_in(CALENDAR, &t.key)
                {
                    // An unknown capitalised word; a place that is no name part ("… Berlin")
                    // says where, not who.
                    0.65
                } else {
                    0.0
                };
                if conf == 0.0 {
                    if second {
                        return None;
                    }
                    break;
                }
                if second {
                    best = conf;
                }
                last = k;
            }
            if last != i {
                return Some((last, best));
            }
        }
        // A lone given name opening a sentence or a clause, then a verb: "Martin can't
        // attend", "I can't come, Steven is sick".
        if ctx == Context::None
            && !ambiguous
            && !embedded
            && run.len() == 1
            && (self.starts_line(i) || i > 0 && self.gap_before(i).contains(','))
            && !self.toks.get(i).is_some_and(|t| is_in(PRONOUNS, &t.key))
            && self.toks.get(i + 1).is_some_and(|t| {
                t.shape == Shape::Lower
                    && is_space_gap(gap(self.text, self.toks.get(i).unwrap_or(t), t))
                    && is_in(VERBS_AFTER, &t.key)
                    // "a" is French "has" after a name ("Marie a appelé") and the English
                    // article after a word of two letters ("As a nurse", "In a week").
                    && !(t.key.as_ref() == "a"
                        && self.toks.get(i).is_some_and(|n| n.text.chars().count() <= 2))
            })
        {
            return Some((i, 0.6));
        }
        // A single given name with weak context.
        if ctx == Context::Weak
            && !ambiguous_alone
            && self
                .toks
                .get(i)
                .is_some_and(|t| t.text.chars().count() >= 3)
        {
            return Some((i, 0.6));
        }
        None
    }
}

/// Person names in running text.
pub(crate) fn find(text: &str, lists: &'static NameLists) -> Vec<TextName> {
    // Every sequence starts with a capitalised word: a text without a capital letter holds
    // no name (most short values stop here, without tokenizing).
    if !has_capital(text) {
        return Vec::new();
    }
    let toks = tokenize(text);
    let scan = Scan {
        text,
        toks: &toks,
        lists,
        flags: vec![Cell::new(None); toks.len()],
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let run = scan.run(i);
        let run = run.as_slice();
        if run.is_empty() {
            i += 1;
            continue;
        }
        if is_in(PLACE_PREFIXES, scan.key(i)) || scan.after_place_prefix(i) {
            i = run.last().map_or(i + 1, |&l| l + 1);
            continue;
        }
        match scan.judge(run) {
            Some((last, confidence)) => {
                if let (Some(a), Some(b)) = (toks.get(i), toks.get(last)) {
                    out.push(TextName {
                        span: a.start..b.end,
                        confidence,
                    });
                }
                i = last + 1;
            }
            None => i += 1,
        }
    }
    out
}

/// Whether `text` holds an upper-case letter (ASCII bytes checked without decoding).
fn has_capital(text: &str) -> bool {
    if text.is_ascii() {
        return text.bytes().any(|b| b.is_ascii_uppercase());
    }
    text.chars().any(char::is_uppercase)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<&str> {
        find(text, NameLists::get())
            .iter()
            .map(|n| &text[n.span.clone()])
            .collect()
    }

    #[test]
    fn turkish_suffixed_given_names() {
        assert_eq!(names("Dün Burak'la konuştum."), ["Burak"]);
        assert_eq!(names("Toplantıyı Emre'ye söyle."), ["Emre"]);
        // A place takes the same apostrophe: no person.
        assert!(names("Yarın İstanbul'da olacağım.").is_empty());
        assert!(names("Ankara'ya gidiyorum.").is_empty());
    }

    #[test]
    fn given_and_family_names() {
        assert_eq!(
            names("wind forecast near the clinic - Rebecca Stone session 9:30"),
            ["Rebecca Stone"]
        );
        assert_eq!(
            names("Meeting with Kwame Mensah about the budget"),
            ["Kwame Mensah"]
        );
        assert_eq!(
            names("lunch with Anna Maria Rossi tomorrow"),
            ["Anna Maria Rossi"]
        );
        assert_eq!(
            names("Ludwig van Beethoven and John F. Kennedy"),
            ["Ludwig van Beethoven", "John F. Kennedy"]
        );
        assert_eq!(names("Paris Hilton arrived"), ["Paris Hilton"]);
        assert_eq!(names("Rebecca Stone's chart"), ["Rebecca Stone"]);
        assert_eq!(
            names("Remicade infusion Crohn's Rebecca Stone Cleveland Clinic"),
            ["Rebecca Stone"]
        );
    }

    #[test]
    fn context_rules() {
        assert_eq!(names("Hi Dana,\nplease send it"), ["Dana"]);
        assert_eq!(names("Hallo Anna, wie geht's?"), ["Anna"]);
        assert_eq!(names("Bonjour Marie !"), ["Marie"]);
        assert_eq!(names("Thanks!\n– Ethan Brooks"), ["Ethan Brooks"]);
        assert_eq!(names("See you soon.\nBest,\nSofia"), ["Sofia"]);
        assert_eq!(names("Cordialement,\nAnaïs Dubois"), ["Anaïs Dubois"]);
        assert_eq!(names("appointment with Dr. Okonkwo on Monday"), ["Okonkwo"]);
        assert_eq!(names("Sehr geehrte Frau Weber,"), ["Weber"]);
        assert_eq!(names("rendez-vous avec Mme Laurent"), ["Laurent"]);
        assert_eq!(names("cita con la Sra. García"), ["García"]);
        assert_eq!(names("chiamare la Sig.ra Conti"), ["Conti"]);
        assert_eq!(names("pick up my mother Ruth at six"), ["Ruth"]);
        assert_eq!(names("patient Greta Lindgren, 40"), ["Greta Lindgren"]);
        assert_eq!(names("Guest Okafor checks in late"), ["Okafor"]);
        assert_eq!(names("book a table for Dana tonight"), ["Dana"]);
        assert_eq!(
            names("forward it to Tobias Wren (tobias@example.org)"),
            ["Tobias Wren"]
        );
        assert_eq!(names("Ximena Quispe <xq@example.org>"), ["Ximena Quispe"]);
        assert_eq!(
            names("Name: Pablo Navarro\nDOB: 1979-12-01"),
            ["Pablo Navarro"]
        );
        assert_eq!(names("From: Okonkwo Adeyemi"), ["Okonkwo Adeyemi"]);
    }

    #[test]
    fn a_place_after_a_name_is_not_part_of_it() {
        assert_eq!(
            names("Termin mit Anna Kowalczyk Berlin"),
            ["Anna Kowalczyk"]
        );
    }

    #[test]
    fn a_short_word_before_the_article_a_is_no_name() {
        for text in [
            "As a nurse who started in retail, I never expected this.",
            "In a week I start my new job.",
            "So a friend recommended this bakery.",
        ] {
            assert!(names(text).is_empty(), "{text}: {:?}", names(text));
        }
        assert_eq!(names("Marie a appelé ce matin."), ["Marie"]);
    }

    #[test]
    fn places_brands_and_words_are_not_names() {
        for text in [
            "weather in San Francisco tomorrow",
            "hotels near Santa Monica pier",
            "hotels in Da Nang",
            "flights to Addis Ababa",
            "weather in Chiang Mai",
            "khách sạn ở Hà Nội",
            "flights to St. Louis on Friday",
            "meet at Victoria Station",
            "museums in Washington",
            "Jordan shoes size 44",
            "Ford Focus 2019 used",
            "Dell XPS 13 battery",
            "June 5 at noon",
            "Will you book it?",
            "Mark the invoice as paid",
            "Hello World example",
            "Dear Sir or Madam,",
            "JOHN SMITH",
            "call getUserName() in user_Dana.py",
            "Florence Italy hotels",
            "Grace Street parking",
            "for Paris in May",
            "Hi team,",
            "Will Power",
            "Sinagoga di Bologna via Mario Finzi 4",
            "le 12 avenue Jean Jaurès, 31000 Toulouse",
            "Gurdwara Sahib Fremont, 300 Gurdwara Rd",
            "10201 Carnegie Ave Cleveland OH",
            "Calle Gabriel García Márquez 5",
        ] {
            assert!(names(text).is_empty(), "{text}: {:?}", names(text));
        }
    }

    #[test]
    fn a_city_in_another_script_after_a_given_name_is_no_surname() {
        for text in [
            "Олег Москва юрист",
            "Привет! Вика Санкт-Петербург покажет в субботу.",
            "Тарас Київ чекає на вас",
            "εστιατόρια Αθήναι Πειραιάς",
        ] {
            assert!(names(text).is_empty(), "{text}: {:?}", names(text));
        }
        // A given name that is also a city's name in that script stays a given name.
        assert_eq!(
            names("Привет! Милан Новак приедет в четверг."),
            ["Милан Новак"]
        );
    }

    #[test]
    fn cyrillic_family_name_first() {
        assert_eq!(
            names("квиток для Бондаренко Тетяни на п'ятницю"),
            ["Бондаренко Тетяни"]
        );
        assert_eq!(
            names("справка о Смирнове Андрее Викторовиче"),
            ["Смирнове Андрее Викторовиче"]
        );
        // A family name's ending alone, before a word or a place, is no name.
        assert!(
            names("Коваленко Київ").is_empty(),
            "{:?}",
            names("Коваленко Київ")
        );
    }
}
