#!/usr/bin/env bash
# Builds the debug-map fixture (Fixtures/README.md, "Debug maps"): DebugMapApp, a universal
# (arm64 + x86_64) iOS executable linked by ld64.lld-19 from C, C++ and Objective-C objects
# and a static library (libDMUtil.a: MathUtil.o, TextUtil.o), with no dSYM: its debug map
# names the objects, which keep the DWARF. The dSYM dsymutil-19 links from the same map is
# kept beside it as the reference answer.
#
# Deterministic: fixed work dir (the map records absolute object paths), paths in DWARF
# remapped to /src/DebugMapApp, and every object and archive member pinned to one
# modification time, which the map records (ZERO_AR_DATE=0 makes ld64.lld-19 record it;
# `llvm-ar U` keeps it in the member headers). Git does not keep mtimes: tests copy the
# objects and pin them again (DebugMapFixture in SymbolicateTestSupport).
# Outputs: debugmap/bin/DebugMapApp, debugmap/obj/<arch>/{main.o,Shapes.o,Greeter.o,libDMUtil.a},
# debugmap/dsyms/DebugMapApp.dSYM.
#
# And the Xcode 16+ Debug layout (ENABLE_DEBUG_DYLIB, arm64): debugmap/DebugDylibApp.app/ with
# the stub executable DebugDylibApp (entry ___debug_blank_executor_main, the dylib's name in
# __TEXT,__debug_dylib and its install name in __TEXT,__debug_instlnm, no debug information),
# DebugDylibApp.debug.dylib (the app's code: the same arm64 objects plus
# obj/debugdylib/DebugEntry.o, with its own debug map and UUID) and __preview.dylib; the dSYM
# dsymutil-19 links for the debug dylib is kept as the reference answer
# (debugmap/dsyms/DebugDylibApp.debug.dylib.dSYM).
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
WORK=/tmp/symbolicate-fixtures-debugmap
SRC="$WORK/src"
MTIME=@1700000000

for tool in clang ld64.lld-19 llvm-ar-19 llvm-lipo-19 dsymutil-19; do
    command -v "$tool" >/dev/null || { echo "debugmap/generate.sh: missing tool: $tool" >&2; exit 1; }
done

rm -rf "$WORK"
mkdir -p "$SRC" "$WORK/lipo-path"
cp "$HERE"/src/* "$SRC/"
# dsymutil-19 shells out to `lipo` for universal binaries.
ln -s "$(command -v llvm-lipo-19)" "$WORK/lipo-path/lipo"
export PATH="$WORK/lipo-path:$PATH"
export ZERO_AR_DATE=0

slices=()
for arch in arm64 x86_64; do
    OBJ="$WORK/obj/$arch"
    mkdir -p "$OBJ"
    for file in main.c Shapes.cpp Greeter.m MathUtil.c TextUtil.cpp; do
        (cd "$SRC" && clang -target "$arch-apple-ios15.0" -gdwarf-4 -g -O1 -Wall -Werror \
            -fdebug-prefix-map="$SRC"=/src/DebugMapApp -fdebug-compilation-dir=/src/DebugMapApp \
            -c "$file" -o "$OBJ/${file%.*}.o")
        touch -d "$MTIME" "$OBJ/${file%.*}.o"
    done
    (cd "$OBJ" && llvm-ar-19 rcsU libDMUtil.a MathUtil.o TextUtil.o && rm MathUtil.o TextUtil.o)
    # `U` also dates the symbol table member (`__.SYMDEF`) now: pin it to 0, as `D` would.
    python3 -c 'import sys; p=sys.argv[1]; b=bytearray(open(p,"rb").read()); assert b[8:11]==b"#1/"; b[24:36]=b"0".ljust(12); open(p,"wb").write(b)' "$OBJ/libDMUtil.a"
    touch -d "$MTIME" "$OBJ/libDMUtil.a"
    ld64.lld-19 -arch "$arch" -platform_version ios 15.0 15.0 -e _main -undefined dynamic_lookup -execute \
        "$OBJ/main.o" "$OBJ/Shapes.o" "$OBJ/Greeter.o" "$OBJ/libDMUtil.a" -o "$WORK/DebugMapApp-$arch"
    slices+=("$WORK/DebugMapApp-$arch")
done
llvm-lipo-19 -create "${slices[@]}" -output "$WORK/DebugMapApp"
dsymutil-19 "$WORK/DebugMapApp" -o "$WORK/DebugMapApp.dSYM"

# --- The Xcode 16+ Debug layout ---
DD="$WORK/obj/debugdylib"
APP="$WORK/DebugDylibApp.app"
mkdir -p "$DD" "$APP"
(cd "$SRC" && clang -target arm64-apple-ios15.0 -gdwarf-4 -g -O1 -Wall -Werror \
    -fdebug-prefix-map="$SRC"=/src/DebugMapApp -fdebug-compilation-dir=/src/DebugMapApp -c DebugEntry.c -o "$DD/DebugEntry.o")
# Apple's parts (the blank executor, the Previews interposer) carry no debug information.
for file in Stub.c Preview.c; do
    (cd "$SRC" && clang -target arm64-apple-ios15.0 -O1 -Wall -Werror -c "$file" -o "$DD/${file%.*}.o")
done
touch -d "$MTIME" "$DD"/*.o
printf 'DebugDylibApp.debug.dylib' >"$WORK/debug-dylib-path.txt"
printf '@rpath/DebugDylibApp.debug.dylib' >"$WORK/debug-instlnm.txt"
ld64.lld-19 -arch arm64 -platform_version ios 15.0 15.0 -dylib -install_name @rpath/DebugDylibApp.debug.dylib \
    -undefined dynamic_lookup "$DD/DebugEntry.o" "$WORK/obj/arm64/main.o" "$WORK/obj/arm64/Shapes.o" \
    "$WORK/obj/arm64/Greeter.o" "$WORK/obj/arm64/libDMUtil.a" -o "$APP/DebugDylibApp.debug.dylib"
ld64.lld-19 -arch arm64 -platform_version ios 15.0 15.0 -execute -e ___debug_blank_executor_main -undefined dynamic_lookup \
    -sectcreate __TEXT __debug_dylib "$WORK/debug-dylib-path.txt" -sectcreate __TEXT __debug_instlnm "$WORK/debug-instlnm.txt" \
    "$DD/Stub.o" -o "$APP/DebugDylibApp"
ld64.lld-19 -arch arm64 -platform_version ios 15.0 15.0 -dylib -install_name @rpath/__preview.dylib \
    -undefined dynamic_lookup "$DD/Preview.o" -o "$APP/__preview.dylib"
dsymutil-19 "$APP/DebugDylibApp.debug.dylib" -o "$WORK/DebugDylibApp.debug.dylib.dSYM"

rm -rf "$HERE/bin" "$HERE/obj" "$HERE/dsyms" "$HERE/DebugDylibApp.app"
mkdir -p "$HERE/bin" "$HERE/dsyms"
cp "$WORK/DebugMapApp" "$HERE/bin/"
cp -R "$WORK/obj" "$HERE/obj"
# Only the debug dylib's own object is needed beside the arm64 ones (the others have no debug information).
rm "$HERE/obj/debugdylib/Stub.o" "$HERE/obj/debugdylib/Preview.o"
cp -R "$WORK/DebugMapApp.dSYM" "$WORK/DebugDylibApp.debug.dylib.dSYM" "$HERE/dsyms/"
cp -R "$APP" "$HERE/DebugDylibApp.app"
# The map records the work folder's paths: removing it leaves tests no object there by chance.
rm -rf "$WORK"
