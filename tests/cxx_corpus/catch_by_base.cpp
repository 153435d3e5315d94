// Catch clauses matched by base class, by reference and pointer, in order.
#include <cstdio>
#include <exception>
#include <stdexcept>

struct AppError : std::exception {
    int code;
    explicit AppError(int c) : code(c) {}
    const char *what() const noexcept override { return "app error"; }
};
struct IoError : AppError {
    using AppError::AppError;
    const char *what() const noexcept override { return "io error"; }
};
struct Unrelated {};

void raise(int kind) {
    switch (kind) {
    case 0: throw IoError(5);
    case 1: throw AppError(7);
    case 2: throw std::out_of_range("index");
    case 3: throw Unrelated{};
    case 4: throw new IoError(9);
    default: break;
    }
}

int classify(int kind) {
    try {
        raise(kind);
        return 0;
    } catch (const IoError &e) {
        std::printf("io %d %s\n", e.code, e.what());
        return 1;
    } catch (const AppError &e) {
        std::printf("app %d %s\n", e.code, e.what());
        return 2;
    } catch (const std::logic_error &e) {
        std::printf("logic %s\n", e.what());
        return 3;
    } catch (AppError *e) {
        std::printf("pointer %d\n", e->code);
        delete e;
        return 4;
    } catch (...) {
        std::printf("something else\n");
        return 5;
    }
}

int main() {
    int sum = 0;
    for (int k = 0; k < 6; k++) sum = sum * 10 + classify(k);
    std::printf("%d\n", sum);
    return sum % 100;
}
