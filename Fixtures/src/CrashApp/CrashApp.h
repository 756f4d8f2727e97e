#ifndef CRASHAPP_H
#define CRASHAPP_H

#ifdef __cplusplus
extern "C" {
#endif

/// Scenarios selected by the launch argument; each one ends in a different crash.
enum CAScenario {
    CAScenarioSwiftTrap = 1,
    CAScenarioNullDeref = 2,
    CAScenarioException = 3,
    CAScenarioWatchdog = 4,
    CAScenarioIndexOutOfRange = 5,
};

int app_run_scenario(int scenario);
int UIApplicationMain(int argc, char **argv, void *principal, void *delegate);

// C (Records.c)
struct CARecord;
struct CARecord *ca_lookup_record(const char *name);
long ca_record_checksum(const struct CARecord *record);
int ca_import_records(int count);
int ca_wait_for_migration(int generation);

// C++ (Engine.cpp)
int ca_engine_import(int count);

// Objective-C (ProfileStore.m)
int ca_objc_load_profile(int scenario);
int ca_objc_connect_scene(int scenario);

// Embedded Swift (Profile.swift)
int app_launch_swift(long scenario);
int app_index_swift(long scenario);

#ifdef __cplusplus
}
#endif

#endif
