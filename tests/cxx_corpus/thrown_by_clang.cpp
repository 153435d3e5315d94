// Exceptions thrown in clang's code (thrown_by_clang.peer.cpp), unwinding through patchmap's
// frames with destructors to run, caught here.
#include <cstdio>
#include <stdexcept>
#include "thrown_by_clang.h"

struct Counter {
    int &n;
    explicit Counter(int &n) : n(n) {}
    ~Counter() { n++; }
};

int cleanups;

int middle(int x) {
    Counter c(cleanups);
    return peer_parse(x) * 2;
}

int main() {
    int ok = 0;
    for (int x : {4, -1, 12, 100, 7}) {
        try {
            std::printf("middle(%d) = %d\n", x, middle(x));
            ok++;
        } catch (const ParseError &e) {
            std::printf("parse error %d: %s\n", e.position, e.what());
        } catch (const std::exception &e) {
            std::printf("exception: %s\n", e.what());
        }
    }
    std::printf("ok %d cleanups %d\n", ok, cleanups);
    return ok;
}
