//! Integers of widths other than 1, 8, 16, 32 and 64 in stack map records (issue 26, item 1):
//! `tests/int-widths/stackmaps/*.ll` compiled by patchmap and by llc-19 for both targets give
//! records that agree in ID, location count, whether each location is a constant, each constant's
//! value and each other location's size (llc-19 records the promoted integer's: an i24 as 4 bytes,
//! an i2 as 1 on x86-64 and 4 on AArch64). Register or slot is the allocator's choice and is not
//! compared (both sizes agree for integers on both targets).

use crate::support;

use std::path::Path;

use patchmap::compile::Options;
use patchmap::stackmap::object_file;
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
