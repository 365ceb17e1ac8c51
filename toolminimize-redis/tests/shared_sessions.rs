//! Two gateway replicas sharing one real `redis-server` on loopback: a conversation's state
//! follows it from one replica to the other, each call costs one round trip to Redis (two when
//! another replica changed what the call read), nothing but keyed hashes reaches Redis, and
//! Redis going away mid-conversation makes the gateways fail closed. The server is the Debian package `redis-server`; when it is missing,
//! `.ci/setup-redis.sh` installs it, and when that cannot run the tests say so and pass.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::routing;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use toolminimize_core::PsdKind;
use toolminimize_core::store::{Commit, SessionKey, SessionReads, SessionStore, SessionUpdate};
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

/// Sends one command in the inline protocol and returns the first line of the reply.
fn command(port: u16, line: &str) -> String {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(format!("{line}\r\n").as_bytes()).unwrap();
    let mut reply = String::new();
    BufReader::new(s).read_line(&mut reply).unwrap();
    reply
}

/// The commands clients send the server, as `MONITOR` shows them (the script's own commands,
/// which `MONITOR` shows as coming from `lua`, are kept apart).
struct Monitor {
    port: u16,
    lines: mpsc::Receiver<String>,
}

static MARKERS: AtomicUsize = AtomicUsize::new(0);

impl Monitor {
    fn start(port: u16) -> Monitor {
        let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.write_all(b"MONITOR\r\n").unwrap();
        let mut reader = BufReader::new(s);
        let mut ok = String::new();
        reader.read_line(&mut ok).unwrap();
        assert_eq!(ok.trim_end(), "+OK");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in reader.lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Monitor { port, lines }
    }

    /// Everything the server ran since the last call: (commands clients sent, commands the
    /// script ran).
    fn drain(&self) -> (Vec<String>, Vec<String>) {
        let marker = format!("end-of-step-{}", MARKERS.fetch_add(1, Ordering::SeqCst));
        command(self.port, &format!("ECHO {marker}"));
        let (mut clients, mut script) = (Vec::new(), Vec::new());
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(10))
                .expect("MONITOR went quiet");
            if line.contains(&marker) {
                return (clients, script);
            }
            if line.contains(" lua]") {
                script.push(line);
            } else {
                clients.push(line);
            }
        }
    }
}

/// The command a `MONITOR` line shows, lower-cased.
fn command_name(line: &str) -> String {
    line.split('"').nth(1).unwrap_or_default().to_lowercase()
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_call_is_one_round_trip_and_redis_sees_only_hashes() {
    let Some(redis) = start_redis() else { return };
    let (url, seen) = upstream().await;
    let a = replica(&url, redis.port).await;
    let b = replica(&url, redis.port).await;
    let monitor = Monitor::start(redis.port);
    let mut traffic = Vec::new();

    // Warm-up: each replica connects, and the first sends the script itself (EVAL).
    for gw in [a, b] {
        let (status, _) = post(gw, &call("conv-warm", json!({"question": "visa rules"}))).await;
        assert_eq!(status, 200);
    }
    let (clients, script) = monitor.drain();
    traffic.extend(clients.iter().chain(&script).cloned());

    // A conversation on one replica: one EVALSHA per call, nothing else.
    let questions = [
        json!({"question": "visa rules", "profile": "Ines Duarte"}),
        json!({"question": "visa rules for working holidays"}),
        json!({"question": "what does a pediatric nurse earn"}),
        json!({"question": "and in Lisbon?"}),
        json!({"question": "visa rules for someone born 1990-04-12"}),
    ];
    for q in &questions {
        let (status, _) = post(a, &call("conv-3", q.clone())).await;
        assert_eq!(status, 200);
    }
    let (clients, script) = monitor.drain();
    let names: Vec<String> = clients.iter().map(|l| command_name(l)).collect();
    assert_eq!(names, vec!["evalsha"; questions.len()], "{clients:#?}");
    traffic.extend(clients.iter().chain(&script).cloned());
    let forwarded = seen.lock().unwrap().clone();
    let last = forwarded.last().unwrap()["arguments"]["question"].to_string();
    assert!(!last.contains("1990-04-12"), "{last}");

    // Across replicas, with a stale copy: A saw the conversation's first call, B the second
    // (the name); A's copy does not know the tool has the name. A's call still costs one
    // round trip when nothing it read changed, and two (the second rewritten on what Redis
    // returned) when it did.
    let (status, _) = post(a, &call("conv-4", json!({"question": "visa rules"}))).await;
    assert_eq!(status, 200);
    let (status, _) = post(
        b,
        &call(
            "conv-4",
            json!({"question": "visa rules", "profile": "Ines Duarte"}),
        ),
    )
    .await;
    assert_eq!(status, 200);
    let (clients, script) = monitor.drain();
    assert_eq!(clients.len(), 2, "{clients:#?}");
    traffic.extend(clients.iter().chain(&script).cloned());
    let (status, _) = post(
        a,
        &call(
            "conv-4",
            json!({"question": "what does a pediatric nurse earn"}),
        ),
    )
    .await;
    assert_eq!(status, 200);
    let (clients, script) = monitor.drain();
    let names: Vec<String> = clients.iter().map(|l| command_name(l)).collect();
    assert_eq!(names, ["evalsha", "evalsha"], "{clients:#?}");
    traffic.extend(clients.iter().chain(&script).cloned());
    let q = seen.lock().unwrap().last().unwrap()["arguments"]["question"].to_string();
    assert!(
        !q.contains("nurse"),
        "replica A forwarded the fragment: {q}"
    );

    // The server lost its scripts (a restart, SCRIPT FLUSH): the next call sends the script
    // again and goes through.
    assert_eq!(command(redis.port, "SCRIPT FLUSH").trim_end(), "+OK");
    monitor.drain();
    let (status, _) = post(a, &call("conv-3", json!({"question": "visa rules"}))).await;
    assert_eq!(status, 200);
    let (clients, script) = monitor.drain();
    let names: Vec<String> = clients.iter().map(|l| command_name(l)).collect();
    assert_eq!(names, ["evalsha", "eval"], "{clients:#?}");
    traffic.extend(clients.iter().chain(&script).cloned());

    // Everything Redis was sent or ran: keyed hashes, counters and kinds only.
    assert!(traffic.len() > 10);
    for line in &traffic {
        // MONITOR opens each line with a timestamp ("+1796634629.199034 [0 127.0.0.1:…]"),
        // whose digits may spell a value by chance: only what follows it was sent.
        let sent = line
            .split_once("] ")
            .map_or(line.as_str(), |(_, rest)| rest);
        for value in [
            "Ines",
            "Duarte",
            "nurse",
            "1990",
            "Lisbon",
            "conv-",
            "ask_assistant_agent",
            "visa",
        ] {
            assert!(!sent.contains(value), "{value} reached Redis: {line}");
        }
    }
}

#[test]
fn the_script_writes_only_when_what_the_call_read_still_holds() {
    let Some(redis) = start_redis() else { return };
    let url = format!("redis://127.0.0.1:{}/", redis.port);
    let store = RedisStore::open(&url, SessionKey::from_bytes(KEY)).unwrap();
    // What a call adds: the store's plain data, as the pipeline fills it in.
    let update = |placeholders, counts, sent| {
        let mut u = SessionUpdate::default();
        u.placeholders = placeholders;
        u.counts = counts;
        u.tool = 3;
        u.sent = sent;
        u.call = true;
        u
    };
    let first = update(vec![((0, 7), 1)], vec![(0, 1)], vec![PsdKind::PersonName]);
    assert_eq!(
        store.commit("conv-5", &SessionReads::default(), &first),
        Ok(Commit::Done)
    );
    let second = update(vec![((0, 9), 2)], vec![(0, 2)], vec![PsdKind::Occupation]);
    let read = |received, found: Vec<((u8, u64), u32)>, counts: Vec<(u8, u32)>| {
        let mut r = SessionReads::default();
        r.received = received;
        r.found = found;
        r.counts = counts;
        r
    };
    // Each of these was read from a state that no longer holds: nothing is written, and the
    // current state comes back.
    for stale in [
        read(0, vec![((0, 7), 1)], vec![(0, 1)]), // the tool has received a kind since
        read(1, vec![((0, 7), 2)], vec![(0, 1)]), // the placeholder has another number
        read(1, vec![((0, 8), 1)], vec![(0, 1)]), // or is not there
        read(1, vec![((0, 7), 1)], vec![(0, 0)]), // the class has numbered on
    ] {
        match store.commit("conv-5", &stale, &second).unwrap() {
            Commit::Changed(state) => {
                assert_eq!(state.calls, 1);
                assert_eq!(state.placeholders.get(&(0, 7)), Some(&1));
                assert_eq!(state.counts.get(&0), Some(&1));
                assert_eq!(state.received.get(&3), Some(&vec![PsdKind::PersonName]));
            }
            other => panic!("written on a stale read: {stale:?}: {other:?}"),
        }
    }
    assert_eq!(store.load("conv-5").unwrap().calls, 1);
    // Read from the current state: written.
    let current = read(1, vec![((0, 7), 1)], vec![(0, 1)]);
    assert_eq!(store.commit("conv-5", &current, &second), Ok(Commit::Done));
    let state = store.load("conv-5").unwrap();
    assert_eq!(state.calls, 2);
    assert_eq!(state.placeholders.len(), 2);
    assert_eq!(state.counts.get(&0), Some(&2));
    assert_eq!(state.received.get(&3).map(Vec::len), Some(2));
    // One hash per session, named by a keyed hash of its id, expiring after the time to live.
    let name = format!(
        "{}{:016x}",
        toolminimize_redis::KEY_PREFIX,
        SessionKey::from_bytes(KEY).hash(b"conv-5")
    );
    assert_eq!(
        command(redis.port, &format!("TYPE {name}")).trim_end(),
        "+hash"
    );
    let ttl: u64 = command(redis.port, &format!("TTL {name}"))
        .trim_start_matches(':')
        .trim_end()
        .parse()
        .unwrap();
    assert!((3000..=3600).contains(&ttl), "{ttl}");
    // Another process with the same key sees the same session; one with another key does not.
    let other = RedisStore::open(&url, SessionKey::from_bytes(KEY)).unwrap();
    assert_eq!(other.load("conv-5").unwrap(), state);
    let stranger = RedisStore::open(&url, SessionKey::from_bytes([1; 16])).unwrap();
    assert_eq!(stranger.load("conv-5").unwrap().calls, 0);
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
