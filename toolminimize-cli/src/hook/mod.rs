//! `toolminimize hook`: a `PreToolUse` command hook for coding agents (Claude Code and the CLIs
//! that copy its hook format).
//!
//! The agent runs the command before each tool call it matches, with one JSON object on
//! standard input (`session_id`, `cwd`, `hook_event_name`, `tool_name`, `tool_input`,
//! `tool_use_id`, …). The hook minimizes `tool_input` and answers as the hooks reference
//! (<https://code.claude.com/docs/en/hooks>, "PreToolUse decision control", "Exit code
//! output") documents:
//!
//! | outcome | stdout | exit |
//! |---|---|---|
//! | something was removed or generalized | `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "permissionDecisionReason": "…", "updatedInput": {…the whole input…}}}` | 0 |
//! | nothing to change, a reported-only or local tool | nothing (the normal permission flow goes on) | 0 |
//! | the policy blocks the call | `{"hookSpecificOutput": {…, "permissionDecision": "deny", "permissionDecisionReason": "…"}}` | 0 |
//! | the input is not a hook payload, or the hook cannot run (say, an unreadable policy) | nothing; one line on stderr (a non-blocking error: the call proceeds) | 1 |
//! | … with `--on-error block` | nothing; the reason on stderr (blocks the call) | 2 |
//!
//! `updatedInput` replaces the whole input object, so it always carries every field, changed or
//! not. Reasons and stderr lines name tools, paths, categories and counts, never a value.

mod profiles;

use std::fs::OpenOptions;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::SystemTime;

use clap::{Args as ClapArgs, ValueEnum};
use serde_json::{Map, Value, json};
use toolminimize_core::{
    Action, Call, Category, Exposure, Minimizer, Report, Session, ToolDef, Verdict,
};

use crate::options::PolicyArgs;
use crate::schema_cache::{self, SchemaCache};
use crate::session_store::{self, SessionStore};
use profiles::{Treatment, builtin, schema_from_arguments};

/// Largest hook payload read from standard input.
const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// What to do with tools that write files or run commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum WriteTools {
    /// Report what their input carries (stderr, audit log); never rewrite it.
    Report,
    /// Minimize them like any other tool.
    Minimize,
}

/// What to do with a tool that is neither built in nor an MCP tool (`mcp__server__tool`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum UnknownTools {
    /// Report only.
    Report,
    /// Minimize spans inside free text; no field is dropped.
    Minimize,
}

/// The decision that goes with a rewritten input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum RewriteDecision {
    /// `allow`: the rewritten call runs without a permission prompt (deny and ask rules in the
    /// agent's settings still apply).
    Allow,
    /// `ask`: the user is shown the rewritten input and confirms it.
    Ask,
}

/// What to do when standard input is not a hook payload or the hook cannot run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum OnError {
    /// A non-blocking error (exit 1): the agent goes on with the call unchanged.
    Pass,
    /// A blocking error (exit 2): the agent does not make the call.
    Block,
}

/// `hook` options.
#[derive(Debug, ClapArgs)]
pub(crate) struct Args {
    #[command(flatten)]
    policy: PolicyArgs,
    /// Tools that write files or run commands (Write, Edit, MultiEdit, NotebookEdit, Bash,
    /// PowerShell): report what their input carries, or minimize it.
    #[arg(long, value_enum, value_name = "MODE", default_value_t = WriteTools::Report)]
    write_tools: WriteTools,
    /// Tools that are neither built in nor MCP tools: report only, or minimize spans inside
    /// their free text (no field dropped).
    #[arg(long, value_enum, value_name = "MODE", default_value_t = UnknownTools::Report)]
    unknown_tools: UnknownTools,
    /// The permission decision sent with a rewritten input: `allow` (no prompt; the agent's
    /// deny and ask rules still apply) or `ask` (the user confirms the rewritten input).
    #[arg(long, value_enum, value_name = "DECISION", default_value_t = RewriteDecision::Allow)]
    rewrite_decision: RewriteDecision,
    /// When standard input is not a hook payload or the hook cannot run (an unreadable policy
    /// file, …): `pass` (non-blocking error, exit 1) or `block` (blocking error, exit 2).
    #[arg(long, value_enum, value_name = "MODE", default_value_t = OnError::Pass)]
    on_error: OnError,
    /// Schema cache directory for MCP tools (default: $TOOLMINIMIZE_SCHEMA_CACHE, else
    /// $XDG_CACHE_HOME/toolminimize/schemas).
    #[arg(long, value_name = "DIR")]
    schema_cache: Option<PathBuf>,
    /// Session store file, carrying each conversation's linkability state between hook calls
    /// (default: $TOOLMINIMIZE_SESSION_STORE, else
    /// $XDG_STATE_HOME/toolminimize/hook-sessions.json).
    #[arg(long, value_name = "FILE", conflicts_with = "no_session_store")]
    session_store: Option<PathBuf>,
    /// Keep no state between hook calls.
    #[arg(long)]
    no_session_store: bool,
    /// Append one JSON line per hook call to FILE: time, tool, treatment, decision, paths,
    /// categories, actions, cost before and after. Never a value.
    #[arg(long, value_name = "FILE")]
    audit_log: Option<PathBuf>,
    /// Also print a one-line summary of each call to standard error.
    #[arg(long)]
    verbose: bool,
}

/// A hook payload that could not be used, with a message that quotes none of it.
#[derive(Debug)]
struct BadInput(String);

/// The fields of a `PreToolUse` payload the hook uses.
#[derive(Debug)]
struct Payload {
    event: Option<String>,
    tool_name: String,
    tool_input: Value,
    session_id: Option<String>,
}

fn parse_payload(bytes: &[u8]) -> Result<Payload, BadInput> {
    if !toolminimize_core::json_values_at_most(bytes, toolminimize_core::MAX_VALUES) {
        return Err(BadInput(format!(
            "the hook input holds more than {} JSON values",
            toolminimize_core::MAX_VALUES
        )));
    }
    let v: Value = serde_json::from_slice(bytes).map_err(|e| {
        BadInput(format!(
            "the hook input is not valid JSON ({} at line {} column {})",
            match e.classify() {
                serde_json::error::Category::Eof => "unexpected end",
                serde_json::error::Category::Io => "read error",
                _ => "syntax error",
            },
            e.line(),
            e.column()
        ))
    })?;
    let Value::Object(mut o) = v else {
        return Err(BadInput("the hook input is not a JSON object".into()));
    };
    let text =
        |o: &Map<String, Value>, k: &str| o.get(k).and_then(Value::as_str).map(str::to_owned);
    let event = text(&o, "hook_event_name");
    let session_id = text(&o, "session_id").filter(|s| !s.is_empty());
    let tool_name = text(&o, "tool_name")
        .filter(|s| !s.is_empty())
        .ok_or_else(|| BadInput("the hook input has no `tool_name` string".into()))?;
    let tool_input = match o.remove("tool_input") {
        Some(v @ Value::Object(_)) => v,
        Some(_) => return Err(BadInput("`tool_input` is not a JSON object".into())),
        None if event.as_deref().is_some_and(|e| e != "PreToolUse") => Value::Null,
        None => return Err(BadInput("the hook input has no `tool_input`".into())),
    };
    Ok(Payload {
        event,
        tool_name,
        tool_input,
        session_id,
    })
}

/// How the hook answers.
#[derive(Debug, PartialEq)]
enum Answer {
    /// Exit 0, no output.
    Proceed,
    /// Exit 0 with this JSON on stdout.
    Json(Value),
}

/// How one tool is handled.
struct Plan {
    def: ToolDef,
    exposure: Option<Exposure>,
    treatment: Treatment,
    /// Whether the schema is the tool's own (built in or cached) rather than made up.
    known_schema: bool,
}

pub(crate) fn run(args: &Args) -> Result<ExitCode, String> {
    let mut input = Vec::new();
    if let Err(e) = io::stdin()
        .lock()
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut input)
    {
        return Ok(bad_input(
            args,
            &BadInput(format!("cannot read standard input: {e}")),
        ));
    }
    if input.len() as u64 > MAX_INPUT_BYTES {
        return Ok(bad_input(
            args,
            &BadInput(format!(
                "the hook input is longer than {MAX_INPUT_BYTES} bytes"
            )),
        ));
    }
    let payload = match parse_payload(&input) {
        Ok(p) => p,
        Err(e) => return Ok(bad_input(args, &e)),
    };
    drop(input);
    // A hook that cannot do its work (an unreadable policy file, …) follows --on-error too.
    let answer = match answer(args, &payload) {
        Ok(a) => a,
        Err(e) => return Ok(bad_input(args, &BadInput(e))),
    };
    if let Answer::Json(v) = answer {
        let mut out = io::stdout().lock();
        serde_json::to_writer(&mut out, &v)
            .map_err(io::Error::from)
            .and_then(|()| out.write_all(b"\n"))
            .and_then(|()| out.flush())
            .map_err(|e| format!("writing output: {e}"))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn bad_input(args: &Args, e: &BadInput) -> ExitCode {
    match args.on_error {
        OnError::Pass => {
            eprintln!("toolminimize hook: {}; the call goes on unchanged", e.0);
            ExitCode::from(1)
        }
        OnError::Block => {
            eprintln!("toolminimize hook: {}; the call is blocked", e.0);
            ExitCode::from(2)
        }
    }
}

fn plan_for(args: &Args, payload: &Payload) -> Result<Plan, String> {
    let name = payload.tool_name.as_str();
    if let Some(p) = builtin(name) {
        let treatment = match p.treatment {
            Treatment::ReportOnly if args.write_tools == WriteTools::Minimize => {
                Treatment::Minimize
            }
            t => t,
        };
        return Ok(Plan {
            def: p.def,
            exposure: Some(p.exposure),
            treatment,
            known_schema: true,
        });
    }
    if let Some(rest) = name.strip_prefix("mcp__") {
        let cached = match schema_cache::resolve_dir(args.schema_cache.as_deref()) {
            Ok(dir) => lookup_mcp(&SchemaCache::new(dir), rest),
            Err(_) => None,
        };
        if let Some(c) = cached {
            let exposure = c.listed_exposure();
            // The name the agent uses, so that policies name tools as the settings do.
            let def = ToolDef::new(name, c.def.description(), c.def.input_schema().clone());
            return Ok(Plan {
                def,
                exposure,
                treatment: Treatment::Minimize,
                known_schema: true,
            });
        }
        return Ok(Plan {
            def: ToolDef::new(name, "", schema_from_arguments(&payload.tool_input)),
            exposure: None,
            treatment: Treatment::Minimize,
            known_schema: false,
        });
    }
    Ok(Plan {
        def: ToolDef::new(name, "", schema_from_arguments(&payload.tool_input)),
        exposure: None,
        treatment: match args.unknown_tools {
            UnknownTools::Report => Treatment::ReportOnly,
            UnknownTools::Minimize => Treatment::Minimize,
        },
        known_schema: false,
    })
}

/// `server__tool` → the cached tool. A server name may itself hold `__`: every split is tried,
/// the first whose server has a cache file wins.
fn lookup_mcp(cache: &SchemaCache, rest: &str) -> Option<schema_cache::CachedTool> {
    let mut from = 0;
    while let Some(i) = rest
        .get(from..)
        .and_then(|s| s.find("__"))
        .map(|i| i + from)
    {
        let (server, tool) = (rest.get(..i)?, rest.get(i + 2..)?);
        if !server.is_empty() && !tool.is_empty() && cache.has_server(server) {
            return match cache.lookup(server, tool) {
                Ok(found) => found,
                Err(e) => {
                    eprintln!("toolminimize hook: schema cache: {e}");
                    None
                }
            };
        }
        from = i + 2;
    }
    None
}

fn answer(args: &Args, payload: &Payload) -> Result<Answer, String> {
    if payload.event.as_deref().is_some_and(|e| e != "PreToolUse") {
        // Registered on another event by mistake: stay out of the way.
        return Ok(Answer::Proceed);
    }
    let plan = plan_for(args, payload)?;
    if plan.treatment == Treatment::Pass {
        return Ok(Answer::Proceed);
    }
    let minimizer = args.policy.one_shot_minimizer()?;
    let tool_name = payload.tool_name.as_str();
    if plan.treatment == Treatment::ReportOnly {
        let mut call = Call::new(&plan.def, &payload.tool_input);
        call.exposure = plan.exposure;
        let report = minimizer.audit(&call);
        if !report.items().is_empty() || args.verbose {
            eprintln!(
                "toolminimize hook: {tool_name}: {} (reported, not rewritten)",
                summary(&report)
            );
        }
        log(args, tool_name, &plan, "reported", &report);
        return Ok(Answer::Proceed);
    }
    let store = (!args.no_session_store)
        .then(|| session_store::resolve_path(args.session_store.as_deref()))
        .flatten()
        .map(SessionStore::new);
    let session = payload.session_id.as_deref().map(|id| {
        let s = Session::new(id);
        if let Some(store) = &store {
            s.restore_received(tool_name, &store.received(id, tool_name));
        }
        s
    });
    let outcome = {
        let mut call = Call::new(&plan.def, &payload.tool_input);
        call.exposure = plan.exposure;
        call.session = session.as_ref();
        minimize_guarded(&minimizer, &call)
    };
    if let (Some(store), Some(id), Some(s)) = (&store, payload.session_id.as_deref(), &session) {
        let kinds = s.received_kinds(tool_name);
        // Nothing identifying reached the tool: nothing to remember, no write.
        if !kinds.is_empty()
            && let Err(e) = store.record(id, tool_name, &kinds)
        {
            eprintln!("toolminimize hook: session store: {e}");
        }
    }
    let report = outcome.report();
    let answer = match outcome.arguments() {
        None => {
            let reason = outcome
                .block_reason()
                .map_or_else(String::new, ToString::to_string);
            log(args, tool_name, &plan, "denied", report);
            Answer::Json(json!({
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": format!("toolminimize: {reason}"),
                }
            }))
        }
        Some(arguments) if *arguments != payload.tool_input => {
            log(args, tool_name, &plan, "rewritten", report);
            let decision = match args.rewrite_decision {
                RewriteDecision::Allow => "allow",
                RewriteDecision::Ask => "ask",
            };
            Answer::Json(json!({
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": decision,
                    "permissionDecisionReason": format!("toolminimize: {}", summary(report)),
                    "updatedInput": arguments,
                }
            }))
        }
        Some(_) => {
            log(args, tool_name, &plan, "unchanged", report);
            Answer::Proceed
        }
    };
    if args.verbose {
        eprintln!(
            "toolminimize hook: {tool_name}: {}{}",
            summary(report),
            if plan.known_schema {
                ""
            } else {
                " (no schema known: spans only)"
            }
        );
    }
    Ok(answer)
}

/// Minimizes; a panic inside the pipeline (which should never happen) becomes a block, so the
/// hook never lets a call through unminimized because of a bug.
fn minimize_guarded(minimizer: &Minimizer, call: &Call<'_>) -> toolminimize_core::Outcome {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        minimizer.minimize_call(call)
    })) {
        Ok(o) => o,
        Err(_) => toolminimize_core::Outcome::new(
            Verdict::Block(toolminimize_core::BlockReason::Internal(
                "minimization failed",
            )),
            Report::default(),
        ),
    }
}

/// "2 item(s) rewritten (health, location); privacy cost 8 → 0" — counts and ids only.
fn summary(report: &Report) -> String {
    if report.items().is_empty() {
        return "no sensitive data found".into();
    }
    let changed = report
        .items()
        .iter()
        .filter(|i| i.action() != Action::Keep)
        .count();
    let mut cats: Vec<Category> = report.items().iter().map(|i| i.category()).collect();
    cats.sort();
    cats.dedup();
    let cats: Vec<&str> = cats.iter().map(|c| c.id()).collect();
    format!(
        "{} sensitive item(s) found ({}), {changed} removed or generalized; privacy cost {} → {}",
        report.items().len(),
        cats.join(", "),
        report.cost_before(),
        report.cost_after()
    )
}

fn log(args: &Args, tool: &str, plan: &Plan, decision: &str, report: &Report) {
    let Some(path) = &args.audit_log else {
        return;
    };
    let items: Vec<Value> = report
        .items()
        .iter()
        .map(|i| {
            json!({
                "path": i.path(), "category": i.category(), "sensitivity": i.sensitivity(),
                "necessary": i.necessary(), "action": i.action(), "kind": i.kind(), "rule": i.rule(),
            })
        })
        .collect();
    let record = json!({
        "time": humantime::format_rfc3339_millis(SystemTime::now()).to_string(),
        "event": "PreToolUse",
        "tool": tool,
        "schema": if plan.known_schema { "known" } else { "none" },
        "treatment": match plan.treatment {
            Treatment::Minimize => "minimize",
            Treatment::ReportOnly => "report",
            Treatment::Pass => "pass",
        },
        "decision": decision,
        "exposure": report.exposure(),
        "cost_before": report.cost_before(),
        "cost_after": report.cost_after(),
        "items": items,
    });
    let mut line = record.to_string();
    line.push('\n');
    // One write of the whole line to a file opened for appending: concurrent hooks interleave
    // whole lines.
    let result = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(line.as_bytes()));
    if let Err(e) = result {
        eprintln!("toolminimize hook: audit log {}: {e}", path.display());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payload_errors_quote_nothing() {
        let e = parse_payload(
            br#"{"tool_name": "WebSearch", "tool_input": {"query": "Ana Lopez 555-0100""#,
        )
        .unwrap_err();
        assert!(e.0.contains("not valid JSON"), "{}", e.0);
        assert!(!e.0.contains("555"), "{}", e.0);
        let e = parse_payload(br#"{"tool_name": "WebSearch", "tool_input": "secret-ish"}"#)
            .unwrap_err();
        assert_eq!(e.0, "`tool_input` is not a JSON object");
        let e = parse_payload(b"[1]").unwrap_err();
        assert_eq!(e.0, "the hook input is not a JSON object");
        let p = parse_payload(br#"{"hook_event_name": "PostToolUse", "tool_name": "X"}"#).unwrap();
        assert_eq!(p.event.as_deref(), Some("PostToolUse"));
    }

    #[test]
    fn a_payload_of_too_many_values_is_refused_before_parsing() {
        let zeros = format!("[{}0]", "0,".repeat(toolminimize_core::MAX_VALUES));
        let payload = format!(r#"{{"tool_name": "X", "tool_input": {{"a": {zeros}}}}}"#);
        let e = parse_payload(payload.as_bytes()).unwrap_err();
        assert!(e.0.contains("more than"), "{}", e.0);
    }

    #[test]
    fn summary_names_categories_and_counts_only() {
        let r = Report::default();
        assert_eq!(summary(&r), "no sensitive data found");
    }
}
