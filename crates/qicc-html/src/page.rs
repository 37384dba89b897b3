//! One run's page ([`report_page`]); see the crate docs for its sections.

use crate::html::{array_of, document, esc, mebibytes, seconds, str_of, u64_of, verdict_badge};
use crate::source::Source;
use crate::svg::{tree, TreeNode};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write;

/// What a report page is made from.
pub struct PageInput<'a> {
    /// qicc's JSON report.
    pub report: &'a Value,
    /// The files it refers to ([`crate::load_sources`]).
    pub sources: &'a [Source],
    /// The command line that produced it, when known.
    pub command: Option<&'a [String]>,
    /// A link back to the index of the site the page belongs to.
    pub index_link: Option<&'a str>,
}

/// A trace longer than this shows its first [`HEAD`] and last [`TAIL`] steps, the middle
/// collapsed (as the text report does).
const COLLAPSE_ABOVE: usize = 400;
const HEAD: usize = 150;
const TAIL: usize = 150;
/// The source shows at most this many invariants under a loop (the proof lists them all).
const INVARIANTS_PER_LOOP: usize = 5;
/// The proof section shows a loop's invariants open up to this many, else collapsed.
const INVARIANTS_SHOWN_OPEN: usize = 12;
/// A source line lists at most this many of the trace's step numbers.
const STEPS_PER_LINE: usize = 6;

/// The page of one run.
pub fn report_page(input: &PageInput) -> String {
    let r = input.report;
    let verdict = str_of(r, "verdict");
    let title_file = str_of(r, "file").rsplit('/').next().unwrap_or("");
    let title = format!("qicc: {} — {}", verdict.to_ascii_uppercase(), title_file);
    let files = FileIds::new(input.sources);
    let mut body = String::new();
    let _ = write!(
        body,
        "<header><h1>qicc {} {}</h1><nav>{}<a href=\"#summary\">Summary</a>\
         <a href=\"#assertions\">Assertions</a><a href=\"#source\">Source</a>\
         <a href=\"#counterexample\">Counterexample</a><a href=\"#proof\">Proof</a>\
         <a href=\"#regions\">Regions</a></nav></header>\n<main>\n",
        verdict_badge(verdict, u64_of(r, "bounded")),
        esc(r["task"].as_str().unwrap_or(str_of(r, "file"))),
        input
            .index_link
            .map(|l| format!("<a href=\"{}\">&larr; All tasks</a>", esc(l)))
            .unwrap_or_default(),
    );
    summary(&mut body, input);
    assertions(&mut body, r, &files);
    source(&mut body, r, input.sources, &files);
    counterexample(&mut body, r, &files);
    proof(&mut body, r, &files);
    regions(&mut body, r);
    body.push_str("</main>\n");
    document(
        &title,
        &format!(" class=\"report\" data-verdict=\"{}\"", esc(verdict)),
        &body,
    )
}

/// Each source file's number, for the ids of its lines (`f0-l12`).
struct FileIds<'a> {
    names: Vec<&'a str>,
}

impl<'a> FileIds<'a> {
    fn new(sources: &'a [Source]) -> FileIds<'a> {
        FileIds {
            names: sources.iter().map(|s| s.name.as_str()).collect(),
        }
    }

    /// The id of `file`'s line `line`, when the page shows that file.
    fn line_id(&self, file: &str, line: u64) -> Option<String> {
        let f = self.names.iter().position(|n| *n == file)?;
        (line > 0).then(|| format!("f{f}-l{line}"))
    }

    /// `file:line:col`, linked to the line when the page shows it.
    fn location(&self, v: &Value) -> String {
        let (file, line, col) = (
            str_of(v, "file"),
            u64_of(v, "line").unwrap_or(0),
            u64_of(v, "col").unwrap_or(0),
        );
        if line == 0 {
            return "<span class=\"muted\">-</span>".into();
        }
        let text = if col > 0 {
            format!("{file}:{line}:{col}")
        } else {
            format!("{file}:{line}")
        };
        match self.line_id(file, line) {
            Some(id) => format!("<a class=\"loc\" href=\"#{id}\">{}</a>", esc(&text)),
            None => esc(&text),
        }
    }
}

fn row(out: &mut String, key: &str, value: &str) {
    let _ = writeln!(out, "<tr><th>{}</th><td>{value}</td></tr>", esc(key));
}

fn summary(out: &mut String, input: &PageInput) {
    let r = input.report;
    let stats = &r["stats"];
    out.push_str("<section id=\"summary\"><h2>Summary</h2><table class=\"kv\">\n");
    row(
        out,
        "Verdict",
        &verdict_badge(str_of(r, "verdict"), u64_of(r, "bounded")),
    );
    if let Some(p) = r["violated_property"].as_str() {
        row(out, "Violated property", &esc(p));
    }
    if let Some(why) = r["reason"].as_str() {
        row(out, "Reason", &esc(why));
    }
    if let Some(ms) = u64_of(stats, "time_ms") {
        row(out, "Time", &seconds(ms));
    }
    if let Some(kib) = u64_of(stats, "peak_rss_kib") {
        row(out, "Memory (peak)", &mebibytes(kib));
    }
    row(out, "Engine", &esc(str_of(r, "engine")));
    if let Some(b) = stats["backend"].as_str() {
        row(out, "Verifier X", &esc(b));
    }
    row(out, "Property", &esc(str_of(r, "property")));
    row(out, "Data model", &esc(str_of(r, "data_model")));
    if let Some(cmd) = input.command {
        row(
            out,
            "Command",
            &format!("<code>{}</code>", esc(&cmd.join(" "))),
        );
    }
    if let Some(task) = r["task"].as_str() {
        row(out, "Task", &esc(task));
    }
    let files: Vec<String> = array_of(r, "files")
        .iter()
        .filter_map(Value::as_str)
        .map(esc)
        .collect();
    row(out, "Files", &files.join(", "));
    if let Some(e) = r["expected_verdict"].as_bool() {
        let expected = if e { "true" } else { "false" };
        let given = str_of(r, "verdict");
        let agrees = if given == expected {
            " (agrees)"
        } else if given == "true" || given == "false" {
            " (<strong>differs</strong>)"
        } else {
            ""
        };
        row(
            out,
            "Expected verdict",
            &format!("{}{agrees}", verdict_badge(expected, None)),
        );
    }
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for a in array_of(r, "assertions") {
        *counts.entry(str_of(a, "status")).or_default() += 1;
    }
    let counted: Vec<String> = counts.iter().map(|(s, n)| format!("{n} {s}")).collect();
    row(out, "Assertions", &esc(&counted.join(", ")));
    let ub = &r["ub_checks"];
    row(
        out,
        "Undefined-behaviour checks",
        &format!(
            "{} checks, {} proven unreachable, {} open",
            u64_of(ub, "checks").unwrap_or(0),
            u64_of(ub, "safe").unwrap_or(0),
            array_of(ub, "open").len()
        ),
    );
    if let Some(n) = u64_of(stats, "regions_tried") {
        row(out, "Verifier runs on regions", &n.to_string());
    }
    out.push_str("</table>\n");
    if let Some(e) = r["internal_error"].as_object() {
        let _ = writeln!(
            out,
            "<p class=\"error\" id=\"internal-error\"><strong>Internal error:</strong> {}</p>",
            esc(e.get("message").and_then(Value::as_str).unwrap_or(""))
        );
    }
    for w in array_of(r, "warnings").iter().filter_map(Value::as_str) {
        let _ = writeln!(out, "<p class=\"warn\">warning: {}</p>", esc(w));
    }
    out.push_str("</section>\n");
}

/// A status badge: `#1 violated`.
fn status_badge(a: &Value, with_label: bool) -> String {
    let status = str_of(a, "status");
    let label = str_of(a, "label");
    let text = if with_label {
        format!("{label} {status}")
    } else {
        status.to_string()
    };
    // An undefined-behaviour check is quieter than an assertion unless it is violated.
    let class = if label.starts_with("ub#") && status != "violated" {
        "st-ub".to_string()
    } else {
        format!("st-{status}")
    };
    format!("<span class=\"st {class}\">{}</span>", esc(&text))
}

/// Why an assertion has its status: the argument of a proof, the reason of an unknown.
fn why(a: &Value) -> String {
    match (a["argument_text"].as_str(), a["reason"].as_str()) {
        (Some(arg), _) => esc(arg),
        (None, Some(reason)) => esc(reason),
        _ => String::new(),
    }
}

fn assertions(out: &mut String, r: &Value, files: &FileIds) {
    out.push_str(
        "<section id=\"assertions\"><h2>Assertions</h2>\n<table class=\"assertions\">\
         <thead><tr><th>Assertion</th><th>Kind</th><th>Location</th><th>Function</th>\
         <th>Condition</th><th>Status</th><th>Argument or reason</th><th>Proved by</th>\
         <th>Runs</th></tr></thead><tbody>\n",
    );
    let open = array_of(&r["ub_checks"], "open");
    for a in array_of(r, "assertions").iter().chain(open) {
        let _ = writeln!(
            out,
            "<tr id=\"a-{}\" class=\"assertion\" data-status=\"{}\"><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td></tr>",
            u64_of(a, "id").unwrap_or(0),
            esc(str_of(a, "status")),
            esc(str_of(a, "label")),
            esc(str_of(a, "kind")),
            files.location(a),
            esc(str_of(a, "function")),
            esc(str_of(a, "text")),
            status_badge(a, false),
            why(a),
            esc(str_of(a, "proved_by")),
            u64_of(a, "tries")
                .map(|t| t.to_string())
                .unwrap_or_default(),
        );
    }
    out.push_str("</tbody></table>\n");
    if !open.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"muted\">Rows labelled <code>ub#N</code> are the undefined-behaviour \
             checks not proven unreachable ({} of {}).</p>",
            open.len(),
            u64_of(&r["ub_checks"], "checks").unwrap_or(0)
        );
    }
    out.push_str("</section>\n");
}

/// The steps of the trace shown on the page (as the report gives them).
fn steps(r: &Value) -> &[Value] {
    array_of(&r["violation"]["trace"], "steps")
}

fn source(out: &mut String, r: &Value, sources: &[Source], files: &FileIds) {
    out.push_str("<section id=\"source\"><h2>Source</h2>\n");
    // Marks per (file, line): assertions and checks, the trace's step numbers, invariants.
    let mut marks: BTreeMap<(&str, u64), Vec<String>> = BTreeMap::new();
    let violated = r["violation"]["assertion"].as_u64();
    let mut violated_at = None;
    for a in array_of(r, "assertions")
        .iter()
        .chain(array_of(&r["ub_checks"], "open"))
    {
        let at = (str_of(a, "file"), u64_of(a, "line").unwrap_or(0));
        if violated.is_some() && u64_of(a, "id") == violated {
            violated_at = Some(at);
        }
        marks.entry(at).or_default().push(format!(
            "<a href=\"#a-{}\" title=\"{}\">{}</a>",
            u64_of(a, "id").unwrap_or(0),
            why(a),
            status_badge(a, true)
        ));
    }
    let mut on_trace: BTreeMap<(&str, u64), Vec<usize>> = BTreeMap::new();
    for (i, s) in steps(r).iter().enumerate() {
        on_trace
            .entry((str_of(s, "file"), u64_of(s, "line").unwrap_or(0)))
            .or_default()
            .push(i + 1);
    }
    let mut invariants: BTreeMap<(&str, u64), Vec<&str>> = BTreeMap::new();
    for inv in array_of(r, "invariants") {
        let at = (str_of(inv, "file"), u64_of(inv, "line").unwrap_or(0));
        for c in array_of(inv, "conditions") {
            invariants.entry(at).or_default().push(str_of(c, "text"));
        }
    }
    for src in sources {
        let _ = writeln!(out, "<h3>{}</h3>", esc(&src.name));
        let Some(text) = &src.text else {
            out.push_str("<p class=\"muted\">The file could not be read.</p>\n");
            continue;
        };
        let _ = writeln!(
            out,
            "<table class=\"source\" data-file=\"{}\"><tbody>",
            esc(&src.name)
        );
        for (i, line) in text.lines().enumerate() {
            let n = i as u64 + 1;
            let at = (src.name.as_str(), n);
            let mut class = vec!["line"];
            let steps_here = on_trace.get(&at);
            if steps_here.is_some() {
                class.push("on-trace");
            }
            if violated_at == Some(at) {
                class.push("violated-line");
            }
            let mut mark = marks.get(&at).map(|m| m.join(" ")).unwrap_or_default();
            if let Some(steps) = steps_here {
                let mut shown: Vec<String> = steps
                    .iter()
                    .take(STEPS_PER_LINE)
                    .map(|s| format!("<a href=\"#step-{s}\">{s}</a>"))
                    .collect();
                if steps.len() > STEPS_PER_LINE {
                    shown.push(format!("+{}", steps.len() - STEPS_PER_LINE));
                }
                let _ = write!(
                    mark,
                    " <span class=\"steps-at\" title=\"steps of the counterexample on this line\">\
                     step {}</span>",
                    shown.join(", ")
                );
            }
            let id = files.line_id(&src.name, n).unwrap_or_default();
            let _ = writeln!(
                out,
                "<tr id=\"{id}\" class=\"{}\"><td class=\"ln\"><a href=\"#{id}\">{n}</a></td>\
                 <td class=\"marks\">{mark}</td><td class=\"code\">{}</td></tr>",
                class.join(" "),
                esc(line)
            );
            if let Some(conds) = invariants.get(&at) {
                let indent: String = line.chars().take_while(|c| c.is_whitespace()).collect();
                for c in conds.iter().take(INVARIANTS_PER_LOOP) {
                    let _ = writeln!(
                        out,
                        "<tr class=\"inv-row\"><td class=\"ln\"></td><td class=\"marks\">\
                         <span class=\"st st-safe\">invariant</span></td><td class=\"code\">\
                         {}/*@ loop invariant {}; */</td></tr>",
                        esc(&indent),
                        esc(c)
                    );
                }
                if conds.len() > INVARIANTS_PER_LOOP {
                    let _ = writeln!(
                        out,
                        "<tr class=\"inv-row\"><td class=\"ln\"></td><td class=\"marks\"></td>\
                         <td class=\"code\">{}/*@ <a href=\"#proof\">{} more</a> */</td></tr>",
                        esc(&indent),
                        conds.len() - INVARIANTS_PER_LOOP
                    );
                }
            }
        }
        out.push_str("</tbody></table>\n");
    }
    out.push_str("</section>\n");
}

fn step_row(out: &mut String, i: usize, s: &Value, files: &FileIds) {
    let kind = str_of(s, "kind");
    let depth = u64_of(s, "depth").unwrap_or(0).min(12);
    let _ = writeln!(
        out,
        "<tr id=\"step-{i}\" class=\"step k-{}\"><td>{i}</td><td>{}</td>\
         <td class=\"fn\" style=\"padding-left:{}em\">{}</td><td>{}</td><td><code>{}</code></td>\
         <td><code>{}</code></td></tr>",
        esc(kind),
        files.location(s),
        0.5 + depth as f64,
        esc(str_of(s, "function")),
        esc(kind),
        esc(str_of(s, "text")),
        esc(str_of(s, "value")),
    );
}

const STEP_HEAD: &str = "<table class=\"trace\"><thead><tr><th>Step</th><th>Location</th>\
    <th>Function</th><th>Kind</th><th>What happened</th><th>Value</th></tr></thead><tbody>\n";

/// A trace: inputs, then the steps (a long one's middle collapsed), then how it ended.
fn trace(out: &mut String, t: &Value, files: &FileIds) {
    let inputs = array_of(t, "inputs");
    if !inputs.is_empty() {
        let _ = writeln!(
            out,
            "<h3>Inputs ({})</h3><table class=\"inputs\"><thead><tr><th>#</th>\
             <th>From</th><th>Value</th><th>Location</th></tr></thead><tbody>",
            inputs.len()
        );
        for input in inputs {
            let bodyless = if input["bodyless"].as_bool() == Some(true) {
                " <span class=\"st st-unknown\">no body</span>"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "<tr class=\"input\"><td>{}</td><td><code>{}</code>{bodyless}</td>\
                 <td><code>{}</code></td><td>{}</td></tr>",
                u64_of(input, "index").unwrap_or(0),
                esc(str_of(input, "function")),
                esc(str_of(input, "value")),
                files.location(input),
            );
        }
        out.push_str("</tbody></table>\n");
    }
    let steps = array_of(t, "steps");
    let _ = writeln!(out, "<h3>Steps ({})</h3>", steps.len());
    out.push_str(STEP_HEAD);
    let collapse = steps.len() > COLLAPSE_ABOVE;
    for (i, s) in steps.iter().enumerate() {
        let n = i + 1;
        if collapse && i == HEAD {
            let _ = writeln!(
                out,
                "</tbody></table>\n<details class=\"middle\"><summary>{} steps in the middle \
                 (steps {}-{})</summary>\n{STEP_HEAD}",
                steps.len() - HEAD - TAIL,
                HEAD + 1,
                steps.len() - TAIL
            );
        }
        if collapse && i == steps.len() - TAIL {
            let _ = writeln!(out, "</tbody></table></details>\n{STEP_HEAD}");
        }
        step_row(out, n, s, files);
    }
    out.push_str("</tbody></table>\n");
    let _ = writeln!(
        out,
        "<p class=\"outcome\"><strong>Outcome:</strong> {}</p>",
        esc(str_of(t, "outcome"))
    );
}

fn counterexample(out: &mut String, r: &Value, files: &FileIds) {
    out.push_str("<section id=\"counterexample\"><h2>Counterexample</h2>\n");
    let v = &r["violation"];
    if v.is_object() {
        let what = if str_of(r, "verdict") == "false" {
            "The replayed execution that violates the assertion"
        } else {
            "The replayed execution that reaches an undefined-behaviour check"
        };
        let _ = writeln!(out, "<p>{what}.</p>");
        if let Some(by) = v["found_by"].as_str() {
            let _ = writeln!(out, "<p>Found by {}.</p>", esc(by));
        }
        let bodyless: Vec<String> = array_of(v, "assumes_bodyless")
            .iter()
            .filter_map(Value::as_str)
            .map(|f| format!("<code>{}</code>", esc(f)))
            .collect();
        if !bodyless.is_empty() {
            let _ = writeln!(
                out,
                "<p class=\"warn\">It chooses the results of functions without a body: {}.</p>",
                bodyless.join(", ")
            );
        }
        trace(out, &v["trace"], files);
        if let Some(w) = v["tool_witness"].as_str() {
            let _ = writeln!(
                out,
                "<details><summary>The external verifier's own witness</summary><pre>{}</pre>\
                 </details>",
                esc(w)
            );
        }
    } else {
        out.push_str("<p class=\"muted\">None: no violation was found.</p>\n");
    }
    let e = &r["internal_error"];
    if e.is_object() {
        let _ = writeln!(
            out,
            "<h3>The contradicting violation</h3><p>Proven safe by {}, violated by {}.</p>",
            esc(str_of(e, "proved_safe_by")),
            esc(str_of(e, "violated_by"))
        );
        trace(out, &e["trace"], files);
    }
    out.push_str("</section>\n");
}

fn proof(out: &mut String, r: &Value, files: &FileIds) {
    out.push_str("<section id=\"proof\"><h2>Proof</h2>\n");
    let safe: Vec<&Value> = array_of(r, "assertions")
        .iter()
        .filter(|a| str_of(a, "status") == "safe")
        .collect();
    if safe.is_empty() {
        out.push_str("<p class=\"muted\">No assertion is proven safe.</p>\n");
    } else {
        out.push_str(
            "<table class=\"proofs\"><thead><tr><th>Assertion</th><th>Location</th>\
             <th>Argument</th><th>Proved by</th></tr></thead><tbody>\n",
        );
        for a in safe {
            let _ = writeln!(
                out,
                "<tr class=\"proof\" data-argument=\"{}\"><td><a href=\"#a-{}\">{}</a></td>\
                 <td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(str_of(&a["argument"], "kind")),
                u64_of(a, "id").unwrap_or(0),
                esc(str_of(a, "label")),
                files.location(a),
                why(a),
                esc(str_of(a, "proved_by")),
            );
        }
        out.push_str("</tbody></table>\n");
    }
    let ub = &r["ub_checks"];
    let _ = writeln!(
        out,
        "<p>Undefined behaviour: {} of {} checks proven unreachable.</p>",
        u64_of(ub, "safe").unwrap_or(0),
        u64_of(ub, "checks").unwrap_or(0)
    );
    let invariants = array_of(r, "invariants");
    if !invariants.is_empty() {
        out.push_str("<h3>Loop invariants</h3>\n");
        for inv in invariants {
            let exact = if inv["exact_acceleration"].as_bool() == Some(true) {
                " (closed by exact acceleration)"
            } else {
                ""
            };
            let conditions = array_of(inv, "conditions");
            let _ = writeln!(
                out,
                "<div class=\"invariant\"><p>Loop at {} in <code>{}</code>{exact}: {} \
                 conditions proven at its head.</p>",
                files.location(inv),
                esc(str_of(inv, "function")),
                conditions.len()
            );
            // A long list is collapsed (a loop may have dozens of proven conditions).
            let long = conditions.len() > INVARIANTS_SHOWN_OPEN;
            if long {
                out.push_str("<details><summary>Show them</summary>");
            }
            out.push_str("<pre>");
            for c in conditions {
                let _ = writeln!(out, "/*@ loop invariant {}; */", esc(str_of(c, "text")));
            }
            out.push_str("</pre>");
            if long {
                out.push_str("</details>");
            }
            out.push_str("</div>\n");
        }
    }
    out.push_str("</section>\n");
}

/// The colour class of a region node: the best outcome of the runs on it.
fn outcome_class(outcomes: &[&str]) -> &'static str {
    let has = |p: &str| outcomes.iter().any(|o| o.starts_with(p));
    if has("proved all") {
        "o-proved"
    } else if has("proved some") {
        "o-some"
    } else if has("failed") {
        "o-failed"
    } else if has("error") {
        "o-error"
    } else if has("cancelled") {
        "o-cancelled"
    } else {
        "o-none"
    }
}

fn regions(out: &mut String, r: &Value) {
    out.push_str("<section id=\"regions\"><h2>Regions</h2>\n");
    let nodes = array_of(r, "regions");
    let attempts = array_of(r, "attempts");
    let mut by_node: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for a in attempts {
        by_node
            .entry(str_of(a, "node"))
            .or_default()
            .push(str_of(a, "outcome"));
    }
    if nodes.is_empty() {
        out.push_str("<p class=\"muted\">The report lists no Region Nesting Tree.</p>\n");
    } else {
        let total = u64_of(&r["stats"], "rnt_nodes").unwrap_or(nodes.len() as u64);
        let _ = writeln!(
            out,
            "<p>The Region Nesting Tree: the program's functions and loop regions, each inside \
             the one that encloses it ({} nodes{}). Coloured by the best outcome of the runs on \
             it:</p><p class=\"legend\"><span style=\"background:#bfe6c4\">proved all</span>\
             <span style=\"background:#e1f2c4\">proved some</span><span \
             style=\"background:#f6c5c0\">failed</span><span style=\"background:#dde0e4\">\
             cancelled</span><span style=\"background:#ffd9a0\">error</span><span>not run</span></p>",
            total,
            if (nodes.len() as u64) < total {
                format!(", the first {} drawn", nodes.len())
            } else {
                String::new()
            }
        );
        let tree_nodes: Vec<TreeNode> = nodes
            .iter()
            .map(|n| {
                let name = str_of(n, "name");
                let outcomes = by_node.get(name).map(Vec::as_slice).unwrap_or(&[]);
                let tooltip = if outcomes.is_empty() {
                    format!("{name}: not run")
                } else {
                    format!("{name}: {}", outcomes.join("; "))
                };
                TreeNode {
                    parent: u64_of(n, "parent").map(|p| p as usize),
                    label: name.split(" (lines").next().unwrap_or(name).to_string(),
                    tooltip,
                    class: outcome_class(outcomes),
                }
            })
            .collect();
        out.push_str("<div class=\"rnt-picture\">");
        out.push_str(&tree(&tree_nodes));
        out.push_str("</div>\n");
    }
    if !attempts.is_empty() {
        out.push_str(
            "<h3>Runs of the verifier</h3><table class=\"attempts sortable-table\"><thead><tr>\
             <th data-col=\"node\">Node</th><th data-col=\"assertions\" data-type=\"num\">\
             Assertions</th><th data-col=\"proved\" data-type=\"num\">Proved</th>\
             <th data-col=\"outcome\">Outcome</th><th data-col=\"time\" data-type=\"num\">\
             Time</th><th data-col=\"speculative\">Early start</th><th data-col=\"facts\">\
             Facts assumed</th></tr></thead><tbody>\n",
        );
        for a in attempts {
            let outcome = str_of(a, "outcome");
            let ms = u64_of(a, "time_ms").unwrap_or(0);
            let _ = writeln!(
                out,
                "<tr class=\"attempt {}\"><td>{}</td><td data-v=\"{}\">{}</td><td data-v=\"{}\">\
                 {}</td><td>{}</td><td data-v=\"{ms}\">{}</td><td>{}</td><td><code>{}</code>\
                 </td></tr>",
                outcome_class(&[outcome]),
                esc(str_of(a, "node")),
                array_of(a, "assertions").len(),
                array_of(a, "assertions").len(),
                array_of(a, "proved").len(),
                array_of(a, "proved").len(),
                esc(outcome),
                seconds(ms),
                if a["speculative"].as_bool() == Some(true) {
                    "yes"
                } else {
                    ""
                },
                esc(str_of(a, "facts")),
            );
        }
        out.push_str("</tbody></table>\n");
    }
    out.push_str("</section>\n");
}
