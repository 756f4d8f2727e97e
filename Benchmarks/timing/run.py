#!/usr/bin/env python3
"""The durations tests used to assert (issue 39), measured here instead: tests count what the
time stood for (connection attempts, requests, folders listed, operations), and this script
says how long it takes on this machine. Figures in Benchmarks/README.md ("Timings the tests no
longer assert").

  server-down   a report with a symbol server on a closed loopback port (the connect probe
                answers the refusal before any request is sent)
  root-search   a report run from `/` with no debug files: the implicit search lists two folders
  zip           a report against a zip of debug files (a DWARF file padded to ZIP_MIB with
                incompressible bytes): the first run unpacks it into the cache, the next ones reuse it
  probe         ConnectProbe's refusal, through `symbolicate atos --uuid … --symbol-server` on port 9

usage: run.py BINARY FIXTURES WORKDIR [all|server-down|root-search|zip|probe]
Each row is the median of RUNS runs (default 5) of the whole process.
"""
import os
import shutil
import statistics
import subprocess
import sys
import time
import zipfile


def timed(arguments, cwd=None, env=None):
    start = time.monotonic()
    result = subprocess.run(arguments, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.monotonic() - start, result


def median_of(runs, arguments, **kwargs):
    times = []
    for _ in range(runs):
        seconds, result = timed(arguments, **kwargs)
        if result.returncode not in (0, 1, 65):  # 65: atos, no source has the UUID (the point of the probe row)
            sys.exit("failed: %s\n%s" % (" ".join(arguments), result.stderr.decode(errors="replace")))
        times.append(seconds)
    return statistics.median(times), min(times), max(times)


def row(name, figures):
    median, low, high = figures
    print("| %s | %.3f | %.3f | %.3f |" % (name, median, low, high))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    binary, fixtures, work = (os.path.abspath(p) for p in sys.argv[1:4])
    which = sys.argv[4] if len(sys.argv) > 4 else "all"
    runs = int(os.environ.get("RUNS", "5"))
    os.makedirs(work, exist_ok=True)
    report = os.path.join(fixtures, "reports/swift-trap.ips")
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "xdg"), SYMBOLICATE_FETCH_TIMEOUT="5")
    print("| what | median s | min s | max s |")
    print("|---|---:|---:|---:|")
    if which in ("all", "server-down"):
        cache = os.path.join(work, "cache-down")
        row("report, symbol server down (port 9)", median_of(runs, [
            binary, report, "--symbol-server", "http://127.0.0.1:9/{id2}/{idrest}/debuginfo", "--cache-dir", cache], env=env))
    if which in ("all", "root-search"):
        row("report from / (implicit search)", median_of(
            runs, [binary, os.path.join(fixtures, "reports/null-deref.crash")], cwd="/", env=env))
    if which in ("all", "probe"):
        row("atos --uuid, symbol server down (port 9)", median_of(runs, [
            binary, "atos", "--uuid", "4C4C443B-5555-3144-A1E9-455154CFFD57", "--symbol-server",
            "http://127.0.0.1:9/{uuid}", "--cache-dir", os.path.join(work, "cache-probe"), "0x100004410"], env=env))
    if which in ("all", "zip"):
        mib = int(os.environ.get("ZIP_MIB", "300"))
        path = os.path.join(work, "symbols-%dmib.zip" % mib)
        if not os.path.exists(path):
            dwarf = open(os.path.join(fixtures, "dsyms/CrashApp.app.dSYM/Contents/Resources/DWARF/CrashApp"), "rb").read()
            kit = open(os.path.join(fixtures, "dsyms/CrashKit.framework.dSYM/Contents/Resources/DWARF/CrashKit"), "rb").read()
            with zipfile.ZipFile(path + ".tmp", "w", zipfile.ZIP_DEFLATED) as archive:
                archive.writestr("CrashApp.app.dSYM/Contents/Resources/DWARF/CrashApp", dwarf + os.urandom(mib << 20))
                archive.writestr("CrashKit.framework.dSYM/Contents/Resources/DWARF/CrashKit", kit)
            os.rename(path + ".tmp", path)
        shutil.rmtree(os.path.join(work, "xdg"), ignore_errors=True)
        first, result = timed([binary, report, path], env=env)
        print("| report + %d MiB zip, first run (unpacked into the cache) | %.3f | | |" % (mib, first))
        row("report + %d MiB zip, later runs (reused)" % mib, median_of(runs, [binary, report, path], env=env))
        no_cache = dict(env, XDG_CACHE_HOME="", HOME="")
        row("report + %d MiB zip, no cache folder (unpacked every run)" % mib, median_of(runs, [binary, report, path], env=no_cache))


if __name__ == "__main__":
    main()
