//! The [`MinimizeSchema`] trait: a Rust type that describes a tool's arguments with the
//! privacy annotations of SPEC §4. `#[derive(MinimizeSchema)]` (crate `toolminimize-derive`)
//! implements it.

use serde_json::Value;

use crate::tool::ToolDef;

/// A tool-argument type with a privacy-annotated JSON Schema.
pub trait MinimizeSchema {
    /// The JSON Schema of the type plus `minimum_necessary`, `x-psd-category`,
    /// `x-sensitivity`, `x-minimize` and `x-exposure` where annotated.
    fn minimize_schema() -> Value;

    /// A tool definition for the pipeline.
    fn tool_def(name: &str, description: &str) -> ToolDef {
        ToolDef::new(name, description, Self::minimize_schema())
    }
}
