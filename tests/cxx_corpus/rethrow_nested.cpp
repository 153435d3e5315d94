// Nested try blocks, rethrow with `throw;`, translation into another exception, catch(...).
#include <cstdio>
#include <stdexcept>
#include <string>

int attempts;

void work(int n) {
    attempts++;
    if (n % 3 == 0) throw std::invalid_argument("multiple of three: " + std::to_string(n));
    if (n % 5 == 0) throw n;
}

int layered(int n) {
    try {
        try {
            work(n);
            return n;
        } catch (const std::invalid_argument &e) {
            std::printf("inner saw %s\n", e.what());
            throw;
        } catch (int v) {
            throw std::runtime_error("translated " + std::to_string(v));
        }
    } catch (const std::logic_error &e) {
        std::printf("outer logic %s\n", e.what());
        return -1;
    } catch (...) {
        std::printf("outer other\n");
        try {
            throw;
        } catch (const std::exception &e) {
            std::printf("rethrown %s\n", e.what());
        }
        return -2;
    }
}

int main() {
    int total = 0;
    for (int n = 1; n <= 10; n++) total += layered(n);
    std::printf("total %d attempts %d\n", total, attempts);
    return 0;
}
