//! Small IR programs built in code, covering what the emitter must translate: every operator
//! at every width with SMT-LIB's edge cases, memory (static objects with byte and address
//! initialisers, loads and stores of every width, unaligned and straddling accesses, `valid`,
//! `alloc`, `free`, `memset`, overlapping `memcpy`, reads outside objects, `havoc_memory`),
//! nondeterministic branching that is not a two-way `if`, calls, recursion and `halt`.
//!
//! Each program has property assertions that hold (identities of the semantics) and some that
//! can be violated, and returns a checksum of what it computed, so that a differential run
//! compares values and a verifier compares verdicts.
#![allow(dead_code)]

use qicc_ir::*;

/// A function under construction: a chain of edges from `cur`.
pub struct FnB {
    pub f: Function,
    pub id: FuncId,
    pub cur: Loc,
}

impl FnB {
    pub fn new(name: &str, id: FuncId) -> FnB {
        let f = Function::new(name, Span::new(0, 1, 1));
        let cur = f.entry;
        FnB { f, id, cur }
    }

    pub fn local(&mut self, name: &str, ty: Ty) -> Expr {
        Expr::local(self.f.add_local(name, ty))
    }

    pub fn param(&mut self, name: &str, ty: Ty) -> Expr {
        let l = self.f.add_local(name, ty);
        self.f.params.push(l);
        Expr::local(l)
    }

    pub fn ret_local(&mut self, ty: Ty) -> Expr {
        let l = self.f.add_local("ret", ty);
        self.f.ret = Some(l);
        Expr::local(l)
    }

    pub fn var(e: &Expr) -> VarRef {
        match e {
            Expr::Var(v) => *v,
            _ => panic!("not a variable"),
        }
    }

    /// `cur -> new: op`, continuing from the new location.
    pub fn op(&mut self, op: Op) {
        let next = self.f.new_loc();
        self.f.add_edge(self.cur, next, op, Span::new(0, 2, 1));
        self.cur = next;
    }

    pub fn set(&mut self, v: &Expr, e: Expr) {
        self.op(Op::Assign(Self::var(v), e));
    }

    pub fn havoc(&mut self, v: &Expr) {
        self.op(Op::Havoc(
            Self::var(v),
            HavocKind::Nondet("__VERIFIER_nondet_uint".into()),
        ));
    }

    /// An assertion `cond` with the front-end's shape: `assume cond` goes on, `assume
    /// not(cond)` reaches `error #k`. The span's line is the assertion's number + 100.
    pub fn check(&mut self, p: &mut Program, cond: Expr, text: &str) {
        let k = p.add_assertion(Assertion {
            kind: AssertKind::VerifierAssert,
            func: self.id,
            span: Span::new(0, 100 + p.assertions.len() as u32, 1),
            text: Some(text.to_string()),
        });
        let bad = self.f.new_loc();
        let next = self.f.new_loc();
        self.f.add_edge(
            self.cur,
            bad,
            Op::Assume(Expr::not(cond.clone())),
            Span::UNKNOWN,
        );
        self.f
            .add_edge(bad, self.f.err, Op::Error(k), Span::UNKNOWN);
        self.f
            .add_edge(self.cur, next, Op::Assume(cond), Span::UNKNOWN);
        self.cur = next;
    }

    /// `%ret := e` and return.
    pub fn ret(&mut self, e: Expr) {
        let r = self.f.ret.expect("a return local");
        self.f.add_edge(
            self.cur,
            self.f.exit,
            Op::Assign(VarRef::Local(r), e),
            Span::UNKNOWN,
        );
    }

    pub fn ret_void(&mut self) {
        self.f
            .add_edge(self.cur, self.f.exit, Op::Skip, Span::UNKNOWN);
    }
}

pub fn c(bits: u16, v: u64) -> Expr {
    Expr::int(bits, v)
}

pub fn bin(op: BinOp, a: &Expr, b: &Expr) -> Expr {
    Expr::binary(op, a.clone(), b.clone())
}

pub fn eq(a: Expr, b: Expr) -> Expr {
    Expr::binary(BinOp::Eq, a, b)
}

fn implies(a: Expr, b: Expr) -> Expr {
    Expr::binary(BinOp::Or, Expr::not(a), b)
}

fn new_program(dm: DataModel) -> Program {
    let mut p = Program::new(dm);
    p.files.push("built.ir".into());
    p
}

/// `acc := acc * 31 + zext64(x)`: a checksum sensitive to every result.
fn mix(b: &mut FnB, acc: &Expr, x: Expr, bits: u16) {
    let wide = if bits < 64 {
        Expr::cast(CastOp::Zext, Ty::I64, x)
    } else {
        x
    };
    b.set(
        acc,
        bin(BinOp::Add, &bin(BinOp::Mul, acc, &c(64, 31)), &wide),
    );
}

/// Every operator at width `w` on two inputs, with SMT-LIB's edge cases asserted.
pub fn operators(w: u16, dm: DataModel) -> Program {
    let mut p = new_program(dm);
    let mut b = FnB::new("main", FuncId(0));
    b.ret_local(Ty::I64);
    let t = Ty::Int(w);
    let x = b.local("x", t);
    let y = b.local("y", t);
    let acc = b.local("acc", Ty::I64);
    let flag = b.local("flag", Ty::Bool);
    b.havoc(&x);
    b.havoc(&y);
    let mask = qicc_ir::types::mask(w);
    let sign = 1u64 << (w - 1);
    let zero = c(w, 0);
    let ones = c(w, mask);
    let min = c(w, sign);
    for op in [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::UDiv,
        BinOp::SDiv,
        BinOp::URem,
        BinOp::SRem,
        BinOp::Shl,
        BinOp::LShr,
        BinOp::AShr,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
    ] {
        mix(&mut b, &acc, bin(op, &x, &y), w);
    }
    for op in [
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Ult,
        BinOp::Ule,
        BinOp::Slt,
        BinOp::Sle,
    ] {
        b.set(&flag, bin(op, &x, &y));
        mix(&mut b, &acc, Expr::ite(flag.clone(), c(w, 1), c(w, 2)), w);
    }
    mix(&mut b, &acc, Expr::unary(UnOp::Neg, x.clone()), w);
    mix(&mut b, &acc, Expr::unary(UnOp::Not, y.clone()), w);
    if w < 64 {
        mix(
            &mut b,
            &acc,
            Expr::cast(CastOp::Sext, Ty::I64, x.clone()),
            64,
        );
    }
    if w > 8 {
        mix(
            &mut b,
            &acc,
            Expr::cast(CastOp::Trunc, Ty::I8, y.clone()),
            8,
        );
        mix(
            &mut b,
            &acc,
            Expr::cast(
                CastOp::Sext,
                t,
                Expr::cast(CastOp::Trunc, Ty::I8, y.clone()),
            ),
            w,
        );
    }
    // SMT-LIB's edge cases.
    b.check(
        &mut p,
        eq(bin(BinOp::UDiv, &x, &zero), ones.clone()),
        "udiv x 0 = ~0",
    );
    b.check(
        &mut p,
        eq(bin(BinOp::URem, &x, &zero), x.clone()),
        "urem x 0 = x",
    );
    b.check(
        &mut p,
        eq(
            bin(BinOp::SDiv, &x, &zero),
            Expr::ite(bin(BinOp::Slt, &x, &zero), c(w, 1), ones.clone()),
        ),
        "sdiv x 0 = x < 0 ? 1 : -1",
    );
    b.check(
        &mut p,
        eq(bin(BinOp::SRem, &x, &zero), x.clone()),
        "srem x 0 = x",
    );
    b.check(
        &mut p,
        eq(bin(BinOp::SDiv, &min, &ones), min.clone()),
        "sdiv MIN -1 = MIN",
    );
    b.check(
        &mut p,
        eq(bin(BinOp::SRem, &min, &ones), zero.clone()),
        "srem MIN -1 = 0",
    );
    let wide = bin(BinOp::Ule, &c(w, w as u64), &y);
    b.check(
        &mut p,
        implies(wide.clone(), eq(bin(BinOp::Shl, &x, &y), zero.clone())),
        "shl by >= w is 0",
    );
    b.check(
        &mut p,
        implies(wide.clone(), eq(bin(BinOp::LShr, &x, &y), zero.clone())),
        "lshr by >= w is 0",
    );
    b.check(
        &mut p,
        implies(
            wide,
            eq(
                bin(BinOp::AShr, &x, &y),
                Expr::ite(bin(BinOp::Slt, &x, &zero), ones.clone(), zero.clone()),
            ),
        ),
        "ashr by >= w is the sign",
    );
    b.check(
        &mut p,
        eq(
            bin(BinOp::Slt, &x, &y),
            bin(
                BinOp::Ult,
                &bin(BinOp::Xor, &x, &min),
                &bin(BinOp::Xor, &y, &min),
            ),
        ),
        "slt is ult with the sign flipped",
    );
    b.check(
        &mut p,
        eq(
            bin(BinOp::SDiv, &c(w, (-7i64) as u64), &c(w, 2)),
            c(w, (-3i64) as u64),
        ),
        "sdiv truncates",
    );
    b.check(
        &mut p,
        eq(
            bin(BinOp::SRem, &c(w, (-7i64) as u64), &c(w, 2)),
            ones.clone(),
        ),
        "srem takes the dividend's sign",
    );
    b.check(
        &mut p,
        eq(bin(BinOp::Mul, &x, &c(w, 2)), bin(BinOp::Shl, &x, &c(w, 1))),
        "mul 2 is shl 1",
    );
    b.check(
        &mut p,
        eq(
            Expr::unary(UnOp::Neg, x.clone()),
            bin(BinOp::Sub, &zero, &x),
        ),
        "neg is 0 - x",
    );
    // Violable: some inputs reach these.
    b.check(
        &mut p,
        Expr::binary(BinOp::Ne, bin(BinOp::UDiv, &x, &y), c(w, 5)),
        "x / y != 5",
    );
    b.check(
        &mut p,
        Expr::binary(
            BinOp::Ne,
            bin(BinOp::AShr, &x, &c(w, w as u64 - 1)),
            ones.clone(),
        ),
        "x >= 0 (violable)",
    );
    b.ret(acc);
    p.add_function(b.f);
    p.entry = FuncId(0);
    p
}

/// Memory: every operation of the byte-addressed model.
pub fn memory(dm: DataModel) -> Program {
    let mut p = new_program(dm);
    let ptr = p.pointer_ty();
    let pw = ptr.bits();
    let pc = |v: u64| c(pw, v);
    let a = p.add_object(Object {
        name: "a".into(),
        size: 16,
        readonly: false,
        zeroed: true,
        init: vec![InitItem::Bytes {
            offset: 0,
            bytes: vec![1, 2, 3, 4],
        }],
        span: Span::UNKNOWN,
    });
    let pa = p.add_object(Object {
        name: "pa".into(),
        size: 8,
        readonly: false,
        zeroed: true,
        init: vec![InitItem::Value {
            offset: 0,
            value: Expr::binary(BinOp::Add, Expr::ObjAddr(a), c(pw, 4)),
        }],
        span: Span::UNKNOWN,
    });
    let s = p.add_object(Object {
        name: "str.0".into(),
        size: 4,
        readonly: true,
        zeroed: true,
        init: vec![InitItem::Bytes {
            offset: 0,
            bytes: b"hey\0".to_vec(),
        }],
        span: Span::UNKNOWN,
    });
    let u = p.add_object(Object {
        name: "u".into(),
        size: 8,
        readonly: false,
        zeroed: false,
        init: vec![InitItem::Bytes {
            offset: 0,
            bytes: vec![7],
        }],
        span: Span::UNKNOWN,
    });
    let mut b = FnB::new("main", FuncId(0));
    let ret = b.ret_local(Ty::I64);
    let _ = ret;
    let acc = b.local("acc", Ty::I64);
    let v = b.local("v", Ty::I32);
    let h = b.local("h", ptr);
    let off = b.local("off", ptr);
    b.havoc(&v);
    b.havoc(&off);
    let at = |o: ObjectId, k: u64| Expr::binary(BinOp::Add, Expr::ObjAddr(o), c(pw, k));
    b.check(
        &mut p,
        eq(Expr::load(Ty::I32, Expr::ObjAddr(a)), c(32, 0x0403_0201)),
        "little-endian initialiser",
    );
    b.check(
        &mut p,
        eq(Expr::load(ptr, Expr::ObjAddr(pa)), at(a, 4)),
        "address initialiser",
    );
    // Unaligned store straddling two words, read back whole and by bytes.
    b.op(Op::Store {
        ty: Ty::I32,
        addr: at(a, 5),
        value: v.clone(),
    });
    b.check(
        &mut p,
        eq(Expr::load(Ty::I32, at(a, 5)), v.clone()),
        "a stored value reads back",
    );
    b.check(
        &mut p,
        eq(
            Expr::load(Ty::I8, at(a, 6)),
            Expr::cast(CastOp::Trunc, Ty::I8, bin(BinOp::LShr, &v, &c(32, 8))),
        ),
        "byte 1 of a little-endian store",
    );
    b.op(Op::Store {
        ty: Ty::I64,
        addr: at(a, 8),
        value: Expr::cast(CastOp::Sext, Ty::I64, v.clone()),
    });
    b.op(Op::Store {
        ty: Ty::I16,
        addr: at(a, 14),
        value: c(16, 0xbeef),
    });
    mix(&mut b, &acc, Expr::load(Ty::I64, at(a, 8)), 64);
    mix(&mut b, &acc, Expr::load(Ty::I16, at(a, 13)), 16);
    b.check(
        &mut p,
        Expr::not(Expr::valid(1, Expr::ObjAddr(s))),
        "a string literal is not writable",
    );
    b.check(
        &mut p,
        Expr::valid(4, at(a, 12)),
        "the last word of @a is writable",
    );
    b.check(
        &mut p,
        Expr::not(Expr::valid(4, at(a, 13))),
        "a word past the end is not",
    );
    b.check(
        &mut p,
        Expr::not(Expr::valid(1, pc(3))),
        "null is not writable",
    );
    b.check(
        &mut p,
        eq(Expr::load(Ty::I8, at(s, 1)), c(8, b'e' as u64)),
        "string contents",
    );
    b.check(
        &mut p,
        eq(Expr::load(Ty::I8, Expr::ObjAddr(u)), c(8, 7)),
        "partial initialiser of a non-zeroed object",
    );
    // The heap.
    b.op(Op::Alloc {
        dst: FnB::var(&h),
        size: pc(12),
        kind: AllocKind::Heap,
    });
    b.check(
        &mut p,
        Expr::valid(12, h.clone()),
        "a fresh object is writable",
    );
    b.op(Op::MemSet {
        dst: h.clone(),
        byte: c(8, 0xab),
        len: pc(12),
    });
    b.check(
        &mut p,
        eq(
            Expr::load(Ty::I32, bin(BinOp::Add, &h, &pc(8))),
            c(32, 0xabab_abab),
        ),
        "memset",
    );
    // Overlapping copy: a[2..10] := a[0..8].
    b.set(&v, Expr::load(Ty::I32, Expr::ObjAddr(a)));
    b.op(Op::MemCopy {
        dst: at(a, 2),
        src: Expr::ObjAddr(a),
        len: pc(8),
    });
    b.check(
        &mut p,
        eq(Expr::load(Ty::I32, at(a, 2)), v.clone()),
        "memcpy has memmove semantics",
    );
    b.op(Op::MemCopy {
        dst: h.clone(),
        src: Expr::ObjAddr(a),
        len: pc(16),
    });
    mix(
        &mut b,
        &acc,
        Expr::load(Ty::I32, bin(BinOp::Add, &h, &pc(4))),
        32,
    );
    mix(
        &mut b,
        &acc,
        Expr::load(Ty::I16, bin(BinOp::Add, &h, &pc(10))),
        16,
    );
    b.op(Op::Free(h.clone()));
    b.check(
        &mut p,
        Expr::not(Expr::valid(1, h.clone())),
        "a freed object is not writable",
    );
    // Reads at an arbitrary offset of @a, inside or outside it.
    mix(
        &mut b,
        &acc,
        Expr::ite(
            Expr::valid(
                2,
                bin(
                    BinOp::Add,
                    &Expr::ObjAddr(a),
                    &bin(BinOp::And, &off, &pc(31)),
                ),
            ),
            c(8, 1),
            c(8, 0),
        ),
        8,
    );
    // Violable: fresh heap bytes are arbitrary, and so are a non-zeroed object's.
    b.op(Op::Alloc {
        dst: FnB::var(&h),
        size: pc(4),
        kind: AllocKind::Heap,
    });
    b.check(
        &mut p,
        Expr::binary(
            BinOp::Ne,
            Expr::load(Ty::I32, h.clone()),
            c(32, 0x1234_5678),
        ),
        "heap bytes are arbitrary (violable)",
    );
    b.check(
        &mut p,
        Expr::binary(BinOp::Ne, Expr::load(Ty::I8, at(u, 3)), c(8, 0x5a)),
        "non-zeroed bytes are arbitrary (violable)",
    );
    b.op(Op::HavocMemory);
    b.check(
        &mut p,
        eq(Expr::load(Ty::I8, at(s, 0)), c(8, b'h' as u64)),
        "contents after havoc_memory (violable)",
    );
    b.ret(acc);
    p.add_function(b.f);
    p.entry = FuncId(0);
    p
}

/// A few memory operations only: small enough for a bounded model checker through the C
/// runtime.
pub fn memory_small(dm: DataModel) -> Program {
    let mut p = new_program(dm);
    let ptr = p.pointer_ty();
    let pw = ptr.bits();
    let a = p.add_object(Object {
        name: "a".into(),
        size: 8,
        readonly: false,
        zeroed: true,
        init: vec![InitItem::Bytes {
            offset: 0,
            bytes: vec![1, 2, 3, 4],
        }],
        span: Span::UNKNOWN,
    });
    let mut b = FnB::new("main", FuncId(0));
    let v = b.local("v", Ty::I16);
    let h = b.local("h", ptr);
    b.havoc(&v);
    let at = |k: u64| Expr::binary(BinOp::Add, Expr::ObjAddr(a), c(pw, k));
    b.check(
        &mut p,
        eq(Expr::load(Ty::I16, at(1)), c(16, 0x0302)),
        "initialiser, little-endian",
    );
    b.op(Op::Store {
        ty: Ty::I16,
        addr: at(3),
        value: v.clone(),
    });
    b.check(
        &mut p,
        eq(
            Expr::load(Ty::I8, at(4)),
            Expr::cast(CastOp::Trunc, Ty::I8, bin(BinOp::LShr, &v, &c(16, 8))),
        ),
        "high byte of a store",
    );
    b.check(
        &mut p,
        Expr::not(Expr::valid(2, at(7))),
        "past the end is not writable",
    );
    b.op(Op::Alloc {
        dst: FnB::var(&h),
        size: c(pw, 2),
        kind: AllocKind::Heap,
    });
    b.check(
        &mut p,
        Expr::valid(2, h.clone()),
        "a fresh object is writable",
    );
    b.check(
        &mut p,
        Expr::binary(BinOp::Ne, Expr::load(Ty::I16, h.clone()), c(16, 0x4242)),
        "fresh bytes are arbitrary (violable)",
    );
    b.check(
        &mut p,
        Expr::binary(BinOp::Ne, Expr::load(Ty::I8, at(3)), c(8, 0x42)),
        "a stored byte can be anything (violable)",
    );
    b.ret_void();
    p.add_function(b.f);
    p.entry = FuncId(0);
    p
}

/// Nondeterministic branching (three overlapping edges, a non-complementary pair), calls,
/// recursion, globals, `halt`.
pub fn control(dm: DataModel) -> Program {
    let mut p = new_program(dm);
    let g = p.add_global(Global {
        name: "g".into(),
        ty: Ty::I32,
        unsigned: false,
        init: Some(c(32, 10)),
        span: Span::UNKNOWN,
    });
    let h = p.add_global(Global {
        name: "h".into(),
        ty: Ty::I16,
        unsigned: false,
        init: None,
        span: Span::UNKNOWN,
    });
    let (gv, hv) = (Expr::global(g), Expr::global(h));
    // fn sum(n) = n <= 0 ? 0 : n + sum(n - 1), and g += 1 per call.
    let mut s = FnB::new("sum", FuncId(1));
    let n = s.param("n", Ty::I32);
    let r = s.ret_local(Ty::I32);
    let tmp = s.local("t", Ty::I32);
    s.set(&gv, bin(BinOp::Add, &gv, &c(32, 1)));
    let base = s.f.new_loc();
    let rec = s.f.new_loc();
    let cur = s.cur;
    s.f.add_edge(
        cur,
        base,
        Op::Assume(bin(BinOp::Sle, &n, &c(32, 0))),
        Span::UNKNOWN,
    );
    s.f.add_edge(
        cur,
        rec,
        Op::Assume(bin(BinOp::Slt, &c(32, 0), &n)),
        Span::UNKNOWN,
    );
    s.f.add_edge(
        base,
        s.f.exit,
        Op::Assign(FnB::var(&r), c(32, 0)),
        Span::UNKNOWN,
    );
    s.cur = rec;
    s.op(Op::Call {
        dst: Some(FnB::var(&tmp)),
        callee: FuncId(1),
        args: vec![bin(BinOp::Sub, &n, &c(32, 1))],
    });
    s.ret(bin(BinOp::Add, &n, &tmp));

    let mut m = FnB::new("main", FuncId(0));
    let ret = m.ret_local(Ty::I32);
    let _ = ret;
    let x = m.local("x", Ty::I32);
    let k = m.local("k", Ty::I32);
    let total = m.local("total", Ty::I32);
    m.havoc(&x);
    m.set(&x, bin(BinOp::And, &x, &c(32, 7)));
    // Three edges, overlapping conditions, one unconditional.
    let (l1, l2, l3, join) = (m.f.new_loc(), m.f.new_loc(), m.f.new_loc(), m.f.new_loc());
    let cur = m.cur;
    m.f.add_edge(
        cur,
        l1,
        Op::Assume(bin(BinOp::Ult, &x, &c(32, 5))),
        Span::UNKNOWN,
    );
    m.f.add_edge(
        cur,
        l2,
        Op::Assume(bin(BinOp::Ult, &c(32, 2), &x)),
        Span::UNKNOWN,
    );
    m.f.add_edge(cur, l3, Op::Assign(FnB::var(&k), c(32, 30)), Span::UNKNOWN);
    m.f.add_edge(l1, join, Op::Assign(FnB::var(&k), c(32, 10)), Span::UNKNOWN);
    m.f.add_edge(l2, join, Op::Assign(FnB::var(&k), c(32, 20)), Span::UNKNOWN);
    m.f.add_edge(l3, join, Op::Skip, Span::UNKNOWN);
    m.cur = join;
    m.check(
        &mut p,
        Expr::binary(BinOp::Ne, k.clone(), c(32, 0)),
        "one of the edges was taken",
    );
    m.check(
        &mut p,
        Expr::binary(BinOp::Ne, k.clone(), c(32, 20)),
        "the middle edge is possible (violable)",
    );
    m.op(Op::Call {
        dst: Some(FnB::var(&total)),
        callee: FuncId(1),
        args: vec![x.clone()],
    });
    m.check(
        &mut p,
        eq(
            bin(BinOp::Mul, &total, &c(32, 2)),
            bin(BinOp::Mul, &x, &bin(BinOp::Add, &x, &c(32, 1))),
        ),
        "sum is n(n+1)/2",
    );
    m.check(
        &mut p,
        eq(gv.clone(), bin(BinOp::Add, &c(32, 11), &x)),
        "one call per level",
    );
    // A pair of assumptions that are not complementary: both can hold.
    let (b1, b2, j2) = (m.f.new_loc(), m.f.new_loc(), m.f.new_loc());
    let cur = m.cur;
    m.f.add_edge(
        cur,
        b1,
        Op::Assume(bin(BinOp::Ule, &x, &c(32, 4))),
        Span::UNKNOWN,
    );
    m.f.add_edge(
        cur,
        b2,
        Op::Assume(bin(BinOp::Ule, &c(32, 3), &x)),
        Span::UNKNOWN,
    );
    m.f.add_edge(b1, j2, Op::Assign(FnB::var(&k), c(32, 1)), Span::UNKNOWN);
    m.f.add_edge(b2, j2, Op::Assign(FnB::var(&k), c(32, 2)), Span::UNKNOWN);
    m.cur = j2;
    m.check(
        &mut p,
        Expr::binary(BinOp::Ne, bin(BinOp::Add, &k, &x), c(32, 6)),
        "k + x != 6 (violable: x = 4, k = 2)",
    );
    // halt with a code that depends on the global without initialiser, or abort.
    let (hc, ha) = (m.f.new_loc(), m.f.new_loc());
    let cur = m.cur;
    m.f.add_edge(
        cur,
        hc,
        Op::Assume(eq(bin(BinOp::And, &hv, &c(16, 3)), c(16, 1))),
        Span::UNKNOWN,
    );
    m.f.add_edge(
        hc,
        m.f.halt,
        Op::Halt(Some(bin(BinOp::Add, &hv, &c(16, 7)))),
        Span::UNKNOWN,
    );
    m.f.add_edge(
        cur,
        ha,
        Op::Assume(eq(bin(BinOp::And, &hv, &c(16, 3)), c(16, 2))),
        Span::UNKNOWN,
    );
    m.f.add_edge(ha, m.f.halt, Op::Halt(None), Span::UNKNOWN);
    let rest = m.f.new_loc();
    m.f.add_edge(
        cur,
        rest,
        Op::Assume(bin(BinOp::Ule, &c(16, 0), &bin(BinOp::And, &hv, &c(16, 0)))),
        Span::UNKNOWN,
    );
    m.cur = rest;
    m.ret(bin(BinOp::Add, &total, &gv));
    p.add_function(m.f);
    p.add_function(s.f);
    p.entry = FuncId(0);
    p
}

/// Loop with a region entry: `havoc_memory` and region havocs first (as an extracted region).
pub fn region_like(dm: DataModel) -> Program {
    let mut p = new_program(dm);
    let ptr = p.pointer_ty();
    let pw = ptr.bits();
    let arr = p.add_object(Object {
        name: "arr".into(),
        size: 40,
        readonly: false,
        zeroed: true,
        init: vec![],
        span: Span::UNKNOWN,
    });
    let mut b = FnB::new("region.main.L5", FuncId(0));
    let i = b.local("i", Ty::I32);
    let q = b.local("q", ptr);
    b.op(Op::HavocMemory);
    b.op(Op::Havoc(FnB::var(&i), HavocKind::Region));
    b.op(Op::Havoc(FnB::var(&q), HavocKind::Region));
    // while (i < 10) { arr[i] = i; assert(arr[i] == i); i++; }  plus a store through q
    let head = b.cur;
    let body = b.f.new_loc();
    b.f.add_edge(
        head,
        body,
        Op::Assume(bin(BinOp::Slt, &i, &c(32, 10))),
        Span::UNKNOWN,
    );
    b.f.add_edge(
        head,
        b.f.exit,
        Op::Assume(bin(BinOp::Sle, &c(32, 10), &i)),
        Span::UNKNOWN,
    );
    b.cur = body;
    let idx = |i: &Expr| {
        let wide = if pw == 32 {
            i.clone()
        } else {
            Expr::cast(CastOp::Sext, ptr, i.clone())
        };
        bin(
            BinOp::Add,
            &Expr::ObjAddr(arr),
            &bin(BinOp::Mul, &wide, &c(pw, 4)),
        )
    };
    let safe = b.f.new_loc();
    let cur = b.cur;
    b.f.add_edge(
        cur,
        safe,
        Op::Assume(Expr::valid(4, idx(&i))),
        Span::UNKNOWN,
    );
    b.f.add_edge(
        cur,
        b.f.exit,
        Op::Assume(Expr::not(Expr::valid(4, idx(&i)))),
        Span::UNKNOWN,
    );
    b.cur = safe;
    b.op(Op::Store {
        ty: Ty::I32,
        addr: idx(&i),
        value: i.clone(),
    });
    b.check(
        &mut p,
        eq(Expr::load(Ty::I32, idx(&i)), i.clone()),
        "arr[i] == i after the store",
    );
    let wq = b.f.new_loc();
    let cur = b.cur;
    b.f.add_edge(
        cur,
        wq,
        Op::Assume(Expr::valid(1, q.clone())),
        Span::UNKNOWN,
    );
    b.f.add_edge(
        cur,
        wq,
        Op::Assume(Expr::not(Expr::valid(1, q.clone()))),
        Span::UNKNOWN,
    );
    b.cur = wq;
    b.check(
        &mut p,
        Expr::binary(BinOp::Ne, Expr::load(Ty::I8, q.clone()), c(8, 0x42)),
        "memory behind a region pointer is arbitrary (violable)",
    );
    b.f.add_edge(
        b.cur,
        head,
        Op::Assign(FnB::var(&i), bin(BinOp::Add, &i, &c(32, 1))),
        Span::UNKNOWN,
    );
    p.add_function(b.f);
    p.entry = FuncId(0);
    p
}

/// All built programs, named, in both data models (operators at every width).
pub fn all() -> Vec<(String, Program)> {
    let mut out = Vec::new();
    for dm in [DataModel::Ilp32, DataModel::Lp64] {
        for w in [8, 16, 32, 64] {
            out.push((format!("operators-i{w}-{}", dm.name()), operators(w, dm)));
        }
        out.push((format!("memory-{}", dm.name()), memory(dm)));
        out.push((format!("memory-small-{}", dm.name()), memory_small(dm)));
        out.push((format!("control-{}", dm.name()), control(dm)));
        out.push((format!("region-{}", dm.name()), region_like(dm)));
    }
    for (name, p) in &out {
        if let Err(e) = verify_program(p) {
            panic!("{name} is ill-formed: {e:?}");
        }
    }
    out
}
