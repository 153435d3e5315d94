//! `signext` and `zeroext` (issue 26): `tests/extension-abi/`, a callee and a caller object, each
//! built by patchmap or by llc-19, in all four pairings on both targets, print what llc-19's pair
//! prints. The values passed have bits above their width that differ from the extended value's, so
//! the test sees a side that does not extend: patchmap's caller built from the text without the
//! attributes prints something else with llc-19's callee on both targets, and patchmap's callee
//! built so with llc-19's caller on AArch64 (where llc-19's callers rely on extended results;
//! x86-64's extend results themselves).

use crate::support;

use std::path::Path;

use support::Arch;

/// The IR text with every `signext` and `zeroext` attribute removed.
fn without_extensions(text: &str) -> String {
    text.replace(" signext", "").replace(" zeroext", "").replace("signext ", "").replace("zeroext ", "")
}

#[test]
fn extended_arguments_and_results_cross_the_c_abi_both_ways() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/extension-abi");
    let mut targets = 0;
    support::halves_cross_the_c_abi(&dir, 10, |pairs| {
        targets += 1;
        let read = |half: &str| without_extensions(&std::fs::read_to_string(dir.join(half)).unwrap());
        let plain_caller = support::compile_for(pairs.arch, &read("caller.ll")).unwrap();
        let out = pairs.toolchain.link_all_and_run(&[pairs.llc_callee, &plain_caller], pairs.dir, "abi-plain").unwrap();
        assert_ne!(&out, pairs.reference, "{:?}: a caller that does not extend must be seen", pairs.arch);
        let plain_callee = support::compile_for(pairs.arch, &read("callee.ll")).unwrap();
        let out = pairs.toolchain.link_all_and_run(&[&plain_callee, pairs.llc_caller], pairs.dir, "abi-plain").unwrap();
        if pairs.arch == Arch::Aarch64 {
            assert_ne!(&out, pairs.reference, "AArch64: a callee that does not extend its results must be seen");
        }
    });
    assert!(targets == 0 || targets == Arch::ALL.len(), "{targets} targets");
}
