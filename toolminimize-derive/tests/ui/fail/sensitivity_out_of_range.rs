use schemars::JsonSchema;
use toolminimize::MinimizeSchema;

#[derive(JsonSchema, MinimizeSchema)]
struct Booking {
    #[minimize(necessary, category = "health", sensitivity = 5)]
    reason: String,
}

fn main() {}
