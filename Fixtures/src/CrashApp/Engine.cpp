// C++ in a namespace (no standard library available for Apple targets here):
// the null-dereference scenario passes through these frames.
#include "CrashApp.h"

namespace Engine {
namespace Storage {

class RecordStore {
public:
    explicit RecordStore(int generation) : generation_(generation) {}
    long importAll(const char *const *names, int count);

private:
    int generation_;
};

__attribute__((noinline)) long RecordStore::importAll(const char *const *names, int count) {
    long total = generation_;
    for (int i = 0; i < count; ++i) {
        CARecord *record = ca_lookup_record(names[i]);
        total += ca_record_checksum(record);
    }
    return total;
}

} // namespace Storage
} // namespace Engine

extern "C" int ca_engine_import(int count) {
    static const char *const names[] = { "settings", "archive", "profile" };
    Engine::Storage::RecordStore store(count);
    long imported = store.importAll(names, count > 3 ? 3 : count);
    return (int)(imported >> 1);
}
