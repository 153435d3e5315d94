//! `CallConv::Explicit`: parameters and return values in the registers their `AbiParam`s name.
//!
//! The signature says where every value is, so the locations are computed here, for every
//! backend alike, instead of by a backend's `compute_arg_locs`. A backend supports the
//! convention by saying so (`ABIMachineSpec::supports_explicit_call_conv`), by saving exactly
//! the signature's `preserved` registers that the body clobbers (`compute_frame_layout`), and
//! by treating every register as clobbered by a call to an `explicit` function.
//!
//! Nothing else changes: the parameters are the `Args` pseudo-instruction's fixed defs and
//! the return values the `Rets` pseudo-instruction's fixed uses, as with every convention, so
//! regalloc2 sees each parameter in its register at entry and each return value in its
//! register at the return; the clobbered registers the prologue saves are those the body's
//! instructions (calls' clobbers included) write, as with every convention.

use crate::ir::{self, AbiParam, Signature};
use crate::isa::CallConv;
use crate::machinst::abi::{ABIArg, ABIMachineSpec};
use crate::machinst::{MachInst, RealReg};
use crate::settings;
use crate::{CodegenError, CodegenResult};
use alloc::format;
use alloc::vec::Vec;
use regalloc2::PRegSet;

/// The locations of `sig`'s return values and parameters, in that order, after checking
/// that the target can pass each value in its register and preserve `sig.preserved`.
pub(crate) fn locations<M: ABIMachineSpec>(
    sig: &Signature,
    flags: &settings::Flags,
) -> CodegenResult<(Vec<ABIArg>, Vec<ABIArg>)> {
    debug_assert_eq!(sig.call_conv, CallConv::Explicit);
    if !M::supports_explicit_call_conv() {
        return Err(unsupported(
            "the `explicit` calling convention on this target".into(),
        ));
    }
    let allocatable = PRegSet::from(M::get_machine_env(flags, CallConv::Explicit));
    let rets = values::<M>(&sig.returns, "return value", allocatable)?;
    let args = values::<M>(&sig.params, "parameter", allocatable)?;
    for preg in sig.preserved {
        if !allocatable.contains(preg) {
            // Never allocated: the stack and frame pointers, which every function keeps,
            // and scratch registers that emitted sequences write without telling regalloc.
            return Err(unsupported(format!(
                "preserving {preg}, which the register allocator does not manage (the stack \
                 and frame pointers are always preserved)"
            )));
        }
        if sig.returns.iter().any(|r| r.register == Some(preg)) {
            // The epilogue restores preserved registers after the return values are set.
            return Err(unsupported(format!(
                "{preg} is both preserved and a return value's register"
            )));
        }
    }
    Ok((rets, args))
}

fn values<M: ABIMachineSpec>(
    params: &[AbiParam],
    what: &str,
    allocatable: PRegSet,
) -> CodegenResult<Vec<ABIArg>> {
    let mut seen = PRegSet::empty();
    let mut locations = Vec::with_capacity(params.len());
    for (i, param) in params.iter().enumerate() {
        let Some(preg) = param.register else {
            return Err(unsupported(format!(
                "{what} {i} of an `explicit` signature without a register"
            )));
        };
        if param.purpose != ir::ArgumentPurpose::Normal {
            return Err(unsupported(format!(
                "{what} {i} of an `explicit` signature with purpose {}",
                param.purpose
            )));
        }
        let (classes, _) = M::I::rc_for_type(param.value_type)?;
        if classes != [preg.class()] {
            return Err(unsupported(format!(
                "{what} {i} of type {} in {preg}: the type needs {classes:?} registers",
                param.value_type
            )));
        }
        if !allocatable.contains(preg) {
            return Err(unsupported(format!(
                "{what} {i} in {preg}, which the register allocator does not manage"
            )));
        }
        if seen.contains(preg) {
            return Err(unsupported(format!("two {what}s in {preg}")));
        }
        seen.add(preg);
        locations.push(ABIArg::reg(
            RealReg::from(preg),
            param.value_type,
            param.extension,
            param.purpose,
        ));
    }
    Ok(locations)
}

fn unsupported(what: alloc::string::String) -> CodegenError {
    CodegenError::Unsupported(what)
}

#[cfg(test)]
mod tests {
    use crate::Context;
    use crate::cursor::{Cursor, FuncCursor};
    use crate::ir::{
        AbiParam, Function, InstBuilder, PReg, PRegSet, Signature, Type, types,
    };
    use crate::isa::unwind::UnwindInst;
    use crate::isa::{CallConv, OwnedTargetIsa, lookup};
    use crate::machinst::RegClass;
    use crate::settings::{self, Configurable};
    use alloc::string::String;
    use alloc::vec::Vec;
    use core::str::FromStr;
    use target_lexicon::Triple;

    fn isa(triple: &str, opt_level: &str) -> OwnedTargetIsa {
        let mut flags = settings::builder();
        flags.set("opt_level", opt_level).unwrap();
        flags.set("preserve_frame_pointers", "true").unwrap();
        lookup(Triple::from_str(triple).unwrap())
            .unwrap()
            .finish(settings::Flags::new(flags))
            .unwrap()
    }

    fn gpr(n: u8) -> PReg {
        PReg::new(n as usize, RegClass::Int)
    }

    fn fpr(n: u8) -> PReg {
        PReg::new(n as usize, RegClass::Float)
    }

    /// A target's registers for the test function: four parameters (three integers, one
    /// `f64`), a caller-saved register of the C convention the body calls, and the registers
    /// the return values go to.
    struct Plan {
        triple: &'static str,
        params: [(Type, PReg); 4],
        returns: [(Type, PReg); 3],
        /// C caller-saved (a call clobbers them, on aarch64 v8-v15 in part) and C
        /// callee-saved registers.
        caller_saved: [PReg; 4],
        callee_saved: [PReg; 2],
        /// C callee-saved registers the test function never needs (it has few values live
        /// at once).
        untouched: [PReg; 2],
        /// How the backend prints the parameters' and return values' registers.
        param_names: [&'static str; 4],
        return_names: [&'static str; 3],
    }

    fn plans() -> Vec<Plan> {
        let mut plans = Vec::new();
        if cfg!(feature = "x86") {
            // rbx, r10, xmm9, rdi in; r11, xmm0, rdx out. Preserved: rcx, rsi, r8, xmm5 (the
            // call clobbers them), r12, r13 (C callee-saved), r14, r15 (unused).
            plans.push(Plan {
                triple: "x86_64-unknown-linux-gnu",
                params: [
                    (types::I64, gpr(3)),
                    (types::I64, gpr(10)),
                    (types::F64, fpr(9)),
                    (types::I64, gpr(7)),
                ],
                returns: [
                    (types::I64, gpr(11)),
                    (types::F64, fpr(0)),
                    (types::I64, gpr(2)),
                ],
                caller_saved: [gpr(1), gpr(6), gpr(8), fpr(5)],
                callee_saved: [gpr(12), gpr(13)],
                untouched: [gpr(14), gpr(15)],
                param_names: ["%rbx", "%r10", "%xmm9", "%rdi"],
                return_names: ["%r11", "%xmm0", "%rdx"],
            });
        }
        if cfg!(feature = "arm64") {
            plans.push(Plan {
                triple: "aarch64-unknown-linux-gnu",
                params: [
                    (types::I64, gpr(20)),
                    (types::I64, gpr(9)),
                    (types::F64, fpr(27)),
                    (types::I64, gpr(3)),
                ],
                returns: [
                    (types::I64, gpr(15)),
                    (types::F64, fpr(1)),
                    (types::I64, gpr(0)),
                ],
                caller_saved: [gpr(2), gpr(12), fpr(9), fpr(7)],
                callee_saved: [gpr(22), gpr(23)],
                untouched: [gpr(26), gpr(27)],
                param_names: ["x20", "x9", "d27", "x3"],
                return_names: ["x15", "d1", "x0"],
            });
        }
        plans
    }

    /// `explicit fn(a, b, c: f64, d) -> (callee(a + b) + d, c * 2, a)`, calling the C
    /// function at address `callee` (no call at all when it is `None`), preserving `preserved`.
    fn function(plan: &Plan, preserved: PRegSet, callee: Option<u64>) -> Function {
        let mut sig = Signature::new(CallConv::Explicit);
        for (ty, reg) in plan.params {
            sig.params.push(AbiParam::new(ty).in_register(reg));
        }
        for (ty, reg) in plan.returns {
            sig.returns.push(AbiParam::new(ty).in_register(reg));
        }
        sig.preserved = preserved;
        let mut func = Function::with_name_signature(Default::default(), sig);
        let mut c_sig = Signature::new(CallConv::SystemV);
        c_sig.params.push(AbiParam::new(types::I64));
        c_sig.returns.push(AbiParam::new(types::I64));
        let c_sig = func.import_signature(c_sig);

        let mut pos = FuncCursor::new(&mut func);
        let block0 = pos.func.dfg.make_block();
        pos.insert_block(block0);
        let [a, b, c, d] = plan.params.map(|(ty, _)| pos.func.dfg.append_block_param(block0, ty));
        let sum = pos.ins().iadd(a, b);
        let t = match callee {
            Some(address) => {
                let address = pos.ins().iconst(types::I64, address as i64);
                let call = pos.ins().call_indirect(c_sig, address, &[sum]);
                pos.func.dfg.inst_results(call)[0]
            }
            None => sum,
        };
        let r0 = pos.ins().iadd(t, d);
        let r1 = pos.ins().fadd(c, c);
        pos.ins().return_(&[r0, r1, a]);
        func
    }

    fn compile(isa: &OwnedTargetIsa, func: Function) -> crate::CompiledCode {
        let mut context = Context::for_function(func);
        context.set_disasm(true);
        context
            .compile(&**isa, &mut Default::default())
            .unwrap_or_else(|e| panic!("compilation failed: {:?}", e.inner));
        context.compiled_code().unwrap().clone()
    }

    fn compile_error(isa: &OwnedTargetIsa, func: Function) -> String {
        let mut context = Context::for_function(func);
        match context.compile(&**isa, &mut Default::default()) {
            Ok(_) => panic!("expected an error"),
            Err(e) => alloc::format!("{}", e.inner),
        }
    }

    /// The registers the prologue saves, from its unwind records, and on aarch64 the whole
    /// vector registers it pushes (which have no unwind record).
    fn saved(code: &crate::CompiledCode) -> PRegSet {
        let mut saved = PRegSet::empty();
        for (_, inst) in &code.buffer.unwind_info {
            if let UnwindInst::SaveReg { reg, .. } = inst {
                saved.add((*reg).into());
            }
        }
        let vcode = code.vcode.as_deref().unwrap();
        let prologue = &vcode[..vcode.find("block0:").unwrap()];
        for line in prologue.lines() {
            if let Some(rest) = line.trim().strip_prefix("str q") {
                if let Some(n) = rest.strip_suffix(", [sp, #-16]!") {
                    saved.add(fpr(n.parse().unwrap()));
                }
            }
        }
        saved
    }

    fn set(regs: &[PReg]) -> PRegSet {
        regs.iter().copied().collect()
    }

    /// The text of the code after the prologue (`block0:` on).
    fn body(code: &crate::CompiledCode) -> &str {
        let vcode = code.vcode.as_deref().unwrap();
        &vcode[vcode.find("block0:").unwrap()..]
    }

    #[test]
    fn values_are_read_and_returned_in_their_registers() {
        for plan in plans() {
            for opt_level in ["none", "speed"] {
                let isa = isa(plan.triple, opt_level);
                let code = compile(&isa, function(&plan, PRegSet::empty(), None));
                let body = body(&code);
                // Each parameter is read where it arrived and each result written where it
                // goes; with nothing preserved and no call, the prologue saves nothing.
                for name in plan.param_names.iter().chain(&plan.return_names) {
                    assert!(body.contains(name), "{name} not in\n{body}");
                }
                assert_eq!(saved(&code), PRegSet::empty(), "{body}");
            }
        }
    }

    #[test]
    fn preserved_registers_are_saved_when_the_body_or_its_calls_change_them() {
        for plan in plans() {
            for opt_level in ["none", "speed"] {
                let isa = isa(plan.triple, opt_level);
                let preserved: PRegSet = plan
                    .caller_saved
                    .iter()
                    .chain(&plan.callee_saved)
                    .chain(&plan.untouched)
                    .copied()
                    .collect();
                // No call: the body may still pick a preserved register for a temporary
                // (then saved), never an unused one.
                let code = compile(&isa, function(&plan, preserved, None));
                let saves = saved(&code);
                for reg in plan.untouched {
                    assert!(!saves.contains(reg), "{reg} saved: {}", body(&code));
                }
                for reg in saves {
                    assert!(preserved.contains(reg), "{reg} saved: {saves}");
                }
                // A call to C clobbers the C caller-saved ones, so they are saved; a C
                // callee-saved one only if the body holds a value in it; never an unused one.
                let code = compile(&isa, function(&plan, preserved, Some(0x1234_5678)));
                let saves = saved(&code);
                for reg in plan.caller_saved {
                    assert!(saves.contains(reg), "{reg} not saved: {saves}");
                }
                for reg in plan.untouched {
                    assert!(!saves.contains(reg), "{reg} saved: {saves}");
                }
                for reg in saves {
                    assert!(preserved.contains(reg), "{reg} saved: {saves}");
                }
                // The same function preserving nothing saves nothing, call or not.
                let code = compile(&isa, function(&plan, PRegSet::empty(), Some(0x1234_5678)));
                assert_eq!(saved(&code), PRegSet::empty(), "{}", body(&code));
            }
        }
    }

    #[test]
    fn vector_registers_are_saved_whole() {
        // AAPCS64 saves only the low 64 bits of v8-v15; a preserved vector register keeps
        // all 128.
        if !cfg!(feature = "arm64") {
            return;
        }
        let plan = plans().pop().unwrap();
        let isa = isa(plan.triple, "speed");
        let code = compile(
            &isa,
            function(&plan, set(&[fpr(7), fpr(9)]), Some(0x1234_5678)),
        );
        let vcode = code.vcode.as_deref().unwrap();
        assert!(vcode.contains("str q7, [sp, #-16]!"), "{vcode}");
        assert!(vcode.contains("str q9, [sp, #-16]!"), "{vcode}");
        assert!(vcode.contains("ldr q7, [sp], #16"), "{vcode}");
    }

    #[test]
    fn registers_the_target_cannot_hand_over_are_errors() {
        for plan in plans() {
            let isa = isa(plan.triple, "speed");
            let x64 = plan.triple.starts_with("x86_64");
            let (sp, fp, scratch) = if x64 {
                (gpr(4), gpr(5), None)
            } else {
                (gpr(31), gpr(29), Some(gpr(16)))
            };
            let error = |edit: &dyn Fn(&mut Signature)| {
                let mut func = function(&plan, PRegSet::empty(), None);
                edit(&mut func.signature);
                compile_error(&isa, func)
            };
            let message = error(&|sig| sig.params[1].register = Some(sp));
            assert!(message.contains("parameter 1 in p"), "{message}");
            assert!(message.contains("does not manage"), "{message}");
            if let Some(scratch) = scratch {
                let message = error(&|sig| sig.params[0].register = Some(scratch));
                assert!(message.contains("parameter 0 in p16i"), "{message}");
            }
            let message = error(&|sig| sig.params[3].register = sig.params[0].register);
            assert!(message.contains("two parameters in"), "{message}");
            let message = error(&|sig| sig.returns[2].register = sig.returns[0].register);
            assert!(message.contains("two return values in"), "{message}");
            let message = error(&|sig| sig.params[2].register = Some(gpr(1)));
            assert!(message.contains("parameter 2 of type f64 in p1i"), "{message}");
            let message = error(&|sig| sig.params[0].register = None);
            assert!(message.contains("parameter 0 of an `explicit` signature without"), "{message}");
            let message = error(&|sig| sig.preserved = set(&[fp]));
            assert!(message.contains("preserving p"), "{message}");
            let message = error(&|sig| sig.preserved = set(&[plan.returns[1].1]));
            assert!(message.contains("both preserved and a return value's"), "{message}");
        }
    }
}
