//! Loading what the user named: `.c` files and preprocessed `.i` files (each a translation
//! unit, linked as C links them), or one SV-COMP task `.yml` (whose `input_files` are the
//! units and whose `data_model` overrides the command line, as SV-COMP requires), and the
//! property file to check (`--property`): one qicc does not check stops the load, before any
//! verdict could be given for the wrong property.

use qicc_frontend::{task, Diagnostic, Options};
use qicc_ir::{DataModel, Program};
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// `--32` / `--64`; `None`: the task's data model, else LP64.
    pub data_model: Option<DataModel>,
    pub ub_checks: bool,
    pub include_dirs: Vec<PathBuf>,
    pub defines: Vec<String>,
    /// `--property FILE.prp`; `None`: `check`, else unreach-call, with a task's unreach-call
    /// entry.
    pub property: Option<PathBuf>,
    /// `--check PROPERTY,...`: the properties by name, without a file.
    pub check: Option<task::Properties>,
    /// `--function NAME`: the entry point (`None`: `main`).
    pub entry: Option<String>,
}

/// A lowered program and what it came from.
pub struct Loaded {
    pub program: Program,
    /// The C (or `.i`) files that were lowered, in order (at least one).
    pub sources: Vec<PathBuf>,
    /// The preprocessor options they were read with (`-I DIR`, `-D NAME`), for a compiler.
    pub cflags: Vec<String>,
    pub task: Option<task::Task>,
    /// The properties checked (`--property`, `--check`; unreach-call without either).
    pub property: task::Properties,
    pub warnings: Vec<Diagnostic>,
}

fn is_task(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yml" | "yaml")
    )
}

/// Loads the program of `paths`: one task file, or one or more C files.
pub fn load(paths: &[PathBuf], opts: &LoadOptions) -> Result<Loaded, Diagnostic> {
    let Some(path) = paths.first() else {
        return Err(Diagnostic::new(
            qicc_frontend::DiagKind::Io,
            "qicc",
            1,
            1,
            "no input file",
        ));
    };
    if let Some(t) = paths
        .iter()
        .find(|p| is_task(p))
        .filter(|_| paths.len() > 1)
    {
        return Err(Diagnostic::new(
            qicc_frontend::DiagKind::Unsupported,
            &t.display().to_string(),
            1,
            1,
            "a task file with other input files (a task names its own input_files)",
        ));
    }
    // First: an unsupported property is the answer whatever the program holds.
    let property = match &opts.property {
        Some(prp) => task::Properties::from(task::load_property(prp)?),
        None => opts.check.clone().unwrap_or_default(),
    };
    let mut task = if is_task(path) {
        Some(task::load_task(path)?)
    } else {
        None
    };
    if let (Some(t), Some(prp)) = (task.as_mut(), &opts.property) {
        t.select_property(prp);
    }
    let data_model = task
        .as_ref()
        .and_then(|t| t.data_model)
        .or(opts.data_model)
        .unwrap_or(DataModel::Lp64);
    // A task of format 1.x names no data model: say which one the verdict is for.
    let mut warnings = Vec::new();
    if let Some(t) = task.as_ref().filter(|t| t.data_model.is_none()) {
        if opts.data_model.is_none() {
            warnings.push(Diagnostic::new(
                qicc_frontend::DiagKind::Warning,
                &path.display().to_string(),
                1,
                1,
                format!(
                    "task format {} names no data model: verifying for {} (--32 or --64 to choose; SV-COMP ran such tasks as their category said)",
                    t.format_version,
                    data_model.name()
                ),
            ));
        }
    }
    let sources = task
        .as_ref()
        .map(|t| t.input_files.clone())
        .unwrap_or_else(|| paths.to_vec());
    let fe = Options {
        data_model,
        ub_checks: opts.ub_checks,
        include_dirs: opts.include_dirs.clone(),
        defines: opts.defines.clone(),
        entry: opts.entry.clone(),
        ..Options::default()
    }
    .for_properties(&property);
    let mut lowered = qicc_frontend::lower_files(&sources, &fe)?;
    // The property's checks are assertions of the IR (`qicc_ir::property`): every engine
    // decides them as it decides a reach_error() call.
    lowered.program = with_property(&lowered.program, &property);
    warnings.extend(lowered.warnings);
    let mut cflags = Vec::new();
    for d in &opts.include_dirs {
        cflags.push(format!("-I{}", d.display()));
    }
    for d in &opts.defines {
        cflags.push(format!("-D{d}"));
    }
    Ok(Loaded {
        program: lowered.program,
        sources,
        cflags,
        task,
        property,
        warnings,
    })
}

/// The lowered program with the checks of `properties` as its property assertions
/// (`qicc_ir::property`; unreach-call's and conversion's are the front-end's): what every
/// engine verifies.
pub fn with_property(
    program: &qicc_ir::Program,
    properties: &task::Properties,
) -> qicc_ir::Program {
    use qicc_ir::property::{check_memsafety, check_overflow, MemEnd};
    let mut p = if properties.contains(task::Property::NoOverflow) {
        check_overflow(program)
    } else {
        program.clone()
    };
    match properties.memory() {
        Some(task::Property::MemSafety) => p = check_memsafety(&p, MemEnd::Memtrack),
        Some(task::Property::MemCleanup) => p = check_memsafety(&p, MemEnd::Memcleanup),
        _ => {}
    }
    p
}
