//! [`MinimizeLayer`]: applies [`Minimize`] to a service.

use std::sync::Arc;

use toolminimize_core::Minimizer;
use tower_layer::Layer;

use crate::registry::ToolRegistry;
use crate::service::Minimize;

/// Minimizes every tool call's arguments before the inner service sees them.
///
/// See the [crate docs](crate) for an example.
#[derive(Debug, Clone)]
pub struct MinimizeLayer<H = ()> {
    pub(crate) minimizer: Minimizer,
    pub(crate) registry: Arc<ToolRegistry>,
    pub(crate) on_report: H,
    pub(crate) time_budget: Option<std::time::Duration>,
}

impl MinimizeLayer {
    /// A layer minimizing with `minimizer`; calls that name their tool are resolved through an
    /// empty registry, so they are minimized with conservative defaults until
    /// [`registry`](Self::registry) is set.
    pub fn new(minimizer: Minimizer) -> Self {
        MinimizeLayer {
            minimizer,
            registry: Arc::new(ToolRegistry::new()),
            on_report: (),
            time_budget: None,
        }
    }
}

impl<H> MinimizeLayer<H> {
    /// Resolves calls that name their tool through `registry`.
    #[must_use]
    pub fn registry(mut self, registry: impl Into<Arc<ToolRegistry>>) -> Self {
        self.registry = registry.into();
        self
    }

    /// Calls `hook` with each call's report (see [`OnReport`](crate::OnReport)).
    pub fn on_report<H2>(self, hook: H2) -> MinimizeLayer<H2> {
        MinimizeLayer {
            minimizer: self.minimizer,
            registry: self.registry,
            on_report: hook,
            time_budget: self.time_budget,
        }
    }

    /// A time budget for minimizing each call, on top of the minimizer's policy (the earlier
    /// deadline applies). A call over budget goes through the policy's fail mode: blocked by
    /// default, never forwarded raw.
    #[must_use]
    pub fn time_budget(mut self, budget: std::time::Duration) -> Self {
        self.time_budget = Some(budget);
        self
    }

    /// The minimizer.
    pub fn minimizer(&self) -> &Minimizer {
        &self.minimizer
    }
}

impl<S, H: Clone> Layer<S> for MinimizeLayer<H> {
    type Service = Minimize<S, H>;

    fn layer(&self, inner: S) -> Self::Service {
        Minimize {
            inner,
            minimizer: self.minimizer.clone(),
            registry: Arc::clone(&self.registry),
            on_report: self.on_report.clone(),
            time_budget: self.time_budget,
        }
    }
}
