//! Random valid programs from `tests/generator`, compiled by patchmap and by `llc-19 -O2`, linked and
//! run on x86-64 and on AArch64 under qemu: the same output and exit status, a few hundred per target.
//! `PATCHMAP_GENERATED_PROGRAMS` sets the count per target (default 300); a failure names its seed.

use crate::generator;
use crate::support;

use patchmap::compile::Options;
use support::Arch;

fn count() -> u64 {
    std::env::var("PATCHMAP_GENERATED_PROGRAMS").ok().and_then(|v| v.parse().ok()).unwrap_or(300)
}

fn agree_with_llc19(arch: Arch, first_seed: u64) {
    let (Some(llc), Some(toolchain)) = (support::tool("llc-19"), support::toolchain(arch)) else { return };
    let dir = tempfile::tempdir().unwrap();
    let seeds = first_seed..first_seed + count();
    let failures = support::failing_seeds(seeds.clone(), |seed| check_seed(seed, arch, &llc, &toolchain, dir.path()));
    assert!(
        failures.is_empty(),
        "{} of {} generated programs differ on {arch:?} (reproduce with generator::program(seed)):\n{}",
        failures.len(),
        seeds.end - seeds.start,
        failures.join("\n")
    );
}

fn check_seed(
    seed: u64,
    arch: Arch,
    llc: &std::path::Path,
    toolchain: &support::Toolchain,
    dir: &std::path::Path,
) -> Result<(), String> {
    let text = generator::program(seed);
    let ll = dir.join(format!("gen{seed}.ll"));
    std::fs::write(&ll, &text).map_err(|e| e.to_string())?;
    let reference = support::llc_object(llc, &ll, arch, "2", dir)
        .and_then(|obj| toolchain.link_and_run(&obj, dir, &format!("gen{seed}-llc")))?;
    // Most programs at the default level; every fourth without optimisation.
    let opt = if seed.is_multiple_of(4) { "none" } else { "speed" };
    let module = patchmap::ir::parse(&ll.to_string_lossy(), &text).map_err(|e| e.to_string())?;
    patchmap::ir::verify(&module).map_err(|e| e.to_string())?;
    let options = Options::new(Some(arch.triple()), opt, 1).map_err(|e| e.to_string())?;
    let object = patchmap::emit::object::compile(&module, &options).map_err(|e| e.to_string())?;
    let ours = toolchain.link_and_run(&object, dir, &format!("gen{seed}-ours"))?;
    if ours != reference {
        return Err(format!("-O {opt}: patchmap gave {ours:?}, llc-19 -O2 gave {reference:?}"));
    }
    Ok(())
}

#[test]
fn generated_programs_agree_with_llc19_on_x86_64() {
    agree_with_llc19(Arch::X86_64, 1_000);
}

#[test]
fn generated_programs_agree_with_llc19_on_aarch64() {
    agree_with_llc19(Arch::Aarch64, 2_000_000);
}
