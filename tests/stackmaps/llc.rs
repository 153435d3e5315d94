//! The stack maps patchmap emits, against llc-19's for the same input, on both targets: llvm-readobj-19
//! reads every object we emit and `patchmap dump` prints the same text; and both compilers record the
//! same functions (stack size known or not), the same record IDs, and per live value the same kind of
//! location (a constant of the same value, an alloca's address, or a value in the machine).
//! Where each value is differs by design (register allocation); the run-time checker proves ours.

use crate::support;

use std::path::PathBuf;
use std::process::Command;

use patchmap::compile::Options;
use patchmap::stackmap::{object_file, LocationKind, StackMap, DYNAMIC_STACK_SIZE};
use support::Arch;

/// Reference inputs without patch points or vector values, and every stack map example.
fn inputs() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = support::ir_examples()
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("sm_")))
        .collect();
    if let Some(reference) = support::reference_dir() {
        for name in ["sm_basereg", "sm_const_ext", "sm_internal", "sm_order", "sm_shadow", "sm_spill", "sm_undef"] {
            files.push(reference.join(format!("llc19/{name}.ll")));
        }
        files.push(reference.join("llc19/linked/a.ll"));
        files.push(reference.join("llc19/linked/b.ll"));
    }
    files
}

/// What both compilers must agree on, per record: its ID and each location's kind of content.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Clone)]
enum Content {
    Constant(u64),
    Address,
    Value,
}

fn shape(map: &StackMap) -> Shape {
    let mut at = 0;
    map.functions
        .iter()
        .map(|f| {
            let records = &map.records[at..at + f.record_count as usize];
            at += f.record_count as usize;
            let dynamic = f.stack_size == DYNAMIC_STACK_SIZE;
            let mut records: Vec<_> = records
                .iter()
                .map(|r| {
                    let contents = r
                        .locations
                        .iter()
                        .map(|l| match (map.constant_value(l), l.kind) {
                            (Some(value), _) => Content::Constant(value),
                            // In realigned frames llc-19 addresses allocas from the realigned SP or a
                            // base pointer; patchmap rounds such an address at run time and records
                            // where it holds it.
                            (None, LocationKind::Direct) if dynamic => Content::Value,
                            (None, LocationKind::Direct) => Content::Address,
                            (None, _) => Content::Value,
                        })
                        .collect();
                    (r.id, contents)
                })
                .collect();
            // Records follow code layout, which the two compilers choose differently.
            records.sort();
            (dynamic, records)
        })
        .collect()
}

type Shape = Vec<(bool, Vec<(u64, Vec<Content>)>)>;

/// Equal shapes, except that llc-19's optimiser folds some computed values to constants (such as
/// `(s & 0) + 5`) which patchmap records where its code holds them: a value for a constant is fine
/// (the run-time checker proves the value), the other way round is not.
fn agree(ours: &Shape, theirs: &Shape) -> bool {
    ours.len() == theirs.len()
        && ours.iter().zip(theirs).all(|((d1, r1), (d2, r2))| {
            d1 == d2
                && r1.len() == r2.len()
                && r1.iter().zip(r2).all(|((id1, c1), (id2, c2))| {
                    id1 == id2
                        && c1.len() == c2.len()
                        && c1
                            .iter()
                            .zip(c2)
                            .all(|(a, b)| a == b || (*a == Content::Value && matches!(b, Content::Constant(_))))
                })
        })
}

fn models(object: &[u8]) -> StackMap {
    let (mut maps, _) = object_file::read_models(object).expect("a readable stack map section");
    assert_eq!(maps.len(), 1, "one blob per object");
    maps.remove(0)
}

#[test]
fn stack_maps_agree_with_llc19_and_llvm_readobj() {
    let (Some(llc), Some(readobj)) = (support::tool("llc-19"), support::tool("llvm-readobj-19")) else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut compared = 0;
    for ll in inputs() {
        let name = ll.file_stem().unwrap().to_string_lossy().into_owned();
        for arch in Arch::ALL {
            let module = patchmap::ir::parse_file(&ll).unwrap();
            let options = Options::new(Some(arch.triple()), "speed", 3).unwrap();
            let ours = match patchmap::emit::object::compile(&module, &options) {
                Ok(object) => object,
                Err(e) => {
                    failures.push(format!("{name} {arch:?}: {e}"));
                    continue;
                }
            };
            let path = dir.path().join(format!("{name}.{arch:?}.o"));
            std::fs::write(&path, &ours).unwrap();
            let (code, readobj_text, err) = support::run(Command::new(&readobj).arg("--stackmap").arg(&path));
            let mut dumped = Vec::new();
            object_file::dump(&ours, false, &mut dumped).unwrap();
            let block = readobj_text.split_once("LoadName: <Not found>\n").map_or("", |(_, b)| b);
            if code != 0 || !err.is_empty() || block != String::from_utf8_lossy(&dumped) {
                failures
                    .push(format!("{name} {arch:?}: llvm-readobj-19 (status {code}, {err}) and patchmap dump differ"));
            }
            let reference = support::llc_object(&llc, &ll, arch, "2", dir.path()).unwrap();
            let (ours, theirs) = (shape(&models(&ours)), shape(&models(&reference)));
            if !agree(&ours, &theirs) {
                failures.push(format!("{name} {arch:?}:\n  patchmap {ours:?}\n  llc-19   {theirs:?}"));
            }
            compared += 1;
        }
    }
    assert!(compared >= 2 * 9, "only {compared} inputs compiled");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
