//! Classify: find privacy-sensitive data (PSD) in tool-call arguments.
//!
//! Stage 1 ([`structured`]) finds validated identifiers; stage 2 finds implicit PSD with
//! lexicons ([`lexicon`]), person names ([`names`]) and hidden, encoded forms ([`encoded`]);
//! [`combine`] raises the sensitivity of quasi-identifiers that identify together. Every table is
//! compiled once, when the [`Minimizer`](crate::Minimizer) is built.

pub mod combine;
mod detector;
pub mod encoded;
pub mod lexicon;
pub mod names;
mod overlap;
mod shared;
pub mod structured;
mod terms;

use std::fmt;

use serde_json::Value;

pub use self::detector::{Detector, Field};
use crate::error::Error;
use crate::item::{Finding, PsdItem};
use crate::policy::Policy;
use crate::schema::{SchemaIndex, push_token};

/// Whether a built-in detector failed to compile (a bug, caught by tests).
pub(crate) fn detectors_failed() -> bool {
    shared::failed()
}

/// Starts compiling, on background threads, the detectors and metadata calls will need (once
/// per process; see [`MinimizerBuilder::build`](crate::MinimizerBuilder::build)).
pub(crate) fn warm_up() {
    shared::warm_up();
}

/// Compiles, on the calling thread, every detector and pattern not compiled yet and loads the
/// phone metadata (sharing the work with the warm-up threads).
///
/// # Errors
/// When a built-in detector failed to compile (a bug, caught by tests).
pub(crate) fn ready() -> Result<(), Error> {
    structured::warm_up();
    lexicon::warm_up();
    encoded::warm_up();
    structured::warm_up_phone_metadata();
    if shared::failed() {
        return Err(Error::new(
            crate::error::ErrorKind::Build,
            "a built-in detector failed to compile",
        ));
    }
    Ok(())
}

/// Runs every detector over every string (and the numeric coordinates) of the arguments.
pub struct Classifier {
    detectors: Vec<Box<dyn Detector>>,
    policy_terms: terms::PolicyTerms,
}

impl fmt::Debug for Classifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Classifier")
            .field(
                "detectors",
                &self.detectors.iter().map(|d| d.name()).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl Classifier {
    /// Builds the built-in detectors plus `extra`, and the policy's allow- and deny-lists.
    ///
    /// # Errors
    /// When a table fails to build.
    pub fn build(policy: &Policy, extra: Vec<Box<dyn Detector>>) -> Result<Self, Error> {
        let mut detectors = structured::detectors()?;
        detectors.extend(lexicon::detectors()?);
        detectors.extend(names::detectors()?);
        detectors.extend(extra);
        Ok(Classifier {
            detectors,
            policy_terms: terms::PolicyTerms::build(policy)?,
        })
    }

    /// All findings in one string, overlaps resolved, allow-listed spans dropped.
    pub fn scan_text(&self, text: &str, field: &Field<'_>) -> Vec<Finding> {
        let mut out = Vec::new();
        for d in &self.detectors {
            d.detect(text, field, &mut out);
        }
        self.policy_terms.deny(text, &mut out);
        encoded::scan_hidden(text, field, &self.detectors, &mut out);
        self.policy_terms.allow(text, &mut out);
        overlap::resolve(&mut out);
        out
    }

    /// All PSD items in `args`. `schema` supplies field descriptions and `x-sensitivity`.
    pub fn classify(&self, args: &Value, schema: &SchemaIndex) -> Vec<PsdItem> {
        let mut items = Vec::new();
        let mut path = String::new();
        self.walk(args, None, &mut path, schema, &mut items, 0);
        combine::apply(&mut items);
        items
    }

    fn walk(
        &self,
        v: &Value,
        key: Option<&str>,
        path: &mut String,
        schema: &SchemaIndex,
        items: &mut Vec<PsdItem>,
        depth: usize,
    ) {
        if depth > crate::MAX_DEPTH {
            return;
        }
        match v {
            Value::String(s) => {
                let info = schema.field(path);
                let field = Field {
                    path,
                    key,
                    description: info.and_then(|i| i.description.as_deref()),
                };
                for f in self.scan_text(s, &field) {
                    items.push(schema.item_from(path, Some(f.span.clone()), &f));
                }
            }
            Value::Object(map) => {
                for (k, f) in structured::numeric_findings(map) {
                    let len = path.len();
                    push_token(path, &k);
                    items.push(schema.item_from(path, None, &f));
                    path.truncate(len);
                }
                for (k, child) in map {
                    let len = path.len();
                    push_token(path, k);
                    self.walk(child, Some(k), path, schema, items, depth + 1);
                    path.truncate(len);
                }
            }
            Value::Array(arr) => {
                for (i, child) in arr.iter().enumerate() {
                    let len = path.len();
                    path.push('/');
                    path.push_str(&i.to_string());
                    self.walk(child, key, path, schema, items, depth + 1);
                    path.truncate(len);
                }
            }
            _ => {}
        }
    }
}
