//! `byval` arguments on both targets (issue 27): `tests/byval/callee.ll` and `caller.ll`, each built
//! by patchmap and by llc-19, in all four pairings, natively and under qemu-aarch64: the copies in
//! the outgoing argument area are where llc-19's callee reads them and llc-19's caller writes them
//! (after the stack arguments before them, 8-byte slots; AArch64's `CCPassByVal<8, 8>`, through the
//! vendored Cranelift's struct arguments on AArch64), and a callee's writes to its copy leave the
//! caller's object alone.

use crate::support;

use std::path::Path;

#[test]
fn byval_arguments_cross_the_c_abi_both_ways_on_both_targets() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/byval");
    support::halves_cross_the_c_abi(&dir, 7, |pairing| {
        let expected = "100 20 3\n= 123 100\n-5 -300 28\n1 -2 3 -4 5 4 2.5\n= 23 -5\n100 20 3\n= 393 7000\n";
        assert_eq!(pairing.reference.stdout, expected, "{:?}: llc-19's pair", pairing.arch);
    });
}

/// A `byval` type aligned to 16: LLVM aligns its copy to 16 in the argument area (x86-64 and
/// AArch64 alike), which Cranelift's 8-byte struct-argument slots cannot; refused where written.
#[test]
fn byval_copies_aligned_to_more_than_8_bytes_are_refused_with_a_position() {
    let definition = "%big = type { i128, i64 }\n\
        define i64 @h(i64 %a, ptr byval(%big) %p) {\n  %v = load i64, ptr %p\n  ret i64 %v\n}\n";
    let call = "%big = type { i128, i64 }\ndeclare void @g(i64, ptr byval(%big), i64)\n\
        define void @f(ptr %p) {\n  call void @g(i64 1, ptr byval(%big) %p, i64 2)\n  ret void\n}\n";
    for arch in support::Arch::ALL {
        for (ir, line) in [(definition, 2), (call, 4)] {
            let error = support::compile_for(arch, ir).unwrap_err();
            assert!(error.starts_with(&format!("input.ll:{line}:")), "{arch:?}: {error}");
            assert!(error.contains("'byval' of type '%big', aligned to 16 bytes"), "{arch:?}: {error}");
        }
    }
}
