//! A Redis-backed [`SessionStore`] for toolminimize: gateways (or proxies) running as several
//! replicas behind a load balancer share one conversation's session state, so a value
//! dribbled out piece by piece across replicas is still caught.
//!
//! What is stored: per session, one Redis hash named by a keyed hash of the session id (never
//! the id itself), holding counters, placeholder numbers keyed by keyed hashes of the values
//! they stand for, and which kinds of quasi-identifier each tool (by keyed hash) has received.
//! No value, no tool name, no session id. The key expires after the time to live, renewed by
//! each call.
//!
//! Each call costs one round trip. The call is decided on this process's copy of the session
//! (empty for a session it has not seen), and then a Lua script (`EVALSHA`, falling back to
//! `EVAL` when the server does not have the script yet) checks, atomically, that what the call
//! read — the kinds its tool had received, the placeholders it reused, the counts it numbered
//! on from — still holds in Redis, and only then adds the call's update. When another replica
//! changed any of that, the script writes nothing and returns the session's current state; the
//! call is rewritten on it and commits again (a second round trip, only then). A call decided
//! on a stale copy is so never let through.
//!
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
//! .ttl(Duration::from_secs(3600))
//! .cached_sessions(4096);
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

use redis::{ErrorKind, ServerErrorKind, Value};
use toolminimize_core::PsdKind;
use toolminimize_core::store::{
    Commit, MAX_PLACEHOLDERS, SessionKey, SessionReads, SessionState, SessionStore, SessionUpdate,
    StoreError, StoreStats,
};

/// Prefix of every key this store writes.
pub const KEY_PREFIX: &str = "toolminimize:session:";

/// The script each call runs: checks what the call read (unless told not to), and adds the
/// update only when it still holds; otherwise returns the session's hash as it is.
///
/// `KEYS[1]` the session's hash. `ARGV`: time to live (s), most placeholders, tool hash,
/// `1` when the update is a call, the number of kinds the tool had received (`-` to skip the
/// checks), then lists, each its length followed by its items: placeholders found (field,
/// number), counts numbered on from (class, count), placeholders added (field, number),
/// counts (class, count), kinds sent.
const SCRIPT: &str = r"
local key = KEYS[1]
local tool = ARGV[3]
local i = 6
local ok = true
if ARGV[5] ~= '-' and tonumber(redis.call('HGET', key, 'rxn:' .. tool) or '0') ~= tonumber(ARGV[5]) then
  ok = false
end
local n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do
  if ok and redis.call('HGET', key, ARGV[i]) ~= ARGV[i + 1] then ok = false end
  i = i + 2
end
n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do
  if ok and tonumber(redis.call('HGET', key, 'count:' .. ARGV[i]) or '0') ~= tonumber(ARGV[i + 1]) then
    ok = false
  end
  i = i + 2
end
if not ok then
  return redis.call('HGETALL', key)
end
if ARGV[4] == '1' then redis.call('HINCRBY', key, 'calls', 1) end
local max = tonumber(ARGV[2])
n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do
  if tonumber(redis.call('HGET', key, 'phn') or '0') < max
    and redis.call('HSETNX', key, ARGV[i], ARGV[i + 1]) == 1 then
    redis.call('HINCRBY', key, 'phn', 1)
  end
  i = i + 2
end
n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do
  local field = 'count:' .. ARGV[i]
  if tonumber(redis.call('HGET', key, field) or '0') < tonumber(ARGV[i + 1]) then
    redis.call('HSET', key, field, ARGV[i + 1])
  end
  i = i + 2
end
n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do
  if redis.call('HSETNX', key, 'rx:' .. tool .. ':' .. ARGV[i], 1) == 1 then
    redis.call('HINCRBY', key, 'rxn:' .. tool, 1)
  end
  i = i + 1
end
redis.call('EXPIRE', key, tonumber(ARGV[1]))
return 1
";

/// A session store in Redis (see the crate docs).
pub struct RedisStore {
    client: redis::Client,
    key: SessionKey,
    ttl: Duration,
    timeout: Duration,
    sha: String,
    connection: Mutex<Option<redis::Connection>>,
    cache: Mutex<Cache>,
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

/// This process's copies of sessions, by keyed hash of the id: at most `capacity`, in two
/// generations (a session used since the last turn-over is kept, the others go together).
/// Only ever a starting point: every commit checks it against Redis.
#[derive(Debug, Default)]
struct Cache {
    capacity: usize,
    young: HashMap<u64, SessionState>,
    old: HashMap<u64, SessionState>,
}

impl Cache {
    fn get(&mut self, id: u64) -> Option<SessionState> {
        if let Some(s) = self.young.get(&id) {
            return Some(s.clone());
        }
        let s = self.old.remove(&id)?;
        self.put(id, s.clone());
        Some(s)
    }

    fn put(&mut self, id: u64, state: SessionState) {
        if self.capacity == 0 {
            return;
        }
        if !self.young.contains_key(&id) && self.young.len() >= self.capacity.div_ceil(2) {
            self.old = std::mem::take(&mut self.young);
        }
        self.old.remove(&id);
        self.young.insert(id, state);
    }

    fn apply(&mut self, id: u64, update: &SessionUpdate) {
        let mut state = self.get(id).unwrap_or_default();
        state.apply(update);
        self.put(id, state);
    }

    fn forget(&mut self, id: u64) {
        self.young.remove(&id);
        self.old.remove(&id);
    }
}

fn error(what: &str, e: &redis::RedisError) -> StoreError {
    // Redis errors name the failure (connection refused, timeout, wrong type), not our data.
    StoreError::new(format!("redis {what}: {}", e.kind_name()))
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
        let client = redis::Client::open(url).map_err(|_| StoreError::new("not a redis:// URL"))?;
        Ok(RedisStore {
            client,
            key,
            ttl: Duration::from_secs(3600),
            timeout: Duration::from_millis(500),
            sha: redis::Script::new(SCRIPT).get_hash().to_owned(),
            connection: Mutex::new(None),
            cache: Mutex::new(Cache {
                capacity: 1024,
                ..Cache::default()
            }),
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

    /// How many sessions this process keeps a copy of, to decide calls on without a round
    /// trip (default 1024; 0 keeps none, and a call on a session with history then takes
    /// two round trips).
    #[must_use]
    pub fn cached_sessions(self, sessions: usize) -> Self {
        let mut cache = self.cache();
        *cache = Cache {
            capacity: sessions,
            ..Cache::default()
        };
        drop(cache);
        self
    }

    fn cache(&self) -> MutexGuard<'_, Cache> {
        // The copies are only a starting point; a poisoned lock leaves them usable.
        self.cache.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The keyed hash of a session id, and the name of its Redis hash.
    fn key_of(&self, id: &str) -> (u64, String) {
        let h = self.key.hash(id.as_bytes());
        (h, format!("{KEY_PREFIX}{h:016x}"))
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
            return Err(StoreError::new("redis: no connection"));
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

    /// Runs the script for one update (checked against `reads` when given): one round trip,
    /// two when the server does not have the script yet.
    fn run(
        &self,
        id: &str,
        reads: Option<&SessionReads>,
        update: &SessionUpdate,
    ) -> Result<Commit, StoreError> {
        let (h, key) = self.key_of(id);
        let args = script_args(self.ttl, reads, update);
        let reply: Result<Value, StoreError> = self.with_connection("write", |con| {
            let evalsha = redis::cmd("EVALSHA")
                .arg(&self.sha)
                .arg(1)
                .arg(&key)
                .arg(&args)
                .query::<Value>(con);
            match evalsha {
                Err(e) if e.kind() == ErrorKind::Server(ServerErrorKind::NoScript) => {
                    // EVAL runs the script and leaves it on the server for the next EVALSHA.
                    redis::cmd("EVAL")
                        .arg(SCRIPT)
                        .arg(1)
                        .arg(&key)
                        .arg(&args)
                        .query(con)
                }
                other => other,
            }
        });
        let reply = match reply {
            Ok(r) => r,
            Err(e) => {
                self.cache().forget(h);
                return Err(e);
            }
        };
        match reply {
            Value::Int(1) => {
                self.cache().apply(h, update);
                Ok(Commit::Done)
            }
            Value::Array(fields) => {
                let state = parse_state(&fields);
                self.cache().put(h, state.clone());
                Ok(Commit::Changed(state))
            }
            _ => {
                self.cache().forget(h);
                Err(StoreError::new("redis write: unexpected reply"))
            }
        }
    }
}

/// The script's arguments (see [`SCRIPT`]).
fn script_args(ttl: Duration, reads: Option<&SessionReads>, update: &SessionUpdate) -> Vec<String> {
    let ph = |((class, hash), _): &((u8, u64), u32)| format!("ph:{class}:{hash:016x}");
    let mut args = vec![
        ttl.as_secs().max(1).to_string(),
        MAX_PLACEHOLDERS.to_string(),
        format!("{:016x}", update.tool),
        if update.call { "1" } else { "0" }.to_owned(),
        reads.map_or_else(|| "-".to_owned(), |r| r.received.to_string()),
    ];
    let empty = SessionReads::default();
    let reads = reads.unwrap_or(&empty);
    args.push(reads.found.len().to_string());
    for p in &reads.found {
        args.push(ph(p));
        args.push(p.1.to_string());
    }
    args.push(reads.counts.len().to_string());
    for (class, n) in &reads.counts {
        args.push(class.to_string());
        args.push(n.to_string());
    }
    args.push(update.placeholders.len().to_string());
    for p in &update.placeholders {
        args.push(ph(p));
        args.push(p.1.to_string());
    }
    args.push(update.counts.len().to_string());
    for (class, n) in &update.counts {
        args.push(class.to_string());
        args.push(n.to_string());
    }
    let kinds: Vec<String> = update.sent.iter().filter_map(|k| kind_name(*k)).collect();
    args.push(kinds.len().to_string());
    args.extend(kinds);
    args
}

fn text(v: &Value) -> Option<&str> {
    match v {
        Value::BulkString(b) => std::str::from_utf8(b).ok(),
        Value::SimpleString(s) => Some(s),
        _ => None,
    }
}

/// A session's state from its hash, as `HGETALL` returns it (field, value, field, value, …).
fn parse_state(fields: &[Value]) -> SessionState {
    let mut state = SessionState::default();
    for pair in fields.chunks_exact(2) {
        let (Some(field), Some(value)) = (
            pair.first().and_then(text),
            pair.get(1)
                .and_then(text)
                .and_then(|v| v.parse::<u64>().ok()),
        ) else {
            continue;
        };
        let n32 = u32::try_from(value).unwrap_or(u32::MAX);
        let mut parts = field.split(':');
        match (parts.next(), parts.next(), parts.next(), parts.next()) {
            (Some("calls"), None, None, None) => state.calls = value,
            (Some("count"), Some(class), None, None) => {
                if let Ok(class) = class.parse::<u8>() {
                    state.counts.insert(class, n32);
                }
            }
            (Some("ph"), Some(class), Some(hash), None) => {
                if let (Ok(class), Ok(hash)) = (class.parse::<u8>(), u64::from_str_radix(hash, 16))
                {
                    state.placeholders.insert((class, hash), n32);
                }
            }
            (Some("rx"), Some(tool), Some(kind), None) => {
                if let (Ok(tool), Some(kind)) = (u64::from_str_radix(tool, 16), parse_kind(kind)) {
                    let kinds = state.received.entry(tool).or_default();
                    if !kinds.contains(&kind) {
                        kinds.push(kind);
                    }
                }
            }
            _ => {}
        }
    }
    state
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

    /// The session as Redis holds it now (one round trip); the local copy is refreshed.
    fn load(&self, id: &str) -> Result<SessionState, StoreError> {
        let (h, key) = self.key_of(id);
        let fields: Value =
            self.with_connection("read", |con| redis::cmd("HGETALL").arg(&key).query(con))?;
        let state = match fields {
            Value::Array(fields) => parse_state(&fields),
            Value::Map(pairs) => parse_state(
                &pairs
                    .into_iter()
                    .flat_map(|(k, v)| [k, v])
                    .collect::<Vec<_>>(),
            ),
            _ => return Err(StoreError::new("redis read: unexpected reply")),
        };
        self.cache().put(h, state.clone());
        Ok(state)
    }

    /// This process's copy of the session, without a round trip (empty for a session it has
    /// not seen); [`commit`](SessionStore::commit) checks it.
    fn view(&self, id: &str) -> Result<SessionState, StoreError> {
        let (h, _) = self.key_of(id);
        Ok(self.cache().get(h).unwrap_or_default())
    }

    fn save(&self, id: &str, update: &SessionUpdate) -> Result<(), StoreError> {
        self.run(id, None, update).map(|_| ())
    }

    fn commit(
        &self,
        id: &str,
        reads: &SessionReads,
        update: &SessionUpdate,
    ) -> Result<Commit, StoreError> {
        self.run(id, Some(reads), update)
    }

    fn stats(&self) -> StoreStats {
        // Redis drops idle sessions itself (by their time to live); it does not count them.
        StoreStats::default()
    }
}
