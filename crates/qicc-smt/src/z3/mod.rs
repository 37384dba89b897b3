//! The Z3 back-end (through the C API of Z3 5.4, crate `z3-sys` 0.14).
//!
//! This module is the only place in qicc that names Z3. It owns one Z3 context per
//! [`Z3Solver`] (Z3 objects are not thread-safe), translates each term of the caller's
//! [`TermStore`] once into a reference-counted Z3 AST and keeps it for later checks, and
//! installs an interrupt hook that calls `Z3_interrupt` on that context.
//!
//! Safety invariants of the raw API use:
//! - every `Z3_ast`, `Z3_sort`, `Z3_model`, `Z3_solver` kept beyond one call is `inc_ref`ed
//!   when stored and `dec_ref`ed exactly once when dropped, before the context is deleted;
//! - the context outlives every handle: [`Z3Solver`]'s `Drop` first removes the interrupt
//!   hook (under the handle's lock, so no `Z3_interrupt` can run on a deleted context), then
//!   releases all references, then deletes the context;
//! - Z3's error handler is disabled, and the error code is checked after every batch of
//!   calls: an error makes the check answer `Unknown`, never a wrong `Sat`/`Unsat`.

mod translate;

use crate::solver::{CheckResult, InterruptHandle, ModelValue, Solver};
use crate::store::TermStore;
use crate::term::{Sort, TermId};
use crate::CheckMode;
use std::collections::HashMap;
use std::ffi::{CStr, CString};
use std::time::Duration;
use z3_sys::*;

/// Z3's global parameters as qicc wants them, set once before the first context is made.
///
/// `smt.solve_eqs=false`: Z3 5.4's equation solving (`euf::solve_eqs`, in the preprocessing of
/// every bit-vector check) ignores interrupts for as long as it runs. On a BMC query of
/// `seeds/escape_overflow_1000` it ran 16 s past a 1 s limit, which kept a cancelled engine
/// (and with it the whole verdict, which Impulse had in 0.2 s) waiting; without it the check
/// stops after 1.09 s. The query benchmark shows no loss: 77 of 80 heavy queries answered
/// either way, 27.3 s in total against 28.0 s (qicc's terms have no defined intermediate
/// variables left to solve for: the term store substitutes them as it builds).
fn qicc_defaults() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for (name, value) in [("smt.solve_eqs", "false")] {
            let n = CString::new(name).expect("no NUL");
            let v = CString::new(value).expect("no NUL");
            // SAFETY: Z3 copies both strings; no context exists yet that could race.
            unsafe { Z3_global_param_set(n.as_ptr(), v.as_ptr()) };
        }
    });
}

/// Which array constructs a term contains (bits of `Z3Solver::shape_below`).
pub(crate) struct Shape;

impl Shape {
    pub(crate) const LAMBDA: u8 = 1;
    /// An array built from others: a store, a constant array, a lambda, an array `ite`.
    pub(crate) const BUILT: u8 = 2;
    pub(crate) const SELECT: u8 = 4;
    /// A float operation (Z3's floating-point theory), which only Z3's default solver takes.
    pub(crate) const FLOAT: u8 = 8;
}

/// The tactics of a solver for queries whose only array terms are reads of array symbols
/// (see [`Z3Solver::new_solver_for`]).
const ACKERMANNIZE_SELECTS: &str = "tactics:bvarray2uf,ackermannize_bv,qfbv|qfaufbv";

/// Most reads of array symbols a query may have for [`ACKERMANNIZE_SELECTS`].
const ACKERMANNIZE_MAX_SELECTS: usize = 32;

/// The logic solvers are made for (see [`Z3Solver::set_logic`]).
static LOGIC: std::sync::Mutex<Option<CString>> = std::sync::Mutex::new(None);

/// A Z3 context, its solver, and the translations of terms seen so far.
pub struct Z3Solver {
    ctx: Z3_context,
    mode: CheckMode,
    solver: Option<Z3_solver>,
    model: Option<Z3_model>,
    /// Translation of each term, by term index (`inc_ref`ed).
    memo: Vec<Option<Z3_ast>>,
    /// The array constructs in each term and below it ([`Shape`] bits), by term index, set
    /// with `memo`.
    shape_below: Vec<u8>,
    /// How many `select` terms this context has translated (an upper bound on those of any
    /// one query).
    selects: usize,
    sorts: HashMap<Sort, Z3_sort>,
    /// The floating-point sorts by width (32, 64), inc_ref'ed like `sorts`.
    fp_sorts: HashMap<u16, Z3_sort>,
    /// By term index, for a float node with a float result: that float, whose IEEE bits the
    /// node's translation is (inc_ref'ed; see `fp_encode::encode`'s `known`).
    float_value: HashMap<usize, Z3_ast>,
    /// Assertions per push level (for [`CheckMode::FreshPerCheck`], which replays them).
    frames: Vec<Vec<TermId>>,
    timeout: Option<Duration>,
    interrupt: InterruptHandle,
    /// The first error the back-end met; every later check answers `Unknown` with it.
    error: Option<String>,
    /// The last check's assumptions with their translations, while its answer is Unsat (for
    /// the unsat core).
    last_unsat: Option<Vec<(TermId, Option<Z3_ast>)>>,
    /// [`CheckMode::Incremental`]: the last check ended undecided (a timeout, an interrupt).
    /// Z3 4.8's incremental core can keep inconsistent scopes after a cancelled check (a
    /// later check with assumptions crashed in `mk_unsat_core`, Z3 issue #3520's kind), so
    /// the next check first rebuilds the solver from `frames`.
    cancelled: bool,
    /// Z3's equation solving on for this solver's checks, against `qicc_defaults` (see
    /// [`Z3Solver::solve_equations`]).
    solve_eqs: bool,
}

/// The raw context pointer, sent to the interrupt hook (`Z3_interrupt` is the one call Z3
/// allows from another thread).
struct SendCtx(Z3_context);
// SAFETY: only `Z3_interrupt` is called through it, which Z3 documents as thread-safe, and
// the hook is removed before the context is deleted (see the module docs).
unsafe impl Send for SendCtx {}

impl Z3Solver {
    pub fn new(mode: CheckMode) -> Z3Solver {
        qicc_defaults();
        // SAFETY: plain constructor calls; the config is deleted right after use.
        // Z3 answers no configuration or context only when it cannot allocate one: the
        // process is out of memory, and nothing sensible is left to do but stop.
        let ctx = unsafe {
            let cfg = Z3_mk_config().expect("z3 could not allocate a configuration");
            let model = CString::new("model").expect("no NUL");
            let yes = CString::new("true").expect("no NUL");
            Z3_set_param_value(cfg, model.as_ptr(), yes.as_ptr());
            let ctx = Z3_mk_context_rc(cfg);
            Z3_del_config(cfg);
            let ctx = ctx.expect("z3 could not allocate a context");
            Z3_set_error_handler(ctx, None);
            ctx
        };
        let interrupt = InterruptHandle::new();
        let raw = SendCtx(ctx);
        interrupt.set_hook(Some(Box::new(move || {
            let raw = &raw;
            // SAFETY: see `SendCtx`.
            unsafe { Z3_interrupt(raw.0) }
        })));
        let mut s = Z3Solver {
            ctx,
            mode,
            solver: None,
            model: None,
            memo: Vec::new(),
            shape_below: Vec::new(),
            selects: 0,
            sorts: HashMap::new(),
            fp_sorts: HashMap::new(),
            float_value: HashMap::new(),
            frames: vec![Vec::new()],
            timeout: None,
            interrupt,
            error: None,
            last_unsat: None,
            cancelled: false,
            solve_eqs: false,
        };
        if mode == CheckMode::Incremental {
            // One solver for every check: no per-query choice (its checks go through Z3's
            // incremental core, which does not probe).
            s.solver = s.new_solver_for(0);
        }
        s
    }

    /// Turns Z3's equation solving (`smt.solve_eqs`, off by default: see `qicc_defaults`) on
    /// for this solver's checks. For small queries with equalities between products: the
    /// one-VC check of `k == i*j` at a nested loop's head (`k == j + i*m` at the inner head,
    /// `j == m` from two inequalities) is decided in 0.28 s with it and not in 10 s without.
    /// The caller keeps the queries small, where equation solving ends quickly even though it
    /// does not see interrupts.
    pub fn solve_equations(&mut self, on: bool) {
        if self.solve_eqs == on {
            return;
        }
        self.solve_eqs = on;
        if let (CheckMode::Incremental, Some(s)) = (self.mode, self.solver) {
            self.set_params(s);
        }
    }

    /// "z3 MAJOR.MINOR.BUILD" of the linked library.
    pub fn version() -> String {
        let (mut a, mut b, mut c, mut d) = (0, 0, 0, 0);
        // SAFETY: writes four integers.
        unsafe { Z3_get_version(&mut a, &mut b, &mut c, &mut d) };
        format!("z3 {a}.{b}.{c}")
    }

    /// Sets a Z3 global parameter (`smt.array.extensional`, `sat.threads`, …) for every
    /// context and solver made afterwards: the solver-query benchmark's knob for trying a
    /// setting before qicc adopts it. Z3 reports an unknown name or a bad value as an error
    /// on stderr and ignores it.
    pub fn set_global_param(name: &str, value: &str) -> Result<(), String> {
        // qicc's own settings first, so that this one overrides them.
        qicc_defaults();
        let n = CString::new(name).map_err(|_| "NUL in the parameter name".to_string())?;
        let v = CString::new(value).map_err(|_| "NUL in the parameter value".to_string())?;
        // SAFETY: Z3 copies both strings.
        unsafe { Z3_global_param_set(n.as_ptr(), v.as_ptr()) };
        Ok(())
    }

    /// Checks an SMT-LIB 2 script (declarations and assertions; its commands other than
    /// those are ignored) on a fresh context with the solver settings of
    /// [`CheckMode::FreshPerCheck`]: the answer ("sat", "unsat", "unknown (reason)") and the
    /// time of the check alone, parsing excluded. This is the solver-query benchmark's
    /// measurement, so it must set up Z3 exactly as [`Solver::check`] does.
    pub fn check_script(
        text: &str,
        timeout: Option<Duration>,
    ) -> Result<(String, Duration), String> {
        // Equation solving as the check had it (the corpus's first line says so).
        let solve_eqs = crate::corpus::equation_solving(text);
        let text = CString::new(text).map_err(|_| "the script contains a NUL byte".to_string())?;
        let mut z = Z3Solver::new(CheckMode::FreshPerCheck);
        z.timeout = timeout;
        z.solve_eqs = solve_eqs;
        // Parsed into the context, then asserted into a fresh solver made as `check` makes
        // it, so that only the check is timed and it runs as qicc's would.
        // SAFETY: the string outlives the call; the vector is inc_ref'ed while read.
        let parsed = unsafe {
            Z3_parse_smtlib2_string(
                z.ctx,
                text.as_ptr(),
                0,
                std::ptr::null(),
                std::ptr::null(),
                0,
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        let failed = |z: &mut Z3Solver, what: &str| z.take_error().unwrap_or_else(|| what.into());
        let Some(v) = parsed else {
            return Err(failed(&mut z, "z3 parsed no assertions"));
        };
        // SAFETY: held before any other call (a reference-counted context may free what has
        // no reference); released below.
        unsafe { Z3_ast_vector_inc_ref(z.ctx, v) };
        // The choice `check` makes, from the script's text.
        let has = |word: &[u8]| text.to_bytes().windows(word.len()).any(|w| w == word);
        let mut shape = 0;
        for (word, bit) in [
            (&b"(lambda"[..], Shape::LAMBDA),
            (b"(store", Shape::BUILT),
            (b"(as const", Shape::BUILT),
            (b"(fp.", Shape::FLOAT),
            (b"(_ to_fp", Shape::FLOAT),
        ] {
            if has(word) {
                shape |= bit;
            }
        }
        z.selects = text
            .to_bytes()
            .windows(7)
            .filter(|w| *w == b"(select")
            .count();
        if z.selects > 0 {
            shape |= Shape::SELECT;
        }
        let Some(s) = z.new_solver_for(shape) else {
            // SAFETY: inc_ref'ed above.
            unsafe { Z3_ast_vector_dec_ref(z.ctx, v) };
            return Err(failed(&mut z, "z3 made no solver"));
        };
        z.solver = Some(s);
        // SAFETY: vector and solver alive; each element is an AST of the context.
        unsafe {
            for i in 0..Z3_ast_vector_size(z.ctx, v) {
                if let Some(a) = Z3_ast_vector_get(z.ctx, v, i) {
                    Z3_solver_assert(z.ctx, s, a);
                }
            }
            Z3_ast_vector_dec_ref(z.ctx, v);
        }
        if let Some(e) = z.take_error() {
            return Err(e);
        }
        let t0 = std::time::Instant::now();
        // SAFETY: solver alive.
        let r = unsafe { Z3_solver_check_assumptions(z.ctx, s, 0, std::ptr::null()) };
        let took = t0.elapsed();
        let answer = match r {
            Z3_L_TRUE | Z3_L_FALSE => answer_name(r).to_string(),
            _ => format!("unknown ({})", z.reason_unknown(s)),
        };
        Ok((answer, took))
    }

    /// Makes every solver made afterwards one for SMT-LIB logic `logic` (`QF_AUFBV`, …), Z3's
    /// default solver (`default`), one running tactics (`tactics:a,b|c`: `a` then `b`, `c`
    /// if they fail), or lets qicc choose with `None` (see [`Z3Solver::new_solver_for`]): the
    /// solver-query benchmark's knob for comparing them.
    pub fn set_logic(logic: Option<&str>) -> Result<(), String> {
        let l = logic
            .map(|l| CString::new(l).map_err(|_| "NUL in the logic name".to_string()))
            .transpose()?;
        *LOGIC.lock().map_err(|_| "poisoned".to_string())? = l;
        Ok(())
    }

    /// A new solver for a query with the array constructs `shape` ([`Shape`] bits). Z3's
    /// default solver probes each query for a strategy, which serves bit-vector queries best
    /// (bit-blasting), but:
    /// - a lambda (qicc's initial memory, memory after `memset`) looks like a quantifier to
    ///   the probe, and Z3 5.4 then ran a general strategy that timed out at 10 s on a query
    ///   4.8 answered in 0.2 s, while a solver for QF_AUFBV answered it in 25 ms (measured
    ///   with the query benchmark, `bench/queries.py`). So a query with a lambda gets a
    ///   QF_AUFBV solver.
    /// - a query whose only array terms are reads of array symbols (the bytes no run wrote,
    ///   `mem!free`, at symbolic addresses, the rest of memory having resolved into bit-vector
    ///   terms) made the probe pick its SMT core, which timed out at 20 s on a query from a
    ///   <ctype.h> table lookup that is 0.15 s as pure bit-vectors. Such reads are
    ///   Ackermannized (`bvarray2uf`, `ackermannize_bv`: one bit-vector per read, equal reads
    ///   of equal addresses) and the rest bit-blasted (`qfbv`); Z3's model converters give the
    ///   arrays back in the model: 0.12 s. Only for a few reads: the equalities grow with
    ///   their square. On the 727 such queries of the shared tasks' corpus, Ackermannizing
    ///   every one took 39 s instead of 24 s on those with 64 reads or more; with the limit
    ///   of 32 reads the corpus takes what the default solver takes (76.0 s against 73.2 s;
    ///   17.5 s against 16.9 s on the 535 queries it applies to; the same 723 answered).
    /// - a query with a float operation gets the default solver whatever else it has: the
    ///   QF_AUFBV solver does not know Z3's floating-point theory and answered `sat` in 1 ms
    ///   for the unsatisfiable `0 <= y && sqrt(y) < 0` (binary64), where the default solver
    ///   (its probe picks the FP strategy, which bit-blasts) answers `unsat` in 0.44 s; the
    ///   Ackermannizing tactics answer correctly but slower (1.1 s there, 22 s against 2.8 s
    ///   on an `ffma` query; `tests/float_solvers.rs`, `solver_choice_for_float_queries`).
    fn new_solver_for(&mut self, shape: u8) -> Option<Z3_solver> {
        let chosen = if shape & Shape::FLOAT != 0 {
            None
        } else if shape & Shape::LAMBDA != 0 {
            Some("QF_AUFBV")
        } else if shape & Shape::BUILT == 0
            && shape & Shape::SELECT != 0
            && self.selects <= ACKERMANNIZE_MAX_SELECTS
        {
            Some(ACKERMANNIZE_SELECTS)
        } else {
            None
        };
        let logic = LOGIC
            .lock()
            .ok()
            .and_then(|l| l.clone())
            .or_else(|| chosen.map(|c| CString::new(c).expect("no NUL")));
        // SAFETY: the solver is inc_ref'ed here and dec_ref'ed in `drop_solver`; the logic's
        // name is copied into Z3's symbol table.
        let s = unsafe {
            match logic {
                Some(l) if l.to_bytes() == b"default" => Z3_mk_solver(self.ctx)?,
                Some(l) if l.to_bytes().starts_with(b"tactics:") => self.tactic_solver(&l)?,
                Some(l) => {
                    Z3_mk_solver_for_logic(self.ctx, Z3_mk_string_symbol(self.ctx, l.as_ptr())?)?
                }
                None => Z3_mk_solver(self.ctx)?,
            }
        };
        // SAFETY: a live solver of this context (see above).
        unsafe { Z3_solver_inc_ref(self.ctx, s) };
        self.set_params(s);
        Some(s)
    }

    /// A solver running the named tactics one after the other (`tactics:a,b,c`), and when
    /// one of them fails (a query outside what it handles), the tactics after `|` instead
    /// (`tactics:a,b|c`).
    ///
    /// # Safety
    /// `self.ctx` is live.
    unsafe fn tactic_solver(&self, spec: &CStr) -> Option<Z3_solver> {
        let spec = spec.to_str().ok()?.strip_prefix("tactics:")?;
        let mut combined: Option<Z3_tactic> = None;
        for alternative in spec.split('|') {
            let t = self.tactic_sequence(alternative)?;
            combined = Some(match combined {
                None => t,
                Some(prev) => self.combine(prev, t, Z3_tactic_or_else)?,
            });
        }
        let t = combined?;
        let solver = Z3_mk_solver_from_tactic(self.ctx, t);
        Z3_tactic_dec_ref(self.ctx, t);
        solver
    }

    /// The named tactics one after the other (`a,b,c`), inc_ref'ed.
    ///
    /// # Safety
    /// `self.ctx` is live.
    unsafe fn tactic_sequence(&self, names: &str) -> Option<Z3_tactic> {
        let mut tactic: Option<Z3_tactic> = None;
        for name in names.split(',') {
            let n = CString::new(name.trim()).ok()?;
            let t = Z3_mk_tactic(self.ctx, n.as_ptr())?;
            Z3_tactic_inc_ref(self.ctx, t);
            tactic = Some(match tactic {
                None => t,
                Some(prev) => self.combine(prev, t, Z3_tactic_and_then)?,
            });
        }
        tactic
    }

    /// `how(a, b)` inc_ref'ed, `a` and `b` (both inc_ref'ed) released.
    ///
    /// # Safety
    /// `self.ctx` is live; `a` and `b` are tactics of it.
    unsafe fn combine(
        &self,
        a: Z3_tactic,
        b: Z3_tactic,
        how: unsafe extern "C" fn(Z3_context, Z3_tactic, Z3_tactic) -> Option<Z3_tactic>,
    ) -> Option<Z3_tactic> {
        let both = how(self.ctx, a, b);
        if let Some(t) = both {
            Z3_tactic_inc_ref(self.ctx, t);
        }
        Z3_tactic_dec_ref(self.ctx, a);
        Z3_tactic_dec_ref(self.ctx, b);
        both
    }

    /// The solver parameters qicc runs every check with: the time limit, and no SIGINT
    /// handler of Z3's own.
    fn set_params(&self, s: Z3_solver) {
        let ctx = self.ctx;
        let symbol = |name: &str| {
            let key = CString::new(name).expect("no NUL");
            // SAFETY: Z3 copies the name into its symbol table.
            unsafe { Z3_mk_string_symbol(ctx, key.as_ptr()) }
        };
        let ms = self
            .timeout
            .map(|t| t.as_millis().clamp(1, u32::MAX as u128 - 1) as u32)
            .unwrap_or(u32::MAX);
        // SAFETY: the params are created, applied to the live solver and released.
        unsafe {
            let Some(p) = Z3_mk_params(ctx) else { return };
            Z3_params_inc_ref(ctx, p);
            if let Some(sym) = symbol("timeout") {
                Z3_params_set_uint(ctx, p, sym, ms);
            }
            // Z3 installs its own SIGINT handler around each check by default, which takes
            // Ctrl-C away from the process: the check would stop, but the caller's cancel
            // flag would never be set and the next check would run on. Stopping a check is
            // the interrupt hook's job.
            if let Some(sym) = symbol("ctrl_c") {
                Z3_params_set_bool(ctx, p, sym, false);
            }
            if self.solve_eqs {
                if let Some(sym) = symbol("smt.solve_eqs") {
                    Z3_params_set_bool(ctx, p, sym, true);
                }
            }
            Z3_solver_set_params(ctx, s, p);
            Z3_params_dec_ref(ctx, p);
        }
    }

    /// What a check with `assumptions` asks: every asserted frame and the assumptions.
    fn query<'a>(&'a self, assumptions: &'a [TermId]) -> impl Iterator<Item = TermId> + 'a {
        self.frames.iter().flatten().chain(assumptions).copied()
    }

    fn drop_model(&mut self) {
        if let Some(m) = self.model.take() {
            // SAFETY: inc_ref'ed when stored.
            unsafe { Z3_model_dec_ref(self.ctx, m) };
        }
    }

    fn drop_solver(&mut self) {
        if let Some(s) = self.solver.take() {
            // SAFETY: inc_ref'ed in `new_solver_for`.
            unsafe { Z3_solver_dec_ref(self.ctx, s) };
        }
    }

    /// A fresh incremental solver with the recorded assertions at their push levels.
    fn rebuild_incremental(&mut self, store: &TermStore) -> Result<(), String> {
        self.drop_solver();
        let s = self.new_solver_for(0).ok_or_else(|| {
            self.take_error()
                .unwrap_or_else(|| "z3 made no solver".into())
        })?;
        self.solver = Some(s);
        let frames = self.frames.clone();
        for (level, frame) in frames.iter().enumerate() {
            if level > 0 {
                // SAFETY: solver alive.
                unsafe { Z3_solver_push(self.ctx, s) };
            }
            for &t in frame {
                // Every assertion or no answer: a missing one could make a SAT wrong.
                let a = self.ast(store, t).ok_or_else(|| {
                    self.error
                        .clone()
                        .unwrap_or_else(|| "interrupted".to_string())
                })?;
                // SAFETY: solver and AST alive.
                unsafe { Z3_solver_assert(self.ctx, s, a) };
            }
        }
        if let Some(e) = self.take_error() {
            self.record_error(e.clone());
            return Err(e);
        }
        self.cancelled = false;
        Ok(())
    }

    /// The Z3 error raised by the last calls, if any (and clears nothing: Z3 keeps it until
    /// the next call that succeeds, so check right after the calls of interest).
    fn take_error(&mut self) -> Option<String> {
        // SAFETY: reads the context's error state.
        unsafe {
            let code = Z3_get_error_code(self.ctx);
            if code == ErrorCode::Ok {
                return None;
            }
            let msg = Z3_get_error_msg(self.ctx, code);
            let text = if msg.is_null() {
                format!("{code:?}")
            } else {
                CStr::from_ptr(msg).to_string_lossy().into_owned()
            };
            Some(format!("z3 error: {text}"))
        }
    }

    fn record_error(&mut self, e: String) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }

    /// The Z3 AST of `t` (translating what is new), or `None` after an error.
    fn ast(&mut self, store: &TermStore, t: TermId) -> Option<Z3_ast> {
        if self.error.is_some() {
            return None;
        }
        match translate::translate(self, store, t) {
            Ok(a) => Some(a),
            // Not an error of the back-end: the next check reports the interrupt.
            Err(e) if e == translate::INTERRUPTED => None,
            Err(e) => {
                self.record_error(e);
                None
            }
        }
    }

    fn reason_unknown(&mut self, s: Z3_solver) -> String {
        if self.interrupt.is_interrupted() {
            return "interrupted".to_string();
        }
        // SAFETY: the solver is alive; the string is copied before the next call.
        unsafe {
            let r = Z3_solver_get_reason_unknown(self.ctx, s);
            if r.is_null() {
                "unknown".to_string()
            } else {
                let text = CStr::from_ptr(r).to_string_lossy().into_owned();
                match text.as_str() {
                    "canceled" => "timeout or interrupted".to_string(),
                    _ => text,
                }
            }
        }
    }
}

impl Solver for Z3Solver {
    fn name(&self) -> String {
        Z3Solver::version()
    }

    fn assert(&mut self, store: &TermStore, t: TermId) {
        store.expect_bool(t);
        // Recorded first: whatever happens to the translation, later checks must see it
        // (an interrupted or failed translation makes every later check Unknown).
        if let Some(frame) = self.frames.last_mut() {
            frame.push(t);
        }
        let Some(a) = self.ast(store, t) else { return };
        if let Some(s) = self.solver {
            if self.mode == CheckMode::Incremental {
                // SAFETY: solver and AST are alive.
                unsafe { Z3_solver_assert(self.ctx, s, a) };
                if let Some(e) = self.take_error() {
                    self.record_error(e);
                }
            }
        }
    }

    fn push(&mut self) {
        self.frames.push(Vec::new());
        if let (CheckMode::Incremental, Some(s)) = (self.mode, self.solver) {
            // SAFETY: solver alive.
            unsafe { Z3_solver_push(self.ctx, s) };
        }
    }

    fn pop(&mut self) {
        if self.frames.len() <= 1 {
            self.record_error("pop without push".to_string());
            return;
        }
        self.frames.pop();
        if let (CheckMode::Incremental, Some(s)) = (self.mode, self.solver) {
            // SAFETY: solver alive; one level was pushed.
            unsafe { Z3_solver_pop(self.ctx, s, 1) };
        }
    }

    fn check(&mut self, store: &TermStore, assumptions: &[TermId]) -> CheckResult {
        self.drop_model();
        self.last_unsat = None;
        if self.interrupt.is_interrupted() {
            return CheckResult::Unknown("interrupted".to_string());
        }
        let mut asts = Vec::with_capacity(assumptions.len());
        for &t in assumptions {
            store.expect_bool(t);
            match self.ast(store, t) {
                Some(a) => asts.push(a),
                None => break,
            }
        }
        if let Some(e) = &self.error {
            return CheckResult::Unknown(e.clone());
        }
        if asts.len() < assumptions.len() || self.interrupt.is_interrupted() {
            return CheckResult::Unknown("interrupted".to_string());
        }
        if self.mode == CheckMode::Incremental && self.cancelled {
            if let Err(e) = self.rebuild_incremental(store) {
                return CheckResult::Unknown(e);
            }
        }
        let solver = match self.mode {
            CheckMode::Incremental => match self.solver {
                Some(s) => s,
                None => return CheckResult::Unknown("no solver".to_string()),
            },
            CheckMode::FreshPerCheck => {
                self.drop_solver();
                let shape = self.query(assumptions).fold(0, |acc, t| {
                    acc | self.shape_below.get(t.index()).copied().unwrap_or(0)
                });
                let Some(s) = self.new_solver_for(shape) else {
                    let e = self
                        .take_error()
                        .unwrap_or_else(|| "z3 made no solver".into());
                    return CheckResult::Unknown(e);
                };
                self.solver = Some(s);
                let all: Vec<TermId> = self.frames.iter().flatten().copied().collect();
                for t in all {
                    // Every assertion or no answer: a missing one could make a SAT wrong.
                    let Some(a) = self.ast(store, t) else {
                        return CheckResult::Unknown(
                            self.error
                                .clone()
                                .unwrap_or_else(|| "interrupted".to_string()),
                        );
                    };
                    // SAFETY: solver and AST alive.
                    unsafe { Z3_solver_assert(self.ctx, s, a) };
                }
                for &a in &asts {
                    // SAFETY: solver and AST alive.
                    unsafe { Z3_solver_assert(self.ctx, s, a) };
                }
                asts.clear();
                s
            }
        };
        if let Some(e) = self.take_error() {
            self.record_error(e);
        }
        if let Some(e) = &self.error {
            return CheckResult::Unknown(e.clone());
        }
        // Only with the corpus on is the query gathered (this is every check's path).
        let recorded = crate::corpus::enabled()
            .then(|| {
                let query: Vec<TermId> = self.query(assumptions).collect();
                let mode = match (self.mode, self.solve_eqs) {
                    (CheckMode::Incremental, false) => "incremental",
                    (CheckMode::Incremental, true) => "incremental, equation solving",
                    (CheckMode::FreshPerCheck, false) => "fresh",
                    (CheckMode::FreshPerCheck, true) => "fresh, equation solving",
                };
                crate::corpus::record(store, &query, mode, self.timeout)
            })
            .flatten();
        let t0 = std::time::Instant::now();
        // SAFETY: solver and assumption ASTs alive; the pointer/length pair is a live Vec.
        let r = unsafe {
            Z3_solver_check_assumptions(self.ctx, solver, asts.len() as u32, asts.as_ptr())
        };
        if let Some(rec) = recorded {
            rec.finish(answer_name(r), t0.elapsed());
        }
        if let Some(e) = self.take_error() {
            self.record_error(e.clone());
            return CheckResult::Unknown(e);
        }
        match r {
            Z3_L_TRUE => {
                // SAFETY: a model exists after a satisfiable check; inc_ref'ed while kept.
                unsafe {
                    let Some(m) = Z3_solver_get_model(self.ctx, solver) else {
                        return CheckResult::Unknown("z3 gave no model".to_string());
                    };
                    Z3_model_inc_ref(self.ctx, m);
                    self.model = Some(m);
                }
                CheckResult::Sat
            }
            Z3_L_FALSE => {
                // The translations are kept alive by `memo` (every term's, inc_ref'ed).
                self.last_unsat = Some(match self.mode {
                    CheckMode::Incremental => assumptions
                        .iter()
                        .copied()
                        .zip(asts.iter().copied().map(Some))
                        .collect(),
                    // The assumptions were asserted: all of them are the core.
                    CheckMode::FreshPerCheck => assumptions.iter().map(|&t| (t, None)).collect(),
                });
                CheckResult::Unsat
            }
            _ => {
                self.cancelled = true;
                CheckResult::Unknown(self.reason_unknown(solver))
            }
        }
    }

    fn value(&mut self, store: &TermStore, t: TermId) -> Option<ModelValue> {
        let m = self.model?;
        let sort = store.sort(t);
        let a = self.ast(store, t)?;
        let mut out: Option<Z3_ast> = None;
        // SAFETY: model and AST alive; `out` is only read when Z3 reports success, and is
        // inc_ref'ed for the duration of the reads. `Option<NonNull<_>>` has the layout of
        // the nullable pointer Z3 writes.
        unsafe {
            let ok = Z3_model_eval(
                self.ctx,
                m,
                a,
                true,
                (&mut out as *mut Option<Z3_ast>).cast(),
            );
            let Some(out) = out.filter(|_| ok) else {
                return None;
            };
            Z3_inc_ref(self.ctx, out);
            let v = match sort {
                Sort::Bool => match Z3_get_bool_value(self.ctx, out) {
                    Z3_L_TRUE => Some(ModelValue::Bool(true)),
                    Z3_L_FALSE => Some(ModelValue::Bool(false)),
                    _ => None,
                },
                Sort::BitVec(width) => {
                    let mut v: u64 = 0;
                    if Z3_get_numeral_uint64(self.ctx, out, &mut v) {
                        Some(ModelValue::Bv { width, value: v })
                    } else {
                        None
                    }
                }
                Sort::Array { .. } => None,
            };
            Z3_dec_ref(self.ctx, out);
            let _ = self.take_error();
            v
        }
    }

    fn unsat_core(&mut self) -> Option<Vec<TermId>> {
        let last = self.last_unsat.clone()?;
        let (CheckMode::Incremental, Some(s)) = (self.mode, self.solver) else {
            return Some(last.iter().map(|(t, _)| *t).collect());
        };
        // SAFETY: the solver is alive and its last check answered Unsat; the vector is
        // inc_ref'ed while it is read and released after.
        let core: Vec<Z3_ast> = unsafe {
            let v = Z3_solver_get_unsat_core(self.ctx, s)?;
            Z3_ast_vector_inc_ref(self.ctx, v);
            let n = Z3_ast_vector_size(self.ctx, v);
            let out = (0..n)
                .filter_map(|i| Z3_ast_vector_get(self.ctx, v, i))
                .collect();
            Z3_ast_vector_dec_ref(self.ctx, v);
            out
        };
        if self.take_error().is_some() {
            return None;
        }
        // Z3 shares equal ASTs, so an assumption is in the core iff its translation is.
        Some(
            last.iter()
                .filter(|(_, a)| a.is_some_and(|a| core.contains(&a)))
                .map(|(t, _)| *t)
                .collect(),
        )
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        if self.timeout == timeout {
            return;
        }
        self.timeout = timeout;
        if let (CheckMode::Incremental, Some(s)) = (self.mode, self.solver) {
            self.set_params(s);
        }
    }

    fn interrupt_handle(&self) -> InterruptHandle {
        self.interrupt.clone()
    }
}

impl Z3Solver {
    /// Drops the solver on a thread of its own (`solver::drop_in_background`).
    pub fn drop_in_background(self) {
        // SAFETY: the solver is moved whole, so nothing else refers to its context afterwards
        // but the interrupt hook, which `Drop` removes under the handle's lock before freeing
        // anything; Z3 contexts are not tied to the thread that made them.
        unsafe { crate::solver::drop_in_background(self, "qicc-z3-drop") }
    }
}

impl Drop for Z3Solver {
    fn drop(&mut self) {
        // Order matters (module docs): hook first, then references, then the context.
        self.interrupt.set_hook(None);
        self.drop_model();
        self.drop_solver();
        // SAFETY: each stored AST and sort was inc_ref'ed once.
        unsafe {
            for a in self.memo.drain(..).flatten() {
                Z3_dec_ref(self.ctx, a);
            }
            for (_, a) in self.float_value.drain() {
                Z3_dec_ref(self.ctx, a);
            }
            let sorts = self.sorts.drain().map(|(_, s)| s);
            for s in sorts.chain(self.fp_sorts.drain().map(|(_, s)| s)) {
                if let Some(a) = Z3_sort_to_ast(self.ctx, s) {
                    Z3_dec_ref(self.ctx, a);
                }
            }
            Z3_del_context(self.ctx);
        }
    }
}

fn answer_name(r: Z3_lbool) -> &'static str {
    match r {
        Z3_L_TRUE => "sat",
        Z3_L_FALSE => "unsat",
        _ => "unknown",
    }
}
