//! `--listen ADDR`: the proxy itself as a Streamable HTTP server at `http://ADDR/mcp`, for
//! hosts that connect to MCP servers by URL.
//!
//! - `POST /mcp` takes one message (or a batch). Notifications and responses get `202
//!   Accepted`; requests get an SSE stream that carries the messages related to them and ends
//!   with their responses.
//! - An `initialize` request without `Mcp-Session-Id` opens a session: the proxy mints its id
//!   (returned in `Mcp-Session-Id`) and connects it to its own upstream — a new server process
//!   (a command after `--`), or a new session with the remote server (`--upstream-url`). Later
//!   requests name the session; an unknown one gets `404`.
//! - Requests without a session that are not `initialize` (protocol revision 2026-07-28 has no
//!   sessions) share one upstream connection; their ids are replaced on the way in and put
//!   back on the way out, so hosts cannot collide.
//! - `GET /mcp` with a session opens the stream for the server's own requests and
//!   notifications (those not tied to a request); until one is open they go on an open
//!   request stream, or wait (a bounded number).
//! - `DELETE /mcp` ends the session and its upstream.
//! - An `Origin` header that is neither a loopback origin nor one given with `--allow-origin`
//!   gets `403` (DNS rebinding).
//!
//! Every connection goes through the same [`super::pump`] and [`super::router::Router`] as over stdio:
//! the same minimization, tool-list cache, time budget and audit log.

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::pin::Pin;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router as Routes;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use http_body_util::BodyExt;
use serde_json::Value;
use tokio::sync::{Semaphore, mpsc};

use super::framing::Frame;
use super::http_upstream::{self, HostHeaders, SESSION_ID};
use super::jsonrpc::{INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR, error_response, id_key};
use super::pump::{self, Conn, Limits};
use super::rewrite::Shared;
use super::scan::Scanner;
use super::sse;
use super::stdio_server::{QUEUE, StdioServer};
use super::{Args, new_router};

/// The path of the MCP endpoint.
pub(crate) const PATH: &str = "/mcp";
/// Messages for the host kept while no stream can take them.
const MAX_PARKED: usize = 256;

/// What each session connects to.
#[derive(Debug, Clone)]
enum Upstream {
    Command(Vec<String>),
    Http(http_upstream::Config),
}

#[derive(Debug)]
struct App {
    shared: Arc<Shared>,
    limits: Limits,
    cpus: Arc<Semaphore>,
    upstream: Upstream,
    grace: Duration,
    allowed_origins: Vec<String>,
    max_sessions: usize,
    idle: Duration,
    sessions: Mutex<HashMap<String, Arc<HostSession>>>,
    sessionless: tokio::sync::Mutex<Option<Arc<HostSession>>>,
    seq: AtomicU64,
}

/// One connection from the host side: its frames go into a [`pump`], what the pump sends
/// back is dispatched to the HTTP streams waiting for it.
#[derive(Debug)]
struct HostSession {
    id: Option<String>,
    /// Ids are replaced on the way in (the shared sessionless connection).
    remap: bool,
    frames: mpsc::Sender<Frame>,
    host_headers: HostHeaders,
    routes: Mutex<Routes_>,
    last_used: Mutex<Instant>,
    stop: Mutex<Option<Stop>>,
}

#[derive(Debug)]
enum Stop {
    Process(tokio::task::JoinHandle<()>, mpsc::Sender<()>),
    Http(http_upstream::Upstream, mpsc::Sender<pump::ToServer>),
}

/// Where the messages for the host go.
#[derive(Debug, Default)]
struct Routes_ {
    /// Request id (as sent upstream) → the stream of the POST that carried it, and the id
    /// the host gave it.
    pending: HashMap<String, (Arc<PostStream>, Value)>,
    /// Progress token → the stream of the request that named it.
    progress: HashMap<String, Weak<PostStream>>,
    /// The GET stream, if open.
    get: Option<mpsc::Sender<Bytes>>,
    /// Open POST streams, for messages tied to no request when there is no GET stream.
    posts: Vec<Weak<PostStream>>,
    /// Messages no stream could take yet.
    parked: VecDeque<Bytes>,
    closed: bool,
}

/// The SSE stream of one POST: open until each of its requests is answered (the pending
/// entries hold the only strong references).
#[derive(Debug)]
struct PostStream {
    tx: mpsc::Sender<Bytes>,
}

impl HostSession {
    fn routes(&self) -> MutexGuard<'_, Routes_> {
        self.routes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn touch(&self) {
        *self
            .last_used
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Instant::now();
    }

    fn idle_for(&self) -> Duration {
        self.last_used
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .elapsed()
    }

    /// Sends one line from the pump to the stream waiting for it.
    async fn dispatch(&self, line: Vec<u8>) {
        let Ok(message) = serde_json::from_slice::<Value>(&line) else {
            // Not JSON (a server's stray line): nothing a host can use over HTTP.
            return;
        };
        let items = match message {
            Value::Array(items) => items,
            m => vec![m],
        };
        for item in items {
            self.dispatch_one(item).await;
        }
    }

    async fn dispatch_one(&self, mut item: Value) {
        self.touch();
        let is_response = item.get("method").is_none();
        let target = {
            let mut routes = self.routes();
            let id = item.get("id").filter(|v| !v.is_null()).map(id_key);
            if is_response {
                match id.and_then(|k| routes.pending.remove(&k)) {
                    Some((stream, original)) => {
                        if self.remap
                            && let Some(obj) = item.as_object_mut()
                        {
                            obj.insert("id".into(), original);
                        }
                        Target::Post(stream)
                    }
                    None => Target::Other,
                }
            } else {
                let token = item
                    .pointer("/params/progressToken")
                    .map(id_key)
                    .and_then(|t| routes.progress.get(&t).and_then(Weak::upgrade));
                match token {
                    Some(s) => Target::Related(s),
                    None => Target::Other,
                }
            }
        };
        let bytes = Bytes::from(sse::event(&serde_json::to_vec(&item).unwrap_or_default()));
        match target {
            Target::Post(stream) => {
                let _ = stream.tx.send(bytes).await;
                // Dropping the last reference ends the stream.
            }
            Target::Related(stream) => {
                let _ = stream.tx.send(bytes).await;
            }
            Target::Other => self.send_unrelated(bytes).await,
        }
    }

    /// A message tied to no request: the GET stream, else an open request stream, else
    /// parked until a stream opens.
    async fn send_unrelated(&self, bytes: Bytes) {
        let tx = {
            let mut routes = self.routes();
            routes.posts.retain(|w| w.strong_count() > 0);
            let get = routes.get.clone().filter(|g| !g.is_closed());
            match get.or_else(|| {
                routes
                    .posts
                    .iter()
                    .find_map(Weak::upgrade)
                    .map(|s| s.tx.clone())
            }) {
                Some(tx) => tx,
                None => {
                    if routes.parked.len() >= MAX_PARKED {
                        routes.parked.pop_front();
                    }
                    routes.parked.push_back(bytes);
                    return;
                }
            }
        };
        let _ = tx.send(bytes).await;
    }

    /// Ends the session: its upstream is shut down and requests still waiting are answered
    /// with an error.
    async fn close(&self, grace: Duration, why: &str) {
        let pending = {
            let mut routes = self.routes();
            routes.closed = true;
            routes.get = None;
            std::mem::take(&mut routes.pending)
        };
        for (_, (stream, original)) in pending {
            let reply = error_response(Some(&original), INTERNAL_ERROR, why);
            let _ = stream
                .tx
                .send(Bytes::from(sse::event(
                    &serde_json::to_vec(&reply).unwrap_or_default(),
                )))
                .await;
        }
        let stop = self
            .stop
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        match stop {
            Some(Stop::Process(task, tx)) => {
                let _ = tx.send(()).await;
                let _ = tokio::time::timeout(grace * 3, task).await;
            }
            Some(Stop::Http(upstream, to_server)) => {
                let _ = to_server.send(pump::ToServer::Close).await;
                upstream.close(grace).await;
            }
            None => {}
        }
    }
}

enum Target {
    Post(Arc<PostStream>),
    Related(Arc<PostStream>),
    Other,
}

/// Serves until SIGINT or SIGTERM.
pub(crate) async fn serve(
    addr: SocketAddr,
    args: &Args,
    shared: Arc<Shared>,
    limits: Limits,
) -> Result<ExitCode, String> {
    let upstream = match &args.http.upstream_url {
        Some(url) => Upstream::Http(http_upstream::Config::new(
            url,
            &args.http.headers,
            limits.max_message_bytes,
        )?),
        None if args.server.is_empty() => {
            return Err("no MCP server: give its command after `--`, or --upstream-url".into());
        }
        None => Upstream::Command(args.server.clone()),
    };
    let app = Arc::new(App {
        shared,
        limits,
        cpus: pump::cpus(),
        upstream,
        grace: Duration::from_secs(args.shutdown_timeout),
        allowed_origins: args.http.allowed_origins.clone(),
        max_sessions: args.http.max_sessions.max(1),
        idle: args.http.session_idle_timeout,
        sessions: Mutex::new(HashMap::new()),
        sessionless: tokio::sync::Mutex::new(None),
        seq: AtomicU64::new(0),
    });
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener
        .local_addr()
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    if !local.ip().is_loopback() {
        eprintln!(
            "toolminimize: listening on a non-loopback address; the proxy does not authenticate hosts, anyone who can reach {local} can use the MCP server through it"
        );
    }
    eprintln!("toolminimize: listening on http://{local}{PATH}");
    let routes = Routes::new()
        .route(PATH, post(on_post).get(on_get).delete(on_delete))
        .with_state(Arc::clone(&app));
    let sweeper = tokio::spawn(sweep(Arc::clone(&app)));
    let served = axum::serve(listener, routes)
        .with_graceful_shutdown(shutdown_signal())
        .await;
    sweeper.abort();
    let sessions: Vec<Arc<HostSession>> = app.sessions_mut().drain().map(|(_, s)| s).collect();
    for s in sessions {
        s.close(app.grace, "the proxy is shutting down").await;
    }
    if let Some(s) = app.sessionless.lock().await.take() {
        s.close(app.grace, "the proxy is shutting down").await;
    }
    served.map_err(|e| format!("serving HTTP: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let Ok(mut term) = signal(SignalKind::terminate()) else {
            let _ = tokio::signal::ctrl_c().await;
            return;
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Closes sessions unused for longer than the idle timeout.
async fn sweep(app: Arc<App>) {
    let every = (app.idle / 4).clamp(Duration::from_secs(1), Duration::from_secs(60));
    loop {
        tokio::time::sleep(every).await;
        let idle: Vec<Arc<HostSession>> = {
            let mut sessions = app.sessions_mut();
            let ids: Vec<String> = sessions
                .iter()
                .filter(|(_, s)| s.idle_for() > app.idle)
                .map(|(k, _)| k.clone())
                .collect();
            ids.iter().filter_map(|k| sessions.remove(k)).collect()
        };
        for s in idle {
            s.close(app.grace, "the session was idle too long").await;
        }
    }
}

impl App {
    fn sessions_mut(&self) -> MutexGuard<'_, HashMap<String, Arc<HostSession>>> {
        self.sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Whether a request's `Origin` (if any) is acceptable.
    fn origin_ok(&self, headers: &HeaderMap) -> bool {
        let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) else {
            return headers.get(header::ORIGIN).is_none();
        };
        if self.allowed_origins.iter().any(|a| a == origin) {
            return true;
        }
        let Some(rest) = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
        else {
            return false;
        };
        let host = match rest.strip_prefix('[') {
            Some(v6) => v6.split(']').next().unwrap_or(""),
            None => rest.split(':').next().unwrap_or(""),
        };
        host == "localhost"
            || host
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback())
    }

    /// A new connection to the upstream, with its pump and dispatcher.
    async fn connect(self: &Arc<Self>, id: Option<String>) -> Result<Arc<HostSession>, String> {
        let n = self.seq.fetch_add(1, Ordering::Relaxed);
        let router = new_router(&self.shared, &format!("http-{n}"));
        let host_headers: HostHeaders = Arc::new(Mutex::new(HeaderMap::new()));
        let (frames_tx, frames_rx) = mpsc::channel::<Frame>(QUEUE);
        let (to_host, mut host_rx) = mpsc::channel::<Vec<u8>>(QUEUE);
        let (to_server, from_server, stop) = match &self.upstream {
            Upstream::Command(cmd) => {
                let (mut server, pipes) = StdioServer::spawn(cmd, self.limits.max_message_bytes)?;
                let (stop_tx, mut stop_rx) = mpsc::channel::<()>(1);
                let grace = self.grace;
                let to_server = pipes.to_server.clone();
                let task = tokio::spawn(async move {
                    tokio::select! {
                        _ = server.wait() => {}
                        _ = stop_rx.recv() => {
                            let _ = to_server.send(pump::ToServer::Close).await;
                            let _ = server.shut_down(grace).await;
                        }
                    }
                });
                (
                    pipes.to_server,
                    pipes.from_server,
                    Stop::Process(task, stop_tx),
                )
            }
            Upstream::Http(config) => {
                let (up, pipes) = http_upstream::Upstream::start(
                    config.clone(),
                    Arc::clone(&router),
                    Some(Arc::clone(&host_headers)),
                )?;
                let stop = Stop::Http(up, pipes.to_server.clone());
                (pipes.to_server, pipes.from_server, stop)
            }
        };
        let conn = Conn::new(
            router,
            to_server,
            to_host,
            self.limits,
            Arc::clone(&self.cpus),
        );
        tokio::spawn(pump::from_host(Arc::clone(&conn), frames_rx));
        tokio::spawn(pump::from_server(conn, from_server));
        let session = Arc::new(HostSession {
            id: id.clone(),
            remap: id.is_none(),
            frames: frames_tx,
            host_headers,
            routes: Mutex::new(Routes_::default()),
            last_used: Mutex::new(Instant::now()),
            stop: Mutex::new(Some(stop)),
        });
        let dispatcher = Arc::downgrade(&session);
        let app = Arc::downgrade(self);
        tokio::spawn(async move {
            while let Some(line) = host_rx.recv().await {
                let Some(s) = dispatcher.upgrade() else {
                    break;
                };
                s.dispatch(line).await;
            }
            // The upstream is gone (the server exited): the session ends with it.
            if let (Some(s), Some(app)) = (dispatcher.upgrade(), app.upgrade()) {
                if let Some(id) = &s.id {
                    app.sessions_mut().remove(id);
                } else {
                    let mut shared = app.sessionless.lock().await;
                    if shared.as_ref().is_some_and(|x| Arc::ptr_eq(x, &s)) {
                        *shared = None;
                    }
                }
                s.close(app.grace, "the MCP server closed the connection")
                    .await;
            }
        });
        Ok(session)
    }

    /// Registers a new session, closing the least recently used one beyond the limit.
    async fn add_session(&self, session: Arc<HostSession>, id: String) {
        let evicted = {
            let mut sessions = self.sessions_mut();
            let mut evicted = None;
            if sessions.len() >= self.max_sessions
                && let Some(oldest) = sessions
                    .iter()
                    .max_by_key(|(_, s)| s.idle_for())
                    .map(|(k, _)| k.clone())
            {
                evicted = sessions.remove(&oldest);
            }
            sessions.insert(id, session);
            evicted
        };
        if let Some(old) = evicted {
            old.close(
                self.grace,
                "the proxy closed this session to open a newer one",
            )
            .await;
        }
    }
}

/// A new session id: 128 random bits, hex.
fn new_session_id() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness for a session id: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn json_error(status: StatusCode, id: Option<&Value>, code: i64, message: &str) -> Response {
    let body = serde_json::to_vec(&error_response(id, code, message)).unwrap_or_default();
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

fn forbidden_origin() -> Response {
    json_error(
        StatusCode::FORBIDDEN,
        None,
        INVALID_REQUEST,
        "this Origin may not use the proxy",
    )
}

/// Reads a body of at most `max` bytes; beyond, its `id` is read on the way and the rest
/// dropped.
async fn read_body(body: Body, max: usize) -> Result<Vec<u8>, (usize, Option<Value>)> {
    let mut body = body;
    let mut buf = Vec::new();
    let mut over: Option<Scanner> = None;
    let mut total = 0usize;
    while let Some(frame) = body.frame().await {
        let Ok(frame) = frame else {
            break;
        };
        let Ok(data) = frame.into_data() else {
            continue;
        };
        total += data.len();
        match over.as_mut() {
            Some(s) => s.feed(&data),
            None if total > max => {
                let mut s = Scanner::default();
                s.feed(&buf);
                s.feed(&data);
                buf = Vec::new();
                over = Some(s);
            }
            None => buf.extend_from_slice(&data),
        }
    }
    match over {
        Some(s) => Err((total, s.finish().id)),
        None => Ok(buf),
    }
}

async fn on_post(State(app): State<Arc<App>>, headers: HeaderMap, body: Body) -> Response {
    if !app.origin_ok(&headers) {
        return forbidden_origin();
    }
    let max = app.limits.max_message_bytes;
    let body = match read_body(body, max).await {
        Ok(b) => b,
        Err((n, id)) => {
            let message = format!(
                "the message is {n} bytes long, over the proxy's limit of {max} bytes; it was not forwarded"
            );
            return json_error(
                StatusCode::PAYLOAD_TOO_LARGE,
                id.as_ref(),
                INVALID_REQUEST,
                &message,
            );
        }
    };
    if !toolminimize_core::json_values_at_most(&body, toolminimize_core::MAX_VALUES) {
        // Refused before parsing (see `toolminimize_core::MAX_VALUES`).
        let id = super::scan::Scanned::of(&body).id;
        let message = format!(
            "the message holds more than {} JSON values; it was not forwarded",
            toolminimize_core::MAX_VALUES
        );
        return json_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            id.as_ref(),
            INVALID_REQUEST,
            &message,
        );
    }
    let message = match serde_json::from_slice::<Value>(&body) {
        Ok(m) => m,
        Err(e) => {
            let id = super::scan::Scanned::of(&body).id;
            let (code, text) = match super::jsonrpc::code_for(&e) {
                PARSE_ERROR => (PARSE_ERROR, "parse error: the body is not valid JSON"),
                c => (c, "invalid request: the body is not a JSON-RPC message"),
            };
            return json_error(StatusCode::BAD_REQUEST, id.as_ref(), code, text);
        }
    };
    let items: Vec<&Value> = match &message {
        Value::Array(items) => items.iter().collect(),
        m => vec![m],
    };
    if items.is_empty() || items.iter().any(|i| !i.is_object()) {
        return json_error(
            StatusCode::BAD_REQUEST,
            None,
            INVALID_REQUEST,
            "invalid request: the body is not a JSON-RPC message",
        );
    }
    let is_initialize = items
        .iter()
        .any(|i| i.get("method").and_then(Value::as_str) == Some("initialize"));

    // The session.
    let named = headers
        .get(SESSION_ID)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let mut minted = None;
    let session = match &named {
        Some(id) => match app.sessions_mut().get(id).cloned() {
            Some(s) => s,
            None => {
                return json_error(
                    StatusCode::NOT_FOUND,
                    None,
                    INVALID_REQUEST,
                    "no such session: start a new one with initialize",
                );
            }
        },
        None if is_initialize => {
            let id = match new_session_id() {
                Ok(id) => id,
                Err(e) => {
                    return json_error(StatusCode::INTERNAL_SERVER_ERROR, None, INTERNAL_ERROR, &e);
                }
            };
            let s = match app.connect(Some(id.clone())).await {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("toolminimize: {e}");
                    let first_id = items.first().and_then(|i| i.get("id"));
                    return json_error(
                        StatusCode::BAD_GATEWAY,
                        first_id,
                        INTERNAL_ERROR,
                        "the proxy cannot reach its MCP server",
                    );
                }
            };
            app.add_session(Arc::clone(&s), id.clone()).await;
            minted = Some(id);
            s
        }
        None => {
            let mut shared = app.sessionless.lock().await;
            match shared.as_ref() {
                Some(s) => Arc::clone(s),
                None => match app.connect(None).await {
                    Ok(s) => {
                        *shared = Some(Arc::clone(&s));
                        s
                    }
                    Err(e) => {
                        eprintln!("toolminimize: {e}");
                        return json_error(
                            StatusCode::BAD_GATEWAY,
                            None,
                            INTERNAL_ERROR,
                            "the proxy cannot reach its MCP server",
                        );
                    }
                },
            }
        }
    };
    session.touch();
    {
        let creds = http_upstream::host_credentials(&headers);
        if !creds.is_empty() {
            *session
                .host_headers
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = creds;
        }
    }

    // Register the requests, replacing their ids on the shared connection.
    let mut message = message;
    let requests = {
        let mut items: Vec<&mut Value> = match &mut message {
            Value::Array(items) => items.iter_mut().collect(),
            m => vec![m],
        };
        let (tx, rx) = mpsc::channel::<Bytes>(QUEUE);
        let stream = Arc::new(PostStream { tx });
        let mut routes = session.routes();
        if routes.closed {
            return json_error(
                StatusCode::NOT_FOUND,
                None,
                INVALID_REQUEST,
                "the session has ended",
            );
        }
        let mut count = 0;
        for item in items.iter_mut() {
            let is_request =
                item.get("method").is_some() && item.get("id").is_some_and(|v| !v.is_null());
            if !is_request {
                continue;
            }
            let Some(obj) = item.as_object_mut() else {
                continue;
            };
            let Some(original) = obj.get("id").cloned() else {
                continue;
            };
            let sent = if session.remap {
                let n = app.seq.fetch_add(1, Ordering::Relaxed);
                let new = Value::String(format!("toolminimize-{n}"));
                obj.insert("id".into(), new.clone());
                new
            } else {
                original.clone()
            };
            if let Some(token) = obj
                .get("params")
                .and_then(|p| p.pointer("/_meta/progressToken"))
            {
                routes
                    .progress
                    .insert(id_key(token), Arc::downgrade(&stream));
            }
            routes
                .pending
                .insert(id_key(&sent), (Arc::clone(&stream), original));
            count += 1;
        }
        // On the shared connection, a cancellation names the replaced id.
        if session.remap {
            for item in items.iter_mut() {
                if item.get("method").and_then(Value::as_str) == Some("notifications/cancelled")
                    && let Some(req) = item.pointer_mut("/params/requestId")
                {
                    let wanted = req.clone();
                    if let Some(sent) = routes
                        .pending
                        .iter()
                        .find(|(_, (_, orig))| *orig == wanted)
                        .map(|(k, _)| k.clone())
                        && let Ok(v) = serde_json::from_str::<Value>(&sent)
                    {
                        *req = v;
                    }
                }
            }
        }
        if count > 0 {
            routes.posts.push(Arc::downgrade(&stream));
            Some((stream, rx))
        } else {
            None
        }
    };
    let line = if session.remap {
        serde_json::to_vec(&message).unwrap_or_default()
    } else {
        body
    };
    let line = strip_newlines(line);
    if session.frames.send(Frame::Line(line)).await.is_err() {
        return json_error(
            StatusCode::BAD_GATEWAY,
            None,
            INTERNAL_ERROR,
            "the MCP server behind the proxy is gone",
        );
    }
    let Some((stream, rx)) = requests else {
        return StatusCode::ACCEPTED.into_response();
    };
    // The stream holds no reference to itself: once its requests are answered (the pending
    // entries dropped), the sender goes and the body ends.
    drop(stream);
    let mut response = Response::new(Body::new(SseBody { rx }));
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert("x-accel-buffering", HeaderValue::from_static("no"));
    if let Some(id) = minted.and_then(|id| HeaderValue::from_str(&id).ok()) {
        h.insert(SESSION_ID, id);
    }
    response
}

/// A JSON body on one line (the stdio side of a server needs that).
fn strip_newlines(line: Vec<u8>) -> Vec<u8> {
    if !line.contains(&b'\n') && !line.contains(&b'\r') {
        return line;
    }
    match serde_json::from_slice::<Value>(&line) {
        Ok(v) => serde_json::to_vec(&v).unwrap_or(line),
        Err(_) => line,
    }
}

async fn on_get(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    if !app.origin_ok(&headers) {
        return forbidden_origin();
    }
    let Some(id) = headers.get(SESSION_ID).and_then(|v| v.to_str().ok()) else {
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::ALLOW, "POST, DELETE")],
        )
            .into_response();
    };
    let Some(session) = app.sessions_mut().get(id).cloned() else {
        return json_error(
            StatusCode::NOT_FOUND,
            None,
            INVALID_REQUEST,
            "no such session",
        );
    };
    let accepts = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/event-stream"));
    if !accepts {
        return json_error(
            StatusCode::NOT_ACCEPTABLE,
            None,
            INVALID_REQUEST,
            "the GET stream needs Accept: text/event-stream",
        );
    }
    session.touch();
    let (tx, rx) = mpsc::channel::<Bytes>(QUEUE);
    let parked = {
        let mut routes = session.routes();
        routes.get = Some(tx.clone());
        std::mem::take(&mut routes.parked)
    };
    for b in parked {
        let _ = tx.send(b).await;
    }
    drop(tx);
    let mut response = Response::new(Body::new(SseBody { rx }));
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

async fn on_delete(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    if !app.origin_ok(&headers) {
        return forbidden_origin();
    }
    let Some(id) = headers.get(SESSION_ID).and_then(|v| v.to_str().ok()) else {
        return json_error(
            StatusCode::BAD_REQUEST,
            None,
            INVALID_REQUEST,
            "DELETE needs Mcp-Session-Id",
        );
    };
    let Some(session) = app.sessions_mut().remove(id) else {
        return json_error(
            StatusCode::NOT_FOUND,
            None,
            INVALID_REQUEST,
            "no such session",
        );
    };
    session.close(app.grace, "the session was ended").await;
    StatusCode::NO_CONTENT.into_response()
}

/// An SSE response body fed from a channel; it ends when every sender is gone.
struct SseBody {
    rx: mpsc::Receiver<Bytes>,
}

impl hyper::body::Body for SseBody {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, Self::Error>>> {
        match self.rx.poll_recv(cx) {
            Poll::Ready(Some(b)) => Poll::Ready(Some(Ok(hyper::body::Frame::data(b)))),
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        }
    }
}
