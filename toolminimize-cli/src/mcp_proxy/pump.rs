//! The two directions of one host ↔ server connection, whatever carries the messages (stdio
//! pipes, HTTP requests and responses): frames come in on a channel, the [`Router`] decides what
//! each becomes, and lines go out on the other side's channel.
//!
//! A `tools/call` is minimized on a blocking thread, in its own task, so the host's later
//! messages (pings, lists, other calls) keep flowing while it runs. Each call has a time budget
//! counted from its arrival; past it, the policy's fail mode decides: closed (the default)
//! answers the host with a JSON-RPC error and sends nothing to the server, open forwards the
//! call as it came. Every request with a readable id gets an answer: one that is too large,
//! unparsable, over budget, or whose rewrite failed gets a JSON-RPC error carrying its id.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::AsyncBufRead;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};
use toolminimize_core::FailMode;

use super::framing::{Frame, LineReader};
use super::jsonrpc::{INTERNAL_ERROR, INVALID_REQUEST, error_response, id_key, to_line};
use super::router::{HostPlan, Out, Pending, Raw, Router};
use super::scan::Scanned;

/// Calls of one connection waiting for or in minimization before the proxy stops reading
/// from the host.
const MAX_QUEUED_CALLS: u32 = 64;

/// A line for the server, or the end of the host's side.
#[derive(Debug)]
pub(crate) enum ToServer {
    Line(Vec<u8>),
    Close,
}

/// Limits that apply to every connection.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// Largest message accepted from either side, in bytes.
    pub(crate) max_message_bytes: usize,
    /// Time a `tools/call` may take to be minimized, from its arrival.
    pub(crate) call_budget: Duration,
}

/// One host ↔ server connection.
#[derive(Debug)]
pub(crate) struct Conn {
    router: Arc<Router>,
    to_server: mpsc::Sender<ToServer>,
    to_host: mpsc::Sender<Vec<u8>>,
    limits: Limits,
    /// Pipelines running at once, shared by all connections (the CPUs).
    cpus: Arc<Semaphore>,
    /// Calls of this connection queued or in minimization.
    queued: Arc<Semaphore>,
    /// Ids of requests in minimization; `true` once the host cancelled one.
    in_flight: Mutex<HashMap<String, bool>>,
}

impl Conn {
    pub(crate) fn new(
        router: Arc<Router>,
        to_server: mpsc::Sender<ToServer>,
        to_host: mpsc::Sender<Vec<u8>>,
        limits: Limits,
        cpus: Arc<Semaphore>,
    ) -> Arc<Self> {
        Arc::new(Conn {
            router,
            to_server,
            to_host,
            limits,
            cpus,
            queued: Arc::new(Semaphore::new(MAX_QUEUED_CALLS as usize)),
            in_flight: Mutex::new(HashMap::new()),
        })
    }

    fn in_flight(&self) -> MutexGuard<'_, HashMap<String, bool>> {
        self.in_flight
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Queues the lines of `out`. False when the host side is gone.
    pub(crate) async fn send(&self, out: Out) -> bool {
        for line in out.to_server {
            // A closed server writer only means the server is gone; its exit ends the proxy.
            let _ = self.to_server.send(ToServer::Line(line)).await;
        }
        for line in out.to_host {
            if self.to_host.send(line).await.is_err() {
                return false;
            }
        }
        true
    }
}

/// The number of pipelines that may run at once.
pub(crate) fn cpus() -> Arc<Semaphore> {
    let n = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    Arc::new(Semaphore::new(n))
}

/// Reads newline-delimited frames from `input` into `tx` until the end of the stream.
pub(crate) async fn read_lines(
    input: impl AsyncBufRead + Unpin,
    max: usize,
    tx: mpsc::Sender<Frame>,
    side: &'static str,
) {
    let mut lines = LineReader::new(input, max);
    loop {
        match lines.next_frame().await {
            Ok(Some(frame)) => {
                if tx.send(frame).await.is_err() {
                    break;
                }
            }
            Ok(None) => break,
            Err(e) => {
                eprintln!("toolminimize: reading from the {side}: {e}");
                break;
            }
        }
    }
}

/// The host → server direction: runs until the host's frames end (or the host is gone), then
/// closes the server's input.
pub(crate) async fn from_host(conn: Arc<Conn>, mut frames: mpsc::Receiver<Frame>) {
    while let Some(frame) = frames.recv().await {
        let arrived = Instant::now();
        let line = match frame {
            Frame::Line(line) => line,
            Frame::TooLong(n, scanned) => {
                let max = conn.limits.max_message_bytes;
                eprintln!(
                    "toolminimize: dropped a message from the host of {n} bytes (limit {max})"
                );
                if let Some(id) = scanned.id.filter(|_| scanned.object) {
                    let message = format!(
                        "the message is {n} bytes long, over the proxy's limit of {max} bytes; it was not forwarded"
                    );
                    let reply = error_response(Some(&id), INVALID_REQUEST, &message);
                    if conn.to_host.send(to_line(&reply)).await.is_err() {
                        break;
                    }
                }
                continue;
            }
        };
        if cancels_a_call_in_flight(&conn, &line) {
            continue;
        }
        match conn.router.plan_host_line(line) {
            HostPlan::Done(out) => {
                if !conn.send(out).await {
                    break;
                }
            }
            HostPlan::Rewrite(pending) => {
                let Ok(permit) = Arc::clone(&conn.queued).acquire_owned().await else {
                    break;
                };
                {
                    let mut in_flight = conn.in_flight();
                    for id in pending.waiting.iter().filter_map(|(id, _)| id.as_ref()) {
                        in_flight.insert(id_key(id), false);
                    }
                }
                tokio::spawn(rewrite(Arc::clone(&conn), pending, arrived, permit));
            }
        }
    }
    // Let the calls still being minimized reach the server before its input closes.
    let _ = conn.queued.acquire_many(MAX_QUEUED_CALLS).await;
    let _ = conn.to_server.send(ToServer::Close).await;
}

/// A `notifications/cancelled` for a call still being minimized: the call is dropped when its
/// rewrite ends, and neither it nor the notification reaches the server.
fn cancels_a_call_in_flight(conn: &Conn, line: &[u8]) -> bool {
    const NEEDLE: &[u8] = b"notifications/cancelled";
    if !line.windows(NEEDLE.len()).any(|w| w == NEEDLE) {
        return false;
    }
    let Ok(message) = serde_json::from_slice::<Value>(line) else {
        return false;
    };
    if message.get("method").and_then(Value::as_str) != Some("notifications/cancelled") {
        return false;
    }
    let Some(id) = message.get("params").and_then(|p| p.get("requestId")) else {
        return false;
    };
    match conn.in_flight().get_mut(&id_key(id)) {
        Some(cancelled) => {
            *cancelled = true;
            true
        }
        None => false,
    }
}

/// Minimizes the calls of one message within the budget and sends what they become.
async fn rewrite(
    conn: Arc<Conn>,
    pending: Pending,
    arrived: Instant,
    _queued: OwnedSemaphorePermit,
) {
    let budget = conn.limits.call_budget;
    let fail_mode = conn.router.rewriter().shared().policy().fail_mode();
    let raw = matches!(fail_mode, FailMode::Open).then(|| match &pending.line {
        Some(line) => Raw::Line(line.clone()),
        None => Raw::Calls(pending.calls.clone()),
    });
    let ids: Vec<String> = pending
        .waiting
        .iter()
        .filter_map(|(id, _)| id.as_ref().map(id_key))
        .collect();
    let mut rest = pending;
    let calls = std::mem::take(&mut rest.calls);
    let line = rest.line.take();
    let router = Arc::clone(&conn.router);
    let cpus = Arc::clone(&conn.cpus);
    let work = async move {
        let cpu = cpus.acquire_owned().await;
        // The CPU permit goes with the work: a pipeline that outlives its budget keeps it
        // until it ends, so runaway calls never run more pipelines than there are CPUs.
        tokio::task::spawn_blocking(move || {
            let _cpu = cpu;
            router.rewrite(calls, line)
        })
        .await
    };
    let remaining = budget.saturating_sub(arrived.elapsed());
    let out = match tokio::time::timeout(remaining, work).await {
        Ok(Ok(handled)) => Router::assemble(rest, handled),
        Ok(Err(_)) => failed(
            &conn,
            rest,
            raw,
            "minimizing this call failed inside the proxy",
        ),
        Err(_) => {
            let secs = budget.as_secs_f64();
            let why =
                format!("minimizing this call took longer than the proxy's time budget of {secs}s");
            failed(&conn, rest, raw, &why)
        }
    };
    let cancelled: HashSet<String> = {
        let mut in_flight = conn.in_flight();
        ids.into_iter()
            .filter(|k| in_flight.remove(k).unwrap_or(false))
            .collect()
    };
    let out = if cancelled.is_empty() {
        out
    } else {
        drop_cancelled(out, &cancelled)
    };
    conn.send(out).await;
}

/// What a message whose calls could not be minimized becomes, per the fail mode: closed
/// answers each call with an error, open forwards the calls as they came.
fn failed(conn: &Conn, pending: Pending, raw: Option<Raw>, why: &str) -> Out {
    let open = raw.is_some();
    for (_, name) in &pending.waiting {
        conn.router
            .rewriter()
            .log_failure(name.as_deref(), open, why);
    }
    let mode = if open {
        "forwarded unchanged (fail open)"
    } else {
        "not forwarded"
    };
    eprintln!("toolminimize: {why}; {mode}");
    Router::fail(pending, INTERNAL_ERROR, why, raw)
}

/// Removes the calls the host cancelled while they were minimized.
fn drop_cancelled(mut out: Out, cancelled: &HashSet<String>) -> Out {
    let is_cancelled = |m: &Value| -> bool {
        m.get("id")
            .filter(|id| !id.is_null())
            .is_some_and(|id| cancelled.contains(&id_key(id)))
    };
    out.to_server.retain_mut(|line| {
        let Ok(m) = serde_json::from_slice::<Value>(line) else {
            return true;
        };
        match m {
            Value::Array(items) => {
                let total = items.len();
                let kept: Vec<Value> = items.into_iter().filter(|i| !is_cancelled(i)).collect();
                if kept.len() != total {
                    if kept.is_empty() {
                        return false;
                    }
                    *line = to_line(&Value::Array(kept));
                }
                true
            }
            m => !is_cancelled(&m),
        }
    });
    out.to_host
        .retain(|line| serde_json::from_slice::<Value>(line).map_or(true, |m| !is_cancelled(&m)));
    out
}

/// The server → host direction: runs until the server's frames end.
pub(crate) async fn from_server(conn: Arc<Conn>, mut frames: mpsc::Receiver<Frame>) {
    while let Some(frame) = frames.recv().await {
        let out = match frame {
            Frame::Line(line) => conn.router.on_server_line(line),
            Frame::TooLong(n, scanned) => {
                let max = conn.limits.max_message_bytes;
                eprintln!(
                    "toolminimize: dropped a message from the server of {n} bytes (limit {max})"
                );
                oversized_from_server(&conn.router, n, max, &scanned)
            }
        };
        if !conn.send(out).await {
            break;
        }
    }
}

/// Answers in place of an oversized server message: the host gets an error for the request
/// the message answered, the server an error for the request it made.
fn oversized_from_server(router: &Router, n: usize, max: usize, scanned: &Scanned) -> Out {
    let Some(id) = scanned.id.as_ref().filter(|_| scanned.object) else {
        return Out::default();
    };
    let message =
        format!("the server's message is {n} bytes long, over the proxy's limit of {max} bytes");
    let error = error_response(Some(id), INVALID_REQUEST, &message);
    if scanned.is_request() {
        return Out {
            to_server: vec![to_line(&error)],
            to_host: Vec::new(),
        };
    }
    // Through the router: the response may be to the proxy's own request.
    let mut line = to_line(&error);
    line.pop();
    router.on_server_line(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp_proxy::rewrite::{OtherParams, Rewriter, Shared, UnlistedTools};
    use serde_json::json;
    use toolminimize_core::{Minimizer, Session};

    fn conn() -> (Arc<Conn>, mpsc::Receiver<ToServer>, mpsc::Receiver<Vec<u8>>) {
        let shared = Arc::new(Shared::new(
            Minimizer::new().unwrap(),
            UnlistedTools::Minimize,
            OtherParams::Minimize,
            None,
        ));
        let router = Arc::new(Router::new(Rewriter::new(shared, Session::new("t"))));
        let (ts, rs) = mpsc::channel(16);
        let (th, rh) = mpsc::channel(16);
        let limits = Limits {
            max_message_bytes: 1000,
            call_budget: Duration::from_secs(60),
        };
        (Conn::new(router, ts, th, limits, cpus()), rs, rh)
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_failed_rewrite_answers_every_call_with_its_id() {
        let (conn, _rs, _rh) = conn();
        let calls = vec![
            json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "a"}}),
            json!({"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "b"}}),
            json!({"jsonrpc": "2.0", "id": "x", "method": "tools/call", "params": {"name": "c"}}),
        ];
        let HostPlan::Rewrite(pending) = conn
            .router
            .plan_host_line(serde_json::to_vec(&Value::Array(calls)).unwrap())
        else {
            panic!()
        };
        // A rewrite that panics, as the blocking pool reports it.
        let joined = tokio::task::spawn_blocking(|| -> Vec<()> { panic!("boom") }).await;
        assert!(joined.is_err());
        let out = failed(
            &conn,
            pending,
            None,
            "minimizing this call failed inside the proxy",
        );
        let replies: Vec<Value> = out
            .to_host
            .iter()
            .map(|l| serde_json::from_slice(l).unwrap())
            .collect();
        let ids: Vec<&Value> = replies.iter().map(|r| &r["id"]).collect();
        assert_eq!(ids, [&json!(5), &json!("x")]);
        assert!(replies.iter().all(|r| r["error"]["code"] == INTERNAL_ERROR));
        assert!(out.to_server.is_empty());
    }

    #[tokio::test(flavor = "current_thread")]
    async fn an_oversized_server_response_becomes_an_error_for_the_host() {
        let (conn, _rs, _rh) = conn();
        let scanned = Scanned::of(br#"{"jsonrpc":"2.0","id":12,"result":{"#);
        let out = oversized_from_server(&conn.router, 5000, 1000, &scanned);
        let reply: Value = serde_json::from_slice(&out.to_host[0]).unwrap();
        assert_eq!(reply["id"], 12);
        assert_eq!(reply["error"]["code"], INVALID_REQUEST);
        let scanned = Scanned::of(
            br#"{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{"#,
        );
        let out = oversized_from_server(&conn.router, 5000, 1000, &scanned);
        assert!(out.to_host.is_empty());
        let reply: Value = serde_json::from_slice(&out.to_server[0]).unwrap();
        assert_eq!(reply["id"], "s1");
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_call_cancelled_during_its_rewrite_is_not_forwarded() {
        let (conn, _rs, _rh) = conn();
        conn.in_flight().insert(id_key(&json!(3)), false);
        assert!(cancels_a_call_in_flight(
            &conn,
            br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}"#
        ));
        assert!(!cancels_a_call_in_flight(
            &conn,
            br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}"#
        ));
        let out = Out {
            to_server: vec![
                to_line(&json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call"})),
                to_line(&json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call"})),
            ],
            to_host: Vec::new(),
        };
        let cancelled = HashSet::from([id_key(&json!(3))]);
        let out = drop_cancelled(out, &cancelled);
        assert_eq!(out.to_server.len(), 1);
        assert!(String::from_utf8_lossy(&out.to_server[0]).contains("\"id\":4"));
    }
}
