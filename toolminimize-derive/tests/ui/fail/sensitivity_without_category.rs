use schemars::JsonSchema;
use toolminimize::MinimizeSchema;

#[derive(JsonSchema, MinimizeSchema)]
struct Note {
    #[minimize(necessary, sensitivity = 2)]
    text: String,
}

fn main() {}
