//! Linking translation units, as a C linker does, once every unit's file scope is recorded.
//!
//! Each unit declares its own functions and variables ([`super::FuncInfo`],
//! [`super::GlobalVar`]: one entry per unit and name, with that unit's view of the type).
//! Linking chooses, per name with external linkage, the entry that stands for all of them:
//! - a function: its definition (an `inline` one only when no unit has an external
//!   definition); two external definitions are an error. Every unit's file scope then names
//!   the chosen entry, so calls see the definition's type, as in a single unit. A function
//!   no unit defines stays body-less (the lowering's rule for those).
//! - a variable: the definition with an initialiser, else a tentative definition (`int x;`,
//!   merged as `-fcommon` merges them), else the first declaration; two initialisers are an
//!   error. The other entries keep their unit's type and share the chosen entry's storage
//!   (`link`, followed by `Ctx::materialize_global`).
//!
//! `static` functions and variables are the unit's own: one whose name another unit also
//! uses gets an IR name with its unit's file name added (`count.lib`), so IR names stay
//! unique and traces say which one ran.
//!
//! Invariant: after [`Ctx::link`], an entry with `link` set is never lowered or given storage
//! itself, and no file scope names it as a function.

use super::{Ctx, R};
use crate::diag::DiagKind;
use std::collections::{HashMap, HashSet};

impl<'a> Ctx<'a> {
    /// Links the units' declarations (see the module docs).
    pub fn link(&mut self) -> R<()> {
        self.link_functions()?;
        self.link_globals()?;
        self.name_internal_symbols();
        Ok(())
    }

    fn link_functions(&mut self) -> R<()> {
        let groups = by_name(
            self.funcs
                .iter()
                .enumerate()
                .filter(|(_, f)| !f.internal)
                .map(|(i, f)| (i, f.name.as_str())),
        );
        self.func_by_name.clear();
        for (name, idxs) in groups {
            let defs: Vec<usize> = idxs
                .iter()
                .copied()
                .filter(|&i| self.funcs[i].def.is_some())
                .collect();
            let strong: Vec<usize> = defs
                .iter()
                .copied()
                .filter(|&i| !self.funcs[i].inline)
                .collect();
            if let [first, second, ..] = strong.as_slice() {
                return Err(self.duplicate(
                    &name,
                    (self.funcs[*first].unit, self.funcs[*first].offset),
                    (self.funcs[*second].unit, self.funcs[*second].offset),
                ));
            }
            let chosen = strong
                .first()
                .or(defs.first())
                .or(idxs.first())
                .copied()
                .unwrap_or_default();
            // What any declaration promises (`const` is the stronger promise), and a
            // prototype where the chosen declaration has none.
            let side_effect_free = idxs.iter().any(|&i| self.funcs[i].side_effect_free);
            let is_const = idxs
                .iter()
                .any(|&i| self.funcs[i].side_effect_free && !self.funcs[i].reads_memory);
            let prototype = idxs
                .iter()
                .find(|&&i| matches!(&self.funcs[i].ty, Ok(t) if t.prototyped))
                .map(|&i| self.funcs[i].ty.clone());
            let c = &mut self.funcs[chosen];
            c.side_effect_free = side_effect_free;
            c.reads_memory = side_effect_free && !is_const;
            if c.def.is_none() && !matches!(&c.ty, Ok(t) if t.prototyped) {
                if let Some(p) = prototype {
                    c.ty = p;
                }
            }
            for &i in &idxs {
                if i != chosen {
                    self.funcs[i].link = Some(chosen);
                }
            }
            self.func_by_name.insert(name, chosen);
        }
        let to: Vec<usize> = self
            .funcs
            .iter()
            .enumerate()
            .map(|(i, f)| f.link.unwrap_or(i))
            .collect();
        let relink = |i: usize| to.get(i).copied().unwrap_or(i);
        self.scopes.relink_functions(&relink);
        for u in &mut self.units {
            u.file.relink_functions(&relink);
        }
        Ok(())
    }

    fn link_globals(&mut self) -> R<()> {
        let groups = by_name(
            self.globals
                .iter()
                .enumerate()
                .filter(|(_, g)| !g.internal && g.file_scope)
                .map(|(i, g)| (i, g.c_name.as_str())),
        );
        self.extern_globals.clear();
        for (name, idxs) in groups {
            let inits: Vec<usize> = idxs
                .iter()
                .copied()
                .filter(|&i| self.globals[i].init.is_some())
                .collect();
            if let [first, second, ..] = inits.as_slice() {
                // One unit's repeated declarations merge before linking: these are two units'.
                return Err(self.duplicate(
                    &name,
                    (self.globals[*first].unit, self.globals[*first].offset),
                    (self.globals[*second].unit, self.globals[*second].offset),
                ));
            }
            let chosen = inits
                .first()
                .or(idxs.iter().find(|&&i| self.globals[i].defined))
                .or(idxs.first())
                .copied()
                .unwrap_or_default();
            for &i in &idxs {
                if i != chosen {
                    self.globals[i].link = Some(chosen);
                }
            }
            self.extern_globals.insert(name, chosen);
        }
        Ok(())
    }

    /// `static` names another unit uses too get their unit's name (see the module docs).
    fn name_internal_symbols(&mut self) {
        if self.units.len() < 2 {
            return;
        }
        // The units that declare each name, and whether one declares it external.
        let mut users: HashMap<String, (HashSet<usize>, bool)> = HashMap::new();
        for f in &self.funcs {
            let e = users.entry(f.name.clone()).or_default();
            e.0.insert(f.unit);
            e.1 |= !f.internal;
        }
        for g in self.globals.iter().filter(|g| g.file_scope) {
            let e = users.entry(g.c_name.clone()).or_default();
            e.0.insert(g.unit);
            e.1 |= !g.internal;
        }
        // A name keeps its C spelling in the first unit using it, unless it is external
        // somewhere (then the external one keeps it).
        let renamed = |name: &str, unit: usize| {
            users.get(name).is_some_and(|(units, external)| {
                units.len() > 1 && (*external || units.iter().any(|&u| u < unit))
            })
        };
        let mut taken: HashSet<String> = self.funcs.iter().map(|f| f.name.clone()).collect();
        taken.extend(self.globals.iter().map(|g| g.name.clone()));
        let tags: Vec<String> = self
            .units
            .iter()
            .map(|u| unit_tag(u.map.file_name(0)))
            .collect();
        let fresh = |taken: &mut HashSet<String>, name: &str, unit: usize| {
            let mut n = format!("{name}.{}", tags[unit]);
            if taken.contains(&n) {
                n = format!("{name}.{}.{unit}", tags[unit]);
            }
            taken.insert(n.clone());
            n
        };
        for i in 0..self.funcs.len() {
            let f = &self.funcs[i];
            if f.internal && renamed(&f.name, f.unit) {
                let n = fresh(&mut taken, &f.name.clone(), f.unit);
                self.funcs[i].ir_name = n;
            }
        }
        for i in 0..self.globals.len() {
            let g = &self.globals[i];
            if g.internal && g.file_scope && renamed(&g.c_name, g.unit) {
                let n = fresh(&mut taken, &g.c_name.clone(), g.unit);
                self.globals[i].name = n;
            }
        }
    }

    /// The error for a second definition of `name` (each place a unit and an offset).
    fn duplicate(
        &mut self,
        name: &str,
        first: (usize, usize),
        second: (usize, usize),
    ) -> crate::diag::Diagnostic {
        let at = self.in_unit(first.0, |cx| cx.diag(DiagKind::Type, first.1, ""));
        self.in_unit(second.0, |cx| {
            cx.diag(
                DiagKind::Type,
                second.1,
                format!(
                    "multiple definition of '{name}' (first defined at {}:{}:{})",
                    at.file, at.line, at.col
                ),
            )
        })
    }
}

/// Entries (index, name) grouped by name: each name with its entries in order, the names in
/// order of their first entry (the first unit's first), so linking is deterministic.
fn by_name<'n>(entries: impl Iterator<Item = (usize, &'n str)>) -> Vec<(String, Vec<usize>)> {
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    let mut group_of: HashMap<&str, usize> = HashMap::new();
    for (i, name) in entries {
        let g = *group_of.entry(name).or_insert_with(|| {
            groups.push((name.to_string(), Vec::new()));
            groups.len() - 1
        });
        groups[g].1.push(i);
    }
    groups
}

/// A unit's file name as a part of IR names: its stem, in the characters IR names allow.
fn unit_tag(file: &str) -> String {
    let stem = std::path::Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("unit");
    qicc_ir::c_identifier(stem)
}
