//! AArch64 facts for stack maps: DWARF numbers, LLVM's sizes and stack size rule, nop encodings.

use gimli::AArch64;

use crate::ir::Type;

/// The frame pointer x29, base of `Direct` and `Indirect` locations.
pub const FRAME_POINTER: u16 = AArch64::X29.0;

/// DWARF number of a general-purpose register by its hardware encoding: x0-x30 are 0-30.
pub fn gpr_dwarf(hw: u8) -> Option<u16> {
    (hw <= 30).then(|| AArch64::X0.0 + u16::from(hw))
}

/// LLVM's stack size: what the prologue moves SP by, including the frame record (x29, x30).
pub fn stack_size(frame_to_fp_offset: u32) -> u64 {
    u64::from(frame_to_fp_offset) + 16
}

/// Size LLVM records for a value of `ty` in a register (W for i1-i32, X, S, D).
pub fn register_size(ty: &Type) -> u16 {
    match ty {
        Type::Int(1 | 8 | 16 | 32) | Type::Float => 4,
        _ => 8,
    }
}

/// Size LLVM records for a spilled value of `ty`: the spill size of its register class.
pub fn spill_size(ty: &Type) -> u16 {
    register_size(ty)
}

/// The 64-bit value llc-19 records for an integer constant `v` of type `ty` (`v` sign-extended from
/// the type's width): legalisation promotes i1, i8 and i16 to i32 with an any-extension, which folds
/// to a zero-extension for constants; i32 and i64 stay sign-extended.
pub fn recorded_constant(v: i64, ty: &Type) -> i64 {
    match ty.int_bits() {
        Some(bits @ (1 | 8 | 16)) => v & ((1i64 << bits) - 1),
        _ => v,
    }
}

/// DWARF number of a floating-point/vector register by its hardware encoding: v0-v31 are 64-95.
pub fn float_dwarf(hw: u8) -> Option<u16> {
    (hw < 32).then(|| AArch64::V0.0 + u16::from(hw))
}

/// Fills `bytes` with llc-19's nops (shared with the runtime, which pads patched regions alike).
pub fn write_nops(bytes: &mut [u8]) {
    crate::runtime::patch::write_nops(crate::runtime::PatchTarget::Aarch64, bytes);
}

/// Registers live across every patch point: x19-x28, the frame pointer x29, SP and the low halves of
/// v8-v15 (d8-d15, DWARF 72-79), as LLVM 19 lists them; see `x86_64::PRESERVED` for why a superset.
pub const PRESERVED: [(u16, u8); 20] = [
    (19, 8),
    (20, 8),
    (21, 8),
    (22, 8),
    (23, 8),
    (24, 8),
    (25, 8),
    (26, 8),
    (27, 8),
    (28, 8),
    (29, 8),
    (31, 8),
    (72, 8),
    (73, 8),
    (74, 8),
    (75, 8),
    (76, 8),
    (77, 8),
    (78, 8),
    (79, 8),
];
