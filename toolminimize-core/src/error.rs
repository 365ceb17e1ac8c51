//! The crate's error type: opaque, with a [`kind`](Error::kind) to match on.
//!
//! Messages never contain argument values.

use std::fmt;

/// What went wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A tool definition could not be read.
    InvalidTool,
    /// A call (arguments, exposure, …) could not be read.
    InvalidCall,
    /// A policy is malformed.
    InvalidPolicy,
    /// A detector, lexicon or pattern could not be built.
    Build,
    /// The pipeline failed on a call (the policy then decides between block and forward).
    Internal,
}

/// An error of this crate: opaque, with a [`kind`](Error::kind) to match on. Its message never
/// holds a value from a call's arguments.
///
/// ```
/// use toolminimize_core::{ErrorKind, Policy};
///
/// let e = Policy::from_json_str(r#"{"fail_mode": "sometimes"}"#).unwrap_err();
/// assert_eq!(e.kind(), ErrorKind::InvalidPolicy);
/// assert!(e.to_string().starts_with("invalid policy"));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

impl Error {
    /// A new error. The message must not contain argument values.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({:?}: {})", self.kind, self.message)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
