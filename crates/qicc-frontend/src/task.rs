//! SV-COMP task definitions (format 2.0): which file to verify, the data model, and the
//! expected verdict of the `unreach-call` property.

use crate::diag::{DiagKind, Diagnostic};
use qicc_ir::DataModel;
use serde_yaml::Value;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// The task file itself.
    pub path: PathBuf,
    /// The program, resolved relative to the task file.
    pub input_file: PathBuf,
    pub data_model: Option<DataModel>,
    /// The task has the `unreach-call` property.
    pub unreach_call: bool,
    /// Expected verdict of `unreach-call` (`true`: no call of `reach_error` is reachable).
    pub expected_verdict: Option<bool>,
}

pub fn load_task(path: &Path) -> Result<Task, Diagnostic> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| {
        Diagnostic::new(DiagKind::Io, &shown, 1, 1, format!("cannot read file: {e}"))
    })?;
    let doc: Value = serde_yaml::from_str(&text).map_err(|e| {
        let (l, c) = e
            .location()
            .map(|l| (l.line() as u32, l.column() as u32))
            .unwrap_or((1, 1));
        Diagnostic::new(
            DiagKind::Syntax,
            &shown,
            l.max(1),
            c.max(1),
            format!("not a valid task file: {e}"),
        )
    })?;
    let bad = |msg: &str| Diagnostic::new(DiagKind::Syntax, &shown, 1, 1, msg);
    let line_of = |key: &str| -> u32 {
        text.lines()
            .position(|l| l.trim_start().starts_with(key))
            .map(|i| i as u32 + 1)
            .unwrap_or(1)
    };
    let get = |k: &str| doc.get(k);
    if let Some(v) = get("format_version") {
        let s = match v {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            _ => String::new(),
        };
        if !s.starts_with('2') {
            return Err(Diagnostic::new(
                DiagKind::Unsupported,
                &shown,
                line_of("format_version"),
                1,
                format!("task format version '{s}' (only 2.0 is supported)"),
            ));
        }
    }
    let inputs: Vec<String> = match get("input_files") {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Sequence(xs)) => xs
            .iter()
            .filter_map(|x| x.as_str().map(str::to_string))
            .collect(),
        _ => return Err(bad("task file has no 'input_files'")),
    };
    let input = match inputs.as_slice() {
        [one] => one.clone(),
        [] => return Err(bad("task file has no 'input_files'")),
        _ => {
            return Err(Diagnostic::new(
                DiagKind::Unsupported,
                &shown,
                line_of("input_files"),
                1,
                format!("tasks with several input files ({})", inputs.len()),
            ))
        }
    };
    let dir = path.parent().unwrap_or(Path::new(""));
    let input_file = dir.join(&input);
    let data_model = match get("options").and_then(|o| o.get("data_model")) {
        Some(Value::String(s)) => Some(DataModel::from_name(s).ok_or_else(|| {
            Diagnostic::new(
                DiagKind::Unsupported,
                &shown,
                line_of("data_model"),
                1,
                format!("data model '{s}'"),
            )
        })?),
        _ => None,
    };
    let mut unreach_call = false;
    let mut expected_verdict = None;
    if let Some(Value::Sequence(props)) = get("properties") {
        for p in props {
            let file = p.get("property_file").and_then(Value::as_str).unwrap_or("");
            let name = Path::new(file)
                .file_name()
                .and_then(|f| f.to_str())
                .unwrap_or("");
            if name == "unreach-call.prp" {
                unreach_call = true;
                expected_verdict = p.get("expected_verdict").and_then(Value::as_bool);
            }
        }
    }
    Ok(Task {
        path: path.to_path_buf(),
        input_file,
        data_model,
        unreach_call,
        expected_verdict,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).expect("temp dir is writable");
        p
    }

    #[test]
    fn reads_sv_comp_tasks() {
        let dir = std::env::temp_dir().join(format!("qicc-task-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = write(
            &dir,
            "t.yml",
            "format_version: '2.0'\ninput_files: 'prog.c'\nproperties:\n  - property_file: ../properties/termination.prp\n    expected_verdict: true\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\noptions:\n  language: C\n  data_model: ILP32\n",
        );
        let t = load_task(&p).unwrap();
        assert_eq!(t.input_file, dir.join("prog.c"));
        assert_eq!(t.data_model, Some(DataModel::Ilp32));
        assert!(t.unreach_call);
        assert_eq!(t.expected_verdict, Some(false));

        let p = write(
            &dir,
            "u.yml",
            "format_version: '2.0'\ninput_files: ['a.c']\nproperties:\n  - property_file: ../properties/valid-memsafety.prp\noptions:\n  data_model: LP64\n",
        );
        let t = load_task(&p).unwrap();
        assert!(!t.unreach_call);
        assert_eq!(t.expected_verdict, None);
        assert_eq!(t.data_model, Some(DataModel::Lp64));

        let p = write(
            &dir,
            "m.yml",
            "format_version: '2.0'\ninput_files:\n  - a.c\n  - b.c\nproperties: []\n",
        );
        let d = load_task(&p).unwrap_err();
        assert_eq!((d.kind, d.line), (DiagKind::Unsupported, 2));

        let p = write(&dir, "bad.yml", "input_files: [unclosed\n");
        assert_eq!(load_task(&p).unwrap_err().kind, DiagKind::Syntax);
        let d = load_task(&dir.join("missing.yml")).unwrap_err();
        assert_eq!(d.kind, DiagKind::Io);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
