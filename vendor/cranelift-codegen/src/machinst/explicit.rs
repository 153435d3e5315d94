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
    use crate::ir::{AbiParam, Function, InstBuilder, PReg, PRegSet, Signature, Type, types};
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
        let [a, b, c, d] = plan
            .params
            .map(|(ty, _)| pos.func.dfg.append_block_param(block0, ty));
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
            Err(e) => alloc::format!("{:?}", e.inner),
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
            assert!(
                message.contains("parameter 2 of type f64 in p1i"),
                "{message}"
            );
            let message = error(&|sig| sig.params[0].register = None);
            assert!(
                message.contains("parameter 0 of an `explicit` signature without"),
                "{message}"
            );
            let message = error(&|sig| sig.preserved = set(&[fp]));
            assert!(message.contains("preserving p"), "{message}");
            let message = error(&|sig| sig.preserved = set(&[plan.returns[1].1]));
            assert!(
                message.contains("both preserved and a return value's"),
                "{message}"
            );
            // Stack probes and stack limit checks use scratch registers before the saves.
            let mut flags = settings::builder();
            flags.set("enable_probestack", "true").unwrap();
            let probing = lookup(Triple::from_str(plan.triple).unwrap())
                .unwrap()
                .finish(settings::Flags::new(flags))
                .unwrap();
            let message = compile_error(&probing, function(&plan, PRegSet::empty(), None));
            assert!(message.contains("stack probes"), "{message}");
            let mut func = function(&plan, PRegSet::empty(), None);
            let limit = func.create_global_value(crate::ir::GlobalValueData::Symbol {
                name: crate::ir::ExternalName::testcase("limit"),
                offset: 0.into(),
                colocated: false,
                tls: false,
            });
            func.stack_limit = Some(limit);
            let message = compile_error(&isa, func);
            assert!(
                message.contains("a stack limit in an `explicit` function"),
                "{message}"
            );
            // Return registers in another convention's signature are a verifier error.
            let message = error(&|sig| sig.call_conv = CallConv::SystemV);
            assert!(
                message.contains("Only `explicit` signatures name return registers"),
                "{message}"
            );
        }
    }

    /// Runs x64 code compiled here with every register set to a sentinel, on the host.
    #[cfg(all(feature = "x86", target_arch = "x86_64", target_os = "linux"))]
    mod run {
        use core::arch::{asm, global_asm};
        use core::sync::atomic::{AtomicU64, Ordering};

        /// The registers before and after a call: general registers by encoding (rsp's slot
        /// holds rsp before the call), xmm registers whole, then rsp after the call.
        #[repr(C)]
        #[derive(Clone, Debug, PartialEq)]
        pub struct RegisterFile {
            pub gpr: [u64; 16],
            pub xmm: [[u64; 2]; 16],
            pub rsp_after: u64,
        }

        /// `rsp % 16` at the C function's entry, as it last saw it.
        pub static ALIGNMENT_AT_C_ENTRY: AtomicU64 = AtomicU64::new(u64::MAX);

        unsafe extern "C" {
            fn cranelift_explicit_test_harness(code: *const u8, file: *mut RegisterFile);
            pub fn cranelift_explicit_test_c_function(x: u64) -> u64;
        }

        // The harness saves the C callee-saved registers, loads every register but rsp from
        // the file (rbp too: the called code must give it back), calls the code with rsp
        // 16-byte aligned, as a call from a Cranelift function body is, and stores every
        // register back. The C function returns 3x + 1, records the alignment it was called
        // with and overwrites every C caller-saved register.
        global_asm!(
            ".text",
            ".p2align 4",
            ".globl cranelift_explicit_test_harness",
            "cranelift_explicit_test_harness:",
            "push rbp",
            "mov rbp, rsp",
            "push rbx",
            "push r12",
            "push r13",
            "push r14",
            "push r15",
            "sub rsp, 8",
            "push rsi",
            "push rdi",
            "mov [rsi + 32], rsp",
            "movdqu xmm0, [rsi + 128]",
            "movdqu xmm1, [rsi + 144]",
            "movdqu xmm2, [rsi + 160]",
            "movdqu xmm3, [rsi + 176]",
            "movdqu xmm4, [rsi + 192]",
            "movdqu xmm5, [rsi + 208]",
            "movdqu xmm6, [rsi + 224]",
            "movdqu xmm7, [rsi + 240]",
            "movdqu xmm8, [rsi + 256]",
            "movdqu xmm9, [rsi + 272]",
            "movdqu xmm10, [rsi + 288]",
            "movdqu xmm11, [rsi + 304]",
            "movdqu xmm12, [rsi + 320]",
            "movdqu xmm13, [rsi + 336]",
            "movdqu xmm14, [rsi + 352]",
            "movdqu xmm15, [rsi + 368]",
            "mov rax, [rsi]",
            "mov rcx, [rsi + 8]",
            "mov rdx, [rsi + 16]",
            "mov rbx, [rsi + 24]",
            "mov rbp, [rsi + 40]",
            "mov rdi, [rsi + 56]",
            "mov r8, [rsi + 64]",
            "mov r9, [rsi + 72]",
            "mov r10, [rsi + 80]",
            "mov r11, [rsi + 88]",
            "mov r12, [rsi + 96]",
            "mov r13, [rsi + 104]",
            "mov r14, [rsi + 112]",
            "mov r15, [rsi + 120]",
            "mov rsi, [rsi + 48]",
            "call qword ptr [rsp]",
            "push rax",
            "mov rax, [rsp + 16]",
            "mov [rax + 8], rcx",
            "mov [rax + 16], rdx",
            "mov [rax + 24], rbx",
            "mov [rax + 40], rbp",
            "mov [rax + 48], rsi",
            "mov [rax + 56], rdi",
            "mov [rax + 64], r8",
            "mov [rax + 72], r9",
            "mov [rax + 80], r10",
            "mov [rax + 88], r11",
            "mov [rax + 96], r12",
            "mov [rax + 104], r13",
            "mov [rax + 112], r14",
            "mov [rax + 120], r15",
            "pop qword ptr [rax]",
            "mov [rax + 384], rsp",
            "movdqu [rax + 128], xmm0",
            "movdqu [rax + 144], xmm1",
            "movdqu [rax + 160], xmm2",
            "movdqu [rax + 176], xmm3",
            "movdqu [rax + 192], xmm4",
            "movdqu [rax + 208], xmm5",
            "movdqu [rax + 224], xmm6",
            "movdqu [rax + 240], xmm7",
            "movdqu [rax + 256], xmm8",
            "movdqu [rax + 272], xmm9",
            "movdqu [rax + 288], xmm10",
            "movdqu [rax + 304], xmm11",
            "movdqu [rax + 320], xmm12",
            "movdqu [rax + 336], xmm13",
            "movdqu [rax + 352], xmm14",
            "movdqu [rax + 368], xmm15",
            "lea rbp, [rsp + 64]",
            "lea rsp, [rbp - 40]",
            "pop r15",
            "pop r14",
            "pop r13",
            "pop r12",
            "pop rbx",
            "pop rbp",
            "ret",
            "",
            ".p2align 4",
            ".globl cranelift_explicit_test_c_function",
            "cranelift_explicit_test_c_function:",
            "mov rax, rsp",
            "and rax, 15",
            "mov qword ptr [rip + {alignment}], rax",
            "lea rax, [rdi + 2 * rdi + 1]",
            "movabs rcx, 0x0badc0de0badc0de",
            "mov rdx, rcx",
            "mov rsi, rcx",
            "mov rdi, rcx",
            "mov r8, rcx",
            "mov r9, rcx",
            "mov r10, rcx",
            "mov r11, rcx",
            "movq xmm0, rcx",
            "pshufd xmm0, xmm0, 0x44",
            "movdqa xmm1, xmm0",
            "movdqa xmm2, xmm0",
            "movdqa xmm3, xmm0",
            "movdqa xmm4, xmm0",
            "movdqa xmm5, xmm0",
            "movdqa xmm6, xmm0",
            "movdqa xmm7, xmm0",
            "movdqa xmm8, xmm0",
            "movdqa xmm9, xmm0",
            "movdqa xmm10, xmm0",
            "movdqa xmm11, xmm0",
            "movdqa xmm12, xmm0",
            "movdqa xmm13, xmm0",
            "movdqa xmm14, xmm0",
            "movdqa xmm15, xmm0",
            "ret",
            alignment = sym ALIGNMENT_AT_C_ENTRY,
        );

        /// Calls `code` (position-independent, no relocations) with the registers of `file`.
        pub fn call(code: &[u8], file: &mut RegisterFile) {
            let len = code.len().next_multiple_of(4096);
            let memory: isize;
            // mmap(NULL, len, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS)
            unsafe {
                asm!(
                    "syscall",
                    inlateout("rax") 9isize => memory,
                    in("rdi") 0usize,
                    in("rsi") len,
                    in("rdx") 7usize,
                    in("r10") 0x22usize,
                    in("r8") -1isize,
                    in("r9") 0usize,
                    lateout("rcx") _,
                    lateout("r11") _,
                    options(nostack),
                );
            }
            assert!(memory > 0, "mmap failed: {memory}");
            let memory = memory as *mut u8;
            unsafe {
                core::ptr::copy_nonoverlapping(code.as_ptr(), memory, code.len());
                cranelift_explicit_test_harness(memory, file);
                let _: isize;
                asm!(
                    "syscall",
                    inlateout("rax") 11isize => _,
                    in("rdi") memory,
                    in("rsi") len,
                    lateout("rcx") _,
                    lateout("r11") _,
                    options(nostack),
                );
            }
        }

        pub fn alignment_at_c_entry() -> u64 {
            ALIGNMENT_AT_C_ENTRY.load(Ordering::SeqCst)
        }
    }

    /// On the host: every register set to a sentinel, the parameters in theirs; after the
    /// call, the results are in their registers, every preserved register, rbp and rsp hold
    /// what they held, and the C function saw the stack aligned as the C ABI requires. A
    /// mutant that drops one preserved register from the signature is caught.
    #[cfg(all(feature = "x86", target_arch = "x86_64", target_os = "linux"))]
    #[test]
    fn x64_run_keeps_preserved_registers_and_returns_in_named_registers() {
        let plan = plans().remove(0);
        let c_function = run::cranelift_explicit_test_c_function as *const () as usize as u64;
        // Everything the register allocator manages but the return registers.
        let mut preserved = PRegSet::empty();
        for n in 0..16 {
            if ![4, 5, 11, 2].contains(&n) {
                preserved.add(gpr(n));
            }
            if n != 0 {
                preserved.add(fpr(n));
            }
        }
        let (a, b, c, d) = (5u64, 7u64, 1.5f64, 100u64);
        let mut input = run::RegisterFile {
            gpr: core::array::from_fn(|i| 0x5e00_0000_0000_0077 | (i as u64) << 8),
            xmm: core::array::from_fn(|i| {
                [
                    0x5f00_0000_0000_0066 | (i as u64) << 8,
                    0x5f11_0000_0000_0055 | (i as u64) << 8,
                ]
            }),
            rsp_after: 0,
        };
        input.gpr[3] = a;
        input.gpr[10] = b;
        input.xmm[9][0] = c.to_bits();
        input.gpr[7] = d;

        for opt_level in ["none", "speed"] {
            let isa = isa(plan.triple, opt_level);
            let code = compile(&isa, function(&plan, preserved, Some(c_function)));
            assert!(code.buffer.relocs().is_empty());
            let mut file = input.clone();
            run::call(code.code_buffer(), &mut file);
            assert_eq!(
                run::alignment_at_c_entry(),
                8,
                "rsp at the C function's entry"
            );
            assert_eq!(file.gpr[11], 3 * (a + b) + 1 + d);
            assert_eq!(file.xmm[0][0], (c + c).to_bits());
            assert_eq!(file.gpr[2], a);
            assert_eq!(file.rsp_after, file.gpr[4], "rsp");
            assert_eq!(file.gpr[5], input.gpr[5], "rbp");
            for reg in preserved {
                let n = reg.hw_enc();
                match reg.class() {
                    RegClass::Int => assert_eq!(file.gpr[n], input.gpr[n], "{reg}"),
                    _ => assert_eq!(file.xmm[n], input.xmm[n], "{reg}"),
                }
            }

            // The mutant: rcx, which the C function overwrites, no longer preserved.
            let mut mutant = preserved;
            mutant.remove(gpr(1));
            let code = compile(&isa, function(&plan, mutant, Some(c_function)));
            let mut file = input.clone();
            run::call(code.code_buffer(), &mut file);
            assert_ne!(
                file.gpr[1], input.gpr[1],
                "the harness sees a clobbered rcx"
            );
            assert_eq!(file.gpr[11], 3 * (a + b) + 1 + d);
        }
    }

    /// The proposal's example: exchange rcx and rdx without clobbering rax and rbx.
    #[cfg(all(feature = "x86", target_arch = "x86_64", target_os = "linux"))]
    #[test]
    fn x64_run_exchanges_two_registers() {
        let mut sig = Signature::new(CallConv::Explicit);
        sig.params
            .push(AbiParam::new(types::I64).in_register(gpr(1)));
        sig.params
            .push(AbiParam::new(types::I64).in_register(gpr(2)));
        sig.returns
            .push(AbiParam::new(types::I64).in_register(gpr(2)));
        sig.returns
            .push(AbiParam::new(types::I64).in_register(gpr(1)));
        sig.preserved = set(&[gpr(0), gpr(3)]);
        for opt_level in ["none", "speed"] {
            let mut func = Function::with_name_signature(Default::default(), sig.clone());
            let mut pos = FuncCursor::new(&mut func);
            let block0 = pos.func.dfg.make_block();
            pos.insert_block(block0);
            let a = pos.func.dfg.append_block_param(block0, types::I64);
            let b = pos.func.dfg.append_block_param(block0, types::I64);
            pos.ins().return_(&[a, b]);
            let code = compile(&isa("x86_64-unknown-linux-gnu", opt_level), func);
            // The exchange needs a scratch register, which may be a preserved one (then saved).
            for reg in saved(&code) {
                assert!(sig.preserved.contains(reg), "{reg}");
            }
            let mut input = run::RegisterFile {
                gpr: core::array::from_fn(|i| 0x5e00_0000_0000_0077 | (i as u64) << 8),
                xmm: [[0; 2]; 16],
                rsp_after: 0,
            };
            input.gpr[1] = 111;
            input.gpr[2] = 222;
            let mut file = input.clone();
            run::call(code.code_buffer(), &mut file);
            assert_eq!((file.gpr[1], file.gpr[2]), (222, 111));
            for n in [0, 3, 5] {
                assert_eq!(file.gpr[n], input.gpr[n], "register {n}");
            }
            assert_eq!(file.rsp_after, file.gpr[4], "rsp");
        }
    }

    /// `fn(a, b, c) -> callee(c, a, b)` in the C convention, the callee's second parameter in
    /// `chain` (a static chain) and the others where the convention puts them without it.
    fn chain_call(chain: PReg) -> Function {
        let mut sig = Signature::new(CallConv::SystemV);
        sig.params.extend([AbiParam::new(types::I64); 3]);
        sig.returns.push(AbiParam::new(types::I64));
        let mut func = Function::with_name_signature(Default::default(), sig.clone());
        sig.params[1] = sig.params[1].in_register(chain);
        let callee = func.import_signature(sig);
        let mut pos = FuncCursor::new(&mut func);
        let block0 = pos.func.dfg.make_block();
        pos.insert_block(block0);
        let [a, b, c] = [0; 3].map(|_| pos.func.dfg.append_block_param(block0, types::I64));
        let address = pos.ins().iconst(types::I64, 0x1000);
        let call = pos.ins().call_indirect(callee, address, &[c, a, b]);
        let result = pos.func.dfg.inst_results(call)[0];
        pos.ins().return_(&[result]);
        func
    }

    #[test]
    fn a_c_parameter_in_a_named_register_skips_the_conventions_assignment() {
        let mut targets = Vec::new();
        if cfg!(feature = "x86") {
            // r10 (allocatable): a fixed use of the call; the others in rdi and rsi.
            targets.push(("x86_64-unknown-linux-gnu", gpr(10), "%r10", gpr(7)));
        }
        if cfg!(feature = "arm64") {
            // x18 (never allocated): moved there right before the call.
            targets.push(("aarch64-unknown-linux-gnu", gpr(18), "mov x18, x0", gpr(0)));
        }
        for (triple, chain, shown, first) in targets {
            for opt_level in ["none", "speed"] {
                let isa = isa(triple, opt_level);
                let code = compile(&isa, chain_call(chain));
                let body = body(&code);
                assert!(body.contains(shown), "{shown} not in\n{body}");
                // A chain in the first argument register would take another argument's place.
                let error = compile_error(&isa, chain_call(first));
                assert!(error.contains("where the system_v convention passes another value"), "{error}");
            }
        }
    }
}
