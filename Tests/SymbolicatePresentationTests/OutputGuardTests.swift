import Foundation
import SymbolicatePresentation
import Testing

/// Outputs never replace inputs, whatever spelling of the path reaches the same file.
@Suite struct OutputGuardTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("output-guard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("App.dSYM/Contents/Resources/DWARF"), withIntermediateDirectories: true)
        try Data("report".utf8).write(to: folder.appendingPathComponent("crash.ips"))
        try Data("dwarf".utf8).write(to: folder.appendingPathComponent("App.dSYM/Contents/Resources/DWARF/App"))
    }

    @Test func theSameFileByAnyPathIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("crash.ips").path
        let guardian = OutputGuard(inputs: [report])
        #expect(guardian.input(replacedBy: report) == report)
        #expect(guardian.input(replacedBy: folder.path + "/./crash.ips") == report)
        try FileManager.default.linkItem(atPath: report, toPath: folder.appendingPathComponent("hard.ips").path)
        #expect(guardian.input(replacedBy: folder.appendingPathComponent("hard.ips").path) == report)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("soft.ips").path, withDestinationPath: report)
        #expect(guardian.input(replacedBy: folder.appendingPathComponent("soft.ips").path) == report)
        #expect(guardian.input(replacedBy: folder.appendingPathComponent("other.txt").path) == nil)
    }

    @Test func nothingIsWrittenInsideAnInputBundle() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let dwarf = folder.appendingPathComponent("App.dSYM/Contents/Resources/DWARF/App").path
        // The DWARF file found inside a bundle stands for the whole bundle.
        let guardian = OutputGuard(inputs: [dwarf])
        #expect(guardian.input(replacedBy: folder.appendingPathComponent("App.dSYM/Contents/Info.plist").path) != nil)
        #expect(guardian.input(replacedBy: folder.appendingPathComponent("App.symbolicated.crash").path) == nil)
    }

    @Test func devicesAreWrittenInPlace() {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(OutputGuard(inputs: ["/dev/null"]).input(replacedBy: "/dev/null") == nil)
    }
}
