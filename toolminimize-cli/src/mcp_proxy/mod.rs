//! `toolminimize mcp-proxy`: a stdio proxy in front of an MCP server that minimizes the
//! arguments of every `tools/call`.

use std::process::ExitCode;

use clap::Args as ClapArgs;

/// `mcp-proxy` options.
#[derive(Debug, ClapArgs)]
pub(crate) struct Args {
    /// The MCP server command and its arguments, after `--`.
    #[arg(last = true, required = true, value_name = "SERVER")]
    server: Vec<String>,
}

pub(crate) fn run(args: Args) -> Result<ExitCode, String> {
    let _ = args.server;
    Err("mcp-proxy is not available yet".into())
}
