//! Sessions: calls of one conversation share a [`Session`], so substitutions stay consistent
//! across calls and a value dribbled out over several calls is caught.
//!
//! A session's state lives in a [`SessionStore`](crate::store::SessionStore): by default its
//! own, in the process; [`Session::in_store`] puts it in a shared one (an in-process
//! [`MemoryStore`](crate::store::MemoryStore) with a cap and a time to live, or a store several
//! replicas share, such as Redis). The state holds keyed hashes, never values.

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::item::PsdKind;
use crate::store::{
    Commit, SessionKey, SessionReads, SessionState, SessionStore, SessionUpdate, StoreError,
};

/// Where a session's state lives.
#[derive(Clone)]
enum Backend {
    /// The session's own state, in this process.
    Own(Arc<Mutex<SessionState>>, SessionKey),
    /// A shared store.
    Store(Arc<dyn SessionStore>),
}

/// A handle on one conversation's state. Cheap to clone; clones share the state.
///
/// Calls of one conversation share a session, so substitutions stay consistent across calls
/// and a value dribbled out over several calls is caught. Its state lives in a
/// [`SessionStore`]: by default its own, in the process; [`Session::in_store`] puts it in a
/// shared one (a [`MemoryStore`](crate::MemoryStore) with a cap and a time to live, or a
/// store several replicas share). The state holds keyed hashes, never values.
///
/// ```
/// use toolminimize_core::Session;
/// let s = Session::new("conversation-42");
/// assert_eq!(s.id(), "conversation-42");
/// let s2 = s.clone(); // clones share state
/// assert_eq!(s2.calls_seen(), 0);
/// ```
#[derive(Clone)]
pub struct Session {
    id: Arc<str>,
    backend: Backend,
}

impl Session {
    /// A new, empty session with its own state in this process.
    pub fn new(id: impl Into<String>) -> Self {
        let id: String = id.into();
        Session {
            id: Arc::from(id.as_str()),
            backend: Backend::Own(
                Arc::new(Mutex::new(SessionState::default())),
                SessionKey::random(),
            ),
        }
    }

    /// The session `id` of a shared store: every handle on the same id and store (in this
    /// process or, for a shared store, in another) sees the same state.
    pub fn in_store(id: impl Into<String>, store: Arc<dyn SessionStore>) -> Self {
        let id: String = id.into();
        Session {
            id: Arc::from(id.as_str()),
            backend: Backend::Store(store),
        }
    }

    /// The session id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// How many calls this session has minimized (0 when its store cannot be reached).
    pub fn calls_seen(&self) -> u64 {
        self.load().map(|s| s.calls).unwrap_or(0)
    }

    /// The key the session's hashes are made with.
    pub(crate) fn key(&self) -> SessionKey {
        match &self.backend {
            Backend::Own(_, key) => *key,
            Backend::Store(store) => store.key(),
        }
    }

    /// The quasi-identifier kinds `tool` has received so far in this session (kinds, never
    /// values), for a store that keeps a conversation's state beyond one process; empty when
    /// the session's store cannot be read.
    pub fn received_kinds(&self, tool: &str) -> Vec<PsdKind> {
        self.load()
            .map(|state| received_by(&state, &self.key(), tool))
            .unwrap_or_default()
    }

    /// Records that `tool` already received these quasi-identifier kinds earlier in the
    /// conversation, as restored from such a store. Kinds that are not quasi-identifiers are
    /// ignored. Does not count as a call.
    ///
    /// ```
    /// use toolminimize_core::{PsdKind, Session};
    /// let s = Session::new("c1");
    /// s.restore_received("search", &[PsdKind::PersonName, PsdKind::Condition]);
    /// assert_eq!(s.received_kinds("search"), vec![PsdKind::PersonName]);
    /// assert_eq!(s.calls_seen(), 0);
    /// ```
    pub fn restore_received(&self, tool: &str, kinds: &[PsdKind]) {
        let sent: Vec<PsdKind> = kinds
            .iter()
            .copied()
            .filter(|k| crate::decide::linkability::is_quasi_identifier(*k))
            .collect();
        let update = SessionUpdate {
            tool: self.key().hash(tool.as_bytes()),
            sent,
            call: false,
            ..SessionUpdate::default()
        };
        if let Err(e) = self.save(&update) {
            tracing::warn!(error = %e, "session store unavailable; kinds not restored");
        }
    }

    /// The state before a call.
    pub(crate) fn load(&self) -> Result<SessionState, StoreError> {
        match &self.backend {
            Backend::Own(state, _) => Ok(lock(state).clone()),
            Backend::Store(store) => store.load(&self.id),
        }
    }

    /// The state to decide a call on (possibly a stale copy; [`Session::commit`] checks).
    pub(crate) fn view(&self) -> Result<SessionState, StoreError> {
        match &self.backend {
            Backend::Own(state, _) => Ok(lock(state).clone()),
            Backend::Store(store) => store.view(&self.id),
        }
    }

    /// Records a finished call if what it read is still so; otherwise the current state.
    pub(crate) fn commit(
        &self,
        reads: &SessionReads,
        update: &SessionUpdate,
    ) -> Result<Commit, StoreError> {
        match &self.backend {
            Backend::Own(state, _) => {
                let mut state = lock(state);
                if !state.still_matches(update.tool, reads) {
                    return Ok(Commit::Changed(state.clone()));
                }
                state.apply(update);
                Ok(Commit::Done)
            }
            Backend::Store(store) => store.commit(&self.id, reads, update),
        }
    }

    /// Records a change outside a call.
    pub(crate) fn save(&self, update: &SessionUpdate) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Own(state, _) => {
                lock(state).apply(update);
                Ok(())
            }
            Backend::Store(store) => store.save(&self.id, update),
        }
    }
}

fn lock(state: &Mutex<SessionState>) -> MutexGuard<'_, SessionState> {
    // A poisoned lock only means another thread panicked mid-update; the state is still a
    // usable set of counters and hashes.
    state
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The quasi-identifier kinds `tool` has received in earlier calls, from a loaded state.
pub(crate) fn received_by(state: &SessionState, key: &SessionKey, tool: &str) -> Vec<PsdKind> {
    state
        .received
        .get(&key.hash(tool.as_bytes()))
        .cloned()
        .unwrap_or_default()
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let store = match &self.backend {
            Backend::Own(..) => "own",
            Backend::Store(_) => "shared",
        };
        f.debug_struct("Session")
            .field("id", &self.id)
            .field("store", &store)
            .finish_non_exhaustive()
    }
}
