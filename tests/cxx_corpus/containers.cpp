// std::vector, std::string, std::map and algorithms.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

int main() {
    std::vector<std::string> words = {"pear", "apple", "fig", "banana", "apple", "cherry", "fig", "apple"};
    std::map<std::string, int> counts;
    for (const auto &w : words) counts[w]++;
    for (const auto &[w, n] : counts) std::printf("%s=%d\n", w.c_str(), n);
    std::sort(words.begin(), words.end(), [](const std::string &a, const std::string &b) {
        return a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    words.erase(std::unique(words.begin(), words.end()), words.end());
    std::string joined;
    for (const auto &w : words) joined += w + ",";
    std::printf("%s\n", joined.c_str());
    std::vector<int> v;
    for (int i = 0; i < 1000; i++) v.push_back((i * 7919) % 1013);
    std::nth_element(v.begin(), v.begin() + 500, v.end());
    std::printf("median %d, max %d\n", v[500], *std::max_element(v.begin(), v.end()));
    std::string s = "Hello, World";
    std::reverse(s.begin(), s.end());
    std::transform(s.begin(), s.end(), s.begin(), [](char c) { return c >= 'a' && c <= 'z' ? c - 32 : c; });
    std::printf("%s %zu\n", s.c_str(), s.find("OLL"));
    return static_cast<int>(counts.size());
}
