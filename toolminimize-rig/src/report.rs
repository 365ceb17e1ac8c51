//! What the hook and the wrappers tell the application, the log and the model about a call.
//!
//! Every call that goes through minimization produces one [`CallReport`]. It is handed to the
//! callback registered with `on_report` and emitted as `tracing` events under the target
//! `toolminimize_rig`: one `INFO` event per call, one `DEBUG` event per PSD item. Neither ever
//! holds an argument value: tool names, JSON pointers, categories, kinds, actions and costs only.
//!
//! ```
//! use toolminimize_core::Report;
//! use toolminimize_rig::{CallAction, CallReport, DefinitionSource};
//!
//! let report = Report::default();
//! let call = CallReport {
//!     tool: "get_forecast",
//!     call_id: Some("call_1"),
//!     source: DefinitionSource::Advertised,
//!     action: CallAction::Forwarded { changed: false },
//!     report: &report,
//! };
//! assert!(!call.is_skipped());
//! assert_eq!(call.feedback_note(), None);
//! ```

use std::fmt;
use std::sync::Arc;

use toolminimize_core::{Action, BlockReason, Report};

/// Where the definition the call was minimized against came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DefinitionSource {
    /// Registered with the hook by the application (`tool_def`, `toolset`, `schema_of`).
    Registered,
    /// Taken from the tool definitions the agent sent to the model provider in this run.
    Advertised,
    /// No definition was known: minimized against an empty schema (conservative defaults).
    Unknown,
    /// The wrapped tool's own definition (per-tool wrappers).
    Wrapped,
}

impl DefinitionSource {
    /// The stable id.
    pub const fn id(self) -> &'static str {
        match self {
            DefinitionSource::Registered => "registered",
            DefinitionSource::Advertised => "advertised",
            DefinitionSource::Unknown => "unknown",
            DefinitionSource::Wrapped => "wrapped",
        }
    }
}

/// Why a call was not sent to its tool. The model sees [`SkipReason::model_message`]; every
/// message comes from a fixed vocabulary and never holds a value.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SkipReason {
    /// The arguments the model produced are not valid JSON, so they cannot be minimized.
    UnparseableArguments,
    /// The minimized arguments no longer deserialize into the tool's argument type.
    ArgumentTypeMismatch,
    /// The minimizer blocked the call.
    Blocked(BlockReason),
}

impl SkipReason {
    /// The stable id.
    pub fn id(&self) -> &'static str {
        match self {
            SkipReason::UnparseableArguments => "unparseable_arguments",
            SkipReason::ArgumentTypeMismatch => "argument_type_mismatch",
            SkipReason::Blocked(reason) => reason.id(),
        }
    }

    /// What the model is told instead of the tool's answer.
    pub fn model_message(&self) -> String {
        match self {
            SkipReason::UnparseableArguments => {
                "The call was not sent: its arguments are not valid JSON. Retry with a JSON object \
                 that matches the tool's parameters."
                    .to_owned()
            }
            SkipReason::ArgumentTypeMismatch => {
                "The call was not sent: its arguments, without the data the tool does not need, \
                 do not fit the tool's parameters."
                    .to_owned()
            }
            SkipReason::Blocked(reason) => format!("The call was not sent: {reason}."),
        }
    }
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipReason::UnparseableArguments => f.write_str("the arguments are not valid JSON"),
            SkipReason::ArgumentTypeMismatch => {
                f.write_str("the minimized arguments do not fit the tool's argument type")
            }
            SkipReason::Blocked(reason) => reason.fmt(f),
        }
    }
}

/// What happened to the call.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CallAction {
    /// The call went to the tool, with rewritten arguments when `changed`.
    Forwarded {
        /// Whether the arguments the tool received differ from the model's.
        changed: bool,
    },
    /// The call was not sent; the model sees the reason as the call's result.
    Skipped(SkipReason),
}

/// The report of one tool call: what was found, what was done and what the tool received.
#[derive(Debug, Clone)]
pub struct CallReport<'a> {
    /// The tool's name.
    pub tool: &'a str,
    /// The provider's call id, when the call came from an agent run.
    pub call_id: Option<&'a str>,
    /// Where the tool definition came from.
    pub source: DefinitionSource,
    /// Forwarded or skipped.
    pub action: CallAction,
    /// The minimizer's report (paths, categories, actions, costs; no values).
    pub report: &'a Report,
}

impl CallReport<'_> {
    /// Whether the call was not sent.
    pub fn is_skipped(&self) -> bool {
        matches!(self.action, CallAction::Skipped(_))
    }

    /// A short, value-free note for the model on what was generalized, substituted, truncated or
    /// removed and why, so it can adapt its next calls. `None` when nothing changed.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolminimize_core::{Minimizer, ToolDef};
    /// use toolminimize_rig::{CallAction, CallReport, DefinitionSource};
    ///
    /// let tool = ToolDef::new("lookup_patient", "Look up a patient's appointments", json!({
    ///     "type": "object",
    ///     "properties": {"name": {"type": "string"}, "ssn": {"type": "string"}},
    ///     "required": ["name"]
    /// }));
    /// let outcome = Minimizer::new()?.minimize(&tool, &json!({"name": "Dana Reyes", "ssn": "078-05-1120"}));
    /// let report = outcome.report();
    /// let call = CallReport { tool: "lookup_patient", call_id: None, source: DefinitionSource::Registered,
    ///     action: CallAction::Forwarded { changed: true }, report };
    /// let note = call.feedback_note().unwrap();
    /// assert!(note.contains("removed /ssn (identity: ssn)"), "{note}");
    /// # Ok::<(), toolminimize_core::Error>(())
    /// ```
    pub fn feedback_note(&self) -> Option<String> {
        if !matches!(self.action, CallAction::Forwarded { changed: true }) {
            return None;
        }
        let mut parts: Vec<String> = Vec::new();
        for action in [
            Action::Remove,
            Action::Generalize,
            Action::Substitute,
            Action::Truncate,
        ] {
            // One entry per field, its kinds grouped: `/notes (identity: email, phone)`.
            let mut fields: Vec<(&str, Vec<String>)> = Vec::new();
            for item in self
                .report
                .items()
                .iter()
                .filter(|item| item.action() == action)
            {
                let path = if item.path().is_empty() {
                    "/"
                } else {
                    item.path()
                };
                let what = format!("{}: {}", item.category().id(), item.kind());
                match fields.iter_mut().find(|(p, _)| *p == path) {
                    Some((_, kinds)) if !kinds.contains(&what) => kinds.push(what),
                    Some(_) => {}
                    None => fields.push((path, vec![what])),
                }
            }
            let fields: Vec<String> = fields
                .into_iter()
                .map(|(path, kinds)| format!("{path} ({})", kinds.join(", ")))
                .collect();
            if !fields.is_empty() {
                parts.push(format!("{} {}", past_tense(action), fields.join(", ")));
            }
        }
        if parts.is_empty() {
            parts.push("rewrote the arguments".to_owned());
        }
        Some(format!(
            "[privacy] Before this call reached the tool, the minimizer {} because the tool does \
             not need that data for this task. Do not send it again unless the user asks for it.",
            parts.join("; ")
        ))
    }
}

fn past_tense(action: Action) -> &'static str {
    match action {
        Action::Keep => "kept",
        Action::Remove => "removed",
        Action::Generalize => "generalized",
        Action::Substitute => "substituted",
        Action::Truncate => "truncated",
        _ => "rewrote",
    }
}

/// The callback type that receives every [`CallReport`].
pub type ReportCallback = Arc<dyn Fn(&CallReport<'_>) + Send + Sync>;

/// Emits a call report to `tracing` and to the application's callback.
#[derive(Clone, Default)]
pub(crate) struct Reporter {
    callback: Option<ReportCallback>,
}

impl fmt::Debug for Reporter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Reporter")
            .field("callback", &self.callback.is_some())
            .finish()
    }
}

impl Reporter {
    pub(crate) fn set_callback(&mut self, callback: ReportCallback) {
        self.callback = Some(callback);
    }

    pub(crate) fn emit(&self, call: &CallReport<'_>) {
        trace(call);
        if let Some(callback) = &self.callback {
            callback(call);
        }
    }
}

fn trace(call: &CallReport<'_>) {
    let (action, skip_reason, changed) = match &call.action {
        CallAction::Forwarded { changed } => ("forwarded", "", *changed),
        CallAction::Skipped(reason) => ("skipped", reason.id(), false),
    };
    tracing::info!(
        target: "toolminimize_rig",
        tool = call.tool,
        call_id = call.call_id.unwrap_or(""),
        definition = call.source.id(),
        action,
        skip_reason,
        changed,
        items = call.report.items().len(),
        cost_before = call.report.cost_before(),
        cost_after = call.report.cost_after(),
        "tool call minimized"
    );
    for item in call.report.items() {
        tracing::debug!(
            target: "toolminimize_rig",
            tool = call.tool,
            path = item.path(),
            category = item.category().id(),
            kind = %item.kind(),
            sensitivity = u8::from(item.sensitivity()),
            necessary = item.necessary(),
            action = item.action().id(),
            rule = item.rule().id(),
            "psd item"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolminimize_core::{Category, ItemReport};

    /// A report item as a report line states it.
    fn item(path: &str, category: Category, kind: &str, action: Action) -> ItemReport {
        serde_json::from_value(serde_json::json!({
            "path": path,
            "category": category,
            "sensitivity": 3,
            "necessary": action == Action::Keep,
            "action": action,
            "kind": kind,
            "detector": "test",
            "rule": "schema:optional-field",
            "confidence": 1.0,
        }))
        .unwrap()
    }

    fn report_of(items: Vec<ItemReport>) -> Report {
        serde_json::from_value(serde_json::json!({
            "cost_before": 0.0,
            "cost_after": 0.0,
            "items": items,
        }))
        .unwrap()
    }

    fn note(report: &Report, action: CallAction) -> Option<String> {
        CallReport {
            tool: "t",
            call_id: None,
            source: DefinitionSource::Wrapped,
            action,
            report,
        }
        .feedback_note()
    }

    #[test]
    fn note_groups_kinds_per_field_and_skips_kept_items() {
        let report = report_of(vec![
            item(
                "/notes",
                Category::Identity,
                "medical_record",
                Action::Remove,
            ),
            item("/notes", Category::Identity, "ssn", Action::Remove),
            item("/notes", Category::Identity, "ssn", Action::Remove),
            item("/ssn", Category::Identity, "ssn", Action::Remove),
            item(
                "/address",
                Category::Location,
                "street_address",
                Action::Generalize,
            ),
            item("/name", Category::Identity, "person_name", Action::Keep),
        ]);
        let text = note(&report, CallAction::Forwarded { changed: true }).unwrap();
        assert!(
            text.contains(
                "removed /notes (identity: medical_record, identity: ssn), /ssn (identity: ssn); \
                 generalized /address (location: street_address)"
            ),
            "{text}"
        );
        assert!(!text.contains("/name"));
    }

    #[test]
    fn no_note_when_nothing_changed_or_the_call_was_skipped() {
        let report = Report::default();
        assert_eq!(
            note(&report, CallAction::Forwarded { changed: false }),
            None
        );
        assert_eq!(
            note(
                &report,
                CallAction::Skipped(SkipReason::UnparseableArguments)
            ),
            None
        );
        // A change the report does not itemize still gets a generic note.
        assert!(
            note(&report, CallAction::Forwarded { changed: true })
                .unwrap()
                .contains("rewrote the arguments")
        );
    }

    #[test]
    fn skip_messages_are_fixed_and_value_free() {
        for reason in [
            SkipReason::UnparseableArguments,
            SkipReason::ArgumentTypeMismatch,
            SkipReason::Blocked(BlockReason::ToolBlocked),
            SkipReason::Blocked(BlockReason::CostAboveLimit),
            SkipReason::Blocked(BlockReason::Internal("arguments nested too deeply")),
        ] {
            assert!(reason.model_message().starts_with("The call was not sent"));
            assert!(!reason.id().is_empty());
        }
    }
}
