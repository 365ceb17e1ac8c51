//! `toolminimize minimize`: the JSONL contract (one call a line in, one result a line out).
//!
//! One output line per non-blank input line, in order: the rewritten arguments and the report,
//! `"blocked": true` with a reason when the policy blocks the call, or an error object for a
//! line that is not a call. The exit status is non-zero only when reading or writing fails.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use serde_json::{Map, Value};
use toolminimize_core::Verdict;

use crate::input::{self, LineError, Minimized, Record, Stream};
use crate::options::PolicyArgs;

/// `minimize` options.
#[derive(Debug, ClapArgs)]
pub(crate) struct Args {
    /// Input JSONL file, one call per line:
    /// {"id", "tool": {"name", "description", "inputSchema"}, "arguments", "exposure"?,
    /// "session"?, "task_context"?}. Standard input when absent or `-`. Blank lines are skipped.
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
    #[command(flatten)]
    policy: PolicyArgs,
}

pub(crate) fn run(args: &Args) -> Result<ExitCode, String> {
    let minimizer = args.policy.minimizer()?;
    let (reader, _) = input::open(args.input.as_deref())?;
    let mut stream = Stream::new(reader);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    while let Some(record) = stream
        .next_record(&minimizer)
        .map_err(|e| format!("reading input: {e}"))?
    {
        let value = match record {
            Record::Call(m) => call_record(*m),
            Record::Bad(e) => error_record(e),
        };
        write_line(&mut out, &value).map_err(|e| format!("writing output: {e}"))?;
    }
    out.flush().map_err(|e| format!("writing output: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

fn write_line(out: &mut impl Write, value: &Value) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

/// `{"id"?, "arguments" | "blocked"+"reason", "report"}`.
pub(crate) fn call_record(m: Minimized) -> Value {
    let mut rec = Map::new();
    if let Some(id) = m.id {
        rec.insert("id".into(), id);
    }
    match m.outcome.verdict {
        Verdict::Forward(a) => {
            rec.insert("arguments".into(), a);
        }
        Verdict::Block(reason) => {
            rec.insert("blocked".into(), Value::Bool(true));
            rec.insert("reason".into(), Value::String(reason.to_string()));
        }
    }
    // A report is plain numbers and ids; serializing it cannot fail, and if it ever did the
    // line would still carry the verdict.
    let report = serde_json::to_value(&m.outcome.report).unwrap_or(Value::Null);
    rec.insert("report".into(), report);
    Value::Object(rec)
}

/// `{"id": id or null, "line": n, "error": "…"}`.
pub(crate) fn error_record(e: LineError) -> Value {
    let mut rec = Map::new();
    rec.insert("id".into(), e.id.unwrap_or(Value::Null));
    rec.insert("line".into(), Value::from(e.line));
    rec.insert("error".into(), Value::String(e.message));
    Value::Object(rec)
}
