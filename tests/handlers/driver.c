/* The AArch64 side of tests/runtime/handlers.rs, under qemu-aarch64: a static executable of this
 * driver, a program compiled by patchmap and its handlers (one explicitcc function per record,
 * built by patchmap::handlers). At start the driver writes the calls the test computed from the
 * linked executable (the library's call sequence to each handler) at each site, as a runtime
 * patches code: the page made writable, the bytes copied, the instruction cache flushed. Then it
 * runs the program; every handler call lands in `sink`, which logs the record and its values.
 *
 * driver PATCHES LOG kernel|program: PATCHES holds one "address length hex-bytes" line per site. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static FILE *log_file;

void sink(uint64_t context, uint64_t record, const uint64_t *values, uint64_t count) {
    (void)context;
    fprintf(log_file, "%llu", (unsigned long long)record);
    for (uint64_t i = 0; i < count; i++)
        fprintf(log_file, " %llx", (unsigned long long)values[i]);
    fputc('\n', log_file);
}

int64_t kernel(int64_t n, const int64_t *weights) __attribute__((weak));
int program_main(void) __attribute__((weak));

static void patch(uintptr_t address, size_t length, const unsigned char *code) {
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t start = address & ~(page - 1), end = (address + length + page - 1) & ~(page - 1);
    if (mprotect((void *)start, end - start, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) {
        perror("mprotect");
        exit(3);
    }
    memcpy((void *)address, code, length);
    mprotect((void *)start, end - start, PROT_READ | PROT_EXEC);
    __builtin___clear_cache((char *)address, (char *)address + length);
}

static void apply(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        exit(2);
    }
    unsigned long long address, length;
    char hex[2 * 64 + 1];
    while (fscanf(f, "%llx %llu %128s", &address, &length, hex) == 3) {
        unsigned char code[64];
        if (length > sizeof code || strlen(hex) != 2 * length) {
            fprintf(stderr, "bad patch line\n");
            exit(2);
        }
        for (unsigned long long i = 0; i < length; i++) {
            unsigned byte;
            sscanf(hex + 2 * i, "%2x", &byte);
            code[i] = (unsigned char)byte;
        }
        patch((uintptr_t)address, (size_t)length, code);
    }
    fclose(f);
}

int main(int argc, char **argv) {
    if (argc != 4)
        return 2;
    log_file = fopen(argv[2], "w");
    if (!log_file)
        return 2;
    apply(argv[1]);
    int status;
    if (strcmp(argv[3], "kernel") == 0 && kernel) {
        int64_t weights[8];
        for (int k = 0; k < 8; k++)
            weights[k] = k * 1000003LL - 4000000LL;
        printf("result %lld\n", (long long)kernel(40, weights));
        status = 0;
    } else if (strcmp(argv[3], "program") == 0 && program_main) {
        status = program_main();
    } else {
        return 2;
    }
    fflush(stdout);
    fclose(log_file);
    return status;
}
