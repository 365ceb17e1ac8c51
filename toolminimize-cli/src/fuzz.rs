//! Fuzz targets, run as property tests on the stable toolchain (coverage-guided fuzzing with
//! cargo-fuzz needs a nightly compiler this project does not use): the JSONL line reader, the
//! MCP proxy's JSON-RPC router and the classifier, fed mutations of a seed corpus made from
//! `examples/calls.jsonl` plus arbitrary bytes. Each target asserts that nothing panics and
//! that what comes out is well-formed.
//!
//! The default test run tries a few cases per target; a long run sets
//! `TOOLMINIMIZE_FUZZ_CASES` (see the README for the command and its last result).

use std::io;
use std::sync::LazyLock;

use proptest::prelude::*;
use serde_json::Value;
use toolminimize_core::{Field, Minimizer, Session};

use crate::input::{Record, Stream};
use crate::mcp_proxy::rewrite::{OtherParams, Rewriter, Shared, UnlistedTools};
use crate::mcp_proxy::router::{HostPlan, Router};

static MINIMIZER: LazyLock<Minimizer> = LazyLock::new(|| match Minimizer::new() {
    Ok(m) => m,
    Err(e) => panic!("{e}"),
});

/// The seed corpus: the bundled example calls, whole and as JSON-RPC `tools/call` requests.
static CORPUS: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| {
    let text = include_str!("../../examples/calls.jsonl");
    let mut out = Vec::new();
    for (i, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        out.push(line.as_bytes().to_vec());
        if let Ok(v) = serde_json::from_str::<Value>(line) {
            let name = v["tool"]["name"].clone();
            let rpc = serde_json::json!({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                "params": {"name": name, "arguments": v["arguments"].clone()}});
            out.push(rpc.to_string().into_bytes());
        }
    }
    out
});

fn cases() -> u32 {
    std::env::var("TOOLMINIMIZE_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(32)
}

/// A corpus entry with random byte-level mutations, or random bytes.
fn input() -> impl Strategy<Value = Vec<u8>> {
    let mutated = (
        0..CORPUS.len(),
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..4), 0..8),
        any::<prop::sample::Index>(),
        any::<bool>(),
    )
        .prop_map(|(i, edits, cut, truncate)| {
            let mut b = CORPUS.get(i).cloned().unwrap_or_default();
            for (at, byte, op) in edits {
                if b.is_empty() {
                    b.push(byte);
                    continue;
                }
                let at = at.index(b.len());
                match op {
                    0 => {
                        if let Some(x) = b.get_mut(at) {
                            *x = byte;
                        }
                    }
                    1 => b.insert(at, byte),
                    2 => {
                        b.remove(at);
                    }
                    _ => {
                        // Structural bytes: braces, quotes, a BOM, a newline.
                        let pick: &[u8] = match byte % 6 {
                            0 => b"{",
                            1 => b"}",
                            2 => b"\"",
                            3 => "\u{feff}".as_bytes(),
                            4 => b"\n",
                            _ => b"[1e999999,-0,18446744073709551616]",
                        };
                        for (k, x) in pick.iter().enumerate() {
                            b.insert(at + k, *x);
                        }
                    }
                }
            }
            if truncate && !b.is_empty() {
                b.truncate(cut.index(b.len()));
            }
            b
        });
    prop_oneof![4 => mutated, 1 => prop::collection::vec(any::<u8>(), 0..256)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// The JSONL reader: one record per non-blank line, every call answered or an error given.
    #[test]
    fn fuzz_line_reader(lines in prop::collection::vec(input(), 1..4)) {
        let mut data = Vec::new();
        for l in &lines {
            data.extend_from_slice(l);
            data.push(b'\n');
        }
        let mut stream = Stream::new(io::Cursor::new(data));
        let mut records = 0usize;
        while let Some(record) = stream.next_record(&MINIMIZER).map_err(|e| TestCaseError::fail(e.to_string()))? {
            records += 1;
            if let Record::Bad(e) = record {
                prop_assert!(!e.message.is_empty());
            }
        }
        prop_assert!(records <= lines.iter().map(|l| l.split(|&b| b == b'\n').count()).sum::<usize>());
    }

    /// The JSON-RPC router: every line is planned without panicking, and every line it sends
    /// is one JSON value ending in a newline.
    #[test]
    fn fuzz_jsonrpc_router(line in input()) {
        let shared = Shared::new(
            MINIMIZER.clone(),
            UnlistedTools::Minimize,
            OtherParams::Minimize,
            None,
        );
        let router = Router::new(Rewriter::new(std::sync::Arc::new(shared), Session::new("fuzz")));
        let out = match router.plan_host_line(line.clone()) {
            HostPlan::Done(out) => out,
            HostPlan::Rewrite(mut pending) => {
                let calls = std::mem::take(&mut pending.calls);
                let single = pending.line.take();
                let handled = router.rewrite(calls.clone(), single);
                pending.calls = calls;
                Router::assemble(pending, handled)
            }
        };
        let back = router.on_server_line(line.clone());
        // A relayed line loses its byte order mark, and only that.
        let unmarked = line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&line);
        for l in out.to_server.iter().chain(&out.to_host).chain(&back.to_host).chain(&back.to_server) {
            prop_assert_eq!(l.last(), Some(&b'\n'));
            // Lines other than the input relayed byte for byte are the proxy's own: JSON.
            let relayed = l.strip_suffix(b"\n").is_some_and(|l| l == line.as_slice() || l == unmarked);
            prop_assert!(relayed || serde_json::from_slice::<Value>(l).is_ok(), "a broken line of the proxy's own");
        }
    }

    /// The classifier: spans lie on char boundaries inside the text, in order.
    #[test]
    fn fuzz_classifier(bytes in input()) {
        let text = String::from_utf8_lossy(&bytes);
        let found = MINIMIZER.scan_text(&text, &Field::default());
        for f in &found {
            prop_assert!(f.span.start <= f.span.end && f.span.end <= text.len());
            prop_assert!(text.is_char_boundary(f.span.start) && text.is_char_boundary(f.span.end));
        }
        for w in found.windows(2) {
            prop_assert!(w[0].span.start <= w[1].span.start);
        }
    }
}
