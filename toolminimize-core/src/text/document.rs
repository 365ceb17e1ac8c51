//! Texts that are themselves data: a JSON document written into a string (a fixture file, a
//! form's raw submission, a payload in a description) or `KEY=value` lines (an `.env` or
//! `.ini` file). Such a text has *cells*, the stretches an edit may change without breaking
//! the text's syntax: the inside of a JSON string literal, a JSON number or literal, the value
//! after `KEY=`, the text of a comment line.
//!
//! `{"name": "Ada", "age": 36}` has the cells `name`, `Ada`, `age` and `36` (the last
//! bare); "just a sentence = prose" is no document.

use std::ops::Range;

/// What kind of data a text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DocKind {
    /// A JSON object or array.
    Json,
    /// Two or more `KEY=value` lines, every other line blank, a comment or a `[section]`.
    KeyValue,
}

/// One stretch of a document an edit may change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    /// Byte range in the text.
    pub range: Range<usize>,
    /// A JSON number or literal (`true`, `null`): it cannot hold text, so an edit replaces
    /// it whole.
    pub bare: bool,
    /// A JSON object's key: it names a value, it is none.
    pub key: bool,
}

/// A text read as data, with its cells in order.
#[derive(Debug, Clone)]
pub struct Document {
    kind: DocKind,
    cells: Vec<Cell>,
}

impl Document {
    /// The text as a document, or `None` when it is prose. Linear in the text.
    pub fn of(text: &str) -> Option<Document> {
        let t = text.trim();
        if (t.starts_with('{') && t.ends_with('}')) || (t.starts_with('[') && t.ends_with(']')) {
            return json_cells(text).map(|cells| Document {
                kind: DocKind::Json,
                cells,
            });
        }
        key_value_cells(text).map(|cells| Document {
            kind: DocKind::KeyValue,
            cells,
        })
    }

    /// The cells, in order.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The cell holding byte `at` (its end counts: an empty string's cell holds its quote).
    pub fn cell_at(&self, at: usize) -> Option<&Cell> {
        let n = self.cells.partition_point(|c| c.range.start <= at);
        self.cells
            .get(n.checked_sub(1)?)
            .filter(|c| at <= c.range.end)
    }

    /// Whether every value of `text` (this document's text) is empty or `null`: only its
    /// skeleton of keys and brackets is left.
    pub fn is_blank(&self, text: &str) -> bool {
        self.cells.iter().filter(|c| !c.key).all(|c| {
            let v = text.get(c.range.clone()).unwrap_or_default().trim();
            v.is_empty() || (c.bare && v == "null")
        })
    }

    /// Whether `text` (the document's text after edits inside its cells) is still well formed.
    pub fn still_valid(&self, text: &str) -> bool {
        match self.kind {
            DocKind::Json => serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok(),
            DocKind::KeyValue => true,
        }
    }
}

/// The cells of a JSON text: string literals' insides and bare values. `None` when the text is
/// not JSON.
fn json_cells(text: &str) -> Option<Vec<Cell>> {
    serde_json::from_str::<serde::de::IgnoredAny>(text).ok()?;
    let b = text.as_bytes();
    let mut cells = Vec::new();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => {
                let start = i + 1;
                let mut j = start;
                while let Some(&d) = b.get(j) {
                    match d {
                        b'\\' => j += 2,
                        b'"' => break,
                        _ => j += 1,
                    }
                }
                i = j + 1;
                let next = b
                    .get(i..)
                    .and_then(|r| r.iter().find(|d| !d.is_ascii_whitespace()));
                cells.push(Cell {
                    range: start..j.min(b.len()),
                    bare: false,
                    key: next == Some(&b':'),
                });
            }
            b'-' | b'0'..=b'9' | b't' | b'f' | b'n' => {
                let start = i;
                while b
                    .get(i)
                    .is_some_and(|d| d.is_ascii_alphanumeric() || matches!(d, b'-' | b'+' | b'.'))
                {
                    i += 1;
                }
                cells.push(Cell {
                    range: start..i,
                    bare: true,
                    key: false,
                });
            }
            _ => i += 1,
        }
    }
    Some(cells)
}

/// Fewest `KEY=value` lines that make a text a key-value file.
const MIN_KEY_VALUE_LINES: usize = 2;

/// The cells of `KEY=value` lines: each value, and each comment's text. `None` when a line is
/// neither such a line, a comment, a `[section]` nor blank, or when there are too few.
fn key_value_cells(text: &str) -> Option<Vec<Cell>> {
    if !text.contains('=') {
        return None;
    }
    let mut cells = Vec::new();
    let mut pairs = 0;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let lead = body.len() - body.trim_start().len();
        let t = body.trim();
        if t.is_empty() || (t.starts_with('[') && t.ends_with(']')) {
            continue;
        }
        if let Some(rest) = t.strip_prefix('#').or_else(|| t.strip_prefix(';')) {
            let from = start + lead + (t.len() - rest.len());
            cells.push(Cell {
                range: from..start + lead + t.len(),
                bare: false,
                key: false,
            });
            continue;
        }
        let eq = value_start(t)?;
        pairs += 1;
        cells.push(Cell {
            range: start + lead + eq..start + lead + t.len(),
            bare: false,
            key: false,
        });
    }
    (pairs >= MIN_KEY_VALUE_LINES).then_some(cells)
}

/// Where the value of a `KEY=value` line starts (after `=`), or `None` when the line is not
/// one: the key is a word of letters, digits, `_`, `.` and `-` (after an optional `export`).
fn value_start(line: &str) -> Option<usize> {
    let key_from = line
        .strip_prefix("export ")
        .map_or(0, |r| line.len() - r.len());
    let eq = line.find('=')?;
    let key = line.get(key_from..eq)?.trim_end();
    let mut chars = key.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic() || first == '_')
        .then_some(())
        .filter(|()| chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))?;
    Some(eq + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_cells_are_string_insides_and_bare_values() {
        let t = r#"{"a": "x \"y\"", "b": [12, true, null], "c": {}}"#;
        let doc = Document::of(t).unwrap();
        let cells: Vec<&str> = doc.cells().iter().map(|c| &t[c.range.clone()]).collect();
        assert_eq!(cells, ["a", r#"x \"y\""#, "b", "12", "true", "null", "c"]);
        assert!(doc.cells().iter().filter(|c| c.bare).count() == 3);
        assert_eq!(doc.cells().iter().filter(|c| c.key).count(), 3);
    }

    #[test]
    fn a_document_of_empty_values_is_blank() {
        let t = r#"{"dob": "", "kin": {"name": null}, "tags": []}"#;
        assert!(Document::of(t).unwrap().is_blank(t));
        let t = r#"{"dob": "", "age": 0}"#;
        assert!(!Document::of(t).unwrap().is_blank(t));
        let t = "A=\nB=\n";
        assert!(Document::of(t).unwrap().is_blank(t));
    }

    #[test]
    fn broken_json_and_prose_are_not_documents() {
        assert!(Document::of(r#"{"a": "unterminated}"#).is_none());
        assert!(Document::of("[see the attached file]").is_none());
        assert!(Document::of("Dear Ann, a = b in the formula.").is_none());
        assert!(Document::of("").is_none());
    }

    #[test]
    fn key_value_lines_have_their_values_and_comments_as_cells() {
        let t = "# sample settings\nAPP_NAME=demo\nexport OWNER = Ivo Kral\n\n[extra]\nk.v-1=\n";
        let doc = Document::of(t).unwrap();
        assert_eq!(doc.kind, DocKind::KeyValue);
        let cells: Vec<&str> = doc.cells().iter().map(|c| &t[c.range.clone()]).collect();
        assert_eq!(cells, [" sample settings", "demo", " Ivo Kral", ""]);
        // One pair is a sentence with an equals sign, not a file.
        assert!(Document::of("A=1\nthen we met").is_none());
        assert!(Document::of("ONLY=one").is_none());
    }

    #[test]
    fn the_cell_at_a_byte_is_found() {
        let t = r#"["", "Ann"]"#;
        let doc = Document::of(t).unwrap();
        assert_eq!(doc.cell_at(2).map(|c| c.range.clone()), Some(2..2));
        assert_eq!(doc.cell_at(7).map(|c| c.range.clone()), Some(6..9));
        assert!(doc.cell_at(4).is_none());
    }
}
