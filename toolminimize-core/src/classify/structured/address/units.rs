//! The flat, floor, entrance, staircase or block written right after a street address, in the
//! languages of libpostal's address dictionaries: "ul. Polna 14 m. 6", "Str. Lungă 23, bl. A4,
//! ap. 12", "Lindelaan 45 bus 3", "Lale Sokak No: 17 D:4", "Jl. Melati No. 8 RT 03/RW 05",
//! "Kossuth utca 12. 3/4" (floor and door), and a staircase letter with its flat number
//! and no word before them, as Finnish and Swedish addresses write it ("Mannerheimintie 14 B
//! 22").
//!
//! The words come from `data/address/units.tsv` (built by `data/address/build/units.py`). A
//! word of three letters or fewer, and a function word of a language, counts only with a `.` or
//! `:` after it ("m. 6", "D:4"): "at", "in" and "o" abbreviate a unit in one language and are
//! everyday words in another.

use std::sync::LazyLock;

use crate::classify::pattern::LazyRegex as Regex;

/// `lang<TAB>kind<TAB>word<TAB>dot`, one word a line.
const UNITS: &str = include_str!("../../../../data/address/units.tsv");

/// One or more units right after the end of an address (anchored at the start of the rest).
static TAIL: LazyLock<Regex> = LazyLock::new(|| Regex::new("address unit", tail(UNITS), None));

/// The pattern of the units after an address, from the word list.
fn tail(table: &str) -> String {
    let mut bare: Vec<&str> = Vec::new();
    let mut dotted: Vec<&str> = Vec::new();
    for line in table.lines().filter(|l| !l.starts_with('#')) {
        let mut cols = line.split('\t');
        let (Some(_lang), Some(_kind), Some(word), Some(dot)) =
            (cols.next(), cols.next(), cols.next(), cols.next())
        else {
            continue;
        };
        let word = word.trim_end_matches('.');
        if word.is_empty() {
            continue;
        }
        if dot == "dot" {
            dotted.push(word);
        } else {
            bare.push(word);
        }
    }
    let alternation = |words: &mut Vec<&str>| {
        words.sort_by_key(|w| std::cmp::Reverse(w.len()));
        words.dedup();
        words
            .iter()
            .map(|w| regex::escape(w).replace(' ', r"\s"))
            .collect::<Vec<_>>()
            .join("|")
    };
    let bare = alternation(&mut bare);
    let dotted = alternation(&mut dotted);
    // Singapore and Malaysia write the floor and unit after a hash ("#08-226"), and a street
    // of a new town its number after the street's type ("Tampines St 41 #08-226").
    let sg = r"|(?:\s\d{1,3})?(?:\s*,\s*|\s+)#\s?\d{1,3}-\d{1,5}(?-u:\b)";
    // A unit's number or letter: "6", "12a", "A4", "B", "3/4", "№ 5".
    let value = r"(?:№\s?|#\s?)?(?:\d{1,4}[\p{L}]?(?:[-/]\d{1,4}[\p{L}]?)?|\p{Lu}\d{0,3})(?-u:\b)";
    format!(
        r"^(?:\.\s?\d{{1,2}}/\d{{1,3}}(?-u:\b))?(?:(?:\s*,\s*|\s+)(?:(?i:{bare})(?:\.\s*|:\s*|\s+)|(?i:{dotted})[.:]\s*)(?:[:.]\s*)?{value}|(?:\s*,\s*|\s+)RT\.?\s?\d{{1,3}}\s?/\s?RW\.?\s?\d{{1,3}}(?-u:\b)|\s\p{{Lu}}\s\d{{1,3}}(?-u:\b){sg})*"
    )
}

/// Creates the units pattern, so that the warm-up that follows compiles it and derives what
/// its matches need: created on first use instead, after the warm-up, it would read its
/// syntax tree again (a large alternation of every unit word) after some searches, in the
/// middle of a call.
pub(super) fn warm_up() {
    LazyLock::force(&TAIL);
}

/// Where the units written right after an address ending at `end` end (`end` when none is).
pub(super) fn after(text: &str, end: usize) -> usize {
    let Some(rest) = text.get(end..) else {
        return end;
    };
    if rest.is_empty() {
        return end;
    }
    // "Mannerheimintie 14 B 22": the street's pattern took the staircase letter with the
    // house; read from the space before the letter, the units take the flat's number too.
    let before = text.get(..end).unwrap_or_default();
    let mut last = before.chars().rev();
    if let (Some(letter), Some(' '), Some(digit)) = (last.next(), last.next(), last.next())
        && letter.is_uppercase()
        && digit.is_ascii_digit()
    {
        let from = end - letter.len_utf8() - 1;
        if let Some(m) = text.get(from..).and_then(|r| TAIL.find(r))
            && from + m.end() > end
        {
            return from + m.end();
        }
    }
    TAIL.find(rest).map_or(end, |m| end + m.end())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The units after the address that ends with `address` in `text`.
    fn tail_of<'t>(text: &'t str, address: &str) -> &'t str {
        let end = text.find(address).unwrap() + address.len();
        &text[end..after(text, end)]
    }

    #[test]
    fn units_after_an_address_in_several_languages() {
        assert_eq!(
            tail_of("ul. Polna 14 m. 6, 00-625 Warszawa", "ul. Polna 14"),
            " m. 6"
        );
        assert_eq!(
            tail_of("Str. Lungă 23, bl. A4, ap. 12 și", "Lungă 23"),
            ", bl. A4, ap. 12"
        );
        assert_eq!(
            tail_of("Lindelaan 45 bus 3, Gent", "Lindelaan 45"),
            " bus 3"
        );
        assert_eq!(tail_of("Lale Sokak No: 17 D:4 adresinde", "No: 17"), " D:4");
        assert_eq!(tail_of("Zeytin Caddesi No:88 Daire 3", "No:88"), " Daire 3");
        assert_eq!(tail_of("Садовая 8, кв. 212", "Садовая 8"), ", кв. 212");
        assert_eq!(
            tail_of("Jl. Melati No. 8 RT 03/RW 05", "No. 8"),
            " RT 03/RW 05"
        );
        assert_eq!(tail_of("Kossuth utca 12. 3/4 alatt", "utca 12"), ". 3/4");
        assert_eq!(tail_of("12 Main St, Apt 4B", "Main St"), ", Apt 4B");
        assert_eq!(
            tail_of("Hämeenkatu 7 B 22, 33100 Tampere", "Hämeenkatu 7"),
            " B 22"
        );
        assert_eq!(
            tail_of("Hämeenkatu 7 B 22, 33100 Tampere", "Hämeenkatu 7 B"),
            " 22"
        );
        assert_eq!(
            tail_of("Blk 305 Bedok St 31 #04-112, Singapore", "Bedok St"),
            " 31 #04-112"
        );
        assert_eq!(
            tail_of("88 Jalan Ipoh, #12-03 today", "Jalan Ipoh"),
            ", #12-03"
        );
        // A street number alone after the street's type is no unit.
        assert_eq!(tail_of("12 Main St 5 times", "Main St"), "");
    }

    #[test]
    fn everyday_words_are_no_units() {
        // "at", "in", "o" name units in some language; without a dot they are words here.
        assert_eq!(tail_of("12 Main St at 5pm", "Main St"), "");
        assert_eq!(tail_of("12 Main St in 5 minutes", "Main St"), "");
        assert_eq!(tail_of("Calle Mayor 5 o 6", "Mayor 5"), "");
        assert_eq!(tail_of("12 Main St, business 5", "Main St"), "");
        assert_eq!(tail_of("12 Main St", "Main St"), "");
        // A capital letter alone is no staircase without its number.
        assert_eq!(tail_of("Hämeenkatu 7 B, Tampere", "Hämeenkatu 7"), "");
    }

    #[test]
    fn the_table_is_read() {
        let words = UNITS.lines().filter(|l| !l.starts_with('#')).count();
        assert!(words > 500, "{words}");
        assert!(tail(UNITS).len() > 1000);
    }
}
