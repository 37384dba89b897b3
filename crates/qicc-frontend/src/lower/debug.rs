//! The source types the IR keeps for display ([`qicc_ir::debug`]): each C type, once, as the
//! traces need it (fields with offsets, element sizes, which integers are characters, `_Bool`
//! or pointers, which enumerated type an integer has). Typedef names and qualifiers are gone by
//! now; a record is interned by its identity, before its members, so a record that points to
//! itself ends. An enumerated type is an integer type to the rest of the front-end, so it is
//! known only where a declaration names it (`shown_enum` of variables, parameters and members:
//! the enumerators are then [`qicc_ir::debug::DebugTypes::enums`]' entry).

use super::Ctx;
use crate::types::{CType, IntKind, RecordKind, Types};
use qicc_ir::debug::{DebugField, DebugType, IntShow};
use qicc_ir::{DebugTypeId, DebugTypes, LocalId};
use std::collections::HashMap;

#[derive(Default)]
pub struct DebugTypeTable {
    interned: HashMap<DebugType, DebugTypeId>,
    records: HashMap<usize, DebugTypeId>,
}

impl DebugTypeTable {
    fn intern(&mut self, out: &mut DebugTypes, t: DebugType) -> DebugTypeId {
        if let Some(id) = self.interned.get(&t) {
            return *id;
        }
        let id = out.add(t.clone());
        self.interned.insert(t, id);
        id
    }

    pub fn of(
        &mut self,
        types: &Types,
        ptr_bytes: u8,
        out: &mut DebugTypes,
        ty: &CType,
    ) -> DebugTypeId {
        let t = match ty {
            CType::Int(k) => DebugType::Int {
                bytes: k.size(types.dm) as u8,
                signed: k.is_signed(),
                show: match k {
                    IntKind::Bool => IntShow::Bool,
                    IntKind::Char | IntKind::SChar | IntKind::UChar => IntShow::Char,
                    _ => IntShow::Number,
                },
            },
            CType::Float(_) => match types.size_of(ty) {
                Some(n @ (4 | 8)) => DebugType::Float { bytes: n as u8 },
                n => DebugType::Opaque {
                    size: n.unwrap_or(0),
                },
            },
            CType::Pointer(to) => DebugType::Pointer {
                bytes: ptr_bytes,
                to: match &**to {
                    CType::Void | CType::Func(_) => None,
                    t => Some(self.of(types, ptr_bytes, out, t)),
                },
            },
            CType::Array(elem, len) => {
                let elem_size = types.size_of(elem).unwrap_or(0);
                let elem = self.of(types, ptr_bytes, out, elem);
                DebugType::Array {
                    elem,
                    elem_size,
                    len: *len,
                }
            }
            CType::Record(rid) => return self.record(types, ptr_bytes, out, rid.0),
            CType::Bits(b) => return self.of(types, ptr_bytes, out, &CType::Int(b.kind)),
            CType::Void | CType::Func(_) | CType::Vla(..) => DebugType::Opaque {
                size: types.size_of(ty).unwrap_or(0),
            },
        };
        self.intern(out, t)
    }

    /// The display type of a declaration of type `ty` that names enumerated type `shown_enum`.
    pub fn shown(
        &mut self,
        types: &Types,
        ptr_bytes: u8,
        out: &mut DebugTypes,
        ty: &CType,
        shown_enum: Option<u32>,
    ) -> DebugTypeId {
        match (ty, shown_enum) {
            (CType::Int(k), Some(e)) => self.intern(
                out,
                DebugType::Int {
                    bytes: k.size(types.dm) as u8,
                    signed: k.is_signed(),
                    show: IntShow::Enum(e),
                },
            ),
            _ => self.of(types, ptr_bytes, out, ty),
        }
    }

    fn record(
        &mut self,
        types: &Types,
        ptr_bytes: u8,
        out: &mut DebugTypes,
        rid: usize,
    ) -> DebugTypeId {
        if let Some(id) = self.records.get(&rid) {
            return *id;
        }
        let Some(r) = types.records.get(rid) else {
            return self.intern(out, DebugType::Opaque { size: 0 });
        };
        let union = r.kind == RecordKind::Union;
        let tag = format!(
            "{} {}",
            if union { "union" } else { "struct" },
            r.tag.as_deref().unwrap_or("<anonymous>")
        );
        if !r.complete {
            // Not remembered: the record may be completed later in the unit.
            return self.intern(out, DebugType::Opaque { size: 0 });
        }
        // Reserved first: a member pointing back here finds it.
        let id = out.add(DebugType::Opaque { size: r.size });
        self.records.insert(rid, id);
        let fields = r
            .fields
            .iter()
            .map(|f| DebugField {
                name: f.name.clone(),
                offset: f.offset,
                ty: self.shown(types, ptr_bytes, out, &f.ty, f.shown_enum),
                bit_field: matches!(f.ty, CType::Bits(_)),
            })
            .collect();
        if let Some(slot) = out.types.get_mut(id.0 as usize) {
            *slot = DebugType::Record {
                tag,
                size: r.size,
                union,
                fields,
            };
        }
        id
    }
}

impl Ctx<'_> {
    /// The display type of a declaration of type `ty` naming enumerated type `shown_enum`,
    /// added to the program's on first use.
    pub fn shown_type(&mut self, ty: &CType, shown_enum: Option<u32>) -> DebugTypeId {
        let ptr_bytes = (self.program.layout.pointer_bits / 8) as u8;
        self.debug.shown(
            &self.types,
            ptr_bytes,
            &mut self.program.debug_types,
            ty,
            shown_enum,
        )
    }

    /// Records `ty` (naming enumerated type `shown_enum`) as the display type of local `l` of
    /// the function being built.
    pub fn set_local_debug_type(
        &mut self,
        func: &mut qicc_ir::Function,
        l: LocalId,
        ty: &CType,
        shown_enum: Option<u32>,
    ) {
        let id = self.shown_type(ty, shown_enum);
        if let Some(local) = func.locals.get_mut(l.index()) {
            local.debug_type = Some(id);
        }
    }
}
