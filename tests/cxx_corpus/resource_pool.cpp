// A pool of resources handed out by RAII handles (move-only), released in reverse order, with
// exceptions thrown while handles are alive.
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

class Pool {
    std::vector<int> free_ids;
    int released = 0;

  public:
    explicit Pool(int n) {
        for (int i = n; i > 0; i--) free_ids.push_back(i);
    }
    class Handle {
        Pool *pool;
        int id;

      public:
        Handle(Pool *p, int i) : pool(p), id(i) {}
        Handle(Handle &&o) noexcept : pool(std::exchange(o.pool, nullptr)), id(o.id) {}
        Handle(const Handle &) = delete;
        ~Handle() {
            if (pool) pool->give_back(id);
        }
        int get() const { return id; }
    };
    Handle take() {
        if (free_ids.empty()) throw std::runtime_error("pool exhausted");
        int id = free_ids.back();
        free_ids.pop_back();
        return Handle(this, id);
    }
    void give_back(int id) {
        std::printf("release %d\n", id);
        released++;
        free_ids.push_back(id);
    }
    int available() const { return static_cast<int>(free_ids.size()); }
    int total_released() const { return released; }
};

int use(Pool &pool, int want) {
    std::vector<Pool::Handle> held;
    int sum = 0;
    for (int i = 0; i < want; i++) {
        held.push_back(pool.take());
        sum += held.back().get();
    }
    return sum;
}

int main() {
    Pool pool(4);
    for (int want : {2, 4, 6, 3}) {
        try {
            std::printf("use(%d) = %d\n", want, use(pool, want));
        } catch (const std::exception &e) {
            std::printf("use(%d) failed: %s, %d available\n", want, e.what(), pool.available());
        }
    }
    auto shared = std::make_shared<Pool::Handle>(pool.take());
    auto copy = shared;
    std::printf("shared %d uses %ld\n", copy->get(), shared.use_count());
    shared.reset();
    copy.reset();
    std::printf("released %d available %d\n", pool.total_released(), pool.available());
    return 0;
}
