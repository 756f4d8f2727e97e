#!/usr/bin/env bash
# Installs the Debian packages symbolicate needs when they are missing.
#   libdwarf-dev libelf-dev zlib1g-dev : build and link (libdwarf links libelf and zlib)
#   libsqlite3-dev sqlite3             : SQLite, the debug-file store's index (GRDB links it); the
#                                        sqlite3 shell writes a newer schema in a test
#   llvm-19-dev                        : libLLVMDemangle.a, LLVM's demangler linked into the binary
#                                        so C++ names are spelled as Apple's tools spell them
#   llvm-19                            : llvm-symbolizer-19, the independent oracle for the
#                                        differential tests (skipped with a reason if absent)
#   libc6-{i386,armhf,arm64,s390x,powerpc}-cross : 32-bit, big-endian and aarch64 shared libraries the
#                                        ELF reader agreement test reads with both readers (Swift, libelf)
#   man-db bash-completion zip         : zip builds a test archive; the install test reads the installed man page with
#                                        `man -M` and loads the installed bash completion
#   chromium chromium-driver + PyPI selenium (with the oracle): the browser test of the
#                                        `symbolicate serve` page (Tests/Browser/page_test.py, run by `make test`)
#   PyPI mcp (with the oracle)         : the official Python MCP client, the peer of the `symbolicate mcp`
#                                        test (Tests/MCP/mcp_client_test.py, run by SymbolicateMCPTests in `make test`)
#   postgresql (with the oracle)       : a throwaway PostgreSQL server on loopback (scripts/with-postgres.sh)
#                                        for the tests of the store's PostgreSQL index, run by `make test`
#   wrk (SYMBOLICATE_WITH_BENCH=1)     : the load benchmark of `symbolicate serve` (Benchmarks/serve/run.sh)
#   binutils (SYMBOLICATE_WITH_RELEASE=1): strip and readelf for `make release`
#   python3-pip + PyPI lief (with the oracle): LIEF, the independent Mach-O / dyld shared cache
#                                        reader the system-symbols fixture tests compare with
#                                        (skipped with a reason when missing)
# On macOS it installs with Homebrew instead: dwarfutils (libdwarf 2.x) and pkgconf to build
# (Package.swift reads libdwarf.pc there); with the oracle also postgresql@17 (with-postgres.sh
# finds its keg), bash and bash-completion@2 (the install test; /bin/bash is 3.2) and llvm
# (llvm-symbolizer, the oracle).
# Set SYMBOLICATE_SKIP_APT=1 to skip.
set -euo pipefail
[ "${SYMBOLICATE_SKIP_APT:-0}" = 1 ] && exit 0

if [ "$(uname -s)" = Darwin ]; then
  brew_want=(dwarfutils pkgconf)
  [ "${SYMBOLICATE_WITH_ORACLE:-1}" = 1 ] && brew_want+=(postgresql@17 bash bash-completion@2 llvm)
  if ! command -v brew >/dev/null 2>&1; then
    echo "setup: macOS without Homebrew: install it (https://brew.sh), then: brew install ${brew_want[*]}" >&2
    exit 1
  fi
  brew_missing=()
  for formula in "${brew_want[@]}"; do
    brew list --formula "$formula" >/dev/null 2>&1 || brew_missing+=("$formula")
  done
  [ ${#brew_missing[@]} -eq 0 ] && exit 0
  echo "setup: brew install ${brew_missing[*]}" >&2
  brew install "${brew_missing[@]}"
  exit 0
fi
command -v dpkg-query >/dev/null 2>&1 || {
  echo "setup: neither Debian nor macOS: install libdwarf (0.x/2.x or 20210528) with its pkg-config file, libelf, zlib and SQLite yourself" >&2
  exit 0
}

want=(libdwarf-dev libelf-dev zlib1g-dev llvm-19-dev libsqlite3-dev sqlite3)
[ "${SYMBOLICATE_WITH_ORACLE:-1}" = 1 ] && want+=(llvm-19 man-db bash-completion zip python3-pip)
# debuginfod: the real server the symbol-source tests fetch ELF debug files from (issue 24).
[ "${SYMBOLICATE_WITH_ORACLE:-1}" = 1 ] && want+=(debuginfod)
# ELF files of other word sizes, byte orders and machines for ELFReaderAgreementTests (issue 36).
[ "${SYMBOLICATE_WITH_ORACLE:-1}" = 1 ] && want+=(libc6-i386-cross libc6-armhf-cross libc6-arm64-cross libc6-s390x-cross libc6-powerpc-cross)
[ "${SYMBOLICATE_WITH_ORACLE:-1}" = 1 ] && want+=(chromium chromium-driver)
# PostgreSQL's server (initdb, pg_ctl): the store's PostgreSQL index against a real one (issue 38).
[ "${SYMBOLICATE_WITH_ORACLE:-1}" = 1 ] && want+=(postgresql)
[ "${SYMBOLICATE_WITH_BENCH:-0}" = 1 ] && want+=(wrk curl)
[ "${SYMBOLICATE_WITH_RELEASE:-0}" = 1 ] && want+=(binutils)
missing=()
for pkg in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done

# LIEF from PyPI, for the tests only; a failure here is not fatal (the tests say why they skip).
install_lief() {
  [ "${SYMBOLICATE_WITH_ORACLE:-1}" = 1 ] || return 0
  python3 -c 'import lief' >/dev/null 2>&1 && return 0
  echo "setup: installing LIEF (pip)" >&2
  $sudo python3 -m pip install -q lief >/dev/null 2>&1 \
    || $sudo python3 -m pip install -q --break-system-packages lief >/dev/null 2>&1 \
    || echo "setup: could not install LIEF with pip; the LIEF comparisons will be skipped" >&2
}

# selenium from PyPI drives Debian's chromium in the page test (which fails without it: it is
# not optional in CI).
install_selenium() {
  [ "${SYMBOLICATE_WITH_ORACLE:-1}" = 1 ] || return 0
  python3 -c 'import selenium' >/dev/null 2>&1 && return 0
  echo "setup: installing selenium (pip)" >&2
  $sudo python3 -m pip install -q selenium >/dev/null 2>&1 \
    || $sudo python3 -m pip install -q --break-system-packages selenium >/dev/null 2>&1 \
    || echo "setup: could not install selenium with pip; the page test will fail" >&2
}

# The official MCP client from PyPI talks to `symbolicate mcp` in its test (skipped with the
# reason when it is missing).
install_mcp_client() {
  [ "${SYMBOLICATE_WITH_ORACLE:-1}" = 1 ] || return 0
  python3 -c 'import mcp.client.stdio' >/dev/null 2>&1 && return 0
  echo "setup: installing the MCP client (pip install mcp)" >&2
  $sudo python3 -m pip install -q mcp >/dev/null 2>&1 \
    || $sudo python3 -m pip install -q --break-system-packages mcp >/dev/null 2>&1 \
    || echo "setup: could not install the MCP client with pip; the symbolicate mcp peer test will be skipped" >&2
}

sudo=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then sudo="sudo"; fi
if [ ${#missing[@]} -eq 0 ]; then install_lief; install_selenium; install_mcp_client; exit 0; fi
if [ "$(id -u)" != 0 ] && [ -z "$sudo" ]; then echo "setup: need root to install: ${missing[*]}" >&2; exit 1; fi
echo "setup: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
install_lief
install_selenium
install_mcp_client
