// C++ without standard headers: a class hierarchy, a template and inlined members.
namespace dm {
struct Shape {
    virtual ~Shape() {}
    virtual int area(int size) const = 0;
};

struct Square : Shape {
    int area(int size) const override { return scaled(size) * scaled(size); }
    static inline int scaled(int size) { return size * 2 + 1; }
};

struct Triangle : Shape {
    int area(int size) const override { return half(size * size); }
    static inline int half(int value) { return value / 2; }
};

template <typename T> inline T accumulate(const T *values, int count) {
    T total = 0;
    for (int index = 0; index < count; ++index) total += values[index];
    return total;
}

__attribute__((noinline)) int measure(const Shape &shape, int size) {
    int sizes[3] = {size, size + 1, size + 2};
    return shape.area(accumulate(sizes, 3));
}
}  // namespace dm

extern "C" int dm_shapes_area(int kind, int size) {
    dm::Square square;
    dm::Triangle triangle;
    if (kind & 1) return dm::measure(square, size);
    return dm::measure(triangle, size);
}
