#!/usr/bin/env bash
# The release test (make release-check, run in CI): unpacks the tarball `make release` built
# and proves the binary in it is self-contained.
#   1. the tarball holds the binary, the man page and the three completions;
#   2. the binary's direct needs (ELF NEEDED) and everything ldd resolves are glibc only —
#      no libswift*, libFoundation*, libdwarf, libelf, libz, libstdc++, libgcc_s;
#   3. it runs with an empty environment: no LD_LIBRARY_PATH, PATH without /opt/swift, and
#      symbolicates a fixture report exactly as the golden file says, and spells the C++ names
#      of an ELF fixture as the golden file (LLVM's spelling) says with every libc++abi hidden;
#   4. it states the oldest glibc it needs (highest GLIBC_x.y version its symbols reference)
#      and checks the README states the same number.
# usage: scripts/test-release.sh [TARBALL]   (default: the newest dist/symbolicate-*.tar.gz)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
tarball="${1:-$(ls -t dist/symbolicate-*-linux-*.tar.gz 2>/dev/null | head -1)}"
[ -n "$tarball" ] && [ -f "$tarball" ] || { echo "test-release: no tarball (run make release first)" >&2; exit 1; }
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar -xzf "$tarball" -C "$work"
name="$(basename "$tarball" .tar.gz)"
top="$work/$name"
bin="$top/bin/symbolicate"

# 1. Contents.
for f in bin/symbolicate share/man/man1/symbolicate.1 share/bash-completion/completions/symbolicate \
         share/zsh/site-functions/_symbolicate share/fish/vendor_completions.d/symbolicate.fish README.md LICENSE \
         share/doc/symbolicate/third-party/README share/doc/symbolicate/third-party/libdwarf.copyright; do
  [ -s "$top/$f" ] && ok "tarball has $f" || fail "$tarball lacks $f"
done

# 2. Only glibc-family shared libraries.
glibc_family='^(linux-vdso\.so\.1|libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|libutil\.so\.1|libresolv\.so\.2|ld-linux-x86-64\.so\.2|ld-linux-aarch64\.so\.1|/lib64/ld-linux-x86-64\.so\.2|/lib/ld-linux-aarch64\.so\.1)$'
needed="$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')"
for lib in $needed; do
  [[ "$lib" =~ $glibc_family ]] && ok "NEEDED $lib" || fail "the binary needs $lib, which is not part of glibc"
done
while read -r lib _; do
  [ -z "$lib" ] && continue
  [[ "$lib" =~ $glibc_family ]] || fail "ldd lists $lib, which is not part of glibc"
done < <(ldd "$bin" | sed 's/^[[:space:]]*//')
if ldd "$bin" | grep -E -q 'libswift|libFoundation|libdispatch|libdwarf|libelf|libz\.|libstdc\+\+|libgcc_s|/opt/swift'; then
  fail "ldd still shows toolchain or C library dependencies: $(ldd "$bin" | tr '\n' ' ')"
else
  ok "ldd shows glibc only: $(ldd "$bin" | awk '{print $1}' | tr '\n' ' ')"
fi

# 3. Runs with no toolchain in reach.
clean_env=(env -i HOME="$work" PATH=/usr/bin:/bin LD_LIBRARY_PATH= NO_COLOR=1 SYMBOLICATE_SOURCE_ROOT=none)
version="$("${clean_env[@]}" "$bin" --version)" || fail "--version failed in a clean environment"
case "$name" in
  "symbolicate-$version-linux-"*) ok "--version ($version) matches the tarball name" ;;
  *) fail "--version prints '$version' but the tarball is $name" ;;
esac
grep -q "^\.TH SYMBOLICATE 1 .*\"symbolicate $version\"" "$top/share/man/man1/symbolicate.1" \
  && ok "man page footer carries $version" || fail "man page .TH line does not carry version $version"
expected="$root/Fixtures/expected/swift-trap.ips.txt"
if [ -f "$expected" ]; then
  actual="$work/out.crash"
  (cd "$root" && "${clean_env[@]}" "$bin" Fixtures/reports/swift-trap.ips Fixtures/dsyms --color never --headline >"$actual") \
    || fail "symbolicating Fixtures/reports/swift-trap.ips failed in a clean environment"
  if cmp -s "$expected" "$actual"; then
    ok "symbolicates Fixtures/reports/swift-trap.ips exactly as $expected (clean environment, libdwarf from the archive)"
  else
    fail "output differs from $expected:"; diff "$expected" "$actual" | head -20 >&2
  fi
else
  fail "no golden file $expected to compare against"
fi

# 3b. C++ names in LLVM's spelling from the demangler linked in, with libc++abi absent (issue 21):
# every libc++abi.so.1 on the machine is hidden (bind-mounted over in a private mount namespace).
cxx_expected="$root/Fixtures/expected/elf-lto/gcc-lto.cxx.atos.txt"
[ -f "$cxx_expected" ] || fail "no golden file $cxx_expected"
mapfile -t cxx_addresses <"$root/Fixtures/elf-lto/cxx-addresses.txt"
cxx_run=("${clean_env[@]}" "$bin" atos -o "$root/Fixtures/elf-lto/bin/gcc-lto.debug" -l 0 -i "${cxx_addresses[@]}")
hide=""
for lib in /usr/lib/*/libc++abi.so* /usr/lib/llvm-*/lib/libc++abi.so* /lib/*/libc++abi.so*; do
  [ -e "$lib" ] && hide+="mount --bind /dev/null '$lib'; "
done
if [ -n "$hide" ]; then
  if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
    cxx_actual="$(unshare -m sh -c "$hide exec \"\$@\"" sh "${cxx_run[@]}")" || fail "atos on the C++ fixture failed with libc++abi hidden"
    where="libc++abi hidden"
  else
    fail "libc++abi is installed and cannot be hidden here (needs root and unshare)"
  fi
else
  cxx_actual="$("${cxx_run[@]}")" || fail "atos on the C++ fixture failed"
  where="libc++abi not installed"
fi
if [ "$cxx_actual" = "$(cat "$cxx_expected")" ]; then
  ok "C++ names as $cxx_expected spells them ($where, clean environment)"
else
  fail "C++ names differ from $cxx_expected ($where):"; diff <(echo "$cxx_actual") "$cxx_expected" | head -10 >&2
fi

# 4. Oldest glibc: the highest symbol version the binary references.
# Each tool's whole output is read into a variable before it is searched: under pipefail,
# `readelf … | grep -q` fails when grep stops at its match while readelf still has a buffer
# to write (SIGPIPE), which depends on where the match falls in the output, so on the build.
symbols="$(objdump -T "$bin")"
versions="$(readelf -V "$bin")"
floor="$(grep -o 'GLIBC_[0-9][0-9.]*' <<<"$symbols" | sed 's/GLIBC_//' | sort -uV | tail -1)"
at_floor="$(grep "GLIBC_$floor" <<<"$symbols" | awk '{print $NF}' | sort -u | tr '\n' ' ')"
# Packed relative relocations (DT_RELR, scripts/release.sh) need glibc 2.36: the loader says so through
# the GLIBC_ABI_DT_RELR version, which no symbol carries.
if grep -q 'GLIBC_ABI_DT_RELR' <<<"$versions" && [ "$(printf '%s\n2.36\n' "$floor" | sort -V | tail -1)" != "$floor" ]; then
  floor=2.36
  at_floor="GLIBC_ABI_DT_RELR (packed relative relocations)"
fi
echo "glibc floor: $floor (symbols at that version: $at_floor)"
if grep -q "glibc $floor" "$root/README.md"; then
  ok "README states glibc $floor"
else
  fail "README.md does not state the glibc floor 'glibc $floor' (the binary references GLIBC_$floor: $at_floor)"
fi

if [ "$failures" -gt 0 ]; then
  echo "test-release: $failures failure(s)" >&2
  exit 1
fi
echo "test-release: $tarball is self-contained (needs glibc >= $floor)"
