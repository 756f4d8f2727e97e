import Foundation
import SymbolicateJSON

extension CrashReport {
    /// The `.ips` again, in the input's own layout: the header line and every byte of the body
    /// that symbolication does not touch are copied as read (Apple's compact one-line body, its
    /// pretty form, a re-serialised one — spacing, key order, number spelling and escapes
    /// included). Symbolicated frames get the keys CrashSymbolicator.py writes
    /// (`Fixtures/expected/swift-trap.ips.symbolicated.ips`): `symbol`, `symbolLocation`, `sourceFile`, `sourceLine`, and one extra frame object
    /// with `"inline": true` per inline level, placed before the concrete frame and sharing its
    /// `imageOffset`/`imageIndex`, each laid out like the frame it comes from.
    package func ipsOutput() throws(CrashReportError) -> String {
        if let foreign { return try foreignOutput(foreign) }
        guard case .ips(_, let body, let headerLine) = source else {
            throw CrashReportError(
                kind: .notACrashReport, path: path,
                message: "--format ips needs an .ips report with a JSON body; this is a \(format.rawValue) report")
        }
        var edits: [(range: Range<Int>, text: String)] = []
        if let list = body["threads"], list.isArray {
            let threadNodes = list.children
            for (t, thread) in threads.enumerated() where t < threadNodes.count {
                if let frames = threadNodes[t]["frames"] { edits += Self.frameEdits(frames, thread.frames) }
            }
        }
        if let leb = lastExceptionBacktrace, let frames = body["lastExceptionBacktrace"] {
            edits += Self.frameEdits(frames, leb.frames)
        }
        return body.tape.replacing(edits, after: headerLine)
    }

    /// One edit per symbolicated frame of a JSON `frames` array: the frame object becomes one
    /// object per level (inline levels first), joined the way the array's elements are.
    private static func frameEdits(_ list: JSONNode, _ frames: [Frame]) -> [(range: Range<Int>, text: String)] {
        guard list.isArray else { return [] }
        let elements = list.children
        var edits: [(range: Range<Int>, text: String)] = []
        for (i, original) in elements.enumerated() {
            guard i < frames.count, let levels = frames[i].symbolication, !levels.isEmpty, original.isObject else { continue }
            let objects = levels.enumerated().map { k, level in
                list.tape.editedObject(
                    original,
                    updates: [
                        ("symbol", .string(level.function)),
                        ("symbolLocation", .int(level.offsetInFunction)),
                        ("sourceFile", level.file.map { .string(FrameFormatting.basename($0)) }),
                        ("sourceLine", level.line.map { .int($0) }),
                        ("inline", k < levels.count - 1 ? .bool(true) : nil),
                        // Not a CrashSymbolicator key: says the debug file was matched by name only.
                        ("symbolicationUnverified", level.isUnverified ? .bool(true) : nil),
                        ("symbolicationGuess", level.isGuess ? .bool(true) : nil),
                    ])
            }
            edits.append((original.range, objects.joined(separator: list.tape.separator(around: i, in: list, kids: elements))))
        }
        return edits
    }

    /// The model as JSON (`--format json`): keys as in the Swift types, sorted; addresses as
    /// numbers. Stable: keys are only ever added.
    package func jsonDump() -> String {
        (OutputJSON.text(self) ?? "{}") + "\n"
    }
}
