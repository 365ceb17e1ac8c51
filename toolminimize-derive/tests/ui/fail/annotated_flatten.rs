use schemars::JsonSchema;
use toolminimize::MinimizeSchema;

#[derive(serde::Serialize, JsonSchema, MinimizeSchema)]
struct Address {
    #[minimize(necessary, category = "location")]
    city: String,
}

#[derive(serde::Serialize, JsonSchema, MinimizeSchema)]
struct Order {
    #[minimize(necessary)]
    item: String,
    #[serde(flatten)]
    #[minimize(necessary)]
    address: Address,
}

fn main() {}
