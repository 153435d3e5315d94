//! Integers of widths other than 1, 8, 16, 32 and 64 in stack map records (issue 26, item 1):
//! `tests/int-widths/stackmaps/*.ll` compiled by patchmap and by llc-19 for both targets give
//! records that agree in ID, location count, whether each location is a constant, each constant's
//! value and each other location's size (llc-19 records the promoted integer's: an i24 as 4 bytes,
//! an i2 as 1 on x86-64 and 4 on AArch64). Register or slot is the allocator's choice and is not
//! compared (both sizes agree for integers on both targets). `i128.ll` adds i128 constants (their
//! low 64 bits) and a statepoint's i128 deopt values (16-byte slots), whose slots are also read at
//! run time.

use crate::support;

use std::path::Path;

use patchmap::compile::Options;
use patchmap::stackmap::{object_file, LocationKind};
use support::Arch;

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Recorded {
    Constant(u64),
    Sized(u16),
}

/// The records of the first function, sorted by ID.
fn records(object: &[u8]) -> Vec<(u64, Vec<Recorded>)> {
    let (maps, _) = object_file::read_models(object).expect("a readable stack map section");
    let map = &maps[0];
    let mut records: Vec<_> = map
        .records
        .iter()
        .map(|r| {
            let locations = r
                .locations
                .iter()
                .map(|l| map.constant_value(l).map_or(Recorded::Sized(l.size), Recorded::Constant))
                .collect();
            (r.id, locations)
        })
        .collect();
    records.sort();
    records
}

#[test]
fn int_widths_are_recorded_as_llc_19_records_them() {
    let inputs = support::ll_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/int-widths/stackmaps"));
    assert!(!inputs.is_empty());
    let Some(llc) = support::tool("llc-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    for ll in &inputs {
        let module = patchmap::ir::parse_file(ll).unwrap_or_else(|e| panic!("{e}"));
        for arch in Arch::ALL {
            let options = Options::new(Some(arch.triple()), "speed", 3).unwrap();
            let ours = patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{e}"));
            let reference = support::llc_object(&llc, ll, arch, "2", dir.path()).unwrap_or_else(|e| panic!("{e}"));
            let (ours, reference) = (records(&ours), records(&reference));
            assert!(reference.len() >= 2, "{ll:?} {arch:?}: llc-19's records");
            assert_eq!(ours, reference, "{ll:?} on {arch:?}: patchmap's records against llc-19's");
        }
    }
}

/// Run-time proof for `i128.ll`'s statepoint: a C `@observe`, generated with the recorded offsets,
/// reads each deopt value's 16 bytes at `[frame pointer + offset]` of its caller's frame (the record
/// names the frame pointer on both targets: RBP, x29) and prints them; they must be what `@main`
/// prints next, computed values and constants alike.
#[test]
fn i128_deopt_slots_hold_their_values_at_run_time() {
    let ll = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/int-widths/stackmaps/i128.ll");
    let module = patchmap::ir::parse_file(&ll).unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().unwrap();
    for arch in Arch::ALL {
        let Some(toolchain) = support::toolchain(arch) else { continue };
        let options = Options::new(Some(arch.triple()), "speed", 3).unwrap();
        let object = patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{e}"));
        let (maps, _) = object_file::read_models(&object).expect("a readable stack map section");
        let record = maps[0].records.iter().find(|r| r.id == 3).expect("the statepoint's record");
        let frame_pointer = if arch == Arch::X86_64 { 6 } else { 29 };
        // After the calling convention, the flags and the deopt count: the four deopt values.
        let offsets: Vec<String> = record.locations[3..]
            .iter()
            .map(|l| {
                assert_eq!(
                    (l.kind, l.size, l.dwarf_reg),
                    (LocationKind::Indirect, 16, frame_pointer),
                    "{arch:?}: {l:?}"
                );
                l.offset.to_string()
            })
            .collect();
        assert_eq!(offsets.len(), 4, "{arch:?}: {record:?}");
        let c = dir.path().join(format!("observe-{arch:?}.c"));
        std::fs::write(
            &c,
            format!(
                "#include <stdio.h>\n#include <string.h>\n\
                 void observe(void) {{\n\
                 \x20 const char *fp = __builtin_frame_address(1);\n\
                 \x20 static const long offsets[] = {{ {} }};\n\
                 \x20 for (int i = 0; i < 4; i++) {{\n\
                 \x20   unsigned long half[2];\n\
                 \x20   memcpy(half, fp + offsets[i], 16);\n\
                 \x20   printf(\"%016lx%016lx\\n\", half[1], half[0]);\n\
                 \x20 }}\n}}\n",
                offsets.join(", ")
            ),
        )
        .unwrap();
        let observer = dir.path().join(format!("observe-{arch:?}.o"));
        let (code, _, err) = support::run(
            std::process::Command::new(&toolchain.linker)
                .args(["-c", "-O1", "-fno-omit-frame-pointer", "-o"])
                .arg(&observer)
                .arg(&c),
        );
        assert_eq!(code, 0, "{err}");
        let observer = std::fs::read(&observer).unwrap();
        let outcome = toolchain.link_all_and_run(&[&object, &observer], dir.path(), "i128-deopt").unwrap();
        let lines: Vec<&str> = outcome.stdout.lines().collect();
        assert_eq!(lines.len(), 8, "{arch:?}: {outcome:?}");
        assert_eq!(lines[..4], lines[4..], "{arch:?}: the slots against the values");
        assert_eq!(lines[5], "00000000000000010000000000000001", "{arch:?}");
    }
}
