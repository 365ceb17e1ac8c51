//! Tool definitions: a name, a description and the JSON Schema of the arguments.
//!
//! Accepts the MCP spelling (`inputSchema`), the snake-case spelling (`input_schema`) and the
//! OpenAI function-calling spelling (`parameters`, also nested under `function`).

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use regex::Regex;
use serde_json::{Map, Value};

use crate::decide::purpose::ToolKind;
use crate::error::{Error, ErrorKind};
use crate::taxonomy::Exposure;

/// The schema's `pattern`s, compiled: `None` for one that does not compile (the schema
/// validator is then the judge of values for it).
pub(crate) type Patterns = HashMap<String, Option<Arc<Regex>>>;

/// Compiles every string `pattern` keyword in `schema` once (an iterative walk, linear in the
/// size of the schema).
pub(crate) fn compile_patterns(schema: &Value) -> Patterns {
    let mut out = Patterns::new();
    let mut stack = vec![schema];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(o) => {
                if let Some(Value::String(p)) = o.get("pattern")
                    && !out.contains_key(p)
                {
                    let re = regex::RegexBuilder::new(p)
                        .size_limit(1 << 20)
                        .build()
                        .ok()
                        .map(Arc::new);
                    out.insert(p.clone(), re);
                }
                stack.extend(o.values());
            }
            Value::Array(a) => stack.extend(a),
            _ => {}
        }
    }
    out
}

/// A tool as the minimizer sees it: a name, a description and the JSON Schema of the arguments.
///
/// [`ToolDef::from_json`] accepts the MCP spelling (`inputSchema`), the snake-case spelling
/// (`input_schema`) and the OpenAI function-calling spelling (`parameters`, also nested under
/// `function`). The schema's `pattern`s are compiled once, when the tool is made, and shared by
/// its clones; so is the tool's kind, recognised on the first call, so is what its name and
/// description tell the decisions, and so are the schema's indexes for the last few shapes of
/// arguments it was called with.
///
/// ```
/// use serde_json::json;
/// use toolminimize_core::ToolDef;
/// let t = ToolDef::from_json(&json!({"name": "get_forecast", "parameters": {"type": "object"}}))?;
/// assert_eq!(t.name(), "get_forecast");
/// # Ok::<(), toolminimize_core::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct ToolDef {
    /// Shared by the tool's clones: a clone is a reference count, however large the schema.
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    name: String,
    description: String,
    input_schema: Value,
    patterns: Patterns,
    kind: OnceLock<ToolKind>,
    /// The schema's indexes for the argument shapes the tool was called with.
    indexes: crate::schema::IndexCache,
    /// What the name and description say that decisions read, read on the first call.
    traits: OnceLock<crate::decide::ToolTraits>,
}

impl PartialEq for ToolDef {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
            || (self.inner.name == other.inner.name
                && self.inner.description == other.inner.description
                && self.inner.input_schema == other.inner.input_schema)
    }
}

impl ToolDef {
    /// A tool from its parts. A schema that is not an object is replaced by `{}` (accept anything).
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: Value,
    ) -> Self {
        let input_schema = if input_schema.is_object() || input_schema.is_boolean() {
            input_schema
        } else {
            Value::Object(Map::new())
        };
        let patterns = compile_patterns(&input_schema);
        ToolDef {
            inner: Arc::new(Inner {
                name: name.into(),
                description: description.into(),
                input_schema,
                patterns,
                kind: OnceLock::new(),
                indexes: crate::schema::IndexCache::default(),
                traits: OnceLock::new(),
            }),
        }
    }

    /// The tool's kind ([`ToolKind::of`]), recognised once and shared by the tool's clones.
    pub(crate) fn kind(&self) -> ToolKind {
        *self.inner.kind.get_or_init(|| ToolKind::of(self))
    }

    /// The schema's compiled patterns.
    pub(crate) fn patterns(&self) -> &Patterns {
        &self.inner.patterns
    }

    /// What the tool's name and description say that decisions read, read once and shared by
    /// the tool's clones.
    pub(crate) fn traits(&self) -> &crate::decide::ToolTraits {
        self.inner
            .traits
            .get_or_init(|| crate::decide::ToolTraits::of(self))
    }

    /// The schema indexes kept for the argument shapes the tool was called with.
    pub(crate) fn schema_indexes(&self) -> &crate::schema::IndexCache {
        &self.inner.indexes
    }

    /// Parses an MCP, OpenAI or snake-case tool object.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidTool`] when the value is not an object, has no string `name`, or has
    /// a schema that is neither an object nor a boolean.
    pub fn from_json(v: &Value) -> Result<Self, Error> {
        let obj = v
            .as_object()
            .ok_or_else(|| Error::new(ErrorKind::InvalidTool, "`tool` must be a JSON object"))?;
        // OpenAI: {"type":"function","function":{"name","description","parameters"}}
        if let Some(f) = obj.get("function").filter(|f| f.is_object())
            && !obj.contains_key("name")
        {
            return ToolDef::from_json(f);
        }
        let name = obj
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| Error::new(ErrorKind::InvalidTool, "`tool.name` must be a string"))?;
        let description = obj
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let schema = ["inputSchema", "input_schema", "parameters"]
            .iter()
            .find_map(|k| obj.get(*k));
        let schema = match schema {
            None | Some(Value::Null) => Value::Object(Map::new()),
            Some(s @ (Value::Object(_) | Value::Bool(_))) => s.clone(),
            Some(_) => {
                return Err(Error::new(
                    ErrorKind::InvalidTool,
                    "the tool's input schema must be a JSON object",
                ));
            }
        };
        Ok(ToolDef::new(name, description, schema))
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.inner.name
    }

    /// The tool's description.
    pub fn description(&self) -> &str {
        &self.inner.description
    }

    /// The JSON Schema of the arguments.
    pub fn input_schema(&self) -> &Value {
        &self.inner.input_schema
    }

    /// The tool's own trust declaration (`x-exposure` at the schema root), if any.
    pub fn declared_exposure(&self) -> Option<Exposure> {
        self.inner
            .input_schema
            .get("x-exposure")
            .and_then(Value::as_str)
            .and_then(|s| s.parse().ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn accepts_all_three_schema_spellings() {
        for key in ["inputSchema", "input_schema", "parameters"] {
            let t = ToolDef::from_json(
                &json!({"name": "t", key: {"type": "object", "x-exposure": "first_party"}}),
            )
            .unwrap();
            assert_eq!(t.input_schema()["type"], "object");
            assert_eq!(t.declared_exposure(), Some(Exposure::FirstParty));
        }
    }

    #[test]
    fn accepts_openai_function_wrapper() {
        let t = ToolDef::from_json(&json!({"type": "function", "function": {"name": "f", "description": "d", "parameters": {"type": "object"}}})).unwrap();
        assert_eq!(t.name(), "f");
        assert_eq!(t.description(), "d");
    }

    #[test]
    fn rejects_non_object_schema_and_missing_name() {
        assert_eq!(
            ToolDef::from_json(&json!({"name": "t", "inputSchema": "x"}))
                .unwrap_err()
                .kind(),
            ErrorKind::InvalidTool
        );
        assert!(ToolDef::from_json(&json!({"inputSchema": {}})).is_err());
        assert!(ToolDef::from_json(&json!([1])).is_err());
    }
}
