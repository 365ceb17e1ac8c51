//! GPS coordinates: decimal pairs in text (`37.7749, -122.4194`), degrees-minutes-seconds
//! (`48°51′24″N 2°21′03″E`), `geo:` URIs, single values in a latitude/longitude field, and
//! numeric latitude/longitude pairs in objects, and `lat=`/`lon=` parameters of a URL or query
//! string. Values need at least three decimals (about
//! 100 m) to count as precise.

use crate::classify::pattern::LazyRegex as Regex;
use serde_json::Number;

use crate::args::Members;

use super::context::{char_at, char_before, regex};
use crate::classify::{Detector, Field};
use crate::error::Error;
use crate::item::{Finding, PsdKind};

/// Property names holding a latitude.
const LAT_KEYS: &[&str] = &["lat", "latitude", "y_lat", "geo_lat", "lat_deg"];
/// Property names holding a longitude.
const LON_KEYS: &[&str] = &[
    "lon",
    "lng",
    "long",
    "longitude",
    "x_lon",
    "geo_lng",
    "geo_lon",
    "lon_deg",
];

/// Finds coordinates in strings.
#[derive(Debug)]
pub(super) struct Coordinates {
    pair: Regex,
    dms: Regex,
    single: Regex,
    param: Regex,
}

impl Coordinates {
    pub(super) fn new() -> Result<Self, Error> {
        Ok(Coordinates {
            pair: regex(
                "coordinates",
                r"(-?\d{1,2}\.\d{3,})\s*[,;/ ]\s*(-?\d{1,3}\.\d{3,})",
            )?,
            dms: regex(
                "coordinates",
                r#"\d{1,2}\s?°\s?\d{1,2}\s?['′]\s?(?:\d{1,2}(?:[.,]\d+)?\s?(?:["″]|''|′′)\s?)?[NSns]\s*,?\s*\d{1,3}\s?°\s?\d{1,2}\s?['′]\s?(?:\d{1,2}(?:[.,]\d+)?\s?(?:["″]|''|′′)\s?)?[EWOewo]"#,
            )?,
            single: regex("coordinates", r"^\s*-?\d{1,3}\.\d{3,}\s*$")?,
            // `?lat=48.137154&lon=11.576124` in a URL or query string.
            param: regex(
                "coordinates",
                r"(?i)(?:^|[?&;])(?:lat|latitude|lon|lng|long|longitude)=(-?\d{1,3}\.\d{3,})",
            )?,
        })
    }
}

fn in_range(lat: &str, lon: &str) -> bool {
    matches!((lat.parse::<f64>(), lon.parse::<f64>()), (Ok(a), Ok(o)) if a.abs() <= 90.0 && o.abs() <= 180.0)
}

fn key_is(key: &str, list: &[&str]) -> bool {
    list.iter().any(|w| {
        if key.eq_ignore_ascii_case(w) {
            return true;
        }
        // The last word of `user_lat`, `pickup.lng`, `homeLatitude`.
        let Some(cut) = key.len().checked_sub(w.len()) else {
            return false;
        };
        let (Some(head), Some(tail)) = (key.get(..cut), key.get(cut..)) else {
            return false;
        };
        if !tail.eq_ignore_ascii_case(w) {
            return false;
        }
        let prev = head.chars().next_back();
        let first = tail.chars().next();
        prev.is_some_and(|c| matches!(c, '_' | '-' | '.' | ' '))
            || (prev.is_some_and(char::is_lowercase) && first.is_some_and(char::is_uppercase))
    })
}

/// Decimal places of a JSON number's text.
fn decimals(n: &Number) -> usize {
    let s = n.to_string();
    let mantissa = s.split(['e', 'E']).next().unwrap_or("");
    mantissa.split_once('.').map_or(0, |(_, d)| d.len())
}

impl crate::classify::shared::Gate for Coordinates {
    fn may_find(text: &str, _field: &Field<'_>) -> bool {
        super::context::has_byte(text, b'.') || (!text.is_ascii() && text.contains('°'))
    }
}

impl Detector for Coordinates {
    fn name(&self) -> &'static str {
        "coordinates"
    }

    fn detect(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) {
        if !text.contains('.') && (text.is_ascii() || !text.contains('°')) {
            return;
        }
        if !text.is_ascii() && text.contains('°') {
            for m in self.dms.find_iter(text) {
                out.push(Finding::new(
                    m.range(),
                    PsdKind::Coordinates,
                    0.95,
                    "coordinates",
                ));
            }
        }
        for c in self.pair.captures_iter(text) {
            let (Some(m), Some(lat), Some(lon)) = (c.get(0), c.get(1), c.get(2)) else {
                continue;
            };
            let bad = |ch: Option<char>| ch.is_some_and(|c| c.is_alphanumeric() || c == '.');
            if bad(char_before(text, m.start())) || bad(char_at(text, m.end())) {
                continue;
            }
            // Two numbers of a longer comma-separated row (a vector, a series) are no
            // position.
            let row_after = text
                .get(m.end()..)
                .and_then(|t| t.trim_start().strip_prefix(','))
                .is_some_and(|t| {
                    t.trim_start()
                        .starts_with(|c: char| c.is_ascii_digit() || c == '-')
                });
            let row_before = text
                .get(..m.start())
                .and_then(|t| t.trim_end().strip_suffix(','))
                .is_some_and(|t| t.trim_end().ends_with(|c: char| c.is_ascii_digit()));
            if row_after || row_before {
                continue;
            }
            if in_range(lat.as_str(), lon.as_str()) {
                let conf = if text.get(..m.start()).is_some_and(|t| t.ends_with("geo:")) {
                    0.98
                } else {
                    0.9
                };
                out.push(Finding::new(
                    m.range(),
                    PsdKind::Coordinates,
                    conf,
                    "coordinates",
                ));
            }
        }
        if text.contains('=') {
            for c in self.param.captures_iter(text) {
                let Some(v) = c.get(1) else { continue };
                let ends = char_at(text, v.end()).is_none_or(|ch| matches!(ch, '&' | ';' | '#'));
                if ends && v.as_str().parse::<f64>().is_ok_and(|x| x.abs() <= 180.0) {
                    out.push(Finding::new(
                        v.range(),
                        PsdKind::Coordinates,
                        0.9,
                        "coordinates",
                    ));
                }
            }
        }
        if let Some(key) = field.key {
            let lat = key_is(key, LAT_KEYS);
            if (lat || key_is(key, LON_KEYS)) && self.single.is_match(text) {
                let t = text.trim();
                let limit = if lat { 90.0 } else { 180.0 };
                if t.parse::<f64>().is_ok_and(|v| v.abs() <= limit) {
                    let start = text.len() - text.trim_start().len();
                    out.push(Finding::new(
                        start..start + t.len(),
                        PsdKind::Coordinates,
                        0.9,
                        "coordinates",
                    ));
                }
            }
        }
    }
}

/// Numeric latitude/longitude pairs in one object.
pub(crate) fn numeric_findings(obj: Members<'_>) -> Vec<(String, Finding)> {
    let mut lat: Option<(&str, Number)> = None;
    let mut lon: Option<(&str, Number)> = None;
    for (k, v) in obj {
        if let Some(n) = v.as_number() {
            if lat.is_none() && key_is(k, LAT_KEYS) {
                lat = n.to_number().map(|n| (k, n));
            } else if lon.is_none() && key_is(k, LON_KEYS) {
                lon = n.to_number().map(|n| (k, n));
            }
        }
    }
    let (Some((lk, ln)), Some((ok, on))) = (lat, lon) else {
        return Vec::new();
    };
    let (ln, on) = (&ln, &on);
    let (Some(a), Some(o)) = (ln.as_f64(), on.as_f64()) else {
        return Vec::new();
    };
    if a.abs() > 90.0 || o.abs() > 180.0 || decimals(ln) < 3 || decimals(on) < 3 {
        return Vec::new();
    }
    let finding = |n: &Number| {
        Finding::new(
            0..n.to_string().len(),
            PsdKind::Coordinates,
            0.9,
            "coordinates",
        )
    };
    vec![(lk.to_owned(), finding(ln)), (ok.to_owned(), finding(on))]
}

/// Words of a property name that holds a position as a two-number array (`start_latlng`,
/// `coordinates`, `location`, `center`): GeoJSON and most map and fitness APIs write a point so.
const PAIR_KEY_WORDS: &[&str] = &[
    "latlng", "latlon", "lat_lng", "lat_lon", "lnglat", "lonlat", "coord", "geo", "position",
    "location", "point", "center", "centre", "gps",
];

/// A two-number array under a position-like property name whose numbers read as a latitude and
/// a longitude (in either order, as GeoJSON puts the longitude first), each with at least three
/// decimals: one finding an element, its span covering the whole number.
pub(crate) fn numeric_pair_findings(key: &str, arr: crate::args::Elements<'_>) -> Vec<Finding> {
    if arr.len() != 2 {
        return Vec::new();
    }
    let lower = key.to_ascii_lowercase();
    if !PAIR_KEY_WORDS.iter().any(|w| lower.contains(w)) {
        return Vec::new();
    }
    let mut numbers = arr.filter_map(|a| a.as_number().and_then(|n| n.to_number()));
    let (Some(x), Some(y)) = (numbers.next(), numbers.next()) else {
        return Vec::new();
    };
    let (Some(a), Some(b)) = (x.as_f64(), y.as_f64()) else {
        return Vec::new();
    };
    let plausible = (a.abs() <= 90.0 && b.abs() <= 180.0) || (a.abs() <= 180.0 && b.abs() <= 90.0);
    if !plausible || decimals(&x) < 3 || decimals(&y) < 3 {
        return Vec::new();
    }
    [x, y]
        .iter()
        .map(|n| {
            Finding::new(
                0..n.to_string().len(),
                PsdKind::Coordinates,
                0.9,
                "coordinates",
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn spans<'a>(text: &'a str, field: &Field<'_>) -> Vec<&'a str> {
        let d = Coordinates::new().unwrap();
        let mut out = Vec::new();
        d.detect(text, field, &mut out);
        out.iter().map(|f| &text[f.span.clone()]).collect()
    }

    #[test]
    fn coordinates_in_text() {
        let none = Field::default();
        assert_eq!(
            spans("meet at 37.7749, -122.4194 ok", &none),
            ["37.7749, -122.4194"]
        );
        assert_eq!(spans("geo:48.8584,2.2945", &none), ["48.8584,2.2945"]);
        // Two numbers of a longer row are no position.
        assert!(spans("v:0.0817,-0.2214,0.1533,0.0472", &none).is_empty());
        assert_eq!(
            spans("48°51′24″N 2°21′03″E", &none),
            ["48°51′24″N 2°21′03″E"]
        );
        assert_eq!(
            spans("40°26'46\"N, 79°58'56\"W", &none),
            ["40°26'46\"N, 79°58'56\"W"]
        );
        let f = Field {
            path: "/lat",
            key: Some("latitude"),
            description: None,
            dictated: false,
        };
        assert_eq!(spans("41.902782", &f), ["41.902782"]);
    }

    #[test]
    fn two_number_arrays_under_a_position_key() {
        let found = |key: &str, v: serde_json::Value| {
            numeric_pair_findings(key, crate::args::Arg::from(&v).elements().unwrap()).len()
        };
        assert_eq!(found("start_latlng", json!([37.76102, -122.43517])), 2);
        // GeoJSON puts the longitude first.
        assert_eq!(found("coordinates", json!([-122.43517, 37.76102])), 2);
        // Coarse values, other names, other lengths and out-of-range numbers are not a position.
        assert_eq!(found("start_latlng", json!([37.76, -122.43])), 0);
        assert_eq!(found("scores", json!([37.76102, -122.43517])), 0);
        assert_eq!(found("location", json!([37.76102, -122.43517, 12.5])), 0);
        assert_eq!(found("point", json!([137.76102, 122.43517])), 0);
    }

    #[test]
    fn latitude_and_longitude_parameters() {
        let none = Field::default();
        assert_eq!(
            spans(
                "https://w.example/v1?latitude=59.913868&longitude=10.752245&daily=uv",
                &none
            ),
            ["59.913868", "10.752245"]
        );
        assert_eq!(
            spans("lat=-33.868820;lng=151.209296", &none),
            ["-33.868820", "151.209296"]
        );
        // Coarse values and other parameters are not a position.
        assert!(spans("https://w.example/v1?lat=59.91&lon=10.75", &none).is_empty());
        assert!(spans("https://w.example/v1?latency=12.345678", &none).is_empty());
    }

    #[test]
    fn numeric_pairs() {
        let v = json!({"latitude": 37.774929, "longitude": -122.419416, "units": "metric"});
        let found = numeric_findings(crate::args::Arg::from(&v).members().unwrap());
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].0, "latitude");
        assert_eq!(found[0].1.span, 0..9);
        assert_eq!(found[1].1.span, 0..11);
        let v = json!({"pickup_lat": 48.8584, "pickup_lng": 2.2945});
        assert_eq!(
            numeric_findings(crate::args::Arg::from(&v).members().unwrap()).len(),
            2
        );
    }

    #[test]
    fn true_negatives() {
        let none = Field::default();
        for s in [
            "version 2.3.1",
            "$41.99, 12.50",
            "1.2.3.4",
            "ratio 0.5, 0.25",
            "123.4567, 500.1234",
        ] {
            assert!(spans(s, &none).is_empty(), "{s}");
        }
        let v = json!({"lat": 37.7, "lon": -122.4});
        assert!(numeric_findings(crate::args::Arg::from(&v).members().unwrap()).is_empty());
        let v = json!({"lat": 137.7749, "lon": -122.4194});
        assert!(numeric_findings(crate::args::Arg::from(&v).members().unwrap()).is_empty());
        let v = json!({"latitude": 37.7749});
        assert!(numeric_findings(crate::args::Arg::from(&v).members().unwrap()).is_empty());
        let v = json!({"along": 1.2345, "plateau": 3.4567});
        assert!(numeric_findings(crate::args::Arg::from(&v).members().unwrap()).is_empty());
    }
}
