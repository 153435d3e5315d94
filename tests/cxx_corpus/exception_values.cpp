// Exceptions of many types: ints, doubles, C strings, enums, structs by value; catch(...) and
// std::exception_ptr carried out of a handler and rethrown later.
#include <cstdio>
#include <exception>
#include <stdexcept>

enum class Color { Red, Green };
struct Point { int x, y; };

void raise(int k) {
    switch (k) {
    case 0: throw 17;
    case 1: throw 2.5;
    case 2: throw "c string";
    case 3: throw Color::Green;
    case 4: throw Point{3, 4};
    case 5: throw 'c';
    default: throw std::overflow_error("overflow");
    }
}

std::exception_ptr saved;

int main() {
    for (int k = 0; k < 7; k++) {
        try {
            raise(k);
        } catch (int v) {
            std::printf("int %d\n", v);
        } catch (double v) {
            std::printf("double %g\n", v);
        } catch (const char *s) {
            std::printf("string %s\n", s);
        } catch (Color c) {
            std::printf("color %d\n", static_cast<int>(c));
        } catch (Point p) {
            std::printf("point %d\n", p.x * p.y);
        } catch (...) {
            std::printf("other, saved\n");
            saved = std::current_exception();
        }
    }
    try {
        if (saved) std::rethrow_exception(saved);
    } catch (const std::exception &e) {
        std::printf("rethrown later: %s\n", e.what());
    }
    return 0;
}
