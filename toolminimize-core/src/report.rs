//! What a minimization did, without any raw value: per item its path, category, sensitivity,
//! necessity, action and the rule that decided it; and the privacy cost before and after.
//!
//! A [`Report`] serializes to the `report` object of the CLI's JSONL output (SPEC §5) and reads
//! back from it.

use std::borrow::Cow;
use std::ops::Range;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::decide::Rule;
use crate::item::PsdKind;
use crate::taxonomy::{Category, Exposure, Sensitivity};

/// The rewrite applied to an item.
///
/// ```
/// use toolminimize_core::Action;
/// assert_eq!(Action::Generalize.id(), "generalize");
/// assert_eq!(serde_json::to_value(Action::Generalize)?, "generalize");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Action {
    /// Left as it is (necessary, or nothing less revealing would validate).
    Keep,
    /// Removed (a field dropped, a span or clause cut from text, or a least-informative value).
    Remove,
    /// Made coarser (address → city, date of birth → year, coordinates → city precision).
    Generalize,
    /// Replaced by a placeholder (names, e-mail, phone).
    Substitute,
    /// Cut off with the text around it.
    Truncate,
}

impl Action {
    /// The stable id (`"keep"`, `"remove"`, …), as reports serialize it.
    pub const fn id(self) -> &'static str {
        match self {
            Action::Keep => "keep",
            Action::Remove => "remove",
            Action::Generalize => "generalize",
            Action::Substitute => "substitute",
            Action::Truncate => "truncate",
        }
    }
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// One PSD item in the report (SPEC §5), never with its value.
///
/// Serialized with the field names of the CLI's output: `path`, `category`, `sensitivity`,
/// `necessary`, `action`, `kind`, `detector`, `rule` (the [`Rule`]'s id), `confidence` (two
/// decimals) and, for an item inside a string, `span`.
///
/// ```
/// use serde_json::json;
/// use toolminimize_core::{Action, Category, Minimizer, Rule, ToolDef};
///
/// let minimizer = Minimizer::new()?;
/// let tool = ToolDef::new("get_forecast", "Weather forecast for a city", json!({
///     "type": "object",
///     "properties": {"city": {"type": "string"}, "notes": {"type": "string"}},
///     "required": ["city"]
/// }));
/// let outcome = minimizer.minimize(&tool, &json!({"city": "Lyon", "notes": "call me on +33 6 12 34 56 78"}));
/// let item = &outcome.report().items()[0];
/// assert_eq!(item.path(), "/notes");
/// assert_eq!(item.category(), Category::Identity);
/// assert!(!item.necessary());
/// assert_eq!(item.action(), Action::Remove);
/// assert_eq!(item.rule(), Rule::OptionalField);
/// assert_eq!(serde_json::to_value(item)?["rule"], "schema:optional-field");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ItemReport {
    path: String,
    category: Category,
    sensitivity: Sensitivity,
    necessary: bool,
    action: Action,
    #[serde(serialize_with = "kind_name", deserialize_with = "kind_from_name")]
    kind: PsdKind,
    detector: Cow<'static, str>,
    rule: Rule,
    #[serde(deserialize_with = "rounded")]
    confidence: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    span: Option<[usize; 2]>,
}

fn kind_name<S: Serializer>(kind: &PsdKind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&kind.name())
}

fn kind_from_name<'de, D: Deserializer<'de>>(d: D) -> Result<PsdKind, D::Error> {
    let name = Cow::<'de, str>::deserialize(d)?;
    PsdKind::from_name(&name)
        .ok_or_else(|| serde::de::Error::custom(format_args!("unknown item kind `{name}`")))
}

fn rounded<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    f64::deserialize(d).map(round_confidence)
}

/// A confidence to two decimals, within 0 … 1 (`0.8999999761581421` → `0.9`).
fn round_confidence(c: f64) -> f64 {
    if c.is_nan() {
        return 0.0;
    }
    (c.clamp(0.0, 1.0) * 100.0).round() / 100.0
}

impl ItemReport {
    /// A report line for one item (the pipeline's own constructor).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        path: String,
        category: Category,
        sensitivity: Sensitivity,
        necessary: bool,
        action: Action,
        kind: PsdKind,
        detector: &'static str,
        rule: Rule,
        confidence: f32,
        span: Option<&Range<usize>>,
    ) -> Self {
        ItemReport {
            path,
            category,
            sensitivity,
            necessary,
            action,
            kind,
            detector: Cow::Borrowed(detector),
            rule,
            confidence: round_confidence(f64::from(confidence)),
            span: span.map(|s| [s.start, s.end]),
        }
    }

    /// JSON pointer (RFC 6901) of the field that held the item, in the input arguments.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Taxonomy category.
    pub fn category(&self) -> Category {
        self.category
    }

    /// Sensitivity used for scoring (after schema annotations and combination rules).
    pub fn sensitivity(&self) -> Sensitivity {
        self.sensitivity
    }

    /// Whether the tool needs the item as it is.
    pub fn necessary(&self) -> bool {
        self.necessary
    }

    /// What was done to the item.
    pub fn action(&self) -> Action {
        self.action
    }

    /// The finer kind (e-mail, street address, condition, …); reports serialize its
    /// [`name`](PsdKind::name).
    pub fn kind(&self) -> PsdKind {
        self.kind
    }

    /// The name of the detector that found the item (`"email"`, `"lexicon:health"`, or a
    /// [`Detector::name`](crate::Detector::name)).
    pub fn detector(&self) -> &str {
        &self.detector
    }

    /// The rule that decided necessity and action.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Detection confidence, 0 … 1, rounded to two decimals.
    pub fn confidence(&self) -> f64 {
        self.confidence
    }

    /// Byte range of the item inside the string at [`path`](Self::path), when the item is part
    /// of a string; `None` when it is the whole value (a number, a coordinate pair).
    pub fn span(&self) -> Option<Range<usize>> {
        self.span.map(|[start, end]| start..end)
    }
}

/// The report of one call: what was found, what was done, and the privacy cost before and
/// after (SPEC §3). Never holds a value from the arguments.
///
/// Serialized with the field names of the CLI's output: `cost_before`, `cost_after`, `items`
/// and, when known, `exposure` and `tool_kind`.
///
/// ```
/// use serde_json::json;
/// use toolminimize_core::{Category, Minimizer, ToolDef};
///
/// let minimizer = Minimizer::new()?;
/// let tool = ToolDef::new("get_forecast", "Weather forecast for a city", json!({
///     "type": "object",
///     "properties": {"city": {"type": "string"}, "notes": {"type": "string"}},
///     "required": ["city"]
/// }));
/// let outcome = minimizer.minimize(&tool, &json!({"city": "Lyon", "notes": "call me on +33 6 12 34 56 78"}));
/// let report = outcome.report();
/// assert_eq!(report.cost_before(), 6.0); // identity (S = 3) × unknown exposure (E = 2)
/// assert_eq!(report.cost_after(), 0.0);
/// assert!(report.changed());
/// assert_eq!(report.count_by_category(), [(Category::Identity, 1)]);
/// assert_eq!(report.tool_kind(), Some("weather"));
/// # Ok::<(), toolminimize_core::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Report {
    cost_before: f64,
    cost_after: f64,
    items: Vec<ItemReport>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    exposure: Option<Exposure>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tool_kind: Option<Cow<'static, str>>,
}

impl Report {
    /// A report of a minimized call (the pipeline's own constructor).
    pub(crate) fn new(
        cost_before: f64,
        cost_after: f64,
        items: Vec<ItemReport>,
        exposure: Exposure,
        tool_kind: &'static str,
    ) -> Self {
        Report {
            cost_before,
            cost_after,
            items,
            exposure: Some(exposure),
            tool_kind: Some(Cow::Borrowed(tool_kind)),
        }
    }

    /// Privacy cost of the input: Σ S × E over the items the tool does not need.
    pub fn cost_before(&self) -> f64 {
        self.cost_before
    }

    /// Privacy cost of what goes out (0 when every unnecessary item was rewritten).
    pub fn cost_after(&self) -> f64 {
        self.cost_after
    }

    /// Every detected item, in the order the pipeline found them.
    pub fn items(&self) -> &[ItemReport] {
        &self.items
    }

    /// The exposure the call was scored with (`None` for an empty report, such as the one of a
    /// call that failed).
    pub fn exposure(&self) -> Option<Exposure> {
        self.exposure
    }

    /// The kind of tool the decision stage recognised (`"weather"`, `"email"`, …,
    /// `"generic"`); `None` for an empty report.
    pub fn tool_kind(&self) -> Option<&str> {
        self.tool_kind.as_deref()
    }

    /// Items grouped by category, with counts, in category order.
    pub fn count_by_category(&self) -> Vec<(Category, usize)> {
        let mut out: Vec<(Category, usize)> = Vec::new();
        for it in &self.items {
            match out.iter_mut().find(|(c, _)| *c == it.category) {
                Some((_, n)) => *n += 1,
                None => out.push((it.category, 1)),
            }
        }
        out.sort();
        out
    }

    /// Whether anything was changed.
    pub fn changed(&self) -> bool {
        self.items.iter().any(|i| i.action != Action::Keep)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confidence_is_rounded_to_two_decimals() {
        let it = ItemReport::new(
            "/a".into(),
            Category::Health,
            Sensitivity::CRITICAL,
            false,
            Action::Remove,
            PsdKind::Condition,
            "lexicon:health",
            Rule::OptionalField,
            0.9,
            Some(&(2..5)),
        );
        assert_eq!(it.confidence(), 0.9);
        let json = serde_json::to_string(&it).unwrap();
        assert!(json.contains(r#""confidence":0.9,"#), "{json}");
        assert!(json.contains(r#""rule":"schema:optional-field""#), "{json}");
        assert!(json.contains(r#""sensitivity":4"#), "{json}");
        assert_eq!(round_confidence(0.8549), 0.85);
        assert_eq!(round_confidence(f64::NAN), 0.0);
        assert_eq!(round_confidence(1.5), 1.0);
    }

    #[test]
    fn reports_read_back_what_they_write() {
        let it = ItemReport::new(
            "/who".into(),
            Category::Beliefs,
            Sensitivity::CRITICAL,
            false,
            Action::Substitute,
            PsdKind::Custom(Category::Beliefs),
            "deny-list",
            Rule::PolicyStrict,
            0.97,
            None,
        );
        let report = Report::new(8.0, 0.0, vec![it], Exposure::ThirdParty, "generic");
        let json = serde_json::to_string(&report).unwrap();
        assert!(json.contains(r#""kind":"custom_beliefs""#), "{json}");
        assert!(!json.contains("span"), "{json}");
        let back: Report = serde_json::from_str(&json).unwrap();
        assert_eq!(back, report);
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
    }

    #[test]
    fn an_unknown_rule_or_kind_does_not_read() {
        let line = r#"{"path":"/a","category":"health","sensitivity":4,"necessary":false,"action":"remove","kind":"condition","detector":"d","rule":"no:such-rule","confidence":0.5}"#;
        assert!(serde_json::from_str::<ItemReport>(line).is_err());
        let line = line
            .replace("no:such-rule", "default")
            .replace("condition", "nothing");
        assert!(serde_json::from_str::<ItemReport>(&line).is_err());
    }
}
