//! Value types and the data model.
//!
//! The IR knows three kinds of values: booleans (the results of comparisons, used by
//! assumptions and guards), fixed-width bit-vectors, and IEEE 754 binary floating-point
//! numbers (`f32` = binary32, `f64` = binary64). A float value is held as its IEEE bit
//! pattern in the same `u64` slot as an int of its width, so memory, havoc and witnesses
//! carry floats unchanged; only the [`crate::FpOp`] operations interpret the bits. Signedness lives in the operations
//! (`sdiv` vs `udiv`, `slt` vs `ult`), not in the types, as in Cranelift and SMT-LIB.
//! Pointers are bit-vectors of the data model's pointer width whose top `object_bits` bits
//! name a memory object and whose remaining bits are the byte offset inside it (CBMC's
//! object/offset encoding); see [`MemoryLayout`].

use serde::{Deserialize, Serialize};
use std::fmt;

/// The type of an IR value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Ty {
    Bool,
    /// A bit-vector of the given width (1..=64).
    Int(u16),
    /// An IEEE 754 binary float of the given width: 32 (binary32, C `float`) or 64 (binary64,
    /// C `double`); no other width is well-formed. The value is the IEEE bit pattern.
    Float(u16),
}

impl Ty {
    pub const I8: Ty = Ty::Int(8);
    pub const I16: Ty = Ty::Int(16);
    pub const I32: Ty = Ty::Int(32);
    pub const I64: Ty = Ty::Int(64);
    pub const F32: Ty = Ty::Float(32);
    pub const F64: Ty = Ty::Float(64);

    pub fn bits(self) -> u16 {
        match self {
            Ty::Bool => 1,
            Ty::Int(w) | Ty::Float(w) => w,
        }
    }

    pub fn is_bool(self) -> bool {
        matches!(self, Ty::Bool)
    }

    pub fn is_int(self) -> bool {
        matches!(self, Ty::Int(_))
    }

    pub fn is_float(self) -> bool {
        matches!(self, Ty::Float(_))
    }

    /// Mask of the low `bits()` bits.
    pub fn mask(self) -> u64 {
        mask(self.bits())
    }
}

/// Mask of the low `bits` bits of a `u64` (all ones for 64 and above).
pub fn mask(bits: u16) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Bool => write!(f, "bool"),
            Ty::Int(w) => write!(f, "i{w}"),
            Ty::Float(w) => write!(f, "f{w}"),
        }
    }
}

/// The C data model of the program: the sizes of `long` and pointers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DataModel {
    /// `int`, `long`, pointers: 32 bits (SV-COMP's `ILP32`, `gcc -m32`).
    Ilp32,
    /// `int`: 32 bits; `long`, pointers: 64 bits (SV-COMP's `LP64`).
    Lp64,
}

impl DataModel {
    pub fn pointer_bits(self) -> u16 {
        match self {
            DataModel::Ilp32 => 32,
            DataModel::Lp64 => 64,
        }
    }

    pub fn long_bits(self) -> u16 {
        self.pointer_bits()
    }

    pub fn name(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "ilp32",
            DataModel::Lp64 => "lp64",
        }
    }

    pub fn from_name(s: &str) -> Option<DataModel> {
        match s.to_ascii_lowercase().as_str() {
            "ilp32" => Some(DataModel::Ilp32),
            "lp64" => Some(DataModel::Lp64),
            _ => None,
        }
    }

    /// The default split of a pointer into object and offset bits (CBMC uses 8 object bits).
    pub fn default_layout(self) -> MemoryLayout {
        match self {
            DataModel::Ilp32 => MemoryLayout {
                pointer_bits: 32,
                object_bits: 8,
            },
            DataModel::Lp64 => MemoryLayout {
                pointer_bits: 64,
                object_bits: 16,
            },
        }
    }
}

/// How a pointer bit-vector is split: `object id` in the top `object_bits` bits, byte offset
/// in the rest. Object 0 is the null object: the null pointer is 0 and nothing valid lives
/// there. The number of objects an execution can create is therefore bounded by
/// `2^object_bits - 1`, and one object holds at most `2^offset_bits()` bytes; the interpreter
/// and the engines report running out of either as an unsupported program, never wrap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MemoryLayout {
    pub pointer_bits: u16,
    pub object_bits: u16,
}

impl MemoryLayout {
    pub fn offset_bits(self) -> u16 {
        self.pointer_bits - self.object_bits
    }

    pub fn pointer_ty(self) -> Ty {
        Ty::Int(self.pointer_bits)
    }

    pub fn max_objects(self) -> u64 {
        mask(self.object_bits)
    }

    pub fn max_object_size(self) -> u64 {
        mask(self.offset_bits())
    }

    /// The address of byte 0 of object `obj`.
    pub fn base_address(self, obj: u32) -> u64 {
        (obj as u64) << self.offset_bits()
    }

    pub fn object_of(self, addr: u64) -> u32 {
        ((addr & mask(self.pointer_bits)) >> self.offset_bits()) as u32
    }

    pub fn offset_of(self, addr: u64) -> u64 {
        addr & mask(self.offset_bits())
    }
}
