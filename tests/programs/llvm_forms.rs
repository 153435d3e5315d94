//! The forms of LLVM's own tests that patchmap reads (issue 26, item 1) in a program that runs:
//! `tests/llvm-forms/programs/*.ll` compiled by patchmap and by llc-19, linked and run on x86-64
//! and AArch64 (under qemu-aarch64), print the same and exit with the same status; on an x86-64
//! host the JIT and the reference interpreter print what the native program prints.

use crate::support;

use std::path::Path;

fn programs() -> Vec<std::path::PathBuf> {
    support::ll_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/llvm-forms/programs"))
}

#[test]
fn llvm_test_forms_run_as_llc_19_builds_them() {
    let programs = programs();
    assert!(!programs.is_empty());
    support::programs_run_as_llc19_builds_them(&programs, 0);
}
