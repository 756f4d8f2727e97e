#!/usr/bin/env python3
"""Generate N crash reports for the batch benchmark by varying the fixture reports.

Each generated report is one of the 14 fixture reports (7 scenarios x .crash/.ips) with:
- a new Incident Identifier (deterministic per index),
- an app version among 1.0 ... 1.4 and an OS build among a few,
- the app images (those with a dSYM or a mismatched one, from manifest.json) loaded at a
  different ASLR slide: every runtime address inside them is moved by the same delta, so
  the file addresses -- and therefore the symbolication answers -- stay those the manifest
  gives (llvm-symbolizer's), while the reports differ byte for byte as real ones do.

Usage: generate.py FIXTURES_DIR OUT_DIR [COUNT]
"""
import json
import os
import re
import sys
import uuid

HEX = re.compile(r"0x[0-9a-fA-F]+")


def app_ranges(entry):
    """(start, end_exclusive) runtime ranges of the report's app images."""
    out = []
    for image in entry["appImages"]:
        start = int(image["loadAddress"], 16)
        out.append((start, start + int(image["textSize"])))
    return out


def shift_text(text, ranges, delta):
    def repl(match):
        value = int(match.group(0), 16)
        for start, end in ranges:
            if start <= value < end:
                return "0x%x" % (value + delta)
        return match.group(0)
    return HEX.sub(repl, text)


def vary_text(text, ranges, i, delta):
    text = re.sub(r"^(Incident Identifier:\s*).*$", lambda m: m.group(1) + str(uuid.UUID(int=i + 1)).upper(),
                  text, count=1, flags=re.M)
    text = re.sub(r"^(Version:\s*)1\.0 \(1\)", lambda m: m.group(1) + "1.%d (%d)" % (i % 5, 1 + i % 5), text,
                  count=1, flags=re.M)
    lines = text.split("\n")
    # Only frame lines, Binary Images lines and register lines carry runtime addresses.
    out = [shift_text(line, ranges, delta) if HEX.search(line) else line for line in lines]
    return "\n".join(out)


def vary_ips(text, ranges, i, delta):
    header_line, body_text = text.split("\n", 1)
    header = json.loads(header_line)
    body = json.loads(body_text)
    incident = str(uuid.UUID(int=i + 1)).upper()
    version = "1.%d" % (i % 5)
    header["incident_id"] = incident
    header["app_version"] = version
    header["build_version"] = str(1 + i % 5)
    body["incident"] = incident
    body.setdefault("bundleInfo", {})["CFBundleShortVersionString"] = version
    body["bundleInfo"]["CFBundleVersion"] = str(1 + i % 5)
    starts = {start for start, _ in ranges}
    for image in body.get("usedImages", []):
        if image.get("base") in starts:
            image["base"] += delta
    return json.dumps(header, separators=(",", ":")) + "\n" + json.dumps(body, indent=2) + "\n"


def main():
    fixtures, out_dir = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    manifest = json.load(open(os.path.join(fixtures, "reports", "manifest.json")))
    os.makedirs(out_dir, exist_ok=True)
    for i in range(count):
        entry = manifest[i % len(manifest)]
        source = open(os.path.join(fixtures, entry["file"]), encoding="utf-8").read()
        ranges = app_ranges(entry)
        delta = 0x4000 * (1 + i % 64)  # page-aligned ASLR-style slide change
        if entry["format"] == "ips":
            text = vary_ips(source, ranges, i, delta)
        else:
            text = vary_text(source, ranges, i, delta)
        name = "%04d-%s" % (i, os.path.basename(entry["file"]))
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()
