//! Phone numbers: `+CC` international numbers of any country, `00`-prefixed numbers, and
//! national formats of the US, UK, Germany, France, Spain and Italy; Chinese mobile numbers
//! without `+86` (eleven digits, `1[3-9]…`, bare or grouped 3-4-4) in Chinese text or after a
//! phone label.
//!
//! One cheap pattern finds digit runs with phone punctuation; only those candidates are parsed
//! and validated against the libphonenumber metadata (the `phonenumber` crate), which is slow.
//! A number split over fields named for its parts (`phone_area`: "0161", `phone_number`:
//! "496 0815") is found part by part: a short run of digits that is a field's whole value,
//! where the key names a phone and nothing but its parts.

mod metadata;

use crate::classify::pattern::LazyRegex as Regex;
use phonenumber::country::Id;

use self::metadata::{Checked, check};

use super::context::{
    Keywords, after, before, char_at, char_before, digit_count, number_continues, regex,
};
use crate::classify::{Detector, Field};
use crate::error::Error;
use crate::item::{Finding, PsdKind};
use crate::text::script::is_han;

/// Words (EN, DE, FR, ES, IT) that say a nearby number or a field holds a phone number.
const CONTEXT: &[&str] = &[
    "phone",
    "tel",
    "tél",
    "telephone",
    "téléphone",
    "telefon",
    "teléfono",
    "telefono",
    "mobile",
    "mobil",
    "móvil",
    "movil",
    "cellulare",
    "cell",
    "portable",
    "handy",
    "whatsapp",
    "sms",
    "text me",
    "call",
    "ring",
    "fax",
    "recipient",
    "rufnummer",
    "appel",
    "llama",
    "chiama",
    "anruf",
    "contact",
    "msisdn",
    "e164",
    "dial",
    "landline",
    "hotline",
    "kontakt",
    "kontakta",
    "ring meg",
    "ring mig",
    "ring til",
    "tlf",
    "mobiel",
    "bel me",
    "telefoon",
    "zadzwoń",
    "komórka",
    "komórkowy",
    "numer tel",
    "nr tel",
    "volejte",
    "ligue",
    "telemóvel",
    "telemovel",
    "celular",
    // "My number", written beside a number that is valid as a phone number of the country
    // tried: the number still has to pass the metadata.
    "my number",
    "meine nummer",
    "mon numéro",
    "mi número",
    "mi numero",
    "il mio numero",
    "o meu número",
    "mijn nummer",
    "mitt nummer",
    "mit nummer",
    "mój numer",
    "moje číslo",
    "reach me",
    // Arabic, Persian, Hebrew, Hindi, Thai, Korean and Japanese labels of a phone number
    // ("my number", "mobile", "phone", "call").
    "رقمي",
    "رقم جوالي",
    "رقم الجوال",
    "رقم الهاتف",
    "رقم هاتف",
    "رقم جوال",
    "هاتف",
    "جوال",
    "جوالي",
    "هاتفي",
    "اتصل",
    "تواصل",
    "للتواصل",
    "التواصل",
    "واتساب",
    "شماره",
    "شمارهٔ",
    "موبایل",
    "تلفن",
    "המספר שלי",
    "טלפון",
    "נייד",
    "וואטסאפ",
    "मेरा नंबर",
    "मोबाइल",
    "फोन",
    "फ़ोन",
    "नंबर",
    "เบอร์",
    "โทร",
    "전화번호",
    "연락처",
    "핸드폰",
    "휴대폰",
    "電話",
    "携帯",
    "連絡先",
];

/// Chinese words (simplified and traditional) before a number that say it is a phone number;
/// matched anywhere, as Chinese is written without spaces ("联系电话：", "请拨打").
const CN_LABELS: &[&str] = &[
    "电话", "電話", "手机", "手機", "联系", "聯繫", "聯絡", "拨打", "撥打", "致电", "致電", "来电",
    "來電", "打给", "打給", "短信", "簡訊", "微信",
];

/// Chinese words before a number that say it is the number of something else: an order, a
/// parcel, a card, a record.
const CN_NOT_PHONE: &[&str] = &[
    "订单", "訂單", "单号", "單號", "编号", "編號", "卡号", "卡號",
];

/// Labels (lower case) before a number that say it is a company's registration, a tax or VAT
/// number, a shipment, an order or a meeting: "SIRET 732 829 320 00074", "KvK 34125678",
/// "meeting ID 884 2291 0043".
const OTHER_NUMBER_LABELS: &[&str] = &[
    "siret",
    "siren",
    "kvk",
    "vat",
    "tva",
    "ust-id",
    "ustid",
    "reg. no",
    "reg no",
    "registration no",
    "company no",
    "handelsregister",
    "tracking",
    "meeting id",
    "order no",
    "order #",
    "invoice no",
    "invoice #",
    "bestellnummer",
    "sendungsnummer",
    "auftragsnummer",
    "numéro de commande",
    "n° de commande",
    "número de pedido",
    "注文番号",
    "伝票番号",
    "予約番号",
    "追跡番号",
    "お問い合わせ番号",
    "受付番号",
    "주문번호",
    "송장번호",
    "예약번호",
    "order number",
    "ordernummer",
    "ordrenummer",
    "bestelnummer",
    "tilausnumero",
    "rendelésszám",
    "numărul comenzii",
    "numer zamówienia",
    "číslo objednávky",
    "αριθμός παραγγελίας",
    "номер заказа",
    "Номер заказа",
    "трек-номер",
    // Bank accounts ("계좌번호 공…", "Kontonummer 0761 930248").
    "계좌",
    "口座番号",
    // Not "账号" alone: a login is a phone number in China ("账号：手机号 139…").
    "银行账号",
    "銀行帳號",
    "account no",
    "account number",
    "acct no",
    "kontonummer",
    "kontonr",
    "rekeningnummer",
    "numéro de compte",
    "número de cuenta",
    "número da conta",
    "numero di conto",
    "numer konta",
    "číslo účtu",
];

/// Whether a label of [`OTHER_NUMBER_LABELS`] stands in the 32 bytes before `start`, after
/// the last digit there (ASCII case aside).
fn labelled_other(text: &str, start: usize) -> bool {
    let lead = before(text, start, 32);
    let lead = lead
        .rfind(|c: char| c.is_ascii_digit())
        .map_or(lead, |i| lead.get(i + 1..).unwrap_or_default());
    let lead = lead.as_bytes();
    OTHER_NUMBER_LABELS.iter().any(|l| {
        let l = l.as_bytes();
        lead.windows(l.len()).any(|w| w.eq_ignore_ascii_case(l))
    })
}

/// How far before a Chinese mobile number its label may stand, in bytes (eight Han
/// characters).
const CN_LABEL_WINDOW: usize = 24;

/// Loads the full phone metadata (see [`metadata`]).
pub(super) fn warm_up_metadata() {
    let _ = metadata::full();
}

/// Finds phone numbers.
#[derive(Debug)]
pub(super) struct Phone {
    candidate: Regex,
    context: Keywords,
}

impl Phone {
    pub(super) fn new() -> Result<Self, Error> {
        // The metadata loads on the first candidate validated, or before on the warm-up
        // thread (see `classify::shared`).
        Ok(Phone {
            candidate: regex("phone", r"\+?\(?\d[\d \u{a0}.\-/()]{5,24}\d")?,
            context: Keywords::new("phone", CONTEXT)?,
        })
    }
}

/// Shapes that look like phone digits but are dates, IPs, decimals or versions.
fn not_a_phone(s: &str) -> bool {
    let dots = s.matches('.').count();
    // 2025-06-11, 2025/06/11, 11.06.2025, 06/11/2025
    let mut groups = s
        .split(['-', '/', '.'])
        .filter(|g| !g.is_empty())
        .map(str::len);
    let is_date = !s.contains([' ', '(', '\u{a0}'])
        && match (groups.next(), groups.next(), groups.next(), groups.next()) {
            (Some(a), Some(m), Some(c), None) => {
                (a == 4 && m <= 2 && c <= 2) || (a <= 2 && m <= 2 && (c == 4 || c == 2))
            }
            _ => false,
        };
    // A date and a time: "2025-04-11 20:00" is a candidate up to the hour.
    let starts_with_date = s.split([' ', 'T', '\u{a0}']).next().is_some_and(|head| {
        let g: Vec<usize> = head.split(['-', '/', '.']).map(str::len).collect();
        matches!(g.as_slice(), [4, 2, 2] | [2, 2, 4] | [1 | 2, 1 | 2, 4])
    });
    // Build numbers and calendar versions: "2025.05.2811", "2024-11-3001".
    let year_led = s.get(..5).is_some_and(|h| {
        (h.starts_with("19") || h.starts_with("20"))
            && h.bytes().take(4).all(|c| c.is_ascii_digit())
            && h.ends_with(['.', '-', '/'])
    }) && s
        .get(5..)
        .is_some_and(|r| r.find(['.', '-', '/']).is_some_and(|i| i <= 2));
    // A record's year and serial ("n. 2025/206481", "Az. 2024/00871", "order 2023-407215"):
    // no phone plan opens with a year before a slash (area codes written so start with 0),
    // and none groups ten digits four and six.
    let year_serial = [('/', 3), ('-', 5)].iter().any(|&(sep, min)| {
        s.split_once(sep).is_some_and(|(y, n)| {
            y.len() == 4
                && (y.starts_with("19") || y.starts_with("20"))
                && y.bytes().all(|c| c.is_ascii_digit())
                && n.len() >= min
                && n.bytes().all(|c| c.is_ascii_digit())
        })
    });
    // A US social security number leading the run ("078-05-1120 4111 …"): no phone layout
    // groups digits 3-2-4 with dashes.
    let ssn_led = s.split([' ', '\u{a0}']).next().is_some_and(|w| {
        w.split('-').map(str::len).eq([3, 2, 4])
            && w.bytes().all(|c| c == b'-' || c.is_ascii_digit())
    });
    is_date
        || ssn_led
        || starts_with_date
        || year_led
        || year_serial
        || is_toll_free(s)
        || (dots == 3 && !s.contains([' ', '-'])) // an IPv4 address
        || (dots == 1 && !s.contains([' ', '-', '/', '('])) // a decimal
        || s.contains("..")
}

/// North American toll-free numbers (800, 833, 844, 855, 866, 877, 888) belong to businesses.
fn is_toll_free(s: &str) -> bool {
    let digits: Vec<u8> = s.bytes().filter(u8::is_ascii_digit).collect();
    let national = match digits.len() {
        11 if digits.first() == Some(&b'1') => digits.get(1..4),
        10 => digits.get(..3),
        _ => None,
    };
    national.is_some_and(|a| {
        matches!(
            a,
            b"800" | b"833" | b"844" | b"855" | b"866" | b"877" | b"888"
        )
    })
}

impl Phone {
    fn validate(&self, cand: &str, context: bool) -> Option<f32> {
        let digits = digit_count(cand);
        if cand.starts_with('+') {
            if !(7..=15).contains(&digits) {
                return None;
            }
            // A number whose calling code parses, laid out in three groups or more ("+44 7700
            // 900 554"), is written as a phone number though its range is unassigned or
            // reserved for fiction.
            return match check(None, cand) {
                Checked::Valid => Some(0.95),
                Checked::Invalid if context || digits >= 9 && laid_out_as_phone(cand) => Some(0.6),
                _ => None,
            };
        }
        if let Some(rest) = cand.strip_prefix("00")
            && (9..=17).contains(&digits)
            && rest.starts_with(|c: char| c.is_ascii_digit() && c != '0')
        {
            let mut buf = String::with_capacity(rest.len() + 1);
            buf.push('+');
            buf.push_str(rest);
            if check(None, &buf) == Checked::Valid {
                return Some(0.9);
            }
        }
        if !(7..=15).contains(&digits) {
            return None;
        }
        let formatted = cand.contains([' ', '-', '.', '(', '/', '\u{a0}']);
        if !formatted && !context {
            return None;
        }
        let first = cand
            .trim_start_matches('(')
            .as_bytes()
            .first()
            .copied()
            .unwrap_or(b'0');
        // A bare run in a phone field may be an international number without its `+`.
        if !formatted && context && first != b'0' && digits >= 10 {
            let mut buf = String::with_capacity(cand.len() + 1);
            buf.push('+');
            buf.push_str(cand);
            if check(None, &buf) == Checked::Valid {
                return Some(0.85);
            }
        }
        let regions: &[Id] = match (first, digits) {
            (b'0', _) => &[Id::GB, Id::DE, Id::FR, Id::IT],
            (b'1', 11) => &[Id::US],
            (_, 10) => &[Id::US, Id::IT],
            (b'6'..=b'9', 9) => &[Id::ES],
            (b'3', 9) => &[Id::IT],
            _ => &[],
        };
        for id in regions {
            if check(Some(*id), cand) == Checked::Valid {
                return Some(if formatted { 0.85 } else { 0.8 });
            }
        }
        // A two-digit area code in brackets is Brazil's layout ("(11) 98765-4321").
        if brazilian_layout(cand) && check(Some(Id::BR), cand) == Checked::Valid {
            return Some(0.85);
        }
        // Where the text says it is a phone number, the national formats of the other
        // covered countries: Dutch and Swedish trunk-prefixed numbers, Nordic eight-digit
        // numbers, Polish, Portuguese and Czech nine-digit numbers.
        // Groups of four ("4111 1111") are card digits more often than a Nordic number.
        let card_groups = cand.split([' ', '-', '\u{a0}']).all(|g| g.len() == 4);
        if context && formatted && !card_groups {
            let more: &[Id] = match (first, digits) {
                (b'0', _) => &[Id::NL, Id::SE, Id::BE, Id::AT],
                (_, 8) => &[Id::NO, Id::DK],
                (_, 9) => &[Id::PL, Id::PT, Id::CZ],
                _ => &[],
            };
            for id in more {
                if check(Some(*id), cand) == Checked::Valid {
                    return Some(0.75);
                }
            }
        }
        // Fictional or unassigned numbers in a NANP layout still identify within a text that
        // says it is a phone number.
        (context && formatted && (digits == 10 || (digits == 11 && first == b'1'))).then_some(0.6)
    }
}

/// Whether `cand` ("+44 7700 900 554", "+44 7700 900431") is laid out as an international
/// phone number: its calling code of one to three digits and two groups or more of digits,
/// each of at most six, the last of three at least, parted by single spaces or dashes.
fn laid_out_as_phone(cand: &str) -> bool {
    let Some(rest) = cand.strip_prefix('+') else {
        return false;
    };
    let groups: Vec<&str> = rest.split([' ', '-']).collect();
    groups.len() >= 3
        && groups.first().is_some_and(|g| (1..=3).contains(&g.len()))
        && groups
            .iter()
            .all(|g| (1..=6).contains(&g.len()) && g.bytes().all(|b| b.is_ascii_digit()))
        && groups.last().is_some_and(|g| g.len() >= 3)
}

/// Whether `cand` is laid out as a Chinese mobile number: eleven digits `1[3-9]…`, bare or
/// in groups of 3, 4 and 4 with one kind of separator (a space or a dash).
fn chinese_mobile_layout(cand: &str) -> bool {
    let b = cand.as_bytes();
    let lead = matches!(b, [b'1', b'3'..=b'9', ..]);
    let bare = b.len() == 11 && b.iter().all(u8::is_ascii_digit);
    let grouped = [' ', '-'].iter().any(|&sep| {
        cand.split(sep).map(str::len).eq([3, 4, 4])
            && cand.bytes().all(|c| c.is_ascii_digit() || c == sep as u8)
    });
    lead && (bare || grouped)
}

/// Whether any of `words` occurs in `hay`.
fn holds_any(hay: &str, words: &[&str]) -> bool {
    words.iter().any(|w| hay.contains(w))
}

impl Phone {
    /// The confidence that `cand` at `start` is a Chinese mobile number written without `+86`:
    /// a valid one for China's metadata, laid out as such, standing apart (Han characters may
    /// touch it), and either after a phone label (Chinese, or the words of [`CONTEXT`] /
    /// the field: `context`) or in Chinese text (Han characters near it), not after the word
    /// for an order, parcel or card number.
    fn chinese_mobile(&self, text: &str, start: usize, cand: &str, context: bool) -> Option<f32> {
        let end = start + cand.len();
        if !chinese_mobile_layout(cand) || !bounded_by(text, start, end, is_han) {
            return None;
        }
        let lead = before(text, start, CN_LABEL_WINDOW);
        if holds_any(lead, CN_NOT_PHONE) {
            return None;
        }
        let labelled = context || holds_any(lead, CN_LABELS);
        let near = |s: &str| s.chars().any(is_han);
        let tail = after(text, end, CN_LABEL_WINDOW);
        let chinese = near(lead) || near(tail);
        if !(labelled || chinese) {
            return None;
        }
        (check(Some(Id::CN), cand) == Checked::Valid).then_some(if labelled { 0.85 } else { 0.75 })
    }
}

/// Whether `cand` opens with a two-digit area code in brackets and holds ten or eleven digits
/// ("(11) 98765-4321", "(21) 3456-7890").
fn brazilian_layout(cand: &str) -> bool {
    let b = cand.as_bytes();
    b.first() == Some(&b'(')
        && b.get(1..3)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
        && b.get(3) == Some(&b')')
        && (10..=11).contains(&digit_count(cand))
}

/// Bytes read on each side of a number for the script of the text around it.
const SCRIPT_WINDOW: usize = 48;

/// A national number laid out in groups ("010-1234-5678", "8 916 123-45-67", "694 123 4567")
/// checked against the countries whose script the text around it is written in: Korean,
/// Japanese, Greek, Hebrew, Arabic, Devanagari, Thai and Cyrillic text. The script says where
/// a number with no country code is dialled. Bare digits count after a phone label
/// (`context`).
fn by_script(text: &str, start: usize, cand: &str, context: bool) -> Option<f32> {
    let digits = digit_count(cand);
    // Bare digits only after a word that says they are a phone number.
    if !(8..=12).contains(&digits) || !context && !cand.contains([' ', '-', '.', '(', '\u{a0}']) {
        return None;
    }
    let end = start + cand.len();
    let around = [
        super::context::before(text, start, SCRIPT_WINDOW),
        super::context::after(text, end, SCRIPT_WINDOW),
    ];
    // Latin text around it (most texts) names none of these scripts.
    if around.iter().all(|s| s.is_ascii()) {
        return None;
    }
    let has = |test: fn(char) -> bool| around.iter().any(|s| s.chars().any(test));
    let mut regions: Vec<Id> = Vec::new();
    if has(crate::text::script::is_hangul) {
        regions.push(Id::KR);
    }
    if has(crate::text::script::is_kana) {
        regions.push(Id::JP);
    }
    if has(|c| matches!(c, '\u{0370}'..='\u{03FF}')) {
        regions.push(Id::GR);
    }
    if has(crate::text::script::is_hebrew) {
        regions.push(Id::IL);
    }
    if has(crate::text::script::is_arabic) {
        regions.extend([Id::SA, Id::AE, Id::EG, Id::MA]);
    }
    if has(crate::text::script::is_devanagari) {
        regions.push(Id::IN);
    }
    if has(|c| matches!(c, '\u{0E00}'..='\u{0E7F}')) {
        regions.push(Id::TH);
    }
    if has(|c| matches!(c, '\u{0400}'..='\u{04FF}')) {
        regions.extend([Id::RU, Id::UA, Id::BY]);
    }
    regions
        .into_iter()
        .any(|id| check(Some(id), cand) == Checked::Valid)
        .then_some(0.75)
}

/// Whether `cand` is a North American local number: three digits (the first 2–9), a hyphen
/// or a stop, four digits.
fn local_seven(cand: &str) -> bool {
    let b = cand.as_bytes();
    b.len() == 8
        && b.first().is_some_and(|d| (b'2'..=b'9').contains(d))
        && matches!(b.get(3), Some(b'-' | b'.'))
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 3 || c.is_ascii_digit())
}

/// Whether the candidate at `start..end` is a separate token. Japanese and Korean attach
/// their particles with no space ("090-1234-5678に", "010-1234-5678로"): a character of a
/// script written without spaces may touch it.
fn bounded(text: &str, start: usize, end: usize) -> bool {
    bounded_by(text, start, end, |c| {
        crate::text::script::is_unspaced(c) || crate::text::script::is_hangul(c)
    })
}

/// [`bounded`], where a letter for which `open` holds may touch the candidate (Chinese is
/// written without spaces: "手机13912345678").
fn bounded_by(text: &str, start: usize, end: usize, open: fn(char) -> bool) -> bool {
    let before_ok = !char_before(text, start).is_some_and(|c| {
        (c.is_alphanumeric() && !open(c))
            || matches!(
                c,
                '.' | '-' | '/' | '#' | '$' | '€' | '£' | '_' | '+' | ','
            )
            // A colon after a digit is a time's or a ratio's ("10:30"); after a label
            // ("Tel:", "電話:") it announces the number.
            || c == ':'
                && text
                    .get(..start.saturating_sub(1))
                    .and_then(|t| t.chars().next_back())
                    .is_none_or(|p| p.is_ascii_digit())
    });
    let after_ok = !char_at(text, end)
        .is_some_and(|c| (c.is_alphanumeric() && !open(c)) || matches!(c, '%' | '_' | '€' | '$'))
        // A cut inside a dashed number ("078-05-1120 078|-05-1120") is no phone's end.
        && !number_continues(text, end, &['.', ',', ':', '-']);
    before_ok && after_ok
}

/// The candidate trimmed by one trailing separator-delimited group, if digits remain. A last
/// word that is a number of another shape (an IPv4 address, a date, a decimal: "+1 415 555
/// 0182 10.0.0.7") goes whole, so the phone before it is found whether or not it is there.
fn drop_last_group(s: &str) -> Option<&str> {
    let last_word = s.rfind([' ', '\u{a0}']).filter(|&ws| {
        s.get(ws..)
            .map(|w| w.trim_start_matches([' ', '\u{a0}']))
            .is_some_and(|w| w.contains(['.', '-', '/']) && not_a_phone(w))
    });
    let cut = match last_word {
        Some(ws) => ws,
        None => s.rfind([' ', '-', '.', '/', '\u{a0}'])?,
    };
    let t = s
        .get(..cut)?
        .trim_end_matches([' ', '-', '.', '/', '(', '\u{a0}']);
    (digit_count(t) >= 7).then_some(t)
}

/// Whether the field's key names a phone number or a part of one, and nothing else:
/// `phone`, `ec_phone_area`, `mobileNumber`, `tel_ext` (not `mobile_width`, `call_count`).
fn phone_key(field: &Field<'_>) -> bool {
    const PHONE: &[&str] = &[
        "phone",
        "telephone",
        "tel",
        "telefon",
        "telefono",
        "teléfono",
        "téléphone",
        "mobile",
        "mobil",
        "movil",
        "móvil",
        "cellphone",
        "cellular",
        "cellulare",
        "fax",
        "whatsapp",
    ];
    const PARTS: &[&str] = &[
        "number",
        "num",
        "no",
        "nr",
        "nbr",
        "nummer",
        "numero",
        "número",
        "area",
        "areacode",
        "code",
        "prefix",
        "vorwahl",
        "ext",
        "extension",
        "local",
        "digits",
        "part",
        "home",
        "work",
        "office",
        "contact",
        "emergency",
        "ec",
        "alt",
        "alternate",
        "primary",
        "secondary",
        "main",
        "private",
        "personal",
    ];
    let Some(key) = field.key else {
        return false;
    };
    let mut words: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in key.chars() {
        if (!c.is_alphanumeric() || (prev_lower && c.is_uppercase())) && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        if c.is_alphanumeric() {
            cur.extend(c.to_lowercase());
        }
        prev_lower = c.is_lowercase();
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words.iter().any(|w| PHONE.contains(&w.as_str()))
        && words.iter().all(|w| {
            PHONE.contains(&w.as_str())
                || PARTS.contains(&w.as_str())
                || w.bytes().all(|b| b.is_ascii_digit())
        })
}

/// The span of a whole value that is only a short run of digits (3 to 8) with the
/// separators of a phone number: a part of one.
fn phone_part(text: &str) -> Option<std::ops::Range<usize>> {
    if text.len() > 32 {
        return None;
    }
    let value = text.trim();
    let digits = digit_count(value);
    let shaped = value.starts_with(|c: char| c.is_ascii_digit() || c == '(' || c == '+')
        && value
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b' ' | b'-' | b'(' | b')' | b'+'));
    if !(3..=8).contains(&digits) || !shaped {
        return None;
    }
    let start = text.len() - text.trim_start().len();
    Some(start..start + value.len())
}

impl crate::classify::shared::Gate for Phone {
    fn may_find(text: &str, _field: &Field<'_>) -> bool {
        digit_count(text) >= 7 || phone_part(text).is_some()
    }
}

impl Detector for Phone {
    fn name(&self) -> &'static str {
        "phone"
    }

    fn detect(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) {
        if digit_count(text) < 7 {
            // A part of a number split over fields (`phone_area`: "0113", `phone_number`:
            // "496 0732"), in a field that names a phone.
            if let Some(part) = phone_part(text)
                && phone_key(field)
            {
                out.push(Finding::new(part, PsdKind::Phone, 0.7, "phone"));
            }
            return;
        }
        // Whether the field names a phone: read once, when a candidate needs it.
        let field_cell = std::cell::OnceCell::new();
        let in_field = || *field_cell.get_or_init(|| self.context.in_field(field));
        let mut from = 0;
        let mut any = false;
        while let Some(m) = self.candidate.find_at(text, from) {
            let start = m.start();
            from = m.end();
            // A run that starts with a number of another shape ("10.0.0.7 415 555 0182"):
            // when no phone starts at the run, the search resumes at its next word.
            let resume = m
                .as_str()
                .find([' ', '\u{a0}'])
                .filter(|&ws| {
                    m.as_str()
                        .get(..ws)
                        .is_some_and(|w| w.contains(['.', '-', '/']) && not_a_phone(w))
                })
                .map(|ws| start + ws + 1);
            // An unbalanced closing parenthesis at the end belongs to the text.
            let mut cand = m.as_str();
            let mut start = start;
            if cand.ends_with(')') && !cand.contains('(') {
                cand = cand.trim_end_matches(')');
            }
            // An unbalanced opening one too: "Keisha Monroe (917-555-0148)" is read without
            // its brackets.
            if let Some(inner) = cand.strip_prefix('(')
                && !inner.contains(')')
            {
                cand = inner;
                start += 1;
            }
            // Phone layouts never end in a one-digit group: "+44 20 7946 0958 2 times".
            if let Some((head, last)) = cand.rsplit_once(' ')
                && last.len() == 1
                && digit_count(head) >= 7
            {
                cand = head;
            }
            // Twice the reach in a text of other scripts, whose letters take two or three
            // bytes ("मेरा नंबर").
            let labelled = in_field()
                || self.context.before(text, start, 24)
                || !text.is_ascii() && self.context.before(text, start, 48);
            // A number spoken digit by digit ("nul zes twee …") is dictated as phones are,
            // unless a label says it is another kind of number.
            let context = labelled || field.dictated;
            let mut tries = 0;
            let mut found = false;
            loop {
                let end = start + cand.len();
                // A number read by the script around it is a separate token and no build
                // number or business line, as one validated by its layout is.
                let conf = if bounded(text, start, end) && !not_a_phone(cand) {
                    self.validate(cand, context)
                        .or_else(|| by_script(text, start, cand, context))
                } else {
                    None
                };
                let conf = conf
                    .or_else(|| self.chinese_mobile(text, start, cand, context))
                    // A North American local number after a word for a phone ("call my work
                    // number 555-0134"): seven digits, no area code.
                    .or_else(|| {
                        (context && local_seven(cand) && bounded(text, start, end)).then_some(0.7)
                    });
                if let Some(conf) = conf {
                    // A number labelled as another kind of number is none of a phone's.
                    if !labelled && labelled_other(text, start) {
                        break;
                    }
                    out.push(Finding::new(start..end, PsdKind::Phone, conf, "phone"));
                    found = true;
                    any = true;
                    break;
                }
                tries += 1;
                match drop_last_group(cand) {
                    Some(t) if tries < 4 => cand = t,
                    _ => break,
                }
            }
            if !found && let Some(at) = resume {
                from = at;
            }
        }
        if !any
            && let Some(part) = phone_part(text)
            && phone_key(field)
        {
            out.push(Finding::new(part, PsdKind::Phone, 0.7, "phone"));
        }
    }
}

#[cfg(test)]
mod tests;
