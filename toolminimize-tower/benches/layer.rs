//! The layer's overhead beyond `Minimizer::minimize_call` itself.
//!
//! `minimize_call/*` measures the pipeline alone; `service/*` measures a `Minimize` service around
//! an inner service that returns at once, with the same arguments. The difference is what the
//! layer adds: resolving the tool, the report hook and tracing checks, swapping the arguments
//! in the request, and the response future. Request construction and dropping the results
//! happen outside the timed part in both.
//!
//! On a loaded machine two separately timed benchmarks drift apart by more than the difference
//! sought, so `overhead/*` times both in the same iteration, alternating which runs first, and
//! reports the median of the paired differences (service − `minimize_call`) directly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use std::convert::Infallible;
use std::future::{Future, Ready, ready};
use std::hint::black_box;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use toolminimize_core::{Call, Minimizer, ToolDef};
use toolminimize_tower::{Minimize, MinimizeLayer, ReportEvent, ToolCall, ToolRegistry};
use tower::{Layer, Service, service_fn};

fn tool() -> ToolDef {
    ToolDef::new(
        "get_forecast",
        "Weather forecast for a city",
        json!({
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "days": {"type": "integer"},
                "units": {"type": "string", "enum": ["metric", "imperial"]},
                "notes": {"type": "string"}
            },
            "required": ["city"]
        }),
    )
}

fn fixtures() -> [(&'static str, Value); 3] {
    [
        ("empty", json!({})),
        (
            "clean",
            json!({"city": "Lyon", "days": 3, "units": "metric"}),
        ),
        (
            "oversharing",
            json!({"city": "Lyon", "days": 3, "units": "metric",
                   "notes": "I am flying back from my chemotherapy appointment, reach me at jane.doe@example.com"}),
        ),
    ]
}

fn echo() -> impl Service<
    ToolCall,
    Response = ToolCall,
    Error = Infallible,
    Future = Ready<Result<ToolCall, Infallible>>,
> + Clone {
    service_fn(|call: ToolCall| ready(Ok(call)))
}

/// Polls a future that must be ready on its first poll.
fn poll_once<F: Future>(f: F) -> F::Output {
    let mut cx = Context::from_waker(Waker::noop());
    match pin!(f).poll(&mut cx) {
        Poll::Ready(out) => out,
        Poll::Pending => panic!("the echo service is always ready"),
    }
}

fn call_through<S: Service<ToolCall>>(
    svc: &mut S,
    call: ToolCall,
) -> Result<S::Response, S::Error> {
    poll_once(std::future::poll_fn(|cx| svc.poll_ready(cx)))?;
    poll_once(svc.call(call))
}

fn bench(c: &mut Criterion) {
    let minimizer = Minimizer::new().unwrap();
    let tool = Arc::new(tool());
    let mut group = c.benchmark_group("layer");
    for (name, args) in fixtures() {
        group.bench_function(format!("minimize_call/{name}"), |b| {
            b.iter_batched(
                || args.clone(),
                |args| minimizer.minimize_call(&Call::new(black_box(&tool), black_box(&args))),
                BatchSize::SmallInput,
            );
        });

        let mut svc: Minimize<_> = Minimize::new(echo(), minimizer.clone());
        group.bench_function(format!("service/{name}"), |b| {
            b.iter_batched(
                || ToolCall::new(Arc::clone(&tool), args.clone()),
                |call| call_through(&mut svc, black_box(call)).unwrap(),
                BatchSize::SmallInput,
            );
        });

        let mut paired: Minimize<_> = Minimize::new(echo(), minimizer.clone());
        group.bench_function(format!("overhead/{name}"), |b| {
            b.iter_custom(|iters| {
                let mut diffs: Vec<i128> = Vec::with_capacity(usize::try_from(iters).unwrap_or(0));
                for i in 0..iters {
                    let direct_args = args.clone();
                    let call = ToolCall::new(Arc::clone(&tool), args.clone());
                    let time_direct = || {
                        let t = Instant::now();
                        let out = minimizer
                            .minimize_call(&Call::new(black_box(&tool), black_box(&direct_args)));
                        let elapsed = t.elapsed();
                        drop(black_box(out));
                        elapsed
                    };
                    let time_layer = || {
                        let t = Instant::now();
                        let out = call_through(&mut paired, black_box(call)).unwrap();
                        let elapsed = t.elapsed();
                        drop(black_box(out));
                        elapsed
                    };
                    let (direct, layered) = if i % 2 == 0 {
                        let d = time_direct();
                        (d, time_layer())
                    } else {
                        let l = time_layer();
                        (time_direct(), l)
                    };
                    diffs.push(layered.as_nanos() as i128 - direct.as_nanos() as i128);
                }
                // The median of the paired differences: preemptions on a busy machine hit single
                // iterations, and the median ignores them. Floored at 1 ns per iteration, since
                // criterion rejects a zero time.
                diffs.sort_unstable();
                let median = diffs.get(diffs.len() / 2).copied().unwrap_or(0).max(1);
                Duration::from_nanos(
                    u64::try_from(median)
                        .unwrap_or(u64::MAX)
                        .saturating_mul(iters),
                )
            });
        });

        let registry = ToolRegistry::new().with_tool(ToolDef::clone(&tool));
        let mut named = MinimizeLayer::new(minimizer.clone())
            .registry(registry)
            .on_report(|event: &ReportEvent<'_>| {
                black_box(event.report.cost_after());
            })
            .layer(echo());
        group.bench_function(format!("service_named_with_hook/{name}"), |b| {
            b.iter_batched(
                || ToolCall::named("get_forecast", args.clone()),
                |call| call_through(&mut named, black_box(call)).unwrap(),
                BatchSize::SmallInput,
            );
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
