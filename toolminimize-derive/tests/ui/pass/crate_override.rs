//! `#[minimize(crate = "...")]` names the crate that provides `MinimizeSchema` (here the core
//! crate, as a user who depends on it directly, or under another name, would write).
#![deny(warnings)]

use schemars::JsonSchema;
use toolminimize_core::MinimizeSchema;

#[derive(JsonSchema, toolminimize::MinimizeSchema)]
#[minimize(crate = "toolminimize_core")]
struct Lookup {
    #[minimize(necessary, category = "identity", op = "substitute")]
    username: String,
}

mod renamed {
    pub use toolminimize_core as privacy;
}

#[derive(JsonSchema, toolminimize::MinimizeSchema)]
#[minimize(crate = "crate::renamed::privacy")]
struct Search {
    #[minimize(necessary)]
    query: String,
}

fn main() {
    assert_eq!(
        Lookup::minimize_schema()["minimum_necessary"],
        serde_json::json!(["username"])
    );
    assert_eq!(
        Search::minimize_schema()["minimum_necessary"],
        serde_json::json!(["query"])
    );
}
