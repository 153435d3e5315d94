//! Statepoint forms from LLVM's own tests (`tests/statepoint_forms/*.ll`): patchmap compiles them
//! for both targets, and every record has the shape of llc-19 -O2's (`support::statepoint`'s
//! comparison: count, leading constants, sizes, constants). What follows a `; x86-64 only` line is
//! left out on AArch64 (`byval`).

use crate::support;

use std::path::Path;

use patchmap::arch::Arch;
use patchmap::compile::Options;
use patchmap::stackmap::{object_file, StackMap};

/// The text of `file` for `arch`: AArch64 leaves out what follows a `; x86-64 only` line up to the
/// intrinsic declarations.
fn source(file: &Path, arch: Arch) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    match (arch, text.split_once("; x86-64 only\n")) {
        (Arch::Aarch64, Some((common, rest))) => {
            let declarations = rest.split_once("\ndeclare token").map_or("", |(_, d)| d);
            format!("{common}\ndeclare token{declarations}")
        }
        _ => text,
    }
}

fn check(arch: Arch) {
    let Some(llc) = support::tool("llc-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let files = support::ll_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/statepoint_forms"));
    assert!(files.len() >= 2, "{files:?}");
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let text = source(&file, arch);
        let ll = dir.path().join(&name);
        std::fs::write(&ll, &text).unwrap();
        let module = patchmap::ir::parse(&name, &text).unwrap_or_else(|e| panic!("{e}"));
        patchmap::ir::verify(&module).unwrap_or_else(|e| panic!("{e}"));
        let options = Options::new(Some(arch.triple()), "speed", 3).unwrap();
        let ours = patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{e}"));
        let theirs = support::llc_object(&llc, &ll, arch, "2", dir.path()).unwrap();
        let map = |object: &[u8]| object_file::read_models(object).unwrap().0.remove(0);
        let (ours, theirs) = (map(&ours), map(&theirs));
        assert_eq!(ours.records.len(), theirs.records.len(), "{name} {arch:?}: {ours:?}");
        // The IDs repeat: compare the records in order (functions and records are in module order).
        let one = |map: &StackMap, i: usize| StackMap {
            functions: Vec::new(),
            constants: map.constants.clone(),
            records: vec![map.records[i].clone()],
        };
        for i in 0..ours.records.len() {
            support::statepoint::compare_shapes(&one(&ours, i), &one(&theirs, i))
                .unwrap_or_else(|e| panic!("{name} {arch:?}, record {i}: {e}"));
        }
    }
}

#[test]
fn llvm_statepoint_forms_match_llc19_on_x86_64() {
    check(Arch::X86_64);
}

#[test]
fn llvm_statepoint_forms_match_llc19_on_aarch64() {
    check(Arch::Aarch64);
}
