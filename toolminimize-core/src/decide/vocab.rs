//! The word lists the decision stage reads calls with, loaded from `data/decide/*.tsv`.
//!
//! Terms are folded on load (see [`crate::text::fold`]) and matched as whole words or phrases
//! of whole words; terms in unspaced scripts (Japanese) match as substrings.

use rustc_hash::FxHashMap as HashMap;
use std::sync::LazyLock;

use crate::text::fold::fold_term;
use crate::text::words::Word;

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
    /// Setting up a call or a visit ("a call", "send someone", "Besichtigung"): the reader
    /// will phone the writer back.
    Arrange,
}

impl WordSet {
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
            "arrange" => WordSet::Arrange,
            _ => return None,
        })
    }
}

/// The languages a list covers, one bit each (see [`LANGS`]).
pub type LangMask = u16;

/// The languages of `words.tsv`, in bit order.
pub const LANGS: &[&str] = &[
    "en", "de", "fr", "es", "it", "pt", "nl", "pl", "sv", "da", "no", "cs", "ja",
];

/// Every language.
pub const ALL_LANGS: LangMask = (1 << 13) - 1;

fn lang_bit(lang: &str) -> LangMask {
    LANGS
        .iter()
        .position(|l| *l == lang)
        .map_or(ALL_LANGS, |i| 1 << i)
}

/// One list: single words, phrases of several words, and unspaced-script terms, each with the
/// languages it belongs to.
#[derive(Debug, Default)]
pub struct Terms {
    words: HashMap<String, LangMask>,
    /// Phrases of several words, by their first word.
    phrases: HashMap<String, Vec<(Vec<String>, LangMask)>>,
    unspaced: Vec<(String, LangMask)>,
    /// Function words (pronouns, conjunctions, kin words): written in capitals among words
    /// that are not, they are acronyms ("CAR T cells", "US customs"), not these words.
    function_words: bool,
}

/// Whether `text` may hold a character of an unspaced script: each of them is at U+3040 or
/// above, so its UTF-8 form opens with a byte of 0xE3 or more (a byte scan, not a decode).
fn may_hold_unspaced(text: &str) -> bool {
    text.bytes().any(|b| b >= 0xE3)
}

fn is_unspaced_script(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}' | '\u{AC00}'..='\u{D7AF}')
}

impl Terms {
    fn add(&mut self, term: &str, lang: LangMask) {
        let f = fold_term(term);
        let f = f.trim();
        if f.is_empty() {
            return;
        }
        if f.chars().any(is_unspaced_script) {
            self.unspaced.push((f.to_owned(), lang));
            return;
        }
        // Split as texts are split, so "pourriez-vous" is the two words "pourriez vous".
        let parts: Vec<String> = crate::text::words::words(f)
            .into_iter()
            .map(|w| w.folded.into_owned())
            .collect();
        match parts.len() {
            0 => {}
            1 => {
                if let Some(w) = parts.first() {
                    *self.words.entry(w.clone()).or_insert(0) |= lang;
                }
            }
            _ => {
                if let Some(first) = parts.first().cloned() {
                    self.phrases.entry(first).or_default().push((parts, lang));
                }
            }
        }
    }

    /// Whether `word` (already folded) is a single-word term of any language.
    pub fn has_word(&self, word: &str) -> bool {
        self.words.contains_key(word)
    }

    /// The length in words of the longest term of a language in `langs` starting at
    /// `words[i]`.
    pub fn match_in(&self, langs: LangMask, words: &[Word<'_>], i: usize) -> Option<usize> {
        let mut best = None;
        let candidates = words
            .get(i)
            .and_then(|w| self.phrases.get(w.folded.as_ref()))
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
        if best.is_none()
            && words
                .get(i)
                .and_then(|w| self.words.get(w.folded.as_ref()))
                .is_some_and(|l| l & langs != 0)
        {
            best = Some(1);
        }
        best.filter(|_| !(self.function_words && acronym_at(words, i)))
    }

    /// [`Terms::match_in`] over every language.
    pub fn match_at(&self, words: &[Word<'_>], i: usize) -> Option<usize> {
        self.match_in(ALL_LANGS, words, i)
    }

    /// Whether any term of a language in `langs` occurs among `words` (or, for unspaced
    /// scripts, in `raw`).
    pub fn any_in_langs(&self, langs: LangMask, words: &[Word<'_>], raw: &str) -> bool {
        (0..words.len()).any(|i| self.match_in(langs, words, i).is_some())
            || (may_hold_unspaced(raw)
                && self
                    .unspaced
                    .iter()
                    .any(|(t, l)| l & langs != 0 && raw.contains(t.as_str())))
    }

    /// Whether `raw` starts or ends with a term of an unspaced script: a Japanese greeting
    /// opens a line ("こんにちは") or closes the addressee's name ("山田様", "総務部 御中").
    pub fn unspaced_at_edge(&self, raw: &str) -> bool {
        let t = raw.trim();
        may_hold_unspaced(t)
            && self
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
#[derive(Debug, Default)]
pub struct Vocab {
    sets: HashMap<WordSet, Terms>,
    stop: Terms,
    empty: Terms,
}

impl Vocab {
    fn load() -> Vocab {
        let mut v = Vocab::default();
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
            let entry = if set.trim() == "stop" {
                &mut v.stop
            } else {
                let Some(set) = WordSet::parse(set.trim()) else {
                    continue;
                };
                let terms = v.sets.entry(set).or_default();
                terms.function_words = set.is_function_words();
                terms
            };
            for t in terms.split(',') {
                entry.add(t, lang);
            }
        }
        v
    }

    /// The list `set`.
    pub fn set(&self, set: WordSet) -> &Terms {
        self.sets.get(&set).unwrap_or(&self.empty)
    }

    /// Whether `word` (folded) is a function word of some language: a common word, a
    /// pronoun of the speaker, a link or a personal turn.
    pub fn is_function_word(&self, word: &str) -> bool {
        self.stop.has_word(word)
            || [
                WordSet::FirstPerson,
                WordSet::Link,
                WordSet::PersonalTurn,
                WordSet::Request,
                WordSet::Proximity,
            ]
            .iter()
            .any(|s| self.set(*s).has_word(word))
    }

    /// The languages `words` are most likely written in: those whose commonest function words
    /// occur at least half as often as the best language's; every language when none occurs.
    pub fn languages(&self, words: &[Word<'_>], raw: &str) -> LangMask {
        // A word common to several languages speaks for each of them a little ("to" is
        // English, Polish and Czech); a word of one language speaks for it fully.
        let mut scores = [0u32; 13];
        for w in words {
            if let Some(&mask) = self.stop.words.get(w.folded.as_ref()) {
                let share = 60 / mask.count_ones().max(1);
                for (i, c) in scores.iter_mut().enumerate() {
                    if mask & (1 << i) != 0 {
                        *c += share;
                    }
                }
            }
        }
        if raw.chars().any(is_unspaced_script)
            && let Some(ja) = scores.get_mut(12)
        {
            *ja += 180;
        }
        let best = scores.iter().copied().max().unwrap_or(0);
        if best == 0 {
            return ALL_LANGS;
        }
        let mut mask: LangMask = 0;
        for (i, c) in scores.iter().enumerate() {
            if *c * 10 >= best * 7 {
                mask |= 1 << i;
            }
        }
        mask
    }
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
    fn the_byte_gate_admits_every_unspaced_script() {
        for c in [
            '\u{3040}', 'ア', '\u{3400}', '漢', '\u{F900}', '\u{AC00}', '\u{D7AF}',
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
}
