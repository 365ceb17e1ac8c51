//! Where sessions keep their state: the [`SessionStore`] trait, and [`MemoryStore`], the
//! in-process store with a cap on the number of sessions (least recently used go first) and a
//! time to live, counting what it drops in [`StoreStats`].
//!
//! The state of a session is a [`SessionState`]: counters and keyed hashes (of tool names and
//! of the values placeholders stand for), never a value. A store shared by several processes
//! (the `toolminimize-redis` crate) lets replicas behind a load balancer protect one
//! conversation together; all of them must hash with the same [`SessionKey`].
//!
//! A call is decided on a view of the state ([`SessionStore::view`]) and then commits what it
//! added together with what it read ([`SessionStore::commit`], a [`SessionReads`]): the store
//! writes the update only if what the call read is still so, and otherwise hands back the
//! current state, on which the call is rewritten again. A shared store can so serve the view
//! from a local copy and spend a single round trip per call, the commit, without ever letting
//! a call decided on stale state through. A store that fails makes the call fail under the
//! policy's fail mode (blocked by default).
//!
//! ```
//! use std::sync::Arc;
//! use std::time::Duration;
//! use toolminimize_core::{MemoryStore, Session, SessionStore};
//!
//! let store: Arc<dyn SessionStore> = Arc::new(MemoryStore::new(10_000, Duration::from_secs(3600)));
//! let a = Session::in_store("conversation-7", store.clone());
//! let b = Session::in_store("conversation-7", store.clone()); // the same conversation
//! assert_eq!(a.calls_seen(), b.calls_seen());
//! assert_eq!(store.stats().evicted, 0);
//! ```

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::hash::{BuildHasher, Hasher, RandomState};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use siphasher::sip::SipHasher13;

use crate::item::PsdKind;

/// Why a call in a session failed when its store could not be read or written (the text of
/// [`BlockReason::Internal`](crate::BlockReason::Internal) under fail-closed).
pub const STORE_UNAVAILABLE: &str = "session store unavailable";

/// Why a call in a session failed when the session kept changing under it (other calls of the
/// same session committing first, again and again).
pub const STORE_CONTENDED: &str = "session changed by other calls while minimizing";

/// Most placeholders a session remembers; past it, new values still get fresh placeholders
/// but later calls do not reuse them (the state stays bounded however long the conversation).
pub const MAX_PLACEHOLDERS: usize = 4096;

/// The secret key of the keyed hashes in session state (SipHash-1-3, 128 bits). Processes that
/// share a store must share the key; it never leaves the process except as configured.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct SessionKey([u64; 2]);

impl SessionKey {
    /// A key from 16 bytes (e.g. read from a secret file).
    pub fn from_bytes(bytes: [u8; 16]) -> Self {
        let mut lo = [0u8; 8];
        let mut hi = [0u8; 8];
        let (a, b) = bytes.split_at(8);
        lo.copy_from_slice(a);
        hi.copy_from_slice(b);
        SessionKey([u64::from_le_bytes(lo), u64::from_le_bytes(hi)])
    }

    /// A key from 32 hex digits (surrounding whitespace ignored), as a secret file may hold
    /// it (`openssl rand -hex 16`); `None` for anything else.
    ///
    /// ```
    /// use toolminimize_core::store::SessionKey;
    /// let k = SessionKey::from_hex("000102030405060708090a0b0c0d0e0f\n").unwrap();
    /// assert_eq!(k, SessionKey::from_bytes([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]));
    /// assert!(SessionKey::from_hex("0001").is_none());
    /// ```
    pub fn from_hex(text: &str) -> Option<Self> {
        let text = text.trim();
        if text.len() != 32 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let mut bytes = [0u8; 16];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
        }
        Some(SessionKey::from_bytes(bytes))
    }

    /// A fresh random key (from the standard library's randomly seeded hasher).
    pub fn random() -> Self {
        let s = RandomState::new();
        SessionKey([s.hash_one(1u8), s.hash_one(2u8)])
    }

    /// The keyed hash of `bytes`.
    pub fn hash(&self, bytes: &[u8]) -> u64 {
        let mut h = SipHasher13::new_with_keys(self.0[0], self.0[1]);
        h.write(bytes);
        h.finish()
    }
}

impl fmt::Debug for SessionKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SessionKey(..)")
    }
}

/// One session's state: counters and keyed hashes only. A store builds it from
/// [`Default`] and what it has kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SessionState {
    /// Calls minimized in the session.
    pub calls: u64,
    /// (placeholder class, keyed hash of the value) → placeholder number.
    pub placeholders: HashMap<(u8, u64), u32>,
    /// Placeholder class → how many numbers it has handed out.
    pub counts: BTreeMap<u8, u32>,
    /// Keyed hash of a tool name → the quasi-identifier kinds it has received.
    pub received: HashMap<u64, Vec<PsdKind>>,
}

/// What one call adds to its session's state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SessionUpdate {
    /// Placeholders handed out by the call.
    pub placeholders: Vec<((u8, u64), u32)>,
    /// The new count of each placeholder class the call used.
    pub counts: Vec<(u8, u32)>,
    /// Keyed hash of the tool's name.
    pub tool: u64,
    /// Quasi-identifier kinds the tool received in this call.
    pub sent: Vec<PsdKind>,
    /// Whether this is a minimized call (counted in [`SessionState::calls`]); `false` for
    /// state restored from elsewhere.
    pub call: bool,
}

impl SessionState {
    /// Adds a call's update.
    pub fn apply(&mut self, update: &SessionUpdate) {
        if update.call {
            self.calls += 1;
        }
        for &(k, n) in &update.placeholders {
            if self.placeholders.len() < MAX_PLACEHOLDERS {
                self.placeholders.entry(k).or_insert(n);
            }
        }
        for &(c, n) in &update.counts {
            let slot = self.counts.entry(c).or_insert(0);
            *slot = (*slot).max(n);
        }
        if !update.sent.is_empty() {
            let kinds = self.received.entry(update.tool).or_default();
            for k in &update.sent {
                if !kinds.contains(k) {
                    kinds.push(*k);
                }
            }
        }
    }
}

/// What a call's rewrite depended on in its session's state, checked when it commits: the
/// quasi-identifier kinds its tool had received (the linkability guard) and the placeholders
/// it reused or numbered on from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SessionReads {
    /// How many quasi-identifier kinds the call's tool ([`SessionUpdate::tool`]) had received.
    pub received: usize,
    /// Placeholders of earlier calls the call reused: (class, keyed hash) and number.
    pub found: Vec<((u8, u64), u32)>,
    /// For each placeholder class the call handed new numbers out in, the class's count before
    /// the call (the call's numbers follow it).
    pub counts: Vec<(u8, u32)>,
}

/// What became of a [`SessionStore::commit`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Commit {
    /// The update was added.
    Done,
    /// The session changed where the call had read it; nothing was written. This is its
    /// current state, to rewrite the call on.
    Changed(SessionState),
}

impl SessionState {
    /// Whether what a call read (for the tool hashed as `tool`) is still so in this state.
    pub fn still_matches(&self, tool: u64, reads: &SessionReads) -> bool {
        let received = self.received.get(&tool).map_or(0, Vec::len);
        received == reads.received
            && reads
                .found
                .iter()
                .all(|(k, n)| self.placeholders.get(k) == Some(n))
            && reads
                .counts
                .iter()
                .all(|(c, n)| self.counts.get(c).copied().unwrap_or(0) == *n)
    }
}

/// A store could not be read or written. The message names the store and the failure, never a
/// value.
///
/// ```
/// use toolminimize_core::store::StoreError;
/// let e = StoreError::new("redis read: connection refused");
/// assert_eq!(e.to_string(), "session store: redis read: connection refused");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError(String);

impl StoreError {
    /// An error with this message, which must not contain a value from any call.
    pub fn new(message: impl Into<String>) -> Self {
        StoreError(message.into())
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "session store: {}", self.0)
    }
}

impl std::error::Error for StoreError {}

/// What a store holds and has dropped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct StoreStats {
    /// Sessions held now (`None` when the store cannot say cheaply).
    pub sessions: Option<usize>,
    /// Sessions dropped to stay under the cap (least recently used first).
    pub evicted: u64,
    /// Sessions dropped because they were idle longer than the time to live.
    pub expired: u64,
}

/// Keeps session state. Implementations must be cheap per call: the engine asks for a
/// [`view`](SessionStore::view) before a call and [`commit`](SessionStore::commit)s after it.
pub trait SessionStore: Send + Sync + fmt::Debug {
    /// The key every hash in this store is made with.
    fn key(&self) -> SessionKey;

    /// The state of session `id` (empty when it is new or has expired).
    ///
    /// # Errors
    /// When the store cannot be read.
    fn load(&self, id: &str) -> Result<SessionState, StoreError>;

    /// Adds one call's update to session `id`, unconditionally.
    ///
    /// # Errors
    /// When the store cannot be written.
    fn save(&self, id: &str, update: &SessionUpdate) -> Result<(), StoreError>;

    /// The state to decide a call on. It may be stale (a local copy) when
    /// [`commit`](SessionStore::commit) checks what the call read; by default it is
    /// [`load`](SessionStore::load).
    ///
    /// # Errors
    /// When the store cannot be read.
    fn view(&self, id: &str) -> Result<SessionState, StoreError> {
        self.load(id)
    }

    /// Adds one call's update to session `id` if what the call read is still so (see
    /// [`SessionState::still_matches`]), atomically; otherwise writes nothing and returns the
    /// current state. By default it is [`save`](SessionStore::save), for stores whose view is
    /// never stale and whose sessions are not used by two calls at once.
    ///
    /// # Errors
    /// When the store cannot be read or written.
    fn commit(
        &self,
        id: &str,
        reads: &SessionReads,
        update: &SessionUpdate,
    ) -> Result<Commit, StoreError> {
        let _ = reads;
        self.save(id, update).map(|()| Commit::Done)
    }

    /// What the store holds and has dropped.
    fn stats(&self) -> StoreStats {
        StoreStats::default()
    }
}

/// The in-process store: at most `capacity` sessions (the least recently used is dropped to
/// make room), each dropped once idle for longer than `ttl`. Both are counted in
/// [`StoreStats`].
#[derive(Debug)]
pub struct MemoryStore {
    key: SessionKey,
    capacity: usize,
    ttl: Duration,
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    /// id → (state, last use tick, last use time).
    sessions: HashMap<String, (SessionState, u64, Instant)>,
    /// Last use tick → id, oldest first.
    order: BTreeMap<u64, String>,
    tick: u64,
    evicted: u64,
    expired: u64,
}

impl MemoryStore {
    /// A store of at most `capacity` sessions (at least 1), each kept while used within `ttl`.
    pub fn new(capacity: usize, ttl: Duration) -> Self {
        MemoryStore {
            key: SessionKey::random(),
            capacity: capacity.max(1),
            ttl,
            inner: Mutex::new(Inner::default()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // Maps and counters stay usable after a panic elsewhere.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds `update` to session `id`, making room (least recently used first) for a new one.
    fn write(&self, inner: &mut Inner, id: &str, update: &SessionUpdate, now: Instant) {
        inner.tick += 1;
        let tick = inner.tick;
        let previous = inner.sessions.get(id).map(|(_, t, _)| *t);
        match previous {
            Some(t) => {
                inner.order.remove(&t);
            }
            None => {
                while inner.sessions.len() >= self.capacity {
                    let Some((_, oldest)) = inner.order.pop_first() else {
                        break;
                    };
                    if inner.sessions.remove(&oldest).is_some() {
                        inner.evicted += 1;
                    }
                }
            }
        }
        inner.order.insert(tick, id.to_owned());
        let entry = inner
            .sessions
            .entry(id.to_owned())
            .or_insert_with(|| (SessionState::default(), tick, now));
        entry.0.apply(update);
        entry.1 = tick;
        entry.2 = now;
    }
}

impl Inner {
    /// Drops sessions idle for longer than `ttl`, oldest first (each at most once: linear
    /// over the life of the store).
    fn expire(&mut self, now: Instant, ttl: Duration) {
        while let Some((&tick, id)) = self.order.first_key_value() {
            let stale = self
                .sessions
                .get(id)
                .is_none_or(|(_, _, at)| now.saturating_duration_since(*at) > ttl);
            if !stale {
                break;
            }
            let id = id.clone();
            self.order.remove(&tick);
            if self.sessions.remove(&id).is_some() {
                self.expired += 1;
            }
        }
    }
}

impl SessionStore for MemoryStore {
    fn key(&self) -> SessionKey {
        self.key
    }

    fn load(&self, id: &str) -> Result<SessionState, StoreError> {
        let mut inner = self.lock();
        inner.expire(Instant::now(), self.ttl);
        Ok(inner
            .sessions
            .get(id)
            .map(|(s, _, _)| s.clone())
            .unwrap_or_default())
    }

    fn save(&self, id: &str, update: &SessionUpdate) -> Result<(), StoreError> {
        let now = Instant::now();
        let mut inner = self.lock();
        inner.expire(now, self.ttl);
        self.write(&mut inner, id, update, now);
        Ok(())
    }

    fn commit(
        &self,
        id: &str,
        reads: &SessionReads,
        update: &SessionUpdate,
    ) -> Result<Commit, StoreError> {
        let now = Instant::now();
        let mut inner = self.lock();
        inner.expire(now, self.ttl);
        if let Some((state, _, _)) = inner.sessions.get(id) {
            if !state.still_matches(update.tool, reads) {
                return Ok(Commit::Changed(state.clone()));
            }
        } else if !SessionState::default().still_matches(update.tool, reads) {
            return Ok(Commit::Changed(SessionState::default()));
        }
        self.write(&mut inner, id, update, now);
        Ok(Commit::Done)
    }

    fn stats(&self) -> StoreStats {
        let inner = self.lock();
        StoreStats {
            sessions: Some(inner.sessions.len()),
            evicted: inner.evicted,
            expired: inner.expired,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_call() -> SessionUpdate {
        SessionUpdate {
            placeholders: vec![((0, 7), 1)],
            counts: vec![(0, 1)],
            tool: 3,
            sent: vec![PsdKind::Postcode],
            call: true,
        }
    }

    #[test]
    fn the_least_recently_used_session_goes_first_and_is_counted() {
        let store = MemoryStore::new(2, Duration::from_secs(3600));
        store.save("a", &one_call()).unwrap();
        store.save("b", &one_call()).unwrap();
        store.save("a", &one_call()).unwrap(); // a is now the most recent
        store.save("c", &one_call()).unwrap(); // b goes
        assert_eq!(store.load("a").unwrap().calls, 2);
        assert_eq!(store.load("b").unwrap().calls, 0);
        let stats = store.stats();
        assert_eq!(
            (stats.sessions, stats.evicted, stats.expired),
            (Some(2), 1, 0)
        );
    }

    #[test]
    fn idle_sessions_expire_and_are_counted() {
        let store = MemoryStore::new(10, Duration::ZERO);
        store.save("a", &one_call()).unwrap();
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(store.load("a").unwrap(), SessionState::default());
        assert_eq!(store.stats().expired, 1);
        assert_eq!(store.stats().sessions, Some(0));
    }

    #[test]
    fn many_sessions_stay_under_the_cap() {
        let store = MemoryStore::new(1000, Duration::from_secs(3600));
        for i in 0..20_000 {
            store.save(&format!("s{i}"), &one_call()).unwrap();
        }
        let stats = store.stats();
        assert_eq!(stats.sessions, Some(1000));
        assert_eq!(stats.evicted, 19_000);
    }

    #[test]
    fn keys_hash_alike_only_when_equal_and_never_print() {
        let k = SessionKey::from_bytes([7; 16]);
        assert_eq!(k.hash(b"x"), SessionKey::from_bytes([7; 16]).hash(b"x"));
        assert_ne!(k.hash(b"x"), SessionKey::from_bytes([8; 16]).hash(b"x"));
        assert_eq!(format!("{k:?}"), "SessionKey(..)");
    }
}
