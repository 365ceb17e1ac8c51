//! `Minimizer::minimize_owned` (arguments rewritten in place) gives what `minimize_call`
//! (arguments borrowed, the output a copy) gives: verdict, arguments and report.
#![allow(clippy::unwrap_used, clippy::panic, reason = "tests")]

use serde_json::{Map, Value, json};
use toolminimize_core::{Call, Exposure, Minimizer, Session, ToolDef};

fn same_both_ways(m: &Minimizer, tool: &ToolDef, args: &Value, exposure: Option<Exposure>) {
    let mut borrowed = Call::new(tool, args);
    borrowed.exposure = exposure;
    let mut owned = Call::owned(tool, args.clone());
    owned.exposure = exposure;
    assert_eq!(
        m.minimize_owned(owned),
        m.minimize_call(&borrowed),
        "{}",
        tool.name()
    );
}

#[test]
fn owned_and_borrowed_calls_give_the_same_outcome_on_the_benign_fixture() {
    let m = Minimizer::new().unwrap();
    let text = include_str!("fixtures/benign_calls.jsonl");
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).unwrap();
        let tool = ToolDef::from_json(&v["tool"]).unwrap();
        let exposure = v["exposure"].as_str().and_then(|e| e.parse().ok());
        same_both_ways(&m, &tool, &v["arguments"], exposure);
    }
}

#[test]
fn owned_and_borrowed_calls_give_the_same_outcome_when_fields_go() {
    let m = Minimizer::new().unwrap();
    let tool = ToolDef::new(
        "send_note",
        "Send a note to the support desk",
        json!({"type": "object", "properties": {
            "subject": {"type": "string"},
            "body": {"type": "string"},
            "contact": {"type": "string", "format": "email"},
            "phones": {"type": "array", "items": {"type": "string"}, "minItems": 2},
            "extra": {"type": "object", "additionalProperties": {"type": "string"}},
            "notes": {"type": "string", "minLength": 3}
        }, "required": ["subject", "body", "contact", "notes"]}),
    );
    let mut extra = Map::new();
    for i in 0..50 {
        let v = if i % 10 == 3 {
            format!("ring Tomas Varga on +1 415 555 01{i:02} tonight")
        } else {
            format!("parcel {i} ships tomorrow")
        };
        extra.insert(format!("key_{i}"), Value::String(v));
    }
    let args = json!({
        "subject": "Order 1182",
        "body": "Hello, my name is Tomas Varga, born 14/03/1979, card 4111 1111 1111 1111. The parcel is late.",
        "contact": "tomas.varga@example.org",
        "phones": ["+1 415 555 0100", "+1 415 555 0101", "+1 415 555 0102"],
        "extra": extra,
        "notes": "SSN 123-45-6789"
    });
    same_both_ways(&m, &tool, &args, None);
    same_both_ways(&m, &tool, &args, Some(Exposure::ThirdParty));
}

#[test]
fn an_owned_call_with_a_session_is_minimized_as_a_borrowed_one() {
    let m = Minimizer::new().unwrap();
    let tool = ToolDef::new(
        "post_message",
        "Post a message to a channel",
        json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
    );
    let args = json!({"text": "Ask Priya Raman (priya.raman@example.com) about the invoice"});
    let (a, b) = (
        Session::new("conversation-a"),
        Session::new("conversation-b"),
    );
    let borrowed = m.minimize_call(&Call::new(&tool, &args).session(&a));
    let owned = m.minimize_owned(Call::owned(&tool, args.clone()).session(&b));
    assert_eq!(owned, borrowed);
}
