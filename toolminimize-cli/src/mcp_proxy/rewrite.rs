//! Rewriting one `tools/call` request: check its params, minimize its `arguments` for the
//! listed tool (or with conservative defaults for an unlisted one), and decide whether it
//! goes to the server or is answered by the proxy.

use std::sync::OnceLock;

use clap::ValueEnum;
use serde_json::{Map, Value};
use toolminimize_core::{BlockReason, Call, Minimizer, Policy, Report, Session, ToolDef, Verdict};

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

/// The minimizers of one proxy run and the session all its calls share.
#[derive(Debug)]
pub(crate) struct Rewriter {
    minimizer: Minimizer,
    /// The strict minimizer for unlisted tools, built on first use.
    conservative: OnceLock<Option<Minimizer>>,
    unlisted: UnlistedTools,
    session: Session,
    audit: Option<AuditLog>,
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
    /// A rewriter around a minimizer.
    pub(crate) fn new(
        minimizer: Minimizer,
        unlisted: UnlistedTools,
        session: Session,
        audit: Option<AuditLog>,
    ) -> Self {
        Rewriter {
            minimizer,
            conservative: OnceLock::new(),
            unlisted,
            session,
            audit,
        }
    }

    fn conservative(&self) -> Option<&Minimizer> {
        self.conservative
            .get_or_init(|| {
                let policy = Policy {
                    strict: true,
                    ..self.minimizer.policy().clone()
                };
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
                &Report::default(),
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
        let outcome = match listed {
            Some(tool) => {
                let mut call = Call::new(&tool.def, &arguments).session(&self.session);
                call.exposure = tool.listed_exposure();
                self.minimizer.minimize_call(&call)
            }
            None => match self.unlisted {
                UnlistedTools::Forward => {
                    self.log(
                        Some(&name),
                        false,
                        Disposition::ForwardedRaw,
                        None,
                        &Report::default(),
                    );
                    return Handled::Forward(Value::Object(message));
                }
                UnlistedTools::Block => {
                    let reason =
                        "the server did not list this tool, and the proxy blocks unlisted tools";
                    return self.block(&id, &name, false, reason.to_owned(), &Report::default());
                }
                UnlistedTools::Minimize => match self.conservative() {
                    Some(m) => {
                        let def = ToolDef::new(name.as_str(), "", Value::Object(Map::new()));
                        m.minimize_call(&Call::new(&def, &arguments).session(&self.session))
                    }
                    None => {
                        let reason = BlockReason::Internal("no conservative minimizer").to_string();
                        return self.block(&id, &name, false, reason, &Report::default());
                    }
                },
            },
        };
        let listed = listed.is_some();
        match outcome.verdict {
            Verdict::Forward(minimized) => {
                self.log(
                    Some(&name),
                    listed,
                    Disposition::Forwarded,
                    None,
                    &outcome.report,
                );
                if params.contains_key("arguments")
                    || minimized.as_object().is_some_and(|m| !m.is_empty())
                {
                    params.insert("arguments".to_owned(), minimized);
                }
                Handled::Forward(Value::Object(message))
            }
            Verdict::Block(reason) => {
                self.block(&id, &name, listed, reason.to_string(), &outcome.report)
            }
        }
    }

    fn block(
        &self,
        id: &Option<Value>,
        name: &str,
        listed: bool,
        reason: String,
        report: &Report,
    ) -> Handled {
        let reply = id.as_ref().map(|id| tool_error_result(id, &reason));
        self.log(
            Some(name),
            listed,
            Disposition::Blocked,
            Some(reason),
            report,
        );
        reply.map_or(Handled::Drop, Handled::Reply)
    }

    fn log(
        &self,
        tool: Option<&str>,
        listed: bool,
        outcome: Disposition,
        reason: Option<String>,
        report: &Report,
    ) {
        if let Some(audit) = &self.audit {
            audit.write(&Record::new(tool, listed, outcome, reason, report));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rewriter(unlisted: UnlistedTools) -> Rewriter {
        Rewriter::new(Minimizer::new().unwrap(), unlisted, Session::new("t"), None)
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
        let r = Rewriter::new(m, UnlistedTools::Minimize, Session::new("t"), None);
        let msg = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo", "arguments": {"message": "hi"}}});
        let Handled::Reply(reply) = r.handle(call(msg), &cache()) else {
            panic!("not blocked")
        };
        assert_eq!(reply["result"]["isError"], true);
        assert_eq!(reply["id"], 2);
    }
}
