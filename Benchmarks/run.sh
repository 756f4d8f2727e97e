#!/usr/bin/env bash
# Lookup benchmark (see Benchmarks/README.md): builds the release binary if needed,
# generates the large dSYM into Benchmarks/work/ on first use, then measures.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .build/release/symbolicate ] || make build  # the release link of Makefile's `build`
exec python3 Benchmarks/run.py "$@"
