//! An HTTP gateway that minimizes tool calls before they reach a tool server.
//!
//! Run with
//!
//! ```text
//! cargo run --example http_gateway -- --upstream http://127.0.0.1:9000/tools/call \
//!     [--listen 127.0.0.1:8080] [--tools tools.json] [--policy policy.json] [--timeout-secs 30] \
//!     [--session-store redis://127.0.0.1:6379/ --session-key-file session.key]
//! ```
//!
//! then POST tool calls to `http://127.0.0.1:8080/tools/call`, MCP-style or OpenAI-style:
//!
//! ```text
//! curl -s localhost:8080/tools/call -H 'content-type: application/json' \
//!     -d '{"name": "web_search", "arguments": {"query": "pharmacies open now", "notes": "my SSN is 078-05-1120"}}'
//! ```
//!
//! `--tools` takes a JSON array of MCP or OpenAI tool definitions (or an MCP `tools/list`
//! result); tools it does not define are minimized with conservative defaults. `--policy` takes
//! a toolminimize policy as JSON. Calls that carry a `"session"` id share that conversation's
//! state; `--session-store redis://…` keeps it in Redis, so replicas behind a load balancer share
//! it (`--session-key-file` holds their common secret as 32 hex digits, e.g. from
//! `openssl rand -hex 16`; one round trip to Redis per call; Redis down → the policy's fail
//! mode, blocked by default). All the logic is in `toolminimize_tower::gateway` and
//! `toolminimize_redis`; this file only reads the command line.

use std::error::Error;
use std::sync::Arc;
use std::time::Duration;

use toolminimize::store::SessionKey;
use toolminimize::{Minimizer, Policy};
use toolminimize_redis::RedisStore;
use toolminimize_tower::ToolRegistry;
use toolminimize_tower::gateway::{CALL_PATH, Gateway};

const USAGE: &str = "usage: http_gateway --upstream URL [--listen ADDR] [--tools FILE] [--policy FILE] [--timeout-secs N] [--session-store redis://HOST:PORT/ --session-key-file FILE]";

struct Options {
    upstream: String,
    listen: String,
    tools: Option<String>,
    policy: Option<String>,
    timeout: Duration,
    session_store: Option<String>,
    session_key_file: Option<String>,
}

fn options() -> Result<Options, String> {
    let mut upstream = None;
    let mut listen = "127.0.0.1:8080".to_owned();
    let mut tools = None;
    let mut policy = None;
    let mut timeout = Duration::from_secs(30);
    let mut session_store = None;
    let mut session_key_file = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || {
            args.next()
                .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))
        };
        match flag.as_str() {
            "--upstream" => upstream = Some(value()?),
            "--listen" => listen = value()?,
            "--tools" => tools = Some(value()?),
            "--policy" => policy = Some(value()?),
            "--timeout-secs" => {
                let secs = value()?;
                let secs: u64 = secs
                    .parse()
                    .map_err(|_| format!("--timeout-secs: `{secs}` is not a number"))?;
                timeout = Duration::from_secs(secs);
            }
            "--session-store" => session_store = Some(value()?),
            "--session-key-file" => session_key_file = Some(value()?),
            "-h" | "--help" => return Err(USAGE.to_owned()),
            other => return Err(format!("unknown argument `{other}`\n{USAGE}")),
        }
    }
    let upstream = upstream.ok_or_else(|| format!("--upstream is required\n{USAGE}"))?;
    if session_store.is_some() != session_key_file.is_some() {
        return Err(format!(
            "--session-store and --session-key-file go together\n{USAGE}"
        ));
    }
    Ok(Options {
        upstream,
        listen,
        tools,
        policy,
        timeout,
        session_store,
        session_key_file,
    })
}

#[tokio::main]
async fn main() {
    let opts = match options() {
        Ok(o) => o,
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(2);
        }
    };
    if let Err(e) = run(opts).await {
        eprintln!("http_gateway: {e}");
        std::process::exit(1);
    }
}

async fn run(opts: Options) -> Result<(), Box<dyn Error + Send + Sync>> {
    let policy = match &opts.policy {
        Some(path) => Policy::from_json_str(&std::fs::read_to_string(path)?)?,
        None => Policy::default(),
    };
    let registry = match &opts.tools {
        Some(path) => {
            ToolRegistry::from_json(&serde_json::from_str(&std::fs::read_to_string(path)?)?)?
        }
        None => ToolRegistry::new(),
    };
    let minimizer = Minimizer::builder().policy(policy).build()?;
    let mut gateway = Gateway::new(&opts.upstream, minimizer)?
        .registry(registry)
        .timeout(opts.timeout);
    if let (Some(url), Some(key_file)) = (&opts.session_store, &opts.session_key_file) {
        let key = SessionKey::from_hex(&std::fs::read_to_string(key_file)?)
            .ok_or("--session-key-file: not a key of 32 hex digits")?;
        gateway = gateway.session_store(Arc::new(RedisStore::open(url, key)?));
    }

    let listener = tokio::net::TcpListener::bind(&opts.listen).await?;
    eprintln!(
        "minimizing tool calls on http://{}{CALL_PATH} -> {}",
        listener.local_addr()?,
        opts.upstream
    );
    gateway.serve(listener).await?;
    Ok(())
}
