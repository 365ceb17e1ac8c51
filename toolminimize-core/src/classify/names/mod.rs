//! Stage 2b: person names from public name lists, with context rules.

use super::Detector;
use crate::error::Error;

/// The built-in person-name detectors, built once.
///
/// # Errors
/// When an automaton cannot be built.
pub fn detectors() -> Result<Vec<Box<dyn Detector>>, Error> {
    Ok(Vec::new())
}
