//! Where nondeterministic values come from, and the record of them ([`Witness`]).
//!
//! The interpreter asks an [`Oracle`] for every value the program does not determine itself.
//! Three oracles are provided: [`RandomOracle`] (a fixed generator that a C stub reproduces, so
//! that differential tests against gcc see the same `__VERIFIER_nondet_*` values),
//! [`InputOracle`] (listed program inputs, then random) and [`WitnessOracle`] (replays a
//! [`Witness`] exactly and reports, through [`Oracle::failure`], a witness that runs out).
//! Recording is built into [`crate::run`]: every run returns the complete witness of its own
//! answers, including the object numbers the interpreter picked itself.

use qicc_ir::{EdgeId, FuncId, HavocKind, Ty, VarRef, Witness};

/// A `havoc` the interpreter is about to execute.
#[derive(Clone, Debug)]
pub struct HavocRequest<'a> {
    /// The havoc edge; `None` for the initial value of a global without initialiser.
    pub site: Option<(FuncId, EdgeId)>,
    pub var: VarRef,
    pub ty: Ty,
    pub kind: &'a HavocKind,
    /// How many havocs this run executed before this one.
    pub index: usize,
}

/// An `alloc` the interpreter is about to execute.
#[derive(Clone, Debug)]
pub struct AllocRequest {
    pub func: FuncId,
    pub edge: EdgeId,
    pub size: u64,
    /// How many allocations this run executed before this one.
    pub index: usize,
}

/// A `havoc_bytes` the interpreter is about to execute.
#[derive(Clone, Debug)]
pub struct HavocBytesRequest {
    pub func: FuncId,
    pub edge: EdgeId,
    /// How many bytes it makes arbitrary.
    pub len: u64,
    /// How many `havoc_bytes` this run executed before this one.
    pub index: usize,
}

/// Resolves every nondeterministic choice of a run.
pub trait Oracle {
    /// The value of a havoc'd variable (the low `ty.bits()` bits are used).
    fn havoc(&mut self, req: &HavocRequest) -> u64;
    /// A byte of memory that was never written (dynamic objects, out-of-bounds reads, memory
    /// after `havoc_memory`).
    fn uninit_byte(&mut self, addr: u64) -> u8;
    /// The new contents of the bytes of a `havoc_bytes`; missing bytes are 0 (as for
    /// `uninit_byte`, any value is a genuine execution). The default answers all zeros: for
    /// oracles of runs that never execute `havoc_bytes` or do not care about the values.
    fn havoc_bytes(&mut self, _req: &HavocBytesRequest) -> Vec<u8> {
        Vec::new()
    }
    /// The object number the oracle's source expects for a fresh object (`None`: no
    /// expectation). The number itself is the IR's deterministic choice (the lowest number
    /// that is neither static nor used before in this run); an answer that differs stops
    /// the run as unreplayable.
    fn alloc_id(&mut self, req: &AllocRequest) -> Option<u32>;
    /// Which of `n >= 2` enabled edges to take (indices in edge order).
    fn choose(&mut self, func: FuncId, enabled: &[EdgeId]) -> usize;
    /// Why this oracle cannot answer faithfully any more (e.g. a replayed witness ran out of
    /// values). The interpreter asks after each answer and stops the run as unreplayable as
    /// soon as this is `Some`; the answer that came with the failure is not used.
    fn failure(&mut self) -> Option<String> {
        None
    }
}

/// SplitMix64 and the value distribution of [`RandomOracle`].
///
/// This exact generator is part of qicc's contract: the C stub used for differential tests
/// against gcc reimplements it, so it must never change.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

/// The "interesting" values [`SplitMix64::value`] picks a quarter of the time.
pub const EDGE_VALUES: [u64; 12] = [
    0,
    1,
    2,
    0x7f,
    0x80,
    0xff,
    0x7fff,
    0x8000,
    0xffff,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
];

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next raw 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A test value: half the time a small number in -16..=16, a quarter of the time one of
    /// [`EDGE_VALUES`], otherwise 64 random bits. Consumes two raw outputs.
    pub fn value(&mut self) -> u64 {
        let r = self.next_u64();
        let v = self.next_u64();
        match r % 8 {
            0..=3 => ((v % 33) as i64 - 16) as u64,
            4 | 5 => EDGE_VALUES[(v % 12) as usize],
            _ => v,
        }
    }
}

/// The float test values of [`SplitMix64::float_value`], as binary32 bits: ±0, ±inf, NaN,
/// ±1, 0.1, 2^24, 2^24 + 2, ±2^31, the largest finite, the least normal and subnormal, 0.5.
pub const FLOAT32_EDGE_VALUES: [u32; 16] = [
    0x0000_0000,
    0x8000_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x3dcc_cccd,
    0x4b80_0000,
    0x4b80_0001,
    0x4f00_0000,
    0xcf00_0000,
    0x7f7f_ffff,
    0x0080_0000,
    0x0000_0001,
    0x3f00_0000,
];

/// The same for binary64: ±0, ±inf, NaN, ±1, 0.1, 2^24 + 1, 2^53 + 2, 2^31 - 1, -2^31, the
/// largest finite, the least normal and subnormal, 0.5.
pub const FLOAT64_EDGE_VALUES: [u64; 16] = [
    0x0000_0000_0000_0000,
    0x8000_0000_0000_0000,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x7ff8_0000_0000_0000,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0x3fb9_9999_9999_999a,
    0x4170_0000_1000_0000,
    0x4340_0000_0000_0001,
    0x41df_ffff_ffc0_0000,
    0xc1e0_0000_0000_0000,
    0x7fef_ffff_ffff_ffff,
    0x0010_0000_0000_0000,
    0x0000_0000_0000_0001,
    0x3fe0_0000_0000_0000,
];

impl SplitMix64 {
    /// A float test value of width `w` (32 or 64), as its bits: half the time a small number
    /// `k / 2^s` (`k` in -16..=16, `s` in 0..=3), a quarter of the time one of the edge values
    /// ([`FLOAT32_EDGE_VALUES`], [`FLOAT64_EDGE_VALUES`]), otherwise random bits. Consumes two
    /// raw outputs, as [`SplitMix64::value`] (the C stub of the differential tests mirrors it).
    pub fn float_value(&mut self, w: u16) -> u64 {
        let r = self.next_u64();
        let v = self.next_u64();
        let single = w == 32;
        match r % 8 {
            0..=3 => {
                let k = (v % 33) as i64 - 16;
                let s = (v >> 32) % 4;
                let x = k as f64 / (1u64 << s) as f64;
                if single {
                    (x as f32).to_bits() as u64
                } else {
                    x.to_bits()
                }
            }
            4 | 5 if single => FLOAT32_EDGE_VALUES[(v % 16) as usize] as u64,
            4 | 5 => FLOAT64_EDGE_VALUES[(v % 16) as usize],
            _ if single => v & 0xffff_ffff,
            _ => v,
        }
    }
}

/// Pseudo-random answers from a seed.
///
/// `Nondet` havocs (program inputs) come from one stream seeded with `seed`, everything else
/// (other havocs, uninitialised bytes, choices) from a second stream seeded with
/// `seed ^ 0x5555_5555_5555_5555`, so that the input stream stays aligned with the C program's
/// `__VERIFIER_nondet_*` calls whatever else happens. Fresh objects get the interpreter's
/// default number.
#[derive(Clone, Debug)]
pub struct RandomOracle {
    nondet: SplitMix64,
    other: SplitMix64,
}

impl RandomOracle {
    pub fn new(seed: u64) -> RandomOracle {
        RandomOracle {
            nondet: SplitMix64::new(seed),
            other: SplitMix64::new(seed ^ 0x5555_5555_5555_5555),
        }
    }
}

impl Oracle for RandomOracle {
    fn havoc(&mut self, req: &HavocRequest) -> u64 {
        match req.kind {
            HavocKind::Nondet(_) => match req.ty {
                // Floats need their own edge values: the integer ones are mostly NaNs and
                // subnormals as float bits.
                Ty::Float(w) => self.nondet.float_value(w),
                _ => self.nondet.value(),
            },
            _ => self.other.value(),
        }
    }

    fn uninit_byte(&mut self, _addr: u64) -> u8 {
        self.other.value() as u8
    }

    fn havoc_bytes(&mut self, req: &HavocBytesRequest) -> Vec<u8> {
        (0..req.len).map(|_| self.other.value() as u8).collect()
    }

    fn alloc_id(&mut self, _req: &AllocRequest) -> Option<u32> {
        None
    }

    fn choose(&mut self, _func: FuncId, enabled: &[EdgeId]) -> usize {
        let n = enabled.len().max(1) as u64;
        (self.other.value() % n) as usize
    }
}

/// Program inputs given in advance: `Nondet` havocs take the listed values in order, and
/// everything after the list, like every other answer, comes from a [`RandomOracle`] seeded
/// with the fallback seed.
#[derive(Clone, Debug)]
pub struct InputOracle {
    inputs: Vec<u64>,
    next: usize,
    fallback: RandomOracle,
    /// The results of body-less `const`/`pure` functions (`HavocKind::Applied`) are listed
    /// too, in run order among the inputs ([`InputOracle::with_applied`]).
    applied: bool,
    /// Every havoc takes the next listed value ([`InputOracle::every_havoc`]).
    every: bool,
}

impl InputOracle {
    pub fn new(inputs: Vec<u64>, fallback_seed: u64) -> InputOracle {
        InputOracle {
            inputs,
            next: 0,
            fallback: RandomOracle::new(fallback_seed),
            applied: false,
            every: false,
        }
    }

    /// Hands the listed values to every havoc, whatever its kind, in run order: for a
    /// program whose every havoc is one nondet call of C emitted from it
    /// (`qicc_external::emit`), replaying the values an external verifier's witness gives
    /// those calls.
    pub fn every_havoc(mut self) -> InputOracle {
        self.every = true;
        self
    }

    /// Also hands the listed values to `const`/`pure` function results, in the order the
    /// run asks (for a reference run that enumerates those results like inputs).
    pub fn with_applied(mut self) -> InputOracle {
        self.applied = true;
        self
    }
}

impl Oracle for InputOracle {
    fn havoc(&mut self, req: &HavocRequest) -> u64 {
        let listed = match req.kind {
            _ if self.every => true,
            HavocKind::Nondet(_) => true,
            HavocKind::Applied { .. } => self.applied,
            _ => false,
        };
        if listed {
            if let Some(v) = self.inputs.get(self.next) {
                self.next += 1;
                return *v;
            }
        }
        self.fallback.havoc(req)
    }

    fn uninit_byte(&mut self, addr: u64) -> u8 {
        self.fallback.uninit_byte(addr)
    }

    fn havoc_bytes(&mut self, req: &HavocBytesRequest) -> Vec<u8> {
        self.fallback.havoc_bytes(req)
    }

    fn alloc_id(&mut self, req: &AllocRequest) -> Option<u32> {
        self.fallback.alloc_id(req)
    }

    fn choose(&mut self, func: FuncId, enabled: &[EdgeId]) -> usize {
        self.fallback.choose(func, enabled)
    }
}

/// Replays a [`Witness`]: havocs, object numbers and choices in order, uninitialised bytes by
/// address.
///
/// Strict where the witness is a sequence: asking for a havoc, an object number or a choice
/// past its end is a [`Oracle::failure`], and so the run is unreplayable. Lenient for bytes:
/// an address the witness does not list reads as 0 (an engine need not list bytes its model
/// leaves unconstrained; any value is a genuine execution, so this cannot make a replay
/// report something the program cannot do).
#[derive(Clone, Debug)]
pub struct WitnessOracle {
    witness: Witness,
    havoc: usize,
    alloc: usize,
    choice: usize,
    failure: Option<String>,
}

impl WitnessOracle {
    pub fn new(witness: &Witness) -> WitnessOracle {
        WitnessOracle {
            witness: witness.clone(),
            havoc: 0,
            alloc: 0,
            choice: 0,
            failure: None,
        }
    }

    fn fail(&mut self, msg: String) {
        if self.failure.is_none() {
            self.failure = Some(msg);
        }
    }
}

impl Oracle for WitnessOracle {
    fn havoc(&mut self, _req: &HavocRequest) -> u64 {
        match self.witness.havocs.get(self.havoc) {
            Some(v) => {
                self.havoc += 1;
                *v
            }
            None => {
                let n = self.witness.havocs.len();
                self.fail(format!(
                    "the witness has {n} havoc values, the run needs more"
                ));
                0
            }
        }
    }

    fn uninit_byte(&mut self, addr: u64) -> u8 {
        self.witness.uninit.get(&addr).copied().unwrap_or(0)
    }

    fn havoc_bytes(&mut self, req: &HavocBytesRequest) -> Vec<u8> {
        self.witness
            .havoc_bytes
            .get(req.index)
            .cloned()
            .unwrap_or_default()
    }

    fn alloc_id(&mut self, _req: &AllocRequest) -> Option<u32> {
        match self.witness.alloc_ids.get(self.alloc) {
            Some(id) => {
                self.alloc += 1;
                Some(*id)
            }
            None => {
                let n = self.witness.alloc_ids.len();
                self.fail(format!(
                    "the witness has {n} object numbers, the run needs more"
                ));
                None
            }
        }
    }

    fn choose(&mut self, _func: FuncId, _enabled: &[EdgeId]) -> usize {
        match self.witness.choices.get(self.choice) {
            Some(c) => {
                self.choice += 1;
                *c as usize
            }
            None => {
                let n = self.witness.choices.len();
                self.fail(format!("the witness has {n} choices, the run needs more"));
                0
            }
        }
    }

    fn failure(&mut self) -> Option<String> {
        self.failure.clone()
    }
}
