//! Name resolution: C's nested scopes for ordinary identifiers (variables, functions,
//! typedef names, enumeration constants) and, separately, for struct/union/enum tags.
//!
//! Invariant: there is always at least the file scope; lookups search innermost first. Each
//! translation unit has its own file scope (see `Ctx::in_unit`).

use crate::types::{CType, RecordId};
use std::collections::HashMap;

/// A variable: a file-scope or static one (index into the lowering's global table) or a local
/// of the function being lowered (index into its local table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarId {
    Global(usize),
    Local(usize),
}

#[derive(Clone, Debug)]
pub enum Sym {
    Var(VarId),
    /// Index into the lowering's function table.
    Func(usize),
    /// A typedef name; its type, or why it cannot be used (reported only if it is used), and
    /// the enumerated type it names, if it names one (display only).
    Typedef(Result<CType, crate::diag::Diagnostic>, Option<u32>),
    EnumConst(i64, CType),
}

#[derive(Clone, Debug)]
pub enum Tag {
    Record(RecordId),
    /// An enum: its underlying integer type and its enumerators for display (index into
    /// `program.debug_types.enums`).
    Enum(CType, u32),
}

pub struct Scopes {
    ord: Vec<HashMap<String, Sym>>,
    tags: Vec<HashMap<String, Tag>>,
}

impl Default for Scopes {
    fn default() -> Self {
        Scopes {
            ord: vec![HashMap::new()],
            tags: vec![HashMap::new()],
        }
    }
}

impl Scopes {
    pub fn push(&mut self) {
        self.ord.push(HashMap::new());
        self.tags.push(HashMap::new());
    }

    pub fn pop(&mut self) {
        // The file scope is never popped.
        if self.ord.len() > 1 {
            self.ord.pop();
            self.tags.pop();
        }
    }

    /// Exchanges the file scopes of `self` and `other` (the inner scopes stay): how the
    /// lowering moves between translation units.
    pub fn swap_file(&mut self, other: &mut Scopes) {
        std::mem::swap(&mut self.ord[0], &mut other.ord[0]);
        std::mem::swap(&mut self.tags[0], &mut other.tags[0]);
    }

    /// Replaces, in the file scope, each function index `i` by `to(i)` (the linker's choice
    /// of the declaration that stands for every unit's).
    pub fn relink_functions(&mut self, to: impl Fn(usize) -> usize) {
        for sym in self.ord[0].values_mut() {
            if let Sym::Func(i) = sym {
                *i = to(*i);
            }
        }
    }

    pub fn at_file_scope(&self) -> bool {
        self.ord.len() == 1
    }

    pub fn lookup(&self, name: &str) -> Option<&Sym> {
        self.ord.iter().rev().find_map(|s| s.get(name))
    }

    pub fn lookup_file(&self, name: &str) -> Option<&Sym> {
        self.ord.first().and_then(|s| s.get(name))
    }

    pub fn define(&mut self, name: &str, sym: Sym) {
        if let Some(s) = self.ord.last_mut() {
            s.insert(name.to_string(), sym);
        }
    }

    pub fn lookup_tag(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().rev().find_map(|s| s.get(name))
    }

    pub fn lookup_tag_here(&self, name: &str) -> Option<&Tag> {
        self.tags.last().and_then(|s| s.get(name))
    }

    pub fn define_tag(&mut self, name: &str, tag: Tag) {
        if let Some(s) = self.tags.last_mut() {
            s.insert(name.to_string(), tag);
        }
    }
}
