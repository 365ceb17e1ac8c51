//! The few JSON-RPC 2.0 shapes the proxy reads or writes itself.

use serde::Deserialize;
use serde_json::{Map, Value, json};

/// JSON-RPC: the line is not valid JSON.
pub(crate) const PARSE_ERROR: i64 = -32700;
/// JSON-RPC: valid JSON, but not a request object.
pub(crate) const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC: the params of a known method are not of the expected shape.
pub(crate) const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC: the receiver failed to handle a valid request (here: minimizing it failed or
/// took longer than the time budget).
pub(crate) const INTERNAL_ERROR: i64 = -32603;

/// The routing fields of a message, read without building the rest of it.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Envelope {
    /// Request or response id; `None` for notifications (and for `"id": null`).
    #[serde(default)]
    pub(crate) id: Option<Value>,
    /// Method of a request or notification; `None` for responses.
    #[serde(default)]
    pub(crate) method: Option<String>,
    /// `params.name`, when `params` is an object with a string `name`.
    #[serde(default, rename = "params")]
    pub(crate) params_name: ParamsName,
}

/// The `name` of a message's `params`, read without building the rest of them (whatever
/// their type).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct ParamsName(pub(crate) Option<String>);

impl<'de> Deserialize<'de> for ParamsName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = ParamsName;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<ParamsName, A::Error> {
                let mut name = None;
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    if key == "name" && name.is_none() {
                        name = match map.next_value::<Value>()? {
                            Value::String(s) => Some(s),
                            _ => None,
                        };
                    } else {
                        map.next_value::<serde::de::IgnoredAny>()?;
                    }
                }
                Ok(ParamsName(name))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<ParamsName, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(ParamsName(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<ParamsName, E> {
                Ok(ParamsName(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<ParamsName, E> {
                Ok(ParamsName(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<ParamsName, E> {
                Ok(ParamsName(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<ParamsName, E> {
                Ok(ParamsName(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<ParamsName, E> {
                Ok(ParamsName(None))
            }
            fn visit_unit<E>(self) -> Result<ParamsName, E> {
                Ok(ParamsName(None))
            }
        }
        d.deserialize_any(V)
    }
}

impl Envelope {
    /// Reads the envelope of one JSON object. Errors when the text is not a JSON object with
    /// a string `method` (if any).
    pub(crate) fn parse(line: &[u8]) -> Result<Self, serde_json::Error> {
        serde_json::from_slice(line)
    }

    /// Reads the envelope of an already parsed message; `None` when it is not an object.
    pub(crate) fn of(message: &Value) -> Option<Self> {
        let obj = message.as_object()?;
        Some(Envelope {
            id: obj.get("id").filter(|v| !v.is_null()).cloned(),
            method: obj.get("method").and_then(Value::as_str).map(str::to_owned),
            params_name: ParamsName(
                obj.get("params")
                    .and_then(|p| p.get("name"))
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            ),
        })
    }

    /// Whether this is a response (an id and no method).
    pub(crate) fn is_response(&self) -> bool {
        self.method.is_none() && self.id.is_some()
    }
}

/// The JSON-RPC error code for a line that could not be read as a message.
pub(crate) fn code_for(e: &serde_json::Error) -> i64 {
    match e.classify() {
        serde_json::error::Category::Data => INVALID_REQUEST,
        _ => PARSE_ERROR,
    }
}

/// A key that identifies a request id across the two directions.
pub(crate) fn id_key(id: &Value) -> String {
    id.to_string()
}

/// Serializes a message as one line, newline included.
pub(crate) fn to_line(message: &Value) -> Vec<u8> {
    // Serializing a `Value` cannot fail: its map keys are strings.
    let mut out = serde_json::to_vec(message).unwrap_or_default();
    out.push(b'\n');
    out
}

/// An error response.
pub(crate) fn error_response(id: Option<&Value>, code: i64, message: &str) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id.cloned().unwrap_or(Value::Null),
        "error": {"code": code, "message": message},
    })
}

/// A successful `tools/call` result that reports a tool error to the model.
pub(crate) fn tool_error_result(id: &Value, text: &str) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "result": {"content": [{"type": "text", "text": text}], "isError": true},
    })
}

/// A request the proxy itself sends to the server.
pub(crate) fn request(id: &str, method: &str, params: Map<String, Value>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope_reads_routing_fields_only() {
        let e = Envelope::parse(
            br#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"x":[1,2]}}"#,
        )
        .unwrap();
        assert_eq!(e.id, Some(json!(7)));
        assert_eq!(e.method.as_deref(), Some("tools/list"));
        assert!(!e.is_response());
        let c = Envelope::parse(
            br#"{"id":1,"method":"tools/call","params":{"arguments":{"name":5},"name":"echo"}}"#,
        )
        .unwrap();
        assert_eq!(c.params_name.0.as_deref(), Some("echo"));
        for params in ["[1,{}]", "3", "null", "\"x\"", "{\"name\":[1]}"] {
            let line = format!(r#"{{"id":1,"method":"m","params":{params}}}"#);
            assert_eq!(
                Envelope::parse(line.as_bytes()).unwrap().params_name.0,
                None
            );
        }
        let r = Envelope::parse(br#"{"result":{},"jsonrpc":"2.0","id":"a"}"#).unwrap();
        assert!(r.is_response());
        let n =
            Envelope::parse(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).unwrap();
        assert_eq!(n.id, None);
    }

    #[test]
    fn bad_lines_get_the_right_code() {
        assert_eq!(
            code_for(&Envelope::parse(b"{\"id\":").unwrap_err()),
            PARSE_ERROR
        );
        assert_eq!(
            code_for(&Envelope::parse(b"not json").unwrap_err()),
            PARSE_ERROR
        );
        assert_eq!(
            code_for(&Envelope::parse(br#"{"method": 5}"#).unwrap_err()),
            INVALID_REQUEST
        );
    }

    #[test]
    fn ids_of_different_types_do_not_collide() {
        assert_ne!(id_key(&json!(1)), id_key(&json!("1")));
    }

    #[test]
    fn tool_error_result_has_the_mcp_shape() {
        let v = tool_error_result(&json!(3), "blocked");
        assert_eq!(v["result"]["isError"], true);
        assert_eq!(v["result"]["content"][0]["text"], "blocked");
        assert_eq!(v["id"], 3);
    }
}
