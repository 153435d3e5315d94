//! Vectors in stack map records (issue 27, item 1). `tests/vectors/live/live.ll`, compiled by
//! patchmap and by llc-19 for both targets, gives records with the same IDs and location counts,
//! each 128-bit vector recorded as llc-19 records one: in a register (size 16: an XMM or Q
//! register) or in a frame slot (`Indirect`, size 16). patchmap stores each live vector in a slot
//! of its own at LLVM's memory layout. Then the program runs under the location checker
//! (`tests/checker/harness.c`), natively and under qemu-aarch64: at every stack map execution each
//! location's low 64 bits hold the vector's low lanes the program announced, for patchmap's build
//! and llc-19's alike; an announcement that does not match what a location holds is caught.

use crate::support;

use std::path::{Path, PathBuf};

use patchmap::stackmap::LocationKind;
use support::checker::{self, check_truth};
use support::Arch;

fn live() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/live/live.ll")
}

#[test]
fn vectors_are_recorded_as_llc_19_records_them() {
    let Some(llc) = support::tool("llc-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let ll = live();
    for arch in Arch::ALL {
        let ours = support::record_shapes(&support::compile_file_v3(&ll, arch));
        let reference = support::llc_object(&llc, &ll, arch, "2", dir.path()).unwrap_or_else(|e| panic!("{e}"));
        let reference = support::record_shapes(&reference);
        let shape = |r: &[(u64, Vec<(LocationKind, u16)>)]| r.iter().map(|(id, l)| (*id, l.len())).collect::<Vec<_>>();
        assert_eq!(shape(&ours), vec![(1, 3), (2, 3)], "{arch:?}: patchmap's IDs and location counts");
        assert_eq!(shape(&ours), shape(&reference), "{arch:?}: IDs and location counts against llc-19's");
        for (who, records) in [("patchmap", &ours), ("llc-19", &reference)] {
            for (id, locations) in records.iter() {
                for (i, &(kind, size)) in locations.iter().enumerate() {
                    assert!(
                        matches!(kind, LocationKind::Register | LocationKind::Indirect) && size == 16,
                        "{arch:?}: {who}'s record {id} location {}: {kind:?} size {size}",
                        i + 1
                    );
                }
            }
        }
    }
}

#[test]
fn recorded_vector_locations_hold_the_values_at_run_time() {
    let ll = live();
    let Some(llc) = support::tool("llc-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    for arch in Arch::ALL {
        let Some(toolchain) = support::toolchain(arch) else { continue };
        for (who, outcome, report) in checker::both_builds_hold_the_truth(&llc, &ll, &toolchain, dir.path(), 2) {
            // The check can fail: the second lane pair of the first vector is not what it holds.
            let first = outcome.stdout.lines().next().unwrap().to_string();
            let token = first.split(' ').nth(1).unwrap().to_string();
            let wrong = first.replacen(&token, "64:deadbeef", 1);
            let broken = outcome.stdout.replacen(&first, &wrong, 1);
            assert!(check_truth(&report, &broken).is_err(), "{who} on {arch:?}: a wrong announcement passed");
        }
    }
}
