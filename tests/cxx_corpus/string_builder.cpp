// std::string operations and an exception thrown from a constructor mid-way through building an
// object: the members built so far are destroyed.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

struct Part {
    std::string label;
    explicit Part(const std::string &l) : label(l) {
        if (l.find('!') != std::string::npos) throw std::invalid_argument("bad part " + l);
        std::printf("built %s\n", label.c_str());
    }
    ~Part() { std::printf("destroyed %s\n", label.c_str()); }
};

struct Assembly {
    Part first, second, third;
    Assembly(const char *a, const char *b, const char *c) : first(a), second(b), third(c) {}
};

std::string shout(std::string s) {
    for (auto &c : s)
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    return s + "!";
}

int main() {
    std::vector<std::string> made;
    const char *specs[][3] = {{"a", "b", "c"}, {"x", "y!", "z"}, {"p", "q", "r!"}};
    for (auto &spec : specs) {
        try {
            Assembly as(spec[0], spec[1], spec[2]);
            made.push_back(as.first.label + as.second.label + as.third.label);
        } catch (const std::invalid_argument &e) {
            std::printf("failed: %s\n", e.what());
        }
    }
    std::string all;
    for (auto &m : made) all += shout(m);
    std::printf("%s %zu\n", all.c_str(), all.size());
    std::string text = "the quick brown fox jumps over the lazy dog";
    size_t pos = 0, count = 0;
    while ((pos = text.find("the", pos)) != std::string::npos) { count++; pos += 3; }
    std::printf("%zu %s\n", count, text.substr(10, 9).c_str());
    return 0;
}
