#!/bin/sh
# The crash inbox benchmark: 100,000 reports varied from the corpus ingested into an SQLite inbox
# (or the PostgreSQL one named by INBOX=postgres://…), then the inbox page and GET /v1/groups
# measured on loopback with wrk (apt-get install wrk): 2 threads, 16 connections, 20 s each.
# Figures go to Benchmarks/README.md ("Crash inbox").
set -eu
cd "$(dirname "$0")/../.."
# SCRATCH: the build folder (default .build); CHURN=N: N reports a second ingested while wrk runs.
# SKIP_BUILD=1: run the product already built there.
scratch=${SCRATCH:-.build}
[ -n "${SKIP_BUILD:-}" ] || swift build -c release --scratch-path "$scratch" --product inbox-benchmark >&2
port=${PORT:-18093}
# The inbox file and the server's store go to a folder of their own, removed at the end.
work=$(mktemp -d)
log="$work/log"
: >"$log"
TMPDIR="$work" "$scratch"/release/inbox-benchmark --reports "${REPORTS:-100000}" ${INBOX:+--inbox "$INBOX"} --churn "${CHURN:-0}" --serve "$port" 2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$work"' EXIT INT TERM
while ! grep -q "serving the inbox" "$log"; do
    kill -0 "$server" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 1
done
cat "$log" >&2
for path in "/inbox" "/v1/groups" "/v1/groups?page=20" "/v1/groups?version=4.11&state=new" "/v1/groups?version=4.5&os=iOS%2018.5"; do
    echo "== GET $path"
    wrk -t2 -c16 -d"${SECONDS_EACH:-20}"s --latency "http://127.0.0.1:$port$path" | grep -E "Requests/sec|50%|99%|Non-2xx"
done
