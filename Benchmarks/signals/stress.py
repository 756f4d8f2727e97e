#!/usr/bin/env python3
"""Random-signal stress of `symbolicate batch` (issue 26): nothing may be left behind.

Each run starts a batch, waits a random time, sends SIGINT, SIGTERM or SIGHUP, and then
checks that the process died of that signal (or finished first) and left nothing: no
`symbolicate-*` folder in its private TMPDIR, no `.symbolicate-*.tmp` file anywhere in its
output folder. Two workloads alternate, the two that leaked before:
  zip     a stored zip of many small entries (the signal lands while it is unpacked)
  reports a folder of many reports, --jobs 2 (the signal lands while outputs are written)
The random wait is drawn from [0, 1.5 x the time the workload's unsignalled run took to write
its first output] for the zip (start-up, unpacking, the first reports) and from [0, the whole
unsignalled run] for the folder (processing, summary writing).

usage: stress.py BINARY FIXTURES WORKDIR [RUNS]        (Benchmarks/signals/run.sh)
"""
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
import time
import zlib

SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]


def stored_zip(path, entries):
    """A zip of stored entries (name, bytes), written without the zipfile module's checks."""
    out = bytearray()
    central = bytearray()
    for name, data in entries:
        raw = name.encode()
        crc = zlib.crc32(data) & 0xFFFFFFFF
        offset = len(out)
        common = struct.pack("<HHIIIIHH", 0, 0, 0, crc, len(data), len(data), len(raw), 0)
        out += struct.pack("<IH", 0x04034B50, 20) + common + raw + data
        central += struct.pack("<IHH", 0x02014B50, 20, 20) + common + struct.pack("<HHHII", 0, 0, 0, 0, offset) + raw
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(central), len(out), 0)
    with open(path, "wb") as f:
        f.write(out + central + end)


def prepare(fixtures, work):
    reports = [
        open(os.path.join(fixtures, "reports", name), "rb").read()
        for name in sorted(os.listdir(os.path.join(fixtures, "reports")))
        if name.endswith((".ips", ".crash"))
    ]
    zip_path = os.path.join(work, "reports.zip")
    if not os.path.exists(zip_path):
        stored_zip(zip_path, [(f"r/{i}.{'ips' if i % 2 else 'crash'}", reports[i % len(reports)]) for i in range(2000)])
    folder = os.path.join(work, "reports")
    if not os.path.isdir(folder):
        os.makedirs(folder)
        for i in range(300):
            with open(os.path.join(folder, f"{i}.crash"), "wb") as f:
                f.write(reports[(2 * i) % len(reports)])
    return {"zip": [zip_path, "--jobs", "1"], "reports": [folder, "--jobs", "2"]}


def leftovers(tmp, out):
    left = [os.path.join(tmp, n) for n in os.listdir(tmp)] if os.path.isdir(tmp) else []
    for folder, _, files in os.walk(out):
        left += [os.path.join(folder, n) for n in files if n.startswith(".symbolicate-")]
    return left


def run_once(binary, fixtures, work, args, sig, delay):
    tmp = os.path.join(work, "tmp")
    out = os.path.join(work, "out")
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(tmp)
    env = dict(os.environ, TMPDIR=tmp)
    command = [binary, "batch", *args[:1], "--dsyms", os.path.join(fixtures, "dsyms"), "--output", out, *args[1:], "--no-progress"]
    started = time.monotonic()
    process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    first_output = None
    if delay is None:
        # Unsignalled: note when the first report output appears (unpacking is over).
        while process.poll() is None and first_output is None:
            for _, _, files in os.walk(out):
                if any(n.endswith(".crash") for n in files):
                    first_output = time.monotonic() - started
                    break
            time.sleep(0.01)
    else:
        try:
            process.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            process.send_signal(sig)
    try:
        status = process.wait(timeout=600)
    except subprocess.TimeoutExpired:
        process.kill()
        status = process.wait()
        return "hung", time.monotonic() - started, leftovers(tmp, out), first_output
    if sig is not None and status == -sig:
        outcome = "signalled"
    elif status in (0, 1):
        outcome = "finished"
    else:
        outcome = f"status {status}"
    return outcome, time.monotonic() - started, leftovers(tmp, out), first_output


def main():
    binary, fixtures, work = sys.argv[1:4]
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 200
    os.makedirs(work, exist_ok=True)
    workloads = prepare(fixtures, work)
    seed = int(os.environ.get("SEED", time.time()))
    rng = random.Random(seed)
    durations = {}
    for name, args in workloads.items():
        outcome, elapsed, left, first = run_once(binary, fixtures, work, args, None, None)
        durations[name] = 1.5 * (first or elapsed) if name == "zip" else elapsed
        print(f"{name}: unsignalled run {elapsed:.2f} s, first output after {first or 0:.2f} s ({outcome}, {len(left)} left)")
    counts = {}
    bad = []
    for i in range(runs):
        name = "zip" if i % 2 == 0 else "reports"
        sig = SIGNALS[rng.randrange(len(SIGNALS))]
        delay = rng.uniform(0, durations[name])
        outcome, _, left, _ = run_once(binary, fixtures, work, workloads[name], sig, delay)
        counts[(name, outcome)] = counts.get((name, outcome), 0) + 1
        if left or outcome not in ("signalled", "finished"):
            bad.append((i, name, signal.Signals(sig).name, round(delay, 3), outcome, left[:3], len(left)))
    print(f"seed {seed}, {runs} runs:")
    for (name, outcome), count in sorted(counts.items()):
        print(f"  {name:8} {outcome:10} {count}")
    total_left = sum(b[-1] for b in bad)
    print(f"runs leaving files or ending badly: {len(bad)}; files left in all: {total_left}")
    for b in bad[:20]:
        print("  ", b)
    shutil.rmtree(os.path.join(work, "tmp"), ignore_errors=True)
    shutil.rmtree(os.path.join(work, "out"), ignore_errors=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
