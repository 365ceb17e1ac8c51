//! Values that documentation publishes as examples: the placeholder names of forms and
//! fixtures ("Jane Doe", "Max Mustermann"), the test card numbers of card networks and payment
//! providers and the example IBANs of the IBAN registry. They belong to nobody, and
//! a fixture, a tutorial or a bug report needs them as written.
//!
//! Sources: the placeholder-name conventions of each country (John/Jane Doe and Richard Roe in
//! US law, Joe Bloggs in the UK, Max and Erika Mustermann on German specimen documents, Ola and
//! Kari Nordmann in Norway, Matti and Maija Meikäläinen in Finland, Jan Modaal in the
//! Netherlands, Fulano de Tal in Spanish and Portuguese); the test card numbers published in
//! the testing documentation of Stripe, Adyen and Braintree (every one passes the Luhn check);
//! the examples of the SWIFT IBAN registry and of ECBS EBS204 (`GB82 WEST 1234 5698 7654
//! 32`), each checked with its ISO 7064 check digits. The specimen US social security numbers
//! are not listed: the project's own tests use one as the number to protect.

/// Placeholder people, folded to lower-case letters only ("jane.doe", "Jane Doe" and
/// "jane_doe" all read `janedoe`).
const PEOPLE: &[&str] = &[
    "johndoe",
    "janedoe",
    "babydoe",
    "richardroe",
    "janeroe",
    "joebloggs",
    "fredbloggs",
    "maxmustermann",
    "erikamustermann",
    "ottonormalverbraucher",
    "olanordmann",
    "karinordmann",
    "mattimeikalainen",
    "maijameikalainen",
    "janmodaal",
    "fulanodetal",
];

/// Test card numbers (digits only).
const CARDS: &[&str] = &[
    "4242424242424242",
    "4000056655665556",
    "4000000000000002",
    "4111111111111111",
    "4012888888881881",
    "5555555555554444",
    "5200828282828210",
    "5105105105105100",
    "2223003122003222",
    "378282246310005",
    "371449635398431",
    "6011111111111117",
    "6011000990139424",
    "3530111333300000",
    "3566002020360505",
    "30569309025904",
    "38520000023237",
];

/// Example IBANs (upper case, no spaces).
const IBANS: &[&str] = &[
    "GB82WEST12345698765432",
    "GB29NWBK60161331926819",
    "DE89370400440532013000",
    "FR1420041010050500013M02606",
    "NL91ABNA0417164300",
    "CH9300762011623852957",
    "AT611904300234573201",
    "ES9121000418450200051332",
    "IT60X0542811101000000123456",
];

/// Words of a placeholder address ("123 Main St, Anytown"; "Musterstraße 1, Musterstadt").
const PLACES: &[&str] = &[
    "anytown",
    "anycity",
    "musterstadt",
    "musterstrasse",
    "musterstraße",
];

/// `s` folded as the lexicons fold text ([`super::fold::fold_term`]: lower case, no accents),
/// its letters only.
fn letters(s: &str) -> String {
    super::fold::fold_term(s)
        .chars()
        .filter(|c| c.is_alphabetic())
        .collect()
}

/// `s` with everything but ASCII letters and digits dropped, letters upper-cased.
fn alphanumerics(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// Whether `s` names a placeholder person: "Jane Doe", "max.mustermann", "JOE BLOGGS".
pub fn is_placeholder_person(s: &str) -> bool {
    let l = letters(s);
    PEOPLE.contains(&l.as_str())
}

/// Whether `s`, read as digits, is a published test card number.
pub fn is_test_card(s: &str) -> bool {
    CARDS.contains(&alphanumerics(s).as_str())
}

/// Whether `s` is an example IBAN of the registry.
pub fn is_example_iban(s: &str) -> bool {
    IBANS.contains(&alphanumerics(s).as_str())
}

/// Whether `s` holds a placeholder town or street ("Anytown", "Musterstraße").
pub fn names_placeholder_place(s: &str) -> bool {
    let lower = s.to_lowercase();
    PLACES.iter().any(|p| lower.contains(p))
}

/// Whether the text `s` names a placeholder person anywhere, as two words ("Jane Doe") or
/// joined in an address ("jane.doe@"). Linear in `s`: each word is read with the one or two
/// before it.
pub fn mentions_placeholder_person(s: &str) -> bool {
    let mut before: [&str; 2] = ["", ""];
    for w in s
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
    {
        let [a, b] = before;
        if !b.is_empty() && is_placeholder_person(&[b, w].concat()) {
            return true;
        }
        if !a.is_empty() && is_placeholder_person(&[a, b, w].concat()) {
            return true;
        }
        before = [b, w];
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_in_their_written_forms() {
        assert!(is_placeholder_person("Jane Doe"));
        assert!(is_placeholder_person("max.mustermann"));
        assert!(is_placeholder_person("Matti Meikäläinen"));
        assert!(!is_placeholder_person("Jane Dobson"));
        assert!(is_test_card("4242 4242 4242 4242"));
        assert!(!is_test_card("4242 4242 4242 4243"));
        assert!(is_example_iban("GB82 WEST 1234 5698 7654 32"));
        assert!(names_placeholder_place("123 Main St, Anytown"));
    }

    #[test]
    fn a_text_that_names_a_placeholder_person() {
        assert!(mentions_placeholder_person(
            r#"{"name": "Erika Mustermann", "city": "Köln"}"#
        ));
        assert!(mentions_placeholder_person("write to jane.doe@example.org"));
        assert!(mentions_placeholder_person(
            "Fulano de Tal, RG 00.000.000-0"
        ));
        assert!(!mentions_placeholder_person(
            "Jane met Doe Street residents"
        ));
    }
}
