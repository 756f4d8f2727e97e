#!/usr/bin/env bash
# The durations tests no longer assert (issue 39): a server that is down, the implicit search
# from /, a debug-file zip unpacked once and reused; see run.py.
#   Benchmarks/timing/run.sh [all|server-down|root-search|zip|probe]
#   RUNS=9 ZIP_MIB=300 SYMBOLICATE_BIN=path Benchmarks/timing/run.sh zip
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
binary="${SYMBOLICATE_BIN:-$root/.build/release/symbolicate}"
if [ -z "${SYMBOLICATE_BIN:-}" ]; then
    make -C "$root" build >&2  # the release link of Makefile's `build`
fi
exec python3 "$root/Benchmarks/timing/run.py" "$binary" "$root/Fixtures" "$root/Benchmarks/work/timing" "${1:-all}"
