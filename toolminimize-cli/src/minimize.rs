//! `toolminimize minimize`: SPEC §5.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;
use serde_json::{Map, Value, json};
use toolminimize_core::{Call, Verdict};

use crate::input::{Sessions, parse_line};
use crate::options::PolicyArgs;

/// `minimize` options.
#[derive(Debug, ClapArgs)]
pub(crate) struct Args {
    /// Input JSONL file; standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
    #[command(flatten)]
    policy: PolicyArgs,
}

/// Opens the input: a file, or stdin.
pub(crate) fn open_input(path: Option<&PathBuf>) -> Result<Box<dyn BufRead>, String> {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            let f = File::open(p).map_err(|e| format!("cannot open {}: {e}", p.display()))?;
            Ok(Box::new(BufReader::new(f)))
        }
        _ => Ok(Box::new(BufReader::new(io::stdin()))),
    }
}

pub(crate) fn run(args: &Args) -> Result<ExitCode, String> {
    let minimizer = args.policy.minimizer()?;
    let input = open_input(args.input.as_ref())?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut sessions = Sessions::default();
    for (n, line) in input.split(b'\n').enumerate() {
        let line = line.map_err(|e| format!("reading input line {}: {e}", n + 1))?;
        let text = String::from_utf8_lossy(&line);
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let record = match parse_line(text) {
            Err(e) => json!({"id": e.id, "error": e.message}),
            Ok(c) => {
                let session = c.session.as_deref().map(|s| sessions.get(s).clone());
                let mut call = Call::new(&c.tool, &c.arguments);
                call.exposure = c.exposure;
                call.task_context = c.task_context.as_deref();
                call.session = session.as_ref();
                let outcome = minimizer.minimize_call(&call);
                let mut rec = Map::new();
                rec.insert("id".into(), c.id);
                match outcome.verdict {
                    Verdict::Forward(a) => {
                        rec.insert("arguments".into(), a);
                    }
                    Verdict::Block(reason) => {
                        rec.insert("blocked".into(), Value::Bool(true));
                        rec.insert("reason".into(), Value::String(reason.to_string()));
                    }
                }
                rec.insert(
                    "report".into(),
                    serde_json::to_value(&outcome.report).unwrap_or(Value::Null),
                );
                Value::Object(rec)
            }
        };
        serde_json::to_writer(&mut out, &record).map_err(|e| format!("writing output: {e}"))?;
        out.write_all(b"\n").map_err(|e| format!("writing output: {e}"))?;
    }
    out.flush().map_err(|e| format!("writing output: {e}"))?;
    Ok(ExitCode::SUCCESS)
}
