#!/usr/bin/env bash
# Which malformed Swift names stop the Swift runtime's own demangler (SwiftDemanglerHazards.swift).
#
#   Fuzz/tools/swift-demangler-hazards.sh [ROUNDS]
#
# Mutates every name of Fixtures/names/swift.tsv (insertions, replacements, deletions, two-letter
# operators, pieces of other names, truncations; ROUNDS × 3000 per name, default 2) and hands each
# to `swift_demangle` in a child process with a 600 MiB address-space limit: a name the demangler
# never returns from runs out of memory within a second, one its printer rejects ends with a fatal
# error. Prints one line per such name: how the child ended, then the name. The child is restarted
# after each. Needs swiftc's toolchain (libswiftCore.so), clang and python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-2}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
RUNTIME=$(dirname "$(dirname "$(command -v swift)")")/lib/swift/linux
cat >"$WORK/harness.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
char *swift_demangle(const char *, size_t, char *, size_t *, unsigned);
int main(void) {
    struct rlimit limit = {600 << 20, 600 << 20};
    setrlimit(RLIMIT_AS, &limit);
    static char line[65536];
    long index = 0;
    while (fgets(line, sizeof line, stdin)) {
        size_t length = strlen(line);
        if (length && line[length - 1] == '\n') line[--length] = 0;
        fprintf(stderr, "%ld\n", index++);
        free(swift_demangle(line, length, NULL, NULL, 0));
    }
    return 0;
}
C
clang -O1 "$WORK/harness.c" -o "$WORK/harness" -L"$RUNTIME" -lswiftCore -Wl,-rpath,"$RUNTIME"
python3 - "$WORK/harness" "$ROUNDS" <<'PY'
import os, random, string, subprocess, sys
harness, rounds = sys.argv[1], int(sys.argv[2])
names = [line.split("\t")[0] for line in open("Fixtures/names/swift.tsv") if line.strip()]
names = [n[1:] if n.startswith("_$") else n for n in names]
letters = string.ascii_letters + string.digits + "_"
def mutate(name, rng):
    s = list(name)
    for _ in range(rng.randint(1, 8)):
        op, i = rng.random(), rng.randrange(2, len(s) + 1) if len(s) > 2 else 2
        if op < 0.3: s.insert(i, rng.choice(letters))
        elif op < 0.5: s[i:i] = [rng.choice(string.ascii_uppercase), rng.choice(letters)]
        elif op < 0.6:
            other = rng.choice(names); j = rng.randrange(2, len(other)); s[i:i] = list(other[j:j + rng.randint(1, 12)])
        elif op < 0.75 and i < len(s): s[i] = rng.choice(letters)
        elif op < 0.9 and i < len(s): del s[i]
        else: s = s[:i]
    return "".join(s)
env = dict(os.environ, SWIFT_BACKTRACE="enable=no")
for round in range(rounds):
    rng = random.Random(round)
    candidates = sorted({mutate(n, rng) for n in names for _ in range(3000)} | {n[:i] for n in names for i in range(3, len(n))})
    start = 0
    while start < len(candidates):
        run = subprocess.run([harness], input=("\n".join(candidates[start:]) + "\n").encode(), capture_output=True, env=env)
        if run.returncode == 0: break
        lines = run.stderr.decode(errors="replace").splitlines()
        seen = [int(l) for l in lines if l.isdigit()]
        last = start + (seen[-1] if seen else 0)
        message = next((l for l in lines if l and not l.isdigit()), "out of memory" if run.returncode == -11 else f"signal {-run.returncode}")
        print(f"{message}\t{candidates[last]}", flush=True)
        start = last + 1
    print(f"round {round}: {len(candidates)} names", file=sys.stderr)
PY
