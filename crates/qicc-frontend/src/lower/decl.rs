//! Declarations: from declaration specifiers and declarators to C types; struct, union and
//! enum definitions; typedefs; and the file-scope pass that records every file-scope
//! variable and function before any function body is lowered.
//!
//! Invariant: problems in declarations that reachable code may never use (a prototype with a
//! `double` parameter, a struct with an unsupported member in a header) are recorded with the declared
//! entity and reported only when reachable code uses it.

use super::expr::RVal;
use super::scope::{Sym, Tag, VarId};
use super::{fold, Ctx, FuncInfo, GlobalVar, R};
use crate::types::{CType, FieldDecl, FuncType, IntKind, RecordKind};
use lang_c::ast::*;
use lang_c::span::Node;
use qicc_ir::{BinOp, Expr, Op, Ty, UbKind, VarRef};
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    None,
    Typedef,
    Extern,
    Static,
    Auto,
    Register,
}

/// The name a declarator declares.
pub fn declarator_name(d: &Declarator) -> Option<&str> {
    match &d.kind.node {
        DeclaratorKind::Abstract => None,
        DeclaratorKind::Identifier(id) => Some(&id.node.name),
        DeclaratorKind::Declarator(inner) => declarator_name(&inner.node),
    }
}

/// Byte offset of the name a declarator declares (or of the declarator).
pub fn declarator_offset(d: &Node<Declarator>) -> usize {
    match &d.node.kind.node {
        DeclaratorKind::Identifier(id) => id.span.start,
        DeclaratorKind::Declarator(inner) => declarator_offset(inner),
        DeclaratorKind::Abstract => d.span.start,
    }
}

/// Attributes found among specifiers and declarator extensions that change a type.
#[derive(Default, Clone, Copy)]
struct Attrs {
    packed: bool,
    aligned: u64,
    /// `__attribute__((mode(..)))`: the integer size in bytes.
    mode: Option<u64>,
    /// Where `__attribute__((vector_size(N)))` makes a GCC vector type (unsupported).
    vector_at: Option<usize>,
}

/// The layout attributes of `((packed, aligned(8)))`-style text (the attributes written
/// between `struct` and the tag): `packed`, `aligned(N)` (a decimal or hex constant; plain
/// `aligned` is the largest alignment, 16). Others (`may_alias`, …) change no layout. An
/// `aligned` argument that is no number is returned as the error.
fn record_attributes_from_text(text: &str, attrs: &mut Attrs) -> Result<(), String> {
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    for (i, w) in words.iter().enumerate() {
        match w.trim_matches('_') {
            "packed" => attrs.packed = true,
            "aligned" => {
                let rest = text.split(w).nth(1).unwrap_or("").trim_start();
                let n = if rest.starts_with('(') {
                    let v = words.get(i + 1).copied().unwrap_or("");
                    let n = v
                        .strip_prefix("0x")
                        .map(|h| u64::from_str_radix(h, 16).ok())
                        .unwrap_or_else(|| v.parse().ok());
                    match n {
                        Some(n)
                            if rest[1..]
                                .trim_start()
                                .strip_prefix(v)
                                .is_some_and(|a| a.trim_start().starts_with(')')) =>
                        {
                            n
                        }
                        _ => {
                            return Err(format!("aligned{}", rest.split(')').next().unwrap_or("")))
                        }
                    }
                } else {
                    16
                };
                attrs.aligned = attrs.aligned.max(n);
            }
            _ => {}
        }
    }
    Ok(())
}

/// Whether any of the extensions is `__attribute__((name))` for one of `names`.
pub fn has_attribute(exts: &[Node<Extension>], names: &[&str]) -> bool {
    exts.iter().any(|e| match &e.node {
        Extension::Attribute(a) => names.contains(&a.name.node.trim_matches('_')),
        _ => false,
    })
}

/// Whether declaration specifiers carry one of the attributes.
pub fn specs_have_attribute(specs: &[Node<DeclarationSpecifier>], names: &[&str]) -> bool {
    specs.iter().any(|s| match &s.node {
        DeclarationSpecifier::Extension(exts) => has_attribute(exts, names),
        _ => false,
    })
}

/// Attributes declaring that a function writes nothing (gcc's `const`: reads nothing either;
/// `pure`: may read memory and globals).
const SIDE_EFFECT_FREE: &[&str] = &["const", "pure"];

/// Attributes that make gcc run a function outside of `main`'s calls.
const RUNS_OUTSIDE_MAIN: &[&str] = &["constructor", "destructor"];

/// One parameter of a function declarator.
pub struct Param {
    pub name: Option<String>,
    pub ty: CType,
    pub offset: usize,
    /// Declared with an enumerated type: shown by its enumerators' names.
    pub shown_enum: Option<u32>,
}

/// The enumerated type a declarator's variable shows its values by: the specifiers' (`spec`)
/// when the declarator adds nothing to their type (`enum color c`, not `enum color *p`).
pub fn declared_enum(spec: Option<u32>, d: &Declarator) -> Option<u32> {
    spec.filter(|_| d.derived.is_empty() && matches!(d.kind.node, DeclaratorKind::Identifier(_)))
}

impl<'a> Ctx<'a> {
    fn attrs_of(&mut self, exts: &'a [Node<Extension>], attrs: &mut Attrs) {
        for e in exts {
            if let Extension::Attribute(a) = &e.node {
                let name = a.name.node.trim_matches('_');
                match name {
                    "packed" => attrs.packed = true,
                    "vector_size" => attrs.vector_at = Some(e.span.start),
                    "aligned" => {
                        let n = a
                            .arguments
                            .first()
                            .and_then(|x| self.const_int(x).ok())
                            .map(|(v, _)| v)
                            .unwrap_or(16);
                        attrs.aligned = attrs.aligned.max(n);
                    }
                    "mode" => {
                        if let Some(Expression::Identifier(id)) =
                            a.arguments.first().map(|x| &x.node)
                        {
                            let ptr = self.types.ptr_bytes();
                            attrs.mode = match id.node.name.trim_matches('_') {
                                "QI" | "byte" => Some(1),
                                "HI" => Some(2),
                                "SI" => Some(4),
                                "DI" => Some(8),
                                "word" | "pointer" => Some(ptr),
                                _ => None,
                            };
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    fn apply_mode(&self, ty: CType, attrs: Attrs) -> R<CType> {
        if let Some(at) = attrs.vector_at {
            return Err(self.unsupported(at, "vector types (__attribute__((vector_size)))"));
        }
        Ok(match (attrs.mode, &ty) {
            (Some(size), CType::Int(k)) => {
                let signed = k.is_signed();
                let kind = match size {
                    1 => IntKind::SChar,
                    2 => IntKind::Short,
                    4 => IntKind::Int,
                    _ => IntKind::LongLong,
                };
                CType::Int(if signed { kind } else { kind.to_unsigned() })
            }
            _ => ty,
        })
    }

    /// The base type and storage class of declaration specifiers.
    pub fn decl_specs(&mut self, specs: &'a [Node<DeclarationSpecifier>]) -> R<(CType, Storage)> {
        let mut storage = Storage::None;
        let mut tss = Vec::new();
        let mut attrs = Attrs::default();
        for s in specs {
            match &s.node {
                DeclarationSpecifier::StorageClass(sc) => {
                    storage = match sc.node {
                        StorageClassSpecifier::Typedef => Storage::Typedef,
                        StorageClassSpecifier::Extern => Storage::Extern,
                        StorageClassSpecifier::Static => Storage::Static,
                        StorageClassSpecifier::Auto => Storage::Auto,
                        StorageClassSpecifier::Register => Storage::Register,
                        StorageClassSpecifier::ThreadLocal => {
                            return Err(self.unsupported(sc.span.start, "thread-local storage"))
                        }
                    }
                }
                DeclarationSpecifier::TypeSpecifier(ts) => tss.push(ts),
                DeclarationSpecifier::Extension(exts) => self.attrs_of(exts, &mut attrs),
                DeclarationSpecifier::TypeQualifier(_)
                | DeclarationSpecifier::Function(_)
                | DeclarationSpecifier::Alignment(_) => {}
            }
        }
        let ty = self.base_type(&tss, attrs)?;
        Ok((self.apply_mode(ty, attrs)?, storage))
    }

    /// The type of specifier-qualifier lists (type names, struct members).
    pub fn sq_type(&mut self, specs: &'a [Node<SpecifierQualifier>]) -> R<CType> {
        let mut tss = Vec::new();
        let mut attrs = Attrs::default();
        for s in specs {
            match &s.node {
                SpecifierQualifier::TypeSpecifier(ts) => tss.push(ts),
                SpecifierQualifier::Extension(exts) => self.attrs_of(exts, &mut attrs),
                SpecifierQualifier::TypeQualifier(_) => {}
            }
        }
        let ty = self.base_type(&tss, attrs)?;
        self.apply_mode(ty, attrs)
    }

    fn base_type(&mut self, tss: &[&'a Node<TypeSpecifier>], attrs: Attrs) -> R<CType> {
        let (mut void, mut chr, mut short, mut long) = (0, 0, 0, 0);
        let (mut float, mut double, mut signed, mut unsigned, mut boolean) = (0, 0, 0, 0, 0);
        let mut other: Option<CType> = None;
        let mut shown_enum = None;
        for ts in tss {
            match &ts.node {
                TypeSpecifier::Void => void += 1,
                TypeSpecifier::Char => chr += 1,
                TypeSpecifier::Short => short += 1,
                // `int` only confirms what the other specifiers say.
                TypeSpecifier::Int => {}
                TypeSpecifier::Long => long += 1,
                TypeSpecifier::Float => float += 1,
                TypeSpecifier::Double => double += 1,
                TypeSpecifier::Signed => signed += 1,
                TypeSpecifier::Unsigned => unsigned += 1,
                TypeSpecifier::Bool => boolean += 1,
                TypeSpecifier::Complex => {
                    return Err(self.unsupported(ts.span.start, "complex numbers (_Complex)"))
                }
                TypeSpecifier::TS18661Float(_) => {
                    return Err(self.unsupported(ts.span.start, "floating point (_FloatN)"))
                }
                TypeSpecifier::Atomic(tn) => other = Some(self.type_name(tn)?),
                TypeSpecifier::Struct(st) => other = Some(self.record_type(st, attrs)?),
                TypeSpecifier::Enum(et) => {
                    let (t, e) = self.enum_type(et)?;
                    other = Some(t);
                    shown_enum = e;
                }
                TypeSpecifier::TypedefName(id) => {
                    let (t, e) = self.typedef_type(&id.node.name, id.span.start)?;
                    other = Some(t);
                    shown_enum = e;
                }
                TypeSpecifier::TypeOf(t) => {
                    other = Some(match &t.node {
                        TypeOf::Type(tn) => self.type_name(tn)?,
                        TypeOf::Expression(e) => self.expr_type(e)?,
                    })
                }
            }
        }
        // Set last: the specifiers' own nested types (a struct's members) set it before.
        self.spec_enum = shown_enum.filter(|_| other.is_some());
        if let Some(t) = other {
            return Ok(t);
        }
        use IntKind::*;
        let k = if void > 0 {
            return Ok(CType::Void);
        } else if boolean > 0 {
            Bool
        } else if float > 0 {
            return Ok(CType::Float(crate::types::FloatKind::Float));
        } else if double > 0 {
            return Ok(CType::Float(if long > 0 {
                crate::types::FloatKind::LongDouble
            } else {
                crate::types::FloatKind::Double
            }));
        } else if chr > 0 {
            if signed > 0 {
                SChar
            } else if unsigned > 0 {
                UChar
            } else {
                Char
            }
        } else if short > 0 {
            if unsigned > 0 {
                UShort
            } else {
                Short
            }
        } else if long >= 2 {
            if unsigned > 0 {
                ULongLong
            } else {
                LongLong
            }
        } else if long == 1 {
            if unsigned > 0 {
                ULong
            } else {
                Long
            }
        } else if unsigned > 0 {
            UInt
        } else {
            // `int`, `signed`, or no type specifier at all (implicit int).
            Int
        };
        Ok(CType::Int(k))
    }

    /// A typedef name's type and the enumerated type it names, if any.
    fn typedef_type(&mut self, name: &str, at: usize) -> R<(CType, Option<u32>)> {
        match self.lookup(name) {
            Some(Sym::Typedef(t, e)) => Ok((t.clone()?, *e)),
            _ if name == "__builtin_va_list" => Ok((CType::ptr(CType::Void), None)),
            _ => Err(self.type_err(at, format!("unknown type name '{name}'"))),
        }
    }

    /// Name lookup honouring file-scope-only evaluation of file-scope initialisers.
    pub fn lookup(&self, name: &str) -> Option<&Sym> {
        if self.file_scope_only > 0 {
            self.scopes.lookup_file(name)
        } else {
            self.scopes.lookup(name)
        }
    }

    pub fn type_name(&mut self, tn: &'a Node<TypeName>) -> R<CType> {
        let base = self.sq_type(&tn.node.specifiers)?;
        match &tn.node.declarator {
            Some(d) => self.declarator_type(base, d, false),
            None => Ok(base),
        }
    }

    /// Applies a declarator to a base type (pointers bind looser than array and function
    /// suffixes; suffixes apply right to left). `param`: an array type of the declarator
    /// itself becomes a pointer (its size is not evaluated).
    pub fn declarator_type(
        &mut self,
        base: CType,
        d: &'a Node<Declarator>,
        param: bool,
    ) -> R<CType> {
        let mut ty = base;
        let mut suffixes = Vec::new();
        for dd in &d.node.derived {
            match &dd.node {
                DerivedDeclarator::Pointer(_) => ty = CType::ptr(ty),
                DerivedDeclarator::Block(_) => {
                    return Err(self.unsupported(dd.span.start, "blocks (clang extension)"))
                }
                _ => suffixes.push(dd),
            }
        }
        let is_outermost = |i: usize| i == 0;
        let nested = matches!(d.node.kind.node, DeclaratorKind::Declarator(_));
        for (i, dd) in suffixes.iter().enumerate().rev() {
            ty = match &dd.node {
                DerivedDeclarator::Array(ad) => {
                    if param && is_outermost(i) && !nested {
                        CType::ptr(ty)
                    } else {
                        if ty.is_func() {
                            return Err(self.type_err(ad.span.start, "array of functions"));
                        }
                        match &ad.node.size {
                            ArraySize::Unknown => CType::Array(Rc::new(ty), None),
                            // `[*]`: only in a prototype, where nothing is evaluated.
                            ArraySize::VariableUnknown if self.vla_unevaluated > 0 => {
                                CType::Array(Rc::new(ty), None)
                            }
                            ArraySize::VariableUnknown => {
                                return Err(self.type_err(
                                    ad.span.start,
                                    "'[*]' not allowed outside a function prototype",
                                ))
                            }
                            ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                                self.array_of(ty, e)?
                            }
                        }
                    }
                }
                DerivedDeclarator::Function(fd) => {
                    let params = self.params(fd)?;
                    let variadic = fd.node.ellipsis == Ellipsis::Some;
                    let prototyped = true;
                    CType::Func(Rc::new(FuncType {
                        ret: ty,
                        params: params.into_iter().map(|p| p.ty).collect(),
                        variadic,
                        prototyped,
                    }))
                }
                DerivedDeclarator::KRFunction(_) => CType::Func(Rc::new(FuncType {
                    ret: ty,
                    // Filled from the K&R declarations for definitions.
                    params: Vec::new(),
                    variadic: false,
                    // `int f()` and K&R definitions carry no parameter types for callers.
                    prototyped: false,
                })),
                DerivedDeclarator::Pointer(_) | DerivedDeclarator::Block(_) => ty,
            };
        }
        let mut attrs = Attrs::default();
        self.attrs_of(&d.node.extensions, &mut attrs);
        let ty = self.apply_mode(ty, attrs)?;
        match &d.node.kind.node {
            DeclaratorKind::Declarator(inner) => self.declarator_type(ty, inner, param),
            _ => Ok(ty),
        }
    }

    /// The array type `elem[e]`: of constant length when `e` is a constant expression and
    /// `elem` has a constant size; else a variable-length array, whose size is computed here
    /// (inside a function; a prototype's parameters leave it incomplete).
    fn array_of(&mut self, elem: CType, e: &'a Node<Expression>) -> R<CType> {
        let at = e.span.start;
        let len = match self.const_int(e) {
            Ok((v, t)) => {
                if t.is_signed_int() && (v as i64) < 0 {
                    return Err(self.type_err(at, "array size is negative"));
                }
                if !elem.is_vla() {
                    return Ok(CType::Array(Rc::new(elem), Some(v)));
                }
                let ty = self.types.size_t();
                let irty = self.irty(&ty, at)?;
                RVal {
                    e: Expr::konst(irty, v),
                    ty,
                }
            }
            Err(d) if d.kind == crate::diag::DiagKind::Type => {
                if self.vla_unevaluated > 0 {
                    return Ok(CType::Array(Rc::new(elem), None));
                }
                if !self.in_function() {
                    return Err(self.unsupported(
                        at,
                        "variable-length arrays outside a function (array size is not a constant)",
                    ));
                }
                self.rvalue(e)?
            }
            Err(d) => return Err(d),
        };
        if self.vla_unevaluated > 0 {
            return Ok(CType::Array(Rc::new(elem), None));
        }
        if !self.in_function() {
            return Err(self.unsupported(at, "variable-length arrays outside a function"));
        }
        self.runtime_array(elem, len, at)
    }

    /// The variable-length array type `elem[n]`: checks that `n` is positive (C99 6.7.6.2p5)
    /// and that the size `n * sizeof(elem)` fits the memory model's largest object
    /// ([`qicc_ir::MemoryLayout::max_object_size`]: 2^24 - 1 bytes on ILP32, 2^48 - 1 on
    /// LP64; beyond is `alloc-too-large`, even for a type no object is created of, since no
    /// object of it can exist in the model), then stores the size in a fresh local.
    pub fn runtime_array(&mut self, elem: CType, n: RVal, at: usize) -> R<CType> {
        let signed = match &n.ty {
            CType::Int(k) => k.is_signed(),
            _ => return Err(self.type_err(at, "size of array has non-integer type")),
        };
        let tn = self.irty(&n.ty, at)?;
        let ptr = self.ptr_ty();
        let zero = Expr::konst(tn, 0);
        let positive = if signed {
            fold::bin(BinOp::Slt, zero, n.e.clone())
        } else {
            fold::bin(BinOp::Ne, n.e.clone(), zero)
        };
        self.check(positive, UbKind::VlaSize, at)?;
        // Positive now, so zero extension keeps the value; at least pointer-wide, so the
        // bound below and the product of two values within it do not wrap.
        let wide = Ty::Int(tn.bits().max(ptr.bits()));
        let count = fold::resize(n.e, tn, wide, false);
        let esize = fold::resize(self.size_expr(&elem, at)?, ptr, wide, false);
        let max = Expr::konst(wide, self.program.layout.max_object_size());
        // An element size of 0 (a GNU empty struct) divides to all ones: no bound.
        let bound = fold::bin(BinOp::UDiv, max, esize.clone());
        self.check(
            fold::bin(BinOp::Ule, count.clone(), bound),
            UbKind::AllocTooLarge,
            at,
        )?;
        let total = fold::resize(fold::bin(BinOp::Mul, count, esize), wide, ptr, false);
        let span = self.span(at);
        let fs = self.fs(at)?;
        fs.b.span = span;
        let size = fs.b.add_named_local("vla.size", ptr);
        fs.b.mark_stable(size);
        fs.b.emit(Op::Assign(VarRef::Local(size), total));
        Ok(CType::Vla(Rc::new(elem), size))
    }

    /// The parameters of a prototype (`(void)` has none); arrays and functions decay.
    pub fn params(&mut self, fd: &'a Node<FunctionDeclarator>) -> R<Vec<Param>> {
        let mut out = Vec::new();
        self.scopes.push();
        self.vla_unevaluated += 1;
        let r = (|| {
            for p in &fd.node.parameters {
                let (base, _) = self.decl_specs(&p.node.specifiers)?;
                let spec_enum = self.spec_enum.take();
                let (name, ty, offset, shown_enum) = match &p.node.declarator {
                    Some(d) => (
                        declarator_name(&d.node).map(str::to_string),
                        self.declarator_type(base, d, true)?,
                        declarator_offset(d),
                        declared_enum(spec_enum, &d.node),
                    ),
                    None => (None, base, p.span.start, None),
                };
                let ty = match ty {
                    CType::Func(_) => CType::ptr(ty),
                    CType::Array(e, _) => CType::Pointer(e),
                    t => t,
                };
                out.push(Param {
                    name,
                    ty,
                    offset,
                    shown_enum,
                });
            }
            Ok(())
        })();
        self.vla_unevaluated -= 1;
        self.scopes.pop();
        r?;
        if out.len() == 1 && out[0].ty.is_void() && out[0].name.is_none() {
            out.clear();
        }
        Ok(out)
    }

    /// The type of a function definition and its parameters (names included), honouring
    /// K&R parameter declarations.
    pub fn definition_signature(
        &mut self,
        fd: &'a Node<FunctionDefinition>,
    ) -> R<(Rc<FuncType>, Vec<Param>)> {
        let (base, _) = self.decl_specs(&fd.node.specifiers)?;
        let d = &fd.node.declarator;
        // The function suffix is the innermost declarator's last suffix: find it.
        let func_decl = find_function_suffix(&d.node)
            .ok_or_else(|| self.type_err(d.span.start, "function definition without parameters"))?;
        let ty = self.declarator_type(base, d, false)?;
        let CType::Func(ft) = ty else {
            return Err(self.type_err(d.span.start, "not a function"));
        };
        let params = match &func_decl.node {
            DerivedDeclarator::Function(f) => self.params(f)?,
            DerivedDeclarator::KRFunction(ids) => {
                let mut ps = Vec::new();
                for id in ids {
                    let mut ty = CType::INT;
                    for decl in &fd.node.declarations {
                        let (b, _) = self.decl_specs(&decl.node.specifiers)?;
                        for idecl in &decl.node.declarators {
                            if declarator_name(&idecl.node.declarator.node) == Some(&id.node.name) {
                                ty =
                                    self.declarator_type(b.clone(), &idecl.node.declarator, true)?;
                            }
                        }
                    }
                    let ty = match ty {
                        CType::Func(_) => CType::ptr(ty),
                        CType::Array(e, _) => CType::Pointer(e),
                        t => t,
                    };
                    ps.push(Param {
                        name: Some(id.node.name.clone()),
                        ty,
                        offset: id.span.start,
                        shown_enum: None,
                    });
                }
                ps
            }
            _ => Vec::new(),
        };
        let ft = Rc::new(FuncType {
            ret: ft.ret.clone(),
            params: params.iter().map(|p| p.ty.clone()).collect(),
            variadic: ft.variadic,
            prototyped: matches!(func_decl.node, DerivedDeclarator::Function(_)),
        });
        Ok((ft, params))
    }

    fn record_type(&mut self, st: &'a Node<StructType>, mut attrs: Attrs) -> R<CType> {
        // `struct __attribute__((packed)) S { … }`: the parser saw them blanked out.
        if let Some(text) = self
            .units
            .get(self.cur_unit)
            .and_then(|u| u.record_attrs)
            .and_then(|m| m.get(&st.span.start))
        {
            if let Err(a) = record_attributes_from_text(text, &mut attrs) {
                return Err(self.unsupported(
                    st.span.start,
                    format!(
                        "the attribute {a}) between struct and its tag (a number is understood)"
                    ),
                ));
            }
        }
        let kind = match st.node.kind.node {
            StructKind::Struct => RecordKind::Struct,
            StructKind::Union => RecordKind::Union,
        };
        let tag = st.node.identifier.as_ref().map(|i| i.node.name.clone());
        let Some(decls) = &st.node.declarations else {
            // A reference: the visible tag, or a new incomplete type.
            if let Some(t) = &tag {
                if let Some(Tag::Record(id)) = self.scopes.lookup_tag(t) {
                    return Ok(CType::Record(*id));
                }
                let id = self.types.new_record(kind, tag.clone());
                self.scopes.define_tag(t, Tag::Record(id));
                return Ok(CType::Record(id));
            }
            return Err(self.type_err(st.span.start, "anonymous struct without members"));
        };
        // A definition: complete a forward declaration of this scope, or a new type.
        let id = match &tag {
            Some(t) => match self.scopes.lookup_tag_here(t) {
                Some(Tag::Record(id)) if !self.types.record(*id).complete => *id,
                _ => {
                    let id = self.types.new_record(kind, tag.clone());
                    self.scopes.define_tag(t, Tag::Record(id));
                    id
                }
            },
            None => self.types.new_record(kind, None),
        };
        let mut fields = Vec::new();
        let mut bad = None;
        let mut attrs = attrs;
        for d in decls {
            let StructDeclaration::Field(f) = &d.node else {
                continue;
            };
            let base = match self.sq_type(&f.node.specifiers) {
                Ok(t) => t,
                Err(e) => {
                    bad.get_or_insert(e);
                    continue;
                }
            };
            let spec_enum = self.spec_enum.take();
            if f.node.declarators.is_empty() {
                // An anonymous struct or union member.
                fields.push(FieldDecl {
                    name: None,
                    ty: base,
                    shown_enum: None,
                    width: None,
                    align: 0,
                    packed: false,
                });
                continue;
            }
            for sd in &f.node.declarators {
                let mut fa = Attrs::default();
                let (name, ty, shown_enum) = match &sd.node.declarator {
                    Some(dn) => {
                        self.attrs_of(&dn.node.extensions, &mut fa);
                        match self.declarator_type(base.clone(), dn, false) {
                            Ok(t) => (
                                declarator_name(&dn.node).map(str::to_string),
                                t,
                                declared_enum(spec_enum, &dn.node),
                            ),
                            Err(e) => {
                                bad.get_or_insert(e);
                                continue;
                            }
                        }
                    }
                    None => (None, base.clone(), None),
                };
                let width = match &sd.node.bit_width {
                    Some(w) => match self.bit_width(&name, &ty, w) {
                        Ok(w) => Some(w),
                        Err(e) => {
                            bad.get_or_insert(e);
                            continue;
                        }
                    },
                    None => None,
                };
                fields.push(FieldDecl {
                    name,
                    ty,
                    shown_enum,
                    width,
                    align: fa.aligned,
                    packed: fa.packed,
                });
            }
        }
        // A member whose own layout is unusable makes this one unusable. (Floating-point
        // members have a size, so the layout is right; using them is what we reject.) A
        // member of incomplete type is an error, except a flexible array member last.
        let n = fields.len();
        for (k, f) in fields.iter().enumerate() {
            if let Some(e) = self.layout_problem(&f.ty) {
                bad.get_or_insert(e);
            }
            let flexible = k + 1 == n && matches!(f.ty, CType::Array(_, None));
            if self.types.size_of(&f.ty).is_none() && !flexible {
                bad.get_or_insert(self.type_err(
                    st.span.start,
                    format!(
                        "member '{}' has incomplete type '{}'",
                        f.name.as_deref().unwrap_or("<anonymous>"),
                        self.types.show(&f.ty)
                    ),
                ));
            }
        }
        if attrs.aligned == 0 {
            attrs.aligned = 1;
        }
        self.types
            .complete_record(id, fields, attrs.packed, attrs.aligned, bad);
        // Each bit-field is accessed through a window of bytes (see `types::bit_window`) that
        // must lie inside the record.
        let rec = self.types.record(id);
        let outside = rec.fields.iter().any(|f| match f.ty {
            CType::Bits(b) => {
                b.bytes > 8
                    || f.offset + b.bytes as u64 > rec.size
                    || b.shift + b.width > b.bytes * 8
            }
            _ => false,
        });
        if outside && rec.bad.is_none() {
            let d = self.unsupported(
                st.span.start,
                "a bit-field whose bytes span more than 8 (a packed 64-bit field not starting on a byte)",
            );
            self.types.records[id.0].bad = Some(d);
        }
        Ok(CType::Record(id))
    }

    /// The width of a bit-field of type `ty`: a constant from 0 (unnamed only) to the width
    /// of the type.
    fn bit_width(&mut self, name: &Option<String>, ty: &CType, w: &'a Node<Expression>) -> R<u64> {
        let at = w.span.start;
        let CType::Int(k) = ty else {
            return Err(self.type_err(
                at,
                format!("bit-field has non-integral type '{}'", self.types.show(ty)),
            ));
        };
        let (v, t) = self.const_int(w)?;
        let bits = if *k == IntKind::Bool {
            1
        } else {
            k.bits(self.types.dm) as u64
        };
        if (t.is_signed_int() && (v as i64) < 0) || v > bits {
            return Err(self.type_err(at, format!("bit-field width {} is invalid", v as i64)));
        }
        if v == 0 && name.is_some() {
            return Err(self.type_err(at, "named bit-field has zero width"));
        }
        // gcc gives a field of a type wider than `int` that is narrower than its type a type
        // of the field's width: arithmetic on it wraps there (`x:40` + 1 is 0 at 2^40 - 1),
        // where qicc would compute in the declared type.
        if k.rank() > IntKind::Int.rank() && v > 0 && v < bits && name.is_some() {
            return Err(self.unsupported(
                at,
                format!(
                    "a bit-field of type '{}' narrower than its type (gcc computes in the field's width)",
                    self.types.show(ty)
                ),
            ));
        }
        Ok(v)
    }

    /// Why the layout of `t` cannot be used, if it cannot.
    pub fn layout_problem(&self, t: &CType) -> Option<crate::diag::Diagnostic> {
        match t {
            CType::Record(r) => self.types.record(*r).bad.clone(),
            CType::Array(e, _) | CType::Vla(e, _) => self.layout_problem(e),
            _ => None,
        }
    }

    /// An enum specifier's integer type, and its enumerators for display.
    fn enum_type(&mut self, et: &'a Node<EnumType>) -> R<(CType, Option<u32>)> {
        let tag = et.node.identifier.as_ref().map(|i| i.node.name.clone());
        if et.node.enumerators.is_empty() {
            if let Some(t) = &tag {
                if let Some(Tag::Enum(ty, e)) = self.scopes.lookup_tag(t) {
                    return Ok((ty.clone(), Some(*e)));
                }
            }
            // A forward reference (GNU): gcc completes it later; unsigned int is its type
            // unless a negative enumerator follows, which we cannot know here.
            return Ok((CType::UINT, None));
        }
        let mut names = Vec::new();
        let mut next: i64 = 0;
        let (mut min, mut max) = (0i64, 0i64);
        for e in &et.node.enumerators {
            let v = match &e.node.expression {
                Some(x) => {
                    let (v, t) = self.const_int(x)?;
                    if t.is_signed_int() {
                        crate::lower::consteval::sign_extend(v, self.types.ir_ty(&t))
                    } else {
                        v as i64
                    }
                }
                None => next,
            };
            min = min.min(v);
            max = max.max(v);
            let ty = if i32::try_from(v).is_ok() {
                CType::INT
            } else if u32::try_from(v).is_ok() {
                CType::UINT
            } else {
                CType::Int(IntKind::LongLong)
            };
            self.scopes
                .define(&e.node.identifier.node.name, Sym::EnumConst(v, ty));
            names.push((v, e.node.identifier.node.name.clone()));
            next = v.wrapping_add(1);
        }
        let ty = if min < 0 {
            if min >= i32::MIN as i64 && max <= i32::MAX as i64 {
                CType::INT
            } else {
                CType::Int(IntKind::LongLong)
            }
        } else if max <= u32::MAX as i64 {
            CType::UINT
        } else {
            CType::Int(IntKind::ULongLong)
        };
        let enums = &mut self.program.debug_types.enums;
        enums.push(qicc_ir::debug::DebugEnum {
            tag: format!("enum {}", tag.as_deref().unwrap_or("<anonymous>")),
            values: names,
        });
        let id = enums.len() as u32 - 1;
        if let Some(t) = &tag {
            self.scopes.define_tag(t, Tag::Enum(ty.clone(), id));
        }
        Ok((ty, Some(id)))
    }

    // ---- the file-scope pass ----

    /// Records every file-scope typedef, tag, enumerator, variable and function.
    pub fn collect_file_scope(&mut self, unit: &'a TranslationUnit) -> R<()> {
        let mut outside_main: Vec<(String, usize)> = Vec::new();
        for ext in &unit.0 {
            match &ext.node {
                ExternalDeclaration::Declaration(d) => {
                    if specs_have_attribute(&d.node.specifiers, RUNS_OUTSIDE_MAIN) {
                        for id in &d.node.declarators {
                            if let Some(n) = declarator_name(&id.node.declarator.node) {
                                outside_main.push((n.to_string(), id.span.start));
                            }
                        }
                    }
                    for id in &d.node.declarators {
                        if has_attribute(&id.node.declarator.node.extensions, RUNS_OUTSIDE_MAIN) {
                            if let Some(n) = declarator_name(&id.node.declarator.node) {
                                outside_main.push((n.to_string(), id.span.start));
                            }
                        }
                    }
                    self.file_declaration(d)?
                }
                ExternalDeclaration::FunctionDefinition(fd) => {
                    let name = declarator_name(&fd.node.declarator.node)
                        .unwrap_or("")
                        .to_string();
                    if specs_have_attribute(&fd.node.specifiers, RUNS_OUTSIDE_MAIN)
                        || has_attribute(&fd.node.declarator.node.extensions, RUNS_OUTSIDE_MAIN)
                    {
                        outside_main.push((name.clone(), fd.span.start));
                    }
                    let ty = self.definition_signature(fd).map(|(t, _)| t);
                    let offset = declarator_offset(&fd.node.declarator);
                    let internal = storage_of(&fd.node.specifiers) == Storage::Static;
                    let i = self.declare_function(&name, ty, Some(fd), offset, internal);
                    self.funcs[i].inline = fd.node.specifiers.iter().any(|s| {
                        matches!(&s.node, DeclarationSpecifier::Function(f)
                            if matches!(f.node, FunctionSpecifier::Inline))
                    });
                }
                ExternalDeclaration::StaticAssert(_) => {}
            }
        }
        // gcc runs these before or after main whether main calls them or not.
        for (name, at) in outside_main {
            if matches!(self.scopes.lookup_file(&name), Some(Sym::Func(i))
                if self.funcs[*i].def.is_some())
            {
                return Err(
                    self.unsupported(at, format!("constructor/destructor functions ('{name}')"))
                );
            }
        }
        Ok(())
    }

    fn file_declaration(&mut self, d: &'a Node<Declaration>) -> R<()> {
        let specs = self.decl_specs(&d.node.specifiers);
        let spec_enum = self.spec_enum.take();
        let storage = match &specs {
            Ok((_, s)) => *s,
            Err(_) => storage_of(&d.node.specifiers),
        };
        for id in &d.node.declarators {
            let decl = &id.node.declarator;
            let Some(name) = declarator_name(&decl.node) else {
                continue;
            };
            let offset = declarator_offset(decl);
            let ty = match &specs {
                Ok((base, _)) => self.declarator_type(base.clone(), decl, false),
                Err(e) => Err(e.clone()),
            };
            let shown_enum = declared_enum(spec_enum, &decl.node);
            if storage == Storage::Typedef {
                self.scopes.define(name, Sym::Typedef(ty, shown_enum));
                continue;
            }
            let is_func = match &ty {
                Ok(t) => t.is_func(),
                Err(_) => decl.node.derived.iter().any(|x| {
                    matches!(
                        x.node,
                        DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)
                    )
                }),
            };
            if is_func {
                let fty = ty.and_then(|t| match t {
                    CType::Func(f) => Ok(f),
                    _ => Err(self.internal(offset, "function declarator without function type")),
                });
                let i = self.declare_function(name, fty, None, offset, storage == Storage::Static);
                let declared = |names: &[&str]| {
                    has_attribute(&decl.node.extensions, names)
                        || specs_have_attribute(&d.node.specifiers, names)
                };
                if declared(SIDE_EFFECT_FREE) {
                    // Every declaration adds what it says; `const` is the stronger promise.
                    let f = &mut self.funcs[i];
                    let is_const = declared(&["const"]) || (f.side_effect_free && !f.reads_memory);
                    f.side_effect_free = true;
                    f.reads_memory = !is_const;
                }
                continue;
            }
            let defined = storage != Storage::Extern || id.node.initializer.is_some();
            let internal = storage == Storage::Static;
            self.declare_global(
                name,
                ty,
                shown_enum,
                id.node.initializer.as_ref(),
                defined,
                offset,
                internal,
            );
        }
        Ok(())
    }

    /// Records a function declaration or definition (merging with this unit's earlier ones;
    /// `internal`: declared `static`). A declaration in a block that this unit's file scope
    /// does not have is the external function's (see [`Ctx::link`]).
    pub fn declare_function(
        &mut self,
        name: &str,
        ty: R<Rc<FuncType>>,
        def: Option<&'a Node<FunctionDefinition>>,
        offset: usize,
        internal: bool,
    ) -> usize {
        let earlier = match self.scopes.lookup_file(name) {
            Some(Sym::Func(i)) => Some(*i),
            _ if !self.scopes.at_file_scope() => self.func_by_name.get(name).copied(),
            _ => None,
        };
        if let Some(i) = earlier {
            let f = &mut self.funcs[i];
            if def.is_some() {
                f.def = def;
                f.ty = ty;
                f.offset = offset;
            } else if f.def.is_none() {
                let better = match (&f.ty, &ty) {
                    (Err(_), _) => true,
                    (Ok(old), Ok(new)) => !old.prototyped && new.prototyped,
                    _ => false,
                };
                if better {
                    f.ty = ty;
                }
            }
            if self.scopes.at_file_scope() || self.lookup(name).is_none() {
                self.scopes.define(name, Sym::Func(i));
            }
            return i;
        }
        self.funcs.push(FuncInfo {
            name: name.to_string(),
            ty,
            def,
            ir: None,
            offset,
            side_effect_free: false,
            reads_memory: false,
            unit: self.cur_unit,
            internal,
            inline: false,
            ir_name: name.to_string(),
            link: None,
        });
        let i = self.funcs.len() - 1;
        if !internal {
            self.func_by_name.entry(name.to_string()).or_insert(i);
        }
        self.scopes.define(name, Sym::Func(i));
        i
    }

    /// Records a file-scope variable declaration (merging with earlier ones).
    fn declare_global(
        &mut self,
        name: &str,
        ty: R<CType>,
        shown_enum: Option<u32>,
        init: Option<&'a Node<Initializer>>,
        defined: bool,
        offset: usize,
        internal: bool,
    ) {
        if let Some(Sym::Var(VarId::Global(i))) = self.scopes.lookup_file(name).cloned() {
            let g = &mut self.globals[i];
            let better = matches!(
                (&g.ty, &ty),
                (Err(_), Ok(_)) | (Ok(CType::Array(_, None)), Ok(CType::Array(_, Some(_))))
            );
            if better {
                g.ty = ty;
            }
            if init.is_some() {
                g.init = init;
                g.offset = offset;
            }
            g.defined |= defined;
            return;
        }
        self.globals.push(GlobalVar {
            name: name.to_string(),
            c_name: name.to_string(),
            ty,
            shown_enum,
            init,
            defined,
            offset,
            storage: None,
            file_scope: true,
            unit: self.cur_unit,
            internal,
            link: None,
        });
        let i = self.globals.len() - 1;
        self.scopes.define(name, Sym::Var(VarId::Global(i)));
    }
}

fn storage_of(specs: &[Node<DeclarationSpecifier>]) -> Storage {
    for s in specs {
        if let DeclarationSpecifier::StorageClass(sc) = &s.node {
            return match sc.node {
                StorageClassSpecifier::Typedef => Storage::Typedef,
                StorageClassSpecifier::Extern => Storage::Extern,
                StorageClassSpecifier::Static => Storage::Static,
                _ => Storage::None,
            };
        }
    }
    Storage::None
}

/// The function suffix that makes a definition's declarator a function (for `int *f(int)`
/// the `(int)`; for `int (*f(int))[3]`, the inner one).
pub fn find_function_suffix(d: &Declarator) -> Option<&Node<DerivedDeclarator>> {
    if let DeclaratorKind::Declarator(inner) = &d.kind.node {
        if let Some(f) = find_function_suffix(&inner.node) {
            return Some(f);
        }
    }
    d.derived.iter().find(|x| {
        matches!(
            x.node,
            DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)
        )
    })
}
