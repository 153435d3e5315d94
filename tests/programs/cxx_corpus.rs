//! C++ front-end output: every program of `tests/cxx_corpus/` (classes and virtual dispatch,
//! templates, `std::vector`/`std::string`/`std::map`, destructors run while unwinding, exceptions
//! caught by base class, rethrown, nested), compiled by clang++-19 to IR at the levels of
//! `clang_corpus` for x86-64 and AArch64, then by patchmap to an object, linked with libstdc++ and
//! run (AArch64 under qemu-aarch64). A program `NAME.cpp` with a `NAME.peer.cpp` beside it is linked
//! with that file as clang++-19 builds it, so exceptions cross between clang's frames and
//! patchmap's both ways. Each case must print and exit as the program clang++-19 builds from the
//! same files, or be refused with a positioned patchmap error; at least 95% must pass.

use crate::clang_corpus::{arch_name, clang, construct, judge_with_peers, Verdict, LEVELS};
use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use support::{Arch, Outcome, Toolchain};

/// The share of cases that must pass.
const REQUIRED_PASS_RATE: f64 = 0.95;

fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cxx_corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "cpp") && !p.to_string_lossy().ends_with(".peer.cpp"));
    files.sort();
    files
}

/// The program's peer built by clang++-19 for the toolchain's target, if it has one.
fn peer(clangxx: &Path, toolchain: &Toolchain, cpp: &Path, dir: &Path) -> Result<Option<Vec<u8>>, String> {
    let source = cpp.with_extension("peer.cpp");
    if !source.exists() {
        return Ok(None);
    }
    let stem = cpp.file_stem().unwrap().to_string_lossy();
    let obj = dir.join(format!("{stem}-{}-peer.o", arch_name(toolchain.arch)));
    clang(clangxx, &source, toolchain.arch, &["-O1"], &["-c"], &obj)?;
    std::fs::read(&obj).map(Some).map_err(|e| e.to_string())
}

/// clang++-19's own program (with the peer), run: the reference.
fn reference(
    clangxx: &Path,
    toolchain: &Toolchain,
    cpp: &Path,
    peers: &[&[u8]],
    dir: &Path,
) -> Result<Outcome, String> {
    let name = format!("{}-{}-clang", cpp.file_stem().unwrap().to_string_lossy(), arch_name(toolchain.arch));
    let obj = dir.join(format!("{name}.o"));
    clang(clangxx, cpp, toolchain.arch, &["-O1"], &["-c"], &obj)?;
    let own = std::fs::read(&obj).map_err(|e| e.to_string())?;
    let objects: Vec<&[u8]> = std::iter::once(own.as_slice()).chain(peers.iter().copied()).collect();
    toolchain.link_all_and_run(&objects, dir, &name)
}

#[test]
fn cxx_corpus_compiles_links_and_runs_as_clang_builds_it() {
    let Some(clangxx) = support::tool("clang++-19") else { return };
    let toolchains: Vec<Toolchain> = Arch::ALL.iter().filter_map(|a| support::cxx_toolchain(*a)).collect();
    if toolchains.is_empty() {
        return;
    }
    let programs = corpus();
    assert!(programs.len() >= 12, "expected at least 12 programs in tests/cxx_corpus, found {}", programs.len());
    let dir = tempfile::tempdir().unwrap();
    let jobs: Vec<(&PathBuf, &Toolchain)> =
        programs.iter().flat_map(|p| toolchains.iter().map(move |t| (p, t))).collect();
    let cases = Mutex::new(Vec::new());
    // One job per program and target: its peer and reference once, then its levels.
    let broken = support::failing_seeds(0..jobs.len() as u64, |i| {
        let (cpp, toolchain) = jobs[i as usize];
        let program = cpp.file_stem().unwrap().to_string_lossy().into_owned();
        let peer = peer(&clangxx, toolchain, cpp, dir.path());
        let peers: Vec<&[u8]> = peer.iter().flatten().map(Vec::as_slice).collect();
        let expected = match &peer {
            Ok(_) => reference(&clangxx, toolchain, cpp, &peers, dir.path()),
            Err(e) => Err(e.clone()),
        };
        let mut failures = Vec::new();
        for level in LEVELS {
            let verdict = match &expected {
                Ok(expected) => judge_with_peers(&clangxx, toolchain, cpp, level, expected, dir.path(), &peers),
                Err(e) => Verdict::Broken(format!("reference: {e}")),
            };
            if let Verdict::Broken(e) = &verdict {
                failures.push(format!("{program} {} {}: {e}", level.0, arch_name(toolchain.arch)));
            }
            cases.lock().unwrap().push((program.clone(), level.0, toolchain.arch, verdict));
        }
        if failures.is_empty() {
            Ok(())
        } else {
            Err(failures.join("\n"))
        }
    });
    let mut cases = cases.into_inner().unwrap();
    cases.sort_by(|a, b| (&a.0, a.1, arch_name(a.2)).cmp(&(&b.0, b.1, arch_name(b.2))));
    let mut refusals: BTreeMap<String, usize> = BTreeMap::new();
    for (program, level, arch, verdict) in &cases {
        let result = match verdict {
            Verdict::Pass => "pass".to_string(),
            Verdict::Refused(e) => {
                *refusals.entry(construct(e)).or_default() += 1;
                e.lines().next().unwrap_or_default().to_string()
            }
            Verdict::Broken(e) => e.lines().next().unwrap_or_default().to_string(),
        };
        println!("{program:<24} {level:<4} {:<8} {result}", arch_name(*arch));
    }
    for (message, count) in &refusals {
        println!("  {count:>4}  {message}");
    }
    let passed = cases.iter().filter(|c| matches!(c.3, Verdict::Pass)).count();
    println!("\n{passed} of {} cases pass", cases.len());
    assert!(broken.is_empty(), "cases fail other than with a positioned error:\n{}", broken.join("\n"));
    let rate = passed as f64 / cases.len() as f64;
    assert!(
        rate >= REQUIRED_PASS_RATE,
        "{passed} of {} cases pass ({:.1}%), fewer than {:.0}%",
        cases.len(),
        rate * 100.0,
        REQUIRED_PASS_RATE * 100.0
    );
}

/// The programs without a peer, run in the JIT by `patchmap run` (x86-64 hosts: the JIT runs host
/// code): what they print, their static objects' destructors' output after it (the JIT's code is
/// finalized like a library's when it is dropped), and `main`'s result must be those of the
/// program clang++-19 builds from the same source. Exceptions thrown in JIT code and in libstdc++
/// land in the JIT code's landing pads through the frame tables the JIT registers.
#[test]
fn cxx_corpus_runs_in_the_jit_as_clang_builds_it() {
    if !support::x86_64_host("the JIT runs host code, and the corpus's host runs are x86-64") {
        return;
    }
    let Some(clangxx) = support::tool("clang++-19") else { return };
    let Some(toolchain) = support::cxx_toolchain(Arch::X86_64) else { return };
    let dir = tempfile::tempdir().unwrap();
    let programs: Vec<PathBuf> = corpus().into_iter().filter(|p| !p.with_extension("peer.cpp").exists()).collect();
    assert!(programs.len() >= 9, "expected at least 9 programs without a peer, found {}", programs.len());
    let broken = support::failing_seeds(0..programs.len() as u64, |i| {
        let cpp = &programs[i as usize];
        let stem = cpp.file_stem().unwrap().to_string_lossy().into_owned();
        let expected = reference(&clangxx, &toolchain, cpp, &[], dir.path())?;
        let ll = dir.path().join(format!("{stem}-jit.ll"));
        clang(&clangxx, cpp, Arch::X86_64, &["-O1"], &["-S", "-emit-llvm"], &ll)?;
        for level in ["none", "speed"] {
            let (code, stdout, stderr) = support::run_in_jit(&ll, level);
            if code != 0 {
                return Err(format!("{stem} at {level}: patchmap run failed: {stderr}"));
            }
            // `run` prints main's result after what the program printed; destructors print after it.
            let result = (expected.status & 0xff).to_string();
            let printed: Vec<&str> = stdout.lines().collect();
            let Some(at) = printed.iter().rposition(|l| l.trim() == result) else {
                return Err(format!("{stem} at {level}: no result line {result} in:\n{stdout}"));
            };
            let mut rest: Vec<&str> = printed[..at].to_vec();
            rest.extend(&printed[at + 1..]);
            let wanted: Vec<&str> = expected.stdout.lines().collect();
            if rest != wanted {
                return Err(format!(
                    "{stem} at {level}: printed\n{}\nwhere clang++-19's program printed\n{}",
                    rest.join("\n"),
                    wanted.join("\n")
                ));
            }
        }
        Ok(())
    });
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}
