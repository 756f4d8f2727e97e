import Foundation
import SymbolicateCore
import SymbolicateTestSupport

/// A real git repository made in a temporary folder with the `git` command: commits with
/// fixed authors and dates (so hashes are the same on every run), tags, renames, clones.
struct GitCheckout {
    let folder: URL
    var path: String { folder.path }

    /// A fresh folder (not yet a repository unless `initialise`).
    static func make(_ label: String, initialise: Bool = true) throws -> GitCheckout {
        let checkout = GitCheckout(folder: try TestPaths.temporaryDirectory("source-\(label)"))
        if initialise { try checkout.git("init", "-q", "-b", "main") }
        return checkout
    }

    /// Whether git takes `path` for part of a work tree (an enclosing one included).
    static func isInsideWorkTree(_ path: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", path, "rev-parse", "--is-inside-work-tree"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// The same environment for every command: no user or system configuration.
    static func environment(date: String) -> [String: String] {
        [
            "GIT_AUTHOR_NAME": "Ada Example", "GIT_AUTHOR_EMAIL": "ada@example.com", "GIT_COMMITTER_NAME": "Ada Example",
            "GIT_COMMITTER_EMAIL": "ada@example.com", "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date, "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": "/dev/null", "HOME": "/nonexistent",
        ]
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    @discardableResult
    func git(_ arguments: String..., date: String = "2024-01-01T10:00:00+0900") throws -> String {
        try Self.run(["-C", path] + arguments, date: date)
    }

    @discardableResult
    static func run(_ arguments: [String], date: String = "2024-01-01T10:00:00+0900") throws -> String {
        let outcome = Subprocess.run("/usr/bin/env", ["git"] + arguments, environment: environment(date: date), timeout: 60)
        guard let data = outcome.successOutput else { throw Failure(description: "git \(arguments.joined(separator: " ")): \(outcome)") }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func write(_ relative: String, _ text: String) throws {
        let url = folder.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func read(_ relative: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(relative), encoding: .utf8)
    }

    /// Replaces line `number` (1-based) of a file.
    func replaceLine(_ relative: String, _ number: Int, with text: String) throws {
        var lines = try read(relative).components(separatedBy: "\n")
        lines[number - 1] = text
        try write(relative, lines.joined(separator: "\n"))
    }

    /// Commits everything; returns the full hash.
    @discardableResult
    func commit(_ message: String, date: String) throws -> String {
        try git("add", "-A", date: date)
        try git("commit", "-q", "-m", message, date: date)
        return try git("rev-parse", "HEAD")
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

/// The fixture app's sources (`Fixtures/src/CrashApp`), whose compile paths the dSYMs name
/// (`/src/CrashApp/Profile.swift`, DW_AT_comp_dir `/src`).
enum FixtureSources {
    static let folder = TestPaths.fixtures.appendingPathComponent("src/CrashApp")

    static func text(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    /// The line `swift-trap.crash` crashes on (Profile.swift:28, from the dSYM).
    static let crashLine = 28

    /// A repository with the app's history:
    /// 1. the sources, line 28 reading `return value ?? 0`;
    /// 2. line 28 becomes the fixture's `return value!` (tagged `v1.0`, the build of the report's 1.0 (1));
    /// 3. after the tag, line 28 changes again;
    /// 4. the folder moves to `Sources/CrashApp`.
    static func history(_ label: String) throws -> (checkout: GitCheckout, commits: [String]) {
        let checkout = try GitCheckout.make(label)
        try checkout.git("remote", "add", "origin", "git@github.com:example/CrashApp.git")
        let shipped = try text("Profile.swift")
        try checkout.write("CrashApp/Profile.swift", shipped)
        try checkout.write("CrashApp/main.c", try text("main.c"))
        try checkout.replaceLine("CrashApp/Profile.swift", crashLine, with: "        return value ?? 0")
        var commits = [try checkout.commit("Add the profile scanner", date: "2024-01-01T10:00:00+0900")]
        try checkout.write("CrashApp/Profile.swift", shipped)
        commits.append(try checkout.commit("Require the identifier field", date: "2024-02-01T10:00:00+0900"))
        try checkout.git("tag", "v1.0")
        try checkout.replaceLine("CrashApp/Profile.swift", crashLine, with: "        return value ?? -1")
        commits.append(try checkout.commit("Do not trap on a missing field", date: "2024-03-01T10:00:00+0900"))
        try FileManager.default.createDirectory(at: checkout.folder.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try checkout.git("mv", "CrashApp", "Sources/CrashApp")
        commits.append(try checkout.commit("Move the sources", date: "2024-04-01T10:00:00+0900"))
        return (checkout, commits)
    }
}
