import Foundation

/// Paths and external tools shared by the DWARF tests.
enum Fixture {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let root = packageRoot.appendingPathComponent("Fixtures")

    /// Every committed dSYM bundle.
    static var dsyms: [String] {
        let folder = root.appendingPathComponent("dsyms")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".dSYM") }.sorted().map { folder.appendingPathComponent($0).path }
    }

    /// An executable found on PATH or in the usual toolchain folders, or nil.
    static func tool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/opt/swift/usr/bin", "/usr/bin", "/usr/lib/llvm-19/bin"]
        for folder in folders {
            let candidate = (folder as NSString).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs a tool and returns its stdout; stdin optional.
    static func run(_ executable: String, _ arguments: [String], stdin: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        nonisolated(unsafe) var result = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            result = output.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        return String(decoding: result, as: UTF8.self)
    }

    /// A fresh temporary directory for damaged copies.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("symbolicate-dwarf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
