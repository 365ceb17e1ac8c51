//! A tool's schema indexes, kept for the argument shapes it was called with.
//!
//! [`SchemaIndex`] reads of the arguments only their shape: the keys of each object in their
//! order, the length of each array, and each value's JSON type, numbers told apart as
//! [`Builder`](super::Builder) tells them (64-bit integers, other integers, other numbers).
//! String contents and number values are never read. Two calls of one tool whose arguments
//! have the same [`Shape`] get the same index, so it is built once and shared.
//!
//! The shape is written out in full, not hashed: a cached index is only handed out for
//! exactly the shape it was built for. Shapes larger than [`MAX_SHAPE_BYTES`] are not
//! cached (their index is built for the call), and a tool keeps at most [`CAPACITY`] indexes,
//! the least recently used going first.

use std::sync::{Arc, Mutex};

use crate::args::{Arg, Node, Num};

use super::SchemaIndex;

/// Most indexes one tool keeps.
const CAPACITY: usize = 8;

/// Largest shape (in bytes of its encoding) whose index is kept.
const MAX_SHAPE_BYTES: usize = 4096;

/// The shape of a call's arguments, as the schema index reads it: a prefix-free encoding of
/// the type of every value, the length of every array and the keys of every object in their
/// order (two different shapes never share an encoding).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Shape(Vec<u8>);

const NULL: u8 = 0;
const BOOL: u8 = 1;
/// A number that fits an `i64` or a `u64`.
const INT64: u8 = 2;
/// An integer beyond 64 bits (kept exact).
const INTEGER: u8 = 3;
/// Any other number.
const NUMBER: u8 = 4;
const STRING: u8 = 5;
const ARRAY: u8 = 6;
const OBJECT: u8 = 7;

impl Shape {
    /// The shape of `args`; `None` when its encoding is longer than [`MAX_SHAPE_BYTES`]
    /// (given up as soon as it is).
    pub(super) fn of(args: Arg<'_>) -> Option<Shape> {
        let mut out = Vec::with_capacity(128);
        write_shape(args, &mut out).then_some(Shape(out))
    }
}

/// Appends the shape of `v` to `out`; `false` once `out` is longer than [`MAX_SHAPE_BYTES`].
fn write_shape(v: Arg<'_>, out: &mut Vec<u8>) -> bool {
    match v.node() {
        Node::Null => out.push(NULL),
        Node::Bool(_) => out.push(BOOL),
        Node::Number(n) => out.push(number_kind(n)),
        Node::String(_) => out.push(STRING),
        Node::Array(elements) => {
            out.push(ARRAY);
            write_len(elements.len(), out);
            for e in elements {
                if !write_shape(e, out) {
                    return false;
                }
            }
        }
        Node::Object(members) => {
            out.push(OBJECT);
            write_len(members.len(), out);
            for (k, child) in members {
                write_len(k.len(), out);
                out.extend_from_slice(k.as_bytes());
                if out.len() > MAX_SHAPE_BYTES || !write_shape(child, out) {
                    return false;
                }
            }
        }
    }
    out.len() <= MAX_SHAPE_BYTES
}

/// A length, seven bits a byte (LEB128).
fn write_len(mut n: usize, out: &mut Vec<u8>) {
    while n >= 0x80 {
        out.push(u8::try_from(n & 0x7f).unwrap_or(0) | 0x80);
        n >>= 7;
    }
    out.push(u8::try_from(n).unwrap_or(0));
}

/// How the index builder tells a number apart: whether it fits 64 bits
/// ([`Num::is_64_bit_integer`]), else whether it is an integer ([`Num::is_integer`]).
fn number_kind(n: Num<'_>) -> u8 {
    // Up to 18 digits without a sign: a `u64` however the number is read.
    if let Num::Text(t) = n
        && (1..=18).contains(&t.len())
        && t.bytes().all(|b| b.is_ascii_digit())
    {
        return INT64;
    }
    if n.is_64_bit_integer() {
        INT64
    } else if n.is_integer() {
        INTEGER
    } else {
        NUMBER
    }
}

/// The indexes a tool built, by the shape of the arguments they were built for, most
/// recently used first.
#[derive(Debug, Default)]
pub(crate) struct IndexCache {
    entries: Mutex<Vec<(Shape, Arc<SchemaIndex>)>>,
}

impl IndexCache {
    /// The index for `shape`, built by `build` unless one was kept for it.
    pub(super) fn get_or_build(
        &self,
        shape: Shape,
        build: impl FnOnce() -> SchemaIndex,
    ) -> Arc<SchemaIndex> {
        if let Ok(mut entries) = self.entries.lock()
            && let Some(i) = entries.iter().position(|(s, _)| *s == shape)
            && let Some(used) = entries.get_mut(..=i)
        {
            // The hit goes first: the least recently used is last.
            used.rotate_right(1);
            if let Some((_, index)) = used.first() {
                return Arc::clone(index);
            }
        }
        // Built without the lock held: other calls of the tool go on meanwhile.
        let index = Arc::new(build());
        if let Ok(mut entries) = self.entries.lock()
            && !entries.iter().any(|(s, _)| *s == shape)
        {
            entries.insert(0, (shape, Arc::clone(&index)));
            entries.truncate(CAPACITY);
        }
        index
    }

    /// How many indexes are kept.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.entries.lock().map_or(0, |e| e.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ToolDef;
    use crate::args::Tape;
    use crate::schema::push_token;
    use serde_json::{Value, json};

    /// Every path of `v` (JSON pointers), and a few that are not in it.
    fn paths(v: &Value, path: &mut String, out: &mut Vec<String>) {
        out.push(path.clone());
        let len = path.len();
        match v {
            Value::Object(o) => {
                for (k, x) in o {
                    push_token(path, k);
                    paths(x, path, out);
                    path.truncate(len);
                }
                out.push(format!("{path}/absent"));
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    path.push_str(&format!("/{i}"));
                    paths(x, path, out);
                    path.truncate(len);
                }
                out.push(format!("{path}/{}", a.len()));
            }
            _ => {}
        }
    }

    /// What `index` says of every path of `args` (and of a few absent ones), as text.
    fn answers(index: &SchemaIndex, args: &Value) -> Vec<String> {
        let mut all = Vec::new();
        paths(args, &mut String::new(), &mut all);
        all.iter()
            .map(|p| {
                let elements = p
                    .rsplit_once('/')
                    .map(|(parent, last)| {
                        let i = last.parse().unwrap_or(usize::MAX);
                        format!("{:?}", index.elements_unkeyed(parent).get(i))
                    })
                    .unwrap_or_default();
                format!("{p}: {:?} {elements}", index.field(p))
            })
            .collect()
    }

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "id": {"anyOf": [
                    {"type": "integer", "x-sensitivity": 3},
                    {"type": "number", "description": "a measure"},
                    {"type": "string", "format": "email", "pattern": "^[a-z]+@"},
                    {"type": "null"}
                ]},
                "tags": {"type": "array", "prefixItems": [{"type": "string", "format": "date"}],
                    "items": {"oneOf": [{"type": "string", "x-psd-category": "identity"},
                        {"type": "integer"}, {"type": "object", "properties": {"n": {"type": "string"}}}]}},
                "extra": {"type": "object", "additionalProperties": {"type": "string"}},
                "who": {"$ref": "#/$defs/Person"}
            },
            "required": ["id"],
            "minimum_necessary": ["tags"],
            "$defs": {"Person": {"type": "object", "properties": {"name": {"type": "string"}}}}
        })
    }

    /// Arguments of many shapes, some of them twice with other contents.
    fn calls() -> Vec<Value> {
        vec![
            json!({"id": 7, "tags": ["2020-01-01", "a", 3], "who": {"name": "Kari"}}),
            json!({"id": 8, "tags": ["2021-02-02", "b", 4], "who": {"name": "Ola"}}),
            json!({"tags": ["2020-01-01", "a", 3], "id": 7, "who": {"name": "Kari"}}),
            json!({"id": 7.5, "tags": ["2020-01-01", "a", 3], "who": {"name": "Kari"}}),
            json!({"id": "a@b.co", "tags": ["2020-01-01"], "who": {"name": "Kari"}}),
            json!({"id": null, "tags": [], "who": {"name": "Kari"}}),
            json!({"id": 7, "tags": ["2020-01-01", "a", 3, 4, "x", {"n": "y"}]}),
            json!({"id": 7, "tags": ["2020-01-01", 3, "a"]}),
            json!({"id": true, "extra": {"a": "1", "b": 2, "c/d": {"e": [1, 2.5]}}}),
            json!({"id": 7, "extra": {"b": "1", "a": 2}}),
            json!({"id": 7, "extra": {"ab": "1"}}),
            json!({"id": 7, "extra": {"a": "1", "b": "2"}}),
            json!({"id": 7, "who": {"name": ["Kari"]}}),
            json!({"id": 7, "who": {"name": {"first": "Kari"}}}),
            json!({"id": 7, "tags": [["2020-01-01"]]}),
            json!({"id": 7, "tags": [{}]}),
        ]
    }

    #[test]
    fn a_kept_index_answers_as_a_fresh_one() {
        let tool = ToolDef::new("t", "", schema());
        let mut calls = calls();
        // A number beyond 64 bits, read as written.
        let big: Value = serde_json::from_str(r#"{"id": 123456789012345678901234567890}"#).unwrap();
        calls.push(big);
        // Twice over: the second round finds every index kept (or rebuilt, when evicted).
        for _ in 0..2 {
            for args in &calls {
                let kept = SchemaIndex::for_tool(&tool, Arg::Value(args));
                let fresh = SchemaIndex::build(tool.input_schema(), args);
                assert_eq!(answers(&kept, args), answers(&fresh, args), "{args}");
            }
        }
    }

    #[test]
    fn arguments_of_one_shape_share_an_index_and_others_do_not() {
        let tool = ToolDef::new("t", "", schema());
        let calls = calls();
        let shapes: Vec<Shape> = calls
            .iter()
            .map(|a| Shape::of(Arg::Value(a)).unwrap())
            .collect();
        // Only the first two calls (other string contents, other integers) share a shape.
        for (i, a) in shapes.iter().enumerate() {
            for (j, b) in shapes.iter().enumerate() {
                assert_eq!(a == b, i == j || i.max(j) == 1 && i.min(j) == 0, "{i} {j}");
            }
        }
        let first = SchemaIndex::for_tool(&tool, Arg::Value(&calls[0]));
        let second = SchemaIndex::for_tool(&tool, Arg::Value(&calls[1]));
        assert!(Arc::ptr_eq(&first, &second));
        let third = SchemaIndex::for_tool(&tool, Arg::Value(&calls[2]));
        assert!(!Arc::ptr_eq(&first, &third));
        assert_eq!(tool.schema_indexes().len(), 2);
        // Clones of the tool share its indexes.
        let clone = tool.clone();
        assert!(Arc::ptr_eq(
            &first,
            &SchemaIndex::for_tool(&clone, Arg::Value(&calls[0]))
        ));
    }

    #[test]
    fn text_and_values_have_one_shape() {
        let texts = [
            r#"{"a": 1, "b": [1.0, -0, 1e3, 12345678901234567890123, "x", null, true], "c": {}}"#,
            r#"{"a\u0062": -7, "n": 18446744073709551615, "m": -9223372036854775808}"#,
            r#"[0, 999999999999999999, 9999999999999999999, 99999999999999999999]"#,
        ];
        for text in texts {
            let value: Value = serde_json::from_str(text).unwrap();
            let tape = Tape::parse(text).unwrap();
            assert_eq!(
                Shape::of(Arg::from(&tape)),
                Shape::of(Arg::Value(&value)),
                "{text}"
            );
        }
        assert_ne!(
            Shape::of(Arg::Value(&json!([1]))),
            Shape::of(Arg::Value(&json!([1.5])))
        );
    }

    #[test]
    fn a_tool_keeps_few_indexes_and_none_of_large_arguments() {
        let tool = ToolDef::new("t", "", json!({"type": "object"}));
        for n in 0..3 * CAPACITY {
            let args = json!({ format!("key{n}"): n });
            SchemaIndex::for_tool(&tool, Arg::Value(&args));
        }
        assert_eq!(tool.schema_indexes().len(), CAPACITY);
        let tool = ToolDef::new("t", "", json!({"type": "object"}));
        let large = json!({"a": vec![0; MAX_SHAPE_BYTES]});
        assert!(Shape::of(Arg::Value(&large)).is_none());
        SchemaIndex::for_tool(&tool, Arg::Value(&large));
        assert_eq!(tool.schema_indexes().len(), 0);
    }
}
