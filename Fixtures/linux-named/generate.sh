#!/usr/bin/env bash
# Regenerates the named-frame Linux fixture (issue 21): a Swift program built with
# `swiftc -g -O` on x86_64 Linux, stripped, its debug file kept beside it
# (`objcopy --only-keep-debug`, `--add-gnu-debuglink`), crashing under the Swift runtime's
# backtracer. The runtime finds the debug file through .gnu_debuglink and names every frame
# from its symbol table (`Loader.load(_:) + 361 in app`) but prints no file, line or inline
# frames: what symbolicate must complete by default. Text and JSON logs, and the oracle
# answers (llvm-symbolizer-19 | swift-demangle --simplified) for every frame in the program.
# See Fixtures/README.md ("Linux named-frame fixture").
#
# Needs: swiftc + swift-demangle, binutils (objcopy, strip), llvm-symbolizer-19, python3.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
# A fixed build folder: paths in DWARF and in the logs' Images lists do not depend on
# where the repository is checked out.
WORK=/tmp/symbolicate-fixtures-linux-named
SRC="$WORK/src"
BUILD="$WORK/build"

for tool in swiftc swift-demangle objcopy strip llvm-symbolizer-19 python3; do
    command -v "$tool" >/dev/null || { echo "generate.sh: missing tool: $tool" >&2; exit 1; }
done

rm -rf "$WORK"
mkdir -p "$SRC" "$BUILD"
cp "$HERE/src/app.swift" "$SRC/"

cd "$BUILD"
# Frame pointers kept, so the runtime's default (fast) unwinder walks past the crashing frame.
swiftc -g -O -parse-as-library -module-name app -Xcc -fno-omit-frame-pointer -Xllvm -frame-pointer=all \
    "$SRC/app.swift" -o app
objcopy --only-keep-debug app app.debug
strip -s app
objcopy --add-gnu-debuglink=app.debug app

mkdir -p "$HERE/bin" "$HERE/logs"
cp app app.debug "$HERE/bin/"

# Deployed with its debug file beside it: the runtime reads that file's symbol table.
SWIFT_BACKTRACE=enable=yes,interactive=no,color=no ./app > "$HERE/logs/crash.txt" 2>&1 || true
SWIFT_BACKTRACE=enable=yes,interactive=no,color=no,format=json ./app > "$HERE/logs/crash.json" 2>&1 || true

python3 "$HERE/../linux/oracle.py" "$HERE" app
echo "generate.sh: named-frame Linux fixture written to $HERE"
