import Foundation
import SymbolicateTestSupport
import Testing

/// Issue 54's new-user pass, end to end through the binary: frames pasted without their
/// thread's title, explain on them, mistyped subcommands, where dSYMs are, a debug-file folder
/// with nothing in it, the build a mismatched image needs, and a pasted `Fatal error:` line.
@Suite(.tags(.launchesBinary)) struct NewUserPassCLITests {
    static let dsyms = ["Fixtures/dsyms/CrashApp.app.dSYM", "Fixtures/dsyms/CrashKit.framework.dSYM"]

    static func run(_ arguments: [String]) throws -> CLIResult {
        try CLI.run(arguments + ["--color", "never"], environment: ["SYMBOLICATE_LANGUAGE": "en"], currentDirectory: TestPaths.packageRoot)
    }

    /// `arguments` as typed, without the `--color` the others get (a usage error comes first).
    static func typed(_ arguments: [String]) throws -> CLIResult {
        try CLI.run(arguments, currentDirectory: TestPaths.packageRoot)
    }

    /// The 15 pasted frame lines of swift-trap.crash's crashed thread, in a file.
    static func pastedFile() throws -> URL {
        let folder = try TestPaths.temporaryDirectory("pasted-frames")
        let file = folder.appendingPathComponent("pasted.txt")
        let text = try String(contentsOf: TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let title = try #require(lines.firstIndex { $0.hasPrefix("Thread 0 Crashed:") })
        try Data((lines[(title + 1)...(title + 15)].joined(separator: "\n") + "\n").utf8).write(to: file)
        return file
    }

    /// Finding 1: exit 0, the frames symbolicated as with their title, one short line saying
    /// the report is partial; the headline names no thread number it was not given.
    @Test func pastedFramesAreSymbolicated() throws {
        let file = try Self.pastedFile()
        let result = try Self.run([file.path] + Self.dsyms)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Profile.swift:28"), "\(result.stdout)")
        #expect(result.stderr.contains("Crashed: pasted frames in "), "\(result.stderr)")
        #expect(!(result.stdout + result.stderr).contains("Thread 0"), "\(result.stdout)")
        let partial = result.stderr.split(separator: "\n").filter { $0.contains("warning: partial report") }
        #expect(partial.count == 1, "\(result.stderr)")
    }

    /// Finding 2: explain reads the runtime failure the headline names (the typed app's line),
    /// not "Not enough information in the report".
    @Test func explainUsesThePastedFrames() throws {
        let file = try Self.pastedFile()
        let report = try Self.run([file.path] + Self.dsyms)
        #expect(report.stderr.contains("(Swift runtime failure: Unexpectedly found nil"), "\(report.stderr)")
        let explain = try Self.run(["explain", file.path] + Self.dsyms)
        #expect(explain.status == 0, "\(explain.stderr)")
        #expect(!explain.stdout.contains("Not enough information"), "\(explain.stdout)")
        #expect(explain.stdout.contains("Unexpectedly found nil"), "\(explain.stdout)")
        #expect(explain.stdout.contains("category: swiftRuntimeError"), "\(explain.stdout)")
        #expect(explain.stdout.contains("Profile.swift:28"), "\(explain.stdout)")
        #expect(!explain.stdout.lowercased().contains("thread 0"), "no thread number is made up: \(explain.stdout)")
    }

    /// Finding 3: a subcommand a letter or two off is a usage error naming it, not a missing file.
    @Test(arguments: [
        ("explan", "explain"), ("bach", "batch"), ("atso", "atos"), ("audti", "audit"), ("serv", "serve"), ("stor", "store"),
    ])
    func aMistypedSubcommandIsNamed(typed: String, meant: String) throws {
        let result = try Self.typed([typed, "EXC_BAD_ACCESS"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("Did you mean '\(meant)'?"), "\(result.stderr)")
        #expect(!result.stderr.contains("no such file"), "\(result.stderr)")
    }

    @Test func helpForAnUnknownSubcommandIsAUsageError() throws {
        let typo = try Self.typed(["help", "serv"])
        #expect(typo.status == 64, "\(typo.stdout)")
        #expect(typo.stderr.contains("Did you mean 'serve'?"), "\(typo.stderr)")
        let unknown = try Self.typed(["help", "frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("audit"), "the subcommands are listed: \(unknown.stderr)")
        let known = try Self.typed(["help", "serve"])
        #expect(known.status == 0, "\(known.stderr)")
        #expect(known.stdout.contains("serve"))
    }

    /// An existing file of a subcommand-like name is still read as a report.
    @Test func anExistingFileIsNeverTakenForATypo() throws {
        let folder = try TestPaths.temporaryDirectory("typo-file")
        let file = folder.appendingPathComponent("serv")
        try FileManager.default.copyItem(at: TestPaths.fixtures.appendingPathComponent("reports/swift-trap.crash"), to: file)
        let result = try CLI.run(["serv", "--color", "never"], currentDirectory: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Crashed: Thread 0"), "\(result.stderr)")
    }

    /// Finding 5: a missing dSYM comes with where dSYMs are kept and how to give them (once),
    /// and a named folder with no debug file in it is named.
    @Test func aMissingDSYMSaysWhereDSYMsAreAndAnEmptyFolderIsNamed() throws {
        let empty = try TestPaths.temporaryDirectory("empty-dsyms")
        let result = try Self.run(["Fixtures/reports/swift-trap.crash", empty.path])
        #expect(result.stderr.contains("no dSYM for CrashApp"), "\(result.stderr)")
        let hints = result.stderr.split(separator: "\n").filter { $0.contains("App Store Connect") }
        #expect(hints.count == 1, "\(result.stderr)")
        #expect(hints.first?.contains("Organizer") == true && hints.first?.contains(".xcarchive") == true)
        #expect(result.stderr.contains("\(empty.path) holds no usable debug file"), "\(result.stderr)")
        // With the dSYMs there is nothing to say.
        let complete = try Self.run(["Fixtures/reports/swift-trap.crash"] + Self.dsyms)
        #expect(!complete.stderr.contains("App Store Connect"), "\(complete.stderr)")
        #expect(!complete.stderr.contains("holds no usable debug file"), "\(complete.stderr)")
    }

    /// Finding 6: after a UUID mismatch, explain's step names the build the report needs (its
    /// UUID and the app's version), not "the app's dSYM".
    @Test func theMismatchStepNamesTheBuild() throws {
        for language in ["en", "ja"] {
            let result = try CLI.run(
                ["explain", "Fixtures/reports/uuid-mismatch.crash"] + Self.dsyms + ["--color", "never", "--language", language],
                currentDirectory: TestPaths.packageRoot)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("A1B2C3D4-E5F6-3A7B-8C9D-0E1F2A3B4C5D"), "\(language): \(result.stdout)")
            #expect(result.stdout.contains("1.0 (1)"), "\(language): \(result.stdout)")
            #expect(!result.stdout.contains("the app's dSYM"), "\(result.stdout)")
        }
    }

    /// Finding 6: a pasted `Fatal error:` line has no thread at all: the headline does not say
    /// "no crashed thread named", it says where the runtime error stopped.
    @Test func aPastedFatalErrorLineIsNotHeadedNoCrashedThread() throws {
        let result = try Self.run(["Fixtures/debugger/real/nova286-bstext-17.txt"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("no crashed thread named"), "\(result.stderr)")
        #expect(result.stderr.contains("Crashed at BSTextView.swift:1147 — Fatal error:"), "\(result.stderr)")
    }
}
