//! Per-tool wrappers, for opt-in use without the agent-wide hook (or with
//! [`ToolSet::execute`](rig_agent::tool::ToolSet::execute) outside an agent).
//!
//! [`MinimizeTools`] holds the shared configuration and wraps
//! - a typed rig [`Tool`] into [`Minimized<T>`], itself a [`Tool`] with the same `NAME`,
//!   description and parameters. It takes the model's arguments as raw JSON, minimizes them,
//!   and only then deserializes them into `T::Args`: a field the minimizer removes never has to
//!   survive a round trip through the typed arguments;
//! - a [`DynamicTool`] (including MCP tools bridged as dynamic tools) into another
//!   [`DynamicTool`] with the same definition.
//!
//! The minimizer reads the tool's full schema, annotations included. What the model provider is
//! shown has the annotations stripped (see [`crate::schema`]) unless
//! [`MinimizeTools::advertise_annotations`] opts in.
//!
//! ```
//! use rig_core::tool::{Tool, ToolContext};
//! use serde::Deserialize;
//! use serde_json::json;
//! use toolminimize_core::Minimizer;
//! use toolminimize_rig::MinimizeTools;
//!
//! #[derive(Deserialize)]
//! struct Args { city: String }
//! struct Forecast;
//! impl Tool for Forecast {
//!     const NAME: &'static str = "get_forecast";
//!     type Args = Args;
//!     type Output = String;
//!     type Error = std::convert::Infallible;
//!     fn description(&self) -> String { "Weather forecast for a city.".into() }
//!     fn parameters(&self) -> serde_json::Value {
//!         json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"],
//!                "x-exposure": "third_party"})
//!     }
//!     async fn call(&self, _: &mut ToolContext, args: Args) -> Result<String, Self::Error> {
//!         Ok(format!("sunny in {}", args.city))
//!     }
//! }
//!
//! let tools = MinimizeTools::new(Minimizer::new()?);
//! let forecast = tools.tool(Forecast);
//! assert_eq!(forecast.parameters().get("x-exposure"), None); // stripped for the provider
//! # Ok::<(), toolminimize_core::Error>(())
//! ```

use std::fmt;
use std::sync::Arc;

use rig_core::tool::{DynamicTool, Tool, ToolContext, ToolExecutionError};
use serde_json::Value;
use toolminimize_core::{Call, Exposure, MinimizeSchema, Minimizer, Report, Session, ToolDef};

use crate::report::{
    CallAction, CallReport, DefinitionSource, ReportCallback, Reporter, SkipReason,
};
use crate::schema;

/// Shared configuration of the per-tool wrappers. Cheap to clone.
#[derive(Clone)]
pub struct MinimizeTools {
    inner: Arc<Config>,
}

#[derive(Clone)]
struct Config {
    minimizer: Minimizer,
    advertise_annotations: bool,
    exposure: Option<Exposure>,
    session: Option<Session>,
    reporter: Reporter,
}

impl fmt::Debug for MinimizeTools {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MinimizeTools")
            .field("minimizer", &self.inner.minimizer)
            .field("advertise_annotations", &self.inner.advertise_annotations)
            .field("exposure", &self.inner.exposure)
            .field("session", &self.inner.session)
            .field("reporter", &self.inner.reporter)
            .finish()
    }
}

impl MinimizeTools {
    /// Wrappers that minimize with `minimizer`.
    pub fn new(minimizer: Minimizer) -> Self {
        MinimizeTools {
            inner: Arc::new(Config {
                minimizer,
                advertise_annotations: false,
                exposure: None,
                session: None,
                reporter: Reporter::default(),
            }),
        }
    }

    fn edit(mut self, f: impl FnOnce(&mut Config)) -> Self {
        f(Arc::make_mut(&mut self.inner));
        self
    }

    /// Whether the model provider may see the minimizer's schema annotations (default `false`).
    #[must_use]
    pub fn advertise_annotations(self, on: bool) -> Self {
        self.edit(|c| c.advertise_annotations = on)
    }

    /// The exposure of every call (the policy may override it).
    #[must_use]
    pub fn exposure(self, exposure: Exposure) -> Self {
        self.edit(|c| c.exposure = Some(exposure))
    }

    /// The session the wrapped tools' calls share (placeholders stay consistent across calls).
    #[must_use]
    pub fn session(self, session: Session) -> Self {
        self.edit(|c| c.session = Some(session))
    }

    /// Calls `callback` with the report of every minimized call.
    #[must_use]
    pub fn on_report(self, callback: impl Fn(&CallReport<'_>) + Send + Sync + 'static) -> Self {
        let callback: ReportCallback = Arc::new(callback);
        self.edit(|c| c.reporter.set_callback(callback))
    }

    /// Wraps a typed tool; the minimizer reads `tool.parameters()`.
    pub fn tool<T: Tool>(&self, tool: T) -> Minimized<T> {
        let def = ToolDef::new(T::NAME, tool.description(), tool.parameters());
        Minimized {
            inner: tool,
            def: Arc::new(def),
            config: self.clone(),
        }
    }

    /// Wraps a typed tool whose arguments type `A` carries the annotated schema; the minimizer
    /// reads `A::minimize_schema()`, the provider is shown `tool.parameters()` (stripped).
    pub fn tool_with_schema<T: Tool, A: MinimizeSchema>(&self, tool: T) -> Minimized<T> {
        let def = A::tool_def(T::NAME, &tool.description());
        Minimized {
            inner: tool,
            def: Arc::new(def),
            config: self.clone(),
        }
    }

    /// Wraps a dynamic tool (an MCP tool bridged by `rig-rmcp`, a runtime-defined tool, …).
    pub fn dynamic(&self, tool: DynamicTool) -> DynamicTool {
        let definition = tool.definition();
        let def = Arc::new(ToolDef::new(
            definition.name.to_string(),
            definition.description.clone(),
            definition.parameters.clone(),
        ));
        let parameters = self.advertised(&definition.parameters);
        let config = self.clone();
        let tool = Arc::new(tool);
        DynamicTool::new_with_context(
            definition.name,
            definition.description,
            parameters,
            move |context: &mut ToolContext, args: Value| {
                let config = config.clone();
                let def = def.clone();
                let tool = tool.clone();
                Box::pin(async move {
                    let minimized = config
                        .minimize(&def, args)
                        .map_err(|reason| reason.into_tool_error())?;
                    tool.execute_with(context, minimized).await
                })
            },
        )
    }

    fn advertised(&self, parameters: &Value) -> Value {
        if self.inner.advertise_annotations {
            parameters.clone()
        } else {
            schema::advertised(parameters)
        }
    }

    /// Minimizes one call and reports it.
    fn minimize(&self, def: &ToolDef, args: Value) -> Result<Value, SkipReason> {
        let config = &self.inner;
        let mut call = Call::new(def, &args);
        if let Some(session) = &config.session {
            call = call.session(session);
        }
        if let Some(exposure) = config.exposure {
            call = call.exposure(exposure);
        }
        let (verdict, report) = config.minimizer.minimize_call(&call).into_parts();
        let (result, action) = match verdict.into_arguments() {
            Ok(minimized) => {
                let changed = minimized != args;
                (Ok(minimized), CallAction::Forwarded { changed })
            }
            Err(reason) => {
                let reason = SkipReason::Blocked(reason);
                (Err(reason.clone()), CallAction::Skipped(reason))
            }
        };
        self.report(def.name(), action, &report);
        result
    }

    fn report(&self, tool: &str, action: CallAction, report: &Report) {
        self.inner.reporter.emit(&CallReport {
            tool,
            call_id: None,
            source: DefinitionSource::Wrapped,
            action,
            report,
        });
    }
}

impl SkipReason {
    /// The tool error a wrapper returns: a refusal for a blocked call, invalid arguments
    /// otherwise. Its model-visible text is [`SkipReason::model_message`].
    pub fn into_tool_error(self) -> ToolExecutionError {
        let message = self.model_message();
        match self {
            SkipReason::Blocked(_) => ToolExecutionError::refused(message),
            SkipReason::UnparseableArguments | SkipReason::ArgumentTypeMismatch => {
                ToolExecutionError::invalid_args(message)
            }
        }
    }
}

/// A typed tool whose arguments are minimized before it runs. Built by [`MinimizeTools::tool`].
pub struct Minimized<T> {
    inner: T,
    def: Arc<ToolDef>,
    config: MinimizeTools,
}

impl<T> fmt::Debug for Minimized<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Minimized")
            .field("tool", &self.def.name())
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl<T> Minimized<T> {
    /// The wrapped tool.
    pub fn get_ref(&self) -> &T {
        &self.inner
    }

    /// The definition the minimizer reads (the full, annotated schema).
    pub fn tool_def(&self) -> &ToolDef {
        &self.def
    }

    /// The wrapped tool, unwrapped.
    pub fn into_inner(self) -> T {
        self.inner
    }
}

/// Why a [`Minimized`] tool call failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum MinimizeError<E> {
    /// The call was not sent to the tool.
    Skipped(SkipReason),
    /// The tool itself failed.
    Tool(E),
}

impl<E: fmt::Display> fmt::Display for MinimizeError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MinimizeError::Skipped(reason) => write!(f, "call not sent: {reason}"),
            MinimizeError::Tool(e) => e.fmt(f),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for MinimizeError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MinimizeError::Skipped(_) => None,
            MinimizeError::Tool(e) => Some(e),
        }
    }
}

impl<T: Tool> Tool for Minimized<T> {
    const NAME: &'static str = T::NAME;
    type Args = Value;
    type Output = T::Output;
    type Error = MinimizeError<T::Error>;

    fn description(&self) -> String {
        self.inner.description()
    }

    fn parameters(&self) -> Value {
        self.config.advertised(&self.inner.parameters())
    }

    fn map_error(&self, error: Self::Error) -> ToolExecutionError {
        match error {
            MinimizeError::Skipped(reason) => reason.into_tool_error(),
            MinimizeError::Tool(e) => self.inner.map_error(e),
        }
    }

    async fn call(&self, context: &mut ToolContext, args: Value) -> Result<T::Output, Self::Error> {
        let minimized = self
            .config
            .minimize(&self.def, args)
            .map_err(MinimizeError::Skipped)?;
        // The message of a serde error can quote the value; it is dropped, never shown.
        let typed: T::Args = serde_json::from_value(minimized)
            .map_err(|_| MinimizeError::Skipped(SkipReason::ArgumentTypeMismatch))?;
        self.inner
            .call(context, typed)
            .await
            .map_err(MinimizeError::Tool)
    }
}
