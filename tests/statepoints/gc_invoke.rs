//! `invoke` of statepoints under the moving collector: `tests/gc_collector/gc_invoke.ll` holds GC
//! pointers (a derived one among them) across an invoked statepoint of a runtime call that collects
//! and then throws a C++ exception (`thrower.cc`), and reads them back through `gc.relocate`s on the
//! normal edge and in the landing pad. Compiled by llc-19 and by patchmap, linked with the collector
//! (`runtime.c`) by a C++ driver, run on x86-64 natively and on AArch64 under qemu: normally and with
//! a collection at every safepoint (every object moves), both must print `gc_invoke.expected`.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

use patchmap::compile::Options;
use support::{Arch, Toolchain};

fn source(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gc_collector").join(name)
}

/// `source` compiled by the C++ driver (`language`: `c` or `c++`).
fn compile(toolchain: &Toolchain, source: &Path, language: &str, out: &Path) {
    let (code, _, err) = support::run(
        Command::new(&toolchain.linker).args(["-x", language, "-O1", "-c"]).arg(source).arg("-o").arg(out),
    );
    assert_eq!(code, 0, "{} cannot compile {}: {err}", toolchain.linker.display(), source.display());
}

/// Links the collector, the thrower and `object` (`-no-pie` on x86-64: the stack map section's
/// function addresses are absolute; `-static` on AArch64 for qemu-user).
fn link(toolchain: &Toolchain, support_objects: &[PathBuf], object: &[u8], dir: &Path, name: &str) -> PathBuf {
    let obj = dir.join(format!("{name}.o"));
    let exe = dir.join(name);
    std::fs::write(&obj, object).unwrap();
    let mut cc = Command::new(&toolchain.linker);
    cc.args(support_objects).arg(&obj).arg("-o").arg(&exe);
    cc.arg(if toolchain.arch == Arch::Aarch64 { "-static" } else { "-no-pie" });
    let (code, _, err) = support::run(&mut cc);
    assert_eq!(code, 0, "linking {name} failed: {err}");
    exe
}

/// Runs `exe` with `env`: its exit status, stdout and stderr.
fn run(toolchain: &Toolchain, exe: &Path, env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = toolchain.command(exe);
    cmd.env_remove("GC_STRESS").env_remove("GC_BREAK").envs(env.iter().copied());
    support::run(&mut cmd)
}

fn invoked_statepoints_relocate_on_both_edges(arch: Arch) {
    let Some(llc) = support::tool("llc-19") else { return };
    let Some(toolchain) = support::cxx_toolchain(arch) else { return };
    let dir = tempfile::tempdir().unwrap();
    let (runtime, thrower) = (dir.path().join("runtime.o"), dir.path().join("thrower.o"));
    compile(&toolchain, &source("runtime.c"), "c", &runtime);
    compile(&toolchain, &source("thrower.cc"), "c++", &thrower);
    let ll = source("gc_invoke.ll");
    let expected = std::fs::read_to_string(source("gc_invoke.expected")).unwrap();
    let module = patchmap::ir::parse_file(&ll).unwrap_or_else(|e| panic!("{e}"));
    let options = Options::new(Some(arch.triple()), "speed", 1).unwrap();
    let objects = [
        ("llc", support::llc_object(&llc, &ll, arch, "2", dir.path()).unwrap_or_else(|e| panic!("{arch:?}: {e}"))),
        ("patchmap", patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{e}"))),
    ];
    for (compiler, object) in objects {
        let exe = link(&toolchain, &[runtime.clone(), thrower.clone()], &object, dir.path(), compiler);
        let what = format!("{compiler}'s gc_invoke on {arch:?}");
        let (code, stdout, stderr) = run(&toolchain, &exe, &[]);
        assert_eq!((code, stdout.as_str()), (0, expected.as_str()), "{what}: {stderr}");
        assert!(stderr.contains("gc: 0 collections"), "{what}: {stderr}");
        // A collection at gc_alloc (4 calls) and at the thrower's safepoint (2), each moving the
        // live objects before the landing pad reads them.
        let (code, stdout, stderr) = run(&toolchain, &exe, &[("GC_STRESS", "1")]);
        assert_eq!((code, stdout.as_str()), (0, expected.as_str()), "{what} under GC_STRESS: {stderr}");
        assert!(stderr.contains("gc: 6 collections, 6 objects moved"), "{what} under GC_STRESS: {stderr}");
        // The negative control: a root the collector leaves stale is noticed.
        let (code, _, stderr) = run(&toolchain, &exe, &[("GC_STRESS", "1"), ("GC_BREAK", "0")]);
        assert!(code != 0 && stderr.contains("does not point into to-space"), "{what} with GC_BREAK: {stderr}");
    }
}

#[test]
fn invoked_statepoints_relocate_on_both_edges_on_x86_64() {
    invoked_statepoints_relocate_on_both_edges(Arch::X86_64);
}

#[test]
fn invoked_statepoints_relocate_on_both_edges_on_aarch64() {
    invoked_statepoints_relocate_on_both_edges(Arch::Aarch64);
}
