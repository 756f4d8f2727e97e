#!/usr/bin/env python3
"""Writes the project's own fixture crashes in third-party reporters' layouts.

Input: reports/<scenario>.ips, whose addresses fixtures.py computed from bin/ (symbol
addresses from the linked binaries, load addresses chosen per report). Output, in
thirdparty/own/:

  <scenario>.kscrash.json   KSCrash 3.x report layout (as KSCrash's own writer lays it out:
                            report/system/binary_images/crash.error/crash.threads[].backtrace)
  <scenario>.sentry.json    Sentry event as exported from Sentry (exception.values[] with
                            mechanism.meta, threads.values[].stacktrace.frames[] caller first,
                            debug_meta.images[], addresses as hex strings)
  <scenario>.sentry.envelope  the same event as the Cocoa SDK stores it on disk (envelope)
  null-deref-pac.*          the crashed thread's return addresses carrying arm64e
                            pointer-authentication bits, as third-party reporters record
                            them (.kscrash.json, .sentry.json, and a text .crash)

Same crash, same frames: symbolicated, all forms must print identical frame lines.
Standard library only. Usage: thirdparty.py FIXTURES_DIR
"""
import json
import os
import sys

SCENARIOS = ["null-deref", "swift-trap"]
# A PAC signature in the top bits (bits 48-62), as arm64e return addresses carry it.
PAC = 0x5A6B << 48


def read_ips(path):
    with open(path, encoding="utf-8") as f:
        header, body = f.read().split("\n", 1)
    return json.loads(header), json.loads(body)


def frames_of(body, frames, pac=False):
    """(runtime address, image, symbol, symbol address) per frame, crashing frame first."""
    images = body["usedImages"]
    out = []
    for i, f in enumerate(frames):
        image = images[f["imageIndex"]]
        address = image["base"] + f["imageOffset"]
        symbol = f.get("symbol")
        symbol_address = address - f["symbolLocation"] if symbol is not None and "symbolLocation" in f else None
        # Only return addresses (not the top frame) are signed.
        shown = address | PAC if pac and i > 0 and image["path"] == body["procPath"] else address
        out.append((shown, image, symbol, symbol_address))
    return out


def uuid_dashed(u):
    h = u.replace("-", "").upper()
    return f"{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


MACH = {"EXC_BAD_ACCESS": 1, "EXC_BAD_INSTRUCTION": 2, "EXC_ARITHMETIC": 3, "EXC_BREAKPOINT": 6, "EXC_CRASH": 10}
SIGNALS = {"SIGILL": 4, "SIGTRAP": 5, "SIGABRT": 6, "SIGBUS": 10, "SIGSEGV": 11}


def kscrash(header, body, pac):
    exc = body["exception"]
    codes = exc.get("rawCodes", [0, 0])
    error = {
        "address": codes[1] if exc["type"] == "EXC_BAD_ACCESS" else 0,
        "mach": {"code": codes[0], "exception": MACH[exc["type"]], "exception_name": exc["type"], "subcode": codes[1]},
        "signal": {"code": 0, "name": exc["signal"], "signal": SIGNALS[exc["signal"]]},
        "type": "mach",
    }
    if exc["type"] == "EXC_BAD_ACCESS":
        error["mach"]["code_name"] = exc["subtype"].split(" ")[0]
    threads = []
    for i, t in enumerate(body["threads"]):
        contents = []
        for address, image, symbol, symbol_address in frames_of(body, t["frames"], pac and t.get("triggered")):
            frame = {"instruction_addr": address, "object_addr": image["base"], "object_name": image["name"]}
            if symbol is not None:
                frame["symbol_addr"] = symbol_address
                frame["symbol_name"] = symbol
            contents.append(frame)
        thread = {"backtrace": {"contents": contents, "skipped": 0}, "crashed": bool(t.get("triggered")),
                  "current_thread": bool(t.get("triggered")), "index": i}
        if "name" in t:
            thread["name"] = t["name"]
        if "queue" in t:
            thread["dispatch_queue"] = t["queue"]
        threads.append(thread)
    images = []
    for image in body["usedImages"]:
        arm64e = image.get("arch") == "arm64e"
        images.append({"cpu_subtype": 2 if arm64e else 0, "cpu_type": 16777228, "image_addr": image["base"],
                       "image_size": image["size"], "image_vmaddr": 0, "name": image["path"],
                       "uuid": uuid_dashed(image["uuid"])})
    os_version = body["osVersion"]
    system_name, _, system_version = os_version["train"].rpartition(" ")
    return {
        "report": {"id": body["incident"], "process_name": body["procName"], "timestamp": 1659543061245500,
                   "type": "standard", "version": "3.3.0"},
        "system": {
            "CFBundleExecutable": body["procName"], "CFBundleExecutablePath": body["procPath"],
            "CFBundleIdentifier": body["bundleInfo"]["CFBundleIdentifier"],
            "CFBundleShortVersionString": body["bundleInfo"]["CFBundleShortVersionString"],
            "CFBundleVersion": body["bundleInfo"]["CFBundleVersion"], "cpu_arch": "arm64", "machine": body["modelCode"],
            "os_version": os_version["build"], "parent_process_id": body["parentPid"], "process_id": body["pid"],
            "process_name": body["procName"], "system_name": system_name, "system_version": system_version,
        },
        "binary_images": images,
        "crash": {"error": error, "threads": threads},
        "user": {},
    }


def hexa(v):
    return f"0x{v:016x}"


def sentry(header, body, pac):
    exc = body["exception"]
    codes = exc.get("rawCodes", [0, 0])
    threads = []
    crashed_id = None
    for i, t in enumerate(body["threads"]):
        frames = []
        for address, image, symbol, symbol_address in frames_of(body, t["frames"], pac and t.get("triggered")):
            frame = {"instruction_addr": hexa(address), "image_addr": hexa(image["base"]), "package": image["path"],
                     "in_app": ".app/" in image["path"]}
            if symbol is not None:
                frame["function"] = symbol
                frame["symbol_addr"] = hexa(symbol_address)
            frames.append(frame)
        frames.reverse()  # Sentry lists callers first.
        thread = {"id": i, "crashed": bool(t.get("triggered")), "current": bool(t.get("triggered")),
                  "stacktrace": {"frames": frames}}
        if "queue" in t:
            thread["name"] = t["queue"]
        if t.get("triggered"):
            crashed_id = i
        threads.append(thread)
    images = [{"type": "macho", "debug_id": uuid_dashed(image["uuid"]), "image_addr": hexa(image["base"]),
               "image_size": image["size"], "image_vmaddr": "0x0000000000000000", "code_file": image["path"],
               "arch": image.get("arch", "arm64")} for image in body["usedImages"]]
    os_version = body["osVersion"]
    name, _, version = os_version["train"].rpartition(" ")
    return {
        "event_id": body["incident"].replace("-", "").lower(),
        "timestamp": "2022-08-03T16:11:01.245Z",
        "platform": "cocoa",
        "level": "fatal",
        "exception": {"values": [{
            "type": exc["type"],
            "value": f"{exc['type']} / {exc.get('subtype', '')}".strip(" /"),
            "thread_id": crashed_id,
            "mechanism": {
                "type": "mach", "handled": False,
                "meta": {"mach_exception": {"exception": MACH[exc["type"]], "code": codes[0], "subcode": codes[1],
                                            "name": exc["type"]},
                         "signal": {"number": SIGNALS[exc["signal"]], "code": 0, "name": exc["signal"]}},
                "data": {"relevant_address": hexa(codes[1])},
            },
        }]},
        "threads": {"values": threads},
        "debug_meta": {"images": images},
        "contexts": {
            "app": {"app_identifier": body["bundleInfo"]["CFBundleIdentifier"],
                    "app_version": body["bundleInfo"]["CFBundleShortVersionString"],
                    "app_build": body["bundleInfo"]["CFBundleVersion"], "app_name": body["procName"]},
            "os": {"name": name, "version": version, "build": os_version["build"]},
            "device": {"model": body["modelCode"], "arch": "arm64"},
        },
        "sdk": {"name": "sentry.cocoa", "version": "8.36.0"},
    }


def envelope(event):
    payload = json.dumps(event, separators=(",", ":"))
    head = {"event_id": event["event_id"], "sdk": event["sdk"], "sent_at": event["timestamp"]}
    item = {"type": "event", "length": len(payload.encode())}
    return json.dumps(head, separators=(",", ":")) + "\n" + json.dumps(item, separators=(",", ":")) + "\n" + payload + "\n"


def pac_text(fixtures):
    """null-deref.crash with the crashed thread's app return addresses signed."""
    with open(os.path.join(fixtures, "reports", "null-deref.crash"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, in_crashed = [], False
    for line in lines:
        if line.startswith("Thread ") and line.endswith("Crashed:"):
            in_crashed = True
        elif in_crashed and not line.strip():
            in_crashed = False
        parts = line.split()
        if in_crashed and len(parts) >= 6 and parts[0] != "0" and parts[1] == "CrashApp" and parts[2].startswith("0x"):
            address = int(parts[2], 16)
            line = line.replace(parts[2], f"0x{address | PAC:x}", 1)
        out.append(line)
    return "\n".join(out)


def main():
    fixtures = sys.argv[1]
    out = os.path.join(fixtures, "thirdparty", "own")
    os.makedirs(out, exist_ok=True)

    def write(name, text):
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write(text)

    for scenario in SCENARIOS + ["null-deref-pac"]:
        pac = scenario.endswith("-pac")
        header, body = read_ips(os.path.join(fixtures, "reports", scenario.removesuffix("-pac") + ".ips"))
        write(f"{scenario}.kscrash.json", json.dumps(kscrash(header, body, pac), indent=2) + "\n")
        event = sentry(header, body, pac)
        write(f"{scenario}.sentry.json", json.dumps(event, indent=2) + "\n")
        if not pac:
            write(f"{scenario}.sentry.envelope", envelope(event))
    write("null-deref-pac.crash", pac_text(fixtures))


if __name__ == "__main__":
    main()
