// Virtual dispatch through a base pointer, a pure virtual interface and virtual destructors.
#include <cstdio>
#include <memory>
#include <vector>

struct Shape {
    virtual ~Shape() { std::printf("~Shape\n"); }
    virtual double area() const = 0;
    virtual const char *name() const { return "shape"; }
};
struct Rect : Shape {
    double w, h;
    Rect(double w, double h) : w(w), h(h) {}
    double area() const override { return w * h; }
    const char *name() const override { return "rect"; }
    ~Rect() override { std::printf("~Rect %g\n", w); }
};
struct Square : Rect {
    explicit Square(double s) : Rect(s, s) {}
    const char *name() const override { return "square"; }
};
struct Circle : Shape {
    double r;
    explicit Circle(double r) : r(r) {}
    double area() const override { return 3.0 * r * r; }
};

int main() {
    std::vector<std::unique_ptr<Shape>> shapes;
    shapes.push_back(std::make_unique<Rect>(2, 3));
    shapes.push_back(std::make_unique<Square>(4));
    shapes.push_back(std::make_unique<Circle>(1.5));
    double total = 0;
    for (const auto &s : shapes) {
        std::printf("%s %.2f\n", s->name(), s->area());
        total += s->area();
    }
    std::printf("total %.2f\n", total);
    return static_cast<int>(total) % 7;
}
