//! A small on-disk store that carries a conversation's linkability state from one hook process
//! to the next: per session, per tool, the kinds of quasi-identifier (name, date of birth,
//! postcode, …) the tool has already received. Kinds only, never values; sessions and tools
//! are stored under keyed hashes (SHA-256 of a random per-store key and the name).
//!
//! The file is JSON: `{"version": 1, "key": "<hex>", "sessions": {"<hash>": {"updated": t,
//! "tools": {"<hash>": ["person_name", …]}}}}`. It is bounded ([`MAX_SESSIONS`] sessions,
//! [`MAX_TOOLS`] tools each, sessions idle for [`TTL_SECS`] dropped). Updates take an exclusive
//! lock on `<file>.lock`, re-read, merge (a set union, so concurrent hooks lose nothing) and
//! replace the file atomically; the file is created with mode 0600.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use toolminimize_core::PsdKind;

use crate::schema_cache::write_atomically;

/// Environment variable naming the store file.
pub(crate) const ENV_FILE: &str = "TOOLMINIMIZE_SESSION_STORE";
/// Most sessions kept (the least recently updated go first).
pub(crate) const MAX_SESSIONS: usize = 2048;
/// Most tools kept per session.
pub(crate) const MAX_TOOLS: usize = 256;
/// Sessions not updated for this long are dropped (7 days).
pub(crate) const TTL_SECS: u64 = 7 * 24 * 3600;
/// Largest store file read.
const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The kinds a restored kind name can be: every kind that is a quasi-identifier.
pub(crate) fn kind_from_name(name: &str) -> Option<PsdKind> {
    PsdKind::from_name(name).filter(|k| k.is_quasi_identifier())
}

/// The store file: `explicit`, else the environment, else `$XDG_STATE_HOME/toolminimize/`,
/// else `$HOME/.local/state/toolminimize/`.
pub(crate) fn resolve_path(explicit: Option<&Path>) -> Option<PathBuf> {
    if let Some(p) = explicit {
        return Some(p.to_path_buf());
    }
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    env(ENV_FILE)
        .or_else(|| env("XDG_STATE_HOME").map(|d| d.join("toolminimize")))
        .or_else(|| env("HOME").map(|h| h.join(".local").join("state").join("toolminimize")))
        .map(|p| {
            if p.extension().is_some_and(|e| e == "json") {
                p
            } else {
                p.join("hook-sessions.json")
            }
        })
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Doc {
    version: u32,
    key: String,
    sessions: BTreeMap<String, Entry>,
}

#[derive(Debug, Default, Clone, Serialize, Deserialize)]
struct Entry {
    updated: u64,
    tools: BTreeMap<String, Vec<String>>,
}

/// The store.
#[derive(Debug, Clone)]
pub(crate) struct SessionStore {
    path: PathBuf,
}

impl SessionStore {
    pub(crate) fn new(path: PathBuf) -> Self {
        SessionStore { path }
    }

    /// The kinds `tool` received earlier in `session` (empty when unknown or unreadable).
    pub(crate) fn received(&self, session: &str, tool: &str) -> Vec<PsdKind> {
        let Some(doc) = self.read() else {
            return Vec::new();
        };
        let Some(key) = decode_key(&doc.key) else {
            return Vec::new();
        };
        doc.sessions
            .get(&keyed(&key, "session", session))
            .and_then(|e| e.tools.get(&keyed(&key, "tool", tool)))
            .map(|names| names.iter().filter_map(|n| kind_from_name(n)).collect())
            .unwrap_or_default()
    }

    /// Adds `kinds` to what `tool` received in `session`.
    ///
    /// # Errors
    /// When the store cannot be locked or written.
    pub(crate) fn record(
        &self,
        session: &str,
        tool: &str,
        kinds: &[PsdKind],
    ) -> Result<(), String> {
        let dir = self.path.parent().unwrap_or_else(|| Path::new("."));
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let lock_path = self.path.with_extension("json.lock");
        let lock = private_file(&lock_path)
            .map_err(|e| format!("cannot open {}: {e}", lock_path.display()))?;
        lock.lock()
            .map_err(|e| format!("cannot lock {}: {e}", lock_path.display()))?;
        let mut doc = self.read().unwrap_or_default();
        let key = match decode_key(&doc.key) {
            Some(k) => k,
            None => {
                let mut k = [0u8; 32];
                getrandom::fill(&mut k).map_err(|e| format!("no randomness for the key: {e}"))?;
                doc = Doc {
                    version: 1,
                    key: hex(&k),
                    sessions: BTreeMap::new(),
                };
                k
            }
        };
        let now = unix_now();
        doc.sessions
            .retain(|_, e| now.saturating_sub(e.updated) <= TTL_SECS);
        let entry = doc
            .sessions
            .entry(keyed(&key, "session", session))
            .or_default();
        entry.updated = now;
        let tool_key = keyed(&key, "tool", tool);
        if entry.tools.len() < MAX_TOOLS || entry.tools.contains_key(&tool_key) {
            let have = entry.tools.entry(tool_key).or_default();
            for k in kinds.iter().filter(|k| k.is_quasi_identifier()) {
                let name = k.name();
                if !have.contains(&name) {
                    have.push(name);
                }
            }
        }
        while doc.sessions.len() > MAX_SESSIONS {
            let oldest = doc
                .sessions
                .iter()
                .min_by_key(|(_, e)| e.updated)
                .map(|(k, _)| k.clone());
            match oldest {
                Some(k) => doc.sessions.remove(&k),
                None => break,
            };
        }
        let bytes = serde_json::to_vec(&doc).map_err(|e| e.to_string())?;
        write_private_atomically(&self.path, &bytes)?;
        drop(lock);
        Ok(())
    }

    fn read(&self) -> Option<Doc> {
        let mut text = String::new();
        File::open(&self.path)
            .ok()?
            .take(MAX_FILE_BYTES)
            .read_to_string(&mut text)
            .ok()?;
        serde_json::from_str(&text).ok()
    }
}

fn private_file(path: &Path) -> std::io::Result<File> {
    let mut o = OpenOptions::new();
    o.create(true).truncate(false).write(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600);
    }
    o.open(path)
}

fn write_private_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    write_atomically(path, bytes)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = fs::set_permissions(path, fs::Permissions::from_mode(0o600));
    }
    Ok(())
}

fn keyed(key: &[u8; 32], domain: &str, name: &str) -> String {
    let mut h = Sha256::new();
    h.update(key);
    h.update(domain.as_bytes());
    h.update([0]);
    h.update(name.as_bytes());
    let d = h.finalize();
    hex(d.get(..16).unwrap_or(&[]))
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

fn decode_key(s: &str) -> Option<[u8; 32]> {
    if s.len() != 64 || !s.is_ascii() {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, slot) in out.iter_mut().enumerate() {
        *slot = u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "toolminimize-session-store-{tag}-{}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&d);
        d.join("s.json")
    }

    #[test]
    fn records_and_restores_kinds_under_keyed_hashes() {
        let path = tmp("rt");
        let store = SessionStore::new(path.clone());
        assert!(store.received("conv-a", "WebSearch").is_empty());
        store
            .record(
                "conv-a",
                "WebSearch",
                &[PsdKind::PersonName, PsdKind::Condition],
            )
            .unwrap();
        store
            .record("conv-a", "WebSearch", &[PsdKind::Postcode])
            .unwrap();
        assert_eq!(
            store.received("conv-a", "WebSearch"),
            vec![PsdKind::PersonName, PsdKind::Postcode]
        );
        assert!(store.received("conv-b", "WebSearch").is_empty());
        assert!(store.received("conv-a", "WebFetch").is_empty());
        let text = fs::read_to_string(&path).unwrap();
        assert!(
            !text.contains("conv-a") && !text.contains("WebSearch"),
            "{text}"
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let _ = fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn concurrent_writers_lose_nothing() {
        let path = tmp("conc");
        let store = SessionStore::new(path.clone());
        let kinds = [
            PsdKind::PersonName,
            PsdKind::DateOfBirth,
            PsdKind::Postcode,
            PsdKind::Gender,
        ];
        std::thread::scope(|s| {
            for (i, k) in kinds.iter().enumerate() {
                let store = store.clone();
                s.spawn(move || {
                    for _ in 0..10 {
                        store.record("c", "t", &[*k]).unwrap();
                        store.record(&format!("other-{i}"), "t", &[*k]).unwrap();
                    }
                });
            }
        });
        let mut got = store.received("c", "t");
        got.sort();
        let mut want = kinds.to_vec();
        want.sort();
        assert_eq!(got, want);
        let _ = fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn a_corrupt_file_is_replaced_not_fatal() {
        let path = tmp("corrupt");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, b"{not json").unwrap();
        let store = SessionStore::new(path.clone());
        assert!(store.received("c", "t").is_empty());
        store.record("c", "t", &[PsdKind::Age]).unwrap();
        assert_eq!(store.received("c", "t"), vec![PsdKind::Age]);
        let _ = fs::remove_dir_all(path.parent().unwrap());
    }
}
