//! `invoke` of statepoints under the moving collector: `tests/gc_collector/gc_invoke.ll` holds GC
//! pointers (a derived one among them) across an invoked statepoint of a runtime call that collects
//! and then throws a C++ exception (`thrower.cc`), and reads them back through `gc.relocate`s on the
//! normal edge and in the landing pad. Compiled by llc-19 and by patchmap, linked with the collector
//! (`runtime.c`) by a C++ driver, run on x86-64 natively and on AArch64 under qemu: normally and with
//! a collection at every safepoint (every object moves), both must print `gc_invoke.expected`.
//!
//! `gc_invoke_registers.ll` is the same with pointers relocated on the normal edge only: patchmap's
//! register lowering (`--max-registers-for-gc-values 4`, the frame-table section the collector
//! needs for register roots) keeps them in callee-saved registers across the invoked statepoint (the
//! vendored `try_statepoint_call`); llc-19's slot lowering of the same IR is the reference.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

use patchmap::compile::Options;
use patchmap::stackmap::{object_file, LocationKind};
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

fn invoked_statepoints_relocate_on_both_edges(arch: Arch, program: &str, registers: u32) {
    let Some(llc) = support::tool("llc-19") else { return };
    let Some(toolchain) = support::cxx_toolchain(arch) else { return };
    let dir = tempfile::tempdir().unwrap();
    let (runtime, thrower) = (dir.path().join("runtime.o"), dir.path().join("thrower.o"));
    compile(&toolchain, &source("runtime.c"), "c", &runtime);
    compile(&toolchain, &source("thrower.cc"), "c++", &thrower);
    let ll = source(&format!("{program}.ll"));
    let expected = std::fs::read_to_string(source(&format!("{program}.expected"))).unwrap();
    let module = patchmap::ir::parse_file(&ll).unwrap_or_else(|e| panic!("{e}"));
    let mut options = Options::new(Some(arch.triple()), "speed", 1).unwrap();
    if registers > 0 {
        options = options
            .with_stackmap_version(patchmap::stackmap::Version::FrameTable)
            .with_max_registers_for_gc_values(registers)
            .with_registers_for_deopt_values(true);
    }
    let ours = patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{e}"));
    if registers > 0 {
        // The invoked statepoint (ID 4) keeps pointers in registers, or this tests nothing new.
        let (maps, _) = object_file::read_models(&ours).unwrap_or_else(|e| panic!("{e}"));
        let map = &maps[0];
        let record = map.records.iter().find(|r| r.id == 4).expect("the invoked statepoint's record");
        assert!(
            record.locations.iter().any(|l| l.kind == LocationKind::Register),
            "{arch:?}: no register in {record:?}"
        );
    }
    let objects = [
        ("llc", support::llc_object(&llc, &ll, arch, "2", dir.path()).unwrap_or_else(|e| panic!("{arch:?}: {e}"))),
        ("patchmap", ours),
    ];
    for (compiler, object) in objects {
        let exe = link(&toolchain, &[runtime.clone(), thrower.clone()], &object, dir.path(), compiler);
        let what = format!("{compiler}'s {program} on {arch:?}");
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
        if compiler == "patchmap" && registers > 0 {
            assert!(stderr_relocated_registers(&toolchain, &exe) > 0, "{what}: no register root relocated");
            // A register root the collector leaves stale is noticed too.
            let (code, stdout, stderr) = run(&toolchain, &exe, &[("GC_STRESS", "1"), ("GC_BREAK_REGISTER", "0")]);
            assert!(code != 0 || stdout != expected, "{what}: GC_BREAK_REGISTER went unnoticed: {stderr}");
        }
    }
}

/// The register roots a stress run of `exe` relocated ("gc: register roots relocated: N").
fn stderr_relocated_registers(toolchain: &Toolchain, exe: &Path) -> u64 {
    let (_, _, stderr) = run(toolchain, exe, &[("GC_STRESS", "1")]);
    stderr
        .lines()
        .find_map(|l| l.strip_prefix("gc: register roots relocated: "))
        .map_or(0, |n| n.trim().parse().unwrap())
}

#[test]
fn invoked_statepoints_relocate_on_both_edges_on_x86_64() {
    invoked_statepoints_relocate_on_both_edges(Arch::X86_64, "gc_invoke", 0);
}

#[test]
fn invoked_statepoints_relocate_on_both_edges_on_aarch64() {
    invoked_statepoints_relocate_on_both_edges(Arch::Aarch64, "gc_invoke", 0);
}

#[test]
fn invoked_statepoints_relocate_registers_on_x86_64() {
    invoked_statepoints_relocate_on_both_edges(Arch::X86_64, "gc_invoke_registers", 4);
}

#[test]
fn invoked_statepoints_relocate_registers_on_aarch64() {
    invoked_statepoints_relocate_on_both_edges(Arch::Aarch64, "gc_invoke_registers", 4);
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

/// The invoked statepoint's record (ID 0) in `object`.
fn invoked_record(object: &[u8]) -> patchmap::stackmap::Record {
    let (maps, _) = object_file::read_models(object).unwrap_or_else(|e| panic!("{e}"));
    maps[0].records.iter().find(|r| r.id == 0).expect("the invoke's record").clone()
}

#[test]
fn an_invoke_keeps_pointers_relocated_on_the_normal_edge_only_in_registers() {
    // %p is relocated on the normal edge only: in a callee-saved register, as llc-19 may keep it.
    let text = invoking(
        "  %p.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 0, i32 0)\n  ret ptr addrspace(1) %p.r",
        "  ret ptr addrspace(1) null",
    );
    for arch in [Arch::X86_64, Arch::Aarch64] {
        let options = Options::new(Some(arch.triple()), "speed", 1).unwrap().with_max_registers_for_gc_values(1);
        let module = patchmap::ir::parse("invoke.ll", &text).unwrap_or_else(|e| panic!("{e}"));
        let object = patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{e}"));
        let kinds: Vec<LocationKind> = invoked_record(&object).locations.iter().map(|l| l.kind).collect();
        assert_eq!(kinds[3..], [LocationKind::Register, LocationKind::Register], "{arch:?}");
    }
    // Relocated in the landing pad too, %p stays in its slot (as llc-19 keeps it).
    let text = invoking(
        "  %p.r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 0, i32 0)\n  ret ptr addrspace(1) %p.r",
        "  %p.l = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %pad, i32 0, i32 0)\n  ret ptr addrspace(1) %p.l",
    );
    let options = Options::new(Some(Arch::X86_64.triple()), "speed", 1).unwrap().with_max_registers_for_gc_values(1);
    let module = patchmap::ir::parse("invoke.ll", &text).unwrap_or_else(|e| panic!("{e}"));
    let object = patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{e}"));
    let kinds: Vec<LocationKind> = invoked_record(&object).locations.iter().map(|l| l.kind).collect();
    assert_eq!(kinds[3..], [LocationKind::Indirect, LocationKind::Indirect]);
}

#[test]
fn an_invoke_with_a_deopt_bundle_is_a_statepoint() {
    // As llc-19: the record (ID 0xABCDEF0F, as for a call with a "deopt" bundle) at the call's
    // return address, its deopt values in frame slots; the exception edge as for any invoke.
    let text = r#"declare i64 @callee(i64)
declare i32 @__gxx_personality_v0(...)
define i64 @f(i64 %a, i64 %b) personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke i64 @callee(i64 %a) [ "deopt"(i64 %a, i64 %b, i32 7) ] to label %ok unwind label %pad
ok:
  %s = add i64 %r, %b
  ret i64 %s
pad:
  %lp = landingpad { ptr, i32 } cleanup
  %t = add i64 %b, 1
  ret i64 %t
}
"#;
    for arch in [Arch::X86_64, Arch::Aarch64] {
        let options = Options::new(Some(arch.triple()), "speed", 1).unwrap();
        let module = patchmap::ir::parse("deopt.ll", text).unwrap_or_else(|e| panic!("{e}"));
        let object = patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{e}"));
        let (maps, _) = object_file::read_models(&object).unwrap_or_else(|e| panic!("{e}"));
        let record = &maps[0].records[0];
        assert_eq!(record.id, 0xABCD_EF0F, "{arch:?}");
        let kinds: Vec<LocationKind> = record.locations.iter().map(|l| l.kind).collect();
        use LocationKind::{Constant, Indirect};
        assert_eq!(kinds, [Constant, Constant, Constant, Indirect, Indirect, Constant], "{arch:?}");
        assert_eq!(record.locations[2].offset, 3, "{arch:?}: three deopt values");
    }
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

/// An `invoke` of a patch point whose target (thrower, below) throws when `%code` is not 0; the
/// landing pad reads values computed before the region (`%y`, `%z`, recorded as live values).
const PATCHPOINT_INVOKE: &str = r#"declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)
declare i64 @maybe_throw(i64)
declare void @print_kv(i64, i64)
declare ptr @__cxa_begin_catch(ptr)
declare void @__cxa_end_catch()
declare i32 @__gxx_personality_v0(...)

define i64 @run(i64 %code, i64 %x) personality ptr @__gxx_personality_v0 {
entry:
  %y = mul i64 %x, 7
  %z = add i64 %x, 11
  %r = invoke i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 7, i32 20, ptr @maybe_throw, i32 1, i64 %code, i64 %y, i64 %z)
          to label %ok unwind label %pad

ok:
  %s = add i64 %r, %y
  call void @print_kv(i64 0, i64 %s)
  ret i64 %z

pad:
  %lp = landingpad { ptr, i32 }
          catch ptr null
  %e = extractvalue { ptr, i32 } %lp, 0
  %c = call ptr @__cxa_begin_catch(ptr %e)
  %thrown = load i64, ptr %c
  call void @__cxa_end_catch()
  %t = mul i64 %thrown, 1000
  %u = add i64 %t, %y
  call void @print_kv(i64 1, i64 %u)
  %neg = sub i64 0, %z
  ret i64 %neg
}
"#;

/// The patch point's target, and the driver.
const PATCHPOINT_DRIVER: &str = r#"#include <cstdio>
extern "C" long run(long code, long x);
extern "C" long maybe_throw(long code) {
    if (code != 0) {
        throw code;
    }
    return 100;
}
extern "C" void print_kv(long key, long value) { std::printf("%ld: %ld\n", key, value); }
int main() {
    long normal = run(0, 5);
    long thrown = run(3, 6);
    std::printf("%ld %ld\n", normal, thrown);
    return 0;
}
"#;

/// A call-site entry of an LSDA: where its encoding starts in the object, and its fields.
struct CallSite {
    at: usize,
    start: u64,
    len: u64,
    pad: u64,
}

/// The call-site entries of `object`'s one LSDA (`.gcc_except_table`, as patchmap writes it:
/// LPStart omitted, ULEB128 call sites).
fn call_sites(object: &[u8]) -> Vec<CallSite> {
    use object::{Object, ObjectSection};
    let file = object::File::parse(object).unwrap();
    let section = file.section_by_name(".gcc_except_table").expect("an LSDA");
    let (base, size) = section.file_range().unwrap();
    let table = &object[base as usize..(base + size) as usize];
    let uleb = |at: &mut usize| {
        let (mut value, mut shift) = (0u64, 0);
        loop {
            let b = table[*at];
            *at += 1;
            value |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                return value;
            }
        }
    };
    assert_eq!(table[0], 0xff, "LPStart omitted");
    let mut at = 2;
    if table[1] != 0xff {
        uleb(&mut at);
    }
    assert_eq!(table[at], 0x01, "ULEB128 call sites");
    at += 1;
    let end = uleb(&mut at) as usize + at;
    let mut sites = Vec::new();
    while at < end {
        let entry = at;
        let (start, len, pad) = (uleb(&mut at), uleb(&mut at), uleb(&mut at));
        uleb(&mut at);
        sites.push(CallSite { at: base as usize + entry, start, len, pad });
    }
    sites
}

/// `object` with its LSDA's call-site entries that have a landing pad narrowed to the last byte
/// before their end, as if the region's call returned there: an unwinder looking up a return
/// address inside the region then finds no entry (and terminates).
fn narrowed_landings(object: &[u8]) -> Vec<u8> {
    let mut out = object.to_vec();
    let mut narrowed = 0;
    for site in call_sites(object).iter().filter(|s| s.pad != 0 && s.len > 1) {
        // One byte each (small functions): rewritten in place.
        assert!(site.start + site.len - 1 < 0x80 && out[site.at] < 0x80 && out[site.at + 1] < 0x80);
        out[site.at] = (site.start + site.len - 1) as u8;
        out[site.at + 1] = 1;
        narrowed += 1;
    }
    assert_eq!(narrowed, 1, "the patch point's entry");
    out
}

#[test]
fn an_invoked_patched_statepoint_lands_from_its_whole_region() {
    // NUMPATCHBYTES = 8: a call a runtime writes at the region's start returns inside it, so the
    // landing's call-site entry covers the region, which ends at the record's offset.
    let text = r#"
declare i32 @__gxx_personality_v0(...)
declare void @callee()
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
define void @f() gc "statepoint-example" personality ptr @__gxx_personality_v0 {
entry:
  %t = invoke token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 8, ptr elementtype(void ()) @callee, i32 0, i32 0, i32 0, i32 0)
          to label %ok unwind label %lp
ok:
  ret void
lp:
  %p = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %p
}
"#;
    for arch in [Arch::X86_64, Arch::Aarch64] {
        let module = patchmap::ir::parse("invoke.ll", text).unwrap_or_else(|e| panic!("{e}"));
        let options = Options::new(Some(arch.triple()), "speed", 1).unwrap();
        let object = patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{e}"));
        let record = invoked_record(&object);
        let landing = call_sites(&object).into_iter().find(|s| s.pad != 0).expect("a landing");
        assert_eq!((landing.start + landing.len, landing.len), (u64::from(record.instruction_offset), 8), "{arch:?}");
    }
}

fn invoked_patch_point_unwinds_to_its_landing_pad(arch: Arch) {
    let Some(llc) = support::tool("llc-19") else { return };
    let Some(toolchain) = support::cxx_toolchain(arch) else { return };
    let dir = tempfile::tempdir().unwrap();
    let (ll, driver) = (dir.path().join("patchpoint_invoke.ll"), dir.path().join("driver.cc"));
    std::fs::write(&ll, PATCHPOINT_INVOKE).unwrap();
    std::fs::write(&driver, PATCHPOINT_DRIVER).unwrap();
    let driver_object = dir.path().join("driver.o");
    compile(&toolchain, &driver, "c++", &driver_object);
    let expected = "0: 135\n1: 3042\n16 -17\n";
    let module = patchmap::ir::parse("patchpoint_invoke.ll", PATCHPOINT_INVOKE).unwrap_or_else(|e| panic!("{e}"));
    let options = Options::new(Some(arch.triple()), "speed", 1).unwrap();
    let ours = patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{e}"));
    let mut objects = vec![("patchmap", ours.clone())];
    // llc-19's AArch64 patch point calls a function target at a garbage address (`mov x16,
    // #0x55a1_0000_0000; movk ...`: its own in-memory address of the function, it seems), so its
    // build is the reference on x86-64 only.
    if arch == Arch::X86_64 {
        let object = support::llc_object(&llc, &ll, arch, "2", dir.path()).unwrap_or_else(|e| panic!("{arch:?}: {e}"));
        objects.push(("llc", object));
    }
    for (compiler, object) in objects {
        let exe = link(&toolchain, std::slice::from_ref(&driver_object), &object, dir.path(), compiler);
        let (code, stdout, stderr) = run(&toolchain, &exe, &[]);
        assert_eq!((code, stdout.as_str()), (0, expected), "{compiler}'s patch point invoke on {arch:?}: {stderr}");
    }
    // The negative control: a landing that covers only the region's last byte misses the call
    // written at the region's start, and the exception escapes.
    let exe = link(&toolchain, &[driver_object], &narrowed_landings(&ours), dir.path(), "narrowed");
    let (code, stdout, _) = run(&toolchain, &exe, &[]);
    assert!(code != 0 && !stdout.contains("1: 3042"), "{arch:?}: the narrowed landing went unnoticed: {code} {stdout}");
}

#[test]
fn invoked_patch_point_unwinds_to_its_landing_pad_on_x86_64() {
    invoked_patch_point_unwinds_to_its_landing_pad(Arch::X86_64);
}

#[test]
fn invoked_patch_point_unwinds_to_its_landing_pad_on_aarch64() {
    invoked_patch_point_unwinds_to_its_landing_pad(Arch::Aarch64);
}

#[test]
fn an_invoked_patch_point_lists_live_outs_as_llc19() {
    // The region ends its block: its live-outs are the successors' live-ins (the landing pad's
    // exception registers among them, SP not) and the pristine registers, as llc-19 lists them.
    let Some(llc) = support::tool("llc-19") else { return };
    let dir = tempfile::tempdir().unwrap();
    let text = r#"declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)
declare i32 @__gxx_personality_v0(...)
define i64 @f(i64 %p1, i64 %p2) personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 2, i32 20, ptr inttoptr (i64 4096 to ptr), i32 1, i64 %p1, i64 %p2)
          to label %ok unwind label %lp
ok:
  ret i64 %r
lp:
  %0 = landingpad { ptr, i32 } catch ptr null
  ret i64 0
}
"#;
    let ll = dir.path().join("invoked_patch_point.ll");
    std::fs::write(&ll, text).unwrap();
    let module = patchmap::ir::parse("invoked_patch_point.ll", text).unwrap_or_else(|e| panic!("{e}"));
    for arch in [Arch::X86_64, Arch::Aarch64] {
        let options = Options::new(Some(arch.triple()), "speed", 1).unwrap();
        let ours = patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{e}"));
        // Not `support::llc_object`, which turns patch point liveness off.
        let out = dir.path().join(format!("{arch:?}.o"));
        let (code, _, err) = support::run(
            Command::new(&llc)
                .args(["-O2", "-filetype=obj", &format!("-mtriple={}", arch.triple())])
                .arg(&ll)
                .arg("-o")
                .arg(&out),
        );
        assert_eq!(code, 0, "llc-19: {err}");
        let theirs = std::fs::read(&out).unwrap();
        let live_outs = |object: &[u8]| {
            let (maps, _) = object_file::read_models(object).unwrap_or_else(|e| panic!("{e}"));
            maps[0].records[0].live_outs.clone()
        };
        let (ours, theirs) = (live_outs(&ours), live_outs(&theirs));
        assert!(ours.iter().any(|l| l.dwarf_reg == 1), "{arch:?}: the selector register: {ours:?}");
        assert_eq!(ours, theirs, "{arch:?}");
    }
}

/// Writes, before `main`, what a runtime writes into a statepoint's patch region: a call of
/// `gc_safepoint_then_throw` (argument already in place) ending at the region's end, where the
/// record is, over the whole 16-byte region. `PATCH_AT` is the region's end, as an offset into
/// `hold`.
const PATCHER: &str = r#"#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>
extern "C" long hold(long, long, long);
extern "C" void gc_safepoint_then_throw(long);
static void write_call() {
    const char *at = std::getenv("PATCH_AT");
    if (!at) return;
    uint8_t *end = (uint8_t *)(void *)&hold + std::strtoul(at, nullptr, 0);
    uint64_t target = (uint64_t)(void *)&gc_safepoint_then_throw;
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t first = ((uintptr_t)end - 32) & ~(uintptr_t)(page - 1);
    if (mprotect((void *)first, 2 * page, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) std::abort();
#if defined(__x86_64__)
    // The whole region, as the nops' boundaries are not known: a 3-byte nop, then
    // movabs $target, %r11; call *%r11 (13 bytes).
    uint8_t *p = end - 13;
    p[-3] = 0x0f; p[-2] = 0x1f; p[-1] = 0x00;
    p[0] = 0x49; p[1] = 0xbb;
    std::memcpy(p + 2, &target, 8);
    p[10] = 0x41; p[11] = 0xff; p[12] = 0xd3;
#else
    // movz x16, #lo; movk x16, #mid, lsl 16; movk x16, #hi, lsl 32; blr x16 (16 bytes)
    uint32_t code[4] = {
        0xd2800010u | (uint32_t)((target & 0xffff) << 5),
        0xf2a00010u | (uint32_t)(((target >> 16) & 0xffff) << 5),
        0xf2c00010u | (uint32_t)(((target >> 32) & 0xffff) << 5),
        0xd63f0200u,
    };
    std::memcpy(end - 16, code, 16);
    __builtin___clear_cache((char *)end - 16, (char *)end);
#endif
}
__attribute__((constructor)) static void patch() { write_call(); }
"#;

/// gc_invoke.ll with the invoked statepoint's call left to a runtime: 16 patch bytes, into which
/// `PATCHER` writes the call. Its collection and throw then happen in a call that returns at the
/// region's end, where the record is, and unwinds through the region to the landing pad.
fn invoked_patched_statepoint_relocates_on_both_edges(arch: Arch) {
    let Some(llc) = support::tool("llc-19") else { return };
    let Some(toolchain) = support::cxx_toolchain(arch) else { return };
    let dir = tempfile::tempdir().unwrap();
    let (runtime, thrower, patcher) =
        (dir.path().join("runtime.o"), dir.path().join("thrower.o"), dir.path().join("patcher.o"));
    compile(&toolchain, &source("runtime.c"), "c", &runtime);
    compile(&toolchain, &source("thrower.cc"), "c++", &thrower);
    let patcher_source = dir.path().join("patcher.cc");
    std::fs::write(&patcher_source, PATCHER).unwrap();
    compile(&toolchain, &patcher_source, "c++", &patcher);
    let text = std::fs::read_to_string(source("gc_invoke.ll")).unwrap();
    let text = text.replace(
        "@llvm.experimental.gc.statepoint.p0(i64 4, i32 0,",
        "@llvm.experimental.gc.statepoint.p0(i64 4, i32 16,",
    );
    let ll = dir.path().join("gc_invoke_patched.ll");
    std::fs::write(&ll, &text).unwrap();
    let expected = std::fs::read_to_string(source("gc_invoke.expected")).unwrap();
    let module = patchmap::ir::parse("gc_invoke_patched.ll", &text).unwrap_or_else(|e| panic!("{e}"));
    let options = Options::new(Some(arch.triple()), "speed", 1).unwrap();
    let objects = [
        ("llc", support::llc_object(&llc, &ll, arch, "2", dir.path()).unwrap_or_else(|e| panic!("{arch:?}: {e}"))),
        ("patchmap", patchmap::emit::object::compile(&module, &options).unwrap_or_else(|e| panic!("{e}"))),
    ];
    for (compiler, object) in objects {
        // The region's end in @hold: the record of ID 4 (function offsets are from @hold's start).
        let (maps, _) = object_file::read_models(&object).unwrap_or_else(|e| panic!("{e}"));
        let at =
            maps[0].records.iter().find(|r| r.id == 4).expect("the invoked statepoint's record").instruction_offset;
        let exe = link(&toolchain, &[runtime.clone(), thrower.clone(), patcher.clone()], &object, dir.path(), compiler);
        let what = format!("{compiler}'s patched gc_invoke on {arch:?}");
        let at = at.to_string();
        let patched = [("PATCH_AT", at.as_str())];
        let (code, stdout, stderr) = run(&toolchain, &exe, &patched);
        assert_eq!((code, stdout.as_str()), (0, expected.as_str()), "{what}: {stderr}");
        let (code, stdout, stderr) = run(&toolchain, &exe, &[patched[0], ("GC_STRESS", "1")]);
        assert_eq!((code, stdout.as_str()), (0, expected.as_str()), "{what} under GC_STRESS: {stderr}");
        assert!(stderr.contains("gc: 6 collections, 6 objects moved"), "{what} under GC_STRESS: {stderr}");
        let (code, _, stderr) = run(&toolchain, &exe, &[patched[0], ("GC_STRESS", "1"), ("GC_BREAK", "0")]);
        assert!(code != 0 && stderr.contains("does not point into to-space"), "{what} with GC_BREAK: {stderr}");
        // Unpatched, nothing collects or throws there: the landing pad is never entered.
        let (code, stdout, stderr) = run(&toolchain, &exe, &[]);
        assert!(code == 0 && !stdout.contains("1: "), "{what} unpatched: {stdout} {stderr}");
    }
}

#[test]
fn invoked_patched_statepoints_relocate_on_both_edges_on_x86_64() {
    invoked_patched_statepoint_relocates_on_both_edges(Arch::X86_64);
}

#[test]
fn invoked_patched_statepoints_relocate_on_both_edges_on_aarch64() {
    invoked_patched_statepoint_relocates_on_both_edges(Arch::Aarch64);
}
