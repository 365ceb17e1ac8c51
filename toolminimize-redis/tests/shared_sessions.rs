//! Two gateway replicas sharing one real `redis-server` on loopback: a conversation's state
//! follows it from one replica to the other, and Redis going away mid-conversation makes the
//! gateways fail closed. The server is the Debian package `redis-server`; when it is missing,
//! `.ci/setup-redis.sh` installs it, and when that cannot run the tests say so and pass.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::routing;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use toolminimize_core::store::{SessionKey, SessionStore};
use toolminimize_core::{Minimizer, Session, ToolDef};
use toolminimize_redis::RedisStore;
use toolminimize_tower::ToolRegistry;
use toolminimize_tower::gateway::{CALL_PATH, Gateway};

/// A `redis-server` of our own on a free loopback port; killed on drop.
struct RedisServer {
    child: Child,
    port: u16,
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn redis_binary() -> Option<PathBuf> {
    let find = || {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join("redis-server"))
                .find(|p| p.is_file())
        })
    };
    if let Some(p) = find() {
        return Some(p);
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.ci/setup-redis.sh");
    let ok = Command::new("bash")
        .arg(&script)
        .stdin(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if ok { find() } else { None }
}

fn start_redis() -> Option<RedisServer> {
    let Some(bin) = redis_binary() else {
        eprintln!("redis-server is not installed and could not be installed: skipping");
        return None;
    };
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(bin)
        .args([
            "--port",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let server = RedisServer { child, port };
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) {
            let mut buf = [0u8; 7];
            if s.write_all(b"PING\r\n").is_ok()
                && s.read_exact(&mut buf).is_ok()
                && &buf == b"+PONG\r\n"
            {
                return Some(server);
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("redis-server did not start on port {port}");
}

type Received = Arc<Mutex<Vec<Value>>>;

async fn upstream() -> (String, Received) {
    async fn record(State(seen): State<Received>, body: Bytes) -> String {
        seen.lock()
            .unwrap()
            .push(serde_json::from_slice(&body).unwrap());
        json!({"content": [{"type": "text", "text": "done"}]}).to_string()
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

fn tool() -> ToolDef {
    ToolDef::from_json(
        &json!({"name": "ask_assistant_agent", "description": "Ask a research agent",
        "inputSchema": {"type": "object", "properties": {
            "question": {"type": "string"},
            "profile": {"type": "string", "x-psd-category": "identity"}},
        "required": ["question"]}}),
    )
    .unwrap()
}

/// The same secret on every replica.
const KEY: [u8; 16] = *b"an-invented-key!";

async fn replica(upstream: &str, redis_port: u16) -> SocketAddr {
    let store = RedisStore::open(
        &format!("redis://127.0.0.1:{redis_port}/"),
        SessionKey::from_bytes(KEY),
    )
    .unwrap()
    .timeout(Duration::from_millis(300));
    let gateway = Gateway::new(upstream, Minimizer::new().unwrap())
        .unwrap()
        .registry(ToolRegistry::new().with_tool(tool()))
        .session_store(Arc::new(store));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(gateway.serve(listener));
    addr
}

async fn post(addr: SocketAddr, body: &Value) -> (u16, String) {
    let body = body.to_string();
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST {CALL_PATH} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, text)
}

fn call(session: &str, arguments: Value) -> Value {
    json!({"name": "ask_assistant_agent", "arguments": arguments, "session": session})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_share_a_conversation_and_catch_a_dribbled_fragment() {
    let Some(redis) = start_redis() else { return };
    let (url, seen) = upstream().await;
    let a = replica(&url, redis.port).await;
    let b = replica(&url, redis.port).await;

    // Call 1, on replica A: the name goes where the schema asks for it.
    let (status, _) = post(
        a,
        &call(
            "conv-1",
            json!({"question": "visa rules", "profile": "Ines Duarte"}),
        ),
    )
    .await;
    assert_eq!(status, 200);
    // Call 2, on replica B: an occupation in free text would complete name + occupation at
    // the same tool. B knows what A sent, through Redis.
    let (status, _) = post(
        b,
        &call(
            "conv-1",
            json!({"question": "what does a pediatric nurse earn"}),
        ),
    )
    .await;
    assert_eq!(status, 200);
    let received = seen.lock().unwrap().clone();
    assert_eq!(received.len(), 2);
    assert_eq!(received[0]["arguments"]["profile"], "Ines Duarte");
    let q = received[1]["arguments"]["question"].as_str().unwrap();
    assert!(
        !q.contains("nurse"),
        "replica B forwarded the fragment: {q}"
    );

    // The control: a conversation B has never seen before keeps it (no session history).
    let (status, _) = post(
        b,
        &call(
            "conv-2",
            json!({"question": "what does a pediatric nurse earn"}),
        ),
    )
    .await;
    assert_eq!(status, 200);
    let q = seen.lock().unwrap()[2]["arguments"]["question"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(q.contains("nurse"), "{q}");

    // What Redis holds: keyed hashes and kinds, never a value, a tool name or a session id.
    let store = RedisStore::open(
        &format!("redis://127.0.0.1:{}/", redis.port),
        SessionKey::from_bytes(KEY),
    )
    .unwrap();
    let state = store.load("conv-1").unwrap();
    assert_eq!(state.calls, 2);
    let dump = format!("{state:?}");
    for value in ["Ines", "Duarte", "nurse", "conv-1", "ask_assistant_agent"] {
        assert!(!dump.contains(value), "{value} in {dump}");
    }
    let session = Session::in_store("conv-1", Arc::new(store));
    assert_eq!(session.calls_seen(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_going_away_mid_conversation_fails_closed() {
    let Some(redis) = start_redis() else { return };
    let (url, seen) = upstream().await;
    let a = replica(&url, redis.port).await;
    let b = replica(&url, redis.port).await;
    let (status, _) = post(
        a,
        &call(
            "conv-9",
            json!({"question": "visa rules", "profile": "Ines Duarte"}),
        ),
    )
    .await;
    assert_eq!(status, 200);
    drop(redis); // Redis goes away.
    for gw in [a, b] {
        let (status, text) = post(
            gw,
            &call(
                "conv-9",
                json!({"question": "visa rules for someone born 1990-04-12, any exemptions?"}),
            ),
        )
        .await;
        assert_eq!(status, 422, "{text}");
        assert!(text.contains("\"blocked\":true"), "{text}");
        assert!(!text.contains("1990-04-12"), "{text}");
    }
    // Nothing reached the upstream after Redis went away.
    assert_eq!(seen.lock().unwrap().len(), 1);
    // A call outside any session does not need the store and still goes through.
    let (status, _) = post(
        b,
        &json!({"name": "ask_assistant_agent", "arguments": {"question": "visa rules"}}),
    )
    .await;
    assert_eq!(status, 200);
}

#[test]
fn an_unreachable_redis_is_a_store_error_without_values() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let store = RedisStore::open(
        &format!("redis://127.0.0.1:{port}/"),
        SessionKey::from_bytes(KEY),
    )
    .unwrap();
    let e = store.load("conv-secret").unwrap_err();
    assert!(!e.to_string().contains("conv-secret"), "{e}");
    assert!(e.to_string().contains("redis"), "{e}");
}
