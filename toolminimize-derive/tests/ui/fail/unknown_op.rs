use schemars::JsonSchema;
use toolminimize::MinimizeSchema;

#[derive(JsonSchema, MinimizeSchema)]
struct Note {
    #[minimize(necessary, op = "redact")]
    text: String,
}

fn main() {}
