#!/usr/bin/env python3
"""Makes a large dSYM for the lookup benchmark's size axis without compiling more code:
COPIES copies of the first UNITS translation units that generate.py compiled, each copy's
symbols renamed with `llvm-objcopy-19 --redefine-syms` (`_c3__ZN6bench…`), linked into one
arm64 iOS executable by ld64.lld-19 and turned into a dSYM by dsymutil-19.

Compiling 1,200 units takes hours on a loaded 2-core machine; copying 100 compiled units
gives the same DWARF shapes (301 → UNITS×COPIES compile units, ~1,400 functions per
10 units) at any size in a few minutes, and the copies are real, distinct code at distinct
addresses as far as every tool is concerned.

Usage: scale.py UNITS COPIES OUT_DIR   (OUT_DIR/BenchApp.dSYM; BENCH_WORK as for generate.py)
"""
import os, shutil, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.environ.get("BENCH_WORK", os.path.join(HERE, "work"))
OBJ = os.path.join(WORK, "obj")
CLANG = shutil.which("clang") or "/opt/swift/usr/bin/clang"


def copy_object(source, copy, out_dir):
    """`source` with every symbol it defines or uses renamed `_c<copy>` + name."""
    names = subprocess.run(["llvm-nm-19", "-j", source], capture_output=True, text=True, check=True).stdout.split()
    mapping = os.path.join(out_dir, os.path.basename(source) + f".c{copy}.syms")
    with open(mapping, "w") as f:
        for name in sorted(set(names)):
            if not name.startswith("ltmp"):  # assembler-local section symbols stay as they are
                f.write(f"{name} _c{copy}{name}\n")
    target = os.path.join(out_dir, f"c{copy}-" + os.path.basename(source))
    subprocess.run(["llvm-objcopy-19", f"--redefine-syms={mapping}", source, target], check=True)
    return target


def main():
    units, copies, out_dir = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    objects = [os.path.join(OBJ, f"unit{i}.cpp.o") for i in range(units)]
    if not all(os.path.exists(o) for o in objects):
        subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), str(units)], check=True)
    staging = os.path.join(out_dir, "obj")
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(staging)
    inputs = list(objects)
    for copy in range(1, copies):
        inputs += [copy_object(o, copy, staging) for o in objects]
    main_src = os.path.join(staging, "main.cpp")
    with open(main_src, "w") as f:
        f.write("".join(f"extern \"C\" int bench_entry_{i}(int);\n" for i in range(units)))
        f.write("extern \"C\" int bench_sink(int v) { return v * 3 + 1; }\n")
        f.write("int main(int argc, char **) { return " + " + ".join(f"bench_entry_{i}(argc)" for i in range(units)) + "; }\n")
    main_obj = main_src + ".o"
    subprocess.run([CLANG, "-target", "arm64-apple-ios15.0", "-g", "-O1", "-c", main_src, "-o", main_obj], check=True)
    binary = os.path.join(out_dir, "BenchApp")
    # The copies' calls to bench_sink are to _c<N>_bench_sink, left to dynamic lookup.
    subprocess.run(["ld64.lld-19", "-arch", "arm64", "-platform_version", "ios", "15.0", "15.0", "-e", "_main",
                    "-undefined", "dynamic_lookup", "-execute", main_obj, *inputs, "-o", binary], check=True)
    dsym = binary + ".dSYM"
    shutil.rmtree(dsym, ignore_errors=True)
    subprocess.run(["dsymutil-19", binary, "-o", dsym], check=True)
    shutil.rmtree(staging)
    print(dsym)


if __name__ == "__main__":
    main()
