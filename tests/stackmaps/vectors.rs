//! Vectors in stack map records (issue 27, item 1). `tests/vectors/live/live.ll`, compiled by
//! patchmap and by llc-19 for both targets, gives records with the same IDs and location counts,
//! each 128-bit vector recorded as llc-19 records one: in a register (size 16: an XMM or Q
//! register) or in a frame slot (`Indirect`, size 16). patchmap stores each live vector in a slot
//! of its own at LLVM's memory layout. Then the program runs under the location checker
//! (`tests/checker/harness.c`), natively and under qemu-aarch64: at every stack map execution each
//! location's low 64 bits hold the vector's low lanes the program announced, for patchmap's build
//! and llc-19's alike; an announcement that does not match what a location holds is caught.
//! `tests/vectors/long/long.ll` does the same for vectors of 128 and 1024 lanes (`Indirect` of 1024
//! and 4096 bytes, as llc-19 records them, which version 1's one-byte size cannot hold), checking
//! every byte of each location (the checker's hash of the whole location, `h:` tokens).

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
        let (ours, reference) = support::record_shapes_of_both(&llc, &ll, arch, dir.path());
        assert_eq!(
            support::ids_and_counts(&ours),
            vec![(1, 3), (2, 3)],
            "{arch:?}: patchmap's IDs and location counts"
        );
        assert_eq!(
            support::ids_and_counts(&ours),
            support::ids_and_counts(&reference),
            "{arch:?}: IDs and location counts against llc-19's"
        );
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

fn long() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/long/long.ll")
}

#[test]
fn long_vectors_are_recorded_as_llc_19_records_them() {
    let Some(llc) = support::tool("llc-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let ll = long();
    for arch in Arch::ALL {
        let (ours, reference) = support::record_shapes_of_both(&llc, &ll, arch, dir.path());
        let expected: Vec<(LocationKind, u16)> = [LocationKind::Constant; 3]
            .into_iter()
            .map(|k| (k, 8))
            .chain([(LocationKind::Indirect, 1024), (LocationKind::Indirect, 4096)])
            .collect();
        assert_eq!(ours, vec![(1, expected.clone()), (2, expected)], "{arch:?}: patchmap's records");
        assert_eq!(ours, reference, "{arch:?}: against llc-19's");
    }
    // Version 1 holds a location's size in a byte: refused, not truncated.
    let module = patchmap::ir::parse_file(&ll).unwrap();
    let options = patchmap::compile::Options::new(Some(Arch::X86_64.triple()), "speed", 1).unwrap();
    let e = patchmap::emit::object::compile(&module, &options).unwrap_err().to_string();
    assert!(e.ends_with("record 1: a location of 1024 bytes does not fit stack map version 1's one-byte size (use version 3, as llc-19 writes it)"), "{e}");
}

#[test]
fn recorded_long_vector_locations_hold_the_values_at_run_time() {
    let ll = long();
    let Some(llc) = support::tool("llc-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    for arch in Arch::ALL {
        let Some(toolchain) = support::toolchain(arch) else { continue };
        for (who, outcome, report) in checker::both_builds_hold_the_truth(&llc, &ll, &toolchain, dir.path(), 2) {
            // Every byte of both vectors was checked: the checker hashed each whole location.
            let digests = report.hits.iter().flat_map(|h| &h.values).filter(|v| v.digest.is_some()).count();
            assert_eq!(digests, 4, "{who} on {arch:?}: two vectors at two executions");
            // The check can fail: the 1024-lane vector with its last lane changed.
            let mut bytes: Vec<u8> = (0..1024u32).flat_map(|i| lane(i).to_le_bytes()).collect();
            let expected = checker::fnv1a(&bytes);
            let first = outcome.stdout.lines().next().unwrap().to_string();
            assert_eq!(first.split(' ').nth(5), Some(format!("h:{expected:x}").as_str()), "{who} on {arch:?}");
            bytes[4095] ^= 1;
            let wrong = first.replacen(&format!("h:{expected:x}"), &format!("h:{:x}", checker::fnv1a(&bytes)), 1);
            let broken = outcome.stdout.replacen(&first, &wrong, 1);
            assert!(check_truth(&report, &broken).is_err(), "{who} on {arch:?}: a wrong announcement passed");
        }
    }
}

/// Lane `i` of long.ll's `<1024 x i32>`: the seed 5 xor its constant lane.
fn lane(i: u32) -> i32 {
    let constant = (i64::from(i) * 2654435761 % (1 << 31) - (1 << 30)) as i32;
    5 ^ constant
}

/// Vectors at the lane limit compile in reasonable time: a function taking two `<4096 x i64>`
/// (ABI pieces in registers and on the stack), multiplying, shuffling and reducing them, with the
/// result in a deopt bundle. Measured at about a second (debug build of the tests, optimised
/// library) on this project's machines; the bound leaves room for a loaded machine.
#[test]
fn vectors_at_the_lane_limit_compile_in_reasonable_time() {
    let n = patchmap::ir::MAX_VECTOR_LANES;
    let text = format!(
        "declare void @callee()\n\
         declare i64 @llvm.vector.reduce.add.v{n}i64(<{n} x i64>)\n\
         define i64 @f(<{n} x i64> %a, <{n} x i64> %b) {{\n\
           %m = mul <{n} x i64> %a, %b\n\
           %r = shufflevector <{n} x i64> %m, <{n} x i64> %a, <{n} x i32> zeroinitializer\n\
           call void @callee() [ \"deopt\"(<{n} x i64> %r) ]\n\
           %s = call i64 @llvm.vector.reduce.add.v{n}i64(<{n} x i64> %r)\n\
           ret i64 %s\n\
         }}\n"
    );
    let module = patchmap::ir::parse("limit.ll", &text).unwrap_or_else(|e| panic!("{e}"));
    for arch in Arch::ALL {
        let options = patchmap::compile::Options::new(Some(arch.triple()), "speed", 3).unwrap();
        let start = std::time::Instant::now();
        let object = patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{arch:?}: {e}"));
        let took = start.elapsed();
        eprintln!("{arch:?}: <{n} x i64> function compiled in {took:?}");
        assert!(took < std::time::Duration::from_secs(30), "{arch:?}: {took:?}");
        assert_eq!(support::record_shapes(&object)[0].1[3], (LocationKind::Indirect, (n * 8) as u16));
    }
}
