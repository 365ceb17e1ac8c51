//! An optional content-necessity judge: asks a model, in the user's own trust domain, which
//! spans of a free-text field the task needs, and overrides the rule-based decisions for those
//! spans. Never on by default; any error or timeout keeps the rule-based decisions.
//!
//! The judge sees the field's text (it runs where the user's data already is, e.g. the
//! agent's own model) but its answer carries only indices.
//!
//! See [`ContentJudge`] for an example.

use std::fmt;
use std::future::Future;

use serde::{Deserialize, Serialize};

use crate::taxonomy::Category;

/// One span the judge decides on.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct JudgeCandidate {
    /// The candidate's index, used in the answer.
    pub index: usize,
    /// Taxonomy category.
    pub category: Category,
    /// The finer kind (`condition`, `person_name`, …).
    pub kind: String,
    /// Byte span in `text`.
    pub span: [usize; 2],
    /// What the rules decided.
    pub rule_says_needed: bool,
}

impl JudgeCandidate {
    /// A candidate: its index (echoed in the answer), category, kind name, byte span in the
    /// field's text and what the rules decided.
    pub fn new(
        index: usize,
        category: Category,
        kind: impl Into<String>,
        span: [usize; 2],
        rule_says_needed: bool,
    ) -> Self {
        JudgeCandidate {
            index,
            category,
            kind: kind.into(),
            span,
            rule_says_needed,
        }
    }
}

/// One free-text field to judge.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct JudgeRequest {
    /// The tool's name.
    pub tool: String,
    /// The tool's description.
    pub tool_description: String,
    /// JSON pointer of the field.
    pub path: String,
    /// The field's text.
    pub text: String,
    /// The user's own words, when known.
    pub task_context: Option<String>,
    /// The spans to decide.
    pub candidates: Vec<JudgeCandidate>,
}

impl JudgeRequest {
    /// A request about the field at `path` (a JSON pointer) of a call to `tool`, with the
    /// field's text and the candidate spans in it.
    pub fn new(
        tool: impl Into<String>,
        tool_description: impl Into<String>,
        path: impl Into<String>,
        text: impl Into<String>,
        candidates: Vec<JudgeCandidate>,
    ) -> Self {
        JudgeRequest {
            tool: tool.into(),
            tool_description: tool_description.into(),
            path: path.into(),
            text: text.into(),
            task_context: None,
            candidates,
        }
    }

    /// Adds the user's own words.
    #[must_use]
    pub fn with_task_context(mut self, task_context: impl Into<String>) -> Self {
        self.task_context = Some(task_context.into());
        self
    }
}

/// The judge's answer: the indices of the candidates the task needs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct JudgeAnswer {
    /// Candidates the task needs; every other candidate is unnecessary.
    pub needed: Vec<usize>,
}

impl JudgeAnswer {
    /// The answer that the candidates with these indices are needed, and no other.
    pub fn needed(indices: impl IntoIterator<Item = usize>) -> Self {
        JudgeAnswer {
            needed: indices.into_iter().collect(),
        }
    }
}

/// Why a judge gave no answer. The pipeline then keeps the rule-based decisions.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum JudgeError {
    /// No answer in time.
    Timeout,
    /// The answer was not the strict JSON asked for.
    Malformed(String),
    /// The model or its transport failed.
    Backend(String),
}

impl fmt::Display for JudgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeError::Timeout => f.write_str("the judge did not answer in time"),
            JudgeError::Malformed(m) => write!(f, "the judge's answer was malformed: {m}"),
            JudgeError::Backend(m) => write!(f, "the judge failed: {m}"),
        }
    }
}

impl std::error::Error for JudgeError {}

/// Decides which spans of a free-text field the task needs; passed to
/// [`Minimizer::minimize_judged`](crate::Minimizer::minimize_judged).
///
/// ```
/// use std::future::Future;
/// use serde_json::json;
/// use toolminimize_core::{Call, ContentJudge, JudgeAnswer, JudgeError, JudgeRequest, Minimizer, ToolDef};
///
/// /// Keeps every candidate of the field's first clause (a stand-in for a model).
/// #[derive(Debug)]
/// struct FirstClause;
/// impl ContentJudge for FirstClause {
///     async fn judge(&self, req: &JudgeRequest) -> Result<JudgeAnswer, JudgeError> {
///         let end = req.text.find(['.', ',']).unwrap_or(req.text.len());
///         Ok(JudgeAnswer::needed(req.candidates.iter().filter(|c| c.span[0] < end).map(|c| c.index)))
///     }
/// }
///
/// let minimizer = Minimizer::new()?;
/// let tool = ToolDef::new("create_ticket", "Open a support ticket", json!({
///     "type": "object",
///     "properties": {"description": {"type": "string"}},
///     "required": ["description"]
/// }));
/// let args = json!({"description": "The app crashes on login. My therapist says I should rest."});
/// let call = Call::new(&tool, &args);
/// // Any async runtime drives the judged call; this judge never waits, so one poll does.
/// let mut judged = std::pin::pin!(minimizer.minimize_judged(&call, &FirstClause));
/// let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// let std::task::Poll::Ready(outcome) = judged.as_mut().poll(&mut cx) else { unreachable!() };
/// let sent = outcome.arguments().unwrap()["description"].as_str().unwrap();
/// assert!(sent.starts_with("The app crashes on login.") && !sent.contains("therapist"));
/// # Ok::<(), toolminimize_core::Error>(())
/// ```
pub trait ContentJudge: Send + Sync {
    /// Judges one field.
    fn judge(
        &self,
        request: &JudgeRequest,
    ) -> impl Future<Output = Result<JudgeAnswer, JudgeError>> + Send;
}
