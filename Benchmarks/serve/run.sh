#!/usr/bin/env bash
# Load benchmark of `symbolicate serve` (issue 25): wrk POSTs a fixture report to
# /v1/symbolicate while its dSYM is in the server's store, first to warm up, then until at least
# REQUESTS (default 100,000) requests were answered, sampling the server's resident memory
# between rounds. Prints requests/s, latency percentiles, errors and memory; figures go in
# Benchmarks/README.md ("Serve"). Uses the release build (`make build`) and wrk (Debian).
#   CONNECTIONS (8) THREADS (2) ROUND_SECONDS (10) WARMUP_SECONDS (30) REQUESTS (100000)
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${SYMBOLICATE_BIN:-.build/release/symbolicate}
REPORT=${REPORT:-Fixtures/reports/swift-trap.ips}
CONNECTIONS=${CONNECTIONS:-8}
THREADS=${THREADS:-2}
ROUND_SECONDS=${ROUND_SECONDS:-10}
WARMUP_SECONDS=${WARMUP_SECONDS:-30}
REQUESTS=${REQUESTS:-100000}
command -v wrk >/dev/null || SYMBOLICATE_WITH_BENCH=1 scripts/setup.sh
command -v wrk >/dev/null || { echo "bench-serve: wrk is missing (apt-get install wrk)" >&2; exit 1; }
command -v curl >/dev/null || { echo "bench-serve: curl is missing" >&2; exit 1; }
[ -x "$BIN" ] || { echo "bench-serve: $BIN is missing (make build)" >&2; exit 1; }

work=$(mktemp -d)
token=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
cleanup() { [ -n "${server:-}" ] && kill -TERM "$server" 2>/dev/null && wait "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

SYMBOLICATE_SERVE_TOKEN=$token "$BIN" serve --port 0 --store "$work/store" 2>"$work/server.log" &
server=$!
for _ in $(seq 1 100); do
  grep -q "listening on" "$work/server.log" && break
  sleep 0.1
done
url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$work/server.log" | head -1)
[ -n "$url" ] || { cat "$work/server.log" >&2; exit 1; }

# The report's dSYMs go into the store over the API, as a team's build step would put them.
for dwarf in Fixtures/dsyms/CrashApp.app.dSYM/Contents/Resources/DWARF/CrashApp \
  Fixtures/dsyms/CrashKit.framework.dSYM/Contents/Resources/DWARF/CrashKit; do
  curl -sf -T "$dwarf" -H "Authorization: Bearer $token" "${url}v1/debug-files" >/dev/null
done
# Captured first: `grep -q` leaving early would fail the pipe (pipefail) on curl's SIGPIPE.
answer=$(curl -sf --data-binary @"$REPORT" "${url}v1/symbolicate")
grep -q "JSONScanner.field" <<<"$answer" || { echo "bench-serve: the report is not symbolicated from the store" >&2; exit 1; }

cat >"$work/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/octet-stream"
local file = io.open("$REPORT", "rb")
wrk.body = file:read("*a")
file:close()
LUA

rss() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$server/status"; }
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) before the run"
echo "report: $REPORT ($(wc -c <"$REPORT") bytes), $CONNECTIONS connections, $THREADS wrk threads"
echo "RSS after start: $(rss) MiB"
wrk -t"$THREADS" -c"$CONNECTIONS" -d"${WARMUP_SECONDS}s" -s "$work/post.lua" "${url}v1/symbolicate" >"$work/warmup.txt"
warm=$(rss)
echo "RSS after warm-up ($(awk '/requests in/ { print $1 }' "$work/warmup.txt") requests): $warm MiB"

total=0 errors=0 round=0 min=$warm max=$warm
rates=() p50s=() p99s=()
while [ "$total" -lt "$REQUESTS" ]; do
  round=$((round + 1))
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${ROUND_SECONDS}s" --latency -s "$work/post.lua" "${url}v1/symbolicate" >"$work/round.txt"
  count=$(awk '/requests in/ { print $1 }' "$work/round.txt")
  total=$((total + count))
  bad=$(awk '/Non-2xx/ { print $NF }' "$work/round.txt")
  socket=$(awk -F'[ ,]+' '/Socket errors/ { print $4 + $6 + $8 + $10 }' "$work/round.txt")
  errors=$((errors + ${bad:-0} + ${socket:-0}))
  rate=$(awk '/Requests\/sec/ { print $2 }' "$work/round.txt")
  p50=$(awk '$1 == "50%" { print $2 }' "$work/round.txt")
  p99=$(awk '$1 == "99%" { print $2 }' "$work/round.txt")
  now=$(rss)
  min=$(awk -v a="$min" -v b="$now" 'BEGIN { print (b < a ? b : a) }')
  max=$(awk -v a="$max" -v b="$now" 'BEGIN { print (b > a ? b : a) }')
  printf 'round %2d: %6d requests  %8s req/s  p50 %8s  p99 %8s  RSS %s MiB\n' "$round" "$count" "$rate" "$p50" "$p99" "$now"
done
echo "total: $total requests after warm-up, $errors errors (non-2xx and socket errors)"
echo "RSS over the run: $min … $max MiB (after warm-up $warm MiB; drift $(awk -v a="$min" -v b="$max" -v w="$warm" 'BEGIN { d1 = b - w; d2 = w - a; print (d1 > d2 ? d1 : d2) }') MiB)"
echo "machine: load average $(cut -d' ' -f1-3 /proc/loadavg) after the run"
