//! A clinic-appointment tool that declares, next to its argument type, what it needs and how
//! sensitive each field is; then one call the model produced, before and after minimization.
//!
//! Run with `cargo run --example derive_tool`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use toolminimize::{MinimizeSchema, Minimizer};

/// The person the appointment is for.
#[derive(Debug, Serialize, Deserialize, JsonSchema, MinimizeSchema)]
#[serde(rename_all = "camelCase")]
struct Patient {
    /// Full name, as on the insurance card.
    #[minimize(necessary, category = "identity")]
    full_name: String,
    /// Date of birth, `YYYY-MM-DD`; the clinic only checks the age group.
    #[minimize(category = "demographic", op = "generalize", to = "year")]
    date_of_birth: Option<String>,
    /// Phone number for a reminder.
    #[minimize(category = "identity", op = "remove")]
    phone: Option<String>,
}

/// Book an appointment with a clinic's online booking service.
#[derive(Debug, Serialize, Deserialize, JsonSchema, MinimizeSchema)]
#[minimize(exposure = "third_party")]
#[serde(rename_all = "camelCase")]
struct BookAppointment {
    /// The clinic's id in the booking service.
    #[minimize(necessary)]
    clinic_id: String,
    /// Requested start, RFC 3339.
    #[minimize(necessary)]
    start: String,
    /// Who the appointment is for.
    #[minimize(necessary)]
    patient: Patient,
    /// Why the patient comes: the booking service needs the kind of visit, not the history.
    #[minimize(category = "health", sensitivity = 4, op = "truncate", max_chars = 40)]
    reason: Option<String>,
    /// The patient's home address, used for nothing but the invoice later.
    #[minimize(category = "location", op = "generalize", to = "city")]
    home_address: Option<String>,
    /// Someone to call in an emergency; the booking service has no use for it.
    #[minimize(category = "identity", op = "remove")]
    emergency_contact: Option<String>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let schema = BookAppointment::minimize_schema();
    println!("input schema of `book_appointment`:");
    println!("{}", serde_json::to_string_pretty(&schema)?);

    let tool = BookAppointment::tool_def("book_appointment", "Book an appointment at a clinic");
    let arguments = json!({
        "clinicId": "oslo-sentrum-legesenter",
        "start": "2026-03-02T09:30:00+01:00",
        "patient": {
            "fullName": "Ingrid Solberg",
            "dateOfBirth": "1961-04-17",
            "phone": "+47 912 34 567"
        },
        "reason": "Check-up. She has had type 2 diabetes since 2015 and takes metformin twice a day.",
        "homeAddress": "Kirkegata 12, 0153 Oslo",
        "emergencyContact": "Henrik Solberg"
    });
    // The arguments are what the type describes.
    let _typed: BookAppointment = serde_json::from_value(arguments.clone())?;
    println!("\ncall as the model produced it:");
    println!("{}", serde_json::to_string_pretty(&arguments)?);

    let minimizer = Minimizer::new()?;
    let outcome = minimizer.minimize(&tool, &arguments);
    match outcome.arguments() {
        Some(sent) => {
            println!("\nminimized call, as the tool receives it:");
            println!("{}", serde_json::to_string_pretty(sent)?);
        }
        None => println!("\nthe call is blocked"),
    }
    println!("\nreport (paths, categories and actions; never a value):");
    println!("{}", serde_json::to_string_pretty(&outcome.report())?);
    Ok(())
}
