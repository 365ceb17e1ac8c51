//! The report goes to `tracing`, value-free. Alone in its binary: `tracing` caches callsite
//! interest process-wide, so a capturing test must not share a process with other tests.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use common::{LookupPatient, SSN, contains, oversharing_args};
use rig_agent::AgentBuilder;
use rig_core::test_utils::{MockCompletionModel, MockTurn, TraceCapture};
use toolminimize_rig::MinimizeHook;

#[tokio::test]
async fn every_call_is_traced_without_values() {
    let capture = TraceCapture::default();
    let _guard = tracing::subscriber::set_default(capture.subscriber());

    let model = MockCompletionModel::from_turns([
        MockTurn::tool_call("call_1", "lookup_patient", oversharing_args()),
        MockTurn::text("Done."),
    ]);
    let agent = AgentBuilder::new(model)
        .tool(LookupPatient::default())
        .add_hook(MinimizeHook::new(common::minimizer()))
        .build();
    agent
        .prompt("When is Alice Smith's next appointment?")
        .max_turns(3)
        .await
        .unwrap();

    let events: Vec<_> = capture
        .events()
        .into_iter()
        .filter(|e| e.target == "toolminimize_rig")
        .collect();
    let call_event = events
        .iter()
        .find(|e| e.message() == "tool call minimized")
        .expect("an INFO event per call");
    assert_eq!(call_event.level, tracing::Level::INFO);
    assert_eq!(call_event.fields["tool"], "lookup_patient");
    assert_eq!(call_event.fields["call_id"], "call_1");
    assert_eq!(call_event.fields["definition"], "advertised");
    assert_eq!(call_event.fields["action"], "forwarded");
    assert_eq!(call_event.fields["changed"], true);
    let item = events
        .iter()
        .find(|e| e.message() == "psd item" && e.fields["path"] == "/notes")
        .expect("a DEBUG event per item");
    assert_eq!(item.fields["category"], "identity");
    assert_eq!(item.fields["kind"], "ssn");
    // The capture is live (the events above), so these absences mean something.
    assert!(
        events
            .iter()
            .all(|e| !contains(&e.fields, SSN) && !contains(&e.fields, "Alice"))
    );
}
