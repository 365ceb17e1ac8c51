//! One `toolminimize hook` invocation end to end, as a coding agent pays it: process start,
//! reading the payload, building the minimizer, minimizing, answering, exit.
//!
//! `cargo bench -p toolminimize-cli --bench hook_invocation` prints the median and the 90th
//! percentile over `TOOLMINIMIZE_BENCH_RUNS` runs (default 30) for four payloads: a web search
//! that gets rewritten, one with a phone number and a date (the costliest patterns and the
//! phone metadata), a benign web search, and a local tool the hook passes through without
//! building the minimizer.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

fn once(payload: &[u8], state: &Path) -> Duration {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolminimize"))
        .arg("hook")
        .env("TOOLMINIMIZE_SCHEMA_CACHE", state.join("schemas"))
        .env("TOOLMINIMIZE_SESSION_STORE", state.join("sessions.json"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(payload).unwrap();
    let out = child.wait_with_output().unwrap();
    let elapsed = start.elapsed();
    assert!(out.status.success());
    elapsed
}

fn main() {
    let runs: usize = std::env::var("TOOLMINIMIZE_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30);
    let state = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hook-bench");
    let _ = std::fs::remove_dir_all(&state);
    std::fs::create_dir_all(&state).unwrap();
    let payload = |tool: &str, input: serde_json::Value| {
        serde_json::to_vec(&json!({
            "session_id": "bench-session", "cwd": "/home/dev/demo", "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input,
            "tool_use_id": "toolu_bench"
        }))
        .unwrap()
    };
    let cases = [
        (
            "WebSearch, rewritten",
            payload(
                "WebSearch",
                json!({"query": "best oncologist for my stage 3 breast cancer near 14 Rue des Acacias Lyon"}),
            ),
        ),
        (
            "WebSearch, phone + date",
            payload(
                "WebSearch",
                json!({"query": "call me back at +1 415 555 0182 about my HIV test results from 2031-03-04"}),
            ),
        ),
        (
            "WebSearch, unchanged",
            payload(
                "WebSearch",
                json!({"query": "rust serde flatten enum example"}),
            ),
        ),
        (
            "Read, passed through",
            payload("Read", json!({"file_path": "/home/dev/demo/src/main.rs"})),
        ),
    ];
    println!("toolminimize hook, one invocation end to end ({runs} runs each)");
    for (name, body) in &cases {
        let _ = once(body, &state); // warm the page cache
        let mut t: Vec<Duration> = (0..runs).map(|_| once(body, &state)).collect();
        t.sort();
        let p = |q: f64| t[((t.len() - 1) as f64 * q).round() as usize];
        println!(
            "  {name:<24} median {:7.1} ms   p90 {:7.1} ms",
            p(0.5).as_secs_f64() * 1e3,
            p(0.9).as_secs_f64() * 1e3
        );
    }
}
