//! The pipeline honours what the derive declares: a `minimum_necessary` field keeps its personal
//! data, an annotated op is applied, and `x-sensitivity` sets the cost of the data it scores.
#![allow(
    missing_docs,
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use toolminimize::{Action, Exposure, MinimizeSchema, Minimizer, Report, Sensitivity};

/// Schedule a meeting with a contact.
#[derive(Serialize, JsonSchema, MinimizeSchema)]
#[minimize(exposure = "third_party")]
struct ScheduleMeeting {
    /// Who the meeting is with.
    #[minimize(necessary, category = "identity")]
    attendee_name: String,
    /// Meeting title.
    #[minimize(necessary)]
    title: String,
    /// Someone to mention in the invitation.
    #[minimize(category = "identity", op = "remove")]
    contact_name: Option<String>,
}

/// The same tool, declaring that the mentioned contact is of low sensitivity.
#[derive(Serialize, JsonSchema, MinimizeSchema)]
#[minimize(exposure = "third_party")]
struct ScheduleMeetingLowContact {
    #[minimize(necessary, category = "identity")]
    attendee_name: String,
    #[minimize(necessary)]
    title: String,
    #[minimize(category = "identity", sensitivity = 1, op = "remove")]
    contact_name: Option<String>,
}

/// Send an e-mail.
#[derive(Serialize, JsonSchema, MinimizeSchema)]
#[minimize(exposure = "third_party")]
struct SendEmail {
    /// Recipient address.
    #[minimize(necessary, category = "identity")]
    to: String,
    /// Subject line.
    #[minimize(necessary)]
    subject: String,
    /// Who to copy.
    #[minimize(category = "identity", sensitivity = 1, op = "remove")]
    cc: Option<String>,
}

fn meeting() -> Value {
    json!({
        "attendee_name": "Maria Lopez",
        "title": "Quarterly figures",
        "contact_name": "Thomas Becker"
    })
}

fn run<T: MinimizeSchema>(name: &str, args: &Value) -> (Value, Report) {
    let m = Minimizer::new().unwrap();
    let out = m.minimize(&T::tool_def(name, "A tool"), args);
    (
        out.arguments().cloned().expect("not blocked"),
        out.report().clone(),
    )
}

#[test]
fn a_minimum_necessary_field_keeps_its_personal_data() {
    let (out, report) = run::<ScheduleMeeting>("schedule_meeting", &meeting());
    assert_eq!(out["attendee_name"], "Maria Lopez");
    let it = report
        .items()
        .iter()
        .find(|i| i.path() == "/attendee_name")
        .expect("the attendee is detected");
    assert!(it.necessary());
    assert_eq!(it.action(), Action::Keep);
}

#[test]
fn an_annotated_op_is_applied() {
    let (out, report) = run::<ScheduleMeeting>("schedule_meeting", &meeting());
    assert!(
        out.get("contact_name").is_none(),
        "`op = \"remove\"` drops the field"
    );
    let it = report
        .items()
        .iter()
        .find(|i| i.path() == "/contact_name")
        .expect("the mentioned contact is detected");
    assert!(!it.necessary());
    assert_eq!(it.action(), Action::Remove);
    assert_eq!(it.rule().id(), "x-minimize:remove");
    assert_eq!(report.cost_after(), 0.0);
}

#[test]
fn x_sensitivity_changes_the_cost() {
    let (_, default) = run::<ScheduleMeeting>("schedule_meeting", &meeting());
    let (_, low) = run::<ScheduleMeetingLowContact>("schedule_meeting", &meeting());
    // Only the mentioned contact is unnecessary: S × E, E = 2 for the declared third party.
    assert_eq!(default.exposure(), Some(Exposure::ThirdParty));
    assert_eq!(default.cost_before(), 3.0 * 2.0);
    assert_eq!(low.cost_before(), 1.0 * 2.0);
    let it = low
        .items()
        .iter()
        .find(|i| i.path() == "/contact_name")
        .unwrap();
    assert_eq!(it.sensitivity(), Sensitivity::LOW);
}

#[test]
fn e_mail_addresses_follow_the_annotations() {
    let args = json!({
        "to": "maria.lopez@example.org",
        "subject": "Quarterly figures",
        "cc": "tom.becker@example.net"
    });
    let (out, report) = run::<SendEmail>("send_email", &args);
    assert_eq!(out["to"], "maria.lopez@example.org");
    assert!(out.get("cc").is_none());
    let to = report.items().iter().find(|i| i.path() == "/to").unwrap();
    assert!(to.necessary());
    let cc = report.items().iter().find(|i| i.path() == "/cc").unwrap();
    assert_eq!(
        (cc.necessary(), cc.action(), cc.sensitivity()),
        (false, Action::Remove, Sensitivity::LOW)
    );
    assert_eq!(report.cost_before(), 1.0 * 2.0);
    assert_eq!(report.cost_after(), 0.0);
}
