//! Users who depend only on the facade: `use toolminimize::MinimizeSchema` brings the trait
//! and the derive, and the generated code compiles without a warning.
#![deny(warnings, missing_docs)]

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toolminimize::MinimizeSchema;

/// Where to deliver.
#[derive(Serialize, Deserialize, JsonSchema, MinimizeSchema)]
pub struct Address {
    /// Street and number.
    #[minimize(category = "location", op = "generalize", to = "city")]
    pub street: String,
    /// City.
    #[minimize(necessary, category = "location", sensitivity = 2)]
    pub city: String,
}

/// Order a delivery.
#[derive(Serialize, Deserialize, JsonSchema, MinimizeSchema)]
#[minimize(exposure = "third_party")]
#[serde(rename_all = "camelCase")]
pub struct OrderDelivery {
    /// What to deliver.
    #[minimize(necessary)]
    pub item_name: String,
    /// Where to.
    #[minimize(necessary)]
    pub address: Address,
    /// A note for the courier.
    #[minimize(op = "truncate", max_chars = 120)]
    pub courier_note: Option<String>,
}

fn main() {
    let schema = OrderDelivery::minimize_schema();
    assert_eq!(
        schema["minimum_necessary"],
        serde_json::json!(["itemName", "address"])
    );
    assert_eq!(schema["x-exposure"], "third_party");
    assert_eq!(
        schema["$defs"]["Address"]["minimum_necessary"],
        serde_json::json!(["city"])
    );
    let tool = OrderDelivery::tool_def("order_delivery", "Order a delivery");
    assert_eq!(tool.input_schema(), &schema);
}
