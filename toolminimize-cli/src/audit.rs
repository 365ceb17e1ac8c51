//! `toolminimize audit`: what a stream of calls over-shares, without printing any argument.
//!
//! Every call runs through the minimizer exactly as `minimize` would run it; the audit keeps
//! only the reports (categories, sensitivities, necessity, privacy cost before and after) and
//! sums them per category and per tool. Nothing from the arguments is ever printed: the output
//! holds counts, costs, taxonomy ids, tool names and the callers' ids of unreadable lines.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args as ClapArgs;
use serde::Serialize;
use serde_json::Value;
use toolminimize_core::{Category, Exposure, Outcome};

use crate::input::{self, LineError, Record, Stream};
use crate::options::PolicyArgs;

/// How many unreadable lines the summary lists (all are counted).
const ERRORS_LISTED: usize = 20;
/// How many tools the human summary lists (the JSON lists all).
const TOOLS_LISTED: usize = 8;

/// `audit` options.
#[derive(Debug, ClapArgs)]
pub(crate) struct Args {
    /// Input JSONL file, in the same format `minimize` reads. Standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
    /// Print the summary as one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Never show the progress line (it is shown on standard error only when that is a
    /// terminal and the input takes more than a moment).
    #[arg(long)]
    no_progress: bool,
    #[command(flatten)]
    policy: PolicyArgs,
}

pub(crate) fn run(args: &Args) -> Result<ExitCode, String> {
    let minimizer = args.policy.minimizer()?;
    let (reader, size) = input::open(args.input.as_deref())?;
    let mut stream = Stream::new(reader);
    let mut summary = Summary::default();
    let mut progress = Progress::new(!args.no_progress && io::stderr().is_terminal(), size);
    while let Some(record) = stream.next_record(&minimizer).map_err(|e| {
        progress.finish();
        format!("reading input: {e}")
    })? {
        match record {
            Record::Call(m) => summary.add_call(&m.tool_name, &m.outcome),
            Record::Bad(e) => summary.add_error(e),
        }
        progress.tick(
            stream.bytes_read(),
            summary.calls + summary.unreadable_lines,
        );
    }
    progress.finish();
    summary.finish();
    let text = if args.json {
        let mut s =
            serde_json::to_string_pretty(&summary).map_err(|e| format!("writing output: {e}"))?;
        s.push('\n');
        s
    } else {
        summary.render()
    };
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| format!("writing output: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

/// The audit of a stream.
#[derive(Debug, Default, Serialize)]
pub(crate) struct Summary {
    /// Calls read (lines that parsed as calls).
    calls: u64,
    /// Lines that could not be read as calls.
    unreadable_lines: u64,
    /// Calls the policy blocks.
    blocked: u64,
    /// Calls with at least one PSD item.
    calls_with_psd: u64,
    /// Calls with at least one unnecessary PSD item.
    calls_with_unnecessary_psd: u64,
    /// Calls whose arguments minimizing would change.
    calls_changed: u64,
    /// PSD items found.
    items: u64,
    /// Of which the tool does not need.
    unnecessary_items: u64,
    /// Σ privacy cost of the calls as sent.
    cost_before: f64,
    /// Σ privacy cost after minimizing.
    cost_after: f64,
    /// 1 − after / before; absent when nothing costs anything.
    #[serde(skip_serializing_if = "Option::is_none")]
    reduction: Option<f64>,
    /// Items by sensitivity level (`"1"` … `"4"`).
    by_sensitivity: BTreeMap<u8, u64>,
    /// Per category, in taxonomy order, only categories that occur.
    by_category: Vec<CategoryStats>,
    /// Per tool, most costly first.
    tools: Vec<ToolStats>,
    /// The first unreadable lines: line number, id, and why.
    errors: Vec<ErrorEntry>,
    #[serde(skip)]
    categories: BTreeMap<Category, CategoryStats>,
    #[serde(skip)]
    tool_index: BTreeMap<String, ToolStats>,
}

#[derive(Debug, Clone, Serialize)]
struct CategoryStats {
    category: Category,
    items: u64,
    unnecessary: u64,
    /// Σ S × E over the unnecessary items, before minimizing.
    cost: f64,
    by_sensitivity: BTreeMap<u8, u64>,
}

#[derive(Debug, Clone, Default, Serialize)]
struct ToolStats {
    tool: String,
    calls: u64,
    calls_with_psd: u64,
    items: u64,
    unnecessary_items: u64,
    cost_before: f64,
    cost_after: f64,
}

#[derive(Debug, Serialize)]
struct ErrorEntry {
    line: u64,
    id: Value,
    error: String,
}

impl Summary {
    pub(crate) fn add_call(&mut self, tool: &str, outcome: &Outcome) {
        let report = &outcome.report;
        self.calls += 1;
        self.blocked += u64::from(outcome.is_blocked());
        let has_psd = !report.items.is_empty();
        self.calls_with_psd += u64::from(has_psd);
        self.calls_with_unnecessary_psd += u64::from(report.items.iter().any(|i| !i.necessary));
        self.calls_changed += u64::from(report.changed());
        self.cost_before += report.cost_before;
        self.cost_after += report.cost_after;
        let weight = f64::from(report.exposure.unwrap_or(Exposure::Unknown).weight());
        let t = self
            .tool_index
            .entry(tool.to_owned())
            .or_insert_with(|| ToolStats {
                tool: tool.to_owned(),
                ..ToolStats::default()
            });
        t.calls += 1;
        t.calls_with_psd += u64::from(has_psd);
        t.cost_before += report.cost_before;
        t.cost_after += report.cost_after;
        for item in &report.items {
            self.items += 1;
            t.items += 1;
            *self.by_sensitivity.entry(item.sensitivity).or_default() += 1;
            let c = self
                .categories
                .entry(item.category)
                .or_insert_with(|| CategoryStats {
                    category: item.category,
                    items: 0,
                    unnecessary: 0,
                    cost: 0.0,
                    by_sensitivity: BTreeMap::new(),
                });
            c.items += 1;
            *c.by_sensitivity.entry(item.sensitivity).or_default() += 1;
            if !item.necessary {
                self.unnecessary_items += 1;
                t.unnecessary_items += 1;
                c.unnecessary += 1;
                c.cost += f64::from(item.sensitivity) * weight;
            }
        }
    }

    pub(crate) fn add_error(&mut self, e: LineError) {
        self.unreadable_lines += 1;
        if self.errors.len() < ERRORS_LISTED {
            self.errors.push(ErrorEntry {
                line: e.line,
                id: e.id.unwrap_or(Value::Null),
                error: e.message,
            });
        }
    }

    /// Orders the per-category and per-tool tables and computes the reduction.
    pub(crate) fn finish(&mut self) {
        self.by_category = std::mem::take(&mut self.categories).into_values().collect();
        let mut tools: Vec<ToolStats> =
            std::mem::take(&mut self.tool_index).into_values().collect();
        tools.sort_by(|a, b| {
            b.cost_before
                .total_cmp(&a.cost_before)
                .then(b.unnecessary_items.cmp(&a.unnecessary_items))
                .then_with(|| a.tool.cmp(&b.tool))
        });
        self.tools = tools;
        self.reduction = (self.cost_before > 0.0).then(|| 1.0 - self.cost_after / self.cost_before);
    }

    /// The human summary.
    pub(crate) fn render(&self) -> String {
        let mut s = String::new();
        // Writing to a String cannot fail.
        let _ = self.render_into(&mut s);
        s
    }

    fn render_into(&self, s: &mut String) -> std::fmt::Result {
        writeln!(s, "Calls          {}", self.calls)?;
        if self.unreadable_lines > 0 {
            writeln!(
                s,
                "Unreadable     {} line(s) (listed below)",
                self.unreadable_lines
            )?;
        }
        if self.blocked > 0 {
            writeln!(s, "Blocked        {} call(s)", self.blocked)?;
        }
        writeln!(
            s,
            "With PSD       {} call(s) ({}), {} with PSD the tool does not need ({})",
            self.calls_with_psd,
            percent(self.calls_with_psd, self.calls),
            self.calls_with_unnecessary_psd,
            percent(self.calls_with_unnecessary_psd, self.calls),
        )?;
        writeln!(
            s,
            "PSD items      {} found, {} not needed by the tool; minimizing changes {} call(s)",
            self.items, self.unnecessary_items, self.calls_changed
        )?;
        writeln!(s)?;
        writeln!(s, "Privacy cost (Σ sensitivity × exposure of unneeded PSD)")?;
        write!(
            s,
            "  before {:>8.1}    after {:>8.1}",
            self.cost_before, self.cost_after
        )?;
        match self.reduction {
            Some(r) => writeln!(s, "    reduction {:.1}%", r * 100.0)?,
            None => writeln!(s)?,
        }
        if !self.by_category.is_empty() {
            writeln!(s)?;
            writeln!(
                s,
                "{:<13} {:>6} {:>9} {:>8}   {:>4} {:>4} {:>4} {:>4}",
                "Category", "items", "unneeded", "cost", "S1", "S2", "S3", "S4"
            )?;
            for c in &self.by_category {
                let at = |level: u8| c.by_sensitivity.get(&level).copied().unwrap_or(0);
                writeln!(
                    s,
                    "{:<13} {:>6} {:>9} {:>8.1}   {:>4} {:>4} {:>4} {:>4}",
                    c.category.id(),
                    c.items,
                    c.unnecessary,
                    c.cost,
                    at(1),
                    at(2),
                    at(3),
                    at(4)
                )?;
            }
        }
        let leaking: Vec<&ToolStats> = self
            .tools
            .iter()
            .filter(|t| t.cost_before > 0.0 || t.unnecessary_items > 0)
            .take(TOOLS_LISTED)
            .collect();
        if !leaking.is_empty() {
            writeln!(s)?;
            writeln!(s, "Tools that leak most")?;
            let width = leaking
                .iter()
                .map(|t| t.tool.chars().count())
                .max()
                .unwrap_or(4)
                .clamp(4, 40);
            writeln!(
                s,
                "  {:<width$} {:>6} {:>9} {:>8} {:>8}",
                "tool", "calls", "unneeded", "before", "after"
            )?;
            for t in leaking {
                let name: String = t.tool.chars().take(40).collect();
                writeln!(
                    s,
                    "  {:<width$} {:>6} {:>9} {:>8.1} {:>8.1}",
                    name, t.calls, t.unnecessary_items, t.cost_before, t.cost_after
                )?;
            }
        }
        if !self.errors.is_empty() {
            writeln!(s)?;
            writeln!(s, "Unreadable lines")?;
            for e in &self.errors {
                match &e.id {
                    Value::Null => writeln!(s, "  line {}: {}", e.line, e.error)?,
                    id => writeln!(s, "  line {} (id {}): {}", e.line, id, e.error)?,
                }
            }
            let more = self
                .unreadable_lines
                .saturating_sub(self.errors.len() as u64);
            if more > 0 {
                writeln!(s, "  … and {more} more")?;
            }
        }
        Ok(())
    }
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "0%".into();
    }
    #[allow(clippy::cast_precision_loss)] // counts far below 2^52
    let p = part as f64 * 100.0 / whole as f64;
    format!("{p:.0}%")
}

/// A one-line progress report on standard error, shown only on a terminal and only once the
/// input has taken more than a moment.
#[derive(Debug)]
struct Progress {
    enabled: bool,
    total: Option<u64>,
    start: Instant,
    last: Option<Instant>,
}

impl Progress {
    const DELAY: Duration = Duration::from_millis(300);
    const EVERY: Duration = Duration::from_millis(100);
    const WIDTH: u64 = 30;

    fn new(enabled: bool, total: Option<u64>) -> Self {
        Progress {
            enabled,
            total,
            start: Instant::now(),
            last: None,
        }
    }

    fn tick(&mut self, bytes: u64, lines: u64) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        if now.duration_since(self.start) < Self::DELAY
            || self
                .last
                .is_some_and(|l| now.duration_since(l) < Self::EVERY)
        {
            return;
        }
        self.last = Some(now);
        let line = match self.total.filter(|t| *t > 0) {
            Some(total) => {
                let done = bytes.min(total);
                let filled = usize::try_from(done * Self::WIDTH / total).unwrap_or(0);
                let empty = usize::try_from(Self::WIDTH)
                    .unwrap_or(0)
                    .saturating_sub(filled);
                format!(
                    "\r[{}{}] {:>3}%  {lines} lines",
                    "#".repeat(filled),
                    "-".repeat(empty),
                    done * 100 / total
                )
            }
            None => format!("\r{lines} lines"),
        };
        let mut err = io::stderr().lock();
        // Progress is best effort: a failing terminal must not stop the audit.
        let _ = err.write_all(line.as_bytes()).and_then(|()| err.flush());
    }

    fn finish(&mut self) {
        if self.enabled && self.last.take().is_some() {
            let mut err = io::stderr().lock();
            let _ = err.write_all(b"\r\x1b[2K").and_then(|()| err.flush());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolminimize_core::{Action, ItemReport, Report, Verdict};

    fn item(category: Category, sensitivity: u8, necessary: bool) -> ItemReport {
        ItemReport {
            path: "/notes".into(),
            category,
            sensitivity,
            necessary,
            action: if necessary {
                Action::Keep
            } else {
                Action::Remove
            },
            kind: "condition".into(),
            detector: "test",
            rule: "test",
            confidence: 0.9,
            span: None,
        }
    }

    fn outcome(items: Vec<ItemReport>, before: f64, after: f64) -> Outcome {
        Outcome {
            verdict: Verdict::Forward(serde_json::json!({})),
            report: Report {
                cost_before: before,
                cost_after: after,
                items,
                exposure: Some(Exposure::ThirdParty),
                tool_kind: None,
            },
        }
    }

    #[test]
    fn sums_by_category_sensitivity_and_tool() {
        let mut s = Summary::default();
        s.add_call(
            "send_email",
            &outcome(
                vec![
                    item(Category::Health, 4, false),
                    item(Category::Identity, 3, true),
                ],
                8.0,
                0.0,
            ),
        );
        s.add_call("get_forecast", &outcome(vec![], 0.0, 0.0));
        s.add_call(
            "search",
            &outcome(vec![item(Category::Location, 2, false)], 4.0, 4.0),
        );
        s.add_error(LineError {
            line: 4,
            id: Some(Value::from("c4")),
            message: "missing `tool`".into(),
        });
        s.finish();
        assert_eq!(
            (s.calls, s.unreadable_lines, s.calls_with_psd, s.items),
            (3, 1, 2, 3)
        );
        assert_eq!(s.unnecessary_items, 2);
        assert_eq!(s.reduction, Some(1.0 - 4.0 / 12.0));
        let health = s
            .by_category
            .iter()
            .find(|c| c.category == Category::Health)
            .unwrap();
        assert_eq!((health.items, health.unnecessary, health.cost), (1, 1, 8.0));
        assert_eq!(s.tools[0].tool, "send_email");
        assert_eq!(s.by_sensitivity.get(&4), Some(&1));
        let text = s.render();
        assert!(text.contains("reduction 66.7%"), "{text}");
        assert!(
            text.contains("line 4 (id \"c4\"): missing `tool`"),
            "{text}"
        );
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["by_category"][0]["category"], "health");
        assert_eq!(json["by_sensitivity"]["4"], 1);
        assert!(json.get("categories").is_none());
    }

    #[test]
    fn an_empty_stream_renders_without_a_reduction() {
        let mut s = Summary::default();
        s.finish();
        let text = s.render();
        assert!(text.starts_with("Calls          0"), "{text}");
        assert!(!text.contains("reduction"), "{text}");
    }
}
