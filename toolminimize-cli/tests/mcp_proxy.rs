//! `toolminimize mcp-proxy` against a scripted stdio server (Python standard library only):
//! framing, passthrough, rewriting, malformed input from both sides, tool-list caching and
//! refresh, process lifecycle. Needs nothing installed beyond `python3`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod mcp_common;

use mcp_common::{Proxy, audit_records, fake_server, recorded, scratch};
use serde_json::{Value, json};

fn started(options: &[&str], server_options: &[&str]) -> (Proxy, std::path::PathBuf) {
    let (server, record) = fake_server(server_options);
    let mut p = Proxy::start(options, &server);
    let init = p.initialize();
    assert_eq!(init["result"]["serverInfo"]["name"], "fake");
    (p, record)
}

/// The received lines that the host sent (not the proxy's own tools/list requests).
fn host_lines(record: &std::path::Path) -> Vec<String> {
    recorded(record)
        .into_iter()
        .filter(|l| !l.contains("toolminimize-proxy-tools-list"))
        .collect()
}

fn server_got(response: &Value) -> Value {
    response["result"]["structuredContent"]["received"].clone()
}

#[test]
fn other_messages_pass_byte_for_byte_in_both_directions() {
    let (mut p, record) = started(&[], &[]);
    let odd = r#"{"params" : {"b":1,"a":[true,null]}, "id":"x-1","method":"custom/thing" ,"jsonrpc":"2.0"}"#;
    p.send_raw(odd);
    assert_eq!(
        p.response_to(&json!("x-1"))["result"]["method"],
        "custom/thing"
    );
    let note = r#"{"method":"notifications/progress","jsonrpc":"2.0","params":{"progressToken":1,"progress":0.5}}"#;
    p.send_raw(note);
    // A response whose key order and spacing the server chose reaches the host unchanged.
    p.send_raw(r#"{"jsonrpc":"2.0","id":7,"method":"test/raw_response"}"#);
    assert_eq!(
        p.recv_raw(),
        r#"{"result" : {"z":1,"a":2} , "id":7, "jsonrpc":"2.0"}"#
    );
    let lines = host_lines(&record);
    assert!(lines.contains(&odd.to_owned()), "{lines:?}");
    assert!(lines.contains(&note.to_owned()), "{lines:?}");
    let (status, _, _) = p.wait();
    assert!(status.success());
}

#[test]
fn server_to_client_requests_and_their_answers_pass() {
    let (mut p, record) = started(&[], &[]);
    p.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "test/server_request"}));
    let srv = p.recv();
    assert_eq!(srv["method"], "roots/list");
    assert_eq!(srv["id"], "srv-1");
    assert_eq!(p.response_to(&json!(1))["result"], json!({}));
    let answer = r#"{"jsonrpc":"2.0","id":"srv-1","result":{"roots":[]}}"#;
    p.send_raw(answer);
    p.request("ping", json!({}));
    assert!(host_lines(&record).contains(&answer.to_owned()));
}

#[test]
fn tools_call_keeps_key_order_ids_and_other_params() {
    let (mut p, record) = started(&[], &[]);
    p.request("tools/list", json!({}));
    p.send_raw(
        r#"{"params":{"_meta":{"progressToken":"tok"},"name":"echo","arguments":{"message":"the weather is nice"}},"method":"tools/call","jsonrpc":"2.0","id":"call-1"}"#,
    );
    let r = p.response_to(&json!("call-1"));
    assert_eq!(server_got(&r), json!({"message": "the weather is nice"}));
    let line = host_lines(&record)
        .into_iter()
        .find(|l| l.contains("call-1"))
        .unwrap();
    let got: Value = serde_json::from_str(&line).unwrap();
    let keys: Vec<&str> = got
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["params", "method", "jsonrpc", "id"]);
    let param_keys: Vec<&str> = got["params"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(param_keys, ["_meta", "name", "arguments"]);
    assert_eq!(got["params"]["_meta"]["progressToken"], "tok");
}

#[test]
fn malformed_host_lines_are_answered_by_the_proxy_and_never_forwarded() {
    let (mut p, record) = started(&[], &[]);
    p.send_raw("this is not json");
    let e = p.recv();
    assert_eq!(e["error"]["code"], -32700);
    assert_eq!(e["id"], Value::Null);
    p.send_raw("42");
    assert_eq!(p.recv()["error"]["code"], -32600);
    p.send_raw("[]");
    assert_eq!(p.recv()["error"]["code"], -32600);
    p.send_raw(r#"{"jsonrpc":"2.0","id":9,"method":5}"#);
    assert_eq!(p.recv()["error"]["code"], -32600);
    for (id, params) in [
        (10, json!("not an object")),
        (11, json!({"name": "echo", "arguments": ["a", "list"]})),
        (
            12,
            json!({"name": "echo", "arguments": "{\"message\": \"x\"}"}),
        ),
        (13, json!({"arguments": {}})),
    ] {
        p.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}));
        let r = p.recv();
        assert_eq!(r["id"], id);
        assert_eq!(r["error"]["code"], -32602, "{r}");
    }
    p.send_raw("   ");
    // Still working, and the server never saw any of the lines above.
    assert_eq!(p.request("ping", json!({}))["result"]["method"], "ping");
    let lines = host_lines(&record);
    assert_eq!(
        lines.len(),
        3,
        "initialize, initialized, ping only: {lines:?}"
    );
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("tools/call") || l.contains("not json"))
    );
}

#[test]
fn malformed_server_lines_pass_to_the_host_and_do_not_stop_the_proxy() {
    let (mut p, _) = started(&[], &[]);
    p.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "test/garbage"}));
    assert_eq!(p.recv_raw(), "this is not json {");
    assert_eq!(p.response_to(&json!(1))["result"], json!({}));
    assert_eq!(p.request("ping", json!({}))["result"]["method"], "ping");
}

#[test]
fn batches_are_rewritten_element_by_element() {
    let (mut p, record) = started(&[], &[]);
    p.request("tools/list", json!({}));
    p.send(&json!([
        {"jsonrpc": "2.0", "id": "b1", "method": "ping"},
        {"jsonrpc": "2.0", "id": "b2", "method": "tools/call", "params": {"name": "echo", "arguments": {"message": "hi"}}},
        {"jsonrpc": "2.0", "id": "b3", "method": "tools/call", "params": {"name": "echo", "arguments": 5}}
    ]));
    let bad = p.recv();
    assert_eq!(bad["id"], "b3");
    assert_eq!(bad["error"]["code"], -32602);
    p.request("ping", json!({}));
    let batch = host_lines(&record)
        .into_iter()
        .find(|l| l.contains("\"b1\""))
        .unwrap();
    let batch: Value = serde_json::from_str(&batch).unwrap();
    let ids: Vec<&Value> = batch.as_array().unwrap().iter().map(|m| &m["id"]).collect();
    assert_eq!(ids, [&json!("b1"), &json!("b2")]);
}

#[test]
fn a_five_megabyte_argument_goes_through() {
    // Size, not speed, is under test: a budget no loaded test machine comes near.
    let (mut p, _) = started(&["--call-budget", "300s"], &[]);
    p.request("tools/list", json!({}));
    let message = "The forecast calls for light rain over the hills. ".repeat(100_000);
    assert!(message.len() >= 5_000_000);
    let r = p.call_tool("echo", json!({"message": message}));
    let got = server_got(&r);
    assert_eq!(got["message"].as_str().map(str::len), Some(message.len()));
}

#[test]
fn oversized_messages_are_dropped_with_a_note() {
    let (mut p, record) = started(&["--max-message-bytes", "2000"], &[]);
    let big = json!({"jsonrpc": "2.0", "method": "notifications/big", "params": {"pad": "x".repeat(5000)}});
    p.send(&big);
    assert_eq!(p.request("ping", json!({}))["result"]["method"], "ping");
    assert!(
        !host_lines(&record)
            .iter()
            .any(|l| l.contains("notifications/big"))
    );
    let (_, stderr, _) = p.wait();
    assert!(
        stderr.contains("dropped a message from the host"),
        "{stderr}"
    );
}

#[test]
fn the_proxy_lists_tools_itself_and_hides_the_answers() {
    let (mut p, record) = started(&[], &["--page-size", "1"]);
    // The proxy's own requests and their answers never show to the host: the next message
    // after initialization is the ping's answer.
    let own = || -> Vec<String> {
        recorded(&record)
            .into_iter()
            .filter(|l| l.contains("toolminimize-proxy-tools-list"))
            .collect()
    };
    let deadline = std::time::Instant::now() + mcp_common::PATIENCE;
    while own().len() < 3 && std::time::Instant::now() < deadline {
        assert_eq!(p.request("ping", json!({}))["result"]["method"], "ping");
    }
    let own = own();
    assert_eq!(own.len(), 3, "one request per page of one tool: {own:?}");
    assert!(own[1].contains(r#""cursor":"1""#), "{own:?}");
}

#[test]
fn tool_list_changes_refresh_the_cache() {
    let audit = scratch("audit.jsonl");
    let audit_arg = audit.display().to_string();
    let (mut p, _) = started(&["--audit-log", &audit_arg], &[]);
    p.request("ping", json!({}));
    p.call_tool("lookup_order", json!({"order_id": "A-17"}));
    p.send(&json!({"jsonrpc": "2.0", "id": "lc", "method": "test/list_changed"}));
    let note = p.recv();
    assert_eq!(note["method"], "notifications/tools/list_changed");
    p.response_to(&json!("lc"));
    // The refresh is on its way; a ping round trip orders it before the next call.
    p.request("ping", json!({}));
    p.call_tool("lookup_order", json!({"order_id": "A-17"}));
    let records = audit_records(&audit);
    let listed: Vec<(&Value, &Value)> =
        records.iter().map(|r| (&r["tool"], &r["listed"])).collect();
    assert_eq!(
        listed,
        [
            (&json!("lookup_order"), &json!(false)),
            (&json!("lookup_order"), &json!(true))
        ]
    );
}

#[test]
fn unlisted_tools_are_minimized_blocked_or_forwarded_as_configured() {
    let args = json!({"order_id": "A-17"});
    let (mut p, _) = started(&[], &[]);
    let r = p.call_tool("hidden_lookup", args.clone());
    assert_eq!(r["result"]["isError"], Value::Null);
    let (mut p, record) = started(&["--unlisted-tools", "block"], &[]);
    let r = p.call_tool("hidden_lookup", args.clone());
    assert_eq!(r["result"]["isError"], true);
    assert!(
        r["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("did not list")
    );
    assert!(
        !host_lines(&record)
            .iter()
            .any(|l| l.contains("hidden_lookup"))
    );
    let (mut p, _) = started(&["--unlisted-tools", "forward"], &[]);
    assert_eq!(
        server_got(&p.call_tool("hidden_lookup", args.clone())),
        args
    );
}

#[test]
fn the_audit_log_has_one_record_per_call_and_no_values() {
    let audit = scratch("audit.jsonl");
    let audit_arg = audit.display().to_string();
    let (mut p, _) = started(&["--audit-log", &audit_arg], &[]);
    p.request("tools/list", json!({}));
    p.call_tool(
        "get_forecast",
        json!({"city": "Lyon", "contact_email": "jane.doe@example.com", "note": "SSN 078-05-1120"}),
    );
    p.call_tool("echo", json!({"message": "hello"}));
    p.send(&json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "echo", "arguments": [1]}}));
    p.recv();
    let _ = p.wait();
    let text = std::fs::read_to_string(&audit).unwrap();
    assert!(
        !text.contains("jane.doe") && !text.contains("078-05-1120") && !text.contains("Lyon"),
        "{text}"
    );
    let records = audit_records(&audit);
    assert_eq!(records.len(), 3);
    for r in &records {
        for key in [
            "time",
            "tool",
            "outcome",
            "cost_before",
            "cost_after",
            "paths",
            "categories",
            "ops",
        ] {
            assert!(r.get(key).is_some(), "{key} missing in {r}");
        }
    }
    assert_eq!(records[0]["tool"], "get_forecast");
    assert_eq!(records[0]["listed"], true);
    assert_eq!(records[2]["outcome"], "rejected");
}

#[test]
fn calls_the_policy_blocks_are_answered_by_the_proxy() {
    let policy = scratch("policy.json");
    std::fs::write(&policy, r#"{"block": {"tools": ["echo"]}}"#).unwrap();
    let audit = scratch("audit.jsonl");
    let (policy_arg, audit_arg) = (policy.display().to_string(), audit.display().to_string());
    let (mut p, record) = started(&["--policy", &policy_arg, "--audit-log", &audit_arg], &[]);
    p.request("tools/list", json!({}));
    let r = p.call_tool("echo", json!({"message": "hello"}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert!(
        r["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("blocks"),
        "{r}"
    );
    let other = p.call_tool("get_forecast", json!({"city": "Lyon"}));
    assert_eq!(server_got(&other), json!({"city": "Lyon"}));
    assert!(!host_lines(&record).iter().any(|l| l.contains("\"echo\"")));
    let records = audit_records(&audit);
    assert_eq!(records[0]["outcome"], "blocked");
    assert_eq!(records[1]["outcome"], "forwarded");
}

#[test]
fn host_hang_up_closes_the_server_and_its_exit_code_is_propagated() {
    let (p, record) = started(&[], &["--exit-code", "7"]);
    let (status, stderr, _) = p.wait();
    assert_eq!(status.code(), Some(7), "{stderr}");
    assert!(!stderr.contains("crashed"), "{stderr}");
    assert!(
        recorded(&record)
            .iter()
            .any(|l| l.contains("notifications/initialized"))
    );
}

#[test]
fn a_crashing_server_ends_the_proxy_with_a_clear_message() {
    let (mut p, _) = started(&[], &[]);
    p.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "test/crash"}));
    let (status, stderr, _) = p.wait_for_exit();
    assert_eq!(status.code(), Some(3));
    assert!(
        stderr.contains("MCP server")
            && stderr.contains("crashed")
            && stderr.contains("exit status 3"),
        "{stderr}"
    );
}

#[test]
fn a_server_that_ignores_the_hang_up_is_terminated() {
    let (p, _) = started(&["--shutdown-timeout", "1"], &["--ignore-eof"]);
    let (status, stderr, _) = p.wait();
    assert!(stderr.contains("did not exit"), "{stderr}");
    assert_eq!(status.code(), Some(128 + 15), "{stderr}");
}

#[test]
fn a_server_that_ignores_sigterm_is_killed() {
    let (p, _) = started(
        &["--shutdown-timeout", "1"],
        &["--ignore-eof", "--ignore-sigterm"],
    );
    let (status, stderr, _) = p.wait();
    assert!(stderr.contains("did not exit"), "{stderr}");
    assert_eq!(status.code(), Some(128 + 9), "{stderr}");
}

#[test]
fn a_missing_server_command_is_a_clear_error() {
    let p = Proxy::start(&[], &["/nonexistent/mcp-server".to_owned()]);
    let (status, stderr, _) = p.wait();
    assert_eq!(status.code(), Some(2));
    assert!(stderr.contains("cannot start the MCP server"), "{stderr}");
}

#[test]
fn an_unreadable_policy_is_a_clear_error() {
    let (server, _) = fake_server(&[]);
    let p = Proxy::start(&["--policy", "/nonexistent/policy.json"], &server);
    let (status, stderr, _) = p.wait();
    assert_eq!(status.code(), Some(2));
    assert!(stderr.contains("cannot read policy"), "{stderr}");
}

// --- Over-sharing: what the server receives once the pipeline has minimized the call. ---

#[test]
fn optional_fields_with_personal_data_do_not_reach_the_server() {
    let (mut p, _) = started(&[], &[]);
    p.request("tools/list", json!({}));
    let got = server_got(&p.call_tool(
        "get_forecast",
        json!({"city": "Lyon", "days": 2, "note": "my SSN is 078-05-1120, reach me at jane.doe@example.com"}),
    ));
    assert_eq!(got["city"], "Lyon");
    assert_eq!(got["days"], 2);
    assert!(!got.to_string().contains("078-05-1120"), "{got}");
    assert!(!got.to_string().contains("jane.doe@example.com"), "{got}");
}

#[test]
fn unlisted_tools_are_minimized_conservatively() {
    let (mut p, _) = started(&[], &[]);
    let got = server_got(&p.call_tool(
        "hidden_lookup",
        json!({"order_id": "A-17", "customer_ssn": "078-05-1120"}),
    ));
    assert_eq!(got["order_id"], "A-17");
    assert!(!got.to_string().contains("078-05-1120"), "{got}");
}

// --- Every request answered, in bounded time (regressions for the hostile-input report). ---

#[test]
fn a_ping_after_a_call_with_a_million_elements_is_answered_first() {
    let (mut p, _) = started(&[], &[]);
    p.request("tools/list", json!({}));
    let items: Vec<u32> = (0..1_000_000).collect();
    p.send(
        &json!({"jsonrpc": "2.0", "id": "big", "method": "tools/call",
        "params": {"name": "echo", "arguments": {"message": "hi", "items": items}}}),
    );
    p.send(&json!({"jsonrpc": "2.0", "id": "ping-after", "method": "ping"}));
    // The ping's answer comes first: the call is minimized off the reader's path.
    let first = p.recv();
    assert_eq!(
        first["id"],
        "ping-after",
        "{}",
        &first.to_string()[..200.min(first.to_string().len())]
    );
    // The call is answered too: forwarded, or an error once over the time budget.
    let call = p.response_to(&json!("big"));
    assert!(
        call.get("result").is_some() || call["error"]["code"] == -32603,
        "{}",
        call.get("error").cloned().unwrap_or_default()
    );
}

#[test]
fn an_oversized_request_is_answered_with_its_id() {
    let (mut p, record) = started(&["--max-message-bytes", "2000"], &[]);
    p.request("tools/list", json!({}));
    // The id comes after the long part, as a host may write it.
    let line = format!(
        r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"name":"echo","arguments":{{"message":"{}"}}}},"id":"too-big"}}"#,
        "y".repeat(10_000)
    );
    p.send_raw(&line);
    let r = p.response_to(&json!("too-big"));
    assert_eq!(r["error"]["code"], -32600, "{r}");
    assert!(
        r["error"]["message"].as_str().unwrap().contains("limit"),
        "{r}"
    );
    assert_eq!(p.request("ping", json!({}))["result"]["method"], "ping");
    assert!(!host_lines(&record).iter().any(|l| l.contains("too-big")));
}

#[test]
fn an_unparsable_request_with_a_readable_id_is_answered_with_that_id() {
    let (mut p, record) = started(&[], &[]);
    p.send_raw(r#"{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"echo","arguments":{"message":"#);
    let r = p.recv();
    assert_eq!(r["id"], 77, "{r}");
    assert_eq!(r["error"]["code"], -32700);
    p.send_raw(r#"{"jsonrpc":"2.0","id":"m","method":5}"#);
    let r = p.recv();
    assert_eq!(r["id"], "m", "{r}");
    assert_eq!(r["error"]["code"], -32600);
    // A UTF-8 byte order mark does not make a line unreadable.
    p.send_raw("\u{feff}{\"jsonrpc\":\"2.0\",\"id\":\"bom\",\"method\":\"ping\"}");
    assert_eq!(p.response_to(&json!("bom"))["result"]["method"], "ping");
    assert!(!host_lines(&record).iter().any(|l| l.contains("\"id\":77")));
}

#[test]
fn an_oversized_server_response_becomes_an_error_with_its_id() {
    let (mut p, _) = started(&["--max-message-bytes", "5000"], &[]);
    let r = p.request("test/big_response", json!({"bytes": 20_000}));
    assert_eq!(r["error"]["code"], -32600, "{r}");
    assert!(
        r["error"]["message"].as_str().unwrap().contains("server"),
        "{r}"
    );
    assert_eq!(p.request("ping", json!({}))["result"]["method"], "ping");
}

fn big_call(id: &str) -> Value {
    let items: Vec<String> = (0..200_000).map(|i| format!("item {i}")).collect();
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "echo", "arguments": {"message": "hello", "items": items}}})
}

#[test]
fn a_call_over_the_time_budget_fails_closed_and_is_not_forwarded() {
    let audit = scratch("audit.jsonl");
    let audit_arg = audit.display().to_string();
    let (mut p, record) = started(&["--call-budget", "1ms", "--audit-log", &audit_arg], &[]);
    p.request("tools/list", json!({}));
    p.send(&big_call("slow"));
    let r = p.response_to(&json!("slow"));
    assert_eq!(r["error"]["code"], -32603, "{r}");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("time budget"),
        "{r}"
    );
    assert_eq!(p.request("ping", json!({}))["result"]["method"], "ping");
    assert!(!host_lines(&record).iter().any(|l| l.contains("\"slow\"")));
    let records = audit_records(&audit);
    assert_eq!(records.last().unwrap()["outcome"], "blocked");
}

#[test]
fn a_call_over_the_time_budget_goes_unchanged_when_the_policy_fails_open() {
    let policy = scratch("policy.json");
    std::fs::write(&policy, r#"{"fail_mode": "open"}"#).unwrap();
    let policy_arg = policy.display().to_string();
    let (mut p, record) = started(&["--call-budget", "1ms", "--policy", &policy_arg], &[]);
    p.request("tools/list", json!({}));
    p.send(&big_call("slow"));
    let r = p.response_to(&json!("slow"));
    assert_eq!(
        server_got(&r)["items"].as_array().map(Vec::len),
        Some(200_000)
    );
    assert!(host_lines(&record).iter().any(|l| l.contains("\"slow\"")));
}

#[test]
fn personal_data_under_params_other_than_arguments_does_not_reach_the_server() {
    let (mut p, record) = started(&[], &[]);
    p.request("tools/list", json!({}));
    p.send(
        &json!({"jsonrpc": "2.0", "id": "m1", "method": "tools/call", "params": {
            "_meta": {
                "progressToken": "tok-1",
                "io.modelcontextprotocol/clientInfo": {"name": "raw-test-host", "version": "1"},
                "com.example/caller": {"email": "jane.doe@example.com", "ssn": "078-05-1120"}
            },
            "name": "echo",
            "arguments": {"message": "the weather is nice"},
            "x-caller-note": "reach me at +1 415 555 0134"
        }}),
    );
    let r = p.response_to(&json!("m1"));
    let params = &r["result"]["structuredContent"]["params"];
    assert_eq!(params["_meta"]["progressToken"], "tok-1");
    assert_eq!(
        params["_meta"]["io.modelcontextprotocol/clientInfo"]["name"],
        "raw-test-host"
    );
    let line = host_lines(&record)
        .into_iter()
        .find(|l| l.contains("\"m1\""))
        .unwrap();
    for value in ["jane.doe@example.com", "078-05-1120", "415 555 0134"] {
        assert!(!line.contains(value), "{value} reached the server: {line}");
    }
    // With --other-params drop they are gone whole.
    let (mut p, _) = started(&["--other-params", "drop"], &[]);
    p.request("tools/list", json!({}));
    let r = p.request(
        "tools/call",
        json!({"_meta": {"progressToken": 2, "com.example/trace": "abc"},
        "name": "echo", "arguments": {"message": "hi"}, "extra": 1}),
    );
    assert_eq!(
        r["result"]["structuredContent"]["params"],
        json!({"_meta": {"progressToken": 2}, "name": "echo"})
    );
}

#[test]
fn a_call_cancelled_while_it_is_minimized_never_reaches_the_server() {
    let (mut p, record) = started(&[], &[]);
    p.request("tools/list", json!({}));
    p.send(&big_call("cancel-me"));
    p.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "cancel-me"}}));
    // Whatever the order, the proxy stays responsive; a cancellation that came in time keeps
    // the call from the server, and one that came late is forwarded for the server to act on.
    assert_eq!(p.request("ping", json!({}))["result"]["method"], "ping");
    let lines = host_lines(&record);
    let call_sent = lines
        .iter()
        .any(|l| l.contains("\"cancel-me\"") && l.contains("tools/call"));
    let cancel_sent = lines.iter().any(|l| l.contains("notifications/cancelled"));
    assert!(
        call_sent || !cancel_sent,
        "a cancellation was forwarded for a call the server never saw"
    );
}
