// C++ shapes clang (as in Xcode) emits: in-class member definitions, lambdas, nested
// templates (spelled `allocator<int>>` by LLVM, `allocator<int> >` by GNU), a template
// argument holding an expression (`a::value && !b::value`), and an extern "C"
// function declared inside a namespace (clang puts its definition at unit level; the
// shape with the definition inside the namespace DIE is in tools/units.py).
// No standard headers: there is no libc++ for Apple targets on the build machine.
extern "C" int shapes_sink(int);
extern "C" void shapes_run_block(int (^block)(int));

namespace shapes {
namespace __1 {

template <class T> struct allocator {
    int bias() const { return 3; }
};

template <class T, class Alloc = allocator<T>>
class vector {
public:
    // In-class definitions: one kept out of line, one always inlined into it.
    __attribute__((noinline)) int push(T value) {
        count_ = grow(count_) + static_cast<int>(value);
        return shapes_sink(count_);
    }
    __attribute__((always_inline)) int grow(int n) { return n * 2 + alloc_.bias(); }

private:
    int count_ = 0;
    Alloc alloc_;
};

} // namespace __1

template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { typedef T type; };
template <class T> struct is_small { static const bool value = sizeof(T) <= 4; };
template <class T> struct is_pointer { static const bool value = false; };
template <class T> struct is_pointer<T *> { static const bool value = true; };

// A template argument that is an expression: the demanglers disagree on its spelling.
template <class T>
__attribute__((noinline)) typename enable_if<is_small<T>::value && !is_pointer<T>::value, int>::type
measure(T value) {
    return shapes_sink(static_cast<int>(value) + 1);
}

template <class F>
__attribute__((noinline)) int apply(F f, int x) { return f(x) + 1; }

struct Counter {
    int total = 0;
    // A member function defined in the class, calling lambdas.
    __attribute__((noinline)) int run(int n) {
        auto twice = [this](int v) __attribute__((noinline)) { total += v; return shapes_sink(v * 2); };
        auto inlined = [](int v) __attribute__((always_inline)) { return v + 7; };
        return apply(twice, n) + inlined(n) + total;
    }
};

// A block inside a C++ function: `invocation function for block in shapes::schedule(int)`
// (symbol `___ZN6shapes8scheduleEi_block_invoke`).
__attribute__((noinline)) int schedule(int n) {
    shapes_run_block(^int(int v) { return shapes_sink(v + n); });
    return n;
}

} // namespace shapes

namespace google_breakpad {
// Declared extern "C" inside a namespace: the symbol is `_catch_exception_raise_state`,
// and atos / llvm-symbolizer print `catch_exception_raise_state`, not a qualified name.
extern "C" __attribute__((noinline)) int catch_exception_raise_state(int port) {
    return shapes_sink(port ^ 0x5a);
}
} // namespace google_breakpad

extern "C" int shapes_cxx_entry(int n) {
    shapes::__1::vector<int> numbers;
    shapes::Counter counter;
    return numbers.push(n) + counter.run(n) + shapes::measure<short>(static_cast<short>(n)) +
           google_breakpad::catch_exception_raise_state(n) + shapes::schedule(n);
}
