#!/usr/bin/env python3
"""Flood and slow-client run against `symbolicate serve` (issue 38): the server's resident memory
before and after, and whether another client is answered meanwhile. Loopback only, about two
minutes. Figures go in Benchmarks/README.md ("Serve").

1. The server starts with the fixture dSYMs and its default limits; wrk warms it up (8
   connections, WARMUP seconds) and its resident memory is the baseline.
2. Flood: wrk POSTs the fixture report on 32 connections (the per-client limit) for FLOOD
   seconds, then GETs /healthz on 256 connections (most refused 503 by the connection limits)
   for FLOOD seconds; every request once had a timer kept for the 30-second time limit.
3. Slow clients: SLOW connections send their headers one byte a second, SLOW/4 send a body that
   stalls, SLOW/4 stay idle, all from 127.0.0.1, for the header timeout plus five seconds.
4. Throughout, another client (from 127.0.0.2) POSTs the report once a second: each answer's
   status is counted.

Usage: abuse.py [PATH/TO/symbolicate]   (default .build/release/symbolicate; run from the package root)
Environment: WARMUP (10), FLOOD (20), SLOW (200).
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPORT = os.path.join(ROOT, "Fixtures/reports/swift-trap.ips")
DSYMS = os.path.join(ROOT, "Fixtures/dsyms")
WARMUP = int(os.environ.get("WARMUP", "10"))
FLOOD = int(os.environ.get("FLOOD", "20"))
SLOW = int(os.environ.get("SLOW", "200"))
HEADER_TIMEOUT = 10  # the server's default --header-timeout


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def wrk(arguments, script=None):
    command = ["wrk"] + arguments + (["-s", script] if script else [])
    out = subprocess.run(command, capture_output=True, text=True).stdout
    requests = re.search(r"(\d+) requests in", out)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return int(requests.group(1)) if requests else 0, int(non2xx.group(1)) if non2xx else 0


class OtherClient(threading.Thread):
    """Another client, from its own address: one report a second, its answers counted."""

    def __init__(self, url, body):
        super().__init__(daemon=True)
        self.url, self.body = url, body
        self.statuses = {}
        self.running = True

    def run(self):
        while self.running:
            status = "no answer"
            try:
                connection = socket.create_connection((self.host, self.port), timeout=30, source_address=("127.0.0.2", 0))
                head = (f"POST /v1/symbolicate HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nContent-Length: {len(self.body)}\r\n"
                        "Content-Type: application/octet-stream\r\nConnection: close\r\n\r\n").encode()
                connection.sendall(head + self.body)
                first = connection.recv(64).decode("latin-1")
                status = first.split(" ")[1] if first.startswith("HTTP/1.1 ") else "no answer"
                connection.close()
            except OSError as error:
                status = type(error).__name__
            self.statuses[status] = self.statuses.get(status, 0) + 1
            time.sleep(1)

    @property
    def host(self):
        return "127.0.0.1"

    @property
    def port(self):
        return int(re.search(r":(\d+)/", self.url).group(1))


def slow_clients(port, count):
    """Opens slow connections: headers a byte a second, stalled bodies, idle ones. Returns how
    many the server closed by the end of the header timeout plus five seconds."""
    connections = []
    for index in range(count + count // 2):
        try:
            connection = socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError:
            continue
        connection.setblocking(False)
        kind = "headers" if index < count else ("body" if index % 2 == 0 else "idle")
        if kind == "body":
            try:
                connection.send(b"POST /v1/symbolicate HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nIncident")
            except OSError:
                pass
        connections.append([connection, kind, False])
    header = b"POST /v1/symbolicate HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"a" * 200
    deadline = time.time() + HEADER_TIMEOUT + 5
    step = 0
    while time.time() < deadline:
        for entry in connections:
            connection, kind, closed = entry
            if closed:
                continue
            try:
                if connection.recv(4096) == b"":
                    entry[2] = True
                    continue
            except BlockingIOError:
                pass
            except OSError:
                entry[2] = True
                continue
            if kind == "headers" and step < len(header):
                try:
                    connection.send(header[step:step + 1])
                except OSError:
                    entry[2] = True
        step += 1
        time.sleep(1)
    closed = sum(1 for entry in connections if entry[2])
    for entry in connections:
        entry[0].close()
    return closed, len(connections)


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/symbolicate"))
    if not shutil.which("wrk"):
        raise SystemExit("abuse: wrk is missing (apt-get install wrk)")
    work = tempfile.mkdtemp(prefix="symbolicate-abuse-")
    server = subprocess.Popen([binary, "serve", "--port", "0", "--store", os.path.join(work, "store"), "--debug-files", DSYMS],
                              stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True, cwd=ROOT)
    try:
        url = None
        deadline = time.time() + 60
        while time.time() < deadline and url is None:
            found = re.search(r"listening on (http://127\.0\.0\.1:\d+/)", server.stderr.readline())
            url = found.group(1) if found else None
        if url is None:
            raise SystemExit("abuse: the server did not start")
        # The access log is not read from here on: it goes nowhere.
        threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()
        port = int(re.search(r":(\d+)/", url).group(1))
        body = open(REPORT, "rb").read()
        script = os.path.join(work, "post.lua")
        with open(script, "w") as lua:
            lua.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/octet-stream"\n'
                      f'local file = io.open("{REPORT}", "rb")\nwrk.body = file:read("*a")\nfile:close()\n')
        print(f"machine: {os.cpu_count()} cores, load average {open('/proc/loadavg').read().split()[:3]} before the run")
        print(f"RSS after start: {rss_mib(server.pid):.1f} MiB")
        warm, _ = wrk(["-t2", "-c8", f"-d{WARMUP}s", url + "v1/symbolicate"], script)
        baseline = rss_mib(server.pid)
        print(f"RSS after warm-up ({warm} requests): {baseline:.1f} MiB")

        other = OtherClient(url, body)
        other.start()
        posted, refused_posts = wrk(["-t2", "-c32", f"-d{FLOOD}s", url + "v1/symbolicate"], script)
        print(f"flood 1: {posted} reports POSTed on 32 connections in {FLOOD} s, {refused_posts} not 2xx; RSS {rss_mib(server.pid):.1f} MiB")
        checked, refused_checks = wrk(["-t2", "-c256", f"-d{FLOOD}s", url + "healthz"])
        print(f"flood 2: {checked} GET /healthz on 256 connections in {FLOOD} s, {refused_checks} not 2xx; RSS {rss_mib(server.pid):.1f} MiB")
        after_flood = rss_mib(server.pid)
        closed, opened = slow_clients(port, SLOW)
        after_slow = rss_mib(server.pid)
        print(f"slow clients: {opened} connections opened ({SLOW} slow headers, the rest stalled bodies and idle), "
              f"{closed} closed by the server within the header timeout + 5 s")
        other.running = False
        other.join(timeout=40)
        print(f"the other client (127.0.0.2), one report a second throughout: {dict(sorted(other.statuses.items()))}")
        for name, value in [("after the floods", after_flood), ("after the slow clients", after_slow)]:
            change = (value - baseline) / baseline * 100
            print(f"RSS {name}: {value:.1f} MiB ({change:+.1f} % of the warm-up's {baseline:.1f} MiB; "
                  f"{'within' if abs(change) <= 10 else 'NOT within'} 10 %)")
        print(f"machine: load average {open('/proc/loadavg').read().split()[:3]} after the run")
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
