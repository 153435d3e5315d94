//! The run-time location checker (`tests/checker/harness.c`, `support::checker`) validated on llc-19's
//! own stack maps. Every `ir-examples/sm_*.ll` program announces each stack map execution on stdout
//! with the live values it passes (`S<id>` lines, see the examples' header): the values the checker
//! reads through the stack map must be exactly those, in the same order, for llc-19 -O0 and -O2, for
//! the section rewritten as v1 and v2, on x86-64 (natively) and AArch64 (qemu). The checker must also
//! be transparent (same stdout and status as the plain program), and the normalized values must agree
//! across optimization levels and targets.

use crate::support;

use std::path::Path;

use patchmap::stackmap::object_file;
use patchmap::stackmap::{Endian, Version};
use support::checker::{self, check_truth, normalized, LiveType, LocationValue, Normal, Normalized, Report};
use support::{Arch, Outcome, Toolchain};

fn examples() -> Vec<std::path::PathBuf> {
    let examples = support::stackmap_examples();
    assert!(examples.len() >= 15, "expected at least 15 ir-examples/sm_*.ll, found {}", examples.len());
    examples
}

/// Builds `ll` with llc-19 at `-O<opt>`, rewrites its section as `version`, runs it under the checker
/// and checks it against the announced values and the plain run.
fn checked_run(
    llc: &Path,
    tc: &Toolchain,
    dir: &Path,
    ll: &Path,
    opt: &str,
    version: u8,
    plain: &Outcome,
) -> Result<Report, String> {
    let name = format!("{}-O{opt}-v{version}-{:?}", ll.file_stem().unwrap().to_string_lossy(), tc.arch);
    let mut object = support::llc_object(llc, ll, tc.arch, opt, dir)?;
    if version != 3 {
        object = object_file::convert(&object, version).map_err(|e| e.to_string())?;
    }
    let exe = checker::build_checked(&object, tc, dir, &name)?;
    let (outcome, report) = checker::run_checked_report(&exe, tc)?;
    if outcome != *plain {
        return Err(format!("{name}: not transparent: {outcome:?}, plain run {plain:?}"));
    }
    check_truth(&report, &outcome.stdout).map_err(|e| format!("{name}: {e}"))?;
    Ok(report)
}

/// Every example at -O0 and -O2 (v3), and -O2 rewritten as v1 and v2: true values, transparent, and
/// the same normalized values throughout. Returns the -O2 v3 normalized values per example.
fn check_arch(arch: Arch) -> Option<Vec<(String, Normal)>> {
    let (Some(llc), Some(tc)) = (support::tool("llc-19"), support::toolchain(arch)) else { return None };
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut results = Vec::new();
    for ll in examples() {
        let name = ll.file_stem().unwrap().to_string_lossy().into_owned();
        let module = patchmap::ir::parse_file(&ll).unwrap_or_else(|e| panic!("{e}"));
        let types = checker::live_types(&module).unwrap();
        let plain = support::llc_object(&llc, &ll, arch, "2", dir.path())
            .and_then(|obj| tc.link_and_run(&obj, dir.path(), &format!("{name}-plain")));
        let plain = match plain {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{name}: plain run: {e}"));
                continue;
            }
        };
        let mut first: Option<(String, Normal)> = None;
        for (opt, version) in [("2", 3), ("0", 3), ("2", 1), ("2", 2)] {
            let run = checked_run(&llc, &tc, dir.path(), &ll, opt, version, &plain)
                .and_then(|report| normalized(&report, &types));
            match (run, &first) {
                (Err(e), _) => failures.push(e),
                (Ok(values), None) => first = Some((format!("-O{opt} v{version}"), values)),
                (Ok(values), Some((label, reference))) if values != *reference => failures.push(format!(
                    "{name} on {arch:?}: -O{opt} v{version} normalized values differ from {label}:\n{values:?}\n{reference:?}"
                )),
                _ => {}
            }
        }
        if let Some((_, values)) = first {
            results.push((name, values));
        }
    }
    assert!(failures.is_empty(), "{} failures on {arch:?}:\n{}", failures.len(), failures.join("\n"));
    Some(results)
}

#[test]
fn checker_reads_llc19_stack_maps_on_x86_64() {
    check_arch(Arch::X86_64);
}

#[test]
fn checker_reads_llc19_stack_maps_on_aarch64() {
    check_arch(Arch::Aarch64);
}

/// Normalized by IR type, the values llc-19's stack maps give are the same on both targets.
#[test]
fn llc19_values_agree_between_targets() {
    let (Some(x86), Some(arm)) = (check_arch(Arch::X86_64), check_arch(Arch::Aarch64)) else { return };
    for ((name, a), (_, b)) in x86.iter().zip(&arm) {
        assert_eq!(a, b, "{name}: x86-64 and AArch64 normalized values differ");
    }
}

/// The checker can fail: moving one register location of llc-19's map to another register, or one
/// spill slot by 8 bytes, is caught by the truth check.
#[test]
fn checker_catches_a_wrong_location() {
    for arch in Arch::ALL {
        let (Some(llc), Some(tc)) = (support::tool("llc-19"), support::toolchain(arch)) else { return };
        let dir = tempfile::tempdir().unwrap();
        let ll = Path::new(env!("CARGO_MANIFEST_DIR")).join("ir-examples/sm_spill_many.ll");
        let object = support::llc_object(&llc, &ll, arch, "2", dir.path()).unwrap();
        let plain = tc.link_and_run(&object, dir.path(), "plain").unwrap();
        let (models, endian) = object_file::read_models(&object).unwrap();
        assert_eq!(endian, Endian::Little);
        let original = models[0].write(Version::V3, endian).unwrap();
        let at = object.windows(original.len()).position(|w| w == original).expect("section bytes in the object");
        for kind in [patchmap::stackmap::LocationKind::Register, patchmap::stackmap::LocationKind::Indirect] {
            let mut model = models[0].clone();
            let loc = model
                .records
                .iter_mut()
                .flat_map(|r| r.locations.iter_mut())
                .find(|l| l.kind == kind)
                .unwrap_or_else(|| panic!("no {kind:?} location on {arch:?}"));
            match kind {
                patchmap::stackmap::LocationKind::Register => loc.dwarf_reg = if loc.dwarf_reg == 3 { 12 } else { 3 },
                _ => loc.offset -= 8,
            }
            let mut broken = object.clone();
            broken[at..at + original.len()].copy_from_slice(&model.write(Version::V3, endian).unwrap());
            let exe = checker::build_checked(&broken, &tc, dir.path(), &format!("broken-{kind:?}")).unwrap();
            let (outcome, report) = checker::run_checked_report(&exe, &tc).unwrap();
            assert_eq!(outcome, plain);
            assert!(
                check_truth(&report, &outcome.stdout).is_err(),
                "a wrong {kind:?} location went unnoticed on {arch:?}"
            );
        }
    }
}

#[test]
fn parses_every_line_kind() {
    let text = "P 7 401000 3\nH 7 3 R:8:ff D:8:7ffc10=2a I:4:11=0@g+8 C:8:ffffffffffffffff\nQ 1\n";
    assert!(checker::parse_report(text).is_err(), "3 announced, 4 given");
    let text = "P 7 401000 4\nH 7 4 R:1:87 D:8:7ffc10=2a I:4:401230=5@g+8 K:8:100000000\nX 7\nQ 1\n";
    let report = checker::parse_report(text).unwrap();
    assert_eq!(report.planted, vec![checker::Planted { id: 7, pc: 0x401000, locations: 4 }]);
    assert_eq!(report.capped, vec![7]);
    let v: &[LocationValue] = &report.hits[0].values;
    assert_eq!(v[1].stored, Some(0x2a));
    assert_eq!(v[2].symbol, Some(("g".to_string(), 8)));
    let types = [
        LiveType::Int(1),
        LiveType::Ptr { pointee: Some(1), private: false },
        LiveType::Ptr { pointee: Some(4), private: false },
        LiveType::Undef,
    ];
    assert_eq!(
        checker::normalize(v, &types),
        vec![
            Normalized::Bits(1),
            Normalized::Pointee { stored: 0x2a, symbol: None },
            Normalized::Pointee { stored: 5, symbol: Some(("g".into(), 8)) },
            Normalized::Unchecked
        ]
    );
    assert!(checker::parse_report("P 7 401000 1\n").is_err(), "no Q line");
    assert!(checker::parse_report("E cannot read\nQ 0\n").is_err());
}
