#!/usr/bin/env python3
"""What LIEF (an independent Mach-O and dyld shared cache reader) sees in the system-symbols
fixtures, as JSON on stdout, for the tests to compare with symbolicate's own readers.

    lief_listing.py macho FILE...   UUID, architecture and defined symbols of Mach-O files
    lief_listing.py dsc CACHE       images (install name, address, UUID, symbols) of a dyld
                                    shared cache, through lief.dsc

Exits 3 with the reason on stderr when LIEF (or its dyld shared cache reader) is missing.
"""
import json
import sys

try:
    import lief
except ImportError as error:
    print(f"LIEF is not installed ({error}); scripts/setup.sh installs it with pip", file=sys.stderr)
    sys.exit(3)

lief.logging.disable()


def uuid_text(raw):
    h = bytes(raw).hex().upper()
    return f"{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def describe(binary):
    symbols = sorted(
        [s.name, s.value] for s in binary.symbols if s.raw_type & 0xE0 == 0 and s.raw_type & 0x0E == 0x0E)
    exports = []
    if binary.has_dyld_info or getattr(binary, "has_dyld_exports_trie", False):
        base = binary.imagebase
        trie = binary.dyld_exports_trie if getattr(binary, "has_dyld_exports_trie", False) else binary.dyld_info
        exports = sorted([e.symbol.name, base + e.address] for e in trie.exports)
    return {
        "uuid": uuid_text(binary.uuid.uuid) if binary.has_uuid else None,
        "symbols": symbols, "exports": exports,
    }


def macho(paths):
    out = []
    for path in paths:
        fat = lief.MachO.parse(path)
        for binary in fat:
            out.append({"file": path, **describe(binary)})
    print(json.dumps(out))


def dsc(path):
    cache = lief.dsc.load(path) if hasattr(lief, "dsc") else None
    if cache is None:
        print(f"LIEF {lief.__version__} cannot read dyld shared caches here: lief.dsc.load returned nothing "
              "(the PyPI build prints 'Dyld shared cache not available for this build')", file=sys.stderr)
        sys.exit(3)
    out = []
    for library in cache.libraries:
        binary = library.get()
        entry = {"path": library.path, "address": library.address}
        if binary is not None:
            entry.update(describe(binary))
        out.append(entry)
    print(json.dumps(out))


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "macho":
        macho(sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "dsc":
        dsc(sys.argv[2])
    else:
        sys.exit(__doc__)
