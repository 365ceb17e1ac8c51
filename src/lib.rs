//! toolminimize: rewrite every LLM tool call's arguments down to the minimum data the tool needs.
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub use toolminimize_core::*;

#[cfg(feature = "derive")]
pub use toolminimize_derive::*;
