#!/usr/bin/env bash
# Builds the audit fixtures (see Fixtures/README.md, "Audit"): a real .xcarchive of an iOS
# app, Shop, and its .ipa, each binary a case `symbolicate audit` must tell apart:
#
#   Shop.app/Shop                          app; dSYM matches (DWARF, 2 compile units)
#   PlugIns/ShopWidget.appex/ShopWidget    extension; the dSYM is of another build (rebuilt after dsymutil)
#   Frameworks/Analytics.framework         universal (arm64 + x86_64 simulator); dSYM matches both slices
#   Frameworks/Vendor.framework            no dSYM anywhere, not stripped: its own symbol table only
#   Frameworks/Ads.framework               no dSYM anywhere, stripped (llvm-strip-19 -x)
#   Frameworks/Maps.framework              built as MapsKit, renamed after dsymutil: its UUID is in MapsKit.framework.dSYM
#   Frameworks/Legacy.framework            dSYM matches but its names are bitcode-hidden (__hidden#<n>_), no BCSymbolMaps
#   Frameworks/libswiftCore.dylib          stands for Xcode's copy of the Swift runtime (install name @rpath/libswiftCore.dylib): Apple's
#
# Tools: clang (-target arm64-apple-ios15.0), llvm-mc-19, ld64.lld-19, dsymutil-19, llvm-strip-19,
# llvm-lipo-19, zip. Deterministic: fixed work dir (/tmp/symbolicate-fixtures-audit), mtimes pinned,
# paths remapped to /src/Shop; lld's UUIDs are content hashes. Outputs: Shop.xcarchive, Shop.ipa.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
WORK=/tmp/symbolicate-fixtures-audit
SRC="$WORK/src"
OBJ="$WORK/obj"
OUT="$WORK/out"

for tool in clang llvm-mc-19 ld64.lld-19 dsymutil-19 llvm-strip-19 llvm-lipo-19 zip; do
    command -v "$tool" >/dev/null || { echo "audit/generate.sh: missing tool: $tool" >&2; exit 1; }
done

rm -rf "$WORK"
mkdir -p "$SRC" "$OBJ" "$OUT" "$WORK/lipo-path"
cp "$HERE"/src/* "$SRC/"
# dsymutil-19 shells out to `lipo` for universal binaries.
ln -s "$(command -v llvm-lipo-19)" "$WORK/lipo-path/lipo"
export PATH="$WORK/lipo-path:$PATH"
export ZERO_AR_DATE=1

# cc TARGET SOURCE OBJECT [FLAGS...]
cc() {
    local target="$1" source="$2" object="$3"; shift 3
    (cd "$SRC" && clang -target "$target" -gdwarf-5 -g -O1 -Wall -Werror \
        -fdebug-prefix-map="$SRC"=/src/Shop -fdebug-compilation-dir=/src/Shop "$@" -c "$source" -o "$OBJ/$object")
    touch -d @0 "$OBJ/$object"
}
# link_app OUTPUT OBJECTS...
link_app() {
    local output="$1"; shift
    ld64.lld-19 -arch arm64 -platform_version ios 15.0 15.0 -e _main -undefined dynamic_lookup -execute \
        -rpath @executable_path/Frameworks "$@" -o "$output"
}
# link_dylib ARCH PLATFORM INSTALL_NAME OUTPUT OBJECTS...
link_dylib() {
    local arch="$1" platform="$2" install="$3" output="$4"; shift 4
    ld64.lld-19 -arch "$arch" -platform_version "$platform" 15.0 15.0 -dylib -install_name "$install" \
        -undefined dynamic_lookup "$@" -o "$output"
}
# framework NAME: Framework.c as NAME, arm64 iOS dylib at $OUT/NAME
framework() {
    cc arm64-apple-ios15.0 Framework.c "$1.o" -DPRODUCT="$1"
    link_dylib arm64 ios "@rpath/$1.framework/$1" "$OUT/$1" "$OBJ/$1.o"
}

# Shop: the app, and its dSYM.
cc arm64-apple-ios15.0 Shop.c Shop.o
cc arm64-apple-ios15.0 Cart.c Cart.o
link_app "$OUT/Shop" "$OBJ/Shop.o" "$OBJ/Cart.o"
dsymutil-19 "$OUT/Shop" -o "$OUT/Shop.app.dSYM"

# ShopWidget: the dSYM of build 1, the binary of build 2 (another UUID).
cc arm64-apple-ios15.0 Widget.c Widget1.o -DWIDGET_BUILD=1
link_app "$OUT/ShopWidget" "$OBJ/Widget1.o"
dsymutil-19 "$OUT/ShopWidget" -o "$OUT/ShopWidget.appex.dSYM"
cc arm64-apple-ios15.0 Widget.c Widget2.o -DWIDGET_BUILD=2
link_app "$OUT/ShopWidget" "$OBJ/Widget2.o"

# Analytics: universal arm64 + x86_64 (simulator), one universal dSYM.
cc arm64-apple-ios15.0 Framework.c Analytics-arm64.o -DPRODUCT=Analytics
cc x86_64-apple-ios15.0-simulator Framework.c Analytics-x86_64.o -DPRODUCT=Analytics
link_dylib arm64 ios @rpath/Analytics.framework/Analytics "$OUT/Analytics-arm64" "$OBJ/Analytics-arm64.o"
link_dylib x86_64 ios-simulator @rpath/Analytics.framework/Analytics "$OUT/Analytics-x86_64" "$OBJ/Analytics-x86_64.o"
llvm-lipo-19 -create "$OUT/Analytics-arm64" "$OUT/Analytics-x86_64" -output "$OUT/Analytics"
dsymutil-19 "$OUT/Analytics" -o "$OUT/Analytics.framework.dSYM"

# Vendor: no dSYM, symbol table kept. Ads: no dSYM, local symbols stripped.
framework Vendor
framework Ads
llvm-strip-19 -x "$OUT/Ads"

# Maps: linked as MapsKit, dSYM made, then the binary renamed (a build phase renaming the product).
framework MapsKit
dsymutil-19 "$OUT/MapsKit" -o "$OUT/MapsKit.framework.dSYM"

# Legacy: bitcode-hidden names, in the binary and its dSYM.
(cd "$SRC" && llvm-mc-19 -triple arm64-apple-ios15.0 -filetype=obj -g -dwarf-version=5 \
    -fdebug-prefix-map="$SRC"=/src/Shop Legacy.s -o "$OBJ/Legacy.o")
touch -d @0 "$OBJ/Legacy.o"
link_dylib arm64 ios @rpath/Legacy.framework/Legacy "$OUT/Legacy" "$OBJ/Legacy.o"
dsymutil-19 "$OUT/Legacy" -o "$OUT/Legacy.framework.dSYM"

# libswiftCore.dylib: the Swift runtime copy Xcode embeds for older OS targets (Apple's, no dSYM).
cc arm64-apple-ios15.0 Framework.c swiftCore.o -DPRODUCT=swift_runtime
link_dylib arm64 ios @rpath/libswiftCore.dylib "$OUT/libswiftCore.dylib" "$OBJ/swiftCore.o"
llvm-strip-19 -x "$OUT/libswiftCore.dylib"

# --- The archive ---------------------------------------------------------------
ARCHIVE="$WORK/Shop.xcarchive"
APP="$ARCHIVE/Products/Applications/Shop.app"
plist() { # plist FILE KEY=VALUE...
    local file="$1"; shift
    {
        echo '<?xml version="1.0" encoding="UTF-8"?>'
        echo '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">'
        echo '<plist version="1.0">'
        echo '<dict>'
        for pair in "$@"; do echo "	<key>${pair%%=*}</key>"; echo "	<string>${pair#*=}</string>"; done
        echo '</dict>'
        echo '</plist>'
    } > "$file"
}
bundle() { # bundle DIR EXECUTABLE IDENTIFIER PACKAGE_TYPE SOURCE_BINARY
    mkdir -p "$1"
    cp "$5" "$1/$2"
    plist "$1/Info.plist" CFBundleExecutable="$2" CFBundleIdentifier="$3" CFBundlePackageType="$4" CFBundleShortVersionString=1.0 CFBundleVersion=1
}
bundle "$APP" Shop com.example.shop APPL "$OUT/Shop"
bundle "$APP/PlugIns/ShopWidget.appex" ShopWidget com.example.shop.widget XPC! "$OUT/ShopWidget"
for name in Analytics Vendor Ads Legacy; do
    bundle "$APP/Frameworks/$name.framework" "$name" "com.example.$name" FMWK "$OUT/$name"
done
bundle "$APP/Frameworks/Maps.framework" Maps com.example.Maps FMWK "$OUT/MapsKit"
cp "$OUT/libswiftCore.dylib" "$APP/Frameworks/"
mkdir -p "$ARCHIVE/dSYMs"
for dsym in Shop.app ShopWidget.appex Analytics.framework MapsKit.framework Legacy.framework; do
    cp -R "$OUT/$dsym.dSYM" "$ARCHIVE/dSYMs/"
done
plist "$ARCHIVE/Info.plist" ArchiveVersion=2 CreationDate=2026-11-27T00:00:00Z Name=Shop SchemeName=Shop

# --- The .ipa: Payload/Shop.app, zipped with pinned times and a sorted entry list ---
mkdir -p "$WORK/ipa/Payload"
cp -R "$APP" "$WORK/ipa/Payload/"
find "$ARCHIVE" "$WORK/ipa" -type f -exec chmod 644 {} +
for binary in Shop PlugIns/ShopWidget.appex/ShopWidget Frameworks/Analytics.framework/Analytics \
    Frameworks/Vendor.framework/Vendor Frameworks/Ads.framework/Ads Frameworks/Maps.framework/Maps \
    Frameworks/Legacy.framework/Legacy Frameworks/libswiftCore.dylib; do
    chmod 755 "$APP/$binary" "$WORK/ipa/Payload/Shop.app/$binary"
done
find "$ARCHIVE" "$WORK/ipa" -exec touch -h -d 1980-01-01T00:00:00Z {} +
(cd "$WORK/ipa" && find Payload | LC_ALL=C sort | TZ=UTC zip -q -X -D -@ "$WORK/Shop.ipa")

rm -rf "$HERE/Shop.xcarchive" "$HERE/Shop.ipa"
cp -R "$ARCHIVE" "$HERE/Shop.xcarchive"
cp "$WORK/Shop.ipa" "$HERE/Shop.ipa"
echo "audit/generate.sh: done"
