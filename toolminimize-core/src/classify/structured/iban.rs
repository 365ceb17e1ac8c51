//! IBANs of any country (ISO 13616 mod-97 and, where the country is known, its BBAN layout),
//! in electronic (`DE89370400440532013000`) or print (`DE89 3704 0044 0532 0130 00`) form; and
//! bank account, routing (ABA checksum) and sort-code numbers where the text or field says so.

use crate::classify::pattern::LazyRegex as Regex;
use iban::{BaseIban, Iban as ValidIban};

use super::context::{Keywords, char_at, char_before, regex};
use crate::classify::{Detector, Field};
use crate::error::Error;
use crate::item::{Finding, PsdKind};

/// Words (EN/DE/FR/ES/IT/NL) announcing a bank account number.
const ACCOUNT_CONTEXT: &[&str] = &[
    "account number",
    "account no",
    "account_n",
    "accountn",
    "acct",
    "a/c",
    "bank account",
    "checking account",
    "savings account",
    "account #",
    "kontonummer",
    "konto-nr",
    "kontonr",
    "konto nr",
    "numéro de compte",
    "n° de compte",
    "compte bancaire",
    "número de cuenta",
    "cuenta bancaria",
    "numero di conto",
    "conto corrente",
    "rekeningnummer",
    "bankrekening",
    "clabe",
    "bsb",
];
/// Words announcing a US routing number or a UK sort code.
const ROUTING_CONTEXT: &[&str] = &[
    "routing",
    "aba",
    "rtn",
    "transit number",
    "sort code",
    "sort-code",
    "bankleitzahl",
    "blz",
];

/// Finds IBANs and, with context, other bank account numbers.
#[derive(Debug)]
pub(super) struct Iban {
    iban: Regex,
    account: Regex,
    account_context: Keywords,
    routing_context: Keywords,
}

impl Iban {
    pub(super) fn new() -> Result<Self, Error> {
        Ok(Iban {
            iban: regex("iban", r"[A-Za-z]{2}\d{2}(?: ?[A-Za-z0-9]){11,32}")?,
            account: regex("iban", r"\d[\d\-]{4,20}\d")?,
            account_context: Keywords::new("iban", ACCOUNT_CONTEXT)?,
            routing_context: Keywords::new("iban", ROUTING_CONTEXT)?,
        })
    }
}

/// The confidence for an IBAN candidate, if it validates.
fn check(cand: &str) -> Option<f32> {
    let upper_ok = cand
        .get(..2)
        .is_some_and(|cc| cc.bytes().all(|b| b.is_ascii_uppercase()));
    // `RF` is no country: an ISO 11649 creditor reference ("RF18 5390 0754 7034") checks out
    // by the same mod 97, and names an invoice, not an account.
    if !upper_ok || cand.starts_with("RF") {
        return None;
    }
    if cand.parse::<ValidIban>().is_ok() {
        return Some(0.98);
    }
    // A spaced form with irregular grouping: validate the compact form.
    if cand.contains(' ') {
        let mut buf = [0u8; 34];
        let mut n = 0usize;
        for b in cand.bytes().filter(|b| *b != b' ') {
            *buf.get_mut(n)? = b;
            n += 1;
        }
        let compact = std::str::from_utf8(buf.get(..n)?).ok()?;
        if compact.parse::<ValidIban>().is_ok() {
            return Some(0.97);
        }
        return compact.parse::<BaseIban>().is_ok().then_some(0.9);
    }
    cand.parse::<BaseIban>().is_ok().then_some(0.9)
}

/// ABA routing number checksum.
fn aba_ok(d: &[u8]) -> bool {
    if d.len() != 9 {
        return false;
    }
    let v = |i: usize| u32::from(d.get(i).copied().unwrap_or(b'0').wrapping_sub(b'0'));
    (3 * (v(0) + v(3) + v(6)) + 7 * (v(1) + v(4) + v(7)) + v(2) + v(5) + v(8)) % 10 == 0
}

impl Iban {
    fn ibans(&self, text: &str, out: &mut Vec<Finding>) {
        // The pattern runs on over the words after an IBAN ("DE89 … 00 and DE89 …"): after an
        // IBAN the search resumes right after it, and where none starts it resumes at the
        // run's next word, each word a start at most once.
        let mut from = 0;
        while let Some(m) = self.iban.find_at(text, from) {
            let start = m.start();
            from = m.as_str().find(' ').map_or(m.end(), |i| start + i + 1);
            if char_before(text, start).is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let mut cand = m.as_str();
            loop {
                let end = start + cand.len();
                if !char_at(text, end).is_some_and(|c| c.is_alphanumeric() || c == '_')
                    && let Some(conf) = check(cand)
                {
                    out.push(Finding::new(start..end, PsdKind::Iban, conf, "iban"));
                    from = end;
                    break;
                }
                match cand.rfind(' ').and_then(|i| cand.get(..i)) {
                    Some(t) if t.len() >= 15 => cand = t,
                    _ => break,
                }
            }
        }
    }

    fn accounts(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) {
        // What the field names, each read once, when a candidate needs it.
        let (account_cell, routing_cell) = (std::cell::OnceCell::new(), std::cell::OnceCell::new());
        let account_field = || *account_cell.get_or_init(|| self.account_context.in_field(field));
        let routing_field = || *routing_cell.get_or_init(|| self.routing_context.in_field(field));
        for m in self.account.find_iter(text) {
            let (start, end) = (m.start(), m.end());
            if char_before(text, start)
                .is_some_and(|c| c.is_alphanumeric() || matches!(c, '-' | '.' | '/' | '_'))
                || char_at(text, end).is_some_and(|c| c.is_alphanumeric() || matches!(c, '-' | '_'))
            {
                continue;
            }
            let s = m.as_str();
            let mut buf = [0u8; 22];
            let mut n = 0usize;
            for b in s.bytes().filter(u8::is_ascii_digit) {
                if let Some(slot) = buf.get_mut(n) {
                    *slot = b;
                }
                n += 1;
            }
            let d = buf.get(..n.min(22)).unwrap_or(&[]);
            let sort_code = s.len() == 8 && s.bytes().filter(|b| *b == b'-').count() == 2;
            if (routing_field() || self.routing_context.before(text, start, 24))
                && (aba_ok(d) || sort_code)
            {
                out.push(Finding::new(
                    start..end,
                    PsdKind::BankAccount,
                    0.85,
                    "bank_account",
                ));
            } else if (6..=20).contains(&n)
                && (account_field() || self.account_context.before(text, start, 28))
            {
                out.push(Finding::new(
                    start..end,
                    PsdKind::BankAccount,
                    0.75,
                    "bank_account",
                ));
            }
        }
    }
}

impl crate::classify::shared::Gate for Iban {
    fn may_find(text: &str, _field: &Field<'_>) -> bool {
        super::context::digit_count(text) >= 6
    }
}

impl Detector for Iban {
    fn name(&self) -> &'static str {
        "iban"
    }

    fn detect(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) {
        let digits = super::context::digit_count(text);
        if digits < 6 {
            return;
        }
        if digits >= 12 && text.len() >= 15 {
            self.ibans(text, out);
        }
        self.accounts(text, field, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans<'a>(text: &'a str, field: &Field<'_>) -> Vec<(&'a str, PsdKind)> {
        let d = Iban::new().unwrap();
        let mut out = Vec::new();
        d.detect(text, field, &mut out);
        out.iter()
            .map(|f| (&text[f.span.clone()], f.kind))
            .collect()
    }

    #[test]
    fn ibans_with_and_without_spaces() {
        let none = Field::default();
        assert_eq!(
            spans("IBAN DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX", &none),
            [("DE89 3704 0044 0532 0130 00", PsdKind::Iban)]
        );
        assert_eq!(
            spans("pay GB82WEST12345698765432.", &none),
            [("GB82WEST12345698765432", PsdKind::Iban)]
        );
        assert_eq!(
            spans("FR1420041010050500013M02606", &none),
            [("FR1420041010050500013M02606", PsdKind::Iban)]
        );
        assert_eq!(
            spans("ES91 2100 0418 4502 0005 1332", &none),
            [("ES91 2100 0418 4502 0005 1332", PsdKind::Iban)]
        );
        assert_eq!(
            spans("IT60X0542811101000000123456", &none),
            [("IT60X0542811101000000123456", PsdKind::Iban)]
        );
        assert_eq!(
            spans("NL91ABNA0417164300", &none),
            [("NL91ABNA0417164300", PsdKind::Iban)]
        );
    }

    #[test]
    fn ibans_one_after_the_other_are_each_found() {
        let none = Field::default();
        assert_eq!(
            spans(
                "DE89 3704 0044 0532 0130 00 and DE89 3704 0044 0532 0130 00",
                &none
            ),
            [
                ("DE89 3704 0044 0532 0130 00", PsdKind::Iban),
                ("DE89 3704 0044 0532 0130 00", PsdKind::Iban)
            ]
        );
        assert_eq!(
            spans("to ab12 GB82 WEST 1234 5698 7654 32", &none),
            [("GB82 WEST 1234 5698 7654 32", PsdKind::Iban)]
        );
    }

    #[test]
    fn accounts_need_context() {
        let none = Field::default();
        assert_eq!(
            spans("routing 021000021 account number 1234567890", &none).len(),
            2
        );
        assert_eq!(
            spans("sort code 20-00-00", &none),
            [("20-00-00", PsdKind::BankAccount)]
        );
        assert!(spans("order 1234567890 shipped", &none).is_empty());
        let f = Field {
            path: "/acct",
            key: Some("account_number"),
            description: None,
            dictated: false,
        };
        assert_eq!(
            spans("000123456789", &f),
            [("000123456789", PsdKind::BankAccount)]
        );
    }

    #[test]
    fn true_negatives() {
        let none = Field::default();
        for s in [
            "DE89 3704 0044 0532 0130 01",
            "ORD-2024-00017",
            "AB12CDEFGHIJKLMNOP",
            "2025-06-09T19:00:00",
            "RF18 5390 0754 7034",
            "RF18539007547034",
        ] {
            assert!(spans(s, &none).is_empty(), "{s}");
        }
    }
}
