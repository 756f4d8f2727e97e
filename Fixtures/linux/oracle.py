#!/usr/bin/env python3
"""Oracle answers for the Linux fixture logs (called by generate.sh).

For every frame of every thread whose address falls in the fixture program, asks
llvm-symbolizer-19 (on the separate debug file) for the inline chain and
swift-demangle --simplified for the names, and writes oracle.json:
{ "<log file>": [ {"thread": t, "frame": i, "address": "0x…", "fileAddress": "0x…",
                   "frames": [ {"function": …, "file": …, "line": n}, … ] }, … ] }
Lookup addresses follow the runtime's marking: a program counter is looked up as is,
a return address ([ra] / "returnAddress") one byte earlier.
"""
import json, os, re, subprocess, sys

here = sys.argv[1]
# The program's name (its debug file is bin/<program>.debug); Fixtures/linux-named passes "app".
program = sys.argv[2] if len(sys.argv) > 2 else "crashy"
debug = os.path.join(here, "bin", program + ".debug")

def text_frames(text):
    """(thread, frame, address, is_return) for the program's frames, and its base."""
    base = None
    for line in text.splitlines():
        m = re.match(r"^0x([0-9a-f]+)\S(0x[0-9a-f]+)\s+([0-9a-f]+)\s+(\S+)\s", line)
        if m and m.group(4) == program:
            base = int(m.group(1), 16)
    frames, thread = [], -1
    for line in text.splitlines():
        if re.match(r"^Thread \d+", line):
            thread += 1
        m = re.match(r"^\s*(\d+)\s+((?:\[\w+\]\s+)*)(0x[0-9a-f]+)\s.*\sin (\S+)\s*$", line)
        if m and m.group(4) == program:
            frames.append((thread, int(m.group(1)), int(m.group(3), 16), "[ra]" in m.group(2)))
    return base, frames

def json_frames(text):
    body = json.loads(text[text.index("\n{") + 1 if not text.startswith("{") else 0:])
    base = next(int(i["baseAddress"], 16) for i in body["images"] if i["name"] == program)
    frames = []
    for t, thread in enumerate(body["threads"]):
        for i, frame in enumerate(thread.get("frames", [])):
            if frame.get("image") == program and "address" in frame:
                frames.append((t, i, int(frame["address"], 16), frame["kind"] == "returnAddress"))
    return base, frames

def symbolize(addresses):
    out = subprocess.run(["llvm-symbolizer-19", "--obj=" + debug, "--inlining", "--output-style=JSON"]
                         + ["0x%x" % a for a in addresses], capture_output=True, text=True, check=True).stdout
    answers = []
    entries = []
    for line in out.splitlines():
        parsed = json.loads(line)
        entries += parsed if isinstance(parsed, list) else [parsed]
    for entry in entries:
        answers.append([{"function": f["FunctionName"], "file": f["FileName"], "line": f["Line"]} for f in entry["Symbol"]])
    names = sorted({f["function"] for a in answers for f in a})
    demangled = subprocess.run(["swift-demangle", "--simplified"], input="\n".join(names) + "\n",
                               capture_output=True, text=True, check=True).stdout.splitlines()
    table = dict(zip(names, demangled))
    for a in answers:
        for f in a:
            f["function"] = table.get(f["function"], f["function"])
    return answers

result = {}
logs = os.path.join(here, "logs")
for name in sorted(os.listdir(logs)):
    text = open(os.path.join(logs, name)).read()
    base, frames = (json_frames if name.endswith(".json") else text_frames)(text)
    lookups = [(a - 1 if ra else a) - base for (_, _, a, ra) in frames]
    answers = symbolize(lookups) if lookups else []
    result[name] = [{"thread": t, "frame": i, "address": "0x%x" % a, "fileAddress": "0x%x" % l, "frames": ans}
                    for (t, i, a, _), l, ans in zip(frames, lookups, answers)]
with open(os.path.join(here, "oracle.json"), "w") as f:
    json.dump(result, f, indent=1, sort_keys=True)
    f.write("\n")
