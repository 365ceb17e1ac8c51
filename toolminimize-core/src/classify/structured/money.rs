//! Amounts of money tied to a person's finances: an amount (`$185k`, `€ 2.400`, `1 200 zł`,
//! `45 000 kr`) next to a word for income, debt, balance, savings or support ("salary",
//! "owe", "Schulden", "loyer", "sueldo", "stipendio", "lön", "wynagrodzenie"), or in a field
//! named for one (`salary`, `annualIncome`, `balance`). Prices, fares and totals of a purchase
//! are not personal finances and are left alone.

use crate::classify::pattern::LazyRegex as Regex;

use super::context::{Keywords, LastKey, after, before, by_key, char_at, char_before, regex};
use crate::classify::{Detector, Field};
use crate::error::Error;
use crate::item::{Finding, PsdKind};

/// The words for net or gross pay that open [`Money::net_for_period`].
const NET_WORDS: &[&str] = &[
    "net",
    "nets",
    "neto",
    "netos",
    "neta",
    "netas",
    "netto",
    "netta",
    "netti",
    "gross",
    "brut",
    "bruts",
    "bruto",
    "brutos",
    "bruta",
    "brutas",
    "brutto",
    "brutta",
    "brutti",
    "lordi",
    "líquido",
    "líquidos",
];

/// Words for a person's income, debts, balances and support (EN/DE/FR/ES/IT/PT/NL/SV/DA/NO/
/// PL/CS/AR/HE/RU/UK/TR/HI, and FI/HU/RO/EL/JA/ZH/KO/VI/ID/TH/FA).
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
    // Arabic, Hebrew, Russian, Ukrainian, Turkish and Hindi, with the possessive and plural
    // forms people write (written for this project).
    "راتب",
    "راتبي",
    "راتبه",
    "راتبها",
    "دين",
    "ديون",
    "قرض",
    "رصيد",
    "رصيدي",
    "دخل",
    "دخلي",
    "إيجار",
    "معاش",
    "משכורת",
    "המשכורת",
    "משכורתי",
    "חוב",
    "חובות",
    "הלוואה",
    "משכנתא",
    "יתרה",
    "הכנסה",
    "зарплата",
    "зарплату",
    "зарплаты",
    "зарплати",
    "долг",
    "долга",
    "долгу",
    "кредит",
    "ипотека",
    "ипотеку",
    "борг",
    "борги",
    "іпотека",
    "доход",
    "дохід",
    "пенсия",
    "пенсія",
    "maaş",
    "maaşım",
    "borç",
    "borcum",
    "gelirim",
    "वेतन",
    "तनख्वाह",
    "सैलरी",
    "कर्ज",
    "क़र्ज़",
    // Earning verbs and the income, debt and rent words of the other languages (written for
    // this project): German, Spanish, Dutch, Polish, Czech, Nordic, Finnish, Hungarian,
    // Romanian, Greek, Japanese, Chinese, Korean, Vietnamese, Indonesian, Thai, Persian.
    "verdiene",
    "verdient",
    "verdienst",
    "gano",
    "cobro",
    "verdien",
    "zarabiam",
    "zarabia",
    "zarobki",
    "vydělávám",
    "vydělává",
    "výplata",
    "tjänar",
    "tjener",
    "palkka",
    "palkkani",
    "tulot",
    "velka",
    "velkaa",
    "vuokra",
    "fizetés",
    "fizetésem",
    "adósság",
    "adósságom",
    "albérlet",
    "salariu",
    "salariul",
    "salariului",
    "datorii",
    "datoria",
    "chirie",
    "chiria",
    "μισθός",
    "μισθό",
    "μισθού",
    "χρέος",
    "χρέη",
    "ενοίκιο",
    "給料",
    "月給",
    "年収",
    "手取り",
    "借金",
    "家賃",
    "工资",
    "工資",
    "月薪",
    "年薪",
    "欠款",
    "房租",
    "贷款",
    "월급",
    "연봉",
    "대출",
    "월세",
    "lương",
    "thu nhập",
    "gaji",
    "utang",
    "hutang",
    "penghasilan",
    "เงินเดือน",
    "หนี้",
    "รายได้",
    "حقوق",
    "بدهی",
    "درآمد",
    "اجاره",
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
    /// An amount written without a currency: grouped thousands (`62.000`, `3,900`) or a
    /// number with a period (`2700/Monat`, `1800 a month`).
    bare: Regex,
    /// Net or gross pay for a period, right after an amount ("2 100 € net/mois", "3.200 €
    /// netto im Monat", "1.400 € netos al mes", "$85k gross a year"): income, whatever the
    /// words before it. An invoice's "netto" without a period is not.
    net_for_period: Regex,
    /// The words [`Self::net_for_period`] opens with, as whole words: without one, it cannot
    /// match.
    net_words: Keywords,
    words: Keywords,
}

impl Money {
    pub(super) fn new() -> Result<Self, Error> {
        Ok(Money {
            amount: regex(
                "money",
                r"(?:[$€£¥₹₪₺₽₴]|R\$|(?:USD|EUR|GBP|CHF|SEK|DKK|NOK|PLN|CZK|AED|SAR|ILS|TRY|RUB|UAH|INR)\s?|Rs\.?\s?)\s?\d(?:[\d,.'’\u{a0} ]*\d)?(?:\s?(?:[kKmM]|Mio\.?|mil|bn)(?-u:\b))?|\d(?:[\d,.'’\u{a0} ]*\d)?\s?(?:[kK](?-u:\b))?\s?(?:€|£|\$|₪|₺|₽|₴|EUR|USD|GBP|CHF|euro(?:s|a)?|dollars?|zł|złotych|kr|kronor|kroner|Kč|Kc|PLN|SEK|DKK|NOK|CZK|AED|SAR|ILS|TRY|RUB|UAH|INR|TL|درهم|دراهم|ريال|دينار|جنيه|ليرة|شيكل|ש״ח|ש\x22ח|שקלים|שקל|рублей|рубля|руб|гривень|гривні|грн|रुपये|रुपए|ευρώ|Ft|forint|HUF|lei|RON|THB|บาท|VND|triệu đồng|đồng|triệu|juta|ribu|miliar|میلیون تومان|تومان|میلیون)(?-u:\b)?|\d(?:[\d,.'’\u{a0} ]*\d)?\s?(?:万|萬|만|千|천|억|亿)?\s?(?:円|元|원|块|塊)|Rp\.?\s?\d(?:[\d,.'’\u{a0} ]*\d)?(?:\s?(?:juta|ribu|miliar))?",
            )?,
            bare: regex(
                "money",
                r"\d{1,3}(?:[.,'’\u{a0} ]\d{3})+(?:[.,]\d{2})?(?:\s?(?i:/\s?|per |pro |par |a |an |al |i |w |za )(?i:month|monat|mois|mes|mese|maand|måned|månad|miesiąc|měsíc|year|jahr|an|año|anno|jaar|år|rok)\b)?|\d{3,6}(?:\s?/\s?|\s(?i:per|pro|par|a|al|i|w|za)\s)(?i:month|monat|mois|mes|mese|maand|måned|månad|miesiąc|měsíc|year|jahr|an|año|anno|jaar|år|rok)\b",
            )?,
            net_for_period: regex(
                "money",
                r"^\s*(?i:net(?:t[oia]|tos|os|o|as|a|s)?|gross|brut(?:t[oia]|tos|os|o|as|a|s)?|líquidos?|lordi)\s*(?:/|(?i:per|pro|par|im|al|a|ao|por|om|i|au|w|za|een)\s)?\s*(?i:month|mo|year|yr|annum|mois|an|monat|jahr|mes|año|mese|anno|mês|ano|maand|jaar|måned|månad|månaden|måneden|år|miesiąc|rok|měsíc)(?-u:\b)",
            )?,
            net_words: Keywords::new("money", NET_WORDS)?,
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
        // No word of personal finances anywhere, nor pay for a period: no amount can be one.
        let any_word = in_field || self.words.any_word_in(text);
        if !any_word && !self.net_words.any_word_in(text) {
            return;
        }
        for m in self.amount.find_iter(text) {
            let start = m.start();
            let s = m.as_str().trim_end();
            let end = start + s.len();
            // Glued to a word, it is part of it; Chinese and Japanese glue amounts to the
            // words around them ("每月8000元").
            if char_before(text, start)
                .is_some_and(|c| c.is_alphanumeric() && !crate::text::script::is_unspaced(c))
                || char_at(text, end).is_some_and(|c| c.is_ascii_digit())
            {
                continue;
            }
            // The finance word close before, or right after ("$612.40 balance"); outside
            // ASCII a character takes two or three bytes, so the reach in bytes is longer.
            let reach = if text.is_ascii() { 40 } else { 72 };
            let rest = text.get(end..).unwrap_or("");
            let mut cut = rest.len().min(24);
            while !rest.is_char_boundary(cut) {
                cut -= 1;
            }
            let after = rest.get(..cut).unwrap_or("");
            // The pay's period goes with the amount ("2 100 € net/mois"): left alone it is
            // debris.
            let period = self.net_for_period.find(rest).map(|m| m.end());
            let near = any_word
                && (self.words.any_word_in(before(text, start, reach))
                    || self.words.any_word_in(after))
                || period.is_some();
            if in_field || near {
                out.push(Finding::new(
                    start..end + period.unwrap_or(0),
                    PsdKind::MoneyAmount,
                    0.75,
                    "money",
                ));
            }
        }
        self.bare_amounts(text, out);
    }
}

/// Most bytes between a finance word and an amount without a currency.
const BARE_GAP: usize = 24;

impl Money {
    /// Amounts without a currency right after a finance word, with at most a connector
    /// between them: "Eigenkapital 62.000", "net income: 3,900/month", "my salary is
    /// 64,000 a year". A bare number anywhere else (a count, an id, a year) is not money.
    fn bare_amounts(&self, text: &str, out: &mut Vec<Finding>) {
        let found = out.len();
        for m in self.bare.find_iter(text) {
            let (start, end) = (m.start(), m.end());
            if char_before(text, start)
                .is_some_and(|c| c.is_alphanumeric() || "$€£¥₹.,".contains(c))
                || char_at(text, end).is_some_and(|c| c.is_alphanumeric() || c == '%')
                || out
                    .get(..found)
                    .is_some_and(|f| f.iter().any(|f| f.span.start < end && start < f.span.end))
            {
                continue;
            }
            let gap = before(text, start, BARE_GAP);
            let Some(word_end) = before_connectors(gap) else {
                continue;
            };
            if !self.words.word_ends_at(gap, word_end) {
                continue;
            }
            // A currency right after the number was the currency pattern's to find; a word
            // after it names what is counted ("a balance of 1,250 points", "loan 30,000 km").
            let tail = after(text, end, 4).trim_start();
            let next = after(text, end, 12).trim_start();
            let counted = m.as_str().ends_with(|c: char| c.is_ascii_digit())
                && tail.starts_with(char::is_alphabetic)
                && ![
                    "netto", "brutto", "net", "gross", "monthly", "yearly", "annually", "p.a",
                ]
                .iter()
                .any(|q| {
                    next.get(..q.len())
                        .is_some_and(|h| h.eq_ignore_ascii_case(q))
                });
            if tail.starts_with(['€', '£', '$']) || counted {
                continue;
            }
            out.push(Finding::new(start..end, PsdKind::MoneyAmount, 0.7, "money"));
        }
    }
}

/// Where the last word of `gap` that is not a connector ends — spaces, `:`, `=`, `~` and
/// short verbs, prepositions or qualifiers ("is", "of", "von", "beträgt", "netto") are
/// connectors, at most three of them.
fn before_connectors(gap: &str) -> Option<usize> {
    const CONNECT: &[&str] = &[
        "is",
        "was",
        "of",
        "about",
        "around",
        "approx",
        "approx.",
        "ca",
        "ca.",
        "von",
        "ist",
        "beträgt",
        "rund",
        "etwa",
        "de",
        "est",
        "es",
        "di",
        "è",
        "van",
        "är",
        "er",
        "på",
        "wynosi",
        "je",
        "é",
        "netto",
        "brutto",
        "net",
        "gross",
        "now",
        "currently",
    ];
    let is_sep = |c: char| c.is_whitespace() || matches!(c, ':' | '=' | '~' | '≈' | '(');
    let mut end = gap.len();
    for _ in 0..=3 {
        let head = gap.get(..end)?.trim_end_matches(is_sep);
        let start = head.rfind(is_sep).map_or(0, |i| i + 1);
        let word = head.get(start..)?;
        if word.is_empty() {
            return None;
        }
        if !CONNECT.iter().any(|c| c.eq_ignore_ascii_case(word)) {
            return Some(head.len());
        }
        end = start;
    }
    None
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
    fn earnings_in_more_languages_and_scripts() {
        for (text, amount) in [
            ("ich verdiene 3.400 € brutto", "3.400 €"),
            ("palkkani on 3 200 euroa kuussa", "3 200 euroa"),
            ("a fizetésem 450 000 Ft", "450 000 Ft"),
            ("ο μισθός μου είναι 1.100 ευρώ", "1.100 ευρώ"),
            ("私の給料は月30万円です", "30万円"),
            ("我的工资是每月8000元", "8000元"),
            ("제 월급은 350만 원이에요", "350만 원"),
            ("lương của tôi là 15 triệu đồng", "15 triệu đồng"),
            ("gaji saya Rp 8 juta per bulan", "Rp 8 juta"),
            ("เงินเดือนของผม 25,000 บาท", "25,000 บาท"),
        ] {
            assert_eq!(spans(text), [amount], "{text}");
        }
        // A price is no one's earnings.
        assert!(spans("这件衣服8000元").is_empty());
        // Net or gross pay for a period, whatever the words before it.
        for (text, amount) in [
            ("je suis en CDI (2 100 € net/mois)", "2 100 € net/mois"),
            (
                "unbefristet, 3.200 € netto im Monat",
                "3.200 € netto im Monat",
            ),
            (
                "contrato indefinido, 1.400 € netos al mes",
                "1.400 € netos al mes",
            ),
            ("the offer is $85k gross a year", "$85k gross a year"),
        ] {
            assert_eq!(spans(text), [amount], "{text}");
        }
        // An invoice's net total names no period: no one's pay.
        assert!(spans("Rechnungsbetrag 1.200 € netto zzgl. MwSt.").is_empty());
    }

    #[test]
    fn amounts_of_personal_finances() {
        assert_eq!(spans("Salary expectation for 2031: $172k"), ["$172k"]);
        assert_eq!(spans("a payment plan for the $418.20 balance"), ["$418.20"]);
        assert_eq!(spans("Ich habe 12.400 € Schulden"), ["12.400 €"]);
        assert_eq!(spans("mon loyer est de 890 euros"), ["890 euros"]);
        assert_eq!(spans("wynagrodzenie 7 200 zł brutto"), ["7 200 zł"]);
        // Currencies and finance words of other scripts.
        assert_eq!(spans("راتبي 12,300 درهم شهريا"), ["12,300 درهم"]);
        assert_eq!(spans("המשכורת שלי 14,200 ₪ בחודש"), ["14,200 ₪"]);
        assert_eq!(spans("зарплата 48 000 рублей"), ["48 000 рублей"]);
        assert_eq!(spans("maaşım 42.000 TL"), ["42.000 TL"]);
        // An amount beside no finance word is a price.
        assert!(spans("تذكرة 350 درهم للشخص").is_empty());
        let f = Field {
            path: "/annualIncome",
            key: Some("annualIncome"),
            description: None,
            dictated: false,
        };
        let d = Money::new().unwrap();
        let mut out = Vec::new();
        d.detect("USD 64,000", &f, &mut out);
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn amounts_without_a_currency_right_after_a_finance_word() {
        assert_eq!(
            spans("Nettoeinkommen 2.700/Monat, Eigenkapital 40.000."),
            ["2.700/Monat", "40.000"]
        );
        assert_eq!(spans("my salary is 64,000 a year"), ["64,000 a year"]);
        assert_eq!(spans("pension: 1800 per month"), ["1800 per month"]);
        // Far from the word, or a bare count, or with a word between: not money.
        assert!(spans("income questions for 2,000 respondents").is_empty());
        assert!(spans("the balance beam scored 14,500 points").is_empty());
        assert!(spans("salary review in 2026").is_empty());
        assert!(spans("your loyalty balance is 1,250 points").is_empty());
        assert_eq!(
            spans("My salary is 64,000 a year so I qualify."),
            ["64,000 a year"]
        );
        assert_eq!(spans("Einkommen 3.400 brutto, Miete offen"), ["3.400"]);
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
