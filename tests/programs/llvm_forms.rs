//! The forms of LLVM's own tests that patchmap reads (issue 26, item 1) in a program that runs:
//! `tests/llvm-forms/programs/*.ll` compiled by patchmap and by llc-19, linked and run on x86-64
//! and AArch64 (under qemu-aarch64), print the same and exit with the same status; on an x86-64
//! host the JIT and the reference interpreter print what the native program prints.

use crate::support;

use std::path::Path;
use std::process::Command;

use patchmap::compile::Options;
use support::Arch;

fn programs() -> Vec<std::path::PathBuf> {
    support::ll_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/llvm-forms/programs"))
}

#[test]
fn llvm_test_forms_run_as_llc_19_builds_them() {
    let programs = programs();
    assert!(!programs.is_empty());
    let Some(llc) = support::tool("llc-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut compared = 0;
    for ll in &programs {
        let name = ll.file_stem().unwrap().to_string_lossy().into_owned();
        let module = patchmap::ir::parse_file(ll).unwrap_or_else(|e| panic!("{e}"));
        patchmap::ir::verify(&module).unwrap_or_else(|e| panic!("{e}"));
        for arch in Arch::ALL {
            let Some(toolchain) = support::toolchain(arch) else { continue };
            let reference = support::llc_object(&llc, ll, arch, "2", dir.path())
                .and_then(|o| toolchain.link_and_run(&o, dir.path(), &format!("{name}-llc")))
                .unwrap_or_else(|e| panic!("{name} {arch:?}: reference: {e}"));
            let options = Options::new(Some(arch.triple()), "speed", 1).unwrap();
            let object = patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{e}"));
            let ours = toolchain
                .link_and_run(&object, dir.path(), &format!("{name}-patchmap"))
                .unwrap_or_else(|e| panic!("{name} {arch:?}: {e}"));
            assert_eq!(ours, reference, "{name} on {arch:?}: patchmap's build against llc-19's");
            compared += 1;
            if arch != Arch::X86_64 || !support::x86_64_host("the JIT and the interpreter") {
                continue;
            }
            for mode in [&[][..], &["--interpret"][..]] {
                let (code, out, err) =
                    support::run(Command::new(support::patchmap_bin()).arg("run").args(mode).arg(ll));
                // `run` prints main's result after the program's own output.
                let expected = format!("{}{}\n", reference.stdout, reference.status);
                assert_eq!((code, out), (0, expected), "{name} run {mode:?}: {err}");
            }
        }
    }
    assert!(compared >= programs.len(), "only {compared} programs compared");
}
