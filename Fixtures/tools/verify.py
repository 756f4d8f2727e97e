"""Self-checks run at the end of generate.sh: the text and .ips renderings of
each report describe the same threads, frames and images; every frame lies
inside its image; app images carry the UUIDs of the committed binaries; the
manifest's lookup addresses follow the return-address-minus-one rule."""
import json
import os
import re

FRAME = re.compile(r"^(\d+)\s+(.+?)\s*\t\s*0x([0-9a-f]+) (.*)$")
IMAGE = re.compile(r"^\s*0x([0-9a-f]+) -\s+0x([0-9a-f]+) (\S+) .*<([0-9a-f]{32})> (.*)$")


def fail(message):
    raise SystemExit("verify: " + message)


def text_threads(text):
    threads, current, section = [], None, None
    for line in text.split("\n"):
        if re.match(r"^Thread \d+( Crashed)?::?", line) and "crashed with" not in line:
            if line.rstrip().endswith(":") or "::" in line:
                current = []
                threads.append(current)
                section = "thread"
            continue
        if line.startswith("Last Exception Backtrace:") or line.startswith("Binary Images:"):
            section = "other"
            current = None
            continue
        match = FRAME.match(line)
        if match and section == "thread" and current is not None:
            current.append((match.group(2), int(match.group(3), 16)))
        elif not line.strip():
            current = None if section == "thread" else current
    return threads


def verify(root):
    with open(os.path.join(root, "reports", "manifest.json")) as f:
        manifest = json.load(f)
    binaries = {}
    import fixtures
    for entry in manifest:
        path = os.path.join(root, entry["file"])
        with open(path) as f:
            content = f.read()
        if entry["format"] == "ips":
            header, body = content.split("\n", 1)
            json.loads(header)
            report = json.loads(body)
            images = report["usedImages"]
            threads = [[(images[fr["imageIndex"]]["name"], images[fr["imageIndex"]]["base"] + fr["imageOffset"])
                        for fr in t["frames"]] for t in report["threads"]]
            for t in report["threads"]:
                for fr in t["frames"]:
                    if not 0 <= fr["imageOffset"] < images[fr["imageIndex"]]["size"]:
                        fail("%s: frame outside its image" % entry["file"])
            if len(images) != entry["binaryImageCount"] or report["faultingThread"] != entry["crashedThread"]:
                fail("%s: image count or faulting thread differs from manifest" % entry["file"])
            text_path = path[:-len(".ips")] + ".crash"
            with open(text_path) as f:
                text = f.read()
            if text_threads(text) != threads:
                fail("%s: text and ips threads differ" % entry["file"])
            text_images = [IMAGE.match(l) for l in text.split("Binary Images:\n", 1)[1].split("\n") if IMAGE.match(l)]
            if sorted(m.group(4) for m in text_images) != sorted(i["uuid"].replace("-", "") for i in images):
                fail("%s: binary image UUIDs differ between text and ips" % entry["file"])
            if len(threads) != entry["threadCount"]:
                fail("%s: thread count" % entry["file"])
        for app in entry["appImages"]:
            if app["binary"]:
                if app["binary"] not in binaries:
                    binaries[app["binary"]] = {s["arch"]: s for s in fixtures.macho_slices(os.path.join(root, app["binary"]))}
                if binaries[app["binary"]][app["arch"]]["uuid"].upper() != app["uuid"]:
                    fail("%s: %s UUID differs from %s" % (entry["file"], app["name"], app["binary"]))
        for frame in entry["crashedThreadAppFrames"] + entry.get("lastExceptionBacktraceAppFrames", []):
            image = next(a for a in entry["appImages"] if a["name"] == frame["image"])
            expected = int(image["textFileAddress"], 16) + frame["imageOffset"] - (0 if frame["crashingFrame"] else 1)
            if int(frame["lookupFileAddress"], 16) != expected:
                fail("%s: lookup address rule broken at frame %d" % (entry["file"], frame["frameIndex"]))
            if int(frame["address"], 16) != int(image["loadAddress"], 16) + frame["imageOffset"]:
                fail("%s: address != load + offset at frame %d" % (entry["file"], frame["frameIndex"]))
            if frame["dsym"] and not frame["expected"]:
                fail("%s: no oracle answer for frame %d" % (entry["file"], frame["frameIndex"]))
    print("verify: %d report files consistent" % len(manifest))
