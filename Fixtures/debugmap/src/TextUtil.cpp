// Static-library member (libDMUtil.a): C++ with a namespace and an inlined template.
namespace dm::text {
template <typename Char> inline int length(const Char *text) {
    int count = 0;
    while (text[count] != 0) ++count;
    return count;
}

__attribute__((noinline)) int vowels(const char *text) {
    int found = 0;
    for (int index = 0; index < length(text); ++index) {
        char c = text[index];
        found += c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u';
    }
    return found;
}
}  // namespace dm::text

extern "C" int dm_text_measure(const char *text) {
    return dm::text::length(text) * 10 + dm::text::vowels(text);
}
