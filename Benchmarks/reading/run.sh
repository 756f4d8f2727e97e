#!/usr/bin/env bash
# Report reading on a size axis (issue 26): frames (10k, 100k, 1M in .ips) and threads (1k,
# 10k, 100k, 200k in text), wall time and peak RSS of one run each; see bench.py.
#   Benchmarks/reading/run.sh [frames|threads|all]
#   REPEAT=3 SYMBOLICATE_BIN=path Benchmarks/reading/run.sh threads
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
binary="${SYMBOLICATE_BIN:-$root/.build/release/symbolicate}"
if [ -z "${SYMBOLICATE_BIN:-}" ]; then
    make -C "$root" build >&2  # the release link of Makefile's `build`
fi
exec python3 "$root/Benchmarks/reading/bench.py" "$binary" "$root/Fixtures" "$root/Benchmarks/work/reading" "${1:-all}"
