//! The time budget of one call: a deadline the pipeline checks between strings, windows of
//! long strings and stages. A call that runs past it stops and goes through the policy's fail
//! mode (blocked by default), so one hostile call cannot hold a caller for long.

use std::time::{Duration, Instant};

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
}
