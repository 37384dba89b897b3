//! Sorts, term identifiers and the node kinds of the term DAG.
//!
//! A term is a node whose children are other terms, identified by [`TermId`]s handed out by
//! one [`crate::TermStore`]; ids of different stores must never be mixed. The meaning of every
//! node is SMT-LIB's (`QF_ABV` plus lambdas), which for bit-vector operators is exactly
//! `qicc_ir::semantics`. The float nodes ([`Node::Fp1`], [`Node::Fp2`], [`Node::Fp3`]) take
//! and give the IR's representations (IEEE bits as bit-vectors, `Bool` for predicates,
//! bit-vectors for ints) and mean `qicc_ir::semantics::float::eval_fp` on them.

use qicc_ir::FpOp;

use std::fmt;

/// The sort of a term. Bit-vectors are 1 to 64 bits wide (the IR's widths); arrays map
/// bit-vectors to bit-vectors (memory: pointer-width addresses to bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sort {
    Bool,
    BitVec(u16),
    Array { index: u16, elem: u16 },
}

impl Sort {
    /// The width of a bit-vector sort.
    pub fn bv_width(self) -> Option<u16> {
        match self {
            Sort::BitVec(w) => Some(w),
            _ => None,
        }
    }

    pub fn is_bool(self) -> bool {
        matches!(self, Sort::Bool)
    }

    pub fn is_array(self) -> bool {
        matches!(self, Sort::Array { .. })
    }
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Bool => write!(f, "Bool"),
            Sort::BitVec(w) => write!(f, "(_ BitVec {w})"),
            Sort::Array { index, elem } => {
                write!(f, "(Array (_ BitVec {index}) (_ BitVec {elem}))")
            }
        }
    }
}

/// A term of one [`crate::TermStore`]. Equal ids mean structurally equal terms (hash-consing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TermId(pub(crate) u32);

impl TermId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for TermId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t{}", self.0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BvUnOp {
    /// Two's complement negation.
    Neg,
    /// Bitwise complement.
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BvBinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
}

impl BvBinOp {
    pub const ALL: [BvBinOp; 13] = [
        BvBinOp::Add,
        BvBinOp::Sub,
        BvBinOp::Mul,
        BvBinOp::UDiv,
        BvBinOp::SDiv,
        BvBinOp::URem,
        BvBinOp::SRem,
        BvBinOp::Shl,
        BvBinOp::LShr,
        BvBinOp::AShr,
        BvBinOp::And,
        BvBinOp::Or,
        BvBinOp::Xor,
    ];

    pub fn is_commutative(self) -> bool {
        matches!(
            self,
            BvBinOp::Add | BvBinOp::Mul | BvBinOp::And | BvBinOp::Or | BvBinOp::Xor
        )
    }

    /// The SMT-LIB name.
    pub fn smt_name(self) -> &'static str {
        match self {
            BvBinOp::Add => "bvadd",
            BvBinOp::Sub => "bvsub",
            BvBinOp::Mul => "bvmul",
            BvBinOp::UDiv => "bvudiv",
            BvBinOp::SDiv => "bvsdiv",
            BvBinOp::URem => "bvurem",
            BvBinOp::SRem => "bvsrem",
            BvBinOp::Shl => "bvshl",
            BvBinOp::LShr => "bvlshr",
            BvBinOp::AShr => "bvashr",
            BvBinOp::And => "bvand",
            BvBinOp::Or => "bvor",
            BvBinOp::Xor => "bvxor",
        }
    }
}

/// Bit-vector comparisons (`eq` is [`Node::Eq`], for every sort).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BvCmpOp {
    Ult,
    Ule,
    Slt,
    Sle,
}

impl BvCmpOp {
    pub const ALL: [BvCmpOp; 4] = [BvCmpOp::Ult, BvCmpOp::Ule, BvCmpOp::Slt, BvCmpOp::Sle];

    pub fn smt_name(self) -> &'static str {
        match self {
            BvCmpOp::Ult => "bvult",
            BvCmpOp::Ule => "bvule",
            BvCmpOp::Slt => "bvslt",
            BvCmpOp::Sle => "bvsle",
        }
    }
}

/// One node of the DAG. Children are [`TermId`]s of the same store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    BoolConst(bool),
    /// `value` holds exactly the low `width` bits.
    BvConst {
        width: u16,
        value: u64,
    },
    /// A free constant; its name is unique in the store (`TermStore::symbol_name`).
    Symbol {
        name: u32,
        sort: Sort,
    },
    /// A variable bound by a [`Node::Lambda`]; `index` is unique in the store.
    Bound {
        index: u32,
        sort: Sort,
    },
    Not(TermId),
    And(TermId, TermId),
    Or(TermId, TermId),
    /// Boolean exclusive or.
    Xor(TermId, TermId),
    /// Equality of two terms of the same sort (arrays: extensional).
    Eq(TermId, TermId),
    Ite(TermId, TermId, TermId),
    BvUn(BvUnOp, TermId),
    BvBin(BvBinOp, TermId, TermId),
    BvCmp(BvCmpOp, TermId, TermId),
    /// Bits `hi..=lo` of the argument.
    Extract {
        hi: u16,
        lo: u16,
        arg: TermId,
    },
    /// `Concat(hi, lo)`: `hi`'s bits above `lo`'s.
    Concat(TermId, TermId),
    ZeroExt {
        by: u16,
        arg: TermId,
    },
    SignExt {
        by: u16,
        arg: TermId,
    },
    Select(TermId, TermId),
    Store(TermId, TermId, TermId),
    /// The array mapping every index of width `index` to `value`.
    ConstArray {
        index: u16,
        value: TermId,
    },
    /// The array mapping each index `var` (a [`Node::Bound`]) to `body`.
    Lambda {
        var: TermId,
        body: TermId,
    },
    /// A float operation of one, two or three operands (by [`FpOp::arity`]), on the IR's
    /// representations: its value is `qicc_ir::semantics::float::eval_fp` of the operands'
    /// values. Only the operations that are not bit operations are nodes: `fneg`, `fabs`,
    /// the classification predicates and the bit casts are built from bit-vector operators
    /// (`TermStore::fp`), and `fne` is the negation of `feq`.
    Fp1(FpOp, TermId),
    Fp2(FpOp, TermId, TermId),
    Fp3(FpOp, TermId, TermId, TermId),
}

impl Node {
    /// Calls `f` on each child, in order.
    pub fn for_each_child(&self, mut f: impl FnMut(TermId)) {
        match *self {
            Node::BoolConst(_)
            | Node::BvConst { .. }
            | Node::Symbol { .. }
            | Node::Bound { .. } => {}
            Node::Not(a)
            | Node::BvUn(_, a)
            | Node::Extract { arg: a, .. }
            | Node::ZeroExt { arg: a, .. }
            | Node::SignExt { arg: a, .. }
            | Node::ConstArray { value: a, .. }
            | Node::Fp1(_, a) => f(a),
            Node::And(a, b)
            | Node::Or(a, b)
            | Node::Xor(a, b)
            | Node::Eq(a, b)
            | Node::BvBin(_, a, b)
            | Node::BvCmp(_, a, b)
            | Node::Concat(a, b)
            | Node::Select(a, b)
            | Node::Fp2(_, a, b) => {
                f(a);
                f(b)
            }
            Node::Lambda { var, body } => {
                f(var);
                f(body)
            }
            Node::Ite(a, b, c) | Node::Store(a, b, c) | Node::Fp3(_, a, b, c) => {
                f(a);
                f(b);
                f(c)
            }
        }
    }

    /// The same node with every child replaced by `f(child)`.
    pub fn map_children(&self, mut f: impl FnMut(TermId) -> TermId) -> Node {
        match *self {
            Node::BoolConst(_)
            | Node::BvConst { .. }
            | Node::Symbol { .. }
            | Node::Bound { .. } => *self,
            Node::Not(a) => Node::Not(f(a)),
            Node::BvUn(op, a) => Node::BvUn(op, f(a)),
            Node::Extract { hi, lo, arg } => Node::Extract {
                hi,
                lo,
                arg: f(arg),
            },
            Node::ZeroExt { by, arg } => Node::ZeroExt { by, arg: f(arg) },
            Node::SignExt { by, arg } => Node::SignExt { by, arg: f(arg) },
            Node::ConstArray { index, value } => Node::ConstArray {
                index,
                value: f(value),
            },
            Node::And(a, b) => Node::And(f(a), f(b)),
            Node::Or(a, b) => Node::Or(f(a), f(b)),
            Node::Xor(a, b) => Node::Xor(f(a), f(b)),
            Node::Eq(a, b) => Node::Eq(f(a), f(b)),
            Node::BvBin(op, a, b) => Node::BvBin(op, f(a), f(b)),
            Node::BvCmp(op, a, b) => Node::BvCmp(op, f(a), f(b)),
            Node::Concat(a, b) => Node::Concat(f(a), f(b)),
            Node::Select(a, b) => Node::Select(f(a), f(b)),
            Node::Lambda { var, body } => Node::Lambda {
                var: f(var),
                body: f(body),
            },
            Node::Ite(a, b, c) => Node::Ite(f(a), f(b), f(c)),
            Node::Store(a, b, c) => Node::Store(f(a), f(b), f(c)),
            Node::Fp1(op, a) => Node::Fp1(op, f(a)),
            Node::Fp2(op, a, b) => Node::Fp2(op, f(a), f(b)),
            Node::Fp3(op, a, b, c) => Node::Fp3(op, f(a), f(b), f(c)),
        }
    }
}
