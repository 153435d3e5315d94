//! The signature of an `explicitcc` function (issue 24) in the vendored Cranelift's
//! `CallConv::Explicit`: each parameter in the register its `hwreg` names, the `noclobber`
//! registers preserved, and the registers `llvm.experimental.retwr` sets as the return values.
//!
//! The body lowers as any other: a `retwr` call only hands its operands to the `ret void` after it
//! (see `Lowering::call`), which returns them in their registers.

use cranelift_codegen::ir::{AbiParam, PReg, Signature};
use cranelift_codegen::isa::CallConv;
use cranelift_codegen::RegClass;

use super::clif_type;
use crate::arch::{Arch, NamedRegister, RegisterClass};
use crate::ir::{self, Inst, IrError, ParamAbi, Value};

/// The Cranelift signature of `f`, an `explicitcc` function of the verified `module`, on `arch` (the
/// verifier has refused a parameter in the frame pointer and returns that disagree).
pub fn signature(module: &ir::Module, f: &ir::Function, arch: Arch) -> Result<Signature, IrError> {
    let resolved = ir::explicit::resolve(module, f, arch)?;
    let mut sig = Signature::new(CallConv::Explicit);
    for (p, register) in f.params.iter().zip(&resolved.params) {
        sig.params.push(AbiParam::new(clif_type(&p.ty)).in_register(preg(arch, *register)));
    }
    // The stack and frame pointers (and AArch64's lr, which the IR side refuses anyway) always come
    // back unchanged, and Cranelift does not take them in the set.
    let always_kept = [Some(arch.stack_pointer()), Some(arch.frame_pointer()), arch.link_register()];
    for register in resolved.noclobber.iter().filter(|r| !always_kept.contains(&Some(r.dwarf))) {
        sig.preserved.add(preg(arch, *register));
    }
    // The returns: those of the first retwr, which every other repeats.
    if let Some(first) = resolved.returns.first() {
        let args = match &f.inst(first.call).kind {
            Inst::Call { args, .. } => &args[..],
            _ => &[],
        };
        for &(i, register) in &first.values {
            let ty = &args[i].ty;
            sig.returns.push(AbiParam::new(clif_type(ty)).in_register(preg(arch, register)));
        }
    }
    Ok(sig)
}

/// Whether `callee` is `llvm.experimental.retwr`.
pub fn is_retwr(module: &ir::Module, callee: &Value) -> bool {
    matches!(callee, Value::Func(id) if module.function(*id).intrinsic() == Some(ir::Intrinsic::ReturnWithRegisters))
}

/// Cranelift's name of `register`, which [`ir::explicit::resolve`] found on `arch`.
fn preg(arch: Arch, register: NamedRegister) -> PReg {
    let hw = arch.hardware_encoding(register).expect("resolved registers are the target's");
    let class = match register.class {
        RegisterClass::General => RegClass::Int,
        RegisterClass::Float => RegClass::Float,
    };
    PReg::new(usize::from(hw), class)
}

/// The signature of `f`, an external declaration with a `nest` parameter, as llc-19 calls it: the
/// static chain in R10, the other parameters and the results in the C convention's registers, the
/// C convention's callee-saved registers preserved. What this cannot express is refused: arguments
/// on the stack (more than the argument registers), aggregates, variadic functions, and AArch64,
/// where the chain goes in x18, a register Cranelift never allocates and so cannot pass.
pub fn nest_signature(module: &ir::Module, f: &ir::Function, arch: Arch) -> Result<Signature, IrError> {
    let refuse =
        |why: &str| Err(module.error(f.span, format!("cannot call '@{}' with its 'nest' parameter: {why}", f.name)));
    if arch == Arch::Aarch64 {
        return refuse(
            "on AArch64 LLVM passes the static chain in x18, which Cranelift does not allocate and so cannot \
             pass an argument in",
        );
    }
    if f.varargs {
        return refuse("variadic functions with a static chain are not supported");
    }
    let register = |name: &str| preg(arch, arch.register_by_name(name).expect("the target's own register"));
    let mut sig = Signature::new(CallConv::Explicit);
    let (mut ints, mut floats) = (arch.integer_arguments().iter(), 0..8u8);
    for p in &f.params {
        let at = match (&p.abi, &p.ty) {
            (ParamAbi::Nest, _) => register("r10"),
            (ParamAbi::Plain, ty) if ty.is_float() => match floats.next() {
                Some(n) => register(&format!("xmm{n}")),
                None => return refuse("more floating-point arguments than registers (stack arguments)"),
            },
            (ParamAbi::Plain, ty) if !ty.is_aggregate() => match ints.next() {
                Some(&dwarf) => preg(arch, arch.register(dwarf).expect("an argument register")),
                None => return refuse("more integer arguments than registers (stack arguments)"),
            },
            _ => return refuse(&format!("parameter of type '{}' or with attributes besides 'nest'", p.ty)),
        };
        sig.params.push(AbiParam::new(clif_type(&p.ty)).in_register(at));
    }
    match &f.ret {
        ir::Type::Void => {}
        ty if ty.is_float() => sig.returns.push(AbiParam::new(clif_type(ty)).in_register(register("xmm0"))),
        ty if !ty.is_aggregate() => sig.returns.push(AbiParam::new(clif_type(ty)).in_register(register("rax"))),
        ty => return refuse(&format!("result of type '{ty}'")),
    }
    let always_kept = [arch.stack_pointer(), arch.frame_pointer()];
    for &dwarf in arch.callee_saved().iter().filter(|d| !always_kept.contains(d)) {
        sig.preserved.add(preg(arch, arch.register(dwarf).expect("a callee-saved register")));
    }
    Ok(sig)
}
