import Foundation

/// A crash reporter's own watchdog ended the process because the main thread stopped answering
/// (KSCrash's deadlock monitor): no signal, no exception.
public struct ReporterDeadlockFact: Sendable, Hashable {
    /// The reporter, when known (`KSCrash`).
    public var reporter: String?
    /// The report's lines that state it, when it says so in text (at most two).
    public var quotes: [String]

    public init(reporter: String? = nil, quotes: [String] = []) {
        self.reporter = reporter
        self.quotes = quotes
    }
}
