/* Two translation units each define a static `read_global` and `report`: under -flto GCC
 * renames the locals it merges into one unit (`read_global.lto_priv.0`), while their DWARF
 * subprograms keep the source names. */
#include <stdio.h>
#include <stdlib.h>
#include "lto.h"

static long counters[64];

__attribute__((noinline)) static long read_global(int index) {
    long total = 0;
    for (int i = 0; i <= index && i < 64; i++) total += counters[i] * (i + 1);
    return total;
}

__attribute__((noinline)) static void report(const char *what, long value) {
    if (value < 0) fprintf(stderr, "%s: negative (%ld)\n", what, value);
    else printf("%s: %ld\n", what, value);
}

long stats_read(int index) {
    long value = read_global(index);
    report("stats", value);
    return value;
}

/* Cold path split off by -O2 (`stats_check.cold`): the unlikely branch. */
long stats_check(struct stats *s, int n) {
    long sum = 0;
    for (int i = 0; i < n; i++) {
        if (__builtin_expect(s->values[i] < 0, 0)) {
            fprintf(stderr, "stats_check: bad value %ld at %d of %s\n", s->values[i], i, s->name);
            abort();
        }
        sum += s->values[i];
    }
    return sum;
}

/* IPA-SRA: only one field of the struct is read (`weight.isra.0`). */
__attribute__((noinline)) static long weight(const struct stats *s, int i) {
    return s->values[i & 7] * 3 + 1;
}

/* Constant propagation into a clone (`scaled.constprop.0`). */
__attribute__((noinline)) static long scaled(long value, int factor, int shift) {
    long out = value;
    for (int i = 0; i < factor; i++) out = (out << shift) ^ (out >> 3);
    return out;
}

long stats_weigh(struct stats *s, int n) {
    long total = 0;
    for (int i = 0; i < n; i++) total += scaled(weight(s, i), 3, 2);
    counters[n & 63] += total;
    return total;
}

/* Identical bodies: GCC's identical code folding (-fipa-icf, on at -O2) keeps one and makes
 * the other an alias at the same address and size; llvm-symbolizer names the address after
 * the alias listed last in the symbol table. */
__attribute__((noinline)) long stats_sum_arena(const long *values, int n) {
    long total = 0;
    for (int i = 0; i < n; i++) total += values[i] * values[i] + 7;
    return total;
}

__attribute__((noinline)) long stats_sum_global(const long *values, int n) {
    long total = 0;
    for (int i = 0; i < n; i++) total += values[i] * values[i] + 7;
    return total;
}
