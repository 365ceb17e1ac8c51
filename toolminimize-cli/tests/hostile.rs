//! Hostile and oversized input through the `toolminimize minimize` command: the reproductions
//! of the robustness issue, each a regression test. Timings are not asserted here (see the
//! `big_inputs` benchmark); these tests check what comes out.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolminimize"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn minimize(lines: &[Value]) -> (String, Vec<Value>) {
    let mut input = Vec::new();
    for l in lines {
        input.extend_from_slice(l.to_string().as_bytes());
        input.push(b'\n');
    }
    let out = run(&["minimize"], &input);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let values = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (text, values)
}

fn search_tool() -> Value {
    json!({"name": "web_search", "description": "Search the web",
        "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}},
            "required": ["query"]}})
}

/// Prose with nothing personal in it, `n` bytes long.
fn filler(n: usize) -> String {
    "the parcel ships in a blue box with the manual and two spare cables. "
        .repeat(n / 69 + 1)
        .chars()
        .take(n)
        .collect()
}

#[test]
fn a_name_after_the_first_256_kib_is_found_and_removed() {
    let query = format!(
        "{} Please phone Rebecca Stone on +1 415 555 0182 about it.",
        filler(300 * 1024)
    );
    let (text, out) = minimize(&[json!({"id": 1, "tool": search_tool(),
        "arguments": {"query": query}, "exposure": "third_party"})]);
    assert!(
        out[0]["arguments"].is_object(),
        "{}",
        &text[..200.min(text.len())]
    );
    assert!(!text.contains("Rebecca Stone"));
    assert!(!text.contains("555 0182"));
}

#[test]
fn encoded_data_in_a_string_over_one_mib_is_decoded_and_removed() {
    use base64::Engine as _;
    // An invented number: 078-05-1120 is the well-known specimen SSN.
    let blob = base64::engine::general_purpose::STANDARD.encode("my SSN is 078-05-1120 ok");
    let query = format!("{} ref {blob} end", filler(1100 * 1024));
    let (text, out) = minimize(&[json!({"id": 2, "tool": search_tool(),
        "arguments": {"query": query}})]);
    assert!(out[0]["arguments"].is_object() || out[0]["blocked"] == true);
    assert!(!text.contains(&blob), "the encoded SSN went through");
}

#[test]
fn a_long_array_is_answered() {
    // 40,000 elements once took 4.7 s and 80,000 took 37 s (quadratic); now linear.
    let tags: Vec<Value> = (0..50_000).map(|i| json!(format!("tag {i}"))).collect();
    let tool = json!({"name": "tag_items", "inputSchema": {"type": "object",
        "properties": {"tags": {"type": "array", "items": {"type": "string"}}},
        "required": ["tags"]}});
    let (_, out) = minimize(&[json!({"id": 3, "tool": tool, "arguments": {"tags": tags}})]);
    assert_eq!(
        out[0]["arguments"]["tags"].as_array().unwrap().len(),
        50_000
    );
}

#[test]
fn numbers_beyond_64_bits_stay_exact() {
    let line = r#"{"id": 123456789012345678901234567890, "tool": {"name": "get_order", "inputSchema": {"type": "object", "properties": {"order": {"type": "integer"}, "ratio": {"type": "number"}}, "required": ["order", "ratio"]}}, "arguments": {"order": 98765432109876543210987654321, "ratio": 0.1000000000000000055511151231257827}}"#;
    let out = run(&["minimize"], format!("{line}\n").as_bytes());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(r#""id":123456789012345678901234567890"#),
        "{text}"
    );
    assert!(
        text.contains(r#""order":98765432109876543210987654321"#),
        "{text}"
    );
    assert!(
        text.contains("0.1000000000000000055511151231257827"),
        "{text}"
    );
}

#[test]
fn a_byte_order_mark_is_tolerated() {
    let call = json!({"id": "bom", "tool": search_tool(), "arguments": {"query": "weather"}});
    let input = format!("\u{feff}{call}\n\u{feff}{call}\n");
    let out = run(&["minimize"], input.as_bytes());
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    for l in &lines {
        assert_eq!(l["arguments"], json!({"query": "weather"}), "{l}");
    }
}

#[test]
fn a_call_over_its_time_budget_is_blocked_not_forwarded() {
    let dir = std::env::temp_dir().join(format!("tm-budget-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let policy = dir.join("policy.json");
    std::fs::write(&policy, r#"{"time_budget_ms": 0}"#).unwrap();
    let call = json!({"id": 9, "tool": search_tool(),
        "arguments": {"query": "clinic for Dana Whitfield, SSN 078-05-1120"}});
    let out = run(
        &["minimize", "--policy", policy.to_str().unwrap()],
        format!("{call}\n").as_bytes(),
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let line: Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(line["blocked"], true, "{text}");
    assert!(line["reason"].as_str().unwrap().contains("time budget"));
    assert!(!text.contains("078-05-1120") && !text.contains("Whitfield"));
    let _ = std::fs::remove_dir_all(&dir);
}
