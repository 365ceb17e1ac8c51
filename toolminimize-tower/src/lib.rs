#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(
    test,
    allow(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

pub mod error;
pub mod future;
pub mod hook;
pub mod layer;
pub mod registry;
pub mod request;
pub mod service;

#[cfg(feature = "gateway")]
#[cfg_attr(docsrs, doc(cfg(feature = "gateway")))]
pub mod gateway;

pub use error::{ArgumentsError, BoxError, Error, ErrorKind};
pub use future::ResponseFuture;
pub use hook::{Disposition, OnReport, ReportEvent};
pub use layer::MinimizeLayer;
pub use registry::{ToolRegistry, UnknownTool};
pub use request::{MinimizeRequest, ToolCall, ToolRef};
pub use service::Minimize;
