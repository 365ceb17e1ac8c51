//! Options shared by the subcommands: policy file, strict mode, default exposure; a shared
//! session store.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args as ClapArgs;
use toolminimize_core::store::SessionKey;
use toolminimize_core::{Exposure, Minimizer, Policy, SessionStore};

/// Policy options.
#[derive(Debug, Clone, ClapArgs)]
pub(crate) struct PolicyArgs {
    /// A policy file (JSON) with any of: "strict", "fail_mode" ("closed" blocks a call the
    /// pipeline fails on, "open" forwards it), "exposure" (tool name → exposure),
    /// "default_exposure", "allowed_actions", "allow" (terms never reported), "deny" (terms
    /// always reported, with a category), "block" (tools to block, or a cost limit after
    /// rewriting), "honour_task_context". Unknown keys are rejected.
    #[arg(long, value_name = "FILE")]
    pub(crate) policy: Option<PathBuf>,
    /// Treat every detected item as unnecessary, whatever the schema says: everything
    /// sensitive is rewritten. Overrides the policy file's "strict".
    #[arg(long)]
    pub(crate) strict: bool,
    /// Exposure of calls that declare none (neither on the line nor as `x-exposure` in the
    /// tool's schema): first_party (weight 1), third_party or unknown (weight 2).
    /// Overrides the policy file's "default_exposure".
    #[arg(long, value_name = "EXPOSURE", value_parser = parse_exposure)]
    pub(crate) default_exposure: Option<Exposure>,
}

fn parse_exposure(s: &str) -> Result<Exposure, String> {
    s.parse()
        .map_err(|e: toolminimize_core::UnknownId| e.to_string())
}

impl PolicyArgs {
    /// Builds the minimizer these options describe.
    pub(crate) fn minimizer(&self) -> Result<Minimizer, String> {
        self.build(true)
    }

    /// The minimizer of a process that minimizes one call and exits: nothing is compiled on
    /// background threads ahead of the call (see `MinimizerBuilder::warm_up`).
    pub(crate) fn one_shot_minimizer(&self) -> Result<Minimizer, String> {
        self.build(false)
    }

    fn build(&self, warm_up: bool) -> Result<Minimizer, String> {
        let mut policy = match &self.policy {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read policy {}: {e}", path.display()))?;
                Policy::from_json_str(&text).map_err(|e| format!("{}: {e}", path.display()))?
            }
            None => Policy::default(),
        };
        if self.strict {
            policy = policy.with_strict(true);
        }
        if let Some(e) = self.default_exposure {
            policy = policy.with_default_exposure(e);
        }
        Minimizer::builder()
            .policy(policy)
            .warm_up(warm_up)
            .build()
            .map_err(|e| e.to_string())
    }
}

/// Where sessions live when several processes share them.
#[derive(Debug, Clone, ClapArgs)]
pub(crate) struct SessionStoreArgs {
    /// Keep session state in Redis (`redis://[:PASSWORD@]HOST:PORT/DB`), shared with every
    /// process that uses the same Redis, --session-key-file and session id: keyed hashes and
    /// counters only, never a value; one round trip per call. `${VAR}` in the URL is replaced
    /// by the environment variable VAR (for the password). When Redis cannot be reached, calls
    /// in a session go through the policy's fail mode (blocked by default). Without it,
    /// sessions live in this process.
    #[arg(long, value_name = "URL", requires = "session_key_file")]
    pub(crate) session_store: Option<String>,
    /// The secret of the keyed hashes in the shared session store: 32 hex digits in FILE
    /// (e.g. `openssl rand -hex 16 > session.key`), the same for every process sharing it.
    #[arg(long, value_name = "FILE", requires = "session_store")]
    pub(crate) session_key_file: Option<PathBuf>,
    /// How long Redis keeps an idle session (e.g. 1h, 30m); each call renews it.
    #[arg(long, value_name = "DURATION", default_value = "1h", value_parser = parse_duration, requires = "session_store")]
    pub(crate) session_ttl: std::time::Duration,
}

fn parse_duration(s: &str) -> Result<std::time::Duration, String> {
    humantime::parse_duration(s).map_err(|e| format!("`{s}` is not a duration: {e}"))
}

impl SessionStoreArgs {
    /// The shared store these options name, or `None` for in-process sessions.
    pub(crate) fn open(&self) -> Result<Option<Arc<dyn SessionStore>>, String> {
        let (Some(url), Some(key_file)) = (&self.session_store, &self.session_key_file) else {
            return Ok(None);
        };
        let text = std::fs::read_to_string(key_file).map_err(|e| {
            format!(
                "--session-key-file: cannot read {}: {}",
                key_file.display(),
                e.kind()
            )
        })?;
        let key = SessionKey::from_hex(&text).ok_or_else(|| {
            format!(
                "--session-key-file: {} does not hold a key of 32 hex digits",
                key_file.display()
            )
        })?;
        let url = expand_env("--session-store", url)?;
        open_store(&url, key, self.session_ttl)
    }
}

#[cfg(feature = "redis")]
fn open_store(
    url: &str,
    key: SessionKey,
    ttl: std::time::Duration,
) -> Result<Option<Arc<dyn SessionStore>>, String> {
    let store = toolminimize_redis::RedisStore::open(url, key)
        .map_err(|e| format!("--session-store: {e}"))?
        .ttl(ttl);
    // A first round trip, so a Redis that cannot be reached is said at start; calls are then
    // blocked (fail-closed) until it can.
    if let Err(e) = store.load("") {
        eprintln!("toolminimize: {e}; calls in a session follow the fail mode until it answers");
    }
    Ok(Some(Arc::new(store)))
}

#[cfg(not(feature = "redis"))]
fn open_store(
    _url: &str,
    _key: SessionKey,
    _ttl: std::time::Duration,
) -> Result<Option<Arc<dyn SessionStore>>, String> {
    Err("this build has no Redis support (cargo feature `redis`)".to_owned())
}

/// Replaces `${VAR}` with the environment variable VAR; errors name `flag`, never a value.
pub(crate) fn expand_env(flag: &str, value: &str) -> Result<String, String> {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(rest.get(..start).unwrap_or_default());
        let after = rest.get(start + 2..).unwrap_or_default();
        let end = after
            .find('}')
            .ok_or_else(|| format!("{flag}: `${{` without a closing `}}`"))?;
        let var = after.get(..end).unwrap_or_default();
        let v = std::env::var(var)
            .map_err(|_| format!("{flag}: the environment variable {var} is not set"))?;
        out.push_str(&v);
        rest = after.get(end + 1..).unwrap_or_default();
    }
    out.push_str(rest);
    Ok(out)
}
