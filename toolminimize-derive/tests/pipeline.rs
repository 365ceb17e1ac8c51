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
use serde_json::json;
use toolminimize::{Action, Exposure, MinimizeSchema, Minimizer, Report};

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
    #[minimize(category = "identity", op = "remove")]
    cc: Option<String>,
}

/// The same tool, declaring that copied addresses are of low sensitivity.
#[derive(Serialize, JsonSchema, MinimizeSchema)]
#[minimize(exposure = "third_party")]
struct SendEmailLowCc {
    #[minimize(necessary, category = "identity")]
    to: String,
    #[minimize(necessary)]
    subject: String,
    #[minimize(category = "identity", sensitivity = 1, op = "remove")]
    cc: Option<String>,
}

fn args() -> serde_json::Value {
    serde_json::to_value(SendEmail {
        to: "maria.lopez@example.org".into(),
        subject: "Quarterly figures".into(),
        cc: Some("tom.becker@example.net".into()),
    })
    .unwrap()
}

fn run<T: MinimizeSchema>(args: &serde_json::Value) -> (serde_json::Value, Report) {
    let m = Minimizer::new().unwrap();
    let out = m.minimize(&T::tool_def("send_email", "Send an e-mail"), args);
    (out.arguments().cloned().expect("not blocked"), out.report)
}

#[test]
fn a_minimum_necessary_field_keeps_its_personal_data() {
    let (out, report) = run::<SendEmail>(&args());
    assert_eq!(out["to"], "maria.lopez@example.org");
    let to = report
        .items
        .iter()
        .find(|i| i.path == "/to")
        .expect("the recipient is detected");
    assert!(to.necessary);
    assert_eq!(to.action, Action::Keep);
}

#[test]
fn an_annotated_op_is_applied() {
    let (out, report) = run::<SendEmail>(&args());
    assert!(
        out.get("cc").is_none(),
        "`op = \"remove\"` drops the copied address"
    );
    let cc = report
        .items
        .iter()
        .find(|i| i.path == "/cc")
        .expect("the copied address is detected");
    assert!(!cc.necessary);
    assert_eq!(cc.action, Action::Remove);
    assert_eq!(cc.rule, "x-minimize:remove");
    assert_eq!(report.cost_after, 0.0);
}

#[test]
fn x_sensitivity_changes_the_cost() {
    let (_, default) = run::<SendEmail>(&args());
    let (_, low) = run::<SendEmailLowCc>(&args());
    // Only the copied address is unnecessary: S × E with E = 2 (the declared third party).
    assert_eq!(default.exposure, Some(Exposure::ThirdParty));
    assert_eq!(default.cost_before, 3.0 * 2.0);
    assert_eq!(low.cost_before, 1.0 * 2.0);
    let cc = low.items.iter().find(|i| i.path == "/cc").unwrap();
    assert_eq!(cc.sensitivity, 1);
}
