//! Everything patchmap knows about a target architecture, in one place: DWARF register numbers, the
//! sizes LLVM records, its stack size rule and constant extension, the registers a patch point
//! preserves, call sequences (lengths, reach, encodings, relocations), nops, and what the code
//! generator can and cannot do there. `compile`, `lower`, `emit` and `runtime` ask an [`Arch`];
//! nothing else matches on the target.
//!
//! Like [`crate::stackmap`] and [`crate::runtime`], this needs no compiler: it builds with
//! `default-features = false`.

mod aarch64;
mod x86_64;

/// An architecture with stack map support (on Linux, ELF).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arch {
    /// x86-64, System V ABI: variable-length instructions, coherent instruction cache.
    X86_64,
    /// AArch64, AAPCS64: 4-byte instructions; the instruction cache is flushed after patching.
    Aarch64,
}

/// What a stack map location holds, as far as the size LLVM records for it depends on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    /// An integer of this many bits (a pointer is 64).
    Int(u8),
    /// `half`.
    F16,
    /// `float`.
    F32,
    /// `double`.
    F64,
}

/// The width of the integer register that holds an `iN`: the next of 8, 16, 32, 64 and 128 bits at
/// or above N. Both data layouts align an `iN` not listed in them as that next larger listed integer
/// (LLVM's `DataLayout::getIntegerAlignment`; both list `i128:128` since LLVM 18), so it is also the
/// allocation size in bits.
pub fn container_bits(bits: u8) -> u8 {
    match bits {
        0..=8 => 8,
        9..=16 => 16,
        17..=32 => 32,
        33..=64 => 64,
        _ => 128,
    }
}

/// The width `signext` and `zeroext` extend a narrower integer argument or result to, on both
/// targets, as llc-19 compiles them: the passing side extends to 32 bits and llc-19's receiving side
/// relies on those bits (x86-64 SysV, as clang relies on; AArch64 Linux too, although AAPCS64
/// leaves them unspecified and Cranelift extends there for Apple's convention only).
pub const EXTENDED_INTEGER_BITS: u8 = 32;

/// An ELF relocation of a call sequence's target address, at an offset into the sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallRelocation {
    /// Bytes from the start of the sequence to the relocated field.
    pub offset: u32,
    /// The ELF relocation type (`R_X86_64_*`, `R_AARCH64_*`).
    pub elf_type: u32,
}

/// Where a register is kept in [`crate::runtime::registers::Registers`]: which of its arrays, at
/// which index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegisterFile {
    /// `general[index]`: x86-64 DWARF 0-15 (7 is RSP), AArch64 x0-x30 and SP (31), by DWARF number.
    General(usize),
    /// `vector[index]`: x86-64 xmm0-15 (DWARF 17-32), AArch64 v0-v31 (DWARF 64-95), by number.
    Vector(usize),
}

/// A register an `explicitcc` function names (`hwreg`, `noclobber`, `retwr`), as the target knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NamedRegister {
    /// Its DWARF number (`d0` and `v0` on AArch64 are the same register, one number).
    pub dwarf: u16,
    /// Which values it can hold.
    pub class: RegisterClass,
}

/// The kind of value a register holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegisterClass {
    /// Integers and pointers.
    General,
    /// `float` and `double`.
    Float,
}

/// What an `explicitcc` function does with a register it names, which decides whether it may.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegisterUse {
    /// A parameter arrives in it (`hwreg` on a parameter).
    Param,
    /// It comes back unchanged (`noclobber`).
    NoClobber,
    /// `llvm.experimental.retwr` sets it at the return.
    Return,
}

/// A call target the call sequence cannot encode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("address {0:#x} is out of reach of the call sequence")]
pub struct OutOfReach(pub u64);

impl Arch {
    /// Every supported architecture.
    pub const ALL: [Arch; 2] = [Arch::X86_64, Arch::Aarch64];

    /// The Linux GNU triple of the architecture, which the shorthands `x86_64` and `aarch64` name.
    pub fn triple(self) -> &'static str {
        match self {
            Arch::X86_64 => "x86_64-unknown-linux-gnu",
            Arch::Aarch64 => "aarch64-unknown-linux-gnu",
        }
    }

    /// The architecture of this process's own code, where the JIT runs: `None` on other hosts.
    pub const fn host() -> Option<Arch> {
        if cfg!(target_arch = "x86_64") {
            Some(Arch::X86_64)
        } else if cfg!(target_arch = "aarch64") {
            Some(Arch::Aarch64)
        } else {
            None
        }
    }

    /// The architecture a target triple names, if patchmap supports it.
    #[cfg(feature = "compiler")]
    pub fn of_triple(architecture: target_lexicon::Architecture) -> Option<Arch> {
        use target_lexicon::{Aarch64Architecture, Architecture};
        match architecture {
            Architecture::X86_64 => Some(Arch::X86_64),
            Architecture::Aarch64(Aarch64Architecture::Aarch64) => Some(Arch::Aarch64),
            _ => None,
        }
    }

    /// The name messages use: `x86-64` or `AArch64`.
    pub fn name(self) -> &'static str {
        match self {
            Arch::X86_64 => "x86-64",
            Arch::Aarch64 => "AArch64",
        }
    }

    /// DWARF number of the frame pointer, the base of `Direct` and `Indirect` locations.
    pub fn frame_pointer(self) -> u16 {
        match self {
            Arch::X86_64 => x86_64::FRAME_POINTER.0,
            Arch::Aarch64 => aarch64::FRAME_POINTER.0,
        }
    }

    /// DWARF number of the register a call leaves its return address in, which the frame setup
    /// saves beside the frame pointer (AArch64's x30); `None` where calls push it (x86-64).
    pub fn link_register(self) -> Option<u16> {
        match self {
            Arch::X86_64 => None,
            Arch::Aarch64 => Some(aarch64::LINK_REGISTER.0),
        }
    }

    /// DWARF number of the stack pointer.
    pub fn stack_pointer(self) -> u16 {
        match self {
            Arch::X86_64 => x86_64::STACK_POINTER.0,
            Arch::Aarch64 => aarch64::STACK_POINTER.0,
        }
    }

    /// Bytes a call pushes (the return address on x86-64; AArch64 keeps it in x30): a caller's stack
    /// pointer is its callee's plus the callee's stack size plus these.
    pub fn call_pushes(self) -> u64 {
        match self {
            Arch::X86_64 => 8,
            Arch::Aarch64 => 0,
        }
    }

    /// Where the register with this DWARF number is kept in a capture of every register; `None`
    /// for numbers that name no register of the target.
    pub fn register_file(self, dwarf: u16) -> Option<RegisterFile> {
        match self {
            Arch::X86_64 => x86_64::register_file(dwarf),
            Arch::Aarch64 => aarch64::register_file(dwarf),
        }
    }

    /// DWARF numbers of the C convention's integer argument registers, in order.
    pub fn integer_arguments(self) -> &'static [u16] {
        match self {
            Arch::X86_64 => &x86_64::INTEGER_ARGUMENTS,
            Arch::Aarch64 => &aarch64::INTEGER_ARGUMENTS,
        }
    }

    /// DWARF number of the register the C convention returns an integer in: RAX, x0.
    pub fn integer_result(self) -> u16 {
        0
    }

    /// DWARF numbers of the registers a callee preserves (its prologue saves those it uses), the
    /// frame pointer included and the stack pointer not: the registers whose values in a caller
    /// frame a walk can recover. AArch64's v8-v15 only in their low 64 bits.
    pub fn callee_saved(self) -> &'static [u16] {
        match self {
            Arch::X86_64 => &x86_64::CALLEE_SAVED,
            Arch::Aarch64 => &aarch64::CALLEE_SAVED,
        }
    }

    /// A stub of [`Arch::entry_stub_len`] bytes through which generated code enters the runtime: it
    /// hands the address `descriptor` (a handler and its context) to the register-saving routine at
    /// `save` and jumps there, changing no register the routine saves (AArch64: x16 and x17, the
    /// intra-procedure-call scratch registers, are pushed first and saved from the stack). Its two
    /// addresses are the last 16 bytes, descriptor first, which a linker can fill in instead.
    pub fn entry_stub(self, descriptor: u64, save: u64) -> Vec<u8> {
        let mut code = match self {
            Arch::X86_64 => x86_64::ENTRY_STUB.to_vec(),
            Arch::Aarch64 => aarch64::ENTRY_STUB.iter().flat_map(|w| w.to_le_bytes()).collect(),
        };
        code.extend_from_slice(&descriptor.to_le_bytes());
        code.extend_from_slice(&save.to_le_bytes());
        code
    }

    /// The length of [`Arch::entry_stub`]'s code.
    pub fn entry_stub_len(self) -> usize {
        16 + match self {
            Arch::X86_64 => x86_64::ENTRY_STUB.len(),
            Arch::Aarch64 => 4 * aarch64::ENTRY_STUB.len(),
        }
    }

    /// How many exit stubs a group holds (LuaVela's 32: the most an x86-64 `jmp rel8` reaches).
    pub const EXITS_PER_GROUP: u32 = 32;

    /// The bytes of one exit stub: x86-64 `push imm8; jmp rel8` (4), AArch64 `movz x16; b` (8).
    pub fn exit_stub_size(self) -> usize {
        match self {
            Arch::X86_64 => x86_64::EXIT_STUB_SIZE,
            Arch::Aarch64 => aarch64::EXIT_STUB_SIZE,
        }
    }

    /// The bytes of one exit group ([`Arch::exit_group`]): its stubs, prologue and addresses.
    pub fn exit_group_size(self) -> usize {
        match self {
            Arch::X86_64 => x86_64::EXIT_GROUP_SIZE,
            Arch::Aarch64 => aarch64::EXIT_GROUP_SIZE,
        }
    }

    /// A group of [`Arch::EXITS_PER_GROUP`] exit stubs for the numbers from `first`, as LuaVela lays
    /// them out: stub `i` starts at `i * exit_stub_size()`, hands its index to the group's prologue,
    /// which adds `first` and enters the register-saving routine at `save` (the entry's) with
    /// `descriptor` and the exit number, changing no register the routine saves (except AArch64's
    /// x16, which the exit call has already replaced). Position-independent; its last bytes hold the
    /// addresses.
    pub fn exit_group(self, first: u32, descriptor: u64, save: u64) -> Vec<u8> {
        match self {
            Arch::X86_64 => x86_64::exit_group(first, descriptor, save),
            Arch::Aarch64 => aarch64::exit_group(first, descriptor, save),
        }
    }

    /// The general register (by index into `Registers::general`) in which the exits' leave path
    /// takes the stack pointer of the activation it returns from.
    pub fn exit_leave_register(self) -> usize {
        match self {
            Arch::X86_64 => x86_64::EXIT_LEAVE_REGISTER,
            Arch::Aarch64 => aarch64::EXIT_LEAVE_REGISTER,
        }
    }

    /// The length of [`Arch::encode_exit_call`]'s sequence: what a shadow or a patch point's region
    /// needs to hold a call to an exit stub.
    pub fn exit_call_len(self) -> usize {
        self.exit_call_return_offset() as usize
    }

    /// The register LLVM's assembler calls `name` on this target (lower case, 64-bit and vector
    /// names: x86-64 `rax`..`r15`, `xmm0`..`xmm15`; AArch64 `x0`..`x30`, `fp`, `lr`, `sp`,
    /// `d0`..`d31`, `v0`..`v31`); `None` for a name the target does not have.
    pub fn register_by_name(self, name: &str) -> Option<NamedRegister> {
        match self {
            Arch::X86_64 => x86_64::register_by_name(name),
            Arch::Aarch64 => aarch64::register_by_name(name),
        }
    }

    /// The register inline asm clobbers when it names `name` in a clobber: a register or a part of
    /// one (x86-64 `eax`, `ax`, `al`, `r8d`; AArch64 `w19`, `s8`), as llc-19 reads them.
    pub fn clobbered_register(self, name: &str) -> Option<NamedRegister> {
        match self {
            Arch::X86_64 => x86_64::clobbered_register(name),
            Arch::Aarch64 => aarch64::clobbered_register(name),
        }
    }

    /// Whether inline asm may clobber `name` on this target although it names no register that holds
    /// a value: memory, and the flags (as llc-19 takes them); on AArch64 also `x31`/`w31`, register
    /// number 31 (the stack pointer or the zero register, by instruction), which LLVM's tests clobber
    /// with the others and llc-19 takes.
    pub fn is_clobber_keyword(self, name: &str) -> bool {
        match self {
            Arch::X86_64 => matches!(name, "memory" | "cc" | "dirflag" | "fpsr" | "flags" | "eflags" | "fpcr"),
            Arch::Aarch64 => matches!(name, "memory" | "cc" | "nzcv" | "fpsr" | "fpcr" | "x31" | "w31"),
        }
    }

    /// Why `register` cannot be handed over as `usage` says by an `explicitcc` function called from
    /// a patched shadow or region; `None` if it can. The stack pointer never can; the frame pointer
    /// only in `noclobber` (the compiled function keeps its own frame there, and gives the caller's
    /// back); on AArch64 neither can the
    /// registers the patched call sequence uses (x16, x17, and lr, which the call sets) nor the
    /// platform register x18.
    pub fn register_restriction(self, register: NamedRegister, usage: RegisterUse) -> Option<&'static str> {
        match self {
            Arch::X86_64 => x86_64::register_restriction(register, usage),
            Arch::Aarch64 => aarch64::register_restriction(register, usage),
        }
    }

    /// The register with DWARF number `dwarf`, if the target has one by that number (the stack
    /// pointer included).
    pub fn register(self, dwarf: u16) -> Option<NamedRegister> {
        let class = match self.register_file(dwarf)? {
            RegisterFile::General(_) => RegisterClass::General,
            RegisterFile::Vector(_) => RegisterClass::Float,
        };
        Some(NamedRegister { dwarf, class })
    }

    /// Every register of the target, by DWARF number: the general ones (the stack pointer among
    /// them), then the floating-point/vector ones.
    pub fn registers(self) -> impl Iterator<Item = NamedRegister> {
        (0..128).filter_map(move |dwarf| self.register(dwarf))
    }

    /// The name LLVM's assembler gives `register`, as [`Arch::register_by_name`] takes it back: x86-64
    /// `rax`..`r15`, `xmm0`..`xmm15`; AArch64 `x0`..`x30` (`sp` for the stack pointer), `d0`..`d31`.
    pub fn register_name(self, register: NamedRegister) -> Option<String> {
        if register.dwarf == self.stack_pointer() {
            return Some(if self == Arch::X86_64 { "rsp" } else { "sp" }.to_string());
        }
        let hw = self.hardware_encoding(register)?;
        Some(match self {
            Arch::X86_64 => x86_64::register_name(register.class, hw),
            Arch::Aarch64 => aarch64::register_name(register.class, hw),
        })
    }

    /// DWARF number of the general-purpose register with hardware encoding `hw`.
    pub fn gpr_dwarf(self, hw: u8) -> Option<u16> {
        match self {
            Arch::X86_64 => x86_64::gpr_dwarf(hw),
            Arch::Aarch64 => aarch64::gpr_dwarf(hw),
        }
    }

    /// DWARF number of the floating-point/vector register with hardware encoding `hw`.
    pub fn float_dwarf(self, hw: u8) -> Option<u16> {
        match self {
            Arch::X86_64 => x86_64::float_dwarf(hw),
            Arch::Aarch64 => aarch64::float_dwarf(hw),
        }
    }

    /// The hardware encoding of `register` (the inverse of [`Arch::gpr_dwarf`] and
    /// [`Arch::float_dwarf`], by its class): what code generators number registers by.
    pub fn hardware_encoding(self, register: NamedRegister) -> Option<u8> {
        let dwarf = |hw| match register.class {
            RegisterClass::General => self.gpr_dwarf(hw),
            RegisterClass::Float => self.float_dwarf(hw),
        };
        (0..32).find(|&hw| dwarf(hw) == Some(register.dwarf))
    }

    /// Whether conversions between `half` and `float`/`double` are library calls, as llc-19 makes
    /// them on x86-64 without F16C (`__extendhfsf2`, `__truncsfhf2`, `__truncdfhf2`); AArch64
    /// converts with `fcvt`.
    pub fn converts_half_by_libcall(self) -> bool {
        self == Arch::X86_64
    }

    /// The size LLVM records for a value in a register.
    pub fn register_size(self, value: Scalar) -> u16 {
        match self {
            Arch::X86_64 => x86_64::register_size(value),
            Arch::Aarch64 => aarch64::register_size(value),
        }
    }

    /// The size LLVM records for a spilled value: its spill slot's size.
    pub fn spill_size(self, value: Scalar) -> u16 {
        match self {
            Arch::X86_64 => x86_64::spill_size(value),
            Arch::Aarch64 => aarch64::register_size(value),
        }
    }

    /// The size LLVM records for a live-out register that holds a value of type `value`: the
    /// register's width as the value uses it (`StackMaps::parseRegisterLiveOutMask` keeps the
    /// widest live sub-register), which is the size recorded for the value in a register.
    pub fn live_out_size(self, value: Scalar) -> u8 {
        self.register_size(value) as u8
    }

    /// The size LLVM records for a live-out register of the float/vector class.
    pub fn float_live_out_size(self) -> u8 {
        self.register_size(Scalar::F64) as u8
    }

    /// The size LLVM records for a live-out vector register a vector result of `bytes` (8 or 16)
    /// was written to: x86-64 lists every XMM register as 16 bytes, AArch64 a D register as 8 and a
    /// Q register as 16 (llc-19 on `arm64-patchpoint.ll`'s `generic_patchpoint_v4i32`).
    pub fn vector_live_out_size(self, bytes: u8) -> u8 {
        bytes.max(self.float_live_out_size())
    }

    /// The 64-bit value llc-19 records for an integer constant `v` (sign-extended from `bits`).
    pub fn recorded_constant(self, v: i64, bits: u8) -> i64 {
        match self {
            Arch::X86_64 => x86_64::recorded_constant(v, bits),
            Arch::Aarch64 => aarch64::recorded_constant(v, bits),
        }
    }

    /// LLVM's stack size of a function whose frame (below the frame pointer) is `frame_to_fp_offset`
    /// bytes.
    pub fn stack_size(self, frame_to_fp_offset: u32) -> u64 {
        match self {
            Arch::X86_64 => x86_64::stack_size(frame_to_fp_offset),
            Arch::Aarch64 => aarch64::stack_size(frame_to_fp_offset),
        }
    }

    /// Whether llc-19 may keep a statepoint's integer deopt value of `bits` bits in a register: its
    /// type must be legal there (`willLowerDirectly`); AArch64 has no 8- or 16-bit registers, so
    /// llc-19 spills such values to a slot even when asked for registers, and an i128 (two
    /// registers) to a 16-byte slot on both targets.
    pub fn deopt_integer_in_register(self, bits: u8) -> bool {
        match self {
            _ if bits > 64 => false,
            Arch::X86_64 => true,
            Arch::Aarch64 => bits >= 32,
        }
    }

    /// The callee-saved registers as (DWARF number, size in a live-out list), the frame pointer
    /// aside. Those a function does not save hold its caller's values through it: LLVM 19 lists
    /// them as live-outs of every patch point (`LivePhysRegs::addPristines`).
    pub fn live_out_callee_saved(self) -> &'static [(u16, u8)] {
        match self {
            Arch::X86_64 => &x86_64::LIVE_OUT_CALLEE_SAVED,
            Arch::Aarch64 => &aarch64::LIVE_OUT_CALLEE_SAVED,
        }
    }

    /// Whether the epilogue reads the frame pointer: Cranelift's x86-64 epilogue restores SP from
    /// RBP (`mov rsp, rbp; pop rbp`), so RBP is live after every patch point, where llc-19's
    /// `pop rbp` makes it dead; AArch64's reloads x29 with `ldp` without reading it, as llc-19.
    pub fn epilogue_reads_frame_pointer(self) -> bool {
        matches!(self, Arch::X86_64)
    }

    /// The DWARF numbers of the registers the unwinder enters a landing pad with, the exception
    /// object and the selector (`_Unwind_SetGR`'s): x86-64 RAX and RDX, AArch64 X0 and X1.
    pub fn landing_pad_registers(self) -> [u16; 2] {
        match self {
            Arch::X86_64 | Arch::Aarch64 => [0, 1],
        }
    }

    /// How many GC pointers a statepoint can keep in callee-saved registers across its call: the
    /// vendored `statepoint_call`'s registers (x86-64: rbx, r12-r15; AArch64: x19-x28).
    pub fn statepoint_relocation_registers(self) -> usize {
        match self {
            Arch::X86_64 => 5,
            Arch::Aarch64 => 10,
        }
    }

    /// The size instructions come in multiples of: shadows and patched code are whole instructions.
    pub fn instruction_size(self) -> u32 {
        match self {
            Arch::X86_64 => 1,
            Arch::Aarch64 => 4,
        }
    }

    /// Whether instruction fetch sees written code without cache maintenance.
    pub fn coherent_instruction_cache(self) -> bool {
        self == Arch::X86_64
    }

    /// The integer and floating-point registers the register allocator can give anyregcc arguments
    /// (x86-64 keeps r11 for the call sequence; Cranelift never allocates AArch64's x18).
    pub fn anyreg_registers(self) -> (usize, usize) {
        match self {
            Arch::X86_64 => (13, 16),
            Arch::Aarch64 => (26, 32),
        }
    }

    /// The code of a thunk that variadic calls passing floating-point arguments go through, and the
    /// offset of its target field: SysV x86-64 callees read an upper bound of the vector registers
    /// used from `%al`, which Cranelift's calls do not set, so the thunk sets it to 8 (always a valid
    /// bound) and jumps to the callee. `near`: a 32-bit PC-relative target (objects, through the
    /// PLT), else a 64-bit absolute one (the JIT). `None` where calls need no thunk.
    pub fn variadic_thunk(self, near: bool) -> Option<(&'static [u8], u32)> {
        match self {
            Arch::X86_64 if near => Some((&x86_64::VARIADIC_THUNK_NEAR, 3)),
            Arch::X86_64 => Some((&x86_64::VARIADIC_THUNK_FAR, 4)),
            Arch::Aarch64 => None,
        }
    }

    /// Whether the target reverses the bits of a register in one instruction: AArch64's `rbit`.
    /// Baseline x86-64 has none; llc-19 swaps the bytes (`bswap`) and then only nibbles, pairs and
    /// bits, three mask-and-shift steps instead of Cranelift's five.
    pub fn reverses_bits(self) -> bool {
        self == Arch::Aarch64
    }

    /// Where a function's code starts: llc-19 aligns x86-64 functions to 16 bytes (`.p2align 4`),
    /// so that a call lands at the start of an instruction-fetch block; AArch64's are aligned to
    /// their 4-byte instructions. Cranelift asks only for its own minimum (1 byte on x86-64).
    pub fn function_alignment(self) -> u64 {
        match self {
            Arch::X86_64 => 16,
            Arch::Aarch64 => 4,
        }
    }

    /// Whether a `ctlz`/`cttz` whose result at zero is poison is best computed with a stop bit
    /// or'ed into its operand (the top bit for `cttz`, bit 0 for `ctlz`, which leave every
    /// non-zero count as it is): baseline x86-64's `bsr`/`bsf` leave a zero's result undefined and
    /// Cranelift's x64 backend adds a `cmov` for it unless the operand is or'ed with a non-zero
    /// constant (vendored patch `x64-nonzero-bit-counts`). AArch64's `clz` is defined at zero.
    pub fn counts_zeros_with_stop_bit(self) -> bool {
        self == Arch::X86_64
    }

    /// Whether LLVM's backend fuses `llvm.fmuladd` into one fused multiply-add: AArch64 always has
    /// `fmadd`; baseline x86-64 has no FMA, so llc multiplies and adds.
    pub fn fuses_multiply_add(self) -> bool {
        self == Arch::Aarch64
    }

    /// The register LLVM passes a `nest` argument (the static chain) in: R10 (`CC_X86_64_C`), x18
    /// (`CC_AArch64_AAPCS`). Neither is a C argument register, so the others go where they would
    /// without it.
    pub fn static_chain(self) -> NamedRegister {
        let name = match self {
            Arch::X86_64 => "r10",
            Arch::Aarch64 => "x18",
        };
        self.register_by_name(name).expect("the target's own register")
    }

    /// Where an aggregate argument goes wholly in registers or wholly on the stack: the argument
    /// registers of each class (AAPCS64 C.12/C.14, as LLVM implements it). `None` on x86-64, where
    /// front ends split aggregates into scalars themselves.
    pub fn whole_aggregate_registers(self) -> Option<usize> {
        match self {
            Arch::X86_64 => None,
            Arch::Aarch64 => Some(8),
        }
    }

    /// How the C convention's `va_list` reads a variadic function's arguments.
    pub fn va_list(self) -> VaListLayout {
        match self {
            Arch::X86_64 => VaListLayout { kind: VaListKind::SysV, integer_registers: 6, size: 24 },
            Arch::Aarch64 => VaListLayout { kind: VaListKind::Aapcs64, integer_registers: 8, size: 32 },
        }
    }

    /// Whether an `i128` argument starts at an even-numbered register (AAPCS64 C.12: x0/x1, x2/x3...),
    /// the odd one before it left unused; when only x7 is left, LLVM leaves it unused too and the
    /// i128 and every later integer argument go on the stack (C.15).
    pub fn i128_starts_at_even_register(self) -> bool {
        self == Arch::Aarch64
    }

    /// How many integer (and, separately, floating-point) registers return a result.
    pub fn result_registers(self) -> usize {
        match self {
            Arch::X86_64 => 2,
            Arch::Aarch64 => 8,
        }
    }

    /// The length of the call instruction Cranelift emitted that returns to `ret` in `code` (the
    /// function's code before relocations; `relocated(at)`: whether a relocation starts at `at`), or
    /// `None` where the bytes before `ret` are not a call this can tell the length of.
    pub fn call_length(self, code: &[u8], ret: u32, relocated: impl Fn(usize) -> bool) -> Option<u8> {
        match self {
            Arch::X86_64 => x86_64::call_length(code, ret as usize, relocated),
            Arch::Aarch64 => aarch64::call_length(code, ret as usize),
        }
    }

    /// The length of [`Arch::encode_call`]'s sequence.
    pub fn call_sequence_len(self) -> u32 {
        match self {
            Arch::X86_64 => x86_64::CALL_SEQUENCE_LEN,
            Arch::Aarch64 => aarch64::CALL_SEQUENCE_LEN,
        }
    }

    /// How many low bits of an address [`Arch::encode_call`]'s sequence reaches; `None`: all 64.
    pub fn call_reach_bits(self) -> Option<u32> {
        match self {
            Arch::X86_64 => None,
            Arch::Aarch64 => Some(aarch64::CALL_REACH_BITS),
        }
    }

    /// The code LLVM puts in a patch point region to call `target`, through the scratch register it
    /// reserves for this, which no stack map location names.
    pub fn encode_call(self, target: u64) -> Result<Vec<u8>, OutOfReach> {
        match self {
            Arch::X86_64 => Ok(x86_64::encode_call(target)),
            Arch::Aarch64 => aarch64::encode_call(target),
        }
    }

    /// The ELF relocation of PC-relative data of `bytes` (4 or 8) bytes: a relative reference's,
    /// as llc-19 writes LLVM's relative lookup tables.
    pub fn relative_data_relocation(self, bytes: u8) -> u32 {
        match (self, bytes) {
            (Arch::X86_64, 8) => object::elf::R_X86_64_PC64,
            (Arch::X86_64, _) => object::elf::R_X86_64_PC32,
            (Arch::Aarch64, 8) => object::elf::R_AARCH64_PREL64,
            (Arch::Aarch64, _) => object::elf::R_AARCH64_PREL32,
        }
    }

    /// The relocations that give [`Arch::encode_call`]'s sequence a symbol's address.
    pub fn call_relocations(self) -> &'static [CallRelocation] {
        match self {
            Arch::X86_64 => &x86_64::CALL_RELOCATIONS,
            Arch::Aarch64 => &aarch64::CALL_RELOCATIONS,
        }
    }

    /// A call to `target` that leaves every register as it was except the return address (and
    /// AArch64's x16, which no location names), for patching a stack map's shadow with a call to an
    /// exit stub: the stub then sees each live value where the record says it is. The call returns
    /// to the end of the sequence, so code resumed at the return address runs on past it. AArch64
    /// reaches 48-bit addresses, as [`Arch::encode_call`].
    pub fn encode_exit_call(self, target: u64) -> Result<Vec<u8>, OutOfReach> {
        match self {
            Arch::X86_64 => Ok(x86_64::encode_exit_call(target)),
            Arch::Aarch64 => aarch64::encode_exit_call(target),
        }
    }

    /// How far past the patched point the return address of [`Arch::encode_exit_call`]'s call
    /// lies (its whole length): an exit handler subtracts it to find the record it was called from.
    pub fn exit_call_return_offset(self) -> u64 {
        match self {
            Arch::X86_64 => x86_64::EXIT_CALL_RETURN_OFFSET,
            Arch::Aarch64 => aarch64::EXIT_CALL_RETURN_OFFSET,
        }
    }

    /// Whether `bytes` are nothing but whole nop instructions (those [`Arch::write_nops`] writes, and
    /// the other forms code generators pad with: x86-64's `nop` and `nop r/m` with any prefixes,
    /// AArch64's `hint #0`): code a runtime may overwrite without losing an instruction.
    pub fn is_padding(self, bytes: &[u8]) -> bool {
        match self {
            Arch::X86_64 => x86_64::is_padding(bytes),
            Arch::Aarch64 => aarch64::is_padding(bytes),
        }
    }

    /// Whether `code` starts with the trap instruction Cranelift emits for `unreachable` (x86-64
    /// `ud2`, AArch64 `udf`): code that reads no register.
    pub fn starts_with_trap(self, code: &[u8]) -> bool {
        match self {
            Arch::X86_64 => code.starts_with(&[0x0f, 0x0b]),
            Arch::Aarch64 => code.get(..4).is_some_and(|w| w[2] == 0 && w[3] == 0),
        }
    }

    /// How far above the slot `llvm.addressofreturnaddress` points to the caller's stack pointer was
    /// at the call: the stack pointer a patched point's `Direct` and `Indirect` locations are
    /// relative to, as a function called from there sees it.
    pub fn caller_stack_above_return_address(self) -> u64 {
        match self {
            // The call pushed the return address; the caller's stack starts right above it.
            Arch::X86_64 => 8,
            // `bl` pushes nothing: the prologue stored fp, lr at the entry stack pointer - 16.
            Arch::Aarch64 => 8,
        }
    }

    /// Fills `bytes` with the nops llc-19 emits (on AArch64, `bytes` is whole instructions long).
    pub fn write_nops(self, bytes: &mut [u8]) {
        match self {
            Arch::X86_64 => x86_64::write_nops(bytes),
            Arch::Aarch64 => aarch64::write_nops(bytes),
        }
    }

    /// The `nop` instruction as the assembler encodes the mnemonic (in an inline asm template): one
    /// byte `90` on x86-64, `hint #0` on AArch64.
    pub fn nop_instruction(self) -> &'static [u8] {
        match self {
            Arch::X86_64 => &x86_64::NOP,
            Arch::Aarch64 => &aarch64::NOP,
        }
    }

    /// Fills `bytes` with `nop` instructions, each [`Arch::nop_instruction`] (`bytes` is a whole
    /// number of them long).
    pub fn write_nop_instructions(self, bytes: &mut [u8]) {
        let nop = self.nop_instruction();
        for instruction in bytes.chunks_exact_mut(nop.len()) {
            instruction.copy_from_slice(nop);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn call_lengths_of_each_form_cranelift_emits() {
        let none = |_: usize| false;
        // nop; call rel32 (relocated at 2)
        assert_eq!(Arch::X86_64.call_length(&[0x90, 0xe8, 0, 0, 0, 0], 6, |at| at == 2), Some(5));
        // call *disp32(%rip) through the GOT (relocated at 2)
        assert_eq!(Arch::X86_64.call_length(&[0xff, 0x15, 0, 0, 0, 0], 6, |at| at == 2), Some(6));
        // nop; call *%rax
        assert_eq!(Arch::X86_64.call_length(&[0x90, 0xff, 0xd0], 3, none), Some(2));
        // movabs $sym, %r11 (relocated at 2); call *%r11
        let mut movabs = vec![0x49, 0xbb, 0, 0, 0, 0, 0, 0, 0, 0, 0x41, 0xff, 0xd3];
        assert_eq!(Arch::X86_64.call_length(&movabs, 13, |at| at == 2), Some(3));
        // Without the relocation, 0x41 may end the previous instruction: not guessed.
        assert_eq!(Arch::X86_64.call_length(&movabs, 13, none), None);
        // movabs $sym, %r8; mov %r13, %rdx; mov 0x50(%rsp), %rdi; call *%r8 (the JIT's far call,
        // argument moves between): decoded from the movabs.
        let far =
            [0x49, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0x4c, 0x89, 0xea, 0x48, 0x8b, 0x7c, 0x24, 0x50, 0x41, 0xff, 0xd0];
        assert_eq!(Arch::X86_64.call_length(&far, 21, |at| at == 2), Some(3));
        // ...; mov 0x41(%rsp), %rdi; call *%rax: the 0x41 is the displacement.
        let near = [0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0x48, 0x8b, 0x7c, 0x24, 0x41, 0xff, 0xd0];
        assert_eq!(Arch::X86_64.call_length(&near, 17, |at| at == 2), Some(2));
        // An instruction the decoder does not know between: not guessed.
        let unknown = [0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0xd9, 0xee, 0x41, 0xff, 0xd0];
        assert_eq!(Arch::X86_64.call_length(&unknown, 15, |at| at == 2), None);
        movabs[12] = 0xc3;
        assert_eq!(Arch::X86_64.call_length(&movabs, 13, |at| at == 2), None);
        // movabs $sym, %r9; call *%r9: the JIT's far calls use any register.
        let r9 = [0x49, 0xb9, 0, 0, 0, 0, 0, 0, 0, 0, 0x41, 0xff, 0xd1];
        assert_eq!(Arch::X86_64.call_length(&r9, 13, |at| at == 2), Some(3));
        // bl; blr x8; and a `ret`, which is no call.
        let words = [0x9400_0000u32, 0xd63f_0100, 0xd65f_03c0];
        let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(Arch::Aarch64.call_length(&code, 4, none), Some(4));
        assert_eq!(Arch::Aarch64.call_length(&code, 8, none), Some(4));
        assert_eq!(Arch::Aarch64.call_length(&code, 12, none), None);
    }

    #[test]
    fn call_sequences_have_their_stated_length() {
        for arch in [Arch::X86_64, Arch::Aarch64] {
            let code = arch.encode_call(0x1234_5678_9abc).unwrap();
            assert_eq!(code.len() as u32, arch.call_sequence_len(), "{arch:?}");
            assert_eq!(code.len() as u32 % arch.instruction_size(), 0);
            for r in arch.call_relocations() {
                assert!(r.offset < arch.call_sequence_len());
            }
        }
    }

    #[test]
    fn exit_calls_and_groups_have_their_stated_sizes() {
        for arch in Arch::ALL {
            assert_eq!(arch.encode_exit_call(0x1234_5678).unwrap().len(), arch.exit_call_len(), "{arch:?}");
            let group = arch.exit_group(32, 1, 2);
            assert_eq!(group.len(), arch.exit_group_size(), "{arch:?}");
            assert_eq!(arch.exit_stub_size() % arch.instruction_size() as usize, 0);
            assert_eq!(arch.exit_group_size() % 16, 0, "groups keep 16-byte alignment");
        }
        // AArch64: stub i is `movz x16, #i; b` to the prologue at 256.
        let words: Vec<u32> =
            Arch::Aarch64.exit_group(0, 1, 2).chunks(4).map(|w| u32::from_le_bytes(w.try_into().unwrap())).collect();
        for i in 0..32u32 {
            assert_eq!(words[2 * i as usize], 0xd280_0010 | i << 5);
            let offset = 4 * (words[2 * i as usize + 1] & 0x03ff_ffff);
            assert_eq!(8 * i + 4 + offset, 256);
        }
    }

    #[test]
    fn aarch64_call_reaches_48_bits() {
        assert!(Arch::Aarch64.encode_call((1 << 48) - 4).is_ok());
        assert_eq!(Arch::Aarch64.encode_call(1 << 48), Err(OutOfReach(1 << 48)));
        assert!(Arch::X86_64.encode_call(u64::MAX).is_ok());
    }

    #[test]
    fn nops_fill_exactly() {
        let mut bytes = [0u8; 23];
        Arch::X86_64.write_nops(&mut bytes);
        // 10 + 10 + 3: llc-19's longest-first encodings.
        assert_eq!(bytes[..10], [0x2e, 0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x02, 0x00, 0x00]);
        assert_eq!(bytes[20..], [0x0f, 0x1f, 0x00]);
        let mut words = [0u8; 8];
        Arch::Aarch64.write_nops(&mut words);
        assert_eq!(words, [0x1f, 0x20, 0x03, 0xd5, 0x1f, 0x20, 0x03, 0xd5]);
    }

    #[test]
    fn register_names_resolve_per_target() {
        let reg = |arch: Arch, name: &str| arch.register_by_name(name).map(|r| (r.dwarf, r.class));
        let (g, f) = (RegisterClass::General, RegisterClass::Float);
        assert_eq!(reg(Arch::X86_64, "rax"), Some((0, g)));
        assert_eq!(reg(Arch::X86_64, "rcx"), Some((2, g)));
        assert_eq!(reg(Arch::X86_64, "r15"), Some((15, g)));
        assert_eq!(reg(Arch::X86_64, "xmm15"), Some((32, f)));
        for bad in ["eax", "xmm16", "xmm01", "x0", "RAX", ""] {
            assert_eq!(reg(Arch::X86_64, bad), None, "{bad}");
        }
        assert_eq!(reg(Arch::Aarch64, "x0"), Some((0, g)));
        assert_eq!(reg(Arch::Aarch64, "fp"), reg(Arch::Aarch64, "x29"));
        assert_eq!(reg(Arch::Aarch64, "lr"), Some((30, g)));
        assert_eq!(reg(Arch::Aarch64, "sp"), Some((31, g)));
        assert_eq!(reg(Arch::Aarch64, "d3"), reg(Arch::Aarch64, "v3"));
        assert_eq!(reg(Arch::Aarch64, "v31"), Some((95, f)));
        for bad in ["x31", "x01", "d32", "w0", "rax", "xzr"] {
            assert_eq!(reg(Arch::Aarch64, bad), None, "{bad}");
        }
        let restricted = |arch: Arch, name: &str, usage| arch.register_restriction(reg_of(arch, name), usage).is_some();
        fn reg_of(arch: Arch, name: &str) -> NamedRegister {
            arch.register_by_name(name).unwrap()
        }
        for usage in [RegisterUse::Param, RegisterUse::NoClobber, RegisterUse::Return] {
            assert!(restricted(Arch::X86_64, "rsp", usage));
            assert!(!restricted(Arch::X86_64, "r11", usage));
            for name in ["sp", "x16", "x17", "x18", "lr"] {
                assert!(restricted(Arch::Aarch64, name, usage), "{name}");
            }
            assert!(!restricted(Arch::Aarch64, "x15", usage));
        }
        assert!(restricted(Arch::X86_64, "rbp", RegisterUse::Param));
        assert!(!restricted(Arch::X86_64, "rbp", RegisterUse::NoClobber));
        assert!(restricted(Arch::X86_64, "rbp", RegisterUse::Return));
        assert!(restricted(Arch::Aarch64, "fp", RegisterUse::Param));
        assert!(restricted(Arch::Aarch64, "fp", RegisterUse::Return));
        assert!(!restricted(Arch::Aarch64, "fp", RegisterUse::NoClobber));
    }

    #[test]
    fn dwarf_numbers_follow_the_psabis() {
        let encoding = |arch: Arch, name: &str| arch.hardware_encoding(arch.register_by_name(name).unwrap());
        assert_eq!(encoding(Arch::X86_64, "rdx"), Some(2));
        assert_eq!(encoding(Arch::X86_64, "rcx"), Some(1));
        assert_eq!(encoding(Arch::X86_64, "rsi"), Some(6));
        assert_eq!(encoding(Arch::X86_64, "r15"), Some(15));
        assert_eq!(encoding(Arch::X86_64, "xmm13"), Some(13));
        assert_eq!(encoding(Arch::Aarch64, "x28"), Some(28));
        assert_eq!(encoding(Arch::Aarch64, "d31"), Some(31));
        assert_eq!(Arch::Aarch64.hardware_encoding(NamedRegister { dwarf: 40, class: RegisterClass::Float }), None);
        // rcx is encoding 1 but DWARF 2; rsi/rdi swap too.
        assert_eq!(Arch::X86_64.gpr_dwarf(1), Some(2));
        assert_eq!(Arch::X86_64.gpr_dwarf(6), Some(4));
        assert_eq!(Arch::X86_64.float_dwarf(15), Some(32));
        assert_eq!(Arch::Aarch64.gpr_dwarf(31), None);
        assert_eq!(Arch::Aarch64.float_dwarf(31), Some(95));
        assert_eq!((Arch::X86_64.frame_pointer(), Arch::Aarch64.frame_pointer()), (6, 29));
    }

    #[test]
    fn padding_is_told_from_code() {
        for arch in Arch::ALL {
            for len in (0..40).filter(|n| n % arch.instruction_size() as usize == 0) {
                let mut nops = vec![0; len];
                arch.write_nops(&mut nops);
                assert!(arch.is_padding(&nops), "{arch:?}: {len} bytes of nops");
                if len > 0 {
                    // The exit call written over them is not.
                    let call = arch.encode_exit_call(0x1234_5678).unwrap();
                    assert!(!arch.is_padding(&call), "{arch:?}");
                }
            }
        }
        let x86 = |bytes: &[u8]| Arch::X86_64.is_padding(bytes);
        // Cranelift's nops: 0f 1f 00, 0f 1f 40 00, 0f 1f 44 00 00, 66 0f 1f 44 00 00,
        // 0f 1f 80 .., 0f 1f 84 00 .., 66 0f 1f 84 00 ..
        assert!(x86(&[0x0f, 0x1f, 0x00, 0x0f, 0x1f, 0x40, 0x00, 0x0f, 0x1f, 0x44, 0x00, 0x00]));
        assert!(x86(&[0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0f, 0x1f, 0x80, 0, 0, 0, 0]));
        assert!(x86(&[0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00]));
        assert!(!x86(&[0x41, 0x90]), "xchg r8, rax");
        assert!(!x86(&[0x0f, 0x1f, 0x48, 0x00]), "0f 1f /1 is no nop");
        assert!(!x86(&[0x0f, 0x1f, 0x44, 0x00]), "a nop cut short");
        assert!(!x86(&[0x48, 0x89, 0xe5]), "mov rbp, rsp");
        assert!(!x86(&[0x66; 16]), "prefixes alone");
        assert!(!Arch::Aarch64.is_padding(&[0x1f, 0x20, 0x03]));
        assert!(!Arch::Aarch64.is_padding(&0xd503_201eu32.to_le_bytes()));
    }
}

/// A target's C `va_list` and the register save area a variadic function's prologue fills: the
/// integer argument registers, 8 bytes each, then the 8 floating-point ones, 16 bytes each (the
/// psABI's layout on x86-64; on AArch64 AAPCS64's general and vector save areas, one after the other).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VaListLayout {
    /// Which `va_list` structure.
    pub kind: VaListKind,
    /// The integer argument registers: 6 (rdi..r9), 8 (x0..x7).
    pub integer_registers: usize,
    /// The `va_list`'s size in bytes, which `va_copy` copies.
    pub size: u32,
}

/// The `va_list` structures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VaListKind {
    /// x86-64 SysV: `{ i32 gp_offset, i32 fp_offset, ptr overflow_arg_area, ptr reg_save_area }`.
    SysV,
    /// AArch64 AAPCS64: `{ ptr stack, ptr gr_top, ptr vr_top, i32 gr_offs, i32 vr_offs }`.
    Aapcs64,
}

impl VaListLayout {
    /// The floating-point argument registers (xmm0..7, v0..7).
    pub const FLOAT_REGISTERS: usize = 8;
    /// A floating-point register's slot in the save area.
    pub const FLOAT_SLOT: u32 = 16;

    /// Where the floating-point registers start in the save area.
    pub fn float_area(&self) -> u32 {
        self.integer_registers as u32 * 8
    }

    /// The save area's size.
    pub fn save_area_size(&self) -> u32 {
        self.float_area() + Self::FLOAT_REGISTERS as u32 * Self::FLOAT_SLOT
    }
}

/// This thread's thread pointer, as compiled code's `llvm.thread.pointer` reads it (`%fs:0` on
/// x86-64 ELF, `tpidr_el0` on AArch64): for the interpreter, which runs on the host. `None` on
/// other hosts.
pub fn host_thread_pointer() -> Option<u64> {
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    {
        let tp: u64;
        // SAFETY: reads the first word of this thread's control block, which the ELF TLS ABI
        // keeps pointing at itself; no memory is written.
        unsafe { std::arch::asm!("mov {}, fs:0", out(reg) tp, options(nostack, readonly, preserves_flags)) };
        Some(tp)
    }
    #[cfg(all(target_arch = "aarch64", target_os = "linux"))]
    {
        let tp: u64;
        // SAFETY: reads a user-readable system register.
        unsafe { std::arch::asm!("mrs {}, tpidr_el0", out(reg) tp, options(nostack, nomem, preserves_flags)) };
        Some(tp)
    }
    #[cfg(not(all(any(target_arch = "x86_64", target_arch = "aarch64"), target_os = "linux")))]
    {
        None
    }
}
