/* A C readobj over patchmap's C API: prints every stack map blob of an object file as
 * `patchmap dump` does (llvm-readobj's text, each further blob after a "Stack map blob" line), with
 * `--symbols` the function's symbol after each function line. Built against include/patchmap.h and
 * libpatchmap_c (static or shared) by capi/tests/c_api.rs.
 *
 * readobj [--symbols] FILE */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchmap.h"

static int check(PatchmapStatus status, const char *what) {
    if (status != PATCHMAP_STATUS_OK) {
        fprintf(stderr, "readobj: %s: %s\n", what, patchmap_last_error());
        exit(1);
    }
    return 0;
}

static void print_location(const PatchmapStackMap *map, const PatchmapLocation *l) {
    switch (l->kind) {
    case PATCHMAP_LOCATION_KIND_REGISTER: printf("Register R#%u", l->dwarf_reg); break;
    case PATCHMAP_LOCATION_KIND_DIRECT: printf("Direct R#%u + %d", l->dwarf_reg, l->offset); break;
    case PATCHMAP_LOCATION_KIND_INDIRECT: printf("Indirect [R#%u + %d]", l->dwarf_reg, l->offset); break;
    case PATCHMAP_LOCATION_KIND_CONSTANT: printf("Constant %u", (uint32_t)l->offset); break; /* as llvm-readobj */
    case PATCHMAP_LOCATION_KIND_CONSTANT_INDEX:
        printf("ConstantIndex #%d (%" PRIu64 ")", l->offset, l->constant);
        break;
    default: printf("kind %u", l->kind);
    }
    (void)map;
}

static void print_blob(const PatchmapObject *object, size_t blob, const PatchmapStackMap *map, int symbols) {
    uint32_t version = patchmap_stackmap_version(map);
    int frame_table = version == 0x72;
    printf("LLVM StackMap Version: %u%s\n", frame_table ? 2 : version, frame_table ? " (frame table, rfc2)" : "");
    size_t functions = patchmap_stackmap_num_functions(map);
    printf("Num Functions: %zu\n", functions);
    int counts = patchmap_stackmap_record_counts_known(map);
    for (size_t f = 0; f < functions; f++) {
        PatchmapFunction fn;
        check(patchmap_stackmap_function(map, f, &fn), "function");
        printf("  Function address: %" PRIu64 ", stack size: %" PRIu64, fn.address, fn.stack_size);
        if (counts)
            printf(", callsite record count: %" PRIu64, fn.record_count);
        printf("\n");
        const char *name = symbols ? patchmap_object_function_name(object, blob, f) : NULL;
        if (name)
            printf("    Symbol: %s\n", name);
        if (fn.has_frame_info) {
            PatchmapFrame frame;
            check(patchmap_stackmap_frame(map, f, &frame), "frame");
            printf("    Function size: %u, flags: [ %s%s%s%s], frame base: R#%u\n", frame.function_size,
                   frame.has_frame ? "HasFrame " : "", frame.has_variable_size_alloca ? "HasVariableSizeAlloca " : "",
                   frame.has_stack_realignment ? "HasStackRealignment " : "",
                   frame.has_live_out_info ? "HasLiveOutInfo " : "", frame.base_register);
            printf("    %zu frame registers: [ ", frame.num_registers);
            for (size_t r = 0; r < frame.num_registers; r++) {
                PatchmapFrameRegister reg;
                check(patchmap_stackmap_frame_register(map, f, r, &reg), "frame register");
                printf("R#%u [FB + %d] (%u-bytes%s) ", reg.dwarf_reg, reg.offset, reg.size,
                       reg.is_spilled ? ", spilled" : "");
            }
            printf("]\n");
        }
    }
    size_t constants = patchmap_stackmap_num_constants(map);
    printf("Num Constants: %zu\n", constants);
    for (size_t c = 0; c < constants; c++) {
        uint64_t value;
        check(patchmap_stackmap_constant(map, c, &value), "constant");
        printf("  #%zu: %" PRIu64 "\n", c + 1, value);
    }
    size_t records = patchmap_stackmap_num_records(map);
    printf("Num Records: %zu\n", records);
    for (size_t r = 0; r < records; r++) {
        PatchmapRecord rec;
        check(patchmap_stackmap_record(map, r, &rec), "record");
        printf("  Record ID: %" PRIu64 ", instruction offset: %u\n", rec.id, rec.instruction_offset);
        if (frame_table)
            printf("    Call size: %u, flags: [ %s]\n", rec.call_size, rec.has_live_out_info ? "HasLiveOutInfo " : "");
        printf("    %zu locations:\n", rec.num_locations);
        for (size_t k = 0; k < rec.num_locations; k++) {
            PatchmapLocation l;
            check(patchmap_stackmap_location(map, r, k, &l), "location");
            printf("      #%zu: ", k + 1);
            print_location(map, &l);
            printf(", size: %u\n", l.size);
        }
        printf("    %zu live-outs: [ ", rec.num_live_outs);
        for (size_t k = 0; k < rec.num_live_outs; k++) {
            PatchmapLiveOut lo;
            check(patchmap_stackmap_live_out(map, r, k, &lo), "live-out");
            printf("R#%u (%u-bytes) ", lo.dwarf_reg, lo.size);
        }
        printf("]\n");
    }
}

int main(int argc, char **argv) {
    int symbols = argc == 3 && strcmp(argv[1], "--symbols") == 0;
    if (argc != 2 + symbols) {
        fprintf(stderr, "usage: readobj [--symbols] FILE\n");
        return 2;
    }
    FILE *f = fopen(argv[argc - 1], "rb");
    if (!f) {
        perror(argv[argc - 1]);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bytes = malloc(len > 0 ? (size_t)len : 1);
    if (!bytes || fread(bytes, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "readobj: cannot read %s\n", argv[argc - 1]);
        return 2;
    }
    fclose(f);
    PatchmapObject *object = NULL;
    check(patchmap_object_parse(bytes, (size_t)len, &object), argv[argc - 1]);
    free(bytes); /* the handle keeps nothing of the caller's buffer */
    size_t blobs = patchmap_object_num_stackmaps(object);
    for (size_t b = 0; b < blobs; b++) {
        const PatchmapStackMap *map = patchmap_object_stackmap(object, b);
        if (b > 0)
            printf("Stack map blob %zu at %s offset %zu:\n", b + 1, patchmap_object_section_name(object),
                   patchmap_stackmap_section_offset(map));
        print_blob(object, b, map, symbols);
    }
    patchmap_object_free(object);
    return 0;
}
