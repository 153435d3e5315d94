//! The `half` type (issue 26, item 1): `tests/half/programs/*.ll`, built by patchmap and by llc-19,
//! linked and run on x86-64 (where both call `__extendhfsf2`/`__truncsfhf2`/`__truncdfhf2`) and
//! AArch64 (`fcvt`, under qemu-aarch64), print the same bits and exit with the same status; on an
//! x86-64 host the JIT and the reference interpreter print what the native program prints.
//! `arithmetic.ll` covers every operation at half's boundary values: subnormals, infinities, NaN,
//! rounding ties, overflow to infinity, and a double that rounds differently through float.

use crate::support;

use std::path::Path;

#[test]
fn half_programs_run_as_llc_19_builds_them() {
    let programs = support::ll_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/half/programs"));
    assert!(programs.len() >= 2, "the arithmetic and memory programs");
    support::programs_run_as_llc19_builds_them(&programs, 6);
}

/// `tests/half/abi/`: a callee and a caller object, each built by patchmap or by llc-19, in all four
/// pairings on both targets, print what llc-19's pair prints: halves in XMM/H registers and, past
/// the eighth, on the stack, with results in XMM0/H0.
#[test]
fn halves_cross_the_c_abi_both_ways() {
    let abi = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/half/abi");
    support::halves_cross_the_c_abi(&abi, 16, |_| ());
}
