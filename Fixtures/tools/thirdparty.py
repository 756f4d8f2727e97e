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
  <scenario>.plcrash        PLCrashReporter's binary report (the "plcrash" magic, version 1,
                            then its protobuf CrashReport message; field numbers as in
                            ../../scripts/protos/plcrash.proto), for the scenarios and
                            objc-exception (its uncaught exception with the frames of the
                            throw; the name and reason, which the .ips does not carry, are
                            the fixture's own). Encoded here by a small protobuf writer, so
                            the Swift reader is checked against an encoder it shares nothing with.
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


# PLCrashReporter: a minimal protobuf writer (varint and length-delimited fields only).
def pb_varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def pb_int(number, v):
    return pb_varint(number << 3) + pb_varint(v)


def pb_bytes(number, data):
    if isinstance(data, str):
        data = data.encode()
    return pb_varint(number << 3 | 2) + pb_varint(len(data)) + data


PLCRASH_SCENARIOS = ["null-deref", "swift-trap", "objc-exception"]


def plcrash(header, body):
    def frames(list_, field=2):
        out = b""
        for address, image, symbol, symbol_address in frames_of(body, list_):
            frame = pb_int(3, address)
            if symbol is not None:
                # As the reporter records a symbol: with the linker's `_` prefix (Objective-C
                # methods have none), which plcrashutil strips again on Apple systems.
                name = symbol if symbol.startswith(("-[", "+[")) else "_" + symbol
                frame += pb_bytes(6, pb_bytes(1, name) + pb_int(2, symbol_address))
            out += pb_bytes(field, frame)
        return out

    def processor(arch):
        return pb_int(1, 1) + pb_int(2, 0x0100000C) + pb_int(3, 2 if arch == "arm64e" else 0)

    exc = body["exception"]
    codes = exc.get("rawCodes", [0, 0])
    os_version = body["osVersion"]
    _, _, version = os_version["train"].rpartition(" ")
    msg = pb_bytes(1, pb_int(1, 1) + pb_bytes(2, version) + pb_int(3, 6) + pb_int(4, 1773921654)
                   + pb_bytes(5, os_version["build"]))
    msg += pb_bytes(2, pb_bytes(1, body["bundleInfo"]["CFBundleIdentifier"]) + pb_bytes(2, body["bundleInfo"]["CFBundleVersion"])
                    + pb_bytes(3, body["bundleInfo"]["CFBundleShortVersionString"]))
    for i, t in enumerate(body["threads"]):
        thread = pb_int(1, i) + frames(t["frames"]) + pb_int(3, 1 if t.get("triggered") else 0)
        state = t.get("threadState") or {}
        if t.get("triggered"):
            registers = [(f"x{n}", r["value"]) for n, r in enumerate(state.get("x", []))]
            registers += [(k, state[k]["value"]) for k in ("fp", "sp", "lr", "pc", "cpsr") if k in state]
            for name, value in registers:
                thread += pb_bytes(4, pb_bytes(1, name) + pb_int(2, value))
        msg += pb_bytes(3, thread)
    for image in body["usedImages"]:
        msg += pb_bytes(4, pb_int(1, image["base"]) + pb_int(2, image["size"]) + pb_bytes(3, image["path"])
                        + pb_bytes(4, bytes.fromhex(image["uuid"].replace("-", ""))) + pb_bytes(5, processor(image.get("arch"))))
    if "lastExceptionBacktrace" in body:
        msg += pb_bytes(5, pb_bytes(1, "NSInternalInconsistencyException")
                        + pb_bytes(2, "profile store is corrupt") + frames(body["lastExceptionBacktrace"], 3))
    signal_code = {"SIGSEGV": "SEGV_MAPERR", "SIGBUS": "BUS_ADRERR"}.get(exc["signal"], "#0")
    mach = pb_int(1, MACH[exc["type"]]) + pb_int(2, codes[0]) + pb_int(2, codes[1])
    msg += pb_bytes(6, pb_bytes(1, exc["signal"]) + pb_bytes(2, signal_code)
                    + pb_int(3, codes[1] if exc["type"] == "EXC_BAD_ACCESS" else 0) + pb_bytes(4, mach))
    msg += pb_bytes(7, pb_bytes(1, body["procName"]) + pb_int(2, body["pid"]) + pb_bytes(3, body["procPath"])
                    + pb_bytes(4, body["parentProc"]) + pb_int(5, body["parentPid"]) + pb_int(6, 1))
    msg += pb_bytes(8, pb_bytes(1, body["modelCode"]) + pb_bytes(2, processor("arm64")) + pb_int(3, 6) + pb_int(4, 6))
    msg += pb_bytes(9, pb_int(1, 0) + pb_bytes(2, bytes.fromhex(body["incident"].replace("-", ""))))
    return b"plcrash\x01" + msg


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
    for scenario in PLCRASH_SCENARIOS:
        header, body = read_ips(os.path.join(fixtures, "reports", scenario + ".ips"))
        with open(os.path.join(out, f"{scenario}.plcrash"), "wb") as f:
            f.write(plcrash(header, body))


if __name__ == "__main__":
    main()
