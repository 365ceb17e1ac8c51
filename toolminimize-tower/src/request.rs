//! Requests the layer can minimize: the ready-made [`ToolCall`], and the [`MinimizeRequest`]
//! trait for your own request types.
//!
//! A request tells the layer which tool it calls (a full [`ToolDef`], or a name the
//! [`ToolRegistry`](crate::ToolRegistry) resolves), hands over its arguments as JSON, takes the
//! minimized arguments back, and may carry the call's context (exposure, the user's own words, a
//! [`Session`]).
//!
//! # Your own request type
//!
//! An OpenAI-style call whose arguments travel as a JSON *string*:
//!
//! ```
//! use std::borrow::Cow;
//! use serde_json::Value;
//! use toolminimize_tower::{ArgumentsError, MinimizeRequest, ToolRef};
//!
//! struct FunctionCall {
//!     name: String,
//!     arguments: String,
//! }
//!
//! impl MinimizeRequest for FunctionCall {
//!     fn tool(&self) -> ToolRef<'_> {
//!         ToolRef::Name(&self.name)
//!     }
//!     fn arguments_json(&self) -> Result<Cow<'_, Value>, ArgumentsError> {
//!         serde_json::from_str(&self.arguments)
//!             .map(Cow::Owned)
//!             .map_err(|e| ArgumentsError::from_json(&e))
//!     }
//!     fn replace_arguments(&mut self, arguments: Value) {
//!         self.arguments = arguments.to_string();
//!     }
//! }
//! ```

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;
use toolminimize_core::{Exposure, Report, Session, ToolDef};

use crate::error::ArgumentsError;

/// The tool a request calls.
#[derive(Debug, Clone, Copy)]
pub enum ToolRef<'a> {
    /// The request carries the tool's definition.
    Def(&'a ToolDef),
    /// The request names the tool; the layer's [`ToolRegistry`](crate::ToolRegistry) resolves it.
    Name(&'a str),
}

impl ToolRef<'_> {
    /// The tool's name.
    pub fn name(&self) -> &str {
        match self {
            ToolRef::Def(d) => d.name(),
            ToolRef::Name(n) => n,
        }
    }
}

/// A request whose tool-call arguments the [`Minimize`](crate::Minimize) service rewrites.
///
/// Only [`tool`](Self::tool), [`arguments_json`](Self::arguments_json) and
/// [`replace_arguments`](Self::replace_arguments) are required; the context methods default to
/// "not known". See the [module docs](crate::request) for an example.
pub trait MinimizeRequest {
    /// The tool this request calls.
    fn tool(&self) -> ToolRef<'_>;

    /// The arguments as JSON. Borrow them when the request holds a [`Value`]; parse them when it
    /// holds text.
    ///
    /// # Errors
    /// When the arguments cannot be read as JSON. Under a fail-closed policy the call is then
    /// rejected with [`ErrorKind::InvalidArguments`](crate::ErrorKind::InvalidArguments); under
    /// fail-open it is forwarded unchanged.
    fn arguments_json(&self) -> Result<Cow<'_, Value>, ArgumentsError>;

    /// Replaces the arguments with their minimized form. Called only when the call is forwarded.
    fn replace_arguments(&mut self, arguments: Value);

    /// Where the call goes, if the request knows (the policy may override it).
    fn exposure(&self) -> Option<Exposure> {
        None
    }

    /// The user's own words for this task: sensitive data they asked to send is kept.
    fn task_context(&self) -> Option<&str> {
        None
    }

    /// The conversation this call belongs to.
    fn session(&self) -> Option<&Session> {
        None
    }

    /// Receives the minimization report before the request goes to the inner service, so the
    /// inner service can pass it on (as response headers, say). The default drops it.
    fn attach_report(&mut self, report: Report) {
        let _ = report;
    }
}

#[derive(Clone)]
enum ToolSpec {
    Def(Arc<ToolDef>),
    Name(Box<str>),
}

/// A tool call: the tool (its definition, or a name for the registry), the arguments and the
/// optional context.
///
/// `Debug` shows the tool and which context is set, never the arguments or the user's words.
///
/// ```
/// use serde_json::json;
/// use toolminimize_core::{Exposure, ToolDef};
/// use toolminimize_tower::ToolCall;
///
/// let tool = ToolDef::new("get_forecast", "Weather forecast", json!({"type": "object"}));
/// let call = ToolCall::new(tool, json!({"city": "Lyon"}))
///     .with_exposure(Exposure::ThirdParty)
///     .with_task_context("what's the weather in Lyon tomorrow?");
/// assert_eq!(call.tool_name(), "get_forecast");
///
/// let by_name = ToolCall::named("get_forecast", json!({"city": "Lyon"}));
/// assert!(by_name.tool_def().is_none());
/// ```
#[derive(Clone)]
pub struct ToolCall {
    tool: ToolSpec,
    arguments: Value,
    exposure: Option<Exposure>,
    task_context: Option<String>,
    session: Option<Session>,
    report: Option<Report>,
}

impl ToolCall {
    /// A call to a tool whose definition the caller has. Pass an `Arc<ToolDef>` to share one
    /// definition across calls without copying it.
    pub fn new(tool: impl Into<Arc<ToolDef>>, arguments: Value) -> Self {
        ToolCall::with_spec(ToolSpec::Def(tool.into()), arguments)
    }

    /// A call to a tool by name, resolved through the layer's
    /// [`ToolRegistry`](crate::ToolRegistry).
    pub fn named(name: impl Into<String>, arguments: Value) -> Self {
        ToolCall::with_spec(ToolSpec::Name(name.into().into_boxed_str()), arguments)
    }

    fn with_spec(tool: ToolSpec, arguments: Value) -> Self {
        ToolCall {
            tool,
            arguments,
            exposure: None,
            task_context: None,
            session: None,
            report: None,
        }
    }

    /// Sets where the call goes.
    #[must_use]
    pub fn with_exposure(mut self, exposure: Exposure) -> Self {
        self.exposure = Some(exposure);
        self
    }

    /// Sets the user's own words for this task.
    #[must_use]
    pub fn with_task_context(mut self, text: impl Into<String>) -> Self {
        self.task_context = Some(text.into());
        self
    }

    /// Sets the conversation this call belongs to.
    #[must_use]
    pub fn with_session(mut self, session: Session) -> Self {
        self.session = Some(session);
        self
    }

    /// The tool's name.
    pub fn tool_name(&self) -> &str {
        match &self.tool {
            ToolSpec::Def(d) => d.name(),
            ToolSpec::Name(n) => n,
        }
    }

    /// The tool's definition, when the call carries one.
    pub fn tool_def(&self) -> Option<&ToolDef> {
        match &self.tool {
            ToolSpec::Def(d) => Some(d),
            ToolSpec::Name(_) => None,
        }
    }

    /// The arguments (minimized, once the call has passed the layer).
    pub fn arguments(&self) -> &Value {
        &self.arguments
    }

    /// The arguments, by value.
    pub fn into_arguments(self) -> Value {
        self.arguments
    }

    /// Where the call goes, if set.
    pub fn exposure(&self) -> Option<Exposure> {
        self.exposure
    }

    /// The user's own words, if set.
    pub fn task_context(&self) -> Option<&str> {
        self.task_context.as_deref()
    }

    /// The session, if set.
    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    /// The minimization report, once the call has passed the layer.
    pub fn report(&self) -> Option<&Report> {
        self.report.as_ref()
    }

    /// Takes the minimization report out of the call.
    pub fn take_report(&mut self) -> Option<Report> {
        self.report.take()
    }
}

impl fmt::Debug for ToolCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolCall")
            .field("tool", &self.tool_name())
            .field("exposure", &self.exposure)
            .field("task_context", &self.task_context.as_ref().map(|_| ".."))
            .field("session", &self.session.as_ref().map(Session::id))
            .field("minimized", &self.report.is_some())
            .finish_non_exhaustive()
    }
}

impl MinimizeRequest for ToolCall {
    fn tool(&self) -> ToolRef<'_> {
        match &self.tool {
            ToolSpec::Def(d) => ToolRef::Def(d),
            ToolSpec::Name(n) => ToolRef::Name(n),
        }
    }

    fn arguments_json(&self) -> Result<Cow<'_, Value>, ArgumentsError> {
        Ok(Cow::Borrowed(&self.arguments))
    }

    fn replace_arguments(&mut self, arguments: Value) {
        self.arguments = arguments;
    }

    fn exposure(&self) -> Option<Exposure> {
        self.exposure
    }

    fn task_context(&self) -> Option<&str> {
        self.task_context.as_deref()
    }

    fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    fn attach_report(&mut self, report: Report) {
        self.report = Some(report);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn debug_never_shows_arguments_or_task_context() {
        let call = ToolCall::named("lookup", json!({"ssn": "078-05-1120"}))
            .with_task_context("my SSN is 078-05-1120")
            .with_session(Session::new("s-1"));
        let shown = format!("{call:?}");
        assert!(!shown.contains("078"), "{shown}");
        assert!(shown.contains("lookup"));
        assert!(shown.contains("s-1"));
    }

    #[test]
    fn tool_ref_names_both_forms() {
        let def = ToolCall::new(ToolDef::new("a", "", json!({})), json!({}));
        let named = ToolCall::named("b", json!({}));
        assert_eq!(def.tool().name(), "a");
        assert_eq!(named.tool().name(), "b");
        assert!(matches!(named.tool(), ToolRef::Name("b")));
    }
}
