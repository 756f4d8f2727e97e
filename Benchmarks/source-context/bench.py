#!/usr/bin/env python3
"""Source-context benchmark: COUNT reports through `symbolicate batch`, without and with
--source-root, RUNS times each (alternating), median wall time of each and the share the
source lines and git history add (goal: at most 20 %).

The checkout is a git repository made here from Fixtures/src (the compile paths the fixture
dSYMs name: /src/CrashApp/…, /src/CrashKit/…), one commit per app version 1.0 … 1.4 (the
versions generate.py gives the reports) tagged v1.0 … v1.4, each changing one line. `git` is
run through a wrapper first on PATH that counts its invocations by subcommand, so the table
shows how many blames the run needed (one per distinct commit, file and line).

Usage: bench.py SYMBOLICATE_BINARY FIXTURES_DIR WORK_DIR [COUNT] [RUNS]
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "bench@example.com", "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
}


def git(checkout, *args, date="2024-01-01T10:00:00+0000"):
    env = dict(os.environ, **GIT_ENV, GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    subprocess.check_call(["git", "-C", checkout, *args], env=env, stdout=subprocess.DEVNULL)


def make_checkout(fixtures, checkout):
    shutil.rmtree(checkout, ignore_errors=True)
    shutil.copytree(os.path.join(fixtures, "src"), checkout)
    git(checkout, "init", "-q", "-b", "main")
    git(checkout, "remote", "add", "origin", "git@github.com:example/CrashApp.git")
    git(checkout, "add", "-A")
    git(checkout, "commit", "-q", "-m", "Sources")
    readme = os.path.join(checkout, "CHANGES")
    for minor in range(5):
        with open(readme, "a") as f:
            f.write("1.%d\n" % minor)
        git(checkout, "add", "-A", date="2024-0%d-01T10:00:00+0000" % (minor + 2))
        git(checkout, "commit", "-q", "-m", "Release 1.%d" % minor, date="2024-0%d-01T10:00:00+0000" % (minor + 2))
        git(checkout, "tag", "v1.%d" % minor)


def git_wrapper(folder, log):
    """A `git` that logs its subcommand and runs the real one."""
    real = shutil.which("git")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "git")
    with open(path, "w") as f:
        f.write("#!/bin/sh\n"
                "for a in \"$@\"; do case \"$a\" in -C) skip=1;; *) if [ -n \"$skip\" ]; then skip=; else echo \"$a\" >> '%s'; break; fi;; esac; done\n"
                "exec '%s' \"$@\"\n" % (log, real))
    os.chmod(path, 0o755)


def run(argv, env):
    started = time.monotonic()
    with open(os.devnull, "wb") as devnull:
        code = subprocess.call(argv, stdout=devnull, stderr=devnull, env=env)
    if code not in (0, 1):
        sys.exit("%s exited %d" % (" ".join(argv), code))
    return time.monotonic() - started


def main():
    binary, fixtures, work = sys.argv[1], sys.argv[2], sys.argv[3]
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 600
    runs = int(sys.argv[5]) if len(sys.argv) > 5 else 5
    reports = os.path.join(work, "reports-%d" % count)
    if not os.path.isdir(reports) or len(os.listdir(reports)) != count:
        shutil.rmtree(reports, ignore_errors=True)
        os.makedirs(work, exist_ok=True)
        subprocess.check_call([sys.executable, os.path.join(HERE, "..", "batch", "generate.py"), fixtures, reports, str(count)])
    checkout = os.path.join(work, "checkout")
    make_checkout(fixtures, checkout)
    log = os.path.join(work, "git-commands.log")
    git_wrapper(os.path.join(work, "bin"), log)
    env = dict(os.environ, PATH=os.path.join(work, "bin") + os.pathsep + os.environ.get("PATH", ""))
    out_root = tempfile.mkdtemp(prefix="symbolicate-source-bench-", dir="/dev/shm" if os.path.isdir("/dev/shm") else work)
    dsyms = os.path.join(fixtures, "dsyms")
    base = [binary, "batch", reports, "--dsyms", dsyms, "--no-progress"]
    without, with_source = [], []
    for n in range(runs):
        without.append(run(base + ["--output", os.path.join(out_root, "plain-%d" % n)], env))
        if os.path.exists(log):
            os.remove(log)
        with_source.append(run(base + ["--output", os.path.join(out_root, "source-%d" % n), "--source-root", checkout], env))
    commands = {}
    with open(log) as f:
        for line in f:
            commands[line.strip()] = commands.get(line.strip(), 0) + 1
    shutil.rmtree(out_root, ignore_errors=True)
    a, b = statistics.median(without), statistics.median(with_source)
    load = os.getloadavg()[0]
    print("%d reports, %d runs each (alternating), load average %.1f at the end." % (count, runs, load))
    print()
    print("| run | median wall (s) | runs (s) |")
    print("|---|---:|---|")
    print("| batch | %.2f | %s |" % (a, ", ".join("%.2f" % x for x in without)))
    print("| batch --source-root | %.2f | %s |" % (b, ", ".join("%.2f" % x for x in with_source)))
    print()
    print("Added: %.1f %% (goal: at most 20 %%). git commands in the last run: %s."
          % ((b / a - 1) * 100, ", ".join("%s %d" % kv for kv in sorted(commands.items()))))


if __name__ == "__main__":
    main()
