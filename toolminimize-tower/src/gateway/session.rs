//! The gateway's sessions: calls that carry the same `"session"` id share one [`Session`], so
//! placeholders stay consistent across a conversation's calls.

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, MutexGuard, PoisonError};

use toolminimize_core::Session;

/// A bounded map of session id → [`Session`]. When full, the session created first is dropped.
#[derive(Debug)]
pub(crate) struct Sessions {
    state: Mutex<State>,
    capacity: usize,
}

#[derive(Debug, Default)]
struct State {
    by_id: HashMap<String, Session>,
    created: VecDeque<String>,
}

impl Sessions {
    pub(crate) fn new(capacity: usize) -> Self {
        Sessions {
            state: Mutex::new(State::default()),
            capacity,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // The state is a map and a queue; a panic elsewhere cannot leave them unusable.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The session with this id, created if new.
    pub(crate) fn get_or_create(&self, id: &str) -> Session {
        let mut state = self.lock();
        if let Some(session) = state.by_id.get(id) {
            return session.clone();
        }
        let session = Session::new(id);
        if self.capacity == 0 {
            return session;
        }
        while state.by_id.len() >= self.capacity {
            match state.created.pop_front() {
                Some(oldest) => {
                    state.by_id.remove(&oldest);
                }
                None => break,
            }
        }
        state.by_id.insert(id.to_owned(), session.clone());
        state.created.push_back(id.to_owned());
        session
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().by_id.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_id_gets_the_same_session() {
        let sessions = Sessions::new(4);
        let a = sessions.get_or_create("conv-1");
        let b = sessions.get_or_create("conv-1");
        assert_eq!(a.id(), b.id());
        assert_eq!(sessions.len(), 1);
        sessions.get_or_create("conv-2");
        assert_eq!(sessions.len(), 2);
    }

    #[test]
    fn the_oldest_session_goes_when_full() {
        let sessions = Sessions::new(2);
        for id in ["a", "b", "c"] {
            sessions.get_or_create(id);
        }
        assert_eq!(sessions.len(), 2);
        let state = sessions.lock();
        assert!(!state.by_id.contains_key("a"));
        assert!(state.by_id.contains_key("b") && state.by_id.contains_key("c"));
    }

    #[test]
    fn zero_capacity_keeps_nothing() {
        let sessions = Sessions::new(0);
        assert_eq!(sessions.get_or_create("a").id(), "a");
        assert_eq!(sessions.len(), 0);
    }
}
