//! Reading the JSONL input: one JSON call a line, parsed, minimized and handed back in order.
//!
//! A line that cannot be read as a call becomes a [`LineError`] and the stream goes on; only a
//! failure of the input itself (an I/O error) stops it. Blank lines are not calls and are
//! skipped. Error messages never quote the line's content.

use std::collections::HashMap;
use std::fs::File;
use std::hash::{Hash, Hasher};
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use rustc_hash::FxHasher;
use serde_json::{Map, Value};
use toolminimize_core::{
    BlockReason, Call, Exposure, MAX_VALUES, MinimizedJson, Minimizer, Outcome, Report, Session,
    ToolDef, Verdict, json_values_at_most,
};

/// Longest line read as a call. Longer lines are skipped without being buffered and answered
/// with an error, so one runaway line cannot exhaust memory.
pub(crate) const MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// One parsed input line.
#[derive(Debug)]
pub(crate) struct CallLine {
    /// The caller's id, echoed exactly; `None` when the line had none.
    pub(crate) id: Option<Value>,
    pub(crate) tool: ToolDef,
    pub(crate) arguments: Arguments,
    pub(crate) exposure: Option<Exposure>,
    pub(crate) session: Option<String>,
    pub(crate) task_context: Option<String>,
    /// The length of the line, in bytes.
    pub(crate) line_bytes: usize,
}

/// A call's arguments as the line gave them.
#[derive(Debug)]
pub(crate) enum Arguments {
    /// The JSON text of an object, minimized without being built into a tree of values (see
    /// [`Minimizer::minimize_json`]).
    Text(String),
    /// Parsed (an object sent as a JSON-encoded string, or a line read the slow way).
    Parsed(Value),
    /// Where the text of an object lies in the line (until the line's text is handed over
    /// and becomes [`Arguments::Text`]).
    Span(std::ops::Range<usize>),
}

/// A line that could not be read as a call: its id (if one could be found) and why.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LineError {
    /// 1-based line number in the input.
    pub(crate) line: u64,
    pub(crate) id: Option<Value>,
    pub(crate) message: String,
}

/// Parses one line (already known to be valid UTF-8 and not blank).
#[cfg(test)]
pub(crate) fn parse_line(line: &str) -> Result<CallLine, (Option<Value>, String)> {
    parse_line_with(line, &mut ToolCache::default())
}

/// The tools of recent lines: a stream's calls mostly repeat a few tools (a gateway's, a few
/// hundred), whose definitions (compiled schema patterns, recognised kind) are then made once.
/// Looked up by a hash of the tool object (key order does not count, as for `Value`'s
/// equality), confirmed by equality; the least recently used goes first when it is full.
#[derive(Debug, Default)]
pub(crate) struct ToolCache {
    by_hash: HashMap<u64, Vec<CachedTool>>,
    len: usize,
    tick: u64,
}

#[derive(Debug)]
struct CachedTool {
    json: Value,
    def: ToolDef,
    used: u64,
}

impl ToolCache {
    const CAPACITY: usize = 256;

    fn get(&mut self, tool: &Value) -> Result<ToolDef, toolminimize_core::Error> {
        self.tick += 1;
        let h = value_hash(tool);
        if let Some(hit) = self
            .by_hash
            .get_mut(&h)
            .and_then(|b| b.iter_mut().find(|c| c.json == *tool))
        {
            hit.used = self.tick;
            return Ok(hit.def.clone());
        }
        let def = ToolDef::from_json(tool)?;
        if self.len >= Self::CAPACITY {
            self.evict_oldest();
        }
        self.by_hash.entry(h).or_default().push(CachedTool {
            json: tool.clone(),
            def: def.clone(),
            used: self.tick,
        });
        self.len += 1;
        Ok(def)
    }

    /// Drops the least recently used tool (a scan, on a miss of a full cache only: making a
    /// tool's definition costs far more).
    fn evict_oldest(&mut self) {
        let oldest = self
            .by_hash
            .iter()
            .flat_map(|(h, b)| b.iter().enumerate().map(move |(i, c)| (c.used, *h, i)))
            .min();
        if let Some((_, h, i)) = oldest
            && let Some(bucket) = self.by_hash.get_mut(&h)
        {
            bucket.swap_remove(i);
            if bucket.is_empty() {
                self.by_hash.remove(&h);
            }
            self.len -= 1;
        }
    }
}

/// A hash of a JSON value consistent with its equality: an object's members are combined
/// in any order, since two objects with the same members in another order are equal. FxHash:
/// a hit is confirmed by equality, so a collision costs a comparison, never a wrong tool, and
/// the cache holds at most [`ToolCache::CAPACITY`] tools to compare.
fn value_hash(v: &Value) -> u64 {
    fn feed(v: &Value, h: &mut impl Hasher) {
        match v {
            Value::Null => h.write_u8(0),
            Value::Bool(b) => {
                h.write_u8(1);
                h.write_u8(u8::from(*b));
            }
            Value::Number(n) => {
                h.write_u8(2);
                // Numbers are kept as written (`arbitrary_precision`), and compared so.
                n.as_str().hash(h);
            }
            Value::String(s) => {
                h.write_u8(3);
                s.hash(h);
            }
            Value::Array(a) => {
                h.write_u8(4);
                h.write_usize(a.len());
                for x in a {
                    feed(x, h);
                }
            }
            Value::Object(o) => {
                h.write_u8(5);
                h.write_usize(o.len());
                let mut sum = 0u64;
                for (k, x) in o {
                    let mut e = FxHasher::default();
                    k.hash(&mut e);
                    feed(x, &mut e);
                    sum = sum.wrapping_add(e.finish());
                }
                h.write_u64(sum);
            }
        }
    }
    let mut h = FxHasher::default();
    feed(v, &mut h);
    h.finish()
}

/// Parses one line (already known to be valid UTF-8 and not blank), reusing the definitions
/// of recently seen tools.
pub(crate) fn parse_line_with(
    line: &str,
    tools: &mut ToolCache,
) -> Result<CallLine, (Option<Value>, String)> {
    if !json_values_at_most(line.as_bytes(), MAX_VALUES) {
        // Refused before parsing: the tree of millions of tiny values would take ≈ 100 bytes
        // a value. The id is read by a scan that builds nothing else.
        return Err((
            crate::mcp_proxy::scan::Scanned::of(line.as_bytes()).id,
            format!("more than {MAX_VALUES} JSON values in the line"),
        ));
    }
    if let Some(parsed) = parse_fields(line, tools) {
        return parsed;
    }
    let v: Value = serde_json::from_str(line)
        .map_err(|e| (None, format!("not valid JSON: {}", describe_json_error(&e))))?;
    let Value::Object(mut obj) = v else {
        return Err((
            None,
            format!("a line must be a JSON object, not {}", kind_of(&v)),
        ));
    };
    let id = obj.remove("id");
    let err = |m: String| (id.clone(), m);
    let arguments = match obj.remove("arguments") {
        Some(a @ Value::Object(_)) => a,
        // OpenAI sends arguments as a JSON-encoded string.
        Some(Value::String(s)) if !json_values_at_most(s.as_bytes(), MAX_VALUES) => {
            return Err(err(format!(
                "`arguments` is a string holding more than {MAX_VALUES} JSON values"
            )));
        }
        Some(Value::String(s)) => match serde_json::from_str::<Value>(&s) {
            Ok(a @ Value::Object(_)) => a,
            Ok(other) => {
                return Err(err(format!(
                    "`arguments` must be a JSON object, not a string holding {}",
                    kind_of(&other)
                )));
            }
            Err(_) => return Err(err("`arguments` is a string that does not hold JSON".into())),
        },
        Some(other) => {
            return Err(err(format!(
                "`arguments` must be a JSON object, not {}",
                kind_of(&other)
            )));
        }
        None => return Err(err("missing `arguments`".into())),
    };
    finish_line(id, &obj, Arguments::Parsed(arguments), line.len(), tools)
}

/// The members of a line read without building its arguments: the arguments' JSON text
/// is kept as it is.
struct Fields<'a> {
    id: Option<Value>,
    arguments: Option<&'a serde_json::value::RawValue>,
    /// The other members a call reads (`tool`, `exposure`, `session`, `task_context`).
    rest: Map<String, Value>,
}

impl<'de: 'a, 'a> serde::Deserialize<'de> for Fields<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Fields<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a call")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut m: M,
            ) -> Result<Fields<'de>, M::Error> {
                use serde::de::Error as _;
                let mut out = Fields {
                    id: None,
                    arguments: None,
                    rest: Map::new(),
                };
                while let Some(key) = m.next_key::<std::borrow::Cow<'de, str>>()? {
                    // A member named twice is read the slow way, as a `Value` reads it.
                    let twice = || M::Error::custom("a member named twice");
                    match key.as_ref() {
                        "id" if out.id.is_some() => return Err(twice()),
                        "id" => out.id = Some(m.next_value()?),
                        "arguments" if out.arguments.is_some() => return Err(twice()),
                        "arguments" => out.arguments = Some(m.next_value()?),
                        k @ ("tool" | "exposure" | "session" | "task_context") => {
                            if out.rest.contains_key(k) {
                                return Err(twice());
                            }
                            out.rest.insert(k.to_owned(), m.next_value()?);
                        }
                        _ => {
                            m.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(out)
            }
        }
        d.deserialize_map(V)
    }
}

/// A line whose arguments are an object, read without building them (see [`Arguments`]);
/// `None` for any other line, which is then read the slow way (its errors come from there).
#[allow(clippy::type_complexity, reason = "the result of `parse_line_with`")]
fn parse_fields(
    line: &str,
    tools: &mut ToolCache,
) -> Option<Result<CallLine, (Option<Value>, String)>> {
    if line.len() < TEXT_MIN_BYTES {
        return None;
    }
    let (deep, values) = shape_of(line.as_bytes(), TEXT_MAX_DEPTH);
    // `serde_json` refuses a tree that deep, with its message; its raw values do not.
    if deep || line.len() / values.max(1) > TEXT_MAX_BYTES_PER_VALUE {
        return None;
    }
    let f: Fields<'_> = serde_json::from_str(line).ok()?;
    let text = f.arguments?.get();
    if !text.starts_with('{') {
        return None;
    }
    // The raw value is a slice of the line.
    let start = (text.as_ptr() as usize).checked_sub(line.as_ptr() as usize)?;
    let span = start..start + text.len();
    if line.get(span.clone()) != Some(text) {
        return None;
    }
    Some(finish_line(
        f.id,
        &f.rest,
        Arguments::Span(span),
        line.len(),
        tools,
    ))
}

/// Lines shorter than this are parsed into a `Value`: the tree of a short line costs little,
/// and reading it through a tape is no faster.
const TEXT_MIN_BYTES: usize = 64 * 1024;

/// Lines whose values are longer than this on average are parsed into a `Value`: a few long
/// texts are rewritten in place there (held once), where a tape holds the line and each
/// rewritten text beside it. Arguments of many short values take far less memory as a tape.
const TEXT_MAX_BYTES_PER_VALUE: usize = 256;

/// Lines nested deeper than this are parsed into a `Value` (which stops below 128).
const TEXT_MAX_DEPTH: usize = 120;

/// Whether the JSON text `json` opens more than `max` arrays or objects inside one another,
/// and about how many values it holds (commas and openings of arrays and objects, plus one),
/// read without parsing it: brackets and commas inside strings do not count.
fn shape_of(json: &[u8], max: usize) -> (bool, usize) {
    let (mut depth, mut values) = (0usize, 1usize);
    let (mut in_string, mut escaped) = (false, false);
    for &b in json {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                values += 1;
                if depth > max {
                    return (true, values);
                }
            }
            b',' => values += 1,
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    (false, values)
}

/// The call of a line with these `id` and `arguments` and its other members in `obj`.
fn finish_line(
    id: Option<Value>,
    obj: &Map<String, Value>,
    arguments: Arguments,
    line_bytes: usize,
    tools: &mut ToolCache,
) -> Result<CallLine, (Option<Value>, String)> {
    let err = |m: String| (id.clone(), m);
    let tool = match obj.get("tool") {
        None | Some(Value::Null) => return Err(err("missing `tool`".into())),
        Some(t) => tools.get(t).map_err(|e| err(e.message().to_owned()))?,
    };
    let exposure =
        match obj.get("exposure") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.parse::<Exposure>().map_err(|_| {
                err("`exposure` must be first_party, third_party or unknown".into())
            })?),
            Some(other) => {
                return Err(err(format!(
                    "`exposure` must be a string, not {}",
                    kind_of(other)
                )));
            }
        };
    let session = optional_text(obj, "session").map_err(err)?;
    let task_context = optional_text(obj, "task_context").map_err(err)?;
    Ok(CallLine {
        id,
        tool,
        arguments,
        exposure,
        session,
        task_context,
        line_bytes,
    })
}

/// Parses input line number `line` (its text already read, see [`Stream::next_line`]). The
/// text becomes the call's arguments when they are an object (see [`Arguments::Text`]).
pub(crate) fn parse_owned(line: u64, text: String, tools: &mut ToolCache) -> Parsed {
    let parsed = parse_line_with(&text, tools).map(|mut c| {
        if let Arguments::Span(r) = &c.arguments {
            let r = r.clone();
            let mut text = text;
            text.truncate(r.end);
            text.drain(..r.start);
            c.arguments = Arguments::Text(text);
        }
        c
    });
    numbered(line, parsed)
}

/// What parsing input line number `line` gave, as a [`Parsed`].
fn numbered(line: u64, parsed: Result<CallLine, (Option<Value>, String)>) -> Parsed {
    match parsed {
        Err((id, message)) => Parsed::Bad(LineError { line, id, message }),
        Ok(c) => Parsed::Call(Box::new(c)),
    }
}

/// The `session` a line names, read without building the line's tree (its other members
/// are skipped, not parsed into values). A line the quick read cannot take (not JSON, a
/// repeated member) is parsed whole, so the answer is always the session the call gets.
pub(crate) fn session_of(text: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Route<'a> {
        #[serde(borrow, default)]
        session: Option<std::borrow::Cow<'a, str>>,
    }
    match serde_json::from_str::<Route<'_>>(text) {
        Ok(r) => r.session.map(std::borrow::Cow::into_owned),
        Err(_) => serde_json::from_str::<Value>(text)
            .ok()?
            .get("session")?
            .as_str()
            .map(str::to_owned),
    }
}

fn optional_text(obj: &Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!("`{key}` must be a string, not {}", kind_of(other))),
    }
}

/// The JSON type of a value, for messages (never the value itself).
fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// serde_json's syntax errors name a category and a position, never content; its data errors
/// (which can quote content) cannot occur when parsing into `Value`, but the category is used
/// regardless so that no message can ever carry input text.
fn describe_json_error(e: &serde_json::Error) -> String {
    let what = match e.classify() {
        serde_json::error::Category::Io => "read error",
        serde_json::error::Category::Syntax => "syntax error",
        serde_json::error::Category::Data => "unexpected data",
        serde_json::error::Category::Eof => "unexpected end of line",
    };
    if e.to_string().contains("recursion limit exceeded") {
        return format!("nested too deeply at column {}", e.column());
    }
    format!("{what} at column {}", e.column())
}

/// Most sessions whose state one stream keeps (the least recently used goes first).
pub(crate) const MAX_SESSIONS: usize = 100_000;
/// How long an idle session's state is kept.
pub(crate) const SESSION_TTL: std::time::Duration = std::time::Duration::from_secs(3600);

/// Lines longer than this have their buffer released after use, so one long line does not
/// hold its memory for the rest of the stream.
const KEEP_BUFFER: usize = 1 << 20;

/// The line buffer's first size.
const FIRST_BUFFER: usize = 8 << 10;

/// Sessions by id, in a bounded in-process store: at most [`MAX_SESSIONS`], each kept while
/// used within [`SESSION_TTL`]; what is dropped is counted in the store's stats.
#[derive(Debug)]
pub(crate) struct Sessions(std::sync::Arc<dyn toolminimize_core::SessionStore>);

impl Default for Sessions {
    fn default() -> Self {
        Sessions(std::sync::Arc::new(toolminimize_core::MemoryStore::new(
            MAX_SESSIONS,
            SESSION_TTL,
        )))
    }
}

impl Sessions {
    pub(crate) fn get(&mut self, id: &str) -> Session {
        Session::in_store(id, std::sync::Arc::clone(&self.0))
    }

    /// What the store holds and has dropped.
    #[allow(dead_code, reason = "read by tests and by callers that report it")]
    pub(crate) fn stats(&self) -> toolminimize_core::StoreStats {
        self.0.stats()
    }
}

/// A call that went through the minimizer.
#[derive(Debug)]
pub(crate) struct Minimized {
    pub(crate) id: Option<Value>,
    pub(crate) tool_name: String,
    /// The conversation the call belongs to, if the line named one.
    pub(crate) session: Option<String>,
    pub(crate) outcome: Outcome<Forwarded>,
}

/// The minimized arguments of a call, as the minimizer gave them.
#[derive(Debug)]
pub(crate) enum Forwarded {
    /// Written out from the call's text when its line is written.
    Json(MinimizedJson<'static>),
    /// Parsed arguments (given as a JSON-encoded string).
    Value(Value),
}

/// Minimizes one parsed call with the session state in `sessions`. The arguments are handed
/// over: rewritten in place, not copied.
pub(crate) fn minimize_line(
    minimizer: &Minimizer,
    sessions: &mut Sessions,
    c: CallLine,
) -> Minimized {
    let session = c.session.as_deref().map(|s| sessions.get(s));
    let (exposure, task, session) = (c.exposure, c.task_context.as_deref(), session.as_ref());
    let outcome = match c.arguments {
        // A line's text is handed over before its call is minimized (`parse_owned`).
        Arguments::Span(_) => Outcome::new(
            Verdict::Block(BlockReason::Internal("the call's text was not kept")),
            Report::default(),
        ),
        Arguments::Text(text) => minimizer
            .minimize_json_owned(in_context(
                Call::json_owned(&c.tool, text),
                exposure,
                task,
                session,
            ))
            .map_arguments(Forwarded::Json),
        Arguments::Parsed(arguments) => minimizer
            .minimize_owned(in_context(
                Call::owned(&c.tool, arguments),
                exposure,
                task,
                session,
            ))
            .map_arguments(Forwarded::Value),
    };
    Minimized {
        id: c.id,
        tool_name: c.tool.name().to_owned(),
        session: c.session,
        outcome,
    }
}

/// `call` with the context its line gave.
fn in_context<'a, A>(
    mut call: Call<'a, A>,
    exposure: Option<Exposure>,
    task_context: Option<&'a str>,
    session: Option<&'a Session>,
) -> Call<'a, A> {
    call.exposure = exposure;
    call.task_context = task_context;
    call.session = session;
    call
}

/// One input line, parsed but not minimized.
#[derive(Debug)]
pub(crate) enum Parsed {
    /// A call.
    Call(Box<CallLine>),
    /// The line could not be read as a call.
    Bad(LineError),
}

/// What one input line became.
#[derive(Debug)]
pub(crate) enum Record {
    /// The call and its outcome.
    Call(Box<Minimized>),
    /// The line could not be read as a call.
    Bad(LineError),
}

/// Opens the input: a file, or standard input for `None` and `-`. Also returns the file's
/// size when known, for progress reports.
pub(crate) fn open(path: Option<&Path>) -> Result<(Box<dyn BufRead + Send>, Option<u64>), String> {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            let f = File::open(p).map_err(|e| format!("cannot open {}: {e}", p.display()))?;
            let size = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
            Ok((Box::new(BufReader::with_capacity(1 << 16, f)), size))
        }
        _ => Ok((
            Box::new(BufReader::with_capacity(1 << 16, io::stdin())),
            None,
        )),
    }
}

/// Reads calls line by line and minimizes each with one shared set of sessions.
pub(crate) struct Stream<R> {
    input: R,
    buf: Vec<u8>,
    line: u64,
    bytes_read: u64,
    max_line: usize,
    sessions: Sessions,
    tools: ToolCache,
}

impl<R: BufRead> Stream<R> {
    pub(crate) fn new(input: R) -> Self {
        Stream {
            input,
            buf: Vec::new(),
            line: 0,
            bytes_read: 0,
            max_line: MAX_LINE_BYTES,
            sessions: Sessions::default(),
            tools: ToolCache::default(),
        }
    }

    /// Sets the longest line read as a call (default [`MAX_LINE_BYTES`]).
    #[cfg(test)]
    fn with_max_line(mut self, max_line: usize) -> Self {
        self.max_line = max_line;
        self
    }

    /// Bytes consumed so far.
    pub(crate) fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// The next non-blank line, minimized, or `None` at the end of the input.
    ///
    /// # Errors
    /// Only when reading the input fails.
    pub(crate) fn next_record(&mut self, minimizer: &Minimizer) -> io::Result<Option<Record>> {
        Ok(self.next_parsed()?.map(|p| match p {
            Parsed::Bad(e) => Record::Bad(e),
            Parsed::Call(c) => {
                Record::Call(Box::new(minimize_line(minimizer, &mut self.sessions, *c)))
            }
        }))
    }

    /// The next non-blank line, parsed, or `None` at the end of the input.
    ///
    /// # Errors
    /// Only when reading the input fails.
    pub(crate) fn next_parsed(&mut self) -> io::Result<Option<Parsed>> {
        let Some(next) = self.next_line()? else {
            return Ok(None);
        };
        Ok(Some(match next {
            Err(e) => Parsed::Bad(e),
            Ok((line, text)) => parse_owned(line, text, &mut self.tools),
        }))
    }

    /// The next non-blank line, read but not parsed: its number and its text (with any byte
    /// order mark and surrounding blanks removed), or why it cannot be read as a call (too
    /// long, not UTF-8). `None` at the end of the input. A long line's text is the read
    /// buffer itself, handed over rather than copied.
    ///
    /// # Errors
    /// Only when reading the input fails.
    pub(crate) fn next_line(&mut self) -> io::Result<Option<Result<(u64, String), LineError>>> {
        loop {
            let Some(too_long) = self.read_line()? else {
                return Ok(None);
            };
            let line = self.line;
            if too_long {
                return Ok(Some(Err(LineError {
                    line,
                    id: None,
                    message: format!("line longer than {} bytes", self.max_line),
                })));
            }
            let Ok(text) = std::str::from_utf8(&self.buf) else {
                return Ok(Some(Err(LineError {
                    line,
                    id: None,
                    message: "not valid UTF-8".into(),
                })));
            };
            // A UTF-8 byte order mark (an editor's, at the start of the stream or of a line
            // pasted from a file) is not part of the call.
            let trimmed = text.trim_start_matches('\u{feff}').trim();
            if trimmed.is_empty() {
                continue;
            }
            if self.buf.capacity() <= KEEP_BUFFER {
                return Ok(Some(Ok((line, trimmed.to_owned()))));
            }
            let start = text.len() - text.trim_start_matches('\u{feff}').trim_start().len();
            let end = start + trimmed.len();
            let mut buf = std::mem::take(&mut self.buf);
            buf.truncate(end);
            buf.drain(..start);
            // The buffer grew in steps: what it holds is kept, not the room reserved around it.
            buf.shrink_to_fit();
            let Ok(text) = String::from_utf8(buf) else {
                continue; // checked above
            };
            return Ok(Some(Ok((line, text))));
        }
    }

    /// Reads one line into `buf` (without its newline). `Ok(None)` at the end of the input,
    /// `Ok(Some(true))` when the line was longer than the limit (its rest is skipped).
    fn read_line(&mut self) -> io::Result<Option<bool>> {
        self.buf.clear();
        let mut left = u64::try_from(self.max_line)
            .unwrap_or(u64::MAX)
            .saturating_add(1);
        let mut n = 0usize;
        while left > 0 {
            // A long line's buffer grows eightfold, not twofold: each step copies what was
            // read into a new block and frees the old one, which the allocator may keep
            // rather than give back, so a line read in doubling steps could cost about twice
            // its length. Room reserved and not yet written to takes no memory; no more is
            // reserved than the longest line read.
            if self.buf.len() == self.buf.capacity() {
                let more = self
                    .buf
                    .capacity()
                    .saturating_mul(7)
                    .max(FIRST_BUFFER)
                    .min(usize::try_from(left).unwrap_or(usize::MAX));
                self.buf.reserve_exact(more);
            }
            let room = u64::try_from(self.buf.capacity() - self.buf.len()).unwrap_or(u64::MAX);
            let got = self
                .input
                .by_ref()
                .take(room.min(left))
                .read_until(b'\n', &mut self.buf)?;
            if got == 0 {
                break;
            }
            n += got;
            left -= got as u64;
            if self.buf.last() == Some(&b'\n') {
                break;
            }
        }
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        self.bytes_read += n as u64;
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
            return Ok(Some(false));
        }
        if self.buf.len() <= self.max_line {
            // The last line, without a newline.
            return Ok(Some(false));
        }
        self.buf.clear();
        self.skip_rest_of_line()?;
        Ok(Some(true))
    }

    fn skip_rest_of_line(&mut self) -> io::Result<()> {
        loop {
            let chunk = self.input.fill_buf()?;
            if chunk.is_empty() {
                return Ok(());
            }
            let (used, done) = match memchr_newline(chunk) {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            self.input.consume(used);
            self.bytes_read += used as u64;
            if done {
                return Ok(());
            }
        }
    }
}

fn memchr_newline(chunk: &[u8]) -> Option<usize> {
    chunk.iter().position(|&b| b == b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn err_of(line: &str) -> (Option<Value>, String) {
        parse_line(line).unwrap_err()
    }

    #[test]
    fn session_of_a_line_is_the_session_its_call_gets() {
        let cases = [
            (
                r#"{"id":1,"session":"conv-a","arguments":{"n":1e400}}"#,
                Some("conv-a"),
            ),
            (r#"{"session":"caf\u00e9","tool":{}}"#, Some("café")),
            // A repeated member: the whole parse keeps the last, and so does the route.
            (r#"{"session":"first","session":"second"}"#, Some("second")),
            (r#"{"session":7}"#, None),
            (r#"{"session":null}"#, None),
            (r#"{"id":2}"#, None),
            ("not json", None),
        ];
        for (line, want) in cases {
            assert_eq!(session_of(line).as_deref(), want, "{line}");
            if let Ok(c) = parse_line(line) {
                assert_eq!(c.session.as_deref(), want, "{line}");
            }
        }
    }

    #[test]
    fn tool_cache_finds_a_tool_whatever_its_key_order_and_drops_the_least_recent() {
        let a: Value =
            serde_json::from_str(r#"{"name":"t","inputSchema":{"type":"object","required":[]}}"#)
                .unwrap();
        let b: Value =
            serde_json::from_str(r#"{"inputSchema":{"required":[],"type":"object"},"name":"t"}"#)
                .unwrap();
        assert_eq!(value_hash(&a), value_hash(&b));
        assert_ne!(
            value_hash(&a),
            value_hash(&json!({"name": "u", "inputSchema": {"type": "object"}}))
        );
        let mut cache = ToolCache::default();
        let first = cache.get(&a).unwrap();
        assert_eq!(cache.get(&b).unwrap(), first);
        assert_eq!(cache.len, 1);
        for i in 0..ToolCache::CAPACITY + 10 {
            let t = json!({"name": format!("tool_{i}"), "inputSchema": {"type": "object"}});
            assert_eq!(cache.get(&t).unwrap().name(), format!("tool_{i}"));
            // The first tool stays: it is used again after every new one.
            cache.get(&a).unwrap();
        }
        assert_eq!(cache.len, ToolCache::CAPACITY);
        let kept: usize = cache.by_hash.values().map(Vec::len).sum();
        assert_eq!(kept, ToolCache::CAPACITY);
        assert!(cache.by_hash.values().flatten().any(|c| c.json == a));
        assert!(
            !cache
                .by_hash
                .values()
                .flatten()
                .any(|c| c.def.name() == "tool_0"),
            "the least recently used tool was dropped"
        );
    }

    #[test]
    fn accepts_the_three_schema_spellings_and_string_arguments() {
        for key in ["inputSchema", "input_schema", "parameters"] {
            let line = json!({"id": 7, "tool": {"name": "t", key: {"type": "object"}}, "arguments": "{\"a\": 1}"});
            let c = parse_line(&line.to_string()).unwrap();
            assert_eq!(c.id, Some(json!(7)));
            assert!(matches!(c.arguments, Arguments::Parsed(a) if a == json!({"a": 1})));
        }
    }

    #[test]
    fn an_object_of_arguments_is_kept_as_its_text() {
        // Many short values in a long line: read as text.
        let many: Vec<String> = (0..TEXT_MIN_BYTES / 4).map(|i| i.to_string()).collect();
        let args = format!(r#"{{"a": [{}]}}"#, many.join(", "));
        let line =
            format!(r#"{{"id": null, "tool": {{"name": "t"}}, "arguments": {args}, "other": 2}}"#);
        let Parsed::Call(c) = parse_owned(1, line, &mut ToolCache::default()) else {
            panic!("not a call");
        };
        assert_eq!(c.id, Some(Value::Null), "an explicit null id is echoed");
        assert!(matches!(&c.arguments, Arguments::Text(t) if *t == args));
        // A short line, or a long one of few values, is parsed.
        let short = r#"{"tool": {"name": "t"}, "arguments": {"a": 1}}"#;
        assert!(matches!(
            parse_line(short).unwrap().arguments,
            Arguments::Parsed(_)
        ));
        let few = format!(
            r#"{{"tool": {{"name": "t"}}, "arguments": {{"a": "{}"}}}}"#,
            "x".repeat(TEXT_MIN_BYTES)
        );
        assert!(matches!(
            parse_line(&few).unwrap().arguments,
            Arguments::Parsed(_)
        ));
        // A long line is handed over as it was read, around its blanks and byte order mark.
        let many: Vec<String> = (0..KEEP_BUFFER / 3)
            .map(|i| (i % 100).to_string())
            .collect();
        let args = format!(r#"{{"q": [{}]}}"#, many.join(","));
        let input =
            format!("\n\u{feff} {{\"tool\": {{\"name\": \"t\"}}, \"arguments\": {args}}} \r\n");
        let mut stream = Stream::new(input.as_bytes());
        let Some(Parsed::Call(c)) = stream.next_parsed().unwrap() else {
            panic!("not a call");
        };
        assert!(matches!(&c.arguments, Arguments::Text(t) if *t == args));
        // A member named twice is read as a `Value` reads it: the last one counts.
        let twice =
            format!(r#"{{"tool": {{"name": "t"}}, "arguments": {args}, "arguments": {{"b": 2}}}}"#);
        let c = parse_line(&twice).unwrap();
        assert!(matches!(c.arguments, Arguments::Parsed(a) if a == json!({"b": 2})));
    }

    #[test]
    fn bad_shapes_give_typed_messages_with_the_id() {
        let (id, m) = err_of(r#"{"id": "x1", "arguments": {}}"#);
        assert_eq!(id, Some(json!("x1")));
        assert_eq!(m, "missing `tool`");
        let (_, m) = err_of(r#"{"id": "x2", "tool": {"name": "t"}, "arguments": [1]}"#);
        assert_eq!(m, "`arguments` must be a JSON object, not an array");
        let (_, m) = err_of(r#"{"tool": {"name": "t", "inputSchema": 3}, "arguments": {}}"#);
        assert!(m.contains("schema"), "{m}");
        let (_, m) = err_of(r#"{"tool": {"name": "t"}, "arguments": {}, "exposure": "public"}"#);
        assert!(m.contains("first_party"), "{m}");
        let (_, m) = err_of(r#"{"tool": {"name": "t"}, "arguments": {}, "session": 4}"#);
        assert_eq!(m, "`session` must be a string, not a number");
    }

    #[test]
    fn json_errors_never_quote_the_line() {
        let (id, m) = err_of(r#"{"id": "c", "arguments": {"ssn": "123-45-6789""#);
        assert_eq!(id, None);
        assert!(!m.contains("123"), "{m}");
        assert!(m.starts_with("not valid JSON"), "{m}");
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        let (_, m) = err_of(&deep);
        assert!(m.contains("nested too deeply"), "{m}");
    }

    #[test]
    fn a_line_of_too_many_values_is_refused_before_it_is_parsed() {
        let zeros = format!("[{}0]", "0,".repeat(MAX_VALUES));
        let line =
            format!(r#"{{"id": "c7", "tool": {{"name": "t"}}, "arguments": {{"a": {zeros}}}}}"#);
        let (id, m) = err_of(&line);
        assert_eq!(id, Some(json!("c7")));
        assert_eq!(m, format!("more than {MAX_VALUES} JSON values in the line"));
        // The same arguments sent as a JSON-encoded string.
        let line =
            format!(r#"{{"id": 8, "tool": {{"name": "t"}}, "arguments": "{{\"a\": {zeros}}}"}}"#);
        let (id, m) = err_of(&line);
        assert_eq!(id, Some(json!(8)));
        assert!(
            m.contains("`arguments` is a string holding more than"),
            "{m}"
        );
        // Just under the limit: parsed and minimized.
        let zeros = format!("[{}0]", "0,".repeat(MAX_VALUES - 10));
        let line =
            format!(r#"{{"id": 9, "tool": {{"name": "t"}}, "arguments": {{"a": {zeros}}}}}"#);
        assert!(parse_line(&line).is_ok());
    }

    #[test]
    fn stream_skips_blank_lines_numbers_lines_and_cuts_overlong_ones() {
        let minimizer = Minimizer::new().unwrap();
        let input =
            b"\n{\"id\":1,\"tool\":{\"name\":\"t\"},\"arguments\":{}}\r\n  \nnot json\n\xff\xfe\n"
                .to_vec();
        let mut s = Stream::new(io::Cursor::new(input));
        let Some(Record::Call(c)) = s.next_record(&minimizer).unwrap() else {
            panic!("expected a call")
        };
        assert_eq!(c.id, Some(json!(1)));
        let Some(Record::Bad(e)) = s.next_record(&minimizer).unwrap() else {
            panic!("expected an error")
        };
        assert_eq!((e.line, e.id), (4, None));
        let Some(Record::Bad(e)) = s.next_record(&minimizer).unwrap() else {
            panic!("expected an error")
        };
        assert_eq!((e.line, e.message.as_str()), (5, "not valid UTF-8"));
        assert!(s.next_record(&minimizer).unwrap().is_none());
    }

    #[test]
    fn overlong_lines_are_skipped_and_the_next_line_is_read() {
        let minimizer = Minimizer::new().unwrap();
        let input = format!(
            "{}\n{{\"id\":2,\"tool\":{{\"name\":\"t\"}},\"arguments\":{{}}}}\n",
            "x".repeat(5000)
        );
        let mut s = Stream::new(io::BufReader::with_capacity(64, io::Cursor::new(input)))
            .with_max_line(100);
        let Some(Record::Bad(e)) = s.next_record(&minimizer).unwrap() else {
            panic!("expected an error")
        };
        assert_eq!(
            (e.line, e.message.as_str()),
            (1, "line longer than 100 bytes")
        );
        let Some(Record::Call(c)) = s.next_record(&minimizer).unwrap() else {
            panic!("expected a call")
        };
        assert_eq!(c.id, Some(json!(2)));
        assert!(s.next_record(&minimizer).unwrap().is_none());
    }

    #[test]
    fn lines_are_read_whole_across_the_buffer_s_growth_and_up_to_the_limit() {
        // Lengths around each size the buffer grows to, and around the limit.
        let limit = FIRST_BUFFER * 8 * 8 + 10;
        let lengths = [
            1,
            FIRST_BUFFER - 1,
            FIRST_BUFFER,
            FIRST_BUFFER + 1,
            FIRST_BUFFER * 8,
            FIRST_BUFFER * 8 + 1,
            FIRST_BUFFER * 64 - 1,
            limit - 1,
            limit,
            limit + 1,
            3,
        ];
        let mut input: String = lengths
            .iter()
            .map(|&n| format!("{}\n", "x".repeat(n)))
            .collect();
        // The last line without its newline.
        input.push_str(&"y".repeat(FIRST_BUFFER + 5));
        for capacity in [7, 1 << 16] {
            let mut s = Stream::new(io::BufReader::with_capacity(
                capacity,
                io::Cursor::new(input.clone()),
            ))
            .with_max_line(limit);
            for (i, &n) in lengths.iter().enumerate() {
                match s.next_line().unwrap().unwrap() {
                    Ok((line, text)) => {
                        assert!(n <= limit, "line {line} of {n} bytes was read");
                        assert_eq!((line, text.len()), (i as u64 + 1, n));
                    }
                    Err(e) => {
                        assert!(n > limit, "line {} of {n} bytes: {}", e.line, e.message);
                        assert_eq!(e.line, i as u64 + 1);
                    }
                }
            }
            let (line, text) = s.next_line().unwrap().unwrap().unwrap();
            assert_eq!(
                (line, text.len()),
                (lengths.len() as u64 + 1, FIRST_BUFFER + 5)
            );
            assert!(s.next_line().unwrap().is_none());
            assert_eq!(s.bytes_read(), input.len() as u64);
        }
    }
}
