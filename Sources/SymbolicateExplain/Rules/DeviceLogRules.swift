import Foundation
import SymbolicateCrashReport

/// Device log lines read as the report (`CrashReport.logEvents`, issue 40): the termination and
/// jetsam rules read the facts the reader put in the report's fields; this quotes the lines they
/// came from, as the log printed them, and says what a log cannot tell.
extension Diagnostician {
    func quoteLogEvents() {
        guard !report.logEvents.isEmpty else { return }
        for event in report.logEvents.prefix(6) {
            found.quote(Phrase(.fieldLogLine, ["line": .text(String(event.line))]), report.sourceLineText(event.line))
        }
        found.note(.noteDeviceLogOnly)
    }
}
