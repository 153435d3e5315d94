//! Live-outs are honest (issue 11): every patch point region is rewritten at run time (the checker
//! harness's `PATCHMAP_CLOBBER` mode) with a jump to a stub that overwrites with garbage every
//! allocatable register its record does not list as a live-out (nor the result's register), then jumps
//! back to the region's end. A program whose records list every register holding a value live after the
//! region prints the same as unpatched. Both targets, C-convention and anyregcc patch points.
//!
//! The negative control clobbers the live-outs too (`PATCHMAP_CLOBBER_LIVE_OUTS=1`): then the output
//! changes, so the stubs do reach values the program needs.

use crate::generator;
use crate::support;

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use patchmap::compile::Options;
use support::{checker, Arch, Outcome, Toolchain};

/// The harness's jump into the stub: x86-64 `jmp rel32` (5 bytes), AArch64 `b` (4).
fn jump_bytes(arch: Arch) -> u64 {
    match arch {
        Arch::X86_64 => 5,
        Arch::Aarch64 => 4,
    }
}

/// `PATCHMAP_CLOBBER`'s spec for every patch point of `text` whose region holds the jump.
fn clobber_spec(text: &str, arch: Arch) -> String {
    let sites: Vec<String> = generator::patchpoint_sites(text)
        .iter()
        .filter(|s| s.bytes >= jump_bytes(arch))
        .map(|s| {
            let result = match (s.ret.as_str(), s.anyreg) {
                ("void", _) => 'v',
                (_, true) => 'a',
                ("float" | "double", false) => 'f',
                _ => 'r',
            };
            format!("{}:{}:{result}", s.id, s.bytes)
        })
        .collect();
    sites.join(",")
}

/// Runs `exe` plainly (the checker, reading every record) and with every region clobbered; returns
/// (plain outcome, clobbered outcome or the error, stub runs).
fn plain_and_clobbered(
    exe: &Path,
    tc: &Toolchain,
    spec: &str,
    live_outs_too: bool,
) -> Result<(Outcome, Result<Outcome, String>, u64), String> {
    let (plain, _) = checker::run_checked_report(exe, tc)?;
    let mut env = vec![("PATCHMAP_CLOBBER", spec)];
    if live_outs_too {
        env.push(("PATCHMAP_CLOBBER_LIVE_OUTS", "1"));
    }
    let (clobbered, runs) = match checker::run_checked_report_with(exe, tc, &env) {
        Ok((outcome, report)) => {
            if !report.warnings.iter().any(|w| w == "clobber stubs installed") {
                return Err(format!("no stubs installed: {:?}", report.warnings));
            }
            let runs = report
                .warnings
                .iter()
                .find_map(|w| w.strip_prefix("stub runs ").and_then(|n| n.parse().ok()))
                .unwrap_or(0);
            (Ok(outcome), runs)
        }
        Err(e) => (Err(e), 0),
    };
    Ok((plain, clobbered, runs))
}

fn compile(text: &str, name: &str, arch: Arch, opt: &str) -> Result<Vec<u8>, String> {
    let module = patchmap::ir::parse(name, text).map_err(|e| e.to_string())?;
    let options = Options::new(Some(arch.triple()), opt, 3).map_err(|e| e.to_string())?;
    patchmap::emit::object::compile(&module, &options).map_err(|e| e.to_string())
}

/// The patch point examples (`ir-examples/pp_*.ll`): same output with every region clobbered, and a
/// different one (or a crash) when the live-outs are clobbered too.
#[test]
fn clobbering_what_is_not_live_out_changes_nothing_in_the_examples() {
    let examples: Vec<_> = support::stackmap_examples()
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("pp_")))
        .collect();
    assert!(examples.len() >= 2, "ir-examples/pp_*.ll");
    for arch in Arch::ALL {
        let Some(tc) = support::toolchain(arch) else { return };
        let dir = tempfile::tempdir().unwrap();
        let mut control_changed = 0;
        for ll in &examples {
            let name = ll.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(ll).unwrap();
            let spec = clobber_spec(&text, arch);
            for opt in ["none", "speed"] {
                let object = compile(&text, &name, arch, opt).unwrap_or_else(|e| panic!("{name} {arch:?}: {e}"));
                let exe = checker::build_checked(&object, &tc, dir.path(), &format!("{name}-{opt}-{arch:?}")).unwrap();
                let (plain, clobbered, runs) = plain_and_clobbered(&exe, &tc, &spec, false).unwrap();
                assert_eq!(
                    clobbered,
                    Ok(plain.clone()),
                    "{name} {arch:?} -O {opt}: clobbered registers not listed live-out"
                );
                assert!(runs > 0, "{name} {arch:?} -O {opt}: no stub ran");
                let (_, control, _) = plain_and_clobbered(&exe, &tc, &spec, true).unwrap();
                control_changed += usize::from(control != Ok(plain));
            }
        }
        assert!(control_changed > 0, "{arch:?}: clobbering the live-outs too changed nothing: the test cannot fail");
    }
}

fn count() -> u64 {
    std::env::var("PATCHMAP_GENERATED_LIVE_OUTS").ok().and_then(|v| v.parse().ok()).unwrap_or(60)
}

fn generated(arch: Arch, first_seed: u64) {
    let Some(tc) = support::toolchain(arch) else { return };
    let dir = tempfile::tempdir().unwrap();
    let n = count();
    let runs = AtomicU64::new(0);
    let start = Instant::now();
    let failures = support::failing_seeds(first_seed..first_seed + n, |seed| {
        let text = generator::program_with(seed, &generator::with_null_patchpoints());
        let opt = if seed % 3 == 0 { "none" } else { "speed" };
        let object = compile(&text, &format!("lo{seed}.ll"), arch, opt)?;
        let exe = checker::build_checked(&object, &tc, dir.path(), &format!("lo{seed}"))?;
        let spec = clobber_spec(&text, arch);
        if spec.is_empty() {
            return Ok(());
        }
        let (plain, clobbered, r) = plain_and_clobbered(&exe, &tc, &spec, false)?;
        runs.fetch_add(r, Ordering::Relaxed);
        if clobbered != Ok(plain.clone()) {
            return Err(format!("-O {opt}: plain {plain:?}, with the clobber stubs {clobbered:?}"));
        }
        Ok(())
    });
    eprintln!("{arch:?}: {n} programs in {:.1?}, {} stub runs", start.elapsed(), runs.load(Ordering::Relaxed));
    assert!(
        failures.is_empty(),
        "{} of {n} programs changed with registers not listed live-out clobbered on {arch:?} (the program is \
         generator::program_with(<seed>, &generator::with_null_patchpoints())):\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(runs.into_inner() >= n, "too few stub runs");
}

#[test]
fn generated_live_outs_are_honest_on_x86_64() {
    generated(Arch::X86_64, 7_000_000);
}

#[test]
fn generated_live_outs_are_honest_on_aarch64() {
    generated(Arch::Aarch64, 8_000_000);
}
