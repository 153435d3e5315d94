//! x86-64 (System V) facts: DWARF numbers, LLVM's sizes and stack size rule, call and nop encodings.

use gimli::X86_64;

use super::{container_bits, CallRelocation, NamedRegister, RegisterClass, RegisterFile, RegisterUse, Scalar};

/// The frame pointer, base of `Direct` and `Indirect` locations.
pub const FRAME_POINTER: gimli::Register = X86_64::RBP;
/// The stack pointer.
pub const STACK_POINTER: gimli::Register = X86_64::RSP;

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

/// DWARF number of a floating-point/vector register by its hardware encoding: xmm0-15 are 17-32.
pub fn float_dwarf(hw: u8) -> Option<u16> {
    (hw < 16).then(|| X86_64::XMM0.0 + u16::from(hw))
}

/// LLVM's names of the general registers, by hardware encoding.
const GENERAL_NAMES: [&str; 16] =
    ["rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"];

/// The register whose part inline asm names `name` in a clobber (`eax`, `ax`, `al`, `ah`, `r8d`,
/// `r8w`, `r8b`, or a whole register's name): clobbering a part clobbers the register.
pub fn clobbered_register(name: &str) -> Option<NamedRegister> {
    const LEGACY: [[&str; 4]; 8] = [
        ["eax", "ax", "al", "ah"],
        ["ecx", "cx", "cl", "ch"],
        ["edx", "dx", "dl", "dh"],
        ["ebx", "bx", "bl", "bh"],
        ["esp", "sp", "spl", ""],
        ["ebp", "bp", "bpl", ""],
        ["esi", "si", "sil", ""],
        ["edi", "di", "dil", ""],
    ];
    if let Some(hw) = LEGACY.iter().position(|parts| !name.is_empty() && parts.contains(&name)) {
        return register_by_name(GENERAL_NAMES[hw]);
    }
    // AVX's `ymmN` extends `xmmN`: the same register for what it clobbers or holds.
    if let Some(n) = name.strip_prefix("ymm") {
        return register_by_name(&format!("xmm{n}"));
    }
    let whole = name.strip_suffix(['d', 'w', 'b']).filter(|w| w.starts_with('r')).unwrap_or(name);
    register_by_name(whole).filter(|r| whole == name || r.class == RegisterClass::General)
}

/// LLVM's name of the register of `class` with hardware encoding `hw` (below 16).
pub fn register_name(class: RegisterClass, hw: u8) -> String {
    match class {
        RegisterClass::General => GENERAL_NAMES[usize::from(hw)].to_string(),
        RegisterClass::Float => format!("xmm{hw}"),
    }
}

/// The register LLVM calls `name`: `rax`..`r15` (64-bit names only), `xmm0`..`xmm15`.
pub fn register_by_name(name: &str) -> Option<NamedRegister> {
    if let Some(hw) = GENERAL_NAMES.iter().position(|n| *n == name) {
        return Some(NamedRegister { dwarf: gpr_dwarf(hw as u8)?, class: RegisterClass::General });
    }
    let hw: u8 = name.strip_prefix("xmm").filter(|n| !n.starts_with('0') || n.len() == 1)?.parse().ok()?;
    Some(NamedRegister { dwarf: float_dwarf(hw)?, class: RegisterClass::Float })
}

/// Why `register` cannot serve as `usage` says; `None` if it can.
pub fn register_restriction(register: NamedRegister, usage: RegisterUse) -> Option<&'static str> {
    match (register.dwarf, usage) {
        (d, _) if d == STACK_POINTER.0 => Some(
            "the stack pointer cannot be handed over: the interrupted code relies on it and gets it back unchanged",
        ),
        (d, RegisterUse::Return) if d == FRAME_POINTER.0 => Some("the frame pointer always comes back unchanged"),
        (d, RegisterUse::Param) if d == FRAME_POINTER.0 => Some(
            "the compiled function keeps its own frame pointer there (the caller's comes back unchanged: read it \
             through llvm.frameaddress)",
        ),
        _ => None,
    }
}

/// Where a register is kept in a capture: the 16 general registers by DWARF number, xmm0-15.
pub fn register_file(dwarf: u16) -> Option<RegisterFile> {
    match dwarf {
        0..=15 => Some(RegisterFile::General(usize::from(dwarf))),
        17..=32 => Some(RegisterFile::Vector(usize::from(dwarf - X86_64::XMM0.0))),
        _ => None,
    }
}

/// The System V integer argument registers, in order: RDI, RSI, RDX, RCX, R8, R9; results in RAX.
pub const INTEGER_ARGUMENTS: [u16; 6] =
    [X86_64::RDI.0, X86_64::RSI.0, X86_64::RDX.0, X86_64::RCX.0, X86_64::R8.0, X86_64::R9.0];

/// The System V callee-saved registers: RBX, RBP, R12-R15 (no vector register).
pub const CALLEE_SAVED: [u16; 6] =
    [X86_64::RBX.0, X86_64::RBP.0, X86_64::R12.0, X86_64::R13.0, X86_64::R14.0, X86_64::R15.0];

/// `Arch::entry_stub`'s code: makes room for two words above the return address (the descriptor,
/// and the routine's word for its handler, which an entry leaves unset), stores the descriptor
/// through RAX (saved and restored around it) and jumps to the routine; `lea`, `mov`, `push` and
/// `pop` leave the flags alone. Padded with `int3` to 32 bytes, where the two addresses start.
pub const ENTRY_STUB: [u8; 32] = [
    0x48, 0x8d, 0x64, 0x24, 0xf0, // lea rsp, [rsp - 16]
    0x50, // push rax
    0x48, 0x8b, 0x05, 19, 0, 0, 0, // mov rax, [rip + 19]: the descriptor, at 32
    0x48, 0x89, 0x44, 0x24, 0x08, // mov [rsp + 8], rax
    0x58, // pop rax
    0xff, 0x25, 15, 0, 0, 0, // jmp [rip + 15]: the routine, at 40
    0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
];

/// An exit stub: `push imm8` (its index in the group) and `jmp rel8` to the group's prologue.
pub const EXIT_STUB_SIZE: usize = 4;

/// Where a group's prologue starts: after its 32 stubs, in reach of every stub's `jmp rel8`.
const EXIT_PROLOGUE: usize = 32 * EXIT_STUB_SIZE;

/// A group's bytes: the stubs, the prologue, `int3` padding, then the descriptor and the routine.
pub const EXIT_GROUP_SIZE: usize = 192;

/// An exit group's code (see `Arch::exit_group`). The prologue turns the stub's pushed index into
/// the exit number (`lea`, not `add`: the flags are not yet saved) in the word the routine hands
/// its handler, and stores the descriptor below it, through RAX, saved and restored around it.
pub fn exit_group(first: u32, descriptor: u64, save: u64) -> Vec<u8> {
    let mut code = Vec::with_capacity(EXIT_GROUP_SIZE);
    for i in 0..32u8 {
        let next = code.len() + EXIT_STUB_SIZE;
        code.extend_from_slice(&[0x6a, i, 0xeb, (EXIT_PROLOGUE - next) as u8]); // push i; jmp prologue
    }
    code.extend_from_slice(&[0x48, 0x8d, 0x64, 0x24, 0xf8]); // lea rsp, [rsp - 8]
    code.push(0x50); // push rax
    code.extend_from_slice(&[0x48, 0x8b, 0x44, 0x24, 0x10]); // mov rax, [rsp + 16]: the index
    code.extend_from_slice(&[0x48, 0x8d, 0x80]); // lea rax, [rax + first]
    code.extend_from_slice(&first.to_le_bytes());
    code.extend_from_slice(&[0x48, 0x89, 0x44, 0x24, 0x10]); // mov [rsp + 16], rax: the number
    code.extend_from_slice(&[0x48, 0x8b, 0x05, 18, 0, 0, 0]); // mov rax, [rip + 18]: the descriptor, at 176
    code.extend_from_slice(&[0x48, 0x89, 0x44, 0x24, 0x08]); // mov [rsp + 8], rax
    code.push(0x58); // pop rax
    code.extend_from_slice(&[0xff, 0x25, 14, 0, 0, 0]); // jmp [rip + 14]: the routine, at 184
    code.resize(EXIT_GROUP_SIZE - 16, 0xcc);
    code.extend_from_slice(&descriptor.to_le_bytes());
    code.extend_from_slice(&save.to_le_bytes());
    code
}

/// The register `patchmap_exits_leave` takes the stack pointer to leave at in: RCX, DWARF 2.
pub const EXIT_LEAVE_REGISTER: usize = 2;

/// LLVM's stack size: what the prologue moves SP by, counting the pushed RBP but not the return address.
pub fn stack_size(frame_to_fp_offset: u32) -> u64 {
    u64::from(frame_to_fp_offset) + 8
}

/// Size LLVM records for a value in a register: the spill size of its minimal register class
/// (GR8/GR16/GR32/GR64, and VR128 for floats).
/// An `iN` of another width is promoted to the next larger legal integer (an i24 to a GR32).
pub fn register_size(value: Scalar) -> u16 {
    match value {
        // llc-19 records a `half` in an XMM register at 16 bytes too (checked: a stack map of a half).
        Scalar::F16 | Scalar::F32 | Scalar::F64 => 16,
        Scalar::Int(bits) => u16::from(container_bits(bits) / 8),
    }
}

/// Size LLVM records for a spilled value: its spill slot's size.
pub fn spill_size(value: Scalar) -> u16 {
    match value {
        // llc-19 spills a half (register class FR16) to a 4-byte slot and records that size.
        Scalar::F16 => 4,
        Scalar::F32 => 4,
        Scalar::F64 => 8,
        Scalar::Int(bits) => u16::from(container_bits(bits) / 8),
    }
}

/// The value llc-19 records for an integer constant `v` (sign-extended from `bits`): i8-i64 are
/// legal and stay sign-extended; other widths (i1, i24, i40...) are promoted with an
/// any-extension, which folds to a zero-extension for constants.
pub fn recorded_constant(v: i64, bits: u8) -> i64 {
    match bits {
        8 | 16 | 32 | 64.. => v,
        _ => v & ((1u64 << bits) - 1) as i64,
    }
}

/// The callee-saved registers, as LLVM's live-outs name them (RBP, the frame pointer, is not in the
/// list).
pub const LIVE_OUT_CALLEE_SAVED: [(u16, u8); 5] =
    [(X86_64::RBX.0, 8), (X86_64::R12.0, 8), (X86_64::R13.0, 8), (X86_64::R14.0, 8), (X86_64::R15.0, 8)];

/// `movabs r11, target; call r11`.
pub const CALL_SEQUENCE_LEN: u32 = 13;

/// The call sequence: r11 is the scratch register LLVM reserves for it.
pub fn encode_call(target: u64) -> Vec<u8> {
    let mut code = vec![0x49, 0xbb];
    code.extend_from_slice(&target.to_le_bytes());
    code.extend_from_slice(&[0x41, 0xff, 0xd3]);
    code
}

/// `mov al, 8; jmp rel32`: see `Arch::variadic_thunk`.
pub const VARIADIC_THUNK_NEAR: [u8; 7] = [0xb0, 0x08, 0xe9, 0, 0, 0, 0];

/// `mov al, 8; movabs r11, imm64; jmp r11` (r11 carries no argument).
pub const VARIADIC_THUNK_FAR: [u8; 15] = [0xb0, 0x08, 0x49, 0xbb, 0, 0, 0, 0, 0, 0, 0, 0, 0x41, 0xff, 0xe3];

/// movabs's 64-bit immediate, absolute, as llc-19 relocates it.
pub const CALL_RELOCATIONS: [CallRelocation; 1] = [CallRelocation { offset: 2, elf_type: object::elf::R_X86_64_64 }];

/// `jmp +8`, the 8-byte address, `call [rip - 14]` (the address): 16 bytes, and the call returns
/// to the end of the sequence, so generated code that resumes there runs on past it.
pub fn encode_exit_call(target: u64) -> Vec<u8> {
    let mut code = vec![0xeb, 0x08];
    code.extend_from_slice(&target.to_le_bytes());
    code.extend_from_slice(&[0xff, 0x15, 0xf2, 0xff, 0xff, 0xff]);
    code
}

/// See [`encode_exit_call`].
pub const EXIT_CALL_RETURN_OFFSET: u64 = 16;

/// `nop`: the one-byte form, as the assembler encodes the mnemonic.
pub const NOP: [u8; 1] = [0x90];

/// Fills `bytes` with llc-19's longest-first nop encodings of at most 10 bytes (`emitX86Nops`
/// without `-mcpu`, displacements 8 and 512).
pub fn write_nops(bytes: &mut [u8]) {
    const NOPS: [&[u8]; 11] = [
        &[],
        &[0x90],
        &[0x66, 0x90],
        &[0x0f, 0x1f, 0x00],
        &[0x0f, 0x1f, 0x40, 0x08],
        &[0x0f, 0x1f, 0x44, 0x00, 0x08],
        &[0x66, 0x0f, 0x1f, 0x44, 0x00, 0x08],
        &[0x0f, 0x1f, 0x80, 0x00, 0x02, 0x00, 0x00],
        &[0x0f, 0x1f, 0x84, 0x00, 0x00, 0x02, 0x00, 0x00],
        &[0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x02, 0x00, 0x00],
        &[0x2e, 0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x02, 0x00, 0x00],
    ];
    let mut rest = bytes;
    while !rest.is_empty() {
        let n = rest.len().min(NOPS.len() - 1);
        let (head, tail) = rest.split_at_mut(n);
        head.copy_from_slice(NOPS[n]);
        rest = tail;
    }
}

/// Whether `bytes` are whole nops: `90` (`xchg eax, eax`) or `0f 1f /0` (`nop r/m`, with its
/// ModRM, SIB and displacement), each after any number of operand-size or segment prefixes (x86
/// allows at most 15 bytes an instruction). No REX prefix: `41 90` exchanges r8 and rax.
pub fn is_padding(bytes: &[u8]) -> bool {
    let mut at = 0;
    while at < bytes.len() {
        let start = at;
        while at < bytes.len() && matches!(bytes[at], 0x66 | 0x2e | 0x3e | 0x26 | 0x36 | 0x64 | 0x65) {
            at += 1;
        }
        match bytes.get(at..) {
            Some([0x90, ..]) => at += 1,
            Some([0x0f, 0x1f, modrm, rest @ ..]) if modrm & 0x38 == 0 => {
                let (mode, rm) = (modrm >> 6, modrm & 7);
                let sib = mode != 3 && rm == 4;
                let displacement = match mode {
                    0 if rm == 5 => 4,
                    0 if sib && rest.first().is_some_and(|s| s & 7 == 5) => 4,
                    1 => 1,
                    2 => 4,
                    _ => 0,
                };
                at += 3 + usize::from(sib) + displacement;
            }
            _ => return false,
        }
        if at > bytes.len() || at - start > 15 {
            return false;
        }
    }
    true
}

/// The length of the call instruction that ends at `ret` in `code` (Cranelift's code, before
/// relocations are applied), among the forms Cranelift emits for calls: `call rel32` (5 bytes, a
/// PC-relative relocation at `ret - 4`), `call *disp32(%rip)` through the GOT (6 bytes, a GOT
/// relocation at `ret - 4`), and `call *%reg` (2 bytes, 3 with the REX prefix of r8-r15).
/// `relocated(at)`: whether a relocation starts at `at`.
///
/// A 0x41 before `call *%reg` may be its REX prefix or the previous instruction's last byte. It is
/// told by decoding forward from the end of the relocated `movabs $sym, %reg` that loaded the
/// target (the JIT's far calls), a known instruction boundary, through the instructions between
/// (argument moves); `None` when there is no such `movabs` nearby or an instruction between is not
/// one [`instruction_end`] knows.
pub fn call_length(code: &[u8], ret: usize, relocated: impl Fn(usize) -> bool) -> Option<u8> {
    let byte = |back: usize| ret.checked_sub(back).and_then(|i| code.get(i)).copied();
    if relocated(ret.wrapping_sub(4)) {
        return match (byte(6), byte(5)) {
            (_, Some(0xe8)) => Some(5),
            (Some(0xff), Some(0x15)) => Some(6),
            _ => None,
        };
    }
    // `call *%reg`: FF /2 with mod = 11.
    if byte(2) != Some(0xff) || byte(1)? & 0xf8 != 0xd0 {
        return None;
    }
    if byte(3) != Some(0x41) {
        return Some(2);
    }
    // The nearest relocated movabs (REX.W, B8+r, imm64) whose immediate ends before the call.
    let movabs_end = (ret.saturating_sub(MOVABS_SEARCH)..=ret.checked_sub(11)?).rev().find(|&r| {
        r >= 2
            && relocated(r)
            && matches!(code.get(r - 2), Some(0x48 | 0x49))
            && matches!(code.get(r - 1), Some(0xb8..=0xbf))
    })? + 8;
    let mut at = movabs_end;
    while at < ret {
        let end = instruction_end(code, at)?;
        if end == ret {
            let length = ret - at;
            return (length == 2 || (length == 3 && code[at] == 0x41)).then_some(length as u8);
        }
        at = end;
    }
    None
}

/// How far before a call [`call_length`] looks for the `movabs` of its target.
const MOVABS_SEARCH: usize = 96;

/// Where the instruction at `at` ends, for the instructions Cranelift puts between loading a call's
/// target and the call: integer moves, loads, `lea` and register arithmetic (ModRM forms), moves of
/// immediates, SSE moves, and `call *%reg`; `None` for any other.
fn instruction_end(code: &[u8], at: usize) -> Option<usize> {
    let get = |i: usize| code.get(i).copied();
    let mut i = at;
    while matches!(get(i)?, 0x66 | 0xf2 | 0xf3) {
        i += 1;
    }
    let mut wide = false;
    if let rex @ 0x40..=0x4f = get(i)? {
        wide = rex & 8 != 0;
        i += 1;
    }
    let opcode = get(i)?;
    i += 1;
    let (modrm, immediate) = match opcode {
        0x01 | 0x03 | 0x09 | 0x0b | 0x21 | 0x23 | 0x29 | 0x2b | 0x31 | 0x33 | 0x39 | 0x3b | 0x85 | 0x89 | 0x8b
        | 0x8d | 0xff => (true, 0),
        0xb8..=0xbf => (false, if wide { 8 } else { 4 }),
        0xc7 => (true, 4),
        0x0f => {
            i += 1;
            match get(i - 1)? {
                0x10 | 0x11 | 0x28 | 0x29 | 0x57 | 0x6e | 0x7e | 0xd6 | 0xef => (true, 0),
                _ => return None,
            }
        }
        _ => return None,
    };
    if modrm {
        let modrm = get(i)?;
        i += 1;
        let (mode, rm) = (modrm >> 6, modrm & 7);
        if mode != 3 && rm == 4 {
            let sib = get(i)?;
            i += 1;
            if mode == 0 && sib & 7 == 5 {
                i += 4;
            }
        }
        i += match (mode, rm) {
            (0, 5) => 4,
            (1, _) => 1,
            (2, _) => 4,
            _ => 0,
        };
    }
    Some(i + immediate)
}
