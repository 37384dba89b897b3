//! `--function NAME`: verification from another entry point than `main`, as CBMC's
//! `--function` does. The function is lowered as any other (so calls of it elsewhere stay
//! ordinary calls); the program's entry is a wrapper that makes its arguments and calls it:
//! - a scalar parameter is an input (the trace names it, a witness records it);
//! - a pointer parameter points to a fresh object of its pointed-to type (one element) whose
//!   bytes are arbitrary — never null, never into another object, so a function that accepts
//!   null or an array of several elements is verified for less than its callers may do (said
//!   in `--help`);
//! - a struct parameter is a copy with arbitrary bytes.
//!
//! A `void *` or function-pointer parameter has no pointed-to type to make: `unsupported:`.

use super::{Ctx, R};
use qicc_ir::debug::DebugType;
use qicc_ir::{AllocKind, Expr, FuncId, Function, HavocKind, Op, VarRef};

impl Ctx<'_> {
    /// The wrapper that calls the lowered function `f` (C name `name`, declared at `at`) with
    /// arguments made as the module documentation says; returns the wrapper's id.
    pub fn entry_wrapper(&mut self, f: FuncId, name: &str, at: usize) -> R<FuncId> {
        let span = self.span(at);
        let callee = self.program.function(f).clone();
        let ptr = self.ptr_ty();
        let mut w = Function::new(format!("__qicc_entry.{name}"), span);
        let mut at_loc = w.entry;
        let mut args = Vec::new();
        for p in &callee.params {
            let local = callee.local(*p).clone();
            let dt = &self.program.debug_types;
            // The object a pointer (or a struct copy's address) points to, and its size.
            let object = match local.debug_type.and_then(|t| dt.get(t).map(|d| (t, d))) {
                Some((_, DebugType::Pointer { to: Some(to), .. })) => {
                    Some((Some(*to), dt.size(*to)))
                }
                Some((_, DebugType::Pointer { to: None, .. })) => Some((None, None)),
                Some((t, DebugType::Record { .. })) => Some((Some(t), dt.size(t))),
                _ => None,
            };
            let l = w.add_local(local.name.clone(), local.ty);
            w.locals[l.index()].unsigned = local.unsigned;
            w.locals[l.index()].debug_type = local.debug_type;
            let next = w.new_loc();
            match object {
                None => {
                    w.add_edge(
                        at_loc,
                        next,
                        Op::Havoc(VarRef::Local(l), HavocKind::Platform(name.to_string())),
                        span,
                    );
                    at_loc = next;
                }
                Some((to, Some(size))) if size > 0 => {
                    // The object gets the pointed-to type, so its trace shows fields.
                    // Traces show `pointee.b` as `(*b)`.
                    let obj = w.add_local(format!("pointee.{}", local.name), ptr);
                    w.locals[obj.index()].debug_type = to;
                    w.add_edge(
                        at_loc,
                        next,
                        Op::Alloc {
                            dst: VarRef::Local(obj),
                            size: Expr::konst(ptr, size),
                            kind: AllocKind::Stack,
                        },
                        span,
                    );
                    let filled = w.new_loc();
                    w.add_edge(
                        next,
                        filled,
                        Op::HavocBytes {
                            dst: Expr::local(obj),
                            len: Expr::konst(ptr, size),
                        },
                        span,
                    );
                    let set = w.new_loc();
                    w.add_edge(
                        filled,
                        set,
                        Op::Assign(VarRef::Local(l), Expr::local(obj)),
                        span,
                    );
                    at_loc = set;
                }
                Some(_) => {
                    return Err(self.unsupported(
                        at,
                        format!(
                            "--function {name}: parameter '{}' points to no complete type \
                             (void *, a function, an incomplete struct): nothing to make it \
                             point to",
                            local.name
                        ),
                    ))
                }
            }
            args.push(Expr::local(l));
        }
        let exit = w.exit;
        w.add_edge(
            at_loc,
            exit,
            Op::Call {
                dst: None,
                callee: f,
                args,
            },
            span,
        );
        Ok(self.program.add_function(w))
    }
}
