/* patchmap's C API: read LLVM stack map sections (versions 1, 2, 3 and the frame-table layout).
 * Generated from capi/src/lib.rs by cbindgen; do not edit. See README.md, "C API". */

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
} PatchmapStatus;

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

// Every stack map blob of an object file's stack map section.
typedef struct PatchmapObject PatchmapObject;

// One parsed stack map blob.
typedef struct PatchmapStackMap PatchmapStackMap;

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

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#endif  /* PATCHMAP_H */
