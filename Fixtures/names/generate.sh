#!/usr/bin/env bash
# Regenerates the naming fixtures (issue 40): rust.tsv and swift.tsv, one `mangled<TAB>answer`
# line per name, the answer given by the tool Apple's spelling is checked against.
#
# swift.tsv: every Swift name of the committed Linux fixture executables (Fixtures/linux*/bin:
# partial applies `TA`, merged functions `Tm`, specializations `Tf…`/`Tg5`, async `TQ`/`Tu`,
# thunks `TR`, dispatch thunks `Tj`…), the Embedded Swift names of the CrashApp dSYM, and the
# Swift names sentry-cocoa's SentryCrash reports carry (`$s…`, `_T0…`), each as
# `swift-demangle --simplified` (the toolchain's, /opt/swift/usr/bin) prints it.
#
# rust.tsv: Fixtures/src/RustNames/names.rs built by
# rustc twice, with legacy mangling (`_ZN…17h<hash>E`) and with v0 (`_R…`); every Rust symbol
# of the two executables (the program's own, its generic instances, closures and trait impls,
# and the standard library's, including core::panicking) with the name `rustfilt` prints for
# it (rustc-demangle's default form: no hashes). Tests read the two files; they need neither
# rustc, rustfilt nor swift-demangle.
#
# The answers are cross-checked here against two independent demanglers before they are
# written: llvm-cxxfilt-19 (v0 only; it spells a `.0` suffix ` (.0)` and escapes non-ASCII
# chars in constants, so those lines are not compared) and GNU c++filt `-s rust` (legacy and
# v0, printed with hashes and const types, which are taken out before comparing; it drops `.0`
# suffixes, escapes chars in constants and leaves legacy `$u…$` escapes of non-ASCII
# characters as they are, so those lines are not compared).
#
# Needs: rustc (1.95 was used: ~/.cargo/bin/rustc), rustfilt (Debian's package), llvm-nm-19,
# llvm-cxxfilt-19, c++filt (binutils), swift-demangle, python3.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
SRC="$HERE/../src/RustNames/names.rs"
WORK=/tmp/symbolicate-fixtures-rust-names
RUSTC="${RUSTC:-$(command -v rustc || echo "$HOME/.cargo/bin/rustc")}"

SWIFT_DEMANGLE="${SWIFT_DEMANGLE:-$(command -v swift-demangle || echo /opt/swift/usr/bin/swift-demangle)}"
for tool in "$RUSTC" "$SWIFT_DEMANGLE" rustfilt llvm-nm-19 llvm-cxxfilt-19 c++filt python3; do
    command -v "$tool" >/dev/null || { echo "generate.sh: missing tool: $tool" >&2; exit 1; }
done

rm -rf "$WORK"
mkdir -p "$WORK"
"$RUSTC" -g --edition 2021 -o "$WORK/names-legacy" "$SRC"
"$RUSTC" -g --edition 2021 -C symbol-mangling-version=v0 -o "$WORK/names-v0" "$SRC"

{ llvm-nm-19 -j "$WORK/names-legacy"; llvm-nm-19 -j "$WORK/names-v0"; } | grep -E '^(_R|_ZN.*17h[0-9a-f]{16}E)' | LC_ALL=C sort -u >"$WORK/symbols.txt"
rustfilt <"$WORK/symbols.txt" >"$WORK/rustfilt.txt"
llvm-cxxfilt-19 <"$WORK/symbols.txt" >"$WORK/llvm.txt"
c++filt -s rust <"$WORK/symbols.txt" >"$WORK/gnu.txt"

python3 - "$WORK" "$HERE/rust.tsv" <<'PY'
import re, sys
work, out = sys.argv[1], sys.argv[2]
read = lambda name: open(f"{work}/{name}", encoding="utf-8").read().split("\n")[:-1]
symbols, rustfilt, llvm, gnu = (read(n) for n in ("symbols.txt", "rustfilt.txt", "llvm.txt", "gnu.txt"))
assert len(symbols) == len(rustfilt) == len(llvm) == len(gnu) > 500, "tool output lines do not match the symbols"
disagree = []
compared = 0
# c++filt drops a `.0` suffix, prints chars in constants escaped (`'\u{3bb}'`) and leaves legacy
# `$u…$` escapes of non-ASCII characters as they are: those lines are not compared.
comparable_gnu = lambda answer: not re.search(r"\.\d+$", answer) and "'" not in answer and answer.isascii()
for mangled, answer, theirs_llvm, theirs_gnu in zip(symbols, rustfilt, llvm, gnu):
    assert answer != mangled, f"rustfilt left {mangled} mangled"
    gnu_plain = re.sub(r"\[[0-9a-f]+\]", "", theirs_gnu)
    gnu_plain = re.sub(r"::h[0-9a-f]{16}$", "", gnu_plain)
    gnu_plain = re.sub(r"(?<=[0-9a-fx]): (?:u8|u16|u32|u64|u128|usize|i8|i16|i32|i64|i128|isize|bool|char)(?=[,>\]])", "", gnu_plain)
    if comparable_gnu(answer) and gnu_plain != answer:
        disagree.append(f"c++filt: {mangled}\n  rustfilt {answer}\n  c++filt  {gnu_plain}")
    compared += comparable_gnu(answer)
    comparable = mangled.startswith("_R") and not re.search(r"\.\d+$", answer) and "'" not in answer
    if comparable and theirs_llvm != answer:
        disagree.append(f"llvm-cxxfilt-19: {mangled}\n  rustfilt {answer}\n  llvm     {theirs_llvm}")
if disagree:
    print("\n".join(disagree[:20]), file=sys.stderr)
    sys.exit(f"generate.sh: {len(disagree)} answers differ between the demanglers")
with open(out, "w", encoding="utf-8") as f:
    for mangled, answer in zip(symbols, rustfilt):
        f.write(f"{mangled}\t{answer}\n")
print(f"generate.sh: {len(symbols)} Rust names; rustfilt and c++filt agree on {compared} (the others are not comparable), llvm-cxxfilt-19 on every v0 name it spells alike")
PY

# Swift: names from the fixtures' symbol tables and DWARF, and from sentry-cocoa's reports
# (Fixtures/thirdparty/sentry-cocoa, whose `symbol_name`s are Swift names as dladdr gives them).
{
    for f in "$HERE"/../linux/bin/* "$HERE"/../linux-named/bin/*; do llvm-nm-19 -j "$f" 2>/dev/null || true; done
    llvm-nm-19 -j "$HERE"/../dsyms/CrashApp.app.dSYM/Contents/Resources/DWARF/CrashApp
    grep -ho '"symbol_name" *: *"[^"]*"' "$HERE"/../thirdparty/sentry-cocoa/*.json | sed 's/.*: *"\(.*\)"/\1/'
} | grep -E '^_?(\$s|\$S|\$e|_T0)' | LC_ALL=C sort -u >"$WORK/swift-symbols.txt"
"$SWIFT_DEMANGLE" --simplified <"$WORK/swift-symbols.txt" >"$WORK/swift-answers.txt"
paste "$WORK/swift-symbols.txt" "$WORK/swift-answers.txt" >"$HERE/swift.tsv"
echo "generate.sh: $(wc -l <"$HERE/swift.tsv") Swift names with swift-demangle --simplified's answers"
