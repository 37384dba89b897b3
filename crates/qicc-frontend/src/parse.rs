//! Parsing preprocessed text with lang-c (GNU C11 flavour), and rejecting text that is not C
//! at all (NUL bytes, invalid UTF-8) before the parser sees it.

use crate::diag::{DiagKind, Diagnostic};
use crate::source_map::{raw_line_col, SourceMap};
use lang_c::ast::TranslationUnit;
use lang_c::driver::{parse_preprocessed, Config};
use qicc_ir::DataModel;
use std::collections::HashMap;

/// Raw file contents as text, or a syntax error at the first byte that cannot be C source.
pub fn check_text(file: &str, bytes: &[u8]) -> Result<String, Diagnostic> {
    let bad = |off: usize, what: &str| {
        let (l, c) = raw_line_col(bytes, off);
        Diagnostic::new(DiagKind::Syntax, file, l, c, what)
    };
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let off = e.valid_up_to();
            if let Some(nul) = bytes[..off].iter().position(|&b| b == 0) {
                return Err(bad(nul, "NUL byte in the source text (binary file?)"));
            }
            return Err(bad(off, "invalid UTF-8 in the source text (binary file?)"));
        }
    };
    if let Some(nul) = bytes.iter().position(|&b| b == 0) {
        return Err(bad(nul, "NUL byte in the source text (binary file?)"));
    }
    Ok(text.to_string())
}

/// The deepest nesting of `(` and `[` the front-end parses: lang-c takes time quadratic in
/// the depth (0.2 s at 512, a minute at 10,000), so deeper input gets a clear error at once.
pub const MAX_NESTING: usize = 512;

/// The offset of the first `(` or `[` nested deeper than [`MAX_NESTING`], outside string and
/// character literals (the text is preprocessed: no comments).
fn too_deep(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < bytes.len() && bytes[i] != q && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' | b'[' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(i);
                }
            }
            b')' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The offsets of `text`'s code bytes: those outside string and character literals (a
/// literal counts by its opening quote) and outside line markers (`# 12 "f.c"`), in order.
/// The text is preprocessed: no comments.
fn code_offsets(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        match bytes[i] {
            b'#' if line_start => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            q @ (b'"' | b'\'') => {
                // The opening quote stands for the literal (a token); its contents are not code.
                out.push(i);
                i += 1;
                while i < bytes.len() && bytes[i] != q && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                line_start = false;
            }
            b'\n' => {
                line_start = true;
                out.push(i);
            }
            b' ' | b'\t' => out.push(i),
            _ => {
                line_start = false;
                out.push(i);
            }
        }
        i += 1;
    }
    out
}

/// The identifier standing for GNU's omitted middle operand of `?:` (`x ?: y`, which is
/// `x ? x : y` with `x` evaluated once): lang-c does not parse the omitted operand, so
/// [`write_out_elvis`] writes this name there and the lowering recognises it.
pub const ELVIS: &str = "__qicc_elvis";

/// The text with [`ELVIS`] written between every `?` and a `:` that follows it with only
/// whitespace in between. Each insertion ends a line, and a line marker and indentation put
/// the `:` back at its line and column: every position stays where it was.
pub fn write_out_elvis(text: &str, map: &SourceMap) -> String {
    let code = code_offsets(text);
    let bytes = text.as_bytes();
    let mut colons = Vec::new();
    for (k, &i) in code.iter().enumerate() {
        if bytes[i] != b'?' {
            continue;
        }
        let next = code[k + 1..]
            .iter()
            .find(|&&j| !bytes[j].is_ascii_whitespace());
        if let Some(&j) = next.filter(|&&j| bytes[j] == b':') {
            colons.push(j);
        }
    }
    if colons.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 64 * colons.len());
    let mut from = 0;
    for c in colons {
        let pos = map.locate(text, c);
        let file = map
            .file_name(pos.file)
            .replace('\\', "\\\\")
            .replace('"', "\\\"");
        out.push_str(&text[from..c]);
        out.push_str(&format!(
            " {ELVIS}\n# {} \"{file}\"\n{}",
            pos.line,
            " ".repeat(pos.col.saturating_sub(1) as usize)
        ));
        from = c;
    }
    out.push_str(&text[from..]);
    out
}

/// Attributes written between `struct`/`union` and the tag (`struct __attribute__((packed))
/// S { … }`), which gcc accepts and lang-c does not: they are blanked out (same length, so
/// every offset stays) and returned by the offset of their `struct`/`union` keyword, for the
/// lowering to apply to the record (`Ctx::record_type`).
pub fn take_record_attributes(text: &str) -> (String, HashMap<usize, String>) {
    let mut attrs = HashMap::new();
    let code = code_offsets(text);
    let bytes = text.as_bytes();
    let mut blank: Vec<(usize, usize)> = Vec::new();
    let word_at = |i: usize, w: &str| {
        text.get(i..).is_some_and(|r| r.starts_with(w))
            && (i == 0 || !is_ident_byte(bytes[i - 1]))
            && !bytes.get(i + w.len()).copied().is_some_and(is_ident_byte)
    };
    for &i in &code {
        let kw = if word_at(i, "struct") {
            6
        } else if word_at(i, "union") {
            5
        } else {
            continue;
        };
        let mut j = i + kw;
        let mut found = String::new();
        loop {
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            let name = ["__attribute__", "__attribute"]
                .into_iter()
                .find(|w| word_at(j, w));
            let Some(name) = name else { break };
            let mut k = j + name.len();
            while k < bytes.len() && bytes[k].is_ascii_whitespace() {
                k += 1;
            }
            if bytes.get(k) != Some(&b'(') {
                break;
            }
            let mut depth = 0usize;
            let start = k;
            while k < bytes.len() {
                match bytes[k] {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                k += 1;
            }
            if k >= bytes.len() {
                break;
            }
            found.push_str(&text[start..=k]);
            blank.push((j, k + 1));
            j = k + 1;
        }
        if !found.is_empty() {
            attrs.insert(i, found);
        }
    }
    if blank.is_empty() {
        return (text.to_string(), attrs);
    }
    let mut out = text.as_bytes().to_vec();
    for (a, b) in blank {
        for x in &mut out[a..b] {
            if *x != b'\n' {
                *x = b' ';
            }
        }
    }
    (
        String::from_utf8(out).unwrap_or_else(|_| text.to_string()),
        attrs,
    )
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Why [`parse`] gave no translation unit.
pub enum Failure {
    /// Bad input (or input we do not support), with its diagnostic.
    Diag(Diagnostic),
    /// The text with C89's implicit `int` written out where the parser stopped at a
    /// declaration without a type specifier: parse that instead (see [`implicit_int`]).
    ImplicitInt(String),
}

/// C89's implicit `int`, which lang-c does not parse: at the parser's error offset `off`, an
/// identifier that starts a declaration (after nothing but storage classes, qualifiers or
/// `inline` since the last `;`, `{` or `}`) and is followed by `(` — a function defined or
/// declared without a type, as in `main() { … }` or `static f(x) int x; { … }` — or, after a
/// storage class, by `=`, `;`, `,` or `[` (`register i = 0;`). Returns the text with `int`
/// inserted before the identifier, which moves to a line of its own that a line marker and
/// indentation put back at its line and column: every position stays where it was.
fn implicit_int(text: &str, map: &SourceMap, off: usize) -> Option<String> {
    let head = text.get(..off)?;
    let decl_start = head.rfind([';', '{', '}']).map_or(0, |i| i + 1);
    let prefix = &head[decl_start..];
    // Line markers (`# 5 "main.c"`) may stand between the last declaration and this one.
    let words: Vec<&str> = prefix
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(str::split_whitespace)
        .collect();
    let specifiers_only = words.iter().all(|w| {
        matches!(
            *w,
            "static"
                | "extern"
                | "register"
                | "auto"
                | "const"
                | "volatile"
                | "inline"
                | "__inline"
                | "__inline__"
        )
    });
    let has_specifier = !words.is_empty();
    let rest = &text[off..];
    let len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    if !specifiers_only || len == 0 || rest.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let after = rest[len..].trim_start();
    let declarator =
        after.starts_with('(') || (has_specifier && after.starts_with(['=', ';', ',', '[']));
    if !declarator {
        return None;
    }
    let pos = map.locate(text, off);
    let file = map
        .file_name(pos.file)
        .replace('\\', "\\\\")
        .replace('"', "\\\"");
    Some(format!(
        "{head}int\n# {} \"{file}\"\n{}{rest}",
        pos.line,
        " ".repeat(pos.col.saturating_sub(1) as usize)
    ))
}

/// Parses preprocessed text; a syntax error is reported at the parser's position. When gcc
/// accepts the text that lang-c rejects (`original`: the text without our prelude), the
/// construct is a GNU extension we do not support: an `Unsupported` diagnostic. With
/// `fix_implicit_int`, an error where C89's implicit `int` would make the text parse gives
/// [`Failure::ImplicitInt`] instead.
pub fn parse(
    text: &str,
    map: &SourceMap,
    original: &str,
    data_model: DataModel,
    fix_implicit_int: bool,
) -> Result<(TranslationUnit, HashMap<usize, String>), Failure> {
    if let Some(off) = too_deep(text) {
        let pos = map.locate(text, off);
        return Err(Failure::Diag(Diagnostic::new(
            DiagKind::Unsupported,
            map.file_name(pos.file),
            pos.line,
            pos.col,
            format!(
                "parentheses and brackets nested more than {MAX_NESTING} deep (the parser's \
                 time grows with the square of the depth; C11 5.2.4.1 asks for 63)"
            ),
        )));
    }
    let config = Config::with_gcc();
    let (parsed_text, record_attrs) = take_record_attributes(text);
    match parse_preprocessed(&config, parsed_text) {
        Ok(p) => Ok((p.unit, record_attrs)),
        Err(e) => {
            if let Some(fixed) = implicit_int(text, map, e.offset).filter(|_| fix_implicit_int) {
                return Err(Failure::ImplicitInt(fixed));
            }
            let pos = map.locate(text, e.offset);
            let mut expected: Vec<&str> = e.expected.iter().copied().collect();
            expected.sort_unstable();
            let found = text
                .get(e.offset..)
                .and_then(|s| s.split_whitespace().next())
                .map(|t| t.chars().take(20).collect::<String>());
            let mut msg = match found {
                Some(t) => format!("syntax error at '{t}'"),
                None => "syntax error: unexpected end of file".to_string(),
            };
            if !expected.is_empty() {
                msg.push_str(&format!(": expected {}", expected_words(&expected)));
            }
            if gcc_accepts(original, data_model) {
                let near = text.get(e.offset.saturating_sub(8)..).unwrap_or("");
                let near: String = near.chars().take(24).collect();
                // The parser stops at the 128-bit type's name or at the declarator after it.
                let around: String = text
                    .get(e.offset.saturating_sub(16)..)
                    .unwrap_or("")
                    .chars()
                    .take(40)
                    .collect();
                let what = if ["__int128", "__uint128_t", "_Float128", "__float128"]
                    .iter()
                    .any(|t| around.contains(t))
                {
                    "128-bit types (__int128, __float128)"
                } else if near.contains("&&") || near.contains("goto") {
                    "computed goto or label addresses"
                } else {
                    "a GNU C construct the parser does not handle (e.g. __int128, nested functions, computed goto)"
                };
                return Err(Failure::Diag(Diagnostic::new(
                    DiagKind::Unsupported,
                    map.file_name(pos.file),
                    pos.line,
                    pos.col,
                    format!("{what}: {msg}"),
                )));
            }
            Err(Failure::Diag(Diagnostic::new(
                DiagKind::Syntax,
                map.file_name(pos.file),
                pos.line,
                pos.col,
                msg,
            )))
        }
    }
}

/// Whether `gcc -fsyntax-only` accepts the preprocessed text.
fn gcc_accepts(text: &str, data_model: DataModel) -> bool {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut cmd = Command::new("gcc");
    cmd.args(["-fsyntax-only", "-w", "-x", "cpp-output", "-"]);
    if data_model == DataModel::Ilp32 {
        cmd.arg("-m32");
    }
    let Ok(mut child) = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
    else {
        return false;
    };
    let body = text.to_string();
    let Some(mut stdin) = child.stdin.take() else {
        let _ = child.kill();
        let _ = child.wait();
        return false;
    };
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(body.as_bytes());
    });
    let ok = child.wait().map(|s| s.success()).unwrap_or(false);
    let _ = writer.join();
    ok
}

#[cfg(test)]
mod tests {
    use super::{too_deep, MAX_NESTING};

    #[test]
    fn nesting_beyond_the_limit_is_found_outside_literals() {
        let ok = format!("{}x{}", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
        assert_eq!(too_deep(&ok), None);
        let deep = format!("a[{}x", "(".repeat(MAX_NESTING));
        assert_eq!(too_deep(&deep), Some(1 + MAX_NESTING));
        // Brackets in string and character literals do not count.
        let quoted = format!("s = \"{}\"; c = '(';", "(".repeat(2 * MAX_NESTING));
        assert_eq!(too_deep(&quoted), None);
        let escaped = format!("s = \"\\\"{}\";", "[".repeat(2 * MAX_NESTING));
        assert_eq!(too_deep(&escaped), None);
    }
}

#[cfg(test)]
mod rewrite_tests {
    use super::*;

    fn elvis(text: &str) -> String {
        write_out_elvis(text, &SourceMap::new(text, "t.c"))
    }

    #[test]
    fn only_an_omitted_middle_operand_is_written_out() {
        let t = "int a = c ? \"?\" : ':'; int b = c ? '?' : x ? y : z;";
        assert_eq!(elvis(t), t);
        let out = elvis("int a = f() ?: 3;\nint b = x ? : y;");
        assert_eq!(out.matches(ELVIS).count(), 2, "{out}");
        // The colon after each insertion is back at its line and column.
        let map = SourceMap::new(&out, "t.c");
        let colons: Vec<_> = out
            .match_indices(": ")
            .map(|(i, _)| {
                let p = map.locate(&out, i);
                (p.line, p.col)
            })
            .collect();
        assert_eq!(colons, vec![(1, 14), (2, 13)], "{out}");
    }

    #[test]
    fn record_attributes_are_blanked_and_kept_by_keyword() {
        let t = "struct __attribute__((packed, aligned(4))) S { int x; };\n\
                 union __attribute__ ((x)) __attribute__((y(1))) U { int y; };\n\
                 struct T { char *s; } v = { \"struct __attribute__((z))\" };";
        let (out, attrs) = take_record_attributes(t);
        assert_eq!(out.len(), t.len());
        assert!(
            !out[..out.find("v =").unwrap()].contains("attribute"),
            "{out}"
        );
        assert!(out.contains("\"struct __attribute__((z))\""), "{out}");
        assert_eq!(
            attrs.get(&0).map(String::as_str),
            Some("((packed, aligned(4)))")
        );
        let u = t.find("union").unwrap();
        assert_eq!(attrs.get(&u).map(String::as_str), Some("((x))((y(1)))"));
        assert_eq!(attrs.len(), 2);
    }
}

/// What the parser expected, as a C programmer says it: the punctuation that ends what came
/// before (`';'`, `','`, `')'`, ...) when one would do (a missing `;` lets every operator
/// continue the expression too: those are not worth listing), else "an expression" where
/// one must start, else the first tokens of the set.
fn expected_words(expected: &[&str]) -> String {
    let closers: Vec<String> = [";", ",", ")", "]", "}", ":"]
        .iter()
        .filter(|c| expected.contains(c))
        .map(|c| format!("'{c}'"))
        .collect();
    if !closers.is_empty() {
        return match closers.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => closers.join(""),
        };
    }
    if expected.contains(&"(") && expected.contains(&"!") {
        return "an expression".to_string();
    }
    let shown: Vec<String> = expected.iter().take(8).map(|t| format!("'{t}'")).collect();
    format!(
        "{}{}",
        shown.join(", "),
        if expected.len() > 8 { ", ..." } else { "" }
    )
}
