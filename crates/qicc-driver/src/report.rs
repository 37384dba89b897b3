//! The result of a `qicc verify` run, as the user sees it: verdict, reason, per-assertion
//! status and the argument that proved each safe assertion, the loop invariants such an
//! argument used, the counterexample trace, warnings and figures. Serialises to the JSON
//! object printed by `--format json` (field names are part of the CLI's contract, and every
//! key is there whatever the outcome: `null` or `[]` for what a run did not produce, so a
//! timeout's report reads like an answer's) and renders as text.

use qicc_engine::{AssertionStatus, LoopInvariant};
use qicc_interp::Trace;
use qicc_ir::{AssertionId, Program};
use serde::Serialize;
use std::fmt::Write;

use qicc_frontend::task::Properties;

/// The properties as SV-COMP names them (`no-overflow`; several comma-separated), in JSON.
fn property_name<S: serde::Serializer>(p: &Properties, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&p.name())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    True,
    False,
    Unknown,
    /// Bounded mode (`--bound K`): no violation and no undefined behaviour within the bound
    /// (the report's `bounded`), longer executions not explored. Never TRUE: SV-COMP output
    /// and witnesses treat it as UNKNOWN.
    Bounded,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::True => "TRUE",
            Verdict::False => "FALSE",
            Verdict::Unknown => "UNKNOWN",
            Verdict::Bounded => "BOUNDED",
        }
    }
}

/// The kind of argument that proved an assertion safe (`proved_by` names the run). JSON: an
/// object whose `kind` is the variant's snake-case name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Argument {
    /// Bounded model checking unwound every loop and recursion completely: no path is cut
    /// at `bound`.
    CompleteUnwinding { bound: Option<u32> },
    /// Qicc: a run of the verifier on the region `proved_by` names, on its own (every entry
    /// state of the region, so every calling context); the runs are the report's `attempts`.
    Region,
    /// Loop invariants proven inductive at every loop head: the report's `invariants`.
    LoopInvariants,
    /// k-induction at `k` (the largest `k` that proved an assertion of the run), strengthened
    /// by the loop invariants proven at every head (the report's `invariants`).
    KInduction { k: u64 },
    /// Corral: stratified inlining ran out of calls to inline (or summaries covered them)
    /// without reaching the assertion, up to `recursion_bound`.
    StratifiedInlining { recursion_bound: Option<u32> },
    /// The external verifier `tool` proved the user's own files (Qicc+X's run of X on the
    /// original program, with X's options and X's models of the C library).
    Tool { tool: String },
}

impl std::fmt::Display for Argument {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Argument::CompleteUnwinding { bound: Some(k) } => {
                write!(f, "complete unwinding at bound {k}")
            }
            Argument::CompleteUnwinding { bound: None } => write!(f, "complete unwinding"),
            Argument::Region => write!(f, "region proof"),
            Argument::LoopInvariants => write!(f, "loop invariants, see \"Loop invariants\""),
            Argument::KInduction { k } => {
                write!(
                    f,
                    "k-induction at k = {k} with the loop invariants, see \"Loop invariants\""
                )
            }
            Argument::StratifiedInlining {
                recursion_bound: Some(r),
            } => write!(f, "stratified inlining up to recursion bound {r}"),
            Argument::StratifiedInlining {
                recursion_bound: None,
            } => write!(f, "stratified inlining"),
            Argument::Tool { tool } => {
                write!(f, "{tool}'s own proof (its C semantics and library models)")
            }
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct AssertionReport {
    pub id: u32,
    /// How the text report names it: `#N` for the program's N-th assertion, `ub#N` for its
    /// N-th undefined-behaviour check ([`Program::assertion_label`]).
    pub label: String,
    pub kind: String,
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub function: String,
    pub text: Option<String>,
    /// `safe`, `violated` or `unknown`.
    pub status: &'static str,
    pub reason: Option<String>,
    /// Which engine step established the status (e.g. `bmc`, or the Qicc region).
    pub proved_by: Option<String>,
    /// For a safe assertion, the kind of argument that proved it.
    pub argument: Option<Argument>,
    /// The argument in words, as the text report says it (`region proof`).
    pub argument_text: Option<String>,
    /// Qicc: how many runs of the verifier included this assertion.
    pub tries: Option<usize>,
}

/// One node of the Region Nesting Tree, as the report gives it.
#[derive(Clone, Debug, Serialize)]
pub struct RegionNode {
    /// Its index in the report's `regions`.
    pub id: u32,
    pub parent: Option<u32>,
    /// As the attempts name it: `region main/L7 (lines 12-18)`.
    pub name: String,
    /// `function` or `region`.
    pub kind: &'static str,
    /// The smallest and largest source line of its edges.
    pub lines: Option<(u32, u32)>,
    /// The assertions reachable inside it.
    pub assertions: Vec<u32>,
}

/// How many RNT nodes the report lists at most (a call tree of 2^24 calls has the RNT's
/// maximum, 50,000): the first in pre-order, so every listed node's parent is listed; the
/// whole tree's size is `stats.rnt_nodes`.
pub const MAX_REPORTED_REGIONS: usize = 1000;

/// The report's `regions`: the program's RNT in pre-order (at most
/// [`MAX_REPORTED_REGIONS`]).
pub fn region_nodes(program: &Program) -> Vec<RegionNode> {
    let rnt = qicc_analysis::build_rnt(program);
    let mut order = Vec::new();
    let mut stack = vec![rnt.root];
    while let Some(n) = stack.pop() {
        if order.len() == MAX_REPORTED_REGIONS {
            break;
        }
        order.push(n);
        stack.extend(rnt.node(n).children.iter().rev().copied());
    }
    let mut index = vec![u32::MAX; rnt.nodes.len()];
    for (i, n) in order.iter().enumerate() {
        index[n.index()] = i as u32;
    }
    order
        .iter()
        .map(|&n| {
            let node = rnt.node(n);
            RegionNode {
                id: index[n.index()],
                parent: node
                    .parent
                    .map(|p| index[p.index()])
                    .filter(|&p| p != u32::MAX),
                name: rnt.describe(program, n),
                kind: match node.kind {
                    qicc_analysis::rnt::NodeKind::Function(_) => "function",
                    qicc_analysis::rnt::NodeKind::Region(_) => "region",
                },
                lines: node.lines,
                assertions: node.assertions.iter().map(|a| a.0).collect(),
            }
        })
        .collect()
}

#[derive(Clone, Debug, Serialize)]
pub struct UbSummary {
    pub checks: usize,
    pub safe: usize,
    /// The undefined-behaviour checks that are not proven unreachable.
    pub open: Vec<AssertionReport>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Violation {
    /// The violated assertion; under an UNKNOWN verdict, the reachable undefined-behaviour
    /// check the trace reaches.
    pub assertion: u32,
    pub trace: Trace,
    /// The functions without a body whose results (and, unless declared const/pure, effects
    /// on globals and memory) the counterexample chose: it is a real execution only if the
    /// real functions can behave so. Empty for a counterexample from inputs alone.
    pub assumes_bodyless: Vec<String>,
    /// When the counterexample is an external verifier's (Qicc+X), replayed by qicc: the
    /// tool's own violation witness (SV-COMP 2.0 YAML) it came from.
    pub tool_witness: Option<String>,
    /// Which run found it (a region's run, a member of the portfolio, X on the user's files),
    /// when the engine says.
    pub found_by: Option<String>,
}

impl Violation {
    pub fn new(assertion: u32, trace: Trace) -> Violation {
        let mut assumes_bodyless: Vec<String> = trace
            .inputs
            .iter()
            .filter(|i| i.bodyless)
            .map(|i| i.function.clone())
            .chain(
                trace
                    .steps
                    .iter()
                    .filter_map(|s| s.function.strip_prefix(qicc_ir::EXTERN_STUB_PREFIX))
                    .map(str::to_string),
            )
            .collect();
        assumes_bodyless.sort();
        assumes_bodyless.dedup();
        Violation {
            assertion,
            trace,
            assumes_bodyless,
            tool_witness: None,
            found_by: None,
        }
    }
}

/// Two runs that contradict each other about one assertion: one proved it safe, the other
/// found a violation whose witness replays to it on the program. One of the two engines is
/// unsound, so neither answer is given: the verdict is UNKNOWN, the CLI exits with 1 (internal
/// error), and the report names both runs (never silently resolved).
#[derive(Clone, Debug, Serialize)]
pub struct InternalError {
    pub message: String,
    /// The assertion both runs are about.
    pub assertion: u32,
    /// The run (region, function, engine) that proved it safe.
    pub proved_safe_by: String,
    /// The run that found the violation.
    pub violated_by: String,
    /// The replayed trace of the violation.
    pub trace: Trace,
}

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub verdict: Verdict,
    pub reason: Option<String>,
    /// Bounded mode: the bound the answer holds within (`null` otherwise).
    pub bounded: Option<u32>,
    /// The program's first file (the one file of most programs).
    pub file: String,
    /// Every file of the program, in order: its translation units.
    pub files: Vec<String>,
    pub task: Option<String>,
    pub expected_verdict: Option<bool>,
    /// The properties checked (JSON: their SV-COMP names, `unreach-call`, `no-overflow`,
    /// comma-separated when there are several).
    #[serde(serialize_with = "property_name")]
    pub property: Properties,
    /// Under FALSE, SV-COMP's name of what the counterexample violates: the property, or the
    /// sub-property of a memory-safety one (`valid-deref`); `null` otherwise.
    pub violated_property: Option<String>,
    pub engine: String,
    pub data_model: &'static str,
    pub assertions: Vec<AssertionReport>,
    pub ub_checks: UbSummary,
    pub violation: Option<Violation>,
    /// Contradictory results (see [`InternalError`]); the verdict is then UNKNOWN and the
    /// CLI exits with 1.
    pub internal_error: Option<InternalError>,
    pub warnings: Vec<String>,
    /// Qicc: every run of the verifier on a region, function or the whole program.
    pub attempts: Vec<qicc_gamble::Attempt>,
    /// The Region Nesting Tree (Qicc paper, Alg. 1 and 2): its nodes in pre-order, the root
    /// first; `attempts` name a node by its `name`.
    pub regions: Vec<RegionNode>,
    /// The loop invariants an assertion's proof used ([`Argument::LoopInvariants`]): per
    /// loop, its location and the conditions proven at its head.
    pub invariants: Vec<LoopInvariant>,
    pub stats: serde_json::Map<String, serde_json::Value>,
    /// Every assertion's label by id (see [`AssertionReport::label`]), for the text.
    #[serde(skip)]
    pub labels: std::collections::BTreeMap<u32, String>,
}

impl Report {
    /// The report as a reader sees it: traces without the machinery's steps unless
    /// `full_traces` ([`Trace::shown`]). Witnesses are written from the whole report.
    pub fn shown(&self, full_traces: bool) -> Report {
        let mut r = self.clone();
        if let Some(v) = &mut r.violation {
            v.trace = v.trace.shown(full_traces);
        }
        if let Some(e) = &mut r.internal_error {
            e.trace = e.trace.shown(full_traces);
        }
        r
    }
}

/// The user-facing view of one assertion with a status.
pub fn assertion_report(
    program: &Program,
    id: AssertionId,
    status: &AssertionStatus,
    proved_by: Option<String>,
) -> AssertionReport {
    let a = program.assertion(id);
    let (status, reason) = match status {
        AssertionStatus::Safe => ("safe", None),
        AssertionStatus::Violated => ("violated", None),
        AssertionStatus::Unknown(r) => ("unknown", Some(r.clone())),
        AssertionStatus::SafeWithin(k) => (
            "bounded",
            Some(format!(
                "no execution within bound {k} reaches it (longer ones were not explored)"
            )),
        ),
    };
    AssertionReport {
        id: id.0,
        label: program.assertion_label(id),
        kind: a.kind.name().to_string(),
        file: program
            .files
            .get(a.span.file as usize)
            .cloned()
            .unwrap_or_default(),
        line: a.span.line,
        col: a.span.col,
        function: program
            .functions
            .get(a.func.index())
            .map(|f| f.name.clone())
            .unwrap_or_default(),
        text: a.text.clone(),
        status,
        reason,
        proved_by,
        argument: None,
        argument_text: None,
        tries: None,
    }
}

impl Report {
    fn label(&self, id: u32) -> String {
        self.labels
            .get(&id)
            .cloned()
            .unwrap_or_else(|| format!("{}", AssertionId(id)))
    }

    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for w in &self.warnings {
            let _ = writeln!(out, "{w}");
        }
        let _ = writeln!(
            out,
            "qicc: {} ({}), engine {}",
            self.files.join(" "),
            self.data_model,
            self.engine
        );
        if let Some(v) = &self.violation {
            // Under UNKNOWN the trace reaches undefined behaviour, not a violation.
            let heading = if self.verdict == Verdict::False {
                "Counterexample"
            } else {
                "Trace to the undefined behaviour (C gives the rest of the run no meaning)"
            };
            let from = match (&v.found_by, v.tool_witness.is_some()) {
                (Some(by), true) => format!(" (found by {by}; its witness replayed by qicc)"),
                (Some(by), false) => format!(" (found by {by})"),
                (None, true) => " (an external verifier's witness, replayed by qicc)".into(),
                (None, false) => String::new(),
            };
            let _ = writeln!(out, "\n{heading}{from}:");
            out.push_str(&v.trace.to_text());
            if !v.assumes_bodyless.is_empty() {
                let _ = writeln!(
                    out,
                    "\nNote: this counterexample assumes that {} (without a body here) can \
                     return the values shown and change globals and memory as shown",
                    v.assumes_bodyless
                        .iter()
                        .map(|f| format!("'{f}'"))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
        }
        if !self.assertions.is_empty() {
            let _ = writeln!(out, "\nAssertions:");
            let width = self
                .assertions
                .iter()
                .map(|a| location(a).len())
                .max()
                .unwrap_or(0);
            for a in &self.assertions {
                let text = a.text.as_deref().unwrap_or(a.kind.as_str());
                let mut line = format!(
                    "  {:<4} {:<width$}  {:<8} {}",
                    a.label,
                    location(a),
                    a.status,
                    text
                );
                if let Some(by) = a.proved_by.as_ref().filter(|b| !b.is_empty()) {
                    let mut parts = vec![by.clone()];
                    parts.extend(a.argument.as_ref().map(|g| g.to_string()));
                    parts.extend(
                        a.tries
                            .map(|n| format!("{n} attempt{}", if n == 1 { "" } else { "s" })),
                    );
                    let _ = write!(line, "  [{}]", parts.join("; "));
                }
                if let Some(r) = &a.reason {
                    let _ = write!(line, "  ({r})");
                }
                let _ = writeln!(out, "{}", line.trim_end());
            }
        }
        if !self.attempts.is_empty() {
            let _ = writeln!(out, "\nRegions tried (Qicc):");
            for a in &self.attempts {
                let ids: Vec<String> = a.assertions.iter().map(|i| self.label(*i)).collect();
                let _ = writeln!(
                    out,
                    "  {:>7} ms  {}{}  {}: {}",
                    a.time_ms,
                    a.node,
                    if a.speculative { " (early start)" } else { "" },
                    ids.join(" "),
                    a.outcome
                );
            }
        }
        if !self.invariants.is_empty() {
            let _ = writeln!(
                out,
                "\nLoop invariants (each holds at every visit of the loop head):"
            );
            for l in &self.invariants {
                let _ = writeln!(
                    out,
                    "  {} {}:{}:{}{}",
                    l.function,
                    l.file,
                    l.line,
                    l.col,
                    if l.exact_acceleration {
                        "  (closed by exact acceleration: a closed form for every variable it changes)"
                    } else {
                        ""
                    }
                );
                for c in &l.conditions {
                    let _ = writeln!(out, "    {}", c.text);
                }
            }
        }
        if self.ub_checks.checks > 0 {
            let _ = writeln!(
                out,
                "\nUndefined-behaviour checks: {} of {} proven unreachable",
                self.ub_checks.safe, self.ub_checks.checks
            );
            for a in self.ub_checks.open.iter().take(10) {
                let _ = writeln!(
                    out,
                    "  {:<6} {}  {} {}",
                    a.label,
                    location(a),
                    a.kind,
                    a.reason
                        .as_deref()
                        .map(|r| format!("({r})"))
                        .unwrap_or_default()
                );
            }
            if self.ub_checks.open.len() > 10 {
                let _ = writeln!(out, "  ... and {} more", self.ub_checks.open.len() - 10);
            }
        }
        if let Some(e) = &self.internal_error {
            let _ = writeln!(out, "\nINTERNAL ERROR: {}", e.message);
            let _ = writeln!(out, "  proved safe by: {}", e.proved_safe_by);
            let _ = writeln!(out, "  violated by:    {}", e.violated_by);
            let _ = writeln!(out, "  the violation's replayed trace:");
            out.push_str(&e.trace.to_text());
        }
        let _ = write!(out, "\nVERDICT: {}", self.verdict.as_str());
        // SV-COMP's spelling of a violated property other than the default one.
        if let Some(v) = self
            .violated_property
            .as_deref()
            .filter(|v| *v != "unreach-call")
        {
            let _ = write!(out, "({v})");
        }
        if let Some(r) = &self.reason {
            let _ = write!(out, " ({r})");
        }
        out.push('\n');
        out
    }
}

fn location(a: &AssertionReport) -> String {
    format!("{}:{}:{}", a.file, a.line, a.col)
}
