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

#[cfg(feature = "schemars")]
#[doc(hidden)]
pub mod __private;
pub mod budget;
pub mod classify;
pub mod decide;
mod engine;
pub mod error;
pub mod item;
pub mod pipeline;
pub mod policy;
pub mod report;
pub mod rewrite;
pub mod schema;
pub mod schema_trait;
pub mod score;
pub mod session;
pub mod store;
pub mod taxonomy;
pub mod text;
pub mod tool;

pub use error::{Error, ErrorKind};
pub use item::{Finding, PsdItem, PsdKind};
pub use pipeline::{BlockReason, Call, Minimizer, MinimizerBuilder, Outcome, Verdict};
pub use policy::{FailMode, Policy};
pub use report::{Action, ItemReport, Report};
pub use schema_trait::MinimizeSchema;
pub use session::Session;
pub use store::{MemoryStore, SessionStore, StoreStats};
pub use taxonomy::{Category, Exposure, Sensitivity};
pub use tool::ToolDef;

/// Deepest JSON nesting the pipeline walks; deeper values are left as they are and reported
/// as an internal failure (blocked under fail-closed).
pub const MAX_DEPTH: usize = 128;
