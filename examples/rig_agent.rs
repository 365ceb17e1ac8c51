//! A rig agent whose tool calls are minimized by one hook, offline.
//!
//! The agent runs on rig's scripted completion model: the "model" asks `lookup_patient` for
//! Alice Smith and over-shares her SSN and her medical record number. The hook rewrites the call
//! before the tool runs; the example prints what the model asked for, what the tool received,
//! the report, what the provider was shown of the tool, and the note the model got back.
//!
//! Run with `cargo run --example rig_agent`.

use std::sync::{Arc, Mutex};

use rig_agent::AgentBuilder;
use rig_core::completion::Message;
use rig_core::message::UserContent;
use rig_core::test_utils::{MockCompletionModel, MockTurn};
use rig_core::tool::{Tool, ToolContext};
use serde_json::{Value, json};
use toolminimize::{Detector, Field};
use toolminimize::{Finding, PsdKind};
use toolminimize::{MinimizeSchema, Minimizer};
use toolminimize_rig::MinimizeHook;

/// The tool's arguments, annotated for the minimizer: only the name is needed, and an SSN
/// field is to be removed whatever the model puts in it.
struct PatientLookup;

impl MinimizeSchema for PatientLookup {
    fn minimize_schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "Patient full name.", "x-psd-category": "identity"},
                "ssn": {"type": ["string", "null"], "description": "Social security number.", "x-minimize": "remove"},
                "notes": {"type": ["string", "null"], "description": "Notes for the clinic."}
            },
            "required": ["name"],
            "minimum_necessary": ["name"],
            "x-exposure": "third_party"
        })
    }
}

/// A third-party scheduling service: it prints and records what it receives.
#[derive(Clone, Default)]
struct LookupPatient {
    received: Arc<Mutex<Vec<Value>>>,
}

impl Tool for LookupPatient {
    const NAME: &'static str = "lookup_patient";
    type Args = Value;
    type Output = String;
    type Error = std::convert::Infallible;

    fn description(&self) -> String {
        "Looks up a patient's next appointments by name.".to_owned()
    }

    fn parameters(&self) -> Value {
        PatientLookup::minimize_schema()
    }

    async fn call(&self, _context: &mut ToolContext, args: Value) -> Result<String, Self::Error> {
        if let Ok(mut received) = self.received.lock() {
            received.push(args);
        }
        Ok("Next appointment: Tuesday 09:30 with Dr. Okafor.".to_owned())
    }
}

/// The clinic's own record numbers (`MRN-` and six digits): an application-specific detector
/// registered next to the built-in ones.
#[derive(Debug)]
struct ClinicRecordNumber;

impl Detector for ClinicRecordNumber {
    fn name(&self) -> &'static str {
        "clinic_record_number"
    }

    fn detect(&self, text: &str, _field: &Field<'_>, out: &mut Vec<Finding>) {
        for (start, _) in text.match_indices("MRN-") {
            let digits = text.get(start + 4..).map_or(0, |rest| {
                rest.bytes().take_while(u8::is_ascii_digit).count()
            });
            if digits == 6 {
                out.push(Finding::new(
                    start..start + 10,
                    PsdKind::MedicalRecord,
                    0.95,
                    self.name(),
                ));
            }
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let asked = json!({
        "name": "Alice Smith",
        "ssn": "123-45-6789",
        "notes": "MRN-004211, SSN 123-45-6789, type 2 diabetes, prefers mornings"
    });
    let model = MockCompletionModel::from_turns([
        MockTurn::tool_call("call_1", "lookup_patient", asked.clone()),
        MockTurn::text("Alice's next appointment is on Tuesday at 09:30."),
    ]);

    let minimizer = Minimizer::builder().detector(ClinicRecordNumber).build()?;
    let tool = LookupPatient::default();
    let received = tool.received.clone();
    let agent = AgentBuilder::new(model.clone())
        .tool(tool)
        .add_hook(
            MinimizeHook::new(minimizer)
                .feedback(true)
                .on_report(|call| {
                    println!(
                        "report       {} ({}): privacy cost {} -> {}",
                        call.tool,
                        call.source.id(),
                        call.report.cost_before(),
                        call.report.cost_after()
                    );
                    for item in call.report.items() {
                        println!(
                            "             {} {}/{} necessary={} -> {} ({})",
                            item.path(),
                            item.category(),
                            item.kind(),
                            item.necessary(),
                            item.action(),
                            item.rule()
                        );
                    }
                }),
        )
        .build();

    let answer = agent
        .prompt("When is Alice Smith's next appointment?")
        .max_turns(3)
        .await?;

    let got = received.lock().map(|r| r.clone()).unwrap_or_default();
    println!("model asked  lookup_patient {asked}");
    for args in &got {
        println!("tool got     lookup_patient {args}");
    }
    let requests = model.requests();
    if let Some(def) = requests.first().and_then(|r| r.tools.first()) {
        println!("provider saw {} parameters {}", def.name, def.parameters);
    }
    if let Some(last) = requests.last() {
        for message in &last.chat_history {
            if let Message::User { content } = message {
                for part in content {
                    if let UserContent::ToolResult(result) = part {
                        println!("model read   {}", serde_json::to_string(&result.content)?);
                    }
                }
            }
        }
    }
    println!("answer       {}", answer.output());
    Ok(())
}
