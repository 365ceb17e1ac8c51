//! A detected piece of privacy-sensitive data (PSD) and where it sits.
//!
//! Neither [`Finding`] nor [`PsdItem`] holds the raw value: they carry a JSON pointer, a byte
//! span into the string at that pointer, and what kind of data it is. Their `Debug` and
//! `Display` can therefore never print a value.

use std::fmt;
use std::ops::Range;

use serde::Serialize;

use crate::taxonomy::{Category, Sensitivity};

/// What exactly a finding is: the finer kind under a [`Category`]. The rewriter picks its
/// operation from this.
///
/// ```
/// use toolminimize_core::{Category, PsdKind, Sensitivity};
/// assert_eq!(PsdKind::Iban.category(), Category::Financial);
/// assert_eq!(PsdKind::DateOfBirth.default_sensitivity(), Sensitivity::HIGH);
/// assert_eq!(PsdKind::HealthFacility.name(), "health_facility");
/// assert_eq!(PsdKind::from_name("custom_beliefs"), Some(PsdKind::Custom(Category::Beliefs)));
/// ```
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum PsdKind {
    // --- identity
    /// An e-mail address.
    Email,
    /// A phone number.
    Phone,
    /// A US social security number.
    Ssn,
    /// A passport number.
    Passport,
    /// A national id (French NIR, Spanish DNI/NIE, Swedish personnummer, …).
    NationalId,
    /// A driver licence number.
    DriverLicence,
    /// A medical record or patient number.
    MedicalRecord,
    /// A person's name.
    PersonName,
    /// A username or handle.
    Username,
    /// An IPv4 or IPv6 address.
    IpAddress,
    /// A MAC address.
    MacAddress,
    /// A password, token, API key or other credential.
    Credential,
    /// An account, member or customer number that identifies a person.
    AccountId,
    // --- financial
    /// A payment card number.
    CardNumber,
    /// An IBAN.
    Iban,
    /// A bank account or routing number.
    BankAccount,
    /// A tax id (German Steuer-IdNr, US EIN/ITIN, …).
    TaxId,
    /// An amount of money tied to the person (balance, debt, income).
    MoneyAmount,
    /// Debt, bankruptcy, foreclosure, collection and similar distress.
    FinancialDistress,
    // --- location
    /// A street address.
    StreetAddress,
    /// GPS coordinates (in text or as a lat/lon pair of numbers).
    Coordinates,
    /// A postcode / ZIP code.
    Postcode,
    /// A city, neighbourhood or region.
    Place,
    // --- demographic
    /// A date of birth.
    DateOfBirth,
    /// An age.
    Age,
    /// Gender.
    Gender,
    /// Marital or family status, family members.
    Family,
    /// Employer, job title or profession.
    Occupation,
    /// Personal preferences and habits.
    Preference,
    // --- special categories (Art. 9/10)
    /// A condition, diagnosis, symptom, procedure or treatment.
    Condition,
    /// A medication.
    Medication,
    /// A care provider or facility that implies care.
    HealthFacility,
    /// A religious venue, group, holiday or practice; a political party, union, campaign.
    Belief,
    /// Sexual orientation, gender identity, LGBTQ venues and groups.
    Sexuality,
    /// Ethnic or national origin, immigration status.
    EthnicOrigin,
    /// Arrests, charges, convictions, probation, court cases.
    CriminalRecord,
    /// Biometric data.
    Biometric,
    /// A role or profession that implies special-category data about the user.
    ImpliedByRole,
    /// A free-form item from a user-supplied detector or deny-list.
    Custom(Category),
}

impl PsdKind {
    /// The taxonomy category of this kind.
    pub const fn category(self) -> Category {
        use PsdKind::*;
        match self {
            Email | Phone | Ssn | Passport | NationalId | DriverLicence | MedicalRecord
            | PersonName | Username | IpAddress | MacAddress | Credential | AccountId => {
                Category::Identity
            }
            CardNumber | Iban | BankAccount | TaxId | MoneyAmount | FinancialDistress => {
                Category::Financial
            }
            StreetAddress | Coordinates | Postcode | Place => Category::Location,
            DateOfBirth | Age | Gender | Family | Occupation | Preference => Category::Demographic,
            Condition | Medication | HealthFacility => Category::Health,
            Belief => Category::Beliefs,
            Sexuality => Category::SexualLife,
            EthnicOrigin => Category::Ethnicity,
            CriminalRecord => Category::Criminal,
            Biometric => Category::Biometric,
            ImpliedByRole => Category::Health,
            Custom(c) => c,
        }
    }

    /// The default sensitivity of this kind (SPEC §1; finer than the category default).
    pub const fn default_sensitivity(self) -> Sensitivity {
        use PsdKind::*;
        match self {
            Postcode | Place => Sensitivity::MEDIUM,
            DateOfBirth => Sensitivity::HIGH,
            Preference => Sensitivity::LOW,
            _ => self.category().default_sensitivity(),
        }
    }

    /// A stable snake_case name (used in reports): `"email"`, `"street_address"`, …, and
    /// `"custom_<category>"` for [`PsdKind::Custom`].
    pub fn name(self) -> String {
        match self {
            PsdKind::Custom(c) => format!("custom_{}", c.id()),
            other => serde_json::to_value(other)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
        }
    }

    /// The kind with this [`name`](PsdKind::name), if any.
    pub fn from_name(name: &str) -> Option<PsdKind> {
        if let Some(category) = name.strip_prefix("custom_") {
            return category.parse().ok().map(PsdKind::Custom);
        }
        serde_json::from_value(serde_json::Value::from(name))
            .ok()
            .filter(|k| !matches!(k, PsdKind::Custom(_)))
    }

    /// Whether this kind is a quasi-identifier: a piece that, together with others sent to
    /// the same recipient (name and date of birth; postcode, date of birth and gender; …),
    /// singles a person out. Sessions remember which of these each tool has received.
    ///
    /// ```
    /// use toolminimize_core::PsdKind;
    /// assert!(PsdKind::DateOfBirth.is_quasi_identifier());
    /// assert!(!PsdKind::Condition.is_quasi_identifier());
    /// ```
    pub fn is_quasi_identifier(self) -> bool {
        crate::decide::linkability::is_quasi_identifier(self)
    }

    /// Whether sending this kind to a recipient that already holds the kinds in `has`
    /// completes an identifying combination that `has` alone did not.
    ///
    /// ```
    /// use toolminimize_core::PsdKind;
    /// assert!(PsdKind::DateOfBirth.completes_identity(&[PsdKind::PersonName]));
    /// assert!(!PsdKind::Gender.completes_identity(&[PsdKind::Postcode]));
    /// ```
    pub fn completes_identity(self, has: &[PsdKind]) -> bool {
        crate::decide::linkability::completes_identity(has, self)
    }
}

impl fmt::Display for PsdKind {
    /// The kind's [`name`](PsdKind::name).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// One detection inside one string: what a [`Detector`](crate::Detector) reports. It holds a
/// byte span, never the text.
///
/// ```
/// use toolminimize_core::{Category, Finding, PsdKind};
/// let f = Finding::new(10..21, PsdKind::Ssn, 0.95, "ssn");
/// assert_eq!(f.category, Category::Identity);
/// let f = Finding::new(0..12, PsdKind::Email, 0.9, "parole_office").with_category(Category::Criminal);
/// assert_eq!(f.category, Category::Criminal);
/// assert!(!format!("{f:?}").contains('@'));
/// ```
#[derive(Clone, PartialEq)]
#[non_exhaustive]
pub struct Finding {
    /// Byte span in the scanned string (for numbers: `0..len` of their JSON text).
    pub span: Range<usize>,
    /// What it is.
    pub kind: PsdKind,
    /// The category; usually `kind.category()`, but detectors may refine it (an e-mail at a
    /// parole office is criminal data).
    pub category: Category,
    /// 0.0 … 1.0.
    pub confidence: f32,
    /// Which detector fired (a static name such as `"iban"` or `"lexicon:health"`).
    pub detector: &'static str,
}

impl Finding {
    /// A finding whose category is its kind's. `confidence` is 0 … 1; `detector` is the name
    /// reports show (usually the detector's [`name`](crate::Detector::name)).
    pub fn new(span: Range<usize>, kind: PsdKind, confidence: f32, detector: &'static str) -> Self {
        Finding {
            span,
            kind,
            category: kind.category(),
            confidence,
            detector,
        }
    }

    /// Overrides the category.
    #[must_use]
    pub fn with_category(mut self, category: Category) -> Self {
        self.category = category;
        self
    }
}

impl fmt::Debug for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Finding")
            .field("span", &self.span)
            .field("kind", &self.kind)
            .field("category", &self.category)
            .field("confidence", &self.confidence)
            .field("detector", &self.detector)
            .finish()
    }
}

/// A finding placed in the arguments: its JSON pointer, span, kind, category and sensitivity.
#[derive(Clone, PartialEq)]
pub struct PsdItem {
    /// JSON pointer (RFC 6901) of the string or number holding it.
    pub path: String,
    /// Byte span inside that string (`None` when the whole value is the item, e.g. a number).
    pub span: Option<Range<usize>>,
    /// What it is.
    pub kind: PsdKind,
    /// Taxonomy category.
    pub category: Category,
    /// Sensitivity used for scoring (after `x-sensitivity` and combination rules).
    pub sensitivity: Sensitivity,
    /// Detector name.
    pub detector: &'static str,
    /// 0.0 … 1.0.
    pub confidence: f32,
}

impl fmt::Debug for PsdItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PsdItem")
            .field("path", &self.path)
            .field("span", &self.span)
            .field("kind", &self.kind)
            .field("category", &self.category)
            .field("sensitivity", &self.sensitivity.get())
            .field("detector", &self.detector)
            .field("confidence", &self.confidence)
            .finish()
    }
}

impl fmt::Display for PsdItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} (S{}) at {}",
            self.category,
            self.kind.name(),
            self.sensitivity.get(),
            if self.path.is_empty() {
                "/"
            } else {
                &self.path
            }
        )?;
        if let Some(s) = &self.span {
            write!(f, "[{}..{}]", s.start, s.end)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_map_to_spec_categories() {
        assert_eq!(PsdKind::Iban.category(), Category::Financial);
        assert_eq!(PsdKind::DateOfBirth.category(), Category::Demographic);
        assert_eq!(
            PsdKind::DateOfBirth.default_sensitivity(),
            Sensitivity::HIGH
        );
        assert_eq!(PsdKind::Postcode.default_sensitivity(), Sensitivity::MEDIUM);
        assert_eq!(
            PsdKind::StreetAddress.default_sensitivity(),
            Sensitivity::HIGH
        );
        assert_eq!(PsdKind::Custom(Category::Beliefs).name(), "custom_beliefs");
        assert_eq!(PsdKind::HealthFacility.name(), "health_facility");
    }

    #[test]
    fn display_names_the_place_but_no_value() {
        let item = PsdItem {
            path: "/body".into(),
            span: Some(3..14),
            kind: PsdKind::Ssn,
            category: Category::Identity,
            sensitivity: Sensitivity::HIGH,
            detector: "ssn",
            confidence: 0.9,
        };
        assert_eq!(item.to_string(), "identity ssn (S3) at /body[3..14]");
    }
}
