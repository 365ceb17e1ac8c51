//! Amounts of money tied to a person's finances: an amount (`$185k`, `€ 2.400`, `1 200 zł`,
//! `45 000 kr`) next to a word for income, debt, balance, savings or support ("salary",
//! "owe", "Schulden", "loyer", "sueldo", "stipendio", "lön", "wynagrodzenie"), or in a field
//! named for one (`salary`, `annualIncome`, `balance`). Prices, fares and totals of a purchase
//! are not personal finances and are left alone.

use crate::classify::pattern::LazyRegex as Regex;

use super::context::{Keywords, LastKey, before, by_key, char_at, char_before, regex};
use crate::classify::{Detector, Field};
use crate::error::Error;
use crate::item::{Finding, PsdKind};

/// Words for a person's income, debts, balances and support (EN/DE/FR/ES/IT/PT/NL/SV/DA/NO/
/// PL/CS).
const FINANCE_WORDS: &[&str] = &[
    "salary",
    "salaries",
    "base pay",
    "current base",
    "my base",
    "total comp",
    "take-home",
    "take home",
    "income",
    "wage",
    "wages",
    "earn",
    "earns",
    "earned",
    "earning",
    "earnings",
    "balance",
    "debt",
    "debts",
    "owe",
    "owes",
    "owed",
    "owing",
    "loan",
    "mortgage",
    "savings",
    "net worth",
    "alimony",
    "child support",
    "bonus",
    "overdraft",
    "arrears",
    "pension",
    "paycheck",
    "gehalt",
    "lohn",
    "einkommen",
    "nettoeinkommen",
    "bruttoeinkommen",
    "jahreseinkommen",
    "monatseinkommen",
    "haushaltseinkommen",
    "eigenkapital",
    "schulden",
    "miete",
    "rente",
    "kredit",
    "ersparnisse",
    "unterhalt",
    "salaire",
    "revenu",
    "revenus",
    "dette",
    "dettes",
    "loyer",
    "retraite",
    "épargne",
    "pension alimentaire",
    "sueldo",
    "salario",
    "ingresos",
    "deuda",
    "deudas",
    "alquiler",
    "pensión",
    "ahorros",
    "stipendio",
    "reddito",
    "debito",
    "debiti",
    "affitto",
    "pensione",
    "risparmi",
    "salário",
    "renda",
    "dívida",
    "aluguel",
    "salaris",
    "inkomen",
    "schuld",
    "huur",
    "pensioen",
    "lön",
    "inkomst",
    "skuld",
    "hyra",
    "løn",
    "gæld",
    "husleje",
    "lønn",
    "gjeld",
    "husleie",
    "pensja",
    "wynagrodzenie",
    "dochód",
    "dług",
    "czynsz",
    "plat",
    "mzda",
    "příjem",
    "dluh",
    "nájem",
];

/// Keys (lower case, letters only) of fields holding such an amount, by suffix.
const FIELD_SUFFIXES: &[&str] = &[
    "salary",
    "income",
    "balance",
    "debt",
    "networth",
    "wage",
    "wages",
    "savings",
    "gehalt",
    "einkommen",
    "salaire",
    "revenu",
    "sueldo",
    "salario",
    "ingresos",
    "stipendio",
    "reddito",
];

/// Finds amounts of personal finances.
#[derive(Debug)]
pub(super) struct Money {
    amount: Regex,
    words: Keywords,
}

impl Money {
    pub(super) fn new() -> Result<Self, Error> {
        Ok(Money {
            amount: regex(
                "money",
                r"(?:[$€£¥₹]|R\$|(?:USD|EUR|GBP|CHF|SEK|DKK|NOK|PLN|CZK)\s?)\s?\d(?:[\d,.'’\u{a0} ]*\d)?(?:\s?(?:[kKmM]|Mio\.?|mil|bn)(?-u:\b))?|\d(?:[\d,.'’\u{a0} ]*\d)?\s?(?:[kK](?-u:\b))?\s?(?:€|£|\$|EUR|USD|GBP|CHF|euros?|dollars?|zł|złotych|kr|kronor|kroner|Kč|Kc|PLN|SEK|DKK|NOK|CZK)(?-u:\b)?",
            )?,
            words: Keywords::new("money", FINANCE_WORDS)?,
        })
    }
}

fn field_says(field: &Field<'_>) -> bool {
    thread_local! {
        static LAST: LastKey<bool> = const { LastKey::new((String::new(), None)) };
    }
    field.key.is_some_and(|k| by_key(&LAST, k, key_says))
}

/// Whether a field's key names an amount of money.
fn key_says(key: &str) -> bool {
    crate::text::inline::with_lower_alphanumerics(key, false, |k| {
        FIELD_SUFFIXES.iter().any(|s| k.ends_with(s))
    })
}

impl crate::classify::shared::Gate for Money {
    fn may_find(text: &str, _field: &Field<'_>) -> bool {
        super::context::has_digit(text)
    }
}

impl Detector for Money {
    fn name(&self) -> &'static str {
        "money"
    }

    fn detect(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) {
        if !text.bytes().any(|b| b.is_ascii_digit()) {
            return;
        }
        let in_field = field_says(field);
        // No word of personal finances anywhere: no amount can be one.
        if !in_field && !self.words.any_word_in(text) {
            return;
        }
        for m in self.amount.find_iter(text) {
            let start = m.start();
            let s = m.as_str().trim_end();
            let end = start + s.len();
            if char_before(text, start).is_some_and(char::is_alphanumeric)
                || char_at(text, end).is_some_and(|c| c.is_ascii_digit())
            {
                continue;
            }
            // The finance word close before, or right after ("$612.40 balance").
            let rest = text.get(end..).unwrap_or("");
            let mut cut = rest.len().min(24);
            while !rest.is_char_boundary(cut) {
                cut -= 1;
            }
            let after = rest.get(..cut).unwrap_or("");
            let near =
                self.words.any_word_in(before(text, start, 40)) || self.words.any_word_in(after);
            if in_field || near {
                out.push(Finding::new(
                    start..end,
                    PsdKind::MoneyAmount,
                    0.75,
                    "money",
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str) -> Vec<&str> {
        let d = Money::new().unwrap();
        let mut out = Vec::new();
        d.detect(text, &Field::default(), &mut out);
        out.iter().map(|f| &text[f.span.clone()]).collect()
    }

    #[test]
    fn amounts_of_personal_finances() {
        assert_eq!(spans("Salary expectation for 2031: $172k"), ["$172k"]);
        assert_eq!(spans("a payment plan for the $418.20 balance"), ["$418.20"]);
        assert_eq!(spans("Ich habe 12.400 € Schulden"), ["12.400 €"]);
        assert_eq!(spans("mon loyer est de 890 euros"), ["890 euros"]);
        assert_eq!(spans("wynagrodzenie 7 200 zł brutto"), ["7 200 zł"]);
        let f = Field {
            path: "/annualIncome",
            key: Some("annualIncome"),
            description: None,
        };
        let d = Money::new().unwrap();
        let mut out = Vec::new();
        d.detect("USD 64,000", &f, &mut out);
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn prices_and_fares_are_not_finances() {
        for s in [
            "Sony headphones under $300",
            "rent a car for $45/day",
            "total $41.99 or 40,00 €",
            "hotel in Lyon under 120 EUR",
            "pay with card: $642.18",
        ] {
            assert!(spans(s).is_empty(), "{s}: {:?}", spans(s));
        }
    }
}
