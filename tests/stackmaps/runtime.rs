//! Proof at run time that patchmap's stack maps are right: every `ir-examples/sm_*.ll` compiled by
//! patchmap, linked with the location checker (`tests/checker/harness.c`) and run on x86-64 (natively)
//! and AArch64 (qemu). At every record execution the checker reads each location; the values must be
//! the ones the program announces (`S` lines), in the same order, and equal — normalized by IR type —
//! to what llc-19's own stack map gives for the same program at the same IDs. Covers both
//! optimisation levels and the section written as version 1 (the default) and 3.

use crate::support;

use std::path::Path;

use patchmap::compile::Options;
use support::checker::{self, check_truth, normalized, Normal};
use support::{Arch, Toolchain};

fn llc_reference(
    llc: &Path,
    tc: &Toolchain,
    dir: &Path,
    ll: &Path,
    name: &str,
) -> Result<(support::Outcome, Normal), String> {
    let module = patchmap::ir::parse_file(ll).map_err(|e| e.to_string())?;
    let types = checker::live_types(&module)?;
    let object = support::llc_object(llc, ll, tc.arch, "2", dir)?;
    let exe = checker::build_checked(&object, tc, dir, &format!("{name}-llc"))?;
    let (outcome, report) = checker::run_checked_report(&exe, tc)?;
    check_truth(&report, &outcome.stdout).map_err(|e| format!("llc-19: {e}"))?;
    Ok((outcome, normalized(&report, &types)?))
}

fn ours(
    tc: &Toolchain,
    dir: &Path,
    ll: &Path,
    name: &str,
    opt: &str,
    version: u8,
) -> Result<(support::Outcome, Normal), String> {
    let module = patchmap::ir::parse_file(ll).map_err(|e| e.to_string())?;
    let types = checker::live_types(&module)?;
    let options = Options::new(Some(tc.arch.triple()), opt, version).map_err(|e| e.to_string())?;
    let object = patchmap::emit::object::compile(&module, &options).map_err(|e| e.to_string())?;
    let exe = checker::build_checked(&object, tc, dir, &format!("{name}-{opt}-v{version}"))?;
    let (outcome, report) = checker::run_checked_report(&exe, tc)?;
    check_truth(&report, &outcome.stdout)?;
    Ok((outcome, normalized(&report, &types)?))
}

fn agree_with_llc19(arch: Arch) {
    let (Some(llc), Some(tc)) = (support::tool("llc-19"), support::toolchain(arch)) else { return };
    let examples = support::stackmap_examples();
    assert!(examples.len() >= 15, "expected at least 15 ir-examples/sm_*.ll, found {}", examples.len());
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for ll in &examples {
        let name = ll.file_stem().unwrap().to_string_lossy().into_owned();
        let (reference, reference_values) = match llc_reference(&llc, &tc, dir.path(), ll, &name) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        for (opt, version) in [("speed", 1), ("speed", 3), ("none", 3)] {
            match ours(&tc, dir.path(), ll, &name, opt, version) {
                Ok((outcome, _)) if outcome != reference => {
                    failures.push(format!("{name} -O {opt} v{version}: ran as {outcome:?}, llc-19's as {reference:?}"))
                }
                Ok((_, values)) if values != reference_values => failures.push(format!(
                    "{name} -O {opt} v{version}: values differ from llc-19's\n  patchmap {values:?}\n  llc-19   {reference_values:?}"
                )),
                Ok(_) => {}
                Err(e) => failures.push(format!("{name} -O {opt} v{version}: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{} failures on {arch:?}:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn stack_maps_hold_the_values_llc19_records_on_x86_64() {
    agree_with_llc19(Arch::X86_64);
}

#[test]
fn stack_maps_hold_the_values_llc19_records_on_aarch64() {
    agree_with_llc19(Arch::Aarch64);
}
