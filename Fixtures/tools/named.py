#!/usr/bin/env python3
"""Named-frame variants of the fixture reports and logs (issue 21).

  named.py FIXTURES_DIR -> named/<file> for every report and log whose app images match

Apple's tools, the OS and other symbolicators often hand over reports whose app frames are
already *named* from the binary's symbol table but carry no file or line: a macOS app that
ships its symbols, a development build, a report partially symbolicated elsewhere. This
script writes that shape for every fixture report and log: each frame in an app image of
ours becomes `symbol + offset` exactly where the layout puts a name, and nothing else
changes:

  Apple text   `0x1002c8410 0x1002c4000 + 17424` -> `0x1002c8410 closure #1 in ProfileLoader.load(from:length:) + 84`
  .ips         `"symbol"` and `"symbolLocation"` added to the frame object
  sample       `???  (in MacApp)  load address 0x10c5f2000 + 0x6ee  [0x…]` -> `mac_main  (in MacApp) + 238  [0x…]`
  spindump     `??? (MacApp + 1636) [0x…]` -> `mac_main + 100 (MacApp + 1636) [0x…]`

Names are the nearest preceding text symbol of the fixture binary (`llvm-nm-19`),
demangled with `swift-demangle --simplified` / `llvm-cxxfilt-19` (fixtures.nearest_symbols),
the way Apple's tools print symbol-table names. MetricKit payloads are not written: their
call-stack trees have no field for a name.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixtures  # noqa: E402


def symbolizer(root, binary, arch):
    """Image offset -> (name, offset in symbol), from the binary's symbol table."""
    path = os.path.join(root, binary)
    text = next(s for s in fixtures.macho_slices(path) if s["arch"] == arch)["textAddress"]
    symbols = fixtures.nearest_symbols(path, arch)

    def name(image_offset):
        found = fixtures.symbol_for(symbols, text + image_offset)
        return None if found is None else (found[1], text + image_offset - found[0])
    return name


def images_of_report(root, entry):
    """Image name -> namer, for the report's app images whose dSYM matches (a report of
    another build keeps its frames unnamed: its names would not be this binary's)."""
    out = {}
    for image in entry.get("appImages", []):
        if image.get("dsym") and image.get("binary"):
            out[image["name"]] = symbolizer(root, image["binary"], image["arch"])
    return out


def images_of_log(root, entry):
    out = {}
    for frame in entry.get("appFrames", []):
        if frame["image"] in out or not frame.get("dsym"):
            continue
        binary = "bin/" + os.path.basename(frame["dsym"]).split(".")[0]
        out[frame["image"]] = symbolizer(root, binary, frame["arch"])
    return out


TEXT_FRAME = re.compile(r"^(\d+\s+(\S+)\s+\t?\s*0x[0-9a-f]+) 0x[0-9a-f]+ \+ (\d+)$")
SAMPLE = re.compile(r"^(.*?)\?\?\?  \(in (\S+)\)  load address 0x[0-9a-f]+ \+ 0x([0-9a-f]+)  (\[0x[0-9a-f]+\].*)$")
SPINDUMP = re.compile(r"^(.*?)\?\?\? \((\S+) \+ (\d+)\) (\[0x[0-9a-f]+\].*)$")


def name_text(text, images):
    out = []
    for line in text.split("\n"):
        m = TEXT_FRAME.match(line)
        if m and m.group(2) in images:
            found = images[m.group(2)](int(m.group(3)))
            if found:
                line = "%s %s + %d" % (m.group(1), found[0], found[1])
        m = SAMPLE.match(line)
        if m and m.group(2) in images:
            found = images[m.group(2)](int(m.group(3), 16))
            if found:
                line = "%s%s  (in %s) + %d  %s" % (m.group(1), found[0], m.group(2), found[1], m.group(4))
        m = SPINDUMP.match(line)
        if m and m.group(2) in images:
            found = images[m.group(2)](int(m.group(3)))
            if found:
                line = "%s%s + %d (%s + %s) %s" % (m.group(1), found[0], found[1], m.group(2), m.group(3), m.group(4))
        out.append(line)
    return "\n".join(out)


IPS_FRAME = re.compile(r'\{"imageOffset":(\d+),"imageIndex":(\d+)\}')


def name_ips(text, images):
    """The body's frames gain `symbol`/`symbolLocation` (as the .ips of an app with symbols
    has them); the header line and every other byte stay as they were."""
    header, _, body = text.partition("\n")
    used = json.loads(body)["usedImages"]

    def replace(m):
        offset, index = int(m.group(1)), int(m.group(2))
        name = used[index].get("name") if index < len(used) else None
        found = images[name](offset) if name in images else None
        if not found:
            return m.group(0)
        return '{"imageOffset":%d,"symbol":%s,"symbolLocation":%d,"imageIndex":%d}' % (
            offset, json.dumps(found[0]), found[1], index)
    return header + "\n" + IPS_FRAME.sub(replace, body)


def main(root):
    out_dir = os.path.join(root, "named")
    os.makedirs(out_dir, exist_ok=True)
    entries = [(e, images_of_report(root, e)) for e in json.load(open(os.path.join(root, "reports", "manifest.json")))]
    entries += [(e, images_of_log(root, e)) for e in json.load(open(os.path.join(root, "logs", "manifest.json")))]
    written = []
    for entry, images in entries:
        path = entry["file"]
        if not images or not os.path.isfile(os.path.join(root, path)) or "metrickit" in path:
            continue
        text = open(os.path.join(root, path)).read()
        # An .ips whose body is text (a microstackshot) is named like spindump text.
        json_body = path.endswith(".ips") and text.partition("\n")[2].lstrip().startswith("{")
        named = name_ips(text, images) if json_body else name_text(text, images)
        if named == text:
            continue
        target = os.path.join(out_dir, os.path.basename(path))
        with open(target, "w") as f:
            f.write(named)
        written.append(os.path.basename(path))
    print("named.py: wrote %s" % ", ".join(sorted(written)))


if __name__ == "__main__":
    main(sys.argv[1])
