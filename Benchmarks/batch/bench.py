#!/usr/bin/env python3
"""Batch benchmark: COUNT generated reports through `symbolicate batch` with --jobs 1 and with
all cores, compared with running the single-report command once per report.

Peak memory is each process's own maximum resident set size (wait4 rusage), so the numbers
are the same on Linux and macOS. The single-report command runs on SAMPLE reports spread over
the whole set (every COUNT/SAMPLE-th) and is extrapolated to COUNT; set SAMPLE=COUNT to run
them all.

Usage: bench.py SYMBOLICATE_BINARY FIXTURES_DIR WORK_DIR [COUNT] [SAMPLE]
"""
import os
import shutil
import subprocess
import tempfile
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def run(argv):
    """(wall seconds, peak RSS in MiB, stderr, CPU seconds) of one process."""
    started = time.monotonic()
    with open(os.devnull, "wb") as devnull:
        process = subprocess.Popen(argv, stdout=devnull, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(process.pid, 0)
        stderr = process.stderr.read().decode("utf-8", "replace")
        process.stderr.close()
    seconds = time.monotonic() - started
    # ru_maxrss is KiB on Linux, bytes on macOS.
    rss = usage.ru_maxrss / 1024.0 if sys.platform != "darwin" else usage.ru_maxrss / (1024.0 * 1024.0)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit("%s exited %d:\n%s" % (" ".join(argv), code, stderr))
    return seconds, rss, stderr, usage.ru_utime + usage.ru_stime


def main():
    binary, fixtures, work = sys.argv[1], sys.argv[2], sys.argv[3]
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
    sample = min(count, int(sys.argv[5]) if len(sys.argv) > 5 else 100)
    reports = os.path.join(work, "reports-%d" % count)
    dsyms = os.path.join(fixtures, "dsyms")
    # The reports are made once (generate.py is deterministic) and kept: deleting thousands of
    # files and creating thousands more at once measures ext4 instead of us. ext4 skips
    # inodes freed in the last 30 s (dirty_expire_centisecs) when it allocates new ones, so
    # after such a cleanup every file batch created cost a scan past thousands of them: three
    # runs in a row measured 21x, 13x and 11x, with batch's system time growing each time.
    if not os.path.isdir(reports) or len(os.listdir(reports)) != count:
        shutil.rmtree(reports, ignore_errors=True)
        os.makedirs(work, exist_ok=True)
        subprocess.check_call([sys.executable, os.path.join(HERE, "generate.py"), fixtures, reports, str(count)])
    names = sorted(os.listdir(reports))
    # Outputs go to a new folder in RAM (/dev/shm when there is one, BATCH_OUT to choose),
    # removed afterwards, for the same reason; the single-report command writes to stdout.
    out_root = tempfile.mkdtemp(prefix="symbolicate-batch-bench-",
                                dir=os.environ.get("BATCH_OUT") or ("/dev/shm" if os.path.isdir("/dev/shm") else work))
    cores = os.cpu_count() or 1

    rows = []
    for label, jobs in (("batch --jobs 1", 1), ("batch (default: %d cores)" % cores, None)):
        out = os.path.join(out_root, "out-%s" % (jobs or "all"))
        argv = [binary, "batch", reports, "--dsyms", dsyms, "--output", out, "--no-progress"]
        if jobs:
            argv += ["--jobs", str(jobs)]
        seconds, rss, stderr, cpu = run(argv)
        written = sum(len(files) for _, _, files in os.walk(out)) - 2  # minus summary.md/json
        if written != count:
            sys.exit("%s wrote %d reports, expected %d\n%s" % (label, written, count, stderr))
        rows.append((label, count, seconds, count / seconds, cpu, rss, "measured"))

    shutil.rmtree(out_root, ignore_errors=True)
    step = max(1, count // sample)
    chosen = names[::step][:sample]
    total = 0.0
    total_cpu = 0.0
    peak = 0.0
    for name in chosen:
        seconds, rss, _, cpu = run([binary, "report", os.path.join(reports, name), dsyms])
        total += seconds
        total_cpu += cpu
        peak = max(peak, rss)
    per_report = total / len(chosen)
    how = "measured" if len(chosen) == count else "%d measured, extrapolated" % len(chosen)
    rows.append(("single-report command x %d" % count, count, per_report * count, 1 / per_report,
                 total_cpu / len(chosen) * count, peak, how))

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print("%d cores, load average %.1f at the end (other work on the machine slows the runs); outputs in %s."
          % (cores, load, os.path.dirname(out_root)))
    print()
    print("| run | reports | wall time (s) | reports/s | CPU time (s) | peak RSS (MiB) | |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for label, n, seconds, rate, cpu, rss, how in rows:
        print("| %s | %d | %.2f | %.1f | %.2f | %.1f | %s |" % (label, n, seconds, rate, cpu, rss, how))
    base = rows[2][2]
    print()
    print("batch --jobs 1 is %.1fx and batch on all cores %.1fx faster than %d single-report runs."
          % (base / rows[0][2], base / rows[1][2], count))


if __name__ == "__main__":
    main()
