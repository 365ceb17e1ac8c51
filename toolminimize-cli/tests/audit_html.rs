//! `toolminimize audit --html`: the page is self-contained, shows no argument value, and its
//! figures are those of `audit --json` — checked on the generated HTML and, when a headless
//! Chromium is available (`.ci/setup-chromium.sh` installs Debian's), on the DOM the browser
//! builds from it.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/calls.jsonl")
}

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("audit-html");
    std::fs::create_dir_all(&d).unwrap();
    d.join(format!("{}-{name}", std::process::id()))
}

/// The audit of the examples as JSON, and the page written with it.
fn audit_and_page() -> (Value, String, PathBuf) {
    let page = scratch("report.html");
    let out = Command::new(env!("CARGO_BIN_EXE_toolminimize"))
        .args(["audit", "--json", "--html"])
        .arg(&page)
        .arg(examples())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let html = std::fs::read_to_string(&page).unwrap();
    (json, html, page)
}

/// The text of the element carrying `data-metric="name"` (tags inside it dropped).
fn metric(html: &str, name: &str) -> String {
    let key = format!("data-metric=\"{name}\"");
    let at = html
        .find(&key)
        .unwrap_or_else(|| panic!("no {key} in the page"));
    let rest = &html[at..];
    let open_end = rest.find('>').unwrap();
    let body = &rest[open_end + 1..];
    let mut text = String::new();
    let mut depth_tag = false;
    for c in body.chars() {
        match c {
            '<' => {
                if text.is_empty() {
                    depth_tag = true;
                } else {
                    break;
                }
            }
            '>' if depth_tag => depth_tag = false,
            c if !depth_tag => text.push(c),
            _ => {}
        }
    }
    text.trim().to_owned()
}

fn pct(x: f64) -> String {
    format!("{:.1} %", x * 100.0)
}

/// Checks every headline figure of `page` (HTML source or a browser's DOM) against the JSON.
fn check_figures(page: &str, json: &Value) {
    let int = |k: &str| json[k].as_u64().unwrap().to_string();
    for k in [
        "calls",
        "calls_with_psd",
        "items",
        "unnecessary_items",
        "calls_changed",
    ] {
        assert_eq!(metric(page, k), int(k), "{k}");
    }
    assert_eq!(
        metric(page, "tools"),
        json["tools"].as_array().unwrap().len().to_string()
    );
    assert_eq!(
        metric(page, "cost_before"),
        format!("{:.1}", json["cost_before"].as_f64().unwrap())
    );
    assert_eq!(
        metric(page, "cost_after"),
        format!("{:.1}", json["cost_after"].as_f64().unwrap())
    );
    assert_eq!(
        metric(page, "reduction"),
        format!("(−{})", pct(json["reduction"].as_f64().unwrap()))
    );
    assert_eq!(
        metric(page, "leak_rate_before"),
        pct(json["leak_rate_before"].as_f64().unwrap())
    );
    assert_eq!(
        metric(page, "leak_rate_after"),
        pct(json["leak_rate_after"].as_f64().unwrap())
    );
    let s = &json["sessions"];
    for (m, k) in [
        ("sessions", "sessions"),
        (
            "sessions_with_linkable_fragments",
            "with_linkable_fragments",
        ),
        ("linkable_fragments", "linkable_fragments"),
        ("linkable_fragments_after", "linkable_fragments_after"),
    ] {
        assert_eq!(metric(page, m), s[k].as_u64().unwrap().to_string(), "{m}");
    }
    // Every category row and the costliest tools are there with their costs.
    for c in json["by_category"].as_array().unwrap() {
        let id = c["category"].as_str().unwrap();
        let row_at = page
            .find(&format!("data-category=\"{id}\""))
            .unwrap_or_else(|| panic!("no row for {id}"));
        let row = &page[row_at..row_at + page[row_at..].find("</tr>").unwrap()];
        assert!(
            row.contains(&format!(">{:.1}<", c["cost"].as_f64().unwrap())),
            "{id}: {row}"
        );
    }
    for t in json["tools"].as_array().unwrap().iter().take(5) {
        assert!(page.contains(t["tool"].as_str().unwrap()), "{t}");
    }
    for r in json["rules"].as_array().unwrap().iter().take(5) {
        assert!(page.contains(r["rule"].as_str().unwrap()), "{r}");
    }
}

fn strings(v: &Value, min: usize, out: &mut Vec<String>) {
    match v {
        Value::String(s) if s.chars().count() >= min => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, min, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, min, out)),
        _ => {}
    }
}

#[test]
fn the_page_is_self_contained_matches_the_json_and_shows_no_value() {
    let (json, html, _) = audit_and_page();
    check_figures(&html, &json);
    // Self-contained: no script, no stylesheet or image from elsewhere, no remote URL (the
    // SVG namespace is a name, never fetched).
    let lower = html.to_lowercase();
    for banned in [
        "<script", "<link", "<img", "src=", "url(", "@import", "<iframe",
    ] {
        assert!(!lower.contains(banned), "the page has {banned}");
    }
    let without_ns = lower.replace("http://www.w3.org/2000/svg", "");
    assert!(!without_ns.contains("http://") && !without_ns.contains("https://"));
    // No argument value appears on it.
    let mut values = Vec::new();
    for line in std::fs::read_to_string(examples()).unwrap().lines() {
        let call: Value = serde_json::from_str(line).unwrap();
        strings(&call["arguments"], 8, &mut values);
    }
    assert!(values.len() > 100);
    for v in &values {
        assert!(!html.contains(v.as_str()), "a raw value is on the page");
    }
    // Nor a session id (they may hold names): sessions are S1, S2, …
    assert!(!html.contains("weiss"));
}

/// A headless Chromium, installed by `.ci/setup-chromium.sh` when missing.
fn chromium() -> Result<PathBuf, String> {
    let find = || {
        std::env::var_os("CHROMIUM")
            .map(PathBuf::from)
            .into_iter()
            .chain(["chromium", "chromium-browser", "google-chrome"].map(PathBuf::from))
            .find(|b| {
                Command::new(b)
                    .arg("--version")
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .is_ok_and(|s| s.success())
            })
    };
    if let Some(b) = find() {
        return Ok(b);
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.ci/setup-chromium.sh");
    let status = Command::new("bash")
        .arg(&script)
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    if !status.success() {
        return Err(format!("{} could not install it", script.display()));
    }
    find().ok_or_else(|| "still no chromium on PATH after the setup script".into())
}

/// Runs Chromium headless on the page with `mode` (`--dump-dom` or `--screenshot=…`), with a
/// fresh profile, no network services, and a time limit.
fn headless(browser: &Path, page: &Path, mode: &str, tag: &str) -> String {
    let profile = scratch(&format!("profile-{tag}"));
    let _ = std::fs::remove_dir_all(&profile);
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            "--window-size=1050,3000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(mode)
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("chromium did not finish within 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = std::fs::remove_dir_all(&profile);
    reader.join().unwrap()
}

#[test]
fn a_headless_browser_renders_the_page_with_the_json_figures() {
    let browser = match chromium() {
        Ok(b) => b,
        Err(why) => {
            eprintln!(
                "SKIPPED: no headless Chromium ({why}); the page was checked without a browser only"
            );
            return;
        }
    };
    let (json, _, page) = audit_and_page();
    let dom = headless(&browser, &page, "--dump-dom", "dom");
    assert!(dom.contains("</html>"), "no DOM from chromium");
    check_figures(&dom, &json);
    // Both charts are laid out as SVG in the rendered DOM.
    assert!(dom.matches("<svg").count() >= 3);
    let png = scratch("report.png");
    let _ = std::fs::remove_file(&png);
    headless(
        &browser,
        &page,
        &format!("--screenshot={}", png.display()),
        "png",
    );
    let bytes = std::fs::read(&png).unwrap();
    assert!(
        bytes.starts_with(b"\x89PNG") && bytes.len() > 20_000,
        "{} bytes",
        bytes.len()
    );
}
