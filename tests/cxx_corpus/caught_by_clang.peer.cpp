// Compiled by clang++ in every case: the catcher for caught_by_clang.cpp.
#include <cstdio>
#include <string>

struct Failure {
    std::string why;
    int value;
};

struct Note {
    const char *what;
    ~Note() { std::printf("peer cleanup %s\n", what); }
};

int peer_guarded(int (*callback)(int), int arg) {
    try {
        return callback(arg);
    } catch (const Failure &f) {
        std::printf("peer caught %s\n", f.why.c_str());
        return -f.value;
    } catch (...) {
        std::printf("peer caught something\n");
        return -100;
    }
}

int peer_passthrough(int (*callback)(int), int arg) {
    Note n{"passthrough"};
    try {
        return callback(arg) + 1;
    } catch (const Failure &) {
        std::printf("peer rethrows\n");
        throw;
    }
}
