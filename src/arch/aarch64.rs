//! AArch64 (AAPCS64) facts: DWARF numbers, LLVM's sizes and stack size rule, call and nop encodings.

use gimli::AArch64;

use super::{CallRelocation, NamedRegister, OutOfReach, RegisterClass, RegisterFile, RegisterUse, Scalar};

/// The frame pointer x29, base of `Direct` and `Indirect` locations.
pub const FRAME_POINTER: gimli::Register = AArch64::X29;
/// The link register x30, saved with x29 by the frame setup.
pub const LINK_REGISTER: gimli::Register = AArch64::X30;
/// The stack pointer.
pub const STACK_POINTER: gimli::Register = AArch64::SP;

/// DWARF number of a general-purpose register by its hardware encoding: x0-x30 are 0-30 (31 is SP
/// or XZR by context, never a location).
pub fn gpr_dwarf(hw: u8) -> Option<u16> {
    (hw <= 30).then(|| AArch64::X0.0 + u16::from(hw))
}

/// DWARF number of a floating-point/vector register by its hardware encoding: v0-v31 are 64-95.
pub fn float_dwarf(hw: u8) -> Option<u16> {
    (hw < 32).then(|| AArch64::V0.0 + u16::from(hw))
}

/// The register LLVM calls `name`: `x0`..`x30`, `fp` (x29), `lr` (x30), `sp`, and `d0`..`d31` or
/// `v0`..`v31` (the same registers).
pub fn register_by_name(name: &str) -> Option<NamedRegister> {
    let general = |dwarf: u16| Some(NamedRegister { dwarf, class: RegisterClass::General });
    match name {
        "fp" => return general(FRAME_POINTER.0),
        "lr" => return general(LINK_REGISTER.0),
        "sp" => return general(STACK_POINTER.0),
        _ => {}
    }
    let number = |digits: &str| -> Option<u8> {
        (!digits.is_empty() && (digits.len() == 1 || !digits.starts_with('0'))).then(|| digits.parse().ok())?
    };
    if let Some(hw) = name.strip_prefix('x').and_then(number) {
        return general(gpr_dwarf(hw)?);
    }
    let hw = name.strip_prefix('d').or_else(|| name.strip_prefix('v')).and_then(number)?;
    Some(NamedRegister { dwarf: float_dwarf(hw)?, class: RegisterClass::Float })
}

/// The register whose part inline asm names `name` in a clobber (`w19` of `x19`; `q8`, `s8`, `h8`,
/// `b8` of `v8`, or a whole register's name): clobbering a part clobbers the register.
pub fn clobbered_register(name: &str) -> Option<NamedRegister> {
    if let Some(n) = name.strip_prefix('w') {
        return register_by_name(&format!("x{n}"));
    }
    match name.strip_prefix(['q', 's', 'h', 'b']) {
        Some(n) if n.starts_with(|c: char| c.is_ascii_digit()) => register_by_name(&format!("v{n}")),
        _ => register_by_name(name),
    }
}

/// LLVM's name of the register of `class` with hardware encoding `hw`: `x0`..`x30`, `d0`..`d31`.
pub fn register_name(class: RegisterClass, hw: u8) -> String {
    match class {
        RegisterClass::General => format!("x{hw}"),
        RegisterClass::Float => format!("d{hw}"),
    }
}

/// Why `register` cannot serve as `usage` says; `None` if it can.
pub fn register_restriction(register: NamedRegister, usage: RegisterUse) -> Option<&'static str> {
    match (register.dwarf, usage) {
        (d, _) if d == STACK_POINTER.0 => Some(
            "the stack pointer cannot be handed over: the interrupted code relies on it and gets it back unchanged",
        ),
        (16 | 17, _) => Some("x16 and x17 (IP0, IP1) are used by the patched call sequence itself"),
        (18, _) => Some("x18 is the platform register, reserved"),
        (d, _) if d == LINK_REGISTER.0 => {
            Some("lr (x30) holds the return address of the patched call, not a value of the interrupted code")
        }
        (d, RegisterUse::Return) if d == FRAME_POINTER.0 => Some("the frame pointer always comes back unchanged"),
        (d, RegisterUse::Param) if d == FRAME_POINTER.0 => Some(
            "the compiled function keeps its own frame pointer there (the caller's comes back unchanged: read it \
             through llvm.frameaddress)",
        ),
        _ => None,
    }
}

/// Where a register is kept in a capture: x0-x30 and SP by DWARF number, v0-v31.
pub fn register_file(dwarf: u16) -> Option<RegisterFile> {
    match dwarf {
        0..=31 => Some(RegisterFile::General(usize::from(dwarf))),
        64..=95 => Some(RegisterFile::Vector(usize::from(dwarf - AArch64::V0.0))),
        _ => None,
    }
}

/// The AAPCS64 integer argument registers, in order: x0-x7; results in x0.
pub const INTEGER_ARGUMENTS: [u16; 8] = [0, 1, 2, 3, 4, 5, 6, 7];

/// The AAPCS64 callee-saved registers: x19-x28, the frame pointer x29, and v8-v15 (their low 64
/// bits only).
pub const CALLEE_SAVED: [u16; 19] = [
    AArch64::X19.0,
    AArch64::X20.0,
    AArch64::X21.0,
    AArch64::X22.0,
    AArch64::X23.0,
    AArch64::X24.0,
    AArch64::X25.0,
    AArch64::X26.0,
    AArch64::X27.0,
    AArch64::X28.0,
    AArch64::X29.0,
    AArch64::V8.0,
    AArch64::V9.0,
    AArch64::V10.0,
    AArch64::V11.0,
    AArch64::V12.0,
    AArch64::V13.0,
    AArch64::V14.0,
    AArch64::V15.0,
];

/// `Arch::entry_stub`'s code: pushes x16 and x17 (and 16 bytes more, the routine's word for its
/// handler, which an entry leaves unset, and padding), loads the descriptor into x16 and the routine
/// into x17 from the literals after it (at 16 and 24), and branches there.
pub const ENTRY_STUB: [u32; 4] = [
    0xa9be_47f0, // stp x16, x17, [sp, #-32]!
    0x5800_0070, // ldr x16, #12
    0x5800_0091, // ldr x17, #16
    0xd61f_0220, // br x17
];

/// An exit stub: `movz x16, #index` and `b` to the group's prologue. x16 is free: the exit call
/// (`encode_exit_call`) branched through it.
pub const EXIT_STUB_SIZE: usize = 8;

/// Where a group's prologue starts: after its 32 stubs.
const EXIT_PROLOGUE: usize = 32 * EXIT_STUB_SIZE;

/// A group's bytes: the stubs, the prologue (8 instructions), then the group's first number, the
/// descriptor and the routine, and padding to keep groups 16-byte aligned.
pub const EXIT_GROUP_SIZE: usize = 320;

/// An exit group's code (see `Arch::exit_group`). The prologue pushes x16 and x17 as the entry stub
/// does, adds the group's first number to the index (`add`, which leaves NZCV alone), stores it in
/// the routine's word for its handler, and branches to the routine with the descriptor in x16.
pub fn exit_group(first: u32, descriptor: u64, save: u64) -> Vec<u8> {
    let mut words = Vec::with_capacity(EXIT_GROUP_SIZE / 4);
    for i in 0..32u32 {
        let here = 4 * words.len() + 4;
        words.push(0xd280_0010 | i << 5); // movz x16, #i
        words.push(0x1400_0000 | ((EXIT_PROLOGUE - here) / 4) as u32); // b prologue
    }
    words.extend_from_slice(&[
        0xa9be_47f0, // stp x16, x17, [sp, #-32]!
        0x5800_00f1, // ldr x17, #28: the first number, at 288
        0x8b11_0210, // add x16, x16, x17
        0xf900_0bf0, // str x16, [sp, #16]
        0x5800_00d0, // ldr x16, #24: the descriptor, at 296
        0x5800_00f1, // ldr x17, #28: the routine, at 304
        0xd61f_0220, // br x17
        0xd420_0000, // brk #0
    ]);
    let mut code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    code.extend_from_slice(&u64::from(first).to_le_bytes());
    code.extend_from_slice(&descriptor.to_le_bytes());
    code.extend_from_slice(&save.to_le_bytes());
    code.resize(EXIT_GROUP_SIZE, 0);
    code
}

/// The register `patchmap_exits_leave` takes the stack pointer to leave at in: x9.
pub const EXIT_LEAVE_REGISTER: usize = 9;

/// LLVM's stack size: what the prologue moves SP by, including the frame record (x29, x30).
pub fn stack_size(frame_to_fp_offset: u32) -> u64 {
    u64::from(frame_to_fp_offset) + 16
}

/// Size LLVM records for a value in a register or spilled (W for i1-i32, X, S, D): the spill size
/// of its register class either way.
pub fn register_size(value: Scalar) -> u16 {
    match value {
        // A `half` in an H register: llc-19 records 2 bytes.
        Scalar::F16 => 2,
        Scalar::Int(..=32) | Scalar::F32 => 4,
        Scalar::Int(_) | Scalar::F64 => 8,
    }
}

/// The value llc-19 records for an integer constant `v` (sign-extended from `bits`): legalisation
/// promotes every width but i32 and i64 (i1, i8, i16, i24 to i32; i40 to i64) with an
/// any-extension, which folds to a zero-extension for constants; i32 and i64 stay sign-extended.
pub fn recorded_constant(v: i64, bits: u8) -> i64 {
    match bits {
        32 | 64.. => v,
        _ => v & ((1u64 << bits) - 1) as i64,
    }
}

/// The callee-saved registers, as LLVM's live-outs name them: x19-x28 and the low halves of v8-v15
/// (d8-d15, 8 bytes). x29 and x30 are the frame record, not in the list.
pub const LIVE_OUT_CALLEE_SAVED: [(u16, u8); 18] = [
    (AArch64::X19.0, 8),
    (AArch64::X20.0, 8),
    (AArch64::X21.0, 8),
    (AArch64::X22.0, 8),
    (AArch64::X23.0, 8),
    (AArch64::X24.0, 8),
    (AArch64::X25.0, 8),
    (AArch64::X26.0, 8),
    (AArch64::X27.0, 8),
    (AArch64::X28.0, 8),
    (AArch64::V8.0, 8),
    (AArch64::V9.0, 8),
    (AArch64::V10.0, 8),
    (AArch64::V11.0, 8),
    (AArch64::V12.0, 8),
    (AArch64::V13.0, 8),
    (AArch64::V14.0, 8),
    (AArch64::V15.0, 8),
];

/// `movz/movk/movk x16, target; blr x16`.
pub const CALL_SEQUENCE_LEN: u32 = 16;

/// What the three 16-bit moves reach, as LLVM's sequence.
pub const CALL_REACH_BITS: u32 = 48;

/// The call sequence, through x16 (IP0), for targets below 2^48.
pub fn encode_call(target: u64) -> Result<Vec<u8>, OutOfReach> {
    if target >> CALL_REACH_BITS != 0 {
        return Err(OutOfReach(target));
    }
    let imm = |shift: u32| ((target >> shift) & 0xffff) as u32;
    let words = [
        0xd2c0_0010 | imm(32) << 5, // movz x16, #hi, lsl #32
        0xf2a0_0010 | imm(16) << 5, // movk x16, #mid, lsl #16
        0xf280_0010 | imm(0) << 5,  // movk x16, #lo
        0xd63f_0200,                // blr x16
    ];
    Ok(words.iter().flat_map(|w| w.to_le_bytes()).collect())
}

/// movz #G2, movk #G1, movk #G0: the address in 16-bit pieces, as the linker resolves them.
pub const CALL_RELOCATIONS: [CallRelocation; 3] = [
    CallRelocation { offset: 0, elf_type: object::elf::R_AARCH64_MOVW_UABS_G2_NC },
    CallRelocation { offset: 4, elf_type: object::elf::R_AARCH64_MOVW_UABS_G1_NC },
    CallRelocation { offset: 8, elf_type: object::elf::R_AARCH64_MOVW_UABS_G0_NC },
];

/// The call sequence (`movz`, `movk`, `movk` into x16, `blr x16`): 16 bytes, and the call returns
/// to the end of the sequence, so generated code that resumes there runs on past it. x16 (IP0)
/// and x30 are registers no stack map location names, as neither is allocatable.
pub fn encode_exit_call(target: u64) -> Result<Vec<u8>, OutOfReach> {
    encode_call(target)
}

/// See [`encode_exit_call`].
pub const EXIT_CALL_RETURN_OFFSET: u64 = 16;

/// `nop` (`hint #0`).
pub const NOP: [u8; 4] = 0xd503_201fu32.to_le_bytes();

/// Fills `bytes` (whole instructions) with `hint #0`, llc-19's nop.
pub fn write_nops(bytes: &mut [u8]) {
    for word in bytes.chunks_exact_mut(4) {
        word.copy_from_slice(&NOP);
    }
}

/// Whether `bytes` are whole `hint #0` (nop) instructions.
pub fn is_padding(bytes: &[u8]) -> bool {
    bytes.len().is_multiple_of(4) && bytes.chunks_exact(4).all(|w| w == 0xd503_201fu32.to_le_bytes())
}

/// The length of the call instruction that ends at `ret` in `code`: 4 where the word before `ret` is
/// a `bl` or a `blr` (every AArch64 call), `None` otherwise.
pub fn call_length(code: &[u8], ret: usize) -> Option<u8> {
    let word = u32::from_le_bytes(code.get(ret.checked_sub(4)?..ret)?.try_into().ok()?);
    let bl = word & 0xfc00_0000 == 0x9400_0000;
    let blr = word & 0xffff_fc1f == 0xd63f_0000;
    (bl || blr).then_some(4)
}
