//! The per-tool wrappers: a typed rig `Tool` and a `DynamicTool`, in an agent and called directly.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use std::sync::{Arc, Mutex};

use common::{
    LookupPatient, PatientLookup, Reports, SSN, contains, lookup_schema, oversharing_args,
};
use rig_agent::AgentBuilder;
use rig_core::message::ToolName;
use rig_core::test_utils::{MockCompletionModel, MockTurn};
use rig_core::tool::{DynamicTool, Tool, ToolContext, ToolErrorKind};
use serde::Deserialize;
use serde_json::{Value, json};
use toolminimize_core::{BlockReason, MinimizeSchema, Policy};
use toolminimize_rig::{
    CallAction, DefinitionSource, MinimizeError, MinimizeTools, SkipReason, schema,
};

fn scripted(tool: &str) -> MockCompletionModel {
    MockCompletionModel::from_turns([
        MockTurn::tool_call("c1", tool, oversharing_args()),
        MockTurn::text("Done."),
    ])
}

#[tokio::test]
async fn typed_wrapper_in_an_agent() {
    let inner = LookupPatient {
        annotated: true,
        ..LookupPatient::default()
    };
    let received = inner.received.clone();
    let reports = Reports::default();
    let tools = MinimizeTools::new(common::minimizer()).on_report(reports.callback());
    let wrapped = tools.tool(inner.clone());

    // Name and description pass through; the advertised parameters lose the annotations only.
    assert_eq!(
        <toolminimize_rig::Minimized<LookupPatient> as Tool>::NAME,
        "lookup_patient"
    );
    assert_eq!(Tool::description(&wrapped), Tool::description(&inner));
    assert_eq!(
        Tool::parameters(&wrapped),
        schema::advertised(&PatientLookup::minimize_schema())
    );
    assert_eq!(
        wrapped.tool_def().input_schema(),
        &PatientLookup::minimize_schema()
    );

    let model = scripted("lookup_patient");
    let agent = AgentBuilder::new(model.clone()).tool(wrapped).build();
    agent
        .prompt("Alice's appointments?")
        .max_turns(3)
        .await
        .unwrap();

    let received = received.lock().unwrap().clone();
    assert_eq!(received.len(), 1);
    assert!(!contains(&received[0], SSN), "{}", received[0]);
    assert_eq!(received[0]["name"], "Alice Smith");
    let reports = reports.all();
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0].source, DefinitionSource::Wrapped);
    assert_eq!(reports[0].action, CallAction::Forwarded { changed: true });

    // The provider saw the clean schema.
    let advertised = &model.requests()[0].tools[0];
    assert_eq!(advertised.name, "lookup_patient");
    assert!(!schema::has_annotations(&advertised.parameters));
}

#[tokio::test]
async fn typed_wrapper_with_a_separate_annotated_schema() {
    // The tool's own parameters are plain; the minimizer reads the annotated argument type.
    let inner = LookupPatient::default();
    let received = inner.received.clone();
    let wrapped =
        MinimizeTools::new(common::minimizer()).tool_with_schema::<_, PatientLookup>(inner);
    assert_eq!(Tool::parameters(&wrapped), lookup_schema());

    let mut ctx = ToolContext::new();
    let output = Tool::call(&wrapped, &mut ctx, oversharing_args())
        .await
        .unwrap();
    assert_eq!(output, "1 appointment on Tuesday");
    let received = received.lock().unwrap().clone();
    assert!(!contains(&received[0], SSN), "{}", received[0]);
}

#[tokio::test]
async fn dynamic_wrapper_in_an_agent() {
    let received = Arc::new(Mutex::new(Vec::<Value>::new()));
    let sink = received.clone();
    let inner = DynamicTool::new(
        ToolName::new("lookup_patient").unwrap(),
        "Looks up a patient's appointments by name.",
        PatientLookup::minimize_schema(),
        move |args| {
            sink.lock().unwrap().push(args);
            Box::pin(async { Ok("1 appointment on Tuesday".into()) })
        },
    );
    let reports = Reports::default();
    let wrapped = MinimizeTools::new(common::minimizer())
        .on_report(reports.callback())
        .dynamic(inner.clone());
    assert_eq!(wrapped.name(), inner.name());
    assert_eq!(
        wrapped.definition().description,
        inner.definition().description
    );
    assert_eq!(
        wrapped.definition().parameters,
        schema::advertised(&PatientLookup::minimize_schema())
    );

    let model = scripted("lookup_patient");
    let agent = AgentBuilder::new(model.clone())
        .dynamic_tool(wrapped)
        .build();
    agent
        .prompt("Alice's appointments?")
        .max_turns(3)
        .await
        .unwrap();

    assert_eq!(
        received.lock().unwrap().as_slice(),
        [json!({"name": "Alice Smith"})]
    );
    assert_eq!(
        reports.all()[0].action,
        CallAction::Forwarded { changed: true }
    );
    assert!(!schema::has_annotations(
        &model.requests()[0].tools[0].parameters
    ));
}

#[tokio::test]
async fn annotations_can_be_advertised() {
    let inner = LookupPatient {
        annotated: true,
        ..LookupPatient::default()
    };
    let wrapped = MinimizeTools::new(common::minimizer())
        .advertise_annotations(true)
        .tool(inner);
    assert_eq!(Tool::parameters(&wrapped), PatientLookup::minimize_schema());
}

#[tokio::test]
async fn blocked_calls_fail_as_refusals_without_running_the_tool() {
    let policy = Policy::default().with_blocked_tool("lookup_patient");
    let inner = LookupPatient::default();
    let received = inner.received.clone();
    let reports = Reports::default();
    let tools = MinimizeTools::new(common::minimizer_with(policy)).on_report(reports.callback());

    let typed = tools.tool(inner);
    let err = Tool::call(&typed, &mut ToolContext::new(), oversharing_args())
        .await
        .unwrap_err();
    assert!(matches!(
        err,
        MinimizeError::Skipped(SkipReason::Blocked(BlockReason::ToolBlocked))
    ));
    let err = typed.map_error(err);
    assert!(err.is_refusal());
    assert!(
        err.model_feedback()
            .unwrap()
            .starts_with("The call was not sent")
    );
    assert!(!err.message().contains(SSN));
    assert!(received.lock().unwrap().is_empty());

    let called = Arc::new(Mutex::new(false));
    let flag = called.clone();
    let dynamic = tools.dynamic(DynamicTool::new(
        ToolName::new("lookup_patient").unwrap(),
        "Looks up a patient.",
        lookup_schema(),
        move |_| {
            *flag.lock().unwrap() = true;
            Box::pin(async { Ok("ran".into()) })
        },
    ));
    let err = dynamic.execute(oversharing_args()).await.unwrap_err();
    assert!(err.is_refusal());
    assert!(!*called.lock().unwrap());
    assert!(reports.all().iter().all(|r| r.action
        == CallAction::Skipped(SkipReason::Blocked(BlockReason::ToolBlocked))));
}

/// A tool whose Rust arguments insist on the SSN its schema lets the minimizer remove.
struct StrictLookup;

#[derive(Deserialize)]
#[allow(dead_code)]
struct StrictArgs {
    name: String,
    ssn: String,
}

impl Tool for StrictLookup {
    const NAME: &'static str = "lookup_patient";
    type Args = StrictArgs;
    type Output = String;
    type Error = std::convert::Infallible;

    fn description(&self) -> String {
        "Looks up a patient.".to_owned()
    }

    fn parameters(&self) -> Value {
        PatientLookup::minimize_schema()
    }

    async fn call(&self, _: &mut ToolContext, _: StrictArgs) -> Result<String, Self::Error> {
        Ok("ran".to_owned())
    }
}

#[tokio::test]
async fn arguments_that_no_longer_fit_the_type_fail_without_quoting_values() {
    let wrapped = MinimizeTools::new(common::minimizer()).tool(StrictLookup);
    let err = Tool::call(&wrapped, &mut ToolContext::new(), oversharing_args())
        .await
        .unwrap_err();
    assert!(matches!(
        err,
        MinimizeError::Skipped(SkipReason::ArgumentTypeMismatch)
    ));
    assert!(!err.to_string().contains(SSN));
    let err = wrapped.map_error(err);
    assert_eq!(err.kind(), ToolErrorKind::InvalidArgs);
    assert!(!err.message().contains("Alice"));
}

#[test]
fn debug_output_is_value_free() {
    let tools = MinimizeTools::new(common::minimizer());
    let wrapped = tools.tool(LookupPatient::default());
    let dbg = format!("{tools:?} {wrapped:?}");
    assert!(dbg.contains("lookup_patient"));
    assert!(!dbg.contains(SSN));
}
