//! Random programs from `tests/generator` must mean the same to llc-19 at -O0 and -O2 (x86-64), and on
//! aarch64 under qemu. This checks the generator itself (valid, UB-free, terminating programs) before
//! the programs are used against patchmap: a disagreement here is a generator bug (or an llc bug).

use crate::generator;
use crate::support;

use std::path::Path;
use std::process::Command;

use support::{Arch, Outcome, Toolchain};

/// Checks one seed: the -O0 and -O2 runs agree, end normally, and the status is the printed checksum's
/// low 7 bits. Returns the -O2 outcome.
fn check_seed(llc: &Path, tc: &Toolchain, dir: &Path, seed: u64) -> Outcome {
    let name = format!("gen{seed}_{:?}", tc.arch);
    let ll = dir.join(format!("{name}.ll"));
    std::fs::write(&ll, generator::program(seed)).unwrap();
    let build_and_run = |opt: &str| {
        support::llc_object(llc, &ll, tc.arch, opt, dir)
            .and_then(|obj| tc.link_and_run(&obj, dir, &format!("{name}-O{opt}")))
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"))
    };
    let o0 = build_and_run("0");
    let o2 = build_and_run("2");
    assert_eq!(o0, o2, "seed {seed} ({:?}): -O0 and -O2 disagree; generator::program({seed}) reproduces it", tc.arch);
    let checksum: u64 = o2
        .stdout
        .trim_end()
        .parse()
        .unwrap_or_else(|_| panic!("seed {seed}: output {:?} is not one decimal number", o2.stdout));
    assert_eq!(o2.status, (checksum & 0x7f) as i32, "seed {seed}: exit status is not checksum & 0x7f");
    o2
}

/// Runs `check` for every seed on two threads, returning outcomes in seed order.
fn for_seeds(seeds: std::ops::Range<u64>, check: impl Fn(u64) -> Outcome + Sync) -> Vec<Outcome> {
    let seeds: Vec<u64> = seeds.collect();
    let mut results: Vec<Option<Outcome>> = (0..seeds.len()).map(|_| None).collect();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 4);
    std::thread::scope(|s| {
        let chunks: Vec<_> = results.chunks_mut(seeds.len().div_ceil(threads)).collect();
        let mut start = 0;
        for chunk in chunks {
            let (check, seeds) = (&check, &seeds);
            let first = start;
            start += chunk.len();
            s.spawn(move || {
                for (k, slot) in chunk.iter_mut().enumerate() {
                    *slot = Some(check(seeds[first + k]));
                }
            });
        }
    });
    results.into_iter().map(Option::unwrap).collect()
}

#[test]
fn generated_programs_agree_at_o0_and_o2_on_x86_64() {
    let (Some(llc), Some(tc)) = (support::tool("llc-19"), support::toolchain(Arch::X86_64)) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let outcomes = for_seeds(0..50, |seed| check_seed(&llc, &tc, dir.path(), seed));
    // Distinct programs should give (almost always) distinct checksums; equal ones hint at dead data flow.
    let mut sums: Vec<&str> = outcomes.iter().map(|o| o.stdout.as_str()).collect();
    sums.sort();
    sums.dedup();
    assert!(sums.len() >= 48, "only {} distinct checksums over 50 seeds", sums.len());
}

#[test]
fn generated_programs_agree_on_aarch64_and_x86_64() {
    let (Some(llc), Some(x86), Some(arm)) =
        (support::tool("llc-19"), support::toolchain(Arch::X86_64), support::toolchain(Arch::Aarch64))
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // Seeds 100.. so that this test does not repeat the x86-64 one's programs.
    let pairs = for_seeds(100..120, |seed| {
        let a = check_seed(&llc, &arm, dir.path(), seed);
        let x = check_seed(&llc, &x86, dir.path(), seed);
        assert_eq!(a, x, "seed {seed}: aarch64 and x86-64 disagree");
        a
    });
    assert_eq!(pairs.len(), 20);
}

#[test]
fn a_seed_reproduces_its_program() {
    assert_eq!(generator::program(7), generator::program(7));
    assert_ne!(generator::program(7), generator::program(8));
    let small = generator::GeneratorConfig { functions: 1, statements_per_block: 2, ..Default::default() };
    let big = generator::GeneratorConfig { functions: 12, statements_per_block: 12, ..Default::default() };
    let (s, b) = (generator::program_with(3, &small), generator::program_with(3, &big));
    assert!(b.len() > 3 * s.len(), "size knobs have no effect: {} vs {} bytes", s.len(), b.len());
    assert_eq!(s.matches("\ndefine ").count(), 1 + 1 + 1, "print_u64, f0 and main");
}

#[test]
fn large_module_is_accepted_by_llc() {
    let Some(llc) = support::tool("llc-19") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("large.ll");
    let text = generator::large_module(2000);
    assert!(text.matches("\ndefine ").count() >= 2000);
    std::fs::write(&ll, &text).unwrap();
    let (code, _, err) = support::run(
        Command::new(llc)
            .args(["-O0", "-filetype=obj", "-mtriple=x86_64-unknown-linux-gnu"])
            .arg(&ll)
            .arg("-o")
            .arg(dir.path().join("large.o")),
    );
    assert_eq!(code, 0, "llc-19 rejected large_module(2000): {err}");
}
