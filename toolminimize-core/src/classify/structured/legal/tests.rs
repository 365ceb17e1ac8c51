use super::*;

fn plain(text: &str) -> Vec<(&str, PsdKind)> {
    let d = Legal::new().unwrap();
    let mut out = Vec::new();
    d.detect(text, &Field::default(), &mut out);
    out.sort_by_key(|f| f.span.start);
    out.iter()
        .map(|f| (&text[f.span.clone()], f.kind))
        .collect()
}

const CRIM: PsdKind = PsdKind::CriminalRecord;

#[test]
fn docket_numbers_of_many_courts() {
    assert_eq!(
        plain("docket 2031-CR-004417 set"),
        [("2031-CR-004417", CRIM)]
    );
    assert_eq!(plain("see 2029CF008812 today"), [("2029CF008812", CRIM)]);
    assert_eq!(
        plain("order FL-2030-01187 (final)"),
        [("FL-2030-01187", CRIM)]
    );
    assert_eq!(plain("USA filing 1:29-cr-00412"), [("1:29-cr-00412", CRIM)]);
}

#[test]
fn register_numbers_need_a_court() {
    assert_eq!(
        plain("Termin beim Amtsgericht (Az. 12 Ds 301/29)"),
        [("12 Ds 301/29", CRIM)]
    );
    assert_eq!(
        plain("ante el Juzgado n.º 2 (P.A. 518/2029)"),
        [("P.A. 518/2029", CRIM)]
    );
    assert_eq!(
        plain("rozprawa w sądzie, sygn. akt II K 77/29"),
        [("II K 77/29", CRIM)]
    );
    assert_eq!(
        plain("el expediente 4418/2029 sigue"),
        [("4418/2029", CRIM)]
    );
    // A full stop that ends the sentence is no part of the number; a decimal is.
    assert_eq!(
        plain("Zgodnie z postanowieniem sądu, sygn. akt III Nsm 41/29."),
        [("III Nsm 41/29", CRIM)]
    );
    assert!(plain("sąd: wynik 12/23.4 punktu").is_empty());
    // No court: a ratio, a page or a month/year.
    assert!(plain("Page 12/24 of the Q 3/2029 report").is_empty());
    assert!(plain("court date moved from 05/2029").is_empty());
}

#[test]
fn case_captions() {
    assert_eq!(
        plain("hearing in People v. Dana Reyes"),
        [("People v. Dana Reyes", CRIM)]
    );
    assert_eq!(plain("cite R v Okafor [2029]"), [("R v Okafor", CRIM)]);
    assert_eq!(
        plain("State of Ohio v. Brandt"),
        [("State of Ohio v. Brandt", CRIM)]
    );
    assert_eq!(
        plain("per court order (Lindqvist v. Lindqvist)"),
        [("Lindqvist v. Lindqvist", CRIM)]
    );
    // Fixtures and comparisons are no captions.
    assert!(plain("Arsenal v Chelsea kicks off at 3").is_empty());
    assert!(plain("Lakers vs. Celtics tonight").is_empty());
    assert!(plain("Python v3 vs Rust").is_empty());
}

#[test]
fn immigration_numbers() {
    assert_eq!(
        plain("my A-number A-301-554-982"),
        [("A-301-554-982", PsdKind::NationalId)]
    );
    assert_eq!(
        plain("receipt EAC2990123456 arrived"),
        [("EAC2990123456", PsdKind::NationalId)]
    );
}

#[test]
fn immigration_forms_where_the_text_speaks_of_immigration() {
    assert_eq!(
        plain("reason=asylum medical exam (I-589 evidence)"),
        [("I-589", PsdKind::EthnicOrigin)]
    );
    assert_eq!(
        plain("filed the N-400 for citizenship"),
        [("N-400", PsdKind::EthnicOrigin)]
    );
    assert!(plain("traffic on I-405 near Bellevue").is_empty());
}

#[test]
fn code_and_products_are_not_dockets() {
    for s in [
        "resolution 1920x1080 at 60Hz",
        "SKU 2024-XL-000123 in stock",
        "build 2029-05-06-1200 passed",
        "see RFC 7231/2616 for details",
        "ratio 16/9 and 4/3",
    ] {
        assert!(plain(s).is_empty(), "{s}: {:?}", plain(s));
    }
}

#[test]
fn docket_codes_before_a_four_digit_year() {
    assert_eq!(
        plain("support order, county case FC2031-008812 applies"),
        [("FC2031-008812", CRIM)]
    );
    // A code and a short number are not a docket.
    assert!(plain("model CR2031 and FC20-1").is_empty());
}

#[test]
fn brazilian_case_numbers_by_check_digits() {
    assert_eq!(
        plain("processo nº 0004217-67.2029.8.26.0100 em curso"),
        [("0004217-67.2029.8.26.0100", CRIM)]
    );
    // Wrong check digits: a version string or a part number.
    assert!(plain("build 0004217-12.2029.8.26.0100").is_empty());
}
