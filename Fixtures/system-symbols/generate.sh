#!/usr/bin/env bash
# System-symbols fixtures: dylibs standing for Apple's system libraries (clang + ld64.lld-19,
# arm64e and arm64, install names under /System/Library and /usr/lib), laid out as Xcode
# DeviceSupport folders under home/, the same dylibs in dyld shared caches under caches/
# (a split iOS 15+ layout with subcache and .symbols file, and an older single-file one),
# and reports whose system frames have no names (reports/, manifest.json).
# Own work folder: /tmp/symbolicate-fixtures-system-symbols. Needs clang, ld64.lld-19,
# swift-demangle and Python 3 (standard library only).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
WORK=/tmp/symbolicate-fixtures-system-symbols
for tool in clang ld64.lld-19 swift-demangle python3; do
    command -v "$tool" >/dev/null || { echo "system-symbols/generate.sh: missing tool: $tool" >&2; exit 1; }
done
rm -rf "$WORK"
mkdir -p "$WORK"
python3 "$HERE/tools/system_symbols.py" build "$WORK" "$(dirname "$HERE")"
echo "system-symbols/generate.sh: done"
