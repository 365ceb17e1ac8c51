//! Cross-detector tests: the whole stage over realistic strings, and robustness on arbitrary
//! input.

use proptest::prelude::*;

use super::*;
use crate::classify::Field;
use crate::item::PsdKind;

#[test]
fn email_and_phone_in_one_sentence() {
    use crate::classify::{Field, structured};
    use crate::item::PsdKind;

    let detectors = structured::detectors().unwrap();
    let text = "reach me at ana.lopez@example.es or +34 612 345 678";
    let mut out = Vec::new();
    for d in &detectors {
        d.detect(text, &Field::default(), &mut out);
    }
    let kinds: Vec<PsdKind> = out.iter().map(|f| f.kind).collect();
    assert!(kinds.contains(&PsdKind::Email));
    assert!(kinds.contains(&PsdKind::Phone));
}

thread_local! {
    static DS: Vec<Box<dyn Detector>> = detectors().unwrap();
}

fn scan<'a>(text: &'a str, field: &Field<'_>) -> Vec<(&'a str, PsdKind)> {
    DS.with(|ds| {
        let mut out = Vec::new();
        for d in ds {
            d.detect(text, field, &mut out);
        }
        out.sort_by_key(|f| f.span.start);
        out.iter()
            .map(|f| (&text[f.span.clone()], f.kind))
            .collect()
    })
}

#[test]
fn true_negatives_do_not_fire() {
    for s in [
        "Order #W5520193 and ORD-2024-00017 shipped",
        "Meeting at 2025-06-09T19:00:00, follow-up 2025-06-11",
        "trace 123e4567-e89b-12d3-a456-426614174000",
        "fixed in 4f9c2a1b7d3e5f60718293a4b5c6d7e8f9012345",
        "bump to 2.3.1 then v1.12.0",
        "total $41.99 or 40,00 €",
        "lasts 1h30m, 90 minutes, PT45M",
        "from 9:30 until 14:00",
        "see issue #4521 and PR 1337",
        "booking DL-88QK2 confirmed",
        "3 adults, 2 rooms, 14 nights",
        "calendar 4c0ffee1d2b3a4f5@group.calendar.google.com",
        "RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20251231T000000Z",
        "/home/user/projects/app/src/main.rs",
        "SELECT id, total FROM orders WHERE id = 1234567 LIMIT 10",
        "color #1a2b3c and #ffffff",
        "listen on port 8080 or 5432",
        "in 1999, 2024 and 2025",
        "Verbale n. 2025/206481 del comando",
        "Vorgang 2024/00871, Rechnung Nr. 2023/55120",
    ] {
        let found: Vec<_> = scan(s, &Field::default())
            .into_iter()
            .filter(|(_, k)| *k != PsdKind::Email)
            .collect();
        assert!(found.is_empty(), "{s}: {found:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn arbitrary_text_never_panics_and_spans_are_on_char_boundaries(s in "\\PC{0,120}") {
        for (f, _) in scan_raw(&s) {
            prop_assert!(s.is_char_boundary(f.start) && s.is_char_boundary(f.end) && f.start < f.end);
        }
    }

    #[test]
    fn digit_heavy_text_never_panics(s in "[0-9 +().\\-/:A-Z@a-z]{0,80}") {
        for (f, _) in scan_raw(&s) {
            prop_assert!(s.is_char_boundary(f.start) && s.is_char_boundary(f.end) && f.start < f.end);
        }
    }
}

fn scan_raw(text: &str) -> Vec<(std::ops::Range<usize>, PsdKind)> {
    DS.with(|ds| {
        let mut out = Vec::new();
        for d in ds {
            d.detect(text, &Field::default(), &mut out);
        }
        out.into_iter().map(|f| (f.span, f.kind)).collect()
    })
}
