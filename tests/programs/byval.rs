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
