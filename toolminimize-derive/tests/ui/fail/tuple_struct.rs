use schemars::JsonSchema;
use toolminimize::MinimizeSchema;

#[derive(JsonSchema, MinimizeSchema)]
struct Pair(#[minimize(necessary)] String, String);

fn main() {}
