#!/usr/bin/env bash
# Builds upstream libdwarf 0.11.1 into a private prefix, so the package can be built and tested
# against a current libdwarf (the API Homebrew's 2.x has) beside Debian 12's 20210528.
#   scripts/build-libdwarf.sh [WORKDIR]      (default .build-libdwarf-current)
# prints the prefix (WORKDIR/prefix) on stdout; everything else goes to stderr.
#
# The source is the upstream tarball Debian trixie's dwarfutils source package carries
# (dwarfutils_0.11.1.orig.tar.gz), fetched by apt from a deb-src line kept in WORKDIR/apt: its
# own source list, package lists and cache, passed with -o options, so the machine's apt sources
# and lists are never read or changed. The tarball is checked against its SHA-256 below.
# Cached: a prefix whose libdwarf.pc says 0.11.1 is reused; a tarball already present is not
# fetched again. Needs apt-get (Debian), cmake (installed here when missing, as root) and a C
# compiler.
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mkdir -p "${1:-.build-libdwarf-current}" && cd "${1:-.build-libdwarf-current}" && pwd)"
version=0.11.1
debian_version=1:0.11.1-1
tarball=dwarfutils_$version.orig.tar.gz
sha256=dfd24db87c354b3ba6fa72d29a481014f81768fea15ddcde96a8a938b1557c17
prefix="$work/prefix"

say() { echo "build-libdwarf: $*" >&2; }
fail() { say "$*"; exit 1; }

if [ "$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --modversion libdwarf 2>/dev/null)" = "$version" ] &&
  [ -f "$prefix/include/libdwarf.h" ] && [ -e "$prefix/lib/libdwarf.so" ]; then
  say "libdwarf $version already in $prefix"
  echo "$prefix"
  exit 0
fi
start=$(date +%s)

if ! echo "$sha256  $work/$tarball" | sha256sum -c --status 2>/dev/null; then
  command -v apt-get >/dev/null || fail "needs apt-get to fetch $tarball (a Debian system)"
  apt="$work/apt"
  mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
  echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" \
    >"$apt/sources.list"
  # Dir::Etc::sourceparts=/dev/null: none of the machine's sources.list.d; lists and cache in $apt.
  opts=(-o Dir::Etc::sourcelist="$apt/sources.list" -o Dir::Etc::sourceparts=/dev/null
    -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" -o APT::Sandbox::User=root)
  say "fetching $tarball (Debian trixie source, private apt configuration in $apt)"
  apt-get -qq "${opts[@]}" update >&2 || fail "apt-get update of the private trixie source list failed"
  # Only the orig tarball is needed; the .dsc and .debian.tar.xz of this version may be gone
  # from the mirror (404), which makes apt-get exit non-zero after fetching the tarball.
  (cd "$work" && apt-get -qq "${opts[@]}" source --download-only "dwarfutils=$debian_version" >&2 2>"$work/apt-source.log") ||
    grep -v -e '\.dsc' -e '\.debian\.tar' -e 'Failed to fetch some archives' -e 'unsandboxed' "$work/apt-source.log" >&2 || true
  echo "$sha256  $work/$tarball" | sha256sum -c --status || fail "$work/$tarball missing or not the expected SHA-256"
fi

if ! command -v cmake >/dev/null; then
  [ "$(id -u)" = 0 ] || fail "needs cmake (apt-get install cmake)"
  say "installing cmake"
  apt-get install -y -qq --no-install-recommends cmake >/dev/null 2>&1 ||
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends cmake >/dev/null; }
fi

src="$work/src"
rm -rf "$src" "$work/cmake" "$prefix"
mkdir -p "$src"
tar -xzf "$work/$tarball" -C "$src" --strip-components=1
# Shared library only (as Homebrew ships it); no dwarfdump. zlib/zstd decompression is left to
# what cmake finds: the package serves libdwarf already-decompressed sections.
cmake -S "$src" -B "$work/cmake" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DBUILD_SHARED=ON -DBUILD_NON_SHARED=OFF -DBUILD_DWARFDUMP=OFF >"$work/cmake.log" 2>&1 ||
  { cat "$work/cmake.log" >&2; fail "cmake configure failed"; }
cmake --build "$work/cmake" -j "$(nproc 2>/dev/null || echo 2)" >>"$work/cmake.log" 2>&1 ||
  { tail -40 "$work/cmake.log" >&2; fail "cmake build failed"; }
cmake --install "$work/cmake" >>"$work/cmake.log" 2>&1 || { tail -20 "$work/cmake.log" >&2; fail "cmake install failed"; }
[ "$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --modversion libdwarf)" = "$version" ] ||
  fail "$prefix/lib/pkgconfig/libdwarf.pc does not say $version"
rm -rf "$src" "$work/cmake"
say "libdwarf $version built into $prefix in $(($(date +%s) - start))s"
echo "$prefix"
