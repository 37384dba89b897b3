//! Parsing preprocessed text with lang-c (GNU C11 flavour), and rejecting text that is not C
//! at all (NUL bytes, invalid UTF-8) before the parser sees it.

use crate::diag::{DiagKind, Diagnostic};
use crate::source_map::{raw_line_col, SourceMap};
use lang_c::ast::TranslationUnit;
use lang_c::driver::{parse_preprocessed, Config};
use qicc_ir::DataModel;

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
) -> Result<TranslationUnit, Failure> {
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
    match parse_preprocessed(&config, text.to_string()) {
        Ok(p) => Ok(p.unit),
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
                let shown: Vec<String> =
                    expected.iter().take(8).map(|t| format!("'{t}'")).collect();
                msg.push_str(&format!(
                    ", expected {}{}",
                    shown.join(", "),
                    if expected.len() > 8 { ", ..." } else { "" }
                ));
            }
            if gcc_accepts(original, data_model) {
                let near = text.get(e.offset.saturating_sub(8)..).unwrap_or("");
                let near: String = near.chars().take(24).collect();
                let what = if near.contains("&&") || near.contains("goto") {
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
