//! An external judge refines the rules' decisions: what it says the task needs is kept (and the
//! report names `judge:needed`), and a judge that fails changes nothing.
//!
//! The decisions of the rules themselves are tested as data in `decisions.rs`; this test needs
//! a judge written in Rust, so it lives apart. The classifier is replaced by a detector that marks
//! given phrases, so the test does not depend on detection.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use serde_json::json;
use toolminimize_core::{
    Call, Category, ContentJudge, Detector, Field, Finding, JudgeAnswer, JudgeError, JudgeRequest,
    Minimizer, PsdKind, Rule, ToolDef,
};

#[derive(Debug, Clone)]
struct Marks(Vec<(&'static str, PsdKind)>);

impl Detector for Marks {
    fn name(&self) -> &'static str {
        "marks"
    }
    fn detect(&self, text: &str, _field: &Field<'_>, out: &mut Vec<Finding>) {
        for (phrase, kind) in &self.0 {
            for (i, _) in text.match_indices(phrase) {
                out.push(Finding::new(i..i + phrase.len(), *kind, 0.9, "marks"));
            }
        }
    }
}

fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

/// Says the task needs every health item, plus what the rules already need.
#[derive(Debug)]
struct NeedsHealth;
impl ContentJudge for NeedsHealth {
    async fn judge(&self, req: &JudgeRequest) -> Result<JudgeAnswer, JudgeError> {
        Ok(JudgeAnswer::needed(
            req.candidates
                .iter()
                .filter(|c| c.category == Category::Health || c.rule_says_needed)
                .map(|c| c.index),
        ))
    }
}

#[derive(Debug)]
struct Broken;
impl ContentJudge for Broken {
    async fn judge(&self, _req: &JudgeRequest) -> Result<JudgeAnswer, JudgeError> {
        Err(JudgeError::Timeout)
    }
}

#[test]
fn a_judge_overrides_rules_and_a_failing_judge_changes_nothing() {
    let m = Minimizer::builder()
        .detector(Marks(vec![
            ("Hospital Santa Lucía", PsdKind::HealthFacility),
            ("diálisis", PsdKind::Condition),
        ]))
        .build()
        .unwrap();
    let tool = ToolDef::from_json(&json!({"name": "send_message", "description": "Send a WhatsApp message", "inputSchema": {"type": "object",
        "properties": {"recipient": {"type": "string"}, "message": {"type": "string"}}, "required": ["recipient", "message"]}})).unwrap();
    let args = json!({"recipient": "+34 600 222 418", "message": "Te recojo a las 7 en la puerta del Hospital Santa Lucía después de la diálisis."});
    let call = Call::new(&tool, &args);

    let rules_only = m.minimize(&tool, &args);
    let text = rules_only.arguments().unwrap()["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(text.contains("Hospital Santa Lucía"), "{text}");
    assert!(!text.contains("diálisis"), "{text}");

    let judged = block_on(m.minimize_judged(&call, &NeedsHealth));
    assert_eq!(judged.arguments().unwrap(), &args);
    // The pickup point is needed by the rules; the treatment only because the judge says so.
    let rules: Vec<(PsdKind, Rule)> = judged
        .report()
        .items()
        .iter()
        .filter(|i| i.path() == "/message")
        .map(|i| (i.kind(), i.rule()))
        .collect();
    assert_eq!(
        rules,
        [
            (PsdKind::HealthFacility, Rule::MeetingPoint),
            (PsdKind::Condition, Rule::JudgeNeeded)
        ]
    );

    let fallback = block_on(m.minimize_judged(&call, &Broken));
    assert_eq!(fallback, m.minimize(&tool, &args));
}
