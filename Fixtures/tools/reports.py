"""Crash report writer for the fixtures (imported by fixtures.py).

One model per report, rendered twice: Apple's legacy text layout and the `.ips`
layout (one-line JSON metadata + JSON body). Shapes follow real reports in
../shared/corpus/reports (macsym__exc-breakpoint_* for iOS 15 text/ips,
driverpay__nsexception-leb_* for iOS 26 ips with lastExceptionBacktrace,
macsym__multi-target-sigill_* and mdi__sim-exc-crash-sigsegv_* for macOS 12).
System images and system frames are copied from those reports
(tools/system_templates.json); the few frames marked `synthesized` below are
not in the corpus and use invented offsets inside the real image ranges.
"""
import hashlib
import json
import os

MATCH_NONE_UUID = "a1b2c3d4-e5f6-3a7b-8c9d-0e1f2a3b4c5d"


class Image:
    def __init__(self, name, arch, base, size, uuid, path, fixture=None, version=None):
        self.name = name
        self.arch = arch
        self.base = base
        self.size = size
        self.uuid = uuid.lower()
        self.path = path
        self.fixture = fixture  # Fixture for app-owned images
        self.version = version

    @property
    def end(self):
        return self.base + self.size - 1


class Frame:
    def __init__(self, image, offset, symbol=None, location=None, crashing=False):
        self.image = image
        self.offset = offset
        self.symbol = symbol
        self.location = location
        self.crashing = crashing

    @property
    def address(self):
        return self.image.base + self.offset


class Thread:
    def __init__(self, frames, queue=None, name=None, crashed=False, state=None):
        self.frames = frames
        self.queue = queue
        self.name = name
        self.crashed = crashed
        self.state = state


def stable_uuid(text, upper=True):
    digest = hashlib.sha256(text.encode()).hexdigest()
    value = "%s-%s-4%s-a%s-%s" % (digest[0:8], digest[8:12], digest[13:16], digest[17:20], digest[20:32])
    return value.upper() if upper else value


# --------------------------------------------------------------------------
# Building blocks
# --------------------------------------------------------------------------

class Builder:
    def __init__(self, fx, templates, platform):
        self.fx = fx
        self.platform = platform
        self.templates = templates[platform]
        self.images = []
        self.by_name = {}

    def system_image(self, name):
        if name not in self.by_name:
            t = self.templates["images"][name]
            image = Image(t["name"], t["arch"], t["base"], t["size"], t["uuid"], t["path"])
            self.images.append(image)
            self.by_name[name] = image
        return self.by_name[name]

    def app_image(self, name, fixture, base, path, uuid=None):
        image = Image(name, fixture.arch, base, fixture.text_size, uuid or fixture.uuid, path, fixture=fixture)
        self.images.append(image)
        self.by_name[name] = image
        return image

    def system(self, entries):
        return [Frame(self.system_image(e["image"]), e["imageOffset"], e["symbol"], e["symbolLocation"])
                for e in entries]

    def synthesized(self, image, offset, symbol, location):
        return Frame(self.system_image(image), offset, symbol, location)

    @staticmethod
    def app(image, file_address, crashing=False):
        return Frame(image, file_address - image.fixture.text_address, crashing=crashing)

    def other_threads(self):
        return [Thread(self.system(t["frames"]), queue=t.get("queue"), name=t.get("name"))
                for t in self.templates["otherThreads"]]


def arm_state(pc, lr, fp, sp, far, esr, esr_description, x):
    regs = list(x) + [0] * (29 - len(x))
    return {"flavor": "ARM_THREAD_STATE64", "x": regs[:29], "fp": fp, "lr": lr, "sp": sp, "pc": pc,
            "cpsr": 0x60001000, "far": far, "esr": esr, "esrDescription": esr_description}


def x86_state(rip, rsp, rbp, cr2, rdi, err, trap):
    return {"flavor": "x86_THREAD_STATE", "rax": 0, "rbx": 0x600003b04000, "rcx": 0x8, "rdx": 0,
            "rdi": rdi, "rsi": 0x70000b4ffd90, "rbp": rbp, "rsp": rsp, "r8": 0, "r9": 0,
            "r10": 0x7ff80d29c000, "r11": 0x246, "r12": 0, "r13": 0, "r14": 0x100008010, "r15": 0,
            "rip": rip, "rflags": 0x10246, "cr2": cr2, "cpu": 2, "err": err, "trap": trap}


IOS_APP_DIR = "/private/var/containers/Bundle/Application/5D0F6A4E-2B8C-4A3B-9C61-7E2F0D1B8A44/CrashApp.app"


# --------------------------------------------------------------------------
# Scenarios
# --------------------------------------------------------------------------

def ios_app_images(b, cat, app_uuid=None, app_base=0x1002c4000, kit_base=0x100478000, app_key="CrashApp"):
    app = b.app_image(app_key, cat[app_key], app_base, IOS_APP_DIR + "/" + app_key, uuid=app_uuid)
    kit = b.app_image("CrashKit", cat["CrashKit"], kit_base, IOS_APP_DIR + "/Frameworks/CrashKit.framework/CrashKit")
    return app, kit


def scenario_swift_trap(cat, templates, F):
    fx = cat["CrashApp"]
    b = Builder(fx, templates, "ios15")
    app, kit = ios_app_images(b, cat)
    d, k = fx.dis, cat["CrashKit"].dis
    trap = F.swift_force_unwrap_trap(fx)
    frames = [
        b.app(app, trap, crashing=True),
        b.app(kit, k.return_address("_ck_dispatch_record", "*")),
        b.app(kit, k.return_address("_CKDecodeRecords", "_ck_dispatch_record")),
        b.app(app, d.return_address(F.SWIFT_LOAD, "_CKDecodeRecords")),
        b.app(app, d.return_address("_app_launch_swift", F.SWIFT_LOAD)),
        b.app(app, d.return_address("-[CAProfileViewController viewDidLoad]", "_app_launch_swift")),
    ] + b.system(b.templates["uikitLaunch"]) + [
        b.app(app, d.return_address("_main", "_UIApplicationMain")),
    ] + b.system(b.templates["dyldStart"])
    state = arm_state(pc=frames[0].address, lr=frames[1].address, fp=0x16f2d9a30, sp=0x16f2d99f0,
                      far=0x1f0d24a10, esr=0xF2000001, esr_description="(Breakpoint) brk 1",
                      x=[0, 1, 0x16f2d9a48, 0, 0x100478000, 0x6b, 0x0d, 0x1b, 1, 0x1002d01c8])
    threads = [Thread(frames, queue="com.apple.main-thread", crashed=True, state=state)] + b.other_threads()
    return {
        "name": "swift-trap", "builder": b,
        "summary": "Swift force unwrap of nil inside an inlined Fuga.init(json:), called back from CrashKit",
        "exception": {"type": "EXC_BREAKPOINT", "signal": "SIGTRAP",
                      "codes": [1, frames[0].address]},
        "termination": {"flags": 0, "code": 5, "namespace": "SIGNAL", "indicator": "Trace/BPT trap: 5",
                        "byProc": "exc handler"},
        "threads": threads, "pid": 2417,
    }


def scenario_swift_index_dwarf4(cat, templates, F):
    fx = cat["CrashApp-dwarf4"]
    b = Builder(fx, templates, "ios15")
    app, kit = ios_app_images(b, cat, app_base=0x102d58000, kit_base=0x102f00000, app_key="CrashApp-dwarf4")
    d = fx.dis
    frames = [
        b.app(app, F.swift_index_trap(fx), crashing=True),
        b.app(app, d.return_address(F.SWIFT_SELECT, F.SWIFT_BUCKET)),
        b.app(app, d.return_address("_app_index_swift", F.SWIFT_SELECT)),
        b.app(app, d.return_address("_app_run_scenario", "_app_index_swift")),
        b.app(app, d.return_address("_main", "_app_run_scenario")),
    ] + b.system(b.templates["dyldStart"])
    state = arm_state(pc=frames[0].address, lr=frames[1].address, fp=0x16d0e3b60, sp=0x16d0e3b50,
                      far=0x102d6c5a0, esr=0xF2000001, esr_description="(Breakpoint) brk 1",
                      x=[10, 0x281a3d0e0, 0, 0, 0, 0, 0, 0, 5])
    threads = [Thread(frames, queue="com.apple.main-thread", crashed=True, state=state)] + b.other_threads()
    return {
        "name": "swift-index-dwarf4", "builder": b,
        "summary": "Swift index out of range in specialized generic Bucket.element(at:); DWARF 4 build "
                   "(image and dSYM named CrashApp-dwarf4)",
        "exception": {"type": "EXC_BREAKPOINT", "signal": "SIGTRAP", "codes": [1, frames[0].address]},
        "termination": {"flags": 0, "code": 5, "namespace": "SIGNAL", "indicator": "Trace/BPT trap: 5",
                        "byProc": "exc handler"},
        "threads": threads, "pid": 6120,
    }


def null_deref(cat, templates, F, name, app_uuid, summary):
    fx = cat["CrashApp"]
    b = Builder(fx, templates, "ios15")
    app, kit = ios_app_images(b, cat, app_uuid=app_uuid, app_base=0x100a3c000, kit_base=0x100b80000)
    d = fx.dis
    fault = F.first_load(fx, "_ca_record_checksum")
    frames = [
        b.app(app, fault, crashing=True),
        b.app(app, d.return_address(F.CXX_IMPORT_ALL, "_ca_record_checksum")),
        b.app(app, d.return_address("_ca_engine_import", F.CXX_IMPORT_ALL)),
        b.app(app, d.return_address("_ca_import_records", "_ca_engine_import")),
        b.app(app, d.return_address("-[CAImportViewController viewDidLoad]", "_ca_import_records")),
    ] + b.system(b.templates["uikitLaunch"]) + [
        b.app(app, d.return_address("_main", "_UIApplicationMain")),
    ] + b.system(b.templates["dyldStart"])
    far = 0x8  # record == NULL, field at offset 8
    state = arm_state(pc=frames[0].address, lr=frames[1].address, fp=0x16b0f9b10, sp=0x16b0f9ad0,
                      far=far, esr=0x92000006, esr_description="(Data Abort) byte read Translation fault",
                      x=[0, 0x100a44060, 2, 0x16b0f9b2c, 0, 0, 0, 0, 0x100a4c000, 1])
    threads = [Thread(frames, queue="com.apple.main-thread", crashed=True, state=state)] + b.other_threads()
    return {
        "name": name, "builder": b, "summary": summary,
        "exception": {"type": "EXC_BAD_ACCESS", "signal": "SIGSEGV", "codes": [1, far],
                      "subtype": "KERN_INVALID_ADDRESS at 0x%016x" % far},
        "vmRegion": far,
        "termination": {"flags": 0, "code": 11, "namespace": "SIGNAL", "indicator": "Segmentation fault: 11",
                        "byProc": "exc handler"},
        "threads": threads, "pid": 3152,
    }


def scenario_null_deref(cat, templates, F):
    return null_deref(cat, templates, F, "null-deref", None,
                      "C NULL dereference (record lookup failed) at 0x8, three-level inline chain, via C++")


def scenario_uuid_mismatch(cat, templates, F):
    return null_deref(cat, templates, F, "uuid-mismatch", MATCH_NONE_UUID,
                      "Same as null-deref but CrashApp's UUID matches no dSYM (CrashKit still matches)")


def scenario_objc_exception(cat, templates, F):
    fx = cat["CrashApp"]
    b = Builder(fx, templates, "ios26")
    app, kit = ios_app_images(b, cat, app_base=0x104f28000, kit_base=0x105070000)
    d = fx.dis
    raise_frame = b.system(b.templates["raiseFrame"])[0]
    # synthesized: +[NSException raise:format:] is not in the corpus report.
    raise_format = b.synthesized("CoreFoundation", raise_frame.offset + 0x1d4, "+[NSException raise:format:]", 116)
    app_frames = [
        b.app(app, d.return_address("-[CAProfileStore loadProfileNamed:]", "_objc_msgSend")),
        b.app(app, d.return_address("_ca_objc_load_profile", "_objc_msgSend")),
        b.app(app, d.return_address("_app_run_scenario", "_ca_objc_load_profile")),
        b.app(app, d.return_address("_main", "_app_run_scenario")),
    ]
    dyld = b.system(b.templates["dyldStart"])
    leb = b.system(b.templates["exceptionTop"][0:2]) + [raise_frame, raise_format] + app_frames + dyld
    frames = b.system(b.templates["abortTop"]) + [raise_frame, raise_format] + app_frames + dyld
    state = arm_state(pc=frames[0].address, lr=frames[1].address, fp=0x16d3b2f80, sp=0x16d3b2f60,
                      far=0, esr=0x56000080, esr_description="(Syscall)",
                      x=[0, 0, 0, 0, 0x18a5b9643, 0x16d3b2e10, 0x6e, 0x2e, 0, 0, 2, 0x10000000000, 0xfffffffd])
    threads = [Thread(frames, queue="com.apple.main-thread", crashed=True, state=state)] + b.other_threads()
    return {
        "name": "objc-exception", "builder": b,
        "summary": "Uncaught NSException raised by -[CAProfileStore loadProfileNamed:] (abort, Last Exception Backtrace)",
        "exception": {"type": "EXC_CRASH", "signal": "SIGABRT", "codes": [0, 0]},
        "termination": {"flags": 0, "code": 6, "namespace": "SIGNAL", "indicator": "Abort trap: 6",
                        "byProc": "CrashApp"},
        "asi": {"libsystem_c.dylib": ["abort() called"]},
        "leb": leb, "threads": threads, "pid": 5311,
    }


WATCHDOG_REASONS = [
    "<RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-create watchdog transgression: "
    "application<com.example.CrashApp>:4022 exhausted real (wall clock) time allowance of 19.97 seconds",
    "ProcessVisibility: Foreground",
    "ProcessState: Running",
    "WatchdogEvent: scene-create",
    "WatchdogVisibility: Foreground",
    "WatchdogCPUStatistics: (",
    "\"Elapsed total CPU time (seconds): 21.040 (user 21.040, system 0.000), 53% CPU\",",
    "\"Elapsed application CPU time (seconds): 19.902, 50% CPU\"",
    ") reportType:CrashLog maxTerminationResistance:Interactive>",
]


def scenario_watchdog(cat, templates, F):
    fx = cat["CrashApp"]
    b = Builder(fx, templates, "ios15")
    app, kit = ios_app_images(b, cat, app_base=0x1048c8000, kit_base=0x104a10000)
    d = fx.dis
    frames = [
        b.app(app, F.spin_loop(fx), crashing=True),
        b.app(app, d.return_address("-[CASceneDelegate scene:willConnectToSession:options:]", "_ca_wait_for_migration")),
    ] + b.system(b.templates["uikitLaunch"][8:]) + [
        b.app(app, d.return_address("_main", "_UIApplicationMain")),
    ] + b.system(b.templates["dyldStart"])
    state = arm_state(pc=frames[0].address, lr=frames[1].address, fp=0x16d2a5c40, sp=0x16d2a5c30,
                      far=0, esr=0, esr_description=" Address size fault",
                      x=[0x28b0e, 3, 0x281c3c000, 0, 0, 0, 0, 0, 3, 0x1048d4610, 0])
    threads = [Thread(frames, queue="com.apple.main-thread", crashed=True, state=state)] + b.other_threads()
    return {
        "name": "watchdog", "builder": b,
        "summary": "FRONTBOARD 0x8badf00d scene-create watchdog; main thread spinning in ca_wait_for_migration",
        "exception": {"type": "EXC_CRASH", "signal": "SIGKILL", "codes": [0, 0]},
        "termination": {"flags": 6, "code": 0x8BADF00D, "namespace": "FRONTBOARD", "reasons": WATCHDOG_REASONS},
        "threads": threads, "pid": 4022,
    }


def scenario_mac(cat, templates, F):
    fx = cat["MacApp-x86_64"]
    b = Builder(fx, templates, "macos12")
    app = b.app_image("MacApp", fx, 0x10c5f2000, "/Applications/MacApp.app/Contents/MacOS/MacApp")
    d = fx.dis
    fault = F.first_load(fx, "_mac_average")
    crashed = [
        b.app(app, fault, crashing=True),
        b.app(app, d.return_address("_mac_process_job", "_mac_average")),
        b.app(app, d.return_address("_mac_worker_main", "_mac_process_job")),
    ] + b.system(b.templates["pthreadStart"])
    main = [
        # synthesized: the corpus has no macOS 12 x86_64 pthread_join stack.
        b.synthesized("libsystem_kernel.dylib", 0x3c0a, "__ulock_wait", 10),
        b.synthesized("libsystem_pthread.dylib", 0x8d6a, "_pthread_join", 362),
        b.app(app, d.return_address("_mac_start_worker", "_pthread_join")),
        b.app(app, d.return_address("_main", "_mac_start_worker")),
        b.synthesized("dyld", 21790, "start", 462),
    ]
    state = x86_state(rip=crashed[0].address, rsp=0x70000b4ffe58, rbp=0x70000b4ffe70, cr2=0, rdi=0,
                      err=4, trap=14)
    threads = [Thread(main, queue="com.apple.main-thread"), Thread(crashed, crashed=True, state=state)] \
        + b.other_threads()
    return {
        "name": "macapp-x86_64", "builder": b,
        "summary": "macOS x86_64 slice of the universal MacApp: NULL dereference on a worker thread (thread 1)",
        "exception": {"type": "EXC_BAD_ACCESS", "signal": "SIGSEGV", "codes": [1, 0],
                      "subtype": "KERN_INVALID_ADDRESS at 0x0000000000000000"},
        "vmRegion": 0,
        "termination": {"flags": 0, "code": 11, "namespace": "SIGNAL", "indicator": "Segmentation fault: 11",
                        "byProc": "exc handler"},
        "threads": threads, "pid": 7788,
    }


SCENARIOS = [scenario_swift_trap, scenario_null_deref, scenario_objc_exception, scenario_watchdog,
             scenario_uuid_mismatch, scenario_mac, scenario_swift_index_dwarf4]


# --------------------------------------------------------------------------
# Platform metadata
# --------------------------------------------------------------------------

PLATFORMS = {
    "ios15": {"model": "iPhone14,2", "os": "iPhone OS 15.5 (19F77)", "train": "iPhone OS 15.5", "build": "19F77",
              "baseband": "1.61.00", "date": "2022-08-04 01:11:01", "platform": 2},
    "ios26": {"model": "iPhone18,4", "os": "iPhone OS 26.3 (23D127)", "train": "iPhone OS 26.3", "build": "23D127",
              "baseband": "1.20.01", "date": "2026-03-19 21:00:54", "platform": 2},
    "macos12": {"model": "MacBookPro16,1", "os": "macOS 12.4 (21F79)", "train": "macOS 12.4", "build": "21F79",
                "date": "2022-08-03 20:37:49", "platform": 1},
}


def identity(s):
    name = s["name"]
    return {
        "incident": stable_uuid("incident/" + name),
        "key": hashlib.sha1(("key/" + name).encode()).hexdigest(),
        "anonymous": stable_uuid("anon/" + name),
        "vendor": stable_uuid("vendor"),
    }


def app_image_of(s):
    return s["builder"].images[0]


def process_info(s):
    app = app_image_of(s)
    mac = s["builder"].platform == "macos12"
    return {
        "name": app.name,
        "path": app.path,
        "bundle": "com.example." + app.name,
        "cpu": "X86-64" if app.arch == "x86_64" else "ARM-64",
        "mac": mac,
    }


def all_images_in_use(s):
    """usedImages order: the order in which images were first referenced."""
    return s["builder"].images


# --------------------------------------------------------------------------
# Text rendering
# --------------------------------------------------------------------------

def frame_line(index, frame):
    if frame.symbol is not None:
        rest = "%s + %d" % (frame.symbol, frame.location)
    else:
        rest = "0x%x + %d" % (frame.image.base, frame.offset)
    return "%-4d%-30s\t%18s %s" % (index, frame.image.name, "0x%x" % frame.address, rest)


def codes_text(codes):
    return ", ".join("0x%016x" % c for c in codes)


def arm_state_text(thread_index, st):
    names = ["x%d" % i for i in range(29)]
    values = list(st["x"])
    rows = []
    cells = list(zip(names, values)) + [("fp", st["fp"]), ("lr", st["lr"])]
    for i in range(0, len(cells), 4):
        row = cells[i:i + 4]
        text = "%6s: 0x%016x" % row[0]
        for name, value in row[1:]:
            text += " %4s: 0x%016x" % (name, value)
        rows.append(text)
    rows.append("%6s: 0x%016x %4s: 0x%016x %4s: 0x%08x" % ("sp", st["sp"], "pc", st["pc"], "cpsr", st["cpsr"]))
    rows.append("%6s: 0x%016x %4s: 0x%08x %s" % ("far", st["far"], "esr", st["esr"], st["esrDescription"].strip()))
    return ["Thread %d crashed with ARM Thread State (64-bit):" % thread_index] + rows


def x86_state_text(thread_index, st):
    order = [["rax", "rbx", "rcx", "rdx"], ["rdi", "rsi", "rbp", "rsp"], ["r8", "r9", "r10", "r11"],
             ["r12", "r13", "r14", "r15"], ["rip", "rflags", "cr2"]]
    rows = []
    for names in order:
        labels = ["rfl" if n == "rflags" else n for n in names]
        text = "%5s: 0x%016x" % (labels[0], st[names[0]])
        for label, name in zip(labels[1:], names[1:]):
            text += " %4s: 0x%016x" % (label, st[name])
        rows.append(text)
    rows.append("  ")
    rows.append("Logical CPU:     %d" % st["cpu"])
    rows.append("Error Code:      0x%08x (no mapping for user data read)" % st["err"])
    rows.append("Trap Number:     %d" % st["trap"])
    return ["Thread %d crashed with X86 Thread State (64-bit):" % thread_index] + rows


def vm_region_text(s, mac):
    app = app_image_of(s)
    address = s["vmRegion"]
    before = app.base - address
    lines = ["VM Region Info: 0x%x is not in any region.  Bytes before following region: %d" % (address, before)
             if address else
             "VM Region Info: 0 is not in any region.  Bytes before following region: %d" % before,
             "      REGION TYPE                 START - END      [ VSIZE] PRT/MAX SHRMOD  REGION DETAIL",
             "      UNUSED SPACE AT START",
             "--->  ",
             "      __TEXT                   %x-%x [%5dK] r-x/r-x SM=COW  %s" % (
                 app.base, app.base + app.size, app.size // 1024, app.path)]
    return lines


def render_text(s):
    b = s["builder"]
    p = PLATFORMS[b.platform]
    ids = identity(s)
    proc = process_info(s)
    exc = s["exception"]
    term = s["termination"]
    crashed_index = next(i for i, t in enumerate(s["threads"]) if t.crashed)
    out = [""]
    if proc["mac"]:
        out += [
            "Process:               %s [%d]" % (proc["name"], s["pid"]),
            "Path:                  %s" % proc["path"],
            "Identifier:            %s" % proc["name"],
            "Version:               1.0 (1)",
            "Code Type:             %s (Native)" % proc["cpu"],
            "Parent Process:        zsh [7701]",
            "Responsible:           Terminal [702]",
            "User ID:               501",
            "",
            "Date/Time:             %s.4630 +0900" % p["date"],
            "OS Version:            %s" % p["os"],
            "Report Version:        12",
            "Anonymous UUID:        %s" % ids["anonymous"],
            "",
            "",
            "Time Awake Since Boot: 3900000 seconds",
            "",
            "System Integrity Protection: enabled",
            "",
        ]
        crashed = s["threads"][crashed_index]
        out.append("Crashed Thread:        %d%s" % (
            crashed_index, ("  Dispatch queue: " + crashed.queue) if crashed.queue else ""))
        out += [
            "",
            "Exception Type:        %s (%s)" % (exc["type"], exc["signal"]),
        ]
        if "subtype" in exc:
            out.append("Exception Codes:       %s" % exc["subtype"])
        out += [
            "Exception Codes:       %s" % codes_text(exc["codes"]),
            "Exception Note:        EXC_CORPSE_NOTIFY",
            "",
            "Termination Reason:    Namespace %s, Code %d %s" % (term["namespace"], term["code"], term["indicator"]),
            "Terminating Process:   %s [%d]" % (term["byProc"], s["pid"]),
            "",
        ]
        if "vmRegion" in s:
            out += vm_region_text(s, True) + [""]
    else:
        out += [
            "Incident Identifier: %s" % ids["incident"],
            "CrashReporter Key:   %s" % ids["key"],
            "Hardware Model:      %s" % p["model"],
            "Process:             %s [%d]" % (proc["name"], s["pid"]),
            "Path:                %s" % proc["path"],
            "Identifier:          %s" % proc["bundle"],
            "Version:             1.0 (1)",
            "Code Type:           %s (Native)" % proc["cpu"],
            "Role:                Foreground",
            "Parent Process:      launchd [1]",
            "Coalition:           %s [%d]" % (proc["bundle"], s["pid"] - 1200),
            "",
            "Date/Time:           %s.2455 +0900" % p["date"],
            "Launch Time:         %s.0147 +0900" % p["date"],
            "OS Version:          %s" % p["os"],
            "Release Type:        User",
            "Baseband Version:    %s" % p["baseband"],
            "Report Version:      104",
            "",
            "Exception Type:  %s (%s)" % (exc["type"], exc["signal"]),
        ]
        if "subtype" in exc:
            out.append("Exception Subtype: %s" % exc["subtype"])
        out.append("Exception Codes: %s" % codes_text(exc["codes"]))
        if "vmRegion" in s:
            out += vm_region_text(s, False)
        out.append("Exception Note:  EXC_CORPSE_NOTIFY")
        if term["namespace"] == "SIGNAL":
            out.append("Termination Reason: SIGNAL %d %s" % (term["code"], term["indicator"]))
            out.append("Terminating Process: %s [%d]" % (term["byProc"], s["pid"]))
        else:
            out.append("Termination Reason: %s %d " % (term["namespace"], term["code"]))
            out += term["reasons"]
        out += ["", "Triggered by Thread:  %d" % crashed_index, ""]
        if "asi" in s:
            out.append("Application Specific Information:")
            for lines in s["asi"].values():
                out += lines
            out += ["", ""]
        if "leb" in s:
            out.append("Last Exception Backtrace:")
            out += [frame_line(i, f) for i, f in enumerate(s["leb"])]
            out.append("")

    for i, thread in enumerate(s["threads"]):
        if proc["mac"]:
            label = "Thread %d%s:" % (i, " Crashed" if thread.crashed else "")
            if thread.queue:
                label += ":  Dispatch queue: " + thread.queue
            elif thread.name:
                label += ": " + thread.name
            out.append(label)
        else:
            if thread.queue:
                out.append("Thread %d name:   Dispatch queue: %s" % (i, thread.queue))
            elif thread.name:
                out.append("Thread %d name:  %s" % (i, thread.name))
            out.append("Thread %d%s:" % (i, " Crashed" if thread.crashed else ""))
        out += [frame_line(j, f) for j, f in enumerate(thread.frames)]
        out.append("")
    out.append("")
    crashed = s["threads"][crashed_index]
    if crashed.state["flavor"] == "x86_THREAD_STATE":
        out += x86_state_text(crashed_index, crashed.state)
    else:
        out += arm_state_text(crashed_index, crashed.state)
    out += ["", "Binary Images:"]
    for image in sorted(all_images_in_use(s), key=lambda im: im.base):
        if proc["mac"]:
            out.append("%18s - %18s %s (%s) <%s> %s" % (
                "0x%x" % image.base, "0x%x" % image.end, image.name,
                "1.0" if image.fixture else "*", image.uuid.replace("-", ""), image.path))
        else:
            out.append("%18s - %18s %s %s  <%s> %s" % (
                "0x%x" % image.base, "0x%x" % image.end, image.name, image.arch,
                image.uuid.replace("-", ""), image.path))
    out.append("")
    if proc["mac"]:
        out += [
            "External Modification Summary:",
            "  Calls made by other processes targeting this process:",
            "    task_for_pid: 0", "    thread_create: 0", "    thread_set_state: 0",
            "  Calls made by this process:",
            "    task_for_pid: 0", "    thread_create: 0", "    thread_set_state: 0",
            "  Calls made by all processes on this machine:",
            "    task_for_pid: 5", "    thread_create: 0", "    thread_set_state: 0",
            "",
        ]
    else:
        out += ["EOF", ""]
    return "\n".join(out)


# --------------------------------------------------------------------------
# .ips rendering
# --------------------------------------------------------------------------

COMPACT_KEYS = {"bundleInfo", "storeInfo", "exception", "termination", "asi", "lastExceptionBacktrace", "threads"}


def ips_frame(frame, images):
    out = {"imageOffset": frame.offset}
    if frame.symbol is not None:
        out["symbol"] = frame.symbol
        out["symbolLocation"] = frame.location
    out["imageIndex"] = images.index(frame.image)
    return out


def ips_state(st):
    if st["flavor"] == "x86_THREAD_STATE":
        out = {}
        for key in ("r13", "rax", "rflags", "cpu", "r14", "rsi", "r8", "cr2", "rdx", "r10", "r9", "r15", "rbx",
                    "trap", "err", "r11", "rip", "rbp", "rsp", "r12", "rcx", "flavor", "rdi"):
            if key == "flavor":
                out[key] = st[key]
            elif key == "rip":
                out[key] = {"value": st[key], "matchesCrashFrame": 1}
            else:
                out[key] = {"value": st[key]}
        return out
    return {
        "x": [{"value": v} for v in st["x"]],
        "flavor": "ARM_THREAD_STATE64",
        "lr": {"value": st["lr"]},
        "cpsr": {"value": st["cpsr"]},
        "fp": {"value": st["fp"]},
        "sp": {"value": st["sp"]},
        "esr": {"value": st["esr"], "description": st["esrDescription"]},
        "pc": {"value": st["pc"], "matchesCrashFrame": 1},
        "far": {"value": st["far"]},
    }


def render_ips(s):
    b = s["builder"]
    p = PLATFORMS[b.platform]
    ids = identity(s)
    proc = process_info(s)
    app = app_image_of(s)
    images = all_images_in_use(s)
    exc = s["exception"]
    crashed_index = next(i for i, t in enumerate(s["threads"]) if t.crashed)
    header = {
        "app_name": proc["name"], "timestamp": p["date"] + ".00 +0900", "app_version": "1.0",
        "slice_uuid": app.uuid, "build_version": "1", "platform": p["platform"],
        "bundleID": proc["bundle"], "share_with_app_devs": 1, "is_first_party": 0, "bug_type": "309",
        "os_version": p["os"], "incident_id": ids["incident"], "name": proc["name"],
    }
    body = {
        "uptime": 25000, "procLaunch": p["date"] + ".0147 +0900", "procRole": "Foreground", "version": 2,
        "userID": 501, "deployVersion": 210, "modelCode": p["model"], "procStartAbsTime": 609195457854,
        "coalitionID": s["pid"] - 1200,
        "osVersion": {"isEmbedded": not proc["mac"], "train": p["train"], "releaseType": "User", "build": p["build"]},
        "captureTime": p["date"] + ".2455 +0900", "incident": ids["incident"], "bug_type": "309",
        "pid": s["pid"], "procExitAbsTime": 609200992539, "cpuType": proc["cpu"], "procName": proc["name"],
        "procPath": proc["path"],
        "bundleInfo": {"CFBundleShortVersionString": "1.0", "CFBundleVersion": "1",
                       "CFBundleIdentifier": proc["bundle"]},
        "storeInfo": {"deviceIdentifierForVendor": ids["vendor"], "thirdParty": True},
        "parentProc": "zsh" if proc["mac"] else "launchd", "parentPid": 7701 if proc["mac"] else 1,
        "coalitionName": proc["bundle"], "crashReporterKey": ids["key"],
    }
    if not proc["mac"]:
        body["basebandVersion"] = p["baseband"]
    body["isCorpse"] = 1
    exception = {"codes": codes_text(exc["codes"]), "rawCodes": exc["codes"], "type": exc["type"],
                 "signal": exc["signal"]}
    if "subtype" in exc:
        exception["subtype"] = exc["subtype"]
    body["exception"] = exception
    term = dict(s["termination"])
    if "byProc" in term:
        term["byPid"] = s["pid"]
    body["termination"] = term
    if "vmRegion" in s:
        body["vmRegionInfo"] = "\n".join(vm_region_text(s, proc["mac"]))[len("VM Region Info: "):]
    if "asi" in s:
        body["asi"] = s["asi"]
    if "leb" in s:
        body["lastExceptionBacktrace"] = [ips_frame(f, images) for f in s["leb"]]
    body["faultingThread"] = crashed_index
    threads = []
    for i, thread in enumerate(s["threads"]):
        t = {}
        if thread.crashed:
            t["triggered"] = True
        t["id"] = 207700 + 11 * i
        if thread.crashed:
            t["threadState"] = ips_state(thread.state)
        if thread.name:
            t["name"] = thread.name
        if thread.queue:
            t["queue"] = thread.queue
        t["frames"] = [ips_frame(f, images) for f in thread.frames]
        threads.append(t)
    body["threads"] = threads
    body["usedImages"] = [{"source": "P", "arch": im.arch, "base": im.base, "size": im.size, "uuid": im.uuid,
                           "path": im.path, "name": im.name} for im in images]
    crashed = s["threads"][crashed_index]
    legacy = {"threadTriggered": {"queue": crashed.queue} if crashed.queue else {}}
    body["legacyInfo"] = legacy
    lines = []
    for key, value in body.items():
        if key in COMPACT_KEYS:
            rendered = json.dumps(value, separators=(",", ":"))
        else:
            rendered = json.dumps(value, indent=2, separators=(",", " : "))
        lines.append('  "%s" : %s' % (key, rendered))
    text = "{\n" + ",\n".join(lines) + "\n}"
    text = text.replace("/", "\\/")
    return json.dumps(header, separators=(",", ":")) + "\n" + text


# --------------------------------------------------------------------------
# Manifest (ground truth for golden tests)
# --------------------------------------------------------------------------

def expected_frames(F, s, frames):
    """For each app frame: lookup file address (return address - 1 unless it is
    the crashing frame) and the oracle's answer, or None when no dSYM matches."""
    out = []
    pending = {}
    for index, frame in enumerate(frames):
        if frame.image.fixture is None:
            continue
        fx = frame.image.fixture
        lookup = fx.text_address + frame.offset - (0 if frame.crashing else 1)
        matches = frame.image.uuid == fx.uuid
        entry = {
            "frameIndex": index, "image": frame.image.name, "address": "0x%x" % frame.address,
            "imageOffset": frame.offset, "crashingFrame": frame.crashing,
            "lookupFileAddress": "0x%x" % lookup,
            "dsym": fx.dsym if matches else None,
        }
        symbol = F.symbol_for(fx.symbols(), lookup)
        if symbol and matches:
            entry["symbolTable"] = {"symbol": symbol[1], "offset": lookup + (0 if frame.crashing else 1) - symbol[0]}
        out.append(entry)
        if matches:
            pending.setdefault(fx, []).append((entry, lookup))
        else:
            entry["expected"] = None
    for fx, items in pending.items():
        answers = F.symbolize(fx.dwarf, fx.arch, [lookup for _, lookup in items])
        for (entry, _), frames_ in zip(items, answers):
            entry["expected"] = frames_
    return out


def manifest_entries(F, s, text_name, ips_name):
    images = all_images_in_use(s)
    crashed_index = next(i for i, t in enumerate(s["threads"]) if t.crashed)
    crashed = s["threads"][crashed_index]
    app_images = []
    for im in images:
        if im.fixture is None:
            continue
        app_images.append({
            "name": im.name, "uuid": im.uuid.upper(), "arch": im.arch, "loadAddress": "0x%x" % im.base,
            "textSize": im.size, "textFileAddress": "0x%x" % im.fixture.text_address,
            "slide": "0x%x" % (im.base - im.fixture.text_address),
            "binary": im.fixture.binary if im.uuid == im.fixture.uuid else None,
            "dsym": im.fixture.dsym if im.uuid == im.fixture.uuid else None,
        })
    common = {
        "scenario": s["name"], "summary": s["summary"],
        "exceptionType": s["exception"]["type"], "signal": s["exception"]["signal"],
        "crashedThread": crashed_index, "threadCount": len(s["threads"]),
        "binaryImageCount": len(images), "appImages": app_images,
        "crashedThreadFrameCount": len(crashed.frames),
        "crashedThreadAppFrames": expected_frames(F, s, crashed.frames),
    }
    if "termination" in s and s["termination"]["namespace"] != "SIGNAL":
        common["terminationNamespace"] = s["termination"]["namespace"]
        common["terminationCode"] = "0x%x" % s["termination"]["code"]
    if "leb" in s:
        common["lastExceptionBacktraceAppFrames"] = expected_frames(F, s, s["leb"])
    return [dict({"file": "reports/" + text_name, "format": "text"}, **common),
            dict({"file": "reports/" + ips_name, "format": "ips"}, **common)]


def write_all(root, F):
    with open(os.path.join(root, "tools", "system_templates.json")) as f:
        templates = json.load(f)
    cat = F.catalogue(root)
    out_dir = os.path.join(root, "reports")
    os.makedirs(out_dir, exist_ok=True)
    for name in os.listdir(out_dir):
        os.remove(os.path.join(out_dir, name))
    manifest = []
    for make in SCENARIOS:
        s = make(cat, templates, F)
        text_name, ips_name = s["name"] + ".crash", s["name"] + ".ips"
        with open(os.path.join(out_dir, text_name), "w") as f:
            f.write(render_text(s))
        with open(os.path.join(out_dir, ips_name), "w") as f:
            f.write(render_ips(s))
        manifest += manifest_entries(F, s, text_name, ips_name)
    F.write_json(os.path.join(out_dir, "manifest.json"), manifest)
