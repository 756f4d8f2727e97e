#!/usr/bin/env bash
# The newcomer's command, as CI runs it (.ci/run): `make demo` builds the CLI with none of the
# package's traits (Package.swift) into its own scratch folder and explains the bundled crash.
#   1. it exits 0 and prints the README transcript's headline and diagnosis (ReadmeDemoTests
#      holds the whole transcript to the default build; the report path is the same code);
#   2. it compiled no module of a package other than the two the demo needs (argument parsing,
#      zip reading) and none of our targets that only a trait brings: no HTTP server, TLS,
#      PostgreSQL, SQLite or HTTP client — what made the first `make demo` take 27 minutes;
#   3. what that build says when asked for what it left out: `serve` and `store` (any
#      arguments), the symbol-source options and SYMBOLICATE_SYMBOL_SERVERS each end with exit
#      64 and a message naming the trait and how to build with it; other tools' variables
#      (DEBUGINFOD_URLS) do not stop a run; --help still lists serve and store.
# DEMO_BUILD (default .build-demo) is the scratch folder, as in the Makefile.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${DEMO_BUILD:-.build-demo}
bin="$build/debug/symbolicate"
failures=0
fail() { echo "test-demo: FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "test-demo: ok: $*"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. The demo.
status=0
make --no-print-directory demo DEMO_BUILD="$build" >"$work/demo.out" 2>"$work/demo.err" || status=$?
if ((status != 0)); then
  tail -40 "$work/demo.err" >&2
  echo "test-demo: make demo failed ($status)" >&2
  exit 1
fi
block=$(awk '/^`make demo` prints/ { found = 1; next } found && /^```text/ { inside = 1; next } inside && /^```/ { exit } inside { print }' README.md)
headline=$(printf '%s\n' "$block" | head -1)
diagnosis=$(printf '%s\n' "$block" | grep -m1 '^Diagnosis:' || true)
[ -n "$headline" ] && [ -n "$diagnosis" ] || fail "README.md has no make demo transcript with a headline and a Diagnosis line"
for line in "$headline" "$diagnosis"; do
  if grep -qxF -- "$line" "$work/demo.out" "$work/demo.err"; then ok "make demo prints: ${line:0:80}"; else fail "make demo does not print README's line: $line"; fi
done

# 2. What was compiled: the modules whose folder under debug/ (NAME.build) holds an object file
# (SwiftPM makes a folder for every module of the graph, compiled or not).
dependencies_used="swift-argument-parser ZIPFoundation"
trait_only_targets="SymbolicateServe SymbolicateSymbolSources SymbolicateSymbolStore SymbolicateStoreIndex SymbolicateStoreIndexPostgres SymbolicateMCP"
compiled=$(find "$build/debug/" -mindepth 2 -path '*.build/*' -name '*.o' | sed 's|.*/debug/\([^/]*\)\.build/.*|\1|' | sort -u)
[ -n "$compiled" ] || fail "no module folders in $build/debug"
for module in $compiled; do
  for target in $trait_only_targets; do
    [ "$module" = "$target" ] && fail "the demo build compiled $module, which only a trait needs"
  done
  owner=$(find "$build/checkouts" -mindepth 3 -maxdepth 3 -path "*/Sources/$module" -type d -printf '%P\n' 2>/dev/null | cut -d/ -f1 | head -1)
  [ -z "$owner" ] && continue # ours
  case " $dependencies_used " in
    *" $owner "*) ;;
    *) fail "the demo build compiled $module of $owner, which the demo does not need" ;;
  esac
done
ok "compiled $(echo "$compiled" | wc -l) modules, none but ours and those of $dependencies_used"

# 3. What the build left out.
report=Fixtures/reports/swift-trap.ips
dsyms=Fixtures/dsyms
expect_trait() { # trait, description, command…
  local trait=$1 what=$2 status=0
  shift 2
  "$@" >"$work/out" 2>"$work/err" </dev/null || status=$?
  if ((status != 64)); then
    fail "$what: exit $status, not 64"
  elif ! grep -q "made without the package's $trait trait" "$work/err" || ! grep -q "swift build --traits $trait" "$work/err"; then
    fail "$what: stderr does not name the $trait trait and how to build with it: $(head -c 300 "$work/err")"
  else
    ok "$what: exit 64, names the $trait trait"
  fi
}
expect_trait Server "serve" "$bin" serve
expect_trait Server "serve --port 0" "$bin" serve --port 0 --store /nonexistent
expect_trait Server "store --rebuild-index" "$bin" store --rebuild-index "$work/store"
expect_trait MCP "mcp" "$bin" mcp --allow "$work"
expect_trait SymbolSources "--symbol-server" "$bin" --symbol-server 'https://symbols.invalid/{uuid}' "$report" "$dsyms"
expect_trait SymbolSources "explain --offline" "$bin" explain --offline "$report" "$dsyms"
expect_trait SymbolSources "SYMBOLICATE_SYMBOL_SERVERS" env SYMBOLICATE_SYMBOL_SERVERS='https://symbols.invalid/{uuid}' "$bin" "$report" "$dsyms"
[ -e "$work/store" ] && fail "store without the Server trait created $work/store"
if DEBUGINFOD_URLS=https://debuginfod.invalid "$bin" "$report" "$dsyms" >/dev/null 2>"$work/err"; then
  ok "DEBUGINFOD_URLS (another tool's variable) does not stop a run"
else
  fail "a run with DEBUGINFOD_URLS set failed: $(head -c 300 "$work/err")"
fi
help=$("$bin" --help)
for command in serve store; do
  if grep -qE "^ +$command +.*\(Server trait\)" <<<"$help"; then ok "--help lists $command and its trait"; else fail "--help does not list $command with its trait"; fi
done

((failures == 0)) || { echo "test-demo: $failures failure(s)" >&2; exit 1; }
echo "test-demo: the demo builds only what it needs, and says what it left out"
