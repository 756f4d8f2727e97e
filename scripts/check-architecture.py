#!/usr/bin/env python3
"""Holds the package's shape to what Package.swift declares (issue 37).

1. Declared = imported, and one test target per library target: every module a target's Swift files import that the package provides (its own
   targets, its dependencies' products) is a declared dependency of that target, and every declared
   dependency is imported by at least one of its files. SwiftPM's import check accepts modules reached
   through another dependency and never complains about a dependency nobody uses; this does both.
2. README.md's layout block names every folder of Sources/ and no other.
3. ARCHITECTURE.md's module graph is generated from the manifest: the block between the
   `<!-- module-graph:begin -->` and `<!-- module-graph:end -->` markers.
4. Facts are born in the readers (issue 47): outside SymbolicateCrashReport no source reads the report
   text that `CrashReport.facts` stands for (Application Specific Information, the VM region line, the
   typed fields a reader fills the facts from) or runs the text scanner (`MessageScan`); they read
   `report.facts`.

Usage: scripts/check-architecture.py           check both (CI: `make format-check`); exit 1 on a problem
       scripts/check-architecture.py --write   rewrite the graph block of ARCHITECTURE.md (`make architecture`)
       scripts/check-architecture.py --manifest dump.json   read `swift package dump-package` output from a file
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN, END = "<!-- module-graph:begin -->", "<!-- module-graph:end -->"
IMPORT = re.compile(r"^\s*(?:@testable\s+|@_implementationOnly\s+|@_exported\s+|(?:public|package|internal)\s+)?import\s+(?:(?:struct|class|enum|func|protocol|typealias|var|let)\s+)?([A-Za-z0-9_]+)", re.M)


def manifest(path=None):
    if path:
        with open(path) as f:
            return json.load(f)
    # A scratch folder of its own: `dump-package` would otherwise wait for a build holding .build's lock.
    with tempfile.TemporaryDirectory(prefix="symbolicate-manifest-") as scratch:
        out = subprocess.run(["swift", "package", "--package-path", ROOT, "--scratch-path", scratch, "dump-package"],
                             check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def dependency_traits(dep):
    """The package traits a dependency is conditional on (`.when(traits: […])`), or []."""
    for kind in ("byName", "target", "product"):
        if kind in dep:
            condition = dep[kind][-1] if kind != "product" else dep[kind][3]
            return sorted((condition or {}).get("traits") or []) if isinstance(condition, dict) else []
    return []


def unguarded_imports(folder, module, traits):
    """Files of `folder` importing `module` outside an `#if` on one of `traits`: a build without
    that trait (`make demo`) has no such module to import."""
    found = []
    for base, _, files in os.walk(os.path.join(ROOT, folder)):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(base, name)
            conditions = []
            with open(path, encoding="utf-8", errors="replace") as f:
                for line in f:
                    directive = re.match(r"\s*#(if|elseif|else|endif)\b\s*(.*?)\s*(//.*)?$", line)
                    if directive:
                        kind, condition = directive.group(1), directive.group(2)
                        if kind == "if":
                            conditions.append(condition)
                        elif kind == "elseif" and conditions:
                            conditions[-1] = condition
                        elif kind == "else" and conditions:
                            conditions[-1] = "!(" + conditions[-1] + ")"
                        elif kind == "endif" and conditions:
                            conditions.pop()
                        continue
                    imported = IMPORT.match(line)
                    if imported and imported.group(1) == module:
                        conjuncts = {c.strip() for condition in conditions for c in condition.split("&&")}
                        if not conjuncts & set(traits):
                            found.append(os.path.relpath(path, ROOT))
    return found


def dependency_name(dep):
    """(module name, is product) of one entry of a target's `dependencies`."""
    for kind in ("byName", "target", "product"):
        if kind in dep:
            return dep[kind][0], kind == "product"
    raise SystemExit(f"check-architecture: unknown dependency shape {dep}")


def target_folder(target):
    if target.get("path"):
        return target["path"]
    return ("Tests/" if target["type"] == "test" else "Sources/") + target["name"]


def imports(folder):
    found = {}
    for base, _, files in os.walk(os.path.join(ROOT, folder)):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(base, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                for module in IMPORT.findall(f.read()):
                    found.setdefault(module, os.path.relpath(path, ROOT))
    return found


def check_dependencies(package):
    targets = package["targets"]
    own = {t["name"] for t in targets}
    products = {dependency_name(d)[0] for t in targets for d in t["dependencies"] if dependency_name(d)[1]}
    provided = own | products
    executables = {t["name"] for t in targets if t["type"] == "executable"}
    problems = []
    for t in targets:
        if t["type"] == "system":
            continue  # headers and a module map, nothing to import from
        declared = {dependency_name(d)[0] for d in t["dependencies"]}
        used = imports(target_folder(t))
        for module in sorted(set(used) & provided - declared - {t["name"]}):
            problems.append(f"{t['name']}: {used[module]} imports {module}, which Package.swift does not declare for it")
        for d in t["dependencies"]:
            traits = dependency_traits(d)
            if traits:
                for path in unguarded_imports(target_folder(t), dependency_name(d)[0], traits):
                    problems.append(f"{t['name']}: {path} imports {dependency_name(d)[0]} outside `#if {' || '.join(traits)}`, "
                                    "but Package.swift makes it a dependency only with that trait")
        # A test target names the executable so that `swift build --build-tests` builds the binary it runs.
        for module in sorted(declared - set(used) - executables):
            problems.append(f"{t['name']}: declares {module} in Package.swift but no file of {target_folder(t)} imports it")
    # One test target per library target (the executable's is symbolicateCLITests).
    tests = {t["name"] for t in targets if t["type"] == "test"}
    for t in targets:
        folder = target_folder(t)
        if t["type"] == "regular" and folder.startswith("Sources/") and imports_swift(folder) and t["name"] + "Tests" not in tests:
            problems.append(f"{t['name']}: a library target without a test target ({t['name']}Tests)")
    return problems


def check_readme(package):
    """README.md's "How it is built" block names every folder of Sources/ and no other."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    named = set(re.findall(r"^Sources/([A-Za-z0-9_]+)/", text, re.M))
    present = {n for n in os.listdir(os.path.join(ROOT, "Sources")) if os.path.isdir(os.path.join(ROOT, "Sources", n))}
    return [f"README.md's layout names Sources/{n}/, which does not exist" for n in sorted(named - present)] + [
        f"README.md's layout (\"How it is built\") does not name Sources/{n}/" for n in sorted(present - named)]


def imports_swift(folder):
    return any(name.endswith(".swift") for _, _, files in os.walk(os.path.join(ROOT, folder)) for name in files)


def transitive_reduction(edges):
    """Edges a → b kept only when b is not reachable from a through another dependency."""
    def reach(start, skip):
        seen, stack = set(), [n for n in edges.get(start, ()) if n != skip]
        while stack:
            n = stack.pop()
            if n in seen:
                continue
            seen.add(n)
            stack.extend(edges.get(n, ()))
        return seen
    return {a: sorted(b for b in deps if b not in reach(a, b)) for a, deps in edges.items()}


def jobs():
    """Each target's job: the `//` comment right above its declaration in Package.swift."""
    with open(os.path.join(ROOT, "Package.swift"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    found = {}
    for i, line in enumerate(lines):
        m = re.search(r'name:\s*"([A-Za-z0-9_]+)"', line)
        if not m or m.group(1) in found:
            continue
        decl = re.compile(r"\s*\.(target|testTarget|executableTarget|systemLibrary)\(")
        start = next((j for j in range(i, max(i - 3, 0) - 1, -1) if decl.match(lines[j])), None)
        if start is None:
            continue  # the package's or a product's name
        comment = []
        j = start - 1
        while j >= 0 and lines[j].strip().startswith("//"):
            comment.insert(0, lines[j].strip()[2:].strip())
            j -= 1
        if comment:
            found[m.group(1)] = " ".join(comment).replace("|", "\\|")
    return found


def graph(package):
    targets = [t for t in package["targets"] if t["type"] != "test"]
    names = {t["name"] for t in targets}
    kinds = {t["name"]: t["type"] for t in targets}
    edges = {t["name"]: sorted({dependency_name(d)[0] for d in t["dependencies"]} & names) for t in targets}
    # Dependencies only a package trait brings (`.when(traits:)`): a dotted, labelled edge; "(trait …)" in the table.
    traits = {(t["name"], dependency_name(d)[0]): ", ".join(dependency_traits(d)) for t in targets for d in t["dependencies"]
              if dependency_traits(d)}
    external = {t["name"]: sorted(dependency_name(d)[0] for d in t["dependencies"] if dependency_name(d)[1]) for t in targets}
    reduced = transitive_reduction(edges)
    lines = [BEGIN, "<!-- Generated from Package.swift by scripts/check-architecture.py --write (make architecture); "
             "CI fails when it is stale. -->", "", "```mermaid", "graph TD"]
    for name in sorted(names):
        shape = f'{name}[("{name}")]' if kinds[name] == "system" else (f'{name}[["{name}"]]' if kinds[name] == "executable" else f"{name}")
        lines.append(f"    {shape}")
    for name in sorted(reduced):
        for dep in reduced[name]:
            lines.append(f"    {name} -. {traits[(name, dep)]} .-> {dep}" if (name, dep) in traits else f"    {name} --> {dep}")
    lines += ["```", "", "Every target and its direct dependencies (the drawing leaves out an edge that another path implies;",
              "C libraries are drawn as cylinders, the executable as a double box, a dependency only a package trait",
              "brings as a dotted edge named by the trait):", "",
              "| target | job (Package.swift's comment) | depends on | packages |", "|---|---|---|---|"]
    job = jobs()
    for name in sorted(names, key=lambda n: (kinds[n] != "executable", n.lower())):
        lines.append(f"| `{name}` | {job.get(name, '–')} | "
                     f"{', '.join(f'`{d}`' + (f' (trait {traits[(name, d)]})' if (name, d) in traits else '') for d in edges[name]) or '–'} | "
                     f"{', '.join(f'`{d}`' for d in external[name]) or '–'} |")
    tests = sorted(t["name"] for t in package["targets"] if t["type"] == "test")
    lines += ["", f"Test targets ({len(tests)}): " + ", ".join(f"`{t}`" for t in tests) + ".", END]
    return "\n".join(lines)


# What only SymbolicateCrashReport (its readers, the fact reading, the writers) may read: the text
# and reader fields `CrashReport.facts` is read from once. Every other stage reads `report.facts`.
FACT_SOURCES = [
    (re.compile(r"\bMessageScan\("), "runs the report-text scanner (`MessageScan`)"),
    (re.compile(r"\.applicationSpecificInformation\b"), "reads Application Specific Information (`facts.messageLines`, `facts.statements`)"),
    (re.compile(r"\bvmRegionInfo\b"), "reads the VM region line (`facts.vmRegionLine`, `facts.exception?.vmRegion`)"),
    (re.compile(r"\bexception\??\.(?:uncaught|runtimeError)\b"), "reads a reader's typed field (`facts.uncaughtException`, `facts.swiftRuntimeError`)"),
    (re.compile(r"\.codeValues?\b"), "parses exception or termination codes (`facts.exception?.codes`, `facts.termination?.code`)"),
]
FACTS_HOME = "SymbolicateCrashReport"


def check_facts():
    """Sources outside SymbolicateCrashReport that read what `CrashReport.facts` stands for."""
    problems = []
    sources = os.path.join(ROOT, "Sources")
    for target in sorted(os.listdir(sources)):
        if target == FACTS_HOME or not os.path.isdir(os.path.join(sources, target)):
            continue
        for folder, _, files in os.walk(os.path.join(sources, target)):
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        code = line.split("//", 1)[0]
                        for pattern, what in FACT_SOURCES:
                            if pattern.search(code):
                                problems.append(f"{os.path.relpath(path, ROOT)}:{number}: {what}; read `report.facts` (ARCHITECTURE.md, \"Where facts are born\")")
    return problems


def main(argv):
    write = "--write" in argv
    path = argv[argv.index("--manifest") + 1] if "--manifest" in argv else None
    package = manifest(path)
    arch_path = os.path.join(ROOT, "ARCHITECTURE.md")
    with open(arch_path, encoding="utf-8") as f:
        text = f.read()
    status = 0
    if BEGIN not in text or END not in text:
        print(f"check-architecture: ARCHITECTURE.md has no {BEGIN} … {END} block", file=sys.stderr)
        fresh, status = text, 1
    else:
        start, end = text.index(BEGIN), text.index(END) + len(END)
        fresh = text[:start] + graph(package) + text[end:]
    if write:
        if fresh != text:
            with open(arch_path, "w", encoding="utf-8") as f:
                f.write(fresh)
            print("check-architecture: ARCHITECTURE.md module graph rewritten")
    elif fresh != text:
        print("check-architecture: ARCHITECTURE.md's module graph differs from Package.swift; run `make architecture`",
              file=sys.stderr)
        status = 1
    problems = check_dependencies(package) + check_readme(package) + check_facts()
    for p in problems:
        print(f"check-architecture: {p}", file=sys.stderr)
    if problems:
        status = 1
    if status == 0 and not write:
        print(f"check-architecture: {len(package['targets'])} targets: declared dependencies = imported modules; module graph current; facts read only where born")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
