#!/usr/bin/env bash
# Runs a command beside a throwaway PostgreSQL server on loopback (PostgreSQL 15 or
# newer), for the tests of the store's PostgreSQL index (Sources/SymbolicateStoreIndexPostgres):
#
#   scripts/with-postgres.sh COMMAND [ARG…]
#
# While COMMAND runs, SYMBOLICATE_TEST_POSTGRES_URL names a database on 127.0.0.1 (a free port,
# trust authentication, user `symbolicate`, database `symbolicate_test`). The server and its
# folder are removed afterwards whatever COMMAND did (its exit status is kept), and on SIGINT or
# SIGTERM. initdb and postgres refuse to run as root: as root, the cluster belongs to `nobody`
# (POSTGRES_USER to choose another user). POSTGRES_BIN names the server's bin folder (default:
# the newest /usr/lib/postgresql/*/bin (Debian), else the folder of `initdb` on PATH, else the
# newest Homebrew postgresql@N keg under `brew --prefix` (macOS; keg-only, so not on PATH)).
# Written for bash 3.2 and BSD userland too (macOS): no GNU date +%N, sort -V or C.UTF-8 locale.
set -euo pipefail
[[ $# -gt 0 ]] || { echo "usage: scripts/with-postgres.sh COMMAND [ARG…]" >&2; exit 64; }

# The newest of the folders given, by the version number in their path (postgresql@17 > @9).
newest() { python3 -c 'import re, sys; p = [a for a in sys.argv[1:] if a]; print(max(p, key=lambda s: [int(n) for n in re.findall(r"\d+", s)]) if p else "")' "$@"; }

find_bin() {
    [[ -n "${POSTGRES_BIN:-}" ]] && { echo "$POSTGRES_BIN"; return; }
    local found
    found=$(newest /usr/lib/postgresql/*/bin)
    [[ -n "$found" && -x "$found/initdb" ]] && { echo "$found"; return; }
    if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; return; fi
    if command -v brew >/dev/null 2>&1; then
        local prefix
        prefix=$(brew --prefix)
        found=$(newest "$prefix"/opt/postgresql@*/bin "$prefix"/opt/postgresql/bin)
        [[ -n "$found" && -x "$found/initdb" ]] && { echo "$found"; return; }
    fi
}

bin=$(find_bin)
if [[ -z "$bin" || ! -x "$bin/initdb" ]]; then
    echo "with-postgres: no PostgreSQL server found (Debian: apt-get install postgresql, which make setup-test does; macOS: brew install postgresql@17)" >&2
    exit 1
fi

# Milliseconds on a clock every process shares (GNU date has +%N, BSD date does not).
now_ms() { python3 -c 'import time; print(int(time.time() * 1000))'; }

as_owner=()
if [[ $(id -u) == 0 ]]; then
    owner=${POSTGRES_USER:-nobody}
    as_owner=(runuser -u "$owner" --)
else
    owner=$(id -un)
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/symbolicate-postgres.XXXXXX")
chmod 0700 "$dir"
[[ $(id -u) == 0 ]] && chown "$owner" "$dir"

started=0
cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if [[ $started == 1 ]]; then
        local begin
        begin=$(now_ms)
        (cd "$dir" && ${as_owner[@]+"${as_owner[@]}"} "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1) \
            || (cd "$dir" && ${as_owner[@]+"${as_owner[@]}"} "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1) || true
        echo "with-postgres: stopped PostgreSQL on port $port in $(($(now_ms) - begin)) ms" >&2
    fi
    rm -rf "$dir"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A free port on loopback (the kernel's choice; the server binds it a moment later).
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')

begin_ms=$(now_ms)
(cd "$dir" && ${as_owner[@]+"${as_owner[@]}"} "$bin/initdb" -D "$dir/data" -U symbolicate --auth=trust --no-sync -E UTF8 --locale=C \
    >"$dir/initdb.log" 2>&1) || { cat "$dir/initdb.log" >&2; exit 1; }
# The socket goes to the cluster's own folder (not /var/run/postgresql); TCP on 127.0.0.1 only.
# fsync off: a throwaway cluster, made again each run.
if ! (cd "$dir" && ${as_owner[@]+"${as_owner[@]}"} "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" \
    -o "-k $dir/data -h 127.0.0.1 -p $port -c fsync=off -c synchronous_commit=off -c full_page_writes=off" -w start >/dev/null); then
    cat "$dir/server.log" >&2
    exit 1
fi
started=1
"$bin/createdb" -h 127.0.0.1 -p "$port" -U symbolicate symbolicate_test
end_ms=$(now_ms)
echo "with-postgres: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port, ready in $((end_ms - begin_ms)) ms" >&2

export SYMBOLICATE_TEST_POSTGRES_URL="postgres://symbolicate@127.0.0.1:$port/symbolicate_test?sslmode=disable"
status=0
"$@" || status=$?
exit "$status"
