//! The layer's contract, driven through tower's test mocks and real `ServiceBuilder` stacks.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::borrow::Cow;
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, LazyLock, Mutex};

use serde_json::{Value, json};
use tokio_test::{assert_pending, assert_ready_ok};
use toolminimize_core::{BlockReason, Minimizer, Policy, ToolDef};
use toolminimize_core::{Detector, Field};
use toolminimize_core::{Finding, PsdKind};
use toolminimize_tower::{
    ArgumentsError, BoxError, Disposition, Error, ErrorKind, Minimize, MinimizeLayer,
    MinimizeRequest, ReportEvent, ToolCall, ToolRef, ToolRegistry, UnknownTool,
};
use tower::{Service, ServiceBuilder, ServiceExt, service_fn};
use tower_test::mock;

const SSN: &str = "078-05-1120";
const PHONE: &str = "+1 415 555 0132";
/// An identifier only [`EmployeeNumbers`] detects, so the layer's mechanics do not depend on
/// which built-in detectors exist.
const EMP: &str = "EMP-004211";

/// Finds employee numbers such as `EMP-004211` (a user-supplied detector).
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

fn search_tool() -> ToolDef {
    ToolDef::new(
        "web_search",
        "Search the web",
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "What to search for"},
                "notes": {"type": "string", "description": "Anything else"}
            },
            "required": ["query"]
        }),
    )
}

/// A call that over-shares: an SSN inside the query and a phone number in an optional field.
fn oversharing_call() -> ToolCall {
    ToolCall::new(
        search_tool(),
        json!({"query": format!("IRS refund status for SSN {SSN}"), "notes": format!("my cell is {PHONE}")}),
    )
}

/// A call with an employee number in its optional `notes` field.
fn emp_call() -> ToolCall {
    ToolCall::new(
        search_tool(),
        json!({"query": "opening hours of the public library", "notes": format!("ask for {EMP}")}),
    )
}

fn minimizer() -> Minimizer {
    minimizer_with("{}")
}

/// Minimizers with [`EmployeeNumbers`] by policy, built once per test binary: building one
/// compiles every lexicon.
fn minimizer_with(policy: &str) -> Minimizer {
    static BUILT: LazyLock<Mutex<HashMap<String, Minimizer>>> = LazyLock::new(Mutex::default);
    let mut built = BUILT.lock().unwrap();
    built
        .entry(policy.to_owned())
        .or_insert_with(|| {
            Minimizer::builder()
                .policy(Policy::from_json_str(policy).unwrap())
                .detector(EmployeeNumbers)
                .build()
                .unwrap()
        })
        .clone()
}

/// An echo tool server that records what it receives.
fn recording_server() -> (
    Arc<Mutex<Vec<ToolCall>>>,
    impl Service<ToolCall, Response = Value, Error = Infallible, Future: Send> + Clone,
) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let svc = service_fn(move |call: ToolCall| {
        let sink = Arc::clone(&sink);
        async move {
            let args = call.arguments().clone();
            sink.lock().unwrap().push(call);
            Ok::<_, Infallible>(args)
        }
    });
    (seen, svc)
}

#[tokio::test]
async fn the_inner_service_receives_only_minimized_arguments() {
    let (seen, server) = recording_server();
    let mut svc = ServiceBuilder::new()
        .layer(MinimizeLayer::new(minimizer()))
        .service(server);

    let sent = svc.ready().await.unwrap().call(emp_call()).await.unwrap();

    assert_eq!(
        sent,
        json!({"query": "opening hours of the public library"})
    );
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].arguments(), &sent);
    let report = seen[0]
        .report()
        .expect("the report is attached to the request");
    assert_eq!(report.items().len(), 1);
    assert_eq!(report.items()[0].path(), "/notes");
    assert!(report.cost_before() > 0.0);
    assert_eq!(report.cost_after(), 0.0);
}

/// The built-in detectors at work through the layer: an SSN inside a search query and a phone
/// number in an optional field.
#[tokio::test]
async fn built_in_detection_removes_an_ssn_from_a_query_and_drops_a_phone_number() {
    let (_, server) = recording_server();
    let mut svc = ServiceBuilder::new()
        .layer(MinimizeLayer::new(Minimizer::new().unwrap()))
        .service(server);

    let sent = svc
        .ready()
        .await
        .unwrap()
        .call(oversharing_call())
        .await
        .unwrap();

    let text = sent.to_string();
    assert!(!text.contains(SSN), "SSN leaked: {text}");
    assert!(!text.contains("555"), "phone leaked: {text}");
    assert!(
        sent.get("notes").is_none(),
        "optional field with a phone number kept: {text}"
    );
    assert!(
        sent["query"].as_str().unwrap().contains("refund"),
        "the task's words must survive: {text}"
    );
}

#[tokio::test]
async fn calls_without_sensitive_data_pass_unchanged() {
    let (_, server) = recording_server();
    let mut svc = Minimize::new(server, minimizer());
    let args = json!({"query": "opening hours of the public library", "notes": "bring a pencil"});
    let sent = svc
        .ready()
        .await
        .unwrap()
        .call(ToolCall::new(search_tool(), args.clone()))
        .await
        .unwrap();
    assert_eq!(sent, args);
}

#[tokio::test]
async fn poll_ready_is_the_inner_services() {
    let (mut svc, mut handle) =
        mock::spawn_layer::<ToolCall, Value, _>(MinimizeLayer::new(minimizer()));

    handle.allow(0);
    assert_pending!(svc.poll_ready());

    handle.allow(1);
    assert_ready_ok!(svc.poll_ready());
    let response = svc.call(ToolCall::new(
        search_tool(),
        json!({"query": "weather in Lyon"}),
    ));
    let (request, send) = handle.next_request().await.unwrap();
    assert_eq!(request.arguments(), &json!({"query": "weather in Lyon"}));
    send.send_response(json!({"ok": true}));
    assert_eq!(response.await.unwrap(), json!({"ok": true}));

    handle.send_error(std::io::Error::other("tool server down"));
    let e = svc.poll_ready().map(|r| r.unwrap_err());
    let std::task::Poll::Ready(e) = e else {
        panic!("expected the inner error")
    };
    assert_eq!(e.kind(), ErrorKind::Inner);
    assert!(e.into_inner().unwrap().downcast::<std::io::Error>().is_ok());
}

#[tokio::test]
async fn a_blocked_tool_is_an_error_and_never_reaches_the_inner_service() {
    let layer = MinimizeLayer::new(minimizer_with(r#"{"block": {"tools": ["run_shell"]}}"#));
    let (mut svc, mut handle) = mock::spawn_layer::<ToolCall, Value, _>(layer);
    handle.allow(1);

    assert_ready_ok!(svc.poll_ready());
    let shell = ToolDef::new("run_shell", "", json!({"type": "object"}));
    let e = svc
        .call(ToolCall::new(shell, json!({"cmd": "cat /etc/shadow"})))
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Blocked);
    assert_eq!(e.block_reason(), Some(&BlockReason::ToolBlocked));
    assert_eq!(e.tool(), Some("run_shell"));
    assert!(e.is_rejected());
    assert!(!e.to_string().contains("shadow") && !format!("{e:?}").contains("shadow"));

    // Nothing reached the tool server; other tools still go through.
    assert_ready_ok!(svc.poll_ready());
    let ok = svc.call(ToolCall::new(search_tool(), json!({"query": "weather"})));
    let (request, send) = handle.next_request().await.unwrap();
    assert_eq!(request.tool_name(), "web_search");
    send.send_response(json!(1));
    assert_eq!(ok.await.unwrap(), json!(1));
}

#[tokio::test]
async fn the_hook_sees_every_call_with_its_report_and_disposition() {
    let events: Arc<Mutex<Vec<(String, bool, f64)>>> = Arc::default();
    let sink = Arc::clone(&events);
    let (_, server) = recording_server();
    let mut svc = ServiceBuilder::new()
        .layer(
            MinimizeLayer::new(minimizer_with(r#"{"block": {"tools": ["run_shell"]}}"#)).on_report(
                move |event: &ReportEvent<'_>| {
                    let blocked = matches!(event.disposition, Disposition::Blocked(_));
                    sink.lock().unwrap().push((
                        event.tool.to_owned(),
                        blocked,
                        event.report.cost_before(),
                    ));
                },
            ),
        )
        .service(server);

    svc.ready().await.unwrap().call(emp_call()).await.unwrap();
    let shell = ToolDef::new("run_shell", "", json!({"type": "object"}));
    let _ = svc
        .ready()
        .await
        .unwrap()
        .call(ToolCall::new(shell, json!({})))
        .await
        .unwrap_err();

    let events = events.lock().unwrap();
    assert_eq!(events.len(), 2);
    assert_eq!(events[0].0, "web_search");
    assert!(!events[0].1);
    assert!(events[0].2 > 0.0, "the over-sharing call has a cost");
    assert_eq!((events[1].0.as_str(), events[1].1), ("run_shell", true));
}

#[tokio::test]
async fn named_tools_resolve_through_the_registry() {
    let (seen, server) = recording_server();
    let registry = ToolRegistry::new().with_tool(search_tool());
    let mut svc = ServiceBuilder::new()
        .layer(MinimizeLayer::new(minimizer()).registry(registry))
        .service(server);
    let args = json!({"query": "weather in Lyon", "notes": format!("ask for {EMP}")});
    let sent = svc
        .ready()
        .await
        .unwrap()
        .call(ToolCall::named("web_search", args))
        .await
        .unwrap();
    assert!(sent.get("notes").is_none(), "{sent}");
    assert_eq!(sent["query"], "weather in Lyon");
    assert_eq!(seen.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn unknown_tools_are_minimized_conservatively_or_rejected_on_request() {
    let (seen, server) = recording_server();
    let mut svc = Minimize::new(server.clone(), minimizer());
    let args = json!({"message": "hello", "contact": format!("ask for {EMP}")});
    let sent = svc
        .ready()
        .await
        .unwrap()
        .call(ToolCall::named("send_sms", args.clone()))
        .await
        .unwrap();
    assert!(!sent.to_string().contains(EMP), "{sent}");
    assert_eq!(sent["message"], "hello");
    assert_eq!(seen.lock().unwrap().len(), 1);

    let strict = ToolRegistry::new().unknown_tools(UnknownTool::Reject);
    let mut svc = ServiceBuilder::new()
        .layer(MinimizeLayer::new(minimizer()).registry(strict))
        .service(server);
    let e = svc
        .ready()
        .await
        .unwrap()
        .call(ToolCall::named("send_sms", args))
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownTool);
    assert_eq!(e.tool(), Some("send_sms"));
    assert_eq!(
        seen.lock().unwrap().len(),
        1,
        "the rejected call was not forwarded"
    );
}

/// A user-defined request type whose arguments are a JSON string, as OpenAI sends them.
#[derive(Debug, Clone)]
struct FunctionCall {
    name: String,
    arguments: String,
}

impl MinimizeRequest for FunctionCall {
    fn tool(&self) -> ToolRef<'_> {
        ToolRef::Name(&self.name)
    }
    fn arguments_json(&self) -> Result<Cow<'_, Value>, ArgumentsError> {
        serde_json::from_str(&self.arguments)
            .map(Cow::Owned)
            .map_err(|e| ArgumentsError::from_json(&e))
    }
    fn replace_arguments(&mut self, arguments: Value) {
        self.arguments = arguments.to_string();
    }
}

fn function_server() -> (
    Arc<Mutex<Vec<String>>>,
    impl Service<FunctionCall, Response = (), Error = Infallible> + Clone,
) {
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let sink = Arc::clone(&seen);
    let svc = service_fn(move |call: FunctionCall| {
        sink.lock().unwrap().push(call.arguments);
        std::future::ready(Ok::<_, Infallible>(()))
    });
    (seen, svc)
}

#[tokio::test]
async fn user_request_types_are_minimized_too() {
    let (seen, server) = function_server();
    let layer =
        MinimizeLayer::new(minimizer()).registry(ToolRegistry::new().with_tool(search_tool()));
    let mut svc = ServiceBuilder::new().layer(layer).service(server);
    let call = FunctionCall {
        name: "web_search".into(),
        arguments: json!({"query": "museums in Lyon", "notes": format!("ask for {EMP}")})
            .to_string(),
    };
    svc.ready().await.unwrap().call(call).await.unwrap();
    let sent: Value = serde_json::from_str(&seen.lock().unwrap()[0]).unwrap();
    assert_eq!(sent, json!({"query": "museums in Lyon"}));
}

#[tokio::test]
async fn unreadable_arguments_fail_closed_by_default_and_open_only_when_the_policy_says_so() {
    let broken = FunctionCall {
        name: "web_search".into(),
        arguments: format!(r#"{{"query": "refund", "ssn": {SSN}}}"#),
    };

    let (seen, server) = function_server();
    let mut closed = Minimize::new(server.clone(), minimizer());
    let e = closed
        .ready()
        .await
        .unwrap()
        .call(broken.clone())
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArguments);
    assert!(e.to_string().contains("not valid JSON"), "{e}");
    assert!(!e.to_string().contains("078") && !format!("{e:?}").contains("078"));
    assert!(seen.lock().unwrap().is_empty());

    let mut open = Minimize::new(server, minimizer_with(r#"{"fail_mode": "open"}"#));
    open.ready()
        .await
        .unwrap()
        .call(broken.clone())
        .await
        .unwrap();
    assert_eq!(seen.lock().unwrap().as_slice(), [broken.arguments]);
}

/// A user detector with a bug: it panics on a marker.
#[derive(Debug)]
struct Faulty;

impl Detector for Faulty {
    fn name(&self) -> &'static str {
        "faulty"
    }
    fn detect(&self, text: &str, _field: &Field<'_>, _out: &mut Vec<Finding>) {
        assert!(!text.contains("TRIGGER"), "detector bug");
    }
}

#[tokio::test]
async fn a_panicking_detector_blocks_under_fail_closed_and_forwards_unchanged_under_fail_open() {
    let args = json!({"query": "TRIGGER", "notes": format!("ask for {EMP}")});
    let (seen, server) = recording_server();

    let closed = Minimizer::builder().detector(Faulty).build().unwrap();
    let mut svc = Minimize::new(server.clone(), closed);
    let e = svc
        .ready()
        .await
        .unwrap()
        .call(ToolCall::new(search_tool(), args.clone()))
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Internal);
    assert!(matches!(e.block_reason(), Some(BlockReason::Internal(_))));
    assert!(seen.lock().unwrap().is_empty());

    let open = Minimizer::builder()
        .policy(Policy::from_json_str(r#"{"fail_mode": "open"}"#).unwrap())
        .detector(Faulty)
        .build()
        .unwrap();
    let mut svc = Minimize::new(server, open);
    let sent = svc
        .ready()
        .await
        .unwrap()
        .call(ToolCall::new(search_tool(), args.clone()))
        .await
        .unwrap();
    assert_eq!(sent, args);
}

fn nested(depth: usize) -> Value {
    let mut v = json!("leaf");
    for _ in 0..depth {
        v = json!({"n": v});
    }
    v
}

#[tokio::test]
async fn arguments_nested_past_the_limit_are_an_internal_failure() {
    let (seen, server) = recording_server();
    let mut svc = Minimize::new(server.clone(), minimizer());
    let deep = json!({"query": "x", "notes": nested(toolminimize_core::MAX_DEPTH + 8)});
    let e = svc
        .ready()
        .await
        .unwrap()
        .call(ToolCall::new(search_tool(), deep.clone()))
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Internal);
    assert!(seen.lock().unwrap().is_empty());

    let mut open = Minimize::new(server, minimizer_with(r#"{"fail_mode": "open"}"#));
    let sent = open
        .ready()
        .await
        .unwrap()
        .call(ToolCall::new(search_tool(), deep.clone()))
        .await
        .unwrap();
    assert_eq!(sent, deep);
}

#[tokio::test]
async fn inner_errors_come_back_as_inner() {
    let failing =
        service_fn(|_: ToolCall| async { Err::<Value, _>(std::io::Error::other("refused")) });
    let mut svc = Minimize::new(failing, minimizer());
    let e = svc
        .ready()
        .await
        .unwrap()
        .call(ToolCall::new(search_tool(), json!({"query": "q"})))
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Inner);
    assert!(!e.is_rejected());
    assert_eq!(
        std::error::Error::source(&e).unwrap().to_string(),
        "refused"
    );
}

#[test]
fn layer_service_and_future_are_send_sync_and_clone() {
    fn send_sync_clone<T: Send + Sync + Clone + 'static>() {}
    fn send_sync<T: Send + Sync + 'static>() {}
    send_sync_clone::<MinimizeLayer>();
    send_sync_clone::<Minimize<tower::util::BoxCloneSyncService<ToolCall, Value, BoxError>>>();
    send_sync::<toolminimize_tower::ResponseFuture<std::future::Ready<Result<Value, BoxError>>>>();
    send_sync::<Error>();
    send_sync_clone::<ToolCall>();
}

#[tokio::test]
async fn a_call_over_the_layers_time_budget_is_blocked_and_never_forwarded() {
    let (seen, server) = recording_server();
    let svc = ServiceBuilder::new()
        .layer(MinimizeLayer::new(minimizer()).time_budget(std::time::Duration::ZERO))
        .service(server);
    let e = svc.oneshot(oversharing_call()).await.unwrap_err();
    assert!(
        matches!(e.block_reason(), Some(BlockReason::Internal(r)) if r.contains("time budget")),
        "{e}"
    );
    assert!(!e.to_string().contains(SSN));
    assert!(seen.lock().unwrap().is_empty());
}
