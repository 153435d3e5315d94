// Destructors of locals run while an exception unwinds through several frames.
#include <cstdio>
#include <stdexcept>
#include <string>

static int depth_log[16];
static int logged;

struct Guard {
    std::string name;
    explicit Guard(std::string n) : name(std::move(n)) { std::printf("enter %s\n", name.c_str()); }
    ~Guard() { std::printf("leave %s\n", name.c_str()); }
};

int descend(int depth, int fail_at) {
    Guard g("level" + std::to_string(depth));
    depth_log[logged++ % 16] = depth;
    if (depth == fail_at) throw std::runtime_error("failed at " + std::to_string(depth));
    if (depth == 5) return depth;
    return descend(depth + 1, fail_at) + 1;
}

int main() {
    for (int fail_at : {9, 3, 0}) {
        try {
            std::printf("result %d\n", descend(0, fail_at));
        } catch (const std::runtime_error &e) {
            std::printf("caught: %s\n", e.what());
        }
    }
    std::printf("logged %d\n", logged);
    return 0;
}
