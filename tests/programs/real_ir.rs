//! Real front-end output that needs more than the C corpus's constructs (issue 27: relative
//! lookup tables, static constructors and destructors with priorities, `freeze` of aggregates,
//! computed goto, variadic definitions). `tests/real-ir/*.c`, compiled by clang-19 at -O0, -O1
//! and -O2 for both targets, then by patchmap, must print what clang-19's own program prints: a
//! refusal fails here. On an x86-64 host the reference interpreter runs each program's -O2 IR and
//! prints the same, or refuses it naming what it does not model. `tests/real-ir/programs/*.ll`
//! (hand-written IR) run as llc-19 builds them, in the JIT and in the interpreter too.

use crate::clang_corpus::{arch_name, judge, reference, Verdict, LEVELS};
use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::{Arch, Toolchain};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/real-ir")
}

/// The C programs, sorted.
fn programs() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "c"));
    files.sort();
    files
}

#[test]
fn real_ir_forms_run_as_llc_19_builds_them() {
    let programs = support::ll_files(&dir().join("programs"));
    assert!(!programs.is_empty());
    support::programs_run_as_llc19_builds_them(&programs, 1);
}

/// What the interpreter makes of `ll`, whose native program gave `expected`: `None` when it prints
/// the same, else what went wrong. A refusal must name the construct (`unsupported` or `not
/// supported`, `cannot`, `not defined` in its message) and exit with status 1.
fn interpreted(ll: &Path, expected: &support::Outcome) -> Option<String> {
    let (code, out, err) = support::run(Command::new(support::patchmap_bin()).arg("run").arg("--interpret").arg(ll));
    // `run` prints main's result after the program's own output.
    let wanted = format!("{}{}\n", expected.stdout, expected.status);
    if code == 0 && out == wanted {
        return None;
    }
    if code == 1 && ["not supported", "unsupported", "cannot", "not defined"].iter().any(|w| err.contains(w)) {
        println!("interpreter refuses {}: {}", ll.display(), err.lines().next().unwrap_or_default());
        return None;
    }
    Some(format!("interpreter: exit {code}, output {out:?}, stderr {err:?}; wanted {wanted:?}"))
}

#[test]
fn real_c_programs_run_as_clang_builds_them() {
    let Some(clang_path) = support::tool("clang-19") else { return };
    let toolchains: Vec<Toolchain> = Arch::ALL.iter().filter_map(|a| support::toolchain(*a)).collect();
    let programs = programs();
    assert!(programs.len() >= 3, "expected C programs in tests/real-ir, found {}", programs.len());
    let temp = tempfile::tempdir().unwrap();
    let jobs: Vec<(&PathBuf, &Toolchain)> =
        programs.iter().flat_map(|p| toolchains.iter().map(move |t| (p, t))).collect();
    let passed = std::sync::atomic::AtomicUsize::new(0);
    // One job per program and target: its reference once, then its three levels.
    let failures = support::failing_seeds(0..jobs.len() as u64, |i| {
        let (c, toolchain) = jobs[i as usize];
        let program = c.file_stem().unwrap().to_string_lossy().into_owned();
        let arch = arch_name(toolchain.arch);
        let expected = reference(&clang_path, toolchain, c, temp.path())
            .map_err(|e| format!("{program} {arch}: reference: {e}"))?;
        let mut failures = Vec::new();
        for level in LEVELS {
            let failure = match judge(&clang_path, toolchain, c, level, &expected, temp.path()) {
                Verdict::Pass => {
                    passed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let interpret =
                        level.0 == "-O2" && toolchain.arch == Arch::X86_64 && std::env::consts::ARCH == "x86_64";
                    let ll = temp.path().join(format!("{program}{}-{arch}.ll", level.0));
                    if interpret {
                        interpreted(&ll, &expected)
                    } else {
                        None
                    }
                }
                Verdict::Refused(e) | Verdict::Broken(e) => Some(e),
            };
            if let Some(failure) = failure {
                failures.push(format!("{program} {} {arch}: {failure}", level.0));
            }
        }
        if failures.is_empty() {
            Ok(())
        } else {
            Err(failures.join("\n"))
        }
    });
    println!("{} cases pass", passed.into_inner());
    assert!(failures.is_empty(), "{} cases fail:\n{}", failures.len(), failures.join("\n"));
}
