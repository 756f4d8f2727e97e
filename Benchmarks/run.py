#!/usr/bin/env python3
"""Lookup benchmark: `symbolicate atos -i` against `llvm-symbolizer-19 --inlining` on the
same generated dSYM and the same random addresses (inside __text), 100 and 10,000 of them;
then the same rows for the same program built as an x86_64 ELF shared object's separate
`.debug` file (elf.py; BENCH_ELF=0 skips it).
Reports median wall time and peak RSS (the child's own rusage) over RUNS runs, and the
ratios ours/llvm. Also checks that both tools agree on function/file/line for every
address (a large-scale differential check). Writes Benchmarks/work/results.md.
"""
import os, random, statistics, subprocess, sys, json, shutil, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WORK = os.environ.get("BENCH_WORK", os.path.join(HERE, "work"))
DSYM = os.path.join(WORK, "BenchApp.dSYM")
DWARF = os.path.join(DSYM, "Contents/Resources/DWARF/BenchApp")
OURS = os.environ.get("SYMBOLICATE_BIN", os.path.join(ROOT, ".build/release/symbolicate"))
LLVM = shutil.which("llvm-symbolizer-19") or "/usr/bin/llvm-symbolizer-19"
DEMANGLE = shutil.which("swift-demangle") or "/opt/swift/usr/bin/swift-demangle"
RUNS = int(os.environ.get("RUNS", "5"))

def text_range(dwarf, section="__text"):
    out = subprocess.run(["llvm-objdump-19", "--section-headers", dwarf], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[1] == section:
            size, start = int(parts[2], 16), int(parts[3], 16)
            return start, start + size
    raise SystemExit("no __text section")

TIME = shutil.which("time", path="/usr/bin") or "/usr/bin/time"

def measure(cmd, stdin_path):
    """Wall time (perf_counter around the child's whole life) and the tool's own peak RSS.

    The peak comes from GNU time (`%M`), not from this script's os.wait4: Python starts
    children with vfork, and Linux carries the parent's high-water RSS into the child's
    rusage at exec, so wait4 reported this script's own (growing) footprint as a floor
    under every tool's peak. GNU time forks from a ~2 MiB process instead."""
    with open(stdin_path) as stdin, tempfile.TemporaryFile() as out, tempfile.NamedTemporaryFile("r") as peak:
        start = time.perf_counter()
        child = subprocess.run([TIME, "-f", "%M", "-o", peak.name] + cmd, stdin=stdin, stdout=out, stderr=subprocess.DEVNULL)
        seconds = time.perf_counter() - start
        if child.returncode != 0:
            raise SystemExit(f"{cmd[0]} exited {child.returncode}")
        out.seek(0)
        return seconds, int(peak.read().split()[-1]), out.read().decode()

def chains_llvm(text):
    text = subprocess.run([DEMANGLE, "--simplified"], input=text, capture_output=True, text=True).stdout
    blocks = [b for b in text.split("\n\n") if b.strip()]
    out = []
    for b in blocks:
        lines = b.split("\n")
        frames = []
        for i in range(0, len(lines) - 1, 2):
            loc = lines[i + 1].rsplit(":", 2)
            frames.append((lines[i], loc[0], int(loc[1]) if len(loc) > 2 and loc[1].isdigit() else 0))
        out.append(frames)
    return out

def chains_ours(text):
    out = []
    for line in text.splitlines():
        obj = json.loads(line)
        # Nothing known: llvm-symbolizer prints `??` / `??:0`, we print no frames.
        out.append([(f["function"], f.get("file", "??"), f.get("line", 0)) for f in obj["frames"]] or [("??", "??", 0)])
    return out

def dsyms():
    """The size axis: the generated dSYM (~57 MB) and copies of its units linked into larger
    ones by scale.py (~270 MB by default; ~1 GB with BENCH_1GB=1). BENCH_SIZES=0 keeps only
    the first. Scaled dSYMs are built on first use and reused."""
    out = [DSYM]
    copies = [] if os.environ.get("BENCH_SIZES", "1") == "0" else [5]
    if os.environ.get("BENCH_1GB") == "1":
        copies.append(18)
    for n in copies:
        folder = os.path.join(WORK, f"scale-{n}")
        dsym = os.path.join(folder, "BenchApp.dSYM")
        if not os.path.exists(dsym):
            os.makedirs(folder, exist_ok=True)
            subprocess.run([sys.executable, os.path.join(HERE, "scale.py"), "300", str(n), folder], check=True)
        out.append(dsym)
    return out

def main():
    if not os.path.exists(DWARF):
        subprocess.run([sys.executable, os.path.join(HERE, "generate.py")] + sys.argv[1:3], check=True)
    rng = random.Random(42)
    lines = [f"{RUNS} runs of each tool per row (alternating), median shown; ratios are ours / llvm-symbolizer-19 from the same run", ""]
    lines.append("| dSYM | addresses | ours wall s | llvm wall s | wall ratio | ours peak MiB | llvm peak MiB | memory ratio | chains disagreeing |")
    lines.append("|---|---|---|---|---|---|---|---|---|")
    def row(label, debug_file, dwarf, low, high, count):
        addresses = [hex(rng.randrange(low, high) & ~3) for _ in range(count)]
        path = os.path.join(WORK, f"addresses-{count}.txt")
        open(path, "w").write("\n".join(addresses) + "\n")
        ours, theirs = [], []
        for _ in range(RUNS):
            ours.append(measure([OURS, "atos", "-i", "-o", debug_file, "-f", path], "/dev/null"))
            theirs.append(measure([LLVM, "--inlining", f"--obj={dwarf}"], path))
        ow = statistics.median(r[0] for r in ours); tw = statistics.median(r[0] for r in theirs)
        om = statistics.median(r[1] for r in ours) / 1024; tm = statistics.median(r[1] for r in theirs) / 1024
        # Differential check on the same addresses.
        ours_json = subprocess.run([OURS, "atos", "--json", "-o", debug_file, "-f", path], capture_output=True, text=True).stdout
        a, b = chains_ours(ours_json), chains_llvm(theirs[0][2])
        disagree = [i for i in range(min(len(a), len(b))) if a[i] != b[i]]
        if len(a) != len(b):
            disagree.append(min(len(a), len(b)))
        example = f" (e.g. {addresses[disagree[0]]}: ours {a[disagree[0]]}, llvm {b[disagree[0]]})" if disagree and disagree[0] < min(len(a), len(b)) else ""
        lines.append(f"| {label} | {count} | {ow:.3f} | {tw:.3f} | {ow / tw:.2f}x | {om:.1f} | {tm:.1f} | {om / tm:.2f}x | {len(disagree)} of {count}{example} |")
        print(lines[-1], flush=True)

    for dsym in dsyms():
        dwarf = os.path.join(dsym, "Contents/Resources/DWARF/BenchApp")
        low, high = text_range(dwarf)
        for count in (1, 100, 10000):
            row(f"{os.path.getsize(dwarf) / 1e6:.0f} MB", dsym, dwarf, low, high, count)
    # The same program as an x86_64 Linux shared object's separate debug file (elf.py).
    if os.environ.get("BENCH_ELF", "1") != "0":
        elf = subprocess.run([sys.executable, os.path.join(HERE, "elf.py")], capture_output=True, text=True, check=True).stdout.strip()
        low, high = text_range(elf, ".text")
        for count in (1, 100, 10000):
            row(f"{os.path.getsize(elf) / 1e6:.0f} MB ELF .debug", elf, elf, low, high, count)
    report = "\n".join(lines) + "\n"
    open(os.path.join(WORK, "results.md"), "w").write(report)
    print(report)

if __name__ == "__main__":
    main()
