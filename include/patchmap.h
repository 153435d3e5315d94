/* patchmap's C API: read LLVM stack map sections (versions 1, 2, 3 and the frame-table layout), compile
 * LLVM IR to objects and JIT code, patch code, stop generated code and walk its frames (for GC roots,
 * or with the frame table to read and write every value of every frame).
 * Generated from capi/src/ by cbindgen; do not edit. See README.md, "C API".
 *
 * Conventions: handles are opaque, each with its free function; lengths are explicit; a call that can
 * fail returns a PatchmapStatus and leaves the calling thread's message in patchmap_last_error() (a
 * byte offset for a malformed section, file:line:col for IR); results go through out-parameters,
 * written only on success; no Rust panic crosses the boundary (PATCHMAP_STATUS_PANIC instead).
 * The compiler's declarations need PATCHMAP_COMPILER defined (patchmap.pc's Cflags do it).
 *
 * Threads: parsed stack maps and objects, statepoint and frame tables, stack walks and JIT handles
 * are immutable (a walk's writes go to the caller's registers and memory), so any number of
 * threads may read one at once; freeing one needs that no thread uses it any more.
 * patchmap_last_error() is per thread. Entry and exit handlers run on the thread that called the
 * entry or exited, several at once if several threads do. Patching needs that no thread runs the
 * patched bytes meanwhile. */

#ifndef PATCHMAP_H
#define PATCHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// What a call did.
typedef enum {
  // It succeeded.
  PATCHMAP_STATUS_OK = 0,
  // A null pointer where a value is needed, or an unknown version.
  PATCHMAP_STATUS_INVALID_ARGUMENT = 1,
  // The bytes are not a valid section or object (`patchmap_last_error` has the byte offset).
  PATCHMAP_STATUS_MALFORMED = 2,
  // An index past the end, or nothing found.
  PATCHMAP_STATUS_OUT_OF_RANGE = 3,
  // The location could not be read: a register or memory the callbacks did not give.
  PATCHMAP_STATUS_UNREADABLE = 4,
  // An internal error (a bug): reported instead of unwinding into C.
  PATCHMAP_STATUS_PANIC = 5,
  // The IR is invalid or unsupported, or could not be compiled (the message has `file:line:col`).
  PATCHMAP_STATUS_COMPILE = 6,
  // A frame walk failed: a record is not a statepoint's, a root is in a register, the frame
  // chain is corrupt.
  PATCHMAP_STATUS_WALK = 7,
  // The system refused: mapping or protecting memory, or the host cannot run this.
  PATCHMAP_STATUS_RUNTIME = 8,
} PatchmapStatus;

// A target architecture.
typedef enum {
  // x86-64 (DWARF: RAX 0, ..., RBP 6, RSP 7, R8-R15 8-15, XMM0-15 17-32).
  PATCHMAP_ARCH_X86_64 = 1,
  // AArch64 (DWARF: x0-x30 0-30, SP 31, v0-v31 64-95).
  PATCHMAP_ARCH_AARCH64 = 2,
} PatchmapArch;

// Where a value of a walked frame lives (`PatchmapPlace::kind`).
typedef enum {
  // In the captured register whose DWARF number is `value`: the innermost frame's registers, and
  // callee-saved registers no inner frame saved. A write lands in `PatchmapRegisters`, which the
  // entry restores.
  PATCHMAP_PLACE_KIND_REGISTER = 1,
  // In memory at `value`: a spill slot, or the slot where an inner frame's prologue saved a
  // callee-saved register (its epilogue restores it from there).
  PATCHMAP_PLACE_KIND_ADDRESS = 2,
  // The value itself, with no storage to write: a constant, a `Direct` location's address, an
  // outer frame's FP or SP.
  PATCHMAP_PLACE_KIND_VALUE = 3,
} PatchmapPlaceKind;

// Where a GC root is (`PatchmapSlot::kind`).
typedef enum {
  // The stack slot at `value` holds the pointer: read and write it there.
  PATCHMAP_SLOT_KIND_ADDRESS = 1,
  // The captured register whose DWARF number is `value` holds it (frame-table walks only): read
  // and write it in `PatchmapRegisters`, which the entry restores.
  PATCHMAP_SLOT_KIND_REGISTER = 2,
  // The pointer is the constant `value` (null): nothing to update.
  PATCHMAP_SLOT_KIND_CONSTANT = 3,
} PatchmapSlotKind;

// How a location gives its value, as the section's location type byte.
typedef enum {
  // In register `dwarf_reg`.
  PATCHMAP_LOCATION_KIND_REGISTER = 1,
  // The address `dwarf_reg + offset` (a frame object).
  PATCHMAP_LOCATION_KIND_DIRECT = 2,
  // In memory at `[dwarf_reg + offset]` (a spill slot).
  PATCHMAP_LOCATION_KIND_INDIRECT = 3,
  // The constant `offset` (sign-extended).
  PATCHMAP_LOCATION_KIND_CONSTANT = 4,
  // The constant pool's entry `offset`.
  PATCHMAP_LOCATION_KIND_CONSTANT_INDEX = 5,
} PatchmapLocationKind;

// How generated code goes on after an exit (`PatchmapResume::kind`).
typedef enum {
  // Restore the registers and return to `registers->return_address`.
  PATCHMAP_RESUME_KIND_CONTINUE = 0,
  // Restore the registers and continue at `value`.
  PATCHMAP_RESUME_KIND_AT = 1,
  // Leave the generated code: the innermost `patchmap_exits_call` on the thread returns `value`.
  PATCHMAP_RESUME_KIND_RETURN = 2,
} PatchmapResumeKind;

#if defined(PATCHMAP_COMPILER)
// Bytes the library made (an object file): free with `patchmap_buffer_free`.
typedef struct PatchmapBuffer PatchmapBuffer;
#endif

// A function generated code calls (resolve a symbol to `patchmap_entry_address`) that saves every
// register, calls a C handler with them and restores them.
typedef struct PatchmapEntry PatchmapEntry;

// An area of exit stubs, made on demand, all calling one handler.
typedef struct PatchmapExits PatchmapExits;

// A stack map in the frame-table layout (version `0x72`), its functions indexed by address: what
// `patchmap_frame_table_walk` walks. Immutable: any number of threads may walk one at once.
typedef struct PatchmapFrameTable PatchmapFrameTable;

#if defined(PATCHMAP_COMPILER)
// A module compiled into this process's executable memory, with its stack map section (absolute
// addresses) and its records' patch sites. The code lives until `patchmap_jit_free`.
typedef struct PatchmapJit PatchmapJit;
#endif

// Every stack map blob of an object file's stack map section.
typedef struct PatchmapObject PatchmapObject;

// One parsed stack map blob.
typedef struct PatchmapStackMap PatchmapStackMap;

// The frames of a thread stopped in an entry, innermost first: see `patchmap_frame_table_walk`.
typedef struct PatchmapStackWalk PatchmapStackWalk;

// The statepoint records of a stack map, by absolute address: for walking the frames of JIT code
// or of a linked program (absolute function addresses).
typedef struct PatchmapStatepointTable PatchmapStatepointTable;

// A function record.
typedef struct {
  // Its address (0 in a relocatable object, absolute after linking or in JIT code).
  uint64_t address;
  // Bytes its prologue moves the stack pointer (`UINT64_MAX`: dynamic).
  uint64_t stack_size;
  // How many records it has (0 when unknown: see `patchmap_stackmap_record_counts_known`).
  uint64_t record_count;
  // The index of its first record.
  size_t first_record;
  // Whether the section has its frame: see `patchmap_stackmap_frame`.
  bool has_frame_info;
} PatchmapFunction;

// What the frame-table layout adds to a function record.
typedef struct {
  // The size of the function's code in bytes.
  uint32_t function_size;
  // The function sets up a frame (frame pointer and return address saved).
  bool has_frame;
  // It has a variable-size alloca.
  bool has_variable_size_alloca;
  // Its stack is realigned.
  bool has_stack_realignment;
  // Its records' live-outs were computed.
  bool has_live_out_info;
  // The DWARF number of the register frame register offsets are relative to.
  uint16_t base_register;
  // How many callee-saved registers the prologue saved (`patchmap_stackmap_frame_register`).
  size_t num_registers;
} PatchmapFrame;

// A callee-saved register a function's prologue saved (frame-table layout).
typedef struct {
  // Its DWARF number.
  uint16_t dwarf_reg;
  // Where it was saved, from the frame's base register.
  int32_t offset;
  // Bytes saved.
  uint8_t size;
  // Saved by a spill rather than a push.
  bool is_spilled;
} PatchmapFrameRegister;

// A record: one stack map, patch point or statepoint.
typedef struct {
  // The ID the IR gave it.
  uint64_t id;
  // Its offset from its function's first instruction.
  uint32_t instruction_offset;
  // Its function's index, or `SIZE_MAX` where record counts are unknown (some version-1 sections).
  size_t function;
  // How many locations.
  size_t num_locations;
  // How many live-out registers.
  size_t num_live_outs;
  // The length of the call returning to it (frame-table layout; 0 otherwise).
  uint8_t call_size;
  // Whether live-outs were computed (frame-table layout; true for the other versions).
  bool has_live_out_info;
} PatchmapRecord;

// A location: where a live value is.
typedef struct {
  // How to read it: a `PatchmapLocationKind`.
  uint8_t kind;
  // The value's size in bytes.
  uint16_t size;
  // The DWARF register number (0 for constants).
  uint16_t dwarf_reg;
  // The offset, the small constant, or the constant pool index.
  int32_t offset;
  // For `Constant` and `ConstantIndex`: the 64-bit value; 0 otherwise.
  uint64_t constant;
} PatchmapLocation;

// A register live after a patch point.
typedef struct {
  // Its DWARF number.
  uint16_t dwarf_reg;
  // Bytes of it that are live.
  uint8_t size;
} PatchmapLiveOut;

// How `patchmap_read_location` reaches a stopped frame: `read_register` gives the low 64 bits of
// the register with a DWARF number, `read_memory` `size` (1 to 8) little-endian bytes at an
// address; each returns false when it cannot.
typedef struct {
  // Passed back to both callbacks.
  void *context;
  // Reads a register.
  bool (*read_register)(void *context, uint16_t dwarf_reg, uint64_t *value);
  // Reads memory.
  bool (*read_memory)(void *context, uint64_t address, size_t size, uint64_t *value);
} PatchmapFrameAccess;

#if defined(PATCHMAP_COMPILER)
// How to compile; a null `const PatchmapCompileOptions *` means every default.
typedef struct {
  // A target triple or `"x86_64"`, `"aarch64"`; null: the module's `target triple`, else the host.
  // JIT code is always the host's.
  const char *target;
  // `"speed"` (null: this) or `"none"`.
  const char *opt_level;
  // The section's version: 1, 2 or 3 (0: 3, as LLVM 19), or 0x72 (`'r'`) for the frame-table
  // layout.
  uint32_t stackmap_version;
  // llc-19's `-max-registers-for-gc-values` (0: every GC pointer in a frame slot).
  uint32_t max_registers_for_gc_values;
  // llc-19's `-use-registers-for-deopt-values`.
  bool use_registers_for_deopt_values;
} PatchmapCompileOptions;
#endif

#if defined(PATCHMAP_COMPILER)
// A symbol resolver for JIT code: the address of `name` (a function or global the module declares
// but does not define), or null for "not mine", which leaves it to the library's defaults (this
// process's symbols, then the C math library).
typedef const void *(*PatchmapResolve)(void *context, const char *name);
#endif

#if defined(PATCHMAP_COMPILER)
// A record's site in JIT code (`patchmap_jit_site`).
typedef struct {
  // The record's ID.
  uint64_t id;
  // The record's index in the section.
  size_t record;
  // The point: a stack map's address, a patch point region's first byte, a statepoint's return
  // address.
  uint8_t *address;
  // Bytes from `address` a runtime may overwrite: the stack map's shadow, the patch point's
  // region (0 for statepoints).
  size_t len;
  // Whether those bytes are reserved for patching (a patch point's region). A stack map's shadow
  // may hold the code after the point: overwrite it only to leave the function there.
  bool reserved;
} PatchmapSite;
#endif

// Every register of generated code stopped in the runtime, as an entry or an exit saved them
// (the same layout on both targets; unused entries are 0). Changes are restored when the handler
// returns, but for the stack pointer and, on AArch64, x30.
typedef struct {
  // General registers by DWARF number: x86-64 0-15, AArch64 x0-x30 and SP (31).
  uint64_t general[32];
  // Vector registers, 128 bits each (low half first): `vector[2 * n]` is the low half of
  // xmm`n`/v`n`.
  uint64_t vector[64];
  // RFLAGS or NZCV.
  uint64_t flags;
  // The stack pointer at the stop: the caller's, as after the return.
  uint64_t stack_pointer;
  // Where generated code resumes: the return address of its call into the runtime.
  uint64_t return_address;
  // Unused.
  uint64_t reserved;
} PatchmapRegisters;

// How a walk reads and writes the stopped thread's memory: `read` gives `size` (1 to 8)
// little-endian bytes at an address, `write` stores the low `size` bytes of a value there; each
// returns false when it cannot. `write` may be null when nothing is written.
typedef struct {
  // Passed back to both callbacks.
  void *context;
  // Reads memory.
  bool (*read)(void *context, uint64_t address, size_t size, uint64_t *value);
  // Writes memory.
  bool (*write)(void *context, uint64_t address, size_t size, uint64_t value);
} PatchmapMemory;

// A frame of generated code found by a walk (`patchmap_stack_walk_frame`).
typedef struct {
  // The index of the frame's function record in the stack map the table was made of.
  size_t function;
  // The function's address.
  uint64_t function_address;
  // Where the frame resumes: its call's return address.
  uint64_t return_address;
  // The frame's stack pointer at that address (after the call returned).
  uint64_t stack_pointer;
  // The frame's frame pointer.
  uint64_t frame_pointer;
  // The index (in the stack map) of the first record at the return address, or `SIZE_MAX` if
  // none is there.
  size_t record;
  // That record's ID (0 without one).
  uint64_t id;
  // Whether this is the innermost frame, whose registers are all the captured ones. In outer
  // frames only callee-saved registers (and FP, SP) are known.
  bool innermost;
} PatchmapWalkedFrame;

// Where a location's value lives in a walked frame (`patchmap_stack_walk_place`).
typedef struct {
  // Which kind of place.
  PatchmapPlaceKind kind;
  // The DWARF register, the address, or the value.
  uint64_t value;
} PatchmapPlace;

// A place a GC pointer is read from and written back to.
typedef struct {
  // How to read it.
  PatchmapSlotKind kind;
  // The slot's address, or the constant.
  uint64_t value;
} PatchmapSlot;

// A base pointer and a pointer derived from it (the same slot for a plain root). A collector that
// moves the base's object writes the new base, and the derived pointer moved by the same distance.
typedef struct {
  // Where the base pointer is.
  PatchmapSlot base;
  // Where the derived pointer is.
  PatchmapSlot derived;
} PatchmapRoot;

// A runtime entry's handler: called with the registers generated code had when it called the
// entry (its arguments in the convention's registers). A result goes in
// `patchmap_arch_integer_result`'s register.
typedef void (*PatchmapEntryHandler)(PatchmapRegisters *registers, void *context);

// An exit handler's answer.
typedef struct {
  // What to do: a `PatchmapResumeKind` (another value aborts the process, as there is no caller
  // to report it to).
  uint32_t kind;
  // The address (`AT`) or the value (`RETURN`).
  uint64_t value;
} PatchmapResume;

// An exit handler: called on the exiting thread with the stopped code's registers and the exit's
// number. A shadow's exit call replaced the code after the point: leave (`RETURN`) or resume
// elsewhere (`AT`); a patch point region's may `CONTINUE`.
typedef PatchmapResume (*PatchmapExitHandler)(PatchmapRegisters *registers,
                                              uint32_t number,
                                              void *context);

// A frame of generated code stopped at a call: the call's return address, the frame's stack
// pointer and frame pointer there.
typedef struct {
  // Where the frame's call returns to.
  uint64_t return_address;
  // The frame's stack pointer at that address (after the call returned).
  uint64_t stack_pointer;
  // The frame's frame pointer.
  uint64_t frame_pointer;
} PatchmapFrameState;

// Reads 8 bytes of the stopped thread's memory at `address`; false if it cannot.
typedef bool (*PatchmapReadMemory)(void *context, uint64_t address, uint64_t *value);

// A frame of generated code at a statepoint, as a walk hands it to its visitor. The arrays are
// valid during the visit only.
typedef struct {
  // Where the frame is stopped.
  PatchmapFrameState state;
  // The statepoint's ID.
  uint64_t id;
  // The statepoint's record index in the stack map the table was made of.
  size_t record;
  // The frame's roots, one per (base, derived) pair of its record.
  const PatchmapRoot *roots;
  // How many.
  size_t num_roots;
  // The record's deopt locations, for `patchmap_read_location` with the table's stack map (their
  // `Direct`/`Indirect` bases: `state`'s FP or SP).
  const PatchmapLocation *deopt;
  // How many.
  size_t num_deopt;
  // The GC allocas' addresses (`Direct` locations) the collector scans in place.
  const PatchmapLocation *allocas;
  // How many.
  size_t num_allocas;
} PatchmapGcFrame;

// A walk's visitor: called once per frame, innermost first; returning false stops the walk.
typedef bool (*PatchmapVisitFrame)(void *context, const PatchmapGcFrame *frame);

#ifdef __cplusplus
extern "C" {
#endif // __cplusplus

// The calling thread's message for its last failed call ("" if none). Valid until the thread's
// next call that fails.
const char *patchmap_last_error(void);

// Parses one stack map blob of `len` bytes at `data`, little-endian. `version`: 0 reads the
// version byte (2 is LLVM 4.0's layout unless the header is the frame-table layout's), 1, 2 or 3
// forces that version, 0x72 (`'r'`) the frame-table layout. On success `*out` is a new handle
// (free it with `patchmap_stackmap_free`).
//
// # Safety
// `data` is valid for reads of `len` bytes; `out` is valid for a write.
PatchmapStatus patchmap_stackmap_parse(const uint8_t *data,
                                       size_t len,
                                       uint32_t version,
                                       PatchmapStackMap **out);

// Frees a handle from `patchmap_stackmap_parse` (null: nothing).
//
// # Safety
// `map` is null or a handle from `patchmap_stackmap_parse` not yet freed, which no thread uses.
void patchmap_stackmap_free(PatchmapStackMap *map);

// Parses the stack map section of an object file, executable or shared library (ELF, Mach-O or
// COFF) of `len` bytes: every blob in it (linked files hold one per linked object). On success
// `*out` is a new handle (free it with `patchmap_object_free`).
//
// # Safety
// `data` is valid for reads of `len` bytes; `out` is valid for a write.
PatchmapStatus patchmap_object_parse(const uint8_t *data, size_t len, PatchmapObject **out);

// Frees a handle from `patchmap_object_parse` (null: nothing), and its stack maps with it.
//
// # Safety
// `object` is null or a handle from `patchmap_object_parse` not yet freed, which no thread uses.
void patchmap_object_free(PatchmapObject *object);

// How many stack map blobs the object's section holds.
//
// # Safety
// `object` is a live handle.
size_t patchmap_object_num_stackmaps(const PatchmapObject *object);

// Blob `index` of the object, owned by the object (null past the end).
//
// # Safety
// `object` is a live handle.
const PatchmapStackMap *patchmap_object_stackmap(const PatchmapObject *object, size_t index);

// The name of the object's stack map section (`.llvm_stackmaps`, `__llvm_stackmaps`).
//
// # Safety
// `object` is a live handle; the string lives as long as it.
const char *patchmap_object_section_name(const PatchmapObject *object);

// The symbol naming function record `function` of blob `blob` (null when the file does not tell).
//
// # Safety
// `object` is a live handle; the string lives as long as it.
const char *patchmap_object_function_name(const PatchmapObject *object,
                                          size_t blob,
                                          size_t function);

// The blob's version: 1, 2 or 3, or 0x72 (`'r'`) for the frame-table layout (version byte 2).
//
// # Safety
// `map` is a live handle.
uint32_t patchmap_stackmap_version(const PatchmapStackMap *map);

// Whether each function's record count is known: always but for version-1 blobs read alone (an
// object's v1 blobs get theirs from the symbols' sizes where they tell).
//
// # Safety
// `map` is a live handle.
bool patchmap_stackmap_record_counts_known(const PatchmapStackMap *map);

// The blob's byte offset in its section.
//
// # Safety
// `map` is a live handle.
size_t patchmap_stackmap_section_offset(const PatchmapStackMap *map);

// How many function records.
//
// # Safety
// `map` is a live handle.
size_t patchmap_stackmap_num_functions(const PatchmapStackMap *map);

// How many constants in the pool.
//
// # Safety
// `map` is a live handle.
size_t patchmap_stackmap_num_constants(const PatchmapStackMap *map);

// How many records.
//
// # Safety
// `map` is a live handle.
size_t patchmap_stackmap_num_records(const PatchmapStackMap *map);

// Function record `index`.
//
// # Safety
// `map` is a live handle; `out` is valid for a write.
PatchmapStatus patchmap_stackmap_function(const PatchmapStackMap *map,
                                          size_t index,
                                          PatchmapFunction *out);

// The frame of function record `index` (frame-table layout only; `OUT_OF_RANGE` otherwise).
//
// # Safety
// `map` is a live handle; `out` is valid for a write.
PatchmapStatus patchmap_stackmap_frame(const PatchmapStackMap *map,
                                       size_t index,
                                       PatchmapFrame *out);

// Saved register `register` of function record `function`'s frame (frame-table layout).
//
// # Safety
// `map` is a live handle; `out` is valid for a write.
PatchmapStatus patchmap_stackmap_frame_register(const PatchmapStackMap *map,
                                                size_t function,
                                                size_t register_,
                                                PatchmapFrameRegister *out);

// Constant `index` of the pool.
//
// # Safety
// `map` is a live handle; `out` is valid for a write.
PatchmapStatus patchmap_stackmap_constant(const PatchmapStackMap *map, size_t index, uint64_t *out);

// Record `index`.
//
// # Safety
// `map` is a live handle; `out` is valid for a write.
PatchmapStatus patchmap_stackmap_record(const PatchmapStackMap *map,
                                        size_t index,
                                        PatchmapRecord *out);

// Location `index` of record `record`.
//
// # Safety
// `map` is a live handle; `out` is valid for a write.
PatchmapStatus patchmap_stackmap_location(const PatchmapStackMap *map,
                                          size_t record,
                                          size_t index,
                                          PatchmapLocation *out);

// Live-out `index` of record `record`.
//
// # Safety
// `map` is a live handle; `out` is valid for a write.
PatchmapStatus patchmap_stackmap_live_out(const PatchmapStackMap *map,
                                          size_t record,
                                          size_t index,
                                          PatchmapLiveOut *out);

// The records at code address `address` (a function's address plus a record's offset: a return
// address, a patch point region's start): their indices, in section order, written to `indices`
// (at most `capacity` of them; null with 0 to count only); `*count` is how many there are in
// all. Needs record counts (`patchmap_stackmap_record_counts_known`).
//
// # Safety
// `map` is a live handle; `indices` is valid for `capacity` writes (or null with 0); `count` is
// valid for a write.
PatchmapStatus patchmap_stackmap_records_at(const PatchmapStackMap *map,
                                            uint64_t address,
                                            size_t *indices,
                                            size_t capacity,
                                            size_t *count);

// The value location `location` (from `patchmap_stackmap_location` of `map`) holds in the frame
// `access` gives: a register's low `size` bytes, a `Direct` location's address, the `size` bytes
// an `Indirect` one points to, a constant.
//
// # Safety
// `map` is a live handle; `location` and `access` are valid for reads, `out` for a write; the
// callbacks may be called (with `access->context`) during the call.
PatchmapStatus patchmap_read_location(const PatchmapStackMap *map,
                                      const PatchmapLocation *location,
                                      const PatchmapFrameAccess *access,
                                      uint64_t *out);

#if defined(PATCHMAP_COMPILER)
// Compiles `len` bytes of IR text at `text` to a relocatable object (ELF) for `options`' target.
// `name` (null: `"<input>"`) is the file name errors begin with (`name:line:col: ...`). On success
// `*out` is a new buffer (free it with `patchmap_buffer_free`); `PATCHMAP_STATUS_COMPILE` when the IR
// is invalid or unsupported.
//
// # Safety
// `text` is valid for reads of `len` bytes; `name` is null or NUL-terminated; `options` is null or
// valid; `out` is valid for a write.
PatchmapStatus patchmap_compile_object(const uint8_t *text,
                                       size_t len,
                                       const char *name,
                                       const PatchmapCompileOptions *options,
                                       PatchmapBuffer **out);
#endif

#if defined(PATCHMAP_COMPILER)
// `patchmap_compile_object` for the IR file at `path`.
//
// # Safety
// `path` is null or NUL-terminated; `options` is null or valid; `out` is valid for a write.
PatchmapStatus patchmap_compile_object_file(const char *path,
                                            const PatchmapCompileOptions *options,
                                            PatchmapBuffer **out);
#endif

#if defined(PATCHMAP_COMPILER)
// The buffer's bytes (valid until it is freed).
//
// # Safety
// `buffer` is a live buffer.
const uint8_t *patchmap_buffer_data(const PatchmapBuffer *buffer);
#endif

#if defined(PATCHMAP_COMPILER)
// The buffer's length in bytes.
//
// # Safety
// `buffer` is a live buffer.
size_t patchmap_buffer_len(const PatchmapBuffer *buffer);
#endif

#if defined(PATCHMAP_COMPILER)
// Frees a buffer (null: nothing).
//
// # Safety
// `buffer` is null or a buffer not yet freed, which no thread uses.
void patchmap_buffer_free(PatchmapBuffer *buffer);
#endif

#if defined(PATCHMAP_COMPILER)
// Compiles `len` bytes of IR text at `text` into executable memory of this process (the host's
// target; `options->target` must be null or the host's). Each function or global the module
// declares without defining goes to `resolve(context, name)` first (`resolve` may be null); a null
// answer leaves it to this process's symbols. On success `*out` is a new handle (free it with
// `patchmap_jit_free`, which unmaps the code).
//
// # Safety
// As `patchmap_compile_object`; `resolve` is null or sound to call with `context` during the call.
PatchmapStatus patchmap_jit_compile(const uint8_t *text,
                                    size_t len,
                                    const char *name,
                                    const PatchmapCompileOptions *options,
                                    PatchmapResolve resolve,
                                    void *context,
                                    PatchmapJit **out);
#endif

#if defined(PATCHMAP_COMPILER)
// `patchmap_jit_compile` for the IR file at `path`.
//
// # Safety
// As `patchmap_jit_compile`.
PatchmapStatus patchmap_jit_compile_file(const char *path,
                                         const PatchmapCompileOptions *options,
                                         PatchmapResolve resolve,
                                         void *context,
                                         PatchmapJit **out);
#endif

#if defined(PATCHMAP_COMPILER)
// Frees JIT code (null: nothing): its memory is unmapped, so nothing may run it any more.
//
// # Safety
// `jit` is null or a handle not yet freed, whose code no thread runs.
void patchmap_jit_free(PatchmapJit *jit);
#endif

#if defined(PATCHMAP_COMPILER)
// The address and code size of the defined function `name` (size may be null);
// `PATCHMAP_STATUS_OUT_OF_RANGE` if the module defines no such function.
//
// # Safety
// `jit` is a live handle; `name` is NUL-terminated; `address` is valid for a write, `size` null or
// valid.
PatchmapStatus patchmap_jit_function(const PatchmapJit *jit,
                                     const char *name,
                                     const void **address,
                                     size_t *size);
#endif

#if defined(PATCHMAP_COMPILER)
// The module's stack map section, with the functions' absolute addresses, in the options' version
// (`*len` 0 when the module has no records): parse it with `patchmap_stackmap_parse` and the same
// version. The bytes belong to the handle.
//
// # Safety
// `jit` is a live handle; `data` and `len` are valid for writes.
PatchmapStatus patchmap_jit_stackmap_section(const PatchmapJit *jit,
                                             const uint8_t **data,
                                             size_t *len);
#endif

#if defined(PATCHMAP_COMPILER)
// How many records (and so sites) the module has.
//
// # Safety
// `jit` is a live handle.
size_t patchmap_jit_num_sites(const PatchmapJit *jit);
#endif

#if defined(PATCHMAP_COMPILER)
// The site of record `index` (section order): its absolute address and what may be overwritten
// there.
//
// # Safety
// `jit` is a live handle; `out` is valid for a write.
PatchmapStatus patchmap_jit_site(const PatchmapJit *jit, size_t index, PatchmapSite *out);
#endif

// Makes a frame table of `map`: a blob in the frame-table layout (every function with its frame:
// its code size and where its prologue saved callee-saved registers) whose function addresses are
// absolute (JIT code's section, or a linked program's). On success `*out` is a new table (free it
// with `patchmap_frame_table_free`); it keeps a copy of what it needs. `PATCHMAP_STATUS_WALK` when
// a function has no frame (another version: compile with `stackmap_version` `0x72`).
//
// # Safety
// `map` is a live handle; `out` is valid for a write.
PatchmapStatus patchmap_frame_table_new(const PatchmapStackMap *map, PatchmapFrameTable **out);

// Frees a table (null: nothing). Walks made from it stay usable: they keep what they need.
//
// # Safety
// `table` is null or a live table no thread uses.
void patchmap_frame_table_free(PatchmapFrameTable *table);

// Walks the frames of generated code of a thread stopped in an entry (`registers`, as the entry's
// handler received them): the innermost frame is the function holding `registers->return_address`;
// each frame's frame record (`[FP]`, `[FP + 8]`, read through `memory->read`) gives its caller,
// while the return address lies in a function of the table. On success `*out` is a new walk (free
// it with `patchmap_stack_walk_free`), valid while the stack stays as it was (during the handler).
// `PATCHMAP_STATUS_WALK` when the return address is not in the table's code, a function keeps no
// frame record or the chain is corrupt; `PATCHMAP_STATUS_UNREADABLE` when `memory->read` refused an
// address of the chain.
//
// # Safety
// `table` is a live table; `registers` and `memory` are valid for reads; `memory`'s callbacks are
// sound to call with its context during the call; `out` is valid for a write.
PatchmapStatus patchmap_frame_table_walk(const PatchmapFrameTable *table,
                                         PatchmapArch arch,
                                         const PatchmapRegisters *registers,
                                         const PatchmapMemory *memory,
                                         PatchmapStackWalk **out);

// Frees a walk (null: nothing).
//
// # Safety
// `walk` is null or a live walk no thread uses.
void patchmap_stack_walk_free(PatchmapStackWalk *walk);

// How many frames the walk found (at least 1).
//
// # Safety
// `walk` is a live walk.
size_t patchmap_stack_walk_num_frames(const PatchmapStackWalk *walk);

// Frame `index` of the walk (0: innermost).
//
// # Safety
// `walk` is a live walk; `out` is valid for a write.
PatchmapStatus patchmap_stack_walk_frame(const PatchmapStackWalk *walk,
                                         size_t index,
                                         PatchmapWalkedFrame *out);

// Where `location` (of frame `frame`'s record: `patchmap_stackmap_location` of the map the table
// was made of, at the frame's `record`) lives in that frame.
//
// # Safety
// `walk` is a live walk; `location`, `registers` and `memory` are valid for reads; `memory`'s
// callbacks are sound to call during the call; `out` is valid for a write.
PatchmapStatus patchmap_stack_walk_place(const PatchmapStackWalk *walk,
                                         size_t frame,
                                         const PatchmapLocation *location,
                                         const PatchmapRegisters *registers,
                                         const PatchmapMemory *memory,
                                         PatchmapPlace *out);

// The value `location` (as for `patchmap_stack_walk_place`) holds in frame `frame`, in the low
// bytes of `*out` (the first 8 of a larger location): a register's low `size` bytes (an outer
// frame's callee-saved register from where an inner frame saved it), a `Direct` location's address,
// the `size` bytes an `Indirect` one points to, a constant. `PATCHMAP_STATUS_UNREADABLE` for a
// caller-saved register of an outer frame (unknown after its call) or memory `memory->read` refused.
//
// # Safety
// As `patchmap_stack_walk_place`.
PatchmapStatus patchmap_stack_walk_read(const PatchmapStackWalk *walk,
                                        size_t frame,
                                        const PatchmapLocation *location,
                                        const PatchmapRegisters *registers,
                                        const PatchmapMemory *memory,
                                        uint64_t *out);

// Writes the low bytes (the location's size, at most 8) of `value` where `location` (as for
// `patchmap_stack_walk_place`) of frame `frame` lives: into `registers` (which the entry restores
// when its handler returns) or memory through `memory->write`, a callee-saved register's save slot
// included (which the inner frame's epilogue restores into the register). The frame then sees the
// value when it resumes. `PATCHMAP_STATUS_INVALID_ARGUMENT` for a location without storage (a
// constant, a `Direct` address, an outer frame's FP or SP); `PATCHMAP_STATUS_UNREADABLE` when
// `memory` cannot write there.
//
// # Safety
// As `patchmap_stack_walk_place`; `registers` is valid for a write too.
PatchmapStatus patchmap_stack_walk_write(const PatchmapStackWalk *walk,
                                         size_t frame,
                                         const PatchmapLocation *location,
                                         uint64_t value,
                                         PatchmapRegisters *registers,
                                         const PatchmapMemory *memory);

// The value (low 64 bits) of register `dwarf` in frame `frame`: any register of the innermost
// frame; in an outer frame its FP and SP, and its callee-saved registers (from where inner frames
// saved them). `PATCHMAP_STATUS_UNREADABLE` for a caller-saved register of an outer frame.
//
// # Safety
// `walk` is a live walk; `registers` and `memory` are valid for reads; `memory`'s callbacks are
// sound to call during the call; `out` is valid for a write.
PatchmapStatus patchmap_stack_walk_register(const PatchmapStackWalk *walk,
                                            size_t frame,
                                            uint16_t dwarf,
                                            const PatchmapRegisters *registers,
                                            const PatchmapMemory *memory,
                                            uint64_t *out);

// The GC roots of frame `frame`'s statepoint record (none for a frame without a record): a (base,
// derived) pair of slots for each pair, written to `roots` (at most `capacity`; null with 0 to
// count only); `*count` is how many there are in all. Unlike `patchmap_statepoint_walk`'s, a root
// may be in a register (`PATCHMAP_SLOT_KIND_REGISTER`: compiled with `max_registers_for_gc_values`
// above 0): the captured one, or an outer frame's in an inner frame's save slot
// (`PATCHMAP_SLOT_KIND_ADDRESS`). `PATCHMAP_STATUS_WALK` when the record is not a statepoint's.
//
// # Safety
// `walk` is a live walk; `registers` and `memory` are valid for reads; `memory`'s callbacks are
// sound to call during the call; `roots` is valid for `capacity` writes (or null with 0); `count`
// is valid for a write.
PatchmapStatus patchmap_stack_walk_roots(const PatchmapStackWalk *walk,
                                         size_t frame,
                                         const PatchmapRegisters *registers,
                                         const PatchmapMemory *memory,
                                         PatchmapRoot *roots,
                                         size_t capacity,
                                         size_t *count);

// The architecture this process runs on; `PATCHMAP_STATUS_INVALID_ARGUMENT` on another host.
//
// # Safety
// `out` is valid for a write.
PatchmapStatus patchmap_host_arch(PatchmapArch *out);

// The DWARF number of the C convention's integer argument register `index` (0-based), or
// `UINT16_MAX` past the last.
uint16_t patchmap_arch_integer_argument(PatchmapArch arch, size_t index);

// The DWARF number of the C convention's integer result register (RAX, x0).
uint16_t patchmap_arch_integer_result(PatchmapArch arch);

// The DWARF number of the frame pointer (RBP, x29).
uint16_t patchmap_arch_frame_pointer(PatchmapArch arch);

// Encodes into `buffer` (`capacity` bytes) the code LLVM writes in a patch point region to call
// `target`, through the scratch register no location names; `*len` is its length (a capacity of
// 32 is enough on both targets). `PATCHMAP_STATUS_OUT_OF_RANGE` if the buffer is too small or the
// target out of reach (AArch64 reaches 48-bit addresses).
//
// # Safety
// `buffer` is valid for `capacity` writes; `len` for a write.
PatchmapStatus patchmap_encode_call(PatchmapArch arch,
                                    uint64_t target,
                                    uint8_t *buffer,
                                    size_t capacity,
                                    size_t *len);

// Encodes a call to `target` that keeps every register but the return address (and AArch64's x16)
// as it was: for patching a stack map's shadow with a call into the runtime, which then finds each
// live value where the record says. The call returns to its own end
// (`patchmap_exit_call_return_offset`). As `patchmap_encode_call` otherwise.
//
// # Safety
// As `patchmap_encode_call`.
PatchmapStatus patchmap_encode_exit_call(PatchmapArch arch,
                                         uint64_t target,
                                         uint8_t *buffer,
                                         size_t capacity,
                                         size_t *len);

// How far past the patched point `patchmap_encode_exit_call`'s call returns (its length): subtract
// it from a stop's return address to find the record's address.
uint64_t patchmap_exit_call_return_offset(PatchmapArch arch);

// Writes `code_len` bytes of `code` at the start of the `len`-byte region at `address` and fills
// the rest with nops. The pages the region touches are made writable and not executable while it
// is written (never both), then get their protection back; on AArch64 the instruction cache is
// flushed. `PATCHMAP_STATUS_OUT_OF_RANGE` if the code does not fit or is not whole instructions,
// `PATCHMAP_STATUS_RUNTIME` if the protection cannot be changed.
//
// # Safety
// `address..address + len` is this process's code for `arch` (the host's), which no thread runs
// during the call; `code` is valid for `code_len` reads.
PatchmapStatus patchmap_patch_code(PatchmapArch arch,
                                   uint8_t *address,
                                   size_t len,
                                   const uint8_t *code,
                                   size_t code_len);

// Register `dwarf`'s low 64 bits (a vector register's low lane) in `registers`.
//
// # Safety
// `registers` is valid for a read, `value` for a write.
PatchmapStatus patchmap_registers_get(PatchmapArch arch,
                                      const PatchmapRegisters *registers,
                                      uint16_t dwarf,
                                      uint64_t *value);

// Replaces the low `size` (1 to 8) bytes of register `dwarf` in `registers`.
//
// # Safety
// `registers` is valid for a read and a write.
PatchmapStatus patchmap_registers_set(PatchmapArch arch,
                                      PatchmapRegisters *registers,
                                      uint16_t dwarf,
                                      size_t size,
                                      uint64_t value);

// Makes an entry calling `handler(registers, context)`. On success `*out` is a new entry (free it
// with `patchmap_entry_free`). Linux on x86-64 and AArch64 only (`PATCHMAP_STATUS_RUNTIME`
// elsewhere).
//
// # Safety
// `handler` is sound to call with `context` whenever generated code calls the entry, from any
// thread that does; `out` is valid for a write.
PatchmapStatus patchmap_entry_new(PatchmapEntryHandler handler, void *context, PatchmapEntry **out);

// The address generated code calls.
//
// # Safety
// `entry` is a live entry.
const void *patchmap_entry_address(const PatchmapEntry *entry);

// Frees an entry (null: nothing): its stub is unmapped.
//
// # Safety
// `entry` is null or a live entry that no code will call again.
void patchmap_entry_free(PatchmapEntry *entry);

// Makes an exit area whose stubs call `handler(registers, number, context)`. On success `*out` is
// a new area (free it with `patchmap_exits_free`).
//
// # Safety
// `handler` is sound to call with `context` from every thread that exits, at once; `out` is valid
// for a write.
PatchmapStatus patchmap_exits_new(PatchmapExitHandler handler, void *context, PatchmapExits **out);

// Frees an exit area (null: nothing): its stubs are unmapped.
//
// # Safety
// `exits` is null or a live area that no code can reach any more (unpatch first).
void patchmap_exits_free(PatchmapExits *exits);

// The address of exit stub `number` (below 2^24), made if it does not exist yet.
//
// # Safety
// `exits` is a live area; `address` is valid for a write.
PatchmapStatus patchmap_exits_stub(const PatchmapExits *exits, uint32_t number, uint64_t *address);

// Patches a call to exit stub `number` into the `len`-byte region at `address` (a stack map's
// shadow, a patch point's region) and nops after it (as `patchmap_patch_code`). The exit's
// `return_address` is then `address + patchmap_exit_call_return_offset(host)`.
// `PATCHMAP_STATUS_OUT_OF_RANGE` if the region is too short for the call.
//
// # Safety
// As `patchmap_patch_code`; `exits` is a live area.
PatchmapStatus patchmap_exits_patch_call(const PatchmapExits *exits,
                                         uint8_t *address,
                                         size_t len,
                                         uint32_t number);

// Calls generated code `code` (a function of the C convention taking `num_arguments` integers, at
// most 6 on x86-64 and 8 on AArch64, and returning one or nothing) so that an exit handler can
// leave it: `*result` is the function's result, or the value of a handler's `RETURN`.
//
// # Safety
// `code` is such a function; `arguments` is valid for `num_arguments` reads; `result` for a write.
// The frames a `RETURN` leaves are discarded without running any cleanup.
PatchmapStatus patchmap_exits_call(const void *code,
                                   const uint64_t *arguments,
                                   size_t num_arguments,
                                   uint64_t *result);

// The innermost frame of generated code that called an entry, from the registers the entry saved:
// where a walk starts.
//
// # Safety
// `registers` is valid for a read, `out` for a write.
PatchmapStatus patchmap_frame_state_at_entry(PatchmapArch arch,
                                             const PatchmapRegisters *registers,
                                             PatchmapFrameState *out);

// Indexes the statepoint records of `map` (whose record counts must be known). On success `*out`
// is a new table (free it with `patchmap_statepoint_table_free`); it keeps a copy of what it needs.
//
// # Safety
// `map` is a live handle; `out` is valid for a write.
PatchmapStatus patchmap_statepoint_table_new(const PatchmapStackMap *map,
                                             PatchmapStatepointTable **out);

// Frees a table (null: nothing).
//
// # Safety
// `table` is null or a live table no thread uses.
void patchmap_statepoint_table_free(PatchmapStatepointTable *table);

// Walks the frames of generated code from `innermost` (a stopped frame: see
// `patchmap_frame_state_at_entry`) outwards by frame pointer, reading the frame chain through
// `read_memory`, until a return address without a statepoint record (the code that entered the
// generated code), calling `visit` with each frame and its roots. `*frames` (may be null) is how
// many frames were visited. A visitor may rewrite root slots: the walk reads only the frame chain.
// `PATCHMAP_STATUS_WALK` when a record is not a statepoint's, a root is in a register (compile
// with `max_registers_for_gc_values` 0) or the chain is corrupt; `PATCHMAP_STATUS_UNREADABLE` when
// `read_memory` refused an address of the chain.
//
// # Safety
// `table` is a live table; the callbacks are sound to call with their contexts during the call;
// `frames` is null or valid for a write.
PatchmapStatus patchmap_statepoint_walk(const PatchmapStatepointTable *table,
                                        PatchmapArch arch,
                                        PatchmapFrameState innermost,
                                        PatchmapReadMemory read_memory,
                                        void *memory_context,
                                        PatchmapVisitFrame visit,
                                        void *visit_context,
                                        size_t *frames);

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#endif  /* PATCHMAP_H */
