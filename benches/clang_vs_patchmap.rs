//! Run time of patchmap's code against clang-19 -O2's on the same IR: every C program of
//! `tests/clang_corpus/`, `tests/real-ir/` and `benches/clang/` is compiled by clang-19 at
//! [`CLANG_FLAGS`] to IR; clang's executable is built from that IR (`clang-19 -O2 x.ll`), patchmap's
//! from `patchmap compile -O speed x.ll` linked by clang-19. Both must print the same output and exit
//! with the same status; then they run alternately, [`ROUNDS`] times each, and the minimum user+sys CPU
//! time of each (`wait4`'s rusage: the whole process, startup included) gives the ratio. Prints a table
//! and the geometric mean of the measured programs' ratios. Run with `cargo bench --bench
//! clang_vs_patchmap` (about 2 minutes); `cargo bench --bench clang_vs_patchmap -- NAME` runs the
//! programs whose name contains NAME, and `PATCHMAP=path/to/patchmap` measures that build instead
//! (another commit's; the generated code does not depend on patchmap's own build profile).
//!
//! Programs too brief to time: a corpus program runs in a millisecond or less, most of it the loader
//! and libc, so its ratio says nothing about the code. Each program is run with a repeat count as its
//! first argument; `benches/clang/*.c` honour it, and the count is chosen so that clang's build spends
//! about [`TARGET`] on the work, measured from a run with a count of 0 (startup alone). A program whose
//! time does not grow with the count (the corpus and real-ir programs ignore their arguments) and that
//! runs under [`TARGET`] is reported as too short, its outputs still compared, and left out of the
//! geometric mean.
//!
//! x86-64 hosts only (AArch64 executables would run under qemu-user, whose timings say nothing about
//! the code). Besides the table, prints `TABLE|what|ours|theirs|ratio` lines for
//! `scripts/bench-table.sh`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// clang-19's flags for the IR both executables are built from. Vectorisation stays off until
/// patchmap lowers vector types.
const CLANG_FLAGS: &[&str] = &["-O2", "-fno-vectorize", "-fno-slp-vectorize"];

/// Alternating runs of each executable.
const ROUNDS: usize = 5;

/// The CPU time clang's executable should take for its ratio to mean something.
const TARGET: Duration = Duration::from_millis(150);

/// The extra time a larger repeat count must cost to show that the program honours it.
const GROWTH: Duration = Duration::from_millis(5);

/// The largest repeat count used.
const MAX_REPEAT: u64 = 1 << 24;

/// What a run printed and how it ended, which both builds must share.
#[derive(Debug, PartialEq, Eq)]
struct Behaviour {
    status: i32,
    stdout: Vec<u8>,
}

/// Runs `exe repeat` and returns its user+sys CPU time and its behaviour.
fn run(exe: &Path, repeat: u64) -> (Duration, Behaviour) {
    let out = tempfile::tempfile().expect("a temporary file");
    let mut child = Command::new(exe)
        .arg(repeat.to_string())
        .stdin(Stdio::null())
        .stdout(out.try_clone().expect("a second handle"))
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", exe.display()));
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `status` and `usage` are valid for writes; the pid is our unwaited child.
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t, "wait4 failed: {}", std::io::Error::last_os_error());
    let _ = child.try_wait();
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    let cpu = time(usage.ru_utime) + time(usage.ru_stime);
    let status = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { 128 + libc::WTERMSIG(status) };
    use std::io::{Read, Seek};
    let mut out = out;
    let mut stdout = Vec::new();
    out.rewind().and_then(|_| out.read_to_end(&mut stdout)).expect("the output read back");
    (cpu, Behaviour { status, stdout })
}

fn check(cmd: &mut Command) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?} failed: {}", String::from_utf8_lossy(&out.stderr).lines().next().unwrap_or_default()))
    }
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(name)).find(|p| p.is_file())
}

fn c_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "c"));
    files.sort();
    files
}

/// Both executables of one program.
struct Build {
    ours: PathBuf,
    clang: PathBuf,
}

fn build(clang: &Path, patchmap: &Path, c: &Path, dir: &Path) -> Result<Build, String> {
    let name = c.file_stem().unwrap().to_string_lossy();
    let ll = dir.join(format!("{name}.ll"));
    let object = dir.join(format!("{name}.o"));
    let (ours, theirs) = (dir.join(format!("{name}.patchmap")), dir.join(format!("{name}.clang")));
    check(Command::new(clang).args(CLANG_FLAGS).args(["-w", "-S", "-emit-llvm", "-o"]).arg(&ll).arg(c))?;
    check(Command::new(clang).args(["-O2", "-w", "-o"]).arg(&theirs).arg(&ll).arg("-lm"))?;
    check(Command::new(patchmap).args(["compile", "-O", "speed", "-o"]).arg(&object).arg(&ll))?;
    check(Command::new(clang).arg("-o").arg(&ours).arg(&object).arg("-lm"))?;
    Ok(Build { ours, clang: theirs })
}

/// The repeat count that makes clang's executable run at least [`TARGET`], or `None` if the program's
/// time does not grow with the count and stays under [`TARGET`]. The loader and libc's start take
/// about half a millisecond, so the growth is measured against a run with a count of 0.
fn calibrate(exe: &Path) -> Option<u64> {
    let least = |repeat: u64| (0..3).map(|_| run(exe, repeat).0).min().unwrap();
    let start = least(0);
    let mut repeat = 16;
    loop {
        let time = least(repeat);
        let work = time.saturating_sub(start);
        if work < GROWTH {
            // The count changed nothing measurable: the program ignores it, or it did not grow yet.
            if repeat >= 1 << 12 || time >= TARGET {
                return (time >= TARGET).then_some(1);
            }
            repeat *= 16;
            continue;
        }
        let scale = TARGET.as_secs_f64() / work.as_secs_f64();
        return Some(((repeat as f64 * scale).ceil() as u64).clamp(1, MAX_REPEAT));
    }
}

fn main() {
    if std::env::consts::ARCH != "x86_64" {
        println!("skipped: run times are measured on x86-64 hosts only");
        return;
    }
    let Some(clang) = which("clang-19") else {
        println!("skipped: clang-19 not found");
        return;
    };
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    // Another build of patchmap (another commit's) may be measured instead of this one.
    let patchmap =
        std::env::var_os("PATCHMAP").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_patchmap")), PathBuf::from);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let programs: Vec<PathBuf> = ["tests/clang_corpus", "tests/real-ir", "benches/clang"]
        .iter()
        .flat_map(|d| c_files(&root.join(d)))
        .filter(|p| filter.as_ref().is_none_or(|f| p.file_stem().unwrap().to_string_lossy().contains(f.as_str())))
        .collect();
    let dir = tempfile::tempdir().unwrap();

    println!(
        "x86-64 only; IR from clang-19 {}; min user+sys of {ROUNDS} alternating runs; too short: under {} ms",
        CLANG_FLAGS.join(" "),
        TARGET.as_millis()
    );
    println!("{:<26} {:>8} {:>11} {:>11} {:>9}", "program", "repeat", "patchmap", "clang -O2", "ours/clang");
    let (mut log_ratios, mut summary, mut short, mut failed) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for c in &programs {
        let name = c.file_stem().unwrap().to_string_lossy().into_owned();
        let build = match build(&clang, &patchmap, c, dir.path()) {
            Ok(build) => build,
            Err(e) => {
                println!("{name:<26} not built: {e}");
                failed.push(name);
                continue;
            }
        };
        let repeat = calibrate(&build.clang);
        let (_, expected) = run(&build.clang, repeat.unwrap_or(1));
        let (_, got) = run(&build.ours, repeat.unwrap_or(1));
        if got != expected {
            println!(
                "{name:<26} DIFFERENT: patchmap's exits {} with {:?}, clang's {} with {:?}",
                got.status,
                String::from_utf8_lossy(&got.stdout),
                expected.status,
                String::from_utf8_lossy(&expected.stdout)
            );
            failed.push(name);
            continue;
        }
        let Some(repeat) = repeat else {
            let time = run(&build.clang, 1).0;
            println!("{name:<26} {:>8} {:>11} {:>8.2} ms {:>9}", "-", "-", time.as_secs_f64() * 1e3, "too short");
            short.push(name);
            continue;
        };
        let (mut ours, mut theirs) = (Duration::MAX, Duration::MAX);
        for _ in 0..ROUNDS {
            ours = ours.min(run(&build.ours, repeat).0);
            theirs = theirs.min(run(&build.clang, repeat).0);
        }
        let (ours, theirs) = (ours.as_secs_f64() * 1e3, theirs.as_secs_f64() * 1e3);
        let ratio = ours / theirs;
        log_ratios.push(ratio.ln());
        println!("{name:<26} {repeat:>8} {ours:>8.1} ms {theirs:>8.1} ms {ratio:>8.2}x");
        summary.push(format!("TABLE|run time vs clang -O2: {name} (ms)|{ours:.1}|{theirs:.1}|{ratio:.2}"));
    }
    if !log_ratios.is_empty() {
        let geomean = (log_ratios.iter().sum::<f64>() / log_ratios.len() as f64).exp();
        println!(
            "geometric mean of ours/clang over {} programs: {geomean:.2}x (above 1: patchmap's code is slower)",
            log_ratios.len()
        );
        summary.push(format!(
            "TABLE|run time vs clang -O2: geometric mean of {} programs|||{geomean:.2}",
            log_ratios.len()
        ));
    }
    println!("too short to time ({}): {}", short.len(), short.join(" "));
    if !failed.is_empty() {
        println!("not compared ({}): {}", failed.len(), failed.join(" "));
    }
    println!();
    for line in summary {
        println!("{line}");
    }
}
