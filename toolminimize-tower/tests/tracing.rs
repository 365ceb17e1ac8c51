//! What the layer logs: tool, costs, and per item its path, category and action; never a value.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::fmt::Debug;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use toolminimize_core::{Detector, Field};
use toolminimize_core::{Finding, PsdKind};
use toolminimize_core::{Minimizer, Policy, ToolDef};
use toolminimize_tower::{MinimizeLayer, ToolCall};
use tower::{ServiceBuilder, ServiceExt, service_fn};
use tracing::field::{Field as TField, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

const EMP: &str = "EMP-004211";

#[derive(Debug)]
struct EmployeeNumbers;

impl Detector for EmployeeNumbers {
    fn name(&self) -> &'static str {
        "employee_number"
    }
    fn detect(&self, text: &str, _field: &Field<'_>, out: &mut Vec<Finding>) {
        for (i, _) in text.match_indices("EMP-") {
            let digits = text[i + 4..]
                .chars()
                .take_while(char::is_ascii_digit)
                .count();
            if digits > 0 {
                out.push(Finding::new(
                    i..i + 4 + digits,
                    PsdKind::AccountId,
                    0.95,
                    "employee_number",
                ));
            }
        }
    }
}

/// Records every event as `message field=value ...`.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<String>>>);

struct Line(String);

impl Visit for Line {
    fn record_debug(&mut self, field: &TField, value: &dyn Debug) {
        self.0.push_str(&format!(" {}={value:?}", field.name()));
    }
}

impl Subscriber for Recorder {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn max_level_hint(&self) -> Option<tracing::level_filters::LevelFilter> {
        Some(tracing::level_filters::LevelFilter::TRACE)
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut line = Line(format!(
            "{} {}",
            event.metadata().level(),
            event.metadata().target()
        ));
        event.record(&mut line);
        self.0.lock().unwrap().push(line.0);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

fn run_calls(policy: &str, calls: Vec<ToolCall>) -> Vec<String> {
    let recorder = Recorder::default();
    let lines = Arc::clone(&recorder.0);
    tracing::subscriber::with_default(recorder, || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        rt.block_on(async {
            let minimizer = Minimizer::builder()
                .policy(Policy::from_json_str(policy).unwrap())
                .detector(EmployeeNumbers)
                .build()
                .unwrap();
            let svc = ServiceBuilder::new()
                .layer(MinimizeLayer::new(minimizer))
                .service(service_fn(|c: ToolCall| async move {
                    Ok::<_, std::convert::Infallible>(c.into_arguments())
                }));
            for call in calls {
                let _ = svc.clone().oneshot(call).await;
            }
        });
    });
    lines.lock().unwrap().clone()
}

fn tool(name: &str) -> ToolDef {
    ToolDef::new(
        name,
        "",
        json!({"type": "object", "properties": {"query": {"type": "string"}, "notes": {"type": "string"}}, "required": ["query"]}),
    )
}

fn args() -> Value {
    json!({"query": "library opening hours", "notes": format!("ask for {EMP}")})
}

/// The value of `name=value` in a recorded line.
fn field<'a>(line: &'a str, name: &str) -> &'a str {
    let start = line.find(&format!(" {name}=")).unwrap() + name.len() + 2;
    line[start..].split(' ').next().unwrap()
}

#[test]
fn logs_costs_paths_categories_and_actions_but_no_values() {
    let lines = run_calls("{}", vec![ToolCall::new(tool("web_search"), args())]);
    let ours: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains("toolminimize_tower"))
        .collect();

    let summary = ours
        .iter()
        .find(|l| l.contains("tool call minimized"))
        .expect("a summary event");
    assert!(summary.starts_with("DEBUG"), "{summary}");
    assert!(summary.contains("tool=\"web_search\""), "{summary}");
    assert!(summary.contains("cost_before="), "{summary}");
    let cost_after: f64 = field(summary, "cost_after").parse().unwrap();
    assert_eq!(cost_after, 0.0, "{summary}");
    assert!(summary.contains("items=1"), "{summary}");

    let item = ours
        .iter()
        .find(|l| l.contains("sensitive item"))
        .expect("a per-item event");
    assert!(item.starts_with("TRACE"), "{item}");
    for expected in [
        "path=/notes",
        "category=\"identity\"",
        "action=\"remove\"",
        "necessary=false",
    ] {
        assert!(item.contains(expected), "{expected} missing in {item}");
    }

    for line in &lines {
        assert!(!line.contains("004211"), "a raw value was logged: {line}");
    }
}

#[test]
fn blocked_calls_are_logged_as_warnings_without_values() {
    let lines = run_calls(
        r#"{"block": {"tools": ["web_search"]}}"#,
        vec![ToolCall::new(tool("web_search"), args())],
    );
    let blocked = lines
        .iter()
        .find(|l| l.contains("tool call blocked"))
        .expect("a blocked event");
    assert!(blocked.starts_with("WARN"), "{blocked}");
    assert!(
        blocked.contains("reason=the policy blocks calls to this tool"),
        "{blocked}"
    );
    for line in &lines {
        assert!(!line.contains("004211"), "a raw value was logged: {line}");
    }
}
