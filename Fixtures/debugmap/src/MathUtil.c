// Static-library member (libDMUtil.a): an Adler-style checksum with inlined steps.
static inline unsigned dm_mod(unsigned value) { return value % 65521u; }

static inline unsigned dm_step(unsigned sum, unsigned char byte) { return dm_mod(sum + byte); }

int dm_math_checksum(const unsigned char *bytes, int count) {
    unsigned low = 1, high = 0;
    for (int index = 0; index < count; ++index) {
        low = dm_step(low, bytes[index]);
        high = dm_mod(high + low);
    }
    return (int)((high << 16) | low);
}
