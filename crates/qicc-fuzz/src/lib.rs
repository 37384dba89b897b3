//! `qicc-fuzz`: a soundness fuzzer for qicc's engines.
//!
//! This crate owns the random program generator ([`gen`], [`build`]), the ground truth
//! ([`truth`]: every input combination of a generated program run by the IR interpreter,
//! cross-checked against gcc on request) and the comparison of every engine and mode with
//! that truth ([`engines`]). A *failure* is a verdict that contradicts the truth (TRUE when
//! some input fails an assertion, FALSE when none does), a panic or an internal error of an
//! engine, or a generator problem (a program the front-end rejects, undefined behaviour the
//! generator promised away, interpreter and gcc disagreeing). UNKNOWN is always allowed.
//!
//! Users: the CI test `tests/fuzz.rs` (fixed seeds) and the `qicc-fuzz` binary (campaigns
//! over fresh seeds, with a table of verdicts and failing programs saved to a directory).
//! Programs found to break an engine are kept, minimised by hand, under `found/`.

pub mod build;
pub mod engines;
pub mod gen;
pub mod truth;

use engines::{judge, run_mode, Judgement, Mode, ModeRun};
use qicc_driver::Verdict;
pub use qicc_frontend::task::Property;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// One engine/mode that contradicted the truth (or broke) on a program.
#[derive(Clone, Debug)]
pub struct Failure {
    pub seed: u64,
    /// The property checked (`unreach-call`, `no-overflow`, `valid-memsafety`).
    pub property: &'static str,
    /// `None`: a generator, front-end or ground-truth problem (no engine involved).
    pub mode: Option<Mode>,
    pub truth_safe: Option<bool>,
    pub witness: Option<Vec<i64>>,
    pub verdict: Option<Verdict>,
    pub what: String,
    pub program: String,
}

impl Failure {
    /// Everything needed to reproduce: seed, engine/mode, both verdicts, the program.
    pub fn describe(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "=== qicc-fuzz failure: seed {} ({}) ===",
            self.seed, self.property
        );
        match self.mode {
            Some(m) => {
                let _ = writeln!(s, "engine/mode: {} ({})", m.name(), m.command());
            }
            None => {
                let _ = writeln!(s, "engine/mode: none (generator / ground truth)");
            }
        }
        if let Some(t) = self.truth_safe {
            let _ = writeln!(
                s,
                "truth: {}{}",
                if t { "TRUE" } else { "FALSE" },
                self.witness
                    .as_ref()
                    .map(|w| format!(" (violating inputs {w:?})"))
                    .unwrap_or_default()
            );
        }
        if let Some(v) = self.verdict {
            let _ = writeln!(s, "verdict: {}", v.as_str());
        }
        let _ = writeln!(s, "what: {}", self.what);
        let _ = writeln!(s, "--- program ---\n{}", self.program);
        s
    }
}

/// What happened to one program.
#[derive(Clone, Debug)]
pub struct ProgramResult {
    pub seed: u64,
    pub truth_safe: Option<bool>,
    pub intended_false: bool,
    pub runs: Vec<(Mode, ModeRun, Judgement)>,
    /// The same program checked for other properties (when asked:
    /// `CheckOptions::property_modes`), in that order.
    pub properties: Vec<(Property, PropertyRuns)>,
    pub failures: Vec<Failure>,
    pub gcc_checked: bool,
    /// The hazard the program carries (`build::hazard`), and whether some input reaches
    /// undefined behaviour through it.
    pub hazard: Option<(&'static str, bool)>,
    /// Generated for ILP32 (`--32`, gcc `-m32`).
    pub ilp32: bool,
    /// The floating-point block and the `const`/`pure` calls it carries (`crate::build`).
    pub float: Option<&'static str>,
    pub applied: Option<&'static str>,
    /// The signed-arithmetic block it carries (`crate::build`, `Built::overflow`).
    pub overflow_block: Option<&'static str>,
}

impl ProgramResult {
    /// The generator's shapes this program has beyond the integer core, for a seed's line.
    pub fn shapes(&self) -> String {
        let mut v = Vec::new();
        if self.ilp32 {
            v.push("ILP32".to_string());
        }
        if let Some((h, ub)) = self.hazard {
            v.push(format!("{h}{}", if ub { ", UB" } else { "" }));
        }
        v.extend(self.float.map(String::from));
        v.extend(self.applied.map(String::from));
        v.extend(self.overflow_block.map(String::from));
        if v.is_empty() {
            String::new()
        } else {
            format!(" [{}]", v.join("; "))
        }
    }
}

/// One property's truth for a program and the modes' runs against it.
#[derive(Clone, Debug)]
pub struct PropertyRuns {
    pub truth_safe: bool,
    pub runs: Vec<(Mode, ModeRun, Judgement)>,
}

/// How to check a program.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    pub modes: Vec<Mode>,
    /// Other properties checked on the program, each by its modes (lowered for that property,
    /// `qicc_driver::input::with_property`; its truth: some input reaches a violation of it —
    /// a signed overflow, an invalid access or free, a leak — before anything else ends the
    /// run). Empty: only unreach-call.
    pub property_modes: Vec<(Property, Vec<Mode>)>,
    pub timeout: Duration,
    /// Cross-check the interpreter against gcc (in this scratch directory).
    pub gcc_dir: Option<std::path::PathBuf>,
    pub profile: gen::Profile,
}

/// Builds the program of `seed`, computes its truth and runs every mode of `opts` on it.
pub fn check_seed(seed: u64, opts: &CheckOptions) -> ProgramResult {
    let mut res = ProgramResult {
        seed,
        truth_safe: None,
        intended_false: false,
        runs: Vec::new(),
        properties: Vec::new(),
        failures: Vec::new(),
        gcc_checked: false,
        hazard: None,
        ilp32: false,
        float: None,
        applied: None,
        overflow_block: None,
    };
    let generator_failure = |what: String, program: String| Failure {
        seed,
        property: "unreach-call",
        mode: None,
        truth_safe: None,
        witness: None,
        verdict: None,
        what,
        program,
    };
    let built = match build::build(seed, opts.profile) {
        Ok(b) => b,
        Err(e) => {
            let sk = gen::generate(seed, opts.profile);
            let text = build::render(&sk, &build::Variant::Probe { slot: 0, max: true });
            res.failures.push(generator_failure(e, text));
            return res;
        }
    };
    res.intended_false = built.intended_false;
    res.ilp32 = built.skeleton.ilp32;
    res.float = built.float;
    res.applied = built.applied;
    res.overflow_block = built.overflow;
    let loaded = match truth::lower(&built.text, built.skeleton.ilp32) {
        Ok(l) => Arc::new(l),
        Err(e) => {
            res.failures.push(generator_failure(
                format!("does not lower: {e}"),
                built.text,
            ));
            return res;
        }
    };
    let t = match truth::exhaustive(&loaded.program, &built.combos, built.hazard.is_some()) {
        Ok(t) => t,
        Err(e) => {
            res.failures.push(generator_failure(e, built.text));
            return res;
        }
    };
    res.truth_safe = Some(t.safe);
    res.hazard = built.hazard.map(|h| (h, t.ub));
    // A hazard's undefined behaviour has no reference in gcc, nor has a body-less function.
    let gcc_dir = opts
        .gcc_dir
        .as_ref()
        .filter(|_| built.hazard.is_none() && built.applied.is_none());
    if let Some(dir) = gcc_dir {
        res.gcc_checked = true;
        let tag = format!("s{seed}");
        let ilp32 = built.skeleton.ilp32;
        if let Err(e) = truth::gcc_check(&built.gcc_text(), &t.errors, dir, &tag, ilp32) {
            res.failures.push(Failure {
                truth_safe: Some(t.safe),
                ..generator_failure(format!("gcc cross-check: {e}"), built.text.clone())
            });
        }
    }
    let (runs, failures) = run_modes(&loaded, &t, &opts.modes, opts.timeout, seed, &built.text);
    res.runs = runs;
    res.failures.extend(failures);
    for (property, modes) in &opts.property_modes {
        if modes.is_empty() {
            continue;
        }
        let property = *property;
        match truth::lower_for(&built.text, built.skeleton.ilp32, property).and_then(|l| {
            let t = truth::exhaustive(&l.program, &built.combos, built.hazard.is_some())?;
            Ok((Arc::new(l), t))
        }) {
            Ok((l, t)) => {
                let (runs, failures) = run_modes(&l, &t, modes, opts.timeout, seed, &built.text);
                res.failures.extend(failures);
                res.properties.push((
                    property,
                    PropertyRuns {
                        truth_safe: t.safe,
                        runs,
                    },
                ));
            }
            Err(e) => res.failures.push(Failure {
                property: property.name(),
                ..generator_failure(e, built.text.clone())
            }),
        }
    }
    res
}

/// Runs every mode of `modes` on `loaded` and judges it against `t`: the runs, and the
/// failures among them (named with the program's property).
fn run_modes(
    loaded: &Arc<qicc_driver::Loaded>,
    t: &truth::Truth,
    modes: &[Mode],
    timeout: Duration,
    seed: u64,
    text: &str,
) -> (Vec<(Mode, ModeRun, Judgement)>, Vec<Failure>) {
    let (mut runs, mut failures) = (Vec::new(), Vec::new());
    for &m in modes {
        let r = run_mode(loaded.clone(), m, timeout);
        let j = judge(t.safe, t.ub, &r);
        if j.is_failure() {
            failures.push(Failure {
                seed,
                property: loaded.property.single().map_or("several", |p| p.name()),
                mode: Some(m),
                truth_safe: Some(t.safe),
                witness: t.witness.clone(),
                verdict: Some(r.verdict),
                what: match &j {
                    Judgement::Internal(w) => format!("internal error: {w}"),
                    Judgement::WrongTrue => format!("wrong TRUE ({})", r.reason),
                    _ => format!("wrong FALSE ({})", r.reason),
                },
                program: text.to_string(),
            });
        }
        runs.push((m, r, j));
    }
    (runs, failures)
}

/// One other property's counts over the programs checked for it.
#[derive(Clone, Debug, Default)]
pub struct PropertyTally {
    /// Per mode, as [`Tally::per_mode`].
    pub per_mode: BTreeMap<Mode, [f64; 7]>,
    pub truth_true: usize,
    pub truth_false: usize,
}

/// Verdict counts per mode over a set of programs.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub programs: usize,
    pub truth_true: usize,
    pub truth_false: usize,
    pub gcc_checked: usize,
    /// Programs with a hazard, and those of them where some input reaches it undefined.
    pub hazards: usize,
    pub hazards_undefined: usize,
    /// Programs generated for ILP32, with a floating-point block, with `const`/`pure` calls.
    pub ilp32: usize,
    pub floats: usize,
    pub applied: usize,
    pub generator_failures: usize,
    /// Per mode: (TRUE, FALSE, UNKNOWN, wrong, internal, abandoned, total seconds).
    pub per_mode: BTreeMap<Mode, [f64; 7]>,
    /// The same for the programs also checked for another property, and their truth, by
    /// the property's name.
    pub other: BTreeMap<&'static str, PropertyTally>,
    /// Runs that overran their deadline by more than the grace period (not a wrong verdict,
    /// but worth a look): (seed, mode).
    pub abandoned: Vec<(u64, Mode)>,
}

impl Tally {
    pub fn add(&mut self, r: &ProgramResult) {
        self.programs += 1;
        match r.truth_safe {
            Some(true) => self.truth_true += 1,
            Some(false) => self.truth_false += 1,
            None => {}
        }
        if r.gcc_checked {
            self.gcc_checked += 1;
        }
        if let Some((_, ub)) = r.hazard {
            self.hazards += 1;
            self.hazards_undefined += usize::from(ub);
        }
        self.ilp32 += usize::from(r.ilp32);
        self.floats += usize::from(r.float.is_some());
        self.applied += usize::from(r.applied.is_some());
        self.generator_failures += r.failures.iter().filter(|f| f.mode.is_none()).count();
        Self::count(&mut self.per_mode, &mut self.abandoned, r.seed, &r.runs);
        for (p, o) in &r.properties {
            let t = self.other.entry(p.name()).or_default();
            if o.truth_safe {
                t.truth_true += 1;
            } else {
                t.truth_false += 1;
            }
            Self::count(&mut t.per_mode, &mut self.abandoned, r.seed, &o.runs);
        }
    }

    fn count(
        per_mode: &mut BTreeMap<Mode, [f64; 7]>,
        abandoned: &mut Vec<(u64, Mode)>,
        seed: u64,
        runs: &[(Mode, ModeRun, Judgement)],
    ) {
        for (m, run, j) in runs {
            let e = per_mode.entry(*m).or_default();
            match run.verdict {
                Verdict::True => e[0] += 1.0,
                Verdict::False => e[1] += 1.0,
                // The fuzzer never runs bounded mode; a bounded answer is no verdict.
                Verdict::Unknown | Verdict::Bounded => e[2] += 1.0,
            }
            match j {
                Judgement::WrongTrue | Judgement::WrongFalse => e[3] += 1.0,
                Judgement::Internal(_) => e[4] += 1.0,
                _ => {}
            }
            if run.abandoned {
                e[5] += 1.0;
                abandoned.push((seed, *m));
            }
            e[6] += run.elapsed.as_secs_f64();
        }
    }

    pub fn table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "programs: {} (truth TRUE {}, FALSE {}; with a hazard {}, undefined on some input {}; ILP32 {}, with floats {}, with const/pure calls {}; gcc cross-checked {}; generator failures {})",
            self.programs,
            self.truth_true,
            self.truth_false,
            self.hazards,
            self.hazards_undefined,
            self.ilp32,
            self.floats,
            self.applied,
            self.gcc_checked,
            self.generator_failures
        );
        Self::mode_table(&mut s, "unreach-call", &self.per_mode);
        for (name, t) in &self.other {
            let _ = writeln!(
                s,
                "{name}: {} programs (truth TRUE {}, FALSE {})",
                t.truth_true + t.truth_false,
                t.truth_true,
                t.truth_false
            );
            Self::mode_table(&mut s, name, &t.per_mode);
        }
        if !self.abandoned.is_empty() {
            let list: Vec<String> = self
                .abandoned
                .iter()
                .map(|(seed, m)| format!("{seed}/{}", m.name()))
                .collect();
            let _ = writeln!(s, "abandoned (seed/mode): {}", list.join(" "));
        }
        s
    }

    /// One property's table: a line per mode.
    fn mode_table(s: &mut String, property: &str, per_mode: &BTreeMap<Mode, [f64; 7]>) {
        let _ = writeln!(
            s,
            "{:<14} {:<13} {:>6} {:>6} {:>6} {:>8} {:>6} {:>9} {:>9} {:>8}",
            "mode",
            "property",
            "runs",
            "TRUE",
            "FALSE",
            "UNKNOWN",
            "wrong",
            "internal",
            "abandoned",
            "avg s"
        );
        for (m, e) in per_mode {
            let runs = e[0] + e[1] + e[2];
            let _ = writeln!(
                s,
                "{:<14} {:<13} {:>6} {:>6} {:>6} {:>8} {:>6} {:>9} {:>9} {:>8.3}",
                m.name(),
                property,
                runs,
                e[0],
                e[1],
                e[2],
                e[3],
                e[4],
                e[5],
                if runs > 0.0 { e[6] / runs } else { 0.0 }
            );
        }
    }
}

/// Writes a failure to `dir/seed<N>-<mode>.c` (program with the description as a comment).
pub fn save_failure(dir: &Path, f: &Failure) -> std::io::Result<std::path::PathBuf> {
    std::fs::create_dir_all(dir)?;
    let name = format!(
        "seed{}-{}-{}.c",
        f.seed,
        f.property,
        f.mode.map(|m| m.name()).unwrap_or("generator")
    );
    let path = dir.join(name);
    let mut head = f.describe();
    head.truncate(head.find("--- program ---").unwrap_or(head.len()));
    let text = format!("/*\n{}*/\n{}", head.replace("*/", "* /"), f.program);
    std::fs::write(&path, text)?;
    Ok(path)
}
