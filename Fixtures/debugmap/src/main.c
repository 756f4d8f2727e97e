// The app's entry: calls into every object and the static library, so each function is
// linked and mapped. Inlined helpers give the lookups inline chains.
int dm_shapes_area(int kind, int size);
int dm_greeter_greet(int times);
int dm_math_checksum(const unsigned char *bytes, int count);
int dm_text_measure(const char *text);

static inline int dm_clamp(int value, int low, int high) {
    if (value < low) return low;
    if (value > high) return high;
    return value;
}

__attribute__((noinline)) int dm_run_scenario(int which) {
    static const unsigned char payload[] = {1, 2, 3, 4, 5, 6, 7, 8};
    int total = dm_clamp(which, 0, 3);
    total += dm_shapes_area(which, total + 2);
    total += dm_greeter_greet(which);
    total += dm_math_checksum(payload, dm_clamp(which * 3, 1, 8));
    total += dm_text_measure(which > 1 ? "debug map" : "dsym");
    return total;
}

int main(int argc, char **argv) {
    (void)argv;
    return dm_run_scenario(argc) == 42 ? 1 : 0;
}
