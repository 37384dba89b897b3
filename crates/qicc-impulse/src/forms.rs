//! The closed forms of a loop's paths, for engines that prove rather than accelerate.
//!
//! Impulse finds, for each path `π` of a loop it selects, the closed form `f_x(j)` of every
//! recurrent variable `x`: its value at the start of iteration `j` of `π^j`, as a polynomial in
//! `j` over the values at the first iteration, exact modulo `2^w` ([`crate::closed_form`]). A
//! loop whose every iteration takes that one path keeps `x == f_x(j)` invariant at its head
//! with `j` the number of iterations done — the loop's exact acceleration as an invariant.
//! [`loop_closed_forms`] hands these forms out; whoever uses one as an invariant must prove it
//! (the forms are proven here only under the path's conditions and `j ≤ 2^30`, and a loop
//! may take other paths).

use crate::accel::{path_forms, summarize_path};
use crate::fnbuild::FnBuilder;
use crate::loops::natural_loops;
use crate::paths::select_paths;
use crate::poly::{Poly, J_TY};
use qicc_ir::{Expr, FuncId, Loc, Program, Ty, VarRef};
use std::time::Instant;

/// Paths looked at per loop.
const MAX_PATHS: usize = 4;

/// The closed form of one variable on one loop path.
#[derive(Clone, Debug)]
pub struct ClosedForm {
    pub var: VarRef,
    poly: Poly,
}

impl ClosedForm {
    /// The value at the start of iteration `j` (an `i32` expression, `j ≥ 0`), over the
    /// values of the function's variables at the start of iteration 0.
    pub fn at(&self, j: &Expr) -> Expr {
        self.poly.at(j)
    }

    /// The same form with its coefficients' variables replaced as `f` says (e.g. by what
    /// holds their values at iteration 0).
    pub fn substitute(&self, f: &mut dyn FnMut(VarRef) -> Option<Expr>) -> ClosedForm {
        let p = &self.poly;
        ClosedForm {
            var: self.var,
            poly: Poly {
                ty: p.ty,
                c0: p.c0.substitute(f),
                c1: p.c1.substitute(f),
                c2: p.c2.substitute(f),
            },
        }
    }

    /// The type of the iteration number [`ClosedForm::at`] takes.
    pub const ITERATION_TY: Ty = J_TY;

    /// 0: the variable does not change; 1: it changes by the same amount each iteration; 2:
    /// by an amount that itself changes linearly.
    pub fn degree(&self) -> u8 {
        self.poly.degree()
    }
}

/// Per path of the loop at `head` in `func` (at most [`MAX_PATHS`]), the closed forms found
/// for its recurrent variables that read only the function's own variables. Empty when the
/// loop has no path Impulse can summarise.
pub fn loop_closed_forms(
    program: &Program,
    func: FuncId,
    head: Loc,
    deadline: Option<Instant>,
) -> Vec<Vec<ClosedForm>> {
    let orig = program.function(func);
    let (loops, _) = natural_loops(orig);
    let Some(lp) = loops.iter().find(|l| l.head == head) else {
        return Vec::new();
    };
    let Ok(paths) = select_paths(program, orig, lp, MAX_PATHS, deadline) else {
        return Vec::new();
    };
    let own = orig.locals.len() as u32;
    let reads_only_own = |e: &Expr| {
        e.vars()
            .iter()
            .all(|v| !matches!(v, VarRef::Local(l) if l.0 >= own))
    };
    let mut out = Vec::new();
    for (k, path) in paths.iter().enumerate() {
        let mut fb = FnBuilder::new(program, orig);
        let n = Expr::local(fb.new_local(&format!("impulse.{k}.n"), J_TY));
        let Ok(summary) = summarize_path(&mut fb, orig, k, path) else {
            continue;
        };
        let pf = path_forms(&fb, &summary, &n, deadline);
        let mut forms: Vec<ClosedForm> = pf
            .forms
            .forms
            .into_iter()
            .filter(|(_, p)| [&p.c0, &p.c1, &p.c2].into_iter().all(reads_only_own))
            .map(|(var, poly)| ClosedForm { var, poly })
            .collect();
        forms.sort_by_key(|f| f.var);
        out.push(forms);
    }
    out
}
