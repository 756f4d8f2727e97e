#!/usr/bin/env bash
# Refreshes the `make demo` transcript in README.md from a real run (colours off), so the
# README never shows output the tool does not produce. Run after changing the output format.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${SYMBOLICATE_BIN:-.build/debug/symbolicate}
out=$("$bin" --explain --color never Fixtures/reports/swift-trap.ips Fixtures/dsyms 2>&1 | awk '
  /^Incident Identifier/ { print "… (report header, unchanged) …"; skipping = 1 }
  skipping && /^Exception Type/ { skipping = 0 }
  skipping { next }
  crashed && ++frames > 12 { print "… (more frames, other threads, thread state and Binary Images follow)"; exit }
  /^Thread [0-9]+ Crashed:/ { crashed = 1 }
  { print }')
python3 - "$out" <<'PY'
import re, sys
readme = open("README.md").read()
block = "```text\n" + sys.argv[1].rstrip("\n") + "\n```"
new = re.sub(r"(`make demo` prints \(colours omitted\):\n\n)```text\n.*?\n```", lambda m: m.group(1) + block, readme, count=1, flags=re.S)
open("README.md", "w").write(new)
PY
