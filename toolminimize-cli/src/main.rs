//! The `toolminimize` command: minimize or audit JSONL streams of tool calls, or sit in front
//! of an MCP server as a minimizing proxy (stdio or Streamable HTTP).
#![forbid(unsafe_code)]

mod audit;
mod audit_html;
mod hook;
mod input;
mod mcp_proxy;
mod minimize;
mod options;
mod schema_cache;
mod session_store;

#[cfg(test)]
mod fuzz;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The process allocator (see the `mimalloc` feature).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Rewrites LLM tool-call arguments down to the minimum data each tool needs.
#[derive(Debug, Parser)]
#[command(name = "toolminimize", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Minimize a JSONL stream of tool calls (one `{"id", "tool", "arguments", "exposure"?,
    /// "session"?, "task_context"?}` object per line) and print one result line per input
    /// line, in order: `{"id", "arguments", "report"}`, or `{"id", "line", "error"}`.
    Minimize(minimize::Args),
    /// Report what a JSONL stream of tool calls over-shares, without rewriting anything.
    Audit(audit::Args),
    /// Run an MCP server behind a proxy that minimizes every tools/call: a stdio server
    /// (a command after `--`) or a remote one (--upstream-url), for a stdio host or for hosts
    /// that connect by URL (--listen).
    McpProxy(Box<mcp_proxy::Args>),
    /// A PreToolUse hook for coding agents (Claude Code and CLIs that copy its hook format):
    /// reads the hook's JSON on stdin, answers with the minimized input (`updatedInput`), a
    /// deny, or nothing when nothing needs to change.
    Hook(hook::Args),
    /// Manage the schema cache the hook reads MCP tool schemas from.
    Schemas(schema_cache::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Minimize(a) => minimize::run(&a),
        Command::Audit(a) => audit::run(&a),
        Command::McpProxy(a) => mcp_proxy::run(*a),
        Command::Hook(a) => hook::run(&a),
        Command::Schemas(a) => schema_cache::run(&a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("toolminimize: {e}");
            ExitCode::from(2)
        }
    }
}
