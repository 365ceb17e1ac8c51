//! The detector trait: anything that finds PSD in a string.
//!
//! Built-in detectors and user-supplied ones implement the same trait; user-supplied ones are
//! registered on the [`MinimizerBuilder`](crate::MinimizerBuilder).

use std::fmt;

use crate::item::Finding;

/// Where a scanned string sits: its path and what the schema says of its field.
///
/// ```
/// use toolminimize_core::Field;
/// let field = Field::new("/patient/notes").with_key("notes").with_description("Free-text notes");
/// assert_eq!(field.key, Some("notes"));
/// ```
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct Field<'a> {
    /// JSON pointer of the string.
    pub path: &'a str,
    /// The property name holding it (the last object key on the path).
    pub key: Option<&'a str>,
    /// The field's schema description, if any.
    pub description: Option<&'a str>,
    /// Whether the text is a view in which numbers spoken digit by digit were written as
    /// digits ("zero six two …"): a number dictated that way is a phone's or an id's, as if
    /// a label said so.
    pub(crate) dictated: bool,
}

impl<'a> Field<'a> {
    /// A field at this JSON pointer, with no key or description.
    pub fn new(path: &'a str) -> Self {
        Field {
            path,
            key: None,
            description: None,
            dictated: false,
        }
    }

    /// Sets the property name holding the string.
    #[must_use]
    pub fn with_key(mut self, key: &'a str) -> Self {
        self.key = Some(key);
        self
    }

    /// Sets the field's schema description.
    #[must_use]
    pub fn with_description(mut self, description: &'a str) -> Self {
        self.description = Some(description);
        self
    }
}

/// Finds PSD in text. Implementations must be cheap to call and must not allocate in
/// proportion to their own tables on each call; they report spans, never copies of the text.
///
/// ```
/// use serde_json::json;
/// use toolminimize_core::{Action, Detector, Field, Finding, Minimizer, PsdKind, ToolDef};
///
/// /// Finds internal employee numbers such as `EMP-004211`.
/// #[derive(Debug)]
/// struct EmployeeNumber;
/// impl Detector for EmployeeNumber {
///     fn name(&self) -> &'static str { "employee_number" }
///     fn detect(&self, text: &str, _field: &Field<'_>, out: &mut Vec<Finding>) {
///         for (i, _) in text.match_indices("EMP-") {
///             let digits = text[i + 4..].bytes().take_while(u8::is_ascii_digit).count();
///             if digits > 0 {
///                 out.push(Finding::new(i..i + 4 + digits, PsdKind::AccountId, 0.9, self.name()));
///             }
///         }
///     }
/// }
///
/// let mut found = Vec::new();
/// EmployeeNumber.detect("ask EMP-004211 about it", &Field::default(), &mut found);
/// assert_eq!(found[0].span, 4..14);
///
/// let minimizer = Minimizer::builder().detector(EmployeeNumber).build()?;
/// let tool = ToolDef::new("search_docs", "Search the handbook", json!({
///     "type": "object",
///     "properties": {"query": {"type": "string"}, "note": {"type": "string"}},
///     "required": ["query"]
/// }));
/// let outcome = minimizer.minimize(&tool, &json!({"query": "leave policy", "note": "for EMP-004211"}));
/// let item = &outcome.report().items()[0];
/// assert_eq!((item.detector(), item.action()), ("employee_number", Action::Remove));
/// # Ok::<(), toolminimize_core::Error>(())
/// ```
pub trait Detector: Send + Sync + fmt::Debug {
    /// A static name reported with each finding's item (`ItemReport::detector`).
    fn name(&self) -> &'static str;

    /// Appends the findings in `text` to `out`. Spans are byte ranges on char boundaries.
    fn detect(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>);
}
