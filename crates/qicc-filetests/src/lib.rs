//! Filetests (Cranelift's model): each file under `filetests/` at the workspace root is an IR
//! program in `qicc-ir` text whose first line names the pass it tests, and whose last part is
//! the expected output of that pass, as comments:
//!
//! ```text
//! ; test loops
//! qicc-ir 1
//! data-model ilp32 object-bits 8
//! entry @main
//! fn @main() { ... }
//! ; expect:
//! ; fn @main
//! ;   idom: L1:L0 ...
//! ```
//!
//! The IR parser skips `;` lines, so the whole file is the program. The passes:
//! - `test loops`: the control-flow analysis of each function (`FunctionGraph::summary`:
//!   dominators, back edges, SCCs, reverse post-order, loop nesting forest, natural loops);
//! - `test regions`: the Region Nesting Tree (`Rnt::to_text`);
//! - `test extract NODE`: the program extraction makes of the RNT node named `NODE` (as the
//!   tree prints it, e.g. `main/L4`), keeping every assertion the node holds;
//! - `test procedures`: the program with its loops as tail-recursive procedures (Corral's
//!   view of loops, `qicc_analysis::loop_procs`);
//! - `test error-flag`: the program with Corral's error flag (`qicc_analysis::error_flag`:
//!   every `error` edge sets the flag and returns, every call is followed by a check of it,
//!   and the entry's end reports the assertion the flag names);
//! - `test overflow`: the program with every signed overflow a property assertion
//!   (`qicc_ir::property::check_overflow`, the property `no-overflow`);
//! - `test facts`: the interval facts at every location, as the condition a region head
//!   would assume (over every local and global);
//! - `test invariants`: every candidate invariant of every loop head (`qicc-invariants`),
//!   `+` where Houdini proved it and `-` where it was dropped, then the assertions the cut
//!   program proves with them (`test invariants no-sampled`: without the candidates of
//!   observed states);
//! - `test unroll K`: the program with ghosts and every loop unrolled for a `K`-induction
//!   step (`qicc_analysis::unroll_for_induction`: `K - 1` peeled iterations, then `K` copies
//!   of the body, assertions assumed in all but the last), with each loop's locations;
//! - `test impulse`: the loops Impulse accelerates (path, split, closed forms, memory effect)
//!   and those it skips, with the reason;
//! - `test verify ENGINE [--unwind N | --recursion-bound N | --abstraction |
//!   --loops-as-procedures]`: the verdict of `bmc`, `qicc`,
//!   `impulse` or `corral` (which also prints how many calls it inlined and left open) through the
//!   driver (with replay), and each assertion's status.
//!
//! Running with `QICC_BLESS=1` rewrites the expected part of every failing file with the actual
//! output (review the diff before committing it). A newcomer adds a case by writing the
//! program and `; expect:` and blessing it.

use qicc_analysis::{build_rnt, extract, FunctionGraph};
use qicc_ir::{expr_str, parse_program, print_program, Program, VarRef};
use std::fmt::Write;
use std::path::Path;

/// The marker line before the expected output.
const EXPECT: &str = "; expect:";

/// One parsed filetest.
#[derive(Debug)]
pub struct FileTest {
    /// The pass and its arguments, from the `; test ...` line.
    pub command: Vec<String>,
    /// The file's text up to the expect marker (the program).
    pub program_text: String,
    /// The expected output (the comment prefix stripped), `None` when the marker is missing.
    pub expected: Option<String>,
}

impl FileTest {
    pub fn parse(text: &str) -> Result<FileTest, String> {
        let first = text
            .lines()
            .find(|l| !l.trim().is_empty())
            .ok_or("empty file")?;
        let command: Vec<String> = first
            .strip_prefix("; test ")
            .ok_or("the first line must be `; test PASS [ARGS]`")?
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let (program_text, expected) = match text.find(&format!("\n{EXPECT}\n")) {
            Some(i) => {
                let rest = &text[i + EXPECT.len() + 2..];
                let lines: Vec<&str> = rest
                    .lines()
                    .map(|l| {
                        l.strip_prefix("; ")
                            .unwrap_or(l.strip_prefix(';').unwrap_or(l))
                    })
                    .collect();
                let mut exp = lines.join("\n");
                exp.push('\n');
                (text[..=i].to_string(), Some(exp))
            }
            None => (text.to_string(), None),
        };
        Ok(FileTest {
            command,
            program_text,
            expected,
        })
    }

    /// The file with `actual` as its expected output.
    pub fn blessed(&self, actual: &str) -> String {
        let mut out = self.program_text.clone();
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(EXPECT);
        out.push('\n');
        for l in actual.lines() {
            if l.is_empty() {
                out.push_str(";\n");
            } else {
                let _ = writeln!(out, "; {l}");
            }
        }
        out
    }

    /// Runs the pass on the program and returns its output text.
    pub fn run(&self, path: &Path) -> Result<String, String> {
        let p = parse_program(&self.program_text).map_err(|e| format!("parse error: {e}"))?;
        qicc_ir::verify_program(&p).map_err(|e| format!("ill-formed program: {}", e.join("; ")))?;
        let args: Vec<&str> = self.command.iter().map(String::as_str).collect();
        match args.as_slice() {
            ["loops"] => Ok(p
                .functions
                .iter()
                .map(|f| FunctionGraph::new(f).summary(f))
                .collect()),
            ["regions"] => Ok(build_rnt(&p).to_text(&p)),
            ["extract", node] => run_extract(&p, node),
            ["facts"] => Ok(run_facts(&p)),
            ["overflow"] => {
                let q = qicc_ir::property::check_overflow(&p);
                qicc_ir::verify_program(&q).map_err(|e| {
                    format!("the pass made an ill-formed program: {}", e.join("; "))
                })?;
                Ok(print_program(&q))
            }
            ["procedures"] => {
                let (q, n) = qicc_analysis::loops_to_procedures(&p);
                qicc_ir::verify_program(&q).map_err(|e| {
                    format!(
                        "the transformation made an ill-formed program: {}",
                        e.join("; ")
                    )
                })?;
                Ok(format!("; {n} loop(s) converted\n{}", print_program(&q)))
            }
            ["error-flag"] => run_error_flag(&p),
            ["impulse"] => Ok(run_impulse(&p)),
            ["invariants"] => run_invariants(&p, &qicc_invariants::ProveOptions::default()),
            ["invariants", "no-sampled"] => run_invariants(
                &p,
                &qicc_invariants::ProveOptions {
                    sampled: false,
                    ..Default::default()
                },
            ),
            ["unroll", k] => run_unroll(&p, k),
            ["verify", engine, rest @ ..] => run_verify(p, path, engine, rest),
            _ => Err(format!("unknown test `{}`", self.command.join(" "))),
        }
    }
}

fn run_extract(p: &Program, name: &str) -> Result<String, String> {
    let rnt = build_rnt(p);
    let node = rnt
        .node_ids()
        .find(|&n| rnt.name(p, n) == name)
        .ok_or_else(|| {
            let names: Vec<String> = rnt.node_ids().map(|n| rnt.name(p, n)).collect();
            format!("no RNT node `{name}` (nodes: {})", names.join(", "))
        })?;
    let keep = rnt
        .node(node)
        .assertions
        .iter()
        .copied()
        .collect::<Vec<_>>();
    let x = extract(p, &rnt, node, &keep).map_err(|e| format!("extract: {e}"))?;
    Ok(print_program(&x.program))
}

fn run_invariants(p: &Program, opts: &qicc_invariants::ProveOptions) -> Result<String, String> {
    let budget = qicc_engine::Budget::with_timeout(std::time::Duration::from_secs(60));
    let proof = qicc_invariants::prove_with(p, &budget, opts)?;
    let prep = &proof.invariants.prepared;
    let mut out = String::new();
    for (i, l) in prep.loops.iter().enumerate() {
        let f = prep.program.function(l.func);
        let _ = writeln!(out, "loop @{} L{}", f.name, l.head.0);
        for c in &proof.candidates[i] {
            let kept = proof.invariants.proven[i].contains(c);
            let mark = if kept { '+' } else { '-' };
            let _ = writeln!(
                out,
                "  {mark} {}",
                qicc_ir::expr_str(&prep.program, Some(f), c)
            );
        }
    }
    for a in &proof.safe {
        let _ = writeln!(out, "safe {a}");
    }
    Ok(out)
}

fn run_unroll(p: &Program, k: &str) -> Result<String, String> {
    let k: usize = k
        .parse()
        .map_err(|_| format!("`unroll {k}`: k must be a number"))?;
    let prep = qicc_analysis::add_ghosts(p);
    let all: Vec<usize> = (0..prep.loops.len()).collect();
    let x = qicc_analysis::unroll_for_induction(&prep, &all, k);
    qicc_ir::verify_program(&x.program).map_err(|e| {
        format!(
            "the transformation made an ill-formed program: {}",
            e.join("; ")
        )
    })?;
    let mut out = String::new();
    for l in &x.loops {
        let locs: Vec<String> = l.locs.iter().map(|x| format!("L{}", x.0)).collect();
        let _ = writeln!(out, "; loop L{}: {}", l.head.0, locs.join(" "));
    }
    out.push_str(&print_program(&x.program));
    Ok(out)
}

fn run_error_flag(p: &Program) -> Result<String, String> {
    let x = qicc_analysis::error_flag(p);
    qicc_ir::verify_program(&x.program).map_err(|e| {
        format!(
            "the transformation made an ill-formed program: {}",
            e.join("; ")
        )
    })?;
    let flag = x
        .program
        .globals
        .get(x.flag.index())
        .ok_or("the flag is not among the globals")?;
    let reported: Vec<String> = x.assertions.iter().map(|a| a.to_string()).collect();
    Ok(format!(
        "; flag ${}: {}, reported at the end of the entry: {}\n{}",
        flag.name,
        flag.ty,
        if reported.is_empty() {
            "none".to_string()
        } else {
            reported.join(" ")
        },
        print_program(&x.program)
    ))
}

fn run_facts(p: &Program) -> String {
    let facts = qicc_facts::Facts::analyze(p);
    let mut out = String::new();
    for fid in p.function_ids() {
        let f = p.function(fid);
        let _ = writeln!(out, "fn @{}", f.name);
        let mut vars: Vec<VarRef> = (0..f.locals.len() as u32)
            .map(|i| VarRef::Local(qicc_ir::LocalId(i)))
            .collect();
        vars.extend((0..p.globals.len() as u32).map(|g| VarRef::Global(qicc_ir::GlobalId(g))));
        for l in f.locs() {
            let text = match facts.condition(p, fid, l, &vars) {
                Some(c) => expr_str(p, Some(f), &c),
                None => "true".to_string(),
            };
            let _ = writeln!(out, "  {l}: {text}");
        }
    }
    out
}

fn run_impulse(p: &Program) -> String {
    let ins = qicc_impulse::instrument(p, &qicc_impulse::ImpulseOptions::default());
    let mut out = format!(
        "loops {} accelerated {}\n",
        ins.loops_seen,
        ins.loops_accelerated()
    );
    for a in &ins.accelerations {
        let f = p.function(a.func);
        let path: Vec<String> = a
            .path
            .iter()
            .map(|&e| format!("{}->{}", f.edge(e).from, f.edge(e).to))
            .collect();
        let _ = writeln!(out, "@{} {} path {}", f.name, a.head, path.join(" "));
        if !a.split.is_empty() {
            let _ = writeln!(out, "  split {}", a.split);
        }
        for c in &a.closed_forms {
            let _ = writeln!(out, "  form {c}");
        }
        for b in &a.bottom {
            let _ = writeln!(out, "  bottom {b}");
        }
        if !a.memory.is_empty() {
            let _ = writeln!(out, "  memory {}", a.memory);
        }
    }
    for s in &ins.skipped {
        let _ = writeln!(
            out,
            "@{} {} skipped: {}",
            p.function(s.func).name,
            s.head,
            s.reason
        );
    }
    out
}

fn run_verify(p: Program, path: &Path, engine: &str, rest: &[&str]) -> Result<String, String> {
    use qicc_driver::verify::{Engine, VerifyOptions};
    let engine = match engine {
        "bmc" => Engine::Bmc,
        "qicc" => Engine::Qicc,
        "impulse" => Engine::Impulse,
        "corral" => Engine::Corral,
        other => return Err(format!("unknown engine `{other}`")),
    };
    let mut opts = VerifyOptions {
        engine,
        jobs: Some(1),
        ..VerifyOptions::default()
    };
    match rest {
        [] => {}
        ["--unwind", n] => opts.unwind = Some(n.parse().map_err(|_| format!("bad bound `{n}`"))?),
        ["--recursion-bound", n] => {
            opts.recursion_bound = Some(n.parse().map_err(|_| format!("bad bound `{n}`"))?)
        }
        ["--abstraction"] => opts.abstraction = true,
        ["--loops-as-procedures"] => opts.loops_as_procedures = true,
        ["--nondet-functions"] => opts.nondet_functions = true,
        _ => return Err(format!("unknown options `{}`", rest.join(" "))),
    }
    let loaded = qicc_driver::input::Loaded {
        program: p,
        sources: vec![path.to_path_buf()],
        cflags: Vec::new(),
        task: None,
        property: Default::default(),
        warnings: Vec::new(),
    };
    let budget = qicc_engine::Budget::with_timeout(std::time::Duration::from_secs(60));
    let report = qicc_driver::verify::verify(&loaded, &opts, &budget);
    let mut out = format!("verdict {}\n", report.verdict.as_str());
    for a in report.assertions.iter().chain(&report.ub_checks.open) {
        let _ = writeln!(out, "#{} {} {}", a.id, a.kind, a.status);
    }
    if let Some(v) = &report.violation {
        let _ = writeln!(out, "violated #{}", v.assertion);
    }
    if engine == Engine::Corral {
        // How much of the program stratified inlining needed (the point of Corral).
        for key in [
            "calls inlined",
            "calls evaluated",
            "calls open",
            "summaries proven",
            "exit facts",
            "variables tracked",
        ] {
            // The JSON report lists every statistic (null when an engine did not measure
            // it); a filetest shows only the measured ones.
            if let Some(n) = report.stats.get(key).filter(|n| !n.is_null()) {
                let _ = writeln!(out, "{key} {n}");
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "; test loops\nqicc-ir 1\ndata-model ilp32\nentry @main\nfn @main() {\n  locs 4 entry L0 exit L1 err L2 halt L3\n  L0 -> L1: skip\n}\n; expect:\n; fn @main\n;   x\n";

    #[test]
    fn parses_command_program_and_expectation() {
        let t = FileTest::parse(FILE).expect("parses");
        assert_eq!(t.command, vec!["loops"]);
        assert_eq!(t.expected.as_deref(), Some("fn @main\n  x\n"));
        assert!(t.program_text.ends_with("}\n"));
        // The real output differs from the expectation above, so the harness must see it.
        let out = t.run(Path::new("t.qir")).expect("runs");
        assert_ne!(t.expected.as_deref(), Some(out.as_str()));
        // Blessing writes the output back so that it parses to itself (blank lines too).
        let again = FileTest::parse(&t.blessed(&out)).expect("parses");
        assert_eq!(again.expected.as_deref(), Some(out.as_str()));
        assert_eq!(again.program_text, t.program_text);
    }

    #[test]
    fn rejects_a_file_without_a_test_line_and_an_unknown_pass() {
        assert!(FileTest::parse("qicc-ir 1\n").is_err());
        let t = FileTest::parse(&FILE.replace("test loops", "test nonsense")).expect("parses");
        assert!(t.run(Path::new("t.qir")).is_err());
    }
}
