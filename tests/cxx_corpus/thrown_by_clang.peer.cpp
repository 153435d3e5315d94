// Compiled by clang++ in every case: the thrower for thrown_by_clang.cpp.
#include <stdexcept>
#include "thrown_by_clang.h"

int peer_parse(int x) {
    if (x < 0) throw ParseError("negative", x);
    if (x > 50) throw std::length_error("too long");
    return x + 1;
}
