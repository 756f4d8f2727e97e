#!/usr/bin/env bash
# A Debug build of 2,000 objects without a dSYM (issue 49): 100 addresses looked up through the
# binary's debug map against the same through the dSYM dsymutil-19 links from it, and
# llvm-symbolizer-19 on that dSYM, each under /usr/bin/time -v (wall, max RSS). The answers of
# the two symbolicate runs are compared (they must be equal).
#   Benchmarks/debugmap/run.sh                        # 2,000 objects, 100 addresses, best of REPEAT (1)
#   OBJECTS=500 REPEAT=3 SYMBOLICATE_BIN=path Benchmarks/debugmap/run.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
binary="${SYMBOLICATE_BIN:-$root/.build/release/symbolicate}"
if [ -z "${SYMBOLICATE_BIN:-}" ]; then
    make -C "$root" build >&2 # the release link of Makefile's `build`
fi
exec python3 "$root/Benchmarks/debugmap/bench.py" "$binary" "$root/Benchmarks/work/debugmap" "${OBJECTS:-2000}" "${ADDRESSES:-100}"
