//! End to end: a rig agent on rig's scripted completion model emits over-sharing tool calls;
//! the hook minimizes them before the tools run. No network.
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
use rig_core::completion::Message;
use rig_core::message::{ToolName, UserContent};
use rig_core::test_utils::{MockCompletionModel, MockTurn};
use rig_core::tool::DynamicTool;
use serde_json::{Value, json};
use toolminimize_core::{Action, MinimizeSchema, Minimizer, Policy, ToolDef};
use toolminimize_rig::{CallAction, DefinitionSource, MinimizeHook, SkipReason, schema};

fn model(calls: Vec<MockTurn>) -> MockCompletionModel {
    let mut turns = calls;
    turns.push(MockTurn::text("Done."));
    MockCompletionModel::from_turns(turns)
}

/// The text of every tool result the model was sent, in order.
fn tool_results(model: &MockCompletionModel) -> Vec<String> {
    let requests = model.requests();
    let last = requests.last().expect("at least one request");
    last.chat_history
        .iter()
        .flat_map(|m| match m {
            Message::User { content } => content.clone(),
            _ => Vec::new(),
        })
        .filter_map(|c| match c {
            UserContent::ToolResult(r) => Some(serde_json::to_string(&r.content).unwrap()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn typed_tool_receives_minimized_arguments_and_the_report_is_emitted() {
    let tool = LookupPatient::default();
    let received = tool.received.clone();
    let reports = Reports::default();
    let model = model(vec![MockTurn::tool_call(
        "call_1",
        "lookup_patient",
        oversharing_args(),
    )]);
    let agent = AgentBuilder::new(model.clone())
        .tool(tool)
        .add_hook(MinimizeHook::new(common::minimizer()).on_report(reports.callback()))
        .build();

    let answer = agent
        .prompt("When is Alice Smith's next appointment?")
        .max_turns(3)
        .await
        .unwrap();
    assert_eq!(answer.output(), "Done.");

    // The tool ran once; the SSN inside the free-text notes did not reach it, the name did.
    let received = received.lock().unwrap().clone();
    assert_eq!(received.len(), 1);
    let args = &received[0];
    assert!(
        !contains(&args["notes"], "6789"),
        "the SSN in the notes reached the tool: {args}"
    );
    assert_eq!(args["name"], "Alice Smith");

    // One report, from the definition the agent advertised, naming the notes field.
    let reports = reports.all();
    assert_eq!(reports.len(), 1);
    let report = &reports[0];
    assert_eq!(report.tool, "lookup_patient");
    assert_eq!(report.call_id.as_deref(), Some("call_1"));
    assert_eq!(report.source, DefinitionSource::Advertised);
    assert_eq!(report.action, CallAction::Forwarded { changed: true });
    assert!(
        report
            .items
            .iter()
            .any(|(path, _, action)| path == "/notes" && *action != Action::Keep),
        "{:?}",
        report.items
    );
    assert!(report.cost_after < report.cost_before);
    assert!(!report.debug.contains(SSN), "a report held a raw value");
    assert!(!report.debug.contains("Alice"), "a report held a raw value");
}

#[tokio::test]
async fn optional_ssn_field_does_not_reach_the_tool() {
    let tool = LookupPatient::default();
    let received = tool.received.clone();
    let model = model(vec![MockTurn::tool_call(
        "call_1",
        "lookup_patient",
        oversharing_args(),
    )]);
    let agent = AgentBuilder::new(model)
        .tool(tool)
        .add_hook(MinimizeHook::new(common::minimizer()))
        .build();
    agent
        .prompt("When is Alice Smith's next appointment?")
        .max_turns(3)
        .await
        .unwrap();
    let received = received.lock().unwrap().clone();
    assert!(
        !contains(&received[0], SSN),
        "SSN reached the tool: {}",
        received[0]
    );
    assert!(received[0]["ssn"].is_null());
}

#[tokio::test]
async fn default_minimizer_removes_an_ssn_from_free_text() {
    let tool = LookupPatient::default();
    let received = tool.received.clone();
    let model = model(vec![MockTurn::tool_call(
        "call_1",
        "lookup_patient",
        oversharing_args(),
    )]);
    let agent = AgentBuilder::new(model)
        .tool(tool)
        .add_hook(MinimizeHook::new(Minimizer::new().unwrap()))
        .build();
    agent
        .prompt("When is Alice Smith's next appointment?")
        .max_turns(3)
        .await
        .unwrap();
    let received = received.lock().unwrap().clone();
    assert!(!contains(&received[0]["notes"], SSN), "{}", received[0]);
}

#[tokio::test]
async fn dynamic_tool_free_text_loses_the_ssn_but_keeps_the_question() {
    let received = Arc::new(Mutex::new(Vec::<Value>::new()));
    let sink = received.clone();
    let search = DynamicTool::new(
        ToolName::new("search_docs").unwrap(),
        "Searches the public help center.",
        json!({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}),
        move |args| {
            sink.lock().unwrap().push(args);
            Box::pin(async { Ok("3 articles".into()) })
        },
    );
    let query = format!("how do I reset my password, my SSN is {SSN}");
    let model = model(vec![MockTurn::tool_call(
        "c1",
        "search_docs",
        json!({"query": query}),
    )]);
    let agent = AgentBuilder::new(model)
        .dynamic_tool(search)
        .add_hook(MinimizeHook::new(common::minimizer()))
        .build();
    agent.prompt("Password help").max_turns(3).await.unwrap();

    let received = received.lock().unwrap().clone();
    assert_eq!(received.len(), 1);
    let q = received[0]["query"].as_str().expect("query stays a string");
    assert!(!q.contains(SSN), "{q}");
    assert!(
        q.contains("reset my password"),
        "the question itself must survive: {q}"
    );
}

#[tokio::test]
async fn necessary_data_passes_unchanged() {
    // True negative: a forecast for a city carries nothing the tool does not need.
    let received = Arc::new(Mutex::new(Vec::<Value>::new()));
    let sink = received.clone();
    let forecast = DynamicTool::new(
        ToolName::new("get_forecast").unwrap(),
        "Weather forecast for a city.",
        json!({"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}, "required": ["city"]}),
        move |args| {
            sink.lock().unwrap().push(args);
            Box::pin(async { Ok("sunny".into()) })
        },
    );
    let reports = Reports::default();
    let args = json!({"city": "Lyon", "days": 3});
    let model = model(vec![MockTurn::tool_call(
        "c1",
        "get_forecast",
        args.clone(),
    )]);
    let agent = AgentBuilder::new(model)
        .dynamic_tool(forecast)
        .add_hook(MinimizeHook::new(common::minimizer()).on_report(reports.callback()))
        .build();
    agent.prompt("Weather in Lyon?").max_turns(3).await.unwrap();
    assert_eq!(received.lock().unwrap().as_slice(), [args]);
    let reports = reports.all();
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0].action, CallAction::Forwarded { changed: false });
    assert_eq!(reports[0].note, None);
}

#[tokio::test]
async fn unknown_tools_are_minimized_with_conservative_defaults() {
    let tool = LookupPatient::default();
    let received = tool.received.clone();
    let reports = Reports::default();
    let model = model(vec![MockTurn::tool_call(
        "c1",
        "lookup_patient",
        oversharing_args(),
    )]);
    let agent = AgentBuilder::new(model)
        .tool(tool)
        .add_hook(
            MinimizeHook::new(common::minimizer())
                .learn_advertised(false)
                .on_report(reports.callback()),
        )
        .build();
    agent
        .prompt("Alice's appointments?")
        .max_turns(3)
        .await
        .unwrap();

    let reports = reports.all();
    assert_eq!(reports[0].source, DefinitionSource::Unknown);
    // Without a schema every field is optional: the SSN in the free-text notes goes.
    let received = received.lock().unwrap().clone();
    assert_eq!(received.len(), 1);
    assert!(!contains(&received[0]["notes"], SSN), "{}", received[0]);
}

#[tokio::test]
async fn registered_definitions_take_precedence() {
    let tool = LookupPatient::default();
    let reports = Reports::default();
    let model = model(vec![MockTurn::tool_call(
        "c1",
        "lookup_patient",
        oversharing_args(),
    )]);
    let agent = AgentBuilder::new(model)
        .tool(tool)
        .add_hook(
            MinimizeHook::new(common::minimizer())
                .tool_def(ToolDef::new(
                    "lookup_patient",
                    "Looks up a patient.",
                    lookup_schema(),
                ))
                .on_report(reports.callback()),
        )
        .build();
    agent
        .prompt("Alice's appointments?")
        .max_turns(3)
        .await
        .unwrap();
    assert_eq!(reports.all()[0].source, DefinitionSource::Registered);
}

#[tokio::test]
async fn blocked_calls_are_skipped_with_a_fixed_reason() {
    let tool = LookupPatient::default();
    let received = tool.received.clone();
    let reports = Reports::default();
    let policy = Policy::default().with_blocked_tool("lookup_patient");
    let minimizer = common::minimizer_with(policy);
    let model = model(vec![MockTurn::tool_call(
        "c1",
        "lookup_patient",
        oversharing_args(),
    )]);
    let agent = AgentBuilder::new(model.clone())
        .tool(tool)
        .add_hook(MinimizeHook::new(minimizer).on_report(reports.callback()))
        .build();
    agent
        .prompt("Alice's appointments?")
        .max_turns(3)
        .await
        .unwrap();

    assert!(
        received.lock().unwrap().is_empty(),
        "a blocked call reached the tool"
    );
    let reports = reports.all();
    assert_eq!(
        reports[0].action,
        CallAction::Skipped(SkipReason::Blocked(
            toolminimize_core::BlockReason::ToolBlocked
        ))
    );
    let results = tool_results(&model);
    assert_eq!(results.len(), 1);
    assert!(
        results[0].contains("The call was not sent"),
        "{}",
        results[0]
    );
    assert!(!results[0].contains(SSN));
}

#[tokio::test]
async fn unparseable_arguments_are_skipped_not_forwarded() {
    // Nesting deeper than the JSON parser accepts: the hook cannot read the arguments, so the
    // call is skipped (fail closed) instead of reaching the tool as the model wrote it.
    let mut deep = json!(SSN);
    for _ in 0..200 {
        deep = json!([deep]);
    }
    let received = Arc::new(Mutex::new(Vec::<Value>::new()));
    let sink = received.clone();
    let echo = DynamicTool::new(
        ToolName::new("store").unwrap(),
        "Stores a value.",
        json!({"type": "object"}),
        move |args| {
            sink.lock().unwrap().push(args);
            Box::pin(async { Ok("stored".into()) })
        },
    );
    let reports = Reports::default();
    let model = model(vec![MockTurn::tool_call(
        "c1",
        "store",
        json!({"value": deep}),
    )]);
    let agent = AgentBuilder::new(model.clone())
        .dynamic_tool(echo)
        .add_hook(MinimizeHook::new(common::minimizer()).on_report(reports.callback()))
        .build();
    agent.prompt("Store it").max_turns(3).await.unwrap();

    assert!(received.lock().unwrap().is_empty());
    assert_eq!(
        reports.all()[0].action,
        CallAction::Skipped(SkipReason::UnparseableArguments)
    );
    let results = tool_results(&model);
    assert!(results[0].contains("not valid JSON"), "{}", results[0]);
}

#[tokio::test]
async fn feedback_note_is_appended_to_the_tool_result() {
    let tool = LookupPatient::default();
    let model = model(vec![MockTurn::tool_call(
        "c1",
        "lookup_patient",
        oversharing_args(),
    )]);
    let agent = AgentBuilder::new(model.clone())
        .tool(tool)
        .add_hook(MinimizeHook::new(common::minimizer()).feedback(true))
        .build();
    agent
        .prompt("Alice's appointments?")
        .max_turns(3)
        .await
        .unwrap();

    let results = tool_results(&model);
    assert_eq!(results.len(), 1);
    let result = &results[0];
    assert!(
        result.contains("1 appointment on Tuesday"),
        "the tool's own output stays: {result}"
    );
    assert!(result.contains("[privacy]"), "{result}");
    assert!(result.contains("/notes"), "{result}");
    assert!(
        !result.contains(SSN),
        "the note must be value-free: {result}"
    );
}

#[tokio::test]
async fn without_feedback_the_result_is_the_tools_own() {
    let tool = LookupPatient::default();
    let model = model(vec![MockTurn::tool_call(
        "c1",
        "lookup_patient",
        oversharing_args(),
    )]);
    let agent = AgentBuilder::new(model.clone())
        .tool(tool)
        .add_hook(MinimizeHook::new(common::minimizer()))
        .build();
    agent
        .prompt("Alice's appointments?")
        .max_turns(3)
        .await
        .unwrap();
    let results = tool_results(&model);
    assert!(!results[0].contains("[privacy]"), "{}", results[0]);
}

fn annotated_lookup(received: Arc<Mutex<Vec<Value>>>) -> DynamicTool {
    DynamicTool::new(
        ToolName::new("lookup_patient").unwrap(),
        "Looks up a patient's appointments by name.",
        PatientLookup::minimize_schema(),
        move |args| {
            received.lock().unwrap().push(args);
            Box::pin(async { Ok("1 appointment on Tuesday".into()) })
        },
    )
}

#[tokio::test]
async fn advertised_schema_is_clean_but_the_minimizer_reads_the_annotations() {
    let received = Arc::new(Mutex::new(Vec::<Value>::new()));
    let reports = Reports::default();
    let model = model(vec![MockTurn::tool_call(
        "c1",
        "lookup_patient",
        oversharing_args(),
    )]);
    let agent = AgentBuilder::new(model.clone())
        .dynamic_tool(annotated_lookup(received.clone()))
        .add_hook(MinimizeHook::new(common::minimizer()).on_report(reports.callback()))
        .build();
    agent
        .prompt("When is Alice Smith's next appointment?")
        .max_turns(3)
        .await
        .unwrap();

    // Every request the provider got shows the tool without the annotations.
    assert_eq!(model.requests().len(), 2);
    for request in model.requests() {
        let def = request
            .tools
            .iter()
            .find(|t| t.name == "lookup_patient")
            .unwrap();
        assert!(
            !schema::has_annotations(&def.parameters),
            "{}",
            def.parameters
        );
        assert_eq!(
            def.parameters,
            schema::advertised(&PatientLookup::minimize_schema())
        );
    }
    // The minimizer still read them: `x-minimize: remove` and `minimum_necessary` dropped the
    // SSN field, which the unannotated schema would have kept as the field meant to carry it.
    let received = received.lock().unwrap().clone();
    assert_eq!(received.len(), 1);
    assert!(!contains(&received[0], SSN), "{}", received[0]);
    assert_eq!(received[0]["name"], "Alice Smith");
    assert_eq!(reports.all()[0].source, DefinitionSource::Advertised);
}

#[tokio::test]
async fn registered_annotated_schema_minimizes_a_typed_tool() {
    // The typed tool advertises a plain schema; the annotated one is registered with the hook.
    let tool = LookupPatient::default();
    let received = tool.received.clone();
    let reports = Reports::default();
    let model = model(vec![MockTurn::tool_call(
        "c1",
        "lookup_patient",
        oversharing_args(),
    )]);
    let agent = AgentBuilder::new(model)
        .tool(tool)
        .add_hook(
            MinimizeHook::new(common::minimizer())
                .schema_of::<PatientLookup>(
                    "lookup_patient",
                    "Looks up a patient's appointments by name.",
                )
                .on_report(reports.callback()),
        )
        .build();
    agent
        .prompt("When is Alice Smith's next appointment?")
        .max_turns(3)
        .await
        .unwrap();
    let received = received.lock().unwrap().clone();
    assert_eq!(received.len(), 1);
    assert!(!contains(&received[0], SSN), "{}", received[0]);
    assert!(received[0]["ssn"].is_null());
    assert_eq!(reports.all()[0].source, DefinitionSource::Registered);
}

#[tokio::test]
async fn annotations_are_advertised_on_opt_in() {
    let model = model(vec![]);
    let agent = AgentBuilder::new(model.clone())
        .dynamic_tool(annotated_lookup(Arc::default()))
        .add_hook(MinimizeHook::new(common::minimizer()).advertise_annotations(true))
        .build();
    agent.prompt("Hi").max_turns(2).await.unwrap();
    let request = &model.requests()[0];
    assert_eq!(
        request.tools[0].parameters,
        PatientLookup::minimize_schema()
    );
}

#[tokio::test]
async fn runs_get_separate_sessions_unless_one_is_shared() {
    // Two calls in one run share the run's session; the hook keeps working across runs.
    let tool = LookupPatient::default();
    let received = tool.received.clone();
    let model = MockCompletionModel::from_turns([
        MockTurn::tool_call("c1", "lookup_patient", oversharing_args()),
        MockTurn::tool_call("c2", "lookup_patient", oversharing_args()),
        MockTurn::text("Done."),
        MockTurn::tool_call("c3", "lookup_patient", oversharing_args()),
        MockTurn::text("Done again."),
    ]);
    let session = toolminimize_core::Session::new("conversation-1");
    let agent = AgentBuilder::new(model)
        .tool(tool)
        .add_hook(MinimizeHook::new(common::minimizer()).session(session.clone()))
        .build();
    agent.prompt("first").max_turns(4).await.unwrap();
    agent.prompt("second").max_turns(4).await.unwrap();
    let received = received.lock().unwrap().clone();
    assert_eq!(received.len(), 3);
    assert!(received.iter().all(|a| !contains(&a["notes"], SSN)));
    assert_eq!(session.calls_seen(), 3);
}

#[tokio::test]
async fn a_judge_is_consulted_only_when_configured() {
    let make_tool = |received: Arc<Mutex<Vec<Value>>>| {
        DynamicTool::new(
            ToolName::new("search_docs").unwrap(),
            "Searches the public help center.",
            json!({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}),
            move |args| {
                received.lock().unwrap().push(args);
                Box::pin(async { Ok("3 articles".into()) })
            },
        )
    };
    let args = json!({"query": format!("why was my SSN {SSN} rejected")});

    // Without a judge the rules decide, and the judge model is never asked.
    let judge_model = MockCompletionModel::from_turns([]);
    let received = Arc::new(Mutex::new(Vec::<Value>::new()));
    let agent = AgentBuilder::new(model(vec![MockTurn::tool_call(
        "c1",
        "search_docs",
        args.clone(),
    )]))
    .dynamic_tool(make_tool(received.clone()))
    .add_hook(MinimizeHook::new(common::minimizer()))
    .build();
    agent
        .prompt("Why was it rejected?")
        .max_turns(3)
        .await
        .unwrap();
    assert!(!contains(&received.lock().unwrap()[0], SSN));
    assert_eq!(judge_model.request_count(), 0);

    // A judge that finds the identifier necessary overrides the rules (the judge model is scripted).
    let judge_model = MockCompletionModel::from_turns([MockTurn::text(
        r#"{"spans":[{"id":0,"necessary":true}]}"#,
    )]);
    let received = Arc::new(Mutex::new(Vec::<Value>::new()));
    let agent = AgentBuilder::new(model(vec![MockTurn::tool_call("c1", "search_docs", args)]))
        .dynamic_tool(make_tool(received.clone()))
        .add_hook(
            MinimizeHook::new(common::minimizer())
                .judge(toolminimize_rig::judge::LlmJudge::new(judge_model.clone())),
        )
        .build();
    agent
        .prompt("Why was it rejected?")
        .max_turns(3)
        .await
        .unwrap();
    assert!(contains(&received.lock().unwrap()[0], SSN));
    assert_eq!(judge_model.request_count(), 1);
}
