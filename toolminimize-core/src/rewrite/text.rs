//! Edits inside free text: cutting spans and clauses with their labels and leading function
//! words, replacing spans, and tidying the punctuation left behind so the text stays readable.

use std::ops::Range;
use std::sync::LazyLock;

use rustc_hash::FxHashSet;

use crate::text::fold::fold_term;
use crate::text::inline::with_folded_term;
use crate::text::titles::written_as_title;

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
    // Asking to be reached: with the contact cut it asks for nothing ("Write to and I will
    // answer").
    "write to",
    "write me at",
    "email me at",
    "text me at",
    "text me on",
    "reach me at",
    "reach me on",
    "contact me at",
    "contact me on",
    // "My number (is) …" in the languages of the other labels (folded).
    "my number",
    "moje cislo",
    "moj numer",
    "meine nummer",
    "mon numero",
    "mi numero",
    "il mio numero",
    "o meu numero",
    "meu numero",
    "mijn nummer",
    "mitt nummer",
    "mit nummer",
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
    "cedula",
    "паспорт",
    "паспорта",
    "αμκα",
    "αφμ",
    "sozialversicherungsnummer",
    "burgerservicenummer",
    "de securite sociale",
    "henkilotunnus",
    "hetu",
    "pps",
    "tc kimlik",
    "t.c. kimlik",
    "kimlik",
    "aadhaar",
    "aadhar",
    "pan",
    "curp",
    "rut",
    "run",
    "nik",
    "ktp",
    "cccd",
    "cmnd",
    "cnp",
    "jmbg",
    "oib",
    "medicare",
    "sin",
    "tfn",
    "nin",
    "nric",
    "hkid",
    "teudat zehut",
    "주민등록번호",
    "マイナンバー",
    // "Password" in the languages the credential detector reads it in, folded and as written.
    "passwort",
    "kennwort",
    "mot de passe",
    "contraseña",
    "contrasena",
    "clave",
    "wachtwoord",
    "senha",
    "hasło",
    "haslo",
    "heslo",
    "losenord",
    "losenordet",
    "lösenord",
    "lösenordet",
    "passord",
    "passordet",
    "adgangskode",
    "adgangskoden",
    "kodeord",
    "kodeordet",
    "salasana",
    "sifre",
    "sifrem",
    "şifre",
    "şifrem",
    "parola",
    "jelszo",
    "jelszó",
    "contrasenya",
    "пароль",
    "κωδικος",
    "κωδικός",
    "mat khau",
    "mật khẩu",
    "kata sandi",
    "סיסמה",
    "הסיסמה",
    "كلمة المرور",
    "at",
];

/// Copulas written between a label and its value ("IBAN is …", "Konto ist …", "BSN is …",
/// "hasło to …", "mật khẩu là …"; "saya", "my", follows the Indonesian label).
const LABEL_COPULAS: &[&str] = &[
    "is",
    "are",
    "was",
    "ist",
    "est",
    "es",
    "e",
    "è",
    "é",
    "er",
    "är",
    "ar",
    "lautet",
    "luidt",
    "lyder",
    "je",
    "jest",
    "to",
    "on",
    "la",
    "là",
    "este",
    "ειναι",
    "είναι",
    "היא",
    "הוא",
    "هي",
    "adalah",
    "saya",
];

/// Whether folded `w` is one of the [`LABELS`] (a set of them, built on first use).
fn is_label(w: &str) -> bool {
    static SET: LazyLock<FxHashSet<&'static str>> =
        LazyLock::new(|| LABELS.iter().copied().collect());
    SET.contains(w)
}

/// Chinese labels of a phone number, glued to what follows them ("手机139…", "联系电话："),
/// longest first.
const UNSPACED_LABELS: &[&str] = &[
    "手机号码",
    "電話號碼",
    "电话号码",
    "联系电话",
    "聯絡電話",
    "联系方式",
    "聯繫方式",
    "手机号",
    "手機號",
    "手机",
    "手機",
    "电话",
    "電話",
];

/// What may stand between a Chinese label and its value: "是" (is), "为"/"為", colons.
const UNSPACED_LINKS: &[char] = &['是', '为', '為', ':', '：', ' '];

/// Possessives a Chinese label takes with it ("我的手机").
const UNSPACED_POSSESSIVES: &[&str] = &["我的", "他的", "她的"];

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
    // Prepositions of cause and possessives of the languages added later (folded):
    // "zbog depresije", "из-за рака", "через рак", "λόγω καρκίνου", "bị trầm cảm".
    "zbog",
    "из-за",
    "от",
    "мои",
    "моя",
    "через",
    "від",
    "міи",
    "λογω",
    "εξαιτιας",
    "karena",
    "akibat",
    "bi",
    // Dutch possessives and prepositions, and a few more of Portuguese, Italian and French
    // ("rolstoel voor mijn vader", "com o meu pai", "dal mio medico", "chez ma mère").
    "mijn",
    "onze",
    "voor",
    "van",
    "met",
    "bij",
    "com",
    "dal",
    "chez",
    // Swedish, Danish and Norwegian possessives and prepositions ("på grund av min migrän",
    // "efter min cancerbehandling", "til min fysioterapeut"); "hans" is left out, being a
    // given name too.
    "min",
    "mitt",
    "mina",
    "mit",
    "mine",
    "din",
    "ditt",
    "dina",
    "sin",
    "sitt",
    "sina",
    "av",
    "af",
    "pa",
    "med",
    "efter",
    "etter",
    "till",
    "til",
    "grund",
    "grunn",
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

/// Possessive determiners that never stand without the noun after them (folded; "her" is left
/// out, being an object pronoun too: "call her …").
const POSSESSIVES: &[&str] = &[
    "my", "our", "your", "their", "his", "mein", "meine", "meinen", "meinem", "meiner", "unser",
    "unsere", "mon", "ma", "mes", "notre", "nos", "votre", "vos", "mi", "mis", "nuestro",
    "nuestra", "mio", "mia", "mijn", "onze", "mitt", "min", "mina", "mit", "moj", "moja", "moje",
    "meu", "minha", "meus", "minhas",
];

/// Articles a label takes with it when it goes ("The password is …", "Het wachtwoord …").
const ARTICLES: &[&str] = &[
    "the", "a", "an", "der", "die", "das", "den", "dem", "le", "la", "les", "l'", "el", "los",
    "las", "il", "lo", "o", "os", "as", "het", "de", "een",
];

/// Where the determiners right before `start` begin: up to two articles and possessives ("La
/// mia" in "La mia password è …"), or `start` when there are none.
pub fn determiner_start(text: &str, start: usize) -> usize {
    start_of_words_before(text, start, 2, |f| {
        POSSESSIVES.contains(&f) || ARTICLES.contains(&f)
    })
}

/// Where the run of up to `max` words right before `start` begins whose folded forms are all
/// `listed`, or `start` when the word right before is not.
fn start_of_words_before(
    text: &str,
    start: usize,
    max: usize,
    listed: impl Fn(&str) -> bool,
) -> usize {
    let mut at = start;
    for _ in 0..max {
        match word_before(text, at) {
            Some((ws, w)) if with_folded_term(w, &listed) => at = ws,
            _ => break,
        }
    }
    at
}

/// Where a possessive determiner right before `start` begins ("my" in "my passport number"),
/// or `start` when there is none.
pub fn possessive_start(text: &str, start: usize) -> usize {
    start_of_words_before(text, start, 1, |f| POSSESSIVES.contains(&f))
}

/// The length of a bracketed age of one or two digits right after `end` (" (6)"), if one
/// follows.
pub fn bracketed_age_len(text: &str, end: usize) -> Option<usize> {
    let rest = text.get(end..)?;
    let inner = rest.strip_prefix(" (")?;
    let digits = inner.bytes().take_while(u8::is_ascii_digit).count();
    ((1..=2).contains(&digits) && inner.as_bytes().get(digits) == Some(&b')'))
        .then_some(2 + digits + 1)
}

/// Possessives that follow their noun in Norwegian, Swedish and Danish ("operasjonen min",
/// "pojken hans"), folded.
const POSTPOSED_POSSESSIVES: &[&str] = &[
    "min", "mitt", "mine", "mina", "din", "ditt", "dine", "dina", "hans", "hennes", "hendes",
    "sin", "sitt", "sine", "sina", "var", "vart", "vare", "vores", "deres",
];

/// The length of a possessive that follows the item ending at `end` and closes its clause
/// (" min" of "etter halsoperasjonen min."), if one does: with the item cut, it owns nothing.
pub fn postposed_possessive_len(text: &str, end: usize) -> Option<usize> {
    let rest = text.get(end..)?;
    let word = rest.strip_prefix(' ')?;
    let n = word
        .find(|c: char| !c.is_alphabetic())
        .unwrap_or(word.len());
    let w = word.get(..n)?;
    (with_folded_term(w, |f| POSTPOSED_POSSESSIVES.contains(&f))
        && clause_ends_at(text, end + 1 + n))
    .then_some(1 + n)
}

/// Prepositions of time that anchor a phrase on an event ("since my stroke", "seit dem
/// Unfall", "po mrtvici", "depuis son accident"), folded. With the event cut, they anchor
/// nothing ("Ich sitze seit dem im Rollstuhl").
const TIME_PREPOSITIONS: &[&str] = &[
    "since", "after", "during", "seit", "nach", "wahrend", "depuis", "apres", "pendant", "desde",
    "tras", "durante", "dopo", "sedan", "efter", "under", "siden", "etter", "sinds", "na",
    "tijdens", "po", "od", "podczas", "behem", "apos",
];

/// Determiners between such a preposition and its event ("dem", "seinem", "la sua"), folded.
const EVENT_DETERMINERS: &[&str] = &[
    "the", "a", "an", "my", "his", "her", "their", "our", "your", "der", "dem", "den", "des",
    "einem", "einer", "meinem", "meiner", "seinem", "seiner", "ihrem", "ihrer", "le", "la", "l'",
    "les", "mon", "ma", "son", "sa", "ses", "el", "su", "sus", "mi", "il", "lo", "suo", "sua",
    "mio", "mia", "o", "seu", "meu", "minha", "de", "het", "zijn", "haar", "mijn", "min", "mitt",
    "hans", "hennes", "hendes", "sin", "sitt", "mojej", "mojego", "jego", "jej", "jeho", "sve",
    "svou",
];

/// Where a preposition of time that anchors on the item at `start` begins ("seit" of "seit
/// dem Schlaganfall"), with up to two determiners between them, if there is one.
pub fn time_preposition_start(text: &str, start: usize, end: usize) -> Option<usize> {
    // The event's phrase ends with the item: a mark, the end, or a short function word
    // follows ("seit dem Schlaganfall im …"), not the noun the item qualifies ("after the
    // abuse case").
    let next = text.get(end..).unwrap_or_default().trim_start();
    let next_word = next
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or_default();
    if next_word.chars().count() > 3 {
        return None;
    }
    let at = start_of_words_before(text, start, 2, |f| EVENT_DETERMINERS.contains(&f));
    match word_before(text, at) {
        Some((ws, w)) if with_folded_term(w, |f| TIME_PREPOSITIONS.contains(&f)) => Some(ws),
        _ => None,
    }
}

/// Prepositions that name the agent of a report, a message or a signature ("reported by",
/// "sent from", "via", "gemeldet von", "signalé par", "enviado por"), folded. With the
/// person they name cut, they name no one, whatever follows.
const AGENT_PREPOSITIONS: &[&str] = &[
    "by", "from", "via", "von", "durch", "par", "por", "desde", "door", "van", "da", "av", "fra",
    "od",
];

/// Participles that head an agent phrase but are not regular ("sent by", "written by",
/// "geschrieben von", "écrit par", "escrito por"), folded; regular ones are known by their
/// endings (see [`is_agent_head`]).
const IRREGULAR_AGENT_HEADS: &[&str] = &[
    "sent",
    "written",
    "made",
    "done",
    "given",
    "drawn",
    "taken",
    "brought",
    "found",
    "kept",
    "held",
    "told",
    "forwarded",
    "escrito",
    "hecho",
    "dicho",
    "puesto",
    "visto",
    "ecrit",
    "fait",
    "dit",
    "mis",
    "transmis",
    "soumis",
    "remis",
    "pris",
    "geschrieben",
    "unterschrieben",
    "eingereicht",
    "verfasst",
    "ubermittelt",
    "erstellt",
];

/// Whether `w` (folded) reads as a past participle that an agent phrase follows: an
/// irregular one, or a regular ending (English "-ed", German "ge-…-t", French "-é(e)(s)",
/// Spanish "-ado/-ido", with their feminine and plural forms).
fn is_agent_head(w: &str) -> bool {
    const ENDINGS: &[&str] = &[
        "ed", "ado", "ada", "ados", "adas", "ido", "ida", "idos", "idas",
    ];
    let n = w.chars().count();
    IRREGULAR_AGENT_HEADS.contains(&w)
        || n >= 5 && ENDINGS.iter().any(|e| w.ends_with(e))
        || n >= 6 && w.starts_with("ge") && w.ends_with('t')
}

/// Whether a French participle ends in "-é", "-ée", "-és" or "-ées" as written (folding
/// takes the accent that marks it).
fn french_participle(raw: &str) -> bool {
    let lower = raw.to_lowercase();
    ["é", "ée", "és", "ées"].iter().any(|e| lower.ends_with(e)) && lower.chars().count() >= 4
}

/// Where an agent preposition right before `start` begins ("by" of "Reported by
/// jane@…", also written "by:"), if there is one.
pub fn agent_preposition_start(text: &str, start: usize) -> Option<usize> {
    let head = text.get(..start)?;
    let stripped = head.trim_end_matches(|c: char| c.is_whitespace() || c == ':');
    match word_before(text, stripped.len()) {
        Some((ws, w)) if with_folded_term(w, |f| AGENT_PREPOSITIONS.contains(&f)) => Some(ws),
        _ => None,
    }
}

/// Phrases a writer introduces themselves with, before their name (folded, words joined by a
/// space): with the name cut at the end of its clause, they would be left saying nothing ("…,
/// I'm").
const SELF_INTRODUCTIONS: &[&str] = &[
    "i'm",
    "im",
    "i am",
    "my name is",
    "this is",
    "name is",
    "je suis",
    "je m'appelle",
    "ich bin",
    "ich heisse",
    "mein name ist",
    "me llamo",
    "soy",
    "mi nombre es",
    "mi chiamo",
    "sono",
    "il mio nome e",
    "meu nome e",
    "sou",
    "ik ben",
    "mijn naam is",
    "ik heet",
    "jag heter",
    "jag ar",
    "jeg heter",
    "jeg hedder",
    "jeg er",
    "nazywam sie",
    "jestem",
    "jmenuji se",
    "jsem",
];

/// Where a self-introduction right before `start` begins ("I'm" of "…, I'm Jo Doe"), if one
/// opens its clause there: up to three words, read back from `start`.
pub fn self_introduction_start(text: &str, start: usize) -> Option<usize> {
    let mut at = start;
    let mut words: Vec<&str> = Vec::with_capacity(3);
    let mut found = None;
    for _ in 0..3 {
        let Some((ws, w)) = word_before(text, at) else {
            break;
        };
        words.insert(0, w);
        at = ws;
        let phrase = words.join(" ");
        if with_folded_term(&phrase, |f| SELF_INTRODUCTIONS.contains(&f)) {
            found = Some(ws);
        }
    }
    let ws = found?;
    opens_clause_at(text, ws).then_some(ws)
}

/// Whether a clause opens at byte `at` of `text`: only blanks stand between it and the start
/// of the text or a mark that ends a sentence or a clause.
fn opens_clause_at(text: &str, at: usize) -> bool {
    text.get(..at).is_some_and(|before| {
        let before = before.trim_end_matches([' ', '\t']);
        before.is_empty()
            || before.ends_with([
                '.', '!', '?', '\n', '(', '[', ',', ';', ':', '-', '–', '—', '|',
            ])
    })
}

/// Where the participle that opens a clause and heads the agent phrase at `prep` begins
/// ("Reported" of ". Reported by …", "submitted" of ", submitted by …"), if there is one: cut
/// with its agent at the clause's end, it would be left alone. A participle after its subject
/// ("the crash was reported by …") reads on without the agent and is not returned.
pub fn agent_head_start(text: &str, prep: usize) -> Option<usize> {
    let (ws, w) = word_before(text, prep)?;
    if !(with_folded_term(w, is_agent_head) || french_participle(w)) {
        return None;
    }
    opens_clause_at(text, ws).then_some(ws)
}

/// Whether the clause ends at `end`: only blanks follow before a sentence or clause end, a
/// closing bracket, or the end of the text.
pub fn clause_ends_at(text: &str, end: usize) -> bool {
    text.get(end..)
        .and_then(|t| t.trim_start_matches([' ', '\t']).chars().next())
        .is_none_or(|c| matches!(c, '.' | '!' | '?' | '\n' | '\r' | ',' | ';' | ')' | ']'))
}

/// Extends a span leftwards over an identifier label ("SSN", "Tel.:") and over function words.
pub fn removal_range(text: &str, span: Range<usize>) -> Range<usize> {
    // A word joined to the span by a hyphen is part of it ("type 1-diabetes" leaves no
    // "1-", "Krebs-Patientin" no "-Patientin").
    let span = hyphen_joined(text, span);
    // The label, then up to four function words.
    let start = start_of_words_before(text, label_start(text, span.start), 4, |f| {
        LEFT_FUNCTION_WORDS.contains(&f)
    });
    // An abbreviation's dot that also ends the sentence ("… at 27 Birch Rd. See you") stays
    // as the full stop: the next sentence does not run into what is left of this one.
    let span = if ends_sentence_with_dot(text, &span) {
        span.start..span.end - 1
    } else {
        span
    };
    // A possessive ending goes with its word ("at Dr. Okwu's for …" leaves no "'s").
    let rest = text.get(span.end..).unwrap_or_default();
    let end = ["'s", "\u{2019}s"]
        .iter()
        .find(|p| {
            rest.strip_prefix(**p)
                .is_some_and(|after| !after.starts_with(char::is_alphanumeric))
        })
        .map_or(span.end, |p| span.end + p.len());
    start..end
}

/// `span` widened over the words a hyphen joins to it on either side, with no space between.
fn hyphen_joined(text: &str, span: Range<usize>) -> Range<usize> {
    let token_char = |c: char| c.is_alphanumeric() || c == '-';
    let mut start = span.start;
    let before = text.get(..start).unwrap_or_default();
    if before.ends_with('-')
        && before
            .strip_suffix('-')
            .and_then(|b| b.chars().next_back())
            .is_some_and(char::is_alphanumeric)
    {
        let head = before.trim_end_matches(token_char);
        start = head.len();
    }
    let mut end = span.end;
    let after = text.get(end..).unwrap_or_default();
    if after
        .strip_prefix('-')
        .and_then(|a| a.chars().next())
        .is_some_and(char::is_alphanumeric)
    {
        let tail = after.trim_start_matches(token_char);
        end = text.len() - tail.len();
    }
    start..end
}

/// Whether `span` ends in a dot after a letter that is followed by a blank and a capital (or
/// the end of the text), so that the dot closes the sentence as well as the span.
fn ends_sentence_with_dot(text: &str, span: &Range<usize>) -> bool {
    let Some(inner) = text.get(span.clone()) else {
        return false;
    };
    let Some(head) = inner.strip_suffix('.') else {
        return false;
    };
    if !head.chars().next_back().is_some_and(char::is_alphabetic) {
        return false;
    }
    let rest = text.get(span.end..).unwrap_or_default();
    let after = rest.trim_start_matches([' ', '\t']);
    rest.is_empty()
        || after.len() < rest.len() && after.chars().next().is_some_and(char::is_uppercase)
        || rest.starts_with(['\n', '\r'])
}

/// Verb phrases that tie a person to what is said of them ("has", "was diagnosed with", "qui
/// souffre de"), folded, longest first within each language. A person cut from the start of
/// such a statement takes the phrase along, so that what stays reads as a topic ("autism,
/// schools in Leeds"), not as a statement about nobody ("has autism, …").
const SUBJECT_PREDICATES: &[&str] = &[
    "who has been diagnosed with",
    "has been diagnosed with",
    "was diagnosed with",
    "is diagnosed with",
    "who suffers from",
    "suffers from",
    "who lives with",
    "lives with",
    "who has",
    "who is",
    "who was",
    "has got",
    "has",
    "had",
    "is",
    "was",
    "der hat",
    "die hat",
    "leidet an",
    "leidet unter",
    "hat",
    "ist",
    "qui souffre de",
    "souffre de",
    "qui a",
    "qui est",
    "a",
    "est",
    "que padece",
    "que tiene",
    "padece",
    "sufre de",
    "tiene",
    "che soffre di",
    "soffre di",
    "che ha",
    "ha",
    "que sofre de",
    "sofre de",
    "que tem",
    "tem",
    "lijdt aan",
    "heeft",
];

/// The words of a short first-person turn that leads into the user's story in a search (folded):
/// pronouns, auxiliaries, time adverbs and verbs of telling ("I was just", "I've been", "my
/// doctor says I have", "ich wurde gerade", "on m'a", "me acaban de"). A diagnosis cut from
/// the story takes the turn before it along when nothing else stands between it and the start
/// of its clause, so that the topic kept reads as one ("ADHD at 35, what now?", not "I was just
/// ADHD at 35").
const STORY_LEAD_IN: &[&str] = &[
    // English
    "i",
    "i'm",
    "im",
    "i've",
    "ive",
    "we",
    "we've",
    "we're",
    "my",
    "our",
    "me",
    "us",
    "he",
    "she",
    "they",
    "he's",
    "she's",
    "they've",
    "was",
    "were",
    "been",
    "have",
    "has",
    "had",
    "am",
    "is",
    "are",
    "be",
    "being",
    "got",
    "get",
    "gotten",
    "just",
    "recently",
    "finally",
    "officially",
    "now",
    "today",
    "also",
    "says",
    "said",
    "say",
    "told",
    "tells",
    "thinks",
    "think",
    "that",
    "found",
    "out",
    "so",
    "and",
    "who",
    // German
    "ich",
    "wir",
    "mein",
    "meine",
    "mir",
    "mich",
    "bin",
    "sind",
    "wurde",
    "wurden",
    "habe",
    "hat",
    "haben",
    "gerade",
    "eben",
    "kurzlich",
    "jetzt",
    "heute",
    "sagt",
    "meint",
    "dass",
    // French
    "je",
    "j'ai",
    "on",
    "m'a",
    "m'ont",
    "ai",
    "suis",
    "ete",
    "viens",
    "vient",
    "de",
    "d'etre",
    "mon",
    "ma",
    "dit",
    "que",
    "qu'il",
    "qu'elle",
    "j'",
    "aujourd'hui",
    // Spanish, Italian, Portuguese
    "yo",
    "mi",
    "acaban",
    "acaba",
    "han",
    "sido",
    "fui",
    "hoy",
    "dice",
    "tengo",
    "io",
    "hanno",
    "ho",
    "sono",
    "stato",
    "stata",
    "appena",
    "eu",
    "acabei",
    "tenho",
    "meu",
    "minha",
    "foi",
    // Dutch
    "ik",
    "ben",
    "heb",
    "werd",
    "net",
    "zojuist",
    "mijn",
    "zegt",
];

/// Words of a lead-in read back at most: the turn is short.
const MAX_LEAD_IN_WORDS: usize = 8;

/// Longest abbreviation read in parentheses after a cut term (characters).
const MAX_ABBREVIATION: usize = 8;

/// Where a parenthesised abbreviation right after `end` ends ("multiple sclerosis (MS)",
/// "sclérose en plaques (SEP)", "chronic obstructive pulmonary disease (COPD)"): two to
/// [`MAX_ABBREVIATION`] capitals, digits, '-' or '&', starting with a capital, in round
/// brackets, with at most one space before; `end` when there is none. A term cut without it
/// leaves a stray "(MS)" that still names it.
pub fn abbreviation_end(text: &str, end: usize) -> usize {
    let Some(rest) = text.get(end..) else {
        return end;
    };
    let lead = if rest.starts_with(' ') { 1 } else { 0 };
    let Some(inner) = rest.get(lead..).and_then(|t| t.strip_prefix('(')) else {
        return end;
    };
    let Some(close) = inner
        .char_indices()
        .take(MAX_ABBREVIATION + 1)
        .find(|(_, c)| *c == ')')
        .map(|(i, _)| i)
    else {
        return end;
    };
    let abbr = inner.get(..close).unwrap_or_default();
    let ok = abbr.chars().count() >= 2
        && abbr.chars().next().is_some_and(char::is_uppercase)
        && abbr
            .chars()
            .all(|c| c.is_uppercase() || c.is_ascii_digit() || matches!(c, '-' | '&'));
    if ok { end + lead + 1 + close + 1 } else { end }
}

/// Whether `at` starts a clause: only blanks stand between it and the text's start or a
/// sentence or clause mark.
pub fn at_clause_start(text: &str, at: usize) -> bool {
    let head = text
        .get(..at)
        .unwrap_or_default()
        .trim_end_matches([' ', '\t']);
    head.is_empty()
        || head.ends_with([
            '.', '!', '?', '\n', ',', ';', ':', '(', '[', '-', '–', '—', '|',
        ])
}

/// Where the short first-person turn before `start` begins when it runs back to the start of
/// its clause (the text's start or a sentence or clause mark) through [`STORY_LEAD_IN`] words
/// and words that `removed` covers (a relation or a role cut beside it: "my doctor says I
/// have"); `None` when another word stands in the way, or when there is no such turn.
pub fn story_lead_start(
    text: &str,
    start: usize,
    removed: impl Fn(&Range<usize>) -> bool,
) -> Option<usize> {
    let mut at = start;
    for _ in 0..=MAX_LEAD_IN_WORDS {
        if at_clause_start(text, at) {
            return (at < start).then_some(at);
        }
        let (ws, w) = word_before(text, at)?;
        let folded = fold_term(w);
        if !(STORY_LEAD_IN.contains(&folded.as_str()) || removed(&(ws..ws + w.len()))) {
            return None;
        }
        at = ws;
    }
    None
}

/// Where the short first-person turn after a cut at the start of its clause ends: at the start
/// of the next word `kept` says stays, when only [`STORY_LEAD_IN`] words stand between ("my GP
/// [says I have] high blood pressure"); `None` otherwise.
pub fn story_lead_end(text: &str, end: usize, kept: impl Fn(usize) -> bool) -> Option<usize> {
    let rest = text.get(end..)?;
    let mut at = 0;
    for _ in 0..=MAX_LEAD_IN_WORDS {
        let tail = rest.get(at..)?;
        let lead = tail.len() - tail.trim_start_matches([' ', '\t']).len();
        let word_start = at + lead;
        if word_start > at && kept(end + word_start) {
            return (word_start > 0).then_some(end + word_start);
        }
        let word = rest.get(word_start..)?;
        let len = word
            .char_indices()
            .find(|(_, c)| !(c.is_alphanumeric() || matches!(c, '\'' | '’')))
            .map_or(word.len(), |(i, _)| i);
        if len == 0 || !STORY_LEAD_IN.contains(&fold_term(word.get(..len)?).as_str()) {
            return None;
        }
        at = word_start + len;
    }
    None
}

/// Where a subject cut at `span` ends once the verb phrase after it goes too ("my son" in "my
/// son has autism" takes "has "): the end of the phrase and its space, when a word follows it;
/// `span.end` otherwise.
pub fn subject_end(text: &str, span: &Range<usize>) -> usize {
    let Some(rest) = text.get(span.end..) else {
        return span.end;
    };
    let lead = rest.len() - rest.trim_start_matches([' ', ',']).len();
    let after = rest.get(lead..).unwrap_or_default();
    // The phrases are ASCII: compared byte by byte, ignoring case; a word must follow.
    SUBJECT_PREDICATES
        .iter()
        .find_map(|p| {
            let n = p.len();
            let head = after.as_bytes().get(..=n)?;
            (head.get(..n)?.eq_ignore_ascii_case(p.as_bytes())
                && head.get(n) == Some(&b' ')
                && after
                    .get(n + 1..)
                    .is_some_and(|t| t.starts_with(char::is_alphanumeric)))
            .then_some(span.end + lead + n + 1)
        })
        .unwrap_or(span.end)
}

/// Where the identifier label before `start` begins ("SSN", "Tel.:", "date of birth"), or
/// `start` when there is none.
pub fn label_start(text: &str, start: usize) -> usize {
    let value_start = start;
    let mut start = unspaced_label_start(text, start).unwrap_or(start);
    // Labels, possibly two words ("date of birth"), with ':' '#' '-' between.
    for _ in 0..3 {
        let mut from = start.saturating_sub(MAX_WORD_LOOK_BACK);
        while from < start && !text.is_char_boundary(from) {
            from += 1;
        }
        let head = text.get(from..start).unwrap_or_default();
        let mut stripped =
            head.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, ':' | '#' | '='));
        // A copula between the label and its value ("my IBAN is …", "mein Konto ist …") goes
        // with the label; alone, it stays.
        if let Some((ws, w)) = word_before(stripped, stripped.len())
            && with_folded_term(w, |f| LABEL_COPULAS.contains(&f))
            && let Some(before) = stripped.get(..ws).map(str::trim_end)
        {
            if let Some(label) = label_before_qualifier(before) {
                stripped = label;
            } else if label_start(before, before.len()) < before.len() {
                stripped = before;
            }
        }
        // Where the last one, two and three words of `stripped` start, each read once.
        let mut starts = [None; 3];
        let mut s = stripped.len();
        for slot in &mut starts {
            let Some((ws, _)) = word_before(stripped, s) else {
                break;
            };
            s = ws;
            *slot = Some(ws);
        }
        let mut matched = false;
        for words in [3usize, 2, 1] {
            let Some(s) = starts.get(words - 1).copied().flatten() else {
                continue;
            };
            let cand = stripped.get(s..).unwrap_or_default();
            // A removed name takes its title with it ("Mr Halvorsen" leaves no "Mr").
            // Only a title written as one, not the everyday word ("we will miss …").
            let labels = with_folded_term(cand, |folded| {
                let trimmed = folded.trim_end_matches(['.', ':']).trim();
                is_label(trimmed) || written_as_title(cand, trimmed) || is_label(folded)
            });
            if labels {
                start = from + s;
                matched = true;
                break;
            }
        }
        if !matched {
            break;
        }
    }
    // A label glued into an identifier goes whole: `user_id=…`, `customer.id:…`.
    let head = text.get(..start).unwrap_or_default();
    if start < value_start
        && head.ends_with(['_', '.'])
        && head
            .trim_end_matches(['_', '.'])
            .ends_with(|c: char| c.is_ascii_alphanumeric())
        && text
            .get(start..)
            .is_some_and(|t| t.starts_with(|c: char| c.is_ascii_alphabetic()))
    {
        let glued =
            head.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.'));
        start = glued.len();
    }
    start
}

/// Words that may stand between a label and its copula, naming whose or which it is: a
/// preposition ("wachtwoord van mijn account is …", "the password for the wifi is …") or a
/// possessive written after its noun ("passordet mitt er …", "lösenordet mitt är …").
const QUALIFIERS: &[&str] = &[
    "of", "for", "van", "voor", "von", "fur", "zum", "zur", "de", "du", "des", "pour", "para",
    "per", "di", "del", "della", "do", "da", "dla", "na", "til", "av", "od", "pro", "mitt", "min",
    "mine", "mina", "mio", "mia",
];

/// `text` up to the end of a label that up to three words after it qualify (see
/// [`QUALIFIERS`]: the first of them is one), if there is one.
fn label_before_qualifier(text: &str) -> Option<&str> {
    let mut end = text.len();
    for _ in 0..3 {
        let (ws, w) = word_before(text, end)?;
        let head = text.get(..ws)?.trim_end();
        if with_folded_term(w, |f| QUALIFIERS.contains(&f))
            && !head.is_empty()
            && label_start(head, head.len()) < head.len()
        {
            return Some(head);
        }
        end = ws;
    }
    None
}

/// Where a Chinese phone label glued before `start` begins, with its possessive ("我的手机是",
/// "联系电话："), if there is one.
fn unspaced_label_start(text: &str, start: usize) -> Option<usize> {
    let head = text.get(..start)?;
    let stripped = head.trim_end_matches(UNSPACED_LINKS);
    let label = UNSPACED_LABELS.iter().find(|l| stripped.ends_with(**l))?;
    let at = stripped.len() - label.len();
    let before = stripped.get(..at)?;
    let at = UNSPACED_POSSESSIVES
        .iter()
        .find(|p| before.ends_with(**p))
        .map_or(at, |p| at - p.len());
    Some(at)
}

/// Applies edits (overlapping ones merged; a replacement inside a removal is dropped) and
/// tidies the debris they leave: only the spaces and punctuation around each cut change, so
/// what the text had elsewhere (indentation, an ellipsis, `f()`, French spacing before `?`)
/// stays as it was written.
pub fn apply_edits(text: &str, edits: Vec<Edit>) -> String {
    let merged = merge_edits(text, edits);
    let (out, seams) = copy_with_edits(text, &merged);
    drop(merged);
    tidy_around(&out, &seams)
}

/// [`apply_edits`] without any tidying, for a text that is data (its spaces and punctuation
/// are syntax).
pub(crate) fn apply_edits_raw(text: &str, edits: Vec<Edit>) -> String {
    let merged = merge_edits(text, edits);
    copy_with_edits(text, &merged).0
}

/// `text` with the (merged, ordered) edits applied, into a new buffer, and the seams: where in
/// it each cut was made (both ends of a replacement), in order.
fn copy_with_edits(text: &str, merged: &[Edit]) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(text.len());
    let mut seams = Vec::with_capacity(merged.len() * 2);
    let mut pos = 0;
    for e in merged {
        out.push_str(text.get(pos..e.range.start).unwrap_or_default());
        seams.push(out.len());
        if !e.with.is_empty() {
            out.push_str(&e.with);
            seams.push(out.len());
        }
        pos = e.range.end;
    }
    out.push_str(text.get(pos..).unwrap_or_default());
    (out, seams)
}

/// [`apply_edits`] to a text the caller gives up: it is dropped as soon as its rewritten copy
/// is made, so at most two copies of a long text are alive at once.
pub(crate) fn apply_edits_owned(text: String, edits: Vec<Edit>) -> String {
    let merged = merge_edits(&text, edits);
    let (out, seams) = copy_with_edits(&text, &merged);
    drop(merged);
    drop(text);
    tidy_around(&out, &seams)
}

/// Whether `c` can be debris a cut leaves: a space, or a character that is neither a letter,
/// a digit nor a line break or tab (the punctuation and symbols of [`DEBRIS`] among them).
fn is_debris(c: char) -> bool {
    c == ' ' || !(c.is_alphanumeric() || c.is_whitespace())
}

/// The runs of debris characters around the seams, in order and apart: the only places a cut
/// can have left debris. Each run is read once (a seam inside a run already found is skipped;
/// a run reaches left no further than the run before it).
fn debris_runs(t: &str, seams: &[usize]) -> Vec<Range<usize>> {
    let mut runs: Vec<Range<usize>> = Vec::with_capacity(seams.len());
    for &s in seams {
        let floor = runs.last().map_or(0, |r| r.end);
        if s < floor || (s == floor && !runs.is_empty()) || !t.is_char_boundary(s) {
            continue;
        }
        let head = t.get(floor..s).unwrap_or_default();
        let start = s - head
            .chars()
            .rev()
            .take_while(|&c| is_debris(c))
            .map(char::len_utf8)
            .sum::<usize>();
        let tail = t.get(s..).unwrap_or_default();
        let end = s + tail
            .chars()
            .take_while(|&c| is_debris(c))
            .map(char::len_utf8)
            .sum::<usize>();
        if start < end {
            runs.push(start..end);
        }
    }
    runs
}

/// `t` with the debris around its seams tidied: in each run of spaces and punctuation that
/// holds a seam, spaces fold into one and the [`DEBRIS`] patterns are replaced; a run at
/// either end of the text loses its separators, a run at the end of a line its spaces, and
/// one at the start of a line keeps the line's indentation but not a space, comma or
/// semicolon the cut left; a
/// line the cut left with only its full stop is emptied; a lower-case word a run leaves at the
/// start of a sentence is capitalised.
fn tidy_around(t: &str, seams: &[usize]) -> String {
    let runs = debris_runs(t, seams);
    let mut out = String::with_capacity(t.len());
    let mut pos = 0;
    let mut capital = false;
    for run in runs {
        push_capitalised(&mut out, t.get(pos..run.start).unwrap_or_default(), capital);
        let before = t.get(..run.start).and_then(|h| h.chars().next_back());
        let after = t.get(run.end..).and_then(|r| r.chars().next());
        let raw = t.get(run.clone()).unwrap_or_default();
        let line_start = before == Some('\n');
        let line_end = after == Some('\n');
        // The indentation of a line is what its start had before the first seam.
        let indent = if line_start {
            let first = seams
                .iter()
                .find(|&&s| s >= run.start)
                .map_or(0, |&s| s - run.start);
            let written = raw.get(..first).unwrap_or_default();
            written.len() - written.trim_start_matches(' ').len()
        } else {
            0
        };
        out.push_str(raw.get(..indent).unwrap_or_default());
        let mut piece = fold_spaces(raw.get(indent..).unwrap_or_default());
        piece = tidy_debris(piece);
        if line_start {
            // A comma or semicolon the cut left opening a line goes with its space ("27 Elm
            // Road, Leeds" on a signature line leaves "Leeds"); a bullet stays.
            let kept = piece.trim_start_matches([' ', ',', ';']).len();
            piece.drain(..piece.len() - kept);
        }
        if line_end {
            piece.truncate(piece.trim_end_matches(' ').len());
        }
        if run.start == 0 {
            trim_start_separators(&mut piece);
        }
        if run.end == t.len() {
            trim_end_separators(&mut piece);
        }
        if line_start && line_end && piece == "." {
            piece.clear();
        }
        if piece == " " && drop_doubled_word(&mut out, t.get(run.end..).unwrap_or_default()) {
            piece.clear();
        }
        out.push_str(&piece);
        capital = after.is_some() && ends_sentence(&out);
        pos = run.end;
    }
    push_capitalised(&mut out, t.get(pos..).unwrap_or_default(), capital);
    out
}

/// Whether the word `out` ends with is the word `rest` starts with, a cut having brought the
/// two together ("a seat for ⟨x⟩ for the test"); if so the first goes, with nothing
/// else. Numbers are left as they are ("2 2").
fn drop_doubled_word(out: &mut String, rest: &str) -> bool {
    let tail = out
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric())
        .map(char::len_utf8)
        .sum::<usize>();
    let Some(word) = out.get(out.len() - tail..).filter(|w| !w.is_empty()) else {
        return false;
    };
    let next = rest
        .char_indices()
        .find(|&(_, c)| !c.is_alphanumeric())
        .map_or(rest, |(i, _)| &rest[..i]);
    if next != word || word.chars().all(|c| c.is_ascii_digit()) {
        return false;
    }
    out.truncate(out.len() - tail);
    true
}

/// Appends `s`, its first character upper-cased when `capital` and it is a lower-case letter.
fn push_capitalised(out: &mut String, s: &str, capital: bool) {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if capital && c.is_lowercase() => {
            out.extend(c.to_uppercase());
            out.push_str(chars.as_str());
        }
        _ => out.push_str(s),
    }
}

/// Whether `out` ends with a sentence end and a space: `!` or `?`, or a full stop that does
/// not end a short form ("z.B.", "Av.").
fn ends_sentence(out: &str) -> bool {
    let Some(head) = out.strip_suffix(' ') else {
        return false;
    };
    if head.ends_with(['!', '?']) {
        return true;
    }
    head.strip_suffix('.')
        .is_some_and(|stop| !abbreviation_before(stop))
}

/// `s` with every run of spaces folded into one.
fn fold_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if !(c == ' ' && out.ends_with(' ')) {
            out.push(c);
        }
    }
    out
}

/// Replaces the [`DEBRIS`] patterns in a run of debris, in rounds until none is left (at most
/// [`MAX_TIDY_ROUNDS`], so nested debris such as "((((…))))" costs linear time too).
fn tidy_debris(mut t: String) -> String {
    // Which patterns occur is known from one pass over the run, made again after each
    // replacement (a replacement can make or unmake the others).
    let mut present = debris_in(t.as_bytes());
    for _ in 0..MAX_TIDY_ROUNDS {
        if present == 0 {
            break;
        }
        for (k, (from, to)) in DEBRIS.iter().enumerate() {
            if present & (1 << k) != 0 {
                t = replace_shorter(t, from, to);
                present = debris_in(t.as_bytes());
            }
        }
    }
    t
}

/// The separators a cut left at the start of a text go (and full stops).
fn trim_start_separators(t: &mut String) {
    let start = t.len()
        - t.trim_start_matches(|c: char| SEPARATORS.contains(&c) || c == '.')
            .len();
    t.drain(..start);
}

/// The separators a cut left at the end of a text go.
fn trim_end_separators(t: &mut String) {
    t.truncate(t.trim_end_matches(SEPARATORS).len());
}

/// What a cut at either end of a text leaves dangling.
const SEPARATORS: &[char] = &[' ', ',', ';', ':', '-', '–', '—', '|', '/', '、', '，', '،'];

/// The edits to apply, in order, overlapping ones merged.
fn merge_edits(text: &str, mut edits: Vec<Edit>) -> Vec<Edit> {
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
    merged
}

/// Most rounds of punctuation tidying per text.
const MAX_TIDY_ROUNDS: usize = 16;

/// The debris tidying replaces, in order: each `from` with its `to` (never longer).
const DEBRIS: [(&str, &str); 64] = [
    // A cut that took a sentence's first clause leaves its comma after the full stop
    // ("yesterday. , please hurry"): the rest starts a sentence (capitalised below).
    (". ,", "."),
    ("! ,", "!"),
    ("? ,", "?"),
    (" ,", ","),
    (" .", "."),
    (" ।", "।"),
    (",।", "।"),
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
    ("，，", "，"),
    ("，。", "。"),
    ("（，", "（"),
    ("，）", "）"),
    ("،،", "،"),
    ("،.", "."),
    (",,", ","),
    (", ,", ","),
    (",.", "."),
    (";.", "."),
    (".;", "."),
    (",;", ";"),
    (";;", ";"),
    (". .", "."),
    ("..", "."),
    // A sentence cut after a question keeps only its question mark ("10:00? . Regards").
    ("?.", "?"),
    ("!.", "!"),
    // A clause cut before its question mark ("how is your mum doing, [aside]?").
    (",?", "?"),
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
    // A line whose sentence was cut but for its full stop.
    ("\n.\n", "\n\n"),
];

/// Per byte: the [`DEBRIS`] patterns whose first byte it is, one bit each.
const DEBRIS_FIRST: [u64; 256] = debris_bytes(0);

/// Per byte: the [`DEBRIS`] patterns whose second byte it is, one bit each.
const DEBRIS_SECOND: [u64; 256] = debris_bytes(1);

/// Per byte: the [`DEBRIS`] patterns whose byte `at` it is (every pattern has two bytes or
/// more).
#[allow(clippy::indexing_slicing)] // evaluated at compile time: a bad index fails the build
const fn debris_bytes(at: usize) -> [u64; 256] {
    let mut t = [0u64; 256];
    let mut k = 0;
    while k < DEBRIS.len() {
        let b = DEBRIS[k].0.as_bytes()[at];
        t[b as usize] |= 1 << k;
        k += 1;
    }
    t
}

/// The [`DEBRIS`] patterns that occur in `t`, one bit each: one pass, where a pattern is only
/// compared at a byte pair that can start it.
fn debris_in(t: &[u8]) -> u64 {
    let mut found = 0u64;
    for (i, pair) in t.windows(2).enumerate() {
        let [a, b] = pair else { continue };
        let mut candidates = DEBRIS_FIRST.get(usize::from(*a)).copied().unwrap_or(0)
            & DEBRIS_SECOND.get(usize::from(*b)).copied().unwrap_or(0)
            & !found;
        while candidates != 0 {
            let k = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            if DEBRIS
                .get(k)
                .is_some_and(|(from, _)| t.get(i..).is_some_and(|r| r.starts_with(from.as_bytes())))
            {
                found |= 1 << k;
            }
        }
    }
    found
}

/// `t.replace(from, to)` for a `to` no longer than `from`, inside `t`'s own buffer (a long
/// text is not copied for each kind of debris tidied).
fn replace_shorter(t: String, from: &str, to: &str) -> String {
    if from.is_empty() || to.len() > from.len() {
        return t.replace(from, to);
    }
    let (from, to) = (from.as_bytes(), to.as_bytes());
    let mut b = t.into_bytes();
    let (mut r, mut w) = (0, 0);
    // Matches are found in what is not yet rewritten (at or after `r`); writes stay before it.
    while let Some(at) = find(b.get(r..).unwrap_or_default(), from) {
        let start = r + at;
        b.copy_within(r..start, w);
        w += start - r;
        if let Some(dst) = b.get_mut(w..w + to.len()) {
            dst.copy_from_slice(to);
        }
        w += to.len();
        r = start + from.len();
    }
    let len = b.len();
    b.copy_within(r..len, w);
    b.truncate(w + (len - r));
    // Whole characters replaced by whole characters: the bytes are UTF-8.
    String::from_utf8(b).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The first position of `needle` in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    let mut from = 0;
    while let Some(i) = hay.get(from..)?.iter().position(|&b| b == first) {
        let at = from + i;
        if hay.get(at + 1..at + needle.len()) == Some(rest) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Short forms a sentence goes on after (folded, without their stop): street words, "number",
/// "about", "compare", "respectively" and the like, in the languages the lexicons cover.
/// Titles ("Dr.", "Sra.") count too, and so does any short form with a stop inside ("e.g.",
/// "z.B.", "d.h.").
const ABBREVIATIONS: &[&str] = &[
    "av", "avda", "ave", "blvd", "rd", "st", "str", "pl", "ul", "al", "nr", "no", "tel", "fax",
    "ca", "approx", "incl", "excl", "bzw", "vgl", "ggf", "evtl", "usw", "vs", "cf", "resp", "ref",
    "art", "abs", "ziff", "pkt", "np", "tj", "tzn", "wg", "ex", "nº",
];

/// Whether the word that ends `head` (a full stop follows it) is a short form after which the
/// sentence goes on ("Av. da República", "ca. fünf"): what follows it is not capitalised.
fn abbreviation_before(head: &str) -> bool {
    let word = head
        .rsplit(|c: char| c.is_whitespace() || matches!(c, '(' | '[' | '"' | '\'' | '/' | ','))
        .next()
        .unwrap_or_default();
    if word.is_empty() || word.chars().any(|c| c.is_ascii_digit()) {
        return false;
    }
    if word.contains('.') && word.chars().any(char::is_alphabetic) {
        return true;
    }
    let folded = fold_term(word);
    ABBREVIATIONS.contains(&folded.as_str()) || crate::text::titles::is_title(&folded)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_copula_between_a_label_and_its_value_goes_with_the_label() {
        for (text, value, label) in [
            (
                "Refund please. My IBAN is GB00 TEST 0000",
                "GB00",
                "IBAN is ",
            ),
            ("Mein Konto ist 12345678.", "12345678", "Konto ist "),
            ("Mijn BSN is 999999990.", "999999990", "BSN is "),
        ] {
            let at = text.find(value).unwrap_or(0);
            let start = super::label_start(text, at);
            assert_eq!(&text[start..at], label, "{text}");
        }
        // A copula with no label before it stays.
        let text = "The answer is 42";
        let at = text.find("42").unwrap_or(0);
        assert_eq!(super::label_start(text, at), at);
    }

    #[test]
    fn a_subject_takes_the_verb_tying_it_to_what_stays() {
        let cases = [
            ("my son has autism, schools", "my son", "my son has "),
            (
                "for my niece who has asthma",
                "my niece",
                "my niece who has ",
            ),
            (
                "my wife was diagnosed with MS",
                "my wife",
                "my wife was diagnosed with ",
            ),
            (
                "mon fils qui souffre de migraines",
                "mon fils",
                "mon fils qui souffre de ",
            ),
            // Nothing after the verb, or no verb: the subject alone.
            ("my son has", "my son", "my son"),
            ("my son and I", "my son", "my son"),
            ("my son hasn't", "my son", "my son"),
        ];
        for (text, subject, cut) in cases {
            let start = text.find(subject).unwrap_or(0);
            let span = start..start + subject.len();
            let end = super::subject_end(text, &span);
            assert_eq!(&text[start..end], cut, "{text}");
        }
    }

    use super::*;

    #[test]
    fn a_removal_takes_its_separator() {
        use crate::rewrite::text::{Edit, apply_edits, removal_range};
        let text = "I'll be late - I have an appointment at the clinic for my refill. - Ana, SSN 123-45-6789";
        let ssn = text.find("123").unwrap();
        let r = removal_range(text, ssn..text.len());
        assert_eq!(
            apply_edits(text, vec![Edit::remove(r)]),
            "I'll be late - I have an appointment at the clinic for my refill. - Ana"
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
        // A removed name takes its title.
        let t = "Ask Mr. Halvorsen on the fifth floor.";
        let s = t.find("Halvorsen").unwrap();
        assert_eq!(&t[removal_range(t, s..s + 9)], "Mr. Halvorsen");
        let t = "Termin bei Frau Lindqvist";
        let s = t.find("Lindqvist").unwrap();
        assert_eq!(&t[removal_range(t, s..s + 9)], "bei Frau Lindqvist");
        let t = "I'll be at Dr. Okwu's for my follow-up";
        let s = t.find("Okwu").unwrap();
        assert_eq!(&t[removal_range(t, s..s + 4)], "at Dr. Okwu's");
        // Any title of the shared list, in its inflected forms too.
        let t = "Sagen Sie nichts zu Herrn Kölling.";
        let s = t.find("Kölling").unwrap();
        assert_eq!(&t[removal_range(t, s..s + 8)], "Herrn Kölling");
        let t = "Ask D. Amalia upstairs.";
        let s = t.find("Amalia").unwrap();
        assert_eq!(&t[removal_range(t, s..s + 6)], "D. Amalia");
        // A word a hyphen joins to the span goes with it.
        let t = "min søn har type 1-diabetes og astma";
        let s = t.find("diabetes").unwrap();
        assert_eq!(&t[removal_range(t, s..s + 8)], "1-diabetes");
        let t = "die Krebs-Patientin kommt";
        let s = t.find("Krebs").unwrap();
        assert_eq!(&t[removal_range(t, s..s + 5)], "die Krebs-Patientin");
        // The everyday word a title is spelt like stays.
        let t = "We will miss Tove Lindahl at the party.";
        let s = t.find("Tove").unwrap();
        assert_eq!(&t[removal_range(t, s..s + 12)], "Tove Lindahl");
        // Words naming whose or which password stand between the label and its copula.
        for (t, label) in [
            (
                "Het wachtwoord van mijn account is Fiets!2025 als het moet.",
                "wachtwoord van mijn account is ",
            ),
            (
                "Passordet mitt er Sol#2024 hvis dere trenger det.",
                "Passordet mitt er ",
            ),
            // The possessive before a label goes by `possessive_start`.
            ("Mitt lösenord är Sol#2024 om ni behöver.", "lösenord är "),
            (
                "Mein Passwort lautet Sonne#2024, falls nötig.",
                "Passwort lautet ",
            ),
        ] {
            let digit = t.find(|c: char| c.is_ascii_digit()).unwrap_or(0);
            let s = t[..digit].rfind(' ').map_or(0, |i| i + 1);
            assert_eq!(&t[label_start(t, s)..s], label, "{t}");
        }
        // "My number is" goes with the number, in Czech as in English.
        let t = "Můžeme se potkat? Moje číslo je +420 601 234 567. Díky";
        let s = t.find("+420").unwrap();
        assert_eq!(&t[label_start(t, s)..s], "Moje číslo je ");
        // Asking to be reached goes with the contact it asks by.
        let t = "Questions? Write to ola@example.org and I will answer.";
        let s = t.find("ola@").unwrap();
        assert_eq!(&t[label_start(t, s)..s], "Write to ");
        // A label glued into an identifier goes whole, leaving no `customer_` behind.
        let t = "Failing sample: customer_id=c_58213 crashed the parser.";
        let s = t.find("c_58213").unwrap();
        assert_eq!(&t[label_start(t, s)..s], "customer_id=");
    }

    /// `s` with each `⟨…⟩` span removed by [`apply_edits`].
    fn cut(s: &str) -> String {
        let mut plain = String::new();
        let mut edits = Vec::new();
        let mut open = None;
        for c in s.chars() {
            match c {
                '⟨' => open = Some(plain.len()),
                '⟩' => {
                    if let Some(o) = open.take() {
                        edits.push(Edit::remove(o..plain.len()));
                    }
                }
                _ => plain.push(c),
            }
        }
        apply_edits(&plain, edits)
    }

    #[test]
    fn spaces_fold_around_a_cut_only() {
        assert_eq!(cut("a  ⟨Ana⟩  b"), "a b");
        assert_eq!(cut("  ⟨Ana⟩ b  c"), "b  c");
        assert_eq!(cut("x  y ⟨Ana⟩ ,  z"), "x  y, z");
        // A question whose next sentence went keeps one mark.
        assert_eq!(
            cut("Friday at 10? ⟨Call 555⟩. Thanks"),
            "Friday at 10? Thanks"
        );
        assert_eq!(cut("a  b ⟨Ana⟩"), "a  b");
    }

    #[test]
    fn what_the_text_had_away_from_a_cut_stays() {
        // Code keeps its calls, brackets and indentation; prose its ellipsis and its French
        // spacing before a question mark.
        assert_eq!(
            cut("Calling validate() fails.\nRepro: ⟨my SSN 078-05-1120⟩ typed in.\n  env: [] ok"),
            "Calling validate() fails.\nRepro: typed in.\n  env: [] ok"
        );
        assert_eq!(
            cut("def f():\n    return 1  # ⟨Ana Ruiz⟩\n    pass\n"),
            "def f():\n    return 1 #\n    pass\n"
        );
        assert_eq!(
            cut("Attends... tu viens ? Je passe ⟨chez Ana Ruiz⟩ ce soir !"),
            "Attends... tu viens ? Je passe ce soir !"
        );
        // A line's indentation stays when the cut takes its first words; the space the cut
        // left does not.
        assert_eq!(cut("items:\n    ⟨Ana Ruiz⟩ leads\n"), "items:\n    leads\n");
        assert_eq!(cut("items:\n⟨Ana Ruiz⟩ leads"), "items:\nleads");
        // So do a comma and its space the cut left opening the line; a bullet stays.
        assert_eq!(cut("Jo Bell\n⟨7 Elm Road⟩, Leeds"), "Jo Bell\nLeeds");
        assert_eq!(cut("to do:\n- ⟨Ana Ruiz⟩ calls"), "to do:\n- calls");
        // A line left with only its full stop is emptied.
        assert_eq!(cut("One.\n⟨Diabetic⟩.\nThree."), "One.\n\nThree.");
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
            cut("gate code 7310. ⟨Diabetic.⟩ please call me first."),
            "gate code 7310. Please call me first."
        );
        assert_eq!(
            cut("Fixed in 2.3.1. ⟨Ana⟩ thanks"),
            "Fixed in 2.3.1. Thanks"
        );
        // A cut sentence opening leaves its comma after the full stop.
        assert_eq!(
            cut("My bag did not arrive yesterday. ⟨I have diabetes⟩, please hurry."),
            "My bag did not arrive yesterday. Please hurry."
        );
        assert_eq!(
            cut("Is it late? ⟨Diabetes⟩, then call."),
            "Is it late? Then call."
        );
        // After a short form the sentence goes on.
        assert_eq!(
            cut("Nova morada: Av. ⟨x⟩ da Liberdade 9. ⟨y⟩ obrigada"),
            "Nova morada: Av. da Liberdade 9. Obrigada"
        );
        assert_eq!(
            cut("Bitte z.B. ⟨x⟩ per Post, ca. ⟨y⟩ zwei Wochen. ⟨z⟩ danke"),
            "Bitte z.B. per Post, ca. zwei Wochen. Danke"
        );
        assert_eq!(
            cut("à l'attention de M. ⟨x⟩ dupont. ⟨y⟩ merci"),
            "à l'attention de M. dupont. Merci"
        );
        assert_eq!(cut("ok. ⟨Zoë⟩ über alles"), "ok. Über alles");
        // A lower-case sentence start away from the cut is the writer's.
        assert_eq!(
            cut("gate code 7310. please call ⟨Ana⟩ me."),
            "gate code 7310. please call me."
        );
    }

    #[test]
    fn a_word_a_cut_doubles_is_kept_once() {
        assert_eq!(
            cut("a seat by the door for ⟨Ana⟩ for the test"),
            "a seat by the door for the test"
        );
        assert_eq!(cut("zimmer mit ⟨Lea⟩ mit blick"), "zimmer mit blick");
        // Only whole words: a word that ends another is not doubled.
        assert_eq!(cut("before ⟨Ana⟩ for lunch"), "before for lunch");
        // Numbers stay as written.
        assert_eq!(cut("rows 2 ⟨Ana⟩ 2 and 3"), "rows 2 2 and 3");
    }

    #[test]
    fn empty_parentheses_and_dangling_separators_vanish() {
        assert_eq!(
            cut("Greta drives (⟨Ana Ruiz⟩), pickups at noon"),
            "Greta drives, pickups at noon"
        );
        assert_eq!(cut("⟨Ana⟩ - Monday group"), "Monday group");
        assert_eq!(cut("Hi, ⟨Ana⟩, there ⟨Ruiz⟩."), "Hi, there.");
        // A Chinese phone label goes with its number, with the possessive before it.
        let t = "上海的修车店 我的手机是139 1234 5678";
        let at = t.find("139").unwrap();
        assert_eq!(&t[removal_range(t, at..t.len())], "我的手机是139 1234 5678");
        let t = "联系电话：13812345678";
        assert_eq!(label_start(t, t.find("138").unwrap()), 0);
        // The Devanagari danda ends a sentence as a full stop does.
        assert_eq!(
            cut("मैं नहीं आ पाऊंगा । ठीक है, ⟨अना⟩ ।"),
            "मैं नहीं आ पाऊंगा । ठीक है।"
        );
    }

    #[test]
    fn edits_applied_in_place_give_what_a_copy_gives() {
        let texts = [
            "Call Rebecca Stone on +1 415 555 0182 about the order.  Thanks ,  bye",
            "  leading and  double  spaces , (Zoë Brandt) near the café ; end  ",
            "Écrire à Zoë Brandt: zoë@example.org — merci.",
            "a",
            "",
        ];
        for text in texts {
            let n = text.len();
            let cuts: Vec<Vec<Edit>> = vec![
                Vec::new(),
                vec![Edit::remove(0..n.min(4))],
                vec![Edit::remove(n / 3..n / 2), Edit::remove(n / 4..n / 3 + 1)],
                vec![Edit::replace(n / 2..n, "X")],
                vec![Edit::replace(0..n / 2, " [P] ")],
                // Longer than what it replaces: the text is copied.
                vec![Edit::replace(1.min(n)..2.min(n), "[PLACEHOLDER_1]")],
                vec![Edit::remove_with_context((n / 2).min(2)..n / 2, n / 3)],
            ];
            for edits in cuts {
                let copy = apply_edits(text, edits.clone());
                assert_eq!(apply_edits_owned(text.to_owned(), edits), copy, "{text:?}");
            }
        }
    }

    #[test]
    fn replacing_in_place_gives_what_replace_gives() {
        for (t, from, to) in [
            ("a  b   c    d", "  ", " "),
            ("((x)) () ()", "()", ""),
            ("x ,, y ,,, z", ",,", ","),
            ("、、、。", "、、", "、"),
            ("nothing here", "zz", ""),
            ("aaa", "a", "bb"),
        ] {
            assert_eq!(replace_shorter(t.to_owned(), from, to), t.replace(from, to));
        }
    }

    #[test]
    fn a_comma_left_before_a_question_mark_goes() {
        assert_eq!(tidy_debris(",?".to_owned()), "?");
        assert_eq!(tidy_debris(", ?".to_owned()), "?");
    }

    // The debris replacement as it was written (a scan of the run per pattern and round): the
    // one-pass replacement must agree with it.
    fn reference_tidy_debris(mut t: String) -> String {
        for _ in 0..MAX_TIDY_ROUNDS {
            let mut changed = false;
            // The same table: the reference checks the one-pass algorithm, not the data.
            for &(from, to) in &DEBRIS {
                if t.contains(from) {
                    t = replace_shorter(t, from, to);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        t
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]
        /// One pass per replacement finds the debris a scan per pattern finds.
        #[test]
        fn one_pass_tidying_agrees_with_the_reference(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                " ", "  ", ",", ".", ";", ":", "(", ")", "[", "]", "（", "）", "【", "】", "、",
                "。", "-", "–", "—", "!", "?", "\n", "|", "/", "a", "word", "é", "über", "İ",
                "\u{a0}", "Ana", "x",
            ]), 0..24)
        ) {
            let text = fold_spaces(&parts.concat());
            proptest::prop_assert_eq!(
                tidy_debris(text.clone()),
                reference_tidy_debris(text)
            );
        }

        /// Rewriting a text inside its own buffer gives what rewriting a copy of it gives.
        #[test]
        fn edits_in_place_agree_with_edits_on_a_copy(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                " ", "  ", "   ", "a", "word", "é", "Ana", ",", ".", "\n",
            ]), 0..40),
            cuts in proptest::collection::vec((0usize..200, 0usize..12, proptest::bool::ANY), 0..5)
        ) {
            let text: String = parts.concat();
            let floor = |mut i: usize| {
                i = i.min(text.len());
                while !text.is_char_boundary(i) {
                    i -= 1;
                }
                i
            };
            let edits: Vec<Edit> = cuts
                .into_iter()
                .map(|(at, len, mark)| {
                    let (start, end) = (floor(at), floor(at + len));
                    Edit {
                        range: start..end,
                        with: if mark { "[x]".to_owned() } else { String::new() },
                        core_start: start,
                    }
                })
                .collect();
            proptest::prop_assert_eq!(
                apply_edits_owned(text.clone(), edits.clone()),
                apply_edits(&text, edits)
            );
        }
    }

    #[test]
    fn an_abbreviation_in_brackets_follows_its_term() {
        use super::abbreviation_end;
        let t = "I have multiple sclerosis (MS) so I rest";
        let end = t.find(" (MS)").unwrap();
        assert_eq!(abbreviation_end(t, end), end + " (MS)".len());
        let t = "une sclérose en plaques (SEP).";
        let end = t.find(" (SEP)").unwrap();
        assert_eq!(&t[abbreviation_end(t, end)..], ".");
        for t in [
            "lupus (see above)",
            "lupus (Mon)",
            "lupus (a)",
            "lupus",
            "lupus  (MS)",
        ] {
            assert_eq!(abbreviation_end(t, 5), 5, "{t}");
        }
        assert_eq!(abbreviation_end("x", 9), 9);
    }

    #[test]
    fn a_first_person_turn_leads_into_the_story() {
        use super::{story_lead_end, story_lead_start};
        let t = "I was just diagnosed with lupus, what now?";
        let at = t.find("diagnosed").unwrap();
        assert_eq!(story_lead_start(t, at, |_| false), Some(0));
        let t = "Question: I've been diagnosed with gout";
        let at = t.find("diagnosed").unwrap();
        assert_eq!(story_lead_start(t, at, |_| false), Some("Question: ".len()));
        let t = "On m'a diagnostiqué un diabète";
        let at = t.find("m'a").unwrap();
        assert_eq!(story_lead_start(t, at, |_| false), Some(0));
        // Another word in the way: the turn is not the clause's start.
        let t = "trails for someone diagnosed with asthma";
        let at = t.find("diagnosed").unwrap();
        assert_eq!(story_lead_start(t, at, |_| false), None);
        // A cut relation or role in the turn counts as part of it.
        let t = "my daughter was just diagnosed with dyslexia";
        let at = t.find("diagnosed").unwrap();
        let daughter = t.find("daughter").unwrap();
        assert_eq!(story_lead_start(t, at, |r| r.start == daughter), Some(0));
        assert_eq!(story_lead_start(t, at, |_| false), None);
        // After a cut at the clause start, the turn runs to the kept topic.
        let t = "my GP says I have high blood pressure, what diet helps";
        let end = "my GP".len();
        let topic = t.find("high").unwrap();
        assert_eq!(story_lead_end(t, end, |at| at == topic), Some(topic));
        assert_eq!(story_lead_end(t, end, |_| false), None);
        let t = "my GP recommends high fibre";
        let topic = t.find("high").unwrap();
        assert_eq!(story_lead_end(t, 5, |at| at == topic), None);
    }
}
