//! Tool definitions: a name, a description and the JSON Schema of the arguments.
//!
//! Accepts the MCP spelling (`inputSchema`), the snake-case spelling (`input_schema`) and the
//! OpenAI function-calling spelling (`parameters`, also nested under `function`).
//!
//! ```
//! use serde_json::json;
//! use toolminimize_core::ToolDef;
//! let t = ToolDef::from_json(&json!({"name": "get_forecast", "parameters": {"type": "object"}}))?;
//! assert_eq!(t.name(), "get_forecast");
//! # Ok::<(), toolminimize_core::Error>(())
//! ```

use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind};
use crate::taxonomy::Exposure;

/// A tool as the minimizer sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDef {
    name: String,
    description: String,
    input_schema: Value,
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
        ToolDef {
            name: name.into(),
            description: description.into(),
            input_schema,
        }
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
        Ok(ToolDef {
            name: name.to_owned(),
            description: description.to_owned(),
            input_schema: schema,
        })
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tool's description.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The JSON Schema of the arguments.
    pub fn input_schema(&self) -> &Value {
        &self.input_schema
    }

    /// The tool's own trust declaration (`x-exposure` at the schema root), if any.
    pub fn declared_exposure(&self) -> Option<Exposure> {
        self.input_schema
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
