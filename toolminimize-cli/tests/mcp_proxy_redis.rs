//! `toolminimize mcp-proxy --session-store redis://…`: proxy processes given the same Redis,
//! key and `--session-id` protect one conversation together (a fragment dribbled out through
//! a second proxy, or through the first one restarted, is still caught), and Redis going away
//! blocks calls in the session rather than sending them on. Starts a real `redis-server` on
//! loopback (Debian package; `.ci/setup-redis.sh` installs it) and skips, saying so, only when
//! it cannot be installed.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod mcp_common;

use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_common::{Proxy, RedisServer, fake_server, proxy_bin, recorded, scratch, start_redis};
use serde_json::{Value, json};

/// An invented key, as `openssl rand -hex 16` writes it.
fn key_file() -> PathBuf {
    let p = scratch("session.key");
    std::fs::write(&p, "5f0c2a9e41d7b3866e1f04a7c92d3b58\n").unwrap();
    p
}

/// A proxy in conversation `id`, sharing `redis`, in front of its own fake server.
fn proxy(redis: &RedisServer, key: &Path, id: &str) -> (Proxy, PathBuf) {
    let (server, record) = fake_server(&["--research-tool"]);
    let url = redis.url();
    let key = key.display().to_string();
    let mut p = Proxy::start(
        &[
            "--session-store",
            &url,
            "--session-key-file",
            &key,
            "--session-id",
            id,
        ],
        &server,
    );
    p.initialize();
    p.request("tools/list", json!({}));
    (p, record)
}

fn server_got(response: &Value) -> Value {
    response["result"]["structuredContent"]["received"].clone()
}

#[test]
fn proxies_share_a_conversation_through_redis_and_block_when_it_goes_away() {
    let Some(redis) = start_redis() else { return };
    let key = key_file();

    // The first proxy: the name goes where the schema asks for it.
    let (mut first, _) = proxy(&redis, &key, "conv-7");
    let r = first.call_tool(
        "ask_research_agent",
        json!({"question": "visa rules", "profile": "Ines Duarte"}),
    );
    assert_eq!(server_got(&r)["profile"], "Ines Duarte", "{r}");
    let (status, stderr, _) = first.wait();
    assert!(status.success(), "{stderr}");

    // Another proxy process (a replica, or the first restarted), same conversation: an
    // occupation would complete name + occupation at the tool that has the name.
    let (mut second, record) = proxy(&redis, &key, "conv-7");
    let r = second.call_tool(
        "ask_research_agent",
        json!({"question": "what does a pediatric nurse earn"}),
    );
    let q = server_got(&r)["question"].as_str().unwrap().to_owned();
    assert!(
        !q.contains("nurse"),
        "the second proxy forwarded the fragment: {q}"
    );

    // The control: another conversation, no history, keeps it.
    let (mut other, _) = proxy(&redis, &key, "conv-8");
    let r = other.call_tool(
        "ask_research_agent",
        json!({"question": "what does a pediatric nurse earn"}),
    );
    assert!(
        server_got(&r)["question"]
            .as_str()
            .unwrap()
            .contains("nurse"),
        "{r}"
    );

    // Redis goes away: a call in the session is answered with a tool error and not sent on.
    drop(redis);
    let r = second.call_tool(
        "ask_research_agent",
        json!({"question": "visa rules for someone born 1990-04-12"}),
    );
    assert_eq!(r["result"]["isError"], true, "{r}");
    let text = r["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("session store"), "{text}");
    assert!(!text.contains("1990"), "{text}");
    let lines = recorded(&record);
    assert!(
        !lines.iter().any(|l| l.contains("1990-04-12")),
        "sent on without its session: {lines:?}"
    );
    let (_, stderr, _) = second.wait();
    for value in ["Ines", "Duarte", "nurse", "1990", "conv-7"] {
        assert!(!stderr.contains(value), "{value} in stderr: {stderr}");
    }
}

#[test]
fn a_shared_store_needs_a_readable_key() {
    let run = |args: &[&str]| {
        let out = Command::new(proxy_bin())
            .arg("mcp-proxy")
            .args(args)
            .args(["--", "true"])
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let url = "redis://127.0.0.1:9/";
    let (code, err) = run(&["--session-store", url]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--session-key-file"), "{err}");
    let bad = scratch("bad.key");
    std::fs::write(&bad, "not-a-key-at-all").unwrap();
    let (code, err) = run(&[
        "--session-store",
        url,
        "--session-key-file",
        &bad.display().to_string(),
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("32 hex digits"), "{err}");
    assert!(!err.contains("not-a-key-at-all"), "{err}");
}
