//! The time budget of one call: a deadline the pipeline checks between strings, windows of
//! long strings and stages. A call that runs past it stops and goes through the policy's fail
//! mode (blocked by default), so one hostile call cannot hold a caller for long.

use std::cell::Cell;
use std::time::{Duration, Instant};

thread_local! {
    /// The deadline of the call this thread is minimizing, for stages that check it without
    /// having it passed down (see [`expired`]).
    static CURRENT: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Whether the call this thread is minimizing has run past its deadline. Loops over items
/// check it and stop early; the pipeline then fails the call under the fail mode.
pub(crate) fn expired() -> bool {
    CURRENT.with(|c| c.get().is_some_and(|at| Instant::now() >= at))
}

/// The deadline of the call this thread is minimizing, for threads that share its work (they
/// [`enter`](Deadline::enter) it).
pub(crate) fn current() -> Deadline {
    Deadline(CURRENT.get())
}

/// Makes a deadline the thread's current one until dropped.
pub(crate) struct Scope(Option<Instant>);

impl Drop for Scope {
    fn drop(&mut self) {
        let previous = self.0;
        CURRENT.with(|c| c.set(previous));
    }
}

/// Why a call stopped: its time budget ran out. The text is fixed and never holds a value.
pub const OVER_BUDGET: &str = "time budget exceeded";

/// When a call must be done by, if ever.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Deadline(Option<Instant>);

impl Deadline {
    /// No deadline.
    pub(crate) fn none() -> Self {
        Deadline(None)
    }

    /// The earlier of `at` and now + `budget`.
    pub(crate) fn new(budget: Option<Duration>, at: Option<Instant>) -> Self {
        let from_budget = budget.and_then(|b| Instant::now().checked_add(b));
        Deadline(match (from_budget, at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        })
    }

    /// When the deadline falls, if it does.
    pub(crate) fn at(&self) -> Option<Instant> {
        self.0
    }

    /// Makes this deadline the thread's current one (for [`expired`]) until the scope ends.
    pub(crate) fn enter(&self) -> Scope {
        let at = self.0;
        Scope(CURRENT.with(|c| c.replace(at)))
    }

    /// An error once the deadline has passed.
    pub(crate) fn check(&self) -> Result<(), &'static str> {
        match self.0 {
            Some(at) if Instant::now() >= at => Err(OVER_BUDGET),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passed_deadline_fails_and_none_never_does() {
        assert!(Deadline::none().check().is_ok());
        let past = Deadline::new(None, Some(Instant::now()));
        assert_eq!(past.check(), Err(OVER_BUDGET));
        let zero = Deadline::new(Some(Duration::ZERO), None);
        assert_eq!(zero.check(), Err(OVER_BUDGET));
        let far = Deadline::new(Some(Duration::from_secs(3600)), None);
        assert!(far.check().is_ok());
    }

    #[test]
    fn the_current_deadline_is_scoped() {
        assert!(!expired());
        {
            let _scope = Deadline::new(None, Some(Instant::now())).enter();
            assert!(expired());
        }
        assert!(!expired());
    }
}
