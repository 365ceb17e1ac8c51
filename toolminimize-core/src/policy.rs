//! The caller's policy: how strict, what to do on internal failure, per-tool exposure, which
//! rewrite operations are allowed, allow- and deny-lists.
//!
//! Policies are plain data and load from JSON (`Policy::from_json_str`).
//!
//! ```
//! use toolminimize_core::policy::{FailMode, Policy};
//! let p = Policy::from_json_str(r#"{"strict": true, "exposure": {"get_forecast": "first_party"}}"#)?;
//! assert!(p.strict);
//! assert_eq!(p.fail_mode, FailMode::Closed);
//! # Ok::<(), toolminimize_core::Error>(())
//! ```

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Deserializer};

use crate::error::{Error, ErrorKind};
use crate::report::Action;
use crate::taxonomy::{Category, Exposure};

/// What happens when the pipeline fails on a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailMode {
    /// Block the call (default): nothing unminimized leaves.
    #[default]
    Closed,
    /// Forward the original arguments.
    Open,
}

/// A term the policy marks as sensitive (deny-list).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct DenyTerm {
    /// The term, matched case- and diacritic-insensitively on word boundaries.
    pub term: String,
    /// Its category.
    pub category: Category,
}

/// When to block a call instead of rewriting it. Blocking is never the default.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockRule {
    /// Block when the cost after rewriting is still above this.
    #[serde(default)]
    pub cost_after_above: Option<f64>,
    /// Block calls to these tools.
    #[serde(default)]
    pub tools: Vec<String>,
}

/// The caller's policy.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Policy {
    /// Every detected item counts as unnecessary (redact everything sensitive).
    pub strict: bool,
    /// Block or forward on internal failure.
    pub fail_mode: FailMode,
    /// Exposure per tool name, overriding the call's and the schema's.
    pub exposure: BTreeMap<String, Exposure>,
    /// Exposure for calls that declare none.
    pub default_exposure: Exposure,
    /// Rewrite operations allowed (default: all). Removal is the fallback when the preferred
    /// operation is not allowed.
    pub allowed_actions: Vec<Action>,
    /// Terms never reported as PSD (e.g. the company's own name).
    pub allow: Vec<String>,
    /// Extra terms always reported as PSD.
    pub deny: Vec<DenyTerm>,
    /// Optional blocking.
    pub block: BlockRule,
    /// Honour `task_context` (PSD the user's own words ask to send is kept).
    pub honour_task_context: bool,
    /// How long minimizing one call may take (default [`DEFAULT_TIME_BUDGET`]; `None`: no
    /// limit). A call over budget goes through `fail_mode`: blocked by default, never
    /// forwarded half-minimized. In JSON: `"time_budget_ms"`, a number of milliseconds or
    /// `null` for no limit.
    #[serde(rename = "time_budget_ms", deserialize_with = "millis")]
    pub time_budget: Option<Duration>,
}

/// The default time budget per call: far above what any realistic call needs (well under a
/// millisecond; tens of megabytes of arguments take a few seconds), low enough that a hostile
/// call cannot hold its caller for long.
pub const DEFAULT_TIME_BUDGET: Duration = Duration::from_secs(10);

fn millis<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
    Ok(Option::<u64>::deserialize(d)?.map(Duration::from_millis))
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            strict: false,
            fail_mode: FailMode::Closed,
            exposure: BTreeMap::new(),
            default_exposure: Exposure::Unknown,
            allowed_actions: vec![
                Action::Remove,
                Action::Generalize,
                Action::Substitute,
                Action::Truncate,
            ],
            allow: Vec::new(),
            deny: Vec::new(),
            block: BlockRule::default(),
            honour_task_context: true,
            time_budget: Some(DEFAULT_TIME_BUDGET),
        }
    }
}

impl Policy {
    /// Parses a policy from JSON.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidPolicy`] with serde's message (which names the offending key).
    pub fn from_json_str(s: &str) -> Result<Self, Error> {
        serde_json::from_str(s)
            .map_err(|e| Error::new(ErrorKind::InvalidPolicy, format!("invalid policy: {e}")))
    }

    /// A strict policy: every detected item is unnecessary.
    pub fn strict() -> Self {
        Policy {
            strict: true,
            ..Policy::default()
        }
    }

    /// Whether an action is allowed.
    pub fn allows(&self, action: Action) -> bool {
        action == Action::Keep || self.allowed_actions.contains(&action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_are_rejected_with_their_name() {
        let e = Policy::from_json_str(r#"{"stirct": true}"#).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidPolicy);
        assert!(e.message().contains("stirct"));
    }

    #[test]
    fn deny_terms_and_block_rules_parse() {
        let p = Policy::from_json_str(
            r#"{"deny": [{"term": "Project Falcon", "category": "financial"}], "block": {"tools": ["exec"]}, "fail_mode": "open"}"#,
        )
        .unwrap();
        assert_eq!(p.deny.len(), 1);
        assert_eq!(p.block.tools, vec!["exec".to_string()]);
        assert_eq!(p.fail_mode, FailMode::Open);
    }

    #[test]
    fn time_budget_parses_in_milliseconds_or_null() {
        assert_eq!(Policy::default().time_budget, Some(DEFAULT_TIME_BUDGET));
        let p = Policy::from_json_str(r#"{"time_budget_ms": 250}"#).unwrap();
        assert_eq!(p.time_budget, Some(Duration::from_millis(250)));
        let p = Policy::from_json_str(r#"{"time_budget_ms": null}"#).unwrap();
        assert_eq!(p.time_budget, None);
        assert!(Policy::from_json_str(r#"{"time_budget_ms": -1}"#).is_err());
    }
}
