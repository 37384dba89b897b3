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

use qicc_analysis::extract::Extracted;
use qicc_analysis::rnt::{NodeKind, RntNode};
use qicc_facts::Facts;
use qicc_ir::{BinOp, Expr, GlobalId, LocalId, Op, Program, VarRef};

/// Assumes the facts of the region's head after the entry havocs of `ex`. Returns the facts as
/// text (for reports), or `None` when there was nothing to add.
pub fn inject_facts(
    ex: &mut Extracted,
    original: &Program,
    facts: &Facts,
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
            let stack =
                qicc_facts::stack::stack_condition(original, region.func, region.head, &vars);
            vars.extend(globals);
            let intervals = facts.condition(original, region.func, region.head, &vars);
            let cond = match (intervals, stack) {
                (Some(a), Some(b)) => Expr::binary(BinOp::And, a, b),
                (a, b) => a.or(b)?,
            };
            let text = qicc_ir::expr_str(original, Some(f), &cond);
            (cond, text)
        }
        NodeKind::Function(g) => {
            // `entry.g` holds one local per parameter of `g`, in order, and calls `g` with them:
            // the facts at `g`'s entry, about its parameters, become facts about those locals.
            let f = original.function(g);
            let mut vars: Vec<VarRef> = f.params.iter().map(|p| VarRef::Local(*p)).collect();
            vars.extend(globals);
            let cond = facts.condition(original, g, f.entry, &vars)?;
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
