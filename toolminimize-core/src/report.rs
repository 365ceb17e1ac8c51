//! What a minimization did, without any raw value: per item its path, category, sensitivity,
//! necessity, action and the rule that decided it; and the privacy cost before and after.
//!
//! ```
//! use toolminimize_core::report::{Action, Report};
//! let r = Report::default();
//! assert_eq!(r.cost_before, 0.0);
//! assert_eq!(serde_json::to_value(Action::Generalize).unwrap(), "generalize");
//! ```

use serde::{Deserialize, Serialize};

use crate::taxonomy::{Category, Exposure};

/// The rewrite applied to an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
    /// The stable id.
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

/// One PSD item in the report (SPEC §5), never with its value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ItemReport {
    /// JSON pointer of the field that held it (in the input arguments).
    pub path: String,
    /// Taxonomy category.
    pub category: Category,
    /// Sensitivity used for scoring.
    pub sensitivity: u8,
    /// Whether the tool needs it.
    pub necessary: bool,
    /// What was done.
    pub action: Action,
    /// The finer kind (`email`, `street_address`, `condition`, …).
    pub kind: String,
    /// The detector that found it.
    pub detector: &'static str,
    /// The rule that decided necessity and action.
    pub rule: &'static str,
    /// Detection confidence, 0 … 1.
    pub confidence: f32,
    /// Byte span inside the string at `path`, when the item is part of a string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<[usize; 2]>,
}

/// The report of one call.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Report {
    /// Privacy cost of the input: Σ S × E over unnecessary items.
    pub cost_before: f64,
    /// Privacy cost of what goes out.
    pub cost_after: f64,
    /// Every detected item.
    pub items: Vec<ItemReport>,
    /// The exposure the call was scored with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exposure: Option<Exposure>,
    /// The kind of tool the decision stage recognised (`weather`, `email`, …, `generic`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_kind: Option<&'static str>,
}

impl Report {
    /// Items grouped by category, with counts.
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
