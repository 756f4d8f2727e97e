import Foundation
import SymbolicateCore
import Testing
import ZIPFoundation
@testable import SymbolicateDiscovery
import SymbolicateTestSupport

/// Debug files arrive as bundles, folders, `.xcarchive`s and zips: each shape must index the
/// same UUIDs as the bundles themselves, and a hostile zip must be refused.
@Suite struct DiscoveryTests {
    /// UUIDs as `llvm-dwarfdump-19 --uuid` printed them for the fixture dSYMs (see
    /// Fixtures/README.md); CrashApp and CrashKit are the two images of the iOS reports.
    static let crashAppUUID = DebugID(uuid: "4C4C443B-5555-3144-A1E9-455154CFFD57")!
    static let crashKitUUID = DebugID(uuid: "4c4c44ac5555 3144a15eef58810a0ee6")!

    @Test func folderOfBundlesIndexesEverySlice() throws {
        let index = try DebugFileIndex(inputs: [TestPaths.dsyms])
        #expect(index.entries(id: Self.crashAppUUID).count == 1)
        #expect(index.entries(id: Self.crashKitUUID).count == 1)
        // The universal MacApp dSYM contributes one entry per slice.
        let macApp = index.entries.filter { $0.path.hasSuffix("/MacApp") }
        #expect(Set(macApp.map(\.architecture)) == [.x86_64, .arm64])
        #expect(index.problems.isEmpty)
    }

    @Test func xcarchiveShapedFolder() throws {
        let root = try TestPaths.temporaryDirectory("discovery")
        defer { try? FileManager.default.removeItem(at: root) }
        let archive = root.appendingPathComponent("CrashApp 2026-11-21.xcarchive")
        let dsymsFolder = archive.appendingPathComponent("dSYMs")
        try FileManager.default.createDirectory(at: dsymsFolder, withIntermediateDirectories: true)
        for bundle in ["CrashApp.app.dSYM", "CrashKit.framework.dSYM"] {
            try FileManager.default.copyItem(atPath: "\(TestPaths.dsyms)/\(bundle)",
                                             toPath: dsymsFolder.appendingPathComponent(bundle).path)
        }
        let index = try DebugFileIndex(inputs: [archive.path])
        #expect(Set(index.entries.map(\.debugID)) == [Self.crashAppUUID, Self.crashKitUUID])
        #expect(index.entries.allSatisfy { $0.displayPath.hasPrefix(archive.path + "/dSYMs/") })
    }

    /// `Embedded.app.dSYM/App.app.dSYM`, `…/Framework.framework.dSYM`: a folder named like
    /// a dSYM that only holds dSYMs is searched, as an input and inside a walked folder.
    @Test(arguments: [false, true])
    func folderNamedDSYMHoldingDSYMs(walked: Bool) throws {
        let root = try TestPaths.temporaryDirectory("discovery")
        defer { try? FileManager.default.removeItem(at: root) }
        let collection = root.appendingPathComponent("Embedded.app.dSYM")
        try FileManager.default.createDirectory(at: collection, withIntermediateDirectories: true)
        for bundle in ["CrashApp.app.dSYM", "CrashKit.framework.dSYM"] {
            try FileManager.default.copyItem(atPath: "\(TestPaths.dsyms)/\(bundle)",
                                             toPath: collection.appendingPathComponent(bundle).path)
        }
        let index = try DebugFileIndex(inputs: [walked ? root.path : collection.path])
        #expect(Set(index.entries.map(\.debugID)) == [Self.crashAppUUID, Self.crashKitUUID])
        #expect(index.problems.isEmpty)
    }

    @Test func zipOfDSYMsIsReadAndCleanedUp() throws {
        let root = try TestPaths.temporaryDirectory("discovery")
        defer { try? FileManager.default.removeItem(at: root) }
        let zipURL = root.appendingPathComponent("appDsyms.zip")
        let archive = try Archive(url: zipURL, accessMode: .create)
        let base = URL(fileURLWithPath: TestPaths.dsyms)
        for bundle in ["CrashApp.app.dSYM", "CrashKit.framework.dSYM"] {
            let enumerator = FileManager.default.enumerator(atPath: base.appendingPathComponent(bundle).path)
            while let relative = enumerator?.nextObject() as? String {
                let path = "\(bundle)/\(relative)"
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: base.appendingPathComponent(path).path, isDirectory: &isDirectory)
                if !isDirectory.boolValue {
                    try archive.addEntry(with: path, relativeTo: base, compressionMethod: .deflate)
                }
            }
        }
        var extractedRoot: URL?
        do {
            let index = try DebugFileIndex(inputs: [zipURL.path])
            #expect(Set(index.entries.map(\.debugID)) == [Self.crashAppUUID, Self.crashKitUUID])
            #expect(index.entries.allSatisfy { $0.displayPath.hasPrefix(zipURL.path + "!") })
            extractedRoot = URL(fileURLWithPath: try #require(index.entries.first?.path))
            #expect(FileManager.default.fileExists(atPath: try #require(extractedRoot).path))
        }
        // The index is gone: its private unpack folder must be too.
        if let extractedRoot { #expect(!FileManager.default.fileExists(atPath: extractedRoot.path)) }
    }

    @Test func zipWithEscapingEntryIsRejected() throws {
        let root = try TestPaths.temporaryDirectory("discovery")
        defer { try? FileManager.default.removeItem(at: root) }
        let zipURL = root.appendingPathComponent("evil.zip")
        let archive = try Archive(url: zipURL, accessMode: .create)
        let payload = Data("not a dSYM".utf8)
        try archive.addEntry(with: "../escaped.dSYM/Contents/Resources/DWARF/escaped", type: .file,
                             uncompressedSize: Int64(payload.count)) { position, size in
            payload.subdata(in: Int(position)..<Int(position) + size)
        }
        #expect(throws: DiscoveryError.self) { try DebugFileIndex(inputs: [zipURL.path]) }
        do {
            _ = try DebugFileIndex(inputs: [zipURL.path])
        } catch {
            #expect(error.description.contains("escapes"))
            #expect(error.description.contains("evil.zip"))
        }
        #expect(!FileManager.default.fileExists(atPath: root.deletingLastPathComponent().appendingPathComponent("escaped.dSYM").path))
    }

    @Test func zipOverTheUnpackLimitIsRefused() throws {
        let root = try TestPaths.temporaryDirectory("discovery")
        defer { try? FileManager.default.removeItem(at: root) }
        let zipURL = root.appendingPathComponent("big.zip")
        let archive = try Archive(url: zipURL, accessMode: .create)
        let payload = Data(repeating: 0, count: 4096)  // deflates to almost nothing
        try archive.addEntry(with: "Big.dSYM/Contents/Resources/DWARF/Big", type: .file,
                             uncompressedSize: Int64(payload.count), compressionMethod: .deflate) { position, size in
            payload.subdata(in: Int(position)..<Int(position) + size)
        }
        let extractor = try ZipExtractor(maximumUnpackedSize: 1024)
        defer { extractor.removeAll() }
        #expect(throws: DiscoveryError.self) {
            try extractor.extract(zipPath: zipURL.path) { _ in true }
        }
        let roomy = try ZipExtractor(maximumUnpackedSize: 8192)
        defer { roomy.removeAll() }
        let folder = try roomy.extract(zipPath: zipURL.path) { _ in true }
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Big.dSYM/Contents/Resources/DWARF/Big").path))
    }

    @Test(arguments: ["a/../../b", "/etc/passwd", "..", "a/./../.."])
    func escapingPathsAreRefused(path: String) {
        #expect(ZipExtractor.safeRelativePath(path) == nil)
    }

    @Test func normalPathsAreKept() {
        #expect(ZipExtractor.safeRelativePath("A.dSYM/Contents/./Info.plist") == "A.dSYM/Contents/Info.plist")
    }

    @Test func missingInputIsAnError() {
        #expect(throws: DiscoveryError.notFound(path: "/nonexistent/App.dSYM")) {
            try DebugFileIndex(inputs: ["/nonexistent/App.dSYM"])
        }
    }

    @Test func environmentSearchPath() {
        let folders = DebugFileIndex.extraSearchFolders(environment: ["SYMBOLICATE_DSYM_PATH": "/a:/b::/c"])
        #expect(folders == ["/a", "/b", "/c"])
    }
}
