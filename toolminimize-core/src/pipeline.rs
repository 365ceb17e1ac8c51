//! The pipeline: classify → decide → rewrite → score, built once and shared.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::classify::{Classifier, Detector, Field};
use crate::decide::judge::ContentJudge;
use crate::error::Error;
use crate::item::Finding;
use crate::policy::{FailMode, Policy};
use crate::report::Report;
use crate::rewrite::JsonOut;
use crate::session::Session;
use crate::taxonomy::Exposure;
use crate::tool::ToolDef;

/// Why a call was blocked. Its text is from a fixed vocabulary and never holds a value.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BlockReason {
    /// The policy blocks this tool.
    ToolBlocked,
    /// The cost after rewriting stayed above the policy's limit.
    CostAboveLimit,
    /// The pipeline failed and the policy fails closed; the text says what failed from a fixed
    /// vocabulary (`"time budget exceeded"`, `"session store unavailable"`, …).
    Internal(&'static str),
}

impl BlockReason {
    /// A stable id for the reason: `"tool_blocked"`, `"cost_above_limit"` or `"internal"`.
    ///
    /// ```
    /// use toolminimize_core::BlockReason;
    /// assert_eq!(BlockReason::CostAboveLimit.id(), "cost_above_limit");
    /// assert_eq!(BlockReason::Internal("time budget exceeded").id(), "internal");
    /// ```
    pub const fn id(&self) -> &'static str {
        match self {
            BlockReason::ToolBlocked => "tool_blocked",
            BlockReason::CostAboveLimit => "cost_above_limit",
            BlockReason::Internal(_) => "internal",
        }
    }
}

impl fmt::Display for BlockReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BlockReason::ToolBlocked => f.write_str("the policy blocks calls to this tool"),
            BlockReason::CostAboveLimit => {
                f.write_str("the call still carries more sensitive data than the policy allows")
            }
            BlockReason::Internal(what) => {
                write!(f, "minimization failed ({what}); the call is blocked")
            }
        }
    }
}

/// Forward these arguments, or block.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Verdict<A = Value> {
    /// Send these (minimized) arguments.
    Forward(A),
    /// Do not send the call.
    Block(BlockReason),
}

impl<A> Verdict<A> {
    /// The arguments to send, unless the call is blocked.
    pub fn arguments(&self) -> Option<&A> {
        match self {
            Verdict::Forward(v) => Some(v),
            Verdict::Block(_) => None,
        }
    }

    /// Why the call is blocked, if it is.
    pub fn block_reason(&self) -> Option<&BlockReason> {
        match self {
            Verdict::Forward(_) => None,
            Verdict::Block(r) => Some(r),
        }
    }

    /// The arguments to send, or why not. Code outside this crate matches on this rather than
    /// on the (non-exhaustive) enum: whatever a later release adds maps to one of the two.
    ///
    /// # Errors
    /// The block reason when the call is blocked.
    pub fn into_arguments(self) -> Result<A, BlockReason> {
        match self {
            Verdict::Forward(v) => Ok(v),
            Verdict::Block(r) => Err(r),
        }
    }
}

/// The result of minimizing one call: the [`Verdict`] and the [`Report`].
///
/// ```
/// use serde_json::json;
/// use toolminimize_core::{Minimizer, Policy, ToolDef, Verdict};
///
/// let minimizer = Minimizer::builder()
///     .policy(Policy::default().with_blocked_tool("exec"))
///     .build()?;
/// let exec = ToolDef::new("exec", "Run a shell command", json!({"type": "object"}));
/// let outcome = minimizer.minimize(&exec, &json!({"cmd": "ls"}));
/// assert!(outcome.is_blocked());
/// assert!(matches!(outcome.verdict(), Verdict::Block(_)));
/// assert_eq!(outcome.arguments(), None);
/// # Ok::<(), toolminimize_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Outcome<A = Value> {
    verdict: Verdict<A>,
    report: Report,
}

impl<A> Outcome<A> {
    /// An outcome from its parts, for code that wraps the pipeline (a middleware that blocks a
    /// call before minimizing it, a test double).
    pub fn new(verdict: Verdict<A>, report: Report) -> Self {
        Outcome { verdict, report }
    }

    /// Forward or block.
    pub fn verdict(&self) -> &Verdict<A> {
        &self.verdict
    }

    /// What was found and done (never a raw value).
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// The verdict and the report.
    pub fn into_parts(self) -> (Verdict<A>, Report) {
        (self.verdict, self.report)
    }

    /// The arguments to send, unless blocked.
    pub fn arguments(&self) -> Option<&A> {
        self.verdict.arguments()
    }

    /// The arguments to send, or why not.
    ///
    /// # Errors
    /// The block reason when the call is blocked.
    pub fn into_arguments(self) -> Result<A, BlockReason> {
        self.verdict.into_arguments()
    }

    /// Why the call is blocked, if it is.
    pub fn block_reason(&self) -> Option<&BlockReason> {
        self.verdict.block_reason()
    }

    /// Whether the call is blocked.
    pub fn is_blocked(&self) -> bool {
        self.verdict.block_reason().is_some()
    }

    /// The same outcome with its arguments (when forwarded) made into another form.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolminimize_core::{Minimizer, ToolDef};
    ///
    /// let minimizer = Minimizer::new()?;
    /// let tool = ToolDef::new("t", "A tool", json!({"type": "object"}));
    /// let text = minimizer.minimize(&tool, &json!({"a": 1})).map_arguments(|v| v.to_string());
    /// assert_eq!(text.arguments().map(String::as_str), Some(r#"{"a":1}"#));
    /// # Ok::<(), toolminimize_core::Error>(())
    /// ```
    pub fn map_arguments<B>(self, f: impl FnOnce(A) -> B) -> Outcome<B> {
        let verdict = match self.verdict {
            Verdict::Forward(a) => Verdict::Forward(f(a)),
            Verdict::Block(r) => Verdict::Block(r),
        };
        Outcome {
            verdict,
            report: self.report,
        }
    }
}

/// The minimized arguments of a call given as JSON text ([`Minimizer::minimize_json`]):
/// the compact JSON text `serde_json` writes for the minimized `Value`, written out from the
/// input text and the rewrite's edits when asked, so it is never held whole.
///
/// Its `Debug` shows the minimized arguments, never the input.
#[derive(Clone)]
pub struct MinimizedJson<'t> {
    input: Cow<'t, str>,
    out: JsonOut,
}

impl MinimizedJson<'_> {
    /// Writes the minimized arguments to `out`.
    ///
    /// # Errors
    /// What writing to `out` fails with.
    pub fn write_to<W: std::io::Write>(&self, mut out: W) -> std::io::Result<()> {
        self.out.write_to(&self.input, &mut out)
    }
}

impl fmt::Display for MinimizedJson<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Vec::new();
        self.write_to(&mut text).map_err(|_| fmt::Error)?;
        f.write_str(&String::from_utf8_lossy(&text))
    }
}

impl fmt::Debug for MinimizedJson<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("MinimizedJson")
            .field(&self.to_string())
            .finish()
    }
}

impl PartialEq for MinimizedJson<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.to_string() == other.to_string()
    }
}

/// One call with its optional context, built with [`Call::new`] and the setters.
///
/// ```
/// use serde_json::json;
/// use toolminimize_core::{Call, Exposure, Minimizer, Session, ToolDef};
///
/// let minimizer = Minimizer::new()?;
/// let tool = ToolDef::new("send_sms", "Send a text message", json!({
///     "type": "object",
///     "properties": {"to": {"type": "string"}, "body": {"type": "string"}},
///     "required": ["to", "body"]
/// }));
/// let session = Session::new("conversation-1");
/// let args = json!({"to": "+44 7700 900123", "body": "Running late, see you at 7"});
/// let call = Call::new(&tool, &args)
///     .exposure(Exposure::ThirdParty)
///     .task_context("text Sam that I'm running late")
///     .session(&session);
/// let outcome = minimizer.minimize_call(&call);
/// assert_eq!(outcome.arguments(), Some(&args)); // the tool needs all of it
/// # Ok::<(), toolminimize_core::Error>(())
/// ```
///
/// A caller that owns the arguments and needs only what comes out builds the call with
/// [`Call::owned`] and hands it to [`Minimizer::minimize_owned`]: the arguments are then
/// rewritten in place, never copied.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Call<'a, A = &'a Value> {
    /// The tool.
    pub tool: &'a ToolDef,
    /// The arguments the model produced: borrowed ([`Call::new`]) or owned ([`Call::owned`]).
    pub arguments: A,
    /// Exposure of this call, if the caller knows it (the policy may override it).
    pub exposure: Option<Exposure>,
    /// The user's own words for this task: PSD they ask to send is kept.
    pub task_context: Option<&'a str>,
    /// The conversation this call belongs to.
    pub session: Option<&'a Session>,
    /// When minimizing must be done by, on top of the policy's time budget (the earlier of the
    /// two applies). A caller with its own deadline for the whole request (an MCP proxy, a
    /// gateway) passes it here.
    pub deadline: Option<Instant>,
}

impl<'a> Call<'a> {
    /// A call with no context.
    pub fn new(tool: &'a ToolDef, arguments: &'a Value) -> Self {
        Call::bare(tool, arguments)
    }
}

impl<'a> Call<'a, Value> {
    /// A call that owns its arguments, with no context; see [`Minimizer::minimize_owned`].
    ///
    /// ```
    /// use serde_json::json;
    /// use toolminimize_core::{Call, Minimizer, ToolDef};
    ///
    /// let minimizer = Minimizer::new()?;
    /// let tool = ToolDef::new("get_forecast", "Weather forecast for a city", json!({
    ///     "type": "object",
    ///     "properties": {"city": {"type": "string"}, "notes": {"type": "string"}},
    ///     "required": ["city"]
    /// }));
    /// let args = json!({"city": "Lyon", "notes": "call me on +33 6 12 34 56 78"});
    /// let out = minimizer.minimize_owned(Call::owned(&tool, args));
    /// assert_eq!(out.arguments(), Some(&json!({"city": "Lyon"})));
    /// # Ok::<(), toolminimize_core::Error>(())
    /// ```
    pub fn owned(tool: &'a ToolDef, arguments: Value) -> Self {
        Call::bare(tool, arguments)
    }

    /// The arguments, and the same call borrowing nothing else from them.
    pub(crate) fn into_parts(self) -> (Value, Call<'a, ()>) {
        let Call {
            tool,
            arguments,
            exposure,
            task_context,
            session,
            deadline,
        } = self;
        (
            arguments,
            Call {
                tool,
                arguments: (),
                exposure,
                task_context,
                session,
                deadline,
            },
        )
    }
}

impl<'a> Call<'a, &'a str> {
    /// A call whose arguments are JSON text, with no context; see
    /// [`Minimizer::minimize_json`].
    pub fn json(tool: &'a ToolDef, arguments: &'a str) -> Self {
        Call::bare(tool, arguments)
    }
}

impl<'a> Call<'a, String> {
    /// A call whose arguments are JSON text it owns, with no context; see
    /// [`Minimizer::minimize_json_owned`].
    pub fn json_owned(tool: &'a ToolDef, arguments: String) -> Self {
        Call::bare(tool, arguments)
    }
}

impl<'a, A> Call<'a, A> {
    /// A call of `tool` with these `arguments` and no context.
    fn bare(tool: &'a ToolDef, arguments: A) -> Self {
        Call {
            tool,
            arguments,
            exposure: None,
            task_context: None,
            session: None,
            deadline: None,
        }
    }

    /// This call's context around other `arguments`.
    pub(crate) fn with_args<B>(&self, arguments: B) -> Call<'a, B> {
        Call {
            tool: self.tool,
            arguments,
            exposure: self.exposure,
            task_context: self.task_context,
            session: self.session,
            deadline: self.deadline,
        }
    }
}

impl<'a, A> Call<'a, A> {
    /// Sets the exposure.
    #[must_use]
    pub fn exposure(mut self, exposure: Exposure) -> Self {
        self.exposure = Some(exposure);
        self
    }

    /// Sets the user's own words.
    #[must_use]
    pub fn task_context(mut self, text: &'a str) -> Self {
        self.task_context = Some(text);
        self
    }

    /// Sets the session.
    #[must_use]
    pub fn session(mut self, session: &'a Session) -> Self {
        self.session = Some(session);
        self
    }

    /// Sets a deadline (see [`Call::deadline`](Call#structfield.deadline)).
    #[must_use]
    pub fn deadline(mut self, at: Instant) -> Self {
        self.deadline = Some(at);
        self
    }
}

pub(crate) struct Inner {
    pub(crate) policy: Policy,
    pub(crate) classifier: Classifier,
}

/// The minimizer: built once, `Send + Sync`, cheap to clone and share across threads.
///
/// ```
/// use serde_json::json;
/// use toolminimize_core::{Minimizer, ToolDef};
///
/// let minimizer = Minimizer::new()?;
/// let tool = ToolDef::new("get_forecast", "Weather forecast for a city", json!({
///     "type": "object",
///     "properties": {"city": {"type": "string"}, "notes": {"type": "string"}},
///     "required": ["city"]
/// }));
/// let out = minimizer.minimize(&tool, &json!({"city": "Lyon", "notes": "call me on +33 6 12 34 56 78"}));
/// assert_eq!(out.arguments(), Some(&json!({"city": "Lyon"})));
/// # Ok::<(), toolminimize_core::Error>(())
/// ```
#[derive(Clone)]
pub struct Minimizer {
    inner: Arc<Inner>,
}

impl fmt::Debug for Minimizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Minimizer")
            .field("policy", &self.inner.policy)
            .finish_non_exhaustive()
    }
}

/// Builds a [`Minimizer`]: a policy, a time budget, extra detectors.
///
/// ```
/// use std::time::Duration;
/// use toolminimize_core::{FailMode, Minimizer, Policy};
///
/// let minimizer = Minimizer::builder()
///     .policy(Policy::default().with_fail_mode(FailMode::Closed))
///     .time_budget(Some(Duration::from_secs(2)))
///     .build()?;
/// assert_eq!(minimizer.policy().fail_mode(), FailMode::Closed);
/// # Ok::<(), toolminimize_core::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct MinimizerBuilder {
    policy: Policy,
    time_budget: Option<Option<Duration>>,
    detectors: Vec<Box<dyn Detector>>,
    no_warm_up: bool,
}

impl MinimizerBuilder {
    /// Uses this policy.
    #[must_use]
    pub fn policy(mut self, policy: Policy) -> Self {
        self.policy = policy;
        self
    }

    /// How long minimizing one call may take (`None`: no limit); the same as the policy's
    /// `time_budget`, set after it. A call over budget goes through the policy's fail mode:
    /// blocked by default.
    ///
    /// ```
    /// use std::time::Duration;
    /// use toolminimize_core::Minimizer;
    /// let m = Minimizer::builder().time_budget(Some(Duration::from_millis(500))).build()?;
    /// assert_eq!(m.policy().time_budget(), Some(Duration::from_millis(500)));
    /// # Ok::<(), toolminimize_core::Error>(())
    /// ```
    #[must_use]
    pub fn time_budget(mut self, budget: Option<Duration>) -> Self {
        self.time_budget = Some(budget);
        self
    }

    /// Whether building starts compiling every detector and loading the phone metadata on
    /// background threads (the default, and the first build of a process only). A process
    /// that minimizes one call and exits, such as a hook, turns it off: its call then compiles
    /// only the detectors its text needs, on the calling thread, and validates phone numbers
    /// with the metadata of their calling codes alone.
    ///
    /// ```
    /// let m = toolminimize_core::Minimizer::builder().warm_up(false).build()?;
    /// # Ok::<(), toolminimize_core::Error>(())
    /// ```
    #[must_use]
    pub fn warm_up(mut self, on: bool) -> Self {
        self.no_warm_up = !on;
        self
    }

    /// Adds a user-supplied detector, run after the built-in ones (see [`Detector`] for an
    /// example).
    #[must_use]
    pub fn detector(mut self, detector: impl Detector + 'static) -> Self {
        self.detectors.push(Box::new(detector));
        self
    }

    /// Builds the minimizer: loads the tables compiled into the crate (a few milliseconds)
    /// and, the first time in a process (unless [`warm_up`](Self::warm_up) is off), starts
    /// compiling the detectors' patterns and loading
    /// the phone-number metadata on background threads. Nothing waits for them: a call that
    /// needs a detector before then compiles it itself, and every later `Minimizer` of the
    /// process shares them.
    ///
    /// # Errors
    /// When a detector or the policy's deny-list cannot be built.
    pub fn build(mut self) -> Result<Minimizer, Error> {
        if let Some(budget) = self.time_budget {
            self.policy.time_budget = budget;
        }
        let classifier = Classifier::build(&self.policy, self.detectors)?;
        // Started after loading the tables, so that the warm-up threads do not compete with
        // the build for a core.
        if !self.no_warm_up {
            crate::classify::warm_up();
        }
        Ok(Minimizer {
            inner: Arc::new(Inner {
                policy: self.policy,
                classifier,
            }),
        })
    }
}

impl Minimizer {
    /// A minimizer with the default policy.
    ///
    /// # Errors
    /// Only if a built-in table fails to build (a bug, caught by tests).
    pub fn new() -> Result<Self, Error> {
        MinimizerBuilder::default().build()
    }

    /// Compiles now, on the calling thread, whatever the warm-up threads have not compiled
    /// yet (detector patterns, phone metadata), so that no later call waits for it. A server
    /// that would rather pay everything before its first request calls this after building.
    ///
    /// ```
    /// let minimizer = toolminimize_core::Minimizer::new()?;
    /// minimizer.wait_until_ready()?;
    /// # Ok::<(), toolminimize_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// When a built-in detector failed to compile (a bug, caught by tests).
    pub fn wait_until_ready(&self) -> Result<(), Error> {
        crate::classify::ready()
    }

    /// A builder.
    pub fn builder() -> MinimizerBuilder {
        MinimizerBuilder::default()
    }

    /// The policy in force.
    pub fn policy(&self) -> &Policy {
        &self.inner.policy
    }

    /// What the classifier finds in one string, before any decision: the findings of every
    /// detector (built-in and added), overlaps resolved, the policy's allow-list applied and
    /// its deny-list added. Spans are byte ranges on char boundaries, in order of their start.
    ///
    /// Useful to see what a string would be reported for, or to test a custom [`Detector`]
    /// together with the built-in ones. [`minimize`](Self::minimize) scans the same way.
    ///
    /// ```
    /// use toolminimize_core::{Category, Field, Minimizer};
    ///
    /// let minimizer = Minimizer::new()?;
    /// let text = "write to ana.ruiz@example.org";
    /// let found = minimizer.scan_text(text, &Field::new("/note"));
    /// assert_eq!(found.len(), 1);
    /// assert_eq!(&text[found[0].span.clone()], "ana.ruiz@example.org");
    /// assert_eq!(found[0].category, Category::Identity);
    /// # Ok::<(), toolminimize_core::Error>(())
    /// ```
    pub fn scan_text(&self, text: &str, field: &Field<'_>) -> Vec<Finding> {
        self.inner.classifier.scan_text(text, field)
    }

    /// Minimizes `arguments` for `tool`, with no further context.
    pub fn minimize(&self, tool: &ToolDef, arguments: &Value) -> Outcome {
        self.minimize_call(&Call::new(tool, arguments))
    }

    /// Minimizes one call with its context.
    pub fn minimize_call(&self, call: &Call<'_>) -> Outcome {
        match crate::engine::run(&self.inner, call) {
            Ok(outcome) => outcome,
            Err(e) => self.failed(call, e),
        }
    }

    /// Minimizes one call whose arguments the caller hands over ([`Call::owned`]): the same
    /// outcome as [`minimize_call`](Self::minimize_call), but the arguments are rewritten in
    /// place, so a call's memory holds them once rather than twice (a 1,000,000-element
    /// array is not copied to be forwarded, a long text is rewritten inside its own buffer).
    /// A call with a session is rewritten on a copy, as it may have to be rewritten again when
    /// the session changes under it. One difference: a call whose time budget runs out while
    /// it is rewritten fails with its rewritten arguments, not the original ones (under
    /// [`FailMode::Open`] those are forwarded; the original texts are gone).
    pub fn minimize_owned(&self, call: Call<'_, Value>) -> Outcome {
        match crate::engine::run_owned(&self.inner, call) {
            Ok(outcome) => outcome,
            Err((e, arguments)) => self.failed_with(e, || arguments),
        }
    }

    /// Minimizes one call whose arguments are JSON text ([`Call::json`]), into JSON text: the
    /// text `serde_json` writes for what [`minimize_call`](Self::minimize_call) gives on the
    /// parsed arguments, but the arguments are never built into a tree of values. They are
    /// read in place (a string is a span of the text), and the minimized arguments are
    /// written out from the text and the rewrite's edits when asked
    /// ([`MinimizedJson::write_to`]), never held whole: a call's memory is about twice its
    /// text however many values it holds, where a `serde_json::Value` takes several times
    /// that for arguments made of many short values. For streams of large calls.
    ///
    /// Text that is not one JSON value is an error of the call, handled by the fail mode
    /// (blocked by default; forwarded as it came under [`FailMode::Open`]).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolminimize_core::{Call, Minimizer, ToolDef};
    ///
    /// let minimizer = Minimizer::new()?;
    /// let tool = ToolDef::new("get_forecast", "Weather forecast for a city", json!({
    ///     "type": "object",
    ///     "properties": {"city": {"type": "string"}, "notes": {"type": "string"}},
    ///     "required": ["city"]
    /// }));
    /// let args = r#"{"city": "Lyon", "notes": "call me on +33 6 12 34 56 78"}"#;
    /// let out = minimizer.minimize_json(&Call::json(&tool, args));
    /// assert_eq!(out.arguments().map(|a| a.to_string()).as_deref(), Some(r#"{"city":"Lyon"}"#));
    /// # Ok::<(), toolminimize_core::Error>(())
    /// ```
    pub fn minimize_json<'t>(&self, call: &Call<'_, &'t str>) -> Outcome<MinimizedJson<'t>> {
        let input = call.arguments;
        self.json_outcome(call).map_arguments(|out| MinimizedJson {
            input: Cow::Borrowed(input),
            out,
        })
    }

    /// [`minimize_json`](Self::minimize_json) on text the caller hands over: the outcome
    /// keeps it, to write the minimized arguments out from it when asked (a stream that
    /// writes each call's output line after minimizing it holds each text once).
    pub fn minimize_json_owned(&self, call: Call<'_, String>) -> Outcome<MinimizedJson<'static>> {
        let context = call.with_args(());
        let text = call.arguments;
        self.json_outcome(&context.with_args(text.as_str()))
            .map_arguments(|out| MinimizedJson {
                input: Cow::Owned(text),
                out,
            })
    }

    /// The outcome of a call given as JSON text, its arguments as edits over that text.
    fn json_outcome(&self, call: &Call<'_, &str>) -> Outcome<JsonOut> {
        match crate::engine::run_text(&self.inner, call) {
            Ok(outcome) => outcome,
            Err(e) => self.failed_with(e, || JsonOut::Verbatim),
        }
    }

    /// Minimizes one call, asking `judge` which spans of each free-text field the task needs
    /// (see [`ContentJudge`] for an example judge).
    ///
    /// The judge overrides the rule-based decisions for the items it is asked about; when it
    /// fails or times out, the rule-based decisions stand. Structured fields and annotations
    /// are not judged.
    pub async fn minimize_judged<J: ContentJudge>(&self, call: &Call<'_>, judge: &J) -> Outcome {
        let arg_call = call.with_args(crate::args::Arg::Value(call.arguments));
        let mut analyzed = match crate::engine::analyze(&self.inner, &arg_call) {
            Ok(a) => a,
            Err(e) => return self.failed(call, e),
        };
        let requests = crate::engine::judge_requests(call, &analyzed);
        for (req, item_indices) in requests {
            match judge.judge(&req).await {
                Ok(answer) => crate::engine::apply_judgement(&mut analyzed, &item_indices, &answer),
                Err(e) => {
                    tracing::debug!(path = %req.path, error = %e, "judge unavailable; rule-based decisions kept")
                }
            }
        }
        crate::engine::finish(&self.inner, &arg_call, analyzed)
            .unwrap_or_else(|e| self.failed(call, e))
    }

    fn failed(&self, call: &Call<'_>, e: &'static str) -> Outcome {
        self.failed_with(e, || call.arguments.clone())
    }

    /// The outcome of a call that failed: blocked, or (failing open) `arguments()` forwarded.
    fn failed_with<A>(&self, e: &'static str, arguments: impl FnOnce() -> A) -> Outcome<A> {
        match self.inner.policy.fail_mode {
            FailMode::Closed => Outcome {
                verdict: Verdict::Block(BlockReason::Internal(e)),
                report: Report::default(),
            },
            FailMode::Open => Outcome {
                verdict: Verdict::Forward(arguments()),
                report: Report::default(),
            },
        }
    }

    /// Classifies and scores without rewriting (for audits): the report of what minimizing
    /// would do, and the arguments unchanged.
    pub fn audit(&self, call: &Call<'_>) -> Report {
        self.minimize_call(call).report
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimizer_is_send_sync_and_clone() {
        fn assert_traits<T: Send + Sync + Clone + 'static>() {}
        assert_traits::<Minimizer>();
        assert_traits::<Session>();
    }
}
