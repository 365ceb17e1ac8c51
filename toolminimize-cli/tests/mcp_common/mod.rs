//! Helpers shared by the mcp-proxy integration tests: run the proxy binary in front of a
//! server, talk raw NDJSON to it, find the installed MCP peers.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Upper bound for any single wait, so a broken proxy fails a test instead of hanging it.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// The proxy binary under test.
pub fn proxy_bin() -> &'static str {
    env!("CARGO_BIN_EXE_toolminimize")
}

/// The directory of the MCP fixtures.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mcp")
}

/// A fresh file path under the test scratch directory.
pub fn scratch(name: &str) -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-proxy");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(format!("{}-{n}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// Where `.ci/setup-mcp-peers.sh` installs the peers.
pub fn peers_dir() -> PathBuf {
    match std::env::var_os("TOOLMINIMIZE_MCP_PEERS") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/mcp-peers"),
    }
}

/// Installs the MCP peers once per test process when they are missing, with the same script
/// `.ci/run` uses (idempotent, and it takes a file lock so that test binaries running at the
/// same time do not install twice).
fn install_peers() -> Result<(), String> {
    static DONE: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    DONE.get_or_init(|| {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.ci/setup-mcp-peers.sh");
        let status = Command::new("bash")
            .arg(&script)
            .env("TOOLMINIMIZE_MCP_PEERS", peers_dir())
            .stdin(Stdio::null())
            .status()
            .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("{} failed: {status}", script.display()))
        }
    })
    .clone()
}

fn require(path: PathBuf, what: &str) -> PathBuf {
    if !path.exists()
        && let Err(e) = install_peers()
    {
        panic!(
            "{what} is not installed at {} and installing it failed: {e}",
            path.display()
        );
    }
    assert!(
        path.exists(),
        "{what} is not installed at {} after .ci/setup-mcp-peers.sh ran",
        path.display()
    );
    path
}

/// The Python interpreter of the venv holding the official `mcp` SDK.
pub fn sdk_python() -> PathBuf {
    require(
        peers_dir().join("venv/bin/python"),
        "the Python MCP SDK (PyPI `mcp`)",
    )
}

/// The entry script of `@modelcontextprotocol/server-everything`.
pub fn everything_server() -> Vec<String> {
    let js = require(
        peers_dir().join("node_modules/@modelcontextprotocol/server-everything/dist/index.js"),
        "@modelcontextprotocol/server-everything (npm)",
    );
    vec!["node".into(), js.display().to_string(), "stdio".into()]
}

/// The stdlib fake server with a record file; returns the command and the record path.
pub fn fake_server(extra: &[&str]) -> (Vec<String>, PathBuf) {
    let record = scratch("record.jsonl");
    let mut cmd = vec![
        "python3".to_owned(),
        fixtures().join("fake_server.py").display().to_string(),
        "--record".to_owned(),
        record.display().to_string(),
    ];
    cmd.extend(extra.iter().map(|s| (*s).to_owned()));
    (cmd, record)
}

/// The lines a fake server received.
pub fn recorded(record: &Path) -> Vec<String> {
    std::fs::read_to_string(record)
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// A running proxy with its server.
pub struct Proxy {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    stderr_done: Option<thread::JoinHandle<()>>,
    next_id: u64,
}

impl Proxy {
    /// Starts `toolminimize mcp-proxy <options> -- <server>`.
    pub fn start(options: &[&str], server: &[String]) -> Self {
        let mut cmd = Command::new(proxy_bin());
        cmd.arg("mcp-proxy").args(options);
        if !server.is_empty() {
            cmd.arg("--").args(server);
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the proxy");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut stderr_pipe = child.stderr.take().unwrap();
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&stderr);
        let stderr_done = thread::spawn(move || {
            let mut buf = String::new();
            let _ = stderr_pipe.read_to_string(&mut buf);
            sink.lock().unwrap().push_str(&buf);
        });
        Proxy {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr,
            stderr_done: Some(stderr_done),
            next_id: 100,
        }
    }

    /// Writes one raw line (a newline is added).
    pub fn send_raw(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Writes one message.
    pub fn send(&mut self, message: &Value) {
        self.send_raw(&message.to_string());
    }

    /// The next raw line from the proxy.
    pub fn recv_raw(&self) -> String {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(l) => l,
            Err(RecvTimeoutError::Timeout) => {
                panic!("no message from the proxy within {PATIENCE:?}")
            }
            Err(RecvTimeoutError::Disconnected) => {
                panic!(
                    "the proxy closed its output; stderr: {}",
                    self.stderr.lock().unwrap()
                )
            }
        }
    }

    /// The next message from the proxy.
    pub fn recv(&self) -> Value {
        let line = self.recv_raw();
        serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("not JSON from the proxy ({e}): {line}"))
    }

    /// Sends a request and returns its response, skipping notifications before it.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.response_to(&json!(id))
    }

    /// The response with this id, skipping notifications and other messages before it.
    pub fn response_to(&self, id: &Value) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            assert!(Instant::now() < deadline, "no response to {id}");
            let m = self.recv();
            if m.get("id") == Some(id) && m.get("method").is_none() {
                return m;
            }
        }
    }

    /// Runs the MCP handshake.
    pub fn initialize(&mut self) -> Value {
        let r = self.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw-test-host", "version": "1"}}),
        );
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        r
    }

    /// Calls a tool and returns the response.
    pub fn call_tool(&mut self, name: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": name, "arguments": arguments}))
    }

    /// Closes the proxy's input (the host hangs up).
    pub fn close(&mut self) {
        self.stdin.take();
    }

    /// Waits for the proxy to exit; returns its status, everything it wrote to stderr, and the
    /// lines it wrote to stdout that were not read yet.
    pub fn wait(mut self) -> (ExitStatus, String, Vec<String>) {
        self.close();
        self.wait_for_exit()
    }

    /// Like [`Proxy::wait`], but keeps the proxy's input open: the proxy must end by itself.
    pub fn wait_for_exit(mut self) -> (ExitStatus, String, Vec<String>) {
        let deadline = Instant::now() + PATIENCE;
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the proxy did not exit");
            }
            thread::sleep(Duration::from_millis(20));
        };
        if let Some(h) = self.stderr_done.take() {
            h.join().unwrap();
        }
        let err = self.stderr.lock().unwrap().clone();
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(PATIENCE) {
            rest.push(line);
        }
        (status, err, rest)
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads an audit log.
pub fn audit_records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A background process for a test (a server, a listening proxy), stopped when dropped. Its
/// stderr (and stdout) lines are collected.
pub struct Background {
    child: Child,
    output: Arc<Mutex<Vec<String>>>,
    /// The URL it serves at.
    pub url: String,
}

impl Background {
    /// Starts `command`, waits for a line on stderr that `ready` turns into its URL.
    pub fn start(
        command: &[String],
        env: &[(&str, &str)],
        ready: impl Fn(&str) -> Option<String>,
    ) -> Self {
        let (program, args) = command.split_first().expect("a command");
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let output = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = channel::<String>();
        for pipe in [
            Box::new(child.stderr.take().unwrap()) as Box<dyn Read + Send>,
            Box::new(child.stdout.take().unwrap()) as Box<dyn Read + Send>,
        ] {
            let sink = Arc::clone(&output);
            let tx = tx.clone();
            thread::spawn(move || {
                for line in BufReader::new(pipe).lines() {
                    let Ok(line) = line else { break };
                    sink.lock().unwrap().push(line.clone());
                    let _ = tx.send(line);
                }
            });
        }
        // From here the process is stopped (and waited for) when `Background` drops.
        let mut started = Background {
            child,
            output,
            url: String::new(),
        };
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) => {
                    if let Some(url) = ready(&line) {
                        started.url = url;
                        return started;
                    }
                }
                Err(_) => {
                    let output = started.output();
                    drop(started);
                    panic!("{program} did not become ready; output: {output:?}");
                }
            }
        }
    }

    /// Everything it wrote so far.
    pub fn output(&self) -> Vec<String> {
        self.output.lock().unwrap().clone()
    }

    /// Waits until a line matching `pred` was written.
    pub fn wait_for_output(&self, pred: impl Fn(&str) -> bool) -> bool {
        let deadline = Instant::now() + PATIENCE;
        while Instant::now() < deadline {
            if self.output().iter().any(|l| pred(l)) {
                return true;
            }
            thread::sleep(Duration::from_millis(50));
        }
        false
    }

    /// Sends SIGTERM and waits for the exit.
    pub fn terminate(mut self) -> ExitStatus {
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .status();
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s;
            }
            assert!(Instant::now() < deadline, "did not exit after SIGTERM");
            thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The port in a `LISTENING <port>` line.
pub fn listening_port(line: &str) -> Option<String> {
    let port = line.strip_prefix("LISTENING ")?.trim();
    Some(format!("http://127.0.0.1:{port}/mcp"))
}

/// `@modelcontextprotocol/server-everything` over Streamable HTTP, on loopback.
pub fn everything_http() -> Background {
    let js = everything_server()
        .into_iter()
        .nth(1)
        .expect("the server's entry script");
    let wrapper = fixtures().join("everything_http.mjs").display().to_string();
    Background::start(&["node".into(), wrapper, js], &[], listening_port)
}

/// The Python SDK test server over Streamable HTTP, on loopback.
pub fn sdk_http_server() -> Background {
    let cmd = vec![
        sdk_python().display().to_string(),
        fixtures().join("sdk_server.py").display().to_string(),
        "--http".to_owned(),
    ];
    Background::start(&cmd, &[], listening_port)
}

/// `toolminimize mcp-proxy --listen 127.0.0.1:0 <options> [-- <server>]`.
pub fn listening_proxy(options: &[&str], server: &[String]) -> Background {
    let mut cmd = vec![
        proxy_bin().to_owned(),
        "mcp-proxy".to_owned(),
        "--listen".to_owned(),
        "127.0.0.1:0".to_owned(),
    ];
    cmd.extend(options.iter().map(|s| (*s).to_owned()));
    if !server.is_empty() {
        cmd.push("--".to_owned());
        cmd.extend(server.iter().cloned());
    }
    Background::start(&cmd, &[], |line| {
        line.strip_prefix("toolminimize: listening on ")
            .map(|u| u.trim().to_owned())
    })
}

/// A bare HTTP/1.1 exchange over loopback: status, headers (lower-case names), body.
pub fn http(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, Vec<(String, String)>, Vec<u8>) {
    use std::net::TcpStream;
    let rest = url.strip_prefix("http://").expect("an http:// URL");
    let (authority, path) = rest
        .split_once('/')
        .map_or((rest, "/".to_owned()), |(a, p)| (a, format!("/{p}")));
    let mut stream = TcpStream::connect(authority).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    stream.write_all(req.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a header block");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut body = raw[split + 4..].to_vec();
    let mut lines = head.lines();
    let status: u16 = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    if headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"))
    {
        let mut out = Vec::new();
        let mut rest = &body[..];
        while let Some(eol) = rest.windows(2).position(|w| w == b"\r\n") {
            let size = usize::from_str_radix(String::from_utf8_lossy(&rest[..eol]).trim(), 16)
                .unwrap_or(0);
            if size == 0 {
                break;
            }
            out.extend_from_slice(&rest[eol + 2..eol + 2 + size]);
            rest = &rest[eol + 2 + size + 2..];
        }
        body = out;
    }
    (status, headers, body)
}

/// The JSON messages in an SSE body (or a JSON body).
pub fn messages(body: &[u8]) -> Vec<Value> {
    let text = String::from_utf8_lossy(body);
    if let Ok(v) = serde_json::from_str::<Value>(&text) {
        return vec![v];
    }
    text.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str(d.trim()).ok())
        .collect()
}

/// Runs the Python SDK client script (`sdk_client.py`) with `args` (a command or a URL,
/// `--auto` first for protocol negotiation) and returns its results.
pub fn sdk_client(args: &[String], steps: &Value, env: &[(&str, &str)]) -> Vec<Value> {
    let python = sdk_python();
    let mut cmd = Command::new(&python);
    cmd.arg(fixtures().join("sdk_client.py"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
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

/// A `redis-server` of our own on a free loopback port; killed on drop.
pub struct RedisServer {
    child: Child,
    /// The port it listens on.
    pub port: u16,
}

impl RedisServer {
    /// Its URL.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts a `redis-server` (the Debian package, installed by `.ci/setup-redis.sh` when
/// missing); `None`, after saying so, when it is not installed and cannot be.
pub fn start_redis() -> Option<RedisServer> {
    let find = || {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join("redis-server"))
                .find(|p| p.is_file())
        })
    };
    let bin = find().or_else(|| {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.ci/setup-redis.sh");
        let ok = Command::new("bash")
            .arg(&script)
            .stdin(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ok { find() } else { None }
    });
    let Some(bin) = bin else {
        eprintln!("redis-server is not installed and could not be installed: skipping");
        return None;
    };
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(bin)
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(["--save", "", "--appendonly", "no"])
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
        thread::sleep(Duration::from_millis(50));
    }
    panic!("redis-server did not start on port {port}");
}
