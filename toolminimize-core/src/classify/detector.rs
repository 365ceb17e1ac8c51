//! The detector trait: anything that finds PSD in a string.
//!
//! Built-in detectors and user-supplied ones implement the same trait and are registered on the
//! [`MinimizerBuilder`](crate::MinimizerBuilder).
//!
//! ```
//! use toolminimize_core::classify::{Detector, Field};
//! use toolminimize_core::item::{Finding, PsdKind};
//! use toolminimize_core::taxonomy::Category;
//!
//! /// Finds internal employee numbers such as `EMP-004211`.
//! #[derive(Debug)]
//! struct EmployeeNumber;
//! impl Detector for EmployeeNumber {
//!     fn name(&self) -> &'static str { "employee_number" }
//!     fn detect(&self, text: &str, _field: &Field<'_>, out: &mut Vec<Finding>) {
//!         for (i, _) in text.match_indices("EMP-") {
//!             let end = text[i + 4..].find(|c: char| !c.is_ascii_digit()).map_or(text.len(), |n| i + 4 + n);
//!             if end > i + 4 {
//!                 out.push(Finding::new(i..end, PsdKind::AccountId, 0.9, "employee_number"));
//!             }
//!         }
//!     }
//! }
//! let mut out = Vec::new();
//! EmployeeNumber.detect("ask EMP-004211 about it", &Field::default(), &mut out);
//! assert_eq!(out[0].span, 4..14);
//! ```

use std::fmt;

use crate::item::Finding;

/// Where a scanned string sits: its path and what the schema says of its field.
#[derive(Debug, Clone, Copy, Default)]
pub struct Field<'a> {
    /// JSON pointer of the string.
    pub path: &'a str,
    /// The property name holding it (the last object key on the path).
    pub key: Option<&'a str>,
    /// The field's schema description, if any.
    pub description: Option<&'a str>,
}

/// Finds PSD in text. Implementations must be cheap to call and must not allocate in
/// proportion to their own tables on each call.
pub trait Detector: Send + Sync + fmt::Debug {
    /// A static name reported with each finding's item.
    fn name(&self) -> &'static str;

    /// Appends the findings in `text` to `out`. Spans are byte ranges on char boundaries.
    fn detect(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>);
}
