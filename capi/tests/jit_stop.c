/* Stops JIT code at its stack map records through patched exit calls, and reads every value there
 * through patchmap's C API. Built against include/patchmap.h and libpatchmap_c (static or shared)
 * by capi/tests/c_api.rs, which checks the values against the lines the program prints itself.
 *
 * jit_stop FILE.ll FUNCTION
 *
 * Compiles FILE.ll into this process. Then, for every record whose site can hold an exit call (a
 * stack map shadow or a patch point region at least that long), one run of FUNCTION (no arguments)
 * with that site alone patched: the exit handler finds the record at the stop's address, prints
 *   stop <record> S<id> <size>:<hex> ...
 * (one token per location, the value read as the record says), and leaves the code (the shadow's
 * code is gone); the site's bytes are then put back. A site the run does not reach prints
 * "unreached <record> S<id>". Last, a run of the unpatched code prints "result <value>". */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchmap.h"

static void check(PatchmapStatus status, const char *what) {
    if (status != PATCHMAP_STATUS_OK) {
        fflush(stdout);
        fprintf(stderr, "jit_stop: %s: %s\n", what, patchmap_last_error());
        exit(1);
    }
}

struct stop {
    PatchmapArch arch;
    const PatchmapStackMap *map;
    size_t record; /* the patched site's record */
    int stopped;
    PatchmapRegisters *registers; /* during the handler */
};

static bool read_register(void *context, uint16_t dwarf, uint64_t *value) {
    struct stop *stop = context;
    return patchmap_registers_get(stop->arch, stop->registers, dwarf, value) == PATCHMAP_STATUS_OK;
}

/* The stopped code's stack: this process's own memory. */
static bool read_memory(void *context, uint64_t address, size_t size, uint64_t *value) {
    (void)context;
    uint64_t v = 0;
    memcpy(&v, (const void *)(uintptr_t)address, size > 8 ? 8 : size);
    *value = v;
    return true;
}

static PatchmapResume on_exit_call(PatchmapRegisters *registers, uint32_t number, void *context) {
    struct stop *stop = context;
    PatchmapResume leave = {PATCHMAP_RESUME_KIND_RETURN, 0};
    stop->registers = registers;
    stop->stopped = 1;
    /* The record is the one at the patched point: the exit call's return address minus its length. */
    uint64_t point = registers->return_address - patchmap_exit_call_return_offset(stop->arch);
    size_t found[4], count = 0;
    check(patchmap_stackmap_records_at(stop->map, point, found, 4, &count), "records_at");
    if (count == 0 || found[0] != stop->record || number != (uint32_t)stop->record) {
        fprintf(stderr, "jit_stop: exit %u at %#" PRIx64 ": expected record %zu\n", number, point, stop->record);
        exit(1);
    }
    PatchmapRecord record;
    check(patchmap_stackmap_record(stop->map, stop->record, &record), "record");
    printf("stop %zu S%" PRIu64, stop->record, record.id);
    PatchmapFrameAccess access = {stop, read_register, read_memory};
    for (size_t i = 0; i < record.num_locations; i++) {
        PatchmapLocation location;
        uint64_t value;
        check(patchmap_stackmap_location(stop->map, stop->record, i, &location), "location");
        check(patchmap_read_location(stop->map, &location, &access, &value), "read_location");
        printf(" %u:%" PRIx64, location.size, value);
    }
    printf("\n");
    stop->registers = NULL;
    return leave;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: jit_stop FILE.ll FUNCTION\n");
        return 2;
    }
    struct stop stop = {0};
    check(patchmap_host_arch(&stop.arch), "host");
    PatchmapJit *jit;
    check(patchmap_jit_compile_file(argv[1], NULL, NULL, NULL, &jit), "compile");
    const void *function;
    check(patchmap_jit_function(jit, argv[2], &function, NULL), "function");
    const uint8_t *section;
    size_t section_len;
    check(patchmap_jit_stackmap_section(jit, &section, &section_len), "section");
    PatchmapStackMap *map;
    check(patchmap_stackmap_parse(section, section_len, 3, &map), "parse");
    stop.map = map;
    PatchmapExits *exits;
    check(patchmap_exits_new(on_exit_call, &stop, &exits), "exits");

    size_t needed = (size_t)patchmap_exit_call_return_offset(stop.arch);
    for (size_t k = 0; k < patchmap_jit_num_sites(jit); k++) {
        PatchmapSite site;
        check(patchmap_jit_site(jit, k, &site), "site");
        if (site.len < needed)
            continue;
        uint8_t *saved = malloc(site.len);
        memcpy(saved, site.address, site.len);
        check(patchmap_exits_patch_call(exits, site.address, site.len, (uint32_t)k), "patch");
        stop.record = site.record;
        stop.stopped = 0;
        uint64_t result;
        check(patchmap_exits_call(function, NULL, 0, &result), "call");
        fflush(stdout);
        if (!stop.stopped)
            printf("unreached %zu S%" PRIu64 "\n", site.record, site.id);
        check(patchmap_patch_code(stop.arch, site.address, site.len, saved, site.len), "unpatch");
        free(saved);
    }
    uint64_t result;
    check(patchmap_exits_call(function, NULL, 0, &result), "call");
    printf("result %" PRIu64 "\n", result & 0xffffffff);

    patchmap_exits_free(exits);
    patchmap_stackmap_free(map);
    patchmap_jit_free(jit);
    return 0;
}
