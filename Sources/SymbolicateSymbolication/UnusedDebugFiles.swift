import Foundation
import SymbolicateCore
import SymbolicateDiscovery

/// A debug file the user named that matched no image of the report, described by what it
/// holds next to what the report needs — "no dSYM for X" alone does not tell a user that
/// they passed last week's build or another app's dSYM.
public struct UnusedDebugFile: Sendable, Equatable, CustomStringConvertible {
    /// The file as the user knows it (`App.dSYM`, `dSYMs.zip!App.dSYM`).
    public var displayPath: String
    /// `ImageName <UUID> arch` for each slice it holds.
    public var holds: [String]
    /// `ImageName <UUID> arch` for each app image left without a debug file.
    public var needed: [String]

    public var description: String {
        let held = holds.isEmpty ? "no image with a UUID" : Self.list(holds)
        var text = "\(displayPath) was not used: it holds \(held)"
        if !needed.isEmpty { text += "; the report needs \(Self.list(needed))" }
        return text
    }

    static func list(_ items: [String]) -> String {
        items.count <= 3 ? items.joined(separator: ", ") : items.prefix(3).joined(separator: ", ") + " and \(items.count - 3) more"
    }

    /// The named debug files no image used, when some app image has no debug file (if every
    /// app image is symbolicated, an extra dSYM is harmless and not worth a word).
    package static func find(index: DebugFileIndex, summary: SymbolicationSummary) -> [UnusedDebugFile] {
        let needed = summary.diagnostics.filter { $0.isAppImage && $0.kind != .unreadableDebugFile && $0.kind != .objectFileProblem }.map {
            diagnostic in
            identity(name: diagnostic.imageName, id: diagnostic.uuid, arch: diagnostic.arch)
        }
        guard !needed.isEmpty else { return [] }
        let used = Set(summary.debugFiles.values)
        var order: [String] = []
        var held: [String: [String]] = [:]
        for entry in index.entries where !used.contains(entry.displayPath) {
            if held[entry.displayPath] == nil { order.append(entry.displayPath) }
            let name = URL(fileURLWithPath: entry.path).lastPathComponent
            held[entry.displayPath, default: []].append(identity(name: name, id: entry.debugID, arch: entry.architecture))
        }
        return order.map { UnusedDebugFile(displayPath: $0, holds: held[$0] ?? [], needed: needed) }
    }

    static func identity(name: String, id: DebugID?, arch: Architecture?) -> String {
        [name, id.map { "<\($0)>" }, arch?.name].compactMap { $0 }.joined(separator: " ")
    }
}
