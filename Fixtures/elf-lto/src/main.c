#include <stdio.h>
#include "lto.h"

int main(int argc, char **argv) {
    (void)argv;
    struct stats s = {"main", {1, 2, 3, 4, 5, 6, 7, argc}, 8};
    long total = stats_check(&s, 8) + stats_weigh(&s, argc + 4) + stats_read(argc) + arena_use(argc * 5)
        + stats_sum_arena(s.values, argc) + stats_sum_global(s.values, 8);
#ifdef WITH_CXX
    total += cxx_entry(argc + 2);
#endif
    printf("%ld\n", total);
    return (int)(total & 1);
}
