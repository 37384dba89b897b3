//! IR expressions as solver terms, for the two questions this crate asks a solver: which loop
//! paths are feasible twice in a row (path selection) and whether a closed form is inductive
//! (formula 4 of the paper).
//!
//! Memory is one array from addresses to bytes (`load` reads little-endian through it) and
//! `valid.N` is an uninterpreted predicate on addresses (an array to 1-bit values). Both are
//! *over-approximations* of the IR's meaning — any real execution is a model — so an
//! unsatisfiable answer is a proof about the program, and a satisfiable one is only a hint
//! (which is all path selection needs).

use qicc_ir::{BinOp, CastOp, Expr, MemoryLayout, Ty, TypeEnv, UnOp, VarRef};
use qicc_smt::{BvBinOp, BvCmpOp, BvUnOp, Sort, TermId, TermStore};
use std::collections::HashMap;

/// The sort of an IR type.
pub(crate) fn sort_of(ty: Ty) -> Sort {
    match ty {
        Ty::Bool => Sort::Bool,
        Ty::Int(w) => Sort::BitVec(w),
    }
}

/// Translates expressions over a variable assignment and a memory.
pub(crate) struct Encoder {
    pub layout: MemoryLayout,
    /// Value of each variable; a variable not listed gets a fresh symbol on first use.
    pub vars: HashMap<VarRef, TermId>,
    pub mem: TermId,
    valid: HashMap<u32, TermId>,
    prefix: String,
}

impl Encoder {
    /// An encoder whose unlisted variables and memory are symbols named after `prefix`.
    pub fn new(store: &mut TermStore, layout: MemoryLayout, prefix: &str) -> Encoder {
        let mem = store.symbol(
            &format!("{prefix}mem"),
            Sort::Array {
                index: layout.pointer_bits,
                elem: 8,
            },
        );
        Encoder {
            layout,
            vars: HashMap::new(),
            mem,
            valid: HashMap::new(),
            prefix: prefix.to_string(),
        }
    }

    /// The term of a variable (a fresh symbol the first time).
    pub fn var(&mut self, store: &mut TermStore, v: VarRef, env: &dyn TypeEnv) -> TermId {
        if let Some(&t) = self.vars.get(&v) {
            return t;
        }
        let name = match v {
            VarRef::Local(l) => format!("{}l{}", self.prefix, l.0),
            VarRef::Global(g) => format!("{}g{}", self.prefix, g.0),
        };
        let t = store.symbol(&name, sort_of(env.var_ty(v)));
        self.vars.insert(v, t);
        t
    }

    fn valid_pred(&mut self, store: &mut TermStore, n: u32) -> TermId {
        if let Some(&t) = self.valid.get(&n) {
            return t;
        }
        // Shared by every encoder of the store: validity does not change along a loop path.
        let t = store.symbol(
            &format!("valid.{n}"),
            Sort::Array {
                index: self.layout.pointer_bits,
                elem: 1,
            },
        );
        self.valid.insert(n, t);
        t
    }

    pub fn encode(&mut self, store: &mut TermStore, e: &Expr, env: &dyn TypeEnv) -> TermId {
        match e {
            Expr::Const {
                ty: Ty::Bool,
                value,
            } => store.bool_const(*value != 0),
            Expr::Const { ty, value } => store.bv_const(ty.bits(), *value),
            Expr::Var(v) => self.var(store, *v, env),
            Expr::ObjAddr(o) => {
                store.bv_const(self.layout.pointer_bits, self.layout.base_address(o.0))
            }
            Expr::Unary(op, a) => {
                let a = self.encode(store, a, env);
                match (op, store.sort(a)) {
                    (UnOp::Not, Sort::Bool) => store.not(a),
                    (UnOp::Not, _) => store.bv_un(BvUnOp::Not, a),
                    (UnOp::Neg, _) => store.bv_un(BvUnOp::Neg, a),
                }
            }
            Expr::Binary(op, a, b) => {
                let a = self.encode(store, a, env);
                let b = self.encode(store, b, env);
                if store.sort(a).is_bool() {
                    return match op {
                        BinOp::And => store.and(a, b),
                        BinOp::Or => store.or(a, b),
                        BinOp::Xor => store.xor(a, b),
                        BinOp::Eq => store.eq(a, b),
                        _ => store.ne(a, b),
                    };
                }
                let arith = |op: BinOp| -> Option<BvBinOp> {
                    Some(match op {
                        BinOp::Add => BvBinOp::Add,
                        BinOp::Sub => BvBinOp::Sub,
                        BinOp::Mul => BvBinOp::Mul,
                        BinOp::UDiv => BvBinOp::UDiv,
                        BinOp::SDiv => BvBinOp::SDiv,
                        BinOp::URem => BvBinOp::URem,
                        BinOp::SRem => BvBinOp::SRem,
                        BinOp::Shl => BvBinOp::Shl,
                        BinOp::LShr => BvBinOp::LShr,
                        BinOp::AShr => BvBinOp::AShr,
                        BinOp::And => BvBinOp::And,
                        BinOp::Or => BvBinOp::Or,
                        BinOp::Xor => BvBinOp::Xor,
                        _ => return None,
                    })
                };
                if let Some(bop) = arith(*op) {
                    return store.bv_bin(bop, a, b);
                }
                match op {
                    BinOp::Eq => store.eq(a, b),
                    BinOp::Ne => store.ne(a, b),
                    BinOp::Ult => store.bv_cmp(BvCmpOp::Ult, a, b),
                    BinOp::Ule => store.bv_cmp(BvCmpOp::Ule, a, b),
                    BinOp::Slt => store.bv_cmp(BvCmpOp::Slt, a, b),
                    _ => store.bv_cmp(BvCmpOp::Sle, a, b),
                }
            }
            Expr::Cast(op, to, a) => {
                let a = self.encode(store, a, env);
                let from = store.width(a);
                let to = to.bits();
                match op {
                    _ if from == to => a,
                    CastOp::Zext => store.zero_ext(to - from, a),
                    CastOp::Sext => store.sign_ext(to - from, a),
                    CastOp::Trunc => store.extract(to - 1, 0, a),
                }
            }
            Expr::Ite(c, a, b) => {
                let c = self.encode(store, c, env);
                let a = self.encode(store, a, env);
                let b = self.encode(store, b, env);
                store.ite(c, a, b)
            }
            Expr::Load(ty, a) => {
                let a = self.encode(store, a, env);
                let n = (ty.bits() / 8).max(1) as u64;
                let mut value: Option<TermId> = None;
                for i in 0..n {
                    let at = store.add_const(a, i);
                    let byte = store.select(self.mem, at);
                    value = Some(match value {
                        None => byte,
                        Some(low) => store.concat(byte, low),
                    });
                }
                value.expect("a load reads at least one byte")
            }
            Expr::Valid(n, a) => {
                let a = self.encode(store, a, env);
                let pred = self.valid_pred(store, *n);
                let bit = store.select(pred, a);
                let one = store.bv_const(1, 1);
                store.eq(bit, one)
            }
        }
    }
}
