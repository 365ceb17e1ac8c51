//! The caller's policy: how strict, what to do on internal failure, per-tool exposure, which
//! rewrite operations are allowed, allow- and deny-lists, blocking and the time budget.
//!
//! A [`Policy`] is plain data: built in code with its `with_*` setters, or read from JSON
//! ([`Policy::from_json_str`], the format of the CLI's `--policy` file).

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Deserializer};

use crate::error::{Error, ErrorKind};
use crate::report::Action;
use crate::taxonomy::{Category, Exposure};

/// What happens when the pipeline fails on a call (an internal failure, a call over its time
/// budget, a session store that cannot be reached).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FailMode {
    /// Block the call (default): nothing unminimized leaves.
    #[default]
    Closed,
    /// Forward the original arguments.
    Open,
}

/// A term the policy marks as sensitive (deny-list): matched case- and diacritic-insensitively
/// on word boundaries, and reported under its category.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DenyTerm {
    pub(crate) term: String,
    pub(crate) category: Category,
}

impl DenyTerm {
    /// A deny-listed term and the category to report it under.
    pub fn new(term: impl Into<String>, category: Category) -> Self {
        DenyTerm {
            term: term.into(),
            category,
        }
    }

    /// The term.
    pub fn term(&self) -> &str {
        &self.term
    }

    /// Its category.
    pub fn category(&self) -> Category {
        self.category
    }
}

/// When to block a call instead of rewriting it. Blocking is never the default.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BlockRule {
    /// Block when the cost after rewriting is still above this.
    #[serde(default)]
    pub(crate) cost_after_above: Option<f64>,
    /// Block calls to these tools.
    #[serde(default)]
    pub(crate) tools: Vec<String>,
}

/// The caller's policy. [`Policy::default`] is what the CLI uses without `--policy`: rewrite
/// what the tool does not need, fail closed, never block, a 10 s time budget.
///
/// In JSON every key is optional and unknown keys are rejected: `"strict"`, `"fail_mode"`
/// (`"closed"` or `"open"`), `"exposure"` (tool name → exposure), `"default_exposure"`,
/// `"allowed_actions"`, `"allow"` (terms), `"deny"` (`[{"term": …, "category": …}]`),
/// `"block"` (`{"tools": […], "cost_after_above": n}`), `"honour_task_context"` and
/// `"time_budget_ms"` (milliseconds, or `null` for none).
///
/// ```
/// use std::time::Duration;
/// use toolminimize_core::{Category, Exposure, FailMode, Policy};
///
/// let p = Policy::default()
///     .with_fail_mode(FailMode::Closed)
///     .with_tool_exposure("get_forecast", Exposure::FirstParty)
///     .with_denied_term("Project Falcon", Category::Financial)
///     .with_time_budget(Some(Duration::from_millis(500)));
/// assert_eq!(p.tool_exposure("get_forecast"), Some(Exposure::FirstParty));
///
/// let q = Policy::from_json_str(r#"{"strict": true, "exposure": {"get_forecast": "first_party"}}"#)?;
/// assert!(q.strict());
/// assert_eq!(q.fail_mode(), FailMode::Closed);
/// # Ok::<(), toolminimize_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct Policy {
    pub(crate) strict: bool,
    pub(crate) fail_mode: FailMode,
    pub(crate) exposure: BTreeMap<String, Exposure>,
    pub(crate) default_exposure: Exposure,
    pub(crate) allowed_actions: Vec<Action>,
    pub(crate) allow: Vec<String>,
    pub(crate) deny: Vec<DenyTerm>,
    pub(crate) block: BlockRule,
    pub(crate) honour_task_context: bool,
    #[serde(rename = "time_budget_ms", deserialize_with = "millis")]
    pub(crate) time_budget: Option<Duration>,
}

/// The default time budget per call ([`Policy::time_budget`]): far above what any realistic call needs (well under a
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

    /// Strict mode: every detected item counts as unnecessary, whatever the schema says, so
    /// everything sensitive is rewritten.
    #[must_use]
    pub fn with_strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// What to do when the pipeline fails on a call (default [`FailMode::Closed`]).
    #[must_use]
    pub fn with_fail_mode(mut self, mode: FailMode) -> Self {
        self.fail_mode = mode;
        self
    }

    /// The exposure of every call to `tool`, overriding the call's and the schema's.
    #[must_use]
    pub fn with_tool_exposure(mut self, tool: impl Into<String>, exposure: Exposure) -> Self {
        self.exposure.insert(tool.into(), exposure);
        self
    }

    /// The exposure of calls that declare none (default [`Exposure::Unknown`], weighed like
    /// third party).
    #[must_use]
    pub fn with_default_exposure(mut self, exposure: Exposure) -> Self {
        self.default_exposure = exposure;
        self
    }

    /// The rewrite operations allowed (default: all). Removal is the fallback when an item's
    /// preferred operation is not allowed; [`Action::Keep`] is always allowed.
    #[must_use]
    pub fn with_allowed_actions(mut self, actions: impl IntoIterator<Item = Action>) -> Self {
        self.allowed_actions = actions.into_iter().collect();
        self
    }

    /// A term never reported as PSD (the company's own name, a product).
    #[must_use]
    pub fn with_allowed_term(mut self, term: impl Into<String>) -> Self {
        self.allow.push(term.into());
        self
    }

    /// A term always reported as PSD, under `category`.
    #[must_use]
    pub fn with_denied_term(mut self, term: impl Into<String>, category: Category) -> Self {
        self.deny.push(DenyTerm::new(term, category));
        self
    }

    /// Blocks every call to `tool` (the report is still made).
    #[must_use]
    pub fn with_blocked_tool(mut self, tool: impl Into<String>) -> Self {
        self.block.tools.push(tool.into());
        self
    }

    /// Blocks a call whose privacy cost after rewriting is still above `limit` (`None`: never).
    #[must_use]
    pub fn with_cost_limit(mut self, limit: Option<f64>) -> Self {
        self.block.cost_after_above = limit;
        self
    }

    /// Whether PSD the user's own words (`task_context`) ask to send is kept (default `true`).
    #[must_use]
    pub fn with_honour_task_context(mut self, honour: bool) -> Self {
        self.honour_task_context = honour;
        self
    }

    /// How long minimizing one call may take (default [`DEFAULT_TIME_BUDGET`]; `None`: no
    /// limit). A call over budget goes through the fail mode: blocked by default, never
    /// forwarded half-minimized.
    #[must_use]
    pub fn with_time_budget(mut self, budget: Option<Duration>) -> Self {
        self.time_budget = budget;
        self
    }

    /// Whether strict mode is on.
    pub fn strict(&self) -> bool {
        self.strict
    }

    /// What happens when the pipeline fails on a call.
    pub fn fail_mode(&self) -> FailMode {
        self.fail_mode
    }

    /// The exposure the policy sets for `tool`, if any.
    pub fn tool_exposure(&self, tool: &str) -> Option<Exposure> {
        self.exposure.get(tool).copied()
    }

    /// The exposure of calls that declare none.
    pub fn default_exposure(&self) -> Exposure {
        self.default_exposure
    }

    /// The rewrite operations allowed.
    pub fn allowed_actions(&self) -> &[Action] {
        &self.allowed_actions
    }

    /// Whether an action is allowed ([`Action::Keep`] always is).
    pub fn allows(&self, action: Action) -> bool {
        action == Action::Keep || self.allowed_actions.contains(&action)
    }

    /// Terms never reported as PSD.
    pub fn allowed_terms(&self) -> &[String] {
        &self.allow
    }

    /// Terms always reported as PSD.
    pub fn denied_terms(&self) -> &[DenyTerm] {
        &self.deny
    }

    /// Tools whose calls are blocked.
    pub fn blocked_tools(&self) -> &[String] {
        &self.block.tools
    }

    /// The privacy cost after rewriting above which a call is blocked, if any.
    pub fn cost_limit(&self) -> Option<f64> {
        self.block.cost_after_above
    }

    /// Whether PSD the user's own words ask to send is kept.
    pub fn honours_task_context(&self) -> bool {
        self.honour_task_context
    }

    /// How long minimizing one call may take (`None`: no limit).
    pub fn time_budget(&self) -> Option<Duration> {
        self.time_budget
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
