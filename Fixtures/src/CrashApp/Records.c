// Plain C: a record table whose lookup can fail, and a checksum whose helpers
// are force-inlined so one faulting instruction has a two-level inline chain.
#include "CrashApp.h"

struct CARecordBody {
    long count;
    long values[4];
};

struct CARecord {
    const char *name;
    long flags;
    struct CARecordBody *body;
};

static struct CARecordBody ca_default_body = { 4, { 1, 2, 3, 4 } };
static struct CARecord ca_records[] = {
    { "settings", 1, &ca_default_body },
    { "profile", 2, &ca_default_body },
};

volatile int ca_migration_done;

static int ca_streq(const char *a, const char *b) {
    while (*a && *a == *b) {
        ++a;
        ++b;
    }
    return *a == *b;
}

__attribute__((noinline))
struct CARecord *ca_lookup_record(const char *name) {
    for (unsigned i = 0; i < sizeof(ca_records) / sizeof(ca_records[0]); ++i) {
        if (ca_streq(ca_records[i].name, name)) {
            return &ca_records[i];
        }
    }
    return 0;
}

static inline __attribute__((always_inline)) const struct CARecordBody *ca_record_body(const struct CARecord *record) {
    return record->body;
}

static inline __attribute__((always_inline)) long ca_record_count(const struct CARecord *record) {
    const struct CARecordBody *body = ca_record_body(record);
    return body->count;
}

__attribute__((noinline))
long ca_record_checksum(const struct CARecord *record) {
    long count = ca_record_count(record);
    long sum = record->flags;
    for (long i = 0; i < count && i < 4; ++i) {
        sum = sum * 31 + record->body->values[i];
    }
    return sum;
}

__attribute__((noinline))
int ca_import_records(int count) {
    return ca_engine_import(count) + 1;
}

__attribute__((noinline))
int ca_wait_for_migration(int generation) {
    int spins = 0;
    while (!ca_migration_done) {
        spins += generation;
    }
    return spins;
}

__attribute__((noinline))
int app_run_scenario(int scenario) {
    switch (scenario) {
    case CAScenarioSwiftTrap:
        return app_launch_swift(scenario) + 1;
    case CAScenarioNullDeref:
        return ca_import_records(scenario) + 1;
    case CAScenarioException:
        return ca_objc_load_profile(scenario) + 1;
    case CAScenarioWatchdog:
        return ca_objc_connect_scene(scenario) + 1;
    case CAScenarioIndexOutOfRange:
        return app_index_swift(scenario) + 1;
    default:
        return 0;
    }
}
