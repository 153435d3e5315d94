// _Thread_local and __thread variables: each thread its own copy, initialised and zeroed.
#include <pthread.h>
#include <stdio.h>

static _Thread_local int counter = 5;
static __thread long history[4];
_Thread_local int visible = 100;

static void *work(void *arg) {
    long step = (long)arg;
    for (int i = 0; i < 10; i++) {
        counter += (int)step;
        history[i % 4] += counter;
    }
    visible += (int)step;
    return (void *)(long)(counter + history[1] + visible);
}

int main(void) {
    pthread_t threads[3];
    void *results[3];
    for (long t = 0; t < 3; t++) pthread_create(&threads[t], 0, work, (void *)(t + 2));
    for (int t = 0; t < 3; t++) pthread_join(threads[t], &results[t]);
    work((void *)1L);
    for (int t = 0; t < 3; t++) printf("thread %d: %ld\n", t, (long)results[t]);
    printf("main: counter %d history %ld %ld visible %d\n", counter, history[0], history[3], visible);
    return counter;
}
