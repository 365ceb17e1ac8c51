//! The report hook: what the layer tells you about each call.
//!
//! Give [`MinimizeLayer::on_report`](crate::MinimizeLayer::on_report) anything that implements
//! [`OnReport`]: a closure taking `&ReportEvent<'_>`, your own type, or `()` (the default, which
//! does nothing). It runs synchronously in `call`, before the inner service, for every call,
//! including blocked ones.
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use toolminimize_core::Minimizer;
//! use toolminimize_tower::{MinimizeLayer, ReportEvent};
//!
//! let costs = Arc::new(Mutex::new(Vec::new()));
//! let sink = Arc::clone(&costs);
//! let layer = MinimizeLayer::new(Minimizer::new()?).on_report(move |event: &ReportEvent<'_>| {
//!     if let Ok(mut costs) = sink.lock() {
//!         costs.push((event.tool.to_owned(), event.report.cost_before(), event.report.cost_after()));
//!     }
//! });
//! # drop(layer);
//! # Ok::<(), toolminimize_core::Error>(())
//! ```

use toolminimize_core::{BlockReason, Report};

/// What happened to a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Disposition<'a> {
    /// Minimized and forwarded to the inner service.
    Minimized,
    /// Forwarded unchanged because minimization failed and the policy fails open.
    Unminimized,
    /// Not forwarded.
    Blocked(&'a BlockReason),
}

/// One call's report, as the hook sees it. Holds no argument value.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct ReportEvent<'a> {
    /// The tool's name.
    pub tool: &'a str,
    /// What was found and done.
    pub report: &'a Report,
    /// Forwarded or blocked.
    pub disposition: Disposition<'a>,
}

/// Receives each call's [`ReportEvent`].
pub trait OnReport {
    /// Called once per call, before the inner service is called (or not).
    fn on_report(&mut self, event: &ReportEvent<'_>);
}

impl OnReport for () {
    #[inline]
    fn on_report(&mut self, _event: &ReportEvent<'_>) {}
}

impl<F> OnReport for F
where
    F: FnMut(&ReportEvent<'_>),
{
    #[inline]
    fn on_report(&mut self, event: &ReportEvent<'_>) {
        self(event);
    }
}
