//! Whole-process compile time of `patchmap compile` against `llc-19 -O0` and `llc-19 -O2`, on the same
//! files, runs alternating so that machine noise hits all three alike. Prints a table of medians and
//! ratios. Run with `cargo bench --bench compile_vs_llc` (or `scripts/bench-compile.sh`).
//! Besides the table, prints `TABLE|what|ours|theirs|ratio` lines for `scripts/bench-table.sh`.

#[path = "../tests/generator/mod.rs"]
mod generator;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const RUNS: usize = 5;

fn time(cmd: &mut Command) -> Duration {
    let start = Instant::now();
    let status = cmd.status().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let elapsed = start.elapsed();
    assert!(status.success(), "{cmd:?} failed");
    elapsed
}

/// The time to run `command` once on each file.
fn total(files: &[PathBuf], command: impl Fn(&Path) -> Command) -> Duration {
    files.iter().map(|f| time(&mut command(f))).sum()
}

fn median(mut d: Vec<Duration>) -> Duration {
    d.sort();
    d[d.len() / 2]
}

fn main() {
    let Some(llc) = which("llc-19") else {
        println!("skipped: llc-19 not found");
        return;
    };
    let patchmap = PathBuf::from(env!("CARGO_BIN_EXE_patchmap"));
    let dir = std::env::temp_dir().join("patchmap-bench-compile");
    std::fs::create_dir_all(&dir).unwrap();
    let mut inputs: Vec<(String, PathBuf)> = Vec::new();
    for functions in [50, 500] {
        let path = dir.join(format!("generated_{functions}.ll"));
        std::fs::write(&path, generator::large_module(functions)).unwrap();
        inputs.push((format!("generated, {functions} functions"), path));
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

    let out = dir.join("out.o");
    println!(
        "{:<32} {:>12} {:>12} {:>12} {:>10} {:>10}",
        "input", "patchmap", "llc-19 -O0", "llc-19 -O2", "O0/ours", "O2/ours"
    );
    let mut summary = Vec::new();
    let mut report = |name: &str, files: &[PathBuf]| {
        let (mut ours, mut o0, mut o2) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..RUNS {
            ours.push(total(files, |f| {
                let mut c = Command::new(&patchmap);
                c.args(["compile", "--target", "x86_64", "-O", "speed", "-o"]).arg(&out).arg(f);
                c
            }));
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
        let (ours, o0, o2) = (median(ours), median(o0), median(o2));
        let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1e3);
        println!(
            "{:<32} {:>12} {:>12} {:>12} {:>9.1}x {:>9.1}x",
            name,
            ms(ours),
            ms(o0),
            ms(o2),
            o0.as_secs_f64() / ours.as_secs_f64(),
            o2.as_secs_f64() / ours.as_secs_f64()
        );
        for (opt, theirs) in [("-O0", o0), ("-O2", o2)] {
            summary.push(format!(
                "TABLE|compile time vs llc-19 {opt}: {name} (ms)|{:.1}|{:.1}|{:.2}",
                ours.as_secs_f64() * 1e3,
                theirs.as_secs_f64() * 1e3,
                ours.as_secs_f64() / theirs.as_secs_f64()
            ));
        }
    };
    for (name, path) in &inputs {
        report(name, std::slice::from_ref(path));
    }
    report(&format!("ir-examples, no maps ({} files)", without_maps.len()), &without_maps);
    report(&format!("ir-examples sm_/pp_ ({} files)", with_maps.len()), &with_maps);
    println!();
    for line in summary {
        println!("{line}");
    }
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(name)).find(|p| p.is_file())
}
