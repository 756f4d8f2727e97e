// The Itanium C++ demangler, so C++ names are spelled as llvm-symbolizer and Apple's tools
// spell them (`allocator<char>>`, `'lambda'(int)`, `invocation function for block in f()`) on
// a machine with nothing else installed. This is the one place the platforms differ:
// - macOS: the system's __cxa_demangle (libc++abi), which is LLVM's demangler, for every
//   Itanium name — `_Z…` and the `___Z…_block_invoke` names the Swift runtime does not forward;
// - Linux: LLVM's own parser and printer (llvm-19-dev's ItaniumDemangle.h, with
//   libLLVMDemangle.a), driven here so that the printed length can be measured first;
// - elsewhere the entry points report it absent.
//
// Names come from anyone (a report posted to `serve`, a symbol table in an uploaded file), so
// the demangler is bounded: its parser and printer recurse once per level of nesting, and a
// level can cost one byte of the name (`PPPP…i`, `1AI1AI…E`), so a name is only admitted up
// to kMaxLength bytes and runs on a stack sized for that length (the caller's own for short
// names, which a 512 KiB thread stack holds); and a substitution (`S_`, `T_`) prints its
// whole target again, so a few hundred bytes can print gigabytes: Linux measures the
// printed length on the parsed tree, in time linear in its size, before printing.
#include "CLLVMDemangle.h"

#include <cstdlib>
#include <cstring>
#include <pthread.h>

namespace {
/// The longest name admitted. Real C++ names reach a few KiB (deep template instantiations).
constexpr size_t kMaxLength = 32 * 1024;
/// Names up to this length demangle on the caller's stack. The deepest shapes (a pointer per
/// byte, `PPP…i`) take about 450 bytes of stack per byte of name unoptimised (a debug build),
/// so at most about 115 KiB: a 512 KiB thread with its caller's frames above it holds that.
constexpr size_t kInlineLength = 256;
/// The stack of the thread that demangles longer names: 2 KiB per byte admitted, over four
/// times the deepest shape's need (it is reserved, not used, by the shallow names).
constexpr size_t kThreadStackBytes = 2 * 1024 * kMaxLength + (1 << 20);

struct Job {
    const char *name;
    size_t maxOutput;
    char *result = nullptr;
    symbolicate_demangle_status status = SYMBOLICATE_DEMANGLE_INVALID;
};

void demangleHere(Job &job);

void runJob(void *job) { demangleHere(*static_cast<Job *>(job)); }

struct Thunk {
    void (*body)(void *);
    void *context;
};

void *runThunk(void *thunk) {
    auto *call = static_cast<Thunk *>(thunk);
    call->body(call->context);
    return nullptr;
}

/// Runs the job on a fresh thread whose stack holds the deepest name admitted.
void demangleOnLargeStack(Job &job) {
    if (symbolicate_run_with_stack(kThreadStackBytes, runJob, &job) != 0) job.status = SYMBOLICATE_DEMANGLE_NO_RESOURCES;
}

} // namespace

#if defined(__APPLE__) || (defined(__linux__) && __has_include(<llvm/Demangle/ItaniumDemangle.h>))
int symbolicate_llvm_demangler_linked(void) { return 1; }
#else
int symbolicate_llvm_demangler_linked(void) { return 0; }
#endif

size_t symbolicate_llvm_demangle_max_length(void) { return kMaxLength; }

int symbolicate_run_with_stack(size_t stack_bytes, void (*body)(void *context), void *context) {
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) return -1;
    Thunk thunk{body, context};
    pthread_t thread;
    bool started = pthread_attr_setstacksize(&attributes, stack_bytes) == 0 &&
                   pthread_create(&thread, &attributes, runThunk, &thunk) == 0;
    pthread_attr_destroy(&attributes);
    if (!started) return -1;
    pthread_join(thread, nullptr);
    return 0;
}

symbolicate_demangle_status symbolicate_llvm_demangle(const char *name, size_t max_output, char **result) {
    if (result == nullptr) return SYMBOLICATE_DEMANGLE_INVALID;
    *result = nullptr;
    if (name == nullptr || !symbolicate_llvm_demangler_linked()) return SYMBOLICATE_DEMANGLE_INVALID;
    size_t length = std::strlen(name);
    if (length > kMaxLength) return SYMBOLICATE_DEMANGLE_TOO_LONG;
    Job job;
    job.name = name;
    job.maxOutput = max_output;
    if (length <= kInlineLength) {
        demangleHere(job);
    } else {
        demangleOnLargeStack(job);
    }
    *result = job.result;
    return job.status;
}

#if defined(__APPLE__)
#include <cxxabi.h>

namespace {
void demangleHere(Job &job) {
    int status = 0;
    char *out = abi::__cxa_demangle(job.name, nullptr, nullptr, &status);
    if (status == -1) {
        job.status = SYMBOLICATE_DEMANGLE_NO_RESOURCES;
    } else if (status != 0 || out == nullptr) {
        job.status = SYMBOLICATE_DEMANGLE_INVALID;
    } else {
        job.status = SYMBOLICATE_DEMANGLE_OK;
        job.result = out;
        return;
    }
    std::free(out);
}
} // namespace
#elif defined(__linux__) && __has_include(<llvm/Demangle/ItaniumDemangle.h>)
#include <llvm/Demangle/ItaniumDemangle.h>

#include <cstdint>
#include <new>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {
using llvm::itanium_demangle::ForwardTemplateReference;
using llvm::itanium_demangle::Node;
using llvm::itanium_demangle::NodeArray;
using llvm::itanium_demangle::ParameterPack;
using llvm::itanium_demangle::ParameterPackExpansion;

/// The parser's node memory: blocks freed together when the name is done.
class Arena {
    std::vector<char *> blocks;
    char *next = nullptr;
    size_t left = 0;

public:
    Arena() = default;
    Arena(const Arena &) = delete;
    Arena &operator=(const Arena &) = delete;
    ~Arena() {
        for (char *block : blocks) std::free(block);
    }

    void *allocate(size_t size) {
        size = (size + 15) & ~size_t(15);
        if (size > left) {
            size_t blockSize = size > 16384 ? size : 16384;
            char *block = static_cast<char *>(std::malloc(blockSize));
            if (block == nullptr) throw std::bad_alloc();
            blocks.push_back(block);
            next = block;
            left = blockSize;
        }
        void *out = next;
        next += size;
        left -= size;
        return out;
    }

    template <typename T, typename... Args> T *makeNode(Args &&...args) {
        return new (allocate(sizeof(T))) T(std::forward<Args>(args)...);
    }

    void *allocateNodeArray(size_t count) { return allocate(sizeof(Node *) * count); }
};

using Parser = llvm::itanium_demangle::ManglingParser<Arena>;

/// A copy of `text` in a malloc'd, NUL-terminated buffer, or NULL.
char *copyOut(const char *text, size_t length) {
    char *out = static_cast<char *>(std::malloc(length + 1));
    if (out == nullptr) return nullptr;
    if (length > 0) std::memcpy(out, text, length);
    out[length] = '\0';
    return out;
}

/// Calls `visit(child)` for every node `node` prints and `text(count)` for the characters it
/// holds as strings (names, operators, literals), whatever its kind: each node kind lists its
/// fields through `match`, which LLVM keeps for exactly this kind of generic walk.
template <typename Visit, typename Text> void forEachPart(const Node *node, Visit &&visit, Text &&text) {
    auto field = [&](const auto &value) {
        using Field = std::decay_t<decltype(value)>;
        if constexpr (std::is_convertible_v<Field, const Node *>) {
            if (value != nullptr) visit(static_cast<const Node *>(value));
        } else if constexpr (std::is_same_v<Field, NodeArray>) {
            for (const Node *element : value) visit(element);
            text(2 * value.size()); // ", " between elements
        } else if constexpr (std::is_convertible_v<Field, std::string_view>) {
            text(std::string_view(value).size());
        }
    };
    node->visit([&](const auto *typed) {
        using Kind = std::remove_cv_t<std::remove_pointer_t<decltype(typed)>>;
        if constexpr (std::is_same_v<Kind, ForwardTemplateReference>) {
            if (typed->Ref != nullptr) visit(typed->Ref);
        } else {
            typed->match([&](const auto &...fields) { (field(fields), ...); });
        }
    });
}

/// An upper bound on the length `AST->print` writes, in time linear in the number of nodes
/// (a node reached through several substitutions is measured once). Every node is counted
/// with the longest fixed text any kind prints (`std::basic_string<char, …>` for `Ss`,
/// `construction vtable for `, punctuation), its strings and its children; a pack expansion
/// prints its child once per element of the largest pack.
class Measure {
    static constexpr uint64_t kFixedText = 80;
    static constexpr uint64_t kSaturated = UINT64_MAX / 4;
    static constexpr uint64_t kVisiting = UINT64_MAX;

    std::unordered_map<const Node *, uint64_t> sizes;
    std::unordered_map<const Node *, bool> seen;
    uint64_t largestPack = 1;

    static uint64_t add(uint64_t a, uint64_t b) { return a + b > kSaturated || a + b < a ? kSaturated : a + b; }
    static uint64_t times(uint64_t a, uint64_t b) { return b != 0 && a > kSaturated / b ? kSaturated : a * b; }

    void findPacks(const Node *node) {
        if (!seen.emplace(node, true).second) return;
        if (node->getKind() == Node::KParameterPack) {
            uint64_t count = 0;
            forEachPart(node, [&](const Node *) { count += 1; }, [](size_t) {});
            if (count > largestPack) largestPack = count;
        }
        forEachPart(node, [&](const Node *child) { findPacks(child); }, [](size_t) {});
    }

    uint64_t size(const Node *node) {
        auto known = sizes.find(node);
        if (known != sizes.end()) return known->second == kVisiting ? kFixedText : known->second;
        sizes[node] = kVisiting; // a cycle (a forward reference to itself) prints once, then stops
        uint64_t total = kFixedText;
        forEachPart(node, [&](const Node *child) { total = add(total, size(child)); }, [&](size_t count) { total = add(total, count); });
        if (node->getKind() == Node::KParameterPackExpansion) total = times(total, largestPack);
        sizes[node] = total;
        return total;
    }

public:
    uint64_t printedLength(const Node *root) {
        findPacks(root);
        return size(root);
    }
};

void demangleHere(Job &job) {
    try {
        std::string_view name(job.name);
        Parser parser(name.data(), name.data() + name.size());
        Node *ast = parser.parse(true);
        if (ast == nullptr) {
            job.status = SYMBOLICATE_DEMANGLE_INVALID;
            return;
        }
        if (Measure().printedLength(ast) > job.maxOutput) {
            job.status = SYMBOLICATE_DEMANGLE_TOO_LARGE;
            return;
        }
        llvm::itanium_demangle::OutputBuffer out;
        ast->print(out);
        job.result = copyOut(out.getBuffer(), out.getCurrentPosition());
        std::free(out.getBuffer());
        job.status = job.result == nullptr ? SYMBOLICATE_DEMANGLE_NO_RESOURCES : SYMBOLICATE_DEMANGLE_OK;
    } catch (const std::bad_alloc &) {
        job.status = SYMBOLICATE_DEMANGLE_NO_RESOURCES;
    }
}
} // namespace
#else
namespace {
void demangleHere(Job &job) { job.status = SYMBOLICATE_DEMANGLE_INVALID; }
} // namespace
#endif

// The Swift runtime's demangler in a child process. The runtime's printer ends the process
// (`fatal error: should be printed as a child of a DependentGenericSignature`) on some malformed
// names; a child takes that instead. Only C and the runtime's C entry run in the child, never
// Swift code, so no lock another thread of the parent held at the fork is needed there (glibc's
// and Darwin's malloc are reset for the child by their own fork handlers).
#if defined(__unix__) || defined(__APPLE__)
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

extern "C" char *_swift_backtrace_demangle(const unsigned char *mangledName, size_t mangledNameLength,
                                           char *outputBuffer, size_t *outputBufferSize);

namespace {
/// A signal in the child ends it at once, without the parent's handlers (a backtracer, a crash
/// reporter) writing a report for a name that was expected to fail.
void exitQuietly(int) { _exit(70); }
} // namespace

symbolicate_demangle_status symbolicate_swift_demangle_in_child(const char *name, size_t length, unsigned timeout_seconds,
                                                                char **result) {
    if (result == nullptr) return SYMBOLICATE_DEMANGLE_INVALID;
    *result = nullptr;
    int channel[2];
    if (pipe(channel) != 0) return SYMBOLICATE_DEMANGLE_NO_RESOURCES;
    pid_t child = fork();
    if (child < 0) {
        close(channel[0]);
        close(channel[1]);
        return SYMBOLICATE_DEMANGLE_NO_RESOURCES;
    }
    if (child == 0) {
        close(channel[0]);
        for (int signal : {SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGALRM}) std::signal(signal, exitQuietly);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, STDERR_FILENO);
        alarm(timeout_seconds);
        char *text = _swift_backtrace_demangle(reinterpret_cast<const unsigned char *>(name), length, nullptr, nullptr);
        size_t left = text == nullptr ? 0 : std::strlen(text);
        const char *next = text;
        while (left > 0) {
            ssize_t written = write(channel[1], next, left);
            if (written <= 0) _exit(71);
            next += written;
            left -= size_t(written);
        }
        _exit(0);
    }
    close(channel[1]);
    size_t capacity = 256, used = 0;
    char *buffer = static_cast<char *>(std::malloc(capacity));
    bool readFailed = buffer == nullptr;
    while (!readFailed) {
        if (used + 1 == capacity) {
            char *grown = static_cast<char *>(std::realloc(buffer, capacity * 2));
            if (grown == nullptr) {
                readFailed = true;
                break;
            }
            buffer = grown;
            capacity *= 2;
        }
        ssize_t count = read(channel[0], buffer + used, capacity - 1 - used);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) break;
        used += size_t(count);
    }
    close(channel[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (readFailed) {
        std::free(buffer);
        return SYMBOLICATE_DEMANGLE_NO_RESOURCES;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::free(buffer);
        return SYMBOLICATE_DEMANGLE_INVALID;
    }
    buffer[used] = '\0';
    *result = buffer;
    return SYMBOLICATE_DEMANGLE_OK;
}
#else
symbolicate_demangle_status symbolicate_swift_demangle_in_child(const char *, size_t, unsigned, char **result) {
    if (result != nullptr) *result = nullptr;
    return SYMBOLICATE_DEMANGLE_NO_RESOURCES;
}
#endif
