#!/usr/bin/env bash
# Lays out symbolicate below a prefix, the way `make install` and the release tarball both do:
#   PREFIX/bin/symbolicate
#   PREFIX/share/man/man1/symbolicate.1                       (footer carries `symbolicate --version`)
#   PREFIX/share/bash-completion/completions/symbolicate      (bash-completion's on-demand folder)
#   PREFIX/share/zsh/site-functions/_symbolicate              (on zsh's default $fpath)
#   PREFIX/share/fish/vendor_completions.d/symbolicate.fish   (fish's vendor folder)
# The completions come from the binary itself (swift-argument-parser's
# --generate-completion-script), so they always match its flags.
#
#   scripts/install.sh install BINARY PREFIX    copy the binary and write the rest
#   scripts/install.sh uninstall PREFIX         remove exactly those files
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

files=(
  bin/symbolicate
  share/man/man1/symbolicate.1
  share/bash-completion/completions/symbolicate
  share/zsh/site-functions/_symbolicate
  share/fish/vendor_completions.d/symbolicate.fish
)

usage() { echo "usage: $0 install BINARY PREFIX | uninstall PREFIX" >&2; exit 64; }

install_to() {
  local bin="$1" prefix="$2"
  [ -x "$bin" ] || { echo "install: $bin is not an executable (run make build or pass SYMBOLICATE_BIN=…)" >&2; exit 1; }
  local version
  version="$("$bin" --version)" || { echo "install: $bin --version failed" >&2; exit 1; }
  for f in "${files[@]}"; do mkdir -p "$prefix/$(dirname "$f")"; done
  # Write beside the target and rename, so a running copy is never half-overwritten.
  install -m 0755 "$bin" "$prefix/bin/.symbolicate.tmp"
  mv -f "$prefix/bin/.symbolicate.tmp" "$prefix/bin/symbolicate"
  # The man page in the repository has no number; the footer gets the binary's version.
  sed "1s/^\.TH SYMBOLICATE 1 \(\"[^\"]*\"\) \"symbolicate\"/.TH SYMBOLICATE 1 \1 \"symbolicate $version\"/" \
    "$root/Man/symbolicate.1" >"$prefix/share/man/man1/symbolicate.1"
  grep -q "^\.TH SYMBOLICATE 1 .*\"symbolicate $version\"" "$prefix/share/man/man1/symbolicate.1" \
    || { echo "install: could not put version $version into the man page's .TH line" >&2; exit 1; }
  "$bin" --generate-completion-script bash >"$prefix/share/bash-completion/completions/symbolicate"
  "$bin" --generate-completion-script zsh >"$prefix/share/zsh/site-functions/_symbolicate"
  "$bin" --generate-completion-script fish >"$prefix/share/fish/vendor_completions.d/symbolicate.fish"
  chmod 0644 "$prefix/share/man/man1/symbolicate.1" "$prefix/share/bash-completion/completions/symbolicate" \
    "$prefix/share/zsh/site-functions/_symbolicate" "$prefix/share/fish/vendor_completions.d/symbolicate.fish"
  echo "installed symbolicate $version into $prefix" >&2
}

uninstall_from() {
  local prefix="$1"
  # Only our files; folders stay (/usr/local/bin and friends are shared with other tools).
  for f in "${files[@]}"; do rm -f "$prefix/$f"; done
  echo "removed symbolicate from $prefix" >&2
}

case "${1:-}" in
  install) [ $# -eq 3 ] || usage; install_to "$2" "$3" ;;
  uninstall) [ $# -eq 2 ] || usage; uninstall_from "$2" ;;
  *) usage ;;
esac
