//! Routing of the lines between host and server.
//!
//! Every line that is not a `tools/call` request goes through byte for byte. On the way the
//! router remembers the ids of the host's `tools/list` requests, so it recognises their
//! responses and caches the listed tools, and it refreshes that cache itself after the server
//! announces `notifications/tools/list_changed` (and once after initialization), with its own
//! `tools/list` requests whose responses it keeps to itself.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::{Map, Value};
use toolminimize_core::{MAX_VALUES, json_values_at_most};

use super::framing::{first_significant, is_blank};
use super::jsonrpc::{
    self, Envelope, INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR, error_response, id_key, to_line,
};
use super::rewrite::{Handled, Rewriter};
use super::scan::Scanned;
use super::tools_cache::ToolsCache;

/// Most pages the proxy follows in one refresh of the tool list.
const MAX_PAGES: u32 = 1000;
/// Most host `tools/list` requests awaiting a response that are remembered.
const MAX_PENDING_LISTS: usize = 4096;

/// Lines to send, each ending with a newline.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Out {
    /// To the server's stdin, in order.
    pub(crate) to_server: Vec<Vec<u8>>,
    /// To the host (the proxy's stdout), in order.
    pub(crate) to_host: Vec<Vec<u8>>,
}

impl Out {
    fn forward_to_server(mut line: Vec<u8>) -> Self {
        line.push(b'\n');
        Out {
            to_server: vec![line],
            to_host: Vec::new(),
        }
    }

    fn forward_to_host(mut line: Vec<u8>) -> Self {
        line.push(b'\n');
        Out {
            to_server: Vec::new(),
            to_host: vec![line],
        }
    }

    fn reply(message: &Value) -> Self {
        Out {
            to_server: Vec::new(),
            to_host: vec![to_line(message)],
        }
    }
}

/// What to do with a line from the host.
#[derive(Debug)]
pub(crate) enum HostPlan {
    /// Send these lines; nothing to minimize.
    Done(Out),
    /// A message holding at least one `tools/call`: run [`Router::rewrite`] on its calls (off
    /// the I/O thread, it runs the pipeline), then [`Router::assemble`].
    Rewrite(Pending),
}

/// The original calls of a message, kept to be forwarded unchanged when minimizing them fails
/// under a fail-open policy.
#[derive(Debug)]
pub(crate) enum Raw {
    /// The line of a single call, byte for byte.
    Line(Vec<u8>),
    /// The calls of a batch.
    Calls(Vec<Map<String, Value>>),
}

/// The `tools/call` requests of one host message, waiting to be minimized.
#[derive(Debug)]
pub(crate) struct Pending {
    /// The calls, in order.
    pub(crate) calls: Vec<Map<String, Value>>,
    /// Who is waiting for each call: its id (`None` for a notification) and tool name.
    pub(crate) waiting: Vec<(Option<Value>, Option<String>)>,
    /// The other elements of a batch, forwarded with the rewritten calls.
    pub(crate) others: Vec<Value>,
    /// For a batch, whether each element, in order, is a call (or one of `others`).
    pub(crate) order: Vec<bool>,
    /// Whether the message was a batch (a JSON array).
    pub(crate) batch: bool,
    /// Requests the proxy sends to the server after the message (a tool-list refresh).
    pub(crate) extra: Vec<Vec<u8>>,
    /// A single call not parsed yet: its line (then `calls` is empty).
    pub(crate) line: Option<Vec<u8>>,
}

impl Pending {
    fn new(
        calls: Vec<Map<String, Value>>,
        others: Vec<Value>,
        order: Vec<bool>,
        batch: bool,
    ) -> Self {
        let waiting = calls
            .iter()
            .map(|c| {
                let id = c.get("id").filter(|v| !v.is_null()).cloned();
                let name = c
                    .get("params")
                    .and_then(|p| p.get("name"))
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                (id, name)
            })
            .collect();
        Pending {
            calls,
            waiting,
            others,
            order,
            batch,
            extra: Vec::new(),
            line: None,
        }
    }
}

#[derive(Debug)]
enum Refresh {
    /// Nothing to do.
    Idle,
    /// Refresh as soon as the session is initialized.
    Wanted,
    /// A refresh is running; `again` when the list changed once more meanwhile.
    InFlight {
        id: String,
        pages: ToolsCache,
        count: u32,
        again: bool,
    },
}

#[derive(Debug)]
struct State {
    tools: Arc<ToolsCache>,
    host_lists: HashSet<String>,
    initialized: bool,
    refresh: Refresh,
    seq: u64,
}

impl State {
    /// Starts a refresh and returns its first request line.
    fn start_refresh(&mut self) -> Vec<u8> {
        let id = self.next_id();
        let line = to_line(&jsonrpc::request(&id, "tools/list", Map::new()));
        self.refresh = Refresh::InFlight {
            id,
            pages: ToolsCache::default(),
            count: 1,
            again: false,
        };
        line
    }

    fn next_id(&mut self) -> String {
        self.seq += 1;
        format!("toolminimize-proxy-tools-list-{}", self.seq)
    }

    /// The refresh after this one, if the list changed meanwhile.
    fn finish_refresh(&mut self, again: bool) -> Option<Vec<u8>> {
        self.refresh = Refresh::Idle;
        again.then(|| self.start_refresh())
    }
}

/// The proxy's routing state and its rewriter.
#[derive(Debug)]
pub(crate) struct Router {
    rewriter: Rewriter,
    state: Mutex<State>,
}

impl Router {
    /// A router with an empty tool cache.
    pub(crate) fn new(rewriter: Rewriter) -> Self {
        Router {
            rewriter,
            state: Mutex::new(State {
                tools: Arc::new(ToolsCache::default()),
                host_lists: HashSet::new(),
                initialized: false,
                refresh: Refresh::Wanted,
                seq: 0,
            }),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // The state stays consistent between statements; a panic elsewhere cannot leave it
        // half-updated in a way that matters here.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Plans one line from the host.
    pub(crate) fn plan_host_line(&self, line: Vec<u8>) -> HostPlan {
        let line = strip_bom(line);
        match first_significant(&line) {
            None => HostPlan::Done(Out::default()),
            Some(b'{') => match Envelope::parse(&line) {
                Err(e) => HostPlan::Done(bad_line(&line, jsonrpc::code_for(&e))),
                Ok(env) if env.method.as_deref() == Some("tools/call") => {
                    // Parsed whole off the I/O thread, with the rewrite.
                    let mut pending = Pending::new(Vec::new(), Vec::new(), Vec::new(), false);
                    pending.waiting = vec![(env.id, env.params_name.0)];
                    pending.line = Some(line);
                    HostPlan::Rewrite(pending)
                }
                Ok(env) => {
                    let mut extra = Vec::new();
                    self.note_host(&env, &mut extra);
                    let mut out = Out::forward_to_server(line);
                    out.to_server.extend(extra);
                    HostPlan::Done(out)
                }
            },
            Some(b'[') if !json_values_at_most(&line, MAX_VALUES) => {
                // A batch too large to parse (see `toolminimize_core::MAX_VALUES`): refused
                // whole, as a batch that is not valid is.
                HostPlan::Done(bad_line(&line, INVALID_REQUEST))
            }
            Some(b'[') => match serde_json::from_slice::<Value>(&line) {
                Err(e) => HostPlan::Done(bad_line(&line, jsonrpc::code_for(&e))),
                Ok(Value::Array(items)) if items.is_empty() => {
                    HostPlan::Done(bad_line(&line, INVALID_REQUEST))
                }
                Ok(Value::Array(items)) => {
                    let has_call = items.iter().any(is_tools_call);
                    let mut extra = Vec::new();
                    for env in items.iter().filter_map(Envelope::of) {
                        if env.method.as_deref() != Some("tools/call") {
                            self.note_host(&env, &mut extra);
                        }
                    }
                    if !has_call {
                        let mut out = Out::forward_to_server(line);
                        out.to_server.extend(extra);
                        return HostPlan::Done(out);
                    }
                    let mut calls = Vec::new();
                    let mut others = Vec::new();
                    let mut order = Vec::with_capacity(items.len());
                    for item in items {
                        match item {
                            Value::Object(call) if is_tools_call_object(&call) => {
                                calls.push(call);
                                order.push(true);
                            }
                            other => {
                                others.push(other);
                                order.push(false);
                            }
                        }
                    }
                    let mut pending = Pending::new(calls, others, order, true);
                    pending.extra = extra;
                    HostPlan::Rewrite(pending)
                }
                Ok(_) => HostPlan::Done(bad_line(&line, INVALID_REQUEST)),
            },
            Some(_) => {
                let code = match serde_json::from_slice::<Value>(&line) {
                    Ok(_) => INVALID_REQUEST,
                    Err(_) => PARSE_ERROR,
                };
                HostPlan::Done(bad_line(&line, code))
            }
        }
    }

    /// Minimizes the calls of a [`Pending`] message, in order: `calls`, or the one call in
    /// `line`. Parses and runs the pipeline; call it off the I/O thread.
    pub(crate) fn rewrite(
        &self,
        calls: Vec<Map<String, Value>>,
        line: Option<Vec<u8>>,
    ) -> Vec<Handled> {
        let calls = match line {
            None => calls,
            Some(line) if !json_values_at_most(&line, MAX_VALUES) => {
                // Refused before parsing (see `toolminimize_core::MAX_VALUES`).
                let id = Scanned::of(&line).id;
                let reply = error_response(
                    id.as_ref(),
                    INVALID_PARAMS,
                    &format!(
                        "invalid params: the request holds more than {MAX_VALUES} JSON values"
                    ),
                );
                return vec![Handled::Reply(reply)];
            }
            Some(line) => match serde_json::from_slice::<Value>(&line) {
                Ok(Value::Object(call)) => vec![call],
                // The envelope was read, so the line is JSON; anything else is not a request.
                _ => {
                    let id = Scanned::of(&line).id;
                    let reply = error_response(
                        id.as_ref(),
                        INVALID_REQUEST,
                        "invalid request: the line is not a JSON-RPC message",
                    );
                    return vec![Handled::Reply(reply)];
                }
            },
        };
        let tools = self.tools();
        calls
            .into_iter()
            .map(|call| self.rewriter.handle(call, &tools))
            .collect()
    }

    /// The lines a [`Pending`] message becomes once its calls are `handled` (in the order of
    /// `pending.calls`).
    pub(crate) fn assemble(pending: Pending, handled: Vec<Handled>) -> Out {
        let mut out = Out::default();
        let calls = handled.into_iter().map(|h| match h {
            Handled::Forward(m) => Some(m),
            Handled::Reply(m) => {
                out.to_host.push(to_line(&m));
                None
            }
            Handled::Drop => None,
        });
        let calls: Vec<Option<Value>> = calls.collect();
        out.to_server = Self::forward(pending.batch, &pending.order, calls, pending.others);
        out.to_server.extend(pending.extra);
        out
    }

    /// The lines a [`Pending`] message becomes when its calls could not be minimized (over
    /// the time budget, or the rewrite failed): each call with an id is answered with a
    /// JSON-RPC error carrying `message`; the rest of a batch goes on. With `raw`, the
    /// original calls are forwarded instead (fail open).
    pub(crate) fn fail(pending: Pending, code: i64, message: &str, raw: Option<Raw>) -> Out {
        let mut out = Out::default();
        let calls: Vec<Option<Value>> = match raw {
            Some(Raw::Line(mut line)) => {
                line.push(b'\n');
                out.to_server.push(line);
                out.to_server.extend(pending.extra);
                return out;
            }
            Some(Raw::Calls(raw)) => raw.into_iter().map(|c| Some(Value::Object(c))).collect(),
            None => {
                for id in pending.waiting.iter().filter_map(|(id, _)| id.as_ref()) {
                    out.to_host
                        .push(to_line(&error_response(Some(id), code, message)));
                }
                Vec::new()
            }
        };
        out.to_server = Self::forward(pending.batch, &pending.order, calls, pending.others);
        out.to_server.extend(pending.extra);
        out
    }

    /// The lines that go to the server: the calls to forward and, for a batch, the other
    /// elements in their places.
    fn forward(
        batch: bool,
        order: &[bool],
        calls: Vec<Option<Value>>,
        others: Vec<Value>,
    ) -> Vec<Vec<u8>> {
        if !batch {
            return calls.into_iter().flatten().map(|m| to_line(&m)).collect();
        }
        let mut calls = calls.into_iter();
        let mut others = others.into_iter();
        let items: Vec<Value> = order
            .iter()
            .filter_map(|is_call| {
                if *is_call {
                    calls.next().flatten()
                } else {
                    others.next()
                }
            })
            .collect();
        if items.is_empty() {
            Vec::new()
        } else {
            vec![to_line(&Value::Array(items))]
        }
    }

    /// The rewriter (for audit records of calls that failed outside it).
    pub(crate) fn rewriter(&self) -> &Rewriter {
        &self.rewriter
    }

    /// The current snapshot of the listed tools.
    pub(crate) fn tools(&self) -> Arc<ToolsCache> {
        Arc::clone(&self.state().tools)
    }

    /// Records what the router needs from a host message other than `tools/call`; `extra`
    /// receives requests the proxy sends after it.
    fn note_host(&self, env: &Envelope, extra: &mut Vec<Vec<u8>>) {
        match (env.method.as_deref(), &env.id) {
            (Some("tools/list"), Some(id)) => {
                let mut st = self.state();
                if st.host_lists.len() >= MAX_PENDING_LISTS {
                    st.host_lists.clear();
                }
                st.host_lists.insert(id_key(id));
            }
            (Some("notifications/initialized"), None) => {
                let mut st = self.state();
                st.initialized = true;
                if matches!(st.refresh, Refresh::Wanted) {
                    extra.push(st.start_refresh());
                }
            }
            _ => {}
        }
    }

    /// Handles one line from the server: what goes to the host and what the proxy sends to
    /// the server in turn.
    pub(crate) fn on_server_line(&self, line: Vec<u8>) -> Out {
        match first_significant(&line) {
            Some(b'{') => {
                let Ok(env) = Envelope::parse(&line) else {
                    return Out::forward_to_host(line);
                };
                let mut extra = Vec::new();
                let consumed =
                    self.note_server(&env, || serde_json::from_slice(&line).ok(), &mut extra);
                let mut out = if consumed {
                    Out::default()
                } else {
                    Out::forward_to_host(line)
                };
                out.to_server = extra;
                out
            }
            Some(b'[') => {
                let Ok(Value::Array(items)) = serde_json::from_slice::<Value>(&line) else {
                    return Out::forward_to_host(line);
                };
                let mut extra = Vec::new();
                let total = items.len();
                let kept: Vec<Value> = items
                    .into_iter()
                    .filter(|item| match Envelope::of(item) {
                        Some(env) => !self.note_server(&env, || Some(item.clone()), &mut extra),
                        None => true,
                    })
                    .collect();
                let mut out = if kept.len() == total {
                    Out::forward_to_host(line)
                } else if kept.is_empty() {
                    Out::default()
                } else {
                    Out {
                        to_server: Vec::new(),
                        to_host: vec![to_line(&Value::Array(kept))],
                    }
                };
                out.to_server = extra;
                out
            }
            _ if is_blank(&line) => Out::default(),
            _ => Out::forward_to_host(line),
        }
    }

    /// Records what the router needs from a server message. Returns whether the message
    /// answers the proxy's own request (and so is not for the host).
    fn note_server(
        &self,
        env: &Envelope,
        message: impl FnOnce() -> Option<Value>,
        extra: &mut Vec<Vec<u8>>,
    ) -> bool {
        if let (true, Some(id)) = (env.is_response(), &env.id) {
            let key = id_key(id);
            let mut st = self.state();
            let ours = matches!(&st.refresh, Refresh::InFlight { id, .. } if id_key(&Value::String(id.clone())) == key);
            if ours {
                let result = message().and_then(|m| m.get("result").cloned());
                let Refresh::InFlight {
                    pages,
                    count,
                    again,
                    ..
                } = std::mem::replace(&mut st.refresh, Refresh::Idle)
                else {
                    return true;
                };
                let mut pages = pages;
                match result {
                    None => extra.extend(st.finish_refresh(again)),
                    Some(result) => match tools_listed(&mut pages, &result) {
                        Some(cursor) if count < MAX_PAGES => {
                            let next = st.next_id();
                            let mut params = Map::new();
                            params.insert("cursor".to_owned(), Value::String(cursor));
                            extra.push(to_line(&jsonrpc::request(&next, "tools/list", params)));
                            st.refresh = Refresh::InFlight {
                                id: next,
                                pages,
                                count: count + 1,
                                again,
                            };
                        }
                        _ => {
                            st.tools = Arc::new(pages);
                            extra.extend(st.finish_refresh(again));
                        }
                    },
                }
                return true;
            }
            if st.host_lists.remove(&key)
                && let Some(result) = message().and_then(|m| m.get("result").cloned())
            {
                let mut tools = (*st.tools).clone();
                tools_listed(&mut tools, &result);
                st.tools = Arc::new(tools);
            }
            return false;
        }
        if env.method.as_deref() == Some("notifications/tools/list_changed") {
            let mut st = self.state();
            let initialized = st.initialized;
            match &mut st.refresh {
                Refresh::InFlight { again, .. } => *again = true,
                _ if initialized => extra.push(st.start_refresh()),
                _ => st.refresh = Refresh::Wanted,
            }
        }
        false
    }

    /// How many tools are cached (for diagnostics and tests).
    #[cfg(test)]
    pub(crate) fn cached_tools(&self) -> usize {
        self.state().tools.len()
    }
}

/// The reply to a host line that is not a JSON-RPC message. It carries the line's `id` when
/// that could be read, so the host is not left waiting. The text is fixed: it never repeats
/// any of the line.
fn bad_line(line: &[u8], code: i64) -> Out {
    let message = if code == PARSE_ERROR {
        "parse error: the line is not valid JSON"
    } else {
        "invalid request: the line is not a JSON-RPC message"
    };
    let id = Scanned::of(line).id;
    Out::reply(&error_response(id.as_ref(), code, message))
}

/// Every `tools/list` result the proxy sees goes through here, once: a page answering the
/// host's own request, or a page of the proxy's refresh. It is added to `cache`; returns the
/// page's `nextCursor`.
fn tools_listed(cache: &mut ToolsCache, result: &Value) -> Option<String> {
    cache.merge_page(result)
}

fn is_tools_call(item: &Value) -> bool {
    item.as_object().is_some_and(is_tools_call_object)
}

fn is_tools_call_object(item: &Map<String, Value>) -> bool {
    item.get("method").and_then(Value::as_str) == Some("tools/call")
}

/// A line without its UTF-8 byte order mark, if it has one.
fn strip_bom(mut line: Vec<u8>) -> Vec<u8> {
    if line.starts_with(&[0xEF, 0xBB, 0xBF]) {
        line.drain(..3);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp_proxy::rewrite::{OtherParams, Shared, UnlistedTools};
    use serde_json::json;
    use toolminimize_core::{Minimizer, Session};

    fn router() -> Router {
        let shared = Shared::new(
            Minimizer::new().unwrap(),
            UnlistedTools::Minimize,
            OtherParams::Minimize,
            None,
        );
        Router::new(Rewriter::new(Arc::new(shared), Session::new("t")))
    }

    fn done(plan: HostPlan) -> Out {
        match plan {
            HostPlan::Done(out) => out,
            HostPlan::Rewrite(m) => panic!("unexpected rewrite of {m:?}"),
        }
    }

    fn lines(v: &[Vec<u8>]) -> Vec<Value> {
        v.iter()
            .map(|l| serde_json::from_slice(l).unwrap())
            .collect()
    }

    const LIST: &str = r#"{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}"#;

    #[test]
    fn host_tools_list_responses_fill_the_cache_and_pass_unchanged() {
        let r = router();
        let out =
            done(r.plan_host_line(br#"{"jsonrpc":"2.0","id":"L","method":"tools/list"}"#.to_vec()));
        assert_eq!(out.to_server.len(), 1);
        let response = format!(r#"{{"result":{LIST},"jsonrpc":"2.0","id":"L"}}"#);
        let out = r.on_server_line(response.clone().into_bytes());
        assert_eq!(out.to_host, vec![format!("{response}\n").into_bytes()]);
        assert_eq!(r.cached_tools(), 1);
        // A response to anything else is not read as a tool list.
        let r2 = router();
        r2.on_server_line(response.into_bytes());
        assert_eq!(r2.cached_tools(), 0);
    }

    #[test]
    fn refresh_starts_after_initialization_and_is_hidden_from_the_host() {
        let r = router();
        // A list_changed before initialization waits for it.
        let early = r.on_server_line(
            br#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#.to_vec(),
        );
        assert_eq!(early.to_host.len(), 1);
        assert!(early.to_server.is_empty());
        let out = done(
            r.plan_host_line(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_vec()),
        );
        let sent = lines(&out.to_server);
        assert_eq!(sent.len(), 2);
        assert_eq!(sent[0]["method"], "notifications/initialized");
        assert_eq!(sent[1]["method"], "tools/list");
        let id = sent[1]["id"].clone();
        let answer = json!({"jsonrpc": "2.0", "id": id, "result": {"tools": [{"name": "a", "inputSchema": {}}], "nextCursor": "p2"}});
        let out = r.on_server_line(answer.to_string().into_bytes());
        assert!(out.to_host.is_empty());
        let next = lines(&out.to_server);
        assert_eq!(next[0]["params"]["cursor"], "p2");
        // The cache is replaced only once the last page arrived.
        assert_eq!(r.cached_tools(), 0);
        let last = json!({"jsonrpc": "2.0", "id": next[0]["id"], "result": {"tools": [{"name": "b", "inputSchema": {}}]}});
        let out = r.on_server_line(last.to_string().into_bytes());
        assert_eq!(out, Out::default());
        assert_eq!(r.cached_tools(), 2);
    }

    #[test]
    fn a_failed_refresh_keeps_the_old_cache() {
        let r = router();
        done(r.plan_host_line(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.to_vec()));
        r.on_server_line(format!(r#"{{"jsonrpc":"2.0","id":1,"result":{LIST}}}"#).into_bytes());
        let out = done(
            r.plan_host_line(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_vec()),
        );
        let id = lines(&out.to_server)[1]["id"].clone();
        let error = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "no"}});
        assert_eq!(
            r.on_server_line(error.to_string().into_bytes()),
            Out::default()
        );
        assert_eq!(r.cached_tools(), 1);
    }

    #[test]
    fn a_call_of_too_many_values_is_answered_with_its_id_unparsed() {
        let r = router();
        let zeros = format!("[{}0]", "0,".repeat(MAX_VALUES));
        let call = format!(
            r#"{{"jsonrpc":"2.0","id":"big-1","method":"tools/call","params":{{"name":"echo","arguments":{{"a":{zeros}}}}}}}"#
        );
        let HostPlan::Rewrite(pending) = r.plan_host_line(call.into_bytes()) else {
            panic!("a tools/call is rewritten off the I/O thread");
        };
        let handled = r.rewrite(Vec::new(), pending.line.clone());
        let out = Router::assemble(pending, handled);
        assert!(out.to_server.is_empty(), "nothing reaches the server");
        let reply = lines(&out.to_host);
        assert_eq!(reply[0]["id"], "big-1");
        assert_eq!(reply[0]["error"]["code"], INVALID_PARAMS);
        // A batch that large is refused whole.
        let batch = format!(
            r#"[{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"echo","arguments":{{"a":{zeros}}}}}}}]"#
        );
        let out = done(r.plan_host_line(batch.into_bytes()));
        assert!(out.to_server.is_empty());
        assert_eq!(lines(&out.to_host)[0]["error"]["code"], INVALID_REQUEST);
    }

    #[test]
    fn tools_call_lines_are_rewritten_and_others_forwarded() {
        let r = router();
        let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{}}}"#;
        assert!(matches!(
            r.plan_host_line(call.to_vec()),
            HostPlan::Rewrite(_)
        ));
        let ping = br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;
        assert_eq!(
            done(r.plan_host_line(ping.to_vec())).to_server,
            vec![[&ping[..], b"\n"].concat()]
        );
        let out = done(r.plan_host_line(b"{oops".to_vec()));
        assert!(out.to_server.is_empty());
        assert_eq!(lines(&out.to_host)[0]["error"]["code"], PARSE_ERROR);
    }

    #[test]
    fn server_lines_that_are_not_json_pass_unchanged() {
        let r = router();
        let out = r.on_server_line(b"debug: starting".to_vec());
        assert_eq!(out.to_host, vec![b"debug: starting\n".to_vec()]);
        assert_eq!(r.on_server_line(b"  ".to_vec()), Out::default());
    }
}
