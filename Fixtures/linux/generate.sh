#!/usr/bin/env bash
# Regenerates the Linux fixtures: a small Swift program built with `swiftc -g -O` on
# x86_64 Linux, stripped, with its debug information in separate ELF files, and the
# crash logs the Swift runtime's backtracer prints for it (text and JSON), plus the
# oracle answers (llvm-symbolizer-19 | swift-demangle --simplified) for every frame
# address that falls in the program. See Fixtures/README.md ("Linux fixtures").
#
# Needs: swiftc + swift-demangle (Swift 5.9+ toolchain for Linux), binutils
# (objcopy, strip), llvm-symbolizer-19, python3. aarch64 is not built: the toolchain
# here cannot cross-compile Swift for aarch64 Linux (no aarch64 sysroot/runtime).
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
# A fixed build folder: the paths in DWARF and in the logs' Images lists stay the same
# wherever the repository is checked out.
WORK=/tmp/symbolicate-linux
SRC="$WORK/src"
BUILD="$WORK/build"

for tool in swiftc swift-demangle objcopy strip llvm-symbolizer-19 python3; do
    command -v "$tool" >/dev/null || { echo "generate.sh: missing tool: $tool" >&2; exit 1; }
done

rm -rf "$WORK"
mkdir -p "$SRC" "$BUILD"
cp "$HERE/src/crashy.swift" "$SRC/"

cd "$BUILD"
swiftc -g -O -parse-as-library "$SRC/crashy.swift" -o crashy
# Production layout: debug information kept aside, binary stripped and pointing at it.
objcopy --only-keep-debug crashy crashy.debug
strip -s crashy
objcopy --add-gnu-debuglink=crashy.debug crashy
# The same debug file with SHF_COMPRESSED .debug_* sections (zlib; zstd, which Debian 12's
# libelf 0.188 cannot decompress, for the error path).
objcopy --compress-debug-sections=zlib crashy.debug crashy-zlib.debug
objcopy --compress-debug-sections=zstd crashy.debug crashy-zstd.debug

mkdir -p "$HERE/bin" "$HERE/logs"
cp crashy crashy.debug crashy-zlib.debug crashy-zstd.debug "$HERE/bin/"

# Real crash logs, from the stripped binary deployed alone (as on a server: the debug
# file is not beside it, so the backtracer prints bare addresses for it). The backtracer
# writes to stderr after the program's own fatal-error line, so both streams go to the
# log, as a service's journal would hold them.
mkdir -p "$WORK/srv"
cp crashy "$WORK/srv/crashy"
for mode in unwrap index pointer async; do
    (cd "$WORK/srv" && SWIFT_BACKTRACE=enable=yes,interactive=no,color=no ./crashy "$mode" > "$HERE/logs/$mode.txt" 2>&1 || true)
    (cd "$WORK/srv" && SWIFT_BACKTRACE=enable=yes,interactive=no,color=no,format=json ./crashy "$mode" > "$HERE/logs/$mode.json" 2>&1 || true)
done

python3 "$HERE/oracle.py" "$HERE"
echo "generate.sh: Linux fixtures written to $HERE"
