//! Detectors compiled once per process: on first use, or ahead of it on a background thread
//! started by the first [`Minimizer`](crate::Minimizer).
//!
//! Compiling every pattern takes tens of milliseconds and the phone-number metadata a few
//! hundred; a process that builds a `Minimizer` and then handles one call, or none, should not
//! pay for what it does not use. Each detector sits in a process-wide cell: a call that needs a
//! detector the warm-up has not reached yet compiles it itself (or waits for the warm-up
//! thread already compiling it), and every later `Minimizer` shares the compiled detector.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Once, OnceLock};

use super::{Detector, Field};
use crate::error::Error;
use crate::item::Finding;

/// Set when a built-in detector failed to compile (a bug, caught by tests): the pipeline then
/// fails under the policy's fail mode rather than forwarding what it could not check.
static FAILED: AtomicBool = AtomicBool::new(false);

/// Whether a built-in detector failed to compile.
pub(crate) fn failed() -> bool {
    FAILED.load(Ordering::Relaxed)
}

/// The result of compiling one of the patterns shared by detectors (compiled on first use):
/// a failure is recorded like a detector's, so that every call from then on fails under the
/// policy's fail mode instead of going on without the pattern. Tests compile every pattern
/// (`classify::build_tests`), so a bad pattern fails CI before it can ship.
pub(crate) fn checked<T, E: fmt::Display>(what: &'static str, r: Result<T, E>) -> Result<T, E> {
    if let Err(e) = &r {
        FAILED.store(true, Ordering::Relaxed);
        tracing::error!(pattern = what, error = %e, "built-in pattern failed to compile");
    }
    r
}

/// A detector compiled once per process.
pub(crate) struct Shared<T: 'static> {
    name: &'static str,
    cell: &'static OnceLock<Result<T, Error>>,
    init: fn() -> Result<T, Error>,
    /// The detector's own first test of a text (see [`Gate`]), made before compiling it.
    gate: fn(&str, &Field<'_>) -> bool,
}

/// The test a detector makes of a text before anything else: a text that fails it holds
/// nothing the detector finds. [`Shared`] makes it before compiling the detector, so a call
/// whose texts cannot hold, say, a card number never compiles the card patterns.
pub(crate) trait Gate {
    /// Whether `text` can hold a finding of the detector.
    fn may_find(_text: &str, _field: &Field<'_>) -> bool {
        true
    }
}

impl<T: Gate> Shared<T> {
    pub(crate) const fn new(
        name: &'static str,
        cell: &'static OnceLock<Result<T, Error>>,
        init: fn() -> Result<T, Error>,
    ) -> Self {
        Shared {
            name,
            cell,
            init,
            gate: T::may_find,
        }
    }
}

impl<T> Shared<T> {
    /// The compiled detector, compiling it if no one has yet.
    pub(crate) fn get(&self) -> Result<&'static T, &'static Error> {
        let r = self.cell.get_or_init(|| {
            let r = (self.init)();
            if let Err(e) = &r {
                FAILED.store(true, Ordering::Relaxed);
                tracing::error!(detector = self.name, error = %e, "built-in detector failed to compile");
            }
            r
        });
        r.as_ref()
    }
}

impl<T> fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Shared")
            .field("name", &self.name)
            .field("compiled", &self.cell.get().is_some())
            .finish()
    }
}

impl<T: Detector> Detector for Shared<T> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn detect(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) {
        if !(self.gate)(text, field) {
            return;
        }
        if let Ok(d) = self.get() {
            d.detect(text, field, out);
        }
    }
}

/// Starts, once per process, the background threads that compile what calls will need: the
/// structured detectors and the other patterns on one, the phone-number metadata on another.
/// Nothing waits for them; where threads cannot be spawned, everything compiles on first use.
pub(crate) fn warm_up() {
    static STARTED: Once = Once::new();
    STARTED.call_once(|| {
        let _ = std::thread::Builder::new()
            .name("toolminimize-warm-phone".into())
            .spawn(super::structured::warm_up_phone_metadata);
        let _ = std::thread::Builder::new()
            .name("toolminimize-warm".into())
            .spawn(|| {
                super::structured::warm_up();
                super::lexicon::warm_up();
                super::encoded::warm_up();
            });
    });
}
