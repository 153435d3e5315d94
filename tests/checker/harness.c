/*
 * Run-time stack map location checker.
 *
 * Linked into a program whose object has a `.llvm_stackmaps` section (x86-64: `-no-pie`; AArch64:
 * `-static`, run under qemu-aarch64). Before `main`, a constructor reads the executable's own
 * `.llvm_stackmaps` section (every blob, versions 1, 2 and 3), computes each record's address and
 * plants a breakpoint there. At every trap it reads every location of every record at that address
 * from the saved registers and the stack, writes one line per record execution, and resumes with the
 * original instruction; the breakpoint is re-armed after that instruction, so loops are seen too.
 *
 * Output (to the file named by PATCHMAP_CHECKER_OUT, else stderr; never the program's stdout):
 *   P <id> <pc> <nlocs>          per record, section order, at start-up
 *   H <id> <nlocs> <loc>...      per record execution, execution order (records sharing an address:
 *                                section order)
 *   X <id>                       the record reached CAP_HITS reports; later executions are not seen
 *   W <text> / E <text>          warning / error (E: the checker could not do its job)
 *   Q <hits>                     at exit (destructor): the output is complete
 * <loc> = <kind>:<size>:<value>[#<digest>][=<stored>][@<symbol>+<offset>], hex numbers without 0x:
 *   R  Register: the whole 64-bit register (low 64 bits of a vector register), not masked to <size>
 *   D  Direct: the address reg+offset
 *   I  Indirect: min(size, 8) bytes loaded from reg+offset, zero-extended; over 8 bytes (a vector
 *      spilled whole) also `#<digest>`, the FNV-1a 64-bit hash of all <size> bytes there
 *   C  Constant: the 32-bit field sign-extended to 64 bits (LLVM stores int64 values that fit in i32)
 *   K  ConstantIndex: the 64-bit pool entry
 * `=<stored>`: when an R/D/I value lies in the stack (from SP-128, for x86-64's red zone, up to the
 * environment strings), the 8 bytes stored there; when it lies inside a sized function or object
 * symbol of the executable, up to 8 bytes stored there (not past the symbol's end) and
 * `@<symbol>+<offset>`; when it lies in an allocated section but in no sized symbol (llc-19 gives
 * `private` globals no symbol), up to 8 bytes stored there (not past the section's end). Addresses
 * differ between binaries; what they point to and symbol offsets do not.
 *
 * Re-arming: x86-64 sets the trap flag to single-step the restored instruction; the single-step trap
 * re-plants the int3. AArch64 (qemu-user does not single-step signal returns) plants temporary
 * `brk`s at the possible next PCs of the restored instruction (decoding B/BL/B.cond/CBZ/CBNZ/TBZ/TBNZ
 * and BR/BLR/RET through the saved registers); whichever traps first re-plants the record's `brk`.
 * The original instruction always runs in place, so PC-relative instructions stay correct.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/ucontext.h>
#include <unistd.h>

/* Reports per record; past it the record's breakpoint is no longer re-armed (bounds output and time). */
#define CAP_HITS 1000

enum { KIND_REGISTER = 1, KIND_DIRECT = 2, KIND_INDIRECT = 3, KIND_CONSTANT = 4, KIND_CONSTANT_INDEX = 5 };

struct record {
    uint64_t id;
    uintptr_t pc;
    unsigned nlocs;
    const uint8_t *locs; /* in the mapped section */
    unsigned loc_stride; /* 8 (v1/v2) or 12 (v3) */
    const uint8_t *consts;
    unsigned nconsts;
    const uint8_t *liveouts; /* nliveouts entries of 4 bytes: dwarf reg (2), reserved (1), size (1) */
    unsigned nliveouts;
    unsigned hits;
};

/* A breakpoint address and the records there (contiguous in `records`, section order). */
struct site {
    uintptr_t pc;
    uint32_t original; /* x86-64: low byte; AArch64: the instruction */
    unsigned first, count;
    int armed;
};

struct symbol {
    uintptr_t addr, size;
    const char *name;
};

static int out_fd = 2;
static struct record *records;
static unsigned nrecords;
static struct site *sites;
static unsigned nsites;
static struct symbol *symbols;
static unsigned nsymbols;
/* Allocated sections (names unused), for addresses in no symbol. */
static struct symbol *sections;
static unsigned nsections;
static uintptr_t stack_top;
static unsigned long total_hits;
static long pending = -1; /* the site whose breakpoint waits to be re-planted */

#if defined(__aarch64__)
#define BRK 0xd4200000u
/* Temporary breakpoints at the next PCs of a restored instruction. */
static struct {
    uintptr_t pc;
    uint32_t original;
} temps[2];
static unsigned ntemps;
#endif

/* ---- output (async-signal-safe: write(2) only) ---- */

static char line[16384];
static size_t line_len;

static void flush_line(void) {
    size_t done = 0;
    while (done < line_len) {
        ssize_t n = write(out_fd, line + done, line_len - done);
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    line_len = 0;
}

static void put_str(const char *s) {
    while (*s) {
        if (line_len == sizeof line)
            flush_line();
        line[line_len++] = *s++;
    }
}

static void put_hex(uint64_t v) {
    char buf[17];
    int i = 16;
    buf[i] = 0;
    do {
        buf[--i] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    put_str(buf + i);
}

static void put_dec(uint64_t v) {
    char buf[21];
    int i = 20;
    buf[i] = 0;
    do {
        buf[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put_str(buf + i);
}

static void report(const char *tag, const char *text) {
    put_str(tag);
    put_str(" ");
    put_str(text);
    put_str("\n");
    flush_line();
}

/* ---- reading the section ---- */

static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

static const uint8_t *file_data;
static size_t file_size;

static int read_self(void) {
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0)
        return -1;
    uint8_t *buf = malloc((size_t)st.st_size);
    size_t done = 0;
    while (buf && done < (size_t)st.st_size) {
        ssize_t n = read(fd, buf + done, (size_t)st.st_size - done);
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    close(fd);
    if (!buf || done != (size_t)st.st_size)
        return -1;
    file_data = buf;
    file_size = done;
    return 0;
}

static const Elf64_Shdr *section_headers(unsigned *count) {
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file_data;
    if (eh->e_shoff == 0 || eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > file_size)
        return NULL;
    *count = eh->e_shnum;
    return (const Elf64_Shdr *)(file_data + eh->e_shoff);
}

static int by_address(const void *a, const void *b) {
    const struct symbol *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Sized FUNC and OBJECT symbols, sorted, for `@sym+off` and for v1 function sizes. */
static void load_symbols(const Elf64_Shdr *sh, unsigned shnum) {
    sections = calloc(shnum, sizeof *sections);
    for (unsigned i = 0; sections && i < shnum; i++)
        if ((sh[i].sh_flags & SHF_ALLOC) && !(sh[i].sh_flags & SHF_TLS) && sh[i].sh_addr && sh[i].sh_size) {
            sections[nsections].addr = sh[i].sh_addr;
            sections[nsections].size = sh[i].sh_size;
            nsections++;
        }
    for (unsigned i = 0; i < shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= shnum)
            continue;
        const Elf64_Sym *syms = (const Elf64_Sym *)(file_data + sh[i].sh_offset);
        size_t n = sh[i].sh_size / sizeof(Elf64_Sym);
        const char *strtab = (const char *)(file_data + sh[sh[i].sh_link].sh_offset);
        symbols = calloc(n, sizeof *symbols);
        if (!symbols)
            return;
        for (size_t k = 0; k < n; k++) {
            unsigned type = ELF64_ST_TYPE(syms[k].st_info);
            if ((type != STT_FUNC && type != STT_OBJECT) || syms[k].st_size == 0 || syms[k].st_shndx == SHN_UNDEF)
                continue;
            symbols[nsymbols].addr = syms[k].st_value;
            symbols[nsymbols].size = syms[k].st_size;
            symbols[nsymbols].name = strtab + syms[k].st_name;
            nsymbols++;
        }
        qsort(symbols, nsymbols, sizeof *symbols, by_address);
        return;
    }
}

static const struct symbol *symbol_containing(uintptr_t v) {
    unsigned lo = 0, hi = nsymbols;
    while (lo < hi) { /* first symbol with addr > v */
        unsigned mid = lo + (hi - lo) / 2;
        if (symbols[mid].addr <= v)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* Symbols may nest or alias; look back a few for one that contains v. */
    for (unsigned k = lo; k > 0 && lo - k < 8; k--)
        if (v - symbols[k - 1].addr < symbols[k - 1].size)
            return &symbols[k - 1];
    return NULL;
}

/* A function's size from the symbol table, or UINT64_MAX when unknown. */
static uint64_t function_size(uint64_t addr) {
    for (unsigned k = 0; k < nsymbols; k++)
        if (symbols[k].addr == addr)
            return symbols[k].size;
    return UINT64_MAX;
}

/*
 * v1 stores no per-function record counts. Records are contiguous per function in function order,
 * offsets never decrease within a function, each function has >= 1 record and offsets lie within the
 * function. Among the splits that fit, take the one giving the earliest functions the fewest records
 * (as patchmap's `derive_record_counts`); warn when more than one fits.
 */
static int v1_counts(const uint64_t *addrs, unsigned n, const uint32_t *offsets, unsigned m, unsigned *counts) {
    if (n == 0 || m < n)
        return -1;
    uint8_t *ways = calloc((size_t)(n + 1) * (m + 1), 1);
    uint64_t *sizes = malloc(n * sizeof *sizes);
    if (!ways || !sizes)
        return -1;
#define WAYS(f, j) ways[(size_t)(f) * (m + 1) + (j)]
    for (unsigned f = 0; f < n; f++)
        sizes[f] = function_size(addrs[f]);
    WAYS(n, m) = 1;
    for (unsigned f = n; f-- > 0;) {
        for (unsigned j = m; j-- > 0;) {
            unsigned total = 0;
            for (unsigned end = j; end < m; end++) {
                if (offsets[end] > sizes[f] || (end > j && offsets[end] < offsets[end - 1]))
                    break;
                total += WAYS(f + 1, end + 1);
            }
            WAYS(f, j) = (uint8_t)(total > 2 ? 2 : total);
        }
    }
    int result = WAYS(0, 0) == 0 ? -1 : WAYS(0, 0) > 1 ? 1 : 0;
    unsigned j = 0;
    for (unsigned f = 0; result >= 0 && f < n; f++) {
        unsigned end = j;
        while (end < m && WAYS(f + 1, end + 1) == 0)
            end++;
        counts[f] = end + 1 - j;
        j = end + 1;
    }
#undef WAYS
    free(ways);
    free(sizes);
    return result;
}

/* Parses one blob at `p` (at most `avail` bytes), appending its records; returns its size or 0. */
static size_t parse_blob(const uint8_t *p, size_t avail) {
    if (avail < 16)
        return 0;
    unsigned version = p[0];
    if (version < 1 || version > 3)
        return 0;
    uint32_t nf = rd32(p + 4), nc = rd32(p + 8), nr = rd32(p + 12);
    size_t fr = version == 1 ? 16 : 24, lsize = version == 3 ? 12 : 8;
    size_t off = 16 + nf * fr;
    const uint8_t *consts = p + off;
    off += 8 * (size_t)nc;
    if (off > avail)
        return 0;

    uint64_t *addrs = malloc((nf + 1) * sizeof *addrs);
    unsigned *counts = malloc((nf + 1) * sizeof *counts);
    uint32_t *offsets = malloc((nr + 1) * sizeof *offsets);
    struct record *grown = realloc(records, (nrecords + nr + 1) * sizeof *records);
    if (!addrs || !counts || !offsets || !grown)
        return 0;
    records = grown;
    for (unsigned f = 0; f < nf; f++) {
        addrs[f] = rd64(p + 16 + f * fr);
        counts[f] = version == 1 ? 0 : (unsigned)rd64(p + 16 + f * fr + 16);
    }
    unsigned first = nrecords;
    for (unsigned r = 0; r < nr; r++) {
        if (off + 16 > avail)
            return 0;
        struct record *rec = &records[nrecords++];
        rec->id = rd64(p + off);
        offsets[r] = rd32(p + off + 8);
        rec->nlocs = rd16(p + off + 14);
        rec->locs = p + off + 16;
        rec->loc_stride = (unsigned)lsize;
        rec->consts = consts;
        rec->nconsts = nc;
        rec->hits = 0;
        off += 16 + lsize * rec->nlocs;
        off = (off + 7) & ~(size_t)7;
        if (off + 4 > avail)
            return 0;
        unsigned nlive = rd16(p + off + 2);
        rec->liveouts = p + off + 4;
        rec->nliveouts = nlive;
        off += 4 + 4 * (size_t)nlive;
        off = (off + 7) & ~(size_t)7;
    }
    if (version == 1) {
        int split = v1_counts(addrs, nf, offsets, nr, counts);
        if (split < 0) {
            report("E", "v1 blob: no split of the records into functions fits the symbol sizes");
            return 0;
        }
        if (split > 0)
            report("W", "v1 blob: several splits of the records into functions fit; took the earliest-smallest");
    }
    unsigned r = 0;
    for (unsigned f = 0; f < nf; f++)
        for (unsigned k = 0; k < counts[f] && r < nr; k++, r++)
            records[first + r].pc = (uintptr_t)(addrs[f] + offsets[r]);
    free(addrs);
    free(counts);
    free(offsets);
    if (r != nr) {
        report("E", "record counts do not add up to the number of records");
        return 0;
    }
    return off;
}

/* ---- registers ---- */

static int read_register(const ucontext_t *uc, unsigned dwarf, uint64_t *value) {
#if defined(__x86_64__)
    static const int gregs[17] = {REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI, REG_RBP, REG_RSP, REG_R8,
                                  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP};
    if (dwarf < 17) {
        *value = (uint64_t)uc->uc_mcontext.gregs[gregs[dwarf]];
        return 0;
    }
    if (dwarf >= 17 && dwarf <= 32 && uc->uc_mcontext.fpregs) {
        const uint32_t *e = uc->uc_mcontext.fpregs->_xmm[dwarf - 17].element;
        *value = (uint64_t)e[0] | (uint64_t)e[1] << 32;
        return 0;
    }
    return -1;
#elif defined(__aarch64__)
    if (dwarf <= 30) {
        *value = uc->uc_mcontext.regs[dwarf];
        return 0;
    }
    if (dwarf == 31) {
        *value = uc->uc_mcontext.sp;
        return 0;
    }
    if (dwarf >= 64 && dwarf <= 95) {
        /* Walk the signal frame's records for the FP/SIMD one (struct fpsimd_context). */
        const uint8_t *p = (const uint8_t *)uc->uc_mcontext.__reserved;
        const uint8_t *end = p + sizeof uc->uc_mcontext.__reserved;
        while (p + 8 <= end) {
            uint32_t magic = rd32(p), size = rd32(p + 4);
            if (magic == 0 || size < 8)
                break;
            if (magic == 0x46508001u) { /* FPSIMD_MAGIC: magic, size, fpsr, fpcr, vregs[32] */
                *value = rd64(p + 16 + 16 * (dwarf - 64));
                return 0;
            }
            p += size;
        }
    }
    return -1;
#else
#error "the checker supports x86-64 and AArch64"
#endif
}

static uintptr_t stack_pointer(const ucontext_t *uc) {
#if defined(__x86_64__)
    return (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
#else
    return (uintptr_t)uc->uc_mcontext.sp;
#endif
}

/* `=stored` and `@sym+off` annotations of a value that may be an address. */
static void annotate(const ucontext_t *uc, uint64_t v) {
    uintptr_t sp = stack_pointer(uc);
    uint64_t stored = 0;
    if (v >= sp - 128 && v < stack_top && stack_top - v >= 8) {
        memcpy(&stored, (const void *)(uintptr_t)v, 8);
        put_str("=");
        put_hex(stored);
        return;
    }
    const struct symbol *s = symbol_containing((uintptr_t)v);
    if (s) {
        /* Within the symbol only: its end may be the end of a mapping. */
        uint64_t room = s->addr + s->size - v;
        memcpy(&stored, (const void *)(uintptr_t)v, room < 8 ? room : 8);
        put_str("=");
        put_hex(stored);
        put_str("@");
        put_str(s->name);
        put_str("+");
        put_hex(v - s->addr);
        return;
    }
    for (unsigned k = 0; k < nsections; k++)
        if (v >= sections[k].addr && v - sections[k].addr < sections[k].size) {
            uint64_t room = sections[k].addr + sections[k].size - v;
            memcpy(&stored, (const void *)(uintptr_t)v, room < 8 ? room : 8);
            put_str("=");
            put_hex(stored);
            return;
        }
}

static void report_record(const ucontext_t *uc, const struct record *rec) {
    put_str("H ");
    put_dec(rec->id);
    put_str(" ");
    put_dec(rec->nlocs);
    for (unsigned i = 0; i < rec->nlocs; i++) {
        const uint8_t *l = rec->locs + (size_t)i * rec->loc_stride;
        unsigned kind = l[0], size, reg;
        int32_t offset;
        if (rec->loc_stride == 12) {
            size = rd16(l + 2);
            reg = rd16(l + 4);
            offset = (int32_t)rd32(l + 8);
        } else {
            size = l[1];
            reg = rd16(l + 2);
            offset = (int32_t)rd32(l + 4);
        }
        static const char kinds[] = "?RDICK";
        char head[3] = {kind <= 5 ? kinds[kind] : '?', ':', 0};
        put_str(" ");
        put_str(head);
        put_hex(size);
        put_str(":");
        uint64_t base = 0, v = 0;
        int bad = 0;
        switch (kind) {
        case KIND_REGISTER:
            bad = read_register(uc, reg, &v);
            break;
        case KIND_DIRECT:
            bad = read_register(uc, reg, &base);
            v = base + (uint64_t)(int64_t)offset;
            break;
        case KIND_INDIRECT:
            bad = read_register(uc, reg, &base);
            if (!bad)
                memcpy(&v, (const void *)(uintptr_t)(base + (uint64_t)(int64_t)offset), size < 8 ? size : 8);
            break;
        case KIND_CONSTANT:
            v = (uint64_t)(int64_t)offset;
            break;
        case KIND_CONSTANT_INDEX:
            bad = (uint32_t)offset >= rec->nconsts;
            if (!bad)
                v = rd64(rec->consts + 8 * (size_t)(uint32_t)offset);
            break;
        default:
            bad = 1;
        }
        if (bad) {
            put_str("?");
            continue;
        }
        put_hex(v);
        if (kind == KIND_INDIRECT && size > 8) {
            const uint8_t *bytes = (const uint8_t *)(uintptr_t)(base + (uint64_t)(int64_t)offset);
            uint64_t digest = 0xcbf29ce484222325ull;
            for (size_t i = 0; i < size; i++)
                digest = (digest ^ bytes[i]) * 0x100000001b3ull;
            put_str("#");
            put_hex(digest);
        }
        if (kind == KIND_REGISTER || kind == KIND_DIRECT || kind == KIND_INDIRECT)
            annotate(uc, v);
    }
    put_str("\n");
}

/* ---- breakpoints ---- */

static void write_code(uintptr_t pc, uint32_t value) {
#if defined(__x86_64__)
    *(volatile uint8_t *)pc = (uint8_t)value;
#else
    *(volatile uint32_t *)pc = value;
    __builtin___clear_cache((char *)pc, (char *)pc + 4);
#endif
}

static uint32_t read_code(uintptr_t pc) {
#if defined(__x86_64__)
    return *(volatile uint8_t *)pc;
#else
    return *(volatile uint32_t *)pc;
#endif
}

static void arm(struct site *s) {
#if defined(__x86_64__)
    write_code(s->pc, 0xcc);
#else
    write_code(s->pc, BRK);
#endif
    s->armed = 1;
}

static long site_at(uintptr_t pc) {
    for (unsigned k = 0; k < nsites; k++)
        if (sites[k].pc == pc)
            return k;
    return -1;
}

/* Reports the records of site k; whether any is still under the cap. */
static int hit_site(const ucontext_t *uc, struct site *s) {
    int more = 0;
    for (unsigned r = s->first; r < s->first + s->count; r++) {
        struct record *rec = &records[r];
        if (rec->hits >= CAP_HITS)
            continue;
        report_record(uc, rec);
        rec->hits++;
        total_hits++;
        if (rec->hits == CAP_HITS) {
            put_str("X ");
            put_dec(rec->id);
            put_str("\n");
        } else {
            more = 1;
        }
    }
    flush_line();
    return more;
}

#if defined(__aarch64__)
static int64_t sext(uint64_t v, unsigned bits) {
    return (int64_t)(v << (64 - bits)) >> (64 - bits);
}

/* The addresses that may execute after `insn` at `pc`; returns how many (1 or 2). */
static unsigned next_pcs(const ucontext_t *uc, uintptr_t pc, uint32_t insn, uintptr_t *next) {
    if ((insn & 0x7c000000u) == 0x14000000u) { /* B, BL */
        next[0] = pc + (uintptr_t)(sext(insn & 0x3ffffffu, 26) * 4);
        return 1;
    }
    if ((insn & 0xff000010u) == 0x54000000u || (insn & 0x7e000000u) == 0x34000000u) { /* B.cond, CBZ/CBNZ */
        next[0] = pc + 4;
        next[1] = pc + (uintptr_t)(sext((insn >> 5) & 0x7ffffu, 19) * 4);
        return 2;
    }
    if ((insn & 0x7e000000u) == 0x36000000u) { /* TBZ/TBNZ */
        next[0] = pc + 4;
        next[1] = pc + (uintptr_t)(sext((insn >> 5) & 0x3fffu, 14) * 4);
        return 2;
    }
    uint32_t op = insn & 0xfffffc1fu;
    if (op == 0xd61f0000u || op == 0xd63f0000u || op == 0xd65f0000u) { /* BR, BLR, RET */
        unsigned rn = (insn >> 5) & 31;
        next[0] = rn == 31 ? 0 : (uintptr_t)uc->uc_mcontext.regs[rn];
        return 1;
    }
    next[0] = pc + 4;
    return 1;
}

static void remove_temps(void) {
    while (ntemps > 0) {
        ntemps--;
        write_code(temps[ntemps].pc, temps[ntemps].original);
    }
}
#endif

static void on_trap(int sig, siginfo_t *info, void *context) {
    (void)sig;
    (void)info; /* only x86-64 reads it */
    ucontext_t *uc = context;
#if defined(__x86_64__)
    greg_t *rip = &uc->uc_mcontext.gregs[REG_RIP], *efl = &uc->uc_mcontext.gregs[REG_EFL];
    if (pending >= 0) {
        /* The restored instruction ran: re-plant its int3. The single-step trap may not come on its
           own when the next instruction is itself a planted int3 (two records back to back), so
           whichever trap comes first re-plants, and an int3 trap is then handled as usual. */
        arm(&sites[pending]);
        pending = -1;
        *efl &= ~(greg_t)0x100;
        if (info->si_code == TRAP_TRACE)
            return;
    }
    long k = site_at((uintptr_t)*rip - 1);
    if (k < 0 || !sites[k].armed) {
        report("E", "SIGTRAP not at a planted breakpoint");
        signal(SIGTRAP, SIG_DFL);
        return;
    }
    struct site *s = &sites[k];
    int more = hit_site(uc, s);
    write_code(s->pc, s->original);
    s->armed = 0;
    *rip = (greg_t)s->pc;
    if (more) {
        pending = k;
        *efl |= 0x100;
    }
#else
    uintptr_t pc = (uintptr_t)uc->uc_mcontext.pc;
    int was_temp = 0;
    for (unsigned t = 0; t < ntemps; t++)
        was_temp |= temps[t].pc == pc;
    remove_temps();
    if (pending >= 0) {
        /* Whatever trapped, execution has left the pending site: re-plant it. */
        if (sites[pending].pc != pc)
            arm(&sites[pending]);
        pending = -1;
    }
    long k = site_at(pc);
    if (k < 0 || read_code(pc) != BRK) {
        if (!was_temp) {
            report("E", "SIGTRAP not at a planted breakpoint");
            signal(SIGTRAP, SIG_DFL);
        }
        return; /* a temporary breakpoint: its original instruction is back, run it */
    }
    struct site *s = &sites[k];
    int more = hit_site(uc, s);
    write_code(s->pc, s->original);
    s->armed = 0;
    if (!more)
        return;
    pending = k;
    uintptr_t next[2];
    unsigned n = next_pcs(uc, pc, s->original, next);
    for (unsigned t = 0; t < n; t++) {
        long other = site_at(next[t]);
        int duplicate = t == 1 && next[1] == next[0];
        /* An armed site traps by itself; a next PC equal to this one (a branch to itself) is not
           caught and leaves the site disarmed until some other trap. */
        if (next[t] == 0 || next[t] == pc || duplicate || (other >= 0 && sites[other].armed))
            continue;
        temps[ntemps].pc = next[t];
        temps[ntemps].original = read_code(next[t]);
        ntemps++;
        write_code(next[t], BRK);
    }
#endif
}

/* ---- set-up ---- */

/* Makes every executable PT_LOAD segment writable (code patching, including temporary breakpoints
   in libc on the statically linked AArch64 binaries). */
static int unprotect_text(void) {
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file_data;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(file_data + eh->e_phoff);
    long page = sysconf(_SC_PAGESIZE);
    for (unsigned i = 0; i < eh->e_phnum; i++) {
        if (ph[i].p_type != PT_LOAD || !(ph[i].p_flags & PF_X))
            continue;
        uintptr_t start = ph[i].p_vaddr & ~(uintptr_t)(page - 1);
        uintptr_t end = ph[i].p_vaddr + ph[i].p_memsz;
        if (mprotect((void *)start, end - start, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
            return -1;
    }
    return 0;
}

extern char **environ;

/* What a patched region calls: two arguments in, a result out that the program goes on to use. */
long patchmap_patch_handler(long a, long b) {
    return a * b + 1000;
}

static void patch_region(const char *spec) {
    char *end;
    uint64_t id = strtoull(spec, &end, 10);
    unsigned long bytes = *end == ':' ? strtoul(end + 1, NULL, 10) : 0;
    const struct record *rec = NULL;
    for (unsigned r = 0; r < nrecords; r++)
        if (records[r].id == id)
            rec = &records[r];
#if defined(__x86_64__)
    const unsigned long sequence = 13;
#else
    const unsigned long sequence = 16;
#endif
    if (!rec || bytes < sequence || bytes > 64 || unprotect_text() != 0) {
        report("E", "cannot patch: no such record, a region too small for the call, or read-only text");
        return;
    }
    uint8_t code[64];
    uint64_t target = (uint64_t)(uintptr_t)patchmap_patch_handler;
#if defined(__x86_64__)
    static const uint8_t nop = 0x90;
    unsigned n = 0;
    code[n++] = 0x49; /* movabs r11, target */
    code[n++] = 0xbb;
    memcpy(code + n, &target, 8);
    n += 8;
    code[n++] = 0x41; /* call r11 */
    code[n++] = 0xff;
    code[n++] = 0xd3;
    for (; n < bytes; n++)
        code[n] = nop;
#else
    uint32_t words[16];
    unsigned n = 0;
    words[n++] = 0xd2c00010u | (uint32_t)((target >> 32) & 0xffff) << 5; /* movz x16, #hi, lsl #32 */
    words[n++] = 0xf2a00010u | (uint32_t)((target >> 16) & 0xffff) << 5; /* movk x16, #mid, lsl #16 */
    words[n++] = 0xf2800010u | (uint32_t)(target & 0xffff) << 5;         /* movk x16, #lo */
    words[n++] = 0xd63f0200u;                                            /* blr x16 */
    for (; n * 4 < bytes; n++)
        words[n] = 0xd503201fu;
    memcpy(code, words, n * 4);
#endif
    memcpy((void *)rec->pc, code, bytes);
    __builtin___clear_cache((char *)rec->pc, (char *)rec->pc + bytes);
    report("W", "patched");
}

/* ---- code written at start-up: fixed call targets, register clobbering, an anyregcc handler ---- */

/* Room in the executable's text for the stubs those modes write (made writable with the rest of the
   text): first an 8-byte counter of stub runs, then code and data. Direct branches reach it from any
   region (x86-64 rel32, AArch64 +-128 MB), so no register is needed to get there and back. */
__asm__(".pushsection .text.checker_stubs,\"ax\"\n"
        ".balign 64\n"
        ".globl checker_stubs\n"
        "checker_stubs:\n"
        ".skip 262144\n"
        ".popsection\n");
extern uint8_t checker_stubs[];
#define STUB_AREA 262144u
static size_t stub_used = 64;
static int stubs_installed;

static uint8_t *code_at;

#if defined(__x86_64__)
#define JUMP_BYTES 5u
#else
#define JUMP_BYTES 4u
#endif
__attribute__((unused)) static void emit8(uint8_t b) { *code_at++ = b; }
static void emit32(uint32_t w) { memcpy(code_at, &w, 4); code_at += 4; }
__attribute__((unused)) static void emit64(uint64_t w) { memcpy(code_at, &w, 8); code_at += 8; }

/* Starts a stub of at most `room` bytes; NULL when the area is full. */
static uint8_t *stub_begin(size_t room) {
    if (stub_used + room > STUB_AREA)
        return NULL;
    code_at = checker_stubs + stub_used;
    return code_at;
}

static void stub_end(uint8_t *start) {
    stub_used = (size_t)(code_at - checker_stubs + 15) & ~(size_t)15;
    __builtin___clear_cache((char *)start, (char *)code_at);
}

static const struct record *record_by_id(uint64_t id) {
    for (unsigned r = 0; r < nrecords; r++)
        if (records[r].id == id)
            return &records[r];
    return NULL;
}

static void location(const struct record *rec, unsigned i, unsigned *kind, unsigned *reg, int32_t *offset) {
    const uint8_t *l = rec->locs + (size_t)i * rec->loc_stride;
    *kind = l[0];
    *reg = rd16(l + (rec->loc_stride == 12 ? 4 : 2));
    *offset = (int32_t)rd32(l + (rec->loc_stride == 12 ? 8 : 4));
}

/* Registers as bits: x86-64 GPRs by hardware number 0-15 and xmm0-15 as 16-31; AArch64 x0-x30 as
   0-30 and v0-v31 as 32-63. -1 for a DWARF number that is neither. */
static int reg_bit(unsigned dwarf) {
#if defined(__x86_64__)
    static const int hw[16] = {0, 2, 1, 3, 6, 7, 5, 4, 8, 9, 10, 11, 12, 13, 14, 15};
    if (dwarf < 16)
        return hw[dwarf];
    if (dwarf >= 17 && dwarf <= 32)
        return 16 + (int)(dwarf - 17);
#else
    if (dwarf <= 30)
        return (int)dwarf;
    if (dwarf >= 64 && dwarf <= 95)
        return 32 + (int)(dwarf - 64);
#endif
    return -1;
}

static int is_float_bit(int bit) {
#if defined(__x86_64__)
    return bit >= 16;
#else
    return bit >= 32;
#endif
}

/* A direct jump from `from` to `to`, written at `from`. */
static void write_jump(uint8_t *from, uintptr_t to) {
    code_at = from;
#if defined(__x86_64__)
    emit8(0xe9);
    emit32((uint32_t)(int32_t)((intptr_t)to - (intptr_t)(from + 5)));
#else
    emit32(0x14000000u | ((uint32_t)(((intptr_t)to - (intptr_t)from) / 4) & 0x3ffffffu));
#endif
}

/* Fills [from, from+bytes) with a jump to `to` and nops. */
static void patch_with_jump(uintptr_t from, unsigned long bytes, uintptr_t to) {
    uint8_t *p = (uint8_t *)from;
    write_jump(p, to);
#if defined(__x86_64__)
    for (uint8_t *q = p + 5; q < p + bytes; q++)
        *q = 0x90;
#else
    for (uint8_t *q = p + 4; q + 4 <= p + bytes; q += 4) {
        uint32_t nop = 0xd503201fu;
        memcpy(q, &nop, 4);
    }
#endif
    __builtin___clear_cache((char *)p, (char *)p + bytes);
}

#if defined(__x86_64__)
/* REX.W prefix with R (reg field) and B (r/m field) extensions. */
static void rex_w(unsigned reg, unsigned rm) { emit8((uint8_t)(0x48 | (reg >= 8 ? 4 : 0) | (rm >= 8 ? 1 : 0))); }
/* modrm for [rip + disp32] with `reg`, then the displacement to `target` (`tail` bytes follow it). */
static void rip_operand(unsigned reg, const void *target, unsigned tail) {
    emit8((uint8_t)(0x05 | (reg & 7) << 3));
    emit32((uint32_t)(int32_t)((intptr_t)target - (intptr_t)(code_at + 4 + tail)));
}
#else
static void movz_movk(unsigned rd, uint64_t v) {
    emit32(0xd2800000u | (uint32_t)(v & 0xffff) << 5 | rd);
    for (unsigned hw = 1; hw < 4; hw++)
        emit32(0xf2800000u | hw << 21 | (uint32_t)((v >> (16 * hw)) & 0xffff) << 5 | rd);
}
#endif

/* PATCHMAP_FIX_TARGETS=<id>:<symbol>,...: writes the call sequence to the symbol at the start of each
   record's region (llc-19 writes a garbage address there on AArch64 when a patch point's target is a
   symbol: shared/reference/llc19-errors e09), then checks as usual. IDs without a record (the patch
   point was in code the compiler removed) are skipped. */
static int fix_targets(const char *spec) {
    if (unprotect_text() != 0) {
        report("E", "fix targets: mprotect of the text failed");
        return -1;
    }
    while (*spec) {
        char *end;
        uint64_t id = strtoull(spec, &end, 10);
        if (*end != ':') {
            report("E", "fix targets: bad PATCHMAP_FIX_TARGETS");
            return -1;
        }
        const char *name = end + 1;
        size_t len = strcspn(name, ",");
        const struct record *rec = record_by_id(id);
        const struct symbol *sym = NULL;
        for (unsigned k = 0; k < nsymbols; k++)
            if (strlen(symbols[k].name) == len && memcmp(symbols[k].name, name, len) == 0)
                sym = &symbols[k];
        if (!sym) {
            report("E", "fix targets: no such symbol");
            return -1;
        }
        spec = name + len + (name[len] == ',');
        if (!rec)
            continue; /* the patch point was in code the compiler removed */
        uint64_t target = sym->addr;
        code_at = (uint8_t *)rec->pc;
#if defined(__x86_64__)
        emit8(0x49); /* movabs r11, target; call r11 */
        emit8(0xbb);
        emit64(target);
        emit8(0x41);
        emit8(0xff);
        emit8(0xd3);
#else
        emit32(0xd2c00010u | (uint32_t)((target >> 32) & 0xffff) << 5); /* movz x16, #hi, lsl #32 */
        emit32(0xf2a00010u | (uint32_t)((target >> 16) & 0xffff) << 5); /* movk x16, #mid, lsl #16 */
        emit32(0xf2800010u | (uint32_t)(target & 0xffff) << 5);         /* movk x16, #lo */
        emit32(0xd63f0200u);                                            /* blr x16 */
#endif
        __builtin___clear_cache((char *)rec->pc, (char *)code_at);
    }
    return 0;
}

/* Garbage for register bit `bit`: distinctive, different per register. */
static uint64_t garbage(int bit) { return 0x5eed0bad00000000ull ^ ((uint64_t)bit * 0x0101010101ull) ^ 0x3c3c; }

/* PATCHMAP_CLOBBER=<id>:<bytes>:<result>,...: instead of checking, rewrites each record's region with a
   jump to a stub that counts its run, overwrites with garbage every allocatable register the record
   does not list as a live-out and that is not the patch point's result (<result>: v none, r the C
   convention's integer return register, f its float one, a the record's first location, anyregcc),
   and jumps back to the region's end. A program whose live-outs are honest prints the same. Allocatable:
   x86-64 every GPR but RSP and RBP, xmm0-15; AArch64 x0-x17 and x19-x28, v0-v31 (the low 64 bits).
   PATCHMAP_CLOBBER_LIVE_OUTS=1 clobbers the live-outs too (the negative control). IDs without a
   record (code the compiler removed) are skipped. */
static void clobber_regions(const char *spec) {
    if (unprotect_text() != 0) {
        report("E", "clobber: mprotect of the text failed");
        return;
    }
    while (*spec) {
        char *end;
        uint64_t id = strtoull(spec, &end, 10);
        unsigned long bytes = *end == ':' ? strtoul(end + 1, &end, 10) : 0;
        char result = *end == ':' ? end[1] : 0;
        if (bytes < JUMP_BYTES || !strchr("vrfa", result) || result == 0) {
            report("E", "clobber: a region too small for a jump, or a bad spec");
            return;
        }
        const struct record *rec = record_by_id(id);
        while (*end && *end != ',')
            end++;
        if (!rec) { /* the patch point's code was removed (unreachable or folded) */
            spec = end + (*end == ',');
            continue;
        }
        uint64_t keep = 0; /* register bits left alone */
        const char *ignore = getenv("PATCHMAP_CLOBBER_LIVE_OUTS");
        for (unsigned k = 0; k < (ignore && *ignore == '1' ? 0 : rec->nliveouts); k++) {
            int bit = reg_bit(rd16(rec->liveouts + 4 * k));
            if (bit >= 0)
                keep |= 1ull << bit;
        }
#if defined(__x86_64__)
        keep |= 1ull << 4 | 1ull << 5; /* RSP, RBP */
        if (result == 'r')
            keep |= 1ull << 0;
        if (result == 'f')
            keep |= 1ull << 16;
#else
        keep |= 1ull << 18 | 1ull << 29 | 1ull << 30; /* platform register, FP, LR */
        if (result == 'r')
            keep |= 1ull << 0;
        if (result == 'f')
            keep |= 1ull << 32;
#endif
        if (result == 'a' && rec->nlocs > 0) {
            unsigned kind, reg;
            int32_t offset;
            location(rec, 0, &kind, &reg, &offset);
            int bit = reg_bit(reg);
            if (kind == KIND_REGISTER && bit >= 0)
                keep |= 1ull << bit;
        }
        uint8_t *stub = stub_begin(1024);
        if (!stub) {
            report("E", "clobber: the stub area is full");
            return;
        }
        int source = -1; /* a clobbered GPR whose garbage fills the float registers */
#if defined(__x86_64__)
        emit8(0x48); /* inc qword [rip + counter] */
        emit8(0xff);
        rip_operand(0, checker_stubs, 0);
        for (unsigned g = 0; g < 16; g++) {
            if (keep >> g & 1)
                continue;
            rex_w(0, g); /* movabs g, garbage */
            emit8((uint8_t)(0xb8 + (g & 7)));
            emit64(garbage((int)g));
            source = (int)g;
        }
        for (unsigned x = 0; x < 16; x++) {
            if (keep >> (16 + x) & 1)
                continue;
            emit8(0x66);
            if (source >= 0) { /* movq xmm, source */
                rex_w(x, (unsigned)source);
                emit8(0x0f);
                emit8(0x6e);
                emit8((uint8_t)(0xc0 | (x & 7) << 3 | ((unsigned)source & 7)));
            } else { /* pcmpeqd xmm, xmm */
                if (x >= 8)
                    emit8(0x45);
                emit8(0x0f);
                emit8(0x76);
                emit8((uint8_t)(0xc0 | (x & 7) << 3 | (x & 7)));
            }
        }
#else
        emit32(0xa9bf47f0u); /* stp x16, x17, [sp, #-16]! */
        intptr_t delta = (intptr_t)checker_stubs - (intptr_t)code_at;
        emit32(0x10000010u | (uint32_t)(delta & 3) << 29 | (uint32_t)((delta >> 2) & 0x7ffff) << 5); /* adr x16 */
        emit32(0xf9400211u); /* ldr x17, [x16] */
        emit32(0x91000631u); /* add x17, x17, #1 */
        emit32(0xf9000211u); /* str x17, [x16] */
        emit32(0xa8c147f0u); /* ldp x16, x17, [sp], #16 */
        for (unsigned g = 0; g < 29; g++) {
            if (keep >> g & 1)
                continue;
            movz_movk(g, garbage((int)g));
            source = (int)g;
        }
        for (unsigned v = 0; v < 32; v++) {
            if (keep >> (32 + v) & 1)
                continue;
            if (source >= 0)
                emit32(0x9e670000u | (uint32_t)source << 5 | v); /* fmov dv, source */
            else
                emit32(0x6f07e7e0u | v); /* movi vv.2d, #-1 */
        }
#endif
        write_jump(code_at, rec->pc + bytes);
        stub_end(stub);
        patch_with_jump(rec->pc, bytes, (uintptr_t)stub);
        stubs_installed = 1;
        spec = end + (*end == ',');
    }
    report("W", "clobber stubs installed");
}

/* The weight of argument i in the anyregcc handler's sum (distinct for i < 64). */
__attribute__((unused)) static uint64_t weight(unsigned i) { return (1ull << (i % 8)) + (1ull << (8 + i / 8)); }

/* PATCHMAP_ANYREG=<id>:<nargs>:<result>:<bytes>: instead of checking, rewrites the region of the anyregcc patch
   point <id> with a jump to a handler that reads each argument from the register its record names
   (locations 2 to nargs+1; float registers hold doubles, truncated to integers), computes
   sum(weight(i) * arg[i]) as a 64-bit integer, leaves it in the result register the record names
   (location 1; <result> i: as an integer, d: converted to double), touches nothing else, and jumps
   back to the end of the <bytes>-byte region. */
static void anyreg_handler(const char *spec) {
    char *end;
    uint64_t id = strtoull(spec, &end, 10);
    unsigned nargs = *end == ':' ? (unsigned)strtoul(end + 1, &end, 10) : 0;
    char result = *end == ':' ? end[1] : 0;
    unsigned long bytes = result && end[2] == ':' ? strtoul(end + 3, NULL, 10) : 0;
    const struct record *rec = record_by_id(id);
    if (!rec || rec->nlocs < nargs + 1 || (result != 'i' && result != 'd') || nargs > 64 || bytes < JUMP_BYTES ||
        unprotect_text() != 0) {
        report("E", "anyreg: no such record, too few locations, a bad spec or read-only text");
        return;
    }
    int arg_bit[64], result_bit;
    unsigned kind, reg;
    int32_t offset;
    location(rec, 0, &kind, &reg, &offset);
    result_bit = reg_bit(reg);
    if (kind != KIND_REGISTER || result_bit < 0 || is_float_bit(result_bit) != (result == 'd')) {
        report("E", "anyreg: the result is not in a register of its type");
        return;
    }
    for (unsigned i = 0; i < nargs; i++) {
        location(rec, i + 1, &kind, &reg, &offset);
        arg_bit[i] = reg_bit(reg);
        if (kind != KIND_REGISTER || arg_bit[i] < 0) {
            report("E", "anyreg: an argument is not in a register");
            return;
        }
    }
    uint8_t *stub = stub_begin(4096);
    if (!stub) {
        report("E", "anyreg: the stub area is full");
        return;
    }
#if defined(__x86_64__)
    /* Data first: argument slots, the sum, saved RAX and RCX. */
    uint64_t *slots = (uint64_t *)(void *)code_at;
    code_at += 8 * (nargs + 3);
    uint64_t *sum = slots + nargs, *save_rax = sum + 1, *save_rcx = sum + 2;
    uint8_t *entry = code_at;
    for (unsigned i = 0; i < nargs; i++) {
        if (is_float_bit(arg_bit[i])) { /* movq [slot], xmm */
            unsigned x = (unsigned)arg_bit[i] - 16;
            emit8(0x66);
            if (x >= 8)
                emit8(0x44);
            emit8(0x0f);
            emit8(0xd6);
            rip_operand(x, &slots[i], 0);
        } else { /* mov [slot], gpr */
            unsigned g = (unsigned)arg_bit[i];
            rex_w(g, 0);
            emit8(0x89);
            rip_operand(g, &slots[i], 0);
        }
    }
    emit8(0x48); /* mov [save_rax], rax */
    emit8(0x89);
    rip_operand(0, save_rax, 0);
    emit8(0x48); /* mov [save_rcx], rcx */
    emit8(0x89);
    rip_operand(1, save_rcx, 0);
    emit8(0x31); /* xor eax, eax */
    emit8(0xc0);
    for (unsigned i = 0; i < nargs; i++) {
        if (is_float_bit(arg_bit[i])) { /* cvttsd2si rcx, [slot] */
            emit8(0xf2);
            emit8(0x48);
            emit8(0x0f);
            emit8(0x2c);
        } else { /* mov rcx, [slot] */
            emit8(0x48);
            emit8(0x8b);
        }
        rip_operand(1, &slots[i], 0);
        emit8(0x48); /* imul rcx, rcx, weight */
        emit8(0x69);
        emit8(0xc9);
        emit32((uint32_t)weight(i));
        emit8(0x48); /* add rax, rcx */
        emit8(0x01);
        emit8(0xc8);
    }
    emit8(0x48); /* mov [sum], rax */
    emit8(0x89);
    rip_operand(0, sum, 0);
    emit8(0x48); /* mov rax, [save_rax] */
    emit8(0x8b);
    rip_operand(0, save_rax, 0);
    emit8(0x48); /* mov rcx, [save_rcx] */
    emit8(0x8b);
    rip_operand(1, save_rcx, 0);
    if (result == 'd') { /* cvtsi2sd xmm, qword [sum] */
        unsigned x = (unsigned)result_bit - 16;
        emit8(0xf2);
        rex_w(x, 0);
        emit8(0x0f);
        emit8(0x2a);
        rip_operand(x, sum, 0);
    } else { /* mov gpr, [sum] */
        unsigned g = (unsigned)result_bit;
        rex_w(g, 0);
        emit8(0x8b);
        rip_operand(g, sum, 0);
    }
#else
    uint8_t *entry = code_at;
    unsigned frame = (8 * (nargs + 4) + 15) & ~15u;
    unsigned s16 = nargs, s17 = nargs + 1, sd31 = nargs + 2, ssum = nargs + 3;
    emit32(0xd10003ffu | frame << 10); /* sub sp, sp, #frame */
    for (unsigned i = 0; i < nargs; i++) {
        if (is_float_bit(arg_bit[i]))
            emit32(0xfd0003e0u | i << 10 | (unsigned)(arg_bit[i] - 32)); /* str d, [sp, #8i] */
        else
            emit32(0xf90003e0u | i << 10 | (unsigned)arg_bit[i]); /* str x, [sp, #8i] */
    }
    emit32(0xf90003e0u | s16 << 10 | 16);
    emit32(0xf90003e0u | s17 << 10 | 17);
    emit32(0xfd0003e0u | sd31 << 10 | 31);
    emit32(0xaa1f03f0u); /* mov x16, xzr */
    for (unsigned i = 0; i < nargs; i++) {
        if (is_float_bit(arg_bit[i])) {
            emit32(0xfd4003e0u | i << 10 | 31); /* ldr d31, [sp, #8i] */
            emit32(0x9e7803f1u);                /* fcvtzs x17, d31 */
        } else {
            emit32(0xf94003e0u | i << 10 | 17); /* ldr x17, [sp, #8i] */
        }
        emit32(0x8b110210u | (i % 8) << 10);       /* add x16, x16, x17, lsl #(i % 8) */
        emit32(0x8b110210u | (8 + i / 8) << 10);   /* add x16, x16, x17, lsl #(8 + i / 8) */
    }
    if (result == 'd') {
        emit32(0x9e62021fu); /* scvtf d31, x16 */
        emit32(0xfd0003e0u | ssum << 10 | 31);
    } else {
        emit32(0xf90003e0u | ssum << 10 | 16);
    }
    emit32(0xf94003e0u | s16 << 10 | 16);
    emit32(0xf94003e0u | s17 << 10 | 17);
    emit32(0xfd4003e0u | sd31 << 10 | 31);
    if (result == 'd')
        emit32(0xfd4003e0u | ssum << 10 | (unsigned)(result_bit - 32));
    else
        emit32(0xf94003e0u | ssum << 10 | (unsigned)result_bit);
    emit32(0x910003ffu | frame << 10); /* add sp, sp, #frame */
#endif
    write_jump(code_at, rec->pc + bytes);
    stub_end(stub);
    patch_with_jump(rec->pc, bytes, (uintptr_t)entry);
    report("W", "anyreg handler installed");
}

__attribute__((constructor)) static void checker_start(void) {
    const char *path = getenv("PATCHMAP_CHECKER_OUT");
    if (path) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd >= 0)
            out_fd = fd;
    }
    if (read_self() != 0 || file_size < sizeof(Elf64_Ehdr) || memcmp(file_data, ELFMAG, SELFMAG) != 0) {
        report("E", "cannot read /proc/self/exe as ELF");
        return;
    }
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file_data;
    if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_type != ET_EXEC) {
        /* Addresses are taken from the file as they are: a PIE would need its load bias. */
        report("E", "not an ELF64 ET_EXEC (link with -no-pie or -static)");
        return;
    }
    unsigned shnum = 0;
    const Elf64_Shdr *sh = section_headers(&shnum);
    if (!sh || eh->e_shstrndx >= shnum) {
        report("E", "no section headers");
        return;
    }
    load_symbols(sh, shnum);
    const char *names = (const char *)(file_data + sh[eh->e_shstrndx].sh_offset);
    const Elf64_Shdr *map = NULL;
    for (unsigned i = 0; i < shnum; i++)
        if (strcmp(names + sh[i].sh_name, ".llvm_stackmaps") == 0)
            map = &sh[i];
    if (!map) {
        report("E", "no .llvm_stackmaps section");
        return;
    }
    /* The mapped copy: record locations point into it. */
    const uint8_t *data = (const uint8_t *)(uintptr_t)map->sh_addr;
    size_t off = 0;
    while (off + 16 <= map->sh_size) {
        if (data[off] == 0) { /* padding between linked blobs */
            off += 8;
            continue;
        }
        size_t n = parse_blob(data + off, map->sh_size - off);
        if (n == 0) {
            report("E", "malformed stack map blob");
            return;
        }
        off = (off + n + 7) & ~(size_t)7;
    }

    const char *fix = getenv("PATCHMAP_FIX_TARGETS");
    if (fix && fix_targets(fix) != 0)
        return;
    const char *clobber = getenv("PATCHMAP_CLOBBER");
    if (clobber) {
        clobber_regions(clobber);
        return;
    }
    const char *anyreg = getenv("PATCHMAP_ANYREG");
    if (anyreg) {
        anyreg_handler(anyreg);
        return;
    }

    /* Patch mode (PATCHMAP_PATCH=<id>:<bytes>): instead of checking, rewrite that record's region with
       a call to patchmap_patch_handler followed by nops, as a runtime patches a patch point. */
    const char *patch = getenv("PATCHMAP_PATCH");
    if (patch) {
        patch_region(patch);
        return;
    }

    for (char **e = environ; e && *e; e++) {
        uintptr_t end = (uintptr_t)*e + strlen(*e) + 1;
        if (end > stack_top)
            stack_top = end;
    }

    for (unsigned r = 0; r < nrecords; r++) {
        put_str("P ");
        put_dec(records[r].id);
        put_str(" ");
        put_hex(records[r].pc);
        put_str(" ");
        put_dec(records[r].nlocs);
        put_str("\n");
    }
    flush_line();

    /* Group records by address, keeping section order among records that share one (stable: an
       insertion sort, the lists are short). */
    for (unsigned i = 1; i < nrecords; i++) {
        struct record tmp = records[i];
        unsigned j = i;
        while (j > 0 && records[j - 1].pc > tmp.pc) {
            records[j] = records[j - 1];
            j--;
        }
        records[j] = tmp;
    }
    sites = calloc(nrecords + 1, sizeof *sites);
    if (!sites)
        return;
    for (unsigned r = 0; r < nrecords; r++) {
        if (nsites > 0 && sites[nsites - 1].pc == records[r].pc) {
            sites[nsites - 1].count++;
            continue;
        }
        sites[nsites].pc = records[r].pc;
        sites[nsites].first = r;
        sites[nsites].count = 1;
        nsites++;
    }

    if (unprotect_text() != 0) {
        report("E", "mprotect of the text failed");
        return;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_trap;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGTRAP, &sa, NULL) != 0) {
        report("E", "sigaction failed");
        return;
    }
    for (unsigned k = 0; k < nsites; k++) {
        sites[k].original = read_code(sites[k].pc);
        arm(&sites[k]);
    }
}

__attribute__((destructor)) static void checker_end(void) {
    if (stubs_installed) {
        uint64_t runs;
        memcpy(&runs, checker_stubs, 8);
        put_str("W stub runs ");
        put_dec(runs);
        put_str("\n");
    }
    put_str("Q ");
    put_dec(total_hits);
    put_str("\n");
    flush_line();
}
