//! Variadic definitions: `llvm.va_start`, `llvm.va_copy` and `llvm.va_end` with each target's
//! `va_list` ([`VaListLayout`]).
//!
//! Cranelift has no variadic callee, so the function's signature gets one more parameter per
//! argument register its named parameters leave free (integers as `i64`, floating-point ones as
//! `f64`): Cranelift then receives every argument register, and the entry block stores those
//! parameters into a register save area in the frame, as a C compiler's prologue does. The cost is
//! the stores (up to 6 or 8 integer and 8 floating-point registers) on every call; x86-64's `%al`
//! (how many vector registers the caller set) is not read: all 8 are saved. Arguments beyond the
//! registers are where the caller put them, above the return address: the frame pointer, which
//! every function keeps, plus 16 on both targets. `va_arg` itself is the front end's loads from the
//! `va_list`, as clang writes them for these targets.

use cranelift_codegen::ir::{self as clif, types, AbiParam, ArgumentPurpose, InstBuilder, MemFlagsData, Signature};
use cranelift_codegen::ir::{StackSlotData, StackSlotKind};

use super::Lowering;
use crate::arch::{Arch, VaListKind, VaListLayout};
use crate::ir::IrError;

/// What a variadic definition's named parameters take of the argument registers and the stack.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct NamedArguments {
    /// Integer argument registers the named parameters use (at most all of them).
    ints: usize,
    /// Floating-point argument registers the named parameters use.
    floats: usize,
    /// Bytes of named arguments on the stack, before the variadic ones.
    stack: u32,
}

/// Appends to `sig`, the signature of a variadic definition, a parameter per argument register its
/// named parameters leave, and says what they take.
pub(super) fn receive_all_registers(arch: Arch, sig: &mut Signature) -> NamedArguments {
    let layout = arch.va_list();
    let (mut ints, mut floats, mut stack) = (0usize, 0usize, 0u32);
    for p in &sig.params {
        match p.purpose {
            ArgumentPurpose::StructArgument(size) => stack += size.next_multiple_of(8),
            // AArch64 passes the result's address in x8, no argument register.
            ArgumentPurpose::StructReturn if arch == Arch::Aarch64 => {}
            _ if p.value_type.is_float() => floats += 1,
            _ => ints += 1,
        }
    }
    // Each argument beyond the registers takes an 8-byte slot on both targets.
    stack += 8
        * (ints.saturating_sub(layout.integer_registers) + floats.saturating_sub(VaListLayout::FLOAT_REGISTERS)) as u32;
    let named = NamedArguments {
        ints: ints.min(layout.integer_registers),
        floats: floats.min(VaListLayout::FLOAT_REGISTERS),
        stack,
    };
    sig.params.extend((named.ints..layout.integer_registers).map(|_| AbiParam::new(types::I64)));
    sig.params.extend((named.floats..VaListLayout::FLOAT_REGISTERS).map(|_| AbiParam::new(types::F64)));
    named
}

impl Lowering<'_> {
    /// In the entry block: stores the argument registers the named parameters leave (the last
    /// parameters of the entry block) into the register save area.
    pub(super) fn save_argument_registers(&mut self, named: NamedArguments) {
        let layout = self.arch.va_list();
        let data = StackSlotData::new(StackSlotKind::ExplicitSlot, layout.save_area_size(), 4);
        let slot = self.b.create_sized_stack_slot(data);
        let entry = self.b.current_block().expect("in the entry block");
        let params = self.b.block_params(entry).to_vec();
        let extra = (layout.integer_registers - named.ints) + (VaListLayout::FLOAT_REGISTERS - named.floats);
        let registers = &params[params.len() - extra..];
        let offsets = (named.ints..layout.integer_registers).map(|i| 8 * i as u32).chain(
            (named.floats..VaListLayout::FLOAT_REGISTERS)
                .map(|j| layout.float_area() + VaListLayout::FLOAT_SLOT * j as u32),
        );
        for (&value, offset) in registers.iter().zip(offsets) {
            self.b.ins().stack_store(types::I64, value, slot, offset as i32);
        }
        self.variadic = Some((slot, named));
    }

    /// `llvm.va_start(ap)`: the `va_list` at `ap` reads the first variadic argument next.
    pub(super) fn va_start(&mut self, ap: clif::Value, span: crate::ir::Span) -> Result<(), IrError> {
        let Some((slot, named)) = self.variadic else {
            return Err(self.error(span, format!("'llvm.va_start' in '@{}', which is not variadic", self.f.name)));
        };
        let layout = self.arch.va_list();
        let flags = MemFlagsData::trusted();
        let save_area = self.b.ins().stack_addr(types::I64, slot, 0);
        let frame = self.b.ins().get_frame_pointer(types::I64);
        // The caller's stack arguments start above the saved frame pointer and the return address.
        let stack = self.b.ins().iadd_imm_s(frame, 16 + i64::from(named.stack));
        let int_offset = 8 * named.ints as i64;
        let float_offset = i64::from(layout.float_area()) + i64::from(VaListLayout::FLOAT_SLOT) * named.floats as i64;
        match layout.kind {
            VaListKind::SysV => {
                let gp = self.b.ins().iconst(types::I32, int_offset);
                let fp = self.b.ins().iconst(types::I32, float_offset);
                self.b.ins().store(flags, gp, ap, 0);
                self.b.ins().store(flags, fp, ap, 4);
                self.b.ins().store(flags, stack, ap, 8);
                self.b.ins().store(flags, save_area, ap, 16);
            }
            VaListKind::Aapcs64 => {
                // gr_top and vr_top are the ends of the two areas; the offsets count up to 0 from below.
                let gr_top = self.b.ins().iadd_imm_s(save_area, i64::from(layout.float_area()));
                let vr_top = self.b.ins().iadd_imm_s(save_area, i64::from(layout.save_area_size()));
                let gr_offs = self.b.ins().iconst(types::I32, int_offset - i64::from(layout.float_area()));
                let vr_offs = self.b.ins().iconst(types::I32, float_offset - i64::from(layout.save_area_size()));
                self.b.ins().store(flags, stack, ap, 0);
                self.b.ins().store(flags, gr_top, ap, 8);
                self.b.ins().store(flags, vr_top, ap, 16);
                self.b.ins().store(flags, gr_offs, ap, 24);
                self.b.ins().store(flags, vr_offs, ap, 28);
            }
        }
        Ok(())
    }

    /// `llvm.va_copy(dst, src)`: both targets' `va_list` is a plain struct of 8-byte words.
    pub(super) fn va_copy(&mut self, dst: clif::Value, src: clif::Value) {
        let flags = MemFlagsData::trusted();
        for offset in (0..self.arch.va_list().size as i32).step_by(8) {
            let word = self.b.ins().load(types::I64, flags, src, offset);
            self.b.ins().store(flags, word, dst, offset);
        }
    }
}
