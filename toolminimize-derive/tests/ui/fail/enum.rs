use schemars::JsonSchema;
use toolminimize::MinimizeSchema;

#[derive(JsonSchema, MinimizeSchema)]
enum Unit {
    Celsius,
    Fahrenheit,
}

fn main() {}
