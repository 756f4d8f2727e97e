#!/usr/bin/env python3
"""Fails when a test compares a measured duration with a limit (issue 39).

A test that asserts wall-clock (or CPU) time passes on a quiet machine and fails on a busy one:
`make test` then breaks for whoever runs it while other builds run, and CI runs right after a
session on the same two cores. What a duration stood for is checked deterministically instead
(the number of connection attempts, what answered before any request was sent, a count of
operations); durations belong in Benchmarks/ with their figures in its README.

What counts as a measured duration: a reading of a clock (`Date()`, `.now`, `ContinuousClock`,
`SuspendingClock`, `DispatchTime.now()`, `clock_gettime`, `CFAbsoluteTimeGetCurrent`,
`systemUptime`, `mach_absolute_time`, `timeIntervalSince…`, `.measure {`), a name assigned from
one, and a function of the file whose body reads a clock. Flagged:
  - an assertion (`#expect`, `#require`, `XCTAssert…`, `precondition`, `assert`) that compares
    (`<`, `<=`, `>`, `>=`) something measured;
  - an `if`/`guard` comparing something measured whose block records an issue or fails;
  - the `.timeLimit(…)` trait.
A time limit that only stops a hung process (a run killed after a generous timeout, a deadline
loop waiting for a server to start) is not a comparison of a measured duration and is allowed.

usage: check-timing-tests.py [FOLDER…]   (default: Tests)
Exit 0 when nothing is found, 1 with one line per finding (file:line: what) otherwise.
"""
import os
import re
import sys

CLOCK = re.compile(
    r"\bDate\(\)|\bDate\.now\b|\.now\(\)|\bContinuousClock\b|\bSuspendingClock\b|\bDispatchTime\.now\b|"
    r"\bclock_gettime\b|\bCFAbsoluteTimeGetCurrent\b|\bsystemUptime\b|\bmach_absolute_time\b|"
    r"\btimeIntervalSince(?:Now|1970|ReferenceDate)?\b|\buptimeNanoseconds\b|\.measure\s*\{|\bclock\(\)"
)
ASSERTION = re.compile(r"#expect\s*\(|#require\s*\(|\bXCTAssert\w*\s*\(|\bprecondition\s*\(|\bassert\s*\(")
COMPARISON = re.compile(r"(?<![<>=!-])(<=|>=|<|>)(?![<>=])")
TIME_LIMIT = re.compile(r"\.timeLimit\s*\(")
ASSIGNMENT = re.compile(r"\b(?:let|var)\s+(\(?[\w\s,_]+\)?)\s*(?::[^=]+)?=\s*(.*)")
FUNCTION = re.compile(r"\bfunc\s+(\w+)")
CONDITION = re.compile(r"^\s*(?:\}\s*else\s+)?(?:if|guard)\b")
FAILS = re.compile(r"Issue\.record|XCTFail|fatalError|preconditionFailure")


def strip_comments(lines):
    """The lines with comments and string literals' contents (multi-line ones too) blanked,
    line numbers kept: a test's example source in a string is not a test."""
    out = []
    in_block = False
    in_multiline = False
    for line in lines:
        text = ""
        i = 0
        in_string = False
        while i < len(line):
            if in_multiline:
                end = line.find('"""', i)
                if end < 0:
                    i = len(line)
                    break
                in_multiline = False
                text += '""'
                i = end + 3
                continue
            if not in_string and line.startswith('"""', i):
                in_multiline = True
                text += '""'
                i += 3
                continue
            if in_block:
                end = line.find("*/", i)
                if end < 0:
                    i = len(line)
                    break
                in_block = False
                i = end + 2
                continue
            c = line[i]
            if in_string:
                if c == "\\":
                    i += 2
                    continue
                if c == '"':
                    in_string = False
                    text += c
                i += 1
                continue
            if line.startswith("//", i):
                break
            if line.startswith("/*", i):
                in_block = True
                i += 2
                continue
            if c == '"':
                in_string = True
            text += c
            i += 1
        out.append(text)
    return out


def balanced(lines, start, column):
    """Text from `column` of line `start` to the parenthesis that closes the first one opened."""
    depth = 0
    opened = False
    text = ""
    for n in range(start, min(len(lines), start + 40)):
        segment = lines[n][column:] if n == start else lines[n]
        for c in segment:
            text += c
            if c == "(":
                depth += 1
                opened = True
            elif c == ")":
                depth -= 1
                if opened and depth == 0:
                    return text
        text += " "
    return text


def block_after(lines, start):
    """The statement's block: from line `start` to its closing brace (at most 30 lines)."""
    depth = 0
    text = ""
    for n in range(start, min(len(lines), start + 30)):
        text += lines[n] + "\n"
        depth += lines[n].count("{") - lines[n].count("}")
        if depth <= 0 and "{" in text:
            return text
    return text


def measured_names(lines):
    """Names and functions of the file that hold or return something measured (to a fixed point)."""
    names = set()
    functions = set()
    # Functions whose body reads a clock (or calls one that does).
    bodies = []
    for n, line in enumerate(lines):
        match = FUNCTION.search(line)
        if match:
            bodies.append((match.group(1), block_after(lines, n)))
    changed = True
    while changed:
        changed = False
        for name, body in bodies:
            if name in functions:
                continue
            if CLOCK.search(body) or any(re.search(r"\b%s\s*\(" % re.escape(f), body) for f in functions):
                functions.add(name)
                changed = True
        for line in lines:
            match = ASSIGNMENT.search(line)
            if not match:
                continue
            targets = [t for t in re.split(r"[\s,()]+", match.group(1)) if t and t != "_"]
            value = match.group(2)
            if is_measured(value, names, functions):
                for target in targets:
                    if target not in names:
                        names.add(target)
                        changed = True
    return names, functions


def is_measured(text, names, functions):
    if CLOCK.search(text):
        return True
    if any(re.search(r"\b%s\b" % re.escape(n), text) for n in names):
        return True
    return any(re.search(r"\b%s\s*\(" % re.escape(f), text) for f in functions)


def check(path):
    with open(path, encoding="utf-8", errors="replace") as handle:
        raw = handle.read().split("\n")
    lines = strip_comments(raw)
    names, functions = measured_names(lines)
    findings = []
    for n, line in enumerate(lines):
        if TIME_LIMIT.search(line):
            findings.append((n + 1, "the .timeLimit trait fails a test on a slow machine"))
        match = ASSERTION.search(line)
        if match:
            expression = balanced(lines, n, match.start())
            # The condition only: a message after the first top-level comma is not compared.
            condition = top_level_first_argument(expression)
            if COMPARISON.search(condition) and is_measured(condition, names, functions):
                findings.append((n + 1, "an assertion compares a measured duration with a limit: " + raw[n].strip()))
            continue
        if CONDITION.search(line):
            head = line.split("{")[0]
            if COMPARISON.search(head) and is_measured(head, names, functions) and FAILS.search(block_after(lines, n)):
                findings.append((n + 1, "a condition fails the test on a measured duration: " + raw[n].strip()))
    return findings


def top_level_first_argument(expression):
    start = expression.find("(")
    if start < 0:
        return expression
    depth = 0
    for i in range(start, len(expression)):
        c = expression[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return expression[start + 1:i]
        elif c == "," and depth == 1:
            return expression[start + 1:i]
    return expression[start + 1:]


def main(arguments):
    folders = arguments or ["Tests"]
    total = 0
    for folder in folders:
        paths = [folder] if os.path.isfile(folder) else [
            os.path.join(root, name)
            for root, _, files in sorted(os.walk(folder))
            for name in sorted(files)
            if name.endswith(".swift")
        ]
        for path in paths:
            for line, what in check(path):
                print("%s:%d: %s" % (path, line, what))
                total += 1
    if total:
        print(
            "check-timing-tests: %d test%s compare%s a measured duration with a limit; check what the duration stood for "
            "(a count of attempts or operations) and move the timing to Benchmarks/ (CONTRIBUTING.md, \"Test\")"
            % (total, "" if total == 1 else "s", "s" if total == 1 else ""),
            file=sys.stderr,
        )
        return 1
    print("check-timing-tests: no test compares a measured duration with a limit")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
