#!/usr/bin/env bash
# make test-libdwarf-current: the whole test suite against upstream libdwarf 0.11.1 (the 0.x/2.x
# API Homebrew ships), beside `make test`'s run against Debian 12's libdwarf 20210528.
#   1. scripts/build-libdwarf.sh builds libdwarf 0.11.1 into .build-libdwarf-current/prefix
#      (cached there; fetched with a private apt configuration).
#   2. The package is built strictly (as `make test`) into its own scratch folder,
#      .build-libdwarf-current/swift-0.11.1, with libdwarf's pkg-config flags: -I and -L of the prefix,
#      and the prefix's lib folder as RUNPATH so the test binary and the CLI load that libdwarf.
#   3. The link is checked: both binaries need the prefix's soname (libdwarf.so.0 for 0.11.1;
#      20210528's is libdwarf.so.1) and the loader resolves it inside the prefix.
#   4. swift test --skip-build with SYMBOLICATE_EXPECT_LIBDWARF=0.11.1, which
#      LibDwarfVersionTests compares with the headers and the loaded library.
# LIBDWARF_PREFIX=DIR runs the same against a libdwarf already installed in DIR (with its
# lib/pkgconfig/libdwarf.pc), e.g. a 2.x built by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
work=.build-libdwarf-current
say() { echo "test-libdwarf-current: $*" >&2; }
fail() { say "$*"; exit 1; }

start=$(date +%s)
if [ -n "${LIBDWARF_PREFIX:-}" ]; then
  prefix="$(cd "$LIBDWARF_PREFIX" && pwd)"
else
  prefix="$(scripts/build-libdwarf.sh "$work")"
fi
libdwarf_seconds=$(($(date +%s) - start))
version="$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --modversion libdwarf)" ||
  fail "no libdwarf.pc in $prefix/lib/pkgconfig"
scratch="$work/swift-$version"
# ld takes libdwarf from the first -L folder that has one, and SwiftPM puts zlib.pc's
# -L/usr/lib/x86_64-linux-gnu (read for ZIPFoundation) before every other flag, so the system's
# 20210528 libdwarf.so would win over the prefix. A copy of zlib.pc without -L/-I, first on
# PKG_CONFIG_PATH, keeps that folder off the command line (it is on ld's default path anyway, so
# -lz still resolves there, after the prefix). scripts/release.sh meets the same ordering.
pcdir="$PWD/$work/pkgconfig" # absolute: SwiftPM ignores relative PKG_CONFIG_PATH entries
mkdir -p "$pcdir"
zlib_pc="$(pkg-config --variable=pcfiledir zlib 2>/dev/null)/zlib.pc"
[ -f "$zlib_pc" ] || fail "no zlib.pc (Debian: zlib1g-dev)"
sed -e 's|^Libs:.*|Libs: -lz|' -e 's|^Cflags:.*|Cflags:|' "$zlib_pc" >"$pcdir/zlib.pc"
export PKG_CONFIG_PATH="$pcdir:$prefix/lib/pkgconfig"
[ "$(pkg-config --modversion libdwarf)" = "$version" ] || fail "no libdwarf $version in $prefix"
flags=()
for f in $(pkg-config --cflags-only-I libdwarf); do flags+=(-Xcc "$f"); done
for f in $(pkg-config --libs-only-L libdwarf); do flags+=(-Xlinker "$f"); done
libdir="$(pkg-config --variable=libdir libdwarf)"
soname="$(readelf -d "$libdir/libdwarf.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
[ -n "$soname" ] || fail "no SONAME in $libdir/libdwarf.so"
flags+=(-Xlinker -rpath -Xlinker "$libdir")

build_start=$(date +%s)
${SWIFT:-swift} build --build-tests --scratch-path "$scratch" \
  -Xswiftc -warnings-as-errors --explicit-target-dependency-import-check error "${flags[@]}"
build_seconds=$(($(date +%s) - build_start))

bin_dir="$(${SWIFT:-swift} build --scratch-path "$scratch" --show-bin-path)"
for binary in "$bin_dir/symbolicate" "$bin_dir"/*PackageTests.xctest; do
  [ -f "$binary" ] || fail "no $binary"
  needed="$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(libdwarf[^]]*\)\]/\1/p')"
  [ "$needed" = "$soname" ] || fail "$binary needs '${needed:-no libdwarf}', not $soname ($version)"
  resolved="$(ldd "$binary" | sed -n 's/^[[:space:]]*libdwarf[^ ]* => \([^ ]*\).*/\1/p')"
  case "$resolved" in
    "$libdir"/*) say "$(basename "$binary") loads $resolved" ;;
    *) fail "$binary loads libdwarf from '${resolved:-nowhere}', not $libdir" ;;
  esac
done

test_start=$(date +%s)
SYMBOLICATE_EXPECT_LIBDWARF=$version ${SWIFT:-swift} test --skip-build --scratch-path "$scratch"
say "libdwarf $version: ${libdwarf_seconds}s, build ${build_seconds}s, tests $(($(date +%s) - test_start))s"
