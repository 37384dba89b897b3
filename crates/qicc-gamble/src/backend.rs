//! The verifier X under Qicc: the built-in bounded model checker (in process) or, later, an
//! external tool. X answers per assertion for one extracted program.

use qicc_engine::{Budget, EngineResult};
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
}

impl Backend {
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Builtin(_) => "builtin",
        }
    }

    /// Runs X on `program`. `batch`: find every violated assertion (so that the others can be
    /// proven in the same run), as batch verification needs; at the root without
    /// `--all-violations` the first violation is enough.
    pub fn run(&self, program: &Program, batch: bool, budget: &Budget) -> EngineResult {
        match self {
            Backend::Builtin(o) => {
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
        }
    }
}
