//! `toolminimize hook` end to end: realistic `PreToolUse` payloads (invented people and values)
//! piped through the built binary, answers checked against the hook protocol.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A fresh directory for one test's schema cache, session store and audit log.
fn scratch(tag: &str) -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("hook")
        .join(format!("{}-{n}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `toolminimize <args>` with its state under `dir`, feeding `stdin`.
fn run_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolminimize"))
        .args(args)
        .env("TOOLMINIMIZE_SCHEMA_CACHE", dir.join("schemas"))
        .env("TOOLMINIMIZE_SESSION_STORE", dir.join("sessions.json"))
        .env_remove("XDG_CACHE_HOME")
        .env_remove("XDG_STATE_HOME")
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

/// A `PreToolUse` payload as Claude Code sends it.
fn payload(session: &str, tool: &str, input: Value) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "session_id": session,
        "transcript_path": "/home/dev/.claude/projects/demo/0b4c2f.jsonl",
        "cwd": "/home/dev/demo",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": input,
        "tool_use_id": "toolu_01TestInvented",
    }))
    .unwrap()
}

/// Runs the hook on one payload: exit code, stdout as JSON (`None` when empty), stderr.
fn hook(dir: &Path, extra: &[&str], body: &[u8]) -> (i32, Option<Value>, String) {
    let mut args = vec!["hook", "--audit-log"];
    let log = dir.join("audit.jsonl");
    args.push(log.to_str().unwrap());
    args.extend_from_slice(extra);
    let out = run_in(dir, &args, body);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let json = (!stdout.trim().is_empty()).then(|| {
        serde_json::from_str(stdout.trim())
            .unwrap_or_else(|e| panic!("stdout is not one JSON object ({e}): {stdout}"))
    });
    (
        out.status.code().unwrap_or(-1),
        json,
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn hso(v: &Value) -> &Value {
    let h = &v["hookSpecificOutput"];
    assert_eq!(h["hookEventName"], "PreToolUse", "{v}");
    h
}

fn assert_no_values(text: &str, values: &[&str]) {
    for v in values {
        assert!(!text.contains(v), "`{v}` leaked into: {text}");
    }
}

fn audit_lines(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("audit.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_web_search_with_health_data_and_an_address_is_allowed_with_updated_input() {
    let dir = scratch("search");
    let input = json!({
        "query": "best oncologist for my stage 3 breast cancer near 14 Rue des Acacias Lyon",
        "allowed_domains": ["health.example.org"],
    });
    let (code, out, stderr) = hook(&dir, &[], &payload("sess-1", "WebSearch", input));
    assert_eq!(code, 0, "{stderr}");
    let out = out.expect("a rewritten call answers with JSON");
    let h = hso(&out);
    assert_eq!(h["permissionDecision"], "allow");
    let updated = &h["updatedInput"];
    // updatedInput replaces the whole input: every field is there.
    assert_eq!(updated["allowed_domains"], json!(["health.example.org"]));
    let q = updated["query"].as_str().unwrap();
    assert!(q.contains("oncologist"), "{q}");
    assert!(!q.contains("14 Rue des Acacias"), "{q}");
    let reason = h["permissionDecisionReason"].as_str().unwrap();
    assert!(reason.starts_with("toolminimize: "), "{reason}");
    assert_no_values(reason, &["Acacias", "breast", "cancer"]);
    let log = audit_lines(&dir);
    assert_eq!(log.len(), 1);
    assert_eq!(log[0]["decision"], "rewritten");
    assert_no_values(&log[0].to_string(), &["Acacias", "breast cancer"]);
}

#[test]
fn a_benign_call_gets_no_output_and_the_normal_permission_flow() {
    let dir = scratch("benign");
    for (tool, input) in [
        (
            "WebSearch",
            json!({"query": "rust serde flatten enum example"}),
        ),
        (
            "WebFetch",
            json!({"url": "https://docs.example.org/guide/install", "prompt": "List the install steps"}),
        ),
        ("Read", json!({"file_path": "/home/dev/demo/src/main.rs"})),
    ] {
        let (code, out, stderr) = hook(&dir, &[], &payload("sess-2", tool, input));
        assert_eq!((code, out), (0, None), "{tool}: {stderr}");
    }
}

#[test]
fn a_web_fetch_url_loses_the_e_mail_but_keeps_the_prompt() {
    let dir = scratch("fetch");
    let input = json!({
        "url": "https://tracker.example.net/parcel?id=88412&email=lea.brunner@example.com",
        "prompt": "Where is my parcel? Reply for Lea Brunner",
    });
    let (code, out, _) = hook(&dir, &[], &payload("sess-3", "WebFetch", input));
    assert_eq!(code, 0);
    let h = hso(out.as_ref().unwrap()).clone();
    let url = h["updatedInput"]["url"].as_str().unwrap();
    assert!(
        url.starts_with("https://tracker.example.net/parcel?id=88412"),
        "{url}"
    );
    assert!(!url.contains("lea.brunner"), "{url}");
    // The prompt runs inside the agent's own model: kept as it was.
    assert_eq!(
        h["updatedInput"]["prompt"],
        "Where is my parcel? Reply for Lea Brunner"
    );
}

#[test]
fn the_policy_blocks_with_a_deny_that_carries_no_value() {
    let dir = scratch("deny");
    let policy = dir.join("policy.json");
    std::fs::write(
        &policy,
        r#"{"block": {"tools": ["mcp__payments__transfer"]}}"#,
    )
    .unwrap();
    let input = json!({"iban": "DE44 5001 0517 5407 3249 31", "amount": 120, "memo": "rent for Tomas Weber"});
    let (code, out, stderr) = hook(
        &dir,
        &["--policy", policy.to_str().unwrap()],
        &payload("sess-4", "mcp__payments__transfer", input),
    );
    assert_eq!(code, 0, "{stderr}");
    let out = out.unwrap();
    let h = hso(&out);
    assert_eq!(h["permissionDecision"], "deny");
    assert!(h.get("updatedInput").is_none());
    let reason = h["permissionDecisionReason"].as_str().unwrap();
    assert!(reason.contains("blocks"), "{reason}");
    assert_no_values(&out.to_string(), &["DE44", "Tomas", "Weber", "rent"]);
    assert_eq!(audit_lines(&dir)[0]["decision"], "denied");
}

#[test]
fn an_mcp_tool_without_a_known_schema_keeps_every_field_and_loses_only_spans() {
    let dir = scratch("mcp-unknown");
    let input = json!({
        "title": "Follow-up",
        "body": "Call back about the chemotherapy schedule, SSN 219-09-9999",
        "tags": ["callback"],
        "priority": 2,
    });
    let (code, out, stderr) = hook(
        &dir,
        &[],
        &payload("sess-5", "mcp__notes__create_note", input.clone()),
    );
    assert_eq!(code, 0, "{stderr}");
    let h = hso(out.as_ref().unwrap()).clone();
    let updated = h["updatedInput"].as_object().unwrap();
    let keys: Vec<&String> = updated.keys().collect();
    let want: Vec<&String> = input.as_object().unwrap().keys().collect();
    assert_eq!(keys, want, "no field is dropped");
    assert_eq!(updated["title"], "Follow-up");
    assert_eq!(updated["priority"], 2);
    let body = updated["body"].as_str().unwrap();
    assert!(body.starts_with("Call back"), "{body}");
    assert!(!body.contains("219-09-9999"), "{body}");
    assert_eq!(audit_lines(&dir)[0]["schema"], "none");
}

#[test]
fn schemas_import_gives_the_hook_the_tool_schema() {
    let dir = scratch("mcp-known");
    let listing = dir.join("tools.json");
    std::fs::write(
        &listing,
        json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": [{
            "name": "get_forecast",
            "description": "Get the weather forecast for a city",
            "inputSchema": {"type": "object",
                "properties": {"city": {"type": "string"}, "notes": {"type": "string"}},
                "required": ["city"]},
            "annotations": {"openWorldHint": true}
        }]}})
        .to_string(),
    )
    .unwrap();
    let out = run_in(
        &dir,
        &[
            "schemas",
            "import",
            listing.to_str().unwrap(),
            "--server",
            "weather",
        ],
        b"",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.join("schemas/weather.json").is_file());
    let listed = run_in(&dir, &["schemas", "list"], b"");
    assert!(
        String::from_utf8_lossy(&listed.stdout).contains("mcp__weather__get_forecast"),
        "{}",
        String::from_utf8_lossy(&listed.stdout)
    );

    let input = json!({"city": "Graz", "notes": "after my dialysis appointment"});
    let (code, out, stderr) = hook(
        &dir,
        &[],
        &payload("sess-6", "mcp__weather__get_forecast", input),
    );
    assert_eq!(code, 0, "{stderr}");
    let h = hso(out.as_ref().unwrap()).clone();
    // With the real schema the optional field holding health data goes.
    assert_eq!(h["updatedInput"], json!({"city": "Graz"}));
    let log = audit_lines(&dir);
    assert_eq!(
        (log[0]["schema"].as_str(), log[0]["exposure"].as_str()),
        (Some("known"), Some("third_party"))
    );
}

#[test]
fn built_in_write_and_shell_tools_are_reported_never_rewritten() {
    let dir = scratch("write-tools");
    let secret = "Patient Mira Olsen, HIV positive, phone +1 415 555 0143";
    let cases = [
        (
            "Write",
            json!({"file_path": "/home/dev/demo/notes.md", "content": secret}),
        ),
        (
            "Edit",
            json!({"file_path": "/home/dev/demo/notes.md", "old_string": "TBD", "new_string": secret, "replace_all": false}),
        ),
        (
            "MultiEdit",
            json!({"file_path": "/home/dev/demo/notes.md", "edits": [{"old_string": "a", "new_string": secret}]}),
        ),
        (
            "NotebookEdit",
            json!({"notebook_path": "/home/dev/demo/a.ipynb", "cell_id": "c1", "new_source": secret, "edit_mode": "replace"}),
        ),
        (
            "Bash",
            json!({"command": format!("echo '{secret}' >> log.txt"), "description": "append"}),
        ),
    ];
    for (tool, input) in &cases {
        let (code, out, stderr) = hook(&dir, &[], &payload("sess-7", tool, input.clone()));
        assert_eq!(
            (code, &out),
            (0, &None),
            "{tool} must not be rewritten: {stderr}"
        );
        assert!(
            stderr.contains("reported, not rewritten"),
            "{tool}: {stderr}"
        );
        // The phone's digits in groups or its last four: a bare "555" may be a timestamp's
        // milliseconds.
        assert_no_values(&stderr, &["Mira", "Olsen", "HIV", "415 555", "0143"]);
    }
    let log = audit_lines(&dir);
    assert_eq!(log.len(), cases.len());
    assert!(
        log.iter()
            .all(|r| r["decision"] == "reported" && r["treatment"] == "report")
    );
    assert_no_values(
        &serde_json::to_string(&log).unwrap(),
        &["Mira", "Olsen", "415 555", "0143"],
    );

    // The policy option hands them to the minimizer (which decides, as for any first-party
    // tool, what the file or command needs).
    let (code, _, _) = hook(
        &dir,
        &["--write-tools", "minimize"],
        &payload("sess-7", "Write", cases[0].1.clone()),
    );
    assert_eq!(code, 0);
    let log = audit_lines(&dir);
    assert_eq!(log.last().unwrap()["treatment"], "minimize");
}

#[test]
fn malformed_input_is_a_non_blocking_error_that_quotes_nothing() {
    let dir = scratch("malformed");
    let cases: [&[u8]; 5] = [
        br#"{"tool_name": "WebSearch", "tool_input": {"query": "Ida Novak 555-0199"#,
        b"[1, 2]",
        br#"{"tool_name": "WebSearch", "tool_input": "Ida Novak 555-0199"}"#,
        br#"{"tool_input": {"query": "Ida Novak"}}"#,
        b"\xff\xfe",
    ];
    for body in cases {
        let (code, out, stderr) = hook(&dir, &[], body);
        assert_eq!((code, &out), (1, &None), "{stderr}");
        assert!(stderr.starts_with("toolminimize hook: "), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert_no_values(&stderr, &["Ida", "Novak", "0199"]);
        let (code, _, _) = hook(&dir, &["--on-error", "block"], body);
        assert_eq!(code, 2);
    }
    // A hook that cannot run (its policy file is missing) follows --on-error as well.
    let missing = dir.join("no-such-policy.json");
    let body = payload(
        "sess-8",
        "WebSearch",
        json!({"query": "flu symptoms Ida Novak"}),
    );
    let (code, out, stderr) = hook(&dir, &["--policy", missing.to_str().unwrap()], &body);
    assert_eq!((code, out), (1, None), "{stderr}");
    assert_no_values(&stderr, &["Ida", "Novak"]);
    let (code, _, _) = hook(
        &dir,
        &["--policy", missing.to_str().unwrap(), "--on-error", "block"],
        &body,
    );
    assert_eq!(code, 2);
    // Another event than PreToolUse: stay out of the way.
    let body = br#"{"hook_event_name": "PostToolUse", "tool_name": "WebSearch", "tool_input": {"query": "x"}, "tool_response": {}}"#;
    assert_eq!(hook(&dir, &[], body), (0, None, String::new()));
}

#[test]
fn the_session_carries_linkability_across_hook_processes() {
    let dir = scratch("session");
    let tool = "mcp__registry__lookup_member";
    // First call: the name alone, needed by the tool.
    let (_, out, _) = hook(
        &dir,
        &[],
        &payload("conv-a", tool, json!({"member": "Jonas Berger"})),
    );
    assert_eq!(out, None);
    // Second call, another process: the phone number would complete name + phone at the same
    // tool, so it is withheld.
    let second = json!({"member": "+41 44 555 01 23"});
    let (_, out, _) = hook(&dir, &[], &payload("conv-a", tool, second.clone()));
    let h = hso(out.as_ref().unwrap()).clone();
    assert_ne!(h["updatedInput"], second);
    let log = audit_lines(&dir);
    assert!(
        log[1]["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["rule"] == "session:cross-call-linkability"),
        "{}",
        log[1]
    );
    // Another conversation has no such history: the same input goes through unchanged.
    let (_, out, _) = hook(&dir, &[], &payload("conv-b", tool, second));
    assert_eq!(out, None);
    // The store holds keyed hashes and kinds only.
    let store = std::fs::read_to_string(dir.join("sessions.json")).unwrap();
    assert_no_values(&store, &["conv-a", "Jonas", "Berger", "registry"]);
    assert!(store.contains("person_name"), "{store}");
    // Without a store nothing is carried over.
    let dir2 = scratch("session-off");
    hook(
        &dir2,
        &["--no-session-store"],
        &payload("conv-a", tool, json!({"member": "Jonas Berger"})),
    );
    let (_, out, _) = hook(
        &dir2,
        &["--no-session-store"],
        &payload("conv-a", tool, json!({"member": "+41 44 555 01 23"})),
    );
    assert_eq!(out, None);
    assert!(!dir2.join("sessions.json").exists());
}

#[test]
fn the_mcp_proxy_fills_the_schema_cache_from_tools_list() {
    let dir = scratch("proxy-fill");
    let fake = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mcp/fake_server.py");
    let record = dir.join("record.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolminimize"))
        .args(["mcp-proxy", "--server-name", "fake", "--schema-cache"])
        .arg(dir.join("schemas"))
        .arg("--")
        .arg("python3")
        .arg(&fake)
        .arg("--record")
        .arg(&record)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    for msg in [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}),
    ] {
        writeln!(stdin, "{msg}").unwrap();
    }
    // Read until the tools/list answer came back through the proxy.
    let deadline = Instant::now() + Duration::from_secs(60);
    for line in lines.by_ref() {
        let v: Value = serde_json::from_str(&line.unwrap()).unwrap();
        if v["id"] == 2 || Instant::now() > deadline {
            break;
        }
    }
    drop(stdin);
    let _ = child.wait();
    let cached: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("schemas/fake.json")).unwrap())
            .unwrap();
    let names: Vec<&str> = cached["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(names.contains(&"get_forecast"), "{names:?}");
    assert_eq!(cached["server"], "fake");
}

#[test]
fn the_hook_and_schemas_commands_explain_their_options() {
    let out = run_in(Path::new("."), &["hook", "--help"], b"");
    let help = String::from_utf8(out.stdout).unwrap();
    for opt in [
        "--write-tools",
        "--unknown-tools",
        "--rewrite-decision",
        "--on-error",
        "--schema-cache",
        "--session-store",
        "--no-session-store",
        "--audit-log",
        "--policy",
    ] {
        assert!(help.contains(opt), "{opt} missing from:\n{help}");
    }
    let out = run_in(Path::new("."), &["schemas", "--help"], b"");
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(help.contains("import") && help.contains("list"), "{help}");
}
