import Foundation

extension CrashReport {
    /// The `.ips` again: the header line as it was, and the body with symbolicated frames
    /// filled in the way CrashSymbolicator.py does (formats.md §4.3): `symbol`,
    /// `symbolLocation`, `sourceFile`, `sourceLine`, and one extra frame object with
    /// `"inline": true` per inline level, placed before the concrete frame and sharing its
    /// `imageOffset`/`imageIndex`. Every other key is kept as it was.
    public func ipsOutput() throws(CrashReportError) -> String {
        guard case .ips(_, var body, let headerLine) = source else {
            throw CrashReportError(kind: .notACrashReport, path: path,
                                   message: "--format ips needs an .ips report with a JSON body; this is a \(format.rawValue) report")
        }
        if var list = body["threads"]?.arrayValue {
            for (t, thread) in threads.enumerated() where t < list.count {
                if let frames = list[t]["frames"]?.arrayValue {
                    list[t].set("frames", .array(Self.merge(frames, thread.frames)))
                }
            }
            body.set("threads", .array(list))
        }
        if let leb = lastExceptionBacktrace, let frames = body["lastExceptionBacktrace"]?.arrayValue {
            body.set("lastExceptionBacktrace", .array(Self.merge(frames, leb.frames)))
        }
        return (headerLine.isEmpty ? "" : headerLine + "\n") + body.prettyText() + "\n"
    }

    private static func merge(_ json: [JSONValue], _ frames: [Frame]) -> [JSONValue] {
        var out: [JSONValue] = []
        for (i, original) in json.enumerated() {
            guard i < frames.count, let levels = frames[i].symbolication, !levels.isEmpty else {
                out.append(original)
                continue
            }
            for (k, level) in levels.enumerated() {
                var f = original
                f.set("symbol", .string(level.function))
                f.set("symbolLocation", .int(level.offsetInFunction))
                f.set("sourceFile", level.file.map { .string(FrameFormatting.basename($0)) })
                f.set("sourceLine", level.line.map { .int($0) })
                f.set("inline", k < levels.count - 1 ? .bool(true) : nil)
                out.append(f)
            }
        }
        return out
    }

    /// The model as JSON (`--format json`): keys as in the Swift types, sorted; addresses as
    /// numbers. Stable: keys are only ever added.
    public func jsonDump() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
