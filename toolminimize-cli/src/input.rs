//! Reading SPEC §5 input lines.

use std::collections::HashMap;

use serde_json::Value;
use toolminimize_core::{Exposure, Session, ToolDef};

/// One parsed input line.
#[derive(Debug)]
pub(crate) struct CallLine {
    pub(crate) id: Value,
    pub(crate) tool: ToolDef,
    pub(crate) arguments: Value,
    pub(crate) exposure: Option<Exposure>,
    pub(crate) session: Option<String>,
    pub(crate) task_context: Option<String>,
}

/// A line that could not be read: its id (if any could be found) and why.
#[derive(Debug)]
pub(crate) struct LineError {
    pub(crate) id: Value,
    pub(crate) message: String,
}

/// Parses one line.
pub(crate) fn parse_line(line: &str) -> Result<CallLine, LineError> {
    let v: Value = serde_json::from_str(line).map_err(|e| LineError {
        id: Value::Null,
        message: format!("not valid JSON: {e}"),
    })?;
    let Value::Object(mut obj) = v else {
        return Err(LineError {
            id: Value::Null,
            message: "a line must be a JSON object".into(),
        });
    };
    let id = obj.remove("id").unwrap_or(Value::Null);
    let err = |m: &str| LineError {
        id: id.clone(),
        message: m.to_owned(),
    };
    let tool = obj.get("tool").ok_or_else(|| err("missing `tool`"))?;
    let tool = ToolDef::from_json(tool).map_err(|e| err(e.message()))?;
    let arguments = match obj.remove("arguments") {
        Some(a @ Value::Object(_)) => a,
        Some(Value::String(s)) => match serde_json::from_str::<Value>(&s) {
            // OpenAI sends arguments as a JSON-encoded string.
            Ok(a @ Value::Object(_)) => a,
            _ => return Err(err("`arguments` must be a JSON object")),
        },
        Some(_) => return Err(err("`arguments` must be a JSON object")),
        None => return Err(err("missing `arguments`")),
    };
    let exposure = match obj.get("exposure") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(
            s.parse::<Exposure>()
                .map_err(|_| err("`exposure` must be first_party, third_party or unknown"))?,
        ),
        Some(_) => return Err(err("`exposure` must be a string")),
    };
    let text = |k: &str| -> Result<Option<String>, LineError> {
        match obj.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(err(&format!("`{k}` must be a string"))),
        }
    };
    Ok(CallLine {
        session: text("session")?,
        task_context: text("task_context")?,
        id,
        tool,
        arguments,
        exposure,
    })
}

/// Sessions by id, created on first use.
#[derive(Debug, Default)]
pub(crate) struct Sessions(HashMap<String, Session>);

impl Sessions {
    pub(crate) fn get(&mut self, id: &str) -> &Session {
        self.0
            .entry(id.to_owned())
            .or_insert_with(|| Session::new(id))
    }
}
