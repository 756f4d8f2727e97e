"""Writes the non-report logs for the fixtures (imported by fixtures.py `logs`).

  logs/macapp-sample.txt            macOS `sample` output (Activity Monitor "Sample Process")
  logs/macapp-spindump.txt          `spindump` hang report
  logs/crashapp-cpu-usage.ips       microstackshot cpu usage report (bug_type 206, text body)
  logs/crashapp-metrickit.json      MXDiagnosticPayload.jsonRepresentation(), iOS 17 (offsets)
  logs/crashapp-metrickit-ios14.json  the same producer on iOS 14 (load address in
                                    offsetIntoBinaryTextSegment)
  logs/CrashApp.xccrashpoint/       Xcode Organizer export of two of the crash reports
  logs/manifest.json                every app frame of every log with llvm-symbolizer's answer

Layouts follow ../shared/reference/formats.md section 5 (the corpus holds no sample or
spindump output; the MetricKit key order and value styles follow the corpus payloads from
ChimeHQ/Meter). Every app address is computed from the built binaries: deepest frames of a
call graph (where the thread was when sampled) are line-table rows of the sampled
function, every caller is the real return address after its call instruction. Expected
frames come from llvm-symbolizer-19 + `swift-demangle --simplified` at the lookup address
(return address - 1 for callers), never from our own code.
"""
import json
import os
import shutil
import subprocess

import reports

DWARFDUMP = "llvm-dwarfdump-19"


def line_rows(fx, function):
    """Start addresses of the line-table rows inside `function` (from llvm-dwarfdump),
    excluding end-of-sequence markers; the function's first instruction is left out
    (a thread sampled there has not started the work yet)."""
    insns = fx.dis.insns(function)
    start, end = insns[0][0], insns[-1][0] + 1
    out = subprocess.run([DWARFDUMP, "--debug-line", "--arch=" + fx.arch, fx.dwarf],
                         capture_output=True, text=True, check=True).stdout
    rows = set()
    for line in out.splitlines():
        if not line.startswith("0x") or "end_sequence" in line:
            continue
        address = int(line.split()[0], 16)
        if start < address < end:
            rows.add(address)
    if not rows:
        raise KeyError("no line-table rows inside " + function)
    return sorted(rows)


def pick(rows, count):
    """`count` rows spread over the function (first, last and evenly between)."""
    if len(rows) <= count:
        return rows
    step = (len(rows) - 1) / (count - 1)
    return sorted({rows[round(i * step)] for i in range(count)})


# --------------------------------------------------------------------------
# Call-graph model shared by sample and spindump
# --------------------------------------------------------------------------

class Node:
    """One call-graph node: an app frame (fixture image + file address) or a system frame
    (image + offset + symbol), its sample count, and its callees."""

    def __init__(self, image, offset, count, children=(), symbol=None, location=None, leaf=False, kernel=False):
        self.image = image
        self.offset = offset
        self.count = count
        self.children = list(children)
        self.symbol = symbol
        self.location = location
        self.leaf = leaf
        self.kernel = kernel

    @property
    def address(self):
        return self.image.base + self.offset


def app_node(image, file_address, count, children=(), leaf=False):
    return Node(image, file_address - image.fixture.text_address, count, children, leaf=leaf)


def walk(nodes):
    for n in nodes:
        yield n
        yield from walk(n.children)


# --------------------------------------------------------------------------
# macOS `sample`
# --------------------------------------------------------------------------

SAMPLE_GUIDES = "+!:|"


def sample_lines(node, depth):
    """`COUNT SYMBOL  (in IMAGE)  …  [0xADDR]`, indented two columns per level after the
    thread line, with sample's guide characters (`+ ! : |`) at every other level."""
    guide = "".join(("  " if i % 2 else SAMPLE_GUIDES[(i // 2) % len(SAMPLE_GUIDES)] + " ") for i in range(depth))
    if node.image.fixture is not None:
        body = "???  (in %s)  load address 0x%x + 0x%x  [0x%x]" % (node.image.name, node.image.base, node.offset, node.address)
    else:
        body = "%s  (in %s) + %d  [0x%x]" % (node.symbol, node.image.name, node.location, node.address)
    lines = ["    " + guide + "%d %s" % (node.count, body)]
    for child in node.children:
        lines += sample_lines(child, depth + 1)
    return lines


def sample_text(process, images, threads, header):
    lines = ["Analysis of sampling %s (pid %d) every 1 millisecond" % (process["name"], process["pid"])]
    for key, value in header:
        lines.append("%-17s%s" % (key + ":", value) if key else "")
    lines += ["----", "", "Call graph:"]
    for title, root in threads:
        lines.append("    %d %s" % (root.count, title))
        for line in sample_lines(root, 1):
            lines.append(line)
    lines += ["", "Total number in stack (recursive counted multiple, when >=5):", ""]
    lines.append("Sort by top of stack, same collapsed (when >= 5):")
    tops = {}
    for _, root in threads:
        for n in walk([root]):
            if not n.children:
                if n.image.fixture is not None:
                    key = "???  (in %s)  load address 0x%x + 0x%x" % (n.image.name, n.image.base, n.offset)
                else:
                    key = "%s  (in %s)" % (n.symbol, n.image.name)
                tops[key] = tops.get(key, 0) + n.count
    for key, count in sorted(tops.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append("        %-70s %d" % (key, count))
    lines += ["", "Binary Images:"]
    for image in sorted(images, key=lambda i: i.base):
        # App images go by bundle identifier, marked `+`; system ones by name.
        label = "+com.example." + image.name if image.fixture is not None else " " + image.name
        lines.append("%18s - %18s %s (%s) <%s> %s" % (
            "0x%x" % image.base, "0x%x" % image.end, label, image.version, image.uuid.upper(), image.path))
    return "\n".join(lines) + "\n"


def macapp_threads(fx, app, sys_frame, leaves):
    """MacApp while its worker sums samples: the main thread waits in pthread_join, the
    worker's samples fall on `leaves` (rows of mac_average) with the given counts."""
    d = fx.dis
    total = sum(count for _, count in leaves)
    worker_leaves = [app_node(app, address, count, leaf=True) for address, count in leaves]
    job = app_node(app, d.return_address("_mac_process_job", "_mac_average"), total, worker_leaves)
    worker_main = app_node(app, d.return_address("_mac_worker_main", "_mac_process_job"), total, [job])
    wait = sys_frame("libsystem_kernel.dylib", "__ulock_wait", total)
    join = sys_frame("libsystem_pthread.dylib", "_pthread_join", total, [wait])
    start_worker = app_node(app, d.return_address("_mac_start_worker", "_pthread_join"), total, [join])
    main = app_node(app, d.return_address("_main", "_mac_start_worker"), total, [start_worker])
    main_root = sys_frame("dyld", "start", total, [main])
    worker_root = sys_frame("libsystem_pthread.dylib", "thread_start", total,
                            [sys_frame("libsystem_pthread.dylib", "_pthread_start", total, [worker_main])])
    return main_root, worker_root


def scenario_sample(cat, templates):
    fx = cat["MacApp-x86_64"]
    b = reports.Builder(fx, templates, "macos12")
    app = b.app_image("MacApp", fx, 0x10c5f2000, "/Applications/MacApp.app/Contents/MacOS/MacApp")
    app.version = "1.0 - 1"
    versions = {"dyld": "960", "libsystem_pthread.dylib": "486.100.11", "libsystem_kernel.dylib": "8020.121.3"}
    # System frames as in the macOS 12 x86_64 report templates (dyld start, pthread start);
    # __ulock_wait and _pthread_join are synthesized like the macapp-x86_64 report's.
    offsets = {"start": ("dyld", 21790, 462), "thread_start": ("libsystem_pthread.dylib", 8043, 15),
               "_pthread_start": ("libsystem_pthread.dylib", 25825, 125),
               "_pthread_join": ("libsystem_pthread.dylib", 0x8d6a, 362), "__ulock_wait": ("libsystem_kernel.dylib", 0x3c0a, 10)}

    def sys_frame(image, symbol, count, children=()):
        name, offset, location = offsets[symbol]
        assert name == image
        system = b.system_image(image)
        system.version = versions[image]
        return Node(system, offset, count, children, symbol=symbol, location=location)

    rows = pick(line_rows(fx, "_mac_average"), 4)
    leaves = list(zip(rows, [1530, 612, 198, 109][:len(rows)]))
    main_root, worker_root = macapp_threads(fx, app, sys_frame, leaves)
    total = main_root.count
    header = [("Process", "MacApp [7788]"), ("Path", app.path), ("Load Address", "0x%x" % app.base),
              ("Identifier", "MacApp"), ("Version", "???"), ("Code Type", "X86-64"), ("Platform", "macOS"),
              ("Parent Process", "zsh [7701]"), ("", ""), ("Date/Time", "2022-08-03 20:37:41.118 +0200"),
              ("Launch Time", "2022-08-03 20:37:30.004 +0200"), ("OS Version", "macOS 12.4 (21F79)"),
              ("Report Version", "7"), ("Analysis Tool", "/usr/bin/sample")]
    text = sample_text({"name": "MacApp", "pid": 7788}, b.images, [
        ("Thread_16614993   DispatchQueue_1: com.apple.main-thread  (serial)", main_root),
        ("Thread_16614997", worker_root)], header)
    assert total == worker_root.count
    return {"file": "macapp-sample.txt", "producer": "macOS sample", "text": text, "images": b.images,
            "threads": [main_root, worker_root]}


# --------------------------------------------------------------------------
# spindump
# --------------------------------------------------------------------------

def spindump_lines(node, depth):
    indent = "  " * depth
    if node.image.fixture is not None or node.symbol is None:
        body = "??? (%s + %d) [0x%x]" % (node.image.name, node.offset, node.address)
    else:
        body = "%s + %d (%s + %d) [0x%x]" % (node.symbol, node.location, node.image.name, node.offset, node.address)
    star = "*" if node.kernel else ""
    lines = ["  %s%s%-3d %s" % (indent, star, node.count, body)]
    for child in node.children:
        lines += spindump_lines(child, depth + 1)
    return lines


# Synthesized macOS 12 arm64 system images (the corpus has none): names and paths as on
# macOS, UUIDs derived from the name, addresses in the shared-cache range.
MAC_ARM64_SYSTEM = {
    "dyld": (0x1a0b57000, 0x5e000, "/usr/lib/dyld", "960"),
    "libsystem_pthread.dylib": (0x1a0d1c000, 0xc000, "/usr/lib/system/libsystem_pthread.dylib", "486.100.11"),
    "libsystem_kernel.dylib": (0x1a0ce3000, 0x38000, "/usr/lib/system/libsystem_kernel.dylib", "8020.121.3"),
}
MAC_ARM64_FRAMES = {"start": ("dyld", 20008, 520), "thread_start": ("libsystem_pthread.dylib", 7740, 8),
                    "_pthread_start": ("libsystem_pthread.dylib", 28780, 148),
                    "_pthread_join": ("libsystem_pthread.dylib", 10912, 608),
                    "__ulock_wait": ("libsystem_kernel.dylib", 8504, 8)}


def scenario_spindump(cat):
    fx = cat["MacApp-dwarf5-arm64"]
    images = {}
    for name, (base, size, path, version) in MAC_ARM64_SYSTEM.items():
        images[name] = reports.Image(name, "arm64e", base, size, reports.stable_uuid("macos12-arm64/" + name), path, version=version)
    app = reports.Image("MacApp-dwarf5", "arm64", 0x100a00000, fx.text_size, fx.uuid,
                        "/Applications/MacApp.app/Contents/MacOS/MacApp-dwarf5", fixture=fx, version="1.0 (1)")
    kernel = reports.Image("kernel.release.t6000", "arm64e", 0xfffffe0007004000, 0x1000000,
                           reports.stable_uuid("macos12-arm64/kernel"), "/System/Library/Kernels/kernel.release.t6000")

    def sys_frame(image, symbol, count, children=()):
        name, offset, location = MAC_ARM64_FRAMES[symbol]
        assert name == image
        return Node(images[image], offset, count, children, symbol=symbol, location=location)

    rows = pick(line_rows(fx, "_mac_average"), 3)
    leaves = list(zip(rows, [12, 6, 3][:len(rows)]))
    main_root, worker_root = macapp_threads(fx, app, sys_frame, leaves)
    # The waiting main thread ends in the kernel, which spindump marks with `*`.
    wait = next(n for n in walk([main_root]) if n.symbol == "__ulock_wait")
    wait.children = [Node(kernel, 0x1f6a14, wait.count, kernel=True)]
    steps = main_root.count
    header = [("Date/Time", "2022-08-03 20:38:02.512 +0200"), ("End time", "2022-08-03 20:38:04.612 +0200"),
              ("OS Version", "macOS 12.4 (Build 21F79)"), ("Architecture", "arm64e"), ("Report Version", "35.1"),
              ("Share With Devs", "Yes"), ("", ""), ("Data Source", "Stackshots"),
              ("Command", "MacApp-dwarf5"), ("Path", app.path), ("Identifier", "com.example.MacApp"),
              ("Version", "1.0 (1)"), ("PID", "7790"), ("Event", "hang"), ("Duration", "2.10s"),
              ("Steps", "%d (100ms sampling interval)" % steps), ("", ""), ("Hardware model", "MacBookPro18,3"),
              ("Active cpus", "10")]
    lines = []
    for key, value in header:
        lines.append("%-18s%s" % (key + ":", value) if key else "")
    lines += ["", "-" * 50, "Timeline format: stacks are sorted chronologically",
              "Use -i and -heavy to re-report with count sorting", "-" * 50, ""]
    process = [("Process", "MacApp-dwarf5 [7790]"), ("UUID", fx.uuid.upper()), ("Path", app.path),
               ("Identifier", "com.example.MacApp"), ("Version", "1.0 (1)"), ("Architecture", "arm64"),
               ("Parent", "launchd [1]"), ("PID", "7790"), ("Time Since Fork", "12s"),
               ("Num samples", "%d (1-%d)" % (steps, steps)), ("Note", "Unresponsive for 2 seconds before sampling")]
    for key, value in process:
        lines.append("%-18s%s" % (key + ":", value))
    lines.append("")
    threads = [("Thread 0x1b7c    DispatchQueue \"com.apple.main-thread\"(1)", main_root),
               ("Thread 0x1b7f", worker_root)]
    for title, root in threads:
        lines.append("  %s    %d samples (1-%d)    priority 46 (base 46)" % (title, steps, steps))
        lines += spindump_lines(root, 0)
        lines.append("")
    lines.append("  Binary Images:")
    for image in sorted(list(images.values()) + [app], key=lambda i: i.base):
        ident = "com.example.MacApp" if image.fixture is not None else image.name
        lines.append("%25s - %18s  %s %s  <%s>  %s" % ("0x%x" % image.base, "0x%x" % image.end, ident, image.version,
                                                       image.uuid.upper(), image.path))
    text = "\n".join(lines) + "\n"
    return {"file": "macapp-spindump.txt", "producer": "spindump", "text": text, "images": [app] + list(images.values()),
            "threads": [main_root, worker_root]}


# --------------------------------------------------------------------------
# Microstackshot (cpu usage resource report)
# --------------------------------------------------------------------------

def merge(stacks):
    """Call-graph roots from linear stacks (innermost frame first, with a sample count):
    stacks sharing their outer frames share nodes, counts add up."""
    roots = []
    for frames, count in stacks:
        level = roots
        outer_first = list(reversed(frames))
        for depth, frame in enumerate(outer_first):
            node = next((n for n in level if n.image is frame.image and n.offset == frame.offset), None)
            if node is None:
                node = Node(frame.image, frame.offset, 0, symbol=frame.symbol, location=frame.location)
                level.append(node)
            node.count += count
            level = node.children
    return roots


def microstackshot_line(node, depth):
    """`COUNT ??? (Image + offset) [0xADDR]`; images the list names only by UUID go by
    `<UUID>`, as in the corpus's cpu-usage report."""
    name = node.image.name if node.image.name != "???" else "<%s>" % node.image.uuid.upper()
    return "  " + "  " * depth + "%-2d ??? (%s + %d) [0x%x]" % (node.count, name, node.offset, node.address)


def scenario_microstackshot(cat, templates, F):
    """CrashApp killed for CPU use (bug_type 206, text body, like the corpus's MapMyRun
    report): samples in the watchdog's busy loop and in the Swift closure CrashKit calls
    back; CrashKit's image is listed by UUID only (`??? <UUID>`), CrashApp's without one
    (the `Powerstats for:` block's `UUID:` line names it)."""
    fx, kit_fx = cat["CrashApp"], cat["CrashKit"]
    b = reports.Builder(fx, templates, "ios15")
    app, kit = reports.ios_app_images(b, cat)
    kit.name = "???"
    d, k = fx.dis, kit_fx.dis
    ui = b.system(b.templates["uikitLaunch"])
    outer = [reports.Builder.app(app, d.return_address("_main", "_UIApplicationMain"))] + b.system(b.templates["dyldStart"])
    scene = [reports.Builder.app(app, d.return_address("-[CASceneDelegate scene:willConnectToSession:options:]", "_ca_wait_for_migration"))] + ui[8:] + outer
    swift = [
        reports.Builder.app(kit, k.return_address("_ck_dispatch_record", "*")),
        reports.Builder.app(kit, k.return_address("_CKDecodeRecords", "_ck_dispatch_record")),
        reports.Builder.app(app, d.return_address(F.SWIFT_LOAD, "_CKDecodeRecords")),
        reports.Builder.app(app, d.return_address("_app_launch_swift", F.SWIFT_LOAD)),
        reports.Builder.app(app, d.return_address("-[CAProfileViewController viewDidLoad]", "_app_launch_swift")),
    ] + ui + outer
    stacks = []
    for address, count in zip(pick(line_rows(fx, "_ca_wait_for_migration"), 2), [19, 7]):
        stacks.append(([reports.Builder.app(app, address)] + scene, count))
    for address, count in zip(pick(line_rows(fx, F.SWIFT_CLOSURE), 3), [11, 4, 2]):
        stacks.append(([reports.Builder.app(app, address)] + swift, count))
    roots = merge(stacks)
    total = sum(c for _, c in stacks)
    heaviest = []
    level = roots
    while level:
        node = max(level, key=lambda n: n.count)
        heaviest.append(node)
        level = node.children
    uuid = fx.uuid.upper()
    header = {"app_name": "CrashApp", "timestamp": "2022-08-04 01:20:12.00 +0200", "app_version": "1.0",
              "slice_uuid": uuid.lower(), "adam_id": 0, "build_version": "1", "bundleID": "com.example.CrashApp",
              "share_with_app_devs": False, "is_first_party": False, "bug_type": "206",
              "os_version": "iPhone OS 15.5 (19F77)", "incident_id": reports.stable_uuid("incident/cpu-usage"),
              "name": "CrashApp"}
    lines = [json.dumps(header, separators=(",", ":"))]
    fields = [("Date/Time", "2022-08-04 01:19:14.551062 +0200"), ("OS Version", "iPhone OS 15.5 (Build 19F77)"),
              ("Architecture", "arm64e"), ("Report Version", "35"), None, None,
              ("Command", "CrashApp"), ("Path", reports.IOS_APP_DIR + "/CrashApp"), ("Version", "1.0 (1)"),
              ("PID", "4022"), None, None, ("Event", "cpu usage"), ("Action taken", "Process killed"),
              ("CPU", "48 seconds cpu time over 53 seconds (91% cpu average), exceeding limit of 80% cpu over 60 seconds"),
              ("CPU limit", "48s"), ("Limit duration", "60s"), ("CPU used", "48s"), ("Duration", "53.20s"),
              ("Steps", str(total)), None, None, ("Hardware model", "iPhone14,2"), ("Active cpus", "6"), None, None,
              "Heaviest stack for the target process:"]
    for f in fields:
        lines.append("" if f is None else f if isinstance(f, str) else "%-17s%s" % (f[0] + ":", f[1]))
    # The heaviest stack is printed flat, every node at the roots' indentation.
    lines += [microstackshot_line(node, 0) for node in heaviest]
    lines += ["", "", "Powerstats for:  CrashApp [4022]", "UUID:            " + uuid,
              "Start time:      2022-08-04 01:19:15 +0200", "End time:        2022-08-04 01:20:08 +0200",
              "Microstackshots: %d samples (100%%)" % total,
              "Primary state:   %d samples Frontmost App, User mode, Effective Thread QoS User Interactive" % total,
              "User Activity:   %d samples Idle, 0 samples Active" % total,
              "Power Source:    %d samples on Battery, 0 samples on AC" % total]

    def emit(node, depth):
        lines.append(microstackshot_line(node, depth))
        for child in node.children:
            emit(child, depth + 1)
    for root in roots:
        emit(root, 0)
    lines += ["", "  Binary Images:"]
    for image in sorted(b.images, key=lambda i: i.base):
        if image is app:
            desc, end = "com.example.CrashApp 1.0 (1)  " + image.path, "???"
        elif image is kit:
            desc, end = "??? <%s>" % image.uuid.upper(), "???"
        else:
            desc, end = "%s <%s> %s" % (image.name, image.uuid.upper(), image.path), "0x%x" % image.end
        lines.append("  %18s - %18s  %s" % ("0x%x" % image.base, end, desc))
    return {"file": "crashapp-cpu-usage.ips", "producer": "microstackshot cpu usage report (bug_type 206)",
            "text": "\n".join(lines) + "\n", "threads": roots}


# --------------------------------------------------------------------------
# MetricKit
# --------------------------------------------------------------------------

def mx_frame(frame, children, count=1, ios14=False):
    """One `callStackRootFrames`/`subFrames` entry in the key order of the real payloads."""
    image = frame.image
    entry = {"binaryUUID": image.uuid.upper(),
             "offsetIntoBinaryTextSegment": image.base if ios14 else frame.offset,
             "sampleCount": count}
    if children:
        entry["subFrames"] = children
    entry["binaryName"] = image.name
    entry["address"] = frame.address
    return entry


def mx_stack(frames, ios14=False, count=1):
    """A linear stack, top frame first, as MetricKit nests it: the root is where the
    thread was, each frame's only sub-frame its caller (all seen in `count` samples)."""
    entry = None
    for frame in reversed(frames):
        entry = mx_frame(frame, [entry] if entry else [], count=count, ios14=ios14)
    return entry


def mx_diagnostic(stacks, meta):
    return {"version": "1.0.0",
            "callStackTree": {"callStacks": stacks, "callStackPerThread": len(stacks) > 1 or stacks[0].get("threadAttributed", False)},
            "diagnosticMetaData": meta}


def mx_meta(platform, extra):
    meta = {"appBuildVersion": "7", "appVersion": "2.4", "regionFormat": "DE",
            "osVersion": platform[0], "deviceType": platform[1], "platformArchitecture": "arm64e",
            "bundleIdentifier": "com.example.CrashApp"}
    meta.update(extra)
    return meta


def crashed(scenario):
    return next(t for t in scenario["threads"] if t.crashed)


def scenario_metrickit(cat, templates, F):
    """iOS 17 payload: two crashes (Swift trap across CrashKit; C null dereference), the
    watchdog's main thread as a hang and as a slow launch, the busy C loop as a CPU
    exception whose tree branches (several sampled tops), and the Objective-C store as a
    disk-write exception."""
    platform = ("iPhone OS 17.5.1 (21F90)", "iPhone15,2")
    trap = reports.scenario_swift_trap(cat, templates, F)
    null = reports.scenario_null_deref(cat, templates, F)
    watchdog = reports.scenario_watchdog(cat, templates, F)
    objc = reports.scenario_objc_exception(cat, templates, F)

    crash1 = mx_diagnostic([{"threadAttributed": True, "callStackRootFrames": [mx_stack(crashed(trap).frames)]}],
                           mx_meta(platform, {"exceptionType": 6, "exceptionCode": 1, "signal": 5,
                                              "terminationReason": "Namespace SIGNAL, Code 5 Trace/BPT trap: 5"}))
    null_threads = [{"threadAttributed": t.crashed, "callStackRootFrames": [mx_stack(t.frames)]} for t in null["threads"][:2]]
    crash2 = mx_diagnostic(null_threads, mx_meta(platform, {
        "exceptionType": 1, "exceptionCode": 0, "signal": 11, "terminationReason": "Namespace SIGNAL, Code 11 Segmentation fault: 11",
        "virtualMemoryRegionInfo": "0x8 is not in any region.  Bytes before following region: 4294967288"}))
    hang = mx_diagnostic([{"threadAttributed": True, "callStackRootFrames": [mx_stack(crashed(watchdog).frames)]}],
                         mx_meta(platform, {"hangDuration": "8.2 sec"}))

    # CPU exception: the sampled tops are rows of ca_record_checksum (C with inlined
    # helpers), all called from Engine's importAll: one root per top, same callers.
    app = null["builder"].by_name["CrashApp"]
    fx = cat["CrashApp"]
    # Callers: the app frames up to the view controller, then main and dyld's start (the
    # UIKit launch frames between them are left out to keep the file small).
    callers = crashed(null).frames[1:5] + crashed(null).frames[-2:]
    rows = pick(line_rows(fx, "_ca_record_checksum"), 3)
    roots = []
    for address, count in zip(rows, [41, 17, 9]):
        top = reports.Builder.app(app, address)
        roots.append(mx_stack([top] + callers, count=count))
    cpu = mx_diagnostic([{"callStackRootFrames": roots}],
                        mx_meta(platform, {"totalCPUTime": "92 sec", "totalSampledTime": "180 sec"}))
    # Disk writes: the last exception backtrace of the Objective-C scenario (ProfileStore).
    leb = objc["leb"]
    disk = mx_diagnostic([{"callStackRootFrames": [mx_stack(leb)]}],
                         mx_meta(platform, {"writesCaused": "1,073.74 MB"}))
    # Slow launch: the scene delegate waiting for the migration, caught during launch.
    launch = mx_diagnostic([{"threadAttributed": True, "callStackRootFrames": [mx_stack(crashed(watchdog).frames)]}],
                           mx_meta(platform, {"launchDuration": "6.1 sec"}))
    payload = {"timeStampEnd": "2024-06-18 23:59:00 +0000", "timeStampBegin": "2024-06-18 00:00:00 +0000",
               "crashDiagnostics": [crash1, crash2], "hangDiagnostics": [hang],
               "cpuExceptionDiagnostics": [cpu], "diskWriteExceptionDiagnostics": [disk],
               "appLaunchDiagnostics": [launch]}
    return {"file": "crashapp-metrickit.json", "producer": "MXDiagnosticPayload.jsonRepresentation() (iOS 17)",
            "payload": payload, "ios14": False}


def scenario_metrickit_ios14(cat, templates, F):
    """iOS 14 payload: the DWARF 4 index-out-of-range trap, load address written into
    offsetIntoBinaryTextSegment (the iOS 14 quirk)."""
    platform = ("iPhone OS 14.8 (18H17)", "iPhone12,1")
    index = reports.scenario_swift_index_dwarf4(cat, templates, F)
    crash = mx_diagnostic([{"threadAttributed": True, "callStackRootFrames": [mx_stack(crashed(index).frames, ios14=True)]}],
                          mx_meta(platform, {"exceptionType": 6, "exceptionCode": 1, "signal": 5,
                                             "terminationReason": "Namespace SIGNAL, Code 0x5"}))
    payload = {"timeStampEnd": "2021-09-30 03:59:00 +0000", "timeStampBegin": "2021-09-29 04:00:00 +0000",
               "crashDiagnostics": [crash]}
    return {"file": "crashapp-metrickit-ios14.json", "producer": "MXDiagnosticPayload.jsonRepresentation() (iOS 14)",
            "payload": payload, "ios14": True}


def mx_app_frames(payload, fixtures_by_uuid, ios14):
    """(address, image name, fixture, image offset, isTop) of every app frame of every
    diagnostic; the root frames are where the thread was, every sub-frame a return address."""
    out = []

    def visit(entry, top):
        fx = fixtures_by_uuid.get(entry["binaryUUID"].upper())
        if fx is not None:
            field = entry["offsetIntoBinaryTextSegment"]
            offset = entry["address"] - field if ios14 else field
            out.append((entry["address"], entry["binaryName"], fx, offset, top))
        for child in entry.get("subFrames", []):
            visit(child, False)
    for key in ("crashDiagnostics", "hangDiagnostics", "cpuExceptionDiagnostics", "diskWriteExceptionDiagnostics",
                "appLaunchDiagnostics"):
        for diagnostic in payload.get(key, []):
            for stack in diagnostic["callStackTree"]["callStacks"]:
                for root in stack["callStackRootFrames"]:
                    visit(root, True)
    return out


# --------------------------------------------------------------------------
# Xcode Organizer export
# --------------------------------------------------------------------------

def write_xccrashpoint(root, out):
    """`CrashApp.xccrashpoint`: the Swift-trap incident under Filter_1 (iOS 15.5) and the
    null-dereference one under Filter_2, as Xcode's Organizer lays out an export
    (`Filters/Filter_N/DistributionInfos/all/Logs/*.crash` + `PointInfo.json`)."""
    bundle = os.path.join(out, "CrashApp.xccrashpoint")
    if os.path.exists(bundle):
        shutil.rmtree(bundle)
    logs = [("Filter_1", "swift-trap.crash", "2022-08-04_01-11-01.0000_+0200-8d3f1a.crash"),
            ("Filter_2", "null-deref.crash", "2022-08-04_01-11-01.0000_+0200-2b7c90.crash")]
    for filter_name, source, name in logs:
        folder = os.path.join(bundle, "Filters", filter_name, "DistributionInfos", "all", "Logs")
        os.makedirs(folder)
        shutil.copyfile(os.path.join(root, "reports", source), os.path.join(folder, name))
    info = {"appName": "CrashApp", "bundleIdentifier": "com.example.CrashApp", "version": "1.0 (1)",
            "crashPoint": "closure #1 in ProfileLoader.load(from:length:)", "platform": "iOS",
            "filters": [{"name": "Filter_1", "osVersion": "iOS 15.5"}, {"name": "Filter_2", "osVersion": "iOS 15.5"}]}
    with open(os.path.join(bundle, "PointInfo.json"), "w") as f:
        json.dump(info, f, indent=2, sort_keys=True)
        f.write("\n")


# --------------------------------------------------------------------------
# Manifest and output
# --------------------------------------------------------------------------

def write_all(root, F):
    with open(os.path.join(root, "tools", "system_templates.json")) as f:
        templates = json.load(f)
    cat = F.catalogue(root)
    out = os.path.join(root, "logs")
    os.makedirs(out, exist_ok=True)
    manifest = []

    def record(name, producer, frames):
        """frames: (address, image name, fixture, image offset, isDeepest) for every app
        frame; the oracle's answers are added."""
        entries = []
        by_fixture = {}
        for address, image_name, fx, offset, deepest in frames:
            lookup = fx.text_address + offset - (0 if deepest else 1)
            by_fixture.setdefault(id(fx), (fx, []))[1].append((address, image_name, deepest, lookup))
        for fx, items in by_fixture.values():
            unique = list(dict.fromkeys(items))
            answers = F.symbolize(fx.dwarf, fx.arch, [l for _, _, _, l in unique])
            for (address, image_name, deepest, lookup), expected in zip(unique, answers):
                entries.append({"address": "0x%x" % address, "image": image_name, "uuid": fx.uuid.upper(),
                                "dsym": fx.dsym, "arch": fx.arch, "deepest": deepest,
                                "lookupFileAddress": "0x%x" % lookup, "expected": expected})
        entries.sort(key=lambda e: (e["image"], int(e["address"], 16), e["deepest"]))
        manifest.append({"file": "logs/" + name, "producer": producer, "appFrames": entries})

    for scenario in (scenario_sample(cat, templates), scenario_spindump(cat), scenario_microstackshot(cat, templates, F)):
        with open(os.path.join(out, scenario["file"]), "w") as f:
            f.write(scenario["text"])
        frames = [(n.address, n.image.name, n.image.fixture, n.offset, not n.children)
                  for n in walk(scenario["threads"]) if n.image.fixture is not None]
        record(scenario["file"], scenario["producer"], frames)

    for scenario in (scenario_metrickit(cat, templates, F), scenario_metrickit_ios14(cat, templates, F)):
        payload = scenario["payload"]
        with open(os.path.join(out, scenario["file"]), "w") as f:
            # Apple's spacing (`"key" : value`, two-space indent), as in the corpus payloads.
            f.write(json.dumps(payload, indent=2, separators=(",", " : ")) + "\n")
        fixtures = {fx.uuid.upper(): fx for key, fx in cat.items() if not key.startswith("MacApp")}
        record(scenario["file"], scenario["producer"], mx_app_frames(payload, fixtures, scenario["ios14"]))

    write_xccrashpoint(root, out)
    F.write_json(os.path.join(out, "manifest.json"), manifest)
