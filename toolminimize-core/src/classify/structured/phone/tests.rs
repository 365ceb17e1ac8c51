use super::*;

fn spans<'a>(text: &'a str, field: &Field<'_>) -> Vec<&'a str> {
    let d = Phone::new().unwrap();
    let mut out = Vec::new();
    d.detect(text, field, &mut out);
    out.iter().map(|f| &text[f.span.clone()]).collect()
}

fn plain(text: &str) -> Vec<&str> {
    spans(text, &Field::default())
}

#[test]
fn international_numbers_of_any_country() {
    assert_eq!(plain("call +1 415-555-2671 now"), ["+1 415-555-2671"]);
    assert_eq!(plain("UK: +44 20 7946 0958."), ["+44 20 7946 0958"]);
    assert_eq!(plain("+49 30 901820"), ["+49 30 901820"]);
    assert_eq!(plain("tel +33 6 12 34 56 78"), ["+33 6 12 34 56 78"]);
    assert_eq!(plain("+34 612 345 678"), ["+34 612 345 678"]);
    assert_eq!(plain("+39 06 6982 0000"), ["+39 06 6982 0000"]);
    assert_eq!(plain("whatsapp +989124718362"), ["+989124718362"]);
    assert_eq!(plain("Ruf an: 0049 89 1234567"), ["0049 89 1234567"]);
    // A range reserved for fiction, or not yet assigned, laid out as a number: still one.
    assert_eq!(plain("backup line: +44 7700 900 554"), ["+44 7700 900 554"]);
    assert_eq!(plain("Jo Bell\n+44 7700 900318"), ["+44 7700 900318"]);
    assert!(plain("score +12 (3 games)").is_empty());
}

#[test]
fn a_colon_after_a_label_announces_the_number_and_after_a_digit_is_a_time() {
    assert_eq!(plain("母の電話:090-5512-7730"), ["090-5512-7730"]);
    assert_eq!(plain("Tel:020 7946 0958"), ["020 7946 0958"]);
    assert!(plain("from 10:30 555 0100 42").is_empty());
}

#[test]
fn a_local_number_after_a_word_for_a_phone() {
    assert_eq!(plain("call my desk number 555-0172 after 5"), ["555-0172"]);
    assert!(plain("order 555-0172 shipped").is_empty());
    assert!(plain("call about invoice 155-0172").is_empty());
}

#[test]
fn national_formats() {
    assert_eq!(plain("(415) 555-2671"), ["(415) 555-2671"]);
    assert_eq!(plain("ring 020 7946 0958 later"), ["020 7946 0958"]);
    assert_eq!(plain("Tel. 030 901820"), ["030 901820"]);
    assert_eq!(plain("appelez le 06 12 34 56 78"), ["06 12 34 56 78"]);
    assert_eq!(plain("móvil 612 34 56 78"), ["612 34 56 78"]);
    assert_eq!(plain("chiama 347 123 4567"), ["347 123 4567"]);
}

#[test]
fn a_number_in_brackets_after_a_name() {
    assert_eq!(
        plain("Ring Pia Lund (312-555-0199) first."),
        ["312-555-0199"]
    );
    assert_eq!(plain("via Ola (+47 912 34 567)"), ["+47 912 34 567"]);
    assert_eq!(plain("the years (2019-2021) were busy").len(), 0);
}

#[test]
fn a_year_and_a_serial_are_a_record_number() {
    for text in [
        "order 2023-407215 arrived broken",
        "invoice no. 2023-554120",
        "spis 2025/206481",
    ] {
        assert!(plain(text).is_empty(), "{text}");
    }
    // Laid out as a phone, the same digits are one.
    assert_eq!(plain("call 202-411-8734"), ["202-411-8734"]);
}

#[test]
fn bare_digits_only_in_a_phone_field() {
    let f = Field {
        path: "/recipient",
        key: Some("recipient"),
        description: None,
        dictated: false,
    };
    assert_eq!(spans("989124718362", &f), ["989124718362"]);
    assert!(plain("989124718362").is_empty());
    let f = Field {
        path: "/x",
        key: Some("to"),
        description: Some("Mobile number of the customer"),
        dictated: false,
    };
    assert_eq!(spans("07700900123", &f), ["07700900123"]);
}

#[test]
fn trailing_words_and_numbers_are_trimmed() {
    assert_eq!(plain("call +44 20 7946 0958 2 times"), ["+44 20 7946 0958"]);
    // A number of another shape right after the phone does not hide it.
    assert_eq!(
        plain("weather +1 415 555 0182 10.0.0.7"),
        ["+1 415 555 0182"]
    );
    assert_eq!(plain("+44 20 7946 0958 2025-06-11"), ["+44 20 7946 0958"]);
    assert_eq!(plain("+1 415 555 0182 10.5"), ["+1 415 555 0182"]);
    assert_eq!(plain("from 10.0.0.7 +1 415 555 0182"), ["+1 415 555 0182"]);
    assert_eq!(plain("10.0.0.7 020 7946 0958"), ["020 7946 0958"]);
    // Nor is a phone cut out of two dashed numbers in a row.
    assert!(
        !plain("078-05-1120 078-05-1120")
            .iter()
            .any(|p| p.len() > 11)
    );
    // Nor out of a social security number and the first group of a card.
    assert_eq!(
        plain("call 078-05-1120 4111 1111 1111 1111"),
        Vec::<&str>::new()
    );
    assert_eq!(
        plain("call 078-05-1120 +1 415 555 0182"),
        ["+1 415 555 0182"]
    );
}

#[test]
fn true_negatives() {
    for s in [
        "order #W5520193 shipped",
        "ORD-2024-00017",
        "at 2025-06-09T19:00:00 and 2025-06-11",
        "id 123e4567-e89b-12d3-a456-426614174000",
        "commit 4f9c2a1b7d3e5f60718293a4b5c6d7e8f9012345",
        "version 2.3.1 or v1.12.0",
        "it costs $41.99 or 40,00 €",
        "from 9:30 to 14:00",
        "2025-04-11 20:00",
        "11/04/2025 20:00",
        "on 2025-06-14 21:30 for two",
        "issue 12345 and PR 6789",
        "booking DL-88QK2",
        "IP 192.168.1.20",
        "1234567 items",
        "dated 11.06.2025 and 06/11/2025",
        "price 1234567.89",
        "RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=10",
    ] {
        assert!(plain(s).is_empty(), "{s}: {:?}", plain(s));
    }
}

#[test]
fn build_numbers_and_business_lines_are_not_personal_phones() {
    assert!(plain("build 2031.05.2811-1 failed").is_empty());
    assert!(plain("Build 2031-06-0418 green").is_empty());
    assert!(plain("support line +1 800-555-0142 or 1-888-555-0177").is_empty());
    assert_eq!(plain("call me at +1 415-555-0142"), ["+1 415-555-0142"]);
}

#[test]
fn national_formats_of_more_countries_where_the_text_says_phone() {
    assert_eq!(plain("Kontakt: 601 234 567"), ["601 234 567"]);
    assert_eq!(plain("ring meg på 918 76 543"), ["918 76 543"]);
    assert_eq!(plain("bel me op 06-12345678"), ["06-12345678"]);
    // Without a phone word, a grouped nine-digit number is not taken for a phone.
    assert!(plain("order 918 76 543 shipped").is_empty());
}

#[test]
fn a_number_split_over_phone_fields() {
    let field = |key| Field {
        path: "/x",
        key: Some(key),
        description: None,
        dictated: false,
    };
    assert_eq!(spans("0161", &field("ec_phone_area")), ["0161"]);
    assert_eq!(spans("496 0815", &field("ec_phone_number")), ["496 0815"]);
    assert_eq!(spans("(0)20", &field("mobileAreaCode")), ["(0)20"]);
    assert!(spans("375", &field("mobile_width")).is_empty());
    assert!(spans("150", &field("call_count")).is_empty());
    assert!(spans("2.3.1", &field("mobile_app_version")).is_empty());
    assert!(spans("0161", &field("area")).is_empty());
    assert!(plain("0161").is_empty());
}

#[test]
fn chinese_mobiles_without_the_country_code() {
    // In Chinese text, touching Han characters, bare or grouped 3-4-4.
    assert_eq!(
        plain("我的手机是139 1234 5678，有事打给我"),
        ["139 1234 5678"]
    );
    assert_eq!(plain("联系电话：13812345678"), ["13812345678"]);
    assert_eq!(plain("请拨打158-0000-1234咨询"), ["158-0000-1234"]);
    assert_eq!(plain("明天下午到了就打18612345678"), ["18612345678"]);
    assert_eq!(plain("手機：13712345678"), ["13712345678"]);
    // After an English phone word too.
    assert_eq!(plain("mobile: 13912345678"), ["13912345678"]);
}

#[test]
fn eleven_digits_are_no_chinese_mobile_without_chinese_or_a_label() {
    // Other languages, other shapes, other numbers.
    assert!(plain("order 13912345678 shipped").is_empty());
    assert!(plain("Rechnung 13912345678 vom Mai").is_empty());
    assert!(plain("Заказ 13912345678 отправлен").is_empty());
    // An order, parcel or card number in Chinese.
    assert!(plain("订单号13912345678已发货").is_empty());
    assert!(plain("快递单号：13912345678").is_empty());
    // Not a mobile prefix, not eleven digits, part of a longer run.
    assert!(plain("编码12912345678").is_empty());
    assert!(plain("手机1391234567").is_empty());
    assert!(plain("流水号2139123456789").is_empty());
    assert!(plain("电话1391234567890").is_empty());
}

#[test]
fn a_particle_glued_to_the_number() {
    assert_eq!(plain("明日090-1234-5678に電話して"), ["090-1234-5678"]);
    assert_eq!(plain("010-1234-5678로 전화해"), ["010-1234-5678"]);
    // A Latin letter still makes a code of it.
    assert!(plain("ref090-1234-5678x").is_empty());
}

#[test]
fn the_script_around_a_number_says_where_it_is_dialled() {
    assert_eq!(plain("позвони мне 8 916 123-45-67"), ["8 916 123-45-67"]);
    assert_eq!(plain("πάρε με 694 123 4567"), ["694 123 4567"]);
    assert_eq!(plain("תתקשר 052-123-4567"), ["052-123-4567"]);
    // Bare digits after a label of the script's language.
    assert_eq!(plain("رقمي 0551234567"), ["0551234567"]);
    assert_eq!(plain("המספר שלי 0541234567"), ["0541234567"]);
    assert_eq!(plain("मेरा नंबर 9812345678 है"), ["9812345678"]);
    // Glued to a word, it is a code whatever the script around it.
    assert!(plain("код A8 916 123-45-67").is_empty());
    // Not a number the script's countries do not assign, nor bare digits.
    assert!(plain("номер заказа 12-34-56-78-90-12").is_empty());
    assert!(plain("κωδικός 6941234567").is_empty());
}

#[test]
fn a_brazilian_area_code_in_brackets() {
    assert_eq!(plain("me liga (11) 98765-4321"), ["(11) 98765-4321"]);
    assert!(plain("see note (11) on page 12").is_empty());
}

#[test]
fn my_number_is_a_phone_label_when_the_number_is_valid() {
    assert_eq!(plain("my number: 07911123456"), ["07911123456"]);
    assert_eq!(plain("mi número es 612489371"), ["612489371"]);
    // Not a valid phone number of any country tried: nothing.
    assert!(plain("my number is 4417 in the queue").is_empty());
}

#[test]
fn numbers_labelled_as_another_kind_of_number_are_no_phones() {
    for text in [
        "Le SIRET du fournisseur est 552 081 317 00012, merci.",
        "KvK 68750110, Rotterdam",
        "meeting ID 884 2291 0043, passcode 7781",
        "注文番号 240518-0071 の件です。",
        "Номер заказа 4412 8891 20, спасибо.",
        "Tilausnumero 550712-2291 lähtee huomenna.",
    ] {
        assert!(plain(text).is_empty(), "{text}: {:?}", plain(text));
    }
    // A phone label before the number still wins.
    assert_eq!(
        plain("Tracking shows delivered; call me on 07700 900461"),
        ["07700 900461"]
    );
}
