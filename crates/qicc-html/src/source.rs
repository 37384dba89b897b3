//! The source files a page shows: the program's (the report's `files`) and any other file a
//! trace step or an assertion is in, read from disk where the report names them.

use crate::html::{array_of, str_of};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// One source file: its name as the report gives it, and its text when it could be read.
#[derive(Clone, Debug)]
pub struct Source {
    pub name: String,
    pub text: Option<String>,
}

/// A file the report may name that is no file on disk, with its text: the C library models
/// (`<qicc libc>`), which qicc compiles in.
pub type Builtin<'a> = (&'a str, &'a str);

/// The files `report` refers to, in order of first mention (its `files` first), each from
/// `builtin` when it names it, else read from the path the report names, else from each of
/// `dirs` (a relative path in a report saved elsewhere: its task's directory, the result
/// file's). A file that cannot be read is listed without text, and the page says so.
pub fn load_sources(report: &Value, dirs: &[PathBuf], builtin: &[Builtin]) -> Vec<Source> {
    let mut names: Vec<String> = Vec::new();
    let mut add = |n: &str| {
        if !n.is_empty() && !names.iter().any(|m| m == n) {
            names.push(n.to_string());
        }
    };
    for f in array_of(report, "files") {
        add(f.as_str().unwrap_or(""));
    }
    let steps = array_of(&report["violation"]["trace"], "steps");
    for a in array_of(report, "assertions")
        .iter()
        .chain(array_of(&report["ub_checks"], "open"))
    {
        // A check inside a built-in file (a library model's) shows that file only when the
        // trace enters it.
        let file = str_of(a, "file");
        if !builtin.iter().any(|(n, _)| *n == file)
            || steps.iter().any(|s| str_of(s, "file") == file)
        {
            add(file);
        }
    }
    for s in steps {
        add(str_of(s, "file"));
    }
    names
        .into_iter()
        .map(|name| {
            let text = match builtin.iter().find(|(n, _)| *n == name) {
                Some((_, text)) => Some(text.to_string()),
                None => read(Path::new(&name), dirs),
            };
            Source { name, text }
        })
        .collect()
}

fn read(path: &Path, dirs: &[PathBuf]) -> Option<String> {
    let bytes = std::fs::read(path).ok().or_else(|| {
        let file = path.file_name()?;
        dirs.iter().find_map(|d| {
            std::fs::read(d.join(path))
                .ok()
                .or_else(|| std::fs::read(d.join(file)).ok())
        })
    })?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}
