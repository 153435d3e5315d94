//! Patch points in linked programs, on x86-64 (natively) and AArch64 (qemu-aarch64): a null-target
//! region rewritten at start-up with a call to a C handler (the checker harness's patch mode, as a
//! runtime would patch it) receives the arguments and returns a result the program then uses; and an
//! unpatched region whose target is a symbol calls it (llc-19 emits a garbage address there on AArch64).

use crate::support;

use patchmap::compile::Options;
use support::{checker, Arch};

const PATCHED: &str = "declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)
declare i32 @putchar(i32)
@six = global i64 6
define i32 @main() {
entry:
  %x = load volatile i64, ptr @six
  %y = add i64 %x, 1
  %r = call i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 9, i32 20, ptr null, i32 2, i64 %x, i64 %y, i64 %y)
  %q = sub i64 %r, %y
  %c = trunc i64 %q to i32
  %m = and i32 %c, 127
  ret i32 %m
}
";

const SYMBOL: &str = "declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)
@six = global i64 6
define i64 @callee(i64 %a, i64 %b) {
  %p = mul i64 %a, %b
  ret i64 %p
}
define i32 @main() {
entry:
  %x = load volatile i64, ptr @six
  %r = call i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 3, i32 15, ptr @callee, i32 2, i64 %x, i64 5)
  %c = trunc i64 %r to i32
  ret i32 %c
}
";

fn build(text: &str, arch: Arch, name: &str, dir: &std::path::Path, tc: &support::Toolchain) -> std::path::PathBuf {
    let module = patchmap::ir::parse(name, text).unwrap();
    let object =
        patchmap::emit::object::compile(&module, &Options::new(Some(arch.triple()), "speed", 3).unwrap()).unwrap();
    checker::build_checked(&object, tc, dir, &format!("{name}-{arch:?}")).unwrap()
}

fn run(exe: &std::path::Path, tc: &support::Toolchain, patch: Option<&str>) -> (Option<i32>, String) {
    let mut cmd = tc.command(exe);
    if let Some(spec) = patch {
        cmd.env("PATCHMAP_PATCH", spec);
    }
    let out = cmd.output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_patched_region_calls_the_handler_on_both_targets() {
    for arch in Arch::ALL {
        let Some(tc) = support::toolchain(arch) else { return };
        let dir = tempfile::tempdir().unwrap();
        let exe = build(PATCHED, arch, "patched", dir.path(), &tc);
        // The handler returns 6 * 7 + 1000; the program subtracts 7: 1035, and exits with 1035 & 127.
        let (status, stderr) = run(&exe, &tc, Some("9:20"));
        assert_eq!(status, Some(1035 & 127), "{arch:?}: {stderr}");
        assert!(stderr.contains("W patched"), "{arch:?}: {stderr}");
    }
}

#[test]
fn an_unpatched_region_calls_its_symbol_target() {
    for arch in Arch::ALL {
        let Some(tc) = support::toolchain(arch) else { return };
        let dir = tempfile::tempdir().unwrap();
        let exe = build(SYMBOL, arch, "symbol", dir.path(), &tc);
        let (status, stderr) = run(&exe, &tc, None);
        assert_eq!(status, Some(30), "{arch:?}: {stderr}");
    }
}
