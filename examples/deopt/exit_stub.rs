//! The machine-code side of leaving compiled code: an entry trampoline that remembers where to come
//! back to, and an exit stub that saves every register of the stopped code (in the spirit of LuaVela's
//! exit handler, which pushes the registers into an `ExitState` and calls `lj_trace_exit`), calls the
//! Rust exit handler with them, and returns the handler's result from the trampoline, discarding the
//! compiled code's frame.
//!
//! A stack map's shadow is patched with `Arch::encode_exit_call(stub)`, a call that changes no
//! register the code can hold a value in, so the stub sees each live value where the record says.

/// Registers as the compiled code left them at the stack map's point, indexed by DWARF number.
#[cfg(target_arch = "x86_64")]
#[repr(C)]
pub struct ExitState {
    /// RAX, RDX, RCX, RBX, RSI, RDI, RBP, RSP (its value at the point), R8-R15: DWARF 0-15.
    pub gpr: [u64; 16],
    /// XMM0-15 (DWARF 17-32), low and high halves.
    pub xmm: [[u64; 2]; 16],
}

#[cfg(target_arch = "aarch64")]
#[repr(C)]
pub struct ExitState {
    /// X0-X30 and SP (its value at the point): DWARF 0-31. X16 holds the stub's address, since the
    /// exit call loads it there; no stack map location names X16.
    pub gpr: [u64; 32],
    /// V0-V31, low 64 bits (DWARF 64-95).
    pub v: [u64; 32],
}

impl ExitState {
    /// The register with this DWARF number: its low 64 bits.
    pub fn register(&self, dwarf: u16) -> Option<u64> {
        let dwarf = usize::from(dwarf);
        #[cfg(target_arch = "x86_64")]
        return match dwarf {
            0..=15 => Some(self.gpr[dwarf]),
            17..=32 => Some(self.xmm[dwarf - 17][0]),
            _ => None,
        };
        #[cfg(target_arch = "aarch64")]
        return match dwarf {
            0..=31 => Some(self.gpr[dwarf]),
            64..=95 => Some(self.v[dwarf - 64]),
            _ => None,
        };
    }

    /// The stack pointer at the point.
    pub fn stack_pointer(&self) -> u64 {
        #[cfg(target_arch = "x86_64")]
        return self.gpr[7];
        #[cfg(target_arch = "aarch64")]
        return self.gpr[31];
    }
}

/// What the exit handler hands back to the stub: the function's result, and the stack pointer
/// [`enter`] saved, where the stub resumes. Two integers: returned in RAX:RDX / X0:X1.
#[repr(C)]
pub struct Resume {
    pub value: u64,
    pub stack: u64,
}

/// Calls `code(a0, a1)` and returns its result, first storing at `*entry_stack` the stack pointer an
/// exit resumes at: the stub restores the callee-saved registers saved here and returns from this
/// call with the exit handler's value, as if `code` had returned it.
///
/// # Safety
/// `code` must be a function taking two integers and returning one; `entry_stack` must be writable.
#[cfg(target_arch = "x86_64")]
#[unsafe(naked)]
pub unsafe extern "C" fn enter(code: usize, a0: u64, a1: u64, entry_stack: *mut u64) -> u64 {
    std::arch::naked_asm!(
        "push rbp",
        "push rbx",
        "push r12",
        "push r13",
        "push r14",
        "push r15",
        "mov [rcx], rsp",
        // Six pushes after the return address leave RSP 8 off the 16-byte alignment calls need.
        "sub rsp, 8",
        "mov rax, rdi",
        "mov rdi, rsi",
        "mov rsi, rdx",
        "call rax",
        "add rsp, 8",
        "pop r15",
        "pop r14",
        "pop r13",
        "pop r12",
        "pop rbx",
        "pop rbp",
        "ret",
    )
}

/// The exit stub: the patched shadow calls it (`call [rip]`), so the return address, 6 bytes past
/// the point, is on top of the stack. Saves every register into an [`ExitState`] below it, calls
/// `handler(&state, return_address)`, then leaves through [`enter`]'s epilogue at `Resume::stack`.
#[cfg(target_arch = "x86_64")]
#[unsafe(naked)]
pub unsafe extern "C" fn exit_stub() {
    std::arch::naked_asm!(
        "sub rsp, 384",
        "mov [rsp], rax",
        "mov [rsp + 8], rdx",
        "mov [rsp + 16], rcx",
        "mov [rsp + 24], rbx",
        "mov [rsp + 32], rsi",
        "mov [rsp + 40], rdi",
        "mov [rsp + 48], rbp",
        // RSP at the point: above this state and the return address.
        "lea rax, [rsp + 392]",
        "mov [rsp + 56], rax",
        "mov [rsp + 64], r8",
        "mov [rsp + 72], r9",
        "mov [rsp + 80], r10",
        "mov [rsp + 88], r11",
        "mov [rsp + 96], r12",
        "mov [rsp + 104], r13",
        "mov [rsp + 112], r14",
        "mov [rsp + 120], r15",
        "movdqu [rsp + 128], xmm0",
        "movdqu [rsp + 144], xmm1",
        "movdqu [rsp + 160], xmm2",
        "movdqu [rsp + 176], xmm3",
        "movdqu [rsp + 192], xmm4",
        "movdqu [rsp + 208], xmm5",
        "movdqu [rsp + 224], xmm6",
        "movdqu [rsp + 240], xmm7",
        "movdqu [rsp + 256], xmm8",
        "movdqu [rsp + 272], xmm9",
        "movdqu [rsp + 288], xmm10",
        "movdqu [rsp + 304], xmm11",
        "movdqu [rsp + 320], xmm12",
        "movdqu [rsp + 336], xmm13",
        "movdqu [rsp + 352], xmm14",
        "movdqu [rsp + 368], xmm15",
        "mov rdi, rsp",
        "mov rsi, [rsp + 384]",
        "and rsp, -16",
        "call {handler}",
        "mov rsp, rdx",
        "pop r15",
        "pop r14",
        "pop r13",
        "pop r12",
        "pop rbx",
        "pop rbp",
        "ret",
        handler = sym super::exit_handler,
    )
}

/// AArch64 [`enter`]: saves X19-X30 and D8-D15 (the callee-saved registers) in a 160-byte frame.
#[cfg(target_arch = "aarch64")]
#[unsafe(naked)]
pub unsafe extern "C" fn enter(code: usize, a0: u64, a1: u64, entry_stack: *mut u64) -> u64 {
    std::arch::naked_asm!(
        "stp x29, x30, [sp, #-160]!",
        "mov x29, sp",
        "stp x19, x20, [sp, #16]",
        "stp x21, x22, [sp, #32]",
        "stp x23, x24, [sp, #48]",
        "stp x25, x26, [sp, #64]",
        "stp x27, x28, [sp, #80]",
        "stp d8, d9, [sp, #96]",
        "stp d10, d11, [sp, #112]",
        "stp d12, d13, [sp, #128]",
        "stp d14, d15, [sp, #144]",
        "mov x9, sp",
        "str x9, [x3]",
        "mov x9, x0",
        "mov x0, x1",
        "mov x1, x2",
        "blr x9",
        "ldp x19, x20, [sp, #16]",
        "ldp x21, x22, [sp, #32]",
        "ldp x23, x24, [sp, #48]",
        "ldp x25, x26, [sp, #64]",
        "ldp x27, x28, [sp, #80]",
        "ldp d8, d9, [sp, #96]",
        "ldp d10, d11, [sp, #112]",
        "ldp d12, d13, [sp, #128]",
        "ldp d14, d15, [sp, #144]",
        "ldp x29, x30, [sp], #160",
        "ret",
    )
}

/// AArch64 exit stub: the patched shadow calls it with `blr x16`, so X30 is 8 bytes past the point
/// and SP is the point's.
#[cfg(target_arch = "aarch64")]
#[unsafe(naked)]
pub unsafe extern "C" fn exit_stub() {
    std::arch::naked_asm!(
        "sub sp, sp, #512",
        "stp x0, x1, [sp, #0]",
        "stp x2, x3, [sp, #16]",
        "stp x4, x5, [sp, #32]",
        "stp x6, x7, [sp, #48]",
        "stp x8, x9, [sp, #64]",
        "stp x10, x11, [sp, #80]",
        "stp x12, x13, [sp, #96]",
        "stp x14, x15, [sp, #112]",
        "stp x16, x17, [sp, #128]",
        "stp x18, x19, [sp, #144]",
        "stp x20, x21, [sp, #160]",
        "stp x22, x23, [sp, #176]",
        "stp x24, x25, [sp, #192]",
        "stp x26, x27, [sp, #208]",
        "stp x28, x29, [sp, #224]",
        "add x9, sp, #512",
        "stp x30, x9, [sp, #240]",
        "stp d0, d1, [sp, #256]",
        "stp d2, d3, [sp, #272]",
        "stp d4, d5, [sp, #288]",
        "stp d6, d7, [sp, #304]",
        "stp d8, d9, [sp, #320]",
        "stp d10, d11, [sp, #336]",
        "stp d12, d13, [sp, #352]",
        "stp d14, d15, [sp, #368]",
        "stp d16, d17, [sp, #384]",
        "stp d18, d19, [sp, #400]",
        "stp d20, d21, [sp, #416]",
        "stp d22, d23, [sp, #432]",
        "stp d24, d25, [sp, #448]",
        "stp d26, d27, [sp, #464]",
        "stp d28, d29, [sp, #480]",
        "stp d30, d31, [sp, #496]",
        "mov x0, sp",
        "mov x1, x30",
        "bl {handler}",
        "mov sp, x1",
        "ldp x19, x20, [sp, #16]",
        "ldp x21, x22, [sp, #32]",
        "ldp x23, x24, [sp, #48]",
        "ldp x25, x26, [sp, #64]",
        "ldp x27, x28, [sp, #80]",
        "ldp d8, d9, [sp, #96]",
        "ldp d10, d11, [sp, #112]",
        "ldp d12, d13, [sp, #128]",
        "ldp d14, d15, [sp, #144]",
        "ldp x29, x30, [sp], #160",
        "ret",
        handler = sym super::exit_handler,
    )
}
