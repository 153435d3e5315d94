//! Exits from generated code into the runtime, laid out as LuaVela's exit stubs (seed 003): an
//! area of executable memory ([`Exits`]) holding groups of [`Arch::EXITS_PER_GROUP`] stubs, made on
//! demand as higher exit numbers are asked for. Generated code reaches stub `n` with a call
//! ([`Arch::encode_exit_call`], patched into a stack map's shadow or a patch point's region by
//! [`Exits::patch_call`]); the stub hands its index to its group's prologue, which adds the group's
//! first number and enters the runtime entry's register-saving routine
//! ([`crate::runtime::entry`]). That saves every register into an [`ExitState`] and calls the
//! handler with it and the exit number; the handler's [`Resume`] says how to go on.
//!
//! ```text
//! x86-64 group (192 bytes)                     AArch64 group (320 bytes)
//!   0: push 0;  jmp short prologue (4 bytes)     0: movz x16, #0; b prologue (8 bytes)
//!   4: push 1;  jmp short prologue             8: movz x16, #1; b prologue
//!  ...                                          ...
//! 124: push 31; jmp short prologue           248: movz x16, #31; b prologue
//! 128: prologue: [rsp+8] += first (lea),     256: prologue: push x16, x17 and 16 bytes,
//!      descriptor below it, jmp [routine]         x16 + first into the pushed word,
//! 176: descriptor   184: routine                  x16 = descriptor, br routine
//!                                            288: first   296: descriptor   304: routine
//! ```
//!
//! The resume contract: the registers of the [`ExitState`] (changes included) are restored,
//! except the stack pointer (it stays the one at the exit, after the exit call returned) and, on
//! AArch64, x30 (it holds the resume address) and x16 (the exit call and the stub used it). Then
//! [`Resume::Continue`] returns to [`Registers::return_address`] (the instruction after the exit
//! call, unless the handler changed it), [`Resume::At`] to the address it names, and
//! [`Resume::Return`] leaves the generated code: the innermost [`call`] on the thread returns the
//! value, and the frames of generated code below it are discarded.
//!
//! The exit call ([`Arch::encode_exit_call`]) returns to its own end. A patch point's region is
//! nops, so code continued there runs on as if the region had been skipped; a stack map's shadow
//! may hold the instructions after the point (as LLVM allows), which the patched call replaced:
//! after an exit from a shadow, leave ([`Resume::Return`]) or resume elsewhere ([`Resume::At`]).

use std::cell::Cell;
use std::ffi::c_void;
use std::ops::Range;
use std::sync::{Mutex, PoisonError};

use crate::arch::Arch;
use crate::runtime::entry::{save_routine, Descriptor};
use crate::runtime::memory::Memory;
use crate::runtime::patch::{flush_instruction_cache, patch_code, PatchError};
use crate::runtime::registers::{Registers, Stopped};
use crate::runtime::values::Frame;

/// The text of [`call`]'s activation for `arch` (symbols `patchmap_exits_enter` and
/// `patchmap_exits_leave`), for assembling elsewhere with the entry's routine
/// ([`crate::runtime::entry::assembly`]).
pub fn assembly(arch: Arch) -> &'static str {
    match arch {
        Arch::X86_64 => include_str!("exits/x86_64.s"),
        Arch::Aarch64 => include_str!("exits/aarch64.s"),
    }
}

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
std::arch::global_asm!(include_str!("exits/x86_64.s"));
#[cfg(all(target_os = "linux", target_arch = "aarch64"))]
std::arch::global_asm!(include_str!("exits/aarch64.s"));

#[cfg(all(target_os = "linux", any(target_arch = "x86_64", target_arch = "aarch64")))]
extern "C" {
    fn patchmap_exits_enter(code: *const u8, arguments: *const u64, record: *mut u64) -> u64;
    fn patchmap_exits_leave();
}

/// The most exit numbers an area hands out (x86-64's prologue adds the group's first number as a
/// signed 32-bit displacement; this keeps well inside it).
pub const MAX_EXITS: u32 = 1 << 24;

/// The most integer arguments [`call`] passes (in registers): the activation loads this many words.
const MAX_ARGUMENTS: usize = 8;

thread_local! {
    /// Where the innermost [`call`] on this thread stored its stack pointer (null: none).
    static ACTIVATION: Cell<*const u64> = const { Cell::new(std::ptr::null()) };
}

/// Every register of generated code at an exit: [`Registers`] as the entry's routine saves them,
/// on the stack of the exiting thread while the handler runs. Only the runtime makes one, so its
/// [`Frame`] reads of the stack stay inside the stopped code's frames.
#[repr(transparent)]
#[derive(Debug)]
pub struct ExitState {
    registers: Registers,
}

impl ExitState {
    /// The saved registers.
    pub fn registers(&self) -> &Registers {
        &self.registers
    }

    /// The registers restored when the handler returns ([`Resume`]).
    pub fn registers_mut(&mut self) -> &mut Registers {
        &mut self.registers
    }

    /// The return address of the exit call: the instruction after it in generated code.
    pub fn return_address(&self) -> u64 {
        self.registers.return_address
    }

    /// The stack pointer at the exit (after the exit call's return).
    pub fn stack_pointer(&self) -> u64 {
        self.registers.stack_pointer
    }

    /// The stack of generated code at this exit: from [`ExitState::stack_pointer`] to the stack
    /// pointer of the innermost [`call`] on this thread; `None` without one.
    pub fn stack(&self) -> Option<Range<u64>> {
        let record = ACTIVATION.with(Cell::get);
        // SAFETY: a non-null record is the slot of a `call` still running on this thread.
        let top = (!record.is_null()).then(|| unsafe { *record })?;
        Some(self.stack_pointer()..top.max(self.stack_pointer()))
    }

    /// A view of the stopped frame that reads memory through `memory` rather than the live stack.
    pub fn stopped<'a, M: Memory>(&'a self, memory: &'a M) -> Option<Stopped<'a, M>> {
        Some(Stopped { arch: Arch::host()?, registers: &self.registers, memory })
    }
}

impl Frame for ExitState {
    fn register(&self, dwarf: u16) -> Option<u64> {
        self.registers.get(Arch::host()?, dwarf)
    }

    /// Reads the live stack, inside [`ExitState::stack`] only.
    fn memory(&self, address: u64, size: usize) -> Option<u64> {
        let stack = self.stack()?;
        let size = size.clamp(1, 8);
        let end = address.checked_add(size as u64)?;
        if address < stack.start || end > stack.end {
            return None;
        }
        let mut bytes = [0u8; 8];
        // SAFETY: inside the frames of the stopped generated code, below the activation that
        // called it, which stay in place while the handler runs.
        unsafe { std::ptr::copy_nonoverlapping(address as *const u8, bytes.as_mut_ptr(), size) };
        Some(u64::from_le_bytes(bytes))
    }
}

/// What a handler answers: how generated code goes on after the exit.
#[repr(C, u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resume {
    /// Restore the registers and return to [`Registers::return_address`].
    Continue,
    /// Restore the registers and continue in generated code at this address.
    At(u64),
    /// Leave the generated code: the innermost [`call`] on this thread returns this value. Without
    /// one the process aborts (there is nowhere to return to).
    Return(u64),
}

/// A C handler: called with the exit's registers, its number and the context given to
/// [`Exits::with_c_handler`].
pub type ExitHandler = unsafe extern "C" fn(state: &mut ExitState, number: u32, context: *mut c_void) -> Resume;

/// A Rust handler, shared by every thread that exits.
type RustHandler = Box<dyn Fn(&mut ExitState, u32) -> Resume + Send + Sync>;

enum Handler {
    Rust(RustHandler),
    C(ExitHandler, *mut c_void),
}

/// Why an exit area could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum ExitError {
    /// The host has no register-saving routine (only Linux on x86-64 and AArch64 has).
    #[error("exit stubs need Linux on x86-64 or AArch64")]
    UnsupportedHost,
    /// Mapping or protecting the stubs' memory failed.
    #[error("cannot map exit stubs: {0}")]
    Memory(String),
    /// An exit number at or past [`MAX_EXITS`].
    #[error("exit number {0} is past the most an exit area holds ({MAX_EXITS})")]
    TooMany(u32),
    /// The shadow or patch point region cannot hold the exit call.
    #[error("the exit call needs {needed} bytes but the region has {len}: give the stack map a shadow of at least {needed} bytes")]
    RegionTooSmall {
        /// The length of the exit call.
        needed: usize,
        /// The length of the region.
        len: usize,
    },
    /// Patching the region failed.
    #[error(transparent)]
    Patch(#[from] PatchError),
    /// [`call`] passes at most 6 (x86-64) or 8 (AArch64) integer arguments.
    #[error("{0} arguments: an exit activation passes at most {1}, in registers")]
    Arguments(usize, usize),
}

/// One mapping of groups, unmapped when the area is dropped.
struct Chunk(#[allow(dead_code)] region::Allocation);

// SAFETY: the mapping is plain memory; nothing in it is tied to the thread that made it.
unsafe impl Send for Chunk {}

#[derive(Default)]
struct Groups {
    chunks: Vec<Chunk>,
    /// The address of each group, by group number.
    starts: Vec<u64>,
}

/// The area of exit stubs and the handler they call. Stubs are added on demand ([`Exits::stub`])
/// from any thread; once made, a stub never moves or changes while the area lives, and its memory
/// is never writable and executable at once. Dropping the area unmaps its stubs: no code may reach
/// them afterwards (unpatch first).
pub struct Exits {
    arch: Arch,
    save: u64,
    groups: Mutex<Groups>,
    descriptor: Box<Descriptor>,
    _handler: Box<Handler>,
}

// SAFETY: the Rust handler is `Send + Sync`; the creator of a C handler vouched for its context
// ([`Exits::with_c_handler`]); the groups are behind a mutex; the descriptor is read-only.
unsafe impl Send for Exits {}
// SAFETY: as for `Send`.
unsafe impl Sync for Exits {}

impl std::fmt::Debug for Exits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Exits").field("arch", &self.arch).field("groups", &self.group_count()).finish()
    }
}

impl Exits {
    /// An area whose exits call `handler(&mut state, number)` (on the exiting thread, from any
    /// number of threads at once). A panic in it aborts the process: it cannot unwind into
    /// generated code.
    pub fn new(handler: impl Fn(&mut ExitState, u32) -> Resume + Send + Sync + 'static) -> Result<Exits, ExitError> {
        Exits::with_handler(Handler::Rust(Box::new(handler)))
    }

    /// An area whose exits call the C function `handler(&mut state, number, context)`.
    ///
    /// # Safety
    /// `handler` must be sound to call with `context` from every thread that exits, at once.
    pub unsafe fn with_c_handler(handler: ExitHandler, context: *mut c_void) -> Result<Exits, ExitError> {
        Exits::with_handler(Handler::C(handler, context))
    }

    fn with_handler(handler: Handler) -> Result<Exits, ExitError> {
        let (Some(arch), Some(save)) = (Arch::host(), save_routine()) else {
            return Err(ExitError::UnsupportedHost);
        };
        let handler = Box::new(handler);
        let context = &*handler as *const Handler as *mut c_void;
        let descriptor = Box::new(Descriptor { handler: dispatch as *const (), context });
        Ok(Exits { arch, save, groups: Mutex::new(Groups::default()), descriptor, _handler: handler })
    }

    /// The address of exit stub `number`, making the groups up to its own if they do not exist yet.
    pub fn stub(&self, number: u32) -> Result<u64, ExitError> {
        if number >= MAX_EXITS {
            return Err(ExitError::TooMany(number));
        }
        let group = (number / Arch::EXITS_PER_GROUP) as usize;
        let mut groups = self.groups.lock().unwrap_or_else(PoisonError::into_inner);
        if groups.starts.len() <= group {
            self.add_groups(&mut groups, group + 1)?;
        }
        let index = (number % Arch::EXITS_PER_GROUP) as usize;
        Ok(groups.starts[group] + (index * self.arch.exit_stub_size()) as u64)
    }

    /// Makes the stubs of exits `0..count` (LuaVela assembles enough groups for a trace's exits).
    pub fn reserve(&self, count: u32) -> Result<(), ExitError> {
        match count {
            0 => Ok(()),
            n => self.stub(n - 1).map(drop),
        }
    }

    /// How many groups exist.
    pub fn group_count(&self) -> usize {
        self.groups.lock().unwrap_or_else(PoisonError::into_inner).starts.len()
    }

    /// The number of the stub at `address`, if it is one of this area's.
    pub fn number_at(&self, address: u64) -> Option<u32> {
        let groups = self.groups.lock().unwrap_or_else(PoisonError::into_inner);
        let stub = self.arch.exit_stub_size() as u64;
        groups.starts.iter().enumerate().find_map(|(group, &start)| {
            let offset = address.checked_sub(start)?;
            (offset < stub * u64::from(Arch::EXITS_PER_GROUP) && offset % stub == 0)
                .then(|| group as u32 * Arch::EXITS_PER_GROUP + (offset / stub) as u32)
        })
    }

    /// Adds groups, in one fresh mapping, until there are at least `wanted`; the mapping is filled
    /// with whole groups. A fresh mapping each time keeps existing stubs executable while others run them.
    fn add_groups(&self, groups: &mut Groups, wanted: usize) -> Result<(), ExitError> {
        let size = self.arch.exit_group_size();
        let page = region::page::size();
        let bytes = ((wanted - groups.starts.len()) * size).div_ceil(page) * page;
        let count = bytes / size;
        let error = |e: region::Error| ExitError::Memory(e.to_string());
        let mut memory = region::alloc(bytes, region::Protection::READ_WRITE).map_err(error)?;
        let base = memory.as_mut_ptr::<u8>();
        let descriptor = &*self.descriptor as *const Descriptor as u64;
        for k in 0..count {
            let first = ((groups.starts.len() + k) as u32) * Arch::EXITS_PER_GROUP;
            let code = self.arch.exit_group(first, descriptor, self.save);
            // SAFETY: group `k` lies inside the fresh, writable mapping of `count` groups.
            unsafe { std::ptr::copy_nonoverlapping(code.as_ptr(), base.add(k * size), size) };
        }
        // SAFETY: the mapping is ours and nothing runs it before it is published below.
        unsafe { region::protect(base, bytes, region::Protection::READ_EXECUTE) }.map_err(error)?;
        flush_instruction_cache(self.arch, base, bytes);
        groups.starts.extend((0..count).map(|k| base as u64 + (k * size) as u64));
        groups.chunks.push(Chunk(memory));
        Ok(())
    }

    /// Writes a call to exit stub `number` at the start of the `len`-byte region at `address` (a
    /// stack map's shadow, or a patch point's region) and nops after it ([`patch_code`]). The exit's
    /// [`ExitState::return_address`] is then `address + arch.exit_call_return_offset()`, the end of
    /// the call, so [`Resume::Continue`] runs on after it.
    ///
    /// # Safety
    /// As [`patch_code`]: the region is code of this process that no thread runs meanwhile.
    pub unsafe fn patch_call(&self, address: *mut u8, len: usize, number: u32) -> Result<(), ExitError> {
        let needed = self.arch.exit_call_len();
        if len < needed {
            return Err(ExitError::RegionTooSmall { needed, len });
        }
        let call = self.arch.encode_exit_call(self.stub(number)?).map_err(PatchError::from)?;
        // SAFETY: the caller vouches for the region.
        unsafe { patch_code(self.arch, address, len, &call) }?;
        Ok(())
    }
}

/// What the routine calls for every exit: runs the area's handler and applies its answer.
unsafe extern "C" fn dispatch(registers: &mut Registers, context: *mut c_void, number: u64) {
    // SAFETY: `context` is the handler of the `Exits` whose stub ran; it lives as long as the stubs.
    let handler = unsafe { &*(context as *const Handler) };
    // SAFETY: `ExitState` is a transparent `Registers`.
    let state = unsafe { &mut *(registers as *mut Registers as *mut ExitState) };
    let number = number as u32;
    let resume = match handler {
        Handler::Rust(handler) => handler(state, number),
        // SAFETY: the area's creator vouched for the handler and its context.
        Handler::C(handler, context) => unsafe { handler(state, number, *context) },
    };
    match resume {
        Resume::Continue => {}
        Resume::At(address) => registers.return_address = address,
        Resume::Return(value) => leave(registers, value),
    }
}

/// Makes the routine return into the innermost [`call`]'s leave path with `value`.
fn leave(registers: &mut Registers, value: u64) {
    let record = ACTIVATION.with(Cell::get);
    let (Some(arch), false) = (Arch::host(), record.is_null()) else {
        eprintln!("patchmap: an exit handler answered Resume::Return outside exits::call; nowhere to return to");
        std::process::abort();
    };
    registers.general[0] = value;
    // SAFETY: a non-null record is the slot of a `call` still running on this thread.
    registers.general[arch.exit_leave_register()] = unsafe { *record };
    #[cfg(all(target_os = "linux", any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        registers.return_address = patchmap_exits_leave as *const () as u64;
    }
}

/// Calls generated code `code` with integer `arguments` (C convention, at most 6 on x86-64 and 8
/// on AArch64) and returns its integer result, or the value of an exit handler that answered
/// [`Resume::Return`] while it ran on this thread. Calls nest: an exit leaves the innermost.
///
/// # Safety
/// `code` must be a function of the C convention taking `arguments.len()` integers and returning
/// one (or nothing); the frames an exit leaves are discarded without running any destructor.
pub unsafe fn call(code: *const u8, arguments: &[u64]) -> Result<u64, ExitError> {
    let Some(arch) = Arch::host() else { return Err(ExitError::UnsupportedHost) };
    let most = arch.integer_arguments().len().min(MAX_ARGUMENTS);
    if arguments.len() > most {
        return Err(ExitError::Arguments(arguments.len(), most));
    }
    let mut words = [0u64; MAX_ARGUMENTS];
    words[..arguments.len()].copy_from_slice(arguments);
    #[cfg(all(target_os = "linux", any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        let mut record = 0u64;
        let slot: *mut u64 = &mut record;
        let outer = ACTIVATION.with(|a| a.replace(slot));
        // SAFETY: the caller vouches for `code`; `record` outlives the activation.
        let result = unsafe { patchmap_exits_enter(code, words.as_ptr(), slot) };
        ACTIVATION.with(|a| a.set(outer));
        Ok(result)
    }
    #[cfg(not(all(target_os = "linux", any(target_arch = "x86_64", target_arch = "aarch64"))))]
    {
        let _ = (code, words);
        Err(ExitError::UnsupportedHost)
    }
}
