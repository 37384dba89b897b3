//! The verifier X under Qicc: the built-in bounded model checker (in process) or an external
//! tool (CBMC, ESBMC, Ultimate Automizer) run on the region emitted as C. X answers per
//! assertion for one extracted program.

use qicc_engine::{AssertionStatus, Budget, EngineResult};
use qicc_external::ExternalBackend;
use qicc_ir::Program;

/// Options of the built-in X (see `qicc-bmc`).
#[derive(Clone, Debug, Default)]
pub struct BuiltinOptions {
    /// Fixed unwinding bound instead of incremental deepening.
    pub unwind: Option<u32>,
    /// Cap of incremental deepening.
    pub max_unwind: Option<u32>,
}

#[derive(Clone, Debug)]
pub enum Backend {
    Builtin(BuiltinOptions),
    /// An external verifier; `unwind` is passed on as its bound (none: the tool's default).
    External {
        tool: ExternalBackend,
        unwind: Option<u32>,
    },
}

impl Backend {
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Builtin(_) => "builtin",
            Backend::External { tool, .. } => tool.tool.name(),
        }
    }

    /// Runs X on `program`. `batch`: find every violated assertion (so that the others can be
    /// proven in the same run), as batch verification needs; at the root without
    /// `--all-violations` the first violation is enough. `root`: `program` is the original
    /// program, where a violation is final — an external tool's violation comes with a
    /// witness of qicc's own when the tool's witness replays (`qicc_external::witness`);
    /// one that does not is re-checked there by the built-in engine, whose witness can.
    pub fn run(&self, program: &Program, batch: bool, root: bool, budget: &Budget) -> EngineResult {
        match self {
            Backend::Builtin(o) => builtin(o, program, batch, budget),
            Backend::External { tool, unwind } => {
                let r = qicc_external::verify_external(tool, program, budget, *unwind);
                if root {
                    confirm_at_root(r, program, batch, budget)
                } else {
                    r
                }
            }
        }
    }
}

/// An external tool's answer `r` on the whole program (emitted, or the user's own files): a
/// violation it reported whose witness did not replay is re-checked by the built-in engine,
/// whose witness can (its violation replaces `r`); if that finds none, the unconfirmed
/// assertions' reasons say so.
pub fn confirm_at_root(
    r: EngineResult,
    program: &Program,
    batch: bool,
    budget: &Budget,
) -> EngineResult {
    if r.unconfirmed_violations.is_empty() {
        return r;
    }
    let confirmed = builtin(&BuiltinOptions::default(), program, batch, budget);
    if confirmed.violation.is_some() {
        return confirmed;
    }
    let mut r = r;
    for (a, s) in r.statuses.iter_mut() {
        if let AssertionStatus::Unknown(why) = s {
            if r.unconfirmed_violations.contains(a) {
                *why = format!("{why}; the built-in engine found no replayable counterexample");
            }
        }
    }
    r
}

fn builtin(o: &BuiltinOptions, program: &Program, batch: bool, budget: &Budget) -> EngineResult {
    let mut bmc = qicc_bmc::BmcOptions {
        unwind: o.unwind,
        all_violations: batch,
        ..Default::default()
    };
    if let Some(m) = o.max_unwind {
        bmc.max_unwind = m;
    }
    qicc_bmc::verify(program, &bmc, budget)
}
