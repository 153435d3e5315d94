//! The statepoint module of the compile-time bench (`tests/generator/pressure.rs`: 30 values, a fifth
//! of them GC pointers, live across every statepoint of a loop, all of them deopt or gc-live values),
//! compiled by patchmap at both levels against llc-19 -O2 as `llc.rs` compares random programs: the
//! same record shapes, output and, at every record execution, values.

use crate::generator::pressure::{self, LiveAcross};
use crate::support;

use support::Arch;

/// Functions in the module: each runs its loop 3 times, 2 statepoints per iteration.
const FUNCTIONS: usize = 3;

fn agree_with_llc19(arch: Arch) {
    let (Some(llc), Some(tc)) = (support::tool("llc-19"), support::toolchain(arch)) else { return };
    let dir = tempfile::tempdir().unwrap();
    let text = pressure::module(LiveAcross::Statepoints, FUNCTIONS, 30);
    let mut failures = Vec::new();
    for opt in ["speed", "none"] {
        let name = format!("pressure-{opt}-{arch:?}");
        match crate::llc::agrees_with_llc19(&text, &name, opt, &llc, &tc, dir.path()) {
            Ok(executions) if executions == FUNCTIONS * 2 * 3 => {}
            Ok(executions) => failures.push(format!("{name}: {executions} record executions")),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn pressure_statepoints_agree_with_llc19_on_x86_64() {
    agree_with_llc19(Arch::X86_64);
}

#[test]
fn pressure_statepoints_agree_with_llc19_on_aarch64() {
    agree_with_llc19(Arch::Aarch64);
}
