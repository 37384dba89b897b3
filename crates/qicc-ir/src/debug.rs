//! Source types for people, as DWARF is for a debugger: which field or element a byte offset of
//! an object is (`re[0].type`), whether an integer is a character (`97 'a'`), a `_Bool` (0/1)
//! or a pointer (`&buf[3]`). The front-end records them; traces read them.
//!
//! Invariant: nothing else reads them. The IR's operators carry every bit of meaning; these
//! types only name what an execution did, so an engine, a pass or the interpreter never
//! consults them, and a program without them (IR written by hand or parsed from text, which
//! does not print them) means exactly the same and shows byte offsets in its traces.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Index into [`DebugTypes::types`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct DebugTypeId(pub u32);

/// How an integer's values read best.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IntShow {
    Number,
    /// `char`, `signed char`, `unsigned char`: the number and the character.
    Char,
    /// `_Bool`: 0 or 1.
    Bool,
    /// An enumerated type (index into [`DebugTypes::enums`]): the number and the
    /// enumerator's name.
    Enum(u32),
}

/// An enumerated type's enumerators, in declaration order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DebugEnum {
    /// As C spells the type: `enum color`, or `enum <anonymous>`.
    pub tag: String,
    pub values: Vec<(i64, String)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DebugType {
    Int {
        bytes: u8,
        signed: bool,
        show: IntShow,
    },
    Float {
        bytes: u8,
    },
    /// `to`: the pointed-to type (`None` for `void *`, a function pointer).
    Pointer {
        bytes: u8,
        to: Option<DebugTypeId>,
    },
    /// `len: None`: of unknown length (`int a[]`, a flexible array member).
    Array {
        elem: DebugTypeId,
        elem_size: u64,
        len: Option<u64>,
    },
    /// A struct or union (`tag` as C spells the type: `struct node`).
    Record {
        tag: String,
        size: u64,
        union: bool,
        fields: Vec<DebugField>,
    },
    /// Anything shown as bytes: functions, variable-length arrays, `long double`, a record
    /// whose layout was not needed.
    Opaque {
        size: u64,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DebugField {
    /// `None`: an anonymous struct or union member (its members are named through it).
    pub name: Option<String>,
    pub offset: u64,
    pub ty: DebugTypeId,
    /// A bit-field: shares bytes with its neighbours, so an access is not named by it.
    pub bit_field: bool,
}

/// The program's source types, and which static objects and scalar globals have which.
/// Locals carry theirs ([`crate::Local::debug_type`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DebugTypes {
    pub types: Vec<DebugType>,
    /// By [`crate::ObjectId`]'s number.
    pub objects: BTreeMap<u32, DebugTypeId>,
    /// By [`crate::GlobalId`]'s number.
    pub globals: BTreeMap<u32, DebugTypeId>,
    /// The enumerated types ([`IntShow::Enum`]).
    #[serde(default)]
    pub enums: Vec<DebugEnum>,
}

/// Where an access lands inside an object: the C path from the object (`[2].next`, empty for
/// the object itself), the type there, and the bytes past that member's start (0 when the
/// access starts exactly at a member).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub path: String,
    pub ty: Option<DebugTypeId>,
    pub rest: u64,
}

impl DebugTypes {
    pub fn get(&self, id: DebugTypeId) -> Option<&DebugType> {
        self.types.get(id.0 as usize)
    }

    pub fn add(&mut self, t: DebugType) -> DebugTypeId {
        self.types.push(t);
        DebugTypeId(self.types.len() as u32 - 1)
    }

    /// The name of the first enumerator of enumerated type `id` with value `v`.
    pub fn enumerator(&self, id: u32, v: i64) -> Option<&str> {
        let e = self.enums.get(id as usize)?;
        e.values
            .iter()
            .find(|(x, _)| *x == v)
            .map(|(_, n)| n.as_str())
    }

    /// Size in bytes (`None` for an array of unknown length).
    pub fn size(&self, id: DebugTypeId) -> Option<u64> {
        match self.get(id)? {
            DebugType::Int { bytes, .. }
            | DebugType::Float { bytes }
            | DebugType::Pointer { bytes, .. } => Some(u64::from(*bytes)),
            DebugType::Array { elem_size, len, .. } => len.map(|n| n.saturating_mul(*elem_size)),
            DebugType::Record { size, .. } | DebugType::Opaque { size } => Some(*size),
        }
    }

    /// The member an access of `bytes` bytes at `offset` of an object of type `ty` is: the
    /// deepest field or element holding the whole access, stopping at one exactly its size.
    /// `bytes: None` names a position (a pointer value): the shallowest member starting there,
    /// an array's first element (`&a[0]`, as an array decays) included.
    pub fn place(&self, ty: DebugTypeId, offset: u64, bytes: Option<u64>) -> Place {
        let mut path = String::new();
        let mut ty = ty;
        let mut off = offset;
        // Bounded: every step goes one type deeper, and a type cannot contain itself.
        for _ in 0..64 {
            match bytes {
                Some(n) if off == 0 && self.size(ty) == Some(n) => break,
                None if off == 0 => {
                    if let Some(DebugType::Array { elem, .. }) = self.get(ty) {
                        path.push_str("[0]");
                        ty = *elem;
                    }
                    break;
                }
                _ => {}
            }
            let need = bytes.unwrap_or(1);
            match self.get(ty) {
                Some(DebugType::Array {
                    elem,
                    elem_size,
                    len,
                }) if *elem_size > 0 => {
                    let i = off / elem_size;
                    let within = off - i * elem_size;
                    // One past the end is a position C names (`&a[4]` of `int a[4]`).
                    let past_end = bytes.is_none() && within == 0;
                    let outside = len.is_some_and(|n| i > n || i == n && !past_end);
                    if outside || within + need > *elem_size {
                        break;
                    }
                    if *len == Some(i) {
                        path.push_str(&format!("[{i}]"));
                        off = 0;
                        break;
                    }
                    path.push_str(&format!("[{i}]"));
                    off = within;
                    ty = *elem;
                }
                Some(DebugType::Record { fields, .. }) => {
                    let field = fields.iter().find(|f| {
                        f.offset <= off
                            && self.size(f.ty).is_some_and(|s| off - f.offset + need <= s)
                    });
                    match field {
                        Some(f) if !f.bit_field => {
                            if let Some(n) = &f.name {
                                path.push('.');
                                path.push_str(n);
                            }
                            off -= f.offset;
                            ty = f.ty;
                        }
                        _ => break,
                    }
                }
                _ => break,
            }
        }
        Place {
            path,
            ty: Some(ty),
            rest: off,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `struct s { int x; char name[4]; struct s *next; }` (LP64) and `struct s a[2]`.
    fn sample() -> (DebugTypes, DebugTypeId) {
        let mut t = DebugTypes::default();
        let int = t.add(DebugType::Int {
            bytes: 4,
            signed: true,
            show: IntShow::Number,
        });
        let ch = t.add(DebugType::Int {
            bytes: 1,
            signed: true,
            show: IntShow::Char,
        });
        let name = t.add(DebugType::Array {
            elem: ch,
            elem_size: 1,
            len: Some(4),
        });
        let rec = DebugTypeId(t.types.len() as u32 + 1);
        let ptr = t.add(DebugType::Pointer {
            bytes: 8,
            to: Some(rec),
        });
        let field = |name: &str, offset, ty| DebugField {
            name: Some(name.to_string()),
            offset,
            ty,
            bit_field: false,
        };
        let s = t.add(DebugType::Record {
            tag: "struct s".into(),
            size: 16,
            union: false,
            fields: vec![
                field("x", 0, int),
                field("name", 4, name),
                field("next", 8, ptr),
            ],
        });
        assert_eq!(s, rec);
        let arr = t.add(DebugType::Array {
            elem: s,
            elem_size: 16,
            len: Some(2),
        });
        (t, arr)
    }

    fn path(t: &DebugTypes, ty: DebugTypeId, off: u64, bytes: Option<u64>) -> (String, u64) {
        let p = t.place(ty, off, bytes);
        (p.path, p.rest)
    }

    #[test]
    fn accesses_are_named_by_fields_and_indices() {
        let (t, a) = sample();
        assert_eq!(path(&t, a, 16, Some(4)), ("[1].x".into(), 0));
        assert_eq!(path(&t, a, 22, Some(1)), ("[1].name[2]".into(), 0));
        assert_eq!(path(&t, a, 8, Some(8)), ("[0].next".into(), 0));
        // A whole element, a whole array.
        assert_eq!(path(&t, a, 16, Some(16)), ("[1]".into(), 0));
        assert_eq!(path(&t, a, 0, Some(32)), ("".into(), 0));
        // Four bytes across `name`: no member holds them.
        assert_eq!(path(&t, a, 6, Some(4)), ("[0]".into(), 6));
        // Past the end of the object.
        assert_eq!(path(&t, a, 32, Some(4)), ("".into(), 32));
    }

    #[test]
    fn positions_are_named_as_c_writes_pointers() {
        let (t, a) = sample();
        // An array decays to its first element; a struct's start is the struct.
        assert_eq!(path(&t, a, 0, None), ("[0]".into(), 0));
        assert_eq!(path(&t, a, 16, None), ("[1]".into(), 0));
        assert_eq!(path(&t, a, 20, None), ("[1].name[0]".into(), 0));
        assert_eq!(path(&t, a, 21, None), ("[1].name[1]".into(), 0));
        // One past the end, and inside a scalar.
        assert_eq!(path(&t, a, 32, None), ("[2]".into(), 0));
        assert_eq!(path(&t, a, 18, None), ("[1].x".into(), 2));
    }
}
