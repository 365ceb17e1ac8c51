use schemars::JsonSchema;
use toolminimize::MinimizeSchema;

#[derive(serde::Serialize, JsonSchema, MinimizeSchema)]
struct Search {
    #[minimize(necessary)]
    query: String,
    #[serde(skip)]
    #[minimize(necessary)]
    cache_key: String,
}

fn main() {}
