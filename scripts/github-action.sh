#!/usr/bin/env bash
# The logic of the GitHub Action (action.yml): find or install symbolicate, run
# `symbolicate batch`, append summary.md to the job summary, let the ::error annotations through
# to the log, and exit with batch's status (so --fail-on decides whether the job fails).
# It uploads nothing; add actions/upload-artifact on the output folder if you want the files.
#
# With SYMBOLICATE_MODE=audit it runs `symbolicate audit` on a build instead: the Markdown table
# goes to the job summary (and $output/audit.md), annotations to the log, a JUnit file to
# $output/audit.junit.xml, and the step fails when --require is not met.
#
# Inputs (environment; action.yml maps its inputs onto these):
#   SYMBOLICATE_MODE         batch (default) | audit
#   SYMBOLICATE_REPORTS      report files, folders or zips; one per line, shell globs allowed (batch)
#   SYMBOLICATE_BUILD        audit: the .xcarchive, .ipa, .app or folder to audit
#   SYMBOLICATE_REQUIRE      audit: app | app+extensions | all (default: all)
#   SYMBOLICATE_COLLECT      audit: a folder to copy the matching dSYMs into, <UUID>.dSYM each (optional)
#   SYMBOLICATE_DSYMS        dSYMs, folders, .xcarchive, zips; one per line, globs allowed (optional)
#   SYMBOLICATE_OUTPUT       output folder (default: symbolicated)
#   SYMBOLICATE_FAIL_ON      never | crash | unsymbolicated | missing-dsym (default: never)
#   SYMBOLICATE_SOURCE_ROOT  build-time source folder stripped from annotation paths (optional)
#   SYMBOLICATE_FORMAT       text | ips | json | markdown (default: text)
#   SYMBOLICATE_BIN          a symbolicate binary to use as is (optional)
#   SYMBOLICATE_RELEASE_URL  a release tarball (symbolicate-VERSION-linux-ARCH.tar.gz) to
#                            download and unpack when SYMBOLICATE_BIN is not set (optional)
#   SYMBOLICATE_ACTION_REPOSITORY, SYMBOLICATE_ACTION_REF
#                            the repository and tag the action is used at (github.action_repository,
#                            github.action_ref): without a binary or a URL, that tag's release
#                            tarball for this machine (x86_64 or aarch64) is downloaded and checked
#                            against the release's SHA256SUMS (.github/workflows/release.yml makes both)
# GitHub's own: GITHUB_STEP_SUMMARY, GITHUB_OUTPUT, RUNNER_TEMP, GITHUB_ACTION_PATH (all
# optional here, so the script also runs outside Actions). Without a binary, a URL or a release of
# the action's own tag it uses `symbolicate` on PATH, else builds this checkout with `make build`
# (needs Swift 6). A release that exists but fails its checksum stops the step: never a fallback.
# Outputs (GITHUB_OUTPUT): output-dir, exit-code, summary (path of summary.md).
set -uo pipefail

action_root="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}"
temp="${RUNNER_TEMP:-${TMPDIR:-/tmp}}"
output="${SYMBOLICATE_OUTPUT:-symbolicated}"
fail_on="${SYMBOLICATE_FAIL_ON:-never}"
format="${SYMBOLICATE_FORMAT:-text}"

die() { echo "::error title=symbolicate action::$*"; exit 2; }

GITHUB_SERVER_URL="${GITHUB_SERVER_URL:-https://github.com}"

# The name scripts/release.sh gives a tarball: symbolicate-VERSION-linux-ARCH.tar.gz, ARCH `uname -m`.
release_name() { echo "symbolicate-$1-linux-$2.tar.gz"; }

# The SHA-256 of a file (GNU coreutils, else Perl's shasum).
sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

# unpack TARBALL DIR: the release layout below DIR; prints DIR/bin/symbolicate.
unpack() {
  tar -xzf "$1" -C "$2" --strip-components=1 || release_error "$1 is not a release tarball"
  [ -x "$2/bin/symbolicate" ] || release_error "$1 has no bin/symbolicate"
  echo "$2/bin/symbolicate"
}

# Inside $(…) stdout is the answer: errors go to stderr (the runner reads workflow commands there too).
release_error() { echo "::error title=symbolicate action::$*" >&2; exit 2; }

# The release of the action's own tag for this machine, checked against its SHA256SUMS. Prints
# the binary; returns 1 (nothing printed) only when the tag has no such release.
own_release() {
  local repository="${SYMBOLICATE_ACTION_REPOSITORY:-}" tag="${SYMBOLICATE_ACTION_REF:-}"
  case "$tag" in v[0-9]*) ;; *) return 1 ;; esac
  [ -n "$repository" ] || return 1
  local arch name base dir status
  arch="$(uname -m)"
  case "$arch" in x86_64|aarch64) ;; arm64) arch=aarch64 ;; *) return 1 ;; esac
  name="$(release_name "${tag#v}" "$arch")"
  base="$GITHUB_SERVER_URL/$repository/releases/download/$tag"
  dir="$temp/symbolicate-release"
  rm -rf "$dir"; mkdir -p "$dir"
  status="$(curl -sSL --retry 3 -o "$dir/$name" -w '%{http_code}' "$base/$name" || true)"
  if [ "$status" = 404 ]; then
    echo "symbolicate: $repository has no release $tag for $arch ($base/$name)" >&2
    return 1
  fi
  [ "$status" = 200 ] || release_error "could not download $base/$name (HTTP $status)"
  curl -fsSL --retry 3 -o "$dir/SHA256SUMS" "$base/SHA256SUMS" || release_error "$tag has $name but no SHA256SUMS"
  local expected actual
  expected="$(awk -v n="$name" '$2 == n || $2 == "*" n { print $1 }' "$dir/SHA256SUMS")"
  actual="$(sha256_of "$dir/$name")"
  [ -n "$expected" ] || release_error "SHA256SUMS of $tag does not list $name"
  [ "$expected" = "$actual" ] || release_error "$name does not match SHA256SUMS of $tag (expected $expected, got $actual)"
  echo "symbolicate: $name from $tag, SHA-256 checked" >&2
  unpack "$dir/$name" "$dir"
}

# Lines of $1 → the array `paths`, each glob expanded when it matches something.
# (No namerefs: macOS runners still have bash 3.2.)
split_paths() {
  paths=()
  local line matches
  while IFS= read -r line || [ -n "$line" ]; do
    line="${line#"${line%%[![:space:]]*}"}"; line="${line%"${line##*[![:space:]]}"}"
    [ -z "$line" ] && continue
    shopt -s nullglob
    # shellcheck disable=SC2206 # the glob expansion is the point
    matches=($line)
    shopt -u nullglob
    if [ ${#matches[@]} -gt 0 ]; then paths+=("${matches[@]}"); else paths+=("$line"); fi
  done <<<"$1"
}

find_binary() {
  if [ -n "${SYMBOLICATE_BIN:-}" ]; then
    [ -x "$SYMBOLICATE_BIN" ] || die "SYMBOLICATE_BIN=$SYMBOLICATE_BIN is not an executable"
    echo "$SYMBOLICATE_BIN"; return
  fi
  if [ -n "${SYMBOLICATE_RELEASE_URL:-}" ]; then
    local dir="$temp/symbolicate-release"
    rm -rf "$dir"; mkdir -p "$dir"
    echo "symbolicate: downloading $SYMBOLICATE_RELEASE_URL" >&2
    curl -fsSL --retry 3 -o "$dir/release.tar.gz" "$SYMBOLICATE_RELEASE_URL" || die "could not download $SYMBOLICATE_RELEASE_URL"
    unpack "$dir/release.tar.gz" "$dir"; return
  fi
  local released status
  released="$(own_release)"
  status=$?
  if [ $status = 0 ]; then echo "$released"; return; fi
  # A release that exists and fails (download, checksum) stops here: no silent fallback.
  [ $status = 1 ] || exit 2
  if command -v symbolicate >/dev/null 2>&1; then command -v symbolicate; return; fi
  echo "symbolicate: building from $action_root (make build)" >&2
  make -C "$action_root" build >&2 || die "make build failed in $action_root"
  echo "$action_root/.build/release/symbolicate"
}

# finish SUMMARY STATUS TITLE: appends the Markdown file SUMMARY to the job summary (a note
# titled TITLE when it was not written), writes the step's outputs, exits with STATUS.
finish() {
  local summary="$1" status="$2" title="$3"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    if [ -f "$summary" ]; then
      { cat "$summary"; echo; } >>"$GITHUB_STEP_SUMMARY"
    else
      printf '## %s\n\nNo summary was written (exit status %s); see the step log.\n' "$title" "$status" >>"$GITHUB_STEP_SUMMARY"
    fi
  fi
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    { echo "output-dir=$output"; echo "exit-code=$status"; echo "summary=$summary"; } >>"$GITHUB_OUTPUT"
  fi
  exit "$status"
}

if [ "${SYMBOLICATE_MODE:-batch}" = audit ]; then
  [ -n "${SYMBOLICATE_BUILD:-}" ] || die "no build given (input 'build')"
  dsyms=()
  split_paths "${SYMBOLICATE_DSYMS:-}"; [ ${#paths[@]} -gt 0 ] && dsyms=("${paths[@]}")
  bin="$(find_binary)" || exit 2
  echo "symbolicate: $("$bin" --version) at $bin" >&2
  mkdir -p "$output" || die "cannot create $output"
  args=(audit "$SYMBOLICATE_BUILD")
  # (An empty array expanded under set -u stops bash 3.2, macOS runners' bash.)
  [ ${#dsyms[@]} -gt 0 ] && args+=("${dsyms[@]}")
  args+=(--require "${SYMBOLICATE_REQUIRE:-all}" --format markdown --github-annotations --junit "$output/audit.junit.xml")
  [ -n "${SYMBOLICATE_COLLECT:-}" ] && args+=(--collect "$SYMBOLICATE_COLLECT")
  "$bin" "${args[@]}" >"$temp/symbolicate-audit.out"
  status=$?
  # Annotations (workflow commands) to the log, the table to the summary.
  grep '^::' "$temp/symbolicate-audit.out"
  grep -v '^::' "$temp/symbolicate-audit.out" >"$output/audit.md"
  [ -s "$output/audit.md" ] || rm -f "$output/audit.md"
  finish "$output/audit.md" "$status" "symbolicate audit"
fi

split_paths "${SYMBOLICATE_REPORTS:-}"
[ ${#paths[@]} -gt 0 ] || die "no reports given (input 'reports')"
reports=("${paths[@]}")
dsyms=()
split_paths "${SYMBOLICATE_DSYMS:-}"; [ ${#paths[@]} -gt 0 ] && dsyms=("${paths[@]}")
bin="$(find_binary)" || exit 2
echo "symbolicate: $("$bin" --version) at $bin" >&2

args=(batch "${reports[@]}" --output "$output" --fail-on "$fail_on" --format "$format" --github-annotations --no-progress)
[ ${#dsyms[@]} -gt 0 ] && args+=(--dsyms "${dsyms[@]}")
[ -n "${SYMBOLICATE_SOURCE_ROOT:-}" ] && args+=(--source-root "$SYMBOLICATE_SOURCE_ROOT")

# --dsyms takes every value up to the next option, so it comes after the reports; stdout
# carries the ::error annotations straight to the runner.
"$bin" "${args[@]}"
status=$?

finish "$output/summary.md" "$status" "symbolicate"
