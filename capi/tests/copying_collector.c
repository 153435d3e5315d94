/* A moving (Cheney copying) collector in C that finds its roots through patchmap's C API: it
 * JIT-compiles a `gc.statepoint` program (those of tests/gc_collector), resolves its runtime functions
 * to C, and at every allocation and safepoint (stress: every live object moves each time) walks the
 * program's frames from the registers a runtime entry captured, copies the reachable objects and
 * rewrites every root. Built against include/patchmap.h and libpatchmap_c by capi/tests/c_api.rs.
 *
 * copying_collector FILE.ll [--skip-derived | --skip-frame N | --gc-registers N]
 *
 * stdout: the program's output, then "result <gc_main's result>"; stderr's last line:
 *   gc: <C> collections, <D> deopt values, deopt checksum <X>
 * (as tests/gc_collector/runtime.c counts them: each deopt value's low 32 bits, a Direct one as 0).
 * The broken variants a test must catch: --skip-derived leaves derived pointers pointing into the
 * old space, --skip-frame N leaves the roots of the N-th frame (0: innermost) of every walk alone.
 * --gc-registers N compiles with up to N GC pointers per statepoint in callee-saved registers, which
 * a walk by frame pointer cannot reach: the walk must refuse (PATCHMAP_STATUS_WALK).
 *
 * Objects: the word before an object's first field is its header, (pointer fields << 32) | scalar
 * fields, or FORWARDED | its new address once copied; pointer fields come first, 8 bytes each. After
 * a collection the old space is made inaccessible, so a stale pointer faults at its first use. */
#define _DEFAULT_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "patchmap.h"

#define SEMISPACE (4u << 20)
#define FORWARDED (UINT64_C(1) << 63)

static PatchmapArch arch;
static PatchmapStatepointTable *table;
static const PatchmapStackMap *map;
static uint8_t *spaces[2];
static int current; /* the space objects are allocated in */
static uint8_t *next_free;
static int skip_derived, skip_frame = -1, gc_registers;
static uint64_t collections, deopt_values, deopt_checksum;

static void die(const char *what) {
    fflush(stdout);
    fprintf(stderr, "copying_collector: %s: %s\n", what, patchmap_last_error());
    exit(1);
}

static void check(PatchmapStatus status, const char *what) {
    if (status != PATCHMAP_STATUS_OK)
        die(what);
}

static int in_space(int s, uint64_t p) {
    return p > (uint64_t)(uintptr_t)spaces[s] && p <= (uint64_t)(uintptr_t)(spaces[s] + SEMISPACE);
}

/* The object at p's new address, copied on first sight. */
static uint64_t forward(uint64_t p) {
    if (!in_space(!current, p)) {
        fprintf(stderr, "copying_collector: %#" PRIx64 " is not a pointer into the old space\n", p);
        exit(1);
    }
    uint64_t *object = (uint64_t *)(uintptr_t)p;
    uint64_t header = object[-1];
    if (header & FORWARDED)
        return header & ~FORWARDED;
    size_t words = (size_t)(header >> 32) + (size_t)(header & 0xffffffff);
    uint64_t *copy = (uint64_t *)(void *)next_free + 1;
    memcpy(copy - 1, object - 1, (words + 1) * 8);
    next_free += (words + 1) * 8;
    object[-1] = FORWARDED | (uint64_t)(uintptr_t)copy;
    return (uint64_t)(uintptr_t)copy;
}

struct root {
    uint64_t base_slot, derived_slot; /* 0: a constant */
    uint64_t base, derived;
};

struct walk {
    struct root *roots;
    size_t count, capacity, frame;
};

static bool read_memory(void *context, uint64_t address, uint64_t *value) {
    (void)context;
    memcpy(value, (const void *)(uintptr_t)address, 8);
    return true;
}

/* Deopt locations of an outer frame are in its slots, relative to its FP or SP. */
static bool frame_register(void *context, uint16_t dwarf, uint64_t *value) {
    const PatchmapGcFrame *frame = context;
    if (dwarf == patchmap_arch_frame_pointer(arch))
        *value = frame->state.frame_pointer;
    else if (dwarf == (arch == PATCHMAP_ARCH_X86_64 ? 7 : 31))
        *value = frame->state.stack_pointer;
    else
        return false;
    return true;
}

static bool frame_memory(void *context, uint64_t address, size_t size, uint64_t *value) {
    (void)context;
    uint64_t v = 0;
    memcpy(&v, (const void *)(uintptr_t)address, size > 8 ? 8 : size);
    *value = v;
    return true;
}

static bool visit(void *context, const PatchmapGcFrame *frame) {
    struct walk *w = context;
    PatchmapFrameAccess access = {(void *)frame, frame_register, frame_memory};
    for (size_t i = 0; i < frame->num_deopt; i++) {
        uint64_t v = 0;
        if (frame->deopt[i].kind != PATCHMAP_LOCATION_KIND_DIRECT)
            check(patchmap_read_location(map, &frame->deopt[i], &access, &v), "deopt value");
        deopt_values++;
        deopt_checksum = deopt_checksum * 31 + (uint32_t)v;
    }
    if ((int)w->frame++ == skip_frame)
        return true;
    for (size_t i = 0; i < frame->num_roots; i++) {
        const PatchmapRoot *r = &frame->roots[i];
        if (r->base.kind != PATCHMAP_SLOT_KIND_ADDRESS)
            continue; /* null */
        if (w->count == w->capacity) {
            w->capacity = w->capacity ? 2 * w->capacity : 64;
            w->roots = realloc(w->roots, w->capacity * sizeof *w->roots);
        }
        struct root *root = &w->roots[w->count++];
        root->base_slot = r->base.value;
        root->derived_slot = r->derived.kind == PATCHMAP_SLOT_KIND_ADDRESS ? r->derived.value : 0;
        read_memory(NULL, root->base_slot, &root->base);
        root->derived = root->base;
        if (root->derived_slot)
            read_memory(NULL, root->derived_slot, &root->derived);
    }
    return true;
}

static void collect(const PatchmapRegisters *registers) {
    PatchmapFrameState innermost;
    check(patchmap_frame_state_at_entry(arch, registers, &innermost), "frame state");
    struct walk w = {0};
    /* Every root's old values first: slots shared by several pairs are rewritten once they are read. */
    PatchmapStatus walked = patchmap_statepoint_walk(table, arch, innermost, read_memory, NULL, visit, &w, NULL);
    if (walked != PATCHMAP_STATUS_OK) {
        fflush(stdout);
        fprintf(stderr, "copying_collector: walk (status %d): %s\n", (int)walked, patchmap_last_error());
        exit(1);
    }

    int to = !current;
    if (mprotect(spaces[to], SEMISPACE, PROT_READ | PROT_WRITE) != 0) {
        perror("mprotect");
        exit(1);
    }
    current = to;
    next_free = spaces[to];
    for (size_t i = 0; i < w.count; i++) {
        struct root *r = &w.roots[i];
        if (r->base == 0)
            continue;
        uint64_t moved = forward(r->base);
        memcpy((void *)(uintptr_t)r->base_slot, &moved, 8);
        if (r->derived_slot && !(skip_derived && r->derived_slot != r->base_slot)) {
            uint64_t derived = moved + (r->derived - r->base);
            memcpy((void *)(uintptr_t)r->derived_slot, &derived, 8);
        }
    }
    /* Cheney's scan: the copies' pointer fields. */
    for (uint8_t *scan = spaces[to]; scan < next_free;) {
        uint64_t *object = (uint64_t *)(void *)scan + 1;
        uint64_t header = object[-1];
        for (uint64_t f = 0; f < (header >> 32); f++)
            if (object[f] != 0)
                object[f] = forward(object[f]);
        scan += ((header >> 32) + (header & 0xffffffff) + 1) * 8;
    }
    /* Poison the old space and take it away until it is copied into again. */
    memset(spaces[!to], 0xa5, SEMISPACE);
    if (mprotect(spaces[!to], SEMISPACE, PROT_NONE) != 0) {
        perror("mprotect");
        exit(1);
    }
    collections++;
    free(w.roots);
}

/* ptr addrspace(1) @gc_alloc(i64 pointer_fields, i64 scalar_fields): collects first (stress). */
static void gc_alloc(PatchmapRegisters *registers, void *context) {
    (void)context;
    uint64_t pointers, scalars;
    check(patchmap_registers_get(arch, registers, patchmap_arch_integer_argument(arch, 0), &pointers), "arg 0");
    check(patchmap_registers_get(arch, registers, patchmap_arch_integer_argument(arch, 1), &scalars), "arg 1");
    collect(registers);
    size_t bytes = (size_t)(pointers + scalars + 1) * 8;
    if (pointers > 0xffff || scalars > 0xffff || next_free + bytes > spaces[current] + SEMISPACE) {
        fprintf(stderr, "copying_collector: out of memory\n");
        exit(1);
    }
    uint64_t *object = (uint64_t *)(void *)next_free + 1;
    memset(object - 1, 0, bytes);
    object[-1] = (pointers << 32) | scalars;
    next_free += bytes;
    check(patchmap_registers_set(arch, registers, patchmap_arch_integer_result(arch), 8, (uint64_t)(uintptr_t)object),
          "result");
}

/* void @gc_safepoint(). */
static void gc_safepoint(PatchmapRegisters *registers, void *context) {
    (void)context;
    collect(registers);
}

static void print_kv(int64_t k, int64_t v) { printf("%" PRId64 ": %" PRId64 "\n", k, v); }

static void print_i64(int64_t v) { printf("%" PRId64 "\n", v); }

static PatchmapEntry *alloc_entry, *safepoint_entry;

static const void *resolve(void *context, const char *name) {
    (void)context;
    if (strcmp(name, "gc_alloc") == 0)
        return patchmap_entry_address(alloc_entry);
    if (strcmp(name, "gc_safepoint") == 0)
        return patchmap_entry_address(safepoint_entry);
    if (strcmp(name, "print_kv") == 0)
        return (const void *)print_kv;
    if (strcmp(name, "print_i64") == 0)
        return (const void *)print_i64;
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: copying_collector FILE.ll [--skip-derived | --skip-frame N]\n");
        return 2;
    }
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--skip-derived") == 0)
            skip_derived = 1;
        else if (strcmp(argv[i], "--skip-frame") == 0 && i + 1 < argc)
            skip_frame = atoi(argv[++i]);
        else if (strcmp(argv[i], "--gc-registers") == 0 && i + 1 < argc)
            gc_registers = atoi(argv[++i]);
    }
    check(patchmap_host_arch(&arch), "host");
    for (int s = 0; s < 2; s++) {
        spaces[s] = mmap(NULL, SEMISPACE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (spaces[s] == MAP_FAILED) {
            perror("mmap");
            return 1;
        }
    }
    if (mprotect(spaces[0], SEMISPACE, PROT_READ | PROT_WRITE) != 0)
        return 1;
    next_free = spaces[0];
    check(patchmap_entry_new(gc_alloc, NULL, &alloc_entry), "entry");
    check(patchmap_entry_new(gc_safepoint, NULL, &safepoint_entry), "entry");

    PatchmapJit *jit;
    PatchmapCompileOptions options = {NULL, NULL, 3, (uint32_t)gc_registers, false};
    check(patchmap_jit_compile_file(argv[1], &options, resolve, NULL, &jit), "compile");
    const uint8_t *section;
    size_t len;
    check(patchmap_jit_stackmap_section(jit, &section, &len), "section");
    PatchmapStackMap *parsed;
    check(patchmap_stackmap_parse(section, len, 3, &parsed), "parse");
    map = parsed;
    check(patchmap_statepoint_table_new(map, &table), "table");
    const void *gc_main;
    check(patchmap_jit_function(jit, "gc_main", &gc_main, NULL), "gc_main");

    int64_t (*run)(void) = (int64_t (*)(void))(uintptr_t)gc_main;
    int64_t result = run();
    printf("result %" PRId64 "\n", result);
    fflush(stdout);
    fprintf(stderr, "gc: %" PRIu64 " collections, %" PRIu64 " deopt values, deopt checksum %" PRIu64 "\n",
            collections, deopt_values, deopt_checksum);

    patchmap_statepoint_table_free(table);
    patchmap_stackmap_free(parsed);
    patchmap_jit_free(jit);
    patchmap_entry_free(alloc_entry);
    patchmap_entry_free(safepoint_entry);
    munmap(spaces[0], SEMISPACE);
    munmap(spaces[1], SEMISPACE);
    return 0;
}
