use schemars::JsonSchema;
use toolminimize::MinimizeSchema;

#[derive(JsonSchema, MinimizeSchema)]
struct Note {
    #[minimize(necessary, to = "city")]
    place: String,
    #[minimize(op = "substitute", max_chars = 40)]
    author: String,
}

fn main() {}
