//! Tool definitions by name, for requests that name their tool instead of carrying its
//! definition, and what to do with tools nobody defined.
//!
//! ```
//! use serde_json::json;
//! use toolminimize_tower::{ToolRegistry, UnknownTool};
//!
//! // An MCP `tools/list` result, or a plain array of MCP or OpenAI tool objects.
//! let registry = ToolRegistry::from_json(&json!({"tools": [
//!     {"name": "get_forecast", "inputSchema": {"type": "object", "required": ["city"],
//!      "properties": {"city": {"type": "string"}}}}
//! ]}))?;
//! assert!(registry.get("get_forecast").is_some());
//! assert_eq!(registry.resolve("send_sms").unwrap().name(), "send_sms"); // conservative default
//!
//! let strict = registry.unknown_tools(UnknownTool::Reject);
//! assert!(strict.resolve("send_sms").is_none());
//! # Ok::<(), toolminimize_core::Error>(())
//! ```

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::{Map, Value};
use toolminimize_core::{Error, ErrorKind, ToolDef};

/// What the layer does with a call to a tool the registry has no definition for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum UnknownTool {
    /// Minimize it with conservative defaults (the default): an object schema that requires
    /// nothing, so no field is known to be necessary, and no exposure declaration, so the
    /// policy's default exposure applies (unknown, scored as third party).
    #[default]
    Conservative,
    /// Reject the call with [`ErrorKind::UnknownTool`](crate::ErrorKind::UnknownTool).
    Reject,
}

/// Tool definitions by name.
#[derive(Debug, Clone, Default)]
pub struct ToolRegistry {
    tools: HashMap<String, ToolDef>,
    unknown: UnknownTool,
}

impl ToolRegistry {
    /// An empty registry: every tool is unknown, and minimized with conservative defaults.
    pub fn new() -> Self {
        ToolRegistry::default()
    }

    /// Reads tool definitions from JSON: an array of MCP (`inputSchema`), snake-case
    /// (`input_schema`) or OpenAI (`parameters`, optionally under `function`) tool objects, or
    /// an object with such an array under `tools` (an MCP `tools/list` result).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidTool`] naming the position of the first tool that cannot be read.
    pub fn from_json(v: &Value) -> Result<Self, Error> {
        let list = match v {
            Value::Array(list) => list,
            Value::Object(o) => match o.get("tools") {
                Some(Value::Array(list)) => list,
                _ => {
                    return Err(Error::new(
                        ErrorKind::InvalidTool,
                        "expected an array of tools, or an object with a `tools` array",
                    ));
                }
            },
            _ => {
                return Err(Error::new(
                    ErrorKind::InvalidTool,
                    "expected an array of tools, or an object with a `tools` array",
                ));
            }
        };
        let mut registry = ToolRegistry::new();
        for (i, t) in list.iter().enumerate() {
            let def = ToolDef::from_json(t).map_err(|e| {
                Error::new(
                    ErrorKind::InvalidTool,
                    format!("tool #{i}: {}", e.message()),
                )
            })?;
            registry.insert(def);
        }
        Ok(registry)
    }

    /// Adds a definition (builder style). A later definition of the same name replaces the
    /// earlier one.
    #[must_use]
    pub fn with_tool(mut self, tool: ToolDef) -> Self {
        self.insert(tool);
        self
    }

    /// Adds a definition, returning the one it replaces.
    pub fn insert(&mut self, tool: ToolDef) -> Option<ToolDef> {
        self.tools.insert(tool.name().to_owned(), tool)
    }

    /// Sets what happens to calls of tools that are not registered.
    #[must_use]
    pub fn unknown_tools(mut self, unknown: UnknownTool) -> Self {
        self.unknown = unknown;
        self
    }

    /// The policy for unregistered tools.
    pub fn unknown_tool_policy(&self) -> UnknownTool {
        self.unknown
    }

    /// The registered definition of `name`.
    pub fn get(&self, name: &str) -> Option<&ToolDef> {
        self.tools.get(name)
    }

    /// The definition to minimize a call of `name` with: the registered one, the conservative
    /// default (see [`UnknownTool::Conservative`]), or `None` when unknown tools are rejected.
    pub fn resolve(&self, name: &str) -> Option<Cow<'_, ToolDef>> {
        match (self.tools.get(name), self.unknown) {
            (Some(def), _) => Some(Cow::Borrowed(def)),
            (None, UnknownTool::Conservative) => Some(Cow::Owned(conservative_def(name))),
            (None, UnknownTool::Reject) => None,
        }
    }

    /// How many tools are registered.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether no tool is registered.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The registered definitions, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &ToolDef> {
        self.tools.values()
    }
}

impl FromIterator<ToolDef> for ToolRegistry {
    fn from_iter<I: IntoIterator<Item = ToolDef>>(iter: I) -> Self {
        let mut r = ToolRegistry::new();
        for t in iter {
            r.insert(t);
        }
        r
    }
}

/// The definition an unknown tool is minimized with.
fn conservative_def(name: &str) -> ToolDef {
    let mut schema = Map::new();
    schema.insert("type".to_owned(), Value::String("object".to_owned()));
    ToolDef::new(name, "", Value::Object(schema))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_plain_arrays_and_mcp_lists_in_every_spelling() {
        let tools = json!([
            {"name": "a", "inputSchema": {"type": "object"}},
            {"name": "b", "input_schema": {"type": "object"}},
            {"type": "function", "function": {"name": "c", "parameters": {"type": "object"}}}
        ]);
        let r = ToolRegistry::from_json(&tools).unwrap();
        assert_eq!(r.len(), 3);
        let r2 = ToolRegistry::from_json(&json!({"tools": tools})).unwrap();
        assert!(["a", "b", "c"].iter().all(|n| r2.get(n).is_some()));
    }

    #[test]
    fn names_the_tool_that_cannot_be_read() {
        let e = ToolRegistry::from_json(&json!([{"name": "a"}, {"description": "no name"}]))
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidTool);
        assert!(e.message().starts_with("tool #1:"), "{}", e.message());
        assert!(ToolRegistry::from_json(&json!("tools")).is_err());
        assert!(ToolRegistry::from_json(&json!({"tool": []})).is_err());
    }

    #[test]
    fn unknown_tools_get_an_object_schema_that_requires_nothing() {
        let r = ToolRegistry::new();
        let def = r.resolve("send_sms").unwrap();
        assert_eq!(def.name(), "send_sms");
        assert_eq!(def.input_schema(), &json!({"type": "object"}));
        assert_eq!(def.declared_exposure(), None);
        assert!(matches!(def, Cow::Owned(_)));
    }

    #[test]
    fn registered_tools_are_borrowed_and_rejection_is_opt_in() {
        let r = ToolRegistry::new()
            .with_tool(ToolDef::new("a", "", json!({"type": "object"})))
            .unknown_tools(UnknownTool::Reject);
        assert!(matches!(r.resolve("a"), Some(Cow::Borrowed(_))));
        assert!(r.resolve("b").is_none());
    }
}
