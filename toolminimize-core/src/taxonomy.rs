//! The PSD taxonomy: categories, sensitivity levels and exposure (SPEC §1–2).
//!
//! The serde names are the stable ids other code depends on.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A kind of privacy-sensitive data (SPEC §1). Serialized as its [`id`](Category::id).
///
/// ```
/// use toolminimize_core::{Category, Exposure, Sensitivity};
/// assert_eq!(Category::Health.default_sensitivity(), Sensitivity::CRITICAL);
/// assert_eq!(Category::Location.id(), "location");
/// assert_eq!("sexual_life".parse::<Category>().ok(), Some(Category::SexualLife));
/// assert_eq!(serde_json::to_value(Category::Financial)?, "financial");
/// assert_eq!(Exposure::Unknown.weight(), 2);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Category {
    /// Conditions, diagnoses, medications, treatments, care providers, disability, pregnancy, mental health.
    Health,
    /// Fingerprints, face/voice/iris templates, biometric identifiers.
    Biometric,
    /// Sexual orientation, sex life, gender identity, venues and groups that imply them.
    SexualLife,
    /// Religious or philosophical beliefs, political opinions, party and union membership.
    Beliefs,
    /// Racial or ethnic origin, immigration status.
    Ethnicity,
    /// Convictions, offences, arrests, probation, legal proceedings.
    Criminal,
    /// Card, account and IBAN numbers, balances, income, debts, tax ids, credit scores.
    Financial,
    /// Direct identifiers: names, e-mail, phone, government ids, usernames, IP/MAC, credentials.
    Identity,
    /// Street addresses and coordinates (precise) or postcode, neighbourhood, city (coarse).
    Location,
    /// Date of birth, age, gender, marital status, employer, job title, family, preferences.
    Demographic,
}

impl Category {
    /// Every category, in SPEC order (later releases may add to it).
    pub const ALL: &'static [Category] = &[
        Category::Health,
        Category::Biometric,
        Category::SexualLife,
        Category::Beliefs,
        Category::Ethnicity,
        Category::Criminal,
        Category::Financial,
        Category::Identity,
        Category::Location,
        Category::Demographic,
    ];

    /// The stable id (`"health"`, `"sexual_life"`, …).
    pub const fn id(self) -> &'static str {
        match self {
            Category::Health => "health",
            Category::Biometric => "biometric",
            Category::SexualLife => "sexual_life",
            Category::Beliefs => "beliefs",
            Category::Ethnicity => "ethnicity",
            Category::Criminal => "criminal",
            Category::Financial => "financial",
            Category::Identity => "identity",
            Category::Location => "location",
            Category::Demographic => "demographic",
        }
    }

    /// The default sensitivity of the category (SPEC §1). Location's precise level is the default.
    pub const fn default_sensitivity(self) -> Sensitivity {
        match self {
            Category::Health
            | Category::Biometric
            | Category::SexualLife
            | Category::Beliefs
            | Category::Ethnicity
            | Category::Criminal => Sensitivity::CRITICAL,
            Category::Financial | Category::Identity | Category::Location => Sensitivity::HIGH,
            Category::Demographic => Sensitivity::MEDIUM,
        }
    }

    /// GDPR Art. 9 special categories and Art. 10 criminal data.
    pub const fn is_special(self) -> bool {
        matches!(
            self,
            Category::Health
                | Category::Biometric
                | Category::SexualLife
                | Category::Beliefs
                | Category::Ethnicity
                | Category::Criminal
        )
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A string that is not the id of a [`Category`] or an [`Exposure`]. Its message quotes at
/// most 40 characters of what was given and lists the ids expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{given}` (expected one of: {expected})")]
pub struct UnknownId {
    what: &'static str,
    given: String,
    expected: &'static str,
}

impl FromStr for Category {
    type Err = UnknownId;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Category::ALL
            .iter()
            .copied()
            .find(|c| c.id() == s)
            .ok_or_else(|| UnknownId {
                what: "category",
                given: s.chars().take(40).collect(),
                expected: "health, biometric, sexual_life, beliefs, ethnicity, criminal, financial, identity, location, demographic",
            })
    }
}

/// Sensitivity S, 1 (low) … 4 (critical).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Sensitivity(u8);

impl Sensitivity {
    /// S = 1.
    pub const LOW: Sensitivity = Sensitivity(1);
    /// S = 2.
    pub const MEDIUM: Sensitivity = Sensitivity(2);
    /// S = 3.
    pub const HIGH: Sensitivity = Sensitivity(3);
    /// S = 4.
    pub const CRITICAL: Sensitivity = Sensitivity(4);

    /// `Some` for 1..=4.
    pub const fn new(level: u8) -> Option<Sensitivity> {
        if level >= 1 && level <= 4 {
            Some(Sensitivity(level))
        } else {
            None
        }
    }

    /// The level as a number.
    pub const fn get(self) -> u8 {
        self.0
    }
}

impl TryFrom<u8> for Sensitivity {
    type Error = String;
    fn try_from(v: u8) -> Result<Self, Self::Error> {
        Sensitivity::new(v).ok_or_else(|| format!("sensitivity must be 1..=4, got {v}"))
    }
}

impl From<Sensitivity> for u8 {
    fn from(s: Sensitivity) -> u8 {
        s.0
    }
}

/// Where a call goes (SPEC §2). Serialized as its [`id`](Exposure::id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Exposure {
    /// The user's own system (E = 1).
    FirstParty,
    /// Someone else's service (E = 2).
    ThirdParty,
    /// Not declared: treated as third party (E = 2).
    #[default]
    Unknown,
}

impl Exposure {
    /// The exposure weight E.
    pub const fn weight(self) -> u8 {
        match self {
            Exposure::FirstParty => 1,
            Exposure::ThirdParty | Exposure::Unknown => 2,
        }
    }

    /// The stable id.
    pub const fn id(self) -> &'static str {
        match self {
            Exposure::FirstParty => "first_party",
            Exposure::ThirdParty => "third_party",
            Exposure::Unknown => "unknown",
        }
    }
}

impl FromStr for Exposure {
    type Err = UnknownId;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "first_party" => Ok(Exposure::FirstParty),
            "third_party" => Ok(Exposure::ThirdParty),
            "unknown" => Ok(Exposure::Unknown),
            _ => Err(UnknownId {
                what: "exposure",
                given: s.chars().take(40).collect(),
                expected: "first_party, third_party, unknown",
            }),
        }
    }
}

impl fmt::Display for Exposure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_category_round_trips_through_its_id_and_serde() {
        for &c in Category::ALL {
            assert_eq!(c.id().parse::<Category>(), Ok(c));
            let json = serde_json::to_string(&c).unwrap();
            assert_eq!(json, format!("\"{}\"", c.id()));
        }
    }

    #[test]
    fn sensitivity_rejects_out_of_range_levels() {
        assert!(Sensitivity::new(0).is_none());
        assert!(Sensitivity::new(5).is_none());
        assert!(serde_json::from_str::<Sensitivity>("7").is_err());
        assert_eq!(
            serde_json::from_str::<Sensitivity>("3").unwrap(),
            Sensitivity::HIGH
        );
    }

    #[test]
    fn unknown_exposure_weighs_like_third_party() {
        assert_eq!(Exposure::Unknown.weight(), Exposure::ThirdParty.weight());
        assert_eq!(Exposure::FirstParty.weight(), 1);
    }
}
