//! End to end through rig's real OpenAI chat-completions client: the requests are encoded and
//! the replies decoded by the provider wire, over a scripted HTTP exchange (no network).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use std::sync::{Arc, Mutex};

use common::{PatientLookup, Reports, SSN, contains, oversharing_args};
use rig_agent::AgentBuilder;
use rig_core::message::ToolName;
use rig_core::providers::openai::OpenAIConfig;
use rig_core::test_utils::{MockHttpResponse, SequencedHttpClient};
use rig_core::tool::DynamicTool;
use serde_json::{Value, json};
use toolminimize_core::MinimizeSchema;
use toolminimize_rig::{CallAction, MinimizeHook, schema};

fn chat_reply(id: &str, message: Value, finish_reason: &str) -> MockHttpResponse {
    let body = json!({
        "id": id,
        "object": "chat.completion",
        "created": 1_764_400_000,
        "model": "gpt-4o-2024-08-06",
        "choices": [{"index": 0, "message": message, "logprobs": null, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}
    });
    MockHttpResponse::success(body.to_string())
}

#[tokio::test]
async fn openai_chat_wire_round_trip_is_minimized() {
    // The provider answers with a tool call whose arguments are a JSON string, as OpenAI sends them.
    let http = SequencedHttpClient::new([
        chat_reply(
            "chatcmpl-1",
            json!({
                "role": "assistant",
                "content": null,
                "tool_calls": [{
                    "id": "call_abc123",
                    "type": "function",
                    "function": {"name": "lookup_patient", "arguments": oversharing_args().to_string()}
                }]
            }),
            "tool_calls",
        ),
        chat_reply(
            "chatcmpl-2",
            json!({"role": "assistant", "content": "Alice has one appointment on Tuesday."}),
            "stop",
        ),
    ]);
    let model = OpenAIConfig::new("sk-test")
        .with_base_url("http://127.0.0.1:9/v1")
        .connect(http.clone())
        .chat("gpt-4o");

    let received = Arc::new(Mutex::new(Vec::<Value>::new()));
    let sink = received.clone();
    let lookup = DynamicTool::new(
        ToolName::new("lookup_patient").unwrap(),
        "Looks up a patient's appointments by name.",
        PatientLookup::minimize_schema(),
        move |args| {
            sink.lock().unwrap().push(args);
            Box::pin(async { Ok("1 appointment on Tuesday".into()) })
        },
    );
    let reports = Reports::default();
    let agent = AgentBuilder::new(model)
        .dynamic_tool(lookup)
        .add_hook(
            MinimizeHook::new(common::minimizer())
                .feedback(true)
                .on_report(reports.callback()),
        )
        .build();

    let answer = agent
        .prompt("When is Alice Smith's next appointment?")
        .max_turns(3)
        .await
        .unwrap();
    assert_eq!(answer.output(), "Alice has one appointment on Tuesday.");

    // The tool got the minimized arguments.
    let received = received.lock().unwrap().clone();
    assert_eq!(received, vec![json!({"name": "Alice Smith"})]);
    let reports = reports.all();
    assert_eq!(reports[0].call_id.as_deref(), Some("call_abc123"));
    assert_eq!(reports[0].action, CallAction::Forwarded { changed: true });

    // Two real chat-completions requests went out.
    let requests = http.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].uri, "http://127.0.0.1:9/v1/chat/completions");
    let first: Value = serde_json::from_slice(&requests[0].body).unwrap();
    let second: Value = serde_json::from_slice(&requests[1].body).unwrap();

    // The provider saw the tool's schema without the minimizer's annotations, in OpenAI's shape.
    let tool = &first["tools"][0];
    assert_eq!(tool["type"], "function");
    assert_eq!(tool["function"]["name"], "lookup_patient");
    let parameters = &tool["function"]["parameters"];
    assert!(!schema::has_annotations(parameters), "{parameters}");
    assert_eq!(parameters["required"], json!(["name"]));

    // The tool message sent back carries the tool's answer and the value-free note, not the SSN.
    let messages = second["messages"].as_array().unwrap();
    let tool_message = messages
        .iter()
        .find(|m| m["role"] == "tool")
        .expect("a tool message");
    assert_eq!(tool_message["tool_call_id"], "call_abc123");
    assert!(contains(
        &tool_message["content"],
        "1 appointment on Tuesday"
    ));
    assert!(contains(&tool_message["content"], "[privacy]"));
    assert!(!contains(&tool_message["content"], SSN));

    // The model's own tool-call message still holds what it wrote: minimization applies to what
    // the tool receives, not to the conversation history.
    let assistant = messages
        .iter()
        .find(|m| m["role"] == "assistant")
        .expect("the assistant's tool-call message");
    assert!(contains(&assistant["tool_calls"], SSN));
}
