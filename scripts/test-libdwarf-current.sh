#!/usr/bin/env bash
# make test-libdwarf-current: the Mac-shaped lane. The test suite as a macOS build meets it,
# beside `make test`'s run against Debian 12's libdwarf 20210528 and libelf:
#   - upstream libdwarf 0.11.1 (the 0.x/2.x API Homebrew's dwarfutils ships);
#   - the pure-Swift ELF reader (SYMBOLICATE_ELF_READER=swift: Package.swift drops CLibElf), and
#     no libelf linked into the CLI or the test runner (readelf -d, printed below);
#   - threads with 512 KiB stacks, as macOS gives secondary threads (`ulimit -s 512` sets glibc's
#     default pthread stack size; the main thread's limit too);
#   - TMPDIR reached through a symlink, as macOS's /var/folders/… is /private/var/folders/….
#   1. scripts/build-libdwarf.sh builds libdwarf 0.11.1 into .build-libdwarf-current/prefix
#      (cached there; fetched with a private apt configuration).
#   2. The package is built strictly (as `make test`), in `make test`'s own .build, with CLibDwarf
#      named by the prefix's libdwarf.pc (SYMBOLICATE_LIBDWARF_PKGCONFIG, read by Package.swift)
#      and the prefix's lib folder as RUNPATH so the test binary and the CLI load that libdwarf.
#      libdwarf's -I then reaches only the targets that import CLibDwarf: they and the links are
#      redone (about 30 s), the dependencies (swift-nio & co.) and the other modules are not. A
#      separate scratch folder would rebuild everything, and a copy of .build does not work (its
#      module cache records absolute paths). The next `make test` rebuilds those targets back.
#      clang keeps CLibDwarf's precompiled module under a name that does not depend on -I, and
#      finds it still valid (the shim and the old headers are unchanged), so it is removed before
#      and after the build: each side compiles the shim against its own libdwarf.
#   3. The link is checked: both binaries need the prefix's soname (libdwarf.so.0 for 0.11.1;
#      20210528's is libdwarf.so.1) and the loader resolves it inside the prefix.
#   4. swift test --skip-build with SYMBOLICATE_EXPECT_LIBDWARF=0.11.1, which
#      LibDwarfVersionTests compares with the headers and the loaded library. Every test target
#      runs but those that reach none of the four differences (MAC_SHAPED_SKIP below): explain's
#      rules and crash-text corpus, the server, the inbox and the store index, MCP, scrub, App
#      Store Connect, the page's presentation and the throw-site catalogue read text and JSON
#      only, through the readers whose own targets run here. `make test` runs them all, and
#      MAC_SHAPED_SKIP= (empty) runs the whole suite here too.
# LIBDWARF_PREFIX=DIR runs the same against a libdwarf already installed in DIR (with its
# lib/pkgconfig/libdwarf.pc), e.g. a 2.x built by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
work=.build-libdwarf-current
say() { echo "test-libdwarf-current: $*" >&2; }
fail() { say "$*"; exit 1; }

# Test targets that meet none of the lane's differences (no DWARF, ELF, deep recursion or
# temporary files of their own): a regular expression for `swift test --skip`.
MAC_SHAPED_SKIP="${MAC_SHAPED_SKIP-^(SymbolicateExplainTests|SymbolicateServeTests|SymbolicateInboxTests|SymbolicateStoreIndexTests|SymbolicateStoreIndexPostgresTests|SymbolicateMCPTests|SymbolicateScrubTests|SymbolicateAppStoreConnectTests|SymbolicatePresentationTests|SymbolicateThrowSitesTests)\.}"

start=$(date +%s)
if [ -n "${LIBDWARF_PREFIX:-}" ]; then
  prefix="$(cd "$LIBDWARF_PREFIX" && pwd)"
else
  prefix="$(scripts/build-libdwarf.sh "$work")"
fi
libdwarf_seconds=$(($(date +%s) - start))
version="$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --modversion libdwarf)" ||
  fail "no libdwarf.pc in $prefix/lib/pkgconfig"
# ld takes libdwarf from the first -L folder that has one, and SwiftPM puts zlib.pc's
# -L/usr/lib/x86_64-linux-gnu (read for ZIPFoundation) before every other flag, so the system's
# 20210528 libdwarf.so would win over the prefix. A copy of zlib.pc without -L, first on
# PKG_CONFIG_PATH, keeps that folder off the command line (it is on ld's default path anyway, so
# -lz still resolves there, after the prefix). scripts/release.sh meets the same ordering.
pcdir="$PWD/$work/pkgconfig" # absolute: SwiftPM ignores relative PKG_CONFIG_PATH entries
mkdir -p "$pcdir"
zlib_pc="$(pkg-config --variable=pcfiledir zlib 2>/dev/null)/zlib.pc"
[ -f "$zlib_pc" ] || fail "no zlib.pc (Debian: zlib1g-dev)"
sed -e 's|^Libs:.*|Libs: -lz|' "$zlib_pc" >"$pcdir/zlib.pc"
export PKG_CONFIG_PATH="$pcdir:$prefix/lib/pkgconfig"
export SYMBOLICATE_LIBDWARF_PKGCONFIG=libdwarf
# The ELF reader macOS builds (Package.swift reads this at build time).
export SYMBOLICATE_ELF_READER=swift
[ "$(pkg-config --modversion libdwarf)" = "$version" ] || fail "no libdwarf $version in $prefix"
libdir="$(pkg-config --variable=libdir libdwarf)"
soname="$(readelf -d "$libdir/libdwarf.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
[ -n "$soname" ] || fail "no SONAME in $libdir/libdwarf.so"
flags=(-Xlinker -rpath -Xlinker "$libdir")

bin_dir="$(${SWIFT:-swift} build --show-bin-path)"
forget_libdwarf_module() { find "$bin_dir/ModuleCache" -name 'CLibDwarf-*.pcm' -delete 2>/dev/null || true; }
forget_libdwarf_module
trap forget_libdwarf_module EXIT

build_start=$(date +%s)
${SWIFT:-swift} build --build-tests \
  -Xswiftc -warnings-as-errors --explicit-target-dependency-import-check error "${flags[@]}"
build_seconds=$(($(date +%s) - build_start))

for binary in "$bin_dir/symbolicate" "$bin_dir"/*PackageTests.xctest; do
  [ -f "$binary" ] || fail "no $binary"
  needed="$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(libdwarf[^]]*\)\]/\1/p')"
  [ "$needed" = "$soname" ] || fail "$binary needs '${needed:-no libdwarf}', not $soname ($version)"
  # No libelf: what a macOS build links (it has none to link).
  all_needed="$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
  case " $all_needed" in
    *" libelf"*) fail "$binary links libelf ($all_needed); the Mac-shaped build must not" ;;
  esac
  say "$(basename "$binary") links no libelf; NEEDED: $all_needed"
  resolved="$(ldd "$binary" | sed -n 's/^[[:space:]]*libdwarf[^ ]* => \([^ ]*\).*/\1/p')"
  case "$resolved" in
    "$libdir"/*) say "$(basename "$binary") loads $resolved" ;;
    *) fail "$binary loads libdwarf from '${resolved:-nowhere}', not $libdir" ;;
  esac
done

# TMPDIR through a symlink: <work>/var -> private/var, as on macOS.
mkdir -p "$work/private/var/T"
ln -sfn private/var "$work/var"
mac_tmp="$PWD/$work/var/T"
find "$work/private/var/T" -mindepth 1 -maxdepth 1 -exec rm -rf {} + 2>/dev/null || true
say "Mac-shaped run: ELF reader swift, thread stacks 512 KiB (ulimit -s 512), TMPDIR=$mac_tmp -> $(cd "$mac_tmp" && pwd -P)"
test_start=$(date +%s)
(
  ulimit -s 512
  say "stack limit $(ulimit -s) KiB"
  skip=()
  [ -z "$MAC_SHAPED_SKIP" ] || skip=(--skip "$MAC_SHAPED_SKIP")
  TMPDIR="$mac_tmp" SYMBOLICATE_EXPECT_ELF_READER=swift SYMBOLICATE_EXPECT_LIBDWARF=$version ${SWIFT:-swift} test --skip-build \
    "${skip[@]}"
)
say "libdwarf $version: ${libdwarf_seconds}s, build ${build_seconds}s, tests $(($(date +%s) - test_start))s"
