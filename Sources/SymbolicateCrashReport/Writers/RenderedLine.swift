/// One output line with what it is, so callers can colour the crashed thread, mark app
/// frames or print only the crashed thread without parsing the output again.
package struct RenderedLine: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// `Thread 3 Crashed:`, `Thread 3 name: …`, `Thread 3:: …`. `thread` is the printed number.
        case threadHeader(thread: Int, crashed: Bool)
        /// A backtrace line. `thread` is the printed thread number for thread backtraces.
        case frame(thread: Int?, backtrace: BacktraceKind, isAppImage: Bool)
        /// `Thread 0 crashed with ARM Thread State (64-bit):` and its register lines.
        case threadState(thread: Int)
        /// `Binary Images:`, `Last Exception Backtrace:`, `Application Specific Information:`, …
        case sectionHeader
        /// A line of the `Binary Images` list.
        case binaryImage(isAppImage: Bool)
        case other
    }
    package var text: String
    /// The line's original terminator (`"\n"`, `"\r\n"`, `"\r"`, or `""` at end of file).
    package var terminator: String
    package var kind: Kind

    package init(text: String, terminator: String = "\n", kind: Kind) {
        self.text = text
        self.terminator = terminator
        self.kind = kind
    }
}

extension Array where Element == RenderedLine {
    /// Lines joined with their own terminators.
    package func joinedText() -> String {
        var out = ""
        out.reserveCapacity(reduce(0) { $0 + $1.text.utf8.count + 2 })
        for line in self {
            out += line.text
            out += line.terminator
        }
        return out
    }
}
