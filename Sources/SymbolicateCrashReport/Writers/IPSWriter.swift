import Foundation

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
        guard case .ips(_, let body, let original) = source else {
            throw CrashReportError(
                kind: .notACrashReport, path: path,
                message: "--format ips needs an .ips report with a JSON body; this is a \(format.rawValue) report")
        }
        let text = original.body
        var edits: [(range: Range<Int>, text: String)] = []
        if let list = JSONSourceText.member("threads", of: body, at: text.root), let threadValues = list.value.arrayValue {
            for (t, thread) in threads.enumerated() where t < threadValues.count && t < list.span.children.count {
                if let frames = JSONSourceText.member("frames", of: threadValues[t], at: list.span.children[t]) {
                    edits += Self.frameEdits(frames.value, at: frames.span, thread.frames, in: text)
                }
            }
        }
        if let leb = lastExceptionBacktrace, let frames = JSONSourceText.member("lastExceptionBacktrace", of: body, at: text.root) {
            edits += Self.frameEdits(frames.value, at: frames.span, leb.frames, in: text)
        }
        return original.headerLine + text.replacing(edits)
    }

    /// One edit per symbolicated frame of a JSON `frames` array: the frame object becomes one
    /// object per level (inline levels first), joined the way the array's elements are.
    private static func frameEdits(_ json: JSONValue, at span: JSONSpan, _ frames: [Frame], in text: JSONSourceText) -> [(
        range: Range<Int>, text: String
    )] {
        guard let list = json.arrayValue, list.count == span.children.count else { return [] }
        var edits: [(range: Range<Int>, text: String)] = []
        for (i, original) in list.enumerated() {
            guard i < frames.count, let levels = frames[i].symbolication, !levels.isEmpty, case .object = original else { continue }
            let objects = levels.enumerated().map { k, level in
                text.editedObject(
                    original, at: span.children[i],
                    updates: [
                        ("symbol", .string(level.function)),
                        ("symbolLocation", .int(level.offsetInFunction)),
                        ("sourceFile", level.file.map { .string(FrameFormatting.basename($0)) }),
                        ("sourceLine", level.line.map { .int($0) }),
                        ("inline", k < levels.count - 1 ? .bool(true) : nil),
                        // Not a CrashSymbolicator key: says the debug file was matched by name only.
                        ("symbolicationUnverified", level.isUnverified ? .bool(true) : nil),
                    ])
            }
            edits.append((span.children[i].range, objects.joined(separator: text.separator(around: i, in: span))))
        }
        return edits
    }

    /// The model as JSON (`--format json`): keys as in the Swift types, sorted; addresses as
    /// numbers. Stable: keys are only ever added.
    package func jsonDump() -> String {
        (OutputJSON.text(self) ?? "{}") + "\n"
    }
}
