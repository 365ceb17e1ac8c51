//! The local schema cache: the input schemas of MCP tools, one JSON file per server, so that
//! `toolminimize hook` can minimize `mcp__<server>__<tool>` calls with the tool's real schema.
//!
//! Filled by `toolminimize mcp-proxy --server-name NAME` from every `tools/list` result it
//! sees, and by hand with `toolminimize schemas import FILE --server NAME`.
//!
//! Where: `--schema-cache DIR`, else `$TOOLMINIMIZE_SCHEMA_CACHE`, else
//! `$XDG_CACHE_HOME/toolminimize/schemas`, else `$HOME/.cache/toolminimize/schemas`. One file
//! `<server>.json` a server, holding `{"server", "updated", "tools": [{"name", "description",
//! "inputSchema", "annotations"?}]}` — the listing as the server gave it, which holds no
//! argument values. Writes take a lock file next to the server's file and replace the file
//! atomically (write a temporary file, then rename), so concurrent writers never leave a torn
//! file and readers never need the lock.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use clap::Args as ClapArgs;
use serde_json::{Map, Value, json};
use toolminimize_core::{Exposure, ToolDef};

/// Environment variable naming the cache directory.
pub(crate) const ENV_DIR: &str = "TOOLMINIMIZE_SCHEMA_CACHE";
/// Largest server file read (a listing of thousands of tools stays far below).
const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;
/// Most tools kept for one server.
const MAX_TOOLS: usize = 10_000;

/// The cache directory: `explicit`, else the environment, else the XDG cache directory.
pub(crate) fn resolve_dir(explicit: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(d) = explicit {
        return Ok(d.to_path_buf());
    }
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = env(ENV_DIR) {
        return Ok(d);
    }
    if let Some(d) = env("XDG_CACHE_HOME") {
        return Ok(d.join("toolminimize").join("schemas"));
    }
    if let Some(h) = env("HOME") {
        return Ok(h.join(".cache").join("toolminimize").join("schemas"));
    }
    Err(format!(
        "no schema cache directory: set {ENV_DIR}, XDG_CACHE_HOME or HOME, or pass --schema-cache"
    ))
}

/// A server or tool name as hosts spell it in `mcp__<server>__<tool>`: characters other than
/// ASCII letters, digits, `_` and `-` become `_`.
pub(crate) fn normalize_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// One cached tool.
#[derive(Debug, Clone)]
pub(crate) struct CachedTool {
    pub(crate) def: ToolDef,
    pub(crate) annotations: Option<Value>,
}

impl CachedTool {
    /// The exposure the listing implies: `openWorldHint: true` means outside parties, unless
    /// the schema declares its own `x-exposure`.
    pub(crate) fn listed_exposure(&self) -> Option<Exposure> {
        if self.def.declared_exposure().is_some() {
            return None;
        }
        let open = self
            .annotations
            .as_ref()
            .and_then(|a| a.get("openWorldHint"))
            .and_then(Value::as_bool);
        (open == Some(true)).then_some(Exposure::ThirdParty)
    }
}

/// The schema cache in one directory.
#[derive(Debug, Clone)]
pub(crate) struct SchemaCache {
    dir: PathBuf,
}

impl SchemaCache {
    pub(crate) fn new(dir: PathBuf) -> Self {
        SchemaCache { dir }
    }

    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    fn file_of(&self, server: &str) -> PathBuf {
        self.dir.join(format!("{}.json", normalize_name(server)))
    }

    /// Whether a file exists for `server`.
    pub(crate) fn has_server(&self, server: &str) -> bool {
        self.file_of(server).is_file()
    }

    /// The cached tools of `server` (empty when none).
    ///
    /// # Errors
    /// When the file exists but cannot be read or is not a listing.
    pub(crate) fn tools_of(&self, server: &str) -> Result<Vec<Value>, String> {
        let path = self.file_of(server);
        let file = match File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let mut text = String::new();
        file.take(MAX_FILE_BYTES)
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let v: Value = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a schema cache file ({e})", path.display()))?;
        Ok(tools_array(&v).cloned().unwrap_or_default())
    }

    /// The cached definition of `tool` on `server`, matched by exact or normalized name.
    ///
    /// # Errors
    /// When the server's file cannot be read.
    pub(crate) fn lookup(&self, server: &str, tool: &str) -> Result<Option<CachedTool>, String> {
        let tools = self.tools_of(server)?;
        let found = tools
            .iter()
            .find(|t| t.get("name").and_then(Value::as_str) == Some(tool))
            .or_else(|| {
                tools.iter().find(|t| {
                    t.get("name")
                        .and_then(Value::as_str)
                        .is_some_and(|n| normalize_name(n) == tool)
                })
            });
        let Some(entry) = found else {
            return Ok(None);
        };
        let Ok(def) = ToolDef::from_json(entry) else {
            return Ok(None);
        };
        let annotations = entry.get("annotations").filter(|a| a.is_object()).cloned();
        Ok(Some(CachedTool { def, annotations }))
    }

    /// Adds or replaces the tools of one `tools/list` result (`{"tools": [...]}`, a JSON-RPC
    /// response holding one, or a bare array) for `server`. Entries that are not tool
    /// definitions are skipped. Returns how many tools were stored.
    ///
    /// # Errors
    /// When the directory or file cannot be written.
    pub(crate) fn merge(&self, server: &str, listing: &Value) -> Result<usize, String> {
        let new: Vec<&Value> = tools_array(listing)
            .map(|a| a.iter().filter(|t| ToolDef::from_json(t).is_ok()).collect())
            .unwrap_or_default();
        if new.is_empty() {
            return Ok(0);
        }
        fs::create_dir_all(&self.dir)
            .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
        let path = self.file_of(server);
        let lock_path = path.with_extension("json.lock");
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| format!("cannot open {}: {e}", lock_path.display()))?;
        lock.lock()
            .map_err(|e| format!("cannot lock {}: {e}", lock_path.display()))?;
        let mut tools = self.tools_of(server).unwrap_or_default();
        for entry in &new {
            let name = entry.get("name").and_then(Value::as_str);
            let keep = keep_fields(entry);
            let at = tools
                .iter()
                .position(|t| t.get("name").and_then(Value::as_str) == name);
            if let Some(slot) = at.and_then(|i| tools.get_mut(i)) {
                *slot = keep;
            } else if tools.len() < MAX_TOOLS {
                tools.push(keep);
            }
        }
        let doc = json!({
            "server": server,
            "updated": unix_now(),
            "tools": tools,
        });
        let text = serde_json::to_vec_pretty(&doc).map_err(|e| e.to_string())?;
        write_atomically(&path, &text)?;
        // Dropping the handle releases the lock.
        drop(lock);
        Ok(new.len())
    }

    /// The servers with a file in the cache, sorted.
    pub(crate) fn servers(&self) -> Vec<String> {
        let Ok(rd) = fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut out: Vec<String> = rd
            .filter_map(Result::ok)
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                name.strip_suffix(".json").map(str::to_owned)
            })
            .collect();
        out.sort();
        out
    }
}

/// The `tools` array of a listing in any of the accepted shapes.
fn tools_array(v: &Value) -> Option<&Vec<Value>> {
    match v {
        Value::Array(a) => Some(a),
        Value::Object(o) => o
            .get("tools")
            .and_then(Value::as_array)
            .or_else(|| o.get("result").and_then(tools_array)),
        _ => None,
    }
}

/// The fields of a listed tool the cache keeps.
fn keep_fields(entry: &Value) -> Value {
    let mut out = Map::new();
    for key in [
        "name",
        "title",
        "description",
        "inputSchema",
        "input_schema",
        "parameters",
        "annotations",
    ] {
        if let Some(v) = entry.get(key) {
            out.insert(key.to_owned(), v.clone());
        }
    }
    Value::Object(out)
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Writes `bytes` to a temporary file beside `path`, syncs it and renames it over `path`.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("toolminimize");
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = OpenOptions::new()
            .create(true)
            .truncate(true)
            .write(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        format!("cannot write {}: {e}", path.display())
    })
}

// --- the mcp-proxy side -------------------------------------------------------------------

/// `mcp-proxy` options for filling the cache.
#[derive(Debug, Clone, ClapArgs)]
pub(crate) struct ProxyArgs {
    /// Save the tool schemas the server lists to the schema cache under this server name (the
    /// name the host gives the server, as in `mcp__NAME__tool`), for `toolminimize hook`.
    #[arg(long, value_name = "NAME")]
    server_name: Option<String>,
    /// Schema cache directory (default: $TOOLMINIMIZE_SCHEMA_CACHE, else
    /// $XDG_CACHE_HOME/toolminimize/schemas).
    #[arg(long, value_name = "DIR")]
    schema_cache: Option<PathBuf>,
}

struct Sink {
    cache: SchemaCache,
    server: String,
}

static SINK: OnceLock<Sink> = OnceLock::new();

impl ProxyArgs {
    /// Turns the cache filling on for this process when `--server-name` is given.
    pub(crate) fn install(&self) -> Result<(), String> {
        let Some(server) = &self.server_name else {
            return Ok(());
        };
        let dir = resolve_dir(self.schema_cache.as_deref())?;
        let _ = SINK.set(Sink {
            cache: SchemaCache::new(dir),
            server: server.clone(),
        });
        Ok(())
    }
}

/// Called by the proxy with every `tools/list` result page it sees. Does nothing unless
/// `--server-name` was given. Never fails the proxy: a cache that cannot be written is noted
/// on stderr.
pub(crate) fn observe_tools_list(result: &Value) {
    if let Some(sink) = SINK.get()
        && let Err(e) = sink.cache.merge(&sink.server, result)
    {
        eprintln!("toolminimize mcp-proxy: schema cache: {e}");
    }
}

// --- `toolminimize schemas` ---------------------------------------------------------------

/// `schemas` options.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum SchemasCommand {
    /// Store the tools of a `tools/list` result (a JSON file holding `{"tools": [...]}`, a
    /// JSON-RPC response with such a result, or a bare array of tools) under a server name.
    Import {
        /// The JSON file (`-` for standard input).
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The server's name as the host spells it in `mcp__NAME__tool`.
        #[arg(long, value_name = "NAME")]
        server: String,
        /// Schema cache directory.
        #[arg(long, value_name = "DIR")]
        schema_cache: Option<PathBuf>,
    },
    /// List the cached servers and their tools' names.
    List {
        /// Only this server.
        #[arg(long, value_name = "NAME")]
        server: Option<String>,
        /// Schema cache directory.
        #[arg(long, value_name = "DIR")]
        schema_cache: Option<PathBuf>,
    },
    /// Print the schema cache directory.
    Path {
        /// Schema cache directory.
        #[arg(long, value_name = "DIR")]
        schema_cache: Option<PathBuf>,
    },
}

/// `toolminimize schemas …`.
#[derive(Debug, ClapArgs)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: SchemasCommand,
}

pub(crate) fn run(args: &Args) -> Result<std::process::ExitCode, String> {
    match &args.command {
        SchemasCommand::Import {
            file,
            server,
            schema_cache,
        } => {
            if normalize_name(server).is_empty() {
                return Err("--server must not be empty".into());
            }
            let text = if file.as_os_str() == "-" {
                let mut s = String::new();
                std::io::stdin()
                    .take(MAX_FILE_BYTES)
                    .read_to_string(&mut s)
                    .map_err(|e| format!("cannot read standard input: {e}"))?;
                s
            } else {
                let mut s = String::new();
                File::open(file)
                    .and_then(|f| f.take(MAX_FILE_BYTES).read_to_string(&mut s))
                    .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
                s
            };
            let v: Value = serde_json::from_str(&text)
                .map_err(|e| format!("{}: not valid JSON ({e})", file.display()))?;
            if tools_array(&v).is_none() {
                return Err(format!(
                    "{}: no tools found (expected {{\"tools\": [...]}}, a JSON-RPC response holding one, or an array)",
                    file.display()
                ));
            }
            let cache = SchemaCache::new(resolve_dir(schema_cache.as_deref())?);
            let n = cache.merge(server, &v)?;
            println!(
                "stored {n} tool schema(s) for server `{}` in {}",
                normalize_name(server),
                cache.dir().display()
            );
            Ok(std::process::ExitCode::SUCCESS)
        }
        SchemasCommand::List {
            server,
            schema_cache,
        } => {
            let cache = SchemaCache::new(resolve_dir(schema_cache.as_deref())?);
            let servers = match server {
                Some(s) => vec![normalize_name(s)],
                None => cache.servers(),
            };
            for s in servers {
                let tools = cache.tools_of(&s)?;
                println!("{s} ({} tools)", tools.len());
                for t in tools {
                    if let Some(n) = t.get("name").and_then(Value::as_str) {
                        println!("  mcp__{s}__{}", normalize_name(n));
                    }
                }
            }
            Ok(std::process::ExitCode::SUCCESS)
        }
        SchemasCommand::Path { schema_cache } => {
            println!("{}", resolve_dir(schema_cache.as_deref())?.display());
            Ok(std::process::ExitCode::SUCCESS)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "toolminimize-schema-cache-{tag}-{}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn merges_listings_and_looks_tools_up_by_normalized_name() {
        let dir = tmp_dir("merge");
        let cache = SchemaCache::new(dir.clone());
        let n = cache
            .merge(
                "crm.example",
                &json!({"result": {"tools": [
                    {"name": "find.contact", "description": "Find a contact",
                     "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
                     "annotations": {"openWorldHint": true}},
                    {"name": "broken", "inputSchema": 7}
                ]}}),
            )
            .unwrap();
        assert_eq!(n, 1);
        assert!(cache.has_server("crm_example"));
        let t = cache
            .lookup("crm_example", "find_contact")
            .unwrap()
            .unwrap();
        assert_eq!(t.def.name(), "find.contact");
        assert_eq!(t.listed_exposure(), Some(Exposure::ThirdParty));
        // A second listing replaces by name and keeps the others.
        cache
            .merge(
                "crm.example",
                &json!([{"name": "other", "inputSchema": {"type": "object"}}]),
            )
            .unwrap();
        assert_eq!(cache.tools_of("crm_example").unwrap().len(), 2);
        assert!(cache.lookup("nope", "x").unwrap().is_none());
        assert_eq!(cache.servers(), vec!["crm_example".to_owned()]);
        let _ = fs::remove_dir_all(dir);
    }

    #[test]
    fn names_are_normalized_like_hosts_do() {
        assert_eq!(normalize_name("my server.v2"), "my_server_v2");
        assert_eq!(normalize_name("git-hub_x"), "git-hub_x");
    }
}
