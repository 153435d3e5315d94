/* A libFuzzer target over the C API's section entry points: the input's first byte picks the version
 * to parse the rest as (0: the version byte's, 1, 2, 3, or the frame-table layout), and every
 * accessor, location read, address lookup, statepoint walk and frame-table walk (reads, places and
 * writes of every location of every frame, and each frame's roots) runs on what parses; the whole input
 * also goes to patchmap_object_parse. A crash, a hang or a status the API does not document fails.
 * Built with clang-19 -fsanitize=fuzzer against libpatchmap_c.a and run for a bounded number of inputs
 * from real sections by capi/tests/c_api.rs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "patchmap.h"

static void expect(PatchmapStatus status) {
    /* Every status but PANIC is an answer; PANIC is a bug. */
    if (status == PATCHMAP_STATUS_PANIC)
        abort();
}

static bool any_register(void *context, uint16_t dwarf, uint64_t *value) {
    (void)context;
    *value = 0x7000u + dwarf;
    return dwarf % 3 != 0;
}

static bool any_memory(void *context, uint64_t address, size_t size, uint64_t *value) {
    (void)context;
    (void)size;
    *value = address ^ 0x5a5a;
    return address % 5 != 0;
}

/* A made-up frame chain: each caller's frame a little above. */
static bool chain(void *context, uint64_t address, uint64_t *value) {
    (void)context;
    *value = address + 0x40;
    return address < 0x100000;
}

/* The same chain as the frame-table walk's memory; writes go nowhere. */
static bool chain_memory(void *context, uint64_t address, size_t size, uint64_t *value) {
    (void)size;
    return chain(context, address, value);
}

static bool any_write(void *context, uint64_t address, size_t size, uint64_t value) {
    (void)context;
    (void)size;
    (void)value;
    return address % 7 != 0;
}

/* A frame-table walk from made-up registers stopped at `address`, on both targets, with every
 * location of every frame read, placed and written. */
static void walk_frames(const PatchmapStackMap *map, uint64_t address) {
    static const PatchmapArch arches[] = {PATCHMAP_ARCH_X86_64, PATCHMAP_ARCH_AARCH64};
    PatchmapFrameTable *table;
    PatchmapStatus status = patchmap_frame_table_new(map, &table);
    expect(status);
    if (status != PATCHMAP_STATUS_OK)
        return;
    PatchmapMemory memory = {NULL, chain_memory, any_write};
    for (size_t a = 0; a < 2; a++) {
        PatchmapRegisters registers;
        memset(&registers, 0, sizeof registers);
        registers.return_address = address;
        registers.stack_pointer = 0x8000;
        registers.general[patchmap_arch_frame_pointer(arches[a])] = 0x8010;
        PatchmapStackWalk *walk;
        status = patchmap_frame_table_walk(table, arches[a], &registers, &memory, &walk);
        expect(status);
        if (status != PATCHMAP_STATUS_OK)
            continue;
        for (size_t i = 0; i <= patchmap_stack_walk_num_frames(walk); i++) {
            PatchmapWalkedFrame frame;
            PatchmapRecord record;
            uint64_t value;
            PatchmapRoot roots[4];
            size_t count;
            expect(patchmap_stack_walk_register(walk, i, (uint16_t)i, &registers, &memory, &value));
            expect(patchmap_stack_walk_roots(walk, i, &registers, &memory, roots, 4, &count));
            if (patchmap_stack_walk_frame(walk, i, &frame) != PATCHMAP_STATUS_OK ||
                patchmap_stackmap_record(map, frame.record, &record) != PATCHMAP_STATUS_OK)
                continue;
            for (size_t k = 0; k < record.num_locations; k++) {
                PatchmapLocation location;
                PatchmapPlace place;
                if (patchmap_stackmap_location(map, frame.record, k, &location) != PATCHMAP_STATUS_OK)
                    continue;
                expect(patchmap_stack_walk_place(walk, i, &location, &registers, &memory, &place));
                expect(patchmap_stack_walk_read(walk, i, &location, &registers, &memory, &value));
                expect(patchmap_stack_walk_write(walk, i, &location, value + 1, &registers, &memory));
            }
        }
        patchmap_stack_walk_free(walk);
    }
    patchmap_frame_table_free(table);
}

static bool visit(void *context, const PatchmapGcFrame *frame) {
    size_t *seen = context;
    for (size_t i = 0; i < frame->num_roots; i++)
        *seen += (size_t)frame->roots[i].base.kind + (size_t)frame->roots[i].derived.kind;
    for (size_t i = 0; i < frame->num_deopt; i++)
        *seen += frame->deopt[i].size;
    return *seen < 1000000;
}

static void walk_map(const PatchmapStackMap *map) {
    PatchmapFrameAccess access = {NULL, any_register, any_memory};
    size_t functions = patchmap_stackmap_num_functions(map);
    for (size_t f = 0; f <= functions; f++) {
        PatchmapFunction function;
        PatchmapFrame frame;
        expect(patchmap_stackmap_function(map, f, &function));
        if (patchmap_stackmap_frame(map, f, &frame) == PATCHMAP_STATUS_OK)
            for (size_t k = 0; k <= frame.num_registers; k++) {
                PatchmapFrameRegister r;
                expect(patchmap_stackmap_frame_register(map, f, k, &r));
            }
    }
    for (size_t c = 0; c <= patchmap_stackmap_num_constants(map); c++) {
        uint64_t value;
        expect(patchmap_stackmap_constant(map, c, &value));
    }
    size_t records = patchmap_stackmap_num_records(map);
    for (size_t r = 0; r <= records; r++) {
        PatchmapRecord record;
        if (patchmap_stackmap_record(map, r, &record) != PATCHMAP_STATUS_OK)
            continue;
        for (size_t k = 0; k <= record.num_locations; k++) {
            PatchmapLocation location;
            uint64_t value;
            if (patchmap_stackmap_location(map, r, k, &location) == PATCHMAP_STATUS_OK)
                expect(patchmap_read_location(map, &location, &access, &value));
        }
        for (size_t k = 0; k <= record.num_live_outs; k++) {
            PatchmapLiveOut live_out;
            expect(patchmap_stackmap_live_out(map, r, k, &live_out));
        }
    }
    size_t found[4], count;
    PatchmapFunction first_function;
    PatchmapRecord first_record;
    if (patchmap_stackmap_function(map, 0, &first_function) != PATCHMAP_STATUS_OK ||
        patchmap_stackmap_record(map, 0, &first_record) != PATCHMAP_STATUS_OK)
        return;
    uint64_t address = first_function.address + first_record.instruction_offset;
    expect(patchmap_stackmap_records_at(map, address, found, 4, &count));
    walk_frames(map, address);
    PatchmapStatepointTable *table;
    if (patchmap_statepoint_table_new(map, &table) != PATCHMAP_STATUS_OK)
        return;
    PatchmapFrameState start = {address, 0x8000, 0x8010};
    size_t seen = 0, frames;
    expect(patchmap_statepoint_walk(table, PATCHMAP_ARCH_X86_64, start, chain, NULL, visit, &seen, &frames));
    expect(patchmap_statepoint_walk(table, PATCHMAP_ARCH_AARCH64, start, chain, NULL, visit, &seen, &frames));
    patchmap_statepoint_table_free(table);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const uint32_t versions[] = {0, 1, 2, 3, 0x72};
    if (size == 0)
        return 0;
    PatchmapStackMap *map;
    PatchmapStatus status = patchmap_stackmap_parse(data + 1, size - 1, versions[data[0] % 5], &map);
    expect(status);
    if (status == PATCHMAP_STATUS_OK) {
        walk_map(map);
        patchmap_stackmap_free(map);
    }
    PatchmapObject *object;
    status = patchmap_object_parse(data, size, &object);
    expect(status);
    if (status == PATCHMAP_STATUS_OK) {
        for (size_t b = 0; b < patchmap_object_num_stackmaps(object); b++)
            walk_map(patchmap_object_stackmap(object, b));
        patchmap_object_free(object);
    }
    return 0;
}
