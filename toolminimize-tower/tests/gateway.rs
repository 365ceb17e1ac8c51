//! The HTTP gateway on loopback: a real upstream tool server, the gateway in front of it, and a
//! client speaking plain HTTP/1.1 over a TCP socket.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::net::SocketAddr;
use std::sync::{Arc, LazyLock, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::routing;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use toolminimize_core::{Detector, Field};
use toolminimize_core::{Finding, PsdKind};
use toolminimize_core::{Minimizer, MinimizerBuilder, Policy, ToolDef};
use toolminimize_tower::ToolRegistry;
use toolminimize_tower::gateway::{CALL_PATH, Gateway};

const EMP: &str = "EMP-004211";

/// Finds employee numbers such as `EMP-004211` (a user-supplied detector, so these tests do not
/// depend on which built-in detectors exist).
#[derive(Debug)]
struct EmployeeNumbers;

impl Detector for EmployeeNumbers {
    fn name(&self) -> &'static str {
        "employee_number"
    }
    fn detect(&self, text: &str, _field: &Field<'_>, out: &mut Vec<Finding>) {
        for (i, _) in text.match_indices("EMP-") {
            let digits = text[i + 4..]
                .chars()
                .take_while(char::is_ascii_digit)
                .count();
            if digits > 0 {
                out.push(Finding::new(
                    i..i + 4 + digits,
                    PsdKind::AccountId,
                    0.95,
                    "employee_number",
                ));
            }
        }
    }
}

/// A detector with a bug: it panics on every string.
#[derive(Debug)]
struct Faulty;

impl Detector for Faulty {
    fn name(&self) -> &'static str {
        "faulty"
    }
    fn detect(&self, _text: &str, _field: &Field<'_>, _out: &mut Vec<Finding>) {
        panic!("detector bug");
    }
}

fn registry() -> ToolRegistry {
    ToolRegistry::new().with_tool(ToolDef::new(
        "web_search",
        "Search the web",
        json!({
            "type": "object",
            "properties": {"query": {"type": "string"}, "notes": {"type": "string"}},
            "required": ["query"]
        }),
    ))
}

/// The default policy with [`EmployeeNumbers`], built once per test binary: building a
/// minimizer compiles every lexicon.
fn plain() -> Minimizer {
    static PLAIN: LazyLock<Minimizer> = LazyLock::new(|| builder("{}").build().unwrap());
    PLAIN.clone()
}

fn builder(policy: &str) -> MinimizerBuilder {
    Minimizer::builder()
        .policy(Policy::from_json_str(policy).unwrap())
        .detector(EmployeeNumbers)
}

type Received = Arc<Mutex<Vec<Value>>>;

/// An upstream tool server on loopback that records every body it receives.
async fn upstream() -> (String, Received) {
    async fn record(
        State(seen): State<Received>,
        body: Bytes,
    ) -> ([(&'static str, &'static str); 1], String) {
        seen.lock()
            .unwrap()
            .push(serde_json::from_slice(&body).unwrap());
        (
            [("content-type", "application/json")],
            json!({"content": [{"type": "text", "text": "done"}]}).to_string(),
        )
    }
    let seen = Received::default();
    let app = Router::new()
        .route(CALL_PATH, routing::post(record))
        .with_state(Arc::clone(&seen));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}{CALL_PATH}"), seen)
}

/// The gateway on loopback, in front of `upstream_url`.
async fn gateway(upstream_url: &str, minimizer: Minimizer) -> SocketAddr {
    let gateway = Gateway::new(upstream_url, minimizer)
        .unwrap()
        .registry(registry());
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(gateway.serve(listener));
    addr
}

struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Value,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// POSTs `body` with a plain HTTP/1.1 exchange and reads the whole reply.
async fn post_raw(addr: SocketAddr, body: &[u8]) -> Reply {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST {CALL_PATH} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();

    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a complete HTTP head");
    let head = std::str::from_utf8(&raw[..split]).unwrap();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let mut payload = raw[split + 4..].to_vec();
    if headers
        .iter()
        .any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"))
    {
        payload = dechunk(&payload);
    }
    let body = serde_json::from_slice(&payload).unwrap_or(Value::Null);
    Reply {
        status,
        headers,
        body,
    }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let eol = data.windows(2).position(|w| w == b"\r\n").unwrap();
        let size =
            usize::from_str_radix(std::str::from_utf8(&data[..eol]).unwrap().trim(), 16).unwrap();
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&data[eol + 2..eol + 2 + size]);
        data = &data[eol + 2 + size + 2..];
    }
}

async fn post(addr: SocketAddr, body: &Value) -> Reply {
    post_raw(addr, body.to_string().as_bytes()).await
}

#[tokio::test]
async fn the_upstream_receives_only_minimized_arguments_of_an_mcp_call() {
    let (url, seen) = upstream().await;
    let gw = gateway(&url, plain()).await;

    let reply = post(
        gw,
        &json!({"name": "web_search", "arguments": {"query": "library opening hours", "notes": format!("ask for {EMP}")},
                "task_context": "when does the library open?", "session": "conv-42"}),
    )
    .await;

    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.body,
        json!({"content": [{"type": "text", "text": "done"}]})
    );
    assert_eq!(reply.header("x-toolminimize-items"), Some("1"));
    assert_eq!(reply.header("x-toolminimize-changed"), Some("true"));
    assert_eq!(reply.header("x-toolminimize-cost-after"), Some("0"));
    let seen = seen.lock().unwrap();
    assert_eq!(
        seen.as_slice(),
        [json!({"name": "web_search", "arguments": {"query": "library opening hours"}})],
        "minimized, and without the task context and session"
    );
}

#[tokio::test]
async fn openai_tool_calls_are_forwarded_in_their_own_shape() {
    let (url, seen) = upstream().await;
    let gw = gateway(&url, plain()).await;
    let arguments =
        json!({"query": "library opening hours", "notes": format!("ask for {EMP}")}).to_string();

    let reply = post(
        gw,
        &json!({"id": "call_7", "type": "function", "function": {"name": "web_search", "arguments": arguments}}),
    )
    .await;

    assert_eq!(reply.status, 200);
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0]["id"], "call_7");
    assert_eq!(seen[0]["function"]["name"], "web_search");
    let sent: Value =
        serde_json::from_str(seen[0]["function"]["arguments"].as_str().unwrap()).unwrap();
    assert_eq!(sent, json!({"query": "library opening hours"}));
}

#[tokio::test]
async fn malformed_json_is_a_400_with_a_clear_message_and_nothing_is_forwarded() {
    let (url, seen) = upstream().await;
    let gw = gateway(&url, plain()).await;

    let reply = post_raw(
        gw,
        format!(r#"{{"name": "web_search", "arguments": {{"notes": "{EMP}"#).as_bytes(),
    )
    .await;
    assert_eq!(reply.status, 400);
    assert_eq!(
        reply.body["error"],
        "the request body ends in the middle of a JSON value (line 1, column 57)"
    );

    let reply = post_raw(
        gw,
        br#"{"name": "web_search", "arguments": "{\"query\": oops}"}"#,
    )
    .await;
    assert_eq!(reply.status, 400);
    assert!(
        reply.body["error"]
            .as_str()
            .unwrap()
            .starts_with("`arguments` is not valid JSON")
    );

    let reply = post(gw, &json!({"arguments": {"query": "x"}})).await;
    assert_eq!(reply.status, 400);
    assert!(reply.body["error"].as_str().unwrap().contains("no `name`"));

    assert!(seen.lock().unwrap().is_empty());
}

#[tokio::test]
async fn an_unknown_tool_is_minimized_with_conservative_defaults() {
    let (url, seen) = upstream().await;
    let gw = gateway(&url, plain()).await;

    let reply = post(
        gw,
        &json!({"name": "send_sms", "arguments": {"message": "running late", "notes": format!("from staff member {EMP}")}}),
    )
    .await;

    assert_eq!(reply.status, 200);
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0]["name"], "send_sms");
    assert!(!seen[0].to_string().contains(EMP), "{}", seen[0]);
    assert_eq!(seen[0]["arguments"]["message"], "running late");
}

#[tokio::test]
async fn under_fail_closed_an_internal_failure_forwards_nothing() {
    let (url, seen) = upstream().await;
    let gw = gateway(&url, builder("{}").detector(Faulty).build().unwrap()).await;

    let reply = post(
        gw,
        &json!({"name": "web_search", "arguments": {"query": format!("who is {EMP}")}}),
    )
    .await;

    assert_eq!(reply.status, 422);
    assert_eq!(reply.body["blocked"], true);
    assert_eq!(reply.body["reason"], "internal");
    assert!(!reply.body.to_string().contains(EMP));
    assert!(seen.lock().unwrap().is_empty());

    // Only a fail-open policy forwards the call, unchanged.
    let open = gateway(
        &url,
        builder(r#"{"fail_mode": "open"}"#)
            .detector(Faulty)
            .build()
            .unwrap(),
    )
    .await;
    let reply = post(
        open,
        &json!({"name": "web_search", "arguments": {"query": format!("who is {EMP}")}}),
    )
    .await;
    assert_eq!(reply.status, 200);
    assert_eq!(
        seen.lock().unwrap()[0]["arguments"]["query"],
        format!("who is {EMP}")
    );
}

#[tokio::test]
async fn arguments_too_deep_to_parse_are_rejected_and_not_forwarded() {
    let (url, seen) = upstream().await;
    let gw = gateway(&url, plain()).await;
    let depth = toolminimize_core::MAX_DEPTH + 1;
    let body = format!(
        r#"{{"name": "web_search", "arguments": {{"query": "q", "notes": {}1{}}}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let reply = post_raw(gw, body.as_bytes()).await;
    assert_eq!(reply.status, 400);
    assert!(seen.lock().unwrap().is_empty());
}

#[tokio::test]
async fn a_policy_blocked_tool_is_a_403_and_nothing_is_forwarded() {
    let (url, seen) = upstream().await;
    let gw = gateway(
        &url,
        builder(r#"{"block": {"tools": ["run_shell"]}}"#)
            .build()
            .unwrap(),
    )
    .await;

    let reply = post(
        gw,
        &json!({"name": "run_shell", "arguments": {"cmd": "cat /etc/shadow"}}),
    )
    .await;

    assert_eq!(reply.status, 403);
    assert_eq!(reply.body["reason"], "tool_blocked");
    assert!(reply.body["error"].as_str().unwrap().contains("run_shell"));
    assert!(!reply.body.to_string().contains("shadow"));
    assert!(seen.lock().unwrap().is_empty());
}

#[tokio::test]
async fn an_unreachable_upstream_is_a_502() {
    let closed = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}{CALL_PATH}", closed.local_addr().unwrap());
    drop(closed);
    let gw = gateway(&url, plain()).await;
    let reply = post(
        gw,
        &json!({"name": "web_search", "arguments": {"query": "q"}}),
    )
    .await;
    assert_eq!(reply.status, 502);
    assert!(reply.body["error"].as_str().unwrap().contains("upstream"));
}

#[test]
fn only_absolute_http_upstreams_are_accepted() {
    let m = plain();
    assert!(Gateway::new("http://127.0.0.1:9000/tools/call", m.clone()).is_ok());
    for bad in [
        "https://tools.example/call",
        "/tools/call",
        "not a url",
        "ftp://x/y",
    ] {
        assert!(Gateway::new(bad, m.clone()).is_err(), "{bad}");
    }
}

/// The built-in detectors at work through the gateway.
#[tokio::test]
async fn built_in_detection_removes_an_ssn_from_a_query_and_drops_a_phone_number() {
    let (url, seen) = upstream().await;
    let gw = gateway(&url, Minimizer::new().unwrap()).await;
    let reply = post(
        gw,
        &json!({"name": "web_search", "arguments": {
            "query": "IRS refund status for SSN 078-05-1120", "notes": "my cell is +1 415 555 0132"}}),
    )
    .await;
    assert_eq!(reply.status, 200);
    let seen = seen.lock().unwrap();
    let sent = &seen[0]["arguments"];
    assert!(!sent.to_string().contains("078-05-1120"), "{sent}");
    assert!(sent.get("notes").is_none(), "{sent}");
    assert!(sent["query"].as_str().unwrap().contains("refund"), "{sent}");
}
