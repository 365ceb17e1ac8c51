use super::*;

fn spans<'a>(text: &'a str, field: &Field<'_>) -> Vec<(&'a str, PsdKind)> {
    let d = Labelled::new().unwrap();
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

const ACC: PsdKind = PsdKind::AccountId;
const MED: PsdKind = PsdKind::MedicalRecord;
const CRIM: PsdKind = PsdKind::CriminalRecord;
const NID: PsdKind = PsdKind::NationalId;

#[test]
fn labels_in_many_languages() {
    assert_eq!(plain("my member ID is XK4402917."), [("XK4402917", ACC)]);
    assert_eq!(plain("Mitgliedsnummer: 77120345"), [("77120345", ACC)]);
    assert_eq!(
        plain("policy no. HX-2291-0042 please"),
        [("HX-2291-0042", MED)]
    );
    assert_eq!(plain("Medicaid ID 55120874Q on file"), [("55120874Q", MED)]);
    assert_eq!(plain("employee #48213 starts Monday"), [("48213", ACC)]);
    assert_eq!(plain(r#"{"pesel": "90010112345"}"#), [("90010112345", NID)]);
    assert_eq!(
        plain("मेरा आधार नंबर 5120 7733 1904 है"),
        [("5120 7733 1904", NID)]
    );
    assert_eq!(plain("student ID 20231187"), [("20231187", ACC)]);
    assert_eq!(plain("(n° allocataire 3301928)"), [("3301928", ACC)]);
    assert_eq!(
        plain("Kundennummer 551A778812, bitte"),
        [("551A778812", ACC)]
    );
    assert_eq!(plain("numer polisy PL-00918822"), [("PL-00918822", MED)]);
    assert_eq!(plain("lidnummer 88120443"), [("88120443", ACC)]);
    assert_eq!(plain("medlemsnummer 4471209"), [("4471209", ACC)]);
    assert_eq!(plain("číslo pojištěnce 7702151234"), [("7702151234", MED)]);
    assert_eq!(plain("会員番号は55120987です"), [("55120987", ACC)]);
    assert_eq!(plain("número de socio 00912-B"), [("00912-B", ACC)]);
}

#[test]
fn compounds_and_code_spellings() {
    assert_eq!(
        plain("Krankenkassen-Mitgliedsnummer 9912004471"),
        [("9912004471", ACC)]
    );
    assert_eq!(
        plain(r#"{"dob":"1990-01-02","member_id":"Q77120031","plan":"gold"}"#),
        [("Q77120031", ACC)]
    );
    assert_eq!(plain("memberId=QX5520871&x=1"), [("QX5520871", ACC)]);
    assert_eq!(
        plain("WHERE patient_id = 'P-0048812'"),
        [("P-0048812", MED)]
    );
}

#[test]
fn church_party_and_union_numbers_reveal_membership() {
    let d = Labelled::new().unwrap();
    let mut out = Vec::new();
    d.detect("union card 7781203 (Local 88)", &Field::default(), &mut out);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].category, Category::Beliefs);
}

#[test]
fn court_and_jail_numbers() {
    assert_eq!(
        plain("hearing on the protective order (case 2031-DV-00417)"),
        [("2031-DV-00417", CRIM)]
    );
    assert_eq!(
        plain("County Jail booking #2031-440172, charge pending"),
        [("2031-440172", CRIM)]
    );
    assert_eq!(
        plain("IDOC #R55120 at the state prison"),
        [("R55120", CRIM)]
    );
    // Without a court or a jail, "case" and "booking" are not records.
    assert!(plain("support case 00912345 was closed").is_empty());
    assert!(plain("hotel booking 55120771 confirmed").is_empty());
    assert!(plain("booking RV-48213 was charged twice").is_empty());
}

#[test]
fn national_and_immigration_numbers_by_label() {
    assert_eq!(
        plain("my A-number is A-301-554-982"),
        [("A-301-554-982", NID)]
    );
    assert_eq!(plain("PESEL 90010112345 w aktach"), [("90010112345", NID)]);
    assert_eq!(plain("マイナンバー：123412341234"), [("123412341234", NID)]);
    assert_eq!(plain("TIN 91-7720113"), [("91-7720113", PsdKind::TaxId)]);
}

#[test]
fn national_numbers_named_in_the_table() {
    // Labels of `data/ids/labels.tsv`: native names, acronyms in capitals, other scripts.
    for (text, value, kind) in [
        ("EGN: 7304152216 в досието", "7304152216", NID),
        ("ЕГН 7304152216", "7304152216", NID),
        (
            "meu Cadastro de Pessoas Físicas 12345678901",
            "12345678901",
            NID,
        ),
        ("The SIN 046 454 286 is on the form", "046 454 286", NID),
        ("AHV-Nummer 756.1234.5678.97", "756.1234.5678.97", NID),
        ("numéro AVS 756.1234.5678.97", "756.1234.5678.97", NID),
        ("isikukood 38001085718", "38001085718", NID),
        ("kennitala: 120174-3399", "120174-3399", NID),
        ("asmens kodas 38703181745", "38703181745", NID),
        ("EMŠO 0101006500006", "0101006500006", NID),
        ("RČ 736028/5163", "736028/5163", NID),
        (
            "Steueridentifikationsnummer 86095742719",
            "86095742719",
            PsdKind::TaxId,
        ),
        ("IRD number 49-091-850", "49-091-850", PsdKind::TaxId),
        ("ת.ז. 22406338-8", "22406338-8", NID),
    ] {
        assert_eq!(plain(text), [(value, kind)], "{text}");
    }
}

#[test]
fn acronyms_that_are_words_count_only_in_capitals() {
    // Spanish "sin", Portuguese "nas": not labels in lower or title case.
    for text in [
        "Sin 48213 problemas",
        "sin 48213 dudas",
        "nas 48213 lojas",
        "avs 48213 total",
    ] {
        assert!(plain(text).is_empty(), "{text}: {:?}", plain(text));
    }
    assert_eq!(plain("sin: 046454286"), [("046454286", NID)]);
}

#[test]
fn dates_years_amounts_and_versions_are_not_ids() {
    for s in [
        "member since 2019",
        "policy updated 2024-05-06",
        "account balance 1249.50",
        "claim filed 12/03/2024",
        "policy v2.3.1 released",
        "account created 06.05.2024",
        "member id",
        "a member of 1200 clubs",
        "my account has 3 cards",
        "SELECT * FROM t WHERE member_id = 4821",
        "see https://www.rfc-editor.org/rfc/rfc3339",
        "learn cpr 20251 course",
    ] {
        assert!(plain(s).is_empty(), "{s}: {:?}", plain(s));
    }
}

#[test]
fn field_keys_name_the_whole_value() {
    let f = Field {
        path: "/member_id",
        key: Some("memberId"),
        description: None,
        dictated: false,
    };
    assert_eq!(spans("  XQ-5520-88 ", &f), [("XQ-5520-88", ACC)]);
    let f = Field {
        path: "/case_number",
        key: Some("case_number"),
        description: Some("Support ticket case"),
        dictated: false,
    };
    assert!(spans("00912345", &f).is_empty());
    let f = Field {
        path: "/visaNumber",
        key: Some("visaNumber"),
        description: None,
        dictated: false,
    };
    assert!(spans("text", &f).is_empty());
    // A national number's own acronym or name as the key.
    for key in ["cnp", "aadhaarNumber", "emirates_id", "tckn"] {
        let f = Field {
            path: "/x",
            key: Some(key),
            description: None,
            dictated: false,
        };
        assert_eq!(
            spans("1850613045127", &f),
            [("1850613045127", NID)],
            "{key}"
        );
    }
}

#[test]
fn tokens_stop_at_words_and_bound_their_length() {
    assert_eq!(id_token("AB-1234 and more", 0), Some(0..7));
    assert_eq!(id_token("12 34 56 78 next", 0), Some(0..11));
    assert_eq!(id_token("1234abc", 0), Some(0..7));
    assert_eq!(id_token("1234é", 0), None);
    let long = "1".repeat(100);
    assert_eq!(id_token(&long, 0), None);
}

#[test]
fn a_bare_role_word_before_the_number() {
    assert_eq!(
        plain("Reported by Dana Fox (employee 48213), who needs leave"),
        [("48213", ACC)]
    );
    assert_eq!(
        plain("Insurance is Aetna, member W7730218841."),
        [("W7730218841", ACC)]
    );
    // Years, counts and words between are not numbers of the role.
    assert!(plain("every member 2024 gets a badge").is_empty());
    assert!(plain("customer Ana ordered 12 units").is_empty());
    assert!(plain("student housing for 300 people").is_empty());
}

#[test]
fn a_bare_id_after_a_person() {
    assert_eq!(
        plain("Staff member: Tove Brandt, ID 0041-882, cannot log in"),
        [("0041-882", ACC)]
    );
    assert_eq!(
        plain("Seen by user lumi.k@example.org (id 55120) on iOS"),
        [("55120", ACC)]
    );
    assert_eq!(plain("Kunde Jan Vos, ID 77881203"), [("77881203", ACC)]);
    // "Member: ID 4471" is one finding, the label's.
    assert_eq!(plain("Member: ID 44718"), [("44718", ACC)]);
    // An ID of a thing, or a person named on another line, is not a person's number.
    assert!(plain("Sentry event id 5120847, build id 20881").is_empty());
    assert!(plain("Order ID 88213 for the customer").is_empty());
    assert!(plain("Ask the user.\nThe job ID 4471 failed").is_empty());
}

#[test]
fn prosecution_and_prison_register_labels() {
    assert_eq!(
        plain("audience fixée (n° parquet 29117004418)"),
        [("29117004418", CRIM)]
    );
    assert_eq!(
        plain("Paket an die JVA, Gef.-Buch-Nr. 2204/31 angeben"),
        [("2204/31", CRIM)]
    );
}

#[test]
fn device_and_turkish_id_labels() {
    assert_eq!(
        plain("Device IMEI 490154203237518."),
        [("490154203237518", ACC)]
    );
    assert_eq!(plain("TC kimlik no: 62601815964"), [("62601815964", NID)]);
}

#[test]
fn last_digits_of_an_ssn() {
    assert_eq!(
        plain("If verification is needed: SSN last four 4417, home address"),
        [("4417", NID)]
    );
}

#[test]
fn health_card_and_military_book_labels() {
    assert_eq!(
        plain("KVNR M204711385 bitte mitbringen"),
        [("M204711385", MED)]
    );
    assert_eq!(plain("з військовим квитком № 310572"), [("310572", NID)]);
    assert_eq!(
        plain("マイナンバーカード（3186 4027 5910）を持参"),
        [("3186 4027 5910", NID)]
    );
}

#[test]
fn national_numbers_of_more_languages_by_their_labels() {
    assert_eq!(plain("СНИЛС 123-456-789"), [("123-456-789", NID)]);
    assert_eq!(
        plain("身份证号 33010219800101123X"),
        [("33010219800101123X", NID)]
    );
    // Taiwan's wording of the same label.
    assert_eq!(
        plain("身分證字號 K221483960，如需再跟我說"),
        [("K221483960", NID)]
    );
    assert_eq!(
        plain("주민등록번호 850101-2345678"),
        [("850101-2345678", NID)]
    );
    assert_eq!(plain("ΑΜΚΑ 12038012345"), [("12038012345", NID)]);
    assert_eq!(plain("CNP 2850101123456"), [("2850101123456", NID)]);
    assert_eq!(plain("NIK: 3171012345678901"), [("3171012345678901", NID)]);
    assert_eq!(plain("số căn cước 079123456789"), [("079123456789", NID)]);
    assert_eq!(plain("taj szám: 111-222-333"), [("111-222-333", MED)]);
    // Whose number it is, between the label and the number.
    assert_eq!(plain("РНОКПП відправника 1234567890").len(), 1);
    assert_eq!(plain("ИНН получателя 500100732259").len(), 1);
    // Lower-case acronyms that are words elsewhere count only as a key.
    assert!(plain("the nik 3171012345678901").is_empty());
    assert_eq!(plain("HKID Z987654(2)").len(), 1);
    assert_eq!(plain("NRIC T7654321B").len(), 1);
    assert_eq!(plain("NIN 70123456789").len(), 1);
    assert_eq!(plain("PAN BQRPK4321L").len(), 1);
    assert_eq!(plain("TFN 876 543 219").len(), 1);
    assert_eq!(plain("teudat zehut 318765432").len(), 1);
    assert!(plain("pan 12345 pieces").is_empty());
}

#[test]
fn insurance_cards_identity_documents_and_glued_keys() {
    assert_eq!(
        plain("Insurance: Zenvia Health ID W55120348, thanks"),
        [("W55120348", ACC)]
    );
    assert_eq!(
        plain("Bring the card. OHIP 5512-339-871-HB."),
        [("5512-339-871-HB", MED)]
    );
    assert_eq!(plain("SVNR 4412 150679 bitte"), [("4412 150679", MED)]);
    assert_eq!(plain("TAJ: 038 415 922."), [("038 415 922", MED)]);
    assert_eq!(
        plain("Ausweis: L4T9KX21R bitte mitnehmen"),
        [("L4T9KX21R", NID)]
    );
    assert_eq!(
        plain("número de la seguridad social es 28 1234567840"),
        [("28 1234567840", NID)]
    );
    assert_eq!(
        plain("voter registration no. TX-4471-2290-18"),
        [("TX-4471-2290-18", NID)]
    );
    assert_eq!(
        plain("sample customer_id=c_77120 failed"),
        [("c_77120", ACC)]
    );
    // Without an insurer or a person before it, a bare "ID" is not a person's.
    assert!(plain("build ID 55120348 passed").is_empty());
    // A word for something else between the label and the digits stops the search.
    assert!(plain("Ta med ausweis and 3 bags").is_empty());
}

#[test]
fn a_number_written_one_character_at_a_time() {
    assert_eq!(
        plain("member ID: W 7 7 2 - 4 1 0 - 9 9 3. Thanks"),
        [("W 7 7 2 - 4 1 0 - 9 9 3", ACC)]
    );
    // Ordinary words after a label are not spaced characters.
    assert!(plain("member ID is a b c here 12").is_empty());
}

#[test]
fn a_remark_in_brackets_or_a_verb_between_label_and_number() {
    assert_eq!(
        plain("Insurance member ID (as on the card): QX5512-0348"),
        [("QX5512-0348", ACC)]
    );
    assert_eq!(
        plain("his member number begins 77120 and that is all"),
        [("77120", ACC)]
    );
    // A bracket holding digits is not passed over.
    assert!(plain("member ID (see 2 pages) XK4402917").is_empty());
}

#[test]
fn a_turkish_number_by_its_short_label() {
    assert_eq!(
        plain("TC numaran 318 240 775 16 ile kayıt yapacaklar"),
        [("318 240 775 16", NID)]
    );
}

#[test]
fn connectors_of_other_languages_reach_the_number() {
    assert_eq!(
        plain("CNP-ul meu este 2990213400127, mulțumesc"),
        [("2990213400127", NID)]
    );
    assert_eq!(
        plain("Mein Personalausweis hat die Nummer T22000129, danke"),
        [("T22000129", NID)]
    );
    assert_eq!(
        plain("Το ΑΦΜ μου είναι 094259216."),
        [("094259216", PsdKind::TaxId)]
    );
    assert_eq!(
        plain("Mijn rijksregisternummer is 90021312345."),
        [("90021312345", NID)]
    );
    assert_eq!(plain("کد ملی من 4608968882 است."), [("4608968882", NID)]);
    assert_eq!(
        plain("Mon numéro étranger est le 9912004417."),
        [("9912004417", NID)]
    );
    // A connector alone is no label: the number after it is not reported.
    assert!(plain("Das Paket hat die Nummer 77120345").is_empty());
    // One word closing the label's phrase with a colon: whose number it is.
    assert_eq!(
        plain("РНОКПП мами: 2960216478, якщо треба"),
        [("2960216478", PsdKind::TaxId)]
    );
    // Two such words are a sentence, not a label.
    assert!(plain("РНОКПП? Не знаю. Посилка: 2960216478").is_empty());
}

#[test]
fn a_company_registration_number_is_no_persons() {
    // Invented numbers with valid check characters: a Chinese enterprise's unified social
    // credit code and a Chilean company RUT are a legal person's, even under a tax label.
    for text in [
        "tax id: 91440300MA5FQ7T2RN",
        "RUT proveedor 77.318.904-8",
        "tax id: 81402557-8",
    ] {
        assert!(plain(text).is_empty(), "{text}: {:?}", plain(text));
    }
    // A person's RUN under the same label, and a code whose check character is off, are.
    assert_eq!(
        plain("RUT 12.345.678-5"),
        [("12.345.678-5", PsdKind::TaxId)]
    );
    assert_eq!(
        plain("tax id: 91440300MA5FQ7T2RM"),
        [("91440300MA5FQ7T2RM", PsdKind::TaxId)]
    );
}

#[test]
fn arabic_identity_labels_without_the_article_and_whose_number() {
    for (text, id) in [
        ("رقم هوية المرسل 2049318576 للشحنة", "2049318576"),
        ("هوية وطنية 2049318576", "2049318576"),
        ("رقم هوية المستلم: 2049318576", "2049318576"),
    ] {
        assert_eq!(plain(text), [(id, NID)], "{text}");
    }
}

#[test]
fn a_value_that_spells_itself_a_stand_in_is_no_id() {
    for text in [
        "employee_id: TEST-0001",
        "account no. DEMO-4471",
        "account no. SAMPLE 61907",
    ] {
        assert!(plain(text).is_empty(), "{text}: {:?}", plain(text));
    }
    assert_eq!(plain("member ID: TSQ-4471"), [("TSQ-4471", ACC)]);
}
