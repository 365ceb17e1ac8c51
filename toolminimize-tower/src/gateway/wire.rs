//! The JSON shapes the gateway accepts, and how a call goes back on the wire upstream.

use std::borrow::Cow;

use serde_json::{Map, Value};
use toolminimize_core::{MAX_VALUES, Report, Session, json_values_at_most};

use crate::error::ArgumentsError;
use crate::request::{MinimizeRequest, ToolRef};

/// Where the arguments sit in the envelope, and how they are spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// `{"name": "...", "arguments": {...}}`
    Mcp,
    /// `{"jsonrpc": "2.0", "method": "tools/call", "params": {"name", "arguments"}}`
    JsonRpc,
    /// `{"id": "...", "type": "function", "function": {"name", "arguments": "<json>"}}`
    OpenAiToolCall,
    /// `{"name": "...", "arguments": "<json>"}` (the older `function_call`)
    OpenAiFunctionCall,
}

impl Dialect {
    pub(crate) const fn id(self) -> &'static str {
        match self {
            Dialect::Mcp => "mcp",
            Dialect::JsonRpc => "jsonrpc",
            Dialect::OpenAiToolCall => "openai_tool_call",
            Dialect::OpenAiFunctionCall => "openai_function_call",
        }
    }
}

/// A request the gateway could not read. The message comes from a fixed vocabulary plus
/// positions; it never quotes the request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BadRequest(pub(crate) String);

impl BadRequest {
    fn new(msg: impl Into<String>) -> Self {
        BadRequest(msg.into())
    }

    fn json(what: &str, e: &serde_json::Error) -> Self {
        use serde_json::error::Category;
        let problem = match e.classify() {
            Category::Eof => "ends in the middle of a JSON value",
            Category::Syntax | Category::Io | Category::Data => "is not valid JSON",
        };
        BadRequest(format!(
            "{what} {problem} (line {}, column {})",
            e.line(),
            e.column()
        ))
    }
}

const SHAPES: &str = "expected an MCP tool call {\"name\": ..., \"arguments\": {...}}, a JSON-RPC \
     \"tools/call\" request, or an OpenAI tool call {\"type\": \"function\", \"function\": \
     {\"name\": ..., \"arguments\": \"...\"}}";

/// One tool call received by the gateway.
#[derive(Clone)]
pub struct GatewayCall {
    /// The body as received, without the arguments (and without `task_context` and `session`).
    envelope: Map<String, Value>,
    dialect: Dialect,
    /// The arguments were a JSON string (OpenAI) and go back as one.
    arguments_as_string: bool,
    name: String,
    arguments: Value,
    task_context: Option<String>,
    session_id: Option<String>,
    session: Option<Session>,
    report: Option<Report>,
}

/// The longest session id accepted.
const MAX_SESSION_ID: usize = 256;

impl std::fmt::Debug for GatewayCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GatewayCall")
            .field("tool", &self.name)
            .field("dialect", &self.dialect.id())
            .field("task_context", &self.task_context.as_ref().map(|_| ".."))
            .field("session", &self.session_id)
            .finish_non_exhaustive()
    }
}

impl GatewayCall {
    /// Reads a request body.
    pub(crate) fn parse(body: &[u8]) -> Result<Self, BadRequest> {
        // Refused before parsing: a body of millions of tiny values would take ≈ 100 bytes a
        // value once parsed (see `toolminimize_core::MAX_VALUES`).
        if !json_values_at_most(body, MAX_VALUES) {
            return Err(BadRequest::new(format!(
                "the request body holds more than {MAX_VALUES} JSON values"
            )));
        }
        let value: Value =
            serde_json::from_slice(body).map_err(|e| BadRequest::json("the request body", &e))?;
        let Value::Object(mut envelope) = value else {
            return Err(BadRequest::new(format!(
                "the request body must be a JSON object; {SHAPES}"
            )));
        };
        let task_context = match envelope.remove("task_context") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s),
            Some(_) => return Err(BadRequest::new("`task_context` must be a string")),
        };
        let session_id = match envelope.remove("session") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if !s.is_empty() && s.len() <= MAX_SESSION_ID => Some(s),
            Some(_) => {
                return Err(BadRequest::new(format!(
                    "`session` must be a non-empty string of at most {MAX_SESSION_ID} bytes"
                )));
            }
        };

        let (dialect, holder_key) =
            if envelope.contains_key("jsonrpc") || envelope.contains_key("method") {
                match envelope.get("method").and_then(Value::as_str) {
                    Some("tools/call") => (Dialect::JsonRpc, Some("params")),
                    _ => {
                        return Err(BadRequest::new(
                            "only the JSON-RPC method \"tools/call\" is accepted",
                        ));
                    }
                }
            } else if envelope.get("function").is_some_and(Value::is_object) {
                (Dialect::OpenAiToolCall, Some("function"))
            } else {
                (Dialect::Mcp, None)
            };
        let holder: &mut Map<String, Value> = match holder_key {
            None => &mut envelope,
            Some(key) => match envelope.get_mut(key) {
                Some(Value::Object(o)) => o,
                _ => {
                    return Err(BadRequest::new(format!(
                        "`{key}` must be a JSON object; {SHAPES}"
                    )));
                }
            },
        };
        let name = match holder.get("name") {
            Some(Value::String(n)) if !n.is_empty() => n.clone(),
            _ => {
                return Err(BadRequest::new(format!(
                    "the tool call has no `name` string; {SHAPES}"
                )));
            }
        };
        let (arguments, arguments_as_string) = match holder.remove("arguments") {
            None | Some(Value::Null) => (Value::Object(Map::new()), false),
            Some(v @ Value::Object(_)) => (v, false),
            Some(Value::String(text)) if !json_values_at_most(text.as_bytes(), MAX_VALUES) => {
                return Err(BadRequest::new(format!(
                    "`arguments` holds more than {MAX_VALUES} JSON values"
                )));
            }
            Some(Value::String(text)) => {
                let v: Value =
                    serde_json::from_str(&text).map_err(|e| BadRequest::json("`arguments`", &e))?;
                if !v.is_object() {
                    return Err(BadRequest::new("`arguments` must hold a JSON object"));
                }
                (v, true)
            }
            Some(_) => {
                return Err(BadRequest::new(
                    "`arguments` must be a JSON object, or a string holding one",
                ));
            }
        };
        let dialect = match dialect {
            Dialect::Mcp if arguments_as_string => Dialect::OpenAiFunctionCall,
            d => d,
        };
        Ok(GatewayCall {
            envelope,
            dialect,
            arguments_as_string,
            name,
            arguments,
            task_context,
            session_id,
            session: None,
            report: None,
        })
    }

    /// The tool's name.
    pub fn tool_name(&self) -> &str {
        &self.name
    }

    /// The arguments (minimized once the call has passed the layer).
    pub fn arguments(&self) -> &Value {
        &self.arguments
    }

    /// The session id the call carries, if any.
    pub fn session_id(&self) -> Option<&str> {
        self.session_id.as_deref()
    }

    pub(crate) fn set_session(&mut self, session: Session) {
        self.session = Some(session);
    }

    pub(crate) fn dialect(&self) -> Dialect {
        self.dialect
    }

    pub(crate) fn take_report(&mut self) -> Option<Report> {
        self.report.take()
    }

    /// The body to send upstream: the envelope as received, with the (minimized) arguments
    /// back in their place and spelling.
    pub(crate) fn encode(self) -> Vec<u8> {
        let GatewayCall {
            mut envelope,
            dialect,
            arguments_as_string,
            arguments,
            ..
        } = self;
        let arguments = if arguments_as_string {
            Value::String(arguments.to_string())
        } else {
            arguments
        };
        let holder = match dialect {
            Dialect::Mcp | Dialect::OpenAiFunctionCall => Some(&mut envelope),
            Dialect::JsonRpc => envelope.get_mut("params").and_then(Value::as_object_mut),
            Dialect::OpenAiToolCall => envelope.get_mut("function").and_then(Value::as_object_mut),
        };
        if let Some(holder) = holder {
            holder.insert("arguments".to_owned(), arguments);
        }
        // Serializing a `Value` cannot fail: its keys are strings.
        serde_json::to_vec(&Value::Object(envelope)).unwrap_or_default()
    }
}

impl MinimizeRequest for GatewayCall {
    fn tool(&self) -> ToolRef<'_> {
        ToolRef::Name(&self.name)
    }

    fn arguments_json(&self) -> Result<Cow<'_, Value>, ArgumentsError> {
        Ok(Cow::Borrowed(&self.arguments))
    }

    fn replace_arguments(&mut self, arguments: Value) {
        self.arguments = arguments;
    }

    fn task_context(&self) -> Option<&str> {
        self.task_context.as_deref()
    }

    fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    fn attach_report(&mut self, report: Report) {
        self.report = Some(report);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(v: &Value) -> Result<GatewayCall, BadRequest> {
        GatewayCall::parse(v.to_string().as_bytes())
    }

    fn reencoded(call: GatewayCall) -> Value {
        serde_json::from_slice(&call.encode()).unwrap()
    }

    #[test]
    fn mcp_calls_round_trip_without_task_context_and_session() {
        let body = json!({"name": "get_forecast", "arguments": {"city": "Lyon"}, "task_context": "weather please",
                          "session": "conv-1"});
        let call = parse(&body).unwrap();
        assert_eq!(call.dialect(), Dialect::Mcp);
        assert_eq!(call.task_context(), Some("weather please"));
        assert_eq!(call.session_id(), Some("conv-1"));
        assert_eq!(
            reencoded(call),
            json!({"name": "get_forecast", "arguments": {"city": "Lyon"}})
        );
    }

    #[test]
    fn bodies_of_too_many_values_are_refused_before_parsing() {
        let zeros = format!("[{}0]", "0,".repeat(MAX_VALUES));
        let body = format!(r#"{{"name": "t", "arguments": {{"a": {zeros}}}}}"#);
        let e = GatewayCall::parse(body.as_bytes()).unwrap_err();
        assert!(e.0.contains("more than"), "{}", e.0);
        let body = json!({"function": {"name": "t", "arguments": format!("{{\"a\": {zeros}}}")}});
        let e = parse(&body).unwrap_err();
        assert!(e.0.contains("`arguments` holds more than"), "{}", e.0);
    }

    #[test]
    fn openai_tool_calls_keep_string_arguments_and_ids() {
        let body = json!({"id": "call_1", "type": "function",
                          "function": {"name": "get_forecast", "arguments": "{\"city\":\"Lyon\"}"}});
        let mut call = parse(&body).unwrap();
        assert_eq!(call.dialect(), Dialect::OpenAiToolCall);
        assert_eq!(call.arguments(), &json!({"city": "Lyon"}));
        call.replace_arguments(json!({"city": "Paris"}));
        let out = reencoded(call);
        assert_eq!(out["id"], "call_1");
        assert_eq!(out["function"]["arguments"], "{\"city\":\"Paris\"}");
    }

    #[test]
    fn legacy_function_calls_and_jsonrpc_are_recognised() {
        let legacy = parse(&json!({"name": "f", "arguments": "{}"})).unwrap();
        assert_eq!(legacy.dialect(), Dialect::OpenAiFunctionCall);
        assert_eq!(reencoded(legacy), json!({"name": "f", "arguments": "{}"}));

        let rpc = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "f", "arguments": {"a": 1}}});
        let call = parse(&rpc).unwrap();
        assert_eq!(call.dialect(), Dialect::JsonRpc);
        assert_eq!(reencoded(call), rpc);
    }

    #[test]
    fn missing_arguments_are_an_empty_object() {
        let call = parse(&json!({"name": "ping"})).unwrap();
        assert_eq!(call.arguments(), &json!({}));
    }

    #[test]
    fn malformed_requests_get_messages_that_do_not_quote_them() {
        let long_session = format!(r#"{{"name": "f", "session": "{}"}}"#, "s".repeat(300));
        let cases: [&[u8]; 11] = [
            long_session.as_bytes(),
            br#"{"name": "f", "session": ""}"#,
            br#"{"name": "f", "arguments": {"ssn": "078-05-1120"#,
            br#"{"name": "f" "arguments": {}}"#,
            br#"["f"]"#,
            br#"{"arguments": {}}"#,
            br#"{"name": "f", "arguments": [1]}"#,
            br#"{"name": "f", "arguments": "{\"ssn\": 078-05-1120}"}"#,
            br#"{"name": "f", "arguments": "[1]"}"#,
            br#"{"jsonrpc": "2.0", "method": "tools/list"}"#,
            br#"{"name": "f", "task_context": 3}"#,
        ];
        for body in cases {
            let e = GatewayCall::parse(body).unwrap_err();
            assert!(!e.0.contains("078"), "{}", e.0);
            assert!(!e.0.is_empty());
        }
        let e = GatewayCall::parse(br#"{"name": "f", "arguments": {"#).unwrap_err();
        assert_eq!(
            e.0,
            "the request body ends in the middle of a JSON value (line 1, column 28)"
        );
    }

    #[test]
    fn debug_hides_arguments() {
        let call = parse(&json!({"name": "f", "arguments": {"ssn": "078-05-1120"}, "task_context": "078-05-1120"})).unwrap();
        assert!(!format!("{call:?}").contains("078"));
    }
}
