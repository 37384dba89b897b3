//! The reference meaning of terms: evaluation under an assignment of the free symbols.
//!
//! Independent of the simplifier (it evaluates whatever node it finds, by the SMT-LIB
//! definitions, with `qicc_ir::semantics` for bit-vector operators and
//! `qicc_ir::semantics::float` for float nodes), so the property tests
//! can check every simplification against it and against the solver. Not meant to be fast.

use crate::build_bv::{eval_bv_bin, eval_bv_cmp, eval_bv_un};
use crate::store::TermStore;
use crate::term::{Node, Sort, TermId};
use qicc_ir::semantics::to_signed;
use qicc_ir::types::mask;
use std::collections::HashMap;
use std::rc::Rc;

/// A concrete value of some sort.
#[derive(Clone, Debug)]
pub enum Value {
    Bool(bool),
    Bv { width: u16, value: u64 },
    Array(Rc<ArrayValue>),
}

/// A concrete array: a total function from indices to bit-vectors.
#[derive(Debug)]
pub enum ArrayValue {
    /// Listed elements, `default` everywhere else.
    Table {
        elems: HashMap<u64, u64>,
        default: u64,
    },
    Store {
        below: Rc<ArrayValue>,
        index: u64,
        value: u64,
    },
    Lambda {
        var: u32,
        body: TermId,
        env: Rc<HashMap<u32, u64>>,
    },
}

impl Value {
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_bv(&self) -> Option<u64> {
        match self {
            Value::Bv { value, .. } => Some(*value),
            _ => None,
        }
    }
}

/// Values of free symbols. Symbols it does not know evaluate to 0 (an all-zero array).
pub trait Assignment {
    fn value(&self, store: &TermStore, symbol: TermId) -> Option<Value>;
}

impl Assignment for HashMap<TermId, Value> {
    fn value(&self, _store: &TermStore, symbol: TermId) -> Option<Value> {
        self.get(&symbol).cloned()
    }
}

/// The value of `t` under `env`.
pub fn eval(store: &TermStore, t: TermId, env: &dyn Assignment) -> Value {
    Evaluator {
        store,
        env,
        bound: Rc::new(HashMap::new()),
    }
    .eval(t)
}

struct Evaluator<'a> {
    store: &'a TermStore,
    env: &'a dyn Assignment,
    bound: Rc<HashMap<u32, u64>>,
}

fn bv(width: u16, value: u64) -> Value {
    Value::Bv {
        width,
        value: value & mask(width),
    }
}

impl Evaluator<'_> {
    fn b(&self, t: TermId) -> bool {
        self.eval(t).as_bool().expect("well-sorted: Bool")
    }

    fn v(&self, t: TermId) -> u64 {
        self.eval(t).as_bv().expect("well-sorted: bit-vector")
    }

    fn arr(&self, t: TermId) -> Rc<ArrayValue> {
        match self.eval(t) {
            Value::Array(a) => a,
            _ => panic!("well-sorted: array"),
        }
    }

    /// Extensional equality: every index for up to 16 index bits; beyond, the indices the
    /// two values list and one index neither lists (exact for tables and stores, whose
    /// unlisted elements are all the default; lambdas are only sampled there).
    fn arrays_equal(&self, a: TermId, b: TermId, index: u16) -> bool {
        let (x, y) = (self.arr(a), self.arr(b));
        if index <= 16 {
            return (0..1u64 << index).all(|i| self.select(&x, i) == self.select(&y, i));
        }
        let mut points = Vec::new();
        listed(&x, &mut points);
        listed(&y, &mut points);
        let unlisted = (0..=points.len() as u64)
            .find(|i| !points.contains(i))
            .unwrap_or(0);
        points.push(unlisted);
        points
            .iter()
            .all(|&i| self.select(&x, i) == self.select(&y, i))
    }

    fn select(&self, a: &ArrayValue, i: u64) -> u64 {
        match a {
            ArrayValue::Table { elems, default } => elems.get(&i).copied().unwrap_or(*default),
            ArrayValue::Store {
                below,
                index,
                value,
            } => {
                if *index == i {
                    *value
                } else {
                    self.select(below, i)
                }
            }
            ArrayValue::Lambda { var, body, env } => {
                let mut inner = (**env).clone();
                inner.insert(*var, i);
                Evaluator {
                    store: self.store,
                    env: self.env,
                    bound: Rc::new(inner),
                }
                .v(*body)
            }
        }
    }

    fn eval(&self, t: TermId) -> Value {
        let s = self.store;
        match *s.node(t) {
            Node::BoolConst(b) => Value::Bool(b),
            Node::BvConst { width, value } => bv(width, value),
            Node::Symbol { sort, .. } => self.env.value(s, t).unwrap_or(match sort {
                Sort::Bool => Value::Bool(false),
                Sort::BitVec(w) => bv(w, 0),
                Sort::Array { .. } => Value::Array(Rc::new(ArrayValue::Table {
                    elems: HashMap::new(),
                    default: 0,
                })),
            }),
            Node::Bound { index, sort } => {
                let w = sort.bv_width().expect("bound variables are bit-vectors");
                bv(w, self.bound.get(&index).copied().unwrap_or(0))
            }
            Node::Not(a) => Value::Bool(!self.b(a)),
            Node::And(a, b) => Value::Bool(self.b(a) && self.b(b)),
            Node::Or(a, b) => Value::Bool(self.b(a) || self.b(b)),
            Node::Xor(a, b) => Value::Bool(self.b(a) != self.b(b)),
            Node::Eq(a, b) => Value::Bool(match s.sort(a) {
                Sort::Bool => self.b(a) == self.b(b),
                Sort::Array { index, .. } => self.arrays_equal(a, b, index),
                _ => self.v(a) == self.v(b),
            }),
            Node::Ite(c, a, b) => {
                if self.b(c) {
                    self.eval(a)
                } else {
                    self.eval(b)
                }
            }
            Node::BvUn(op, a) => {
                let w = s.width(a);
                bv(w, eval_bv_un(op, w, self.v(a)))
            }
            Node::BvBin(op, a, b) => {
                let w = s.width(a);
                bv(w, eval_bv_bin(op, w, self.v(a), self.v(b)))
            }
            Node::BvCmp(op, a, b) => {
                let w = s.width(a);
                Value::Bool(eval_bv_cmp(op, w, self.v(a), self.v(b)))
            }
            Node::Extract { hi, lo, arg } => bv(hi - lo + 1, self.v(arg) >> lo),
            Node::Concat(h, l) => {
                let wl = s.width(l);
                bv(s.width(h) + wl, (self.v(h) << wl) | self.v(l))
            }
            Node::ZeroExt { by, arg } => bv(s.width(arg) + by, self.v(arg)),
            Node::SignExt { by, arg } => {
                let w = s.width(arg);
                bv(w + by, to_signed(self.v(arg), w) as u64)
            }
            Node::Select(a, i) => {
                let arr = self.arr(a);
                bv(s.width(t), self.select(&arr, self.v(i)))
            }
            Node::Store(a, i, v) => Value::Array(Rc::new(ArrayValue::Store {
                below: self.arr(a),
                index: self.v(i),
                value: self.v(v),
            })),
            Node::ConstArray { value, .. } => Value::Array(Rc::new(ArrayValue::Table {
                elems: HashMap::new(),
                default: self.v(value),
            })),
            Node::Lambda { var, body } => {
                let Node::Bound { index, .. } = *s.node(var) else {
                    panic!("well-formed: lambda binds a bound variable");
                };
                Value::Array(Rc::new(ArrayValue::Lambda {
                    var: index,
                    body,
                    env: self.bound.clone(),
                }))
            }
            Node::Fp1(op, a) => self.fp(t, op, &[a]),
            Node::Fp2(op, a, b) => self.fp(t, op, &[a, b]),
            Node::Fp3(op, a, b, c) => self.fp(t, op, &[a, b, c]),
        }
    }
}

impl Evaluator<'_> {
    /// A float node: `qicc_ir::semantics::float::eval_fp` on the operands' values.
    fn fp(&self, t: TermId, op: qicc_ir::FpOp, args: &[TermId]) -> Value {
        let s = self.store;
        let vals: Vec<u64> = args.iter().map(|&a| self.v(a)).collect();
        let ty = crate::build_fp::operand_ty(op, s.width(args[0]));
        let v = qicc_ir::semantics::float::eval_fp(op, ty, &vals);
        match s.sort(t) {
            Sort::Bool => Value::Bool(v != 0),
            Sort::BitVec(w) => bv(w, v),
            Sort::Array { .. } => panic!("well-sorted: no float operation gives an array"),
        }
    }
}

/// The indices an array value lists explicitly.
fn listed(a: &ArrayValue, out: &mut Vec<u64>) {
    match a {
        ArrayValue::Table { elems, .. } => out.extend(elems.keys().copied()),
        ArrayValue::Store { below, index, .. } => {
            out.push(*index);
            listed(below, out);
        }
        ArrayValue::Lambda { .. } => {}
    }
}
