#!/usr/bin/env bash
# Builds the Xcode-shape fixture (see Fixtures/README.md, "Xcode shapes"): one arm64 iOS
# executable, XcodeShapes, from
#   src/Shapes.cpp, src/Shapes.m, src/main.c   clang -target arm64-apple-ios15.0 (DWARF 5)
#   tools/units.py -> *.s                      llvm-mc-19 (DWARF 4 DIE trees described by hand:
#                                              Swift 5 era definitions nested in types, and
#                                              nestings of other languages)
# linked with ld64.lld-19, dSYM by dsymutil-19. Outputs (deterministic: fixed work dir,
# pinned mtimes, paths remapped to /src/XcodeShapes): bin/XcodeShapes, dsyms/XcodeShapes.app.dSYM.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
WORK=/tmp/symbolicate-fixtures-h4
SRC="$WORK/src"
OBJ="$WORK/obj"

for tool in clang llvm-mc-19 ld64.lld-19 dsymutil-19 python3; do
    command -v "$tool" >/dev/null || { echo "xcode-shapes/generate.sh: missing tool: $tool" >&2; exit 1; }
done

rm -rf "$WORK"
mkdir -p "$SRC" "$OBJ"
cp "$HERE"/src/* "$SRC/"
export ZERO_AR_DATE=1

for file in Shapes.cpp Shapes.m main.c; do
    (cd "$SRC" && clang -target arm64-apple-ios15.0 -gdwarf-5 -g -O1 -fblocks -Wall -Werror \
        -fdebug-prefix-map="$SRC"=/src/XcodeShapes -fdebug-compilation-dir=/src/XcodeShapes \
        -c "$file" -o "$OBJ/$file.o")
done
python3 "$HERE/tools/units.py" "$WORK/asm"
for unit in "$WORK"/asm/*.s; do
    llvm-mc-19 -triple arm64-apple-ios15.0 -filetype=obj -dwarf-version=4 "$unit" -o "$OBJ/$(basename "$unit" .s).o"
done
touch -d @0 "$OBJ"/*.o

ld64.lld-19 -arch arm64 -platform_version ios 15.0 15.0 -e _main -undefined dynamic_lookup -execute \
    $(cd "$OBJ" && ls *.o | LC_ALL=C sort | sed "s|^|$OBJ/|") -o "$WORK/XcodeShapes"
dsymutil-19 "$WORK/XcodeShapes" -o "$WORK/XcodeShapes.app.dSYM"

rm -rf "$HERE/bin" "$HERE/dsyms"
mkdir -p "$HERE/bin" "$HERE/dsyms"
cp "$WORK/XcodeShapes" "$HERE/bin/XcodeShapes"
cp -R "$WORK/XcodeShapes.app.dSYM" "$HERE/dsyms/"
echo "xcode-shapes/generate.sh: done"
