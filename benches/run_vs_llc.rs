//! Run time of the code we generate against `llc-19 -O2`'s: each `benches/kernels/*.ll` (a `main` whose hot
//! loop holds stack maps or patch points) compiled by `patchmap compile -O speed` and by llc-19, both linked
//! with `cc -no-pie`, checked to print the same output and exit status, then run alternately. Prints the
//! median times, their ratio and the size of `main` in `.text`. Run with `cargo bench --bench run_vs_llc`.
//!
//! x86-64 hosts only: AArch64 executables would run under qemu-user, whose timings say nothing about the code.
//! Besides the table, prints `TABLE|what|ours|theirs|ratio` lines for `scripts/bench-table.sh`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use object::{Object, ObjectSymbol};

const RUNS: usize = 7;

/// An executable's observable behaviour, which both compilers' builds must share.
#[derive(Debug, PartialEq, Eq)]
struct Behaviour {
    status: Option<i32>,
    stdout: String,
}

fn run(exe: &Path) -> (Duration, Behaviour) {
    let start = Instant::now();
    let Output { status, stdout, .. } =
        Command::new(exe).output().unwrap_or_else(|e| panic!("cannot run {}: {e}", exe.display()));
    let elapsed = start.elapsed();
    (elapsed, Behaviour { status: status.code(), stdout: String::from_utf8_lossy(&stdout).into_owned() })
}

fn check(cmd: &mut Command) {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(out.status.success(), "{cmd:?} failed:\n{}", String::from_utf8_lossy(&out.stderr));
}

fn median(mut d: Vec<Duration>) -> Duration {
    d.sort();
    d[d.len() / 2]
}

/// The size of `main`'s code in an object: the kernel, without the printing helpers.
fn main_size(object: &Path) -> u64 {
    let bytes = std::fs::read(object).unwrap();
    let file = object::File::parse(&*bytes).expect("an object");
    file.symbols().find(|s| s.name() == Ok("main")).map(|s| s.size()).expect("a sized `main` symbol")
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(name)).find(|p| p.is_file())
}

fn main() {
    if std::env::consts::ARCH != "x86_64" {
        println!("skipped: run times are measured on x86-64 hosts only");
        return;
    }
    let (llc, cc) = (which("llc-19"), which("cc"));
    let (Some(llc), Some(cc)) = (llc.clone(), cc) else {
        println!("skipped: {} not found", if llc.is_none() { "llc-19" } else { "cc" });
        return;
    };
    let patchmap = PathBuf::from(env!("CARGO_BIN_EXE_patchmap"));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut kernels: Vec<PathBuf> = std::fs::read_dir(root.join("benches/kernels"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .collect();
    kernels.sort();
    let dir = tempfile::tempdir().unwrap();

    println!("x86-64 only (AArch64 under qemu-user would time the emulator, not the code); {RUNS} runs each, medians");
    println!(
        "{:<20} {:>11} {:>11} {:>9} | {:>10} {:>10}",
        "kernel", "patchmap", "llc-19 -O2", "ours/llc", "main: ours", "main: llc"
    );
    let mut log_ratios = Vec::new();
    let mut summary = Vec::new();
    for kernel in &kernels {
        let name = kernel.file_stem().unwrap().to_string_lossy().into_owned();
        let build = |compiler: &str| -> (PathBuf, PathBuf) {
            let object = dir.path().join(format!("{name}.{compiler}.o"));
            let exe = dir.path().join(format!("{name}.{compiler}"));
            (object, exe)
        };
        let (ours_o, ours_exe) = build("patchmap");
        check(
            Command::new(&patchmap)
                .args(["compile", "--target", "x86_64", "-O", "speed", "-o"])
                .arg(&ours_o)
                .arg(kernel),
        );
        let (llc_o, llc_exe) = build("llc");
        let mut llc_cmd = Command::new(&llc);
        // llc-19's patch point liveness crashes on some inputs (see tests/support/mod.rs, `llc_object`).
        if std::fs::read_to_string(kernel).unwrap().contains("@llvm.experimental.patchpoint") {
            llc_cmd.arg("-enable-patchpoint-liveness=false");
        }
        check(
            llc_cmd
                .args(["-O2", "-filetype=obj", "-relocation-model=pic", "-mtriple=x86_64-unknown-linux-gnu", "-o"])
                .arg(&llc_o)
                .arg(kernel),
        );
        for (object, exe) in [(&ours_o, &ours_exe), (&llc_o, &llc_exe)] {
            // The stack map section's absolute function addresses would be text relocations in a PIE.
            check(Command::new(&cc).arg("-no-pie").arg(object).arg("-o").arg(exe).arg("-lm"));
        }

        let (_, expected) = run(&llc_exe);
        let (_, got) = run(&ours_exe);
        assert_eq!(got, expected, "{name}: patchmap's executable behaves differently from llc-19's");

        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        for _ in 0..RUNS {
            ours.push(run(&ours_exe).0);
            theirs.push(run(&llc_exe).0);
        }
        let (ours, theirs) = (median(ours).as_secs_f64() * 1e3, median(theirs).as_secs_f64() * 1e3);
        let ratio = ours / theirs;
        log_ratios.push(ratio.ln());
        let (size_ours, size_llc) = (main_size(&ours_o), main_size(&llc_o));
        println!("{name:<20} {:>8.1} ms {:>8.1} ms {ratio:>8.2}x | {:>8} B {:>8} B", ours, theirs, size_ours, size_llc);
        summary.push(format!("TABLE|run time: {name} (ms)|{ours:.1}|{theirs:.1}|{ratio:.2}"));
        summary.push(format!(
            "TABLE|code size: {name} main (bytes)|{size_ours}|{size_llc}|{:.2}",
            size_ours as f64 / size_llc as f64
        ));
    }
    if !log_ratios.is_empty() {
        let geomean = (log_ratios.iter().sum::<f64>() / log_ratios.len() as f64).exp();
        println!("geometric mean of ours/llc: {geomean:.2}x (above 1: patchmap's code is slower)");
        summary.push(format!("TABLE|run time: geometric mean of {} kernels|||{geomean:.2}", log_ratios.len()));
    }
    println!();
    for line in summary {
        println!("{line}");
    }
}
