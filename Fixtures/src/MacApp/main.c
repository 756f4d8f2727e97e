// MacApp: a universal (x86_64 + arm64) macOS tool that crashes on a worker
// thread while summing a sample set it never received.
typedef struct { long opaque[8]; } mac_thread_t;
int pthread_create(mac_thread_t *thread, const void *attr, void *(*start)(void *), void *arg);
int pthread_join(mac_thread_t thread, void **result);

struct MacSampleSet {
    long count;
    double values[8];
};

struct MacJob {
    const char *name;
    struct MacSampleSet *samples;
};

static inline __attribute__((always_inline)) long mac_sample_count(const struct MacSampleSet *set) {
    return set->count;
}

static inline __attribute__((always_inline)) double mac_sample_total(const struct MacSampleSet *set) {
    double total = 0;
    long count = mac_sample_count(set);
    for (long i = 0; i < count && i < 8; ++i) {
        total += set->values[i];
    }
    return total;
}

__attribute__((noinline))
double mac_average(const struct MacSampleSet *set) {
    double total = mac_sample_total(set);
    return total / 8.0;
}

__attribute__((noinline))
long mac_process_job(struct MacJob *job) {
    double average = mac_average(job->samples);
    return (long)average + 1;
}

__attribute__((noinline))
void *mac_worker_main(void *argument) {
    long result = mac_process_job((struct MacJob *)argument);
    return (void *)(result + 1);
}

__attribute__((noinline))
int mac_start_worker(int argc) {
    static struct MacJob job = { "nightly-import", 0 };
    mac_thread_t thread;
    void *result = 0;
    if (pthread_create(&thread, 0, mac_worker_main, &job) != 0) {
        return 2;
    }
    pthread_join(thread, &result);
    return (int)(long)result + argc;
}

int main(int argc, char **argv) {
    return mac_start_worker(argc) + (argv != 0);
}
