use schemars::JsonSchema;
use toolminimize::MinimizeSchema;

#[derive(JsonSchema, MinimizeSchema)]
struct Delivery {
    #[minimize(necessary)]
    parcel: String,
    #[minimize(category = "location", op = "generalize", to = "city")]
    postcode: u32,
}

fn main() {}
