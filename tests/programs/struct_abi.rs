//! Structs by value across the C ABI: `tests/struct_abi/ours.c` goes through clang-19's IR and
//! patchmap, `theirs.c` through the target's gcc, and the two call each other with structs in
//! registers, split past the last argument register, on the stack, through `byval` copies (x86-64),
//! by reference (AArch64) and through `sret` results. The program must print what it prints when gcc
//! compiles both halves, on x86-64 and on AArch64 (qemu).

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use patchmap::compile::Options;
use support::{Arch, Toolchain};

fn source(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/struct_abi").join(name)
}

/// Links `objects` with the target's gcc and runs the program: its stdout, or why it failed.
fn link_and_run(toolchain: &Toolchain, objects: &[PathBuf], exe: &Path) -> Result<String, String> {
    let mut link = Command::new(&toolchain.linker);
    link.args(objects).arg("-o").arg(exe);
    if toolchain.arch == Arch::Aarch64 {
        link.arg("-static");
    }
    let (code, _, err) = support::run(&mut link);
    if code != 0 {
        return Err(format!("linking failed: {err}"));
    }
    match support::run_with_deadline(&mut toolchain.command(exe), Duration::from_secs(20))? {
        (Some(0), stdout) => Ok(stdout),
        (status, stdout) => Err(format!("exited with {status:?} after printing {stdout:?}")),
    }
}

/// The target's gcc compiling `c` to an object.
fn gcc_object(toolchain: &Toolchain, c: &Path, out: &Path) -> PathBuf {
    let (code, _, err) = support::run(Command::new(&toolchain.linker).arg("-O1").arg("-c").arg(c).arg("-o").arg(out));
    assert_eq!(code, 0, "{} failed on {}: {err}", toolchain.linker.display(), c.display());
    out.to_path_buf()
}

fn struct_abi(arch: Arch) {
    let (Some(clang), Some(toolchain)) = (support::tool("clang-19"), support::toolchain(arch)) else { return };
    let dir = tempfile::tempdir().unwrap();
    let theirs = gcc_object(&toolchain, &source("theirs.c"), &dir.path().join("theirs.o"));
    let reference = gcc_object(&toolchain, &source("ours.c"), &dir.path().join("ours-gcc.o"));
    let expected = link_and_run(&toolchain, &[theirs.clone(), reference], &dir.path().join("gcc-only"))
        .unwrap_or_else(|e| panic!("the gcc-only program: {e}"));

    // No fused multiply-adds or lifetime markers: intrinsics are not what this test is about.
    let ll = dir.path().join("ours.ll");
    let (code, _, err) = support::run(
        Command::new(&clang)
            .arg(format!("--target={}", arch.triple()))
            .args(["-O1", "-ffp-contract=off", "-Xclang", "-disable-lifetime-markers", "-S", "-emit-llvm", "-w"])
            .arg(source("ours.c"))
            .arg("-o")
            .arg(&ll),
    );
    assert_eq!(code, 0, "clang-19 failed: {err}");
    let module = patchmap::ir::parse_file(&ll).unwrap_or_else(|e| panic!("{e}"));
    let options = Options::new(Some(arch.triple()), "speed", 1).unwrap();
    let object = patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{e}"));
    let ours = dir.path().join("ours.o");
    std::fs::write(&ours, object).unwrap();
    let output = link_and_run(&toolchain, &[theirs, ours], &dir.path().join("mixed"))
        .unwrap_or_else(|e| panic!("the program with patchmap's half: {e}"));
    assert_eq!(output, expected, "patchmap's half disagrees with gcc's on {arch:?}");
    assert!(expected.contains("late 18 80"), "the program computes what it should: {expected}");
}

#[test]
fn structs_cross_the_c_abi_on_x86_64() {
    struct_abi(Arch::X86_64);
}

#[test]
fn structs_cross_the_c_abi_on_aarch64() {
    struct_abi(Arch::Aarch64);
}
