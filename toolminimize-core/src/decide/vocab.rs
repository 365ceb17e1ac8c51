//! The word lists the decision stage reads calls with, loaded from `data/decide/*.tsv`.
//!
//! Terms are folded on load (see [`crate::text::fold`]) and matched as whole words or phrases
//! of whole words; terms in unspaced scripts (Japanese) match as substrings.

use rustc_hash::FxHashMap as HashMap;
use std::ops::Range;
use std::sync::LazyLock;

use crate::text::fold::fold_term;
use crate::text::script::{is_cjk, is_hangul};
use crate::text::words::{NOT_LOOKED_UP, Word};

const WORDS: &str = include_str!("../../data/decide/words.tsv");

/// A named list of words in `data/decide/words.tsv`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WordSet {
    /// Words of the speaker ("I", "my", "ich", "mon").
    FirstPerson,
    /// People close to the user ("mother", "Sohn", "mari").
    Relation,
    /// Greetings that open a message.
    Greeting,
    /// Closings that start a signature block.
    Signoff,
    /// Asking the reader to make contact ("call me", "erreichbar").
    ContactAsk,
    /// Asking the reader to act ("please", "bitte", "merci de").
    Request,
    /// Modal verbs that ask only when they open their clause ("Pode enviar …?", "¿Puede
    /// …?"); inside a statement they tell ("pode precisar de internação": may need).
    RequestOpen,
    /// Opening a reason or an aside ("because", "weil", "fyi").
    Reason,
    /// Tying a requirement to a searched place ("with", "for").
    Link,
    /// Days and times.
    Time,
    /// Nearness to a place ("near", "nahe").
    Proximity,
    /// A personal turn inside a search ("for my", "I have").
    PersonalTurn,
    /// Asking to be paid ("transfer", "überweisen", "virer").
    PayMe,
    /// A label that makes a contact detail an account's key ("account e-mail").
    AccountRef,
    /// A business speaking ("Inc.", "front desk", "hotline").
    Business,
    /// Someone else spoken of ("he", "sie", "lui").
    ThirdPerson,
    /// Asking about the weather ("forecast", "Wetter", "pluie").
    Weather,
    /// A person a record is about ("customer", "Kunde", "patient").
    PersonRef,
    /// Someone's home ("lives at", "wohnt in", "Home:").
    Residence,
    /// The reader's own ("your", "dein", "votre").
    SecondPerson,
    /// A mailbox that belongs to a role ("info", "sales", "kontakt").
    RoleMailbox,
    /// Offering data nobody asked for ("in case you need it", "zur Sicherheit").
    Offered,
    /// Acting or writing in someone's name ("book", "file", "translate"): a task that does needs
    /// who.
    ActFor,
    /// What needs a person's date of birth ("flight", "insurance", "visa", "clinic").
    BirthPurpose,
    /// What depends on where someone is ("near", "local", "state", "deliver", "rent"): a
    /// handed-over task with one of these needs the town of the people in it.
    Local,
    /// Setting up a call or a visit ("a call", "send someone", "Besichtigung"): the reader
    /// will phone the writer back.
    Arrange,
    /// Wishing the readers a good feast ("happy", "merry", "frohe", "joyeux", "mubarak").
    Wish,
    /// Needing something of the provider ("needed", "benötigt", "nécessaire"): with an
    /// [`WordSet::Accommodation`] beside it, a request.
    Need,
    /// What a provider arranges for the user ("wheelchair assistance", "step-free room",
    /// "gluten-free meal", "sign-language interpreter").
    Accommodation,
    /// Opening the consequence of a reason told first ("so", "поэтому", "इसलिए").
    Consequence,
}

impl WordSet {
    /// Every list, in the order of the variants (see [`WordSet::index`]).
    const ALL: [WordSet; 30] = [
        WordSet::FirstPerson,
        WordSet::Relation,
        WordSet::Greeting,
        WordSet::Signoff,
        WordSet::ContactAsk,
        WordSet::Request,
        WordSet::RequestOpen,
        WordSet::Reason,
        WordSet::Link,
        WordSet::Time,
        WordSet::Proximity,
        WordSet::PersonalTurn,
        WordSet::PayMe,
        WordSet::AccountRef,
        WordSet::Business,
        WordSet::ThirdPerson,
        WordSet::Weather,
        WordSet::PersonRef,
        WordSet::Residence,
        WordSet::SecondPerson,
        WordSet::RoleMailbox,
        WordSet::Offered,
        WordSet::ActFor,
        WordSet::BirthPurpose,
        WordSet::Local,
        WordSet::Arrange,
        WordSet::Wish,
        WordSet::Need,
        WordSet::Accommodation,
        WordSet::Consequence,
    ];

    /// The list's number: its place in [`WordSet::ALL`].
    const fn index(self) -> usize {
        self as usize
    }

    /// Lists of closed-class words (see [`Terms::match_in`]); the others hold labels,
    /// company suffixes and abbreviations that are written in capitals ("SMS", "GmbH", "HR").
    fn is_function_words(self) -> bool {
        matches!(
            self,
            WordSet::FirstPerson
                | WordSet::SecondPerson
                | WordSet::ThirdPerson
                | WordSet::Relation
                | WordSet::Reason
                | WordSet::Consequence
                | WordSet::PersonalTurn
                | WordSet::Request
                | WordSet::Offered
                | WordSet::Link
        )
    }

    fn parse(name: &str) -> Option<WordSet> {
        Some(match name {
            "first_person" => WordSet::FirstPerson,
            "relation" => WordSet::Relation,
            "greeting" => WordSet::Greeting,
            "signoff" => WordSet::Signoff,
            "contact_ask" => WordSet::ContactAsk,
            "request" => WordSet::Request,
            "request_open" => WordSet::RequestOpen,
            "reason" => WordSet::Reason,
            "link" => WordSet::Link,
            "time" => WordSet::Time,
            "proximity" => WordSet::Proximity,
            "personal_turn" => WordSet::PersonalTurn,
            "pay_me" => WordSet::PayMe,
            "account_ref" => WordSet::AccountRef,
            "business" => WordSet::Business,
            "third_person" => WordSet::ThirdPerson,
            "weather" => WordSet::Weather,
            "person_ref" => WordSet::PersonRef,
            "residence" => WordSet::Residence,
            "second_person" => WordSet::SecondPerson,
            "role_mailbox" => WordSet::RoleMailbox,
            "offered" => WordSet::Offered,
            "act_for" => WordSet::ActFor,
            "birth_purpose" => WordSet::BirthPurpose,
            "local" => WordSet::Local,
            "arrange" => WordSet::Arrange,
            "wish" => WordSet::Wish,
            "need" => WordSet::Need,
            "accommodation" => WordSet::Accommodation,
            "consequence" => WordSet::Consequence,
            _ => return None,
        })
    }
}

/// The languages a list covers, one bit each (see [`LANGS`]).
pub type LangMask = u16;

/// The languages of `words.tsv`, in bit order.
/// `other` holds, for languages the stage does not otherwise read (Russian, Greek, Arabic,
/// Chinese, Korean, Finnish, Hungarian, Romanian, …), only words that need no grammar and are
/// words of none of the others: greetings, days and times, reason conjunctions. They are read
/// in every text; `other` has no stop words, so it is never the language recognised.
pub const LANGS: &[&str] = &[
    "en", "de", "fr", "es", "it", "pt", "nl", "pl", "sv", "da", "no", "cs", "ja", "other",
];

/// The languages recognised by their stop words: the first of [`LANGS`], all but `other`.
const SCORED: usize = LANGS.len() - 1;

/// The bit of `other` (see [`LANGS`]).
const OTHER: LangMask = 1 << SCORED;

/// Every language.
pub const ALL_LANGS: LangMask = (1 << LANGS.len()) - 1;

fn lang_bit(lang: &str) -> LangMask {
    LANGS
        .iter()
        .position(|l| *l == lang)
        .map_or(ALL_LANGS, |i| 1 << i)
}

/// The number of lists: the [`WordSet`]s, then the stop words.
const LISTS: usize = WordSet::ALL.len() + 1;

/// The number of the stop-word list.
const STOP: usize = WordSet::ALL.len();

/// [`Word::entry`] of a word no list holds.
const ABSENT: u32 = NOT_LOOKED_UP - 1;

/// What the lists hold of one folded word: looked up once per word of a text, it answers
/// every list's question about that word without hashing it again.
#[derive(Debug, Clone, Default)]
struct Entry {
    /// Per list: the languages in which the word is a term of the list by itself (0: none).
    single: [LangMask; LISTS],
    /// The lists that hold a phrase starting with the word, one bit each.
    opens_phrase: u32,
    /// The lists that hold the word alone or open a phrase with it, one bit each: no other
    /// list can match at the word.
    lists: u32,
}

/// What one list holds besides its single words (those are in [`Vocab`]'s entries): phrases of
/// several words and unspaced-script terms, each with the languages it belongs to.
#[derive(Debug, Default)]
struct List {
    /// Phrases of several words, by their first word.
    phrases: HashMap<String, Vec<(Vec<String>, LangMask)>>,
    unspaced: Vec<(String, LangMask)>,
    /// Function words (pronouns, conjunctions, kin words): written in capitals among words
    /// that are not, they are acronyms ("CAR T cells", "US customs"), not these words.
    function_words: bool,
}

/// One list of [`Vocab`], to match words against (see [`Vocab::set`]).
#[derive(Debug, Clone, Copy)]
pub struct Terms<'v> {
    vocab: &'v Vocab,
    list: &'v List,
    /// The list's number (bit in [`Entry::opens_phrase`], slot in [`Entry::single`]).
    id: usize,
}

/// Whether `text` may hold a character of an unspaced script: each of them is at U+3040 or
/// above, so its UTF-8 form opens with a byte of 0xE3 or more (a byte scan, not a decode).
pub fn may_hold_unspaced(text: &str) -> bool {
    // By chunks, so that the scan of a chunk needs no branch per byte.
    text.as_bytes()
        .chunks(32)
        .any(|c| c.iter().fold(0u8, |m, &b| m.max(b)) >= 0xE3)
}

/// Whether `c` belongs to a script whose words are not separated by spaces (kana, kanji and
/// hanzi; Hangul syllables too, whose words take their particles without a space).
pub(super) fn is_unspaced_script(c: char) -> bool {
    is_cjk(c) || is_hangul(c)
}

impl Terms<'_> {
    /// The languages in which `entry`'s word is a term of this list by itself.
    fn single(&self, entry: &Entry) -> LangMask {
        entry.single.get(self.id).copied().unwrap_or(0)
    }

    /// Whether `word` (already folded) is a single-word term of any language.
    pub fn has_word(&self, word: &str) -> bool {
        self.vocab
            .entry_of(word)
            .is_some_and(|e| self.single(e) != 0)
    }

    /// Whether a word of the words whose [`Vocab::lists_in`] is `lists` can match this list
    /// (when not, no term of it occurs among them but perhaps an unspaced one).
    pub fn may_match(&self, lists: u32) -> bool {
        lists & (1 << self.id) != 0
    }

    /// Whether any term of a language in `langs` occurs among `words` (or, for unspaced
    /// scripts, in `raw`), where [`Vocab::lists_in`] of `words` is `lists`.
    pub fn any_in_langs_of(
        &self,
        lists: u32,
        langs: LangMask,
        words: &[Word<'_>],
        raw: &str,
    ) -> bool {
        (self.may_match(lists)
            && (0..words.len()).any(|i| self.match_in(langs, words, i).is_some()))
            || self.any_unspaced(langs, raw)
    }

    /// Whether an unspaced-script term of a language in `langs` occurs in `raw`.
    fn any_unspaced(&self, langs: LangMask, raw: &str) -> bool {
        !self.list.unspaced.is_empty()
            && may_hold_unspaced(raw)
            && self
                .list
                .unspaced
                .iter()
                .any(|(t, l)| l & langs != 0 && raw.contains(t.as_str()))
    }

    /// The length in words of the longest term of a language in `langs` starting at
    /// `words[i]`.
    #[inline]
    pub fn match_in(&self, langs: LangMask, words: &[Word<'_>], i: usize) -> Option<usize> {
        let w = words.get(i)?;
        // A word no list holds (most words), or that this list does not hold, is answered by
        // its entry, without a hash.
        let entry = self.vocab.entry(w)?;
        if entry.lists & (1 << self.id) == 0 {
            return None;
        }
        self.match_entry(entry, langs, words, i)
    }

    /// [`Terms::match_in`] at a word whose entry is `entry`.
    fn match_entry(
        &self,
        entry: &Entry,
        langs: LangMask,
        words: &[Word<'_>],
        i: usize,
    ) -> Option<usize> {
        let w = words.get(i)?;
        let mut best = None;
        if entry.opens_phrase & (1 << self.id) != 0 {
            let candidates = self
                .list
                .phrases
                .get(w.folded.as_ref())
                .map(Vec::as_slice)
                .unwrap_or_default();
            for (p, l) in candidates {
                if l & langs != 0
                    && words
                        .get(i..i + p.len())
                        .is_some_and(|ws| ws.iter().zip(p).all(|(w, t)| w.folded == *t))
                    && best.is_none_or(|b| p.len() > b)
                {
                    best = Some(p.len());
                }
            }
        }
        if best.is_none() && self.single(entry) & langs & w.read_in != 0 {
            best = Some(1);
        }
        best.filter(|_| !(self.list.function_words && acronym_at(words, i)))
    }

    /// [`Terms::match_in`] over every language.
    pub fn match_at(&self, words: &[Word<'_>], i: usize) -> Option<usize> {
        self.match_in(ALL_LANGS, words, i)
    }

    /// Whether any term of a language in `langs` occurs among `words` (or, for unspaced
    /// scripts, in `raw`).
    pub fn any_in_langs(&self, langs: LangMask, words: &[Word<'_>], raw: &str) -> bool {
        (0..words.len()).any(|i| self.match_in(langs, words, i).is_some())
            || self.any_unspaced(langs, raw)
    }

    /// Whether `raw` starts or ends with a term of an unspaced script: a Japanese greeting
    /// opens a line ("こんにちは") or closes the addressee's name ("山田様", "総務部 御中").
    pub fn unspaced_at_edge(&self, raw: &str) -> bool {
        let t = raw.trim();
        may_hold_unspaced(t)
            && self
                .list
                .unspaced
                .iter()
                .any(|(term, _)| t.starts_with(term.as_str()) || t.ends_with(term.as_str()))
    }

    #[allow(dead_code)] // not used by the current rules
    /// [`Terms::any_in_langs`] over every language.
    pub fn any_in(&self, words: &[Word<'_>], raw: &str) -> bool {
        self.any_in_langs(ALL_LANGS, words, raw)
    }
}

/// Every word list of the decision stage.
#[derive(Debug)]
pub struct Vocab {
    /// The lists, by number: the [`WordSet`]s, then the stop words.
    lists: Vec<List>,
    /// Every folded word a list holds alone or opens a phrase with: its entry's number.
    index: HashMap<Box<str>, u32>,
    /// The entries, by number.
    entries: Vec<Entry>,
}

impl Vocab {
    fn load() -> Vocab {
        let mut v = Vocab {
            lists: (0..LISTS).map(|_| List::default()).collect(),
            index: HashMap::default(),
            entries: Vec::new(),
        };
        for line in WORDS.lines() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let mut cols = line.split('\t');
            let (Some(set), Some(lang), Some(terms)) = (cols.next(), cols.next(), cols.next())
            else {
                continue;
            };
            let lang = lang_bit(lang.trim());
            let list = if set.trim() == "stop" {
                STOP
            } else {
                let Some(set) = WordSet::parse(set.trim()) else {
                    continue;
                };
                if let Some(l) = v.lists.get_mut(set.index()) {
                    l.function_words = set.is_function_words();
                }
                set.index()
            };
            for t in terms.split(',') {
                v.add(list, t, lang);
            }
        }
        v
    }

    /// The entry of `word` (folded), made when it has none.
    fn entry_mut(&mut self, word: &str) -> Option<&mut Entry> {
        let n = match self.index.get(word) {
            Some(&n) => n,
            None => {
                let n = u32::try_from(self.entries.len())
                    .ok()
                    .filter(|&n| n < ABSENT)?;
                self.entries.push(Entry::default());
                self.index.insert(word.into(), n);
                n
            }
        };
        self.entries.get_mut(n as usize)
    }

    /// Adds `term` to list `list` for the languages `lang`.
    fn add(&mut self, list: usize, term: &str, lang: LangMask) {
        let f = fold_term(term);
        let f = f.trim();
        if f.is_empty() {
            return;
        }
        if f.chars().any(is_unspaced_script) {
            if let Some(l) = self.lists.get_mut(list) {
                l.unspaced.push((f.to_owned(), lang));
            }
            return;
        }
        // Split as texts are split, so "pourriez-vous" is the two words "pourriez vous".
        let parts: Vec<String> = crate::text::words::words(f)
            .into_iter()
            .map(|w| w.folded.into_owned())
            .collect();
        match parts.as_slice() {
            [] => {}
            [w] => {
                if let Some(e) = self.entry_mut(w) {
                    e.lists |= 1 << list;
                    if let Some(slot) = e.single.get_mut(list) {
                        *slot |= lang;
                    }
                }
            }
            [first, ..] => {
                let first = first.clone();
                if let Some(e) = self.entry_mut(&first) {
                    e.opens_phrase |= 1 << list;
                    e.lists |= 1 << list;
                }
                if let Some(l) = self.lists.get_mut(list) {
                    l.phrases.entry(first).or_default().push((parts, lang));
                }
            }
        }
    }

    /// The list `set`.
    pub fn set(&self, set: WordSet) -> Terms<'_> {
        self.list(set.index())
    }

    fn list(&self, id: usize) -> Terms<'_> {
        static EMPTY: List = List {
            phrases: HashMap::with_hasher(rustc_hash::FxBuildHasher),
            unspaced: Vec::new(),
            function_words: false,
        };
        Terms {
            vocab: self,
            list: self.lists.get(id).unwrap_or(&EMPTY),
            id,
        }
    }

    /// The entry of the folded word `word`, if a list holds it.
    fn entry_of(&self, word: &str) -> Option<&Entry> {
        self.index
            .get(word)
            .and_then(|&n| self.entries.get(n as usize))
    }

    /// The entry of `w`: the one [`Vocab::look_up_languages`] found, or looked up now.
    #[inline]
    fn entry(&self, w: &Word<'_>) -> Option<&Entry> {
        match w.entry {
            NOT_LOOKED_UP => self.entry_of(&w.folded),
            n => self.entries.get(n as usize),
        }
    }

    /// The lists that can match at some word of `words`, one bit each (see
    /// [`Terms::may_match`]).
    pub fn lists_in(&self, words: &[Word<'_>]) -> u32 {
        words
            .iter()
            .filter_map(|w| self.entry(w))
            .fold(0, |acc, e| acc | e.lists)
    }

    /// Looks every word of `words` up once, so that matching them against any list needs no
    /// further hashing, and gives [`Vocab::languages`] of them (they are the words of `raw`).
    pub fn look_up_languages(&self, words: &mut [Word<'_>], raw: &str) -> LangMask {
        let mut scores = [0u32; SCORED];
        for w in words.iter_mut() {
            w.entry = self.index.get(w.folded.as_ref()).copied().unwrap_or(ABSENT);
            add_scores(&mut scores, self.scoring_langs(w, raw));
        }
        // A function word of the likeliest language is read in it: "on" in an English text
        // is the preposition, whatever other languages of the text it is a pronoun of.
        let best = scores.iter().copied().max().unwrap_or(0);
        if best > 0 {
            let likeliest = scores
                .iter()
                .enumerate()
                .filter(|(_, c)| **c == best)
                .fold(0, |m, (i, _)| m | 1 << i);
            for w in words.iter_mut() {
                if self.stop_langs(w) & likeliest != 0 {
                    w.read_in = likeliest;
                }
            }
        }
        languages_of(scores, raw)
    }

    /// The languages the word `w` of `raw` votes for: those of which it is a common function
    /// word, unless it sits in an address (asked only of function words, the only ones that
    /// vote).
    fn scoring_langs(&self, w: &Word<'_>, raw: &str) -> LangMask {
        let langs = self.stop_langs(w);
        if langs != 0 && !in_address(raw, &w.range) {
            langs
        } else {
            0
        }
    }

    /// The languages of which the word `w` is a common function word.
    fn stop_langs(&self, w: &Word<'_>) -> LangMask {
        self.entry(w)
            .and_then(|e| e.single.get(STOP).copied())
            .unwrap_or(0)
    }

    /// Whether the word `w` is a function word of some language: a common word, a pronoun of
    /// the speaker, a link or a personal turn.
    pub fn is_function(&self, w: &Word<'_>) -> bool {
        self.entry(w).is_some_and(is_function_entry)
    }

    /// The languages `words` are most likely written in: those whose commonest function words
    /// occur at least half as often as the best language's; every language when none occurs.
    pub fn languages(&self, words: &[Word<'_>], raw: &str) -> LangMask {
        let mut scores = [0u32; SCORED];
        for w in words {
            add_scores(&mut scores, self.scoring_langs(w, raw));
        }
        languages_of(scores, raw)
    }
}

/// How far around a word [`in_address`] looks for the marks of an address.
const ADDRESS_REACH: usize = 64;

/// Whether the word at `range` of `raw` is part of an e-mail address, a web address or a
/// host name ("com" in "ana@mail.com", "de" in "shop.de"): such words are not the text's
/// language. Looks at most [`ADDRESS_REACH`] bytes either way, within the word's run of
/// non-space characters.
fn in_address(raw: &str, range: &Range<usize>) -> bool {
    let bytes = raw.as_bytes();
    let joined = |b: Option<&u8>| b.is_some_and(|&b| b == b'.' || b == b'@');
    let before = range.start.checked_sub(1).and_then(|i| bytes.get(i));
    let next_is_word = bytes
        .get(range.end + 1)
        .is_some_and(|b| b.is_ascii_alphanumeric());
    // Right after a dot or an at sign ("mail.com", "ana@mail"), or right before one that
    // another word follows ("ana" in "ana.lowe@…", "mail" in "mail.com").
    if joined(before) || joined(bytes.get(range.end)) && next_is_word {
        return true;
    }
    // Further inside an address: "mail" in "https://mail/…", "lowe" in "ana-lowe@x.org".
    let lo = range.start.saturating_sub(ADDRESS_REACH);
    let hi = (range.end + ADDRESS_REACH).min(bytes.len());
    let left = bytes.get(lo..range.start).unwrap_or_default();
    let right = bytes.get(range.end..hi).unwrap_or_default();
    let start = left
        .iter()
        .rposition(u8::is_ascii_whitespace)
        .map_or(0, |i| i + 1);
    let end = right
        .iter()
        .position(u8::is_ascii_whitespace)
        .unwrap_or(right.len());
    let (left, right) = (
        left.get(start..).unwrap_or_default(),
        right.get(..end).unwrap_or_default(),
    );
    let scheme = |run: &[u8]| run.windows(3).any(|w| w == b"://");
    left.contains(&b'@') || right.contains(&b'@') || scheme(left) || scheme(right)
}

/// Counts a word that is a stop word of the languages `mask` (none: 0) for them.
fn add_scores(scores: &mut [u32; SCORED], mask: LangMask) {
    if mask == 0 {
        return;
    }
    // A word common to several languages speaks for each of them a little ("to" is English,
    // Polish and Czech); a word of one language speaks for it fully.
    let share = 60 / mask.count_ones().max(1);
    for (i, c) in scores.iter_mut().enumerate() {
        if mask & (1 << i) != 0 {
            *c += share;
        }
    }
}

/// The languages of a text from its stop words' `scores` (see [`Vocab::languages`]).
fn languages_of(mut scores: [u32; SCORED], raw: &str) -> LangMask {
    if may_hold_unspaced(raw)
        && raw.chars().any(is_unspaced_script)
        && let Some(ja) = scores.get_mut(12)
    {
        *ja += 180;
    }
    let best = scores.iter().copied().max().unwrap_or(0);
    if best == 0 {
        return ALL_LANGS;
    }
    // The words of `other` are read in every text: they are none of the recognised
    // languages' words.
    let mut mask: LangMask = OTHER;
    for (i, c) in scores.iter().enumerate() {
        if *c * 10 >= best * 7 {
            mask |= 1 << i;
        }
    }
    mask
}

/// Whether an entry's word is a function word: a stop word, or a single-word term of the
/// speaker's pronouns, links, personal turns, requests or nearness.
fn is_function_entry(e: &Entry) -> bool {
    [
        STOP,
        WordSet::FirstPerson.index(),
        WordSet::Link.index(),
        WordSet::PersonalTurn.index(),
        WordSet::Request.index(),
        WordSet::Proximity.index(),
    ]
    .iter()
    .any(|&l| e.single.get(l).is_some_and(|m| *m != 0))
}

static VOCAB: LazyLock<Vocab> = LazyLock::new(Vocab::load);

/// The decision stage's word lists (loaded once).
pub fn vocab() -> &'static Vocab {
    &VOCAB
}

/// Whether `words[i]` is written in capitals (two letters or more) among words that are not:
/// an acronym ("CAR T cells", "US customs", "IT team"), not the function word it spells.
fn acronym_at(words: &[Word<'_>], i: usize) -> bool {
    let Some(w) = words.get(i) else {
        return false;
    };
    let mut letters = w.raw.chars().filter(|c| c.is_alphabetic());
    let caps = letters.clone().count() >= 2 && letters.all(char::is_uppercase);
    caps && words
        .get(i.saturating_sub(3)..words.len().min(i + 4))
        .unwrap_or_default()
        .iter()
        .any(|n| n.raw.chars().any(char::is_lowercase))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::words::words;

    #[test]
    fn every_list_of_the_data_has_its_own_number() {
        // A set missing from `ALL` would share its number with the stop words.
        for (i, set) in WordSet::ALL.iter().enumerate() {
            assert_eq!(set.index(), i, "{set:?}");
        }
        for line in WORDS
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let name = line.split('\t').next().unwrap_or_default();
            if name == "stop" {
                continue;
            }
            let set = WordSet::parse(name).unwrap_or_else(|| panic!("unknown list {name}"));
            assert!(
                set.index() < WordSet::ALL.len(),
                "{set:?} is not in WordSet::ALL"
            );
        }
    }

    #[test]
    fn the_byte_gate_admits_every_unspaced_script() {
        for c in [
            '\u{3040}', 'ア', 'ｱ', '\u{3400}', '漢', '\u{F900}', '\u{AC00}', '\u{D7AF}',
        ] {
            assert!(is_unspaced_script(c));
            assert!(may_hold_unspaced(&format!("abc {c}")), "{c}");
        }
        assert!(!may_hold_unspaced("Grüße, café — “quoted” €"));
    }

    #[test]
    fn word_sets_hold_words_of_several_languages() {
        use crate::decide::vocab::{WordSet, vocab};
        let v = vocab();
        assert!(v.set(WordSet::Greeting).has_word("hello"));
        assert!(v.set(WordSet::FirstPerson).has_word("meine"));
    }

    #[test]
    fn every_line_of_the_word_file_parses() {
        for line in WORDS.lines() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(cols.len(), 3, "bad line: {line}");
            assert!(
                cols[0] == "stop" || WordSet::parse(cols[0]).is_some(),
                "unknown set: {}",
                cols[0]
            );
            assert!(LANGS.contains(&cols[1]), "unknown language: {}", cols[1]);
        }
    }

    #[test]
    fn phrases_match_whole_words() {
        let v = vocab();
        let text = "Could you call me tomorrow";
        let ws = words(text);
        assert_eq!(v.set(WordSet::ContactAsk).match_at(&ws, 2), Some(2));
        assert!(v.set(WordSet::Time).any_in(&ws, text));
        let text = "recall the override";
        assert!(!v.set(WordSet::ContactAsk).any_in(&words(text), text));
    }

    #[test]
    fn languages_keep_one_language_s_words_out_of_another() {
        let v = vocab();
        let text = "CAR-T therapy for the patient with relapsed myeloma";
        let ws = words(text);
        let en = v.languages(&ws, text);
        assert_eq!(en & 1, 1);
        assert!(v.set(WordSet::Reason).match_in(en, &ws, 0).is_none());
        let fr = "je ne viens pas car je suis malade";
        let wf = words(fr);
        let m = v.languages(&wf, fr);
        assert!(v.set(WordSet::Reason).any_in_langs(m, &wf, fr));
    }

    #[test]
    fn addresses_do_not_vote_for_a_language() {
        let v = vocab();
        // "com" is a Portuguese function word, "de" a Spanish, Dutch and Nordic one.
        for text in [
            "Reach Ana Vale at ana.vale@mail.com",
            "Reach Ana Vale at https://mail.de/ana",
        ] {
            let mut ws = words(text);
            let langs = v.look_up_languages(&mut ws, text);
            assert_ne!(langs & 1, 0, "{text}");
            assert_eq!(langs & (1 << 5), 0, "{text}");
            assert_eq!(v.languages(&ws, text), langs, "{text}");
        }
        assert!(!in_address("i.e. de", &(5..7)));
    }

    #[test]
    fn a_function_word_of_the_likeliest_language_is_read_in_it() {
        let v = vocab();
        // Two "a"s speak for Portuguese and Czech nearly as much as "on" and "at" speak for
        // English: all three are the text's languages, but "on" is read as English.
        let text = "Book a cab on Friday, pickup at noon, a ramp needed";
        let mut ws = words(text);
        let langs = v.look_up_languages(&mut ws, text);
        assert_ne!(langs & (1 << 11), 0, "Czech is among the languages");
        assert!(!v.set(WordSet::ThirdPerson).any_in_langs(langs, &ws, text));
        // In a Czech text "on" is "he".
        let text = "Mám strach, že on to nezvládne a je to na mně";
        let mut ws = words(text);
        let langs = v.look_up_languages(&mut ws, text);
        assert!(v.set(WordSet::ThirdPerson).any_in_langs(langs, &ws, text));
    }
}
