//! `toolminimize audit --html FILE`: the audit as one self-contained page for people who
//! decide about a deployment — headline figures, privacy cost by category and by tool as bar
//! charts (inline SVG), the worst tools, the rules that fired most and the sessions with
//! linkable fragments. Inline CSS, no script, no font or image from anywhere: the page reads
//! the same offline.
//!
//! Everything on it comes from the [`Summary`]: counts, costs, taxonomy ids, rule names and
//! tool names. Sessions are named by order of appearance (`S1`, `S2`, …), never by their id,
//! and nothing from the arguments is ever shown. Each headline figure also carries a
//! `data-metric` attribute with the exact number, so tests and scripts can read the page.

use std::fmt::Write as _;

use toolminimize_core::Category;

use crate::audit::Summary;

/// Tools drawn in the per-tool chart and listed in the table.
const TOOLS_SHOWN: usize = 12;
/// Rules listed.
const RULES_SHOWN: usize = 12;
/// Sessions listed.
const SESSIONS_SHOWN: usize = 20;

/// Colour of the "as sent" bars.
const BEFORE: &str = "#d9534f";
/// Colour of the "after minimizing" bars.
const AFTER: &str = "#2e7d4f";

/// Escapes text for HTML element content and attribute values.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

fn pct(x: f64) -> String {
    format!("{:.1} %", x * 100.0)
}

#[allow(clippy::cast_precision_loss)] // counts far below 2^52
fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
    t.push('…');
    t
}

/// A horizontal bar chart: per row, the cost as sent (full bar) with the cost after
/// minimizing drawn over it, and both figures at the end.
fn bar_chart(title: &str, rows: &[(String, f64, f64)]) -> String {
    let max = rows
        .iter()
        .map(|r| r.1.max(r.2))
        .fold(0.0f64, f64::max)
        .max(1.0);
    let (label_w, bar_w, value_w, row_h) = (230.0, 560.0, 150.0, 30.0);
    let width = label_w + bar_w + value_w;
    let height = row_h * rows.len().max(1) as f64 + 8.0;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg class="chart" role="img" aria-label="{t}" viewBox="0 0 {width} {height}" width="100%" xmlns="http://www.w3.org/2000/svg"><title>{t}</title>"#,
        t = esc(title)
    );
    if rows.is_empty() {
        let _ = write!(
            s,
            r##"<text x="0" y="20" class="muted">nothing to show</text>"##
        );
    }
    for (i, (label, before, after)) in rows.iter().enumerate() {
        let y = 4.0 + row_h * i as f64;
        let wb = (before / max * bar_w).max(if *before > 0.0 { 2.0 } else { 0.0 });
        let wa = (after / max * bar_w).max(if *after > 0.0 { 2.0 } else { 0.0 });
        let _ = write!(
            s,
            r#"<text x="{lx}" y="{ty}" text-anchor="end" class="lbl">{l}</text><rect x="{label_w}" y="{by}" width="{wb:.1}" height="18" rx="2" fill="{BEFORE}" fill-opacity="0.35"/><rect x="{label_w}" y="{ay}" width="{wa:.1}" height="10" rx="2" fill="{AFTER}"/><text x="{vx}" y="{ty}" class="val">{before:.1} → {after:.1}</text>"#,
            lx = label_w - 8.0,
            ty = y + 14.0,
            l = esc(&shorten(label, 28)),
            by = y + 1.0,
            ay = y + 5.0,
            vx = label_w + wb.max(wa) + 6.0,
        );
    }
    s.push_str("</svg>");
    s
}

/// A single stacked bar of items by sensitivity level.
fn sensitivity_bar(summary: &Summary) -> String {
    let total: u64 = summary.by_sensitivity.values().sum();
    let colours = ["#9ecae1", "#fdd49e", "#fc8d59", "#b30000"];
    let names = ["S1 low", "S2 medium", "S3 high", "S4 critical"];
    let mut s = String::from(
        r#"<svg class="chart" role="img" aria-label="PSD items by sensitivity" viewBox="0 0 940 46" width="100%" xmlns="http://www.w3.org/2000/svg"><title>PSD items by sensitivity</title>"#,
    );
    let mut x = 0.0;
    for (i, level) in (1u8..=4).enumerate() {
        let n = summary.by_sensitivity.get(&level).copied().unwrap_or(0);
        let w = share(n, total) * 940.0;
        if n > 0 {
            let _ = write!(
                s,
                r#"<rect x="{x:.1}" y="0" width="{w:.1}" height="22" fill="{c}"><title>{name}: {n}</title></rect>"#,
                c = colours.get(i).copied().unwrap_or("#999"),
                name = names.get(i).copied().unwrap_or(""),
            );
            if w > 60.0 {
                let _ = write!(
                    s,
                    r#"<text x="{tx:.1}" y="15" class="seg" fill="{tc}">{name} · {n}</text>"#,
                    tx = x + 6.0,
                    tc = if level >= 4 { "#fff" } else { "#1d2330" },
                    name = names.get(i).copied().unwrap_or(""),
                );
            }
        }
        x += w;
    }
    let _ = write!(
        s,
        r#"<text x="0" y="40" class="muted">{total} item(s): S1 {a} · S2 {b} · S3 {c} · S4 {d}</text></svg>"#,
        a = summary.by_sensitivity.get(&1).copied().unwrap_or(0),
        b = summary.by_sensitivity.get(&2).copied().unwrap_or(0),
        c = summary.by_sensitivity.get(&3).copied().unwrap_or(0),
        d = summary.by_sensitivity.get(&4).copied().unwrap_or(0),
    );
    s
}

fn card(s: &mut String, label: &str, metric: &str, value: &str, detail: &str) {
    let _ = write!(
        s,
        r#"<div class="card"><div class="k">{label}</div><div class="v" data-metric="{metric}">{value}</div><div class="d">{detail}</div></div>"#,
        label = esc(label),
        value = esc(value),
        detail = detail,
    );
}

const CSS: &str = r#"
:root{--fg:#1d2330;--muted:#5d6778;--line:#e3e7ee;--bg:#f6f8fb;--before:#d9534f;--after:#2e7d4f}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif}
main{max-width:1000px;margin:0 auto;padding:28px 28px 48px}
h1{font-size:26px;margin:0 0 4px}
h2{font-size:18px;margin:0 0 4px}
.sub{color:var(--muted);margin:0 0 22px}
section{background:#fff;border:1px solid var(--line);border-radius:10px;padding:18px 20px;margin:0 0 18px}
section>p.note{color:var(--muted);margin:0 0 12px;font-size:13.5px}
.cards{display:grid;grid-template-columns:repeat(4,1fr);gap:12px;margin:0 0 18px}
.card{background:#fff;border:1px solid var(--line);border-radius:10px;padding:12px 14px}
.card .k{color:var(--muted);font-size:12.5px;text-transform:uppercase;letter-spacing:.04em}
.card .v{font-size:26px;font-weight:650;margin:2px 0}
.card .d{color:var(--muted);font-size:13px}
.good{color:var(--after)} .bad{color:var(--before)}
.legend{font-size:13px;color:var(--muted);margin:0 0 8px}
.sw{display:inline-block;width:12px;height:12px;border-radius:2px;vertical-align:-1px;margin:0 4px 0 10px}
svg.chart{max-width:100%;height:auto;display:block}
svg .lbl{font-size:13px;fill:#1d2330}
svg .val{font-size:12.5px;fill:#5d6778}
svg .seg{font-size:12px}
svg .muted{font-size:12.5px;fill:#5d6778}
table{border-collapse:collapse;width:100%;font-size:14px}
th,td{padding:6px 8px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left;white-space:normal;word-break:break-all}
th{color:var(--muted);font-weight:600;font-size:12.5px;text-transform:uppercase;letter-spacing:.03em}
tr:last-child td{border-bottom:none}
code{font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;background:#f1f3f7;padding:1px 5px;border-radius:4px}
footer{color:var(--muted);font-size:13px;margin-top:8px}
@media (max-width:760px){.cards{grid-template-columns:repeat(2,1fr)}}
@media print{body{background:#fff}section,.card{break-inside:avoid}}
"#;

/// The page for `summary`. `source` names the input (a file name, or "standard input");
/// `generated` is the time of the run.
pub(crate) fn render(summary: &Summary, source: &str, generated: &str) -> String {
    let s = summary;
    let mut h = String::with_capacity(32 * 1024);
    let _ = write!(
        h,
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>toolminimize audit — {src}</title><style>{CSS}</style></head><body><main>
<h1>What these tool calls over-share</h1>
<p class="sub">toolminimize audit of <b>{src}</b> · {gen} · every call run through the minimizer, nothing rewritten, no value from the arguments shown</p>
"#,
        src = esc(source),
        gen = esc(generated),
    );

    // Headline figures.
    h.push_str(r#"<div class="cards">"#);
    card(
        &mut h,
        "Tool calls",
        "calls",
        &s.calls.to_string(),
        &format!(
            "<span data-metric=\"tools\">{}</span> distinct tools{}",
            s.tools.len(),
            if s.unreadable_lines > 0 {
                format!(
                    " · <span data-metric=\"unreadable_lines\">{}</span> unreadable line(s)",
                    s.unreadable_lines
                )
            } else {
                String::new()
            }
        ),
    );
    card(
        &mut h,
        "Calls with sensitive data",
        "calls_with_psd",
        &s.calls_with_psd.to_string(),
        &format!(
            "{} of calls · <span data-metric=\"items\">{}</span> items, <span data-metric=\"unnecessary_items\">{}</span> not needed",
            pct(share(s.calls_with_psd, s.calls)),
            s.items,
            s.unnecessary_items
        ),
    );
    card(
        &mut h,
        "Privacy cost",
        "cost_before",
        &format!("{:.1}", s.cost_before),
        &format!(
            "after minimizing <b class=\"good\" data-metric=\"cost_after\">{:.1}</b>{}",
            s.cost_after,
            match s.reduction {
                Some(r) => format!(
                    " <span data-metric=\"reduction\" data-value=\"{r}\">(−{})</span>",
                    pct(r)
                ),
                None => String::new(),
            }
        ),
    );
    card(
        &mut h,
        "Leak rate",
        "leak_rate_before",
        &pct(s.leak_rate_before),
        &format!(
            "calls with data the tool does not need · after <b class=\"good\" data-metric=\"leak_rate_after\">{}</b>",
            pct(s.leak_rate_after)
        ),
    );
    h.push_str("</div>\n");

    // Sensitivity mix.
    let _ = writeln!(
        h,
        r#"<section><h2>Sensitive items by level</h2><p class="note">Sensitivity S from 1 (low) to 4 (critical: health, biometric, sexual life, beliefs, ethnicity, criminal). {blocked}Minimizing changes <b data-metric="calls_changed">{changed}</b> call(s).</p>{bar}</section>"#,
        blocked = if s.blocked > 0 {
            format!(
                "The policy blocks <b data-metric=\"blocked\">{}</b> call(s). ",
                s.blocked
            )
        } else {
            String::new()
        },
        changed = s.calls_changed,
        bar = sensitivity_bar(s),
    );

    let legend = format!(
        r#"<div class="legend"><span class="sw" style="background:{BEFORE};opacity:.35"></span>as sent<span class="sw" style="background:{AFTER}"></span>after minimizing</div>"#
    );

    // By category, costliest first.
    let mut cats: Vec<_> = s.by_category.iter().collect();
    cats.sort_by(|a, b| b.cost.total_cmp(&a.cost).then(b.items.cmp(&a.items)));
    let rows: Vec<(String, f64, f64)> = cats
        .iter()
        .map(|c| (category_label(c.category), c.cost, c.cost_after))
        .collect();
    let _ = write!(
        h,
        r#"<section><h2>Privacy cost by category</h2><p class="note">Σ sensitivity × exposure of the items each tool does not need (exposure 2 for third-party or unknown tools, 1 for first-party).</p>{legend}{chart}<table><thead><tr><th>category</th><th>items</th><th>not needed</th><th>cost as sent</th><th>after</th></tr></thead><tbody>"#,
        chart = bar_chart("Privacy cost by category", &rows),
    );
    for c in &cats {
        let _ = write!(
            h,
            r#"<tr data-category="{id}"><td>{label}</td><td>{}</td><td>{}</td><td>{:.1}</td><td>{:.1}</td></tr>"#,
            c.items,
            c.unnecessary,
            c.cost,
            c.cost_after,
            id = c.category.id(),
            label = esc(&category_label(c.category)),
        );
    }
    h.push_str("</tbody></table></section>\n");

    // By tool.
    let worst: Vec<_> = s
        .tools
        .iter()
        .filter(|t| t.cost_before > 0.0 || t.unnecessary_items > 0)
        .take(TOOLS_SHOWN)
        .collect();
    let rows: Vec<(String, f64, f64)> = worst
        .iter()
        .map(|t| (t.tool.clone(), t.cost_before, t.cost_after))
        .collect();
    let _ = write!(
        h,
        r#"<section><h2>The tools that leak most</h2><p class="note">{n} of {all} tools receive data they do not need; the {shown} costliest, by privacy cost as sent.</p>{legend}{chart}<table><thead><tr><th>tool</th><th>calls</th><th>with PSD</th><th>items not needed</th><th>cost as sent</th><th>after</th></tr></thead><tbody>"#,
        n = s
            .tools
            .iter()
            .filter(|t| t.cost_before > 0.0 || t.unnecessary_items > 0)
            .count(),
        all = s.tools.len(),
        shown = worst.len(),
        chart = bar_chart("Privacy cost by tool", &rows),
    );
    for t in &worst {
        let _ = write!(
            h,
            r#"<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}</td><td>{:.1}</td></tr>"#,
            esc(&t.tool),
            t.calls,
            t.calls_with_psd,
            t.unnecessary_items,
            t.cost_before,
            t.cost_after
        );
    }
    h.push_str("</tbody></table></section>\n");

    // Rules.
    let _ = write!(
        h,
        r#"<section><h2>The rules that fired most</h2><p class="note">The rule that decided each item, as named in every report; its prefix names the family (for instance <code>schema:</code> the tool's schema, <code>consent:</code> the user's own words, <code>session:</code> links across calls).</p><table><thead><tr><th>rule</th><th>items</th><th>rewritten</th><th>kept</th></tr></thead><tbody>"#
    );
    for r in s.rules.iter().take(RULES_SHOWN) {
        let _ = write!(
            h,
            r#"<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>"#,
            esc(r.rule),
            r.items,
            r.rewritten,
            r.items.saturating_sub(r.rewritten)
        );
    }
    if s.rules.is_empty() {
        h.push_str(r#"<tr><td colspan="4">no sensitive data found</td></tr>"#);
    }
    h.push_str("</tbody></table></section>\n");

    // Sessions.
    let ss = &s.sessions;
    let _ = write!(
        h,
        r#"<section><h2>Sessions with linkable fragments</h2><p class="note">A fragment is linkable when it completes an identifying combination (a name with a date of birth, a postcode with a birth date and gender, …) at a tool that already holds the other parts from earlier calls of the same conversation. Sessions are numbered by first appearance; their ids are not shown.</p><p><b data-metric="sessions">{}</b> session(s), {} call(s) · <b data-metric="sessions_with_linkable_fragments">{}</b> with linkable fragments · fragments as sent <b class="bad" data-metric="linkable_fragments">{}</b>, after minimizing <b class="good" data-metric="linkable_fragments_after">{}</b></p>"#,
        ss.sessions,
        ss.calls_in_sessions,
        ss.with_linkable_fragments,
        ss.linkable_fragments,
        ss.linkable_fragments_after,
    );
    if !ss.list.is_empty() {
        h.push_str(r#"<table><thead><tr><th>session</th><th>first call</th><th>calls</th><th>tools</th><th>fragments as sent</th><th>after</th></tr></thead><tbody>"#);
        for st in ss.list.iter().take(SESSIONS_SHOWN) {
            let _ = write!(
                h,
                r#"<tr><td>{}</td><td>#{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>"#,
                esc(&st.label),
                st.first_call,
                st.calls,
                st.tools,
                st.linkable_fragments,
                st.linkable_fragments_after
            );
        }
        h.push_str("</tbody></table>");
    }
    h.push_str("</section>\n");

    if !s.errors.is_empty() {
        let _ = write!(
            h,
            r#"<section><h2>Unreadable lines</h2><table><thead><tr><th>why</th><th>line</th></tr></thead><tbody>"#
        );
        for e in &s.errors {
            let _ = write!(
                h,
                r#"<tr><td>{}</td><td>{}</td></tr>"#,
                esc(&e.error),
                e.line
            );
        }
        h.push_str("</tbody></table></section>\n");
    }

    h.push_str(
        r#"<footer>Privacy cost PC = Σ S × E over the items a tool does not need. Leak rate = share of calls carrying at least one such item. Generated by <code>toolminimize audit --html</code>; the same figures as <code>toolminimize audit --json</code>.</footer>
</main></body></html>
"#,
    );
    h
}

fn category_label(c: Category) -> String {
    c.id().replace('_', " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_in_tool_names() {
        assert_eq!(
            esc(r#"<script>"a"&'b'"#),
            "&lt;script&gt;&quot;a&quot;&amp;&#39;b&#39;"
        );
        assert_eq!(shorten("abcdef", 4), "abc…");
    }

    #[test]
    fn an_empty_summary_renders_a_complete_page() {
        let mut s = Summary::default();
        s.finish();
        let page = render(&s, "empty.jsonl", "2026-01-01");
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.trim_end().ends_with("</html>"));
        assert!(page.contains(r#"data-metric="calls">0<"#));
        assert!(page.contains("nothing to show"));
    }
}
