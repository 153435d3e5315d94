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
use crate::ir::{self, Inst, IrError, Value};

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
pub(super) fn preg(arch: Arch, register: NamedRegister) -> PReg {
    let hw = arch.hardware_encoding(register).expect("resolved registers are the target's");
    let class = match register.class {
        RegisterClass::General => RegClass::Int,
        RegisterClass::Float => RegClass::Float,
    };
    PReg::new(usize::from(hw), class)
}
