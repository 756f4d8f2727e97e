#!/usr/bin/env python3
"""Writes the ground-truth files and crash reports for the generated fixtures.

  fixtures.py facts   FIXTURES_DIR   -> facts.json (llvm-symbolizer-19 answers)
  fixtures.py reports FIXTURES_DIR   -> reports/*.crash, reports/*.ips, reports/manifest.json
  fixtures.py logs    FIXTURES_DIR   -> logs/ (sample, spindump, MetricKit, .xccrashpoint) + logs/manifest.json
  fixtures.py verify  FIXTURES_DIR   -> cross-checks text vs .ips vs manifest vs binaries

Every address comes from the built binaries: crashing frames are the faulting or
trapping instruction, caller frames are real return addresses (the instruction
after the call). Expected functions/files/lines come from llvm-symbolizer-19
piped through `swift-demangle --simplified`, never from our own code.
Only the Python 3 standard library is used.
"""
import hashlib
import json
import os
import re
import struct
import subprocess
import sys

SYMBOLIZER = "llvm-symbolizer-19"
OBJDUMP = "llvm-objdump-19"
NM = "llvm-nm-19"
DEMANGLE = "swift-demangle"
CXXFILT = "llvm-cxxfilt-19"

CPU_NAMES = {0x0100000C: "arm64", 0x01000007: "x86_64"}


# --------------------------------------------------------------------------
# Mach-O (just enough: thin/fat headers, LC_UUID, __TEXT segment)
# --------------------------------------------------------------------------

def macho_slices(path):
    """Returns [{arch, uuid, textAddress, textSize}] for a thin or fat Mach-O."""
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack_from(">I", data, 0)[0]
    if magic == 0xCAFEBABE:
        count = struct.unpack_from(">I", data, 4)[0]
        slices = []
        for i in range(count):
            cputype, _, offset, size, _ = struct.unpack_from(">iiIII", data, 8 + 20 * i)
            slices.append(_thin_slice(data[offset:offset + size]))
        return slices
    return [_thin_slice(data)]


def _thin_slice(data):
    magic, cputype, _, _, ncmds, _, _, _ = struct.unpack_from("<IiiIIIII", data, 0)
    if magic != 0xFEEDFACF:
        raise ValueError("not a 64-bit Mach-O")
    offset = 32
    uuid = None
    text = None
    for _ in range(ncmds):
        cmd, cmdsize = struct.unpack_from("<II", data, offset)
        if cmd == 0x1B:
            raw = data[offset + 8:offset + 24].hex()
            uuid = "-".join([raw[0:8], raw[8:12], raw[12:16], raw[16:20], raw[20:32]])
        elif cmd == 0x19:
            segname = data[offset + 8:offset + 24].rstrip(b"\0").decode()
            vmaddr, vmsize = struct.unpack_from("<QQ", data, offset + 24)
            if segname == "__TEXT":
                text = (vmaddr, vmsize)
        offset += cmdsize
    return {"arch": CPU_NAMES[cputype & 0xFFFFFFFF], "uuid": uuid,
            "textAddress": text[0], "textSize": text[1]}


# --------------------------------------------------------------------------
# Disassembly helpers
# --------------------------------------------------------------------------

INSN = re.compile(r"^\s*([0-9a-f]+):\t(\S+)\s*(.*)$")
CALLS = {"bl", "blr", "callq", "call"}


class Disassembly:
    """Functions of one slice, as `llvm-objdump --macho -d` prints them."""

    def __init__(self, binary, arch):
        out = run([OBJDUMP, "--macho", "-d", "--no-show-raw-insn", "--arch=" + arch, binary])
        self.functions = {}
        current = None
        for line in out.splitlines():
            match = INSN.match(line)
            if match:
                if current is not None:
                    self.functions[current].append(
                        (int(match.group(1), 16), match.group(2), match.group(3)))
            elif line.endswith(":") and not line.startswith(("\t", " ", "(")) and "(__TEXT" not in line:
                current = line[:-1]
                self.functions.setdefault(current, [])

    def insns(self, function):
        if function not in self.functions or not self.functions[function]:
            raise KeyError("function not found in disassembly: " + function)
        return self.functions[function]

    def start(self, function):
        return self.insns(function)[0][0]

    def return_address(self, function, callee, nth=0):
        """Address of the instruction after the nth call in `function` whose operand
        mentions `callee` (`*` = any indirect call such as blr)."""
        insns = self.insns(function)
        found = 0
        for i, (_, mnemonic, operands) in enumerate(insns):
            if mnemonic not in CALLS:
                continue
            if callee == "*":
                if not (mnemonic == "blr" or operands.startswith("*")):
                    continue
            elif not re.search(r"(^|[\s:])" + re.escape(callee) + r"$", operands):
                continue
            if found == nth:
                return insns[i + 1][0]
            found += 1
        raise KeyError("no call to %s in %s" % (callee, function))

    def instruction(self, function, mnemonic, operand_prefix="", nth=0):
        found = 0
        for address, m, operands in self.insns(function):
            if m == mnemonic and operands.startswith(operand_prefix):
                if found == nth:
                    return address
                found += 1
        raise KeyError("no %s %s in %s" % (mnemonic, operand_prefix, function))


# --------------------------------------------------------------------------
# Oracle
# --------------------------------------------------------------------------

def run(argv, stdin=None):
    result = subprocess.run(argv, input=stdin, capture_output=True, text=True, check=True)
    return result.stdout


def symbolize(dwarf, arch, addresses):
    """Frames (innermost first) per address, as llvm-symbolizer-19 prints them
    after `swift-demangle --simplified`."""
    if not addresses:
        return []
    raw = run([SYMBOLIZER, "--obj=" + dwarf, "--inlining", "--default-arch=" + arch]
              + ["0x%x" % a for a in addresses])
    text = run([DEMANGLE, "--simplified"], stdin=raw)
    blocks = [b for b in text.strip("\n").split("\n\n")]
    if len(blocks) != len(addresses):
        raise RuntimeError("symbolizer returned %d blocks for %d addresses" % (len(blocks), len(addresses)))
    result = []
    for block in blocks:
        lines = block.split("\n")
        frames = []
        for i in range(0, len(lines), 2):
            path, line, column = lines[i + 1].rsplit(":", 2)
            frames.append({"function": lines[i], "file": path, "line": int(line), "column": int(column)})
        result.append(frames)
    return result


def nearest_symbols(binary, arch):
    """Sorted (address, demangled name) of defined text symbols, for the
    symbol-table fallback expectations."""
    out = run([NM, "--defined-only", "-n", "--arch=" + arch, binary])
    entries = []
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] in ("T", "t"):
            entries.append((int(parts[0], 16), parts[2]))
    # Mach-O prefixes C-level names with "_"; ObjC method names have no prefix.
    plain = [n[1:] if n.startswith("_") else n for _, n in entries]
    names = run([DEMANGLE, "--simplified"], stdin="\n".join(plain) + "\n").split("\n")
    names = [run([CXXFILT], stdin=n + "\n").strip() if n.startswith("_Z") else n for n in names[:len(entries)]]
    return [(a, names[i]) for i, (a, _) in enumerate(entries)]


def symbol_for(symbols, address):
    best = None
    for start, name in symbols:
        if start <= address:
            best = (start, name)
        else:
            break
    return best


# --------------------------------------------------------------------------
# Fixture catalogue
# --------------------------------------------------------------------------

class Fixture:
    def __init__(self, root, name, dsym, binary, arch):
        self.root = root
        self.name = name
        self.dsym = dsym  # relative to Fixtures/
        self.binary = binary
        self.arch = arch
        dwarf_name = os.path.basename(dsym).split(".")[0]
        self.dwarf = os.path.join(root, dsym, "Contents", "Resources", "DWARF", dwarf_name)
        self.binary_path = os.path.join(root, binary)
        slices = {s["arch"]: s for s in macho_slices(self.binary_path)}
        self.slice = slices[arch]
        self.uuid = self.slice["uuid"]
        self.text_address = self.slice["textAddress"]
        self.text_size = self.slice["textSize"]
        self.dis = Disassembly(self.binary_path, arch)
        self._symbols = None

    def symbols(self):
        if self._symbols is None:
            self._symbols = nearest_symbols(self.binary_path, self.arch)
        return self._symbols


def catalogue(root):
    return {
        "CrashApp": Fixture(root, "CrashApp", "dsyms/CrashApp.app.dSYM", "bin/CrashApp", "arm64"),
        "CrashApp-dwarf4": Fixture(root, "CrashApp-dwarf4", "dsyms/CrashApp-dwarf4.app.dSYM",
                                   "bin/CrashApp-dwarf4", "arm64"),
        "CrashKit": Fixture(root, "CrashKit", "dsyms/CrashKit.framework.dSYM", "bin/CrashKit", "arm64"),
        "MacApp-x86_64": Fixture(root, "MacApp", "dsyms/MacApp.app.dSYM", "bin/MacApp", "x86_64"),
        "MacApp-arm64": Fixture(root, "MacApp", "dsyms/MacApp.app.dSYM", "bin/MacApp", "arm64"),
        "MacApp-dwarf5-x86_64": Fixture(root, "MacApp-dwarf5", "dsyms/MacApp-dwarf5.app.dSYM",
                                        "bin/MacApp-dwarf5", "x86_64"),
        "MacApp-dwarf5-arm64": Fixture(root, "MacApp-dwarf5", "dsyms/MacApp-dwarf5.app.dSYM",
                                       "bin/MacApp-dwarf5", "arm64"),
    }


# Mangled names used below (Embedded Swift mangles with the `$e` prefix).
SWIFT_CLOSURE = "_$e8CrashApp13ProfileLoaderC4load4from6lengthSiSPys5UInt8VGSg_SitFs5Int32VAJ_SitcfU_"
SWIFT_LOAD = "_$e8CrashApp13ProfileLoaderC4load4from6lengthSiSPys5UInt8VGSg_SitF"
SWIFT_BUCKET = "_$e8CrashApp6BucketV7element2atxSi_tFSi_Tg5"
SWIFT_SELECT = "_$e8CrashApp19selectBucketElementySiAA0D0VySiG_SitF"
CXX_IMPORT_ALL = "__ZN6Engine7Storage11RecordStore9importAllEPKPKci"
CXX_CHECKSUM = "__ZN8CrashKit5Codec8checksumEPKhl"


def swift_force_unwrap_trap(fx):
    """The `brk #1` in the closure that llvm-symbolizer attributes to the
    force-unwrap failure (there are several traps; pick by meaning, not position)."""
    traps = [a for a, m, _ in fx.dis.insns(SWIFT_CLOSURE) if m == "brk"]
    answers = symbolize(fx.dwarf, fx.arch, traps)
    # The last one is the branch taken for records shorter than a key/value pair,
    # which is what the scenario feeds it.
    found = [a for a, frames in zip(traps, answers) if "Unexpectedly found nil" in frames[0]["function"]]
    if not found:
        raise KeyError("no force-unwrap trap found")
    return found[-1]


def swift_index_trap(fx):
    traps = [a for a, m, _ in fx.dis.insns(SWIFT_BUCKET) if m == "brk"]
    answers = symbolize(fx.dwarf, fx.arch, traps)
    for address, frames in zip(traps, answers):
        if "Index out of range" in frames[0]["function"]:
            return address
    raise KeyError("no index-out-of-range trap found")


def first_load(fx, function):
    """The first memory load of `function` (the null dereference)."""
    for address, mnemonic, operands in fx.dis.insns(function):
        if mnemonic in ("ldr", "ldp", "ldrb", "ldrsw") or (mnemonic.startswith("mov") and "(%rdi)" in operands):
            return address
    raise KeyError("no load in " + function)


def spin_loop(fx):
    """The conditional branch that closes the busy loop in ca_wait_for_migration."""
    for address, mnemonic, operands in fx.dis.insns("_ca_wait_for_migration"):
        if mnemonic in ("cbz", "cbnz", "b.eq", "je"):
            return address
    raise KeyError("no loop branch in ca_wait_for_migration")


# --------------------------------------------------------------------------
# facts.json
# --------------------------------------------------------------------------

def facts(root):
    cat = catalogue(root)
    wanted = []  # (fixture key, address, note)
    app = cat["CrashApp"]
    wanted += [
        ("CrashApp", swift_force_unwrap_trap(app), "Swift force-unwrap trap inside closure, inlined Fuga.init(json:) chain"),
        ("CrashApp", swift_index_trap(app), "Swift index-out-of-range trap in specialized generic Bucket.element(at:)"),
        ("CrashApp", first_load(app, "_ca_record_checksum"), "C null dereference, two inlined helpers"),
        ("CrashApp", app.dis.return_address(CXX_IMPORT_ALL, "_ca_record_checksum") - 1, "C++ namespaced method, return address - 1"),
        ("CrashApp", app.dis.return_address("-[CAProfileStore loadProfileNamed:]", "_objc_msgSend") - 1, "Objective-C method, return address - 1"),
        ("CrashApp", app.dis.return_address(SWIFT_LOAD, "_CKDecodeRecords") - 1, "Swift method calling into CrashKit, return address - 1"),
        ("CrashApp", spin_loop(app), "C busy loop (watchdog)"),
        ("CrashApp", app.dis.return_address("_main", "_app_run_scenario") - 1, "main, return address - 1"),
        ("CrashApp", app.dis.return_address(SWIFT_SELECT, SWIFT_BUCKET) - 1, "Swift generic specialization caller, return address - 1"),
    ]
    d4 = cat["CrashApp-dwarf4"]
    wanted += [
        ("CrashApp-dwarf4", swift_force_unwrap_trap(d4), "DWARF 4: Swift force-unwrap trap with inline chain"),
        ("CrashApp-dwarf4", first_load(d4, "_ca_record_checksum"), "DWARF 4: C null dereference with inline chain"),
        ("CrashApp-dwarf4", d4.dis.return_address("-[CAProfileStore loadProfileNamed:]", "_objc_msgSend") - 1, "DWARF 4: Objective-C method"),
    ]
    kit = cat["CrashKit"]
    wanted += [
        ("CrashKit", kit.dis.return_address("_ck_dispatch_record", "*") - 1, "CrashKit: indirect call to the app's handler, return address - 1"),
        ("CrashKit", kit.dis.return_address("_CKDecodeRecords", "_ck_dispatch_record") - 1, "CrashKit: decode loop, return address - 1"),
        ("CrashKit", kit.dis.start(CXX_CHECKSUM) + 4, "CrashKit: C++ namespaced template user"),
    ]
    for key in ("MacApp-x86_64", "MacApp-arm64", "MacApp-dwarf5-x86_64", "MacApp-dwarf5-arm64"):
        fx = cat[key]
        wanted += [
            (key, first_load(fx, "_mac_average"), "MacApp %s slice: null dereference, inlined helpers" % fx.arch),
            (key, fx.dis.return_address("_mac_process_job", "_mac_average") - 1, "MacApp %s slice: return address - 1" % fx.arch),
        ]

    entries = []
    for key in dict.fromkeys(k for k, _, _ in wanted):
        fx = cat[key]
        items = [(a, n) for k, a, n in wanted if k == key]
        answers = symbolize(fx.dwarf, fx.arch, [a for a, _ in items])
        for (address, note), frames in zip(items, answers):
            entries.append({
                "dsym": fx.dsym, "binary": fx.binary, "arch": fx.arch, "uuid": fx.uuid.upper(),
                "address": "0x%x" % address, "note": note, "frames": frames,
            })
    write_json(os.path.join(root, "facts.json"), entries)


def write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    command, root = sys.argv[1], os.path.abspath(sys.argv[2])
    if command == "facts":
        facts(root)
    elif command == "verify":
        import verify  # noqa: E402  (sibling module)
        verify.verify(root)
    elif command == "logs":
        import logs  # noqa: E402  (sibling module)
        logs.write_all(root, sys.modules[__name__])
    elif command == "reports":
        import reports  # noqa: E402  (sibling module)
        reports.write_all(root, sys.modules[__name__])
    else:
        sys.exit("usage: fixtures.py facts|reports|logs|verify FIXTURES_DIR")
