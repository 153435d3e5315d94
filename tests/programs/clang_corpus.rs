//! Real front-end output: every C program of `tests/clang_corpus/`, compiled by clang-19 to IR at
//! `-O0`, `-O1`, `-O2 -fno-vectorize -fno-slp-vectorize` and clang's default `-O2` (level `-O2v`:
//! the loop and SLP vectorisers on) for x86-64 and AArch64, then by patchmap
//! to an object (library API), linked with the target's C compiler and run (AArch64 under
//! qemu-aarch64). Each case must print what the program clang-19 builds from the same C prints and
//! exit with the same status, or be refused with a positioned patchmap error (`file:line:col`);
//! a panic, an unpositioned error, a link failure or a different output fails the test, and so does
//! a pass rate under 95%. The table of cases and the failures grouped by message are printed.

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use patchmap::compile::{CompileError, Options};
use support::{Arch, Outcome, Toolchain};

/// The optimisation levels clang runs at, as its flags.
pub(crate) const LEVELS: [(&str, &[&str]); 4] = [
    ("-O0", &["-O0"]),
    ("-O1", &["-O1"]),
    ("-O2", &["-O2", "-fno-vectorize", "-fno-slp-vectorize"]),
    ("-O2v", &["-O2"]),
];

/// The share of cases that must pass.
const REQUIRED_PASS_RATE: f64 = 0.95;

/// How one case ended.
#[derive(Clone, Debug)]
pub(crate) enum Verdict {
    Pass,
    /// Refused with a positioned IR error: allowed, for constructs patchmap does not support yet.
    Refused(String),
    /// Anything else: a panic, an error without position, a link failure, a different output.
    Broken(String),
}

struct Case {
    program: String,
    level: &'static str,
    arch: Arch,
    verdict: Verdict,
}

fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clang_corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "c"));
    files.sort();
    files
}

pub(crate) fn arch_name(arch: Arch) -> &'static str {
    match arch {
        Arch::X86_64 => "x86_64",
        Arch::Aarch64 => "aarch64",
    }
}

/// Runs clang-19 (or clang++-19) on `c` for `arch` with `flags` and more arguments; the error is
/// its stderr.
pub(crate) fn clang(
    clang: &Path,
    c: &Path,
    arch: Arch,
    flags: &[&str],
    rest: &[&str],
    out: &Path,
) -> Result<(), String> {
    let mut cmd = Command::new(clang);
    cmd.arg(format!("--target={}", arch.triple())).arg("-w").args(flags).args(rest).arg(c).arg("-o").arg(out);
    let (code, _, err) = support::run(&mut cmd);
    if code != 0 {
        return Err(format!("clang-19 failed on {}: {err}", c.display()));
    }
    Ok(())
}

/// clang-19's own program for `c` on `arch`, run: the reference.
pub(crate) fn reference(clang_path: &Path, toolchain: &Toolchain, c: &Path, dir: &Path) -> Result<Outcome, String> {
    let name = format!("{}-{}-clang", c.file_stem().unwrap().to_string_lossy(), arch_name(toolchain.arch));
    let obj = dir.join(format!("{name}.o"));
    clang(clang_path, c, toolchain.arch, &["-O1"], &["-c"], &obj)?;
    let bytes = std::fs::read(&obj).map_err(|e| e.to_string())?;
    toolchain.link_and_run(&bytes, dir, &name)
}

/// patchmap's program for `c` at `level` on `arch`, judged against `expected`.
pub(crate) fn judge(
    clang_path: &Path,
    toolchain: &Toolchain,
    c: &Path,
    level: (&str, &[&str]),
    expected: &Outcome,
    dir: &Path,
) -> Verdict {
    judge_with_peers(clang_path, toolchain, c, level, expected, dir, &[])
}

/// [`judge`], the program linked with `peers` too (objects clang built).
pub(crate) fn judge_with_peers(
    clang_path: &Path,
    toolchain: &Toolchain,
    c: &Path,
    level: (&str, &[&str]),
    expected: &Outcome,
    dir: &Path,
    peers: &[&[u8]],
) -> Verdict {
    let arch = toolchain.arch;
    let name = format!("{}{}-{}", c.file_stem().unwrap().to_string_lossy(), level.0, arch_name(arch));
    let ll = dir.join(format!("{name}.ll"));
    if let Err(e) = clang(clang_path, c, arch, level.1, &["-S", "-emit-llvm"], &ll) {
        return Verdict::Broken(e);
    }
    let compiled = std::panic::catch_unwind(|| -> Result<Vec<u8>, Box<CompileError>> {
        let module = patchmap::ir::parse_file(&ll).map_err(|e| Box::new(e.into()))?;
        let options = Options::new(Some(arch.triple()), "speed", 1).map_err(|e| Box::new(e.into()))?;
        patchmap::emit::object::compile(&module, &options).map_err(Box::new)
    });
    let object = match compiled {
        Ok(Ok(object)) => object,
        Ok(Err(e)) if matches!(&*e, CompileError::Ir(ir) if ir.span.line > 0) => {
            return Verdict::Refused(e.to_string())
        }
        Ok(Err(e)) => return Verdict::Broken(format!("error without a position: {e}")),
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            return Verdict::Broken(format!("patchmap panicked: {message}"));
        }
    };
    let objects: Vec<&[u8]> = std::iter::once(object.as_slice()).chain(peers.iter().copied()).collect();
    match toolchain.link_all_and_run(&objects, dir, &name) {
        Ok(outcome) if outcome == *expected => Verdict::Pass,
        Ok(outcome) => Verdict::Broken(format!(
            "exit {} and output {:?}, clang-19's program gave exit {} and {:?}",
            outcome.status, outcome.stdout, expected.status, expected.stdout
        )),
        Err(e) => Verdict::Broken(e),
    }
}

/// An error message with the position and the program's names (but not intrinsics') taken out, to
/// group failures by what construct they name.
pub(crate) fn construct(message: &str) -> String {
    let text = message.split_once(": error: ").map_or(message, |(_, m)| m);
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let intrinsic = c == '@' && chars.clone().take(5).eq("llvm.".chars());
        if (c == '@' || c == '%') && !intrinsic {
            out.push(c);
            out.push('…');
            while chars.peek().is_some_and(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '$' | '-')) {
                chars.next();
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn clang_corpus_compiles_links_and_runs_as_clang_builds_it() {
    let Some(clang_path) = support::tool("clang-19") else { return };
    let toolchains: Vec<Toolchain> = Arch::ALL.iter().filter_map(|a| support::toolchain(*a)).collect();
    if toolchains.is_empty() {
        return;
    }
    let programs = corpus();
    assert!(programs.len() >= 30, "expected at least 30 programs in tests/clang_corpus, found {}", programs.len());
    let dir = tempfile::tempdir().unwrap();

    // One job per program and target: its reference once, then its four levels.
    let jobs: Vec<(&PathBuf, &Toolchain)> =
        programs.iter().flat_map(|p| toolchains.iter().map(move |t| (p, t))).collect();
    let cases = Mutex::new(Vec::new());
    // Every case is judged below, from its verdict: the jobs themselves never fail.
    support::failing_seeds(0..jobs.len() as u64, |i| {
        let (c, toolchain) = jobs[i as usize];
        let program = c.file_stem().unwrap().to_string_lossy().into_owned();
        let expected = reference(&clang_path, toolchain, c, dir.path());
        for level in LEVELS {
            let verdict = match &expected {
                Ok(expected) => judge(&clang_path, toolchain, c, level, expected, dir.path()),
                Err(e) => Verdict::Broken(format!("reference: {e}")),
            };
            let case = Case { program: program.clone(), level: level.0, arch: toolchain.arch, verdict };
            cases.lock().unwrap().push(case);
        }
        Ok(())
    });
    let mut cases = cases.into_inner().unwrap();
    cases.sort_by(|a, b| (&a.program, a.level, arch_name(a.arch)).cmp(&(&b.program, b.level, arch_name(b.arch))));

    println!("{:<24} {:<4} {:<8} result", "program", "level", "target");
    for case in &cases {
        let result = match &case.verdict {
            Verdict::Pass => "pass".to_string(),
            Verdict::Refused(e) | Verdict::Broken(e) => e.lines().next().unwrap_or_default().to_string(),
        };
        println!("{:<24} {:<4} {:<8} {result}", case.program, case.level, arch_name(case.arch));
    }
    let mut by_group: BTreeMap<(&str, &str), (usize, usize)> = BTreeMap::new();
    let mut by_construct: BTreeMap<String, usize> = BTreeMap::new();
    for case in &cases {
        let entry = by_group.entry((case.level, arch_name(case.arch))).or_default();
        entry.1 += 1;
        match &case.verdict {
            Verdict::Pass => entry.0 += 1,
            Verdict::Refused(e) => *by_construct.entry(construct(e)).or_default() += 1,
            Verdict::Broken(_) => {}
        }
    }
    println!("\npassed, by level and target:");
    for ((level, arch), (passed, total)) in &by_group {
        println!("  {level} {arch:<8} {passed}/{total}");
    }
    println!("\nrefusals, by message:");
    let mut constructs: Vec<_> = by_construct.into_iter().collect();
    constructs.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    for (message, count) in &constructs {
        println!("  {count:>4}  {message}");
    }

    let broken: Vec<String> = cases
        .iter()
        .filter_map(|c| match &c.verdict {
            Verdict::Broken(e) => Some(format!("{} {} {}: {e}", c.program, c.level, arch_name(c.arch))),
            _ => None,
        })
        .collect();
    let passed = cases.iter().filter(|c| matches!(c.verdict, Verdict::Pass)).count();
    println!("\n{passed} of {} cases pass", cases.len());
    assert!(
        broken.is_empty(),
        "{} cases fail other than with a positioned error:\n{}",
        broken.len(),
        broken.join("\n")
    );
    let rate = passed as f64 / cases.len() as f64;
    assert!(
        rate >= REQUIRED_PASS_RATE,
        "{passed} of {} cases pass ({:.1}%), fewer than {:.0}%",
        cases.len(),
        rate * 100.0,
        REQUIRED_PASS_RATE * 100.0
    );
}
