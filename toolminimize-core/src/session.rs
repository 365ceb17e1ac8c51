//! Sessions: calls of one conversation share a [`Session`], so substitutions stay consistent
//! across calls and a value dribbled out over several calls is caught.
//!
//! ```
//! use toolminimize_core::Session;
//! let s = Session::new("conversation-42");
//! assert_eq!(s.id(), "conversation-42");
//! let s2 = s.clone(); // clones share state
//! assert_eq!(s2.calls_seen(), 0);
//! ```

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasher, RandomState};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::item::PsdKind;
use crate::rewrite::substitute::Placeholders;

/// Per-session state. Values are stored only as keyed hashes, never in clear.
#[derive(Default)]
pub(crate) struct SessionState {
    /// Calls minimized in this session.
    pub(crate) calls: u64,
    /// Placeholder numbering, stable across the session's calls.
    pub(crate) placeholders: Placeholders,
    /// Keyed hash of a tool name → the quasi-identifier kinds it has received.
    pub(crate) received: HashMap<u64, Vec<PsdKind>>,
    /// Key for the hashes above.
    pub(crate) key: RandomState,
}

/// A handle on one conversation's state. Cheap to clone; clones share the state.
#[derive(Clone)]
pub struct Session {
    id: Arc<str>,
    state: Arc<Mutex<SessionState>>,
}

impl Session {
    /// A new, empty session.
    pub fn new(id: impl Into<String>) -> Self {
        let id: String = id.into();
        Session {
            id: Arc::from(id.as_str()),
            state: Arc::new(Mutex::new(SessionState::default())),
        }
    }

    /// The session id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// How many calls this session has minimized.
    pub fn calls_seen(&self) -> u64 {
        self.lock().calls
    }

    /// The session's placeholders, for one call to extend.
    pub(crate) fn placeholders(&self) -> Placeholders {
        self.lock().placeholders.clone()
    }

    /// The quasi-identifier kinds `tool` has received in earlier calls.
    pub(crate) fn received_by(&self, tool: &str) -> Vec<PsdKind> {
        let st = self.lock();
        let h = st.key.hash_one(tool);
        st.received.get(&h).cloned().unwrap_or_default()
    }

    /// Records a finished call: the placeholders it handed out and the quasi-identifier kinds
    /// `tool` received.
    pub(crate) fn record_call(&self, tool: &str, placeholders: Placeholders, sent: &[PsdKind]) {
        let mut st = self.lock();
        st.calls += 1;
        st.placeholders = placeholders;
        let h = st.key.hash_one(tool);
        let kinds = st.received.entry(h).or_default();
        for k in sent {
            if !kinds.contains(k) {
                kinds.push(*k);
            }
        }
    }

    /// The quasi-identifier kinds `tool` has received so far in this session (kinds, never
    /// values), for a store that keeps a conversation's state beyond one process.
    pub fn received_kinds(&self, tool: &str) -> Vec<PsdKind> {
        self.received_by(tool)
    }

    /// Records that `tool` already received these quasi-identifier kinds earlier in the
    /// conversation, as restored from such a store. Kinds that are not quasi-identifiers are
    /// ignored.
    ///
    /// ```
    /// use toolminimize_core::{PsdKind, Session};
    /// let s = Session::new("c1");
    /// s.restore_received("search", &[PsdKind::PersonName, PsdKind::Condition]);
    /// assert_eq!(s.received_kinds("search"), vec![PsdKind::PersonName]);
    /// assert_eq!(s.calls_seen(), 0);
    /// ```
    pub fn restore_received(&self, tool: &str, kinds: &[PsdKind]) {
        let mut st = self.lock();
        let h = st.key.hash_one(tool);
        let have = st.received.entry(h).or_default();
        for k in kinds {
            if crate::decide::linkability::is_quasi_identifier(*k) && !have.contains(k) {
                have.push(*k);
            }
        }
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, SessionState> {
        // A poisoned lock only means another thread panicked mid-update; the state is still
        // a usable set of counters and hashes.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("id", &self.id)
            .field("calls", &self.calls_seen())
            .finish_non_exhaustive()
    }
}
