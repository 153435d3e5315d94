// An interpreter for a small stack language: classes, std::vector as the stack, std::map of
// words, exceptions for errors (stack underflow, unknown word, division by zero).
#include <cstdio>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

class Machine {
    std::vector<long> stack;
    std::map<std::string, std::function<void()>> words;

    long pop() {
        if (stack.empty()) throw std::underflow_error("stack underflow");
        long v = stack.back();
        stack.pop_back();
        return v;
    }

  public:
    Machine() {
        words["+"] = [this] { long b = pop(), a = pop(); stack.push_back(a + b); };
        words["-"] = [this] { long b = pop(), a = pop(); stack.push_back(a - b); };
        words["*"] = [this] { long b = pop(), a = pop(); stack.push_back(a * b); };
        words["/"] = [this] {
            long b = pop(), a = pop();
            if (b == 0) throw std::domain_error("division by zero");
            stack.push_back(a / b);
        };
        words["dup"] = [this] { long a = pop(); stack.push_back(a); stack.push_back(a); };
        words["swap"] = [this] { long b = pop(), a = pop(); stack.push_back(b); stack.push_back(a); };
    }

    long run(const std::string &program) {
        stack.clear();
        std::istringstream in(program);
        std::string word;
        while (in >> word) {
            auto it = words.find(word);
            if (it != words.end()) {
                it->second();
            } else if (!word.empty() && (isdigit(word[0]) || (word[0] == '-' && word.size() > 1))) {
                stack.push_back(std::stol(word));
            } else {
                throw std::invalid_argument("unknown word '" + word + "'");
            }
        }
        return pop();
    }
};

int main() {
    Machine m;
    const char *programs[] = {"2 3 + 4 *", "10 dup * 7 -", "1 0 /", "5 +", "3 frob", "100 7 swap / -3 *", ""};
    int errors = 0;
    for (const char *p : programs) {
        try {
            std::printf("[%s] = %ld\n", p, m.run(p));
        } catch (const std::exception &e) {
            errors++;
            std::printf("[%s] error: %s\n", p, e.what());
        }
    }
    return errors;
}
