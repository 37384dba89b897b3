//! The Bitwuzla back-end (through the C API of Bitwuzla 0.8, crate `bitwuzla-sys`).
//!
//! This module and its `translate` are the only code in qicc that names Bitwuzla. One
//! [`BitwuzlaSolver`] owns one Bitwuzla term manager (not thread-safe, like a Z3 context),
//! translates each term of the caller's [`TermStore`] once and keeps the translation for
//! later checks, and runs checks on Bitwuzla instances of that term manager: one for every
//! check ([`CheckMode::FreshPerCheck`]) or one for the solver's life
//! ([`CheckMode::Incremental`]).
//!
//! What differs from Z3, and how the back-end keeps the IR's semantics:
//! - Bitwuzla has no operator from a float to its IEEE bits. The translation of such a
//!   conversion is a fresh bit-vector `b` with the *definition* `to_fp(b) = r` (see
//!   `translate`); a check asserts the definitions of every float conversion its query
//!   contains. A definition only names a value, so it is satisfiable whatever else holds and
//!   adding it changes no answer.
//! - Bitwuzla's arrays have no lambdas. An array term with a lambda below it (qicc's initial
//!   memory, memory after `memset`) is translated as a Bitwuzla *function* from indices to
//!   elements; reads of it are applications, stores and `ite`s over it are lambdas again.
//! - Checks are stopped by Bitwuzla's termination callback, which reads the interrupt flag and
//!   the check's deadline (the per-check time limit). Stock Bitwuzla asks it only between
//!   preprocessing rounds and in the SAT solver, so a large query overran its limit by
//!   seconds (rewriting, substitution, bit-blasting); the library qicc links is patched
//!   (`scripts/bitwuzla-terminate.patch`) to ask it in those phases too, by throwing out of
//!   the check. An instance stopped that way is unusable: it is set aside (deleted at the next
//!   check or with the solver, not while the caller waits), and an incremental
//!   solver makes a new one at its next check, replaying its assertions and push levels
//!   (`restore_instance`).
//!
//! Safety invariants of the raw API use:
//! - terms and sorts are handles owned by the term manager, alive until it is deleted; the
//!   manager outlives every instance (`Drop` deletes instances first);
//! - the termination callback's state is a `Box` owned by the solver, which outlives every
//!   instance that points to it;
//! - API errors do not exit the process: a thread-local abort callback records the message
//!   and the failed call returns a null handle; the message is taken after every batch of
//!   calls and makes the check answer `Unknown`, never a wrong `Sat`/`Unsat`.

mod translate;

use crate::solver::{CheckResult, InterruptHandle, ModelValue, Solver};
use crate::store::TermStore;
use crate::term::{Node, Sort, TermId};
use crate::CheckMode;
use bitwuzla_sys::*;
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::ffi::{c_char, c_void, CStr};
use std::time::{Duration, Instant};

thread_local! {
    /// The message of the last Bitwuzla API error on this thread (see the module docs).
    static ERROR: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Bitwuzla's abort callback: records the error instead of exiting the process. The failed
/// call then returns a null handle.
unsafe extern "C" fn on_abort(msg: *const c_char) {
    let text = if msg.is_null() {
        "bitwuzla error".to_string()
    } else {
        // SAFETY: Bitwuzla passes a NUL-terminated message alive during the call.
        unsafe { CStr::from_ptr(msg) }
            .to_string_lossy()
            .trim()
            .to_string()
    };
    ERROR.with(|e| {
        if let Ok(mut e) = e.try_borrow_mut() {
            e.get_or_insert(text);
        }
    });
}

/// The error recorded since the last call, if any (and clears it).
fn take_error() -> Option<String> {
    ERROR.with(|e| e.try_borrow_mut().ok().and_then(|mut e| e.take()))
}

/// The message of the error the patched library raises when the termination callback stops a
/// check in the middle of a phase (`util/terminate_poll.h` of the patch): the instance is then
/// unusable, but nothing is wrong with the solver.
const TERMINATED: &str = "terminated during solving (instance unusable)";

/// The reason of a check not asked (see [`BitwuzlaSolver::unsupported`]).
pub const UNSUPPORTED: &str =
    "bitwuzla does not decide equalities of arrays built on a constant array";

/// What the termination callback reads: the solver's interrupt flag and the running check's
/// deadline. Read only on the solver's thread (Bitwuzla calls back from the check).
struct Termination {
    interrupt: InterruptHandle,
    deadline: Cell<Option<Instant>>,
}

unsafe extern "C" fn terminate(state: *mut c_void) -> i32 {
    // SAFETY: the state is the solver's boxed `Termination`, alive while any instance is.
    let t = unsafe { &*(state as *const Termination) };
    let over = t.deadline.get().is_some_and(|d| Instant::now() >= d);
    i32::from(over || t.interrupt.is_interrupted())
}

/// Options every instance made afterwards gets (see [`BitwuzlaSolver::set_option`]).
static OPTIONS: std::sync::Mutex<Vec<(String, String)>> = std::sync::Mutex::new(Vec::new());

/// The environment variable with Bitwuzla options for every instance (`NAME=VALUE,…`, long
/// names as [`BitwuzlaSolver::set_option`] takes them): a setting tried on whole runs and
/// test suites before qicc adopts it. A bad one is reported once on stderr and ignored.
pub const OPTIONS_ENV: &str = "QICC_BITWUZLA_OPTIONS";

fn options_from_env() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let Ok(text) = std::env::var(OPTIONS_ENV) else {
            return;
        };
        for item in text.split(',').filter(|i| !i.trim().is_empty()) {
            let set = match item.split_once('=') {
                Some((n, v)) => BitwuzlaSolver::set_option(n.trim(), v.trim()),
                None => Err("needs NAME=VALUE".to_string()),
            };
            if let Err(e) = set {
                eprintln!("qicc: {OPTIONS_ENV}: `{item}`: {e}; ignored");
            }
        }
    });
}

/// A Bitwuzla term manager, the instance of the running or last check, and the translations
/// of terms seen so far.
pub struct BitwuzlaSolver {
    tm: *mut BitwuzlaTermManager,
    mode: CheckMode,
    /// [`CheckMode::Incremental`]: the one instance. [`CheckMode::FreshPerCheck`]: the
    /// instance of the last check (its model), or none.
    instance: Option<*mut Bitwuzla>,
    /// An instance stopped in the middle of a phase (unusable), deleted at the next check or
    /// with the solver: deleting it frees what the phase built, which takes a good part of
    /// the phase's time, and the caller waiting for the stopped check's answer need not wait
    /// for that (a solver that timed out is often dropped in the background next).
    stopped: Option<*mut Bitwuzla>,
    termination: Box<Termination>,
    /// Translation of each term, by term index.
    memo: Vec<Option<BitwuzlaTerm>>,
    /// By term index: an array term translated as a Bitwuzla function (a lambda below it).
    fun: Vec<bool>,
    /// By term index: a constant array below (through array terms).
    const_below: Vec<bool>,
    /// By term index: a construct Bitwuzla does not decide below (an equality of arrays
    /// built on a constant array: Bitwuzla 0.8 answers unknown and warns on stderr), so
    /// checks of it are not asked ([`BitwuzlaSolver::unsupported`]).
    unsupported_below: Vec<bool>,
    /// The last check was not asked for that reason.
    last_unsupported: bool,
    /// By term index: the term or one below it has float-to-bits definitions.
    defs_below: Vec<bool>,
    /// The definitions each float node made (by term index).
    defs: HashMap<usize, Vec<Def>>,
    /// By term index, for a float node with a float result: that float, whose IEEE bits the
    /// node's translation is (see `fp_encode::encode`'s `known`).
    float_value: HashMap<usize, BitwuzlaTerm>,
    sorts: HashMap<Sort, BitwuzlaSort>,
    /// Function sorts (lambda arrays) by (index, element) width.
    fun_sorts: HashMap<(u16, u16), BitwuzlaSort>,
    /// Float sorts by width.
    fp_sorts: HashMap<u16, BitwuzlaSort>,
    /// Assertions per push level.
    frames: Vec<Vec<TermId>>,
    /// [`CheckMode::Incremental`]: the float nodes whose definitions are asserted, per push
    /// level (popped with it).
    def_frames: Vec<HashSet<usize>>,
    /// The float nodes whose definitions the last check had (values of terms needing others
    /// are not given: the model leaves their bits free).
    defs_checked: HashSet<usize>,
    timeout: Option<Duration>,
    /// The first error the back-end met; every later check answers `Unknown` with it.
    error: Option<String>,
    /// After an Unsat answer: the assumptions and (incremental) their translations.
    last_unsat: Option<Vec<(TermId, Option<BitwuzlaTerm>)>>,
    model: bool,
}

impl BitwuzlaSolver {
    pub fn new(mode: CheckMode) -> BitwuzlaSolver {
        // SAFETY: installs a function for this thread; it only records the message.
        unsafe { bitwuzla_set_abort_callback(Some(on_abort)) };
        // SAFETY: plain constructor; deleted in `Drop`.
        let tm = unsafe { bitwuzla_term_manager_new() };
        let interrupt = InterruptHandle::new();
        let mut s = BitwuzlaSolver {
            tm,
            mode,
            instance: None,
            stopped: None,
            termination: Box::new(Termination {
                interrupt,
                deadline: Cell::new(None),
            }),
            memo: Vec::new(),
            fun: Vec::new(),
            const_below: Vec::new(),
            unsupported_below: Vec::new(),
            last_unsupported: false,
            defs_below: Vec::new(),
            defs: HashMap::new(),
            float_value: HashMap::new(),
            sorts: HashMap::new(),
            fun_sorts: HashMap::new(),
            fp_sorts: HashMap::new(),
            frames: vec![Vec::new()],
            def_frames: vec![HashSet::new()],
            defs_checked: HashSet::new(),
            timeout: None,
            error: None,
            last_unsat: None,
            model: false,
        };
        if mode == CheckMode::Incremental {
            s.instance = s.new_instance();
        }
        s
    }

    /// Whether the last check was not asked because its query holds a construct Bitwuzla
    /// does not decide (its answer is `Unknown(UNSUPPORTED)`): `SmtSolver` asks Z3 instead.
    pub fn unsupported(&self) -> bool {
        self.last_unsupported
    }

    /// The assertions of every push level, oldest first.
    pub(crate) fn assertions(&self) -> impl Iterator<Item = TermId> + '_ {
        self.frames.iter().flatten().copied()
    }

    /// "bitwuzla VERSION" of the linked library.
    pub fn version() -> String {
        // SAFETY: a static NUL-terminated string.
        let v = unsafe { CStr::from_ptr(bitwuzla_version()) };
        format!("bitwuzla {}", v.to_string_lossy())
    }

    /// Sets a Bitwuzla option by its long name (`rewrite-level`, `sat-solver`, `pp-normalize`,
    /// …; numeric or mode values as Bitwuzla's command line takes them) for every instance
    /// made afterwards, after qicc's own settings: the solver-query benchmark's knob for trying
    /// a setting (Z3's is `Z3Solver::set_global_param`). An unknown name or a bad value is an
    /// error here, not when an instance is made.
    pub fn set_option(name: &str, value: &str) -> Result<(), String> {
        // Tried on an options object of its own first, so a bad one never reaches a check.
        let mut probe = OptionSet::new();
        probe.set(name, value)?;
        OPTIONS
            .lock()
            .map_err(|_| "poisoned".to_string())?
            .push((name.to_string(), value.to_string()));
        Ok(())
    }

    /// A new instance of the term manager, with models, unsat assumptions and the
    /// termination callback.
    fn new_instance(&mut self) -> Option<*mut Bitwuzla> {
        options_from_env();
        let mut opts = OptionSet::new();
        // SAFETY: options of the live object.
        unsafe {
            bitwuzla_set_option(opts.0, BITWUZLA_OPT_PRODUCE_MODELS, 1);
            bitwuzla_set_option(opts.0, BITWUZLA_OPT_PRODUCE_UNSAT_ASSUMPTIONS, 1);
            // The normalization pass (sums and products rewritten into normal forms) does
            // not poll the termination callback and grows superlinearly on the long adder
            // chains of an unrolled loop: a cancelled BMC check on `escape_safe_1000` ran
            // 9 s in it, keeping the verdict another engine had in 0.2 s waiting. Without
            // it the shared tasks answer one task fewer within 10 s (one at 9.97 s before),
            // in 173 s instead of 190 s in all.
            bitwuzla_set_option(opts.0, BITWUZLA_OPT_PP_NORMALIZE, 0);
        }
        if let Ok(extra) = OPTIONS.lock() {
            for (n, v) in extra.iter() {
                // Checked by `set_option`.
                let _ = opts.set(n, v);
            }
        }
        // SAFETY: Bitwuzla copies the options (dropped after); the termination state
        // outlives the instance (module docs).
        let b = unsafe {
            let b = bitwuzla_new(self.tm, opts.0);
            if !b.is_null() {
                let state = &*self.termination as *const Termination as *mut c_void;
                bitwuzla_set_termination_callback(b, Some(terminate), state);
            }
            b
        };
        drop(opts);
        if let Some(e) = take_error() {
            self.record_error(e);
        }
        (!b.is_null()).then_some(b)
    }

    /// [`CheckMode::Incremental`] after a check was stopped mid-phase: a new instance with
    /// every live assertion at its push level (definitions are asserted again as checks need
    /// them). `None`, and no instance, if that fails.
    fn restore_instance(&mut self, store: &TermStore) -> Option<*mut Bitwuzla> {
        self.drop_instance();
        let b = self.new_instance()?;
        self.instance = Some(b);
        let frames = self.frames.clone();
        for (level, frame) in frames.iter().enumerate() {
            if level > 0 {
                // SAFETY: instance alive.
                unsafe { bitwuzla_push(b, 1) };
            }
            for &t in frame {
                let Some(a) = self.term(store, t) else {
                    self.drop_instance();
                    return None;
                };
                // SAFETY: instance and term alive.
                unsafe { bitwuzla_assert(b, a) };
            }
        }
        self.def_frames = vec![HashSet::new(); frames.len()];
        if let Some(e) = take_error() {
            self.record_error(e);
            self.drop_instance();
            return None;
        }
        Some(b)
    }

    /// Deletes the instance and a stopped one.
    fn drop_instance(&mut self) {
        self.model = false;
        for b in [self.instance.take(), self.stopped.take()]
            .into_iter()
            .flatten()
        {
            // SAFETY: made by `new_instance`, deleted once.
            unsafe { bitwuzla_delete(b) };
        }
    }

    fn record_error(&mut self, e: String) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }

    /// The translation of `t` (translating what is new), or `None` after an error.
    fn term(&mut self, store: &TermStore, t: TermId) -> Option<BitwuzlaTerm> {
        if self.error.is_some() {
            return None;
        }
        match translate::translate(self, store, t) {
            Ok(a) => Some(a),
            Err(e) if e == translate::INTERRUPTED => None,
            Err(e) => {
                self.record_error(e);
                None
            }
        }
    }

    /// The float nodes whose definitions the DAGs of `roots` (all translated) need: those
    /// whose bits are read by a term other than a float node (a float node reads a float
    /// operand's value directly, `fp_encode::encode`'s `known`, so the bits of a chain of
    /// float operations need no definition until the chain's end).
    fn defs_of(&self, store: &TermStore, roots: impl Iterator<Item = TermId>) -> Vec<usize> {
        let below = |t: TermId| self.defs_below.get(t.index()).copied().unwrap_or(false);
        // (term, whether its only reader here is a float node that reads its value).
        let mut seen: HashSet<(usize, bool)> = HashSet::new();
        let mut out = Vec::new();
        let mut stack: Vec<(TermId, bool)> =
            roots.filter(|&t| below(t)).map(|t| (t, false)).collect();
        while let Some((t, as_value)) = stack.pop() {
            if !seen.insert((t.index(), as_value)) {
                continue;
            }
            if !as_value && self.defs.contains_key(&t.index()) {
                out.push(t.index());
            }
            let node = store.node(t);
            let float_reader = matches!(node, Node::Fp1(..) | Node::Fp2(..) | Node::Fp3(..));
            node.for_each_child(|c| {
                if below(c) {
                    let value = float_reader && self.float_value.contains_key(&c.index());
                    stack.push((c, value));
                }
            });
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    fn reason_unknown(&self) -> String {
        if self.termination.interrupt.is_interrupted() {
            "interrupted".to_string()
        } else if self
            .termination
            .deadline
            .get()
            .is_some_and(|d| Instant::now() >= d)
        {
            "timeout".to_string()
        } else {
            "unknown".to_string()
        }
    }
}

/// The definition of the IEEE bits of a float (see `translate`'s `ieee_bits`).
pub(super) struct Def {
    /// The fresh bit-vector standing for the bits.
    bits: BitwuzlaTerm,
    /// The float they are the bits of.
    value: BitwuzlaTerm,
    /// `to_fp(bits) = value`.
    def: BitwuzlaTerm,
}

impl Def {
    pub(super) fn new(bits: BitwuzlaTerm, value: BitwuzlaTerm, def: BitwuzlaTerm) -> Def {
        Def { bits, value, def }
    }
}

/// `t` with `keys` replaced by `vals` (terms of one manager).
fn substitute(
    t: BitwuzlaTerm,
    keys: &mut [BitwuzlaTerm],
    vals: &mut [BitwuzlaTerm],
) -> BitwuzlaTerm {
    if keys.is_empty() {
        return t;
    }
    // SAFETY: live terms; both arrays are live and of the given length.
    unsafe { bitwuzla_substitute_term(t, keys.len(), keys.as_mut_ptr(), vals.as_mut_ptr()) }
}

impl BitwuzlaSolver {
    /// The bit-vector constant of the IEEE bits of the float `r`'s value in the model of the
    /// last check (a NaN's bits are any: the translation's `ite` gives the IR's NaN).
    fn float_bits(&mut self, b: *mut Bitwuzla, r: BitwuzlaTerm) -> Option<BitwuzlaTerm> {
        // SAFETY: instance after a Sat answer, live term; the strings are Bitwuzla's, copied
        // before the next call.
        unsafe {
            let v = bitwuzla_get_value(b, r);
            if v == 0 {
                return None;
            }
            let (mut sign, mut exp, mut sig) =
                (std::ptr::null(), std::ptr::null(), std::ptr::null());
            bitwuzla_term_value_get_fp_ieee(v, &mut sign, &mut exp, &mut sig, 2);
            if sign.is_null() || exp.is_null() || sig.is_null() {
                return None;
            }
            let text: String = [sign, exp, sig]
                .iter()
                .map(|p| CStr::from_ptr(*p).to_string_lossy().into_owned())
                .collect();
            let width = text.len() as u64;
            let value = u64::from_str_radix(&text, 2).ok()?;
            let sort = bitwuzla_mk_bv_sort(self.tm, width);
            let c = bitwuzla_mk_bv_value_uint64(self.tm, sort, value);
            take_error().is_none().then_some(c)
        }
    }
}

impl Solver for BitwuzlaSolver {
    fn name(&self) -> String {
        BitwuzlaSolver::version()
    }

    fn assert(&mut self, store: &TermStore, t: TermId) {
        store.expect_bool(t);
        // Recorded first: whatever happens to the translation, later checks must see it.
        if let Some(frame) = self.frames.last_mut() {
            frame.push(t);
        }
        let Some(a) = self.term(store, t) else { return };
        if let (CheckMode::Incremental, Some(b)) = (self.mode, self.instance) {
            // SAFETY: instance and term alive.
            unsafe { bitwuzla_assert(b, a) };
            if let Some(e) = take_error() {
                self.record_error(e);
            }
        }
    }

    fn push(&mut self) {
        self.frames.push(Vec::new());
        self.def_frames.push(HashSet::new());
        if let (CheckMode::Incremental, Some(b)) = (self.mode, self.instance) {
            // SAFETY: instance alive.
            unsafe { bitwuzla_push(b, 1) };
        }
    }

    fn pop(&mut self) {
        if self.frames.len() <= 1 {
            self.record_error("pop without push".to_string());
            return;
        }
        self.frames.pop();
        self.def_frames.pop();
        if let (CheckMode::Incremental, Some(b)) = (self.mode, self.instance) {
            // SAFETY: instance alive; one level was pushed.
            unsafe { bitwuzla_pop(b, 1) };
        }
    }

    fn check(&mut self, store: &TermStore, assumptions: &[TermId]) -> CheckResult {
        self.model = false;
        self.last_unsat = None;
        self.last_unsupported = false;
        if self.termination.interrupt.is_interrupted() {
            return CheckResult::Unknown("interrupted".to_string());
        }
        let mut terms = Vec::with_capacity(assumptions.len());
        for &t in assumptions {
            store.expect_bool(t);
            match self.term(store, t) {
                Some(a) => terms.push(a),
                None => break,
            }
        }
        if let Some(e) = &self.error {
            return CheckResult::Unknown(e.clone());
        }
        if terms.len() < assumptions.len() || self.termination.interrupt.is_interrupted() {
            return CheckResult::Unknown("interrupted".to_string());
        }
        let all: Vec<TermId> = self.frames.iter().flatten().copied().collect();
        if all.iter().chain(assumptions).any(|t| {
            self.unsupported_below
                .get(t.index())
                .copied()
                .unwrap_or(false)
        }) {
            self.last_unsupported = true;
            return CheckResult::Unknown(UNSUPPORTED.to_string());
        }
        let needed = self.defs_of(store, all.iter().chain(assumptions).copied());
        let b = match self.mode {
            CheckMode::Incremental => {
                let Some(b) = self.instance.or_else(|| self.restore_instance(store)) else {
                    return CheckResult::Unknown(
                        self.error
                            .clone()
                            .unwrap_or_else(|| "no bitwuzla instance".into()),
                    );
                };
                // Definitions not asserted at a live level yet go on the current one.
                let live: HashSet<usize> = self.def_frames.iter().flatten().copied().collect();
                for d in needed.iter().filter(|d| !live.contains(d)) {
                    for def in self.defs.get(d).into_iter().flatten() {
                        // SAFETY: instance and term alive.
                        unsafe { bitwuzla_assert(b, def.def) };
                    }
                    if let Some(level) = self.def_frames.last_mut() {
                        level.insert(*d);
                    }
                }
                b
            }
            CheckMode::FreshPerCheck => {
                self.drop_instance();
                let Some(b) = self.new_instance() else {
                    return CheckResult::Unknown(
                        self.error
                            .clone()
                            .unwrap_or_else(|| "no bitwuzla instance".into()),
                    );
                };
                self.instance = Some(b);
                for &t in &all {
                    // Every assertion or no answer: a missing one could make a SAT wrong.
                    let Some(a) = self.term(store, t) else {
                        return CheckResult::Unknown(
                            self.error.clone().unwrap_or_else(|| "interrupted".into()),
                        );
                    };
                    // SAFETY: instance and term alive.
                    unsafe { bitwuzla_assert(b, a) };
                }
                for d in &needed {
                    for def in self.defs.get(d).into_iter().flatten() {
                        // SAFETY: instance and term alive.
                        unsafe { bitwuzla_assert(b, def.def) };
                    }
                }
                // As Z3's fresh checks: the assumptions are plain assertions (preprocessing
                // may substitute them), and all of them are the core.
                for &a in &terms {
                    // SAFETY: instance and term alive.
                    unsafe { bitwuzla_assert(b, a) };
                }
                terms.clear();
                b
            }
        };
        if let Some(e) = take_error() {
            self.record_error(e);
        }
        if let Some(e) = &self.error {
            return CheckResult::Unknown(e.clone());
        }
        self.defs_checked = needed.into_iter().collect();
        // Only with the corpus on is the query gathered (as the Z3 back-end does).
        let recorded = crate::corpus::enabled()
            .then(|| {
                let query: Vec<TermId> = all.iter().chain(assumptions).copied().collect();
                let mode = match self.mode {
                    CheckMode::Incremental => "incremental, bitwuzla",
                    CheckMode::FreshPerCheck => "fresh, bitwuzla",
                };
                crate::corpus::record(store, &query, mode, self.timeout)
            })
            .flatten();
        self.termination
            .deadline
            .set(self.timeout.map(|t| Instant::now() + t));
        let t0 = Instant::now();
        // SAFETY: instance alive; the pointer/length pair is a live Vec of live terms.
        let r = unsafe { bitwuzla_check_sat_assuming(b, terms.len() as u32, terms.as_mut_ptr()) };
        if let Some(rec) = recorded {
            let answer = match r {
                BITWUZLA_SAT => "sat",
                BITWUZLA_UNSAT => "unsat",
                _ => "unknown",
            };
            rec.finish(answer, t0.elapsed());
        }
        let reason = self.reason_unknown();
        self.termination.deadline.set(None);
        if let Some(e) = take_error() {
            if e.contains(TERMINATED) {
                // Stopped by the callback in the middle of a phase (module docs): `b` is
                // kept aside, unusable, and deleted later.
                self.instance = None;
                self.drop_instance();
                self.stopped = Some(b);
                return CheckResult::Unknown(reason);
            }
            self.record_error(e.clone());
            return CheckResult::Unknown(e);
        }
        match r {
            BITWUZLA_SAT => {
                self.model = true;
                CheckResult::Sat
            }
            BITWUZLA_UNSAT => {
                self.last_unsat = Some(match self.mode {
                    CheckMode::Incremental => assumptions
                        .iter()
                        .copied()
                        .zip(terms.iter().copied().map(Some))
                        .collect(),
                    CheckMode::FreshPerCheck => assumptions.iter().map(|&t| (t, None)).collect(),
                });
                CheckResult::Unsat
            }
            _ => CheckResult::Unknown(reason),
        }
    }

    fn value(&mut self, store: &TermStore, t: TermId) -> Option<ModelValue> {
        if !self.model {
            return None;
        }
        let b = self.instance?;
        let mut a = self.term(store, t)?;
        // A float conversion the check did not define has free bits in the model: they are
        // replaced by the bits of its float's value, deepest first (a float's value may read
        // the bits of another).
        let mut missing: Vec<usize> = self
            .defs_of(store, std::iter::once(t))
            .into_iter()
            .filter(|d| !self.defs_checked.contains(d))
            .collect();
        if !missing.is_empty() {
            missing.sort_unstable();
            let (mut keys, mut vals) = (Vec::new(), Vec::new());
            for d in missing {
                let pairs: Vec<(BitwuzlaTerm, BitwuzlaTerm)> = self
                    .defs
                    .get(&d)
                    .into_iter()
                    .flatten()
                    .map(|def| (def.bits, def.value))
                    .collect();
                for (bits, value) in pairs {
                    let r = substitute(value, &mut keys, &mut vals);
                    let c = self.float_bits(b, r)?;
                    keys.push(bits);
                    vals.push(c);
                }
            }
            a = substitute(a, &mut keys, &mut vals);
        }
        // SAFETY: instance (after a Sat answer) and term alive; the string is copied before
        // the next call.
        let v = unsafe {
            let v = bitwuzla_get_value(b, a);
            if v == 0 {
                None
            } else {
                match store.sort(t) {
                    Sort::Bool => Some(ModelValue::Bool(bitwuzla_term_value_get_bool(v))),
                    Sort::BitVec(width) => {
                        let s = bitwuzla_term_value_get_str_fmt(v, 2);
                        if s.is_null() {
                            None
                        } else {
                            let text = CStr::from_ptr(s).to_string_lossy();
                            u64::from_str_radix(&text, 2)
                                .ok()
                                .map(|value| ModelValue::Bv { width, value })
                        }
                    }
                    Sort::Array { .. } => None,
                }
            }
        };
        take_error().map_or(v, |_| None)
    }

    fn unsat_core(&mut self) -> Option<Vec<TermId>> {
        let last = self.last_unsat.clone()?;
        let (CheckMode::Incremental, Some(b)) = (self.mode, self.instance) else {
            return Some(last.iter().map(|(t, _)| *t).collect());
        };
        // SAFETY: the instance's last check answered Unsat with these assumptions; the array
        // is Bitwuzla's, read before the next call.
        let core: HashSet<BitwuzlaTerm> = unsafe {
            let mut n = 0usize;
            let p = bitwuzla_get_unsat_assumptions(b, &mut n);
            if p.is_null() {
                HashSet::new()
            } else {
                std::slice::from_raw_parts(p, n).iter().copied().collect()
            }
        };
        if take_error().is_some() {
            return None;
        }
        // Bitwuzla shares equal terms, so an assumption is in the core iff its term is.
        Some(
            last.iter()
                .filter(|(_, a)| a.is_some_and(|a| core.contains(&a)))
                .map(|(t, _)| *t)
                .collect(),
        )
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.timeout = timeout;
    }

    fn interrupt_handle(&self) -> InterruptHandle {
        self.termination.interrupt.clone()
    }
}

/// An options object (deleted when dropped).
struct OptionSet(*mut BitwuzlaOptions);

impl OptionSet {
    fn new() -> OptionSet {
        // SAFETY: plain constructor; deleted in `Drop`.
        OptionSet(unsafe { bitwuzla_options_new() })
    }

    /// Sets the option of long name `name` to `value` (a number, or a mode's name).
    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let cvalue =
            std::ffi::CString::new(value).map_err(|_| "NUL in the option value".to_string())?;
        for opt in 0..BITWUZLA_OPT_NUM_OPTS {
            // SAFETY: `info` is written by Bitwuzla for a valid option; its strings live in
            // the options object, read before the next call.
            let (long, is_mode, is_numeric) = unsafe {
                let mut info = std::mem::MaybeUninit::<BitwuzlaOptionInfo>::zeroed();
                bitwuzla_get_option_info(self.0, opt, info.as_mut_ptr());
                let info = info.assume_init();
                if info.lng.is_null() {
                    continue;
                }
                (
                    CStr::from_ptr(info.lng).to_string_lossy().into_owned(),
                    info.is_mode,
                    info.is_numeric,
                )
            };
            if long != name {
                continue;
            }
            // SAFETY: a valid option of the live options object; Bitwuzla copies the string.
            unsafe {
                if is_mode {
                    bitwuzla_set_option_mode(self.0, opt, cvalue.as_ptr());
                } else if is_numeric {
                    let v: u64 = match value {
                        "true" => 1,
                        "false" => 0,
                        v => v
                            .parse()
                            .map_err(|_| format!("{name}: `{value}` is not a number"))?,
                    };
                    bitwuzla_set_option(self.0, opt, v);
                } else {
                    return Err(format!("{name}: a string option, not supported here"));
                }
            }
            return take_error().map_or(Ok(()), Err);
        }
        Err(format!("no Bitwuzla option is named `{name}`"))
    }
}

impl Drop for OptionSet {
    fn drop(&mut self) {
        // SAFETY: made by `bitwuzla_options_new`, deleted once.
        unsafe { bitwuzla_options_delete(self.0) };
    }
}

impl BitwuzlaSolver {
    /// Drops the solver on a thread of its own (`solver::drop_in_background`).
    pub fn drop_in_background(self) {
        // SAFETY: the solver is moved whole, so nothing refers to its term manager afterwards;
        // Bitwuzla's objects are not tied to the thread that made them.
        unsafe { crate::solver::drop_in_background(self, "qicc-bitwuzla-drop") }
    }
}

impl Drop for BitwuzlaSolver {
    fn drop(&mut self) {
        // Instances first, then the manager that owns their terms (module docs).
        self.drop_instance();
        // SAFETY: made in `new`, deleted once, after every instance.
        unsafe { bitwuzla_term_manager_delete(self.tm) };
    }
}
