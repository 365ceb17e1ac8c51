//! [`MinimizeHook`]: one [`AgentHook`] that minimizes every tool call of a rig agent.
//!
//! The hook sits on rig's dispatch boundary, so it sees every tool the agent can call: typed
//! [`Tool`](rig_core::tool::Tool)s, [`DynamicTool`](rig_core::tool::DynamicTool)s, MCP tools
//! bridged as dynamic tools, and tools a vector index retrieves per turn.
//!
//! For each tool call it
//! 1. finds the tool's definition: one registered with the hook, else the definition the agent
//!    advertised to the model provider in this run (the hook reads the completion requests it
//!    dispatches), else an empty schema, for which the minimizer uses conservative defaults;
//! 2. parses the model's arguments and runs the [`Minimizer`] with the run's [`Session`];
//! 3. forwards the minimized arguments (a patch of the dispatched effect), or skips the call with
//!    a model-visible reason from a fixed vocabulary when the arguments do not parse or the
//!    minimizer blocks the call. Raw arguments are never forwarded on a failure;
//! 4. reports the call to `tracing` and to the `on_report` callback ([`CallReport`]);
//! 5. optionally ([`MinimizeHook::feedback`]) appends a short, value-free note to the tool's
//!    result so the model can adapt.
//!
//! It also strips the minimizer's schema annotations from the tool definitions sent to the model
//! provider, unless [`MinimizeHook::advertise_annotations`] opts out.
//!
//! The model's original arguments stay in the conversation history the agent keeps (they are
//! part of the assistant's tool-call message); only the tool receives the minimized ones.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rig_agent::agent::{
    AgentHook, DispatchAction, DispatchEvent, HookContext, OutcomeAction, OutcomeEvent, RunStart,
};
use rig_agent::tool::ToolSet;
use rig_core::completion::{CompletionRequest, Message, ToolDefinition};
use rig_core::effect::{EffectId, EffectKind};
use rig_core::message::{ToolResultContent, UserContent};
use rig_core::tool::ToolOutput;
use serde_json::{Value, json};
use toolminimize_core::{Call, Exposure, MinimizeSchema, Minimizer, Session, ToolDef};

use crate::judge::LlmJudge;
use crate::report::{
    CallAction, CallReport, DefinitionSource, ReportCallback, Reporter, SkipReason,
};
use crate::schema;

/// An [`AgentHook`] that minimizes the arguments of every tool call before the tool runs.
///
/// ```
/// use rig_agent::AgentBuilder;
/// use rig_core::test_utils::MockCompletionModel;
/// use toolminimize_core::Minimizer;
/// use toolminimize_rig::MinimizeHook;
///
/// let model = MockCompletionModel::text("done");
/// let agent = AgentBuilder::new(model)
///     .add_hook(MinimizeHook::new(Minimizer::new()?))
///     .build();
/// # let _ = agent;
/// # Ok::<(), toolminimize_core::Error>(())
/// ```
#[derive(Clone)]
pub struct MinimizeHook {
    minimizer: Minimizer,
    registered: HashMap<String, Arc<ToolDef>>,
    learn_advertised: bool,
    advertise_annotations: bool,
    feedback: bool,
    task_context_from_prompt: bool,
    exposure: Option<Exposure>,
    session: Option<Session>,
    judge: Option<Arc<LlmJudge>>,
    reporter: Reporter,
}

impl fmt::Debug for MinimizeHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut tools: Vec<&str> = self.registered.keys().map(String::as_str).collect();
        tools.sort_unstable();
        f.debug_struct("MinimizeHook")
            .field("minimizer", &self.minimizer)
            .field("registered_tools", &tools)
            .field("learn_advertised", &self.learn_advertised)
            .field("advertise_annotations", &self.advertise_annotations)
            .field("feedback", &self.feedback)
            .field("task_context_from_prompt", &self.task_context_from_prompt)
            .field("exposure", &self.exposure)
            .field("session", &self.session)
            .field("judge", &self.judge.is_some())
            .field("reporter", &self.reporter)
            .finish()
    }
}

impl MinimizeHook {
    /// A hook with the defaults: definitions learned from what the agent advertises, annotations
    /// stripped from what the provider sees, no feedback note, one [`Session`] per run.
    pub fn new(minimizer: Minimizer) -> Self {
        MinimizeHook {
            minimizer,
            registered: HashMap::new(),
            learn_advertised: true,
            advertise_annotations: false,
            feedback: false,
            task_context_from_prompt: false,
            exposure: None,
            session: None,
            judge: None,
            reporter: Reporter::default(),
        }
    }

    /// Registers a tool definition; it takes precedence over what the agent advertises.
    #[must_use]
    pub fn tool_def(mut self, def: ToolDef) -> Self {
        self.registered.insert(def.name().to_owned(), Arc::new(def));
        self
    }

    /// Registers several tool definitions.
    #[must_use]
    pub fn tool_defs(mut self, defs: impl IntoIterator<Item = ToolDef>) -> Self {
        for def in defs {
            self = self.tool_def(def);
        }
        self
    }

    /// Registers a rig tool definition (`name`, `description`, `parameters`).
    #[must_use]
    pub fn definition(self, def: &ToolDefinition) -> Self {
        self.tool_def(to_tool_def(def))
    }

    /// Registers the definitions of every tool in a [`ToolSet`].
    #[must_use]
    pub fn toolset(mut self, tools: &ToolSet) -> Self {
        for def in tools.tool_definitions() {
            self = self.definition(&def);
        }
        self
    }

    /// Registers the annotated schema of a [`MinimizeSchema`] argument type for the tool `name`.
    #[must_use]
    pub fn schema_of<A: MinimizeSchema>(self, name: &str, description: &str) -> Self {
        self.tool_def(A::tool_def(name, description))
    }

    /// Whether to use the tool definitions the agent sends to the model provider when a tool is
    /// not registered (default `true`). Without them an unregistered tool is minimized against
    /// an empty schema.
    #[must_use]
    pub fn learn_advertised(mut self, on: bool) -> Self {
        self.learn_advertised = on;
        self
    }

    /// Whether the model provider may see the minimizer's schema annotations
    /// (`minimum_necessary`, `x-psd-category`, …). Default `false`: they are stripped from the
    /// tool definitions of every completion request.
    #[must_use]
    pub fn advertise_annotations(mut self, on: bool) -> Self {
        self.advertise_annotations = on;
        self
    }

    /// Whether to append a short, value-free note to the result of every call whose arguments
    /// were rewritten, telling the model what was removed or generalized and why (default
    /// `false`).
    #[must_use]
    pub fn feedback(mut self, on: bool) -> Self {
        self.feedback = on;
        self
    }

    /// Whether the text of the run's prompt counts as the user's own words for the task
    /// ([`Call::task_context`]): personal data the user asked to send is then kept. Default
    /// `false`. Enable it only when the prompt is written by the user, not assembled from
    /// untrusted content.
    #[must_use]
    pub fn task_context_from_prompt(mut self, on: bool) -> Self {
        self.task_context_from_prompt = on;
        self
    }

    /// The exposure of every call (the policy may override it). By default each tool's own
    /// `x-exposure`, else the policy's default.
    #[must_use]
    pub fn exposure(mut self, exposure: Exposure) -> Self {
        self.exposure = Some(exposure);
        self
    }

    /// Shares one session across every run of this hook (a conversation spanning several
    /// prompts). By default each run gets its own session.
    #[must_use]
    pub fn session(mut self, session: Session) -> Self {
        self.session = Some(session);
        self
    }

    /// Asks `judge` which spans of personal data in each free-text field the task needs
    /// ([`Minimizer::minimize_judged`]). Off by default. The judge sees the raw text: give it a
    /// model in the user's own trust domain. When it fails or times out, the rule-based
    /// decisions stand.
    #[must_use]
    pub fn judge(mut self, judge: LlmJudge) -> Self {
        self.judge = Some(Arc::new(judge));
        self
    }

    /// Calls `callback` with the report of every minimized call.
    #[must_use]
    pub fn on_report(mut self, callback: impl Fn(&CallReport<'_>) + Send + Sync + 'static) -> Self {
        let callback: ReportCallback = Arc::new(callback);
        self.reporter.set_callback(callback);
        self
    }

    /// The run's state, created on first use when the run started before this hook could see it.
    fn run_state(&self, ctx: &HookContext) -> RunState {
        if let Some(state) = ctx.scratchpad().get::<RunState>() {
            return state;
        }
        let state = self.new_run_state(ctx, None);
        ctx.scratchpad().insert(state.clone());
        state
    }

    fn new_run_state(&self, ctx: &HookContext, task: Option<String>) -> RunState {
        let session = self
            .session
            .clone()
            .unwrap_or_else(|| Session::new(format!("rig-run-{}", ctx.run_id().to_raw())));
        RunState(Arc::new(RunInner {
            session,
            task,
            learned: Mutex::new(HashMap::new()),
            notes: Mutex::new(HashMap::new()),
        }))
    }

    /// The definition to minimize `name` against, and where it came from.
    fn definition_for(&self, state: &RunState, name: &str) -> (Arc<ToolDef>, DefinitionSource) {
        if let Some(def) = self.registered.get(name) {
            return (def.clone(), DefinitionSource::Registered);
        }
        if self.learn_advertised
            && let Some(def) = lock(&state.0.learned).get(name)
        {
            return (def.clone(), DefinitionSource::Advertised);
        }
        (
            Arc::new(ToolDef::new(name, "", json!({}))),
            DefinitionSource::Unknown,
        )
    }

    fn on_completion(
        &self,
        ctx: &HookContext,
        request: &CompletionRequest,
        stream: bool,
    ) -> DispatchAction {
        if self.learn_advertised && !request.tools.is_empty() {
            let state = self.run_state(ctx);
            let mut learned = lock(&state.0.learned);
            for def in &request.tools {
                learned.insert(def.name.to_string(), Arc::new(to_tool_def(def)));
            }
        }
        if self.advertise_annotations
            || !request
                .tools
                .iter()
                .any(|def| schema::has_annotations(&def.parameters))
        {
            return DispatchAction::proceed();
        }
        let mut request = request.clone();
        for def in &mut request.tools {
            schema::strip_annotations(&mut def.parameters);
        }
        DispatchAction::patch(EffectKind::Completion { request, stream })
    }

    async fn on_tool_call(
        &self,
        ctx: &HookContext,
        event: &DispatchEvent<'_>,
        name: &str,
        args: &str,
    ) -> DispatchAction {
        let state = self.run_state(ctx);
        let (def, source) = self.definition_for(&state, name);
        let call_id = event.call_id.map(|id| id.wire());
        let call_id = call_id.as_deref();

        let Ok(parsed) = parse_arguments(args) else {
            let reason = SkipReason::UnparseableArguments;
            let report = toolminimize_core::Report::default();
            self.reporter.emit(&CallReport {
                tool: name,
                call_id,
                source,
                action: CallAction::Skipped(reason.clone()),
                report: &report,
            });
            return DispatchAction::skip(reason.model_message());
        };

        let mut call = Call::new(&def, &parsed).session(&state.0.session);
        if let Some(exposure) = self.exposure {
            call = call.exposure(exposure);
        }
        if let Some(task) = state.0.task.as_deref() {
            call = call.task_context(task);
        }
        let outcome = match &self.judge {
            Some(judge) => self.minimizer.minimize_judged(&call, judge.as_ref()).await,
            None => self.minimizer.minimize_call(&call),
        };
        let (verdict, outcome_report) = outcome.into_parts();
        match verdict.into_arguments() {
            Ok(minimized) => {
                let changed = minimized != parsed;
                let report = CallReport {
                    tool: name,
                    call_id,
                    source,
                    action: CallAction::Forwarded { changed },
                    report: &outcome_report,
                };
                self.reporter.emit(&report);
                if self.feedback
                    && let Some(note) = report.feedback_note()
                {
                    lock(&state.0.notes).insert(event.id, note);
                }
                if changed {
                    DispatchAction::rewrite_tool_args(event.kind, minimized)
                } else {
                    DispatchAction::proceed()
                }
            }
            Err(reason) => {
                let reason = SkipReason::Blocked(reason);
                self.reporter.emit(&CallReport {
                    tool: name,
                    call_id,
                    source,
                    action: CallAction::Skipped(reason.clone()),
                    report: &outcome_report,
                });
                DispatchAction::skip(reason.model_message())
            }
        }
    }
}

impl AgentHook for MinimizeHook {
    async fn on_run_start(
        &self,
        ctx: &HookContext,
        event: RunStart<'_>,
    ) -> rig_agent::agent::RunStartAction {
        let task = self
            .task_context_from_prompt
            .then(|| prompt_text(event.prompt));
        ctx.scratchpad().insert(self.new_run_state(ctx, task));
        rig_agent::agent::RunStartAction::continue_run()
    }

    async fn on_dispatch(&self, ctx: &HookContext, event: DispatchEvent<'_>) -> DispatchAction {
        match event.kind {
            EffectKind::Completion { request, stream } => self.on_completion(ctx, request, *stream),
            EffectKind::ToolCall { name, args } => self.on_tool_call(ctx, &event, name, args).await,
            _ => DispatchAction::proceed(),
        }
    }

    async fn on_outcome(&self, ctx: &HookContext, event: OutcomeEvent<'_>) -> OutcomeAction {
        if !self.feedback || event.tool_name().is_none() {
            return OutcomeAction::proceed();
        }
        let Some(state) = ctx.scratchpad().get::<RunState>() else {
            return OutcomeAction::proceed();
        };
        let Some(note) = lock(&state.0.notes).remove(&event.id) else {
            return OutcomeAction::proceed();
        };
        match event.tool_result() {
            Some(result) if !result.is_skipped() => {
                let output = with_note(result.output(), note);
                OutcomeAction::rewrite_tool_output(&event, output)
            }
            _ => OutcomeAction::proceed(),
        }
    }
}

/// Run-scoped state, kept in the run's scratchpad: clones share it.
#[derive(Clone)]
struct RunState(Arc<RunInner>);

struct RunInner {
    session: Session,
    task: Option<String>,
    learned: Mutex<HashMap<String, Arc<ToolDef>>>,
    notes: Mutex<HashMap<EffectId, String>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A poisoned lock only means another thread panicked mid-insert; the maps stay usable.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn to_tool_def(def: &ToolDefinition) -> ToolDef {
    ToolDef::new(
        def.name.to_string(),
        def.description.clone(),
        def.parameters.clone(),
    )
}

/// Parses the model's arguments. An empty string or `null` means "no arguments", as rig reads it.
fn parse_arguments(args: &str) -> Result<Value, serde_json::Error> {
    let trimmed = args.trim();
    if trimmed.is_empty() {
        return Ok(Value::Object(serde_json::Map::new()));
    }
    match serde_json::from_str(trimmed)? {
        Value::Null => Ok(Value::Object(serde_json::Map::new())),
        value => Ok(value),
    }
}

/// The plain text of a prompt message.
fn prompt_text(message: &Message) -> String {
    match message {
        Message::User { content } => content
            .iter()
            .filter_map(|part| match part {
                UserContent::Text(text) => Some(text.text.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Message::System { .. } | Message::Assistant(_) => String::new(),
    }
}

/// `output` with `note` appended as a last text block.
fn with_note(output: &ToolOutput, note: String) -> ToolOutput {
    let mut content = output.clone().into_content();
    content.push(ToolResultContent::text(note));
    // `content` holds at least the note, so this cannot fail; keep the output as it was if it did.
    ToolOutput::content(content).unwrap_or_else(|_| output.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_parse_like_rig_reads_them() {
        assert_eq!(parse_arguments("").unwrap(), json!({}));
        assert_eq!(parse_arguments(" null ").unwrap(), json!({}));
        assert_eq!(parse_arguments(r#"{"a":1}"#).unwrap(), json!({"a": 1}));
        assert!(parse_arguments(r#"{"a":"#).is_err());
    }

    #[test]
    fn note_is_appended_as_a_text_block() {
        let out = with_note(&ToolOutput::json(json!({"ok": true})), "note".to_owned());
        let content = out.as_content();
        assert_eq!(content.len(), 2);
        assert!(matches!(content.get(1), Some(ToolResultContent::Text(t)) if t.text == "note"));
    }

    #[test]
    fn prompt_text_reads_user_text_only() {
        let msg = Message::User {
            content: vec![
                UserContent::text("Book for me"),
                UserContent::text("tomorrow"),
            ],
        };
        assert_eq!(prompt_text(&msg), "Book for me\ntomorrow");
        assert_eq!(
            prompt_text(&Message::System {
                content: "x".into()
            }),
            ""
        );
    }

    #[test]
    fn debug_lists_tool_names_only() {
        let hook = MinimizeHook::new(Minimizer::new().unwrap())
            .tool_def(ToolDef::new("b", "", json!({})))
            .tool_def(ToolDef::new("a", "", json!({})));
        let dbg = format!("{hook:?}");
        assert!(dbg.contains(r#"registered_tools: ["a", "b"]"#), "{dbg}");
    }
}
