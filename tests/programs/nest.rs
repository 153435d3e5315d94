//! `nest` as llc-19 takes it: the static chain in R10 on x86-64 and x18 on AArch64, the other
//! arguments where the C convention puts them without it (stack ones included), in ordinary calls,
//! patch points and statepoints. Callees built by llc-19 read the chain; patchmap's callers must
//! compute what llc-19's builds of the same IR compute.

use crate::support;

use support::Arch;

/// Each callee mixes its chain and arguments with distinct weights, so that any of them in the wrong
/// place changes the result. `@many` takes stack arguments on both targets; `@consume` is
/// LLVM's `test_attributes` callee (statepoint-call-lowering.ll) with a body.
const CALLEE: &str = r#"
%struct2 = type { i64, i64, i64 }

define i64 @chain(ptr nest %c, i64 %a, double %d, i64 %b) {
  %ci = ptrtoint ptr %c to i64
  %di = fptosi double %d to i64
  %x = mul i64 %ci, 1000
  %y = add i64 %x, %a
  %z = mul i64 %b, 7
  %w = add i64 %y, %z
  %v = add i64 %w, %di
  ret i64 %v
}

define ptr @chain_only(ptr nest %c) {
  ret ptr %c
}

define i64 @many(i64 %a, ptr nest %c, i64 %b, i64 %d, i64 %e, i64 %f, i64 %g, i64 %h, i64 %i, i64 %j) {
  %ci = ptrtoint ptr %c to i64
  %s0 = mul i64 %ci, 1000000000
  %s1 = add i64 %s0, %a
  %b2 = mul i64 %b, 10
  %s2 = add i64 %s1, %b2
  %d2 = mul i64 %d, 100
  %s3 = add i64 %s2, %d2
  %e2 = mul i64 %e, 1000
  %s4 = add i64 %s3, %e2
  %f2 = mul i64 %f, 10000
  %s5 = add i64 %s4, %f2
  %g2 = mul i64 %g, 100000
  %s6 = add i64 %s5, %g2
  %h2 = mul i64 %h, 1000000
  %s7 = add i64 %s6, %h2
  %i2 = mul i64 %i, 10000000
  %s8 = add i64 %s7, %i2
  %j2 = mul i64 %j, 100000000
  %s9 = add i64 %s8, %j2
  ret i64 %s9
}

define i64 @consume(i32 %x, ptr nest %c, i32 %y, ptr byval(%struct2) %s) {
  %ci = ptrtoint ptr %c to i64
  %xi = sext i32 %x to i64
  %yi = sext i32 %y to i64
  %p1 = getelementptr %struct2, ptr %s, i64 0, i32 1
  %p2 = getelementptr %struct2, ptr %s, i64 0, i32 2
  %f0 = load i64, ptr %s
  %f1 = load i64, ptr %p1
  %f2 = load i64, ptr %p2
  %a = mul i64 %ci, 10000000
  %b = mul i64 %xi, 100000
  %c2 = mul i64 %yi, 1000
  %d = mul i64 %f0, 100
  %e = mul i64 %f1, 10
  %t1 = add i64 %a, %b
  %t2 = add i64 %t1, %c2
  %t3 = add i64 %t2, %d
  %t4 = add i64 %t3, %e
  %t5 = add i64 %t4, %f2
  ret i64 %t5
}
"#;

/// Calls with a chain: direct, through a patch point (a function target), through statepoints
/// (stack arguments; a pointer result).
const CALLER: &str = r#"
declare i64 @chain(ptr nest, i64, double, i64)
declare ptr @chain_only(ptr nest)
declare i64 @many(i64, ptr nest, i64, i64, i64, i64, i64, i64, i64, i64)
declare i32 @printf(ptr, ...)
declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare i64 @llvm.experimental.gc.result.i64(token)
declare ptr @llvm.experimental.gc.result.p0(token)
@fmt = private constant [29 x i8] c"%ld %ld %ld %ld %ld %ld %ld\0A\00"

define i64 @by_patchpoint(ptr %c) {
  %r = call i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 1, i32 20, ptr @chain, i32 4, ptr nest %c, i64 5, double 3.0, i64 11)
  ret i64 %r
}

define i64 @by_statepoint(ptr %c) gc "statepoint-example" {
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 2, i32 0, ptr elementtype(i64 (i64, ptr, i64, i64, i64, i64, i64, i64, i64, i64)) @many, i32 10, i32 0, i64 1, ptr nest %c, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i32 0, i32 0)
  %r = call i64 @llvm.experimental.gc.result.i64(token %t)
  ret i64 %r
}

define ptr @only_by_statepoint(ptr %c) gc "statepoint-example" {
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 3, i32 0, ptr elementtype(ptr (ptr)) @chain_only, i32 1, i32 0, ptr nest %c, i32 0, i32 0)
  %r = call ptr @llvm.experimental.gc.result.p0(token %t)
  ret ptr %r
}

define ptr @only_by_indirect_statepoint(ptr %f, ptr %c) gc "statepoint-example" {
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 5, i32 0, ptr elementtype(ptr (ptr)) %f, i32 1, i32 0, ptr nest %c, i32 0, i32 0)
  %r = call ptr @llvm.experimental.gc.result.p0(token %t)
  ret ptr %r
}

define i32 @main() {
  %p = inttoptr i64 42 to ptr
  %r = call i64 @chain(ptr nest %p, i64 5, double 3.0, i64 11)
  %q = inttoptr i64 1234567 to ptr
  %s = call ptr @chain_only(ptr nest %q)
  %si = ptrtoint ptr %s to i64
  %m = call i64 @many(i64 1, ptr nest %p, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9)
  %pp = call i64 @by_patchpoint(ptr %q)
  %three = inttoptr i64 3 to ptr
  %sp = call i64 @by_statepoint(ptr %three)
  %o = call ptr @only_by_statepoint(ptr %q)
  %oi = ptrtoint ptr %o to i64
  %i = call ptr @only_by_indirect_statepoint(ptr @chain_only, ptr %p)
  %ii = ptrtoint ptr %i to i64
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %r, i64 %si, i64 %m, i64 %pp, i64 %sp, i64 %oi, i64 %ii)
  ret i32 0
}
"#;

/// A statepoint passing the chain and a `byval` copy.
const BYVAL_CALLER: &str = r#"
%struct2 = type { i64, i64, i64 }
declare i64 @consume(i32, ptr nest, i32, ptr byval(%struct2))
declare i32 @printf(ptr, ...)
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare i64 @llvm.experimental.gc.result.i64(token)
@fmt = private constant [9 x i8] c"%ld %ld\0A\00"

define i64 @by_statepoint(ptr %c, ptr byval(%struct2) %s) gc "statepoint-example" {
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 4, i32 0, ptr elementtype(i64 (i32, ptr, i32, ptr)) @consume, i32 4, i32 0, i32 42, ptr nest %c, i32 17, ptr byval(%struct2) %s, i32 0, i32 0)
  %r = call i64 @llvm.experimental.gc.result.i64(token %t)
  ret i64 %r
}

define i32 @main() {
  %s = alloca %struct2
  store i64 1, ptr %s
  %p1 = getelementptr %struct2, ptr %s, i64 0, i32 1
  store i64 2, ptr %p1
  %p2 = getelementptr %struct2, ptr %s, i64 0, i32 2
  store i64 3, ptr %p2
  %c = inttoptr i64 9 to ptr
  %d = call i64 @consume(i32 4, ptr nest %c, i32 5, ptr byval(%struct2) %s)
  %r = call i64 @by_statepoint(ptr %c, ptr byval(%struct2) %s)
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %d, i64 %r)
  ret i32 0
}
"#;

/// 42 * 1000 + 5 + 3 + 11 * 7; the chain back; 42 * 10^9 + 987654321 (the weights of `@many`);
/// `@chain` with chain 1234567 through the patch point; `@many` with chain 3 through a statepoint;
/// the chain back through a statepoint, and through one with an indirect target (the statepoint's
/// `nest`, which no declaration repeats).
const EXPECTED: &str = "42085 1234567 42987654321 1234567085 3987654321 1234567 42\n";

/// The two `@consume` results, direct and through the statepoint.
const BYVAL_EXPECTED: &str = "90405123 94217123\n";

/// Links `caller` (patchmap's or llc-19's object) with llc-19's build of [`CALLEE`] and runs it.
fn run(arch: Arch, caller: &[u8], name: &str) -> Option<String> {
    let (llc, toolchain) = (support::tool("llc-19")?, support::toolchain(arch)?);
    let dir = tempfile::tempdir().unwrap();
    let callee_ll = dir.path().join("callee.ll");
    std::fs::write(&callee_ll, CALLEE).unwrap();
    let callee = support::llc_object(&llc, &callee_ll, arch, "2", dir.path()).unwrap();
    let outcome = toolchain.link_all_and_run(&[caller, &callee], dir.path(), name).unwrap();
    assert_eq!(outcome.status, 0, "{name} on {arch:?}: {outcome:?}");
    Some(outcome.stdout)
}

/// llc-19's object for `text` on `arch`.
fn llc_build(arch: Arch, text: &str) -> Option<Vec<u8>> {
    let llc = support::tool("llc-19")?;
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("caller.ll");
    std::fs::write(&ll, text).unwrap();
    Some(support::llc_object(&llc, &ll, arch, "2", dir.path()).unwrap())
}

#[test]
fn static_chain_reaches_callees_built_by_llc19_as_from_llc19s_own_build() {
    // llc-19 on x86-64 computes the reference. (Its AArch64 build is no reference: it writes the
    // address of its own in-memory `@chain` as the patch point's target, and crashes.)
    let Some(reference) = llc_build(Arch::X86_64, CALLER).and_then(|o| run(Arch::X86_64, &o, "nest-llc")) else {
        return;
    };
    assert_eq!(reference, EXPECTED);
    for arch in Arch::ALL {
        let caller = support::compile_for(arch, CALLER).unwrap();
        let Some(ours) = run(arch, &caller, "nest-patchmap") else { continue };
        assert_eq!(ours, reference, "patchmap's build on {arch:?} against llc-19's");
    }
}

#[test]
fn static_chain_with_a_byval_argument_in_a_statepoint() {
    let Some(reference) = llc_build(Arch::X86_64, BYVAL_CALLER).and_then(|o| run(Arch::X86_64, &o, "byval-llc")) else {
        return;
    };
    assert_eq!(reference, BYVAL_EXPECTED);
    for arch in Arch::ALL {
        let caller = support::compile_for(arch, BYVAL_CALLER).unwrap();
        let Some(ours) = run(arch, &caller, "byval-patchmap") else { continue };
        assert_eq!(ours, reference, "patchmap's build on {arch:?} against llc-19's on x86-64");
    }
}

#[test]
fn static_chains_that_cannot_be_expressed_are_refused_where_written() {
    // A definition others call by name keeps the error: its callers elsewhere pass the chain in R10.
    let defined = "define void @f(ptr nest %c) {\n  ret void\n}\n";
    let error = patchmap::ir::parse("caller.ll", defined).unwrap_err().to_string();
    assert!(error.starts_with("caller.ll:1:") && error.contains("'nest'"), "{error}");
    let not_a_pointer = "declare void @f(i64)\ndefine void @g() {\n  call void @f(i64 nest 1)\n  ret void\n}\n";
    let error = patchmap::ir::parse("caller.ll", not_a_pointer).unwrap_err().to_string();
    assert!(error.starts_with("caller.ll:3:") && error.contains("'nest' argument is a 'ptr'"), "{error}");
    let two =
        "declare void @f(ptr, ptr)\ndefine void @g() {\n  call void @f(ptr nest null, ptr nest null)\n  ret void\n}\n";
    let error = patchmap::ir::parse("caller.ll", two).unwrap_err().to_string();
    assert!(error.starts_with("caller.ll:3:") && error.contains("more than one 'nest'"), "{error}");
}
