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
use toolminimize_core::{Action, Category, Exposure, Outcome, PsdKind};

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
    /// Also write the audit as one self-contained HTML page (charts and tables, no script, no
    /// network) to FILE.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
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
            Record::Call(m) => summary.add_call(&m.tool_name, m.session.as_deref(), &m.outcome),
            Record::Bad(e) => summary.add_error(e),
        }
        progress.tick(
            stream.bytes_read(),
            summary.calls + summary.unreadable_lines,
        );
    }
    progress.finish();
    summary.finish();
    if let Some(path) = &args.html {
        let source = match args.input.as_deref() {
            Some(p) if p.as_os_str() != "-" => p
                .file_name()
                .map_or_else(|| "input".to_owned(), |n| n.to_string_lossy().into_owned()),
            _ => "standard input".to_owned(),
        };
        let generated = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
        let page = crate::audit_html::render(&summary, &source, &generated);
        std::fs::write(path, page).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
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
    pub(crate) calls: u64,
    /// Lines that could not be read as calls.
    pub(crate) unreadable_lines: u64,
    /// Calls the policy blocks.
    pub(crate) blocked: u64,
    /// Calls with at least one PSD item.
    pub(crate) calls_with_psd: u64,
    /// Calls with at least one unnecessary PSD item.
    pub(crate) calls_with_unnecessary_psd: u64,
    /// Calls whose arguments minimizing would change.
    pub(crate) calls_changed: u64,
    /// PSD items found.
    pub(crate) items: u64,
    /// Of which the tool does not need.
    pub(crate) unnecessary_items: u64,
    /// Σ privacy cost of the calls as sent.
    pub(crate) cost_before: f64,
    /// Σ privacy cost after minimizing.
    pub(crate) cost_after: f64,
    /// 1 − after / before; absent when nothing costs anything.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) reduction: Option<f64>,
    /// Calls that would still carry PSD the tool does not need after minimizing (not blocked,
    /// an unneeded item left as it was).
    pub(crate) calls_leaking_after: u64,
    /// Leak rate: share of calls carrying PSD the tool does not need, as sent.
    pub(crate) leak_rate_before: f64,
    /// The same share after minimizing.
    pub(crate) leak_rate_after: f64,
    /// Items by sensitivity level (`"1"` … `"4"`).
    pub(crate) by_sensitivity: BTreeMap<u8, u64>,
    /// Per category, in taxonomy order, only categories that occur.
    pub(crate) by_category: Vec<CategoryStats>,
    /// Per tool, most costly first.
    pub(crate) tools: Vec<ToolStats>,
    /// The rules that decided items, most items first.
    pub(crate) rules: Vec<RuleStats>,
    /// Conversations (lines with a `session`) and the fragments caught linking across calls.
    pub(crate) sessions: SessionsSummary,
    /// The first unreadable lines: line number, id, and why.
    pub(crate) errors: Vec<ErrorEntry>,
    #[serde(skip)]
    pub(crate) categories: BTreeMap<Category, CategoryStats>,
    #[serde(skip)]
    pub(crate) tool_index: BTreeMap<String, ToolStats>,
    #[serde(skip)]
    rule_index: BTreeMap<&'static str, RuleStats>,
    #[serde(skip)]
    session_index: BTreeMap<String, SessionStats>,
}

/// How often one rule decided an item.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct RuleStats {
    pub(crate) rule: &'static str,
    /// Items it decided.
    pub(crate) items: u64,
    /// Of which were rewritten (removed, generalized, substituted, truncated).
    pub(crate) rewritten: u64,
}

/// Sessions seen and the fragments that would have linked across their calls.
#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct SessionsSummary {
    /// Distinct sessions.
    pub(crate) sessions: u64,
    /// Calls that belong to a session.
    pub(crate) calls_in_sessions: u64,
    /// Sessions in which at least one fragment would have completed an identifying combination
    /// at a tool that already held the other parts.
    pub(crate) with_linkable_fragments: u64,
    /// Such fragments, as sent.
    pub(crate) linkable_fragments: u64,
    /// Such fragments still sent after minimizing.
    pub(crate) linkable_fragments_after: u64,
    /// The sessions with linkable fragments, in order of their first call. Sessions are named
    /// by that order (`S1`, `S2`, …), never by their id.
    pub(crate) list: Vec<SessionStats>,
}

/// One session with linkable fragments.
#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct SessionStats {
    /// `S<n>`, numbered by first appearance.
    pub(crate) label: String,
    /// 1-based number of the session's first call in the stream.
    pub(crate) first_call: u64,
    pub(crate) calls: u64,
    pub(crate) linkable_fragments: u64,
    pub(crate) linkable_fragments_after: u64,
    /// Distinct tools the session called.
    pub(crate) tools: u64,
    /// Per tool: the quasi-identifier kinds it received as sent, and after minimizing.
    #[serde(skip)]
    received: BTreeMap<String, (Vec<PsdKind>, Vec<PsdKind>)>,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct CategoryStats {
    pub(crate) category: Category,
    pub(crate) items: u64,
    pub(crate) unnecessary: u64,
    /// Σ S × E over the unnecessary items, before minimizing.
    pub(crate) cost: f64,
    /// Σ S × E over the unnecessary items still sent as they were after minimizing.
    pub(crate) cost_after: f64,
    pub(crate) by_sensitivity: BTreeMap<u8, u64>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct ToolStats {
    pub(crate) tool: String,
    pub(crate) calls: u64,
    pub(crate) calls_with_psd: u64,
    pub(crate) items: u64,
    pub(crate) unnecessary_items: u64,
    pub(crate) cost_before: f64,
    pub(crate) cost_after: f64,
}

#[derive(Debug, Serialize)]
pub(crate) struct ErrorEntry {
    pub(crate) line: u64,
    pub(crate) id: Value,
    pub(crate) error: String,
}

impl Summary {
    pub(crate) fn add_call<A>(&mut self, tool: &str, session: Option<&str>, outcome: &Outcome<A>) {
        let report = outcome.report();
        self.calls += 1;
        let leaks_after = !outcome.is_blocked()
            && report
                .items()
                .iter()
                .any(|i| !i.necessary() && i.action() == Action::Keep);
        self.calls_leaking_after += u64::from(leaks_after);
        for item in report.items() {
            let r = self
                .rule_index
                .entry(item.rule().id())
                .or_insert(RuleStats {
                    rule: item.rule().id(),
                    items: 0,
                    rewritten: 0,
                });
            r.items += 1;
            r.rewritten += u64::from(item.action() != Action::Keep);
        }
        if let Some(id) = session {
            let n = self.session_index.len() as u64;
            let calls = self.calls;
            let s = self
                .session_index
                .entry(id.to_owned())
                .or_insert_with(|| SessionStats {
                    label: format!("S{}", n + 1),
                    first_call: calls,
                    ..SessionStats::default()
                });
            s.calls += 1;
            let sent = !outcome.is_blocked();
            let (before, after) = s.received.entry(tool.to_owned()).or_default();
            // A fragment is linkable when it completes an identifying combination (name and
            // date of birth, postcode with birth date and gender, …) at a tool that holds the
            // other parts from earlier calls of the session.
            let kinds: Vec<(PsdKind, bool)> = report
                .items()
                .iter()
                .filter(|i| i.kind().is_quasi_identifier())
                .map(|i| (i.kind(), sent && i.action() == Action::Keep))
                .collect();
            for (k, kept) in &kinds {
                s.linkable_fragments += u64::from(k.completes_identity(before));
                s.linkable_fragments_after += u64::from(*kept && k.completes_identity(after));
            }
            for (k, kept) in kinds {
                if !before.contains(&k) {
                    before.push(k);
                }
                if kept && !after.contains(&k) {
                    after.push(k);
                }
            }
        }
        self.blocked += u64::from(outcome.is_blocked());
        let has_psd = !report.items().is_empty();
        self.calls_with_psd += u64::from(has_psd);
        self.calls_with_unnecessary_psd += u64::from(report.items().iter().any(|i| !i.necessary()));
        self.calls_changed += u64::from(report.changed());
        self.cost_before += report.cost_before();
        self.cost_after += report.cost_after();
        let weight = f64::from(report.exposure().unwrap_or(Exposure::Unknown).weight());
        let t = self
            .tool_index
            .entry(tool.to_owned())
            .or_insert_with(|| ToolStats {
                tool: tool.to_owned(),
                ..ToolStats::default()
            });
        t.calls += 1;
        t.calls_with_psd += u64::from(has_psd);
        t.cost_before += report.cost_before();
        t.cost_after += report.cost_after();
        for item in report.items() {
            let sensitivity = u8::from(item.sensitivity());
            self.items += 1;
            t.items += 1;
            *self.by_sensitivity.entry(sensitivity).or_default() += 1;
            let c = self
                .categories
                .entry(item.category())
                .or_insert_with(|| CategoryStats {
                    category: item.category(),
                    items: 0,
                    unnecessary: 0,
                    cost: 0.0,
                    cost_after: 0.0,
                    by_sensitivity: BTreeMap::new(),
                });
            c.items += 1;
            *c.by_sensitivity.entry(sensitivity).or_default() += 1;
            if !item.necessary() {
                self.unnecessary_items += 1;
                t.unnecessary_items += 1;
                c.unnecessary += 1;
                c.cost += f64::from(sensitivity) * weight;
                if item.action() == Action::Keep && !outcome.is_blocked() {
                    c.cost_after += f64::from(sensitivity) * weight;
                }
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
        #[allow(clippy::cast_precision_loss)] // counts far below 2^52
        if self.calls > 0 {
            self.leak_rate_before = self.calls_with_unnecessary_psd as f64 / self.calls as f64;
            self.leak_rate_after = self.calls_leaking_after as f64 / self.calls as f64;
        }
        let mut rules: Vec<RuleStats> =
            std::mem::take(&mut self.rule_index).into_values().collect();
        rules.sort_by(|a, b| b.items.cmp(&a.items).then(a.rule.cmp(b.rule)));
        self.rules = rules;
        let sessions = std::mem::take(&mut self.session_index);
        let mut s = SessionsSummary {
            sessions: sessions.len() as u64,
            ..SessionsSummary::default()
        };
        for mut st in sessions.into_values() {
            s.calls_in_sessions += st.calls;
            s.linkable_fragments += st.linkable_fragments;
            s.linkable_fragments_after += st.linkable_fragments_after;
            if st.linkable_fragments > 0 {
                s.with_linkable_fragments += 1;
                st.tools = st.received.len() as u64;
                s.list.push(st);
            }
        }
        s.list.sort_by_key(|st| st.first_call);
        self.sessions = s;
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
    use serde_json::json;
    use toolminimize_core::{ItemReport, Verdict};

    /// A report item as a report line states it.
    fn report_item(
        kind: &str,
        category: Category,
        sensitivity: u8,
        necessary: bool,
        action: Action,
        rule: &str,
    ) -> ItemReport {
        serde_json::from_value(json!({
            "path": "/notes",
            "category": category,
            "sensitivity": sensitivity,
            "necessary": necessary,
            "action": action,
            "kind": kind,
            "detector": "test",
            "rule": rule,
            "confidence": 0.9,
        }))
        .unwrap()
    }

    fn item(category: Category, sensitivity: u8, necessary: bool) -> ItemReport {
        let action = if necessary {
            Action::Keep
        } else {
            Action::Remove
        };
        report_item(
            "condition",
            category,
            sensitivity,
            necessary,
            action,
            "schema:optional-field",
        )
    }

    fn outcome(items: Vec<ItemReport>, before: f64, after: f64) -> Outcome {
        let report = serde_json::from_value(json!({
            "cost_before": before,
            "cost_after": after,
            "items": items,
            "exposure": Exposure::ThirdParty,
        }))
        .unwrap();
        Outcome::new(Verdict::Forward(json!({})), report)
    }

    #[test]
    fn sums_by_category_sensitivity_and_tool() {
        let mut s = Summary::default();
        s.add_call(
            "send_email",
            None,
            &outcome(
                vec![
                    item(Category::Health, 4, false),
                    item(Category::Identity, 3, true),
                ],
                8.0,
                0.0,
            ),
        );
        s.add_call("get_forecast", None, &outcome(vec![], 0.0, 0.0));
        s.add_call(
            "search",
            None,
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

    fn kind_item(kind: &str, category: Category, necessary: bool, action: Action) -> ItemReport {
        report_item(
            kind,
            category,
            3,
            necessary,
            action,
            "schema:required-field",
        )
    }

    #[test]
    fn counts_linkable_fragments_per_session_rules_and_leak_rates() {
        let mut s = Summary::default();
        let name = kind_item("person_name", Category::Identity, true, Action::Keep);
        let job_kept = kind_item("occupation", Category::Demographic, true, Action::Keep);
        let job_cut = kind_item("occupation", Category::Demographic, false, Action::Remove);
        // Session a: the name, then the occupation at the same tool (withheld).
        s.add_call(
            "lookup",
            Some("conv-a"),
            &outcome(vec![name.clone()], 0.0, 0.0),
        );
        s.add_call("lookup", Some("conv-a"), &outcome(vec![job_cut], 6.0, 0.0));
        // Session b: the same pieces at two different tools are not linkable; then the
        // occupation reaches the first tool as it was.
        s.add_call("lookup", Some("conv-b"), &outcome(vec![name], 0.0, 0.0));
        s.add_call(
            "other",
            Some("conv-b"),
            &outcome(vec![job_kept.clone()], 0.0, 0.0),
        );
        s.add_call("lookup", Some("conv-b"), &outcome(vec![job_kept], 0.0, 0.0));
        // An unneeded item left as it was: a leak after minimizing.
        s.add_call(
            "search",
            None,
            &outcome(
                vec![kind_item(
                    "postcode",
                    Category::Location,
                    false,
                    Action::Keep,
                )],
                4.0,
                4.0,
            ),
        );
        s.finish();
        let ss = &s.sessions;
        assert_eq!((ss.sessions, ss.calls_in_sessions), (2, 5));
        assert_eq!(
            (
                ss.with_linkable_fragments,
                ss.linkable_fragments,
                ss.linkable_fragments_after
            ),
            (2, 2, 1)
        );
        assert_eq!(ss.list[0].label, "S1");
        assert_eq!(
            (
                ss.list[1].label.as_str(),
                ss.list[1].first_call,
                ss.list[1].tools
            ),
            ("S2", 3, 2)
        );
        assert_eq!(s.calls_leaking_after, 1);
        assert!((s.leak_rate_before - 2.0 / 6.0).abs() < 1e-9);
        assert!((s.leak_rate_after - 1.0 / 6.0).abs() < 1e-9);
        assert_eq!(s.rules[0].rule, "schema:required-field");
        let loc = s
            .by_category
            .iter()
            .find(|c| c.category == Category::Location)
            .unwrap();
        assert_eq!((loc.cost, loc.cost_after), (6.0, 6.0));
        let json = serde_json::to_string(&s).unwrap();
        assert!(
            !json.contains("conv-a") && !json.contains("conv-b"),
            "{json}"
        );
        let page = crate::audit_html::render(&s, "t.jsonl", "now");
        assert!(page.contains(r#"data-metric="linkable_fragments">2<"#));
        assert!(page.contains("<td>S2</td>"));
        assert!(!page.contains("conv-"));
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
