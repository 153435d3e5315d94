//! The entry from generated code into the runtime that captures every register: generated code
//! calls an [`Entry`] (a JIT symbol, or the target of a patched call) where it would call a runtime
//! function. The entry saves every register into [`Registers`], calls the runtime's handler with
//! them, then restores the (possibly changed) registers and returns to the (possibly changed)
//! return address. The handler returns a function result by setting the result register
//! (`general[0]`: RAX, x0), and may rewrite values in frames a walk finds
//! ([`crate::runtime::frames::FrameTable`]).
//!
//! Each entry is a small stub written into executable memory ([`crate::arch::Arch::entry_stub`]:
//! it passes its handler's descriptor) that jumps to one register-saving routine per target, kept as
//! assembly text ([`assembly`]) that this crate assembles with `global_asm!` and a test can assemble
//! with another toolchain. Exit stubs ([`crate::runtime::exits`]) enter the same routine, which
//! also hands the handler a word the stub pushed (an exit's number).
//!
//! Restored exactly: every general register, all 128 bits of every vector register, the flags.
//! Not restored: the stack pointer (the entry returns on the stack it was called on; changing
//! `general[SP]` or [`Registers::stack_pointer`] has no effect) and, on AArch64, x30, which holds
//! the return address on return, as after any call. The caller's x16 and x17 are captured and
//! restored, but a call sequence that reaches the entry through them (as
//! [`crate::arch::Arch::encode_exit_call`]'s through x16) has already replaced them. x86-64's ymm
//! upper halves are not saved: the runtime is compiled without AVX.

use std::ffi::c_void;

use crate::arch::Arch;
use crate::runtime::registers::Registers;

/// The routine's text for `arch`: what [`Entry`] runs on this host, for assembling elsewhere
/// (its one global symbol is `patchmap_entry_save`).
pub fn assembly(arch: Arch) -> &'static str {
    match arch {
        Arch::X86_64 => include_str!("entry/x86_64.s"),
        Arch::Aarch64 => include_str!("entry/aarch64.s"),
    }
}

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
std::arch::global_asm!(include_str!("entry/x86_64.s"));
#[cfg(all(target_os = "linux", target_arch = "aarch64"))]
std::arch::global_asm!(include_str!("entry/aarch64.s"));

#[cfg(all(target_os = "linux", any(target_arch = "x86_64", target_arch = "aarch64")))]
extern "C" {
    fn patchmap_entry_save();
}

/// The register-saving routine of this host, where it has one (entries and exits share it).
pub(crate) fn save_routine() -> Option<u64> {
    #[cfg(all(target_os = "linux", any(target_arch = "x86_64", target_arch = "aarch64")))]
    return Some(patchmap_entry_save as *const () as u64);
    #[allow(unreachable_code)]
    None
}

/// What the entry calls with the captured registers and its context.
pub type Handler = unsafe extern "C" fn(registers: &mut Registers, context: *mut c_void);

/// A Rust handler, boxed twice: the outer box gives it a thin address, the context of its stub.
type BoxedClosure = Box<Box<dyn FnMut(&mut Registers)>>;

/// What a stub hands the routine: its address is the stub's first literal. The routine calls
/// `handler(&mut Registers, context, word)`: an entry's [`Handler`] ignores the word, an exit's
/// takes its number there.
#[repr(C)]
pub(crate) struct Descriptor {
    pub(crate) handler: *const (),
    pub(crate) context: *mut c_void,
}

/// Why an entry could not be made.
#[derive(Debug, thiserror::Error)]
pub enum EntryError {
    /// The host has no register-saving routine (only Linux on x86-64 and AArch64 has).
    #[error("the runtime entry needs Linux on x86-64 or AArch64")]
    UnsupportedHost,
    /// Mapping or protecting the stub's memory failed.
    #[error("cannot map the entry stub: {0}")]
    Memory(String),
}

/// A runtime entry: generated code calls [`Entry::address`], with the C calling convention's
/// arguments in their registers, for the handler to find in [`Registers`]. The stub lives as long
/// as this value.
pub struct Entry {
    code: region::Allocation,
    _descriptor: Box<Descriptor>,
    _closure: Option<BoxedClosure>,
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entry").field("address", &self.address()).finish()
    }
}

impl Entry {
    /// An entry that calls `handler(&mut registers, context)`.
    ///
    /// # Safety
    /// `handler` must be sound to call with `context` whenever generated code calls the entry.
    pub unsafe fn new(handler: Handler, context: *mut c_void) -> Result<Entry, EntryError> {
        let descriptor = Box::new(Descriptor { handler: handler as *const (), context });
        Entry::with_descriptor(descriptor, None)
    }

    /// An entry that calls `handler` (a panic in it aborts the process: it cannot unwind into
    /// generated code). Generated code must call the entry from the thread that runs it, never
    /// re-entrantly from within `handler`.
    pub fn with_closure(handler: impl FnMut(&mut Registers) + 'static) -> Result<Entry, EntryError> {
        unsafe extern "C" fn call_closure(registers: &mut Registers, context: *mut c_void) {
            // SAFETY: `context` is the boxed closure of the `Entry` that owns the stub calling this.
            let closure = unsafe { &mut *(context as *mut Box<dyn FnMut(&mut Registers)>) };
            closure(registers);
        }
        let mut closure: BoxedClosure = Box::new(Box::new(handler));
        let context = &mut *closure as *mut Box<dyn FnMut(&mut Registers)> as *mut c_void;
        let descriptor = Box::new(Descriptor { handler: call_closure as *const (), context });
        // The outer box gives the closure a thin address that stays put while the entry lives.
        Entry::with_descriptor(descriptor, Some(closure))
    }

    fn with_descriptor(descriptor: Box<Descriptor>, closure: Option<BoxedClosure>) -> Result<Entry, EntryError> {
        let (Some(arch), Some(save)) = (Arch::host(), save_routine()) else {
            return Err(EntryError::UnsupportedHost);
        };
        let stub = arch.entry_stub(&*descriptor as *const Descriptor as u64, save);
        let error = |e: region::Error| EntryError::Memory(e.to_string());
        let mut code = region::alloc(stub.len(), region::Protection::READ_WRITE).map_err(error)?;
        // SAFETY: the allocation is ours, writable and at least `stub.len()` bytes; it becomes
        // executable (and no longer writable) before anything can run it.
        unsafe {
            std::ptr::copy_nonoverlapping(stub.as_ptr(), code.as_mut_ptr::<u8>(), stub.len());
            region::protect(code.as_ptr::<u8>(), stub.len(), region::Protection::READ_EXECUTE).map_err(error)?;
        }
        crate::runtime::patch::flush_instruction_cache(arch, code.as_mut_ptr(), stub.len());
        Ok(Entry { code, _descriptor: descriptor, _closure: closure })
    }

    /// The address generated code calls.
    pub fn address(&self) -> *const u8 {
        self.code.as_ptr()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stubs_are_whole_instructions_with_their_addresses_last() {
        for arch in Arch::ALL {
            let stub = arch.entry_stub(0x1122_3344_5566_7788, 0x99aa_bbcc_ddee_ff00);
            assert_eq!(stub.len(), arch.entry_stub_len());
            assert_eq!(stub[stub.len() - 16..stub.len() - 8], 0x1122_3344_5566_7788u64.to_le_bytes());
            assert_eq!(stub[stub.len() - 8..], 0x99aa_bbcc_ddee_ff00u64.to_le_bytes());
            assert!(assembly(arch).contains("patchmap_entry_save:"));
        }
    }

    #[cfg(all(target_os = "linux", any(target_arch = "x86_64", target_arch = "aarch64")))]
    #[test]
    fn a_call_through_the_entry_sees_its_arguments_and_returns_the_handler_s_result() {
        let seen = std::rc::Rc::new(std::cell::Cell::new((0, 0, 0)));
        let record = seen.clone();
        let arch = Arch::host().unwrap();
        let (first, second) = if arch == Arch::X86_64 { (5, 4) } else { (0, 1) };
        let entry = Entry::with_closure(move |registers| {
            let (a, b) = (registers.general[first], registers.general[second]);
            record.set((a, b, registers.return_address));
            registers.general[0] = a * 10 + b;
        })
        .unwrap();
        // SAFETY: the entry follows the C convention of a function of two integers.
        let f: extern "C" fn(u64, u64) -> u64 = unsafe { std::mem::transmute(entry.address()) };
        assert_eq!(f(4, 2), 42);
        assert_eq!(f(7, 1), 71);
        assert_eq!((seen.get().0, seen.get().1), (7, 1));
        assert_ne!(seen.get().2, 0);
    }

    /// Every register as the x86-64 exactness test loads it before calling the entry and stores it
    /// after: general registers by DWARF number (RSP's entry unused), xmm0-15, RFLAGS.
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    #[repr(C)]
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    struct Bank {
        general: [u64; 16],
        vector: [[u64; 2]; 16],
        flags: u64,
    }

    /// The status flags (CF, PF, AF, ZF, SF, OF): what user code can set with `popfq`.
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    const STATUS: u64 = 0x8d5;

    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    #[test]
    fn every_register_is_captured_and_restored_exactly_and_the_return_address_obeyed_on_x86_64() {
        let mut before = Bank::default();
        for (i, r) in before.general.iter_mut().enumerate() {
            *r = 0x0101_0101_0101_0101u64.wrapping_mul(i as u64 + 1) ^ 0x8000_0000_0000_0000;
        }
        for (i, v) in before.vector.iter_mut().enumerate() {
            *v = [0x1234_0000 + i as u64, 0xabcd_0000_0000_0000 | i as u64];
        }
        before.flags = 0x202 | 0x001 | 0x040 | 0x080 | 0x800; // IF, reserved, CF, ZF, SF, OF
        let seen = std::rc::Rc::new(std::cell::Cell::new(None));
        let record = seen.clone();
        let entry = Entry::with_closure(move |registers| {
            record.set(Some(*registers));
            for (i, r) in registers.general.iter_mut().enumerate().take(16) {
                *r ^= 0x1111 * (i as u64 + 1);
            }
            for v in registers.vector.iter_mut().take(16) {
                *v = [!v[0], v[1] ^ 0xff00];
            }
            registers.flags ^= 0x001 | 0x040; // CF, ZF
            registers.return_address += 2; // past the `ud2`
        })
        .unwrap();
        let mut after = Bank::default();
        // SAFETY: the block loads every register from `before`, calls the entry, stores every
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
                // The handler resumes past this trap.
                "ud2",
                // [rsp]: the entry; [rsp + 8]: `after`. Keep RAX and RFLAGS while RAX points there.
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
                inout("rdi") &before => _,
                inout("rsi") &mut after => _,
                inout("rdx") entry.address() => _,
                out("rax") _, out("rcx") _, out("r8") _, out("r9") _, out("r10") _, out("r11") _,
                out("r12") _, out("r13") _, out("r14") _, out("r15") _,
                out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _, out("xmm4") _, out("xmm5") _,
                out("xmm6") _, out("xmm7") _, out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
                out("xmm12") _, out("xmm13") _, out("xmm14") _, out("xmm15") _,
            );
        }
        let captured = seen.get().expect("the handler ran");
        for i in (0..16).filter(|&i| i != 7) {
            assert_eq!(captured.general[i], before.general[i], "captured R#{i}");
            assert_eq!(after.general[i], before.general[i] ^ (0x1111 * (i as u64 + 1)), "restored R#{i}");
        }
        assert_eq!(captured.general[7], captured.stack_pointer);
        assert_eq!(captured.general[16..], [0; 16]);
        for i in 0..16 {
            assert_eq!(captured.vector[i], before.vector[i], "captured xmm{i}");
            assert_eq!(after.vector[i], [!before.vector[i][0], before.vector[i][1] ^ 0xff00], "restored xmm{i}");
        }
        assert_eq!(captured.vector[16..], [[0; 2]; 16]);
        assert_eq!(captured.flags & STATUS, before.flags & STATUS);
        assert_eq!(after.flags & STATUS, (before.flags ^ 0x041) & STATUS);
    }
}
