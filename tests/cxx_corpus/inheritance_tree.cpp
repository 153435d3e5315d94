// Multiple and virtual inheritance, dynamic_cast, typeid and catching by a second base.
#include <cstdio>
#include <typeinfo>

struct Named { virtual ~Named() = default; virtual const char *name() const = 0; };
struct Scored { virtual ~Scored() = default; virtual int score() const { return 0; } };
struct Player : Named, Scored {
    int points;
    explicit Player(int p) : points(p) {}
    const char *name() const override { return "player"; }
    int score() const override { return points; }
};
struct Captain : Player {
    using Player::Player;
    const char *name() const override { return "captain"; }
    int score() const override { return points * 2; }
};
struct Base { int b = 1; virtual ~Base() = default; };
struct Left : virtual Base { int l = 2; };
struct Right : virtual Base { int r = 3; };
struct Diamond : Left, Right { int d = 4; };

int main() {
    Captain c(21);
    Player p(5);
    Named *names[] = {&c, &p};
    for (Named *n : names) {
        Scored *s = dynamic_cast<Scored *>(n);
        std::printf("%s %d %s\n", n->name(), s ? s->score() : -1, dynamic_cast<Captain *>(n) ? "captain" : "-");
    }
    Diamond d;
    Base *b = &d;
    d.b = 10;
    std::printf("%d %d %d %d\n", b->b, d.l, d.r, dynamic_cast<Diamond *>(b) != nullptr);
    try {
        throw Captain(8);
    } catch (const Scored &s) {
        std::printf("caught by second base: %d\n", s.score());
    }
    try {
        throw Player(3);
    } catch (const Named &n) {
        std::printf("caught by first base: %s\n", n.name());
    }
    std::printf("%d\n", typeid(*names[0]) == typeid(Captain));
    return 0;
}
