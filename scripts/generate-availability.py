#!/usr/bin/env python3
"""Writes scripts/availability/stdlib.json: the standard-library APIs Apple's OS releases ship, each
with the macOS version that introduced it, for scripts/check-availability.py (issue 50: a Linux
build cannot see that `String(validating:as:)` is macOS 15 only).

Two sources, one parser (the availability attributes and the declarations they precede):
  --checkout DIR      a checkout of github.com/swiftlang/swift: `@available(SwiftStdlib X.Y, *)` in
                      stdlib/public/**/*.swift, expanded to macOS versions by utils/availability-macros.def
                      (a macro still at 9999 is an unreleased OS: newer than any floor)
  --interfaces FILE…  a toolchain's .swiftinterface files (Swift, _Concurrency, Synchronization,
                      _StringProcessing), where the compiler has already expanded those macros
The committed table was made from the interfaces of the toolchain named in its "source" field
(the full checkout is 1.7 GB); either source gives the same facts for a release.

What is kept, keyed the way the check looks for uses (only what is newer than macOS 13, the
oldest floor the package could go back to):
  types         top-level types, by name (Span, InlineArray, Mutex, …)
  inits         `Type(label:` for initializers with a first label, by the oldest declaration of
                that type and label (so `String(validating:` is 15.0, not one overload's version)
  members       member names, by their oldest declaration anywhere (a name that also exists on an
                older API is never newer), e.g. `span`
  conformances  `Type: Protocol` introduced later, with the functions that return Type and the
                members of BidirectionalCollection/RandomAccessCollection extensions that then
                outrank Sequence's (`enumerated().reversed()` on macOS 26's SDK)

Usage: scripts/generate-availability.py (--checkout DIR | --interfaces FILE…) [-o OUT] [--source TEXT]
"""
import argparse
import glob
import json
import os
import re
import sys

THRESHOLD = (13, 0)
# Conformances that matter: a type that becomes a collection gets members that outrank the
# Sequence ones it had (BidirectionalCollection.reversed() over Sequence.reversed()).
COLLECTIONS = ("Collection", "BidirectionalCollection", "RandomAccessCollection")
AVAILABLE = re.compile(r"@available\(([^)]*)\)")
DECL = re.compile(
    r"^\s*(?:@[\w:.()\", ]+\s+)*(?:(?:public|open|final|static|class|mutating|nonmutating|override|"
    r"convenience|required|indirect|nonisolated|consuming|borrowing|@\w+(?:\([^)]*\))?)\s+)*"
    r"(func|init|var|let|struct|class|enum|protocol|actor|typealias|extension|subscript)\b\s*([^\s(<:{=]*)(.*)$")
MACRO = re.compile(r"^\s*(SwiftStdlib)\s+([\d.]+)\s*:\s*(.*)$")


def version(text):
    return tuple(int(p) for p in text.split("."))


def text(v):
    return ".".join(str(p) for p in v) if v else None


def read_macros(path):
    macros = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            match = MACRO.match(line.split("#", 1)[0])
            if not match:
                continue
            mac = re.search(r"macOS\s+([\d.]+)", match.group(3))
            if mac:
                macros[match.group(2)] = version(mac.group(1))
    return macros


def macos_of(attribute, macros):
    """The macOS version an @available(...) argument list introduces, or None (swift-only,
    deprecated-only, unavailable)."""
    if "unavailable" in attribute or attribute.strip().startswith("swift"):
        return None
    match = re.search(r"\bmacOS\s+([\d.]+)", attribute)
    if match:
        return version(match.group(1))
    match = re.search(r"\bSwiftStdlib\s+([\d.]+)", attribute)
    if match and match.group(1) in macros:
        return macros[match.group(1)]
    if match:
        return (9999,)
    return None


def first_label(rest):
    """The first argument label of a parameter list `(label name: T, …)`, '' when unlabeled."""
    match = re.match(r"\s*(?:<[^>]*>)?\s*\(\s*(\w+)(\s+\w+)?\s*:", rest)
    if not match:
        return None
    return "" if match.group(1) == "_" else match.group(1)


def short(name):
    return name.split(".")[-1].split("<")[0]


def parse(path, macros, facts):
    pending = None
    stack = []  # (kind, type name, inherited macOS, depth)
    depth = 0
    with open(path, encoding="utf-8", errors="replace") as handle:
        lines = handle.read().splitlines()
    for index, line in enumerate(lines):
        code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line).split("//", 1)[0]
        for attribute in AVAILABLE.findall(code):
            found = macos_of(attribute, macros)
            if found is not None:
                pending = max(pending, found) if pending else found
        match = DECL.match(code)
        if match and not code.lstrip().startswith("@available") or (match and re.search(r"\)\s+\w", code)):
            kind, name, rest = match.group(1), match.group(2), match.group(3)
            public = re.search(r"\b(public|open)\b", code) is not None or (stack and stack[-1][0] == "protocol")
            inherited = stack[-1][2] if stack else None
            introduced = pending or inherited
            context = stack[-1][1] if stack else None
            if kind == "extension":
                conformance = re.match(r"\s*:\s*([\w.]+)", rest)
                if conformance and pending and short(conformance.group(1)) in COLLECTIONS:
                    facts["conformances"].append((short(name), short(conformance.group(1)), pending))
            elif public and kind in ("struct", "class", "enum", "protocol", "actor", "typealias") and not stack:
                facts["types"].setdefault(short(name), []).append(introduced)
            elif public and kind == "init" and context:
                # The parameter list may go on over the next lines (the sources wrap long ones).
                following = " ".join(lines[index:index + 4])
                head = following[following.index("init") + 4:].lstrip("?!")
                label = first_label(head)
                if label:
                    facts["inits"].setdefault(f"{context}({label}:", []).append(introduced)
            elif public and kind in ("func", "var", "let") and name:
                facts["members"].setdefault(short(name), []).append(introduced)
                if kind == "func" and context in COLLECTIONS[1:] and stack[-1][4]:
                    facts["collection"].add(short(name))
                # Functions that return the type itself (not a nested Index or Iterator).
                returned = re.search(r"->\s*([\w.]+)(?:<[^>]*>)?\s*(?:\{|where\b|$)", rest)
                if kind == "func" and returned and re.match(r"^\w+$", name):
                    facts["producers"].setdefault(short(returned.group(1)), set()).add(short(name))
            opens = code.count("{") - code.count("}")
            if kind in ("struct", "class", "enum", "protocol", "actor", "extension") and "{" in code:
                # (kind, type, inherited macOS, depth, unconstrained: an extension without `where`)
                stack.append((kind, short(name), introduced, depth, " where " not in code))
            depth += opens
            pending = None
            while stack and depth <= stack[-1][3]:
                stack.pop()
            continue
        depth += code.count("{") - code.count("}")
        while stack and depth <= stack[-1][3]:
            stack.pop()
        if code.strip() and not code.strip().startswith("@") and not code.strip().startswith("#"):
            pending = None if not match else pending


def newest_needed(versions):
    """A name is as old as its oldest declaration; None (no availability) is always there."""
    if any(v is None for v in versions):
        return None
    return min(versions)


def build(paths, macros, source):
    facts = {"types": {}, "inits": {}, "members": {}, "conformances": [], "collection": set(), "producers": {}}
    for path in paths:
        parse(path, macros, facts)
    table = {"source": source, "types": {}, "inits": {}, "members": {}, "conformances": []}
    for key in ("types", "inits", "members"):
        for name, versions in sorted(facts[key].items()):
            needed = newest_needed(versions)
            if needed and needed > THRESHOLD:
                table[key][name] = text(needed)
    seen = set()
    for type_name, protocol, introduced in facts["conformances"]:
        if introduced <= THRESHOLD or (type_name, protocol) in seen:
            continue
        seen.add((type_name, protocol))
        producers = sorted(facts["producers"].get(type_name, []))
        if not producers:
            continue
        table["conformances"].append({
            "type": type_name, "protocol": protocol, "macOS": text(introduced), "producers": producers,
            "members": sorted(facts["collection"]),
        })
    return table


def main(arguments):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--checkout")
    group.add_argument("--interfaces", nargs="+")
    parser.add_argument("-o", "--output", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "availability", "stdlib.json"))
    parser.add_argument("--source", default=None, help="what the table was made from, for its header")
    options = parser.parse_args(arguments)
    if options.checkout:
        macros = read_macros(os.path.join(options.checkout, "utils", "availability-macros.def"))
        paths = sorted(glob.glob(os.path.join(options.checkout, "stdlib", "public", "**", "*.swift"), recursive=True))
        source = options.source or f"swiftlang/swift checkout {options.checkout}"
    else:
        macros, paths = {}, options.interfaces
        source = options.source or "toolchain interfaces: " + ", ".join(os.path.basename(os.path.dirname(p)) for p in paths)
    if not paths:
        print("generate-availability: no Swift sources found", file=sys.stderr)
        return 1
    table = build(paths, macros, source)
    with open(options.output + ".tmp", "w", encoding="utf-8") as handle:
        json.dump(table, handle, indent=1, sort_keys=True)
        handle.write("\n")
    os.replace(options.output + ".tmp", options.output)
    print(f"generate-availability: {len(table['types'])} types, {len(table['inits'])} initializers, "
          f"{len(table['members'])} members, {len(table['conformances'])} conformances -> {options.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
