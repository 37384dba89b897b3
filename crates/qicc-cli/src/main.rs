//! `qicc`: verify C programs with assertions.
//!
//! This binary only parses arguments, wires Ctrl-C and progress output, prints, and maps
//! results to exit codes; the pipeline itself is `qicc-driver`. Exit codes are a contract with
//! scripts and never change: 0 TRUE, 10 FALSE, 5 UNKNOWN, 6 input error (parse, type,
//! unsupported feature, unreadable file), 1 internal error.

mod cmd_batch;
mod cmd_cfa;
mod cmd_regions;
mod cmd_report;
mod cmd_run;
mod cmd_verify;
mod common;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

pub const EXIT_TRUE: u8 = 0;
pub const EXIT_FALSE: u8 = 10;
pub const EXIT_UNKNOWN: u8 = 5;
/// Bounded mode: no violation within the bound (`--bound K`), not a proof.
pub const EXIT_BOUNDED: u8 = 4;
pub const EXIT_INPUT_ERROR: u8 = 6;
pub const EXIT_INTERNAL: u8 = 1;
/// Bad command line or set-up (as clap's own usage errors): e.g. an external verifier that is
/// not installed.
pub const EXIT_USAGE: u8 = 2;

const ABOUT: &str =
    "Verify C programs with assertions: TRUE (no assertion can fail), FALSE (with a \
counterexample that replays), or UNKNOWN (with the reason).";

const LONG_ABOUT: &str = "\
Verify C programs with assertions: TRUE (no assertion can fail), FALSE (with a counterexample \
that replays), or UNKNOWN (with the reason).

qicc reads SV-COMP style programs: assertions are reach_error(), __VERIFIER_assert(cond) and \
assert(cond); inputs come from __VERIFIER_nondet_<type>(); __VERIFIER_assume(cond) restricts \
them. Give it .c files and preprocessed .i files (each a translation unit, linked as C links \
them: a harness and the library it calls), or an SV-COMP task .yml (its data_model and \
input_files are used).

Examples:
  qicc verify prog.c                      verify with the default engine (qicc)
  qicc verify harness.c lib.c -I include  a harness and the library it calls
  qicc verify --engine bmc --unwind 10 prog.c
  qicc verify --engine impulse prog.c     look for deep bugs only
  qicc verify --format json task.yml      machine-readable result
  qicc cfa prog.c                         print the control-flow automata (IR text)
  qicc cfa --dot prog.c | dot -Tsvg > cfa.svg
  qicc run --seed 3 prog.c                execute once with pseudo-random inputs
  qicc run --inputs 5,-1,0 prog.c         execute with the given __VERIFIER_nondet_* values
  qicc regions prog.c                     print the Region Nesting Tree
  qicc verify --bound 8 harness.c lib.c   bounded: no violation within 8 iterations, or TRUE/FALSE
  qicc batch --jobs 2 -o out benchmarks/  every task of a directory, one result each, merged report
  qicc verify --html out prog.c           also a web page of the result: open out/index.html
  qicc report --html site out/            web pages of saved results (a batch, JSON reports)

Exit codes: 0 TRUE, 10 FALSE, 5 UNKNOWN, 4 BOUNDED (--bound: no violation within the bound), 6 input error (parse/type/unsupported/unreadable), \
1 internal error, 2 bad command line or missing external verifier.";

#[derive(Parser)]
#[command(name = "qicc", version, about = ABOUT, long_about = LONG_ABOUT)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Decide whether any assertion of the program can fail.
    Verify(cmd_verify::VerifyArgs),
    /// Print the control-flow automata qicc builds from the program (IR text or Graphviz).
    Cfa(cmd_cfa::CfaArgs),
    /// Execute the program once with concrete inputs and print the trace.
    Run(cmd_run::RunArgs),
    /// Print the Region Nesting Tree: the loops and calls qicc can verify in isolation.
    Regions(cmd_regions::RegionsArgs),
    /// Verify many tasks (files, directories, a list), each its own `qicc verify` run, into
    /// an output directory with one result per task and a merged report; resumable.
    Batch(cmd_batch::BatchArgs),
    /// Write the browsable report (static web pages: source, trace, proof, regions) of saved
    /// results: JSON reports, batch result files, batch output directories.
    Report(cmd_report::ReportArgs),
}

fn main() -> ExitCode {
    // Output piped into `head` that closes early ends qicc quietly, as it does any Unix tool
    // (Rust ignores SIGPIPE, and a failed print would be reported as an internal error).
    // SAFETY: setting a signal's disposition to the default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let result = std::panic::catch_unwind(move || match cli.command {
        Command::Verify(a) => cmd_verify::run(a),
        Command::Cfa(a) => cmd_cfa::run(a),
        Command::Run(a) => cmd_run::run(a),
        Command::Regions(a) => cmd_regions::run(a),
        Command::Batch(a) => cmd_batch::run(a),
        Command::Report(a) => cmd_report::run(a),
    });
    match result {
        Ok(code) => exit_now(code),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("unknown panic");
            eprintln!("qicc: internal error: {msg} (this is a bug in qicc; please report it with the input file)");
            ExitCode::from(EXIT_INTERNAL)
        }
    }
}

/// Ends the process at once with `code`, once the answer is out: an abandoned engine may
/// still hold a solver context that the C++ exit handlers would free first (seconds with a
/// large one), and `--timeout` promises the answer, exit included, on time.
fn exit_now(code: u8) -> ExitCode {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: `_exit` ends the process without running exit handlers; every output stream
    // of ours is flushed above and nothing else needs an orderly shutdown.
    unsafe { libc::_exit(i32::from(code)) }
}
