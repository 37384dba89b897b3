//! Witnesses in the SV-COMP exchange format 2.0 (YAML), `qicc verify --witness FILE`.
//!
//! This module owns only the rendering of a [`Report`] (the one home of a run's result, as
//! for the text, JSON and SARIF outputs) as a witness, and keeps two invariants:
//!
//! - **Violation witness** (FALSE, `entry_type: violation_sequence`): every waypoint comes
//!   from the *replayed* trace of the report's violation — a `function_return` per input (the
//!   value the replay fed), a `branching` per two-way branch the replay took, in execution
//!   order, and a final `target`. Nothing is guessed: a branch whose keyword cannot be found
//!   in the source is left out (the validator then explores both sides), never invented.
//! - **Correctness witness** (TRUE, `entry_type: invariant_set`): every invariant was proven
//!   — only the conditions of the report's `invariants` whose `c` flag says they are plain C
//!   over the program's variables at the loop head, joined with `&&`. A TRUE proven without
//!   invariants (complete unwinding, regions) gets an empty set.
//!
//! UNKNOWN has no witness. What the validator ESBMC 8.4 needs was measured on the shared
//! tasks (see `qicc-cli/tests/witness.rs`): the loop branches of the path (without them it
//! unwinds loops whose bound the inputs fix forever), `\result == v` as `acsl_expression`,
//! and the target at the first statement of `reach_error`'s body — the place the property
//! `G ! call(reach_error())` is violated, which is where ESBMC looks for it (a target at the
//! call site, or at a `__VERIFIER_assert` call, is rejected).

use crate::report::{Report, Verdict};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// Why no witness could be written.
#[derive(Debug)]
pub enum WitnessError {
    /// The input file could not be read (for its hash, and the source positions).
    Input(String, std::io::Error),
    /// Serialisation failed (a bug).
    Internal(String),
}

impl std::fmt::Display for WitnessError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WitnessError::Input(p, e) => write!(f, "cannot read {p} for the witness: {e}"),
            WitnessError::Internal(e) => write!(f, "cannot serialise the witness: {e}"),
        }
    }
}

#[derive(Serialize)]
struct Entry {
    entry_type: &'static str,
    metadata: Metadata,
    content: Vec<serde_yaml::Value>,
}

#[derive(Serialize)]
struct Metadata {
    format_version: &'static str,
    uuid: String,
    creation_time: String,
    producer: Producer,
    task: Task,
}

#[derive(Serialize)]
struct Producer {
    name: &'static str,
    version: String,
}

#[derive(Serialize)]
struct Task {
    input_files: Vec<String>,
    input_file_hashes: BTreeMap<String, String>,
    specification: String,
    data_model: &'static str,
    language: &'static str,
}

#[derive(Serialize)]
struct Location {
    file_name: String,
    line: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<u32>,
    function: String,
}

#[derive(Serialize)]
struct Constraint {
    value: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    format: Option<&'static str>,
}

#[derive(Serialize)]
struct Waypoint {
    #[serde(rename = "type")]
    kind: &'static str,
    action: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    constraint: Option<Constraint>,
    location: Location,
}

#[derive(Serialize)]
struct Invariant {
    #[serde(rename = "type")]
    kind: &'static str,
    location: Location,
    value: String,
    format: &'static str,
}

/// The witness of `report` as YAML: a violation witness for FALSE, a correctness witness for
/// TRUE, `None` for UNKNOWN. `version` is qicc's.
pub fn to_witness(report: &Report, version: &str) -> Result<Option<String>, WitnessError> {
    // A bounded answer is no proof: no witness, as for UNKNOWN (SV-COMP reads it so).
    if matches!(report.verdict, Verdict::Unknown | Verdict::Bounded) {
        return Ok(None);
    }
    let bytes =
        std::fs::read(&report.file).map_err(|e| WitnessError::Input(report.file.clone(), e))?;
    let source = String::from_utf8_lossy(&bytes).into_owned();
    // Every translation unit is an input file of the task, with its hash.
    let mut hashes = BTreeMap::new();
    for f in &report.files {
        let b = std::fs::read(f).map_err(|e| WitnessError::Input(f.clone(), e))?;
        hashes.insert(f.clone(), format!("{:x}", Sha256::digest(&b)));
    }
    hashes
        .entry(report.file.clone())
        .or_insert_with(|| format!("{:x}", Sha256::digest(&bytes)));
    let metadata = Metadata {
        format_version: "2.0",
        uuid: uuid::Uuid::new_v4().to_string(),
        creation_time: now_iso8601(),
        producer: Producer {
            name: "qicc",
            version: version.to_string(),
        },
        task: Task {
            input_files: if report.files.is_empty() {
                vec![report.file.clone()]
            } else {
                report.files.clone()
            },
            input_file_hashes: hashes,
            specification: report.property.formula(violated_kind(report)),
            data_model: if report.data_model.eq_ignore_ascii_case("lp64") {
                "LP64"
            } else {
                "ILP32"
            },
            language: "C",
        },
    };
    let lines: Vec<&str> = source.lines().collect();
    let (entry_type, content) = if report.verdict == Verdict::False {
        ("violation_sequence", violation_content(report, &lines))
    } else {
        ("invariant_set", invariant_content(report, &lines))
    };
    let content = content.map_err(|e| WitnessError::Internal(e.to_string()))?;
    let entry = Entry {
        entry_type,
        metadata,
        content,
    };
    serde_yaml::to_string(&vec![entry])
        .map(Some)
        .map_err(|e| WitnessError::Internal(e.to_string()))
}

/// The segments of the violation: one waypoint each (all `follow`), ending in the target.
fn violation_content(
    report: &Report,
    lines: &[&str],
) -> Result<Vec<serde_yaml::Value>, serde_yaml::Error> {
    let mut waypoints: Vec<Waypoint> = Vec::new();
    let Some(v) = &report.violation else {
        return Ok(Vec::new());
    };
    let steps = &v.trace.steps;
    // A trace too long to keep lacks its middle: its branches cannot be listed in order,
    // but the inputs are all known (`trace.inputs`), and they fix the path.
    let complete = !steps.iter().any(|s| s.kind == "omitted");
    let file = |f: &str| {
        if f.is_empty() {
            report.file.clone()
        } else {
            f.to_string()
        }
    };
    if complete {
        // The last branch waypoint's keyword position: a condition with `&&`/`||` is several
        // assume steps at one keyword; the last one decides the branch (short-circuit).
        let mut last_branch: Option<(u32, u32)> = None;
        for s in steps {
            if s.kind == "input" {
                last_branch = None;
                if let Some(value) = s.value.as_deref().and_then(|v| input_value(&s.text, v)) {
                    waypoints.push(function_return(file(&s.file), s.line, &s.function, &value));
                }
            } else if let (Some(taken), true) = (s.branch, s.file == report.file) {
                let Some((line, col)) = branch_keyword(lines, s.line, s.col) else {
                    continue;
                };
                if last_branch == Some((line, col)) {
                    waypoints.pop();
                }
                last_branch = Some((line, col));
                // The assume edge says whether its atom held (the front-end's first edge is
                // the atom's true side); the C condition went the other way for each `!` around
                // the atom (`if (!(c))` branches on `c` with the sides swapped). With `&&`/`||`
                // the last atom evaluated decides the whole condition.
                let taken = taken ^ (negations(lines, (line, col), (s.line, s.col)) % 2 == 1);
                waypoints.push(Waypoint {
                    kind: "branching",
                    action: "follow",
                    constraint: Some(Constraint {
                        value: taken.to_string(),
                        format: None,
                    }),
                    location: Location {
                        file_name: file(&s.file),
                        line,
                        column: Some(col),
                        function: s.function.clone(),
                    },
                });
            } else if s.kind != "assume" {
                last_branch = None;
            }
        }
    } else {
        for i in &v.trace.inputs {
            if let Some(value) = input_value(&i.function, &i.value) {
                let function = steps
                    .iter()
                    .find(|s| s.kind == "input" && s.line == i.line)
                    .map(|s| s.function.clone())
                    .unwrap_or_else(|| "main".to_string());
                waypoints.push(function_return(file(&i.file), i.line, &function, &value));
            }
        }
    }
    let last = steps.last();
    // unreach-call is violated in reach_error's body; another property at the violating
    // operation, the trace's last step.
    let error_call = report
        .property
        .of(violated_kind(report).unwrap_or(qicc_ir::AssertKind::ReachError))
        == qicc_frontend::task::Property::UnreachCall;
    let target = match reach_error_body(lines).filter(|_| error_call) {
        Some((line, col)) => Location {
            file_name: report.file.clone(),
            line,
            column: Some(col),
            function: "reach_error".to_string(),
        },
        None => Location {
            file_name: last.map_or_else(|| report.file.clone(), |s| file(&s.file)),
            line: last.map_or(1, |s| s.line.max(1)),
            column: last.map(|s| s.col).filter(|c| *c > 0),
            function: last.map_or_else(|| "main".to_string(), |s| s.function.clone()),
        },
    };
    waypoints.push(Waypoint {
        kind: "target",
        action: "follow",
        constraint: None,
        location: target,
    });
    waypoints
        .into_iter()
        .map(|w| {
            let mut seg = serde_yaml::Mapping::new();
            let mut wp = serde_yaml::Mapping::new();
            wp.insert("waypoint".into(), serde_yaml::to_value(w)?);
            seg.insert(
                "segment".into(),
                serde_yaml::Value::Sequence(vec![wp.into()]),
            );
            Ok(seg.into())
        })
        .collect()
}

/// The C constant an input's value is in a `\result == …` constraint: an integer in decimal;
/// a float (`nondet` names the call: `__VERIFIER_nondet_float`/`_double`, its value printed
/// as `decimal (bits)`) only when it is a nonzero whole number, written as an integer, which
/// converts back to the same float. `None` otherwise: a NaN equals nothing, `-0.0 == 0.0`,
/// and ESBMC 8.4 rejects a whole witness with a floating constant in a constraint (`could
/// not parse constraint '\result == 1.5'`): the waypoint is left out and the branches guide
/// the validator.
fn input_value(nondet: &str, value: &str) -> Option<String> {
    // Traces show large integers and floats with their bits: `16777217 (0x1000001)`.
    let decimal = value.split(" (").next()?;
    if decimal.parse::<i128>().is_ok() {
        return Some(decimal.to_string());
    }
    if !nondet.contains("nondet_float") && !nondet.contains("nondet_double") {
        return None;
    }
    let x: f64 = decimal.parse().ok()?;
    let whole = decimal.strip_suffix(".0")?;
    (x != 0.0 && whole.parse::<i128>().is_ok()).then(|| whole.to_string())
}

/// `\result == value` of a nondet call. No column: the format puts a `function_return` at
/// the call's closing parenthesis, ESBMC 8.4 matches it against the statement's first
/// column (and rejects the former); the line alone is matched by both readings.
fn function_return(file_name: String, line: u32, function: &str, value: &str) -> Waypoint {
    Waypoint {
        kind: "function_return",
        action: "follow",
        constraint: Some(Constraint {
            value: format!("\\result == {value}"),
            format: Some("acsl_expression"),
        }),
        location: Location {
            file_name,
            line,
            column: None,
            function: function.to_string(),
        },
    }
}

/// The loop invariants: one `loop_invariant` per loop with at least one plain-C condition.
fn invariant_content(
    report: &Report,
    lines: &[&str],
) -> Result<Vec<serde_yaml::Value>, serde_yaml::Error> {
    let source = lines.join("\n");
    let pointers = pointer_names(&source);
    // Each name's first line in the source.
    let mut first_line: std::collections::BTreeMap<String, usize> = Default::default();
    for (i, l) in lines.iter().enumerate() {
        for id in identifiers(l) {
            first_line.entry(id).or_insert(i + 1);
        }
    }
    let mut out = Vec::new();
    for l in &report.invariants {
        // Only what C can say (`c`): never `\at(…)` or a quantifier. Dropping a proven
        // condition only weakens the witness: also those C would read otherwise, over a
        // pointer (the IR compares its address as an integer) or a variable the loop's own
        // `for (int i = …)` declares (not yet in scope at the loop's keyword).
        // The report's loop location is its condition's; the format's is the keyword's.
        let (line, col) = branch_keyword(lines, l.line, l.col).unwrap_or((l.line, l.col));
        let scoped = for_declared(lines, line, col);
        // A name that the source has not mentioned before the keyword's line is not in scope
        // there (declared in the loop's body): an approximation of C's scopes that only drops.
        let before = |id: &String| first_line.get(id).is_some_and(|&f| f < line as usize);
        let conds: Vec<String> = l
            .conditions
            .iter()
            .filter(|c| c.c && !c.quantified)
            .filter(|c| {
                identifiers(&c.text)
                    .iter()
                    .all(|id| !pointers.contains(id) && !scoped.contains(id) && before(id))
            })
            .map(|c| format!("({})", c.text))
            .collect();
        if conds.is_empty() || l.line == 0 {
            continue;
        }
        let inv = Invariant {
            kind: "loop_invariant",
            location: Location {
                file_name: if l.file.is_empty() {
                    report.file.clone()
                } else {
                    l.file.clone()
                },
                line,
                column: (col > 0).then_some(col),
                function: l.function.clone(),
            },
            value: conds.join(" && "),
            format: "c_expression",
        };
        let mut m = serde_yaml::Mapping::new();
        m.insert("invariant".into(), serde_yaml::to_value(inv)?);
        out.push(m.into());
    }
    Ok(out)
}

/// The identifiers of a C expression.
fn identifiers(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
        })
        .map(str::to_string)
        .collect()
}

/// Names the source declares (or uses) as pointers: `*name` followed by `=`, `;`, `,`, `)`
/// or `[` (declarators and dereferences; a product `a * b;` counts too, which only drops a
/// condition).
fn pointer_names(source: &str) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    for (i, _) in source.match_indices('*') {
        let rest = source[i + 1..].trim_start();
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let after = rest[name.len()..].trim_start();
        if !name.is_empty() && after.starts_with(['=', ';', ',', ')', '[']) {
            out.insert(name);
        }
    }
    out
}

/// The variables a `for (TYPE name = …` at `line:col` declares in its header.
fn for_declared(lines: &[&str], line: u32, col: u32) -> Vec<String> {
    let Some(text) = lines
        .get((line as usize).wrapping_sub(1))
        .and_then(|l| l.get((col as usize).saturating_sub(1)..))
    else {
        return Vec::new();
    };
    let Some(header) = text
        .strip_prefix("for")
        .map(str::trim_start)
        .and_then(|t| t.strip_prefix('('))
    else {
        return Vec::new();
    };
    let init = header.split(';').next().unwrap_or("");
    let words = identifiers(init);
    const TYPES: &[&str] = &[
        "int", "unsigned", "signed", "long", "short", "char", "_Bool", "size_t",
    ];
    if !words.first().is_some_and(|w| TYPES.contains(&w.as_str())) {
        return Vec::new();
    }
    // Each declarator: the word before an `=` or a `,` at the top level of the init.
    init.split(',')
        .filter_map(|d| identifiers(d.split('=').next().unwrap_or("")).pop())
        .collect()
}

/// The `if`/`while`/`for` keyword (1-based line and column) of the condition at `line:col`:
/// scanning back, the innermost unmatched `(` that a branch keyword precedes. `None` when a
/// statement boundary or a call's parenthesis (`__VERIFIER_assume(`, `__VERIFIER_assert(`:
/// assumptions, not branches) comes first.
fn branch_keyword(lines: &[&str], line: u32, col: u32) -> Option<(u32, u32)> {
    let mut l = (line as usize).checked_sub(1)?;
    let mut chars: Vec<char> = lines.get(l)?.chars().collect();
    let mut i = (col as usize).saturating_sub(1).min(chars.len());
    let mut depth = 0usize;
    // `;` at depth 0 ends the search, except inside a `for` header (at most two of them).
    let mut semicolons = 0;
    loop {
        while i == 0 {
            l = l.checked_sub(1)?;
            chars = lines.get(l)?.chars().collect();
            i = chars.len();
        }
        i -= 1;
        match chars[i] {
            ')' => depth += 1,
            '(' if depth > 0 => depth -= 1,
            '(' => {
                let mut j = i;
                while j > 0 && chars[j - 1].is_whitespace() {
                    j -= 1;
                }
                let mut k = j;
                while k > 0 && (chars[k - 1].is_alphanumeric() || chars[k - 1] == '_') {
                    k -= 1;
                }
                let word: String = chars[k..j].iter().collect();
                match word.as_str() {
                    "for" => return Some((l as u32 + 1, k as u32 + 1)),
                    "if" | "while" if semicolons == 0 => return Some((l as u32 + 1, k as u32 + 1)),
                    // A grouping parenthesis: the branch, if any, is further out.
                    "" => {}
                    _ => return None,
                }
            }
            ';' if depth == 0 && semicolons < 2 => semicolons += 1,
            ';' | '{' | '}' if depth == 0 => return None,
            _ => {}
        }
    }
}

/// How many `!` enclose the atom at `atom` (1-based line and column) in the condition of the
/// branch keyword at `kw`: a `!` (not `!=`) followed, across spaces and further `!`, by the
/// atom itself or by a parenthesis whose group holds it. 0 when the source does not say.
fn negations(lines: &[&str], kw: (u32, u32), atom: (u32, u32)) -> usize {
    let offset = |(line, col): (u32, u32)| -> Option<usize> {
        let start: usize = lines
            .iter()
            .take(line.checked_sub(1)? as usize)
            .map(|l| l.len() + 1)
            .sum();
        let l = lines.get(line.checked_sub(1)? as usize)?;
        let byte = l
            .char_indices()
            .nth(col.checked_sub(1)? as usize)
            .map_or(l.len(), |(b, _)| b);
        Some(start + byte)
    };
    let text = lines.join("\n");
    let b = text.as_bytes();
    let (Some(k), Some(at)) = (offset(kw), offset(atom)) else {
        return 0;
    };
    let Some(open) = text.get(k..).and_then(|t| t.find('(')).map(|i| k + i) else {
        return 0;
    };
    let mut count = 0;
    for i in open + 1..at.min(b.len()) {
        if b[i] != b'!' || b.get(i + 1) == Some(&b'=') {
            continue;
        }
        let mut j = i + 1;
        while j < at && (b[j].is_ascii_whitespace() || b[j] == b'!') {
            j += 1;
        }
        let encloses =
            j == at || (b[j] == b'(' && matching(b, j, b'(', b')').is_some_and(|close| close > at));
        count += usize::from(encloses);
    }
    count
}

/// The index of the bracket that closes the one at `open`.
fn matching(bytes: &[u8], open: usize, o: u8, c: u8) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        if b == o {
            depth += 1;
        } else if b == c {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// The first statement of `reach_error`'s body (1-based line and column), if the program
/// defines it.
fn reach_error_body(lines: &[&str]) -> Option<(u32, u32)> {
    let text = lines.join("\n");
    let mut from = 0;
    while let Some(at) = text[from..].find("reach_error") {
        let start = from + at;
        from = start + "reach_error".len();
        let before = text[..start].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = text[from..].trim_start();
        let Some(rest) = rest.strip_prefix('(') else {
            continue;
        };
        let Some(close) = rest.find(')') else {
            continue;
        };
        let params = rest[..close].trim();
        if !(params.is_empty() || params == "void") {
            continue;
        }
        let after = rest[close + 1..].trim_start();
        let Some(body) = after.strip_prefix('{') else {
            continue;
        };
        let body_start = text.len() - body.len();
        let first = body.find(|c: char| !c.is_whitespace())?;
        return Some(position(&text, body_start + first));
    }
    None
}

/// 1-based line and column (in characters) of byte offset `at`.
fn position(text: &str, at: usize) -> (u32, u32) {
    let before = &text[..at];
    let line = before.matches('\n').count() as u32 + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() as u32 + 1;
    (line, col)
}

/// Now, UTC, ISO 8601 (`2024-05-01T12:00:00Z`).
fn now_iso8601() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_constraints_are_integers_a_validator_parses() {
        let f = "__VERIFIER_nondet_float() = 50596024.0 (0x4c4104fe)  (input #1)";
        assert_eq!(input_value("x", "-5"), Some("-5".into()));
        assert_eq!(
            input_value("x", "16777217 (0x1000001)"),
            Some("16777217".into())
        );
        assert_eq!(
            input_value(f, "50596024.0 (0x4c4104fe)"),
            Some("50596024".into())
        );
        assert_eq!(
            input_value("__VERIFIER_nondet_double", "-3.0"),
            Some("-3".into())
        );
        for left_out in [
            "1.5 (0x3fc00000)",
            "-0.0 (0x80000000)",
            "nan (0x7fc00000)",
            "inf",
        ] {
            assert_eq!(input_value(f, left_out), None, "{left_out}");
        }
        // A float value from another function (an `extern` result) is not pinned either.
        assert_eq!(input_value("ext", "2.0 (0x40000000)"), None);
    }

    #[test]
    fn keywords_of_conditions() {
        let src = [
            "  while(x>0) {",
            "  for (i = 1; i <= n && (j); i++)",
            "  __VERIFIER_assume(x > 0);",
            "  if ((a) ||",
            "      b)",
        ];
        assert_eq!(branch_keyword(&src, 1, 9), Some((1, 3)));
        assert_eq!(branch_keyword(&src, 2, 16), Some((2, 3)));
        assert_eq!(branch_keyword(&src, 2, 27), Some((2, 3)));
        assert_eq!(branch_keyword(&src, 3, 21), None);
        assert_eq!(branch_keyword(&src, 3, 3), None);
        assert_eq!(branch_keyword(&src, 5, 7), Some((4, 3)));
    }

    #[test]
    fn names_c_cannot_read_at_the_loop() {
        let src = [
            "void f(unsigned int *arr, int n) {",
            "  for (int i = 0, j = n; i < n; i++) {",
        ];
        assert!(pointer_names(&src.join("\n")).contains("arr"));
        assert!(!pointer_names(&src.join("\n")).contains("n"));
        assert_eq!(for_declared(&src, 2, 3), ["i", "j"]);
        assert!(for_declared(&["  for (i = 0; i < n; i++) {"], 1, 3).is_empty());
    }

    #[test]
    fn negations_around_the_atom() {
        let src: Vec<&str> = [
            "  if (!(y > 0)) return 0;",
            "  if (a && !b) x = 1;",
            "  while (!a != !!(b)) x++;",
        ]
        .to_vec();
        assert_eq!(negations(&src, (1, 3), (1, 8)), 1);
        assert_eq!(negations(&src, (2, 3), (2, 7)), 0);
        assert_eq!(negations(&src, (2, 3), (2, 13)), 1);
        assert_eq!(negations(&src, (3, 3), (3, 11)), 1);
        assert_eq!(negations(&src, (3, 3), (3, 19)), 2);
    }

    #[test]
    fn reach_error_definition() {
        let src = [
            "extern void reach_error();",
            "void reach_error() { __assert_fail(\"0\"); }",
        ];
        assert_eq!(reach_error_body(&src), Some((2, 22)));
        assert_eq!(reach_error_body(&["void reach_error(void);"]), None);
    }

    #[test]
    fn iso_dates() {
        let t = now_iso8601();
        assert_eq!(t.len(), 20, "{t}");
        assert!(t.starts_with("20") && t.ends_with('Z'), "{t}");
    }
}

/// The kind of the assertion the report's FALSE violates (its report entry names it as
/// `AssertKind::name` does); `None` unless the verdict is FALSE.
fn violated_kind(report: &Report) -> Option<qicc_ir::AssertKind> {
    if report.verdict != Verdict::False {
        return None;
    }
    let id = report.violation.as_ref()?.assertion;
    report
        .assertions
        .iter()
        .find(|a| a.id == id)
        .and_then(|a| qicc_ir::AssertKind::from_name(&a.kind))
}
