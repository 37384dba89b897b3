//! Expressions on the current state, and the byte-level read path of memory.
//!
//! Every operator goes through `qicc_ir::semantics`, so the interpreter agrees with constant
//! folding and with the SMT encoding. A load reads little-endian, byte by byte, at addresses
//! that wrap at the pointer width; a byte this run has not determined yet is resolved here:
//! from the static initialiser of the object it lies in (until a `havoc_memory`), otherwise
//! from the oracle — asked once per address for the whole run (the answer is recorded in the
//! witness and reused, also after `havoc_memory`, so the witness's one byte per address
//! replays exactly).
//!
//! Taint: a byte or variable whose value is arbitrary in C terms (uninitialised memory, an
//! `uninit` havoc) is tainted; reading it sets the run's `read_uninit`. Copies keep taint
//! (`memcpy` bytes, a returned value), so that declaring or copying an uninitialised variable
//! or struct is not itself reported — only using its value.

use crate::machine::Machine;
use crate::memory::{CLEAN, TAINTED};
use qicc_ir::semantics::float::eval_fp;
use qicc_ir::semantics::{eval_binop, eval_cast, eval_unop};
use qicc_ir::{Expr, Function, Ty, VarRef};

impl Machine<'_, '_> {
    /// Value (low bits of its type) and type of `e` in the frame of `f` whose locals start at
    /// `base`.
    pub(crate) fn eval(&mut self, e: &Expr, f: &Function, base: usize) -> (u64, Ty) {
        match e {
            Expr::Const { ty, value } => (*value, *ty),
            Expr::Var(VarRef::Local(l)) => {
                let i = base + l.index();
                if self.local_taint[i] {
                    self.read_uninit = true;
                }
                (self.locals[i], f.locals[l.index()].ty)
            }
            Expr::Var(VarRef::Global(g)) => {
                let i = g.index();
                if self.global_taint[i] {
                    self.read_uninit = true;
                }
                (self.globals[i], self.program.globals[i].ty)
            }
            Expr::ObjAddr(o) => (self.program.layout.base_address(o.0), self.pointer_ty),
            Expr::Unary(op, a) => {
                let (a, ty) = self.eval(a, f, base);
                (eval_unop(*op, ty, a), ty)
            }
            Expr::Binary(op, a, b) => {
                let (a, ty) = self.eval(a, f, base);
                let (b, _) = self.eval(b, f, base);
                let rty = if op.is_comparison() { Ty::Bool } else { ty };
                (eval_binop(*op, ty, a, b), rty)
            }
            Expr::Cast(op, to, a) => {
                let (a, from) = self.eval(a, f, base);
                (eval_cast(*op, from, *to, a), *to)
            }
            Expr::Ite(c, a, b) => {
                // Only the chosen branch is evaluated: expressions are pure, and leaving the
                // other alone avoids asking the oracle for bytes the value does not depend on.
                if self.eval(c, f, base).0 != 0 {
                    self.eval(a, f, base)
                } else {
                    self.eval(b, f, base)
                }
            }
            Expr::Load(ty, a) => {
                let (addr, _) = self.eval(a, f, base);
                (self.load(addr, (ty.bits() / 8) as u32), *ty)
            }
            Expr::Valid(k, n, a) => {
                let (addr, _) = self.eval(a, f, base);
                (self.mem.table.accessible(*k, addr, *n) as u64, Ty::Bool)
            }
            Expr::Fp(op, args) => {
                let mut vals = Vec::with_capacity(args.len());
                let mut ty = Ty::Bool;
                for (i, a) in args.iter().enumerate() {
                    let (v, t) = self.eval(a, f, base);
                    if i == 0 {
                        ty = t;
                    }
                    vals.push(v);
                }
                (eval_fp(*op, ty, &vals), op.result_ty(ty))
            }
        }
    }

    /// Little-endian value of `n <= 8` bytes from `addr`.
    pub(crate) fn load(&mut self, addr: u64, n: u32) -> u64 {
        let mask = self.mem.pointer_mask();
        let mut v = 0u64;
        for i in 0..n {
            let (b, state) = self.read_byte(addr.wrapping_add(i as u64) & mask);
            if state == TAINTED {
                self.read_uninit = true;
            }
            v |= (b as u64) << (8 * i);
        }
        v
    }

    /// Little-endian store of the low `n <= 8` bytes of `value` at `addr`, the bytes in state
    /// `state` (`CLEAN` or `TAINTED`).
    pub(crate) fn store_with(&mut self, addr: u64, n: u32, value: u64, state: u8) {
        let mask = self.mem.pointer_mask();
        for i in 0..n {
            self.mem.put(
                addr.wrapping_add(i as u64) & mask,
                (value >> (8 * i)) as u8,
                state,
            );
        }
    }

    /// Whether variable `v` (of the frame whose locals start at `base`) holds an
    /// uninitialised value.
    pub(crate) fn var_tainted(&self, v: VarRef, base: usize) -> bool {
        match v {
            VarRef::Local(l) => self.local_taint[base + l.index()],
            VarRef::Global(g) => self.global_taint[g.index()],
        }
    }

    /// The value of variable `v` without using it (no taint check).
    pub(crate) fn var_value(&self, v: VarRef, base: usize) -> u64 {
        match v {
            VarRef::Local(l) => self.locals[base + l.index()],
            VarRef::Global(g) => self.globals[g.index()],
        }
    }

    /// The byte at `addr` (already masked) and its state, resolving it if this run has not
    /// determined it yet. Does not set `read_uninit` (copies carry the state instead).
    #[inline]
    pub(crate) fn read_byte(&mut self, addr: u64) -> (u8, u8) {
        match self.mem.lookup(addr) {
            Some(known) => known,
            None => self.resolve_byte(addr),
        }
    }

    #[cold]
    fn resolve_byte(&mut self, addr: u64) -> (u8, u8) {
        let layout = self.program.layout;
        if !self.mem.statics_forgotten {
            if let Some(b) = self
                .statics
                .initial_byte(layout.object_of(addr), layout.offset_of(addr))
            {
                self.mem.put(addr, b, CLEAN);
                return (b, CLEAN);
            }
        }
        let b = match self.witness.uninit.get(&addr) {
            Some(b) => *b,
            None => {
                let b = self.oracle.uninit_byte(addr);
                self.witness.uninit.insert(addr, b);
                self.asked_oracle = true;
                b
            }
        };
        self.mem.put(addr, b, TAINTED);
        (b, TAINTED)
    }
}
