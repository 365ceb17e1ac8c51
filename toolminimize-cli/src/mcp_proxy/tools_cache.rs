//! The tools the server listed: each tool's input schema and annotations, taken from
//! `tools/list` results.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;
use toolminimize_core::{Exposure, ToolDef};

/// One listed tool.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CachedTool {
    /// Name, description and input schema.
    pub(crate) def: ToolDef,
    /// The tool's MCP `annotations`, as listed.
    pub(crate) annotations: Option<Value>,
}

impl CachedTool {
    /// The exposure the listing implies: a tool that declares `openWorldHint: true` reaches
    /// outside parties, unless its schema makes its own `x-exposure` declaration. Hints never
    /// lower the exposure.
    pub(crate) fn listed_exposure(&self) -> Option<Exposure> {
        if self.def.declared_exposure().is_some() {
            return None;
        }
        let open_world = self
            .annotations
            .as_ref()
            .and_then(|a| a.get("openWorldHint"))
            .and_then(Value::as_bool);
        (open_world == Some(true)).then_some(Exposure::ThirdParty)
    }
}

/// Tools by name. Shared as an immutable snapshot (`Arc`) and replaced on update.
#[derive(Debug, Clone, Default)]
pub(crate) struct ToolsCache {
    tools: HashMap<String, Arc<CachedTool>>,
}

impl ToolsCache {
    /// The tool of that name, if listed.
    pub(crate) fn get(&self, name: &str) -> Option<&Arc<CachedTool>> {
        self.tools.get(name)
    }

    /// How many tools are cached.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.tools.len()
    }

    /// Adds or replaces the tools of one `tools/list` result (`{"tools": [...]}`). Entries that
    /// are not valid tool definitions are skipped, so calls to them count as unlisted.
    /// Returns the `nextCursor` of the page, if any.
    pub(crate) fn merge_page(&mut self, result: &Value) -> Option<String> {
        crate::schema_cache::observe_tools_list(result);
        if let Some(tools) = result.get("tools").and_then(Value::as_array) {
            for entry in tools {
                let Ok(def) = ToolDef::from_json(entry) else {
                    continue;
                };
                let annotations = entry.get("annotations").filter(|a| a.is_object()).cloned();
                self.tools.insert(
                    def.name().to_owned(),
                    Arc::new(CachedTool { def, annotations }),
                );
            }
        }
        result
            .get("nextCursor")
            .and_then(Value::as_str)
            .filter(|c| !c.is_empty())
            .map(str::to_owned)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn merges_pages_and_reports_the_cursor() {
        let mut c = ToolsCache::default();
        let next = c.merge_page(&json!({
            "tools": [
                {"name": "echo", "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}},
                 "annotations": {"readOnlyHint": true}},
                {"name": "bad", "inputSchema": "not a schema"},
                {"inputSchema": {}}
            ],
            "nextCursor": "page-2"
        }));
        assert_eq!(next.as_deref(), Some("page-2"));
        assert_eq!(c.len(), 1);
        let echo = c.get("echo").unwrap();
        assert_eq!(
            echo.def.input_schema()["properties"]["message"]["type"],
            "string"
        );
        assert_eq!(echo.annotations, Some(json!({"readOnlyHint": true})));
        assert!(c.get("bad").is_none());
        assert_eq!(
            c.merge_page(&json!({"tools": [{"name": "echo", "inputSchema": {}}]})),
            None
        );
        assert_eq!(c.get("echo").unwrap().def.input_schema(), &json!({}));
    }

    #[test]
    fn open_world_hint_raises_exposure_unless_the_schema_declares_one() {
        let mut c = ToolsCache::default();
        c.merge_page(&json!({"tools": [
            {"name": "web", "inputSchema": {"type": "object"}, "annotations": {"openWorldHint": true}},
            {"name": "local", "inputSchema": {"type": "object"}, "annotations": {"openWorldHint": false}},
            {"name": "own", "inputSchema": {"type": "object", "x-exposure": "first_party"}, "annotations": {"openWorldHint": true}}
        ]}));
        assert_eq!(
            c.get("web").unwrap().listed_exposure(),
            Some(Exposure::ThirdParty)
        );
        assert_eq!(c.get("local").unwrap().listed_exposure(), None);
        assert_eq!(c.get("own").unwrap().listed_exposure(), None);
    }
}
