//! The decoders: each turns a text into zero or more [`View`]s whose bytes map back to it.
//!
//! Blob decoders (base64, hex) yield one view per decodable blob, every byte mapped to the
//! whole blob (the rewriter removes the encoded form). Inline decoders (percent-encoding,
//! HTML entities, Unicode tricks, spread-out digits, spelled-out e-mail addresses) yield one
//! view of the whole text with the decoded pieces mapped to the exact source range of each.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use base64::Engine as _;
use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use regex::Regex;
use unicode_normalization::UnicodeNormalization;

use super::view::View;
use crate::text::chars::{char_at, char_before};

/// Shortest base64 blob considered (12 decoded bytes).
pub(super) const MIN_BASE64: usize = 16;
/// Shortest hex string considered (8 decoded bytes).
pub(super) const MIN_HEX: usize = 16;

fn lenient(alphabet: &alphabet::Alphabet) -> GeneralPurpose {
    GeneralPurpose::new(
        alphabet,
        GeneralPurposeConfig::new()
            .with_decode_padding_mode(DecodePaddingMode::Indifferent)
            .with_decode_allow_trailing_bits(true),
    )
}

static STANDARD: LazyLock<GeneralPurpose> = LazyLock::new(|| lenient(&alphabet::STANDARD));
static URL_SAFE: LazyLock<GeneralPurpose> = LazyLock::new(|| lenient(&alphabet::URL_SAFE));

/// Regexes compiled once per process, on first use. One that does not compile makes every
/// call fail under the fail mode (see `shared::checked`; tests compile them all), so no
/// decoder is ever silently off.
struct Patterns {
    base64: Regex,
    hex: Regex,
    spelled_email: Regex,
    spelled_token: Regex,
}

static PATTERNS: LazyLock<Result<Patterns, regex::Error>> =
    LazyLock::new(|| crate::classify::shared::checked("encoded-data", patterns()));

/// The at sign spelled out, in English and as other languages call it ("arroba",
/// "chiocciola", "arobase", "Klammeraffe", "apenstaartje", "snabel-a", "krøllalfa", "małpa",
/// "zavináč", "kukac", Danish "grisehale", Russian "собака", Ukrainian "равлик").
const AT_WORDS: &[&str] = &[
    "at",
    "arroba",
    "chiocciola",
    "arobase",
    "klammeraffe",
    "apenstaartje",
    "snabel-a",
    "krøllalfa",
    "krollalfa",
    "małpa",
    "malpa",
    "zavináč",
    "zavinac",
    "kukac",
    "grisehale",
    "snabela",
    "собака",
    "равлик",
];

/// The dot spelled out ("dot", "punto", "ponto", "Punkt", "point", "punt", "tečka", "nokta",
/// "piste", "pont", "prik", "prick", Danish and Norwegian "punktum", "prikk", Polish "kropka",
/// Slovak "bodka", Romanian "punct", Russian "точка", Ukrainian "крапка").
const DOT_WORDS: &[&str] = &[
    "dot",
    "punto",
    "ponto",
    "punkt",
    "point",
    "punt",
    "tečka",
    "tecka",
    "nokta",
    "piste",
    "pont",
    "prik",
    "prick",
    "punktum",
    "prikk",
    "kropka",
    "bodka",
    "punct",
    "точка",
    "крапка",
];

/// The at words but "at": what a text without the letters "at" side by side must hold to
/// spell an address.
static OTHER_AT_WORDS: LazyLock<Option<AhoCorasick>> = LazyLock::new(|| {
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(AT_WORDS.iter().filter(|w| **w != "at"))
        .ok()
});

/// Whether `text` may spell an at sign as a word: it holds "at" or another language's word.
pub(crate) fn may_spell_at(text: &str, holds_at: bool) -> bool {
    holds_at || OTHER_AT_WORDS.as_ref().is_some_and(|ac| ac.is_match(text))
}

fn patterns() -> Result<Patterns, regex::Error> {
    let at_alt = AT_WORDS.join("|");
    // A full stop with spaces on both sides ("posta . cz") is a dot written apart too.
    let dot_alt = format!(r"{}|\.", DOT_WORDS.join("|"));
    let at =
        format!(r"(?:\s*[\[\(\{{<]\s*(?:{at_alt})\s*[\]\)\}}>]\s*|\s+(?:{at_alt})\s+|\s*@\s*)");
    let dot = format!(r"(?:\s*[\[\(\{{<]\s*(?:{dot_alt})\s*[\]\)\}}>]\s*|\s+(?:{dot_alt})\s+|\.)");
    const LABEL: &str = r"[a-z0-9][a-z0-9_%+\-]*";
    Ok(Patterns {
        base64: Regex::new(r"[A-Za-z0-9+/_\-]{16,}={0,2}")?,
        hex: Regex::new(r"(?-u:\b)(?:0x)?((?:[0-9a-fA-F]{2}){8,})(?-u:\b)")?,
        spelled_email: Regex::new(&format!(
            r"(?i)(?-u:\b){LABEL}(?:{dot}{LABEL})*{at}[a-z0-9\-]+(?:{dot}[a-z0-9\-]+)*{dot}[a-z]{{2,6}}(?-u:\b)"
        ))?,
        spelled_token: Regex::new(&format!(
            r"(?i)\s*[\[\(\{{<]\s*({at_alt}|{dot_alt})\s*[\]\)\}}>]\s*|\s+({at_alt}|{dot_alt})\s+"
        ))?,
    })
}

/// Whether `word` (a token of [`Patterns::spelled_token`]) spells the at sign.
fn is_at_word(word: &str) -> bool {
    AT_WORDS.iter().any(|w| w.eq_ignore_ascii_case(word))
        // "Małpa", "ZAVINÁČ": their letters outside ASCII lowered once.
        || !word.is_ascii() && AT_WORDS.contains(&word.to_lowercase().as_str())
}

/// Compiles the patterns and decoders, if not done yet.
pub(super) fn warm_up() {
    let _ = (&*PATTERNS, &*STANDARD, &*URL_SAFE);
}

/// Compiles the decoders' patterns (once per process).
///
/// # Errors
/// The first pattern that does not compile, as a build error.
#[cfg(test)]
pub(crate) fn check_patterns() -> Result<(), crate::error::Error> {
    PATTERNS.as_ref().map(|_| ()).map_err(|e| {
        crate::error::Error::new(
            crate::error::ErrorKind::Build,
            format!("encoded-data pattern: {e}"),
        )
    })
}

/// Decoded bytes that read as text: valid UTF-8, almost all printable, with letters or digits.
fn plausible_text(bytes: &[u8]) -> Option<String> {
    let s = std::str::from_utf8(bytes).ok()?;
    let total = s.chars().count();
    if total < 6 {
        return None;
    }
    let printable = s
        .chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t'))
        .count();
    let alnum = s.chars().filter(|c| c.is_alphanumeric()).count();
    let distinct = {
        let mut v: Vec<char> = s.chars().take(64).collect();
        v.sort_unstable();
        v.dedup();
        v.len()
    };
    (printable * 100 >= total * 95 && alnum * 2 >= total && distinct >= 4).then(|| s.to_owned())
}

/// Base64 and base64url blobs that decode to text.
pub(crate) fn base64_blobs(text: &str) -> Vec<View> {
    let Ok(Patterns { base64: re, .. }) = &*PATTERNS else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for m in re.find_iter(text) {
        let blob = m.as_str();
        let body = blob.trim_end_matches('=');
        if body.len() < MIN_BASE64 || body.chars().all(|c| c.is_ascii_hexdigit()) {
            continue;
        }
        // A word of letters only (no digit, no capital after the first) is prose, not base64.
        if body.chars().all(|c| c.is_ascii_lowercase()) {
            continue;
        }
        // Drop a dangling sixth bit group that cannot decode.
        let usable = if body.len() % 4 == 1 {
            body.len() - 1
        } else {
            body.len()
        };
        let body = body.get(..usable).unwrap_or(body);
        let engine: &GeneralPurpose = if body.contains(['-', '_']) {
            &URL_SAFE
        } else {
            &STANDARD
        };
        // A blob at the very start of the text may be the tail of a longer one cut by a scan
        // window: then it decodes at one of the other three alignments.
        let offsets: &[usize] = if m.start() == 0 { &[0, 1, 2, 3] } else { &[0] };
        let decoded = offsets.iter().find_map(|&k| {
            let part = body.get(k..)?;
            let usable = part.len() - usize::from(part.len() % 4 == 1);
            engine
                .decode(part.get(..usable)?)
                .ok()
                .and_then(|bytes| plausible_text(&bytes))
        });
        if let Some(decoded) = decoded {
            let mut v = View::with_capacity(decoded.len());
            v.push_str(&decoded, m.range(), true);
            out.push(v);
        }
    }
    out
}

/// Even-length hex strings that decode to text.
pub(crate) fn hex_blobs(text: &str) -> Vec<View> {
    let Ok(Patterns { hex: re, .. }) = &*PATTERNS else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for caps in re.captures_iter(text) {
        let (Some(all), Some(digits)) = (caps.get(0), caps.get(1)) else {
            continue;
        };
        if digits.as_str().len() < MIN_HEX {
            continue;
        }
        let bytes: Option<Vec<u8>> = digits
            .as_str()
            .as_bytes()
            .chunks(2)
            .map(|pair| {
                let hi = char::from(*pair.first()?).to_digit(16)?;
                let lo = char::from(*pair.get(1)?).to_digit(16)?;
                u8::try_from(hi * 16 + lo).ok()
            })
            .collect();
        if let Some(decoded) = bytes.as_deref().and_then(plausible_text) {
            let mut v = View::with_capacity(decoded.len());
            v.push_str(&decoded, all.range(), true);
            out.push(v);
        }
    }
    out
}

fn hex_val(b: u8) -> Option<u8> {
    char::from(b)
        .to_digit(16)
        .and_then(|d| u8::try_from(d).ok())
}

/// Percent-encoding (`%40`, `%C3%A9`), and `+` for a space between words of a query string.
pub(crate) fn percent(text: &str) -> Option<View> {
    let bytes = text.as_bytes();
    let has_escape = bytes.windows(3).any(|w| {
        w.first() == Some(&b'%')
            && w.get(1).and_then(|&b| hex_val(b)).is_some()
            && w.get(2).and_then(|&b| hex_val(b)).is_some()
    });
    if !has_escape {
        return None;
    }
    let query_like = text.contains(['=', '?', '&']) || has_escape;
    let mut v = View::with_capacity(text.len());
    let mut i = 0;
    let mut copied_from = 0;
    while i < bytes.len() {
        let escape_at = |k: usize| -> Option<u8> {
            (bytes.get(k) == Some(&b'%')).then_some(())?;
            Some(hex_val(*bytes.get(k + 1)?)? * 16 + hex_val(*bytes.get(k + 2)?)?)
        };
        if escape_at(i).is_some() {
            v.copy(text, copied_from..i);
            // A run of escapes decodes together (multi-byte UTF-8). An escape encoded twice
            // (`%2520`: `%25` is `%`, then `20`) is read through both: it is one byte of five
            // characters.
            let start = i;
            let mut raw: Vec<(u8, std::ops::Range<usize>)> = Vec::new();
            while let Some(b) = escape_at(i) {
                let twice = (b == b'%')
                    .then(|| Some(hex_val(*bytes.get(i + 3)?)? * 16 + hex_val(*bytes.get(i + 4)?)?))
                    .flatten();
                match twice {
                    Some(inner) => {
                        raw.push((inner, i..i + 5));
                        i += 5;
                    }
                    None => {
                        raw.push((b, i..i + 3));
                        i += 3;
                    }
                }
            }
            let decoded: Vec<u8> = raw.iter().map(|(b, _)| *b).collect();
            match std::str::from_utf8(&decoded) {
                Ok(s) => {
                    let mut k = 0;
                    for c in s.chars() {
                        let n = c.len_utf8();
                        let from = raw.get(k).map_or(start, |(_, r)| r.start);
                        let to = raw.get(k + n - 1).map_or(i, |(_, r)| r.end);
                        v.push(c, from..to, true);
                        k += n;
                    }
                }
                Err(_) => v.copy(text, start..i),
            }
            copied_from = i;
            continue;
        }
        if bytes.get(i) == Some(&b'+') && query_like {
            let before = i
                .checked_sub(1)
                .and_then(|k| bytes.get(k))
                .is_some_and(u8::is_ascii_alphanumeric);
            let after = bytes
                .get(i + 1)
                .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'%');
            if before && after {
                v.copy(text, copied_from..i);
                v.push(' ', i..i + 1, true);
                i += 1;
                copied_from = i;
                continue;
            }
        }
        i += 1;
    }
    v.copy(text, copied_from..bytes.len());
    v.is_changed().then_some(v)
}

/// The marks that defang a dot in an address, as security writing does (`203[.]0[.]113[.]7`,
/// `evil(.)example`, `host[dot]org`).
const DEFANGED_DOTS: &[&str] = &["[.]", "(.)", "{.}", "[dot]", "(dot)", "{dot}"];

/// Addresses with defanged dots (`203[.]0[.]113[.]7`, `mail[.]example[.]org`): each mark
/// between two letters or digits reads as the dot it stands for.
pub(crate) fn defanged(text: &str) -> Option<View> {
    let bytes = text.as_bytes();
    let mut v = View::default();
    let mut copied_from = 0;
    // Every mark ends in `]`, `)` or `}`: only those bytes are looked at.
    for end in memchr::memchr3_iter(b']', b')', b'}', bytes) {
        let close = end + 1;
        // Not over the mark before it (`copied_from` is where that one ended).
        let Some(mark) = DEFANGED_DOTS.iter().find(|m| {
            close >= copied_from + m.len()
                && bytes
                    .get(close - m.len()..close)
                    .is_some_and(|b| b.eq_ignore_ascii_case(m.as_bytes()))
        }) else {
            continue;
        };
        let open = close - mark.len();
        let joins = |b: Option<&u8>| b.is_some_and(u8::is_ascii_alphanumeric);
        if !(open > 0 && joins(bytes.get(open - 1)) && joins(bytes.get(close))) {
            continue;
        }
        v.copy(text, copied_from..open);
        v.push('.', open..close, true);
        copied_from = close;
    }
    if copied_from == 0 {
        return None;
    }
    v.copy(text, copied_from..text.len());
    Some(v)
}

const NAMED_ENTITIES: &[(&str, char)] = &[
    ("amp", '&'),
    ("lt", '<'),
    ("gt", '>'),
    ("quot", '"'),
    ("apos", '\''),
    ("nbsp", ' '),
    ("commat", '@'),
    ("period", '.'),
    ("hyphen", '-'),
    ("dash", '-'),
    ("plus", '+'),
    ("lpar", '('),
    ("rpar", ')'),
    ("colon", ':'),
    ("sol", '/'),
    ("num", '#'),
    ("lowbar", '_'),
    ("eacute", 'é'),
    ("egrave", 'è'),
    ("ecirc", 'ê'),
    ("agrave", 'à'),
    ("aacute", 'á'),
    ("acirc", 'â'),
    ("iacute", 'í'),
    ("oacute", 'ó'),
    ("ocirc", 'ô'),
    ("uacute", 'ú'),
    ("ugrave", 'ù'),
    ("ntilde", 'ñ'),
    ("ccedil", 'ç'),
    ("auml", 'ä'),
    ("ouml", 'ö'),
    ("uuml", 'ü'),
    ("szlig", 'ß'),
    ("Eacute", 'É'),
    ("Auml", 'Ä'),
    ("Ouml", 'Ö'),
    ("Uuml", 'Ü'),
];

/// HTML character references: `&#64;`, `&#x40;`, `&amp;`, `&eacute;`.
pub(crate) fn html_entities(text: &str) -> Option<View> {
    if !text.contains('&') {
        return None;
    }
    let mut v = View::with_capacity(text.len());
    let mut copied_from = 0;
    let mut search = 0;
    while let Some(rel) = text.get(search..).and_then(|s| s.find('&')) {
        let at = search + rel;
        search = at + 1;
        let Some(semi_rel) = text
            .get(at..)
            .and_then(|s| s.char_indices().take(12).find(|&(_, c)| c == ';'))
            .map(|(n, _)| n)
        else {
            continue;
        };
        let name = text.get(at + 1..at + semi_rel).unwrap_or("");
        let decoded = if let Some(num) = name.strip_prefix('#') {
            let code = match num.strip_prefix(['x', 'X']) {
                Some(h) => u32::from_str_radix(h, 16).ok(),
                None => num.parse::<u32>().ok(),
            };
            code.and_then(char::from_u32)
        } else {
            NAMED_ENTITIES
                .iter()
                .find(|(n, _)| *n == name)
                .map(|&(_, c)| c)
        };
        if let Some(c) = decoded {
            let end = at + semi_rel + 1;
            v.copy(text, copied_from..at);
            v.push(c, at..end, true);
            copied_from = end;
            search = end;
        }
    }
    v.copy(text, copied_from..text.len());
    v.is_changed().then_some(v)
}

fn is_invisible(c: char) -> bool {
    matches!(c, '\u{00AD}' | '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{180E}' | '\u{034F}')
}

/// Whether the invisible `c` after `prev` is spelling, not a trick: the zero-width
/// non-joiner and joiner after a letter of a script that writes them (Persian "ملی‌ام",
/// Hindi conjuncts).
fn orthographic_joiner(prev: char, c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}') && !prev.is_ascii() && prev.is_alphabetic()
}

/// Cyrillic and Greek letters that look like Latin ones.
fn homoglyph(c: char) -> Option<char> {
    Some(match c {
        'а' => 'a',
        'е' => 'e',
        'о' => 'o',
        'р' => 'p',
        'с' => 'c',
        'у' => 'y',
        'х' => 'x',
        'і' => 'i',
        'ј' => 'j',
        'ѕ' => 's',
        'ԁ' => 'd',
        'ԛ' => 'q',
        'ԝ' => 'w',
        'һ' => 'h',
        'ӏ' => 'l',
        'ɡ' => 'g',
        'А' => 'A',
        'В' => 'B',
        'Е' => 'E',
        'К' => 'K',
        'М' => 'M',
        'Н' => 'H',
        'О' => 'O',
        'Р' => 'P',
        'С' => 'C',
        'Т' => 'T',
        'Х' => 'X',
        'У' => 'Y',
        'І' => 'I',
        'Ј' => 'J',
        'Ѕ' => 'S',
        'Α' => 'A',
        'Β' => 'B',
        'Ε' => 'E',
        'Ζ' => 'Z',
        'Η' => 'H',
        'Ι' => 'I',
        'Κ' => 'K',
        'Μ' => 'M',
        'Ν' => 'N',
        'Ο' => 'O',
        'Ρ' => 'P',
        'Τ' => 'T',
        'Υ' => 'Y',
        'Χ' => 'X',
        'ο' => 'o',
        'ν' => 'v',
        'ι' => 'i',
        'κ' => 'k',
        'ρ' => 'p',
        'α' => 'a',
        _ => return None,
    })
}

/// Digits of other scripts (Arabic-Indic, Persian, Devanagari, Bengali, Gurmukhi, Gujarati,
/// Odia, Tamil, Telugu, Kannada, Malayalam, Thai, Lao, Tibetan, Myanmar, Khmer).
fn foreign_digit(c: char) -> Option<char> {
    let base = match c {
        '\u{0660}'..='\u{0669}' => 0x0660,
        '\u{06F0}'..='\u{06F9}' => 0x06F0,
        '\u{0966}'..='\u{096F}' => 0x0966,
        '\u{09E6}'..='\u{09EF}' => 0x09E6,
        '\u{0A66}'..='\u{0A6F}' => 0x0A66,
        '\u{0AE6}'..='\u{0AEF}' => 0x0AE6,
        '\u{0B66}'..='\u{0B6F}' => 0x0B66,
        '\u{0BE6}'..='\u{0BEF}' => 0x0BE6,
        '\u{0C66}'..='\u{0C6F}' => 0x0C66,
        '\u{0CE6}'..='\u{0CEF}' => 0x0CE6,
        '\u{0D66}'..='\u{0D6F}' => 0x0D66,
        '\u{0E50}'..='\u{0E59}' => 0x0E50,
        '\u{0ED0}'..='\u{0ED9}' => 0x0ED0,
        '\u{0F20}'..='\u{0F29}' => 0x0F20,
        '\u{1040}'..='\u{1049}' => 0x1040,
        '\u{17E0}'..='\u{17E9}' => 0x17E0,
        _ => return None,
    };
    char::from_digit(c as u32 - base, 10)
}

/// Compatibility forms NFKC maps to ASCII: full-width, mathematical, circled, super- and
/// subscript letters and digits.
fn compat(c: char) -> Option<String> {
    if !compat_range(c) {
        return None;
    }
    let s: String = std::iter::once(c).nfkc().collect();
    (s != c.to_string() && s.chars().all(|c| c.is_ascii_graphic())).then_some(s)
}

/// The code points [`compat`] maps.
fn compat_range(c: char) -> bool {
    matches!(c as u32, 0xFF01..=0xFF5E | 0x1D400..=0x1D7FF | 0x2460..=0x24FF | 0x2070..=0x209F | 0x00B2 | 0x00B3 | 0x00B9 | 0x2100..=0x214F)
}

/// Whether [`unicode_tricks`] reads `c`, a character outside ASCII: an invisible character,
/// a look-alike letter, a digit of another script, a compatibility form or a look-alike dash
/// or space. A text without one has no view of that decoder (its first test looks for one of
/// them).
pub(crate) fn trick_candidate(c: char) -> bool {
    // Latin letters with accents (`é`, `ß`, `ł`): none of them is read.
    if ('\u{C0}'..='\u{24F}').contains(&c) {
        return false;
    }
    is_invisible(c)
        || homoglyph(c).is_some()
        || foreign_digit(c).is_some()
        || compat_range(c)
        || look_alike_sep(c).is_some()
}

/// Whether `text` holds sixteen hexadecimal digits in a row: every string [`hex_blobs`] reads
/// does.
pub(crate) fn has_hex_run(text: &str) -> bool {
    let mut run = 0usize;
    for b in text.bytes() {
        run = (run + 1) * usize::from(b.is_ascii_hexdigit());
        if run >= MIN_HEX {
            return true;
        }
    }
    false
}

/// Dashes and spaces that look like `-` and ` ` (hyphen U+2010, non-breaking hyphen, figure
/// and en dashes, minus, middle dots; no-break, figure, thin and narrow no-break spaces).
fn look_alike_sep(c: char) -> Option<char> {
    match c {
        '\u{2010}'..='\u{2013}' | '\u{2212}' | '\u{FE63}' => Some('-'),
        // Katakana and half-width middle dots, which Japanese writes between a phone
        // number's groups ("070・2918・4603").
        '\u{30FB}' | '\u{FF65}' => Some('-'),
        '\u{00A0}' | '\u{2007}' | '\u{2009}' | '\u{200A}' | '\u{202F}' | '\u{3000}' => Some(' '),
        _ => None,
    }
}

/// Whether a look-alike separator between `prev` and `next` stands beside a digit, with a
/// digit or an ASCII letter on its other side.
fn beside_digit(prev: char, next: char) -> bool {
    // Full-width digits count as digits ("４８２１　３９０７" with an ideographic space).
    let digit = |c: char| c.is_ascii_digit() || ('\u{FF10}'..='\u{FF19}').contains(&c);
    let alnum = |c: char| digit(c) || c.is_ascii_alphabetic();
    digit(prev) && alnum(next) || alnum(prev) && digit(next)
}

/// Whether `c` is a digit (ASCII or full-width) or an ASCII letter.
fn alnum_like(c: Option<&(usize, char)>) -> bool {
    digit_like(c) || c.is_some_and(|&(_, c)| c.is_ascii_alphabetic())
}

fn digit_like(c: Option<&(usize, char)>) -> bool {
    c.is_some_and(|&(_, c)| c.is_ascii_digit() || ('\u{FF10}'..='\u{FF19}').contains(&c))
}

/// Unicode tricks: zero-width characters removed, look-alike dashes and spaces between digits
/// made ASCII (`123‐45‐6789`, `4111 1111 …` with no-break spaces), full-width and other compatibility forms
/// mapped to ASCII, Cyrillic/Greek look-alikes inside Latin words mapped to Latin, digits of
/// other scripts mapped to ASCII digits.
pub(crate) fn unicode_tricks(text: &str) -> Option<View> {
    // Most non-ASCII text (accents, typographic quotes) has none of these: say so before
    // building anything.
    if text.is_ascii() {
        return None;
    }
    // A look-alike dash or space counts only between digits ("123‐45", not "pages – 3").
    let mut prev = ' ';
    let mut iter = text.chars().peekable();
    let mut any = false;
    while let Some(c) = iter.next() {
        if !c.is_ascii()
            && (is_invisible(c) && !orthographic_joiner(prev, c)
                || homoglyph(c).is_some()
                || foreign_digit(c).is_some()
                // Full-width punctuation ("（", "：", "，") is how CJK text is written, not a
                // trick: only compatibility letters and digits start a view (punctuation is
                // mapped with them when they do).
                || compat(c).is_some_and(|s| s.chars().all(|c| c.is_ascii_alphanumeric() || c == '@'))
                || (look_alike_sep(c).is_some()
                    && beside_digit(
                        prev,
                        iter.peek().copied().unwrap_or(' '),
                    )))
        {
            any = true;
            break;
        }
        prev = c;
    }
    if !any {
        return None;
    }
    // Words (runs of letters, digits and the characters inside e-mail addresses) that hold
    // an ASCII letter or digit: look-alikes are mapped only there.
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut mixed = vec![false; chars.len()];
    let mut k = 0;
    while k < chars.len() {
        let in_word =
            |c: char| c.is_alphanumeric() || is_invisible(c) || matches!(c, '@' | '.' | '_' | '-');
        if !chars.get(k).is_some_and(|&(_, c)| in_word(c)) {
            k += 1;
            continue;
        }
        let start = k;
        while chars.get(k).is_some_and(|&(_, c)| in_word(c)) {
            k += 1;
        }
        let has_ascii = chars
            .get(start..k)
            .is_some_and(|w| w.iter().any(|&(_, c)| c.is_ascii_alphanumeric()));
        if has_ascii {
            for m in mixed.get_mut(start..k).into_iter().flatten() {
                *m = true;
            }
        }
    }
    let mut v = View::with_capacity(text.len());
    let mut pending: Option<usize> = None; // start of dropped invisibles before the next char
    for (idx, &(i, c)) in chars.iter().enumerate() {
        let end = i + c.len_utf8();
        let before = idx.checked_sub(1).and_then(|p| chars.get(p));
        if is_invisible(c) && !before.is_some_and(|&(_, p)| orthographic_joiner(p, c)) {
            pending.get_or_insert(i);
            continue;
        }
        let src_start = pending.take().unwrap_or(i);
        let dropped = src_start != i;
        // Between digits ("123‐45‐6789"), or between a digit and a letter of an identifier
        // ("X–2847–193–K").
        let after = chars.get(idx + 1);
        let between_digits =
            digit_like(before) && alnum_like(after) || alnum_like(before) && digit_like(after);
        if let Some(sep) = look_alike_sep(c).filter(|_| between_digits) {
            v.push(sep, src_start..end, true);
        } else if let Some(s) = compat(c) {
            v.push_str(&s, src_start..end, true);
        } else if let Some(d) = foreign_digit(c) {
            v.push(d, src_start..end, true);
        } else if let Some(l) = homoglyph(c).filter(|_| mixed.get(idx).copied().unwrap_or(false)) {
            v.push(l, src_start..end, true);
        } else {
            v.push(c, src_start..end, dropped);
        }
    }
    v.is_changed().then_some(v)
}

fn spread_sep(c: char) -> bool {
    matches!(
        c,
        ' ' | '.' | '-' | '\u{b7}' | '_' | '/' | '\u{a0}' | '\u{2013}' | '\u{2022}'
    )
}

/// Whether `text` holds a run of six single digits (no digit on either side) with one to three
/// separators between each two: what [`spread_digits`] reads, found in one pass over the
/// characters without collecting them.
fn has_spread_run(text: &str) -> bool {
    let bytes = text.as_bytes();
    let (mut chain, mut gap) = (0usize, 0usize);
    let mut prev_digit = false;
    let mut i = 0;
    while i < bytes.len() {
        if chain == 0 {
            // No run under way: nothing changes before the next ASCII digit (always the start
            // of a character), and the character before it is not one.
            let Some(skip) = bytes
                .get(i..)
                .and_then(|r| r.iter().position(u8::is_ascii_digit))
            else {
                return false;
            };
            prev_digit &= skip == 0;
            i += skip;
        }
        let Some(c) = text.get(i..).and_then(|r| r.chars().next()) else {
            return false;
        };
        i += c.len_utf8();
        let digit = c.is_ascii_digit();
        if digit {
            let single = !prev_digit && !bytes.get(i).is_some_and(u8::is_ascii_digit);
            if single {
                chain = if chain > 0 && (1..=3).contains(&gap) {
                    chain + 1
                } else {
                    1
                };
                gap = 0;
                if chain >= 6 {
                    return true;
                }
            } else {
                chain = 0;
            }
        } else if chain > 0 && spread_sep(c) {
            gap += 1;
            if gap > 3 {
                chain = 0;
            }
        } else {
            chain = 0;
        }
        prev_digit = digit;
    }
    false
}

/// The letters written for digits inside a number ("O176 3318 229O", "+44 7700 9OO 123",
/// "1850l23", "+7 9I6 З42"): `O`/`o` (Latin, Cyrillic or Greek) for zero, `I`/`l` (and
/// Cyrillic `І`) for one, Cyrillic `З`/`з` for three and `б` for six.
fn digit_letter(c: char) -> Option<char> {
    match c {
        'O' | 'o' | 'О' | 'о' | 'Ο' | 'ο' => Some('0'),
        'I' | 'l' | 'І' | 'і' => Some('1'),
        'З' | 'з' => Some('3'),
        'б' => Some('6'),
        _ => None,
    }
}

/// Numbers with letters written for some of their digits: a run of digits, such letters and
/// single separators (space, `-`, `.`, `/`) standing apart from other letters, with six
/// digits at least, at most two such letters for every three digits and no two such letters
/// side by side more than twice ("Ollo" is a word): the letters become the digits.
pub(crate) fn letter_digits(text: &str) -> Option<View> {
    // Such a letter touches a digit in every run read (one pass over the bytes, before
    // anything is collected).
    let letter = |c: &u8| matches!(c, b'O' | b'o' | b'I' | b'l');
    let ascii_pair = text.as_bytes().windows(2).any(|w| {
        w.first().is_some_and(u8::is_ascii_digit) && w.get(1).is_some_and(letter)
            || w.first().is_some_and(letter) && w.get(1).is_some_and(u8::is_ascii_digit)
    });
    // The Cyrillic and Greek letters are looked for only in a text that is not all ASCII.
    let other_pair = || {
        let mut prev = ' ';
        text.chars().any(|c| {
            let pair = prev.is_ascii_digit() && !c.is_ascii() && digit_letter(c).is_some()
                || !prev.is_ascii() && digit_letter(prev).is_some() && c.is_ascii_digit();
            prev = c;
            pair
        })
    };
    if !ascii_pair && (text.is_ascii() || !other_pair()) {
        return None;
    }
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let in_run = |c: char| c.is_ascii_digit() || digit_letter(c).is_some();
    let sep = |c: char| matches!(c, ' ' | '-' | '.' | '/');
    let mut v = View::default();
    let mut copied_from = 0usize;
    let mut any = false;
    let mut k = 0;
    while k < chars.len() {
        let Some(&(start, c)) = chars.get(k) else {
            break;
        };
        let before_ok = k
            .checked_sub(1)
            .and_then(|p| chars.get(p))
            .is_none_or(|&(_, p)| !p.is_alphanumeric());
        if !in_run(c) || !before_ok {
            k += 1;
            continue;
        }
        // The run: digits and letters, a single separator between two of them.
        let mut j = k;
        let (mut digits, mut letters, mut streak, mut longest) = (0usize, 0usize, 0usize, 0usize);
        while let Some(&(_, d)) = chars.get(j) {
            if d.is_ascii_digit() {
                digits += 1;
                streak = 0;
            } else if digit_letter(d).is_some()
                && (j > k && chars.get(j - 1).is_some_and(|&(_, p)| in_run(p))
                    || chars.get(j + 1).is_some_and(|&(_, n)| in_run(n)))
            {
                // A letter standing alone between separators ("I 0171 …") is a word.
                letters += 1;
                streak += 1;
                longest = longest.max(streak);
            } else if sep(d) && chars.get(j + 1).is_some_and(|&(_, n)| in_run(n)) && j > k {
                streak = 0;
            } else {
                break;
            }
            j += 1;
        }
        let end_ok = chars.get(j).is_none_or(|&(_, n)| !n.is_alphanumeric());
        if end_ok && digits >= 6 && letters >= 1 && letters * 3 <= digits * 2 && longest <= 2 {
            v.copy(text, copied_from..start);
            for &(i, d) in chars.get(k..j).unwrap_or_default() {
                match digit_letter(d) {
                    Some(digit) => v.push(digit, i..i + d.len_utf8(), true),
                    None => v.copy(text, i..i + d.len_utf8()),
                }
            }
            copied_from = chars.get(j).map_or(text.len(), |&(i, _)| i);
            any = true;
        }
        k = j.max(k + 1);
    }
    if !any {
        return None;
    }
    v.copy(text, copied_from..text.len());
    Some(v)
}

/// Digits spread out one by one ("1 2 3 - 4 5 - 6 7 8 9", "4.5.5.6 0.1.8.7"): the most
/// frequent separator inside a run is dropped, other separators become a space or a hyphen.
pub(crate) fn spread_digits(text: &str) -> Option<View> {
    // A run holds six single digits at least.
    if text.bytes().filter(u8::is_ascii_digit).take(6).count() < 6 || !has_spread_run(text) {
        return None;
    }
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let is_single_digit = |k: usize| -> bool {
        chars.get(k).is_some_and(|&(_, c)| c.is_ascii_digit())
            && !k
                .checked_sub(1)
                .and_then(|p| chars.get(p))
                .is_some_and(|&(_, c)| c.is_ascii_digit())
            && !chars.get(k + 1).is_some_and(|&(_, c)| c.is_ascii_digit())
    };
    // A capital letter standing alone among them belongs to the run too: a spread IBAN or
    // id ("N L 3 9 A B N A 0 4 8 2 …", "W 7 7 2 - 4 1 0 …"). The run still needs six digits.
    let is_single_capital = |k: usize| -> bool {
        let alnum = |c: Option<&(usize, char)>| c.is_some_and(|&(_, c)| c.is_alphanumeric());
        chars.get(k).is_some_and(|&(_, c)| c.is_ascii_uppercase())
            && !alnum(k.checked_sub(1).and_then(|p| chars.get(p)))
            && !alnum(chars.get(k + 1))
    };
    let is_unit = |k: usize| is_single_digit(k) || is_single_capital(k);
    let mut v = View::default();
    let mut copied_from = 0usize; // byte offset
    let mut k = 0usize;
    let mut any = false;
    while k < chars.len() {
        if !is_unit(k) {
            k += 1;
            continue;
        }
        // Collect the run: digit (sep{1,3} digit)*.
        let mut digits = vec![k];
        let mut seps: Vec<(usize, usize)> = Vec::new(); // char index ranges between digits
        let mut j = k + 1;
        loop {
            let sep_start = j;
            while j < chars.len()
                && j - sep_start < 3
                && chars.get(j).is_some_and(|&(_, c)| spread_sep(c))
            {
                j += 1;
            }
            if j == sep_start || !is_unit(j) {
                break;
            }
            seps.push((sep_start, j));
            digits.push(j);
            j += 1;
        }
        let digit_count = digits.iter().filter(|&&d| is_single_digit(d)).count();
        if digit_count < 6 {
            k = digits.last().map_or(k + 1, |&l| l + 1);
            continue;
        }
        let sep_text = |&(a, b): &(usize, usize)| -> String {
            chars
                .get(a..b)
                .map(|s| s.iter().map(|&(_, c)| c).collect())
                .unwrap_or_default()
        };
        let mut counts: Vec<(String, usize)> = Vec::new();
        for s in &seps {
            let t = sep_text(s);
            match counts.iter_mut().find(|(x, _)| *x == t) {
                Some(e) => e.1 += 1,
                None => counts.push((t, 1)),
            }
        }
        let intra = counts
            .iter()
            .max_by_key(|(_, n)| *n)
            .map(|(t, _)| t.clone())
            .unwrap_or_default();
        let byte = |ci: usize| chars.get(ci).map_or(text.len(), |&(b, _)| b);
        let first_byte = byte(k);
        v.copy(text, copied_from..first_byte);
        for (n, &d) in digits.iter().enumerate() {
            if let Some(&(b, c)) = chars.get(d) {
                v.push(c, b..b + 1, true);
            }
            if let Some(s) = seps.get(n) {
                let t = sep_text(s);
                if t != intra {
                    let r = byte(s.0)..byte(s.1);
                    let out = if t.contains(['-', '\u{2013}']) {
                        '-'
                    } else {
                        ' '
                    };
                    v.push(out, r, true);
                }
            }
        }
        let last = digits.last().copied().unwrap_or(k);
        copied_from = byte(last + 1);
        k = last + 1;
        any = true;
    }
    if !any {
        return None;
    }
    v.copy(text, copied_from..text.len());
    Some(v)
}

/// Separators of a word spelled out one letter at a time.
const LETTER_SEPS: [u8; 5] = [b' ', b'.', b'-', b'_', b'*'];

/// Whether `text` may hold a word spelled out one letter at a time: three ASCII letters, each
/// alone, with the same separator after the first two ("d i a…", "H.I.V"). One pass over the
/// bytes, no decoding.
fn has_spread_letters(text: &str) -> bool {
    let b = text.as_bytes();
    // Tested first at the separator, the rarest of the five bytes to qualify.
    b.windows(5).enumerate().any(|(i, w)| {
        let &[x, s, y, s2, z] = w else {
            return false;
        };
        s == s2
            && LETTER_SEPS.contains(&s)
            && x.is_ascii_alphabetic()
            && y.is_ascii_alphabetic()
            && z.is_ascii_alphabetic()
            && i.checked_sub(1)
                .and_then(|p| b.get(p))
                .is_none_or(|c| !c.is_ascii_alphanumeric())
    })
}

/// Words spelled out one letter at a time to get past a filter ("d i a b e t e s", "H.I.V.",
/// "c-a-n-c-e-r"): the separators inside a run go. A run has four letters at least (three
/// with dots, as an acronym is written), each standing alone, all with the same separator.
///
/// A run starts at a letter right before a separator, so only the separators' bytes are
/// visited and a letter is decoded only there (a long text is not first collected into
/// characters).
pub(crate) fn spread_letters(text: &str) -> Option<View> {
    if !has_spread_letters(text) {
        return None;
    }
    let b = text.as_bytes();
    // The letter at byte `i`, when no letter or digit touches it.
    let alone = |i: usize| -> Option<char> {
        let c = char_at(text, i)?;
        (c.is_alphabetic()
            && !char_before(text, i).is_some_and(char::is_alphanumeric)
            && !char_at(text, i + c.len_utf8()).is_some_and(char::is_alphanumeric))
        .then_some(c)
    };
    let sep_at = |i: usize| b.get(i).copied().filter(|x| LETTER_SEPS.contains(x));
    // Past its first letter, a run spaced out by blanks may hold an address's marks and
    // digits too ("h e l g a . b e r g @ g m a i l . c o m").
    let member = |i: usize, sep: u8| -> Option<char> {
        alone(i).or_else(|| {
            let c = char_at(text, i)?;
            (sep == b' '
                && spread_mark(c)
                && !char_before(text, i).is_some_and(char::is_alphanumeric)
                && !char_at(text, i + c.len_utf8()).is_some_and(char::is_alphanumeric))
            .then_some(c)
        })
    };
    let mut v = View::default();
    let mut copied_from = 0usize;
    // Where the next run may start: a failed or taken run is not read again.
    let mut resume = 0usize;
    let mut any = false;
    let mut letters: Vec<(usize, char)> = Vec::new();
    for (p, &byte) in b.iter().enumerate() {
        if !LETTER_SEPS.contains(&byte) {
            continue;
        }
        let Some(first) = char_before(text, p) else {
            continue;
        };
        let k = p - first.len_utf8();
        if k < resume || alone(k).is_none() {
            continue;
        }
        letters.clear();
        letters.push((k, first));
        // The byte right after the run's last letter: its separator, if the run goes on.
        let mut end = p;
        while sep_at(end) == Some(byte) {
            let Some(c) = member(end + 1, byte) else {
                break;
            };
            letters.push((end + 1, c));
            end += 1 + c.len_utf8();
        }
        resume = end;
        let min = if byte == b'.' { 3 } else { 4 };
        if letters.len() < min {
            continue;
        }
        v.copy(text, copied_from..k);
        for &(at, c) in &letters {
            v.push(c, at..at + c.len_utf8(), true);
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

/// A character that may stand inside a run of letters spaced out by blanks, past its first
/// letter: the marks of an e-mail address and digits.
fn spread_mark(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, '.' | '@' | '_')
}

/// Whether `word` is written in camel case: a capital right after a small letter
/// ("OrderBook", "getUser"), as names in code are and e-mail addresses are not.
fn camel_case(word: &str) -> bool {
    word.as_bytes()
        .windows(2)
        .any(|w| matches!(w, [a, b] if a.is_ascii_lowercase() && b.is_ascii_uppercase()))
}

/// Whether `rest` opens with an "at" written as a word, in brackets, or as `@`.
fn opens_with_at(rest: &str) -> bool {
    let t = rest.trim_start();
    // The word needs a space on either side ("… doe at gmail", not "… doe atlas").
    let word = t.len() < rest.len()
        && t.split(char::is_whitespace)
            .next()
            .is_some_and(|w| t.len() > w.len() && is_at_word(w));
    t.starts_with('@')
        || word
        || ["[at]", "(at)", "{at}", "<at>"]
            .iter()
            .any(|b| t.get(..4).is_some_and(|h| h.eq_ignore_ascii_case(b)))
}

/// E-mail addresses spelled out: "jane dot doe at gmail dot com", "jane.doe [at] gmail [dot]
/// com", "jane(at)example(dot)org".
pub(crate) fn spelled_email(text: &str) -> Option<View> {
    let Ok(Patterns {
        spelled_email: re,
        spelled_token: tok,
        ..
    }) = &*PATTERNS
    else {
        return None;
    };
    let has_at = text
        .as_bytes()
        .windows(2)
        .any(|w| w.eq_ignore_ascii_case(b"at"));
    if !may_spell_at(text, has_at) {
        return None;
    }
    let mut v = View::default();
    let mut copied_from = 0;
    let mut from = 0;
    while let Some(m) = re.find_at(text, from) {
        from = m.end();
        // "email me at jane dot doe at gmail dot com": what reads as a domain ("jane dot doe")
        // is the local part of the address after it when another "at" follows; the search
        // starts again from there.
        if text.get(m.end()..).is_some_and(opens_with_at) {
            let first_at = tok
                .captures_iter(m.as_str())
                .find(|t| {
                    t.get(1)
                        .or_else(|| t.get(2))
                        .is_some_and(|w| is_at_word(w.as_str()))
                })
                .and_then(|t| t.get(0))
                .map(|t| m.start() + t.end());
            if let Some(next) = first_at.filter(|&n| n > m.start() && n < m.end()) {
                from = next;
                continue;
            }
        }
        // "reach me at jane.doe@x.org": a real address after the word "at" is not spelled.
        let touches_address = text.get(m.end()..).is_some_and(|r| r.starts_with('@'))
            || text.get(..m.start()).is_some_and(|r| r.ends_with('@'));
        let tokens: Vec<_> = tok.captures_iter(m.as_str()).collect();
        if tokens.is_empty() || touches_address {
            continue; // a plain address
        }
        // With a bare "at", a word in camel case ("IllegalStateException at
        // OrderBook.settle(…)") or a call's bracket right after is a stack trace's frame.
        let bare_at_word = tokens.iter().any(|t| {
            t.get(2)
                .is_some_and(|w| w.as_str().eq_ignore_ascii_case("at"))
        });
        // The frame's dotted name may run on past the match ("at app.example.sync.
        // ContactWorker.primary(ContactWorker.kt:88)": the match stops where a capital opens
        // a class's name): the rest of the name counts too.
        let rest = text.get(m.end()..).unwrap_or_default();
        let name_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '$')))
            .unwrap_or(rest.len());
        let (name_rest, after_name) = rest.split_at(name_len);
        if bare_at_word
            && (after_name.starts_with('(')
                || m.as_str().split([' ', '.']).any(camel_case)
                || name_rest.split('.').any(camel_case))
        {
            continue;
        }
        // "Tickets are available at example.org", "Registration is open at …": an ordinary
        // word (no name) before a bare "at" and a domain written with its real dots point to a
        // website, not to a mailbox.
        if bare_at_word && tokens.len() == 1 {
            let local = tokens
                .first()
                .and_then(|t| t.get(0))
                .and_then(|t| m.as_str().get(..t.start()))
                .unwrap_or_default();
            let word = local.bytes().all(|b| b.is_ascii_lowercase());
            if word
                && crate::classify::names::lists::NameLists::get()
                    .flags(local)
                    .only_word()
            {
                continue;
            }
        }
        // A full stop written apart is a sentence's as often ("we met at school . Then"):
        // it counts as a dot only with the at sign named otherwise than by a bare "at", and
        // before a domain ending in lower case.
        let spaced_stop = tokens
            .iter()
            .any(|t| t.get(2).is_some_and(|w| w.as_str() == "."));
        if spaced_stop {
            let bare_at = tokens.iter().any(|t| {
                t.get(2)
                    .is_some_and(|w| w.as_str().eq_ignore_ascii_case("at"))
            });
            let tld_lower = m
                .as_str()
                .rsplit(['.', ' '])
                .next()
                .is_some_and(|t| t.bytes().all(|b| b.is_ascii_lowercase()));
            if bare_at || !tld_lower {
                continue;
            }
        }
        v.copy(text, copied_from..m.start());
        let mut at = m.start();
        for t in tokens {
            let (Some(whole), Some(word)) = (t.get(0), t.get(1).or_else(|| t.get(2))) else {
                continue;
            };
            let (s, e) = (m.start() + whole.start(), m.start() + whole.end());
            v.copy(text, at..s);
            let c = if is_at_word(word.as_str()) { '@' } else { '.' };
            v.push(c, s..e, true);
            at = e;
        }
        v.copy(text, at..m.end());
        copied_from = m.end();
    }
    if copied_from == 0 {
        return None;
    }
    v.copy(text, copied_from..text.len());
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

    #[test]
    fn letters_written_for_digits() {
        let v = letter_digits("ring O176 3318 229O now").unwrap();
        assert_eq!(v.as_str(), "ring 0176 3318 2290 now");
        let v = letter_digits("tel +44 7700 9OO 123").unwrap();
        assert_eq!(v.as_str(), "tel +44 7700 900 123");
        // Cyrillic letters for digits.
        let v = letter_digits("звони +7 9I6 З42-I8-O7").unwrap();
        assert_eq!(v.as_str(), "звони +7 916 342-18-07");
        assert!(letter_digits("около 2000 рублей за 3 дня").is_none());
        // Words and codes are no numbers.
        assert!(letter_digits("Hello World 2024").is_none());
        assert!(letter_digits("build v1.0 of Ollo 123456").is_none());
        assert!(letter_digits("room lO1").is_none());
        assert!(letter_digits("I 0171 2345678").is_none());
    }

    #[test]
    fn base64_and_hex_blobs_decode_to_text() {
        // "SSN 123-45-6789 please"
        let text = "payload U1NOIDEyMy00NS02Nzg5IHBsZWFzZQ== end";
        let v = base64_blobs(text);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].as_str(), "SSN 123-45-6789 please");
        assert_eq!(src(&v[0], text, "123"), "U1NOIDEyMy00NS02Nzg5IHBsZWFzZQ==");
        let text = "id=6a616e652e646f6540676d61696c2e636f6d";
        let v = hex_blobs(text);
        assert_eq!(v[0].as_str(), "jane.doe@gmail.com");
    }

    #[test]
    fn random_tokens_do_not_decode() {
        for text in [
            "commit 3f786850e387550fdab836ed7e6dc881de23001b",
            "id 550e8400-e29b-41d4-a716-446655440000",
            "colour #ff8800 and #1e90ff",
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
            "token sk_live_4eC39HqLyjWDarjtT1zdp7dc",
            "internationalization and Donaudampfschifffahrt",
        ] {
            assert!(base64_blobs(text).is_empty(), "{text}");
            assert!(hex_blobs(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn percent_and_entities_map_each_piece() {
        let text = "https://x.test/search?q=Greta%20Lindgren+clinic&m=jane%40doe.org";
        let v = percent(text).unwrap();
        assert_eq!(
            v.as_str(),
            "https://x.test/search?q=Greta Lindgren clinic&m=jane@doe.org"
        );
        assert_eq!(src(&v, text, "Greta Lindgren"), "Greta%20Lindgren");
        assert_eq!(src(&v, text, "jane@doe.org"), "jane%40doe.org");
        let text = "Ren%C3%A9e";
        assert_eq!(percent(text).unwrap().as_str(), "Renée");
        assert!(percent("100% sure, 50%off").is_none());
        let text = "mail jane&#46;doe&#x40;example&period;org &amp; more";
        let v = html_entities(text).unwrap();
        assert_eq!(v.as_str(), "mail jane.doe@example.org & more");
        assert_eq!(src(&v, text, "doe@example"), "doe&#x40;example");
        assert!(html_entities("R&D and Q&A; fish & chips").is_none());
    }

    #[test]
    fn persian_non_joiners_are_spelling_not_tricks() {
        // "کد ملی‌ام ۴۹۸۹…": the digits are read, the non-joiner after a letter stays.
        let text = "کد ملی\u{200c}ام ۳۸۱۲۰۵۴۷۶۹";
        assert_eq!(
            unicode_tricks(text).unwrap().as_str(),
            "کد ملی\u{200c}ام 3812054769"
        );
        assert!(unicode_tricks("کد ملی\u{200c}ام").is_none());
        // Inside an ASCII word it is still a trick.
        assert_eq!(
            unicode_tricks("jo\u{200c}hn@example.org").unwrap().as_str(),
            "john@example.org"
        );
        // Katakana middle dots between digits read as hyphens.
        assert_eq!(
            unicode_tricks("070・2918・4603").unwrap().as_str(),
            "070-2918-4603"
        );
    }

    #[test]
    fn unicode_tricks_normalise() {
        assert_eq!(
            unicode_tricks("番号：１２３４\u{3000}５６７８")
                .unwrap()
                .as_str(),
            "番号:1234 5678"
        );
        let text = "SSN １２３-４５-６７８９";
        assert_eq!(unicode_tricks(text).unwrap().as_str(), "SSN 123-45-6789");
        assert_eq!(
            unicode_tricks("SSN 123\u{2010}45\u{2011}6789")
                .unwrap()
                .as_str(),
            "SSN 123-45-6789"
        );
        assert_eq!(
            unicode_tricks("4111\u{a0}1111\u{a0}1111\u{a0}1111")
                .unwrap()
                .as_str(),
            "4111 1111 1111 1111"
        );
        assert!(unicode_tricks("Prix\u{a0}: 12\u{a0}€ – pages ?").is_none());
        let text = "123\u{200B}-45-67\u{200C}89";
        let v = unicode_tricks(text).unwrap();
        assert_eq!(v.as_str(), "123-45-6789");
        assert_eq!(src(&v, text, "123-45-6789"), text);
        // Cyrillic а and е inside a Latin word; a Russian word stays as it is.
        let v = unicode_tricks("jаnе@gmail.com и Москва").unwrap();
        assert_eq!(v.as_str(), "jane@gmail.com и Москва");
        assert!(unicode_tricks("Привет, как дела?").is_none());
        assert!(unicode_tricks("Crème brûlée à Genève").is_none());
        // Full-width punctuation is how CJK text is written; full-width digits are a trick.
        assert!(unicode_tricks("明天（星期五）开会：三楼，会议室。").is_none());
        assert_eq!(
            unicode_tricks("电话：１３９１２３４５６７８")
                .unwrap()
                .as_str(),
            "电话:13912345678"
        );
    }

    #[test]
    fn the_accented_latin_letters_skipped_are_no_trick_candidates() {
        for c in (0x80u32..0x3_0000).filter_map(char::from_u32) {
            let read = is_invisible(c)
                || homoglyph(c).is_some()
                || foreign_digit(c).is_some()
                || compat_range(c)
                || look_alike_sep(c).is_some();
            assert_eq!(trick_candidate(c), read, "{c:?}");
        }
    }

    #[test]
    fn spread_digits_join() {
        let text = "my number is 1 2 3 - 4 5 - 6 7 8 9 ok";
        let v = spread_digits(text).unwrap();
        assert_eq!(v.as_str(), "my number is 123-45-6789 ok");
        assert_eq!(src(&v, text, "123-45-6789"), "1 2 3 - 4 5 - 6 7 8 9");
        let text = "IBAN: N L 3 9 A B N A 0 4 8 2 9 1 7 3 6 5 thanks";
        assert_eq!(
            spread_digits(text).unwrap().as_str(),
            "IBAN: NL39ABNA0482917365 thanks"
        );
        // A capital inside a word is no part of a run ("MRI 1 2 …" keeps its "I").
        assert_eq!(
            spread_digits("MRI 1 2 3 4 5 6 done").unwrap().as_str(),
            "MRI 123456 done"
        );
        let v = spread_digits("card 4.5.5.6 0.1.8.7").unwrap();
        assert_eq!(v.as_str(), "card 4556 0187");
        assert!(spread_digits("version 1.2.3 on 10.0.0.1, rated 4 5").is_none());
    }

    #[test]
    fn words_spelled_one_letter_at_a_time() {
        let text = "I have d i a b e t e s, thanks";
        let v = spread_letters(text).unwrap();
        assert_eq!(v.as_str(), "I have diabetes, thanks");
        assert_eq!(src(&v, text, "diabetes"), "d i a b e t e s");
        let v = spread_letters("he is H.I.V. positive").unwrap();
        assert_eq!(v.as_str(), "he is HIV. positive");
        assert_eq!(
            spread_letters("c-a-n-c-e-r again").unwrap().as_str(),
            "cancer again"
        );
        // Too short, mixed separators, or letters inside words: nothing.
        assert_eq!(
            spread_letters("mail h e l g a . b e r g @ g m a i l . c o m now")
                .unwrap()
                .as_str(),
            "mail helga.berg@gmail.com now"
        );
        assert!(spread_letters("plan a b c now").is_none());
        assert!(spread_letters("a.b c-d e").is_none());
        assert!(spread_letters("the U.S and more").is_none());
        assert!(spread_letters("ordinary text with no tricks").is_none());
    }

    #[test]
    fn a_spelled_address_after_the_word_at() {
        let text = "email me at jane dot doe at gmail dot com please";
        let v = spelled_email(text).unwrap();
        assert!(
            v.as_str().contains("me at jane.doe@gmail.com please"),
            "{}",
            v.as_str()
        );
        let text = "write to me at kim at proton dot me";
        let v = spelled_email(text).unwrap();
        assert!(v.as_str().contains("me at kim@proton.me"), "{}", v.as_str());
    }

    #[test]
    fn defanged_dots_read_as_dots() {
        let text = "blocked 203[.]0[.]113[.]7 and mail(dot)example[.]org, not (.) or a[.] b";
        let v = defanged(text).unwrap();
        assert_eq!(
            v.as_str(),
            "blocked 203.0.113.7 and mail.example.org, not (.) or a[.] b"
        );
        assert!(defanged("a list [.] of (things)").is_none());
    }

    #[test]
    fn twice_percent_encoded_escapes_read_through() {
        let text = "q=Ana%2520Ruiz%2540example.org&x=%C3%A9";
        let v = percent(text).unwrap();
        assert_eq!(v.as_str(), "q=Ana Ruiz@example.org&x=é");
        assert_eq!(src(&v, text, "Ana Ruiz"), "Ana%2520Ruiz");
    }

    #[test]
    fn stack_frames_are_no_spelled_emails() {
        assert!(
            spelled_email("IllegalStateException at OrderBook.settle(OrderBook.java:41)").is_none()
        );
        assert!(spelled_email("panic at worker.run(queue)").is_none());
        assert!(
            spelled_email(
                "on a null reference\n    at org.sample.sync.PhoneBookWorker.first(PhoneBookWorker.kt:12)"
            )
            .is_none()
        );
        assert!(spelled_email("write to lina dot brook at posteo dot de").is_some());
    }

    #[test]
    fn spelled_emails() {
        let text = "write to jane dot doe at gmail dot com today";
        let v = spelled_email(text).unwrap();
        assert_eq!(v.as_str(), "write to jane.doe@gmail.com today");
        assert_eq!(
            src(&v, text, "jane.doe@gmail.com"),
            "jane dot doe at gmail dot com"
        );
        let v = spelled_email("contact: j.doe [at] example [dot] org").unwrap();
        assert_eq!(v.as_str(), "contact: j.doe@example.org");
        let v = spelled_email("mail jdoe(at)example.de").unwrap();
        assert_eq!(v.as_str(), "mail jdoe@example.de");
        let v = spelled_email("escríbeme a jana punto ruiz arroba correo punto es").unwrap();
        assert_eq!(v.as_str(), "escríbeme a jana.ruiz@correo.es");
        let v = spelled_email("an jana punkt ruiz at posteo punkt de bitte").unwrap();
        assert_eq!(v.as_str(), "an jana.ruiz@posteo.de bitte");
        assert!(spelled_email("plain jane@example.org").is_none());
        assert!(spelled_email("meet at the station at noon").is_none());
        assert!(spelled_email("reach him on 555 0100 or at mark.stone@example.co.uk").is_none());
        // Full stops written apart, the at sign's Czech name in brackets.
        let v = spelled_email("piš na jana . kralova (zavináč) posta . cz díky").unwrap();
        assert_eq!(v.as_str(), "piš na jana.kralova@posta.cz díky");
        // A sentence's full stop after a space is no dot of an address.
        assert!(spelled_email("we met at school . Then we left").is_none());
        // An ordinary word before a bare "at" and a website: not an address. A name is.
        assert!(spelled_email("Registration is open at tattleford.org now").is_none());
        assert!(spelled_email("tickets available at venue-hall.co.uk").is_none());
        let v = spelled_email("write to ottilie at gmail.com").unwrap();
        assert_eq!(v.as_str(), "write to ottilie@gmail.com");
    }
}

#[cfg(test)]
mod spread_run_tests {
    use super::*;

    /// The spelled-out-letters decoder as it was first written, character by character.
    fn spread_letters_by_chars(text: &str) -> Option<View> {
        if !has_spread_letters(text) {
            return None;
        }
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let alone = |k: usize| {
            chars.get(k).is_some_and(|&(_, c)| c.is_alphabetic())
                && !k
                    .checked_sub(1)
                    .and_then(|p| chars.get(p))
                    .is_some_and(|&(_, c)| c.is_alphanumeric())
                && !chars.get(k + 1).is_some_and(|&(_, c)| c.is_alphanumeric())
        };
        let sep_at = |k: usize| {
            chars
                .get(k)
                .map(|&(_, c)| c)
                .filter(|c| c.is_ascii() && LETTER_SEPS.contains(&(*c as u8)))
        };
        let byte = |k: usize| chars.get(k).map_or(text.len(), |&(b, _)| b);
        let mut v = View::default();
        let mut copied_from = 0usize;
        let mut k = 0usize;
        let mut any = false;
        while k < chars.len() {
            let Some(sep) = alone(k).then(|| sep_at(k + 1)).flatten() else {
                k += 1;
                continue;
            };
            let mut letters = vec![k];
            let mut j = k;
            let member = |k: usize| {
                alone(k)
                    || sep == ' '
                        && chars.get(k).is_some_and(|&(_, c)| spread_mark(c))
                        && !k
                            .checked_sub(1)
                            .and_then(|p| chars.get(p))
                            .is_some_and(|&(_, c)| c.is_alphanumeric())
                        && !chars.get(k + 1).is_some_and(|&(_, c)| c.is_alphanumeric())
            };
            while sep_at(j + 1) == Some(sep) && member(j + 2) {
                j += 2;
                letters.push(j);
            }
            let min = if sep == '.' { 3 } else { 4 };
            if letters.len() < min {
                k = j + 1;
                continue;
            }
            v.copy(text, copied_from..byte(k));
            for &l in &letters {
                if let Some(&(b, c)) = chars.get(l) {
                    v.push(c, b..b + c.len_utf8(), true);
                }
            }
            copied_from = byte(j + 1);
            k = j + 1;
            any = true;
        }
        if !any {
            return None;
        }
        v.copy(text, copied_from..text.len());
        Some(v)
    }

    #[test]
    fn spelled_out_letters_read_from_separators_as_from_every_character() {
        let parts = [
            "d i a b e t e s",
            "H.I.V. positive",
            "c-a-n-c-e-r",
            "a b c",
            "é.x.y.z",
            "x é y ü",
            "U.S and more",
            "a.b c-d e",
            "ab c d e",
            "1 a b c d",
            "h e l g a . b @ g 2",
            "a b . c @",
            "日 本 語 文",
            "plain words",
            "a",
            "",
        ];
        for a in parts {
            for b in parts {
                for glue in ["", " ", ".", "x", "-", "é"] {
                    let t = format!("{a}{glue}{b}");
                    // The whole view: its text, and where each byte came from.
                    let new = spread_letters(&t).map(|v| format!("{v:?}"));
                    let old = spread_letters_by_chars(&t).map(|v| format!("{v:?}"));
                    assert_eq!(new, old, "{t:?}");
                }
            }
        }
    }

    /// The run test read character by character, as it was first written.
    fn char_by_char(text: &str) -> bool {
        let (mut chain, mut gap) = (0usize, 0usize);
        let mut prev_digit = false;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            let digit = c.is_ascii_digit();
            if digit {
                let single = !prev_digit && !chars.peek().is_some_and(char::is_ascii_digit);
                if single {
                    chain = if chain > 0 && (1..=3).contains(&gap) {
                        chain + 1
                    } else {
                        1
                    };
                    gap = 0;
                    if chain >= 6 {
                        return true;
                    }
                } else {
                    chain = 0;
                }
            } else if chain > 0 && spread_sep(c) {
                gap += 1;
                if gap > 3 {
                    chain = 0;
                }
            } else {
                chain = 0;
            }
            prev_digit = digit;
        }
        false
    }

    #[test]
    fn skipping_to_the_next_digit_finds_the_runs_a_character_scan_finds() {
        let parts = [
            "1 2 3 - 4 5 - 6 7 8 9",
            "4.5.5.6 0.1.8.7",
            "call 12 3 4 5 6",
            "1\u{a0}2\u{2013}3\u{2022}4\u{b7}5 6",
            "1 2 3 4 5x6",
            "é1 2 3 4 5 6é",
            "12 3 4 5 6 7",
            "1 2 3    4 5 6",
            "1_2/3.4-5 6",
            "日1本2語3 4 5 6",
            "no digits here",
            "9",
        ];
        for a in parts {
            for b in parts {
                for glue in ["", " ", "1", "x", "–"] {
                    let t = format!("{a}{glue}{b}");
                    assert_eq!(has_spread_run(&t), char_by_char(&t), "{t:?}");
                }
            }
        }
    }
}
