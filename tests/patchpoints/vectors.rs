//! Patch points with vector arguments and results (issue 27, item 1), passed and returned by the
//! C convention in vector registers, as llc-19 passes them.
//!
//! - `tests/vectors/patchpoints/records.ll`: the records of patch points returning `<4 x i32>`,
//!   `<2 x double>` and `<16 x i8>` (the first with vector arguments and a live vector) have
//!   llc-19's IDs and location counts, each live vector in a register or a frame slot of 16 bytes.
//! - `tests/vectors/patchpoints/patchpoints.ll`: regions that call functions with vector
//!   arguments and results, run natively and under qemu-aarch64, print the lanes the functions
//!   compute. (llc-19 cannot be the reference there: it crashes on x86-64, and its AArch64 program
//!   crashes at run time.)

use crate::support;

use std::path::{Path, PathBuf};

use patchmap::stackmap::LocationKind;
use support::Arch;

fn source(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/patchpoints").join(name)
}

#[test]
fn vector_patch_points_are_recorded_as_llc_19_records_them() {
    let Some(llc) = support::tool("llc-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let ll = source("records.ll");
    for arch in Arch::ALL {
        let (ours, reference) = support::record_shapes_of_both(&llc, &ll, arch, dir.path());
        assert_eq!(
            support::ids_and_counts(&ours),
            vec![(5, 1), (6, 0), (7, 0)],
            "{arch:?}: patchmap's IDs and location counts"
        );
        assert_eq!(
            support::ids_and_counts(&ours),
            support::ids_and_counts(&reference),
            "{arch:?}: IDs and location counts against llc-19's"
        );
        for (who, records) in [("patchmap", &ours), ("llc-19", &reference)] {
            let (kind, size) = records[0].1[0];
            assert!(
                matches!(kind, LocationKind::Register | LocationKind::Indirect) && size == 16,
                "{arch:?}: {who}'s live vector: {kind:?} size {size}"
            );
        }
    }
}

#[test]
fn vector_patch_points_call_their_targets_by_the_c_convention() {
    let dir = tempfile::tempdir().unwrap();
    for arch in Arch::ALL {
        let Some(toolchain) = support::toolchain(arch) else { continue };
        let object = support::compile_file_v3(&source("patchpoints.ll"), arch);
        let outcome = toolchain.link_and_run(&object, dir.path(), &format!("vectors-{arch:?}")).unwrap();
        // 1 2 3 40 + 100 200 300 400; 1.5 * 4 with lane 1 replaced by 7; (5 - 9) as floats + (0.25 0.5), swapped.
        assert_eq!(outcome.stdout, "101 202 303 440 | 6.00 7.00\n-8 0 5.25\n", "{arch:?}: {outcome:?}");
    }
}
