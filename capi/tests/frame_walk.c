/* Walks every frame of JIT code stopped in a runtime entry with the frame table, through patchmap's
 * C API, reads every recorded value of every frame and writes some. Built against include/patchmap.h
 * and libpatchmap_c (static or shared) by capi/tests/c_api.rs.
 *
 * frame_walk FILE.ll [--ignore-saves | --wrong-frame | --write-captured]
 *
 * FILE.ll is capi/tests/nested_calls.ll's shape: f0(a, b) -> f1 -> ... -> runtime_entry, each level
 * printing its values through print_value(level, index, value) before its call, keeping them live
 * across it with a stack map (ID 100 + level) at the call's return address, and printing them again
 * (level 10 + level) after it. It is compiled with the frame-table layout, runtime_entry resolved to
 * an entry and print_value to this file's function. In the entry's handler the walk must find one
 * frame per level, each stopped at its record, and each location must hold what the program printed
 * for it. Then three values are written through the walk: one in the innermost frame's captured
 * registers, one in a spill slot of an outer frame, and one in a callee-saved register of the
 * outermost frame (which lives in an inner frame's save slot); after the entry returns, the program
 * must print the new values and the old ones elsewhere.
 *
 * stdout: the program's values ("value <level> <index> <hex>"), each frame's reads
 * ("frame <i> S<id> <k> <size>:<hex> <where>") and last
 *   walked <frames> frames, <values> values, <saved> in inner frames' save slots, <written> written
 * Status 0 when every check held; 1 with a message on stderr otherwise.
 *
 * Broken variants a test must catch: --ignore-saves reads an outer frame's register locations from
 * the captured registers (as a reader that ignores the save slots would), --wrong-frame reads each
 * frame's locations in the next frame, --write-captured writes the outermost frame's register value
 * into the captured register (which the inner frames' epilogues overwrite). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchmap.h"

#define LEVELS 3
#define VALUES 10
#define RECORD_ID 100
#define AFTER 10

static PatchmapArch arch;
static const PatchmapStackMap *map;
static PatchmapFrameTable *table;
static int ignore_saves, wrong_frame, write_captured;

/* What the program printed: before its call, and after; what it must print after. */
static uint64_t before[LEVELS][VALUES], after[LEVELS][VALUES], expected_after[LEVELS][VALUES];
static int printed_before[LEVELS][VALUES], printed_after[LEVELS][VALUES];
static size_t stops, frames_walked, values_read, saved_by_inner, written, mismatches;

static void check(PatchmapStatus status, const char *what) {
    if (status != PATCHMAP_STATUS_OK) {
        fflush(stdout);
        fprintf(stderr, "frame_walk: %s: %s (status %d)\n", what, patchmap_last_error(), (int)status);
        exit(1);
    }
}

static void expect_status(PatchmapStatus status, PatchmapStatus expected, const char *what) {
    if (status != expected) {
        fflush(stdout);
        fprintf(stderr, "frame_walk: %s: status %d, expected %d (%s)\n", what, (int)status, (int)expected,
                patchmap_last_error());
        exit(1);
    }
}

static void print_value(int64_t level, int64_t index, int64_t value) {
    int after_call = level >= AFTER;
    int l = (int)(after_call ? level - AFTER : level);
    if (l < 0 || l >= LEVELS || index < 0 || index >= VALUES) {
        fprintf(stderr, "frame_walk: print_value(%" PRId64 ", %" PRId64 ", ...) is out of range\n", level, index);
        exit(1);
    }
    printf("value %" PRId64 " %" PRId64 " %" PRIx64 "\n", level, index, (uint64_t)value);
    if (after_call) {
        after[l][index] = (uint64_t)value;
        printed_after[l][index] = 1;
    } else {
        before[l][index] = expected_after[l][index] = (uint64_t)value;
        printed_before[l][index] = 1;
    }
}

/* The stopped thread's memory: this process's own stack. */
static bool read_memory(void *context, uint64_t address, size_t size, uint64_t *value) {
    (void)context;
    uint64_t v = 0;
    memcpy(&v, (const void *)(uintptr_t)address, size > 8 ? 8 : size);
    *value = v;
    return true;
}

static bool write_memory(void *context, uint64_t address, size_t size, uint64_t value) {
    (void)context;
    memcpy((void *)(uintptr_t)address, &value, size > 8 ? 8 : size);
    return true;
}

static uint64_t low_bytes(uint64_t value, uint16_t size) {
    return size >= 8 ? value : value & ((UINT64_C(1) << (8 * size)) - 1);
}

static const char *place_name(PatchmapPlaceKind kind) {
    switch (kind) {
    case PATCHMAP_PLACE_KIND_REGISTER:
        return "register";
    case PATCHMAP_PLACE_KIND_ADDRESS:
        return "memory";
    default:
        return "value";
    }
}

/* A value to write: frame, location index, what to write. */
struct write {
    size_t frame, index;
    int found;
};

/* The errors a walk reports, on the stopped thread: each a status, never a crash. */
static void check_errors(const PatchmapStackWalk *walk, PatchmapRegisters *registers, const PatchmapMemory *memory) {
    size_t n = patchmap_stack_walk_num_frames(walk);
    PatchmapWalkedFrame frame;
    uint64_t value;
    expect_status(patchmap_stack_walk_frame(walk, n, &frame), PATCHMAP_STATUS_OUT_OF_RANGE, "a frame past the walk");
    /* A caller-saved register (the integer result register) of an outer frame is unknown. */
    uint16_t result = patchmap_arch_integer_result(arch);
    expect_status(patchmap_stack_walk_register(walk, 1, result, registers, memory, &value),
                  PATCHMAP_STATUS_UNREADABLE, "an outer frame's caller-saved register");
    check(patchmap_stack_walk_register(walk, 0, result, registers, memory, &value), "the innermost's registers");
    /* An outer frame's FP is its frame record's, and cannot be written. */
    uint16_t fp = patchmap_arch_frame_pointer(arch);
    check(patchmap_stack_walk_frame(walk, 1, &frame), "frame 1");
    check(patchmap_stack_walk_register(walk, 1, fp, registers, memory, &value), "frame 1's FP");
    if (value != frame.frame_pointer) {
        fprintf(stderr, "frame_walk: frame 1's FP reads %#" PRIx64 ", not %#" PRIx64 "\n", value, frame.frame_pointer);
        exit(1);
    }
    PatchmapLocation fp_location = {PATCHMAP_LOCATION_KIND_REGISTER, 8, fp, 0, 0};
    expect_status(patchmap_stack_walk_write(walk, 1, &fp_location, 0, registers, memory),
                  PATCHMAP_STATUS_INVALID_ARGUMENT, "writing an outer frame's FP");
    /* A walk from outside the table's code. */
    PatchmapRegisters outside = *registers;
    outside.return_address = 8;
    PatchmapStackWalk *none = NULL;
    expect_status(patchmap_frame_table_walk(table, arch, &outside, memory, &none), PATCHMAP_STATUS_WALK,
                  "a walk from outside generated code");
    if (!strstr(patchmap_last_error(), "not in generated code")) {
        fprintf(stderr, "frame_walk: unexpected message: %s\n", patchmap_last_error());
        exit(1);
    }
    expect_status(patchmap_frame_table_walk(table, arch, registers, NULL, &none), PATCHMAP_STATUS_INVALID_ARGUMENT,
                  "a walk without memory");
    /* A memory that refuses writes: the write fails and says where. */
    PatchmapMemory read_only = {NULL, read_memory, NULL};
    PatchmapLocation slot = {PATCHMAP_LOCATION_KIND_INDIRECT, 8, fp, -8, 0};
    expect_status(patchmap_stack_walk_write(walk, 1, &slot, 0, registers, &read_only), PATCHMAP_STATUS_UNREADABLE,
                  "a write the memory refuses");
}

static void on_entry(PatchmapRegisters *registers, void *context) {
    (void)context;
    if (stops++ > 0) {
        fprintf(stderr, "frame_walk: the entry was called twice\n");
        exit(1);
    }
    PatchmapMemory memory = {NULL, read_memory, write_memory};
    PatchmapStackWalk *walk;
    check(patchmap_frame_table_walk(table, arch, registers, &memory, &walk), "walk");
    size_t n = patchmap_stack_walk_num_frames(walk);
    frames_walked = n;
    if (n != LEVELS) {
        fprintf(stderr, "frame_walk: the walk found %zu frames, not %d\n", n, LEVELS);
        exit(1);
    }
    struct write captured = {0, 0, 0}, spilled = {0, 0, 0}, saved = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        PatchmapWalkedFrame frame;
        check(patchmap_stack_walk_frame(walk, i, &frame), "frame");
        int level = (int)(frame.id - RECORD_ID);
        if (frame.record == SIZE_MAX || level != LEVELS - 1 - (int)i || frame.innermost != (i == 0)) {
            fprintf(stderr, "frame_walk: frame %zu (return address %#" PRIx64 ") has record %zu, ID %" PRIu64 "\n", i,
                    frame.return_address, frame.record, frame.id);
            exit(1);
        }
        PatchmapRecord record;
        check(patchmap_stackmap_record(map, frame.record, &record), "record");
        if (record.num_locations != VALUES) {
            fprintf(stderr, "frame_walk: record %" PRIu64 " has %zu locations\n", record.id, record.num_locations);
            exit(1);
        }
        size_t read_frame = wrong_frame ? (i + 1) % n : i;
        for (size_t k = 0; k < record.num_locations; k++) {
            PatchmapLocation location;
            PatchmapPlace place;
            uint64_t value;
            check(patchmap_stackmap_location(map, frame.record, k, &location), "location");
            check(patchmap_stack_walk_place(walk, i, &location, registers, &memory, &place), "place");
            if (ignore_saves && !frame.innermost && location.kind == PATCHMAP_LOCATION_KIND_REGISTER)
                check(patchmap_registers_get(arch, registers, location.dwarf_reg, &value), "captured register");
            else
                check(patchmap_stack_walk_read(walk, read_frame, &location, registers, &memory, &value), "read");
            printf("frame %zu S%" PRIu64 " %zu %u:%" PRIx64 " %s\n", i, frame.id, k, location.size, value,
                   place_name(place.kind));
            values_read++;
            if (!printed_before[level][k] || low_bytes(value, location.size) != low_bytes(before[level][k], location.size)) {
                fprintf(stderr, "frame_walk: mismatch: frame %zu (f%d) value %zu reads %#" PRIx64 "; the program printed %#" PRIx64 "\n",
                        i, level, k, value, before[level][k]);
                mismatches++;
            }
            int is_register = location.kind == PATCHMAP_LOCATION_KIND_REGISTER && location.size == 8;
            if (!frame.innermost && is_register && place.kind == PATCHMAP_PLACE_KIND_ADDRESS) {
                saved_by_inner++;
                if (i == n - 1 && !saved.found)
                    saved = (struct write){i, k, 1};
            }
            if (frame.innermost && is_register && place.kind == PATCHMAP_PLACE_KIND_REGISTER && !captured.found)
                captured = (struct write){i, k, 1};
            if (!frame.innermost && location.kind == PATCHMAP_LOCATION_KIND_INDIRECT && location.size == 8 && !spilled.found)
                spilled = (struct write){i, k, 1};
        }
    }
    if (!captured.found || !spilled.found || !saved.found) {
        fprintf(stderr, "frame_walk: the program keeps no value where each write goes (captured %d, spilled %d, saved %d)\n",
                captured.found, spilled.found, saved.found);
        exit(1);
    }
    struct write writes[3] = {captured, spilled, saved};
    for (size_t w = 0; w < 3; w++) {
        PatchmapWalkedFrame frame;
        PatchmapLocation location;
        check(patchmap_stack_walk_frame(walk, writes[w].frame, &frame), "frame");
        check(patchmap_stackmap_location(map, frame.record, writes[w].index, &location), "location");
        int level = (int)(frame.id - RECORD_ID);
        uint64_t value = before[level][writes[w].index] ^ (UINT64_C(0x5a5aa5a50ff0f00f) + w);
        if (write_captured && w == 2)
            check(patchmap_registers_set(arch, registers, location.dwarf_reg, 8, value), "register");
        else
            check(patchmap_stack_walk_write(walk, writes[w].frame, &location, value, registers, &memory), "write");
        uint64_t back;
        check(patchmap_stack_walk_read(walk, writes[w].frame, &location, registers, &memory, &back), "read back");
        if (back != value && !write_captured) {
            fprintf(stderr, "frame_walk: frame %zu value %zu reads %#" PRIx64 " after writing %#" PRIx64 "\n",
                    writes[w].frame, writes[w].index, back, value);
            exit(1);
        }
        expected_after[level][writes[w].index] = value;
        written++;
    }
    check_errors(walk, registers, &memory);
    patchmap_stack_walk_free(walk);
}

static const void *resolve(void *context, const char *name) {
    const PatchmapEntry *entry = context;
    if (strcmp(name, "runtime_entry") == 0)
        return patchmap_entry_address(entry);
    if (strcmp(name, "print_value") == 0)
        return (const void *)(uintptr_t)print_value;
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: frame_walk FILE.ll [--ignore-saves | --wrong-frame | --write-captured]\n");
        return 2;
    }
    if (argc == 3) {
        ignore_saves = strcmp(argv[2], "--ignore-saves") == 0;
        wrong_frame = strcmp(argv[2], "--wrong-frame") == 0;
        write_captured = strcmp(argv[2], "--write-captured") == 0;
        if (!ignore_saves && !wrong_frame && !write_captured) {
            fprintf(stderr, "frame_walk: unknown option %s\n", argv[2]);
            return 2;
        }
    }
    check(patchmap_host_arch(&arch), "host");
    PatchmapEntry *entry;
    check(patchmap_entry_new(on_entry, NULL, &entry), "entry");
    PatchmapCompileOptions options = {NULL, NULL, 0x72, 0, false};
    PatchmapJit *jit;
    check(patchmap_jit_compile_file(argv[1], &options, resolve, entry, &jit), "compile");
    const void *f0;
    check(patchmap_jit_function(jit, "f0", &f0, NULL), "f0");
    const uint8_t *section;
    size_t section_len;
    check(patchmap_jit_stackmap_section(jit, &section, &section_len), "section");
    PatchmapStackMap *parsed;
    check(patchmap_stackmap_parse(section, section_len, 0x72, &parsed), "parse");
    map = parsed;
    check(patchmap_frame_table_new(map, &table), "frame table");

    /* The same program in version 3 has no frames: no frame table, and a message saying why. */
    PatchmapBuffer *object;
    PatchmapObject *parsed_object;
    PatchmapFrameTable *no_table = NULL;
    check(patchmap_compile_object_file(argv[1], NULL, &object), "compile an object");
    check(patchmap_object_parse(patchmap_buffer_data(object), patchmap_buffer_len(object), &parsed_object), "object");
    expect_status(patchmap_frame_table_new(patchmap_object_stackmap(parsed_object, 0), &no_table), PATCHMAP_STATUS_WALK,
                  "a table without frames");
    if (!strstr(patchmap_last_error(), "frame-table layout")) {
        fprintf(stderr, "frame_walk: unexpected message: %s\n", patchmap_last_error());
        return 1;
    }
    patchmap_object_free(parsed_object);
    patchmap_buffer_free(object);

    uint64_t arguments[2] = {UINT64_C(0x123456789), UINT64_C(0xfedcba98)}, result;
    check(patchmap_exits_call(f0, arguments, 2, &result), "call");
    fflush(stdout);
    if (stops != 1) {
        fprintf(stderr, "frame_walk: the entry was called %zu times\n", stops);
        return 1;
    }
    for (int l = 0; l < LEVELS; l++) {
        for (int k = 0; k < VALUES; k++) {
            if (!printed_after[l][k] || after[l][k] != expected_after[l][k]) {
                fprintf(stderr, "frame_walk: mismatch: f%d printed value %d as %#" PRIx64 " after its call, not %#" PRIx64 "%s\n",
                        l, k, after[l][k], expected_after[l][k],
                        expected_after[l][k] != before[l][k] ? " (written)" : "");
                mismatches++;
            }
        }
    }
    printf("walked %zu frames, %zu values, %zu in inner frames' save slots, %zu written\n", frames_walked, values_read,
           saved_by_inner, written);

    patchmap_frame_table_free(table);
    patchmap_stackmap_free(parsed);
    patchmap_jit_free(jit);
    patchmap_entry_free(entry);
    return mismatches == 0 ? 0 : 1;
}
