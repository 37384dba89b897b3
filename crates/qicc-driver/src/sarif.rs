//! The report as a SARIF 2.1.0 log (`--format sarif`), for code scanning in CI.
//!
//! This module owns only the rendering: everything it says comes from [`Report`], the one
//! home of a run's result (as the text and JSON outputs do). One run, whose `tool.driver`
//! lists one rule per kind of finding: `assertion-violation`, one `ub/<kind>` per kind of
//! undefined-behaviour check, and one per other property (`no-overflow`, and memory safety's
//! `memsafety/valid-deref`, `…/valid-free`, `…/valid-memtrack`, `…/valid-memcleanup`).
//! Results: the violated assertion (level `error`, with the
//! replayed counterexample as a code flow) and every undefined-behaviour check the report
//! marks violated (reached by a replay) or an engine found reachable (its solver reached it
//! in the whole unwound program; the message says it was not replayed), at level `warning`.
//! The verdict and its reason are `invocations[0]` (an UNKNOWN's reason is a
//! `toolExecutionNotifications` entry) and the run's `properties`.
//!
//! Locations are relative to `%SRCROOT%` ([`SrcRoot`]: the repository root, as code-scanning
//! services map them onto the checkout), which `originalUriBaseIds` defines; a file outside it
//! is an absolute `file:` URI, and a position in no file of the user's (the C library's
//! models) has no physical location.

use crate::report::{AssertionReport, Report, Verdict};
use qicc_interp::Trace;
use qicc_ir::UbKind;
use serde::Serialize;
use serde_json::{json, Value};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const ASSERTION_RULE: &str = "assertion-violation";
/// A violation of the property `no-overflow` (its checks are the report's `overflow`
/// assertions).
const OVERFLOW_RULE: &str = "no-overflow";
const CONVERSION_RULE: &str = "conversion";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Log {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<Run>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run {
    tool: Value,
    original_uri_base_ids: Value,
    invocations: Vec<Invocation>,
    /// Columns in qicc's positions count characters, not UTF-16 code units.
    column_kind: &'static str,
    results: Vec<ResultObj>,
    properties: Value,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_execution_notifications: Vec<Notification>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Notification {
    level: &'static str,
    message: Message,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    locations: Vec<Location>,
}

#[derive(Serialize)]
struct Message {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResultObj {
    rule_id: String,
    rule_index: usize,
    level: &'static str,
    message: Message,
    locations: Vec<Location>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    code_flows: Vec<Value>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    physical_location: Option<Value>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    logical_locations: Vec<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Message>,
}

/// The rules, in `ruleIndex` order: the assertion violation, then every kind of
/// undefined-behaviour check (all of them, so that an index means the same in every log).
fn rules() -> Vec<Value> {
    let mut rules = vec![json!({
        "id": ASSERTION_RULE,
        "name": "AssertionViolation",
        "shortDescription": { "text": "An assertion can fail" },
        "fullDescription": { "text": "A call of reach_error(), a failing __VERIFIER_assert(cond) or assert(cond) is reachable; the counterexample has been replayed on the program." },
        "defaultConfiguration": { "level": "error" },
    })];
    for k in UbKind::ALL {
        rules.push(json!({
            "id": ub_rule(k.name()),
            "shortDescription": { "text": format!("Undefined behaviour: {}", k.describe()) },
            "defaultConfiguration": { "level": "warning" },
        }));
    }
    // After the UB rules: the earlier indices keep their meaning.
    for (id, name, short, full) in PROPERTY_RULES {
        rules.push(json!({
            "id": id,
            "name": name,
            "shortDescription": { "text": short },
            "fullDescription": { "text": format!("{full}; the counterexample has been replayed on the program.") },
            "defaultConfiguration": { "level": "error" },
        }));
    }
    rules
}

/// The rules of properties other than unreach-call, after the UB rules in this order: id,
/// name, short and full description.
const PROPERTY_RULES: [(&str, &str, &str, &str); 6] = [
    (
        OVERFLOW_RULE,
        "SignedOverflow",
        "A signed integer operation can overflow",
        "A signed +, -, *, /, <<, ++, -- or unary minus can produce a value outside its type (SV-COMP's no-overflow)",
    ),
    (
        "memsafety/valid-deref",
        "InvalidDereference",
        "A pointer dereference can be invalid",
        "A read or write can fall outside every live object: null, out of bounds, freed, or a returned function's frame (SV-COMP's valid-deref)",
    ),
    (
        "memsafety/valid-free",
        "InvalidFree",
        "A free can be invalid",
        "free can be called with a pointer that is not the start of a live heap object: a double free, a pointer into an object, a static or stack object (SV-COMP's valid-free)",
    ),
    (
        "memsafety/valid-memtrack",
        "MemoryLeak",
        "Heap memory can be lost",
        "When the program ends, a heap object can still be allocated with no pointer from a global or a tracked object left to it (SV-COMP's valid-memtrack)",
    ),
    (
        "memsafety/valid-memcleanup",
        "MemoryNotFreed",
        "Heap memory can be left allocated at the end",
        "When the program ends, a heap object can still be allocated (SV-COMP's valid-memcleanup)",
    ),
    (
        CONVERSION_RULE,
        "SignedConversion",
        "A conversion to a signed type can change the value",
        "A value converted to a signed integer type can lie outside it (implementation-defined in C; CBMC's --conversion-check)",
    ),
];

/// The rule of a violated property assertion of this kind (the report's `kind`).
fn property_rule(kind: &str) -> &'static str {
    if kind == "overflow" {
        return OVERFLOW_RULE;
    }
    if kind == "conversion" {
        return CONVERSION_RULE;
    }
    match qicc_ir::MemProp::from_name(kind) {
        Some(m) => PROPERTY_RULES
            .iter()
            .find(|r| r.0.strip_prefix("memsafety/") == Some(m.sv_name()))
            .map_or(ASSERTION_RULE, |r| r.0),
        None => ASSERTION_RULE,
    }
}

fn ub_rule(kind: &str) -> String {
    format!("ub/{kind}")
}

fn rule_index(rule_id: &str) -> usize {
    if rule_id == ASSERTION_RULE {
        return 0;
    }
    if let Some(i) = PROPERTY_RULES.iter().position(|r| r.0 == rule_id) {
        return UbKind::ALL.len() + 1 + i;
    }
    UbKind::ALL
        .iter()
        .position(|k| ub_rule(k.name()) == rule_id)
        .map_or(0, |i| i + 1)
}

/// The directory SARIF locations are relative to (`%SRCROOT%`): `--sarif-root DIR`, else the
/// nearest directory at or above the current one that holds `.git`, else the current one.
pub struct SrcRoot {
    root: std::path::PathBuf,
    cwd: std::path::PathBuf,
}

impl SrcRoot {
    pub fn new(explicit: Option<&std::path::Path>) -> SrcRoot {
        let cwd = std::env::current_dir().unwrap_or_default();
        let absolute = |p: &std::path::Path| {
            let p = cwd.join(p);
            std::fs::canonicalize(&p).unwrap_or(p)
        };
        let root = match explicit {
            Some(dir) => absolute(dir),
            None => {
                let here = absolute(std::path::Path::new("."));
                here.ancestors()
                    .find(|d| d.join(".git").exists())
                    .map_or_else(|| here.clone(), std::path::Path::to_path_buf)
            }
        };
        SrcRoot { root, cwd }
    }

    /// `originalUriBaseIds`: `%SRCROOT%` as an absolute `file:` URI ending in `/`.
    fn base_ids(&self) -> Value {
        let mut root = file_uri(&self.root);
        if !root.ends_with('/') {
            root.push('/');
        }
        json!({ "%SRCROOT%": { "uri": root } })
    }

    /// The `artifactLocation` of a file named as the report names it (relative to the
    /// current directory, or absolute); `None` for a position in no real file (`<qicc libc>`).
    fn artifact(&self, file: &str) -> Option<Value> {
        if file.starts_with('<') {
            return None;
        }
        let path = self.cwd.join(file);
        let path = std::fs::canonicalize(&path).unwrap_or(path);
        Some(match path.strip_prefix(&self.root) {
            Ok(rel) => json!({
                "uri": uri(&rel.to_string_lossy()),
                "uriBaseId": "%SRCROOT%",
            }),
            Err(_) => json!({ "uri": file_uri(&path) }),
        })
    }
}

/// An absolute path as a `file:` URI.
fn file_uri(path: &std::path::Path) -> String {
    format!("file://{}", uri(&path.to_string_lossy()))
}

/// A file path as a URI reference: characters a URI may not hold are percent-encoded.
fn uri(path: &str) -> String {
    const KEEP: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'/')
        .remove(b'.')
        .remove(b'-')
        .remove(b'_')
        .remove(b'~');
    percent_encoding::utf8_percent_encode(path, KEEP).to_string()
}

/// A physical location; `None` where the position is unknown (SARIF lines start at 1).
fn physical(root: &SrcRoot, file: &str, line: u32, col: u32) -> Option<Value> {
    if file.is_empty() || line == 0 {
        return None;
    }
    let artifact = root.artifact(file)?;
    let mut region = json!({ "startLine": line });
    if col > 0 {
        region["startColumn"] = col.into();
    }
    Some(json!({
        "artifactLocation": artifact,
        "region": region,
    }))
}

fn assertion_location(root: &SrcRoot, a: &AssertionReport) -> Location {
    Location {
        physical_location: physical(root, &a.file, a.line, a.col),
        logical_locations: (!a.function.is_empty())
            .then(|| json!({ "name": a.function, "kind": "function" }))
            .into_iter()
            .collect(),
        message: None,
    }
}

/// The replayed trace as one thread flow: every step the text trace shows, with its text
/// (assignments and input values as `x = 5`), and the inputs in order as the flow's message.
fn code_flow(root: &SrcRoot, trace: &Trace) -> Value {
    let locations: Vec<Value> = trace
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let loc = Location {
                physical_location: physical(root, &s.file, s.line, s.col),
                logical_locations: Vec::new(),
                message: Some(Message {
                    text: format!("{}: {}", s.function, s.text),
                }),
            };
            json!({
                "location": loc,
                "kinds": [s.kind],
                "nestingLevel": s.depth,
                "executionOrder": i + 1,
            })
        })
        .collect();
    let inputs: Vec<String> = trace
        .inputs
        .iter()
        .map(|i| format!("{} = {}", i.function, i.value))
        .collect();
    let text = if inputs.is_empty() {
        format!("counterexample (no inputs); {}", trace.outcome)
    } else {
        format!(
            "counterexample inputs: {}; {}",
            inputs.join(", "),
            trace.outcome
        )
    };
    json!({
        "message": { "text": text },
        "threadFlows": [{ "locations": locations }],
    })
}

fn tool(version: &str) -> Value {
    json!({
        "driver": {
            "name": "qicc",
            "version": version,
            "semanticVersion": version,
            "rules": rules(),
        }
    })
}

/// The report as a SARIF 2.1.0 log; `version` is the tool's version, locations are relative
/// to `root`.
pub fn to_sarif(report: &Report, version: &str, root: &SrcRoot) -> serde_json::Result<Value> {
    let mut results = Vec::new();
    for a in report.assertions.iter().filter(|a| a.status == "violated") {
        let trace = report
            .violation
            .as_ref()
            .filter(|v| v.assertion == a.id)
            .map(|v| &v.trace);
        let what = a.text.as_deref().unwrap_or(a.kind.as_str());
        let rule = property_rule(&a.kind);
        results.push(ResultObj {
            rule_id: rule.into(),
            rule_index: rule_index(rule),
            level: "error",
            message: Message {
                text: format!("assertion {} can fail: {what}", a.label),
            },
            locations: vec![assertion_location(root, a)],
            code_flows: trace.map(|t| code_flow(root, t)).into_iter().collect(),
        });
    }
    for u in &report.ub_checks.open {
        let how = if u.status == "violated" {
            "reached by a replayed run"
        } else if u
            .reason
            .as_deref()
            .is_some_and(qicc_engine::is_ub_reachable)
        {
            "found reachable by the solver, not replayed"
        } else {
            continue;
        };
        let rule_id = ub_rule(&u.kind);
        let described =
            qicc_ir::UbKind::from_name(&u.kind).map_or(u.kind.as_str(), |k| k.describe());
        results.push(ResultObj {
            rule_index: rule_index(&rule_id),
            rule_id,
            level: "warning",
            message: Message {
                text: format!(
                    "reachable undefined behaviour (check {}): {described} ({how})",
                    u.label
                ),
            },
            locations: vec![assertion_location(root, u)],
            code_flows: report
                .violation
                .iter()
                .filter(|v| v.assertion == u.id)
                .map(|v| code_flow(root, &v.trace))
                .collect(),
        });
    }
    let mut notifications = Vec::new();
    let mut successful = true;
    if let Some(e) = &report.internal_error {
        successful = false;
        notifications.push(Notification {
            level: "error",
            message: Message {
                text: format!(
                    "internal error: {} (proved safe by {}, violated by {})",
                    e.message, e.proved_safe_by, e.violated_by
                ),
            },
            locations: Vec::new(),
        });
    } else if report.verdict == Verdict::Unknown {
        notifications.push(Notification {
            level: "warning",
            message: Message {
                text: format!(
                    "verdict UNKNOWN: {}",
                    report.reason.as_deref().unwrap_or("no reason given")
                ),
            },
            locations: Vec::new(),
        });
    } else if report.verdict == Verdict::Bounded {
        notifications.push(Notification {
            level: "note",
            message: Message {
                text: format!(
                    "verdict BOUNDED, not a proof: {}",
                    report
                        .reason
                        .as_deref()
                        .unwrap_or("no violation within the bound")
                ),
            },
            locations: Vec::new(),
        });
    }
    log(
        version,
        root,
        Invocation {
            execution_successful: successful,
            tool_execution_notifications: notifications,
        },
        results,
        json!({
            "verdict": report.verdict.as_str(),
            "reason": report.reason,
            "bounded": report.bounded,
            "file": report.file,
            "engine": report.engine,
            "dataModel": report.data_model,
        }),
    )
}

/// The log of one run of qicc: the tool, its invocation, the results.
fn log(
    version: &str,
    root: &SrcRoot,
    invocation: Invocation,
    results: Vec<ResultObj>,
    properties: Value,
) -> serde_json::Result<Value> {
    serde_json::to_value(Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: vec![Run {
            tool: tool(version),
            original_uri_base_ids: root.base_ids(),
            invocations: vec![invocation],
            column_kind: "unicodeCodePoints",
            results,
            properties,
        }],
    })
}

/// A log for a run that ended before any verdict (bad input: exit code 6, or an internal
/// error): no results, the invocation failed, and the diagnostic at its position.
pub fn error_log(
    version: &str,
    root: &SrcRoot,
    file: &str,
    line: u32,
    col: u32,
    message: &str,
) -> serde_json::Result<Value> {
    let notification = Notification {
        level: "error",
        message: Message {
            text: message.to_string(),
        },
        locations: physical(root, file, line, col)
            .map(|p| Location {
                physical_location: Some(p),
                logical_locations: Vec::new(),
                message: None,
            })
            .into_iter()
            .collect(),
    };
    log(
        version,
        root,
        Invocation {
            execution_successful: false,
            tool_execution_notifications: vec![notification],
        },
        Vec::new(),
        json!({ "verdict": "error" }),
    )
}
