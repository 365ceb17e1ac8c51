//! A remote MCP server over Streamable HTTP, seen by the rest of the proxy as a channel of
//! lines in and a channel of frames out — as a stdio server is.
//!
//! Each message is its own POST to the MCP endpoint (`Accept: application/json,
//! text/event-stream`). The answer is a JSON body, an SSE stream (each event one message;
//! a stream that ends early is resumed with `Last-Event-ID`), or `202 Accepted`. The proxy
//! keeps the `Mcp-Session-Id` the server assigns at initialization and sends it, with
//! `MCP-Protocol-Version` (the negotiated version, or the one a request carries in its
//! `_meta`), on every later request; it opens the GET stream for the server's own messages
//! once the session is initialized (when the server offers one), and ends the session with
//! DELETE on shutdown. It adds the request-metadata headers of protocol revision 2026-07-28
//! (`Mcp-Method`, `Mcp-Name`, and `Mcp-Param-*` for tool parameters marked `x-mcp-header`),
//! computed from the message as it leaves the proxy, after minimization: a header never
//! carries a value the body no longer has.
//!
//! Requests go out concurrently, so a slow call does not hold up a ping. Notifications and
//! responses keep their order, and nothing is sent after `initialize` until its answer's
//! headers arrived (they carry the session id). A request the server fails to answer (HTTP
//! error, unreachable, a stream that ends without the response) is answered to the host with
//! a JSON-RPC error carrying its id.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use base64::Engine as _;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use hyper::{Method, Request, Response, StatusCode, Uri};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use super::framing::Frame;
use super::jsonrpc::{INTERNAL_ERROR, error_response, to_line};
use super::pump::ToServer;
use super::router::Router;
use super::sse::SseReader;
use super::stdio_server::QUEUE;

/// `Mcp-Session-Id`.
pub(crate) const SESSION_ID: &str = "mcp-session-id";
/// `MCP-Protocol-Version`.
pub(crate) const PROTOCOL_VERSION: &str = "mcp-protocol-version";
/// Times a POST's SSE stream is resumed after it ended without the response.
const RESUMES: u32 = 3;
/// Times in a row the GET stream is reopened after it failed.
const GET_RETRIES: u32 = 5;
/// Wait before reopening a stream when the server named none.
const DEFAULT_RETRY: Duration = Duration::from_secs(1);

#[cfg(feature = "tls")]
type Connector = hyper_rustls::HttpsConnector<HttpConnector>;
#[cfg(not(feature = "tls"))]
type Connector = HttpConnector;

/// An HTTP/1.1 client (HTTPS too with the `tls` feature).
pub(crate) type HttpClient<B> = Client<Connector, B>;

/// Builds a client for bodies of type `B`.
pub(crate) fn client<B>() -> Result<HttpClient<B>, String>
where
    B: hyper::body::Body + Send + 'static,
    B::Data: Send,
{
    #[cfg(feature = "tls")]
    let connector = hyper_rustls::HttpsConnectorBuilder::new()
        .with_native_roots()
        .map_err(|e| format!("cannot load the platform's root certificates: {e}"))?
        .https_or_http()
        .enable_http1()
        .build();
    #[cfg(not(feature = "tls"))]
    let connector = HttpConnector::new();
    Ok(Client::builder(TokioExecutor::new()).build(connector))
}

/// Where and how to reach the server.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    uri: Uri,
    headers: HeaderMap,
    max: usize,
}

impl Config {
    /// `url` is the MCP endpoint; `headers` are `Name: value` lines, `${VAR}` in a value
    /// replaced by the environment variable.
    pub(crate) fn new(url: &str, headers: &[String], max: usize) -> Result<Self, String> {
        let uri: Uri = url
            .parse()
            .map_err(|_| format!("--upstream-url `{url}` is not a valid URL"))?;
        match uri.scheme_str() {
            Some("http") => {}
            Some("https") if cfg!(feature = "tls") => {}
            Some("https") => {
                return Err(
                    "this build has no TLS support (cargo feature `tls`): https:// URLs cannot be reached"
                        .into(),
                );
            }
            _ => {
                return Err(format!(
                    "--upstream-url `{url}` is not an http:// or https:// URL"
                ));
            }
        }
        if uri.authority().is_none() {
            return Err(format!("--upstream-url `{url}` has no host"));
        }
        let mut map = HeaderMap::new();
        for h in headers {
            let (name, value) = h.split_once(':').ok_or_else(|| {
                format!(
                    "--header `{}` is not of the form `Name: value`",
                    header_name_of(h)
                )
            })?;
            let name = HeaderName::from_bytes(name.trim().as_bytes())
                .map_err(|_| format!("--header: `{}` is not a header name", name.trim()))?;
            let value = crate::options::expand_env("--header", value.trim())?;
            let mut value = HeaderValue::from_str(&value)
                .map_err(|_| format!("--header {name}: the value is not a valid header value"))?;
            value.set_sensitive(true);
            map.append(name, value);
        }
        Ok(Config {
            uri,
            headers: map,
            max,
        })
    }
}

/// The name part of a header option, for messages (never its value).
fn header_name_of(h: &str) -> &str {
    h.split([':', ' ']).next().unwrap_or("")
}

/// Headers a listening proxy passes from its host to the server (the host's credentials).
pub(crate) type HostHeaders = Arc<Mutex<HeaderMap>>;

/// The channels of the upstream: lines to send, frames received.
#[derive(Debug)]
pub(crate) struct Pipes {
    pub(crate) to_server: mpsc::Sender<ToServer>,
    pub(crate) from_server: mpsc::Receiver<Frame>,
}

/// The connection to one remote server session.
#[derive(Debug)]
pub(crate) struct Upstream {
    inner: Arc<Inner>,
    task: tokio::task::JoinHandle<()>,
}

#[derive(Debug)]
struct Inner {
    client: HttpClient<Full<Bytes>>,
    config: Config,
    router: Arc<Router>,
    host_headers: Option<HostHeaders>,
    frames: mpsc::Sender<Frame>,
    state: Mutex<SessionState>,
}

#[derive(Debug, Default)]
struct SessionState {
    session_id: Option<HeaderValue>,
    protocol_version: Option<HeaderValue>,
    get_stream: Option<tokio::task::JoinHandle<()>>,
}

impl Upstream {
    /// Starts the task that sends what the proxy writes to the server.
    pub(crate) fn start(
        config: Config,
        router: Arc<Router>,
        host_headers: Option<HostHeaders>,
    ) -> Result<(Self, Pipes), String> {
        let (to_server, rx) = mpsc::channel::<ToServer>(QUEUE);
        let (frames, from_server) = mpsc::channel::<Frame>(QUEUE);
        let inner = Arc::new(Inner {
            client: client()?,
            config,
            router,
            host_headers,
            frames,
            state: Mutex::new(SessionState::default()),
        });
        let task = tokio::spawn(Arc::clone(&inner).run(rx));
        Ok((
            Upstream { inner, task },
            Pipes {
                to_server,
                from_server,
            },
        ))
    }

    /// After the proxy closed the server's input: waits (at most `grace`) for the messages
    /// still queued to be sent, ends the session with DELETE, and closes the GET stream.
    pub(crate) async fn close(self, grace: Duration) {
        let _ = tokio::time::timeout(grace, self.task).await;
        let (session, get) = {
            let mut st = self.inner.state();
            (st.session_id.take(), st.get_stream.take())
        };
        if let Some(get) = get {
            get.abort();
        }
        if let Some(session) = session {
            let mut req = Request::delete(self.inner.config.uri.clone())
                .body(Full::new(Bytes::new()))
                .map_err(|e| e.to_string());
            if let Ok(r) = req.as_mut() {
                self.inner
                    .common_headers(r.headers_mut(), Some(&session), None);
            }
            if let Ok(req) = req {
                // 405 means the server does not let clients end sessions: nothing to do.
                let _ = tokio::time::timeout(grace, self.inner.client.request(req)).await;
            }
        }
    }
}

/// What the proxy needs to know of a message it sends.
#[derive(Debug, Default)]
struct Head {
    id: Option<Value>,
    method: Option<String>,
    /// `params.name` (or `params.uri`) of the methods that mirror it in `Mcp-Name`.
    name: Option<String>,
    /// `params._meta["io.modelcontextprotocol/protocolVersion"]`.
    version: Option<String>,
    /// `Mcp-Param-*` headers for a `tools/call`.
    params: Vec<(HeaderName, HeaderValue)>,
}

impl Head {
    fn is_request(&self) -> bool {
        self.id.is_some() && self.method.is_some()
    }
}

impl Inner {
    fn state(&self) -> MutexGuard<'_, SessionState> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    async fn run(self: Arc<Self>, mut rx: mpsc::Receiver<ToServer>) {
        // Set while a notification, a response or `initialize` is on its way: the next message
        // waits for it.
        let mut gate: Option<oneshot::Receiver<()>> = None;
        while let Some(msg) = rx.recv().await {
            let ToServer::Line(mut line) = msg else {
                break;
            };
            if line.last() == Some(&b'\n') {
                line.pop();
            }
            if let Some(g) = gate.take() {
                let _ = g.await;
            }
            let head = self.head(&line);
            let (done, wait) = oneshot::channel();
            let ordered = !head.is_request() || head.method.as_deref() == Some("initialize");
            if ordered {
                gate = Some(wait);
            }
            tokio::spawn(Arc::clone(&self).post(line, head, done));
        }
        if let Some(g) = gate.take() {
            let _ = g.await;
        }
    }

    /// Reads the head of a message; for a `tools/call`, the `x-mcp-header` parameters of the
    /// listed tool, from its (minimized) arguments.
    fn head(&self, line: &[u8]) -> Head {
        let Ok(Value::Object(m)) = serde_json::from_slice::<Value>(line) else {
            return Head::default();
        };
        let method = m.get("method").and_then(Value::as_str).map(str::to_owned);
        let params = m.get("params").and_then(Value::as_object);
        let name = match method.as_deref() {
            Some("tools/call" | "prompts/get") => params
                .and_then(|p| p.get("name"))
                .and_then(Value::as_str)
                .map(str::to_owned),
            Some("resources/read") => params
                .and_then(|p| p.get("uri"))
                .and_then(Value::as_str)
                .map(str::to_owned),
            _ => None,
        };
        let version = params
            .and_then(|p| p.get("_meta"))
            .and_then(|meta| meta.get("io.modelcontextprotocol/protocolVersion"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let mut mirrored = Vec::new();
        if method.as_deref() == Some("tools/call")
            && let Some(tool) = name
                .as_deref()
                .and_then(|n| self.router.tools().get(n).cloned())
            && let Some(arguments) = params.and_then(|p| p.get("arguments"))
        {
            mirrored = param_headers(tool.def.input_schema(), arguments);
        }
        Head {
            id: m.get("id").filter(|v| !v.is_null()).cloned(),
            method,
            name,
            version,
            params: mirrored,
        }
    }

    /// The headers of every request: the configured ones, the host's credentials, the
    /// session and the protocol version.
    fn common_headers(
        &self,
        headers: &mut HeaderMap,
        session: Option<&HeaderValue>,
        version: Option<&HeaderValue>,
    ) {
        if let Some(host) = &self.host_headers {
            let host = host
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            for (k, v) in host.iter() {
                headers.insert(k, v.clone());
            }
        }
        for (k, v) in &self.config.headers {
            headers.append(k, v.clone());
        }
        if let Some(s) = session {
            headers.insert(SESSION_ID, s.clone());
        }
        if let Some(v) = version {
            headers.insert(PROTOCOL_VERSION, v.clone());
        }
    }

    async fn post(self: Arc<Self>, line: Vec<u8>, head: Head, done: oneshot::Sender<()>) {
        let (session, negotiated) = {
            let st = self.state();
            (st.session_id.clone(), st.protocol_version.clone())
        };
        let version = head
            .version
            .as_deref()
            .and_then(|v| HeaderValue::from_str(v).ok())
            .or(negotiated);
        let mut req = Request::post(self.config.uri.clone());
        if let Some(headers) = req.headers_mut() {
            self.common_headers(headers, session.as_ref(), version.as_ref());
            headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
            headers.insert(
                ACCEPT,
                HeaderValue::from_static("application/json, text/event-stream"),
            );
            if let Some(m) = head.method.as_deref().and_then(|m| header_value(m).ok()) {
                headers.insert("mcp-method", m);
            }
            if let Some(n) = head.name.as_deref().and_then(|n| header_value(n).ok()) {
                headers.insert("mcp-name", n);
            }
            for (k, v) in &head.params {
                headers.insert(k, v.clone());
            }
        }
        let req = match req.body(Full::new(Bytes::from(line))) {
            Ok(r) => r,
            Err(e) => {
                self.fail(&head, &format!("cannot build the request: {e}"))
                    .await;
                return;
            }
        };
        let response = self.client.request(req).await;
        let is_initialize = head.method.as_deref() == Some("initialize");
        let response = match response {
            Ok(r) => r,
            Err(e) => {
                let _ = done.send(());
                self.fail(
                    &head,
                    &format!("the MCP server cannot be reached: {}", describe_error(&e)),
                )
                .await;
                return;
            }
        };
        if is_initialize
            && response.status().is_success()
            && let Some(s) = response.headers().get(SESSION_ID)
        {
            self.state().session_id = Some(s.clone());
        }
        if !head.is_request() || is_initialize {
            // The order-keeping gate opens once the server has taken the message.
            let _ = done.send(());
        }
        let status = response.status();
        if status == StatusCode::ACCEPTED || status == StatusCode::NO_CONTENT {
            if head.method.as_deref() == Some("notifications/initialized") {
                self.open_get_stream();
            }
            if head.is_request() {
                self.fail(
                    &head,
                    "the MCP server accepted the request but sent no response",
                )
                .await;
            }
            return;
        }
        if !status.is_success() {
            self.http_error(&head, response).await;
            return;
        }
        let answered = self.read_answer(&head, response).await;
        if head.is_request() && !answered {
            self.fail(&head, "the MCP server closed the stream without a response")
                .await;
        }
    }

    /// Reads a successful answer: a JSON body or an SSE stream. Returns whether the
    /// response to `head`'s request came.
    async fn read_answer(&self, head: &Head, response: Response<Incoming>) -> bool {
        let sse = content_type_is(&response, "text/event-stream");
        if !sse {
            let body = match http_body_util::Limited::new(response.into_body(), self.config.max)
                .collect()
                .await
            {
                Ok(b) => b.to_bytes(),
                Err(e) => {
                    let message = if e.is::<http_body_util::LengthLimitError>() {
                        format!(
                            "the MCP server's answer is over the proxy's limit of {} bytes",
                            self.config.max
                        )
                    } else {
                        "reading the MCP server's answer failed".to_owned()
                    };
                    self.fail(head, &message).await;
                    return true;
                }
            };
            if body.iter().all(u8::is_ascii_whitespace) {
                return false;
            }
            return self.deliver(head, Frame::Line(body.to_vec())).await;
        }
        let mut reader = SseReader::new(self.config.max);
        let mut answered = self
            .read_stream(head, response.into_body(), &mut reader)
            .await;
        // A stream that ended early may be resumed from its last event.
        let mut attempts = 0;
        while !answered && head.is_request() && attempts < RESUMES {
            let Some(last) = reader.last_event_id.clone() else {
                break;
            };
            attempts += 1;
            let wait = reader.retry_ms.map_or(DEFAULT_RETRY, Duration::from_millis);
            tokio::time::sleep(wait).await;
            let Ok(r) = self.get(Some(&last)).await else {
                break;
            };
            if !r.status().is_success() || !content_type_is(&r, "text/event-stream") {
                break;
            }
            answered = self.read_stream(head, r.into_body(), &mut reader).await;
        }
        answered
    }

    /// Delivers the events of a stream; returns whether the response to `head` came.
    async fn read_stream(&self, head: &Head, mut body: Incoming, reader: &mut SseReader) -> bool {
        let mut answered = false;
        while let Some(frame) = body.frame().await {
            let Ok(frame) = frame else {
                break;
            };
            let Ok(data) = frame.into_data() else {
                continue;
            };
            for event in reader.feed(&data) {
                answered |= self.deliver(head, event.data).await;
            }
            if answered {
                // The response ends the request's stream.
                break;
            }
        }
        answered
    }

    /// Hands one received message to the proxy; returns whether it is the response to
    /// `head`'s request. An `initialize` result gives the negotiated protocol version.
    async fn deliver(&self, head: &Head, frame: Frame) -> bool {
        let mut answers = false;
        let frame = match frame {
            Frame::Line(line) => {
                // Messages leave the proxy one per line: a body with line breaks is rewritten
                // compactly.
                let parsed = serde_json::from_slice::<Value>(&line).ok();
                if let Some(p) = &parsed {
                    answers = answers_request(head, p);
                    if answers
                        && head.method.as_deref() == Some("initialize")
                        && let Some(v) =
                            p.pointer("/result/protocolVersion").and_then(Value::as_str)
                        && let Ok(v) = HeaderValue::from_str(v)
                    {
                        self.state().protocol_version = Some(v);
                    }
                }
                if line.contains(&b'\n') || line.contains(&b'\r') {
                    match parsed {
                        Some(p) => {
                            let mut l = to_line(&p);
                            l.pop();
                            Frame::Line(l)
                        }
                        None => Frame::Line(
                            line.iter()
                                .map(|&b| if b == b'\n' || b == b'\r' { b' ' } else { b })
                                .collect(),
                        ),
                    }
                } else {
                    Frame::Line(line)
                }
            }
            Frame::TooLong(n, scanned) => {
                answers = head.id.is_some() && scanned.id == head.id;
                Frame::TooLong(n, scanned)
            }
        };
        let _ = self.frames.send(frame).await;
        answers
    }

    /// Answers an HTTP error status: the server's own JSON-RPC error when the body is one
    /// (with the request's id), else an error naming the status.
    async fn http_error(&self, head: &Head, response: Response<Incoming>) {
        let status = response.status();
        if status == StatusCode::NOT_FOUND && self.state().session_id.is_some() {
            // The session ended on the server's side: a new `initialize` starts a new one.
            self.state().session_id = None;
        }
        let body = http_body_util::Limited::new(response.into_body(), 64 * 1024)
            .collect()
            .await
            .map(|b| b.to_bytes())
            .unwrap_or_default();
        if !head.is_request() {
            eprintln!(
                "toolminimize: the MCP server refused a {} with HTTP {status}",
                head.method.as_deref().unwrap_or("message")
            );
            return;
        }
        if let Ok(Value::Object(mut m)) = serde_json::from_slice::<Value>(&body)
            && m.get("error").is_some_and(Value::is_object)
        {
            if let Some(id) = &head.id {
                m.insert("id".into(), id.clone());
            }
            m.insert("jsonrpc".into(), "2.0".into());
            let mut line = to_line(&Value::Object(m));
            line.pop();
            let _ = self.frames.send(Frame::Line(line)).await;
            return;
        }
        let why = match status {
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => format!(
                "the MCP server refused the request (HTTP {status}): check the credentials given with --header"
            ),
            StatusCode::NOT_FOUND => {
                format!("the MCP server has no such session or endpoint (HTTP {status})")
            }
            _ => format!("the MCP server answered HTTP {status}"),
        };
        self.fail(head, &why).await;
    }

    /// Answers a request the server did not answer with a JSON-RPC error carrying its id.
    async fn fail(&self, head: &Head, why: &str) {
        match (&head.id, head.is_request()) {
            (Some(id), true) => {
                let mut line = to_line(&error_response(Some(id), INTERNAL_ERROR, why));
                line.pop();
                let _ = self.frames.send(Frame::Line(line)).await;
            }
            _ => eprintln!("toolminimize: {why}"),
        }
    }

    async fn get(&self, last_event_id: Option<&str>) -> Result<Response<Incoming>, String> {
        let (session, version) = {
            let st = self.state();
            (st.session_id.clone(), st.protocol_version.clone())
        };
        let mut req = Request::builder()
            .method(Method::GET)
            .uri(self.config.uri.clone());
        if let Some(headers) = req.headers_mut() {
            self.common_headers(headers, session.as_ref(), version.as_ref());
            headers.insert(ACCEPT, HeaderValue::from_static("text/event-stream"));
            if let Some(id) = last_event_id.and_then(|i| HeaderValue::from_str(i).ok()) {
                headers.insert("last-event-id", id);
            }
        }
        let req = req
            .body(Full::new(Bytes::new()))
            .map_err(|e| e.to_string())?;
        self.client
            .request(req)
            .await
            .map_err(|e| describe_error(&e))
    }

    /// Opens the stream on which the server sends its own messages, when it offers one, and
    /// keeps it open (resuming from its last event) while the session lasts.
    fn open_get_stream(self: &Arc<Self>) {
        let this = Arc::clone(self);
        let task = tokio::spawn(async move {
            let head = Head::default();
            let mut reader = SseReader::new(this.config.max);
            let mut failures = 0;
            while failures < GET_RETRIES {
                let r = this.get(reader.last_event_id.clone().as_deref()).await;
                match r {
                    Ok(r)
                        if r.status().is_success() && content_type_is(&r, "text/event-stream") =>
                    {
                        failures = 0;
                        this.read_stream(&head, r.into_body(), &mut reader).await;
                    }
                    // 405: the server offers no such stream.
                    Ok(r) if r.status() == StatusCode::METHOD_NOT_ALLOWED => return,
                    Ok(r) if r.status().is_client_error() => return,
                    _ => failures += 1,
                }
                let wait = reader.retry_ms.map_or(DEFAULT_RETRY, Duration::from_millis);
                tokio::time::sleep(wait).await;
            }
        });
        if let Some(old) = self.state().get_stream.replace(task) {
            old.abort();
        }
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Some(get) = self.state().get_stream.take() {
            get.abort();
        }
    }
}

/// Whether `message` is the response to `head`'s request (a response element of a batch
/// counts).
fn answers_request(head: &Head, message: &Value) -> bool {
    let Some(id) = &head.id else {
        return false;
    };
    let is_response = |m: &Value| m.get("method").is_none() && m.get("id") == Some(id);
    match message {
        Value::Array(items) => items.iter().any(is_response),
        m => is_response(m),
    }
}

fn content_type_is(response: &Response<Incoming>, wanted: &str) -> bool {
    response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case(wanted))
}

/// A header error's text, without the request it belonged to.
fn describe_error(e: &hyper_util::client::legacy::Error) -> String {
    use std::error::Error as _;
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// A header value for `s`: as it is when it is plain visible ASCII (spaces inside allowed),
/// else `=?base64?…?=` (protocol revision 2026-07-28, "Value Encoding").
pub(crate) fn header_value(s: &str) -> Result<HeaderValue, hyper::header::InvalidHeaderValue> {
    let visible = s.bytes().all(|b| (0x20..=0x7E).contains(&b));
    let padded = s.starts_with(' ') || s.ends_with(' ');
    let sentinel = s.starts_with("=?base64?") && s.ends_with("?=");
    let plain = visible && !padded && !sentinel;
    if plain {
        HeaderValue::from_str(s)
    } else {
        let encoded = base64::engine::general_purpose::STANDARD.encode(s.as_bytes());
        HeaderValue::from_str(&format!("=?base64?{encoded}?="))
    }
}

/// The `Mcp-Param-{Name}` headers for `arguments`: one per property of the schema marked
/// `x-mcp-header` (reached through `properties` only) whose value is a string, an integer or
/// a boolean in the arguments.
fn param_headers(schema: &Value, arguments: &Value) -> Vec<(HeaderName, HeaderValue)> {
    let mut out = Vec::new();
    collect_params(schema, arguments, 0, &mut out);
    out
}

fn collect_params(
    schema: &Value,
    value: &Value,
    depth: usize,
    out: &mut Vec<(HeaderName, HeaderValue)>,
) {
    if depth > 32 {
        return;
    }
    let (Some(props), Some(obj)) = (
        schema.get("properties").and_then(Value::as_object),
        value.as_object(),
    ) else {
        return;
    };
    for (key, sub) in props {
        let Some(v) = obj.get(key) else {
            continue;
        };
        if let Some(name) = sub.get("x-mcp-header").and_then(Value::as_str) {
            let text = match v {
                Value::String(s) => Some(s.clone()),
                Value::Bool(b) => Some(b.to_string()),
                Value::Number(n) if n.is_i64() || n.is_u64() => Some(n.to_string()),
                _ => None,
            };
            if let (Some(text), Ok(h)) = (
                text,
                HeaderName::from_bytes(format!("mcp-param-{name}").as_bytes()),
            ) && let Ok(hv) = header_value(&text)
            {
                out.push((h, hv));
            }
        }
        collect_params(sub, v, depth + 1, out);
    }
}

/// Copies the headers a listening proxy passes on from its host.
pub(crate) fn host_credentials(from: &HeaderMap) -> HeaderMap {
    let mut out = HeaderMap::new();
    if let Some(v) = from.get(AUTHORIZATION) {
        let mut v = v.clone();
        v.set_sensitive(true);
        out.insert(AUTHORIZATION, v);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn header_values_are_encoded_when_they_must_be() {
        assert_eq!(header_value("us-west1").unwrap(), "us-west1");
        assert_eq!(
            header_value("Hello, 世界").unwrap(),
            "=?base64?SGVsbG8sIOS4lueVjA==?="
        );
        assert_eq!(header_value(" padded ").unwrap(), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(
            header_value("line1\nline2").unwrap(),
            "=?base64?bGluZTEKbGluZTI=?="
        );
        assert_eq!(
            header_value("=?base64?literal?=").unwrap(),
            "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
        );
    }

    #[test]
    fn mirrored_parameters_come_from_the_arguments_as_sent() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "query": {"type": "string"},
            "opts": {"type": "object", "properties": {"tenant": {"type": "integer", "x-mcp-header": "Tenant"}}},
            "gone": {"type": "string", "x-mcp-header": "Gone"}
        }});
        let got = param_headers(
            &schema,
            &json!({"region": "us-west1", "query": "q", "opts": {"tenant": 42}}),
        );
        let got: Vec<(String, String)> = got
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_str().unwrap().to_owned()))
            .collect();
        assert_eq!(
            got,
            [
                ("mcp-param-region".to_owned(), "us-west1".to_owned()),
                ("mcp-param-tenant".to_owned(), "42".to_owned())
            ]
        );
    }

    #[test]
    fn header_options_take_values_from_the_environment() {
        // PATH is set in any test environment.
        let path = std::env::var("PATH").unwrap();
        let c = Config::new(
            "http://127.0.0.1:9/mcp",
            &["X-Path: a ${PATH} b".into()],
            10,
        )
        .unwrap();
        assert_eq!(c.headers.get("x-path").unwrap(), &format!("a {path} b"));
        assert!(
            Config::new(
                "http://127.0.0.1:9/mcp",
                &["X: ${TOOLMINIMIZE_NO_SUCH_VAR}".into()],
                10
            )
            .is_err()
        );
        assert!(Config::new("ftp://x/mcp", &[], 10).is_err());
        assert!(Config::new("http://127.0.0.1:9/mcp", &["no colon".into()], 10).is_err());
    }
}
