#!/usr/bin/env python3
"""Writes the issue 41 fixtures of this folder (see Fixtures/README.md, "Issue 41 shapes").

Made here, not copied: each has the shape of the public reports named in the README (frame
names as rustc and xnu spell them, Apple's .ips and text layouts), with invented addresses,
UUIDs and app names. Run from this folder: python3 make.py
"""
import json

HEADER_IOS = {"app_name": "TileKit", "timestamp": "2026-11-20 10:00:00.00 +0000", "app_version": "2.1", "slice_uuid": "9a1b2c3d-4e5f-3061-8293-a4b5c6d7e8f9",
              "build_version": "41", "platform": 1, "bundleID": "com.example.TileKit", "share_with_app_devs": 0, "is_first_party": 0, "bug_type": "309",
              "os_version": "macOS 15.1 (24B83)", "incident_id": "6E2F4A10-1C3B-4D5E-8F70-91A2B3C4D5E6", "name": "TileKit"}

APP = "/Applications/TileKit.app/Contents/MacOS/TileKit"
IMAGES = [
    {"source": "P", "arch": "arm64", "base": 4294967296, "size": 4194304, "uuid": "9a1b2c3d-4e5f-3061-8293-a4b5c6d7e8f9", "path": APP, "name": "TileKit"},
    {"source": "P", "arch": "arm64e", "base": 6442450944, "size": 245760, "uuid": "1d2e3f40-5162-3738-89a0-b1c2d3e4f506", "path": "/usr/lib/system/libsystem_kernel.dylib", "name": "libsystem_kernel.dylib"},
    {"source": "P", "arch": "arm64e", "base": 6442745856, "size": 53248, "uuid": "2e3f4051-6273-3849-9ab1-c2d3e4f50617", "path": "/usr/lib/system/libsystem_pthread.dylib", "name": "libsystem_pthread.dylib"},
    {"source": "P", "arch": "arm64e", "base": 6441402368, "size": 528384, "uuid": "3f405162-7384-3950-abc2-d3e4f5061728", "path": "/usr/lib/system/libsystem_c.dylib", "name": "libsystem_c.dylib"},
    {"source": "P", "arch": "arm64e", "base": 6500000768, "size": 20971520, "uuid": "40516273-8495-3a61-bcd3-e4f506172839", "path": "/System/Library/Frameworks/AppKit.framework/Versions/C/AppKit", "name": "AppKit"},
]

def frame(image, offset, symbol, location=16):
    return {"imageOffset": offset, "symbol": symbol, "symbolLocation": location, "imageIndex": image}

def rust_bounds_check():
    # Legacy Rust symbols as macOS prints them in .ips (`name::h<16 hex>`), from the innermost.
    frames = [
        frame(1, 37340, "__pthread_kill", 8), frame(2, 26412, "pthread_kill", 288), frame(3, 493268, "abort", 180),
        frame(0, 1812340, "std::sys::pal::unix::abort_internal::h5b0e8c39ad5e6e2c", 12),
        frame(0, 1790812, "std::process::abort::h3c7a8a2f0b8d1f55", 12),
        frame(0, 1801016, "__rust_start_panic", 16), frame(0, 1799204, "rust_panic", 12),
        frame(0, 1798412, "std::panicking::rust_panic_with_hook::h9f0a1d8f4c4c2b87", 624),
        frame(0, 1797756, "std::panicking::begin_panic_handler::_$u7b$$u7b$closure$u7d$$u7d$::h07c6a8f3a4d2c1b0", 132),
        frame(0, 1791020, "std::sys::backtrace::__rust_end_short_backtrace::hb1c4d2e3f5a6b7c8", 12),
        frame(0, 1797208, "rust_begin_unwind", 80), frame(0, 2010312, "core::panicking::panic_fmt::h0a1b2c3d4e5f6071", 52),
        frame(0, 2011056, "core::panicking::panic_bounds_check::h8192a3b4c5d6e7f8", 88),
        frame(0, 412300, "tilekit::grid::Grid::cell::h2a3b4c5d6e7f8091", 72),
        frame(0, 409800, "tilekit_grid_cell", 40),
        frame(4, 2203344, "-[NSView _drawRect:clip:]", 432), frame(4, 2199504, "-[NSView _recursiveDisplayAllDirtyWithLockFocus:visRect:]", 1272),
    ]
    body = {
        "uptime": 5000, "procRole": "Foreground", "version": 2, "userID": 501, "deployVersion": 210, "modelCode": "Mac14,2",
        "osVersion": {"train": "macOS 15.1", "build": "24B83", "releaseType": "User"}, "captureTime": "2026-11-20 10:00:00.1000 +0000",
        "incident": HEADER_IOS["incident_id"], "bug_type": "309", "pid": 4242, "cpuType": "ARM-64", "procName": "TileKit", "procPath": APP,
        "bundleInfo": {"CFBundleShortVersionString": "2.1", "CFBundleVersion": "41", "CFBundleIdentifier": "com.example.TileKit"},
        "parentProc": "launchd", "parentPid": 1,
        "exception": {"codes": "0x0000000000000000, 0x0000000000000000", "rawCodes": [0, 0], "type": "EXC_CRASH", "signal": "SIGABRT"},
        "termination": {"flags": 0, "code": 6, "namespace": "SIGNAL", "indicator": "Abort trap: 6", "byProc": "TileKit", "byPid": 4242},
        "asi": {"libsystem_c.dylib": ["abort() called"]}, "faultingThread": 0,
        "threads": [{"triggered": True, "id": 90210, "queue": "com.apple.main-thread", "frames": frames}],
        "usedImages": IMAGES,
    }
    return json.dumps(HEADER_IOS, separators=(",", ":")) + "\n" + json.dumps(body, indent=2) + "\n"

def text_report(process, path, exception_lines, frames, images, asi=(), extra=""):
    lines = [
        "Incident Identifier: 3C2B1A09-8765-4321-ABCD-EF0123456789", "Hardware Model:      iPhone16,1",
        f"Process:             {process} [3131]", f"Path:                {path}", "Identifier:          com.example.Ride." + process,
        "Version:             5.2 (520)", "Code Type:           ARM-64 (Native)", "Parent Process:      launchd [1]",
        "Date/Time:           2026-11-20 10:00:00.0000 +0000", "OS Version:          iPhone OS 18.1 (22B83)", "Report Version:      104", "",
    ] + list(exception_lines) + ["Triggered by Thread:  0", ""]
    if asi:
        lines += ["Application Specific Information:"] + list(asi) + [""]
    lines += ["Thread 0 name:  Dispatch queue: com.apple.main-thread", "Thread 0 Crashed:"]
    for index, (image, address, symbol) in enumerate(frames):
        lines.append(f"{index:<4}{image:<30}\t0x{address:016x} {symbol}")
    lines += ["", "Binary Images:"]
    for start, end, name, uuid, image_path in images:
        lines.append(f"0x{start:x} - 0x{end:x} {name} arm64  <{uuid}> {image_path}")
    return "\n".join(lines) + "\n" + extra

def rust_ffi_unwrap():
    app = "/private/var/containers/Bundle/Application/7A6B5C4D-3E2F-1A0B-9C8D-7E6F5A4B3C2D/Ride.app/Ride"
    core = "/private/var/containers/Bundle/Application/7A6B5C4D-3E2F-1A0B-9C8D-7E6F5A4B3C2D/Ride.app/Frameworks/RideCore.framework/RideCore"
    base = 0x104a00000
    frames = [
        ("libsystem_kernel.dylib", 0x1f2a3b1d4, "__pthread_kill + 8"), ("libsystem_pthread.dylib", 0x22b4c6ef8, "pthread_kill + 268"),
        ("libsystem_c.dylib", 0x1aa5b7ad8, "abort + 128"),
        ("RideCore", base + 0x1b2f30, "std::sys::pal::unix::abort_internal + 12"),
        ("RideCore", base + 0x1a8a10, "std::process::abort + 12"),
        ("RideCore", base + 0x1ab4c0, "std::panicking::rust_panic_with_hook + 612"),
        ("RideCore", base + 0x1aa920, "std::panicking::begin_panic_handler::{{closure}} + 156"),
        ("RideCore", base + 0x1a8c40, "std::sys::backtrace::__rust_end_short_backtrace + 12"),
        ("RideCore", base + 0x1aa3a0, "rust_begin_unwind + 72"),
        ("RideCore", base + 0x1f0e10, "core::panicking::panic_nounwind_fmt::runtime + 52"),
        ("RideCore", base + 0x1f0e60, "core::panicking::panic_nounwind_fmt + 36"),
        ("RideCore", base + 0x1f0f48, "core::panicking::panic_cannot_unwind + 24"),
        ("RideCore", base + 0x0821c4, "ride_core_route_distance + 196"),
        ("Ride", 0x1002c8410, "RouteViewModel.refresh() + 240"),
        ("Ride", 0x1002c7c30, "@objc RouteViewController.viewDidAppear(_:) + 52"),
        ("UIKitCore", 0x18d0e5a14, "-[UIViewController _setViewAppearState:isAnimating:] + 920"),
    ]
    images = [
        (0x100200000, 0x1003fffff, "Ride", "5a6b7c8d9e0f31a2b3c4d5e6f7a8b9c0", app),
        (base, base + 0x3fffff, "RideCore", "6b7c8d9e0f1a32b3c4d5e6f7a8b9c0d1", core),
        (0x1f2a2e000, 0x1f2a66fff, "libsystem_kernel.dylib", "7c8d9e0f1a2b33c4d5e6f7a8b9c0d1e2", "/usr/lib/system/libsystem_kernel.dylib"),
        (0x22b4c0000, 0x22b4ccfff, "libsystem_pthread.dylib", "8d9e0f1a2b3c34d5e6f7a8b9c0d1e2f3", "/usr/lib/system/libsystem_pthread.dylib"),
        (0x1aa53c000, 0x1aa5bbfff, "libsystem_c.dylib", "9e0f1a2b3c4d35e6f7a8b9c0d1e2f3a4", "/usr/lib/system/libsystem_c.dylib"),
        (0x18cf00000, 0x18e8fffff, "UIKitCore", "0f1a2b3c4d5e36f7a8b9c0d1e2f3a4b5", "/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore"),
    ]
    console = (
        "\nConsole (pasted from Xcode):\n"
        "thread '<unnamed>' panicked at src/route.rs:88:41:\n"
        "called `Option::unwrap()` on a `None` value\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
        "thread '<unnamed>' panicked at library/core/src/panicking.rs:221:5:\n"
        "panic in a function that cannot unwind\n"
        "thread caused non-unwinding panic. aborting.\n"
    )
    return text_report("Ride", app, ["Exception Type:  EXC_CRASH (SIGABRT)", "Exception Codes: 0x0000000000000000, 0x0000000000000000",
                                     "Termination Reason: SIGNAL 6 Abort trap: 6", "Terminating Process: Ride [3131]"],
                       frames, images, asi=["abort() called"], extra=console)

def broadcast_upload_memory():
    appex = "/private/var/containers/Bundle/Application/7A6B5C4D-3E2F-1A0B-9C8D-7E6F5A4B3C2D/Ride.app/PlugIns/RideBroadcast.appex/RideBroadcast"
    frames = [
        ("libsystem_kernel.dylib", 0x1f2a2f6c8, "mach_msg2_trap + 8"),
        ("CoreMedia", 0x1955e1234, "CMSampleBufferCreateCopy + 112"),
        ("RideBroadcast", 0x1000a4f10, "SampleHandler.processSampleBuffer(_:with:) + 420"),
        ("ReplayKit", 0x1c0a21b30, "-[RPBroadcastSampleHandler _processPayload:] + 312"),
    ]
    images = [
        (0x100080000, 0x1000fffff, "RideBroadcast", "1a2b3c4d5e6f37a8b9c0d1e2f3a4b5c6", appex),
        (0x1f2a2e000, 0x1f2a66fff, "libsystem_kernel.dylib", "7c8d9e0f1a2b33c4d5e6f7a8b9c0d1e2", "/usr/lib/system/libsystem_kernel.dylib"),
        (0x195500000, 0x1957fffff, "CoreMedia", "2b3c4d5e6f7a38b9c0d1e2f3a4b5c6d7", "/System/Library/Frameworks/CoreMedia.framework/CoreMedia"),
        (0x1c0a00000, 0x1c0afffff, "ReplayKit", "3c4d5e6f7a8b39c0d1e2f3a4b5c6d7e8", "/System/Library/Frameworks/ReplayKit.framework/ReplayKit"),
    ]
    return text_report(
        "RideBroadcast", appex,
        ["Exception Type:  EXC_RESOURCE (RESOURCE_TYPE_MEMORY: high watermark memory limit exceeded) (limit=50 MB)",
         "Exception Codes: 0x0000000000000032, 0x0000000000000000", "Termination Reason: JETSAM 7 per-process-limit"],
        frames, images)

def kernel_panic_watchdog():
    header = {"bug_type": "210", "timestamp": "2026-11-20 10:00:00.00 +0000", "os_version": "macOS 15.1 (24B83)", "incident_id": "B7C8D9E0-F1A2-4B3C-9D4E-5F60718293A4"}
    panic = "\n".join([
        "panic(cpu 2 caller 0xfffffe0029e7c0d4): userspace watchdog timeout: no successful checkins from WindowServer (2 induced crashes) in 120 seconds",
        "service: WindowServer, total successful checkins since wake (8 seconds ago): 1, last successful checkin: 0 seconds ago",
        "Debugger message: panic", "Memory ID: 0x6", "OS release type: User", "OS version: 24B83",
        "Kernel version: Darwin Kernel Version 24.1.0: Thu Oct 10 21:03:15 PDT 2024; root:xnu-11215.41.3~2/RELEASE_ARM64_T6000",
        "Panicked task 0xfffffe1b3e6c8678: 190 pages, 7 threads: pid 150: watchdogd",
        "Panicked thread: 0xfffffe1b3f0e2a90, backtrace: 0xfffffe8f4b1a3540, tid: 1712",
        "\t\t  lr: 0xfffffe0029a4b2f8  fp: 0xfffffe8f4b1a35d0", "\t\t  lr: 0xfffffe0029b0e3a4  fp: 0xfffffe8f4b1a3640", "",
    ])
    body = {"build": "macOS 15.1 (24B83)", "product": "MacBookPro18,3", "kernel": "Darwin Kernel Version 24.1.0", "incident": header["incident_id"],
            "date": "2026-11-20 10:00:00.00 +0000", "panicString": panic, "panicFlags": "0x902"}
    return json.dumps(header, separators=(",", ":")) + "\n" + json.dumps(body, indent=2) + "\n"

def kernel_panic_kext():
    return "\n".join([
        "panic(cpu 0 caller 0xffffff80201c5a2d): Kernel trap at 0xffffff7fa4c2b3e1, type 14=page fault, registers:",
        "CR0: 0x000000008001003b, CR2: 0x0000000000000018, CR3: 0x000000001c4d9000, CR4: 0x00000000003626e0",
        "Fault CR2: 0x0000000000000018, Error code: 0x0000000000000000, Fault CPU: 0x0, PL: 0, VF: 1", "",
        "Backtrace (CPU 0), Frame : Return Address",
        "0xffffffa0b1e3b6a0 : 0xffffff802011a65d ", "0xffffffa0b1e3b6f0 : 0xffffff8020254a75 ", "0xffffffa0b1e3b730 : 0xffffff7fa4c2b3e1 ",
        "      Kernel Extensions in backtrace:",
        "         com.example.driver.FancyUSB(3.1.4)[0C1D2E3F-4A5B-3C6D-8E9F-A0B1C2D3E4F5]@0xffffff7fa4c20000->0xffffff7fa4c3ffff",
        "            dependency: com.apple.iokit.IOUSBHostFamily(1.2)[5F6A7B8C-9D0E-3F1A-8B2C-3D4E5F6A7B8C]@0xffffff7fa1e00000->0xffffff7fa1e8ffff",
        "", "BSD process name corresponding to current thread: kernel_task", "",
        "Mac OS version:", "19H2", "", "Kernel version:",
        "Darwin Kernel Version 19.6.0: Mon Aug 31 22:12:52 PDT 2020; root:xnu-6153.141.2~1/RELEASE_X86_64", "",
    ]) + "\n"

for name, text in [("rust-bounds-check.ips", rust_bounds_check()), ("rust-ffi-unwrap.crash", rust_ffi_unwrap()),
                   ("broadcast-upload-memory.crash", broadcast_upload_memory()), ("kernel-panic-watchdog.ips", kernel_panic_watchdog()),
                   ("kernel-panic-kext.panic", kernel_panic_kext())]:
    with open(name, "w") as f:
        f.write(text)
