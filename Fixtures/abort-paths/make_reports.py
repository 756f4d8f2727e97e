#!/usr/bin/env python3
"""Crash reports for explain's abort-path, thread-role and stack-overflow rules (issue 31).

Each case is written three ways from one description, so the layouts cannot drift apart:
  <case>.crash  Apple's text layout (iOS 16, as Xcode's Organizer and ReportCrash print it)
  <case>.ips    Apple's JSON layout (bug_type 309: header line, then the body)
  <case>.metrickit.json  a MetricKit payload (MXCrashDiagnostic JSON) for the cases MetricKit
                can carry: frames as binary name + offset only, no function names.
Frames imitate what ReportCrash prints for these stops on iOS: the function names are the
ones in Apple's open source (libmalloc, libc++abi, objc4, libdispatch, swift). Addresses are
made up but consistent: image base + offset.

usage: make_reports.py OUT_DIR   (Fixtures/generate.sh: Fixtures/abort-paths/reports)
"""
import json
import os
import sys
import zlib

IMAGES = {
    # name: (base, path, uuid)
    "Demo": (0x100000000, "/private/var/containers/Bundle/Application/0A0B0C0D-0000-1111-2222-333344445555/Demo.app/Demo",
             "4c4c443b-5555-3144-a1e9-455154cffd57"),
    "libsystem_kernel.dylib": (0x1cbb90000, "/usr/lib/system/libsystem_kernel.dylib", "3c4c443b-5555-3144-a1e9-455154cffd5a"),
    "libsystem_pthread.dylib": (0x1dc1f0000, "/usr/lib/system/libsystem_pthread.dylib", "7c4c443b-5555-3144-a1e9-455154cffd5e"),
    "libsystem_c.dylib": (0x196100000, "/usr/lib/system/libsystem_c.dylib", "5c4c443b-5555-3144-a1e9-455154cffd5c"),
    "libsystem_malloc.dylib": (0x196a00000, "/usr/lib/system/libsystem_malloc.dylib", "8c4c443b-5555-3144-a1e9-455154cffd5f"),
    "libc++abi.dylib": (0x1a0000000, "/usr/lib/libc++abi.dylib", "6c4c443b-5555-3144-a1e9-455154cffd5d"),
    "libobjc.A.dylib": (0x18a2e0000, "/usr/lib/libobjc.A.dylib", "1c4c443b-5555-3144-a1e9-455154cffd58"),
    "libswift_Concurrency.dylib": (0x1a8800000, "/usr/lib/swift/libswift_Concurrency.dylib", "9c4c443b-5555-3144-a1e9-455154cffd60"),
    "libdispatch.dylib": (0x19a000000, "/usr/lib/system/libdispatch.dylib", "ac4c443b-5555-3144-a1e9-455154cffd61"),
    "CoreFoundation": (0x18b000000, "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation", "bc4c443b-5555-3144-a1e9-455154cffd62"),
    "Foundation": (0x18c000000, "/System/Library/Frameworks/Foundation.framework/Foundation", "cc4c443b-5555-3144-a1e9-455154cffd63"),
    "UIKitCore": (0x18d000000, "/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore", "dc4c443b-5555-3144-a1e9-455154cffd64"),
    "CoreLocation": (0x18e000000, "/System/Library/Frameworks/CoreLocation.framework/CoreLocation", "ec4c443b-5555-3144-a1e9-455154cffd65"),
}

ABORT = [("libsystem_kernel.dylib", "__pthread_kill", 8), ("libsystem_pthread.dylib", "pthread_kill", 268),
         ("libsystem_c.dylib", "abort", 180)]
MAIN_TAIL = [("Demo", "main", 64)]
IDLE_THREAD = [("libsystem_kernel.dylib", "__workq_kernreturn", 8), ("libsystem_pthread.dylib", "_pthread_wqthread", 288)]
TERMINATE = [("libc++abi.dylib", "abort_message", 132), ("libc++abi.dylib", "demangling_terminate_handler()", 304)]

SIGABRT = {"type": "EXC_CRASH", "signal": "SIGABRT", "codes": "0x0000000000000000, 0x0000000000000000",
           "termination": ("SIGNAL", 6, "Abort trap: 6")}


def cycle(pairs, count):
    frames = []
    while len(frames) < count:
        frames += pairs
    return frames[:count]


CASES = {
    # libmalloc's guard check found a corrupted nano block while allocating: malloc_zone_error
    # reports it through malloc_vreport and aborts.
    "malloc-guard-abort": dict(
        exception=SIGABRT, crashed=0, queue="com.apple.main-thread", metrickit=True,
        frames=ABORT + [("libsystem_malloc.dylib", "malloc_vreport", 428), ("libsystem_malloc.dylib", "malloc_zone_error", 104),
                        ("libsystem_malloc.dylib", "nanov2_guard_corruption_detected", 44),
                        ("libsystem_malloc.dylib", "nanov2_allocate_outlined", 404),
                        ("Demo", "ImageCache.store(_:for:)", 212), ("Demo", "ImageCache.load(url:)", 96)] + MAIN_TAIL),
    # assert() failing in the same app function as malloc-guard-abort: the same exception and
    # the same first app frame, a different stop (batch must not group the two).
    "assert-same-caller": dict(
        exception=SIGABRT, crashed=0, queue="com.apple.main-thread",
        asi=[],
        frames=ABORT + [("libsystem_c.dylib", "__assert_rtn", 268), ("Demo", "ImageCache.store(_:for:)", 300),
                        ("Demo", "ImageCache.load(url:)", 96)] + MAIN_TAIL),
    # The same check, but a libmalloc that traps (__builtin_trap) instead of calling abort.
    "malloc-guard-trap": dict(
        exception={"type": "EXC_BREAKPOINT", "signal": "SIGTRAP", "codes": "0x0000000000000001, 0x0000000196a0a1f0",
                   "termination": ("SIGNAL", 5, "Trace/BPT trap: 5")},
        crashed=0, queue="com.apple.main-thread",
        frames=[("libsystem_malloc.dylib", "malloc_zone_error", 40), ("libsystem_malloc.dylib", "nanov2_guard_corruption_detected", 44),
                ("libsystem_malloc.dylib", "nanov2_allocate_outlined", 404), ("Demo", "ImageCache.store(_:for:)", 212)] + MAIN_TAIL),
    # CFRelease(NULL): CoreFoundation's own check traps (EXC_BREAKPOINT in CFRelease.cold.1).
    "cfrelease-null-trap": dict(
        exception={"type": "EXC_BREAKPOINT", "signal": "SIGTRAP", "codes": "0x0000000000000001, 0x000000018b001010",
                   "termination": ("SIGNAL", 5, "Trace/BPT trap: 5")},
        crashed=0, queue="com.apple.main-thread",
        frames=[("CoreFoundation", "CFRelease.cold.1", 16), ("CoreFoundation", "CFRelease", 268),
                ("Demo", "PhotoExporter.finish()", 148)] + MAIN_TAIL),
    # A C++ throw nothing caught, on a background thread: libc++abi's terminate path.
    "cxx-uncaught": dict(
        exception=SIGABRT, crashed=3, queue="com.example.loader",
        frames=ABORT + TERMINATE + [("libc++abi.dylib", "std::__terminate(void (*)())", 16),
                                    ("libc++abi.dylib", "__cxxabiv1::failed_throw(__cxxabiv1::__cxa_exception*)", 32),
                                    ("libc++abi.dylib", "__cxa_throw", 140), ("Demo", "Engine::loadLevel(int)", 388),
                                    ("Demo", "Engine::start()", 52), ("libdispatch.dylib", "_dispatch_call_block_and_release", 32)]),
    # An exception left a noexcept destructor: the compiler's __clang_call_terminate.
    "cxx-noexcept": dict(
        exception=SIGABRT, crashed=0, queue="com.apple.main-thread",
        frames=ABORT + TERMINATE + [("libc++abi.dylib", "std::__terminate(void (*)())", 16),
                                    ("Demo", "__clang_call_terminate", 16), ("Demo", "Cache::~Cache()", 120)] + MAIN_TAIL),
    # UIKit's NSAssert on a table view update made from a background queue.
    "nsassert-off-main": dict(
        exception=SIGABRT, crashed=5, queue="com.apple.root.default-qos",
        asi=["*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'Invalid update: invalid number of rows in section 0.'"],
        leb=[("CoreFoundation", "__exceptionPreprocess", 164), ("libobjc.A.dylib", "objc_exception_throw", 60),
             ("Foundation", "_userInfoForFileAndLine", 0),
             ("Foundation", "-[NSAssertionHandler handleFailureInMethod:object:file:lineNumber:description:]", 252),
             ("UIKitCore", "-[UITableView _endCellAnimationsWithContext:]", 10260), ("UIKitCore", "-[UITableView endUpdates]", 72),
             ("Demo", "FeedViewController.apply(_:)", 340), ("Demo", "closure #1 in FeedViewController.reload()", 88),
             ("libdispatch.dylib", "_dispatch_call_block_and_release", 32)],
        frames=ABORT + TERMINATE + [("libobjc.A.dylib", "_objc_terminate()", 172), ("libc++abi.dylib", "std::__terminate(void (*)())", 16),
                                    ("libc++abi.dylib", "__cxa_rethrow", 148), ("libobjc.A.dylib", "objc_exception_rethrow", 44),
                                    ("libdispatch.dylib", "_dispatch_client_callout", 20),
                                    ("libdispatch.dylib", "_dispatch_root_queue_drain", 684)]),
    # Auto Layout used from a background queue: Foundation's own check throws, and its reason
    # says so; no UIKit frame is on the thread.
    "layout-off-main": dict(
        exception=SIGABRT, crashed=4, queue="com.example.progress",
        asi=["*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'Modifications to the layout engine must not be performed from a background thread after it has been accessed from the main thread.'"],
        leb=[("CoreFoundation", "__exceptionPreprocess", 164), ("libobjc.A.dylib", "objc_exception_throw", 60),
             ("Foundation", "_AssertAutolayoutOnAllowedThreadsOnly", 320),
             ("Foundation", "-[NSISEngine withBehaviors:performModifications:]", 28),
             ("Demo", "ProgressReporter.update(_:)", 212), ("libdispatch.dylib", "_dispatch_call_block_and_release", 32)],
        frames=ABORT + TERMINATE + [("libobjc.A.dylib", "_objc_terminate()", 172), ("libc++abi.dylib", "std::__terminate(void (*)())", 16),
                                    ("libc++abi.dylib", "__cxa_rethrow", 148), ("libobjc.A.dylib", "objc_exception_rethrow", 44),
                                    ("libdispatch.dylib", "_dispatch_client_callout", 20)]),
    # A @MainActor method reached from a delegate callback on a background queue: the Swift
    # runtime's isolation check stops the process.
    "mainactor-off-main": dict(
        exception=SIGABRT, crashed=2, queue="com.apple.root.user-initiated-qos",
        frames=ABORT + [("libswift_Concurrency.dylib", "swift::swift_Concurrency_fatalErrorv(unsigned int, char const*, char*)", 28),
                        ("libswift_Concurrency.dylib", "swift::swift_Concurrency_fatalError(unsigned int, char const*, ...)", 32),
                        ("libswift_Concurrency.dylib", "swift_task_reportUnexpectedExecutor", 108),
                        ("Demo", "@objc LocationDelegate.locationManager(_:didUpdateLocations:)", 96),
                        ("CoreLocation", "-[CLLocationManager onClientEventLocation:forceMapMatching:type:]", 1720),
                        ("libdispatch.dylib", "_dispatch_call_block_and_release", 32)]),
    # Mutual recursion that ran into the stack guard: 40 frames of a two-function cycle, the
    # fault 16 bytes below sp. No "Thread stack size exceeded" message.
    "stack-overflow-cycle": dict(
        exception={"type": "EXC_BAD_ACCESS", "signal": "SIGSEGV", "subtype": "KERN_PROTECTION_FAILURE at 0x000000016b0fbff0",
                   "codes": "0x0000000000000002, 0x000000016b0fbff0", "termination": ("SIGNAL", 11, "Segmentation fault: 11")},
        crashed=0, queue="com.apple.main-thread", sp=0x16B0FC000,
        frames=cycle([("Demo", "Node.visit(_:)", 48), ("Demo", "Tree.walk(_:)", 112)], 40) + MAIN_TAIL),
    # Plain recursion, a third-party-style report without registers: 100 frames of one function.
    "stack-overflow-run": dict(
        exception={"type": "EXC_BAD_ACCESS", "signal": "SIGSEGV", "subtype": "KERN_PROTECTION_FAILURE at 0x000000016f603ff8",
                   "codes": "0x0000000000000002, 0x000000016f603ff8", "termination": ("SIGNAL", 11, "Segmentation fault: 11")},
        crashed=1, queue="com.example.parser", metrickit=True,
        frames=cycle([("Demo", "JSONValue.depth()", 36)], 100) + [("Demo", "Parser.parse(_:)", 80)]),
}


def addr(image, offset):
    return IMAGES[image][0] + offset


def frame_offsets(frames):
    # A distinct, stable offset per (image, symbol): 0x1000 steps per symbol within an image.
    seen = {}
    out = []
    for image, symbol, location in frames:
        key = (image, symbol)
        if key not in seen:
            seen[key] = 0x1000 * (1 + sum(1 for k in seen if k[0] == image))
        out.append((image, symbol, location, seen[key] + location))
    return out


def threads_of(case):
    crashed = case["crashed"]
    threads = []
    for index in range(max(crashed + 1, 1)):
        if index == crashed:
            threads.append(dict(index=index, queue=case["queue"], frames=case["frames"], crashed=True))
        elif index == 0:
            threads.append(dict(index=0, queue="com.apple.main-thread",
                                frames=[("libsystem_kernel.dylib", "mach_msg2_trap", 8)] + MAIN_TAIL, crashed=False))
        else:
            threads.append(dict(index=index, queue=None, frames=IDLE_THREAD, crashed=False))
    return threads


def used_images(case):
    names = []
    for thread in threads_of(case):
        for image, _, _ in thread["frames"]:
            if image not in names:
                names.append(image)
    for image, _, _ in case.get("leb", []):
        if image not in names:
            names.append(image)
    return names


def text_report(name, case):
    ex = case["exception"]
    ns, code, indicator = ex["termination"]
    lines = [
        "Incident Identifier: 6D1E4F2A-1111-2222-3333-4444%08X" % zlib.crc32(name.encode()),
        "Hardware Model:      iPhone14,2",
        "Process:             Demo [4242]",
        "Path:                " + IMAGES["Demo"][1],
        "Identifier:          com.example.Demo",
        "Version:             1.0 (1)",
        "Code Type:           ARM-64 (Native)",
        "Role:                Foreground",
        "Parent Process:      launchd [1]",
        "",
        "Date/Time:           2026-03-19 21:00:54.2455 +0900",
        "OS Version:          iPhone OS 16.0 (20A362)",
        "Release Type:        User",
        "Report Version:      104",
        "",
        "Exception Type:  %s (%s)" % (ex["type"], ex["signal"]),
    ]
    if "subtype" in ex:
        lines.append("Exception Subtype: " + ex["subtype"])
    lines.append("Exception Codes: " + ex["codes"])
    lines.append("Exception Note:  EXC_CORPSE_NOTIFY")
    lines.append("Termination Reason: %s %d %s" % (ns, code, indicator))
    lines.append("Terminating Process: Demo [4242]")
    lines.append("")
    lines.append("Triggered by Thread:  %d" % case["crashed"])
    lines.append("")
    if case.get("asi"):
        lines.append("Application Specific Information:")
        lines += case["asi"]
        lines.append("")
    if case.get("leb"):
        lines.append("Last Exception Backtrace:")
        for i, (image, symbol, location, offset) in enumerate(frame_offsets(case["leb"])):
            lines.append("%-4d%-30s\t0x%016x %s + %d" % (i, image, addr(image, offset), symbol, location))
        lines.append("")
    for thread in threads_of(case):
        if thread["queue"]:
            lines.append("Thread %d name:   Dispatch queue: %s" % (thread["index"], thread["queue"]))
        lines.append("Thread %d%s:" % (thread["index"], " Crashed" if thread["crashed"] else ""))
        for i, (image, symbol, location, offset) in enumerate(frame_offsets(thread["frames"])):
            lines.append("%-4d%-30s\t0x%016x %s + %d" % (i, image, addr(image, offset), symbol, location))
        lines.append("")
    if "sp" in case:
        lines.append("Thread %d crashed with ARM Thread State (64-bit):" % case["crashed"])
        lines.append("    x0: 0x0000000000000000   x1: 0x0000000000000000   x2: 0x0000000000000000   x3: 0x0000000000000000")
        lines.append("    fp: 0x%016x   lr: 0x%016x" % (case["sp"] + 0x10, addr("Demo", 0x2030)))
        lines.append("    sp: 0x%016x   pc: 0x%016x cpsr: 0x60000000" % (case["sp"], addr("Demo", 0x1030)))
        lines.append("   far: 0x%016x  esr: 0x92000047 (Data Abort) byte write Translation fault" % (case["sp"] - 0x10))
        lines.append("")
    lines.append("Binary Images:")
    for image in used_images(case):
        base, path, uuid = IMAGES[image]
        arch = "arm64" if image == "Demo" else "arm64e"
        lines.append("0x%x - 0x%x %s %s  <%s> %s" % (base, base + 0xfffff, image, arch, uuid.replace("-", ""), path))
    lines.append("")
    lines.append("EOF")
    return "\n".join(lines) + "\n"


def ips_report(name, case):
    ex = case["exception"]
    ns, code, indicator = ex["termination"]
    images = used_images(case)
    header = {"app_name": "Demo", "timestamp": "2026-03-19 21:00:54.00 +0900", "app_version": "1.0", "build_version": "1",
              "slice_uuid": IMAGES["Demo"][2], "bug_type": "309", "os_version": "iPhone OS 16.0 (20A362)",
              "bundleID": "com.example.Demo", "incident_id": "6D1E4F2A-1111-2222-3333-4444%08X" % zlib.crc32(name.encode()),
              "name": "Demo", "platform": 2}

    def frames_json(frames):
        return [{"imageOffset": offset, "symbol": symbol, "symbolLocation": location, "imageIndex": images.index(image)}
                for image, symbol, location, offset in frame_offsets(frames)]

    threads = []
    for thread in threads_of(case):
        item = {"id": 1000 + thread["index"], "frames": frames_json(thread["frames"])}
        if thread["queue"]:
            item["queue"] = thread["queue"]
        if thread["crashed"]:
            item["triggered"] = True
            if "sp" in case:
                item["threadState"] = {"flavor": "ARM_THREAD_STATE64", "sp": {"value": case["sp"]}, "fp": {"value": case["sp"] + 0x10},
                                       "pc": {"value": addr("Demo", 0x1030)}, "lr": {"value": addr("Demo", 0x2030)},
                                       "far": {"value": case["sp"] - 0x10}, "cpsr": {"value": 0x60000000},
                                       "x": [{"value": 0}] * 29}
        threads.append(item)
    exception = {"type": ex["type"], "signal": ex["signal"], "codes": ex["codes"],
                 "rawCodes": [int(c, 16) for c in ex["codes"].split(", ")]}
    if "subtype" in ex:
        exception["subtype"] = ex["subtype"]
    body = {
        "uptime": 25000, "procRole": "Foreground", "version": 2, "userID": 501, "deployVersion": 210, "modelCode": "iPhone14,2",
        "osVersion": {"isEmbedded": True, "train": "iPhone OS 16.0", "releaseType": "User", "build": "20A362"},
        "captureTime": "2026-03-19 21:00:54.2455 +0900", "incident": header["incident_id"], "bug_type": "309", "pid": 4242,
        "cpuType": "ARM-64", "procName": "Demo", "procPath": IMAGES["Demo"][1],
        "bundleInfo": {"CFBundleShortVersionString": "1.0", "CFBundleVersion": "1", "CFBundleIdentifier": "com.example.Demo"},
        "parentProc": "launchd", "parentPid": 1, "isCorpse": 1,
        "exception": exception,
        "termination": {"flags": 0, "code": code, "namespace": ns, "indicator": indicator, "byProc": "Demo", "byPid": 4242},
        "faultingThread": case["crashed"], "threads": threads,
        "usedImages": [{"source": "P", "arch": "arm64" if image == "Demo" else "arm64e", "base": IMAGES[image][0], "size": 0x100000,
                        "uuid": IMAGES[image][2], "path": IMAGES[image][1], "name": image} for image in images],
    }
    if case.get("asi"):
        body["asi"] = {"CoreFoundation": case["asi"]}
    if case.get("leb"):
        body["lastExceptionBacktrace"] = frames_json(case["leb"])
    return json.dumps(header, separators=(",", ":")) + "\n" + json.dumps(body, indent=2) + "\n"


def metrickit_payload(name, case):
    """MXCrashDiagnostic: the crashed thread as nested frames (callee first), binary names and offsets only."""
    root = None
    for image, _symbol, _location, offset in reversed(frame_offsets(case["frames"])):
        node = {"binaryUUID": IMAGES[image][2].upper(), "offsetIntoBinaryTextSegment": offset, "sampleCount": 1, "binaryName": image,
                "address": addr(image, offset)}
        if root is not None:
            node["subFrames"] = [root]
        root = node
    ex = case["exception"]
    types = {"EXC_BAD_ACCESS": 1, "EXC_CRASH": 10, "EXC_BREAKPOINT": 6}
    signals = {"SIGABRT": 6, "SIGSEGV": 11, "SIGTRAP": 5}
    ns, code, _ = ex["termination"]
    diagnostic = {
        "version": "1.0.0",
        "callStackTree": {"callStacks": [{"threadAttributed": True, "callStackRootFrames": [root]}], "callStackPerThread": True},
        "diagnosticMetaData": {"appBuildVersion": "1", "appVersion": "1.0", "regionFormat": "US", "exceptionType": types[ex["type"]],
                               "osVersion": "iPhone OS 16.0 (20A362)", "deviceType": "iPhone14,2", "signal": signals[ex["signal"]],
                               "exceptionCode": 0, "platformArchitecture": "arm64e", "bundleIdentifier": "com.example.Demo",
                               "terminationReason": "Namespace %s, Code 0x%x" % (ns, code)},
    }
    return json.dumps({"timeStampBegin": "2026-03-19 00:00:00 +0000", "timeStampEnd": "2026-03-19 23:59:00 +0000",
                       "crashDiagnostics": [diagnostic]}, indent=2) + "\n"


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, case in CASES.items():
        with open(os.path.join(out, name + ".crash"), "w") as f:
            f.write(text_report(name, case))
        with open(os.path.join(out, name + ".ips"), "w") as f:
            f.write(ips_report(name, case))
        if case.get("metrickit"):
            with open(os.path.join(out, name + ".metrickit.json"), "w") as f:
                f.write(metrickit_payload(name, case))


if __name__ == "__main__":
    main()
