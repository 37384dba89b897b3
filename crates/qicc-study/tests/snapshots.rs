//! The generated C of one kernel in each structure, as snapshots to review by reading: the
//! fact and the assertion must sit where Fig. 7 of the Qicc paper puts them, the loops must use
//! only their own counters, and the file must be a complete SV-COMP program. One task file too.

use qicc_study::structures::{Bound, Bounds, Structure};
use qicc_study::{generate, kernels, task};

fn c_of(structure: Structure, bounds: Bounds, safe: bool) -> String {
    let k = kernels::find("struct_mirror").expect("the kernel exists");
    generate(k, structure, bounds, safe)
        .expect("bounds match the structure")
        .c_source
}

#[test]
fn baseline() {
    insta::assert_snapshot!(c_of(Structure::Baseline, Bounds::None, true));
}

#[test]
fn single1_large() {
    insta::assert_snapshot!(c_of(Structure::Single1, Bounds::Single(Bound::Large), true));
}

#[test]
fn single2_arbitrary() {
    insta::assert_snapshot!(c_of(
        Structure::Single2,
        Bounds::Single(Bound::Arbitrary),
        true
    ));
}

#[test]
fn double1_small_large() {
    insta::assert_snapshot!(c_of(
        Structure::Double1,
        Bounds::Double {
            outer: Bound::Small,
            inner: Bound::Large
        },
        true
    ));
}

#[test]
fn double2_arbitrary_small() {
    insta::assert_snapshot!(c_of(
        Structure::Double2,
        Bounds::Double {
            outer: Bound::Arbitrary,
            inner: Bound::Small
        },
        true
    ));
}

#[test]
fn double3_large_arbitrary_unsafe() {
    insta::assert_snapshot!(c_of(
        Structure::Double3,
        Bounds::Double {
            outer: Bound::Large,
            inner: Bound::Arbitrary
        },
        false
    ));
}

#[test]
fn task_file() {
    insta::assert_snapshot!(task::task_yml("double3_large_arbitrary_unsafe.c", false));
}
