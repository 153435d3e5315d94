//! The runtime side from C: patching code W^X-safely and the call encodings written there; the
//! registers of generated code stopped in the runtime, through an entry (a function generated code
//! calls) or an exit (a call patched into a record's shadow or region) and resuming it; and walking
//! its frames through statepoint records to find GC roots. None of this needs the compiler.

use std::ffi::c_void;

use patchmap::arch::Arch;
use patchmap::runtime::exits::{self, ExitState, Exits, Resume};
use patchmap::runtime::frames::{FrameState, Root, Slot, StatepointTable, WalkError};
use patchmap::runtime::{patch_code, Entry, Registers};
use patchmap::stackmap::Location;

use crate::{fail, guarded, location, put, size_t, PatchmapLocation, PatchmapStackMap, PatchmapStatus};

/// A target architecture.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchmapArch {
    /// x86-64 (DWARF: RAX 0, ..., RBP 6, RSP 7, R8-R15 8-15, XMM0-15 17-32).
    X86_64 = 1,
    /// AArch64 (DWARF: x0-x30 0-30, SP 31, v0-v31 64-95).
    Aarch64 = 2,
}

impl From<PatchmapArch> for Arch {
    fn from(arch: PatchmapArch) -> Arch {
        match arch {
            PatchmapArch::X86_64 => Arch::X86_64,
            PatchmapArch::Aarch64 => Arch::Aarch64,
        }
    }
}

/// The architecture this process runs on; `PATCHMAP_STATUS_INVALID_ARGUMENT` on another host.
///
/// # Safety
/// `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_host_arch(out: *mut PatchmapArch) -> PatchmapStatus {
    guarded(|| match Arch::host() {
        // SAFETY: the caller vouches for `out`.
        Some(Arch::X86_64) => unsafe { put(out, PatchmapArch::X86_64) },
        // SAFETY: as above.
        Some(Arch::Aarch64) => unsafe { put(out, PatchmapArch::Aarch64) },
        None => fail(PatchmapStatus::InvalidArgument, "this host is neither x86-64 nor AArch64"),
    })
}

/// The DWARF number of the C convention's integer argument register `index` (0-based), or
/// `UINT16_MAX` past the last.
#[no_mangle]
pub extern "C" fn patchmap_arch_integer_argument(arch: PatchmapArch, index: size_t) -> u16 {
    crate::caught(u16::MAX, || Arch::from(arch).integer_arguments().get(index).copied().unwrap_or(u16::MAX))
}

/// The DWARF number of the C convention's integer result register (RAX, x0).
#[no_mangle]
pub extern "C" fn patchmap_arch_integer_result(arch: PatchmapArch) -> u16 {
    crate::caught(u16::MAX, || Arch::from(arch).integer_result())
}

/// The DWARF number of the frame pointer (RBP, x29).
#[no_mangle]
pub extern "C" fn patchmap_arch_frame_pointer(arch: PatchmapArch) -> u16 {
    crate::caught(u16::MAX, || Arch::from(arch).frame_pointer())
}

/// Encodes into `buffer` (`capacity` bytes) the code LLVM writes in a patch point region to call
/// `target`, through the scratch register no location names; `*len` is its length (a capacity of
/// 32 is enough on both targets). `PATCHMAP_STATUS_OUT_OF_RANGE` if the buffer is too small or the
/// target out of reach (AArch64 reaches 48-bit addresses).
///
/// # Safety
/// `buffer` is valid for `capacity` writes; `len` for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_encode_call(
    arch: PatchmapArch,
    target: u64,
    buffer: *mut u8,
    capacity: size_t,
    len: *mut size_t,
) -> PatchmapStatus {
    // SAFETY: the caller vouches for the pointers.
    unsafe { encoded(Arch::from(arch).encode_call(target), buffer, capacity, len) }
}

/// Encodes a call to `target` that keeps every register but the return address (and AArch64's x16)
/// as it was: for patching a stack map's shadow with a call into the runtime, which then finds each
/// live value where the record says. The call returns to its own end
/// (`patchmap_exit_call_return_offset`). As `patchmap_encode_call` otherwise.
///
/// # Safety
/// As `patchmap_encode_call`.
#[no_mangle]
pub unsafe extern "C" fn patchmap_encode_exit_call(
    arch: PatchmapArch,
    target: u64,
    buffer: *mut u8,
    capacity: size_t,
    len: *mut size_t,
) -> PatchmapStatus {
    // SAFETY: the caller vouches for the pointers.
    unsafe { encoded(Arch::from(arch).encode_exit_call(target), buffer, capacity, len) }
}

/// How far past the patched point `patchmap_encode_exit_call`'s call returns (its length): subtract
/// it from a stop's return address to find the record's address.
#[no_mangle]
pub extern "C" fn patchmap_exit_call_return_offset(arch: PatchmapArch) -> u64 {
    crate::caught(0, || Arch::from(arch).exit_call_return_offset())
}

/// # Safety
/// `buffer` is valid for `capacity` writes (or null with 0); `len` for a write.
unsafe fn encoded(
    code: Result<Vec<u8>, patchmap::arch::OutOfReach>,
    buffer: *mut u8,
    capacity: size_t,
    len: *mut size_t,
) -> PatchmapStatus {
    guarded(|| {
        let code = match code {
            Ok(code) => code,
            Err(e) => return fail(PatchmapStatus::OutOfRange, e.to_string()),
        };
        if buffer.is_null() || code.len() > capacity {
            return fail(
                PatchmapStatus::OutOfRange,
                format!("the call is {} bytes; the buffer holds {capacity}", code.len()),
            );
        }
        // SAFETY: `capacity` bytes at `buffer` are the caller's, and the code fits.
        unsafe {
            std::ptr::copy_nonoverlapping(code.as_ptr(), buffer, code.len());
            put(len, code.len())
        }
    })
}

/// Writes `code_len` bytes of `code` at the start of the `len`-byte region at `address` and fills
/// the rest with nops. The pages the region touches are made writable and not executable while it
/// is written (never both), then get their protection back; on AArch64 the instruction cache is
/// flushed. `PATCHMAP_STATUS_OUT_OF_RANGE` if the code does not fit or is not whole instructions,
/// `PATCHMAP_STATUS_RUNTIME` if the protection cannot be changed.
///
/// # Safety
/// `address..address + len` is this process's code for `arch` (the host's), which no thread runs
/// during the call; `code` is valid for `code_len` reads.
#[no_mangle]
pub unsafe extern "C" fn patchmap_patch_code(
    arch: PatchmapArch,
    address: *mut u8,
    len: size_t,
    code: *const u8,
    code_len: size_t,
) -> PatchmapStatus {
    guarded(|| {
        if address.is_null() || (code.is_null() && code_len > 0) {
            return fail(PatchmapStatus::InvalidArgument, "patchmap_patch_code: null address or code");
        }
        if Arch::host() != Some(Arch::from(arch)) {
            return fail(PatchmapStatus::InvalidArgument, "only the host's code can be patched");
        }
        // SAFETY: the caller vouches for the code bytes and the region.
        let result = unsafe {
            let code = if code_len == 0 { &[][..] } else { std::slice::from_raw_parts(code, code_len) };
            patch_code(Arch::from(arch), address, len, code)
        };
        match result {
            Ok(()) => PatchmapStatus::Ok,
            Err(e @ patchmap::runtime::PatchError::Protection(_)) => fail(PatchmapStatus::Runtime, e.to_string()),
            Err(e) => fail(PatchmapStatus::OutOfRange, e.to_string()),
        }
    })
}

/// Every register of generated code stopped in the runtime, as an entry or an exit saved them
/// (the same layout on both targets; unused entries are 0). Changes are restored when the handler
/// returns, but for the stack pointer and, on AArch64, x30.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PatchmapRegisters {
    /// General registers by DWARF number: x86-64 0-15, AArch64 x0-x30 and SP (31).
    pub general: [u64; 32],
    /// Vector registers, 128 bits each (low half first): `vector[2 * n]` is the low half of
    /// xmm`n`/v`n`.
    pub vector: [u64; 64],
    /// RFLAGS or NZCV.
    pub flags: u64,
    /// The stack pointer at the stop: the caller's, as after the return.
    pub stack_pointer: u64,
    /// Where generated code resumes: the return address of its call into the runtime.
    pub return_address: u64,
    /// Unused.
    pub reserved: u64,
}

const _: () = assert!(std::mem::size_of::<PatchmapRegisters>() == Registers::SIZE);

fn registers(registers: &mut Registers) -> *mut PatchmapRegisters {
    // Both are `repr(C)` words in the same order (sizes checked above).
    registers as *mut Registers as *mut PatchmapRegisters
}

/// Register `dwarf`'s low 64 bits (a vector register's low lane) in `registers`.
///
/// # Safety
/// `registers` is valid for a read, `value` for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_registers_get(
    arch: PatchmapArch,
    registers: *const PatchmapRegisters,
    dwarf: u16,
    value: *mut u64,
) -> PatchmapStatus {
    guarded(|| {
        // SAFETY: the caller vouches for the pointer; the layouts are the same.
        let Some(r) = (unsafe { (registers as *const Registers).as_ref() }) else {
            return fail(PatchmapStatus::InvalidArgument, "null registers");
        };
        match r.get(Arch::from(arch), dwarf) {
            // SAFETY: the caller vouches for `value`.
            Some(v) => unsafe { put(value, v) },
            None => fail(PatchmapStatus::OutOfRange, format!("no register R#{dwarf} on {}", Arch::from(arch).name())),
        }
    })
}

/// Replaces the low `size` (1 to 8) bytes of register `dwarf` in `registers`.
///
/// # Safety
/// `registers` is valid for a read and a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_registers_set(
    arch: PatchmapArch,
    registers: *mut PatchmapRegisters,
    dwarf: u16,
    size: size_t,
    value: u64,
) -> PatchmapStatus {
    guarded(|| {
        // SAFETY: the caller vouches for the pointer; the layouts are the same.
        let Some(r) = (unsafe { (registers as *mut Registers).as_mut() }) else {
            return fail(PatchmapStatus::InvalidArgument, "null registers");
        };
        match r.set(Arch::from(arch), dwarf, size.clamp(1, 8), value) {
            Some(()) => PatchmapStatus::Ok,
            None => fail(PatchmapStatus::OutOfRange, format!("no register R#{dwarf} on {}", Arch::from(arch).name())),
        }
    })
}

/// A runtime entry's handler: called with the registers generated code had when it called the
/// entry (its arguments in the convention's registers). A result goes in
/// `patchmap_arch_integer_result`'s register.
pub type PatchmapEntryHandler = Option<unsafe extern "C" fn(registers: *mut PatchmapRegisters, context: *mut c_void)>;

/// A function generated code calls (resolve a symbol to `patchmap_entry_address`) that saves every
/// register, calls a C handler with them and restores them.
pub struct PatchmapEntry {
    // Dropped first: the stub names the target.
    entry: Entry,
    _target: Box<EntryTarget>,
}

struct EntryTarget {
    handler: unsafe extern "C" fn(*mut PatchmapRegisters, *mut c_void),
    context: *mut c_void,
}

unsafe extern "C" fn enter(registers: &mut Registers, context: *mut c_void) {
    // SAFETY: `context` is the `EntryTarget` of the `PatchmapEntry` whose stub ran.
    let target = unsafe { &*(context as *const EntryTarget) };
    // SAFETY: the entry's creator vouched for the handler and its context.
    unsafe { (target.handler)(self::registers(registers), target.context) };
}

/// Makes an entry calling `handler(registers, context)`. On success `*out` is a new entry (free it
/// with `patchmap_entry_free`). Linux on x86-64 and AArch64 only (`PATCHMAP_STATUS_RUNTIME`
/// elsewhere).
///
/// # Safety
/// `handler` is sound to call with `context` whenever generated code calls the entry, from any
/// thread that does; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_entry_new(
    handler: PatchmapEntryHandler,
    context: *mut c_void,
    out: *mut *mut PatchmapEntry,
) -> PatchmapStatus {
    guarded(|| {
        let (Some(handler), false) = (handler, out.is_null()) else {
            return fail(PatchmapStatus::InvalidArgument, "patchmap_entry_new: null handler or out");
        };
        let target = Box::new(EntryTarget { handler, context });
        let context = &*target as *const EntryTarget as *mut c_void;
        // SAFETY: `enter` is sound with the target, which the entry owns (it does not move in its box).
        match unsafe { Entry::new(enter, context) } {
            Ok(entry) => {
                let entry = Box::into_raw(Box::new(PatchmapEntry { entry, _target: target }));
                // SAFETY: `out` is the caller's.
                unsafe { put(out, entry) }
            }
            Err(e) => fail(PatchmapStatus::Runtime, e.to_string()),
        }
    })
}

/// The address generated code calls.
///
/// # Safety
/// `entry` is a live entry.
#[no_mangle]
pub unsafe extern "C" fn patchmap_entry_address(entry: *const PatchmapEntry) -> *const c_void {
    crate::caught(std::ptr::null(), || {
        // SAFETY: the caller vouches for the handle (null: null).
        unsafe { entry.as_ref() }.map_or(std::ptr::null(), |e| e.entry.address() as *const c_void)
    })
}

/// Frees an entry (null: nothing): its stub is unmapped.
///
/// # Safety
/// `entry` is null or a live entry that no code will call again.
#[no_mangle]
pub unsafe extern "C" fn patchmap_entry_free(entry: *mut PatchmapEntry) {
    // SAFETY: the caller vouches for the handle (see above).
    unsafe { crate::free_boxed(entry) }
}

/// How generated code goes on after an exit (`PatchmapResume::kind`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchmapResumeKind {
    /// Restore the registers and return to `registers->return_address`.
    Continue = 0,
    /// Restore the registers and continue at `value`.
    At = 1,
    /// Leave the generated code: the innermost `patchmap_exits_call` on the thread returns `value`.
    Return = 2,
}

/// An exit handler's answer.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PatchmapResume {
    /// What to do: a `PatchmapResumeKind` (another value aborts the process, as there is no caller
    /// to report it to).
    pub kind: u32,
    /// The address (`AT`) or the value (`RETURN`).
    pub value: u64,
}

/// An exit handler: called on the exiting thread with the stopped code's registers and the exit's
/// number. A shadow's exit call replaced the code after the point: leave (`RETURN`) or resume
/// elsewhere (`AT`); a patch point region's may `CONTINUE`.
pub type PatchmapExitHandler = Option<
    unsafe extern "C" fn(registers: *mut PatchmapRegisters, number: u32, context: *mut c_void) -> PatchmapResume,
>;

/// An area of exit stubs, made on demand, all calling one handler.
pub struct PatchmapExits {
    exits: Exits,
}

/// The C handler of an exit area; the creator vouched that it may run on any thread at once.
struct ExitTarget {
    handler: unsafe extern "C" fn(*mut PatchmapRegisters, u32, *mut c_void) -> PatchmapResume,
    context: *mut c_void,
}
impl ExitTarget {
    fn call(&self, state: &mut ExitState, number: u32) -> Resume {
        // SAFETY: the area's creator vouched for the handler and its context.
        let resume = unsafe { (self.handler)(registers(state.registers_mut()), number, self.context) };
        match resume.kind {
            k if k == PatchmapResumeKind::Continue as u32 => Resume::Continue,
            k if k == PatchmapResumeKind::At as u32 => Resume::At(resume.value),
            k if k == PatchmapResumeKind::Return as u32 => Resume::Return(resume.value),
            other => {
                eprintln!(
                    "patchmap: an exit handler answered resume kind {other}, which is none of PatchmapResumeKind"
                );
                std::process::abort();
            }
        }
    }
}

// SAFETY: `patchmap_exits_new`'s caller vouches that the handler and its context may be used from
// any thread at once.
unsafe impl Send for ExitTarget {}
// SAFETY: as above.
unsafe impl Sync for ExitTarget {}

/// Makes an exit area whose stubs call `handler(registers, number, context)`. On success `*out` is
/// a new area (free it with `patchmap_exits_free`).
///
/// # Safety
/// `handler` is sound to call with `context` from every thread that exits, at once; `out` is valid
/// for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_exits_new(
    handler: PatchmapExitHandler,
    context: *mut c_void,
    out: *mut *mut PatchmapExits,
) -> PatchmapStatus {
    guarded(|| {
        let (Some(handler), false) = (handler, out.is_null()) else {
            return fail(PatchmapStatus::InvalidArgument, "patchmap_exits_new: null handler or out");
        };
        let target = ExitTarget { handler, context };
        let exits = Exits::new(move |state: &mut ExitState, number| target.call(state, number));
        match exits {
            // SAFETY: `out` is the caller's.
            Ok(exits) => unsafe { put(out, Box::into_raw(Box::new(PatchmapExits { exits }))) },
            Err(e) => fail(PatchmapStatus::Runtime, e.to_string()),
        }
    })
}

/// Frees an exit area (null: nothing): its stubs are unmapped.
///
/// # Safety
/// `exits` is null or a live area that no code can reach any more (unpatch first).
#[no_mangle]
pub unsafe extern "C" fn patchmap_exits_free(exits: *mut PatchmapExits) {
    // SAFETY: the caller vouches for the handle (see above).
    unsafe { crate::free_boxed(exits) }
}

/// Runs `f` on the area, or fails for a null one.
///
/// # Safety
/// `exits` is null or a live area.
unsafe fn with_exits(exits: *const PatchmapExits, f: impl FnOnce(&Exits) -> PatchmapStatus) -> PatchmapStatus {
    guarded(|| {
        // SAFETY: the caller vouches for the handle.
        match unsafe { exits.as_ref() } {
            Some(e) => f(&e.exits),
            None => fail(PatchmapStatus::InvalidArgument, "a null exit area"),
        }
    })
}

/// The address of exit stub `number` (below 2^24), made if it does not exist yet.
///
/// # Safety
/// `exits` is a live area; `address` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_exits_stub(
    exits: *const PatchmapExits,
    number: u32,
    address: *mut u64,
) -> PatchmapStatus {
    // SAFETY: the caller vouches for the pointers.
    unsafe {
        with_exits(exits, |e| match e.stub(number) {
            Ok(stub) => put(address, stub),
            Err(error) => fail(PatchmapStatus::Runtime, error.to_string()),
        })
    }
}

/// Patches a call to exit stub `number` into the `len`-byte region at `address` (a stack map's
/// shadow, a patch point's region) and nops after it (as `patchmap_patch_code`). The exit's
/// `return_address` is then `address + patchmap_exit_call_return_offset(host)`.
/// `PATCHMAP_STATUS_OUT_OF_RANGE` if the region is too short for the call.
///
/// # Safety
/// As `patchmap_patch_code`; `exits` is a live area.
#[no_mangle]
pub unsafe extern "C" fn patchmap_exits_patch_call(
    exits: *const PatchmapExits,
    address: *mut u8,
    len: size_t,
    number: u32,
) -> PatchmapStatus {
    // SAFETY: the caller vouches for the pointers and the region.
    unsafe {
        with_exits(exits, |e| {
            if address.is_null() {
                return fail(PatchmapStatus::InvalidArgument, "a null region");
            }
            match e.patch_call(address, len, number) {
                Ok(()) => PatchmapStatus::Ok,
                Err(error @ exits::ExitError::RegionTooSmall { .. }) => {
                    fail(PatchmapStatus::OutOfRange, error.to_string())
                }
                Err(error) => fail(PatchmapStatus::Runtime, error.to_string()),
            }
        })
    }
}

/// Calls generated code `code` (a function of the C convention taking `num_arguments` integers, at
/// most 6 on x86-64 and 8 on AArch64, and returning one or nothing) so that an exit handler can
/// leave it: `*result` is the function's result, or the value of a handler's `RETURN`.
///
/// # Safety
/// `code` is such a function; `arguments` is valid for `num_arguments` reads; `result` for a write.
/// The frames a `RETURN` leaves are discarded without running any cleanup.
#[no_mangle]
pub unsafe extern "C" fn patchmap_exits_call(
    code: *const c_void,
    arguments: *const u64,
    num_arguments: size_t,
    result: *mut u64,
) -> PatchmapStatus {
    guarded(|| {
        if code.is_null() || (arguments.is_null() && num_arguments > 0) {
            return fail(PatchmapStatus::InvalidArgument, "patchmap_exits_call: null code or arguments");
        }
        // SAFETY: the caller vouches for the arguments and the code.
        let outcome = unsafe {
            let arguments =
                if num_arguments == 0 { &[][..] } else { std::slice::from_raw_parts(arguments, num_arguments) };
            exits::call(code as *const u8, arguments)
        };
        match outcome {
            // SAFETY: the caller vouches for `result`.
            Ok(value) => unsafe { put(result, value) },
            Err(e @ exits::ExitError::Arguments(..)) => fail(PatchmapStatus::InvalidArgument, e.to_string()),
            Err(e) => fail(PatchmapStatus::Runtime, e.to_string()),
        }
    })
}

/// A frame of generated code stopped at a call: the call's return address, the frame's stack
/// pointer and frame pointer there.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PatchmapFrameState {
    /// Where the frame's call returns to.
    pub return_address: u64,
    /// The frame's stack pointer at that address (after the call returned).
    pub stack_pointer: u64,
    /// The frame's frame pointer.
    pub frame_pointer: u64,
}

/// The innermost frame of generated code that called an entry, from the registers the entry saved:
/// where a walk starts.
///
/// # Safety
/// `registers` is valid for a read, `out` for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_frame_state_at_entry(
    arch: PatchmapArch,
    registers: *const PatchmapRegisters,
    out: *mut PatchmapFrameState,
) -> PatchmapStatus {
    guarded(|| {
        // SAFETY: the caller vouches for the pointer.
        let Some(r) = (unsafe { registers.as_ref() }) else {
            return fail(PatchmapStatus::InvalidArgument, "null registers");
        };
        let state = PatchmapFrameState {
            return_address: r.return_address,
            stack_pointer: r.stack_pointer,
            frame_pointer: r.general[Arch::from(arch).frame_pointer() as usize],
        };
        // SAFETY: the caller vouches for `out`.
        unsafe { put(out, state) }
    })
}

/// The statepoint records of a stack map, by absolute address: for walking the frames of JIT code
/// or of a linked program (absolute function addresses).
pub struct PatchmapStatepointTable {
    table: StatepointTable,
    /// (absolute address, record index), by address: the first record at each address.
    records: Vec<(u64, usize)>,
}

/// Indexes the statepoint records of `map` (whose record counts must be known). On success `*out`
/// is a new table (free it with `patchmap_statepoint_table_free`); it keeps a copy of what it needs.
///
/// # Safety
/// `map` is a live handle; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_statepoint_table_new(
    map: *const PatchmapStackMap,
    out: *mut *mut PatchmapStatepointTable,
) -> PatchmapStatus {
    // SAFETY: the caller vouches for the pointers.
    unsafe {
        crate::with_map(map, |m| {
            if !m.counts_known {
                return fail(PatchmapStatus::InvalidArgument, "the blob's record counts are unknown (version 1)");
            }
            let mut records = Vec::with_capacity(m.map.records.len());
            for (f, function) in m.map.functions.iter().enumerate() {
                for r in (m.first_records[f]..).take(function.record_count as usize) {
                    let offset = m.map.records.get(r).map_or(0, |r| u64::from(r.instruction_offset));
                    records.push((function.address.wrapping_add(offset), r));
                }
            }
            // Stable: records sharing an address keep section order, so the first is found.
            records.sort_by_key(|e| e.0);
            match StatepointTable::new(m.map.clone()) {
                Ok(table) => put(out, Box::into_raw(Box::new(PatchmapStatepointTable { table, records }))),
                Err(e) => fail(PatchmapStatus::Walk, e.to_string()),
            }
        })
    }
}

/// Frees a table (null: nothing).
///
/// # Safety
/// `table` is null or a live table no thread uses.
#[no_mangle]
pub unsafe extern "C" fn patchmap_statepoint_table_free(table: *mut PatchmapStatepointTable) {
    // SAFETY: the caller vouches for the handle (see above).
    unsafe { crate::free_boxed(table) }
}

/// Where a GC root is (`PatchmapSlot::kind`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchmapSlotKind {
    /// The stack slot at `value` holds the pointer: read and write it there.
    Address = 1,
    /// The captured register whose DWARF number is `value` holds it (frame-table walks only): read
    /// and write it in `PatchmapRegisters`, which the entry restores.
    Register = 2,
    /// The pointer is the constant `value` (null): nothing to update.
    Constant = 3,
}

/// A place a GC pointer is read from and written back to.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PatchmapSlot {
    /// How to read it.
    pub kind: PatchmapSlotKind,
    /// The slot's address, or the constant.
    pub value: u64,
}

/// A base pointer and a pointer derived from it (the same slot for a plain root). A collector that
/// moves the base's object writes the new base, and the derived pointer moved by the same distance.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PatchmapRoot {
    /// Where the base pointer is.
    pub base: PatchmapSlot,
    /// Where the derived pointer is.
    pub derived: PatchmapSlot,
}

impl From<Slot> for PatchmapSlot {
    fn from(slot: Slot) -> PatchmapSlot {
        match slot {
            Slot::Address(a) => PatchmapSlot { kind: PatchmapSlotKind::Address, value: a },
            Slot::Register(dwarf) => PatchmapSlot { kind: PatchmapSlotKind::Register, value: u64::from(dwarf) },
            Slot::Constant(c) => PatchmapSlot { kind: PatchmapSlotKind::Constant, value: c },
        }
    }
}

impl From<Root> for PatchmapRoot {
    fn from(root: Root) -> PatchmapRoot {
        PatchmapRoot { base: root.base.into(), derived: root.derived.into() }
    }
}

/// A frame of generated code at a statepoint, as a walk hands it to its visitor. The arrays are
/// valid during the visit only.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PatchmapGcFrame {
    /// Where the frame is stopped.
    pub state: PatchmapFrameState,
    /// The statepoint's ID.
    pub id: u64,
    /// The statepoint's record index in the stack map the table was made of.
    pub record: size_t,
    /// The frame's roots, one per (base, derived) pair of its record.
    pub roots: *const PatchmapRoot,
    /// How many.
    pub num_roots: size_t,
    /// The record's deopt locations, for `patchmap_read_location` with the table's stack map (their
    /// `Direct`/`Indirect` bases: `state`'s FP or SP).
    pub deopt: *const PatchmapLocation,
    /// How many.
    pub num_deopt: size_t,
    /// The GC allocas' addresses (`Direct` locations) the collector scans in place.
    pub allocas: *const PatchmapLocation,
    /// How many.
    pub num_allocas: size_t,
}

/// Reads 8 bytes of the stopped thread's memory at `address`; false if it cannot.
pub type PatchmapReadMemory = Option<unsafe extern "C" fn(context: *mut c_void, address: u64, value: *mut u64) -> bool>;

/// A walk's visitor: called once per frame, innermost first; returning false stops the walk.
pub type PatchmapVisitFrame = Option<unsafe extern "C" fn(context: *mut c_void, frame: *const PatchmapGcFrame) -> bool>;

/// Walks the frames of generated code from `innermost` (a stopped frame: see
/// `patchmap_frame_state_at_entry`) outwards by frame pointer, reading the frame chain through
/// `read_memory`, until a return address without a statepoint record (the code that entered the
/// generated code), calling `visit` with each frame and its roots. `*frames` (may be null) is how
/// many frames were visited. A visitor may rewrite root slots: the walk reads only the frame chain.
/// `PATCHMAP_STATUS_WALK` when a record is not a statepoint's, a root is in a register (compile
/// with `max_registers_for_gc_values` 0) or the chain is corrupt; `PATCHMAP_STATUS_UNREADABLE` when
/// `read_memory` refused an address of the chain.
///
/// # Safety
/// `table` is a live table; the callbacks are sound to call with their contexts during the call;
/// `frames` is null or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_statepoint_walk(
    table: *const PatchmapStatepointTable,
    arch: PatchmapArch,
    innermost: PatchmapFrameState,
    read_memory: PatchmapReadMemory,
    memory_context: *mut c_void,
    visit: PatchmapVisitFrame,
    visit_context: *mut c_void,
    frames: *mut size_t,
) -> PatchmapStatus {
    guarded(|| {
        // SAFETY: the caller vouches for the handle.
        let (Some(table), Some(read_memory), Some(visit)) = (unsafe { table.as_ref() }, read_memory, visit) else {
            return fail(PatchmapStatus::InvalidArgument, "patchmap_statepoint_walk: null table or callback");
        };
        let memory = |address: u64| {
            let mut value = 0;
            // SAFETY: the caller vouches for the callback and its context.
            unsafe { read_memory(memory_context, address, &mut value) }.then_some(value)
        };
        let start = FrameState {
            return_address: innermost.return_address,
            stack_pointer: innermost.stack_pointer,
            frame_pointer: innermost.frame_pointer,
        };
        let map = table.table.stack_map();
        let mut visited = 0usize;
        let mut status = PatchmapStatus::Ok;
        for frame in table.table.walk(Arch::from(arch), start, &memory) {
            let frame = match frame {
                Ok(frame) => frame,
                Err(e @ WalkError::Memory(_)) => {
                    status = fail(PatchmapStatus::Unreadable, e.to_string());
                    break;
                }
                Err(e) => {
                    status = fail(PatchmapStatus::Walk, e.to_string());
                    break;
                }
            };
            let roots = match frame.roots_in(map) {
                Ok(roots) => roots,
                Err(e) => {
                    status = fail(PatchmapStatus::Walk, e.to_string());
                    break;
                }
            };
            // `roots_in` reports a register root as an error: these are slots and constants.
            let roots: Vec<PatchmapRoot> = roots.iter().map(|&r| r.into()).collect();
            let locations = |l: &[Location]| l.iter().map(|l| location(map, l)).collect::<Vec<_>>();
            let (deopt, allocas) = (locations(frame.layout.deopt), locations(frame.layout.allocas));
            let address = frame.state.return_address;
            let at = table.records.partition_point(|e| e.0 < address);
            let record = table.records.get(at).filter(|e| e.0 == address).map_or(usize::MAX, |e| e.1);
            let c_frame = PatchmapGcFrame {
                state: PatchmapFrameState {
                    return_address: frame.state.return_address,
                    stack_pointer: frame.state.stack_pointer,
                    frame_pointer: frame.state.frame_pointer,
                },
                id: frame.id,
                record,
                roots: roots.as_ptr(),
                num_roots: roots.len(),
                deopt: deopt.as_ptr(),
                num_deopt: deopt.len(),
                allocas: allocas.as_ptr(),
                num_allocas: allocas.len(),
            };
            visited += 1;
            // SAFETY: the caller vouches for the visitor and its context; the frame lives meanwhile.
            if !unsafe { visit(visit_context, &c_frame) } {
                break;
            }
        }
        if !frames.is_null() {
            // SAFETY: the caller vouches for `frames`.
            unsafe { frames.write(visited) };
        }
        status
    })
}
