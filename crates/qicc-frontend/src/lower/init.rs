//! Initialisers: flattening an initialiser (braces, brace elision, designators, string
//! literals for char arrays) into *leaves* — one scalar, struct or byte string at an offset —
//! and turning the leaves into code (locals: zero the object, then store each leaf) or into
//! static contents (globals and static locals: `InitItem`s over a zeroed object).
//!
//! Also owns the creation of global storage on first use, and compound literals.
//!
//! Invariant: leaves are produced in initialiser order, so a later designator that
//! re-initialises a scalar wins, as in C; and a later initialiser of a whole aggregate
//! sub-object (a braced list, a string, a struct value) first drops every earlier leaf inside
//! it, because it initialises all of it, implicitly zeroing what it does not name (C11
//! 6.7.9p19: `{ .b[2] = 8, .b = { [0] = 4 } }` leaves `b[2] == 0`).

use super::expr::{LVal, Place, Val};
use super::{Ctx, GStorage, R};
use crate::types::{CType, IntKind};
use lang_c::ast::*;
use lang_c::span::Node;
use qicc_ir::{BinOp, Expr, Global, InitItem, Object, Op};

pub enum LeafInit<'a> {
    Expr(&'a Node<Expression>),
    /// The bytes of a string literal initialising a character array (sized to the array).
    Bytes(Vec<u8>),
}

pub struct Leaf<'a> {
    pub offset: u64,
    pub ty: CType,
    pub init: LeafInit<'a>,
    pub at: usize,
}

fn is_char_array(t: &CType) -> bool {
    matches!(t, CType::Array(e, _) if matches!(**e, CType::Int(k) if k.size(qicc_ir::DataModel::Ilp32) == 1 && k != IntKind::Bool))
}

fn is_wide_array(t: &CType) -> Option<u64> {
    match t {
        CType::Array(e, _) => match **e {
            CType::Int(IntKind::Int | IntKind::UInt | IntKind::Long | IntKind::ULong) => Some(4),
            CType::Int(IntKind::Short | IntKind::UShort) => Some(2),
            _ => None,
        },
        _ => None,
    }
}

/// The string literal an initialiser item is, if it is one (`"abc"`, possibly in braces).
fn string_expr(e: &Node<Expression>) -> Option<&Node<Vec<String>>> {
    match &e.node {
        Expression::StringLiteral(s) => Some(s),
        _ => None,
    }
}

impl<'a> Ctx<'a> {
    /// Flattens an initialiser for an object of type `ty`; returns the completed type
    /// (`int a[] = {1, 2}` has 2 elements).
    pub fn flatten_init(
        &mut self,
        ty: &CType,
        init: &'a Node<Initializer>,
        out: &mut Vec<Leaf<'a>>,
    ) -> R<CType> {
        match &init.node {
            Initializer::Expression(e) => self.leaf_expr(ty, 0, e, out),
            Initializer::List(items) => self.braced(ty, 0, items, out),
        }
    }

    /// An expression initialising a whole object of type `ty` at `off`.
    fn leaf_expr(
        &mut self,
        ty: &CType,
        off: u64,
        e: &'a Node<Expression>,
        out: &mut Vec<Leaf<'a>>,
    ) -> R<CType> {
        let at = e.span.start;
        if let Some(s) = string_expr(e) {
            if is_char_array(ty)
                || (is_wide_array(ty).is_some() && s.node.iter().any(|p| !p.starts_with('"')))
            {
                return self.string_leaf(ty, off, s, out);
            }
        }
        match ty {
            CType::Array(..) => Err(self.type_err(
                at,
                "array initializer must be an initializer list or a string literal",
            )),
            CType::Record(_) => {
                // A statement expression's type is known only by evaluating it: it is
                // checked then (in `init_memory`).
                let et = match &e.node {
                    Expression::Statement(_) => ty.clone(),
                    _ => self.expr_type(e)?,
                };
                if !self.types.same_type(&et, ty) {
                    return Err(self.type_err(
                        at,
                        format!(
                            "initializing '{}' with an expression of type '{}'",
                            self.types.show(ty),
                            self.types.show(&et)
                        ),
                    ));
                }
                self.drop_overridden(ty, off, at, out)?;
                out.push(Leaf {
                    offset: off,
                    ty: ty.clone(),
                    init: LeafInit::Expr(e),
                    at,
                });
                Ok(ty.clone())
            }
            _ => {
                out.push(Leaf {
                    offset: off,
                    ty: ty.clone(),
                    init: LeafInit::Expr(e),
                    at,
                });
                Ok(ty.clone())
            }
        }
    }

    fn string_leaf(
        &mut self,
        ty: &CType,
        off: u64,
        s: &'a Node<Vec<String>>,
        out: &mut Vec<Leaf<'a>>,
    ) -> R<CType> {
        let (mut bytes, elem, len) = self.string_literal(&s.node, s.span.start)?;
        let CType::Array(aelem, alen) = ty else {
            return Err(self.internal(s.span.start, "string initialiser for a non-array"));
        };
        let esize = self.size_of(&elem, s.span.start)?;
        let aesize = self.size_of(aelem, s.span.start)?;
        if esize != aesize {
            return Err(self.type_err(
                s.span.start,
                "initializing an array with a string literal of another character type",
            ));
        }
        let n = alen.unwrap_or(len);
        self.drop_overridden(ty, off, s.span.start, out)?;
        // The terminating NUL is dropped when the array has exactly the string's length.
        bytes.truncate((n * esize) as usize);
        out.push(Leaf {
            offset: off,
            ty: CType::Array(aelem.clone(), Some(n)),
            init: LeafInit::Bytes(bytes),
            at: s.span.start,
        });
        Ok(CType::Array(aelem.clone(), Some(n)))
    }

    /// Drops the leaves an initialiser of the whole sub-object of type `ty` at `off`
    /// overrides (see the module's invariant). An incomplete array (`int a[] = {…}`, only
    /// ever the whole object) has nothing before it.
    fn drop_overridden(
        &mut self,
        ty: &CType,
        off: u64,
        at: usize,
        out: &mut Vec<Leaf<'a>>,
    ) -> R<()> {
        if out.is_empty() || matches!(ty, CType::Array(_, None)) {
            return Ok(());
        }
        let end = off + self.size_of(ty, at)?;
        out.retain(|leaf| leaf.offset < off || leaf.offset >= end);
        Ok(())
    }

    /// A braced initialiser list for an object of type `ty` at `off`.
    pub fn braced(
        &mut self,
        ty: &CType,
        off: u64,
        items: &'a [Node<InitializerListItem>],
        out: &mut Vec<Leaf<'a>>,
    ) -> R<CType> {
        let at = items.first().map(|i| i.span.start).unwrap_or(0);
        self.drop_overridden(ty, off, at, out)?;
        match ty {
            CType::Array(elem, len) => {
                // `char s[] = {"abc"}`.
                if let [item] = items {
                    if item.node.designation.is_empty() {
                        if let Initializer::Expression(e) = &item.node.initializer.node {
                            if let Some(s) = string_expr(e) {
                                if is_char_array(ty) || is_wide_array(ty).is_some() {
                                    return self.string_leaf(ty, off, s, out);
                                }
                            }
                        }
                    }
                }
                let esize = self.size_of(elem, items.first().map(|i| i.span.start).unwrap_or(0))?;
                let (mut idx, mut max, mut i) = (0u64, 0u64, 0usize);
                while i < items.len() {
                    let item = &items[i];
                    if let Some(first) = item.node.designation.first() {
                        let rest: Vec<&'a Node<Designator>> =
                            item.node.designation.iter().skip(1).collect();
                        let (lo, hi) = match &first.node {
                            Designator::Index(e) => {
                                let v = self.const_int(e)?.0;
                                (v, v)
                            }
                            Designator::Range(r) => (
                                self.const_int(&r.node.from)?.0,
                                self.const_int(&r.node.to)?.0,
                            ),
                            Designator::Member(_) => {
                                return Err(self.type_err(
                                    first.span.start,
                                    "field designator in an array initializer",
                                ))
                            }
                        };
                        if let Some(n) = len {
                            if hi >= *n || lo > hi {
                                return Err(self.type_err(
                                    first.span.start,
                                    "array index in initializer exceeds array bounds",
                                ));
                            }
                        }
                        if hi - lo > 1 << 24 {
                            return Err(self.unsupported(first.span.start, "huge range designator"));
                        }
                        for k in lo..=hi {
                            self.designated(
                                elem,
                                off + k * esize,
                                &rest,
                                &item.node.initializer,
                                out,
                            )?;
                        }
                        idx = hi + 1;
                        max = max.max(idx);
                        i += 1;
                        continue;
                    }
                    if let Some(n) = len {
                        if idx >= *n {
                            // Excess elements: gcc warns and ignores them.
                            break;
                        }
                    }
                    self.elem_init(elem, off + idx * esize, items, &mut i, out)?;
                    idx += 1;
                    max = max.max(idx);
                }
                Ok(CType::Array(elem.clone(), Some(len.unwrap_or(max))))
            }
            CType::Record(r) => {
                if let Some(p) = self.layout_problem(ty) {
                    return Err(p);
                }
                let rec = self.types.record(*r).clone();
                if !rec.complete {
                    return Err(self.type_err(
                        items.first().map(|i| i.span.start).unwrap_or(0),
                        format!("initializing incomplete type '{}'", self.types.show(ty)),
                    ));
                }
                let union = rec.kind == crate::types::RecordKind::Union;
                let (mut fi, mut i) = (0usize, 0usize);
                while i < items.len() {
                    let item = &items[i];
                    if let Some(first) = item.node.designation.first() {
                        let Designator::Member(name) = &first.node else {
                            return Err(self.type_err(
                                first.span.start,
                                "array designator in a struct initializer",
                            ));
                        };
                        let name = &name.node.name;
                        let rest: Vec<&'a Node<Designator>> =
                            item.node.designation.iter().skip(1).collect();
                        // A member of this record, or one found through an anonymous member.
                        let direct = rec
                            .fields
                            .iter()
                            .position(|f| f.name.as_deref() == Some(name));
                        match direct {
                            Some(k) => {
                                let f = &rec.fields[k];
                                self.designated(
                                    &f.ty,
                                    off + f.offset,
                                    &rest,
                                    &item.node.initializer,
                                    out,
                                )?;
                                fi = k + 1;
                            }
                            None => {
                                let Some((o, t)) = self.types.find_member(*r, name) else {
                                    return Err(self.type_err(
                                        first.span.start,
                                        format!(
                                            "no member named '{name}' in '{}'",
                                            self.types.show(ty)
                                        ),
                                    ));
                                };
                                self.designated(&t, off + o, &rest, &item.node.initializer, out)?;
                                fi = rec
                                    .fields
                                    .iter()
                                    .position(|f| f.name.is_none() && f.offset <= o)
                                    .map(|k| k + 1)
                                    .unwrap_or(rec.fields.len());
                            }
                        }
                        if union {
                            fi = rec.fields.len();
                        }
                        i += 1;
                        continue;
                    }
                    if fi >= rec.fields.len() {
                        break;
                    }
                    let f = rec.fields[fi].clone();
                    self.elem_init(&f.ty, off + f.offset, items, &mut i, out)?;
                    fi = if union { rec.fields.len() } else { fi + 1 };
                }
                Ok(ty.clone())
            }
            _ => {
                // Braces around a scalar: the first item initialises it.
                if let Some(item) = items.first() {
                    if !item.node.designation.is_empty() {
                        return Err(self.type_err(item.span.start, "designator for a scalar"));
                    }
                    let mut i = 0;
                    self.elem_init(ty, off, &items[..1], &mut i, out)?;
                }
                Ok(ty.clone())
            }
        }
    }

    /// Initialises the sub-object of type `ty` at `off` from `items[*i]` (and, by brace
    /// elision, the items after it).
    fn elem_init(
        &mut self,
        ty: &CType,
        off: u64,
        items: &'a [Node<InitializerListItem>],
        i: &mut usize,
        out: &mut Vec<Leaf<'a>>,
    ) -> R<()> {
        let item = &items[*i];
        match &item.node.initializer.node {
            Initializer::List(sub) => {
                self.braced(ty, off, sub, out)?;
                *i += 1;
            }
            Initializer::Expression(e) => {
                let aggregate = matches!(ty, CType::Array(..) | CType::Record(_));
                let whole = match ty {
                    CType::Array(..) => {
                        string_expr(e).is_some()
                            && (is_char_array(ty) || is_wide_array(ty).is_some())
                    }
                    CType::Record(_) => {
                        let et = self.expr_type(e)?;
                        self.types.same_type(&et, ty)
                    }
                    _ => true,
                };
                if aggregate && !whole {
                    self.unbraced(ty, off, items, i, out)?;
                } else {
                    self.leaf_expr(ty, off, e, out)?;
                    *i += 1;
                }
            }
        }
        Ok(())
    }

    /// Brace elision: the items from `*i` on initialise the aggregate `ty` at `off`, element
    /// by element, until it is full or a designator starts.
    fn unbraced(
        &mut self,
        ty: &CType,
        off: u64,
        items: &'a [Node<InitializerListItem>],
        i: &mut usize,
        out: &mut Vec<Leaf<'a>>,
    ) -> R<()> {
        let at = items.get(*i).map(|x| x.span.start).unwrap_or(0);
        match ty {
            CType::Array(elem, Some(n)) => {
                let esize = self.size_of(elem, at)?;
                for k in 0..*n {
                    if *i >= items.len() || !items[*i].node.designation.is_empty() {
                        break;
                    }
                    self.elem_init(elem, off + k * esize, items, i, out)?;
                }
                Ok(())
            }
            CType::Array(_, None) => {
                Err(self.unsupported(at, "initializing a flexible array member"))
            }
            CType::Record(r) => {
                if let Some(p) = self.layout_problem(ty) {
                    return Err(p);
                }
                let rec = self.types.record(*r).clone();
                let union = rec.kind == crate::types::RecordKind::Union;
                for f in &rec.fields {
                    if *i >= items.len() || !items[*i].node.designation.is_empty() {
                        break;
                    }
                    self.elem_init(&f.ty, off + f.offset, items, i, out)?;
                    if union {
                        break;
                    }
                }
                Ok(())
            }
            _ => Err(self.internal(at, "brace elision for a scalar")),
        }
    }

    /// Applies the rest of a designator path, then the initialiser, to the sub-object of
    /// type `ty` at `off`.
    fn designated(
        &mut self,
        ty: &CType,
        off: u64,
        desigs: &[&'a Node<Designator>],
        init: &'a Node<Initializer>,
        out: &mut Vec<Leaf<'a>>,
    ) -> R<()> {
        let Some((first, rest)) = desigs.split_first() else {
            match &init.node {
                Initializer::List(sub) => {
                    self.braced(ty, off, sub, out)?;
                }
                Initializer::Expression(e) => {
                    let whole = match ty {
                        CType::Array(..) => string_expr(e).is_some(),
                        CType::Record(_) => self.has_type(e, ty)?,
                        _ => true,
                    };
                    if whole {
                        self.leaf_expr(ty, off, e, out)?;
                    } else {
                        // `.s = 1` for a struct member: initialises its first scalar.
                        let (o, t) = self.first_scalar(ty, e.span.start)?;
                        self.leaf_expr(&t, off + o, e, out)?;
                    }
                }
            }
            return Ok(());
        };
        match (&first.node, ty) {
            (Designator::Index(e), CType::Array(elem, n)) => {
                let k = self.const_int(e)?.0;
                if n.is_some_and(|n| k >= n) {
                    return Err(self.type_err(
                        e.span.start,
                        "array index in initializer exceeds array bounds",
                    ));
                }
                let es = self.size_of(elem, e.span.start)?;
                self.designated(elem, off + k * es, rest, init, out)
            }
            (Designator::Range(r), CType::Array(elem, _)) => {
                let lo = self.const_int(&r.node.from)?.0;
                let hi = self.const_int(&r.node.to)?.0;
                let es = self.size_of(elem, r.span.start)?;
                if hi.saturating_sub(lo) > 1 << 24 {
                    return Err(self.unsupported(r.span.start, "huge range designator"));
                }
                for k in lo..=hi {
                    self.designated(elem, off + k * es, rest, init, out)?;
                }
                Ok(())
            }
            (Designator::Member(name), CType::Record(r)) => {
                let Some((o, t)) = self.types.find_member(*r, &name.node.name) else {
                    return Err(self.type_err(
                        name.span.start,
                        format!("no member named '{}'", name.node.name),
                    ));
                };
                self.designated(&t, off + o, rest, init, out)
            }
            _ => Err(self.type_err(first.span.start, "designator does not match the type")),
        }
    }

    /// Whether `e` has type `ty` (a statement expression is assumed to, and checked when it
    /// is evaluated).
    fn has_type(&mut self, e: &'a Node<Expression>, ty: &CType) -> R<bool> {
        match &e.node {
            Expression::Statement(_) => Ok(true),
            _ => {
                let et = self.expr_type(e)?;
                Ok(self.types.same_type(&et, ty))
            }
        }
    }

    /// The offset and type of the first scalar inside an aggregate.
    fn first_scalar(&mut self, ty: &CType, at: usize) -> R<(u64, CType)> {
        match ty {
            CType::Array(e, _) => self.first_scalar(e, at),
            CType::Record(r) => {
                let f = self.types.record(*r).fields.first().cloned();
                match f {
                    Some(f) => {
                        let (o, t) = self.first_scalar(&f.ty, at)?;
                        Ok((f.offset + o, t))
                    }
                    None => Err(self.type_err(at, "initializing an empty struct")),
                }
            }
            t => Ok((0, t.clone())),
        }
    }

    // ---- locals ----

    /// Initialises memory at `addr` (an object of type `ty`, already complete) from leaves:
    /// aggregates are zeroed first.
    pub fn init_memory(
        &mut self,
        addr: &Expr,
        ty: &CType,
        leaves: Vec<Leaf<'a>>,
        at: usize,
    ) -> R<()> {
        let ptr = self.ptr_ty();
        // One leaf covering the whole object (a struct copy, a string filling its array)
        // needs no zeroing first.
        let covered = match leaves.as_slice() {
            [leaf] if leaf.offset == 0 => match &leaf.init {
                LeafInit::Bytes(b) => Some(b.len() as u64) == self.types.size_of(ty),
                LeafInit::Expr(_) => leaf.ty.is_record() && self.types.same_type(&leaf.ty, ty),
            },
            _ => false,
        };
        if !ty.is_scalar() && !covered {
            let size = self.size_of(ty, at)?;
            let len = Expr::konst(ptr, size);
            self.check_range(addr, &len, at)?;
            self.emit(
                Op::MemSet {
                    dst: addr.clone(),
                    byte: Expr::int(8, 0),
                    len,
                },
                at,
            )?;
        }
        for leaf in leaves {
            let dst = super::fold::bin(BinOp::Add, addr.clone(), Expr::konst(ptr, leaf.offset));
            match leaf.init {
                LeafInit::Bytes(bytes) => {
                    let n = bytes.len() as u64;
                    if n == 0 {
                        continue;
                    }
                    let obj = self.string_object(bytes, leaf.at);
                    self.copy_bytes(dst, Expr::ObjAddr(obj), n, leaf.at)?;
                }
                LeafInit::Expr(e) => {
                    if leaf.ty.is_record() {
                        let v = self.rvalue(e)?;
                        if !self.types.same_type(&v.ty, &leaf.ty) {
                            return Err(self.type_err(
                                leaf.at,
                                format!(
                                    "initializing '{}' with an expression of type '{}'",
                                    self.types.show(&leaf.ty),
                                    self.types.show(&v.ty)
                                ),
                            ));
                        }
                        let size = self.size_of(&leaf.ty, leaf.at)?;
                        self.copy_bytes(dst, v.e, size, leaf.at)?;
                    } else {
                        let v = self.rvalue(e)?;
                        let v = self.convert(v, &leaf.ty, leaf.at)?;
                        let lv = LVal {
                            place: Place::Mem(dst),
                            ty: leaf.ty.clone(),
                        };
                        self.write(&lv, v, leaf.at)?;
                    }
                }
            }
        }
        Ok(())
    }

    // ---- static storage ----

    /// The static contents of an object from leaves (evaluated as constants).
    pub fn static_items(&mut self, leaves: Vec<Leaf<'a>>) -> R<Vec<InitItem>> {
        let mut items = Vec::new();
        // Bit-fields share bytes (only with each other): their bits are merged per byte, and
        // the bytes written last.
        let mut bits: std::collections::BTreeMap<u64, u8> = std::collections::BTreeMap::new();
        for leaf in leaves {
            if let (CType::Bits(b), LeafInit::Expr(e)) = (&leaf.ty, &leaf.init) {
                let v = self.const_scalar(e, &CType::Int(b.kind))?;
                let Some(v) = v.as_const() else {
                    return Err(
                        self.type_err(leaf.at, "initializer element is not a constant expression")
                    );
                };
                for i in 0..b.width as u64 {
                    let pos = b.shift as u64 + i;
                    let byte = bits.entry(leaf.offset + pos / 8).or_insert(0);
                    let m = 1u8 << (pos % 8);
                    let set = i < 64 && (v >> i) & 1 == 1;
                    *byte = if set { *byte | m } else { *byte & !m };
                }
                continue;
            }
            match leaf.init {
                LeafInit::Bytes(bytes) => items.push(InitItem::Bytes {
                    offset: leaf.offset,
                    bytes,
                }),
                LeafInit::Expr(e) => {
                    if leaf.ty.is_record() {
                        return Err(self.type_err(
                            leaf.at,
                            "initializer element is not a constant expression",
                        ));
                    }
                    let v = self.const_scalar(e, &leaf.ty)?;
                    let ty = self.irty(&leaf.ty, leaf.at)?;
                    let (_, v) = super::fold::store_form(ty, v);
                    items.push(InitItem::Value {
                        offset: leaf.offset,
                        value: v,
                    });
                }
            }
        }
        for (offset, byte) in bits {
            items.push(InitItem::Bytes {
                offset,
                bytes: vec![byte],
            });
        }
        Ok(items)
    }

    /// The type of a file-scope or static variable, an array's length completed from its
    /// initialiser (`int a[] = {1, 2}`) without creating its storage.
    pub fn global_type(&mut self, i: usize) -> R<CType> {
        let ty = self.globals[i].ty.clone()?;
        if let (CType::Array(_, None), Some(init)) = (&ty, self.globals[i].init) {
            let file_scope = self.globals[i].file_scope;
            if file_scope {
                self.file_scope_only += 1;
            }
            let mut leaves = Vec::new();
            let r = self.flatten_init(&ty, init, &mut leaves);
            if file_scope {
                self.file_scope_only -= 1;
            }
            let full = r?;
            self.globals[i].ty = Ok(full.clone());
            return Ok(full);
        }
        Ok(ty)
    }

    /// Creates the storage of a file-scope or static variable on first use.
    pub fn materialize_global(&mut self, i: usize) -> R<GStorage> {
        if let Some(s) = self.globals[i].storage {
            return Ok(s);
        }
        // Another unit's declaration holds the storage: made there, from its definition.
        if let Some(d) = self.globals[i].link {
            let u = self.globals[d].unit;
            let s = self.in_unit(u, |cx| cx.materialize_global(d))?;
            self.globals[i].storage = Some(s);
            return Ok(s);
        }
        let mut ty = self.globals[i].ty.clone()?;
        let goff = self.globals[i].offset;
        if let Some(p) = self.layout_problem(&ty) {
            return Err(p);
        }
        let file_scope = self.globals[i].file_scope;
        let init = self.globals[i].init;
        let defined = self.globals[i].defined;
        let name = self.globals[i].name.clone();
        let span = self.span(goff);
        if file_scope {
            self.file_scope_only += 1;
        }
        let r = (|| {
            let in_mem =
                !ty.is_scalar() || self.global_addr_taken.contains(&self.globals[i].c_name);
            let mut leaves = Vec::new();
            if let Some(init) = init {
                ty = self.flatten_init(&ty, init, &mut leaves)?;
                self.globals[i].ty = Ok(ty.clone());
            }
            if in_mem {
                let size = self.size_of(&ty, goff)?;
                if size > self.program.layout.max_object_size() {
                    return Err(self.unsupported(
                        goff,
                        format!("object of {size} bytes (larger than the memory model allows)"),
                    ));
                }
                let id = self.program.add_object(Object {
                    name: name.clone(),
                    size,
                    readonly: false,
                    zeroed: defined,
                    init: Vec::new(),
                    span,
                });
                self.globals[i].storage = Some(GStorage::Obj(id));
                let dt = self.shown_type(&ty, self.globals[i].shown_enum);
                self.program.debug_types.objects.insert(id.0, dt);
                self.const_depth += 1;
                let items = self.static_items(leaves);
                self.const_depth -= 1;
                let items = items?;
                if let Some(o) = self.program.objects.get_mut(id.index() - 1) {
                    o.init = items;
                }
                Ok(GStorage::Obj(id))
            } else {
                let t = self.irty(&ty, goff)?;
                let gid = self.program.add_global(Global {
                    name: name.clone(),
                    ty: t,
                    unsigned: ty.is_unsigned_int(),
                    init: defined.then(|| Expr::konst(t, 0)),
                    span,
                });
                self.globals[i].storage = Some(GStorage::Var(gid));
                let dt = self.shown_type(&ty, self.globals[i].shown_enum);
                self.program.debug_types.globals.insert(gid.0, dt);
                if let Some(leaf) = leaves.into_iter().next() {
                    if let LeafInit::Expr(e) = leaf.init {
                        let v = self.const_scalar(e, &ty)?;
                        self.program.globals[gid.index()].init = Some(v);
                    }
                }
                Ok(GStorage::Var(gid))
            }
        })();
        if file_scope {
            self.file_scope_only -= 1;
        }
        r
    }

    // ---- compound literals ----

    pub fn compound_literal(&mut self, cl: &'a Node<CompoundLiteral>) -> R<Val> {
        let at = cl.span.start;
        let ty = self.type_name(&cl.node.type_name)?;
        let mut leaves = Vec::new();
        let ty = self.braced(&ty, 0, &cl.node.initializer_list, &mut leaves)?;
        let size = self.size_of(&ty, at)?;
        let n = self.lit_counter;
        self.lit_counter += 1;
        let name = format!("lit.{n}");
        if self.in_function() {
            let ptr = self.ptr_ty();
            let span = self.span(at);
            let fs = self.fs(at)?;
            let p = fs.b.stack_object_exact(&name, size, ptr, span);
            fs.stack_sizes.insert(p, size);
            let addr = Expr::local(p);
            self.init_memory(&addr, &ty, leaves, at)?;
            Ok(Val::L(LVal {
                place: Place::Mem(addr),
                ty,
            }))
        } else {
            let span = self.span(at);
            let id = self.program.add_object(Object {
                name,
                size,
                readonly: false,
                zeroed: true,
                init: Vec::new(),
                span,
            });
            let items = self.static_items(leaves)?;
            if let Some(o) = self.program.objects.get_mut(id.index() - 1) {
                o.init = items;
            }
            Ok(Val::L(LVal {
                place: Place::Mem(Expr::ObjAddr(id)),
                ty,
            }))
        }
    }
}
