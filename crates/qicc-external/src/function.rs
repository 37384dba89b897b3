//! One IR function as one C function: locals, labelled blocks, the dispatch between a
//! location's edges, and every operation (see the module docs of [`crate::emit`] for the
//! shape). Invariant: every block ends in a `goto`, a `return` or the end of the run, except
//! one that falls through to the block emitted right after it.

use crate::cexpr::{c_type, ExprCx, Helper};
use crate::emit::{EmitError, Line, Site};
use crate::names::Names;
use qicc_ir::{
    BinOp, DataModel, Edge, Expr, FuncId, Function, HavocKind, Loc, Op, Program, Ty, UnOp, VarRef,
};
use std::collections::{BTreeSet, VecDeque};
use std::fmt::Write as _;

/// The variable a havoc's nondet call initialises (`{ T qicc_nondet = …; x = qicc_nondet; }`):
/// it also marks a havoc's line for `crate::run`, which replays a tool's witness by them.
pub(crate) const HAVOC_TEMP: &str = "qicc_nondet";

/// The nondet function for a type.
pub(crate) fn nondet_call(p: &Program, ty: Ty) -> Result<String, EmitError> {
    Ok(match ty {
        Ty::Bool => "__VERIFIER_nondet_bool()".to_string(),
        Ty::Int(8) => "__VERIFIER_nondet_uchar()".to_string(),
        Ty::Int(16) => "__VERIFIER_nondet_ushort()".to_string(),
        Ty::Int(32) => "__VERIFIER_nondet_uint()".to_string(),
        Ty::Int(64) => match p.data_model {
            DataModel::Ilp32 => "__VERIFIER_nondet_ulonglong()".to_string(),
            DataModel::Lp64 => "__VERIFIER_nondet_ulong()".to_string(),
        },
        other => {
            c_type(other)?;
            unreachable!("c_type accepts only the widths above")
        }
    })
}

/// Whether exactly one of two assumptions holds in every state (syntactically).
fn complementary(a: &Expr, b: &Expr) -> bool {
    match (a, b) {
        (Expr::Unary(UnOp::Not, x), y) | (y, Expr::Unary(UnOp::Not, x)) if **x == *y => true,
        (
            Expr::Const {
                ty: Ty::Bool,
                value: x,
            },
            Expr::Const {
                ty: Ty::Bool,
                value: y,
            },
        ) => x != y,
        (Expr::Binary(o1, a1, b1), Expr::Binary(o2, a2, b2)) => match (o1, o2) {
            (BinOp::Eq, BinOp::Ne) | (BinOp::Ne, BinOp::Eq) => {
                (a1 == a2 && b1 == b2) || (a1 == b2 && b1 == a2)
            }
            (BinOp::Ult, BinOp::Ule)
            | (BinOp::Ule, BinOp::Ult)
            | (BinOp::Slt, BinOp::Sle)
            | (BinOp::Sle, BinOp::Slt) => a1 == b2 && b1 == a2,
            _ => false,
        },
        _ => false,
    }
}

pub(crate) struct FnEmitter<'a> {
    pub(crate) program: &'a Program,
    pub(crate) fid: FuncId,
    pub(crate) func: &'a Function,
    pub(crate) fn_names: &'a [Option<String>],
    pub(crate) global_names: &'a [String],
    pub(crate) object_addrs: &'a [String],
    pub(crate) helpers: &'a mut BTreeSet<Helper>,
    /// Program-wide names, so that locals never shadow a global or function they use.
    pub(crate) names: Names,
    pub(crate) local_names: Vec<Option<String>>,
    pub(crate) uses_memory: bool,
    /// Locations some `goto` names.
    pub(crate) referenced: BTreeSet<Loc>,
    /// Most edges of one location dispatched by flags.
    pub(crate) max_fanout: usize,
}

impl FnEmitter<'_> {
    fn expr(&mut self, e: &Expr) -> Result<String, EmitError> {
        let env = self.program.env(self.func);
        let mut cx = ExprCx {
            env: &env,
            local_names: &self.local_names,
            global_names: self.global_names,
            object_addrs: self.object_addrs,
            helpers: self.helpers,
            uses_memory: false,
        };
        cx.expr(e)
    }

    fn var(&self, v: VarRef) -> Result<String, EmitError> {
        let name = match v {
            VarRef::Local(l) => self.local_names.get(l.index()).cloned().flatten(),
            VarRef::Global(g) => self.global_names.get(g.index()).cloned(),
        };
        name.ok_or_else(|| EmitError::Invalid(vec![format!("unknown variable {v:?}")]))
    }

    fn var_ty(&self, v: VarRef) -> Ty {
        match v {
            VarRef::Local(l) => self.func.local(l).ty,
            VarRef::Global(g) => self.program.global_ty(g),
        }
    }

    pub(crate) fn emit(&mut self) -> Result<Vec<Line>, EmitError> {
        let f = self.func;
        // Locals the function mentions; the others are never observable.
        let mut used: BTreeSet<u32> = f.params.iter().map(|l| l.0).collect();
        let mut read: BTreeSet<u32> = BTreeSet::new();
        used.extend(f.ret.map(|r| r.0));
        if f.edges.iter().any(|e| e.to == f.exit) {
            read.extend(f.ret.map(|r| r.0));
        }
        for e in &f.edges {
            if let Some(VarRef::Local(l)) = e.op.def() {
                used.insert(l.0);
            }
            e.op.exprs(&mut |x| {
                for v in x.vars() {
                    if let VarRef::Local(l) = v {
                        used.insert(l.0);
                        read.insert(l.0);
                    }
                }
            });
        }
        self.local_names = (0..f.locals.len() as u32)
            .map(|i| {
                used.contains(&i)
                    .then(|| self.names.fresh(&f.locals[i as usize].name))
            })
            .collect();

        let body = self.body()?;

        let fname = self.fn_names[self.fid.index()]
            .clone()
            .expect("emitted functions are named");
        let ret_ty = match f.ret {
            Some(r) => c_type(f.local(r).ty)?,
            None => "void",
        };
        let mut params = Vec::new();
        for p in &f.params {
            params.push(format!(
                "{} {}",
                c_type(f.local(*p).ty)?,
                self.var(VarRef::Local(*p))?
            ));
        }
        let params = if params.is_empty() {
            "void".to_string()
        } else {
            params.join(", ")
        };
        let mut out = vec![Line::plain(&format!(
            "static {ret_ty} {fname}({params}) {{"
        ))];
        for (i, l) in f.locals.iter().enumerate() {
            let Some(name) = &self.local_names[i] else {
                continue;
            };
            if f.params.iter().any(|p| p.index() == i) {
                continue;
            }
            out.push(Line::plain(&format!("  {} {name} = 0;", c_type(l.ty)?)));
        }
        if self.max_fanout > 0 {
            let flags: Vec<String> = (0..self.max_fanout).map(|i| format!("qicc_e{i}")).collect();
            out.push(Line::plain(&format!("  _Bool {};", flags.join(", "))));
            out.push(Line::plain("  unsigned qicc_n, qicc_k;"));
        }
        for (i, name) in self.local_names.iter().enumerate() {
            if let Some(name) = name {
                if !read.contains(&(i as u32)) && !f.params.iter().any(|p| p.index() == i) {
                    out.push(Line::plain(&format!(
                        "  (void){name}; /* written, never read */"
                    )));
                }
            }
        }
        out.extend(body);
        out.push(Line::plain("}"));
        Ok(out)
    }

    /// The labelled blocks of every location reachable from the entry, in reverse post-order.
    fn body(&mut self) -> Result<Vec<Line>, EmitError> {
        let f = self.func;
        let succ = f.successors();
        let mut seen = BTreeSet::new();
        let mut queue = VecDeque::from([f.entry]);
        while let Some(l) = queue.pop_front() {
            if f.is_final(l) || !seen.insert(l) {
                continue;
            }
            for &e in &succ[l.index()] {
                queue.push_back(f.edge(e).to);
            }
        }
        // Reverse post-order (entry first): a `goto` jumps backwards only along a retreating
        // edge, to a loop's head. ESBMC 8.4 treats every backward `goto` as a loop and is
        // unsound on ones that are not (in location order, `if (t) goto L16;` back to a block
        // that only jumps on made it prove a reachable failure: qicc-study's
        // double_sum/double3_small_arbitrary_unsafe).
        let rpo = qicc_analysis::FunctionGraph::new(f).rpo;
        let mut order: Vec<Loc> = rpo.into_iter().filter(|l| seen.contains(l)).collect();
        if order.first() != Some(&f.entry) {
            order.retain(|&l| l != f.entry);
            order.insert(0, f.entry);
        }
        let mut blocks = Vec::new();
        for (i, &l) in order.iter().enumerate() {
            let next = order.get(i + 1).copied();
            let edges: Vec<&Edge> = succ[l.index()].iter().map(|&e| f.edge(e)).collect();
            blocks.push((l, self.dispatch(&edges, next)?));
        }
        let mut out = Vec::new();
        for (l, lines) in blocks {
            if self.referenced.contains(&l) {
                out.push(Line::plain(&format!("{l}:")));
            }
            out.extend(lines);
        }
        Ok(out)
    }

    /// The code of one location: choose an enabled edge and take it.
    fn dispatch(&mut self, edges: &[&Edge], next: Option<Loc>) -> Result<Vec<Line>, EmitError> {
        let mut out = Vec::new();
        let ind = "  ";
        match edges {
            [] => out.push(Line::plain(
                "  __VERIFIER_assume(0); abort(); /* no edge: blocked */",
            )),
            [e] => {
                if let Op::Assume(c) = &e.op {
                    if !c.is_true() {
                        let c = self.expr(c)?;
                        out.push(Line::plain(&format!("{ind}__VERIFIER_assume({c});")));
                    }
                }
                out.extend(self.transfer(e, ind, next)?);
            }
            [a, b] if matches!((&a.op, &b.op), (Op::Assume(x), Op::Assume(y)) if complementary(x, y)) =>
            {
                // The branch whose target follows falls through.
                let (first, last) = if Some(a.to) == next {
                    (*b, *a)
                } else {
                    (*a, *b)
                };
                let Op::Assume(c) = &first.op else {
                    unreachable!("both are assumptions")
                };
                let c = self.expr(c)?;
                let taken = self.transfer(first, "    ", None)?;
                if taken.len() == 1 && taken[0].site.is_none() {
                    out.push(Line::plain(&format!(
                        "{ind}if ({c}) {}",
                        taken[0].text.trim_start()
                    )));
                } else {
                    out.push(Line::plain(&format!("{ind}if ({c}) {{")));
                    out.extend(taken);
                    out.push(Line::plain(&format!("{ind}}}")));
                }
                out.extend(self.transfer(last, ind, next)?);
            }
            _ => {
                self.max_fanout = self.max_fanout.max(edges.len());
                let mut flags = Vec::new();
                for (i, e) in edges.iter().enumerate() {
                    let cond = match &e.op {
                        Op::Assume(c) => self.expr(c)?,
                        _ => "1".to_string(),
                    };
                    out.push(Line::plain(&format!("{ind}qicc_e{i} = {cond};")));
                    flags.push(format!("qicc_e{i}"));
                }
                out.push(Line::plain(&format!(
                    "{ind}qicc_n = (unsigned){};",
                    flags.join(" + ")
                )));
                out.push(Line::plain(&format!(
                    "{ind}if (qicc_n == 0u) {{ __VERIFIER_assume(0); abort(); }} /* none enabled: blocked */"
                )));
                out.push(Line::plain(&format!(
                    "{ind}qicc_k = qicc_n == 1u ? 0u : qicc_choice(qicc_n); /* the k-th enabled edge */"
                )));
                let last = edges.len() - 1;
                for (i, e) in edges.iter().enumerate() {
                    if i == last {
                        out.extend(self.transfer(e, ind, next)?);
                    } else {
                        out.push(Line::plain(&format!(
                            "{ind}if (qicc_e{i}) {{ if (qicc_k == 0u) {{"
                        )));
                        out.extend(self.transfer(e, "      ", None)?);
                        out.push(Line::plain(&format!("{ind}}} qicc_k--; }}")));
                    }
                }
            }
        }
        Ok(out)
    }

    /// The edge's operation and the jump to its target (none if the target is `next`).
    fn transfer(&mut self, e: &Edge, ind: &str, next: Option<Loc>) -> Result<Vec<Line>, EmitError> {
        let f = self.func;
        let mut out = Vec::new();
        match &e.op {
            // `nowrap`: the emitted C computes with wrap-around, as the IR.
            Op::Skip | Op::Assume(_) | Op::NoWrap(_) => {}
            Op::Assign(v, x) => {
                let x = self.expr(x)?;
                out.push(Line::plain(&format!("{ind}{} = {x};", self.var(*v)?)));
            }
            Op::Havoc(v, kind) => {
                let what = match kind {
                    HavocKind::Nondet(n) => n.clone(),
                    HavocKind::Uninit => "uninitialised".into(),
                    // Independent results: the emitted C does not repeat a `const`
                    // function's result (fewer proofs, never a wrong one).
                    HavocKind::Extern(n) | HavocKind::Applied { name: n, .. } => {
                        format!("result of extern {n}")
                    }
                    HavocKind::Region => "region entry".into(),
                    HavocKind::Platform(n) => format!("platform's choice: {n}"),
                };
                let ty = self.var_ty(*v);
                let call = nondet_call(self.program, ty)?;
                // Through a declaration: ESBMC's violation witness gives the value of a
                // nondet call that initialises a declaration (a `function_return` waypoint),
                // not of one assigned to a variable, and qicc replays the witness by those
                // values (`crate::witness`).
                out.push(Line::plain(&format!(
                    "{ind}{{ {} {HAVOC_TEMP} = {call}; {} = {HAVOC_TEMP}; }} /* {} */",
                    c_type(ty)?,
                    self.var(*v)?,
                    comment_safe(&what)
                )));
            }
            Op::Store { ty, addr, value } => {
                c_type(*ty)?;
                let (a, v) = (self.expr(addr)?, self.expr(value)?);
                out.push(Line::plain(&format!(
                    "{ind}qicc_store{}({a}, {v});",
                    ty.bits()
                )));
            }
            Op::Alloc { dst, size, kind } => {
                let s = self.expr(size)?;
                let heap = u8::from(*kind == qicc_ir::AllocKind::Heap);
                out.push(Line::plain(&format!(
                    "{ind}{} = qicc_alloc({s}, {heap});",
                    self.var(*dst)?
                )));
            }
            Op::Free(a) => {
                let a = self.expr(a)?;
                out.push(Line::plain(&format!("{ind}qicc_free({a});")));
            }
            Op::MemCopy { dst, src, len } => {
                let (d, s, n) = (self.expr(dst)?, self.expr(src)?, self.expr(len)?);
                out.push(Line::plain(&format!("{ind}qicc_memmove({d}, {s}, {n});")));
            }
            Op::MemSet { dst, byte, len } => {
                let (d, b, n) = (self.expr(dst)?, self.expr(byte)?, self.expr(len)?);
                out.push(Line::plain(&format!("{ind}qicc_memset({d}, {b}, {n});")));
            }
            Op::HavocBytes { dst, len } => {
                let (d, n) = (self.expr(dst)?, self.expr(len)?);
                out.push(Line::plain(&format!("{ind}qicc_havoc_bytes({d}, {n});")));
            }
            // The runtime has no contents-only havoc: the whole memory (an over-approximation,
            // sound for the proofs emitted C is used for).
            Op::HavocMemory | Op::HavocContents => {
                if self.uses_memory {
                    out.push(Line::plain(&format!("{ind}qicc_havoc_memory();")));
                } else {
                    out.push(Line::plain(&format!(
                        "{ind}/* havoc_memory: nothing in this program reads memory */"
                    )));
                }
            }
            Op::Call { dst, callee, args } => {
                let mut a = Vec::new();
                for x in args {
                    a.push(self.expr(x)?);
                }
                let name = self
                    .fn_names
                    .get(callee.index())
                    .cloned()
                    .flatten()
                    .ok_or_else(|| EmitError::Invalid(vec![format!("call of missing {callee}")]))?;
                let call = format!("{name}({})", a.join(", "));
                match dst {
                    Some(d) => out.push(Line::plain(&format!("{ind}{} = {call};", self.var(*d)?))),
                    None => out.push(Line::plain(&format!("{ind}{call};"))),
                }
            }
            Op::Error(k) => {
                let mut text = format!("{ind}QICC_FAIL(\"qicc assertion #{}\"); abort();", k.0);
                if let Some(a) = self.program.assertions.get(k.index()) {
                    let mut what = a.kind.name().to_string();
                    if let Some(t) = &a.text {
                        let _ = write!(what, " {t}");
                    }
                    if a.span.is_known() {
                        let _ = write!(what, " at {}", self.program.span_str(a.span));
                    }
                    let _ = write!(text, " /* {} */", comment_safe(&what));
                }
                out.push(Line::site(text, Site::Assertion(*k)));
                return Ok(out);
            }
            Op::Halt(None) => {
                out.push(Line::plain(&format!("{ind}abort();")));
                return Ok(out);
            }
            Op::Halt(Some(code)) => {
                let c = self.expr(code)?;
                out.push(Line::plain(&format!("{ind}exit((int)(uint8_t){c});")));
                return Ok(out);
            }
        }
        if e.to == f.exit {
            match f.ret {
                Some(r) => out.push(Line::plain(&format!(
                    "{ind}return {};",
                    self.var(VarRef::Local(r))?
                ))),
                None => out.push(Line::plain(&format!("{ind}return;"))),
            }
        } else if Some(e.to) != next {
            self.referenced.insert(e.to);
            out.push(Line::plain(&format!("{ind}goto {};", e.to)));
        }
        Ok(out)
    }
}

/// Text that can sit inside a C comment.
fn comment_safe(s: &str) -> String {
    s.replace("*/", "* /").replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complementary_conditions() {
        let x = Expr::local(qicc_ir::LocalId(0));
        let y = Expr::local(qicc_ir::LocalId(1));
        let lt = Expr::binary(BinOp::Slt, x.clone(), y.clone());
        assert!(complementary(&lt, &Expr::not(lt.clone())));
        assert!(complementary(
            &lt,
            &Expr::binary(BinOp::Sle, y.clone(), x.clone())
        ));
        assert!(!complementary(
            &lt,
            &Expr::binary(BinOp::Sle, x.clone(), y.clone())
        ));
        assert!(complementary(
            &Expr::binary(BinOp::Eq, x.clone(), y.clone()),
            &Expr::binary(BinOp::Ne, y.clone(), x.clone())
        ));
        assert!(!complementary(&lt, &lt));
    }
}
