use schemars::JsonSchema;
use toolminimize::MinimizeSchema;

#[derive(JsonSchema, MinimizeSchema)]
#[minimize(exposure = "partner", necessary, audience = "public")]
struct Post {
    #[minimize(necessary, exposure = "first_party")]
    body: String,
}

fn main() {}
