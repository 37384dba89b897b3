//! What the integration tests of this crate share.

use qicc_ir::Program;

/// `src` lowered for ILP32 (the test fails when it does not lower).
pub fn lower_ilp32(name: &str, src: &str) -> Program {
    let opts = qicc_frontend::Options {
        data_model: qicc_ir::DataModel::Ilp32,
        ..Default::default()
    };
    qicc_frontend::lower_source(name, src, false, &opts)
        .unwrap_or_else(|e| panic!("the test program lowers: {e:?}"))
        .program
}
