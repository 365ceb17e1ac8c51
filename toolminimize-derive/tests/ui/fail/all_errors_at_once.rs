use schemars::JsonSchema;
use toolminimize::MinimizeSchema;

#[derive(JsonSchema, MinimizeSchema)]
struct Appointment {
    #[minimize(necessary, necessary)]
    clinic: String,
    #[minimize(category = "helth", sensitivity = 0)]
    reason: String,
    #[minimize(op = "truncate")]
    patient_age: u8,
    #[minimize(colour = "red")]
    notes: String,
}

fn main() {}
