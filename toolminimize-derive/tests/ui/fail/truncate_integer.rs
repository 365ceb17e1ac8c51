use schemars::JsonSchema;
use toolminimize::MinimizeSchema;

#[derive(JsonSchema, MinimizeSchema)]
struct Profile {
    #[minimize(necessary)]
    bio: String,
    #[minimize(category = "demographic", op = "truncate", max_chars = 2)]
    age: u32,
}

fn main() {}
