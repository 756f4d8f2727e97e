#!/usr/bin/env python3
"""Writes Fixtures/debugger/: the objc-exception fixture crash (reports/objc-exception.ips) as
Xcode's console and LLDB would have shown it, derived from the report's real load addresses and
UUIDs and from bin/CrashApp's function starts. Called by generate.sh after the reports.

- objc-exception.console.txt: the console's uncaught-exception message and its numbered
  `*** First throw call stack:` (Darwin's backtrace_symbols layout, `%-4d%-35s 0x%016lx %s + %lu`;
  a build stripped of its symbol table, so app frames read `CrashApp + <offset into the image>`).
- objc-exception.console-addresses.txt: the same stack as the bare `(0x… 0x…)` address list
  the console prints when it cannot name frames.
- objc-exception.lldb.txt: the console message, LLDB's stop, `bt` of the crashed thread and
  `image list` (executable first, host paths as Xcode's LLDB lists them: the build product and
  the DeviceSupport copies of the OS's libraries). App functions are named as LLDB names them in
  a stripped build: `___lldb_unnamed_symbolN + off`, N the function start's 1-based position.
- objc-exception.lldb-no-images.txt: the same `bt` without `image list`.
"""
import json
import os
import subprocess
import sys

REASON = "Profile legacy-profile is missing or corrupted"
NAME = "CAProfileCorruptedException"
HOST_APP = "/Users/dev/Library/Developer/Xcode/DerivedData/CrashApp-bqzcnsgkpmhflrcykxjtyxhnzzwq/Build/Products/Debug-iphoneos/CrashApp.app"
DEVICE_SUPPORT = "/Users/dev/Library/Developer/Xcode/iOS DeviceSupport/iPhone18,4 26.3 (23D127)/Symbols"


def function_starts(binary):
    out = subprocess.run(["llvm-objdump-19", "--macho", "--function-starts", binary], check=True, capture_output=True, text=True).stdout
    return [int(line.strip(), 16) for line in out.splitlines()[1:] if line.strip()]


def main(fixtures):
    text = open(os.path.join(fixtures, "reports/objc-exception.ips")).read()
    body = json.loads(text.split("\n", 1)[1])
    images = body["usedImages"]
    starts = function_starts(os.path.join(fixtures, "bin/CrashApp"))
    text_vmaddr = 0x100000000

    def frame_parts(frame):
        image = images[frame["imageIndex"]]
        return image, image["base"] + frame["imageOffset"]

    def console_line(index, frame):
        image, address = frame_parts(frame)
        if "symbol" in frame:
            symbol, offset = frame["symbol"], frame["symbolLocation"]
        else:
            symbol, offset = image["name"], frame["imageOffset"]
        return "%-4d%-35s 0x%016x %s + %d" % (index, image["name"], address, symbol, offset)

    def lldb_function(frame):
        image, _ = frame_parts(frame)
        if "symbol" in frame:
            return "%s + %d" % (frame["symbol"], frame["symbolLocation"]) if frame["symbolLocation"] else frame["symbol"]
        assert image["name"] == "CrashApp", image["name"]
        file_address = text_vmaddr + frame["imageOffset"]
        start = max(s for s in starts if s <= file_address)
        return "___lldb_unnamed_symbol%d + %d" % (starts.index(start) + 1, file_address - start)

    leb = body["lastExceptionBacktrace"]
    message = [
        "2026-03-19 21:00:54.238912+0900 CrashApp[5311:4118021] *** Terminating app due to uncaught exception '%s', reason: '%s'" % (NAME, REASON),
    ]
    console = message + ["*** First throw call stack:", "("]
    console += ["\t" + console_line(i, f) for i, f in enumerate(leb)]
    console += [")", "libc++abi: terminating due to uncaught exception of type NSException"]

    addresses = " ".join("0x%x" % frame_parts(f)[1] for f in leb)
    console_addresses = message + ["*** First throw call stack:", "(%s)" % addresses, "libc++abi: terminating due to uncaught exception of type NSException"]

    crashed = body["threads"][body["faultingThread"]]
    bt = ["(lldb) bt", "* thread #1, queue = 'com.apple.main-thread', stop reason = signal SIGABRT"]
    for i, frame in enumerate(crashed["frames"]):
        image, address = frame_parts(frame)
        marker = "  * " if i == 0 else "    "
        bt.append("%sframe #%d: 0x%016x %s`%s" % (marker, i, address, image["name"], lldb_function(frame)))
    stop = [
        "Process 5311 stopped",
        "* thread #1, queue = 'com.apple.main-thread', stop reason = signal SIGABRT",
        "    frame #0: 0x%016x libsystem_kernel.dylib`__pthread_kill + 8" % frame_parts(crashed["frames"][0])[1],
        "Target 0: (CrashApp) stopped.",
    ]
    image_list = ["(lldb) image list"]
    for index, image in enumerate(images):
        path = image["path"]
        if path.startswith("/private/var/containers/"):
            path = HOST_APP + path.split("CrashApp.app", 1)[1]
        else:
            path = DEVICE_SUPPORT + path
        image_list.append("[%3d] %s 0x%016x %s " % (index, image["uuid"].upper(), image["base"], path))

    out = os.path.join(fixtures, "debugger")
    os.makedirs(out, exist_ok=True)
    files = {
        "objc-exception.console.txt": console,
        "objc-exception.console-addresses.txt": console_addresses,
        "objc-exception.lldb.txt": console + stop + bt + image_list + ["(lldb) "],
        "objc-exception.lldb-no-images.txt": stop + bt + ["(lldb) "],
    }
    for name, lines in files.items():
        with open(os.path.join(out, name), "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
