//! The program's initial state that does not depend on the oracle: the contents of static
//! objects (initialiser items and zero fill) and the initial values of globals with an
//! initialiser. Computed once per [`crate::Interpreter`] and shared by all its runs.
//!
//! Initialisers are constant expressions (constants, object addresses, and sums and casts of
//! them — checked by `verify_program`); they are evaluated with `qicc_ir::semantics` like
//! every other expression.

use qicc_ir::semantics::{eval_binop, eval_cast, eval_unop};
use qicc_ir::{Expr, InitItem, ObjectId, Program, Ty};
use std::collections::BTreeMap;

/// The contents a static object starts with.
struct StaticObject {
    size: u64,
    zeroed: bool,
    /// Bytes set by initialiser items, sorted by offset (a later item wins on overlap).
    bytes: Vec<(u64, u8)>,
}

pub(crate) struct StaticImage {
    /// `objects[i]` is object number `i + 1`.
    objects: Vec<StaticObject>,
}

impl StaticImage {
    pub(crate) fn new(program: &Program) -> Result<StaticImage, String> {
        let mut objects = Vec::with_capacity(program.objects.len());
        for o in &program.objects {
            let mut bytes = BTreeMap::new();
            for item in &o.init {
                match item {
                    InitItem::Bytes { offset, bytes: b } => {
                        for (i, byte) in b.iter().enumerate() {
                            bytes.insert(item_offset(o, *offset, i as u64)?, *byte);
                        }
                    }
                    InitItem::Value { offset, value } => {
                        let (v, ty) = const_eval(program, value).ok_or_else(|| {
                            format!("object @{}: initialiser is not constant", o.name)
                        })?;
                        let n = (ty.bits() as u64).div_ceil(8);
                        for i in 0..n {
                            bytes.insert(item_offset(o, *offset, i)?, (v >> (8 * i)) as u8);
                        }
                    }
                }
            }
            objects.push(StaticObject {
                size: o.size,
                zeroed: o.zeroed,
                bytes: bytes.into_iter().collect(),
            });
        }
        Ok(StaticImage { objects })
    }

    /// The byte the program gives offset `off` of object `obj` at the start, or `None` if the
    /// byte starts arbitrary (not a static object, out of its bounds, or not initialised in a
    /// non-zeroed object).
    pub(crate) fn initial_byte(&self, obj: u32, off: u64) -> Option<u8> {
        let o = self.objects.get((obj as usize).checked_sub(1)?)?;
        if off >= o.size {
            return None;
        }
        match o.bytes.binary_search_by_key(&off, |(k, _)| *k) {
            Ok(i) => Some(o.bytes[i].1),
            Err(_) => o.zeroed.then_some(0),
        }
    }
}

/// Offset `i` of an initialiser item at `offset`, which must lie inside the object.
fn item_offset(o: &qicc_ir::Object, offset: u64, i: u64) -> Result<u64, String> {
    offset
        .checked_add(i)
        .filter(|off| *off < o.size)
        .ok_or_else(|| format!("object @{}: initialiser runs past its size", o.name))
}

/// The initial value of every global that has an initialiser.
pub(crate) fn global_inits(program: &Program) -> Result<Vec<Option<u64>>, String> {
    program
        .globals
        .iter()
        .map(|g| match &g.init {
            None => Ok(None),
            Some(e) => const_eval(program, e)
                .map(|(v, _)| Some(v))
                .ok_or_else(|| format!("global ${}: initialiser is not constant", g.name)),
        })
        .collect()
}

/// Value and type of a constant expression; `None` if it reads variables or memory.
pub(crate) fn const_eval(program: &Program, e: &Expr) -> Option<(u64, Ty)> {
    Some(match e {
        Expr::Const { ty, value } => (*value & ty.mask(), *ty),
        Expr::ObjAddr(ObjectId(o)) => (program.layout.base_address(*o), program.pointer_ty()),
        Expr::Unary(op, a) => {
            let (a, ty) = const_eval(program, a)?;
            (eval_unop(*op, ty, a), ty)
        }
        Expr::Binary(op, a, b) => {
            let (a, ty) = const_eval(program, a)?;
            let (b, _) = const_eval(program, b)?;
            let rty = if op.is_comparison() { Ty::Bool } else { ty };
            (eval_binop(*op, ty, a, b), rty)
        }
        Expr::Cast(op, to, a) => {
            let (a, from) = const_eval(program, a)?;
            (eval_cast(*op, from, *to, a), *to)
        }
        Expr::Ite(c, a, b) => {
            let (c, _) = const_eval(program, c)?;
            if c != 0 {
                const_eval(program, a)?
            } else {
                const_eval(program, b)?
            }
        }
        Expr::Fp(op, args) => {
            let mut vals = Vec::with_capacity(args.len());
            let mut ty = Ty::Bool;
            for (i, a) in args.iter().enumerate() {
                let (v, t) = const_eval(program, a)?;
                if i == 0 {
                    ty = t;
                }
                vals.push(v);
            }
            (
                qicc_ir::semantics::float::eval_fp(*op, ty, &vals),
                op.result_ty(ty),
            )
        }
        Expr::Var(_) | Expr::Load(..) | Expr::Valid(..) => return None,
    })
}
