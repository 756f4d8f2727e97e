import Foundation
import SymbolicateTestSupport
import Testing

/// The GitHub Action, run here without GitHub: `scripts/github-action.sh` (all of action.yml's
/// logic) with the runner's environment variables pointing at temporary files, on the fixture
/// reports and dSYMs, with the binary under test.
@Suite(.tags(.launchesBinary)) struct GitHubActionTests {
    static let bash = URL(fileURLWithPath: "/bin/bash")
    static let script = TestPaths.packageRoot.appendingPathComponent("scripts/github-action.sh")

    struct Run {
        var result: CLIResult
        var stepSummary: String
        var outputs: [String: String]
        var outputDir: URL
    }

    /// Runs the action script in a scratch folder laid out like a runner's temp folder.
    static func run(_ inputs: [String: String], useBinary: Bool = true) throws -> Run {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("symbolicate-action-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let summary = work.appendingPathComponent("step_summary.md")
        let output = work.appendingPathComponent("github_output")
        // An earlier step's summary must survive: the action appends.
        try Data("## earlier step\n".utf8).write(to: summary)
        var environment = [
            "GITHUB_STEP_SUMMARY": summary.path,
            "GITHUB_OUTPUT": output.path,
            "RUNNER_TEMP": work.path,
            "GITHUB_ACTION_PATH": TestPaths.packageRoot.path,
            "SYMBOLICATE_OUTPUT": work.appendingPathComponent("out").path,
            "SYMBOLICATE_BIN": useBinary ? CLI.binary.path : "",
        ]
        for (key, value) in inputs { environment[key] = value }
        let result = try CLI.run([script.path], environment: environment, currentDirectory: TestPaths.packageRoot, executable: bash)
        let outputs = ((try? String(contentsOf: output, encoding: .utf8)) ?? "")
            .split(separator: "\n")
            .reduce(into: [String: String]()) { map, line in
                let parts = line.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { map[String(parts[0])] = String(parts[1]) }
            }
        let outDir = work.appendingPathComponent("out")
        // Keep what the assertions read before the scratch folder goes.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("symbolicate-action-out-\(UUID().uuidString)")
        try? FileManager.default.copyItem(at: outDir, to: copy)
        return Run(
            result: result, stepSummary: (try? String(contentsOf: summary, encoding: .utf8)) ?? "",
            outputs: outputs, outputDir: copy)
    }

    @Test func crashPolicyFailsTheStepAfterWritingSummaryAnnotationsAndOutputs() throws {
        let run = try Self.run([
            "SYMBOLICATE_REPORTS": "Fixtures/reports/swift-trap.ips\n  Fixtures/reports/null-deref.crash  \n",
            "SYMBOLICATE_DSYMS": "Fixtures/dsyms",
            "SYMBOLICATE_FAIL_ON": "crash",
            "SYMBOLICATE_SOURCE_ROOT": "/src",
        ])
        defer { try? FileManager.default.removeItem(at: run.outputDir) }
        #expect(run.result.status == 1, "fail-on crash with two crash reports must fail the step: \(run.result.stderr)")
        // Annotations go to stdout, where the runner turns them into ::error annotations;
        // --source-root /src makes the fixture's /src/CrashApp/Profile.swift repository-relative.
        #expect(run.result.stdout.contains("::error file=CrashApp/Profile.swift,line="), "\(run.result.stdout)")
        let summary = try String(contentsOf: run.outputDir.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(run.stepSummary.hasPrefix("## earlier step\n"), "the step summary was overwritten, not appended to")
        #expect(run.stepSummary.contains(summary), "summary.md was not appended to $GITHUB_STEP_SUMMARY")
        #expect(run.outputs["exit-code"] == "1")
        #expect(run.outputs["output-dir"]?.hasSuffix("/out") == true)
        #expect(run.outputs["summary"]?.hasSuffix("/out/summary.md") == true)
        #expect(FileManager.default.fileExists(atPath: run.outputDir.appendingPathComponent("swift-trap.crash").path))
        #expect(FileManager.default.fileExists(atPath: run.outputDir.appendingPathComponent("null-deref.crash").path))
    }

    @Test func neverPolicyPassesAndGlobsExpand() throws {
        let run = try Self.run([
            "SYMBOLICATE_REPORTS": "Fixtures/reports/*.ips",
            "SYMBOLICATE_DSYMS": "Fixtures/dsyms",
        ])
        defer { try? FileManager.default.removeItem(at: run.outputDir) }
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(run.outputs["exit-code"] == "0")
        let ips = try FileManager.default.contentsOfDirectory(atPath: TestPaths.fixtures.appendingPathComponent("reports").path)
            .filter { $0.hasSuffix(".ips") }
        let written = try FileManager.default.contentsOfDirectory(atPath: run.outputDir.path).filter { $0.hasSuffix(".crash") }
        #expect(written.count == ips.count, "the glob should give every .ips fixture: wrote \(written.sorted())")
    }

    @Test func missingReportsIsAnAnnotatedError() throws {
        let run = try Self.run(["SYMBOLICATE_REPORTS": "  \n"])
        defer { try? FileManager.default.removeItem(at: run.outputDir) }
        #expect(run.result.status == 2)
        #expect(run.result.stdout.contains("::error title=symbolicate action::no reports given"))
    }

    /// `release-url`: the action downloads a release tarball and runs the binary in it. A
    /// tarball laid out like `make release`'s, served from a file:// URL, stands in for a
    /// GitHub release download.
    @Test func releaseURLIsDownloadedAndUsed() throws {
        let stage = FileManager.default.temporaryDirectory.appendingPathComponent("symbolicate-action-release-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: stage) }
        let top = stage.appendingPathComponent("symbolicate-0.0.0-linux-x86_64")
        let install = try CLI.run(
            [TestPaths.packageRoot.appendingPathComponent("scripts/install.sh").path, "install", CLI.binary.path, top.path],
            executable: Self.bash)
        #expect(install.status == 0, "\(install.stderr)")
        let tarball = stage.appendingPathComponent("release.tar.gz")
        let tar = try CLI.run(
            ["-czf", tarball.path, "-C", stage.path, top.lastPathComponent], executable: URL(fileURLWithPath: "/bin/tar"))
        #expect(tar.status == 0, "\(tar.stderr)")
        let run = try Self.run(
            [
                "SYMBOLICATE_REPORTS": "Fixtures/reports/swift-trap.crash",
                "SYMBOLICATE_DSYMS": "Fixtures/dsyms",
                "SYMBOLICATE_RELEASE_URL": tarball.absoluteString,
            ], useBinary: false)
        defer { try? FileManager.default.removeItem(at: run.outputDir) }
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(run.result.stderr.contains("downloading \(tarball.absoluteString)"))
        #expect(run.result.stderr.contains("/symbolicate-release/bin/symbolicate"))
        #expect(FileManager.default.fileExists(atPath: run.outputDir.appendingPathComponent("swift-trap.crash").path))
    }

    /// A tarball laid out like `make release`'s, top folder `top`, at `tarball`.
    static func releaseTarball(_ tarball: URL, top: String) throws {
        let stage = tarball.deletingLastPathComponent().appendingPathComponent("stage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: stage) }
        let install = try CLI.run(
            [
                TestPaths.packageRoot.appendingPathComponent("scripts/install.sh").path, "install", CLI.binary.path,
                stage.appendingPathComponent(top).path,
            ],
            executable: Self.bash)
        #expect(install.status == 0, "\(install.stderr)")
        let tar = try CLI.run(["-czf", tarball.path, "-C", stage.path, top], executable: URL(fileURLWithPath: "/bin/tar"))
        #expect(tar.status == 0, "\(tar.stderr)")
    }

    enum ReleaseState: String, CaseIterable { case published, badChecksum, absent }

    /// Without a binary or a URL the action takes the release of its own tag, from the repository
    /// it is used from (github.action_repository, github.action_ref), for this machine's
    /// architecture, as .github/workflows/release.yml publishes it: checked against SHA256SUMS and
    /// used; a tarball that fails its checksum stops the step (exit 2, no fallback); a tag with no
    /// release falls back to `symbolicate` on PATH. A real HTTP server on loopback stands in for GitHub.
    @Test(arguments: ReleaseState.allCases)
    func theActionsOwnReleaseIsDownloadedAndChecked(state: ReleaseState) throws {
        let root = try TestPaths.temporaryDirectory("action-own-release")
        defer { try? FileManager.default.removeItem(at: root) }
        let served = root.appendingPathComponent("served")
        let releases = served.appendingPathComponent("someone/symbolicate/releases/download/v0.0.0")
        try FileManager.default.createDirectory(at: releases, withIntermediateDirectories: true)
        let machine = try ExternalTool.run("/usr/bin/uname", ["-m"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let arch = machine == "arm64" ? "aarch64" : machine
        let name = "symbolicate-0.0.0-linux-\(arch).tar.gz"
        if state != .absent {
            try Self.releaseTarball(releases.appendingPathComponent(name), top: "symbolicate-0.0.0-linux-\(arch)")
            let digest = try #require(try PortableTools.sha256(ofFile: releases.appendingPathComponent(name).path))
            let listed = state == .badChecksum ? String(repeating: "0", count: 64) : digest
            try Data("\(listed)  \(name)\n".utf8).write(to: releases.appendingPathComponent("SHA256SUMS"))
        }
        let server = try SymbolServerProcess(root: served)
        // The fallback: `symbolicate` on PATH.
        let onPath = root.appendingPathComponent("path")
        try FileManager.default.createDirectory(at: onPath, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: onPath.appendingPathComponent("symbolicate").path, withDestinationPath: CLI.binary.path)
        let run = try Self.run(
            [
                "SYMBOLICATE_REPORTS": "Fixtures/reports/swift-trap.crash", "SYMBOLICATE_DSYMS": "Fixtures/dsyms",
                "SYMBOLICATE_ACTION_REPOSITORY": "someone/symbolicate", "SYMBOLICATE_ACTION_REF": "v0.0.0",
                "GITHUB_SERVER_URL": server.base, "PATH": onPath.path + ":/usr/bin:/bin",
            ], useBinary: false)
        defer { try? FileManager.default.removeItem(at: run.outputDir) }
        switch state {
        case .published:
            #expect(run.result.status == 0, "\(run.result.stderr)")
            #expect(run.result.stderr.contains("\(name) from v0.0.0, SHA-256 checked"), "\(run.result.stderr)")
            #expect(run.result.stderr.contains("/symbolicate-release/bin/symbolicate"), "\(run.result.stderr)")
            #expect(server.downloads.contains { $0.contains("/releases/download/v0.0.0/SHA256SUMS") })
        case .badChecksum:
            #expect(run.result.status == 2)
            #expect(run.result.stderr.contains("does not match SHA256SUMS of v0.0.0"), "\(run.result.stderr)")
            #expect(!run.result.stderr.contains("\(onPath.path)/symbolicate"), "fell back after a failed checksum")
        case .absent:
            #expect(run.result.status == 0, "\(run.result.stderr)")
            #expect(run.result.stderr.contains("someone/symbolicate has no release v0.0.0 for \(arch)"), "\(run.result.stderr)")
            #expect(run.result.stderr.contains("at \(onPath.path)/symbolicate"), "\(run.result.stderr)")
        }
    }

    /// action.yml hands every input to the script under the name the script reads, and runs
    /// the script from the action's own checkout.
    @Test func actionYAMLWiresEveryInputToTheScript() throws {
        let yaml = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("action.yml"), encoding: .utf8)
        let script = try String(contentsOf: Self.script, encoding: .utf8)
        #expect(yaml.contains("using: composite"))
        #expect(yaml.contains("run: '\"$GITHUB_ACTION_PATH/scripts/github-action.sh\"'"))
        let wiring = yaml.split(separator: "\n").compactMap { line -> (variable: String, input: String)? in
            let parts = line.trimmingCharacters(in: .whitespaces).components(separatedBy: ": ${{ inputs.")
            guard parts.count == 2, parts[0].hasPrefix("SYMBOLICATE_") else { return nil }
            return (parts[0], parts[1].replacingOccurrences(of: " }}", with: ""))
        }
        let inputs = yaml.components(separatedBy: "\noutputs:")[0].split(separator: "\n")
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") && $0.hasSuffix(":") }
            .map { $0.trimmingCharacters(in: .whitespaces).dropLast() }
        #expect(Set(wiring.map(\.input)) == Set(inputs.map(String.init)), "every input needs an env line in the step, and only inputs")
        for (variable, input) in wiring {
            #expect(
                script.contains("${\(variable)"),
                "action.yml passes input \(input) as \(variable), which scripts/github-action.sh never reads")
        }
    }
}
