// Exceptions thrown in patchmap's code, crossing clang's frames (caught_by_clang.peer.cpp) that
// catch, rethrow and clean up on the way.
#include <cstdio>
#include <string>

int peer_guarded(int (*callback)(int), int arg);
int peer_passthrough(int (*callback)(int), int arg);

struct Failure {
    std::string why;
    int value;
};

int risky(int x) {
    std::string tag = "risky" + std::to_string(x);
    if (x % 2) throw Failure{tag, x};
    if (x == 4) throw 4.5;
    return x * 10;
}

int main() {
    for (int x = 0; x < 6; x++) std::printf("guarded(%d) = %d\n", x, peer_guarded(risky, x));
    for (int x = 1; x < 5; x++) {
        try {
            std::printf("passthrough(%d) = %d\n", x, peer_passthrough(risky, x));
        } catch (const Failure &f) {
            std::printf("main caught %s %d\n", f.why.c_str(), f.value);
        } catch (double d) {
            std::printf("main caught double %g\n", d);
        }
    }
    return 0;
}
