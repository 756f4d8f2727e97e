#!/usr/bin/env bash
# Regenerates the ELF naming fixtures (issue 21): one small C + C++ program built by the
# compilers here the way distributions build, its debug information kept as a separate
# file (`objcopy --only-keep-debug`, zlib-compressed as Debian's dh_strip does). They carry
# the symbol-table names llvm-symbolizer gives the outermost frame: GCC's LTO-renamed locals
# (`read_global.lto_priv.0`), clones (`.cold`, `.part.0`, `.isra.0`, `.constprop.0`),
# identical-code-folded aliases at one address, GCC ABI-2 template-pack manglings (`…IIS1_EE…`,
# which LLVM's demangler refuses) beside their compat aliases, and clang ThinLTO's promoted
# locals (`.llvm.NNN`). See Fixtures/README.md ("ELF naming fixtures").
#
# Needs: gcc-12, g++-12, the Swift toolchain's clang/clang++ and ld.lld, binutils objcopy.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
WORK=/tmp/symbolicate-fixtures-elf-lto
SRC="$WORK/src"

for tool in gcc-12 g++-12 clang clang++ ld.lld objcopy; do
    command -v "$tool" >/dev/null || { echo "generate.sh: missing tool: $tool" >&2; exit 1; }
done

rm -rf "$WORK"
mkdir -p "$SRC" "$WORK/gcc-lto" "$WORK/gcc-abi2" "$WORK/clang-thinlto"
cp "$HERE"/src/*.c "$HERE"/src/*.cpp "$HERE"/src/*.h "$SRC/"
# Paths in DWARF become /src/<file> whatever the checkout.
MAP=(-fdebug-prefix-map="$SRC"=/src)

# build DIR CC CXX "FLAGS" "CXXFLAGS" "LDFLAGS"
build() {
    local dir="$WORK/$1" cc="$2" cxx="$3" flags="$4" cxxflags="$5" ldflags="$6"
    (cd "$SRC" && for f in stats arena main; do
        # shellcheck disable=SC2086
        "$cc" -g -O2 $flags "${MAP[@]}" -DWITH_CXX -c "$f.c" -o "$dir/$f.o"
    done
    # shellcheck disable=SC2086
    "$cxx" -g -O2 $flags $cxxflags "${MAP[@]}" -c names.cpp -o "$dir/names.o"
    # shellcheck disable=SC2086
    "$cxx" -g -O2 $flags $ldflags "$dir/stats.o" "$dir/arena.o" "$dir/main.o" "$dir/names.o" -o "$dir/$1")
    objcopy --only-keep-debug --compress-debug-sections=zlib "$dir/$1" "$dir/$1.debug"
}
build gcc-lto gcc-12 g++-12 "-flto" "" ""
build gcc-abi2 gcc-12 g++-12 "" "-fabi-version=2" ""
build clang-thinlto clang clang++ "-flto=thin" "" "-fuse-ld=lld"

mkdir -p "$HERE/bin"
for name in gcc-lto gcc-abi2 clang-thinlto; do cp "$WORK/$name/$name.debug" "$HERE/bin/"; done
echo "generate.sh: ELF naming fixtures written to $HERE/bin"

# C++ functions of the GCC LTO build (their start addresses): scripts/test-release.sh prints
# their names with the release binary where libc++abi is absent and compares them with
# Fixtures/expected/elf-lto/gcc-lto.cxx.atos.txt (LLVM's spelling, as llvm-symbolizer's).
nm --defined-only "$HERE/bin/gcc-lto.debug" | awk '$2 ~ /^[tTwW]$/ && $3 ~ /^_Z/ {print "0x" $1}' \
    | LC_ALL=C sort -u > "$HERE/cxx-addresses.txt"
