use schemars::JsonSchema;
use toolminimize::MinimizeSchema;

#[derive(JsonSchema, MinimizeSchema)]
struct Forecast {
    #[minimize(necesary)]
    city: String,
}

fn main() {}
