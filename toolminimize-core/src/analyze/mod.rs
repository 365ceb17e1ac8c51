//! Analyze: decide, per field and per PSD item, what the tool needs.
//!
//! [`schema`] reads the tool's JSON Schema against the arguments (required, `minimum_necessary`,
//! the `x-*` keywords); the necessity rules then decide each item.

pub mod schema;
