//! The external verifiers qicc can use as X: which program each is, how to find it, and the
//! command line that asks it about an emitted file.
//!
//! Command lines (the data model picks the width; `extra_args` go before the file):
//! - CBMC: `cbmc --32|--64 --unwinding-assertions [--unwind K] FILE.c`. Without `--unwind`
//!   CBMC unwinds until every loop is done, which may be forever: the budget stops it.
//! - ESBMC: `esbmc --32|--64 (--unwind K | --k-induction) FILE.c` (ESBMC 8 checks its
//!   unwinding assertions by default and rejects `--unwinding-assertions`).
//! - Ultimate Automizer: `Ultimate.py --spec unreach-call.prp --file FILE.c
//!   --architecture 32bit|64bit --full-output` (the property file is written next to the C
//!   file); it has no bound.

use crate::emit::ErrorSpelling;
use qicc_ir::DataModel;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tool {
    Cbmc,
    Esbmc,
    Ultimate,
}

impl Tool {
    pub const ALL: [Tool; 3] = [Tool::Cbmc, Tool::Esbmc, Tool::Ultimate];

    /// The name on qicc's command line (`--backend cbmc`).
    pub fn name(self) -> &'static str {
        match self {
            Tool::Cbmc => "cbmc",
            Tool::Esbmc => "esbmc",
            Tool::Ultimate => "ultimate",
        }
    }

    pub fn from_name(s: &str) -> Option<Tool> {
        Tool::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(s))
    }

    /// The tool's own name, for messages.
    pub fn display_name(self) -> &'static str {
        match self {
            Tool::Cbmc => "CBMC",
            Tool::Esbmc => "ESBMC",
            Tool::Ultimate => "Ultimate Automizer",
        }
    }

    /// The executable looked for on `PATH` or in a `--backend-path` directory.
    pub fn program(self) -> &'static str {
        match self {
            Tool::Cbmc => "cbmc",
            Tool::Esbmc => "esbmc",
            Tool::Ultimate => "Ultimate.py",
        }
    }

    /// How assertion sites are spelt for this tool (one property per site for CBMC/ESBMC).
    pub fn spelling(self) -> ErrorSpelling {
        match self {
            Tool::Cbmc => ErrorSpelling::Cbmc,
            Tool::Esbmc => ErrorSpelling::Esbmc,
            Tool::Ultimate => ErrorSpelling::ReachError,
        }
    }

    /// The options that make the tool write its violation witness (SV-COMP 2.0 YAML) to
    /// `path`; `None` for a tool qicc does not read the witness of (CBMC's is GraphML 1.0).
    pub fn witness_args(self, path: &Path) -> Option<Vec<String>> {
        match self {
            Tool::Esbmc => Some(vec![
                "--witness-output-yaml".into(),
                path.display().to_string(),
            ]),
            Tool::Cbmc | Tool::Ultimate => None,
        }
    }

    /// Whether qicc asks the tool for its violation witness and replays it.
    pub fn writes_witness(self) -> bool {
        self.witness_args(Path::new("")).is_some()
    }

    fn install_hint(self) -> &'static str {
        match self {
            Tool::Cbmc => "install CBMC (a release package of the CBMC project, or your distribution's `cbmc` package)",
            Tool::Esbmc => "install ESBMC (a release of the ESBMC project)",
            Tool::Ultimate => "unpack an Ultimate Automizer release (the directory with Ultimate.py; it needs Java)",
        }
    }
}

/// An external verifier as Qicc's X.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalBackend {
    pub tool: Tool,
    /// `--backend-path`: the executable, or a directory holding it. `None`: search `PATH`.
    pub path: Option<PathBuf>,
    /// Passed to the tool before the file.
    pub extra_args: Vec<String>,
}

impl ExternalBackend {
    pub fn new(tool: Tool) -> ExternalBackend {
        ExternalBackend {
            tool,
            path: None,
            extra_args: Vec::new(),
        }
    }
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The first executable `program` in the directories of `path_var` (a `PATH` value).
pub fn find_on_path(program: &str, path_var: Option<&OsStr>) -> Option<PathBuf> {
    let path_var = path_var?;
    std::env::split_paths(path_var)
        .filter(|d| !d.as_os_str().is_empty())
        .map(|d| d.join(program))
        .find(|p| is_executable(p))
}

/// The executable of `tool`: `path` itself (or `path/<program>` for a directory), otherwise
/// the tool's program on `PATH`. The error names the tool and says how to get or point to it.
pub fn find_tool(tool: Tool, path: Option<&Path>) -> Result<PathBuf, String> {
    find_tool_with(tool, path, std::env::var_os("PATH").as_deref())
}

/// [`find_tool`] with an explicit `PATH` value.
pub fn find_tool_with(
    tool: Tool,
    path: Option<&Path>,
    path_var: Option<&OsStr>,
) -> Result<PathBuf, String> {
    let program = tool.program();
    match path {
        Some(p) => {
            let candidate = if p.is_dir() {
                p.join(program)
            } else {
                p.to_path_buf()
            };
            if is_executable(&candidate) {
                Ok(candidate)
            } else if candidate.exists() {
                Err(format!(
                    "{} at {} is not an executable file (check its permissions, or point \
                     --backend-path to the {program} executable)",
                    tool.display_name(),
                    candidate.display()
                ))
            } else {
                Err(format!(
                    "{} not found at {} (--backend-path): {}, or point --backend-path to the \
                     {program} executable or its directory",
                    tool.display_name(),
                    candidate.display(),
                    tool.install_hint()
                ))
            }
        }
        None => find_on_path(program, path_var).ok_or_else(|| {
            format!(
                "{} not found: no `{program}` on PATH; {}, then put it on PATH or pass \
                 --backend-path /path/to/{program}",
                tool.display_name(),
                tool.install_hint()
            )
        }),
    }
}

/// ESBMC's options in its SV-COMP configuration for `unreach-call` (k-induction; the data
/// model is added per program): how a user of ESBMC verifies a program's assertions, and so
/// how qicc runs it on the user's own files (`crate::original`). Its memory checks are off
/// (qicc takes only the assertions from that run) and `malloc` never fails, as in qicc.
pub const ESBMC_SVCOMP_UNREACH_CALL: &[&str] = &[
    "--k-induction",
    "--max-inductive-step",
    "3",
    "--unlimited-k-steps",
    "--k-step",
    "2",
    "--interval-analysis",
    "--no-pointer-check",
    "--no-bounds-check",
    "--no-div-by-zero-check",
    "--no-align-check",
    "--force-malloc-success",
    "--state-hashing",
    "--add-symex-value-sets",
];

/// The property file Ultimate reads: `reach_error` is never called.
pub const UNREACH_CALL_PRP: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n";

/// The arguments of one run of `tool` on `file` (without the executable).
pub fn command_args(
    tool: Tool,
    file: &Path,
    prp: &Path,
    data_model: DataModel,
    unwind: Option<u32>,
    extra: &[String],
) -> Vec<String> {
    let bits = data_model.pointer_bits();
    let file = file.display().to_string();
    let mut a: Vec<String> = Vec::new();
    match tool {
        Tool::Cbmc => {
            a.push(format!("--{bits}"));
            a.push("--unwinding-assertions".into());
            if let Some(k) = unwind {
                a.extend(["--unwind".into(), k.to_string()]);
            }
            a.extend(extra.iter().cloned());
            a.push(file);
        }
        Tool::Esbmc => {
            a.push(format!("--{bits}"));
            match unwind {
                Some(k) => a.extend(["--unwind".into(), k.to_string()]),
                None => a.push("--k-induction".into()),
            }
            a.extend(extra.iter().cloned());
            a.push(file);
        }
        Tool::Ultimate => {
            a.extend([
                "--spec".into(),
                prp.display().to_string(),
                "--file".into(),
                file,
                "--architecture".into(),
                format!("{bits}bit"),
                "--full-output".into(),
            ]);
            a.extend(extra.iter().cloned());
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for t in Tool::ALL {
            assert_eq!(Tool::from_name(t.name()), Some(t));
        }
        assert_eq!(Tool::from_name("CBMC"), Some(Tool::Cbmc));
        assert_eq!(Tool::from_name("z3"), None);
    }

    #[test]
    fn command_lines() {
        let f = Path::new("/t/r.c");
        let p = Path::new("/t/unreach-call.prp");
        assert_eq!(
            command_args(Tool::Cbmc, f, p, DataModel::Ilp32, Some(5), &[]),
            ["--32", "--unwinding-assertions", "--unwind", "5", "/t/r.c"]
        );
        assert_eq!(
            command_args(Tool::Esbmc, f, p, DataModel::Lp64, None, &["-x".into()]),
            ["--64", "--k-induction", "-x", "/t/r.c"]
        );
        assert_eq!(
            command_args(Tool::Esbmc, f, p, DataModel::Ilp32, Some(4), &[]),
            ["--32", "--unwind", "4", "/t/r.c"]
        );
        assert_eq!(
            command_args(Tool::Ultimate, f, p, DataModel::Lp64, Some(3), &[]),
            [
                "--spec",
                "/t/unreach-call.prp",
                "--file",
                "/t/r.c",
                "--architecture",
                "64bit",
                "--full-output"
            ]
        );
    }
}
