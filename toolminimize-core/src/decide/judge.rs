//! An optional content-necessity judge: asks a model, in the user's own trust domain, which
//! spans of a free-text field the task needs, and overrides the rule-based decisions for those
//! spans. Never on by default; any error or timeout keeps the rule-based decisions.
//!
//! The judge sees the field's text (it runs where the user's data already is, e.g. the
//! agent's own model) but its answer carries only indices.
//!
//! ```
//! use toolminimize_core::decide::judge::{ContentJudge, JudgeAnswer, JudgeError, JudgeRequest};
//!
//! /// Keeps every candidate of the field's first clause (a stand-in for a model).
//! #[derive(Debug)]
//! struct FirstClause;
//! impl ContentJudge for FirstClause {
//!     async fn judge(&self, req: &JudgeRequest) -> Result<JudgeAnswer, JudgeError> {
//!         let end = req.text.find(['.', ',']).unwrap_or(req.text.len());
//!         Ok(JudgeAnswer { needed: req.candidates.iter().filter(|c| c.span[0] < end).map(|c| c.index).collect() })
//!     }
//! }
//! ```

use std::fmt;
use std::future::Future;

use serde::{Deserialize, Serialize};

use crate::taxonomy::Category;

/// One span the judge decides on.
#[derive(Debug, Clone, PartialEq, Serialize)]
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

/// One free-text field to judge.
#[derive(Debug, Clone, PartialEq, Serialize)]
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

/// The judge's answer: the indices of the candidates the task needs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct JudgeAnswer {
    /// Candidates the task needs; every other candidate is unnecessary.
    pub needed: Vec<usize>,
}

/// Why a judge gave no answer. The pipeline then keeps the rule-based decisions.
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// Decides which spans of a free-text field the task needs.
pub trait ContentJudge: Send + Sync {
    /// Judges one field.
    fn judge(
        &self,
        request: &JudgeRequest,
    ) -> impl Future<Output = Result<JudgeAnswer, JudgeError>> + Send;
}
