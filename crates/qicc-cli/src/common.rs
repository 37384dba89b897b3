//! Arguments and output shared by the subcommands: the input files and their front-end options,
//! the output format, and the one-line error report for bad input.

use clap::{Args, ValueEnum};
use qicc_driver::{load, LoadOptions, Loaded};
use qicc_frontend::Diagnostic;
use qicc_ir::DataModel;
use std::path::PathBuf;

#[derive(Args, Clone)]
pub struct InputArgs {
    /// The program: .c files (preprocessed with gcc -E) and preprocessed .i files, each a
    /// translation unit, linked as C links them (a harness and the library it calls); or one
    /// SV-COMP task .yml.
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// ILP32 data model: int, long and pointers are 32 bits (gcc -m32). A task's data_model wins.
    #[arg(long = "32", conflicts_with = "m64")]
    pub m32: bool,
    /// LP64 data model: long and pointers are 64 bits (the default). A task's data_model wins.
    #[arg(long = "64")]
    pub m64: bool,
    /// Define a preprocessor macro (as gcc -D).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub defines: Vec<String>,
    /// Add an include directory (as gcc -I).
    #[arg(short = 'I', value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
    /// Do not check for undefined behaviour (division by zero, over-wide shifts, writes outside
    /// objects). Faster, but a TRUE then assumes the program has none.
    #[arg(long)]
    pub no_ub_checks: bool,
    /// Verify from function NAME instead of main (as CBMC's --function): each scalar
    /// parameter is an input; a pointer parameter points to a fresh object of its pointed-to
    /// type (one element, arbitrary bytes; never null); a struct parameter has arbitrary
    /// bytes. The counterexample is replayed by the interpreter only.
    #[arg(long, value_name = "NAME")]
    pub function: Option<String>,
}

impl InputArgs {
    pub fn load(&self) -> Result<Loaded, Diagnostic> {
        self.load_for_property(None, None)
    }

    /// Loads the input to check the property file `property` (`--property`), or the property
    /// `check` names (`--check`), on it.
    pub fn load_for_property(
        &self,
        property: Option<PathBuf>,
        check: Option<qicc_frontend::task::Properties>,
    ) -> Result<Loaded, Diagnostic> {
        let data_model = if self.m32 {
            Some(DataModel::Ilp32)
        } else if self.m64 {
            Some(DataModel::Lp64)
        } else {
            None
        };
        load(
            &self.files,
            &LoadOptions {
                data_model,
                ub_checks: !self.no_ub_checks,
                include_dirs: self.include_dirs.clone(),
                defines: self.defines.clone(),
                property,
                check,
                entry: self.function.clone(),
            },
        )
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    /// SARIF 2.1.0, for code scanning (`qicc verify` only).
    Sarif,
}

/// Reports bad input: one line on stderr (and a JSON object or a SARIF log on stdout with
/// `--format json` or `sarif`).
pub fn input_error(d: &Diagnostic, format: Format, sarif_root: Option<&std::path::Path>) -> u8 {
    eprintln!("{d}");
    if format == Format::Sarif {
        match qicc_driver::sarif::error_log(
            env!("CARGO_PKG_VERSION"),
            &qicc_driver::sarif::SrcRoot::new(sarif_root),
            &d.file,
            d.line,
            d.col,
            &d.to_string(),
        ) {
            Ok(log) => println!("{log:#}"),
            Err(e) => eprintln!("qicc: internal error: cannot serialise the SARIF log: {e}"),
        }
    }
    if format == Format::Json {
        let obj = serde_json::json!({
            "verdict": "error",
            "error": {
                "kind": format!("{:?}", d.kind).to_lowercase(),
                "file": d.file,
                "line": d.line,
                "col": d.col,
                "message": d.message,
            }
        });
        println!("{obj:#}");
    }
    if matches!(d.kind, qicc_frontend::DiagKind::Internal) {
        crate::EXIT_INTERNAL
    } else {
        crate::EXIT_INPUT_ERROR
    }
}

pub fn print_warnings(loaded: &Loaded) {
    for w in &loaded.warnings {
        eprintln!("{w}");
    }
}

/// How much of a counterexample `verify` and `run` show (`--trace-detail`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TraceDetail {
    /// The steps of the program as written.
    Program,
    /// Also compiler temporaries, the passing side of each undefined-behaviour check and
    /// the steps inside the C library's models.
    Full,
}
