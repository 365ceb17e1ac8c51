//! Stage 1: structured identifiers with validation (checksums, ranges, formats).
//!
//! One small detector per family, each compiled once by [`detectors`]: e-mail, phone, SSN,
//! payment cards, IBAN and bank accounts, IP/MAC addresses. Candidates are found with cheap
//! patterns behind byte-level prefilters (no `@`, no e-mail scan; fewer than seven digits, no
//! phone scan) and only then validated.
//!
//! ```
//! use toolminimize_core::classify::{structured, Field};
//! use toolminimize_core::item::PsdKind;
//!
//! let detectors = structured::detectors().unwrap();
//! let text = "reach me at ana.lopez@example.es or +34 612 345 678";
//! let mut out = Vec::new();
//! for d in &detectors {
//!     d.detect(text, &Field::default(), &mut out);
//! }
//! let kinds: Vec<PsdKind> = out.iter().map(|f| f.kind).collect();
//! assert!(kinds.contains(&PsdKind::Email));
//! assert!(kinds.contains(&PsdKind::Phone));
//! ```

mod address;
mod birth;
mod card;
mod context;
mod coords;
mod credential;
mod email;
mod iban;
mod ids;
mod network;
mod phone;
mod residence;
mod ssn;
mod url;

use serde_json::{Map, Value};

pub use self::address::{FollowingPlace, following_place};

use super::Detector;
use crate::error::Error;
use crate::item::Finding;

/// The built-in structured detectors, compiled once.
///
/// # Errors
/// When a pattern fails to compile (a bug, caught by tests).
pub fn detectors() -> Result<Vec<Box<dyn Detector>>, Error> {
    Ok(vec![
        Box::new(email::Email::new()?),
        Box::new(phone::Phone::new()?),
        Box::new(ssn::Ssn::new()?),
        Box::new(card::Card::new()?),
        Box::new(iban::Iban::new()?),
        Box::new(network::Network::new()?),
        Box::new(coords::Coordinates::new()?),
        Box::new(birth::Birth::new()?),
        Box::new(address::Address::new()?),
        Box::new(residence::Residence::new()?),
        Box::new(credential::Credential::new()?),
        Box::new(ids::Ids::new()?),
        Box::new(url::Url::new()?),
    ])
}

/// Findings on numeric fields of one object (a `latitude`/`longitude` pair and the like):
/// `(property name, finding)`, the finding's span covering the whole number.
pub fn numeric_findings(obj: &Map<String, Value>) -> Vec<(String, Finding)> {
    coords::numeric_findings(obj)
}

#[cfg(test)]
mod tests;
