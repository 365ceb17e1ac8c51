//! `toolminimize minimize`: the JSONL contract (one call a line in, one result a line out).
//!
//! One output line per non-blank input line, in order: the rewritten arguments and the report,
//! `"blocked": true` with a reason when the policy blocks the call, or an error object for a
//! line that is not a call. The exit status is non-zero only when reading or writing fails.
//!
//! With `--jobs N` (N > 1) one thread reads lines, N workers parse and minimize, and the calling
//! thread puts the results back in input order and writes them. Every call of one `session`
//! goes to the same worker, in input order, so a conversation's state evolves exactly as it
//! would on one thread; calls without a session go to the least busy worker. At most
//! [`WINDOW_PER_JOB`] × N lines are in flight at once, so memory stays bounded however long
//! the stream. Threads hand work over in bulk where that costs no latency: a worker sends
//! back every result it finished while more calls were waiting for it in one message, and
//! the reader, once the window is full, resumes only when half of it has been written (each
//! wake-up of a sleeping thread costs more than minimizing a small call's share of it). A
//! worker's queue can hold the whole window, so the reader never waits on a worker's queue.

use std::collections::BTreeMap;
use std::hash::{BuildHasher, RandomState};
use std::io::{self, BufRead, BufWriter, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, mpsc};

use clap::Args as ClapArgs;
use serde::Serialize;
use serde_json::{Map, Value};
use toolminimize_core::{Minimizer, Report};

use crate::input::{
    self, CallLine, Forwarded, LineError, Minimized, Parsed, Record, Sessions, Stream, ToolCache,
};
use crate::options::PolicyArgs;

/// Lines in flight per worker (read but not yet written).
const WINDOW_PER_JOB: usize = 256;
/// Most results a worker sends back in one message.
const RESULTS_PER_MESSAGE: usize = 32;

/// `minimize` options.
#[derive(Debug, ClapArgs)]
pub(crate) struct Args {
    /// Input JSONL file, one call per line:
    /// {"id", "tool": {"name", "description", "inputSchema"}, "arguments", "exposure"?,
    /// "session"?, "task_context"?}. Standard input when absent or `-`. Blank lines are skipped.
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
    #[command(flatten)]
    policy: PolicyArgs,
    /// Worker threads (default: the number of cores). Output order, one output line per
    /// input line and the order of each session's calls are the same for every N.
    #[arg(long, value_name = "N")]
    jobs: Option<NonZeroUsize>,
}

pub(crate) fn run(args: &Args) -> Result<ExitCode, String> {
    let minimizer = args.policy.minimizer()?;
    let (reader, _) = input::open(args.input.as_deref())?;
    let jobs = args
        .jobs
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if jobs > 1 {
        run_parallel(&minimizer, reader, jobs, &mut out)?;
        out.flush().map_err(|e| format!("writing output: {e}"))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut stream = Stream::new(reader);
    while let Some(record) = stream
        .next_record(&minimizer)
        .map_err(|e| format!("reading input: {e}"))?
    {
        match record {
            Record::Call(m) => write_record(&mut out, &call_record(*m)),
            Record::Bad(e) => write_line(&mut out, &error_record(e)),
        }
        .map_err(|e| format!("writing output: {e}"))?;
    }
    out.flush().map_err(|e| format!("writing output: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

fn write_line(out: &mut impl Write, record: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, record).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

/// What the reading thread hands the writer besides finished lines.
enum Msg {
    /// The output line (with its newline) for input record `seq`.
    Line(u64, Vec<u8>),
    /// Several output lines, each with its record number.
    Lines(Vec<(u64, Out)>),
    /// Reading failed after `seq` records.
    ReadError(u64, String),
}

/// A finished line: its bytes, or (for a call whose line was long) the record itself, which
/// the writer serializes straight to the output rather than a worker into a second copy.
enum Out {
    Bytes(Vec<u8>),
    Record(Box<CallRecord>),
}

/// An input line for a worker: its number and text, not yet parsed.
struct Job {
    line: u64,
    text: String,
}

/// Lines longer than this have their result serialized by the writer (see [`Out`]).
const WRITE_IN_PLACE: usize = 1 << 20;

fn line_bytes(value: &impl Serialize) -> Vec<u8> {
    let mut v = serde_json::to_vec(value).unwrap_or_else(|_| b"{}".to_vec());
    v.push(b'\n');
    v
}

/// Minimizes with `jobs` workers; see the module documentation.
fn run_parallel(
    minimizer: &Minimizer,
    reader: Box<dyn BufRead + Send>,
    jobs: usize,
    out: &mut impl Write,
) -> Result<(), String> {
    let window = Arc::new(Window::new(jobs.saturating_mul(WINDOW_PER_JOB)));
    let (result_tx, result_rx) = mpsc::channel::<Msg>();
    let busy: Arc<Vec<AtomicUsize>> = Arc::new((0..jobs).map(|_| AtomicUsize::new(0)).collect());
    std::thread::scope(|scope| {
        let mut queues = Vec::with_capacity(jobs);
        for w in 0..jobs {
            // A worker's queue holds the whole window: the reader then waits only for the
            // window (woken once half of it is written), never for a worker to take one call
            // off a full queue, which woke it once a call.
            let (tx, rx) = mpsc::sync_channel::<(u64, Job)>(window.cap);
            queues.push(tx);
            let results = result_tx.clone();
            let busy = Arc::clone(&busy);
            scope.spawn(move || {
                let mut sessions = Sessions::default();
                let mut tools = ToolCache::default();
                while let Ok(first) = rx.recv() {
                    // This call and every call already waiting, up to a message's worth:
                    // the results go back together once the queue is empty.
                    let mut done = Vec::new();
                    let mut next = Some(first);
                    while let Some((seq, job)) = next.take() {
                        // The line's text becomes the call's arguments (not copied).
                        let parsed = input::parse_owned(job.line, job.text, &mut tools);
                        let out = match parsed {
                            Parsed::Bad(e) => Out::Bytes(line_bytes(&error_record(e))),
                            Parsed::Call(call) => minimize_guarded(minimizer, &mut sessions, *call),
                        };
                        done.push((seq, out));
                        if let Some(b) = busy.get(w) {
                            b.fetch_sub(1, Ordering::Relaxed);
                        }
                        if done.len() < RESULTS_PER_MESSAGE {
                            next = rx.try_recv().ok();
                        }
                    }
                    if results.send(Msg::Lines(done)).is_err() {
                        return;
                    }
                }
            });
        }
        let results = result_tx;
        let busy_r = Arc::clone(&busy);
        let window_r = Arc::clone(&window);
        scope.spawn(move || {
            let mut stream = Stream::new(reader);
            let hasher = RandomState::new();
            let mut seq = 0u64;
            loop {
                // The reader only splits lines and finds their session; workers parse, so a
                // call's tree is made, used and freed on one thread.
                let next = stream.next_line().map(|n| {
                    n.map(|r| {
                        r.map(|(line, text)| {
                            let session = input::session_of(&text);
                            (line, (text, session))
                        })
                    })
                });
                let next = match next {
                    Ok(Some(n)) => n,
                    Ok(None) => return,
                    Err(e) => {
                        let _ = results.send(Msg::ReadError(seq, format!("reading input: {e}")));
                        return;
                    }
                };
                if !window_r.acquire() {
                    return; // the writer stopped
                }
                let sent = match next {
                    Err(e) => results
                        .send(Msg::Line(seq, line_bytes(&error_record(e))))
                        .is_ok(),
                    Ok((line, (text, session))) => {
                        let w = match session.as_deref() {
                            // A session always goes to the same worker, in input order.
                            Some(s) => {
                                usize::try_from(hasher.hash_one(s) % jobs as u64).unwrap_or(0)
                            }
                            None => least_busy(&busy_r),
                        };
                        if let Some(b) = busy_r.get(w) {
                            b.fetch_add(1, Ordering::Relaxed);
                        }
                        queues
                            .get(w)
                            .is_some_and(|q| q.send((seq, Job { line, text })).is_ok())
                    }
                };
                if !sent {
                    return;
                }
                seq += 1;
            }
        });
        let _closed = CloseOnDrop(&window);
        write_in_order(result_rx, &window, out)
    })
}

/// Lines in flight (read, not yet written), at most `cap`. The reader waits while the window
/// is full and is woken once half of it has been written, not after every line.
struct Window {
    state: Mutex<(usize, bool)>,
    room: Condvar,
    cap: usize,
}

impl Window {
    fn new(cap: usize) -> Self {
        Window {
            state: Mutex::new((0, false)),
            room: Condvar::new(),
            cap: cap.max(2),
        }
    }

    /// Takes a place for one more line; `false` once the writer has stopped.
    fn acquire(&self) -> bool {
        let Ok(mut st) = self.state.lock() else {
            return false;
        };
        while st.0 >= self.cap && !st.1 {
            st = match self.room.wait(st) {
                Ok(g) => g,
                Err(_) => return false,
            };
        }
        if st.1 {
            return false;
        }
        st.0 += 1;
        true
    }

    /// Gives back the place of a written line.
    fn release(&self) {
        if let Ok(mut st) = self.state.lock() {
            st.0 = st.0.saturating_sub(1);
            if st.0 == self.cap / 2 {
                self.room.notify_one();
            }
        }
    }

    /// The writer has stopped: a waiting reader gives up.
    fn close(&self) {
        if let Ok(mut st) = self.state.lock() {
            st.1 = true;
        }
        self.room.notify_all();
    }
}

/// Closes the window when the writer returns, however it returns.
struct CloseOnDrop<'a>(&'a Window);

impl Drop for CloseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

fn least_busy(busy: &[AtomicUsize]) -> usize {
    busy.iter()
        .enumerate()
        .min_by_key(|(_, b)| b.load(Ordering::Relaxed))
        .map_or(0, |(i, _)| i)
}

/// Minimizes one call into its output line. A panic in the pipeline (which should never
/// happen) becomes an error line for that call rather than a stalled stream.
fn minimize_guarded(minimizer: &Minimizer, sessions: &mut Sessions, call: CallLine) -> Out {
    let id = call.id.clone();
    let long = call.line_bytes > WRITE_IN_PLACE;
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        call_record(input::minimize_line(minimizer, sessions, call))
    }));
    match r {
        Ok(v) if long => Out::Record(Box::new(v)),
        Ok(v) => Out::Bytes(record_bytes(&v)),
        Err(_) => {
            let mut rec = Map::new();
            rec.insert("id".into(), id.unwrap_or(Value::Null));
            rec.insert(
                "error".into(),
                Value::String("internal error while minimizing".into()),
            );
            Out::Bytes(line_bytes(&Value::Object(rec)))
        }
    }
}

/// Writes the results in input order as they complete, returning each line's token.
fn write_in_order(
    results: mpsc::Receiver<Msg>,
    window: &Window,
    out: &mut impl Write,
) -> Result<(), String> {
    let mut next = 0u64;
    let mut pending: BTreeMap<u64, Out> = BTreeMap::new();
    let mut read_error: Option<(u64, String)> = None;
    for msg in results {
        match msg {
            Msg::Line(seq, line) => {
                pending.insert(seq, Out::Bytes(line));
            }
            Msg::Lines(lines) => pending.extend(lines),
            Msg::ReadError(seq, e) => read_error = Some((seq, e)),
        }
        while let Some(line) = pending.remove(&next) {
            match line {
                Out::Bytes(bytes) => out.write_all(&bytes),
                Out::Record(record) => write_record(out, &record),
            }
            .map_err(|e| format!("writing output: {e}"))?;
            window.release();
            next += 1;
        }
    }
    match read_error {
        Some((_, e)) => Err(e),
        None => Ok(()),
    }
}

/// The output line of a call: `{"id"?, "arguments" | "blocked"+"reason", "report"}`, in that
/// order. Written straight from the outcome: the minimized arguments are written out from
/// the input text and the rewrite's edits, and a report of many items as it is, never first
/// built as a JSON tree (which took about a kilobyte an item).
#[derive(Debug)]
pub(crate) struct CallRecord {
    id: Option<Value>,
    arguments: Option<Forwarded>,
    reason: Option<String>,
    report: Report,
}

impl CallRecord {
    /// Writes the record as one line of compact JSON, with its newline.
    fn write(&self, out: &mut impl Write) -> io::Result<()> {
        let json = |out: &mut dyn Write, v: &dyn erased::Json| v.write(out);
        out.write_all(b"{")?;
        if let Some(id) = &self.id {
            out.write_all(b"\"id\":")?;
            json(out, id)?;
            out.write_all(b",")?;
        }
        match &self.arguments {
            Some(a) => {
                out.write_all(b"\"arguments\":")?;
                match a {
                    Forwarded::Json(m) => m.write_to(&mut *out)?,
                    Forwarded::Value(v) => json(out, v)?,
                }
            }
            None => {
                out.write_all(b"\"blocked\":true,\"reason\":")?;
                json(out, &self.reason.as_deref().unwrap_or_default())?;
            }
        }
        out.write_all(b",\"report\":")?;
        json(out, &self.report)?;
        out.write_all(b"}\n")
    }
}

/// Writing a serializable value to a `dyn Write`.
mod erased {
    use std::io::{self, Write};

    pub(super) trait Json {
        fn write(&self, out: &mut dyn Write) -> io::Result<()>;
    }

    impl<T: serde::Serialize + ?Sized> Json for T {
        fn write(&self, out: &mut dyn Write) -> io::Result<()> {
            serde_json::to_writer(out, self).map_err(io::Error::from)
        }
    }
}

fn write_record(out: &mut impl Write, record: &CallRecord) -> io::Result<()> {
    record.write(out)
}

fn record_bytes(record: &CallRecord) -> Vec<u8> {
    let mut v = Vec::new();
    // Writing to a `Vec` fails only if an argument's text changed under it, which it cannot.
    if record.write(&mut v).is_err() {
        v = b"{}\n".to_vec();
    }
    v
}

/// `{"id"?, "arguments" | "blocked"+"reason", "report"}`.
pub(crate) fn call_record(m: Minimized) -> CallRecord {
    let (verdict, report) = m.outcome.into_parts();
    let (arguments, reason) = match verdict.into_arguments() {
        Ok(a) => (Some(a), None),
        Err(reason) => (None, Some(reason.to_string())),
    };
    CallRecord {
        id: m.id,
        arguments,
        reason,
        report,
    }
}

/// `{"id": id or null, "line": n, "error": "…"}`.
pub(crate) fn error_record(e: LineError) -> Value {
    let mut rec = Map::new();
    rec.insert("id".into(), e.id.unwrap_or(Value::Null));
    rec.insert("line".into(), Value::from(e.line));
    rec.insert("error".into(), Value::String(e.message));
    Value::Object(rec)
}
