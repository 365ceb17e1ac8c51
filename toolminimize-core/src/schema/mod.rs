//! Reads a tool's JSON Schema against the actual arguments: for every path in the arguments,
//! the sub-schemas that apply (through `$ref`/`$defs`, `allOf`, the matching branches of
//! `anyOf`/`oneOf`, `items`, `additionalProperties`), whether the field is required, declared
//! necessary by `minimum_necessary`, and its `x-psd-category`, `x-sensitivity` and
//! `x-minimize` annotations (SPEC §4).
//!
//! Annotations guide the analysis and never make it fail: a malformed annotation is ignored.

mod cache;
mod paths;

use std::fmt::Write as _;
use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};
use serde_json::Value;

pub(crate) use self::cache::IndexCache;
use self::cache::Shape;
use self::paths::{ElementIds, PathIds};
use crate::args::{Arg, Node};
use crate::item::{Finding, PsdItem};
use crate::pointer::{field, member};
use crate::taxonomy::{Category, Sensitivity};

/// The JSON types a field accepts (empty = any).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Types(u8);

impl Types {
    const STRING: u8 = 1;
    const NUMBER: u8 = 2;
    const INTEGER: u8 = 4;
    const BOOLEAN: u8 = 8;
    const NULL: u8 = 16;
    const OBJECT: u8 = 32;
    const ARRAY: u8 = 64;

    fn bit(name: &str) -> u8 {
        match name {
            "string" => Self::STRING,
            "number" => Self::NUMBER,
            "integer" => Self::INTEGER,
            "boolean" => Self::BOOLEAN,
            "null" => Self::NULL,
            "object" => Self::OBJECT,
            "array" => Self::ARRAY,
            _ => 0,
        }
    }

    fn of_schema(s: &Value) -> Types {
        Self::of_type(field(s, "type"))
    }

    /// The types a schema's `type` keyword names.
    fn of_type(t: Option<&Value>) -> Types {
        match t {
            Some(Value::String(t)) => Types(Self::bit(t)),
            Some(Value::Array(ts)) => Types(
                ts.iter()
                    .filter_map(Value::as_str)
                    .fold(0, |a, t| a | Self::bit(t)),
            ),
            _ => Types(0),
        }
    }

    /// No `type` constraint.
    pub fn any(self) -> bool {
        self.0 == 0
    }
    /// Accepts `null`.
    pub fn null(self) -> bool {
        self.0 & Self::NULL != 0
    }
    /// Accepts strings (or any type).
    pub fn string(self) -> bool {
        self.any() || self.0 & Self::STRING != 0
    }
    /// Accepts numbers.
    pub fn number(self) -> bool {
        self.0 & (Self::NUMBER | Self::INTEGER) != 0
    }
    /// Accepts only integers among numbers.
    pub fn integer_only(self) -> bool {
        self.0 & Self::INTEGER != 0 && self.0 & Self::NUMBER == 0
    }
    /// Accepts arrays.
    pub fn array(self) -> bool {
        self.0 & Self::ARRAY != 0
    }
    /// Accepts objects.
    pub fn object(self) -> bool {
        self.0 & Self::OBJECT != 0
    }
}

/// How the tool author allows or wants a field rewritten (`x-minimize`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MinimizeDirective {
    /// Never touch.
    Keep,
    /// Drop (or empty) the field.
    Remove,
    /// Generalize, optionally to a level (`"city"`, `"year"`, `"month"`, `"region"`, `"country"`):
    /// how what the field need not carry goes (its whole value, data it is declared for, items
    /// the tool does not need); what a text needs besides stays.
    Generalize(Option<String>),
    /// Replace identifiers by placeholders, under the same reading as `Generalize`.
    Substitute,
    /// Cut to at most this many characters (200 when not given): what starts past the cut goes
    /// with it; within it, the text is decided item by item.
    Truncate(Option<usize>),
}

impl MinimizeDirective {
    fn parse(v: &Value) -> Option<Self> {
        let (op, obj) = match v {
            Value::String(s) => (s.as_str(), None),
            Value::Object(o) => (member(o, "op")?.as_str()?, Some(o)),
            _ => return None,
        };
        Some(match op {
            "keep" => MinimizeDirective::Keep,
            "remove" => MinimizeDirective::Remove,
            "generalize" => MinimizeDirective::Generalize(
                obj.and_then(|o| member(o, "to"))
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            ),
            "substitute" => MinimizeDirective::Substitute,
            "truncate" => MinimizeDirective::Truncate(
                obj.and_then(|o| member(o, "max_chars"))
                    .and_then(Value::as_u64)
                    .and_then(|n| usize::try_from(n).ok()),
            ),
            _ => return None,
        })
    }
}

/// What the schema says about one path of the arguments.
#[derive(Debug, Clone, Default)]
pub struct FieldInfo {
    /// The property name (for array elements: the array's property name); `None` for a
    /// scalar object member (see [`member`](Self::member)).
    pub key: Option<String>,
    /// A scalar object member's entry, shared by the members of one schema: its key is the
    /// last token of its path ([`FieldInfo::key_at`]).
    pub member: bool,
    /// Accepted types.
    pub types: Types,
    /// `description` (or `title` when there is no description).
    pub description: Option<String>,
    /// `format`.
    pub format: Option<String>,
    /// `enum` (or `const`) values.
    pub enum_values: Option<Vec<Value>>,
    /// `pattern`.
    pub pattern: Option<String>,
    /// `pattern`, compiled (once per tool); `None` when there is none or it does not compile.
    pub pattern_regex: Option<std::sync::Arc<regex::Regex>>,
    /// `minLength`.
    pub min_length: Option<u64>,
    /// `maxLength`.
    pub max_length: Option<u64>,
    /// `minimum` / `exclusiveMinimum`.
    pub minimum: Option<f64>,
    /// `maximum` / `exclusiveMaximum`.
    pub maximum: Option<f64>,
    /// `minItems` (arrays).
    pub min_items: Option<u64>,
    /// Listed in its parent's `required`.
    pub required: bool,
    /// The parent object's schema says which properties are required (a `required` or
    /// `minimum_necessary` list); without one, nothing is known about optional fields.
    pub parent_lists_required: bool,
    /// `Some(listed)` when the parent object carries `minimum_necessary`.
    pub declared_necessary: Option<bool>,
    /// Whether the tool needs this field (with every ancestor needed too).
    pub necessary: bool,
    /// The schema is known (the field is declared, or covered by `additionalProperties`).
    pub declared: bool,
    /// `additionalProperties: false` on this object.
    pub closed: bool,
    /// The field, or an object or array it lies in, is a member the parent's schema does not
    /// ask for: the parent lists its `properties`, the key is not among them and no
    /// `additionalProperties` schema covers it.
    pub undeclared: bool,
    /// `x-psd-category`.
    pub psd_category: Option<Category>,
    /// `x-sensitivity`.
    pub sensitivity: Option<Sensitivity>,
    /// `x-minimize`.
    pub minimize: Option<MinimizeDirective>,
    /// `default`, when the schema gives one.
    pub default: Option<Value>,
}

/// The per-path view of a schema for one call's arguments.
///
/// Built in one pass over the arguments (linear in their size); a lookup is a hash lookup.
/// Scalar array elements that follow a sibling with the same schema share its entry, and so
/// do scalar object members (an entry of a member has no key: its path gives it,
/// [`FieldInfo::key_at`]). An array's elements are found through runs of equal entries, and
/// an object's default members (no property schema of their own, not required, not listed
/// in `minimum_necessary`) through their object: a long array whose elements share their
/// schema, or an object of 100,000 keys under one `additionalProperties`, costs a few bytes
/// in all. The other paths are found through keyed hashes (16 bytes a path).
#[derive(Debug, Default)]
pub struct SchemaIndex {
    fields: Vec<FieldInfo>,
    /// Path (of the root, object members and arrays themselves) → its entry's position in
    /// `fields`.
    by_path: PathIds,
    /// Path of an object → the entry its default members share (members with no property
    /// schema of their own, not required, not listed in `minimum_necessary`): they are found
    /// through their object, as an array's elements are through their array.
    member_defaults: PathIds,
    /// Path of an array → position in `fields` of each of its elements.
    elements: FxHashMap<String, ElementIds>,
}

/// Most entries one index holds.
const MAX_FIELDS: u32 = 1 << 31;

const MAX_REF_DEPTH: usize = 32;

/// The keywords [`Builder::info`] reads, each from the first schema that has it, but for
/// `type` and `additionalProperties`, read from every schema.
#[derive(Default)]
struct Keywords<'v> {
    /// The types every schema's `type` names, together.
    types: Types,
    /// Some schema has `additionalProperties: false`.
    closed: bool,
    enum_: Option<&'v Value>,
    const_: Option<&'v Value>,
    description: Option<&'v Value>,
    title: Option<&'v Value>,
    format: Option<&'v Value>,
    pattern: Option<&'v Value>,
    min_length: Option<&'v Value>,
    max_length: Option<&'v Value>,
    minimum: Option<&'v Value>,
    exclusive_minimum: Option<&'v Value>,
    maximum: Option<&'v Value>,
    exclusive_maximum: Option<&'v Value>,
    min_items: Option<&'v Value>,
    psd_category: Option<&'v Value>,
    sensitivity: Option<&'v Value>,
    minimize: Option<&'v Value>,
    default: Option<&'v Value>,
}

impl<'v> Keywords<'v> {
    fn offer(&mut self, key: &str, value: &'v Value) {
        let slot = match key {
            "type" => {
                self.types.0 |= Types::of_type(Some(value)).0;
                return;
            }
            "additionalProperties" => {
                self.closed |= *value == Value::Bool(false);
                return;
            }
            "enum" => &mut self.enum_,
            "const" => &mut self.const_,
            "description" => &mut self.description,
            "title" => &mut self.title,
            "format" => &mut self.format,
            "pattern" => &mut self.pattern,
            "minLength" => &mut self.min_length,
            "maxLength" => &mut self.max_length,
            "minimum" => &mut self.minimum,
            "exclusiveMinimum" => &mut self.exclusive_minimum,
            "maximum" => &mut self.maximum,
            "exclusiveMaximum" => &mut self.exclusive_maximum,
            "minItems" => &mut self.min_items,
            "x-psd-category" => &mut self.psd_category,
            "x-sensitivity" => &mut self.sensitivity,
            "x-minimize" => &mut self.minimize,
            "default" => &mut self.default,
            _ => return,
        };
        if slot.is_none() {
            *slot = Some(value);
        }
    }
}

/// Where each element of an array finds its schema, in each schema of the array: its
/// `prefixItems`, and its `items` (a schema, or a list of them by position).
struct ItemSources<'a> {
    sources: Vec<(Option<&'a Vec<Value>>, Option<&'a Value>)>,
}

impl<'a> ItemSources<'a> {
    /// Each schema's `prefixItems` and `items`, looked up once for all the elements.
    fn of(schemas: &[&'a Value]) -> Self {
        ItemSources {
            sources: schemas
                .iter()
                .map(|s| {
                    (
                        field(s, "prefixItems").and_then(Value::as_array),
                        field(s, "items"),
                    )
                })
                .collect(),
        }
    }

    /// The schemas that apply to element `i` (before expansion), one at most per schema.
    fn at(&self, i: usize) -> impl Iterator<Item = &'a Value> + '_ {
        self.sources.iter().filter_map(move |&(prefix, items)| {
            match prefix.and_then(|p| p.get(i)) {
                Some(p) => Some(p),
                None => match items {
                    Some(Value::Array(tuple)) => tuple.get(i),
                    x => x,
                },
            }
        })
    }

    /// Whether element `i` may find other schemas than an element at another position does
    /// (a `prefixItems` reaching it, or `items` listing schemas by position).
    fn positional(&self, i: usize) -> bool {
        self.sources.iter().any(|&(prefix, items)| {
            prefix.is_some_and(|p| i < p.len()) || matches!(items, Some(Value::Array(_)))
        })
    }
}

/// The kinds of scalar values that the schemas applying to them ([`Builder::expand`]) tell
/// apart, for the values whose kind is cheap to tell: `None` for other values (numbers that are
/// not 64-bit integers, objects and arrays).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ScalarKind {
    Null,
    Bool,
    Integer,
    String,
}

impl ScalarKind {
    fn of(v: Arg<'_>) -> Option<Self> {
        match v.node() {
            Node::Null => Some(ScalarKind::Null),
            Node::Bool(_) => Some(ScalarKind::Bool),
            Node::Number(n) if n.is_64_bit_integer() => Some(ScalarKind::Integer),
            Node::String(_) => Some(ScalarKind::String),
            _ => None,
        }
    }
}

/// The last scalar element of an array given an entry, as [`Builder::walk`] reads the next.
struct Previous {
    /// Its schemas.
    ptrs: Vec<*const Value>,
    /// Its entry.
    shared: u32,
    /// Its kind.
    kind: Option<ScalarKind>,
    /// Its schemas do not depend on its position.
    uniform: bool,
}

struct Builder<'a> {
    root: &'a Value,
    patterns: &'a crate::tool::Patterns,
    index: SchemaIndex,
    /// Two paths met on one hash: the index must be built with exact paths.
    collided: bool,
}

fn resolve_ref<'a>(root: &'a Value, r: &str) -> Option<&'a Value> {
    let ptr = r.strip_prefix('#')?;
    if ptr.is_empty() {
        return Some(root);
    }
    root.pointer(ptr)
}

/// Whether a number is an integer, including one beyond 64 bits kept exact (serde_json's
/// `arbitrary_precision`).
pub(crate) fn is_integer(n: &serde_json::Number) -> bool {
    n.is_i64() || n.is_u64() || !n.to_string().contains(['.', 'e', 'E'])
}

fn value_matches_types(v: Arg<'_>, t: Types) -> bool {
    if t.any() {
        return true;
    }
    match v.node() {
        Node::Null => t.null(),
        Node::Bool(_) => t.0 & Types::BOOLEAN != 0,
        Node::Number(n) => {
            t.0 & Types::NUMBER != 0 || (t.0 & Types::INTEGER != 0 && n.is_integer())
        }
        Node::String(_) => t.0 & Types::STRING != 0,
        Node::Array(_) => t.array(),
        Node::Object(_) => t.object(),
    }
}

impl<'a> Builder<'a> {
    /// Expands `$ref`, `allOf` and the branches of `anyOf`/`oneOf` that fit `v` into the list
    /// of schemas that apply to `v`.
    fn expand(&self, s: &'a Value, v: Arg<'_>, acc: &mut Vec<&'a Value>, depth: usize) {
        if depth > MAX_REF_DEPTH {
            return;
        }
        let Value::Object(o) = s else {
            return;
        };
        acc.push(s);
        // The four keywords read in one pass over the schema's keys (a look-up per keyword
        // would hash each name), then followed in their fixed order.
        let (mut r#ref, mut all_of, mut any_of, mut one_of) = (None, None, None, None);
        for (k, x) in o {
            match k.as_str() {
                "$ref" => r#ref = Some(x),
                "allOf" => all_of = Some(x),
                "anyOf" => any_of = Some(x),
                "oneOf" => one_of = Some(x),
                _ => {}
            }
        }
        if let Some(r) = r#ref.and_then(Value::as_str)
            && let Some(t) = resolve_ref(self.root, r)
        {
            self.expand(t, v, acc, depth + 1);
        }
        if let Some(all) = all_of.and_then(Value::as_array) {
            for b in all {
                self.expand(b, v, acc, depth + 1);
            }
        }
        for branches in [any_of, one_of] {
            if let Some(branches) = branches.and_then(Value::as_array) {
                let mut fitting: Vec<&'a Value> = Vec::new();
                for b in branches {
                    let mut sub = Vec::new();
                    self.expand(b, v, &mut sub, depth + 1);
                    let ok = sub
                        .iter()
                        .all(|x| value_matches_types(v, Types::of_schema(x)));
                    if ok && !sub.is_empty() {
                        fitting.extend(sub);
                    }
                }
                acc.extend(fitting);
            }
        }
    }

    fn info(&self, schemas: &[&'a Value], key: Option<&str>) -> FieldInfo {
        // The first schema that has each keyword gives its value: one pass over the schemas'
        // keywords instead of a look-up per keyword and schema.
        let mut kw = Keywords::default();
        for s in schemas {
            if let Value::Object(o) = s {
                for (k, v) in o {
                    kw.offer(k, v);
                }
            }
        }
        let types = kw.types;
        let enum_values = kw
            .enum_
            .and_then(Value::as_array)
            .cloned()
            .or_else(|| kw.const_.map(|c| vec![c.clone()]));
        let num = |a: Option<&Value>, b: Option<&Value>| {
            a.and_then(Value::as_f64)
                .or_else(|| b.and_then(Value::as_f64))
        };
        FieldInfo {
            key: key.map(str::to_owned),
            types,
            description: kw
                .description
                .or(kw.title)
                .and_then(Value::as_str)
                .map(str::to_owned),
            format: kw.format.and_then(Value::as_str).map(str::to_owned),
            enum_values,
            pattern: kw.pattern.and_then(Value::as_str).map(str::to_owned),
            pattern_regex: kw
                .pattern
                .and_then(Value::as_str)
                .and_then(|p| self.patterns.get(p).cloned().flatten()),
            min_length: kw.min_length.and_then(Value::as_u64),
            max_length: kw.max_length.and_then(Value::as_u64),
            minimum: num(kw.minimum, kw.exclusive_minimum),
            maximum: num(kw.maximum, kw.exclusive_maximum),
            min_items: kw.min_items.and_then(Value::as_u64),
            psd_category: kw
                .psd_category
                .and_then(Value::as_str)
                .and_then(|c| c.parse().ok()),
            sensitivity: kw
                .sensitivity
                .and_then(Value::as_u64)
                .and_then(|n| u8::try_from(n).ok())
                .and_then(Sensitivity::new),
            minimize: kw.minimize.and_then(MinimizeDirective::parse),
            default: kw.default.cloned(),
            declared: !schemas.is_empty(),
            closed: kw.closed,
            ..FieldInfo::default()
        }
    }

    fn walk(
        &mut self,
        schemas: Vec<&'a Value>,
        v: Arg<'_>,
        path: &mut String,
        mut info: FieldInfo,
        depth: usize,
        element: bool,
    ) -> Option<u32> {
        if depth > crate::MAX_DEPTH {
            return None;
        }
        let parent_necessary = info.necessary;
        let parent_undeclared = info.undeclared;
        match v.node() {
            Node::Object(map) => {
                let min_nec: Option<FxHashSet<&str>> = schemas.iter().find_map(|s| {
                    field(s, "minimum_necessary")
                        .and_then(Value::as_array)
                        .map(|a| a.iter().filter_map(Value::as_str).collect())
                });
                let required: FxHashSet<&str> = schemas
                    .iter()
                    .filter_map(|s| field(s, "required").and_then(Value::as_array))
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                info.closed = schemas
                    .iter()
                    .any(|s| field(s, "additionalProperties") == Some(&Value::Bool(false)));
                let id = self.record(path, info, element);
                let lists_required =
                    min_nec.is_some() || schemas.iter().any(|s| field(s, "required").is_some());
                // The previous scalar member's schemas, flags and shared entry: members that
                // have the same share it (an object of many keys under one
                // `additionalProperties` holds one entry).
                let mut previous: Option<(Vec<*const Value>, bool, Option<bool>, u32)> = None;
                // Each schema's `properties`, looked up once for all the members.
                let properties: Vec<Option<&'a Value>> =
                    schemas.iter().map(|s| field(s, "properties")).collect();
                let lists_properties = properties.iter().any(Option::is_some);
                // An object that says any member is welcome (`"additionalProperties": true`:
                // a webhook's payload, a record's custom fields) asks for what it is sent.
                let open = schemas
                    .iter()
                    .any(|s| field(s, "additionalProperties") == Some(&Value::Bool(true)));
                // Room for every member at once: a large object's entries are not copied
                // from smaller buffers as it is walked.
                // The entry this object's default members share, made at the first (with the
                // schemas it was made for).
                let mut default: Option<(Vec<*const Value>, u32)> = None;
                for (k, child) in map {
                    let child_schemas = self.property_schemas(&schemas, &properties, k, child);
                    let undeclared_k =
                        parent_undeclared || lists_properties && child_schemas.is_empty() && !open;
                    let required_k = required.contains(k);
                    let declared_k = min_nec.as_ref().map(|l| l.contains(k));
                    let scalar = !child.is_container();
                    let len = path.len();
                    push_token(path, k);
                    // What the parent says of member `k`, on top of its own schemas.
                    let as_member = |mut ci: FieldInfo| {
                        ci.required = required_k;
                        ci.parent_lists_required = lists_required;
                        ci.declared_necessary = declared_k;
                        ci.necessary =
                            parent_necessary && ci.declared_necessary.unwrap_or(ci.required);
                        ci.undeclared = undeclared_k;
                        ci
                    };
                    if !scalar {
                        let ci = as_member(self.info(&child_schemas, Some(k)));
                        self.walk(child_schemas, child, path, ci, depth + 1, false);
                        path.truncate(len);
                        continue;
                    }
                    if depth + 1 > crate::MAX_DEPTH {
                        path.truncate(len);
                        continue;
                    }
                    let ptrs: Vec<*const Value> = child_schemas
                        .iter()
                        .map(|s| std::ptr::from_ref(*s))
                        .collect();
                    // A default member: no property schema of its own, not required, not
                    // listed as necessary.
                    let by_default = !required_k
                        && declared_k != Some(true)
                        && !properties
                            .iter()
                            .any(|p| p.and_then(|p| field(p, k)).is_some());
                    let make = |b: &mut Self| {
                        // What `info` gives a member, its key left to its path.
                        let mut ci = as_member(b.info(&child_schemas, None));
                        ci.member = true;
                        b.push_field(ci)
                    };
                    if by_default {
                        match &default {
                            Some((p, _)) if *p == ptrs => {}
                            Some(_) => {
                                // Other schemas than the object's first default member's:
                                // found by its own path.
                                if let Some(id) = make(self) {
                                    self.reach(path, id);
                                }
                            }
                            None => {
                                if let Some(id) = make(self) {
                                    let object = path.get(..len).unwrap_or_default();
                                    if !self.index.member_defaults.insert(object, id) {
                                        self.collided = true;
                                    }
                                    default = Some((ptrs, id));
                                }
                            }
                        }
                        path.truncate(len);
                        continue;
                    }
                    let shared = match &previous {
                        Some((p, r, d, shared))
                            if (p, *r, *d) == (&ptrs, required_k, declared_k) =>
                        {
                            Some(*shared)
                        }
                        _ => make(self),
                    };
                    if let Some(shared) = shared {
                        self.reach(path, shared);
                    }
                    path.truncate(len);
                    previous = shared.map(|shared| (ptrs, required_k, declared_k, shared));
                }
                id
            }
            Node::Array(arr) => {
                let key = info.key.clone();
                let array_annotations = (
                    info.psd_category,
                    info.sensitivity,
                    info.minimize.clone(),
                    info.description.clone(),
                );
                let id = self.record(path, info, element);
                let mut ids = ElementIds::default();
                // The previous scalar element's schemas and entry: elements that share their
                // schemas share their entry.
                let mut previous: Option<Previous> = None;
                let sources = ItemSources::of(&schemas);
                for (i, child) in arr.enumerate() {
                    let kind = ScalarKind::of(child);
                    let uniform = !sources.positional(i);
                    // The same item schemas as the previous element, read for a value of the
                    // same kind: the same entry, without expanding them again.
                    if let Some(p) = &previous
                        && uniform
                        && p.uniform
                        && kind.is_some()
                        && kind == p.kind
                    {
                        ids.push(p.shared);
                        continue;
                    }
                    let mut item_schemas = Vec::new();
                    for x in sources.at(i) {
                        self.expand(x, child, &mut item_schemas, 0);
                    }
                    let scalar = !child.is_container();
                    let ptrs: Vec<*const Value> = item_schemas
                        .iter()
                        .map(|s| std::ptr::from_ref(*s))
                        .collect();
                    if scalar
                        && let Some(p) = &previous
                        && p.ptrs == ptrs
                    {
                        ids.push(p.shared);
                        continue;
                    }
                    let mut ci = self.info(&item_schemas, key.as_deref());
                    ci.required = true;
                    ci.necessary = parent_necessary;
                    ci.undeclared = parent_undeclared;
                    // An array's annotations speak for its elements unless they say otherwise.
                    ci.psd_category = ci.psd_category.or(array_annotations.0);
                    ci.sensitivity = ci.sensitivity.or(array_annotations.1);
                    if ci.minimize.is_none() {
                        ci.minimize.clone_from(&array_annotations.2);
                    }
                    if ci.description.is_none() {
                        ci.description.clone_from(&array_annotations.3);
                    }
                    let len = path.len();
                    let _ = write!(path, "/{i}");
                    let child_id = self.walk(item_schemas, child, path, ci, depth + 1, true);
                    path.truncate(len);
                    let Some(child_id) = child_id else {
                        continue;
                    };
                    ids.push(child_id);
                    previous = scalar.then_some(Previous {
                        ptrs,
                        shared: child_id,
                        kind,
                        uniform,
                    });
                }
                self.index.elements.insert(path.clone(), ids);
                id
            }
            _ => self.record(path, info, element),
        }
    }

    /// Stores `info`; reachable by `path` unless it is an array element (found through its
    /// array's list).
    fn record(&mut self, path: &str, info: FieldInfo, element: bool) -> Option<u32> {
        let id = self.push_field(info)?;
        if !element {
            self.reach(path, id);
        }
        Some(id)
    }

    /// Stores `info`, reachable by no path yet.
    fn push_field(&mut self, info: FieldInfo) -> Option<u32> {
        let id = u32::try_from(self.index.fields.len())
            .ok()
            .filter(|&id| id < MAX_FIELDS)?;
        self.index.fields.push(info);
        Some(id)
    }

    /// Makes `path` (not an array element) reach the entry `id`.
    fn reach(&mut self, path: &str, id: u32) {
        if !self.index.by_path.insert(path, id) {
            self.collided = true;
        }
    }

    /// The schemas of member `k` of an object under `parents`, whose `properties` are
    /// `properties` (one per parent).
    fn property_schemas(
        &self,
        parents: &[&'a Value],
        properties: &[Option<&'a Value>],
        k: &str,
        child: Arg<'_>,
    ) -> Vec<&'a Value> {
        let mut acc = Vec::new();
        for p in properties {
            if let Some(p) = p.and_then(|p| field(p, k)) {
                self.expand(p, child, &mut acc, 0);
            }
        }
        if acc.is_empty() {
            for s in parents {
                if let Some(ap @ Value::Object(_)) = field(s, "additionalProperties") {
                    self.expand(ap, child, &mut acc, 0);
                }
            }
        }
        acc
    }
}

impl FieldInfo {
    /// The property name of the field at `path` this entry describes: its own, or for an
    /// object member the last token of `path` (as written in the pointer).
    pub(crate) fn key_at<'a>(&'a self, path: &'a str) -> Option<&'a str> {
        match &self.key {
            Some(k) => Some(k),
            None if self.member => path.rsplit('/').next(),
            None => None,
        }
    }
}

/// Entries a schema index has room for before it grows.
const FIELDS_AT_FIRST: usize = 16;

impl SchemaIndex {
    /// Indexes `schema` against `args`.
    pub fn build(schema: &Value, args: &Value) -> SchemaIndex {
        Self::build_with(schema, args.into(), &crate::tool::compile_patterns(schema))
    }

    /// Indexes a tool's schema against `args`, with the patterns the tool compiled once: the
    /// index the tool built for arguments of the same shape, when it kept one (see
    /// [`IndexCache`]).
    pub(crate) fn for_tool(tool: &crate::ToolDef, args: Arg<'_>) -> Arc<SchemaIndex> {
        let build = || Self::build_with(tool.input_schema(), args, tool.patterns());
        match Shape::of(args) {
            Some(shape) => tool.schema_indexes().get_or_build(shape, build),
            None => Arc::new(build()),
        }
    }

    fn build_with(schema: &Value, args: Arg<'_>, patterns: &crate::tool::Patterns) -> SchemaIndex {
        // Room for a call's usual fields at once: an entry is large, and growing the list from
        // four entries copies it twice or three times.
        let index = SchemaIndex {
            fields: Vec::with_capacity(FIELDS_AT_FIRST),
            ..SchemaIndex::default()
        };
        let (index, collided) = Self::build_into(index, schema, args, patterns);
        if !collided {
            return index;
        }
        // Two paths met on one hash (see `PathIds`): built again with the paths as keys.
        let exact = SchemaIndex {
            by_path: PathIds::exact(),
            member_defaults: PathIds::exact(),
            ..SchemaIndex::default()
        };
        Self::build_into(exact, schema, args, patterns).0
    }

    /// Indexes `args` into `index`; `true` when two paths met on one hash.
    fn build_into(
        index: SchemaIndex,
        schema: &Value,
        args: Arg<'_>,
        patterns: &crate::tool::Patterns,
    ) -> (SchemaIndex, bool) {
        let mut b = Builder {
            root: schema,
            patterns,
            index,
            collided: false,
        };
        let mut schemas = Vec::new();
        b.expand(schema, args, &mut schemas, 0);
        let mut info = b.info(&schemas, None);
        info.required = true;
        info.necessary = true;
        let mut path = String::new();
        b.walk(schemas, args, &mut path, info, 0, false);
        (b.index, b.collided)
    }

    /// What the schema says of `path` (a JSON pointer into the arguments). An object
    /// member's key is read with [`FieldInfo::key_at`].
    pub fn field(&self, path: &str) -> Option<&FieldInfo> {
        let id = self.entry(path)?;
        self.fields.get(usize::try_from(id).ok()?)
    }

    /// [`field`](Self::field), for readers of everything but the key, such as the classifier.
    pub fn field_unkeyed(&self, path: &str) -> Option<&FieldInfo> {
        self.field(path)
    }

    /// What the schema says of each element of the array at `path`, but for its `key` (as
    /// [`field_unkeyed`](Self::field_unkeyed) answers for `path/i`): the array looked up once
    /// for all of its elements.
    pub(crate) fn elements_unkeyed(&self, path: &str) -> ElementFields<'_> {
        ElementFields {
            fields: &self.fields,
            ids: self.elements.get(path),
        }
    }

    /// The position in `fields` of the entry of `path`.
    fn entry(&self, path: &str) -> Option<u32> {
        if let Some(id) = self.by_path.get(path) {
            return Some(id);
        }
        let (parent, last) = path.rsplit_once('/')?;
        if let Some(ids) = self.elements.get(parent) {
            return ids.get(last.parse().ok()?);
        }
        self.member_defaults.get(parent)
    }

    /// Places a finding at `path`, applying the field's `x-sensitivity` when the finding is of
    /// the field's declared category.
    pub fn item_from(
        &self,
        path: &str,
        span: Option<std::ops::Range<usize>>,
        f: &Finding,
    ) -> PsdItem {
        Self::item_in(self.field_unkeyed(path), path, span, f)
    }

    /// [`item_from`](Self::item_from) with the field of `path` already looked up (`info`, as
    /// [`field_unkeyed`](Self::field_unkeyed) gives it).
    pub(crate) fn item_in(
        info: Option<&FieldInfo>,
        path: &str,
        span: Option<std::ops::Range<usize>>,
        f: &Finding,
    ) -> PsdItem {
        let declared = info.and_then(|i| i.psd_category);
        let sensitivity = match (declared, info.and_then(|i| i.sensitivity)) {
            (Some(c), Some(s)) if c == f.category => s,
            _ => f
                .kind
                .default_sensitivity()
                .max(if f.category == f.kind.category() {
                    f.kind.default_sensitivity()
                } else {
                    f.category.default_sensitivity()
                }),
        };
        PsdItem {
            path: path.to_owned(),
            span,
            kind: f.kind,
            category: f.category,
            sensitivity,
            detector: f.detector,
            confidence: f.confidence,
        }
    }
}

/// The entries of one array's elements, found once for the array (see
/// [`SchemaIndex::elements_unkeyed`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ElementFields<'s> {
    fields: &'s [FieldInfo],
    ids: Option<&'s ElementIds>,
}

impl<'s> ElementFields<'s> {
    /// What the schema says of element `i`, but for its key.
    pub(crate) fn get(&self, i: usize) -> Option<&'s FieldInfo> {
        let id = self.ids?.get(i)?;
        self.fields.get(usize::try_from(id).ok()?)
    }
}

/// The key of the object that holds the value at JSON pointer `path` (`document` of
/// `/travelers/0/document/number`), past array indices.
pub(crate) fn parent_key(path: &str) -> Option<&str> {
    let mut steps = path.rsplit('/');
    steps.next();
    steps.find(|s| !s.is_empty() && !s.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether a container's key names a place (`location`, `venues`): a name or a label under it
/// (`location.displayName`, `venue.name`) is the place's, not a person's.
pub(crate) fn names_a_place(key: &str) -> bool {
    crate::text::words::any_identifier_word(key, |w| {
        matches!(
            w,
            "location" | "locations" | "venue" | "venues" | "place" | "places"
        )
    })
}

/// Appends `/i` (an array index) to a JSON pointer, without the formatting machinery.
pub(crate) fn push_index(path: &mut String, i: usize) {
    path.push('/');
    let mut digits = [0u8; 20];
    let mut len = 0;
    let mut n = i;
    loop {
        if let Some(d) = digits.get_mut(len) {
            *d = b'0' + u8::try_from(n % 10).unwrap_or(0);
        }
        len += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in digits.iter().take(len).rev() {
        path.push(char::from(d));
    }
}

/// Appends `/token` to a JSON pointer, escaping `~` and `/` (RFC 6901).
pub(crate) fn push_token(path: &mut String, token: &str) {
    path.push('/');
    for c in token.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_index_reads_refs_and_required() {
        use crate::schema::SchemaIndex;
        use serde_json::json;
        let schema = json!({
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "who": {"$ref": "#/$defs/Person"}
            },
            "required": ["city"],
            "$defs": {"Person": {"type": "object", "properties": {"name": {"type": "string", "x-psd-category": "identity"}}}}
        });
        let args = json!({"city": "Oslo", "who": {"name": "Kari"}});
        let idx = SchemaIndex::build(&schema, &args);
        assert!(idx.field("/city").unwrap().necessary);
        assert!(!idx.field("/who/name").unwrap().necessary);
        assert_eq!(
            idx.field("/who/name").unwrap().psd_category.map(|c| c.id()),
            Some("identity")
        );
    }

    #[test]
    fn nullable_any_of_picks_the_branch_that_fits() {
        let schema = json!({"type": "object", "properties": {
            "participants": {"anyOf": [{"type": "array", "items": {"type": "string", "format": "email"}}, {"type": "null"}]}
        }});
        let idx = SchemaIndex::build(&schema, &json!({"participants": ["a@b.co"]}));
        assert!(idx.field("/participants").unwrap().types.array());
        assert_eq!(
            idx.field("/participants/0").unwrap().format.as_deref(),
            Some("email")
        );
    }

    #[test]
    fn minimum_necessary_overrides_required() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            "required": ["a", "b"], "minimum_necessary": ["a"]});
        let idx = SchemaIndex::build(&schema, &json!({"a": "x", "b": "y"}));
        assert!(idx.field("/a").unwrap().necessary);
        assert!(!idx.field("/b").unwrap().necessary);
        assert_eq!(idx.field("/b").unwrap().declared_necessary, Some(false));
    }

    #[test]
    fn members_the_schema_does_not_ask_for_are_undeclared() {
        let schema = json!({"type": "object", "properties": {
            "people": {"type": "array", "items": {"type": "object",
                "properties": {"name": {"type": "string"}}}},
            "meta": {"type": "object"},
            "tags": {"type": "object", "additionalProperties": {"type": "string"}}
        }});
        let args = json!({
            "people": [{"name": "a", "note": "n", "extra": {"deep": ["x"]}}],
            "meta": {"free": "f"},
            "tags": {"any": "t"},
            "stray": "s"
        });
        let idx = SchemaIndex::build(&schema, &args);
        for path in ["/people/0/note", "/people/0/extra/deep/0", "/stray"] {
            assert!(idx.field(path).unwrap().undeclared, "{path}");
        }
        // A declared member, a member of an object that lists no properties and one that
        // `additionalProperties` covers are asked for.
        for path in ["/people/0/name", "/meta/free", "/tags/any"] {
            assert!(!idx.field(path).unwrap().undeclared, "{path}");
        }
    }

    #[test]
    fn nested_objects_inherit_unnecessary_parents_and_read_annotations() {
        let schema = json!({"type": "object", "properties": {
            "props": {"type": "object", "additionalProperties": {"type": "string", "x-sensitivity": 2}},
            "when": {"type": "string", "x-minimize": {"op": "generalize", "to": "month"}}
        }, "required": ["props"]});
        let idx = SchemaIndex::build(
            &schema,
            &json!({"props": {"notes": "n"}, "when": "2025-01-02"}),
        );
        let notes = idx.field("/props/notes").unwrap();
        assert!(notes.declared);
        assert!(!notes.necessary);
        assert_eq!(notes.sensitivity, Sensitivity::new(2));
        assert_eq!(
            idx.field("/when").unwrap().minimize,
            Some(MinimizeDirective::Generalize(Some("month".into())))
        );
    }

    #[test]
    fn array_annotations_reach_their_elements() {
        let schema = json!({"type": "object", "properties": {"phones": {"type": "array", "items": {"type": "string"},
            "x-psd-category": "identity", "x-sensitivity": 2, "x-minimize": "keep"}}});
        let idx = SchemaIndex::build(&schema, &json!({"phones": ["+1 555 0100"]}));
        let el = idx.field("/phones/0").unwrap();
        assert_eq!(el.psd_category, Some(Category::Identity));
        assert_eq!(el.sensitivity, Sensitivity::new(2));
        assert_eq!(el.minimize, Some(MinimizeDirective::Keep));
    }

    #[test]
    fn cyclic_refs_terminate() {
        let schema = json!({"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/A"}}});
        let idx = SchemaIndex::build(&schema, &json!({"x": 1}));
        assert!(idx.field("").is_some());
    }

    #[test]
    fn members_of_one_schema_share_an_entry_and_keep_their_keys() {
        let schema = json!({"type": "object", "properties": {
            "extra": {"type": "object", "additionalProperties": {"type": "string", "x-sensitivity": 2}},
            "tags": {"type": "array", "items": {"type": "string"}}
        }, "required": ["extra"]});
        let mut extra = serde_json::Map::new();
        for i in 0..1000 {
            extra.insert(format!("key_{i}"), json!(format!("value {i}")));
        }
        extra.insert("a/b~c".into(), json!({"inner": 1}));
        let tags: Vec<Value> = (0..1000).map(|i| json!(format!("tag {i}"))).collect();
        let args = json!({"extra": extra, "tags": tags});
        let idx = SchemaIndex::build(&schema, &args);
        // The root, `extra`, its members' shared entry, `a/b~c` and its member, `tags` and
        // its elements' shared entry.
        assert!(idx.fields.len() <= 8, "{} entries", idx.fields.len());
        for i in [0, 1, 999] {
            let path = format!("/extra/key_{i}");
            let f = idx.field(&path).unwrap();
            assert_eq!(f.key_at(&path), Some(format!("key_{i}").as_str()));
            assert_eq!(f.sensitivity, Sensitivity::new(2));
            assert!(f.declared);
            assert!(!f.required);
            let unkeyed = idx.field_unkeyed(&format!("/extra/key_{i}")).unwrap();
            assert_eq!(unkeyed.sensitivity, Sensitivity::new(2));
        }
        assert_eq!(
            idx.field("/extra/a~1b~0c").unwrap().key.as_deref(),
            Some("a/b~c")
        );
        let inner = "/extra/a~1b~0c/inner";
        assert_eq!(idx.field(inner).unwrap().key_at(inner), Some("inner"));
        assert_eq!(idx.field("/tags/999").unwrap().key.as_deref(), Some("tags"));
        assert!(idx.field("/tags/1000").is_none());
        // A member the object does not hold is answered as its schema answers any member.
        let absent = idx.field("/extra/key_1000").unwrap();
        assert_eq!(absent.sensitivity, Sensitivity::new(2));
        assert!(idx.field("/extra/key_1/deeper").is_none());
        assert!(idx.field("/nowhere/key_1").is_none());
    }

    #[test]
    fn elements_of_mixed_kinds_and_positions_find_their_own_schemas() {
        let schema = json!({"type": "object", "properties": {"mix": {"type": "array",
        "prefixItems": [{"type": "string", "format": "date"}],
        "items": {"anyOf": [
            {"type": "string", "format": "email"},
            {"type": "integer", "x-sensitivity": 3},
            {"type": "null", "description": "nothing"}
        ]}}}});
        let args = json!({"mix": ["2020-01-01", "a@b.co", 7, "c@d.co", null, 8, 2.5, "e@f.co"]});
        let idx = SchemaIndex::build(&schema, &args);
        let formats = ["date", "email", "", "email", "", "", "", "email"];
        let elements = idx.elements_unkeyed("/mix");
        for (i, format) in formats.iter().enumerate() {
            let f = idx.field_unkeyed(&format!("/mix/{i}")).unwrap();
            assert_eq!(f.format.as_deref().unwrap_or(""), *format, "{i}");
            assert!(std::ptr::eq(f, elements.get(i).unwrap()), "{i}");
        }
        for i in [2, 5] {
            assert_eq!(elements.get(i).unwrap().sensitivity, Sensitivity::new(3));
        }
        assert_eq!(
            elements.get(4).unwrap().description.as_deref(),
            Some("nothing")
        );
        assert!(elements.get(6).unwrap().sensitivity.is_none());
        assert!(elements.get(8).is_none());
        assert!(idx.elements_unkeyed("/none").get(0).is_none());
    }

    #[test]
    fn array_indexes_are_written_in_decimal() {
        for i in [0, 7, 10, 99, 100, 12_345, usize::MAX] {
            let mut path = String::from("/a");
            push_index(&mut path, i);
            assert_eq!(path, format!("/a/{i}"));
        }
    }

    #[test]
    fn escaped_keys_make_valid_pointers() {
        let idx = SchemaIndex::build(&json!({}), &json!({"a/b": {"c~d": 1}}));
        assert!(idx.field("/a~1b/c~0d").is_some());
    }
}
