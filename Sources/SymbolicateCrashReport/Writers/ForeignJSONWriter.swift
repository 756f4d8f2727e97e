import Foundation

extension CrashReport {
    /// A KSCrash report or Sentry event given back in its own layout (`--format ips` on such
    /// a report), every byte nobody changed copied as read. Symbolicated frames get the keys
    /// the layout's own symbolicators write: KSCrash `symbol_name` and `symbol_addr` (the
    /// function the address is in; inline levels are not a KSCrash notion); Sentry
    /// `function`, `symbol_addr`, `filename`, `abs_path`, `lineno`, `colno`, with one frame per
    /// inline level (callers first, as Sentry orders them). A report that was one of several in
    /// a file is written alone; an envelope gives its event.
    func foreignOutput(_ foreign: ForeignJSONSource) throws(CrashReportError) -> String {
        guard let (root, text) = try? JSONParser.parseKeepingLayout(foreign.bytes) else {
            throw CrashReportError(
                kind: .invalidJSON, path: path, message: "--format ips: the \(foreign.layout.rawValue) document no longer parses")
        }
        guard let (_, reportSpan) = Self.locate(foreign.reportPath, in: root, at: text.root) else {
            throw CrashReportError(
                kind: .notACrashReport, path: path,
                message: "--format ips: cannot find the report in the \(foreign.layout.rawValue) document")
        }
        var edits: [(range: Range<Int>, text: String)] = []
        for (kind, backtrace) in allBacktraces {
            guard let slot = foreign.frameSlots[kind],
                let (listValue, listSpan) = Self.locate(slot.path, in: root, at: text.root),
                let list = listValue.arrayValue, list.count == listSpan.children.count
            else { continue }
            for (k, frame) in backtrace.enumerated() where k < slot.elements.count {
                let element = slot.elements[k]
                guard list.indices.contains(element), case .object = list[element], let levels = frame.symbolication, !levels.isEmpty else {
                    continue
                }
                let span = listSpan.children[element]
                let replacement: String
                switch foreign.layout {
                case .kscrash:
                    let concrete = levels[levels.count - 1]
                    let (start, overflow) = frame.address.subtractingReportingOverflow(concrete.offsetInFunction)
                    replacement = text.editedObject(
                        list[element], at: span,
                        updates: [
                            ("symbol_name", .string(concrete.function)),
                            ("symbol_addr", overflow ? nil : .int(start)),
                        ])
                case .sentry:
                    // Sentry lists callers first: the concrete function, then inlined levels inward.
                    let objects = levels.reversed().enumerated().map { n, level in
                        text.editedObject(
                            list[element], at: span,
                            updates: [
                                ("function", .string(level.function)),
                                (
                                    "symbol_addr",
                                    n == 0 && level.offsetInFunction <= frame.address
                                        ? .string(hex(frame.address - level.offsetInFunction)) : nil
                                ),
                                ("filename", level.file.map { .string(FrameFormatting.basename($0)) }),
                                ("abs_path", level.file.map { .string($0) }),
                                ("lineno", level.line.map { .int($0) }),
                                ("colno", level.column.flatMap { $0 > 0 ? .int($0) : nil }),
                                ("symbolication_unverified", level.isUnverified ? .bool(true) : nil),
                            ])
                    }
                    replacement = objects.joined(separator: text.separator(around: element, in: listSpan))
                }
                edits.append((span.range, replacement))
            }
        }
        let whole = text.replacing(edits)
        guard !foreign.reportPath.isEmpty else { return whole.hasSuffix("\n") ? whole : whole + "\n" }
        // One report of a batch: its own object, with the edits inside it.
        let shift = edits.filter { $0.range.upperBound <= reportSpan.range.lowerBound }
            .reduce(0) { $0 + $1.text.utf8.count - $1.range.count }
        let inside = edits.filter {
            $0.range.lowerBound >= reportSpan.range.lowerBound && $0.range.upperBound <= reportSpan.range.upperBound
        }
        let length = reportSpan.range.count + inside.reduce(0) { $0 + $1.text.utf8.count - $1.range.count }
        let bytes = Array(whole.utf8)
        let start = reportSpan.range.lowerBound + shift
        guard start >= 0, start + length <= bytes.count else { return whole }
        return String(decoding: bytes[start..<(start + length)], as: UTF8.self) + "\n"
    }

    private func hex(_ v: UInt64) -> String { "0x" + String(v, radix: 16) }

    /// The value and span at `path`.
    static func locate(_ path: [JSONPathStep], in value: JSONValue, at span: JSONSpan) -> (JSONValue, JSONSpan)? {
        var current = (value, span)
        for step in path {
            switch step {
            case .key(let k):
                guard let next = JSONSourceText.member(k, of: current.0, at: current.1) else { return nil }
                current = (next.value, next.span)
            case .index(let i):
                guard let list = current.0.arrayValue, list.count == current.1.children.count, list.indices.contains(i) else { return nil }
                current = (list[i], current.1.children[i])
            }
        }
        return current
    }
}
