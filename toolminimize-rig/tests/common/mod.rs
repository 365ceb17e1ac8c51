//! Shared test fixtures: an over-sharing patient lookup and report capture.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::sync::{Arc, Mutex};

use rig_core::tool::{Tool, ToolContext};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolminimize_core::{Action, Category};
use toolminimize_rig::{CallAction, CallReport, DefinitionSource};

/// A US SSN shaped value: it must never reach a tool that does not need it.
pub const SSN: &str = "123-45-6789";

/// The schema of `lookup_patient`: `name` required, `ssn` and `notes` optional.
pub fn lookup_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "Patient full name."},
            "ssn": {"type": ["string", "null"], "description": "Social security number."},
            "notes": {"type": ["string", "null"], "description": "Free-text notes for the clinic."}
        },
        "required": ["name"]
    })
}

/// The over-sharing arguments a model produces.
pub fn oversharing_args() -> Value {
    json!({
        "name": "Alice Smith",
        "ssn": SSN,
        "notes": format!("Her SSN is {SSN}; she prefers morning appointments.")
    })
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LookupArgs {
    pub name: String,
    #[serde(default)]
    pub ssn: Option<String>,
    #[serde(default)]
    pub notes: Option<String>,
}

/// A typed rig tool that records the arguments it receives. With `annotated`, its parameters
/// are [`PatientLookup`]'s annotated schema.
#[derive(Clone, Default)]
pub struct LookupPatient {
    pub received: Arc<Mutex<Vec<Value>>>,
    pub annotated: bool,
}

impl Tool for LookupPatient {
    const NAME: &'static str = "lookup_patient";
    type Args = LookupArgs;
    type Output = String;
    type Error = std::convert::Infallible;

    fn description(&self) -> String {
        "Looks up a patient's appointments by name.".to_owned()
    }

    fn parameters(&self) -> Value {
        if self.annotated {
            <PatientLookup as toolminimize_core::MinimizeSchema>::minimize_schema()
        } else {
            lookup_schema()
        }
    }

    async fn call(
        &self,
        _context: &mut ToolContext,
        args: LookupArgs,
    ) -> Result<String, Self::Error> {
        self.received
            .lock()
            .unwrap()
            .push(serde_json::to_value(&args).unwrap());
        Ok("1 appointment on Tuesday".to_owned())
    }
}

/// The arguments of `lookup_patient`, annotated the way `#[derive(MinimizeSchema)]` annotates:
/// only the name is needed and the SSN field is to be removed.
pub struct PatientLookup;

impl toolminimize_core::MinimizeSchema for PatientLookup {
    fn minimize_schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "Patient full name.", "x-psd-category": "identity"},
                "ssn": {"type": ["string", "null"], "description": "Social security number.", "x-minimize": "remove"},
                "notes": {"type": ["string", "null"], "description": "Free-text notes for the clinic."}
            },
            "required": ["name"],
            "minimum_necessary": ["name"],
            "x-exposure": "third_party"
        })
    }
}

/// An owned copy of a [`CallReport`].
#[derive(Debug, Clone)]
pub struct Seen {
    pub tool: String,
    pub call_id: Option<String>,
    pub source: DefinitionSource,
    pub action: CallAction,
    pub items: Vec<(String, Category, Action)>,
    pub cost_before: f64,
    pub cost_after: f64,
    pub note: Option<String>,
    pub debug: String,
}

#[derive(Clone, Default)]
pub struct Reports(pub Arc<Mutex<Vec<Seen>>>);

impl Reports {
    pub fn callback(&self) -> impl Fn(&CallReport<'_>) + Send + Sync + 'static {
        let sink = self.0.clone();
        move |call: &CallReport<'_>| {
            sink.lock().unwrap().push(Seen {
                tool: call.tool.to_owned(),
                call_id: call.call_id.map(str::to_owned),
                source: call.source,
                action: call.action.clone(),
                items: call
                    .report
                    .items()
                    .iter()
                    .map(|i| (i.path().to_owned(), i.category(), i.action()))
                    .collect(),
                cost_before: call.report.cost_before(),
                cost_after: call.report.cost_after(),
                note: call.feedback_note(),
                debug: format!("{call:?}"),
            });
        }
    }

    pub fn all(&self) -> Vec<Seen> {
        self.0.lock().unwrap().clone()
    }
}

/// Whether `needle` occurs anywhere in `value`'s JSON text.
pub fn contains(value: &impl Serialize, needle: &str) -> bool {
    serde_json::to_string(value).unwrap().contains(needle)
}

/// A test detector for US SSN-shaped values (`ddd-dd-dddd`), so these tests exercise the
/// necessity analysis and rewriting independently of the built-in detector tables.
#[derive(Debug)]
pub struct SsnShape;

impl toolminimize_core::Detector for SsnShape {
    fn name(&self) -> &'static str {
        "test_ssn_shape"
    }

    fn detect(
        &self,
        text: &str,
        _field: &toolminimize_core::Field<'_>,
        out: &mut Vec<toolminimize_core::Finding>,
    ) {
        let bytes = text.as_bytes();
        let shape = b"ddd-dd-dddd";
        let mut i = 0;
        while i + shape.len() <= bytes.len() {
            let window = &bytes[i..i + shape.len()];
            let fits = window.iter().zip(shape).all(|(b, s)| match s {
                b'd' => b.is_ascii_digit(),
                _ => b == s,
            });
            let before_ok = i == 0 || !bytes[i - 1].is_ascii_digit();
            let after_ok = bytes
                .get(i + shape.len())
                .is_none_or(|b| !b.is_ascii_digit());
            if fits && before_ok && after_ok {
                out.push(toolminimize_core::Finding::new(
                    i..i + shape.len(),
                    toolminimize_core::PsdKind::Ssn,
                    0.95,
                    "test_ssn_shape",
                ));
                i += shape.len();
            } else {
                i += 1;
            }
        }
    }
}

/// A minimizer with the default policy plus [`SsnShape`].
pub fn minimizer() -> toolminimize_core::Minimizer {
    toolminimize_core::Minimizer::builder()
        .detector(SsnShape)
        .build()
        .unwrap()
}

/// A minimizer with `policy` plus [`SsnShape`].
pub fn minimizer_with(policy: toolminimize_core::Policy) -> toolminimize_core::Minimizer {
    toolminimize_core::Minimizer::builder()
        .policy(policy)
        .detector(SsnShape)
        .build()
        .unwrap()
}
