//! `qicc verify --engine bmc --dump-smt FILE` writes the solver's queries as SMT-LIB 2, and
//! refuses other engines.

use std::process::Command;

const PROGRAM: &str = "extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x * 3 == 12) reach_error();
  return 0;
}
";

#[test]
fn dump_smt_writes_the_queries_of_the_bmc() {
    let dir = std::env::temp_dir().join(format!("qicc-dump-smt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let c = dir.join("t.c");
    std::fs::write(&c, PROGRAM).expect("write program");
    let dump = dir.join("q.smt2");
    let out = Command::new(env!("CARGO_BIN_EXE_qicc"))
        .args(["verify", "--engine", "bmc", "--dump-smt"])
        .arg(&dump)
        .arg(&c)
        .output()
        .expect("qicc runs");
    assert_eq!(out.status.code(), Some(10), "{out:?}");
    let text = std::fs::read_to_string(&dump).expect("the dump exists");
    assert!(text.contains("(check-sat)"), "{text}");
    assert!(text.contains("declare-const"), "{text}");

    let out = Command::new(env!("CARGO_BIN_EXE_qicc"))
        .args(["verify", "--engine", "qicc", "--dump-smt"])
        .arg(&dump)
        .arg(&c)
        .output()
        .expect("qicc runs");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("need --engine bmc"));
    let _ = std::fs::remove_dir_all(&dir);
}
