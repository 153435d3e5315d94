//! Random programs from `tests/generator` must mean the same to llc-19 at -O0 and -O2 (x86-64), and on
//! aarch64 under qemu. This checks the generator itself (valid, UB-free, terminating programs) before
//! the programs are used against patchmap: a disagreement here is a generator bug (or an llc bug).

mod generator;
mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const X86: &str = "x86_64-unknown-linux-gnu";
const AARCH64: &str = "aarch64-unknown-linux-gnu";

/// Outcome of one run: exit code (`None` if killed by a signal) and stdout.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    code: Option<i32>,
    stdout: String,
}

/// Runs with a deadline, killing the child past it.
fn run_with_timeout(cmd: &mut Command, limit: Duration) -> Outcome {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("{cmd:?} ran longer than {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().expect("collect output");
    Outcome {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
    }
}

struct Toolchain {
    llc: PathBuf,
    linker: PathBuf,
    /// qemu for aarch64, none for the host.
    runner: Option<PathBuf>,
    triple: &'static str,
}

impl Toolchain {
    /// Compiles `ll` with llc at `opt`, links, runs, and returns the outcome.
    fn build_and_run(&self, dir: &Path, name: &str, ll: &Path, opt: &str) -> Outcome {
        let obj = dir.join(format!("{name}{opt}.o"));
        let exe = dir.join(format!("{name}{opt}"));
        // PIC: cc links a PIE by default, and llc's static model emits absolute jump-table relocations.
        let (code, _, err) = support::run(
            Command::new(&self.llc)
                .args([
                    opt,
                    "-relocation-model=pic",
                    "-filetype=obj",
                    &format!("-mtriple={}", self.triple),
                ])
                .arg(ll)
                .arg("-o")
                .arg(&obj),
        );
        assert_eq!(code, 0, "llc-19 {opt} rejected {}: {err}", ll.display());
        let mut link = Command::new(&self.linker);
        if self.runner.is_some() {
            link.arg("-static");
        }
        let (code, _, err) = support::run(link.arg(&obj).arg("-o").arg(&exe).arg("-lm"));
        assert_eq!(code, 0, "linking {} failed: {err}", obj.display());
        let mut cmd = match &self.runner {
            Some(qemu) => {
                let mut c = Command::new(qemu);
                c.arg(&exe);
                c
            }
            None => Command::new(&exe),
        };
        run_with_timeout(&mut cmd, Duration::from_secs(20))
    }
}

/// Checks one seed: the -O0 and -O2 runs agree, end normally, and the status is the printed checksum's
/// low 7 bits. Returns the -O2 outcome.
fn check_seed(tc: &Toolchain, dir: &Path, seed: u64) -> Outcome {
    let name = format!("gen{seed}_{}", tc.triple.split('-').next().unwrap());
    let ll = dir.join(format!("{name}.ll"));
    std::fs::write(&ll, generator::program(seed)).unwrap();
    let o0 = tc.build_and_run(dir, &name, &ll, "-O0");
    let o2 = tc.build_and_run(dir, &name, &ll, "-O2");
    assert_eq!(
        o0, o2,
        "seed {seed} ({}): -O0 and -O2 disagree; generator::program({seed}) reproduces it",
        tc.triple
    );
    let checksum: u64 = o2.stdout.trim_end().parse().unwrap_or_else(|_| {
        panic!(
            "seed {seed}: output {:?} is not one decimal number",
            o2.stdout
        )
    });
    assert_eq!(
        o2.code,
        Some((checksum & 0x7f) as i32),
        "seed {seed}: exit status is not checksum & 0x7f"
    );
    o2
}

/// Runs `check` for every seed on two threads, returning outcomes in seed order.
fn for_seeds(seeds: std::ops::Range<u64>, check: impl Fn(u64) -> Outcome + Sync) -> Vec<Outcome> {
    let seeds: Vec<u64> = seeds.collect();
    let mut results: Vec<Option<Outcome>> = (0..seeds.len()).map(|_| None).collect();
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(1, 4);
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
    let (Some(llc), Some(cc)) = (support::tool("llc-19"), support::tool("cc")) else {
        return;
    };
    let tc = Toolchain {
        llc,
        linker: cc,
        runner: None,
        triple: X86,
    };
    let dir = tempfile::tempdir().unwrap();
    let outcomes = for_seeds(0..50, |seed| check_seed(&tc, dir.path(), seed));
    // Distinct programs should give (almost always) distinct checksums; equal ones hint at dead data flow.
    let mut sums: Vec<&str> = outcomes.iter().map(|o| o.stdout.as_str()).collect();
    sums.sort();
    sums.dedup();
    assert!(
        sums.len() >= 48,
        "only {} distinct checksums over 50 seeds",
        sums.len()
    );
}

#[test]
fn generated_programs_agree_on_aarch64_and_x86_64() {
    let (Some(llc), Some(cc), Some(gcc), Some(qemu)) = (
        support::tool("llc-19"),
        support::tool("cc"),
        support::tool("aarch64-linux-gnu-gcc"),
        support::tool("qemu-aarch64"),
    ) else {
        return;
    };
    let x86 = Toolchain {
        llc: llc.clone(),
        linker: cc,
        runner: None,
        triple: X86,
    };
    let arm = Toolchain {
        llc,
        linker: gcc,
        runner: Some(qemu),
        triple: AARCH64,
    };
    let dir = tempfile::tempdir().unwrap();
    // Seeds 100.. so that this test does not repeat the x86-64 one's programs.
    let pairs = for_seeds(100..120, |seed| {
        let a = check_seed(&arm, dir.path(), seed);
        let x = check_seed(&x86, dir.path(), seed);
        assert_eq!(a, x, "seed {seed}: aarch64 and x86-64 disagree");
        a
    });
    assert_eq!(pairs.len(), 20);
}

#[test]
fn a_seed_reproduces_its_program() {
    assert_eq!(generator::program(7), generator::program(7));
    assert_ne!(generator::program(7), generator::program(8));
    let small = generator::GeneratorConfig {
        functions: 1,
        statements_per_block: 2,
        ..Default::default()
    };
    let big = generator::GeneratorConfig {
        functions: 12,
        statements_per_block: 12,
        ..Default::default()
    };
    let (s, b) = (
        generator::program_with(3, &small),
        generator::program_with(3, &big),
    );
    assert!(
        b.len() > 3 * s.len(),
        "size knobs have no effect: {} vs {} bytes",
        s.len(),
        b.len()
    );
    assert_eq!(
        s.matches("\ndefine ").count(),
        1 + 1 + 1,
        "print_u64, f0 and main"
    );
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
