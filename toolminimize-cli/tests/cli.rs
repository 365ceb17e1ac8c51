//! Runs the `toolminimize` binary on the bundled examples and on malformed input.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/calls.jsonl")
}

fn example_lines() -> Vec<Value> {
    std::fs::read_to_string(examples())
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Runs the binary with `args`, feeding `stdin`, and waits for it.
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
    // Write from another thread so a large input cannot deadlock against a full stdout pipe.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn output_lines(out: &Output) -> Vec<Value> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("output line is not JSON ({e}): {l}"))
        })
        .collect()
}

fn minimize_examples() -> Vec<Value> {
    let path = examples();
    let out = run(&["minimize", path.to_str().unwrap()], b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    output_lines(&out)
}

fn schema_of(call: &Value) -> &Value {
    let tool = &call["tool"];
    ["inputSchema", "input_schema", "parameters"]
        .iter()
        .find_map(|k| tool.get(*k))
        .expect("every example tool has a schema")
}

/// Every string of at least `min` characters in `v`.
/// Whether `needle` occurs in `hay` as a whole word (a value such as "person" is not leaked
/// by a rule or kind name such as "url-personal-parameter" or "person_name").
fn contains_word(hay: &str, needle: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    hay.match_indices(needle).any(|(i, m)| {
        let before = hay[..i].chars().next_back();
        let after = hay[i + m.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

fn strings(v: &Value, min: usize, out: &mut Vec<String>) {
    match v {
        Value::String(s) if s.chars().count() >= min => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, min, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, min, out)),
        _ => {}
    }
}

#[test]
fn minimize_answers_every_example_in_order_with_its_id() {
    let inputs = example_lines();
    let outputs = minimize_examples();
    assert_eq!(outputs.len(), inputs.len());
    for (i, o) in inputs.iter().zip(&outputs) {
        assert_eq!(o["id"], i["id"]);
        assert!(
            o.get("error").is_none(),
            "{} failed: {}",
            i["id"],
            o["error"]
        );
        let report = &o["report"];
        assert!(report["cost_before"].is_number() && report["cost_after"].is_number());
        assert!(
            report["cost_after"].as_f64() <= report["cost_before"].as_f64(),
            "{}",
            i["id"]
        );
        assert!(report["items"].is_array());
        assert!(
            o["arguments"].is_object() || o["blocked"] == json!(true),
            "{}",
            i["id"]
        );
    }
}

#[test]
fn every_output_on_the_examples_validates_against_its_tool_schema() {
    let inputs = example_lines();
    let outputs = minimize_examples();
    let mut checked = 0;
    for (i, o) in inputs.iter().zip(&outputs) {
        let validator = jsonschema::validator_for(schema_of(i)).unwrap();
        assert!(
            validator.is_valid(&i["arguments"]),
            "example {} is itself invalid",
            i["id"]
        );
        if o.get("blocked") == Some(&json!(true)) {
            continue;
        }
        let errors: Vec<String> = validator
            .iter_errors(&o["arguments"])
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", i["id"]);
        checked += 1;
    }
    assert!(
        checked >= inputs.len() * 9 / 10,
        "most example calls are forwarded"
    );
}

#[test]
fn reports_and_audits_never_contain_an_argument_value() {
    let inputs = example_lines();
    let outputs = minimize_examples();
    let mut values = Vec::new();
    for i in &inputs {
        strings(&i["arguments"], 6, &mut values);
    }
    assert!(values.len() > 100);
    let reports: Vec<String> = outputs.iter().map(|o| o["report"].to_string()).collect();
    let path = examples();
    let audit = run(&["audit", path.to_str().unwrap()], b"");
    let audit_json = run(&["audit", "--json", path.to_str().unwrap()], b"");
    let audits = [
        String::from_utf8(audit.stdout).unwrap(),
        String::from_utf8(audit_json.stdout).unwrap(),
    ];
    for v in &values {
        for r in reports.iter().chain(&audits) {
            assert!(
                !contains_word(r, v),
                "a raw value leaked into a report or audit"
            );
        }
    }
}

#[test]
fn audit_summarizes_the_examples_as_text_and_as_json() {
    let path = examples();
    let n = example_lines().len();
    let out = run(&["audit", path.to_str().unwrap()], b"");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with(&format!("Calls          {n}\n")), "{text}");
    assert!(text.contains("Privacy cost"), "{text}");
    // Progress goes to a terminal only; here stderr is a pipe.
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let out = run(&["audit", "--json", path.to_str().unwrap()], b"");
    assert!(out.status.success());
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["calls"], json!(n));
    assert_eq!(summary["unreadable_lines"], 0);
    let before = summary["cost_before"].as_f64().unwrap();
    let after = summary["cost_after"].as_f64().unwrap();
    assert!(after <= before);
    // The per-tool table covers every call once.
    let per_tool: u64 = summary["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["calls"].as_u64().unwrap())
        .sum();
    assert_eq!(per_tool, n as u64);
    let items = summary["items"].as_u64().unwrap();
    let per_category: u64 = summary["by_category"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["items"].as_u64().unwrap())
        .sum();
    assert_eq!(per_category, items);
}

#[test]
fn audit_and_minimize_read_standard_input() {
    let line = json!({"id": "w", "tool": {"name": "get_current_weather", "parameters": {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}}, "arguments": {"location": "Santa Cruz, CA"}});
    let input = format!("{line}\n");
    for args in [&["minimize"][..], &["minimize", "-"][..]] {
        let out = run(args, input.as_bytes());
        assert!(out.status.success());
        assert_eq!(output_lines(&out)[0]["id"], "w");
    }
    let out = run(&["audit", "--json"], input.as_bytes());
    assert!(out.status.success());
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["calls"], 1);
}

const SCHEMA: &str = r#"{"type": "object", "properties": {"query": {"type": "string"}, "notes": {"type": "string"}}, "required": ["query"]}"#;

fn call_line(id: &str, arguments: &str) -> String {
    format!(
        r#"{{"id": "{id}", "tool": {{"name": "search", "inputSchema": {SCHEMA}}}, "arguments": {arguments}}}"#
    )
}

#[test]
fn malformed_lines_each_get_an_error_or_a_valid_result_and_processing_goes_on() {
    let deep = format!("{}1{}", "[".repeat(10_000), "]".repeat(10_000));
    let big = "a".repeat(10 * 1024 * 1024);
    let lines = [
        ("not-json", "{\"id\": \"not-json\", \"tool\": ".to_owned()),
        ("no-tool", r#"{"id": "no-tool", "arguments": {"query": "x"}}"#.to_owned()),
        ("schema-not-object", r#"{"id": "schema-not-object", "tool": {"name": "t", "inputSchema": "object"}, "arguments": {}}"#.to_owned()),
        ("args-not-object", format!(r#"{{"id": "args-not-object", "tool": {{"name": "t", "inputSchema": {SCHEMA}}}, "arguments": [1, 2]}}"#)),
        ("deep", call_line("deep", &format!(r#"{{"query": "q", "notes": {deep}}}"#))),
        ("big", call_line("big", &format!(r#"{{"query": "{big}"}}"#))),
        ("ok", call_line("ok", r#"{"query": "rust borrow checker"}"#)),
    ];
    let input: String = lines.iter().map(|(_, l)| format!("{l}\n")).collect();
    let out = run(&["minimize"], input.as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let outputs = output_lines(&out);
    assert_eq!(outputs.len(), lines.len());
    let validator = jsonschema::validator_for(&serde_json::from_str(SCHEMA).unwrap()).unwrap();
    for (n, ((name, _), o)) in lines.iter().zip(&outputs).enumerate() {
        if let Some(e) = o.get("error") {
            let e = e.as_str().unwrap();
            assert!(
                !e.is_empty() && e.len() < 200,
                "{name}: unclear error {e:?}"
            );
            assert_eq!(o["line"], json!(n + 1), "{name}");
        } else if o.get("blocked") != Some(&json!(true)) {
            assert!(
                validator.is_valid(&o["arguments"]),
                "{name}: invalid output"
            );
        }
    }
    let by_name = |name: &str| &outputs[lines.iter().position(|(n, _)| *n == name).unwrap()];
    // A line that is not JSON has no readable id.
    assert_eq!(by_name("not-json")["id"], Value::Null);
    assert!(
        by_name("not-json")["error"]
            .as_str()
            .unwrap()
            .starts_with("not valid JSON")
    );
    assert_eq!(by_name("no-tool")["error"], "missing `tool`");
    assert_eq!(by_name("no-tool")["id"], "no-tool");
    assert!(
        by_name("schema-not-object")["error"]
            .as_str()
            .unwrap()
            .contains("schema")
    );
    assert_eq!(by_name("schema-not-object")["id"], "schema-not-object");
    assert_eq!(
        by_name("args-not-object")["error"],
        "`arguments` must be a JSON object, not an array"
    );
    assert!(
        by_name("deep")["error"]
            .as_str()
            .unwrap()
            .contains("nested too deeply")
    );
    assert!(
        by_name("big").get("error").is_none(),
        "a 10 MB string is a valid call"
    );
    assert_eq!(
        by_name("ok")["arguments"],
        json!({"query": "rust borrow checker"})
    );
}

#[test]
fn deep_but_parseable_nesting_gets_a_result() {
    let nested = format!("{}\"x\"{}", "{\"a\": ".repeat(120), "}".repeat(120));
    let out = run(
        &["minimize"],
        format!(
            "{}\n",
            call_line("d", &format!(r#"{{"query": "q", "notes": {nested}}}"#))
        )
        .as_bytes(),
    );
    assert!(out.status.success());
    let o = &output_lines(&out)[0];
    assert_eq!(o["id"], "d");
    assert!(o.get("error").is_none());
    assert!(o["arguments"].is_object() || o["blocked"] == json!(true));
}

#[test]
fn ids_are_echoed_exactly_and_omitted_when_absent() {
    let tool = r#"{"name": "t", "inputSchema": {"type": "object"}}"#;
    let input = [
        format!(r#"{{"id": 17, "tool": {tool}, "arguments": {{}}}}"#),
        format!(r#"{{"id": {{"run": "r-9", "n": [1, 2]}}, "tool": {tool}, "arguments": {{}}}}"#),
        format!(r#"{{"id": "appel-é-✓", "tool": {tool}, "arguments": {{}}}}"#),
        format!(r#"{{"tool": {tool}, "arguments": {{}}}}"#),
        r#"{"id": 3.5, "arguments": {}}"#.to_owned(),
    ]
    .join("\n");
    let out = run(&["minimize"], input.as_bytes());
    assert!(out.status.success());
    let o = output_lines(&out);
    assert_eq!(o[0]["id"], 17);
    assert_eq!(o[1]["id"], json!({"run": "r-9", "n": [1, 2]}));
    assert_eq!(o[2]["id"], "appel-é-✓");
    assert!(o[3].get("id").is_none() && o[3]["arguments"] == json!({}));
    assert_eq!(o[4]["id"], 3.5);
    assert!(o[4]["error"].is_string());
}

#[test]
fn blank_lines_are_skipped_and_invalid_utf8_is_an_error_line() {
    let ok = call_line("ok", r#"{"query": "q"}"#);
    let mut input = format!("\n{ok}\n   \n").into_bytes();
    input.extend_from_slice(b"\xff\xfe\n");
    input.extend_from_slice(ok.as_bytes()); // last line without a newline
    let out = run(&["minimize"], &input);
    assert!(out.status.success());
    let o = output_lines(&out);
    assert_eq!(o.len(), 3);
    assert_eq!(o[1]["error"], "not valid UTF-8");
    assert_eq!(o[1]["line"], 4);
    assert_eq!(o[2]["id"], "ok");
}

#[test]
fn input_and_option_failures_exit_non_zero_with_a_message() {
    let out = run(&["minimize", "/nonexistent/calls.jsonl"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot open /nonexistent/calls.jsonl"));
    let out = run(&["audit", "/nonexistent/calls.jsonl"], b"");
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["minimize", "--default-exposure", "public"], b"");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("first_party"));
    let dir = std::env::temp_dir().join(format!("toolminimize-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let policy = dir.join("policy.json");
    std::fs::write(&policy, r#"{"stirct": true}"#).unwrap();
    let out = run(&["minimize", "--policy", policy.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("stirct"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn audit_lists_unreadable_lines_with_their_ids() {
    let input = format!(
        "{}\n{{\"id\": \"bad-1\", \"arguments\": {{}}}}\nnope\n",
        call_line("ok", r#"{"query": "q"}"#)
    );
    let out = run(&["audit", "--json"], input.as_bytes());
    assert!(out.status.success());
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["calls"], 1);
    assert_eq!(s["unreadable_lines"], 2);
    assert_eq!(
        s["errors"][0],
        json!({"line": 2, "id": "bad-1", "error": "missing `tool`"})
    );
    assert_eq!(s["errors"][1]["line"], 3);
    let out = run(&["audit"], input.as_bytes());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("line 2 (id \"bad-1\"): missing `tool`"),
        "{text}"
    );
}

#[test]
fn help_explains_every_option() {
    for (cmd, words) in [
        (
            "minimize",
            &[
                "--policy",
                "--strict",
                "--default-exposure",
                "Standard input",
            ][..],
        ),
        (
            "audit",
            &[
                "--json",
                "--no-progress",
                "--policy",
                "--strict",
                "--default-exposure",
            ][..],
        ),
    ] {
        let out = run(&[cmd, "--help"], b"");
        assert!(out.status.success());
        let help = String::from_utf8(out.stdout).unwrap();
        for w in words {
            assert!(help.contains(w), "`{cmd} --help` lacks {w}:\n{help}");
        }
    }
}

#[test]
fn a_benign_call_comes_back_unchanged() {
    let line = json!({"id": "b", "exposure": "third_party", "tool": {"name": "search_direct_flight", "parameters": {"type": "object", "properties": {"origin": {"type": "string"}, "destination": {"type": "string"}, "date": {"type": "string"}}, "required": ["origin", "destination", "date"]}}, "arguments": {"origin": "ZRH", "destination": "MAD", "date": "2025-09-14"}});
    let out = run(&["minimize"], format!("{line}\n").as_bytes());
    let o = &output_lines(&out)[0];
    assert_eq!(o["arguments"], line["arguments"]);
    assert_eq!(o["report"]["cost_before"], 0.0);
}

#[test]
fn an_ssn_in_an_optional_notes_field_disappears() {
    let line = json!({"id": "s", "exposure": "third_party", "tool": {"name": "request_ride", "inputSchema": {"type": "object", "properties": {"pickup": {"type": "string"}, "dropoff": {"type": "string"}, "notes": {"type": "string"}}, "required": ["pickup", "dropoff"]}}, "arguments": {"pickup": "Gare du Nord, Paris", "dropoff": "Gare de Lyon, Paris", "notes": "my SSN is 512-44-7391 in case you need it"}});
    let out = run(&["minimize"], format!("{line}\n").as_bytes());
    let o = &output_lines(&out)[0];
    assert!(!o["arguments"].to_string().contains("512-44-7391"), "{o}");
    assert_eq!(o["arguments"]["pickup"], "Gare du Nord, Paris");
    assert!(
        o["report"]["cost_before"].as_f64().unwrap() > o["report"]["cost_after"].as_f64().unwrap()
    );
    let items = o["report"]["items"].as_array().unwrap();
    assert!(
        items.iter().any(|i| i["path"] == "/notes"
            && i["category"] == "identity"
            && i["necessary"] == false)
    );
}

#[test]
fn jobs_keep_order_one_line_per_input_line_and_the_same_output() {
    // The examples three times over with bad lines in between, so several workers, sessions
    // and error lines interleave.
    let mut input = String::new();
    for rep in 0..3 {
        for (i, line) in std::fs::read_to_string(examples())
            .unwrap()
            .lines()
            .enumerate()
        {
            input.push_str(line);
            input.push('\n');
            if i % 17 == 0 {
                input.push_str(&format!(
                    "{{\"id\": \"bad-{rep}-{i}\", \"arguments\": {{}}}}\n"
                ));
            }
        }
        // A line over a megabyte: its result is written by the writer itself.
        let notes =
            "The parcel ships tomorrow; call Ana Ruiz on +44 7700 900123 about it. ".repeat(16_000);
        let long = json!({"id": format!("long-{rep}"),
            "tool": {"name": "send_message", "description": "Send a message",
                     "inputSchema": {"type": "object", "properties": {
                         "to": {"type": "string"}, "body": {"type": "string"}}}},
            "arguments": {"to": "desk@example.com", "body": notes}});
        input.push_str(&long.to_string());
        input.push('\n');
    }
    // Order is under test, not time: without a time budget, a slow (debug, loaded) run cannot
    // block the long lines in one run and not in another.
    let dir = std::env::temp_dir().join(format!("toolminimize-jobs-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let policy = dir.join("no-budget.json");
    std::fs::write(&policy, r#"{"time_budget_ms": null}"#).unwrap();
    let policy = policy.to_str().unwrap();
    let one = run(
        &["minimize", "--policy", policy, "--jobs", "1"],
        input.as_bytes(),
    );
    assert!(one.status.success());
    let n_in = input.lines().filter(|l| !l.trim().is_empty()).count();
    assert_eq!(output_lines(&one).len(), n_in);
    assert!(
        !String::from_utf8_lossy(&one.stdout).contains("\"blocked\""),
        "nothing here is blocked"
    );
    for jobs in ["2", "3", "8"] {
        let many = run(
            &["minimize", "--policy", policy, "--jobs", jobs],
            input.as_bytes(),
        );
        assert!(many.status.success());
        assert!(
            one.stdout == many.stdout,
            "--jobs {jobs} output differs from --jobs 1"
        );
    }
    let out = run(&["minimize", "--jobs", "0"], b"");
    assert!(!out.status.success());
}

#[test]
fn jobs_fill_and_drain_their_window_many_times_over() {
    // Far more lines than the window of two workers holds (2 × 256), so the reader waits for
    // the writer again and again; every line still comes out once, in order.
    let examples = std::fs::read_to_string(examples()).unwrap();
    let mut input = String::new();
    for rep in 0..40 {
        for (i, line) in examples.lines().enumerate() {
            let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
            v["id"] = serde_json::json!(format!("r{rep}-{i}"));
            input.push_str(&v.to_string());
            input.push('\n');
        }
    }
    let one = run(&["minimize", "--jobs", "1"], input.as_bytes());
    let two = run(&["minimize", "--jobs", "2"], input.as_bytes());
    assert!(one.status.success() && two.status.success());
    assert_eq!(output_lines(&two).len(), input.lines().count());
    assert!(
        one.stdout == two.stdout,
        "--jobs 2 output differs from --jobs 1"
    );
}
