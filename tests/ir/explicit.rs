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
                define explicitcc void @h(i64 hwreg(metadata !0) %a, float hwreg(metadata !1) %f, ptr hwreg(metadata !2) %lr) noclobber(metadata !3) {\n  \
                call void (...) @llvm.experimental.retwr(float hwreg(metadata !{!\"v7\"}) %f)\n  ret void\n}\n\
                !0 = !{!\"x28\"}\n!1 = !{!\"d31\"}\n!2 = !{!\"x27\"}\n!3 = !{!\"x0\", !\"fp\", !\"v8\"}\n";
    let m = ir::parse("a.ll", text).unwrap();
    ir::verify(&m).unwrap();
    let resolved = explicit::resolve(&m, &m.functions[1], Arch::Aarch64).unwrap();
    let float = |dwarf| NamedRegister { dwarf, class: RegisterClass::Float };
    assert_eq!(resolved.params, [general(28), float(95), general(27)]);
    assert_eq!(resolved.noclobber, [general(0), general(29), float(72)]);
    assert_eq!(resolved.returns[0].values, [(0, float(71))]);
    // `fp` names x29: kept (noclobber), never a parameter (the function's own frame is there).
    let e = ir::verify(&ir::parse("a.ll", &text.replace("!2 = !{!\"x27\"}", "!2 = !{!\"fp\"}")).unwrap()).unwrap_err();
    assert!(e.to_string().contains("register 'fp' cannot pass a parameter"), "{e}");
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
fn compiling_refuses_calls_of_explicitcc_functions_and_check_accepts_them() {
    let m = ir::parse("swap.ll", SWAP).unwrap();
    let options = Options::new(None, "speed", 1).unwrap();
    let e = patchmap::emit::object::compile(&m, &options).unwrap_err().to_string();
    assert!(e.starts_with("swap.ll:18:3: error: calls of explicitcc functions are not supported"), "{e}");
    // A call of one from an ordinary function is refused at the call.
    let caller = "declare explicitcc void @g(i64 hwreg(metadata !0))\n\
                  define void @f() {\n  call explicitcc void @g(i64 hwreg(metadata !0) 1)\n  ret void\n}\n\
                  !0 = !{!\"rcx\"}\n";
    let m = ir::parse("call.ll", caller).unwrap();
    ir::verify(&m).unwrap();
    let e = patchmap::emit::object::compile(&m, &Options::new(Some("x86_64"), "speed", 1).unwrap())
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("call.ll:3:3: error: calls of explicitcc functions are not supported"), "{e}");
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

/// Every register name of `arch` that LLVM's assembler knows, 64-bit and vector names.
fn register_names(arch: Arch) -> Vec<String> {
    match arch {
        Arch::X86_64 => ["rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi"]
            .iter()
            .map(|s| s.to_string())
            .chain((8..16).map(|n| format!("r{n}")))
            .chain((0..16).map(|n| format!("xmm{n}")))
            .collect(),
        Arch::Aarch64 => (0..31)
            .map(|n| format!("x{n}"))
            .chain(["fp", "lr", "sp"].iter().map(|s| s.to_string()))
            .chain((0..32).map(|n| format!("d{n}")))
            .collect(),
    }
}

/// xorshift64*: a reproducible stream for the random functions.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }
}

#[test]
fn random_register_assignments_round_trip_resolve_and_reject_mutants() {
    use patchmap::arch::RegisterUse;
    for seed in 1..=300u64 {
        let arch = Arch::ALL[seed as usize % 2];
        let mut rng = Random(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let names = register_names(arch);
        let usable = |usage: RegisterUse, class: Option<RegisterClass>| -> Vec<(String, NamedRegister)> {
            names
                .iter()
                .filter_map(|n| Some((n.clone(), arch.register_by_name(n)?)))
                .filter(|(_, r)| arch.register_restriction(*r, usage).is_none())
                .filter(|(_, r)| class.is_none_or(|c| r.class == c))
                .collect()
        };
        let types = [Type::I64, Type::PTR, Type::I32, Type::Double, Type::Float];
        let mut taken: Vec<NamedRegister> = Vec::new();
        let (mut param_types, mut param_names, mut params) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..rng.below(7) {
            let ty = types[rng.below(types.len())].clone();
            let class = if ty.is_float() { RegisterClass::Float } else { RegisterClass::General };
            let free: Vec<_> =
                usable(RegisterUse::Param, Some(class)).into_iter().filter(|(_, r)| !taken.contains(r)).collect();
            let (name, register) = free[rng.below(free.len())].clone();
            taken.push(register);
            param_types.push(ty);
            param_names.push(name);
            params.push(register);
        }
        let mut noclobber: Vec<(String, NamedRegister)> = Vec::new();
        for (name, register) in usable(RegisterUse::NoClobber, None) {
            if rng.below(4) == 0 && !noclobber.iter().any(|(_, r)| *r == register) {
                noclobber.push((name, register));
            }
        }
        let mut returns: Vec<(usize, String, NamedRegister)> = Vec::new();
        for (i, ty) in param_types.iter().enumerate() {
            let class = if ty.is_float() { RegisterClass::Float } else { RegisterClass::General };
            let free: Vec<_> = usable(RegisterUse::Return, Some(class))
                .into_iter()
                .filter(|(_, r)| !noclobber.iter().any(|(_, n)| n == r) && !returns.iter().any(|(_, _, t)| t == r))
                .collect();
            if rng.below(2) == 0 && !free.is_empty() {
                let (name, register) = free[rng.below(free.len())].clone();
                returns.push((i, name, register));
            }
        }
        let build = |param_names: &[String]| {
            let mut mb = ModuleBuilder::new("random.ll");
            mb.triple(arch.triple());
            let mut f = mb.function("handler", Type::Void, &param_types);
            f.set_calling_convention(CallConv::Explicit);
            for (i, name) in param_names.iter().enumerate() {
                f.name_param(i as u32, &format!("p{i}"));
                f.set_param_register(i as u32, name);
            }
            f.set_noclobber(&noclobber.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>());
            let entry = f.block("entry");
            f.switch_to(entry);
            let values: Vec<(Operand, &str)> = returns
                .iter()
                .map(|(i, name, _)| (Operand::new(param_types[*i].clone(), f.param(*i as u32)), name.as_str()))
                .collect();
            f.return_with_registers(&values);
            f.ret_void();
            f.finish();
            mb.finish()
        };
        let m = build(&param_names);
        ir::verify(&m).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{m}"));
        let mut again = ir::parse("random.ll", &m.to_string()).unwrap();
        again.clear_spans();
        assert_eq!(again, m, "seed {seed}");
        let resolved = explicit::resolve(&m, &m.functions[0], arch).unwrap();
        assert_eq!(resolved.params, params, "seed {seed}");
        assert_eq!(resolved.noclobber, noclobber.iter().map(|(_, r)| *r).collect::<Vec<_>>(), "seed {seed}");
        // Indexed by the call's arguments, which are the returned parameters in order.
        let expected: Vec<(usize, NamedRegister)> = returns.iter().enumerate().map(|(k, (_, _, r))| (k, *r)).collect();
        assert_eq!(resolved.returns[0].values, expected, "seed {seed}");
        // A mutant: one parameter moved to a register it cannot arrive in (restricted, of the other
        // class, or another parameter's).
        if param_names.is_empty() {
            continue;
        }
        let victim = rng.below(param_names.len());
        let class = params[victim].class;
        let bad: Vec<String> = names
            .iter()
            .filter(|n| {
                let r = arch.register_by_name(n).unwrap();
                arch.register_restriction(r, RegisterUse::Param).is_some()
                    || r.class != class
                    || params.iter().enumerate().any(|(j, p)| j != victim && *p == r)
            })
            .cloned()
            .collect();
        let mut mutant_names = param_names.clone();
        mutant_names[victim] = bad[rng.below(bad.len())].clone();
        let mutant = build(&mutant_names);
        assert!(ir::verify(&mutant).is_err(), "seed {seed}: {} accepted in {}", mutant_names[victim], arch.name());
    }
}
