//! Normalising views of running text: numbers written as words, leetspeak, backslash
//! escapes and rot13. Like the decoders, each yields a [`View`] whose changed bytes map back to
//! the exact source range they came from.

use std::ops::Range;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind};
use rustc_hash::FxHashMap;

use super::view::View;

/// Digit words in English, German, French, Spanish, Italian, Portuguese and Dutch (lower
/// case; accented and plain spellings).
const DIGIT_WORDS: &[(&str, char)] = &[
    ("zero", '0'),
    ("one", '1'),
    ("two", '2'),
    ("three", '3'),
    ("four", '4'),
    ("five", '5'),
    ("six", '6'),
    ("seven", '7'),
    ("eight", '8'),
    ("nine", '9'),
    ("null", '0'),
    ("eins", '1'),
    ("zwei", '2'),
    ("zwo", '2'),
    ("drei", '3'),
    ("vier", '4'),
    ("fünf", '5'),
    ("funf", '5'),
    ("fuenf", '5'),
    ("sechs", '6'),
    ("sieben", '7'),
    ("acht", '8'),
    ("neun", '9'),
    ("zéro", '0'),
    ("un", '1'),
    ("deux", '2'),
    ("trois", '3'),
    ("quatre", '4'),
    ("cinq", '5'),
    ("sept", '7'),
    ("huit", '8'),
    ("neuf", '9'),
    ("cero", '0'),
    ("uno", '1'),
    ("dos", '2'),
    ("tres", '3'),
    ("cuatro", '4'),
    ("cinco", '5'),
    ("seis", '6'),
    ("siete", '7'),
    ("ocho", '8'),
    ("nueve", '9'),
    ("due", '2'),
    ("tre", '3'),
    ("quattro", '4'),
    ("cinque", '5'),
    ("sei", '6'),
    ("sette", '7'),
    ("otto", '8'),
    ("nove", '9'),
    ("um", '1'),
    ("uma", '1'),
    ("dois", '2'),
    ("duas", '2'),
    ("três", '3'),
    ("quatro", '4'),
    ("sete", '7'),
    ("oito", '8'),
    ("nul", '0'),
    ("een", '1'),
    ("één", '1'),
    ("twee", '2'),
    ("drie", '3'),
    ("vijf", '5'),
    ("zes", '6'),
    ("zeven", '7'),
    ("negen", '9'),
    // Indonesian and Malay.
    ("nol", '0'),
    ("kosong", '0'),
    ("satu", '1'),
    ("dua", '2'),
    ("tiga", '3'),
    ("empat", '4'),
    ("lima", '5'),
    ("enam", '6'),
    ("tujuh", '7'),
    ("delapan", '8'),
    ("lapan", '8'),
    ("sembilan", '9'),
    // Polish.
    ("jeden", '1'),
    ("dwa", '2'),
    ("trzy", '3'),
    ("cztery", '4'),
    ("pięć", '5'),
    ("piec", '5'),
    ("sześć", '6'),
    ("szesc", '6'),
    ("siedem", '7'),
    ("osiem", '8'),
    ("dziewięć", '9'),
    ("dziewiec", '9'),
    // Swedish, Danish, Norwegian.
    ("noll", '0'),
    ("ett", '1'),
    ("två", '2'),
    ("tva", '2'),
    ("fyra", '4'),
    ("fire", '4'),
    ("fem", '5'),
    ("seks", '6'),
    ("sju", '7'),
    ("syv", '7'),
    ("åtta", '8'),
    ("atta", '8'),
    ("otte", '8'),
    ("åtte", '8'),
    ("nio", '9'),
    ("ni", '9'),
    ("to", '2'),
    ("en", '1'),
    // Turkish.
    ("sıfır", '0'),
    ("sifir", '0'),
    ("bir", '1'),
    ("iki", '2'),
    ("üç", '3'),
    ("uc", '3'),
    ("dört", '4'),
    ("dort", '4'),
    ("beş", '5'),
    ("bes", '5'),
    ("altı", '6'),
    ("alti", '6'),
    ("yedi", '7'),
    ("sekiz", '8'),
    ("dokuz", '9'),
    // English "oh" for a zero inside a run of digits ("five oh three").
    ("oh", '0'),
    // Czech and Slovak.
    ("nula", '0'),
    ("jedna", '1'),
    ("dva", '2'),
    ("tři", '3'),
    ("tri", '3'),
    ("čtyři", '4'),
    ("štyri", '4'),
    ("pět", '5'),
    ("päť", '5'),
    ("šest", '6'),
    ("šesť", '6'),
    ("sedm", '7'),
    ("sedem", '7'),
    ("osm", '8'),
    ("osem", '8'),
    ("devět", '9'),
    ("deväť", '9'),
    // Croatian, Serbian and Bosnian (Latin script).
    ("jedan", '1'),
    ("četiri", '4'),
    ("pet", '5'),
    ("sedam", '7'),
    ("osam", '8'),
    ("devet", '9'),
    // Hungarian.
    ("nulla", '0'),
    ("egy", '1'),
    ("kettő", '2'),
    ("kettö", '2'),
    ("három", '3'),
    ("négy", '4'),
    ("öt", '5'),
    ("hat", '6'),
    ("hét", '7'),
    ("nyolc", '8'),
    ("kilenc", '9'),
    // Romanian.
    ("unu", '1'),
    ("doi", '2'),
    ("trei", '3'),
    ("patru", '4'),
    ("cinci", '5'),
    ("șase", '6'),
    ("şase", '6'),
    ("sase", '6'),
    ("șapte", '7'),
    ("şapte", '7'),
    ("sapte", '7'),
    ("opt", '8'),
    ("nouă", '9'),
    ("noua", '9'),
    // Finnish.
    ("nolla", '0'),
    ("yksi", '1'),
    ("kaksi", '2'),
    ("kolme", '3'),
    ("neljä", '4'),
    ("viisi", '5'),
    ("kuusi", '6'),
    ("seitsemän", '7'),
    ("kahdeksan", '8'),
    ("yhdeksän", '9'),
    // Russian and Ukrainian (Ukrainian "п'ять", "дев'ять" with either apostrophe).
    ("ноль", '0'),
    ("нуль", '0'),
    ("один", '1'),
    ("одна", '1'),
    ("два", '2'),
    ("две", '2'),
    ("дві", '2'),
    ("три", '3'),
    ("четыре", '4'),
    ("чотири", '4'),
    ("пять", '5'),
    ("п'ять", '5'),
    ("пʼять", '5'),
    ("шесть", '6'),
    ("шість", '6'),
    ("семь", '7'),
    ("сім", '7'),
    ("восемь", '8'),
    ("вісім", '8'),
    ("девять", '9'),
    ("дев'ять", '9'),
    ("девʼять", '9'),
    // Greek, with and without the accent.
    ("μηδέν", '0'),
    ("μηδεν", '0'),
    ("ένα", '1'),
    ("ενα", '1'),
    ("δύο", '2'),
    ("δυο", '2'),
    ("τρία", '3'),
    ("τρια", '3'),
    ("τέσσερα", '4'),
    ("τεσσερα", '4'),
    ("πέντε", '5'),
    ("πεντε", '5'),
    ("έξι", '6'),
    ("εξι", '6'),
    ("επτά", '7'),
    ("εφτά", '7'),
    ("επτα", '7'),
    ("εφτα", '7'),
    ("οκτώ", '8'),
    ("οχτώ", '8'),
    ("οκτω", '8'),
    ("οχτω", '8'),
    ("εννέα", '9'),
    ("εννιά", '9'),
    ("εννεα", '9'),
    ("εννια", '9'),
];

/// Words for a multiple of ten from twenty to ninety, by their tens digit: French numbers are
/// read in pairs ("zéro six, quarante-deux, dix-huit …"), and so are years and expiry dates in
/// other languages ("oh nine twenty-seven").
const TENS_WORDS: &[(&str, u8)] = &[
    ("twenty", 2),
    ("thirty", 3),
    ("forty", 4),
    ("fifty", 5),
    ("sixty", 6),
    ("seventy", 7),
    ("eighty", 8),
    ("ninety", 9),
    ("vingt", 2),
    ("vingts", 2),
    ("trente", 3),
    ("quarante", 4),
    ("cinquante", 5),
    ("soixante", 6),
    ("septante", 7),
    ("huitante", 8),
    ("octante", 8),
    ("nonante", 9),
    ("veinte", 2),
    ("treinta", 3),
    ("cuarenta", 4),
    ("cincuenta", 5),
    ("sesenta", 6),
    ("setenta", 7),
    ("ochenta", 8),
    ("noventa", 9),
    ("venti", 2),
    ("trenta", 3),
    ("quaranta", 4),
    ("cinquanta", 5),
    ("sessanta", 6),
    ("settanta", 7),
    ("ottanta", 8),
    ("novanta", 9),
    ("vinte", 2),
    ("trinta", 3),
    ("quarenta", 4),
    ("cinquenta", 5),
    ("sessenta", 6),
    ("oitenta", 8),
    ("zwanzig", 2),
    ("dreißig", 3),
    ("dreissig", 3),
    ("vierzig", 4),
    ("fünfzig", 5),
    ("funfzig", 5),
    ("sechzig", 6),
    ("siebzig", 7),
    ("achtzig", 8),
    ("neunzig", 9),
    // Swedish, Norwegian and Danish ("tres", Danish sixty, is Spanish three first).
    ("tjugo", 2),
    ("trettio", 3),
    ("fyrtio", 4),
    ("femtio", 5),
    ("sextio", 6),
    ("sjuttio", 7),
    ("åttio", 8),
    ("attio", 8),
    ("nittio", 9),
    ("tjue", 2),
    ("tretti", 3),
    ("førti", 4),
    ("forti", 4),
    ("femti", 5),
    ("seksti", 6),
    ("sytti", 7),
    ("åtti", 8),
    ("atti", 8),
    ("nitti", 9),
    ("tyve", 2),
    ("tredive", 3),
    ("fyrre", 4),
    ("halvtreds", 5),
    ("halvfjerds", 7),
    ("firs", 8),
    ("halvfems", 9),
    // Russian and Ukrainian (сорок is both).
    ("двадцать", 2),
    ("тридцать", 3),
    ("сорок", 4),
    ("пятьдесят", 5),
    ("шестьдесят", 6),
    ("семьдесят", 7),
    ("восемьдесят", 8),
    ("девяносто", 9),
    ("двадцять", 2),
    ("тридцять", 3),
    ("п'ятдесят", 5),
    ("пʼятдесят", 5),
    ("шістдесят", 6),
    ("сімдесят", 7),
    ("вісімдесят", 8),
    ("дев'яносто", 9),
    ("девʼяносто", 9),
    // Turkish (its ten, "on", is an English word first).
    ("yirmi", 2),
    ("otuz", 3),
    ("kırk", 4),
    ("kirk", 4),
    ("elli", 5),
    ("altmış", 6),
    ("altmis", 6),
    ("yetmiş", 7),
    ("yetmis", 7),
    ("seksen", 8),
    ("doksan", 9),
];

/// Words for ten to nineteen, by their units digit.
const TEEN_WORDS: &[(&str, u8)] = &[
    ("ten", 0),
    ("eleven", 1),
    ("twelve", 2),
    ("thirteen", 3),
    ("fourteen", 4),
    ("fifteen", 5),
    ("sixteen", 6),
    ("seventeen", 7),
    ("eighteen", 8),
    ("nineteen", 9),
    ("dix", 0),
    ("onze", 1),
    ("douze", 2),
    ("treize", 3),
    ("quatorze", 4),
    ("quinze", 5),
    ("seize", 6),
    ("diez", 0),
    ("doce", 2),
    ("trece", 3),
    ("catorce", 4),
    ("dieciséis", 6),
    ("dieciseis", 6),
    ("diecisiete", 7),
    ("dieciocho", 8),
    ("diecinueve", 9),
    ("dieci", 0),
    ("undici", 1),
    ("dodici", 2),
    ("tredici", 3),
    ("quattordici", 4),
    ("quindici", 5),
    ("sedici", 6),
    ("diciassette", 7),
    ("diciotto", 8),
    ("diciannove", 9),
    ("dez", 0),
    ("doze", 2),
    ("treze", 3),
    ("catorze", 4),
    ("dezasseis", 6),
    ("dezesseis", 6),
    ("dezassete", 7),
    ("dezessete", 7),
    ("dezoito", 8),
    ("dezanove", 9),
    ("dezenove", 9),
    ("zehn", 0),
    ("elf", 1),
    ("zwölf", 2),
    ("zwolf", 2),
    ("dreizehn", 3),
    ("vierzehn", 4),
    ("fünfzehn", 5),
    ("funfzehn", 5),
    ("sechzehn", 6),
    ("siebzehn", 7),
    ("achtzehn", 8),
    ("neunzehn", 9),
    // Swedish, then Norwegian and Danish.
    ("tio", 0),
    ("elva", 1),
    ("tolv", 2),
    ("tretton", 3),
    ("fjorton", 4),
    ("femton", 5),
    ("sexton", 6),
    ("sjutton", 7),
    ("arton", 8),
    ("nitton", 9),
    ("elleve", 1),
    ("tretten", 3),
    ("fjorten", 4),
    ("femten", 5),
    ("seksten", 6),
    ("sytten", 7),
    ("atten", 8),
    ("nitten", 9),
    // Russian and Ukrainian.
    ("десять", 0),
    ("одиннадцать", 1),
    ("двенадцать", 2),
    ("тринадцать", 3),
    ("четырнадцать", 4),
    ("пятнадцать", 5),
    ("шестнадцать", 6),
    ("семнадцать", 7),
    ("восемнадцать", 8),
    ("девятнадцать", 9),
    ("одинадцять", 1),
    ("дванадцять", 2),
    ("тринадцять", 3),
    ("чотирнадцять", 4),
    ("п'ятнадцять", 5),
    ("шістнадцять", 6),
    ("сімнадцять", 7),
    ("вісімнадцять", 8),
    ("дев'ятнадцять", 9),
];

/// The units written glued to a multiple of ten in Swedish and Norwegian ("tjugotre",
/// "sjuttiofem", "tjueen") and before "og" and the tens in Danish ("enogtyve"): the digit
/// words of these languages, with Swedish "sex", which stands alone for nothing here.
const GLUED_UNITS: &[(&str, u8)] = &[
    ("ett", 1),
    ("en", 1),
    ("et", 1),
    ("två", 2),
    ("tva", 2),
    ("to", 2),
    ("tre", 3),
    ("fyra", 4),
    ("fire", 4),
    ("fem", 5),
    ("sex", 6),
    ("seks", 6),
    ("sju", 7),
    ("syv", 7),
    ("åtta", 8),
    ("atta", 8),
    ("åtte", 8),
    ("atte", 8),
    ("otte", 8),
    ("nio", 9),
    ("ni", 9),
];

/// Multiples of a hundred written as one word, Russian then Ukrainian (сто and триста are
/// both).
const HUNDRED_WORDS: &[(&str, u8)] = &[
    ("сто", 1),
    ("двести", 2),
    ("триста", 3),
    ("четыреста", 4),
    ("пятьсот", 5),
    ("шестьсот", 6),
    ("семьсот", 7),
    ("восемьсот", 8),
    ("девятьсот", 9),
    ("двісті", 2),
    ("чотириста", 4),
    ("п'ятсот", 5),
    ("пʼятсот", 5),
    ("шістсот", 6),
    ("сімсот", 7),
    ("вісімсот", 8),
    ("дев'ятсот", 9),
    ("девʼятсот", 9),
];

/// "Hundred" as a multiplier of the digit before it (English, German, Turkish).
const HUNDRED_TIMES: &[&str] = &["hundred", "hundert", "yüz", "yuz"];

/// Words that repeat the digit after them ("double five" = 55).
const REPEATS: &[(&str, usize)] = &[("double", 2), ("triple", 3), ("doppel", 2)];

/// Fewest digit words in a row that make a number worth reading.
pub(super) const MIN_DIGIT_WORDS: usize = 6;

/// A word of `text` (a run of letters).
struct Word {
    start: usize,
    end: usize,
}

/// The words of `text`: runs of letters, an apostrophe between two letters inside one
/// (Ukrainian "дев'ять").
fn words(text: &str) -> Vec<Word> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let inner_apostrophe = matches!(c, '\'' | '\u{2019}')
            && start.is_some()
            && chars.peek().is_some_and(|&(_, n)| n.is_alphabetic());
        if c.is_alphabetic() || inner_apostrophe {
            start.get_or_insert(i);
        } else if let Some(s) = start.take() {
            out.push(Word { start: s, end: i });
        }
    }
    if let Some(s) = start {
        out.push(Word {
            start: s,
            end: text.len(),
        });
    }
    out
}

/// The digit a word names, how often it repeats the next one, or the two digits it names (a
/// multiple of ten from twenty, by its tens digit; ten to nineteen, by its units digit).
#[derive(Clone, Copy)]
enum NumberWord {
    Digit(char),
    Repeat(usize),
    Tens(u8),
    Teen(u8),
    /// A multiple of ten and its units in one word ("tjugotre", "enogtyve").
    Pair(u8, u8),
    /// "And" between a multiple of ten and its units ("treinta y cuatro", "vingt et un").
    Join,
    /// A multiple of a hundred in one word (Russian "девятьсот", Ukrainian "двісті"): its
    /// digit, then the two digits the words after it give ("триста сорок" = 340).
    Hundred(u8),
    /// "Hundred" after the digit it multiplies (Turkish "beş yüz kırk iki" = 542, English
    /// "nine hundred"); alone, one hundred.
    HundredTimes,
}

/// Whether `w` is a word for "and" that joins a multiple of ten to its units (Spanish "y",
/// Portuguese and Italian "e", French "et").
fn is_joiner(w: &[u8]) -> bool {
    matches!(w, b"y" | b"e" | b"et")
}

/// [`DIGIT_WORDS`] then [`REPEATS`] by their ASCII-lower-cased bytes (the first entry of a
/// spelling wins, as in a search of the lists in order), built on first use.
fn number_word_index() -> &'static FxHashMap<&'static [u8], NumberWord> {
    static INDEX: OnceLock<FxHashMap<&'static [u8], NumberWord>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut map = FxHashMap::default();
        for &(n, d) in DIGIT_WORDS {
            map.entry(n.as_bytes()).or_insert(NumberWord::Digit(d));
        }
        for &(n, k) in REPEATS {
            map.entry(n.as_bytes()).or_insert(NumberWord::Repeat(k));
        }
        for &(n, t) in TENS_WORDS {
            map.entry(n.as_bytes()).or_insert(NumberWord::Tens(t));
        }
        for &(n, u) in TEEN_WORDS {
            map.entry(n.as_bytes()).or_insert(NumberWord::Teen(u));
        }
        for &(n, h) in HUNDRED_WORDS {
            map.entry(n.as_bytes()).or_insert(NumberWord::Hundred(h));
        }
        for &n in HUNDRED_TIMES {
            map.entry(n.as_bytes()).or_insert(NumberWord::HundredTimes);
        }
        map
    })
}

/// The most bytes of a listed number word ("девятнадцать", 24 bytes, "τέσσερα", "seitsemän").
const MAX_NUMBER_WORD: usize = 32;

/// The first bytes of the listed number words, lower case.
#[allow(clippy::indexing_slicing)] // a byte indexes a table of 256
fn number_word_starts() -> &'static [bool; 256] {
    static STARTS: OnceLock<[bool; 256]> = OnceLock::new();
    STARTS.get_or_init(|| {
        let mut t = [false; 256];
        for w in number_word_index().keys() {
            if let Some(&b) = w.first() {
                t[usize::from(b)] = true;
            }
        }
        t
    })
}

fn number_word(w: &str) -> Option<NumberWord> {
    number_word_bytes(w.as_bytes())
}

/// [`number_word`] of a word's bytes.
fn number_word_bytes(w: &[u8]) -> Option<NumberWord> {
    // Every number word is 2–32 bytes and starts with a byte of [`number_word_starts`].
    let first = w.first()?.to_ascii_lowercase();
    let starts = number_word_starts()
        .get(usize::from(first))
        .copied()
        .unwrap_or(false);
    if w.len() > MAX_NUMBER_WORD || w.len() < 2 || !starts {
        return None;
    }
    // The lists are in lower case: an ASCII-case-insensitive comparison with an entry is an
    // exact one with the word's ASCII letters lowered.
    let mut buf = [0u8; MAX_NUMBER_WORD];
    let key = buf.get_mut(..w.len())?;
    key.copy_from_slice(w);
    key.make_ascii_lowercase();
    number_word_index()
        .get(&*key)
        .copied()
        .or_else(|| glued_pair(key))
        .or_else(|| romance_pair(key))
        .or_else(|| {
            // A Turkish case ending after an apostrophe ("kırk iki'yi arayın": call 42).
            let stem = match key.iter().position(|&b| b == b'\'') {
                Some(cut) => key.get(..cut)?,
                None => key.get(..key.windows(3).position(|w| w == "\u{2019}".as_bytes())?)?,
            };
            match number_word_index().get(stem) {
                Some(n @ NumberWord::Digit(_)) | Some(n @ NumberWord::Tens(_)) => Some(*n),
                _ => None,
            }
        })
}

/// Turkish digit words from one ("bir") to nine ("dokuz"), with and without their letters
/// outside ASCII.
const TURKISH_UNITS: &[&str] = &[
    "bir", "iki", "üç", "uc", "dört", "dort", "beş", "bes", "altı", "alti", "yedi", "sekiz",
    "dokuz",
];

/// Whether `word` is Turkish "on" (ten) right before the digit word it is joined to, `next`
/// ("on dokuz", 19). "On" is an English word first: it counts only before a Turkish digit.
fn turkish_ten(word: &str, next: Option<&str>) -> bool {
    word.eq_ignore_ascii_case("on")
        && next.is_some_and(|n| TURKISH_UNITS.iter().any(|u| u.eq_ignore_ascii_case(n)))
}

/// Italian multiples of ten without their last vowel, which the units are glued to
/// ("ventitré", "trentadue", "ventotto"), and Spanish "veinti" ("veintiocho").
const ROMANCE_TEN_STEMS: &[(&str, u8)] = &[
    ("veinti", 2),
    ("vent", 2),
    ("trent", 3),
    ("quarant", 4),
    ("cinquant", 5),
    ("sessant", 6),
    ("settant", 7),
    ("ottant", 8),
    ("novant", 9),
];

/// The units glued to [`ROMANCE_TEN_STEMS`], Italian then Spanish, with and without accents.
const ROMANCE_GLUED_UNITS: &[(&str, u8)] = &[
    ("uno", 1),
    ("due", 2),
    ("tre", 3),
    ("tré", 3),
    ("quattro", 4),
    ("cinque", 5),
    ("sei", 6),
    ("sette", 7),
    ("otto", 8),
    ("nove", 9),
    ("dós", 2),
    ("dos", 2),
    ("trés", 3),
    ("tres", 3),
    ("cuatro", 4),
    ("cinco", 5),
    ("séis", 6),
    ("seis", 6),
    ("siete", 7),
    ("ocho", 8),
    ("nueve", 9),
];

/// An Italian or Spanish number of two digits written as one word, lower case ("ventitré",
/// "quarantotto", "veintiocho"): a stem of [`ROMANCE_TEN_STEMS`], the stem's own vowel
/// ("venti-", "trenta-") unless the units start with one, and units of
/// [`ROMANCE_GLUED_UNITS`].
fn romance_pair(w: &[u8]) -> Option<NumberWord> {
    ROMANCE_TEN_STEMS.iter().find_map(|&(stem, t)| {
        let tail = w.strip_prefix(stem.as_bytes())?;
        let unit = |u: &[u8]| {
            ROMANCE_GLUED_UNITS
                .iter()
                .find(|(g, _)| g.as_bytes() == u)
                .map(|&(_, d)| NumberWord::Pair(t, d))
        };
        unit(tail).or_else(|| unit(tail.strip_prefix(b"i").or(tail.strip_prefix(b"a"))?))
    })
}

/// A Scandinavian number of two digits written as one word, lower case: a multiple of ten
/// and its units ("tjugotre", "sjuttiofem", "tjueen"), or, in Danish, the units, "og" and the
/// tens ("enogtyve", "femogfyrre").
fn glued_pair(w: &[u8]) -> Option<NumberWord> {
    let unit = |u: &[u8]| {
        GLUED_UNITS
            .iter()
            .find(|(g, _)| g.as_bytes() == u)
            .map(|&(_, d)| d)
    };
    // A word of six bytes at least: the shortest pair ("tjueen", "enogtyve") has six.
    if w.len() < 6 {
        return None;
    }
    TENS_WORDS
        .iter()
        .find_map(|&(t, d)| {
            let tail = w.strip_prefix(t.as_bytes())?;
            unit(tail).map(|u| (d, u))
        })
        .or_else(|| {
            let og = w.windows(2).position(|p| p == b"og")?;
            let (u, rest) = w.split_at(og);
            let Some(&NumberWord::Tens(t)) = number_word_index().get(rest.get(2..)?) else {
                return None;
            };
            unit(u).map(|u| (t, u))
        })
        .map(|(t, u)| NumberWord::Pair(t, u))
}

/// Whether [`MIN_DIGIT_WORDS`] words in a row of `words` (a text's words, in order) are number
/// words: what [`number_words`] needs to read anything (a run of that many digit words, each
/// the word after the last). Any such run holds a word whose place is a multiple of
/// [`MIN_DIGIT_WORDS`] less one, so only those words are looked up first; the words around
/// one that is a number word are looked up then.
fn number_word_run<'a>(mut words: impl Iterator<Item = &'a [u8]>) -> bool {
    const N: usize = MIN_DIGIT_WORDS;
    // The last `N` words, by place modulo `N`.
    let mut last: [&[u8]; N] = [&[]; N];
    let is_number = |w: &[u8]| number_word_bytes(w).is_some() || is_joiner(w);
    let mut i = 0usize;
    while let Some(w) = words.next() {
        if let Some(slot) = last.get_mut(i % N) {
            *slot = w;
        }
        if i % N == N - 1 && is_number(w) {
            // The number words right before it (`i` is at least `N - 1`), then those after.
            let mut run = 1
                + (1..N)
                    .take_while(|k| last.get((i - k) % N).is_some_and(|w| is_number(w)))
                    .count();
            while run < N {
                let Some(next) = words.next() else {
                    return false;
                };
                i += 1;
                if let Some(slot) = last.get_mut(i % N) {
                    *slot = next;
                }
                if !is_number(next) {
                    break;
                }
                run += 1;
            }
            if run >= N {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// Whether the gap between two words of a spelled number is only spaces and light
/// punctuation; `Some(true)` when it holds punctuation (a group break).
fn gap_kind(gap: &str) -> Option<bool> {
    (gap.len() <= 4
        && gap
            .chars()
            .all(|c| c.is_whitespace() || matches!(c, ',' | '-' | '.' | '/' | ';')))
    .then(|| gap.contains([',', '-', '.', '/', ';']))
}

/// Numbers written digit by digit in words ("null eins sieben sechs, zwei zwei …", "zero
/// seven seven zero …", "A dos uno cuatro, …"): the words become digits, punctuation between
/// them a hyphen; a lone capital letter right before the first word is kept as the number's
/// prefix.
pub(crate) fn number_words(text: &str) -> Option<View> {
    // No run of number words long enough: nothing to read (most texts stop here, without
    // allocating). An ASCII text is split byte by byte (its alphabetic characters are the
    // ASCII letters).
    let run = if text.is_ascii() {
        number_word_run(
            text.as_bytes()
                .split(|b| !b.is_ascii_alphabetic())
                .filter(|w| !w.is_empty()),
        )
    } else {
        number_word_run(
            words(text)
                .iter()
                .map(|w| text.get(w.start..w.end).unwrap_or_default().as_bytes()),
        )
    };
    if !run {
        return None;
    }
    let ws = words(text);
    let mut v = View::default();
    let mut copied_from = 0;
    let mut any = false;
    let mut k = 0;
    while k < ws.len() {
        // The longest run of number words from k.
        let mut run: Vec<(usize, NumberWord)> = Vec::new();
        let mut j = k;
        while let Some(w) = ws.get(j) {
            let word = text.get(w.start..w.end).unwrap_or_default();
            // "treinta y cuatro", "vingt et un": "and" between a multiple of ten and a digit.
            let joins = is_joiner(word.as_bytes())
                && matches!(run.last(), Some((_, NumberWord::Tens(_))))
                && ws.get(j + 1).is_some_and(|nw| {
                    text.get(w.end..nw.start) == Some(" ")
                        && text
                            .get(nw.start..nw.end)
                            .and_then(number_word)
                            .is_some_and(|m| matches!(m, NumberWord::Digit(d) if d != '0'))
                });
            let n = if joins {
                NumberWord::Join
            } else if turkish_ten(
                word,
                ws.get(j + 1)
                    .filter(|nw| nw.start == w.end + 1)
                    .and_then(|nw| text.get(nw.start..nw.end)),
            ) {
                NumberWord::Tens(1)
            } else if let Some(n) = number_word(word) {
                n
            } else {
                break;
            };
            if let Some(prev) = run.last().and_then(|(i, _)| ws.get(*i))
                && gap_kind(text.get(prev.end..w.start).unwrap_or("x")).is_none()
            {
                break;
            }
            run.push((j, n));
            j += 1;
        }
        let digits = run
            .iter()
            .filter(|(_, n)| !matches!(n, NumberWord::Repeat(_) | NumberWord::Join))
            .count();
        if digits < MIN_DIGIT_WORDS {
            k = j.max(k + 1);
            continue;
        }
        let Some(first) = run.first().and_then(|(i, _)| ws.get(*i)) else {
            break;
        };
        // "A dos uno …": a capital letter standing alone right before joins the number.
        let prefix = k.checked_sub(1).and_then(|p| ws.get(p)).filter(|p| {
            let w = text.get(p.start..p.end).unwrap_or("");
            w.len() == 1
                && w.bytes().all(|b| b.is_ascii_uppercase())
                && text.get(p.end..first.start) == Some(" ")
                && copied_from <= p.start
        });
        match prefix {
            Some(p) => v.copy(text, copied_from..p.end),
            None => v.copy(text, copied_from..first.start),
        }
        let mut repeat = 1;
        let mut prev_end: Option<usize> = None;
        // A multiple of ten waiting for the units or the teen joined to it ("quarante-deux",
        // "twenty seven", "soixante-dix-huit"): its digit and its word's span.
        let mut tens: Option<(u8, Range<usize>)> = None;
        // A hundred written out, waiting for the two digits after it ("девятьсот
        // шестнадцать"): its word's span. Nothing joined to it, it ends in "00".
        let mut hundred: Option<Range<usize>> = None;
        // The last word was a digit of its own (one "hundred" may multiply).
        let mut after_digit = false;
        let mut r = 0;
        while let Some(&(i, n)) = run.get(r) {
            r += 1;
            let Some(w) = ws.get(i) else { continue };
            let gap = prev_end.map_or("", |pe| text.get(pe..w.start).unwrap_or(""));
            if let Some(span) = hundred.take() {
                let rest = matches!(gap, " " | "-")
                    && matches!(
                        n,
                        NumberWord::Tens(_) | NumberWord::Teen(_) | NumberWord::Digit(_)
                    );
                match n {
                    // "триста пять": 305.
                    NumberWord::Digit(_) if rest => v.push('0', span, true),
                    // "триста сорок", "сто двенадцать": the tens or the teen give both.
                    _ if rest => {}
                    _ => push_two(&mut v, 0, 0, span.clone(), span),
                }
            }
            let times = matches!(n, NumberWord::HundredTimes) && after_digit && gap == " ";
            after_digit = false;

            // French "dix-sept", "dix-huit", "dix-neuf": ten and a digit joined by a hyphen.
            let next_digit = run.get(r).and_then(|&(j, m)| match m {
                NumberWord::Digit(d) if d != '0' => ws
                    .get(j)
                    .filter(|nw| text.get(w.end..nw.start) == Some("-"))
                    .map(|nw| (d, nw.start..nw.end)),
                _ => None,
            });
            // French "quatre-vingt(s)": four twenties.
            let four_twenty = matches!(n, NumberWord::Digit('4'))
                && run.get(r).is_some_and(|&(j, m)| {
                    matches!(m, NumberWord::Tens(2))
                        && ws
                            .get(j)
                            .is_some_and(|nw| text.get(w.end..nw.start) == Some("-"))
                });
            // Joined to the multiple of ten before, by a hyphen or a space: its units, a
            // teen, or the "and" before them. Another multiple of ten, a repeat word or a
            // French "quatre-vingt" starts a number of its own ("twenty thirty" is 20, 30).
            let joined = times
                || tens.is_some()
                    && matches!(gap, "-" | " ")
                    && !four_twenty
                    && matches!(
                        n,
                        NumberWord::Digit(_) | NumberWord::Teen(_) | NumberWord::Join
                    );
            if !joined {
                if let Some((t, span)) = tens.take() {
                    push_two(&mut v, t, 0, span.clone(), span);
                }
                if let Some(pe) = prev_end
                    && gap_kind(gap) == Some(true)
                {
                    v.push('-', pe..w.start, true);
                }
            }
            match n {
                _ if four_twenty => {
                    let end = run
                        .get(r)
                        .and_then(|&(j, _)| ws.get(j))
                        .map_or(w.end, |nw| nw.end);
                    r += 1;
                    tens = Some((8, w.start..end));
                    prev_end = Some(end);
                    continue;
                }
                NumberWord::Tens(t) => {
                    tens = Some((t, w.start..w.end));
                }
                NumberWord::Teen(u) => {
                    let (u, end) = match (u, next_digit) {
                        (0, Some((d, span))) => {
                            r += 1;
                            (d.to_digit(10).map_or(0, |x| x as u8), span.end)
                        }
                        _ => (u, w.end),
                    };
                    match tens.take() {
                        // "soixante-dix-huit": sixty and eighteen.
                        Some((t, span)) if gap == "-" => {
                            push_two(&mut v, t + 1, u, span, w.start..end);
                        }
                        pending => {
                            if let Some((t, span)) = pending {
                                push_two(&mut v, t, 0, span.clone(), span);
                            }
                            push_two(&mut v, 1, u, w.start..end, w.start..end);
                        }
                    }
                    prev_end = Some(end);
                    continue;
                }
                NumberWord::Digit(d) => {
                    if let Some((t, span)) = tens.take() {
                        // "twenty zero" is twenty, then zero.
                        let units = d.to_digit(10).map_or(0, |x| x as u8);
                        push_two(&mut v, t, units, span, w.start..w.end);
                        if d == '0' {
                            v.push('0', w.start..w.end, true);
                        }
                    } else {
                        for _ in 0..repeat {
                            v.push(d, w.start..w.end, true);
                        }
                        after_digit = repeat == 1;
                    }
                    repeat = 1;
                }
                NumberWord::Hundred(h) => {
                    v.push(char::from(b'0' + h.min(9)), w.start..w.end, true);
                    hundred = Some(w.start..w.end);
                }
                // The digit before it was written: its two digits follow.
                NumberWord::HundredTimes if times => hundred = Some(w.start..w.end),
                NumberWord::HundredTimes => {
                    v.push('1', w.start..w.end, true);
                    hundred = Some(w.start..w.end);
                }
                // Never joined: a multiple of ten before it was written out above.
                NumberWord::Pair(t, u) => push_two(&mut v, t, u, w.start..w.end, w.start..w.end),
                NumberWord::Repeat(k) => repeat = k,
                // The multiple of ten waits on for the digit after the "and".
                NumberWord::Join => {}
            }
            prev_end = Some(w.end);
        }
        if let Some((t, span)) = tens.take() {
            push_two(&mut v, t, 0, span.clone(), span);
        }
        if let Some(span) = hundred.take() {
            push_two(&mut v, 0, 0, span.clone(), span);
        }
        copied_from = prev_end.unwrap_or(first.end);
        any = true;
        k = j;
    }
    if !any {
        return None;
    }
    v.copy(text, copied_from..text.len());
    Some(v.dictated())
}

/// Pushes a two-digit number onto `v`: its tens digit read from `tens_at`, its units from
/// `units_at` (digits above nine are written as nine).
fn push_two(v: &mut View, tens: u8, units: u8, tens_at: Range<usize>, units_at: Range<usize>) {
    let digit = |d: u8| char::from(b'0' + d.min(9));
    v.push(digit(tens), tens_at, true);
    v.push(digit(units), units_at, true);
}

/// Ordinal day words, in lower case ("first" … "thirty-first"; "twenty-third", "twenty third").
fn ordinal_day(words: &[&str]) -> Option<(u32, usize)> {
    const UNITS: &[(&str, u32)] = &[
        ("first", 1),
        ("second", 2),
        ("third", 3),
        ("fourth", 4),
        ("fifth", 5),
        ("sixth", 6),
        ("seventh", 7),
        ("eighth", 8),
        ("ninth", 9),
    ];
    const TEENS: &[(&str, u32)] = &[
        ("tenth", 10),
        ("eleventh", 11),
        ("twelfth", 12),
        ("thirteenth", 13),
        ("fourteenth", 14),
        ("fifteenth", 15),
        ("sixteenth", 16),
        ("seventeenth", 17),
        ("eighteenth", 18),
        ("nineteenth", 19),
        ("twentieth", 20),
        ("thirtieth", 30),
    ];
    let first = *words.first()?;
    let find = |table: &[(&str, u32)], w: &str| table.iter().find(|(n, _)| *n == w).map(|p| p.1);
    if let Some(n) = find(UNITS, first).or_else(|| find(TEENS, first)) {
        return Some((n, 1));
    }
    let tens = match first {
        "twenty" => 20,
        "thirty" => 30,
        _ => return None,
    };
    let unit = find(UNITS, words.get(1)?)?;
    (tens + unit <= 31).then_some((tens + unit, 2))
}

/// Cardinal words from 1 to 99, in lower case ("sixty-five" as two words "sixty", "five").
fn cardinal(words: &[&str]) -> Option<(u32, usize)> {
    const SMALL: &[&str] = &[
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
    ];
    const TENS: &[&str] = &[
        "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    ];
    let w = *words.first()?;
    if let Some(i) = SMALL.iter().position(|s| *s == w) {
        return Some((u32::try_from(i).ok()?, 1));
    }
    let t = TENS.iter().position(|s| *s == w)?;
    let tens = 20 + 10 * u32::try_from(t).ok()?;
    let unit = words
        .get(1)
        .and_then(|u| SMALL.iter().position(|s| s == u))
        .filter(|&u| (1..=9).contains(&u));
    match unit {
        Some(u) => Some((tens + u32::try_from(u).ok()?, 2)),
        None => Some((tens, 1)),
    }
}

/// A year in lower-case words: "nineteen sixty-five", "nineteen oh five", "two thousand and
/// three".
fn year(words: &[&str]) -> Option<(u32, usize)> {
    let get = |i: usize| words.get(i).copied();
    match get(0)? {
        "nineteen" | "eighteen" => {
            let century = if get(0)? == "nineteen" { 1900 } else { 1800 };
            if get(1) == Some("oh")
                && let Some((u, n)) = cardinal(words.get(2..)?)
                && u < 10
            {
                return Some((century + u, 2 + n));
            }
            let (rest, n) = cardinal(words.get(1..)?)?;
            (10..=99).contains(&rest).then_some((century + rest, 1 + n))
        }
        "two" if get(1) == Some("thousand") => {
            let skip = if get(2) == Some("and") { 3 } else { 2 };
            match cardinal(words.get(skip..)?) {
                Some((r, n)) if r >= 1 => Some((2000 + r, skip + n)),
                _ => Some((2000, 2)),
            }
        }
        _ => None,
    }
}

/// The words a year in words needs, ASCII-case-insensitively; `None` when the automaton
/// cannot build (then no date view is made, as when the words are absent: it always builds).
fn year_word() -> Option<&'static AhoCorasick> {
    static WORDS: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    WORDS
        .get_or_init(|| {
            AhoCorasickBuilder::new()
                .kind(Some(AhoCorasickKind::DFA))
                .ascii_case_insensitive(true)
                .build(["nineteen", "eighteen", "thousand"])
                .ok()
        })
        .as_ref()
}

/// Whether `b` holds "teen" or "sand" in any ASCII case (every word of [`year_word`] holds
/// one): four bytes compared at once, a cheaper pass than the automaton's.
fn teen_or_sand(b: &[u8]) -> bool {
    const TEEN: u32 = u32::from_le_bytes(*b"teen");
    const SAND: u32 = u32::from_le_bytes(*b"sand");
    b.windows(4).any(|w| {
        // Setting bit 5 lowers an ASCII capital and leaves a lower-case letter as it is.
        let x = w
            .iter()
            .rev()
            .fold(0u32, |x, &c| (x << 8) | u32::from(c | 0x20));
        x == TEEN || x == SAND
    })
}

/// The digit a Chinese or Japanese numeral names when a number is written digit by digit
/// with them ("〇八〇", "二〇五").
fn han_digit(c: char) -> Option<char> {
    Some(match c {
        '〇' | '零' => '0',
        '一' => '1',
        '二' => '2',
        '三' => '3',
        '四' => '4',
        '五' => '5',
        '六' => '6',
        '七' => '7',
        '八' => '8',
        '九' => '9',
        _ => return hangul_digit(c),
    })
}

/// The digit a Sino-Korean numeral syllable names ("공일공", "사칠팔구").
fn hangul_digit(c: char) -> Option<char> {
    Some(match c {
        '공' | '영' => '0',
        '일' => '1',
        '이' => '2',
        '삼' => '3',
        '사' => '4',
        '오' => '5',
        '육' | '륙' => '6',
        '칠' => '7',
        '팔' => '8',
        '구' => '9',
        _ => return None,
    })
}

/// What separates the groups of a number written in Han numerals: a hyphen, a dash, a long
/// vowel mark or a middle dot, full-width or not, or a space.
fn han_number_sep(c: char) -> bool {
    matches!(
        c,
        '-' | '－' | 'ー' | '‐' | '–' | '—' | '・' | '･' | '.' | ' ' | '\u{3000}'
    )
}

/// The fewest Han numerals a number written digit by digit with them holds: a phone number's
/// ten, or an id's eight, where a year ("二〇二六") has four and a count two or three.
const MIN_HAN_DIGITS: usize = 8;

/// Numbers written digit by digit in Han numerals ("〇七〇・二九一八・四六〇三") or Korean
/// numeral syllables ("공일공 구삼육이 팔오칠사"): a run of at least [`MIN_HAN_DIGITS`] of them, single separators between their groups, becomes ASCII
/// digits and hyphens. Numerals in words ("一緒", "三月") stay as they are.
pub(crate) fn han_digits(text: &str) -> Option<View> {
    // Han numerals and Hangul syllables are three bytes long, led by 0xE3 to 0xED: a text
    // without such a byte (Latin, Cyrillic, Greek, Arabic, Hebrew, Devanagari) has none.
    if !text.bytes().any(|b| (0xE3..=0xED).contains(&b))
        || text.chars().filter(|&c| han_digit(c).is_some()).count() < MIN_HAN_DIGITS
    {
        return None;
    }
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut v: Option<View> = None;
    let mut copied_from = 0;
    let mut k = 0;
    while k < chars.len() {
        if chars.get(k).is_none_or(|&(_, c)| han_digit(c).is_none()) {
            k += 1;
            continue;
        }
        // The run from k: numerals, one separator between two of them.
        let start = k;
        let mut end = k;
        let mut digits = 0;
        let mut j = k;
        while let Some(&(_, c)) = chars.get(j) {
            if han_digit(c).is_some() {
                digits += 1;
                j += 1;
                end = j;
            } else if han_number_sep(c)
                && j > start
                && chars
                    .get(j + 1)
                    .is_some_and(|&(_, n)| han_digit(n).is_some())
            {
                j += 1;
            } else {
                break;
            }
        }
        // Korean numeral syllables are words too ("이사", "오이"): a run of them is a number
        // only as a phone number is dictated, from its leading zero ("공일공 …"), nine to
        // eleven digits.
        let hangul = chars
            .get(start..end)
            .unwrap_or_default()
            .iter()
            .any(|&(_, c)| hangul_digit(c).is_some());
        let korean_phone = chars
            .get(start)
            .is_some_and(|&(_, c)| matches!(c, '공' | '영'))
            && (9..=11).contains(&digits);
        if digits >= MIN_HAN_DIGITS && (!hangul || korean_phone) {
            let view = v.get_or_insert_with(|| View::with_capacity(text.len()));
            let from = chars.get(start).map_or(text.len(), |&(i, _)| i);
            view.copy(text, copied_from..from);
            for &(i, c) in chars.get(start..end).unwrap_or_default() {
                let src = i..i + c.len_utf8();
                match han_digit(c) {
                    Some(d) => view.push(d, src, true),
                    None => view.push('-', src, true),
                }
            }
            copied_from = chars.get(end).map_or(text.len(), |&(i, _)| i);
        }
        k = end.max(k + 1);
    }
    let mut v = v?;
    v.copy(text, copied_from..text.len());
    Some(v.dictated())
}

/// Dates written in words ("born the twenty-third of August nineteen sixty-five"): the
/// ordinal day and the year become digits ("23", "1965") so the date detectors read them.
/// English only; a view is made only when a year in words is present.
pub(crate) fn spelled_dates(text: &str) -> Option<View> {
    // Cheap gate: a year in words needs "nineteen", "eighteen" or "thousand" (in any ASCII
    // case), found in one pass; a text without "teen" or "sand" has none of them.
    if !teen_or_sand(text.as_bytes()) || !year_word().is_some_and(|ac| ac.is_match(text)) {
        return None;
    }
    let ws = words(text);
    // Every word in lower case, once: the readers below compare lower-case words.
    let lower: Vec<String> = ws
        .iter()
        .map(|w| text.get(w.start..w.end).unwrap_or("").to_ascii_lowercase())
        .collect();
    let strs: Vec<&str> = lower.iter().map(String::as_str).collect();
    let mut v = View::with_capacity(text.len());
    let mut copied_from = 0;
    let mut any = false;
    let mut k = 0;
    while k < ws.len() {
        let rest = strs.get(k..).unwrap_or(&[]);
        let joined = |n: usize| {
            // The words of a match are joined by spaces or single hyphens only.
            (k + 1..k + n).all(|j| {
                let (Some(a), Some(b)) = (ws.get(j - 1), ws.get(j)) else {
                    return false;
                };
                matches!(text.get(a.end..b.start), Some(" " | "-"))
            })
        };
        let hit = year(rest)
            .filter(|&(_, n)| joined(n))
            .map(|(y, n)| (y.to_string(), n))
            .or_else(|| {
                ordinal_day(rest)
                    .filter(|&(_, n)| joined(n))
                    .map(|(d, n)| (d.to_string(), n))
            });
        let Some((digits, n)) = hit else {
            k += 1;
            continue;
        };
        let (Some(first), Some(last)) = (ws.get(k), ws.get(k + n - 1)) else {
            break;
        };
        v.copy(text, copied_from..first.start);
        v.push_str(&digits, first.start..last.end, true);
        copied_from = last.end;
        any = true;
        k += n;
    }
    if !any {
        return None;
    }
    v.copy(text, copied_from..text.len());
    Some(v)
}

/// Leetspeak letters: `0` o, `1` i (or l), `3` e, `4` a, `5` s, `7` t, `@` a, `$` s.
fn leet(c: char, one: char) -> Option<char> {
    Some(match c {
        '0' => 'o',
        '1' => one,
        '3' => 'e',
        '4' => 'a',
        '5' => 's',
        '7' => 't',
        '@' => 'a',
        '$' => 's',
        _ => return None,
    })
}

/// Whether a token of letters, digits, `@` and `$` is written in leetspeak: two letters or
/// more, a leet character right after a letter and before a letter or another leet
/// character, no more digits than letters, not hexadecimal (hashes and
/// ids), not an e-mail address.
fn is_leet_word(tok: &str, next: Option<char>) -> bool {
    let letters = tok.chars().filter(char::is_ascii_alphabetic).count();
    let digits = tok.chars().filter(char::is_ascii_digit).count();
    // A leet character between letters ("d1abet1c"), not a trailing version ("mp3", "win7").
    let b = tok.as_bytes();
    let leet_chars = (1..b.len().saturating_sub(1))
        .filter(|&i| {
            b.get(i)
                .is_some_and(|&c| leet(char::from(c), 'i').is_some())
                && b.get(i - 1).is_some_and(u8::is_ascii_alphabetic)
                && b.get(i + 1)
                    .is_some_and(|&n| n.is_ascii_alphabetic() || leet(char::from(n), 'i').is_some())
        })
        .count();
    let hex = tok.chars().all(|c| c.is_ascii_hexdigit());
    // An address goes on after its domain label (`jo@example.com`, `hr@north-wind.de`).
    let email = tok.contains('@') && matches!(next, Some('.' | '-' | '_'));
    // Leet words are written in lower case; ids and codes in capitals (`HAT001`, `C04QX7`),
    // and lab names and product codes with a capital inside (`HbA1c`, `eGFR`, `SpO2`).
    let lower = tok.chars().filter(char::is_ascii_lowercase).count();
    let upper = tok.chars().filter(char::is_ascii_uppercase).count();
    let inner_capital = tok.chars().skip(1).any(|c| c.is_ascii_uppercase());
    (3..=24).contains(&tok.len())
        && letters >= 2
        && lower >= 2
        && lower >= upper
        && !inner_capital
        && leet_chars >= 1
        && digits <= letters
        && !hex
        && !email
        && tok.starts_with(|c: char| c.is_ascii_alphabetic() || leet(c, 'i').is_some())
}

/// Words in leetspeak ("d1abet1c", "c@ncer", "h3p4t1t1s") read as letters; `one` is what `1`
/// becomes (`i`, or `l` in a second view).
///
/// A leet word holds a leet character right after a letter and before a letter or another
/// leet character (see `is_leet_word`), so only the tokens around such places are read: one
/// byte scan of the text finds them, and each token is taken from there (the same maximal run
/// a scan of every token would give), never the text's other words.
pub(crate) fn leetspeak(text: &str, one: char) -> Option<View> {
    let bytes = text.as_bytes();
    let is_leet = |b: u8| matches!(b, b'0' | b'1' | b'3' | b'4' | b'5' | b'7' | b'@' | b'$');
    // A token is a run of letters (of any script: "d3pr3ssã0"), digits, `@` and `$`.
    let tok_char = |c: char| c.is_alphanumeric() || c == '@' || c == '$';
    let mut v = View::default();
    let mut copied_from = 0;
    let mut any = false;
    // End of the last token read: later candidates inside it are the same token.
    let mut read_to = 0;
    for (i, w) in bytes.windows(3).enumerate() {
        let [a, b, c] = w else { continue };
        if !(is_leet(*b) && a.is_ascii_alphabetic() && (c.is_ascii_alphabetic() || is_leet(*c))) {
            continue;
        }
        // `a`, `b` and `c` are ASCII token characters: `i` is a char boundary inside a token.
        if i < read_to {
            continue;
        }
        let head = text.get(..i).unwrap_or("");
        let start = head
            .char_indices()
            .rev()
            .take_while(|&(_, c)| tok_char(c))
            .last()
            .map_or(i, |(j, _)| j);
        let tail = text.get(i..).unwrap_or("");
        let end = tail
            .char_indices()
            .find(|&(_, c)| !tok_char(c))
            .map_or(text.len(), |(j, _)| i + j);
        read_to = end;
        let tok = text.get(start..end).unwrap_or("");
        let next = text.get(end..).and_then(|r| r.chars().next());
        if !is_leet_word(tok, next) || (one == 'l' && !tok.contains('1')) {
            continue;
        }
        v.copy(text, copied_from..start);
        for (k, c) in tok.char_indices() {
            let at = start + k;
            match leet(c, one) {
                Some(l) => v.push(l, at..at + 1, true),
                None => v.push(c, at..at + c.len_utf8(), false),
            }
        }
        copied_from = end;
        any = true;
    }
    if !any {
        return None;
    }
    v.copy(text, copied_from..text.len());
    Some(v)
}

fn hex_digits(s: &str) -> Option<u32> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| u32::from_str_radix(s, 16).ok())
        .flatten()
}

/// Backslash escapes as source code and serialised strings write them: `\u0049`, `\U0001F600`,
/// surrogate pairs, and runs of `\xHH` bytes (`b"\x4a\x61\x6e\x65"`) decoded as UTF-8.
pub(crate) fn escapes(text: &str) -> Option<View> {
    if !text
        .as_bytes()
        .windows(2)
        .any(|w| w.first() == Some(&b'\\') && matches!(w.get(1), Some(b'u' | b'U' | b'x')))
    {
        return None;
    }
    let mut v = View::with_capacity(text.len());
    let mut copied_from = 0;
    let mut i = 0;
    let mut any = false;
    while let Some(rel) = text.get(i..).and_then(|s| s.find('\\')) {
        let at = i + rel;
        i = at + 1;
        let esc = |k: usize, n: usize| text.get(k + 2..k + 2 + n).and_then(hex_digits);
        match text.as_bytes().get(at + 1) {
            Some(b'u') => {
                let Some(hi) = esc(at, 4) else { continue };
                let mut end = at + 6;
                let code = if (0xD800..0xDC00).contains(&hi)
                    && text.get(end..end + 2) == Some("\\u")
                    && let Some(lo) = esc(end, 4).filter(|lo| (0xDC00..0xE000).contains(lo))
                {
                    end += 6;
                    0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                } else {
                    hi
                };
                if let Some(c) = char::from_u32(code) {
                    v.copy(text, copied_from..at);
                    v.push(c, at..end, true);
                    copied_from = end;
                    i = end;
                    any = true;
                }
            }
            Some(b'U') => {
                if let Some(c) = esc(at, 8).and_then(char::from_u32) {
                    v.copy(text, copied_from..at);
                    v.push(c, at..at + 10, true);
                    copied_from = at + 10;
                    i = copied_from;
                    any = true;
                }
            }
            Some(b'x') => {
                // A run of \xHH decodes together (multi-byte UTF-8).
                let mut raw = Vec::new();
                let mut end = at;
                while text.get(end..end + 2) == Some("\\x")
                    && let Some(b) = esc(end, 2).and_then(|b| u8::try_from(b).ok())
                {
                    raw.push(b);
                    end += 4;
                }
                if let Ok(s) = std::str::from_utf8(&raw)
                    && !s.is_empty()
                {
                    v.copy(text, copied_from..at);
                    let mut k = at;
                    for c in s.chars() {
                        let n = 4 * c.len_utf8();
                        v.push(c, k..k + n, true);
                        k += n;
                    }
                    copied_from = end;
                    i = end;
                    any = true;
                }
            }
            _ => {}
        }
    }
    if !any {
        return None;
    }
    v.copy(text, copied_from..text.len());
    Some(v)
}

/// Text after a marker saying it is rot13 ("rot13", "ROT-13", "rot 13"): its ASCII letters
/// rotated back.
pub(crate) fn rot13(text: &str) -> Option<View> {
    let b = text.as_bytes();
    // The `r`s and `R`s of the text, read byte by byte (setting bit 5 lowers only `R`).
    let mut rs = b
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c | 0x20 == b'r')
        .map(|(i, _)| i);
    let at = rs.find_map(|i| {
        let w = b.get(i..i + 3)?;
        if !w.eq_ignore_ascii_case(b"rot") {
            return None;
        }
        let k = i + 3 + usize::from(matches!(b.get(i + 3), Some(b'-' | b' ' | b'_')));
        (b.get(k..k + 2) == Some(b"13")).then_some(k + 2)
    })?;
    let mut v = View::with_capacity(text.len());
    v.copy(text, 0..at);
    for (k, c) in text.get(at..)?.char_indices() {
        let i = at + k;
        let n = c.len_utf8();
        let r = match c {
            'a'..='z' => char::from(b'a' + (c as u8 - b'a' + 13) % 26),
            'A'..='Z' => char::from(b'A' + (c as u8 - b'A' + 13) % 26),
            _ => {
                v.push(c, i..i + n, false);
                continue;
            }
        };
        v.push(r, i..i + 1, true);
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(v: &View, text: &str, needle: &str) -> String {
        let at = v.as_str().find(needle).unwrap();
        let r = v.source_span(&(at..at + needle.len())).unwrap();
        text[r].to_owned()
    }

    /// The run test finds a run of number words wherever it starts, as a word-by-word count
    /// does.
    #[test]
    fn number_word_runs_found_wherever_they_start() {
        let plain = |ws: &[&str]| {
            let mut run = 0;
            ws.iter().any(|w| {
                run = if number_word(w).is_some() { run + 1 } else { 0 };
                run >= MIN_DIGIT_WORDS
            })
        };
        let digits = [
            "one", "two", "drei", "vier", "cinq", "seis", "sette", "acht",
        ];
        for len in 0..20 {
            for at in 0..len {
                for run in 0..=len - at {
                    let mut ws: Vec<&str> = vec!["word"; len];
                    for (k, w) in ws.iter_mut().skip(at).take(run).enumerate() {
                        *w = digits[k % digits.len()];
                    }
                    let found = number_word_run(ws.iter().map(|w| w.as_bytes()));
                    assert_eq!(found, plain(&ws), "{ws:?}");
                }
            }
        }
    }

    #[test]
    fn digits_written_as_words_in_more_languages() {
        for (text, digits) in [
            (
                "call five-oh-three five-five-five zero-one-eight-eight",
                "503-555-018-8",
            ),
            ("подзвони сім-нуль-два дев'ять-один-чотири", "7-0-2 9-1-4"),
            ("τηλέφωνο έξι εννέα επτά δύο τρία τέσσερα", "6 9 7 2 3 4"),
            ("číslo sedm nula dva tři pět osm", "7 0 2 3 5 8"),
            ("hívj hat nulla egy kettő három négy", "6 0 1 2 3 4"),
            ("ring ni to fire, fem en, åtte sju tre", "9 2 4 5 1 8 7 3"),
            ("ara beş-beş-iki-üç-sıfır-dört", "5 5 2 3 0 4"),
            (
                "personnummer nitton nittioett noll fyra tjugotre sjuttiofem sextiosex",
                "19 91 0 4 23 75 66",
            ),
            (
                "cpr nul fem femogfyrre toogtyve otteogtredive elleve",
                "0 5 45 22 38 11",
            ),
            ("bel nul zes één twee drie vier", "0 6 1 2 3 4"),
            (
                "номер восемь девять один, двадцать два, сорок пять, семнадцать",
                "8 9 1 22 45 17",
            ),
            (
                "numaram sıfır beş otuz iki, elli bir, yirmi yedi",
                "0 5 32 51 27",
            ),
            (
                "мой номер восемь девятьсот шестнадцать, триста сорок, двадцать два, восемьдесят один",
                "8 916 340 22 81",
            ),
            (
                "numaram sıfır beş yüz kırk iki altı yüz on dokuz otuz sekiz elli bir",
                "0 542 619 38 51",
            ),
            // A Turkish case ending after the last word ("… kırk bir'i arayın").
            (
                "ara sıfır beş üç iki altı yedi, on yedi, kırk bir'i",
                "0 5 3 2 6 7 17 41",
            ),
            (
                "móvil seis uno dos, cuarenta y cinco, veintiocho, veintitrés",
                "6 1 2 45 28 23",
            ),
            (
                "cellulare tre quattro sette, ventitré, quarantotto, novantuno, trentadue",
                "3 4 7 23 48 91 32",
            ),
            (
                "номер сто пять, двести, девятнадцать, ноль один",
                "105 200 19 0 1",
            ),
        ] {
            let v = number_words(text).unwrap_or_else(|| panic!("{text}"));
            let read: String = v.as_str().chars().filter(|c| c.is_ascii_digit()).collect();
            let want: String = digits.chars().filter(|c| c.is_ascii_digit()).collect();
            assert!(read.contains(&want), "{text}: {}", v.as_str());
        }
    }

    #[test]
    fn turkish_ten_only_before_a_turkish_digit() {
        assert!(turkish_ten("on", Some("dokuz")));
        assert!(!turkish_ten("on", Some("one")));
        assert!(!turkish_ten("on", None));
        // "turn on one two three four five six": "on" stays a word.
        let v = number_words("turn on one two three four five six").unwrap();
        assert_eq!(v.as_str(), "turn on 123456");
    }

    #[test]
    fn han_numerals_written_digit_by_digit() {
        let text = "携帯〇七〇・二九一八・四六〇三まで";
        let v = han_digits(text).unwrap();
        assert_eq!(v.as_str(), "携帯070-2918-4603まで");
        assert!(v.is_dictated());
        assert_eq!(src(&v, text, "070-2918-4603"), "〇七〇・二九一八・四六〇三");
        // Korean numeral syllables, from a leading zero.
        let v = han_digits("연락은 공일공 구삼육이 팔오칠사 로").unwrap();
        assert_eq!(v.as_str(), "연락은 010-9362-8574 로");
        assert!(han_digits("이사 오이 구이 사이 일이 삼사 오륙 칠팔").is_none());
        // Numerals in words and years are no such number.
        assert!(han_digits("二〇二六年三月一日に一緒に行きます").is_none());
        assert!(han_digits("第一二三四五六七章").is_none());
    }

    #[test]
    fn dates_written_in_words() {
        let text = "she was born the twenty-third of August nineteen sixty-five, so";
        let v = spelled_dates(text).unwrap();
        assert_eq!(v.as_str(), "she was born the 23 of August 1965, so");
        assert_eq!(src(&v, text, "1965"), "nineteen sixty-five");
        let v = spelled_dates("born on the first of May two thousand and three").unwrap();
        assert_eq!(v.as_str(), "born on the 1 of May 2003");
        // No year in words: no view.
        assert!(spelled_dates("the second of two options").is_none());
    }

    #[test]
    fn every_listed_number_word_is_read() {
        for &(w, d) in DIGIT_WORDS {
            assert!(
                matches!(number_word(w), Some(NumberWord::Digit(x)) if x == d)
                    || DIGIT_WORDS.iter().find(|(n, _)| *n == w).map(|(_, x)| *x) != Some(d),
                "{w}"
            );
        }
        for &(w, _) in REPEATS {
            assert!(number_word(w).is_some(), "{w}");
        }
    }

    #[test]
    fn digits_written_as_words_in_five_languages() {
        let text = "ruf an: null eins sieben eins, zwei drei vier fünf, sechs sieben acht. Danke";
        let v = number_words(text).unwrap();
        assert_eq!(v.as_str(), "ruf an: 0171-2345-678. Danke");
        assert_eq!(
            src(&v, text, "0171-2345-678"),
            "null eins sieben eins, zwei drei vier fünf, sechs sieben acht"
        );
        let v = number_words("my cell is five five five, zero one double four, seven").unwrap();
        assert_eq!(v.as_str(), "my cell is 555-0144-7");
        let v = number_words("numéro zéro six douze trois quatre cinq six sept huit").unwrap();
        assert_eq!(v.as_str(), "numéro 0612345678");
        // French numbers read in pairs.
        let text =
            "appelle au zéro six, quarante-deux, dix-sept, soixante-treize, quatre-vingt-dix-neuf.";
        let v = number_words(text).unwrap();
        assert_eq!(v.as_str(), "appelle au 06-42-17-73-99.");
        assert_eq!(
            src(&v, text, "06-42-17-73-99"),
            "zéro six, quarante-deux, dix-sept, soixante-treize, quatre-vingt-dix-neuf"
        );
        let v = number_words("zéro sept, vingt, quatre-vingts, trente et un").unwrap();
        assert_eq!(v.as_str(), "07-20-80-31");
        let v = number_words("llámame al seis doce, treinta y cuatro, cincuenta y seis, setenta")
            .unwrap();
        assert_eq!(v.as_str(), "llámame al 612-34-56-70");
        // "And" between two digits, or after no multiple of ten, joins nothing.
        assert!(number_words("uno y dos y tres y cuatro").is_none());
        let v = number_words("card four five one two, twenty seven, nineteen, ten").unwrap();
        assert_eq!(v.as_str(), "card 4512-27-19-10");
        // A multiple of ten or a repeat word after a multiple of ten starts a new number.
        let v = number_words("card four five one two three, twenty thirty, six").unwrap();
        assert_eq!(v.as_str(), "card 45123-2030-6");
        let v = number_words("one two three four five, twenty double five").unwrap();
        assert_eq!(v.as_str(), "12345-2055");
        let v = number_words("número A dos uno cuatro, cinco cinco ocho, nueve cero tres").unwrap();
        assert_eq!(v.as_str(), "número A214-558-903");
        let v = number_words("è tre tre otto, uno due tre, quattro cinque sei").unwrap();
        assert_eq!(v.as_str(), "è 338-123-456");
        let v = number_words("WA saya nol delapan satu tiga dua dua tujuh tujuh ya").unwrap();
        assert_eq!(v.as_str(), "WA saya 08132277 ya");
        let v = number_words("numer: pięć zero jeden dwa trzy cztery osiem").unwrap();
        assert_eq!(v.as_str(), "numer: 5012348");
        let v = number_words("ring noll sju fyra fem seks åtta nio").unwrap();
        assert_eq!(v.as_str(), "ring 0745689");
        // Counting in prose is no number.
        assert!(number_words("one or two, maybe three people and one dog").is_none());
        assert!(number_words("").is_none());
    }

    #[test]
    fn year_word_gate() {
        for t in ["NINETEEN", "eighTeen", "two Thousand", "xteen", "sandwich"] {
            assert!(teen_or_sand(t.as_bytes()), "{t}");
        }
        for t in ["", "ten", "the parcel ships", "tee n", "san d"] {
            assert!(!teen_or_sand(t.as_bytes()), "{t}");
        }
    }

    #[test]
    fn leetspeak_words() {
        let text = "not bad for a d1abet1c on 3 hrs of sleep";
        let v = leetspeak(text, 'i').unwrap();
        assert_eq!(v.as_str(), "not bad for a diabetic on 3 hrs of sleep");
        assert_eq!(src(&v, text, "diabetic"), "d1abet1c");
        assert_eq!(
            leetspeak("my a1cohol use", 'l').unwrap().as_str(),
            "my alcohol use"
        );
        assert_eq!(
            leetspeak("c@ncer scan", 'i').unwrap().as_str(),
            "cancer scan"
        );
        // A capital inside makes a code or a lab name, not a leet word.
        assert!(leetspeak("HbA1c was 8.1 last week", 'i').is_none());
        assert!(leetspeak("HbA1c was 8.1 last week", 'l').is_none());
        // Letters of other scripts belong to the word.
        assert_eq!(
            leetspeak("a d3pr3ssã0 voltou", 'i').unwrap().as_str(),
            "a depressão voltou"
        );
        for plain in [
            "sha 3f786850e387 and mp3 x86 utf8",
            "mail jo3@example.com and h4r@north-wind.de",
            "channels C04QX7K2M9T, HAT001, RSSMRA85T10A562S",
            "ISO 8601 on 2024-05-06",
            "Zürich 2024, München3, 第3回",
            "AB",
        ] {
            assert!(leetspeak(plain, 'i').is_none(), "{plain}");
        }
    }

    #[test]
    fn escapes_decode() {
        let text = r"does it cover my \u0049VF cycle";
        let v = escapes(text).unwrap();
        assert_eq!(v.as_str(), "does it cover my IVF cycle");
        assert_eq!(src(&v, text, "IVF"), r"\u0049VF");
        let text = r#"name=b"\x4a\x61\x6e\x65 Ro\xc3\xa9""#;
        assert_eq!(escapes(text).unwrap().as_str(), r#"name=b"Jane Roé""#);
        assert_eq!(escapes(r"\ud83d\ude00!").unwrap().as_str(), "😀!");
        assert!(escapes(r"C:\users\xavier\unknown").is_none());
        assert!(escapes(r"\u12 \x4").is_none());
    }

    #[test]
    fn rot13_after_its_marker() {
        let text = "reason (rot13): Ubfcvgny";
        let v = rot13(text).unwrap();
        assert_eq!(v.as_str(), "reason (rot13): Hospital");
        assert!(rot13("no marker here").is_none());
    }
}
