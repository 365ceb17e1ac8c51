//! The errors a [`Minimize`](crate::Minimize) service returns.
//!
//! One opaque [`Error`] with a [`kind`](Error::kind) to match on. Its messages name the tool and
//! the reason, never an argument value. It converts into tower's
//! [`BoxError`] like any `std::error::Error`, so it composes with tower's own middleware.

use std::fmt;

use toolminimize_core::BlockReason;

/// tower's boxed error type.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// What went wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The policy blocks the call (a blocked tool, or a cost above the policy's limit). The
    /// inner service was not called.
    Blocked,
    /// Minimization failed and the policy fails closed. The inner service was not called.
    Internal,
    /// The request names a tool the registry does not know and the registry rejects unknown
    /// tools. The inner service was not called.
    UnknownTool,
    /// The request's arguments could not be read as JSON and the policy fails closed. The inner
    /// service was not called.
    InvalidArguments,
    /// The inner service failed (or was not ready); see [`Error::into_inner`].
    Inner,
}

/// Why a request's arguments could not be read.
///
/// Built from a fixed vocabulary plus line and column numbers: it never quotes the arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgumentsError {
    what: &'static str,
    at: Option<(usize, usize)>,
}

impl ArgumentsError {
    /// An error with a fixed description (`"arguments must be a JSON object"`).
    pub const fn new(what: &'static str) -> Self {
        ArgumentsError { what, at: None }
    }

    /// From a `serde_json` parse error: keeps its category, line and column, drops its message
    /// (which may quote the input).
    pub fn from_json(e: &serde_json::Error) -> Self {
        use serde_json::error::Category;
        let what = match e.classify() {
            Category::Io => "arguments could not be read",
            Category::Syntax => "arguments are not valid JSON",
            Category::Data => "arguments do not have the expected shape",
            Category::Eof => "arguments end in the middle of a JSON value",
        };
        ArgumentsError {
            what,
            at: Some((e.line(), e.column())),
        }
    }
}

impl fmt::Display for ArgumentsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some((line, column)) if line > 0 => {
                write!(f, "{} (line {line}, column {column})", self.what)
            }
            _ => f.write_str(self.what),
        }
    }
}

impl std::error::Error for ArgumentsError {}

enum Repr {
    Blocked(BlockReason),
    UnknownTool,
    InvalidArguments(ArgumentsError),
    Inner(BoxError),
}

/// The error of a [`Minimize`](crate::Minimize) service.
pub struct Error {
    tool: Option<Box<str>>,
    repr: Repr,
}

impl Error {
    pub(crate) fn blocked(tool: &str, reason: BlockReason) -> Self {
        Error {
            tool: Some(tool.into()),
            repr: Repr::Blocked(reason),
        }
    }

    pub(crate) fn unknown_tool(tool: &str) -> Self {
        Error {
            tool: Some(tool.into()),
            repr: Repr::UnknownTool,
        }
    }

    pub(crate) fn invalid_arguments(tool: &str, e: ArgumentsError) -> Self {
        Error {
            tool: Some(tool.into()),
            repr: Repr::InvalidArguments(e),
        }
    }

    /// Wraps an inner service's error. An [`Error`] of a nested `Minimize` is kept as it is.
    pub(crate) fn inner(e: impl Into<BoxError>) -> Self {
        match e.into().downcast::<Error>() {
            Ok(own) => *own,
            Err(other) => Error {
                tool: None,
                repr: Repr::Inner(other),
            },
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        match &self.repr {
            Repr::Blocked(BlockReason::Internal(_)) => ErrorKind::Internal,
            Repr::Blocked(_) => ErrorKind::Blocked,
            Repr::UnknownTool => ErrorKind::UnknownTool,
            Repr::InvalidArguments(_) => ErrorKind::InvalidArguments,
            Repr::Inner(_) => ErrorKind::Inner,
        }
    }

    /// Whether the call was stopped before the inner service (every kind but
    /// [`ErrorKind::Inner`]).
    pub fn is_rejected(&self) -> bool {
        !matches!(self.repr, Repr::Inner(_))
    }

    /// The tool the call was for, when the error is about the call rather than the inner service.
    pub fn tool(&self) -> Option<&str> {
        self.tool.as_deref()
    }

    /// Why the call was blocked, for [`ErrorKind::Blocked`] and [`ErrorKind::Internal`].
    pub fn block_reason(&self) -> Option<&BlockReason> {
        match &self.repr {
            Repr::Blocked(r) => Some(r),
            _ => None,
        }
    }

    /// The inner service's error, for [`ErrorKind::Inner`].
    pub fn into_inner(self) -> Option<BoxError> {
        match self.repr {
            Repr::Inner(e) => Some(e),
            _ => None,
        }
    }

    /// The inner service's error by reference, for [`ErrorKind::Inner`].
    pub fn inner_ref(&self) -> Option<&(dyn std::error::Error + Send + Sync + 'static)> {
        match &self.repr {
            Repr::Inner(e) => Some(&**e),
            _ => None,
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Error");
        d.field("kind", &self.kind());
        if let Some(tool) = &self.tool {
            d.field("tool", tool);
        }
        match &self.repr {
            Repr::Blocked(r) => d.field("reason", r),
            Repr::InvalidArguments(e) => d.field("arguments", e),
            Repr::Inner(e) => d.field("inner", e),
            Repr::UnknownTool => &mut d,
        };
        d.finish()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tool = self.tool.as_deref().unwrap_or("?");
        match &self.repr {
            Repr::Blocked(r) => write!(f, "call to tool `{tool}` not sent: {r}"),
            Repr::UnknownTool => write!(
                f,
                "no definition for tool `{tool}` and unknown tools are rejected"
            ),
            Repr::InvalidArguments(e) => write!(f, "call to tool `{tool}` not sent: {e}"),
            Repr::Inner(_) => f.write_str("the tool service failed"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.repr {
            Repr::Inner(e) => Some(&**e),
            Repr::InvalidArguments(e) => Some(e),
            Repr::Blocked(_) | Repr::UnknownTool => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_errors_keep_position_but_not_the_input() {
        let e = serde_json::from_str::<serde_json::Value>(r#"{"ssn": "078-05-1120" oops}"#)
            .unwrap_err();
        let a = ArgumentsError::from_json(&e);
        let shown = a.to_string();
        assert!(
            shown.starts_with("arguments are not valid JSON (line 1, column"),
            "{shown}"
        );
        assert!(!shown.contains("078"));
        assert!(!shown.contains("oops"));
    }

    #[test]
    fn nested_errors_are_unwrapped_and_foreign_ones_boxed() {
        let own = Error::blocked("exec", BlockReason::ToolBlocked);
        let back = Error::inner(Box::new(own) as BoxError);
        assert_eq!(back.kind(), ErrorKind::Blocked);
        assert_eq!(back.tool(), Some("exec"));

        let io = std::io::Error::other("connection reset");
        let e = Error::inner(io);
        assert_eq!(e.kind(), ErrorKind::Inner);
        assert!(!e.is_rejected());
        assert!(std::error::Error::source(&e).is_some());
        assert!(e.into_inner().unwrap().downcast::<std::io::Error>().is_ok());
    }

    #[test]
    fn internal_block_reasons_have_their_own_kind() {
        let e = Error::blocked("t", BlockReason::Internal("too deep"));
        assert_eq!(e.kind(), ErrorKind::Internal);
        assert!(e.is_rejected());
        assert_eq!(
            e.to_string(),
            "call to tool `t` not sent: minimization failed (too deep); the call is blocked"
        );
    }
}
