import Foundation
import SymbolicateCore
import SymbolicateTestSupport
import Testing
import ZIPFoundation

@testable import SymbolicateDiscovery

/// Debug files arrive as bundles, folders, `.xcarchive`s and zips: each shape must index the
/// same UUIDs as the bundles themselves, and a hostile zip must be refused.
@Suite struct DiscoveryTests {
    /// UUIDs as `llvm-dwarfdump-19 --uuid` printed them for the fixture dSYMs (see
    /// Fixtures/README.md); CrashApp and CrashKit are the two images of the iOS reports.
    static let crashAppUUID: DebugID? = DebugID(uuid: "4C4C443B-5555-3144-A1E9-455154CFFD57")
    static let crashKitUUID: DebugID? = DebugID(uuid: "4c4c44ac5555 3144a15eef58810a0ee6")

    @Test func folderOfBundlesIndexesEverySlice() throws {
        let index = try DebugFileIndex(inputs: [TestPaths.dsyms])
        #expect(index.entries(id: try #require(Self.crashAppUUID)).count == 1)
        #expect(index.entries(id: try #require(Self.crashKitUUID)).count == 1)
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
            try FileManager.default.copyItem(
                atPath: "\(TestPaths.dsyms)/\(bundle)",
                toPath: dsymsFolder.appendingPathComponent(bundle).path)
        }
        let index = try DebugFileIndex(inputs: [archive.path])
        #expect(Set(index.entries.map { Optional($0.debugID) }) == [Self.crashAppUUID, Self.crashKitUUID])
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
            try FileManager.default.copyItem(
                atPath: "\(TestPaths.dsyms)/\(bundle)",
                toPath: collection.appendingPathComponent(bundle).path)
        }
        let index = try DebugFileIndex(inputs: [walked ? root.path : collection.path])
        #expect(Set(index.entries.map { Optional($0.debugID) }) == [Self.crashAppUUID, Self.crashKitUUID])
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
            #expect(Set(index.entries.map { Optional($0.debugID) }) == [Self.crashAppUUID, Self.crashKitUUID])
            #expect(index.entries.allSatisfy { $0.displayPath.hasPrefix(zipURL.path + "!") })
            extractedRoot = URL(fileURLWithPath: try #require(index.entries.first?.path))
            #expect(FileManager.default.fileExists(atPath: try #require(extractedRoot).path))
        }
        // The index is gone: its private unpack folder must be too.
        if let extractedRoot { #expect(!FileManager.default.fileExists(atPath: extractedRoot.path)) }
    }

    /// A zip with one good dSYM and `extra` entries added by `add`.
    static func zipWithGoodDSYM(_ url: URL, extra add: (Archive) throws -> Void) throws {
        let archive = try Archive(url: url, accessMode: .create)
        let base = URL(fileURLWithPath: TestPaths.dsyms)
        try archive.addEntry(with: "CrashApp.app.dSYM/Contents/Resources/DWARF/CrashApp", relativeTo: base, compressionMethod: .deflate)
        try add(archive)
    }

    static func addEntry(_ archive: Archive, _ path: String, _ payload: Data, deflate: Bool = false) throws {
        try archive.addEntry(
            with: path, type: .file, uncompressedSize: Int64(payload.count),
            compressionMethod: deflate ? .deflate : .none
        ) { position, size in
            payload.subdata(in: Int(position)..<Int(position) + size)
        }
    }

    @Test func zipWithEscapingEntrySkipsItAndKeepsTheRest() throws {
        let root = try TestPaths.temporaryDirectory("discovery")
        defer { try? FileManager.default.removeItem(at: root) }
        let zipURL = root.appendingPathComponent("evil.zip")
        try Self.zipWithGoodDSYM(zipURL) { archive in
            try Self.addEntry(archive, "../escaped.dSYM/Contents/Resources/DWARF/escaped", Data("not a dSYM".utf8))
        }
        let index = try DebugFileIndex(inputs: [zipURL.path])
        #expect(Set(index.entries.map { Optional($0.debugID) }) == [Self.crashAppUUID])
        let problem = try #require(index.problems.map(\.description).first { $0.contains("escapes") })
        #expect(problem.contains("evil.zip") && problem.contains("../escaped.dSYM"))
        #expect(!FileManager.default.fileExists(atPath: root.deletingLastPathComponent().appendingPathComponent("escaped.dSYM").path))
    }

    @Test func zipOverTheUnpackLimitIsRefused() throws {
        let root = try TestPaths.temporaryDirectory("discovery")
        defer { try? FileManager.default.removeItem(at: root) }
        let zipURL = root.appendingPathComponent("big.zip")
        let archive = try Archive(url: zipURL, accessMode: .create)
        try Self.addEntry(archive, "Big.dSYM/Contents/Resources/DWARF/Big", Data(repeating: 0, count: 4096), deflate: true)
        let extractor = try ZipExtractor(maximumUnpackedSize: 1024)
        defer { extractor.removeAll() }
        let refused = try extractor.extract(zipPath: zipURL.path) { _ in true }
        #expect(refused.skipped.count == 1)
        #expect(refused.skipped.first?.description.contains("SYMBOLICATE_MAX_UNZIP_GIB") == true)
        #expect(
            !FileManager.default.fileExists(atPath: refused.folder.appendingPathComponent("Big.dSYM/Contents/Resources/DWARF/Big").path))
        // Room for two unpackings: 4 KiB of data plus `inodeCost` for the file and each of its
        // four folders (Big.dSYM/Contents/Resources/DWARF), 24 KiB each.
        let roomy = try ZipExtractor(maximumUnpackedSize: 2 * 6 * ZipExtractor.inodeCost)
        defer { roomy.removeAll() }
        let folder = try roomy.extract(zipPath: zipURL.path) { _ in true }.folder
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Big.dSYM/Contents/Resources/DWARF/Big").path))
        // The limit is per run: a second archive does not get a fresh allowance.
        let second = try roomy.extract(zipPath: zipURL.path) { _ in true }
        #expect(second.skipped.count == 0)
        let third = try roomy.extract(zipPath: zipURL.path) { _ in true }
        #expect(third.skipped.count == 1)
    }

    /// Patches the first entry's local and central headers: general-purpose flags, method,
    /// and the declared uncompressed size.
    static func patchFirstEntry(_ url: URL, flags: UInt16? = nil, method: UInt16? = nil, declaredSize: UInt32? = nil) throws {
        var bytes = [UInt8](try Data(contentsOf: url))
        func put16(_ value: UInt16, _ at: Int) {
            bytes[at] = UInt8(value & 0xFF)
            bytes[at + 1] = UInt8(value >> 8)
        }
        func put32(_ value: UInt32, _ at: Int) { for i in 0..<4 { bytes[at + i] = UInt8((value >> (8 * UInt32(i))) & 0xFF) } }
        let local = 0
        #expect(bytes[0...3] == [0x50, 0x4B, 0x03, 0x04])
        let central = try #require((0..<(bytes.count - 4)).first { bytes[$0...($0 + 3)] == [0x50, 0x4B, 0x01, 0x02] })
        if let flags {
            put16(flags, local + 6)
            put16(flags, central + 8)
        }
        if let method {
            put16(method, local + 8)
            put16(method, central + 10)
        }
        if let declaredSize {
            put32(declaredSize, local + 22)
            put32(declaredSize, central + 24)
        }
        try Data(bytes).write(to: url)
    }

    /// The reproducer: headers claim 100,000 bytes, the data inflates to 48 MiB (20 GiB in
    /// the original report). Unpacking must stop right after the declared size.
    @Test func entryInflatingPastItsDeclaredSizeStopsThere() throws {
        let root = try TestPaths.temporaryDirectory("discovery")
        defer { try? FileManager.default.removeItem(at: root) }
        let zipURL = root.appendingPathComponent("liar.zip")
        let archive = try Archive(url: zipURL, accessMode: .create)
        try Self.addEntry(archive, "Bomb.dSYM/Contents/Resources/DWARF/Bomb", Data(repeating: 0, count: 48 << 20), deflate: true)
        try Self.addEntry(archive, "Good.dSYM/Contents/Resources/DWARF/Good", Data("fine".utf8))
        try Self.patchFirstEntry(zipURL, declaredSize: 100_000)
        let extractor = try ZipExtractor()
        defer { extractor.removeAll() }
        let result = try extractor.extract(zipPath: zipURL.path) { _ in true }
        let message = try #require(result.skipped.first?.description)
        #expect(message.contains("liar.zip") && message.contains("Bomb.dSYM") && message.contains("declared size of 100000"))
        #expect(
            !FileManager.default.fileExists(atPath: result.folder.appendingPathComponent("Bomb.dSYM/Contents/Resources/DWARF/Bomb").path))
        #expect(
            FileManager.default.fileExists(atPath: result.folder.appendingPathComponent("Good.dSYM/Contents/Resources/DWARF/Good").path))
    }

    @Test func entryWithABombRatioIsSkipped() throws {
        let root = try TestPaths.temporaryDirectory("discovery")
        defer { try? FileManager.default.removeItem(at: root) }
        let zipURL = root.appendingPathComponent("ratio.zip")
        let archive = try Archive(url: zipURL, accessMode: .create)
        try Self.addEntry(archive, "zeros.crash", Data(repeating: 0, count: 4 << 20), deflate: true)
        let extractor = try ZipExtractor(ratioGrace: 1 << 20)
        defer { extractor.removeAll() }
        let result = try extractor.extract(zipPath: zipURL.path) { _ in true }
        #expect(result.skipped.first?.description.contains("zip bomb") == true)
    }

    @Test(arguments: [(UInt16(1), UInt16?.none, "encrypted"), (0, 12, "bzip2"), (0, 14, "LZMA"), (0, 99, "AES")])
    func encryptedAndUnsupportedEntriesAreNamed(flags: UInt16, method: UInt16?, word: String) throws {
        let root = try TestPaths.temporaryDirectory("discovery")
        defer { try? FileManager.default.removeItem(at: root) }
        let zipURL = root.appendingPathComponent("odd.zip")
        let archive = try Archive(url: zipURL, accessMode: .create)
        try Self.addEntry(archive, "a.crash", Data("Incident Identifier: X\n".utf8))
        try Self.addEntry(archive, "b.crash", Data("Incident Identifier: Y\n".utf8))
        try Self.patchFirstEntry(zipURL, flags: flags, method: method)
        let extractor = try ZipExtractor()
        defer { extractor.removeAll() }
        let result = try extractor.extract(zipPath: zipURL.path) { _ in true }
        #expect(result.skipped.count == 1)
        let message = try #require(result.skipped.first?.description)
        #expect(message.contains("odd.zip") && message.contains("'a.crash'") && message.contains(word), "\(message)")
        #expect(FileManager.default.fileExists(atPath: result.folder.appendingPathComponent("b.crash").path))
    }

    @Test func duplicateAndClashingEntriesAreSkippedOneByOne() throws {
        let root = try TestPaths.temporaryDirectory("discovery")
        defer { try? FileManager.default.removeItem(at: root) }
        let zipURL = root.appendingPathComponent("clash.zip")
        let archive = try Archive(url: zipURL, accessMode: .create)
        try Self.addEntry(archive, "a.crash", Data("one".utf8))
        try Self.addEntry(archive, "a.crash", Data("two".utf8))
        try Self.addEntry(archive, "a.crash/inner.crash", Data("three".utf8))
        try Self.addEntry(archive, "dir/x.crash", Data("four".utf8))
        try Self.addEntry(archive, "dir", Data("five".utf8))
        try Self.addEntry(archive, "ok.crash", Data("six".utf8))
        let extractor = try ZipExtractor()
        defer { extractor.removeAll() }
        let result = try extractor.extract(zipPath: zipURL.path) { _ in true }
        #expect(result.skipped.count == 3, "\(result.skipped)")
        #expect(result.skipped.map(\.description).allSatisfy { $0.contains("clash.zip: entry '") })
        #expect(try String(contentsOf: result.folder.appendingPathComponent("a.crash"), encoding: .utf8) == "one")
        #expect(try String(contentsOf: result.folder.appendingPathComponent("dir/x.crash"), encoding: .utf8) == "four")
        #expect(try String(contentsOf: result.folder.appendingPathComponent("ok.crash"), encoding: .utf8) == "six")
    }

    @Test func extractorFolderIsCreatedLazilyAndRegistered() throws {
        let extractor = try ZipExtractor()
        #expect(!FileManager.default.fileExists(atPath: extractor.root.path))
        #expect(extractor.root.lastPathComponent.utf8.count < 64)
        extractor.removeAll()
        #expect(!TemporaryFiles.registered.contains(extractor.root.path))
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
