#!/usr/bin/env bash
# Lookup benchmark (see Benchmarks/README.md): builds the release binary if needed,
# generates the large dSYM into Benchmarks/work/ on first use, then measures.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .build/release/symbolicate ] || swift build -c release --product symbolicate
exec python3 Benchmarks/run.py "$@"
