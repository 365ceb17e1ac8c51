//! Decide: per field and per PSD item, what the tool needs.
//!
//! [`crate::schema`] reads the tool's JSON Schema against the arguments (required, `minimum_necessary`,
//! the `x-*` keywords); [`profile`] recognises the kind of tool and the role of each field;
//! [`crate::text::clauses`] splits free text; [`necessity`] decides each item and names the rule.

pub mod consent;
pub mod judge;
pub mod linkability;
pub mod necessity;
pub mod profile;
