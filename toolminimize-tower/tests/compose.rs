//! The layer inside real tower stacks: timeout, concurrency limit, buffer and retry.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio_test::{assert_pending, assert_ready_ok};
use toolminimize_core::{Detector, Field};
use toolminimize_core::{Finding, PsdKind};
use toolminimize_core::{Minimizer, Policy, ToolDef};
use toolminimize_tower::{BoxError, Error, ErrorKind, MinimizeLayer, ToolCall};
use tower::retry::Policy as RetryPolicy;
use tower::{Service, ServiceBuilder, ServiceExt, service_fn};
use tower_test::mock;

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

fn tool() -> ToolDef {
    ToolDef::new(
        "get_forecast",
        "Weather forecast for a city",
        json!({
            "type": "object",
            "properties": {"city": {"type": "string"}, "notes": {"type": "string"}},
            "required": ["city"]
        }),
    )
}

fn call() -> ToolCall {
    ToolCall::new(
        tool(),
        json!({"city": "Lyon", "notes": "ask for EMP-004211"}),
    )
}

/// Built once per test binary: building a minimizer compiles every lexicon.
static MINIMIZER: LazyLock<Minimizer> = LazyLock::new(|| {
    let policy = Policy::from_json_str(r#"{"block": {"tools": ["run_shell"]}}"#).unwrap();
    Minimizer::builder()
        .policy(policy)
        .detector(EmployeeNumbers)
        .build()
        .unwrap()
});

fn layer() -> MinimizeLayer {
    MinimizeLayer::new(MINIMIZER.clone())
}

fn blocked_call() -> ToolCall {
    ToolCall::new(
        ToolDef::new("run_shell", "", json!({"type": "object"})),
        json!({"cmd": "id"}),
    )
}

#[tokio::test]
async fn under_a_timeout_the_inner_timeout_error_comes_back_as_inner() {
    let never = service_fn(|_: ToolCall| std::future::pending::<Result<Value, Infallible>>());
    let mut svc = ServiceBuilder::new()
        .layer(layer())
        .timeout(Duration::from_millis(20))
        .service(never);
    let e = svc.ready().await.unwrap().call(call()).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Inner);
    assert!(
        e.into_inner()
            .unwrap()
            .is::<tower::timeout::error::Elapsed>()
    );

    // Outside the layer, a timeout passes minimize's errors through as BoxError.
    let echo = service_fn(|c: ToolCall| async move { Ok::<_, Infallible>(c.into_arguments()) });
    let mut svc = ServiceBuilder::new()
        .timeout(Duration::from_secs(60))
        .layer(layer())
        .service(echo);
    let sent = svc.ready().await.unwrap().call(call()).await.unwrap();
    assert_eq!(sent, json!({"city": "Lyon"}));
    let e: BoxError = svc
        .ready()
        .await
        .unwrap()
        .call(blocked_call())
        .await
        .unwrap_err();
    assert_eq!(e.downcast::<Error>().unwrap().kind(), ErrorKind::Blocked);
}

#[tokio::test]
async fn with_a_concurrency_limit_blocked_calls_take_no_permit() {
    let (mut svc, mut handle) = mock::spawn_with::<ToolCall, Value, _, _>(|mock| {
        ServiceBuilder::new()
            .layer(layer())
            .concurrency_limit(1)
            .service(mock)
    });
    handle.allow(10);

    assert_ready_ok!(svc.poll_ready());
    let first = svc.call(call());
    let (request, send) = handle.next_request().await.unwrap();
    assert_eq!(request.arguments(), &json!({"city": "Lyon"}));

    // The one permit is taken by the call in flight.
    assert_pending!(svc.poll_ready());
    send.send_response(json!("sunny"));
    assert_eq!(first.await.unwrap(), json!("sunny"));

    // A blocked call returns its error; the permit it reserved serves the next call.
    assert_ready_ok!(svc.poll_ready());
    let e = svc.call(blocked_call()).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Blocked);
    assert_ready_ok!(svc.poll_ready());
    let next = svc.call(call());
    let (_, send) = handle.next_request().await.unwrap();
    send.send_response(json!("rain"));
    assert_eq!(next.await.unwrap(), json!("rain"));
}

#[tokio::test]
async fn behind_a_buffer_shared_clones_minimize_and_block() {
    let seen: Arc<Mutex<Vec<Value>>> = Arc::default();
    let sink = Arc::clone(&seen);
    let echo = service_fn(move |c: ToolCall| {
        sink.lock().unwrap().push(c.arguments().clone());
        std::future::ready(Ok::<_, Infallible>(()))
    });
    let svc = ServiceBuilder::new().buffer(4).layer(layer()).service(echo);

    let mut tasks = Vec::new();
    for _ in 0..8 {
        let svc = svc.clone();
        tasks.push(tokio::spawn(async move { svc.oneshot(call()).await }));
    }
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    let e = svc.clone().oneshot(blocked_call()).await.unwrap_err();
    assert_eq!(e.downcast::<Error>().unwrap().kind(), ErrorKind::Blocked);

    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 8);
    assert!(seen.iter().all(|v| v == &json!({"city": "Lyon"})));
}

/// Retries inner failures up to `left` times; never retries calls the layer rejected.
#[derive(Clone)]
struct RetryInner {
    left: usize,
}

/// Whether an error is one the layer produced without calling the inner service.
trait Rejected {
    fn rejected(&self) -> bool;
}

impl Rejected for Error {
    fn rejected(&self) -> bool {
        self.is_rejected()
    }
}

impl Rejected for BoxError {
    fn rejected(&self) -> bool {
        self.downcast_ref::<Error>().is_some_and(Error::is_rejected)
    }
}

impl<Res, E: Rejected> RetryPolicy<ToolCall, Res, E> for RetryInner {
    type Future = std::future::Ready<()>;

    fn retry(&mut self, _req: &mut ToolCall, result: &mut Result<Res, E>) -> Option<Self::Future> {
        match result {
            Err(e) if !e.rejected() && self.left > 0 => {
                self.left -= 1;
                Some(std::future::ready(()))
            }
            _ => None,
        }
    }

    fn clone_request(&mut self, req: &ToolCall) -> Option<ToolCall> {
        Some(req.clone())
    }
}

/// A tool server that fails its first call.
fn flaky() -> (
    Arc<Mutex<Vec<Value>>>,
    impl Service<ToolCall, Response = Value, Error = BoxError> + Clone,
) {
    let seen: Arc<Mutex<Vec<Value>>> = Arc::default();
    let sink = Arc::clone(&seen);
    let calls = Arc::new(AtomicUsize::new(0));
    let svc = service_fn(move |c: ToolCall| {
        sink.lock().unwrap().push(c.arguments().clone());
        let n = calls.fetch_add(1, Ordering::SeqCst);
        std::future::ready(if n == 0 {
            Err::<Value, BoxError>("temporarily unavailable".into())
        } else {
            Ok(json!("sunny"))
        })
    });
    (seen, svc)
}

#[tokio::test]
async fn outside_a_retry_the_call_is_minimized_once_and_retried_minimized() {
    let (seen, server) = flaky();
    let retry = tower::retry::Retry::new(RetryInner { left: 2 }, server);
    let mut svc = ServiceBuilder::new().layer(layer()).service(retry);
    let out = svc.ready().await.unwrap().call(call()).await.unwrap();
    assert_eq!(out, json!("sunny"));
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 2);
    assert!(
        seen.iter().all(|v| v == &json!({"city": "Lyon"})),
        "{seen:?}"
    );
}

#[tokio::test]
async fn inside_a_retry_blocked_calls_are_not_retried() {
    let (seen, server) = flaky();
    let mut svc = ServiceBuilder::new()
        .retry(RetryInner { left: 3 })
        .layer(layer())
        .service(server);
    let e = svc
        .ready()
        .await
        .unwrap()
        .call(blocked_call())
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Blocked);
    assert!(seen.lock().unwrap().is_empty());

    let out = svc.ready().await.unwrap().call(call()).await.unwrap();
    assert_eq!(out, json!("sunny"));
    assert_eq!(seen.lock().unwrap().len(), 2);
}
