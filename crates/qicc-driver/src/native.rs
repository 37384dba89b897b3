//! Native replay: the *original* C program compiled with the system C compiler and run, with
//! a runtime that answers its `__VERIFIER_nondet_*` calls from a witness's values in order
//! (execution-based validation, as CPAchecker's and FShell's witness2test do).
//!
//! This module owns the compilation, the C runtime, the run (in its own process group under
//! a time limit, through `qicc_external::process::run_in_group`) and the reading of its end.
//! What the driver does with the answer is `crate::confirm`'s.
//!
//! Invariant: [`NativeOutcome::Reached`] means the compiled program called `reach_error`,
//! `__VERIFIER_error` or `__assert_fail` in a run that no sanitizer stopped before. It is a
//! real violation of the C program, because:
//! - every value the runtime feeds is a value of the nondet function's type (the witness
//!   value truncated to the type, as the IR's havoc uses the low bits), and past the
//!   witness's end the runtime answers 0, also a value of the type: whatever the run
//!   followed, it is *an* execution of the program;
//! - undefined behaviour before the reach stops the run instead: signed overflow
//!   (`-fsanitize=signed-integer-overflow`, unless `--signed-overflow wrap`, where `-fwrapv`
//!   gives the IR's wrap-around instead), division by zero and over-wide shifts (the IR's own
//!   UB checks; traps: no runtime library needed), and memory errors (AddressSanitizer, exit
//!   status [`ASAN_EXIT`]). An undefined run could otherwise let the optimiser reach the
//!   error on a path C does not have;
//! - `-fno-strict-aliasing` and `-fno-delete-null-pointer-checks` keep the optimiser from
//!   the other UB-based rewrites the sanitizers do not see, and `-m32`/`-m64` give the
//!   task's data model, so `int`, `long` and pointers have the widths the IR lowered
//!   (`-m32` with `-msse2 -mfpmath=sse`: floats rounded to their type, as the IR's);
//! - uninitialised locals and memory are whatever the stack and heap hold: SV-COMP (and the
//!   IR) read them as arbitrary values, so any contents is an execution too.
//!
//! `reach_error` is defined by nearly every task (141 of the 153 shared ones call
//! `__assert_fail` in it, 12 have an empty body, which the IR also reads as the violation).
//! A header forced in front of the program (`-include`) declares it (and
//! `__VERIFIER_error`) `weak`, so the program's definition gives way at link time to the
//! runtime's strong one, which records the reach; a weak function is never inlined, so every
//! call goes through the symbol. The runtime is compiled on its own (without that header).
//! The runtime reports the return addresses of `reach_error` and of its caller (frame
//! pointers kept, no inlining): `addr2line` turns them into source lines, which name the
//! assertion (the IR's assertion span is the `__VERIFIER_assert` or `reach_error` call).
//!
//! The runtime does not depend on the witness: it reads the values from the file
//! [`INPUTS_FILE`] in the run's directory before `main`. So it is compiled once per compiler
//! and data model, and kept (`runtime_object`: in `$XDG_CACHE_HOME/qicc` or
//! `~/.cache/qicc`, named by a hash of its source, flags and compiler) for every later
//! replay, also of later qicc processes: a FALSE verdict pays for compiling the program only.

use qicc_engine::Budget;
use qicc_ir::DataModel;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The runtime's exit status when the error function was called.
const REACHED_EXIT: i32 = 86;
/// AddressSanitizer's exit status (set in the runtime's `__asan_default_options`).
const ASAN_EXIT: i32 = 77;
/// The file, in the run's directory, the runtime reads the witness's values from (one decimal
/// number a line).
const INPUTS_FILE: &str = "qicc_inputs";
/// What a run stopped by the sanitizers' trap did (they say no more than this).
pub const SANITIZER_TRAP: &str =
    "signed overflow, division by zero or over-wide shift (sanitizer trap)";
/// How long compiling may take.
const COMPILE_TIME: Duration = Duration::from_secs(60);

/// How a native run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NativeOutcome {
    /// The error function was called; the source lines of its call site and of its caller's
    /// (when `addr2line` could tell), and whether the run still followed the witness's
    /// values (none was missing).
    Reached {
        sites: Vec<(String, u32)>,
        followed_witness: bool,
    },
    /// The program ended without reaching it (how: exit status or signal).
    NotReached(String),
    /// A sanitizer stopped the run at undefined behaviour.
    Undefined(String),
    /// The time limit passed (or the budget was cancelled).
    Timeout,
    /// No verdict possible: no compiler, the program did not compile, the run could not
    /// start.
    Unavailable(String),
}

impl std::fmt::Display for NativeOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NativeOutcome::Reached { .. } => write!(f, "reached the error"),
            NativeOutcome::NotReached(how) => write!(f, "did not reach the error ({how})"),
            NativeOutcome::Undefined(what) => write!(f, "undefined behaviour ({what})"),
            NativeOutcome::Timeout => write!(f, "time limit reached"),
            NativeOutcome::Unavailable(why) => write!(f, "not run ({why})"),
        }
    }
}

/// A C compiler and how to compile with it.
#[derive(Clone, Debug)]
pub struct Native {
    pub compiler: PathBuf,
    /// `--signed-overflow wrap`: `-fwrapv` instead of trapping on signed overflow.
    pub wraps: bool,
    /// Checking `no-overflow`: a signed `<<` that overflows traps too (`-fsanitize=shift-base`;
    /// for unreach-call the IR computes the machine's bits there, as gcc does).
    pub shifts: bool,
    /// The preprocessor options the front-end read the program with (`-I`, `-D`), so that
    /// the compiler sees the same program.
    pub cflags: Vec<String>,
}

impl Native {
    /// `gcc` or else `cc` on the `PATH`, if there is one.
    pub fn find(wraps: bool) -> Option<Native> {
        let path = std::env::var_os("PATH")?;
        ["gcc", "cc"].iter().find_map(|name| {
            std::env::split_paths(&path)
                .map(|d| d.join(name))
                .find(|p| p.is_file())
                .map(|compiler| Native {
                    compiler,
                    wraps,
                    shifts: false,
                    cflags: Vec::new(),
                })
        })
    }

    /// Compiles `sources` (the program's files) with the runtime feeding `inputs` and runs
    /// it until it ends, `limit` passes or `budget` is exhausted (the driver builds once per
    /// run, `crate::confirm`).
    #[cfg(test)]
    pub fn replay(
        &self,
        sources: &[PathBuf],
        data_model: DataModel,
        inputs: &[u64],
        limit: Duration,
        budget: &Budget,
    ) -> NativeOutcome {
        match self.build(sources, data_model, budget) {
            Ok(built) => built.run(inputs, limit, budget),
            Err(why) => NativeOutcome::Unavailable(why),
        }
    }

    /// Compiles `sources` with the runtime: an executable that replays any witness (the
    /// runtime reads the values when it starts), so one build serves every replay of a run.
    pub fn build(
        &self,
        sources: &[PathBuf],
        data_model: DataModel,
        budget: &Budget,
    ) -> Result<Built, String> {
        let dir = scratch_dir().map_err(|e| format!("no scratch directory: {e}"))?;
        // Owns the directory from here on: removed on every way out.
        let built = Built {
            exe: dir.join("program"),
            dir,
        };
        self.compile_program(&built, sources, data_model, budget)?;
        Ok(built)
    }

    fn compile_program(
        &self,
        built: &Built,
        sources: &[PathBuf],
        data_model: DataModel,
        budget: &Budget,
    ) -> Result<(), String> {
        let dir = built.dir.as_path();
        let mut files = Vec::new();
        for source in sources {
            let s = source
                .canonicalize()
                .map_err(|e| format!("{}: {e}", source.display()))?;
            files.push(path_arg(&s));
        }
        let header = dir.join("qicc_weak.h");
        let exe = &built.exe;
        std::fs::write(&header, forced_header())
            .map_err(|e| format!("cannot write the forced header: {e}"))?;
        // ILP32 floats are SSE's, as the README defines them (and the differential tests
        // compile): x87's excess precision would replay another program.
        let model: &[&str] = match data_model {
            DataModel::Ilp32 => &["-m32", "-msse2", "-mfpmath=sse"],
            DataModel::Lp64 => &["-m64"],
        };
        let common: Vec<&str> = model
            .iter()
            .copied()
            .chain(["-O1", "-g", "-no-pie", "-w", "-fno-omit-frame-pointer"])
            .collect();
        let runtime_obj = self.runtime_object(&common, dir, budget)?;
        let mut args: Vec<String> = common.iter().map(|s| s.to_string()).collect();
        args.extend(
            [
                // No inlining and real calls: the error function stays interposable and the
                // frames name the call sites.
                "-fno-inline",
                "-fno-optimize-sibling-calls",
                "-fno-strict-aliasing",
                "-fno-delete-null-pointer-checks",
                // Tentative definitions in several files merge, as qicc links them.
                "-fcommon",
                "-fsanitize=address",
                "-fsanitize-undefined-trap-on-error",
            ]
            .iter()
            .map(|s| s.to_string()),
        );
        if self.wraps {
            args.push("-fwrapv".into());
            args.push("-fsanitize=shift-exponent,integer-divide-by-zero".into());
        } else {
            args.push(
                "-fsanitize=signed-integer-overflow,shift-exponent,integer-divide-by-zero".into(),
            );
        }
        if self.shifts {
            args.push("-fsanitize=shift-base".into());
        }
        args.extend(self.cflags.iter().cloned());
        args.extend([
            "-include".into(),
            path_arg(&header),
            // A `.i` file is C too: without `-x c` gcc would not preprocess it, and the
            // forced header would be ignored.
            "-x".into(),
            "c".into(),
        ]);
        args.extend(files);
        args.extend([
            "-x".into(),
            "none".into(),
            path_arg(&runtime_obj),
            "-o".into(),
            path_arg(exe),
        ]);
        self.compile(&args, dir, budget)
    }

    /// The runtime compiled with `flags`: the cached object when there is one, else compiled
    /// into the cache (written under a name of its own, then renamed: processes that compile
    /// it at once never see half a file), or into `dir` when there is no cache directory.
    fn runtime_object(
        &self,
        flags: &[&str],
        dir: &Path,
        budget: &Budget,
    ) -> Result<PathBuf, String> {
        use std::hash::{Hash, Hasher};
        let source = runtime_source();
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (&source, flags, &self.compiler).hash(&mut h);
        // The compiler's identity: its file's size and time (an upgrade changes them).
        if let Ok(m) = std::fs::metadata(&self.compiler) {
            (m.len(), m.modified().ok()).hash(&mut h);
        }
        let name = format!("qicc_runtime-{:016x}.o", h.finish());
        let cache = cache_dir();
        if let Some(obj) = cache
            .as_ref()
            .map(|c| c.join(&name))
            .filter(|o| o.is_file())
        {
            return Ok(obj);
        }
        let src = dir.join("qicc_runtime.c");
        std::fs::write(&src, &source).map_err(|e| format!("cannot write the runtime: {e}"))?;
        let built = dir.join("qicc_runtime.o");
        let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
        args.extend(["-c".into(), path_arg(&src), "-o".into(), path_arg(&built)]);
        self.compile(&args, dir, budget)?;
        let Some(cache) = cache else {
            return Ok(built);
        };
        let obj = cache.join(&name);
        let mine = cache.join(format!("{name}.{}.tmp", std::process::id()));
        let kept = std::fs::copy(&built, &mine).is_ok() && std::fs::rename(&mine, &obj).is_ok();
        let _ = std::fs::remove_file(&mine);
        Ok(if kept { obj } else { built })
    }

    fn compile(&self, args: &[String], dir: &Path, budget: &Budget) -> Result<(), String> {
        let b = budget.child(Some(COMPILE_TIME));
        let out = qicc_external::process::run_in_group(&self.compiler, args, dir, &b)
            .map_err(|e| format!("cannot run {}: {e}", self.compiler.display()))?;
        if out.stopped.is_some() {
            return Err("compiling took too long".into());
        }
        match out.status {
            Some(s) if s.success() => Ok(()),
            _ => Err(format!(
                "{} could not compile the program: {}",
                self.compiler.display(),
                out.stderr.lines().take(3).collect::<Vec<_>>().join(" | ")
            )),
        }
    }
}

/// The program compiled with the runtime ([`Native::build`]), in a directory of its own that
/// goes with it.
pub struct Built {
    dir: PathBuf,
    exe: PathBuf,
}

impl Built {
    /// Runs the program with the runtime feeding `inputs`, until it ends, `limit` passes or
    /// `budget` is exhausted. Each run has a directory of its own for the inputs file the
    /// runtime reads (runs of several witnesses may overlap).
    pub fn run(&self, inputs: &[u64], limit: Duration, budget: &Budget) -> NativeOutcome {
        let dir = match scratch_dir() {
            Ok(d) => d,
            Err(e) => return NativeOutcome::Unavailable(format!("no scratch directory: {e}")),
        };
        let out = self.run_in(&dir, inputs, limit, budget);
        let _ = std::fs::remove_dir_all(&dir);
        out
    }

    fn run_in(
        &self,
        dir: &Path,
        inputs: &[u64],
        limit: Duration,
        budget: &Budget,
    ) -> NativeOutcome {
        let values: String = inputs.iter().map(|v| format!("{v}\n")).collect();
        if let Err(e) = std::fs::write(dir.join(INPUTS_FILE), values) {
            return NativeOutcome::Unavailable(format!("cannot write the runtime's inputs: {e}"));
        }
        let run_budget = budget.child(Some(limit));
        let out = match qicc_external::process::run_in_group(&self.exe, &[], dir, &run_budget) {
            Ok(o) => o,
            Err(e) => return NativeOutcome::Unavailable(format!("cannot run the program: {e}")),
        };
        if out.stopped.is_some() {
            return NativeOutcome::Timeout;
        }
        read_end(&out, &self.exe)
    }
}

impl Drop for Built {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Reads how the run ended from its status and the runtime's line on stderr.
fn read_end(out: &qicc_external::process::ProcessOutput, exe: &Path) -> NativeOutcome {
    use std::os::unix::process::ExitStatusExt;
    let Some(status) = out.status else {
        return NativeOutcome::Unavailable("the run's exit status was lost".into());
    };
    let marker = out
        .stderr
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("qicc-native: reached "));
    match (status.code(), marker) {
        (Some(REACHED_EXIT), Some(rest)) => {
            let mut words = rest.split_whitespace();
            let followed_witness = words.next() == Some("followed");
            let addrs: Vec<&str> = words.collect();
            NativeOutcome::Reached {
                sites: source_lines(exe, &addrs),
                followed_witness,
            }
        }
        (Some(ASAN_EXIT), _) if out.stderr.contains("AddressSanitizer") => {
            NativeOutcome::Undefined("memory error, AddressSanitizer".into())
        }
        (Some(code), _) => NativeOutcome::NotReached(format!("exit status {code}")),
        (None, _) => match status.signal() {
            // The sanitizers' trap instruction (ud2).
            Some(4) => NativeOutcome::Undefined(SANITIZER_TRAP.into()),
            Some(8) => NativeOutcome::Undefined("arithmetic exception".into()),
            Some(sig) => NativeOutcome::NotReached(format!("signal {sig}")),
            None => NativeOutcome::NotReached("no exit status".into()),
        },
    }
}

/// The source lines (file, line) of return addresses, through `addr2line`; empty when it
/// cannot tell (the caller then falls back on what the witness claimed).
fn source_lines(exe: &Path, addrs: &[&str]) -> Vec<(String, u32)> {
    // A return address is the instruction after the call: one byte back is inside the call.
    let before: Vec<String> = addrs
        .iter()
        .filter_map(|a| u64::from_str_radix(a.trim_start_matches("0x"), 16).ok())
        .filter(|&a| a > 0)
        .map(|a| format!("{:#x}", a - 1))
        .collect();
    if before.is_empty() {
        return Vec::new();
    }
    let Ok(out) = Command::new("addr2line")
        .arg("-e")
        .arg(exe)
        .args(&before)
        .output()
    else {
        return Vec::new();
    };
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let (file, line) = l.rsplit_once(':')?;
            let line = line.split_whitespace().next()?.parse().ok()?;
            Some((file.to_string(), line))
        })
        .filter(|(_, line)| *line > 0)
        .collect()
}

fn path_arg(p: &Path) -> String {
    p.display().to_string()
}

/// Where compiled runtimes are kept: `$XDG_CACHE_HOME/qicc`, else `~/.cache/qicc`, created
/// if need be; none when neither can be made.
fn cache_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    let dir = base.join("qicc");
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir)
}

fn scratch_dir() -> std::io::Result<PathBuf> {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("qicc-native-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// Forced in front of the program: its own error functions give way to the runtime's.
const WEAK_HEADER: &str = "void reach_error() __attribute__((weak));
void __VERIFIER_error() __attribute__((weak));
";

/// The forced header: [`WEAK_HEADER`], and a prototype of every SV-COMP nondet function with
/// the type its name says. qicc gives an input of an undeclared nondet function that type
/// (`__VERIFIER_nondet_ulong()` is an `unsigned long`); compiled without a prototype, C90's
/// implicit `int` would cut the value the witness feeds to 32 bits and replay another run
/// (an `x > 4294967296UL` that qicc's replay reaches and the native one does not). A program
/// that declares one with another type does not compile with it: the native replay is then
/// unavailable, never a different program.
fn forced_header() -> String {
    let mut h = String::from(WEAK_HEADER);
    for (name, ty) in NONDET.iter().copied().chain([
        ("bool", "_Bool"),
        ("_Bool", "_Bool"),
        ("float", "float"),
        ("double", "double"),
    ]) {
        let _ = writeln!(h, "{ty} __VERIFIER_nondet_{name}(void);");
    }
    h
}

/// The SV-COMP nondet functions: name suffix and C type.
const NONDET: &[(&str, &str)] = &[
    ("char", "char"),
    ("schar", "signed char"),
    ("uchar", "unsigned char"),
    ("short", "short"),
    ("ushort", "unsigned short"),
    ("int", "int"),
    ("uint", "unsigned int"),
    ("unsigned", "unsigned int"),
    ("u32", "unsigned int"),
    ("long", "long"),
    ("ulong", "unsigned long"),
    ("longlong", "long long"),
    ("ulonglong", "unsigned long long"),
    ("size_t", "unsigned long"),
    ("loff_t", "long"),
];

/// The runtime: the inputs read from [`INPUTS_FILE`] before `main`, the nondet functions (weak: a program's own
/// definition wins, and its run is still an execution), `__VERIFIER_assume`, a weak
/// `__VERIFIER_assert`, and the error functions, which report their call site and exit with
/// [`REACHED_EXIT`].
fn runtime_source() -> String {
    let mut c = String::from(
        "#define time qicc_libc_time\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\
         #include <unistd.h>\n#include <stdint.h>\n#undef time\n",
    );
    let _ = writeln!(c, "#define QICC_INPUTS_FILE \"{INPUTS_FILE}\"");
    c.push_str(
        "static unsigned long long *qicc_inputs;
static unsigned long qicc_count;
/* Before main (and before the program's own constructors): the witness's values, from the
 * file the replay wrote into the run's directory. A file that cannot be read is a run with
 * no values (every input 0), which replay then reports as diverged. */
__attribute__((constructor(101))) static void qicc_read_inputs(void) {
  FILE *f = fopen(QICC_INPUTS_FILE, \"r\");
  if (!f) return;
  unsigned long cap = 0;
  unsigned long long v;
  while (fscanf(f, \"%llu\", &v) == 1) {
    if (qicc_count == cap) {
      cap = cap ? 2 * cap : 64;
      unsigned long long *n = realloc(qicc_inputs, cap * sizeof *n);
      if (!n) _exit(0);
      qicc_inputs = n;
    }
    qicc_inputs[qicc_count++] = v;
  }
  fclose(f);
}
static unsigned long qicc_next;
static int qicc_missing;
/* The next witness value; past the end 0, also a value of every type. */
static unsigned long long qicc_input(void) {
  if (qicc_next < qicc_count) return qicc_inputs[qicc_next++];
  qicc_missing = 1;
  return 0;
}
const char *__asan_default_options(void) { return \"exitcode=77:detect_leaks=0\"; }
__attribute__((noinline)) static void qicc_reached(void *site, void *caller) {
  fprintf(stderr, \"\\nqicc-native: reached %s %p %p\\n\",
          qicc_missing ? \"diverged\" : \"followed\", site, caller);
  fflush(stderr);
  _exit(86);
}
__attribute__((noinline)) void reach_error(void) {
  qicc_reached(__builtin_return_address(0), __builtin_return_address(1));
}
__attribute__((noinline)) void __VERIFIER_error(void) {
  qicc_reached(__builtin_return_address(0), __builtin_return_address(1));
}
__attribute__((noinline)) void __assert_fail(const char *a, const char *f, unsigned l,
                                             const char *fn) {
  (void)a; (void)f; (void)l; (void)fn;
  qicc_reached(__builtin_return_address(0), __builtin_return_address(1));
}
__attribute__((weak)) void __VERIFIER_assume(int c) { if (!c) _exit(0); }
/* The environment functions qicc models as inputs (clib_models.c), fed the same values. */
int rand(void) { return (int)(qicc_input() & 0x7fffffffu); }
void srand(unsigned int seed) { (void)seed; }
long time(long *t) { long v = (long)qicc_input(); if (t) *t = v; return v; }
/* getenv: the program's calls (from main on) read inputs as the model does; calls made while
 * the process starts (sanitizer, libc) read the real environment. */
extern char **environ;
static int qicc_started;
__attribute__((constructor(65535))) static void qicc_start(void) { qicc_started = 1; }
char *getenv(const char *name) {
  size_t l = strlen(name);
  if (!qicc_started) {
    for (char **e = environ; e && *e; e++)
      if (strncmp(*e, name, l) == 0 && (*e)[l] == '=') return *e + l + 1;
    return 0;
  }
  if ((int)qicc_input() == 0) return 0;
  unsigned int n = (unsigned int)qicc_input();
  char *v = malloc((size_t)n + 1);
  if (!v) _exit(0);
  for (unsigned int i = 0; i < n; i++) v[i] = (char)qicc_input();
  v[n] = 0;
  return v;
}
__attribute__((weak)) void __VERIFIER_assert(int c) { if (!c) reach_error(); }
__attribute__((weak)) _Bool __VERIFIER_nondet_bool(void) { return qicc_input() & 1; }
__attribute__((weak)) _Bool __VERIFIER_nondet__Bool(void) { return qicc_input() & 1; }
__attribute__((weak)) float __VERIFIER_nondet_float(void) {
  uint32_t b = (uint32_t)qicc_input(); float f; memcpy(&f, &b, sizeof f); return f;
}
__attribute__((weak)) double __VERIFIER_nondet_double(void) {
  uint64_t b = qicc_input(); double d; memcpy(&d, &b, sizeof d); return d;
}
",
    );
    for (name, ty) in NONDET {
        let _ = writeln!(
            c,
            "__attribute__((weak)) {ty} __VERIFIER_nondet_{name}(void) {{ \
             return ({ty})qicc_input(); }}"
        );
    }
    for (name, ty) in [("pointer", "void *"), ("pchar", "char *")] {
        let _ = writeln!(
            c,
            "__attribute__((weak)) {ty} __VERIFIER_nondet_{name}(void) {{ \
             return ({ty})(uintptr_t)qicc_input(); }}"
        );
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::confirm::Confirmer;
    use crate::input::{load, LoadOptions, Loaded};

    /// The compiler the tests need (the front-end needs `gcc -E` anyway).
    fn gcc() -> Native {
        Native::find(false).expect("a C compiler on the PATH")
    }

    fn write(source: &str) -> PathBuf {
        let dir = scratch_dir().expect("a scratch directory");
        let path = dir.join("t.c");
        std::fs::write(&path, source).expect("the program is written");
        path
    }

    fn loaded(source: &str) -> Loaded {
        load(&[write(source)], &LoadOptions::default()).expect("the program lowers")
    }

    const FALSE_PROGRAM: &str = "extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error() {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  __VERIFIER_assert(x != 5 || y != -3);
  return 0;
}
";

    fn run(source: &str, inputs: &[u64], limit: Duration) -> NativeOutcome {
        gcc().replay(
            &[write(source)],
            DataModel::Ilp32,
            inputs,
            limit,
            &Budget::unlimited(),
        )
    }

    /// A real witness (the BMC's) replays natively to the error, and the call site names
    /// the assertion; the confirmation agrees with the interpreter's.
    #[test]
    fn a_false_programs_witness_reaches_natively() {
        let l = loaded(FALSE_PROGRAM);
        let r = qicc_bmc::verify(&l.program, &Default::default(), &Budget::unlimited());
        let (a, w) = r.violation.expect("the BMC finds x == 5, y == -3");
        let c = Confirmer::new(&l.program, &l.sources, Some(gcc()));
        let check = c.check(&w);
        reaches_faithfully(&check, a);
        assert!(check.finished);
        assert_eq!(check.disagreement(&l.program), None);
    }

    /// The runtime is compiled once and kept: a second replay (with other values) finds it in
    /// the cache, and both replays read their own values from the file.
    #[test]
    fn the_runtime_is_compiled_once_and_reads_each_replays_values() {
        let g = gcc();
        let dir = scratch_dir().expect("scratch");
        let flags = ["-m64", "-O1"];
        let first = g.runtime_object(&flags, &dir, &Budget::unlimited());
        let second = g.runtime_object(&flags, &dir, &Budget::unlimited());
        let _ = std::fs::remove_dir_all(&dir);
        let (first, second) = (first.expect("compiles"), second.expect("cached"));
        assert_eq!(first, second);
        if let Some(cache) = cache_dir() {
            assert!(
                first.starts_with(&cache),
                "{} not in the cache",
                first.display()
            );
        }
        let limit = Duration::from_secs(20);
        let hit = run(FALSE_PROGRAM, &[5, (-3i64) as u64], limit);
        assert!(
            matches!(
                hit,
                NativeOutcome::Reached {
                    followed_witness: true,
                    ..
                }
            ),
            "{hit:?}"
        );
        let miss = run(FALSE_PROGRAM, &[6, 0], limit);
        assert!(matches!(miss, NativeOutcome::NotReached(_)), "{miss:?}");
    }

    /// The native replay of `check` followed the witness to assertion `a`, faithfully.
    /// The native run followed the witness to assertion `a`.
    fn reaches_following(check: &crate::confirm::Confirmation, a: qicc_ir::AssertionId) {
        let native = check.native.as_ref().expect("natively replayed");
        assert!(
            matches!(
                native.outcome,
                NativeOutcome::Reached {
                    followed_witness: true,
                    ..
                }
            ),
            "{native:?}"
        );
        assert_eq!(native.assertion, Some(a));
    }

    /// ... and was fed exactly the witness (see `confirm`'s "faithful").
    fn reaches_faithfully(check: &crate::confirm::Confirmation, a: qicc_ir::AssertionId) {
        reaches_following(check, a);
        assert!(check.native.as_ref().is_some_and(|n| n.faithful));
    }

    /// rand() and time() are inputs in the models (clib_models.c) and in the native runtime,
    /// fed the same values: the BMC's counterexample through them reaches natively too.
    #[test]
    fn environment_inputs_replay_natively() {
        let src = "\
#include <stdlib.h>
#include <time.h>
extern void __VERIFIER_assert(int);
int main(void) {
  srand(time(0));
  time_t t = time(0);
  int k = rand() % 6;
  __VERIFIER_assert(k != 5 || t != 1234);
  return 0;
}
";
        let l = loaded(src);
        let r = qicc_bmc::verify(&l.program, &Default::default(), &Budget::unlimited());
        let (a, w) = r
            .violation
            .expect("the BMC finds t == 1234, rand() % 6 == 5");
        let c = Confirmer::new(&l.program, &l.sources, Some(gcc()));
        reaches_faithfully(&c.check(&w), a);
    }

    /// getenv() is an input in its model and in the native runtime (NULL or a string of
    /// input bytes), fed the same values; sprintf's model formats as glibc's does.
    #[test]
    fn getenv_and_sprintf_replay_natively() {
        let src = "\
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
extern void __VERIFIER_assert(int);
int main(void) {
  const char *user = getenv(\"USER\");
  char greeting[32];
  if (user == 0 || strlen(user) > 8)
    return 0;
  int n = sprintf(greeting, \"hi %s!\", user);
  __VERIFIER_assert(n != 6 || greeting[3] != 'q');
  return 0;
}
";
        let l = loaded(src);
        let r = qicc_bmc::verify(&l.program, &Default::default(), &Budget::unlimited());
        let (a, w) = r.violation.expect("the BMC finds USER=\"q\"");
        let c = Confirmer::new(&l.program, &l.sources, Some(gcc()));
        // The model allocates the string, so the run is not "faithful" (heap addresses
        // differ natively), but it must follow the witness to the same assertion.
        reaches_following(&c.check(&w), a);
    }

    /// Values that miss the violation do not reach it; a wrong native answer against a
    /// finished interpreter replay would be a disagreement.
    #[test]
    fn a_witness_that_misses_does_not_reach() {
        let out = run(FALSE_PROGRAM, &[5, 4], Duration::from_secs(20));
        assert!(matches!(out, NativeOutcome::NotReached(_)), "{out:?}");
        // -3 as the witness records it: the low 32 bits.
        let out = run(FALSE_PROGRAM, &[5, 0xffff_fffd], Duration::from_secs(20));
        assert!(matches!(out, NativeOutcome::Reached { .. }), "{out:?}");
    }

    #[test]
    fn a_true_program_with_a_fake_witness_does_not_reach() {
        let src = "extern unsigned __VERIFIER_nondet_uint(void);
void reach_error(void);
int main(void) {
  unsigned x = __VERIFIER_nondet_uint();
  if (x * 2 == 7) reach_error();
  return 0;
}
";
        let out = run(src, &[7, 3, 0xffff_ffff], Duration::from_secs(20));
        assert_eq!(out, NativeOutcome::NotReached("exit status 0".into()));
    }

    #[test]
    fn a_run_past_its_time_limit_is_a_timeout() {
        let src = "void reach_error(void);
int main(void) { volatile int x = 0; while (x == 0) {} reach_error(); return 0; }
";
        let start = std::time::Instant::now();
        let out = run(src, &[], Duration::from_millis(500));
        assert_eq!(out, NativeOutcome::Timeout);
        assert!(start.elapsed() < Duration::from_secs(15));
    }

    /// Under `--signed-overflow ub` an overflow before the error stops the run: no reach.
    #[test]
    fn a_signed_overflow_before_the_error_is_undefined() {
        let src = "extern int __VERIFIER_nondet_int(void);
void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = x + 1;
  if (y < x) reach_error();
  return 0;
}
";
        let out = run(src, &[0x7fff_ffff], Duration::from_secs(20));
        assert!(matches!(out, NativeOutcome::Undefined(_)), "{out:?}");
        let wrapping = Native {
            wraps: true,
            ..gcc()
        };
        let out = wrapping.replay(
            &[write(src)],
            DataModel::Ilp32,
            &[0x7fff_ffff],
            Duration::from_secs(20),
            &Budget::unlimited(),
        );
        assert!(matches!(out, NativeOutcome::Reached { .. }), "{out:?}");
    }

    #[test]
    fn a_missing_compiler_is_a_clear_unavailable() {
        let none = Native {
            compiler: PathBuf::from("/nonexistent/qicc-test-cc"),
            wraps: false,
            shifts: false,
            cflags: Vec::new(),
        };
        let out = none.replay(
            &[write(FALSE_PROGRAM)],
            DataModel::Ilp32,
            &[5, 0xffff_fffd],
            Duration::from_secs(5),
            &Budget::unlimited(),
        );
        let NativeOutcome::Unavailable(why) = out else {
            panic!("{out:?}");
        };
        assert!(why.contains("/nonexistent/qicc-test-cc"), "{why}");
        // Through the driver: the interpreter's replay stays the replay of record.
        let l = loaded(FALSE_PROGRAM);
        let opts = crate::VerifyOptions {
            engine: crate::Engine::Bmc,
            native: crate::NativeCompiler::Path("/nonexistent/qicc-test-cc".into()),
            ..Default::default()
        };
        let rep = crate::verify(&l, &opts, &Budget::unlimited());
        assert_eq!(rep.verdict, crate::Verdict::False, "{}", rep.to_text());
        assert!(rep.internal_error.is_none());
    }

    /// A program without inputs whose violation is 2^27 iterations deep: the default
    /// engine answers FALSE through the native run, which names the assertion.
    #[test]
    fn a_deep_violation_of_a_program_without_inputs_is_confirmed_natively() {
        let l = loaded(
            "extern void abort(void);
void reach_error() {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
int main(void) {
  unsigned int x = 0;
  __VERIFIER_assert(x == 0);
  while (x < 0x0fffffff) x += 2;
  __VERIFIER_assert(x % 2);
  return 0;
}
",
        );
        let rep = crate::verify(
            &l,
            &crate::VerifyOptions::default(),
            &Budget::with_timeout(Duration::from_secs(60)),
        );
        assert_eq!(rep.verdict, crate::Verdict::False, "{}", rep.to_text());
        let v = rep.violation.as_ref().expect("a violation");
        assert_eq!(v.assertion, 1, "the second assertion is the violated one");
        assert!(
            rep.reason
                .as_deref()
                .is_some_and(|r| r.contains("confirmed by native replay")),
            "{:?}",
            rep.reason
        );
    }
}
