//! Payment card numbers (13–19 digits, Luhn, issuer prefix sanity; spaces or dashes between
//! groups) and partial card references such as "Visa ending in 4242"; beside a card number or
//! a security code, its expiry date after its label ("exp 09/27", "gültig bis 11/28"), reported
//! by the detector [`EXPIRY_DETECTOR`].

/// The detector name of a card's expiry date (a card's detail, not a reference to it; the
/// decision stage reads it by this name).
const EXPIRY_DETECTOR: &str = "card_expiry";

use crate::classify::pattern::LazyRegex as Regex;

use super::context::{char_at, char_before, number_continues, regex, regex_gated};
use crate::classify::pattern::{Edge, words_ci};
use crate::classify::{Detector, Field};
use crate::error::Error;
use crate::item::{Finding, PsdKind};

/// Finds card numbers and partial card references.
#[derive(Debug)]
pub(super) struct Card {
    full: Regex,
    partial: Regex,
    security: Regex,
    expiry: Regex,
}

impl Card {
    pub(super) fn new() -> Result<Self, Error> {
        Ok(Card {
            full: regex(
                "card",
                r"\d(?:[ \-]?\d){11,18}|\d{4}\.\d{4}\.\d{4}\.\d{1,7}",
            )?,
            // Card words (EN/DE/FR/ES/IT/PT/NL/PL/Scandinavian/ID and brands), then "ending
            // (in)" / "last 4" / a mask in those languages.
            partial: regex_gated(
                "card",
                r"(?i)(?-u:\b)(?:card|visa|master\s?card|mc|amex|american express|discover|debit|credit|cc|carte|karte|kreditkarte|tarjeta|carta|bancomat|cartão|cartao|kaart|karta|kort|kortet|kartu)(?-u:\b)[^.\n\d]{0,24}?(?:ending(?:\s+(?:in|with))?|ends\s+(?:in|with)|last\s+(?:4|four)(?:\s+digits)?|endend\s+auf|endet\s+auf|se\s+terminant\s+par|finissant\s+par|terminada\s+en|acabad[ao]\s+en|que\s+acaba\s+en|que\s+termina\s+en|terminante\s+in|che\s+termina\s+(?:con|in)|terminad[oa]\s+em|que\s+termina\s+em|com\s+final|final|eindigend\s+op|die\s+eindigt\s+op|eindigt\s+op|som\s+slutar\s+på|slutar\s+på|som\s+(?:ender|slutter)\s+på|der\s+ender\s+på|ender\s+på|slutter\s+på|kończąc[aey]\s+się\s+na|z\s+końcówką|końcówka|berakhir|[*•x]{4}(?:[ \-]?[*•x]{4}){0,3}[ \-]?)\s*(?:[:#]\s*)?(\d{4})(?-u:\b)",
                words_ci(
                    &[
                        CARD_WORDS,
                        &[
                            "master",
                            "mc",
                            "american express",
                            "discover",
                            "debit",
                            "credit",
                            "cc",
                            "kreditkarte",
                            "bancomat",
                        ],
                    ]
                    .concat(),
                    Edge::Boundary,
                    Edge::Any,
                ),
            )?,
            // Card security codes after their name (EN/DE/FR/ES/IT/NL).
            security: regex_gated(
                "card",
                r"(?i)(?-u:\b)(?:cvv2?|cvc2?|cvn|cid|csc|security code|card verification(?: value| code)?|kartenprüfnummer|prüfnummer|cryptogramme(?: visuel)?|code de sécurité|código de seguridad|codice di sicurezza|beveiligingscode)\s*(?:[:#=]|is|ist|est|es|è)?\s*(\d{3,4})(?-u:\b)",
                words_ci(
                    &[
                        "cvv",
                        "cvc",
                        "cvn",
                        "cid",
                        "csc",
                        "security code",
                        "card verification",
                        "kartenprüfnummer",
                        "prüfnummer",
                        "cryptogramme",
                        "code de sécurité",
                        "código de seguridad",
                        "codice di sicurezza",
                        "beveiligingscode",
                    ],
                    Edge::Boundary,
                    Edge::Any,
                ),
            )?,
            // An expiry date after its label (EN/DE/FR/ES/IT/PT/NL/PL/Nordic): MM/YY, MM/YYYY,
            // MM-YY.
            expiry: regex_gated(
                "card",
                r"(?i)(?-u:\b)(?:exp(?:iry|iration|ires)?(?: date)?\.?|valid (?:thru|through|until)|good thru|gültig bis|ablaufdatum|ablauf|date d'expiration|expire (?:le|fin)|vence|vencimiento|caducidad|fecha de caducidad|scadenza|validade|vervaldatum|geldig tot|ważna do|data ważności|utløpsdato|udløbsdato|utgångsdatum)\s*(?:[:=]|on|en|le)?\s*(?:0?[1-9]|1[0-2])\s?[/\-]\s?(?:20)?\d{2}(?-u:\b)",
                words_ci(
                    &[
                        "exp",
                        "valid",
                        "good thru",
                        "gültig",
                        "ablauf",
                        "expiration",
                        "expire",
                        "vence",
                        "vencimiento",
                        "caducidad",
                        "scadenza",
                        "validade",
                        "vervaldatum",
                        "geldig",
                        "ważna",
                        "ważności",
                        "utløpsdato",
                        "udløbsdato",
                        "utgångsdatum",
                    ],
                    Edge::Boundary,
                    Edge::Any,
                ),
            )?,
        })
    }
}

/// The Luhn check over ASCII digits.
pub(super) fn luhn(digits: &[u8]) -> bool {
    let mut sum = 0u32;
    for (i, d) in digits.iter().rev().enumerate() {
        let mut v = u32::from(d.wrapping_sub(b'0'));
        if i % 2 == 1 {
            v *= 2;
            if v > 9 {
                v -= 9;
            }
        }
        sum += v;
    }
    sum.is_multiple_of(10)
}

/// Whether the issuer prefix fits the length (Visa, Mastercard, Amex, Discover, Diners, JCB,
/// UnionPay, Maestro, Mir).
fn iin_ok(d: &[u8]) -> bool {
    let prefix = |n: usize| -> u32 {
        d.iter()
            .take(n)
            .fold(0u32, |acc, c| acc * 10 + u32::from(c.wrapping_sub(b'0')))
    };
    let len = d.len();
    let (p1, p2, p3, p4) = (prefix(1), prefix(2), prefix(3), prefix(4));
    match p1 {
        4 => matches!(len, 13 | 16 | 19),
        5 => {
            ((51..=55).contains(&p2) && len == 16)
                || (p2 == 50 || (56..=59).contains(&p2)) && len >= 12
        }
        // Mastercard's 2-series; Mir (2200–2204), 16 to 19 digits.
        2 => (2221..=2720).contains(&p4) && len == 16 || (2200..=2204).contains(&p4) && len >= 16,
        3 => {
            ((p2 == 34 || p2 == 37) && len == 15)
                || ((300..=305).contains(&p3) || p2 == 36 || p2 == 38 || p2 == 39)
                    && (14..=19).contains(&len)
                || (3528..=3589).contains(&p4) && (16..=19).contains(&len)
        }
        6 => (16..=19).contains(&len) || (p2 >= 60 && len >= 12),
        _ => false,
    }
}

/// Whether separators, if any, split the number into card-like groups (4-4-4-4, 4-6-5, …);
/// dots only in groups of four (`4111.1111.1111.1111`), never a version or an address.
fn grouping_ok(s: &str) -> bool {
    let seps: Vec<char> = s.chars().filter(|c| !c.is_ascii_digit()).collect();
    let Some(&sep) = seps.first() else {
        return true;
    };
    if seps.iter().any(|&c| c != sep) {
        return false;
    }
    let lens: Vec<usize> = s.split(sep).map(str::len).collect();
    let groups = lens.len() - 1;
    let first_ok = lens.first() == Some(&4);
    let none_empty = lens.iter().all(|&l| l > 0);
    let dots_ok = sep != '.' || lens.iter().all(|&l| l == 4);
    first_ok && none_empty && dots_ok && (1..=4).contains(&groups)
}

/// Words for a payment card, read just before a number written in groups no card is printed
/// in ("by card: 45 391 488 0343 64 67"): the word says what the digits are.
const CARD_WORDS: &[&str] = &[
    "card",
    "karte",
    "carte",
    "tarjeta",
    "carta",
    "cartão",
    "cartao",
    "kaart",
    "karta",
    "kort",
    "kartu",
    "visa",
    "mastercard",
    "amex",
];

/// Whether a card word ends within the 24 bytes before `start` (ASCII case aside).
fn card_word_before(text: &str, start: usize) -> bool {
    let lead = super::context::before(text, start, 24).as_bytes();
    CARD_WORDS.iter().any(|w| {
        lead.windows(w.len())
            .any(|win| win.eq_ignore_ascii_case(w.as_bytes()))
    })
}

impl Card {
    fn full_numbers(&self, text: &str, out: &mut Vec<Finding>) {
        // A run of digit groups can hold more than one card ("4111 1111 1111 1111 5500 …") or
        // start with another number ("10.0.0.7 4111 …", "qty 2 4111 …"): after a card the
        // search resumes right after it, and where no card starts it resumes at the run's next
        // word. Each word of a run is a start at most once, so the work stays linear.
        let mut from = 0;
        while let Some(m) = self.full.find_at(text, from) {
            let start = m.start();
            from = m.as_str().find(' ').map_or(m.end(), |i| start + i + 1);
            if char_before(text, start).is_some_and(|c| {
                c.is_alphanumeric() || matches!(c, '-' | '.' | '_' | '/' | '#' | '+')
            }) {
                continue;
            }
            // Try the whole run, then shorter runs ending at a separator.
            let mut cand = m.as_str();
            loop {
                let end = start + cand.len();
                let after_ok = !char_at(text, end).is_some_and(|c| c.is_alphanumeric() || c == '_')
                    && !number_continues(text, end, &['.']);
                let mut buf = [0u8; 19];
                let mut n = 0usize;
                for b in cand.bytes().filter(u8::is_ascii_digit) {
                    if let Some(slot) = buf.get_mut(n) {
                        *slot = b;
                    }
                    n += 1;
                }
                if after_ok && (13..=19).contains(&n) {
                    let d = buf.get(..n).unwrap_or(&[]);
                    if (grouping_ok(cand) || card_word_before(text, start))
                        && iin_ok(d)
                        && luhn(d)
                        && !d.iter().all(|&c| c == d.first().copied().unwrap_or(0))
                    {
                        out.push(Finding::new(start..end, PsdKind::CardNumber, 0.95, "card"));
                        from = end;
                        break;
                    }
                }
                match cand.rfind([' ', '-', '.']).and_then(|i| cand.get(..i)) {
                    Some(t) if t.len() >= 13 => cand = t,
                    _ => break,
                }
            }
        }
    }
}

impl crate::classify::shared::Gate for Card {
    fn may_find(text: &str, _field: &Field<'_>) -> bool {
        super::context::digit_count(text) >= 4
    }
}

impl Detector for Card {
    fn name(&self) -> &'static str {
        "card"
    }

    fn detect(&self, text: &str, _field: &Field<'_>, out: &mut Vec<Finding>) {
        let digits = super::context::digit_count(text);
        if digits < 4 {
            return;
        }
        let before = out.len();
        if digits >= 12 {
            self.full_numbers(text, out);
        }
        for c in self.security.captures_iter(text) {
            if let Some(d) = c.get(1) {
                out.push(Finding::new(d.range(), PsdKind::CardNumber, 0.9, "card"));
            }
        }
        // Beside a card number or its security code, its expiry date (a medicine's "exp
        // 05/26" alone is no card's).
        if out.len() > before {
            for m in self.expiry.find_iter(text) {
                out.push(Finding::new(
                    m.range(),
                    PsdKind::CardNumber,
                    0.85,
                    EXPIRY_DETECTOR,
                ));
            }
        }
        for c in self.partial.captures_iter(text) {
            if let Some(d) = c.get(1) {
                out.push(Finding::new(d.range(), PsdKind::CardNumber, 0.8, "card"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str) -> Vec<&str> {
        let d = Card::new().unwrap();
        let mut out = Vec::new();
        d.detect(text, &Field::default(), &mut out);
        out.iter().map(|f| &text[f.span.clone()]).collect()
    }

    #[test]
    fn full_numbers_in_several_layouts() {
        assert_eq!(
            spans("card 4111 1111 1111 1111 exp 12/27"),
            ["4111 1111 1111 1111", "exp 12/27"]
        );
        assert_eq!(spans("4242-4242-4242-4242"), ["4242-4242-4242-4242"]);
        assert_eq!(spans("amex 378282246310005."), ["378282246310005"]);
        assert_eq!(spans("MC 5555555555554444"), ["5555555555554444"]);
        assert_eq!(spans("4111 1111 1111 1111 12"), ["4111 1111 1111 1111"]);
        assert_eq!(spans("Diners 3056 930902 5904"), ["3056 930902 5904"]);
        assert_eq!(
            spans("card 4111.1111.1111.1111 ok"),
            ["4111.1111.1111.1111"]
        );
        // Groups no card is printed in, told as a card by the word before them.
        assert_eq!(
            spans("pay by card: 41 111 111 1111 11 11"),
            ["41 111 111 1111 11 11"]
        );
        assert!(spans("ref 41 111 111 1111 11 11").is_empty());
    }

    #[test]
    fn a_number_before_a_card_does_not_hide_it() {
        assert_eq!(
            spans("10.0.0.7 4111 1111 1111 1111"),
            ["4111 1111 1111 1111"]
        );
        assert_eq!(spans("qty 2 4111 1111 1111 1111"), ["4111 1111 1111 1111"]);
    }

    #[test]
    fn cards_one_after_the_other_are_each_found() {
        assert_eq!(
            spans("4111 1111 1111 1111 5555 5555 5555 4444 weather"),
            ["4111 1111 1111 1111", "5555 5555 5555 4444"]
        );
        assert_eq!(
            spans("4242-4242-4242-4242 4111 1111 1111 1111"),
            ["4242-4242-4242-4242", "4111 1111 1111 1111"]
        );
    }

    #[test]
    fn partial_references() {
        assert_eq!(spans("charge the card ending 1006 please"), ["1006"]);
        assert_eq!(spans("Visa ending in 4242"), ["4242"]);
        assert_eq!(spans("Amex ending 1006"), ["1006"]);
        assert_eq!(spans("Mastercard **** **** **** 5454"), ["5454"]);
        assert_eq!(spans("carte se terminant par 1234"), ["1234"]);
        assert_eq!(spans("la Visa acabada en 6620."), ["6620"]);
        assert_eq!(spans("cartão com final 4455"), ["4455"]);
        assert_eq!(spans("kaart eindigend op 9012"), ["9012"]);
        assert_eq!(spans("karta kończąca się na 8812"), ["8812"]);
        assert_eq!(spans("kortet som slutar på 3301"), ["3301"]);
        assert_eq!(spans("exp 08/29 CVV 412."), ["412", "exp 08/29"]);
        // An expiry with no card beside it is a medicine's or a document's.
        assert!(spans("insulin pens exp 05/26, lot 4471").is_empty());
        assert_eq!(
            spans("Karte 5274 8830 1926 4453, gültig bis 11/28"),
            ["5274 8830 1926 4453", "gültig bis 11/28"]
        );
        assert_eq!(spans("Prüfnummer: 0771"), ["0771"]);
    }

    #[test]
    fn true_negatives() {
        for s in [
            "4111 1111 1111 1112", // Luhn fails
            "order 1234567890123",
            "ORD-2024-00017 at 2025-06-09T19:00:00",
            "ts 1717958400000",
            "sha 4f9c2a1b7d3e5f60718293a4b5c6d7e8f9012345",
            "0000 0000 0000 0000",
            "ending 1006 of the year",
            "v4111.1111.1111.1111",
            "release 4.1111.1111.1111.1",
            "4111.111.1111.1111",
        ] {
            assert!(spans(s).is_empty(), "{s}: {:?}", spans(s));
        }
    }
}
