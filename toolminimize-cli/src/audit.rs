//! `toolminimize audit`: what a stream of calls over-shares, without rewriting.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;

use crate::options::PolicyArgs;

/// `audit` options.
#[derive(Debug, ClapArgs)]
pub(crate) struct Args {
    /// Input JSONL file; standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    policy: PolicyArgs,
}

pub(crate) fn run(args: &Args) -> Result<ExitCode, String> {
    let _ = (&args.input, args.json, args.policy.minimizer()?);
    Err("audit is not available yet".into())
}
