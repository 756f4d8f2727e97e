#!/usr/bin/env python3
"""The files that ship symbolicate agree with each other (issues 50 and 54), read, not run (no Mac,
no Docker engine, no GitHub here):

  platform  Package.swift's macOS floor (`.macOS(.vN)`, the one place it is decided), the formula's
            `depends_on macos:` (its codename) and `xcode:`, the macOS workflow's runner, and
            README's Mac section (the same macOS and Xcode numbers); the formula names its
            repository once (REPOSITORY), which the workflow fills from the pushed commit.
  release   scripts/release.sh's tarball name (symbolicate-VERSION-linux-ARCH.tar.gz) is the
            name .github/workflows/release.yml checks and checksums for each architecture it
            builds (x86_64, aarch64), and the one scripts/github-action.sh downloads; action.yml
            passes the action's own repository and tag; no OWNER placeholder is left in them.
  docker    every path the Dockerfile COPYs or ADDs matches what `make release` writes (and the
            files in dist/ when there are some), .dockerignore lets them in, the base image's
            glibc is at least the release's floor (README), both architectures are unpacked, and
            the command it names is what the tarball installs.
  pinned    every `uses:` in .github/workflows is pinned to a 40-hex commit.

Usage: scripts/check-release-files.py [--root DIR]   (default: the package)
Prints file: what for each disagreement; exits 1 when there is one.
"""
import fnmatch
import glob
import os
import re
import sys

CODENAMES = {13: "ventura", 14: "sonoma", 15: "sequoia", 26: "tahoe"}
# glibc of the Debian (and Ubuntu) releases a slim base image may be.
GLIBC = {"bullseye": (2, 31), "bookworm": (2, 36), "trixie": (2, 41), "jammy": (2, 35), "noble": (2, 39)}
ARCHES = ("x86_64", "aarch64")


def read(root, path):
    full = os.path.join(root, path)
    if not os.path.exists(full):
        return None
    with open(full, encoding="utf-8") as handle:
        return handle.read()


def check_platform(root, problems):
    package, formula = read(root, "Package.swift"), read(root, "Formula/symbolicate.rb")
    workflow, readme = read(root, ".github/workflows/macos.yml"), read(root, "README.md")
    for name, text in (("Package.swift", package), ("Formula/symbolicate.rb", formula),
                       (".github/workflows/macos.yml", workflow), ("README.md", readme)):
        if text is None:
            problems.append(f"{name}: missing")
    if None in (package, formula, workflow, readme):
        return
    floor = re.search(r"\.macOS\(\.v(\d+)\)", package)
    if not floor:
        problems.append("Package.swift: no .macOS(.vN) platform floor")
        return
    floor = int(floor.group(1))
    codename = re.search(r"depends_on macos: :(\w+)", formula)
    if not codename or codename.group(1) != CODENAMES.get(floor):
        problems.append(f"Formula/symbolicate.rb: depends_on macos: :{codename.group(1) if codename else '?'}, "
                        f"but Package.swift's floor is macOS {floor} (:{CODENAMES.get(floor, '?')})")
    xcode = re.search(r'depends_on xcode: \["(\d+)(?:\.\d+)*"', formula)
    if not xcode:
        problems.append("Formula/symbolicate.rb: no depends_on xcode: [\"N.M\", :build]")
        return
    xcode = int(xcode.group(1))
    runner = re.search(r"runs-on: macos-(\d+)", workflow)
    if not runner or int(runner.group(1)) < max(floor, xcode if xcode >= 26 else floor):
        problems.append(f".github/workflows/macos.yml: runs-on macos-{runner.group(1) if runner else '?'} is older than "
                        f"macOS {floor} / Xcode {xcode}'s macOS")
    if not re.search(r"^\s*run:\s*make test\s*$", workflow, re.M):
        problems.append(".github/workflows/macos.yml: does not run `make test`")
    if "REPOSITORY = " not in workflow or "GITHUB_SHA" not in workflow:
        problems.append(".github/workflows/macos.yml: does not build the formula from the pushed commit (REPOSITORY, GITHUB_SHA)")
    urls = re.findall(r"https://github\.com/[\w.-]+/symbolicate", "\n".join(
        line for line in formula.splitlines() if not line.lstrip().startswith("#")))
    if len(urls) != 1 or 'REPOSITORY = "' not in formula or "homepage REPOSITORY" not in formula:
        problems.append("Formula/symbolicate.rb: the repository URL must be stated once, as REPOSITORY (homepage and head use it)")
    mac = readme[readme.find("## macOS"):] if "## macOS" in readme else ""
    if not mac:
        problems.append("README.md: no `## macOS` section")
        return
    head = "\n".join(mac.splitlines()[:8])
    if f"macOS {floor}" not in head or f"Xcode {xcode}" not in head:
        problems.append(f"README.md: the macOS section's first lines do not state macOS {floor} and Xcode {xcode}")
    if "docker run" not in head:
        problems.append("README.md: the macOS section's first lines do not say how to run it today (docker run)")


def release_template(root, problems):
    script = read(root, "scripts/release.sh") or ""
    match = re.search(r'name="symbolicate-\$version-linux-\$arch"', script)
    if not match or '"$dist/$name.tar.gz"' not in script:
        problems.append("scripts/release.sh: the tarball is no longer dist/symbolicate-$version-linux-$arch.tar.gz")
    return "symbolicate-{version}-linux-{arch}.tar.gz"


def check_release(root, problems, template):
    workflow = read(root, ".github/workflows/release.yml")
    action, script = read(root, "action.yml"), read(root, "scripts/github-action.sh")
    if workflow is None:
        problems.append(".github/workflows/release.yml: missing")
        return
    if not re.search(r'tags:\s*\["v\*"\]', workflow):
        problems.append(".github/workflows/release.yml: not run on v* tags")
    arches = set(re.findall(r"-\s*arch:\s*(\S+)", workflow))
    if arches != set(ARCHES):
        problems.append(f".github/workflows/release.yml: builds {sorted(arches)}, not {list(ARCHES)}")
    if "make release" not in workflow:
        problems.append(".github/workflows/release.yml: does not build with make release")
    workflow_name = template.format(version="$version", arch="${{ matrix.arch }}")
    if workflow_name not in workflow or 'version="${GITHUB_REF_NAME#v}"' not in workflow:
        problems.append(f".github/workflows/release.yml: does not check {workflow_name} with version = the tag without its v")
    if "SHA256SUMS" not in workflow or "sha256sum" not in workflow:
        problems.append(".github/workflows/release.yml: attaches no SHA256SUMS")
    action_name = template.format(version="$1", arch="$2")
    if script is None or f'echo "{action_name}"' not in script or "SHA256SUMS" not in script:
        problems.append(f"scripts/github-action.sh: does not download {action_name} and check it against SHA256SUMS")
    if action is None or "github.action_repository" not in action or "github.action_ref" not in action:
        problems.append("action.yml: does not pass github.action_repository and github.action_ref")
    for name, text in (("action.yml", action), ("scripts/github-action.sh", script), (".github/workflows/release.yml", workflow)):
        if text and "OWNER" in text:
            problems.append(f"{name}: an OWNER placeholder is left")


def check_docker(root, problems, template):
    dockerfile, ignore, readme = read(root, "Dockerfile"), read(root, ".dockerignore"), read(root, "README.md") or ""
    if dockerfile is None:
        problems.append("Dockerfile: missing")
        return
    base = re.search(r"^FROM\s+(\S+)", dockerfile, re.M)
    codename = base and re.search(r"(?:debian|ubuntu):(\w+)", base.group(1))
    floor = re.search(r"glibc (\d+)\.(\d+) or newer", readme)
    if not codename or codename.group(1) not in GLIBC:
        problems.append(f"Dockerfile: base image {base.group(1) if base else '?'} is not a Debian/Ubuntu release this check knows")
    elif floor and GLIBC[codename.group(1)] < (int(floor.group(1)), int(floor.group(2))):
        problems.append(f"Dockerfile: {base.group(1)} has glibc {GLIBC[codename.group(1)]}, older than the release's "
                        f"glibc {floor.group(1)}.{floor.group(2)} (README)")
    sources = []
    for match in re.finditer(r"^(COPY|ADD)\s+(?:--\S+\s+)*(.+)$", dockerfile, re.M):
        parts = match.group(2).split()
        sources += parts[:-1]
    if not sources:
        problems.append("Dockerfile: copies nothing from the release")
    built = [os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "dist", "symbolicate-*-linux-*.tar.gz"))]
    for source in sources:
        expected = [f"dist/{template.format(version='1.2.3', arch=arch)}" for arch in ARCHES]
        if not all(fnmatch.fnmatch(name, source) for name in expected):
            problems.append(f"Dockerfile: COPY {source} does not match what make release writes ({expected[0]})")
        if built and not any(fnmatch.fnmatch(name, source) for name in built):
            problems.append(f"Dockerfile: COPY {source} matches nothing in dist/ ({', '.join(built)})")
        if ignore is not None and not any(line.startswith("!") and fnmatch.fnmatch(expected[0], line[1:].strip())
                                          for line in ignore.splitlines()) and "*" in ignore.splitlines():
            problems.append(f".dockerignore: leaves {source} out of the build context")
    for arch in ARCHES:
        if f"arch={arch}" not in dockerfile:
            problems.append(f"Dockerfile: no step for {arch}")
    if "--strip-components=1 -C /usr/local" not in dockerfile:
        problems.append("Dockerfile: the tarball is not unpacked into /usr/local (its bin/symbolicate then not on PATH)")
    command = re.search(r'^(?:CMD|ENTRYPOINT)\s+\["([^"]+)"', dockerfile, re.M)
    if not command or command.group(1) not in ("symbolicate", "/usr/local/bin/symbolicate"):
        problems.append("Dockerfile: its command is not symbolicate")
    if 'docker run --rm -v "$PWD:/data" -w /data' not in readme:
        problems.append("README.md: does not document docker run --rm -v \"$PWD:/data\" -w /data …")


def check_pinned(root, problems):
    for path in sorted(glob.glob(os.path.join(root, ".github", "workflows", "*.yml"))):
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                match = re.search(r"uses:\s*([^\s#]+)", line)
                if match and not match.group(1).startswith("./") and not re.search(r"@[0-9a-f]{40}$", match.group(1)):
                    problems.append(f"{os.path.relpath(path, root)}:{number}: {match.group(1)} is not pinned to a commit")


def main(arguments):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if arguments[:1] == ["--root"]:
        root = arguments[1]
    problems = []
    template = release_template(root, problems)
    check_platform(root, problems)
    check_release(root, problems, template)
    check_docker(root, problems, template)
    check_pinned(root, problems)
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-release-files: {len(problems)} disagreement(s) (see scripts/check-release-files.py)", file=sys.stderr)
        return 1
    print("check-release-files: floor, formula, workflows, action, Dockerfile and README agree")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
