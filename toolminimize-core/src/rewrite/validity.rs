//! Keeps rewritten values valid against the field's schema: type, `enum`, `pattern`,
//! `minLength`/`maxLength`, `format`, `minimum`/`maximum`; and gives a required field the least
//! informative value that still validates.

use serde_json::{Number, Value};

use crate::args::{Arg, Node};
use crate::schema::FieldInfo;

fn format_ok(format: &str, s: &str) -> bool {
    match format {
        "email" | "idn-email" => {
            let mut parts = s.splitn(2, '@');
            matches!((parts.next(), parts.next()), (Some(l), Some(d)) if !l.is_empty() && d.contains('.'))
        }
        "uri" | "url" | "iri" => s
            .split_once(':')
            .is_some_and(|(scheme, _)| !scheme.is_empty()),
        "date" => {
            s.len() == 10
                && s.as_bytes().get(4) == Some(&b'-')
                && s.as_bytes().get(7) == Some(&b'-')
        }
        _ => true,
    }
}

/// Whether `v` satisfies the constraints the index knows of `info`.
pub fn satisfies(info: &FieldInfo, v: &Value) -> bool {
    satisfies_arg(info, Arg::Value(v))
}

/// [`satisfies`] for a value of the arguments however they are held.
pub(crate) fn satisfies_arg(info: &FieldInfo, v: Arg<'_>) -> bool {
    if let Some(values) = &info.enum_values
        && !values.iter().any(|x| v.equals(x))
    {
        return false;
    }
    match v.node() {
        Node::String(s) => {
            if !info.types.string() {
                return false;
            }
            let n = s.chars().count() as u64;
            if info.min_length.is_some_and(|m| n < m) || info.max_length.is_some_and(|m| n > m) {
                return false;
            }
            if let Some(f) = &info.format
                && !format_ok(f, s)
            {
                return false;
            }
            // Compiled once per tool; an unusable pattern cannot be checked here (the schema
            // validator decides).
            if let Some(re) = &info.pattern_regex
                && !re.is_match(s)
            {
                return false;
            }
            true
        }
        Node::Number(n) => {
            let x = n.as_f64().unwrap_or(0.0);
            if info.types.integer_only() && !n.is_integer() {
                return false;
            }
            !(info.minimum.is_some_and(|m| x < m) || info.maximum.is_some_and(|m| x > m))
        }
        Node::Array(a) => info.min_items.is_none_or(|m| a.len() as u64 >= m),
        _ => true,
    }
}

/// Whether every string satisfies the constraints the index knows of `info`: then a
/// rewritten text never needs the original to be checked against.
pub(crate) fn accepts_any_string(info: &FieldInfo) -> bool {
    info.enum_values.is_none()
        && info.types.string()
        && info.min_length.is_none()
        && info.max_length.is_none()
        && info.format.is_none()
        && info.pattern_regex.is_none()
}

/// The JSON type of a value: all [`least_informative`] reads of the value it replaces, kept
/// when the value itself is rewritten in place before its fallback is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

impl Shape {
    /// The shape of `v`.
    pub(crate) fn of(v: Arg<'_>) -> Shape {
        match v.node() {
            Node::Null => Shape::Null,
            Node::Bool(_) => Shape::Bool,
            Node::Number(_) => Shape::Number,
            Node::String(_) => Shape::String,
            Node::Array(_) => Shape::Array,
            Node::Object(_) => Shape::Object,
        }
    }
}

/// The least informative value of the field's type that still validates, if one is known.
#[cfg(test)]
fn least_informative(info: &FieldInfo, original: &Value) -> Option<Value> {
    least_informative_for(info, Shape::of(Arg::Value(original)))
}

/// [`least_informative`] for a value of this shape.
pub(crate) fn least_informative_for(info: &FieldInfo, original: Shape) -> Option<Value> {
    let mut candidates: Vec<Value> = Vec::new();
    if let Some(d) = &info.default {
        candidates.push(d.clone());
    }
    match original {
        Shape::String => {
            if let Some(f) = &info.format {
                match f.as_str() {
                    "email" | "idn-email" => {
                        candidates.push(Value::String("redacted@example.com".into()))
                    }
                    "date" => candidates.push(Value::String("1970-01-01".into())),
                    "uri" | "url" | "iri" => {
                        candidates.push(Value::String("https://example.com/".into()))
                    }
                    _ => {}
                }
            }
            candidates.push(Value::String(String::new()));
            let min = info.min_length.unwrap_or(0) as usize;
            candidates.push(Value::String("x".repeat(min.max(1))));
            candidates.push(Value::String("redacted".into()));
        }
        Shape::Number => {
            if let Some(m) = info.minimum.and_then(Number::from_f64) {
                candidates.push(Value::Number(m));
            }
            candidates.push(Value::Number(0.into()));
        }
        Shape::Bool => candidates.push(Value::Bool(false)),
        Shape::Array => candidates.push(Value::Array(Vec::new())),
        Shape::Null => candidates.push(Value::Null),
        Shape::Object => {}
    }
    if info.types.null() {
        candidates.push(Value::Null);
    }
    candidates.into_iter().find(|c| satisfies(info, c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn least_informative_respects_constraints() {
        let info = FieldInfo {
            min_length: Some(5),
            ..FieldInfo::default()
        };
        assert_eq!(
            least_informative(&info, &json!("secret")),
            Some(json!("xxxxx"))
        );
        let info = FieldInfo {
            format: Some("email".into()),
            ..FieldInfo::default()
        };
        assert_eq!(
            least_informative(&info, &json!("a@b.co")),
            Some(json!("redacted@example.com"))
        );
        let info = FieldInfo {
            enum_values: Some(vec![json!("a")]),
            ..FieldInfo::default()
        };
        assert_eq!(least_informative(&info, &json!("a")), None);
    }

    #[test]
    fn patterns_are_checked_and_bad_patterns_ignored() {
        let schema = json!({"properties": {"a": {"type": "string", "pattern": "^[a-z]+$"},
            "b": {"type": "string", "pattern": "("}}});
        let idx = crate::schema::SchemaIndex::build(&schema, &json!({"a": "x", "b": "y"}));
        let info = idx.field("/a").unwrap();
        assert!(info.pattern_regex.is_some());
        assert!(satisfies(info, &json!("abc")));
        assert!(!satisfies(info, &json!("ab c")));
        let info = idx.field("/b").unwrap();
        assert!(info.pattern_regex.is_none());
        assert!(satisfies(info, &json!("anything")));
    }
}
