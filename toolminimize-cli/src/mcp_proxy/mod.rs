//! `toolminimize mcp-proxy`: a proxy in front of an MCP server that minimizes every
//! `tools/call`.
//!
//! The host talks to the proxy over stdio (it launches the proxy in place of the server) or,
//! with `--listen`, over Streamable HTTP; the proxy talks to a server it launches (stdio) or,
//! with `--upstream-url`, to a remote one over Streamable HTTP. Messages other than
//! `tools/call` requests go through unchanged. The arguments of each `tools/call` are rewritten
//! by the pipeline for the tool's input schema, taken from the server's `tools/list` results,
//! and the other keys under its `params` are minimized or dropped. See `MCP.md` next to this
//! crate's manifest.
//!
//! Layout: [`framing`] reads lines and [`scan`] the id of a line too long or broken to parse,
//! [`jsonrpc`] knows the few message shapes the proxy writes, [`tools_cache`] holds listed
//! tools, [`rewrite`] minimizes one call, [`router`] decides what each message becomes,
//! [`pump`] runs both directions of a connection (with the time budget), [`audit_log`] writes
//! `--audit-log`; [`stdio_server`] runs a server process, `http_upstream` reaches a remote
//! server, `listen` serves hosts over HTTP (with `sse`); this module wires them up.

mod audit_log;
mod framing;
#[cfg(feature = "http")]
mod http_upstream;
mod jsonrpc;
#[cfg(feature = "http")]
mod listen;
mod pump;
pub(crate) mod rewrite;
pub(crate) mod router;
pub(crate) mod scan;
#[cfg(feature = "http")]
mod sse;
mod stdio_server;
mod tools_cache;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use clap::Args as ClapArgs;
use tokio::io::{AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{Notify, mpsc};
use toolminimize_core::store::SessionKey;
use toolminimize_core::{Session, SessionStore};

use crate::options::{PolicyArgs, SessionStoreArgs};
use audit_log::AuditLog;
use framing::Frame;
use pump::{Conn, Limits, ToServer};
use rewrite::{OtherParams, Rewriter, Shared, UnlistedTools};
use router::Router;
use stdio_server::{QUEUE, StdioServer, describe, exit_code};

/// Default largest message, in bytes.
const DEFAULT_MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;
/// How long to let the server's last output drain after it exited.
const DRAIN: Duration = Duration::from_secs(2);

/// `mcp-proxy` options.
#[derive(Debug, ClapArgs)]
pub(crate) struct Args {
    #[command(flatten)]
    policy: PolicyArgs,
    /// Append one JSON line per tools/call to FILE: time, tool, paths, categories, operations,
    /// cost before and after. Never a value.
    #[arg(long, value_name = "FILE")]
    audit_log: Option<PathBuf>,
    /// What to do with a tools/call for a tool the server has not listed: minimize it with
    /// conservative defaults (strict, no schema), block it, or forward it unchanged.
    #[arg(long, value_enum, value_name = "MODE", default_value_t = UnlistedTools::Minimize)]
    unlisted_tools: UnlistedTools,
    /// What to do with the keys under a tools/call's params other than name, arguments and
    /// the protocol's own fields (vendor _meta entries, unknown keys): minimize them with
    /// conservative defaults, or drop them.
    #[arg(long, value_enum, value_name = "MODE", default_value_t = OtherParams::Minimize)]
    other_params: OtherParams,
    /// Time a tools/call may take to be minimized, from its arrival (e.g. 10s, 500ms). Past
    /// it the policy's fail mode decides: closed (default) answers the host with a JSON-RPC
    /// error and forwards nothing, open forwards the call unchanged.
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = parse_duration)]
    call_budget: Duration,
    /// Seconds the server gets to exit after the host closed the connection, before it is
    /// sent SIGTERM (and, as much again later, SIGKILL).
    #[arg(long, value_name = "SECONDS", default_value_t = 5)]
    shutdown_timeout: u64,
    /// Largest message accepted from either side, in bytes. A longer one is not forwarded; a
    /// request among them is answered with a JSON-RPC error carrying its id.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_MESSAGE_BYTES)]
    max_message_bytes: usize,
    #[command(flatten)]
    sessions: SessionStoreArgs,
    /// The conversation the proxied calls belong to: their placeholders and what each tool
    /// has received are kept under this id, so proxies given the same id and
    /// --session-store (or one proxy restarted) protect the conversation together. Without
    /// it, each connection is a conversation of its own.
    #[arg(long, value_name = "ID")]
    session_id: Option<String>,
    #[cfg(feature = "http")]
    #[command(flatten)]
    http: HttpArgs,
    #[command(flatten)]
    schema_cache: crate::schema_cache::ProxyArgs,
    /// The MCP server command and its arguments, after `--` (a stdio server).
    #[arg(last = true, value_name = "SERVER")]
    server: Vec<String>,
}

/// Options of the Streamable HTTP transport.
#[cfg(feature = "http")]
#[derive(Debug, ClapArgs)]
pub(crate) struct HttpArgs {
    /// The MCP endpoint of a remote server (Streamable HTTP), e.g. `https://mcp.example.com/mcp`,
    /// in place of a server command.
    #[arg(long, value_name = "URL", conflicts_with = "server")]
    upstream_url: Option<String>,
    /// A header sent with every request to --upstream-url, as `Name: value` (repeatable).
    /// `${VAR}` in the value is replaced by the environment variable VAR, so a token need not
    /// appear on the command line.
    #[arg(long = "header", value_name = "HEADER", requires = "upstream_url")]
    headers: Vec<String>,
    /// Serve the proxy over Streamable HTTP at http://ADDR/mcp instead of over stdio, e.g.
    /// 127.0.0.1:8808. Each session the host opens gets its own server process (or its own
    /// session with --upstream-url).
    #[arg(long, value_name = "ADDR")]
    listen: Option<std::net::SocketAddr>,
    /// An Origin accepted from browsers besides the loopback ones (repeatable); requests with
    /// any other Origin header get 403.
    #[arg(long = "allow-origin", value_name = "ORIGIN", requires = "listen")]
    allowed_origins: Vec<String>,
    /// Most sessions open at once when listening; the least recently used beyond it is closed.
    #[arg(long, value_name = "N", default_value_t = 16, requires = "listen")]
    max_sessions: usize,
    /// A listening session unused this long is closed (e.g. 30m).
    #[arg(long, value_name = "DURATION", default_value = "30m", value_parser = parse_duration, requires = "listen")]
    session_idle_timeout: Duration,
}

fn parse_duration(s: &str) -> Result<Duration, String> {
    humantime::parse_duration(s).map_err(|e| format!("`{s}` is not a duration: {e}"))
}

pub(crate) fn run(args: Args) -> Result<ExitCode, String> {
    let minimizer = args.policy.minimizer()?;
    args.schema_cache.install()?;
    let audit = args.audit_log.as_deref().map(AuditLog::open).transpose()?;
    if args.session_id.as_deref().is_some_and(str::is_empty) {
        return Err("--session-id must not be empty".to_owned());
    }
    let sessions = Sessions::new(args.sessions.open()?, args.session_id.clone());
    let shared = Arc::new(
        Shared::new(minimizer, args.unlisted_tools, args.other_params, audit)
            .with_sessions(sessions),
    );
    let limits = Limits {
        max_message_bytes: args.max_message_bytes,
        call_budget: args.call_budget,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the I/O runtime: {e}"))?;
    let result = runtime.block_on(async {
        #[cfg(feature = "http")]
        {
            if let Some(addr) = args.http.listen {
                return listen::serve(addr, &args, shared, limits).await;
            }
            if let Some(url) = &args.http.upstream_url {
                return stdio_to_http(url, &args, shared, limits).await;
            }
        }
        if args.server.is_empty() {
            return Err("no MCP server: give its command after `--`".to_owned());
        }
        stdio_to_stdio(&args, shared, limits).await
    });
    // The task reading the host's stdin may still sit in a blocking read; do not wait for it.
    runtime.shutdown_background();
    result
}

/// A router for one connection, with its session.
fn new_router(shared: &Arc<Shared>, name: &str) -> Arc<Router> {
    let session = shared.sessions().session(name);
    Arc::new(Router::new(Rewriter::new(Arc::clone(shared), session)))
}

/// Where the connections' sessions live and what they are called.
#[derive(Debug)]
pub(crate) struct Sessions {
    /// A store shared with other processes (`--session-store`).
    store: Option<Arc<dyn SessionStore>>,
    /// The one conversation of every connection (`--session-id`), held here when there is
    /// no shared store.
    conversation: Option<Session>,
    id: Option<String>,
    /// Tells this process's connections apart from other processes' in a shared store.
    process: String,
}

impl Default for Sessions {
    fn default() -> Self {
        Sessions::new(None, None)
    }
}

impl Sessions {
    pub(crate) fn new(store: Option<Arc<dyn SessionStore>>, id: Option<String>) -> Self {
        let process = format!(
            "{:016x}",
            SessionKey::random().hash(&std::process::id().to_le_bytes())
        );
        let conversation = match (&store, &id) {
            (None, Some(id)) => Some(Session::new(id.clone())),
            _ => None,
        };
        Sessions {
            store,
            conversation,
            id,
            process,
        }
    }

    /// The session of the connection called `name`.
    fn session(&self, name: &str) -> Session {
        if let Some(s) = &self.conversation {
            return s.clone();
        }
        let id = match &self.id {
            Some(id) => id.clone(),
            None => format!("mcp-proxy-{}-{name}", self.process),
        };
        match &self.store {
            Some(store) => Session::in_store(id, Arc::clone(store)),
            None => Session::new(id),
        }
    }
}

/// The host's side over stdio: frames read from stdin, lines written to stdout.
struct StdioHost {
    frames: mpsc::Receiver<Frame>,
    to_host: mpsc::Sender<Vec<u8>>,
    writer: tokio::task::JoinHandle<()>,
    /// Notified when the host hung up (end of stdin, or stdout closed).
    gone: Arc<Notify>,
    closed: Arc<AtomicBool>,
}

impl StdioHost {
    fn start(max: usize, to_server: mpsc::Sender<ToServer>) -> Self {
        let (frames_tx, frames) = mpsc::channel::<Frame>(QUEUE);
        let (to_host, host_rx) = mpsc::channel::<Vec<u8>>(QUEUE);
        let gone = Arc::new(Notify::new());
        let closed = Arc::new(AtomicBool::new(false));
        tokio::spawn(pump::read_lines(
            BufReader::with_capacity(1 << 16, tokio::io::stdin()),
            max,
            frames_tx,
            "host",
        ));
        let writer = tokio::spawn(write_host(
            tokio::io::stdout(),
            host_rx,
            to_server,
            Arc::clone(&gone),
            Arc::clone(&closed),
        ));
        StdioHost {
            frames,
            to_host,
            writer,
            gone,
            closed,
        }
    }

    /// Runs the host → server direction; marks the host gone when it ends.
    fn pump(&mut self, conn: &Arc<Conn>) -> tokio::task::JoinHandle<()> {
        let (_, empty) = mpsc::channel(1);
        let frames = std::mem::replace(&mut self.frames, empty);
        let conn = Arc::clone(conn);
        let gone = Arc::clone(&self.gone);
        let closed = Arc::clone(&self.closed);
        tokio::spawn(async move {
            pump::from_host(conn, frames).await;
            closed.store(true, Ordering::SeqCst);
            gone.notify_one();
        })
    }
}

async fn stdio_to_stdio(
    args: &Args,
    shared: Arc<Shared>,
    limits: Limits,
) -> Result<ExitCode, String> {
    let (mut server, pipes) = StdioServer::spawn(&args.server, limits.max_message_bytes)?;
    let program = server.program.clone();
    let mut host = StdioHost::start(limits.max_message_bytes, pipes.to_server.clone());
    let conn = Conn::new(
        new_router(&shared, "stdio"),
        pipes.to_server,
        host.to_host.clone(),
        limits,
        pump::cpus(),
    );
    let host_reader = host.pump(&conn);
    let server_reader = tokio::spawn(pump::from_server(Arc::clone(&conn), pipes.from_server));
    drop(conn);

    let grace = Duration::from_secs(args.shutdown_timeout);
    let gone = Arc::clone(&host.gone);
    let exited = tokio::select! {
        status = server.wait() => Some(status),
        () = gone.notified() => None,
    };
    let (status, killed) = match exited {
        Some(status) => (status, false),
        None => server.shut_down(grace).await,
    };
    let status = status.map_err(|e| format!("waiting for the MCP server: {e}"))?;

    // Let the server's last lines reach the host, then stop reading from the host.
    let _ = tokio::time::timeout(DRAIN, server_reader).await;
    host_reader.abort();
    drop(host.to_host);
    let _ = tokio::time::timeout(DRAIN, host.writer).await;

    let host_closed = host.closed.load(Ordering::SeqCst);
    if killed {
        eprintln!(
            "toolminimize: the MCP server `{program}` did not exit within {}s after its input closed and was stopped ({})",
            args.shutdown_timeout,
            describe(status)
        );
    } else if host_closed {
        if !status.success() {
            eprintln!(
                "toolminimize: the MCP server `{program}` ended with {} after the host closed the connection",
                describe(status)
            );
        }
    } else if status.success() {
        eprintln!(
            "toolminimize: the MCP server `{program}` exited while the host was still connected"
        );
    } else {
        eprintln!(
            "toolminimize: the MCP server `{program}` crashed ({})",
            describe(status)
        );
    }
    Ok(exit_code(status))
}

/// A stdio host in front of a remote server over Streamable HTTP.
#[cfg(feature = "http")]
async fn stdio_to_http(
    url: &str,
    args: &Args,
    shared: Arc<Shared>,
    limits: Limits,
) -> Result<ExitCode, String> {
    let config = http_upstream::Config::new(url, &args.http.headers, limits.max_message_bytes)?;
    let router = new_router(&shared, "http");
    let (upstream, pipes) = http_upstream::Upstream::start(config, Arc::clone(&router), None)?;
    let mut host = StdioHost::start(limits.max_message_bytes, pipes.to_server.clone());
    let conn = Conn::new(
        router,
        pipes.to_server,
        host.to_host.clone(),
        limits,
        pump::cpus(),
    );
    let host_reader = host.pump(&conn);
    let server_reader = tokio::spawn(pump::from_server(Arc::clone(&conn), pipes.from_server));
    drop(conn);
    let _ = host_reader.await;
    // The host hung up: end the upstream session, deliver what is left, stop.
    let grace = Duration::from_secs(args.shutdown_timeout);
    upstream.close(grace).await;
    let _ = tokio::time::timeout(DRAIN, server_reader).await;
    drop(host.to_host);
    let _ = tokio::time::timeout(DRAIN, host.writer).await;
    Ok(ExitCode::SUCCESS)
}

async fn write_host(
    mut stdout: impl AsyncWrite + Unpin,
    mut rx: mpsc::Receiver<Vec<u8>>,
    to_server: mpsc::Sender<ToServer>,
    host_gone: Arc<Notify>,
    host_closed: Arc<AtomicBool>,
) {
    while let Some(line) = rx.recv().await {
        if stdout.write_all(&line).await.is_err() || stdout.flush().await.is_err() {
            // The host stopped reading: treat it as gone and close the server's input.
            host_closed.store(true, Ordering::SeqCst);
            let _ = to_server.send(ToServer::Close).await;
            host_gone.notify_one();
            break;
        }
    }
    drop(to_server);
    while rx.recv().await.is_some() {}
}
