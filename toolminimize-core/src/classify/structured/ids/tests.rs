use super::*;

fn spans<'a>(text: &'a str, field: &Field<'_>) -> Vec<(&'a str, PsdKind)> {
    let d = Ids::new().unwrap();
    let mut out = Vec::new();
    d.detect(text, field, &mut out);
    out.sort_by_key(|f| f.span.start);
    out.iter()
        .map(|f| (&text[f.span.clone()], f.kind))
        .collect()
}

fn plain(text: &str) -> Vec<(&str, PsdKind)> {
    spans(text, &Field::default())
}

const NID: PsdKind = PsdKind::NationalId;

#[test]
fn checksummed_national_ids() {
    assert_eq!(
        plain("NIR 2 69 05 49 588 157 80"),
        [("2 69 05 49 588 157 80", NID)]
    );
    assert_eq!(plain("DNI 12345678Z"), [("12345678Z", NID)]);
    assert_eq!(plain("T.C. 62601815964 adına"), [("62601815964", NID)]);
    // One digit off: no Turkish id (nor any other eleven-digit one).
    assert!(plain("ref 62601815965 ok").is_empty());
    assert_eq!(plain("NIE X1234567L"), [("X1234567L", NID)]);
    // Grouped by dots or dashes.
    assert_eq!(plain("DNI 12.345.678-Z"), [("12.345.678-Z", NID)]);
    assert_eq!(plain("NIE X-123-4567-L ok"), [("X-123-4567-L", NID)]);
    assert_eq!(plain("CF RSSMRA85T10A562S"), [("RSSMRA85T10A562S", NID)]);
    assert_eq!(plain("personnummer 811218-9876"), [("811218-9876", NID)]);
    assert_eq!(plain("NINO AB 12 34 56 C"), [("AB 12 34 56 C", NID)]);
    assert_eq!(
        plain("my NI number is QX 12 34 56 B."),
        [("QX 12 34 56 B", NID)]
    );
    // A wrong check letter still counts right after the document's name.
    assert_eq!(
        plain("renovar DNI 48392011K cita previa"),
        [("48392011K", NID)]
    );
    assert_eq!(
        plain("mon numéro de sécurité sociale 1 85 05 78 006 084 36"),
        [("1 85 05 78 006 084 36", NID)]
    );
}

#[test]
fn context_ids() {
    assert_eq!(
        plain("passport number 533380006"),
        [("533380006", PsdKind::Passport)]
    );
    assert_eq!(
        plain("Reisepass C01X00T47"),
        [("C01X00T47", PsdKind::Passport)]
    );
    assert_eq!(
        plain("numéro de passeport 18AB12345"),
        [("18AB12345", PsdKind::Passport)]
    );
    assert_eq!(
        plain("driver's license D1234-5678-9012"),
        [("D1234-5678-9012", PsdKind::DriverLicence)]
    );
    assert_eq!(
        plain("MRN 00482913"),
        [("00482913", PsdKind::MedicalRecord)]
    );
    assert_eq!(
        plain("NHS number 9434765919"),
        [("9434765919", PsdKind::MedicalRecord)]
    );
    assert_eq!(
        plain("Steuer-ID 65929970489"),
        [("65929970489", PsdKind::TaxId)]
    );
    // In its printed groups, after a word for tax.
    assert_eq!(
        plain("Falls du meine Steuer-ID brauchst: 65 929 970 489."),
        [("65 929 970 489", PsdKind::TaxId)]
    );
    assert!(plain("Preis: 65 929 970 489 Punkte").is_empty());
    assert_eq!(plain("BSN 111222333"), [("111222333", NID)]);
    let f = Field {
        path: "/passport",
        key: Some("passport_no"),
        description: None,
        dictated: false,
    };
    assert_eq!(spans("YA1234567", &f), [("YA1234567", PsdKind::Passport)]);
}

#[test]
fn true_negatives() {
    for s in [
        "12345678A",
        "order ORD-2024-00017",
        "#W5520193",
        "2025-06-09T19:00:00",
        "booking DL-88QK2",
        "BSN 111222334",
        "version 2.3.1",
        "build 20250611-1234",
    ] {
        assert!(plain(s).is_empty(), "{s}: {:?}", plain(s));
    }
}

#[test]
fn checksummed_numbers_of_more_countries() {
    // Invented numbers whose check digits are right (checked against python-stdnum): a
    // Romanian CNP, an EMŠO, a Swiss AHV number, a Belgian national number, Chilean RUTs, an
    // Estonian isikukood and a Greek AMKA, without a label.
    for (text, id) in [
        ("for the form: 1850314328792.", "1850314328792"),
        ("broj 1503985231007 u spisu", "1503985231007"),
        ("Versicherter 756.3095.5972.97", "756.3095.5972.97"),
        ("(85.03.14-333.83)", "85.03.14-333.83"),
        ("el 12.345.678-5 del arrendatario", "12.345.678-5"),
        ("y 7.654.321-6", "7.654.321-6"),
        ("kood 38503232675", "38503232675"),
        ("ο 14038590312 στο αρχείο", "14038590312"),
    ] {
        assert_eq!(plain(text), [(id, NID)], "{text}");
    }
    // One digit off: nothing.
    for text in [
        "order 1850314328793",
        "ref 1503985231008",
        "EAN 756.3095.5972.98",
        "ref 85.03.14-333.84",
        "total 12.345.678-6",
        // A company's RUT (50,000,000 and up) is a legal person's.
        "proveedor 77.318.904-8",
        "ref 38503232676",
        "ref 14038590313",
    ] {
        assert!(plain(text).is_empty(), "{text}: {:?}", plain(text));
    }
}

#[test]
fn indonesian_nik_after_its_label() {
    // Invented: province 32, born on the 15th (+40: a woman) of March 1988, serial 0007.
    assert_eq!(
        plain("NIK saya 3204015503880007, KTP masih berlaku"),
        [("3204015503880007", NID)]
    );
    // No label, or no date in it: nothing.
    assert!(plain("nomor pesanan 3204015503880007").is_empty());
    assert!(plain("NIK 3204019913880007").is_empty());
}

#[test]
fn more_checksummed_national_ids() {
    // Invented numbers whose check digits are right (checked against python-stdnum).
    for (text, id) in [
        ("CPF 450.749.528-83 ok", "450.749.528-83"),
        ("nr 29502362197.", "29502362197"),
        ("fnr 19081298516", "19081298516"),
        ("RČ 745908/4380", "745908/4380"),
        ("PPS 6767895GW", "6767895GW"),
        ("HETU 270177-110M", "270177-110M"),
        ("身份证 110105198503122712 已登记", "110105198503122712"),
        ("id 51010419771121050x.", "51010419771121050x"),
    ] {
        assert_eq!(plain(text), [(id, NID)], "{text}");
    }
    // One digit off: nothing.
    for text in [
        "ref 450.749.528-84",
        "nr 29502362198",
        "id 745908/4381",
        "code 6767895GX",
        "x 270177-110N",
        "tel 48601384227",
        "order 110105198503122713",
        "trace 110105198513122716",
    ] {
        assert!(plain(text).is_empty(), "{text}: {:?}", plain(text));
    }
}

#[test]
fn medicare_beneficiary_identifiers_by_format() {
    assert_eq!(
        plain("Medicare MBI 5TJ2-QE8-MK41 on file"),
        [("5TJ2-QE8-MK41", PsdKind::MedicalRecord)]
    );
    assert_eq!(
        plain("beneficiary 7AX9CD4FG22 needs a new card"),
        [("7AX9CD4FG22", PsdKind::MedicalRecord)]
    );
    // Letters CMS never uses (S, L, O, I, B, Z), lower case, or a longer token: not an MBI.
    assert!(plain("ref 5SJ2-QE8-MK41").is_empty());
    assert!(plain("sku 5tj2qe8mk41").is_empty());
    assert!(plain("build 5TJ2QE8MK4122").is_empty());
}

#[test]
fn a_list_of_documents_names_its_kind_once() {
    let found = plain("Passports: Anouk QF5527190 (exp 2031), Teodor QF8802461 (exp 2029)");
    assert_eq!(
        found,
        [
            ("QF5527190", PsdKind::Passport),
            ("QF8802461", PsdKind::Passport)
        ]
    );
    // A token of another shape is not taken.
    let found =
        plain("Passport QF5527190 renewed. The parcel tracking code ZZ12345678 came by mail");
    assert_eq!(found, [("QF5527190", PsdKind::Passport)]);
}

/// In a long scanned text, the token runs read around its runs of numeric characters give the
/// tokens a scan of every byte gives.
#[test]
fn digit_tokens_around_numeric_runs_are_those_of_a_full_scan() {
    let ids = Ids::new().unwrap();
    let parts = [
        "ref AB-1234/5678 and ",
        "١٢٣4567 x ",
        "plain words only, ",
        "12-34-56-78 ",
        "X1Y2Z3W4V5 ",
        "née 2024/0001 ",
        "a1b2c3 ",
    ];
    let mut text = String::new();
    for i in 0..600 {
        text.push_str(parts[(i * 5 + i / 7) % parts.len()]);
    }
    assert!(text.len() >= crate::classify::need::ANCHORED_MIN);
    let whole = ids.digit_tokens(&text);
    let around = crate::classify::need::with_text(&text, || ids.digit_tokens(&text));
    assert!(whole.len() > 100);
    assert_eq!(around, whole);
}

#[test]
fn korean_thai_malaysian_indian_and_dotted_dutch_ids() {
    assert_eq!(
        plain("주민번호 880523-2193847 입니다"),
        [("880523-2193847", NID)]
    );
    // Thirteen digits with nothing between them: in Korean or Thai text, with the check digit.
    assert_eq!(plain("주민번호 8805232193847"), [("8805232193847", NID)]);
    assert_eq!(plain("เลขบัตร 3100400271633 ค่ะ"), [("3100400271633", NID)]);
    assert!(plain("EAN 3100400271633 pack").is_empty());
    assert_eq!(plain("ID 3-1004-00271-63-3"), [("3-1004-00271-63-3", NID)]);
    // One digit off fails the Thai check.
    assert!(plain("ID 3-1004-00271-63-4").is_empty());
    assert_eq!(
        plain("No. IC saya 850214-10-5523."),
        [("850214-10-5523", NID)]
    );
    // No state code 00.
    assert!(plain("ref 850214-00-5523").is_empty());
    assert_eq!(plain("Aadhaar 4627 5103 9186"), [("4627 5103 9186", NID)]);
    assert!(plain("ticket 4627 5103 9187").is_empty());
    assert_eq!(plain("mijn BSN is 7381.52.651 en"), [("7381.52.651", NID)]);
    // Emirates ID: 784, a birth year, seven digits and a Luhn check digit.
    assert_eq!(
        plain("رقم الهوية 784-1992-0581736-6 شكرا"),
        [("784-1992-0581736-6", NID)]
    );
    assert!(plain("ref 784-1992-0581736-5").is_empty());
    assert_eq!(
        plain("receipt (WAC2290011873) ok"),
        [("WAC2290011873", NID)]
    );
    assert!(plain("order ABC2290011873 ok").is_empty());
}

#[test]
fn a_date_shaped_number_after_an_order_word_is_no_cpr() {
    let d = Ids::new().unwrap();
    let mut out = Vec::new();
    d.detect(
        "Order no. 250612-0033 ships tomorrow",
        &Field::default(),
        &mut out,
    );
    assert!(out.is_empty(), "{out:?}");
    d.detect("kargo takip no 7312 4455 0021", &Field::default(), &mut out);
    assert!(out.is_empty(), "{out:?}");
    out.clear();
    d.detect("mit CPR er 140912-4107", &Field::default(), &mut out);
    assert_eq!(out.len(), 1);
}
