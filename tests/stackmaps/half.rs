//! `half` values in stack map and patch point records (issue 26, item 1). `tests/half/stackmaps/*.ll`
//! and `tests/half/live/live.ll`, compiled by patchmap and by llc-19 for both targets, give records
//! with the same IDs and location counts, no constants (llc-19 materialises half constants in
//! registers, and so does patchmap), and the sizes llc-19 records for a half: in a register 16 on
//! x86-64 (an XMM register) and 2 on AArch64 (an H register); in a spill slot 4 on x86-64 (FR16's
//! slot; llc-19 records 16 for a half it spilled as a whole XMM register, which patchmap never
//! does) and 2 on AArch64. Register or slot is the allocator's choice. Then `live.ll` runs under the
//! location checker (`tests/checker/harness.c`), natively and under qemu-aarch64: at every stack map
//! execution each location's low 16 bits hold the half the program announced, for patchmap's build
//! and for llc-19's alike.

use crate::support;

use std::path::{Path, PathBuf};

use patchmap::stackmap::LocationKind;
use support::checker;
use support::Arch;

fn inputs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/half");
    let mut inputs = support::ll_files(&root.join("stackmaps"));
    inputs.extend(support::ll_files(&root.join("live")));
    inputs
}

/// The sizes a half may be recorded with in a register and in a slot, as llc-19 records them.
fn half_sizes(arch: Arch) -> (u16, &'static [u16]) {
    match arch {
        Arch::X86_64 => (16, &[4, 16]),
        Arch::Aarch64 => (2, &[2]),
    }
}

#[test]
fn halves_are_recorded_as_llc_19_records_them() {
    let inputs = inputs();
    assert!(inputs.len() >= 3, "the stack map, patch point and live programs");
    let Some(llc) = support::tool("llc-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    for ll in &inputs {
        for arch in Arch::ALL {
            let (ours, reference) = support::record_shapes_of_both(&llc, ll, arch, dir.path());
            assert!(reference.len() >= 2, "{ll:?} {arch:?}: llc-19's records");
            assert_eq!(
                support::ids_and_counts(&ours),
                support::ids_and_counts(&reference),
                "{ll:?} on {arch:?}: IDs and location counts"
            );
            let (in_register, in_slot) = half_sizes(arch);
            for (who, records, slot_sizes) in [("patchmap", &ours, &in_slot[..1]), ("llc-19", &reference, in_slot)] {
                for (id, locations) in records.iter() {
                    for (i, &(kind, size)) in locations.iter().enumerate() {
                        let fits = match kind {
                            LocationKind::Register => size == in_register,
                            LocationKind::Indirect => slot_sizes.contains(&size),
                            _ => false,
                        };
                        assert!(
                            fits,
                            "{ll:?} on {arch:?}: {who}'s record {id} location {}: {kind:?} size {size}",
                            i + 1
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn recorded_half_locations_hold_the_values_at_run_time() {
    let ll = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/half/live/live.ll");
    let Some(llc) = support::tool("llc-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    for arch in Arch::ALL {
        let Some(toolchain) = support::toolchain(arch) else { continue };
        checker::both_builds_hold_the_truth(&llc, &ll, &toolchain, dir.path(), 3);
    }
}
