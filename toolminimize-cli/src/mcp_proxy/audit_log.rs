//! `--audit-log FILE`: one JSON line per `tools/call`, with the tool, what was found (paths,
//! categories) and done (operations), and the privacy cost before and after. Never a value.

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::SystemTime;

use serde::Serialize;
use toolminimize_core::{Action, Category, Exposure, Report};

/// What became of a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Disposition {
    /// Forwarded with minimized arguments.
    Forwarded,
    /// Forwarded with its original arguments (an unlisted tool the options let through).
    ForwardedRaw,
    /// Answered by the proxy with a tool error; not forwarded.
    Blocked,
    /// Answered by the proxy with a JSON-RPC error (malformed params); not forwarded.
    Rejected,
}

/// One audit record.
#[derive(Debug, Serialize)]
pub(crate) struct Record<'a> {
    time: String,
    tool: Option<&'a str>,
    listed: bool,
    outcome: Disposition,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    exposure: Option<Exposure>,
    cost_before: f64,
    cost_after: f64,
    paths: BTreeSet<&'a str>,
    /// Paths under `params` other than `arguments` (`/_meta/…`), when any were minimized.
    #[serde(skip_serializing_if = "BTreeSet::is_empty")]
    params_paths: BTreeSet<&'a str>,
    categories: BTreeSet<Category>,
    ops: BTreeSet<Action>,
}

impl<'a> Record<'a> {
    /// A record for one call; `reports` are the pipeline's reports: the first for the
    /// arguments, the second (if any) for the other keys under `params`. Empty when the call
    /// never reached the pipeline.
    pub(crate) fn new(
        tool: Option<&'a str>,
        listed: bool,
        outcome: Disposition,
        reason: Option<String>,
        reports: &[&'a Report],
    ) -> Self {
        let items = || reports.iter().flat_map(|r| r.items().iter());
        Record {
            time: humantime::format_rfc3339_millis(SystemTime::now()).to_string(),
            tool,
            listed,
            outcome,
            reason,
            exposure: reports.first().and_then(|r| r.exposure()),
            cost_before: reports.iter().map(|r| r.cost_before()).sum(),
            cost_after: reports.iter().map(|r| r.cost_after()).sum(),
            paths: reports
                .first()
                .into_iter()
                .flat_map(|r| r.items().iter().map(|i| i.path()))
                .collect(),
            params_paths: reports
                .iter()
                .skip(1)
                .flat_map(|r| r.items().iter().map(|i| i.path()))
                .collect(),
            categories: items().map(|i| i.category()).collect(),
            ops: items()
                .map(|i| i.action())
                .filter(|a| *a != Action::Keep)
                .collect(),
        }
    }
}

/// The audit log file. Appends; each record is written and flushed whole.
#[derive(Debug)]
pub(crate) struct AuditLog {
    out: Mutex<BufWriter<File>>,
    failed: AtomicBool,
}

impl AuditLog {
    /// Opens (creates or appends to) the file.
    pub(crate) fn open(path: &Path) -> Result<Self, String> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open audit log {}: {e}", path.display()))?;
        Ok(AuditLog {
            out: Mutex::new(BufWriter::new(file)),
            failed: AtomicBool::new(false),
        })
    }

    /// Appends one record. A write failure is reported once on stderr and does not stop the
    /// proxy.
    pub(crate) fn write(&self, record: &Record<'_>) {
        let mut line = match serde_json::to_vec(record) {
            Ok(l) => l,
            Err(_) => return,
        };
        line.push(b'\n');
        let mut out = self
            .out
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let result = out.write_all(&line).and_then(|()| out.flush());
        if let Err(e) = result
            && !self.failed.swap(true, Ordering::Relaxed)
        {
            eprintln!("toolminimize: cannot write the audit log: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_holds_paths_categories_ops_and_costs() {
        let item = |path: &str, necessary: bool, action: Action, rule: &str| {
            serde_json::json!({
                "path": path, "category": Category::Identity, "sensitivity": 3,
                "necessary": necessary, "action": action, "kind": "email",
                "detector": "structured", "rule": rule, "confidence": 0.99,
            })
        };
        let report: Report = serde_json::from_value(serde_json::json!({
            "cost_before": 6.0,
            "cost_after": 0.0,
            "items": [
                item("/cc", false, Action::Remove, "schema:optional-field"),
                item("/to", true, Action::Keep, "schema:required-field"),
            ],
            "exposure": Exposure::ThirdParty,
        }))
        .unwrap();
        let r = Record::new(
            Some("send_email"),
            true,
            Disposition::Forwarded,
            None,
            &[&report],
        );
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["tool"], "send_email");
        assert_eq!(v["outcome"], "forwarded");
        assert_eq!(v["paths"], serde_json::json!(["/cc", "/to"]));
        assert_eq!(v["categories"], serde_json::json!(["identity"]));
        assert_eq!(v["ops"], serde_json::json!(["remove"]));
        assert_eq!(v["cost_before"], 6.0);
        assert_eq!(v["exposure"], "third_party");
        assert!(v["time"].as_str().unwrap().ends_with('Z'));
    }
}
