#!/usr/bin/env bash
# Regenerates every committed fixture: Mach-O binaries, dSYMs, facts.json and
# crash reports. Needs the Swift toolchain (clang, swiftc, swift-demangle) and
# Debian llvm-19/lld-19 (ld64.lld-19, dsymutil-19, llvm-lipo-19, llvm-objdump-19,
# llvm-nm-19, llvm-dwarfdump-19, llvm-symbolizer-19).
#
# Reproducibility: objects are built in a fixed directory (WORK below) so the
# N_OSO debug-map paths are stable, their mtimes are pinned to 0, and source
# paths in DWARF are remapped to /src/... with -fdebug-prefix-map.
set -euo pipefail

FIXTURES="$(cd "$(dirname "$0")" && pwd)"
WORK=/tmp/symbolicate-fixtures
# Sources are copied to a fixed path: the Swift compiler hashes the absolute
# source path into the module's DW_AT_GNU_dwo_id, so compiling in place would
# make the dSYM bytes depend on where the repository is checked out.
SRC="$WORK/src"
BUILD="$WORK/build"

for tool in clang swiftc swift-demangle ld64.lld-19 dsymutil-19 llvm-lipo-19 \
            llvm-objdump-19 llvm-nm-19 llvm-dwarfdump-19 llvm-symbolizer-19 llvm-cxxfilt-19 python3; do
    command -v "$tool" >/dev/null || { echo "generate.sh: missing tool: $tool" >&2; exit 1; }
done

rm -rf "$WORK"
mkdir -p "$BUILD" "$WORK/lipo-path"
cp -R "$FIXTURES/src" "$SRC"
# dsymutil-19 shells out to `lipo` for universal binaries.
ln -s "$(command -v llvm-lipo-19)" "$WORK/lipo-path/lipo"
export PATH="$WORK/lipo-path:$PATH"
export ZERO_AR_DATE=1

# Paths inside DWARF become /src/<Product>/<file>.
CMAP=(-fdebug-prefix-map="$SRC"=/src -fdebug-compilation-dir=/src)
SMAP=(-debug-prefix-map "$SRC"=/src -file-compilation-dir /src)

# cc TARGET DWARF_VERSION SOURCE OUTPUT
cc() {
    (cd "$SRC" && clang -target "$1" -gdwarf-"$2" -g -O1 "${CMAP[@]}" -Wall -Werror -c "$3" -o "$4")
    touch -d @0 "$4"
}

# swift_obj DWARF_VERSION OUTPUT SOURCES...
swift_obj() {
    local dwarf="$1" out="$2"; shift 2
    (cd "$SRC" && swiftc -target arm64-apple-ios18.0 -enable-experimental-feature Embedded \
        -enable-experimental-feature Extern -wmo -parse-as-library -g -O \
        -dwarf-version="$dwarf" "${SMAP[@]}" -module-name CrashApp -emit-object "$@" -o "$out")
    touch -d @0 "$out"
}

# --- CrashKit: framework dylib (DWARF 5) -----------------------------------
OUT="$BUILD/CrashKit"
mkdir -p "$OUT"
cc arm64-apple-ios15.0 5 CrashKit/CKDecoder.c "$OUT/CKDecoder.o"
cc arm64-apple-ios15.0 5 CrashKit/CKChecksum.cpp "$OUT/CKChecksum.o"
ld64.lld-19 -arch arm64 -platform_version ios 15.0 15.0 -dylib \
    -install_name @rpath/CrashKit.framework/CrashKit -undefined dynamic_lookup \
    "$OUT/CKDecoder.o" "$OUT/CKChecksum.o" -o "$OUT/CrashKit"
dsymutil-19 "$OUT/CrashKit" -o "$OUT/CrashKit.framework.dSYM"

# --- CrashApp: iOS app, C + ObjC + C++ + Embedded Swift ---------------------
# build_crashapp NAME DWARF_VERSION
build_crashapp() {
    local name="$1" dwarf="$2" out="$BUILD/$1"
    mkdir -p "$out"
    cc arm64-apple-ios15.0 "$dwarf" CrashApp/main.c "$out/main.o"
    cc arm64-apple-ios15.0 "$dwarf" CrashApp/Records.c "$out/Records.o"
    cc arm64-apple-ios15.0 "$dwarf" CrashApp/Engine.cpp "$out/Engine.o"
    cc arm64-apple-ios15.0 "$dwarf" CrashApp/ProfileStore.m "$out/ProfileStore.o"
    swift_obj "$dwarf" "$out/Profile.o" CrashApp/Profile.swift
    # The Swift object needs iOS 18 (Embedded Swift), so the app links for 18.0.
    ld64.lld-19 -arch arm64 -platform_version ios 18.0 18.0 -e _main \
        -undefined dynamic_lookup -execute -rpath @executable_path/Frameworks \
        "$out/main.o" "$out/Records.o" "$out/Engine.o" "$out/ProfileStore.o" "$out/Profile.o" \
        "$BUILD/CrashKit/CrashKit" -o "$out/$name"
    dsymutil-19 "$out/$name" -o "$out/$name.app.dSYM"
}
build_crashapp CrashApp 5
build_crashapp CrashApp-dwarf4 4

# --- MacApp: universal macOS tool (x86_64 + arm64) --------------------------
# build_macapp NAME DWARF_VERSION
build_macapp() {
    local name="$1" dwarf="$2" out="$BUILD/$1"
    mkdir -p "$out"
    for arch in x86_64 arm64; do
        cc "$arch-apple-macos12" "$dwarf" MacApp/main.c "$out/main-$arch.o"
        ld64.lld-19 -arch "$arch" -platform_version macos 12.0 12.0 -e _main \
            -undefined dynamic_lookup -execute "$out/main-$arch.o" -o "$out/$name-$arch"
    done
    llvm-lipo-19 -create "$out/$name-x86_64" "$out/$name-arm64" -output "$out/$name"
    dsymutil-19 "$out/$name" -o "$out/$name.app.dSYM"
}
build_macapp MacApp 4
build_macapp MacApp-dwarf5 5

# --- Install into Fixtures/ -------------------------------------------------
rm -rf "$FIXTURES/bin" "$FIXTURES/dsyms"
mkdir -p "$FIXTURES/bin" "$FIXTURES/dsyms"
cp "$BUILD/CrashKit/CrashKit" "$FIXTURES/bin/CrashKit"
cp -R "$BUILD/CrashKit/CrashKit.framework.dSYM" "$FIXTURES/dsyms/"
for name in CrashApp CrashApp-dwarf4 MacApp MacApp-dwarf5; do
    cp "$BUILD/$name/$name" "$FIXTURES/bin/$name"
    cp -R "$BUILD/$name/$name.app.dSYM" "$FIXTURES/dsyms/"
done

# --- Xcode-shape DWARF (own script, own work dir /tmp/symbolicate-fixtures-h4) ---
"$FIXTURES/xcode-shapes/generate.sh"

# --- ELF naming fixtures (own script, own work dir /tmp/symbolicate-fixtures-elf-lto) ---
"$FIXTURES/elf-lto/generate.sh"

# --- System symbols: DeviceSupport folders, dyld shared caches (own script, /tmp/symbolicate-fixtures-system-symbols) ---
"$FIXTURES/system-symbols/generate.sh"

# --- Audit: an .xcarchive and .ipa of every debug-information case (own script, /tmp/symbolicate-fixtures-audit) ---
"$FIXTURES/audit/generate.sh"

# --- Debug maps: a binary without a dSYM, its objects and static library (own script, /tmp/symbolicate-fixtures-debugmap) ---
"$FIXTURES/debugmap/generate.sh"

# --- Ground truth and crash reports -----------------------------------------
python3 "$FIXTURES/tools/fixtures.py" facts "$FIXTURES"
if [ "${SKIP_REPORTS:-}" != 1 ]; then
    python3 "$FIXTURES/tools/fixtures.py" reports "$FIXTURES"
    python3 "$FIXTURES/tools/fixtures.py" verify "$FIXTURES"
    # sample / spindump / MetricKit logs and the .xccrashpoint (built from reports/).
    python3 "$FIXTURES/tools/fixtures.py" logs "$FIXTURES"
    # KSCrash / Sentry forms of the fixture crashes (built from reports/).
    python3 "$FIXTURES/tools/thirdparty.py" "$FIXTURES"
    # MetricKit forms without addresses (payload, single diagnostics) and a cut .ips (built from reports/ and logs/).
    python3 "$FIXTURES/tools/metrickit_forms.py" "$FIXTURES"
    # App Store Connect diagnostic logs holding two of those MetricKit diagnostics (built from metrickit/).
    python3 "$FIXTURES/tools/app_store_connect_forms.py" "$FIXTURES"
    # Xcode console and LLDB forms of the objc-exception crash (issue 40), from its addresses and UUIDs.
    python3 "$FIXTURES/tools/debugger_forms.py" "$FIXTURES"
    # Named-frame variants of the reports and logs (issue 21): app frames named from the symbol table.
    rm -rf "$FIXTURES/named" && python3 "$FIXTURES/tools/named.py" "$FIXTURES"
fi

# --- Abort paths, thread role, stack overflow (issue 31): text, .ips and MetricKit from one table ---
python3 "$FIXTURES/abort-paths/make_reports.py" "$FIXTURES/abort-paths/reports"

mkdir -p "$FIXTURES/reports"
(cd "$FIXTURES" && find bin dsyms reports logs facts.json -type f | LC_ALL=C sort | xargs sha256sum > "$WORK/checksums.txt")
echo "generate.sh: done; checksums in $WORK/checksums.txt"
