import Foundation

/// What the crash-text grammar reads of each line of one document, kept while the document
/// lives: detection, the console reader and fact reading ask the same lines the same questions
/// (the message a line states, the line without its log prefixes), and each answer costs every
/// prefix shape and every message shape (issue 47: the `explain` fuzz target's time).
/// Shared by the document's copies; keyed by the line's text without its edge blanks, so a
/// caller holding the line or its trimmed form gets the one answer.
final class LineReadings: @unchecked Sendable {
    typealias Match = (family: StatedMessage.Family, text: Substring)

    private let lock = NSLock()
    private var matches: [String: Match?] = [:]
    private var stripped: [String: Substring] = [:]

    /// `CrashMessageGrammar.match(line)`, read once.
    func match(_ line: String) -> Match? {
        let key = line.trimmedBlanks
        if let known = lock.withLock({ matches[key] }) { return known }
        let found = CrashMessageGrammar.match(key)
        lock.withLock { matches[key] = .some(found) }
        return found
    }

    private var shape: DebuggerOutputShape??

    /// `DebuggerOutputShape.of(document)`, decided once for the two readers that ask it.
    func debuggerOutputShape(_ decide: () -> DebuggerOutputShape?) -> DebuggerOutputShape? {
        if let known = lock.withLock({ shape }) { return known }
        let decided = decide()
        lock.withLock { shape = .some(decided) }
        return decided
    }

    private var frames: [String: (frame: Frame, numbered: Bool)?] = [:]

    /// `PastedFrameGrammar.parseNumbered(line, reportLine:)`, read once per text: detection, the
    /// console reader and fact reading each ask whether a line is a frame. A frame read before
    /// for another line of the same text gets this line's number.
    /// The line is read without its edge blanks, as the other readings are.
    func frame(_ line: String, reportLine: Int) -> (frame: Frame, numbered: Bool)? {
        let key = line.trimmedBlanks
        if let known = lock.withLock({ frames[key] }) {
            return known.map { found in
                var found = found
                found.frame.reportLine = reportLine
                return found
            }
        }
        let found = PastedFrameGrammar.parseNumbered(key, reportLine: reportLine)
        lock.withLock { frames[key] = .some(found) }
        return found
    }

    /// `LogPrefix.strip(line)`, read once.
    func strip(_ line: String) -> Substring {
        let key = line.trimmedBlanks
        if let known = lock.withLock({ stripped[key] }) { return known }
        let found = LogPrefix.strip(key)
        lock.withLock { stripped[key] = found }
        return found
    }
}
