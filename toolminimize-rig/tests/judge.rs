//! The content-necessity judge on rig's scripted completion model, alone and in the pipeline.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use std::time::Duration;

use common::SSN;
use rig_core::Model;
use rig_core::completion::{CompletionRequest, Message};
use rig_core::driver::{Exchange, Opening, Transport};
use rig_core::message::UserContent;
use rig_core::test_utils::{MockCompletionModel, MockFrame, MockScript, MockTurn};
use serde_json::{Value, json};
use toolminimize_core::{Call, Category, Rule, ToolDef};
use toolminimize_core::{ContentJudge, JudgeCandidate, JudgeError, JudgeRequest};
use toolminimize_rig::judge::{LlmJudge, SYSTEM_PROMPT};

const TEXT: &str = "Hi Sam, my knee surgery is on Friday so I can't make the 10am standup. I live at 14 Rue Oberkampf.";

/// Three candidates with the pipeline's own item indices (not 0..n) and rule decisions.
fn request() -> JudgeRequest {
    let span = |needle: &str| {
        let start = TEXT.find(needle).unwrap();
        [start, start + needle.len()]
    };
    let candidate = |index, category, kind: &str, needle, rule_says_needed| {
        JudgeCandidate::new(index, category, kind, span(needle), rule_says_needed)
    };
    JudgeRequest::new(
        "send_message",
        "Sends a chat message to a colleague.",
        "/body",
        TEXT,
        vec![
            candidate(3, Category::Identity, "person_name", "Sam", true),
            candidate(5, Category::Health, "treatment", "knee surgery", false),
            candidate(
                8,
                Category::Location,
                "street_address",
                "14 Rue Oberkampf",
                false,
            ),
        ],
    )
}

fn user_payload(model: &MockCompletionModel) -> Value {
    let request = model.requests().pop().expect("the judge called the model");
    assert_eq!(request.system_instructions(), Some(SYSTEM_PROMPT));
    let text = request
        .chat_history
        .iter()
        .find_map(|m| match m {
            Message::User { content } => content.iter().find_map(|c| match c {
                UserContent::Text(t) => Some(t.text.clone()),
                _ => None,
            }),
            _ => None,
        })
        .expect("a user message");
    serde_json::from_str(&text).expect("the payload is JSON")
}

#[tokio::test]
async fn the_answer_maps_back_to_the_candidates_indices() {
    let model = MockCompletionModel::from_turns([MockTurn::text(
        r#"{"spans":[{"id":0,"necessary":true},{"id":1,"necessary":true},{"id":2,"necessary":false}]}"#,
    )]);
    let judge = LlmJudge::new(model.clone());
    let answer = judge.judge(&request()).await.unwrap();
    assert_eq!(answer.needed, vec![3, 5]);

    let payload = user_payload(&model);
    assert_eq!(payload["tool"]["name"], "send_message");
    assert_eq!(payload["field"], "/body");
    assert_eq!(payload["text"], TEXT);
    assert!(payload.get("user_request").is_none());
    let sent = payload["candidates"].as_array().unwrap();
    assert_eq!(sent.len(), 3);
    assert_eq!(sent[1]["id"], 1);
    assert_eq!(sent[1]["category"], "health");
    assert_eq!(sent[1]["kind"], "treatment");
    assert_eq!(sent[1]["text"], "knee surgery");
    assert_eq!(sent[2]["span"], json!(request().candidates[2].span));

    let sent = model.requests().pop().unwrap();
    assert_eq!(sent.temperature, Some(0.0));
    assert!(
        sent.output_schema.is_some(),
        "structured output is requested"
    );
    assert!(sent.tools.is_empty());
}

#[tokio::test]
async fn the_users_words_go_to_the_judge_when_known() {
    let model = MockCompletionModel::from_turns([MockTurn::text(
        r#"{"spans":[{"id":0,"necessary":true},{"id":1,"necessary":false},{"id":2,"necessary":false}]}"#,
    )]);
    let mut req = request();
    req.task_context = Some("tell Sam I'll miss the standup".into());
    LlmJudge::new(model.clone()).judge(&req).await.unwrap();
    assert_eq!(
        user_payload(&model)["user_request"],
        "tell Sam I'll miss the standup"
    );
}

#[tokio::test]
async fn a_fenced_answer_is_accepted() {
    let model = MockCompletionModel::from_turns([MockTurn::text(
        "```json\n{\"spans\":[{\"id\":2,\"necessary\":true},{\"id\":1,\"necessary\":false},{\"id\":0,\"necessary\":false}]}\n```",
    )]);
    let judge = LlmJudge::new(model.clone()).structured_output(false);
    let answer = judge.judge(&request()).await.unwrap();
    assert_eq!(answer.needed, vec![8]);
    assert!(model.requests()[0].output_schema.is_none());
}

#[tokio::test]
async fn prose_and_incomplete_answers_are_errors() {
    for text in [
        "The address is not needed, but the name is.",
        r#"{"spans":[{"id":0,"necessary":false},{"id":1,"necessary":true}]}"#,
        r#"{"spans":[{"id":0,"necessary":true},{"id":1,"necessary":true},{"id":7,"necessary":true}]}"#,
    ] {
        let model = MockCompletionModel::from_turns([MockTurn::text(text)]);
        let err = LlmJudge::new(model).judge(&request()).await.unwrap_err();
        assert!(matches!(err, JudgeError::Malformed(_)), "{text}: {err:?}");
        assert!(!err.to_string().contains("Oberkampf"));
    }
}

#[tokio::test]
async fn provider_errors_are_backend_errors() {
    let model = MockCompletionModel::from_turns([MockTurn::error("upstream 503")]);
    let err = LlmJudge::new(model).judge(&request()).await.unwrap_err();
    assert!(matches!(err, JudgeError::Backend(_)), "{err:?}");
    // A script with no turn left fails the same way.
    let empty = MockCompletionModel::from_turns([]);
    let err = LlmJudge::new(empty).judge(&request()).await.unwrap_err();
    assert!(matches!(err, JudgeError::Backend(_)), "{err:?}");
}

#[tokio::test]
async fn bad_spans_are_refused_without_calling_the_model() {
    let model = MockCompletionModel::from_turns([MockTurn::text(r#"{"spans":[]}"#)]);
    let mut req = request();
    req.candidates[0].span = [90, 500];
    let err = LlmJudge::new(model.clone()).judge(&req).await.unwrap_err();
    assert!(matches!(err, JudgeError::Malformed(_)));
    assert_eq!(model.request_count(), 0);
}

#[tokio::test]
async fn no_candidates_means_no_call() {
    let model = MockCompletionModel::from_turns([]);
    let mut req = request();
    req.candidates.clear();
    let answer = LlmJudge::new(model.clone()).judge(&req).await.unwrap();
    assert!(answer.needed.is_empty());
    assert_eq!(model.request_count(), 0);
}

/// A transport whose reply never opens: a model that never answers.
#[derive(Clone)]
struct NeverAnswers;

impl Transport<MockScript> for NeverAnswers {
    fn send(&self, _payload: CompletionRequest, _exchange: Exchange) -> Opening<MockFrame> {
        Opening::new(std::future::pending())
    }
}

#[tokio::test]
async fn a_model_that_never_answers_times_out() {
    let model = Model::new(MockScript::default(), NeverAnswers);
    let judge = LlmJudge::new(model).timeout(Duration::from_millis(5));
    assert_eq!(judge.judge(&request()).await, Err(JudgeError::Timeout));
}

#[test]
fn outside_a_runtime_the_judge_fails_at_once() {
    let model = MockCompletionModel::from_turns([MockTurn::text(r#"{"spans":[]}"#)]);
    let judge = LlmJudge::new(model.clone());
    let req = request();
    let outcome = block_on(judge.judge(&req));
    assert!(matches!(outcome, Err(JudgeError::Backend(_))));
    assert_eq!(model.request_count(), 0);
}

fn search_tool() -> ToolDef {
    ToolDef::new(
        "search_docs",
        "Searches the public help center.",
        json!({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}),
    )
}

#[tokio::test]
async fn in_the_pipeline_the_judge_overrides_the_rules() {
    let minimizer = common::minimizer();
    let tool = search_tool();
    let args = json!({"query": format!("how do I reset my password, my SSN is {SSN}")});

    // The rules drop the SSN from a search query.
    let ruled = minimizer.minimize(&tool, &args);
    assert!(!common::contains(&ruled.arguments().unwrap(), SSN));

    // A judge that says the SSN is needed keeps it.
    let model = MockCompletionModel::from_turns([MockTurn::text(
        r#"{"spans":[{"id":0,"necessary":true}]}"#,
    )]);
    let judged = minimizer
        .minimize_judged(&Call::new(&tool, &args), &LlmJudge::new(model.clone()))
        .await;
    assert!(common::contains(&judged.arguments().unwrap(), SSN));
    assert_eq!(model.request_count(), 1);
    assert!(
        judged
            .report()
            .items()
            .iter()
            .any(|i| i.rule() == Rule::JudgeNeeded)
    );
}

#[tokio::test]
async fn in_the_pipeline_a_failing_judge_keeps_the_rules() {
    let minimizer = common::minimizer();
    let tool = search_tool();
    let args = json!({"query": format!("how do I reset my password, my SSN is {SSN}")});
    let ruled = minimizer.minimize(&tool, &args);

    for model in [
        MockCompletionModel::from_turns([MockTurn::text("yes, keep it")]),
        MockCompletionModel::from_turns([MockTurn::error("overloaded")]),
    ] {
        let judged = minimizer
            .minimize_judged(&Call::new(&tool, &args), &LlmJudge::new(model))
            .await;
        assert_eq!(judged.verdict(), ruled.verdict());
    }
}

/// Polls a future to completion on this thread, outside any Tokio runtime.
fn block_on<F: std::future::Future>(future: F) -> F::Output {
    use std::sync::Arc;
    use std::task::{Context, Poll, Wake, Waker};

    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        match future.as_mut().poll(&mut cx) {
            Poll::Ready(out) => return out,
            Poll::Pending => std::thread::park(),
        }
    }
}
