//! Whole-process start-up: `toolminimize minimize` started, fed and waited for, as a hook or a
//! shell loop runs it. Each iteration spawns the release binary cargo built for this bench.
//!
//! - `process/minimize_empty_input`: `toolminimize minimize < /dev/null` (start, build the
//!   minimizer, read nothing, exit);
//! - `process/minimize_one_call`: one call on standard input (the first call of a process
//!   compiles what it needs that the warm-up threads have not reached yet);
//! - `process/true`: the floor, a process that does nothing (`true`).
//!
//! ```text
//! cargo bench -p toolminimize-cli --bench process
//! ```
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a bench aborts when the binary cannot run"
)]

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};

const BIN: &str = env!("CARGO_BIN_EXE_toolminimize");

const CALL: &str = r#"{"id": "c1", "exposure": "third_party", "tool": {"name": "get_current_weather", "parameters": {"type": "object", "properties": {"location": {"type": "string"}, "notes": {"type": "string"}}, "required": ["location"]}}, "arguments": {"location": "Lyon", "notes": "after my chemo at 3pm, call me on +33 6 12 34 56 78"}}"#;

/// Runs `program args` with `input` on standard input; the wall time to its exit.
fn run(program: &str, args: &[&str], input: &str) -> Duration {
    let t = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    {
        let mut stdin = child.stdin.take().expect("piped stdin");
        stdin.write_all(input.as_bytes()).expect("input written");
    }
    let status = child.wait().expect("the process ends");
    assert!(status.success());
    t.elapsed()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("process");
    group.sample_size(30);
    group.bench_function("minimize_empty_input", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| run(BIN, &["minimize"], "")).sum())
    });
    let line = format!("{CALL}\n");
    group.bench_function("minimize_one_call", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| run(BIN, &["minimize"], &line)).sum())
    });
    group.bench_function("true", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| run("true", &[], "")).sum())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
