#!/usr/bin/env python3
"""ELF build of the lookup benchmark's generated program (issue 12: the Linux path must cost
no more per address than the Mach-O one): the same C++ sources as generate.py, compiled for
x86_64-linux-gnu with -g -O1, linked into a shared object with ld.lld-19, and split like a
production build (`objcopy --only-keep-debug` → BenchApp.debug). Output in
Benchmarks/work/elf/ (git-ignored); reused when present.

Usage: elf.py  (run.py calls it; the sources come from generate.py, run first if needed)
"""
import os, subprocess, sys, shutil
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.environ.get("BENCH_WORK", os.path.join(HERE, "work"))
SRC = os.path.join(WORK, "src")
OUT = os.path.join(WORK, "elf")
OBJ = os.path.join(OUT, "obj")
CLANG = shutil.which("clang") or "/opt/swift/usr/bin/clang"
DEBUG = os.path.join(OUT, "BenchApp.debug")

def compile_one(name):
    obj = os.path.join(OBJ, name.replace(".cpp", ".o"))
    if not os.path.exists(obj):
        subprocess.run([CLANG, "-target", "x86_64-linux-gnu", "-g", "-O1", "-fPIC", "-fno-exceptions", "-c",
                        os.path.join(SRC, name), "-o", obj], check=True)
    return obj

def main():
    if os.path.exists(DEBUG):
        return DEBUG
    if not os.path.isdir(SRC):
        subprocess.run([sys.executable, os.path.join(HERE, "generate.py")], check=True)
    os.makedirs(OBJ, exist_ok=True)
    sources = sorted(n for n in os.listdir(SRC) if n.endswith(".cpp"))
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        objects = list(pool.map(compile_one, sources))
    library = os.path.join(OUT, "BenchApp.so")
    subprocess.run(["ld.lld-19", "-shared", "--build-id", "-o", library] + objects, check=True)
    subprocess.run(["objcopy", "--only-keep-debug", library, DEBUG], check=True)
    return DEBUG

if __name__ == "__main__":
    print(main())
