#!/usr/bin/env python3
"""Report reading on a size axis (issue 26): wall time and peak memory of one `symbolicate`
run (read, write back; no debug files, so no lookups) on generated reports of growing size.

  frames   .ips reports of 10k, 100k, 1M frames (1,000-frame threads, Apple's compact frame
           objects: imageOffset and imageIndex, every tenth with symbol and symbolLocation;
           1M frames is 40 MiB, under the 64 MiB report limit)
  threads  text reports of 1k, 10k, 100k, 200k threads (three frames each)

Memory per frame is (peak RSS - peak RSS of the fixture report - report bytes) / frames: what
reading costs above the report's own bytes. Run on an otherwise idle machine; each point is
the best of REPEAT runs (default 1).

usage: bench.py BINARY FIXTURES WORKDIR [frames|threads|all]
"""
import json
import os
import subprocess
import sys
import time


def ips_with_frames(fixtures, path, frames):
    header, body = open(os.path.join(fixtures, "reports/swift-trap.ips")).read().split("\n", 1)
    report = json.loads(body)
    images = len(report["usedImages"])
    per_thread = 1000
    threads = []
    for t in range(max(1, frames // per_thread)):
        threads.append({
            "id": 1000 + t,
            "frames": [
                {"imageOffset": 4096 + 4 * f, "imageIndex": f % images}
                if f % 10 else
                {"imageOffset": 4096 + 4 * f, "symbol": "function_%d" % (f % 97), "symbolLocation": f % 300, "imageIndex": f % images}
                for f in range(per_thread)
            ],
        })
    threads[0]["triggered"] = True
    report["threads"] = threads
    report["faultingThread"] = 0
    with open(path, "w") as f:
        f.write(header + "\n" + json.dumps(report, separators=(",", ":")))


def text_with_threads(fixtures, path, count):
    source = open(os.path.join(fixtures, "reports/swift-trap.crash")).read()
    head, rest = source.split("\nThread 1", 1)
    tail = rest[rest.index("\nThread 0 crashed with"):] if "\nThread 0 crashed with" in rest else rest[rest.index("\nBinary Images:"):]
    blocks = [
        "Thread %d:\n0   libsystem_kernel.dylib        \t       0x1b9d9e050 mach_msg_trap + 8\n"
        "1   libsystem_kernel.dylib        \t       0x1b9d9e6c8 mach_msg + 72\n"
        "2   CrashApp                      \t       0x1002c8410 0x1002c4000 + 17424\n" % t
        for t in range(1, count)
    ]
    with open(path, "w") as f:
        f.write(head + "\n" + "\n".join(blocks) + tail)


def measure(binary, report, repeat):
    best = None
    for _ in range(repeat):
        started = time.monotonic()
        result = subprocess.run(
            ["/usr/bin/time", "-f", "%M", binary, report, "--format", "ips" if report.endswith(".ips") else "text"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        elapsed = time.monotonic() - started
        rss_kb = int(result.stderr.strip().splitlines()[-1])
        if result.returncode not in (0, 1):
            raise SystemExit(f"{report}: exit {result.returncode}: {result.stderr[-500:]}")
        point = (elapsed, rss_kb * 1024)
        best = point if best is None or point[0] < best[0] else best
    return best


def main():
    binary, fixtures, work = sys.argv[1:4]
    which = sys.argv[4] if len(sys.argv) > 4 else "all"
    repeat = int(os.environ.get("REPEAT", "1"))
    os.makedirs(work, exist_ok=True)
    _, base_rss = measure(binary, os.path.join(fixtures, "reports/swift-trap.ips"), repeat)
    print(f"baseline (swift-trap.ips): peak RSS {base_rss / 2**20:.1f} MiB\n")
    if which in ("frames", "all"):
        print("| frames | report | wall | peak RSS | bytes/frame above the report |")
        print("| ---: | ---: | ---: | ---: | ---: |")
        for frames in (10_000, 100_000, 1_000_000):
            path = os.path.join(work, f"frames-{frames}.ips")
            if not os.path.exists(path):
                ips_with_frames(fixtures, path, frames)
            size = os.path.getsize(path)
            elapsed, rss = measure(binary, path, repeat)
            per_frame = (rss - base_rss - size) / frames
            print(f"| {frames:,} | {size / 2**20:.1f} MiB | {elapsed:.2f} s | {rss / 2**20:.0f} MiB | {per_frame:.0f} |")
        print()
    if which in ("threads", "all"):
        print("| threads | report | wall | peak RSS |")
        print("| ---: | ---: | ---: | ---: |")
        for threads in (1_000, 10_000, 100_000, 200_000):
            path = os.path.join(work, f"threads-{threads}.crash")
            if not os.path.exists(path):
                text_with_threads(fixtures, path, threads)
            size = os.path.getsize(path)
            elapsed, rss = measure(binary, path, repeat)
            print(f"| {threads:,} | {size / 2**20:.1f} MiB | {elapsed:.2f} s | {rss / 2**20:.0f} MiB |")


if __name__ == "__main__":
    main()
