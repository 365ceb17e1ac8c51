use super::*;

fn need(p: &str) -> Need {
    Need::of(p)
}

#[test]
fn counts_what_every_match_holds() {
    let n = need(r"(?-u:\b)\d{3}-\d{2}-\d{4}(?-u:\b)");
    assert_eq!((n.min_len, n.numeric, n.upper), (11, 9, 0));
    assert_eq!(n.ascii, bit(b'-'));
    // Alternatives: the smaller count, the common characters.
    let n = need(r"(?:\d{4}|[A-Z]{2}\d)@x");
    assert_eq!((n.numeric, n.upper), (1, 0));
    assert_eq!(n.ascii, bit(b'@') | bit(b'x'));
    // Case-insensitive letters require the letter in either case; optional parts nothing.
    let n = need(r"(?i:zip)\s*(?:code)?");
    assert_eq!(n.ascii, bit(b'z') | bit(b'i') | bit(b'p'));
    // `(?i)s` and `(?i)k` also match `ſ` and the Kelvin sign: no ASCII letter required.
    assert_eq!(need(r"(?i:sk)").ascii, 0);
    // Non-ASCII and upper-case characters.
    let n = need(r"[区町村]\p{Lu}丁目");
    assert_eq!((n.non_ascii, n.upper), (3, 1));
    // Whitespace.
    assert_eq!(need(r"\d+\s+\w+\s").space, 2);
    assert!(!need(r"\d\s+\w+\s").admits(&TextFacts::of("quick 12345")));
    assert!(need(r"\d\s+\w+\s").admits(&TextFacts::of("1\u{a0}b\u{2003}")));
    // Unicode digits are numeric.
    assert_eq!(need(r"\d\d").numeric, 2);
    // Big classes require nothing of their characters.
    assert_eq!(need(r"\p{L}+").upper, 0);
    assert_eq!(need(r"[^a]").ascii, 0);
}

#[test]
fn a_text_short_of_the_need_is_rejected() {
    let ssn = need(r"\d{3}-\d{2}-\d{4}");
    assert!(!ssn.admits(&TextFacts::of("quick 12345")));
    assert!(ssn.admits(&TextFacts::of("no 123-45-6789")));
    assert!(ssn.admits(&TextFacts::of("١٢٣-٤٥-٦٧٨٩")));
    let word = need(r"(?i:street)");
    assert!(word.admits(&TextFacts::of("MAIN STREET")));
    assert!(!word.admits(&TextFacts::of("main road")));
    let ja = need(r"丁目");
    assert!(!ja.admits(&TextFacts::of("ascii only text")));
}

#[test]
fn the_scanned_text_facts_are_used_and_restored() {
    let digits = need(r"\d{6}");
    let text = "order 123456 shipped";
    with_text(text, || {
        assert!(digits.admits_haystack(text));
        with_text("abc", || assert!(!digits.admits_haystack("abc")));
        assert!(CURRENT.get().is_some_and(|(k, _)| k.1 == text.len()));
    });
    assert!(CURRENT.get().is_none());
    assert!(!digits.admits_haystack("quick 12345"));
}

/// For every pattern and text: a pattern that matches the text was admitted by its need.
#[test]
fn needs_never_reject_a_text_that_matches() {
    let patterns = [
        r"(?-u:\b)\d{1,6}[A-Za-z]?\s+(?:\p{Lu}[\p{L}'’.\-]*\s+){1,4}?(?i:street|st|ave)(?-u:\b)",
        r"(?i:zip(?:\s?code)?|post(?:al)?\s?code)\s*[:#]?\s*(\d{5})",
        r"[\p{Han}\p{Katakana}]{0,6}[0-9０-９]{1,3}丁目",
        r"(?:19|20)\d{2}-\d{2}-\d{2}",
        r"(?i:born|dob)\W+\d",
        r"[A-Z]{2}\d{2}[A-Z0-9]{4,30}",
        r"\d+(?:[.,]\d+)?\s?(?:€|\$|EUR|USD)",
        r"(?-u:\b)A-?\d{3}-\d{3}-\d{3}(?-u:\b)",
        r"^\s*\d{5}\s*$",
        r"(?i)ſtraße|\x{212A}ai",
    ];
    let texts = [
        "",
        "quick 123",
        "12 Main Street",
        "12 main st",
        "ZIP: 90210",
        "postal code 12345",
        "本町3丁目5番",
        "本町３丁目",
        "born 1990-04-12",
        "DOB: 4/12",
        "DE89370400440532013000",
        "paid 12.50 €",
        "A-123-456-789",
        "  54321 ",
        "ſtraße",
        "\u{212A}ai",
        "STRASSE",
        "١٢ شارع",
    ];
    for p in patterns {
        let re = regex::Regex::new(p).unwrap();
        let n = need(p);
        for t in texts {
            if re.is_match(t) {
                assert!(n.admits(&TextFacts::of(t)), "{p} on {t:?}");
            }
        }
    }
}
