#!/usr/bin/env python3
"""A million frames in one crashed thread (issue 54: 32 s and 1.09 GB before the fix).

The report is `Fixtures/reports/swift-trap.ips` with its crashed thread grown to FRAMES frames:
its six top frames, then the app's own frames of that thread (CrashApp and CrashKit, addresses
the fixture dSYMs resolve) repeated as a deep recursion would, then the thread's system frames.
Three rows, each the best of REPEAT runs under `/usr/bin/time -v` (wall clock, CPU time: user +
system, which a machine shared with other builds changes far less than the wall clock, and
maximum resident set), with each symbolicate row's ratio to llvm-symbolizer-19's:

  symbolicate, no debug files   read, headline, render as Apple text
  symbolicate + dSYMs            the same with every app frame looked up in the fixture dSYMs
  llvm-symbolizer-19             the same app addresses, file and address per line on stdin

usage: bench.py BINARY FIXTURES WORKDIR [FRAMES]
"""
import json
import os
import re
import shutil
import subprocess
import sys

DWARF = {
    "CrashApp": "dsyms/CrashApp.app.dSYM/Contents/Resources/DWARF/CrashApp",
    "CrashKit": "dsyms/CrashKit.framework.dSYM/Contents/Resources/DWARF/CrashKit",
}


def generate(fixtures, path, count):
    header, body = open(os.path.join(fixtures, "reports/swift-trap.ips")).read().split("\n", 1)
    report = json.loads(body)
    images = report["usedImages"]
    thread = report["threads"][report["faultingThread"]]
    frames = thread["frames"]
    top, rest = frames[:6], frames[6:]
    app = [f for f in frames if images[f["imageIndex"]]["name"] in DWARF]
    middle = count - len(top) - len(rest)
    thread["frames"] = top + [app[i % len(app)] for i in range(max(0, middle))] + rest
    with open(path, "w") as f:
        f.write(header + "\n" + json.dumps(report, separators=(",", ":")))
    return [(images[f["imageIndex"]]["name"], f["imageOffset"]) for f in thread["frames"] if images[f["imageIndex"]]["name"] in DWARF]


def text_base(dwarf):
    """The __TEXT segment's vmaddr: llvm-symbolizer takes file addresses."""
    out = subprocess.run(["llvm-objdump-19", "--macho", "--private-headers", dwarf], capture_output=True, text=True, check=True).stdout
    match = re.search(r"segname __TEXT\n\s+vmaddr (0x[0-9a-f]+)", out)
    return int(match.group(1), 16)


def measure(command, stdin_path, repeat):
    best = None
    for _ in range(repeat):
        with open(stdin_path or os.devnull) as stdin:
            result = subprocess.run(["/usr/bin/time", "-v"] + command, stdin=stdin, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, text=True)
        if result.returncode not in (0, 1):
            raise SystemExit(f"{command[0]}: exit {result.returncode}: {result.stderr[-800:]}")
        wall = rss = None
        cpu = 0.0
        for line in result.stderr.splitlines():
            line = line.strip()
            if line.startswith("Elapsed (wall clock) time"):
                clock = line.rsplit(" ", 1)[1].split(":")
                wall = sum(float(part) * 60 ** i for i, part in enumerate(reversed(clock)))
            elif line.startswith("User time (seconds)") or line.startswith("System time (seconds)"):
                cpu += float(line.rsplit(" ", 1)[1])
            elif line.startswith("Maximum resident set size"):
                rss = int(line.rsplit(" ", 1)[1]) * 1024
        point = (wall, cpu, rss)
        best = point if best is None or point[0] < best[0] else best
    return best


def main():
    binary, fixtures, work = sys.argv[1:4]
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 1_000_000
    repeat = int(os.environ.get("REPEAT", "1"))
    os.makedirs(work, exist_ok=True)
    report = os.path.join(work, f"frames-{count}.ips")
    app_frames = generate(fixtures, report, count)
    dsyms = [os.path.join(fixtures, "dsyms/CrashApp.app.dSYM"), os.path.join(fixtures, "dsyms/CrashKit.framework.dSYM")]
    size = os.path.getsize(report)
    print(f"{count:,} frames in one thread, {len(app_frames):,} of them in the app's images; report {size / 2**20:.1f} MiB\n")
    print("| run | wall s | CPU s | max RSS MiB | wall / llvm | CPU / llvm | RSS / llvm |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    rows = [
        ("symbolicate, no debug files", [binary, report, "--format", "text"], None),
        ("symbolicate + dSYMs", [binary, report] + dsyms + ["--format", "text"], None),
    ]
    if shutil.which("llvm-symbolizer-19"):
        addresses = os.path.join(work, f"addresses-{count}.txt")
        bases = {name: text_base(os.path.join(fixtures, path)) for name, path in DWARF.items()}
        with open(addresses, "w") as f:
            for name, offset in app_frames:
                f.write(f"{os.path.join(fixtures, DWARF[name])} 0x{bases[name] + offset:x}\n")
        rows.append((f"llvm-symbolizer-19 ({len(app_frames):,} addresses)", ["llvm-symbolizer-19", "--inlining"], addresses))
    measured = [(name, measure(command, stdin, repeat)) for name, command, stdin in rows]
    llvm = measured[-1][1] if len(measured) == 3 else None
    for name, (wall, cpu, rss) in measured:
        ratios = [f"{a / b:.2f}x" if llvm else "" for a, b in zip((wall, cpu, rss), llvm or (1, 1, 1))]
        print(f"| {name} | {wall:.2f} | {cpu:.2f} | {rss / 2**20:.0f} | " + " | ".join(ratios) + " |")


if __name__ == "__main__":
    main()
