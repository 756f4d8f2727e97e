#!/usr/bin/env python3
"""One-off: copies system images and system frames out of real crash reports
(../shared/corpus/reports, see its SOURCES.md) into system_templates.json, so
generate.sh does not depend on the corpus being present. Not run by generate.sh.

Usage: extract_templates.py CORPUS_REPORTS_DIR OUTPUT_JSON
"""
import json
import os
import sys


def load_ips(path):
    with open(path) as f:
        header, body = f.read().split("\n", 1)
    return json.loads(header), json.loads(body)


def image_table(report):
    table = {}
    for image in report["usedImages"]:
        if "name" not in image:
            continue
        table[image["name"]] = {
            "name": image["name"], "arch": image["arch"], "base": image["base"],
            "size": image["size"], "uuid": image["uuid"], "path": image["path"],
        }
    return table


def system_frames(report, frames):
    out = []
    for frame in frames:
        image = report["usedImages"][frame["imageIndex"]]
        out.append({
            "image": image.get("name", "???"), "imageOffset": frame["imageOffset"],
            "symbol": frame.get("symbol"), "symbolLocation": frame.get("symbolLocation"),
        })
    return out


def thread_templates(report, skip_app):
    threads = []
    for thread in report["threads"]:
        frames = system_frames(report, thread["frames"])
        if not frames or any(f["image"] in skip_app for f in frames):
            continue
        entry = {"frames": frames}
        for key in ("name", "queue"):
            if key in thread:
                entry[key] = thread[key]
        threads.append(entry)
    return threads


def main():
    corpus, output = sys.argv[1], sys.argv[2]
    ios15_name = "macsym__exc-breakpoint_iphone14-2_ios15-5.ips"
    ios26_name = "driverpay__nsexception-leb_iphone18-4_ios26-3.ips"
    mac_name = "mdi__sim-exc-crash-sigsegv_memoryleakingapp_macos12-4-x86_64.ips"
    _, ios15 = load_ips(os.path.join(corpus, ios15_name))
    _, ios26 = load_ips(os.path.join(corpus, ios26_name))
    _, mac = load_ips(os.path.join(corpus, mac_name))

    main15 = system_frames(ios15, ios15["threads"][0]["frames"])
    main26 = system_frames(ios26, ios26["threads"][0]["frames"])
    crashed26 = system_frames(ios26, ios26["threads"][1]["frames"])
    templates = {
        "sources": [ios15_name, ios26_name, mac_name],
        "ios15": {
            "images": image_table(ios15),
            # Thread 0 below the app's viewDidLoad frames: UIKit up to UIApplicationMain.
            "uikitLaunch": main15[4:46],
            "dyldStart": main15[47:48],
            "swiftTrapTop": main15[0:1],
            "otherThreads": thread_templates(ios15, {"iOSCrashingTest"}),
            "vmSummary": ios15["vmSummary"],
        },
        "ios26": {
            "images": image_table(ios26),
            "abortTop": crashed26[0:10],
            "raiseFrame": crashed26[10:11],
            "exceptionTop": system_frames(ios26, ios26["lastExceptionBacktrace"][0:3]),
            "runLoopMain": main26[17:27],
            "dyldStart": main26[-1:],
            "otherThreads": thread_templates(ios26, {"DiscoveryDriverPortal", "React", "ReactNativeDependencies", "hermesvm", "???"}),
            "vmSummary": ios26["vmSummary"],
        },
        "macos12": {
            "images": image_table(mac),
            "pthreadStart": system_frames(mac, mac["threads"][1]["frames"][-2:]),
            "otherThreads": thread_templates(mac, {"MemoryLeakingApp"})[1:],
        },
    }
    with open(output, "w") as f:
        json.dump(templates, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
