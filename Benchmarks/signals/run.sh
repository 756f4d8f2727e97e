#!/usr/bin/env bash
# Random-signal stress of `symbolicate batch` (issue 26): RUNS runs (default 200), each
# interrupted by SIGINT/SIGTERM/SIGHUP at a random moment, must leave 0 files behind (TMPDIR
# and output folder). Prints outcomes per workload and every run that left something.
#   Benchmarks/signals/run.sh                 # 200 runs on the release build
#   RUNS=50 SEED=1 SYMBOLICATE_BIN=.build/debug/symbolicate Benchmarks/signals/run.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
binary="${SYMBOLICATE_BIN:-$root/.build/release/symbolicate}"
if [ -z "${SYMBOLICATE_BIN:-}" ]; then
    make -C "$root" build >&2  # the release link of Makefile's `build`
fi
exec python3 "$root/Benchmarks/signals/stress.py" "$binary" "$root/Fixtures" "$root/Benchmarks/work/signals" "${RUNS:-200}"
