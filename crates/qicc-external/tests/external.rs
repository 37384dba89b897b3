//! The external-verifier plumbing, driven through `--backend-path` by stand-in scripts
//! (`tests/fixtures/fake-*.sh`: test doubles that only print canned output in the format of
//! CBMC, ESBMC and Ultimate.py; they verify nothing): reading each format, mapping a reported
//! line back to its assertion, killing the tool's whole process group on timeout and on
//! cancellation, and the error when a tool is missing.

mod common;

use common::build::{bin, c, FnB};
use common::*;
use qicc_engine::{AssertionStatus, Budget, EngineResult};
use qicc_external::tools::find_tool_with;
use qicc_external::{find_tool, verify_external, ExternalBackend, Tool};
use qicc_ir::*;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Three assertions in `main` (#0 safe, #1 and #2 violable) and #3 in a function nobody calls.
fn program() -> Program {
    let mut p = Program::new(DataModel::Ilp32);
    p.files.push("t.c".into());
    let mut m = FnB::new("main", FuncId(0));
    let x = m.local("x", Ty::I32);
    m.havoc(&x);
    m.check(
        &mut p,
        bin(
            BinOp::Eq,
            &bin(BinOp::Mul, &x, &c(32, 2)),
            &bin(BinOp::Shl, &x, &c(32, 1)),
        ),
        "2x = x << 1",
    );
    m.check(&mut p, bin(BinOp::Ne, &x, &c(32, 4)), "x != 4");
    m.check(&mut p, bin(BinOp::Ne, &x, &c(32, 5)), "x != 5");
    m.ret_void();
    let mut dead = FnB::new("unused", FuncId(1));
    dead.check(&mut p, Expr::bool(false), "never called");
    dead.ret_void();
    p.add_function(m.f);
    p.add_function(dead.f);
    p.entry = FuncId(0);
    verify_program(&p).expect("well-formed");
    p
}

/// The stand-in for `tool`, copied to a scratch directory and made executable there. The copy is
/// made by a child process (`install`): a file this process held open for writing while another
/// test thread forks could not be executed (ETXTBSY, "Text file busy").
fn fake(tool: Tool) -> PathBuf {
    let name = match tool {
        Tool::Cbmc => "fake-cbmc.sh",
        Tool::Esbmc => "fake-esbmc.sh",
        Tool::Ultimate => "fake-ultimate.sh",
    };
    let dir = scratch_dir("fake");
    let dst = dir.join(name);
    let status = std::process::Command::new("install")
        .arg("-m")
        .arg("755")
        .arg(crate_dir().join("tests/fixtures").join(name))
        .arg(&dst)
        .status()
        .expect("run install");
    assert!(status.success(), "install {}", dst.display());
    dst
}

fn run(tool: Tool, args: &[&str], budget: &Budget) -> EngineResult {
    let backend = ExternalBackend {
        tool,
        path: Some(fake(tool)),
        extra_args: args.iter().map(|s| s.to_string()).collect(),
    };
    verify_external(&backend, &program(), budget, Some(3))
}

fn statuses(r: &EngineResult) -> Vec<AssertionStatus> {
    r.statuses.iter().map(|(_, s)| s.clone()).collect()
}

fn unknown(why: &str) -> AssertionStatus {
    AssertionStatus::Unknown(why.to_string())
}

fn budget() -> Budget {
    Budget::with_timeout(Duration::from_secs(60))
}

#[test]
fn cbmc_success_proves_every_assertion() {
    let r = run(Tool::Cbmc, &["--fake-mode=success"], &budget());
    assert_eq!(statuses(&r), vec![AssertionStatus::Safe; 4]);
    assert_eq!(r.reason, None);
    assert_eq!(r.stats.backend.as_deref(), Some("cbmc"));
}

#[test]
fn cbmc_failure_is_mapped_to_its_assertion_by_line_and_not_replayed() {
    for k in [1u32, 2] {
        let r = run(
            Tool::Cbmc,
            &["--fake-mode=fail", &format!("--fake-fail={k}")],
            &budget(),
        );
        let mut want = vec![AssertionStatus::Safe; 4];
        want[k as usize] = unknown("cbmc reports a violation (not replayed)");
        assert_eq!(statuses(&r), want, "fail #{k}");
        assert!(r.violation.is_none());
        assert_eq!(r.unconfirmed_violations, vec![AssertionId(k)]);
    }
}

#[test]
fn cbmc_failed_unwinding_assertion_means_bound_too_small() {
    let r = run(Tool::Cbmc, &["--fake-mode=unwind"], &budget());
    let mut want = vec![unknown("bound too small"); 3];
    want.push(AssertionStatus::Safe); // no site: its function is never called
    assert_eq!(statuses(&r), want);
}

#[test]
fn cbmc_failed_foreign_check_makes_every_answer_unknown() {
    let r = run(Tool::Cbmc, &["--fake-mode=other"], &budget());
    for (a, s) in r.statuses.iter().take(3) {
        match s {
            AssertionStatus::Unknown(w) => {
                assert!(w.contains("pointer outside object bounds"), "#{}: {w}", a.0)
            }
            other => panic!("#{}: {other:?}", a.0),
        }
    }
}

#[test]
fn unreadable_output_is_unknown_with_its_lines() {
    let r = run(Tool::Cbmc, &["--fake-mode=garbage"], &budget());
    match &r.statuses[0].1 {
        AssertionStatus::Unknown(w) => {
            assert!(
                w.contains("cbmc gave no verdict") && w.contains("unknown option"),
                "{w}"
            )
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(r.stats.external_exit_code, Some(6));
}

#[test]
fn esbmc_formats() {
    let r = run(Tool::Esbmc, &["--fake-mode=success"], &budget());
    assert_eq!(statuses(&r), vec![AssertionStatus::Safe; 4]);
    let r = run(
        Tool::Esbmc,
        &["--fake-mode=fail", "--fake-fail=2"],
        &budget(),
    );
    assert_eq!(
        statuses(&r),
        vec![
            unknown("esbmc stops at the first violation"),
            unknown("esbmc stops at the first violation"),
            unknown(
                "esbmc reports a violation (not replayed): the tool wrote no violation witness"
            ),
            AssertionStatus::Safe
        ]
    );
    assert_eq!(r.unconfirmed_violations, vec![AssertionId(2)]);
    let r = run(Tool::Esbmc, &["--fake-mode=unwind"], &budget());
    assert_eq!(statuses(&r)[..3], vec![unknown("bound too small"); 3][..]);
    let r = run(Tool::Esbmc, &["--fake-mode=unknown"], &budget());
    assert_eq!(statuses(&r)[0], unknown("esbmc: verification unknown"));
}

#[test]
fn ultimate_formats() {
    let r = run(Tool::Ultimate, &["--fake-mode=success"], &budget());
    assert_eq!(statuses(&r), vec![AssertionStatus::Safe; 4]);
    let r = run(
        Tool::Ultimate,
        &["--fake-mode=fail", "--fake-fail=1"],
        &budget(),
    );
    assert_eq!(
        statuses(&r),
        vec![
            unknown("ultimate stops at the first violation"),
            unknown("ultimate reports a violation (not replayed)"),
            unknown("ultimate stops at the first violation"),
            AssertionStatus::Safe
        ]
    );
    let r = run(Tool::Ultimate, &["--fake-mode=unknown"], &budget());
    assert_eq!(
        statuses(&r)[0],
        unknown("ultimate: UNKNOWN: Overapproximated counterexample")
    );
}

/// Whether process `pid` is gone (or a zombie nobody reaped yet: it runs no more).
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(s) => s
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

/// Whether process `pid` is gone within a few seconds. SIGKILL to the group is queued, not
/// synchronous: on a loaded machine the grandchild may run for some milliseconds after `kill`
/// returns (and after its parent, the reaped stand-in, is gone). A survivor fails after 5 s.
fn gone_soon(pid: u32) -> bool {
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while !gone(pid) {
        if std::time::Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

fn grandchild(pidfile: &Path) -> u32 {
    std::fs::read_to_string(pidfile)
        .expect("the stand-in wrote its grandchild's pid")
        .trim()
        .parse()
        .expect("a pid")
}

#[test]
fn timeout_kills_the_whole_process_group() {
    for tool in Tool::ALL {
        let pidfile = scratch_dir("pid").join("sleep.pid");
        let arg = format!("--fake-pidfile={}", pidfile.display());
        let r = run(
            tool,
            &["--fake-mode=timeout", &arg],
            &Budget::with_timeout(Duration::from_millis(700)),
        );
        assert_eq!(
            statuses(&r)[..3],
            vec![unknown("timeout"); 3][..],
            "{tool:?}"
        );
        let pid = grandchild(&pidfile);
        assert!(
            gone_soon(pid),
            "{tool:?}: the grandchild sleep {pid} survived"
        );
    }
}

#[test]
fn cancellation_kills_the_whole_process_group() {
    let pidfile = scratch_dir("pid").join("sleep.pid");
    let arg = format!("--fake-pidfile={}", pidfile.display());
    let budget = Budget::unlimited();
    let token = budget.cancel.clone();
    let canceller = std::thread::spawn(move || {
        // Cancel once the stand-in is running (it writes the pid file first).
        for _ in 0..500 {
            if std::fs::metadata(&pidfile).is_ok_and(|m| m.len() > 0) {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        token.cancel();
        pidfile
    });
    let r = run(Tool::Cbmc, &["--fake-mode=timeout", &arg], &budget);
    let pidfile = canceller.join().expect("canceller");
    assert_eq!(statuses(&r)[..3], vec![unknown("cancelled"); 3][..]);
    let pid = grandchild(&pidfile);
    assert!(gone_soon(pid), "the grandchild sleep {pid} survived");
}

#[test]
fn a_missing_tool_is_a_clear_error() {
    let e = find_tool(Tool::Cbmc, Some(Path::new("/nonexistent/qicc/cbmc"))).expect_err("missing");
    assert!(
        e.contains("CBMC") && e.contains("--backend-path") && e.contains("/nonexistent/qicc/cbmc"),
        "{e}"
    );
    let empty = scratch_dir("path");
    let e = find_tool_with(Tool::Esbmc, None, Some(empty.as_os_str())).expect_err("not on PATH");
    assert!(
        e.contains("ESBMC") && e.contains("PATH") && e.contains("--backend-path"),
        "{e}"
    );
    let e = find_tool_with(Tool::Ultimate, Some(&empty), None).expect_err("not in the directory");
    assert!(e.contains("Ultimate.py"), "{e}");
    // On PATH, or in a directory given by --backend-path.
    let f = fake(Tool::Cbmc);
    let dir = f.parent().expect("in a directory");
    std::fs::rename(&f, dir.join("cbmc")).expect("rename");
    assert_eq!(
        find_tool_with(Tool::Cbmc, None, Some(dir.as_os_str())),
        Ok(dir.join("cbmc"))
    );
    assert_eq!(
        find_tool_with(Tool::Cbmc, Some(dir), None),
        Ok(dir.join("cbmc"))
    );
    // The engine answers unknown, naming the problem.
    let backend = ExternalBackend {
        tool: Tool::Cbmc,
        path: Some("/nonexistent/qicc/cbmc".into()),
        extra_args: vec![],
    };
    let r = verify_external(&backend, &program(), &budget(), None);
    assert!(r
        .statuses
        .iter()
        .all(|(_, s)| matches!(s, AssertionStatus::Unknown(w) if w.contains("CBMC not found"))));
    assert!(r.reason.is_some_and(|w| w.contains("--backend-path")));
}

/// With the real ESBMC (`QICC_ESBMC`, as CI sets it; skipped when unset): its violation
/// witness is replayed on the emitted program into a violation with qicc's own witness, and
/// the tool's witness is kept.
#[test]
fn esbmc_witness_replays_into_a_violation() {
    let Some(esbmc) = std::env::var_os("QICC_ESBMC").map(PathBuf::from) else {
        eprintln!("skipped: QICC_ESBMC is not set");
        return;
    };
    let backend = ExternalBackend {
        tool: Tool::Esbmc,
        path: Some(esbmc),
        extra_args: Vec::new(),
    };
    let p = program();
    let r = verify_external(&backend, &p, &budget(), Some(3));
    let Some((a, w)) = &r.violation else {
        panic!("no replayed violation: {:?}", r.statuses);
    };
    // x != 4 or x != 5, reached by the interpreter with ESBMC's value of x.
    assert!(matches!(a.0, 1 | 2), "{a:?}");
    assert_eq!(r.statuses[a.0 as usize].1, AssertionStatus::Violated);
    assert_eq!(w.havocs, vec![if a.0 == 1 { 4 } else { 5 }]);
    assert!(r
        .tool_witness
        .as_deref()
        .is_some_and(|t| t.contains("violation_sequence")));
    assert!(!r.unconfirmed_violations.contains(a));
}
