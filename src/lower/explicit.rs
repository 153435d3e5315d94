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

/// The Cranelift signature of `f`, an `explicitcc` function of `module`, on `arch`; a positioned
/// error for what Cranelift cannot do (a parameter in the frame pointer) or for returns that do not
/// agree (every `ret void` must set the same registers with values of the same types).
pub fn signature(module: &ir::Module, f: &ir::Function, arch: Arch) -> Result<Signature, IrError> {
    let resolved = ir::explicit::resolve(module, f, arch)?;
    let mut sig = Signature::new(CallConv::Explicit);
    for ((p, register), i) in f.params.iter().zip(&resolved.params).zip(0..) {
        if register.dwarf == arch.frame_pointer() {
            let at = match &p.abi {
                ParamAbi::Register(name) => name.span,
                _ => f.span,
            };
            let message = format!(
                "parameter {i} of '@{}' cannot arrive in the frame pointer: the compiled function keeps its own \
                 frame there (it comes back unchanged; read the caller's through llvm.frameaddress)",
                f.name
            );
            return Err(module.error(at, message));
        }
        sig.params.push(AbiParam::new(clif_type(&p.ty)).in_register(preg(arch, *register)));
    }
    // The stack and frame pointers (and AArch64's lr, which the IR side refuses anyway) always come
    // back unchanged, and Cranelift does not take them in the set.
    let always_kept = [Some(arch.stack_pointer()), Some(arch.frame_pointer()), arch.link_register()];
    for register in resolved.noclobber.iter().filter(|r| !always_kept.contains(&Some(r.dwarf))) {
        sig.preserved.add(preg(arch, *register));
    }

    // The returns: those of the first retwr, which every other must repeat.
    let returned = |r: &ir::explicit::RegisterReturn| -> Vec<(NamedRegister, ir::Type)> {
        let args = match &f.inst(r.call).kind {
            Inst::Call { args, .. } => &args[..],
            _ => &[],
        };
        r.values.iter().filter_map(|&(i, register)| Some((register, args.get(i)?.ty.clone()))).collect()
    };
    let first = resolved.returns.first().map(returned).unwrap_or_default();
    for r in resolved.returns.iter().skip(1) {
        let these = returned(r);
        let same = these.len() == first.len()
            && these.iter().zip(&first).all(|((a, at), (b, bt))| a == b && clif_type(at) == clif_type(bt));
        if !same {
            return Err(module.error(
                f.inst(r.call).span,
                format!(
                    "this llvm.experimental.retwr sets other registers or types than the first one of '@{}': every \
                     return of an explicitcc function sets the same registers, in the same order",
                    f.name
                ),
            ));
        }
    }
    if !first.is_empty() {
        let retwr_calls: Vec<_> = resolved.returns.iter().map(|r| r.call).collect();
        for block in &f.blocks {
            let Some(&last) = block.insts.last() else { continue };
            if !matches!(f.inst(last).kind, Inst::Ret { .. }) {
                continue;
            }
            let before = block.insts.len().checked_sub(2).map(|k| block.insts[k]);
            if !before.is_some_and(|b| retwr_calls.contains(&b)) {
                return Err(module.error(
                    f.inst(last).span,
                    format!(
                        "this 'ret void' of '@{}' sets no register, but its other returns do (with \
                         llvm.experimental.retwr): every return of an explicitcc function sets the same registers",
                        f.name
                    ),
                ));
            }
        }
    }
    for (register, ty) in first {
        sig.returns.push(AbiParam::new(clif_type(&ty)).in_register(preg(arch, register)));
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
