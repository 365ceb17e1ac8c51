use super::*;

fn spans<'a>(text: &'a str, field: &Field<'_>) -> Vec<(&'a str, PsdKind)> {
    let d = Birth::new().unwrap();
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

const DOB: PsdKind = PsdKind::DateOfBirth;

#[test]
fn dates_of_birth_in_running_text() {
    assert_eq!(
        plain("patient DOB 1979-12-01, seen today"),
        [("1979-12-01", DOB)]
    );
    assert_eq!(
        plain("she was born 12 March 1985 in Leeds"),
        [("12 March 1985", DOB)]
    );
    assert_eq!(plain("born on March 12, 1985"), [("March 12, 1985", DOB)]);
    assert_eq!(plain("né le 3 mars 1990 à Lyon"), [("3 mars 1990", DOB)]);
    assert_eq!(plain("Max Muster, geb. 03.04.1988"), [("03.04.1988", DOB)]);
    assert_eq!(
        plain("fecha de nacimiento: 12 de marzo de 1985"),
        [("12 de marzo de 1985", DOB)]
    );
    assert_eq!(
        plain("nato il 5 maggio 1980 a Roma"),
        [("5 maggio 1980", DOB)]
    );
    assert_eq!(
        plain("Geburtsdatum 1. April 1975"),
        [("1. April 1975", DOB)]
    );
    assert_eq!(plain("born in 1985"), [("1985", DOB)]);
}

#[test]
fn whole_value_in_a_birth_field() {
    let f = Field {
        path: "/date_of_birth",
        key: Some("date_of_birth"),
        description: None,
        dictated: false,
    };
    assert_eq!(spans("1979-12-01", &f), [("1979-12-01", DOB)]);
    let f = Field {
        path: "/x",
        key: Some("geburtsdatum"),
        description: None,
        dictated: false,
    };
    assert_eq!(spans("03.04.1988", &f), [("03.04.1988", DOB)]);
    let f = Field {
        path: "/x",
        key: Some("patientDob"),
        description: None,
        dictated: false,
    };
    assert_eq!(spans("12/01/1979", &f), [("12/01/1979", DOB)]);
}

#[test]
fn ages() {
    assert_eq!(plain("male, age 44, smoker"), [("age 44", PsdKind::Age)]);
    assert_eq!(
        plain("a 38-year-old teacher"),
        [("38-year-old", PsdKind::Age)]
    );
    assert_eq!(plain("I am 38 years old"), [("38 years old", PsdKind::Age)]);
    assert_eq!(plain("il a 40 ans."), [("40 ans", PsdKind::Age)]);
    assert_eq!(
        plain("Er ist 44 Jahre alt"),
        [("44 Jahre alt", PsdKind::Age)]
    );
    assert_eq!(plain("tiene 52 años"), [("52 años", PsdKind::Age)]);
    assert_eq!(plain("ho 34 anni"), [("34 anni", PsdKind::Age)]);
    assert_eq!(plain("femme de 44 ans"), [("44 ans", PsdKind::Age)]);
    assert_eq!(
        plain("(pour ma tante Odile Marchal, 78 ans)"),
        [("78 ans", PsdKind::Age)]
    );
    assert_eq!(
        plain("Passeggero Franco Rinaldi, 71 anni, BPCO"),
        [("71 anni", PsdKind::Age)]
    );
    assert_eq!(plain("Patient, 61 J., männlich"), [("61 J.", PsdKind::Age)]);
    assert_eq!(plain("min mor Ingrid, 80 år."), [("80 år", PsdKind::Age)]);
    // Words for "years of age" used for nothing else.
    for (text, age) in [
        ("η γιαγιά μου, 79 χρονών, μένει μόνη", "79 χρονών"),
        ("babam 68 yaşında", "68 yaşında"),
        ("a nagymamám 90 éves", "90 éves"),
        ("isoäiti on 84-vuotias", "84-vuotias"),
        ("bà tôi 77 tuổi", "77 tuổi"),
        ("할아버지는 83세", "83세"),
        ("爷爷今年80岁", "80岁"),
        ("סבתא שלי בת 88", "בת 88"),
        ("mijn opa is 91 jaar oud", "91 jaar oud"),
    ] {
        assert_eq!(plain(text), [(age, PsdKind::Age)], "{text}");
    }
    assert!(plain("3세대 아이폰").is_empty());
    // Children's ages listed, a child's age in brackets, and the writer's age said bare.
    assert_eq!(
        plain("camps for 2 kids ages 7 and 10"),
        [("ages 7 and 10", PsdKind::Age)]
    );
    assert_eq!(
        plain("weil mein Sohn (4) krank ist"),
        [("mein Sohn (4)", PsdKind::Family)]
    );
    assert_eq!(
        plain("I'm 52 and want to retrain"),
        [("I'm 52", PsdKind::Age)]
    );
}

#[test]
fn true_negatives() {
    for s in [
        "meeting 2025-06-09T19:00:00",
        "due 2025-06-11",
        "check-in 12 March 2026",
        "version 2.3.1",
        "ORD-2024-00017",
        "price 40,00 €",
        "at 9:30 and 14:00",
        "in 2024",
        "depuis 10 ans",
        "seit 5 Jahren",
        "hace 3 años",
        "I'm 10 minutes away",
        "I'm 25% done",
        "Table (4) is free",
        "warranty for 2 years",
        "page 12",
        "13/45/2020",
        "calcolo mutuo 150000 euro 20 anni tasso 3,5%",
        "Hypothek 300.000 € 25 Jahre Zinsbindung",
        "prêt immobilier 200000 euros 15 ans",
        "hipoteca 180000 euros 30 años",
        "mutuo 150000 euro, 20 anni, tasso 3,5%",
        "Garantie, 2 Jahre, inklusive",
        // A birth date as a field of data, in code talk.
        "crashes on empty DOB field (regression in 2024.11.05)",
        "birthdate column added in release 2025-03-01",
    ] {
        assert!(plain(s).is_empty(), "{s}: {:?}", plain(s));
    }
}

#[test]
fn japanese_dates_of_birth() {
    assert_eq!(plain("生年月日：1990年5月14日"), [("1990年5月14日", DOB)]);
    assert_eq!(
        plain("利用者（1941年11月3日生、要支援2）"),
        [("1941年11月3日", DOB)]
    );
    assert_eq!(
        plain("昭和52年8月9日生まれの男性"),
        [("昭和52年8月9日", DOB)]
    );
    // Other dates are no birth dates.
    assert!(plain("2025年4月1日から施行").is_empty());
    assert!(plain("発売日：2024年12月6日").is_empty());
}
