#!/usr/bin/env python3
"""`symbolicate mcp` driven by the official Python MCP client (PyPI `mcp`) as a real peer.

Usage: mcp_client_test.py SYMBOLICATE FIXTURES WORK STORE ID

Starts `SYMBOLICATE mcp --allow FIXTURES --allow WORK` over stdio, lists its tools, calls each
one and compares the answer with what the CLI prints for the same request (the same JSON),
and checks that paths outside the allowed folders are refused: a path outside, a symbolic link
inside pointing out, and a debug-file folder holding such a link. STORE is a debug-file store
inside WORK holding the debug file of identity ID (made by the Swift test that runs this).
Exits 0 when every check passed; prints each failure and exits 1 otherwise.
Run by SymbolicateMCPTests (`make test`); needs `pip install mcp` (`make setup-test`).
"""

import asyncio
import json
import os
import subprocess
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAIL: {what}", file=sys.stderr)


def cli(binary, args, env):
    """The CLI's standard output for the same request (exit status ignored: audit says 1 for an incomplete build)."""
    return subprocess.run([binary] + args, capture_output=True, text=True, env=env, timeout=300).stdout


def texts(result):
    return [item.text for item in result.content if getattr(item, "type", "") == "text"]


def is_error(result):
    return bool(getattr(result, "is_error", None) or getattr(result, "isError", None))


async def main():
    binary, fixtures, work, store, store_id = sys.argv[1:6]
    fixtures = os.path.realpath(fixtures)
    work = os.path.realpath(work)
    env = dict(os.environ)
    report = os.path.join(fixtures, "reports", "swift-trap.ips")
    dsyms = [os.path.join(fixtures, "dsyms", "CrashApp.app.dSYM"), os.path.join(fixtures, "dsyms", "CrashKit.framework.dSYM")]
    corpus_report = os.path.join(fixtures, "corpus", "driverpay__nsexception-leb_iphone18-4_ios26-3.ips")
    with open(os.path.join(fixtures, "facts.json")) as f:
        fact = next(entry for entry in json.load(f) if entry["dsym"] == "dsyms/CrashApp.app.dSYM")

    # Ways out of the allowed folders: a link to /etc inside WORK, and a folder holding one.
    outside_link = os.path.join(work, "passwd-link")
    os.symlink("/etc/passwd", outside_link)
    sneaky = os.path.join(work, "dsyms-with-link")
    os.mkdir(sneaky)
    os.symlink("/etc", os.path.join(sneaky, "etc"))

    params = StdioServerParameters(
        command=binary, args=["mcp", "--allow", fixtures, "--allow", work, "--max-answer-bytes", "4000000"], env=env
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.list_tools()
            names = sorted(tool.name for tool in listed.tools)
            check(names == ["atos", "audit", "explain", "scrub", "store_lookup", "symbolicate"], f"tools listed: {names}")

            async def call(name, arguments):
                return await session.call_tool(name, arguments)

            # symbolicate: a path, and the same report as text.
            result = await call("symbolicate", {"report": report, "debug_files": dsyms})
            expected = cli(binary, ["report", report] + dsyms + ["--format", "json"], env)
            check(not is_error(result), f"symbolicate failed: {texts(result)}")
            check(texts(result)[:1] == [expected], "symbolicate answers the CLI's --format json")
            with open(report) as f:
                text = f.read()
            result = await call("symbolicate", {"text": text, "debug_files": dsyms})
            by_text = json.loads(texts(result)[0])
            by_path = json.loads(expected)
            check(
                json.dumps(by_text["report"]["threads"]) == json.dumps(by_path["report"]["threads"]),
                "symbolicate of the text gives the frames of the path",
            )

            # explain: a term and a report.
            result = await call("explain", {"term": "EXC_BAD_ACCESS"})
            check(texts(result)[:1] == [cli(binary, ["explain", "EXC_BAD_ACCESS", "--format", "json"], env)], "explain term")
            result = await call("explain", {"report": report, "debug_files": dsyms})
            expected = cli(binary, ["explain", report] + dsyms + ["--format", "json"], env)
            check(texts(result)[:1] == [expected], "explain report answers the CLI's --format json")

            # atos: the oracle's address.
            address = fact["address"]
            result = await call("atos", {"debug_file": dsyms[0], "addresses": [address], "inlined_frames": True})
            expected = cli(binary, ["atos", "-o", dsyms[0], "--json", "-i", address], env)
            check(not is_error(result) and texts(result)[:1] == [expected], f"atos answers the CLI's --json: {texts(result)}")
            check(fact["frames"][0]["function"] in texts(result)[0], "atos names the oracle's innermost function")

            # audit.
            build = os.path.join(fixtures, "audit", "Shop.xcarchive")
            result = await call("audit", {"build": build})
            expected = cli(binary, ["audit", build, "--format", "json"], env)
            check(not is_error(result) and texts(result)[:1] == [expected], "audit answers the CLI's --format json")

            # store_lookup.
            result = await call("store_lookup", {"store": store, "id": store_id})
            check(not is_error(result), f"store_lookup failed: {texts(result)}")
            entry = json.loads(texts(result)[0]) if not is_error(result) else {}
            check(entry.get("name") == "CrashApp", f"store_lookup names the stored file: {entry}")
            result = await call("store_lookup", {"store": store, "id": "00000000-0000-0000-0000-000000000000"})
            check(is_error(result) and "not in the store" in texts(result)[0], "store_lookup of an absent id")

            # scrub: the scrubbed text, then the report of what was replaced.
            result = await call("scrub", {"report": corpus_report})
            report_json = os.path.join(work, "scrub-report.json")
            expected = cli(binary, ["scrub", corpus_report, "--report-json", report_json], env)
            with open(report_json) as f:
                expected_report = f.read()
            check(texts(result) == [expected, expected_report], "scrub answers the CLI's text and --report-json")
            check("incident-1" in texts(result)[0], "scrub replaced the incident id")

            # Refusals: outside, a link out, a folder holding a link out.
            for name, arguments, what in [
                ("symbolicate", {"report": "/etc/passwd"}, "a path outside"),
                ("scrub", {"report": outside_link}, "a link inside pointing out"),
                ("symbolicate", {"report": report, "debug_files": [sneaky]}, "a folder holding a link out"),
                ("atos", {"debug_file": "/usr/bin/env", "addresses": ["0x1000"]}, "a binary outside"),
                ("audit", {"build": os.path.join(work, "..")}, "the parent of an allowed folder"),
            ]:
                result = await call(name, arguments)
                words = " ".join(texts(result))
                check(is_error(result), f"{what} is refused: {words}")
                check("outside" in words, f"{what}: the refusal says why: {words}")
                check("root:" not in words, f"{what}: nothing of the file is shown")

    if failures:
        print(f"{len(failures)} check(s) failed", file=sys.stderr)
        return 1
    print("mcp client test: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
