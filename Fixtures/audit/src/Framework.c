// The embedded frameworks (Analytics, Vendor, Ads, MapsKit) and the Swift runtime stand-in,
// one source compiled per product with -DPRODUCT=<name>: a static helper (a local symbol,
// which `llvm-strip-19 -x` removes) and an exported entry point.
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

static int __attribute__((noinline)) CAT(PRODUCT, _step)(int value) { return value * 3 + 1; }

int CAT(PRODUCT, _entry)(int value) { return CAT(PRODUCT, _step)(value) + 2; }
