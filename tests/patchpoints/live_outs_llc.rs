//! Patch point live-outs against llc-19's: for every record, each register llc-19 lists is in ours
//! (ours are the callee-saved registers, FP, SP and the result's register: a superset, documented in
//! the README). Prints how many entries the two sets share.

use crate::support;

use std::collections::BTreeSet;
use std::process::Command;

use patchmap::compile::Options;
use patchmap::stackmap::{object_file, StackMap};

fn live_outs(map: &StackMap) -> Vec<(u64, BTreeSet<u16>)> {
    map.records.iter().map(|r| (r.id, r.live_outs.iter().map(|l| l.dwarf_reg).collect())).collect()
}

#[test]
fn llc19_live_outs_are_a_subset_of_ours() {
    let (Some(llc), Some(reference)) = (support::tool("llc-19"), support::reference_dir()) else { return };
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ir-examples");
    // llc-19's liveness crashes when a call follows a patch point on x86-64, so the examples (which
    // print after each point) are compared on AArch64 only.
    let cases = [
        (reference.join("llc19/sm_liveness.ll"), "x86_64"),
        (reference.join("llc19/sm_liveness_fp_passthrough.ll"), "aarch64"),
        (examples.join("pp_loop.ll"), "aarch64"),
        (examples.join("pp_anyreg.ll"), "aarch64"),
    ];
    let dir = tempfile::tempdir().unwrap();
    let (mut ours_total, mut llc_total, mut shared) = (0, 0, 0);
    let mut failures = Vec::new();
    for (ll, target) in &cases {
        let module = patchmap::ir::parse_file(ll).unwrap();
        let object =
            patchmap::emit::object::compile(&module, &Options::new(Some(target), "speed", 3).unwrap()).unwrap();
        let out = dir.path().join("llc.o");
        let (code, _, err) = support::run(
            Command::new(&llc)
                .args(["-O2", "-filetype=obj", &format!("-mtriple={target}-unknown-linux-gnu"), "-o"])
                .arg(&out)
                .arg(ll),
        );
        assert_eq!(code, 0, "llc-19 on {}: {err}", ll.display());
        let ours = live_outs(&object_file::read_models(&object).unwrap().0[0]);
        let theirs = live_outs(&object_file::read_models(&std::fs::read(&out).unwrap()).unwrap().0[0]);
        for (id, set) in &theirs {
            let Some((_, mine)) = ours.iter().find(|(i, _)| i == id) else {
                failures.push(format!("{} {target}: no record {id}", ll.display()));
                continue;
            };
            if !set.is_subset(mine) {
                failures.push(format!("{} {target} record {id}: llc-19 {set:?}, ours {mine:?}", ll.display()));
            }
            ours_total += mine.len();
            llc_total += set.len();
            shared += set.intersection(mine).count();
        }
    }
    eprintln!("live-outs: llc-19 {llc_total} entries, patchmap {ours_total}, shared {shared}");
    assert!(llc_total > 0);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
