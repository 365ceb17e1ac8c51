use schemars::JsonSchema;
use toolminimize::MinimizeSchema;

#[derive(JsonSchema, MinimizeSchema)]
struct Reminder {
    #[minimize(necessary)]
    text: String,
    #[minimize(category = "health", category = "identity")]
    note: String,
}

fn main() {}
