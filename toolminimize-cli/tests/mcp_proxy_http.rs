//! `toolminimize mcp-proxy` over Streamable HTTP, between real peers on loopback, both ways:
//! a stdio host in front of an HTTP server (`--upstream-url`), and HTTP hosts in front of the
//! proxy (`--listen`) with a stdio or an HTTP server behind it. The peers are the reference
//! server `@modelcontextprotocol/server-everything` (its Streamable HTTP transport) and a
//! server and a client built with the official Python SDK (PyPI `mcp`), which speak both the
//! initialize-handshake revisions and 2026-07-28. `.ci/setup-mcp-peers.sh` installs them;
//! the tests run it when they are missing.
#![cfg(feature = "http")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod mcp_common;

use mcp_common::{
    Proxy, audit_records, everything_http, everything_server, fixtures, http, listening_proxy,
    messages, proxy_bin, scratch, sdk_client, sdk_http_server, sdk_python,
};
use serde_json::{Value, json};

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

/// What the Python SDK server's tools report they received.
fn received(call: &Value) -> Value {
    serde_json::from_str(text(call)).unwrap_or_else(|_| panic!("not the server's echo: {call}"))
}

fn proxy_command(options: &[&str]) -> Vec<String> {
    let mut cmd = vec![proxy_bin().to_owned(), "mcp-proxy".to_owned()];
    cmd.extend(options.iter().map(|s| (*s).to_owned()));
    cmd
}

fn sdk_stdio_server() -> Vec<String> {
    vec![
        sdk_python().display().to_string(),
        fixtures().join("sdk_server.py").display().to_string(),
    ]
}

/// Steps every revision supports (2026-07-28 has no ping).
fn whoami_steps() -> Value {
    json!([
        {"op": "list_tools"},
        {"op": "call", "name": "whoami", "arguments": {"region": "us-west1"},
         "meta": {"com.example/caller": {"email": "jane.doe@example.com"}}},
        {"op": "call", "name": "get_forecast", "arguments": {"city": "Lyon", "days": 2, "note": "my SSN is 078-05-1120"}},
        {"op": "call", "name": "send_email", "arguments": {"to": "ops@example.org", "subject": "Disk usage", "body": "The build volume is at 91%."}}
    ])
}

/// The calls of [`whoami_steps`] went through minimized, with the protocol's own fields.
fn check_whoami(results: &[Value], protocol: &str) {
    assert_eq!(
        step(results, "initialize", 0)["protocol"],
        protocol,
        "{results:?}"
    );
    let who = received(step(results, "call", 0));
    assert_eq!(who["region"], "us-west1");
    assert!(!who.to_string().contains("jane.doe@example.com"), "{who}");
    if protocol == "2026-07-28" {
        assert_eq!(
            who["meta"]["io.modelcontextprotocol/protocolVersion"], "2026-07-28",
            "{who}"
        );
    }
    let forecast = received(step(results, "call", 1));
    assert_eq!(
        (&forecast["city"], &forecast["days"]),
        (&json!("Lyon"), &json!(2))
    );
    assert!(!forecast.to_string().contains("078-05-1120"), "{forecast}");
    assert_eq!(
        received(step(results, "call", 2)),
        json!({"to": "ops@example.org", "subject": "Disk usage", "body": "The build volume is at 91%."})
    );
}

// --- stdio host → HTTP server ---------------------------------------------------------------

#[test]
fn stdio_host_to_everything_server_over_http() {
    let server = everything_http();
    let audit = scratch("audit.jsonl");
    let audit_arg = audit.display().to_string();
    let mut p = Proxy::start(
        &["--upstream-url", &server.url, "--audit-log", &audit_arg],
        &[],
    );
    let init = p.initialize();
    assert_eq!(
        init["result"]["serverInfo"]["name"], "mcp-servers/everything",
        "{init}"
    );
    let tools = p.request("tools/list", json!({}));
    assert!(tools["result"]["tools"].as_array().unwrap().len() > 5);
    assert_eq!(p.request("ping", json!({}))["result"], json!({}));
    let echo = p.call_tool(
        "echo",
        json!({"message": "Renew the passport; my SSN is 078-05-1120."}),
    );
    let echoed = echo["result"]["content"][0]["text"].as_str().unwrap();
    assert!(echoed.starts_with("Echo: Renew the passport"), "{echo}");
    assert!(!echoed.contains("078-05-1120"), "{echoed}");
    let sum = p.call_tool("get-sum", json!({"a": 2, "b": 3}));
    assert!(
        sum["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains('5'),
        "{sum}"
    );
    // A request the server rejects is answered, with its id.
    let unknown = p.request("no/such/method", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    // The session was opened (with its GET stream) and is ended with DELETE on hang-up.
    assert!(server.wait_for_output(|l| l.contains("Establishing new SSE stream")));
    let (status, stderr, _) = p.wait();
    assert!(status.success(), "{stderr}");
    assert!(
        server.wait_for_output(|l| l.contains("Received session termination request")),
        "{:?}",
        server.output()
    );
    let records = audit_records(&audit);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["tool"], "echo");
    assert_eq!(records[0]["listed"], true);
}

#[test]
fn stdio_host_to_everything_server_over_http_answers_when_the_server_is_gone() {
    let server = everything_http();
    let url = server.url.clone();
    let mut p = Proxy::start(&["--upstream-url", &url], &[]);
    p.initialize();
    drop(server);
    let r = p.request("tools/list", json!({}));
    assert_eq!(r["error"]["code"], -32603, "{r}");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("cannot be reached"),
        "{r}"
    );
}

#[test]
fn sdk_client_over_stdio_to_sdk_server_over_http_both_revisions() {
    let server = sdk_http_server();
    let opts = [
        "--upstream-url",
        server.url.as_str(),
        "--header",
        "Authorization: Bearer ${TOOLMINIMIZE_TEST_TOKEN}",
    ];
    let proxy = proxy_command(&opts);
    let env = [("TOOLMINIMIZE_TEST_TOKEN", "t0k3n-for-tests")];
    for (auto, protocol) in [(false, "2025-11-25"), (true, "2026-07-28")] {
        let mut args = Vec::new();
        if auto {
            args.push("--auto".to_owned());
        }
        args.extend(proxy.iter().cloned());
        let results = sdk_client_env(&args, &whoami_steps(), &env);
        check_whoami(&results, protocol);
        let who = received(step(&results, "call", 0));
        // The credentials of --header, and the x-mcp-header parameter mirrored from the
        // arguments as sent.
        assert_eq!(
            who["headers"]["authorization"], "Bearer t0k3n-for-tests",
            "{who}"
        );
        assert_eq!(who["headers"]["mcp-param-region"], "us-west1", "{who}");
        assert_eq!(who["headers"]["mcp-name"], "whoami", "{who}");
        assert_eq!(who["headers"]["mcp-protocol-version"], protocol, "{who}");
    }
}

/// The SDK client with an environment for the proxy it starts.
fn sdk_client_env(args: &[String], steps: &Value, env: &[(&str, &str)]) -> Vec<Value> {
    sdk_client(args, steps, env)
}

// --- HTTP host → proxy (listening) → stdio server ---------------------------------------------

#[test]
fn sdk_client_over_http_to_a_listening_proxy_in_front_of_a_stdio_sdk_server() {
    let proxy = listening_proxy(&[], &sdk_stdio_server());
    for (auto, protocol) in [(false, "2025-11-25"), (true, "2026-07-28")] {
        let mut args = Vec::new();
        if auto {
            args.push("--auto".to_owned());
        }
        args.push(proxy.url.clone());
        check_whoami(&sdk_client(&args, &whoami_steps(), &[]), protocol);
    }
    let status = proxy.terminate();
    assert!(status.success());
}

#[test]
fn sdk_client_over_http_to_a_listening_proxy_in_front_of_the_everything_server() {
    let audit = scratch("audit.jsonl");
    let audit_arg = audit.display().to_string();
    let proxy = listening_proxy(&["--audit-log", &audit_arg], &everything_server());
    let steps = json!([
        {"op": "list_tools"}, {"op": "list_prompts"}, {"op": "ping"},
        {"op": "call", "name": "echo", "arguments": {"message": "Renew the passport; my SSN is 078-05-1120."}},
        {"op": "call", "name": "get-sum", "arguments": {"a": 2, "b": 3}}
    ]);
    let results = sdk_client(std::slice::from_ref(&proxy.url), &steps, &[]);
    let direct = sdk_client(&everything_server(), &steps, &[]);
    assert_eq!(
        step(&results, "list_tools", 0),
        step(&direct, "list_tools", 0)
    );
    assert_eq!(
        step(&results, "list_prompts", 0),
        step(&direct, "list_prompts", 0)
    );
    let echoed = text(step(&results, "call", 0));
    assert!(echoed.starts_with("Echo: Renew the passport"), "{echoed}");
    assert!(!echoed.contains("078-05-1120"), "{echoed}");
    assert!(text(step(&results, "call", 1)).contains('5'));
    let records = audit_records(&audit);
    assert_eq!(records.first().unwrap()["tool"], "echo");
    assert_eq!(records.first().unwrap()["listed"], true);
}

// --- HTTP host → proxy (listening) → HTTP server ----------------------------------------------

#[test]
fn sdk_client_over_http_to_a_listening_proxy_in_front_of_an_http_sdk_server() {
    let server = sdk_http_server();
    let proxy = listening_proxy(&["--upstream-url", &server.url], &[]);
    let env = [("MCP_TEST_AUTHORIZATION", "Bearer h0st-t0k3n")];
    for (auto, protocol) in [(false, "2025-11-25"), (true, "2026-07-28")] {
        let mut args = Vec::new();
        if auto {
            args.push("--auto".to_owned());
        }
        args.push(proxy.url.clone());
        let results = sdk_client(&args, &whoami_steps(), &env);
        check_whoami(&results, protocol);
        // The host's own credentials reach the server.
        let who = received(step(&results, "call", 0));
        assert_eq!(
            who["headers"]["authorization"], "Bearer h0st-t0k3n",
            "{who}"
        );
    }
}

// --- The listening endpoint itself --------------------------------------------------------------

#[test]
fn the_listening_endpoint_refuses_a_body_of_too_many_values_unparsed() {
    let proxy = listening_proxy(&["--shutdown-timeout", "1"], &sdk_stdio_server());
    let zeros = format!("[{}0]", "0,".repeat(toolminimize_core::MAX_VALUES));
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":"v1","method":"tools/call","params":{{"name":"get_forecast","arguments":{{"days":{zeros}}}}}}}"#
    );
    let headers = [
        ("Accept", "application/json, text/event-stream"),
        ("Content-Type", "application/json"),
    ];
    let (status, _, reply) = http("POST", &proxy.url, &headers, body.as_bytes());
    assert_eq!(status, 413);
    let reply = &messages(&reply)[0];
    assert_eq!(reply["id"], "v1");
    assert!(
        reply["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("JSON values")),
        "{reply}"
    );
}

#[test]
fn the_listening_endpoint_answers_every_request_and_checks_origins() {
    let proxy = listening_proxy(&["--max-message-bytes", "4000"], &sdk_stdio_server());
    let url = proxy.url.clone();
    let accept = ("Accept", "application/json, text/event-stream");
    let json_ct = ("Content-Type", "application/json");
    // A foreign Origin is refused; a loopback one is not.
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}});
    let body = init.to_string();
    let (status, _, _) = http(
        "POST",
        &url,
        &[accept, json_ct, ("Origin", "https://evil.example")],
        body.as_bytes(),
    );
    assert_eq!(status, 403);
    let (status, headers, reply) = http(
        "POST",
        &url,
        &[accept, json_ct, ("Origin", "http://localhost:5173")],
        body.as_bytes(),
    );
    assert_eq!(status, 200);
    let session = headers
        .iter()
        .find(|(k, _)| k == "mcp-session-id")
        .map(|(_, v)| v.clone())
        .expect("a session id");
    let replies = messages(&reply);
    assert_eq!(replies[0]["id"], 1);
    assert_eq!(
        replies[0]["result"]["serverInfo"]["name"],
        "toolminimize-test-server"
    );
    let sid = ("Mcp-Session-Id", session.as_str());
    let (status, _, _) = http(
        "POST",
        &url,
        &[accept, json_ct, sid],
        br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    assert_eq!(status, 202);
    // Unparsable, with a readable id.
    let (status, _, reply) = http(
        "POST",
        &url,
        &[accept, json_ct, sid],
        br#"{"jsonrpc":"2.0","id":"p1","method":"tools/call","params":{"#,
    );
    assert_eq!(status, 400);
    assert_eq!(messages(&reply)[0]["id"], "p1");
    // Over the size limit, the id after the long part.
    let big = format!(
        r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"name":"get_forecast","arguments":{{"city":"{}"}}}},"id":"b1"}}"#,
        "z".repeat(10_000)
    );
    let (status, _, reply) = http("POST", &url, &[accept, json_ct, sid], big.as_bytes());
    assert_eq!(status, 413);
    assert_eq!(messages(&reply)[0]["id"], "b1");
    // A call goes through, minimized.
    let call = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "get_forecast", "arguments": {"city": "Lyon", "note": "SSN 078-05-1120"}}});
    let (status, _, reply) = http(
        "POST",
        &url,
        &[accept, json_ct, sid],
        call.to_string().as_bytes(),
    );
    assert_eq!(status, 200);
    let answer = messages(&reply)
        .into_iter()
        .find(|m| m["id"] == 5)
        .expect("the answer");
    assert!(!answer.to_string().contains("078-05-1120"), "{answer}");
    // An unknown session is 404; DELETE ends the session.
    let (status, _, _) = http(
        "POST",
        &url,
        &[accept, json_ct, ("Mcp-Session-Id", "nope")],
        call.to_string().as_bytes(),
    );
    assert_eq!(status, 404);
    let (status, _, _) = http("DELETE", &url, &[sid], b"");
    assert_eq!(status, 204);
    let (status, _, _) = http(
        "POST",
        &url,
        &[accept, json_ct, sid],
        call.to_string().as_bytes(),
    );
    assert_eq!(status, 404);
}

#[test]
fn a_slow_call_to_an_http_server_does_not_hold_up_a_ping() {
    let server = everything_http();
    let mut p = Proxy::start(&["--upstream-url", &server.url], &[]);
    p.initialize();
    p.request("tools/list", json!({}));
    let items: Vec<u32> = (0..1_000_000).collect();
    p.send(
        &json!({"jsonrpc": "2.0", "id": "big", "method": "tools/call",
        "params": {"name": "echo", "arguments": {"message": "hi", "items": items}}}),
    );
    p.send(&json!({"jsonrpc": "2.0", "id": "ping-after", "method": "ping"}));
    let first = p.recv();
    assert_eq!(first["id"], "ping-after");
    let call = p.response_to(&json!("big"));
    assert!(call.get("result").is_some() || call.get("error").is_some());
}
