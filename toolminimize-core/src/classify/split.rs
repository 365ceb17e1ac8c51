//! One item split across several strings: rich-text segments, chunks of a message, the
//! parts of an array (`["Geburtsdatum: ", "23.11.", "1968"]`). The strings of an array are
//! read together, as the tool will show them: joined, and scanned around each joint with every
//! detector. Strings are glued directly where they read as one text (rich-text segments under
//! a `content`/`text` key, a chunk that ends or starts with a space); other neighbours (the
//! items of a list) are kept apart by a line break, so two list items never make one number. A finding that spans a joint is cut back into one item per string it covers, so
//! each part is removed where it stands. Findings inside one string were already found there.
//!
//! Bounded: at most [`MAX_PIECES`] strings of an array, and only [`RADIUS`] bytes on each side
//! of a joint are scanned again.

use std::fmt::Write as _;
use std::ops::Range;

use crate::args::{Arg, Node};

use super::{Classifier, Field};
use crate::item::PsdItem;
use crate::schema::{SchemaIndex, push_token};

/// Most strings of one array read together.
const MAX_PIECES: usize = 64;
/// Bytes scanned on each side of a joint.
const RADIUS: usize = 48;
/// Deepest nesting followed inside the array.
const MAX_NEST: usize = 6;

/// Keys of rich-text segments and streamed chunks.
const SEGMENT_KEYS: &[&str] = &["content", "text", "plain_text", "chunk", "delta", "value"];

/// A string of the array and where it sits.
struct Piece<'a> {
    path: String,
    text: &'a str,
    /// Whether its key names a text segment.
    segment: bool,
    /// Offset in the joined text.
    at: usize,
}

fn collect<'a>(
    v: Arg<'a>,
    key: Option<&str>,
    path: &mut String,
    out: &mut Vec<Piece<'a>>,
    depth: usize,
) {
    if out.len() >= MAX_PIECES || depth > MAX_NEST {
        return;
    }
    match v.node() {
        Node::String(s) => out.push(Piece {
            path: path.clone(),
            text: s,
            segment: key.is_some_and(|k| SEGMENT_KEYS.contains(&k)),
            at: 0,
        }),
        Node::Array(arr) => {
            // Past the last piece read, the rest of a long array is not walked.
            for (i, child) in arr.enumerate() {
                if out.len() >= MAX_PIECES {
                    break;
                }
                let len = path.len();
                let _ = write!(path, "/{i}");
                collect(child, key, path, out, depth + 1);
                path.truncate(len);
            }
        }
        Node::Object(map) => {
            for (k, child) in map {
                if out.len() >= MAX_PIECES {
                    break;
                }
                let len = path.len();
                push_token(path, k);
                collect(child, Some(k), path, out, depth + 1);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

/// Char-boundary-safe window `[b - RADIUS, b + RADIUS]` of `s`.
fn window(s: &str, b: usize) -> Range<usize> {
    let mut start = b.saturating_sub(RADIUS);
    while start > 0 && !s.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (b + RADIUS).min(s.len());
    while end < s.len() && !s.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

/// Items spanning the strings of the array `arr` at `path` (see the module docs), appended to
/// `items` unless an item of the same kind already covers that part.
pub(crate) fn scan(
    classifier: &Classifier,
    arr: Arg<'_>,
    path: &str,
    schema: &SchemaIndex,
    items: &mut Vec<PsdItem>,
) {
    let mut pieces = Vec::new();
    let mut p = path.to_owned();
    collect(arr, None, &mut p, &mut pieces, 0);
    // Rich text: read the segments' text, not their `type`, `id` or `href` beside it.
    if pieces.iter().any(|p| p.segment) {
        pieces.retain(|p| p.segment);
    }
    if pieces.len() < 2 {
        return;
    }
    let mut joined = String::new();
    let mut prev: Option<(&str, bool)> = None;
    for piece in &mut pieces {
        if let Some((text, segment)) = prev {
            let reads_on = (segment && piece.segment)
                || text.ends_with(char::is_whitespace)
                || piece.text.starts_with(char::is_whitespace);
            if !reads_on {
                joined.push('\n');
            }
        }
        piece.at = joined.len();
        joined.push_str(piece.text);
        prev = Some((piece.text, piece.segment));
    }
    let joints: Vec<usize> = pieces
        .iter()
        .skip(1)
        .map(|p| p.at)
        .filter(|&b| b > 0 && b < joined.len())
        .collect();
    // Windows around the joints, overlapping ones merged.
    let mut windows: Vec<Range<usize>> = Vec::new();
    for &b in &joints {
        let w = window(&joined, b);
        match windows.last_mut() {
            Some(last) if w.start <= last.end => last.end = last.end.max(w.end),
            _ => windows.push(w),
        }
    }
    let field = Field {
        path,
        key: None,
        description: None,
        dictated: false,
    };
    for w in windows {
        let Some(part) = joined.get(w.clone()) else {
            continue;
        };
        for f in classifier.scan_text(part, &field) {
            let span = f.span.start + w.start..f.span.end + w.start;
            if !joints.iter().any(|&b| span.start < b && b < span.end) {
                continue;
            }
            for piece in &pieces {
                let (ps, pe) = (piece.at, piece.at + piece.text.len());
                let (s, e) = (span.start.max(ps), span.end.min(pe));
                if s >= e {
                    continue;
                }
                let raw = piece.text.get(s - ps..e - ps).unwrap_or("");
                let lead = raw.len() - raw.trim_start().len();
                let local = s - ps + lead..s - ps + lead + raw.trim().len();
                if local.is_empty() {
                    continue;
                }
                let covered = items.iter().any(|i| {
                    i.path == piece.path
                        && i.kind == f.kind
                        && i.span
                            .as_ref()
                            .is_none_or(|r| r.start <= local.start && local.end <= r.end)
                });
                if !covered {
                    items.push(schema.item_from(&piece.path, Some(local), &f));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::item::PsdKind;
    use crate::policy::Policy;
    use crate::schema::SchemaIndex;

    use super::super::Classifier;

    fn items(args: &serde_json::Value) -> Vec<(String, String, PsdKind)> {
        let c = Classifier::build(&Policy::default(), Vec::new()).unwrap();
        let schema = SchemaIndex::default();
        c.classify(args, &schema)
            .into_iter()
            .map(|i| {
                let mut v = args
                    .pointer(&i.path)
                    .unwrap()
                    .as_str()
                    .unwrap_or("")
                    .to_owned();
                if let Some(s) = &i.span {
                    v = v[s.clone()].to_owned();
                }
                (i.path, v, i.kind)
            })
            .collect()
    }

    #[test]
    fn a_date_of_birth_split_over_rich_text_segments() {
        let args = json!({"rich_text": [
            {"type": "text", "text": {"content": "Alles geprüft. Geburtsdatum: "}},
            {"type": "text", "text": {"content": "14.02."}},
            {"type": "text", "text": {"content": "1971"}}
        ]});
        let found = items(&args);
        assert!(
            found.contains(&(
                "/rich_text/1/text/content".into(),
                "14.02.".into(),
                PsdKind::DateOfBirth
            )),
            "{found:?}"
        );
        assert!(
            found.contains(&(
                "/rich_text/2/text/content".into(),
                "1971".into(),
                PsdKind::DateOfBirth
            )),
            "{found:?}"
        );
    }

    #[test]
    fn a_card_number_in_two_chunks() {
        // (Not a card network's published test number: those are nobody's and are not reported.)
        let args = json!({"chunks": ["pay with 4716 3582 ", "0194 7362 thanks"]});
        let found = items(&args);
        assert!(
            found
                .iter()
                .any(|(p, v, k)| p == "/chunks/0" && v == "4716 3582" && *k == PsdKind::CardNumber),
            "{found:?}"
        );
        assert!(
            found
                .iter()
                .any(|(p, v, k)| p == "/chunks/1" && v == "0194 7362" && *k == PsdKind::CardNumber),
            "{found:?}"
        );
    }

    #[test]
    fn unrelated_strings_stay_apart() {
        let args = json!({"tags": ["release", "2024", "v4.1.2", "ci"], "labels": ["bug", "ui"],
                          "codes": ["4111", "1111", "1111", "1111"], "ids": ["555-0101", "555-0102"]});
        assert!(items(&args).is_empty(), "{:?}", items(&args));
    }
}
