/*
 * A precise, moving collector for programs compiled from LLVM IR with `gc.statepoint` (by llc-19 or by
 * patchmap): Cheney copying between two semispaces, roots found through the program's own
 * `.llvm_stackmaps` section (versions 1, 2 and 3) and a producer-agnostic frame walk with libgcc's
 * unwinder (`_Unwind_Backtrace`, which works in `-static` AArch64 programs under qemu-user too).
 *
 * The program defines `i64 @gc_main()`; this file defines `main`, which calls it and prints on stderr
 *   gc: <C> collections, <M> objects moved, <R> roots, <D> deopt values, deopt checksum <X>
 * (stdout is the program's own output, which must not depend on when collections happen).
 *
 * Objects: a pointer to an object points at its first field; the header word before it holds
 * (number of pointer fields << 32) | number of scalar fields, or FORWARDED | new address once the
 * object was copied. The pointer fields come first. Every field is 8 bytes, zero-initialised.
 *
 * Called from IR (through statepoints when they may collect):
 *   ptr addrspace(1) @gc_alloc(i64 nptrs, i64 nscalars)   may collect
 *   void @gc_safepoint()                                   may collect
 *   void @print_i64(i64), void @print_kv(i64, i64)         never collect
 *
 * GC_STRESS=1 collects at every gc_alloc and gc_safepoint; otherwise a collection happens when the
 * semispace (GC_SEMISPACE bytes, default 1 MiB) is full. GC_BREAK=<n> deliberately skips writing
 * back the n-th distinct root slot (in address order, 0-based) of every collection: a negative
 * control, the program must then abort or print something else.
 *
 * The section: its start symbol `__LLVM_StackMaps` is local in llc-19's and patchmap's objects, so it
 * cannot be referenced from here; the section is found through the section headers of
 * /proc/self/exe instead (every blob of it; version 1 blobs have no per-function record counts, see
 * v1_owners).
 *
 * Statepoint records: locations [0] calling convention, [1] flags, [2] N = deopt count (all
 * Constants), N deopt locations, then (base, derived) pairs. Pairs are Indirect [reg + off] slots of
 * 8 bytes, or Register locations of callee-saved registers (patchmap's
 * --max-registers-for-gc-values), which need the frame-table layout (patchmap's --stackmap-version
 * rfc2: per function its address, size and the callee-saved registers its prologue saved, with their
 * offsets from FP); Constant pairs, e.g. null, are skipped.
 *
 * Register roots: gc_alloc and gc_safepoint are assembly entries that store the callee-saved
 * registers in a register file on entry, call the C code, and load them back from it on return. A
 * callee-saved register R of a generated frame k holds, at k's call, what the nearest inner generated
 * frame that saved R stored in its save slot (its FP + the table's offset), or, if no inner frame
 * saved R, what R holds at the entry: the register file. Walking frames outwards from the entry, the
 * collector keeps, per register, the address that holds the current frame's value, and rewrites
 * roots there. Register roots counted: "gc: register roots relocated: <n>" on stderr (only when there
 * are some). GC_BREAK_REGISTER=<n> skips writing back the n-th distinct register root (in address
 * order) of every collection, and GC_IGNORE_FRAME_REGISTERS=1 takes every register root from the
 * register file, as if no frame saved a register: the negative controls for them.
 *
 * Frame-table blobs start with version 2, as LLVM 4.0's do: a blob is read as the frame table when
 * its header is one (Constants Offset 32, the other offsets in order and inside the section). A frame
 * is matched to a record by its return address (function address + instruction offset); its SP at
 * that address is the CFA libgcc reports for it (the CFA of the frame it called), other registers
 * come from _Unwind_GetGR. A frame at a return address without a record is skipped, unless its
 * function is listed in the section: then a record is missing and the collector aborts.
 *
 * After each collection: every root points into to-space (or is null), every heap pointer field
 * points at an object start in to-space, and from-space is poisoned and made inaccessible, so a
 * stale pointer the program keeps using faults at once.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unwind.h>

/* SAVED_REGS: the callee-saved registers the entries capture, by DWARF number, in register-file order. */
#if defined(__x86_64__)
#define DWARF_SP 7
#define SAVED_REGS {3, 12, 13, 14, 15}
#elif defined(__aarch64__)
#define DWARF_SP 31
#define SAVED_REGS {19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 72, 73, 74, 75, 76, 77, 78, 79}
#else
#error "the collector supports x86-64 and AArch64"
#endif

enum { KIND_REGISTER = 1, KIND_DIRECT = 2, KIND_INDIRECT = 3, KIND_CONSTANT = 4, KIND_CONSTANT_INDEX = 5 };

#define FORWARDED (UINT64_C(1) << 63)

int64_t gc_main(void);

static __attribute__((noreturn, format(printf, 1, 2))) void die(const char *fmt, ...) {
    va_list ap;
    fflush(stdout);
    fputs("gc: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* ---- the stack map section ---- */

struct record {
    uint64_t id;
    unsigned nlocs;
    unsigned version;
    const uint8_t *locs;
    const uint8_t *consts;
    uint32_t nconsts;
};

struct location {
    unsigned kind, size, reg;
    int32_t offset;
};

static struct record *records;
static size_t nrecords;
/* Return address -> record. A version 1 record may have several candidate addresses (see
 * v1_owners); two different records at one address make that address ambiguous. */
struct entry {
    uintptr_t pc;
    size_t record;
    int ambiguous;
};
static struct entry *entries;
static size_t nentries, entries_cap;
static uintptr_t *functions; /* every listed function address, sorted */
static size_t nfunctions;

static const unsigned saved_regs[] = SAVED_REGS;
#define NSAVED (sizeof saved_regs / sizeof saved_regs[0])

/* A function of a frame-table blob: where its prologue saved registers. */
struct frame_info {
    uintptr_t addr;
    uint32_t size;
    unsigned base_reg, nregs;
    const uint8_t *regs; /* FrameRegister entries: u16 DWARF, i16 offset from the base, u8 size, u8 flags */
};
static struct frame_info *frames;
static size_t nframes;

static int saved_index(unsigned reg) {
    for (size_t i = 0; i < NSAVED; i++)
        if (saved_regs[i] == reg)
            return (int)i;
    return -1;
}

static struct location location(const struct record *r, unsigned i) {
    struct location l;
    const uint8_t *p = r->locs + (size_t)i * (r->version == 3 ? 12 : 8);
    l.kind = p[0];
    if (r->version == 3) {
        l.size = rd16(p + 2);
        l.reg = rd16(p + 4);
        l.offset = (int32_t)rd32(p + 8);
    } else {
        l.size = p[1];
        l.reg = rd16(p + 2);
        l.offset = (int32_t)rd32(p + 4);
    }
    return l;
}

/* Whether the record at `offset` can belong to the function at `addr`: its return address lies in that
 * function according to the unwind tables (the lookup is at address - 1, as for return addresses). */
static int belongs(uintptr_t addr, uint32_t offset) {
    return offset > 0 && (uintptr_t)_Unwind_FindEnclosingFunction((void *)(addr + offset)) == addr;
}

static void add_entry(uintptr_t pc, size_t record) {
    if (nentries == entries_cap) {
        entries_cap = entries_cap ? 2 * entries_cap : 64;
        entries = realloc(entries, entries_cap * sizeof *entries);
        if (!entries)
            die("out of memory");
    }
    entries[nentries++] = (struct entry){pc, record, 0};
}

/* Version 1 has no per-function record counts. The records are in function order, each function has
 * at least one, a function's records are in address order (as LLVM and patchmap emit them), and each
 * record's return address lies in its function (by the unwind tables); when
 * several splits of the records among the functions satisfy this, a record gets an entry for every
 * function it can belong to in some split (only an address that two different records claim is
 * unusable, and only if a frame is found there). */
static void v1_owners(const uint64_t *addrs, uint32_t nf, const uint32_t *offsets, uint32_t nr, size_t first) {
    size_t width = (size_t)nr + 1;
    /* ok[f][r]: record r lies in function f. head[f][s]: records ..s-1 can go to functions ..f-1.
     * tail[f][s]: records s.. can go to functions f.. */
    uint8_t *ok = calloc((size_t)nf * width, 1), *head = calloc(((size_t)nf + 1) * width, 1),
            *tail = calloc(((size_t)nf + 1) * width, 1);
    if (!ok || !head || !tail)
        die("out of memory");
    for (uint32_t f = 0; f < nf; f++)
        for (uint32_t r = 0; r < nr; r++)
            ok[f * width + r] = belongs((uintptr_t)addrs[f], offsets[r]);
    head[0] = 1;
    for (uint32_t f = 0; f < nf; f++)
        for (uint32_t s = 0; s < nr; s++)
            if (head[f * width + s])
                for (uint32_t e = s; e < nr && ok[f * width + e] && (e == s || offsets[e] >= offsets[e - 1]); e++)
                    head[(f + 1) * width + e + 1] = 1;
    tail[(size_t)nf * width + nr] = 1;
    for (uint32_t f = nf; f-- > 0;)
        for (uint32_t s = nr; s-- > 0;)
            for (uint32_t e = s; e < nr && ok[f * width + e] && (e == s || offsets[e] >= offsets[e - 1]) && !tail[f * width + s]; e++)
                tail[f * width + s] = tail[(f + 1) * width + e + 1];
    if (!tail[0])
        die("version 1 stack map: no split of the %" PRIu32 " records among the %" PRIu32 " functions fits", nr, nf);
    for (uint32_t f = 0; f < nf; f++)
        for (uint32_t s = 0; s < nr; s++) {
            if (!head[f * width + s])
                continue;
            for (uint32_t e = s; e < nr && ok[f * width + e] && (e == s || offsets[e] >= offsets[e - 1]); e++)
                if (tail[(f + 1) * width + e + 1])
                    for (uint32_t r = s; r <= e; r++)
                        add_entry((uintptr_t)addrs[f] + offsets[r], first + r);
        }
    free(ok);
    free(head);
    free(tail);
}

/* Whether a version-2 blob is the frame-table layout: its header's offsets (at 4: constants = 32,
 * frame records, frame registers, records, locations, live-outs) are in order, aligned as the layout
 * aligns them, and inside the section. */
static int is_frame_table(const uint8_t *p, size_t avail) {
    if (avail < 32 || p[0] != 2 || p[1] || p[2] || p[3] || rd32(p + 4) != 32)
        return 0;
    static const uint32_t align[6] = {8, 8, 4, 8, 4, 2};
    uint32_t prev = 28;
    for (int i = 0; i < 6; i++) {
        uint32_t o = rd32(p + 4 + 4 * i);
        if (o < prev || o % align[i] != 0 || o > avail)
            return 0;
        prev = o;
    }
    return 1;
}

/* Parses a frame-table blob (layout: src/stackmap/frame_table.rs); returns its size. */
static size_t parse_frame_table(const uint8_t *p, size_t avail) {
    uint32_t consts = rd32(p + 4), fro = rd32(p + 8), rego = rd32(p + 12), reco = rd32(p + 16), loco = rd32(p + 20),
             liveo = rd32(p + 24);
    uint32_t nc = (fro - consts) / 8, nf = (rego - fro) / 28, nr = (loco - reco) / 22;
    records = realloc(records, (nrecords + nr + 1) * sizeof *records);
    functions = realloc(functions, (nfunctions + nf + 1) * sizeof *functions);
    frames = realloc(frames, (nframes + nf + 1) * sizeof *frames);
    if (!records || !functions || !frames)
        die("out of memory");
    size_t first = nrecords, end = liveo;
    for (uint32_t r = 0; r < nr; r++) {
        const uint8_t *q = p + reco + 22 * (size_t)r;
        struct record *rec = &records[nrecords++];
        rec->id = rd64(q);
        rec->nlocs = rd16(q + 14);
        rec->version = 2; /* 8-byte locations, as versions 1 and 2 */
        rec->locs = p + loco + 8 * (size_t)rd16(q + 16);
        rec->consts = p + consts;
        rec->nconsts = nc;
        if (rec->locs + 8 * (size_t)rec->nlocs > p + liveo)
            die("frame table: record %" PRIu32 "'s locations run past the table", r);
        size_t live_end = liveo + 4 * ((size_t)rd16(q + 20) + rd16(q + 18));
        if (live_end > end)
            end = live_end;
    }
    for (uint32_t f = 0; f < nf; f++) {
        const uint8_t *q = p + fro + 28 * (size_t)f;
        struct frame_info *fi = &frames[nframes++];
        fi->addr = (uintptr_t)rd64(q);
        fi->size = rd32(q + 8);
        fi->base_reg = rd16(q + 18);
        fi->nregs = rd16(q + 20);
        fi->regs = p + rego + 6 * (size_t)rd16(q + 22);
        if (fi->regs + 6 * (size_t)fi->nregs > p + reco)
            die("frame table: function %" PRIu32 "'s frame registers run past the table", f);
        functions[nfunctions++] = fi->addr;
        uint32_t count = rd16(q + 24), index = rd16(q + 26);
        if ((uint64_t)index + count > nr)
            die("frame table: function %" PRIu32 "'s records run past the table", f);
        for (uint32_t k = 0; k < count; k++)
            add_entry(fi->addr + rd32(p + reco + 22 * ((size_t)index + k) + 8), first + index + k);
    }
    end = (end + 7) & ~(size_t)7;
    if (end > avail)
        die("truncated frame table");
    return end;
}

static const struct frame_info *frame_of(uintptr_t start) {
    for (size_t i = 0; i < nframes; i++)
        if (frames[i].addr == start)
            return &frames[i];
    return NULL;
}

/* Parses one blob, appending its records and functions; returns its size. */
static size_t parse_blob(const uint8_t *p, size_t avail) {
    if (avail < 16)
        die("truncated stack map blob");
    if (is_frame_table(p, avail))
        return parse_frame_table(p, avail);
    unsigned version = p[0];
    if (version < 1 || version > 3)
        die("stack map version %u is not 1, 2 or 3", version);
    uint32_t nf = rd32(p + 4), nc = rd32(p + 8), nr = rd32(p + 12);
    size_t fr = version == 1 ? 16 : 24, lsize = version == 3 ? 12 : 8;
    size_t off = 16 + nf * fr;
    const uint8_t *consts = p + off;
    off += 8 * (size_t)nc;
    if (off > avail)
        die("truncated stack map blob");
    uint64_t *addrs = malloc((nf + 1) * sizeof *addrs);
    uint64_t *counts = malloc((nf + 1) * sizeof *counts);
    uint32_t *offsets = malloc((nr + 1) * sizeof *offsets);
    records = realloc(records, (nrecords + nr + 1) * sizeof *records);
    functions = realloc(functions, (nfunctions + nf + 1) * sizeof *functions);
    if (!addrs || !counts || !offsets || !records || !functions)
        die("out of memory");
    for (uint32_t f = 0; f < nf; f++) {
        addrs[f] = rd64(p + 16 + f * fr);
        counts[f] = version == 1 ? 0 : rd64(p + 16 + f * fr + 16);
        functions[nfunctions++] = (uintptr_t)addrs[f];
    }
    size_t first = nrecords;
    for (uint32_t r = 0; r < nr; r++) {
        if (off + 16 > avail)
            die("truncated stack map record");
        struct record *rec = &records[nrecords++];
        rec->id = rd64(p + off);
        offsets[r] = rd32(p + off + 8);
        rec->nlocs = rd16(p + off + 14);
        rec->version = version;
        rec->locs = p + off + 16;
        rec->consts = consts;
        rec->nconsts = nc;
        off += 16 + lsize * rec->nlocs;
        off = (off + 7) & ~(size_t)7;
        if (off + 4 > avail)
            die("truncated stack map record");
        off += 4 + 4 * (size_t)rd16(p + off + 2);
        off = (off + 7) & ~(size_t)7;
    }
    if (off > avail)
        die("truncated stack map blob");
    if (version == 1) {
        v1_owners(addrs, nf, offsets, nr, first);
    } else {
        uint32_t r = 0;
        for (uint32_t f = 0; f < nf; f++)
            for (uint64_t k = 0; k < counts[f]; k++, r++) {
                if (r >= nr)
                    die("the function record counts exceed the %" PRIu32 " records", nr);
                add_entry((uintptr_t)addrs[f] + offsets[r], first + r);
            }
        if (r != nr)
            die("the function record counts (%" PRIu32 ") do not add up to the %" PRIu32 " records", r, nr);
    }
    free(addrs);
    free(counts);
    free(offsets);
    return off;
}

static int by_pc(const void *a, const void *b) {
    const struct entry *x = a, *y = b;
    return x->pc != y->pc ? (x->pc < y->pc ? -1 : 1) : (x->record > y->record) - (x->record < y->record);
}

static int by_value(const void *a, const void *b) {
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return x < y ? -1 : x > y;
}

/* The `.llvm_stackmaps` section of this executable. Its start symbol `__LLVM_StackMaps` is local in
 * both llc-19's and patchmap's objects, so the section is found through the section headers of
 * /proc/self/exe (qemu-user maps that to the guest program); the load bias comes from __ehdr_start. */
extern const Elf64_Ehdr __ehdr_start __attribute__((weak, visibility("hidden")));

static void load_stackmaps(void) {
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0)
        die("cannot open /proc/self/exe");
    uint8_t *file = malloc((size_t)st.st_size);
    size_t done = 0;
    while (file && done < (size_t)st.st_size) {
        ssize_t n = read(fd, file + done, (size_t)st.st_size - done);
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    close(fd);
    if (!file || done != (size_t)st.st_size || done < sizeof(Elf64_Ehdr) || memcmp(file, ELFMAG, SELFMAG) != 0)
        die("cannot read /proc/self/exe as ELF");
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file;
    if (eh->e_shoff == 0 || eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > done ||
        eh->e_shstrndx >= eh->e_shnum)
        die("no section headers in /proc/self/exe");
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(file + eh->e_shoff);
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(file + eh->e_phoff);
    uintptr_t bias = 0;
    if (eh->e_type == ET_DYN) {
        if (!&__ehdr_start)
            die("a position-independent executable without __ehdr_start");
        for (unsigned i = 0; i < eh->e_phnum; i++)
            if (ph[i].p_type == PT_LOAD && ph[i].p_offset == 0)
                bias = (uintptr_t)&__ehdr_start - (uintptr_t)ph[i].p_vaddr;
    }
    const char *names = (const char *)(file + sh[eh->e_shstrndx].sh_offset);
    const Elf64_Shdr *map = NULL;
    for (unsigned i = 0; i < eh->e_shnum; i++)
        if (strcmp(names + sh[i].sh_name, ".llvm_stackmaps") == 0)
            map = &sh[i];
    if (!map)
        die("no .llvm_stackmaps section: the program has no statepoints");
    /* Read the loaded copy: the function addresses in it are relocated. */
    const uint8_t *data = (const uint8_t *)(map->sh_addr + bias);
    size_t off = 0;
    while (off + 16 <= map->sh_size) {
        if (data[off] == 0) { /* padding between the blobs of linked objects */
            off += 8;
            continue;
        }
        off = (off + parse_blob(data + off, map->sh_size - off) + 7) & ~(size_t)7;
    }
    free(file);
    qsort(entries, nentries, sizeof *entries, by_pc);
    qsort(functions, nfunctions, sizeof *functions, by_value);
    /* One entry per address: duplicates of one record merge, different records make it ambiguous. */
    size_t kept = 0;
    for (size_t i = 0; i < nentries; i++) {
        if (kept > 0 && entries[kept - 1].pc == entries[i].pc) {
            if (entries[kept - 1].record != entries[i].record)
                entries[kept - 1].ambiguous = 1;
            continue;
        }
        entries[kept++] = entries[i];
    }
    nentries = kept;
}

static const struct record *find_record(uintptr_t pc) {
    size_t lo = 0, hi = nentries;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (entries[mid].pc < pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == nentries || entries[lo].pc != pc)
        return NULL;
    if (entries[lo].ambiguous)
        die("several stack map records can be the one at return address %#lx", (unsigned long)pc);
    return &records[entries[lo].record];
}

static int listed_function(uintptr_t addr) {
    return bsearch(&addr, functions, nfunctions, sizeof *functions, by_value) != NULL;
}

/* ---- the heap ---- */

static size_t semispace_bytes = 1 << 20;
static uint8_t *spaces[2];
static uint64_t *starts[2]; /* one bit per word: an object's first field starts there */
static int current;         /* index of the space allocated from */
static uint8_t *alloc_ptr, *alloc_end;
static int stress, break_slot = -1, break_register = -1, ignore_frame_table;
static uint64_t register_roots; /* register roots written back with a new value */
static uint64_t collections, moved, roots_seen, deopt_values, deopt_checksum;

static uint8_t *space_start(int s) { return spaces[s]; }

static int in_space(int s, uintptr_t p) {
    return p >= (uintptr_t)spaces[s] && p < (uintptr_t)spaces[s] + semispace_bytes;
}

static size_t word_index(int s, uintptr_t p) { return (p - (uintptr_t)spaces[s]) / 8; }

static int is_object_start(int s, uintptr_t p) {
    if (!in_space(s, p) || (p & 7) != 0)
        return 0;
    size_t w = word_index(s, p);
    return (starts[s][w / 64] >> (w % 64)) & 1;
}

static void mark_start(int s, uintptr_t p) {
    size_t w = word_index(s, p);
    starts[s][w / 64] |= UINT64_C(1) << (w % 64);
}

static void protect(int s, int prot) {
    if (mprotect(spaces[s], semispace_bytes, prot) != 0)
        die("mprotect failed");
}

static void heap_init(void) {
    const char *e = getenv("GC_STRESS");
    stress = e && strcmp(e, "1") == 0;
    if ((e = getenv("GC_SEMISPACE")) != NULL)
        semispace_bytes = (size_t)strtoull(e, NULL, 0);
    if ((e = getenv("GC_BREAK")) != NULL)
        break_slot = atoi(e);
    if ((e = getenv("GC_BREAK_REGISTER")) != NULL)
        break_register = atoi(e);
    ignore_frame_table = getenv("GC_IGNORE_FRAME_REGISTERS") != NULL;
    semispace_bytes = (semispace_bytes + 4095) & ~(size_t)4095;
    for (int s = 0; s < 2; s++) {
        void *m = mmap(NULL, semispace_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        starts[s] = calloc(semispace_bytes / 8 / 64 + 1, 8);
        if (m == MAP_FAILED || !starts[s])
            die("cannot map the heap");
        spaces[s] = m;
    }
    protect(1, PROT_NONE);
    current = 0;
    alloc_ptr = space_start(0);
    alloc_end = alloc_ptr + semispace_bytes;
}

static uint64_t header_of(uintptr_t obj) { return ((uint64_t *)obj)[-1]; }
static uint64_t pointer_fields(uint64_t header) { return header >> 32; }
static uint64_t object_words(uint64_t header) { return 1 + (header >> 32) + (header & 0xffffffffu); }

/* Copies `obj` (an object start in from-space, or null) to to-space once; its new address. */
static uintptr_t forward(uintptr_t obj, int from, const char *what) {
    if (obj == 0)
        return 0;
    if (!is_object_start(from, obj))
        die("%s %#lx is not an object in from-space [%p, %p)", what, (unsigned long)obj, (void *)spaces[from],
            (void *)(spaces[from] + semispace_bytes));
    uint64_t h = header_of(obj);
    if (h & FORWARDED)
        return (uintptr_t)(h & ~FORWARDED);
    size_t words = object_words(h);
    uint8_t *to = alloc_ptr;
    memcpy(to, (uint8_t *)obj - 8, words * 8);
    uintptr_t copy = (uintptr_t)to + 8;
    mark_start(current, copy);
    alloc_ptr += words * 8;
    ((uint64_t *)obj)[-1] = FORWARDED | copy;
    moved++;
    return copy;
}

/* ---- roots ---- */

struct root {
    uintptr_t *base_slot, *derived_slot;
    uintptr_t old_base, old_derived;
    int base_in_register, derived_in_register;
};

/* The register file the entry (gc_alloc, gc_safepoint) stored, in saved_regs order. */
static uint64_t *entry_regs;

struct walk {
    struct root *roots;
    size_t nroots, cap;
    unsigned compiled_frames;
    /* Per saved register: where the current frame's value is (see the header). */
    uint64_t *where[NSAVED];
    /* A generated frame without frame-table information was passed: register values of outer
     * frames cannot be found. */
    int untracked;
};

static uintptr_t register_value(struct _Unwind_Context *ctx, unsigned reg) {
    /* libgcc's _Unwind_GetGR does not track the stack pointer; the frame's SP is its CFA as libgcc
     * reports it (that of the frame it called). */
    if (reg == DWARF_SP)
        return (uintptr_t)_Unwind_GetCFA(ctx);
    return (uintptr_t)_Unwind_GetGR(ctx, (int)reg);
}

/* Where the frame being visited keeps callee-saved register `reg`. */
static uint64_t *register_home(const struct walk *w, const struct record *rec, unsigned reg) {
    int k = saved_index(reg);
    if (k < 0)
        die("record %" PRIu64 ": register %u is not one the entries capture (callee-saved)", rec->id, reg);
    if (w->untracked)
        die("record %" PRIu64 ": register %u of a frame outside one without frame-table information", rec->id, reg);
    return w->where[k];
}

static uintptr_t *slot_address(struct _Unwind_Context *ctx, const struct walk *w, const struct record *rec,
                               unsigned i) {
    struct location l = location(rec, i);
    if (l.kind == KIND_REGISTER) {
        if (l.size != 8)
            die("record %" PRIu64 ": gc pointer #%u has size %u, not 8", rec->id, i + 1, l.size);
        return (uintptr_t *)register_home(w, rec, l.reg);
    }
    if (l.kind != KIND_INDIRECT)
        die("record %" PRIu64 ": gc pointer #%u has location kind %u, not Indirect", rec->id, i + 1, l.kind);
    /* A vector of gc pointers is one slot of 8 bytes a lane (`<2 x ptr addrspace(1)>`: 16). */
    if (l.size == 0 || l.size % 8 != 0)
        die("record %" PRIu64 ": gc pointer #%u has size %u, not a multiple of 8", rec->id, i + 1, l.size);
    uintptr_t addr = register_value(ctx, l.reg) + (intptr_t)l.offset;
    if (addr & 7)
        die("record %" PRIu64 ": gc pointer slot #%u at %#lx is misaligned", rec->id, i + 1, (unsigned long)addr);
    return (uintptr_t *)addr;
}

static int64_t constant_of(const struct record *rec, unsigned i, int *ok) {
    struct location l = location(rec, i);
    *ok = 1;
    if (l.kind == KIND_CONSTANT)
        return l.offset;
    if (l.kind == KIND_CONSTANT_INDEX && (uint32_t)l.offset < rec->nconsts)
        return (int64_t)rd64(rec->consts + 8 * (size_t)l.offset);
    *ok = 0;
    return 0;
}

static uint64_t sized(uint64_t v, unsigned size) { return size >= 8 ? v : v & ((UINT64_C(1) << (8 * size)) - 1); }

/* A deopt value's low 32 bits (a producer may record an i32 as an 8-byte constant or a 4-byte slot;
 * Direct: the address itself is not comparable between programs and counts as 0). */
static uint64_t deopt_value(struct _Unwind_Context *ctx, const struct walk *w, const struct record *rec, unsigned i) {
    struct location l = location(rec, i);
    int ok;
    uint64_t v = (uint64_t)constant_of(rec, i, &ok);
    if (ok)
        return (uint32_t)v;
    switch (l.kind) {
    case KIND_REGISTER:
        if (saved_index(l.reg) >= 0 && !w->untracked)
            return (uint32_t)sized(*register_home(w, rec, l.reg), l.size);
        return (uint32_t)sized(register_value(ctx, l.reg), l.size);
    case KIND_DIRECT:
        return 0;
    case KIND_INDIRECT: {
        uint64_t x = 0;
        memcpy(&x, (const void *)(register_value(ctx, l.reg) + (intptr_t)l.offset), l.size > 8 ? 8 : l.size);
        return (uint32_t)sized(x, l.size);
    }
    default:
        die("record %" PRIu64 ": deopt location #%u has kind %u", rec->id, i + 1, l.kind);
    }
}

static _Unwind_Reason_Code visit(struct _Unwind_Context *ctx, void *arg) {
    struct walk *w = arg;
    uintptr_t ip = (uintptr_t)_Unwind_GetIP(ctx);
    if (ip == 0)
        return _URC_NO_REASON;
    const struct record *rec = find_record(ip);
    const struct frame_info *fi = frame_of((uintptr_t)_Unwind_GetRegionStart(ctx));
    if (!rec) {
        uintptr_t start = (uintptr_t)_Unwind_GetRegionStart(ctx);
        if (start && listed_function(start))
            die("the frame at return address %#lx (function %#lx + %#lx) has no statepoint record", (unsigned long)ip,
                (unsigned long)start, (unsigned long)(ip - start));
        return _URC_NO_REASON;
    }
    w->compiled_frames++;
    if (rec->nlocs < 3)
        die("record %" PRIu64 " has %u locations: not a statepoint record", rec->id, rec->nlocs);
    int ok0, ok1, ok2;
    (void)constant_of(rec, 0, &ok0);
    (void)constant_of(rec, 1, &ok1);
    int64_t ndeopt = constant_of(rec, 2, &ok2);
    if (!ok0 || !ok1 || !ok2)
        die("record %" PRIu64 ": the first three locations are not constants: not a statepoint record", rec->id);
    if (ndeopt < 0 || 3 + (uint64_t)ndeopt > rec->nlocs || (rec->nlocs - 3 - ndeopt) % 2 != 0)
        die("record %" PRIu64 ": %u locations do not fit 3 + %" PRId64 " deopt values + (base, derived) pairs", rec->id,
            rec->nlocs, ndeopt);
    for (unsigned i = 3; i < 3 + ndeopt; i++) {
        uint64_t v = deopt_value(ctx, w, rec, i);
        deopt_values++;
        deopt_checksum = deopt_checksum * 31 + v;
    }
    for (unsigned i = 3 + (unsigned)ndeopt; i < rec->nlocs; i += 2) {
        struct location b = location(rec, i), d = location(rec, i + 1);
        if (b.kind == KIND_CONSTANT || b.kind == KIND_CONSTANT_INDEX) {
            if (d.kind != KIND_CONSTANT && d.kind != KIND_CONSTANT_INDEX)
                die("record %" PRIu64 ": pair #%u has a constant base and a non-constant derived pointer", rec->id, i + 1);
            continue;
        }
        /* A pair of vectors is a pair per lane: lane k of the base is lane k's base. */
        unsigned lanes = b.kind == KIND_INDIRECT ? b.size / 8 : 1;
        if ((d.kind == KIND_INDIRECT ? d.size / 8 : 1) != lanes)
            die("record %" PRIu64 ": pair #%u has a base of %u lanes and a derived pointer of another count", rec->id,
                i + 1, lanes);
        for (unsigned k = 0; k < lanes; k++) {
            if (w->nroots == w->cap) {
                w->cap = w->cap ? 2 * w->cap : 64;
                w->roots = realloc(w->roots, w->cap * sizeof *w->roots);
                if (!w->roots)
                    die("out of memory");
            }
            struct root *r = &w->roots[w->nroots++];
            r->base_slot = slot_address(ctx, w, rec, i) + k;
            r->derived_slot = slot_address(ctx, w, rec, i + 1) + k;
            r->base_in_register = b.kind == KIND_REGISTER;
            r->derived_in_register = d.kind == KIND_REGISTER;
        }
    }
    /* Outer frames find the registers this frame's prologue saved in its save slots. */
    if (!fi) {
        w->untracked = 1;
        return _URC_NO_REASON;
    }
    uintptr_t base = register_value(ctx, fi->base_reg);
    for (unsigned k = 0; k < fi->nregs && !ignore_frame_table; k++) {
        const uint8_t *e = fi->regs + 6 * (size_t)k;
        int at = saved_index(rd16(e));
        if (at >= 0)
            w->where[at] = (uint64_t *)(base + (intptr_t)(int16_t)rd16(e + 2));
    }
    return _URC_NO_REASON;
}

struct write {
    uintptr_t *slot;
    uintptr_t value, old;
    int in_register;
};

static int by_slot(const void *a, const void *b) {
    const struct write *x = a, *y = b;
    return x->slot < y->slot ? -1 : x->slot > y->slot;
}

static void verify_heap(int space) {
    for (uint8_t *p = space_start(space); p < alloc_ptr;) {
        uintptr_t obj = (uintptr_t)p + 8;
        uint64_t h = header_of(obj);
        if ((h & FORWARDED) || !is_object_start(space, obj))
            die("to-space is corrupt at %p", (void *)p);
        for (uint64_t f = 0; f < pointer_fields(h); f++) {
            uintptr_t v = ((uintptr_t *)obj)[f];
            if (v != 0 && !is_object_start(space, v))
                die("object %#lx field %" PRIu64 " = %#lx is not an object in to-space", (unsigned long)obj, f,
                    (unsigned long)v);
        }
        p += object_words(h) * 8;
    }
}

static __attribute__((noinline)) void collect(void) {
    struct walk w = {0};
    for (size_t k = 0; k < NSAVED; k++)
        w.where[k] = &entry_regs[k];
    _Unwind_Backtrace(visit, &w);
    int from = current, to = 1 - current;
    uint8_t *from_end = alloc_ptr;
    protect(to, PROT_READ | PROT_WRITE);
    memset(starts[to], 0, (semispace_bytes / 8 / 64 + 1) * 8);
    current = to;
    alloc_ptr = space_start(to);
    alloc_end = alloc_ptr + semispace_bytes;

    /* Read every slot before writing any: a slot may be named by several pairs. */
    for (size_t i = 0; i < w.nroots; i++) {
        w.roots[i].old_base = *w.roots[i].base_slot;
        w.roots[i].old_derived = *w.roots[i].derived_slot;
    }
    struct write *writes = malloc((2 * w.nroots + 1) * sizeof *writes);
    if (!writes)
        die("out of memory");
    size_t nwrites = 0;
    for (size_t i = 0; i < w.nroots; i++) {
        struct root *r = &w.roots[i];
        uintptr_t base = forward(r->old_base, from, "base pointer");
        writes[nwrites++] = (struct write){r->base_slot, base, r->old_base, r->base_in_register};
        writes[nwrites++] =
            (struct write){r->derived_slot, base + (r->old_derived - r->old_base), r->old_derived, r->derived_in_register};
    }
    /* Cheney scan. */
    for (uint8_t *scan = space_start(to); scan < alloc_ptr;) {
        uintptr_t obj = (uintptr_t)scan + 8;
        uint64_t h = header_of(obj);
        for (uint64_t f = 0; f < pointer_fields(h); f++)
            ((uintptr_t *)obj)[f] = forward(((uintptr_t *)obj)[f], from, "heap pointer");
        scan += object_words(h) * 8;
    }
    qsort(writes, nwrites, sizeof *writes, by_slot);
    for (size_t i = 0, distinct = 0, in_registers = 0; i < nwrites; i++) {
        if (i > 0 && writes[i].slot == writes[i - 1].slot) {
            if (writes[i].value != writes[i - 1].value)
                die("slot %p gets two different relocated values", (void *)writes[i].slot);
            continue;
        }
        int skip = (int)distinct++ == break_slot;
        if (writes[i].in_register) {
            skip |= (int)in_registers++ == break_register;
            if (!skip && writes[i].value != writes[i].old)
                register_roots++;
        }
        if (!skip)
            *writes[i].slot = writes[i].value;
    }
    for (size_t i = 0; i < w.nroots; i++) {
        uintptr_t b = *w.roots[i].base_slot, d = *w.roots[i].derived_slot;
        if ((b != 0 && !is_object_start(to, b)) || in_space(from, b) || in_space(from, d))
            die("after collection %" PRIu64 ", root %zu (base %#lx, derived %#lx) does not point into to-space",
                collections + 1, i, (unsigned long)b, (unsigned long)d);
    }
    verify_heap(to);
    /* Poison from-space and take it away until the next collection copies into it. */
    memset(spaces[from], 0xA5, (size_t)(from_end - spaces[from]));
    protect(from, PROT_NONE);
    collections++;
    roots_seen += w.nroots;
    free(writes);
    free(w.roots);
}

/* ---- the program's interface ---- */

/* The entries: gc_alloc and gc_safepoint store the callee-saved registers (SAVED_REGS order) in a
 * register file on their frame, call gc_alloc_body / gc_safepoint_body with its address, and load the
 * registers back from it, with the relocated roots the collector wrote there. CFI lets libgcc's
 * unwinder pass through them. */
#if defined(__x86_64__)
#define ENTRY(name, regs_arg)                                                                                     \
    __asm__(".text\n.globl " #name "\n.type " #name ",@function\n" #name ":\n"                                   \
            ".cfi_startproc\n"                                                                                    \
            "push %rbp\n.cfi_def_cfa_offset 16\n.cfi_offset %rbp, -16\n"                                          \
            "mov %rsp, %rbp\n.cfi_def_cfa_register %rbp\n"                                                        \
            "push %r15\npush %r14\npush %r13\npush %r12\npush %rbx\nsub $8, %rsp\n"                                 \
            "lea -40(%rbp), " regs_arg "\n"                                                                      \
            "call " #name "_body\n"                                                                               \
            "mov -40(%rbp), %rbx\nmov -32(%rbp), %r12\nmov -24(%rbp), %r13\nmov -16(%rbp), %r14\n"               \
            "mov -8(%rbp), %r15\n"                                                                                \
            "leave\n.cfi_def_cfa %rsp, 8\nret\n.cfi_endproc\n.size " #name ", .-" #name "\n")
ENTRY(gc_alloc, "%rdx");
ENTRY(gc_safepoint, "%rdi");
#else
#define ENTRY(name, regs_arg)                                                                                     \
    __asm__(".text\n.globl " #name "\n.type " #name ",%function\n" #name ":\n"                                   \
            ".cfi_startproc\n"                                                                                    \
            "stp x29, x30, [sp, #-176]!\n.cfi_def_cfa_offset 176\n.cfi_offset x29, -176\n.cfi_offset x30, -168\n"  \
            "mov x29, sp\n"                                                                                       \
            "stp x19, x20, [sp, #16]\nstp x21, x22, [sp, #32]\nstp x23, x24, [sp, #48]\n"                          \
            "stp x25, x26, [sp, #64]\nstp x27, x28, [sp, #80]\n"                                                   \
            "stp d8, d9, [sp, #96]\nstp d10, d11, [sp, #112]\nstp d12, d13, [sp, #128]\nstp d14, d15, [sp, #144]\n" \
            "add " regs_arg ", sp, #16\n"                                                                        \
            "bl " #name "_body\n"                                                                                 \
            "ldp x19, x20, [sp, #16]\nldp x21, x22, [sp, #32]\nldp x23, x24, [sp, #48]\n"                          \
            "ldp x25, x26, [sp, #64]\nldp x27, x28, [sp, #80]\n"                                                   \
            "ldp d8, d9, [sp, #96]\nldp d10, d11, [sp, #112]\nldp d12, d13, [sp, #128]\nldp d14, d15, [sp, #144]\n" \
            "ldp x29, x30, [sp], #176\n.cfi_def_cfa_offset 0\nret\n.cfi_endproc\n.size " #name ", .-" #name "\n")
ENTRY(gc_alloc, "x2");
ENTRY(gc_safepoint, "x0");
#endif

void *gc_alloc_body(int64_t nptrs, int64_t nscalars, uint64_t *regs);
void gc_safepoint_body(uint64_t *regs);

void *gc_alloc_body(int64_t nptrs, int64_t nscalars, uint64_t *regs) {
    entry_regs = regs;
    if (nptrs < 0 || nscalars < 0 || nptrs > 1 << 20 || nscalars > 1 << 20)
        die("gc_alloc(%" PRId64 ", %" PRId64 "): bad object shape", nptrs, nscalars);
    size_t bytes = 8 * (size_t)(1 + nptrs + nscalars);
    if (stress || (size_t)(alloc_end - alloc_ptr) < bytes)
        collect();
    if ((size_t)(alloc_end - alloc_ptr) < bytes)
        die("out of memory: %zu bytes wanted, %zu free after collecting", bytes, (size_t)(alloc_end - alloc_ptr));
    uint64_t *p = (uint64_t *)alloc_ptr;
    alloc_ptr += bytes;
    memset(p, 0, bytes);
    p[0] = ((uint64_t)nptrs << 32) | (uint64_t)nscalars;
    mark_start(current, (uintptr_t)(p + 1));
    return p + 1;
}

void gc_safepoint_body(uint64_t *regs) {
    entry_regs = regs;
    if (stress)
        collect();
}

void print_i64(int64_t v) { printf("%" PRId64 "\n", v); }

void print_kv(int64_t k, int64_t v) { printf("%" PRId64 ": %" PRId64 "\n", k, v); }

int main(void) {
    heap_init();
    load_stackmaps();
    int64_t result = gc_main();
    printf("result %" PRId64 "\n", result);
    fflush(stdout);
    fprintf(stderr,
            "gc: %" PRIu64 " collections, %" PRIu64 " objects moved, %" PRIu64 " roots, %" PRIu64
            " deopt values, deopt checksum %" PRIu64 "\n",
            collections, moved, roots_seen, deopt_values, deopt_checksum);
    if (register_roots)
        fprintf(stderr, "gc: register roots relocated: %" PRIu64 "\n", register_roots);
    return 0;
}
