//! A precise, moving collector linked with statepoint programs: `tests/gc_collector/runtime.c` (a
//! Cheney copying collector that finds its roots through the program's own `.llvm_stackmaps`
//! section and libgcc's unwinder) runs the programs `tests/gc_collector/*.ll` (lists, trees, arrays,
//! with recursion, derived pointers, deopt values, `gc.result`s and vectors of GC pointers) compiled by llc-19 and by
//! patchmap, on x86-64 (natively) and AArch64 (qemu-aarch64).
//!
//! Each program runs twice: normally (its heap never fills, so nothing is collected) and with
//! `GC_STRESS=1` (a collection at every allocation and safepoint: every live object moves each
//! time). Both runs must print the checked-in `<program>.expected`, and the stress run's collection
//! count, number of deopt values and their checksum (the runtime's last stderr line) must equal
//! `<program>.stress`, whichever compiler produced the object, so llc-19's and patchmap's programs
//! print the same thing and stop at the same statepoints with the same deopt values. llc-19's -O2
//! objects also run with their section converted to versions 1 and 2 (the collector reads all three),
//! and its -O0 objects run too.

use crate::support;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use object::{Object, ObjectSection, ObjectSymbol, RelocationTarget};
use patchmap::compile::Options;
use support::{Arch, Toolchain};

const PROGRAMS: [&str; 4] = ["gc_list", "gc_tree", "gc_arrays", "gc_vectors"];

fn source(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gc_collector").join(name)
}

fn arch_name(arch: Arch) -> &'static str {
    match arch {
        Arch::X86_64 => "x86_64",
        Arch::Aarch64 => "aarch64",
    }
}

/// What the runtime reports on its last stderr line.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stats {
    collections: u64,
    moved: u64,
    roots: u64,
    deopt_values: u64,
    deopt_checksum: u64,
}

impl Stats {
    /// `gc: C collections, M objects moved, R roots, D deopt values, deopt checksum X`.
    fn parse(stderr: &str) -> Option<Stats> {
        let line = stderr.lines().rev().find(|l| l.starts_with("gc: ") && l.contains(" collections"))?;
        let numbers: Vec<u64> = line
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().ok())
            .collect::<Option<_>>()?;
        match numbers[..] {
            [collections, moved, roots, deopt_values, deopt_checksum] => {
                Some(Stats { collections, moved, roots, deopt_values, deopt_checksum })
            }
            _ => None,
        }
    }

    /// The part that does not depend on the compiler (`<program>.stress`): which statepoints were
    /// reached and what their deopt values were. (Objects moved and roots depend on which values the
    /// compiler keeps live.)
    fn program_part(&self) -> String {
        format!(
            "{} collections, {} deopt values, deopt checksum {}",
            self.collections, self.deopt_values, self.deopt_checksum
        )
    }
}

/// How a run ended.
struct Run {
    status: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Run {
    fn describe(&self) -> String {
        format!("exit status {:?}\n--- stdout\n{}--- stderr\n{}", self.status, self.stdout, self.stderr)
    }
}

/// Runs `exe` (under qemu for AArch64) with `env`, output to files beside it, killed past 60 s.
fn run(toolchain: &Toolchain, exe: &Path, env: &[(&str, &str)]) -> Result<Run, String> {
    let (out_path, err_path) = (exe.with_extension("stdout"), exe.with_extension("stderr"));
    let mut cmd = toolchain.command(exe);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let (out, err) = (File::create(&out_path).unwrap(), File::create(&err_path).unwrap());
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::from(out))
        .stderr(Stdio::from(err))
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("{} ran longer than 60 s", exe.display()));
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    Ok(Run {
        status: status.code(),
        stdout: std::fs::read_to_string(&out_path).unwrap_or_default(),
        stderr: std::fs::read_to_string(&err_path).unwrap_or_default(),
    })
}

/// The runtime compiled for the toolchain's architecture (warnings are errors).
fn runtime_object(toolchain: &Toolchain, dir: &Path) -> PathBuf {
    let out = dir.join(format!("runtime.{}.o", arch_name(toolchain.arch)));
    let (code, _, err) = support::run(
        Command::new(&toolchain.linker)
            .args(["-O1", "-Wall", "-Wextra", "-Werror", "-c"])
            .arg(source("runtime.c"))
            .arg("-o")
            .arg(&out),
    );
    assert_eq!(code, 0, "{} cannot compile runtime.c: {err}", toolchain.linker.display());
    out
}

/// Links the runtime with a program's object: `-no-pie` on x86-64 (the section's function addresses
/// are absolute relocations in read-only data), `-static` on AArch64 (qemu-user).
fn link(toolchain: &Toolchain, runtime: &Path, object: &[u8], dir: &Path, name: &str) -> Result<PathBuf, String> {
    let obj = dir.join(format!("{name}.o"));
    let exe = dir.join(name);
    std::fs::write(&obj, object).map_err(|e| e.to_string())?;
    let mut cc = Command::new(&toolchain.linker);
    cc.arg(runtime).arg(&obj).arg("-o").arg(&exe);
    cc.arg(if toolchain.arch == Arch::Aarch64 { "-static" } else { "-no-pie" });
    let (code, _, err) = support::run(&mut cc);
    if code != 0 {
        return Err(format!("linking {} failed: {err}", exe.display()));
    }
    Ok(exe)
}

/// Runs a linked program normally and under stress; both must print `<program>.expected` and the
/// stress run must reach the statepoints `<program>.stress` lists, moving objects. The stress run's
/// statistics, or everything that went wrong.
fn check_program(toolchain: &Toolchain, exe: &Path, program: &str, what: &str) -> Result<Stats, String> {
    let expected = std::fs::read_to_string(source(&format!("{program}.expected"))).unwrap();
    let expected_stress = std::fs::read_to_string(source(&format!("{program}.stress"))).unwrap();
    let mut problems = Vec::new();
    let normal = run(toolchain, exe, &[])?;
    if normal.status != Some(0) || normal.stdout != expected {
        problems.push(format!(
            "{what}: the run without collections failed or printed something else:\n{}",
            normal.describe()
        ));
    }
    let stress = run(toolchain, exe, &[("GC_STRESS", "1")])?;
    let stats = Stats::parse(&stress.stderr);
    if stress.status != Some(0) || stress.stdout != expected {
        problems.push(format!(
            "{what}: the run collecting at every safepoint failed or printed something else:\n{}",
            stress.describe()
        ));
    }
    match &stats {
        Some(stats) if stats.collections > 0 && stats.moved > 0 && stats.program_part() == expected_stress.trim() => {}
        _ => problems.push(format!(
            "{what}: the stress run's statistics {stats:?} do not match {program}.stress ({})\n{}",
            expected_stress.trim(),
            stress.describe()
        )),
    }
    if problems.is_empty() {
        Ok(stats.unwrap())
    } else {
        Err(problems.join("\n"))
    }
}

/// llc-19's -O2 objects, as they are (section version 3) and converted to versions 1 and 2, and its
/// -O0 objects.
fn llc_objects_collect(arch: Arch) {
    let (Some(llc), Some(toolchain)) = (support::tool("llc-19"), support::toolchain(arch)) else { return };
    let dir = tempfile::tempdir().unwrap();
    let runtime = runtime_object(&toolchain, dir.path());
    let mut failures = Vec::new();
    for program in PROGRAMS {
        let ll = source(&format!("{program}.ll"));
        let o2 = support::llc_object(&llc, &ll, arch, "2", dir.path()).unwrap_or_else(|e| panic!("{e}"));
        let o0 = support::llc_object(&llc, &ll, arch, "0", dir.path()).unwrap_or_else(|e| panic!("{e}"));
        for (opt, version) in [("2", 3u8), ("2", 1), ("2", 2), ("0", 3)] {
            let v3 = if opt == "2" { &o2 } else { &o0 };
            let object = if version == 3 {
                v3.clone()
            } else {
                patchmap::stackmap::object_file::convert(v3, version)
                    .unwrap_or_else(|e| panic!("converting llc-19's {program} object to version {version}: {e}"))
            };
            let name = format!("{program}-llc-O{opt}-v{version}");
            let what = format!("{program} (llc-19 -O{opt}, section version {version}, {arch:?})");
            let result = link(&toolchain, &runtime, &object, dir.path(), &name)
                .and_then(|exe| check_program(&toolchain, &exe, program, &what));
            if let Err(e) = result {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// patchmap's objects: `-O speed` with section versions 1 (the default) and 3, `-O none` with 3.
fn patchmap_objects_collect(arch: Arch) {
    let Some(toolchain) = support::toolchain(arch) else { return };
    let dir = tempfile::tempdir().unwrap();
    let runtime = runtime_object(&toolchain, dir.path());
    let mut failures = Vec::new();
    for program in PROGRAMS {
        for (opt, version) in [("speed", 1u8), ("speed", 3), ("none", 3)] {
            let what = format!("{program} (patchmap -O {opt}, section version {version}, {arch:?})");
            let object = patchmap::ir::parse_file(&source(&format!("{program}.ll")))
                .map_err(|e| e.to_string())
                .and_then(|module| {
                    let options = Options::new(Some(arch.triple()), opt, version).unwrap();
                    patchmap::emit::object::compile(&module, &options).map_err(|e| e.to_string())
                });
            let result = object
                .map_err(|e| format!("{what}: patchmap cannot compile it: {e}"))
                .and_then(|object| {
                    let name = format!("{program}-patchmap-{opt}-v{version}");
                    link(&toolchain, &runtime, &object, dir.path(), &name)
                })
                .and_then(|exe| check_program(&toolchain, &exe, program, &what));
            if let Err(e) = result {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// llc-19 always names its slots from SP (DWARF 7 on x86-64, 31 on AArch64); patchmap's may be named
/// from the frame pointer (DWARF 6 / 29), which the collector reads through `_Unwind_GetGR`. This
/// rewrites every SP-based location of an llc-19 object compiled with `-frame-pointer=all` (section
/// version 3) as the same slot from the frame pointer: `[SP + off]` = `[FP + off - (FP - SP)]`, with
/// FP - SP at the calls found in each function's prologue (which may follow an early exit; x86-64:
/// `push rbp; mov rbp, rsp`, then FP - SP = stack size - 8; AArch64: the first `add x29, sp, #imm`,
/// with no SP adjustment after it).
fn rebase_slots_on_frame_pointer(object: &[u8], arch: Arch) -> Vec<u8> {
    let file = object::File::parse(object).unwrap();
    let section = file.section_by_name(".llvm_stackmaps").expect("no .llvm_stackmaps");
    let (start, size) = section.file_range().unwrap();
    let (start, size) = (start as usize, size as usize);
    let mut bytes = object.to_vec();
    let map = &mut bytes[start..start + size];
    let rd16 = |b: &[u8], at: usize| u16::from_le_bytes(b[at..at + 2].try_into().unwrap());
    let rd32 = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let rd64 = |b: &[u8], at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap());
    assert_eq!(map[0], 3, "llc-19 writes version 3");
    let (nf, nc) = (rd32(map, 4) as usize, rd32(map, 8) as usize);
    let (sp, fp) = match arch {
        Arch::X86_64 => (7u16, 6u16),
        Arch::Aarch64 => (31, 29),
    };
    // Each function's code, through the relocation of its address field.
    let code_of = |i: usize| -> &[u8] {
        let (_, reloc) = section.relocations().find(|(off, _)| *off == (16 + 24 * i) as u64).unwrap();
        let RelocationTarget::Symbol(index) = reloc.target() else { panic!("function {i}: not a symbol") };
        let symbol = file.symbol_by_index(index).unwrap();
        let text = file.section_by_index(symbol.section_index().unwrap()).unwrap().data().unwrap();
        &text[(symbol.address() as i64 + reloc.addend()) as usize..]
    };
    let mut at = 16 + 24 * nf + 8 * nc;
    for f in 0..nf {
        let stack_size = rd64(map, 16 + 24 * f + 8);
        let count = rd64(map, 16 + 24 * f + 16);
        let code = code_of(f);
        let fp_minus_sp: i64 = match arch {
            Arch::X86_64 => {
                let prologue = [0x55, 0x48, 0x89, 0xe5];
                assert!(code[..32].windows(4).any(|w| w == prologue), "function {f}: no push rbp; mov rbp, rsp");
                stack_size as i64 - 8
            }
            Arch::Aarch64 => {
                let insns: Vec<u32> =
                    code.chunks(4).take(12).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
                let set = insns.iter().position(|i| i & 0xffc0_03ff == 0x9100_03fd).expect("add x29, sp, #imm");
                let later_sub = insns[set + 1..].iter().any(|i| i & 0xff80_03ff == 0xd100_03ff);
                assert!(!later_sub, "function {f}: SP moves after x29 is set");
                i64::from((insns[set] >> 10) & 0xfff)
            }
        };
        for _ in 0..count {
            let nlocs = rd16(map, at + 14) as usize;
            for l in 0..nlocs {
                let loc = at + 16 + 12 * l;
                if map[loc] == 3 && rd16(map, loc + 4) == sp {
                    let offset = i64::from(rd32(map, loc + 8) as i32) - fp_minus_sp;
                    map[loc + 4..loc + 6].copy_from_slice(&fp.to_le_bytes());
                    map[loc + 8..loc + 12].copy_from_slice(&(offset as i32).to_le_bytes());
                }
            }
            at = (at + 16 + 12 * nlocs).next_multiple_of(8);
            at = (at + 4 + 4 * rd16(map, at + 2) as usize).next_multiple_of(8);
        }
    }
    bytes
}

/// The collector with frame-pointer-based slots: llc-19's objects with their slots rewritten as
/// [`rebase_slots_on_frame_pointer`] does.
fn frame_pointer_slots_collect(arch: Arch) {
    let (Some(llc), Some(toolchain)) = (support::tool("llc-19"), support::toolchain(arch)) else { return };
    let dir = tempfile::tempdir().unwrap();
    let runtime = runtime_object(&toolchain, dir.path());
    let mut failures = Vec::new();
    for program in PROGRAMS {
        let object = dir.path().join(format!("{program}-fp.o"));
        let (code, _, err) = support::run(
            Command::new(&llc)
                .args(["-O2", "-frame-pointer=all", "-filetype=obj", "-relocation-model=pic"])
                .arg(format!("-mtriple={}", arch.triple()))
                .arg(source(&format!("{program}.ll")))
                .arg("-o")
                .arg(&object),
        );
        assert_eq!(code, 0, "llc-19 -frame-pointer=all failed on {program}: {err}");
        let rebased = rebase_slots_on_frame_pointer(&std::fs::read(&object).unwrap(), arch);
        let what = format!("{program} (llc-19 -O2 -frame-pointer=all, slots from the frame pointer, {arch:?})");
        let result = link(&toolchain, &runtime, &rebased, dir.path(), &format!("{program}-fp"))
            .and_then(|exe| check_program(&toolchain, &exe, program, &what));
        if let Err(e) = result {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn frame_pointer_slots_collect_on_x86_64() {
    frame_pointer_slots_collect(Arch::X86_64);
}

#[test]
fn frame_pointer_slots_collect_on_aarch64() {
    frame_pointer_slots_collect(Arch::Aarch64);
}

#[test]
fn llc19_objects_collect_on_x86_64() {
    llc_objects_collect(Arch::X86_64);
}

#[test]
fn llc19_objects_collect_on_aarch64() {
    llc_objects_collect(Arch::Aarch64);
}

#[test]
fn patchmap_objects_collect_on_x86_64() {
    patchmap_objects_collect(Arch::X86_64);
}

#[test]
fn patchmap_objects_collect_on_aarch64() {
    patchmap_objects_collect(Arch::Aarch64);
}

/// The register roots a stress run relocated ("gc: register roots relocated: N"), 0 if none.
fn register_roots(stderr: &str) -> u64 {
    stderr
        .lines()
        .find_map(|l| l.strip_prefix("gc: register roots relocated: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0)
}

/// patchmap's register lowering (`--max-registers-for-gc-values`, `--use-registers-for-deopt-values`)
/// with the frame-table section: GC pointers live across calls in callee-saved registers, and the
/// collector rewrites them where the frame table says each inner frame saved them (or in the register
/// file its entry captured). Same output and the same stress statistics as llc-19's slot programs,
/// register roots actually relocated, and two mutant collectors caught: one that skips writing back
/// one register root, one that ignores the frames' saved registers.
fn register_roots_collect(arch: Arch) {
    let Some(toolchain) = support::toolchain(arch) else { return };
    let dir = tempfile::tempdir().unwrap();
    let runtime = runtime_object(&toolchain, dir.path());
    let mut failures = Vec::new();
    // Not gc_vectors: its vectors keep their slots, as llc-19's do, so no mutant is caught there.
    for program in PROGRAMS.iter().filter(|&&p| p != "gc_vectors") {
        for (opt, registers) in [("speed", 4u32), ("none", 4), ("speed", 16)] {
            let what = format!("{program} (patchmap -O {opt}, {registers} GC registers, rfc2, {arch:?})");
            let object = patchmap::ir::parse_file(&source(&format!("{program}.ll")))
                .map_err(|e| e.to_string())
                .and_then(|module| {
                    let options = Options::new(Some(arch.triple()), opt, 1)
                        .unwrap()
                        .with_stackmap_version(patchmap::stackmap::Version::FrameTable)
                        .with_max_registers_for_gc_values(registers)
                        .with_registers_for_deopt_values(true);
                    patchmap::emit::object::compile(&module, &options).map_err(|e| e.to_string())
                });
            let name = format!("{program}-registers-{opt}-{registers}");
            let exe = match object
                .map_err(|e| format!("{what}: patchmap cannot compile it: {e}"))
                .and_then(|object| link(&toolchain, &runtime, &object, dir.path(), &name))
            {
                Ok(exe) => exe,
                Err(e) => {
                    failures.push(e);
                    continue;
                }
            };
            if let Err(e) = check_program(&toolchain, &exe, program, &what) {
                failures.push(e);
                continue;
            }
            let stress = run(&toolchain, &exe, &[("GC_STRESS", "1")]).unwrap();
            let relocated = register_roots(&stress.stderr);
            if relocated == 0 {
                failures.push(format!("{what}: no register root was relocated\n{}", stress.describe()));
            }
            if opt != "speed" || registers != 4 {
                continue;
            }
            let expected = std::fs::read_to_string(source(&format!("{program}.expected"))).unwrap();
            for mutant in [("GC_BREAK_REGISTER", "0"), ("GC_IGNORE_FRAME_REGISTERS", "1")] {
                let broken = run(&toolchain, &exe, &[("GC_STRESS", "1"), mutant]).unwrap();
                if broken.status == Some(0) && broken.stdout == expected {
                    failures
                        .push(format!("{what}: the mutant collector {mutant:?} went unnoticed\n{}", broken.describe()));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn register_roots_are_relocated_through_the_frame_table_on_x86_64() {
    register_roots_collect(Arch::X86_64);
}

#[test]
fn register_roots_are_relocated_through_the_frame_table_on_aarch64() {
    register_roots_collect(Arch::Aarch64);
}

/// The check can fail: a collector that leaves one root slot unrelocated (`GC_BREAK=<n>`: the n-th
/// distinct slot of every collection keeps its old value) makes the program abort or print
/// something else, for every slot tried.
#[test]
fn a_missed_relocation_is_noticed() {
    let (Some(llc), Some(toolchain)) = (support::tool("llc-19"), support::toolchain(Arch::X86_64)) else { return };
    let dir = tempfile::tempdir().unwrap();
    let runtime = runtime_object(&toolchain, dir.path());
    let object = support::llc_object(&llc, &source("gc_list.ll"), Arch::X86_64, "2", dir.path()).unwrap();
    let exe = link(&toolchain, &runtime, &object, dir.path(), "gc_list-broken").unwrap();
    let expected = std::fs::read_to_string(source("gc_list.expected")).unwrap();
    let intact = run(&toolchain, &exe, &[("GC_STRESS", "1")]).unwrap();
    assert!(intact.status == Some(0) && intact.stdout == expected, "{}", intact.describe());
    for slot in ["0", "1", "2", "3"] {
        let broken = run(&toolchain, &exe, &[("GC_STRESS", "1"), ("GC_BREAK", slot)]).unwrap();
        assert!(
            broken.status != Some(0) || broken.stdout != expected,
            "skipping the write-back of slot {slot} went unnoticed:\n{}",
            broken.describe()
        );
    }
}
