//! Substitution: placeholders that keep the shape of what they replace — consistent within a
//! call (and within a session), valid in format (an e-mail placeholder is an e-mail).

use rustc_hash::FxHashMap as HashMap;

use crate::item::PsdKind;
use crate::store::{SessionKey, SessionState};
use crate::text::fold::fold_term;

/// A placeholder handed out: (class, keyed hash of the value) and its number.
pub(crate) type Assigned = ((u8, u64), u32);

/// Hands out placeholders. Values are kept only as keyed hashes.
#[derive(Debug, Clone)]
pub struct Placeholders {
    key: SessionKey,
    /// (class, hash) → number, and whether it came from the session and is not yet in `found`.
    seen: HashMap<(u8, u64), (usize, bool)>,
    counts: HashMap<u8, usize>,
    /// The session's counts when this set was made.
    base: HashMap<u8, usize>,
    /// Placeholders handed out since this set was made (to record in the session).
    added: Vec<Assigned>,
    /// Placeholders of the session reused since this set was made.
    found: Vec<Assigned>,
}

impl Default for Placeholders {
    fn default() -> Self {
        Placeholders {
            key: SessionKey::random(),
            seen: HashMap::default(),
            counts: HashMap::default(),
            base: HashMap::default(),
            added: Vec::new(),
            found: Vec::new(),
        }
    }
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
    /// Continues a session's numbering: its key and the placeholders it handed out before.
    pub fn from_session(key: SessionKey, state: &SessionState) -> Self {
        let counts: HashMap<u8, usize> = state
            .counts
            .iter()
            .map(|(&c, &n)| (c, n as usize))
            .collect();
        Placeholders {
            key,
            seen: state
                .placeholders
                .iter()
                .map(|(&k, &n)| (k, (n as usize, true)))
                .collect(),
            base: counts.clone(),
            counts,
            added: Vec::new(),
            found: Vec::new(),
        }
    }

    /// What numbering this set's placeholders depended on in the session: the placeholders
    /// of the session it reused, and the count before this set of each class it handed new
    /// numbers out in.
    pub(crate) fn reads(&self) -> (Vec<Assigned>, Vec<(u8, u32)>) {
        let mut classes: Vec<u8> = self.added.iter().map(|((c, _), _)| *c).collect();
        classes.sort_unstable();
        classes.dedup();
        let before = classes
            .into_iter()
            .map(|c| {
                let n = self.base.get(&c).copied().unwrap_or(0);
                (c, u32::try_from(n).unwrap_or(u32::MAX))
            })
            .collect();
        (self.found.clone(), before)
    }

    /// The placeholders handed out since this set was made, and the counts of their classes.
    pub(crate) fn added(&self) -> (Vec<Assigned>, Vec<(u8, u32)>) {
        let mut classes: Vec<u8> = self.added.iter().map(|((c, _), _)| *c).collect();
        classes.sort_unstable();
        classes.dedup();
        let counts = classes
            .into_iter()
            .map(|c| {
                let n = self.counts.get(&c).copied().unwrap_or(0);
                (c, u32::try_from(n).unwrap_or(u32::MAX))
            })
            .collect();
        (self.added.clone(), counts)
    }

    /// The placeholder for `value` of `kind`.
    pub fn for_value(&mut self, kind: PsdKind, value: &str) -> String {
        let folded: String = fold_term(value)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let c = class(kind);
        let h = self.key.hash(folded.as_bytes());
        let n = match self.seen.get_mut(&(c, h)) {
            Some((n, from_session)) => {
                if *from_session {
                    *from_session = false;
                    self.found
                        .push(((c, h), u32::try_from(*n).unwrap_or(u32::MAX)));
                }
                *n
            }
            None => {
                let n = self.counts.entry(c).or_insert(0);
                *n += 1;
                let n = *n;
                self.seen.insert((c, h), (n, false));
                self.added
                    .push(((c, h), u32::try_from(n).unwrap_or(u32::MAX)));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_stable_per_value() {
        let mut p = Placeholders::default();
        assert_eq!(p.for_value(PsdKind::PersonName, "Ana Ruiz"), "[PERSON_1]");
        assert_eq!(p.for_value(PsdKind::PersonName, "ana  ruiz"), "[PERSON_1]");
        assert_eq!(p.for_value(PsdKind::Email, "a@b.co"), "person1@example.com");
    }
}
