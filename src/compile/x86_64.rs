//! x86-64 facts for stack maps: DWARF numbers, LLVM's sizes and stack size rule, nop encodings.

use gimli::X86_64;

use crate::ir::Type;

/// The frame pointer, base of `Direct` and `Indirect` locations.
pub const FRAME_POINTER: u16 = X86_64::RBP.0;

/// DWARF number of a general-purpose register by its hardware encoding (rcx/rdx and rsi/rdi differ).
pub fn gpr_dwarf(hw: u8) -> Option<u16> {
    const BY_ENCODING: [gimli::Register; 16] = [
        X86_64::RAX,
        X86_64::RCX,
        X86_64::RDX,
        X86_64::RBX,
        X86_64::RSP,
        X86_64::RBP,
        X86_64::RSI,
        X86_64::RDI,
        X86_64::R8,
        X86_64::R9,
        X86_64::R10,
        X86_64::R11,
        X86_64::R12,
        X86_64::R13,
        X86_64::R14,
        X86_64::R15,
    ];
    BY_ENCODING.get(hw as usize).map(|r| r.0)
}

/// LLVM's stack size: what the prologue moves SP by, counting the pushed RBP but not the return address.
pub fn stack_size(frame_to_fp_offset: u32) -> u64 {
    u64::from(frame_to_fp_offset) + 8
}

/// Size LLVM records for a value of `ty` in a register: the spill size of its minimal register class
/// (GR8/GR16/GR32/GR64, and VR128 for floats).
pub fn register_size(ty: &Type) -> u16 {
    match ty {
        Type::Int(1) | Type::Int(8) => 1,
        Type::Int(16) => 2,
        Type::Int(32) => 4,
        Type::Float | Type::Double => 16,
        _ => 8,
    }
}

/// Size LLVM records for a spilled value of `ty`: its spill slot's size.
pub fn spill_size(ty: &Type) -> u16 {
    match ty {
        Type::Int(1) | Type::Int(8) => 1,
        Type::Int(16) => 2,
        Type::Int(32) | Type::Float => 4,
        _ => 8,
    }
}

/// The 64-bit value llc-19 records for an integer constant `v` of type `ty` (`v` sign-extended from
/// the type's width): i8-i64 are legal and stay sign-extended, an i1 is zero-extended.
pub fn recorded_constant(v: i64, ty: &Type) -> i64 {
    match ty.int_bits() {
        Some(1) => v & 1,
        _ => v,
    }
}

/// DWARF number of a floating-point/vector register by its hardware encoding: xmm0-15 are 17-32.
pub fn float_dwarf(hw: u8) -> Option<u16> {
    (hw < 16).then(|| X86_64::XMM0.0 + u16::from(hw))
}

/// Fills `bytes` with llc-19's nops (shared with the runtime, which pads patched regions alike).
pub fn write_nops(bytes: &mut [u8]) {
    crate::runtime::patch::write_nops(crate::runtime::PatchTarget::X86_64, bytes);
}

/// Registers live across every patch point: the callee-saved ones (they hold the caller's values or
/// ours), RBP and RSP, all 8 bytes. A superset of what LLVM's liveness finds: it lists exactly these
/// when nothing else is live, and adds registers holding values used after the region, which ours
/// keep in callee-saved registers or stack slots anyway (the region is a C call).
pub const PRESERVED: [(u16, u8); 7] = [(3, 8), (6, 8), (7, 8), (12, 8), (13, 8), (14, 8), (15, 8)];
