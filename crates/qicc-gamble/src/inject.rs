//! Facts injected into region heads — the Qicc paper's own future work (Sec. 6: "insert
//! additional facts into loop bodies as assumptions ... constant variables that can be
//! identified using static analysis").
//!
//! An extracted region (or function) starts from an arbitrary state (its entry havocs). [`qicc_facts`] proves
//! interval facts that hold at the head in *every* execution of the original program, so
//! assuming them right after the havocs removes only entry states no execution has: every
//! suffix that Theorem 1 maps a violation to still starts in a state the extraction allows, and
//! a proof in the narrowed region is still a proof for the program. The same holds for the
//! stack facts of [`qicc_facts::stack`] (addresses of the function's stack objects: live and
//! distinct), which a region head past the prologue also has in every execution.
//!
//! Proven loop invariants ([`qicc_engine::HeadFacts`], filled by the loop-invariant prover
//! while the gamble runs) are assumed at a region head the same way. They hold at every
//! visit of the head in every execution of the program *up to its first assertion
//! violation*: Houdini proves them on the prepared program (ghosts appended, assertions over
//! array cells restricted to the cell ghost, see `qicc_invariants::cells`), and a run of the
//! prepared program is the original's up to the first violation. That is enough here:
//! Theorem 1 maps a violation to a suffix that starts at a visit of the head *before* it, so
//! before the run's first violation (a run ends at `err`); assuming the invariants removes
//! only entry states no such suffix starts from. The slot keeps only conditions over the
//! original program's variables (no ghost); of those, a region assumes only the ones whose
//! locals it havocs: a local the region does not havoc holds 0 there instead of its value in
//! the run, so a condition about it could exclude the suffix's own entry state.
//!
//! Owns: what is assumed after a node's entry havocs, and its text for the report (the
//! attempt's `facts`).

use qicc_analysis::extract::Extracted;
use qicc_analysis::rnt::{NodeKind, RntNode};
use qicc_engine::HeadFacts;
use qicc_facts::Facts;
use qicc_ir::{BinOp, Expr, GlobalId, LocalId, Op, Program, VarRef};

/// Assumes the facts of the node's head after the entry havocs of `ex`: interval and stack
/// facts when `facts` is given, and at a region head the proven loop invariants `heads` holds
/// for it now. Returns what was assumed as text (for reports), or `None` when there was
/// nothing to add.
pub fn inject_facts(
    ex: &mut Extracted,
    original: &Program,
    facts: Option<&Facts>,
    heads: &HeadFacts,
    node: &RntNode,
) -> Option<String> {
    let globals = (0..original.globals.len() as u32).map(|i| VarRef::Global(GlobalId(i)));
    let (cond, text) = match node.kind {
        NodeKind::Region(region) => {
            // The region function keeps the original's local ids.
            let f = original.function(region.func);
            let mut vars: Vec<VarRef> = ex
                .havocked_locals
                .iter()
                .map(|l| VarRef::Local(*l))
                .collect();
            let invariants = region_invariants(heads, region.func, region.head, &vars);
            let (intervals, stack) = match facts {
                Some(facts) => {
                    let stack = qicc_facts::stack::stack_condition(
                        original,
                        region.func,
                        region.head,
                        &vars,
                    );
                    vars.extend(globals);
                    (
                        facts.condition(original, region.func, region.head, &vars),
                        stack,
                    )
                }
                None => (None, None),
            };
            let cond = [intervals, stack]
                .into_iter()
                .flatten()
                .reduce(|a, b| Expr::binary(BinOp::And, a, b));
            let mut text = cond
                .as_ref()
                .map(|c| qicc_ir::expr_str(original, Some(f), c));
            if !invariants.is_empty() {
                let inv: Vec<String> = invariants
                    .iter()
                    .map(|e| qicc_ir::expr_str(original, Some(f), e))
                    .collect();
                let inv = format!("loop invariants: {}", inv.join(", "));
                text = Some(match text {
                    Some(t) => format!("{t}; {inv}"),
                    None => inv,
                });
            }
            let cond = cond
                .into_iter()
                .chain(invariants)
                .reduce(|a, b| Expr::binary(BinOp::And, a, b))?;
            (cond, text?)
        }
        NodeKind::Function(g) => {
            // `entry.g` holds one local per parameter of `g`, in order, and calls `g` with them:
            // the facts at `g`'s entry, about its parameters, become facts about those locals.
            let f = original.function(g);
            let mut vars: Vec<VarRef> = f.params.iter().map(|p| VarRef::Local(*p)).collect();
            vars.extend(globals);
            let cond = facts?.condition(original, g, f.entry, &vars)?;
            let text = qicc_ir::expr_str(original, Some(f), &cond);
            let cond = cond.substitute(&mut |v| match v {
                VarRef::Local(l) => f
                    .params
                    .iter()
                    .position(|p| *p == l)
                    .map(|i| Expr::local(LocalId(i as u32))),
                VarRef::Global(_) => None,
            });
            (cond, text)
        }
    };

    // Right after the entry havocs, before the head: split the last havoc edge.
    let last_edge = ex.after_havocs?;
    let func = ex.program.function_mut(ex.entry);
    let head = func.edges.get(last_edge.index())?.to;
    let span = func.edges[last_edge.index()].span;
    let mid = func.new_loc();
    func.edges[last_edge.index()].to = mid;
    func.add_edge(mid, head, Op::Assume(cond), span);
    debug_assert!(
        qicc_ir::verify_program(&ex.program).is_ok(),
        "facts keep the program well-formed"
    );
    Some(text)
}

/// The invariants `heads` holds for `(func, head)` that read no local but those in
/// `havocked` (see the module docs: the others hold 0 in the region, not their value).
fn region_invariants(
    heads: &HeadFacts,
    func: qicc_ir::FuncId,
    head: qicc_ir::Loc,
    havocked: &[VarRef],
) -> Vec<Expr> {
    let mut conds = heads.at(func, head);
    conds.retain(|e| {
        e.vars()
            .iter()
            .all(|v| matches!(v, VarRef::Global(_)) || havocked.contains(v))
    });
    conds
}
