// C11 atomics on shared runtime state: fetch-and-op, compare-and-swap loops, flags, fences.
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

static _Atomic long counter;
static _Atomic unsigned flags;
static atomic_flag lock = ATOMIC_FLAG_INIT;
static _Atomic(double) scale = 1.5;

static long increment_if_below(long limit) {
    long seen = atomic_load_explicit(&counter, memory_order_relaxed);
    while (seen < limit) {
        if (atomic_compare_exchange_weak(&counter, &seen, seen + 1)) return seen + 1;
    }
    return -1;
}

int main(void) {
    for (int i = 0; i < 10; i++) increment_if_below(7);
    atomic_fetch_or(&flags, 1u << 3);
    atomic_fetch_or(&flags, 1u << 5);
    atomic_fetch_and(&flags, ~(1u << 3));
    unsigned old = atomic_fetch_xor(&flags, 0xffu);
    bool was_set = atomic_flag_test_and_set(&lock);
    bool now_set = atomic_flag_test_and_set(&lock);
    atomic_flag_clear(&lock);
    atomic_thread_fence(memory_order_seq_cst);
    double d = atomic_load(&scale);
    atomic_store(&scale, d * 4);
    long ex = atomic_exchange(&counter, 100);
    printf("counter %ld -> %ld, flags %u -> %u, lock %d %d, scale %.2f\n", ex, atomic_load(&counter), old,
           atomic_load(&flags), was_set, now_set, atomic_load(&scale));
    return (int)ex;
}
