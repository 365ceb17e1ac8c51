//! The content-necessity judge on rig's scripted completion model.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::time::Duration;

use rig_core::completion::Message;
use rig_core::message::UserContent;
use rig_core::test_utils::{MockCompletionModel, MockTurn};
use serde_json::Value;
use toolminimize_core::Category;
use toolminimize_rig::judge::{
    Candidate, ContentJudge, DecisionSource, JudgeError, JudgeRequest, LlmJudge, SYSTEM_PROMPT,
    decide,
};

const TEXT: &str = "Hi Sam, my knee surgery is on Friday so I can't make the 10am standup. I live at 14 Rue Oberkampf.";

fn candidates() -> Vec<Candidate> {
    let span = |needle: &str| {
        let start = TEXT.find(needle).unwrap();
        [start, start + needle.len()]
    };
    vec![
        Candidate::new(Category::Identity, "person_name", span("Sam"), true),
        Candidate::new(Category::Health, "treatment", span("knee surgery"), false),
        Candidate::new(
            Category::Location,
            "street_address",
            span("14 Rue Oberkampf"),
            false,
        ),
    ]
}

fn request(candidates: &[Candidate]) -> JudgeRequest<'_> {
    JudgeRequest::new(
        "send_message",
        "Sends a chat message to a colleague.",
        "/body",
        TEXT,
        candidates,
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
async fn the_judges_answer_is_used_and_the_prompt_carries_every_candidate() {
    let model = MockCompletionModel::from_turns([MockTurn::text(
        r#"{"spans":[{"id":0,"necessary":true},{"id":1,"necessary":true},{"id":2,"necessary":false}]}"#,
    )]);
    let judge = LlmJudge::new(model.clone());
    let cands = candidates();
    let decisions = judge.decide(&request(&cands)).await;
    assert_eq!(decisions.source, DecisionSource::Judge);
    // The judge overruled the rule on the surgery (the message is about missing the standup).
    assert_eq!(decisions.necessary, vec![true, true, false]);

    let payload = user_payload(&model);
    assert_eq!(payload["tool"]["name"], "send_message");
    assert_eq!(payload["field"], "/body");
    assert_eq!(payload["text"], TEXT);
    let sent = payload["candidates"].as_array().unwrap();
    assert_eq!(sent.len(), 3);
    assert_eq!(sent[1]["id"], 1);
    assert_eq!(sent[1]["category"], "health");
    assert_eq!(sent[1]["text"], "knee surgery");
    assert_eq!(sent[2]["span"], serde_json::json!(cands[2].span));

    let sent = model.requests().pop().unwrap();
    assert_eq!(sent.temperature, Some(0.0));
    assert!(
        sent.output_schema.is_some(),
        "structured output is requested"
    );
    assert!(sent.tools.is_empty());
}

#[tokio::test]
async fn a_fenced_answer_is_accepted() {
    let model = MockCompletionModel::from_turns([MockTurn::text(
        "```json\n{\"spans\":[{\"id\":2,\"necessary\":true},{\"id\":1,\"necessary\":false},{\"id\":0,\"necessary\":false}]}\n```",
    )]);
    let cands = candidates();
    let decisions = LlmJudge::new(model)
        .structured_output(false)
        .decide(&request(&cands))
        .await;
    assert_eq!(decisions.source, DecisionSource::Judge);
    assert_eq!(decisions.necessary, vec![false, false, true]);
}

#[tokio::test]
async fn prose_falls_back_to_the_rules() {
    let model = MockCompletionModel::from_turns([MockTurn::text(
        "The address is not needed, but the name is.",
    )]);
    let cands = candidates();
    let decisions = LlmJudge::new(model).decide(&request(&cands)).await;
    assert_eq!(
        decisions.source,
        DecisionSource::Fallback(JudgeError::Malformed)
    );
    assert_eq!(decisions.necessary, vec![true, false, false]);
}

#[tokio::test]
async fn an_answer_missing_a_candidate_falls_back() {
    let model = MockCompletionModel::from_turns([MockTurn::text(
        r#"{"spans":[{"id":0,"necessary":false},{"id":1,"necessary":true}]}"#,
    )]);
    let cands = candidates();
    let decisions = LlmJudge::new(model).decide(&request(&cands)).await;
    assert_eq!(
        decisions.source,
        DecisionSource::Fallback(JudgeError::Incomplete)
    );
    assert_eq!(decisions.necessary, vec![true, false, false]);
}

#[tokio::test]
async fn provider_errors_fall_back() {
    let model = MockCompletionModel::from_turns([MockTurn::error("upstream 503")]);
    let cands = candidates();
    let decisions = LlmJudge::new(model).decide(&request(&cands)).await;
    assert_eq!(
        decisions.source,
        DecisionSource::Fallback(JudgeError::Provider)
    );
    assert_eq!(decisions.necessary, vec![true, false, false]);

    // A script with no turn left fails the same way.
    let empty = MockCompletionModel::from_turns([]);
    let decisions = LlmJudge::new(empty).decide(&request(&cands)).await;
    assert_eq!(
        decisions.source,
        DecisionSource::Fallback(JudgeError::Provider)
    );
}

#[tokio::test]
async fn bad_spans_fall_back_without_calling_the_model() {
    let model = MockCompletionModel::from_turns([MockTurn::text(r#"{"spans":[]}"#)]);
    let cands = vec![Candidate::new(
        Category::Identity,
        "person_name",
        [90, 500],
        false,
    )];
    let decisions = LlmJudge::new(model.clone()).decide(&request(&cands)).await;
    assert_eq!(
        decisions.source,
        DecisionSource::Fallback(JudgeError::InvalidRequest)
    );
    assert_eq!(model.request_count(), 0);
}

#[tokio::test]
async fn no_candidates_means_no_call() {
    let model = MockCompletionModel::from_turns([]);
    let decisions = LlmJudge::new(model.clone()).decide(&request(&[])).await;
    assert_eq!(decisions.source, DecisionSource::Judge);
    assert!(decisions.necessary.is_empty());
    assert_eq!(model.request_count(), 0);
}

/// A judge that never answers.
struct Silent;

impl ContentJudge for Silent {
    async fn judge(&self, _request: &JudgeRequest<'_>) -> Result<Vec<bool>, JudgeError> {
        std::future::pending().await
    }
}

/// A judge that answers for the wrong number of candidates.
struct Short;

impl ContentJudge for Short {
    async fn judge(&self, _request: &JudgeRequest<'_>) -> Result<Vec<bool>, JudgeError> {
        Ok(vec![true])
    }
}

#[tokio::test]
async fn a_judge_that_never_answers_times_out_to_the_rules() {
    let cands = candidates();
    let decisions = decide(&Silent, &request(&cands), Duration::from_millis(5)).await;
    assert_eq!(
        decisions.source,
        DecisionSource::Fallback(JudgeError::Timeout)
    );
    assert_eq!(decisions.necessary, vec![true, false, false]);
}

#[tokio::test]
async fn custom_judges_are_checked_too() {
    let cands = candidates();
    let decisions = decide(&Short, &request(&cands), Duration::from_secs(5)).await;
    assert_eq!(
        decisions.source,
        DecisionSource::Fallback(JudgeError::Incomplete)
    );
}

#[test]
fn without_a_runtime_the_rules_decide() {
    let cands = candidates();
    let decisions = block_on(decide(&Short, &request(&cands), Duration::from_secs(5)));
    assert_eq!(
        decisions.source,
        DecisionSource::Fallback(JudgeError::NoRuntime)
    );
    assert_eq!(decisions.necessary, vec![true, false, false]);
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
