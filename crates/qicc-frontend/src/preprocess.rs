//! Running the C preprocessor (`gcc -E`) on `.c` files.
//!
//! Owns the command line (data model flag, `-D`, `-I`) and the translation of gcc's error
//! output into a [`Diagnostic`] at the position gcc names.

use crate::diag::{DiagKind, Diagnostic};
use qicc_ir::DataModel;
use std::path::Path;
use std::process::Command;

/// The preprocessed text and the warnings preprocessing produced.
pub struct Preprocessed {
    pub text: String,
    pub warnings: Vec<Diagnostic>,
}

/// What to preprocess: a file (includes resolve relative to it) or text given in memory
/// (read from stdin, with a line marker naming it).
pub enum Input<'s> {
    File(&'s Path),
    Text { name: &'s str, text: &'s str },
}

pub fn preprocess(
    input: Input,
    data_model: DataModel,
    include_dirs: &[std::path::PathBuf],
    defines: &[String],
) -> Result<Preprocessed, Diagnostic> {
    let shown = match &input {
        Input::File(p) => p.display().to_string(),
        Input::Text { name, .. } => name.to_string(),
    };
    let run = |m32: bool| -> Result<String, Diagnostic> {
        let mut cmd = Command::new("gcc");
        cmd.arg("-E");
        if m32 {
            cmd.arg("-m32");
        }
        for d in defines {
            cmd.arg(format!("-D{d}"));
        }
        for i in include_dirs {
            cmd.arg("-I").arg(i);
        }
        let cannot = |e: std::io::Error| {
            Diagnostic::new(
                DiagKind::Preprocess,
                &shown,
                1,
                1,
                format!("cannot run gcc -E: {e}"),
            )
        };
        let out = match &input {
            Input::File(path) => cmd.arg(path).output().map_err(cannot)?,
            Input::Text { name, text } => {
                use std::io::Write;
                cmd.args(["-x", "c", "-"])
                    .stdin(std::process::Stdio::piped())
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped());
                let mut child = cmd.spawn().map_err(cannot)?;
                let body = format!("# 1 \"{}\"\n{text}", escape_name(name));
                let mut stdin = child
                    .stdin
                    .take()
                    .ok_or_else(|| cannot(std::io::Error::other("no stdin")))?;
                // Write on another thread: gcc may fill its output pipe before reading all.
                let writer = std::thread::spawn(move || {
                    let _ = stdin.write_all(body.as_bytes());
                });
                let out = child.wait_with_output().map_err(cannot)?;
                let _ = writer.join();
                out
            }
        };
        if out.status.success() {
            return String::from_utf8(out.stdout).map_err(|e| {
                let off = e.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(&e.into_bytes()[..off]).into_owned();
                let map = crate::source_map::SourceMap::new(&text, &shown);
                let p = map.locate(&text, off);
                Diagnostic::new(
                    DiagKind::Syntax,
                    map.file_name(p.file),
                    p.line,
                    p.col,
                    "invalid UTF-8 in the source text",
                )
            });
        }
        let stderr = String::from_utf8_lossy(&out.stderr);
        Err(gcc_error(&stderr, &shown))
    };
    if data_model == DataModel::Ilp32 {
        match run(true) {
            Ok(text) => Ok(Preprocessed {
                text,
                warnings: Vec::new(),
            }),
            Err(first) => match run(false) {
                Ok(text) => Ok(Preprocessed {
                    text,
                    warnings: vec![Diagnostic::new(
                        DiagKind::Warning,
                        &shown,
                        1,
                        1,
                        format!(
                            "preprocessing with -m32 failed ({}); used the host's headers instead",
                            first.message
                        ),
                    )],
                }),
                Err(_) => Err(first),
            },
        }
    } else {
        run(false).map(|text| Preprocessed {
            text,
            warnings: Vec::new(),
        })
    }
}

fn escape_name(name: &str) -> String {
    name.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The first error gcc reported, at the position it names (or the file's start).
fn gcc_error(stderr: &str, file: &str) -> Diagnostic {
    for line in stderr.lines() {
        for marker in [": fatal error: ", ": error: "] {
            if let Some(i) = line.find(marker) {
                let (loc, msg) = (&line[..i], &line[i + marker.len()..]);
                let mut parts = loc.rsplitn(3, ':');
                let c = parts.next().and_then(|s| s.parse::<u32>().ok());
                let l = parts.next().and_then(|s| s.parse::<u32>().ok());
                let f = parts.next();
                return match (f, l, c) {
                    (Some(f), Some(l), Some(c)) => {
                        Diagnostic::new(DiagKind::Preprocess, f, l, c, msg)
                    }
                    _ => match loc.rsplit_once(':') {
                        Some((f, l)) if l.parse::<u32>().is_ok() => {
                            Diagnostic::new(DiagKind::Preprocess, f, l.parse().unwrap_or(1), 1, msg)
                        }
                        _ => Diagnostic::new(DiagKind::Preprocess, file, 1, 1, line),
                    },
                };
            }
        }
    }
    let first = stderr.lines().next().unwrap_or("gcc -E failed").trim();
    Diagnostic::new(DiagKind::Preprocess, file, 1, 1, first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gcc_errors_are_located() {
        let d = gcc_error(
            "In file included from x.c:1:\nx.c:3:10: fatal error: nope.h: No such file or directory\ncompilation terminated.\n",
            "x.c",
        );
        assert_eq!(
            d.to_string(),
            "x.c:3:10: error: nope.h: No such file or directory"
        );
        let d = gcc_error("x.c:4:2: error: #error stop\n", "x.c");
        assert_eq!((d.line, d.col), (4, 2));
        let d = gcc_error("something odd\n", "y.c");
        assert_eq!((d.file.as_str(), d.line, d.col), ("y.c", 1, 1));
    }
}
