//! Reads the text format written by [`crate::print`], so that tests can state programs and
//! expected results as IR text (Cranelift's filetests are the model).

use crate::expr::{BinOp, CastOp, Expr, FpOp, RoundingMode, UnOp, VarRef};
use crate::program::*;
use crate::types::{DataModel, Ty};
use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {msg}")]
pub struct ParseError {
    pub line: usize,
    pub msg: String,
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Int(i128),
    /// `0x...`: an int, or the bits of a float constant.
    Hex(u64),
    /// A decimal float literal (`1.5`, `-0.0`, `1e-45`), kept as text for the float parser.
    Float(String),
    Str(Vec<u8>),
    Local(String),
    Global(String),
    At(String),
    Hash(u32),
    Bang,
    LParen,
    RParen,
    Comma,
    Colon,
    Assign,
    Arrow,
    Eq,
    LBrace,
    RBrace,
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.'
}

fn lex(line: &str, lineno: usize) -> Result<Vec<Tok>, ParseError> {
    let err = |msg: String| ParseError { line: lineno, msg };
    let b = line.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    let ident_at = |i: usize| -> (String, usize) {
        let mut j = i;
        while j < b.len()
            && (is_ident_char(b[j])
                || (b[j] == b'-' && j > i && b.get(j + 1).is_some_and(|c| c.is_ascii_alphabetic())))
        {
            j += 1;
        }
        (line[i..j].to_string(), j)
    };
    while i < b.len() {
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\r' => i += 1,
            b';' => break,
            b'(' => {
                out.push(Tok::LParen);
                i += 1
            }
            b')' => {
                out.push(Tok::RParen);
                i += 1
            }
            b',' => {
                out.push(Tok::Comma);
                i += 1
            }
            b'{' => {
                out.push(Tok::LBrace);
                i += 1
            }
            b'}' => {
                out.push(Tok::RBrace);
                i += 1
            }
            b'!' => {
                out.push(Tok::Bang);
                i += 1
            }
            b'=' => {
                out.push(Tok::Eq);
                i += 1
            }
            b':' => {
                if b.get(i + 1) == Some(&b'=') {
                    out.push(Tok::Assign);
                    i += 2
                } else {
                    out.push(Tok::Colon);
                    i += 1
                }
            }
            b'-' if b.get(i + 1) == Some(&b'>') => {
                out.push(Tok::Arrow);
                i += 2
            }
            b'-' if line[i + 1..].starts_with("inf") => {
                out.push(Tok::Ident("-inf".into()));
                i += 4
            }
            b'0' if b.get(i + 1) == Some(&b'x') => {
                let mut j = i + 2;
                while j < b.len() && b[j].is_ascii_hexdigit() {
                    j += 1;
                }
                let v = u64::from_str_radix(&line[i + 2..j], 16)
                    .map_err(|_| err("bad hexadecimal number".into()))?;
                out.push(Tok::Hex(v));
                i = j;
            }
            b'-' | b'0'..=b'9' => {
                let neg = c == b'-';
                let start = if neg { i + 1 } else { i };
                let mut j = start;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                if j == start {
                    return Err(err(format!("unexpected '{}'", c as char)));
                }
                // A fraction or an exponent makes it a float literal.
                let digit_at = |k: usize| b.get(k).is_some_and(|c| c.is_ascii_digit());
                let mut is_float = false;
                if b.get(j) == Some(&b'.') && digit_at(j + 1) {
                    is_float = true;
                    j += 1;
                    while digit_at(j) {
                        j += 1;
                    }
                }
                if matches!(b.get(j), Some(b'e' | b'E')) {
                    let k = if matches!(b.get(j + 1), Some(b'-' | b'+')) {
                        j + 2
                    } else {
                        j + 1
                    };
                    if digit_at(k) {
                        is_float = true;
                        j = k;
                        while digit_at(j) {
                            j += 1;
                        }
                    }
                }
                if is_float {
                    out.push(Tok::Float(line[i..j].to_string()));
                    i = j;
                    continue;
                }
                let v: i128 = line[start..j]
                    .parse()
                    .map_err(|_| err("number too large".into()))?;
                out.push(Tok::Int(if neg { -v } else { v }));
                i = j;
            }
            b'%' | b'$' | b'@' => {
                let (name, j) = ident_at(i + 1);
                if name.is_empty() {
                    return Err(err(format!("expected a name after '{}'", c as char)));
                }
                out.push(match c {
                    b'%' => Tok::Local(name),
                    b'$' => Tok::Global(name),
                    _ => Tok::At(name),
                });
                i = j;
            }
            b'#' => {
                let mut j = i + 1;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                let n = line[i + 1..j]
                    .parse()
                    .map_err(|_| err("expected an assertion number after '#'".into()))?;
                out.push(Tok::Hash(n));
                i = j;
            }
            b'"' => {
                let mut bytes = Vec::new();
                let mut j = i + 1;
                loop {
                    match b.get(j) {
                        None => return Err(err("unterminated string".into())),
                        Some(b'"') => break,
                        Some(b'\\') => {
                            match b.get(j + 1) {
                                Some(b'n') => bytes.push(b'\n'),
                                Some(b't') => bytes.push(b'\t'),
                                Some(b'\\') => bytes.push(b'\\'),
                                Some(b'"') => bytes.push(b'"'),
                                Some(b'x') => {
                                    let hex = line
                                        .get(j + 2..j + 4)
                                        .ok_or_else(|| err("bad \\x escape".into()))?;
                                    bytes.push(
                                        u8::from_str_radix(hex, 16)
                                            .map_err(|_| err("bad \\x escape".into()))?,
                                    );
                                    j += 2;
                                }
                                _ => return Err(err("bad escape in string".into())),
                            }
                            j += 2;
                        }
                        Some(&x) => {
                            bytes.push(x);
                            j += 1
                        }
                    }
                }
                out.push(Tok::Str(bytes));
                i = j + 1;
            }
            c if is_ident_char(c) => {
                let (name, j) = ident_at(i);
                out.push(Tok::Ident(name));
                i = j;
            }
            _ => return Err(err(format!("unexpected character '{}'", c as char))),
        }
    }
    Ok(out)
}

struct Names {
    objects: HashMap<String, ObjectId>,
    globals: HashMap<String, GlobalId>,
    functions: HashMap<String, FuncId>,
}

struct Cursor<'a> {
    toks: &'a [Tok],
    pos: usize,
    line: usize,
}

impl<'a> Cursor<'a> {
    fn err<T>(&self, msg: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            line: self.line,
            msg: msg.into(),
        })
    }
    fn peek(&self) -> Option<&'a Tok> {
        self.toks.get(self.pos)
    }
    fn next(&mut self) -> Option<&'a Tok> {
        let t = self.toks.get(self.pos);
        self.pos += 1;
        t
    }
    fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }
    fn expect(&mut self, t: Tok) -> Result<(), ParseError> {
        match self.next() {
            Some(x) if *x == t => Ok(()),
            other => self.err(format!("expected {t:?}, found {other:?}")),
        }
    }
    fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == Some(t) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn ident(&mut self) -> Result<&'a str, ParseError> {
        match self.next() {
            Some(Tok::Ident(s)) => Ok(s),
            other => self.err(format!("expected a word, found {other:?}")),
        }
    }
    fn keyword(&mut self, kw: &str) -> Result<(), ParseError> {
        match self.next() {
            Some(Tok::Ident(s)) if s == kw => Ok(()),
            other => self.err(format!("expected '{kw}', found {other:?}")),
        }
    }
    fn int(&mut self) -> Result<i128, ParseError> {
        match self.next() {
            Some(Tok::Int(v)) => Ok(*v),
            other => self.err(format!("expected a number, found {other:?}")),
        }
    }
    fn uint(&mut self) -> Result<u64, ParseError> {
        let v = self.int()?;
        u64::try_from(v).or_else(|_| self.err("expected a non-negative number"))
    }
    fn string(&mut self) -> Result<Vec<u8>, ParseError> {
        match self.next() {
            Some(Tok::Str(s)) => Ok(s.clone()),
            other => self.err(format!("expected a string, found {other:?}")),
        }
    }
    fn utf8(&mut self) -> Result<String, ParseError> {
        let b = self.string()?;
        String::from_utf8(b).or_else(|_| self.err("string is not UTF-8"))
    }
    fn loc(&mut self) -> Result<Loc, ParseError> {
        let s = self.ident()?;
        match s.strip_prefix('L').and_then(|n| n.parse().ok()) {
            Some(n) => Ok(Loc(n)),
            None => self.err(format!("expected a location like L3, found '{s}'")),
        }
    }
    fn span(&mut self) -> Result<Span, ParseError> {
        if !self.eat(&Tok::Bang) {
            return Ok(Span::UNKNOWN);
        }
        let file = self.uint()? as u16;
        self.expect(Tok::Colon)?;
        let line = self.uint()? as u32;
        self.expect(Tok::Colon)?;
        let col = self.uint()? as u32;
        Ok(Span { file, line, col })
    }
    fn end(&self) -> Result<(), ParseError> {
        if self.at_end() {
            Ok(())
        } else {
            self.err(format!("unexpected {:?} at end of line", self.peek()))
        }
    }
}

/// A float operator from its name and dotted suffix (rounding mode, target type), as
/// [`crate::print::fp_op_name`] writes it; `None` if they name none.
fn fp_op(c: &Cursor, head: &str, suffix: Option<&str>) -> Result<Option<FpOp>, ParseError> {
    let (mut rm, mut to) = (None, None);
    for part in suffix.into_iter().flat_map(|s| s.split('.')) {
        if let Some(m) = RoundingMode::from_name(part) {
            rm = Some(m);
        } else {
            to = Some(parse_ty(c, part)?.bits());
        }
    }
    Ok(FpOp::from_parts(head, rm, to))
}

/// A float constant written as a decimal, `inf`, `-inf` or `nan` (the default NaN).
fn float_const(c: &Cursor, ty: Ty, text: &str) -> Result<Expr, ParseError> {
    let bits = match (ty, text) {
        (Ty::Float(w), "nan") => crate::semantics::float::default_nan(w),
        // Rust's float parsing is correctly rounded, so the shortest decimal the printer
        // writes comes back as the same bits.
        (Ty::Float(32), t) => match t.parse::<f32>() {
            Ok(x) => x.to_bits() as u64,
            Err(_) => return c.err(format!("bad float constant '{t}'")),
        },
        (Ty::Float(64), t) => match t.parse::<f64>() {
            Ok(x) => x.to_bits(),
            Err(_) => return c.err(format!("bad float constant '{t}'")),
        },
        _ => return c.err(format!("float constant '{text}' of type {ty}")),
    };
    Ok(Expr::konst(ty, bits))
}

fn parse_ty(c: &Cursor, s: &str) -> Result<Ty, ParseError> {
    if s == "bool" {
        return Ok(Ty::Bool);
    }
    if s == "f32" || s == "f64" {
        return Ok(if s == "f32" { Ty::F32 } else { Ty::F64 });
    }
    match s.strip_prefix('i').and_then(|n| n.parse::<u16>().ok()) {
        Some(w) if (1..=64).contains(&w) => Ok(Ty::Int(w)),
        _ => c.err(format!("unknown type '{s}'")),
    }
}

struct ExprCtx<'a> {
    names: &'a Names,
    locals: Option<&'a HashMap<String, LocalId>>,
}

impl ExprCtx<'_> {
    fn var(&self, c: &Cursor, t: &Tok) -> Result<VarRef, ParseError> {
        match t {
            Tok::Local(n) => match self.locals.and_then(|l| l.get(n)) {
                Some(id) => Ok(VarRef::Local(*id)),
                None => c.err(format!("unknown local %{n}")),
            },
            Tok::Global(n) => match self.names.globals.get(n) {
                Some(id) => Ok(VarRef::Global(*id)),
                None => c.err(format!("unknown global ${n}")),
            },
            other => c.err(format!("expected a variable, found {other:?}")),
        }
    }

    fn expr(&self, c: &mut Cursor) -> Result<Expr, ParseError> {
        let t = match c.next() {
            Some(t) => t,
            None => return c.err("expected an expression"),
        };
        match t {
            Tok::Int(v) => {
                c.expect(Tok::Colon)?;
                let name = c.ident()?;
                let ty = parse_ty(c, name)?;
                if ty.is_float() {
                    return c.err(format!(
                        "write a {ty} constant as a decimal with a point (1.0), inf, nan or its bits (0x...)"
                    ));
                }
                Ok(Expr::konst(ty, *v as u64))
            }
            Tok::Hex(v) => {
                c.expect(Tok::Colon)?;
                let name = c.ident()?;
                let ty = parse_ty(c, name)?;
                if *v & !ty.mask() != 0 {
                    return c.err(format!("0x{v:x} does not fit {ty}"));
                }
                Ok(Expr::konst(ty, *v))
            }
            Tok::Float(text) => {
                c.expect(Tok::Colon)?;
                let name = c.ident()?;
                float_const(c, parse_ty(c, name)?, text)
            }
            Tok::Ident(w)
                if matches!(w.as_str(), "inf" | "-inf" | "nan")
                    && c.peek() == Some(&Tok::Colon) =>
            {
                c.expect(Tok::Colon)?;
                let name = c.ident()?;
                float_const(c, parse_ty(c, name)?, w)
            }
            Tok::Local(_) | Tok::Global(_) => Ok(Expr::Var(self.var(c, t)?)),
            Tok::At(n) => match self.names.objects.get(n) {
                Some(id) => Ok(Expr::ObjAddr(*id)),
                None => c.err(format!("unknown object @{n}")),
            },
            Tok::Ident(w) if w == "true" => Ok(Expr::bool(true)),
            Tok::Ident(w) if w == "false" => Ok(Expr::bool(false)),
            Tok::Ident(w) => {
                let (head, suffix) = match w.split_once('.') {
                    Some((h, s)) => (h, Some(s)),
                    None => (w.as_str(), None),
                };
                c.expect(Tok::LParen)?;
                let mut args = vec![self.expr(c)?];
                while c.eat(&Tok::Comma) {
                    args.push(self.expr(c)?);
                }
                c.expect(Tok::RParen)?;
                let nargs = args.len();
                let arity = |n: usize| -> Result<(), ParseError> {
                    if nargs == n {
                        Ok(())
                    } else {
                        c.err(format!("'{w}' takes {n} operand(s), found {nargs}"))
                    }
                };
                let mut args = args.into_iter();
                let mut one = || args.next().expect("arity checked");
                match (head, suffix) {
                    ("neg", None) | ("not", None) => {
                        arity(1)?;
                        Ok(Expr::unary(
                            if head == "neg" { UnOp::Neg } else { UnOp::Not },
                            one(),
                        ))
                    }
                    ("ite", None) => {
                        arity(3)?;
                        let (a, b, d) = (one(), one(), one());
                        Ok(Expr::ite(a, b, d))
                    }
                    ("load", Some(ty)) => {
                        arity(1)?;
                        Ok(Expr::load(parse_ty(c, ty)?, one()))
                    }
                    (h @ ("valid" | "readable" | "freeable"), Some(n)) => {
                        arity(1)?;
                        let n = n
                            .parse()
                            .or_else(|_| c.err(format!("bad width in '{w}'")))?;
                        Ok(match h {
                            "valid" => Expr::valid(n, one()),
                            "readable" => Expr::readable(n, one()),
                            _ => Expr::freeable(n, one()),
                        })
                    }
                    (h, Some(ty)) if CastOp::from_name(h).is_some() => {
                        arity(1)?;
                        let op = CastOp::from_name(h).expect("checked");
                        Ok(Expr::cast(op, parse_ty(c, ty)?, one()))
                    }
                    (h, None) if BinOp::from_name(h).is_some() => {
                        arity(2)?;
                        let (a, b) = (one(), one());
                        Ok(Expr::binary(BinOp::from_name(h).expect("checked"), a, b))
                    }
                    (h, suffix) if h.starts_with('f') || h.ends_with("tofp") => {
                        let op = match fp_op(c, h, suffix)? {
                            Some(op) => op,
                            None => return c.err(format!("unknown operator '{w}'")),
                        };
                        arity(op.arity())?;
                        Ok(Expr::fp(op, args.collect()))
                    }
                    _ => c.err(format!("unknown operator '{w}'")),
                }
            }
            other => c.err(format!("expected an expression, found {other:?}")),
        }
    }
}

/// Parses a whole program in the text format.
pub fn parse_program(text: &str) -> Result<Program, ParseError> {
    let lines: Vec<(usize, Vec<Tok>)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| lex(l, i + 1).map(|t| (i + 1, t)))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .filter(|(_, t)| !t.is_empty())
        .collect();

    // Pass 1: names of objects, globals and functions, so that references may point forward.
    let mut names = Names {
        objects: HashMap::new(),
        globals: HashMap::new(),
        functions: HashMap::new(),
    };
    for (line, toks) in &lines {
        let dup = |kind: &str, n: &str| ParseError {
            line: *line,
            msg: format!("{kind} '{n}' defined twice"),
        };
        match (toks.first(), toks.get(1)) {
            (Some(Tok::Ident(k)), Some(Tok::At(n))) if k == "object" => {
                let id = ObjectId(names.objects.len() as u32 + 1);
                if names.objects.insert(n.clone(), id).is_some() {
                    return Err(dup("object", n));
                }
            }
            (Some(Tok::Ident(k)), Some(Tok::Global(n))) if k == "global" => {
                let id = GlobalId(names.globals.len() as u32);
                if names.globals.insert(n.clone(), id).is_some() {
                    return Err(dup("global", n));
                }
            }
            (Some(Tok::Ident(k)), Some(Tok::At(n))) if k == "fn" => {
                let id = FuncId(names.functions.len() as u32);
                if names.functions.insert(n.clone(), id).is_some() {
                    return Err(dup("function", n));
                }
            }
            _ => {}
        }
    }

    let mut program: Option<Program> = None;
    let mut current: Option<(
        Function,
        HashMap<String, LocalId>,
        Vec<String>,
        Option<String>,
    )> = None;
    let mut entry_name: Option<(usize, String)> = None;
    let mut pending_assertions: Vec<(usize, Assertion, String)> = Vec::new();

    for (line, toks) in &lines {
        let mut c = Cursor {
            toks,
            pos: 0,
            line: *line,
        };
        if let Some((func, locals, _, _)) = current.as_mut() {
            if program.is_none() {
                return c.err("missing header");
            }
            if toks[0] == Tok::RBrace {
                c.next();
                c.end()?;
                let (mut func, locals, params, ret) = current.take().expect("inside a function");
                let resolve = |n: &String| match locals.get(n) {
                    Some(id) => Ok(*id),
                    None => c.err(format!(
                        "parameter or return variable %{n} is not declared as a local"
                    )),
                };
                func.params = params.iter().map(resolve).collect::<Result<_, _>>()?;
                func.ret = ret.as_ref().map(resolve).transpose()?;
                program.as_mut().expect("header").functions.push(func);
                continue;
            }
            match &toks[0] {
                Tok::Ident(k) if k == "local" => {
                    c.next();
                    let name = match c.next() {
                        Some(Tok::Local(n)) => n.clone(),
                        other => return c.err(format!("expected %name, found {other:?}")),
                    };
                    c.expect(Tok::Colon)?;
                    let tyname = c.ident()?;
                    let ty = parse_ty(&c, tyname)?;
                    let unsigned = c.eat(&Tok::Ident("unsigned".into()));
                    c.end()?;
                    let id = func.add_local(name.clone(), ty);
                    func.locals[id.index()].unsigned = unsigned;
                    if locals.insert(name.clone(), id).is_some() {
                        return c.err(format!("local %{name} declared twice"));
                    }
                }
                Tok::Ident(k) if k == "locs" => {
                    c.next();
                    func.num_locs = c.uint()? as u32;
                    c.keyword("entry")?;
                    func.entry = c.loc()?;
                    c.keyword("exit")?;
                    func.exit = c.loc()?;
                    c.keyword("err")?;
                    func.err = c.loc()?;
                    c.keyword("halt")?;
                    func.halt = c.loc()?;
                    c.end()?;
                }
                _ => {
                    let from = c.loc()?;
                    c.expect(Tok::Arrow)?;
                    let to = c.loc()?;
                    c.expect(Tok::Colon)?;
                    let ctx = ExprCtx {
                        names: &names,
                        locals: Some(locals),
                    };
                    let op = parse_op(&ctx, &mut c)?;
                    let span = c.span()?;
                    c.end()?;
                    func.edges.push(Edge { from, to, op, span });
                }
            }
            continue;
        }
        let Tok::Ident(kw) = &toks[0] else {
            return c.err(format!("unexpected {:?}", toks[0]));
        };
        c.next();
        if kw != "qicc-ir" && kw != "qicc" && program.is_none() && kw != "data-model" {
            return c.err("a program starts with 'data-model'");
        }
        match kw.as_str() {
            "data-model" => {
                let dm = c.ident()?;
                let dm = DataModel::from_name(dm)
                    .map_or_else(|| c.err(format!("unknown data model '{dm}'")), Ok)?;
                let mut p = Program::new(dm);
                if let Some(Tok::Ident(k)) = c.peek() {
                    if k == "object-bits" {
                        c.next();
                        p.layout.object_bits = c.uint()? as u16;
                    }
                }
                c.end()?;
                program = Some(p);
            }
            "file" => {
                let p = program.as_mut().expect("checked");
                let idx = c.uint()? as usize;
                let name = c.utf8()?;
                c.end()?;
                if idx != p.files.len() {
                    return c.err(format!("file {idx} out of order"));
                }
                p.files.push(name);
            }
            "object" => {
                let name = match c.next() {
                    Some(Tok::At(n)) => n.clone(),
                    _ => return c.err("expected @name"),
                };
                c.keyword("size")?;
                let size = c.uint()?;
                let mut obj = Object {
                    name,
                    size,
                    readonly: false,
                    zeroed: false,
                    init: Vec::new(),
                    span: Span::UNKNOWN,
                };
                let ctx = ExprCtx {
                    names: &names,
                    locals: None,
                };
                while let Some(Tok::Ident(w)) = c.peek() {
                    c.next();
                    match w.as_str() {
                        "readonly" => obj.readonly = true,
                        "zeroed" => obj.zeroed = true,
                        "bytes" => {
                            let offset = c.uint()?;
                            let bytes = c.string()?;
                            obj.init.push(InitItem::Bytes { offset, bytes });
                        }
                        "value" => {
                            let offset = c.uint()?;
                            let value = ctx.expr(&mut c)?;
                            obj.init.push(InitItem::Value { offset, value });
                        }
                        other => return c.err(format!("unknown object attribute '{other}'")),
                    }
                }
                obj.span = c.span()?;
                c.end()?;
                program.as_mut().expect("checked").objects.push(obj);
            }
            "global" => {
                let name = match c.next() {
                    Some(Tok::Global(n)) => n.clone(),
                    _ => return c.err("expected $name"),
                };
                c.expect(Tok::Colon)?;
                let tyname = c.ident()?;
                let ty = parse_ty(&c, tyname)?;
                let unsigned = c.eat(&Tok::Ident("unsigned".into()));
                let ctx = ExprCtx {
                    names: &names,
                    locals: None,
                };
                let init = if c.eat(&Tok::Eq) {
                    Some(ctx.expr(&mut c)?)
                } else {
                    None
                };
                let span = c.span()?;
                c.end()?;
                program.as_mut().expect("checked").globals.push(Global {
                    name,
                    ty,
                    unsigned,
                    init,
                    span,
                });
            }
            "assertion" => {
                let n = match c.next() {
                    Some(Tok::Hash(n)) => *n,
                    _ => return c.err("expected #number"),
                };
                let p = program.as_ref().expect("checked");
                if n as usize != p.assertions.len() + pending_assertions.len() {
                    return c.err(format!("assertion #{n} out of order"));
                }
                let kind_name = c.ident()?;
                let kind = AssertKind::from_name(kind_name).map_or_else(
                    || c.err(format!("unknown assertion kind '{kind_name}'")),
                    Ok,
                )?;
                c.keyword("in")?;
                let fname = match c.next() {
                    Some(Tok::At(n)) => n.clone(),
                    _ => return c.err("expected @function"),
                };
                let func = match names.functions.get(&fname) {
                    Some(f) => *f,
                    None => return c.err(format!("unknown function @{fname}")),
                };
                let span = c.span()?;
                let text = if matches!(c.peek(), Some(Tok::Str(_))) {
                    Some(c.utf8()?)
                } else {
                    None
                };
                c.end()?;
                pending_assertions.push((
                    *line,
                    Assertion {
                        kind,
                        func,
                        span,
                        text,
                    },
                    fname,
                ));
            }
            "entry" => {
                match c.next() {
                    Some(Tok::At(n)) => entry_name = Some((*line, n.clone())),
                    _ => return c.err("expected @function"),
                }
                c.end()?;
            }
            "fn" => {
                let name = match c.next() {
                    Some(Tok::At(n)) => n.clone(),
                    _ => return c.err("expected @name"),
                };
                c.expect(Tok::LParen)?;
                let mut params = Vec::new();
                if !c.eat(&Tok::RParen) {
                    loop {
                        match c.next() {
                            Some(Tok::Local(n)) => params.push(n.clone()),
                            other => return c.err(format!("expected %param, found {other:?}")),
                        }
                        if c.eat(&Tok::RParen) {
                            break;
                        }
                        c.expect(Tok::Comma)?;
                    }
                }
                let ret = if c.eat(&Tok::Arrow) {
                    match c.next() {
                        Some(Tok::Local(n)) => Some(n.clone()),
                        other => return c.err(format!("expected %ret, found {other:?}")),
                    }
                } else {
                    None
                };
                let span = c.span()?;
                c.expect(Tok::LBrace)?;
                c.end()?;
                let mut f = Function::new(name, span);
                f.num_locs = 0;
                // Parameters and the return variable are resolved when the function closes.
                current = Some((f, HashMap::new(), params, ret));
            }
            "qicc-ir" | "qicc" => {}
            other => return c.err(format!("unknown declaration '{other}'")),
        }
    }
    if current.is_some() {
        return Err(ParseError {
            line: text.lines().count(),
            msg: "missing '}' at end of function".into(),
        });
    }
    let mut p = program.ok_or(ParseError {
        line: 1,
        msg: "empty program".into(),
    })?;
    p.assertions
        .extend(pending_assertions.into_iter().map(|(_, a, _)| a));
    if let Some((line, name)) = entry_name {
        p.entry = match names.functions.get(&name) {
            Some(f) => *f,
            None => {
                return Err(ParseError {
                    line,
                    msg: format!("unknown entry function @{name}"),
                })
            }
        };
    }
    Ok(p)
}

fn parse_args(ctx: &ExprCtx, c: &mut Cursor) -> Result<Vec<Expr>, ParseError> {
    c.expect(Tok::LParen)?;
    let mut args = Vec::new();
    if c.eat(&Tok::RParen) {
        return Ok(args);
    }
    loop {
        args.push(ctx.expr(c)?);
        if c.eat(&Tok::RParen) {
            return Ok(args);
        }
        c.expect(Tok::Comma)?;
    }
}

fn parse_call(ctx: &ExprCtx, c: &mut Cursor, dst: Option<VarRef>) -> Result<Op, ParseError> {
    let callee = match c.next() {
        Some(Tok::At(n)) => match ctx.names.functions.get(n) {
            Some(f) => *f,
            None => return c.err(format!("unknown function @{n}")),
        },
        other => return c.err(format!("expected @function, found {other:?}")),
    };
    let args = parse_args(ctx, c)?;
    Ok(Op::Call { dst, callee, args })
}

fn three(c: &Cursor, args: Vec<Expr>, what: &str) -> Result<(Expr, Expr, Expr), ParseError> {
    let mut it = args.into_iter();
    match (it.next(), it.next(), it.next(), it.next()) {
        (Some(a), Some(b), Some(d), None) => Ok((a, b, d)),
        _ => c.err(format!("'{what}' takes three operands")),
    }
}

fn one(c: &Cursor, args: Vec<Expr>, what: &str) -> Result<Expr, ParseError> {
    let mut it = args.into_iter();
    match (it.next(), it.next()) {
        (Some(a), None) => Ok(a),
        _ => c.err(format!("'{what}' takes one operand")),
    }
}

fn parse_op(ctx: &ExprCtx, c: &mut Cursor) -> Result<Op, ParseError> {
    let t = match c.next() {
        Some(t) => t,
        None => return c.err("expected an operation"),
    };
    match t {
        Tok::Local(_) | Tok::Global(_) => {
            let dst = ctx.var(c, t)?;
            c.expect(Tok::Assign)?;
            match c.peek() {
                Some(Tok::Ident(w)) if w == "call" => {
                    c.next();
                    parse_call(ctx, c, Some(dst))
                }
                Some(Tok::Ident(w))
                    if matches!(w.as_str(), "alloc.frame" | "alloc.stack" | "alloc.heap") =>
                {
                    let kind = match w.as_str() {
                        "alloc.frame" => AllocKind::Frame,
                        "alloc.stack" => AllocKind::Stack,
                        _ => AllocKind::Heap,
                    };
                    c.next();
                    let size = {
                        let a = parse_args(ctx, c)?;
                        one(c, a, "alloc")?
                    };
                    Ok(Op::Alloc { dst, size, kind })
                }
                _ => Ok(Op::Assign(dst, ctx.expr(c)?)),
            }
        }
        Tok::Ident(w) => match w.as_str() {
            "skip" => Ok(Op::Skip),
            "assume" => Ok(Op::Assume(ctx.expr(c)?)),
            "nowrap" => Ok(Op::NoWrap(ctx.expr(c)?)),
            "havoc_memory" => Ok(Op::HavocMemory),
            "havoc_contents" => Ok(Op::HavocContents),
            "havoc" => {
                let v = match c.next() {
                    Some(t) => ctx.var(c, t)?,
                    None => return c.err("expected a variable"),
                };
                let kind = match c.ident()? {
                    "nondet" => HavocKind::Nondet(c.utf8()?),
                    "uninit" => HavocKind::Uninit,
                    "extern" => HavocKind::Extern(c.utf8()?),
                    "platform" => HavocKind::Platform(c.utf8()?),
                    "region" => HavocKind::Region,
                    k @ ("const" | "pure") => {
                        let reads_memory = k == "pure";
                        let name = c.utf8()?;
                        HavocKind::Applied {
                            name,
                            args: parse_args(ctx, c)?,
                            reads_memory,
                        }
                    }
                    other => return c.err(format!("unknown havoc kind '{other}'")),
                };
                Ok(Op::Havoc(v, kind))
            }
            "call" => parse_call(ctx, c, None),
            "free" => Ok(Op::Free({
                let a = parse_args(ctx, c)?;
                one(c, a, "free")?
            })),
            "memcpy" => {
                let (dst, src, len) = {
                    let a = parse_args(ctx, c)?;
                    three(c, a, "memcpy")?
                };
                Ok(Op::MemCopy { dst, src, len })
            }
            "havoc_bytes" => {
                let a = parse_args(ctx, c)?;
                let mut it = a.into_iter();
                match (it.next(), it.next(), it.next()) {
                    (Some(dst), Some(len), None) => Ok(Op::HavocBytes { dst, len }),
                    _ => c.err("'havoc_bytes' takes two operands"),
                }
            }
            "memset" => {
                let (dst, byte, len) = {
                    let a = parse_args(ctx, c)?;
                    three(c, a, "memset")?
                };
                Ok(Op::MemSet { dst, byte, len })
            }
            "error" => match c.next() {
                Some(Tok::Hash(n)) => Ok(Op::Error(AssertionId(*n))),
                other => c.err(format!("expected #assertion, found {other:?}")),
            },
            "halt" => {
                if c.peek() == Some(&Tok::LParen) {
                    Ok(Op::Halt(Some({
                        let a = parse_args(ctx, c)?;
                        one(c, a, "halt")?
                    })))
                } else {
                    Ok(Op::Halt(None))
                }
            }
            s if s.starts_with("store.") => {
                let ty = parse_ty(c, &s["store.".len()..])?;
                let addr = ctx.expr(c)?;
                c.expect(Tok::Comma)?;
                let value = ctx.expr(c)?;
                Ok(Op::Store { ty, addr, value })
            }
            other => c.err(format!("unknown operation '{other}'")),
        },
        other => c.err(format!("expected an operation, found {other:?}")),
    }
}
