#!/usr/bin/env python3
"""Measure `symbolicate explain` on the real crash texts of Fixtures/crashtexts (issue 48).

    scripts/measure-crashtexts.py                      # the tune part, with .build/debug/symbolicate
    scripts/measure-crashtexts.py --binary PATH        # another build
    scripts/measure-crashtexts.py --part holdout       # ONLY once, at the end of issue 48 (README.md)
    scripts/measure-crashtexts.py --part holdout2      # the second held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout3      # the third held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout4      # the fourth held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout5      # the fifth held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout6      # the sixth held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout7      # the seventh held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout8      # the eighth held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout9      # the ninth held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout10     # the tenth held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout11     # the eleventh held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout12     # the twelfth held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout13     # the thirteenth held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout14     # the fourteenth held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout15     # the fifteenth held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout16     # the sixteenth held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout17     # the seventeenth held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout18     # the eighteenth held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout19     # the nineteenth held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout20     # the twentieth held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout21     # the twenty-first held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout22     # the twenty-second held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout23     # the twenty-third held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout24     # the twenty-fourth held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout25     # the twenty-fifth held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout26     # the twenty-sixth held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout27     # the twenty-seventh held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout28     # the twenty-eighth held-back set: ONLY once, likewise
    scripts/measure-crashtexts.py --part holdout29     # the twenty-ninth held-back set: ONLY once, likewise

For every text of the part it runs `symbolicate explain TEXT --format json --language en` and
judges it "read and right" when
  - the exit status is the expected one: 0 for a text with a crash fact, 65 for a near-miss
    (a text that mentions a crash but states none), and
  - for a text that is read, the explanation contains every key of the manifest (a string,
    or a list of equivalent wordings of which one must be there), compared case-insensitively
    with the diagnosis itself: the JSON's `headline`, the `text` and
    `frames` of its `causes`, and its `matched` entry. Evidence quotes, notes and next steps are
    not looked at: a key string found only there is a quote of the input, not an explanation.
It prints one verdict per text and the totals, and exits 0 whatever the verdicts are: it is a
measure, not a test. It exits 2 only when it cannot measure (no binary, unreadable manifest).
"""

import argparse
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "Fixtures" / "crashtexts"
REFUSED = 65
# A hang guard, not a timing assertion: a text that takes this long is reported as an error.
HANG_GUARD_SECONDS = 120


def judged_text(diagnosis):
    """The parts of explain's JSON that say what the crash is (not what the input quoted)."""
    parts = [diagnosis.get("headline", "")]
    for cause in diagnosis.get("causes", []):
        parts.append(cause.get("text", ""))
        parts.extend(cause.get("frames", []))
    matched = diagnosis.get("matched") or {}
    parts.extend(str(value) for value in matched.values())
    return "\n".join(part for part in parts if part)


def alternatives(key):
    """A key is one string, or a list of wordings of which any one will do."""
    return [key] if isinstance(key, str) else list(key)


def run_explain(binary, path):
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("SYMBOLICATE_LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "NO_COLOR")
    }
    return subprocess.run(
        [str(binary), "explain", str(path), "--format", "json", "--language", "en"],
        cwd=ROOT,
        env=environment,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=HANG_GUARD_SECONDS,
    )


def judge(binary, text):
    """One text's verdict: (verdict, detail, headline)."""
    path = FOLDER / text["file"]
    try:
        result = run_explain(binary, path)
    except subprocess.TimeoutExpired:
        return "error", f"no answer within {HANG_GUARD_SECONDS} s", ""
    status = result.returncode
    if not text["read"]:
        if status == REFUSED:
            return "right", "refused as expected", ""
        return "not-refused", f"exit {status}, expected {REFUSED}", headline_of(result.stdout)
    if status == REFUSED:
        first_line = result.stderr.decode("utf-8", "replace").strip().splitlines()[:1]
        return "refused", first_line[0] if first_line else f"exit {REFUSED}", ""
    if status != 0:
        return "error", f"exit {status}: {result.stderr.decode('utf-8', 'replace').strip()[:200]}", ""
    try:
        diagnosis = json.loads(result.stdout)
    except ValueError as error:
        return "error", f"exit 0 but the output is not JSON ({error})", ""
    if not isinstance(diagnosis, dict):
        return "error", "exit 0 but the JSON is not one diagnosis object", ""
    said = judged_text(diagnosis).lower()
    missing = [key for key in text["keys"] if not any(word.lower() in said for word in alternatives(key))]
    headline = diagnosis.get("headline", "")
    if missing:
        return "wrong", "missing " + ", ".join(" | ".join(map(repr, alternatives(key))) for key in missing), headline
    return "right", "", headline


def headline_of(output):
    try:
        return json.loads(output).get("headline", "")
    except (ValueError, AttributeError):
        return ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--part",
        choices=[
            "tune", "holdout", "holdout2", "holdout3", "holdout4", "holdout5", "holdout6", "holdout7", "holdout8", "holdout9",
            "holdout10", "holdout11", "holdout12", "holdout13", "holdout14", "holdout15", "holdout16", "holdout17", "holdout18",
            "holdout19", "holdout20", "holdout21", "holdout22", "holdout23", "holdout24", "holdout25", "holdout26",
            "holdout27", "holdout28", "holdout29",
        ],
        default="tune",
    )
    parser.add_argument("--binary", type=Path, default=ROOT / ".build" / "debug" / "symbolicate")
    parser.add_argument("--only", metavar="ID", action="append", help="measure only this id (repeatable)")
    arguments = parser.parse_args()

    binary = arguments.binary.resolve()
    if not os.access(binary, os.X_OK):
        print(f"measure-crashtexts: no executable at {binary} (build it, or pass --binary)", file=sys.stderr)
        return 2
    try:
        manifest = json.loads((FOLDER / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        print(f"measure-crashtexts: cannot read {FOLDER / 'manifest.json'}: {error}", file=sys.stderr)
        return 2
    texts = [text for text in manifest["texts"] if text["part"] == arguments.part]
    if arguments.only:
        texts = [text for text in texts if text["id"] in arguments.only]
    held_back = (
        "holdout", "holdout2", "holdout3", "holdout4", "holdout5", "holdout6", "holdout7", "holdout8", "holdout9", "holdout10",
        "holdout11", "holdout12", "holdout13", "holdout14", "holdout15", "holdout16", "holdout17", "holdout18", "holdout19",
        "holdout20", "holdout21", "holdout22", "holdout23", "holdout24", "holdout25", "holdout26", "holdout27",
        "holdout28", "holdout29",
    )
    if arguments.part in held_back:
        print(f"measure-crashtexts: measuring the {arguments.part.upper()} part; it is measured once, at the end of issue 48")

    verdicts = Counter()
    for text in texts:
        verdict, detail, headline = judge(binary, text)
        verdicts[verdict] += 1
        line = f"{text['id']}  {verdict:<11}  {text['kind']:<32}  {text['origin']}"
        if detail:
            line += f"  [{detail}]"
        if headline and verdict != "right":
            line += "\n      headline: " + " ".join(headline.split())[:160]
        print(line)

    expected_read = sum(1 for text in texts if text["read"])
    near_misses = len(texts) - expected_read
    refused_right = sum(1 for text in texts if not text["read"]) - verdicts["not-refused"]
    print()
    print(f"part {arguments.part}: {verdicts['right']} of {len(texts)} read and right")
    print(
        f"  texts with a crash fact: {expected_read}, of which {verdicts['refused']} refused (exit 65), "
        f"{verdicts['wrong']} read but missing a key string, {verdicts['error']} errors"
    )
    print(f"  near-misses: {near_misses}, of which {refused_right} refused as they should be")
    return 0


if __name__ == "__main__":
    sys.exit(main())
