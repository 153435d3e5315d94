/* A moving (Cheney copying) collector in C that finds its roots through patchmap's C API: it
 * JIT-compiles a `gc.statepoint` program (those of tests/gc_collector), resolves its runtime functions
 * to C, and at every allocation and safepoint (stress: every live object moves each time) walks the
 * program's frames from the registers a runtime entry captured, copies the reachable objects and
 * rewrites every root. Built against include/patchmap.h and libpatchmap_c by capi/tests/c_api.rs.
 *
 * copying_collector FILE.ll [--skip-derived | --skip-frame N | --gc-registers N] [--frame-table]
 *
 * stdout: the program's output, then "result <gc_main's result>"; stderr's last line:
 *   gc: <C> collections, <D> deopt values, deopt checksum <X>
 * (as tests/gc_collector/runtime.c counts them: each deopt value's low 32 bits, a Direct one as 0).
 * The broken variants a test must catch: --skip-derived leaves derived pointers pointing into the
 * old space, --skip-frame N leaves the roots of the N-th frame (0: innermost) of every walk alone.
 * --gc-registers N compiles with up to N GC pointers per statepoint in callee-saved registers, which
 * a walk by frame pointer cannot reach: the walk must refuse (PATCHMAP_STATUS_WALK). --frame-table
 * compiles with the frame-table layout and finds the roots through the frame-table walk from the
 * entry's registers (patchmap_stack_walk_roots), which reaches GC pointers in registers too: the
 * captured ones, and outer frames' in the slots where inner frames saved them.
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
static PatchmapFrameTable *frame_table; /* --frame-table */
static const PatchmapStackMap *map;
static uint8_t *spaces[2];
static int current; /* the space objects are allocated in */
static uint8_t *next_free;
static int skip_derived, skip_frame = -1, gc_registers, use_frame_table;
static uint64_t collections, deopt_values, deopt_checksum, register_roots;

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
    PatchmapSlot base_slot, derived_slot;
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

/* A root slot's pointer: in memory, in a captured register, or a constant (null). */
static uint64_t load(const PatchmapRegisters *registers, PatchmapSlot slot) {
    uint64_t value = slot.value;
    if (slot.kind == PATCHMAP_SLOT_KIND_ADDRESS)
        read_memory(NULL, slot.value, &value);
    else if (slot.kind == PATCHMAP_SLOT_KIND_REGISTER)
        check(patchmap_registers_get(arch, registers, (uint16_t)slot.value, &value), "root register");
    return value;
}

/* Registers written here are restored by the entry when its handler returns. */
static void store(PatchmapRegisters *registers, PatchmapSlot slot, uint64_t value) {
    if (slot.kind == PATCHMAP_SLOT_KIND_ADDRESS)
        memcpy((void *)(uintptr_t)slot.value, &value, 8);
    else if (slot.kind == PATCHMAP_SLOT_KIND_REGISTER)
        check(patchmap_registers_set(arch, registers, (uint16_t)slot.value, 8, value), "root register");
}

static void add_root(struct walk *w, const PatchmapRoot *r, const PatchmapRegisters *registers) {
    if (r->base.kind == PATCHMAP_SLOT_KIND_CONSTANT)
        return; /* null */
    if (w->count == w->capacity) {
        w->capacity = w->capacity ? 2 * w->capacity : 64;
        w->roots = realloc(w->roots, w->capacity * sizeof *w->roots);
    }
    struct root *root = &w->roots[w->count++];
    root->base_slot = r->base;
    root->derived_slot = r->derived;
    root->base = load(registers, r->base);
    root->derived = r->derived.kind == PATCHMAP_SLOT_KIND_CONSTANT ? root->base : load(registers, r->derived);
}

static void count_deopt(uint64_t v) {
    deopt_values++;
    deopt_checksum = deopt_checksum * 31 + (uint32_t)v;
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
        count_deopt(v);
    }
    if ((int)w->frame++ == skip_frame)
        return true;
    for (size_t i = 0; i < frame->num_roots; i++)
        add_root(w, &frame->roots[i], NULL);
    return true;
}

static void walk_failed(PatchmapStatus status) {
    fflush(stdout);
    fprintf(stderr, "copying_collector: walk (status %d): %s\n", (int)status, patchmap_last_error());
    exit(1);
}

/* --frame-table: each frame's deopt values and roots through the frame-table walk. A statepoint
 * record's locations: calling convention, flags, the deopt count, the deopt values, then the pairs. */
static void frame_table_roots(const PatchmapRegisters *registers, struct walk *w) {
    PatchmapMemory memory = {NULL, frame_memory, NULL};
    PatchmapStackWalk *walk;
    PatchmapStatus walked = patchmap_frame_table_walk(frame_table, arch, registers, &memory, &walk);
    if (walked != PATCHMAP_STATUS_OK)
        walk_failed(walked);
    for (size_t i = 0; i < patchmap_stack_walk_num_frames(walk); i++) {
        PatchmapWalkedFrame frame;
        PatchmapLocation location;
        check(patchmap_stack_walk_frame(walk, i, &frame), "frame");
        if (frame.record == SIZE_MAX) {
            fprintf(stderr, "copying_collector: frame %zu (return address %#" PRIx64 ") has no record\n", i,
                    frame.return_address);
            exit(1);
        }
        check(patchmap_stackmap_location(map, frame.record, 2, &location), "deopt count");
        for (uint64_t k = 0; k < location.constant; k++) {
            PatchmapLocation deopt;
            uint64_t v = 0;
            check(patchmap_stackmap_location(map, frame.record, 3 + (size_t)k, &deopt), "deopt location");
            if (deopt.kind != PATCHMAP_LOCATION_KIND_DIRECT)
                check(patchmap_stack_walk_read(walk, i, &deopt, registers, &memory, &v), "deopt value");
            count_deopt(v);
        }
        if ((int)w->frame++ == skip_frame)
            continue;
        size_t count;
        check(patchmap_stack_walk_roots(walk, i, registers, &memory, NULL, 0, &count), "roots");
        PatchmapRoot *roots = malloc((count + 1) * sizeof *roots);
        check(patchmap_stack_walk_roots(walk, i, registers, &memory, roots, count, &count), "roots");
        for (size_t r = 0; r < count; r++) {
            /* A base the record names as a register: the captured one, or an inner frame's save slot. */
            PatchmapLocation base;
            check(patchmap_stackmap_location(map, frame.record, 3 + (size_t)location.constant + 2 * r, &base), "base");
            if (base.kind == PATCHMAP_LOCATION_KIND_REGISTER && roots[r].base.kind != PATCHMAP_SLOT_KIND_CONSTANT)
                register_roots++;
            add_root(w, &roots[r], registers);
        }
        free(roots);
    }
    patchmap_stack_walk_free(walk);
}

static void collect(PatchmapRegisters *registers) {
    struct walk w = {0};
    /* Every root's old values first: slots shared by several pairs are rewritten once they are read. */
    if (frame_table) {
        frame_table_roots(registers, &w);
    } else {
        PatchmapFrameState innermost;
        check(patchmap_frame_state_at_entry(arch, registers, &innermost), "frame state");
        PatchmapStatus walked = patchmap_statepoint_walk(table, arch, innermost, read_memory, NULL, visit, &w, NULL);
        if (walked != PATCHMAP_STATUS_OK)
            walk_failed(walked);
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
        store(registers, r->base_slot, moved);
        int same = r->derived_slot.kind == r->base_slot.kind && r->derived_slot.value == r->base_slot.value;
        if (!(skip_derived && !same))
            store(registers, r->derived_slot, moved + (r->derived - r->base));
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
        fprintf(stderr, "usage: copying_collector FILE.ll [--skip-derived | --skip-frame N | --gc-registers N] [--frame-table]\n");
        return 2;
    }
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--skip-derived") == 0)
            skip_derived = 1;
        else if (strcmp(argv[i], "--skip-frame") == 0 && i + 1 < argc)
            skip_frame = atoi(argv[++i]);
        else if (strcmp(argv[i], "--gc-registers") == 0 && i + 1 < argc)
            gc_registers = atoi(argv[++i]);
        else if (strcmp(argv[i], "--frame-table") == 0)
            use_frame_table = 1;
        else {
            fprintf(stderr, "copying_collector: unknown option %s\n", argv[i]);
            return 2;
        }
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
    uint32_t version = use_frame_table ? 0x72 : 3;
    PatchmapCompileOptions options = {NULL, NULL, version, (uint32_t)gc_registers, false};
    check(patchmap_jit_compile_file(argv[1], &options, resolve, NULL, &jit), "compile");
    const uint8_t *section;
    size_t len;
    check(patchmap_jit_stackmap_section(jit, &section, &len), "section");
    PatchmapStackMap *parsed;
    check(patchmap_stackmap_parse(section, len, version, &parsed), "parse");
    map = parsed;
    check(patchmap_statepoint_table_new(map, &table), "table");
    if (use_frame_table)
        check(patchmap_frame_table_new(map, &frame_table), "frame table");
    const void *gc_main;
    check(patchmap_jit_function(jit, "gc_main", &gc_main, NULL), "gc_main");

    int64_t (*run)(void) = (int64_t (*)(void))(uintptr_t)gc_main;
    int64_t result = run();
    printf("result %" PRId64 "\n", result);
    fflush(stdout);
    if (use_frame_table)
        fprintf(stderr, "gc: %" PRIu64 " roots in registers\n", register_roots);
    fprintf(stderr, "gc: %" PRIu64 " collections, %" PRIu64 " deopt values, deopt checksum %" PRIu64 "\n",
            collections, deopt_values, deopt_checksum);

    patchmap_statepoint_table_free(table);
    patchmap_frame_table_free(frame_table);
    patchmap_stackmap_free(parsed);
    patchmap_jit_free(jit);
    patchmap_entry_free(alloc_entry);
    patchmap_entry_free(safepoint_entry);
    munmap(spaces[0], SEMISPACE);
    munmap(spaces[1], SEMISPACE);
    return 0;
}
