#!/usr/bin/env python3
"""Refuses Swift that compiles on Linux only, outside the branch of a platform `#if` that is Linux's.

Each of these stopped (or trapped) a macOS build once (issue 36):
  sighandler_t                      glibc's name; Darwin calls it sig_t. Use the function type
                                    `@convention(c) (Int32) -> Void`.
  st_mtim / st_atim / st_ctim       glibc's stat fields; Darwin has st_mtimespec …
                                    (RegularFile.modificationTime).
  SOCK_STREAM.rawValue (and DGRAM)  an enum on glibc, an Int32 on Darwin (streamSocketType in the
                                    test support).
  posix_spawn_file_actions_t(), posix_spawnattr_t()
                                    structs on glibc, opaque pointers on Darwin.
  UInt64(x.st_dev) and the like     dev_t is signed on Darwin: a negative one traps;
                                    UInt64(truncatingIfNeeded:).
  import SymbolicateX inside a Linux-only branch
                                    the module is then missing on macOS.

In test code (a path with a Tests folder), string literals are checked too, for the Linux userland a
test may not assume (issue 50; each failed on a Mac): /proc/self/…, /dev/full, GNU
`env --default-signal`, `sha256sum` (macOS has `shasum -a 256`), Debian's /usr/share/bash-completion
and /usr/lib/postgresql, `runuser`, `dpkg`, and ~/.cache (macOS caches live in ~/Library/Caches).
Test support's PortableTools gives the portable spelling of each. Such a literal is allowed in a
Linux branch, as the argument of `fileExists(atPath:` or `ExternalTool.find(` (a probe with a
fallback), or on a line that says `// guarded: WHY`.

A line is allowed inside a branch that only Linux compiles: `#if os(Linux)`, `canImport(Glibc)`,
`canImport(Musl)` (and `#elseif` of those), or the `#else` of a chain whose earlier branches were
Darwin's (`canImport(Darwin)`, `os(macOS)`). Comments and string literals are not checked.

Usage: scripts/check-linux-only.py [ROOT …]   (default: Sources and Tests of the package)
Prints file:line: what and why for each finding; exits 1 when there is one.
"""
import os
import re
import sys

SPELLINGS = [
    (re.compile(r"\bsighandler_t\b"), "sighandler_t is glibc's; use @convention(c) (Int32) -> Void"),
    (re.compile(r"\bst_[amc]tim\b"), "st_mtim/st_atim/st_ctim are glibc's; use RegularFile.modificationTime"),
    (re.compile(r"\bSOCK_(STREAM|DGRAM|RAW|SEQPACKET)\.rawValue\b"), "SOCK_*.rawValue is glibc's enum; use streamSocketType"),
    (re.compile(r"\bposix_spawn(_file_actions|attr)_t\(\)"), "posix_spawn types are opaque pointers on Darwin"),
    (
        re.compile(r"\b(U?Int(8|16|32|64)?)\(\s*[\w.]*\bst_(dev|rdev)\s*\)"),
        "dev_t is signed on Darwin: use init(truncatingIfNeeded:)",
    ),
]
# Linux userland named in a test's string literals (see the docstring).
LITERALS = [
    (re.compile(r"/proc/self\b|/proc/\d|\"/proc/"), "/proc is Linux's; macOS has none"),
    (re.compile(r"/dev/full\b"), "/dev/full is Linux's: PortableTools.fullDevice (nil on macOS)"),
    (re.compile(r"--default-signal"), "`env --default-signal` is GNU's: PortableTools.withDefaultSignals"),
    (re.compile(r"\bsha256sum\b"), "sha256sum is GNU's (macOS: shasum -a 256): PortableTools.sha256(ofFile:)"),
    (re.compile(r"/usr/share/bash-completion\b"), "Debian's bash-completion path: PortableTools.bashCompletionLoader"),
    (re.compile(r"/usr/lib/postgresql\b"), "Debian's PostgreSQL path: scripts/with-postgres.sh finds the server"),
    (re.compile(r"\brunuser\b|\bdpkg\b"), "a Debian/util-linux tool macOS does not have"),
    (re.compile(r"(~|HOME|home)/\.cache\b|\"\.cache/"), "~/.cache is the Linux user cache; macOS uses ~/Library/Caches (UserCacheFolder)"),
]
PROBE = re.compile(r"fileExists\(atPath:\s*\"[^\"]*\"|ExternalTool\.find\(\s*\"[^\"]*\"")
PROJECT_IMPORT = re.compile(r"^\s*import\s+Symbolicate\w*")
LINUX = re.compile(r"os\(Linux\)|canImport\((Glibc|Musl)\)")
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
DARWIN = re.compile(r"os\((macOS|iOS|tvOS|watchOS|visionOS)\)|canImport\(Darwin\)")


def branch_kind(condition):
    """'linux' when only Linux compiles the branch, 'darwin' for Darwin's, None otherwise."""
    negated = condition.strip().startswith("!")
    if LINUX.search(condition):
        return "darwin" if negated else "linux"
    if DARWIN.search(condition):
        return "linux" if negated else "darwin"
    return None


def is_test_code(path):
    return "Tests" in os.path.abspath(path).split(os.sep)


def check_file(path, display):
    findings = []
    test_code = is_test_code(path)
    # One frame per open #if: [kinds of the branches so far, whether the current one is Linux's].
    stack = []
    with open(path, encoding="utf-8", errors="replace") as handle:
        lines = handle.read().splitlines()
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("#if"):
            kind = branch_kind(stripped[3:])
            stack.append([[kind], kind == "linux"])
            continue
        if stripped.startswith("#elseif") and stack:
            kind = branch_kind(stripped[7:])
            stack[-1][0].append(kind)
            stack[-1][1] = kind == "linux"
            continue
        if stripped.startswith("#else") and stack:
            kinds = stack[-1][0]
            stack[-1][1] = "darwin" in kinds and "linux" not in kinds and None not in kinds
            stack[-1][0].append("else")
            continue
        if stripped.startswith("#endif") and stack:
            stack.pop()
            continue
        in_linux_branch = any(frame[1] for frame in stack)
        if test_code and not in_linux_branch and "// guarded:" not in line:
            literals = " ".join(STRING.findall(PROBE.sub("", line.split(" //", 1)[0] if line.lstrip().startswith("//") is False else "")))
            for pattern, why in LITERALS:
                if pattern.search(literals):
                    findings.append(f"{display}:{number}: a test names Linux userland outside a Linux #if: {why}: {stripped[:100]}")
        # String literals and comments are not code.
        code = STRING.sub('""', line).split("//", 1)[0]
        if not in_linux_branch:
            for pattern, why in SPELLINGS:
                if pattern.search(code):
                    findings.append(f"{display}:{number}: {why}: {stripped[:100]}")
        elif PROJECT_IMPORT.match(code):
            findings.append(f"{display}:{number}: a package module imported only on Linux is missing on macOS: {stripped}")
    return findings


def main(arguments):
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    roots = arguments or [os.path.join(package, "Sources"), os.path.join(package, "Tests")]
    findings = []
    for root in roots:
        candidates = [root] if os.path.isfile(root) else []
        for base, folders, files in os.walk(root):
            folders.sort()
            candidates += [os.path.join(base, name) for name in sorted(files) if name.endswith(".swift")]
        for path in candidates:
            findings += check_file(path, os.path.relpath(path, os.getcwd()))
    for finding in findings:
        print(finding)
    if findings:
        print(f"check-linux-only: {len(findings)} Linux-only spelling(s) outside a Linux #if (see scripts/check-linux-only.py)", file=sys.stderr)
        return 1
    print("check-linux-only: no Linux-only spellings outside a Linux #if")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
