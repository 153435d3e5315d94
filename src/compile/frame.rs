//! The machine frame of a compiled function as the frame-table layout describes it ([`Frame`]): its
//! code size, flags, frame base register and the registers its prologue saves, read from what
//! Cranelift reports of its prologue (the unwind pseudo-instructions).
//!
//! Input: the compiled code and whether the function has a patch point. Output: a [`Frame`].

use cranelift_codegen::isa::unwind::UnwindInst;
use cranelift_codegen::{CompiledCode, RegClass};

use super::CodegenFailure;
use crate::arch::Arch;
use crate::stackmap::{Frame, FrameRegister};

/// The frame of `compiled`, whose code is `code_size` bytes (its symbol's size).
///
/// - HasFrame: the prologue sets the frame pointer (Cranelift's `DefineNewFrame`). A frame without
///   one (`DefineFrameOnSp`, x86-64 functions that need no frame pointer) has SP as its base
///   register, and its saved registers' offsets are from SP in the body (below the prologue's
///   pushes and `sub`).
/// - HasVariableSizeAlloca: always false: dynamic allocas come from an arena
///   ([`crate::lower::dynamic_stack`]), never from the machine stack, whose SP is fixed in the body.
/// - HasStackRealignment: the prologue rounds SP down for an alloca aligned beyond 16 bytes
///   (Cranelift's `stack_realignment`, patch 0007); frame addresses are then SP-relative.
/// - HasLiveOutInfo: the function has a patch point (the only records with live-outs).
/// - Frame registers: the frame pointer at FP + 0 (and on AArch64 the link register at FP + 8),
///   which the frame setup pushes, then each register of Cranelift's `SaveReg`, at
///   `clobber_offset - offset_downward_to_clobbers` from FP, 8 bytes (general registers, and the
///   low halves of AArch64's v8-v15, all Cranelift saves of them).
pub fn frame(
    arch: Arch,
    compiled: &CompiledCode,
    code_size: usize,
    has_patch_point: bool,
) -> Result<Frame, CodegenFailure> {
    let function_size = u32::try_from(code_size).map_err(|_| CodegenFailure::FunctionSize(code_size))?;
    let mut has_frame = false;
    let mut base_register = arch.frame_pointer();
    // The clobber area's start from the frame's base (FP, or SP in the body), negated.
    let mut clobbers_below_fp = None;
    let mut registers = Vec::new();
    for (_, inst) in &compiled.buffer.unwind_info {
        match *inst {
            UnwindInst::DefineNewFrame { offset_downward_to_clobbers, .. } => {
                has_frame = true;
                clobbers_below_fp = Some(i64::from(offset_downward_to_clobbers));
                registers.push(FrameRegister { dwarf_reg: arch.frame_pointer(), offset: 0, size: 8, is_spilled: true });
                if let Some(link) = arch.link_register() {
                    registers.push(FrameRegister { dwarf_reg: link, offset: 8, size: 8, is_spilled: true });
                }
            }
            UnwindInst::DefineFrameOnSp { offset_downward_to_clobbers, .. } => {
                let layout = compiled.buffer.frame_layout().ok_or(CodegenFailure::NoFrameLayout)?;
                // SP in the body is the whole frame below the return address; the clobber area
                // starts `offset_downward_to_clobbers` below the return address.
                let above_sp = i64::from(layout.frame_to_fp_offset) - i64::from(offset_downward_to_clobbers);
                clobbers_below_fp = Some(-above_sp);
                base_register = arch.stack_pointer();
            }
            UnwindInst::SaveReg { clobber_offset, reg } => {
                let below = clobbers_below_fp.ok_or(CodegenFailure::SaveWithoutFrame)?;
                let dwarf = match reg.class() {
                    RegClass::Int => arch.gpr_dwarf(reg.hw_enc()),
                    RegClass::Float | RegClass::Vector => arch.float_dwarf(reg.hw_enc()),
                };
                let dwarf_reg = dwarf.ok_or(CodegenFailure::UnknownRegister { class: "saved", hw: reg.hw_enc() })?;
                let offset = i64::from(clobber_offset) - below;
                let offset = i32::try_from(offset).map_err(|_| CodegenFailure::FrameOffset(offset))?;
                registers.push(FrameRegister { dwarf_reg, offset, size: 8, is_spilled: true });
            }
            _ => {}
        }
    }
    registers.sort_by_key(|r| r.offset);
    Ok(Frame {
        function_size,
        has_frame,
        has_variable_size_alloca: false,
        has_stack_realignment: compiled.buffer.frame_layout().is_some_and(|l| l.stack_realignment.is_some()),
        has_live_out_info: has_patch_point,
        base_register,
        registers,
    })
}
