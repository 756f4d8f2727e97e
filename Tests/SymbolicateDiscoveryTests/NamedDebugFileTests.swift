import Foundation
import SymbolicateCore
import SymbolicateDWARF
import SymbolicateTestSupport
import Testing

@testable import SymbolicateDiscovery

/// The debug file a user names for one image (`atos -o`): found and read like a report's
/// debug files, one build chosen by `--uuid`, `--arch` or being the only one. Damaged and
/// identity-less copies are made at test time from the fixtures.
@Suite struct NamedDebugFileTests {
    static let macApp = "\(TestPaths.dsyms)/MacApp.app.dSYM"
    static let crashApp = "\(TestPaths.dsyms)/CrashApp.app.dSYM"

    /// A copy of a thin 64-bit Mach-O file whose LC_UUID is turned into a command nobody
    /// reads: the same build without an identity (what `ld -no_uuid` makes).
    static func withoutUUID(_ source: String, to destination: URL) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        func word(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) } }
        try #require(word(0) == 0xFEED_FACF)
        var offset = 32
        for _ in 0..<word(16) {
            if word(offset) == 0x1B { bytes[offset] = 0x7F }
            offset += Int(word(offset + 4))
        }
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: destination)
    }

    @Test func universalFileNeedsAnArchitectureOrUUIDAndErrorsListWhatWasFound() throws {
        let named = try NamedDebugFile(path: Self.macApp)
        let ambiguous = try #require(throws: DebugInfoError.self) { try named.choose() }
        #expect(ambiguous.path.hasSuffix("MacApp.app.dSYM/Contents/Resources/DWARF/MacApp"))
        #expect(ambiguous.message == "universal file with x86_64, arm64: choose one with --arch")
        let wrong = try #require(throws: DebugInfoError.self) {
            try named.choose(id: DebugID(uuid: "00000000-0000-0000-0000-000000000000"))
        }
        #expect(wrong.path == Self.macApp)
        #expect(
            wrong.message
                == "no slice with UUID 00000000-0000-0000-0000-000000000000 (found: x86_64 4C4C44E9-5555-3144-A121-B971AA1071A6; arm64 4C4C44A0-5555-3144-A158-AF459A33CC4C)"
        )
        let armv7 = try #require(throws: DebugInfoError.self) { try named.choose(architecture: .armv7) }
        #expect(armv7.message.hasPrefix("no slice with architecture armv7 (found: "))
        #expect(named.builds.count == 2)
        for build in named.builds {
            let id = try #require(build.debugID)
            #expect(try named.open(id: id).architecture == build.architecture)
            #expect(try named.open(architecture: build.architecture).debugID == id)
            // A UUID names one build: it wins over an architecture that disagrees.
            let other: Architecture = build.architecture == .arm64 ? .x86_64 : .arm64
            #expect(try named.open(id: id, architecture: other).architecture == build.architecture)
        }
        // arm64e stands in for the only arm64 slice (Architecture.match).
        #expect(try named.open(architecture: .arm64e).architecture == .arm64)
    }

    /// The index drops builds without an identity (nothing to match a report's image by);
    /// a file the user named is used anyway.
    @Test func buildWithoutUUIDIsUsedWhenNamed() throws {
        let root = try TestPaths.temporaryDirectory("named")
        defer { try? FileManager.default.removeItem(at: root) }
        let bundle = root.appendingPathComponent("NoUUID.dSYM")
        try Self.withoutUUID(
            "\(Self.crashApp)/Contents/Resources/DWARF/CrashApp", to: bundle.appendingPathComponent("Contents/Resources/DWARF/CrashApp"))
        #expect(try DebugFileIndex(inputs: [bundle.path]).entries.isEmpty)
        let named = try NamedDebugFile(path: bundle.path)
        let session = try named.open()
        #expect(session.debugID == nil)
        #expect(session.hasDWARF)
        #expect(try named.open(architecture: .arm64).hasDWARF)
        let error = try #require(throws: DebugInfoError.self) {
            try named.choose(id: DebugID(uuid: "4C4C443B-5555-3144-A1E9-455154CFFD57"))
        }
        #expect(error.message == "no slice with UUID 4C4C443B-5555-3144-A1E9-455154CFFD57 (found: arm64 no UUID)")
    }

    /// `objcopy --remove-section .note.gnu.build-id`: an ELF debug file without a build ID.
    @Test func elfFileWithoutBuildIDIsUsedWhenNamed() throws {
        guard let objcopy = ExternalTool.find("objcopy") else {
            print("NamedDebugFileTests: skipped: objcopy not found")
            return
        }
        let root = try TestPaths.temporaryDirectory("named")
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("crashy.debug").path
        _ = try ExternalTool.run(objcopy, ["--remove-section", ".note.gnu.build-id", LinuxFixtures.debugFile, file])
        #expect(try DebugFileIndex(inputs: [file]).entries.isEmpty)
        let session = try NamedDebugFile(path: file).open()
        #expect(session.debugID == nil)
        #expect(session.hasDWARF)
        let wanted = try #require(try DebugFile.openELF(path: LinuxFixtures.debugFile).debugID)
        let error = try #require(throws: DebugInfoError.self) { try NamedDebugFile(path: file).choose(id: wanted) }
        #expect(error.message == "build ID mismatch: the report's image has \(wanted.hexString), this file has no build ID")
    }

    /// The stripped binary has no DWARF; the `.gnu_debuglink` file beside it has the same
    /// build ID and DWARF, and answers instead (as it does for a report's image).
    @Test func strippedELFBinaryIsAnsweredByItsDebugLinkFile() throws {
        let named = try NamedDebugFile(path: LinuxFixtures.binary)
        #expect(named.builds.map(\.path) == [LinuxFixtures.binary, LinuxFixtures.debugFile])
        #expect(named.builds[0].debugID != nil && named.builds[0].debugID == named.builds[1].debugID)
        #expect(try named.choose().path == LinuxFixtures.binary)
        let session = try named.open()
        #expect(session.path == LinuxFixtures.debugFile)
        #expect(session.hasDWARF)
        let arch = try #require(throws: DebugInfoError.self) { try named.choose(architecture: .arm64) }
        #expect(arch.message == "architecture mismatch: asked for arm64, this ELF file is x86_64")
    }

    /// A debug file with another build ID than the binary is not its debug file.
    @Test func debugLinkFileOfAnotherBuildIsNotUsed() throws {
        let root = try TestPaths.temporaryDirectory("named")
        defer { try? FileManager.default.removeItem(at: root) }
        let binary = root.appendingPathComponent("crashy")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: LinuxFixtures.binary), to: binary)
        // Another build under the name the binary's .gnu_debuglink gives.
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: LinuxNamedFixture.debugFile), to: root.appendingPathComponent("crashy.debug"))
        let named = try NamedDebugFile(path: binary.path)
        #expect(named.builds.count == 2)
        let session = try named.open()
        #expect(session.path == binary.path)
        #expect(!session.hasDWARF)
    }

    /// Bad paths fail in the words of what is wrong, naming the file.
    @Test func badPathsAreErrorsNamingTheFile() throws {
        let root = try TestPaths.temporaryDirectory("named")
        defer { try? FileManager.default.removeItem(at: root) }
        let missing = root.appendingPathComponent("nope").path
        #expect(throws: DebugInfoError(path: missing, message: "no such file or directory")) { try NamedDebugFile(path: missing) }
        #expect(throws: DebugInfoError(path: root.path, message: "a directory but not a .dSYM bundle (no Contents/Resources/DWARF)")) {
            try NamedDebugFile(path: root.path)
        }
        let dwarf = root.appendingPathComponent("Empty.dSYM/Contents/Resources/DWARF")
        try FileManager.default.createDirectory(at: dwarf, withIntermediateDirectories: true)
        let empty = try NamedDebugFile(path: root.appendingPathComponent("Empty.dSYM").path)
        #expect(throws: DebugInfoError(path: empty.path, message: "the .dSYM bundle has no DWARF file in Contents/Resources/DWARF")) {
            try empty.open()
        }
        // A file that is no debug file is read anyway, and its format says why it is none.
        let zero = dwarf.appendingPathComponent("Empty")
        try Data().write(to: zero)
        let error = try #require(throws: DebugInfoError.self) { try NamedDebugFile(path: empty.path).open() }
        #expect(error.path == zero.path)
        #expect(error.message.contains("not a Mach-O file"))
        let text = root.appendingPathComponent("notes.txt")
        try Data("hello\n".utf8).write(to: text)
        let textError = try #require(throws: DebugInfoError.self) { try NamedDebugFile(path: text.path).open() }
        #expect(textError == DebugInfoError(path: text.path, offset: 0, message: "not a Mach-O file (magic 0x6c6c6568)"))
    }

    /// A FIFO is refused by its reader, never opened (which would wait for a writer).
    @Test func fifoIsRefusedNotWaitedOn() throws {
        let root = try TestPaths.temporaryDirectory("named")
        defer { try? FileManager.default.removeItem(at: root) }
        let dwarf = root.appendingPathComponent("X.dSYM/Contents/Resources/DWARF")
        try FileManager.default.createDirectory(at: dwarf, withIntermediateDirectories: true)
        let fifo = dwarf.appendingPathComponent("App").path
        try #require(mkfifo(fifo, 0o600) == 0)
        for path in [root.appendingPathComponent("X.dSYM").path, fifo] {
            let error = try #require(throws: DebugInfoError.self) { try NamedDebugFile(path: path).open() }
            #expect(error == DebugInfoError(path: fifo, message: "not a regular file (a FIFO); refusing to read it"))
        }
    }

    /// One unreadable file in a bundle no longer hides the good one beside it: it is said as a
    /// problem and the good build answers.
    @Test func damagedFileBesideAGoodOneIsAProblemNotAStop() throws {
        let root = try TestPaths.temporaryDirectory("named")
        defer { try? FileManager.default.removeItem(at: root) }
        let dwarf = root.appendingPathComponent("Mixed.dSYM/Contents/Resources/DWARF")
        try FileManager.default.createDirectory(at: dwarf, withIntermediateDirectories: true)
        // Sorted before CrashApp, as the first file the old route stopped at.
        try Data("x\n".utf8).write(to: dwarf.appendingPathComponent("AAA"))
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: "\(Self.crashApp)/Contents/Resources/DWARF/CrashApp"), to: dwarf.appendingPathComponent("CrashApp"))
        let named = try NamedDebugFile(path: root.appendingPathComponent("Mixed.dSYM").path)
        #expect(try named.open().debugID == DebugID(uuid: "4C4C443B-5555-3144-A1E9-455154CFFD57"))
        #expect(named.problems.map(\.description) == ["\(dwarf.path)/AAA: at offset 0x0: not a Mach-O file: 2 bytes long"])
    }
}
