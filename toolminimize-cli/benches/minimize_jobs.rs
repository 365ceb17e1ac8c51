//! Throughput of `toolminimize minimize --jobs N` on a 100,000-call stream built from
//! `examples/calls.jsonl` (each repetition gets its own ids and session names, so sessions
//! spread over the workers as real conversations do).
//!
//! `cargo bench -p toolminimize-cli --bench minimize_jobs` prints calls/s for each N and the
//! speed-up over one job. Set `TOOLMINIMIZE_BENCH_CALLS` for another stream length and
//! `TOOLMINIMIZE_BENCH_JOBS` (e.g. `1,2,4`) for other job counts. The output of every N is
//! checked to be byte-identical to the output of the first.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::Value;

fn stream(calls: usize) -> PathBuf {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/calls.jsonl");
    let lines: Vec<Value> = std::fs::read_to_string(examples)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("stream-{calls}.jsonl"));
    if path.is_file() {
        return path;
    }
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let mut n = 0;
    let mut rep = 0;
    while n < calls {
        for call in &lines {
            if n == calls {
                break;
            }
            let mut c = call.clone();
            let o = c.as_object_mut().unwrap();
            let id = o
                .get("id")
                .and_then(Value::as_str)
                .unwrap_or("call")
                .to_owned();
            o.insert("id".into(), Value::String(format!("{id}-r{rep}")));
            if let Some(s) = o.get("session").and_then(Value::as_str).map(str::to_owned) {
                o.insert("session".into(), Value::String(format!("{s}-r{rep}")));
            }
            serde_json::to_writer(&mut f, &c).unwrap();
            f.write_all(b"\n").unwrap();
            n += 1;
        }
        rep += 1;
    }
    f.flush().unwrap();
    path
}

fn main() {
    let calls: usize = std::env::var("TOOLMINIMIZE_BENCH_CALLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let jobs: Vec<usize> = std::env::var("TOOLMINIMIZE_BENCH_JOBS")
        .ok()
        .map(|v| v.split(',').filter_map(|j| j.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1, 2]);
    let input = stream(calls);
    let mut first: Option<(f64, Vec<u8>)> = None;
    println!(
        "minimize --jobs N on {calls} calls ({} bytes)",
        std::fs::metadata(&input).unwrap().len()
    );
    for j in jobs {
        let start = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_toolminimize"))
            .args(["minimize", "--jobs", &j.to_string()])
            .arg(&input)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let secs = start.elapsed().as_secs_f64();
        assert!(out.status.success());
        let lines = out.stdout.iter().filter(|b| **b == b'\n').count();
        assert_eq!(lines, calls, "one output line per input line");
        let rate = calls as f64 / secs;
        match &first {
            None => {
                println!("  --jobs {j}: {secs:7.2} s  {rate:8.0} calls/s");
                first = Some((rate, out.stdout));
            }
            Some((base, bytes)) => {
                assert!(
                    *bytes == out.stdout,
                    "--jobs {j} output differs from the first run"
                );
                println!(
                    "  --jobs {j}: {secs:7.2} s  {rate:8.0} calls/s  ×{:.2}",
                    rate / base
                );
            }
        }
    }
}
