//! `toolminimize mcp-proxy`: a stdio proxy in front of an MCP server that minimizes the
//! arguments of every `tools/call`.
//!
//! The host (an assistant, an IDE, any agent) launches the proxy in place of the server; the
//! proxy launches the server and forwards newline-delimited JSON-RPC both ways. Lines other
//! than `tools/call` requests go through byte for byte. The arguments of each `tools/call`
//! are rewritten by the pipeline for the tool's input schema, taken from the server's
//! `tools/list` results. See `MCP.md` next to this crate's manifest.
//!
//! Layout: [`framing`] reads lines, [`jsonrpc`] knows the few message shapes the proxy
//! writes, [`tools_cache`] holds listed tools, [`rewrite`] minimizes one call, [`router`]
//! decides what each line becomes, [`audit_log`] writes `--audit-log`; this module runs the
//! processes and the four I/O tasks.

mod audit_log;
mod framing;
mod jsonrpc;
mod rewrite;
mod router;
mod tools_cache;

use std::path::PathBuf;
use std::process::{ExitCode, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use clap::Args as ClapArgs;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::{Notify, mpsc};
use toolminimize_core::Session;

use crate::options::PolicyArgs;
use audit_log::AuditLog;
use framing::{Frame, LineReader};
use rewrite::{Rewriter, UnlistedTools};
use router::{HostPlan, Out, Router};

/// Default largest message, in bytes.
const DEFAULT_MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;
/// Messages queued per direction before reading pauses.
const QUEUE: usize = 64;
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
    /// Seconds the server gets to exit after the host closed the connection, before it is
    /// sent SIGTERM (and, as much again later, SIGKILL).
    #[arg(long, value_name = "SECONDS", default_value_t = 5)]
    shutdown_timeout: u64,
    /// Largest message accepted from either side, in bytes; longer lines are dropped with a
    /// note on stderr.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_MESSAGE_BYTES)]
    max_message_bytes: usize,
    #[command(flatten)]
    schema_cache: crate::schema_cache::ProxyArgs,
    /// The MCP server command and its arguments, after `--`.
    #[arg(last = true, required = true, value_name = "SERVER")]
    server: Vec<String>,
}

pub(crate) fn run(args: Args) -> Result<ExitCode, String> {
    let minimizer = args.policy.minimizer()?;
    args.schema_cache.install()?;
    let audit = args.audit_log.as_deref().map(AuditLog::open).transpose()?;
    let session = Session::new(format!("mcp-proxy-{}", std::process::id()));
    let router = Arc::new(Router::new(Rewriter::new(
        minimizer,
        args.unlisted_tools,
        session,
        audit,
    )));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the I/O runtime: {e}"))?;
    let result = runtime.block_on(proxy(&args, router));
    // The task reading the host's stdin may still sit in a blocking read; do not wait for it.
    runtime.shutdown_background();
    result
}

/// A line for the server, or the end of the host's side.
#[derive(Debug)]
enum ToServer {
    Line(Vec<u8>),
    Close,
}

async fn proxy(args: &Args, router: Arc<Router>) -> Result<ExitCode, String> {
    let (program, rest) = args
        .server
        .split_first()
        .ok_or_else(|| "no MCP server command after `--`".to_owned())?;
    let mut child = Command::new(program)
        .args(rest)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("cannot start the MCP server `{program}`: {e}"))?;
    let (Some(child_in), Some(child_out)) = (child.stdin.take(), child.stdout.take()) else {
        return Err("the MCP server's stdin and stdout are not available".into());
    };

    let (to_server, server_rx) = mpsc::channel::<ToServer>(QUEUE);
    let (to_host, host_rx) = mpsc::channel::<Vec<u8>>(QUEUE);
    let host_gone = Arc::new(Notify::new());
    let host_closed = Arc::new(AtomicBool::new(false));

    let server_writer = tokio::spawn(write_server(child_in, server_rx));
    let host_writer = tokio::spawn(write_host(
        tokio::io::stdout(),
        host_rx,
        to_server.clone(),
        Arc::clone(&host_gone),
        Arc::clone(&host_closed),
    ));
    let host_reader = tokio::spawn(read_host(
        tokio::io::stdin(),
        args.max_message_bytes,
        Arc::clone(&router),
        to_server.clone(),
        to_host.clone(),
        Arc::clone(&host_gone),
        Arc::clone(&host_closed),
    ));
    let server_reader = tokio::spawn(read_server(
        child_out,
        args.max_message_bytes,
        router,
        to_server,
        to_host,
    ));

    let grace = Duration::from_secs(args.shutdown_timeout);
    let exited = tokio::select! {
        status = child.wait() => Some(status),
        () = async { host_gone.notified().await; tokio::time::sleep(grace).await } => None,
    };
    let (status, killed) = match exited {
        Some(status) => (status, false),
        None => (terminate(&mut child, grace).await, true),
    };
    let status = status.map_err(|e| format!("waiting for the MCP server: {e}"))?;

    // Let the server's last lines reach the host, then stop reading from the host.
    let _ = tokio::time::timeout(DRAIN, server_reader).await;
    host_reader.abort();
    let _ = tokio::time::timeout(DRAIN, host_writer).await;
    server_writer.abort();

    let host_closed = host_closed.load(Ordering::SeqCst);
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
    } else {
        if status.success() {
            eprintln!(
                "toolminimize: the MCP server `{program}` exited while the host was still connected"
            );
        } else {
            eprintln!(
                "toolminimize: the MCP server `{program}` crashed ({})",
                describe(status)
            );
        }
    }
    Ok(exit_code(status))
}

/// Sends SIGTERM, waits, then kills.
async fn terminate(child: &mut Child, grace: Duration) -> std::io::Result<ExitStatus> {
    #[cfg(unix)]
    if let Some(pid) = child.id().and_then(|p| i32::try_from(p).ok()) {
        use nix::sys::signal::{Signal, kill};
        use nix::unistd::Pid;
        let _ = kill(Pid::from_raw(pid), Signal::SIGTERM);
        if let Ok(status) = tokio::time::timeout(grace, child.wait()).await {
            return status;
        }
    }
    let _ = child.start_kill();
    child.wait().await
}

fn describe(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exit status {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}");
        }
    }
    "no exit status".to_owned()
}

/// The server's exit code; 128 + the signal number when a signal ended it.
fn exit_code(status: ExitStatus) -> ExitCode {
    if let Some(code) = status.code() {
        return ExitCode::from(u8::try_from(code).unwrap_or(1));
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return ExitCode::from(u8::try_from(128 + signal).unwrap_or(1));
        }
    }
    ExitCode::FAILURE
}

async fn read_host(
    stdin: impl AsyncRead + Unpin,
    max: usize,
    router: Arc<Router>,
    to_server: mpsc::Sender<ToServer>,
    to_host: mpsc::Sender<Vec<u8>>,
    host_gone: Arc<Notify>,
    host_closed: Arc<AtomicBool>,
) {
    let mut lines = LineReader::new(BufReader::with_capacity(1 << 16, stdin), max);
    loop {
        let line = match lines.next_frame().await {
            Ok(Some(Frame::Line(line))) => line,
            Ok(Some(Frame::TooLong(n))) => {
                eprintln!(
                    "toolminimize: dropped a message from the host of {n} bytes (limit {max})"
                );
                continue;
            }
            Ok(None) => break,
            Err(e) => {
                eprintln!("toolminimize: reading from the host: {e}");
                break;
            }
        };
        let out = match router.plan_host_line(line) {
            HostPlan::Done(out) => out,
            HostPlan::Rewrite(message) => {
                let router = Arc::clone(&router);
                match tokio::task::spawn_blocking(move || router.rewrite(message)).await {
                    Ok(out) => out,
                    Err(_) => {
                        eprintln!(
                            "toolminimize: minimizing a tools/call failed; the call was dropped"
                        );
                        continue;
                    }
                }
            }
        };
        if !send(out, &to_server, &to_host).await {
            break;
        }
    }
    host_closed.store(true, Ordering::SeqCst);
    let _ = to_server.send(ToServer::Close).await;
    host_gone.notify_one();
}

async fn read_server(
    stdout: impl AsyncRead + Unpin,
    max: usize,
    router: Arc<Router>,
    to_server: mpsc::Sender<ToServer>,
    to_host: mpsc::Sender<Vec<u8>>,
) {
    let mut lines = LineReader::new(BufReader::with_capacity(1 << 16, stdout), max);
    loop {
        match lines.next_frame().await {
            Ok(Some(Frame::Line(line))) => {
                if !send(router.on_server_line(line), &to_server, &to_host).await {
                    break;
                }
            }
            Ok(Some(Frame::TooLong(n))) => {
                eprintln!(
                    "toolminimize: dropped a message from the server of {n} bytes (limit {max})"
                );
            }
            Ok(None) => break,
            Err(e) => {
                eprintln!("toolminimize: reading from the server: {e}");
                break;
            }
        }
    }
}

/// Queues the lines of `out`. False when the host side is gone.
async fn send(
    out: Out,
    to_server: &mpsc::Sender<ToServer>,
    to_host: &mpsc::Sender<Vec<u8>>,
) -> bool {
    for line in out.to_server {
        // A closed server writer only means the server is gone; its exit ends the proxy.
        let _ = to_server.send(ToServer::Line(line)).await;
    }
    for line in out.to_host {
        if to_host.send(line).await.is_err() {
            return false;
        }
    }
    true
}

async fn write_server(mut stdin: ChildStdin, mut rx: mpsc::Receiver<ToServer>) {
    while let Some(msg) = rx.recv().await {
        match msg {
            ToServer::Line(line) => {
                if stdin.write_all(&line).await.is_err() || stdin.flush().await.is_err() {
                    // The server stopped reading; its exit ends the proxy.
                    break;
                }
            }
            ToServer::Close => break,
        }
    }
    // Dropping stdin closes the server's input: the MCP way to ask it to exit.
    drop(stdin);
    // Keep draining so senders never block on a full queue.
    while rx.recv().await.is_some() {}
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
