#!/usr/bin/env bash
# Batch-mode benchmark (issue 7): COUNT reports generated from the fixtures into the
# git-ignored Benchmarks/work/batch, symbolicated by `symbolicate batch` with --jobs 1 and with
# all cores, compared with the single-report command run once per report (on SAMPLE reports,
# extrapolated; SAMPLE=COUNT runs them all). Prints a Markdown table: wall time, reports/s and
# peak RSS of each process.
#   Benchmarks/batch/run.sh                  # 1000 reports, 100-report single-command sample
#   COUNT=5000 SAMPLE=1000 Benchmarks/batch/run.sh
#   Benchmarks/batch/run.sh memory           # resident set over a 5,000-report run (COUNT, JOBS)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
binary="${SYMBOLICATE_BIN:-$root/.build/release/symbolicate}"
if [ -z "${SYMBOLICATE_BIN:-}" ]; then
    make -C "$root" build >&2  # the release link of Makefile's `build`
fi
if [ "${1:-}" = memory ]; then
    exec python3 "$root/Benchmarks/batch/memory.py" "$binary" "$root/Fixtures" "$root/Benchmarks/work/batch-memory" "${COUNT:-5000}" "${JOBS:-2}"
fi
count="${COUNT:-1000}"
sample="${SAMPLE:-100}"
exec python3 "$root/Benchmarks/batch/bench.py" "$binary" "$root/Fixtures" "$root/Benchmarks/work/batch" "$count" "$sample"
