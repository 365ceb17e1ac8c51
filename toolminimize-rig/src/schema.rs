//! What the model provider is shown of a tool's schema.
//!
//! The privacy annotations of a `MinimizeSchema` schema (`minimum_necessary`, `x-psd-category`,
//! `x-sensitivity`, `x-minimize`, `x-exposure`) are instructions for the minimizer. Sent to a
//! model provider they cost tokens, can be rejected by strict schema modes, and tell the model
//! which fields are considered sensitive. [`advertised`] removes them, walking only the
//! positions where JSON Schema keywords live: a property that happens to be *named*
//! `minimum_necessary` is kept.
//!
//! ```
//! use serde_json::json;
//! use toolminimize_rig::schema::{advertised, has_annotations};
//!
//! let schema = json!({
//!     "type": "object",
//!     "properties": {
//!         "name": {"type": "string", "x-psd-category": "identity", "x-sensitivity": 3},
//!         "minimum_necessary": {"type": "boolean"}
//!     },
//!     "required": ["name"],
//!     "minimum_necessary": ["name"]
//! });
//! assert!(has_annotations(&schema));
//! assert_eq!(advertised(&schema), json!({
//!     "type": "object",
//!     "properties": {
//!         "name": {"type": "string"},
//!         "minimum_necessary": {"type": "boolean"}
//!     },
//!     "required": ["name"]
//! }));
//! ```

use serde_json::Value;

/// The annotation keywords of SPEC §4, read by the minimizer and stripped from advertised schemas.
pub const ANNOTATION_KEYWORDS: [&str; 5] = [
    "minimum_necessary",
    "x-psd-category",
    "x-sensitivity",
    "x-minimize",
    "x-exposure",
];

/// Keywords whose value is one subschema.
const SCHEMA_VALUED: [&str; 12] = [
    "additionalProperties",
    "items",
    "additionalItems",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contentSchema",
];

/// Keywords whose value is an array of subschemas (`items` in its draft-04 tuple form too).
const ARRAY_OF_SCHEMAS: [&str; 5] = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];

/// Keywords whose value maps names to subschemas.
const MAP_OF_SCHEMAS: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Deepest schema nesting walked; deeper subschemas are left as they are.
const MAX_DEPTH: usize = crate::MAX_SCHEMA_DEPTH;

/// The schema as a model provider should see it: `schema` without the annotation keywords.
pub fn advertised(schema: &Value) -> Value {
    let mut out = schema.clone();
    strip_annotations(&mut out);
    out
}

/// Removes the annotation keywords from `schema` in place. Returns whether anything was removed.
pub fn strip_annotations(schema: &mut Value) -> bool {
    strip(schema, 0)
}

/// Whether `schema` carries any annotation keyword at a schema position.
pub fn has_annotations(schema: &Value) -> bool {
    let mut probe = schema.clone();
    strip_annotations(&mut probe)
}

fn strip(schema: &mut Value, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    let Value::Object(map) = schema else {
        return false;
    };
    let mut removed = false;
    for keyword in ANNOTATION_KEYWORDS {
        removed |= map.shift_remove(keyword).is_some();
    }
    for keyword in SCHEMA_VALUED {
        if let Some(sub) = map.get_mut(keyword) {
            removed |= strip(sub, depth + 1);
        }
    }
    for keyword in ARRAY_OF_SCHEMAS {
        if let Some(Value::Array(subs)) = map.get_mut(keyword) {
            for sub in subs {
                removed |= strip(sub, depth + 1);
            }
        }
    }
    for keyword in MAP_OF_SCHEMAS {
        if let Some(Value::Object(subs)) = map.get_mut(keyword) {
            for sub in subs.values_mut() {
                removed |= strip(sub, depth + 1);
            }
        }
    }
    // `dependencies` (draft 7) maps a name to a subschema or to an array of names.
    if let Some(Value::Object(deps)) = map.get_mut("dependencies") {
        for sub in deps.values_mut() {
            removed |= strip(sub, depth + 1);
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strips_every_level_but_keeps_property_names() {
        let schema = json!({
            "type": "object",
            "x-exposure": "third_party",
            "properties": {
                "x-minimize": {"type": "string"},
                "who": {"$ref": "#/$defs/Person", "x-psd-category": "identity"},
                "tags": {"type": "array", "items": {"type": "string", "x-sensitivity": 1}},
                "alt": {"anyOf": [{"type": "string", "x-minimize": "remove"}, {"type": "null"}]}
            },
            "$defs": {"Person": {
                "type": "object",
                "properties": {"name": {"type": "string", "x-minimize": {"op": "substitute"}}},
                "minimum_necessary": ["name"]
            }},
            "minimum_necessary": ["who"]
        });
        let out = advertised(&schema);
        assert_eq!(
            out,
            json!({
                "type": "object",
                "properties": {
                    "x-minimize": {"type": "string"},
                    "who": {"$ref": "#/$defs/Person"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "alt": {"anyOf": [{"type": "string"}, {"type": "null"}]}
                },
                "$defs": {"Person": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}}
                }}
            })
        );
        assert!(!has_annotations(&out));
    }

    #[test]
    fn plain_schemas_are_untouched() {
        let schema = json!({
            "type": "object",
            "properties": {"city": {"type": "string", "description": "x-sensitivity is not a keyword here"}},
            "required": ["city"],
            "x-vendor": true
        });
        assert!(!has_annotations(&schema));
        assert_eq!(advertised(&schema), schema);
        assert_eq!(advertised(&json!(true)), json!(true));
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let mut schema = json!({"type": "string", "x-sensitivity": 2});
        for _ in 0..300 {
            schema = json!({"not": schema});
        }
        let mut copy = schema.clone();
        // The annotation sits below the depth limit and stays; nothing panics.
        assert!(!strip_annotations(&mut copy));
        assert_eq!(copy, schema);
    }
}
