#!/usr/bin/env python3
"""What Apple's SDK refuses and a Linux build accepts, found on Linux (issue 50). Three checks over
Sources, Tests and Fuzz/Targets (comments and string literals are not code):

  availability  a standard-library or Foundation API newer than the package's macOS floor
                (`.macOS(.vN)` in Package.swift), from scripts/availability/stdlib.json (made by
                scripts/generate-availability.py from the Swift repository's availability) and
                scripts/availability/foundation.json (Apple's documentation). A use inside
                `if #available(macOS N…)` or a declaration marked `@available(macOS N…)` with N new
                enough is allowed. Names the package declares itself are its own, not the SDK's.
  sendable      a static or global stored property of a type Apple's SDK does not mark Sendable
                (scripts/availability/not-sendable.json): an error in Swift 6 mode there, while
                swift-corelibs-foundation marks several of them Sendable. `nonisolated(unsafe)`
                is an explicit decision and allowed.
  sendable      also: a Process or Pipe made in a file and used inside a @Sendable closure there
                (DispatchQueue…async, Thread { }, Task { }, termination/readability handlers).
  os-only-var   a `var` mutated only inside an OS-conditional `#if` (os(…), canImport(Glibc|Darwin|
                Musl)): on the other OS it is never mutated, a warning that -warnings-as-errors
                makes an error. Mutations in every branch of one chain, `#else` included, are fine.

Usage: scripts/check-mac-sdk.py [--floor MAJOR] [PATH …]   (default: Sources Tests Fuzz/Targets)
Prints file:line: check: what; exits 1 when there is a finding.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)
STRING = re.compile(r'#*"(?:[^"\\]|\\.)*"#*')
OS_CONDITION = re.compile(r"os\(\w+\)|canImport\((Glibc|Darwin|Musl|WinSDK)\)")


def version(text):
    return tuple(int(p) for p in text.split("."))


def package_floor():
    with open(os.path.join(PACKAGE, "Package.swift"), encoding="utf-8") as handle:
        match = re.search(r"\.macOS\(\.v(\d+)(?:_(\d+))?\)", handle.read())
    if not match:
        raise SystemExit("check-mac-sdk: no .macOS(.vN) platform in Package.swift")
    return (int(match.group(1)), int(match.group(2) or 0))


def load(name):
    with open(os.path.join(HERE, "availability", name), encoding="utf-8") as handle:
        return json.load(handle)


def code_lines(path):
    """The file's lines with string literals emptied and comments removed (block comments too)."""
    with open(path, encoding="utf-8", errors="replace") as handle:
        text = handle.read()
    out, in_block, in_multiline = [], False, False
    for line in text.splitlines():
        if in_multiline:
            if '"""' in line:
                in_multiline = False
                line = '""' + line.split('"""', 1)[1]
            else:
                out.append("")
                continue
        if '"""' in line and line.count('"""') % 2 == 1:
            in_multiline = True
            line = line.split('"""', 1)[0] + '""'
        if in_block:
            if "*/" in line:
                in_block = False
                line = line.split("*/", 1)[1]
            else:
                out.append("")
                continue
        line = STRING.sub('""', line)
        if "/*" in line:
            before, after = line.split("/*", 1)
            if "*/" in after:
                line = before + after.split("*/", 1)[1]
            else:
                in_block = True
                line = before
        out.append(line.split("//", 1)[0])
    return out


def swift_files(roots):
    for root in roots:
        if os.path.isfile(root):
            yield root
            continue
        for base, folders, files in os.walk(root):
            folders.sort()
            for name in sorted(files):
                if name.endswith(".swift"):
                    yield os.path.join(base, name)


def declared_names(files):
    """Types and members the package declares itself."""
    types, members = set(), set()
    for lines in files.values():
        for line in lines:
            for match in re.finditer(r"\b(?:struct|class|enum|protocol|actor|typealias)\s+(\w+)", line):
                types.add(match.group(1))
            for match in re.finditer(r"\b(?:func|var|let|case)\s+(\w+)", line):
                members.add(match.group(1))
    return types, members


def availability_patterns(floor, declared_types, declared_members):
    """(regex, API, macOS) for every API newer than `floor` the tables know."""
    patterns = []
    for table in (load("stdlib.json"), load("foundation.json")):
        for name, introduced in table.get("types", {}).items():
            if version(introduced) > floor and name not in declared_types and not name.startswith("_"):
                patterns.append((re.compile(r"(?<![.\w])" + re.escape(name) + r"\b"), name, introduced))
        for key, introduced in table.get("inits", {}).items():
            if version(introduced) > floor and key.split("(")[0] not in declared_types:
                patterns.append((re.compile(r"(?<![.\w])" + re.escape(key)), key + "…)", introduced))
        for key, introduced in table.get("members", {}).items():
            bare = key.split("(")[0]
            if version(introduced) <= floor or bare in declared_members or bare.startswith("_"):
                continue
            tail = re.escape(key) if "(" in key else re.escape(key) + r"\b"
            # After a value (`x.span`, `Task.immediate`), not a leading-dot member of some other
            # type (`inTransaction(.immediate)` is GRDB's case).
            patterns.append((re.compile(r"(?<=[\w)\]?!])\." + tail), "." + key, introduced))
        for conformance in table.get("conformances", []):
            if version(conformance["macOS"]) <= floor:
                continue
            for producer in conformance["producers"]:
                for member in conformance["members"]:
                    patterns.append((
                        re.compile(r"\." + re.escape(producer) + r"\([^()]*\)\s*\." + re.escape(member) + r"\b"),
                        f".{producer}().{member} ({conformance['type']}: {conformance['protocol']})", conformance["macOS"]))
    return patterns


def check_availability(display, lines, floor, patterns):
    findings = []
    guards = []  # (depth at which the guard's block ends, macOS version it allows)
    depth = 0
    pending = None
    for number, line in enumerate(lines, 1):
        guard = re.search(r"[#@]available\(\s*macOS\s+([\d.]+)", line)
        if guard:
            pending = version(guard.group(1))
        allowed = max([floor] + [g[1] for g in guards] + ([pending] if pending else []))
        for pattern, api, introduced in patterns:
            if version(introduced) > allowed and pattern.search(line):
                findings.append(f"{display}:{number}: availability: {api} is macOS {introduced}+, newer than the "
                                f"package's floor macOS {'.'.join(map(str, floor))} (Package.swift): {line.strip()[:100]}")
        opens, closes = line.count("{"), line.count("}")
        if pending and opens:
            guards.append((depth, pending))
            pending = None
        depth += opens - closes
        while guards and depth <= guards[-1][0]:
            guards.pop()
    return findings


def check_sendable(display, lines, not_sendable):
    findings = []
    names = "|".join(re.escape(n) for n in sorted(not_sendable, key=len, reverse=True))
    stored = re.compile(
        r"^\s*(?:@\w+\s+)*((?:(?:private|fileprivate|internal|package|public|open)(?:\(set\))?\s+)*)"
        r"(nonisolated\(unsafe\)\s+)?((?:(?:private|fileprivate|internal|package|public|open)\s+)*)(static\s+|class\s+)?"
        r"(?:let|var)\s+\w+\s*(?::\s*(?:" + names + r")[!?]?\s*=|=\s*(?:" + names + r")\(|:\s*(?:" + names + r")[!?]?\s*$)")
    depth = 0
    type_depths = []
    for number, line in enumerate(lines, 1):
        match = stored.match(line)
        if match and not match.group(2):
            is_static = bool(match.group(4))
            is_global = depth == 0
            if is_static or is_global:
                findings.append(f"{display}:{number}: sendable: a {'static' if is_static else 'global'} of a type Apple's SDK "
                                f"does not mark Sendable (scripts/availability/not-sendable.json): {line.strip()[:100]}")
        depth += line.count("{") - line.count("}")
    return findings


MUTATION = r"(?:\b{0}\s*(?:[-+*/%|&^]|<<|>>)?=(?!=)|\b{0}\s*\[[^\]]*\]\s*=(?!=)|\b{0}\.\w+\s*=(?!=)|&{0}\b|\b{0}\.(?:append|insert|remove\w*|form\w*|subtract|sort|reverse|merge|update\w*|pop\w*|swap\w*|shuffle)\b)"


def check_os_only_var(display, lines):
    findings = []
    # Per line: the OS-conditional chain branches it sits in, as ((chain line, branch index), …).
    where = []
    chains = {}  # chain line -> [number of branches, has #else]
    stack = []  # [chain line or None, branch index]
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("#if"):
            is_os = bool(OS_CONDITION.search(stripped))
            stack.append([number if is_os else None, 0])
            if is_os:
                chains[number] = [1, False]
        elif stripped.startswith("#elseif") and stack:
            stack[-1][1] += 1
            if stack[-1][0]:
                chains[stack[-1][0]][0] += 1
        elif stripped.startswith("#else") and stack:
            stack[-1][1] += 1
            if stack[-1][0]:
                chains[stack[-1][0]][0] += 1
                chains[stack[-1][0]][1] = True
        elif stripped.startswith("#endif") and stack:
            stack.pop()
        where.append(tuple((c, b) for c, b in stack if c))
    for number, line in enumerate(lines, 1):
        for match in re.finditer(r"\bvar\s+(\w+)\b(?![^=]*\{\s*$)", line):
            name = match.group(1)
            declared_in = where[number - 1]
            depth, mutations = 0, []
            for later in range(number, len(lines)):
                text = lines[later]
                if later > number - 1 and re.search(MUTATION.format(re.escape(name)), text) and not re.search(r"\bvar\s+" + re.escape(name) + r"\b", text):
                    mutations.append(where[later])
                depth += text.count("{") - text.count("}")
                if depth < 0:
                    break
            if not mutations:
                continue
            outer = [m[len(declared_in):] for m in mutations]
            if any(not m for m in outer):
                continue
            covered = {}
            for m in outer:
                covered.setdefault(m[0][0], set()).add(m[0][1])
            if any(chains[c][1] and len(branches) == chains[c][0] for c, branches in covered.items()):
                continue
            first = min(c for c in covered)
            findings.append(f"{display}:{number}: os-only-var: `{name}` is mutated only inside the OS-conditional #if at line "
                            f"{first}: never mutated on the other OS (a warning, an error under -warnings-as-errors); "
                            f"use `let` with a value per branch")
    return findings


SENDABLE_CLOSURE = re.compile(
    r"(?:DispatchQueue(?:\.\w+)*(?:\([^)]*\))?\.async(?:After)?(?:\([^)]*\))?|Thread|Task(?:\.detached)?|"
    r"\.(?:terminationHandler|readabilityHandler|writeabilityHandler)\s*=)\s*\{")


def check_captures(display, lines):
    """A Process or Pipe made here and used inside a @Sendable closure (a dispatch block, a Thread,
    a Task, a handler): Apple's SDK marks neither Sendable."""
    findings = []
    names = set()
    for line in lines:
        for match in re.finditer(r"\b(?:let|var)\s+(\w+)\s*=\s*(?:Pipe|Process)\(\)", line):
            names.add(match.group(1))
        for match in re.finditer(r"\b(?:let|var)\s+\(?\s*(\w+)\s*,\s*(\w+)\s*\)?\s*=\s*\(?\s*(?:Pipe|Process)\(\)\s*,", line):
            names.update(match.groups())
    if not names:
        return findings
    pattern = re.compile(r"\b(" + "|".join(sorted(names)) + r")\b")
    for number, line in enumerate(lines, 1):
        start = SENDABLE_CLOSURE.search(line)
        if not start:
            continue
        depth = 0
        for later in range(number - 1, len(lines)):
            text = lines[later] if later > number - 1 else line[start.end() - 1:]
            used = pattern.search(text)
            if used:
                findings.append(f"{display}:{later + 1}: sendable: `{used.group(1)}` (a Process or Pipe) is captured by a "
                                f"@Sendable closure; Apple's SDK does not mark them Sendable: pass a file descriptor")
                break
            depth += text.count("{") - text.count("}")
            if depth <= 0:
                break
    return findings


def main(arguments):
    floor = None
    if arguments[:1] == ["--floor"]:
        floor = (int(arguments[1]), 0)
        arguments = arguments[2:]
    floor = floor or package_floor()
    roots = arguments or [os.path.join(PACKAGE, p) for p in ("Sources", "Tests", "Fuzz/Targets")]
    files = {path: code_lines(path) for path in swift_files(roots)}
    everything = {path: code_lines(path) for path in swift_files([os.path.join(PACKAGE, p) for p in ("Sources", "Tests")])}
    everything.update(files)
    declared_types, declared_members = declared_names(everything)
    patterns = availability_patterns(floor, declared_types, declared_members)
    not_sendable = load("not-sendable.json")["types"]
    findings = []
    for path, lines in files.items():
        display = os.path.relpath(path, os.getcwd())
        findings += check_availability(display, lines, floor, patterns)
        findings += check_sendable(display, lines, not_sendable)
        findings += check_os_only_var(display, lines)
        findings += check_captures(display, lines)
    for finding in findings:
        print(finding)
    if findings:
        print(f"check-mac-sdk: {len(findings)} finding(s) Apple's SDK would refuse (see scripts/check-mac-sdk.py)", file=sys.stderr)
        return 1
    print(f"check-mac-sdk: nothing newer than macOS {'.'.join(map(str, floor))}, no non-Sendable statics, no OS-only mutations")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
