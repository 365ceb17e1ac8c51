use schemars::JsonSchema;
use toolminimize::MinimizeSchema;

#[derive(JsonSchema, MinimizeSchema)]
struct Booking {
    #[minimize(necessary, category = 4)]
    reason: String,
    #[minimize(category = "identity", sensitivity = "high")]
    patient: String,
    #[minimize(op = "truncate", max_chars = "200")]
    notes: String,
}

fn main() {}
