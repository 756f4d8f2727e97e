#!/usr/bin/env bash
# Fails when a Swift file differs from what `swift format` (configured by .swift-format)
# makes of it. It formats a copy, so the checkout is never changed, and prints the diff.
# Then lints the same files (Sources, Tests, Fuzz/Targets) with the same rules: no force unwrap,
# no `try!`, doc comments whose Parameters/Returns/Throws match the declaration; then refuses
# Linux-only spellings outside a Linux `#if` (scripts/check-linux-only.py).
#   scripts/check-format.sh         check (CI, `make format-check`)
#   scripts/check-format.sh --fix   format the checkout in place (`make format`)
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Sources Tests Fuzz/Targets)
if [ "${1:-}" = --fix ]; then
  exec swift format format --in-place --recursive --parallel "${paths[@]}"
fi
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
cp .swift-format "$copy/"
# tar, not GNU cp --parents: the same on macOS.
tar cf - "${paths[@]}" | (cd "$copy" && tar xf -)
(cd "$copy" && swift format format --in-place --recursive --parallel "${paths[@]}")
changed=0
for p in "${paths[@]}"; do
  diff -r -u "$p" "$copy/$p" >>"$copy/format.diff" || changed=1
done
if [ $changed = 1 ]; then
  echo "check-format: these files are not formatted as .swift-format says (scripts/check-format.sh --fix):" >&2
  head -60 "$copy/format.diff" >&2
  exit 1
fi
if ! swift format lint --strict --recursive --parallel "${paths[@]}"; then
  echo "check-format: swift format lint found the problems above (.swift-format rules)" >&2
  exit 1
fi
# Spellings that compile on Linux only, outside a Linux #if (issue 36: the Mac build).
scripts/check-linux-only.py
echo "check-format: every Swift file is formatted"
