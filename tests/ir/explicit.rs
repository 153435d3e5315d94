//! `explicitcc` functions (issue 24, seed 004): the seed's syntax parses into the model, prints
//! back to text that parses to the same module, builds in memory, resolves per target into the
//! registers a lowering needs, and is refused by the compiler (with its position) until the
//! lowering exists; `patchmap check` accepts it.

use crate::support;

use patchmap::arch::{Arch, NamedRegister, RegisterClass};
use patchmap::compile::Options;
use patchmap::ir::builder::{int, ModuleBuilder};
use patchmap::ir::{self, explicit, CallConv, Inst, Operand, ParamAbi, Type};

/// The seed's example, with a caller and the frame intrinsics.
const SWAP: &str = r#"target triple = "x86_64-unknown-linux-gnu"

declare void @llvm.experimental.retwr(...)
declare ptr @llvm.frameaddress.p0(i32)
declare ptr @llvm.addressofreturnaddress.p0()

define explicitcc void @example(i64 hwreg(metadata !1) %a,
                                i64 hwreg(metadata !2) %b)
                               noclobber(metadata !0) {
  call void (...) @llvm.experimental.retwr(i64 hwreg(metadata !2) %a,
                                           i64 hwreg(metadata !1) %b)
  ret void
}

define explicitcc void @handler(double hwreg(metadata !3) %x, ptr hwreg(metadata !{!"r12"}) %p) noclobber(metadata !{}) {
  %frame = call ptr @llvm.frameaddress.p0(i32 0)
  %slot = call ptr @llvm.addressofreturnaddress.p0()
  call explicitcc void @example(i64 hwreg(metadata !1) 1, i64 hwreg(metadata !2) 2)
  ret void
}

!0 = !{!"rax", !"rbx"}
!1 = !{!"rcx"}
!2 = !{!"rdx"}
!3 = !{!"xmm3"}
"#;

fn names(abi: &[ParamAbi]) -> Vec<String> {
    abi.iter()
        .map(|a| match a {
            ParamAbi::Register(r) => r.name.clone(),
            other => format!("{other:?}"),
        })
        .collect()
}

fn general(dwarf: u16) -> NamedRegister {
    NamedRegister { dwarf, class: RegisterClass::General }
}

#[test]
fn the_seeds_example_parses_into_the_model() {
    let m = ir::parse("swap.ll", SWAP).unwrap();
    ir::verify(&m).unwrap();
    let f = m.function(m.function_by_name("example").unwrap());
    assert_eq!(f.cc, CallConv::Explicit);
    let params: Vec<ParamAbi> = f.params.iter().map(|p| p.abi.clone()).collect();
    assert_eq!(names(&params), ["rcx", "rdx"]);
    let noclobber = f.noclobber.as_ref().unwrap();
    assert_eq!(noclobber.registers.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["rax", "rbx"]);
    // Each name keeps where it is written: the `hwreg`, or the string in the tuple.
    assert_eq!((noclobber.registers[1].span.line, noclobber.registers[1].span.col), (22, 16));
    let ParamAbi::Register(a) = &f.params[0].abi else { unreachable!() };
    assert_eq!((a.span.line, a.span.col), (7, 37));
    let Inst::Call { sig, args, .. } = &f.inst(f.blocks[0].insts[0]).kind else { panic!("retwr is a call") };
    assert_eq!(names(&sig.abi), ["rdx", "rcx"]);
    assert_eq!(args.len(), 2);
    let h = m.function(m.function_by_name("handler").unwrap());
    assert_eq!(h.noclobber.as_ref().unwrap().registers, []);
    let Inst::Call { cc, sig, .. } = &h.inst(h.blocks[0].insts[2]).kind else { panic!("a call") };
    assert_eq!((*cc, names(&sig.abi)), (CallConv::Explicit, vec!["rcx".to_string(), "rdx".to_string()]));
}

#[test]
fn printed_text_parses_back_to_the_same_module() {
    let mut m = ir::parse("swap.ll", SWAP).unwrap();
    let text = m.to_string();
    for line in [
        "define explicitcc void @example(i64 hwreg(metadata !0) %a, i64 hwreg(metadata !1) %b) noclobber(metadata !2) {",
        "call void (...) @llvm.experimental.retwr(i64 hwreg(metadata !1) %a, i64 hwreg(metadata !0) %b)",
        "call explicitcc void @example(i64 hwreg(metadata !0) 1, i64 hwreg(metadata !1) 2)",
        "noclobber(metadata !5) {",
        "!2 = !{!\"rax\", !\"rbx\"}",
        "!5 = !{}",
    ] {
        assert!(text.contains(line), "no '{line}' in:\n{text}");
    }
    let mut again = ir::parse("printed.ll", &text).unwrap();
    ir::verify(&again).unwrap();
    m.clear_spans();
    again.clear_spans();
    again.file = m.file.clone();
    assert_eq!(m, again);
}

#[test]
fn resolving_gives_the_lowering_its_registers() {
    let m = ir::parse("swap.ll", SWAP).unwrap();
    let f = m.function(m.function_by_name("example").unwrap());
    let resolved = explicit::resolve(&m, f, Arch::X86_64).unwrap();
    // DWARF numbers: rax 0, rdx 1, rcx 2, rbx 3.
    assert_eq!(resolved.params, [general(2), general(1)]);
    assert_eq!(resolved.noclobber, [general(0), general(3)]);
    assert_eq!(resolved.returns.len(), 1);
    assert_eq!(resolved.returns[0].call, f.blocks[0].insts[0]);
    assert_eq!(resolved.returns[0].values, [(0, general(1)), (1, general(2))]);
    let h = m.function(m.function_by_name("handler").unwrap());
    let resolved = explicit::resolve(&m, h, Arch::X86_64).unwrap();
    assert_eq!(resolved.params, [NamedRegister { dwarf: 20, class: RegisterClass::Float }, general(12)]);
    // The same names mean nothing on AArch64.
    let e = explicit::resolve(&m, f, Arch::Aarch64).unwrap_err();
    assert_eq!(e.to_string(), "swap.ll:7:37: error: 'rcx' is not a register of AArch64 (it is an x86-64 register)");
}

#[test]
fn aarch64_names_resolve_with_their_aliases() {
    let text = "target triple = \"aarch64-unknown-linux-gnu\"\n\
                declare void @llvm.experimental.retwr(...)\n\
                define explicitcc void @h(i64 hwreg(metadata !0) %a, float hwreg(metadata !1) %f, ptr hwreg(metadata !2) %fp) noclobber(metadata !3) {\n  \
                call void (...) @llvm.experimental.retwr(float hwreg(metadata !{!\"v7\"}) %f)\n  ret void\n}\n\
                !0 = !{!\"x28\"}\n!1 = !{!\"d31\"}\n!2 = !{!\"fp\"}\n!3 = !{!\"x0\", !\"x29\", !\"v8\"}\n";
    let m = ir::parse("a.ll", text).unwrap();
    ir::verify(&m).unwrap();
    let resolved = explicit::resolve(&m, &m.functions[1], Arch::Aarch64).unwrap();
    let float = |dwarf| NamedRegister { dwarf, class: RegisterClass::Float };
    assert_eq!(resolved.params, [general(28), float(95), general(29)]);
    assert_eq!(resolved.noclobber, [general(0), general(29), float(72)]);
    assert_eq!(resolved.returns[0].values, [(0, float(71))]);
}

#[test]
fn a_module_without_triple_is_checked_with_its_names_architecture_and_compiled_for_the_real_one() {
    let text = "define explicitcc void @h(i64 hwreg(metadata !0) %a) {\n  ret void\n}\n!0 = !{!\"x3\"}\n";
    let m = ir::parse("n.ll", text).unwrap();
    ir::verify(&m).unwrap();
    let options = Options::new(Some("x86_64"), "speed", 1).unwrap();
    let e = patchmap::emit::object::compile(&m, &options).unwrap_err().to_string();
    assert_eq!(e, "n.ll:1:31: error: 'x3' is not a register of x86-64 (it is an AArch64 register)");
    // Names that are no target's are an error without a triple too.
    let m = ir::parse("n.ll", &text.replace("x3", "eax")).unwrap();
    assert_eq!(
        ir::verify(&m).unwrap_err().to_string(),
        "n.ll:1:31: error: 'eax' is not a register of x86-64 or AArch64"
    );
}

fn built() -> ir::Module {
    let mut mb = ModuleBuilder::new("built.ll");
    mb.triple("x86_64-unknown-linux-gnu");
    let mut f = mb.function("example", Type::Void, &[Type::I64, Type::I64]);
    f.set_calling_convention(CallConv::Explicit);
    f.name_param(0, "a");
    f.name_param(1, "b");
    f.set_param_register(0, "rcx");
    f.set_param_register(1, "rdx");
    f.set_noclobber(&["rax", "rbx"]);
    let entry = f.block("entry");
    f.switch_to(entry);
    let (a, b) = (f.param(0), f.param(1));
    f.return_with_registers(&[(Operand::new(Type::I64, a), "rdx"), (Operand::new(Type::I64, b), "rcx")]);
    f.ret_void();
    let example = f.finish();
    let mut g = mb.function("caller", Type::Void, &[]);
    g.set_calling_convention(CallConv::Explicit);
    let entry = g.block("entry");
    g.switch_to(entry);
    let frame = g.frame_address(1);
    g.name(&frame, "frame");
    let slot = g.address_of_return_address();
    g.name(&slot, "slot");
    g.call(example, &[Operand::new(Type::I64, int(1)), Operand::new(Type::I64, int(2))]);
    g.ret_void();
    g.finish();
    mb.finish()
}

#[test]
fn built_explicitcc_functions_verify_print_and_parse_back() {
    let m = built();
    ir::verify(&m).unwrap();
    let text = m.to_string();
    assert!(
        text.contains("call explicitcc void @example(i64 hwreg(metadata !0) 1, i64 hwreg(metadata !1) 2)"),
        "{text}"
    );
    assert!(text.contains("call ptr @llvm.frameaddress.p0(i32 1)"), "{text}");
    let mut again = ir::parse("built.ll", &text).unwrap();
    again.clear_spans();
    assert_eq!(again, m);
    let resolved = explicit::resolve(&m, &m.functions[0], Arch::X86_64).unwrap();
    assert_eq!(resolved.params, [general(2), general(1)]);
}

#[test]
fn compiling_refuses_explicitcc_until_it_is_lowered_and_check_accepts_it() {
    let m = ir::parse("swap.ll", SWAP).unwrap();
    let options = Options::new(None, "speed", 1).unwrap();
    let e = patchmap::emit::object::compile(&m, &options).unwrap_err().to_string();
    assert!(e.starts_with("swap.ll:7:24: error: explicitcc function '@example' cannot be compiled yet"), "{e}");
    // A call of one from an ordinary function is refused at the call.
    let caller = "declare explicitcc void @g(i64 hwreg(metadata !0))\n\
                  define void @f() {\n  call explicitcc void @g(i64 hwreg(metadata !0) 1)\n  ret void\n}\n\
                  !0 = !{!\"rcx\"}\n";
    let m = ir::parse("call.ll", caller).unwrap();
    ir::verify(&m).unwrap();
    let e = patchmap::emit::object::compile(&m, &Options::new(Some("x86_64"), "speed", 1).unwrap())
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("call.ll:3:3: error: calls of explicitcc functions cannot be compiled yet"), "{e}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("swap.ll");
    std::fs::write(&path, SWAP).unwrap();
    let (code, _, stderr) = support::run(std::process::Command::new(support::patchmap_bin()).arg("check").arg(&path));
    assert_eq!((code, stderr.as_str()), (0, ""));
}

#[test]
fn llc_rejects_explicitcc_as_a_proposal_it_never_took() {
    let Some(llc) = support::tool("llc-19") else {
        assert!(!support::tools_required(), "llc-19 not found");
        eprintln!("skipped: llc-19 not found");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("swap.ll");
    std::fs::write(&path, SWAP).unwrap();
    let (code, _, stderr) = support::run(std::process::Command::new(llc).arg("-o").arg("/dev/null").arg(&path));
    assert_ne!(code, 0, "llc-19 accepted explicitcc");
    // It stops at the convention it does not know, the first word of the proposal.
    assert!(stderr.contains("swap.ll:7:8: error: expected type"), "{stderr}");
}

#[test]
fn a_top_level_error_before_the_metadata_is_the_one_reported() {
    // The body refers to nodes the top level never reached: its error is not about them.
    let text = "declare void @llvm.experimental.retwr(...)\n\
                define explicitcc void @f(i64 hwreg(metadata !0) %a) {\n  \
                call void (...) @llvm.experimental.retwr(i64 hwreg(metadata !1) %a)\n  ret void\n}\n\
                @g = global i64 oops\n!0 = !{!\"rcx\"}\n!1 = !{!\"rdx\"}\n";
    let e = ir::parse("late.ll", text).unwrap_err().to_string();
    assert_eq!(e, "late.ll:6:17: error: expected a value of type 'i64', found 'oops'");
}
