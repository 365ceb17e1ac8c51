use schemars::JsonSchema;
use toolminimize::MinimizeSchema;

/// Weather forecast arguments.
#[derive(JsonSchema, MinimizeSchema)]
#[minimize(exposure = "third_party")]
struct Forecast {
    city: String,
    days: u8,
}

fn main() {}
