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
fn word_alternations_need_one_of_their_letter_pairs() {
    let words = need(r"(?i)(?-u:\b)(?:password|pwd|token|api[_\-\s]?key)(?-u:\b)");
    assert!(!words.pairs.is_empty());
    assert!(!words.admits(&TextFacts::of("quick 12345")));
    assert!(words.admits(&TextFacts::of("the API key")));
    assert!(words.admits(&TextFacts::of("PWD=1")));
    // A pair across two parts of a concatenation.
    assert!(!need(r"(?i:a)(?-u:\B)(?i:b)\d").admits(&TextFacts::of("a-b 1")));
    assert!(need(r"(?i:a)(?-u:\B)(?i:b)\d").admits(&TextFacts::of("xAb1")));
    assert!(need(r"(?i:a)(?i:b)\d").admits(&TextFacts::of("AB1")));
    // An alternative without a pair of letters, or with an optional letter between two,
    // requires none.
    assert!(need(r"(?:token|\d{3})").pairs.is_empty());
    assert!(need(r"y/?o").pairs.is_empty());
    // Letters that a non-ASCII character separates are no pair, in the text or the pattern;
    // `(?i)k` and `(?i)s` also match the Kelvin sign and the long s.
    assert!(need(r"née").admits(&TextFacts::of("née")));
    assert!(!TextFacts::of("aéb").pairs.meets(&Pairs::one(0, 1)));
    assert!(need(r"(?i:ka|sa)").admits(&TextFacts::of("\u{212A}A")));
    assert!(need(r"(?i:ka|sa)").admits(&TextFacts::of("\u{17F}a")));
    assert!(!need(r"(?i:ka|sa)").admits(&TextFacts::of("k-a s-a")));
    // A word without a pair of ASCII letters but with a character outside ASCII: that
    // character, or another word's pair.
    let types = need(r"(?:út|tér|straße)\s*\d");
    assert!(types.admits(&TextFacts::of("Fő út 5")));
    assert!(!types.admits(&TextFacts::of("quick 123")));
    assert!(need(r"\d\s?[º°ª]").admits(&TextFacts::of("3º")));
    assert!(!need(r"\d\s?[º°ª]").admits(&TextFacts::of("quick 3")));
    // Alternatives that start with different letters, after a common one (`c(?:vv|id|sc)`).
    let codes = need(r"(?i:cvv|cid|csc)\s*\d");
    assert!(!codes.pairs.is_empty());
    assert!(codes.admits(&TextFacts::of("CSC 123")));
    assert!(!codes.admits(&TextFacts::of("quick 123")));
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
        assert!(CURRENT.with_borrow(|c| c.is_some_and(|(k, _)| k.1 == text.len())));
    });
    assert!(CURRENT.with_borrow(Option::is_none));
    assert!(!digits.admits_haystack("quick 12345"));
}

#[test]
fn the_last_other_haystack_keeps_its_facts_by_its_text() {
    let digits = need(r"\d{6}");
    let mut text = String::from("order 123456");
    assert!(digits.admits_haystack(&text));
    assert!(digits.admits_haystack(&text));
    // The same place, another text: its own facts.
    text.replace_range(6.., "abcdef");
    assert!(!digits.admits_haystack(&text));
    assert_eq!(fresh_facts("ab 1"), TextFacts::of("ab 1"));
    assert_eq!(fresh_facts("ab 1"), TextFacts::of("ab 1"));
    assert_eq!(fresh_facts("ab 2"), TextFacts::of("ab 2"));
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
        r"(?i)(?-u:\b)(?:card|visa|master\s?card|amex)(?-u:\b)[^.\n]{0,20}\d",
        r"(?i:(?:i'?m|we are)\s+(?:in\s+)?(?:room|suite))\s*\d",
        r"(?:Straße|Strasse|Rue|Calle)\s+\d",
        r"(?i)KAi|Straße",
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
        "MasterCard ending 4242",
        "visa: 1",
        "I'm in room 12",
        "we are  suite 3",
        "Rue 5",
        "Straße 12",
        "\u{212A}AI",
        "ſtrasse",
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

#[test]
fn long_ascii_texts_are_counted_alike() {
    let unit = "ab12 CD\t\u{b}";
    let long = unit.repeat(20);
    assert!(long.len() >= HISTOGRAM_MIN);
    let f = TextFacts::of(&long);
    assert_eq!((f.numeric, f.upper, f.space), (40, 40, 60));
    let short = TextFacts::of(unit);
    assert_eq!(f.ascii, short.ascii);
    assert_eq!((f.len, f.non_ascii), (long.len(), 0));
    // Classes read once are remembered alike.
    assert_eq!(need(r"\p{Lu}\p{Lu}").upper, 2);
    assert_eq!(need(r"\p{Lu}x").upper, 1);
}

#[test]
fn short_and_long_ascii_texts_get_the_same_facts_byte_by_byte_or_counted() {
    for text in [
        "quick 12345",
        "Call +44 20 7946 0958, ext. 12 ~ {ok} [DEL\x7f] \t\x0b end",
        "AZaz09 @_`{|}~",
    ] {
        let mut counted = TextFacts::default();
        counted.add_ascii_counts(text.as_bytes(), &mut ());
        let mut read = TextFacts::default();
        read.add_short_ascii(text.as_bytes(), &mut ());
        assert_eq!(counted, read, "{text:?}");
        assert_eq!(
            Pairs::of_ascii(text.as_bytes()),
            Pairs::of_text(text),
            "{text:?}"
        );
    }
}

#[test]
fn digits_in_a_row_every_match_holds() {
    assert_eq!(need(r"[XYZxyz]?-?\d{7,8}-?\s?[A-Za-z]").digit_run, 7);
    assert_eq!(
        need(r"(?:19|20)?\d{6}[-+]\d{4}|(?:19|20)\d{10}").digit_run,
        6
    );
    assert_eq!(need(r"(?:19|20)\d{10}").digit_run, 12);
    assert_eq!(need(r"(?-u:\b)\d{3}(?-u:\b)\d{2}").digit_run, 5);
    assert_eq!(need(r"\d{3}\.\d{3}").digit_run, 3);
    assert_eq!(need(r"\d*\d{2}x?").digit_run, 2);
    assert_eq!(need(r"(?:\d\d)+").digit_run, 2);
    assert_eq!(need(r"(?:\d|a)\d").digit_run, 1);
    assert_eq!(need(r"[a-z]+").digit_run, 0);
    assert_eq!(TextFacts::of("call 555-0182").digit_run, 4);
    assert_eq!(TextFacts::of("née le 14/03/1962").digit_run, 4);
    assert_eq!(TextFacts::of("٣٤٥ and 12").digit_run, 3);
    let dni = need(r"[XYZxyz]?-?\d{7,8}-?\s?[A-Za-z]");
    assert!(!dni.admits(&TextFacts::of("call +1 415 555 0182 or 555 0199 now, ok")));
    assert!(dni.admits(&TextFacts::of("DNI 12345678Z")));
}
