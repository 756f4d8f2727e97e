// C++ inside CrashKit, without the standard library (there is no libc++ for
// Apple targets on the build machine): namespaced functions give demangling cases.
#include "CrashKit.h"

namespace CrashKit {
namespace Codec {

template <typename Word>
struct Adler {
    Word a = 1;
    Word b = 0;
    inline void add(unsigned char byte) {
        a = (a + byte) % 65521;
        b = (b + a) % 65521;
    }
};

__attribute__((noinline)) long checksum(const unsigned char *bytes, long length) {
    Adler<unsigned long> adler;
    for (long i = 0; i < length; ++i) {
        adler.add(bytes[i]);
    }
    return (long)((adler.b << 16) | adler.a);
}

} // namespace Codec
} // namespace CrashKit

extern "C" long CKChecksum(const unsigned char *bytes, long length) {
    return CrashKit::Codec::checksum(bytes, length) + 1;
}
