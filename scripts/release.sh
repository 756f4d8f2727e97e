#!/usr/bin/env bash
# Builds the self-contained Linux binary and packs it (make release):
#   dist/symbolicate-VERSION-linux-ARCH.tar.gz
#     symbolicate-VERSION-linux-ARCH/{bin,share/man/man1,share/…completions}, README.md, LICENSE
# (a prefix layout: `tar -xzf … --strip-components=1 -C /usr/local` installs it).
#
# Self-contained means: the Swift standard library and Foundation linked statically
# (--static-swift-stdlib), and libdwarf, libelf, zlib and libstdc++ taken from their static
# archives (and LLVM's demangler from llvm-19-dev's libLLVMDemangle.a, which has no shared
# form), so the binary needs only glibc (libc, libm, the loader). Linking against the static
# archives needs one trick: ld takes the first folder on its search path that holds libX.so or
# libX.a, and SwiftPM puts /usr/lib/x86_64-linux-gnu (from zlib's pkg-config file, read for
# ZIPFoundation) in front of everything. A folder holding only the .a files, named in a copy of
# zlib.pc placed first on PKG_CONFIG_PATH, comes before it.
#
# The build goes to its own scratch folder (.build-release) so it never disturbs .build.
# VERSION is what the built binary's --version prints (Sources/symbolicate/Version.swift).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
scratch="$root/.build-release"
dist="$root/dist"
arch="$(uname -m)"
libdir="$scratch/staticlibs"
pcdir="$scratch/pkgconfig"

fail() { echo "release: $*" >&2; exit 1; }

find_archive() {
  local name="$1" path
  path="$(${CC:-cc} -print-file-name="$name" 2>/dev/null || true)"
  if [ -z "$path" ] || [ "$path" = "$name" ] || [ ! -f "$path" ]; then
    path="$(/opt/swift/usr/bin/clang -print-file-name="$name" 2>/dev/null || true)"
  fi
  [ -f "$path" ] || fail "no $name found (Debian: libdwarf-dev libelf-dev zlib1g-dev libstdc++-12-dev libsqlite3-dev)"
  echo "$path"
}

rm -rf "$libdir" "$pcdir"
mkdir -p "$libdir" "$pcdir" "$dist"
archives=(libdwarf.a libelf.a libz.a libstdc++.a libsqlite3.a)
for a in "${archives[@]}"; do ln -s "$(find_archive "$a")" "$libdir/$a"; done
# Newer libelf/libdwarf builds compress with zstd; Debian 12's do not. Take libzstd.a only if asked for.
# (nm's output is read whole before the search: `nm | grep -q` under pipefail fails when grep
# stops before nm has written everything.)
if grep -q ' ZSTD_' <<<"$(nm -u "$libdir/libelf.a" "$libdir/libdwarf.a" 2>/dev/null)"; then
  ln -s "$(find_archive libzstd.a)" "$libdir/libzstd.a"
fi
zlib_pc="$(pkg-config --variable=pcfiledir zlib 2>/dev/null || echo /usr/lib/"$arch"-linux-gnu/pkgconfig)/zlib.pc"
[ -f "$zlib_pc" ] || fail "no zlib.pc (Debian: zlib1g-dev)"
sed "s|^libdir=.*|libdir=$libdir|; s|^sharedlibdir=.*|sharedlibdir=$libdir|" "$zlib_pc" >"$pcdir/zlib.pc"

start=$(date +%s)
# Every default trait but MCP: the MCP SDK imports FoundationNetworking, whose static archive
# needs libcurl (and its TLS and HTTP/2 libraries) linked in as well; `symbolicate mcp` is built
# from source (`make install`, Homebrew) until the tarball carries them.
traits=Server,SymbolSources,AppStoreConnect,PLCrash
# lld packs the relative relocations (DT_RELR, glibc >= 2.36, the floor already): fewer pages to
# load and write before main, as in `make build` (Makefile).
log="$scratch/release-build.log"
if ! PKG_CONFIG_PATH="$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" ${SWIFT:-swift} build -c release \
  --product symbolicate --scratch-path "$scratch" --static-swift-stdlib --traits "$traits" \
  -Xlinker -L"$libdir" -Xswiftc -Xclang-linker -Xswiftc -static-libgcc \
  -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs >"$log" 2>&1; then
  cat "$log" >&2
  fail "swift build failed"
fi
# Foundation's static archive warns about mktemp at every static link; the rest is shown.
grep -v "the use of \`mktemp' is dangerous" "$log" >&2 || true
bin="$scratch/release/symbolicate"
[ -x "$bin" ] || fail "the build produced no $bin"
echo "release: build took $(( $(date +%s) - start ))s" >&2

# Refuse to pack a binary that still needs a shared library outside glibc.
needed="$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')"
for lib in $needed; do
  case "$lib" in
    libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|libutil.so.*|libresolv.so.*|ld-linux*) ;;
    *) fail "$bin still needs $lib (not part of glibc); the static link did not take" ;;
  esac
done

version="$("$bin" --version)"
name="symbolicate-$version-linux-$arch"
stage="$dist/$name"
rm -rf "$stage" "$dist/$name.tar.gz"
mkdir -p "$stage"
scripts/install.sh install "$bin" "$stage"
strip "$stage/bin/symbolicate"
cp README.md LICENSE "$stage/"
# The binary carries these libraries; their licences travel with it (Debian's copyright files
# and the package dependencies' own). The LGPL ones (libdwarf, libelf) allow static linking
# because this source, and the script that links it, are published with the binary.
notices="$stage/share/doc/symbolicate/third-party"
mkdir -p "$notices"
for pkg in libdwarf-dev libelf-dev zlib1g-dev libstdc++-12-dev llvm-19-dev libsqlite3-dev; do
  [ -f "/usr/share/doc/$pkg/copyright" ] && cp "/usr/share/doc/$pkg/copyright" "$notices/${pkg%-dev}.copyright"
done
cp "$scratch/checkouts/swift-argument-parser/LICENSE.txt" "$notices/swift-argument-parser.LICENSE.txt"
cp "$scratch/checkouts/ZIPFoundation/LICENSE" "$notices/ZIPFoundation.LICENSE"
cp "$scratch/checkouts/GRDB.swift/LICENSE" "$notices/GRDB.swift.LICENSE"
cat >"$notices/README" <<'NOTE'
symbolicate (Apache-2.0, see ../../../../LICENSE) is linked statically with:
  the Swift standard library, Foundation, Dispatch  Apache-2.0 with the Runtime Library Exception (swift.org/LICENSE.txt)
  libdwarf 20210528                                 LGPL-2.1 (libdwarf.copyright)
  libelf (elfutils)                                 GPL-2.0-or-later OR LGPL-3.0-or-later (libelf.copyright)
  zlib                                              Zlib (zlib1g.copyright)
  libstdc++                                         GPL-3.0 with the GCC Runtime Library Exception (libstdc++-12.copyright)
  LLVM's demangler (libLLVMDemangle, LLVM 19)       Apache-2.0 with LLVM Exceptions (llvm-19.copyright)
  SQLite                                            public domain (libsqlite3.copyright)
  swift-argument-parser, ZIPFoundation, GRDB.swift  Apache-2.0, MIT, MIT (their LICENSE files here)
To relink with another libdwarf or libelf, build from the published source with scripts/release.sh.
NOTE
# Reproducible archive: fixed order, owner and time; gzip without a name or timestamp.
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='@0' -C "$dist" -cf - "$name" | gzip -n -9 >"$dist/$name.tar.gz"
rm -rf "$stage"
echo "release: $dist/$name.tar.gz ($(du -h "$dist/$name.tar.gz" | cut -f1))" >&2
echo "$dist/$name.tar.gz"
