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

#[doc(hidden)]
pub mod __bench;
#[cfg(feature = "schemars")]
#[doc(hidden)]
pub mod __private;
mod args;
mod budget;
mod classify;
mod decide;
mod engine;
mod error;
mod item;
mod limits;
mod par;
mod pipeline;
mod pointer;
mod policy;
mod report;
mod rewrite;
mod schema;
mod schema_trait;
mod score;
mod session;
pub mod store;
mod taxonomy;
mod text;
mod tool;

pub use crate::classify::{Detector, Field};
pub use crate::decide::judge::{
    ContentJudge, JudgeAnswer, JudgeCandidate, JudgeError, JudgeRequest,
};
pub use crate::decide::{Rule, UnknownRule};
pub use crate::error::{Error, ErrorKind};
pub use crate::item::{Finding, PsdKind};
pub use crate::pipeline::{
    BlockReason, Call, MinimizedJson, Minimizer, MinimizerBuilder, Outcome, Verdict,
};
pub use crate::policy::{DEFAULT_TIME_BUDGET, DenyTerm, FailMode, Policy};
pub use crate::report::{Action, ItemReport, Report};
pub use crate::schema_trait::MinimizeSchema;
pub use crate::session::Session;
pub use crate::store::{MemoryStore, SessionStore, StoreStats};
pub use crate::taxonomy::{Category, Exposure, Sensitivity, UnknownId};
pub use crate::tool::ToolDef;

pub use crate::limits::{MAX_DEPTH, MAX_VALUES, json_values_at_most};
