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
}
