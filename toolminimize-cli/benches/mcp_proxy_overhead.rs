//! What `toolminimize mcp-proxy` adds to one `tools/call` round trip: the same call to the
//! same scripted stdio server, once directly and once through the proxy (which parses the
//! line, minimizes the arguments for the listed schema and writes the call on).
//!
//! Run with `cargo bench -p toolminimize-cli --bench mcp_proxy_overhead`; needs `python3`.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};

struct Peer {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    line: String,
}

impl Peer {
    fn start(command: &[String]) -> Self {
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut peer = Peer {
            child,
            stdin,
            stdout,
            line: String::new(),
        };
        peer.round_trip(&json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}).to_string());
        peer.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string());
        peer.round_trip(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).to_string());
        peer
    }

    fn send(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends a request and reads lines up to its response.
    fn round_trip(&mut self, line: &str) -> usize {
        self.send(line);
        loop {
            self.line.clear();
            assert!(
                self.stdout.read_line(&mut self.line).unwrap() > 0,
                "the peer closed its output"
            );
            let v: Value = serde_json::from_str(&self.line).unwrap();
            if v.get("method").is_none() {
                return self.line.len();
            }
        }
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn bench(c: &mut Criterion) {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mcp");
    let record = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-proxy-bench-record.jsonl");
    let server = vec![
        "python3".to_owned(),
        fixtures.join("fake_server.py").display().to_string(),
        "--record".to_owned(),
        record.display().to_string(),
    ];
    let mut proxied = vec![
        env!("CARGO_BIN_EXE_toolminimize").to_owned(),
        "mcp-proxy".to_owned(),
        "--".to_owned(),
    ];
    proxied.extend(server.iter().cloned());

    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_forecast", "arguments": {
        "city": "Lyon", "days": 3, "note": "Planning a picnic with my sister on Saturday afternoon."}}})
    .to_string();

    let mut group = c.benchmark_group("tools_call_round_trip");
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(6));
    for (name, command) in [("direct", &server), ("through_proxy", &proxied)] {
        let mut peer = Peer::start(command);
        group.bench_function(name, |b| b.iter(|| peer.round_trip(&call)));
        drop(peer);
        let _ = std::fs::remove_file(&record);
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
