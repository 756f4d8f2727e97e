#!/usr/bin/env python3
"""MetricKit forms of fixture crashes, as recent systems deliver them (Fixtures/metrickit/).

Derived from the generated reports, never written by hand:
  <case>.metrickit-payload.json     MXDiagnosticPayload.jsonRepresentation() holding the crash
  <case>.metrickit-diagnostic.json  the same crash as apps log it on its own
                                    (MXCrashDiagnostic.jsonRepresentation(): callStackTree and
                                    diagnosticMetaData at the top level)
  crashapp-<class>.metrickit-diagnostic.json  each non-crash diagnostic of
                                    logs/crashapp-metrickit.json on its own
  swift-trap.cut.ips                reports/swift-trap.ips cut inside thread 0's frames, as
                                    pasted into an issue

Every frame carries only binaryUUID + offsetIntoBinaryTextSegment (+ binaryName, sampleCount,
subFrames): no `address`, as iOS 26 writes them. The offsets are the reports' own imageOffset
values, so every form names the same code as the .ips. The metadata keys added up to iOS 26
(bundleIdentifier, isTestFlightApp, lowPowerModeEnabled, pid, exceptionReason) are filled from
the report (pid, bundle id) or from the fixture's source (the exception ProfileStore.m raises).
Deterministic: two runs write identical files.
"""
import json
import os
import sys

PLATFORM = ("iPhone OS 26.0 (23A341)", "iPhone17,1")


def read_ips(path):
    with open(path) as f:
        header, body = f.read().split("\n", 1)
    return json.loads(header), json.loads(body)


def frame_entry(image, offset, children):
    entry = {"binaryUUID": image["uuid"].upper(), "offsetIntoBinaryTextSegment": offset, "sampleCount": 1}
    if children:
        entry["subFrames"] = children
    entry["binaryName"] = image["name"]
    return entry


def stack(frames, images):
    """A linear stack, top frame first: the root is where the thread was, each frame's only
    sub-frame its caller."""
    entry = None
    for frame in reversed(frames):
        entry = frame_entry(images[frame["imageIndex"]], frame["imageOffset"], [entry] if entry else [])
    return entry


def crash_meta(header, body, extra):
    info = body.get("bundleInfo", {})
    meta = {"appBuildVersion": info.get("CFBundleVersion", ""), "appVersion": info.get("CFBundleShortVersionString", ""),
            "regionFormat": "US", "osVersion": PLATFORM[0], "deviceType": PLATFORM[1], "platformArchitecture": "arm64e",
            "bundleIdentifier": info.get("CFBundleIdentifier", header.get("bundleID", "")),
            "isTestFlightApp": False, "lowPowerModeEnabled": False, "pid": body["pid"]}
    meta.update(extra)
    return meta


def crash_diagnostic(header, body, extra):
    images = body["usedImages"]
    stacks = [{"threadAttributed": i == body["faultingThread"], "callStackRootFrames": [stack(t["frames"], images)]}
              for i, t in enumerate(body["threads"]) if t["frames"]]
    ex = body["exception"]
    signals = {"SIGTRAP": 5, "SIGABRT": 6, "SIGSEGV": 11, "SIGBUS": 10, "SIGKILL": 9}
    types = {"EXC_BAD_ACCESS": 1, "EXC_BREAKPOINT": 6, "EXC_CRASH": 10}
    term = body["termination"]
    meta = {"exceptionType": types[ex["type"]], "exceptionCode": ex["rawCodes"][0], "signal": signals[ex["signal"]],
            "terminationReason": "Namespace %s, Code %d %s" % (term["namespace"], term["code"], term["indicator"])}
    meta.update(extra)
    return {"version": "1.0.0",
            "callStackTree": {"callStacks": stacks, "callStackPerThread": True},
            "diagnosticMetaData": crash_meta(header, body, meta)}


def strip_addresses(node):
    """A payload frame of logs/ as iOS 26 writes it: no `address` (loops, no recursion)."""
    pending = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, dict):
            current.pop("address", None)
            pending.extend(current.values())
        elif isinstance(current, list):
            pending.extend(current)


def write(path, value):
    with open(path, "w") as f:
        json.dump(value, f, indent=2, ensure_ascii=False)
        f.write("\n")


def main(fixtures):
    out = os.path.join(fixtures, "metrickit")
    os.makedirs(out, exist_ok=True)
    reports = os.path.join(fixtures, "reports")
    # The Swift trap across CrashKit: payload and single diagnostic.
    header, body = read_ips(os.path.join(reports, "swift-trap.ips"))
    trap = crash_diagnostic(header, body, {})
    write(os.path.join(out, "swift-trap.metrickit-diagnostic.json"), trap)
    write(os.path.join(out, "swift-trap.metrickit-payload.json"),
          {"timeStampEnd": "2025-10-02 23:59:00 +0000", "timeStampBegin": "2025-10-02 00:00:00 +0000",
           "crashDiagnostics": [trap]})
    # The uncaught NSException, with the exceptionReason iOS 17 added (what ProfileStore.m raises).
    header, body = read_ips(os.path.join(reports, "objc-exception.ips"))
    reason = {"composedMessage": "Profile legacy-profile is missing or corrupted",
              "formatString": "Profile %s is missing or corrupted", "arguments": ["legacy-profile"],
              "exceptionType": "Error", "className": "NSException", "exceptionName": "CAProfileCorruptedException"}
    write(os.path.join(out, "objc-exception.metrickit-diagnostic.json"),
          crash_diagnostic(header, body, {"exceptionReason": reason}))
    # Every other diagnostic class on its own, from the iOS 17 payload of logs/.
    with open(os.path.join(fixtures, "logs", "crashapp-metrickit.json")) as f:
        payload = json.load(f)
    for key, name in (("hangDiagnostics", "hang"), ("cpuExceptionDiagnostics", "cpu-exception"),
                      ("diskWriteExceptionDiagnostics", "disk-write-exception"), ("appLaunchDiagnostics", "app-launch")):
        diagnostic = payload[key][0]
        strip_addresses(diagnostic)
        diagnostic["diagnosticMetaData"]["osVersion"] = PLATFORM[0]
        diagnostic["diagnosticMetaData"]["deviceType"] = PLATFORM[1]
        write(os.path.join(out, "crashapp-%s.metrickit-diagnostic.json" % name), diagnostic)
    # The .ips cut inside thread 0's frames (after its fourth frame's first key), as pasted.
    with open(os.path.join(reports, "swift-trap.ips")) as f:
        text = f.read()
    threads = text.index('"threads"')
    fourth = threads
    for _ in range(4):
        fourth = text.index('"imageOffset"', fourth + 1)
    with open(os.path.join(out, "swift-trap.cut.ips"), "w") as f:
        f.write(text[:fourth + len('"imageOffset" : 1')] + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
