#!/usr/bin/env python3
"""A symbol server for the tests, on loopback only: Python's http.server serving a folder laid
out by identity (the tests build the folder: {id2}/{idrest}/debuginfo, Sentry's layouts, ...).

Paths under /fault/<kind>/ answer the rest of the path badly, for the fault tests:
  500        HTTP 500 (a server error: retried, then a warning)
  slow       sleeps 30 s before answering (past the client's time limit)
  trickle    sends the head with the whole length, then one byte a second
  truncated  sends the head with the whole length, half the body, then closes
Every request is logged as "<method> <path> <status>" to --log (the tests count downloads
there). The server stops by itself after --lifetime seconds.
"""
import argparse
import http.server
import os
import sys
import threading
import time


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, status):
        with self.server.log_lock:
            with open(self.server.log_path, "a") as log:
                log.write(f"{self.command} {self.path} {status}\n")

    def send_bytes(self, status, body, declared=None, partial=None):
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body) if declared is None else declared))
        self.end_headers()
        self.wfile.write(body if partial is None else body[:partial])
        self.wfile.flush()

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        fault = None
        if path.startswith("/fault/"):
            parts = path.split("/", 3)
            fault = parts[2]
            path = "/" + (parts[3] if len(parts) > 3 else "")
        if fault == "500":
            self.record(500)
            return self.send_bytes(500, b"internal error\n")
        if fault == "slow":
            self.record("slow")
            time.sleep(30)
        local = os.path.realpath(os.path.join(self.server.root, path.lstrip("/")))
        if not local.startswith(self.server.root + os.sep) or not os.path.isfile(local):
            self.record(404)
            return self.send_bytes(404, b"not found\n")
        with open(local, "rb") as f:
            body = f.read()
        self.record(200 if fault is None else fault)
        if fault == "truncated":
            self.send_bytes(200, body, partial=len(body) // 2)
            self.close_connection = True
            return
        if fault == "trickle":
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            for i in range(min(len(body), 60)):
                self.wfile.write(body[i:i + 1])
                self.wfile.flush()
                time.sleep(1)
            self.close_connection = True
            return
        self.send_bytes(200, body)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--lifetime", type=float, default=600)
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.root = os.path.realpath(args.root)
    server.log_path = args.log
    server.log_lock = threading.Lock()
    open(args.log, "a").close()
    threading.Timer(args.lifetime, lambda: os._exit(0)).start()
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
