#!/usr/bin/env bash
# Source-context benchmark (issue 51): COUNT generated reports (Benchmarks/batch/generate.py)
# through `symbolicate batch` without and with --source-root (a git checkout of the fixture
# sources made here, tags v1.0 … v1.4 for the reports' app versions), RUNS times each,
# alternating; prints the median wall times, the added share and the git commands run.
#   Benchmarks/source-context/run.sh               # 600 reports, RUNS=5
#   COUNT=2000 RUNS=3 SYMBOLICATE_BIN=.build/debug/symbolicate Benchmarks/source-context/run.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
binary="${SYMBOLICATE_BIN:-$root/.build/release/symbolicate}"
if [ -z "${SYMBOLICATE_BIN:-}" ]; then
    make -C "$root" build >&2  # the release link of Makefile's `build`
fi
exec python3 "$root/Benchmarks/source-context/bench.py" "$binary" "$root/Fixtures" "$root/Benchmarks/work/source-context" \
    "${COUNT:-600}" "${RUNS:-5}"
