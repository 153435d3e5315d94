//! Whole-process CPU time (user + system, of the process and all its threads) of `patchmap compile`
//! at `-O speed` and `-O none` against `llc-19 -O0` and `llc-19 -O2`, on the same files, each process
//! pinned to one core (`taskset -c 0` when available), runs alternating so that machine noise hits
//! all alike. Prints a table of the minimum of the runs (other work on the machine only ever adds CPU
//! time: cache and SMT sharing) and ratios. Run with `cargo bench --bench compile_vs_llc` (or
//! `scripts/bench-compile.sh`). Besides the table, prints `TABLE|what|ours|theirs|ratio` lines for
//! `scripts/bench-table.sh`.
//!
//! The inputs: generated modules without and with stack maps, the `ir-examples`, and modules under
//! register pressure (`tests/generator/pressure.rs`: 200 functions keeping 30 values live across two
//! stack maps, patch points or statepoints per loop iteration), where the register allocator's work
//! dominates.
//!
//! `PATCHMAP_BENCH_BASELINE=<another patchmap binary>` times that binary too, in the same alternation,
//! and prints this build against it (before/after figures of a change on the same machine state).
//! Both binaries are timed as fresh copies in the bench's directory (see `fresh_copy`).
//! `PATCHMAP_BENCH_RUNS=<n>` sets the number of runs (default 5).

#[path = "../tests/generator/mod.rs"]
mod generator;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const RUNS: usize = 5;

/// Functions and values live across each point in the register-pressure modules.
const PRESSURE_FUNCTIONS: usize = 200;
const PRESSURE_LIVE: usize = 30;

/// CPU time (user + system) of all waited-for children so far.
fn children_cpu() -> Duration {
    // SAFETY: getrusage writes one `rusage` into the zeroed struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage), 0);
        usage
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// The CPU time of running `cmd` to completion, on one core if `taskset` is there.
fn time(cmd: &mut Command) -> Duration {
    let mut pinned;
    let cmd = match which("taskset") {
        Some(taskset) => {
            pinned = Command::new(taskset);
            pinned.arg("-c").arg("0").arg(cmd.get_program()).args(cmd.get_args());
            &mut pinned
        }
        None => cmd,
    };
    let before = children_cpu();
    let status = cmd.status().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(status.success(), "{cmd:?} failed");
    children_cpu() - before
}

/// The time to run `command` once on each file.
fn total(files: &[PathBuf], command: impl Fn(&Path) -> Command) -> Duration {
    files.iter().map(|f| time(&mut command(f))).sum()
}

fn minimum(d: Vec<Duration>) -> Duration {
    d.into_iter().min().expect("at least one run")
}

fn main() {
    let Some(llc) = which("llc-19") else {
        println!("skipped: llc-19 not found");
        return;
    };
    let dir = std::env::temp_dir().join("patchmap-bench-compile");
    std::fs::create_dir_all(&dir).unwrap();
    let patchmap = fresh_copy(Path::new(env!("CARGO_BIN_EXE_patchmap")), &dir.join("patchmap-this-build"));
    let mut inputs: Vec<(String, PathBuf)> = Vec::new();
    for functions in [50, 500] {
        let path = dir.join(format!("generated_{functions}.ll"));
        std::fs::write(&path, generator::large_module(functions)).unwrap();
        inputs.push((format!("generated, {functions} functions"), path));
    }
    // One statement in five a stack map of up to 16 values in scope.
    let path = dir.join("generated_500_stackmaps.ll");
    let text = generator::large_module_with_stackmaps(500, 20);
    let maps = text.matches("call void (i64, i32, ...) @llvm.experimental.stackmap(").count();
    std::fs::write(&path, text).unwrap();
    inputs.push((format!("generated, 500 functions, {maps} stack maps"), path));
    for points in generator::pressure::LiveAcross::ALL {
        let path = dir.join(format!("pressure_{}.ll", points.stem()));
        std::fs::write(&path, generator::pressure::module(points, PRESSURE_FUNCTIONS, PRESSURE_LIVE)).unwrap();
        inputs.push((format!("pressure, {PRESSURE_FUNCTIONS} x {PRESSURE_LIVE} live, {}", points.name()), path));
    }
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("ir-examples");
    let mut all_examples: Vec<PathBuf> = std::fs::read_dir(&examples)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .collect();
    all_examples.sort();
    let has_maps = |p: &PathBuf| {
        let name = p.file_name().unwrap().to_string_lossy();
        name.starts_with("sm_") || name.starts_with("pp_")
    };
    let (with_maps, without_maps): (Vec<PathBuf>, Vec<PathBuf>) = all_examples.into_iter().partition(has_maps);

    let baseline =
        std::env::var_os("PATCHMAP_BENCH_BASELINE").map(|b| fresh_copy(Path::new(&b), &dir.join("patchmap-baseline")));
    let runs = std::env::var("PATCHMAP_BENCH_RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(RUNS).max(1);
    let out = dir.join("out.o");
    let compile = |binary: &Path, opt: &str, f: &Path| {
        let mut c = Command::new(binary);
        c.args(["compile", "--target", "x86_64", "-O", opt, "-o"]).arg(&out).arg(f);
        c
    };
    println!("CPU time, one core, minimum of {runs} runs");
    println!(
        "{:<52} {:>10} {:>10} {:>10} {:>10} {:>8} {:>8} {:>8}",
        "input", "ours speed", "ours none", "llc -O0", "llc -O2", "sp/O0", "none/O0", "sp/O2"
    );
    let mut summary = Vec::new();
    let mut against_baseline = Vec::new();
    let mut report = |name: &str, files: &[PathBuf]| {
        let (mut ours, mut none, mut o0, mut o2) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let (mut base_speed, mut base_none) = (Vec::new(), Vec::new());
        for _ in 0..runs {
            for (opt, times) in [("speed", &mut ours), ("none", &mut none)] {
                times.push(total(files, |f| compile(&patchmap, opt, f)));
            }
            if let Some(baseline) = &baseline {
                for (opt, times) in [("speed", &mut base_speed), ("none", &mut base_none)] {
                    times.push(total(files, |f| compile(baseline, opt, f)));
                }
            }
            for (opt, times) in [("-O0", &mut o0), ("-O2", &mut o2)] {
                times.push(total(files, |f| {
                    let mut c = Command::new(&llc);
                    // llc-19's patch point liveness crashes on some inputs (tests/support/mod.rs, `llc_object`).
                    if std::fs::read_to_string(f).is_ok_and(|t| t.contains("@llvm.experimental.patchpoint")) {
                        c.arg("-enable-patchpoint-liveness=false");
                    }
                    c.args([opt, "-filetype=obj", "-mtriple=x86_64-unknown-linux-gnu", "-o"]).arg(&out).arg(f);
                    c
                }));
            }
        }
        let (ours, none, o0, o2) = (minimum(ours), minimum(none), minimum(o0), minimum(o2));
        let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1e3);
        let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
        if baseline.is_some() {
            let (base_speed, base_none) = (minimum(base_speed), minimum(base_none));
            against_baseline.push(format!(
                "{name:<52} speed {} -> {} ({:.2}x), none {} -> {} ({:.2}x)",
                ms(base_speed),
                ms(ours),
                ratio(ours, base_speed),
                ms(base_none),
                ms(none),
                ratio(none, base_none)
            ));
        }
        println!(
            "{:<52} {:>10} {:>10} {:>10} {:>10} {:>7.2}x {:>7.2}x {:>7.2}x",
            name,
            ms(ours),
            ms(none),
            ms(o0),
            ms(o2),
            ratio(ours, o0),
            ratio(none, o0),
            ratio(ours, o2)
        );
        for (ours_opt, ours, opt, theirs) in
            [("speed", ours, "-O0", o0), ("none", none, "-O0", o0), ("speed", ours, "-O2", o2)]
        {
            summary.push(format!(
                "TABLE|compile CPU time, -O {ours_opt} vs llc-19 {opt}: {name} (ms)|{:.1}|{:.1}|{:.2}",
                ours.as_secs_f64() * 1e3,
                theirs.as_secs_f64() * 1e3,
                ratio(ours, theirs)
            ));
        }
    };
    for (name, path) in &inputs {
        report(name, std::slice::from_ref(path));
    }
    report(&format!("ir-examples, no maps ({} files)", without_maps.len()), &without_maps);
    report(&format!("ir-examples sm_/pp_ ({} files)", with_maps.len()), &with_maps);
    if !against_baseline.is_empty() {
        println!("\nThis build against PATCHMAP_BENCH_BASELINE (minimum CPU time of {runs} alternating runs):");
        for line in against_baseline {
            println!("{line}");
        }
    }
    println!();
    for line in summary {
        println!("{line}");
    }
}

/// A copy of the executable `from` at `to`, written whole now. How a binary's pages sit in the page
/// cache decides what starting it costs: the one the linker has just written took 347 page faults
/// to compile a small file where a copy of it took 291-315 (0.5 ms of 3-4: 6-10% of the
/// `ir-examples` rows, in favour of whichever binary was copied). Timing fresh copies of both
/// binaries compares the compilers, not their files' histories.
fn fresh_copy(from: &Path, to: &Path) -> PathBuf {
    let bytes = std::fs::read(from).unwrap_or_else(|e| panic!("cannot read {}: {e}", from.display()));
    let _ = std::fs::remove_file(to);
    std::fs::write(to, bytes).unwrap_or_else(|e| panic!("cannot write {}: {e}", to.display()));
    let mut permissions = std::fs::metadata(from).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(to, permissions).unwrap();
    to.to_path_buf()
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(name)).find(|p| p.is_file())
}
