#!/usr/bin/env python3
"""Generates a large C++ program for the lookup benchmark: FILES translation units with
FUNCS functions each (namespaces, classes, templates, small inline helpers that get
inlined at -O1), compiled for arm64-apple-ios15.0 with -g -O1, linked with ld64.lld-19
and turned into a dSYM with dsymutil-19. Output goes to Benchmarks/work/ (git-ignored).

Usage: generate.py [FILES] [FUNCS]   (defaults 300 and 120: about 36k functions)
Environment: BENCH_WORK=DIR to write elsewhere, BENCH_DWARF=5 for DWARF 5 (default: the
target's default, DWARF 4 for iOS 15).
"""
import os, random, subprocess, sys, shutil
from concurrent.futures import ThreadPoolExecutor

FILES = int(sys.argv[1]) if len(sys.argv) > 1 else 300
FUNCS = int(sys.argv[2]) if len(sys.argv) > 2 else 120
HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.environ.get("BENCH_WORK", os.path.join(HERE, "work"))
DWARF_FLAGS = [f"-gdwarf-{os.environ['BENCH_DWARF']}"] if os.environ.get("BENCH_DWARF") else []
SRC = os.path.join(WORK, "src")
OBJ = os.path.join(WORK, "obj")
CLANG = shutil.which("clang") or "/opt/swift/usr/bin/clang"

def unit(index, rng):
    lines = [f"// generated translation unit {index}",
             "extern \"C\" int bench_sink(int);",
             f"namespace bench{index % 17} {{ namespace unit{index} {{"]
    lines.append("template <typename T> static inline T mix(T a, T b) { return (a * 31) ^ (b + 7); }")
    lines.append("static inline int clampv(int v) { return v < 0 ? -v : (v > 1000 ? v % 1000 : v); }")
    lines.append("struct Engine { int state; int step(int v); int run(int n); };")
    for f in range(FUNCS):
        body = []
        body.append(f"  int acc = seed + {rng.randint(1, 99)};")
        for k in range(rng.randint(2, 6)):
            body.append(f"  acc = mix<int>(acc, clampv(seed * {k + 1} + {rng.randint(0, 50)}));")
            if rng.random() < 0.4:
                body.append(f"  if (acc & {1 << rng.randint(0, 8)}) acc = bench_sink(acc);")
        if f > 0 and rng.random() < 0.5:
            body.append(f"  acc += f{index}_{rng.randint(0, f - 1)}(acc & 255);")
        body.append("  return acc;")
        lines.append(f"__attribute__((noinline)) int f{index}_{f}(int seed) {{")
        lines.extend(body)
        lines.append("}")
    lines.append("int Engine::step(int v) { state = mix<int>(state, clampv(v)); return bench_sink(state); }")
    lines.append(f"int Engine::run(int n) {{ for (int i = 0; i < n; i++) step(f{index}_0(i)); return state; }}")
    lines.append("}}")
    lines.append(f"extern \"C\" int bench_entry_{index}(int n) {{ bench{index % 17}::unit{index}::Engine e{{n}}; "
                 f"return e.run(n) + bench{index % 17}::unit{index}::f{index}_{FUNCS - 1}(n); }}")
    return "\n".join(lines) + "\n"

def main():
    os.makedirs(SRC, exist_ok=True)
    os.makedirs(OBJ, exist_ok=True)
    rng = random.Random(20261121)
    sources = []
    for i in range(FILES):
        path = os.path.join(SRC, f"unit{i}.cpp")
        text = unit(i, rng)
        if not os.path.exists(path) or open(path).read() != text:
            open(path, "w").write(text)
        sources.append(path)
    main_src = os.path.join(SRC, "main.cpp")
    calls = " + ".join(f"bench_entry_{i}(argc)" for i in range(FILES))
    decls = "\n".join(f"extern \"C\" int bench_entry_{i}(int);" for i in range(FILES))
    open(main_src, "w").write(decls + "\nextern \"C\" int bench_sink(int v) { return v * 3 + 1; }\n"
                              f"int main(int argc, char **) {{ return {calls}; }}\n")
    sources.append(main_src)

    def compile_one(src):
        obj = os.path.join(OBJ, os.path.basename(src) + ".o")
        if os.path.exists(obj) and os.path.getmtime(obj) > os.path.getmtime(src):
            return obj
        subprocess.run([CLANG, "-target", "arm64-apple-ios15.0", "-g", *DWARF_FLAGS, "-O1", "-fno-exceptions",
                        "-c", src, "-o", obj], check=True)
        return obj

    with ThreadPoolExecutor(max_workers=2) as pool:
        objects = list(pool.map(compile_one, sources))
    binary = os.path.join(WORK, "BenchApp")
    subprocess.run(["ld64.lld-19", "-arch", "arm64", "-platform_version", "ios", "15.0", "15.0",
                    "-e", "_main", "-undefined", "dynamic_lookup", "-execute", *objects, "-o", binary], check=True)
    dsym = binary + ".dSYM"
    shutil.rmtree(dsym, ignore_errors=True)
    subprocess.run(["dsymutil-19", binary, "-o", dsym], check=True)
    print(dsym)

if __name__ == "__main__":
    main()
