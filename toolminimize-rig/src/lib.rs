#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![cfg_attr(
    test,
    allow(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

mod hook;
pub mod judge;
mod report;
pub mod schema;
mod wrap;

pub use hook::MinimizeHook;
pub use report::{CallAction, CallReport, DefinitionSource, ReportCallback, SkipReason};
pub use wrap::{MinimizeError, MinimizeTools, Minimized};

/// Deepest schema nesting [`schema::strip_annotations`] walks.
pub const MAX_SCHEMA_DEPTH: usize = toolminimize_core::MAX_DEPTH;
