#!/usr/bin/env bash
# A million frames in one crashed thread (issue 54): an .ips generated from the swift-trap
# fixture, symbolicated by the release binary with the fixture dSYMs and printed without them,
# each under /usr/bin/time -v (wall, max RSS), next to llvm-symbolizer-19 on the same addresses.
#   Benchmarks/frames/run.sh                 # 1,000,000 frames, best of REPEAT (default 1) runs
#   FRAMES=100000 REPEAT=3 SYMBOLICATE_BIN=path Benchmarks/frames/run.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
binary="${SYMBOLICATE_BIN:-$root/.build/release/symbolicate}"
if [ -z "${SYMBOLICATE_BIN:-}" ]; then
    make -C "$root" build >&2  # the release link of Makefile's `build`
fi
# Run where it is run, the same: no source lines from a git work tree around the current directory.
export SYMBOLICATE_SOURCE_ROOT=none
exec python3 "$root/Benchmarks/frames/bench.py" "$binary" "$root/Fixtures" "$root/Benchmarks/work/frames" "${FRAMES:-1000000}"
