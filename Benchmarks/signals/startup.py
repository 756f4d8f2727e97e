#!/usr/bin/env python3
"""Signals at start-up (issue 26): `symbolicate -` waits on its standard input (the pipe is kept
open); each run is sent SIGINT, SIGTERM or SIGHUP at a random moment of its first WINDOW
seconds and must die of it. A run still alive 3 s later lost its signal.

usage: startup.py BINARY [RUNS (200)] [WINDOW (0.05)]   (SEED in the environment, default 1)
"""
import os
import random
import signal
import subprocess
import sys
import time


def main():
    binary = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    window = float(sys.argv[3]) if len(sys.argv) > 3 else 0.05
    rng = random.Random(int(os.environ.get("SEED", "1")))
    lost, statuses = 0, {}
    for _ in range(runs):
        process = subprocess.Popen([binary, "-"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0, window))
        number = rng.choice([signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
        process.send_signal(number)
        try:
            code = process.wait(timeout=3)
            key = "died of the signal" if code == -number else f"exit {code}"
            statuses[key] = statuses.get(key, 0) + 1
        except subprocess.TimeoutExpired:
            lost += 1
            process.kill()
            process.wait()
        process.stdin.close()
    print(f"{runs} runs: {lost} signals lost; {statuses}")
    sys.exit(1 if lost else 0)


if __name__ == "__main__":
    main()
