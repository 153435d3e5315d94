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

/// A function invoking a statepoint of `@f` with `%p` live; `normal` and `pad` are the two edges'
/// bodies after their first line.
fn invoking(normal: &str, pad: &str) -> String {
    format!(
        r#"declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare ptr addrspace(1) @llvm.experimental.gc.result.p1(token)
declare ptr addrspace(1) @f()
declare i32 @__gxx_personality_v0(...)
define ptr addrspace(1) @g(ptr addrspace(1) %p) gc "statepoint-example" personality ptr @__gxx_personality_v0 {{
entry:
  %t = invoke token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(ptr addrspace(1) ()) @f, i32 0, i32 0, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %p) ]
          to label %ok unwind label %lp
ok:
{normal}
lp:
  %pad = landingpad token cleanup
{pad}
}}
"#
    )
}

fn compile_error(text: &str, options: &Options) -> String {
    let module = match patchmap::ir::parse("invoke.ll", text) {
        Ok(module) => module,
        Err(e) => return e.to_string(),
    };
    match patchmap::emit::object::compile(&module, options) {
        Ok(_) => panic!("compiled:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_landing_pad_has_no_gc_result() {
    let text = invoking(
        "  ret ptr addrspace(1) null",
        "  %r = call ptr addrspace(1) @llvm.experimental.gc.result.p1(token %pad)\n  ret ptr addrspace(1) %r",
    );
    let options = Options::new(Some(Arch::X86_64.triple()), "speed", 1).unwrap();
    let e = compile_error(&text, &options);
    assert!(e.starts_with("invoke.ll:14:"), "{e}");
    assert!(e.contains("'gc.result' of a landing pad's token: a call that unwound returned no result"), "{e}");
}

#[test]
fn an_invoke_keeping_pointers_in_registers_is_refused_with_a_position() {
    // %p is relocated on the normal edge only: llc-19 may keep it in a register, which needs an
    // exception edge on the vendored statepoint_call.
    let text = invoking(
        "  %p.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 0, i32 0)\n  ret ptr addrspace(1) %p.r",
        "  ret ptr addrspace(1) null",
    );
    let options = Options::new(Some(Arch::X86_64.triple()), "speed", 1).unwrap().with_max_registers_for_gc_values(1);
    let e = compile_error(&text, &options);
    assert!(
        e.starts_with("invoke.ll:8:3: error: unsupported 'invoke' of a statepoint with values in registers"),
        "{e}"
    );
    // Relocated in the landing pad too, %p stays in its slot (as llc-19 keeps it), and compiles.
    let text = invoking(
        "  %p.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 0, i32 0)\n  ret ptr addrspace(1) %p.r",
        "  %p.l = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %pad, i32 0, i32 0)\n  ret ptr addrspace(1) %p.l",
    );
    let module = patchmap::ir::parse("invoke.ll", &text).unwrap_or_else(|e| panic!("{e}"));
    patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn a_landing_pad_token_names_its_invoke() {
    // The pad's block has two predecessors: its token cannot name one statepoint.
    let text = r#"declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare void @f()
declare i32 @__gxx_personality_v0(...)
define ptr addrspace(1) @g(ptr addrspace(1) %p) gc "statepoint-example" personality ptr @__gxx_personality_v0 {
entry:
  %t = invoke token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @f, i32 0, i32 0, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %p) ]
          to label %again unwind label %lp
again:
  %u = invoke token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @f, i32 0, i32 0, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %p) ]
          to label %ok unwind label %lp
ok:
  ret ptr addrspace(1) null
lp:
  %pad = landingpad token cleanup
  %p.l = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %pad, i32 0, i32 0)
  ret ptr addrspace(1) %p.l
}
"#;
    let options = Options::new(Some(Arch::X86_64.triple()), "speed", 1).unwrap();
    let e = compile_error(text, &options);
    assert!(e.starts_with("invoke.ll:16:72:"), "{e}");
    assert!(e.contains("whose only predecessor ends in an 'invoke' of a statepoint"), "{e}");
}
