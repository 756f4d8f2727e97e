#!/usr/bin/env python3
"""App Store Connect forms of fixture diagnostics (Fixtures/app-store-connect/).

Derived from metrickit/crashapp-hang.metrickit-diagnostic.json and
metrickit/crashapp-disk-write-exception.metrickit-diagnostic.json, never written by hand:

  crashapp.diagnostic-logs.json   the body of GET /v1/diagnosticSignatures/{id}/logs
                                  (application/vnd.apple.diagnostic-logs+json) holding both
                                  diagnostics, one product entry (signature) each

Shape: the `DiagnosticLogs` schema of Apple's App Store Connect API OpenAPI description 4.5.1
(productData[].signatureId, diagnosticInsights[], diagnosticLogs[].callStackTree[] with
callStackPerThread and callStacks[].callStackRootFrames[], diagnosticMetaData with bundleId,
appVersion, buildVersion, osVersion, deviceType, platformArchitecture, writesCaused; the frame
schema `DiagnosticLogCallStackNode`, whose offsetIntoBinaryTextSegment and address are strings).
The frames are the MetricKit diagnostics' own, so both forms name the same code. Keys whose values
were not found documented (`event`, `eventDetail`) are left out rather than invented.
Deterministic: two runs write identical files.
"""
import json
import os
import sys

RENAMED = {"bundleIdentifier": "bundleId", "appBuildVersion": "buildVersion"}
# MXMetaData keys the DiagnosticLogs schema has no place for.
DROPPED = {"regionFormat", "hangDuration"}


def node(frame):
    out = {}
    for key in ("binaryUUID", "binaryName", "sampleCount"):
        if key in frame:
            out[key] = frame[key]
    if "offsetIntoBinaryTextSegment" in frame:
        out["offsetIntoBinaryTextSegment"] = hex(frame["offsetIntoBinaryTextSegment"])
    if "address" in frame:
        out["address"] = hex(frame["address"])
    if frame.get("subFrames"):
        out["subFrames"] = [node(f) for f in frame["subFrames"]]
    return out


def log(diagnostic):
    tree = diagnostic["callStackTree"]
    meta = {RENAMED.get(k, k): v for k, v in diagnostic["diagnosticMetaData"].items() if k not in DROPPED}
    return {
        "callStackTree": [
            {
                "callStackPerThread": tree.get("callStackPerThread", True),
                "callStacks": [
                    {"callStackRootFrames": [node(f) for f in stack["callStackRootFrames"]]} for stack in tree["callStacks"]
                ],
            }
        ],
        "diagnosticMetaData": meta,
    }


def main(fixtures):
    products = []
    for name, signature, category in (
        ("crashapp-hang", "hang-signature-1", "HANGS"),
        ("crashapp-disk-write-exception", "disk-write-signature-1", "DISK_WRITES"),
    ):
        with open(os.path.join(fixtures, "metrickit", name + ".metrickit-diagnostic.json")) as f:
            diagnostic = json.load(f)
        products.append(
            {
                "signatureId": signature,
                "diagnosticInsights": [{"insightsCategory": category, "insightsString": "Fixture insight", "insightsURL": ""}],
                "diagnosticLogs": [log(diagnostic)],
            }
        )
    folder = os.path.join(fixtures, "app-store-connect")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "crashapp.diagnostic-logs.json"), "w") as f:
        json.dump({"version": "1.0", "productData": products}, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
