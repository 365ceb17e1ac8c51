//! Built-in profiles for the tools coding agents ship with: their input schemas (as the hook
//! protocol documents them), what each tool does with its input, and how the hook treats it.
//!
//! - web search and web fetch send their input to outside parties: minimized;
//! - tools that write files or run commands act on the user's own machine, and rewriting their
//!   input would change what gets written or run: reported only, unless the policy says to
//!   minimize them too (`--write-tools minimize`);
//! - tools that only read the local workspace or talk to the model itself (file reads,
//!   searches, sub-agents, questions to the user): passed through untouched.

use serde_json::{Value, json};
use toolminimize_core::{Exposure, ToolDef};

/// How the hook treats a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Treatment {
    /// Minimize its input.
    Minimize,
    /// Report what its input carries; never rewrite it.
    ReportOnly,
    /// Local or model-internal: nothing to do.
    Pass,
}

/// A built-in tool's profile.
#[derive(Debug, Clone)]
pub(crate) struct Profile {
    pub(crate) def: ToolDef,
    pub(crate) exposure: Exposure,
    pub(crate) treatment: Treatment,
}

/// Tools that write files or run commands (reported, not rewritten, by default).
#[cfg(test)]
const WRITE_TOOLS: &[&str] = &[
    "Write",
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "Bash",
    "PowerShell",
];

/// Tools that stay on the machine or inside the model: passed through.
const LOCAL_TOOLS: &[&str] = &[
    "Read",
    "Glob",
    "Grep",
    "LS",
    "NotebookRead",
    "TodoWrite",
    "Task",
    "Agent",
    "AskUserQuestion",
    "ExitPlanMode",
    "BashOutput",
    "KillShell",
    "KillBash",
    "SlashCommand",
    "Skill",
    "ListMcpResourcesTool",
    "ReadMcpResourceTool",
];

/// The profile of a built-in tool, or `None` for a tool the hook does not know.
pub(crate) fn builtin(name: &str) -> Option<Profile> {
    if LOCAL_TOOLS.contains(&name) {
        return Some(Profile {
            def: ToolDef::new(name, "", json!({"type": "object"})),
            exposure: Exposure::FirstParty,
            treatment: Treatment::Pass,
        });
    }
    let (description, schema, exposure, treatment) = match name {
        "WebSearch" => (
            "Searches the web and returns results to inform responses.",
            json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "The search query to use"},
                    "allowed_domains": {"type": "array", "items": {"type": "string"},
                        "description": "Only include search results from these domains"},
                    "blocked_domains": {"type": "array", "items": {"type": "string"},
                        "description": "Never include search results from these domains"}
                },
                "required": ["query"],
                "x-exposure": "third_party"
            }),
            Exposure::ThirdParty,
            Treatment::Minimize,
        ),
        "WebFetch" => (
            "Fetches content from a URL and processes it with a prompt.",
            json!({
                "type": "object",
                "properties": {
                    "url": {"type": "string", "format": "uri", "description": "The URL to fetch content from"},
                    // The prompt runs on the fetched page inside the agent's own model, not
                    // at the site: it is not sent to the third party.
                    "prompt": {"type": "string", "description": "The prompt to run on the fetched content",
                        "x-minimize": "keep"}
                },
                "required": ["url", "prompt"],
                "x-exposure": "third_party"
            }),
            Exposure::ThirdParty,
            Treatment::Minimize,
        ),
        "Write" => (
            "Writes a file to the local filesystem.",
            json!({
                "type": "object",
                "properties": {
                    "file_path": {"type": "string"},
                    "content": {"type": "string"}
                },
                "required": ["file_path", "content"],
                "x-exposure": "first_party"
            }),
            Exposure::FirstParty,
            Treatment::ReportOnly,
        ),
        "Edit" => (
            "Performs exact string replacements in a file.",
            json!({
                "type": "object",
                "properties": {
                    "file_path": {"type": "string"},
                    "old_string": {"type": "string"},
                    "new_string": {"type": "string"},
                    "replace_all": {"type": "boolean"}
                },
                "required": ["file_path", "old_string", "new_string"],
                "x-exposure": "first_party"
            }),
            Exposure::FirstParty,
            Treatment::ReportOnly,
        ),
        "MultiEdit" => (
            "Makes several edits to a single file.",
            json!({
                "type": "object",
                "properties": {
                    "file_path": {"type": "string"},
                    "edits": {"type": "array", "items": {
                        "type": "object",
                        "properties": {
                            "old_string": {"type": "string"},
                            "new_string": {"type": "string"},
                            "replace_all": {"type": "boolean"}
                        },
                        "required": ["old_string", "new_string"]
                    }}
                },
                "required": ["file_path", "edits"],
                "x-exposure": "first_party"
            }),
            Exposure::FirstParty,
            Treatment::ReportOnly,
        ),
        "NotebookEdit" => (
            "Replaces, inserts or deletes a cell in a Jupyter notebook.",
            json!({
                "type": "object",
                "properties": {
                    "notebook_path": {"type": "string"},
                    "cell_id": {"type": "string"},
                    "new_source": {"type": "string"},
                    "cell_type": {"type": "string", "enum": ["code", "markdown"]},
                    "edit_mode": {"type": "string", "enum": ["replace", "insert", "delete"]}
                },
                "required": ["notebook_path", "new_source"],
                "x-exposure": "first_party"
            }),
            Exposure::FirstParty,
            Treatment::ReportOnly,
        ),
        "Bash" | "PowerShell" => (
            "Executes a command in a shell on the local machine.",
            json!({
                "type": "object",
                "properties": {
                    "command": {"type": "string"},
                    "description": {"type": "string"},
                    "timeout": {"type": "number"},
                    "run_in_background": {"type": "boolean"}
                },
                "required": ["command"],
                "x-exposure": "first_party"
            }),
            Exposure::FirstParty,
            Treatment::ReportOnly,
        ),
        _ => return None,
    };
    Some(Profile {
        def: ToolDef::new(name, description, schema),
        exposure,
        treatment,
    })
}

/// A schema for a tool whose own schema is unknown, built from the arguments themselves: every
/// property present is required and listed in `minimum_necessary` (so no field is dropped and
/// only spans inside free text can change), recursively through objects and arrays. Linear in the size of the arguments.
pub(crate) fn schema_from_arguments(args: &Value) -> Value {
    fn of(v: &Value, depth: usize) -> Value {
        if depth > 64 {
            return json!({});
        }
        match v {
            Value::Object(o) => {
                let properties: serde_json::Map<String, Value> = o
                    .iter()
                    .map(|(k, x)| (k.clone(), of(x, depth + 1)))
                    .collect();
                let required: Vec<Value> = o.keys().map(|k| Value::String(k.clone())).collect();
                json!({"type": "object", "properties": properties, "required": required,
                       "minimum_necessary": required})
            }
            Value::Array(a) => {
                // Objects in an array: the keys every element has are required.
                let objects: Vec<&serde_json::Map<String, Value>> =
                    a.iter().filter_map(Value::as_object).collect();
                if !objects.is_empty() && objects.len() == a.len() {
                    let mut properties = serde_json::Map::new();
                    for o in &objects {
                        for (k, x) in o.iter() {
                            if !properties.contains_key(k) {
                                properties.insert(k.clone(), of(x, depth + 1));
                            }
                        }
                    }
                    let required: Vec<Value> = properties
                        .keys()
                        .filter(|k| objects.iter().all(|o| o.contains_key(*k)))
                        .map(|k| Value::String(k.clone()))
                        .collect();
                    // Keys only some elements have cannot be required, but they are still
                    // needed: `minimum_necessary` says so without making the input invalid.
                    let needed: Vec<Value> = properties
                        .keys()
                        .map(|k| Value::String(k.clone()))
                        .collect();
                    json!({"type": "array", "items": {"type": "object", "properties": properties,
                           "required": required, "minimum_necessary": needed}})
                } else {
                    json!({"type": "array"})
                }
            }
            Value::String(_) => json!({"type": "string"}),
            Value::Number(_) => json!({"type": "number"}),
            Value::Bool(_) => json!({"type": "boolean"}),
            Value::Null => json!({}),
        }
    }
    of(args, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_tools_have_profiles() {
        for (name, t) in [
            ("WebSearch", Treatment::Minimize),
            ("WebFetch", Treatment::Minimize),
            ("Write", Treatment::ReportOnly),
            ("Edit", Treatment::ReportOnly),
            ("MultiEdit", Treatment::ReportOnly),
            ("NotebookEdit", Treatment::ReportOnly),
            ("Bash", Treatment::ReportOnly),
            ("Read", Treatment::Pass),
        ] {
            let p = builtin(name).unwrap();
            assert_eq!(p.treatment, t, "{name}");
            assert_eq!(p.def.name(), name);
        }
        assert!(builtin("mcp__x__y").is_none());
        for w in WRITE_TOOLS {
            assert_eq!(builtin(w).unwrap().treatment, Treatment::ReportOnly);
        }
    }

    #[test]
    fn schemaless_tools_get_every_present_field_required() {
        let s = schema_from_arguments(&json!({
            "q": "text", "n": 3, "tags": ["a"], "people": [{"name": "x", "note": "y"}, {"name": "z"}],
            "opts": {"deep": true}
        }));
        assert_eq!(s["required"].as_array().unwrap().len(), 5);
        assert_eq!(s["properties"]["opts"]["required"], json!(["deep"]));
        assert_eq!(
            s["properties"]["people"]["items"]["required"],
            json!(["name"])
        );
        assert_eq!(s["properties"]["tags"], json!({"type": "array"}));
    }
}
