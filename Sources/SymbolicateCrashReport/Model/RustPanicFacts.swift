import Foundation

/// What the Rust runtime printed about a panic, when the report carries it: the location and
/// the message of `thread 'main' panicked at src/lib.rs:10:5:` followed by the message on the
/// next line (Rust 1.73 and later), or of the older one-line form
/// `thread 'main' panicked at 'index out of bounds: …', src/main.rs:4:5`. Found in Application
/// Specific Information (`.ips` `asi`) or among the report's lines (a console pasted with it).
public struct RustPanicMessage: Sendable, Hashable {
    /// The thread's name as Rust printed it (`main`, `<unnamed>`).
    public var thread: String?
    /// `src/lib.rs:10:5`.
    public var location: String?
    public var message: String?
    /// The report's 1-based line it was read from; nil when it was read from Application
    /// Specific Information.
    public var lineNumber: Int?
    /// The panic line as the report has it.
    public var line: String

    public init(thread: String?, location: String?, message: String?, lineNumber: Int?, line: String) {
        self.line = line
        self.thread = thread
        self.location = location
        self.message = message
        self.lineNumber = lineNumber
    }

    /// The thread's name and the range of ` panicked at ` in a panic line: `thread 'main' panicked
    /// at`, and since Rust 1.89 with the thread's id (`thread 'main' (14653) panicked at`).
    package static func panickedMarker(in line: Substring) -> (thread: Substring, marker: Range<Substring.Index>)? {
        guard let marker = line.byteRange(of: " panicked at ") else { return nil }
        var head = line[..<marker.lowerBound]
        if head.hasSuffix(")"), let open = head.lastIndex(of: "(") {
            let id = head[head.index(after: open)..<head.index(before: head.endIndex)]
            guard !id.isEmpty, id.allSatisfy({ $0.isASCII && $0.isNumber }), head[..<open].hasSuffix("' ") else { return nil }
            head = head[..<head.index(before: open)]
        }
        guard head.hasSuffix("'"), let quote = head.byteRange(of: "thread '") else { return nil }
        return (head[quote.upperBound..<head.index(before: head.endIndex)], marker)
    }

    /// Reads the first panic line of `lines`, the message from the line after it when the
    /// location line ends with `:`.
    package static func read(_ lines: [String], lineNumber: (Int) -> Int?) -> RustPanicMessage? {
        for (index, raw) in lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard let (name, panicked) = panickedMarker(in: Substring(line)) else { continue }
            let thread = String(name)
            let rest = line[panicked.upperBound...]
            if rest.hasPrefix("'"), let end = rest.range(of: "', ", options: .backwards) {
                // `'message', src/main.rs:4:5`
                let message = String(rest[rest.index(after: rest.startIndex)..<end.lowerBound])
                return RustPanicMessage(
                    thread: thread, location: String(rest[end.upperBound...]), message: message, lineNumber: lineNumber(index), line: line)
            }
            var location = String(rest)
            var message: String?
            if location.hasSuffix(":") {
                location.removeLast()
                let next = lines.indices.contains(index + 1) ? lines[index + 1].trimmingCharacters(in: .whitespaces) : ""
                if !next.isEmpty, !next.hasPrefix("note: ") { message = next }
            } else if let colon = location.byteRange(of: ": ") {
                // `src/lib.rs:10:5: message` (a line joined by a reporter).
                message = String(location[colon.upperBound...])
                location = String(location[..<colon.lowerBound])
            }
            return RustPanicMessage(
                thread: thread, location: location.isEmpty ? nil : location, message: message, lineNumber: lineNumber(index), line: line)
        }
        return nil
    }
}

extension CrashReport {
    /// The Rust runtime's panic line (`RustPanicMessage`), from Application Specific
    /// Information first, else from any line of a text report.
    public var rustPanicMessage: RustPanicMessage? {
        if let asi = applicationSpecificInformation {
            let lines = asi.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
            if let found = RustPanicMessage.read(lines, lineNumber: { _ in nil }) { return found }
        }
        if case .text(let document) = source {
            let lines = document.lines.map(\.text)
            return RustPanicMessage.read(lines, lineNumber: { $0 + 1 })
        }
        return nil
    }
}

extension RustPanicMessage {
    /// The standard library check an older Rust's fixed message names (its checks all went
    /// through `core::panicking::panic`, so only the message tells them apart).
    public enum StandardCheck: String, Sendable, Hashable {
        case indexOutOfBounds, unwrapFailed, divideByZero, arithmeticOverflow, cannotUnwind
    }

    /// The check `message` names, if it is one of the standard library's fixed messages.
    public var standardCheck: StandardCheck? {
        guard let message else { return nil }
        if message.hasPrefix("index out of bounds") { return .indexOutOfBounds }
        if message.hasPrefix("called `Option::unwrap()`") || message.hasPrefix("called `Result::unwrap()`") { return .unwrapFailed }
        if message.hasPrefix("attempt to divide by zero") || message.hasPrefix("attempt to calculate the remainder with a divisor of zero")
        {
            return .divideByZero
        }
        if message.hasPrefix("attempt to "), message.hasSuffix("with overflow") { return .arithmeticOverflow }
        if message.hasPrefix("panic in a function that cannot unwind") { return .cannotUnwind }
        return nil
    }
}
