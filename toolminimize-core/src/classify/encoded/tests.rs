//! End-to-end tests of `scan_hidden` with small test-only detectors.

use regex::Regex;

use super::*;
use crate::item::PsdKind;

#[test]
fn an_ssn_inside_base64_is_found() {
    use crate::classify::{Detector, Field, encoded};
    use crate::item::{Finding, PsdKind};

    /// Finds `123-45-6789`-shaped numbers.
    #[derive(Debug)]
    struct Ssn;
    impl Detector for Ssn {
        fn name(&self) -> &'static str {
            "ssn"
        }
        fn detect(&self, text: &str, _: &Field<'_>, out: &mut Vec<Finding>) {
            let b = text.as_bytes();
            for i in 0..b.len().saturating_sub(10) {
                let w = &b[i..i + 11];
                let shape = w.iter().enumerate().all(|(k, c)| {
                    if k == 3 || k == 6 {
                        *c == b'-'
                    } else {
                        c.is_ascii_digit()
                    }
                });
                if shape {
                    out.push(Finding::new(i..i + 11, PsdKind::Ssn, 0.9, "ssn"));
                }
            }
        }
    }
    let detectors: Vec<Box<dyn Detector>> = vec![Box::new(Ssn)];
    let text = "note: U1NOIDEyMy00NS02Nzg5IHBsZWFzZQ==";
    let mut out = Vec::new();
    let _ = encoded::scan_hidden(text, &Field::default(), &detectors, &mut out);
    assert_eq!(
        &text[out[0].span.clone()],
        "U1NOIDEyMy00NS02Nzg5IHBsZWFzZQ=="
    );
}

#[derive(Debug)]
struct RegexDetector {
    re: Regex,
    kind: PsdKind,
    name: &'static str,
}

impl Detector for RegexDetector {
    fn name(&self) -> &'static str {
        self.name
    }
    fn detect(&self, text: &str, _field: &Field<'_>, out: &mut Vec<Finding>) {
        for m in self.re.find_iter(text) {
            out.push(Finding::new(m.range(), self.kind, 0.9, self.name));
        }
    }
}

fn detectors() -> Vec<Box<dyn Detector>> {
    let mut v: Vec<Box<dyn Detector>> = vec![
        Box::new(RegexDetector {
            re: Regex::new(r"\b[0-9]{3}-[0-9]{2}-[0-9]{4}\b").unwrap(),
            kind: PsdKind::Ssn,
            name: "test:ssn",
        }),
        Box::new(RegexDetector {
            re: Regex::new(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b").unwrap(),
            kind: PsdKind::Email,
            name: "test:email",
        }),
        Box::new(RegexDetector {
            re: Regex::new(r"\b[0-9]{4} ?[0-9]{4} ?[0-9]{4} ?[0-9]{4}\b").unwrap(),
            kind: PsdKind::CardNumber,
            name: "test:card",
        }),
        Box::new(RegexDetector {
            re: Regex::new(r"\blogin is (\S+:\S+)").unwrap(),
            kind: PsdKind::Credential,
            name: "test:login",
        }),
        Box::new(RegexDetector {
            re: Regex::new(r"\b(?:asylum|diabetic|alcohol|IVF|[Hh]ospitalized)\b").unwrap(),
            kind: PsdKind::Condition,
            name: "test:word",
        }),
    ];
    v.extend(crate::classify::names::detectors().unwrap());
    v
}

/// Plain findings first (as the classifier does), then the hidden ones.
fn hidden(text: &str) -> Vec<(PsdKind, String)> {
    let ds = detectors();
    let mut out = Vec::new();
    for d in &ds {
        d.detect(text, &Field::default(), &mut out);
    }
    let plain = out.len();
    assert_eq!(
        scan_hidden(text, &Field::default(), &ds, &mut out),
        Coverage::Whole
    );
    out.drain(plain..)
        .map(|f| (f.kind, text[f.span].to_owned()))
        .collect()
}

fn kinds(text: &str, kind: PsdKind) -> Vec<String> {
    hidden(text)
        .into_iter()
        .filter(|(k, _)| *k == kind)
        .map(|(_, s)| s)
        .collect()
}

#[test]
fn base64_blob_is_removed_whole() {
    // "ssn: 123-45-6789, mail jane.doe@gmail.com"
    let blob = "c3NuOiAxMjMtNDUtNjc4OSwgbWFpbCBqYW5lLmRvZUBnbWFpbC5jb20=";
    let text = format!("attachment={blob}");
    assert_eq!(kinds(&text, PsdKind::Ssn), [blob]);
    assert_eq!(kinds(&text, PsdKind::Email), [blob]);
    // base64url without padding: "{\"email\":\"a.b@x.io\"}"
    let url = "eyJlbWFpbCI6ImEuYkB4LmlvIn0";
    assert_eq!(kinds(&format!("claims {url}"), PsdKind::Email), [url]);
}

#[test]
fn hex_string_decodes() {
    let text = "ref 3132332d34352d36373839";
    assert_eq!(kinds(text, PsdKind::Ssn), ["3132332d34352d36373839"]);
}

#[test]
fn percent_encoded_name_and_email_map_exactly() {
    let text = "https://www.google.com/search?q=Greta%20Lindgren%20oncology&e=jane.doe%40gmail.com";
    assert_eq!(kinds(text, PsdKind::PersonName), ["Greta%20Lindgren"]);
    assert_eq!(kinds(text, PsdKind::Email), ["jane.doe%40gmail.com"]);
}

#[test]
fn a_secret_in_a_decoded_token_is_the_whole_token() {
    // Decoded, the password's space ends the match; the token it came from goes whole.
    let text = "FWIW my login is ana.k%3AP%40ss%20w0rd%21. Thanks";
    assert_eq!(
        kinds(text, PsdKind::Credential),
        ["login is ana.k%3AP%40ss%20w0rd%21"]
    );
}

#[test]
fn html_entities_decode() {
    assert_eq!(
        kinds("reach me: jane&#46;doe&#64;gmail&#x2E;com", PsdKind::Email),
        ["jane&#46;doe&#64;gmail&#x2E;com"]
    );
}

#[test]
fn unicode_tricks_are_seen_through() {
    assert_eq!(
        kinds("SSN １２３-４５-６７８９", PsdKind::Ssn),
        ["１２３-４５-６７８９"]
    );
    let zw = "123\u{200B}-45-6789";
    assert_eq!(kinds(zw, PsdKind::Ssn), [zw]);
    assert_eq!(
        kinds("mail jаnе.dое@gmаil.cоm now", PsdKind::Email),
        ["jаnе.dое@gmаil.cоm"]
    );
    // Digits of the Thai, Khmer and Tamil scripts.
    assert_eq!(kinds("SSN ๑๒๓-๔๕-๖๗๘๙ ครับ", PsdKind::Ssn), ["๑๒๓-๔๕-๖๗๘๙"]);
    assert_eq!(kinds("SSN ១២៣-៤៥-៦៧៨៩", PsdKind::Ssn), ["១២៣-៤៥-៦៧៨៩"]);
    assert_eq!(kinds("SSN ௧௨௩-௪௫-௬௭௮௯", PsdKind::Ssn), ["௧௨௩-௪௫-௬௭௮௯"]);
}

#[test]
fn spread_digits_and_spelled_emails() {
    assert_eq!(
        kinds("it is 1 2 3 - 4 5 - 6 7 8 9", PsdKind::Ssn),
        ["1 2 3 - 4 5 - 6 7 8 9"]
    );
    assert_eq!(
        kinds("card 4.5.5.6 0.1.8.7 2.2.3.3 9.9.0.1", PsdKind::CardNumber),
        ["4.5.5.6 0.1.8.7 2.2.3.3 9.9.0.1"]
    );
    assert_eq!(
        kinds("jane dot doe at gmail dot com", PsdKind::Email),
        ["jane dot doe at gmail dot com"]
    );
    assert_eq!(
        kinds("j.doe [at] example [dot] org", PsdKind::Email),
        ["j.doe [at] example [dot] org"]
    );
}

#[test]
fn two_levels_deep() {
    // base64 of "q=jane%40gmail.com"
    let blob = "cT1qYW5lJTQwZ21haWwuY29t";
    assert_eq!(kinds(&format!("state={blob}"), PsdKind::Email), [blob]);
}

#[test]
fn plain_findings_are_not_repeated() {
    assert!(hidden("SSN 123-45-6789 and jane.doe@gmail.com").is_empty());
}

#[test]
fn negatives_yield_nothing() {
    for text in [
        // JWT-like token whose parts decode to binary.
        "Bearer kq3Xr9vLmN2pQ8sT4uW6yZ1aB5cD7eF0.gH2jK4lM6nP8qR0sT2uV4wX6yZ8aB0cD.eF2gH4jK6lM8nP0q",
        "commit 3f786850e387550fdab836ed7e6dc881de23001b",
        "trace 550e8400-e29b-41d4-a716-446655440000",
        "https://files.example.com/docs/Annual%20Report%202024.pdf",
        "color: #ff8800; background: #1e90ff",
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
        "Tom &amp; Jerry &lt;3",
        "version 1.2.3 at 10.0.0.1",
        "meet at the station at noon",
        "Crème brûlée à Genève",
        "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    ] {
        assert!(hidden(text).is_empty(), "{text}: {:?}", hidden(text));
    }
}

#[test]
fn huge_and_tiny_inputs_are_bounded() {
    let big = "QUJD".repeat(MAX_TEXT / 4 + 1);
    let mut out = Vec::new();
    // Too long to decode in one piece: said so, never silently passed.
    assert_eq!(
        scan_hidden(&big, &Field::default(), &detectors(), &mut out),
        Coverage::Partial
    );
    assert!(out.is_empty());
    let _ = scan_hidden("%4", &Field::default(), &detectors(), &mut out);
    let _ = scan_hidden(
        "&#xFFFFFFFF; &#55296; %FF%FE",
        &Field::default(),
        &detectors(),
        &mut out,
    );
    assert!(out.is_empty());
}

#[test]
fn words_made_by_decoding_are_found() {
    // The decoded space makes "asylum" a word of its own.
    assert_eq!(
        kinds(
            "https://x.test/?case=defensive%20asylum",
            PsdKind::Condition
        ),
        ["asylum"]
    );
    assert_eq!(
        kinds("q=type-2%2520diabetic%2520runners", PsdKind::Condition),
        ["diabetic"]
    );
}

#[test]
fn look_alike_separators_numbers_in_words_leet_escapes_rot13() {
    let ssn = "123\u{2010}45\u{2010}6789";
    assert_eq!(kinds(&format!("SSN {ssn}"), PsdKind::Ssn), [ssn]);
    let card = "4111\u{a0}1111\u{a0}1111\u{a0}1111";
    assert_eq!(kinds(&format!("card {card}"), PsdKind::CardNumber), [card]);
    let words = "one two three, four five, six seven eight nine";
    assert_eq!(kinds(&format!("it is {words} ok"), PsdKind::Ssn), [words]);
    assert_eq!(kinds("a d1abet1c runner", PsdKind::Condition), ["d1abet1c"]);
    assert_eq!(kinds("no more a1c0h0l", PsdKind::Condition), ["a1c0h0l"]);
    assert_eq!(
        kinds(r"cover my \u0049VF cycle", PsdKind::Condition),
        [r"\u0049VF"]
    );
    assert_eq!(
        kinds("reason, rot13'd: Ubfcvgnyvmrq again", PsdKind::Condition),
        ["Ubfcvgnyvmrq"]
    );
}

/// Every string value of the JSON lines in `jsonl` (arguments, task contexts, descriptions).
fn strings_of(jsonl: &str) -> Vec<String> {
    fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            serde_json::Value::Object(o) => o.values().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for line in jsonl.lines() {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
            walk(&v, &mut out);
        }
    }
    out
}

/// The views as text, with the source of each byte.
fn described(views: &[View]) -> Vec<String> {
    views.iter().map(|v| format!("{v:?}")).collect()
}

/// The views of `text` with the decoders the facts rule out skipped, and with every decoder
/// called, from the facts of either pass (alone, or with the text's other facts).
fn assert_gates_skip_nothing(text: &str) {
    let alone = Facts::of(text);
    let mut scan = FactsScan::default();
    let text_facts = crate::classify::need::TextFacts::of_with(text, &mut scan);
    let with_text = scan.facts(&text_facts);
    let all = described(&views_gated(text, &alone, false));
    assert_eq!(described(&views(text, &alone)), all, "{text:?}");
    assert_eq!(described(&views(text, &with_text)), all, "{text:?}");
}

#[test]
fn gated_views_are_the_views_of_every_decoder_on_the_saved_calls() {
    for jsonl in [
        include_str!("../../../../examples/calls.jsonl"),
        include_str!("../../../tests/fixtures/benign_calls.jsonl"),
    ] {
        for text in strings_of(jsonl) {
            assert_gates_skip_nothing(&text);
        }
    }
}

#[test]
fn gated_views_are_the_views_of_every_decoder_on_encoded_texts() {
    for text in [
        "payload U1NOIDEyMy00NS02Nzg5IHBsZWFzZQ== end",
        "id=6a616e652e646f6540676d61696c2e636f6d",
        "mail jane&#46;doe&#x40;example&period;org &amp; more",
        "R&D and Q&A; fish & chips",
        "SSN １２３-４５-６７８９ and 123\u{2010}45\u{2011}6789",
        "4111\u{a0}1111\u{a0}1111\u{a0}1111",
        "jаnе@gmail.com и Москва, Crème brûlée à Genève",
        "电话：１３９１２３４５６７８, ٠١٢٣٤٥٦٧٨٩",
        "123\u{200B}-45-67\u{200C}89 \u{FEFF}x",
        "null eins sieben sechs, zwei zwei drei vier fünf",
        "zéro sept sept zéro un deux trois quatre",
        "my number is 1 2 3 - 4 5 - 6 7 8 9 ok",
        "born the twenty-third of August nineteen sixty-five",
        "d1abet1c c@ncer h3p4t1t1s",
        "write to jane dot doe at gmail dot com today",
        "\\u0049\\u0020am \\x4a\\x61\\x6e\\x65",
        "Ynar Qbr (rot13) 1",
        "q=Greta%20Lindgren+clinic&m=jane%40doe.org",
    ] {
        assert_gates_skip_nothing(text);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]
    /// Texts pieced together from the characters and words the decoders look for.
    #[test]
    fn gated_views_are_the_views_of_every_decoder(
        parts in proptest::collection::vec(proptest::sample::select(vec![
            " ", "&", "&#64;", "&amp;", ";", "%40", "%", "\\u0041", "\\", "1", "3", "@", "$",
            "a", "at", "dot", "e", "r", "rot13", "one", "two", "zwei", "fünf", "zéro", "sept",
            "nineteen", "thousand", "first", "é", "ß", "\u{a0}", "\u{2010}", "\u{200B}", "а",
            "ο", "１", "٣", "ℓ", "²", "—", "’", "€", "日本", "0123456789abcdef", "Zm9vYmFy",
            "U1NOIDEy", "-", ".", "_", "/", "+", "=", "4", "5", "7", "0", "x", "Q", "double",
        ]), 0..24)
    ) {
        let text: String = parts.concat();
        assert_gates_skip_nothing(&text);
    }
}
