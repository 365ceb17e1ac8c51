//! An HTTP gateway that minimizes JSON tool calls and forwards them to an upstream tool server.
//!
//! The gateway is an axum [`Router`] (axum is tower): `POST /tools/call` takes one tool call as
//! JSON, sends it through a tower stack of [`MinimizeLayer`], a
//! concurrency limit and a timeout, and POSTs it, in the shape it arrived in, to the upstream
//! URL. The upstream's status and body come back to the caller, with the report's costs in
//! `x-toolminimize-*` headers.
//!
//! Accepted bodies:
//!
//! - MCP: `{"name": "get_forecast", "arguments": {"city": "Lyon"}}`
//! - JSON-RPC: `{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": .., "arguments": {..}}}`
//! - OpenAI tool call: `{"id": "call_1", "type": "function", "function": {"name": .., "arguments": "{..}"}}`
//!   (and the older function call, `{"name": .., "arguments": "{..}"}`)
//!
//! Two optional top-level fields are read by the gateway and not forwarded: `"task_context"`, the
//! user's own words for the task (sensitive data they asked to send is kept), and `"session"`, a
//! conversation id (calls with the same id share one [`Session`](toolminimize_core::Session), so
//! placeholders stay consistent across the conversation and a value dribbled out over several
//! calls is caught; sessions live in an in-process store with a cap and a time to live, or in
//! a store several gateways share: [`Gateway::session_store`]). Tool definitions come from a
//! [`ToolRegistry`]; tools it does not know are minimized with conservative
//! defaults.
//!
//! | case | status | forwarded? |
//! |---|---|---|
//! | minimized and forwarded | the upstream's | yes, minimized |
//! | body not JSON or not a tool call | 400, `{"error": ..}` | no |
//! | the policy blocks the call | 403, `{"error": .., "blocked": true, "reason": ..}` | no |
//! | minimization failed, fail-closed policy | 422, `{"error": .., "blocked": true, "reason": "internal"}` | no |
//! | unknown tool, registry rejects unknown tools | 404 | no |
//! | upstream unreachable or failing | 502 | attempted |
//! | upstream too slow | 504 | attempted |
//!
//! ```no_run
//! use toolminimize_core::Minimizer;
//! use toolminimize_tower::gateway::Gateway;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
//! let gateway = Gateway::new("http://127.0.0.1:9000/tools/call", Minimizer::new()?)?;
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! gateway.serve(listener).await?;
//! # Ok(())
//! # }
//! ```

mod upstream;
mod wire;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::json;
use toolminimize_core::{BlockReason, MemoryStore, Minimizer, Session, SessionStore};
use tower::limit::ConcurrencyLimit;
use tower::timeout::Timeout;
use tower::timeout::error::Elapsed;
use tower::{ServiceBuilder, ServiceExt};

use crate::error::{Error, ErrorKind};
use crate::layer::MinimizeLayer;
use crate::registry::ToolRegistry;
use crate::service::Minimize;
use upstream::{Upstream, UpstreamResponse};
pub use wire::GatewayCall;

/// The path tool calls are POSTed to.
pub const CALL_PATH: &str = "/tools/call";

/// The gateway could not be configured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayError(String);

impl fmt::Display for GatewayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GatewayError {}

/// The gateway's configuration. Build it, then take its [`router`](Gateway::router) or
/// [`serve`](Gateway::serve) it.
#[derive(Debug, Clone)]
pub struct Gateway {
    upstream: Uri,
    minimizer: Minimizer,
    registry: ToolRegistry,
    timeout: Duration,
    concurrency: usize,
    max_response_bytes: usize,
    max_sessions: usize,
    session_ttl: Duration,
    session_store: Option<Arc<dyn SessionStore>>,
    time_budget: Option<Duration>,
}

type Stack = Minimize<ConcurrencyLimit<Timeout<Upstream>>>;

struct AppState {
    stack: Stack,
    sessions: Arc<dyn SessionStore>,
}

impl Gateway {
    /// A gateway forwarding to `upstream`, an `http://` URL (plain HTTP/1.1: run it next to the
    /// tool server, or behind a TLS-terminating proxy).
    ///
    /// # Errors
    /// When `upstream` is not an absolute `http://` URL.
    pub fn new(upstream: &str, minimizer: Minimizer) -> Result<Self, GatewayError> {
        let uri: Uri = upstream
            .parse()
            .map_err(|_| GatewayError(format!("upstream `{upstream}` is not a valid URL")))?;
        if uri.scheme_str() != Some("http") || uri.authority().is_none() {
            return Err(GatewayError(format!(
                "upstream `{upstream}` must be an absolute http:// URL"
            )));
        }
        Ok(Gateway {
            upstream: uri,
            minimizer,
            registry: ToolRegistry::new(),
            timeout: Duration::from_secs(30),
            concurrency: 256,
            max_response_bytes: 16 * 1024 * 1024,
            max_sessions: 10_000,
            session_ttl: Duration::from_secs(3600),
            session_store: None,
            time_budget: None,
        })
    }

    /// Tool definitions for the calls' names.
    #[must_use]
    pub fn registry(mut self, registry: ToolRegistry) -> Self {
        self.registry = registry;
        self
    }

    /// How long the upstream may take to answer (default 30 s).
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// How many calls may be in flight upstream at once (default 256; at least 1).
    #[must_use]
    pub fn concurrency_limit(mut self, limit: usize) -> Self {
        self.concurrency = limit.max(1);
        self
    }

    /// The largest upstream response relayed (default 16 MiB); larger ones are a 502.
    #[must_use]
    pub fn max_response_bytes(mut self, bytes: usize) -> Self {
        self.max_response_bytes = bytes;
        self
    }

    /// How many conversations' sessions the default in-process store keeps (default 10 000);
    /// past that, the least recently used goes.
    #[must_use]
    pub fn max_sessions(mut self, sessions: usize) -> Self {
        self.max_sessions = sessions;
        self
    }

    /// How long the default in-process store keeps an idle conversation's session (default
    /// one hour).
    #[must_use]
    pub fn session_ttl(mut self, ttl: Duration) -> Self {
        self.session_ttl = ttl;
        self
    }

    /// Keeps sessions in `store` instead of the default in-process
    /// [`MemoryStore`]: with a store shared by several gateways (the `toolminimize-redis`
    /// crate), replicas behind a load balancer protect one conversation together. When the
    /// store fails, calls of a session go through the policy's fail mode (blocked by default).
    #[must_use]
    pub fn session_store(mut self, store: Arc<dyn SessionStore>) -> Self {
        self.session_store = Some(store);
        self
    }

    /// A time budget for minimizing each call, on top of the minimizer's policy; a call over
    /// budget is answered like any other minimization failure (blocked under fail-closed).
    #[must_use]
    pub fn time_budget(mut self, budget: Duration) -> Self {
        self.time_budget = Some(budget);
        self
    }

    /// The axum router: `POST /tools/call`.
    pub fn router(self) -> Router {
        let mut layer = MinimizeLayer::new(self.minimizer).registry(self.registry);
        if let Some(budget) = self.time_budget {
            layer = layer.time_budget(budget);
        }
        let sessions = self
            .session_store
            .unwrap_or_else(|| Arc::new(MemoryStore::new(self.max_sessions, self.session_ttl)));
        let stack = ServiceBuilder::new()
            .layer(layer)
            .concurrency_limit(self.concurrency)
            .timeout(self.timeout)
            .service(Upstream::new(self.upstream, self.max_response_bytes));
        Router::new()
            .route(CALL_PATH, post(handle))
            .with_state(Arc::new(AppState { stack, sessions }))
    }

    /// Serves the router on `listener` until the process ends.
    ///
    /// # Errors
    /// When accepting connections fails.
    pub async fn serve(self, listener: tokio::net::TcpListener) -> std::io::Result<()> {
        axum::serve(listener, self.router()).await
    }
}

async fn handle(State(state): State<Arc<AppState>>, body: Bytes) -> Response {
    let mut call = match GatewayCall::parse(&body) {
        Ok(call) => call,
        Err(bad) => {
            tracing::info!(error = %bad.0, "tool call rejected: bad request");
            return json_error(StatusCode::BAD_REQUEST, &bad.0, None);
        }
    };
    if let Some(id) = call.session_id() {
        let session = Session::in_store(id, Arc::clone(&state.sessions));
        call.set_session(session);
    }
    tracing::debug!(
        tool = call.tool_name(),
        dialect = call.dialect().id(),
        "tool call received"
    );
    match state.stack.clone().oneshot(call).await {
        Ok(response) => relay(response),
        Err(e) => error_response(&e),
    }
}

fn relay(upstream: UpstreamResponse) -> Response {
    let mut response = Response::new(Body::from(upstream.body));
    *response.status_mut() = upstream.status;
    let headers = response.headers_mut();
    if let Some(ct) = upstream.content_type {
        headers.insert(header::CONTENT_TYPE, ct);
    }
    if let Some(report) = upstream.report {
        headers.insert("x-toolminimize-cost-before", number(report.cost_before()));
        headers.insert("x-toolminimize-cost-after", number(report.cost_after()));
        headers.insert(
            "x-toolminimize-items",
            HeaderValue::from(report.items().len()),
        );
        headers.insert(
            "x-toolminimize-changed",
            HeaderValue::from_static(if report.changed() { "true" } else { "false" }),
        );
    }
    response
}

fn number(x: f64) -> HeaderValue {
    // `+ 0.0` turns a negative zero into zero.
    HeaderValue::from_str(&(x + 0.0).to_string()).unwrap_or_else(|_| HeaderValue::from_static("0"))
}

fn error_response(e: &Error) -> Response {
    let message = e.to_string();
    match e.kind() {
        ErrorKind::Blocked => json_error(StatusCode::FORBIDDEN, &message, e.block_reason()),
        ErrorKind::Internal => {
            json_error(StatusCode::UNPROCESSABLE_ENTITY, &message, e.block_reason())
        }
        ErrorKind::InvalidArguments => json_error(StatusCode::BAD_REQUEST, &message, None),
        ErrorKind::UnknownTool => json_error(StatusCode::NOT_FOUND, &message, None),
        _ => match e.inner_ref() {
            Some(inner) if inner.is::<Elapsed>() => {
                tracing::warn!("upstream tool server timed out");
                json_error(
                    StatusCode::GATEWAY_TIMEOUT,
                    "the upstream tool server did not answer in time",
                    None,
                )
            }
            inner => {
                let detail = inner.map(ToString::to_string).unwrap_or_default();
                tracing::warn!(error = %detail, "upstream tool server failed");
                json_error(
                    StatusCode::BAD_GATEWAY,
                    "the upstream tool server could not be reached or failed",
                    None,
                )
            }
        },
    }
}

fn json_error(status: StatusCode, message: &str, blocked: Option<&BlockReason>) -> Response {
    let body = match blocked {
        Some(reason) => json!({"error": message, "blocked": true, "reason": reason.id()}),
        None => json!({"error": message}),
    };
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body.to_string(),
    )
        .into_response()
}
