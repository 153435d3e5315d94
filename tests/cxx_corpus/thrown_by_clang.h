#include <stdexcept>
struct ParseError : std::runtime_error {
    int position;
    ParseError(const char *m, int p) : std::runtime_error(m), position(p) {}
};
int peer_parse(int x);
