/* The other unit with a static `read_global` and `report` (see stats.c). */
#include <stdio.h>
#include <string.h>
#include "lto.h"

static long arena_bytes[16];

__attribute__((noinline)) static long read_global(int index) {
    long total = 0;
    for (int i = index & 15; i < 16; i++) total ^= arena_bytes[i] + i;
    return total;
}

__attribute__((noinline)) static void report(const char *what, long value) {
    printf("[arena] %s = %ld\n", what, value);
}

/* Partial inlining: the cheap test is inlined into callers, the rest is `arena_fill.part.0`. */
static void arena_fill(char *buffer, int size, int seed) {
    if (size <= 0 || buffer == NULL) return;
    for (int i = 0; i < size; i++) buffer[i] = (char)((seed * 31 + i * 7) & 0x7f);
    memset(buffer + size / 2, seed & 0x7f, (size_t)(size - size / 2));
    arena_bytes[seed & 15] += buffer[size - 1];
    report("fill", arena_bytes[seed & 15]);
}

long arena_use(int seed) {
    char a[64], b[128];
    arena_fill(a, seed & 63, seed);
    arena_fill(b, (seed * 3) & 127, seed + 1);
    long value = read_global(seed);
    report("arena", value);
    return value + a[0] + b[0];
}
