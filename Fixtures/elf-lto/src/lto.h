struct stats {
    const char *name;
    long values[8];
    int count;
};
long stats_read(int index);
long stats_check(struct stats *s, int n);
long stats_weigh(struct stats *s, int n);
long arena_use(int seed);
long stats_sum_arena(const long *values, int n);
long stats_sum_global(const long *values, int n);
long cxx_entry(int n);
