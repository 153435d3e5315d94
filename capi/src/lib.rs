//! patchmap's C API (`include/patchmap.h`, generated from these files by cbindgen), as
//! `libpatchmap_c.a` and `libpatchmap_c.so`, for runtimes written in C and C++: the stack map section
//! reader (this file); compiling IR to objects and JIT code ([`compile`], with the `compiler`
//! feature); patching code, stopping generated code through entries and exits, and walking its
//! frames for GC roots ([`runtime`]); walking them with the frame table, where every location of
//! every frame is read and written, callee-saved registers of outer frames included ([`frames`]).
//!
//! Conventions, the same for every function:
//! - Handles are opaque (`PatchmapStackMap`, `PatchmapJit`, ...); each constructor has its `*_free`.
//! - Lengths are explicit (`data`, `len`); nothing reads past them, and nothing is kept of the
//!   caller's buffer (handles own a copy of what they need).
//! - Functions that can fail return a `PatchmapStatus`; on failure the calling thread's
//!   `patchmap_last_error()` says what was wrong (for a malformed section, with the byte offset; for
//!   IR, `file:line:col`). Results go through out-parameters, written only on success.
//! - No Rust panic crosses the boundary: each entry point catches one and reports
//!   `PATCHMAP_STATUS_PANIC`.
//! - Indices are 0-based; counts are `size_t`.
//!
//! Threads: parsed stack maps and objects, statepoint and frame tables, stack walks and JIT handles
//! are immutable (a walk's writes go to the caller's registers and memory), so any number of
//! threads may read one at once; freeing one needs that no thread uses it any more.
//! `patchmap_last_error` is per thread. Entry and exit handlers run on the thread that called the
//! entry or exited, several at once if several threads do. Patching needs that no thread runs the
//! patched bytes meanwhile.

#![deny(unsafe_op_in_unsafe_fn)]

#[cfg(feature = "compiler")]
pub mod compile;
pub mod frames;
pub mod runtime;

#[cfg(feature = "compiler")]
pub use compile::*;
pub use frames::*;
pub use runtime::*;

use std::cell::RefCell;
use std::ffi::{c_char, c_void, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

use object::{Object, ObjectSection};
use patchmap::runtime::{read_location, Frame, ReadError};
use patchmap::stackmap::object_file::function_symbols;
use patchmap::stackmap::{parse_section, Endian, Location, LocationKind, StackMap, StackMapView, Version};

/// What a call did.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchmapStatus {
    /// It succeeded.
    Ok = 0,
    /// A null pointer where a value is needed, or an unknown version.
    InvalidArgument = 1,
    /// The bytes are not a valid section or object (`patchmap_last_error` has the byte offset).
    Malformed = 2,
    /// An index past the end, or nothing found.
    OutOfRange = 3,
    /// The location could not be read: a register or memory the callbacks did not give.
    Unreadable = 4,
    /// An internal error (a bug): reported instead of unwinding into C.
    Panic = 5,
    /// The IR is invalid or unsupported, or could not be compiled (the message has `file:line:col`).
    Compile = 6,
    /// A frame walk failed: a record is not a statepoint's, a root is in a register, the frame
    /// chain is corrupt.
    Walk = 7,
    /// The system refused: mapping or protecting memory, or the host cannot run this.
    Runtime = 8,
}

/// How a location gives its value, as the section's location type byte.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchmapLocationKind {
    /// In register `dwarf_reg`.
    Register = 1,
    /// The address `dwarf_reg + offset` (a frame object).
    Direct = 2,
    /// In memory at `[dwarf_reg + offset]` (a spill slot).
    Indirect = 3,
    /// The constant `offset` (sign-extended).
    Constant = 4,
    /// The constant pool's entry `offset`.
    ConstantIndex = 5,
}

/// A function record.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PatchmapFunction {
    /// Its address (0 in a relocatable object, absolute after linking or in JIT code).
    pub address: u64,
    /// Bytes its prologue moves the stack pointer (`UINT64_MAX`: dynamic).
    pub stack_size: u64,
    /// How many records it has (0 when unknown: see `patchmap_stackmap_record_counts_known`).
    pub record_count: u64,
    /// The index of its first record.
    pub first_record: size_t,
    /// Whether the section has its frame: see `patchmap_stackmap_frame`.
    pub has_frame_info: bool,
}

/// What the frame-table layout adds to a function record.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PatchmapFrame {
    /// The size of the function's code in bytes.
    pub function_size: u32,
    /// The function sets up a frame (frame pointer and return address saved).
    pub has_frame: bool,
    /// It has a variable-size alloca.
    pub has_variable_size_alloca: bool,
    /// Its stack is realigned.
    pub has_stack_realignment: bool,
    /// Its records' live-outs were computed.
    pub has_live_out_info: bool,
    /// The DWARF number of the register frame register offsets are relative to.
    pub base_register: u16,
    /// How many callee-saved registers the prologue saved (`patchmap_stackmap_frame_register`).
    pub num_registers: size_t,
}

/// A callee-saved register a function's prologue saved (frame-table layout).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PatchmapFrameRegister {
    /// Its DWARF number.
    pub dwarf_reg: u16,
    /// Where it was saved, from the frame's base register.
    pub offset: i32,
    /// Bytes saved.
    pub size: u8,
    /// Saved by a spill rather than a push.
    pub is_spilled: bool,
}

/// A record: one stack map, patch point or statepoint.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PatchmapRecord {
    /// The ID the IR gave it.
    pub id: u64,
    /// Its offset from its function's first instruction.
    pub instruction_offset: u32,
    /// Its function's index, or `SIZE_MAX` where record counts are unknown (some version-1 sections).
    pub function: size_t,
    /// How many locations.
    pub num_locations: size_t,
    /// How many live-out registers.
    pub num_live_outs: size_t,
    /// The length of the call returning to it (frame-table layout; 0 otherwise).
    pub call_size: u8,
    /// Whether live-outs were computed (frame-table layout; true for the other versions).
    pub has_live_out_info: bool,
}

/// A location: where a live value is.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PatchmapLocation {
    /// How to read it: a `PatchmapLocationKind`.
    pub kind: u8,
    /// The value's size in bytes.
    pub size: u16,
    /// The DWARF register number (0 for constants).
    pub dwarf_reg: u16,
    /// The offset, the small constant, or the constant pool index.
    pub offset: i32,
    /// For `Constant` and `ConstantIndex`: the 64-bit value; 0 otherwise.
    pub constant: u64,
}

/// A register live after a patch point.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PatchmapLiveOut {
    /// Its DWARF number.
    pub dwarf_reg: u16,
    /// Bytes of it that are live.
    pub size: u8,
}

/// How `patchmap_read_location` reaches a stopped frame: `read_register` gives the low 64 bits of
/// the register with a DWARF number, `read_memory` `size` (1 to 8) little-endian bytes at an
/// address; each returns false when it cannot.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PatchmapFrameAccess {
    /// Passed back to both callbacks.
    pub context: *mut c_void,
    /// Reads a register.
    pub read_register: Option<unsafe extern "C" fn(context: *mut c_void, dwarf_reg: u16, value: *mut u64) -> bool>,
    /// Reads memory.
    pub read_memory:
        Option<unsafe extern "C" fn(context: *mut c_void, address: u64, size: size_t, value: *mut u64) -> bool>,
}

#[allow(non_camel_case_types)]
type size_t = usize;

/// One parsed stack map blob.
pub struct PatchmapStackMap {
    map: StackMap,
    version: Version,
    counts_known: bool,
    /// The blob's byte offset in its section.
    offset: usize,
    /// Each function record's start in `map.records`.
    first_records: Vec<usize>,
}

/// Every stack map blob of an object file's stack map section.
pub struct PatchmapObject {
    section_name: CString,
    blobs: Vec<PatchmapStackMap>,
    /// Per blob, per function record: the symbol naming the function, when the file tells.
    names: Vec<Vec<Option<CString>>>,
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn fail(status: PatchmapStatus, message: impl Into<String>) -> PatchmapStatus {
    let message = message.into().replace('\0', " ");
    LAST_ERROR.with(|e| *e.borrow_mut() = CString::new(message).unwrap_or_default());
    status
}

/// Runs `f`, turning a panic into `PATCHMAP_STATUS_PANIC`.
fn guarded(f: impl FnOnce() -> PatchmapStatus) -> PatchmapStatus {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(status) => status,
        Err(_) => fail(PatchmapStatus::Panic, "internal error in patchmap (a bug): please report it"),
    }
}

/// Runs `f`, turning a panic into `fallback` (and the thread's message): for the entry points that
/// return no status.
fn caught<T>(fallback: T, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
        fail(PatchmapStatus::Panic, "internal error in patchmap (a bug): please report it");
        fallback
    })
}

/// Frees a handle this library boxed (null: nothing), turning a panic in its destructor into the
/// thread's message: every `patchmap_*_free`.
///
/// # Safety
/// `handle` is null or a live, unshared box of ours that no thread uses again.
unsafe fn free_boxed<T>(handle: *mut T) {
    caught((), || {
        if !handle.is_null() {
            // SAFETY: the caller vouches that this is our live, unshared box.
            drop(unsafe { Box::from_raw(handle) });
        }
    })
}

/// Writes `value` through `out`, if `out` is not null.
///
/// # Safety
/// `out` is null or valid for a write of `T`.
unsafe fn put<T>(out: *mut T, value: T) -> PatchmapStatus {
    if out.is_null() {
        return fail(PatchmapStatus::InvalidArgument, "a null out-parameter");
    }
    // SAFETY: the caller vouches for `out`.
    unsafe { out.write(value) };
    PatchmapStatus::Ok
}

/// The calling thread's message for its last failed call ("" if none). Valid until the thread's
/// next call that fails.
#[no_mangle]
pub extern "C" fn patchmap_last_error() -> *const c_char {
    crate::caught(std::ptr::null(), || LAST_ERROR.with(|e| e.borrow().as_ptr()))
}

fn blob(view: &StackMapView<'_>) -> PatchmapStackMap {
    let map = view.to_model();
    let counts_known = view.version() != Version::V1 || view.has_record_counts();
    let mut first_records = Vec::with_capacity(map.functions.len());
    let mut next = 0usize;
    for f in &map.functions {
        first_records.push(next);
        next = next.saturating_add(f.record_count as usize);
    }
    PatchmapStackMap { map, version: view.version(), counts_known, offset: view.range().start, first_records }
}

/// Parses one stack map blob of `len` bytes at `data`, little-endian. `version`: 0 reads the
/// version byte (2 is LLVM 4.0's layout unless the header is the frame-table layout's), 1, 2 or 3
/// forces that version, 0x72 (`'r'`) the frame-table layout. On success `*out` is a new handle
/// (free it with `patchmap_stackmap_free`).
///
/// # Safety
/// `data` is valid for reads of `len` bytes; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stackmap_parse(
    data: *const u8,
    len: size_t,
    version: u32,
    out: *mut *mut PatchmapStackMap,
) -> PatchmapStatus {
    guarded(|| {
        if data.is_null() || out.is_null() {
            return fail(PatchmapStatus::InvalidArgument, "patchmap_stackmap_parse: null data or out");
        }
        // SAFETY: the caller vouches for `len` bytes at `data`.
        let bytes = unsafe { std::slice::from_raw_parts(data, len) };
        let parsed = match version {
            0 => StackMapView::parse(bytes, Endian::Little),
            1 => StackMapView::parse_version(bytes, Version::V1, Endian::Little),
            2 => StackMapView::parse_version(bytes, Version::V2, Endian::Little),
            3 => StackMapView::parse_version(bytes, Version::V3, Endian::Little),
            0x72 => StackMapView::parse_version(bytes, Version::FrameTable, Endian::Little),
            other => return fail(PatchmapStatus::InvalidArgument, format!("unknown stack map version {other}")),
        };
        match parsed {
            Ok(view) => {
                let handle = Box::into_raw(Box::new(blob(&view)));
                // SAFETY: `out` was checked non-null; the caller vouches for it.
                unsafe { put(out, handle) }
            }
            Err(e) => fail(PatchmapStatus::Malformed, e.to_string()),
        }
    })
}

/// Frees a handle from `patchmap_stackmap_parse` (null: nothing).
///
/// # Safety
/// `map` is null or a handle from `patchmap_stackmap_parse` not yet freed, which no thread uses.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stackmap_free(map: *mut PatchmapStackMap) {
    // SAFETY: the caller vouches for the handle (see above).
    unsafe { crate::free_boxed(map) }
}

/// Parses the stack map section of an object file, executable or shared library (ELF, Mach-O or
/// COFF) of `len` bytes: every blob in it (linked files hold one per linked object). On success
/// `*out` is a new handle (free it with `patchmap_object_free`).
///
/// # Safety
/// `data` is valid for reads of `len` bytes; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_object_parse(
    data: *const u8,
    len: size_t,
    out: *mut *mut PatchmapObject,
) -> PatchmapStatus {
    guarded(|| {
        if data.is_null() || out.is_null() {
            return fail(PatchmapStatus::InvalidArgument, "patchmap_object_parse: null data or out");
        }
        // SAFETY: the caller vouches for `len` bytes at `data`.
        let bytes = unsafe { std::slice::from_raw_parts(data, len) };
        match object_blobs(bytes) {
            Ok(object) => {
                let handle = Box::into_raw(Box::new(object));
                // SAFETY: as above.
                unsafe { put(out, handle) }
            }
            Err(message) => fail(PatchmapStatus::Malformed, message),
        }
    })
}

fn object_blobs(bytes: &[u8]) -> Result<PatchmapObject, String> {
    let file = object::File::parse(bytes).map_err(|e| format!("not an object file: {e}"))?;
    let endian = if file.is_little_endian() { Endian::Little } else { Endian::Big };
    let section = file
        .sections()
        .find(|s| matches!(s.name(), Ok(".llvm_stackmaps" | "__llvm_stackmaps")))
        .ok_or("the file has no stack map section")?;
    let name = section.name().unwrap_or(".llvm_stackmaps");
    let data = section.data().map_err(|e| format!("the stack map section cannot be read: {e}"))?;
    let views = parse_section(data, endian).map_err(|e| e.to_string())?;
    let mut object = PatchmapObject {
        section_name: CString::new(name).unwrap_or_default(),
        blobs: Vec::with_capacity(views.len()),
        names: Vec::with_capacity(views.len()),
    };
    for view in &views {
        object.blobs.push(blob(view));
        let names = function_symbols(&file, &section, view)
            .into_iter()
            .map(|s| s.and_then(|s| CString::new(s.name).ok()))
            .collect();
        object.names.push(names);
    }
    Ok(object)
}

/// Frees a handle from `patchmap_object_parse` (null: nothing), and its stack maps with it.
///
/// # Safety
/// `object` is null or a handle from `patchmap_object_parse` not yet freed, which no thread uses.
#[no_mangle]
pub unsafe extern "C" fn patchmap_object_free(object: *mut PatchmapObject) {
    // SAFETY: the caller vouches for the handle (see above).
    unsafe { crate::free_boxed(object) }
}

/// How many stack map blobs the object's section holds.
///
/// # Safety
/// `object` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn patchmap_object_num_stackmaps(object: *const PatchmapObject) -> size_t {
    crate::caught(0, || {
        // SAFETY: the caller vouches for the handle (null: 0).
        unsafe { object.as_ref() }.map_or(0, |o| o.blobs.len())
    })
}

/// Blob `index` of the object, owned by the object (null past the end).
///
/// # Safety
/// `object` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn patchmap_object_stackmap(
    object: *const PatchmapObject,
    index: size_t,
) -> *const PatchmapStackMap {
    crate::caught(std::ptr::null(), || {
        // SAFETY: as above.
        unsafe { object.as_ref() }.and_then(|o| o.blobs.get(index)).map_or(ptr::null(), |b| b as *const _)
    })
}

/// The name of the object's stack map section (`.llvm_stackmaps`, `__llvm_stackmaps`).
///
/// # Safety
/// `object` is a live handle; the string lives as long as it.
#[no_mangle]
pub unsafe extern "C" fn patchmap_object_section_name(object: *const PatchmapObject) -> *const c_char {
    crate::caught(std::ptr::null(), || {
        // SAFETY: as above.
        unsafe { object.as_ref() }.map_or(ptr::null(), |o| o.section_name.as_ptr())
    })
}

/// The symbol naming function record `function` of blob `blob` (null when the file does not tell).
///
/// # Safety
/// `object` is a live handle; the string lives as long as it.
#[no_mangle]
pub unsafe extern "C" fn patchmap_object_function_name(
    object: *const PatchmapObject,
    blob: size_t,
    function: size_t,
) -> *const c_char {
    crate::caught(std::ptr::null(), || {
        // SAFETY: as above.
        let name = unsafe { object.as_ref() }.and_then(|o| o.names.get(blob)?.get(function)?.as_ref());
        name.map_or(ptr::null(), |n| n.as_ptr())
    })
}

/// Runs `f` on the handle, or fails for a null one.
///
/// # Safety
/// `map` is null or a live handle.
unsafe fn with_map(
    map: *const PatchmapStackMap,
    f: impl FnOnce(&PatchmapStackMap) -> PatchmapStatus,
) -> PatchmapStatus {
    guarded(|| {
        // SAFETY: the caller vouches for the handle.
        match unsafe { map.as_ref() } {
            Some(m) => f(m),
            None => fail(PatchmapStatus::InvalidArgument, "a null stack map handle"),
        }
    })
}

fn out_of_range(what: &str, index: usize, count: usize) -> PatchmapStatus {
    fail(PatchmapStatus::OutOfRange, format!("{what} {index} is out of range ({count} in all)"))
}

/// The blob's version: 1, 2 or 3, or 0x72 (`'r'`) for the frame-table layout (version byte 2).
///
/// # Safety
/// `map` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stackmap_version(map: *const PatchmapStackMap) -> u32 {
    crate::caught(0, || {
        // SAFETY: the caller vouches for the handle (null: 0).
        unsafe { map.as_ref() }.map_or(0, |m| match m.version {
            Version::FrameTable => 0x72,
            v => u32::from(v.number()),
        })
    })
}

/// Whether each function's record count is known: always but for version-1 blobs read alone (an
/// object's v1 blobs get theirs from the symbols' sizes where they tell).
///
/// # Safety
/// `map` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stackmap_record_counts_known(map: *const PatchmapStackMap) -> bool {
    crate::caught(false, || {
        // SAFETY: as above.
        unsafe { map.as_ref() }.is_some_and(|m| m.counts_known)
    })
}

/// The blob's byte offset in its section.
///
/// # Safety
/// `map` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stackmap_section_offset(map: *const PatchmapStackMap) -> size_t {
    crate::caught(0, || {
        // SAFETY: as above.
        unsafe { map.as_ref() }.map_or(0, |m| m.offset)
    })
}

/// How many function records.
///
/// # Safety
/// `map` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stackmap_num_functions(map: *const PatchmapStackMap) -> size_t {
    crate::caught(0, || {
        // SAFETY: as above.
        unsafe { map.as_ref() }.map_or(0, |m| m.map.functions.len())
    })
}

/// How many constants in the pool.
///
/// # Safety
/// `map` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stackmap_num_constants(map: *const PatchmapStackMap) -> size_t {
    crate::caught(0, || {
        // SAFETY: as above.
        unsafe { map.as_ref() }.map_or(0, |m| m.map.constants.len())
    })
}

/// How many records.
///
/// # Safety
/// `map` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stackmap_num_records(map: *const PatchmapStackMap) -> size_t {
    crate::caught(0, || {
        // SAFETY: as above.
        unsafe { map.as_ref() }.map_or(0, |m| m.map.records.len())
    })
}

/// Function record `index`.
///
/// # Safety
/// `map` is a live handle; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stackmap_function(
    map: *const PatchmapStackMap,
    index: size_t,
    out: *mut PatchmapFunction,
) -> PatchmapStatus {
    // SAFETY: the caller vouches for both pointers.
    unsafe {
        with_map(map, |m| {
            let Some(f) = m.map.functions.get(index) else {
                return out_of_range("function", index, m.map.functions.len());
            };
            let value = PatchmapFunction {
                address: f.address,
                stack_size: f.stack_size,
                record_count: if m.counts_known { f.record_count } else { 0 },
                first_record: if m.counts_known { m.first_records[index] } else { 0 },
                has_frame_info: f.frame.is_some(),
            };
            put(out, value)
        })
    }
}

/// The frame of function record `index` (frame-table layout only; `OUT_OF_RANGE` otherwise).
///
/// # Safety
/// `map` is a live handle; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stackmap_frame(
    map: *const PatchmapStackMap,
    index: size_t,
    out: *mut PatchmapFrame,
) -> PatchmapStatus {
    // SAFETY: as above.
    unsafe {
        with_map(map, |m| {
            let Some(frame) = m.map.functions.get(index).and_then(|f| f.frame.as_ref()) else {
                return fail(PatchmapStatus::OutOfRange, format!("function {index} has no frame in this blob"));
            };
            let value = PatchmapFrame {
                function_size: frame.function_size,
                has_frame: frame.has_frame,
                has_variable_size_alloca: frame.has_variable_size_alloca,
                has_stack_realignment: frame.has_stack_realignment,
                has_live_out_info: frame.has_live_out_info,
                base_register: frame.base_register,
                num_registers: frame.registers.len(),
            };
            put(out, value)
        })
    }
}

/// Saved register `register` of function record `function`'s frame (frame-table layout).
///
/// # Safety
/// `map` is a live handle; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stackmap_frame_register(
    map: *const PatchmapStackMap,
    function: size_t,
    register: size_t,
    out: *mut PatchmapFrameRegister,
) -> PatchmapStatus {
    // SAFETY: as above.
    unsafe {
        with_map(map, |m| {
            let registers = m.map.functions.get(function).and_then(|f| f.frame.as_ref()).map(|f| &f.registers);
            let Some(r) = registers.and_then(|r| r.get(register)) else {
                return out_of_range("frame register", register, registers.map_or(0, Vec::len));
            };
            let value = PatchmapFrameRegister {
                dwarf_reg: r.dwarf_reg,
                offset: r.offset,
                size: r.size,
                is_spilled: r.is_spilled,
            };
            put(out, value)
        })
    }
}

/// Constant `index` of the pool.
///
/// # Safety
/// `map` is a live handle; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stackmap_constant(
    map: *const PatchmapStackMap,
    index: size_t,
    out: *mut u64,
) -> PatchmapStatus {
    // SAFETY: as above.
    unsafe {
        with_map(map, |m| match m.map.constants.get(index) {
            Some(&c) => put(out, c),
            None => out_of_range("constant", index, m.map.constants.len()),
        })
    }
}

/// Record `index`.
///
/// # Safety
/// `map` is a live handle; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stackmap_record(
    map: *const PatchmapStackMap,
    index: size_t,
    out: *mut PatchmapRecord,
) -> PatchmapStatus {
    // SAFETY: as above.
    unsafe {
        with_map(map, |m| {
            let Some(r) = m.map.records.get(index) else {
                return out_of_range("record", index, m.map.records.len());
            };
            let function = if m.counts_known {
                m.first_records.partition_point(|&first| first <= index).checked_sub(1).unwrap_or(usize::MAX)
            } else {
                usize::MAX
            };
            let value = PatchmapRecord {
                id: r.id,
                instruction_offset: r.instruction_offset,
                function,
                num_locations: r.locations.len(),
                num_live_outs: r.live_outs.len(),
                call_size: r.call_size,
                has_live_out_info: r.has_live_out_info,
            };
            put(out, value)
        })
    }
}

fn location(map: &StackMap, l: &Location) -> PatchmapLocation {
    PatchmapLocation {
        // `PatchmapLocationKind`'s values are the section's type bytes, as `LocationKind`'s.
        kind: l.kind as u8,
        size: l.size,
        dwarf_reg: l.dwarf_reg,
        offset: l.offset,
        constant: map.constant_value(l).unwrap_or(0),
    }
}

/// The library's location for a C one (its kind checked).
fn location_of(l: &PatchmapLocation) -> Result<Location, PatchmapStatus> {
    let Some(kind) = LocationKind::from_byte(l.kind) else {
        return Err(fail(PatchmapStatus::InvalidArgument, format!("location kind {}", l.kind)));
    };
    Ok(Location { kind, size: l.size, dwarf_reg: l.dwarf_reg, offset: l.offset })
}

/// Location `index` of record `record`.
///
/// # Safety
/// `map` is a live handle; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stackmap_location(
    map: *const PatchmapStackMap,
    record: size_t,
    index: size_t,
    out: *mut PatchmapLocation,
) -> PatchmapStatus {
    // SAFETY: as above.
    unsafe {
        with_map(map, |m| {
            let Some(r) = m.map.records.get(record) else {
                return out_of_range("record", record, m.map.records.len());
            };
            match r.locations.get(index) {
                Some(l) => put(out, location(&m.map, l)),
                None => out_of_range("location", index, r.locations.len()),
            }
        })
    }
}

/// Live-out `index` of record `record`.
///
/// # Safety
/// `map` is a live handle; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stackmap_live_out(
    map: *const PatchmapStackMap,
    record: size_t,
    index: size_t,
    out: *mut PatchmapLiveOut,
) -> PatchmapStatus {
    // SAFETY: as above.
    unsafe {
        with_map(map, |m| {
            let Some(r) = m.map.records.get(record) else {
                return out_of_range("record", record, m.map.records.len());
            };
            match r.live_outs.get(index) {
                Some(l) => put(out, PatchmapLiveOut { dwarf_reg: l.dwarf_reg, size: l.size }),
                None => out_of_range("live-out", index, r.live_outs.len()),
            }
        })
    }
}

/// The records at code address `address` (a function's address plus a record's offset: a return
/// address, a patch point region's start): their indices, in section order, written to `indices`
/// (at most `capacity` of them; null with 0 to count only); `*count` is how many there are in
/// all. Needs record counts (`patchmap_stackmap_record_counts_known`).
///
/// # Safety
/// `map` is a live handle; `indices` is valid for `capacity` writes (or null with 0); `count` is
/// valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_stackmap_records_at(
    map: *const PatchmapStackMap,
    address: u64,
    indices: *mut size_t,
    capacity: size_t,
    count: *mut size_t,
) -> PatchmapStatus {
    // SAFETY: as above.
    unsafe {
        with_map(map, |m| {
            if !m.counts_known {
                return fail(PatchmapStatus::InvalidArgument, "the blob's record counts are unknown (version 1)");
            }
            if indices.is_null() && capacity > 0 {
                return fail(PatchmapStatus::InvalidArgument, "null indices with a capacity");
            }
            let mut found = 0usize;
            for (f, function) in m.map.functions.iter().enumerate() {
                let first = m.first_records[f];
                let records = m.map.records.iter().enumerate().skip(first).take(function.record_count as usize);
                for (i, r) in records {
                    if function.address.wrapping_add(u64::from(r.instruction_offset)) == address {
                        if found < capacity {
                            indices.add(found).write(i);
                        }
                        found += 1;
                    }
                }
            }
            put(count, found)
        })
    }
}

/// The frame the callbacks give, for `read_location`.
struct Access(PatchmapFrameAccess);

impl Frame for Access {
    fn register(&self, dwarf: u16) -> Option<u64> {
        let read = self.0.read_register?;
        let mut value = 0;
        // SAFETY: the caller of `patchmap_read_location` vouches for its callbacks and context.
        unsafe { read(self.0.context, dwarf, &mut value) }.then_some(value)
    }
    fn memory(&self, address: u64, size: usize) -> Option<u64> {
        let read = self.0.read_memory?;
        let mut value = 0;
        // SAFETY: as above.
        unsafe { read(self.0.context, address, size, &mut value) }.then_some(value)
    }
}

/// The value location `location` (from `patchmap_stackmap_location` of `map`) holds in the frame
/// `access` gives: a register's low `size` bytes, a `Direct` location's address, the `size` bytes
/// an `Indirect` one points to, a constant.
///
/// # Safety
/// `map` is a live handle; `location` and `access` are valid for reads, `out` for a write; the
/// callbacks may be called (with `access->context`) during the call.
#[no_mangle]
pub unsafe extern "C" fn patchmap_read_location(
    map: *const PatchmapStackMap,
    location: *const PatchmapLocation,
    access: *const PatchmapFrameAccess,
    out: *mut u64,
) -> PatchmapStatus {
    // SAFETY: as above.
    unsafe {
        with_map(map, |m| {
            let (Some(l), Some(access)) = (location.as_ref(), access.as_ref()) else {
                return fail(PatchmapStatus::InvalidArgument, "a null location or frame access");
            };
            let l = match location_of(l) {
                Ok(l) => l,
                Err(status) => return status,
            };
            match read_location(&l, &m.map.constants, &Access(*access)) {
                Ok(value) => put(out, value),
                Err(e @ (ReadError::Register(_) | ReadError::Memory { .. })) => {
                    fail(PatchmapStatus::Unreadable, e.to_string())
                }
                Err(e) => fail(PatchmapStatus::OutOfRange, e.to_string()),
            }
        })
    }
}
