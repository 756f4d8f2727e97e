import Foundation
import SymbolicateJSON

extension CrashReport {
    /// A KSCrash report or Sentry event given back in its own layout (`--format ips` on such
    /// a report), every byte nobody changed copied as read. Symbolicated frames get the keys
    /// the layout's own symbolicators write: KSCrash `symbol_name` and `symbol_addr` (the
    /// function the address is in; inline levels are not a KSCrash notion); Sentry
    /// `function`, `symbol_addr`, `filename`, `abs_path`, `lineno`, `colno`, with one frame per
    /// inline level (callers first, as Sentry orders them). A report that was one of several in
    /// a file is written alone; an envelope gives its event.
    func foreignOutput(_ foreign: ForeignJSONSource) throws(CrashReportError) -> String {
        guard let text = try? JSONParser.parseTape(foreign.bytes) else {
            throw CrashReportError(
                kind: .invalidJSON, path: path, message: "--format ips: the \(foreign.layout.rawValue) document no longer parses")
        }
        guard let reportSpan = Self.locate(foreign.reportPath, in: text.root) else {
            throw CrashReportError(
                kind: .notACrashReport, path: path,
                message: "--format ips: cannot find the report in the \(foreign.layout.rawValue) document")
        }
        var edits: [(range: Range<Int>, text: String)] = []
        for (kind, backtrace) in allBacktraces {
            guard let slot = foreign.frameSlots[kind],
                let listSpan = Self.locate(slot.path, in: text.root), listSpan.isArray
            else { continue }
            let list = listSpan.children
            for (k, frame) in backtrace.enumerated() where k < slot.elements.count {
                let element = slot.elements[k]
                guard list.indices.contains(element), list[element].isObject, let levels = frame.symbolication, !levels.isEmpty else {
                    continue
                }
                let span = list[element]
                let replacement: String
                switch foreign.layout {
                case .kscrash:
                    let concrete = levels[levels.count - 1]
                    let (start, overflow) = frame.address.subtractingReportingOverflow(concrete.offsetInFunction)
                    replacement = text.editedObject(
                        span,
                        updates: [
                            ("symbol_name", .string(concrete.function)),
                            ("symbol_addr", overflow ? nil : .int(start)),
                        ])
                case .sentry:
                    // Sentry lists callers first: the concrete function, then inlined levels inward.
                    let objects = levels.reversed().enumerated().map { n, level in
                        text.editedObject(
                            span,
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
                                ("symbolication_guess", level.isGuess ? .bool(true) : nil),
                            ])
                    }
                    replacement = objects.joined(separator: text.separator(around: element, in: listSpan, kids: list))
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

    /// The value at `path`.
    static func locate(_ path: [JSONPathStep], in root: JSONNode) -> JSONNode? {
        var current = root
        for step in path {
            switch step {
            case .key(let k):
                guard let next = current[k] else { return nil }
                current = next
            case .index(let i):
                guard current.isArray else { return nil }
                let list = current.children
                guard list.indices.contains(i) else { return nil }
                current = list[i]
            }
        }
        return current
    }
}
