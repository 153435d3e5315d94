//! An x86-64 harness for the register-exactness tests of the runtime entry and the exit stubs:
//! every register loaded with a known value, a call as generated code makes it, every register
//! stored after the handler resumed; the handler's changes and the checks of both sides.

#![cfg(all(target_os = "linux", target_arch = "x86_64"))]

use patchmap::runtime::Registers;

/// Every register as the harness loads it before the call and stores it after: general registers
/// by DWARF number (RSP's entry unused), xmm0-15, RFLAGS.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bank {
    pub general: [u64; 16],
    pub vector: [[u64; 2]; 16],
    pub flags: u64,
}

/// The status flags (CF, PF, AF, ZF, SF, OF): what user code can set with `popfq`.
const STATUS: u64 = 0x8d5;

impl Bank {
    /// A distinct value in every register, and CF, ZF, SF, OF set.
    pub fn sentinels() -> Bank {
        let mut bank = Bank::default();
        for (i, r) in bank.general.iter_mut().enumerate() {
            *r = 0x0101_0101_0101_0101u64.wrapping_mul(i as u64 + 1) ^ 0x8000_0000_0000_0000;
        }
        for (i, v) in bank.vector.iter_mut().enumerate() {
            *v = [0x1234_0000 + i as u64, 0xabcd_0000_0000_0000 | i as u64];
        }
        bank.flags = 0x202 | 0x001 | 0x040 | 0x080 | 0x800; // IF, reserved, CF, ZF, SF, OF
        bank
    }
}

/// What the handlers of these tests do to the captured registers: every general and vector register
/// and two flags changed (each handler also resumes the code past the `ud2` after the call).
pub fn change(registers: &mut Registers) {
    for (i, r) in registers.general.iter_mut().enumerate().take(16) {
        *r ^= 0x1111 * (i as u64 + 1);
    }
    for v in registers.vector.iter_mut().take(16) {
        *v = [!v[0], v[1] ^ 0xff00];
    }
    registers.flags ^= 0x001 | 0x040; // CF, ZF
}

/// Checks that `captured` holds `before` and that `after` is `before` as [`change`] changed it.
pub fn check(label: &str, before: &Bank, captured: &Registers, after: &Bank) {
    for i in (0..16).filter(|&i| i != 7) {
        assert_eq!(captured.general[i], before.general[i], "{label}: captured R#{i}");
        assert_eq!(after.general[i], before.general[i] ^ (0x1111 * (i as u64 + 1)), "{label}: resumed R#{i}");
    }
    assert_eq!(captured.general[7], captured.stack_pointer);
    assert_eq!(captured.general[16..], [0; 16]);
    for i in 0..16 {
        assert_eq!(captured.vector[i], before.vector[i], "{label}: captured xmm{i}");
        assert_eq!(after.vector[i], [!before.vector[i][0], before.vector[i][1] ^ 0xff00], "{label}: resumed xmm{i}");
    }
    assert_eq!(captured.vector[16..], [[0; 2]; 16]);
    assert_eq!(captured.flags & STATUS, before.flags & STATUS, "{label}: captured flags");
    assert_eq!(after.flags & STATUS, (before.flags ^ 0x041) & STATUS, "{label}: resumed flags");
}

/// Loads every register from `before`, calls `target` (an entry, or a stub as a patched shadow's
/// call reaches it), and stores every register into `after`; the handler must resume 2 bytes past
/// the call (a `ud2`).
pub fn call_with_every_register(before: &Bank, after: &mut Bank, target: u64) {
    // SAFETY: the block loads every register from `before`, calls the target, stores every
    // register into `after`, and restores the stack pointer, RBX and RBP it saved itself.
    unsafe {
        std::arch::asm!(
            "push rbx",
            "push rbp",
            "push rsi",
            "push rdx",
            "push qword ptr [rdi + 384]",
            "popfq",
            "movdqu xmm0, [rdi + 128]", "movdqu xmm1, [rdi + 144]", "movdqu xmm2, [rdi + 160]",
            "movdqu xmm3, [rdi + 176]", "movdqu xmm4, [rdi + 192]", "movdqu xmm5, [rdi + 208]",
            "movdqu xmm6, [rdi + 224]", "movdqu xmm7, [rdi + 240]", "movdqu xmm8, [rdi + 256]",
            "movdqu xmm9, [rdi + 272]", "movdqu xmm10, [rdi + 288]", "movdqu xmm11, [rdi + 304]",
            "movdqu xmm12, [rdi + 320]", "movdqu xmm13, [rdi + 336]", "movdqu xmm14, [rdi + 352]",
            "movdqu xmm15, [rdi + 368]",
            "mov rax, [rdi]", "mov rdx, [rdi + 8]", "mov rcx, [rdi + 16]", "mov rbx, [rdi + 24]",
            "mov rsi, [rdi + 32]", "mov rbp, [rdi + 48]", "mov r8, [rdi + 64]", "mov r9, [rdi + 72]",
            "mov r10, [rdi + 80]", "mov r11, [rdi + 88]", "mov r12, [rdi + 96]", "mov r13, [rdi + 104]",
            "mov r14, [rdi + 112]", "mov r15, [rdi + 120]", "mov rdi, [rdi + 40]",
            "call qword ptr [rsp]",
            "ud2",
            "pushfq",
            "push rax",
            "mov rax, [rsp + 24]",
            "mov [rax + 8], rdx", "mov [rax + 16], rcx", "mov [rax + 24], rbx", "mov [rax + 32], rsi",
            "mov [rax + 40], rdi", "mov [rax + 48], rbp", "mov [rax + 64], r8", "mov [rax + 72], r9",
            "mov [rax + 80], r10", "mov [rax + 88], r11", "mov [rax + 96], r12", "mov [rax + 104], r13",
            "mov [rax + 112], r14", "mov [rax + 120], r15",
            "movdqu [rax + 128], xmm0", "movdqu [rax + 144], xmm1", "movdqu [rax + 160], xmm2",
            "movdqu [rax + 176], xmm3", "movdqu [rax + 192], xmm4", "movdqu [rax + 208], xmm5",
            "movdqu [rax + 224], xmm6", "movdqu [rax + 240], xmm7", "movdqu [rax + 256], xmm8",
            "movdqu [rax + 272], xmm9", "movdqu [rax + 288], xmm10", "movdqu [rax + 304], xmm11",
            "movdqu [rax + 320], xmm12", "movdqu [rax + 336], xmm13", "movdqu [rax + 352], xmm14",
            "movdqu [rax + 368], xmm15",
            "pop rcx",
            "mov [rax], rcx",
            "pop rcx",
            "mov [rax + 384], rcx",
            "add rsp, 16",
            "pop rbp",
            "pop rbx",
            inout("rdi") before => _,
            inout("rsi") after => _,
            inout("rdx") target => _,
            out("rax") _, out("rcx") _, out("r8") _, out("r9") _, out("r10") _, out("r11") _,
            out("r12") _, out("r13") _, out("r14") _, out("r15") _,
            out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _, out("xmm4") _, out("xmm5") _,
            out("xmm6") _, out("xmm7") _, out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
            out("xmm12") _, out("xmm13") _, out("xmm14") _, out("xmm15") _,
        );
    }
}
