//! `toolminimize mcp-proxy` between real MCP peers: the reference server
//! `@modelcontextprotocol/server-everything` (npm) and a server built with the official Python
//! SDK (PyPI `mcp`), driven by that SDK's stdio client. The peers are installed by
//! `.ci/setup-mcp-peers.sh`; without them these tests fail and say so.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod mcp_common;

use std::io::Write;
use std::process::{Command, Stdio};

use mcp_common::{
    Proxy, audit_records, everything_server, fixtures, proxy_bin, scratch, sdk_python,
};
use serde_json::{Value, json};

/// Runs the SDK client script against `target` (a command line) and returns its results.
fn sdk_client(target: &[String], steps: &Value) -> Vec<Value> {
    let python = sdk_python();
    let mut child = Command::new(&python)
        .arg(fixtures().join("sdk_client.py"))
        .args(target)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(steps.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the SDK client failed: {stderr}");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("client output ({e}); stderr: {stderr}"))
}

/// The proxy command line in front of `server`.
fn through_proxy(options: &[&str], server: &[String]) -> Vec<String> {
    let mut cmd = vec![proxy_bin().to_owned(), "mcp-proxy".to_owned()];
    cmd.extend(options.iter().map(|s| (*s).to_owned()));
    cmd.push("--".to_owned());
    cmd.extend(server.iter().cloned());
    cmd
}

fn sdk_server() -> Vec<String> {
    vec![
        sdk_python().display().to_string(),
        fixtures().join("sdk_server.py").display().to_string(),
    ]
}

fn step<'a>(results: &'a [Value], op: &str, nth: usize) -> &'a Value {
    results
        .iter()
        .filter(|r| r["op"] == op)
        .nth(nth)
        .unwrap_or_else(|| panic!("no {op} #{nth} in {results:?}"))
}

fn text(call: &Value) -> &str {
    call["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
}

/// The arguments the Python SDK server received, as it reports them.
fn received(call: &Value) -> Value {
    serde_json::from_str(text(call)).unwrap_or_else(|_| panic!("not the server's echo: {call}"))
}

// --- the reference server -------------------------------------------------------------------

#[test]
fn everything_server_lists_and_answers_the_same_through_the_proxy() {
    let steps = json!([
        {"op": "list_tools"}, {"op": "list_prompts"}, {"op": "list_resources"}, {"op": "ping"},
        {"op": "call", "name": "echo", "arguments": {"message": "the weather in Lyon"}},
        {"op": "call", "name": "get-sum", "arguments": {"a": 2, "b": 3}}
    ]);
    let direct = sdk_client(&everything_server(), &steps);
    let proxied = sdk_client(&through_proxy(&[], &everything_server()), &steps);
    for op in ["list_tools", "list_prompts", "list_resources"] {
        assert_eq!(
            step(&proxied, op, 0),
            step(&direct, op, 0),
            "{op} differs through the proxy"
        );
    }
    assert!(
        step(&proxied, "list_tools", 0)["tools"]
            .as_array()
            .unwrap()
            .len()
            > 5
    );
    assert_eq!(text(step(&proxied, "call", 0)), "Echo: the weather in Lyon");
    assert!(
        text(step(&proxied, "call", 1)).contains('5'),
        "{:?}",
        step(&proxied, "call", 1)
    );
}

#[test]
fn everything_server_echoes_a_five_megabyte_argument() {
    let message = "Light rain is expected over the hills by evening. ".repeat(100_000);
    assert!(message.len() >= 5_000_000);
    let steps = json!([{"op": "list_tools"}, {"op": "call", "name": "echo", "arguments": {"message": message}}]);
    // Size, not speed, is under test: a budget no loaded test machine comes near.
    let proxied = sdk_client(
        &through_proxy(&["--call-budget", "300s"], &everything_server()),
        &steps,
    );
    let echoed = text(step(&proxied, "call", 0));
    assert_eq!(echoed.len(), "Echo: ".len() + message.len());
}

#[test]
fn everything_server_handles_an_unlisted_tool_and_the_audit_log_says_so() {
    let audit = scratch("audit.jsonl");
    let audit_arg = audit.display().to_string();
    let steps = json!([
        {"op": "list_tools"},
        {"op": "call", "name": "no-such-tool", "arguments": {"customer": "Maria Garcia", "ssn": "078-05-1120"}},
        {"op": "call", "name": "echo", "arguments": {"message": "hello"}}
    ]);
    let proxied = sdk_client(
        &through_proxy(&["--audit-log", &audit_arg], &everything_server()),
        &steps,
    );
    assert_eq!(step(&proxied, "call", 0)["result"]["isError"], true);
    assert_eq!(text(step(&proxied, "call", 1)), "Echo: hello");
    let records = audit_records(&audit);
    assert_eq!(records.len(), 2);
    assert_eq!(
        (&records[0]["tool"], &records[0]["listed"]),
        (&json!("no-such-tool"), &json!(false))
    );
    assert_eq!(
        (&records[1]["tool"], &records[1]["listed"]),
        (&json!("echo"), &json!(true))
    );
    let raw = std::fs::read_to_string(&audit).unwrap();
    assert!(
        !raw.contains("078-05-1120") && !raw.contains("Maria"),
        "{raw}"
    );
}

#[test]
fn everything_server_behind_the_proxy_survives_malformed_host_lines() {
    let mut p = Proxy::start(&[], &everything_server());
    let init = p.initialize();
    assert_eq!(
        init["result"]["serverInfo"]["name"],
        "mcp-servers/everything"
    );
    p.send_raw("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {");
    // Unparsable, but its id is readable: the answer carries it.
    assert_eq!(p.response_to(&json!(1))["error"]["code"], -32700);
    p.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo", "arguments": ["x"]}}));
    assert_eq!(p.response_to(&json!(2))["error"]["code"], -32602);
    // An unknown method reaches the server, whose own error comes back.
    let unknown = p.request("no/such/method", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    p.request("tools/list", json!({}));
    let echo = p.call_tool("echo", json!({"message": "still here"}));
    assert_eq!(echo["result"]["content"][0]["text"], "Echo: still here");
    let (status, stderr, _) = p.wait();
    assert!(status.success(), "{stderr}");
}

#[test]
fn everything_server_does_not_receive_an_ssn_the_echo_does_not_need() {
    let steps = json!([
        {"op": "list_tools"},
        {"op": "call", "name": "echo", "arguments": {"message": "Remind me to renew the passport; my SSN is 078-05-1120."}}
    ]);
    let proxied = sdk_client(&through_proxy(&[], &everything_server()), &steps);
    let echoed = text(step(&proxied, "call", 0));
    assert!(
        echoed.starts_with("Echo: Remind me to renew the passport"),
        "{echoed}"
    );
    assert!(!echoed.contains("078-05-1120"), "{echoed}");
}

// --- the Python SDK server ------------------------------------------------------------------

#[test]
fn sdk_server_tools_of_several_shapes_receive_what_they_need() {
    let steps = json!([
        {"op": "list_tools"},
        {"op": "call", "name": "send_email", "arguments": {"to": "ops@example.org", "subject": "Disk usage", "body": "The build volume is at 91%."}},
        {"op": "call", "name": "get_forecast", "arguments": {"city": "Lyon", "days": 2}},
        {"op": "call", "name": "book_table", "arguments": {"restaurant": "Chez Paul", "party_size": 4}},
        {"op": "ping"}
    ]);
    let proxied = sdk_client(&through_proxy(&[], &sdk_server()), &steps);
    assert_eq!(
        received(step(&proxied, "call", 0)),
        json!({"to": "ops@example.org", "subject": "Disk usage", "body": "The build volume is at 91%."})
    );
    assert_eq!(
        received(step(&proxied, "call", 1)),
        json!({"city": "Lyon", "days": 2})
    );
    assert_eq!(
        received(step(&proxied, "call", 2)),
        json!({"restaurant": "Chez Paul", "party_size": 4})
    );
}

#[test]
fn sdk_server_list_changes_reach_the_client_and_the_cache() {
    let audit = scratch("audit.jsonl");
    let audit_arg = audit.display().to_string();
    let steps = json!([
        {"op": "list_tools"},
        {"op": "call", "name": "enable_lookup_tool", "arguments": {}},
        {"op": "ping"},
        {"op": "call", "name": "lookup_order", "arguments": {"order_id": "A-17"}}
    ]);
    let proxied = sdk_client(
        &through_proxy(&["--audit-log", &audit_arg], &sdk_server()),
        &steps,
    );
    assert_eq!(
        received(step(&proxied, "call", 1)),
        json!({"order_id": "A-17"})
    );
    assert_eq!(step(&proxied, "notifications", 0)["tools_list_changed"], 1);
    let records = audit_records(&audit);
    assert_eq!(records.last().unwrap()["tool"], "lookup_order");
    assert_eq!(records.last().unwrap()["listed"], true);
}

#[test]
fn sdk_server_does_not_receive_personal_data_in_optional_fields() {
    let steps = json!([
        {"op": "list_tools"},
        {"op": "call", "name": "get_forecast", "arguments": {"city": "Lyon", "days": 2, "note": "my SSN is 078-05-1120"}},
        {"op": "call", "name": "send_email", "arguments": {"to": "ops@example.org", "subject": "Disk usage", "body": "The build volume is at 91%.", "cc": "ops-archive@example.org"}},
        {"op": "call", "name": "enable_lookup_tool", "arguments": {}},
        {"op": "ping"},
        {"op": "call", "name": "lookup_order", "arguments": {"order_id": "A-17", "note": "card holder reachable at jane.doe@example.com"}}
    ]);
    let proxied = sdk_client(&through_proxy(&[], &sdk_server()), &steps);
    let forecast = received(step(&proxied, "call", 0));
    assert_eq!(
        (&forecast["city"], &forecast["days"]),
        (&json!("Lyon"), &json!(2))
    );
    assert!(!forecast.to_string().contains("078-05-1120"), "{forecast}");
    // The recipient is what an e-mail tool needs: it arrives.
    let email = received(step(&proxied, "call", 1));
    assert_eq!(email["to"], "ops@example.org");
    assert_eq!(email["subject"], "Disk usage");
    let order = received(step(&proxied, "call", 3));
    assert_eq!(order["order_id"], "A-17");
    assert!(
        !order.to_string().contains("jane.doe@example.com"),
        "{order}"
    );
}
