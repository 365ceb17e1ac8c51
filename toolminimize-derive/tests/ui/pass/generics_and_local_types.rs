//! Generic structs, where-clauses, lifetimes, and types declared inside a function.
#![deny(warnings)]

use std::borrow::Cow;
use std::collections::BTreeMap;

use schemars::JsonSchema;
use toolminimize::MinimizeSchema;

#[derive(JsonSchema, MinimizeSchema)]
struct Page<T>
where
    T: Clone,
{
    #[minimize(necessary)]
    items: Vec<T>,
    #[minimize(category = "identity", op = "remove")]
    requested_by: Option<String>,
}

#[derive(JsonSchema, MinimizeSchema)]
struct Message<'a> {
    #[minimize(necessary, op = "truncate", max_chars = 500)]
    body: Cow<'a, str>,
    #[minimize(category = "identity")]
    headers: BTreeMap<String, String>,
}

fn main() {
    #[derive(Clone, JsonSchema, MinimizeSchema)]
    struct Contact {
        #[minimize(necessary, category = "identity", op = "substitute")]
        email: String,
    }

    #[derive(JsonSchema, MinimizeSchema)]
    struct Inbox {
        #[minimize(necessary)]
        page: Page<Contact>,
    }

    let page = Page::<Contact>::minimize_schema();
    assert_eq!(page["minimum_necessary"], serde_json::json!(["items"]));
    // A concrete field type names `Contact`, so its annotations reach its definition.
    let inbox = Inbox::minimize_schema();
    assert_eq!(
        inbox["$defs"]["Page"]["minimum_necessary"],
        serde_json::json!(["items"])
    );
    assert_eq!(
        inbox["$defs"]["Contact"]["properties"]["email"]["x-minimize"],
        "substitute"
    );
    let message = Message::minimize_schema();
    assert_eq!(
        message["properties"]["body"]["x-minimize"],
        serde_json::json!({"op": "truncate", "max_chars": 500})
    );
}
