//! Walking the frames of generated code from C with the frame table
//! ([`patchmap::runtime::frames::FrameTable`]): a stack map in the frame-table layout
//! (`PatchmapFrameTable`), a walk from the registers an entry captured (`PatchmapStackWalk`), and
//! every record location of every frame read and written through it, callee-saved registers of outer
//! frames included (found in the slots where inner frames' prologues saved them). What a
//! deoptimiser or a precise collector with roots in registers needs. None of this needs the compiler.

use std::ffi::c_void;
use std::sync::Arc;

use patchmap::arch::Arch;
use patchmap::runtime::frames::{FrameTable, Place, StackWalk, WalkError};
use patchmap::runtime::{Memory, Registers};

use crate::{
    fail, guarded, location_of, put, size_t, PatchmapArch, PatchmapLocation, PatchmapRegisters, PatchmapRoot,
    PatchmapStackMap, PatchmapStatus,
};

/// A stack map in the frame-table layout (version `0x72`), its functions indexed by address: what
/// `patchmap_frame_table_walk` walks. Immutable: any number of threads may walk one at once.
pub struct PatchmapFrameTable {
    table: Arc<FrameTable>,
}

/// Makes a frame table of `map`: a blob in the frame-table layout (every function with its frame:
/// its code size and where its prologue saved callee-saved registers) whose function addresses are
/// absolute (JIT code's section, or a linked program's). On success `*out` is a new table (free it
/// with `patchmap_frame_table_free`); it keeps a copy of what it needs. `PATCHMAP_STATUS_WALK` when
/// a function has no frame (another version: compile with `stackmap_version` `0x72`).
///
/// # Safety
/// `map` is a live handle; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_frame_table_new(
    map: *const PatchmapStackMap,
    out: *mut *mut PatchmapFrameTable,
) -> PatchmapStatus {
    // SAFETY: the caller vouches for the pointers.
    unsafe {
        crate::with_map(map, |m| {
            if !m.counts_known {
                return fail(PatchmapStatus::InvalidArgument, "the blob's record counts are unknown (version 1)");
            }
            match FrameTable::new(m.map.clone()) {
                Ok(table) => put(out, Box::into_raw(Box::new(PatchmapFrameTable { table: Arc::new(table) }))),
                Err(e) => fail(PatchmapStatus::Walk, e.to_string()),
            }
        })
    }
}

/// Frees a table (null: nothing). Walks made from it stay usable: they keep what they need.
///
/// # Safety
/// `table` is null or a live table no thread uses.
#[no_mangle]
pub unsafe extern "C" fn patchmap_frame_table_free(table: *mut PatchmapFrameTable) {
    // SAFETY: the caller vouches for the handle (see above).
    unsafe { crate::free_boxed(table) }
}

/// How a walk reads and writes the stopped thread's memory: `read` gives `size` (1 to 8)
/// little-endian bytes at an address, `write` stores the low `size` bytes of a value there; each
/// returns false when it cannot. `write` may be null when nothing is written.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PatchmapMemory {
    /// Passed back to both callbacks.
    pub context: *mut c_void,
    /// Reads memory.
    pub read: Option<unsafe extern "C" fn(context: *mut c_void, address: u64, size: size_t, value: *mut u64) -> bool>,
    /// Writes memory.
    pub write: Option<unsafe extern "C" fn(context: *mut c_void, address: u64, size: size_t, value: u64) -> bool>,
}

/// The library's [`Memory`] over the C callbacks.
struct CallbackMemory(PatchmapMemory);

impl Memory for CallbackMemory {
    fn read(&self, address: u64, size: usize) -> Option<u64> {
        let read = self.0.read?;
        let mut value = 0;
        // SAFETY: the caller of the walk function vouches for its callbacks and context.
        unsafe { read(self.0.context, address, size, &mut value) }.then_some(value)
    }

    fn write(&mut self, address: u64, size: usize, value: u64) -> Option<()> {
        let write = self.0.write?;
        // SAFETY: as above.
        unsafe { write(self.0.context, address, size, value) }.then_some(())
    }
}

/// A frame of generated code found by a walk (`patchmap_stack_walk_frame`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PatchmapWalkedFrame {
    /// The index of the frame's function record in the stack map the table was made of.
    pub function: size_t,
    /// The function's address.
    pub function_address: u64,
    /// Where the frame resumes: its call's return address.
    pub return_address: u64,
    /// The frame's stack pointer at that address (after the call returned).
    pub stack_pointer: u64,
    /// The frame's frame pointer.
    pub frame_pointer: u64,
    /// The index (in the stack map) of the first record at the return address, or `SIZE_MAX` if
    /// none is there.
    pub record: size_t,
    /// That record's ID (0 without one).
    pub id: u64,
    /// Whether this is the innermost frame, whose registers are all the captured ones. In outer
    /// frames only callee-saved registers (and FP, SP) are known.
    pub innermost: bool,
}

/// The frames of a thread stopped in an entry, innermost first: see `patchmap_frame_table_walk`.
pub struct PatchmapStackWalk {
    // Dropped before the table it borrows (fields drop in declaration order).
    walk: StackWalk<'static>,
    frames: Vec<PatchmapWalkedFrame>,
    _table: Arc<FrameTable>,
}

/// The status of a failed walk, read or write, with its message.
fn walk_failed(error: WalkError) -> PatchmapStatus {
    let status = match error {
        WalkError::Memory(_) | WalkError::Slot(_) | WalkError::CallerSaved { .. } => PatchmapStatus::Unreadable,
        WalkError::NoFrame(_) | WalkError::NoSuchRegister { .. } | WalkError::ConstantIndex(_) => {
            PatchmapStatus::OutOfRange
        }
        WalkError::NotWritable { .. } => PatchmapStatus::InvalidArgument,
        _ => PatchmapStatus::Walk,
    };
    fail(status, error.to_string())
}

/// [`walk_failed`] for a read or write of a walked frame, whose memory access (not the frame
/// chain's) the callbacks refused.
fn access_failed(error: WalkError) -> PatchmapStatus {
    match error {
        WalkError::Memory(address) | WalkError::Slot(address) => {
            fail(PatchmapStatus::Unreadable, format!("the memory callback refused the access at {address:#x}"))
        }
        e => walk_failed(e),
    }
}

/// Walks the frames of generated code of a thread stopped in an entry (`registers`, as the entry's
/// handler received them): the innermost frame is the function holding `registers->return_address`;
/// each frame's frame record (`[FP]`, `[FP + 8]`, read through `memory->read`) gives its caller,
/// while the return address lies in a function of the table. On success `*out` is a new walk (free
/// it with `patchmap_stack_walk_free`), valid while the stack stays as it was (during the handler).
/// `PATCHMAP_STATUS_WALK` when the return address is not in the table's code, a function keeps no
/// frame record or the chain is corrupt; `PATCHMAP_STATUS_UNREADABLE` when `memory->read` refused an
/// address of the chain.
///
/// # Safety
/// `table` is a live table; `registers` and `memory` are valid for reads; `memory`'s callbacks are
/// sound to call with its context during the call; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_frame_table_walk(
    table: *const PatchmapFrameTable,
    arch: PatchmapArch,
    registers: *const PatchmapRegisters,
    memory: *const PatchmapMemory,
    out: *mut *mut PatchmapStackWalk,
) -> PatchmapStatus {
    guarded(|| {
        // SAFETY: the caller vouches for the pointers; the register layouts are the same.
        let (table, registers, memory) =
            unsafe { (table.as_ref(), (registers as *const Registers).as_ref(), memory.as_ref()) };
        let (Some(table), Some(registers), Some(memory), false) = (table, registers, memory, out.is_null()) else {
            return fail(
                PatchmapStatus::InvalidArgument,
                "patchmap_frame_table_walk: null table, registers, memory or out",
            );
        };
        let owner = Arc::clone(&table.table);
        // SAFETY: the walk borrows the table inside `owner`'s allocation, which does not move and
        // lives in the same handle, dropped after the walk.
        let borrowed: &'static FrameTable = unsafe { &*Arc::as_ptr(&owner) };
        let walk = match borrowed.walk(Arch::from(arch), registers, &CallbackMemory(*memory)) {
            Ok(walk) => walk,
            Err(e) => return walk_failed(e),
        };
        let records = &borrowed.stack_map().records;
        let frames = walk
            .frames()
            .iter()
            .map(|f| PatchmapWalkedFrame {
                function: f.function,
                function_address: f.function_address,
                return_address: f.return_address,
                stack_pointer: f.stack_pointer,
                frame_pointer: f.frame_pointer,
                record: f.record.and_then(|r| records.iter().position(|s| std::ptr::eq(s, r))).unwrap_or(usize::MAX),
                id: f.record.map_or(0, |r| r.id),
                innermost: f.is_innermost(),
            })
            .collect();
        let handle = Box::into_raw(Box::new(PatchmapStackWalk { walk, frames, _table: owner }));
        // SAFETY: `out` was checked non-null; the caller vouches for it.
        unsafe { put(out, handle) }
    })
}

/// Frees a walk (null: nothing).
///
/// # Safety
/// `walk` is null or a live walk no thread uses.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stack_walk_free(walk: *mut PatchmapStackWalk) {
    // SAFETY: the caller vouches for the handle (see above).
    unsafe { crate::free_boxed(walk) }
}

/// How many frames the walk found (at least 1).
///
/// # Safety
/// `walk` is a live walk.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stack_walk_num_frames(walk: *const PatchmapStackWalk) -> size_t {
    crate::caught(0, || {
        // SAFETY: the caller vouches for the handle (null: 0).
        unsafe { walk.as_ref() }.map_or(0, |w| w.frames.len())
    })
}

/// Runs `f` on the walk, or fails for a null one.
///
/// # Safety
/// `walk` is null or a live walk.
unsafe fn with_walk(
    walk: *const PatchmapStackWalk,
    f: impl FnOnce(&PatchmapStackWalk) -> PatchmapStatus,
) -> PatchmapStatus {
    guarded(|| {
        // SAFETY: the caller vouches for the handle.
        match unsafe { walk.as_ref() } {
            Some(w) => f(w),
            None => fail(PatchmapStatus::InvalidArgument, "a null stack walk"),
        }
    })
}

/// Frame `index` of the walk (0: innermost).
///
/// # Safety
/// `walk` is a live walk; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stack_walk_frame(
    walk: *const PatchmapStackWalk,
    index: size_t,
    out: *mut PatchmapWalkedFrame,
) -> PatchmapStatus {
    // SAFETY: the caller vouches for the pointers.
    unsafe {
        with_walk(walk, |w| match w.frames.get(index) {
            Some(&frame) => put(out, frame),
            None => crate::out_of_range("frame", index, w.frames.len()),
        })
    }
}

/// Where a value of a walked frame lives (`PatchmapPlace::kind`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchmapPlaceKind {
    /// In the captured register whose DWARF number is `value`: the innermost frame's registers, and
    /// callee-saved registers no inner frame saved. A write lands in `PatchmapRegisters`, which the
    /// entry restores.
    Register = 1,
    /// In memory at `value`: a spill slot, or the slot where an inner frame's prologue saved a
    /// callee-saved register (its epilogue restores it from there).
    Address = 2,
    /// The value itself, with no storage to write: a constant, a `Direct` location's address, an
    /// outer frame's FP or SP.
    Value = 3,
}

/// Where a location's value lives in a walked frame (`patchmap_stack_walk_place`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PatchmapPlace {
    /// Which kind of place.
    pub kind: PatchmapPlaceKind,
    /// The DWARF register, the address, or the value.
    pub value: u64,
}

/// The checked arguments of a read or a write: the walk, the location, the registers and memory.
struct Access<'a> {
    walk: &'a PatchmapStackWalk,
    location: patchmap::stackmap::Location,
    memory: CallbackMemory,
}

/// # Safety
/// `walk` is null or a live walk; `location` and `memory` are null or valid for reads.
unsafe fn access<'a>(
    walk: *const PatchmapStackWalk,
    location: *const PatchmapLocation,
    memory: *const PatchmapMemory,
) -> Result<Access<'a>, PatchmapStatus> {
    // SAFETY: the caller vouches for the pointers.
    let (walk, location, memory) = unsafe { (walk.as_ref(), location.as_ref(), memory.as_ref()) };
    let (Some(walk), Some(location), Some(memory)) = (walk, location, memory) else {
        return Err(fail(PatchmapStatus::InvalidArgument, "a null walk, location or memory"));
    };
    Ok(Access { walk, location: location_of(location)?, memory: CallbackMemory(*memory) })
}

/// [`access`] and the registers of a read (`place`, `read`), which leaves them as they are.
///
/// # Safety
/// As [`access`]; `registers` is null or valid for reads.
unsafe fn access_to_read<'a>(
    walk: *const PatchmapStackWalk,
    location: *const PatchmapLocation,
    registers: *const PatchmapRegisters,
    memory: *const PatchmapMemory,
) -> Result<(Access<'a>, &'a Registers), PatchmapStatus> {
    // SAFETY: the caller vouches for the pointers; the register layouts are the same.
    match unsafe { (access(walk, location, memory), (registers as *const Registers).as_ref()) } {
        (Ok(a), Some(r)) => Ok((a, r)),
        (Err(status), _) => Err(status),
        (_, None) => Err(fail(PatchmapStatus::InvalidArgument, "null registers")),
    }
}

/// Where `location` (of frame `frame`'s record: `patchmap_stackmap_location` of the map the table
/// was made of, at the frame's `record`) lives in that frame.
///
/// # Safety
/// `walk` is a live walk; `location`, `registers` and `memory` are valid for reads; `memory`'s
/// callbacks are sound to call during the call; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stack_walk_place(
    walk: *const PatchmapStackWalk,
    frame: size_t,
    location: *const PatchmapLocation,
    registers: *const PatchmapRegisters,
    memory: *const PatchmapMemory,
    out: *mut PatchmapPlace,
) -> PatchmapStatus {
    guarded(|| {
        // SAFETY: the caller vouches for the pointers.
        let (a, registers) = match unsafe { access_to_read(walk, location, registers, memory) } {
            Ok(checked) => checked,
            Err(status) => return status,
        };
        let place = match a.walk.walk.place(frame, &a.location, registers, &a.memory) {
            Ok(Place::Register(dwarf)) => PatchmapPlace { kind: PatchmapPlaceKind::Register, value: u64::from(dwarf) },
            Ok(Place::Address(address)) => PatchmapPlace { kind: PatchmapPlaceKind::Address, value: address },
            Ok(Place::Value(value)) => PatchmapPlace { kind: PatchmapPlaceKind::Value, value },
            Err(e) => return access_failed(e),
        };
        // SAFETY: the caller vouches for `out`.
        unsafe { put(out, place) }
    })
}

/// The value `location` (as for `patchmap_stack_walk_place`) holds in frame `frame`, in the low
/// bytes of `*out` (the first 8 of a larger location): a register's low `size` bytes (an outer
/// frame's callee-saved register from where an inner frame saved it), a `Direct` location's address,
/// the `size` bytes an `Indirect` one points to, a constant. `PATCHMAP_STATUS_UNREADABLE` for a
/// caller-saved register of an outer frame (unknown after its call) or memory `memory->read` refused.
///
/// # Safety
/// As `patchmap_stack_walk_place`.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stack_walk_read(
    walk: *const PatchmapStackWalk,
    frame: size_t,
    location: *const PatchmapLocation,
    registers: *const PatchmapRegisters,
    memory: *const PatchmapMemory,
    out: *mut u64,
) -> PatchmapStatus {
    guarded(|| {
        // SAFETY: the caller vouches for the pointers.
        let (a, registers) = match unsafe { access_to_read(walk, location, registers, memory) } {
            Ok(checked) => checked,
            Err(status) => return status,
        };
        match a.walk.walk.read(frame, &a.location, registers, &a.memory) {
            // SAFETY: the caller vouches for `out`.
            Ok(value) => unsafe { put(out, value) },
            Err(e) => access_failed(e),
        }
    })
}

/// Writes the low bytes (the location's size, at most 8) of `value` where `location` (as for
/// `patchmap_stack_walk_place`) of frame `frame` lives: into `registers` (which the entry restores
/// when its handler returns) or memory through `memory->write`, a callee-saved register's save slot
/// included (which the inner frame's epilogue restores into the register). The frame then sees the
/// value when it resumes. `PATCHMAP_STATUS_INVALID_ARGUMENT` for a location without storage (a
/// constant, a `Direct` address, an outer frame's FP or SP); `PATCHMAP_STATUS_UNREADABLE` when
/// `memory` cannot write there.
///
/// # Safety
/// As `patchmap_stack_walk_place`; `registers` is valid for a write too.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stack_walk_write(
    walk: *const PatchmapStackWalk,
    frame: size_t,
    location: *const PatchmapLocation,
    value: u64,
    registers: *mut PatchmapRegisters,
    memory: *const PatchmapMemory,
) -> PatchmapStatus {
    guarded(|| {
        // SAFETY: as above.
        let (mut a, registers) =
            match unsafe { (access(walk, location, memory), (registers as *mut Registers).as_mut()) } {
                (Ok(a), Some(r)) => (a, r),
                (Err(status), _) => return status,
                (_, None) => return fail(PatchmapStatus::InvalidArgument, "null registers"),
            };
        match a.walk.walk.write(frame, &a.location, value, registers, &mut a.memory) {
            Ok(()) => PatchmapStatus::Ok,
            Err(e) => access_failed(e),
        }
    })
}

/// The value (low 64 bits) of register `dwarf` in frame `frame`: any register of the innermost
/// frame; in an outer frame its FP and SP, and its callee-saved registers (from where inner frames
/// saved them). `PATCHMAP_STATUS_UNREADABLE` for a caller-saved register of an outer frame.
///
/// # Safety
/// `walk` is a live walk; `registers` and `memory` are valid for reads; `memory`'s callbacks are
/// sound to call during the call; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stack_walk_register(
    walk: *const PatchmapStackWalk,
    frame: size_t,
    dwarf: u16,
    registers: *const PatchmapRegisters,
    memory: *const PatchmapMemory,
    out: *mut u64,
) -> PatchmapStatus {
    guarded(|| {
        // SAFETY: the caller vouches for the pointers; the register layouts are the same.
        let (walk, registers, memory) =
            unsafe { (walk.as_ref(), (registers as *const Registers).as_ref(), memory.as_ref()) };
        let (Some(walk), Some(registers), Some(memory)) = (walk, registers, memory) else {
            return fail(PatchmapStatus::InvalidArgument, "a null walk, registers or memory");
        };
        match walk.walk.register(frame, dwarf, registers, &CallbackMemory(*memory)) {
            // SAFETY: the caller vouches for `out`.
            Ok(value) => unsafe { put(out, value) },
            Err(e) => access_failed(e),
        }
    })
}

/// The GC roots of frame `frame`'s statepoint record (none for a frame without a record): a (base,
/// derived) pair of slots for each pair, written to `roots` (at most `capacity`; null with 0 to
/// count only); `*count` is how many there are in all. Unlike `patchmap_statepoint_walk`'s, a root
/// may be in a register (`PATCHMAP_SLOT_KIND_REGISTER`: compiled with `max_registers_for_gc_values`
/// above 0): the captured one, or an outer frame's in an inner frame's save slot
/// (`PATCHMAP_SLOT_KIND_ADDRESS`). `PATCHMAP_STATUS_WALK` when the record is not a statepoint's.
///
/// # Safety
/// `walk` is a live walk; `registers` and `memory` are valid for reads; `memory`'s callbacks are
/// sound to call during the call; `roots` is valid for `capacity` writes (or null with 0); `count`
/// is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stack_walk_roots(
    walk: *const PatchmapStackWalk,
    frame: size_t,
    registers: *const PatchmapRegisters,
    memory: *const PatchmapMemory,
    roots: *mut PatchmapRoot,
    capacity: size_t,
    count: *mut size_t,
) -> PatchmapStatus {
    guarded(|| {
        // SAFETY: the caller vouches for the pointers; the register layouts are the same.
        let (walk, registers, memory) =
            unsafe { (walk.as_ref(), (registers as *const Registers).as_ref(), memory.as_ref()) };
        let (Some(walk), Some(registers), Some(memory), false) =
            (walk, registers, memory, roots.is_null() && capacity > 0)
        else {
            return fail(PatchmapStatus::InvalidArgument, "a null walk, registers, memory, or roots with a capacity");
        };
        let found = match walk.walk.roots(frame, registers, &CallbackMemory(*memory)) {
            Ok(found) => found,
            Err(e) => return access_failed(e),
        };
        for (i, &root) in found.iter().take(capacity).enumerate() {
            // SAFETY: `roots` holds `capacity` entries, and `i` is below it.
            unsafe { roots.add(i).write(root.into()) };
        }
        // SAFETY: the caller vouches for `count`.
        unsafe { put(count, found.len()) }
    })
}
