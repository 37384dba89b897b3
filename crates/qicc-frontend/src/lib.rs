//! The qicc C front-end: a C program (or an SV-COMP task) in, a [`qicc_ir::Program`] out.
//!
//! Pipeline: `gcc -E` (module `preprocess`) → lang-c parse (`parse`) → C types (`types`) and
//! lowering to IR (`lower`), with positions mapped back to the original files (`source_map`).
//! Every result passes `qicc_ir::verify_program`; every failure is one [`Diagnostic`] naming
//! a `file:line:col`. What is modelled, what is rejected as unsupported and the known
//! approximations are listed in the docs of the `lower` module.
//!
//! Invariant: no input makes this crate panic or overflow its stack: parsing and lowering run
//! on a thread with a large stack, and a panic there (a bug) becomes an internal error.

pub mod diag;
mod lower;
mod parse;
mod preprocess;
mod source_map;
pub mod task;
mod types;

pub use diag::{DiagKind, Diagnostic};
pub use qicc_ir::DataModel;

/// The C library models' source, as positions in [`qicc_ir::LIBRARY_MODELS_FILE`] count its
/// lines (reports show a trace's steps inside a model with it).
pub fn library_models_source() -> &'static str {
    lower::clib::MODELS_C
}

use std::path::{Path, PathBuf};

/// How to read and lower a program.
#[derive(Clone, Debug)]
pub struct Options {
    pub data_model: DataModel,
    /// Insert undefined-behaviour checks (division by zero, shifts, invalid writes and frees,
    /// oversized allocations).
    pub ub_checks: bool,
    /// `-I` directories for the preprocessor.
    pub include_dirs: Vec<PathBuf>,
    /// `-D` definitions for the preprocessor (`NAME` or `NAME=VALUE`).
    pub defines: Vec<String>,
    /// `--function NAME`: verify from this function (see `lower::entry`); `None`: `main`.
    pub entry: Option<String>,
    /// Whether `unreach-call` is checked: calls of `reach_error()` and `__VERIFIER_error()`,
    /// `__assert_fail` (a failing `assert`) and a failing `__VERIFIER_assert` are property
    /// assertions. When another property is checked they are what C makes them: a call of the
    /// program's `reach_error` (one without a body is rejected: nothing says what it does),
    /// an abort, and a check that aborts.
    pub unreach_call: bool,
    /// Whether signed overflow is a property (`no-overflow`): a signed `<<` that overflows is
    /// then checked too (as unreach-call, qicc computes it as the machines do).
    pub overflow: bool,
    /// Whether each conversion to a signed integer type that may change the value is a
    /// property assertion ([`qicc_ir::AssertKind::Conversion`]; CBMC's `--conversion-check`).
    pub conversion_checks: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            data_model: DataModel::Lp64,
            ub_checks: true,
            include_dirs: Vec::new(),
            defines: Vec::new(),
            entry: None,
            unreach_call: true,
            overflow: false,
            conversion_checks: false,
        }
    }
}

impl Options {
    /// These options lowering for `properties`: which checks the front-end makes property
    /// assertions (unreach-call's calls, signed `<<` overflow, conversions).
    pub fn for_properties(self, properties: &task::Properties) -> Options {
        Options {
            unreach_call: properties.contains(task::Property::UnreachCall),
            overflow: properties.contains(task::Property::NoOverflow),
            conversion_checks: properties.contains(task::Property::Conversion),
            ..self
        }
    }
}

/// A lowered program and what the user should know about how it was modelled.
#[derive(Clone, Debug)]
pub struct Lowered {
    pub program: qicc_ir::Program,
    pub warnings: Vec<Diagnostic>,
}

/// Stack size of the thread that parses and lowers (the parser and the lowering recurse on
/// the nesting depth of the source).
const STACK_SIZE: usize = 512 << 20;

/// Lowers a `.c` file (preprocessed with `gcc -E`) or a `.i` file (already preprocessed).
pub fn lower_file(path: &Path, opts: &Options) -> Result<Lowered, Diagnostic> {
    lower_files(&[path.to_path_buf()], opts)
}

/// Lowers a program of several files (`.c`, preprocessed with `gcc -E`, or `.i`), each its
/// own translation unit, linked as C links them (external definitions shared, `static`
/// ones per file, tentative definitions merged; two definitions of one name are an error).
pub fn lower_files(paths: &[PathBuf], opts: &Options) -> Result<Lowered, Diagnostic> {
    let mut units = Vec::new();
    let mut warnings = Vec::new();
    for path in paths {
        let shown = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| {
            Diagnostic::new(DiagKind::Io, &shown, 1, 1, format!("cannot read file: {e}"))
        })?;
        let text = parse::check_text(&shown, &bytes)?;
        if path.extension().and_then(|e| e.to_str()) == Some("i") {
            units.push((shown, text));
            continue;
        }
        let mut pp = preprocess::preprocess(
            preprocess::Input::File(path),
            opts.data_model,
            &opts.include_dirs,
            &opts.defines,
        )?;
        warnings.append(&mut pp.warnings);
        units.push((shown, pp.text));
    }
    run_guarded(units, warnings, opts.clone())
}

/// Lowers C source text; `preprocessed`: the text is already the output of a preprocessor
/// (otherwise it goes through `gcc -E`, with `#include`s relative to the working directory).
pub fn lower_source(
    file_name: &str,
    text: &str,
    preprocessed: bool,
    opts: &Options,
) -> Result<Lowered, Diagnostic> {
    let text = parse::check_text(file_name, text.as_bytes())?;
    if preprocessed {
        return run_guarded(
            vec![(file_name.to_string(), text)],
            Vec::new(),
            opts.clone(),
        );
    }
    let pp = preprocess::preprocess(
        preprocess::Input::Text {
            name: file_name,
            text: &text,
        },
        opts.data_model,
        &opts.include_dirs,
        &opts.defines,
    )?;
    run_guarded(
        vec![(file_name.to_string(), pp.text)],
        pp.warnings,
        opts.clone(),
    )
}

/// How many declarations without a type (C89's implicit `int`) one translation unit may have:
/// each costs a parse of the whole text.
const MAX_IMPLICIT_INTS: usize = 64;

/// Parses and lowers the units (file name, text) on a thread with a large stack; a panic
/// there becomes an internal error.
fn run_guarded(
    units: Vec<(String, String)>,
    mut warnings: Vec<Diagnostic>,
    opts: Options,
) -> Result<Lowered, Diagnostic> {
    let file = units.first().map(|u| u.0.clone()).unwrap_or_default();
    let handle = std::thread::Builder::new()
        .name("qicc-frontend".into())
        .stack_size(STACK_SIZE)
        .spawn(move || {
            let mut parsed = Vec::new();
            for (i, (file, text)) in units.into_iter().enumerate() {
                parsed.push(parse_unit(&file, text, i == 0, opts.data_model)?);
            }
            lower::lower_units(&parsed, &opts)
        });
    let handle = match handle {
        Ok(h) => h,
        Err(e) => {
            return Err(Diagnostic::new(
                DiagKind::Internal,
                file,
                1,
                1,
                format!("cannot start the front-end thread: {e}"),
            ))
        }
    };
    match handle.join() {
        Ok(Ok(mut lowered)) => {
            warnings.append(&mut lowered.warnings);
            lowered.warnings = warnings;
            Ok(lowered)
        }
        Ok(Err(d)) => Err(d),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(Diagnostic::new(
                DiagKind::Internal,
                file,
                1,
                1,
                format!("the front-end panicked (a bug): {msg}"),
            ))
        }
    }
}

/// Parses one translation unit. glibc's <stddef.h> for i386 names `__float128`, which lang-c
/// does not know: it is declared first (as a floating-point type, so that any use is reported
/// as unsupported). The first unit also gets the C library's models (before the program, so
/// that none of the program's declarations can change how they parse; see `lower::clib`).
/// The line marker after the prelude keeps line numbers of marker-less text right.
fn parse_unit(
    file: &str,
    text: String,
    with_models: bool,
    data_model: DataModel,
) -> Result<lower::ParsedUnit, Diagnostic> {
    let models = if with_models {
        lower::clib::models_source(data_model)
    } else {
        String::new()
    };
    let mut full = format!(
        "typedef long double __float128;\n{models}\n# 1 \"{}\"\n{text}",
        file.replace('\\', "\\\\").replace('"', "\\\"")
    );
    // GNU's `x ?: y`, written out for the parser (positions kept).
    if full.contains('?') {
        let map = source_map::SourceMap::new(&full, file);
        full = parse::write_out_elvis(&full, &map);
    }
    // Each round writes out one implicit `int` (C89) the parser stopped at.
    let mut rounds = 0;
    loop {
        let map = source_map::SourceMap::new(&full, file);
        let fix = rounds < MAX_IMPLICIT_INTS;
        match parse::parse(&full, &map, &text, data_model, fix) {
            Ok((unit, record_attrs)) => {
                return Ok(lower::ParsedUnit {
                    text: full,
                    map,
                    unit,
                    record_attrs,
                })
            }
            Err(parse::Failure::ImplicitInt(fixed)) => {
                full = fixed;
                rounds += 1;
            }
            Err(parse::Failure::Diag(d)) => return Err(d),
        }
    }
}
