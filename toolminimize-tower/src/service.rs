//! [`Minimize`]: the service that minimizes each call before calling the inner service.

use std::borrow::Cow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::task::{Context, Poll};

use serde_json::Value;
use toolminimize_core::{BlockReason, Call, FailMode, Minimizer, Outcome, Report, ToolDef};
use tower_service::Service;

use crate::error::{ArgumentsError, BoxError, Error};
use crate::future::ResponseFuture;
use crate::hook::{Disposition, OnReport, ReportEvent};
use crate::layer::MinimizeLayer;
use crate::registry::ToolRegistry;
use crate::request::{MinimizeRequest, ToolRef};

/// Minimizes each request's tool-call arguments, then calls the inner service with them.
///
/// A call that is blocked, or whose minimization fails under a fail-closed policy, resolves to an
/// [`Error`] without reaching the inner service. `poll_ready` is the inner service's.
///
/// See the [crate docs](crate) for an example.
#[derive(Debug, Clone)]
pub struct Minimize<S, H = ()> {
    pub(crate) inner: S,
    pub(crate) minimizer: Minimizer,
    pub(crate) registry: Arc<ToolRegistry>,
    pub(crate) on_report: H,
    pub(crate) time_budget: Option<std::time::Duration>,
}

impl<S> Minimize<S> {
    /// Wraps `inner`, minimizing with `minimizer`; calls that name their tool are resolved
    /// through an empty registry (conservative defaults).
    pub fn new(inner: S, minimizer: Minimizer) -> Self {
        Minimize {
            inner,
            minimizer,
            registry: Arc::new(ToolRegistry::new()),
            on_report: (),
            time_budget: None,
        }
    }

    /// A [`MinimizeLayer`] with this minimizer.
    pub fn layer(minimizer: Minimizer) -> MinimizeLayer {
        MinimizeLayer::new(minimizer)
    }
}

impl<S, H> Minimize<S, H> {
    /// The inner service.
    pub fn get_ref(&self) -> &S {
        &self.inner
    }

    /// The inner service, mutably.
    pub fn get_mut(&mut self) -> &mut S {
        &mut self.inner
    }

    /// The inner service, by value.
    pub fn into_inner(self) -> S {
        self.inner
    }

    /// The minimizer.
    pub fn minimizer(&self) -> &Minimizer {
        &self.minimizer
    }
}

impl<S, R, H> Service<R> for Minimize<S, H>
where
    S: Service<R>,
    S::Error: Into<BoxError>,
    R: MinimizeRequest,
    H: OnReport,
{
    type Response = S::Response;
    type Error = Error;
    type Future = ResponseFuture<S::Future>;

    #[inline]
    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx).map_err(Error::inner)
    }

    fn call(&mut self, mut request: R) -> Self::Future {
        let deadline = self
            .time_budget
            .and_then(|b| std::time::Instant::now().checked_add(b));
        match minimize_request(
            &self.minimizer,
            &self.registry,
            &mut self.on_report,
            &mut request,
            deadline,
        ) {
            Ok(()) => ResponseFuture::called(self.inner.call(request)),
            Err(e) => ResponseFuture::rejected(e),
        }
    }
}

/// What to do with the request once the borrows of it end.
enum Next {
    Replace(Value, Report),
    Unchanged,
}

/// Minimizes `request` in place, or says why it must not be sent.
fn minimize_request<R: MinimizeRequest, H: OnReport>(
    minimizer: &Minimizer,
    registry: &ToolRegistry,
    on_report: &mut H,
    request: &mut R,
    deadline: Option<std::time::Instant>,
) -> Result<(), Error> {
    let next = decide(minimizer, registry, on_report, request, deadline)?;
    if let Next::Replace(arguments, report) = next {
        request.replace_arguments(arguments);
        request.attach_report(report);
    }
    Ok(())
}

fn decide<R: MinimizeRequest, H: OnReport>(
    minimizer: &Minimizer,
    registry: &ToolRegistry,
    on_report: &mut H,
    request: &R,
    deadline: Option<std::time::Instant>,
) -> Result<Next, Error> {
    let tool: Cow<'_, ToolDef> = match request.tool() {
        ToolRef::Def(def) => Cow::Borrowed(def),
        ToolRef::Name(name) => match registry.resolve(name) {
            Some(def) => def,
            None => {
                tracing::warn!(tool = name, "tool call rejected: unknown tool");
                return Err(Error::unknown_tool(name));
            }
        },
    };
    let tool_name = tool.name();
    let fail_mode = minimizer.policy().fail_mode();

    let arguments = match request.arguments_json() {
        Ok(arguments) => arguments,
        Err(e) => return unreadable_arguments(tool_name, e, fail_mode, on_report),
    };

    let mut call = Call::new(&tool, &arguments);
    if let Some(exposure) = request.exposure() {
        call = call.exposure(exposure);
    }
    if let Some(text) = request.task_context() {
        call = call.task_context(text);
    }
    if let Some(session) = request.session() {
        call = call.session(session);
    }
    if let Some(at) = deadline {
        call = call.deadline(at);
    }

    // The built-in pipeline does not panic on input, but user-supplied detectors might; a panic
    // is an internal failure like any other and goes through the policy's fail mode.
    let outcome = match catch_unwind(AssertUnwindSafe(|| minimizer.minimize_call(&call))) {
        Ok(outcome) => outcome,
        Err(_) => {
            return panicked(tool_name, fail_mode, on_report);
        }
    };

    trace_outcome(tool_name, &outcome);
    let (verdict, report) = outcome.into_parts();
    match verdict.into_arguments() {
        Ok(arguments) => {
            on_report.on_report(&ReportEvent {
                tool: tool_name,
                report: &report,
                disposition: Disposition::Minimized,
            });
            Ok(Next::Replace(arguments, report))
        }
        Err(reason) => {
            on_report.on_report(&ReportEvent {
                tool: tool_name,
                report: &report,
                disposition: Disposition::Blocked(&reason),
            });
            Err(Error::blocked(tool_name, reason))
        }
    }
}

#[cold]
fn unreadable_arguments<H: OnReport>(
    tool: &str,
    e: ArgumentsError,
    fail_mode: FailMode,
    on_report: &mut H,
) -> Result<Next, Error> {
    let report = Report::default();
    match fail_mode {
        FailMode::Open => {
            tracing::warn!(tool, error = %e, "arguments unreadable; forwarded unchanged (fail-open policy)");
            on_report.on_report(&ReportEvent {
                tool,
                report: &report,
                disposition: Disposition::Unminimized,
            });
            Ok(Next::Unchanged)
        }
        // Closed, and whatever a later release adds: nothing unminimized leaves.
        _ => {
            tracing::warn!(tool, error = %e, "tool call rejected: arguments unreadable");
            let reason = BlockReason::Internal("arguments unreadable");
            on_report.on_report(&ReportEvent {
                tool,
                report: &report,
                disposition: Disposition::Blocked(&reason),
            });
            Err(Error::invalid_arguments(tool, e))
        }
    }
}

#[cold]
fn panicked<H: OnReport>(
    tool: &str,
    fail_mode: FailMode,
    on_report: &mut H,
) -> Result<Next, Error> {
    let report = Report::default();
    match fail_mode {
        FailMode::Open => {
            tracing::error!(
                tool,
                "minimizer panicked; forwarded unchanged (fail-open policy)"
            );
            on_report.on_report(&ReportEvent {
                tool,
                report: &report,
                disposition: Disposition::Unminimized,
            });
            Ok(Next::Unchanged)
        }
        // Closed, and whatever a later release adds: nothing unminimized leaves.
        _ => {
            let reason = BlockReason::Internal("minimizer panicked");
            tracing::error!(tool, reason = %reason, "tool call blocked");
            on_report.on_report(&ReportEvent {
                tool,
                report: &report,
                disposition: Disposition::Blocked(&reason),
            });
            Err(Error::blocked(tool, reason))
        }
    }
}

/// Logs the outcome: tool, costs, and per item its path, category, kind and action. Never a
/// value.
fn trace_outcome(tool: &str, outcome: &Outcome) {
    let report = outcome.report();
    match outcome.block_reason() {
        None => tracing::debug!(
            tool,
            cost_before = report.cost_before(),
            cost_after = report.cost_after(),
            items = report.items().len(),
            changed = report.changed(),
            "tool call minimized"
        ),
        Some(reason) => tracing::warn!(
            tool,
            reason = %reason,
            cost_before = report.cost_before(),
            cost_after = report.cost_after(),
            items = report.items().len(),
            "tool call blocked"
        ),
    }
    if tracing::enabled!(tracing::Level::TRACE) {
        for item in report.items() {
            tracing::trace!(
                tool,
                path = %item.path(),
                category = item.category().id(),
                kind = %item.kind(),
                sensitivity = u8::from(item.sensitivity()),
                necessary = item.necessary(),
                action = item.action().id(),
                rule = item.rule().id(),
                "sensitive item"
            );
        }
    }
}
