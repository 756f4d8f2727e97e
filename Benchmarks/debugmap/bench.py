"""Debug map against dSYM on a 2,000-object Debug build, and `audit --collect` of it (see run.sh)."""
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

binary, work, objects, addresses = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
repeat = int(os.environ.get("REPEAT", "1"))
target = ["-target", "arm64-apple-ios15.0"]


def build():
    """N C files, each an inlined helper and two functions calling into the next file."""
    if os.path.exists(os.path.join(work, "App.dSYM")) and os.path.exists(os.path.join(work, "count")) \
            and open(os.path.join(work, "count")).read() == str(objects):
        return
    shutil.rmtree(work, ignore_errors=True)
    src, obj = os.path.join(work, "src"), os.path.join(work, "obj")
    os.makedirs(src)
    os.makedirs(obj)
    for i in range(objects):
        nxt = (i + 1) % objects
        with open(os.path.join(src, f"unit{i}.c"), "w") as f:
            f.write(f"int unit{nxt}_work(int);\n"
                    f"static inline int unit{i}_scale(int v) {{ return v * {i % 7 + 2} + {i}; }}\n"
                    f"__attribute__((noinline)) int unit{i}_step(int v) {{\n    return unit{i}_scale(v) ^ (v >> 3);\n}}\n"
                    f"int unit{i}_work(int v) {{\n    if (v <= 0) return {i};\n"
                    f"    return unit{i}_step(v) + unit{nxt}_work(v - 1);\n}}\n")

    def compile_one(i):
        subprocess.run(["clang", *target, "-g", "-O1", "-c", os.path.join(src, f"unit{i}.c"), "-o",
                        os.path.join(obj, f"unit{i}.o")], check=True)

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        list(pool.map(compile_one, range(objects)))
    listing = os.path.join(work, "objects.txt")
    with open(listing, "w") as f:
        f.writelines(os.path.join(obj, f"unit{i}.o") + "\n" for i in range(objects))
    subprocess.run(["ld64.lld-19", "-arch", "arm64", "-platform_version", "ios", "15.0", "15.0", "-e", "_unit0_work",
                    "-undefined", "dynamic_lookup", "-execute", "-filelist", listing, "-o", os.path.join(work, "App")],
                   check=True)
    subprocess.run(["dsymutil-19", os.path.join(work, "App"), "-o", os.path.join(work, "App.dSYM")], check=True)
    with open(os.path.join(work, "count"), "w") as f:
        f.write(str(objects))


def timed(command):
    """(wall seconds, max RSS MiB, stdout) of one run under /usr/bin/time -v."""
    result = subprocess.run(["/usr/bin/time", "-v", *command], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"failed ({result.returncode}): {' '.join(command[:4])} …\n{result.stderr[-2000:]}")
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", result.stderr)
    h = float(wall.group(1) or 0)
    seconds = h * 3600 + float(wall.group(2)) * 60 + float(wall.group(3))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr).group(1)) / 1024
    return seconds, rss, result.stdout


build()
app = os.path.join(work, "App")
dsym = os.path.join(work, "App.dSYM")
nm = subprocess.run(["llvm-nm-19", "--defined-only", app], capture_output=True, text=True, check=True).stdout
functions = sorted(int(a, 16) for a, kind, name in (l.split() for l in nm.splitlines() if len(l.split()) == 3)
                   if kind in "Tt" and name.endswith("_step"))
step = max(1, len(functions) // addresses)
chosen = ["0x%x" % (a + 4) for a in functions[::step][:addresses]]
runs = {
    "debug map": [binary, "atos", "-o", app, "--arch", "arm64", "-i", *chosen],
    "dSYM": [binary, "atos", "-o", dsym, "--arch", "arm64", "-i", *chosen],
    "llvm-symbolizer-19 (dSYM)": ["llvm-symbolizer-19", "--obj=" + os.path.join(dsym, "Contents/Resources/DWARF/App"),
                                  "--inlining", "--functions=linkage", *chosen],
}
results = {}
for name, command in runs.items():
    best = None
    for _ in range(repeat):
        run = timed(command)
        best = run if best is None or run[0] < best[0] else best
    results[name] = best
same = results["debug map"][2] == results["dSYM"][2]
print(f"{objects} objects, {len(chosen)} addresses, best of {repeat}")
for name, (wall, rss, _) in results.items():
    print(f"  {name:28} {wall:7.3f} s  {rss:8.1f} MiB")
mapped, linked = results["debug map"], results["dSYM"]
print(f"  debug map / dSYM: wall {mapped[0] / linked[0]:.2f}x, memory {mapped[1] / linked[1]:.2f}x; "
      f"answers {'equal' if same else 'DIFFERENT'}")

# `audit --collect` of the same binary (issue 49): dsymutil-19 through symbolicate (objects laid
# out for it, the dSYM's UUID and answers checked, the bundle written atomically) against
# dsymutil-19 alone on the binary.
build_folder, collected = os.path.join(work, "build"), os.path.join(work, "collected")
shutil.rmtree(build_folder, ignore_errors=True)
os.makedirs(build_folder)
shutil.copy2(app, os.path.join(build_folder, "App"))
collect_runs = {
    "audit --collect": [binary, "audit", build_folder, "--collect", collected, "--dsymutil", shutil.which("dsymutil-19")],
    "dsymutil-19 alone": ["dsymutil-19", app, "-o", os.path.join(work, "direct.dSYM")],
}
collect_results = {}
for name, command in collect_runs.items():
    best = None
    for _ in range(repeat):
        if name == "audit --collect":
            shutil.rmtree(collected, ignore_errors=True)
        run = timed(command)
        best = run if best is None or run[0] < best[0] else best
    collect_results[name] = best
bundles = os.listdir(collected)
for name, (wall, rss, _) in collect_results.items():
    print(f"  {name:28} {wall:7.3f} s  {rss:8.1f} MiB")
through, alone = collect_results["audit --collect"], collect_results["dsymutil-19 alone"]
print(f"  audit --collect / dsymutil-19: wall {through[0] / alone[0]:.2f}x; collected {bundles}")
sys.exit(0 if same and len(bundles) == 1 else 1)
