use schemars::JsonSchema;
use toolminimize::MinimizeSchema;

#[derive(JsonSchema, MinimizeSchema)]
struct Survey {
    #[minimize(necessary)]
    answer: String,
    #[minimize(category = "health", op = "generalize", to = "city")]
    smoker: bool,
}

fn main() {}
