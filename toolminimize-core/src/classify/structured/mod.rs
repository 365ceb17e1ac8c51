//! Stage 1: structured identifiers with validation (checksums, ranges, formats).
//!
//! Filled in by the structured-detector work: e-mail, phone, SSN, cards, IBAN, IP/MAC,
//! passports and national ids, dates of birth, coordinates, street addresses, postcodes, URLs.

use serde_json::{Map, Value};

use super::Detector;
use crate::error::Error;
use crate::item::Finding;

/// The built-in structured detectors, compiled once.
///
/// # Errors
/// When a pattern fails to compile (a bug, caught by tests).
pub fn detectors() -> Result<Vec<Box<dyn Detector>>, Error> {
    Ok(Vec::new())
}

/// Findings on numeric fields of one object (a `latitude`/`longitude` pair and the like):
/// `(property name, finding)`, the finding's span covering the whole number.
pub fn numeric_findings(_obj: &Map<String, Value>) -> Vec<(String, Finding)> {
    Vec::new()
}
