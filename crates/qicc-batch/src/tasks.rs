//! Which tasks a batch runs: task files (`.yml`/`.yaml`, SV-COMP format) and C files (`.c`,
//! `.i`) named on the command line, found in directories (recursively), or listed in a list
//! file; each with a stable id (its path below the directory it was found in, with that
//! directory's name in front) and a family (the id's directory) for the merged report.
//!
//! Invariant: ids are unique and contain no `..` and no absolute part, so `tasks/<id>/` stays
//! inside the output directory; the same inputs give the same tasks in the same order.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

/// One task of a batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// The file `qicc verify` is given: absolute, symbolic links resolved.
    pub path: PathBuf,
    /// Unique within the batch, `/`-separated: `benchmarks/seeds/call_tree_16.yml`.
    pub id: String,
    /// The id's directory (`benchmarks/seeds`; `.` for a file named alone).
    pub family: String,
}

fn is_task_file(p: &Path) -> bool {
    matches!(p.extension().and_then(|e| e.to_str()), Some("yml" | "yaml"))
}

fn is_c_file(p: &Path) -> bool {
    matches!(p.extension().and_then(|e| e.to_str()), Some("c" | "i"))
}

/// The files a task file names as its `input_files` (resolved against its directory); none
/// when it cannot be read as a task (it is then still run, and qicc says what is wrong).
fn task_inputs(task: &Path) -> Vec<PathBuf> {
    let Ok(text) = std::fs::read_to_string(task) else {
        return Vec::new();
    };
    let Ok(yaml) = serde_yaml::from_str::<serde_yaml::Value>(&text) else {
        return Vec::new();
    };
    let dir = task.parent().unwrap_or(Path::new("."));
    let files = match yaml.get("input_files") {
        Some(serde_yaml::Value::String(s)) => vec![s.clone()],
        Some(serde_yaml::Value::Sequence(v)) => v
            .iter()
            .filter_map(|f| f.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    };
    files.into_iter().map(|f| normalize(&dir.join(f))).collect()
}

/// `p` with `.` and `dir/..` removed (without touching the file system).
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// Every file below `dir`, sorted, recursively (hidden entries skipped).
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read directory {}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with('.'))
        {
            continue;
        }
        if p.is_dir() {
            walk(&p, out)?;
        } else {
            out.push(p);
        }
    }
    Ok(())
}

/// The tasks a directory holds: its task files, and its C files that no task file of the
/// directory tree names as an input (those are run through their task).
fn tasks_in(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    walk(dir, &mut files)?;
    let named: BTreeSet<PathBuf> = files
        .iter()
        .filter(|f| is_task_file(f))
        .flat_map(|f| task_inputs(f))
        .collect();
    Ok(files
        .into_iter()
        .filter(|f| is_task_file(f) || (is_c_file(f) && !named.contains(&normalize(f))))
        .collect())
}

/// The id of `file` found below `base` (a directory input): `base`'s name, then the path
/// below it, `/`-separated, with no `..`.
fn id_below(base: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(base).unwrap_or(file);
    let mut parts: Vec<String> = Vec::new();
    if let Some(name) = normalize(base).file_name().and_then(|n| n.to_str()) {
        parts.push(name.to_string());
    }
    parts.extend(rel.components().filter_map(|c| match c {
        Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
        _ => None,
    }));
    parts.join("/")
}

/// The id of a path a list file names: the path as written below the list file's directory,
/// without its `.` and `..` components (`../../shared/benchmarks/a/x.yml` is
/// `shared/benchmarks/a/x.yml`).
fn id_of_listed(dir: &Path, file: &Path) -> String {
    let rel = normalize(file.strip_prefix(dir).unwrap_or(file));
    let parts: Vec<String> = rel
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    parts.join("/")
}

/// Lines of a list file: one path or glob per line, relative to the list file's directory;
/// `#` starts a comment (as BenchExec's `.set` files). Each file with its id.
fn read_list(list: &Path) -> Result<Vec<(PathBuf, String)>, String> {
    let text = std::fs::read_to_string(list)
        .map_err(|e| format!("cannot read the list file {}: {e}", list.display()))?;
    let dir = list.parent().unwrap_or(Path::new("."));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let pattern = dir.join(line);
        let shown = pattern.to_string_lossy().into_owned();
        let matches = glob::glob(&shown)
            .map_err(|e| format!("{}:{}: not a path or glob: {e}", list.display(), i + 1))?;
        let before = out.len();
        out.extend(matches.filter_map(Result::ok).map(|f| {
            let id = id_of_listed(dir, &f);
            (f, id)
        }));
        if out.len() == before {
            return Err(format!(
                "{}:{}: `{line}` names no file",
                list.display(),
                i + 1
            ));
        }
    }
    Ok(out)
}

/// The tasks of `inputs` (files and directories) and of `list` (a list file), those whose id
/// matches `select` when given, in input order; an input that does not exist is an error.
pub fn discover(
    inputs: &[PathBuf],
    list: Option<&Path>,
    select: Option<&str>,
) -> Result<Vec<Task>, String> {
    let pattern = select
        .map(|s| glob::Pattern::new(s).map_err(|e| format!("--select {s}: {e}")))
        .transpose()?;
    let mut found: Vec<(PathBuf, String)> = Vec::new();
    for input in inputs {
        if input.is_dir() {
            for f in tasks_in(input)? {
                let id = id_below(input, &f);
                found.push((f, id));
            }
        } else if input.is_file() {
            let id = input
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "task".into());
            found.push((input.clone(), id));
        } else {
            return Err(format!("{}: no such file or directory", input.display()));
        }
    }
    if let Some(l) = list {
        found.extend(read_list(l)?);
    }
    // Two inputs with the same id (`a/x.c` and `b/x.c` named alone): number the later ones.
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut tasks = Vec::new();
    for (path, id) in found {
        let n = seen.entry(id.clone()).or_insert(0);
        *n += 1;
        let id = if *n == 1 { id } else { format!("{id}~{n}") };
        if pattern.as_ref().is_some_and(|p| !p.matches(&id)) {
            continue;
        }
        // The path every run sees the same, whatever its working directory (a Slurm node).
        let path = std::fs::canonicalize(&path).unwrap_or(path);
        let family = match id.rsplit_once('/') {
            Some((dir, _)) => dir.to_string(),
            None => ".".to_string(),
        };
        tasks.push(Task { path, id, family });
    }
    Ok(tasks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("qicc-batch-tasks-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temp dir");
        d
    }

    #[test]
    fn a_directory_gives_its_tasks_and_unnamed_c_files() {
        let d = scratch("dir");
        let fam = d.join("suite/loops");
        std::fs::create_dir_all(&fam).expect("mkdir");
        std::fs::write(fam.join("a.c"), "int main(){}").expect("write");
        std::fs::write(
            fam.join("a.yml"),
            "format_version: '2.0'\ninput_files: 'a.c'\n",
        )
        .expect("write");
        std::fs::write(fam.join("b.c"), "int main(){}").expect("write");
        std::fs::write(fam.join("notes.txt"), "x").expect("write");
        std::fs::write(d.join("suite/.hidden.c"), "x").expect("write");
        let tasks = discover(&[d.join("suite")], None, None).expect("found");
        let ids: Vec<&str> = tasks.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["suite/loops/a.yml", "suite/loops/b.c"]);
        assert!(tasks.iter().all(|t| t.family == "suite/loops"));
        let sel = discover(&[d.join("suite")], None, Some("*/b.*")).expect("found");
        assert_eq!(sel.len(), 1);
        assert_eq!(sel[0].id, "suite/loops/b.c");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn list_files_hold_globs_and_ids_stay_unique() {
        let d = scratch("list");
        for sub in ["x", "y"] {
            std::fs::create_dir_all(d.join(sub)).expect("mkdir");
            std::fs::write(d.join(sub).join("p.c"), "int main(){}").expect("write");
        }
        std::fs::write(
            d.join("set.txt"),
            "# a comment\nx/*.c\n./y/../y/p.c  # the other\n",
        )
        .expect("write");
        let tasks = discover(&[], Some(&d.join("set.txt")), None).expect("found");
        let ids: Vec<&str> = tasks.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["x/p.c", "y/p.c"]);
        assert_eq!(tasks[0].family, "x");
        // Two files named alone with one name: the later one is numbered.
        let alone = discover(&[d.join("x/p.c"), d.join("y/p.c")], None, None).expect("found");
        let ids: Vec<&str> = alone.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["p.c", "p.c~2"]);
        assert_eq!(alone[0].family, ".");
        std::fs::write(d.join("bad.txt"), "z/*.c\n").expect("write");
        let err = discover(&[], Some(&d.join("bad.txt")), None).unwrap_err();
        assert!(
            err.contains("bad.txt:1") && err.contains("names no file"),
            "{err}"
        );
        let err = discover(&[d.join("missing.c")], None, None).unwrap_err();
        assert!(err.contains("no such file"), "{err}");
        let _ = std::fs::remove_dir_all(&d);
    }
}
