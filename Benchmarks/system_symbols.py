#!/usr/bin/env python3
"""System-symbols cost (issue 22): one report with 50 unnamed system frames against a
2,000-image DeviceSupport folder and against a multi-GB dyld shared cache of the same images.

Generates, on first use, into Benchmarks/work/system-symbols/ (git-ignored, never committed):
COUNT dylibs (default 2000) of 400 functions and PAD bytes of __TEXT data each (default
1,500,000: ~3 GB in all), once laid out as a DeviceSupport folder and once as a split cache
(main file + .01 + .symbols), with Fixtures/system-symbols/tools/system_symbols.py. The report
is an iOS 17.5 (21F79) .ips listing 300 of the images, its 50 frames spread over 25 of them.

Each row runs the release binary RUNS times (default 5) and prints median wall time (whole
process), median peak RSS (GNU time's %M), and how many of the 50 frames came out named.
Target: under 0.2 s and 100 MiB per report.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "Benchmarks", "work", "system-symbols")
TOOL = os.path.join(ROOT, "Fixtures", "system-symbols", "tools", "system_symbols.py")
BIN = os.environ.get("SYMBOLICATE_BIN", os.path.join(ROOT, ".build", "release", "symbolicate"))
RUNS = int(os.environ.get("RUNS", "5"))
COUNT = int(os.environ.get("COUNT", "2000"))
PAD = int(os.environ.get("PAD", "1500000"))
TIME = shutil.which("time", path="/usr/bin") or "/usr/bin/time"
SLIDE = 0x1000000


def generate(kind):
    folder = os.path.join(WORK, kind)
    listing = os.path.join(folder, f"{kind}.json")
    if not os.path.exists(listing):
        print(f"generating the {COUNT}-image {kind} in {folder} (once)…", file=sys.stderr)
        shutil.rmtree(folder, ignore_errors=True)
        subprocess.run([sys.executable, TOOL, "big" + kind, folder, str(COUNT), str(PAD)], check=True)
    with open(listing) as f:
        return folder, json.load(f)


def report(images, path):
    """An .ips of iOS 17.5 (21F79) listing 300 images; 50 frames over 25 of them, 2 each."""
    listed = images[:: max(1, len(images) // 300)][:300]
    touched = listed[:: max(1, len(listed) // 25)][:25]
    index = {image["name"]: n for n, image in enumerate(listed)}
    frames = []
    for image in touched:
        for k in (3, 41):
            address = image["symbols"][k] + 8
            frames.append({"imageOffset": address - image["text"], "imageIndex": index[image["name"]]})
    header = {"app_name": "Bench", "bug_type": "309", "os_version": "iPhone OS 17.5 (21F79)", "name": "Bench",
              "incident_id": "00000000-0000-4000-8000-000000000000", "timestamp": "2024-06-18 10:20:30.00 +0200"}
    body = {
        "osVersion": {"isEmbedded": True, "train": "iPhone OS 17.5", "build": "21F79"}, "bug_type": "309", "pid": 1,
        "cpuType": "ARM-64", "procName": "Bench", "procPath": "/private/var/containers/Bundle/Application/X/Bench.app/Bench",
        "exception": {"type": "EXC_CRASH", "signal": "SIGABRT", "codes": "0x0, 0x0"}, "faultingThread": 0,
        "threads": [{"triggered": True, "id": 1, "frames": frames}],
        "usedImages": [{"source": "P", "arch": "arm64e", "base": image["text"] + SLIDE, "size": image["textSize"],
                        "uuid": image["uuid"].lower(), "path": image["path"], "name": image["name"]} for image in listed],
    }
    with open(path, "w") as f:
        f.write(json.dumps(header) + "\n" + json.dumps(body, indent=1) + "\n")
    return len(frames)


def measure(args, env):
    walls, cpus, peaks, named = [], [], [], None
    for _ in range(RUNS):
        with tempfile.NamedTemporaryFile("r") as timing:
            result = subprocess.run([TIME, "-f", "%e %U %S %M", "-o", timing.name, BIN] + args, env=env,
                                    capture_output=True, text=True)
            if result.returncode != 0:
                sys.exit(f"symbolicate failed: {result.stderr}")
            wall, user, system, peak = timing.read().split()[-4:]
        walls.append(float(wall))
        cpus.append(float(user) + float(system))
        peaks.append(int(peak) / 1024)
        named = sum(1 for line in result.stdout.splitlines() if "bench_function_" in line or "BenchClass" in line)
    return statistics.median(walls), statistics.median(cpus), statistics.median(peaks), named


def main():
    if not os.path.exists(BIN):
        sys.exit(f"{BIN} missing: make build")
    folder, images = generate("folder")
    cache_folder, cache_images = generate("cache")
    assert [i["uuid"] for i in images] == [i["uuid"] for i in cache_images]
    size = lambda top: sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(top) for f in fs)
    report_path = os.path.join(WORK, "bench-report.ips")
    frames = report(images, report_path)
    symbols_dir = os.path.join(folder, "iOS DeviceSupport", "17.5 (21F79) arm64e", "Symbols")
    cache_file = os.path.join(cache_folder, "cache", "dyld_shared_cache_arm64e")
    base_env = dict(os.environ, SYMBOLICATE_SYSTEM_SYMBOLS="", HOME=os.path.join(WORK, "no-home"))
    rows = [
        ("DeviceSupport folder, --system-symbols", ["--system-symbols", symbols_dir], base_env, size(symbols_dir)),
        ("DeviceSupport folder, default ($HOME)", [], dict(base_env, HOME=os.path.join(WORK, "home")), size(symbols_dir)),
        ("dyld shared cache, --system-symbols", ["--system-symbols", cache_file], base_env, size(os.path.join(cache_folder, "cache"))),
    ]
    # The default-folder row needs $HOME/Library/Developer/Xcode/iOS DeviceSupport.
    home = os.path.join(WORK, "home")
    xcode = os.path.join(home, "Library", "Developer", "Xcode")
    if not os.path.exists(os.path.join(xcode, "iOS DeviceSupport")):
        os.makedirs(xcode, exist_ok=True)
        os.symlink(os.path.join(folder, "iOS DeviceSupport"), os.path.join(xcode, "iOS DeviceSupport"))
    print(f"{RUNS} runs per row, median shown; report: {frames} system frames in 25 of the 300 images it lists; "
          f"{COUNT} images of {PAD:,} bytes of __TEXT data each")
    print()
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (wall time waits for a core when it is high)")
    print()
    print("| system symbols | size on disk | wall s | CPU s (user+sys) | peak MiB | frames named |")
    print("|---|---|---|---|---|---|")
    for label, extra, env, bytes_ in rows:
        wall, cpu, peak, named = measure([report_path, "--color", "never"] + extra, env)
        print(f"| {label} | {bytes_ / 2**30:.2f} GiB | {wall:.3f} | {cpu:.3f} | {peak:.1f} | {named} of {frames} |")
    wall, cpu, peak, _ = measure([report_path, "--color", "never"], dict(base_env))
    print(f"| none (the same report, no system symbols) | – | {wall:.3f} | {cpu:.3f} | {peak:.1f} | 0 of {frames} |")


if __name__ == "__main__":
    main()
