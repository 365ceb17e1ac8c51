//! Government and medical identifiers.
//!
//! Checksum-validated anywhere: French NIR (mod-97 key), Spanish DNI/NIE (letter check),
//! Romanian CNP, EMŠO/JMBG, Swiss AHV, the Belgian national number, Chilean RUT, Baltic
//! personal codes and Greek AMKA (check digit and, where they hold one, birth date),
//! Italian codice fiscale (check character), Swedish personnummer (Luhn, with its
//! separator), Chinese resident identity numbers (MOD 11-2 check character and birth date).
//! Format-only with context: UK NINO, German Steuer-IdNr (ISO 7064 check digit),
//! Dutch BSN (11-check), passports (US/UK/DE/FR/ES/IT), driver licences, medical record and
//! NHS numbers (mod-11).

use crate::classify::need::runs_of_current;
use crate::classify::pattern::LazyRegex as Regex;

use super::card::luhn;
use super::context::{Keywords, LastKey, by_key, char_at, char_before, regex};
use crate::classify::{Detector, Field};
use crate::error::Error;
use crate::item::{Finding, PsdKind};

/// Words announcing a passport number (EN/DE/FR/ES/IT/NL/PT).
const PASSPORT: &[&str] = &[
    "passport",
    "reisepass",
    "pass-nr",
    "passnummer",
    "passeport",
    "pasaporte",
    "passaporto",
    "paspoort",
    "passaporte",
];
/// Words announcing a driver licence number.
const LICENCE: &[&str] = &[
    "driver's license",
    "drivers license",
    "driver license",
    "driver's licence",
    "driving licence",
    "driving license",
    "driver_license",
    "driverlicense",
    "licence number",
    "license number",
    "dl#",
    "dl no",
    "führerschein",
    "fuhrerschein",
    "permis de conduire",
    "carnet de conducir",
    "permiso de conducir",
    "patente di guida",
    "rijbewijs",
];
/// Words announcing a medical record or patient number.
const MEDICAL: &[&str] = &[
    "mrn",
    "medical record",
    "patient id",
    "patient_id",
    "patientid",
    "patient number",
    "patient no",
    "patient #",
    "chart number",
    "chart #",
    "nhs number",
    "nhs no",
    "nhs",
    "health insurance number",
    "versichertennummer",
    "krankenversicherungsnummer",
    "numéro de patient",
    "dossier médical",
    "historia clínica",
    "número de paciente",
    "cartella clinica",
    "tessera sanitaria",
    "member id",
    "insurance id",
    "policy number",
];
/// Words announcing a tax or social id (German Steuer-IdNr, Dutch BSN).
const TAX: &[&str] = &[
    "steuer",
    "steuerid",
    "steuer-id",
    "idnr",
    "identifikationsnummer",
    "tax id",
    "tax_id",
    "taxid",
    "tin",
    "bsn",
    "burgerservicenummer",
    "sofinummer",
    "sofi",
];
/// Words announcing a UK National Insurance number.
const NINO: &[&str] = &["national insurance", "nino", "ni number", "ni no"];

/// Words announcing a national identity number: a number of the right layout right after them
/// counts even when its check letter or key is wrong (a mistyped number is still someone's).
const NATIONAL_ID: &[&str] = &[
    "dni",
    "nie",
    "nif",
    "documento de identidad",
    "doc. identidad",
    "cedula",
    "cédula",
    "personalausweis",
    "ausweisnummer",
    "ausweis-nr",
    "carte d'identité",
    "carte d'identite",
    "cni",
    "numéro de sécurité sociale",
    "numero de securite sociale",
    "n° ss",
    "nir",
    "codice fiscale",
    "carta d'identità",
    "id card",
    "national id",
    "identity number",
    "personnummer",
    "bsn",
    "pesel",
    // Indonesian NIK, on the KTP (identity card).
    "nik",
    "ktp",
    "e-ktp",
    "nomor induk kependudukan",
];

/// A check of an identifier's key or check letter.
type KeyCheck = fn(&str) -> bool;

/// Finds national, travel, licence and medical identifiers.
#[derive(Debug)]
pub(super) struct Ids {
    nir: Regex,
    dni: Regex,
    cf: Regex,
    personnummer: Regex,
    more: Regex,
    asia: Regex,
    uscis: Regex,
    nino: Regex,
    nino_any: Regex,
    mbi: Regex,
    /// An NHS number written in its groups (`943 476 5919`), read only after a medical label.
    nhs_grouped: Regex,
    /// A German Steuer-IdNr in its printed groups ("65 929 970 489").
    steuer_grouped: Regex,
    token: Regex,
    passport: Keywords,
    licence: Keywords,
    medical: Keywords,
    tax: Keywords,
    nino_words: Keywords,
    national_words: Keywords,
}

impl Ids {
    pub(super) fn new() -> Result<Self, Error> {
        Ok(Ids {
            nir: regex(
                "national_id",
                r"[12]\s?\d{2}\s?(?:0[1-9]|1[0-2]|[2-9]\d)\s?(?:\d{2}|2[ABab])\s?\d{3}\s?\d{3}\s?\d{2}",
            )?,
            // Also with its digits grouped by dots or dashes ("12.345.678-Z", "X-2847-193-K").
            dni: regex("national_id", r"[XYZxyz]?-?\d(?:[-.]?\d){6,7}-?\s?[A-Za-z]")?,
            cf: regex(
                "national_id",
                r"[A-Za-z]{6} ?[0-9LMNPQRSTUVlmnpqrstuv]{2}[A-EHLMPR-Ta-ehlmpr-t][0-9LMNPQRSTUVlmnpqrstuv]{2} ?[A-Za-z][0-9LMNPQRSTUVlmnpqrstuv]{3}[A-Za-z]",
            )?,
            personnummer: regex("national_id", r"(?:19|20)?\d{6}[-+]\d{4}|(?:19|20)\d{10}")?,
            // Swiss AHV, Belgian national number and Chilean RUT (formatted), CPF (formatted),
            // 16 digits (an Indonesian NIK, after its label), 13 digits (CNP, EMŠO), 11 digits
            // (PESEL, fødselsnummer, isikukood, AMKA),
            // rodné číslo, PPSN, HETU.
            more: regex(
                "national_id",
                r"756\.\d{4}\.\d{4}\.\d{2}|\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}|\d{1,2}\.\d{3}\.\d{3}-[\dkK]|\d{3}\.\d{3}\.\d{3}-\d{2}|\d{6}/\d{4}|\d{6}[-+A-FU-Y]\d{3}[0-9A-Y]|\d{7}[A-W][A-IW]?|\d{17}[0-9Xx]|\d{16}|\d{13}|\d{11}",
            )?,
            // Korean resident registration number, Thai national id, Malaysian MyKad, Dutch
            // BSN written with dots, Indian Aadhaar in its groups of four, an Emirates ID (784-…).
            // A US immigration case's receipt number: the code of the service centre that
            // took it in, then ten digits ("EAC2190012345").
            uscis: regex(
                "national_id",
                r"(?:EAC|WAC|LIN|SRC|NBC|MSC|IOE|YSC|ZLA|ZSF|ZNY|ZHN|ZMI|ZNK|ZPH|ZBO|ZDA|ZAR|ZCH|ZLN)\d{10}",
            )?,
            asia: regex(
                "national_id",
                r"\d{6}-\d{7}|\d-\d{4}-\d{5}-\d{2}-\d|\d{13}|\d{6}-\d{2}-\d{4}|\d{4}\.\d{2}\.\d{3}|\d{4} \d{4} \d{4}|784-\d{4}-\d{7}-\d",
            )?,
            nino: regex(
                "national_id",
                r"[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\s?\d{2}\s?\d{2}\s?\d{2}\s?[A-D]",
            )?,
            // Any two letters: right after "NI number" even a prefix HMRC never issues counts.
            nino_any: regex("national_id", r"[A-Z]{2}\s?\d{2}\s?\d{2}\s?\d{2}\s?[A-D]")?,
            // Medicare Beneficiary Identifier (CMS format: digit, letter, letter or digit, digit,
            // letter, letter or digit, digit, two letters, two digits; no S, L, O, I, B, Z).
            mbi: regex(
                "medical_record",
                r"[1-9][AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y0-9]\d-?[AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y0-9]\d-?[AC-HJKMNP-RT-Y]{2}\d{2}",
            )?,
            nhs_grouped: regex("medical_record", r"\d{3}[ -]\d{3}[ -]\d{4}")?,
            steuer_grouped: regex("tax_id", r"\d{2}[ -]\d{3}[ -]\d{3}[ -]\d{3}")?,
            token: regex("national_id", r"[A-Za-z0-9][A-Za-z0-9\-/]{4,18}[A-Za-z0-9]")?,
            passport: Keywords::new("passport", PASSPORT)?,
            licence: Keywords::new("driver_licence", LICENCE)?,
            medical: Keywords::new("medical_record", MEDICAL)?,
            tax: Keywords::new("tax_id", TAX)?,
            nino_words: Keywords::new("national_id", NINO)?,
            national_words: Keywords::new("national_id", NATIONAL_ID)?,
        })
    }
}

fn digits_of(s: &str, buf: &mut [u8; 24]) -> usize {
    let mut n = 0;
    for b in s.bytes().filter(u8::is_ascii_digit) {
        if let Some(slot) = buf.get_mut(n) {
            *slot = b - b'0';
            n += 1;
        }
    }
    n
}

/// French NIR: 13 digits (Corsica 2A/2B as 19/18) and a 2-digit key = 97 − (n mod 97).
fn nir_ok(s: &str) -> bool {
    let compact = s.bytes().filter(|b| *b != b' ');
    let mut n: u64 = 0;
    let mut key: u64 = 0;
    let mut i = 0usize;
    let mut corsica = 0u64;
    for b in compact {
        let v = match b {
            b'0'..=b'9' => u64::from(b - b'0'),
            b'A' | b'a' => {
                corsica = 1_000_000;
                0
            }
            b'B' | b'b' => {
                corsica = 2_000_000;
                0
            }
            _ => return false,
        };
        if i < 13 {
            n = n * 10 + v;
        } else {
            key = key * 10 + v;
        }
        i += 1;
    }
    i == 15 && 97 - (n.saturating_sub(corsica) % 97) == key
}

/// Spanish DNI (8 digits + letter) and NIE (X/Y/Z + 7 digits + letter).
fn dni_ok(s: &str) -> bool {
    const LETTERS: &[u8; 23] = b"TRWAGMYFPDXBNJZSQVHLCKE";
    let up: Vec<u8> = s
        .bytes()
        .filter(|b| b.is_ascii_alphanumeric())
        .map(|b| b.to_ascii_uppercase())
        .collect();
    let (Some(&last), Some(&first)) = (up.last(), up.first()) else {
        return false;
    };
    let lead = match first {
        b'X' => Some(0),
        b'Y' => Some(1),
        b'Z' => Some(2),
        _ => None,
    };
    let body = up
        .get(usize::from(lead.is_some())..up.len().saturating_sub(1))
        .unwrap_or(&[]);
    if body.len() != if lead.is_some() { 7 } else { 8 } || !body.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let n = body.iter().fold(u64::from(lead.unwrap_or(0u8)), |acc, d| {
        acc * 10 + u64::from(d - b'0')
    });
    usize::try_from(n % 23).ok().and_then(|i| LETTERS.get(i)) == Some(&last)
}

/// Italian codice fiscale check character (written whole or in its groups of six, five and
/// five: "RSSMRA 85T10 A562S").
fn cf_ok(s: &str) -> bool {
    const ODD: [u32; 26] = [
        1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24,
        23,
    ];
    let up: Vec<u8> = s
        .bytes()
        .filter(|b| *b != b' ')
        .map(|b| b.to_ascii_uppercase())
        .collect();
    if up.len() != 16 {
        return false;
    }
    let mut sum = 0u32;
    for (i, &c) in up.iter().take(15).enumerate() {
        let idx = if c.is_ascii_digit() {
            c - b'0'
        } else {
            c.wrapping_sub(b'A')
        };
        let Some(odd) = ODD.get(usize::from(idx)) else {
            return false;
        };
        sum += if i % 2 == 0 { *odd } else { u32::from(idx) };
    }
    up.get(15)
        .is_some_and(|&c| u32::from(c.wrapping_sub(b'A')) == sum % 26)
}

/// German Steuer-IdNr: ISO 7064 MOD 11,10 check digit; one digit repeated in the first ten.
fn steuer_ok(d: &[u8]) -> bool {
    if d.len() != 11 || d.first() == Some(&0) {
        return false;
    }
    let mut product = 10u32;
    for &x in d.iter().take(10) {
        let mut sum = (u32::from(x) + product) % 10;
        if sum == 0 {
            sum = 10;
        }
        product = (sum * 2) % 11;
    }
    let check = (11 - product) % 10;
    let mut counts = [0u8; 10];
    for &x in d.iter().take(10) {
        if let Some(c) = counts.get_mut(usize::from(x)) {
            *c += 1;
        }
    }
    let repeated = counts.iter().filter(|c| **c > 1).count();
    d.get(10).is_some_and(|&c| u32::from(c) == check) && repeated == 1
}

/// Korean resident registration number (`yymmdd-gnnnnnn`): a birth date, a sex and century
/// digit (1–8), and, for numbers issued before October 2020, a mod-11 check digit; written
/// with its dash the layout and the date tell it, written as 13 digits the check digit must
/// hold too.
fn rrn_ok(s: &str) -> bool {
    let d = digit_values(s);
    let at = |i: usize| d.get(i).copied().unwrap_or(0);
    let sum = weighted(&d, &[2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]);
    let check = (11 - sum % 11) % 10;
    d.len() == 13
        && (1..=12).contains(&pair(&d, 2))
        && (1..=31).contains(&pair(&d, 4))
        && (1..=8).contains(&at(6))
        && (s.as_bytes().get(6) == Some(&b'-') || at(12) == check)
}

/// Thai national identification number: 13 digits, the first 1–8, a mod-11 check digit.
fn thai_id_ok(s: &str) -> bool {
    let d = digit_values(s);
    let sum = weighted(&d, &[13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    d.len() == 13
        && d.first().is_some_and(|f| (1..=8).contains(f))
        && d.get(12) == Some(&((11 - sum % 11) % 10))
}

/// Malaysian MyKad number (`yymmdd-pb-nnnn`): a birth date and a code of the state or country
/// of birth; it has no check digit, so the layout, the date and the code tell it.
fn mykad_ok(s: &str) -> bool {
    let d = digit_values(s);
    let place = pair(&d, 6);
    d.len() == 12
        && (1..=12).contains(&pair(&d, 2))
        && (1..=31).contains(&pair(&d, 4))
        && matches!(place, 1..=16 | 21..=59 | 60..=68 | 71 | 72 | 74..=79 | 82..=93 | 98 | 99)
}

/// Indian Aadhaar number: 12 digits, the first 2–9, a Verhoeff check digit.
fn aadhaar_ok(s: &str) -> bool {
    const D: [[u8; 10]; 10] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
        [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
        [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
        [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
        [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
        [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
        [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
        [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
        [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    ];
    const P: [[u8; 10]; 8] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
        [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
        [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
        [9, 4, 5, 3, 1, 2, 8, 7, 6, 0],
        [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
        [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
        [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
    ];
    let d = digit_values(s);
    let mut c = 0u8;
    for (i, x) in d.iter().rev().enumerate() {
        let p = P
            .get(i % 8)
            .and_then(|row| row.get(usize::try_from(*x).unwrap_or(0)))
            .copied()
            .unwrap_or(0);
        c = D
            .get(usize::from(c))
            .and_then(|row| row.get(usize::from(p)))
            .copied()
            .unwrap_or(0);
    }
    d.len() == 12 && d.first().is_some_and(|f| *f >= 2) && c == 0
}

/// Emirates ID (`784-yyyy-nnnnnnn-c`): 784, the holder's birth year, seven digits and a Luhn
/// check digit.
fn emirates_ok(s: &str) -> bool {
    let mut buf = [0u8; 24];
    let n = digits_of(s, &mut buf);
    let ascii = buf.get_mut(..n).unwrap_or_default();
    for d in ascii.iter_mut() {
        *d += b'0';
    }
    n == 15 && s.starts_with("784-") && luhn(ascii)
}

/// Which of the numbers of [`Ids::asia`] `s` is, by its layout and check: written as 13 digits
/// with nothing between them (a barcode is too), only in text of its script.
fn asia_ok(s: &str, text: &str) -> bool {
    let b = s.as_bytes();
    match (b.len(), b.get(6), b.get(9)) {
        (18, _, _) => emirates_ok(s),
        (14, Some(b'-'), Some(b'-')) => mykad_ok(s),
        (14, Some(b'-'), _) => rrn_ok(s),
        (14, _, _) => aadhaar_ok(s),
        (17, _, _) => thai_id_ok(s),
        (11, _, _) => {
            let mut buf = [0u8; 24];
            let n = digits_of(s, &mut buf);
            bsn_ok(buf.get(..n).unwrap_or_default())
        }
        (13, _, _) => {
            text.chars().any(|c| ('\u{0E00}'..='\u{0E7F}').contains(&c)) && thai_id_ok(s)
                || text.chars().any(crate::text::script::is_hangul) && rrn_ok(s)
        }
        _ => false,
    }
}

/// Dutch BSN 11-check.
fn bsn_ok(d: &[u8]) -> bool {
    if d.len() != 9 {
        return false;
    }
    let sum: i64 = d
        .iter()
        .take(8)
        .zip((2..=9).rev())
        .map(|(x, w)| i64::from(*x) * w)
        .sum::<i64>()
        - i64::from(d.get(8).copied().unwrap_or(0));
    sum % 11 == 0 && sum != 0
}

/// NHS number mod-11.
fn nhs_ok(d: &[u8]) -> bool {
    if d.len() != 10 {
        return false;
    }
    let sum: u32 = d
        .iter()
        .take(9)
        .zip((2..=10u32).rev())
        .map(|(x, w)| u32::from(*x) * w)
        .sum();
    let check = (11 - sum % 11) % 11;
    check != 10 && d.get(9).is_some_and(|&c| u32::from(c) == check)
}

/// Digits of `s` as numbers (at most 24).
fn digit_values(s: &str) -> Vec<u32> {
    s.bytes()
        .filter(u8::is_ascii_digit)
        .take(24)
        .map(|b| u32::from(b - b'0'))
        .collect()
}

/// Σ d·w over the first `w.len()` digits.
fn weighted(d: &[u32], w: &[u32]) -> u32 {
    d.iter().zip(w).map(|(a, b)| a * b).sum()
}

/// Two digits as a number.
fn pair(d: &[u32], i: usize) -> u32 {
    d.get(i).copied().unwrap_or(99) * 10 + d.get(i + 1).copied().unwrap_or(99)
}

/// Brazilian CPF: two mod-11 check digits; not one digit repeated.
fn cpf_ok(s: &str) -> bool {
    let d = digit_values(s);
    let check = |n: usize| {
        let w: Vec<u32> = (2..=u32::try_from(n + 1).unwrap_or(2)).rev().collect();
        let r = weighted(&d, &w) * 10 % 11;
        if r == 10 { 0 } else { r }
    };
    d.len() == 11
        && d.iter().any(|x| Some(x) != d.first())
        && d.get(9) == Some(&check(9))
        && d.get(10) == Some(&check(10))
}

/// Polish PESEL: weights 1-3-7-9, and a birth date whose month carries the century.
fn pesel_ok(s: &str) -> bool {
    let d = digit_values(s);
    let sum = weighted(&d, &[1, 3, 7, 9, 1, 3, 7, 9, 1, 3]);
    let month = pair(&d, 2) % 20;
    let day = pair(&d, 4);
    d.len() == 11
        && d.get(10) == Some(&((10 - sum % 10) % 10))
        && (1..=12).contains(&month)
        && pair(&d, 2) < 80 + 13
        && (1..=31).contains(&day)
}

/// Turkish identity number (T.C. kimlik no): eleven digits, no leading zero, the tenth from
/// the odd and even places, the eleventh the sum of the first ten.
fn tckn_ok(s: &str) -> bool {
    let d = digit_values(s);
    if d.len() != 11 || d.first() == Some(&0) {
        return false;
    }
    let at = |i: usize| d.get(i).copied().unwrap_or(0);
    let odd = at(0) + at(2) + at(4) + at(6) + at(8);
    let even = at(1) + at(3) + at(5) + at(7);
    let tenth = (odd * 7 + 10 * 10 - even) % 10;
    let eleventh = d.iter().take(10).sum::<u32>() % 10;
    at(9) == tenth && at(10) == eleventh
}

/// Norwegian fødselsnummer (and D-numbers): two mod-11 check digits and a day-month date.
fn fnr_ok(s: &str) -> bool {
    let d = digit_values(s);
    let k = |w: &[u32]| match 11 - weighted(&d, w) % 11 {
        11 => Some(0),
        10 => None,
        k => Some(k),
    };
    let day = pair(&d, 0) % 40;
    let month = pair(&d, 2) % 40;
    d.len() == 11
        && (1..=31).contains(&day)
        && (1..=12).contains(&month)
        && k(&[3, 7, 6, 1, 8, 9, 4, 5, 2]).is_some_and(|c| d.get(9) == Some(&c))
        && k(&[5, 4, 3, 2, 7, 6, 5, 4, 3, 2]).is_some_and(|c| d.get(10) == Some(&c))
}

/// Czech and Slovak rodné číslo (10 digits, `yymmdd/xxxx`): divisible by 11, a date whose
/// month may carry +50 (women) or +20.
fn rodne_ok(s: &str) -> bool {
    let d = digit_values(s);
    let n = d.iter().fold(0u64, |a, x| a * 10 + u64::from(*x));
    let first9 = n / 10;
    let month = pair(&d, 2) % 50 % 20;
    let day = pair(&d, 4);
    d.len() == 10
        && (n % 11 == 0 || (first9 % 11 == 10 && n % 10 == 0))
        && (1..=12).contains(&month)
        && (1..=31).contains(&day)
}

/// Irish PPSN: seven digits, a mod-23 check letter and an optional second letter.
fn ppsn_ok(s: &str) -> bool {
    let d = digit_values(s);
    let letters: Vec<u8> = s.bytes().filter(u8::is_ascii_alphabetic).collect();
    let second = match letters.get(1) {
        None | Some(b'W') => 0,
        Some(&c) => u32::from(c - b'A' + 1),
    };
    let sum = weighted(&d, &[8, 7, 6, 5, 4, 3, 2]) + second * 9;
    let want = match sum % 23 {
        0 => b'W',
        r => b'A' + u8::try_from(r - 1).unwrap_or(0),
    };
    d.len() == 7 && letters.first() == Some(&want)
}

/// Danish CPR number, written `ddmmyy-ssss`: a day-month date and a dash (numbers issued since
/// 2007 carry no check digit, so the layout and the date are what tell it).
/// Estonian and Lithuanian personal code (isikukood, asmens kodas): century and sex digit
/// 1–6, a birth date, and a mod-11 check digit (weights 1…9,1, else 3…9,1…3, else 0).
fn baltic_ok(s: &str) -> bool {
    let d = digit_values(s);
    let check = || {
        let first = weighted(&d, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 1]) % 11;
        if first < 10 {
            return first;
        }
        let second = weighted(&d, &[3, 4, 5, 6, 7, 8, 9, 1, 2, 3]) % 11;
        if second < 10 { second } else { 0 }
    };
    d.len() == 11
        && d.first().is_some_and(|c| (1..=6).contains(c))
        && (1..=12).contains(&pair(&d, 3))
        && (1..=31).contains(&pair(&d, 5))
        && d.get(10) == Some(&check())
}

/// Greek AMKA: a birth date (DDMMYY) and a Luhn check over the eleven digits.
fn amka_ok(s: &str) -> bool {
    let mut buf = [0u8; 24];
    let n = digits_of(s, &mut buf);
    let two =
        |i: usize| buf.get(i).copied().unwrap_or(9) * 10 + buf.get(i + 1).copied().unwrap_or(9);
    let (day, month) = (two(0), two(2));
    let ascii = buf.get_mut(..n).unwrap_or_default();
    for d in ascii.iter_mut() {
        *d += b'0';
    }
    n == 11 && (1..=31).contains(&day) && (1..=12).contains(&month) && luhn(ascii)
}

/// Romanian CNP: sex and century digit 1–8, a birth date, a county code, and a mod-11 check
/// digit (weights 2,7,9,1,4,6,3,5,8,2,7,9; a remainder of 10 is 1).
fn cnp_ok(s: &str) -> bool {
    let d = digit_values(s);
    let r = weighted(&d, &[2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9]) % 11;
    let county = pair(&d, 7);
    d.len() == 13
        && d.first().is_some_and(|c| (1..=8).contains(c))
        && (1..=12).contains(&pair(&d, 3))
        && (1..=31).contains(&pair(&d, 5))
        && ((1..=52).contains(&county) || county == 70)
        && d.get(12) == Some(&(if r == 10 { 1 } else { r }))
}

/// The unique master citizen number of the former Yugoslav states (EMŠO, JMBG, EMBG): a
/// birth date (DDMMYYY), a region, a serial and a mod-11 check digit.
fn emso_ok(s: &str) -> bool {
    let d = digit_values(s);
    let r = 11 - weighted(&d, &[7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11;
    let year = pair(&d, 4) * 10 + d.get(6).copied().unwrap_or(9);
    d.len() == 13
        && (1..=31).contains(&pair(&d, 0))
        && (1..=12).contains(&pair(&d, 2))
        && (year >= 900 || year <= 30)
        && r != 10
        && d.get(12) == Some(&(if r == 11 { 0 } else { r }))
}

/// Swiss AHV/AVS number: `756.` and an EAN-13 check digit.
fn ahv_ok(s: &str) -> bool {
    let d = digit_values(s);
    let sum: u32 = d
        .iter()
        .take(12)
        .enumerate()
        .map(|(i, v)| if i % 2 == 0 { *v } else { v * 3 })
        .sum();
    d.len() == 13 && s.starts_with("756") && d.get(12) == Some(&((10 - sum % 10) % 10))
}

/// Belgian national number (`YY.MM.DD-SSS.CC`): 97 minus the first nine digits mod 97 (with
/// a `2` before them for people born from 2000).
fn belgian_ok(s: &str) -> bool {
    let d = digit_values(s);
    if d.len() != 11 {
        return false;
    }
    let base = d.iter().take(9).fold(0u64, |n, v| n * 10 + u64::from(*v));
    let check = u64::from(pair(&d, 9));
    (1..=12).contains(&(pair(&d, 2) % 20))
        && [base, 2_000_000_000 + base]
            .iter()
            .any(|n| 97 - n % 97 == check)
}

/// Chilean RUN of a person (`12.345.678-5`, `9.876.543-K`): a valid RUT below the range
/// given to companies (see [`company_code`]).
fn rut_ok(s: &str) -> bool {
    rut_number(s).is_some_and(|n| n < COMPANY_RUT_FROM)
}

/// Where Chile's RUTs of legal persons begin; people's RUNs lie far below.
const COMPANY_RUT_FROM: u64 = 50_000_000;

/// The number of a RUT whose check digit is right (mod 11 over its seven or eight digits, `K`
/// for ten), read once for both a person's and a company's test.
fn rut_number(s: &str) -> Option<u64> {
    let (body, check) = s.rsplit_once('-')?;
    let d = digit_values(body);
    let sum: u32 = d
        .iter()
        .rev()
        .zip([2, 3, 4, 5, 6, 7].iter().cycle())
        .map(|(a, b)| a * b)
        .sum();
    let expected = match 11 - sum % 11 {
        11 => '0',
        10 => 'K',
        n => char::from_digit(n, 10).unwrap_or('?'),
    };
    ((7..=8).contains(&d.len()) && check.eq_ignore_ascii_case(&expected.to_string()))
        .then(|| d.iter().fold(0u64, |n, v| n * 10 + u64::from(*v)))
}

/// A legal person's registration number, not a person's: a Chilean RUT from
/// [`COMPANY_RUT_FROM`] up, or a Chinese unified social credit code of an enterprise or a
/// cooperative ([`uscc_enterprise`]).
pub(super) fn company_code(tok: &str) -> bool {
    uscc_enterprise(tok) || rut_number(tok).is_some_and(|n| n >= COMPANY_RUT_FROM)
}

/// A Chinese unified social credit code of an enterprise or a cooperative (GB 32100-2015):
/// eighteen characters opening with `91` or `93` (a resident's number never opens with 9),
/// its check character valid.
fn uscc_enterprise(tok: &str) -> bool {
    const CHARS: &[u8] = b"0123456789ABCDEFGHJKLMNPQRTUWXY";
    const WEIGHTS: [u32; 17] = [
        1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28,
    ];
    let b = tok.as_bytes();
    if b.len() != 18 || !(tok.starts_with("91") || tok.starts_with("93")) {
        return false;
    }
    let value = |c: &u8| {
        CHARS
            .iter()
            .position(|x| x == c)
            .and_then(|v| u32::try_from(v).ok())
    };
    let Some(values) = b.iter().map(value).collect::<Option<Vec<u32>>>() else {
        return false;
    };
    let sum: u32 = values.iter().zip(WEIGHTS).map(|(v, w)| v * w).sum();
    let check = (31 - sum % 31) % 31;
    values.last() == Some(&check)
}

/// An Indonesian NIK by its structure (it has no check digit): a province code (11–94), the
/// district and subdistrict, the day of birth (plus 40 for a woman), the month, the year, and
/// a serial that is not 0000.
fn nik_ok(s: &str) -> bool {
    let d = digit_values(s);
    if d.len() != 16 {
        return false;
    }
    let province = pair(&d, 0);
    let day = pair(&d, 6);
    let month = pair(&d, 8);
    (11..=94).contains(&province)
        && ((1..=31).contains(&day) || (41..=71).contains(&day))
        && (1..=12).contains(&month)
        && d.get(12..)
            .is_some_and(|serial| serial.iter().any(|&x| x != 0))
}

fn cpr_ok(s: &str) -> bool {
    let d = digit_values(s);
    s.as_bytes().get(6) == Some(&b'-')
        && d.len() == 10
        && (1..=31).contains(&pair(&d, 0))
        && (1..=12).contains(&pair(&d, 2))
}

/// Words that name an order, an invoice, a booking or a shipment: a number right after one
/// is that reference ("Order no. 250612-0033", "注文番号 250612-0033"), not a person's
/// number that carries no check digit (a Danish CPR is only a date and four digits).
const REFERENCE_WORDS: &[&str] = &[
    "order",
    "ordre",
    "orden",
    "ordine",
    "bestell",
    "bestilling",
    "commande",
    "pedido",
    "zamówieni",
    "objednávk",
    "invoice",
    "faktur",
    "factur",
    "rechnung",
    "fattura",
    "booking",
    "buchung",
    "reserv",
    "tracking",
    "sendung",
    "shipment",
    "заказ",
    "注文",
    "订单",
    "訂單",
    "주문",
    "予約",
    "伝票",
    "bestel",
    "tilaus",
    "rendel",
    "comand",
    "παραγγελ",
    "замовлення",
    "đơn hàng",
    "pesanan",
    "คำสั่งซื้อ",
    "سفارش",
    "הזמנה",
    "takip",
    "kargo",
    "sipariş",
    "awb",
    "guía",
    "colis",
    "paket",
    "pacco",
];

/// Whether a word of [`REFERENCE_WORDS`] stands in the 24 bytes before `at`.
fn reference_before(text: &str, at: usize) -> bool {
    let mut from = at.saturating_sub(24);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let before = text.get(from..at).unwrap_or_default().to_lowercase();
    REFERENCE_WORDS.iter().any(|w| before.contains(w))
}

/// Chinese resident identity number (GB 11643): a six-digit region, the birth date as
/// `yyyymmdd`, three digits and an ISO 7064 MOD 11-2 check character (`0`–`9` or `X`).
fn resident_id_cn_ok(s: &str) -> bool {
    const WEIGHTS: [u32; 17] = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
    const CHECK: &[u8; 11] = b"10X98765432";
    let b = s.as_bytes();
    if b.len() != 18 || !b.iter().take(17).all(u8::is_ascii_digit) {
        return false;
    }
    let d: Vec<u32> = b.iter().take(17).map(|c| u32::from(c - b'0')).collect();
    let num = |from: usize, len: usize| d.iter().skip(from).take(len).fold(0u32, |a, x| a * 10 + x);
    let (year, month, day) = (num(6, 4), num(10, 2), num(12, 2));
    let sum: u32 = d.iter().zip(WEIGHTS).map(|(x, w)| x * w).sum();
    let check = usize::try_from(sum % 11).ok().and_then(|i| CHECK.get(i));
    (1900..=2099).contains(&year)
        && (1..=12).contains(&month)
        && (1..=31).contains(&day)
        && check.is_some_and(|c| b.get(17).is_some_and(|x| x.to_ascii_uppercase() == *c))
}

/// Finnish HETU: `ddmmyy`, a century sign, three digits and a mod-31 check character.
fn hetu_ok(s: &str) -> bool {
    const CHECK: &[u8; 31] = b"0123456789ABCDEFHJKLMNPRSTUVWXY";
    let d = digit_values(s);
    let n = d.iter().fold(0u64, |a, x| a * 10 + u64::from(*x));
    let last = s.bytes().last();
    let n9 = if last.is_some_and(|c| c.is_ascii_digit()) {
        n / 10
    } else {
        n
    };
    usize::try_from(n9 % 31)
        .ok()
        .and_then(|i| CHECK.get(i))
        .copied()
        == last
        && (1..=31).contains(&pair(&d, 0))
        && (1..=12).contains(&pair(&d, 2))
}

fn separate(text: &str, start: usize, end: usize) -> bool {
    !char_before(text, start)
        .is_some_and(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '/' | '.'))
        && !char_at(text, end).is_some_and(|c| c.is_alphanumeric() || matches!(c, '-' | '_'))
}

impl Ids {
    fn checksummed(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) {
        thread_local! {
            static LAST: LastKey<bool> = const { LastKey::new((String::new(), None)) };
        }
        let field_says = field
            .key
            .is_some_and(|k| by_key(&LAST, k, |k| self.national_words.any_in(k)));
        // A valid key: sure. A wrong key right after a word naming the document: likely.
        let confidence = |ok: bool, start: usize| -> Option<f32> {
            if ok {
                Some(0.95)
            } else if field_says || self.national_words.before(text, start, 40) {
                Some(0.7)
            } else {
                None
            }
        };
        let checks: [(&Regex, KeyCheck); 3] =
            [(&self.nir, nir_ok), (&self.dni, dni_ok), (&self.cf, cf_ok)];
        for (re, ok) in checks {
            for m in re.find_iter(text) {
                if !separate(text, m.start(), m.end()) {
                    continue;
                }
                if let Some(c) = confidence(ok(m.as_str()), m.start()) {
                    out.push(Finding::new(
                        m.range(),
                        PsdKind::NationalId,
                        c,
                        "national_id",
                    ));
                }
            }
        }
        for m in self.personnummer.find_iter(text) {
            let mut buf = [0u8; 24];
            let n = digits_of(m.as_str(), &mut buf);
            let d = buf.get(n.saturating_sub(10)..n).unwrap_or(&[]);
            let month = d.get(2).copied().unwrap_or(0) * 10 + d.get(3).copied().unwrap_or(0);
            let day = d.get(4).copied().unwrap_or(0) * 10 + d.get(5).copied().unwrap_or(0);
            let ascii: [u8; 10] = core::array::from_fn(|i| d.get(i).copied().unwrap_or(0) + b'0');
            if separate(text, m.start(), m.end())
                && (1..=12).contains(&month)
                && (1..=91).contains(&day)
                && luhn(&ascii)
                && !reference_before(text, m.start())
            {
                out.push(Finding::new(
                    m.range(),
                    PsdKind::NationalId,
                    0.9,
                    "national_id",
                ));
            }
        }
    }

    /// CPF, PESEL, fødselsnummer, T.C. kimlik, isikukood/asmens kodas, AMKA, CNP, EMŠO, AHV,
    /// the Belgian national number, RUT, rodné číslo, PPSN and HETU by their check digits;
    /// Danish CPR by its layout and date.
    fn more_checksummed(&self, text: &str, out: &mut Vec<Finding>) {
        // Six digits in a row, or the groups of three of a CPF or a RUT.
        let run = super::context::longest_digit_run(text);
        if run < 6 && !(run >= 3 && text.contains('.') && super::context::digit_count(text) >= 8) {
            return;
        }
        for m in self.more.find_iter(text) {
            let s = m.as_str();
            if !separate(text, m.start(), m.end()) {
                continue;
            }
            let ok = match s.len() {
                16 if s.contains('.') => ahv_ok(s),
                16 => nik_ok(s) && self.national_words.before(text, m.start(), 40),
                15 => belgian_ok(s),
                11 | 12 if s.contains('.') => rut_ok(s),
                13 => cnp_ok(s) || emso_ok(s),
                14 => cpf_ok(s),
                11 if s.bytes().all(|c| c.is_ascii_digit()) => {
                    pesel_ok(s) || fnr_ok(s) || tckn_ok(s) || baltic_ok(s) || amka_ok(s)
                }
                11 if s.contains('/') => rodne_ok(s),
                11 => hetu_ok(s) || cpr_ok(s),
                8 | 9 => ppsn_ok(s),
                18 => resident_id_cn_ok(s),
                _ => false,
            };
            // After an order, invoice or shipment word the number is that reference, check
            // digit or not (a date-shaped one passes a one-in-eleven check often enough).
            let ok = ok
                && !(s.len() == 11
                    && s.contains(['-', '+', 'A'])
                    && reference_before(text, m.start()));
            if ok {
                out.push(Finding::new(
                    m.range(),
                    PsdKind::NationalId,
                    0.9,
                    "national_id",
                ));
            }
        }
    }

    /// Korean, Thai, Malaysian, Indian and Emirati national numbers and a dotted BSN ([`asia_ok`]);
    /// US immigration receipt numbers by their service centre's code.
    fn asian_checksummed(&self, text: &str, out: &mut Vec<Finding>) {
        if super::context::longest_digit_run(text) < 3 {
            return;
        }
        for m in self.asia.find_iter(text) {
            if separate(text, m.start(), m.end())
                && asia_ok(m.as_str(), text)
                && !reference_before(text, m.start())
            {
                out.push(Finding::new(
                    m.range(),
                    PsdKind::NationalId,
                    0.9,
                    "national_id",
                ));
            }
        }
        for m in self.uscis.find_iter(text) {
            if separate(text, m.start(), m.end()) {
                out.push(Finding::new(
                    m.range(),
                    PsdKind::NationalId,
                    0.85,
                    "national_id",
                ));
            }
        }
    }

    /// Medicare Beneficiary Identifiers: the format alone is specific (letters and digits at
    /// fixed places); with its dashes or after "MBI"/"Medicare" more so.
    fn medicare(&self, text: &str, out: &mut Vec<Finding>) {
        for m in self.mbi.find_iter(text) {
            if !separate(text, m.start(), m.end()) {
                continue;
            }
            let dashed = m.as_str().contains('-');
            let labelled = text.get(..m.start()).is_some_and(|b| {
                let b = b.trim_end().to_ascii_lowercase();
                b.ends_with("mbi") || b.ends_with("mbi:") || b.contains("medicare")
            });
            let conf = if dashed || labelled { 0.9 } else { 0.75 };
            out.push(Finding::new(
                m.range(),
                PsdKind::MedicalRecord,
                conf,
                "medical_record",
            ));
        }
    }

    fn contextual(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) {
        // What the field names, each read once, when a candidate needs it.
        let cells: [std::cell::OnceCell<bool>; 5] = Default::default();
        let says = |i: usize, k: &Keywords| {
            cells.get(i).map_or_else(
                || k.in_field(field),
                |c| *c.get_or_init(|| k.in_field(field)),
            )
        };
        let passport_f = || says(0, &self.passport);
        let licence_f = || says(1, &self.licence);
        let medical_f = || says(2, &self.medical);
        let tax_f = || says(3, &self.tax);
        let nino_f = || says(4, &self.nino_words);
        for m in self.nino.find_iter(text) {
            let bad_prefix = matches!(
                m.as_str().get(..2),
                Some("BG" | "GB" | "NK" | "KN" | "TN" | "NT" | "ZZ")
            );
            if separate(text, m.start(), m.end()) && !bad_prefix {
                let conf = if nino_f() || self.nino_words.before(text, m.start(), 32) {
                    0.95
                } else {
                    0.8
                };
                out.push(Finding::new(
                    m.range(),
                    PsdKind::NationalId,
                    conf,
                    "national_id",
                ));
            }
        }
        let nino_label = nino_f() || self.nino_words.any_in(text);
        for m in self
            .nino_any
            .find_iter(text)
            .take(if nino_label { usize::MAX } else { 0 })
        {
            let seen = out.iter().any(|f| f.span == m.range());
            if !seen
                && separate(text, m.start(), m.end())
                && (nino_f() || self.nino_words.before(text, m.start(), 32))
            {
                out.push(Finding::new(
                    m.range(),
                    PsdKind::NationalId,
                    0.85,
                    "national_id",
                ));
            }
        }
        // Numbers in their printed groups after their label: an NHS number after a medical
        // one ("NHS number 943 476 5919"), a Steuer-IdNr after a word for tax ("Steuer-ID
        // brauchst: 65 929 970 489"). Their groups are no token of their own.
        let grouped = [
            (
                &self.nhs_grouped,
                nhs_ok as fn(&[u8]) -> bool,
                medical_f(),
                &self.medical,
                10,
                PsdKind::MedicalRecord,
                "medical_record",
            ),
            (
                &self.steuer_grouped,
                steuer_ok,
                tax_f(),
                &self.tax,
                11,
                PsdKind::TaxId,
                "tax_id",
            ),
        ];
        for (pattern, valid, labelled_field, words, digits, kind, detector) in grouped {
            if !super::context::has_digits(text, digits) {
                continue;
            }
            for m in pattern.find_iter(text) {
                let mut buf = [0u8; 24];
                let n = digits_of(m.as_str(), &mut buf);
                if separate(text, m.start(), m.end())
                    && buf.get(..n).is_some_and(valid)
                    && (labelled_field || words.before(text, m.start(), 32))
                {
                    out.push(Finding::new(m.range(), kind, 0.95, detector));
                }
            }
        }
        for (start, end) in self.digit_tokens(text) {
            if !separate(text, start, end) {
                continue;
            }
            let s = text.get(start..end).unwrap_or("");
            let mut buf = [0u8; 24];
            let n = digits_of(s, &mut buf);
            let d = buf.get(..n).unwrap_or(&[]);
            if n < 4 {
                continue;
            }
            let all_digits = n == s.len();
            let window = |k: &Keywords| k.before(text, start, 32);
            if (passport_f() || window(&self.passport)) && (6..=10).contains(&s.len()) && n >= 5 {
                out.push(Finding::new(
                    start..end,
                    PsdKind::Passport,
                    0.85,
                    "passport",
                ));
            } else if (licence_f() || window(&self.licence)) && s.len() >= 5 {
                out.push(Finding::new(
                    start..end,
                    PsdKind::DriverLicence,
                    0.8,
                    "driver_licence",
                ));
            } else if medical_f() || window(&self.medical) {
                let conf = if nhs_ok(d) { 0.95 } else { 0.8 };
                out.push(Finding::new(
                    start..end,
                    PsdKind::MedicalRecord,
                    conf,
                    "medical_record",
                ));
            } else if (tax_f() || window(&self.tax)) && all_digits && (steuer_ok(d) || bsn_ok(d)) {
                let kind = if n == 11 {
                    PsdKind::TaxId
                } else {
                    PsdKind::NationalId
                };
                out.push(Finding::new(start..end, kind, 0.95, "tax_id"));
            }
        }
    }
}

impl Ids {
    /// The matches of the token pattern holding four ASCII digits or more (the only ones
    /// [`contextual`](Self::contextual) can report), as byte ranges of `text`.
    ///
    /// The pattern's characters are ASCII letters, digits, `-` and `/`, and it looks at
    /// nothing around a match: its matches in `text` are those found in each maximal run of
    /// such characters on its own. Runs with fewer than four digits hold no match with four,
    /// and are not searched.
    ///
    /// In a long scanned text whose runs of numeric characters are listed, only the runs of
    /// such characters around an ASCII digit are read (the others hold none).
    fn digit_tokens(&self, text: &str) -> Vec<(usize, usize)> {
        let bytes = text.as_bytes();
        let mut out = Vec::new();
        if let Some(numeric) = runs_of_current(text) {
            let mut next = 0;
            for r in numeric.iter() {
                for p in r.clone() {
                    if p < next || !bytes.get(p).is_some_and(u8::is_ascii_digit) {
                        continue;
                    }
                    let start = p - bytes
                        .get(..p)
                        .map_or(0, |b| b.iter().rev().take_while(|&&b| in_token(b)).count());
                    next = self.tokens_in_run(text, start, &mut out);
                }
            }
            return out;
        }
        let mut i = 0;
        while i < bytes.len() {
            if !bytes.get(i).copied().is_some_and(in_token) {
                i += 1;
                continue;
            }
            i = self.tokens_in_run(text, i, &mut out);
        }
        out
    }

    /// Adds the matches of the token pattern in the run of token characters starting at byte
    /// `start` of `text`, when it holds four ASCII digits and six characters at least; gives
    /// the end of the run.
    fn tokens_in_run(&self, text: &str, start: usize, out: &mut Vec<(usize, usize)>) -> usize {
        let bytes = text.as_bytes();
        let mut i = start;
        let mut digits = 0;
        while let Some(&b) = bytes.get(i).filter(|&&b| in_token(b)) {
            digits += usize::from(b.is_ascii_digit());
            i += 1;
        }
        // Runs are ASCII: their edges are char boundaries.
        if digits < 4 || i - start < 6 {
            return i;
        }
        if let Some(run) = text.get(start..i) {
            out.extend(
                self.token
                    .find_iter(run)
                    .map(|m| (start + m.start(), start + m.end())),
            );
        }
        i
    }
}

/// A character of the token pattern: an ASCII letter or digit, `-` or `/`.
fn in_token(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'/'
}

impl crate::classify::shared::Gate for Ids {
    fn may_find(text: &str, _field: &Field<'_>) -> bool {
        text.len() >= 6 && super::context::digit_count(text) >= 4
    }
}

impl Detector for Ids {
    fn name(&self) -> &'static str {
        "national_id"
    }

    fn detect(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) {
        if text.len() < 6 || super::context::digit_count(text) < 4 {
            return;
        }
        self.checksummed(text, field, out);
        self.more_checksummed(text, out);
        self.asian_checksummed(text, out);
        self.medicare(text, out);
        let first = out.len();
        self.contextual(text, field, out);
        self.same_shape_siblings(text, first, out);
    }
}

/// A token's shape: letters as `A`, digits as `9`, other characters kept.
fn shape(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_digit() {
                '9'
            } else if c.is_ascii_alphabetic() {
                'A'
            } else {
                c
            }
        })
        .collect()
}

impl Ids {
    /// A list of documents names its kind once ("Passports: Samir RL4471920, Leila
    /// RL9920315"): a token of exactly the shape of an identifier found by its label, in the
    /// same text, is the same kind of identifier. Only distinctive shapes count (seven
    /// characters or more, five digits or more).
    fn same_shape_siblings(&self, text: &str, first: usize, out: &mut Vec<Finding>) {
        let found: Vec<(String, PsdKind)> = out
            .get(first..)
            .unwrap_or(&[])
            .iter()
            .filter_map(|f| {
                let t = text.get(f.span.clone())?;
                let digits = t.bytes().filter(u8::is_ascii_digit).count();
                (t.len() >= 7 && digits >= 5 && !t.contains(' ')).then(|| (shape(t), f.kind))
            })
            .collect();
        if found.is_empty() {
            return;
        }
        // The spans already found, by start, with the furthest end reached so far: a token
        // overlaps one when a span starting before its end reaches past its start (a binary
        // search per token, not a scan of every finding).
        let mut taken: Vec<(usize, usize)> =
            out.iter().map(|f| (f.span.start, f.span.end)).collect();
        taken.sort_unstable();
        let mut reach = 0;
        for t in &mut taken {
            reach = reach.max(t.1);
            t.1 = reach;
        }
        let overlaps = |start: usize, end: usize| {
            let i = taken.partition_point(|t| t.0 < end);
            i > 0 && taken.get(i - 1).is_some_and(|t| t.1 > start)
        };
        let mut more = Vec::new();
        for m in self.token.find_iter(text) {
            if !separate(text, m.start(), m.end()) || overlaps(m.start(), m.end()) {
                continue;
            }
            let sh = shape(m.as_str());
            if let Some((_, kind)) = found.iter().find(|(s, _)| *s == sh) {
                more.push(Finding::new(m.range(), *kind, 0.75, "national_id"));
            }
        }
        out.extend(more);
    }
}

#[cfg(test)]
mod tests;
