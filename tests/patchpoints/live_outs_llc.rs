//! Patch point live-outs against llc-19's. Both follow LLVM 19's rule (registers the code after the
//! region reads, plus the callee-saved registers the prologue did not save), applied each to its own
//! code, so they differ where the code does: RBP on x86-64, which Cranelift's epilogue reads
//! (`mov rsp, rbp`) and llc-19's does not (`pop rbp`); callee-saved registers one prologue saves and
//! the other does not; registers the two allocators keep values in. The test checks the rest: every
//! callee-saved register our prologue leaves alone is listed, what llc-19 lists and we do not is
//! explained by our prologue or a value of llc-19's, and SP agrees. It prints the counts.

use crate::support;

use std::collections::BTreeSet;
use std::process::Command;

use patchmap::arch::Arch;
use patchmap::compile::Options;
use patchmap::stackmap::{object_file, StackMap, Version};

fn live_outs(map: &StackMap) -> Vec<(u64, BTreeSet<u16>)> {
    map.records.iter().map(|r| (r.id, r.live_outs.iter().map(|l| l.dwarf_reg).collect())).collect()
}

#[test]
fn live_outs_agree_with_llc19_but_for_the_code() {
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
    let (mut ours_total, mut llc_total, mut equal_records, mut records) = (0, 0, 0, 0);
    let mut equal_but_rbp = 0;
    let mut failures = Vec::new();
    for (ll, target) in &cases {
        let module = patchmap::ir::parse_file(ll).unwrap();
        // The frame-table layout names the registers our prologue saves.
        let options = Options::new(Some(target), "speed", 3).unwrap().with_stackmap_version(Version::FrameTable);
        let object = patchmap::emit::object::compile(&module, &options).unwrap();
        let out = dir.path().join("llc.o");
        let (code, _, err) = support::run(
            Command::new(&llc)
                .args(["-O2", "-filetype=obj", &format!("-mtriple={target}-unknown-linux-gnu"), "-o"])
                .arg(&out)
                .arg(ll),
        );
        assert_eq!(code, 0, "llc-19 on {}: {err}", ll.display());
        let ours_map = &object_file::read_models(&object).unwrap().0[0];
        let ours = live_outs(ours_map);
        let theirs = live_outs(&object_file::read_models(&std::fs::read(&out).unwrap()).unwrap().0[0]);
        for (id, set) in &theirs {
            let Some((_, mine)) = ours.iter().find(|(i, _)| i == id) else {
                failures.push(format!("{} {target}: no record {id}", ll.display()));
                continue;
            };
            if set.is_empty() && mine.is_empty() {
                // A stack map: neither lists live-outs.
                continue;
            }
            let record = ours_map.records.iter().position(|r| r.id == *id).unwrap();
            let function = (0..ours_map.functions.len())
                .find(|&f| ours_map.records_of(f).unwrap().iter().any(|r| std::ptr::eq(r, &ours_map.records[record])))
                .unwrap();
            let saved: BTreeSet<u16> =
                ours_map.functions[function].frame.as_ref().unwrap().registers.iter().map(|r| r.dwarf_reg).collect();
            let extra: BTreeSet<u16> = mine.difference(set).copied().collect();
            let missing: BTreeSet<u16> = set.difference(mine).copied().collect();
            let arch = if *target == "x86_64" { Arch::X86_64 } else { Arch::Aarch64 };
            let callee_saved: BTreeSet<u16> = arch.live_out_callee_saved().iter().map(|r| r.0).collect();
            let mut wrong = Vec::new();
            // LLVM's pristine registers: every callee-saved one our prologue leaves alone.
            for r in callee_saved.difference(&saved) {
                if !mine.contains(r) {
                    wrong.push(format!("R#{r} is not saved but not listed"));
                }
            }
            // What llc-19 lists and we do not: a callee-saved register our prologue saves (pristine
            // in llc-19's function), or a register llc-19 keeps a value in.
            for r in &missing {
                if callee_saved.contains(r) && !saved.contains(r) {
                    wrong.push(format!("R#{r} missing"));
                }
                if *r == arch.stack_pointer() {
                    wrong.push("SP missing".into());
                }
            }
            // What we list and llc-19 does not: RBP, read by our epilogue, or a register holding a
            // value our code reads after the region (allocation differs).
            if extra.contains(&arch.stack_pointer()) {
                wrong.push("SP listed".into());
            }
            if !wrong.is_empty() {
                failures.push(format!(
                    "{} {target} record {id}: llc-19 {set:?}, ours {mine:?} (our prologue saves {saved:?}): {}",
                    ll.display(),
                    wrong.join(", ")
                ));
            }
            records += 1;
            equal_records += usize::from(extra.is_empty() && missing.is_empty());
            equal_but_rbp += usize::from(
                missing.is_empty()
                    && extra.iter().all(|&r| arch.epilogue_reads_frame_pointer() && r == arch.frame_pointer()),
            );
            ours_total += mine.len();
            llc_total += set.len();
        }
    }
    eprintln!(
        "live-outs: {records} records, llc-19 {llc_total} entries, patchmap {ours_total}, {equal_records} equal, \
         {equal_but_rbp} equal but for x86-64's RBP"
    );
    assert!(llc_total > 0);
    // sm_liveness on x86-64: same prologue saves but for RBP, same values live: the same lists.
    assert!(equal_but_rbp >= 2, "{equal_but_rbp} records equal but for RBP");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
