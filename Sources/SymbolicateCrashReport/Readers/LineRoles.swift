/// What a line of a text report is, as far as the writer needs to know: decided once while
/// the report is read and kept in its `TextDocument`, so writing (done for every output
/// format, sometimes twice) never classifies lines again.
enum LineRole: Sendable, Equatable {
    case other
    /// `Thread 3:`, `Thread 3 Crashed:`, `Thread 3 name: …`: the printed thread number.
    case threadHeader(Int)
    /// `Thread 3 crashed with ARM Thread State (64-bit):` and the lines after it up to a blank line.
    case threadState(Int)
    /// `Binary Images:`, `Last Exception Backtrace:`, `Thread 0 instruction stream:`, …
    case sectionHeader
}

/// Classifies the lines of a document in order. Binary image lines are told to it
/// (`markImageLine`): only the reader knows which lines it read as images.
struct LineRoleTracker {
    private(set) var roles: [LineRole]
    /// The thread whose register block is open.
    private var stateThread: Int?

    init(lineCount: Int) {
        roles = Array(repeating: .other, count: lineCount)
    }

    /// Classifies line `index`.
    mutating func classify(_ index: Int, _ text: String) {
        let trimmed = text.trimmedBlanks
        record(index, text, trimmed: trimmed, header: TextReportParser.threadHeader(trimmed))
    }

    /// Classifies line `index` from what the reader already worked out: the trimmed text and
    /// `TextReportParser.threadHeader(trimmed)`.
    mutating func record(_ index: Int, _ text: String, trimmed: String, header: TextReportParser.ThreadHeader?) {
        let role: LineRole
        if let header {
            stateThread = nil
            switch header {
            case let .name(n, _, _), let .backtrace(n, _, _, _): role = .threadHeader(n)
            case let .state(n):
                role = .threadState(n)
                stateThread = n
            case .other: role = .sectionHeader
            }
        } else if trimmed.isEmpty {
            stateThread = nil
            role = .other
        } else if let n = stateThread {
            role = .threadState(n)
        } else if Self.isSectionHeader(text) {
            role = .sectionHeader
        } else {
            role = .other
        }
        if roles.indices.contains(index) { roles[index] = role }
    }

    /// Line `index` was read as a Binary Images entry: it closes any register block.
    mutating func markImageLine(_ index: Int) {
        stateThread = nil
        if roles.indices.contains(index) { roles[index] = .other }
    }

    static func isSectionHeader(_ text: String) -> Bool {
        guard text.hasSuffix(":"), let first = text.first, first.isLetter else { return false }
        return text.hasPrefix("Binary Images") || text == "Last Exception Backtrace:" || text.hasPrefix("Application Specific")
            || text == "Kernel Triage:" || text.hasPrefix("External Modification Summary") || text.hasPrefix("VM Region Summary")
            || text == "Thread State:"
    }
}

extension TextDocument {
    /// The document with every line classified, for readers that do not classify as they read
    /// (call graphs). `imageLines` are the 1-based lines read as binary images.
    func classifyingLines(imageLines: Set<Int>) -> TextDocument {
        var tracker = LineRoleTracker(lineCount: lines.count)
        for (index, line) in lines.enumerated() {
            if imageLines.contains(index + 1) { tracker.markImageLine(index) } else { tracker.classify(index, line.text) }
        }
        var document = self
        document.roles = tracker.roles
        return document
    }
}
