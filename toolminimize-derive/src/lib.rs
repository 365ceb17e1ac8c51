//! `#[derive(MinimizeSchema)]`: JSON Schema with `minimum_necessary` and per-field sensitivity
//! annotations from Rust tool structs (coming next; see the workspace README).
#![forbid(unsafe_code)]
