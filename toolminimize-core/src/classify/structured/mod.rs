//! Stage 1: structured identifiers with validation (checksums, ranges, formats).
//!
//! One small detector per family, each compiled once by [`detectors`]: e-mail, phone, SSN,
//! payment cards, IBAN and bank accounts, IP/MAC addresses, ICD-10 diagnosis codes. Candidates are found with cheap
//! patterns behind byte-level prefilters (no `@`, no e-mail scan; fewer than seven digits, no
//! phone scan) and only then validated.

mod address;
mod biometric;
mod birth;
mod card;
mod context;
mod coords;
mod credential;
mod demographic;
mod email;
mod iban;
mod icd;
mod ids;
mod labelled;
mod legal;
mod membership;
mod money;
mod network;
mod phone;
mod residence;
mod school;
mod ssn;
mod url;

pub use self::address::{FollowingPlace, following_place};

use std::sync::OnceLock;

use super::Detector;
use super::shared::Shared;
use crate::error::Error;
use crate::item::Finding;

/// Declares one process-wide cell per detector, the list of detectors over them, and the
/// warm-up that compiles them all.
macro_rules! shared_detectors {
    ($($cell:ident: $ty:ty = $name:literal),* $(,)?) => {
        $(static $cell: OnceLock<Result<$ty, Error>> = OnceLock::new();)*

        /// The built-in structured detectors. Each compiles its patterns once per process, on
        /// first use or ahead of it on the warm-up thread, and is shared by every `Minimizer`.
        ///
        /// # Errors
        /// None today; kept for detectors that must fail early.
        pub fn detectors() -> Result<Vec<Box<dyn Detector>>, Error> {
            Ok(vec![$(Box::new(Shared::new($name, &$cell, <$ty>::new)),)*])
        }

        /// Compiles every structured detector not compiled yet.
        fn warm_up_detectors() {
            $(let _ = Shared::new($name, &$cell, <$ty>::new).get();)*
        }

        #[cfg(test)]
        fn check_names() {
            $(assert_eq!(<$ty>::new().unwrap().name(), $name);)*
        }
    };
}

shared_detectors! {
    EMAIL: email::Email = "email",
    PHONE: phone::Phone = "phone",
    SSN: ssn::Ssn = "ssn",
    CARD: card::Card = "card",
    IBAN: iban::Iban = "iban",
    NETWORK: network::Network = "ip",
    COORDINATES: coords::Coordinates = "coordinates",
    BIRTH: birth::Birth = "dob",
    ADDRESS: address::Address = "address",
    RESIDENCE: residence::Residence = "residence",
    SCHOOL: school::School = "school",
    CREDENTIAL: credential::Credential = "credential",
    IDS: ids::Ids = "national_id",
    MONEY: money::Money = "money",
    DEMOGRAPHIC: demographic::Demographic = "demographic",
    MEMBERSHIP: membership::Membership = "membership",
    BIOMETRIC: biometric::Biometric = "biometric",
    LEGAL: legal::Legal = "legal",
    LABELLED: labelled::Labelled = "labelled_id",
    URL: url::Url = "url",
    ICD: icd::Icd = "icd10",
}

/// Compiles every structured detector and pattern not compiled yet.
pub(crate) fn warm_up() {
    warm_up_detectors();
    let _ = following_place("", 0);
    address::warm_up_units();
    crate::classify::pattern::compile_all();
}

/// Loads the full phone-number metadata (a few hundred milliseconds in the `phonenumber`
/// crate). Until it has loaded, phone validation builds small databases of the calling codes a
/// candidate needs.
pub(crate) fn warm_up_phone_metadata() {
    phone::warm_up_metadata();
}

/// Drops e-mail findings that are a test fixture's address (a documentation domain inside
/// code).
pub(crate) fn drop_fixture_emails(text: &str, found: &mut Vec<Finding>) {
    email::drop_fixtures(text, found);
}

/// Findings on numeric fields of one object (a `latitude`/`longitude` pair and the like):
/// `(property name, finding)`, the finding's span covering the whole number.
pub(crate) fn numeric_findings(obj: crate::args::Members<'_>) -> Vec<(String, Finding)> {
    coords::numeric_findings(obj)
}

/// Findings on a two-number array under a position-like property name (`start_latlng:
/// [37.76, -122.43]`), one for each element.
pub(crate) fn numeric_pair_findings(key: &str, arr: crate::args::Elements<'_>) -> Vec<Finding> {
    coords::numeric_pair_findings(key, arr)
}

#[cfg(test)]
pub(crate) use self::address::check_patterns;

#[cfg(test)]
mod tests;

#[cfg(test)]
#[test]
fn shared_detectors_carry_their_names() {
    check_names();
    warm_up();
    assert!(!super::shared::failed());
}
