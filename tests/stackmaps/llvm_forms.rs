//! The forms of LLVM's own stack map, patch point and statepoint tests that patchmap used to refuse
//! (issue 26, item 1), compiled by patchmap and by llc-19 for each target a file names
//! (`; targets: x86_64 aarch64`): every record agrees in ID, location count, kinds, sizes and
//! constants. Which register or slot holds a value is the allocator's choice and is not compared;
//! nor are live-outs (llc-19 runs without patch point liveness, which crashes it on some inputs).

use crate::support;

use std::path::{Path, PathBuf};

use patchmap::compile::Options;
use patchmap::stackmap::{object_file, StackMap};
use support::Arch;

fn inputs() -> Vec<PathBuf> {
    support::ll_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/llvm-forms"))
}

/// What must agree of one location: its kind and size, and a constant's value.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Recorded {
    Constant(u64),
    Located(u8, u16),
}

/// Per function, its records sorted by ID (code layout orders them differently), each a list of
/// what its locations hold.
fn records(object: &[u8]) -> Vec<Vec<(u64, Vec<Recorded>)>> {
    let (maps, _) = object_file::read_models(object).expect("a readable stack map section");
    let map: &StackMap = &maps[0];
    let mut at = 0;
    map.functions
        .iter()
        .map(|f| {
            let mut records: Vec<_> = map.records[at..at + f.record_count as usize]
                .iter()
                .map(|r| {
                    let locations = r
                        .locations
                        .iter()
                        .map(|l| match (map.constant_value(l), l.kind) {
                            (Some(v), _) => Recorded::Constant(v),
                            (None, kind) => Recorded::Located(kind as u8, l.size),
                        })
                        .collect();
                    (r.id, locations)
                })
                .collect();
            at += f.record_count as usize;
            records.sort();
            records
        })
        .collect()
}

fn targets(ll: &Path) -> Vec<Arch> {
    let text = std::fs::read_to_string(ll).unwrap();
    let line = text.lines().find_map(|l| l.strip_prefix("; targets:")).expect("a '; targets:' line");
    Arch::ALL
        .into_iter()
        .filter(|a| line.split_whitespace().any(|w| w == a.triple().split('-').next().unwrap()))
        .collect()
}

#[test]
fn llvm_test_forms_compile_with_the_records_llc_19_makes() {
    let Some(llc) = support::tool("llc-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut compared = 0;
    for ll in inputs() {
        let name = ll.file_stem().unwrap().to_string_lossy().into_owned();
        for arch in targets(&ll) {
            let module = patchmap::ir::parse_file(&ll).unwrap_or_else(|e| panic!("{e}"));
            let options = Options::new(Some(arch.triple()), "speed", 3).unwrap();
            let ours = match patchmap::emit::object::compile(&module, &options) {
                Ok(object) => object,
                Err(e) => {
                    failures.push(format!("{name} {arch:?}: {e}"));
                    continue;
                }
            };
            let theirs = support::llc_object(&llc, &ll, arch, "2", dir.path()).unwrap();
            let (ours, theirs) = (records(&ours), records(&theirs));
            if ours != theirs {
                failures.push(format!("{name} {arch:?}:\n  patchmap {ours:?}\n  llc-19   {theirs:?}"));
            }
            compared += 1;
        }
    }
    assert!(compared >= 9, "only {compared} inputs compared");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
