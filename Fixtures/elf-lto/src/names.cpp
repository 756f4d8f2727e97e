// C++ names whose spelling differs between LLVM's demangler and GNU's (`allocator<char>>`
// vs `allocator<char> >`, `'lambda'(int)` vs `{lambda(int)#1}`), template packs (GCC mangles
// `emplace_back<std::vector<int>>` with a `J…E` pack), and LTO-renamed local clones.
#include <map>
#include <string>
#include <vector>
#include <functional>

namespace store {
template <typename Key, typename Value>
class Table {
public:
    __attribute__((noinline)) void put(const Key &key, Value value) { rows_[key].emplace_back(std::move(value)); }
    __attribute__((noinline)) size_t count(const Key &key) const {
        auto found = rows_.find(key);
        return found == rows_.end() ? 0 : found->second.size();
    }
private:
    std::map<Key, std::vector<Value>> rows_;
};
}  // namespace store

namespace {
__attribute__((noinline)) long apply(const std::function<long(int)> &f, int n) {
    long total = 0;
    for (int i = 0; i < n; i++) total += f(i);
    return total;
}
}  // namespace

extern "C" long cxx_entry(int n) {
    store::Table<std::string, std::vector<int>> table;
    std::vector<std::vector<int>> rows;
    for (int i = 0; i < n; i++) {
        rows.emplace_back(std::vector<int>(static_cast<size_t>(i + 1), i));
        table.put("row" + std::to_string(i % 3), rows.back());
    }
    long scale = static_cast<long>(table.count("row1"));
    return apply([&](int i) { return static_cast<long>(rows[static_cast<size_t>(i)].size()) * scale; }, n);
}
