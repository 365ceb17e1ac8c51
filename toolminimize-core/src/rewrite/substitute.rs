//! Substitution: placeholders that keep the shape of what they replace — consistent within a
//! call (and within a session), valid in format (an e-mail placeholder is an e-mail).
//!
//! ```
//! use toolminimize_core::rewrite::substitute::Placeholders;
//! use toolminimize_core::PsdKind;
//! let mut p = Placeholders::default();
//! assert_eq!(p.for_value(PsdKind::PersonName, "Ana Ruiz"), "[PERSON_1]");
//! assert_eq!(p.for_value(PsdKind::PersonName, "ana  ruiz"), "[PERSON_1]");
//! assert_eq!(p.for_value(PsdKind::Email, "a@b.co"), "person1@example.com");
//! ```

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};

use crate::item::PsdKind;
use crate::text::fold::fold_term;

/// Hands out placeholders. Values are kept only as keyed hashes.
#[derive(Debug, Default, Clone)]
pub struct Placeholders {
    hasher: RandomState,
    seen: HashMap<(u8, u64), usize>,
    counts: HashMap<u8, usize>,
}

fn class(kind: PsdKind) -> u8 {
    match kind {
        PsdKind::PersonName | PsdKind::Username => 0,
        PsdKind::Email => 1,
        PsdKind::Phone => 2,
        _ => 3,
    }
}

impl Placeholders {
    /// Uses `hasher` (a session's) so placeholders stay stable across calls.
    pub fn with_hasher(hasher: RandomState) -> Self {
        Placeholders {
            hasher,
            ..Placeholders::default()
        }
    }

    /// The placeholder for `value` of `kind`.
    pub fn for_value(&mut self, kind: PsdKind, value: &str) -> String {
        let folded: String = fold_term(value)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let c = class(kind);
        let h = self.hasher.hash_one(&folded);
        let n = match self.seen.get(&(c, h)) {
            Some(n) => *n,
            None => {
                let n = self.counts.entry(c).or_insert(0);
                *n += 1;
                let n = *n;
                self.seen.insert((c, h), n);
                n
            }
        };
        match kind {
            PsdKind::PersonName | PsdKind::Username => format!("[PERSON_{n}]"),
            PsdKind::Email => format!("person{n}@example.com"),
            PsdKind::Phone => format!("+1 555 01{:02}", n % 100),
            _ => format!("[REDACTED_{n}]"),
        }
    }
}
