//! Rewriting one `tools/call` request: check its params, minimize its `arguments` for the
//! listed tool (or with conservative defaults for an unlisted one), minimize (or drop) the
//! other keys under `params`, and decide whether it goes to the server or is answered by the
//! proxy.
//!
//! Keys under `params`:
//! - `name` goes through; `arguments` is minimized for the tool's input schema;
//! - `inputResponses` and `requestState` (the answers to a server's own input requests, and
//!   the server's opaque state, both defined by the protocol for multi round-trip requests)
//!   go through: the user gave those answers to the server directly, and the state came from
//!   the server;
//! - in `_meta`, `progressToken` and the keys whose prefix the protocol reserves (second
//!   label `modelcontextprotocol` or `mcp`, as in `io.modelcontextprotocol/protocolVersion`)
//!   go through: they carry the protocol's own fields;
//! - everything else — other `_meta` entries, and any other key — is minimized with
//!   conservative defaults (no schema, strict: every detected item is unnecessary), or dropped
//!   with `--other-params drop`.

use std::sync::{Arc, OnceLock};

use clap::ValueEnum;
use serde_json::{Map, Value};
use toolminimize_core::{BlockReason, Call, Exposure, Minimizer, Policy, Report, Session, ToolDef};

use super::audit_log::{AuditLog, Disposition, Record};
use super::jsonrpc::{INVALID_PARAMS, error_response, tool_error_result};
use super::tools_cache::ToolsCache;

/// What the proxy does with a `tools/call` for a tool the server has not listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum UnlistedTools {
    /// Minimize with conservative defaults: no schema, strict mode (every detected item is
    /// treated as unnecessary).
    Minimize,
    /// Answer with a tool error; do not forward.
    Block,
    /// Forward the original arguments.
    Forward,
}

/// What the proxy does with the keys under a `tools/call`'s `params` other than `name`,
/// `arguments` and the protocol's own fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum OtherParams {
    /// Minimize them with conservative defaults (no schema, strict mode).
    Minimize,
    /// Remove them.
    Drop,
}

/// Keys under `params` that go through as they are.
const PROTOCOL_PARAMS: [&str; 4] = ["name", "arguments", "inputResponses", "requestState"];

/// Whether a `_meta` key is the protocol's own: `progressToken`, or a key whose prefix has
/// `modelcontextprotocol` or `mcp` as its second label (the 2025-11-25 rule) or as the label
/// before its last (the 2025-06-18 rule).
pub(crate) fn is_protocol_meta_key(key: &str) -> bool {
    if key == "progressToken" {
        return true;
    }
    let Some((prefix, _)) = key.split_once('/') else {
        return false;
    };
    let labels: Vec<&str> = prefix.split('.').collect();
    let reserved = |l: Option<&&str>| matches!(l.copied(), Some("modelcontextprotocol" | "mcp"));
    labels.len() >= 2
        && (reserved(labels.get(1))
            || reserved(labels.len().checked_sub(2).and_then(|i| labels.get(i))))
}

/// What all the connections of one proxy run share: the minimizers, the options and the
/// audit log.
#[derive(Debug)]
pub(crate) struct Shared {
    minimizer: Minimizer,
    /// The strict minimizer for unlisted tools and other params, built on first use.
    conservative: OnceLock<Option<Minimizer>>,
    unlisted: UnlistedTools,
    other_params: OtherParams,
    audit: Option<AuditLog>,
    sessions: super::Sessions,
}

impl Shared {
    /// The shared part of the rewriters.
    pub(crate) fn new(
        minimizer: Minimizer,
        unlisted: UnlistedTools,
        other_params: OtherParams,
        audit: Option<AuditLog>,
    ) -> Self {
        Shared {
            minimizer,
            conservative: OnceLock::new(),
            unlisted,
            other_params,
            audit,
            sessions: super::Sessions::default(),
        }
    }

    /// Keeps the connections' sessions as `sessions` says (by default each connection has
    /// its own, in the process).
    pub(crate) fn with_sessions(mut self, sessions: super::Sessions) -> Self {
        self.sessions = sessions;
        self
    }

    /// Where the connections' sessions live.
    pub(crate) fn sessions(&self) -> &super::Sessions {
        &self.sessions
    }

    /// The policy's fail mode decides what happens to a call that cannot be minimized.
    pub(crate) fn policy(&self) -> &Policy {
        self.minimizer.policy()
    }
}

/// The rewriter of one connection: the shared minimizers and the connection's session (so
/// placeholders stay consistent across its calls).
#[derive(Debug)]
pub(crate) struct Rewriter {
    shared: Arc<Shared>,
    session: Session,
}

/// The result of handling one `tools/call`.
#[derive(Debug, PartialEq)]
pub(crate) enum Handled {
    /// Send this request (with rewritten arguments) to the server.
    Forward(Value),
    /// Answer the host with this message; send nothing to the server.
    Reply(Value),
    /// A malformed or blocked notification: nothing to send anywhere.
    Drop,
}

impl Rewriter {
    /// A rewriter for one connection.
    pub(crate) fn new(shared: Arc<Shared>, session: Session) -> Self {
        Rewriter { shared, session }
    }

    /// What the connections share.
    pub(crate) fn shared(&self) -> &Shared {
        &self.shared
    }

    fn conservative(&self) -> Option<&Minimizer> {
        self.shared
            .conservative
            .get_or_init(|| {
                let policy = self.shared.minimizer.policy().clone().with_strict(true);
                Minimizer::builder().policy(policy).build().ok()
            })
            .as_ref()
    }

    /// Handles one `tools/call` message (a JSON object whose method is `tools/call`).
    pub(crate) fn handle(&self, mut message: Map<String, Value>, tools: &ToolsCache) -> Handled {
        let id = message.get("id").filter(|v| !v.is_null()).cloned();
        let reject = |tool: Option<&str>, why: &str| {
            self.log(
                tool,
                false,
                Disposition::Rejected,
                Some(why.to_owned()),
                &[],
            );
            match &id {
                Some(id) => Handled::Reply(error_response(Some(id), INVALID_PARAMS, why)),
                None => {
                    eprintln!("toolminimize: dropped a tools/call notification: {why}");
                    Handled::Drop
                }
            }
        };
        let Some(params) = message.get_mut("params") else {
            return reject(None, "tools/call needs params");
        };
        let Some(params) = params.as_object_mut() else {
            return reject(None, "tools/call params must be an object");
        };
        let Some(name) = params
            .get("name")
            .and_then(Value::as_str)
            .map(str::to_owned)
        else {
            return reject(None, "tools/call params.name must be a string");
        };
        let arguments = match params.get("arguments") {
            None | Some(Value::Null) => Value::Object(Map::new()),
            Some(a @ Value::Object(_)) => a.clone(),
            Some(_) => return reject(Some(&name), "tools/call params.arguments must be an object"),
        };
        let listed = tools.get(&name);
        let exposure = listed.and_then(|t| t.listed_exposure());
        let outcome = match listed {
            Some(tool) => {
                let mut call = Call::new(&tool.def, &arguments).session(&self.session);
                call.exposure = exposure;
                self.shared.minimizer.minimize_call(&call)
            }
            None => match self.shared.unlisted {
                UnlistedTools::Forward => {
                    self.log(Some(&name), false, Disposition::ForwardedRaw, None, &[]);
                    return Handled::Forward(Value::Object(message));
                }
                UnlistedTools::Block => {
                    let reason =
                        "the server did not list this tool, and the proxy blocks unlisted tools";
                    return self.block(&id, &name, false, reason.to_owned(), &[]);
                }
                UnlistedTools::Minimize => match self.conservative() {
                    Some(m) => {
                        let def = ToolDef::new(name.as_str(), "", Value::Object(Map::new()));
                        m.minimize_call(&Call::new(&def, &arguments).session(&self.session))
                    }
                    None => {
                        let reason = BlockReason::Internal("no conservative minimizer").to_string();
                        return self.block(&id, &name, false, reason, &[]);
                    }
                },
            },
        };
        let listed = listed.is_some();
        let (verdict, report) = outcome.into_parts();
        let minimized = match verdict.into_arguments() {
            Ok(minimized) => minimized,
            Err(reason) => {
                return self.block(&id, &name, listed, reason.to_string(), &[&report]);
            }
        };
        let others = match self.other_params(&name, params, exposure) {
            Ok(others) => others,
            Err((reason, others)) => {
                return self.block(&id, &name, listed, reason, &[&report, &others]);
            }
        };
        let mut reports = vec![&report];
        reports.extend(others.as_ref());
        self.log(Some(&name), listed, Disposition::Forwarded, None, &reports);
        if params.contains_key("arguments") || minimized.as_object().is_some_and(|m| !m.is_empty())
        {
            params.insert("arguments".to_owned(), minimized);
        }
        Handled::Forward(Value::Object(message))
    }

    /// Minimizes (or drops) the keys under `params` that are neither `name`, `arguments` nor
    /// the protocol's own, in place, keeping the order of the keys that remain. Returns the
    /// report (`None` when there was nothing to do), or the reason the call is blocked.
    fn other_params(
        &self,
        name: &str,
        params: &mut Map<String, Value>,
        exposure: Option<Exposure>,
    ) -> Result<Option<Report>, (String, Report)> {
        // Take the values out: `{"_meta": {<non-protocol entries>}, <other key>: <value>, …}`.
        let mut taken = Map::new();
        let keys: Vec<String> = params
            .keys()
            .filter(|k| !PROTOCOL_PARAMS.contains(&k.as_str()))
            .cloned()
            .collect();
        for key in keys {
            if key == "_meta"
                && let Some(Value::Object(meta)) = params.get_mut("_meta")
            {
                let own: Vec<String> = meta
                    .keys()
                    .filter(|k| !is_protocol_meta_key(k))
                    .cloned()
                    .collect();
                if own.is_empty() {
                    continue;
                }
                let mut part = Map::new();
                for k in own {
                    if let Some(v) = meta.get_mut(&k) {
                        part.insert(k, v.take());
                    }
                }
                taken.insert(key, Value::Object(part));
            } else if let Some(v) = params.get_mut(&key) {
                taken.insert(key, v.take());
            }
        }
        if taken.is_empty() {
            return Ok(None);
        }
        let taken = Value::Object(taken);
        let minimized = match self.shared.other_params {
            OtherParams::Drop => Map::new(),
            OtherParams::Minimize => {
                let Some(m) = self.conservative() else {
                    let reason = BlockReason::Internal("no conservative minimizer").to_string();
                    return Err((reason, Report::default()));
                };
                let def = ToolDef::new(name, "", Value::Object(Map::new()));
                let mut call = Call::new(&def, &taken).session(&self.session);
                if let Some(exposure) = exposure {
                    call = call.exposure(exposure);
                }
                let (verdict, report) = m.minimize_call(&call).into_parts();
                match verdict.into_arguments() {
                    Ok(Value::Object(v)) => {
                        put_back(params, v, &taken);
                        return Ok(Some(report));
                    }
                    Ok(_) => Map::new(),
                    Err(reason) => return Err((reason.to_string(), report)),
                }
            }
        };
        put_back(params, minimized, &taken);
        Ok(None)
    }

    fn block(
        &self,
        id: &Option<Value>,
        name: &str,
        listed: bool,
        reason: String,
        reports: &[&Report],
    ) -> Handled {
        let reply = id.as_ref().map(|id| tool_error_result(id, &reason));
        self.log(
            Some(name),
            listed,
            Disposition::Blocked,
            Some(reason),
            reports,
        );
        reply.map_or(Handled::Drop, Handled::Reply)
    }

    /// Records a call that was not handled by [`Rewriter::handle`]: over the time budget, or
    /// failed.
    pub(crate) fn log_failure(&self, tool: Option<&str>, forwarded_raw: bool, reason: &str) {
        let outcome = if forwarded_raw {
            Disposition::ForwardedRaw
        } else {
            Disposition::Blocked
        };
        self.log(tool, false, outcome, Some(reason.to_owned()), &[]);
    }

    fn log(
        &self,
        tool: Option<&str>,
        listed: bool,
        outcome: Disposition,
        reason: Option<String>,
        reports: &[&Report],
    ) {
        if let Some(audit) = &self.shared.audit {
            audit.write(&Record::new(tool, listed, outcome, reason, reports));
        }
    }
}

/// Puts the minimized values of the taken keys back under `params`, where they were; a key the
/// pipeline removed (or that `drop` removes) goes, and the others keep their order.
fn put_back(params: &mut Map<String, Value>, mut minimized: Map<String, Value>, taken: &Value) {
    let Some(taken) = taken.as_object() else {
        return;
    };
    for (key, was) in taken {
        if key == "_meta" && was.is_object() {
            let new = minimized.remove(key);
            if let Some(Value::Object(meta)) = params.get_mut("_meta") {
                let mut new = match new {
                    Some(Value::Object(m)) => m,
                    _ => Map::new(),
                };
                for k in was
                    .as_object()
                    .map(|m| m.keys().cloned().collect::<Vec<_>>())
                    .unwrap_or_default()
                {
                    match new.remove(&k) {
                        Some(v) => {
                            meta.insert(k, v);
                        }
                        None => {
                            meta.shift_remove(&k);
                        }
                    }
                }
            }
            continue;
        }
        match minimized.remove(key) {
            Some(v) => {
                params.insert(key.clone(), v);
            }
            None => {
                params.shift_remove(key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rewriter(unlisted: UnlistedTools) -> Rewriter {
        with(Minimizer::new().unwrap(), unlisted, OtherParams::Minimize)
    }

    fn with(m: Minimizer, unlisted: UnlistedTools, other: OtherParams) -> Rewriter {
        Rewriter::new(
            Arc::new(Shared::new(m, unlisted, other, None)),
            Session::new("t"),
        )
    }

    fn call(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    fn cache() -> ToolsCache {
        let mut c = ToolsCache::default();
        c.merge_page(&json!({"tools": [{"name": "echo", "inputSchema": {
            "type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]}}]}));
        c
    }

    #[test]
    fn malformed_params_are_answered_with_invalid_params() {
        let r = rewriter(UnlistedTools::Minimize);
        for params in [
            json!(null),
            json!([1]),
            json!({"arguments": {}}),
            json!({"name": "echo", "arguments": [1]}),
            json!({"name": "echo", "arguments": "x"}),
        ] {
            let got = r.handle(
                call(json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": params})),
                &cache(),
            );
            let Handled::Reply(reply) = got else {
                panic!("expected a reply, got {got:?}")
            };
            assert_eq!(reply["id"], 4);
            assert_eq!(reply["error"]["code"], INVALID_PARAMS);
        }
        let missing = r.handle(
            call(json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call"})),
            &cache(),
        );
        assert!(matches!(missing, Handled::Reply(ref v) if v["error"]["code"] == INVALID_PARAMS));
    }

    #[test]
    fn a_malformed_notification_is_dropped() {
        let r = rewriter(UnlistedTools::Minimize);
        let got = r.handle(
            call(json!({"jsonrpc": "2.0", "method": "tools/call", "params": 3})),
            &cache(),
        );
        assert_eq!(got, Handled::Drop);
    }

    #[test]
    fn forwarded_calls_keep_their_key_order_and_other_params() {
        let r = rewriter(UnlistedTools::Minimize);
        let msg = json!({"params": {"_meta": {"progressToken": 9}, "name": "echo", "arguments": {"message": "hello"}}, "method": "tools/call", "id": "x", "jsonrpc": "2.0"});
        let Handled::Forward(out) = r.handle(call(msg.clone()), &cache()) else {
            panic!()
        };
        let keys: Vec<&String> = out.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["params", "method", "id", "jsonrpc"]);
        assert_eq!(out["params"]["_meta"]["progressToken"], 9);
        assert_eq!(out["params"]["arguments"]["message"], "hello");
    }

    #[test]
    fn unlisted_tools_follow_the_option() {
        let msg = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "nope", "arguments": {"q": "weather"}}});
        let Handled::Reply(reply) =
            rewriter(UnlistedTools::Block).handle(call(msg.clone()), &cache())
        else {
            panic!()
        };
        assert_eq!(reply["result"]["isError"], true);
        let Handled::Forward(out) =
            rewriter(UnlistedTools::Forward).handle(call(msg.clone()), &cache())
        else {
            panic!()
        };
        assert_eq!(out, msg);
        assert!(matches!(
            rewriter(UnlistedTools::Minimize).handle(call(msg), &cache()),
            Handled::Forward(_)
        ));
    }

    #[test]
    fn a_policy_block_is_answered_as_a_tool_error() {
        let policy = Policy::from_json_str(r#"{"block": {"tools": ["echo"]}}"#).unwrap();
        let m = Minimizer::builder().policy(policy).build().unwrap();
        let r = with(m, UnlistedTools::Minimize, OtherParams::Minimize);
        let msg = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo", "arguments": {"message": "hi"}}});
        let Handled::Reply(reply) = r.handle(call(msg), &cache()) else {
            panic!("not blocked")
        };
        assert_eq!(reply["result"]["isError"], true);
        assert_eq!(reply["id"], 2);
    }

    #[test]
    fn protocol_meta_keys_are_recognised() {
        for k in [
            "progressToken",
            "io.modelcontextprotocol/protocolVersion",
            "dev.mcp/x",
            "org.modelcontextprotocol.api/y",
            "api.modelcontextprotocol.org/z",
            "tools.mcp.com/w",
        ] {
            assert!(is_protocol_meta_key(k), "{k}");
        }
        for k in [
            "com.example.user/id",
            "com.example.mcp/b",
            "user",
            "mcp/x",
            "traceparent",
        ] {
            assert!(!is_protocol_meta_key(k), "{k}");
        }
    }

    #[test]
    fn other_params_and_meta_are_minimized_and_protocol_fields_kept() {
        let r = rewriter(UnlistedTools::Minimize);
        let msg = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "_meta": {
                "progressToken": "p-1",
                "io.modelcontextprotocol/clientInfo": {"name": "host", "version": "1"},
                "com.example/user": {"email": "jane.doe@example.com", "plan": "gold"}
            },
            "name": "echo",
            "arguments": {"message": "hello"},
            "x-contact": "call me on +1 415 555 0134, SSN 078-05-1120",
            "requestState": "opaque-state"
        }});
        let Handled::Forward(out) = r.handle(call(msg), &cache()) else {
            panic!()
        };
        let p = &out["params"];
        assert_eq!(p["_meta"]["progressToken"], "p-1");
        assert_eq!(
            p["_meta"]["io.modelcontextprotocol/clientInfo"]["name"],
            "host"
        );
        assert_eq!(p["requestState"], "opaque-state");
        assert_eq!(p["arguments"]["message"], "hello");
        let text = out.to_string();
        assert!(!text.contains("jane.doe@example.com"), "{text}");
        assert!(!text.contains("078-05-1120"), "{text}");
        // The keys that remain keep their order.
        let keys: Vec<&str> = p.as_object().unwrap().keys().map(String::as_str).collect();
        let pos = |k: &str| keys.iter().position(|x| *x == k);
        assert!(
            pos("_meta") < pos("name") && pos("name") < pos("arguments"),
            "{keys:?}"
        );
        assert!(pos("arguments") < pos("requestState"), "{keys:?}");
    }

    #[test]
    fn other_params_can_be_dropped() {
        let r = with(
            Minimizer::new().unwrap(),
            UnlistedTools::Minimize,
            OtherParams::Drop,
        );
        let msg = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "_meta": {"progressToken": 3, "com.example/trace": "t-9"},
            "name": "echo", "arguments": {"message": "hello"}, "extra": {"a": 1}
        }});
        let Handled::Forward(out) = r.handle(call(msg), &cache()) else {
            panic!()
        };
        assert_eq!(
            out["params"],
            json!({"_meta": {"progressToken": 3}, "name": "echo", "arguments": {"message": "hello"}})
        );
    }
}
