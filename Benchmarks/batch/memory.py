#!/usr/bin/env python3
"""Batch memory over a long run: does resident memory stay flat while reports are processed?

Generates COUNT reports (generate.py, like bench.py) unless they are already there, runs
`symbolicate batch --jobs JOBS` over them and samples the process's resident set from
/proc/PID/status every INTERVAL seconds, with how many output files exist at that moment.
Prints the resident set after the first 500 reports, at the end of processing (before the
summary is written), the peak, and the growth per report in between.

Usage: memory.py BINARY FIXTURES_DIR WORK_DIR [COUNT] [JOBS]
  (Benchmarks/batch/run.sh memory, or directly; COUNT 5000, JOBS 2 by default)
"""
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
INTERVAL = 0.05


def rss_kib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def outputs(folder):
    try:
        return sum(1 for name in os.listdir(folder) if not name.startswith(".") and not name.startswith("summary."))
    except OSError:
        return 0


def main():
    binary, fixtures, work = sys.argv[1], sys.argv[2], sys.argv[3]
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 5000
    jobs = sys.argv[5] if len(sys.argv) > 5 else "2"
    reports = os.path.join(work, "reports-%d" % count)
    if not os.path.isdir(reports) or len(os.listdir(reports)) != count:
        shutil.rmtree(reports, ignore_errors=True)
        subprocess.check_call([sys.executable, os.path.join(HERE, "generate.py"), fixtures, reports, str(count)])
    out = os.path.join(work, "memory-out-%d" % os.getpid())
    argv = [binary, "batch", reports, "--dsyms", os.path.join(fixtures, "dsyms"), "--output", out,
            "--no-progress", "--jobs", jobs]
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    samples = []  # (seconds, outputs written, RSS KiB)
    started = time.monotonic()
    while process.poll() is None:
        kib = rss_kib(process.pid)
        if kib is not None:
            samples.append((time.monotonic() - started, outputs(out), kib))
        time.sleep(INTERVAL)
    shutil.rmtree(out, ignore_errors=True)
    if process.returncode not in (0, 1):
        sys.exit("batch exited %d" % process.returncode)
    processing = [s for s in samples if 0 < s[1] < count]
    after500 = [s for s in processing if s[1] >= 500]
    if not after500:
        sys.exit("too few samples while processing (%d); use more reports" % len(processing))
    first, last = after500[0], after500[-1]
    peak = max(s[2] for s in samples)
    low = min(s[2] for s in after500)
    high = max(s[2] for s in after500)
    per_report = (last[2] - first[2]) * 1024.0 / max(1, last[1] - first[1])
    print("%d reports, --jobs %s, %d samples every %.2f s, %.1f s in all" % (count, jobs, len(samples), INTERVAL, samples[-1][0]))
    print("| point | outputs written | RSS (MiB) |")
    print("|---|---:|---:|")
    print("| first sample after 500 reports | %d | %.1f |" % (first[1], first[2] / 1024.0))
    print("| last sample while processing | %d | %.1f |" % (last[1], last[2] / 1024.0))
    print("| lowest / highest after 500 | | %.1f / %.1f |" % (low / 1024.0, high / 1024.0))
    print("| peak of the whole run (summary included) | | %.1f |" % (peak / 1024.0))
    print()
    print("Growth while processing after the first 500 reports: %+.1f MiB (%+.0f bytes per report)."
          % ((last[2] - first[2]) / 1024.0, per_report))


if __name__ == "__main__":
    main()
