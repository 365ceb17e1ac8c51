//! A Redis-backed [`SessionStore`] for toolminimize: gateways (or proxies) running as several
//! replicas behind a load balancer share one conversation's session state, so a value
//! dribbled out piece by piece across replicas is still caught.
//!
//! What is stored: per session, two keys named by a keyed hash of the session id (never the
//! id itself) — a hash of counters and of placeholder numbers keyed by keyed hashes of the
//! values they stand for, and a set of `tool-hash:kind` members (which kinds of
//! quasi-identifier a tool has received). No value, no tool name, no session id. Both keys
//! expire after the time to live, renewed by each call.
//!
//! Each call costs two round trips: one pipelined read before the call (`HGETALL` and
//! `SMEMBERS`) and one atomic pipelined write after it (`MULTI` … `EXEC`, with the `EXPIRE`s).
//! When Redis cannot be reached or answers with an error, the store says so and the call goes
//! through the policy's fail mode: blocked by default, nothing sent raw.
//!
//! All processes sharing a Redis must use the same [`SessionKey`] (16 secret bytes), or their
//! hashes will not meet.
//!
//! ```no_run
//! use std::sync::Arc;
//! use std::time::Duration;
//! use toolminimize_core::store::SessionKey;
//! use toolminimize_redis::RedisStore;
//!
//! # fn key_from_secret_file() -> [u8; 16] { [0; 16] }
//! let store = RedisStore::open(
//!     "redis://127.0.0.1:6379/",
//!     SessionKey::from_bytes(key_from_secret_file()),
//! )?
//! .ttl(Duration::from_secs(3600));
//! // e.g. `Gateway::new(upstream, minimizer)?.session_store(Arc::new(store))`
//! # let _ = Arc::new(store);
//! # Ok::<(), toolminimize_core::store::StoreError>(())
//! ```
#![forbid(unsafe_code)]
#![cfg_attr(
    test,
    allow(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use toolminimize_core::item::PsdKind;
use toolminimize_core::store::{
    SessionKey, SessionState, SessionStore, SessionUpdate, StoreError, StoreStats,
};

/// Prefix of every key this store writes.
pub const KEY_PREFIX: &str = "toolminimize:session:";

/// A session store in Redis (see the crate docs).
pub struct RedisStore {
    client: redis::Client,
    key: SessionKey,
    ttl: Duration,
    timeout: Duration,
    connection: Mutex<Option<redis::Connection>>,
}

impl fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The URL may hold a password: not printed.
        f.debug_struct("RedisStore")
            .field("ttl", &self.ttl)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

fn error(what: &str, e: &redis::RedisError) -> StoreError {
    // Redis errors name the failure (connection refused, timeout, wrong type), not our data.
    StoreError(format!("redis {what}: {}", e.kind_name()))
}

trait KindName {
    fn kind_name(&self) -> String;
}

impl KindName for redis::RedisError {
    fn kind_name(&self) -> String {
        if self.is_timeout() {
            "timed out".into()
        } else if self.is_connection_refusal() {
            "connection refused".into()
        } else if self.is_io_error() || self.is_connection_dropped() {
            "connection lost".into()
        } else {
            format!("{:?}", self.kind())
        }
    }
}

impl RedisStore {
    /// A store on the Redis at `url` (`redis://[:password@]host:port/db`), hashing with `key`.
    /// Connects lazily, on the first call, and again after a failure.
    ///
    /// # Errors
    /// When `url` is not a Redis URL.
    pub fn open(url: &str, key: SessionKey) -> Result<Self, StoreError> {
        let client =
            redis::Client::open(url).map_err(|_| StoreError("not a redis:// URL".into()))?;
        Ok(RedisStore {
            client,
            key,
            ttl: Duration::from_secs(3600),
            timeout: Duration::from_millis(500),
            connection: Mutex::new(None),
        })
    }

    /// How long an idle session is kept (default one hour; each call renews it).
    #[must_use]
    pub fn ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl.max(Duration::from_secs(1));
        self
    }

    /// How long one round trip may take before the call fails (default 500 ms).
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout.max(Duration::from_millis(1));
        self
    }

    fn keys(&self, id: &str) -> (String, String) {
        let h = self.key.hash(id.as_bytes());
        (
            format!("{KEY_PREFIX}{h:016x}:h"),
            format!("{KEY_PREFIX}{h:016x}:r"),
        )
    }

    /// Runs `f` on the connection, connecting first if needed; a failed connection is dropped
    /// so the next call connects afresh.
    fn with_connection<T>(
        &self,
        what: &str,
        f: impl FnOnce(&mut redis::Connection) -> redis::RedisResult<T>,
    ) -> Result<T, StoreError> {
        let mut slot: MutexGuard<'_, Option<redis::Connection>> = self
            .connection
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() {
            let con = self
                .client
                .get_connection_with_timeout(self.timeout)
                .map_err(|e| error("connect", &e))?;
            con.set_read_timeout(Some(self.timeout))
                .and_then(|()| con.set_write_timeout(Some(self.timeout)))
                .map_err(|e| error("connect", &e))?;
            *slot = Some(con);
        }
        let Some(con) = slot.as_mut() else {
            return Err(StoreError("redis: no connection".into()));
        };
        match f(con) {
            Ok(v) => Ok(v),
            Err(e) => {
                *slot = None;
                tracing::warn!(error = %e.kind_name(), "redis session store failed");
                Err(error(what, &e))
            }
        }
    }
}

fn parse_kind(name: &str) -> Option<PsdKind> {
    serde_json::from_value(serde_json::Value::String(name.to_owned())).ok()
}

fn kind_name(kind: PsdKind) -> Option<String> {
    match serde_json::to_value(kind).ok()? {
        serde_json::Value::String(s) => Some(s),
        _ => None,
    }
}

impl SessionStore for RedisStore {
    fn key(&self) -> SessionKey {
        self.key
    }

    fn load(&self, id: &str) -> Result<SessionState, StoreError> {
        let (hash_key, set_key) = self.keys(id);
        let (fields, members): (HashMap<String, u64>, Vec<String>) =
            self.with_connection("read", |con| {
                redis::pipe()
                    .hgetall(&hash_key)
                    .smembers(&set_key)
                    .query(con)
            })?;
        let mut state = SessionState::default();
        for (field, n) in fields {
            let mut parts = field.split(':');
            match (parts.next(), parts.next(), parts.next()) {
                (Some("calls"), None, None) => state.calls = n,
                (Some("count"), Some(class), None) => {
                    if let Ok(class) = class.parse::<u8>() {
                        state
                            .counts
                            .insert(class, u32::try_from(n).unwrap_or(u32::MAX));
                    }
                }
                (Some("ph"), Some(class), Some(hash)) => {
                    if let (Ok(class), Ok(hash)) =
                        (class.parse::<u8>(), u64::from_str_radix(hash, 16))
                    {
                        state
                            .placeholders
                            .insert((class, hash), u32::try_from(n).unwrap_or(u32::MAX));
                    }
                }
                _ => {}
            }
        }
        // A concurrent call of the same session may have written a lower count: a class's
        // count is at least the highest number it handed out.
        for (&(class, _), &n) in &state.placeholders {
            let count = state.counts.entry(class).or_insert(0);
            *count = (*count).max(n);
        }
        for m in members {
            if let Some((tool, kind)) = m.split_once(':')
                && let (Ok(tool), Some(kind)) = (u64::from_str_radix(tool, 16), parse_kind(kind))
            {
                let kinds = state.received.entry(tool).or_default();
                if !kinds.contains(&kind) {
                    kinds.push(kind);
                }
            }
        }
        Ok(state)
    }

    fn save(&self, id: &str, update: &SessionUpdate) -> Result<(), StoreError> {
        let (hash_key, set_key) = self.keys(id);
        let ttl = i64::try_from(self.ttl.as_secs()).unwrap_or(i64::MAX);
        let mut pipe = redis::pipe();
        pipe.atomic();
        pipe.hincr(&hash_key, "calls", 1).ignore();
        for ((class, hash), n) in &update.placeholders {
            pipe.hset_nx(&hash_key, format!("ph:{class}:{hash:016x}"), *n)
                .ignore();
        }
        for (class, n) in &update.counts {
            pipe.hset(&hash_key, format!("count:{class}"), *n).ignore();
        }
        let members: Vec<String> = update
            .sent
            .iter()
            .filter_map(|k| kind_name(*k))
            .map(|k| format!("{:016x}:{k}", update.tool))
            .collect();
        if !members.is_empty() {
            pipe.sadd(&set_key, members).ignore();
        }
        pipe.expire(&hash_key, ttl).ignore();
        pipe.expire(&set_key, ttl).ignore();
        self.with_connection("write", |con| pipe.query::<()>(con))
    }

    fn stats(&self) -> StoreStats {
        // Redis drops idle sessions itself (by their time to live); it does not count them.
        StoreStats::default()
    }
}
