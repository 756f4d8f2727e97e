#!/usr/bin/env python3
"""Builds the system-symbols fixtures: dylibs standing for Apple's system libraries,
laid out as Xcode DeviceSupport folders, dyld shared caches holding the same dylibs
(written from the published dyld_cache_format.h layout), and reports whose system frames
have no names.

    system_symbols.py build WORK FIXTURES     compile, lay out, write caches and reports
    system_symbols.py bigcache WORK IMAGES PAD    a large cache for the benchmark (never committed)
    system_symbols.py bigfolder WORK IMAGES PAD   a large DeviceSupport folder for the benchmark

Only the Python standard library, clang and ld64.lld-19 are used. Every number written
into a report is computed here from the linked dylibs (symbol address + offset), and
manifest.json records, for every system frame, the name and offset it must come out with.
"""

import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys

# --- What the fixtures imitate -----------------------------------------------------------

# (library, install path, symbols). A symbol is (stored name, local?, body size in
# instructions). Local symbols are what real caches move into the .symbols file; one
# exported symbol per set is left out of the cached image's symbol table so that only the
# export trie names it (`export_only`).
IOS_LIBS = [
    ("UIKitCore", "/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore", [
        ("-[UIViewController _sendViewDidLoadWithAppearanceProxyObjectTaggingEnabled]", True, 30),
        ("-[UIViewController loadViewIfRequired]", True, 60),
        ("-[UIViewController view]", True, 12),
        ("-[UIWindow addRootViewControllerViewIfPossible]", True, 24),
        ("-[UIApplication _run]", True, 80),
        ("_UIApplicationMain", False, 40),
        ("__UIScenePerformActionsWithLifecycleActionMask", False, 20),
    ]),
    ("CoreFoundation", "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation", [
        ("___CFRUNLOOP_IS_CALLING_OUT_TO_A_SOURCE0_PERFORM_FUNCTION__", True, 10),
        ("___CFRunLoopDoSource0", True, 40),
        ("___CFRunLoopDoSources0", True, 50),
        ("___CFRunLoopRun", True, 120),
        ("_CFRunLoopRunSpecific", False, 90),
        ("___exceptionPreprocess", True, 40),
    ]),
    ("GraphicsServices", "/System/Library/PrivateFrameworks/GraphicsServices.framework/GraphicsServices", [
        ("_GSEventRunModal", False, 30),
    ]),
    ("libswiftCore.dylib", "/usr/lib/swift/libswiftCore.dylib", [
        ("_$ss17_assertionFailure__4file4line5flagss5NeverOs12StaticStringV_SSAHSus6UInt32VtF", False, 70),
        ("_$sSa9_checkSubscript_20wasNativeTypeCheckeds16_DependenceTokenVSi_SbtF", False, 20),
    ]),
    ("libsystem_kernel.dylib", "/usr/lib/system/libsystem_kernel.dylib", [
        ("_mach_msg2_trap", False, 4),
        ("_mach_msg2_internal", True, 30),
        ("___pthread_kill", False, 4),
        ("___ulock_wait", False, 6),
    ]),
    ("libsystem_pthread.dylib", "/usr/lib/system/libsystem_pthread.dylib", [
        ("_pthread_kill", False, 30),
        ("__pthread_start", True, 30),
        ("_thread_start", False, 4),
        ("__pthread_wqthread", True, 60),
        ("_start_wqthread", False, 4),
    ]),
    ("libsystem_c.dylib", "/usr/lib/system/libsystem_c.dylib", [
        ("_abort", False, 30),
    ]),
    ("libdispatch.dylib", "/usr/lib/system/libdispatch.dylib", [
        ("__dispatch_client_callout", True, 8),
        ("__dispatch_lane_serial_drain", True, 90),
        ("__dispatch_workloop_worker_thread", True, 100),
    ]),
]

MAC_LIBS = [
    ("AppKit", "/System/Library/Frameworks/AppKit.framework/Versions/C/AppKit", [
        ("-[NSApplication run]", True, 60),
        ("-[NSApplication(NSEventRouting) _nextEventMatchingEventMask:untilDate:inMode:dequeue:]", True, 80),
        ("_NSApplicationMain", False, 40),
    ]),
    ("HIToolbox", "/System/Library/Frameworks/Carbon.framework/Versions/A/Frameworks/HIToolbox.framework/Versions/A/HIToolbox", [
        ("_BlockUntilNextEventMatchingListInModeWithFilter", False, 30),
        ("_ReceiveNextEventCommon", True, 60),
    ]),
    ("CoreFoundation", "/System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation", [
        ("___CFRunLoopServiceMachPort", True, 50),
        ("___CFRunLoopRun", True, 120),
        ("_CFRunLoopRunSpecific", False, 90),
    ]),
    ("libsystem_kernel.dylib", "/usr/lib/system/libsystem_kernel.dylib", [
        ("_mach_msg2_trap", False, 4),
        ("_mach_msg2_internal", True, 30),
        ("___ulock_wait", False, 6),
    ]),
    ("libsystem_pthread.dylib", "/usr/lib/system/libsystem_pthread.dylib", [
        ("__pthread_start", True, 30),
        ("_thread_start", False, 4),
    ]),
]

# Each set: one OS build of one architecture, its DeviceSupport folder, and its cache layout.
SETS = [
    {
        "id": "ios17", "platform": "ios", "os": "iPhone OS", "version": "17.5", "build": "21F79", "arch": "arm64e",
        "folder": "iOS DeviceSupport/17.5 (21F79) arm64e", "libs": IOS_LIBS, "cache": "split",
        "export_only": "_UIApplicationMain", "region": 0x180000000, "slide": 0x1C6C000,
    },
    {
        "id": "ios14", "platform": "ios", "os": "iPhone OS", "version": "14.8", "build": "18H17", "arch": "arm64",
        "folder": "iOS DeviceSupport/14.8 (18H17)", "libs": IOS_LIBS, "cache": "single",
        "export_only": "_CFRunLoopRunSpecific", "region": 0x180000000, "slide": 0x4A0C000,
    },
    {
        "id": "macos14", "platform": "macos", "os": "macOS", "version": "14.5", "build": "23F79", "arch": "arm64e",
        "folder": "macOS DeviceSupport/14.5 (23F79) arm64e", "libs": MAC_LIBS, "cache": "split",
        "export_only": "_NSApplicationMain", "region": 0x180000000, "slide": 0x8F4000,
    },
]

PAGE = 0x4000
CPU_ARM64 = 0x0100000C
SUBTYPE = {"arm64": 0, "arm64e": 0x80000002}
PLATFORM = {"macos": 1, "ios": 2}

# --- Mach-O helpers ----------------------------------------------------------------------

LC_SEGMENT_64 = 0x19
LC_SYMTAB = 0x2
LC_DYSYMTAB = 0xB
LC_UUID = 0x1B
LC_DYLD_INFO = 0x22
LC_DYLD_INFO_ONLY = 0x80000022
LINKEDIT_DATA = {0x1D, 0x26, 0x29, 0x2B, 0x2E, 0x80000033, 0x80000034}


def load_commands(data):
    ncmds, = struct.unpack_from("<I", data, 16)
    at = 32
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, at)
        yield at, cmd, size
        at += size


def segments(data):
    for at, cmd, _ in load_commands(data):
        if cmd == LC_SEGMENT_64:
            name = data[at + 8:at + 24].rstrip(b"\0").decode()
            vmaddr, vmsize, fileoff, filesize = struct.unpack_from("<QQQQ", data, at + 24)
            yield name, at, vmaddr, vmsize, fileoff, filesize


def symtab(data):
    for at, cmd, _ in load_commands(data):
        if cmd == LC_SYMTAB:
            return at, struct.unpack_from("<IIII", data, at + 8)
    raise SystemExit("no LC_SYMTAB")


def nlists(data):
    """(index, name, type, sect, desc, value) of every symbol."""
    _, (symoff, nsyms, stroff, strsize) = symtab(data)
    for i in range(nsyms):
        strx, ntype, sect, desc, value = struct.unpack_from("<IBBHQ", data, symoff + 16 * i)
        end = data.index(b"\0", stroff + strx)
        yield i, data[stroff + strx:end].decode(), ntype, sect, desc, value


def relocate(data, base, subtype, uuid):
    """Moves a dylib linked at 0 to `base` (what ld64's -image_base would have done; lld-19
    does not implement it), as the dylibs in a cache and in a DeviceSupport folder are: segment
    and section addresses and symbol values. The fixture code has no pointers to rebase."""
    data = bytearray(data)
    struct.pack_into("<I", data, 8, subtype)
    for at, cmd, _ in load_commands(data):
        if cmd == LC_SEGMENT_64:
            vmaddr, = struct.unpack_from("<Q", data, at + 24)
            struct.pack_into("<Q", data, at + 24, vmaddr + base)
            nsects, = struct.unpack_from("<I", data, at + 64)
            for s in range(nsects):
                sat = at + 72 + 80 * s
                addr, = struct.unpack_from("<Q", data, sat + 32)
                struct.pack_into("<Q", data, sat + 32, addr + base)
        elif cmd == LC_UUID:
            data[at + 8:at + 24] = uuid
        elif cmd in (LC_DYLD_INFO, LC_DYLD_INFO_ONLY):
            rebase_size, = struct.unpack_from("<I", data, at + 12)
            assert rebase_size == 0, "fixture dylibs must need no rebasing"
    _, (symoff, nsyms, _, _) = symtab(data)
    for i in range(nsyms):
        at = symoff + 16 * i
        ntype, = struct.unpack_from("<B", data, at + 4)
        if ntype & 0x0E == 0x0E:
            value, = struct.unpack_from("<Q", data, at + 8)
            struct.pack_into("<Q", data, at + 8, value + base)
    return bytes(data)


def text_segment(data):
    for name, _, vmaddr, vmsize, fileoff, filesize in segments(data):
        if name == "__TEXT":
            return vmaddr, vmsize
    raise SystemExit("no __TEXT")


def uuid_for(*parts):
    digest = bytearray(hashlib.sha256("/".join(parts).encode()).digest()[:16])
    digest[6] = (digest[6] & 0x0F) | 0x30  # version 3, as Apple's linker stamps them
    digest[8] = (digest[8] & 0x3F) | 0x80
    return bytes(digest)


def uuid_text(raw):
    h = raw.hex().upper()
    return f"{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


# --- Building the dylibs -----------------------------------------------------------------

def c_source(symbols):
    """One C function per symbol, named through an asm label so any spelling (`-[A b]`,
    `_$s…`) is stored exactly. Bodies are volatile arithmetic of the asked size."""
    lines = []
    for n, (name, local, size) in enumerate(symbols):
        storage = "static " if local else ""
        lines.append(f'{storage}int f{n}(int x) __asm__("{name}");')
        body = "".join(f" v = v * {3 + k % 5} + {k};" for k in range(max(1, size // 3)))
        lines.append(f"__attribute__((noinline, used)) {storage}int f{n}(int x) {{ volatile int v = x;{body} return v; }}")
    return "\n".join(lines) + "\n"


def build_dylib(work, set_, lib):
    name, install, symbols = lib
    folder = os.path.join(work, set_["id"], name)
    os.makedirs(folder, exist_ok=True)
    src = os.path.join(folder, "lib.c")
    with open(src, "w") as f:
        f.write(c_source(symbols))
    obj = os.path.join(folder, "lib.o")
    out = os.path.join(folder, "linked")
    target = f"{set_['arch']}-apple-{set_['platform']}{set_['version']}"
    subprocess.run(["clang", "-target", target, "-O1", "-c", src, "-o", obj], check=True)
    subprocess.run([
        "ld64.lld-19", "-arch", set_["arch"], "-platform_version", "macos" if set_["platform"] == "macos" else "ios",
        set_["version"], set_["version"], "-dylib", "-install_name", install, obj, "-o", out,
    ], check=True, stderr=subprocess.DEVNULL)
    with open(out, "rb") as f:
        return f.read()


# --- dyld shared cache writer ------------------------------------------------------------

HEADER_SIZE = 0x200  # through dynamicDataMaxSize
OLD_HEADER_SIZE = 0x140  # through mappingWithSlideCount: a pre-iOS 15 single-file cache


def place_in_cache(data, file_offset, keep_symbol):
    """A dylib as it sits in a cache file at `file_offset`: file offsets in its load commands
    made cache-relative, MH_DYLIB_IN_CACHE set, and its symbol table cut to the symbols
    `keep_symbol` accepts (the rest are local symbols, moved to the cache's local-symbols
    table). Returns (bytes, [(name, n_sect, value) moved out])."""
    data = bytearray(data)
    flags, = struct.unpack_from("<I", data, 24)
    struct.pack_into("<I", data, 24, flags | 0x80000000)
    symtab_at, (symoff, nsyms, stroff, strsize) = symtab(data)
    kept, moved = [], []
    for i, name, ntype, sect, desc, value in list(nlists(data)):
        entry = bytes(data[symoff + 16 * i:symoff + 16 * i + 16])
        if keep_symbol(name, ntype):
            kept.append(entry)
        elif ntype & 0x0E == 0x0E and not ntype & 0x01:
            moved.append((name, sect, value))
    data[symoff:symoff + 16 * nsyms] = b"".join(kept) + b"\0" * (16 * (nsyms - len(kept)))
    struct.pack_into("<I", data, symtab_at + 12, len(kept))
    for at, cmd, size in load_commands(data):
        if cmd == LC_SEGMENT_64:
            fileoff, = struct.unpack_from("<Q", data, at + 40)
            struct.pack_into("<Q", data, at + 40, fileoff + file_offset)
            nsects, = struct.unpack_from("<I", data, at + 64)
            for s in range(nsects):
                sat = at + 72 + 80 * s
                off, = struct.unpack_from("<I", data, sat + 48)
                if off:
                    struct.pack_into("<I", data, sat + 48, off + file_offset)
        elif cmd == LC_SYMTAB:
            struct.pack_into("<I", data, at + 8, symoff + file_offset)
            struct.pack_into("<I", data, at + 16, stroff + file_offset)
        elif cmd == LC_DYSYMTAB:
            externals = sum(1 for e in kept if e[4] & 0x0E == 0x0E)
            struct.pack_into("<IIIIII", data, at + 8, 0, 0, 0, externals, externals, len(kept) - externals)
            for field in (32, 40, 48, 56, 64, 72):  # tocoff, modtaboff, extrefsymoff, indirectsymoff, extreloff, locreloff
                off, = struct.unpack_from("<I", data, at + field)
                if off:
                    struct.pack_into("<I", data, at + field, off + file_offset)
        elif cmd in (LC_DYLD_INFO, LC_DYLD_INFO_ONLY):
            for field in (8, 16, 24, 32, 40):
                off, = struct.unpack_from("<I", data, at + field)
                if off:
                    struct.pack_into("<I", data, at + field, off + file_offset)
        elif cmd in LINKEDIT_DATA:
            off, = struct.unpack_from("<I", data, at + 8)
            if off:
                struct.pack_into("<I", data, at + 8, off + file_offset)
    return bytes(data), moved


def align(n, to=PAGE):
    return (n + to - 1) // to * to


def pack_header(fields, size):
    """A dyld_cache_header of `size` bytes; `fields` maps offset -> (format, value)."""
    out = bytearray(size)
    for offset, (fmt, value) in fields.items():
        if offset + struct.calcsize(fmt) <= size:
            struct.pack_into("<" + fmt, out, offset, *(value if isinstance(value, tuple) else (value,)))
    return out


def magic_for(arch):
    return ("dyld_v1" + arch.rjust(8)).encode()[:16].ljust(16, b"\0")


def local_symbols_blob(entries, use64):
    """dyld_cache_local_symbols_info + entries + nlist array + string pool.
    `entries`: [(dylibOffset, [(name, n_sect, value)])]."""
    strings = bytearray(b" \0")
    nl = bytearray()
    table = bytearray()
    index = 0
    for dylib_offset, symbols in entries:
        if use64:
            table += struct.pack("<QII", dylib_offset, index, len(symbols))
        else:
            table += struct.pack("<III", dylib_offset, index, len(symbols))
        for name, sect, value in symbols:
            nl += struct.pack("<IBBHQ", len(strings), 0x0E, sect, 0, value)
            strings += name.encode() + b"\0"
            index += 1
    info = 24
    entries_at = info
    nlist_at = align(entries_at + len(table), 8)
    strings_at = nlist_at + len(nl)
    blob = bytearray(strings_at + len(strings))
    struct.pack_into("<IIIIII", blob, 0, nlist_at, index, strings_at, len(strings), entries_at, len(entries))
    blob[entries_at:entries_at + len(table)] = table
    blob[nlist_at:nlist_at + len(nl)] = nl
    blob[strings_at:] = strings
    return bytes(blob)


def write_cache(out_dir, set_, images):
    """images: [(name, install, relocated bytes, text vmaddr)] in cache order, each already
    relocated to its cache address. Writes dyld_shared_cache_<arch> (+ .01 and .symbols for
    a split cache). Returns the image records for the manifest."""
    arch = set_["arch"]
    base = set_["region"]
    split = set_["cache"] == "split"
    header_size = HEADER_SIZE if split else OLD_HEADER_SIZE
    main_name = f"dyld_shared_cache_{arch}"
    os.makedirs(out_dir, exist_ok=True)
    export_only = set_["export_only"]

    def keep(name, ntype):
        external = ntype & 0x01
        return (external or ntype & 0x0E != 0x0E) and name != export_only

    # Which file each image goes in: a split cache puts the second half in subcache .01.
    n = len(images)
    in_sub = set(range((n + 1) // 2, n)) if split else set()
    # The first page of each file is its header area; images follow, each at vm = base + offset.
    main_images, sub_images = [], []
    for i, img in enumerate(images):
        (sub_images if i in in_sub else main_images).append(i)

    paths_blob = bytearray()
    path_offsets = []
    # Header area of the main file: header, mapping(s), mapping+slide, images, imagesText, subcaches, paths.
    mapping_count = 1
    mappings_at = header_size
    slide_mappings_at = mappings_at + 32 * mapping_count
    images_at = slide_mappings_at + (56 * mapping_count if split else 0)
    images_text_at = images_at + 32 * n
    subcache_at = images_text_at + 32 * n
    subcache_count = 1 if split else 0
    local_at_old = None
    paths_at = subcache_at + 56 * subcache_count
    for _, install, _, _ in images:
        path_offsets.append(paths_at + len(paths_blob))
        paths_blob += install.encode() + b"\0"
    header_area = align(paths_at + len(paths_blob))

    # Lay images out: vm addresses were fixed by the caller; file offsets follow from them.
    placed = {}
    main_end = header_area
    for i in main_images:
        _, _, data, text = images[i]
        offset = text - base
        assert offset >= main_end, "image addresses must follow the header area"
        placed[i] = ("main", offset)
        main_end = align(offset + len(data))
    sub_base = None
    sub_end = 0
    if split:
        first = images[sub_images[0]][3]
        sub_base = first - PAGE  # subcache header page right before its first image
        sub_end = PAGE
        for i in sub_images:
            _, _, data, text = images[i]
            offset = text - sub_base
            assert offset >= sub_end
            placed[i] = ("sub", offset)
            sub_end = align(offset + len(data))

    main = bytearray(main_end)
    sub = bytearray(sub_end) if split else None
    local_entries = []
    records = []
    for i, (name, install, data, text) in enumerate(images):
        where, offset = placed[i]
        cached, moved = place_in_cache(data, offset, keep)
        target = main if where == "main" else sub
        target[offset:offset + len(cached)] = cached
        dylib_key = (text - base) if split else offset
        local_entries.append((dylib_key, moved))
        records.append({"name": name, "path": install, "file": main_name + ("" if where == "main" else ".01")})

    main_uuid = uuid_for(set_["id"], "cache")
    sub_uuid = uuid_for(set_["id"], "cache.01")
    symbols_uuid = uuid_for(set_["id"], "cache.symbols")

    # Local symbols: a .symbols file for a split cache, the end of the main file for an old one.
    use64 = split
    blob = local_symbols_blob(local_entries, use64)
    if not split:
        local_at_old = len(main)
        main += blob
        main += b"\0" * (align(len(main)) - len(main))

    fields = {
        0: ("16s", magic_for(arch)),
        16: ("I", mappings_at), 20: ("I", mapping_count),
        24: ("I", 0 if split else images_at), 28: ("I", 0 if split else n),
        72: ("Q", 0 if split else local_at_old), 80: ("Q", 0 if split else len(blob)),
        88: ("16s", main_uuid), 104: ("Q", 2 if split else 1),
        136: ("Q", images_text_at), 144: ("Q", n),
        216: ("I", PLATFORM[set_["platform"]]),
        224: ("Q", base), 232: ("Q", (sub_base + sub_end - base) if split else len(main)),
        312: ("I", slide_mappings_at if split else 0), 316: ("I", mapping_count if split else 0),
        364: ("I", version_number(set_["version"])),
        392: ("I", subcache_at), 396: ("I", subcache_count),
        400: ("16s", symbols_uuid),
        448: ("I", images_at), 452: ("I", n), 456: ("I", 1),
    }
    main[0:header_size] = pack_header(fields, header_size)
    main_mapped = main_end
    struct.pack_into("<QQQII", main, mappings_at, base, main_mapped, 0, 5, 5)
    if split:
        struct.pack_into("<QQQQQQII", main, slide_mappings_at, base, main_mapped, 0, 0, 0, 0, 5, 5)
    for i, (name, install, data, text) in enumerate(images):
        where, offset = placed[i]
        struct.pack_into("<QQQII", main, images_at + 32 * i, text, 0, 0, path_offsets[i], 0)
        _, text_size = text_segment(data)
        uuid = next(data[at + 8:at + 24] for at, cmd, _ in load_commands(data) if cmd == LC_UUID)
        struct.pack_into("<16sQII", main, images_text_at + 32 * i, uuid, text, text_size, path_offsets[i])
    if split:
        struct.pack_into("<16sQ32s", main, subcache_at, sub_uuid, sub_base - base, b".01")
    main[paths_at:paths_at + len(paths_blob)] = paths_blob
    with open(os.path.join(out_dir, main_name), "wb") as f:
        f.write(main)

    if split:
        sub_fields = {
            0: ("16s", magic_for(arch)), 16: ("I", HEADER_SIZE), 20: ("I", 1),
            88: ("16s", sub_uuid), 104: ("Q", 2), 216: ("I", PLATFORM[set_["platform"]]),
            224: ("Q", base), 312: ("I", HEADER_SIZE + 32), 316: ("I", 1),
            364: ("I", version_number(set_["version"])), 456: ("I", 1),
        }
        sub[0:HEADER_SIZE] = pack_header(sub_fields, HEADER_SIZE)
        struct.pack_into("<QQQII", sub, HEADER_SIZE, sub_base, len(sub), 0, 5, 5)
        struct.pack_into("<QQQQQQII", sub, HEADER_SIZE + 32, sub_base, len(sub), 0, 0, 0, 0, 5, 5)
        with open(os.path.join(out_dir, main_name + ".01"), "wb") as f:
            f.write(sub)
        symbols = bytearray(PAGE)
        sym_fields = {
            0: ("16s", magic_for(arch)), 16: ("I", HEADER_SIZE), 20: ("I", 0),
            72: ("Q", PAGE), 80: ("Q", len(blob)), 88: ("16s", symbols_uuid), 104: ("Q", 2),
            216: ("I", PLATFORM[set_["platform"]]), 456: ("I", 1),
        }
        symbols[0:HEADER_SIZE] = pack_header(sym_fields, HEADER_SIZE)
        symbols += blob
        with open(os.path.join(out_dir, main_name + ".symbols"), "wb") as f:
            f.write(symbols)
    return records


def version_number(text):
    parts = [int(p) for p in text.split(".")] + [0, 0]
    return parts[0] << 16 | parts[1] << 8 | parts[2]


# --- Reports -----------------------------------------------------------------------------

def frames_for(libs_by_name, plan):
    """plan: [(library, symbol, offset)] -> frame records with addresses."""
    out = []
    for lib, symbol, offset in plan:
        info = libs_by_name[lib]
        address = info["symbols"][symbol] + offset  # unslid
        out.append({
            "image": lib, "symbol": symbol, "offset": offset,
            "load": info["load"], "text": info["text"],
            "address": address - info["text"] + info["load"],
            "expected": display_name(symbol),
        })
    return out


def display_name(stored):
    """The name a frame must show: Darwin's leading underscore dropped from C names; Swift
    names are checked through swift-demangle --simplified (done by the caller)."""
    if stored.startswith("_"):
        return stored[1:]
    return stored


IOS_MAIN_THREAD = [
    ("libsystem_kernel.dylib", "___pthread_kill", 8),
    ("libsystem_pthread.dylib", "_pthread_kill", 268),
    ("libsystem_c.dylib", "_abort", 128),
    ("libswiftCore.dylib", "_$ss17_assertionFailure__4file4line5flagss5NeverOs12StaticStringV_SSAHSus6UInt32VtF", 172),
    ("UIKitCore", "-[UIViewController _sendViewDidLoadWithAppearanceProxyObjectTaggingEnabled]", 108),
    ("UIKitCore", "-[UIViewController loadViewIfRequired]", 160),
    ("UIKitCore", "-[UIViewController view]", 32),
    ("UIKitCore", "-[UIWindow addRootViewControllerViewIfPossible]", 64),
    ("UIKitCore", "__UIScenePerformActionsWithLifecycleActionMask", 52),
    ("CoreFoundation", "___CFRUNLOOP_IS_CALLING_OUT_TO_A_SOURCE0_PERFORM_FUNCTION__", 28),
    ("CoreFoundation", "___CFRunLoopDoSource0", 104),
    ("CoreFoundation", "___CFRunLoopDoSources0", 136),
    ("CoreFoundation", "___CFRunLoopRun", 328),
    ("CoreFoundation", "_CFRunLoopRunSpecific", 240),
    ("GraphicsServices", "_GSEventRunModal", 84),
    ("UIKitCore", "-[UIApplication _run]", 212),
    ("UIKitCore", "_UIApplicationMain", 100),
]
IOS_WORKER_THREAD = [
    ("libsystem_kernel.dylib", "___ulock_wait", 8),
    ("libdispatch.dylib", "__dispatch_client_callout", 20),
    ("libdispatch.dylib", "__dispatch_lane_serial_drain", 248),
    ("libdispatch.dylib", "__dispatch_workloop_worker_thread", 280),
    ("libsystem_pthread.dylib", "__pthread_wqthread", 160),
    ("libsystem_pthread.dylib", "_start_wqthread", 8),
]
IOS_EVENT_THREAD = [
    ("libsystem_kernel.dylib", "_mach_msg2_trap", 8),
    ("libsystem_kernel.dylib", "_mach_msg2_internal", 80),
    ("CoreFoundation", "___CFRunLoopRun", 1080 // 4 * 4 % 300),
    ("libsystem_pthread.dylib", "__pthread_start", 136),
    ("libsystem_pthread.dylib", "_thread_start", 8),
]
MAC_MAIN_THREAD = [
    ("libsystem_kernel.dylib", "_mach_msg2_trap", 8),
    ("libsystem_kernel.dylib", "_mach_msg2_internal", 80),
    ("CoreFoundation", "___CFRunLoopServiceMachPort", 160),
    ("CoreFoundation", "___CFRunLoopRun", 1200 % 300 + 4),
    ("CoreFoundation", "_CFRunLoopRunSpecific", 240),
    ("HIToolbox", "_ReceiveNextEventCommon", 212),
    ("HIToolbox", "_BlockUntilNextEventMatchingListInModeWithFilter", 64),
    ("AppKit", "-[NSApplication(NSEventRouting) _nextEventMatchingEventMask:untilDate:inMode:dequeue:]", 240),
    ("AppKit", "-[NSApplication run]", 164),
    ("AppKit", "_NSApplicationMain", 120),
]
MAC_WORKER_THREAD = [
    ("libsystem_kernel.dylib", "___ulock_wait", 8),
    ("libsystem_pthread.dylib", "__pthread_start", 136),
    ("libsystem_pthread.dylib", "_thread_start", 8),
]


def clamp_plan(plan, libs_by_name):
    """Keeps every offset inside its function (sizes come from the linked code) and on an
    instruction boundary, so the planned name is the right answer."""
    out = []
    for lib, symbol, offset in plan:
        size = libs_by_name[lib]["sizes"][symbol]
        offset = min(offset, size - 4)
        offset -= offset % 4
        out.append((lib, symbol, max(offset, 4) if size > 8 else 4))
    return out


def write_ips(path, set_, libs_by_name, threads):
    used = []
    index_of = {}
    for lib in libs_by_name.values():
        index_of[lib["name"]] = len(used)
        used.append({
            "source": "P", "arch": set_["arch"], "base": lib["load"], "size": lib["text_size"],
            "uuid": lib["uuid"].lower(), "path": lib["path"], "name": lib["name"],
        })
    header = {
        "app_name": "SystemFrames", "timestamp": "2024-06-18 10:20:30.00 +0200", "app_version": "1.0",
        "slice_uuid": "00000000-0000-0000-0000-000000000000", "build_version": "1", "platform": 2,
        "bundleID": "com.example.SystemFrames", "share_with_app_devs": 0, "is_first_party": 0, "bug_type": "309",
        "os_version": f"{set_['os']} {set_['version']} ({set_['build']})",
        "incident_id": "6B3A8F0E-2C1D-4E5F-9A7B-1C2D3E4F5A6B", "name": "SystemFrames",
    }
    thread_list = []
    for n, frames in enumerate(threads):
        thread_list.append({
            **({"triggered": True} if n == 0 else {}), "id": 900100 + n,
            **({"queue": "com.apple.main-thread"} if n == 0 else {}),
            "frames": [{"imageOffset": f["address"] - f["load"], "imageIndex": index_of[f["image"]]} for f in frames],
        })
    body = {
        "uptime": 4000, "procRole": "Foreground", "version": 2, "userID": 501, "deployVersion": 210,
        "modelCode": "iPhone15,2", "coalitionID": 700,
        "osVersion": {"isEmbedded": True, "train": f"{set_['os']} {set_['version']}", "releaseType": "User", "build": set_["build"]},
        "captureTime": "2024-06-18 10:20:30.1234 +0200", "incident": header["incident_id"], "bug_type": "309", "pid": 4321,
        "cpuType": "ARM-64", "procName": "SystemFrames",
        "procPath": "/private/var/containers/Bundle/Application/0A1B2C3D-4E5F-6A7B-8C9D-0E1F2A3B4C5D/SystemFrames.app/SystemFrames",
        "bundleInfo": {"CFBundleShortVersionString": "1.0", "CFBundleVersion": "1", "CFBundleIdentifier": "com.example.SystemFrames"},
        "parentProc": "launchd", "parentPid": 1, "isCorpse": 1,
        "exception": {"codes": "0x0000000000000000, 0x0000000000000000", "rawCodes": [0, 0], "type": "EXC_CRASH", "signal": "SIGABRT"},
        "termination": {"flags": 0, "code": 6, "namespace": "SIGNAL", "indicator": "Abort trap: 6", "byProc": "SystemFrames", "byPid": 4321},
        "faultingThread": 0, "threads": thread_list, "usedImages": used,
    }
    with open(path, "w") as f:
        f.write(json.dumps(header, separators=(",", ":")) + "\n")
        f.write(json.dumps(body, indent=2) + "\n")


def write_metrickit(path, set_, libs_by_name, threads):
    def tree(frames):
        # A MetricKit tree starts at the top of the stack: each frame's caller is its subframe.
        node = None
        for f in reversed(frames):  # outermost first, so the innermost ends up the root
            entry = {
                "binaryUUID": libs_by_name[f["image"]]["uuid"], "offsetIntoBinaryTextSegment": f["address"] - f["load"],
                "sampleCount": 1, "binaryName": f["image"], "address": f["address"],
            }
            if node is not None:
                entry["subFrames"] = [node]
            node = entry
        return node

    meta = {
        "appBuildVersion": "1", "appVersion": "1.0", "bundleIdentifier": "com.example.SystemFrames",
        "deviceType": "iPhone13,2", "isTestFlightApp": False, "lowPowerModeEnabled": False,
        "osVersion": f"{set_['os']} {set_['version']} ({set_['build']})", "platformArchitecture": set_["arch"],
        "regionFormat": "US",
    }
    crash = {
        "version": "1.0.0",
        "callStackTree": {"callStacks": [
            {"threadAttributed": n == 0, "callStackRootFrames": [tree(frames)]} for n, frames in enumerate(threads)
        ], "callStackPerThread": True},
        "diagnosticMetaData": {**meta, "exceptionType": 10, "exceptionCode": 0, "signal": 6, "terminationReason": "Namespace SIGNAL, Code 0x6"},
    }
    hang = {
        "version": "1.0.0",
        "callStackTree": {"callStacks": [{"threadAttributed": True, "callStackRootFrames": [tree(threads[-1])]}], "callStackPerThread": True},
        "diagnosticMetaData": {**meta, "hangDuration": "2.5 sec"},
    }
    payload = {
        "timeStampBegin": "2024-06-18 00:00:00 +0000", "timeStampEnd": "2024-06-18 23:59:00 +0000",
        "crashDiagnostics": [crash], "hangDiagnostics": [hang],
    }
    with open(path, "w") as f:
        f.write(json.dumps(payload, indent=2) + "\n")


def write_sample(path, set_, libs_by_name, threads):
    lines = [
        "Analysis of sampling SystemFrames (pid 5150) every 1 millisecond",
        "Process:         SystemFrames [5150]",
        "Path:            /Applications/SystemFrames.app/Contents/MacOS/SystemFrames",
        "Load Address:    0x100a2c000",
        "Identifier:      com.example.SystemFrames",
        "Version:         1.0 (1)",
        "Code Type:       ARM64",
        "Platform:        macOS",
        "Parent Process:  launchd [1]",
        "",
        "Date/Time:       2024-06-18 10:20:30.118 +0200",
        "Launch Time:     2024-06-18 10:19:02.004 +0200",
        f"OS Version:      macOS {set_['version']} ({set_['build']})",
        "Report Version:  7",
        "Analysis Tool:   /usr/bin/sample",
        "----",
        "",
        "Call graph:",
    ]
    counts = [2449, 2449]
    for n, frames in enumerate(threads):
        title = "Thread_1402211   DispatchQueue_1: com.apple.main-thread  (serial)" if n == 0 else f"Thread_14022{20 + n}"
        lines.append(f"    {counts[n]} {title}")
        outer_first = list(reversed(frames))
        for depth, f in enumerate(outer_first):
            # sample's guides: `+ `, then two columns a level, a mark every other level.
            guide = "+ " + "".join("  " if k % 2 else "!:|+"[(k // 2 - 1) % 4] + " " for k in range(1, depth + 1))
            offset = f["address"] - f["load"]
            lines.append(
                f"    {guide}{counts[n]} ???  (in {f['image']})  load address 0x{f['load']:x} + 0x{offset:x}  [0x{f['address']:x}]")
    lines += ["", "Total number in stack (recursive counted multiple, when >=5):", "",
              "Sort by top of stack, same collapsed (when >= 5):"]
    for n, frames in enumerate(threads):
        f = frames[0]
        label = f"???  (in {f['image']})  load address 0x{f['load']:x} + 0x{f['address'] - f['load']:x}"
        lines.append(f"        {label:<70} {counts[n]}")
    lines += ["", "Binary Images:"]
    for lib in sorted(libs_by_name.values(), key=lambda l: l["load"]):
        end = lib["load"] + lib["text_size"] - 1
        lines.append(f"       0x{lib['load']:x} -        0x{end:x}  {lib['name']} (1) <{lib['uuid']}> {lib['path']}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def demangled(names):
    """swift-demangle --simplified of Swift names (the name atos prints)."""
    swift = [n for n in names if n.startswith("$s")]
    if not swift:
        return {}
    out = subprocess.run(["swift-demangle", "--simplified"], input="\n".join(swift) + "\n",
                         capture_output=True, text=True, check=True).stdout.splitlines()
    return dict(zip(swift, out))


# --- Commands ----------------------------------------------------------------------------

def build(work, fixtures):
    root = os.path.join(fixtures, "system-symbols")
    home = os.path.join(root, "home", "Library", "Developer", "Xcode")
    caches = os.path.join(root, "caches")
    reports = os.path.join(root, "reports")
    for d in (os.path.join(root, "home"), caches, reports):
        shutil.rmtree(d, ignore_errors=True)
    os.makedirs(reports)
    manifest = {"sets": [], "reports": []}
    for set_ in SETS:
        libs_by_name = {}
        images = []
        address = set_["region"] + PAGE * 2  # after the main cache's header page(s)
        split_at = (len(set_["libs"]) + 1) // 2 if set_["cache"] == "split" else None
        for position, lib in enumerate(set_["libs"]):
            name, install, symbols = lib
            linked = build_dylib(work, set_, lib)
            if position == split_at:
                address += PAGE  # the subcache's own header page
            uuid = uuid_for(set_["id"], name)
            relocated = relocate(linked, address, SUBTYPE[set_["arch"]], uuid)
            text, text_size = text_segment(relocated)
            syms = {s[1]: s[5] for s in nlists(relocated) if s[2] & 0x0E == 0x0E}
            ordered = sorted(syms.values())
            sizes = {}
            for sym, value in syms.items():
                later = [v for v in ordered if v > value]
                code_end = text + text_size
                sizes[sym] = (later[0] if later else text_code_end(relocated)) - value
            libs_by_name[name] = {
                "name": name, "path": install, "uuid": uuid_text(uuid), "text": text, "text_size": text_size,
                "load": text + set_["slide"], "symbols": syms, "sizes": sizes,
                "local": [s for s, local, _ in symbols if local],
            }
            images.append((name, install, relocated, text))
            # DeviceSupport layout: Symbols/<install path>.
            dest = os.path.join(home, set_["folder"], "Symbols") + install
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "wb") as f:
                f.write(relocated)
            address = align(address + len(relocated))
        records = write_cache(os.path.join(caches, f"{set_['id']}"), set_, images)
        names = demangled([s[1:] for lib in libs_by_name.values() for s in lib["symbols"]])
        manifest["sets"].append({
            "id": set_["id"], "os": f"{set_['os']} {set_['version']} ({set_['build']})", "arch": set_["arch"],
            "deviceSupport": os.path.join("home/Library/Developer/Xcode", set_["folder"], "Symbols"),
            "cache": f"caches/{set_['id']}/dyld_shared_cache_{set_['arch']}", "cacheLayout": set_["cache"],
            "exportOnly": set_["export_only"],
            "images": [{
                "name": lib["name"], "path": lib["path"], "uuid": lib["uuid"], "text": lib["text"],
                "file": rec["file"],
                "symbols": {s: v for s, v in sorted(lib["symbols"].items(), key=lambda kv: kv[1])},
                "localSymbols": lib["local"],
            } for lib, rec in zip(libs_by_name.values(), records)],
        })

        def expected(frames):
            out = []
            for f in frames:
                stored = f["symbol"]
                plain = stored[1:] if stored.startswith("_") else stored
                out.append({"image": f["image"], "address": f"0x{f['address']:x}",
                            "function": names.get(plain, plain), "offset": f["offset"]})
            return out

        if set_["id"] == "ios17":
            threads = [frames_for(libs_by_name, clamp_plan(p, libs_by_name)) for p in (IOS_MAIN_THREAD, IOS_WORKER_THREAD, IOS_EVENT_THREAD)]
            write_ips(os.path.join(reports, "ios17-system-frames.ips"), set_, libs_by_name, threads)
            manifest["reports"].append({"report": "ios17-system-frames.ips", "set": "ios17", "threads": [expected(t) for t in threads]})
        elif set_["id"] == "ios14":
            threads = [frames_for(libs_by_name, clamp_plan(p, libs_by_name)) for p in (IOS_MAIN_THREAD, IOS_EVENT_THREAD)]
            write_metrickit(os.path.join(reports, "ios14-system-frames-metrickit.json"), set_, libs_by_name, threads)
            manifest["reports"].append({"report": "ios14-system-frames-metrickit.json", "set": "ios14", "threads": [expected(t) for t in threads]})
        else:
            threads = [frames_for(libs_by_name, clamp_plan(p, libs_by_name)) for p in (MAC_MAIN_THREAD, MAC_WORKER_THREAD)]
            write_sample(os.path.join(reports, "macos14-system-frames-sample.txt"), set_, libs_by_name, threads)
            manifest["reports"].append({"report": "macos14-system-frames-sample.txt", "set": "macos14", "threads": [expected(t) for t in threads]})
    with open(os.path.join(root, "manifest.json"), "w") as f:
        f.write(json.dumps(manifest, indent=1) + "\n")


def text_code_end(data):
    for name, at, vmaddr, vmsize, fileoff, filesize in segments(data):
        if name == "__TEXT":
            nsects, = struct.unpack_from("<I", data, at + 64)
            for s in range(nsects):
                sat = at + 72 + 80 * s
                if data[sat:sat + 16].rstrip(b"\0") == b"__text":
                    addr, size = struct.unpack_from("<QQ", data, sat + 32)
                    return addr + size
    raise SystemExit("no __text")


def big(work, count, kind, pad):
    """A DeviceSupport-sized input for the benchmark (Benchmarks/system_symbols.py): `count`
    dylibs, each 400 functions and `pad` bytes of constant data in __TEXT (so the whole is
    several GB, as Apple's are), as a DeviceSupport folder or as one split cache."""
    os.makedirs(work, exist_ok=True)
    template = {"id": "bench", "platform": "ios", "os": "iPhone OS", "version": "17.5", "build": "21F79", "arch": "arm64e",
                "cache": "split", "export_only": "", "region": 0x180000000, "slide": 0x1000000}
    symbols = [(f"-[BenchClass{k % 7} method{k}:]", True, 6) if k % 2 else (f"_bench_function_{k}", False, 6) for k in range(400)]
    folder = os.path.join(work, "template")
    os.makedirs(folder, exist_ok=True)
    src = os.path.join(folder, "lib.c")
    with open(src, "w") as f:
        f.write(c_source(symbols))
        f.write(f"__attribute__((used)) static const unsigned char padding[{pad}] = {{1}};\n")
    obj, linked_path = os.path.join(folder, "lib.o"), os.path.join(folder, "linked")
    subprocess.run(["clang", "-target", "arm64e-apple-ios17.5", "-O1", "-c", src, "-o", obj], check=True)
    subprocess.run(["ld64.lld-19", "-arch", "arm64e", "-platform_version", "ios", "17.5", "17.5", "-dylib", "-install_name",
                    "/System/Library/PrivateFrameworks/Bench.framework/Bench", obj, "-o", linked_path],
                   check=True, stderr=subprocess.DEVNULL)
    with open(linked_path, "rb") as f:
        linked = f.read()
    images = []
    address = template["region"] + align(0x200 + 64 * count + 100 * count) + PAGE
    for i in range(count):
        if i == (count + 1) // 2:
            address += PAGE  # the subcache's own header page
        name = f"Bench{i:04d}"
        install = f"/System/Library/PrivateFrameworks/{name}.framework/{name}"
        relocated = relocate(linked, address, SUBTYPE["arm64e"], uuid_for("bench", name))
        images.append((name, install, relocated, address))
        address = align(address + len(relocated))
    if kind == "folder":
        root = os.path.join(work, "iOS DeviceSupport", "17.5 (21F79) arm64e", "Symbols")
        for name, install, data, _ in images:
            dest = root + install
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "wb") as f:
                f.write(data)
    else:
        write_cache(os.path.join(work, "cache"), template, images)
    # What the benchmark report needs: name, UUID, load address and function addresses.
    listing = []
    for name, install, data, text in images:
        uuid = next(data[at + 8:at + 24] for at, cmd, _ in load_commands(data) if cmd == LC_UUID)
        syms = sorted(v for _, _, t, _, _, v in nlists(data) if t & 0x0E == 0x0E)
        listing.append({"name": name, "path": install, "uuid": uuid_text(uuid), "text": text,
                        "textSize": text_segment(data)[1], "symbols": syms[:60]})
    with open(os.path.join(work, f"{kind}.json"), "w") as f:
        json.dump(listing, f)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "build":
        build(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] in ("bigcache", "bigfolder"):
        big(sys.argv[2], int(sys.argv[3]), "cache" if sys.argv[1] == "bigcache" else "folder", int(sys.argv[4]))
    else:
        sys.exit(__doc__)
