//! The C type system: types, sizes and alignments for a data model, struct/union layout,
//! integer promotions and the usual arithmetic conversions.
//!
//! Invariants: sizes and alignments follow the SysV ABIs gcc uses — i386 for ILP32 (`long
//! long`, `double` and `long double` align to 4 inside structs, `long double` is 12 bytes) and
//! x86-64 for LP64; plain `char` is signed; an `enum` is `unsigned int` when it has no negative
//! enumerator and `int` otherwise (gcc's choice). The differential tests against gcc keep this
//! honest.

use qicc_ir::{DataModel, LocalId, Ty};
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntKind {
    Bool,
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
}

impl IntKind {
    /// Integer conversion rank (C11 6.3.1.1).
    pub fn rank(self) -> u8 {
        use IntKind::*;
        match self {
            Bool => 0,
            Char | SChar | UChar => 1,
            Short | UShort => 2,
            Int | UInt => 3,
            Long | ULong => 4,
            LongLong | ULongLong => 5,
        }
    }

    pub fn is_signed(self) -> bool {
        use IntKind::*;
        matches!(self, Char | SChar | Short | Int | Long | LongLong)
    }

    pub fn size(self, dm: DataModel) -> u64 {
        use IntKind::*;
        match self {
            Bool | Char | SChar | UChar => 1,
            Short | UShort => 2,
            Int | UInt => 4,
            Long | ULong => dm.long_bits() as u64 / 8,
            LongLong | ULongLong => 8,
        }
    }

    pub fn bits(self, dm: DataModel) -> u16 {
        self.size(dm) as u16 * 8
    }

    pub fn to_unsigned(self) -> IntKind {
        use IntKind::*;
        match self {
            Char | SChar | UChar => UChar,
            Short | UShort => UShort,
            Int | UInt => UInt,
            Long | ULong => ULong,
            LongLong | ULongLong => ULongLong,
            Bool => Bool,
        }
    }

    pub fn name(self) -> &'static str {
        use IntKind::*;
        match self {
            Bool => "_Bool",
            Char => "char",
            SChar => "signed char",
            UChar => "unsigned char",
            Short => "short",
            UShort => "unsigned short",
            Int => "int",
            UInt => "unsigned int",
            Long => "long",
            ULong => "unsigned long",
            LongLong => "long long",
            ULongLong => "unsigned long long",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatKind {
    Float,
    Double,
    LongDouble,
}

/// Index into [`Types::records`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RecordId(pub usize);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuncType {
    pub ret: CType,
    pub params: Vec<CType>,
    pub variadic: bool,
    /// `false` for `int f()` (no parameter information, C89 style).
    pub prototyped: bool,
}

/// A bit-field member as an lvalue's type: `width` bits of the declared integer type `kind`,
/// from bit `shift` of the `bytes` bytes (1, 2, 4 or 8, little-endian) at the member's offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BitField {
    pub kind: IntKind,
    pub width: u16,
    pub shift: u16,
    pub bytes: u16,
}

impl BitField {
    /// The type a read of the field has after the integer promotions (C11 6.3.1.1p2: a field
    /// of `_Bool`, `int` or `unsigned int` type, or narrower, whose values all fit `int` is
    /// `int`; gcc keeps a wider type's fields, `long long x:40`, at their declared type).
    pub fn promoted(self) -> IntKind {
        if self.kind.rank() > IntKind::Int.rank() {
            self.kind
        } else if self.width < 32 || self.kind.is_signed() {
            IntKind::Int
        } else {
            IntKind::UInt
        }
    }
}

/// A C type with qualifiers dropped (`const` and `volatile` do not change the meaning of a
/// sequential program we model).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CType {
    Void,
    Int(IntKind),
    Float(FloatKind),
    Pointer(Rc<CType>),
    /// Element type and length (`None`: incomplete, `int a[]`).
    Array(Rc<CType>, Option<u64>),
    /// A variable-length array (C99 6.7.6.2): element type and the IR local of the function
    /// being lowered that holds the array's size in bytes (`size_t`), computed when the
    /// declarator was evaluated (`int a[n]`, `typedef int row[n]`, `sizeof(int[n])`). An
    /// array of variable-length arrays is itself one (`int a[3][n]`), so a type with a
    /// runtime size is always this variant at its top.
    Vla(Rc<CType>, LocalId),
    Record(RecordId),
    Func(Rc<FuncType>),
    /// A bit-field member (only ever the type of a member lvalue; its value is an integer of
    /// [`BitField::promoted`] type).
    Bits(BitField),
}

impl CType {
    pub const INT: CType = CType::Int(IntKind::Int);
    pub const UINT: CType = CType::Int(IntKind::UInt);
    pub const CHAR: CType = CType::Int(IntKind::Char);

    pub fn ptr(to: CType) -> CType {
        CType::Pointer(Rc::new(to))
    }

    pub fn is_pointer(&self) -> bool {
        matches!(self, CType::Pointer(_))
    }

    /// Integers, pointers and floats (C's scalar types): the types whose values are IR
    /// values (`long double` is one too, rejected where its IR type is asked for).
    pub fn is_scalar(&self) -> bool {
        matches!(self, CType::Int(_) | CType::Pointer(_) | CType::Float(_))
    }

    pub fn is_float(&self) -> bool {
        matches!(self, CType::Float(_))
    }

    pub fn is_record(&self) -> bool {
        matches!(self, CType::Record(_))
    }

    /// Arrays of constant, unknown or variable length.
    pub fn is_array(&self) -> bool {
        matches!(self, CType::Array(..) | CType::Vla(..))
    }

    pub fn is_vla(&self) -> bool {
        matches!(self, CType::Vla(..))
    }

    pub fn is_void(&self) -> bool {
        matches!(self, CType::Void)
    }

    pub fn is_func(&self) -> bool {
        matches!(self, CType::Func(_))
    }

    pub fn is_func_pointer(&self) -> bool {
        matches!(self, CType::Pointer(p) if p.is_func())
    }

    pub fn is_signed_int(&self) -> bool {
        matches!(self, CType::Int(k) if k.is_signed())
    }

    pub fn is_unsigned_int(&self) -> bool {
        matches!(self, CType::Int(k) if !k.is_signed())
    }

    pub fn pointee(&self) -> Option<&CType> {
        match self {
            CType::Pointer(t) => Some(t),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    Struct,
    Union,
}

#[derive(Clone, Debug)]
pub struct Field {
    /// `None` for an anonymous struct/union member (its members are found through it).
    pub name: Option<String>,
    pub ty: CType,
    pub offset: u64,
    /// Declared with an enumerated type: shown by its enumerators' names (display only).
    pub shown_enum: Option<u32>,
}

#[derive(Clone, Debug)]
pub struct Record {
    pub kind: RecordKind,
    pub tag: Option<String>,
    pub fields: Vec<Field>,
    pub size: u64,
    pub align: u64,
    pub complete: bool,
    /// Another reason the layout cannot be used (a member of an unsupported type), reported
    /// when a reachable construct needs the layout.
    pub bad: Option<crate::diag::Diagnostic>,
}

/// A member as declared, before layout.
pub struct FieldDecl {
    pub name: Option<String>,
    pub ty: CType,
    /// As [`Field::shown_enum`].
    pub shown_enum: Option<u32>,
    /// A bit-field's width (`ty` is then its integer type).
    pub width: Option<u64>,
    /// The member's own `aligned(N)` (0: none) and `packed` attributes: its alignment is N
    /// or, if larger, 1 when packed (it or the record) and its type's otherwise (gcc's rule).
    pub align: u64,
    pub packed: bool,
}

/// All records of a program, and the data model that sizes every type.
pub struct Types {
    pub dm: DataModel,
    pub records: Vec<Record>,
}

impl Types {
    pub fn new(dm: DataModel) -> Types {
        Types {
            dm,
            records: Vec::new(),
        }
    }

    pub fn new_record(&mut self, kind: RecordKind, tag: Option<String>) -> RecordId {
        self.records.push(Record {
            kind,
            tag,
            fields: Vec::new(),
            size: 0,
            align: 1,
            complete: false,
            bad: None,
        });
        RecordId(self.records.len() - 1)
    }

    pub fn record(&self, id: RecordId) -> &Record {
        &self.records[id.0]
    }

    /// C's compatible types as far as qicc needs them: equal types, where two records are
    /// the same when they are one record or, declared in different translation units (or
    /// twice in one), have the same kind, tag and members (names, offsets and, recursively,
    /// types) — C11 6.2.7's rule for types of different translation units. Qualifiers are
    /// already dropped.
    pub fn same_type(&self, a: &CType, b: &CType) -> bool {
        self.same_type_in(a, b, &mut Vec::new())
    }

    fn same_type_in(&self, a: &CType, b: &CType, assumed: &mut Vec<(RecordId, RecordId)>) -> bool {
        match (a, b) {
            (CType::Pointer(x), CType::Pointer(y)) => self.same_type_in(x, y, assumed),
            (CType::Array(x, n), CType::Array(y, m)) => n == m && self.same_type_in(x, y, assumed),
            (CType::Record(x), CType::Record(y)) => self.same_record_in(*x, *y, assumed),
            (CType::Func(f), CType::Func(g)) => {
                f.variadic == g.variadic
                    && f.prototyped == g.prototyped
                    && f.params.len() == g.params.len()
                    && self.same_type_in(&f.ret, &g.ret, assumed)
                    && f.params
                        .iter()
                        .zip(&g.params)
                        .all(|(p, q)| self.same_type_in(p, q, assumed))
            }
            _ => a == b,
        }
    }

    /// One record, or two alike (see [`Types::same_type`]). A pair being compared is assumed
    /// alike while its members are (records that point to themselves).
    fn same_record_in(
        &self,
        x: RecordId,
        y: RecordId,
        assumed: &mut Vec<(RecordId, RecordId)>,
    ) -> bool {
        if x == y || assumed.contains(&(x, y)) {
            return true;
        }
        let (r, s) = (self.record(x), self.record(y));
        if r.kind != s.kind || r.tag != s.tag {
            return false;
        }
        // An incomplete declaration of the tag is compatible with any completion of it.
        if !r.complete || !s.complete {
            return r.tag.is_some();
        }
        if r.size != s.size || r.align != s.align || r.fields.len() != s.fields.len() {
            return false;
        }
        assumed.push((x, y));
        let alike = r.fields.iter().zip(&s.fields).all(|(f, g)| {
            f.name == g.name && f.offset == g.offset && self.same_type_in(&f.ty, &g.ty, assumed)
        });
        assumed.pop();
        alike
    }

    pub fn ptr_bytes(&self) -> u64 {
        self.dm.pointer_bits() as u64 / 8
    }

    /// `size_t`: `unsigned int` on ILP32, `unsigned long` on LP64.
    pub fn size_t(&self) -> CType {
        match self.dm {
            DataModel::Ilp32 => CType::Int(IntKind::UInt),
            DataModel::Lp64 => CType::Int(IntKind::ULong),
        }
    }

    /// `ptrdiff_t`: `int` on ILP32, `long` on LP64.
    pub fn ptrdiff_t(&self) -> CType {
        match self.dm {
            DataModel::Ilp32 => CType::Int(IntKind::Int),
            DataModel::Lp64 => CType::Int(IntKind::Long),
        }
    }

    /// `sizeof`; `None` for incomplete types, functions, `void` and variable-length arrays
    /// (whose size is known only at run time).
    pub fn size_of(&self, t: &CType) -> Option<u64> {
        match t {
            CType::Void | CType::Func(_) | CType::Bits(_) => None,
            CType::Int(k) => Some(k.size(self.dm)),
            CType::Float(FloatKind::Float) => Some(4),
            CType::Float(FloatKind::Double) => Some(8),
            CType::Float(FloatKind::LongDouble) => Some(match self.dm {
                DataModel::Ilp32 => 12,
                DataModel::Lp64 => 16,
            }),
            CType::Pointer(_) => Some(self.ptr_bytes()),
            CType::Array(e, Some(n)) => self.size_of(e)?.checked_mul(*n),
            CType::Array(_, None) | CType::Vla(..) => None,
            CType::Record(r) => {
                let rec = self.record(*r);
                rec.complete.then_some(rec.size)
            }
        }
    }

    /// The ABI alignment (the alignment inside structs, and C11 `_Alignof`).
    pub fn align_of(&self, t: &CType) -> u64 {
        let ilp32 = self.dm == DataModel::Ilp32;
        match t {
            CType::Void | CType::Func(_) => 1,
            CType::Bits(b) => self.align_of(&CType::Int(b.kind)),
            CType::Int(k) => {
                let s = k.size(self.dm);
                if ilp32 {
                    s.min(4)
                } else {
                    s
                }
            }
            CType::Float(FloatKind::Float) => 4,
            CType::Float(FloatKind::Double) => {
                if ilp32 {
                    4
                } else {
                    8
                }
            }
            CType::Float(FloatKind::LongDouble) => {
                if ilp32 {
                    4
                } else {
                    16
                }
            }
            CType::Pointer(_) => self.ptr_bytes(),
            CType::Array(e, _) | CType::Vla(e, _) => self.align_of(e),
            CType::Record(r) => self.record(*r).align.max(1),
        }
    }

    /// Lays out a struct or union: members at their aligned offsets, size rounded up to the
    /// alignment. `packed` gives every member alignment 1; `min_align` is an
    /// `__attribute__((aligned(n)))` on the record.
    pub fn complete_record(
        &mut self,
        id: RecordId,
        fields: Vec<FieldDecl>,
        packed: bool,
        min_align: u64,
        bad: Option<crate::diag::Diagnostic>,
    ) {
        let kind = self.records[id.0].kind;
        let mut offset = 0u64;
        let mut size = 0u64;
        let mut align = 1u64;
        let mut out = Vec::new();
        // The next free bit of a struct (bit-fields pack at bit granularity; `offset` is it
        // rounded up to a byte).
        let mut bit = 0u64;
        // Bit-fields as (index in `out`, first bit, end bit): their byte windows are chosen
        // once the record's size is known.
        let mut bitfields = Vec::new();
        for f in fields {
            if let (Some(w), CType::Int(k)) = (f.width, &f.ty) {
                let tsize = k.size(self.dm) * 8;
                let talign = self.align_of(&f.ty) * 8;
                // gcc: a packed field (or one of a packed record) starts at the next free
                // bit; `aligned(N)` moves it to a multiple of N bytes first.
                let fpacked = packed || f.packed;
                let at = round_up(bit, f.align * 8);
                let start = match kind {
                    RecordKind::Union => 0,
                    // PCC_BITFIELD_TYPE_MATTERS: a field that would cross the end of a unit
                    // of its type's size, starting at its alignment, starts at the next
                    // aligned boundary; a zero-width field moves to the next boundary (in a
                    // packed record too).
                    RecordKind::Struct if w == 0 => round_up(at, talign),
                    RecordKind::Struct if !fpacked && at % talign + w > tsize => {
                        round_up(at, talign)
                    }
                    RecordKind::Struct => at,
                };
                // Unnamed fields do not change the record's alignment (both ABIs); packed
                // ones add only their `aligned(N)`.
                if f.name.is_some() {
                    let own = if fpacked { 1 } else { talign / 8 };
                    align = align.max(own).max(f.align);
                }
                let end = start + w;
                if let Some(name) = f.name {
                    bitfields.push((out.len(), start, end));
                    out.push(Field {
                        name: Some(name),
                        ty: CType::Bits(BitField {
                            kind: *k,
                            width: w as u16,
                            shift: 0,
                            bytes: 0,
                        }),
                        offset: 0,
                        shown_enum: None,
                    });
                }
                match kind {
                    RecordKind::Struct => {
                        bit = end;
                        offset = end.div_ceil(8);
                        size = offset;
                    }
                    RecordKind::Union => size = size.max(end.div_ceil(8)),
                }
                continue;
            }
            let a = if packed || f.packed {
                1
            } else {
                self.align_of(&f.ty)
            }
            .max(f.align);
            // A flexible array member (`T x[]`) takes no room.
            let s = self.size_of(&f.ty).unwrap_or(0);
            align = align.max(a);
            match kind {
                RecordKind::Struct => {
                    offset = round_up(offset, a);
                    out.push(Field {
                        name: f.name,
                        ty: f.ty,
                        offset,
                        shown_enum: f.shown_enum,
                    });
                    offset = offset.saturating_add(s);
                    bit = offset.saturating_mul(8);
                    size = offset;
                }
                RecordKind::Union => {
                    out.push(Field {
                        name: f.name,
                        ty: f.ty,
                        offset: 0,
                        shown_enum: f.shown_enum,
                    });
                    size = size.max(s);
                }
            }
        }
        align = align.max(min_align.max(1));
        let size = round_up(size, align);
        for (i, start, end) in bitfields {
            let (first, bytes) = bit_window(start, end, size);
            if let Some(Field {
                ty: CType::Bits(b),
                offset,
                ..
            }) = out.get_mut(i)
            {
                b.shift = (start - first * 8) as u16;
                b.bytes = bytes as u16;
                *offset = first;
            }
        }
        let rec = &mut self.records[id.0];
        rec.fields = out;
        rec.align = align;
        rec.size = size;
        rec.complete = true;
        rec.bad = bad;
    }

    /// Finds member `name` (looking through anonymous members): its offset and type.
    pub fn find_member(&self, id: RecordId, name: &str) -> Option<(u64, CType)> {
        for f in &self.record(id).fields {
            match &f.name {
                Some(n) if n == name => return Some((f.offset, f.ty.clone())),
                None => {
                    if let CType::Record(inner) = &f.ty {
                        if let Some((o, t)) = self.find_member(*inner, name) {
                            return Some((f.offset + o, t));
                        }
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The IR type of a scalar C type (`_Bool` is a byte).
    pub fn ir_ty(&self, t: &CType) -> Option<Ty> {
        match t {
            CType::Int(k) => Some(Ty::Int(k.bits(self.dm))),
            CType::Pointer(_) => Some(Ty::Int(self.dm.pointer_bits())),
            CType::Float(FloatKind::Float) => Some(Ty::F32),
            CType::Float(FloatKind::Double) => Some(Ty::F64),
            _ => None,
        }
    }

    /// Integer promotion (C11 6.3.1.1p2); other types are returned unchanged.
    pub fn promote(&self, t: &CType) -> CType {
        match t {
            CType::Bits(b) => CType::Int(b.promoted()),
            CType::Int(k) if k.rank() < IntKind::Int.rank() => CType::Int(IntKind::Int),
            _ => t.clone(),
        }
    }

    /// The usual arithmetic conversions (C11 6.3.1.8) of two integer types.
    pub fn usual_arith(&self, a: IntKind, b: IntKind) -> IntKind {
        let promote = |k: IntKind| {
            if k.rank() < IntKind::Int.rank() {
                IntKind::Int
            } else {
                k
            }
        };
        let (a, b) = (promote(a), promote(b));
        if a == b {
            return a;
        }
        if a.is_signed() == b.is_signed() {
            return if a.rank() >= b.rank() { a } else { b };
        }
        let (s, u) = if a.is_signed() { (a, b) } else { (b, a) };
        if u.rank() >= s.rank() {
            u
        } else if s.size(self.dm) > u.size(self.dm) {
            s
        } else {
            s.to_unsigned()
        }
    }

    /// A readable rendering of a type for messages.
    pub fn show(&self, t: &CType) -> String {
        match t {
            CType::Void => "void".into(),
            CType::Int(k) => k.name().into(),
            CType::Bits(b) => format!("{}:{}", b.kind.name(), b.width),
            CType::Float(FloatKind::Float) => "float".into(),
            CType::Float(FloatKind::Double) => "double".into(),
            CType::Float(FloatKind::LongDouble) => "long double".into(),
            CType::Pointer(p) => format!("{} *", self.show(p)),
            CType::Array(e, Some(n)) => format!("{}[{n}]", self.show(e)),
            CType::Array(e, None) => format!("{}[]", self.show(e)),
            CType::Vla(e, _) => format!("{}[*]", self.show(e)),
            CType::Record(r) => {
                let rec = self.record(*r);
                let kw = match rec.kind {
                    RecordKind::Struct => "struct",
                    RecordKind::Union => "union",
                };
                match &rec.tag {
                    Some(t) => format!("{kw} {t}"),
                    None => format!("{kw} <anonymous>"),
                }
            }
            CType::Func(f) => format!("{} (...)", self.show(&f.ret)),
        }
    }
}

/// The bytes a bit-field at bits `start..end` of a record of `size` bytes is read and
/// written through: the smallest naturally aligned window of 1, 2, 4 or 8 bytes inside the
/// record holding it (always one, outside packed records), else the bytes from its first to
/// its last (a packed field: a window of 3, 5, 6 or 7 bytes, or one that crosses an aligned
/// boundary; also an i386 `long long` field crossing an 8-byte boundary). The caller reports
/// a window of more than 8 bytes as unsupported.
fn bit_window(start: u64, end: u64, size: u64) -> (u64, u64) {
    let first = start / 8;
    for k in [1u64, 2, 4, 8] {
        let base = first / k * k;
        if (base + k) * 8 >= end && base + k <= size {
            return (base, k);
        }
    }
    (first, end.div_ceil(8) - first)
}

pub fn round_up(x: u64, a: u64) -> u64 {
    if a <= 1 {
        x
    } else {
        x.div_ceil(a).saturating_mul(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use IntKind::*;

    #[test]
    fn usual_arithmetic_conversions() {
        let t32 = Types::new(DataModel::Ilp32);
        let t64 = Types::new(DataModel::Lp64);
        assert_eq!(t32.usual_arith(Char, UChar), Int);
        assert_eq!(t32.usual_arith(Int, UInt), UInt);
        assert_eq!(t32.usual_arith(Long, UInt), ULong);
        assert_eq!(t64.usual_arith(Long, UInt), Long);
        assert_eq!(t32.usual_arith(LongLong, UInt), LongLong);
        assert_eq!(t64.usual_arith(LongLong, ULong), ULongLong);
    }

    #[test]
    fn struct_layout_follows_the_abi() {
        for (dm, size, off) in [(DataModel::Ilp32, 12, 4), (DataModel::Lp64, 16, 8)] {
            let mut t = Types::new(dm);
            let r = t.new_record(RecordKind::Struct, Some("s".into()));
            t.complete_record(
                r,
                vec![
                    FieldDecl {
                        name: Some("c".into()),
                        ty: CType::Int(Char),
                        shown_enum: None,
                        width: None,
                        align: 0,
                        packed: false,
                    },
                    FieldDecl {
                        name: Some("x".into()),
                        ty: CType::Int(LongLong),
                        shown_enum: None,
                        width: None,
                        align: 0,
                        packed: false,
                    },
                ],
                false,
                1,
                None,
            );
            assert_eq!(t.size_of(&CType::Record(r)), Some(size));
            assert_eq!(t.find_member(r, "x").map(|m| m.0), Some(off));
        }
    }
}
