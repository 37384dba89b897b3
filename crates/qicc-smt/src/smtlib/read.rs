//! Reading back what [`super::script`] writes, into a [`TermStore`]: the solver-query
//! benchmark replays the query corpus (`crate::corpus`) on any back-end in process this way,
//! through the same translation qicc's checks take (a solver that reads SMT-LIB itself may not
//! know every operator the script uses: Bitwuzla has no `fp.to_ieee_bv`).
//!
//! Only the printer's own output is read: `declare-const`, `define-fun` without arguments,
//! `assert`, and the terms `node_text` prints. A float node is printed as a `let` binding its
//! operands to `|!a0|`.. around a body that depends only on the operation and the operands'
//! width ([`super::fp_body`]); it is found again by looking that body up among the bodies of
//! every float operation, so the printer stays the one definition of the text.

use super::fp_body;
use crate::store::TermStore;
use crate::term::{BvBinOp, BvCmpOp, BvUnOp, Node, Sort, TermId};
use qicc_ir::{FpOp, RoundingMode};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The assertions of the script `text`, built in `store`.
pub fn read(store: &mut TermStore, text: &str) -> Result<Vec<TermId>, String> {
    let items = parse(text)?;
    let mut r = Reader {
        store,
        text,
        names: HashMap::new(),
    };
    let mut out = Vec::new();
    for item in &items {
        let Sx::List(xs, _) = item else {
            return Err(format!("a command expected, found `{}`", r.show(item)));
        };
        match xs.first().and_then(Sx::atom) {
            Some("declare-const") | Some("declare-fun") => {
                let (name, sort) = match xs.as_slice() {
                    [_, Sx::Atom(n, _), s] => (n, s),
                    [_, Sx::Atom(n, _), Sx::List(a, _), s] if a.is_empty() => (n, s),
                    _ => return Err(format!("a bad declaration `{}`", r.show(item))),
                };
                let sort = r.sort(sort)?;
                let t = r.store.symbol(unquote(name), sort);
                r.names.insert((*name).to_string(), t);
            }
            Some("define-fun") => {
                let [_, Sx::Atom(name, _), Sx::List(params, _), _sort, body] = xs.as_slice() else {
                    return Err(format!("a bad definition `{}`", r.show(item)));
                };
                if !params.is_empty() {
                    return Err(format!("a definition with parameters: {name}"));
                }
                let t = r.term(body)?;
                r.names.insert((*name).to_string(), t);
            }
            Some("assert") => {
                let [_, t] = xs.as_slice() else {
                    return Err(format!("a bad assertion `{}`", r.show(item)));
                };
                out.push(r.term(t)?);
            }
            Some("set-option" | "set-logic" | "check-sat" | "exit" | "get-model") => {}
            _ => return Err(format!("an unknown command `{}`", r.show(item))),
        }
    }
    Ok(out)
}

/// An S-expression with the byte span of its text.
enum Sx<'a> {
    Atom(&'a str, (usize, usize)),
    List(Vec<Sx<'a>>, (usize, usize)),
}

impl<'a> Sx<'a> {
    fn atom(&self) -> Option<&'a str> {
        match self {
            Sx::Atom(a, _) => Some(a),
            Sx::List(..) => None,
        }
    }

    fn span(&self) -> (usize, usize) {
        match self {
            Sx::Atom(_, s) | Sx::List(_, s) => *s,
        }
    }
}

/// The S-expressions of `text` (comments skipped). Iterative: lambda bodies nest deeply.
fn parse(text: &str) -> Result<Vec<Sx<'_>>, String> {
    let b = text.as_bytes();
    let mut stack: Vec<(usize, Vec<Sx>)> = vec![(0, Vec::new())];
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            c if c.is_ascii_whitespace() => i += 1,
            b'(' => {
                stack.push((i, Vec::new()));
                i += 1;
            }
            b')' => {
                if stack.len() < 2 {
                    return Err(format!("an unbalanced `)` at byte {i}"));
                }
                let (start, items) = stack.pop().ok_or("internal error: empty stack")?;
                let parent = stack.last_mut().ok_or("internal error: empty stack")?;
                i += 1;
                parent.1.push(Sx::List(items, (start, i)));
            }
            b'|' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'|' {
                    i += 1;
                }
                if i == b.len() {
                    return Err(format!("an unterminated `|` at byte {start}"));
                }
                i += 1;
                let top = stack.last_mut().ok_or("internal error: empty stack")?;
                top.1.push(Sx::Atom(&text[start..i], (start, i)));
            }
            _ => {
                let start = i;
                while i < b.len() && !b[i].is_ascii_whitespace() && !b"()|;".contains(&b[i]) {
                    i += 1;
                }
                let top = stack.last_mut().ok_or("internal error: empty stack")?;
                top.1.push(Sx::Atom(&text[start..i], (start, i)));
            }
        }
    }
    match stack.pop() {
        Some((_, items)) if stack.is_empty() => Ok(items),
        _ => Err("an unbalanced `(`".to_string()),
    }
}

fn unquote(name: &str) -> &str {
    name.strip_prefix('|')
        .and_then(|n| n.strip_suffix('|'))
        .unwrap_or(name)
}

struct Reader<'s, 't> {
    store: &'s mut TermStore,
    text: &'t str,
    /// Declared and defined names, and bound variables in scope, as written (with bars).
    names: HashMap<String, TermId>,
}

impl Reader<'_, '_> {
    fn show(&self, x: &Sx) -> String {
        let (a, b) = x.span();
        let t = &self.text[a..b];
        if t.len() > 80 {
            format!("{}…", &t[..t.floor_char_boundary(80)])
        } else {
            t.to_string()
        }
    }

    fn num<T: std::str::FromStr>(&self, x: &Sx) -> Result<T, String> {
        x.atom()
            .and_then(|a| a.parse().ok())
            .ok_or_else(|| format!("a number expected, found `{}`", self.show(x)))
    }

    fn sort(&self, x: &Sx) -> Result<Sort, String> {
        let bad = || format!("an unknown sort `{}`", self.show(x));
        match x {
            Sx::Atom("Bool", _) => Ok(Sort::Bool),
            Sx::List(xs, _) => match xs.as_slice() {
                [Sx::Atom("_", _), Sx::Atom("BitVec", _), w] => Ok(Sort::BitVec(self.num(w)?)),
                [Sx::Atom("Array", _), i, e] => match (self.sort(i)?, self.sort(e)?) {
                    (Sort::BitVec(index), Sort::BitVec(elem)) => Ok(Sort::Array { index, elem }),
                    _ => Err(bad()),
                },
                _ => Err(bad()),
            },
            _ => Err(bad()),
        }
    }

    fn term(&mut self, x: &Sx) -> Result<TermId, String> {
        let bad = |r: &Self| format!("a term not understood: `{}`", r.show(x));
        let xs = match x {
            Sx::Atom("true", _) => return Ok(self.store.tt()),
            Sx::Atom("false", _) => return Ok(self.store.ff()),
            Sx::Atom(a, _) => {
                return self
                    .names
                    .get(*a)
                    .copied()
                    .ok_or_else(|| format!("an unknown name `{a}`"))
            }
            Sx::List(xs, _) => xs,
        };
        let Some(head) = xs.first() else {
            return Err(bad(self));
        };
        // Indexed heads: ((_ extract hi lo) a), ((_ zero_extend k) a), ((as const S) v).
        if let Sx::List(h, _) = head {
            let arg = match xs.get(1) {
                Some(a) if xs.len() == 2 => a,
                _ => return Err(bad(self)),
            };
            return match h.as_slice() {
                [Sx::Atom("_", _), Sx::Atom("extract", _), hi, lo] => {
                    let (hi, lo) = (self.num(hi)?, self.num(lo)?);
                    let a = self.term(arg)?;
                    Ok(self.store.mk(&Node::Extract { hi, lo, arg: a }))
                }
                [Sx::Atom("_", _), Sx::Atom(ext @ ("zero_extend" | "sign_extend"), _), k] => {
                    let by = self.num(k)?;
                    let a = self.term(arg)?;
                    Ok(if *ext == "zero_extend" {
                        self.store.zero_ext(by, a)
                    } else {
                        self.store.sign_ext(by, a)
                    })
                }
                [Sx::Atom("as", _), Sx::Atom("const", _), sort] => {
                    let Sort::Array { index, .. } = self.sort(sort)? else {
                        return Err(bad(self));
                    };
                    let v = self.term(arg)?;
                    Ok(self.store.const_array(index, v))
                }
                _ => Err(bad(self)),
            };
        }
        let Some(head) = head.atom() else {
            return Err(bad(self));
        };
        match head {
            "_" => {
                // (_ bvV W)
                let [_, Sx::Atom(v, _), w] = xs.as_slice() else {
                    return Err(bad(self));
                };
                let value = v
                    .strip_prefix("bv")
                    .and_then(|v| v.parse::<u64>().ok())
                    .ok_or_else(|| bad(self))?;
                let width = self.num(w)?;
                Ok(self.store.bv_const(width, value))
            }
            "let" => self
                .float_node(xs)
                .map_err(|e| format!("{e} in `{}`", self.show(x))),
            "lambda" => {
                let [_, Sx::List(vars, _), body] = xs.as_slice() else {
                    return Err(bad(self));
                };
                let [Sx::List(v, _)] = vars.as_slice() else {
                    return Err(bad(self));
                };
                let [Sx::Atom(name, _), sort] = v.as_slice() else {
                    return Err(bad(self));
                };
                let sort = self.sort(sort)?;
                let var = self.store.bound_var(sort);
                let shadowed = self.names.insert((*name).to_string(), var);
                let body = self.term(body);
                match shadowed {
                    Some(s) => self.names.insert((*name).to_string(), s),
                    None => self.names.remove(*name),
                };
                Ok(self.store.lambda(var, body?))
            }
            _ => {
                let mut args = Vec::with_capacity(3);
                for a in &xs[1..] {
                    args.push(self.term(a)?);
                }
                let s = &mut *self.store;
                let n = args.len();
                let t = match (head, args.as_slice()) {
                    ("not", &[a]) => s.not(a),
                    ("and", &[a, b]) => s.and(a, b),
                    ("or", &[a, b]) => s.or(a, b),
                    ("xor", &[a, b]) => s.xor(a, b),
                    ("=", &[a, b]) => s.eq(a, b),
                    ("ite", &[c, a, b]) => s.ite(c, a, b),
                    ("bvneg", &[a]) => s.bv_un(BvUnOp::Neg, a),
                    ("bvnot", &[a]) => s.bv_un(BvUnOp::Not, a),
                    ("concat", &[a, b]) => s.concat(a, b),
                    ("select", &[a, i]) => s.select(a, i),
                    ("store", &[a, i, v]) => s.store(a, i, v),
                    (f, &[a, b]) => {
                        if let Some(op) = BvBinOp::ALL.iter().find(|o| o.smt_name() == f) {
                            s.bv_bin(*op, a, b)
                        } else if let Some(op) = BvCmpOp::ALL.iter().find(|o| o.smt_name() == f) {
                            s.bv_cmp(*op, a, b)
                        } else {
                            return Err(format!("an unknown operator `{f}` with {n} operands"));
                        }
                    }
                    (f, _) => return Err(format!("an unknown operator `{f}` with {n} operands")),
                };
                Ok(t)
            }
        }
    }

    /// `(let ((|!a0| A) ..) BODY)`: the float node whose printed body is BODY.
    fn float_node(&mut self, xs: &[Sx]) -> Result<TermId, String> {
        let [_, Sx::List(binds, _), body] = xs else {
            return Err("a `let` not of a float node".to_string());
        };
        let mut args = Vec::with_capacity(3);
        for (i, b) in binds.iter().enumerate() {
            let Sx::List(pair, _) = b else {
                return Err("a bad binding".to_string());
            };
            match pair.as_slice() {
                [Sx::Atom(n, _), t] if *n == format!("|!a{i}|") => args.push(self.term(t)?),
                _ => return Err("a `let` not of a float node".to_string()),
            }
        }
        let (a, b) = body.span();
        let Some(&first) = args.first() else {
            return Err("a float node without operands".to_string());
        };
        let w = self.store.width(first);
        let op = float_bodies()
            .get(&(w.min(64).max(1), self.text[a..b].to_string()))
            .copied()
            .ok_or("an unknown float operation")?;
        if op.arity() != args.len() {
            return Err(format!("{} with {} operands", op.name(), args.len()));
        }
        Ok(self.store.fp(op, &args))
    }
}

/// Every float node's printed body, by (width of the first operand, body text).
fn float_bodies() -> &'static HashMap<(u16, String), FpOp> {
    static TABLE: OnceLock<HashMap<(u16, String), FpOp>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut ops: Vec<(FpOp, Vec<u16>)> = Vec::new();
        let floats = vec![32u16, 64];
        let ints: Vec<u16> = (1..=64).collect();
        for m in RoundingMode::ALL {
            for op in [
                FpOp::Add(m),
                FpOp::Sub(m),
                FpOp::Mul(m),
                FpOp::Div(m),
                FpOp::Sqrt(m),
                FpOp::Fma(m),
                FpOp::RoundToIntegral(m),
            ] {
                ops.push((op, floats.clone()));
            }
            for to in [32, 64] {
                ops.push((FpOp::Convert { to, rm: m }, floats.clone()));
                ops.push((FpOp::FromSInt { to, rm: m }, ints.clone()));
                ops.push((FpOp::FromUInt { to, rm: m }, ints.clone()));
            }
        }
        for op in [
            FpOp::Fmod,
            FpOp::Min,
            FpOp::Max,
            FpOp::Eq,
            FpOp::Lt,
            FpOp::Le,
        ] {
            ops.push((op, floats.clone()));
        }
        for to in 1..=64 {
            ops.push((FpOp::ToSInt { to }, floats.clone()));
            ops.push((FpOp::ToUInt { to }, floats.clone()));
        }
        let mut table = HashMap::new();
        for (op, widths) in ops {
            for w in widths {
                table.insert((w, fp_body(op, w)), op);
            }
        }
        table
    })
}
