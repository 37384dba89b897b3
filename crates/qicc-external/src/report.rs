//! Reading a verifier's output back into per-assertion answers.
//!
//! Each assertion site of the emitted file is a property of its own (CBMC, ESBMC: the site's
//! description `qicc assertion #k`, or its line) or a `reach_error()` call on a known line
//! (Ultimate), so a report maps back through [`EmittedC`]'s line table. The rules, for every
//! assertion with a site in the file:
//! - `Safe` only if the tool proved the whole file (`VERIFICATION SUCCESSFUL`, Ultimate's
//!   `TRUE`), or (CBMC, which reports every property) all of that assertion's sites succeeded
//!   while the only failures were other qicc assertions: a failed unwinding assertion makes a
//!   success merely bounded ("bound too small"), and a failed check that is not a qicc
//!   assertion (an `unsupported` site, a pointer check) means the file may not have followed
//!   the IR on some path.
//! - A site the tool reports violated: `Unknown("<tool> reports a violation (not replayed)")`,
//!   and the assertion is listed in [`Reading::violated`]. qicc cannot replay a foreign trace,
//!   so this is never a FALSE by itself.
//! - Everything else, including output this module cannot read: `Unknown` with the reason
//!   (for unreadable output, its first relevant lines).

use crate::emit::EmittedC;
use crate::tools::Tool;
use qicc_engine::AssertionStatus;
use qicc_ir::AssertionId;
use std::collections::{BTreeMap, BTreeSet};

/// What a tool's output says about the file's assertions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// One entry per assertion with a site in the file.
    pub statuses: BTreeMap<AssertionId, AssertionStatus>,
    /// Assertions the tool reports violated (not replayed by qicc).
    pub violated: Vec<AssertionId>,
    /// Why the answer is not conclusive, if it is not.
    pub reason: Option<String>,
    /// The tool's violation witness (SV-COMP 2.0 YAML), when it wrote one.
    pub witness: Option<String>,
}

impl Reading {
    fn uniform(emitted: &EmittedC, status: AssertionStatus) -> Reading {
        let reason = match &status {
            AssertionStatus::Unknown(r) => Some(r.clone()),
            _ => None,
        };
        Reading {
            statuses: sited(emitted)
                .into_iter()
                .map(|a| (a, status.clone()))
                .collect(),
            violated: Vec::new(),
            reason,
            witness: None,
        }
    }

    /// Every sited assertion unknown for `why`.
    pub fn unknown(emitted: &EmittedC, why: &str) -> Reading {
        Reading::uniform(emitted, AssertionStatus::Unknown(why.to_string()))
    }
}

fn sited(emitted: &EmittedC) -> BTreeSet<AssertionId> {
    emitted.assertion_lines.iter().map(|(a, _)| *a).collect()
}

/// The reading of `output` (stdout and stderr) of `tool` on `emitted`.
pub fn read_output(tool: Tool, output: &str, emitted: &EmittedC) -> Reading {
    match tool {
        Tool::Cbmc => read_cbmc(output, emitted),
        Tool::Esbmc => read_esbmc(output, emitted),
        Tool::Ultimate => read_ultimate(output, emitted),
    }
}

/// What one reported property or violation is in terms of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    Assertion(AssertionId),
    Unsupported(String),
    Unwinding,
    /// Irrelevant to reachability (memory leaks).
    Ignored,
    Other(String),
}

fn qicc_assertion_in(desc: &str) -> Option<AssertionId> {
    let rest = &desc[desc.find("qicc assertion #")? + "qicc assertion #".len()..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok().map(AssertionId)
}

fn classify(name: &str, line: Option<u32>, desc: &str, emitted: &EmittedC) -> Kind {
    if let Some(k) = qicc_assertion_in(desc) {
        return Kind::Assertion(k);
    }
    if let Some(i) = desc.find("qicc unsupported") {
        return Kind::Unsupported(desc[i..].trim_end_matches('"').to_string());
    }
    if name.contains(".unwind.") || desc.contains("unwinding assertion") {
        return Kind::Unwinding;
    }
    if let Some(l) = line {
        if let Some(k) = emitted.assertion_at(l) {
            return Kind::Assertion(k);
        }
        if let Some(r) = emitted.unsupported_at(l) {
            return Kind::Unsupported(format!("qicc unsupported: {r}"));
        }
    }
    if name.contains("memory-leak") || desc.contains("never freed") {
        return Kind::Ignored;
    }
    Kind::Other(if desc.is_empty() {
        name.to_string()
    } else {
        desc.to_string()
    })
}

/// The number after the word `line` in `text`.
fn line_number(text: &str) -> Option<u32> {
    let mut words = text.split_whitespace();
    while let Some(w) = words.next() {
        if w == "line" {
            let n: String = words
                .next()?
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            return n.parse().ok();
        }
    }
    None
}

/// The lines worth quoting from output that could not be read.
fn excerpt(output: &str) -> String {
    let lines: Vec<&str> = output
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let relevant: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| {
            let lower = l.to_ascii_lowercase();
            [
                "error",
                "exception",
                "unsupported",
                "invalid",
                "unknown option",
                "not found",
            ]
            .iter()
            .any(|w| lower.contains(w))
        })
        .take(4)
        .collect();
    let chosen = if relevant.is_empty() {
        lines[lines.len().saturating_sub(4)..].to_vec()
    } else {
        relevant
    };
    let mut s = chosen.join(" | ");
    if s.is_empty() {
        s = "no output".into();
    }
    if s.len() > 400 {
        let mut cut = 400;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
        s.push_str("...");
    }
    s
}

fn violation(tool: Tool) -> AssertionStatus {
    AssertionStatus::Unknown(format!(
        "{} reports a violation (not replayed)",
        tool.name()
    ))
}

/// Statuses from a set of failed findings, for a tool that may not report every property:
/// `others_open` is the status of assertions the findings do not name.
fn from_failures(tool: Tool, emitted: &EmittedC, failures: &[Kind], others_open: &str) -> Reading {
    let mut r = Reading::unknown(emitted, others_open);
    let unsupported = failures.iter().find_map(|k| match k {
        Kind::Unsupported(w) => Some(w.clone()),
        _ => None,
    });
    let other = failures.iter().find_map(|k| match k {
        Kind::Other(w) => Some(w.clone()),
        _ => None,
    });
    let unwinding = failures.contains(&Kind::Unwinding);
    let blanket = if let Some(w) = unsupported {
        Some(format!(
            "{} reached a path the C file does not model: {w}",
            tool.name()
        ))
    } else if let Some(w) = other {
        Some(format!(
            "{} reports a failed check that is no qicc assertion: {w}",
            tool.name()
        ))
    } else if unwinding {
        Some("bound too small".to_string())
    } else {
        None
    };
    for (a, st) in r.statuses.iter_mut() {
        if failures.contains(&Kind::Assertion(*a)) {
            *st = violation(tool);
            r.violated.push(*a);
        } else if let Some(b) = &blanket {
            *st = AssertionStatus::Unknown(b.clone());
        }
    }
    r.reason = r.statuses.values().find_map(|s| match s {
        AssertionStatus::Unknown(w) => Some(w.clone()),
        _ => None,
    });
    r
}

/// The last verdict line of CBMC's or ESBMC's output: `Some(Some(true))` for `VERIFICATION
/// SUCCESSFUL`, `Some(Some(false))` for `VERIFICATION FAILED`, `Some(None)` for ESBMC's
/// `VERIFICATION UNKNOWN`; `None` without one.
fn verdict(output: &str) -> Option<Option<bool>> {
    output.lines().rev().map(str::trim).find_map(|l| match l {
        "VERIFICATION SUCCESSFUL" => Some(Some(true)),
        "VERIFICATION FAILED" => Some(Some(false)),
        "VERIFICATION UNKNOWN" => Some(None),
        _ => None,
    })
}

/// What a tool said about a whole file of the user's (not one qicc emitted: no sites to map).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WholeFile {
    /// No violation of any property the tool checked, with a complete argument.
    Proven,
    /// A violation of some check (which one is for the witness's replay to say).
    Violated,
    /// No answer, and why.
    Unknown(String),
}

/// The functions the tool says it has no body for (CBMC, ESBMC: `no body for function NAME`):
/// it gives them arbitrary results and no effects, which is not what the program's own
/// functions do, so a proof with any of them is no proof of the program.
pub fn bodiless_functions(output: &str) -> Vec<String> {
    let mut names: Vec<String> = output
        .lines()
        .filter_map(|l| {
            let rest = &l[l.find("no body for function ")? + "no body for function ".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
                .collect();
            (!name.is_empty()).then_some(name)
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The reading of `output` of `tool` on the user's own files (CBMC, ESBMC).
pub fn read_whole_file(tool: Tool, output: &str) -> WholeFile {
    match verdict(output) {
        Some(Some(true)) => {
            let missing = bodiless_functions(output);
            if missing.is_empty() {
                WholeFile::Proven
            } else {
                WholeFile::Unknown(format!(
                    "{} has no body for {} (arbitrary results, no effects): its success proves \
                     nothing",
                    tool.name(),
                    missing.join(", ")
                ))
            }
        }
        Some(Some(false)) => WholeFile::Violated,
        Some(None) => WholeFile::Unknown(format!("{}: verification unknown", tool.name())),
        None => WholeFile::Unknown(format!(
            "{} gave no verdict: {}",
            tool.name(),
            excerpt(output)
        )),
    }
}

/// CBMC: `[name] line N description: STATUS` per property, then the verdict.
pub fn read_cbmc(output: &str, emitted: &EmittedC) -> Reading {
    let tool = Tool::Cbmc;
    let Some(Some(verdict)) = verdict(output) else {
        return Reading::unknown(
            emitted,
            &format!("cbmc gave no verdict: {}", excerpt(output)),
        );
    };
    let mut props: Vec<(Kind, String)> = Vec::new();
    for l in output.lines().map(str::trim) {
        let Some(rest) = l.strip_prefix('[') else {
            continue;
        };
        let Some((name, rest)) = rest.split_once("] ") else {
            continue;
        };
        let Some((desc, status)) = rest.rsplit_once(": ") else {
            continue;
        };
        if !matches!(status, "SUCCESS" | "FAILURE" | "ERROR" | "UNKNOWN") {
            continue;
        }
        let line = line_number(desc);
        props.push((classify(name, line, desc, emitted), status.to_string()));
    }
    if verdict {
        // Fail-safe: if CBMC listed its properties, every site must be among them (a site
        // CBMC did not see as a property, e.g. spelt as a plain call, proves nothing).
        if output.contains("** Results:") {
            if let Some(a) = sited(emitted)
                .into_iter()
                .find(|a| !props.iter().any(|(k, _)| *k == Kind::Assertion(*a)))
            {
                return Reading::unknown(
                    emitted,
                    &format!("cbmc did not check the site of assertion #{}", a.0),
                );
            }
        }
        return Reading::uniform(emitted, AssertionStatus::Safe);
    }
    let failures: Vec<Kind> = props
        .iter()
        .filter(|(k, s)| s != "SUCCESS" && *k != Kind::Ignored)
        .map(|(k, s)| match (k, s.as_str()) {
            (Kind::Assertion(_), "FAILURE") => k.clone(),
            (Kind::Assertion(a), _) => Kind::Other(format!("no result for assertion #{}", a.0)),
            _ => k.clone(),
        })
        .collect();
    let mut r = from_failures(
        tool,
        emitted,
        &failures,
        "cbmc gave no result for its sites",
    );
    // CBMC checks every property on its own: a site that succeeded while only other qicc
    // assertions failed is proven.
    let only_assertions_failed = failures.iter().all(|k| matches!(k, Kind::Assertion(_)));
    if only_assertions_failed {
        for (a, st) in r.statuses.iter_mut() {
            let mine: Vec<&String> = props
                .iter()
                .filter(|(k, _)| *k == Kind::Assertion(*a))
                .map(|(_, s)| s)
                .collect();
            if !mine.is_empty() && mine.iter().all(|s| *s == "SUCCESS") {
                *st = AssertionStatus::Safe;
            }
        }
        r.reason = r.statuses.values().find_map(|s| match s {
            AssertionStatus::Unknown(w) => Some(w.clone()),
            _ => None,
        });
    }
    if failures.is_empty() {
        return Reading::unknown(
            emitted,
            &format!(
                "cbmc reports a failure it does not list: {}",
                excerpt(output)
            ),
        );
    }
    r
}

/// ESBMC: `Violated property:` blocks (file, line, description), then the verdict; it stops
/// at the first violation.
pub fn read_esbmc(output: &str, emitted: &EmittedC) -> Reading {
    let tool = Tool::Esbmc;
    match verdict(output) {
        None => Reading::unknown(
            emitted,
            &format!("esbmc gave no verdict: {}", excerpt(output)),
        ),
        Some(None) => Reading::unknown(emitted, "esbmc: verification unknown"),
        Some(Some(true)) => Reading::uniform(emitted, AssertionStatus::Safe),
        Some(Some(false)) => {
            let lines: Vec<&str> = output.lines().map(str::trim).collect();
            let mut failures = Vec::new();
            for (i, l) in lines.iter().enumerate() {
                if *l != "Violated property:" {
                    continue;
                }
                let loc = lines.get(i + 1).copied().unwrap_or("");
                let desc = lines.get(i + 2).copied().unwrap_or("");
                failures.push(classify("", line_number(loc), desc, emitted));
            }
            if failures.is_empty() {
                return Reading::unknown(
                    emitted,
                    &format!(
                        "esbmc reports a violation it does not locate: {}",
                        excerpt(output)
                    ),
                );
            }
            from_failures(
                tool,
                emitted,
                &failures,
                "esbmc stops at the first violation",
            )
        }
    }
}

/// Ultimate: `Result:` and the verdict on the next line (Ultimate.py), or Ultimate's own
/// `RESULT: Ultimate proved your program to be (in)correct`; a violation's line in
/// `CounterExampleResult [Line: N]`.
pub fn read_ultimate(output: &str, emitted: &EmittedC) -> Reading {
    let tool = Tool::Ultimate;
    let lines: Vec<&str> = output.lines().map(str::trim).collect();
    let mut verdict: Option<String> = None;
    for (i, l) in lines.iter().enumerate() {
        if *l == "Result:" {
            if let Some(v) = lines[i + 1..].iter().find(|x| !x.is_empty()) {
                verdict = Some(v.to_string());
            }
        }
    }
    if verdict.is_none() {
        verdict = lines.iter().rev().find_map(|l| {
            let rest = l.strip_prefix("RESULT: ")?;
            Some(if rest.contains("proved your program to be correct") {
                "TRUE".to_string()
            } else if rest.contains("proved your program to be incorrect") {
                "FALSE".to_string()
            } else {
                format!("UNKNOWN: {rest}")
            })
        });
    }
    let Some(v) = verdict else {
        return Reading::unknown(
            emitted,
            &format!("ultimate gave no verdict: {}", excerpt(output)),
        );
    };
    if v == "TRUE" {
        return Reading::uniform(emitted, AssertionStatus::Safe);
    }
    if !v.starts_with("FALSE") {
        return Reading::unknown(emitted, &format!("ultimate: {v}"));
    }
    let failures: Vec<Kind> = lines
        .iter()
        .filter_map(|l| {
            let rest = &l[l.find("CounterExampleResult [Line: ")? + 28..];
            let n: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            let line = n.parse().ok()?;
            Some(classify("", Some(line), "", emitted))
        })
        .collect();
    if failures.is_empty() {
        return Reading::unknown(
            emitted,
            "ultimate reports a violation (not replayed) without its line",
        );
    }
    from_failures(
        tool,
        emitted,
        &failures,
        "ultimate stops at the first violation",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A user's file: ESBMC's verdict is the answer, except that a success with a body-less
    /// function (ESBMC 8.4's `WARNING: no body for function NAME`) proves nothing.
    #[test]
    fn whole_file_readings() {
        let ok = "Checking base case, k = 1\nVERIFICATION SUCCESSFUL\n";
        assert_eq!(read_whole_file(Tool::Esbmc, ok), WholeFile::Proven);
        let bodiless = "WARNING: no body for function g\nWARNING: no body for function g\n\
                        **** WARNING: no body for function h_2\nVERIFICATION SUCCESSFUL\n";
        assert_eq!(bodiless_functions(bodiless), ["g", "h_2"]);
        match read_whole_file(Tool::Esbmc, bodiless) {
            WholeFile::Unknown(why) => assert!(why.contains("no body for g, h_2"), "{why}"),
            other => panic!("{other:?}"),
        }
        let failed = "WARNING: no body for function g\nVERIFICATION FAILED\n";
        assert_eq!(read_whole_file(Tool::Esbmc, failed), WholeFile::Violated);
        assert!(matches!(
            read_whole_file(Tool::Esbmc, "VERIFICATION UNKNOWN\n"),
            WholeFile::Unknown(_)
        ));
        assert!(matches!(
            read_whole_file(Tool::Esbmc, "ERROR: PARSING ERROR\n"),
            WholeFile::Unknown(w) if w.contains("PARSING ERROR")
        ));
    }

    /// A file with sites of #0 on line 10, #1 on line 20 and an unsupported site on line 30.
    fn emitted() -> EmittedC {
        EmittedC {
            text: String::new(),
            assertion_lines: vec![(AssertionId(0), 10), (AssertionId(1), 20)],
            unsupported_lines: vec![(30, "out of object numbers".into())],
            entry_function: "main_1".into(),
            uses_memory: true,
        }
    }

    fn st(r: &Reading, k: u32) -> AssertionStatus {
        r.statuses[&AssertionId(k)].clone()
    }

    #[test]
    fn cbmc_per_property_results() {
        let out = "** Results:\n\
            [f.assertion.1] line 10 qicc assertion #0: SUCCESS\n\
            [f.assertion.2] file x.c line 20 function f assertion 0: FAILURE\n\
            \n** 1 of 2 failed (2 iterations)\nVERIFICATION FAILED\n";
        let r = read_cbmc(out, &emitted());
        assert_eq!(st(&r, 0), AssertionStatus::Safe);
        assert_eq!(
            st(&r, 1),
            AssertionStatus::Unknown("cbmc reports a violation (not replayed)".into())
        );
        assert_eq!(r.violated, vec![AssertionId(1)]);
    }

    #[test]
    fn cbmc_unsupported_site_and_missing_sites() {
        let out = "** Results:\n[f.assertion.1] line 10 qicc assertion #0: SUCCESS\n\
            [f.assertion.2] line 20 qicc assertion #1: SUCCESS\n\
            [qicc_alloc.assertion.1] line 30 qicc unsupported: out of object numbers: FAILURE\n\
            VERIFICATION FAILED\n";
        let r = read_cbmc(out, &emitted());
        assert!(matches!(st(&r, 0), AssertionStatus::Unknown(w) if w.contains("does not model")));
        let out = "** Results:\n[main.assertion.1] line 10 assertion 0: SUCCESS\nVERIFICATION SUCCESSFUL\n";
        let r = read_cbmc(out, &emitted());
        assert_eq!(
            st(&r, 1),
            AssertionStatus::Unknown("cbmc did not check the site of assertion #1".into())
        );
        assert_eq!(
            read_cbmc("VERIFICATION SUCCESSFUL", &emitted()).statuses[&AssertionId(1)],
            AssertionStatus::Safe
        );
    }

    #[test]
    fn esbmc_and_ultimate_map_lines() {
        let out = "Violated property:\n  file f.c line 20 column 3 function main\n  assertion\n  0\n\nVERIFICATION FAILED\n";
        let r = read_esbmc(out, &emitted());
        assert_eq!(r.violated, vec![AssertionId(1)]);
        assert_eq!(
            st(&r, 0),
            AssertionStatus::Unknown("esbmc stops at the first violation".into())
        );
        let out = "Result:\nFALSE\n  - CounterExampleResult [Line: 30]: a call to reach_error is reachable\n";
        let r = read_ultimate(out, &emitted());
        assert!(r.violated.is_empty());
        assert!(
            matches!(st(&r, 1), AssertionStatus::Unknown(w) if w.contains("out of object numbers"))
        );
        let r = read_ultimate(
            "RESULT: Ultimate proved your program to be correct!\n",
            &emitted(),
        );
        assert_eq!(st(&r, 0), AssertionStatus::Safe);
        let r = read_ultimate("Result:\nERROR: UNSUPPORTED SYNTAX\n", &emitted());
        assert_eq!(
            st(&r, 0),
            AssertionStatus::Unknown("ultimate: ERROR: UNSUPPORTED SYNTAX".into())
        );
    }
}
