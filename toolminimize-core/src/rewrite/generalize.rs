//! Generalization: coordinates to about a kilometre, dates of birth to the year, ages to
//! decades, exact dates to the month.

/// Truncates a coordinate to two decimals (about 1.1 km): enough for a forecast or a place
/// search, too coarse for a home. Truncation, not rounding, keeps the leading digits.
pub fn coordinate(v: f64) -> f64 {
    if !v.is_finite() {
        return 0.0;
    }
    (v * 100.0).trunc() / 100.0
}

/// Generalizes every decimal number with three or more decimals in a text (in-text
/// coordinates) to two decimals.
pub fn coordinates_in_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < s.len() {
        let c = bytes.get(i).copied().unwrap_or(0);
        if c.is_ascii_digit()
            && (i == 0
                || !bytes
                    .get(i - 1)
                    .is_some_and(|b| b.is_ascii_digit() || *b == b'.'))
        {
            let mut j = i;
            while bytes.get(j).is_some_and(u8::is_ascii_digit) {
                j += 1;
            }
            if bytes.get(j) == Some(&b'.') {
                let mut k = j + 1;
                while bytes.get(k).is_some_and(u8::is_ascii_digit) {
                    k += 1;
                }
                if k - j > 3 {
                    out.push_str(s.get(i..(j + 3)).unwrap_or_default());
                    i = k;
                    continue;
                }
            }
            out.push_str(s.get(i..j).unwrap_or_default());
            i = j;
            continue;
        }
        let ch = s.get(i..).and_then(|t| t.chars().next()).unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8().max(1);
    }
    out
}

/// The year in a date text: a four-digit 19xx/20xx, or a two-digit year at the end of a
/// numeric date (`12/03/85` → 1985).
pub fn year_of(s: &str) -> Option<String> {
    let digits: Vec<(usize, &str)> = s
        .split(|c: char| !c.is_ascii_digit())
        .scan(0usize, |_, w| Some(w))
        .filter(|w| !w.is_empty())
        .enumerate()
        .collect();
    if let Some((_, y)) = digits
        .iter()
        .find(|(_, w)| w.len() == 4 && (w.starts_with("19") || w.starts_with("20")))
    {
        return Some((*y).to_owned());
    }
    if let Some((_, y)) = digits
        .last()
        .filter(|(_, w)| w.len() == 2 && digits.len() == 3)
    {
        let n: u32 = y.parse().ok()?;
        return Some(format!("{}", if n > 30 { 1900 + n } else { 2000 + n }));
    }
    None
}

/// The decade of the first number in an age text (`44` → `40s`).
pub fn decade_of(s: &str) -> Option<String> {
    let n: u32 = s
        .split(|c: char| !c.is_ascii_digit())
        .find(|w| !w.is_empty())?
        .parse()
        .ok()?;
    if n > 130 {
        return None;
    }
    Some(format!("{}s", n / 10 * 10))
}

/// A card number as its last four digits ("4539 1488 0343 6467" → "ending 6467"); full-width
/// digits count as digits. `None` with fewer than eight digits (nothing to shorten).
pub fn card_last_four(s: &str) -> Option<String> {
    let digits: Vec<char> = s
        .chars()
        .filter_map(|c| match c {
            '0'..='9' => Some(c),
            '０'..='９' => char::from_u32(u32::from(c) - u32::from('０') + u32::from('0')),
            _ => None,
        })
        .collect();
    if digits.len() < 8 {
        return None;
    }
    let last: String = digits.get(digits.len() - 4..)?.iter().collect();
    Some(format!("ending {last}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_numbers_keep_their_last_four_digits() {
        use crate::rewrite::generalize::card_last_four;
        assert_eq!(
            card_last_four("4916 5260 1815 9086").as_deref(),
            Some("ending 9086")
        );
        assert_eq!(
            card_last_four("４９１６ ５２６０ １８１５ ９０８６").as_deref(),
            Some("ending 9086")
        );
        assert_eq!(card_last_four("731"), None);
    }

    #[test]
    fn coordinates_years_and_decades() {
        use crate::rewrite::generalize::{coordinate, decade_of, year_of};
        assert_eq!(coordinate(37.774929), 37.77);
        assert_eq!(coordinate(-122.419416), -122.41);
        assert_eq!(year_of("DOB 1987-02-09").as_deref(), Some("1987"));
        assert_eq!(year_of("12/03/85").as_deref(), Some("1985"));
        assert_eq!(decade_of("age 44").as_deref(), Some("40s"));
    }

    #[test]
    fn in_text_coordinates_lose_precision_but_keep_their_shape() {
        assert_eq!(
            coordinates_in_text("37.774929, -122.419416"),
            "37.77, -122.41"
        );
        assert_eq!(
            coordinates_in_text("v2.3.1 costs 4.50"),
            "v2.3.1 costs 4.50"
        );
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        assert_eq!(coordinate(f64::NAN), 0.0);
        assert_eq!(year_of("no date"), None);
        assert_eq!(decade_of("age 400"), None);
        assert_eq!(coordinates_in_text("é1.2345é"), "é1.23é");
    }
}
