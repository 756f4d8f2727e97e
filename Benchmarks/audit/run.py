#!/usr/bin/env python3
"""Times `symbolicate audit` on an archive of many binaries (issue 42: 200 binaries well under a
second, reading headers only). Not a test: prints figures for Benchmarks/README.md ("Audit").

Builds Benchmarks/work/audit/Bench.xcarchive (git-ignored) from the real fixture binaries of
Fixtures/audit (generate.sh there): the app and COUNT-1 frameworks, each a copy of
Shop.app/Shop (or the universal Analytics framework, every fifth) with its LC_UUID bytes
replaced by a UUID derived from its index, and the matching dSYM made the same way from the
fixture dSYM: three in four frameworks have theirs, one in ten has a dSYM of another build,
the rest none. Then runs the binary RUNS times and prints the median wall time of the whole
process, and the number of slices and statuses it reported.

    SYMBOLICATE_BIN (.build/release/symbolicate)  COUNT (200)  RUNS (7)
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import uuid

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIX = os.path.join(ROOT, "Fixtures", "audit", "Shop.xcarchive")
APP = os.path.join(FIX, "Products", "Applications", "Shop.app")
WORK = os.path.join(ROOT, "Benchmarks", "work", "audit")
BIN = os.environ.get("SYMBOLICATE_BIN", os.path.join(ROOT, ".build", "release", "symbolicate"))
COUNT = int(os.environ.get("COUNT", "200"))
RUNS = int(os.environ.get("RUNS", "7"))

SHOP = ("4C4C4408-5555-3144-A192-BA6CCDDCB188",)
ANALYTICS = ("4C4C4403-5555-3144-A192-438020D3642D", "4C4C446A-5555-3144-A1D5-B7E093E7F406")


def patched(source, destination, old_ids, index, salt):
    """Copies a Mach-O with each old UUID's 16 bytes (once each, in LC_UUID) replaced."""
    data = bytearray(open(source, "rb").read())
    for slot, old in enumerate(old_ids):
        old_bytes = uuid.UUID(old).bytes
        at = data.find(old_bytes)
        assert at >= 0 and data.find(old_bytes, at + 1) < 0, f"{source}: UUID {old} not found exactly once"
        data[at : at + 16] = uuid.uuid5(uuid.NAMESPACE_URL, f"audit-bench/{index}/{slot}/{salt}").bytes
    os.makedirs(os.path.dirname(destination), exist_ok=True)
    with open(destination, "wb") as out:
        out.write(data)


def build():
    archive = os.path.join(WORK, f"Bench-{COUNT}.xcarchive")
    if os.path.isdir(archive):
        return archive
    tmp = archive + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    app = os.path.join(tmp, "Products", "Applications", "Bench.app")
    dsyms = os.path.join(tmp, "dSYMs")
    patched(os.path.join(APP, "Shop"), os.path.join(app, "Bench"), SHOP, 0, "build")
    patched(os.path.join(FIX, "dSYMs/Shop.app.dSYM/Contents/Resources/DWARF/Shop"),
            os.path.join(dsyms, "Bench.app.dSYM/Contents/Resources/DWARF/Bench"), SHOP, 0, "build")
    for i in range(1, COUNT):
        name = f"Kit{i:03d}"
        universal = i % 5 == 0
        source = os.path.join(APP, "Frameworks/Analytics.framework/Analytics") if universal else os.path.join(APP, "Shop")
        dsym_source = os.path.join(FIX, "dSYMs/Analytics.framework.dSYM/Contents/Resources/DWARF/Analytics" if universal
                                   else "dSYMs/Shop.app.dSYM/Contents/Resources/DWARF/Shop")
        ids = ANALYTICS if universal else SHOP
        patched(source, os.path.join(app, f"Frameworks/{name}.framework/{name}"), ids, i, "build")
        if i % 4 == 3:
            continue  # no dSYM
        salt = "other" if i % 10 == 1 else "build"  # a dSYM of another build
        patched(dsym_source, os.path.join(dsyms, f"{name}.framework.dSYM/Contents/Resources/DWARF/{name}"), ids, i, salt)
    os.rename(tmp, archive)
    return archive


def main():
    if not os.path.isfile(os.path.join(APP, "Shop")):
        sys.exit("audit bench: Fixtures/audit is missing (Fixtures/audit/generate.sh)")
    if not os.access(BIN, os.X_OK):
        sys.exit(f"audit bench: {BIN} is missing (make build)")
    archive = build()
    times = []
    report = None
    for _ in range(RUNS):
        start = time.perf_counter()
        result = subprocess.run([BIN, "audit", archive, "--format", "json"], capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if result.returncode not in (0, 1):
            sys.exit(f"audit bench: exit {result.returncode}: {result.stderr}")
        report = json.loads(result.stdout)
    totals = report["totals"]
    print(f"audit of {totals['binaries']} binaries, {totals['slices']} slices ({archive}):")
    print(f"  median {statistics.median(times) * 1000:.0f} ms, min {min(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms over {RUNS} runs")
    print(f"  statuses: {json.dumps(totals['byStatus'], sort_keys=True)}")


if __name__ == "__main__":
    main()
