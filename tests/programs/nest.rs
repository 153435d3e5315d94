//! `nest` on an external declaration: patchmap's caller passes the static chain in R10 and the rest
//! as C, as llc-19 does, so a callee compiled by llc-19 reads it (x86-64). On AArch64 the chain goes
//! in x18, which Cranelift cannot pass: a positioned error. Calls that cannot be expressed are
//! refused with the declaration's position.

use crate::support;

use patchmap::compile::Options;
use support::Arch;

/// Returns its chain and arguments mixed so that each one, in the wrong register, changes the result.
const CALLEE: &str = r#"
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
"#;

const CALLER: &str = r#"
declare i64 @chain(ptr nest, i64, double, i64)
declare ptr @chain_only(ptr nest)
declare i32 @printf(ptr, ...)
@fmt = private constant [9 x i8] c"%ld %ld\0A\00"

define i32 @main() {
  %p = inttoptr i64 42 to ptr
  %r = call i64 @chain(ptr nest %p, i64 5, double 3.0, i64 11)
  %q = inttoptr i64 1234567 to ptr
  %s = call ptr @chain_only(ptr nest %q)
  %si = ptrtoint ptr %s to i64
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %r, i64 %si)
  ret i32 0
}
"#;

fn compile(text: &str, arch: Arch) -> Result<Vec<u8>, String> {
    let module = patchmap::ir::parse("caller.ll", text).map_err(|e| e.to_string())?;
    let options = Options::new(Some(arch.triple()), "speed", 3).map_err(|e| e.to_string())?;
    patchmap::emit::object::compile(&module, &options).map_err(|e| e.to_string())
}

#[test]
fn static_chain_reaches_a_callee_built_by_llc19_on_x86_64() {
    let (Some(llc), Some(tc)) = (support::tool("llc-19"), support::toolchain(Arch::X86_64)) else { return };
    let dir = tempfile::tempdir().unwrap();
    let callee_ll = dir.path().join("callee.ll");
    std::fs::write(&callee_ll, CALLEE).unwrap();
    let callee = support::llc_object(&llc, &callee_ll, Arch::X86_64, "2", dir.path()).unwrap();
    let caller = compile(CALLER, Arch::X86_64).unwrap();
    let outcome = tc.link_all_and_run(&[&caller, &callee], dir.path(), "nest").unwrap();
    // 42 * 1000 + 5 + 3 + 11 * 7, and the chain alone.
    assert_eq!((outcome.status, outcome.stdout.as_str()), (0, "42085 1234567\n"));
}

#[test]
fn static_chain_calls_that_cannot_be_expressed_are_refused_where_declared() {
    let error = compile(CALLER, Arch::Aarch64).unwrap_err();
    assert!(error.starts_with("caller.ll:2:") && error.contains("x18"), "{error}");
    let many = "declare void @f(ptr nest, i64, i64, i64, i64, i64, i64, i64)\n\
                define void @g() {\n  call void @f(ptr nest null, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7)\n  ret void\n}\n";
    let error = compile(many, Arch::X86_64).unwrap_err();
    assert!(error.starts_with("caller.ll:1:") && error.contains("stack arguments"), "{error}");
    let variadic = "declare void @f(ptr nest, ...)\n\
                    define void @g() {\n  call void (ptr, ...) @f(ptr nest null, i64 1)\n  ret void\n}\n";
    let error = compile(variadic, Arch::X86_64).unwrap_err();
    assert!(error.contains("variadic"), "{error}");
    // A definition others call by name keeps the error: its callers elsewhere pass the chain in R10.
    let defined = "define void @f(ptr nest %c) {\n  ret void\n}\n";
    let error = patchmap::ir::parse("caller.ll", defined).unwrap_err().to_string();
    assert!(error.starts_with("caller.ll:1:") && error.contains("'nest'"), "{error}");
}
