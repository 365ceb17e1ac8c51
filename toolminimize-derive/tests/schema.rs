//! The schemas `#[derive(MinimizeSchema)]` emits: schemars's schema plus exactly the SPEC §4
//! keywords, under serde's serialized names, read back by the core's schema analysis.
#![allow(
    missing_docs,
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

use std::collections::{BTreeMap, HashMap};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolminimize::{
    Action, Category, Exposure, ItemReport, MinimizeSchema, Minimizer, Report, Sensitivity, ToolDef,
};

/// How urgent the visit is.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Urgency {
    Routine,
    Soon,
    Urgent,
}

/// The person the appointment is for.
#[derive(Serialize, Deserialize, JsonSchema, MinimizeSchema)]
#[serde(rename_all = "camelCase")]
struct Patient {
    /// Full name as on the insurance card.
    #[minimize(necessary, category = "identity", op = "substitute")]
    full_name: String,
    /// Date of birth, `YYYY-MM-DD`.
    #[minimize(
        category = "demographic",
        sensitivity = 3,
        op = "generalize",
        to = "year"
    )]
    date_of_birth: Option<String>,
    /// Contact numbers.
    #[minimize(category = "identity")]
    phones: Vec<String>,
}

/// Where the patient lives.
#[derive(Serialize, Deserialize, JsonSchema, MinimizeSchema)]
struct HomeAddress {
    /// Street and number.
    #[minimize(category = "location", op = "generalize", to = "city")]
    street: String,
    /// City.
    #[minimize(necessary, category = "location", sensitivity = 2)]
    city: String,
}

/// Book an appointment at a clinic.
#[derive(Serialize, Deserialize, JsonSchema, MinimizeSchema)]
#[minimize(exposure = "third_party")]
#[serde(rename_all = "kebab-case")]
struct BookAppointment {
    /// The clinic's id in the booking system.
    #[minimize(necessary)]
    clinic_id: String,
    /// Requested slot, RFC 3339.
    #[minimize(necessary)]
    #[serde(rename = "slot")]
    requested_slot: String,
    /// Who the appointment is for.
    #[minimize(necessary)]
    patient: Patient,
    /// Why the patient comes.
    #[minimize(category = "health", sensitivity = 4, op = "truncate", max_chars = 200)]
    reason: Option<String>,
    /// How urgent.
    #[minimize(necessary)]
    #[serde(default = "routine")]
    urgency: Urgency,
    /// Relatives to notify, by relation.
    #[minimize(category = "identity", op = "remove")]
    #[serde(default)]
    notify: BTreeMap<String, Patient>,
    #[serde(flatten)]
    home: HomeAddress,
    /// Internal bookkeeping, never sent.
    #[serde(skip)]
    attempts: u32,
}

fn routine() -> Urgency {
    Urgency::Routine
}

fn appointment() -> BookAppointment {
    BookAppointment {
        clinic_id: "clinic-4711".into(),
        requested_slot: "2026-03-02T09:30:00+01:00".into(),
        patient: Patient {
            full_name: "Ingrid Solberg".into(),
            date_of_birth: Some("1961-04-17".into()),
            phones: vec!["+47 912 34 567".into()],
        },
        reason: Some("Follow-up after knee surgery".into()),
        urgency: Urgency::Soon,
        notify: BTreeMap::from([(
            "daughter".to_owned(),
            Patient {
                full_name: "Sara Solberg".into(),
                date_of_birth: None,
                phones: vec![],
            },
        )]),
        home: HomeAddress {
            street: "Kirkegata 12".into(),
            city: "Bergen".into(),
        },
        attempts: 2,
    }
}

#[test]
fn clinic_appointment_schema_snapshot() {
    // Printed by serde_json itself: with serde_json's `arbitrary_precision` on in the same
    // build (the command line keeps numbers exact), another serializer would print numbers
    // as serde_json's private wrapper.
    let schema = serde_json::to_string_pretty(&BookAppointment::minimize_schema()).unwrap();
    insta::assert_snapshot!(schema);
}

#[test]
fn serialized_values_validate_against_the_schema() {
    let schema = BookAppointment::minimize_schema();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let value = serde_json::to_value(appointment()).unwrap();
    assert!(
        validator.is_valid(&value),
        "{:?}",
        validator
            .iter_errors(&value)
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
    );
    // And a value the type cannot produce does not.
    let mut wrong = value.clone();
    wrong["urgency"] = json!("whenever");
    assert!(!validator.is_valid(&wrong));
}

#[test]
fn schema_is_schemars_schema_plus_only_spec_keywords() {
    const SPEC: [&str; 5] = [
        "minimum_necessary",
        "x-psd-category",
        "x-sensitivity",
        "x-minimize",
        "x-exposure",
    ];
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                m.retain(|k, _| !SPEC.contains(&k.as_str()));
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut ours = BookAppointment::minimize_schema();
    strip(&mut ours);
    assert_eq!(ours, schemars::schema_for!(BookAppointment).to_value());
}

#[test]
fn minimum_necessary_names_serialized_properties() {
    let schema = BookAppointment::minimize_schema();
    // rename_all = "kebab-case" on the struct, rename = "slot" on a field, flattened fields.
    assert_eq!(
        schema["minimum_necessary"],
        json!(["clinic-id", "slot", "patient", "urgency", "city"])
    );
    // rename_all = "camelCase" in the nested type.
    assert_eq!(
        schema["$defs"]["Patient"]["minimum_necessary"],
        json!(["fullName"])
    );
    let serialized = serde_json::to_value(appointment()).unwrap();
    for name in schema["minimum_necessary"].as_array().unwrap() {
        assert!(
            serialized.get(name.as_str().unwrap()).is_some(),
            "{name} is a serialized property"
        );
        assert!(
            schema["properties"].get(name.as_str().unwrap()).is_some(),
            "{name} is a schema property"
        );
    }
    // The skipped field is in neither.
    assert!(serialized.get("attempts").is_none());
    assert!(schema["properties"].get("attempts").is_none());
}

/// The report item at `path`.
fn item<'r>(report: &'r Report, path: &str) -> &'r ItemReport {
    report
        .items()
        .iter()
        .find(|i| i.path() == path)
        .expect("the path has an item")
}

#[test]
fn the_pipeline_reads_every_annotation() {
    let tool = BookAppointment::tool_def("book_appointment", "Book an appointment at a clinic");
    assert_eq!(tool.declared_exposure(), Some(Exposure::ThirdParty));
    // A reason longer than its `max_chars`, with a condition past the cut.
    let mut booking = appointment();
    booking.reason = Some(format!(
        "Follow-up after knee surgery. {} I also have epilepsy.",
        "The swelling has gone down and I can bend the knee again. ".repeat(4)
    ));
    let args = serde_json::to_value(booking).unwrap();
    let outcome = Minimizer::new().unwrap().minimize(&tool, &args);
    let report = outcome.report();
    assert_eq!(report.exposure(), Some(Exposure::ThirdParty));

    // Necessary fields, a flattened one among them, go as they were.
    let out = outcome.arguments().unwrap();
    for key in ["clinic-id", "slot", "urgency", "city"] {
        assert_eq!(out[key], args[key], "{key}");
    }
    // `op = "generalize", to = "city"` on a flattened field.
    let street = item(report, "/street");
    assert!(!street.necessary());
    assert_eq!(street.action(), Action::Generalize);
    assert_eq!(street.rule().id(), "x-minimize:generalize");
    // Category, sensitivity and `op = "truncate"`: what starts past the cut goes with it.
    let past_cut = report
        .items()
        .iter()
        .filter(|i| i.path() == "/reason")
        .find(|i| i.action() == Action::Truncate)
        .expect("an item past the cut");
    assert_eq!(past_cut.category(), Category::Health);
    assert_eq!(past_cut.sensitivity(), Sensitivity::CRITICAL);
    let reason = out["reason"].as_str().unwrap();
    assert!(reason.chars().count() <= 200, "{reason}");
    assert!(reason.starts_with("Follow-up after knee surgery."));
    assert!(!reason.contains("epilepsy"));

    // Nested through a `$ref`: the patient's own annotations.
    assert_eq!(
        item(report, "/patient/fullName").action(),
        Action::Substitute
    );
    let dob = item(report, "/patient/dateOfBirth");
    assert!(!dob.necessary());
    assert_eq!(dob.sensitivity(), Sensitivity::HIGH);
    assert_eq!(
        item(report, "/patient/phones/0").category(),
        Category::Identity
    );
    // Through a map's values: annotated, but the map itself is not needed.
    let daughter = item(report, "/notify/daughter/fullName");
    assert!(!daughter.necessary());
    assert_eq!(daughter.action(), Action::Substitute);
}

/// Renaming through schemars's own attributes, which override serde's in the schema.
#[derive(Serialize, JsonSchema, MinimizeSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
struct Legacy {
    #[minimize(necessary)]
    account_ref: String,
    #[minimize(necessary, category = "identity")]
    #[serde(rename = "holder")]
    holder_name: String,
}

#[test]
fn both_renaming_styles_name_the_serialized_properties() {
    let schema = Legacy::minimize_schema();
    assert_eq!(
        schema["minimum_necessary"],
        json!(["ACCOUNT_REF", "holder"])
    );
    assert_eq!(schema["properties"]["holder"]["x-psd-category"], "identity");
    let v = serde_json::to_value(Legacy {
        account_ref: "A-1".into(),
        holder_name: "N".into(),
    })
    .unwrap();
    assert_eq!(v, json!({"ACCOUNT_REF": "A-1", "holder": "N"}));
}

/// Options, vectors, maps and recursion reach nested derived types.
#[derive(Serialize, JsonSchema, MinimizeSchema)]
struct Folder {
    #[minimize(necessary)]
    title: String,
    #[minimize(category = "identity", op = "substitute")]
    owner: Option<String>,
    #[minimize(necessary)]
    children: Vec<Folder>,
    shared_with: Option<Vec<Patient>>,
    by_role: HashMap<String, Vec<Patient>>,
}

#[test]
fn nested_types_are_annotated_through_wrappers_and_recursion() {
    let schema = Folder::minimize_schema();
    assert_eq!(schema["minimum_necessary"], json!(["title", "children"]));
    assert_eq!(
        schema["properties"]["children"]["items"],
        json!({"$ref": "#"})
    );
    let patient = &schema["$defs"]["Patient"];
    assert_eq!(patient["minimum_necessary"], json!(["fullName"]));
    assert_eq!(
        patient["properties"]["phones"]["x-psd-category"],
        "identity"
    );
    let args = json!({"title": "t", "children": [{"title": "c", "children": [], "owner": "Sara Solberg", "by_role": {}}],
        "by_role": {"nurse": [{"fullName": "Ingrid Solberg", "phones": []}]}});
    let tool = ToolDef::new("file_folder", "File a folder", schema);
    let outcome = Minimizer::new().unwrap().minimize(&tool, &args);
    let report = outcome.report();
    assert_eq!(
        item(report, "/children/0/owner").action(),
        Action::Substitute
    );
    let nurse = item(report, "/by_role/nurse/0/fullName");
    assert_eq!(
        (nurse.category(), nurse.action()),
        (Category::Identity, Action::Substitute)
    );
}

/// Every taxonomy id the derive accepts is one the core knows, and it accepts all of them.
#[derive(JsonSchema, MinimizeSchema)]
struct EveryCategory {
    #[minimize(category = "health")]
    a: String,
    #[minimize(category = "biometric")]
    b: String,
    #[minimize(category = "sexual_life")]
    c: String,
    #[minimize(category = "beliefs")]
    d: String,
    #[minimize(category = "ethnicity")]
    e: String,
    #[minimize(category = "criminal")]
    f: String,
    #[minimize(category = "financial")]
    g: String,
    #[minimize(category = "identity")]
    h: String,
    #[minimize(category = "location")]
    i: String,
    #[minimize(category = "demographic")]
    j: String,
}

#[test]
fn derive_categories_are_the_core_taxonomy() {
    let schema = EveryCategory::minimize_schema();
    let props = schema["properties"].as_object().unwrap();
    let mut seen: Vec<Category> = props
        .values()
        .map(|p| p["x-psd-category"].as_str().unwrap().parse().unwrap())
        .collect();
    seen.sort();
    let mut all = Category::ALL.to_vec();
    all.sort();
    assert_eq!(seen, all);
    // No field is necessary: the list is there, and empty.
    assert_eq!(schema["minimum_necessary"], json!([]));
}

/// `#[schemars(...)]` renames win over serde's in the schema, so they name the properties.
#[derive(Serialize, JsonSchema, MinimizeSchema)]
#[schemars(rename_all = "camelCase")]
struct SchemarsNamed {
    #[minimize(necessary, category = "identity")]
    #[serde(rename = "name")]
    #[schemars(rename = "displayName")]
    display_name: String,
    #[minimize(necessary)]
    user_id: String,
    #[schemars(skip)]
    internal_ref: String,
}

#[test]
fn schemars_renames_name_the_schema_properties() {
    let schema = SchemarsNamed::minimize_schema();
    assert_eq!(
        schema["minimum_necessary"],
        json!(["displayName", "userId"])
    );
    assert_eq!(
        schema["properties"]["displayName"]["x-psd-category"],
        "identity"
    );
    assert!(schema["properties"].get("internalRef").is_none());
    let plain = schemars::schema_for!(SchemarsNamed).to_value();
    let names: Vec<&String> = plain["properties"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["displayName", "userId"]);
}
