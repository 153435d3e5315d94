//! The register-pressure modules of the compile-time bench (`tests/generator/pressure.rs`: 30 values
//! live across every stack map or patch point of a loop, half of them recorded), compiled by patchmap
//! at both levels and by llc-19 -O2, run under the location checker on x86-64 (natively) and AArch64
//! (qemu): the same output and, at every record execution, the same values. What the bench times is
//! thereby also proven to record where its values are.

use crate::generator::pressure::{self, LiveAcross};
use crate::support;

use std::path::Path;

use patchmap::compile::Options;
use support::checker;
use support::{Arch, Toolchain};

/// Functions per module: each runs its loop 3 times, 2 records per iteration.
const FUNCTIONS: usize = 3;
const LIVE: usize = 30;

fn check(points: LiveAcross, opt: &str, llc: &Path, tc: &Toolchain, dir: &Path) -> Result<(), String> {
    let text = pressure::module(points, FUNCTIONS, LIVE);
    let name = format!("{}-{opt}-{:?}", points.stem(), tc.arch);
    let ll = dir.join(format!("{name}.ll"));
    std::fs::write(&ll, &text).map_err(|e| e.to_string())?;
    let module = patchmap::ir::parse(&ll.to_string_lossy(), &text).map_err(|e| e.to_string())?;
    let types = checker::live_types(&module)?;
    let reference = support::llc_object(llc, &ll, tc.arch, "2", dir)?;
    let (llc_outcome, llc_values, _) =
        checker::run_normalized(&reference, tc, dir, &format!("{name}-llc"), &types, &[])?;
    let options = Options::new(Some(tc.arch.triple()), opt, 3).map_err(|e| e.to_string())?;
    let object = patchmap::emit::object::compile(&module, &options).map_err(|e| e.to_string())?;
    let (outcome, values, planted) = checker::run_normalized(&object, tc, dir, &format!("{name}-ours"), &types, &[])?;
    if outcome != llc_outcome {
        return Err(format!("{name}: ran as {outcome:?}, llc-19's as {llc_outcome:?}"));
    }
    if planted != FUNCTIONS * 2 || values.len() != FUNCTIONS * 2 * 3 {
        return Err(format!("{name}: {planted} records planted, {} executions", values.len()));
    }
    checker::compare_executions(&values, &llc_values).map_err(|e| format!("{name}: {e}"))
}

fn agree_with_llc19(arch: Arch) {
    let (Some(llc), Some(tc)) = (support::tool("llc-19"), support::toolchain(arch)) else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for points in [LiveAcross::StackMaps, LiveAcross::PatchPoints, LiveAcross::AnyRegPatchPoints] {
        for opt in ["speed", "none"] {
            if let Err(e) = check(points, opt, &llc, &tc, dir.path()) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn pressure_modules_agree_with_llc19_on_x86_64() {
    agree_with_llc19(Arch::X86_64);
}

#[test]
fn pressure_modules_agree_with_llc19_on_aarch64() {
    agree_with_llc19(Arch::Aarch64);
}

#[test]
fn pressure_modules_keep_their_values_live() {
    let text = pressure::module(LiveAcross::StackMaps, 2, LIVE);
    assert_eq!(text, pressure::module(LiveAcross::StackMaps, 2, LIVE));
    // Every loop value is a phi, and each stack map records half of them.
    assert_eq!(
        text.matches("= phi i64").count() + text.matches("= phi i32").count() + text.matches("= phi double").count(),
        2 * (LIVE + 1)
    );
    for line in text.lines().filter(|l| l.contains("call void (i64, i32, ...) @llvm.experimental.stackmap")) {
        assert_eq!(line.matches(" %").count(), LIVE / 2, "{line}");
    }
}
