//! Support code for `#[derive(MinimizeSchema)]`. Not a public API: the generated code is its
//! only user and it changes without notice.
//!
//! The derive emits one [`Annotate`] impl per type: a constant description of its fields
//! ([`Container`]) and, for every type named in a field's type, a probe that annotates that
//! type's own schema too when it also derives `MinimizeSchema`. [`minimize_schema`] generates the
//! schemars schema of the root type and lets the annotations of every derived type reachable
//! from it add the SPEC §4 keywords, in place, to the property schemas schemars emitted.

use std::marker::PhantomData;

use schemars::JsonSchema;
use serde_json::{Map, Value};

pub use serde_json;

/// Bounds the search for a nested type's schema (nodes visited per field).
const MAX_VISIT: usize = 512;

/// A `MinimizeSchema` type must also implement `JsonSchema`: this trait states the bound with a
/// message that says what to add.
#[diagnostic::on_unimplemented(
    message = "`{Self}` derives `MinimizeSchema` but does not implement `schemars::JsonSchema`",
    label = "`{Self}` has no JSON Schema to annotate",
    note = "add `#[derive(schemars::JsonSchema)]` next to `#[derive(MinimizeSchema)]`"
)]
pub trait HasJsonSchema: JsonSchema {}

impl<T: ?Sized + JsonSchema> HasJsonSchema for T {}

/// The rewrite a field allows or wants (`x-minimize`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `"keep"`.
    Keep,
    /// `"remove"`.
    Remove,
    /// `"generalize"`, or `{"op": "generalize", "to": …}`.
    Generalize(Option<&'static str>),
    /// `"substitute"`.
    Substitute,
    /// `"truncate"`, or `{"op": "truncate", "max_chars": …}`.
    Truncate(Option<u64>),
}

impl Op {
    /// The `x-minimize` value.
    pub fn to_value(self) -> Value {
        match self {
            Op::Keep => Value::from("keep"),
            Op::Remove => Value::from("remove"),
            Op::Substitute => Value::from("substitute"),
            Op::Generalize(None) => Value::from("generalize"),
            Op::Truncate(None) => Value::from("truncate"),
            Op::Generalize(Some(to)) => {
                let mut m = Map::new();
                m.insert("op".to_owned(), Value::from("generalize"));
                m.insert("to".to_owned(), Value::from(to));
                Value::Object(m)
            }
            Op::Truncate(Some(n)) => {
                let mut m = Map::new();
                m.insert("op".to_owned(), Value::from("truncate"));
                m.insert("max_chars".to_owned(), Value::from(n));
                Value::Object(m)
            }
        }
    }
}

/// The annotations of one serialized property.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    /// The serialized property name.
    pub name: &'static str,
    /// `x-psd-category`.
    pub category: Option<&'static str>,
    /// `x-sensitivity`.
    pub sensitivity: Option<u8>,
    /// `x-minimize`.
    pub op: Option<Op>,
}

/// The annotations of one derived struct.
#[derive(Debug, Clone, Copy)]
pub struct Container {
    /// `x-exposure`, emitted when the type is the root of the schema.
    pub exposure: Option<&'static str>,
    /// The serialized names of the fields marked `necessary` (`minimum_necessary`).
    pub necessary: &'static [&'static str],
    /// Per-field annotations.
    pub fields: &'static [Field],
}

/// Implemented by `#[derive(MinimizeSchema)]`: adds the type's annotations to its own schema.
pub trait Annotate {
    /// The type's annotations.
    const SPEC: Container;

    /// Annotates the object schema at `at` (a JSON pointer into the root schema) and the schemas
    /// of the derived types its fields name.
    fn annotate(annotator: &mut Annotator, at: &str);
}

/// The schema being annotated, and which (pointer, type) pairs are done (recursive types).
#[derive(Debug)]
pub struct Annotator {
    root: Value,
    done: Vec<(String, &'static str)>,
}

/// The schemars schema of `T` with every annotation of the derived types in it.
pub fn minimize_schema<T: ?Sized + Annotate + HasJsonSchema>() -> Value {
    let schema = schemars::SchemaGenerator::default().into_root_schema_for::<T>();
    let mut annotator = Annotator {
        root: schema.to_value(),
        done: Vec::new(),
    };
    T::annotate(&mut annotator, "");
    if let (Some(exposure), Value::Object(root)) = (T::SPEC.exposure, &mut annotator.root) {
        root.insert("x-exposure".to_owned(), Value::from(exposure));
    }
    annotator.root
}

fn push_token(path: &mut String, token: &str) {
    path.push('/');
    for c in token.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            _ => path.push(c),
        }
    }
}

/// The pointer a local `$ref` names (`#` is the root).
fn ref_target(r: &str) -> Option<String> {
    r.strip_prefix('#').map(str::to_owned)
}

/// The last token of a pointer, unescaped.
fn last_token(ptr: &str) -> Option<String> {
    ptr.rsplit_once('/')
        .map(|(_, t)| t.replace("~1", "/").replace("~0", "~"))
}

/// Whether a definition key names the type whose schema name is `name` (schemars appends a
/// number when two types share a name).
fn names_type(key: &str, name: &str) -> bool {
    key.strip_prefix(name)
        .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit()))
}

impl Annotator {
    /// Adds `T`'s keywords to the object schema at `at`. `false` when `T` was already annotated
    /// there (the caller stops) or there is no object schema at `at`.
    pub fn object<T: ?Sized + Annotate>(&mut self, at: &str) -> bool {
        let id = std::any::type_name::<T>();
        if self.done.iter().any(|(p, i)| p == at && *i == id) {
            return false;
        }
        self.done.push((at.to_owned(), id));
        let Some(Value::Object(obj)) = self.root.pointer_mut(at) else {
            return false;
        };
        let spec = T::SPEC;
        let list = obj
            .entry("minimum_necessary")
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(list) = list {
            for name in spec.necessary {
                if !list.iter().any(|v| v.as_str() == Some(name)) {
                    list.push(Value::from(*name));
                }
            }
        }
        if let Some(Value::Object(props)) = obj.get_mut("properties") {
            for f in spec.fields {
                let Some(Value::Object(p)) = props.get_mut(f.name) else {
                    continue;
                };
                if let Some(c) = f.category {
                    p.insert("x-psd-category".to_owned(), Value::from(c));
                }
                if let Some(s) = f.sensitivity {
                    p.insert("x-sensitivity".to_owned(), Value::from(s));
                }
                if let Some(op) = f.op {
                    p.insert("x-minimize".to_owned(), op.to_value());
                }
            }
        }
        true
    }

    /// Annotates the schema of `T` reached from property `property` of the object at `at`.
    pub fn nested<T: ?Sized + Annotate + JsonSchema>(&mut self, at: &str, property: &str) {
        let mut start = at.to_owned();
        push_token(&mut start, "properties");
        push_token(&mut start, property);
        if let Some(target) = self.locate::<T>(&start) {
            T::annotate(self, &target);
        }
    }

    /// Finds the schema of `T` from `start`: the definition schemars named after `T` among the
    /// `$ref`s reachable from `start`, or, for a type schemars inlines, the first object schema
    /// with properties.
    fn locate<T: ?Sized + JsonSchema>(&self, start: &str) -> Option<String> {
        let name = T::schema_name();
        let inline = T::inline_schema();
        let mut queue = vec![start.to_owned()];
        let mut seen: Vec<String> = Vec::new();
        let mut first_object = None;
        let mut by_suffix = None;
        while let Some(ptr) = queue.pop() {
            if seen.len() >= MAX_VISIT {
                break;
            }
            if seen.contains(&ptr) {
                continue;
            }
            let Some(Value::Object(node)) = self.root.pointer(&ptr) else {
                seen.push(ptr);
                continue;
            };
            if inline && first_object.is_none() && node.contains_key("properties") {
                first_object = Some(ptr.clone());
            }
            let mut children = Vec::new();
            if let Some(target) = node
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(ref_target)
            {
                if let Some(key) = last_token(&target) {
                    if key == name {
                        return Some(target);
                    }
                    if by_suffix.is_none() && names_type(&key, &name) {
                        by_suffix = Some(target.clone());
                    }
                }
                // `#` is the root type, annotated first.
                if !target.is_empty() {
                    children.push(target);
                }
            }
            for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
                if let Some(Value::Array(branches)) = node.get(key) {
                    for i in 0..branches.len() {
                        let mut p = ptr.clone();
                        push_token(&mut p, key);
                        push_token(&mut p, &i.to_string());
                        children.push(p);
                    }
                }
            }
            for key in ["items", "additionalProperties"] {
                if node.get(key).is_some_and(Value::is_object) {
                    let mut p = ptr.clone();
                    push_token(&mut p, key);
                    children.push(p);
                }
            }
            if let Some(Value::Object(props)) = node.get("properties") {
                for k in props.keys() {
                    let mut p = ptr.clone();
                    push_token(&mut p, "properties");
                    push_token(&mut p, k);
                    children.push(p);
                }
            }
            seen.push(ptr);
            // Depth-first in document order.
            queue.extend(children.into_iter().rev());
        }
        if inline { first_object } else { by_suffix }
    }
}

/// Names a field's type for the autoref probe: `(&Probe::<T>::new()).nested(…)` annotates `T`'s
/// schema when `T` derives `MinimizeSchema` and does nothing otherwise.
#[derive(Debug)]
pub struct Probe<T: ?Sized>(PhantomData<T>);

impl<T: ?Sized> Probe<T> {
    /// The probe.
    pub const fn new() -> Self {
        Probe(PhantomData)
    }
}

impl<T: ?Sized> Default for Probe<T> {
    fn default() -> Self {
        Probe::new()
    }
}

/// Chosen for types that derive `MinimizeSchema`.
pub trait ViaAnnotate {
    /// Annotates the type reached from a property.
    fn nested(&self, annotator: &mut Annotator, at: &str, property: &str);
    /// Annotates a flattened type: its properties sit in the object at `at`.
    fn flattened(&self, annotator: &mut Annotator, at: &str);
}

impl<T: ?Sized + Annotate + JsonSchema> ViaAnnotate for Probe<T> {
    fn nested(&self, annotator: &mut Annotator, at: &str, property: &str) {
        annotator.nested::<T>(at, property);
    }
    fn flattened(&self, annotator: &mut Annotator, at: &str) {
        T::annotate(annotator, at);
    }
}

/// Chosen for every other type: nothing to add.
pub trait ViaNothing {
    /// Does nothing.
    fn nested(&self, _annotator: &mut Annotator, _at: &str, _property: &str) {}
    /// Does nothing.
    fn flattened(&self, _annotator: &mut Annotator, _at: &str) {}
}

impl<T: ?Sized> ViaNothing for &Probe<T> {}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ops_serialize_as_spec_section_4_says() {
        assert_eq!(Op::Keep.to_value(), json!("keep"));
        assert_eq!(Op::Generalize(None).to_value(), json!("generalize"));
        assert_eq!(
            Op::Generalize(Some("city")).to_value(),
            json!({"op": "generalize", "to": "city"})
        );
        assert_eq!(
            Op::Truncate(Some(200)).to_value(),
            json!({"op": "truncate", "max_chars": 200})
        );
    }

    #[test]
    fn pointer_tokens_are_escaped_and_numbered_names_match() {
        let mut p = String::new();
        push_token(&mut p, "a/b~c");
        assert_eq!(p, "/a~1b~0c");
        assert_eq!(last_token("/$defs/a~1b").as_deref(), Some("a/b"));
        assert!(names_type("Address2", "Address"));
        assert!(!names_type("AddressBook", "Address"));
    }
}
