use schemars::JsonSchema;
use toolminimize::MinimizeSchema;

#[derive(JsonSchema, MinimizeSchema)]
struct Booking {
    #[minimize(necessary, category = "medical")]
    reason: String,
}

fn main() {}
