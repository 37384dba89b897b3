//! Stack facts on small IR programs: the addresses a prologue allocates are live and distinct
//! past the prologue, and nothing is claimed when something may end an object's life.

use qicc_facts::stack::stack_condition;
use qicc_ir::{parse_program, print::expr_str, verify_program, Loc, LocalId, Program, VarRef};

/// `main` of `body` (edges after the prologue L0 -> L4 -> L5 that allocates `%a` and `%b`),
/// with `%a`, `%b` and `%p` as locals; `extra` is appended after `main` (more functions).
fn program(body: &str, extra: &str) -> Program {
    let p = parse(body, extra);
    verify_program(&p).expect("well-formed");
    p
}

/// [`program`] before verification.
fn parse(body: &str, extra: &str) -> Program {
    let text = format!(
        "data-model ilp32
assertion #0 verifier_assert in @main
entry @main
fn @main() -> %ret {{
  local %ret: i32
  local %a: i32
  local %b: i32
  local %p: i32
  locs 9 entry L0 exit L1 err L2 halt L3
  L0 -> L4: %a := alloc.frame(4:i32)
  L4 -> L5: %b := alloc.frame(8:i32)
{body}}}
{extra}"
    );
    parse_program(&text).expect("parses")
}

/// The facts at `loc` of `main` about all its locals, or `-`.
fn facts_at(p: &Program, loc: u32) -> String {
    let fid = p.find_function("main").expect("main");
    let f = p.function(fid);
    let vars: Vec<VarRef> = (0..f.locals.len() as u32)
        .map(|i| VarRef::Local(LocalId(i)))
        .collect();
    stack_condition(p, fid, Loc(loc), &vars)
        .map(|e| expr_str(p, Some(f), &e))
        .unwrap_or_else(|| "-".into())
}

/// A loop at L5 writing through `%p = %a`, then the epilogue frees both objects.
const LOOP: &str = "  L5 -> L6: %p := %a
  L6 -> L5: store.i32 %p, 1:i32
  L5 -> L7: skip
  L7 -> L8: free(%a)
  L8 -> L1: free(%b)
";

#[test]
fn prologue_objects_are_live_and_distinct_at_the_loop_head() {
    let p = program(LOOP, "");
    assert_eq!(
        facts_at(&p, 5),
        "and(and(and(and(valid.4(%a), eq(and(%a, 16777215:i32), 0:i32)), valid.8(%b)), \
         eq(and(%b, 16777215:i32), 0:i32)), ne(lshr(%b, 24:i32), lshr(%a, 24:i32)))"
    );
}

#[test]
fn nothing_before_the_allocation() {
    let p = program(LOOP, "");
    // L4: %a is allocated, %b not yet.
    assert_eq!(
        facts_at(&p, 4),
        "and(valid.4(%a), eq(and(%a, 16777215:i32), 0:i32))"
    );
    assert_eq!(facts_at(&p, 0), "-");
}

#[test]
fn only_the_locals_asked_about() {
    let p = program(LOOP, "");
    let fid = p.find_function("main").expect("main");
    let only_p = [VarRef::Local(LocalId(3))];
    assert!(stack_condition(&p, fid, Loc(5), &only_p).is_none());
}

#[test]
fn a_free_that_reaches_the_location_gives_nothing() {
    // free(%a) inside the loop: at the head, %a's object may be dead.
    let p = program(
        "  L5 -> L6: free(%a)
  L6 -> L5: skip
  L5 -> L1: skip
",
        "",
    );
    assert_eq!(facts_at(&p, 5), "-");
}

#[test]
fn any_free_of_another_pointer_gives_nothing() {
    // A callee frees its parameter: it could be &a.
    let p = program(
        "  L5 -> L6: call @release(%a)
  L6 -> L5: skip
  L5 -> L1: skip
",
        "fn @release(%q) {
  local %q: i32
  locs 4 entry L0 exit L1 err L2 halt L3
  L0 -> L1: free(%q)
}
",
    );
    assert_eq!(facts_at(&p, 5), "-");
}

/// The frame shape is the IR's contract: the verifier rejects what would make a frame object's
/// facts wrong, so the facts need not look again.
#[test]
fn a_frame_object_off_its_shape_is_rejected_by_the_verifier() {
    let redefined = parse(
        "  L5 -> L6: %a := add(%a, 4:i32)
  L6 -> L5: skip
  L5 -> L1: skip
",
        "",
    );
    let errs = verify_program(&redefined).expect_err("two definitions of a frame local");
    assert!(errs.iter().any(|e| e.contains("2 definitions")), "{errs:?}");
    let in_loop = parse(
        "  L5 -> L6: %p := alloc.frame(4:i32)
  L6 -> L5: skip
  L5 -> L1: skip
",
        "",
    );
    let errs = verify_program(&in_loop).expect_err("frame allocation in a loop");
    assert!(
        errs.iter().any(|e| e.contains("not on the prologue chain")),
        "{errs:?}"
    );
}

#[test]
fn an_alloca_gives_nothing() {
    // `alloc.stack` (C's `alloca`) may run any number of times: here on every iteration.
    let p = program(
        "  L5 -> L6: %p := alloc.stack(4:i32)
  L6 -> L5: skip
  L5 -> L1: skip
",
        "",
    );
    let out = facts_at(&p, 5);
    assert!(!out.contains("%p"), "{out}");
}
