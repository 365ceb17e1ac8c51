//! Consent from the user's own words (`task_context`): data the user asks to send is kept.
//!
//! Two signals, in English, German, French, Spanish and Italian:
//! - the value itself appears in the user's words ("Book Dr. Moradi on Wednesday");
//! - the user names the kind of data and asks to send or share it ("send the plumber our
//!   address", "envoie-lui mon numéro", "schick ihm meine Adresse").

use rustc_hash::FxHashSet as HashSet;

use crate::item::PsdKind;
use crate::text::fold::fold;

/// Longest part of the user's words read for consent (bytes): far more than anyone types for
/// one task, and a bound on the work per item. Words past it consent to nothing (the safe
/// side: data is removed, not kept).
const MAX_TASK: usize = 64 * 1024;

/// What the user's words consent to.
#[derive(Debug, Clone, Default)]
pub struct Consent {
    folded: String,
    /// The first five letters of each word of four letters or more ("vouchers" → "vouch"),
    /// read from `words` when first asked for.
    stems: std::sync::OnceLock<HashSet<String>>,
    /// The verbs of [`SHARE_VERBS`] the words hold.
    share_verbs: Vec<&'static str>,
    /// The words ask to write to someone or pass something on.
    message_verb: bool,
    /// The folded words, for word lookups in constant time.
    words: HashSet<String>,
    /// The byte trigrams of `folded`: a value whose first trigram is not among them is not in
    /// the text, found without a substring search.
    trigrams: Trigrams,
}

/// The byte trigrams of a text, as the bits of their hashes: a trigram the text holds always
/// has its bit, one it lacks mostly not (a filter before a substring search, never its
/// judge).
#[derive(Debug, Clone, Default)]
struct Trigrams {
    bits: Vec<u64>,
    /// The hash's bits past those that name a bit.
    shift: u32,
}

impl Trigrams {
    /// The trigrams of `text`: about eight bits for each.
    fn of(text: &[u8]) -> Self {
        let n = (text.len() * 8).clamp(512, 1 << 20).next_power_of_two();
        let mut t = Trigrams {
            bits: vec![0; n / 64],
            shift: 32 - n.trailing_zeros(),
        };
        for w in text.windows(3) {
            if let Ok(w) = <[u8; 3]>::try_from(w) {
                let (word, bit) = t.place(w);
                if let Some(word) = t.bits.get_mut(word) {
                    *word |= bit;
                }
            }
        }
        t
    }

    /// The word of `bits` and the bit in it of trigram `w`.
    fn place(&self, w: [u8; 3]) -> (usize, u64) {
        let [a, b, c] = w;
        let x = u32::from_le_bytes([a, b, c, 0]);
        let h = x
            .wrapping_mul(0x9E37_79B1)
            .checked_shr(self.shift)
            .unwrap_or(0);
        let h = usize::try_from(h).unwrap_or(0);
        (h / 64, 1 << (h % 64))
    }

    /// Whether the text may hold `w`: `false` when it does not.
    fn may_hold(&self, w: [u8; 3]) -> bool {
        let (word, bit) = self.place(w);
        self.bits.get(word).is_some_and(|b| b & bit != 0)
    }
}

/// Verbs that ask to pass something on ("send the plumber our address"): with a word for a
/// kind of data they consent to that kind.
const SHARE_VERBS: &[&str] = &[
    "send",
    "share",
    "give",
    "tell",
    "forward",
    "include",
    "add",
    "attach",
    "text",
    "email",
    "mail",
    "post",
    "let",
    "provide",
    "use",
    "with my",
    "schick",
    "sende",
    "gib",
    "teile",
    "mitteilen",
    "weiterleiten",
    "envoie",
    "envoyer",
    "donne",
    "partage",
    "transmets",
    "indique",
    "manda",
    "mande",
    "envia",
    "envía",
    "enviar",
    "comparte",
    "dale",
    "dile",
    "invia",
    "manda",
    "condividi",
    "dai",
    "comunica",
];

/// Verbs that ask to write to someone or pass something on, in more languages (folded: lower
/// case, no diacritics): the user's own words in such a request are what is to be told, so
/// special-category data they hold is consented to ("Mejla hyresvärden – jag använder
/// rullstol"). They consent to values, never to a kind of data.
const MESSAGE_VERBS: &[&str] = &[
    // English
    "write",
    "reply",
    "answer",
    "respond",
    "ask",
    "inform",
    "notify",
    "message",
    "explain",
    "mention",
    "apply",
    "request",
    // German
    "schicke",
    "teil",
    "schreib",
    "schreibe",
    "frag",
    "frage",
    "sag",
    "sage",
    "informiere",
    "antworte",
    // French
    "ecris",
    "ecrire",
    "demande",
    "dis",
    "informe",
    "previens",
    "reponds",
    // Spanish
    "escribe",
    "pregunta",
    "pide",
    "avisa",
    "informa",
    "cuenta",
    "responde",
    // Italian
    "scrivi",
    "chiedi",
    "avvisa",
    "racconta",
    "rispondi",
    // Portuguese
    "envie",
    "diz",
    "diga",
    "partilha",
    "compartilha",
    "escreve",
    "escreva",
    "pede",
    "peca",
    // Dutch
    "stuur",
    "deel",
    "geef",
    "vertel",
    "schrijf",
    "vraag",
    "meld",
    "laat",
    "antwoord",
    // Swedish, Danish, Norwegian
    "skicka",
    "mejla",
    "maila",
    "beratta",
    "dela",
    "ge",
    "skriv",
    "fraga",
    "meddela",
    "svara",
    "ansok",
    "fortael",
    "fortæl",
    "del",
    "giv",
    "sporg",
    "spørg",
    "fortell",
    "gi",
    "spor",
    "spør",
    "svar",
    // Polish, Czech
    "wyslij",
    "napisz",
    "przekaz",
    "powiedz",
    "udostepnij",
    "zapytaj",
    "popros",
    "daj",
    "odpowiedz",
    "posli",
    "napis",
    "sdel",
    "rekni",
    "zeptej",
    "dej",
    "preposli",
    "odpovez",
    // Turkish
    "gonder",
    "ilet",
    "soyle",
    "paylas",
    "yaz",
    "sor",
    // Japanese (matched inside the text)
    "送って",
    "伝えて",
    "連絡して",
    "書いて",
    "聞いて",
    "返信して",
    "共有して",
];

fn kind_words(kind: PsdKind) -> &'static [&'static str] {
    use PsdKind::*;
    match kind {
        StreetAddress | Postcode => &[
            "address",
            "adresse",
            "anschrift",
            "direccion",
            "dirección",
            "domicilio",
            "indirizzo",
            "where i live",
            "home",
        ],
        // "number" alone names any number (an employee's, an order's): only with a possessive.
        Phone => &[
            "phone",
            "my number",
            "her number",
            "his number",
            "their number",
            "your number",
            "cell",
            "mobile",
            "telefon",
            "handy",
            "mon numero",
            "son numero",
            "mi numero",
            "su numero",
            "il mio numero",
            "il suo numero",
            "meine nummer",
            "seine nummer",
            "ihre nummer",
            "telephone",
            "téléphone",
            "telefono",
            "teléfono",
            "móvil",
            "cellulare",
        ],
        Email => &["email", "e-mail", "mail", "correo", "courriel"],
        PersonName => &["my name", "name", "nom", "nombre", "nome"],
        DateOfBirth => &[
            "birth",
            "birthday",
            "dob",
            "geburtsdatum",
            "naissance",
            "nacimiento",
            "nascita",
        ],
        Passport => &[
            "passport",
            "reisepass",
            "passeport",
            "pasaporte",
            "passaporto",
        ],
        Iban | BankAccount => &[
            "iban",
            "account",
            "bank details",
            "konto",
            "bankverbindung",
            "compte",
            "rib",
            "cuenta",
            "conto",
        ],
        CardNumber => &["card", "karte", "carte", "tarjeta", "carta"],
        Coordinates => &[
            "location",
            "coordinates",
            "where i am",
            "standort",
            "position",
            "ubicación",
            "ubicacion",
            "posizione",
        ],
        Condition | Medication | HealthFacility => &[
            "diagnosis",
            "condition",
            "medication",
            "medications",
            "medicine",
            "medicines",
            "meds",
            "pill",
            "pills",
            "tablets",
            "prescription",
            "symptoms",
            "diagnose",
            "medikament",
            "medikamente",
            "medicament",
            "medicaments",
            "ordonnance",
            "traitement",
            "receta",
            "medicamento",
            "ricetta",
            "farmaci",
        ],
        _ => &[],
    }
}

/// The verbs of [`SHARE_VERBS`] and [`MESSAGE_VERBS`] as looked for in the user's words: a
/// phrase (a space, or a character outside ASCII) in the text, any other verb among its words.
/// Each word of the text is looked up once among the verbs, rather than each verb among the
/// words.
#[derive(Debug)]
struct Verbs {
    /// Word → the share verbs it is (bit `i` for `SHARE_VERBS[i]`), and whether it is a
    /// message verb.
    words: rustc_hash::FxHashMap<&'static str, (u64, bool)>,
    /// The phrases of the share verbs, with their bits.
    share_phrases: Vec<(&'static str, u64)>,
    /// The phrases of the message verbs.
    message_phrases: Vec<&'static str>,
}

/// The verbs the user's words hold.
struct Said {
    /// Bit `i` for `SHARE_VERBS[i]`.
    share: u64,
    /// Some message verb.
    message: bool,
}

/// Whether a verb is looked for in the text rather than among its words.
fn is_phrase(v: &str) -> bool {
    v.bytes().any(|b| b == b' ' || !b.is_ascii())
}

/// [`Verbs`], made on first use.
fn verbs() -> &'static Verbs {
    static VERBS: std::sync::LazyLock<Verbs> = std::sync::LazyLock::new(|| {
        let mut v = Verbs {
            words: rustc_hash::FxHashMap::default(),
            share_phrases: Vec::new(),
            message_phrases: Vec::new(),
        };
        for (verb, i) in SHARE_VERBS.iter().zip(0u32..) {
            let bit = 1u64.checked_shl(i).unwrap_or(0);
            if is_phrase(verb) {
                v.share_phrases.push((verb, bit));
            } else {
                v.words.entry(verb).or_default().0 |= bit;
            }
        }
        for verb in MESSAGE_VERBS {
            if is_phrase(verb) {
                v.message_phrases.push(verb);
            } else {
                v.words.entry(verb).or_default().1 = true;
            }
        }
        v
    });
    &VERBS
}

impl Verbs {
    /// The verbs said in `folded`, whose words are `words`. (A phrase that is one of the words
    /// stands in the text too.)
    fn said(&self, words: &HashSet<String>, folded: &str) -> Said {
        let mut said = Said {
            share: 0,
            message: false,
        };
        for w in words {
            if let Some(&(share, message)) = self.words.get(w.as_str()) {
                said.share |= share;
                said.message |= message;
            }
        }
        for &(p, bit) in &self.share_phrases {
            if folded.contains(p) {
                said.share |= bit;
            }
        }
        said.message |= self.message_phrases.iter().any(|p| folded.contains(p));
        said
    }
}

/// Whether `test` holds for a folded word of `text`.
fn any_word(text: &str, test: impl Fn(&str) -> bool) -> bool {
    fold(text)
        .as_str()
        .split(|c: char| !c.is_alphanumeric())
        .any(test)
}

/// A word's first five letters, for a word of four letters or more.
fn stem(w: &str) -> Option<String> {
    (w.chars().nth(3).is_some()).then(|| w.chars().take(5).collect())
}

impl Consent {
    /// Reads the user's words.
    pub fn new(task: &str) -> Self {
        let mut cut = task.len().min(MAX_TASK);
        while !task.is_char_boundary(cut) {
            cut -= 1;
        }
        let folded = fold(task.get(..cut).unwrap_or_default())
            .as_str()
            .to_owned();
        let words: HashSet<String> = folded
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .collect();
        let trigrams = Trigrams::of(folded.as_bytes());
        let said = verbs().said(&words, &folded);
        let share_verbs: Vec<&'static str> = SHARE_VERBS
            .iter()
            .zip(0u32..)
            .filter(|&(_, i)| said.share & 1u64.checked_shl(i).unwrap_or(0) != 0)
            .map(|(v, _)| *v)
            .collect();
        let share_verb = !share_verbs.is_empty();
        let message_verb = share_verb || said.message;
        Consent {
            folded,
            stems: std::sync::OnceLock::new(),
            share_verbs,
            message_verb,
            words,
            trigrams,
        }
    }

    /// Whether the value itself stands in the user's words.
    pub fn allows_value(&self, value: &str) -> bool {
        let v = fold(value);
        let v = v.as_str().trim();
        v.chars().filter(|c| c.is_alphanumeric()).count() >= 3
            && v.len() <= self.folded.len()
            && v.as_bytes()
                .get(..3)
                .and_then(|t| <[u8; 3]>::try_from(t).ok())
                .is_some_and(|t| self.trigrams.may_hold(t))
            && self.folded.contains(v)
    }

    /// Whether a word of `text` (four letters or more) begins as one of the user's words
    /// does: the same first five letters, or the whole of a shorter word ("Dexcom sensors"
    /// and "Dexcom G7 sensors", "voucher" and "vouchers").
    pub fn shares_stem(&self, text: &str) -> bool {
        let stems = self
            .stems
            .get_or_init(|| self.words.iter().filter_map(|w| stem(w)).collect());
        any_word(text, |w| stem(w).is_some_and(|s| stems.contains(&s)))
    }

    /// Whether a word of `text` (a number of three digits or more, another word of four
    /// characters or more) is one of the user's words.
    pub fn shares_word(&self, text: &str) -> bool {
        any_word(text, |w| {
            let n = w.chars().count();
            (n >= 4 || n == 3 && w.chars().all(|c| c.is_ascii_digit())) && self.words.contains(w)
        })
    }

    /// Whether the folded word `w` is one of the user's words.
    pub fn has_word(&self, w: &str) -> bool {
        self.words.contains(w)
    }

    /// Whether the user's words ask to send, share or tell something at all.
    pub fn asks_to_share(&self) -> bool {
        self.message_verb
    }

    /// Whether the user asks to send data of this kind.
    pub fn allows_kind(&self, kind: PsdKind) -> bool {
        // The verb must be another word than the kind's ("this morning's alert email" asks
        // to send no e-mail address).
        let words = kind_words(kind);
        self.share_verbs.iter().any(|v| !words.contains(v)) && self.names_kind(kind)
    }

    /// Whether the user's words name data of this kind ("… with her address"), asked to be
    /// sent or not.
    pub fn names_kind(&self, kind: PsdKind) -> bool {
        kind_words(kind).iter().any(|w| {
            let w = fold(w);
            self.words.contains(w.as_str())
                || (w.as_str().contains(' ') && self.folded.contains(w.as_str()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbs_are_found_as_each_verb_looked_up_finds_them() {
        assert!(SHARE_VERBS.len() <= 64);
        for task in [
            "Send the plumber our address and the gate code.",
            "Look at the ticket from this morning's alert email.",
            "Envía a mi banco mi IBAN, manda también el recibo",
            "Please write to her with my notes",
            "fortæl ham det, 送ってください",
            "nothing to see here",
            "",
        ] {
            let folded = fold(task).as_str().to_owned();
            let words: HashSet<String> = folded
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .map(str::to_owned)
                .collect();
            let said = |v: &&str| words.contains(*v) || (is_phrase(v) && folded.contains(*v));
            let share: Vec<&str> = SHARE_VERBS.iter().copied().filter(|v| said(v)).collect();
            let message = !share.is_empty() || MESSAGE_VERBS.iter().any(said);
            let c = Consent::new(task);
            assert_eq!(c.share_verbs, share, "{task}");
            assert_eq!(c.message_verb, message, "{task}");
        }
    }

    #[test]
    fn every_trigram_of_a_text_may_be_held() {
        let texts = [
            String::new(),
            "ab".to_owned(),
            "send the plumber our address".to_owned(),
            "envoie-lui mon numéro, s'il te plaît".to_owned(),
            "x".repeat(5000) + "abcdefghijklmnopqrstuvwxyz0123456789",
        ];
        for text in &texts {
            let t = Trigrams::of(text.as_bytes());
            for w in text.as_bytes().windows(3) {
                assert!(t.may_hold([w[0], w[1], w[2]]), "{text:?}");
            }
        }
        // A short text's filter leaves most other trigrams out.
        let t = Trigrams::of(b"send the plumber our address");
        let absent = (b'a'..=b'z')
            .flat_map(|a| (b'0'..=b'9').map(move |b| [a, b, b'q']))
            .filter(|&w| !t.may_hold(w))
            .count();
        assert!(absent > 200, "{absent}");
        assert!(!Trigrams::default().may_hold(*b"abc"));
    }

    #[test]
    fn the_users_words_consent_to_an_address() {
        use crate::PsdKind;
        use crate::decide::consent::Consent;
        let c = Consent::new("Send the plumber our address and the gate code.");
        assert!(c.allows_kind(PsdKind::StreetAddress));
        assert!(!c.allows_kind(PsdKind::Condition));
        assert!(c.allows_value("Gate code"));
    }

    #[test]
    fn a_kind_needs_a_verb_of_another_word_and_a_number_a_possessive() {
        use crate::PsdKind;
        let c = Consent::new("Look at the ticket from this morning's alert email.");
        assert!(!c.allows_kind(PsdKind::Email));
        let c = Consent::new("Email the landlord my phone number.");
        assert!(c.allows_kind(PsdKind::Phone));
        let c = Consent::new("Add the new hire, employee number 4471, and send the invite.");
        assert!(!c.allows_kind(PsdKind::Phone));
        let c = Consent::new("Send Ilse my number so she can call.");
        assert!(c.allows_kind(PsdKind::Phone));
    }

    #[test]
    fn consent_in_four_languages() {
        assert!(
            Consent::new("Schick dem Klempner meine Adresse").allows_kind(PsdKind::StreetAddress)
        );
        assert!(Consent::new("Envoie mon numéro de téléphone à Paul").allows_kind(PsdKind::Phone));
        assert!(Consent::new("Envía a mi banco mi IBAN").allows_kind(PsdKind::Iban));
        assert!(Consent::new("Manda a Luca il mio indirizzo").allows_kind(PsdKind::StreetAddress));
    }

    #[test]
    fn a_request_that_writes_to_someone_shares_in_many_languages() {
        for task in [
            "Mejla hyresvärden om en ramp",
            "Napisz do szkoły, że Ola jest chora",
            "Stuur de huisarts een bericht",
            "Skriv til udlejeren om trappen",
            "大家さんに伝えてください",
            "Ask the coach if Tom can play",
        ] {
            assert!(Consent::new(task).asks_to_share(), "{task}");
        }
        assert!(!Consent::new("I'm starting PrEP - look up Truvada for me").asks_to_share());
    }

    #[test]
    fn mentioning_is_not_asking() {
        assert!(
            !Consent::new("What's the weather at my address?").allows_kind(PsdKind::StreetAddress)
        );
        assert!(!Consent::new("Send the report").allows_kind(PsdKind::Phone));
    }
}
